package vfsclient_test

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// TestWalk: Walk lists the directory and those below it as ReadDir (or
// ReadDirTypes, with names) lists each, keyed by path, each entry's Info
// as ReadDir's; a link to a directory is not entered; an error is the
// directory's own, as ReadDir's.
func TestWalk(t *testing.T) {
	c, in, _ := session(t)
	for _, f := range []string{"sub/a/x.txt", "sub/b/y.txt", "new\nline/z"} {
		os.MkdirAll(filepath.Join(in, filepath.Dir(f)), 0o755)
		os.WriteFile(filepath.Join(in, f), []byte("data\n"), 0o644)
	}
	os.Symlink("sub", filepath.Join(in, "tosub"))
	for _, names := range []bool{false, true} {
		var described atomic.Bool
		dirs, last, ok, err := c.Walk(in, "", names, &described)
		if !ok || err != nil || last != "" {
			t.Fatalf("Walk: %q, %v, %v", last, ok, err)
		}
		want := []string{in, filepath.Join(in, "new\nline"), filepath.Join(in, "sub"), filepath.Join(in, "sub", "a"), filepath.Join(in, "sub", "b")}
		if len(dirs) != len(want) {
			t.Fatalf("Walk names=%v: %d directories, want %q", names, len(dirs), want)
		}
		for _, dir := range want {
			ents, listed := dirs[dir]
			full, err := c.ReadDir(dir)
			if !listed || err != nil || len(ents) != len(full) {
				t.Fatalf("Walk names=%v: %s: %d entries (%v), ReadDir %d (%v)", names, dir, len(ents), listed, len(full), err)
			}
			for i, e := range ents {
				fi, err := e.Info()
				wi, werr := full[i].Info()
				if e.Name() != full[i].Name() || e.Type() != full[i].Type() || err != nil || werr != nil ||
					fi.Mode() != wi.Mode() || fi.Size() != wi.Size() || !fi.ModTime().Equal(wi.ModTime()) {
					t.Errorf("Walk names=%v: %s: %v %v (%v), ReadDir %v %v (%v)", names, dir, e, fi, err, full[i], wi, werr)
				}
			}
		}
		if names != described.Load() {
			t.Errorf("names=%v: described %v after Info of files", names, described.Load())
		}
	}
	_, _, ok, err := c.Walk(filepath.Join(in, "none"), "", true, nil)
	_, rerr := c.ReadDir(filepath.Join(in, "none"))
	if !ok || err == nil || rerr == nil || err.Error() != rerr.Error() {
		t.Errorf("Walk of a missing directory: %v, %v; ReadDir: %v", ok, err, rerr)
	}
}
