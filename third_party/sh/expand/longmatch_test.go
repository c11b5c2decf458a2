package expand

import (
	"context"
	"errors"
	"strings"
	"testing"

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

// A pattern removal or replacement of a long value, read through the
// context's reader, gives what the string search gives; a stopped run
// ends it with the context's error.
func TestLongMatch(t *testing.T) {
	defer func(n int) { longMatch = n }(longMatch)
	s := strings.Repeat("ab cd\xff é", 1<<9) + "Qz"
	env := ListEnviron("s=" + s)
	for _, src := range []string{`${s//a*Q/x}`, `${s//b?/-}`, `${s##*c}`, `${s#*c}`, `${s%%c*}`, `${s%c*}`,
		`${s//é/E}`, `${s/[[:space:]]/_}`, `${s//+([a-z])/w}`, `${s//*/x}`} {
		var want string
		for _, long := range []int{1 << 30, 1 << 10} {
			longMatch = long
			cfg := &Config{Env: env, Ctx: context.Background()}
			got, err := Literal(cfg, longWord(t, src))
			if err != nil {
				t.Fatalf("%s: %v", src, err)
			}
			if long == 1<<30 {
				want = got
			} else if got != want {
				t.Errorf("%s: %.40q, want %.40q", src, got, want)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	longMatch = 1 << 10
	env = ListEnviron("s=" + strings.Repeat("ab", 1<<17))
	for _, src := range []string{`${s//a*Q/x}`, `${s##*Q*a}`} {
		cfg := &Config{Env: env, Ctx: ctx}
		if _, err := Literal(cfg, longWord(t, src)); !errors.Is(err, context.Canceled) {
			t.Errorf("%s in a stopped run: %v, want context.Canceled", src, err)
		}
	}
}
