package parser_test

import (
	"strings"
	"testing"

	"github.com/llmsh/llmsh/third_party/goawk/parser"
)

// TestNestingLimit (llmsh): a program whose tree nests past 10000 levels
// (parentheses, unary operators, $, ^, assignments, ?:, statements, and
// the left-deep trees of long + and concatenation chains) is a parse
// error, not an overflow of Go's stack in the parser, the resolver or
// the compiler; shallower ones parse.
func TestNestingLimit(t *testing.T) {
	r := strings.Repeat
	const n = 1000000
	for _, c := range []struct {
		name, src string
		ok        bool
	}{
		{"parentheses", "BEGIN { print " + r("(", n) + "1" + r(")", n) + " }", false},
		{"minus", "BEGIN { print " + r("- ", n) + "1 }", false},
		{"not", "BEGIN { print " + r("!", n) + "1 }", false},
		{"fields", "{ print " + r("$", n) + "1 }", false},
		{"power", "BEGIN { print " + r("2^", n) + "1 }", false},
		{"assignment", "BEGIN { " + r("a=", n) + "1 }", false},
		{"ternary", "BEGIN { print " + r("1?1:", n) + "1 }", false},
		{"blocks", "BEGIN " + r("{", n) + r("}", n), false},
		{"if", "BEGIN { " + r("if (1) ", n) + "x = 1 }", false},
		{"sum", "BEGIN { print 1" + r("+1", n) + " }", false},
		{"concatenation", "BEGIN { print 1" + r(" 1", n) + " }", false},
		{"parentheses, 1000", "BEGIN { print " + r("(", 1000) + "1" + r(")", 1000) + " }", true},
		{"sum, 5000", "BEGIN { print 1" + r("+1", 5000) + " }", true},
		{"statements in a row", "BEGIN { " + r("x = 1; ", 100000) + " }", true},
	} {
		_, err := parser.ParseProgram([]byte(c.src), nil)
		switch {
		case c.ok && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case !c.ok && (err == nil || !strings.Contains(err.Error(), "program nested too deeply")):
			t.Errorf("%s: got %v, want the nesting error", c.name, err)
		}
	}
}
