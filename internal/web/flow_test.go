package web_test

import (
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
)

// TestFavicon: browsers ask for /favicon.ico on every page; it answers an
// icon, signed in or not, so that no page logs a 404.
func TestFavicon(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		p := newBrowser(s).get(t, "/favicon.ico").want(t, 200, "<svg", "</svg>")
		if ct := p.Header.Get("Content-Type"); ct != "image/svg+xml" {
			t.Fatalf("Content-Type %q", ct)
		}
	})
}
