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
	// Nor is it removed, renamed, replaced by a rename, or changed in
	// mode or times, by any name.
	mtime := int64(1e18)
	other := filepath.Join(dir, "other.txt")
	for _, name := range []string{hist, "hard"} {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		for _, req := range []struct {
			op     string
			params any
		}{
			{vfsproto.OpRemove, vfsproto.PathParams{Path: p}},
			{vfsproto.OpRename, vfsproto.RenameParams{From: p, To: filepath.Join(dir, "moved")}},
			{vfsproto.OpRename, vfsproto.RenameParams{From: other, To: p}},
			{vfsproto.OpChmod, vfsproto.ChmodParams{Path: p, Mode: 0o666}},
			{vfsproto.OpUtimes, vfsproto.UtimesParams{Path: p, Mtime: &mtime}},
		} {
			if code := c.code(req.op, req.params); code != vfsproto.EPerm {
				t.Errorf("%s %+v: %q, want E_PERM", req.op, req.params, code)
			}
		}
	}
	for _, req := range []struct {
		op     string
		params any
	}{
		{vfsproto.OpChmod, vfsproto.ChmodParams{Path: filepath.Join(dir, "sym"), Mode: 0o666}},
		{vfsproto.OpUtimes, vfsproto.UtimesParams{Path: filepath.Join(dir, "sym"), Mtime: &mtime}},
	} {
		if code := c.code(req.op, req.params); code != vfsproto.EPerm {
			t.Errorf("%s through a link %+v: %q, want E_PERM", req.op, req.params, code)
		}
	}
	// The link itself is the script's own: it may go.
	if code := c.code(vfsproto.OpRemove, vfsproto.PathParams{Path: filepath.Join(dir, "sym")}); code != "" {
		t.Errorf("remove sym: %q", code)
	}
	if fi, err := os.Stat(hist); err != nil || fi.Mode().Perm() != 0o600 || fi.ModTime().UnixNano() == mtime {
		t.Fatalf("the hidden file's metadata changed: %v %v", fi, err)
	}
	if got := c.readAll(c.open(filepath.Join(dir, "other.txt"), vfsproto.ModeRead)); got != "other\n" {
		t.Fatalf("a neighbour reads %q", got)
	}
	if data, err := os.ReadFile(hist); err != nil || string(data) != "secret command\n" {
		t.Fatalf("the hidden file changed: %q %v", data, err)
	}
}
