package builtins_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// TestScratchDirectories: outside the grants (without --strict) the tree
// tools work on virtual directories as on real ones, with GNU's messages:
// mkdir (-p), touch, mktemp (-d), ls, find, cp -r, mv, rm -r and rmdir.
// Nothing reaches the disk. Each step runs in the same session, in order.
func TestScratchDirectories(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("F\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys := clientFS{vfstest.Session(t, vfsd.Config{Outputs: []string{dir}, Dir: dir})}
	// A scratch root that is no ancestor of dir (which lies in /tmp).
	const s = "/scratch"
	steps := []struct {
		args           []string
		stdout, stderr string
		status         int
	}{
		{[]string{"mkdir", s + "/a"}, "", "mkdir: cannot create directory '/scratch/a': No such file or directory\n", 1},
		{[]string{"mkdir", "-pv", s + "/a/b"}, "mkdir: created directory '/scratch'\nmkdir: created directory '/scratch/a'\nmkdir: created directory '/scratch/a/b'\n", "", 0},
		{[]string{"mkdir", s + "/a"}, "", "mkdir: cannot create directory '/scratch/a': File exists\n", 1},
		{[]string{"mkdir", "-p", s + "/a"}, "", "", 0},
		{[]string{"touch", s + "/a/t"}, "", "", 0},
		{[]string{"mkdir", s + "/a/t/x"}, "", "mkdir: cannot create directory '/scratch/a/t/x': Not a directory\n", 1},
		{[]string{"cp", "f", s + "/a/b/"}, "", "", 0},
		{[]string{"ls", "-R", s}, "/scratch:\na\n\n/scratch/a:\nb\nt\n\n/scratch/a/b:\nf\n", "", 0},
		{[]string{"find", s, "-type", "d"}, "/scratch\n/scratch/a\n/scratch/a/b\n", "", 0},
		{[]string{"rmdir", s + "/a"}, "", "rmdir: failed to remove '/scratch/a': Directory not empty\n", 1},
		{[]string{"cp", "-r", s + "/a", s + "/copy"}, "", "", 0},
		{[]string{"mv", s + "/copy", s + "/moved"}, "", "", 0},
		{[]string{"cat", s + "/moved/b/f"}, "F\n", "", 0},
		{[]string{"ls", s}, "a\nmoved\n", "", 0},
		{[]string{"cp", "-r", s + "/moved", "back"}, "", "", 0}, // into the grant: real
		{[]string{"mv", s + "/moved", "moved"}, "", "", 0},      // across: copied, then removed
		{[]string{"rm", "-r", s + "/a"}, "", "", 0},
		{[]string{"ls", "-A", s}, "", "", 0},
		{[]string{"rmdir", s}, "", "", 0},
		{[]string{"ls", s}, "", "ls: cannot access '/scratch': No such file or directory\n", 2},
		{[]string{"rmdir", s}, "", "rmdir: failed to remove '/scratch': No such file or directory\n", 1},
		{[]string{"rm", "-r", "/etc"}, "", "rm: cannot remove '/etc': No such file or directory\n", 1},
	}
	for _, st := range steps {
		r := runCmdFS(t, fsys, dir, st.args...)
		if r.stdout != st.stdout || r.stderr != st.stderr || r.status != st.status {
			t.Errorf("%q: got %q %q %d, want %q %q %d", st.args, r.stdout, r.stderr, r.status, st.stdout, st.stderr, st.status)
		}
	}
	for _, p := range []string{"back/b/f", "moved/b/f", "moved/t"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("copied into the grant: %v", err)
		}
	}

	// mktemp -d: a virtual directory under /tmp (which stands), that
	// takes files.
	r := runCmdFS(t, fsys, dir, "mktemp", "-d", "--tmpdir=/scratch2")
	if r.status != 1 || !strings.Contains(r.stderr, "No such file or directory") {
		t.Errorf("mktemp -d in a missing directory: %+v", r)
	}
	bare := clientFS{vfstest.Session(t, vfsd.Config{Dir: "/"})}
	r = runCmdFS(t, bare, "/", "mktemp", "-d")
	name := strings.TrimSuffix(r.stdout, "\n")
	if r.status != 0 || !strings.HasPrefix(name, "/tmp/tmp.") {
		t.Fatalf("mktemp -d: %+v", r)
	}
	if r := runCmdFS(t, bare, "/", "stat", "-c", "%F %a", name); r.stdout != "directory 700\n" {
		t.Errorf("stat of the mktemp -d directory: %+v", r)
	}
	if r := runCmdFS(t, bare, "/", "mktemp", "-p", name); !strings.HasPrefix(r.stdout, name+"/tmp.") {
		t.Errorf("mktemp -p in it: %+v", r)
	}
}
