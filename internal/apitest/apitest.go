// Package apitest runs API tests against the real handler chain that
// "folio serve" uses, on an httptest server, once per store (SQLite, and
// PostgreSQL when configured). Its client checks every exchange against the
// GitBook OpenAPI reference when it is present (FOLIO_GITBOOK_SPEC, or the
// default cache of scripts/gitbook-spec), so every test is also a
// wire-compatibility test. Fixtures are made through app calls, not SQL.
//
// Allowed imports: anything (tests only).
package apitest

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"gocloud.dev/blob/fileblob"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest/specval"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/httpapi"
	"github.com/foliodocs/folio/internal/jobs"
	"github.com/foliodocs/folio/internal/pdf"
	"github.com/foliodocs/folio/internal/scripts"
	"github.com/foliodocs/folio/internal/seal"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/store/storetest"
	"github.com/foliodocs/folio/internal/translate"
)

// PublicURL is the public URL test servers report in urls fields.
const PublicURL = "http://folio.test"

// Options tune a test server.
type Options struct {
	MaxBody int64 // request body limit; 0 keeps the default
	// ImportFetchTimeout bounds fetching an imported URL; 0 keeps the default.
	ImportFetchTimeout time.Duration
	// BodyTimeout bounds receiving a request body; 0 keeps the default.
	BodyTimeout time.Duration
	// NoSecretKey starts the server without a server key (seal), as a
	// PostgreSQL server without FOLIO_SECRET_KEY runs.
	NoSecretKey bool
	// Translator is the translation engine; nil runs without one.
	Translator translate.Engine
	// WebhookTimeout bounds one webhook delivery; 0 keeps the default.
	WebhookTimeout time.Duration
	// RateLimits are the server's rate limits (off unless set).
	RateLimits httpapi.RateLimits
	// PublicURL is the server's public URL; "" keeps PublicURL.
	PublicURL string
	// TrustedProxies are the proxies whose forwarding headers count (none
	// unless set; test clients connect from 127.0.0.1).
	TrustedProxies []netip.Prefix
	// GuardPrivate runs with --import-allow-private off: tenant URLs on
	// loopback and private networks are refused (test servers normally
	// allow them, being on loopback themselves).
	GuardPrivate bool
}

// Server is a running API over one store.
type Server struct {
	Store string // "sqlite" or "postgres"
	URL   string // base URL, without /v1
	DB    *store.DB
	App   *app.App
	Clock *Clock
	// PublicURL is the public URL the server reports (Options.PublicURL
	// or PublicURL).
	PublicURL string
	// Jobs runs the background jobs that are due (tests call RunDue).
	Jobs *jobs.Runner
	// Handler is the server's handler, for benchmarks that skip the network.
	Handler http.Handler
	spec    *specval.Validator
	dbConf  store.Config
}

// Run runs fn once per store, as parallel subtests, each with a new server
// over an empty database.
func Run(t *testing.T, fn func(t *testing.T, s *Server)) {
	t.Helper()
	RunOptions(t, Options{}, fn)
}

// RunOptions is Run with options.
func RunOptions(t *testing.T, opts Options, fn func(t *testing.T, s *Server)) {
	t.Helper()
	for _, kind := range storetest.Stores(t) {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			fn(t, New(t, kind, opts))
		})
	}
}

