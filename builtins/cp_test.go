package builtins_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Expected values checked against GNU coreutils 9.1 cp (LC_ALL=C); -v
// lists a directory's entries sorted by name where GNU follows the order
// of readdir.
func TestCp(t *testing.T) {
	t.Parallel()
	tree := map[string]string{"f": "F", "g": "G", "d/a": "A", "d/s/b": "B", "e/": ""}
	const base = "d/ d/a=A d/s/ d/s/b=B e/ f=F g=G"
	runTree(t, []treeCase{
		{tree, []string{"cp", "f", "new"}, "", "", 0, base + " new=F"},
		{tree, []string{"cp", "-v", "f", "g"}, "'f' -> 'g'\n", "", 0, "d/ d/a=A d/s/ d/s/b=B e/ f=F g=F"},
		{tree, []string{"cp", "-n", "f", "g"}, "", "", 0, base},
		{tree, []string{"cp", "f", "g", "e"}, "", "", 0, "d/ d/a=A d/s/ d/s/b=B e/ e/f=F e/g=G f=F g=G"},
		{tree, []string{"cp", "-vt", "e/", "f"}, "'f' -> 'e/f'\n", "", 0, "d/ d/a=A d/s/ d/s/b=B e/ e/f=F f=F g=G"},
		{tree, []string{"cp", "d", "x"}, "", "cp: -r not specified; omitting directory 'd'\n", 1, base},
		{tree, []string{"cp", "-rv", "d", "x"}, "'d' -> 'x'\n'd/a' -> 'x/a'\n'd/s' -> 'x/s'\n'd/s/b' -> 'x/s/b'\n", "", 0, base + " x/ x/a=A x/s/ x/s/b=B"},
		{tree, []string{"cp", "-R", "d", "e"}, "", "", 0, "d/ d/a=A d/s/ d/s/b=B e/ e/d/ e/d/a=A e/d/s/ e/d/s/b=B f=F g=G"},
		{tree, []string{"cp", "-r", "d/", "z/"}, "", "", 0, base + " z/ z/a=A z/s/ z/s/b=B"},
		{tree, []string{"cp", "f", "f"}, "", "cp: 'f' and 'f' are the same file\n", 1, base},
		{tree, []string{"cp", "-n", "f", "./f"}, "", "", 0, base},
		// GNU copies until it meets the directory it made (d/s/d), then
		// stops: what is copied before follows readdir's order (names here).
		{tree, []string{"cp", "-r", "d", "d/s"}, "", "cp: cannot copy a directory, 'd', into itself, 'd/s/d'\n", 1,
			"d/ d/a=A d/s/ d/s/b=B d/s/d/ d/s/d/a=A d/s/d/s/ d/s/d/s/b=B e/ f=F g=G"},
		{tree, []string{"cp", "f", "g", "h"}, "", "cp: target 'h': No such file or directory\n", 1, base},
		{tree, []string{"cp", "f", "g", "g"}, "", "cp: target 'g': Not a directory\n", 1, base},
		{tree, []string{"cp", "nope", "x"}, "", "cp: cannot stat 'nope': No such file or directory\n", 1, base},
		{tree, []string{"cp", "f", "nodir/x"}, "", "cp: cannot create regular file 'nodir/x': No such file or directory\n", 1, base},
		{tree, []string{"cp", "-r", "d", "f"}, "", "cp: cannot overwrite non-directory 'f' with directory 'd'\n", 1, base},
		{map[string]string{"f": "F", "k/f/": ""}, []string{"cp", "f", "k"}, "", "cp: cannot overwrite directory 'k/f' with non-directory\n", 1, "f=F k/ k/f/"},
		{tree, []string{"cp"}, "", "cp: missing file operand\nTry 'cp --help' for more information.\n", 1, base},
		{tree, []string{"cp", "f"}, "", "cp: missing destination file operand after 'f'\nTry 'cp --help' for more information.\n", 1, base},
		{tree, []string{"cp", "-T", "f", "g", "h"}, "", "cp: extra operand 'h'\nTry 'cp --help' for more information.\n", 1, base},
		// Outside the granted tree, both ways.
		{tree, []string{"cp", "@OUT@/secret", "s"}, "", "cp: cannot stat '@OUT@/secret': No such file or directory\n", 1, base},
		{tree, []string{"cp", "f", "@OUT@/f"}, "", "cp: cannot create regular file '@OUT@/f': Permission denied (outside the writable paths)\n", 1, base},
		{tree, []string{"cp", "-r", "d", "@OUT@/sd"}, "", "cp: cannot create directory '@OUT@/sd': Permission denied (outside the writable paths)\n", 1, base},
		{tree, []string{"cp", "f", "../f"}, "", "cp: cannot create regular file '../f': Permission denied (outside the writable paths)\n", 1, base},
	})
}

