package builtins

import (
	"math"
	"strings"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

// ParseSize reads a positive byte count with GNU's multiplier suffixes
// (1K and 1KiB are 1024, 1KB is 1000; M, G, T, P, E likewise), as the
// llmsh command's --max-output takes it. ok is false for anything else,
// zero, or a count past 2^63-1.
func ParseSize(s string) (n int64, ok bool) {
	v, err := gnu.ParseSize(s, 10, "kKMGTPE0")
	if err != gnu.SizeOK || v == 0 || v > math.MaxInt64 || strings.TrimSpace(s) != s {
		return 0, false
	}
	return int64(v), true
}
