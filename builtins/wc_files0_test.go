package builtins_test

import "testing"

// --files0-from and directories; expected values checked against GNU wc 9.1.
func TestWcFiles0(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"a":      "one two\n",
		"d/x":    "",
		"f0":     "a\x00\x00nosuch\x00d\x00-\x00",
		"empty0": "",
		"one0":   "a",
		"two0":   "a\x00a\x00",
	}
	runLines(t, []linesCase{
		{files, []string{"wc", "--files0-from=f0"}, "",
			"      1       2       8 a\n      0       0       0 d\n      0       0       0 -\n      1       2       8 total\n",
			"wc: f0:2: invalid zero-length file name\nwc: nosuch: No such file or directory\nwc: d: Is a directory\n", 1},
		// Names from standard input are counted as they come: width 1.
		{files, []string{"wc", "-l", "--files0-from=-"}, "a\x00a", "1 a\n1 a\n2 total\n", "", 0},
		{files, []string{"wc", "--files0-from=-"}, "a\x00-\x00", "1 2 8 a\n1 2 8 total\n",
			"wc: when reading file names from stdin, no file name of '-' allowed\n", 1},
		{files, []string{"wc", "--files0-from=-"}, "\x00", "", "wc: -:1: invalid zero-length file name\n", 1},
		{files, []string{"wc", "--files0-from=nosuchf"}, "", "", "wc: cannot open 'nosuchf' for reading: No such file or directory\n", 1},
		{files, []string{"wc", "--files0-from=empty0"}, "", "", "", 0},
		{files, []string{"wc", "--files0-from=one0"}, "", "1 2 8 a\n", "", 0},
		{files, []string{"wc", "-lc", "--files0-from=two0"}, "", " 1  8 a\n 1  8 a\n 2 16 total\n", "", 0},
		{files, []string{"wc", "--files0-from=d"}, "", "", "wc: d: read error: Is a directory\n", 1},
		{files, []string{"wc", "--files0-from=f0", "a"}, "", "",
			"wc: extra operand 'a'\nfile operands cannot be combined with --files0-from\nTry 'wc --help' for more information.\n", 1},
		// GNU prints a directory's zero counts after its error.
		{files, []string{"wc", "-l", "d"}, "", "0 d\n", "wc: d: Is a directory\n", 1},
		{files, []string{"wc", "-l", "d", "a"}, "", "      0 d\n      1 a\n      1 total\n", "wc: d: Is a directory\n", 1},
	})
}
