// Package specval checks the HTTP exchanges of folio's API tests against the
// official GitBook OpenAPI document, so that a response with an undeclared
// status, a missing required field or a wrongly typed value fails the test
// that provoked it.
//
// A test loads the document once with [Load] and hands every request/response
// pair it made to [Validator.Check]:
//
//   - The operation is found by method and path; only the path after /v1
//     matters, never the scheme, host or port the test server listens on.
//     Exchanges the document does not declare (folio's own extensions) are
//     reported as unmatched and are not validated.
//   - The request (path and query parameters, body) is validated only when
//     the response status is 2xx, since tests send invalid requests on purpose
//     and expect them to be refused. Authentication is never validated.
//   - A declared status (exact, range or default) is validated against its
//     declared response; 204 and 205 must have an empty body. An undeclared
//     status of 400 or more must carry GitBook's error shape
//     {"error":{"code":<status>,"message":"..."}}; an undeclared status below
//     400 is an error.
//
// String formats "date-time" and "uri" are validated with validators passed
// per validation call, so nothing global in kin-openapi is changed.
//
// Load adjusts the in-memory document in two ways, neither of which touches
// the file: the servers list is replaced by the relative "/v1" so that any
// host matches, and a $ref with a sibling "nullable": true (which OpenAPI 3.0
// ignores) becomes a nullable copy of its target. GitBook's other spelling of
// nullable fields, oneOf [X, {"type":"string","nullable":true,"enum":[null]}],
// needs no change: kin-openapi accepts null and rejects non-null values for
// the second branch, which the tests check.
package specval
