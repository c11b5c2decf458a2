package vfsd

import (
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// TestTrailingSlash: a name ending in "/" (or "/.") must be a directory,
// as the kernel has it: a file, real or virtual, is ENOTDIR for reads,
// stats, listings, writes and tree operations; a new name with a slash
// is EISDIR for a write; a directory is unaffected (issue 18: cat
// in/file.txt/ succeeded).
func TestTrailingSlash(t *testing.T) {
	tr := newTree(t)
	c := connect(t, newServer(t, tr.config()))
	c.mkdirAll("/v")
	c.put("/v/x", "w", "virtual")
	notDir := func(op string, params any) {
		t.Helper()
		if e := c.errOf(op, params); e == nil || e.Code != vfsproto.ENoEnt || e.Message != msgNotDir {
			t.Errorf("%s %+v: %v, want E_NOENT %q", op, params, e, msgNotDir)
		}
	}
	for _, p := range []string{"in/a.txt/", "out/o.txt/", "/v/x/", "in/a.txt/.", "in/sub/b.txt/"} {
		for _, mode := range []vfsproto.Mode{"r", "w", "a", "rw"} {
			notDir("open", vfsproto.OpenParams{Path: p, Mode: mode})
		}
		notDir("stat", vfsproto.PathParams{Path: p})
		notDir("lstat", vfsproto.PathParams{Path: p})
		notDir("list", vfsproto.ListParams{Path: p})
		notDir("remove", vfsproto.PathParams{Path: p})
		notDir("rename", vfsproto.RenameParams{From: p, To: "out/moved"})
		notDir("chmod", vfsproto.ChmodParams{Path: p, Mode: 0o600})
	}
	for _, p := range []string{"out/new/", "/v/new/"} {
		if e := c.errOf("open", vfsproto.OpenParams{Path: p, Mode: "w"}); e == nil || e.Message != msgIsDir {
			t.Errorf("open %s w: %v, want %q", p, e, msgIsDir)
		}
	}
	// Directories with a slash are directories.
	var st vfsproto.StatResult
	for _, p := range []string{"in/", "in/sub/", "out/.", "/v/"} {
		c.ok("stat", vfsproto.PathParams{Path: p}, &st)
		if !st.IsDir {
			t.Errorf("stat %s: %+v", p, st)
		}
	}
	c.ok("list", vfsproto.ListParams{Path: "in/sub/"}, nil)
	c.ok("mkdir", vfsproto.MkdirParams{Path: "out/d/"}, nil)
	c.ok("remove", vfsproto.PathParams{Path: "out/d/"}, nil)
	if got := c.cat("in/a.txt"); got != "hello\n" {
		t.Fatalf("without the slash: %q", got)
	}
}
