package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/buildinfo"
	"github.com/foliodocs/folio/internal/ratelimit"
	"github.com/foliodocs/folio/internal/reader"
	"github.com/foliodocs/folio/internal/web"
	"github.com/foliodocs/folio/internal/wire"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// DefaultMaxBody is the default request body limit.
const DefaultMaxBody = 10 << 20

// DefaultBodyTimeout is the default time a client has to send a request
// body, from the end of its headers.
const DefaultBodyTimeout = 60 * time.Second

// Config holds what a Server needs.
type Config struct {
	App       *app.App
	Logger    *slog.Logger
	PublicURL string // absolute base of every URL in responses, no trailing slash
	MaxBody   int64  // request body limit in bytes; 0 selects DefaultMaxBody
	// BodyTimeout bounds the time to receive a request body; 0 selects
	// DefaultBodyTimeout. A body that stalls gets 408 and a closed connection.
	BodyTimeout time.Duration
	// AccessLog logs one line per request at Info level.
	AccessLog bool
	// Reader serves published sites outside /v1 (see internal/reader);
	// nil selects reader.New over App.
	Reader Reader
	// JobsAlive, when set, tells when the server's job runner last went
	// round its loop; /healthz reports a runner stuck for over a minute.
	JobsAlive func() time.Time
	// RateLimits bound request rates; the zero value leaves them off.
	RateLimits RateLimits
	// TrustedProxies are the reverse proxies whose X-Forwarded-For or
	// Forwarded headers give the client address (clientaddr.go); from
	// other peers those headers are ignored.
	TrustedProxies []netip.Prefix
	// Web is the web application, served at the root URL and behind the
	// urls.app links; nil selects web.New over App (its sign-ins limited
	// by RateLimits.Sensitive).
	Web *web.Handler
}

// Reader is the published-site reader: it claims the requests it Matches.
type Reader interface {
	http.Handler
	Match(r *http.Request) bool
}

// Server is the HTTP handler of the whole API.
type Server struct {
	app       *app.App
	logger    *slog.Logger
	urls      wire.URLs
	maxBody   int64
	bodyWait  time.Duration
	accessLog bool
	mux       *http.ServeMux
	metrics   *metrics
	reader    Reader
	web       *web.Handler
	limits    *limiters
	jobs      *jobMetrics
	jobsAlive func() time.Time
	table     []Route        // every route handle registered, in order
	build     buildinfo.Info // what /healthz and folio_build_info report
	proxies   proxies
}

// New builds the handler with every route registered.
func New(cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.BodyTimeout <= 0 {
		cfg.BodyTimeout = DefaultBodyTimeout
	}
	s := &Server{
		app: cfg.App, logger: cfg.Logger, maxBody: cfg.MaxBody, bodyWait: cfg.BodyTimeout, accessLog: cfg.AccessLog,
		urls: wire.URLs{Public: strings.TrimRight(cfg.PublicURL, "/")},
		mux:  http.NewServeMux(), build: buildinfo.Read(),
	}
	s.metrics = newMetrics(s.build)
	s.jobsAlive = cfg.JobsAlive
	s.proxies = cfg.TrustedProxies
	if cfg.App != nil {
		s.jobs = newJobMetrics(cfg.App)
		s.metrics.reg.MustRegister(s.jobs, newCacheMetrics(cfg.App))
		// The database pools: open, in use and idle connections, waits.
		for name, pool := range cfg.App.DB().Pools() {
			s.metrics.reg.MustRegister(collectors.NewDBStatsCollector(pool, "folio_"+name))
		}
	}
	s.limits = newLimiters(cfg.RateLimits)
	s.reader = cfg.Reader
	if s.reader == nil && cfg.App != nil {
		s.reader = reader.New(cfg.App, s.urls.Public, cfg.Logger)
	}
	if c, ok := s.reader.(prometheus.Collector); ok {
		s.metrics.reg.MustRegister(c) // the reader's cache metrics
	}
	s.routes()
	s.web = cfg.Web
	if s.web == nil && cfg.App != nil {
		s.web = web.New(web.Config{App: cfg.App, Logger: cfg.Logger, PublicURL: s.urls.Public, SignInLimit: cfg.RateLimits.Sensitive,
			Published: s.publishedSpace})
	}
	if s.web != nil {
		for _, p := range s.web.Patterns() {
			s.mux.Handle(p, s.serveWeb(p))
		}
	}
	// Anything no route claims: 405 when the path exists for other methods,
	// 404 otherwise, both as JSON errors.
	s.mux.Handle("/", s.wrap("unmatched", public, s.notRouted))
	return s
}

