package builtins_test

import "testing"

// Expected values checked against GNU cat 9.1 (LC_ALL=C).
func TestCatFiles(t *testing.T) {
	t.Parallel()
	runLines(t, []linesCase{
		{map[string]string{"a": "one\ntwo", "b": "three\n\n\n\nfour\n"}, []string{"cat", "a", "b"}, "", "one\ntwothree\n\n\n\nfour\n", "", 0},
		{map[string]string{"a": "one\ntwo", "b": "three\n\n\n\nfour\n"}, []string{"cat", "-n", "a", "b"}, "", "     1\tone\n     2\ttwothree\n     3\t\n     4\t\n     5\t\n     6\tfour\n", "", 0},
		{map[string]string{"a": "one\ntwo", "b": "three\n\n\n\nfour\n"}, []string{"cat", "-s", "b", "-", "a"}, "in\n", "three\n\nfour\nin\none\ntwo", "", 0},
		{map[string]string{"a": "one\ntwo", "b": "three\n\n\n\nfour\n"}, []string{"cat", "a", "missing", "b"}, "", "one\ntwothree\n\n\n\nfour\n", "cat: missing: No such file or directory\n", 1},
	})
}
