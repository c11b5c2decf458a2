package builtins

import "testing"

// Statuses as debianutils which 5.7: 0 all found, 1 otherwise (also with
// no operand); llmsh prints names, not paths (see CommandPath).
func TestWhich(t *testing.T) {
	runLines(t, []linesCase{
		{nil, []string{"which", "cat", "jq"}, "", "cat\njq\n", "", 0},
		{nil, []string{"which", "-a", "cat", "nosuch", "test"}, "", "cat\ntest\n", "", 1},
		{nil, []string{"which", "cd"}, "", "", "", 1},
		{nil, []string{"which", "/usr/bin/cat"}, "", "", "", 1},
		{nil, []string{"which"}, "", "", "", 1},
		{nil, []string{"which", "-x", "ls"}, "", "", "which: invalid option -- 'x'\nTry 'which --help' for more information.\n", 2},
	})
}
