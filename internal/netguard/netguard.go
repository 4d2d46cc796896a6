// Package netguard keeps the requests Folio makes on behalf of tenants
// (imports, webhooks, integration scripts and development tunnels, OpenAPI
// and git URLs) off the server's own networks: a dialer Control that
// refuses loopback, private, link-local, multicast, unspecified and other
// non-public addresses, checked on the address actually dialed (after DNS
// resolution, so a name cannot smuggle one in), and redirect checks.
//
// Endpoints the operator configures (translation engines, the S3 bucket,
// anything given by flag) are trusted as given and do not go through it:
// OperatorClient is their client.
//
// Allowed imports: the standard library only.
package netguard

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// nonPublic lists the ranges refused besides loopback, private, link-local,
// multicast and unspecified ones: "this network", shared address space
// (carrier-grade NAT, Tailscale, some cloud metadata services), IETF
// protocol assignments, benchmarking, reserved, and unique local IPv6.
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("fc00::/7"),
}

var (
	nat64  = netip.MustParsePrefix("64:ff9b::/96")
	sixTo4 = netip.MustParsePrefix("2002::/16")
)

// Public reports whether ip is on the public internet. IPv6 prefixes that
// reach an embedded IPv4 address (NAT64, 6to4) are judged by that address.
func Public(ip netip.Addr) bool {
	ip = ip.Unmap()
	if ip.Is6() {
		b := ip.As16()
		switch {
		case nat64.Contains(ip):
			return Public(netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}))
		case sixTo4.Contains(ip):
			return Public(netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}))
		}
	}
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsUnspecified() || ip.IsMulticast() || ip.IsInterfaceLocalMulticast() {
		return false
	}
	for _, p := range nonPublic {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}

// BlockedError is the error of a connection to an address that is not
// public.
type BlockedError struct{ Addr string }

func (e *BlockedError) Error() string { return "address " + e.Addr + " is not public" }

// IsBlocked reports whether err comes from the guard.
func IsBlocked(err error) bool {
	var b *BlockedError
	return errors.As(err, &b)
}

// Check returns a *BlockedError unless ip is public.
func Check(ip netip.Addr) error {
	if !Public(ip) {
		return &BlockedError{Addr: ip.String()}
	}
	return nil
}

// Control is a net.Dialer Control that refuses connections to addresses
// that are not public. It runs after name resolution, on each address
// dialed.
func Control(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return &BlockedError{Addr: address}
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return &BlockedError{Addr: host}
	}
	return Check(ip)
}

// Dialer returns a dialer with the given connect timeout that refuses
// non-public addresses, unless allowPrivate.
func Dialer(timeout time.Duration, allowPrivate bool) *net.Dialer {
	d := &net.Dialer{Timeout: timeout}
	if !allowPrivate {
		d.Control = Control
	}
	return d
}

// MaxRedirects bounds the redirects a guarded client follows.
const MaxRedirects = 5

// NewClient returns the client of tenant-supplied URLs: the overall time
// limit given, no proxy from the environment, at most MaxRedirects
// redirects and only to http or https, and, unless allowPrivate (the
// operator's --import-allow-private), no connection to an address that is
// not public, on the first request and every redirect.
func NewClient(timeout time.Duration, allowPrivate bool) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.DialContext = Dialer(10*time.Second, allowPrivate).DialContext
	tr.Proxy = nil
	return &http.Client{Timeout: timeout, Transport: tr, CheckRedirect: CheckRedirect}
}

// CheckRedirect is the redirect policy of guarded clients. The addresses
// of redirect targets are checked by the dialer like any other.
func CheckRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= MaxRedirects {
		return fmt.Errorf("too many redirects")
	}
	if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
		return fmt.Errorf("redirect to a %s URL", req.URL.Scheme)
	}
	return nil
}

// OperatorClient returns the client of endpoints the operator configured:
// any address, the proxy from the environment (HTTPS_PROXY, NO_PROXY) as
// the operator set it, and the overall time limit given.
func OperatorClient(timeout time.Duration) *http.Client {
	return &http.Client{Timeout: timeout, Transport: http.DefaultTransport.(*http.Transport).Clone()}
}
