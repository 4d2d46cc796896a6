package reader_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"regexp"
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
)

// weightBudget is the most a typical page may weigh, compressed, without
// images: its HTML, stylesheet and script (docs/reader.md).
const weightBudget = 60 << 10

func gzipSize(t *testing.T, s string) int {
	t.Helper()
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
	w.Write([]byte(s))
	w.Close()
	return buf.Len()
}

// TestPageWeight: the fixture site's page with every block type, and its
// stylesheet and script, stay within the weight budget once compressed.
func TestPageWeight(t *testing.T) {
	t.Parallel()
	s := apitest.New(t, "sqlite", apitest.Options{})
	f := newFixture(t, s, everyBlock, map[string]any{})
	f.putSpec(t, "petstore", petsSpec)
	f.publish(t)
	base := "/sites/" + f.site
	p := get(t, s, nil, "", base+"/").want(t, 200)
	css := regexp.MustCompile(`href="([^"]+/~/reader\.css\?v=[0-9a-f]+)"`).FindStringSubmatch(p.body)
	js := regexp.MustCompile(`src="([^"]+/~/reader\.js\?v=[0-9a-f]+)"`).FindStringSubmatch(p.body)
	if css == nil || js == nil {
		t.Fatalf("no assets in %s", p.body)
	}
	parts := map[string]string{"html": p.body, "css": get(t, s, nil, "", css[1]).want(t, 200).body,
		"js": get(t, s, nil, "", js[1]).want(t, 200).body}
	total := 0
	for name, body := range parts {
		n := gzipSize(t, body)
		total += n
		t.Logf("%s: %d bytes, %d compressed", name, len(body), n)
	}
	t.Logf("total compressed: %d bytes", total)
	// The assets are sent compressed to browsers that ask.
	req, _ := http.NewRequest("GET", s.URL+css[1], nil)
	req.Header.Set("Accept-Encoding", "br, gzip")
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	zr, err := gzip.NewReader(res.Body)
	if err != nil || res.Header.Get("Content-Encoding") != "gzip" || res.Header.Get("Vary") != "Accept-Encoding" {
		t.Fatalf("stylesheet not compressed: %v %v", err, res.Header)
	}
	if b, _ := io.ReadAll(zr); string(b) != parts["css"] {
		t.Fatal("the compressed stylesheet differs")
	}
	if total > weightBudget {
		t.Fatalf("the page weighs %d bytes compressed, over the budget of %d", total, weightBudget)
	}
}
