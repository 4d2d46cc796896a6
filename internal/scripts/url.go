package scripts

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	"golang.org/x/net/idna"
)

// urlParts is a parsed URL as the prelude's URL class holds it, with the
// WHATWG getters' values (protocol with its colon, search with its "?").
type urlParts struct {
	Href     string `json:"href"`
	Protocol string `json:"protocol"`
	Username string `json:"username"`
	Password string `json:"password"`
	Hostname string `json:"hostname"`
	Port     string `json:"port"`
	Pathname string `json:"pathname"`
	Search   string `json:"search"`
	Hash     string `json:"hash"`
	Opaque   bool   `json:"opaque"` // no authority: mailto:, data:, urn:…
}

// specialPorts are the WHATWG special schemes with their default ports.
var specialPorts = map[string]string{
	"http": "80", "https": "443", "ws": "80", "wss": "443", "ftp": "21", "file": "",
}

// parseURL parses raw, against base when hasBase, the way the WHATWG URL
// parser does for the URLs scripts use: it is Go's net/url plus the WHATWG
// normalizations (lower-case scheme and host, IDNA host, default port
// dropped, "/" path for special schemes, dot segments removed, spaces and
// non-ASCII percent-encoded). It returns urlParts as JSON.
func parseURL(raw, base string, hasBase bool) (string, error) {
	u, err := resolveURL(raw, base, hasBase)
	if err != nil {
		return "", errInvalidURL(raw)
	}
	p, err := urlPartsOf(u)
	if err != nil {
		return "", errInvalidURL(raw)
	}
	b, err := json.Marshal(p)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

func resolveURL(raw, base string, hasBase bool) (*url.URL, error) {
	raw = cleanURLInput(raw)
	if !hasBase {
		u, err := url.Parse(raw)
		if err != nil {
			return nil, err
		}
		if u.Scheme == "" {
			return nil, errors.New("relative URL without a base")
		}
		if u.Opaque != "" {
			return u, nil
		}
		// An absolute reference resolves to itself with its dot segments
		// removed.
		return u.ResolveReference(u), nil
	}
	b, err := url.Parse(cleanURLInput(base))
	if err != nil || b.Scheme == "" {
		return nil, errors.New("invalid base URL")
	}
	ref, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	if ref.Scheme != "" && ref.Opaque != "" {
		return ref, nil
	}
	return b.ResolveReference(ref), nil
}

// cleanURLInput drops leading and trailing C0 controls and spaces and every
// tab and newline, as the WHATWG parser does first.
func cleanURLInput(s string) string {
	s = strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, s)
}

func urlPartsOf(u *url.URL) (urlParts, error) {
	scheme := strings.ToLower(u.Scheme)
	p := urlParts{Protocol: scheme + ":"}
	defPort, special := specialPorts[scheme]
	if u.Opaque != "" || (!special && u.Host == "" && !strings.HasPrefix(u.Path, "/")) {
		p.Opaque = true
		p.Pathname = u.Opaque
		if p.Pathname == "" {
			p.Pathname = u.EscapedPath()
		}
	} else {
		host := u.Hostname()
		if host == "" && special && scheme != "file" {
			return p, errors.New("missing host")
		}
		if host != "" {
			h, err := normalizeHost(host)
			if err != nil {
				return p, err
			}
			host = h
		}
		p.Hostname = host
		p.Port = u.Port()
		if p.Port == defPort && special {
			p.Port = ""
		}
		if u.User != nil {
			p.Username = u.User.Username()
			p.Password, _ = u.User.Password()
			p.Username = url.PathEscape(p.Username)
			p.Password = url.PathEscape(p.Password)
		}
		p.Pathname = u.EscapedPath()
		if p.Pathname == "" && special {
			p.Pathname = "/"
		}
	}
	if u.RawQuery != "" {
		p.Search = "?" + escapeQuery(u.RawQuery, special)
	}
	if u.Fragment != "" {
		p.Hash = "#" + u.EscapedFragment()
	}
	p.Href = composeHref(p, special || u.Host != "")
	return p, nil
}

// normalizeHost lower-cases host and converts international names to
// punycode; IPv6 addresses keep their brackets.
func normalizeHost(host string) (string, error) {
	if ip := net.ParseIP(host); ip != nil && strings.Contains(host, ":") {
		return "[" + ip.String() + "]", nil
	}
	h, err := idna.Lookup.ToASCII(strings.ToLower(host))
	if err != nil {
		// Underscores and such are common in real hosts; keep them.
		h, err = idna.Punycode.ToASCII(strings.ToLower(host))
		if err != nil {
			return "", err
		}
	}
	return h, nil
}

// escapeQuery percent-encodes the bytes the WHATWG query state encodes.
func escapeQuery(q string, special bool) string {
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		c := q[i]
		if c <= 0x20 || c >= 0x7F || c == '"' || c == '#' || c == '<' || c == '>' || (special && c == '\'') {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// composeHref serializes p.
func composeHref(p urlParts, authority bool) string {
	var b strings.Builder
	b.WriteString(p.Protocol)
	if !p.Opaque && authority {
		b.WriteString("//")
		if p.Username != "" || p.Password != "" {
			b.WriteString(p.Username)
			if p.Password != "" {
				b.WriteString(":" + p.Password)
			}
			b.WriteString("@")
		}
		b.WriteString(p.Hostname)
		if p.Port != "" {
			b.WriteString(":" + p.Port)
		}
	}
	b.WriteString(p.Pathname)
	b.WriteString(p.Search)
	b.WriteString(p.Hash)
	return b.String()
}

// errInvalidURL is the error of a URL that does not parse, worded as the
// URL constructor's TypeError that scripts expect.
func errInvalidURL(raw string) error {
	//lint:ignore ST1005 the message is the web platform's, capital included
	return fmt.Errorf("Invalid URL: %q", raw)
}
