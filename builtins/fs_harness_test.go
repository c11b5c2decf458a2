package builtins_test

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/builtins"
	"github.com/llmsh/llmsh/vfsclient"
	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// clientFS serves a test directory through a real vfsd session, as the
// shell does (shell/fs.go): builtin tests exercise the protocol, the
// policy and the client's error mapping. Only dir is granted (-o);
// everything else is outside the allowlists.
type clientFS struct{ c *vfsclient.Client }

func init() {
	testFS = func(t *testing.T, dir string) FS {
		return clientFS{vfstest.Session(t, vfsd.Config{Outputs: []string{dir}, Dir: dir, Strict: true})}
	}
}

func (f clientFS) OpenFile(name string, flag int) (File, error) {
	file, err := f.c.OpenFile(name, flag)
	if err != nil {
		return nil, err
	}
	return file, nil
}

func (f clientFS) Stat(name string) (fs.FileInfo, error)      { return f.c.Stat(name) }
func (f clientFS) ReadDir(name string) ([]fs.DirEntry, error) { return f.c.ReadDir(name) }
func (f clientFS) ReadHead(name string, p []byte) (int, bool, bool, error) {
	return f.c.ReadFile(name, p)
}
func (f clientFS) ReadTail(name string, p []byte) (int, int64, fs.FileInfo, bool, error) {
	return f.c.ReadTail(name, p)
}
func (f clientFS) ReadHeads(names []string, max int) ([]Head, bool) {
	heads, ok, err := f.c.ReadFiles(names, max)
	if !ok || err != nil {
		return nil, false
	}
	out := make([]Head, len(heads))
	for i, h := range heads {
		out[i] = Head{h.Data, h.Whole, h.Err}
	}
	return out, true
}
func (f clientFS) ReadDirTypes(name string, described *atomic.Bool) ([]fs.DirEntry, error) {
	return f.c.ReadDirTypes(name, described)
}
func (f clientFS) Lstat(name string) (fs.FileInfo, error)    { return f.c.Lstat(name) }
func (f clientFS) Readlink(name string) (string, error)      { return f.c.Readlink(name) }
func (f clientFS) Mkdir(name string, perm fs.FileMode) error { return f.c.Mkdir(name, perm) }
func (f clientFS) Remove(name string) error                  { return f.c.Remove(name) }
func (f clientFS) Rename(oldname, newname string) error      { return f.c.Rename(oldname, newname) }
func (f clientFS) Chtimes(name string, atime, mtime time.Time) error {
	return f.c.Chtimes(name, atime, mtime)
}
func (f clientFS) Chmod(name string, perm fs.FileMode) error { return f.c.Chmod(name, perm) }

// mkdirAllTest creates dir and its missing parents through fsys.
func mkdirAllTest(t *testing.T, fsys FS, dir string) {
	t.Helper()
	if fi, err := fsys.Stat(dir); err == nil && fi.IsDir() {
		return
	}
	mkdirAllTest(t, fsys, path.Dir(dir))
	if err := fsys.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestGrepRecursiveRequests: grep -r asks vfsd for the small files of
// the walk grepBatch at a time, in one read_files each (an open, a read
// and a close of each file), and nothing else (no stat: the listing of
// names and types already says the entry is a regular file).
func TestGrepRecursiveRequests(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const files = 20
	for i := range files {
		sub := []string{"", "d/"}[i%2]
		if err := os.MkdirAll(filepath.Join(dir, "d"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, sub+"f"+strconv.Itoa(i)), []byte("x\nneedle\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := vfstest.Session(t, vfsd.Config{Inputs: []string{dir}, Dir: dir})
	before, _ := c.Stats()
	r := runCmdFS(t, clientFS{c}, dir, "grep", "-rc", "needle", ".")
	after, err := c.Stats()
	if err != nil || r.status != 0 || strings.Count(r.stdout, ":1\n") != files {
		t.Fatalf("grep -rc: %+v %v", r, err)
	}
	const lists, operand = 2, 1 // . and d listed; "." stat'ed as an operand
	reads := after.Requests - before.Requests - 1 - lists - operand
	if want := (files + grepBatch - 1) / grepBatch; after.Opens-before.Opens != files || reads != int64(want) {
		t.Fatalf("%d opens for %d files; %d requests besides stats and lists, want %d read_files",
			after.Opens-before.Opens, files, reads, want)
	}
}

// TestTailRequests: tail of a regular file whose lines are in its last
// block asks vfsd once (read_tail: an open, a stat, a read at the end
// and a close); lines that reach further back, or -n +N of a file
// larger than the block, open the file and read it as before.
func TestTailRequests(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var big strings.Builder
	for i := range 30000 {
		big.WriteString(strconv.Itoa(i) + "\n")
	}
	for name, data := range map[string]string{"big": big.String(), "small": "a\nb\nc"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := vfstest.Session(t, vfsd.Config{Inputs: []string{dir}, Dir: dir})
	for _, tc := range []struct {
		args     []string
		requests int64
		out      string
	}{
		{[]string{"tail", "-n", "3", "big"}, 1, "29997\n29998\n29999\n"},
		{[]string{"tail", "-c", "6", "big"}, 1, "29999\n"},
		{[]string{"tail", "-n", "+2", "small"}, 1, "b\nc"},
		{[]string{"tail", "-c", "+2", "small"}, 1, "\nb\nc"},
		{[]string{"tail", "-n", "20000", "big"}, 0, ""}, // more than the block: opened
		{[]string{"tail", "-n", "+29999", "big"}, 0, "29998\n29999\n"},
	} {
		before, _ := c.Stats()
		r := runCmdFS(t, clientFS{c}, dir, tc.args...)
		after, err := c.Stats()
		if err != nil || r.status != 0 || r.stderr != "" || tc.out != "" && r.stdout != tc.out {
			t.Fatalf("%v: %+v %v", tc.args, r, err)
		}
		n := after.Requests - before.Requests - 1 // the second stats
		if tc.requests > 0 && n != tc.requests || tc.requests == 0 && n < 2 {
			t.Errorf("%v: %d requests, want %d", tc.args, n, tc.requests)
		}
	}
}
