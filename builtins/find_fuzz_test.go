package builtins_test

import (
	"context"
	"io"
	"io/fs"
	"strings"
	"syscall"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/builtins"
)

// emptyFS is a file system with nothing in it: every name is ENOENT. The
// fuzz tests below exercise parsing, not the walk.
type emptyFS struct{}

func (emptyFS) err(op, name string) error {
	return &fs.PathError{Op: op, Path: name, Err: syscall.ENOENT}
}
func (e emptyFS) OpenFile(name string, _ int) (File, error)  { return nil, e.err("open", name) }
func (e emptyFS) Stat(name string) (fs.FileInfo, error)      { return nil, e.err("stat", name) }
func (e emptyFS) Lstat(name string) (fs.FileInfo, error)     { return nil, e.err("lstat", name) }
func (e emptyFS) Readlink(name string) (string, error)       { return "", e.err("readlink", name) }
func (e emptyFS) ReadDir(name string) ([]fs.DirEntry, error) { return nil, e.err("readdir", name) }
func (e emptyFS) Mkdir(name string, _ fs.FileMode) error     { return e.err("mkdir", name) }
func (e emptyFS) Remove(name string) error                   { return e.err("remove", name) }
func (e emptyFS) Rename(oldname, _ string) error             { return e.err("rename", oldname) }
func (e emptyFS) Chtimes(name string, _, _ time.Time) error  { return e.err("chtimes", name) }
func (e emptyFS) Chmod(name string, _ fs.FileMode) error     { return e.err("chmod", name) }

// FuzzFindArgs: no argument list makes find panic or hang; errors are
// reported as "find: ..." with status 1.
func FuzzFindArgs(f *testing.F) {
	for _, s := range []string{
		". -name *.go -o ( -type d ! -empty ) , -print",
		"-L . -maxdepth 2 -size +1k -mtime -3 -printf %p\\t%s\\n",
		". -exec echo {} + -execdir echo {} ;",
		". ( ( ) ) -o",
		". -printf %-10.3T@%",
		". -regex \\(a\\|b -regextype posix-extended -regex (a|",
		". -type f,d,l, -perm -0777 -newer x -delete -prune",
		"! -not , -a -and",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args := append([]string{"find"}, strings.Fields(s)...)
		var out, errb strings.Builder
		env := &Env{Ctx: context.Background(), Args: args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, FS: emptyFS{}, Dir: "/w"}
		env.Exec = func(context.Context, []string, io.Reader, io.Writer, io.Writer) int { return 0 }
		b, _ := Lookup("find")
		st := Run(b, env)
		if strings.Contains(errb.String(), "internal error") {
			t.Fatalf("%q: %s", args, errb.String())
		}
		if st != 0 && st != 1 {
			t.Fatalf("%q: status %d", args, st)
		}
	})
}

// FuzzXargsInput: no input makes xargs panic or hang, whatever the
// splitting mode.
func FuzzXargsInput(f *testing.F) {
	f.Add("a 'b c' \"d\\\"\" e\\ f\n\n g", "")
	f.Add("x\x00y\x00", "-0")
	f.Add("1:2::3", "-d:")
	f.Add("  a  \n b\n", "-I{}")
	f.Add("a b \nc\n", "-L1")
	f.Add("'unterminated\n", "-n2")
	f.Fuzz(func(t *testing.T, in, opt string) {
		args := []string{"xargs"}
		if opt != "" {
			args = append(args, opt)
		}
		args = append(args, "sink", "{}")
		var out, errb strings.Builder
		env := &Env{Ctx: context.Background(), Args: args, Stdin: strings.NewReader(in), Stdout: &out, Stderr: &errb, FS: emptyFS{}, Dir: "/w"}
		env.Exec = func(context.Context, []string, io.Reader, io.Writer, io.Writer) int { return 0 }
		b, _ := Lookup("xargs")
		Run(b, env)
		if strings.Contains(errb.String(), "internal error") {
			t.Fatalf("%q on %q: %s", args, in, errb.String())
		}
	})
}
