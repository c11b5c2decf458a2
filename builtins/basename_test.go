package builtins_test

import "testing"

// Expected values checked against GNU basename and dirname 9.1 (LC_ALL=C).
func TestBasenameDirname(t *testing.T) {
	t.Parallel()
	runLines(t, []linesCase{
		{nil, []string{"basename", "/usr/lib/x.so"}, "", "x.so\n", "", 0},
		{nil, []string{"basename", "/usr/lib/"}, "", "lib\n", "", 0},
		{nil, []string{"basename", "/"}, "", "/\n", "", 0},
		{nil, []string{"basename", "//"}, "", "/\n", "", 0},
		{nil, []string{"basename", ""}, "", "\n", "", 0},
		{nil, []string{"basename", "a.c", ".c"}, "", "a\n", "", 0},
		{nil, []string{"basename", ".c", ".c"}, "", ".c\n", "", 0},
		{nil, []string{"basename", "a/b.c/", ".c"}, "", "b\n", "", 0},
		{nil, []string{"basename", "-s", ".h", "a.h", "b/c.h", "d"}, "", "a\nc\nd\n", "", 0},
		{nil, []string{"basename", "-a", "x/y", "z/"}, "", "y\nz\n", "", 0},
		{nil, []string{"basename", "-z", "a/b"}, "", "b\x00", "", 0},
		{nil, []string{"basename"}, "", "", "basename: missing operand\nTry 'basename --help' for more information.\n", 1},
		{nil, []string{"basename", "a", "b", "c"}, "", "", "basename: extra operand 'c'\nTry 'basename --help' for more information.\n", 1},
		{nil, []string{"basename", "--", "-x"}, "", "-x\n", "", 0},
		// as GNU's getopt_long "+as:z": options stop at the first operand
		{nil, []string{"basename", "-s", ".py", "a.py", "-a"}, "", "a\n-a\n", "", 0},
		{nil, []string{"basename", "-a", "x/y", "-z"}, "", "y\n-z\n", "", 0},
		{nil, []string{"basename", "a.py", "-s", ".py"}, "", "", "basename: extra operand '.py'\nTry 'basename --help' for more information.\n", 1},
		{nil, []string{"dirname", "a/b", "-z"}, "", "a\x00", "", 0},
		{nil, []string{"basename", "-q"}, "", "", "basename: invalid option -- 'q'\nTry 'basename --help' for more information.\n", 1},
		{nil, []string{"dirname", "/usr/lib/x"}, "", "/usr/lib\n", "", 0},
		{nil, []string{"dirname", "x"}, "", ".\n", "", 0},
		{nil, []string{"dirname", "/"}, "", "/\n", "", 0},
		{nil, []string{"dirname", "//"}, "", "/\n", "", 0},
		{nil, []string{"dirname", "a/b/"}, "", "a\n", "", 0},
		{nil, []string{"dirname", "a//b//"}, "", "a\n", "", 0},
		{nil, []string{"dirname", "/a"}, "", "/\n", "", 0},
		{nil, []string{"dirname", "//a"}, "", "/\n", "", 0},
		{nil, []string{"dirname", ""}, "", ".\n", "", 0},
		{nil, []string{"dirname", "a/b", "c", "/d/e"}, "", "a\n.\n/d\n", "", 0},
		{nil, []string{"dirname", "-z", "a/b"}, "", "a\x00", "", 0},
		{nil, []string{"dirname"}, "", "", "dirname: missing operand\nTry 'dirname --help' for more information.\n", 1},
		{nil, []string{"dirname", "///a///b"}, "", "///a\n", "", 0},
	})
}
