package util

import (
	"net/netip"
	"testing"
)

// The carrier-grade NAT range is 100.64.0.0/10 exactly (llmsh: cgnat is
// made by a function, not parsed in package init).
func TestIsPrivateOrReservedCGNAT(t *testing.T) {
	for addr, want := range map[string]bool{
		"100.64.0.0":        true,
		"100.64.0.1":        true,
		"100.127.255.255":   true,
		"::ffff:100.64.9.9": true,
		"100.63.255.255":    false,
		"100.128.0.0":       false,
		"8.8.8.8":           false,
	} {
		if got := IsPrivateOrReserved(netip.MustParseAddr(addr)); got != want {
			t.Errorf("IsPrivateOrReserved(%s) = %v, want %v", addr, got, want)
		}
	}
}
