// Package scripts runs GitBook integration scripts inside Folio.
//
// An integration published with GitBook's CLI uploads one ES module whose
// default export is a Cloudflare-Workers-style handler, { fetch(request, env,
// ctx) }. Folio delivers each integration event by calling that fetch with a
// POST whose body is multipart/form-data (see MultipartEventRequest). A
// Runner compiles scripts once (cached by content hash) and runs each call in
// a fresh QuickJS virtual machine (modernc.org/quickjs, pure Go) with the web
// APIs such scripts use: fetch, Request, Response, Headers, URL, FormData,
// TextEncoder, crypto.subtle (HMAC, SHA digests), timers, AbortController and
// console. Every run is bounded in CPU time, memory, wall time, log lines,
// response size and outbound requests; a run that breaks a bound, throws or
// never settles ends with a *ScriptError.
//
// The package is a leaf: it imports the standard library, the JavaScript
// engine (modernc.org/quickjs and its intl package), esbuild (to turn the
// module into a script) and x/net/idna, and no Folio package. Outbound requests go only through the *http.Client given to
// NewRunner, which is where Folio's network guard lives.
//
// docs/scripts.md lists the APIs, what is not supported and what each limit
// really guarantees.
package scripts
