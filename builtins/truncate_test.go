package builtins_test

import (
	"strings"
	"testing"
)

// Expected values checked against GNU truncate 9.1; the last field is the
// tree afterwards.
func TestTruncate(t *testing.T) {
	t.Parallel()
	f := map[string]string{"f": "hello world", "r": "abc", "d/": ""}
	z := func(n int) string { return strings.Repeat("\x00", n) }
	runTree(t, []treeCase{
		{f, []string{"truncate", "-s", "5", "f"}, "", "", 0, "d/ f=hello r=abc"},
		{f, []string{"truncate", "-s", "+2", "f"}, "", "", 0, "d/ f=hello world" + z(2) + " r=abc"},
		{f, []string{"truncate", "-s", "-20", "f"}, "", "", 0, "d/ f= r=abc"},
		{f, []string{"truncate", "-s", "<4", "f", "r"}, "", "", 0, "d/ f=hell r=abc"},
		{f, []string{"truncate", "-s", ">4", "f", "r"}, "", "", 0, "d/ f=hello world r=abc" + z(1)},
		{f, []string{"truncate", "-s", "/5", "f"}, "", "", 0, "d/ f=hello worl r=abc"},
		{f, []string{"truncate", "-s", "%4", "f"}, "", "", 0, "d/ f=hello world" + z(1) + " r=abc"},
		{f, []string{"truncate", "-r", "r", "f", "new"}, "", "", 0, "d/ f=hel new=" + z(3) + " r=abc"},
		{f, []string{"truncate", "-r", "r", "-s", "+1", "f"}, "", "", 0, "d/ f=hell r=abc"},
		{f, []string{"truncate", "-c", "-s", "0", "nope"}, "", "", 0, "d/ f=hello world r=abc"},
		{f, []string{"truncate", "-s", "1K", "new"}, "", "", 0, "d/ f=hello world new=" + z(1024) + " r=abc"},
		{f, []string{"truncate", "-s", "abc", "f"}, "", "truncate: Invalid number: 'abc'\n", 1, "d/ f=hello world r=abc"},
		{f, []string{"truncate", "-s", "1Q", "f"}, "", "truncate: Invalid number: '1Q'\n", 1, "d/ f=hello world r=abc"},
		{f, []string{"truncate", "-s", "/0", "f"}, "", "truncate: division by zero\n", 1, "d/ f=hello world r=abc"},
		{f, []string{"truncate", "f"}, "", "truncate: you must specify either '--size' or '--reference'\nTry 'truncate --help' for more information.\n", 1, "d/ f=hello world r=abc"},
		{f, []string{"truncate", "-s", "1"}, "", "truncate: missing file operand\nTry 'truncate --help' for more information.\n", 1, "d/ f=hello world r=abc"},
		{f, []string{"truncate", "-s", "1", "-r", "r", "f"}, "", "truncate: you must specify a relative '--size' with '--reference'\nTry 'truncate --help' for more information.\n", 1, "d/ f=hello world r=abc"},
		{f, []string{"truncate", "-r", "nosuch", "f"}, "", "truncate: cannot stat 'nosuch': No such file or directory\n", 1, "d/ f=hello world r=abc"},
		{f, []string{"truncate", "-s", "1", "nod/x"}, "", "truncate: cannot open 'nod/x' for writing: No such file or directory\n", 1, "d/ f=hello world r=abc"},
		{f, []string{"truncate", "-s", "1", "d"}, "", "truncate: cannot open 'd' for writing: Is a directory\n", 1, "d/ f=hello world r=abc"},
	})
}