func TestCpPreserve(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	old := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	if err := os.MkdirAll(filepath.Join(dir, "d", "s"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"d/s/f", "d/s", "d"} {
		full := filepath.Join(dir, p)
		if p == "d/s/f" {
			if err := os.WriteFile(full, []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chtimes(full, old, old); err != nil {
			t.Fatal(err)
		}
	}
	if r := runCmdIn(t, dir, "cp", "-rp", "d", "e"); r.status != 0 || r.stderr != "" {
		t.Fatalf("cp -rp: %+v", r)
	}
	if r := runCmdIn(t, dir, "cp", "d/s/f", "plain"); r.status != 0 || r.stderr != "" {
		t.Fatalf("cp: %+v", r)
	}
	for _, p := range []string{"e", "e/s", "e/s/f"} {
		fi, err := os.Stat(filepath.Join(dir, p))
		if err != nil || !fi.ModTime().Equal(old) {
			t.Errorf("%s: %v %v, want mtime %v", p, fi.ModTime(), err, old)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "plain")); err != nil || fi.ModTime().Equal(old) {
		t.Errorf("plain copy kept the time: %v %v", fi.ModTime(), err)
	}
}

// TestCpSymlinks: a link GNU cp would copy as a link (met under -r, named
// with -P, -d, -a) is reported in GNU's words, as vfsd creates no links,
// and the rest is copied; -L follows every link, -H the named ones, a copy
// without -r follows. A link leading out of the tree is never followed.
// Checked against GNU coreutils 9.1 cp (which makes the links: here each
// is the error GNU prints when symlink(2) fails).
func TestCpSymlinks(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644); err != nil {
		t.Fatal(err)
	}
	const noLink = ": Operation not supported\n"
	for _, tc := range []struct {
		args         []string
		stderr, tree string
		status       int
		dst          string
	}{
		{[]string{"cp", "-r", "src", "dst"}, "cp: cannot create symbolic link 'dst/dangle'" + noLink +
			"cp: cannot create symbolic link 'dst/esc'" + noLink + "cp: cannot create symbolic link 'dst/ld'" + noLink +
			"cp: cannot create symbolic link 'dst/lf'" + noLink, "d/ d/g=G f=F", 1, "dst"},
		{[]string{"cp", "-a", "src", "dst"}, "cp: cannot create symbolic link 'dst/dangle'" + noLink +
			"cp: cannot create symbolic link 'dst/esc'" + noLink + "cp: cannot create symbolic link 'dst/ld'" + noLink +
			"cp: cannot create symbolic link 'dst/lf'" + noLink, "d/ d/g=G f=F", 1, "dst"},
		{[]string{"cp", "-rL", "src", "dst"}, "cp: cannot stat 'src/dangle': No such file or directory\n" +
			"cp: cannot stat 'src/esc': Permission denied\n", "d/ d/g=G f=F ld/ ld/g=G lf=F", 1, "dst"},
		{[]string{"cp", "-r", "src/ld", "dst"}, "cp: cannot create symbolic link 'dst'" + noLink, "", 1, "dst"},
		{[]string{"cp", "-rH", "src/ld", "dst"}, "", "g=G", 0, "dst"},
		{[]string{"cp", "src/lf", "dst"}, "", "F", 0, "dst"},
		{[]string{"cp", "-P", "src/lf", "dst"}, "cp: cannot create symbolic link 'dst'" + noLink, "", 1, "dst"},
		{[]string{"cp", "-d", "src/lf", "dst"}, "cp: cannot create symbolic link 'dst'" + noLink, "", 1, "dst"},
		{[]string{"cp", "src/esc", "dst"}, "cp: cannot stat 'src/esc': Permission denied\n", "", 1, "dst"},
	} {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "src", "d"), 0o755); err != nil {
			t.Fatal(err)
		}
		for name, content := range map[string]string{"f": "F", "d/g": "G"} {
			if err := os.WriteFile(filepath.Join(dir, "src", name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for name, to := range map[string]string{"lf": "f", "ld": "d", "dangle": "nowhere", "esc": filepath.Join(outside, "secret")} {
			if err := os.Symlink(to, filepath.Join(dir, "src", name)); err != nil {
				t.Fatal(err)
			}
		}
		r := runCmdIn(t, dir, tc.args...)
		if r.status != tc.status || r.stderr != tc.stderr || r.stdout != "" {
			t.Errorf("%q: %+v\nwant stderr %q", tc.args, r, tc.stderr)
		}
		got := ""
		if b, err := os.ReadFile(filepath.Join(dir, tc.dst)); err == nil {
			got = string(b)
		} else if _, err := os.Lstat(filepath.Join(dir, tc.dst)); err == nil {
			got = listTree(t, filepath.Join(dir, tc.dst))
		}
		if got != tc.tree {
			t.Errorf("%q: dst %q, want %q", tc.args, got, tc.tree)
		}
		if got := listTree(t, outside); got != "secret=s" {
			t.Errorf("%q: outside %q", tc.args, got)
		}
	}
}

// TestCpModes: a new copy gets the source's bits less the umask 022, -p
// and -a keep them exactly, an existing destination keeps its own unless
// -p. Checked against GNU coreutils 9.1 cp.
func TestCpModes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want map[string]os.FileMode
	}{
		{[]string{"cp", "s/a", "n"}, map[string]os.FileMode{"n": 0o750}},
		{[]string{"cp", "s/w", "n"}, map[string]os.FileMode{"n": 0o644}},
		{[]string{"cp", "-p", "s/w", "n"}, map[string]os.FileMode{"n": 0o666}},
		{[]string{"cp", "s/a", "e"}, map[string]os.FileMode{"e": 0o600}},
		{[]string{"cp", "-p", "s/a", "e"}, map[string]os.FileMode{"e": 0o750}},
		{[]string{"cp", "-r", "s", "r"}, map[string]os.FileMode{"r": 0o755, "r/a": 0o750, "r/w": 0o644, "r/sub": 0o500, "r/sub/b": 0o600}},
		{[]string{"cp", "-a", "s", "r"}, map[string]os.FileMode{"r": 0o775, "r/a": 0o750, "r/w": 0o666, "r/sub": 0o500, "r/sub/b": 0o600}},
	} {
		dir := t.TempDir()
		for _, e := range []struct {
			name string
			m    os.FileMode
		}{{"s/", 0o775}, {"s/a", 0o750}, {"s/w", 0o666}, {"s/sub/", 0o700}, {"s/sub/b", 0o600}, {"e", 0o600}} {
			name, m := e.name, e.m
			p := filepath.Join(dir, name)
			var err error
			if name[len(name)-1] == '/' {
				err = os.Mkdir(p, 0o755)
			} else {
				err = os.WriteFile(p, []byte(name), 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(p, m); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chmod(filepath.Join(dir, "s/sub"), 0o500); err != nil {
			t.Fatal(err)
		}
		if r := runCmdIn(t, dir, tc.args...); r.status != 0 || r.stderr != "" {
			t.Fatalf("%q: %+v", tc.args, r)
		}
		for name, want := range tc.want {
			fi, err := os.Stat(filepath.Join(dir, name))
			if err != nil || fi.Mode().Perm() != want {
				t.Errorf("%q: %s mode %o (%v), want %o", tc.args, name, fi.Mode().Perm(), err, want)
			}
		}
		os.Chmod(filepath.Join(dir, "s/sub"), 0o700)
		os.Chmod(filepath.Join(dir, "r/sub"), 0o700)
	}
}
