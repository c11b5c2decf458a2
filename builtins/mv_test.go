package builtins_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// Expected values checked against GNU coreutils 9.1 mv (LC_ALL=C).
func TestMv(t *testing.T) {
	t.Parallel()
	tree := map[string]string{"f": "F", "g": "G", "d/s/b": "B", "k/f/": "", "e/": ""}
	const base = "d/ d/s/ d/s/b=B e/ f=F g=G k/ k/f/"
	runTree(t, []treeCase{
		{tree, []string{"mv", "-v", "f", "h"}, "renamed 'f' -> 'h'\n", "", 0, "d/ d/s/ d/s/b=B e/ g=G h=F k/ k/f/"},
		{tree, []string{"mv", "f", "g"}, "", "", 0, "d/ d/s/ d/s/b=B e/ g=F k/ k/f/"},
		{tree, []string{"mv", "-n", "f", "g"}, "", "", 0, base},
		{tree, []string{"mv", "-f", "f", "g", "e"}, "", "", 0, "d/ d/s/ d/s/b=B e/ e/f=F e/g=G k/ k/f/"},
		{tree, []string{"mv", "-vt", "e", "d"}, "renamed 'd' -> 'e/d'\n", "", 0, "e/ e/d/ e/d/s/ e/d/s/b=B f=F g=G k/ k/f/"},
		{tree, []string{"mv", "-T", "e", "k/f"}, "", "", 0, "d/ d/s/ d/s/b=B f=F g=G k/ k/f/"},
		{tree, []string{"mv", "f", "f"}, "", "mv: 'f' and 'f' are the same file\n", 1, base},
		{tree, []string{"mv", "-n", "f", "f"}, "", "", 0, base},
		{tree, []string{"mv", "d", "d/s"}, "", "mv: cannot move 'd' to a subdirectory of itself, 'd/s/d'\n", 1, base},
		{tree, []string{"mv", "nope", "x"}, "", "mv: cannot stat 'nope': No such file or directory\n", 1, base},
		{tree, []string{"mv", "f", "nodir/x"}, "", "mv: cannot move 'f' to 'nodir/x': No such file or directory\n", 1, base},
		{tree, []string{"mv", "f", "k"}, "", "mv: cannot overwrite directory 'k/f' with non-directory\n", 1, base},
		{tree, []string{"mv", "d", "f"}, "", "mv: cannot overwrite non-directory 'f' with directory 'd'\n", 1, base},
		{tree, []string{"mv", "-i", "f", "x"}, "", "", 0, "d/ d/s/ d/s/b=B e/ g=G k/ k/f/ x=F"},
		// No answer on stdin is "no".
		{tree, []string{"mv", "-i", "f", "g"}, "", "mv: overwrite 'g'? ", 0, base},
		{tree, []string{"mv", "f"}, "", "mv: missing destination file operand after 'f'\nTry 'mv --help' for more information.\n", 1, base},
		// Outside the granted tree, both ways, and the grant itself.
		{tree, []string{"mv", "@OUT@/secret", "s"}, "", "mv: cannot stat '@OUT@/secret': No such file or directory\n", 1, base},
		{tree, []string{"mv", "f", "@OUT@/f"}, "", "mv: cannot move 'f' to '@OUT@/f': Permission denied (outside the writable paths)\n", 1, base},
		{tree, []string{"mv", "f", "../f"}, "", "mv: cannot move 'f' to '../f': Permission denied (outside the writable paths)\n", 1, base},
		{tree, []string{"mv", "@DIR@", "@DIR@2"}, "", "mv: cannot move '@DIR@' to '@DIR@2': Permission denied\n", 1, base},
	})
}

