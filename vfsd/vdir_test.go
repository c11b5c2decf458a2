package vfsd

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// names lists the entries of dir.
func (c *client) names(dir string) []string {
	c.t.Helper()
	var ls vfsproto.ListResult
	c.ok(vfsproto.OpList, vfsproto.PathParams{Path: dir}, &ls)
	var out []string
	for _, e := range ls.Entries {
		n := e.Name
		if e.IsDir {
			n += "/"
		}
		out = append(out, n)
	}
	return out
}

// wantErr checks that op fails with code and, when msg is not empty,
// that message.
func (c *client) wantErr(what, op string, params any, code vfsproto.Code, msg string) {
	c.t.Helper()
	e := c.errOf(op, params)
	if e == nil || e.Code != code || (msg != "" && e.Message != msg) {
		c.t.Errorf("%s: %v, want %s %q", what, e, code, msg)
	}
}

// TestVirtualDirectories: outside the grants, mkdir makes explicit
// virtual directories (the parent must exist: the root, /tmp, a virtual
// directory or an ancestor of a grant), which exist empty until removed,
// are listed and described like real ones, hold files and directories,
// move as a whole, count in the name budget and are named in
// virtual_files while empty. Directories that only hold a written file
// are implicit and go with it.
func TestVirtualDirectories(t *testing.T) {
	// /tmp stands before anything is made in it (with no grant: the
	// test's temporary directories are under /tmp, whose ancestors the
	// grants would make it).
	bare := connect(t, newServer(t, Config{}))
	var st vfsproto.StatResult
	bare.ok(vfsproto.OpStat, vfsproto.PathParams{Path: "/tmp"}, &st)
	if st.Mode != standingStat.Mode || !st.IsDir || st.Mtime == 0 {
		t.Fatalf("stat /tmp = %+v (want its mode and the session's start as mtime)", st)
	}
	if got := bare.names("/tmp"); len(got) != 0 {
		t.Fatalf("ls /tmp = %v", got)
	}
	bare.wantErr("open /tmp", "open", vfsproto.OpenParams{Path: "/tmp", Mode: "w"}, vfsproto.EArg, msgIsDir)
	bare.ok(vfsproto.OpMkdir, vfsproto.MkdirParams{Path: "/tmp/work"}, nil)
	bare.ok(vfsproto.OpStat, vfsproto.PathParams{Path: "/tmp"}, &st)
	if st.Mode != standingStat.Mode || !st.IsDir {
		t.Fatalf("stat /tmp after mkdir /tmp/work = %+v (want its mode kept)", st)
	}
	mt := int64(7_000_000_000)
	bare.ok(vfsproto.OpUtimes, vfsproto.UtimesParams{Path: "/tmp", Mtime: &mt}, nil) // touch /tmp
	bare.wantErr("chmod /tmp", "chmod", vfsproto.ChmodParams{Path: "/tmp", Mode: 0o700}, vfsproto.EPerm, msgPerm)
	bare.wantErr("rmdir /tmp with work", "remove", vfsproto.PathParams{Path: "/tmp"}, vfsproto.EArg, msgNotEmpty)
	bare.ok(vfsproto.OpRemove, vfsproto.PathParams{Path: "/tmp/work"}, nil)
	bare.wantErr("rmdir /tmp", "remove", vfsproto.PathParams{Path: "/tmp"}, vfsproto.EPerm, msgPerm)
	bare.ok(vfsproto.OpStat, vfsproto.PathParams{Path: "/tmp"}, &st)

	tr := newTree(t)
	s := newServer(t, tr.config())
	c := connect(t, s)

	// mkdir, as mkdir -p does it: one level at a time.
	c.wantErr("mkdir without parent", "mkdir", vfsproto.MkdirParams{Path: "/tmp/work/a"}, vfsproto.ENoEnt, msgNoEnt)
	mode := uint32(0o700)
	c.ok(vfsproto.OpMkdir, vfsproto.MkdirParams{Path: "/tmp/work", Mode: &mode}, nil)
	c.ok(vfsproto.OpMkdir, vfsproto.MkdirParams{Path: "/tmp/work/a"}, nil)
	c.ok(vfsproto.OpMkdir, vfsproto.MkdirParams{Path: "/scratch"}, nil) // the root is a parent
	c.ok(vfsproto.OpMkdir, vfsproto.MkdirParams{Path: tr.dir + "/side"}, nil)
	c.wantErr("mkdir again", "mkdir", vfsproto.MkdirParams{Path: "/tmp/work"}, vfsproto.EArg, msgExist)
	st = vfsproto.StatResult{}
	c.ok(vfsproto.OpStat, vfsproto.PathParams{Path: "/tmp/work"}, &st)
	if !st.IsDir || st.Mode != 0o700 || st.Mtime == 0 {
		t.Errorf("stat /tmp/work = %+v", st)
	}
	c.ok(vfsproto.OpLstat, vfsproto.PathParams{Path: "/tmp/work/a"}, &st)
	if !st.IsDir || st.Mode != 0o755 || st.Symlink {
		t.Errorf("lstat /tmp/work/a = %+v", st)
	}
	if _, err := os.Stat(filepath.Join(tr.dir, "side")); err == nil {
		t.Fatal("a virtual directory reached the disk")
	}
	c.put("/tmp/work/a/f.txt", "w", "data")
	if got := c.names("/tmp/work"); !slices.Equal(got, []string{"a/"}) {
		t.Errorf("ls /tmp/work = %v", got)
	}
	if got := c.names("/tmp/work/a"); !slices.Equal(got, []string{"f.txt"}) {
		t.Errorf("ls /tmp/work/a = %v", got)
	}
	if got := c.names(tr.dir); !slices.Equal(got, []string{"in/", "out/", "side/"}) {
		t.Errorf("ls of an ancestor = %v", got)
	}
	if got := c.names("/"); !slices.Contains(got, "scratch/") || !slices.Contains(got, "tmp/") {
		t.Errorf("ls / = %v", got)
	}
	c.wantErr("open a virtual dir", "open", vfsproto.OpenParams{Path: "/tmp/work", Mode: "r"}, vfsproto.EArg, msgIsDir)
	c.wantErr("write a virtual dir", "open", vfsproto.OpenParams{Path: "/tmp/work", Mode: "a"}, vfsproto.EArg, msgIsDir)
	c.wantErr("readlink a virtual dir", "readlink", vfsproto.PathParams{Path: "/tmp/work"}, vfsproto.EArg, msgNotLink)

	// chmod and utimes.
	c.ok(vfsproto.OpChmod, vfsproto.ChmodParams{Path: "/tmp/work/a", Mode: 0o750}, nil)
	c.ok(vfsproto.OpUtimes, vfsproto.UtimesParams{Path: "/tmp/work/a", Mtime: &mt}, nil)
	c.ok(vfsproto.OpStat, vfsproto.PathParams{Path: "/tmp/work/a"}, &st)
	if st.Mode != 0o750 || st.Mtime != mt {
		t.Errorf("after chmod and utimes: %+v", st)
	}
	c.wantErr("chmod an ancestor", "chmod", vfsproto.ChmodParams{Path: tr.dir, Mode: 0o700}, vfsproto.EPerm, msgPerm)

	// rmdir: not while it holds anything.
	c.wantErr("rmdir non-empty", "remove", vfsproto.PathParams{Path: "/tmp/work/a"}, vfsproto.EArg, msgNotEmpty)
	c.ok(vfsproto.OpRemove, vfsproto.PathParams{Path: "/tmp/work/a/f.txt"}, nil)
	if got := c.names("/tmp/work/a"); len(got) != 0 {
		t.Errorf("emptied dir = %v", got) // still there, empty
	}
	c.ok(vfsproto.OpRemove, vfsproto.PathParams{Path: "/tmp/work/a"}, nil)
	c.wantErr("stat removed", "stat", vfsproto.PathParams{Path: "/tmp/work/a"}, vfsproto.ENoEnt, msgNoEnt)

	// A new file outside the grants needs its directory, as open(2) with
	// O_CREAT does: no directory is made for it.
	c.wantErr("write into a missing directory", "open", vfsproto.OpenParams{Path: "/implicit/deep/f", Mode: "w"}, vfsproto.ENoEnt, msgNoEnt)
	c.wantErr("nothing made", "stat", vfsproto.PathParams{Path: "/implicit"}, vfsproto.ENoEnt, msgNoEnt)
	c.put("/tmp/work/f", "w", "x")
	c.wantErr("write under a file", "open", vfsproto.OpenParams{Path: "/tmp/work/f/g", Mode: "w"}, vfsproto.ENoEnt, msgNotDir)
	c.ok(vfsproto.OpRemove, vfsproto.PathParams{Path: "/tmp/work/f"}, nil)

	// The empty explicit directories are named at exit, with a slash.
	var vr vfsproto.VirtualsResult
	c.ok(vfsproto.OpVirtuals, nil, &vr)
	want := []vfsproto.VirtualFile{{Path: tr.dir + "/side/", Dir: true}, {Path: "/scratch/", Dir: true}, {Path: "/tmp/work/", Dir: true}}
	slices.SortFunc(want, func(a, b vfsproto.VirtualFile) int {
		if a.Path < b.Path {
			return -1
		}
		return 1
	})
	if !slices.Equal(vr.Files, want) {
		t.Errorf("virtual_files = %+v, want %+v", vr.Files, want)
	}
	// The ancestors of tr.dir/side are implicit virtual directories too.
	if st := s.Stats(); st.VirtualDirs < 3 || st.VirtualFiles != 0 {
		t.Errorf("stats %+v", st)
	}
}

