package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/ratelimit"
	"github.com/foliodocs/folio/internal/reader"
)

// Config holds what the web application needs.
type Config struct {
	App    *app.App
	Logger *slog.Logger
	// PublicURL is the absolute base URL of the server; https makes the
	// session cookie Secure.
	PublicURL string
	// SignInLimit bounds sign-in attempts per minute, per client address
	// and per email; 0 leaves it off.
	SignInLimit int
	// Published, when set, gives the URL of a space's page (rest: its path)
	// on a public site that publishes it: a signed-out visitor of a space
	// link goes there instead of to sign-in.
	Published func(ctx context.Context, spaceID, rest string) (string, bool)
}

// Handler serves the web application.
type Handler struct {
	app       *app.App
	logger    *slog.Logger
	public    string
	origin    string // scheme://host of PublicURL
	secure    bool
	mux       *http.ServeMux
	signIns   *ratelimit.Limiter
	published func(ctx context.Context, spaceID, rest string) (string, bool)
	now       func() time.Time
	patterns  []string
	preview   *reader.Handler // renders the customization preview (custom.go)
}

// New builds the web application's handler with its routes.
func New(cfg Config) *Handler {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	h := &Handler{app: cfg.App, logger: cfg.Logger, public: strings.TrimRight(cfg.PublicURL, "/"), mux: http.NewServeMux(),
		signIns: ratelimit.New(cfg.SignInLimit, time.Minute, 100_000), published: cfg.Published, now: time.Now,
		preview: reader.New(cfg.App, cfg.PublicURL, cfg.Logger)}
	if u, err := url.Parse(h.public); err == nil {
		h.secure = u.Scheme == "https"
		h.origin = u.Scheme + "://" + u.Host
	}
	h.routes()
	return h
}

// Patterns lists the route patterns the application serves, for the
// server that mounts it.
func (h *Handler) Patterns() []string { return h.patterns }

// ServeHTTP serves one request of the application.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

// access says what a route needs of the request's session.
type access int

const (
	anyone   access = iota // signed in or not
	signedIn               // a live session; others are sent to sign in and back
)

// req is what wrap learns about a request.
type req struct {
	caller folio.Caller
	user   *folio.User
	secret string // the session's secret, "" signed out
	csrf   string
	id     string
}

type handlerFunc func(w http.ResponseWriter, r *http.Request, q *req) error

func (h *Handler) handle(pattern string, a access, fn handlerFunc) {
	h.patterns = append(h.patterns, pattern)
	h.mux.Handle(pattern, h.wrap(a, fn))
}

// wrap is the middleware of every route: security headers, panic
// recovery, the session (once per request: the same folio.Caller the
// API's tokens give), the cross-site checks of state-changing requests,
// and error pages.
func (h *Handler) wrap(a access, fn handlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := &req{id: requestID(r)}
		hd := w.Header()
		hd.Set("X-Request-Id", q.id)
		hd.Set("Content-Security-Policy", h.csp())
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "same-origin")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Cache-Control", "no-store")
		sw := &statusWriter{ResponseWriter: w}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				h.logger.LogAttrs(r.Context(), slog.LevelError, "panic", slog.String("request_id", q.id),
					slog.String("path", r.URL.Path), slog.String("panic", fmt.Sprint(p)), slog.String("stack", string(debug.Stack())))
				if sw.status == 0 {
					h.renderError(sw, r, q, fmt.Errorf("panic: %v", p))
				}
			}
		}()
		if err := h.serve(sw, r, q, a, fn); err != nil {
			if sw.status != 0 {
				h.logger.LogAttrs(r.Context(), slog.LevelError, "error after response started",
					slog.String("request_id", q.id), slog.String("error", err.Error()))
				return
			}
			h.renderError(sw, r, q, err)
		}
	})
}

