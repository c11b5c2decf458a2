package builtins_test

import "testing"

// Expected values checked against GNU coreutils 9.1 comm (LC_ALL=C).
func TestCommFiles(t *testing.T) {
	t.Parallel()
	in := map[string]string{"u1": "a\nc\nb\n", "s2": "a\nb\nd\n", "s1": "a\nb\nc", "e": ""}
	z := map[string]string{"z1": "a\x00b\x00", "z2": "b\x00c\x00"}
	runTextFiles(t, []textFileCase{
		{in, []string{"comm", "u1", "s2"}, "\t\ta\n\tb\nc\nb\n\td\n", "comm: file 1 is not in sorted order\ncomm: input is not in sorted order\n", 1, "", ""},
		{in, []string{"comm", "--check-order", "u1", "s2"}, "\t\ta\n\tb\nc\n", "comm: file 1 is not in sorted order\n", 1, "", ""},
		{in, []string{"comm", "--nocheck-order", "u1", "s2"}, "\t\ta\n\tb\nc\nb\n\td\n", "", 0, "", ""},
		{in, []string{"comm", "--total", "-12", "u1", "s2"}, "a\n2\t2\t1\ttotal\n", "comm: file 1 is not in sorted order\ncomm: input is not in sorted order\n", 1, "", ""},
		{in, []string{"comm", "--output-delimiter=::", "s2", "s1"}, "::::a\n::::b\n::c\nd\n", "", 0, "", ""},
		{in, []string{"comm", "--output-delimiter=", "s2", "s1"}, "\x00\x00a\n\x00\x00b\n\x00c\nd\n", "", 0, "", ""},
		{in, []string{"comm", "s1", "s2"}, "\t\ta\n\t\tb\nc\n\td\n", "", 0, "", ""},
		{in, []string{"comm", "-1", "s1", "s2"}, "\ta\n\tb\nd\n", "", 0, "", ""},
		{in, []string{"comm", "-2", "s1", "s2"}, "\ta\n\tb\nc\n", "", 0, "", ""},
		{in, []string{"comm", "-3", "s1", "s2"}, "c\n\td\n", "", 0, "", ""},
		{in, []string{"comm", "-123", "--total", "s1", "s2"}, "1\t1\t2\ttotal\n", "", 0, "", ""},
		{in, []string{"comm", "e", "s2"}, "\ta\n\tb\n\td\n", "", 0, "", ""},
		{in, []string{"comm", "s1", "nosuch"}, "", "comm: nosuch: No such file or directory\n", 1, "", ""},
		{in, []string{"comm", "s1"}, "", "comm: missing operand after 's1'\nTry 'comm --help' for more information.\n", 1, "", ""},
		{in, []string{"comm"}, "", "comm: missing operand\nTry 'comm --help' for more information.\n", 1, "", ""},
		{in, []string{"comm", "s1", "s2", "u1"}, "", "comm: extra operand 'u1'\nTry 'comm --help' for more information.\n", 1, "", ""},
		{in, []string{"comm", "u1", "u1"}, "\t\ta\n\t\tc\n\t\tb\n", "", 0, "", ""},
		{z, []string{"comm", "-z", "z1", "z2"}, "a\x00\t\tb\x00\tc\x00", "", 0, "", ""},
	})
}

// A disorder read before the first unpairable line is still reported: GNU
// re-checks a file's last two lines when it ends (checked against GNU
// coreutils 9.1 comm).
func TestCommLateDisorder(t *testing.T) {
	t.Parallel()
	in := map[string]string{"ba": "b\na\n", "bc": "b\nc\n", "ab": "a\nb\n", "cb": "c\nb\n"}
	runTextFiles(t, []textFileCase{
		{in, []string{"comm", "ba", "bc"}, "\t\tb\na\n\tc\n", "comm: file 1 is not in sorted order\ncomm: input is not in sorted order\n", 1, "", ""},
		{in, []string{"comm", "ab", "cb"}, "a\nb\n\tc\n\tb\n", "comm: file 2 is not in sorted order\ncomm: input is not in sorted order\n", 1, "", ""},
		{in, []string{"comm", "--nocheck-order", "ba", "bc"}, "\t\tb\na\n\tc\n", "", 0, "", ""},
		{in, []string{"comm", "ba", "ba"}, "\t\tb\n\t\ta\n", "", 0, "", ""},
	})
}
