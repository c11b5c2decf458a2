package vfsclient_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// TestReadFile: ReadFile reads a file's first bytes in one request, says
// whether they are all of it, fails as Open fails, and reads into the
// caller's buffer only.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("0123456789", 10000)
	for name, data := range map[string]string{"small": "hello\n", "big": big, "empty": ""} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := vfstest.Session(t, vfsd.Config{Inputs: []string{dir}, Dir: dir})
	p := make([]byte, 64<<10)
	for _, tc := range []struct {
		name  string
		data  string
		whole bool
	}{
		{"small", "hello\n", true},
		{"empty", "", true},
		{"big", big[:len(p)], false},
	} {
		n, whole, ok, err := c.ReadFile(filepath.Join(dir, tc.name), p)
		if !ok || err != nil || string(p[:n]) != tc.data || whole != tc.whole {
			t.Errorf("ReadFile %s: %d bytes, whole %v, ok %v, %v; want %d bytes, whole %v", tc.name, n, whole, ok, err, len(tc.data), tc.whole)
		}
	}
	_, _, ok, err := c.ReadFile(filepath.Join(dir, "nope"), p)
	var pe *fs.PathError
	if !ok || !errors.As(err, &pe) || pe.Op != "open" || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile of a missing file: ok %v, %v; want open's ENOENT", ok, err)
	}
	_, openErr := c.Open(filepath.Join(dir, "nope"))
	if err == nil || openErr == nil || err.Error() != openErr.Error() {
		t.Errorf("ReadFile's error %v, Open's %v", err, openErr)
	}
	if _, _, ok, _ := c.ReadFile(filepath.Join(dir, "small"), nil); ok {
		t.Error("ReadFile into an empty buffer asked vfsd")
	}
}

// TestReadTail: ReadTail reads a file's last bytes and its stat in one
// request, says where they start, fails as Open fails, and reads into
// the caller's buffer only.
func TestReadTail(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("0123456789", 10000)
	for name, data := range map[string]string{"small": "hello\n", "big": big, "empty": ""} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := vfstest.Session(t, vfsd.Config{Inputs: []string{dir}, Dir: dir})
	p := make([]byte, 64<<10)
	for _, tc := range []struct {
		name string
		data string
		off  int64
	}{
		{"small", "hello\n", 0},
		{"empty", "", 0},
		{"big", big[len(big)-len(p):], int64(len(big) - len(p))},
	} {
		n, off, fi, ok, err := c.ReadTail(filepath.Join(dir, tc.name), p)
		if !ok || err != nil || string(p[:n]) != tc.data || off != tc.off || fi == nil ||
			!fi.Mode().IsRegular() || fi.Size() != off+int64(n) || fi.Name() != tc.name {
			t.Errorf("ReadTail %s: %d bytes from %d, %v, ok %v, %v; want %d bytes from %d", tc.name, n, off, fi, ok, err, len(tc.data), tc.off)
		}
	}
	for _, name := range []string{"nope", "."} {
		_, _, _, ok, err := c.ReadTail(filepath.Join(dir, name), p)
		_, openErr := c.Open(filepath.Join(dir, name))
		var pe *fs.PathError
		if !ok || !errors.As(err, &pe) || pe.Op != "open" || openErr == nil || err.Error() != openErr.Error() {
			t.Errorf("ReadTail of %s: ok %v, %v; want Open's %v", name, ok, err, openErr)
		}
	}
	if _, _, _, ok, _ := c.ReadTail(filepath.Join(dir, "small"), nil); ok {
		t.Error("ReadTail into an empty buffer asked vfsd")
	}
}
