package builtins_test

import "testing"

// Expected values checked against GNU tac 9.1 (LC_ALL=C).
func TestTac(t *testing.T) {
	t.Parallel()
	runLines(t, []linesCase{
		{nil, []string{"tac"}, "a\nb\nc\n", "c\nb\na\n", "", 0},
		{nil, []string{"tac"}, "a\nb", "ba\n", "", 0},
		{nil, []string{"tac"}, "", "", "", 0},
		{nil, []string{"tac"}, "\n\n", "\n\n", "", 0},
		{nil, []string{"tac", "-b"}, "a\nb\n", "\n\nba", "", 0},
		{nil, []string{"tac", "-s", ","}, "1,2,3", "32,1,", "", 0},
		{nil, []string{"tac", "-s", ",", "-b"}, "1,2,3,", ",,3,21", "", 0},
		{nil, []string{"tac", "-s", "::"}, "a::b:::c", "cb:::a::", "", 0},
		{nil, []string{"tac", "-r", "-s", "[0-9]"}, "a1b2c3", "c3b2a1", "", 0},
		{nil, []string{"tac", "-r", "-s", "\\."}, "a.b.c.", "c.b.a.", "", 0},
		{nil, []string{"tac", "-rb", "-s", "[0-9]"}, "a1b2c3", "32c1ba", "", 0},
		{nil, []string{"tac", "-", "-"}, "x\ny\n", "y\nx\n", "", 0},
		{map[string]string{"a": "1\n2\n"}, []string{"tac", "nosuch", "a"}, "", "2\n1\n", "tac: failed to open 'nosuch' for reading: No such file or directory\n", 1},
		{map[string]string{}, []string{"tac", "it's"}, "", "", "tac: failed to open \"it's\" for reading: No such file or directory\n", 1},
		{nil, []string{"tac", "-q"}, "", "", "tac: invalid option -- 'q'\nTry 'tac --help' for more information.\n", 1},
	})
}
