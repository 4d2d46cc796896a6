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
// Writing (edit.go): a page's "Edit" opens /s/{space}/~/pages/{page}/edit
// (or, inside a change request, /s/{space}/~/changes/{n}/pages/{page}/edit),
// which mounts the editor (internal/editor, served under /assets/editor/,
// with editor.CSP) through static/edit.js on the page's document. Save
// posts the document as JSON with the CSRF token in X-CSRF-Token to
// .../document, which calls app.SavePageDocument with the revision the
// view started from: a page changed since answers 409, shown in the view.
// Requests with "Accept: application/json" get their errors as GitBook
// error bodies. Pasted, dropped and picked images go to .../files
// (upload.go, app.AddSpaceFile), which answers the file reference the
// editor inserts and a URL to show it.
//
// Reviewing (comments.go, review.go): the blocks of a page and of a change
// request's diff take comment threads (page and block key targets) with
// replies, reactions and resolve/reopen; the Comments tab lists the live
// content's threads by status and page; a change request asks members for
// reviews and shows its reviews. Every form posts to an app method and
// redirects back.
//
// Allowed imports: folio, internal/app, internal/content, internal/reader
// (RenderDocument, RenderBlocks), internal/ratelimit, internal/editor (its assets).
package web
