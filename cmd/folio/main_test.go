package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/store/storetest"
)

// storeArgs returns the flags that select a new empty store of kind.
func storeArgs(t *testing.T, kind string) []string {
	cfg := storetest.Location(t, kind, store.Config{})
	if kind == "postgres" {
		return []string{"--database-url", cfg.DatabaseURL, "--data", t.TempDir()}
	}
	return []string{"--data", cfg.DataDir}
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

func startServe(t *testing.T, args ...string) *server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	s := &server{out: &syncBuffer{}, cancel: cancel, done: make(chan error, 1)}
	go func() {
		err := run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0", "--log-level", "warn"}, args...), noenv, pw, io.Discard)
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
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not start")
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

var tokenRE = regexp.MustCompile(`folio_[A-Za-z0-9]{43}`)

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
		var b map[string]string
		if err := json.Unmarshal(out.Bytes(), &b); err != nil {
			t.Fatalf("init --json printed %q: %v", out.String(), err)
		}
		if len(b) != 3 || b["user"] == "" || b["organization"] == "" || !tokenRE.MatchString(b["token"]) {
			t.Fatalf("init --json = %v", b)
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
		var out bytes.Buffer
		if err := run(context.Background(), append([]string{"migrate"}, storeArgs(t, kind)...), noenv, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "schema version") {
			t.Fatalf("migrate printed %q", out.String())
		}
	})
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"bogus"}, {"users", "delete"}, {"serve", "--database-url", "mysql://x"}} {
		if err := run(context.Background(), args, noenv, io.Discard, io.Discard); err == nil {
			t.Errorf("run %v succeeded", args)
		}
	}
}