func (h *Handler) serve(w http.ResponseWriter, r *http.Request, q *req, a access, fn handlerFunc) error {
	r = r.WithContext(folio.WithRequestID(r.Context(), q.id))
	if c, err := r.Cookie(h.cookieName()); err == nil && c.Value != "" {
		caller, err := h.app.AuthenticateSession(r.Context(), c.Value)
		switch {
		case err == nil:
			q.caller, q.secret, q.csrf = caller, c.Value, csrfToken(c.Value)
			if q.user, err = h.app.GetAuthenticatedUser(r.Context(), caller); err != nil {
				return err
			}
		case folio.KindOf(err) == folio.Unauthenticated:
			h.clearCookie(w) // ended or expired: forget it
		default:
			return err
		}
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		if err := h.checkCrossSite(r, q); err != nil {
			return err
		}
	}
	if a == signedIn && q.secret == "" {
		if r.Method != http.MethodGet {
			return errSignInFirst
		}
		if u, ok := h.publishedPage(r); ok {
			http.Redirect(w, r, u, http.StatusFound)
			return nil
		}
		http.Redirect(w, r, "/signin?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
		return nil
	}
	return fn(w, r, q)
}

// publishedPage finds where a signed-out visitor of a space link can read
// it without signing in: the space's page on a public site.
func (h *Handler) publishedPage(r *http.Request) (string, bool) {
	id := r.PathValue("space")
	if h.published == nil || id == "" || strings.HasPrefix(strings.TrimPrefix(r.URL.Path, "/s/"+id+"/"), "~") {
		return "", false
	}
	return h.published(r.Context(), id, r.PathValue("rest"))
}

// maxUploadForm bounds a posted form with files.
const maxUploadForm = 8 << 20

var (
	errSignInFirst = folio.Errorf(folio.Unauthenticated, "sign in to continue")
	errCrossSite   = folio.Errorf(folio.Forbidden, "this form came from another site or an old page: reload the page and try again")
)

// checkCrossSite refuses a state-changing request that did not come from
// the application's own pages: the browser's Sec-Fetch-Site and Origin
// must say same origin, and a signed-in request must carry the session's
// CSRF token in its form.
func (h *Handler) checkCrossSite(r *http.Request, q *req) error {
	if s := r.Header.Get("Sec-Fetch-Site"); s != "" && s != "same-origin" && s != "none" {
		return errCrossSite
	}
	if o := r.Header.Get("Origin"); o != "" && o != h.origin && o != requestOrigin(r) {
		return errCrossSite
	}
	if q.secret == "" {
		return nil
	}
	if t := r.Header.Get("X-CSRF-Token"); t != "" {
		// The editor's requests send JSON, with the token in a header that
		// a cross-site form cannot set.
		if !equalToken(t, q.csrf) {
			return errCrossSite
		}
		return nil
	}
	// A form with files (multipart) may be larger: its uploads are
	// checked again by what reads them.
	limit, multi := int64(1<<20), strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data")
	if multi {
		limit = maxUploadForm
	}
	r.Body = http.MaxBytesReader(nil, r.Body, limit)
	var err error
	if multi {
		err = r.ParseMultipartForm(limit)
	} else {
		err = r.ParseForm()
	}
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return folio.Errorf(folio.TooLarge, "the form is larger than %d MiB", limit>>20)
	}
	if err != nil {
		return folio.Errorf(folio.Invalid, "the form could not be read")
	}
	if !equalToken(r.PostForm.Get("csrf"), q.csrf) {
		return errCrossSite
	}
	return nil
}

