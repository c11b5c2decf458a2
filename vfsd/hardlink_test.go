package vfsd

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/llmsh/llmsh/vfsproto"
)

// TestHardLinksRefused: a regular file of an -o tree with other hard
// links is never written through (open w, a, rw, directly or through a
// symbolic link; chmod; utimes): E_PERM with the reason. Its other names
// may lie outside the grants (issue 18: ">>" on such a link changed a file
// outside them). Reading it, and removing or renaming the name in the
// tree, stay allowed; a file whose other names are gone is writable again.
func TestHardLinksRefused(t *testing.T) {
	tr := newTree(t)
	secret := filepath.Join(tr.secret, "s.txt")
	if err := os.Link(secret, filepath.Join(tr.out, "h")); err != nil {
		t.Fatal(err)
	}
	mustSymlink(t, "h", filepath.Join(tr.out, "to-h"))
	// Two names inside the tree are refused as well: vfsd cannot tell
	// where the other names of a file are.
	if err := os.Link(filepath.Join(tr.out, "o.txt"), filepath.Join(tr.out, "o2")); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(secret)
	s := newServer(t, tr.config())
	c := connect(t, s)
	for _, p := range []string{"out/h", "out/to-h", "out/o2", "out/o.txt"} {
		for _, mode := range []vfsproto.Mode{"w", "a", "rw"} {
			e := c.errOf("open", vfsproto.OpenParams{Path: p, Mode: mode})
			if e == nil || e.Code != vfsproto.EPerm || e.Message != vfsproto.MsgHardLinks {
				t.Errorf("open %s %s: %v, want E_PERM %q", p, mode, e, vfsproto.MsgHardLinks)
			}
		}
		if e := c.errOf("chmod", vfsproto.ChmodParams{Path: p, Mode: 0o600}); e == nil || e.Message != vfsproto.MsgHardLinks {
			t.Errorf("chmod %s: %v", p, e)
		}
		mt := time.Now().Add(-time.Hour).UnixNano()
		if e := c.errOf("utimes", vfsproto.UtimesParams{Path: p, Mtime: &mt}); e == nil || e.Message != vfsproto.MsgHardLinks {
			t.Errorf("utimes %s: %v", p, e)
		}
	}
	after, _ := os.Stat(secret)
	if got := readFile(t, secret); got != "secret\n" || after.Mode() != before.Mode() || !after.ModTime().Equal(before.ModTime()) {
		t.Fatalf("the file outside changed: %q %v %v", got, after.Mode(), after.ModTime())
	}
	if got := c.cat("out/h"); got != "secret\n" {
		t.Fatalf("reading a hard-linked file: %q", got)
	}
	// Removing a name frees the other one in the tree; a new file by the
	// removed name is a new file.
	c.ok("remove", vfsproto.PathParams{Path: "out/o2"}, nil)
	c.put("out/o.txt", "a", "more\n")
	c.ok("rename", vfsproto.RenameParams{From: "out/h", To: "out/h2"}, nil)
	c.ok("remove", vfsproto.PathParams{Path: "out/h2"}, nil)
	c.put("out/h", "w", "new\n")
	if readFile(t, filepath.Join(tr.out, "o.txt")) != "old\nmore\n" || readFile(t, secret) != "secret\n" {
		t.Fatal("after the extra names went")
	}
}