// TestVirtualDirectoryRename: a virtual directory moves with everything
// under it (open handles follow their files), with rename(2)'s rules for
// the target; into a grant it is a cross-device link (the client copies).
func TestVirtualDirectoryRename(t *testing.T) {
	tr := newTree(t)
	s := newServer(t, tr.config())
	c := connect(t, s)
	c.ok(vfsproto.OpMkdir, vfsproto.MkdirParams{Path: "/tmp/src"}, nil)
	c.ok(vfsproto.OpMkdir, vfsproto.MkdirParams{Path: "/tmp/src/empty"}, nil)
	c.mkdirAll("/tmp/src/sub")
	c.put("/tmp/src/sub/f.txt", "w", "one")
	h := c.open("/tmp/src/g.txt", vfsproto.ModeWrite)
	c.ok(vfsproto.OpMkdir, vfsproto.MkdirParams{Path: "/tmp/dst"}, nil)
	c.ok(vfsproto.OpMkdir, vfsproto.MkdirParams{Path: "/tmp/full"}, nil)
	c.put("/tmp/full/x", "w", "x")
	before := s.Stats()

	c.wantErr("into itself", "rename", vfsproto.RenameParams{From: "/tmp/src", To: "/tmp/src/sub/in"}, vfsproto.EArg, "invalid argument")
	c.wantErr("onto non-empty", "rename", vfsproto.RenameParams{From: "/tmp/src", To: "/tmp/full"}, vfsproto.EArg, msgNotEmpty)
	c.wantErr("onto a file", "rename", vfsproto.RenameParams{From: "/tmp/src", To: "/tmp/full/x"}, vfsproto.ENoEnt, msgNotDir)
	c.wantErr("into a grant", "rename", vfsproto.RenameParams{From: "/tmp/src", To: "out/src"}, vfsproto.EArg, msgXDev)
	c.wantErr("onto /tmp", "rename", vfsproto.RenameParams{From: "/tmp/src", To: "/tmp"}, vfsproto.EPerm, msgPerm)
	c.ok(vfsproto.OpRename, vfsproto.RenameParams{From: "/tmp/src", To: "/tmp/dst"}, nil) // an empty one is replaced

	c.write(h, "two")
	c.ok(vfsproto.OpClose, vfsproto.HandleParams{H: h}, nil)
	if got := c.cat("/tmp/dst/g.txt"); got != "two" {
		t.Errorf("handle did not follow: %q", got)
	}
	if got := c.cat("/tmp/dst/sub/f.txt"); got != "one" {
		t.Errorf("moved file %q", got)
	}
	if got := c.names("/tmp/dst"); !slices.Equal(got, []string{"empty/", "g.txt", "sub/"}) {
		t.Errorf("ls /tmp/dst = %v", got)
	}
	c.wantErr("old name", "stat", vfsproto.PathParams{Path: "/tmp/src"}, vfsproto.ENoEnt, msgNoEnt)
	after := s.Stats()
	// /tmp/dst was replaced: one name less, and "/tmp/src" and "/tmp/dst"
	// are the same length.
	if after.VirtualDirs != before.VirtualDirs-1 || after.VirtualFiles != before.VirtualFiles ||
		after.VirtualNames != before.VirtualNames-entryCost("/tmp/dst") {
		t.Errorf("stats before %+v after %+v", before, after)
	}

	// Past the name budget nothing moves.
	cfg := tr.config()
	cfg.MaxVirtualNameBytes = 4 * entryCost("/tmp/a/f")
	s = newServer(t, cfg)
	c = connect(t, s)
	c.ok(vfsproto.OpMkdir, vfsproto.MkdirParams{Path: "/tmp/a"}, nil)
	c.put("/tmp/a/f", "w", "f")
	c.wantErr("rename past the budget", "rename", vfsproto.RenameParams{From: "/tmp/a", To: "/tmp/a-much-longer-name-than-before-and-then-some"}, vfsproto.ERange, msgNoSpace)
	if got := c.cat("/tmp/a/f"); got != "f" {
		t.Errorf("after a refused rename: %q", got)
	}
	c.ok(vfsproto.OpRemove, vfsproto.PathParams{Path: "/tmp/a/f"}, nil)
	c.ok(vfsproto.OpRemove, vfsproto.PathParams{Path: "/tmp/a"}, nil)
	if st := s.Stats(); st.VirtualNames != 0 || st.VirtualDirs != 0 {
		t.Errorf("budget not given back: %+v", st)
	}
}

