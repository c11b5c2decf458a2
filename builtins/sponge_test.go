package builtins_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// TestSponge: moreutils sponge reads all its input before it opens the
// file, so a pipeline may write back the file it read.
func TestSponge(t *testing.T) {
	t.Parallel()
	files := map[string]string{"f": "old\n"}
	for _, tc := range []struct {
		args           []string
		stdin          string
		stdout, stderr string
		status         int
	}{
		{[]string{"sponge"}, "a\nb", "a\nb", "", 0},
		{[]string{"sponge", "-h"}, "", "", "", 0},
		{[]string{"sponge", "-x"}, "", "", "sponge: invalid option -- 'x'\nTry 'sponge --help' for more information.\n", 1},
		{[]string{"sponge", "no/such"}, "z", "", "Can't open no/such: No such file or directory\n", 1},
	} {
		r := runCmd(t, files, tc.stdin, tc.args...)
		if tc.args[len(tc.args)-1] == "-h" {
			if r.status != 0 || r.stdout == "" {
				t.Errorf("sponge -h: %+v", r)
			}
			continue
		}
		if r.stdout != tc.stdout || r.stderr != tc.stderr || r.status != tc.status {
			t.Errorf("%q: got %q %q %d, want %q %q %d", tc.args, r.stdout, r.stderr, r.status, tc.stdout, tc.stderr, tc.status)
		}
	}
}

// lazyFileReader opens its file at the first Read: standard input that is
// the output file itself, as in `sed s/a/b/ f | sponge f`.
type lazyFileReader struct {
	fsys FS
	name string
	r    io.Reader
}

func (l *lazyFileReader) Read(p []byte) (int, error) {
	if l.r == nil {
		f, err := l.fsys.OpenFile(l.name, os.O_RDONLY)
		if err != nil {
			return 0, err
		}
		l.r = f
	}
	return l.r.Read(p)
}

// TestSpongeFile: the whole input is read before the file is truncated;
// -a appends.
func TestSpongeFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fsys := testFS(t, dir)
	writeTestFile(t, fsys, dir+"/f", "one\ntwo\n")
	b, _ := Lookup("sponge")
	read := func() string {
		f, err := fsys.OpenFile(dir+"/f", os.O_RDONLY)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		data, _ := io.ReadAll(f)
		return string(data)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sponge", "f"}, "one\ntwo\n"},
		{[]string{"sponge", "-a", "f"}, "one\ntwo\none\ntwo\n"},
	} {
		var out, errb bytes.Buffer
		env := &Env{Ctx: context.Background(), Args: tc.args, Stdin: &lazyFileReader{fsys: fsys, name: dir + "/f"},
			Stdout: &out, Stderr: &errb, FS: fsys, Dir: dir}
		if st := Run(b, env); st != 0 || errb.Len() > 0 {
			t.Fatalf("%q: status %d, %q", tc.args, st, errb.String())
		}
		if got := read(); got != tc.want {
			t.Errorf("%q: file %q, want %q", tc.args, got, tc.want)
		}
	}
}
