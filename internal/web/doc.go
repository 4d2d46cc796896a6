// Package web is Folio's web application for writers and reviewers: the
// pages at the root URL and behind the API's urls.app links (/o/{org},
// /c/{collection}, /s/{space}[/{path}], /s/{space}/~/changes/{n},
// /s/{space}/~/revisions/{id}), server-rendered with html/template, with
// embedded, content-hashed assets and a strict CSP, working without
// JavaScript.
//
// Sign-in (password, one-time link, SAML through the API's ACS) starts a
// session kept in the database (app.AuthenticateSession); its cookie
// resolves, once per request in wrap, to the same folio.Caller an API
// token does, and every page and form goes through the same app methods,
// roles and transactions as the API. State-changing requests carry a
// per-session CSRF token and must come from the app's own origin.
//
// The editor (internal/editor, a separate package) mounts on the page
// view: see editorMount in space.go.
//
// Allowed imports: folio, internal/app, internal/content, internal/reader
// (RenderDocument), internal/ratelimit.
package web
