package builtins_test

import "testing"

// Expected values checked against GNU coreutils 9.1 comm (LC_ALL=C).
func TestComm(t *testing.T) {
	t.Parallel()
	runText(t, []textCase{
		{"a\nb\n", []string{"comm", "-x"}, "", "comm: invalid option -- 'x'\nTry 'comm --help' for more information.\n", 1},
		{"a\nb\n", []string{"comm", "-"}, "", "comm: missing operand after '-'\nTry 'comm --help' for more information.\n", 1},
	})
}
