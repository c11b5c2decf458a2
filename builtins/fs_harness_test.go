package builtins

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rootFS serves one directory tree through os.Root, as vfsd does for a
// granted -o tree: absolute names must lie inside the root. It lets the
// builtins' own tests run over real files; the shell's tests run the same
// builtins through a real vfsd session.
type rootFS struct {
	dir  string
	root *os.Root
}

func init() {
	testFS = func(t *testing.T, dir string) FS {
		r, err := os.OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		return &rootFS{dir: dir, root: r}
	}
}

func (r *rootFS) rel(name string) (string, error) {
	rel, err := filepath.Rel(r.dir, name)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return rel, nil
}

func (r *rootFS) OpenFile(name string, flag int) (File, error) {
	rel, err := r.rel(name)
	if err != nil {
		return nil, err
	}
	f, err := r.root.OpenFile(rel, flag, 0o644)
	if err != nil {
		return nil, err
	}
	return f, nil
}

func (r *rootFS) Stat(name string) (fs.FileInfo, error) {
	rel, err := r.rel(name)
	if err != nil {
		return nil, err
	}
	return r.root.Stat(rel)
}

func (r *rootFS) ReadDir(name string) ([]fs.DirEntry, error) {
	rel, err := r.rel(name)
	if err != nil {
		return nil, err
	}
	return fs.ReadDir(r.root.FS(), rel)
}
