package builtins_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// TestTeeFiles writes through vfsd and reads the files back; behaviour
// checked against GNU tee 9.1 (truncate, -a appends, a failed open is
// reported and the other outputs still get the data).
func TestTeeFiles(t *testing.T) {
	t.Parallel()
	if testFS == nil {
		t.Fatal("file-based builtin tests need the vfsd test session (fs_harness_test.go)")
	}
	dir := t.TempDir()
	fsys := testFS(t, dir)
	writeTestFile(t, fsys, dir+"/a", "old\n")
	run := func(stdin string, args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		b, _ := Lookup(args[0])
		env := &Env{Ctx: context.Background(), Args: args, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, FS: fsys, Dir: dir}
		st := Run(b, env)
		return out.String(), errb.String(), st
	}
	read := func(name string) string {
		f, err := fsys.OpenFile(dir+"/"+name, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		b, err := io.ReadAll(f)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if out, stderr, st := run("data\n", "tee", "a", "b"); out != "data\n" || stderr != "" || st != 0 {
		t.Errorf("tee a b: %q %q %d", out, stderr, st)
	}
	if a, b := read("a"), read("b"); a != "data\n" || b != "data\n" {
		t.Errorf("after tee a b: a=%q b=%q", a, b)
	}
	if out, stderr, st := run("more\n", "tee", "-a", "a", "nodir/x"); out != "more\n" || stderr != "tee: nodir/x: No such file or directory\n" || st != 1 {
		t.Errorf("tee -a a nodir/x: %q %q %d", out, stderr, st)
	}
	if a := read("a"); a != "data\nmore\n" {
		t.Errorf("after tee -a: a=%q", a)
	}
}
