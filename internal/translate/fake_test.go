package translate_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// libreRequest is what the fake LibreTranslate server received.
type libreRequest struct {
	Q      []string `json:"q"`
	Source string   `json:"source"`
	Target string   `json:"target"`
	Format string   `json:"format"`
	APIKey string   `json:"api_key"`
}

// fakeLibre is a LibreTranslate-compatible server on loopback. It
// "translates" by upper-casing text outside tags and entities, as a real
// engine keeps tags in html mode. mangle drops every tag instead; delay
// makes it slow; status makes it fail.
type fakeLibre struct {
	URL    string
	mu     sync.Mutex
	reqs   []libreRequest
	mangle bool
	delay  time.Duration
	status int
	// answers replaces the translation of the segments it lists.
	answers map[string]string
}

var markupToken = regexp.MustCompile(`<[^>]*>|&[#a-zA-Z0-9]+;`)

func upper(s string, html bool) string {
	if !html {
		return strings.ToUpper(s)
	}
	var b strings.Builder
	pos := 0
	for _, loc := range markupToken.FindAllStringIndex(s, -1) {
		b.WriteString(strings.ToUpper(s[pos:loc[0]]))
		b.WriteString(s[loc[0]:loc[1]])
		pos = loc[1]
	}
	b.WriteString(strings.ToUpper(s[pos:]))
	return b.String()
}

func newFakeLibre(t *testing.T) *fakeLibre {
	t.Helper()
	f := &fakeLibre{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/translate" {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		var req libreRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			json.NewEncoder(w).Encode(map[string]string{"error": "bad JSON"})
			return
		}
		f.mu.Lock()
		f.reqs = append(f.reqs, req)
		mangle, delay, status, answers := f.mangle, f.delay, f.status, f.answers
		f.mu.Unlock()
		if delay > 0 {
			select {
			case <-time.After(delay):
			case <-r.Context().Done():
				return
			}
		}
		if status != 0 {
			w.WriteHeader(status)
			json.NewEncoder(w).Encode(map[string]string{"error": "target language not supported"})
			return
		}
		out := make([]string, len(req.Q))
		for i, q := range req.Q {
			if a, ok := answers[q]; ok {
				out[i] = a
				continue
			}
			if mangle && req.Format == "html" {
				q = markupToken.ReplaceAllString(q, "")
			}
			out[i] = upper(q, req.Format == "html")
		}
		json.NewEncoder(w).Encode(map[string]any{"translatedText": out})
	}))
	t.Cleanup(srv.Close)
	f.URL = srv.URL
	return f
}

func (f *fakeLibre) requests() []libreRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]libreRequest(nil), f.reqs...)
}

// set changes the fake's behaviour under its lock.
func (f *fakeLibre) set(fn func(f *fakeLibre)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn(f)
}
