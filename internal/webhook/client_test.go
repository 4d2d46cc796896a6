package webhook_test

import (
	"context"
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/foliodocs/folio/internal/webhook"
)

// receiver is a loopback webhook endpoint that checks what every delivery
// must carry and then runs answer.
func receiver(t *testing.T, answer http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			t.Errorf("receiver: read body: %v", err)
		}
		if r.Method != http.MethodPost {
			t.Errorf("receiver: method %s, want POST", r.Method)
		}
		if err := webhook.Verify(secret, r.Header.Get(webhook.SignatureHeader), b, time.Now(), time.Minute); err != nil {
			t.Errorf("receiver: signature: %v", err)
		}
		if got := r.Header.Get("User-Agent"); got != webhook.UserAgent {
			t.Errorf("receiver: User-Agent %q", got)
		}
		if got := r.Header.Get(webhook.IdempotencyHeader); got != "dlv_1" {
			t.Errorf("receiver: %s %q, want dlv_1", webhook.IdempotencyHeader, got)
		}
		if answer != nil {
			answer(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestDeliverJSONStatuses(t *testing.T) {
	tests := []struct {
		name    string
		answer  http.HandlerFunc
		want    webhook.Attempt // At and Duration are not compared
		wantOK  bool
		wantErr string // a substring of Attempt.Error
	}{
		{"200 is success", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "thanks") },
			webhook.Attempt{Status: 200, ResponseSnippet: "thanks"}, true, ""},
		{"204 is success", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) },
			webhook.Attempt{Status: 204}, true, ""},
		{"400 does not retry", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "bad event", 400) },
			webhook.Attempt{Status: 400, ResponseSnippet: "bad event\n"}, false, "answered 400"},
		{"410 does not retry", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(410) },
			webhook.Attempt{Status: 410}, false, "answered 410"},
		{"408 retries", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(408) },
			webhook.Attempt{Status: 408, Retry: true}, false, "answered 408"},
		{"425 retries", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(425) },
			webhook.Attempt{Status: 425, Retry: true}, false, "answered 425"},
		{"429 retries after Retry-After", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "120")
			w.WriteHeader(429)
		}, webhook.Attempt{Status: 429, Retry: true, RetryAfter: 2 * time.Minute}, false, "answered 429"},
		{"503 Retry-After is capped", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "999999")
			w.WriteHeader(503)
		}, webhook.Attempt{Status: 503, Retry: true, RetryAfter: webhook.MaxRetryAfter}, false, "answered 503"},
		{"500 retries", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "oops", 500) },
			webhook.Attempt{Status: 500, Retry: true, ResponseSnippet: "oops\n"}, false, "answered 500"},
		{"302 is a failure without retry", func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/hook" {
				http.Redirect(w, r, "/elsewhere", http.StatusFound)
			}
		}, webhook.Attempt{Status: 302}, false, "must not redirect"},
		{"307 is followed with the same signed body", func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/hook" {
				http.Redirect(w, r, "/moved", http.StatusTemporaryRedirect)
				return
			}
			io.WriteString(w, "at "+r.URL.Path)
		}, webhook.Attempt{Status: 200, ResponseSnippet: "at /moved"}, true, ""},
		{"endless 308s stop", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, r.URL.Path+"x", http.StatusPermanentRedirect)
		}, webhook.Attempt{}, false, "more than 5 redirects"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := receiver(t, tt.answer)
			a := webhook.New(srv.Client(), time.Second).DeliverJSON(context.Background(), srv.URL+"/hook", secret, "dlv_1", body)
			if a.OK() != tt.wantOK || !strings.Contains(a.Error, tt.wantErr) || (tt.wantErr == "") != (a.Error == "") {
				t.Fatalf("attempt %+v: OK %v, want %v with error containing %q", a, a.OK(), tt.wantOK, tt.wantErr)
			}
			got := a
			got.At, got.Duration, got.Error = time.Time{}, 0, ""
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Fatalf("attempt (-want +got):\n%s", diff)
			}
			if a.At.IsZero() || a.Duration < 0 {
				t.Fatalf("attempt has At %v, Duration %v", a.At, a.Duration)
			}
		})
	}
}

func TestDeliverJSONHeadersAndBody(t *testing.T) {
	var got []byte
	srv := receiver(t, func(w http.ResponseWriter, r *http.Request) {
		if ct := r.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("Content-Type %q", ct)
		}
		w.WriteHeader(202)
	})
	// The receiver's own checks run on the body it read; check it arrived whole.
	srv.Config.Handler = wrapBody(srv.Config.Handler, &got)
	a := webhook.New(srv.Client(), time.Second).DeliverJSON(context.Background(), srv.URL, secret, "dlv_1", body)
	if !a.OK() || string(got) != string(body) {
		t.Fatalf("attempt %+v, receiver got %q", a, got)
	}
}

