package expand

import (
	"math/rand"
	"strings"
	"testing"
)

// TestDropNULs holds dropNULs to strings.ReplaceAll's answer, which it
// replaces for speed (llmsh, session 20): NULs anywhere, none, all.
func TestDropNULs(t *testing.T) {
	cases := []string{"", "\x00", "\x00\x00", "abc", "\x00abc", "abc\x00", "a\x00b\x00\x00c\x00", strings.Repeat("\x00", 1000)}
	rng := rand.New(rand.NewSource(1))
	for range 200 {
		b := make([]byte, rng.Intn(64))
		for i := range b {
			b[i] = "\x00a\n\xff"[rng.Intn(4)]
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		if got, want := dropNULs(s), strings.ReplaceAll(s, "\x00", ""); got != want {
			t.Errorf("dropNULs(%q) = %q, want %q", s, got, want)
		}
	}
}
