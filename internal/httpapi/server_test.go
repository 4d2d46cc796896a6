package httpapi

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestPanicAnswersJSON500AndIsLogged(t *testing.T) {
	var logs bytes.Buffer
	s := New(Config{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	h := s.wrap("GET /boom", public, func(w http.ResponseWriter, r *http.Request) error {
		var m map[string]int
		//lint:ignore SA5000 the handler must panic: that is what the test checks
		m["x"]++ // nil map write: a real bug, not a thrown string
		return nil
	})
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/boom", nil)
	req.Header.Set("X-Request-Id", "req-42")
	h.ServeHTTP(rec, req)

	if rec.Code != 500 {
		t.Fatalf("status %d, want 500", rec.Code)
	}
	var body struct {
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("body %q: %v", rec.Body, err)
	}
	if body.Error.Code != 500 || body.Error.Message != "Internal server error" {
		t.Fatalf("body = %+v", body)
	}
	if strings.Contains(rec.Body.String(), "nil map") {
		t.Fatal("the panic detail leaked to the client")
	}
	log := logs.String()
	for _, want := range []string{`"msg":"panic"`, `"request_id":"req-42"`, "nil map"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %s:\n%s", want, log)
		}
	}
}
