package vfsclient_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/llmsh/llmsh/vfsclient"
)

// TestTreeErrnos checks that tree operations map vfsd's answers to the
// errnos GNU tools meet.
func TestTreeErrnos(t *testing.T) {
	c, in, out := session(t)
	os.MkdirAll(filepath.Join(out, "full", "sub"), 0o755)
	os.WriteFile(filepath.Join(out, "f"), []byte("f"), 0o644)
	var perr *vfsclient.Error
	for _, tc := range []struct {
		name string
		err  error
		want syscall.Errno
	}{
		{"mkdir exists", c.Mkdir(filepath.Join(out, "full"), 0o755), syscall.EEXIST},
		{"mkdir read-only", c.Mkdir(filepath.Join(in, "x"), 0o755), syscall.EACCES},
		{"remove non-empty", c.Remove(filepath.Join(out, "full")), syscall.ENOTEMPTY},
		{"remove missing", c.Remove(filepath.Join(out, "none")), syscall.ENOENT},
		{"rename across trees", c.Rename(filepath.Join(out, "f"), filepath.Join(t.TempDir(), "g")), syscall.EXDEV},
		{"rename file over dir", c.Rename(filepath.Join(out, "f"), filepath.Join(out, "full")), syscall.EISDIR},
		{"chtimes missing", c.Chtimes(filepath.Join(out, "none"), time.Time{}, time.Unix(1, 0)), syscall.ENOENT},
		{"chtimes read-only", c.Chtimes(filepath.Join(in, "r.txt"), time.Time{}, time.Unix(1, 0)), syscall.EACCES},
	} {
		var errno syscall.Errno
		if !errors.As(tc.err, &errno) || errno != tc.want {
			t.Errorf("%s: %v (errno %v), want %v", tc.name, tc.err, errno, tc.want)
		}
		var pe *fs.PathError
		if !errors.As(tc.err, &pe) || !errors.As(tc.err, &perr) {
			t.Errorf("%s: %T is not a *fs.PathError wrapping *vfsclient.Error", tc.name, tc.err)
		}
	}
	if err := c.Mkdir(filepath.Join(out, "full"), 0o755); !errors.Is(err, fs.ErrExist) {
		t.Errorf("mkdir exists: not fs.ErrExist: %v", err)
	}

	// The happy paths, checked on the host.
	d := filepath.Join(out, "new")
	if err := c.Mkdir(d, 0o750); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o750 {
		t.Fatalf("mkdir: %v %v", fi, err)
	}
	if err := c.Rename(filepath.Join(out, "f"), filepath.Join(d, "g")); err != nil {
		t.Fatal(err)
	}
	mt := time.Unix(1_000_000, 500)
	if err := c.Chtimes(filepath.Join(d, "g"), time.Time{}, mt); err != nil {
		t.Fatal(err)
	}
	fi, err := c.Stat(filepath.Join(d, "g"))
	if err != nil || !fi.ModTime().Equal(mt) {
		t.Fatalf("stat after chtimes: %v %v", fi, err)
	}
	if err := c.Remove(filepath.Join(d, "g")); err != nil {
		t.Fatal(err)
	}
	if err := c.Remove(d); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(d); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("still there: %v", err)
	}

	os.Symlink("full", filepath.Join(out, "ln"))
	li, err := c.Lstat(filepath.Join(out, "ln"))
	if err != nil || li.Mode()&fs.ModeSymlink == 0 || li.IsDir() {
		t.Fatalf("lstat link: %v %v", li, err)
	}
	si, err := c.Stat(filepath.Join(out, "ln"))
	if err != nil || !si.IsDir() {
		t.Fatalf("stat link: %v %v", si, err)
	}
	if err := c.Remove(filepath.Join(out, "ln")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "full", "sub")); err != nil {
		t.Fatal("removing the link touched its target")
	}
}
