// Package sso is Folio's side of single sign-on: the OpenID Connect
// relying party (oidc.go, on github.com/coreos/go-oidc and
// golang.org/x/oauth2, whose requests go through the HTTP client it is
// given) and the SAML service provider, built on github.com/crewjam/saml. Given one organization's identity
// provider (IdP) configuration and the service-provider (SP) endpoints Folio
// serves for it, it builds the HTTP-Redirect AuthnRequest, verifies the
// SAMLResponse posted back to the assertion consumer service (ACS), and
// writes the SP metadata an IdP administrator imports.
//
// The SAML side performs no I/O beyond parsing: no database, no HTTP
// routing, no outbound requests. The app layer stores providers and pending request ids
// and calls this package; the HTTP layer serves the endpoints.
//
// Time is an argument: ParseResponse checks every time in the assertion
// against its now, and the IdP certificate's validity period too, without
// touching crewjam's package-level TimeNow or Clock, so tests may run in
// parallel. crewjam also checks the same times against the wall clock
// internally (that cannot be turned off per call); in production both
// clocks agree, and in tests now can only make the checks stricter.
//
// Allowed imports: package folio, github.com/crewjam/saml (with the
// goxmldsig and etree types its API exposes), github.com/coreos/go-oidc,
// golang.org/x/oauth2 and the standard library.
package sso
