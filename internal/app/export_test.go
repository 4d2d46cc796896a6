package app

import "net/netip"

// PublicAddressForTest exposes publicAddress to the external tests.
func PublicAddressForTest(s string) bool { return publicAddress(netip.MustParseAddr(s)) }
