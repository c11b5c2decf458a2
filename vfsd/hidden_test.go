package vfsd

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// TestHiddenFile: a Config.Hidden file inside a writable grant is refused
// (E_PERM) in every mode and by every name (its own, a symlink, a hard
// link), and is left as it was; its neighbours are served.
func TestHiddenFile(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	if err := os.Mkdir(state, 0o700); err != nil {
		t.Fatal(err)
	}
	hist := filepath.Join(state, "history")
	for name, data := range map[string]string{hist: "secret command\n", filepath.Join(dir, "other.txt"): "other\n"} {
		if err := os.WriteFile(name, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("state/history", filepath.Join(dir, "sym")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(hist, filepath.Join(dir, "hard")); err != nil {
		t.Fatal(err)
	}
	s := newServer(t, Config{Outputs: []string{dir}, Hidden: []string{hist, filepath.Join(dir, "absent")}})
	c := connect(t, s)
	for _, name := range []string{hist, "state/history", "sym", "hard", "state/../state/history"} {
		for _, mode := range []vfsproto.Mode{vfsproto.ModeRead, vfsproto.ModeReadWrite, vfsproto.ModeAppend, vfsproto.ModeWrite} {
			p := name
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			if code := c.code(vfsproto.OpOpen, vfsproto.OpenParams{Path: p, Mode: mode}); code != vfsproto.EPerm {
				t.Errorf("open %s %s: %q, want E_PERM", name, mode, code)
			}
		}
	}
	if got := c.readAll(c.open(filepath.Join(dir, "other.txt"), vfsproto.ModeRead)); got != "other\n" {
		t.Fatalf("a neighbour reads %q", got)
	}
	if data, err := os.ReadFile(hist); err != nil || string(data) != "secret command\n" {
		t.Fatalf("the hidden file changed: %q %v", data, err)
	}
}
