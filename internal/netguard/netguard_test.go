package netguard_test

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"

	"github.com/foliodocs/folio/internal/netguard"
)

func TestPublic(t *testing.T) {
	for addr, want := range map[string]bool{
		"93.184.216.34": true, "2606:4700::1111": true,
		"127.0.0.1": false, "10.1.2.3": false, "172.16.0.1": false, "192.168.1.1": false, "169.254.169.254": false,
		"100.100.100.200": false, "100.64.0.1": false, "0.1.2.3": false, "198.18.0.1": false, "192.0.0.8": false,
		"::1": false, "fe80::1": false, "fd00::1": false, "::ffff:127.0.0.1": false, "::": false, "ff02::1": false,
		"64:ff9b::a9fe:a9fe": false, "64:ff9b::5db8:d822": true, "2002:a9fe:a9fe::1": false, "2002:5db8:d822::1": true,
	} {
		if got := netguard.Public(netip.MustParseAddr(addr)); got != want {
			t.Errorf("Public(%s) = %v, want %v", addr, got, want)
		}
	}
}

// The guarded client refuses loopback, on the first request and on a
// redirect from elsewhere; the operator's client and the guarded one with
// private addresses allowed reach it.
func TestClients(t *testing.T) {
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	defer local.Close()
	guarded := netguard.NewClient(5*time.Second, false)
	if _, err := guarded.Get(local.URL); !netguard.IsBlocked(err) {
		t.Fatalf("guarded client to loopback: %v", err)
	}
	for name, c := range map[string]*http.Client{
		"operator":      netguard.OperatorClient(5 * time.Second),
		"allow private": netguard.NewClient(5*time.Second, true),
	} {
		res, err := c.Get(local.URL)
		if err != nil {
			t.Fatalf("%s client: %v", name, err)
		}
		res.Body.Close()
	}
	// Redirects: five at most, http(s) only.
	hops := 0
	loop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hops++
		http.Redirect(w, r, "/again", http.StatusFound)
	}))
	defer loop.Close()
	if _, err := netguard.NewClient(5*time.Second, true).Get(loop.URL); err == nil || hops != netguard.MaxRedirects {
		t.Fatalf("redirect loop: %v after %d hops", err, hops)
	}
}
