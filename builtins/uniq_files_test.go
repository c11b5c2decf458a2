package builtins

import "testing"

// Expected values checked against GNU coreutils 9.1 uniq (LC_ALL=C).
func TestUniqFiles(t *testing.T) {
	in := map[string]string{"in": "a\na\nb\n"}
	skRunFiles(t, []skFileCase{
		{in, []string{"uniq", "in"}, "a\nb\n", "", 0, "", ""},
		{in, []string{"uniq", "-c", "in", "out"}, "", "", 0, "out", "      2 a\n      1 b\n"},
		{in, []string{"uniq", "in", "-"}, "a\nb\n", "", 0, "", ""},
		{in, []string{"uniq", "nosuch"}, "", "uniq: nosuch: No such file or directory\n", 1, "", ""},
		{in, []string{"uniq", "in", "sub/out"}, "", "uniq: sub/out: No such file or directory\n", 1, "", ""},
	})
}
