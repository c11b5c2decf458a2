package expand_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

func longWord(t *testing.T, src string) *syntax.Word {
	t.Helper()
	w, err := syntax.NewParser().Document(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// A pattern removal or replacement of a long value (longMatch, 1 << 14
// bytes, or more), read through the context's reader, gives what the
// string search gives (the run with no context); a stopped run ends it
// with the context's error.
func TestLongMatch(t *testing.T) {
	s := strings.Repeat("ab cd\xff é", 1<<11) + "Qz"
	env := expand.ListEnviron("s=" + s)
	for _, src := range []string{`${s//a*Q/x}`, `${s//b?/-}`, `${s##*c}`, `${s#*c}`, `${s%%c*}`, `${s%c*}`,
		`${s//é/E}`, `${s/[[:space:]]/_}`, `${s//+([a-z])/w}`, `${s//*/x}`} {
		want, err := expand.Literal(&expand.Config{Env: env}, longWord(t, src))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		got, err := expand.Literal(&expand.Config{Env: env, Ctx: context.Background()}, longWord(t, src))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if got != want {
			t.Errorf("%s: %.40q, want %.40q", src, got, want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	env = expand.ListEnviron("s=" + strings.Repeat("ab", 1<<17))
	for _, src := range []string{`${s//a*Q/x}`, `${s##*Q*a}`} {
		cfg := &expand.Config{Env: env, Ctx: ctx}
		if _, err := expand.Literal(cfg, longWord(t, src)); !errors.Is(err, context.Canceled) {
			t.Errorf("%s in a stopped run: %v, want context.Canceled", src, err)
		}
	}
}
