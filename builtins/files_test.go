package builtins_test

import "testing"

// The device names of the standard streams are the builtin's own streams
// (Env.Open, Env.Create, Env.Append), never files in vfsd. Expected values
// checked against GNU coreutils 9.1 and diffutils 3.8 (LC_ALL=C, output to a pipe).
func TestStdStreamNames(t *testing.T) {
	t.Parallel()
	files := map[string]string{"s1": "a\nc\ne\n"}
	grepRunCases(t, files, []grepCase{
		{"hi\n", []string{"cat", "/dev/stdin"}, "hi\n", "", 0},
		{"hi\n", []string{"cat", "/dev/fd/0", "s1"}, "hi\na\nc\ne\n", "", 0},
		{"hi\n", []string{"grep", "h", "/dev/stdin"}, "hi\n", "", 0},
		{"hi\n", []string{"diff", "/dev/stdin", "s1"}, "1c1,3\n< hi\n---\n> a\n> c\n> e\n", "", 1},
		{"a\nc\ne\n", []string{"diff", "/dev/stdin", "s1"}, "", "", 0},
		{"", []string{"diff", "/dev/null", "s1"}, "0a1,3\n> a\n> c\n> e\n", "", 1},
		{"", []string{"diff", "s1", "/dev/null"}, "1,3d0\n< a\n< c\n< e\n", "", 1},
		{"x\n", []string{"tee", "/dev/stdout"}, "x\nx\n", "", 0},
		{"x\n", []string{"tee", "-a", "/dev/fd/1"}, "x\nx\n", "", 0},
		{"x\n", []string{"tee", "/dev/stderr"}, "x\n", "x\n", 0},
		{"b\na\n", []string{"sort", "-o", "/dev/stdout"}, "a\nb\n", "", 0},
	})
}

// A file that cannot be opened is named as the GNU tool names it: quoted
// when the shell would need it by the coreutils (quotef), as written by
// grep; "" is no such file (not the working directory). Checked against
// GNU coreutils 9.1 and grep 3.8.
func TestFileOperandNames(t *testing.T) {
	t.Parallel()
	grepRunCases(t, map[string]string{"s": "x\n"}, []grepCase{
		{"", []string{"cat", "a b"}, "", "cat: 'a b': No such file or directory\n", 1},
		{"", []string{"cat", "", "s"}, "x\n", "cat: '': No such file or directory\n", 1},
		{"", []string{"cut", "-c1", "a$b"}, "", "cut: 'a$b': No such file or directory\n", 1},
		{"", []string{"md5sum", "it's"}, "", "md5sum: \"it's\": No such file or directory\n", 1},
		{"", []string{"od", ""}, "", "od: '': No such file or directory\n", 1},
		{"", []string{"grep", "x", "a b"}, "", "grep: a b: No such file or directory\n", 2},
		{"", []string{"grep", "x", ""}, "", "grep: : No such file or directory\n", 2},
		{"", []string{"head", "-c1", ""}, "", "head: cannot open '' for reading: No such file or directory\n", 1},
		{"", []string{"sort", ""}, "", "sort: cannot read: '': No such file or directory\n", 2},
		{"x\n", []string{"tee", ""}, "x\n", "tee: '': No such file or directory\n", 1},
	})
}