// TestVirtualDirectoryBudget: an explicit directory takes entryCost and
// one entry, like a file; past the budget mkdir is "no space left".
func TestVirtualDirectoryBudget(t *testing.T) {
	tr := newTree(t)
	cfg := tr.config()
	cfg.MaxVirtualEntries = 3
	s := newServer(t, cfg)
	c := connect(t, s)
	for _, d := range []string{"/a", "/a/b", "/a/b/c"} {
		c.ok(vfsproto.OpMkdir, vfsproto.MkdirParams{Path: d}, nil)
	}
	c.wantErr("fourth entry", "mkdir", vfsproto.MkdirParams{Path: "/a/d"}, vfsproto.ERange, msgNoSpace)
	c.wantErr("fourth file", "open", vfsproto.OpenParams{Path: "/a/f", Mode: "w"}, vfsproto.ERange, msgNoSpace)
	if st := s.Stats(); st.VirtualDirs != 3 || st.VirtualNames != entryCost("/a")+entryCost("/a/b")+entryCost("/a/b/c") {
		t.Errorf("stats %+v", st)
	}
}

// TestStrictNoVirtualDirectories: under Config.Strict, mkdir outside the
// grants is refused with the reason, and /tmp does not stand.
func TestStrictNoVirtualDirectories(t *testing.T) {
	tr := newTree(t)
	cfg := tr.config()
	cfg.Strict = true
	c := connect(t, newServer(t, cfg))
	c.wantErr("mkdir", "mkdir", vfsproto.MkdirParams{Path: "/scratch"}, vfsproto.EPerm, msgOutside)
	c.wantErr("write", "open", vfsproto.OpenParams{Path: "/x", Mode: "w"}, vfsproto.EPerm, msgOutside)
	c.wantErr("mkdir in read-only", "mkdir", vfsproto.MkdirParams{Path: "in/new"}, vfsproto.EPerm, msgReadOnly)
	bare := connect(t, newServer(t, Config{Strict: true}))
	bare.wantErr("stat /tmp", "stat", vfsproto.PathParams{Path: "/tmp"}, vfsproto.ENoEnt, msgNoEnt)
	bare.wantErr("mkdir /tmp/x", "mkdir", vfsproto.MkdirParams{Path: "/tmp/x"}, vfsproto.EPerm, msgOutside)
}

