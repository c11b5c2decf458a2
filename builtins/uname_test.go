package builtins_test

import "testing"

// Layout, order and messages checked against GNU uname 9.1; the values
// are llmsh's virtual ones.
func TestUname(t *testing.T) {
	t.Parallel()
	runLines(t, []linesCase{
		{nil, []string{"uname"}, "", "Linux\n", "", 0},
		{nil, []string{"uname", "-a"}, "", "Linux llmsh 6.1.0-llmsh #1 SMP PREEMPT_DYNAMIC llmsh x86_64 GNU/Linux\n", "", 0},
		{nil, []string{"uname", "-nr"}, "", "llmsh 6.1.0-llmsh\n", "", 0},
		{nil, []string{"uname", "-o", "-s"}, "", "Linux GNU/Linux\n", "", 0},
		{nil, []string{"uname", "-p", "-i", "-m"}, "", "x86_64 unknown unknown\n", "", 0},
		{nil, []string{"uname", "-x"}, "", "", "uname: invalid option -- 'x'\nTry 'uname --help' for more information.\n", 1},
		{nil, []string{"uname", "foo"}, "", "", "uname: extra operand 'foo'\nTry 'uname --help' for more information.\n", 1},
	})
}
