package builtins_test

import "testing"

// Messages checked against GNU nproc 9.1; the count is llmsh's fixed 1.
func TestNproc(t *testing.T) {
	t.Parallel()
	runLines(t, []linesCase{
		{nil, []string{"nproc"}, "", "1\n", "", 0},
		{nil, []string{"nproc", "--all"}, "", "1\n", "", 0},
		{nil, []string{"nproc", "--ignore=3"}, "", "1\n", "", 0},
		{nil, []string{"nproc", "--ignore=abc"}, "", "", "nproc: invalid number: 'abc'\n", 1},
		{nil, []string{"nproc", "x"}, "", "", "nproc: extra operand 'x'\nTry 'nproc --help' for more information.\n", 1},
	})
}
