package builtins_test

import (
	"os"
	"path/filepath"
	"testing"
)

// Expected values checked against GNU coreutils 9.1 mkdir (LC_ALL=C).
func TestMkdir(t *testing.T) {
	t.Parallel()
	f := map[string]string{"f": "x"}
	runTree(t, []treeCase{
		{f, []string{"mkdir", "d"}, "", "", 0, "d/ f=x"},
		{f, []string{"mkdir", "-v", "d", "e"}, "mkdir: created directory 'd'\nmkdir: created directory 'e'\n", "", 0, "d/ e/ f=x"},
		{f, []string{"mkdir", "f"}, "", "mkdir: cannot create directory 'f': File exists\n", 1, "f=x"},
		{f, []string{"mkdir", "a/b"}, "", "mkdir: cannot create directory 'a/b': No such file or directory\n", 1, "f=x"},
		{f, []string{"mkdir", "-p", "f"}, "", "mkdir: cannot create directory 'f': File exists\n", 1, "f=x"},
		{f, []string{"mkdir", "-p", "f/x"}, "", "mkdir: cannot create directory 'f': Not a directory\n", 1, "f=x"},
		{f, []string{"mkdir", "-pv", "a/b/c"}, "mkdir: created directory 'a'\nmkdir: created directory 'a/b'\nmkdir: created directory 'a/b/c'\n", "", 0, "a/ a/b/ a/b/c/ f=x"},
		{map[string]string{"a/": ""}, []string{"mkdir", "-p", "a", "./a/../a/b/"}, "", "", 0, "a/ a/b/"},
		{f, []string{"mkdir", "-m", "bad", "d"}, "", "mkdir: invalid mode 'bad'\n", 1, "f=x"},
		{f, []string{"mkdir"}, "", "mkdir: missing operand\nTry 'mkdir --help' for more information.\n", 1, "f=x"},
		{f, []string{"mkdir", "d", "f", "e"}, "", "mkdir: cannot create directory 'f': File exists\n", 1, "d/ e/ f=x"},
		// Outside the granted tree.
		{f, []string{"mkdir", "@OUT@/new"}, "", "mkdir: cannot create directory '@OUT@/new': Permission denied (outside the writable paths)\n", 1, "f=x"},
		{f, []string{"mkdir", "-p", "@OUT@/sd/new"}, "", "mkdir: cannot create directory '@OUT@': Permission denied (outside the writable paths)\n", 1, "f=x"},
		{f, []string{"mkdir", "../escape"}, "", "mkdir: cannot create directory '../escape': Permission denied (outside the writable paths)\n", 1, "f=x"},
	})
}

func TestMkdirMode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		dir  string
		want os.FileMode
	}{
		{[]string{"mkdir", "-m", "700", "m"}, "m", 0o700},
		{[]string{"mkdir", "-m", "go-w", "m"}, "m", 0o755},
		{[]string{"mkdir", "--mode=a=rx,u+w", "m"}, "m", 0o755},
		{[]string{"mkdir", "m"}, "m", 0o755},
		{[]string{"mkdir", "-p", "-m", "700", "p/q"}, "p", 0o755},
		{[]string{"mkdir", "-p", "-m", "700", "p/q"}, "p/q", 0o700},
	} {
		dir := t.TempDir()
		r := runCmdIn(t, dir, tc.args...)
		if r.status != 0 || r.stderr != "" {
			t.Errorf("%q: %+v", tc.args, r)
			continue
		}
		fi, err := os.Stat(filepath.Join(dir, tc.dir))
		if err != nil || fi.Mode().Perm() != tc.want {
			t.Errorf("%q: %s mode %v (%v), want %o", tc.args, tc.dir, fi.Mode(), err, tc.want)
		}
	}
}
