package dotdot_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"

	"github.com/llmsh/llmsh/internal/dotdot"
)

// TestCheckAgainstKernel builds a small tree and compares Check, with
// os.Stat as its stat, to what the kernel says when it opens the same
// names: same success, same errno, and the prefix that failed.
func TestCheckAgainstKernel(t *testing.T) {
	dir := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(dir, "d", "sub"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "d", "g"), []byte("x"), 0o644))
	t.Chdir(dir)

	cases := []struct {
		name, bad string
		errno     error
	}{
		{"d/..", "", nil},
		{"d/../f", "", nil},
		{"d/sub/../../f", "", nil},
		{"d/sub/../g", "", nil},
		{"./d/../d/../f", "", nil},
		{"d//..", "", nil},
		{"/..", "", nil},
		{"../" + filepath.Base(dir) + "/f", "", nil},
		{"f", "", nil},
		{"nope/..", "nope", syscall.ENOENT},
		{"d/nope/../g", "d/nope", syscall.ENOENT},
		{"f/..", "f", syscall.ENOTDIR},
		{"d/g/../g", "d/g", syscall.ENOTDIR},
		{"d/../nope/../f", "d/../nope", syscall.ENOENT},
	}
	for _, c := range cases {
		bad, err := dotdot.Check(c.name, os.Stat)
		if bad != c.bad || !errors.Is(err, c.errno) && (err != nil || c.errno != nil) {
			t.Errorf("Check(%q) = %q, %v; want %q, %v", c.name, bad, err, c.bad, c.errno)
		}
		// The kernel agrees: it finds the name when Check passes it, and
		// gives the same errno when Check does not.
		if _, kerr := os.Stat(c.name); (kerr == nil) != (err == nil) || err != nil && !errors.Is(kerr, err) {
			t.Errorf("%q: the kernel says %v, Check %v", c.name, kerr, err)
		}
	}
}

// TestCheckAsksOnlyForDotDot pins the cost: no stat for a name without
// "..", one for each "..", asked with the prefix as written.
func TestCheckAsksOnlyForDotDot(t *testing.T) {
	var asked []string
	stat := func(p string) (fs.FileInfo, error) {
		asked = append(asked, p)
		return os.Stat("/")
	}
	for _, name := range []string{"a/b/c", "a..b/c..", "..x", "/"} {
		asked = nil
		if _, err := dotdot.Check(name, stat); err != nil || len(asked) != 0 {
			t.Errorf("Check(%q): %v, asked %q; want nil, none", name, err, asked)
		}
	}
	asked = nil
	if _, err := dotdot.Check("a/../b/c/../..", stat); err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "a/../b/c", "a/../b/c/.."}; !reflect.DeepEqual(asked, want) {
		t.Errorf("asked %q, want %q", asked, want)
	}
}

// TestCheckErrors maps a refused stat to ENOENT (a name outside the
// grants is not told apart from a missing one) and passes other errors on.
func TestCheckErrors(t *testing.T) {
	other := errors.New("vfsd gone")
	for _, c := range []struct {
		err, want error
	}{
		{fs.ErrNotExist, syscall.ENOENT},
		{fs.ErrPermission, syscall.ENOENT},
		{&fs.PathError{Op: "stat", Path: "x", Err: syscall.ENOTDIR}, syscall.ENOTDIR},
		{other, other},
	} {
		bad, err := dotdot.Check("x/../y", func(string) (fs.FileInfo, error) { return nil, c.err })
		if bad != "x" || !errors.Is(err, c.want) {
			t.Errorf("stat error %v: Check = %q, %v; want %q, %v", c.err, bad, err, "x", c.want)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
