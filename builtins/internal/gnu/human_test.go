package gnu_test

import (
	"testing"

	. "github.com/llmsh/llmsh/builtins/internal/gnu"
)

// TestHumanCeil's values are the sizes GNU ls -lh and du -h
// --apparent-size (coreutils 9.1) print for files of n bytes.
func TestHumanCeil(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "0"}, {1, "1"}, {1023, "1023"}, {1024, "1.0K"}, {1025, "1.1K"},
		{10239, "10K"}, {10240, "10K"}, {10241, "11K"}, {102399, "100K"},
		{1048575, "1.0M"}, {1048576, "1.0M"}, {1048577, "1.1M"},
		{1073741823, "1.0G"}, {1099511627775, "1.0T"}, {5000000, "4.8M"},
		{123456789, "118M"},
		// and what they print for the sizes ls's and du's tests had
		{5000, "4.9K"}, {13195, "13K"}, {20000000, "20M"}, {5 << 30, "5.0G"}, {1 << 40, "1.0T"},
	} {
		if got := HumanCeil(tc.n); got != tc.want {
			t.Errorf("HumanCeil(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
