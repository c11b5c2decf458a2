package expand_test

import (
	"io"
	"math/rand"
	"strings"
	"testing"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// TestDropNULs holds a command substitution's dropNULs to
// strings.ReplaceAll's answer, which it replaces for speed (llmsh, session
// 20): NULs anywhere, none, all; one warning if there were any.
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
		warned := 0
		cfg := &expand.Config{
			CmdSubst: func(w io.Writer, _ *syntax.CmdSubst) error {
				_, err := io.WriteString(w, s+"x")
				return err
			},
			Warn: func(string) { warned++ },
		}
		got, err := expand.Literal(cfg, longWord(t, "$(c)"))
		if want := strings.ReplaceAll(s, "\x00", "") + "x"; err != nil || got != want {
			t.Errorf("$(c) writing %q = %q, %v; want %q", s+"x", got, err, want)
		}
		if want := strings.Count(s, "\x00") > 0; (warned == 1) != want || warned > 1 {
			t.Errorf("$(c) writing %q: warned %d times", s+"x", warned)
		}
	}
}