// New starts a server over a new database of the given kind.
func New(t testing.TB, kind string, opts Options) *Server {
	t.Helper()
	clock := &Clock{}
	dbConf := storetest.Location(t, kind, store.Config{Clock: clock})
	db, err := store.Open(context.Background(), dbConf)
	if err != nil {
		t.Fatalf("open %s store: %v", kind, err)
	}
	t.Cleanup(func() { db.Close() })
	files, err := fileblob.OpenBucket(t.TempDir(), &fileblob.Options{NoTempDir: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { files.Close() })
	var sealer *seal.Sealer
	if !opts.NoSecretKey {
		key, err := seal.ParseKey(seal.NewKeyText())
		if err == nil {
			sealer, err = seal.New(key)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	publicURL := cmp.Or(opts.PublicURL, PublicURL)
	a := app.New(app.Config{DB: db, Clock: clock, PublicURL: publicURL, Blobs: files,
		HTTPClient: app.NewImportClient(!opts.GuardPrivate), ImportFetchTimeout: opts.ImportFetchTimeout, WebhookTimeout: opts.WebhookTimeout, Sealer: sealer,
		ScriptLimits: scripts.Limits{CPUTime: 500 * time.Millisecond, WallTime: 10 * time.Second, Memory: 32 << 20},
		Git:          &app.GitConfig{CacheDir: t.TempDir(), AllowFile: true, AllowPrivate: !opts.GuardPrivate}, Translator: opts.Translator})
	printer, err := pdf.New(a, publicURL, "a4")
	if err != nil {
		t.Fatal(err)
	}
	a.SetPrinter(printer)
	s := &Server{Store: kind, DB: db, App: a, Clock: clock, PublicURL: publicURL, spec: loadSpec(t), dbConf: dbConf, Jobs: jobs.NewRunner(db, nil, a.JobHandlers()).WithGiveUp(a.JobGiveUps())}
	h := httpapi.New(httpapi.Config{App: a, MaxBody: opts.MaxBody, BodyTimeout: opts.BodyTimeout, PublicURL: publicURL,
		RateLimits: opts.RateLimits, TrustedProxies: opts.TrustedProxies})
	s.Handler = h
	ts := httptest.NewUnstartedServer(h)
	ts.Config.ConnState = h.ConnState
	ts.Start()
	t.Cleanup(ts.Close)
	s.URL = ts.URL
	return s
}

// OpenDB opens the server's database once more, with its own pools and
// counters, as a second server process sharing it would.
func (s *Server) OpenDB(t testing.TB) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), s.dbConf)
	if err != nil {
		t.Fatalf("open the %s store again: %v", s.Store, err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// Clock is a test clock: the wall clock until Set or Advance fix it.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.now.IsZero() {
		return folio.SystemClock{}.Now()
	}
	return c.now
}

// Set fixes the clock at t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	c.now = t.UTC().Truncate(time.Microsecond)
	c.mu.Unlock()
}

// Advance moves the clock forward, fixing it first if needed.
func (c *Clock) Advance(d time.Duration) {
	c.Set(c.Now().Add(d))
}

var (
	specOnce sync.Once
	spec     *specval.Validator
	specErr  error
)

// DefaultSpecPath is where scripts/gitbook-spec caches the GitBook
// reference, or "" when the user cache folder is unknown.
func DefaultSpecPath() string {
	home, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, "folio", "gitbook-api-0.143.2", "spec", "openapi.json")
}

// SpecPath returns the GitBook reference to validate against, or "" when
// it is not on this machine.
func SpecPath() string {
	if p := os.Getenv("FOLIO_GITBOOK_SPEC"); p != "" {
		return p
	}
	p := DefaultSpecPath()
	if _, err := os.Stat(p); p == "" || err != nil {
		return ""
	}
	return p
}

var noticeOnce sync.Once

// MissingReference deals with a GitBook reference that is not on this
// machine. In CI (CI set) it fails the test: there every exchange must be
// validated. Elsewhere it says once per test binary that responses are not
// validated, on the terminal when there is one, since go test shows nothing
// of a package that passes.
func MissingReference(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("the GitBook reference is required in CI: %s (fetch it with scripts/gitbook-spec or set FOLIO_GITBOOK_SPEC)", why)
	}
	t.Logf("NOT VALIDATED against the GitBook reference: %s", why)
	noticeOnce.Do(func() {
		msg := "folio tests: API responses were NOT validated against the GitBook reference (" + why +
			"); run scripts/gitbook-spec to fetch it\n"
		if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
			tty.WriteString(msg)
			tty.Close()
			return
		}
		os.Stderr.WriteString(msg)
	})
}

func loadSpec(t testing.TB) *specval.Validator {
	t.Helper()
	path := SpecPath()
	if path == "" {
		MissingReference(t, "no FOLIO_GITBOOK_SPEC and nothing at "+DefaultSpecPath())
		return nil
	}
	specOnce.Do(func() { spec, specErr = specval.Load(path) })
	if specErr != nil {
		t.Fatalf("load GitBook reference %s: %v", path, specErr)
	}
	return spec
}

// Response is an answer of the server, body read.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
	req    string
}

