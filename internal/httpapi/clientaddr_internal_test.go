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

func TestClientAddress(t *testing.T) {
	ps, err := ParseTrustedProxies("10.0.0.0/8, 192.0.2.1, 2001:db8:ffff::/48")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, peer string
		header     http.Header
		want       string
	}{
		{"no proxy header", "198.51.100.1:4000", nil, "198.51.100.1"},
		{"spoofed from an untrusted peer", "198.51.100.1:4000",
			http.Header{"X-Forwarded-For": {"203.0.113.5"}, "Forwarded": {"for=203.0.113.6"}}, "198.51.100.1"},
		{"one trusted proxy", "10.1.2.3:4000", http.Header{"X-Forwarded-For": {"203.0.113.5"}}, "203.0.113.5"},
		{"client spoofs the left of the chain", "10.1.2.3:4000",
			http.Header{"X-Forwarded-For": {"1.2.3.4, 203.0.113.5"}}, "203.0.113.5"},
		{"several trusted hops", "10.1.2.3:4000",
			http.Header{"X-Forwarded-For": {"1.2.3.4, 203.0.113.5, 192.0.2.1", "10.9.9.9"}}, "203.0.113.5"},
		{"all hops trusted", "10.1.2.3:4000", http.Header{"X-Forwarded-For": {"10.0.0.7, 192.0.2.1"}}, "10.0.0.7"},
		{"trusted peer without header", "10.1.2.3:4000", nil, "10.1.2.3"},
		{"garbage hop stops at the last trusted one", "10.1.2.3:4000",
			http.Header{"X-Forwarded-For": {"203.0.113.5, nonsense, 10.0.0.9"}}, "10.0.0.9"},
		{"IPv4-mapped peer", "[::ffff:10.1.2.3]:4000", http.Header{"X-Forwarded-For": {"203.0.113.5"}}, "203.0.113.5"},
		{"Forwarded", "10.1.2.3:4000", http.Header{"Forwarded": {"for=203.0.113.60;proto=http;by=10.1.2.3"}}, "203.0.113.60"},
		{"Forwarded, quoted IPv6 with port", "10.1.2.3:4000",
			http.Header{"Forwarded": {`for="[2001:db8:cafe::17]:4711"`}}, "2001:db8:cafe::17"},
		{"Forwarded, several elements and fields", "[2001:db8:ffff::1]:443",
			http.Header{"Forwarded": {`for=198.51.100.17, for="[2001:db8:cafe::17]"`, `for="10.0.0.2:80";proto=https`}},
			"2001:db8:cafe::17"},
		{"Forwarded, quoted semicolon and comma", "10.1.2.3:4000",
			http.Header{"Forwarded": {`for=203.0.113.1;by="a,b;c", for=203.0.113.2`}}, "203.0.113.2"},
		{"Forwarded, unknown", "10.1.2.3:4000", http.Header{"Forwarded": {"for=unknown"}}, "10.1.2.3"},
		{"X-Forwarded-For wins over Forwarded", "10.1.2.3:4000",
			http.Header{"X-Forwarded-For": {"203.0.113.5"}, "Forwarded": {"for=203.0.113.6"}}, "203.0.113.5"},
	} {
		r := &http.Request{RemoteAddr: tc.peer, Header: tc.header}
		if got := proxies(ps).clientAddress(r); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := proxies(nil).clientAddress(&http.Request{RemoteAddr: "10.1.2.3:1",
		Header: http.Header{"X-Forwarded-For": {"203.0.113.5"}}}); got != "10.1.2.3" {
		t.Errorf("without trusted proxies: %q", got)
	}
	for _, bad := range []string{"10.0.0.0/33", "example.com", "fe80::1%eth0"} {
		if _, err := ParseTrustedProxies(bad); err == nil {
			t.Errorf("ParseTrustedProxies(%q) accepted", bad)
		}
	}
}

// The access log names the client: the forwarded address behind a trusted
// proxy, the peer otherwise.
func TestAccessLogClient(t *testing.T) {
	var buf bytes.Buffer
	ps, _ := ParseTrustedProxies("10.0.0.0/8")
	s := New(Config{Logger: slog.New(slog.NewJSONHandler(&buf, nil)), AccessLog: true, TrustedProxies: ps})
	for _, tc := range []struct{ peer, xff, want string }{
		{"10.0.0.1:1234", "203.0.113.7", "203.0.113.7"},
		{"198.51.100.2:1234", "203.0.113.7", "198.51.100.2"},
	} {
		buf.Reset()
		r := httptest.NewRequest("GET", "/v1/nothing-here", nil)
		r.RemoteAddr = tc.peer
		r.Header.Set("X-Forwarded-For", tc.xff)
		s.ServeHTTP(httptest.NewRecorder(), r)
		var line struct{ Msg, Client string }
		if err := json.Unmarshal(buf.Bytes(), &line); err != nil || line.Msg != "request" || line.Client != tc.want {
			t.Errorf("peer %s: access log %s (%v), want client %s", tc.peer, buf.String(), err, tc.want)
		}
	}
}

// The access log does not record the secrets some paths carry (invite
// links, one-time sign-in links): their segments show as the wildcard.
func TestAccessLogRedactsSecrets(t *testing.T) {
	var buf bytes.Buffer
	s := New(Config{Logger: slog.New(slog.NewJSONHandler(&buf, nil)), AccessLog: true})
	for _, tc := range []struct{ method, path, want string }{
		{"POST", "/v1/orgs/acme/invites/SECRETinvite01", "/v1/orgs/acme/invites/{inviteId}"},
		{"GET", "/v1/orgs/acme/link-invites/SECRETinvite02", "/v1/orgs/acme/link-invites/{inviteId}"},
		{"GET", "/v1/orgs/acme/members", "/v1/orgs/acme/members"},
	} {
		buf.Reset()
		r := httptest.NewRequest(tc.method, tc.path, nil)
		r.Header.Set("X-Request-Id", "req-7")
		s.ServeHTTP(httptest.NewRecorder(), r)
		var line struct {
			Msg, Path string
			RequestID string `json:"request_id"`
		}
		if err := json.Unmarshal(buf.Bytes(), &line); err != nil || line.Msg != "request" || line.Path != tc.want {
			t.Errorf("%s %s: access log %s (%v), want path %s", tc.method, tc.path, buf.String(), err, tc.want)
		}
		if line.RequestID != "req-7" {
			t.Errorf("the access log lost the request id: %s", buf.String())
		}
		if strings.Contains(buf.String(), "SECRET") {
			t.Errorf("the access log holds the secret: %s", buf.String())
		}
	}
	for _, tc := range []struct{ route, path, want string }{
		{"GET /join/{org}/{invite}", "/join/acme/SECRET", "/join/acme/{invite}"},
		{"POST /join/{org}/{invite}/account", "/join/acme/SECRET/account", "/join/acme/{invite}/account"},
		{"GET /signin/link/{token}", "/signin/link/SECRET", "/signin/link/{token}"},
		{"GET /s/{space}/{path...}", "/s/x/a/b", "/s/x/a/b"},
		{"reader", "/sites/x/token", "/sites/x/token"},
		{"GET /v1/spaces/{spaceId}", "/v1/spaces/abc", "/v1/spaces/abc"},
	} {
		if got := loggedPath(tc.route, tc.path); got != tc.want {
			t.Errorf("loggedPath(%q, %q) = %q, want %q", tc.route, tc.path, got, tc.want)
		}
	}
}