// requestOrigin is the origin the request was addressed to (a server
// reached under another name than its public URL, as in tests).
func requestOrigin(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// csp is the Content-Security-Policy of every page: nothing inline, no
// third party; images may come from the server's public origin (signed
// file URLs).
func (h *Handler) csp() string {
	img := "'self' data:"
	if h.origin != "" {
		img += " " + h.origin
	}
	return "default-src 'none'; script-src 'self'; style-src 'self'; img-src " + img +
		"; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
}

func requestID(r *http.Request) string {
	if id := r.Header.Get("X-Request-Id"); id != "" && len(id) <= 64 && !strings.ContainsAny(id, " \t\r\n") {
		return id
	}
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// clientAddress is the client's address as the server found it (behind
// trusted proxies, from their forwarding headers), else the TCP peer's.
func clientAddress(r *http.Request) string {
	if a := folio.ClientAddress(r.Context()); a != "" {
		return ratelimit.AddressKey(a)
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// statusOf maps an error kind to the status of its page.
func statusOf(k folio.Kind) int {
	switch k {
	case folio.Invalid:
		return http.StatusBadRequest
	case folio.Unauthenticated:
		return http.StatusUnauthorized
	case folio.Forbidden:
		return http.StatusForbidden
	case folio.NotFound:
		return http.StatusNotFound
	case folio.Conflict:
		return http.StatusConflict
	case folio.TooManyRequests:
		return http.StatusTooManyRequests
	case folio.Unavailable:
		return http.StatusServiceUnavailable
	case folio.TooLarge:
		return http.StatusRequestEntityTooLarge
	}
	return http.StatusInternalServerError
}

// errorView is the body of an error page.
type errorView struct {
	Status  int
	Heading string
	Message string
}

// renderError answers a failed request with a page saying why: the safe
// message of the error, or a fixed one for internal errors (logged in
// full with the request id).
func (h *Handler) renderError(w http.ResponseWriter, r *http.Request, q *req, err error) {
	kind := folio.KindOf(err)
	status := statusOf(kind)
	msg := folio.MessageOf(err)
	if status >= 500 {
		h.logger.LogAttrs(r.Context(), slog.LevelError, "request failed", slog.String("request_id", q.id),
			slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.String("error", err.Error()))
		msg = "Something went wrong on the server. Try again; if it keeps failing, tell your administrator (request " + q.id + ")."
	}
	var ra interface{ RetryAfter() time.Duration }
	if errors.As(err, &ra) {
		w.Header().Set("Retry-After", fmt.Sprint(int(ra.RetryAfter().Seconds())+1))
	}
	if wantsJSON(r) {
		writeJSONError(w, status, msg)
		return
	}
	heading := map[int]string{400: "That did not work", 401: "Sign in to continue", 403: "Not allowed", 404: "Not found",
		409: "That clashes with a change", 429: "Too many attempts"}[status]
	if heading == "" {
		heading = "Something went wrong"
	}
	h.render(w, status, "error", q, heading, errorView{Status: status, Heading: heading, Message: msg})
}

// render writes a page: the named template inside the layout.
func (h *Handler) render(w http.ResponseWriter, status int, name string, q *req, title string, data any) {
	h.renderPage(w, status, name, q, title, data, pageAssets{})
}

// pageAssets are a page's own stylesheets and scripts, after the app's.
type pageAssets struct {
	CSS, Scripts []string
}

// renderPage is render with the page's own assets.
func (h *Handler) renderPage(w http.ResponseWriter, status int, name string, q *req, title string, data any, extra pageAssets) {
	t, ok := pages[name]
	if !ok {
		panic("web: no template " + name)
	}
	v := &view{Title: title, User: q.user, CSRF: q.csrf, Data: data, CSS: append(assetURLs()[:len(assetURLs()):len(assetURLs())], extra.CSS...),
		Scripts: extra.Scripts}
	var buf strings.Builder
	if err := t.ExecuteTemplate(&buf, "layout", v); err != nil {
		h.logger.Error("render", "template", name, "error", err.Error())
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write([]byte(buf.String()))
}

// view is what every page's template gets.
type view struct {
	Title string
	User  *folio.User // nil when signed out
	CSRF  string
	CSS   []string
	// Scripts are loaded deferred, in order.
	Scripts []string
	Data    any
}
