package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/store/storetest"
)

// storeArgs returns the flags that select a new empty store of kind.
func storeArgs(t *testing.T, kind string) []string {
	_, args := storeLocation(t, kind)
	return args
}

// storeLocation returns a new empty store of kind and the flags that select it.
func storeLocation(t *testing.T, kind string) (store.Config, []string) {
	cfg := storetest.Location(t, kind, store.Config{})
	if kind == "postgres" {
		return cfg, []string{"--database-url", cfg.DatabaseURL, "--data", t.TempDir()}
	}
	return cfg, []string{"--data", cfg.DataDir}
}

func eachStore(t *testing.T, fn func(t *testing.T, kind string)) {
	for _, kind := range storetest.Stores(t) {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			fn(t, kind)
		})
	}
}

func noenv(string) string { return "" }

// server is a "folio serve" running in the test process.
type server struct {
	base   string
	out    *syncBuffer
	cancel context.CancelFunc
	done   chan error
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

var listeningRE = regexp.MustCompile(`folio: listening on (http://[0-9.:]+)`)

// startServe runs "folio serve" on 127.0.0.1:0 with an empty environment.
func startServe(t *testing.T, args ...string) *server {
	t.Helper()
	return startServeEnv(t, noenv, append([]string{"--addr", "127.0.0.1:0"}, args...)...)
}

// startServeEnv runs "folio serve" with the environment getenv and args
// alone, so that the listen address may come from either.
func startServeEnv(t *testing.T, getenv func(string) string, args ...string) *server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	s := &server{out: &syncBuffer{}, cancel: cancel, done: make(chan error, 1)}
	go func() {
		err := run(ctx, append([]string{"serve", "--log-level", "warn"}, args...), getenv, pw, s.out)
		pw.Close()
		s.done <- err
	}()
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			s.out.Write([]byte(sc.Text() + "\n"))
			if m := listeningRE.FindStringSubmatch(sc.Text()); m != nil {
				ready <- m[1]
			}
		}
	}()
	select {
	case s.base = <-ready:
	case err := <-s.done:
		t.Fatalf("serve exited early: %v\n%s", err, s.out)
	case <-time.After(90 * time.Second): // a safety net on a loaded machine, not a measure
		t.Fatalf("serve did not start within 90 s; its output:\n%s", s.out)
	}
	t.Cleanup(func() { s.stop(t) })
	return s
}

func (s *server) stop(t *testing.T) {
	t.Helper()
	if s.cancel == nil {
		return
	}
	s.cancel()
	s.cancel = nil
	if err := <-s.done; err != nil {
		t.Errorf("serve returned %v", err)
	}
}

func get(t *testing.T, url, token string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// The shapes of generated ids (folio.NewID) and API tokens (folio.NewTokenSecret).
const (
	idPattern    = `[0-9A-Za-z]{20}`
	tokenPattern = `folio_[0-9A-Za-z]{43}`
)

var (
	tokenRE = regexp.MustCompile(tokenPattern)
	// initJSONRE is the whole output of "folio init --json": these keys in
	// this order, and at most one newline.
	initJSONRE = regexp.MustCompile(`\A\{"user":"` + idPattern + `","organization":"` + idPattern +
		`","token":"` + tokenPattern + `"\}\n?\z`)
)

// getJSON sends GET url with token, wants 200 and decodes the body into v.
func getJSON(t *testing.T, url, token string, v any) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("GET %s = %d", url, res.StatusCode)
	}
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

// freeAddr returns a loopback address with a port that was free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func TestServeBootstrapsOnceAndKeepsDataAcrossRestarts(t *testing.T) {
	eachStore(t, func(t *testing.T, kind string) {
		args := storeArgs(t, kind)
		s := startServe(t, args...)
		out := s.out.String()
		token := tokenRE.FindString(out)
		if token == "" || !strings.Contains(out, "shown only this once") {
			t.Fatalf("no token printed on first start:\n%s", out)
		}
		if code := get(t, s.base+"/v1/user", token); code != 200 {
			t.Fatalf("GET /v1/user = %d", code)
		}
		// The job runner of a real server is alive.
		res, err := http.Get(s.base + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		var health map[string]string
		json.NewDecoder(res.Body).Decode(&health)
		res.Body.Close()
		if health["jobs"] != "ok" {
			t.Fatalf("healthz of a serving server: %v", health)
		}
		s.stop(t)

		s = startServe(t, args...)
		if tokenRE.MatchString(s.out.String()) {
			t.Fatalf("second start printed a token again:\n%s", s.out)
		}
		if code := get(t, s.base+"/v1/orgs", token); code != 200 {
			t.Fatalf("after restart GET /v1/orgs = %d", code)
		}
	})
}

