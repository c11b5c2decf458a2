package builtins_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// lateFailFS is an FS whose files opened for writing accept every Write
// and fail on Close with ENOSPC, as a vfsd file does when the answer to a
// write comes only after the Write call has returned.
type lateFailFS struct{ FS }

func (f lateFailFS) OpenFile(name string, flag int) (File, error) {
	file, err := f.FS.OpenFile(name, flag)
	if err != nil || flag&(os.O_WRONLY|os.O_RDWR) == 0 {
		return file, err
	}
	return lateFailFile{file}, nil
}

type lateFailFile struct{ File }

func (f lateFailFile) Close() error {
	f.File.Close()
	return &fs.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC}
}

// runLateFail runs args with the files of a fresh directory behind
// lateFailFS.
func runLateFail(t *testing.T, files map[string]string, stdin string, args ...string) result {
	t.Helper()
	b, ok := Lookup(args[0])
	if !ok {
		t.Fatalf("no builtin %q", args[0])
	}
	dir := t.TempDir()
	fsys := testFS(t, dir)
	writeHostFiles(t, dir, files)
	var out, errb bytes.Buffer
	env := &Env{Ctx: context.Background(), Args: args, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, FS: lateFailFS{fsys}, Dir: dir}
	st := Run(b, env)
	return result{out.String(), errb.String(), st}
}

// A write that fails only when the file is closed is still a failure:
// reported in GNU's words, with GNU's status.
func TestLateWriteErrors(t *testing.T) {
	t.Parallel()
	in := map[string]string{"in": "b\na\n"}
	tests := []struct {
		args   []string
		stdin  string
		stderr string
		status int
	}{
		{[]string{"tee", "out"}, "x\n", "tee: out: No space left on device\n", 1},
		{[]string{"tee", "-a", "out", "out2"}, "x\n", "tee: out: No space left on device\ntee: out2: No space left on device\n", 1},
		{[]string{"sed", "w out", "in"}, "", "sed: couldn't flush out: No space left on device\n", 4},
		{[]string{"sed", "-n", "-i", "p", "in"}, "", "sed: couldn't open file in: No space left on device\n", 4},
		{[]string{"sort", "-o", "out", "in"}, "", "", -1},
		{[]string{"uniq", "in", "out"}, "", "", -1},
		{[]string{"cp", "in", "out"}, "", "", -1},
		{[]string{"split", "-l1", "in"}, "", "", -1},
		{[]string{"shuf", "-o", "out", "in"}, "", "", -1},
		{[]string{"awk", `{ print > "out" }`, "in"}, "", "", -1},
		{[]string{"gzip", "in"}, "", "", -1},
		{[]string{"xxd", "in", "out"}, "", "", -1},
		{[]string{"tar", "cf", "out.tar", "in"}, "", "", -1},
	}
	for _, tt := range tests {
		r := runLateFail(t, in, tt.stdin, tt.args...)
		if tt.status < 0 {
			// Wording is the command's own: it must say something,
			// naming the error, and fail.
			if r.status == 0 || !strings.Contains(r.stderr, "No space left on device") {
				t.Errorf("%q: status %d, stderr %q: a failed write went unreported", tt.args, r.status, r.stderr)
			}
			continue
		}
		if r.stderr != tt.stderr || r.status != tt.status {
			t.Errorf("%q: got stderr %q status %d, want %q %d", tt.args, r.stderr, r.status, tt.stderr, tt.status)
		}
	}
}