// ServeHTTP serves one request.
// Published sites go to the reader, everything else to the API's routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.reader != nil && !strings.HasPrefix(r.URL.Path, "/v1/") && s.reader.Match(r) {
		s.serveReader(w, r)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// serveReader serves a reader request with the API's request id, panic
// recovery and metrics, but none of its JSON rules.
func (s *Server) serveReader(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rid := requestID(r)
	w.Header().Set("X-Request-Id", rid)
	addr := s.proxies.clientAddress(r)
	r = r.WithContext(folio.WithClientAddress(r.Context(), addr))
	sw := &statusWriter{ResponseWriter: w}
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			s.logger.LogAttrs(r.Context(), slog.LevelError, "panic", slog.String("request_id", rid),
				slog.String("route", "reader"), slog.String("panic", fmt.Sprint(p)), slog.String("stack", string(debug.Stack())))
			if sw.status == 0 {
				http.Error(sw, "internal error", http.StatusInternalServerError)
			}
		}
		s.observe(r, "reader", sw.status, start)
	}()
	if err := s.limits.check(sw, s.limits.address, ratelimit.AddressKey(addr)); err != nil {
		sw.Header().Set("Content-Type", "text/plain; charset=utf-8")
		sw.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprintln(sw, folio.MessageOf(err))
		return
	}
	s.reader.ServeHTTP(sw, r)
}

// serveWeb serves a route of the web application with the API's metrics
// and per-address limit; the application authenticates its sessions
// itself, into the same folio.Caller (internal/web).
func (s *Server) serveWeb(route string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		defer func() { s.observe(r, route, sw.status, start) }()
		addr := s.proxies.clientAddress(r)
		r = r.WithContext(folio.WithClientAddress(r.Context(), addr))
		if err := s.limits.check(sw, s.limits.address, ratelimit.AddressKey(addr)); err != nil {
			sw.Header().Set("Content-Type", "text/plain; charset=utf-8")
			sw.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprintln(sw, folio.MessageOf(err))
			return
		}
		s.web.ServeHTTP(sw, r)
	})
}

// handlerFunc is a handler that returns its error, which the adapter
// renders, so no handler can forget to answer after a failure.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// routeKind says what a route requires of a request.
type routeKind int

const (
	public       routeKind = iota // no token; JSON body rules
	authed                        // an API token; JSON body rules
	publicForm                    // no token; the handler reads a form body itself
	optionalAuth                  // a token when the request sends one; JSON body rules
	endpoint                      // no token; any body, which the handler reads; limited per installation (publicendpoint.go)
)

// handle registers one route.
func (s *Server) handle(pattern string, kind routeKind, h handlerFunc) {
	s.table = append(s.table, Route{Pattern: pattern, Token: kind == authed, Site: siteRoutes[pattern],
		Installation: installationScopes(pattern)})
	s.mux.Handle(pattern, s.wrap(pattern, kind, h))
}

// Route is one route of the API, as registered in routes.go.
type Route struct {
	Pattern string // method and path pattern, "GET /v1/spaces/{spaceId}"
	Token   bool   // it requires an API token (others take none, or one optionally)
	// Site says a site API token may call it (siteRoutes).
	Site bool
	// Installation lists the scopes that let an installation token call it
	// (installationRoutes): nil when none do, empty when the installation
	// calls it on itself whatever its scopes.
	Installation []string
}

