package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A translation engine the operator runs on the same host works without
// --import-allow-private, which still keeps tenants' URLs off loopback.
func TestServeTrustsOperatorEndpoints(t *testing.T) {
	var calls atomic.Int64
	engine := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		var in struct{ Q json.RawMessage }
		if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			json.NewDecoder(r.Body).Decode(&in)
		} else {
			r.ParseForm()
			in.Q, _ = json.Marshal(r.PostForm["q"])
		}
		var one string
		if json.Unmarshal(in.Q, &one) == nil {
			json.NewEncoder(w).Encode(map[string]any{"translatedText": strings.ToUpper(one)})
			return
		}
		var many []string
		json.Unmarshal(in.Q, &many)
		for i := range many {
			many[i] = strings.ToUpper(many[i])
		}
		json.NewEncoder(w).Encode(map[string]any{"translatedText": many})
	}))
	defer engine.Close()
	s := startServe(t, "--data", t.TempDir(), "--translate-engine", "libretranslate", "--translate-url", engine.URL)
	token := tokenRE.FindString(s.out.String())
	call := func(method, path string, body any, want int, out any) {
		t.Helper()
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, s.base+path, bytes.NewReader(b))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var raw json.RawMessage
		json.NewDecoder(res.Body).Decode(&raw)
		if res.StatusCode != want {
			t.Fatalf("%s %s = %d, want %d: %s", method, path, res.StatusCode, want, raw)
		}
		if out != nil {
			json.Unmarshal(raw, out)
		}
	}
	var orgs struct{ Items []struct{ ID string } }
	call("GET", "/v1/orgs", nil, 200, &orgs)
	org := orgs.Items[0].ID
	var space struct{ ID string }
	call("POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Guide"}, 201, &space)
	md := "data:text/markdown;base64," + base64.StdEncoding.EncodeToString([]byte("# Hello\n\nHello world.\n"))
	call("POST", "/v1/spaces/"+space.ID+"/content/import", map[string]any{"source": "markdown", "url": md}, 201, nil)

	// A tenant URL on loopback is refused.
	call("POST", "/v1/spaces/"+space.ID+"/content/import", map[string]any{"source": "markdown", "url": engine.URL + "/page.md"}, 400, nil)
	if n := calls.Load(); n != 0 {
		t.Fatalf("the import reached loopback (%d calls)", n)
	}

	// The operator's engine on loopback is reached.
	var tr struct{ ID, Status, LastError string }
	call("POST", "/v1/orgs/"+org+"/translations", map[string]any{"language": "es",
		"source": map[string]any{"space": space.ID, "language": "en"}}, 201, &tr)
	call("POST", "/v1/orgs/"+org+"/translations/"+tr.ID+"/run", nil, 204, nil)
	// The server's job runner runs the translation; a generous bound for a
	// loaded machine, not a measure.
	deadline := time.Now().Add(90 * time.Second)
	for tr.Status != "completed" && tr.LastError == "" && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		call("GET", "/v1/orgs/"+org+"/translations/"+tr.ID, nil, 200, &tr)
	}
	if tr.Status != "completed" || calls.Load() == 0 {
		t.Fatalf("translation through the loopback engine: %+v (%d engine calls)", tr, calls.Load())
	}
}
