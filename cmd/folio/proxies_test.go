package main

import (
	"fmt"
	"io"
	"net/netip"
	"testing"
)

func TestTrustedProxiesFlag(t *testing.T) {
	for _, tc := range []struct {
		env  string
		args []string
		want string // the prefixes, or the error
	}{
		{"", nil, "[]"},
		{"10.0.0.0/8, 192.0.2.1", nil, "[10.0.0.0/8 192.0.2.1/32]"},
		{"10.0.0.0/8", []string{"--trusted-proxies", "::1"}, "[::1/128]"},
		{"10.0.0.0/33", nil, `FOLIO_TRUSTED_PROXIES: "10.0.0.0/33" is not a CIDR prefix such as 10.0.0.0/8 or an address`},
		{"", []string{"--trusted-proxies", "proxy.local"}, `folio serve: invalid value "proxy.local" for flag -trusted-proxies: "proxy.local" is not a CIDR prefix such as 10.0.0.0/8 or an address (run "folio serve -h" for its flags)`},
	} {
		fs := newFlagSet("serve", "", io.Discard)
		e := &env{getenv: func(k string) string {
			if k == "FOLIO_TRUSTED_PROXIES" {
				return tc.env
			}
			return ""
		}}
		var got []netip.Prefix
		trustedProxiesFlag(fs.FlagSet, e, &got)
		err := parseFlags(fs, e, tc.args)
		out := fmt.Sprint(got)
		if err != nil {
			out = err.Error()
		}
		if out != tc.want {
			t.Errorf("env %q args %q: %s, want %s", tc.env, tc.args, out, tc.want)
		}
	}
}
