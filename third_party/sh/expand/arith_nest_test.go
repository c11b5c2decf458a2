package expand_test

import (
	"strings"
	"testing"

	"github.com/llmsh/llmsh/third_party/sh/expand"
)

// maxArithNest is arith.go's bound on an expression's nesting.
const maxArithNest = 10000

// TestArithNesting (llmsh): an expression nested past maxArithNest, by
// parentheses, unary operators or right-recursive ?:, = and **, fails
// with bash's recursion message instead of overflowing Go's stack; one
// nested to the bound is read.
func TestArithNesting(t *testing.T) {
	nest := func(open, mid, close string, n int) string {
		return strings.Repeat(open, n) + mid + strings.Repeat(close, n)
	}
	cfg := &expand.Config{}
	for _, c := range []struct {
		name, text string
		want       int64
		fails      bool
	}{
		{"parens at the bound", nest("(", "7", ")", maxArithNest), 7, false},
		{"parens", nest("(", "7", ")", 1000000), 0, true},
		{"not", nest("!", "0", "", 1000000), 0, true},
		{"minus", nest("- ", "1", "", 1000000), 0, true},
		{"complement", nest("~", "1", "", 1000000), 0, true},
		{"plus", nest("+ ", "1", "", 1000000), 0, true},
		{"ternary", nest("1?", "1", ":1", 1000000), 0, true},
		{"power", nest("1**", "1", "", 1000000), 0, true},
		{"assignment", nest("a=", "1", "", 1000000), 0, true},
		{"ternary at the bound", nest("1?", "5", ":1", maxArithNest/2), 5, false},
	} {
		got, err := cfg.ArithmText(c.text)
		switch {
		case c.fails && (err == nil || !strings.Contains(err.Error(), "expression recursion level exceeded")):
			t.Errorf("%s: got %d, %v; want the recursion error", c.name, got, err)
		case !c.fails && (err != nil || got != c.want):
			t.Errorf("%s: got %d, %v; want %d", c.name, got, err, c.want)
		}
	}
}
