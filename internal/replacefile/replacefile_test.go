package replacefile_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	. "github.com/llmsh/llmsh/internal/replacefile"
)

// TestWriteNotThroughLink: a link at the name is replaced, its target
// untouched; a failing write leaves the old file and no temp file.
func TestWriteNotThroughLink(t *testing.T) {
	dir := t.TempDir()
	victim, name := filepath.Join(dir, "victim"), filepath.Join(dir, "golden")
	if err := os.WriteFile(victim, []byte("secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, name); err != nil {
		t.Fatal(err)
	}
	if err := Write(name, 0o644, func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "secret\n" {
		t.Fatalf("victim now %q", b)
	}
	fi, err := os.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o644 {
		t.Fatalf("golden: %v %v", fi, err)
	}
	bad := errors.New("bad")
	if err := Write(name, 0o644, func(w io.Writer) error { io.WriteString(w, "half"); return bad }); err != bad {
		t.Fatalf("err %v", err)
	}
	if b, _ := os.ReadFile(name); string(b) != "new\n" {
		t.Fatalf("golden now %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Fatalf("%d entries left", len(ents))
	}
}
