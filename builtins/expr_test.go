package builtins_test

import "testing"

// Expected values checked against GNU expr 9.1 (LC_ALL=C).
func TestExpr(t *testing.T) {
	t.Parallel()
	runLines(t, []linesCase{
		{nil, []string{"expr", "1", "+", "2"}, "", "3\n", "", 0},
		{nil, []string{"expr", "10", "-", "3", "*", "2"}, "", "4\n", "", 0},
		{nil, []string{"expr", "7", "/", "2"}, "", "3\n", "", 0},
		{nil, []string{"expr", "-7", "%", "3"}, "", "-1\n", "", 0},
		{nil, []string{"expr", "(", "1", "+", "2", ")", "*", "3"}, "", "9\n", "", 0},
		{nil, []string{"expr", "a", "+", "1"}, "", "", "expr: non-integer argument\n", 2},
		{nil, []string{"expr", "1", "/", "0"}, "", "", "expr: division by zero\n", 2},
		{nil, []string{"expr", "0"}, "", "0\n", "", 1},
		{nil, []string{"expr", ""}, "", "\n", "", 1},
		{nil, []string{"expr", "abc"}, "", "abc\n", "", 0},
		{nil, []string{"expr", "1", "=", "1"}, "", "1\n", "", 0},
		{nil, []string{"expr", "a", "<", "b"}, "", "1\n", "", 0},
		{nil, []string{"expr", "10", "<", "9"}, "", "0\n", "", 1},
		{nil, []string{"expr", "10", "<", "9a"}, "", "1\n", "", 0},
		{nil, []string{"expr", "0", "|", "x"}, "", "x\n", "", 0},
		{nil, []string{"expr", "0", "|", ""}, "", "0\n", "", 1},
		{nil, []string{"expr", "a", "&", "0"}, "", "0\n", "", 1},
		{nil, []string{"expr", "a", "&", "b"}, "", "a\n", "", 0},
		{nil, []string{"expr", "abcdef", ":", "abc"}, "", "3\n", "", 0},
		{nil, []string{"expr", "abcdef", ":", "b"}, "", "0\n", "", 1},
		{nil, []string{"expr", "abcdef", ":", "a\\(.*\\)e"}, "", "bcd\n", "", 0},
		{nil, []string{"expr", "abcdef", ":", "x\\(.*\\)"}, "", "\n", "", 1},
		{nil, []string{"expr", "match", "hello", "h.l"}, "", "3\n", "", 0},
		{nil, []string{"expr", "length", "hello"}, "", "5\n", "", 0},
		{nil, []string{"expr", "index", "abcdef", "dc"}, "", "3\n", "", 0},
		{nil, []string{"expr", "substr", "hello", "2", "3"}, "", "ell\n", "", 0},
		{nil, []string{"expr", "substr", "hello", "0", "3"}, "", "\n", "", 1},
		{nil, []string{"expr", "substr", "hello", "4", "99"}, "", "lo\n", "", 0},
		{nil, []string{"expr", "+", "length"}, "", "length\n", "", 0},
		{nil, []string{"expr", "1", "+"}, "", "", "expr: syntax error: missing argument after '+'\n", 2},
		{nil, []string{"expr", "1", "2"}, "", "", "expr: syntax error: unexpected argument '2'\n", 2},
		{nil, []string{"expr", "(", "1"}, "", "", "expr: syntax error: expecting ')' after '1'\n", 2},
		{nil, []string{"expr", "a", ":", "\\("}, "", "", "expr: Unmatched ( or \\(\n", 2},
		{nil, []string{"expr", "a", ":", "a\\)"}, "", "", "expr: Unmatched ) or \\)\n", 2},
		{nil, []string{"expr", "a", ":", "a\\{2,1\\}"}, "", "", "expr: Invalid content of \\{\\}\n", 2},
		{nil, []string{"expr", "a", ":", "[[:foo:]]"}, "", "", "expr: Invalid character class name\n", 2},
		{nil, []string{"expr"}, "", "", "expr: missing operand\nTry 'expr --help' for more information.\n", 2},
		{nil, []string{"expr", "99999999999999999999", "+", "1"}, "", "100000000000000000000\n", "", 0},
		{nil, []string{"expr", "x", "!=", "y"}, "", "1\n", "", 0},
		{nil, []string{"expr", "3", ">=", "3"}, "", "1\n", "", 0},
		{nil, []string{"expr", "foo.txt", ":", ".*\\.txt"}, "", "7\n", "", 0},
		{nil, []string{"expr", "--", "5"}, "", "5\n", "", 0},
		{nil, []string{"expr", "a", ":", "a*"}, "", "1\n", "", 0},
		{nil, []string{"expr", "ab", ":", "\\(a\\)\\(b\\)"}, "", "a\n", "", 0},
	})
}

// TestExprUTF8 counts characters, not bytes, as GNU expr 9.1 does in
// C.UTF-8.
func TestExprUTF8(t *testing.T) {
	t.Parallel()
	if got := runCmd(t, nil, "", "expr", "length", "h\u00e9llo"); got.stdout != "5\n" || got.status != 0 {
		t.Errorf("expr length: %+v", got)
	}
	if got := runCmd(t, nil, "", "expr", "substr", "h\u00e9llo", "2", "1"); got.stdout != "\u00e9\n" || got.status != 0 {
		t.Errorf("expr substr: %+v", got)
	}
}

// TestExprNesting: parentheses and keyword operands nested past
// exprMaxDepth are a syntax error, not an overflow of Go's stack; up to
// it they are read.
func TestExprNesting(t *testing.T) {
	t.Parallel()
	nested := func(n int, mid ...string) []string {
		args := []string{"expr"}
		for range n {
			args = append(args, "(")
		}
		args = append(args, mid...)
		for range n {
			args = append(args, ")")
		}
		return args
	}
	lengths := []string{"expr"}
	for range 1000000 {
		lengths = append(lengths, "length")
	}
	tooDeep := "expr: syntax error: expression nested too deeply\n"
	for _, c := range []struct {
		name         string
		args         []string
		stdout, want string
		status       int
	}{
		{"at the bound", nested(exprMaxDepth-1, "1", "+", "2"), "3\n", "", 0},
		{"parentheses", nested(1000000, "1"), "", tooDeep, 2},
		{"keywords", append(lengths, "x"), "", tooDeep, 2},
	} {
		got := runCmd(t, nil, "", c.args...)
		if got.stdout != c.stdout || got.stderr != c.want || got.status != c.status {
			t.Errorf("%s: got %q %q %d", c.name, got.stdout, got.stderr, got.status)
		}
	}
}
