package builtins_test

import "testing"

// Expected values checked against GNU coreutils 9.1 uniq (LC_ALL=C).
func TestUniqFiles(t *testing.T) {
	t.Parallel()
	in := map[string]string{"in": "a\na\nb\n"}
	runTextFiles(t, []textFileCase{
		{in, []string{"uniq", "in"}, "a\nb\n", "", 0, "", ""},
		{in, []string{"uniq", "-c", "in", "out"}, "", "", 0, "out", "      2 a\n      1 b\n"},
		{in, []string{"uniq", "in", "-"}, "a\nb\n", "", 0, "", ""},
		{in, []string{"uniq", "nosuch"}, "", "uniq: nosuch: No such file or directory\n", 1, "", ""},
		{in, []string{"uniq", "in", "sub/out"}, "", "uniq: sub/out: No such file or directory\n", 1, "", ""},
	})
}

// /dev/null reads as an empty file, as in GNU (checked against coreutils
// 9.1: uniq, wc and md5sum of /dev/null).
func TestDevNullOperand(t *testing.T) {
	t.Parallel()
	runTextFiles(t, []textFileCase{
		{nil, []string{"uniq", "/dev/null"}, "", "", 0, "", ""},
		{nil, []string{"wc", "-l", "/dev/null"}, "0 /dev/null\n", "", 0, "", ""},
		{nil, []string{"md5sum", "/dev/null"}, "d41d8cd98f00b204e9800998ecf8427e  /dev/null\n", "", 0, "", ""},
		{nil, []string{"cat", "/dev/null"}, "", "", 0, "", ""},
	})
}