// Routes lists the API's routes in the order routes.go registers them, for
// tests that walk the whole API and for the documentation.
func (s *Server) Routes() []Route { return slices.Clone(s.table) }

type ctxKey struct{}

// reqState is what the middleware learns about a request, kept in its
// context under one key (one context value and one request copy per
// request, not one per field).
type reqState struct {
	id      string
	address string // the client's (clientaddr.go)
	caller  folio.Caller
}

func stateOf(ctx context.Context) *reqState {
	st, _ := ctx.Value(ctxKey{}).(*reqState)
	if st == nil {
		return &reqState{}
	}
	return st
}

// caller returns the authenticated caller of a request.
func caller(r *http.Request) folio.Caller { return stateOf(r.Context()).caller }

func requestIDFrom(ctx context.Context) string { return stateOf(ctx).id }

// wrap is the middleware of every route: request id, panic recovery,
// authentication, body checks, error rendering, metrics and access log.
func (s *Server) wrap(route string, kind routeKind, h handlerFunc) http.Handler {
	params := pathParams(route)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rid := requestID(r)
		w.Header().Set("X-Request-Id", rid)
		st := &reqState{id: rid, address: s.proxies.clientAddress(r)}
		ctx := folio.WithRequestID(context.WithValue(r.Context(), ctxKey{}, st), rid)
		r = r.WithContext(folio.WithClientAddress(ctx, st.address))
		sw := &statusWriter{ResponseWriter: w}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.logger.LogAttrs(r.Context(), slog.LevelError, "panic",
					slog.String("request_id", rid), slog.String("route", route),
					slog.String("panic", fmt.Sprint(p)), slog.String("stack", string(debug.Stack())))
				if sw.status == 0 {
					s.writeError(sw, r, fmt.Errorf("panic: %v", p))
				}
			}
			s.observe(r, route, sw.status, start)
		}()
		if err := s.serve(sw, r, st, route, kind, params, h); err != nil {
			if sw.status != 0 {
				// The answer has started; all that is left is to log.
				s.logger.LogAttrs(r.Context(), slog.LevelError, "error after response started",
					slog.String("request_id", rid), slog.String("error", err.Error()))
				return
			}
			s.writeError(sw, r, err)
		}
	})
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request, st *reqState, route string, kind routeKind, params []pathParam, h handlerFunc) error {
	if sensitiveRoutes[route] {
		if err := s.limits.check(w, s.limits.sensitive, ratelimit.AddressKey(st.address)); err != nil {
			return err
		}
	}
	if hasBody(r) {
		// The server bounds the time to read headers; the body gets its
		// own deadline, or a client could hold a connection and a
		// goroutine forever by sending it slowly.
		if err := http.NewResponseController(w).SetReadDeadline(time.Now().Add(s.bodyWait)); err != nil && !errors.Is(err, http.ErrNotSupported) {
			return fmt.Errorf("set body deadline: %w", err)
		}
	}
	if kind == authed || kind == optionalAuth && r.Header.Get("Authorization") != "" {
		c, err := s.authenticate(r)
		if err != nil {
			// Guessing tokens costs the address's budget.
			if lerr := s.limits.check(w, s.limits.address, ratelimit.AddressKey(st.address)); lerr != nil {
				return lerr
			}
			return err
		}
		st.caller = c
		if err := s.limits.check(w, s.limits.token, tokenKey(c)); err != nil {
			return err
		}
		if err := siteRouteAllowed(c, r); err != nil {
			return err
		}
		if err := installationRouteAllowed(c, r); err != nil {
			return err
		}
	}
	if kind == endpoint {
		if err := s.limits.check(w, s.limits.endpoint, endpointLimitKey(r)); err != nil {
			return err
		}
	}
	if st.caller == (folio.Caller{}) && !sensitiveRoutes[route] {
		if err := s.limits.check(w, s.limits.address, ratelimit.AddressKey(st.address)); err != nil {
			return err
		}
	}
	if err := checkPath(r, params); err != nil {
		return err
	}
	if err := checkQuery(r); err != nil {
		return err
	}
	if kind == publicForm || kind == endpoint {
		return h(w, r)
	}
	if err := s.checkBody(w, r); err != nil {
		return err
	}
	return h(w, r)
}

