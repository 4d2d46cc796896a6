// Package httpapi serves the /v1 JSON API, /healthz and /metrics. It owns
// HTTP concerns only: routing (routes.go is the index of the API), request
// ids, authentication of the bearer token, body limits and decoding, the
// single error-kind-to-status table, metrics and access logs. Each handler
// parses its input, makes one app call and encodes a wire shape.
//
// Published sites outside /v1 are handed to internal/reader (Config.Reader).
//
// Allowed imports: folio, app, reader, wire and the standard library, plus the
// Prometheus client.
package httpapi