// wrapBody records the request body before passing it on.
func wrapBody(h http.Handler, into *[]byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		*into = b
		r.Body = io.NopCloser(strings.NewReader(string(b)))
		h.ServeHTTP(w, r)
	})
}

func TestDeliverJSONFailsThenRecovers(t *testing.T) {
	var calls atomic.Int32
	srv := receiver(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.WriteHeader(500)
			return
		}
		w.WriteHeader(200)
	})
	c := webhook.New(srv.Client(), time.Second)
	first := c.DeliverJSON(context.Background(), srv.URL, secret, "dlv_1", body)
	if first.OK() || !first.Retry || first.Status != 500 {
		t.Fatalf("first attempt %+v, want a retryable 500", first)
	}
	second := c.DeliverJSON(context.Background(), srv.URL, secret, "dlv_1", body)
	if !second.OK() || second.Retry {
		t.Fatalf("second attempt %+v, want success", second)
	}
}

func TestDeliverJSONTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := receiver(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	defer close(release)
	start := time.Now()
	a := webhook.New(srv.Client(), 100*time.Millisecond).DeliverJSON(context.Background(), srv.URL, secret, "dlv_1", body)
	if a.OK() || !a.Retry || a.Status != 0 || !strings.Contains(a.Error, "no answer within 100ms") {
		t.Fatalf("attempt %+v, want a retryable timeout", a)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Fatalf("timeout took %s", el)
	}
}

func TestDeliverJSONSlowBodyTimesOut(t *testing.T) {
	// Headers come at once, the body never ends: the limit covers the read too.
	srv := receiver(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	a := webhook.New(srv.Client(), 100*time.Millisecond).DeliverJSON(context.Background(), srv.URL, secret, "dlv_1", body)
	// The receiver did answer 200, which is what counts for delivery.
	if a.Status != 200 || a.Duration > 5*time.Second {
		t.Fatalf("attempt %+v", a)
	}
}

func TestDeliverJSONConnectionClosed(t *testing.T) {
	srv := receiver(t, func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Errorf("hijack: %v", err)
			return
		}
		conn.Close()
	})
	a := webhook.New(srv.Client(), time.Second).DeliverJSON(context.Background(), srv.URL, secret, "dlv_1", body)
	if a.OK() || !a.Retry || a.Status != 0 || !strings.Contains(a.Error, "closed the connection") {
		t.Fatalf("attempt %+v, want a retryable closed connection", a)
	}
}

func TestDeliverJSONCancelled(t *testing.T) {
	srv := receiver(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	a := webhook.New(srv.Client(), 10*time.Second).DeliverJSON(ctx, srv.URL, secret, "dlv_1", body)
	if a.OK() || !a.Retry || !strings.Contains(a.Error, "cancelled") || a.Duration > 5*time.Second {
		t.Fatalf("attempt %+v, want a retryable cancellation", a)
	}
}

func TestDeliverJSONErrorsHideSecrets(t *testing.T) {
	// A port that was just free refuses connections.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	longSecret := []byte("s3cr3t-signing-key")
	tests := []struct {
		name      string
		url       string
		id        string
		wantRetry bool
		wantErr   string
	}{
		{"refused", "http://admin:hunter2@" + addr + "/hook?token=tok_private", "dlv_1", true, "refused the connection"},
		{"not a URL", "http://admin:hunter2@[::1/hook?token=tok_private", "dlv_1", false, "not an absolute http or https URL"},
		{"relative URL", "/hook?token=tok_private", "dlv_1", false, "not an absolute http or https URL"},
		{"ftp URL", "ftp://admin:hunter2@example.com/?token=tok_private", "dlv_1", false, "not an absolute http or https URL"},
		{"empty URL", "", "dlv_1", false, "not an absolute"},
		{"delivery id with a newline", "http://" + addr, "dlv\r\nX-Evil: 1", false, "delivery id"},
		{"empty delivery id", "http://" + addr, "", false, "delivery id"},
		{"long delivery id", "http://" + addr, strings.Repeat("d", 201), false, "delivery id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := webhook.New(nil, time.Second).DeliverJSON(context.Background(), tt.url, longSecret, tt.id, body)
			if a.OK() || a.Retry != tt.wantRetry || !strings.Contains(a.Error, tt.wantErr) {
				t.Fatalf("attempt %+v, want retry %v and error containing %q", a, tt.wantRetry, tt.wantErr)
			}
			for _, s := range []string{"hunter2", "tok_private", string(longSecret)} {
				if strings.Contains(a.Error, s) {
					t.Fatalf("error %q leaks %q", a.Error, s)
				}
			}
		})
	}
}

