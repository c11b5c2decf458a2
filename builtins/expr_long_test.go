package builtins_test

import (
	"context"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// expr's match of a long string, read through the context's reader, is
// the string's own, and stops with a stopped run (no message, 125).
func TestExprLongMatch(t *testing.T) {
	defer ForTests.SetExprLongSubject(1 << 12)() // the reader path, on a string small enough for -race
	s := strings.Repeat("ab", 1<<11) + "Qz"
	for _, pat := range []string{`\(a*b\)*`, `.*Q`, `ab`, `\(b\)`, `.*\(Q\)`, `x`, `[a-z]*Qz$`} {
		got, msg, st := ForTests.ExprMatch(context.Background(), true, s, pat)
		want, wmsg, wst := ForTests.ExprMatch(context.Background(), false, s, pat)
		if got != want || msg != wmsg || st != wst {
			t.Errorf("%s: %.20q %q %d, want %.20q %q %d", pat, got, msg, st, want, wmsg, wst)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// The reader looks at the context every 65536 characters.
	if got, msg, st := ForTests.ExprMatch(ctx, true, strings.Repeat("ab", 1<<16), `[a-z]\{1,30\}X`); msg != "" || st != 125 {
		t.Errorf("stopped run: %q, message %q, status %d, want status 125", got, msg, st)
	}
}
