package builtins_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

var sedFixture = map[string]string{
	"f1":         "a\nb\n",
	"f2":         "c\nd\n",
	"r.txt":      "R1\nR2\n",
	"script.sed": "s/a/A/\n$a\\\nEND\n",
	"bad.sed":    "p\nk\n",
}

// Expected values checked against GNU sed 4.9 (LC_ALL=C).
func TestSedFiles(t *testing.T) {
	t.Parallel()
	grepRunTree(t, sedFixture, []grepCase{
		{"", []string{"sed", "-n", "$=", "f1", "f2"}, "4\n", "", 0},
		{"", []string{"sed", "-s", "-n", "$=", "f1", "f2"}, "2\n2\n", "", 0},
		{"", []string{"sed", "1d", "f1", "missing", "f2"}, "b\nc\nd\n", "sed: can't read missing: No such file or directory\n", 2},
		{"", []string{"sed", "q5", "missing", "f1"}, "a\n", "sed: can't read missing: No such file or directory\n", 2},
		{"", []string{"sed", "q5", "f1", "missing"}, "a\n", "", 5},
		{"", []string{"sed", "-f", "script.sed", "f1"}, "A\nb\nEND\n", "", 0},
		{"", []string{"sed", "-f", "bad.sed", "f1"}, "", "sed: file bad.sed line 2: unknown command: `k'\n", 1},
		{"", []string{"sed", "-f", "nosuch.sed", "f1"}, "", "sed: couldn't open file nosuch.sed: No such file or directory\n", 4},
		{"", []string{"sed", "1r r.txt", "f1"}, "a\nR1\nR2\nb\n", "", 0},
		{"", []string{"sed", "R r.txt", "f1", "f2"}, "a\nR1\nb\nR2\nc\nd\n", "", 0},
		{"", []string{"sed", "r nosuch", "f1"}, "a\nb\n", "", 0},
		{"", []string{"sed", "F", "f1"}, "f1\na\nf1\nb\n", "", 0},
		{"x\n", []string{"sed", "F", "-"}, "-\nx\n", "", 0},
	})
}

// TestSedWrites checks w files and -i (with and without a backup suffix)
// by reading the files back; checked against GNU sed 4.9.
func TestSedWrites(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args  []string
		files map[string]string // expected contents afterwards
	}{
		{[]string{"sed", "-n", "w out.txt", "f1"}, map[string]string{"out.txt": "a\nb\n", "f1": "a\nb\n"}},
		{[]string{"sed", "s/b/B/w out.txt", "f1"}, map[string]string{"out.txt": "B\n"}},
		{[]string{"sed", "-i.bak", "s/a/X/", "f1"}, map[string]string{"f1": "X\nb\n", "f1.bak": "a\nb\n"}},
		{[]string{"sed", "-i", "-e", "1d", "f1", "f2"}, map[string]string{"f1": "b\n", "f2": "d\n"}},
		{[]string{"sed", "-ibak_*", "s/b/B/", "f1"}, map[string]string{"f1": "a\nB\n", "bak_f1": "a\nb\n"}},
		{[]string{"sed", "-n", "-i", "$p", "f1", "f2"}, map[string]string{"f1": "b\n", "f2": "d\n"}},
	} {
		dir := t.TempDir()
		for name, content := range sedFixture {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		b, _ := Lookup("sed")
		var out, errb bytes.Buffer
		env := &Env{Ctx: context.Background(), Args: c.args, Stdin: strings.NewReader(""),
			Stdout: &out, Stderr: &errb, FS: testFS(t, dir), Dir: dir}
		if st := Run(b, env); st != 0 || errb.Len() > 0 {
			t.Errorf("%q: status %d, stderr %q", c.args, st, errb.String())
		}
		for name, want := range c.files {
			got, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil || string(got) != want {
				t.Errorf("%q: %s = %q, %v; want %q", c.args, name, got, err, want)
			}
		}
	}
}

// sed -i on what is no regular file (a directory, /dev/null) is GNU sed
// 4.9's panic: status 4, and the files after it are left alone.
func TestSedInPlaceNotRegular(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f1"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, _ := Lookup("sed")
	var out, errb bytes.Buffer
	env := &Env{Ctx: context.Background(), Args: []string{"sed", "-i", "s/a/X/", "d", "f1"}, Stdin: strings.NewReader(""),
		Stdout: &out, Stderr: &errb, FS: testFS(t, dir), Dir: dir}
	if st := Run(b, env); st != 4 || errb.String() != "sed: couldn't edit d: not a regular file\n" {
		t.Errorf("status %d, stderr %q", st, errb.String())
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "f1")); string(got) != "a\n" {
		t.Errorf("f1 = %q, want it untouched", got)
	}
}
