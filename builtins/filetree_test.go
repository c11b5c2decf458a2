package builtins_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/builtins"
	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

// treeCase is one call of a file or tree builtin in a fresh directory that
// is granted read-write through a real vfsd session. "@OUT@" in args is
// replaced by a host directory outside the grant holding "secret" (a file)
// and "sd/" (an empty directory), "@DIR@" by the working directory (in
// args, and back in the output). tree, when not "-", is the expected
// listing of the working directory afterwards (listTree).
type treeCase struct {
	files  map[string]string
	args   []string
	out    string
	err    string
	status int
	tree   string
}

// runTree runs the cases, each in its own directory.
func runTree(t *testing.T, cases []treeCase) {
	t.Helper()
	for _, c := range cases {
		dir := t.TempDir()
		outside := t.TempDir()
		if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(filepath.Join(outside, "sd"), 0o755); err != nil {
			t.Fatal(err)
		}
		fsys := testFS(t, dir)
		writeHostFiles(t, dir, c.files)
		args := make([]string, len(c.args))
		for i, a := range c.args {
			args[i] = strings.ReplaceAll(strings.ReplaceAll(a, "@OUT@", outside), "@DIR@", dir)
		}
		b, ok := Lookup(args[0])
		if !ok {
			t.Fatalf("no builtin %q", args[0])
		}
		var out, errb strings.Builder
		env := &Env{Ctx: context.Background(), Args: args, Stdin: strings.NewReader(""),
			Stdout: &out, Stderr: &errb, FS: fsys, Dir: dir}
		st := Run(b, env)
		gotErr := strings.ReplaceAll(errb.String(), outside, "@OUT@")
		gotErr = strings.ReplaceAll(gotErr, dir, "@DIR@")
		gotOut := strings.ReplaceAll(out.String(), outside, "@OUT@")
		gotOut = strings.ReplaceAll(gotOut, dir, "@DIR@")
		if gotOut != c.out || gotErr != c.err || st != c.status {
			t.Errorf("%q:\n got %q %q %d\nwant %q %q %d", c.args, gotOut, gotErr, st, c.out, c.err, c.status)
		}
		if c.tree != "-" {
			if got := listTree(t, dir); got != c.tree {
				t.Errorf("%q: tree\n got %q\nwant %q", c.args, got, c.tree)
			}
		}
		if got := listTree(t, outside); got != "sd/ secret=s" {
			t.Errorf("%q: the directory outside the grant changed: %q", c.args, got)
		}
	}
}

// listTree lists dir on the host: sorted relative paths, directories with a
// trailing slash, files as name=content, separated by spaces.
func listTree(t *testing.T, dir string) string {
	t.Helper()
	var items []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.IsDir():
			items = append(items, rel+"/")
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			items = append(items, rel+"->"+target)
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			items = append(items, rel+"="+string(b))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(items)
	return strings.Join(items, " ")
}

func TestFtQuote(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"x":      "'x'",
		"a b":    "'a b'",
		"it's":   `"it's"`,
		"'":      `"'"`,
		"a'b$c":  `'a'\''b$c'`,
		"a\tb":   `'a'$'\t''b'`,
		"\tb":    `''$'\t''b'`,
		"a\t":    `'a'$'\t'`,
		"é":      `''$'\303\251'`,
		"a'!":    `'a'\''!'`,
		"":       "''",
		"a\\b":   `'a\b'`,
		"a'b\tc": `'a'\''b'$'\t''c'`,
	} {
		if got := gnu.QuoteAF(in); got != want {
			t.Errorf("gnu.QuoteAF(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestFtParseMode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s    string
		base fs.FileMode
		want fs.FileMode
		ok   bool
	}{
		{"700", 0o777, 0o700, true},
		{"1777", 0o777, 0o777, true},
		{"go-w", 0o777, 0o755, true},
		{"a=rx,u+w", 0o777, 0o755, true},
		{"u=rwx,g=rx,o=", 0, 0o750, true},
		{"+x", 0o644, 0o755, true},
		{"a+X", 0o644, 0o644, true},
		{"bad", 0o777, 0, false},
		{"u", 0o777, 0, false},
		{"8", 0o777, 0, false},
		{"", 0o777, 0, false},
	} {
		got, ok := parseMode(tc.s, tc.base, false)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseMode(%q, %o) = %o %v, want %o %v", tc.s, tc.base, got, ok, tc.want, tc.ok)
		}
	}
}

// runCmdIn runs args in dir (granted read-write through vfsd), with empty
// stdin.
func runCmdIn(t *testing.T, dir string, args ...string) result {
	t.Helper()
	return runCmdFS(t, testFS(t, dir), dir, args...)
}

// runCmdFS runs a builtin in dir on the file system fsys, with empty stdin.
func runCmdFS(t *testing.T, fsys FS, dir string, args ...string) result {
	t.Helper()
	b, ok := Lookup(args[0])
	if !ok {
		t.Fatalf("no builtin %q", args[0])
	}
	var out, errb strings.Builder
	env := &Env{Ctx: context.Background(), Args: args, Stdin: strings.NewReader(""),
		Stdout: &out, Stderr: &errb, FS: fsys, Dir: dir}
	st := Run(b, env)
	return result{out.String(), errb.String(), st}
}

// atimeOf is the access time of a host file.
func atimeOf(fi fs.FileInfo) time.Time {
	st := fi.Sys().(*syscall.Stat_t)
	return time.Unix(st.Atim.Sec, st.Atim.Nsec)
}

// TestFileTreeCancelled: with the context already cancelled, the tree
// builtins stop before changing anything and fail.
func TestFileTreeCancelled(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"rm", "-r", "d"}, {"cp", "-r", "d", "e"}, {"mv", "d", "e"}, {"mkdir", "-p", "x/y"},
		{"rmdir", "d/s"}, {"touch", "new"}, {"du", "d"}, {"stat", "d"}, {"realpath", "d"},
	} {
		dir := t.TempDir()
		fsys := testFS(t, dir)
		writeTestFile(t, fsys, dir+"/d/s/", "")
		writeTestFile(t, fsys, dir+"/d/f", "f")
		b, _ := Lookup(args[0])
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var out, errb strings.Builder
		st := Run(b, &Env{Ctx: ctx, Args: args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, FS: fsys, Dir: dir})
		if st != 1 {
			t.Errorf("%q: status %d", args, st)
		}
		if got := listTree(t, dir); got != "d/ d/f=f d/s/" {
			t.Errorf("%q changed the tree: %q", args, got)
		}
	}
}