func TestServeFinishesInFlightRequestsOnShutdown(t *testing.T) {
	s := startServe(t, storeArgs(t, "sqlite")...)
	token := tokenRE.FindString(s.out.String())
	pr, pw := io.Pipe()
	req, _ := http.NewRequest("POST", s.base+"/v1/orgs", pr)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	result := make(chan int, 1)
	go func() {
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			result <- -1
			return
		}
		res.Body.Close()
		result <- res.StatusCode
	}()
	pw.Write([]byte(`{"title":`))
	time.Sleep(100 * time.Millisecond) // the request is now in flight
	s.cancel()
	time.Sleep(100 * time.Millisecond) // shutdown has begun
	pw.Write([]byte(`"Late org"}`))
	pw.Close()
	if code := <-result; code != 201 {
		t.Fatalf("in-flight request got %d, want 201", code)
	}
	if err := <-s.done; err != nil {
		t.Fatalf("serve returned %v", err)
	}
	s.cancel = nil
}

func TestInitAndUsersCreate(t *testing.T) {
	eachStore(t, func(t *testing.T, kind string) {
		ctx := context.Background()
		args := storeArgs(t, kind)
		var out bytes.Buffer
		err := run(ctx, append([]string{"init", "--email", "Ada@Example.com", "--name", "Ada", "--org", "Acme", "--json"}, args...), noenv, &out, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if !initJSONRE.Match(out.Bytes()) {
			t.Fatalf(`init --json printed %q, want exactly {"user":ID,"organization":ID,"token":TOKEN}`, out.String())
		}
		var b map[string]string
		if err := json.Unmarshal(out.Bytes(), &b); err != nil {
			t.Fatal(err)
		}
		err = run(ctx, append([]string{"init", "--email", "b@example.com"}, args...), noenv, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "already has users") {
			t.Fatalf("second init: %v", err)
		}

		out.Reset()
		err = run(ctx, append([]string{"users", "create", "--email", "e@example.com", "--org", b["organization"], "--role", "edit", "--json"}, args...), noenv, &out, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		var u map[string]string
		if err := json.Unmarshal(out.Bytes(), &u); err != nil || len(u) != 2 || !tokenRE.MatchString(u["token"]) {
			t.Fatalf("users create --json printed %q", out.String())
		}
		for _, bad := range [][]string{
			{"--email", "e@example.com"},                                    // taken
			{"--email", "not-an-email"},                                     // invalid
			{"--email", "f@example.com", "--org", "nope", "--role", "read"}, // unknown organization
			{"--email", "g@example.com", "--org", b["organization"], "--role", "owner"},
			{"--email", "h@example.com", "--role", "read"},
		} {
			if err := run(ctx, append(append([]string{"users", "create"}, bad...), args...), noenv, io.Discard, io.Discard); err == nil {
				t.Errorf("users create %v succeeded", bad)
			}
		}

		out.Reset()
		if err := run(ctx, append([]string{"users", "token", "--email", "E@example.com", "--json"}, args...), noenv, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		var tok map[string]string
		if err := json.Unmarshal(out.Bytes(), &tok); err != nil || tok["user"] != u["user"] || !tokenRE.MatchString(tok["token"]) {
			t.Fatalf("users token --json printed %q", out.String())
		}
		if err := run(ctx, append([]string{"users", "token", "--email", "nobody@example.com"}, args...), noenv, io.Discard, io.Discard); err == nil {
			t.Error("users token for an unknown email succeeded")
		}

		s := startServe(t, args...)
		if tokenRE.MatchString(s.out.String()) {
			t.Fatal("serve bootstrapped a store made by init")
		}
		if code := get(t, s.base+"/v1/user", tok["token"]); code != 200 {
			t.Fatalf("the users token token gets %d", code)
		}
		if code := get(t, s.base+"/v1/orgs/"+b["organization"], u["token"]); code != 200 {
			t.Fatalf("the created member gets %d for the organization", code)
		}
		if code := get(t, s.base+"/v1/orgs/"+b["organization"], b["token"]); code != 200 {
			t.Fatalf("the first admin gets %d for the organization", code)
		}
	})
}

func TestMigrate(t *testing.T) {
	eachStore(t, func(t *testing.T, kind string) {
		ctx := context.Background()
		cfg, args := storeLocation(t, kind)
		var out bytes.Buffer
		if err := run(ctx, append([]string{"migrate"}, args...), noenv, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		latest := schemaVersion(t, cfg)
		want := fmt.Sprintf("the %s database is at schema version %d\n", kind, latest)
		if out.String() != want {
			t.Fatalf("migrate on an empty store printed %q, want %q", out.String(), want)
		}

		// A second run finds nothing to do and reports the same version.
		out.Reset()
		if err := run(ctx, append([]string{"migrate"}, args...), noenv, &out, io.Discard); err != nil {
			t.Fatalf("migrate on an up-to-date store: %v", err)
		}
		if out.String() != want {
			t.Fatalf("migrate on an up-to-date store printed %q, want %q", out.String(), want)
		}
	})
}

// TestNewerSchemaIsRefused checks that migrate and serve both refuse a
// database migrated by a newer folio, as after a downgrade.
func TestNewerSchemaIsRefused(t *testing.T) {
	eachStore(t, func(t *testing.T, kind string) {
		ctx := context.Background()
		cfg, args := storeLocation(t, kind)
		if err := run(ctx, append([]string{"migrate"}, args...), noenv, io.Discard, io.Discard); err != nil {
			t.Fatal(err)
		}
		latest := schemaVersion(t, cfg)
		future := latest + 1000
		execSQL(t, cfg, fmt.Sprintf(`INSERT INTO goose_db_version (version_id, is_applied) VALUES (%d, TRUE)`, future))

		want := fmt.Sprintf("the database schema is at version %d but this folio binary knows only up to version %d; "+
			"run the newer folio that migrated it, or restore a backup taken before the upgrade", future, latest)
		for _, cmd := range [][]string{
			{"migrate"},
			{"serve", "--addr", "127.0.0.1:0"},
		} {
			// A serve that wrongly starts stops after a while and fails the test.
			ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
			err := run(ctx, append(cmd, args...), noenv, io.Discard, io.Discard)
			cancel()
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s on a newer schema: got %v, want an error containing %q", cmd[0], err, want)
			}
		}
	})
}

// schemaVersion returns the latest schema version this binary knows, after
// checking that the store at cfg is at it.
func schemaVersion(t *testing.T, cfg store.Config) int64 {
	t.Helper()
	ctx := context.Background()
	db, err := store.Connect(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cur, latest, err := db.SchemaVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if cur != latest {
		t.Fatalf("the store is at schema version %d, want %d", cur, latest)
	}
	return latest
}

// rawDB opens the store at cfg through database/sql, around the store
// package, as another program would; it is closed when the test ends.
func rawDB(t *testing.T, cfg store.Config) *sql.DB {
	t.Helper()
	driver, dsn := "pgx", cfg.DatabaseURL
	if cfg.DatabaseURL == "" {
		driver, dsn = "sqlite", filepath.Join(cfg.DataDir, store.SQLiteFile)
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// execSQL runs query on the store at cfg around the store package.
func execSQL(t *testing.T, cfg store.Config, query string) {
	t.Helper()
	if _, err := rawDB(t, cfg).Exec(query); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// TestTokensAreStoredHashed creates tokens through init and users token and
// reads every column of api_tokens around the store: no secret is there,
// only its hash.
func TestTokensAreStoredHashed(t *testing.T) {
	eachStore(t, func(t *testing.T, kind string) {
		ctx := context.Background()
		cfg, args := storeLocation(t, kind)
		var out bytes.Buffer
		if err := run(ctx, append([]string{"init", "--email", "ada@example.com", "--json"}, args...), noenv, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		var b map[string]string
		if err := json.Unmarshal(out.Bytes(), &b); err != nil {
			t.Fatal(err)
		}
		out.Reset()
		if err := run(ctx, append([]string{"users", "token", "--email", "ada@example.com", "--json"}, args...), noenv, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		var tok map[string]string
		if err := json.Unmarshal(out.Bytes(), &tok); err != nil {
			t.Fatal(err)
		}
		secrets := []string{b["token"], tok["token"]}

		rows, err := rawDB(t, cfg).Query(`SELECT * FROM api_tokens`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		var stored, hashes []string
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for i, v := range vals {
				text := fmt.Sprint(v)
				if b, ok := v.([]byte); ok {
					text = string(b)
				}
				stored = append(stored, text)
				if cols[i] == "hash" {
					hashes = append(hashes, text)
				}
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		for _, secret := range secrets {
			for _, v := range stored {
				if strings.Contains(v, secret) || strings.Contains(v, strings.TrimPrefix(secret, "folio_")) {
					t.Fatalf("api_tokens holds a token secret: %q", v)
				}
			}
			if !slices.Contains(hashes, folio.HashToken(secret)) {
				t.Fatalf("api_tokens has no row with the hash of a token; hashes %v", hashes)
			}
		}
	})
}

// TestServeEnvironment checks that each serve setting comes from its flag,
// else from its environment variable, and that the public URL defaults to
// the listen address. In a row, $ADDR, $ADDR2, $DATA and $DATA2 stand for
// free addresses and empty folders of the subtest.
func TestServeEnvironment(t *testing.T) {
	tests := []struct {
		name     string
		env      map[string]string
		args     []string
		wantBase string // "" when the address is 127.0.0.1:0
		wantURL  string // public URL in urls.location
		wantDB   string // folder that holds the SQLite database
		noDB     string // folder that must not
	}{{
		name:     "FOLIO_ADDR",
		env:      map[string]string{"FOLIO_ADDR": "$ADDR"},
		args:     []string{"--data", "$DATA"},
		wantBase: "http://$ADDR",
		wantURL:  "http://$ADDR",
		wantDB:   "$DATA",
	}, {
		name:     "--addr wins over FOLIO_ADDR",
		env:      map[string]string{"FOLIO_ADDR": "$ADDR"},
		args:     []string{"--addr", "$ADDR2", "--data", "$DATA"},
		wantBase: "http://$ADDR2",
		wantURL:  "http://$ADDR2",
		wantDB:   "$DATA",
	}, {
		name:   "FOLIO_DATA",
		env:    map[string]string{"FOLIO_DATA": "$DATA"},
		args:   []string{"--addr", "127.0.0.1:0"},
		wantDB: "$DATA",
	}, {
		name:   "--data wins over FOLIO_DATA",
		env:    map[string]string{"FOLIO_DATA": "$DATA2"},
		args:   []string{"--addr", "127.0.0.1:0", "--data", "$DATA"},
		wantDB: "$DATA",
		noDB:   "$DATA2",
	}, {
		name:    "FOLIO_PUBLIC_URL",
		env:     map[string]string{"FOLIO_PUBLIC_URL": "https://docs.example.com"},
		args:    []string{"--addr", "127.0.0.1:0", "--data", "$DATA"},
		wantURL: "https://docs.example.com",
		wantDB:  "$DATA",
	}, {
		name:    "--public-url wins over FOLIO_PUBLIC_URL",
		env:     map[string]string{"FOLIO_PUBLIC_URL": "https://env.example.com"},
		args:    []string{"--addr", "127.0.0.1:0", "--data", "$DATA", "--public-url", "https://flag.example.com/"},
		wantURL: "https://flag.example.com",
		wantDB:  "$DATA",
	}, {
		name:     "public URL from --addr",
		args:     []string{"--addr", "$ADDR", "--data", "$DATA"},
		wantBase: "http://$ADDR",
		wantURL:  "http://$ADDR",
		wantDB:   "$DATA",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := strings.NewReplacer("$ADDR2", freeAddr(t), "$ADDR", freeAddr(t), "$DATA2", t.TempDir(), "$DATA", t.TempDir())
			args := make([]string, len(tt.args))
			for i, a := range tt.args {
				args[i] = r.Replace(a)
			}
			getenv := func(key string) string { return r.Replace(tt.env[key]) }

			s := startServeEnv(t, getenv, args...)
			if want := r.Replace(tt.wantBase); want != "" && s.base != want {
				t.Errorf("listening on %s, want %s", s.base, want)
			}
			wantURL := r.Replace(tt.wantURL)
			if wantURL == "" {
				wantURL = s.base
			}
			var u struct {
				ID   string `json:"id"`
				URLs struct {
					Location string `json:"location"`
				} `json:"urls"`
			}
			getJSON(t, s.base+"/v1/user", tokenRE.FindString(s.out.String()), &u)
			if want := wantURL + "/v1/users/" + u.ID; u.URLs.Location != want {
				t.Errorf("urls.location = %q, want %q", u.URLs.Location, want)
			}
			if _, err := os.Stat(filepath.Join(r.Replace(tt.wantDB), store.SQLiteFile)); err != nil {
				t.Errorf("no database in the data folder: %v", err)
			}
			if tt.noDB != "" {
				if _, err := os.Stat(filepath.Join(r.Replace(tt.noDB), store.SQLiteFile)); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("a database in the overridden folder: %v", err)
				}
			}
		})
	}
}

// TestInvalidEnvironmentIsRefused checks that a boolean or integer variable
// that does not parse stops the command with an error naming it.
func TestInvalidEnvironmentIsRefused(t *testing.T) {
	tests := []struct {
		cmd, key, value string
	}{
		{"serve", "FOLIO_ACCESS_LOG", "yes"},
		{"serve", "FOLIO_ACCESS_LOG", "on"},
		{"serve", "FOLIO_IMPORT_ALLOW_PRIVATE", "2"},
		{"serve", "FOLIO_MAX_BODY", "10MB"},
		{"serve", "FOLIO_MAX_BODY", "1e6"},
		{"serve", "FOLIO_DB_MAX_CONNS", "eight"},
		{"migrate", "FOLIO_DB_MAX_CONNS", "8.5"},
		{"init", "FOLIO_DB_MAX_CONNS", "many"},
	}
	// The flags each command needs besides --data.
	flags := map[string][]string{
		"serve":   {"--addr", "127.0.0.1:0"},
		"migrate": nil,
		"init":    {"--email", "a@example.com"},
	}
	for _, tt := range tests {
		t.Run(tt.cmd+"/"+tt.key+"="+tt.value, func(t *testing.T) {
			t.Parallel()
			// Cancelled, so that a serve that wrongly starts returns at once.
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			getenv := func(key string) string {
				if key == tt.key {
					return tt.value
				}
				return ""
			}
			args := append([]string{tt.cmd, "--data", t.TempDir()}, flags[tt.cmd]...)
			err := run(ctx, args, getenv, io.Discard, io.Discard)
			want := fmt.Sprintf("%s=%q is not", tt.key, tt.value)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("got %v, want an error containing %q", err, want)
			}
		})
	}
}

// TestEnvParsing checks how flag defaults are read from boolean and integer
// environment variables.
func TestEnvParsing(t *testing.T) {
	boolean := func(def bool) func(*env) any { return func(e *env) any { return e.boolean("X", def) } }
	integer := func(def int64) func(*env) any { return func(e *env) any { return e.integer("X", def) } }
	tests := []struct {
		name    string
		value   string         // of the variable X
		read    func(*env) any // reads X with a default
		want    any
		wantErr string
	}{
		{"boolean/unset keeps the default", "", boolean(true), true, ""},
		{"boolean/true", "true", boolean(false), true, ""},
		{"boolean/TRUE", "TRUE", boolean(false), true, ""},
		{"boolean/1", "1", boolean(false), true, ""},
		{"boolean/false", "false", boolean(true), false, ""},
		{"boolean/0", "0", boolean(true), false, ""},
		{"boolean/yes is refused", "yes", boolean(true), true, `X="yes" is not a boolean: use true or false`},
		{"integer/unset keeps the default", "", integer(7), int64(7), ""},
		{"integer/decimal", "1048576", integer(7), int64(1048576), ""},
		{"integer/negative", "-1", integer(7), int64(-1), ""},
		{"integer/unit is refused", "1MB", integer(7), int64(7), `X="1MB" is not an integer`},
		{"integer/overflow is refused", "9223372036854775808", integer(7), int64(7), `X="9223372036854775808" is not an integer`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &env{getenv: func(string) string { return tt.value }}
			if diff := cmp.Diff(tt.want, tt.read(e)); diff != "" {
				t.Errorf("value (-want +got):\n%s", diff)
			}
			gotErr := ""
			if e.err != nil {
				gotErr = e.err.Error()
			}
			if gotErr != tt.wantErr {
				t.Errorf("error = %q, want %q", gotErr, tt.wantErr)
			}
		})
	}
}

// TestDefaultPublicURL checks the public URL derived from the listen address.
func TestDefaultPublicURL(t *testing.T) {
	tests := []struct {
		addr, want string
	}{
		{"127.0.0.1:8080", "http://127.0.0.1:8080"},
		{"0.0.0.0:80", "http://localhost:80"},
		{"[::]:8080", "http://localhost:8080"},
		{"[::1]:8080", "http://[::1]:8080"},
	}
	for _, tt := range tests {
		a, err := net.ResolveTCPAddr("tcp", tt.addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := defaultPublicURL(a); got != tt.want {
			t.Errorf("defaultPublicURL(%s) = %q, want %q", tt.addr, got, tt.want)
		}
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"bogus"}, {"users", "delete"}, {"serve", "--database-url", "mysql://x"}} {
		if err := run(context.Background(), args, noenv, io.Discard, io.Discard); err == nil {
			t.Errorf("run %v succeeded", args)
		}
	}
}