func TestDeliverJSONRedirectRefusedByGuard(t *testing.T) {
	srv := receiver(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/moved", http.StatusTemporaryRedirect)
	})
	hc := srv.Client()
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return io.ErrClosedPipe }
	a := webhook.New(hc, time.Second).DeliverJSON(context.Background(), srv.URL, secret, "dlv_1", body)
	if a.OK() || a.Status != 0 || !strings.Contains(a.Error, "closed pipe") {
		t.Fatalf("attempt %+v, want the guard's refusal", a)
	}
}

func TestDeliverJSONHugeResponseIsBounded(t *testing.T) {
	srv := receiver(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(500)
		chunk := []byte(strings.Repeat("é", 1000)) // two bytes each, so the cut can split one
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	var read atomic.Int64
	hc := srv.Client()
	hc.Transport = countingTransport{hc.Transport, &read}
	a := webhook.New(hc, 5*time.Second).DeliverJSON(context.Background(), srv.URL, secret, "dlv_1", body)
	if a.Status != 500 || !a.Retry {
		t.Fatalf("attempt %+v", a)
	}
	if n := len(a.ResponseSnippet); n > webhook.MaxSnippet || n < webhook.MaxSnippet-4 {
		t.Fatalf("snippet is %d bytes, want about %d", n, webhook.MaxSnippet)
	}
	if strings.ContainsRune(a.ResponseSnippet, '\uFFFD') {
		t.Fatalf("snippet ends in a broken rune")
	}
	if n := read.Load(); n > webhook.MaxResponseRead {
		t.Fatalf("read %d bytes of the response, bound is %d", n, webhook.MaxResponseRead)
	}
}

// countingTransport counts the response body bytes the client reads.
type countingTransport struct {
	rt http.RoundTripper
	n  *atomic.Int64
}

func (c countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.rt.RoundTrip(r)
	if err == nil {
		resp.Body = countingBody{resp.Body, c.n}
	}
	return resp, err
}

type countingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}

func TestDeliverEventMultipart(t *testing.T) {
	event := []byte(`{"eventId":"e1","type":"space_content_updated","installationId":"in1","spaceId":"s1"}`)
	env := []byte(`{"apiEndpoint":"https://docs.example.com","apiTokens":{"integration":"gb_int","installation":"gb_inst"},"integration":{"name":"demo"},"installation":{"configuration":{}},"secrets":{}}`)
	tests := []struct {
		name      string
		fetchBody []byte
		want      map[string]string
	}{
		{"without fetch-body", nil, map[string]string{"event": string(event), "environment": string(env)}},
		{"with fetch-body", []byte("a=1&b=2"), map[string]string{"event": string(event), "environment": string(env), "fetch-body": "a=1&b=2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := map[string]string{}
			srv := receiver(t, nil)
			var raw []byte
			srv.Config.Handler = wrapBody(srv.Config.Handler, &raw)
			inner := srv.Config.Handler
			srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				inner.ServeHTTP(httptest.NewRecorder(), r) // signature and header checks
				mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
				if err != nil || mt != "multipart/form-data" {
					t.Errorf("Content-Type %q", r.Header.Get("Content-Type"))
					return
				}
				mr := multipart.NewReader(strings.NewReader(string(raw)), params["boundary"])
				for {
					p, err := mr.NextPart()
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Errorf("next part: %v", err)
						return
					}
					if p.FileName() != "" {
						t.Errorf("part %s is a file; the runtime reads strings", p.FormName())
					}
					b, _ := io.ReadAll(p)
					got[p.FormName()] = string(b)
				}
				w.WriteHeader(200)
			})
			a := webhook.New(srv.Client(), time.Second).DeliverEvent(context.Background(), srv.URL+"/v1", secret, "dlv_1", event, env, tt.fetchBody)
			if !a.OK() {
				t.Fatalf("attempt %+v", a)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Fatalf("parts (-want +got):\n%s", diff)
			}
			var ev map[string]any
			if err := json.Unmarshal([]byte(got["event"]), &ev); err != nil || ev["type"] != "space_content_updated" {
				t.Fatalf("event part does not parse: %v", err)
			}
		})
	}
}

func TestRetryable(t *testing.T) {
	for status, want := range map[int]bool{0: false, 101: false, 200: false, 301: false, 307: false, 400: false,
		401: false, 403: false, 404: false, 408: true, 410: false, 413: false, 422: false, 425: true, 429: true,
		500: true, 502: true, 503: true, 504: true, 599: true, 600: false} {
		if got := webhook.Retryable(status); got != want {
			t.Errorf("Retryable(%d) = %v, want %v", status, got, want)
		}
	}
}
