package builtins_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Expected values checked against GNU coreutils 9.1 rm (LC_ALL=C).
func TestRm(t *testing.T) {
	t.Parallel()
	tree := map[string]string{"f": "x", "d/e/g": "g", "d/h": "h", "empty/": ""}
	runTree(t, []treeCase{
		{tree, []string{"rm", "f"}, "", "", 0, "d/ d/e/ d/e/g=g d/h=h empty/"},
		{tree, []string{"rm", "-v", "f", "d/h"}, "removed 'f'\nremoved 'd/h'\n", "", 0, "d/ d/e/ d/e/g=g empty/"},
		{tree, []string{"rm", "nope"}, "", "rm: cannot remove 'nope': No such file or directory\n", 1, "-"},
		{tree, []string{"rm", "-f", "nope", "f"}, "", "", 0, "d/ d/e/ d/e/g=g d/h=h empty/"},
		{tree, []string{"rm", "-f"}, "", "", 0, "-"},
		{tree, []string{"rm"}, "", "rm: missing operand\nTry 'rm --help' for more information.\n", 1, "-"},
		{tree, []string{"rm", "d"}, "", "rm: cannot remove 'd': Is a directory\n", 1, "-"},
		{tree, []string{"rm", "-d", "d"}, "", "rm: cannot remove 'd': Directory not empty\n", 1, "-"},
		{tree, []string{"rm", "-dv", "empty"}, "removed directory 'empty'\n", "", 0, "d/ d/e/ d/e/g=g d/h=h f=x"},
		{tree, []string{"rm", "-rv", "d"}, "removed 'd/e/g'\nremoved directory 'd/e'\nremoved 'd/h'\nremoved directory 'd'\n", "", 0, "empty/ f=x"},
		{tree, []string{"rm", "-R", "d/", "empty"}, "", "", 0, "f=x"},
		{tree, []string{"rm", "-r", "."}, "", "rm: refusing to remove '.' or '..' directory: skipping '.'\n", 1, "-"},
		{tree, []string{"rm", "-r", "d/.."}, "", "rm: refusing to remove '.' or '..' directory: skipping 'd/..'\n", 1, "-"},
		{tree, []string{"rm", "-rf", "/"}, "", "rm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe\n", 1, "-"},
		{tree, []string{"rm", "."}, "", "rm: cannot remove '.': Is a directory\n", 1, "-"},
		// -i and -I read the answers from stdin: none is no.
		{tree, []string{"rm", "-i", "f"}, "", "rm: remove regular file 'f'? ", 0, "-"},
		{tree, []string{"rm", "-I", "-r", "d"}, "", "rm: remove 1 argument recursively? ", 0, "-"},
		{tree, []string{"rm", "--interactive=never", "f"}, "", "", 0, "d/ d/e/ d/e/g=g d/h=h empty/"},
		// Outside the granted tree, and the granted tree itself.
		{tree, []string{"rm", "@OUT@/secret"}, "", "rm: cannot remove '@OUT@/secret': No such file or directory\n", 1, "-"},
		{tree, []string{"rm", "-rf", "@OUT@/sd", "@OUT@"}, "", "", 0, "-"}, // absent: nothing to remove
		{tree, []string{"rm", "-f", "../x"}, "", "", 0, "-"},
		{tree, []string{"rm", "-rf", "@DIR@"}, "", "rm: cannot remove '@DIR@': Permission denied\n", 1, ""},
	})
}

// TestRmSymlinks: rm -r removes a link to a directory, never what it
// points to; a link leading out of the tree is removed as a link too.
func TestRmSymlinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "keep"), []byte("k"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "target", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "target", "sub", "f"), []byte("f"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "links"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, to := range map[string]string{"in": "../target", "out": outside} {
		if err := os.Symlink(to, filepath.Join(dir, "links", name)); err != nil {
			t.Fatal(err)
		}
	}
	r := runCmdIn(t, dir, "rm", "-rv", "links")
	if r.status != 0 || r.stderr != "" || r.stdout != "removed 'links/in'\nremoved 'links/out'\nremoved directory 'links'\n" {
		t.Errorf("rm -rv links: %+v", r)
	}
	if got := listTree(t, dir); got != "target/ target/sub/ target/sub/f=f" {
		t.Errorf("tree after rm: %q", got)
	}
	if got := listTree(t, outside); got != "keep=k" {
		t.Errorf("outside after rm: %q", got)
	}
}

// TestRmLinkSlash: "link/" names what the link leads to: rm refuses it in
// GNU's words and removes nothing, neither the link nor (as GNU rm -r
// would) the entries of the directory it leads to; rmdir says GNU's
// "Symbolic link not followed". Messages and statuses checked against GNU
// coreutils 9.1.
func TestRmLinkSlash(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"rm", "ld/"}, "rm: cannot remove 'ld/': Is a directory\n"},
		{[]string{"rm", "-r", "ld/"}, "rm: cannot remove 'ld/': Not a directory\n"},
		{[]string{"rm", "-rf", "ld/"}, "rm: cannot remove 'ld/': Not a directory\n"},
		{[]string{"rm", "-d", "ld/"}, "rm: cannot remove 'ld/': Directory not empty\n"},
		{[]string{"rm", "lf/"}, "rm: cannot remove 'lf/': Not a directory\n"},
		{[]string{"rm", "-r", "ldangle/"}, "rm: cannot remove 'ldangle/': Not a directory\n"},
		{[]string{"rmdir", "ld/"}, "rmdir: failed to remove 'ld/': Symbolic link not followed\n"},
	} {
		dir := linkTree(t, nil)
		before := linkTreeState(t, dir)
		r := runCmdIn(t, dir, tc.args...)
		if r.status != 1 || r.stderr != tc.stderr || r.stdout != "" {
			t.Errorf("%q: %+v, want %q", tc.args, r, tc.stderr)
		}
		if after := linkTreeState(t, dir); after != before {
			t.Errorf("%q changed the tree: %q, was %q", tc.args, after, before)
		}
	}
}

// linkTreeState lists dir's entries with lstat: links by name, files with
// their content.
func linkTreeState(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			to, _ := os.Readlink(p)
			fmt.Fprintf(&b, "%s->%s ", rel, to)
		case d.IsDir():
			fmt.Fprintf(&b, "%s/ ", rel)
		default:
			data, _ := os.ReadFile(p)
			fmt.Fprintf(&b, "%s=%q ", rel, data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
