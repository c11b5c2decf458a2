package builtins

import (
	"strings"
	"testing"
)

// Expected output produced by tree 2.1.0 (LANG=C.UTF-8, and LANG=C for
// the ASCII lines); "@" stands for the no-break spaces of its vertical
// line.
func TestTree(t *testing.T) {
	files := map[string]string{"d/e/y": "", "d/x": "", ".hid/z": "", "B/q": "", "empty/": "", "a": "", "b.txt": "", ".h": ""}
	for _, tc := range []struct {
		args    []string
		environ []string
		out     string
		status  int
	}{
		{[]string{"tree"}, nil, ".\n├── B\n│@@ └── q\n├── a\n├── b.txt\n├── d\n│@@ ├── e\n│@@ │@@ └── y\n│@@ └── x\n└── empty\n\n5 directories, 5 files\n", 0},
		{[]string{"tree", "-a"}, nil, ".\n├── .h\n├── .hid\n│@@ └── z\n├── B\n│@@ └── q\n├── a\n├── b.txt\n├── d\n│@@ ├── e\n│@@ │@@ └── y\n│@@ └── x\n└── empty\n\n6 directories, 7 files\n", 0},
		{[]string{"tree", "-d"}, nil, ".\n├── B\n├── d\n│@@ └── e\n└── empty\n\n5 directories\n", 0},
		{[]string{"tree", "-L", "1"}, nil, ".\n├── B\n├── a\n├── b.txt\n├── d\n└── empty\n\n4 directories, 2 files\n", 0},
		{[]string{"tree", "-f", "d"}, nil, "d\n├── d/e\n│@@ └── d/e/y\n└── d/x\n\n2 directories, 2 files\n", 0},
		{[]string{"tree", "--noreport", "-I", "e|*.txt"}, nil, ".\n├── B\n│@@ └── q\n├── a\n├── d\n│@@ └── x\n└── empty\n", 0},
		{[]string{"tree", "-P", "*.txt"}, nil, ".\n├── B\n├── b.txt\n├── d\n│@@ └── e\n└── empty\n\n5 directories, 1 file\n", 0},
		{[]string{"tree", "d", "B"}, nil, "d\n├── e\n│@@ └── y\n└── x\nB\n└── q\n\n3 directories, 3 files\n", 0},
		{[]string{"tree", "empty"}, nil, "empty\n\n0 directories, 0 files\n", 0},
		{[]string{"tree", "-d", "B"}, nil, "B\n\n0 directories\n", 0},
		{[]string{"tree", "nosuch"}, nil, "nosuch  [error opening dir]\n\n0 directories, 0 files\n", 2},
		{[]string{"tree", "a"}, nil, "a  [error opening dir]\n\n0 directories, 1 file\n", 0},
		{[]string{"tree", "d"}, []string{"LANG=C"}, "d\n|-- e\n|   `-- y\n`-- x\n\n2 directories, 2 files\n", 0},
		{[]string{"tree", "-i"}, nil, ".\nB\nq\na\nb.txt\nd\ne\ny\nx\nempty\n\n5 directories, 5 files\n", 0},
		{[]string{"tree", "-F"}, nil, "./\n├── B/\n│@@ └── q\n├── a\n├── b.txt\n├── d/\n│@@ ├── e/\n│@@ │@@ └── y\n│@@ └── x\n└── empty/\n\n5 directories, 5 files\n", 0},
		{[]string{"tree", "--dirsfirst"}, nil, ".\n├── B\n│@@ └── q\n├── d\n│@@ ├── e\n│@@ │@@ └── y\n│@@ └── x\n├── empty\n├── a\n└── b.txt\n\n5 directories, 5 files\n", 0},
		{[]string{"tree", "-r"}, nil, ".\n├── empty\n├── d\n│@@ ├── x\n│@@ └── e\n│@@     └── y\n├── b.txt\n├── a\n└── B\n    └── q\n\n5 directories, 5 files\n", 0},
		{[]string{"tree", "-Q", "d"}, nil, "\"d\"\n├── \"e\"\n│@@ └── \"y\"\n└── \"x\"\n\n2 directories, 2 files\n", 0},
		{[]string{"tree", "-if", "."}, nil, ".\n./B\n./B/q\n./a\n./b.txt\n./d\n./d/e\n./d/e/y\n./d/x\n./empty\n\n5 directories, 5 files\n", 0},
		{[]string{"tree", "-f", "./d"}, nil, "./d\n├── ./d/e\n│@@ └── ./d/e/y\n└── ./d/x\n\n2 directories, 2 files\n", 0},
		{[]string{"tree", "-s", "a"}, nil, "[          0]  a  [error opening dir]\n\n0 directories, 1 file\n", 0},
		{[]string{"tree", "-h", "a"}, nil, "[   0]  a  [error opening dir]\n\n0 directories, 1 file\n", 0},
		{[]string{"tree", "-F", "-d"}, nil, ".\n├── B\n├── d\n│@@ └── e\n└── empty\n\n5 directories\n", 0},
		{[]string{"tree", "--dirsfirst", "-r", "-L", "1"}, nil, ".\n├── empty\n├── d\n├── B\n├── b.txt\n└── a\n\n4 directories, 2 files\n", 0},
	} {
		environ := tc.environ
		if environ == nil {
			environ = []string{"LANG=C.UTF-8"}
		}
		r := runCmdEnv(t, files, environ, tc.args...)
		got := strings.ReplaceAll(r.stdout, "\u00a0", "@")
		if got != tc.out || r.status != tc.status {
			t.Errorf("%v: got %q status %d, want %q status %d (stderr %q)", tc.args, got, r.status, tc.out, tc.status, r.stderr)
		}
	}
	runLines(t, []linesCase{
		{nil, []string{"tree", "-L", "0"}, "", "", "tree: Invalid level, must be greater than 0.\n", 1},
	})
}