// TestOutsideIsAbsent: outside the grants, a path that is not virtual
// and not on the way to a grant is absent for every operation that looks
// at it, whether or not the host has it: the same answer for the secret
// that exists and for a name that does not, so that nothing tells them
// apart. A link in a grant leading out stays E_PERM (it is in the tree),
// and so does a ".." out of a grant.
func TestOutsideIsAbsent(t *testing.T) {
	tr := newTree(t)
	if err := os.Symlink(tr.secret, filepath.Join(tr.out, "esc")); err != nil {
		t.Fatal(err)
	}
	c := connect(t, newServer(t, tr.config()))
	for _, p := range []string{filepath.Join(tr.secret, "s.txt"), filepath.Join(tr.secret, "none"), tr.secret, "/etc/passwd", "/nonexistent/x"} {
		for _, req := range []struct {
			op     string
			params any
		}{
			{"open", vfsproto.OpenParams{Path: p, Mode: "r"}},
			{"stat", vfsproto.PathParams{Path: p}},
			{"lstat", vfsproto.PathParams{Path: p}},
			{"list", vfsproto.ListParams{Path: p}},
			{"readlink", vfsproto.PathParams{Path: p}},
			{"remove", vfsproto.PathParams{Path: p}},
			{"rename", vfsproto.RenameParams{From: p, To: "/tmp/r"}},
			{"chmod", vfsproto.ChmodParams{Path: p, Mode: 0o600}},
			{"utimes", vfsproto.UtimesParams{Path: p}},
		} {
			c.wantErr(req.op+" "+p, req.op, req.params, vfsproto.ENoEnt, msgNoEnt)
		}
	}
	c.wantErr("link out of a grant", "open", vfsproto.OpenParams{Path: "out/esc/s.txt", Mode: "r"}, vfsproto.EPerm, msgPerm)
	c.wantErr("stat through link", "stat", vfsproto.PathParams{Path: "out/esc/s.txt"}, vfsproto.EPerm, msgPerm)
	c.wantErr("dotdot out", "open", vfsproto.OpenParams{Path: "in/../secret/s.txt", Mode: "r"}, vfsproto.EPerm, msgPerm)
	c.wantErr("write read-only", "open", vfsproto.OpenParams{Path: "in/a.txt", Mode: "w"}, vfsproto.EPerm, msgReadOnly)
	c.wantErr("missing in a grant", "open", vfsproto.OpenParams{Path: "in/none", Mode: "r"}, vfsproto.ENoEnt, msgNoEnt)
}

