package builtins

import "testing"

// The device names of the standard streams are the builtin's own streams
// (Env.Open, Env.Create, Env.Append), never files in vfsd. Expected values
// checked against GNU coreutils 9.1 and diffutils 3.8 (LC_ALL=C, output to a pipe).
func TestStdStreamNames(t *testing.T) {
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
