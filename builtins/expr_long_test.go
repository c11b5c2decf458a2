package builtins

import (
	"context"
	"strings"
	"testing"
)

// expr's match of a long string, read through the context's reader, is
// the string's own, and stops with a stopped run (no message, 125).
func TestExprLongMatch(t *testing.T) {
	defer func(n int) { exprLongSubject = n }(exprLongSubject)
	exprLongSubject = 1 << 12 // the reader path, on a string small enough for -race
	s := strings.Repeat("ab", 1<<11) + "Qz"
	live := &exprParser{ctx: context.Background()}
	plain := &exprParser{}
	for _, pat := range []string{`\(a*b\)*`, `.*Q`, `ab`, `\(b\)`, `.*\(Q\)`, `x`, `[a-z]*Qz$`} {
		if got, want := live.exprMatch(s, pat), plain.exprMatch(s, pat); got != want {
			t.Errorf("%s: %.20q, want %.20q", pat, got, want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	defer func() {
		e, ok := recover().(*exprError)
		if !ok || e.msg != "" || e.status != 125 {
			t.Errorf("stopped run: %v", e)
		}
	}()
	// The reader looks at the context every 65536 characters.
	(&exprParser{ctx: ctx}).exprMatch(strings.Repeat("ab", 1<<16), `[a-z]\{1,30\}X`)
	t.Error("stopped run: the match went on")
}
