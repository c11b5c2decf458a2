package builtins_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// countedCtx is a context whose Err turns Canceled after n calls: where a
// loop looks at its context decides when it ends, not how fast it is.
type countedCtx struct {
	context.Context
	n atomic.Int64
}

func (c *countedCtx) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestFactorStops: factoring 2^128+1 (two primes of 56 and 73 bits, as
// slow in GNU factor, which gave no answer in a minute) ends soon after
// its context does (session 28, red team): Pollard's rho doubled its
// rounds and looked at the context once per round, so a stop landed up to
// a round late, as long as all the work before it (a library Run with a
// 3 s limit answered after 6.3 s). With the context ending after 40
// looks the old code, one look a round, went on to rounds of 2^40 steps.
func TestFactorStops(t *testing.T) {
	ctx := &countedCtx{Context: context.Background()}
	ctx.n.Store(40)
	var out, errb strings.Builder
	b, _ := Lookup("factor")
	env := &Env{Ctx: ctx, Args: []string{"factor", "340282366920938463463374607431768211457"}, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
	b.Run(env)
	if !strings.HasPrefix(out.String(), "340282366920938463463374607431768211457:") {
		t.Errorf("stdout %q, stderr %q", out.String(), errb.String())
	}
}
