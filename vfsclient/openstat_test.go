package vfsclient_test

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// TestOpenStat: with open_named, a read-only open sends a stat of its
// handle behind it, so the file's first Stat asks vfsd nothing (the
// requests vfsd counted say so) and a later one asks again; names that
// are not UTF-8 work on that path; a failed open is the open's error
// and frees its name (more failures than a client may hold handles).
func TestOpenStat(t *testing.T) {
	dir := t.TempDir()
	name := "a\xffb"
	if err := os.WriteFile(filepath.Join(dir, name), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := vfstest.Session(t, vfsd.Config{Outputs: []string{dir}, Dir: dir})
	if !c.NamedOpens() {
		t.Fatal("open_named not negotiated")
	}
	requests := func() int64 {
		s, err := c.Stats()
		if err != nil {
			t.Fatal(err)
		}
		return s.Requests
	}
	r0 := requests()
	self := requests() - r0 // the stats request itself, if counted
	r1 := requests()
	f, err := c.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	if f.Lazy() {
		t.Error("a read-only open reported lazy")
	}
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() != 8 || fi.Name() != "a\xffb" || !fi.Mode().IsRegular() {
		t.Errorf("Stat = %q %d %v", fi.Name(), fi.Size(), fi.Mode())
	}
	if got := requests() - r1 - self; got != 2 {
		t.Errorf("open and Stat sent %d requests, want 2 (open, stat)", got)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte("one\ntwo\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r2 := requests()
	if fi, err := f.Stat(); err != nil || fi.Size() != 14 {
		t.Errorf("second Stat = %v, %v; want a fresh one of 14 bytes", fi, err)
	}
	if got := requests() - r2 - self; got != 1 {
		t.Errorf("second Stat sent %d requests, want 1", got)
	}
	if b, err := io.ReadAll(f); err != nil || string(b) != "one\ntwo\nthree\n" {
		t.Errorf("read = %q, %v", b, err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	for i := range 4200 {
		_, err := c.Open("missing")
		var pe *fs.PathError
		if !errors.As(err, &pe) || pe.Op != "open" || !errors.Is(err, syscall.ENOENT) {
			t.Fatalf("open %d of a missing file: %v", i, err)
		}
	}
	if _, err := c.Open("d"); !errors.Is(err, syscall.EISDIR) {
		t.Errorf("open of a directory = %v, want EISDIR", err)
	}
	f, err = c.Open(name)
	if err != nil {
		t.Fatalf("open after the failures: %v", err)
	}
	if fi, err := f.Stat(); err != nil || fi.Size() != 14 {
		t.Errorf("Stat after the failures = %v, %v", fi, err)
	}
	f.Close()
}
