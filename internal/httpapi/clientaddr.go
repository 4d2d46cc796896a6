package httpapi

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// ParseTrustedProxies reads a comma-separated list of CIDR prefixes
// (192.0.2.0/24, 2001:db8::/32) or single addresses (10.0.0.1, ::1) of the
// reverse proxies whose forwarding headers are believed.
func ParseTrustedProxies(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		ip, err := netip.ParseAddr(f)
		if err != nil || ip.Zone() != "" {
			return nil, fmt.Errorf("%q is not a CIDR prefix such as 10.0.0.0/8 or an address", f)
		}
		ip = ip.Unmap()
		out = append(out, netip.PrefixFrom(ip, ip.BitLen()))
	}
	return out, nil
}

// proxies are the trusted reverse proxies.
type proxies []netip.Prefix

func (ps proxies) trusted(ip netip.Addr) bool {
	ip = ip.Unmap()
	for _, p := range ps {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// clientAddress is the address of the client that made r: the TCP peer's,
// unless the peer is a trusted proxy; then the rightmost address of the
// forwarding chain that is not a trusted proxy (each proxy appends the
// address it got the request from, so everything left of the first
// untrusted hop may be made up by the client). The chain is read from
// X-Forwarded-For, or from Forwarded when the request has no
// X-Forwarded-For. When every hop is trusted, the leftmost is the client;
// when the first untrusted hop is not an address ("unknown", an
// obfuscated name), the last trusted hop stands for it.
func (ps proxies) clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	peer = peer.Unmap()
	if len(ps) == 0 || !ps.trusted(peer) {
		return peer.String()
	}
	var hops []string
	if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
		for _, v := range xff {
			for _, h := range strings.Split(v, ",") {
				hops = append(hops, strings.TrimSpace(h))
			}
		}
	} else {
		hops = forwardedFor(r.Header.Values("Forwarded"))
	}
	client := peer
	for i := len(hops) - 1; i >= 0; i-- {
		ip, ok := parseHop(hops[i])
		if !ok {
			break
		}
		client = ip
		if !ps.trusted(ip) {
			break
		}
	}
	return client.String()
}

// forwardedFor returns the for= values of Forwarded header fields (RFC
// 7239), in order, quotes removed; an element without one gives "".
func forwardedFor(fields []string) []string {
	var out []string
	for _, f := range fields {
		for _, elem := range splitQuoted(f, ',') {
			v := ""
			for _, pair := range splitQuoted(elem, ';') {
				name, value, ok := strings.Cut(strings.TrimSpace(pair), "=")
				if ok && strings.EqualFold(strings.TrimSpace(name), "for") {
					v = unquote(strings.TrimSpace(value))
				}
			}
			out = append(out, v)
		}
	}
	return out
}

// splitQuoted splits s at sep outside double quotes.
func splitQuoted(s string, sep byte) []string {
	var out []string
	quoted, start := false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && quoted:
			i++
		case c == '"':
			quoted = !quoted
		case c == sep && !quoted:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
		s = strings.ReplaceAll(s, `\"`, `"`)
		s = strings.ReplaceAll(s, `\\`, `\`)
	}
	return s
}

// parseHop reads one hop of a forwarding chain: an address, with or
// without a port, IPv6 in brackets when it has one.
func parseHop(h string) (netip.Addr, bool) {
	if ip, err := netip.ParseAddr(h); err == nil && ip.Zone() == "" {
		return ip.Unmap(), true
	}
	if strings.HasPrefix(h, "[") {
		end := strings.IndexByte(h, ']')
		if end < 0 {
			return netip.Addr{}, false
		}
		rest := h[end+1:]
		if rest != "" && !strings.HasPrefix(rest, ":") {
			return netip.Addr{}, false
		}
		ip, err := netip.ParseAddr(h[1:end])
		if err != nil || ip.Zone() != "" {
			return netip.Addr{}, false
		}
		return ip.Unmap(), true
	}
	if ap, err := netip.ParseAddrPort(h); err == nil && ap.Addr().Zone() == "" {
		return ap.Addr().Unmap(), true
	}
	return netip.Addr{}, false
}
