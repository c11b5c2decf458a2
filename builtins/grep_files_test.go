package builtins_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// grepRunTree runs the cases in a fresh directory holding files, which may
// sit in subdirectories (runCmd's writer creates no directories).
func grepRunTree(t *testing.T, files map[string]string, cases []grepCase) {
	t.Helper()
	for _, c := range cases {
		dir := t.TempDir()
		for name, content := range files {
			p := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		b, _ := Lookup(c.args[0])
		var out, errb bytes.Buffer
		env := &Env{Ctx: context.Background(), Args: c.args, Stdin: strings.NewReader(c.stdin),
			Stdout: &out, Stderr: &errb, FS: testFS(t, dir), Dir: dir}
		st := Run(b, env)
		if out.String() != c.stdout || errb.String() != c.stderr || st != c.status {
			t.Errorf("%q <<< %q:\n got  %q, %q, %d\n want %q, %q, %d", c.args, c.stdin, out.String(), errb.String(), st, c.stdout, c.stderr, c.status)
		}
	}
}

var grepFixture = map[string]string{
	"a.txt":            "foo\nbar\n",
	"b.c":              "x\nfoo\n",
	"d/one.txt":        "foo\n",
	"d/sub/two.c":      "nofoo here\nfoo\n",
	"d/skip/three.txt": "foo\n",
	"pats":             "foo\nb.r\n",
	"bin":              "p\x00\nfoo\n",
}

// Expected values checked against GNU grep 3.8 (LC_ALL=C), except the
// order of a recursive walk: GNU follows the directory's own order, llmsh
// sorts names.
func TestGrepFiles(t *testing.T) {
	t.Parallel()
	grepRunTree(t, grepFixture, []grepCase{
		{"", []string{"grep", "foo", "a.txt", "b.c"}, "a.txt:foo\nb.c:foo\n", "", 0},
		{"", []string{"grep", "-h", "foo", "a.txt", "b.c"}, "foo\nfoo\n", "", 0},
		{"", []string{"grep", "-c", "foo", "a.txt", "b.c", "bin"}, "a.txt:1\nb.c:1\nbin:1\n", "", 0},
		{"", []string{"grep", "-l", "foo", "a.txt", "b.c", "pats"}, "a.txt\nb.c\npats\n", "", 0},
		{"", []string{"grep", "-L", "bar", "a.txt", "b.c", "pats"}, "b.c\npats\n", "", 0},
		{"", []string{"grep", "-n", "foo", "a.txt", "missing", "b.c"}, "a.txt:1:foo\nb.c:2:foo\n", "grep: missing: No such file or directory\n", 2},
		{"", []string{"grep", "-f", "pats", "a.txt"}, "foo\nbar\n", "", 0},
		{"", []string{"grep", "-F", "-f", "pats", "a.txt"}, "foo\n", "", 0},
		{"x\n", []string{"grep", "-f", "pats", "-e", "x", "a.txt", "-"}, "a.txt:foo\na.txt:bar\n(standard input):x\n", "", 0},
		{"", []string{"grep", "foo", "d"}, "", "grep: d: Is a directory\n", 2},
		{"", []string{"grep", "-s", "foo", "d"}, "", "", 2},
		// GNU reads the directory as a file of no lines after the error
		{"", []string{"grep", "-c", "foo", "d", "a.txt"}, "d:0\na.txt:1\n", "grep: d: Is a directory\n", 2},
		{"", []string{"grep", "-L", "foo", "d", "a.txt"}, "d\n", "grep: d: Is a directory\n", 2},
		{"", []string{"grep", "-d", "skip", "foo", "d", "a.txt"}, "a.txt:foo\n", "", 0},
		{"", []string{"grep", "-r", "foo", "d"}, "d/one.txt:foo\nd/skip/three.txt:foo\nd/sub/two.c:nofoo here\nd/sub/two.c:foo\n", "", 0},
		{"", []string{"grep", "-r", "foo", "d/"}, "d/one.txt:foo\nd/skip/three.txt:foo\nd/sub/two.c:nofoo here\nd/sub/two.c:foo\n", "", 0},
		{"", []string{"grep", "-r", "-h", "foo", "d"}, "foo\nfoo\nnofoo here\nfoo\n", "", 0},
		{"", []string{"grep", "-rl", "foo", "d"}, "d/one.txt\nd/skip/three.txt\nd/sub/two.c\n", "", 0},
		{"", []string{"grep", "-r", "--include=*.c", "foo", "d"}, "d/sub/two.c:nofoo here\nd/sub/two.c:foo\n", "", 0},
		{"", []string{"grep", "-r", "--exclude=*.c", "foo", "d"}, "d/one.txt:foo\nd/skip/three.txt:foo\n", "", 0},
		{"", []string{"grep", "-r", "--exclude-dir=skip", "foo", "d"}, "d/one.txt:foo\nd/sub/two.c:nofoo here\nd/sub/two.c:foo\n", "", 0},
		// GNU strips the glob's trailing slashes
		{"", []string{"grep", "-r", "--exclude-dir=skip//", "foo", "d"}, "d/one.txt:foo\nd/sub/two.c:nofoo here\nd/sub/two.c:foo\n", "", 0},
		{"", []string{"grep", "-r", "foo", "a.txt"}, "foo\n", "", 0},
		{"", []string{"grep", "-r", "foo", "d/sub", "a.txt"}, "d/sub/two.c:nofoo here\nd/sub/two.c:foo\na.txt:foo\n", "", 0},
		{"", []string{"grep", "--exclude=*.txt", "foo", "a.txt", "b.c"}, "b.c:foo\n", "", 0},
		{"", []string{"grep", "--include=*.txt", "foo", "a.txt", "b.c"}, "a.txt:foo\n", "", 0},
		{"", []string{"grep", "foo", "bin"}, "", "grep: bin: binary file matches\n", 0},
		{"", []string{"grep", "-c", "p", "bin", "a.txt"}, "bin:1\na.txt:0\n", "", 0},
		{"", []string{"grep", "-A1", "foo", "a.txt", "b.c"}, "a.txt:foo\na.txt-bar\n--\nb.c:foo\n", "", 0},
		{"", []string{"grep", "-rc", "foo", "d/sub"}, "d/sub/two.c:2\n", "", 0},
		{"x\n", []string{"grep", "-f", "nonexistent", "x"}, "", "grep: nonexistent: No such file or directory\n", 2},
		{"x\n", []string{"grep", "x", "nonexistent"}, "", "grep: nonexistent: No such file or directory\n", 2},
		{"x\n", []string{"grep", "-s", "x", "nonexistent"}, "", "", 2},
		{"x\n", []string{"grep", "-q", "x", "nonexistent"}, "", "grep: nonexistent: No such file or directory\n", 2},
		{"x\n", []string{"grep", "-q", "x", "-", "nonexistent"}, "", "", 0},
		{"x\n", []string{"grep", "-sq", "y", "nonexistent"}, "", "", 2},
	})
}

// -T: numbers padded to the digits of the file's size (plus one with -n),
// of the largest int64 for a pipe, and a tab before non-empty lines that
// have a prefix. Checked against GNU grep 3.8.
func TestGrepInitialTab(t *testing.T) {
	t.Parallel()
	a := "one two three\nfour five\nsix\n\nseven eight nine ten\none two three\nlast line here\n"
	grepRunCases(t, map[string]string{"a": a}, []grepCase{
		{"", []string{"grep", "-T", "one", "a"}, "one two three\none two three\n", "", 0},
		{"", []string{"grep", "-nT", "one", "a"}, " 1:\tone two three\n 6:\tone two three\n", "", 0},
		{"", []string{"grep", "-bT", "one", "a"}, " 0:\tone two three\n50:\tone two three\n", "", 0},
		{"", []string{"grep", "-HnbT", "one", "a"}, "a: 1: 0:\tone two three\na: 6:50:\tone two three\n", "", 0},
		{"", []string{"grep", "-nT", "-C1", "six", "a"}, " 2-\tfour five\n 3:\tsix\n 4-\n", "", 0},
		{"", []string{"grep", "-onbT", "on", "a"}, " 1: 0:\ton\n 6:50:\ton\n", "", 0},
		{"", []string{"grep", "-ZHT", "one", "a"}, "a\x00\tone two three\na\x00\tone two three\n", "", 0},
		{a, []string{"grep", "-nT", "one"}, "                  1:\tone two three\n                  6:\tone two three\n", "", 0},
	})
}

// grep -r reads files ahead of the search (grep_prefetch.go); the output
// keeps the walk's order, a message about the walk (here a dangling link
// under -R) comes after the output of the files before it, and -q stops
// with the files still being read.
func TestGrepReadAheadOrder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var want strings.Builder
	for i := range 40 {
		name := fmt.Sprintf("d/f%02d", i)
		if err := os.MkdirAll(filepath.Join(dir, "d"), 0o755); err != nil {
			t.Fatal(err)
		}
		content := fmt.Sprintf("foo %d\n", i) + strings.Repeat(strings.Repeat("x", 99)+"\n", i*100) // up to 390 KB: some files are read on
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&want, "%s:foo %d\n", name, i)
		if i == 20 {
			if err := os.Symlink("missing", filepath.Join(dir, "d/f20x")); err != nil {
				t.Fatal(err)
			}
			want.WriteString("grep: d/f20x: No such file or directory\n")
		}
	}
	for _, tc := range []struct {
		args   []string
		out    string
		status int
	}{
		{[]string{"grep", "-R", "foo", "d"}, want.String(), 2},
		{[]string{"grep", "-rq", "foo", "d"}, "", 0},
		{[]string{"grep", "-rc", "x", "d"}, "", 0},
	} {
		b, _ := Lookup("grep")
		var out bytes.Buffer
		env := &Env{Ctx: context.Background(), Args: tc.args, Stdin: strings.NewReader(""),
			Stdout: &out, Stderr: &out, FS: testFS(t, dir), Dir: dir}
		st := Run(b, env)
		if tc.args[1] == "-rc" {
			var w strings.Builder
			for i := range 40 {
				fmt.Fprintf(&w, "d/f%02d:%d\n", i, i*100)
			}
			tc.out = w.String()
		}
		if out.String() != tc.out || st != tc.status {
			t.Errorf("%q:\n got  %q, %d\n want %q, %d", tc.args, out.String(), st, tc.out, tc.status)
		}
	}
}
