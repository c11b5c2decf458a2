package vfsclient_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// TestByteNames: names that are not UTF-8 go to vfsd and come back as
// their bytes (byte_names), by every way the client names files: open,
// named open, read_file, stat, list, walk, readlink, rename, remove.
// Without hello the client refuses such a name (EILSEQ) rather than let
// JSON turn it into another.
func TestByteNames(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a\xffb"), []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "d\xfe"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("t\xff", filepath.Join(dir, "l\xfe")); err != nil {
		t.Fatal(err)
	}
	cfg := vfsd.Config{Outputs: []string{dir}, Dir: dir}
	c := vfstest.Session(t, cfg)
	f, err := c.Open("a\xffb")
	if err != nil {
		t.Fatal(err)
	}
	if b, err := io.ReadAll(f); err != nil || string(b) != "one\n" {
		t.Errorf("read = %q, %v", b, err)
	}
	f.Close()
	p := make([]byte, 16)
	if n, _, ok, err := c.ReadFile("a\xffb", p); !ok || err != nil || string(p[:n]) != "one\n" {
		t.Errorf("ReadFile = %q, %v, %v", p[:n], ok, err)
	}
	w, err := c.OpenLater("d\xfe/n\xfd", os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("two\n")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "d\xfe", "n\xfd")); err != nil || string(b) != "two\n" {
		t.Errorf("host d\\xfe/n\\xfd = %q, %v", b, err)
	}
	ents, err := c.ReadDir(".")
	if err != nil || len(ents) != 3 || ents[0].Name() != "a\xffb" || ents[1].Name() != "d\xfe" || ents[2].Name() != "l\xfe" {
		t.Errorf("ReadDir = %v, %v", ents, err)
	}
	dirs, last, ok, err := c.Walk(".", "", true, nil)
	if err != nil || !ok || last != "" || len(dirs["d\xfe"]) != 1 || dirs["d\xfe"][0].Name() != "n\xfd" {
		t.Errorf("Walk = %v, %q, %v, %v", dirs, last, ok, err)
	}
	// Going on after a directory named in bytes: nothing comes after d\xfe.
	if dirs, last, ok, err := c.Walk(".", "d\xfe", true, nil); err != nil || !ok || last != "" || len(dirs) != 0 {
		t.Errorf("Walk after d\\xfe = %v, %q, %v, %v", dirs, last, ok, err)
	}
	if target, err := c.Readlink("l\xfe"); err != nil || target != "t\xff" {
		t.Errorf("Readlink = %q, %v", target, err)
	}
	if err := c.Rename("a\xffb", "b\xffa"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Stat("b\xffa"); err != nil {
		t.Errorf("Stat after rename: %v", err)
	}
	if err := c.Remove("b\xffa"); err != nil {
		t.Errorf("Remove: %v", err)
	}

	old := vfstest.SessionNoHello(t, cfg)
	if _, err := old.Open("l\xfe"); !errors.Is(err, syscall.EILSEQ) {
		t.Errorf("Open without byte_names: %v, want EILSEQ", err)
	}
}
