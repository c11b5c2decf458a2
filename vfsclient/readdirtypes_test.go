package vfsclient_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/llmsh/llmsh/vfsclient"
	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
	"github.com/llmsh/llmsh/vfsproto"
)

// TestReadDirTypes: a listing of names and types has ReadDir's entries,
// names, types and Info alike (links not followed, a FIFO, a name with a
// newline, a directory changed after the listing), and sets described
// only when an entry that is not a directory is asked for its Info.
func TestReadDirTypes(t *testing.T) {
	c, in, _ := session(t)
	os.Symlink("r.txt", filepath.Join(in, "link"))
	os.Symlink("sub", filepath.Join(in, "dirlink"))
	os.Symlink("../../etc/passwd", filepath.Join(in, "away"))
	os.WriteFile(filepath.Join(in, "new\nline"), []byte("x"), 0o600)
	if err := syscall.Mkfifo(filepath.Join(in, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}

	full, err := c.ReadDir(in)
	if err != nil {
		t.Fatal(err)
	}
	var described atomic.Bool
	ents, err := c.ReadDirTypes(in, &described)
	if err != nil || len(ents) != len(full) {
		t.Fatalf("ReadDirTypes: %d entries, %v; ReadDir %d", len(ents), err, len(full))
	}
	for i, e := range ents {
		f := full[i]
		if e.Name() != f.Name() || e.Type() != f.Type() || e.IsDir() != f.IsDir() {
			t.Errorf("entry %q: type %v dir %v, ReadDir's %q: %v %v", e.Name(), e.Type(), e.IsDir(), f.Name(), f.Type(), f.IsDir())
		}
		if e.IsDir() {
			if _, err := e.Info(); err != nil {
				t.Errorf("%q: Info: %v", e.Name(), err)
			}
			if described.Load() {
				t.Errorf("directory %q: Info needed more than the listing", e.Name())
			}
		}
	}
	// A file made after the listing: its entry was not listed; a file
	// removed after it: Info says so, as an lstat would.
	os.WriteFile(filepath.Join(in, "later"), nil, 0o644)
	if err := os.Remove(filepath.Join(in, "new\nline")); err != nil {
		t.Fatal(err)
	}
	for i, e := range ents {
		got, err := e.Info()
		if e.Name() == "new\nline" {
			if err == nil {
				t.Errorf("removed %q: Info %v", e.Name(), got.Mode())
			}
			continue
		}
		want, werr := full[i].Info()
		if err != nil || werr != nil || got.Name() != want.Name() || got.Mode() != want.Mode() || got.Size() != want.Size() ||
			!got.ModTime().Equal(want.ModTime()) || got.IsDir() != want.IsDir() {
			t.Errorf("%q: Info %v %v, ReadDir's %v %v", e.Name(), got, err, want, werr)
		}
		if id, _ := vfsclient.FileID(got); id == "" {
			t.Errorf("%q: no file identity", e.Name())
		}
	}
	if !described.Load() {
		t.Error("described not set after the Info of files")
	}
	for _, e := range ents {
		isDir, _, ok := vfsclient.LinkTarget(e)
		switch e.Name() {
		case "dirlink":
			if !ok || !isDir {
				t.Errorf("LinkTarget(dirlink) = %v %v", isDir, ok)
			}
		case "link", "away":
			if !ok || isDir {
				t.Errorf("LinkTarget(%s) = %v %v", e.Name(), isDir, ok)
			}
		default:
			if ok {
				t.Errorf("LinkTarget(%q) ok", e.Name())
			}
		}
	}
	if _, err := c.ReadDirTypes(filepath.Join(in, "r.txt"), nil); err == nil {
		t.Error("ReadDirTypes of a file: no error")
	}
	if _, err := c.ReadDirTypes(filepath.Join(in, "none"), nil); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadDirTypes of nothing: %v", err)
	}
}

// TestReadFiles: ReadFiles reads what ReadFile reads of each file (bytes,
// whether they are whole, open's error), in one request; without hello,
// or out of read_files' bounds, it asks nothing.
func TestReadFiles(t *testing.T) {
	c, in, _ := session(t)
	os.WriteFile(filepath.Join(in, "ten"), []byte("0123456789"), 0o644)
	names := []string{filepath.Join(in, "r.txt"), filepath.Join(in, "none"), filepath.Join(in, "sub"), filepath.Join(in, "ten"), "/etc/passwd"}
	for _, max := range []int{1, 10, 100} {
		heads, ok, err := c.ReadFiles(names, max)
		if !ok || err != nil || len(heads) != len(names) {
			t.Fatalf("ReadFiles max %d: %d heads, %v %v", max, len(heads), ok, err)
		}
		for i, name := range names {
			p := make([]byte, max)
			n, whole, _, werr := c.ReadFile(name, p)
			h := heads[i]
			if string(h.Data) != string(p[:n]) || h.Whole != whole || (h.Err == nil) != (werr == nil) ||
				h.Err != nil && h.Err.Error() != werr.Error() {
				t.Errorf("max %d %s: %q %v %v, ReadFile %q %v %v", max, name, h.Data, h.Whole, h.Err, p[:n], whole, werr)
			}
		}
	}
	if _, ok, _ := c.ReadFiles(names, vfsproto.MaxBulkRead); ok {
		t.Error("ReadFiles past 1 MiB in all asked")
	}
	if _, ok, _ := c.ReadFiles(nil, 10); ok {
		t.Error("ReadFiles of nothing asked")
	}
	bare := vfstest.SessionNoHello(t, vfsd.Config{Inputs: []string{in}})
	if _, ok, _ := bare.ReadFiles(names, 10); ok {
		t.Error("ReadFiles without hello asked")
	}
}