// JSON decodes the body into v, failing the test on error.
func (r *Response) JSON(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("%s: decode body %q: %v", r.req, r.Body, err)
	}
}

// Map decodes the body as a JSON object.
func (r *Response) Map(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	r.JSON(t, &m)
	return m
}

// WantStatus fails the test unless the status is want.
func (r *Response) WantStatus(t testing.TB, want int) *Response {
	t.Helper()
	if r.Status != want {
		t.Fatalf("%s: status %d, want %d; body: %s", r.req, r.Status, want, r.Body)
	}
	return r
}

// WantError fails the test unless the answer is the GitBook error body with
// status code and a message containing msg.
func (r *Response) WantError(t testing.TB, code int, msg string) {
	t.Helper()
	r.WantStatus(t, code)
	var e struct {
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	r.JSON(t, &e)
	if e.Error.Code != code {
		t.Fatalf("%s: error.code %d, want %d", r.req, e.Error.Code, code)
	}
	if !strings.Contains(e.Error.Message, msg) {
		t.Fatalf("%s: error message %q does not contain %q", r.req, e.Error.Message, msg)
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("%s: error Content-Type %q", r.req, ct)
	}
}

// Do sends a request with token (none when empty) and a body: nil for none,
// a string or []byte sent as is, anything else encoded as JSON. Bodies are
// sent as application/json.
func (s *Server) Do(t testing.TB, token, method, path string, body any) *Response {
	t.Helper()
	raw, h := encodeBody(t, body)
	return s.DoRaw(t, token, method, path, h, raw)
}

// DoRaw sends a request with the given headers and raw body, and validates
// the exchange against the GitBook reference.
func (s *Server) DoRaw(t testing.TB, token, method, path string, header http.Header, body []byte) *Response {
	t.Helper()
	return s.do(t, token, method, path, header, bodyReader(body), body, true)
}

func (s *Server) do(t testing.TB, token, method, path string, header http.Header, rd io.Reader, body []byte, check bool) *Response {
	t.Helper()
	req, err := http.NewRequest(method, s.URL+path, rd)
	if err != nil {
		t.Fatalf("new request: %v", err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	rb, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: read body: %v", method, path, err)
	}
	r := &Response{Status: res.StatusCode, Header: res.Header, Body: rb, req: method + " " + path}
	if check && s.spec != nil {
		u, _ := url.Parse(s.URL + path)
		_, err := s.spec.Check(context.Background(), specval.Exchange{
			Method: method, URL: u, Header: req.Header, Body: body,
			Status: res.StatusCode, RespHeader: res.Header, RespBody: rb,
		})
		if err != nil {
			t.Errorf("GitBook reference check failed: %v", err)
		}
	}
	return r
}

// DoUnchecked is Do without the check against the GitBook reference, for
// the few answers the reference cannot describe (a SAML provider that is
// not configured yet has no ssoURL, which the reference requires as a URI).
func (s *Server) DoUnchecked(t testing.TB, token, method, path string, body any) *Response {
	t.Helper()
	raw, h := encodeBody(t, body)
	return s.do(t, token, method, path, h, bodyReader(raw), raw, false)
}

func bodyReader(raw []byte) io.Reader {
	if raw == nil {
		return nil
	}
	return bytes.NewReader(raw)
}

// encodeBody turns a Do body into bytes and headers.
func encodeBody(t testing.TB, body any) ([]byte, http.Header) {
	t.Helper()
	var raw []byte
	switch b := body.(type) {
	case nil:
	case string:
		raw = []byte(b)
	case []byte:
		raw = b
	default:
		var err error
		if raw, err = json.Marshal(body); err != nil {
			t.Fatalf("encode body: %v", err)
		}
	}
	h := http.Header{}
	if raw != nil {
		h.Set("Content-Type", "application/json")
	}
	return raw, h
}

// DoRawChunked is DoRaw with the body sent without a Content-Length.
func (s *Server) DoRawChunked(t testing.TB, token, method, path string, header http.Header, body []byte) *Response {
	t.Helper()
	// A reader of unknown length makes the client send the body chunked.
	return s.do(t, token, method, path, header, io.MultiReader(bytes.NewReader(body)), body, true)
}
