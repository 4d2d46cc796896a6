package editor_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/editor"
	"github.com/foliodocs/folio/internal/editor/internal/bundle"
)

// TestBundleUpToDate is the check that the committed bundle is what its
// sources build to: rebuild in memory (twice, to see the build is
// reproducible) and compare with static/.
func TestBundleUpToDate(t *testing.T) {
	dir, err := bundle.Dir()
	if err != nil {
		t.Fatal(err)
	}
	first, err := bundle.Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	second, err := bundle.Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first.JS, second.JS) || !bytes.Equal(first.CSS, second.CSS) {
		t.Fatal("two builds of the same sources differ: the build is not reproducible")
	}
	for name, built := range map[string][]byte{"editor.js": first.JS, "editor.css": first.CSS} {
		committed, err := os.ReadFile(filepath.Join(dir, "static", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(committed, built) {
			t.Errorf("static/%s (%d bytes) differs from what its sources build to (%d bytes): run `go run ./internal/editor/build` and commit",
				name, len(committed), len(built))
		}
	}
}

// TestBundleSize holds the editor's JavaScript under the budget
// of 300 KB compressed.
func TestBundleSize(t *testing.T) {
	js, jsGz, css, cssGz := editor.Sizes()
	t.Logf("editor.js %d bytes (%d gzipped), editor.css %d bytes (%d gzipped)", js, jsGz, css, cssGz)
	if jsGz+cssGz > 300*1024 {
		t.Fatalf("editor bundle is %d bytes gzipped, over the 300 KB budget", jsGz+cssGz)
	}
}

func TestAssetsServe(t *testing.T) {
	a := editor.New("/assets")
	srv := httptest.NewServer(a)
	t.Cleanup(srv.Close)
	if !strings.HasPrefix(a.ScriptURL(), "/assets/editor-") || !strings.HasSuffix(a.ScriptURL(), ".js") {
		t.Fatalf("script URL %q", a.ScriptURL())
	}
	if !strings.HasPrefix(a.StyleURL(), "/assets/editor-") || !strings.HasSuffix(a.StyleURL(), ".css") {
		t.Fatalf("style URL %q", a.StyleURL())
	}
	want, _ := os.ReadFile("static/editor.js")
	tr := &http.Transport{DisableCompression: true}
	get := func(path string, header map[string]string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		for k, v := range header {
			req.Header.Set(k, v)
		}
		res, err := tr.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, b
	}

	res, body := get(a.ScriptURL(), nil)
	if res.StatusCode != 200 || !bytes.Equal(body, want) {
		t.Fatalf("script: %d, %d bytes", res.StatusCode, len(body))
	}
	for k, v := range map[string]string{
		"Content-Type":  "text/javascript; charset=utf-8",
		"Cache-Control": "public, max-age=31536000, immutable",
	} {
		if got := res.Header.Get(k); got != v {
			t.Errorf("%s: %q, want %q", k, got, v)
		}
	}

	res, body = get(a.ScriptURL(), map[string]string{"Accept-Encoding": "br, gzip"})
	if res.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("no gzip: %v", res.Header)
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	unzipped, _ := io.ReadAll(zr)
	if !bytes.Equal(unzipped, want) {
		t.Fatal("gzipped script differs")
	}
	if res, _ := get(a.ScriptURL(), map[string]string{"Accept-Encoding": "gzip;q=0"}); res.Header.Get("Content-Encoding") != "" {
		t.Fatal("gzip sent to a client refusing it")
	}

	if res, body := get(a.ScriptURL(), map[string]string{"If-None-Match": res.Header.Get("ETag")}); res.StatusCode != 304 || len(body) != 0 {
		t.Fatalf("conditional GET: %d", res.StatusCode)
	}
	if res, _ := get(a.StyleURL(), nil); res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/css; charset=utf-8" {
		t.Fatalf("style: %d %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	for _, p := range []string{"/assets/editor.js", "/assets/editor-0000000000000000.js", "/static/editor.js", strings.TrimPrefix(a.ScriptURL(), "/assets")} {
		if res, _ := get(p, nil); res.StatusCode != 404 {
			t.Errorf("%s: %d, want 404", p, res.StatusCode)
		}
	}
}
