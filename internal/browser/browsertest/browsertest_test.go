package browsertest_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/foliodocs/folio/internal/browser/browsertest"
)

// TestBrowserRendersPage checks the launcher itself: a page served on
// loopback is loaded and its text read back from the DOM.
func TestBrowserRendersPage(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!DOCTYPE html><title>t</title><h1 id="x">Hello from Folio</h1>`))
	}))
	defer srv.Close()
	ctx := browsertest.New(t)
	var text string
	if err := chromedp.Run(ctx, chromedp.Navigate(srv.URL), chromedp.Text("#x", &text)); err != nil {
		t.Fatal(err)
	}
	if text != "Hello from Folio" {
		t.Fatalf("text = %q", text)
	}
}
