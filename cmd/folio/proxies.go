package main

import (
	"flag"
	"fmt"
	"net/netip"

	"github.com/foliodocs/folio/internal/httpapi"
)

// trustedProxiesFlag registers --trusted-proxies (FOLIO_TRUSTED_PROXIES):
// the reverse proxies whose X-Forwarded-For or Forwarded headers give the
// client address (docs/operations.md).
func trustedProxiesFlag(fs *flag.FlagSet, e *env, dst *[]netip.Prefix) {
	if v := e.str("FOLIO_TRUSTED_PROXIES", ""); v != "" {
		p, err := httpapi.ParseTrustedProxies(v)
		if err != nil {
			e.fail(fmt.Errorf("FOLIO_TRUSTED_PROXIES: %w", err))
		}
		*dst = p
	}
	fs.Func("trusted-proxies", "comma-separated CIDR prefixes or addresses of reverse proxies whose X-Forwarded-For or Forwarded "+
		"headers give the client address, for rate limits and the logs; from other peers those headers are ignored (FOLIO_TRUSTED_PROXIES)",
		func(v string) error {
			p, err := httpapi.ParseTrustedProxies(v)
			if err != nil {
				return err
			}
			*dst = p
			return nil
		})
}