// authenticate reads the bearer token.
func (s *Server) authenticate(r *http.Request) (folio.Caller, error) {
	h := r.Header.Get("Authorization")
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return folio.Caller{}, folio.Errorf(folio.Unauthenticated, "a valid API token is required: send Authorization: Bearer <token>")
	}
	token = strings.TrimSpace(token)
	if app.LooksLikeSiteToken(token) {
		// A JWT is a site API token (siteapi.go).
		return s.app.AuthenticateSiteToken(r.Context(), token)
	}
	return s.app.Authenticate(r.Context(), token)
}

// requestID takes the client's X-Request-Id when it is short and plain, so
// a request can be followed through proxies, and makes one otherwise.
func requestID(r *http.Request) string {
	if id := r.Header.Get("X-Request-Id"); id != "" && len(id) <= 64 && printableASCII(id) {
		return id
	}
	var b [12]byte
	var out [24]byte
	rand.Read(b[:])
	hex.Encode(out[:], b[:])
	return string(out[:])
}

func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// statusWriter records the status of the answer.
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

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// observe records metrics and the access log line of a finished request.
func (s *Server) observe(r *http.Request, route string, status int, start time.Time) {
	if status == 0 {
		status = http.StatusOK
	}
	d := time.Since(start)
	s.metrics.observe(route, r.Method, status, d)
	if s.accessLog {
		s.logger.LogAttrs(r.Context(), slog.LevelInfo, "request",
			slog.String("request_id", requestIDFrom(r.Context())),
			slog.String("method", r.Method), slog.String("route", route), slog.String("path", loggedPath(route, r.URL.Path)),
			slog.Int("status", status), slog.Duration("duration", d), slog.String("client", folio.ClientAddress(r.Context())))
	}
}

// secretWildcards are the path wildcards that carry a secret: an invite
// link's id (GET /join/{org}/{invite}, POST /v1/orgs/{organizationId}/invites/{inviteId})
// and a one-time sign-in token (GET /signin/link/{token}). The access log,
// often shipped to a third party, shows them as the wildcard's name.
var secretWildcards = map[string]bool{"{invite}": true, "{inviteId}": true, "{token}": true}

// loggedPath is the path of a request to route (a pattern such as
// "GET /join/{org}/{invite}") as the access log shows it: the segments of
// secretWildcards replaced by the wildcard.
func loggedPath(route, path string) string {
	_, pattern, ok := strings.Cut(route, " ")
	if !ok || !strings.ContainsAny(pattern, "{") {
		return path
	}
	ps, segs := strings.Split(pattern, "/"), strings.Split(path, "/")
	changed := false
	for i, p := range ps {
		if strings.HasSuffix(p, "...}") || i >= len(segs) {
			break // the segments after a {rest...} do not line up
		}
		if secretWildcards[p] {
			segs[i], changed = p, true
		}
	}
	if !changed {
		return path
	}
	return strings.Join(segs, "/")
}

var probeMethods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

// notRouted answers requests no route claims.
func (s *Server) notRouted(w http.ResponseWriter, r *http.Request) error {
	var allowed []string
	for _, m := range probeMethods {
		if m == r.Method {
			continue
		}
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, p := s.mux.Handler(probe); p != "" && p != "/" {
			allowed = append(allowed, m)
		}
	}
	if len(allowed) > 0 {
		return &folio.Error{Kind: folio.MethodNotAllowed, Field: strings.Join(allowed, ", "),
			Message: fmt.Sprintf("method %s is not allowed on %s", r.Method, r.URL.Path)}
	}
	return folio.Errorf(folio.NotFound, "no route for %s %s", r.Method, r.URL.Path)
}
