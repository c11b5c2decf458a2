package builtins_test

import "testing"

// Expected values checked against GNU coreutils 9.1 rmdir (LC_ALL=C).
func TestRmdir(t *testing.T) {
	t.Parallel()
	tree := map[string]string{"f": "x", "a/b/c/": "", "a/x": "", "k/l/": "", "n/z": ""}
	runTree(t, []treeCase{
		{tree, []string{"rmdir", "f"}, "", "rmdir: failed to remove 'f': Not a directory\n", 1, "-"},
		{tree, []string{"rmdir", "-pv", "a/b/c"}, "rmdir: removing directory, 'a/b/c'\nrmdir: removing directory, 'a/b'\nrmdir: removing directory, 'a'\n",
			"rmdir: failed to remove directory 'a': Directory not empty\n", 1, "a/ a/x= f=x k/ k/l/ n/ n/z="},
		{tree, []string{"rmdir", "--ignore-fail-on-non-empty", "-p", "a/b/c"}, "", "", 0, "a/ a/x= f=x k/ k/l/ n/ n/z="},
		{tree, []string{"rmdir", "--ignore-fail-on-non-empty", "n"}, "", "", 0, "-"},
		{tree, []string{"rmdir", "n"}, "", "rmdir: failed to remove 'n': Directory not empty\n", 1, "-"},
		{tree, []string{"rmdir", "-p", "k/l/"}, "", "", 0, "a/ a/b/ a/b/c/ a/x= f=x n/ n/z="},
		{tree, []string{"rmdir", "nope"}, "", "rmdir: failed to remove 'nope': No such file or directory\n", 1, "-"},
		{tree, []string{"rmdir"}, "", "rmdir: missing operand\nTry 'rmdir --help' for more information.\n", 1, "-"},
		// rmdir(2) refuses a last component "." or "..", and the root: the
		// directory stays.
		{tree, []string{"rmdir", "k/l/.", "k/l/./", "f/.", "nope/..", "k/..", "//"}, "",
			"rmdir: failed to remove 'k/l/.': Invalid argument\nrmdir: failed to remove 'k/l/./': Invalid argument\n" +
				"rmdir: failed to remove 'f/.': Not a directory\nrmdir: failed to remove 'nope/..': No such file or directory\n" +
				"rmdir: failed to remove 'k/..': Directory not empty\nrmdir: failed to remove '//': Device or resource busy\n", 1, "-"},
		// Outside the granted tree, and the granted tree itself.
		{tree, []string{"rmdir", "@OUT@/sd"}, "", "rmdir: failed to remove '@OUT@/sd': No such file or directory\n", 1, "-"},
		{tree, []string{"rmdir", "-p", "k/l", "@DIR@"}, "", "rmdir: failed to remove '@DIR@': Permission denied\n", 1, "a/ a/b/ a/b/c/ a/x= f=x n/ n/z="},
	})
}