// TestHomeDirectory: without --strict, $HOME (vfsproto.HomeDir) and its
// parent stand outside the grants from the start, as /tmp does: listed
// under their parents, described as directories, holding what the
// session makes in them, never removed, renamed or changed in mode. With
// --strict they are absent.
func TestHomeDirectory(t *testing.T) {
	c := connect(t, newServer(t, Config{}))
	for _, d := range []string{"/home", vfsproto.HomeDir} {
		var st vfsproto.StatResult
		c.ok(vfsproto.OpStat, vfsproto.PathParams{Path: d}, &st)
		if !st.IsDir || st.Mode != 0o755 {
			t.Errorf("stat %s = %+v", d, st)
		}
		c.wantErr("open "+d, "open", vfsproto.OpenParams{Path: d, Mode: "w"}, vfsproto.EArg, msgIsDir)
		c.wantErr("mkdir "+d, "mkdir", vfsproto.MkdirParams{Path: d}, vfsproto.EArg, msgExist)
		c.wantErr("chmod "+d, "chmod", vfsproto.ChmodParams{Path: d, Mode: 0o700}, vfsproto.EPerm, msgPerm)
	}
	if got := c.names("/"); !slices.Equal(got, []string{"home/", "tmp/"}) {
		t.Errorf("ls / = %v", got)
	}
	if got := c.names("/home"); !slices.Equal(got, []string{"llmsh/"}) {
		t.Errorf("ls /home = %v", got)
	}
	if got := c.names(vfsproto.HomeDir); len(got) != 0 {
		t.Errorf("ls ~ = %v", got)
	}
	c.ok(vfsproto.OpMkdir, vfsproto.MkdirParams{Path: vfsproto.HomeDir + "/.config"}, nil)
	c.put(vfsproto.HomeDir+"/notes", "w", "data")
	if got := c.names(vfsproto.HomeDir); !slices.Equal(got, []string{".config/", "notes"}) {
		t.Errorf("ls ~ = %v", got)
	}
	c.wantErr("rm -r ~", "remove", vfsproto.PathParams{Path: vfsproto.HomeDir}, vfsproto.EArg, msgNotEmpty)
	c.ok(vfsproto.OpRemove, vfsproto.PathParams{Path: vfsproto.HomeDir + "/.config"}, nil)
	c.ok(vfsproto.OpRemove, vfsproto.PathParams{Path: vfsproto.HomeDir + "/notes"}, nil)
	c.wantErr("rmdir ~", "remove", vfsproto.PathParams{Path: vfsproto.HomeDir}, vfsproto.EPerm, msgPerm)
	c.wantErr("mv ~", "rename", vfsproto.RenameParams{From: vfsproto.HomeDir, To: "/tmp/h"}, vfsproto.EPerm, msgPerm)

	strict := connect(t, newServer(t, Config{Strict: true}))
	strict.wantErr("stat ~ strict", "stat", vfsproto.PathParams{Path: vfsproto.HomeDir}, vfsproto.ENoEnt, msgNoEnt)
	if got := strict.names("/"); len(got) != 0 {
		t.Errorf("ls / strict = %v", got)
	}
}