// TestMvAcrossTrees moves between two granted trees: vfsd answers EXDEV
// and mv copies (keeping times) then removes the source.
func TestMvAcrossTrees(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	other := filepath.Join(dir, "other")
	old := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	for name, content := range map[string]string{"f": "F", "d/s/b": "B"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	fsys := clientFS{vfstest.Session(t, vfsd.Config{Outputs: []string{dir, other}, Dir: dir, Strict: true})}
	run := func(args ...string) result { return runCmdFS(t, fsys, dir, args...) }
	if r := run("mv", "-v", "f", "other/g"); r.status != 0 || r.stderr != "" ||
		r.stdout != "copied 'f' -> 'other/g'\nremoved 'f'\n" {
		t.Errorf("mv f: %+v", r)
	}
	if r := run("mv", "d", "other"); r.status != 0 || r.stderr != "" {
		t.Errorf("mv d: %+v", r)
	}
	if got := listTree(t, dir); got != "other/ other/d/ other/d/s/ other/d/s/b=B other/g=F" {
		t.Errorf("tree %q", got)
	}
	for _, p := range []string{"other/g", "other/d/s/b"} {
		if fi, err := os.Stat(filepath.Join(dir, p)); err != nil || !fi.ModTime().Equal(old) {
			t.Errorf("%s: time not kept: %v %v", p, fi, err)
		}
	}
	// The granted tree itself cannot be moved away.
	if r := run("mv", "other", "moved"); r.status != 1 || r.stderr != "mv: cannot move 'other' to 'moved': Permission denied\n" {
		t.Errorf("mv other: %+v", r)
	}
}

// TestMvLinkAcrossTrees: GNU mv copies a link between file systems as a
// link; vfsd makes none, so mv says so in cp's words and removes nothing
// (a link within one tree is renamed as usual).
func TestMvLinkAcrossTrees(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	other := filepath.Join(dir, "other")
	for _, d := range []string{other, filepath.Join(dir, "d")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("F"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, to := range map[string]string{"l": "f", "d/l2": "../f", "l3": "f"} {
		if err := os.Symlink(to, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	fsys := clientFS{vfstest.Session(t, vfsd.Config{Outputs: []string{dir, other}, Dir: dir, Strict: true})}
	run := func(args ...string) result { return runCmdFS(t, fsys, dir, args...) }
	if r := run("mv", "l", "other/"); r.status != 1 || r.stderr != "mv: cannot create symbolic link 'other/l': Operation not supported\n" {
		t.Errorf("mv l: %+v", r)
	}
	if r := run("mv", "d", "other"); r.status != 1 || r.stderr != "mv: cannot create symbolic link 'other/d/l2': Operation not supported\n" {
		t.Errorf("mv d: %+v", r)
	}
	if r := run("mv", "l3", "l4"); r.status != 0 || r.stderr != "" {
		t.Errorf("mv l3 l4: %+v", r)
	}
	for _, name := range []string{"l", "d/l2", "l4"} {
		if fi, err := os.Lstat(filepath.Join(dir, name)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link: %v %v", name, fi, err)
		}
	}
	if _, err := os.Lstat(filepath.Join(other, "l")); err == nil {
		t.Error("other/l was made")
	}
}

// TestMvVirtual: without --strict, a write outside the grants makes a
// virtual file; mv renames it among virtual names, and moves it into the
// granted tree by copying.
func TestMvVirtual(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fsys := clientFS{vfstest.Session(t, vfsd.Config{Outputs: []string{dir}, Dir: dir})}
	vf, err := fsys.OpenFile("/tmp/a", os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := vf.Write([]byte("virtual\n")); err != nil {
		t.Fatal(err)
	}
	if err := vf.Close(); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) result { return runCmdFS(t, fsys, dir, args...) }
	if r := run("mv", "-v", "/tmp/a", "/tmp/b"); r.status != 0 || r.stdout != "renamed '/tmp/a' -> '/tmp/b'\n" {
		t.Errorf("mv virtual: %+v", r)
	}
	if r := run("mv", "/tmp/b", "real"); r.status != 0 || r.stderr != "" {
		t.Errorf("mv into the tree: %+v", r)
	}
	if got := listTree(t, dir); got != "real=virtual\n" {
		t.Errorf("tree %q", got)
	}
	if _, err := fsys.Stat("/tmp/b"); err == nil {
		t.Error("the virtual source is still there")
	}
}
