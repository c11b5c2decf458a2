package vfsd

import (
	"bytes"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// beneathTree is newTree with links of every kind under in: inside, to a
// directory, dangling, leaving the tree (relative, absolute, through ".."
// and back), a loop, a magic link of /proc, and a FIFO.
func beneathTree(t *testing.T) (tree, []string) {
	t.Helper()
	tr := newTree(t)
	links := map[string]string{
		"ln":      "a.txt",
		"lnsub":   "sub",
		"dangle":  "nothing",
		"away":    "../secret/s.txt",
		"awaydir": "../secret",
		"back":    "../in/a.txt",
		"abs":     filepath.Join(tr.in, "a.txt"),
		"loop1":   "loop2",
		"loop2":   "loop1",
		"magic":   "/proc/self/root",
		"sub/up":  "../a.txt",
		"sub/out": "../../secret",
	}
	for name, to := range links {
		if err := os.Symlink(to, filepath.Join(tr.in, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(tr.in, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	names := []string{".", "a.txt", "sub", "sub/b.txt", "sub/..", "sub/../a.txt",
		"sub/../../secret/s.txt", "..", "../secret", "nothing", "a.txt/x", "fifo",
		"lnsub/b.txt", "lnsub/..", "sub/up", "sub/out", "sub/out/s.txt", "magic/etc"}
	for name := range links {
		names = append(names, name)
	}
	return tr, names
}

// TestBeneathMatchesRoot: a name resolved by openat2 under a grant's
// directory opens and stats the same file as through its os.Root, or fails
// with the same protocol error: no link leads out by either way.
func TestBeneathMatchesRoot(t *testing.T) {
	tr, names := beneathTree(t)
	root, err := os.OpenRoot(tr.in)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	bn := openBeneath(root)
	if bn.fd < 0 {
		t.Skip("openat2 is not available here")
	}
	defer bn.close()
	for _, name := range names {
		want, werr := root.Stat(name)
		got, gerr := bn.stat(name)
		if !sameOutcome(want, werr, got, gerr) {
			t.Errorf("stat %s: beneath %v, %v; root %v, %v", name, got, gerr, want, werr)
		}
		want, werr = root.Lstat(name)
		got, gerr = lstatIn(&grant{root: root, bn: bn}, name)
		if !sameOutcome(want, werr, got, gerr) {
			t.Errorf("lstat %s: beneath %v, %v; root %v, %v", name, got, gerr, want, werr)
		}
		wf, werr := root.OpenFile(name, os.O_RDONLY|openFlags, 0)
		var wfi os.FileInfo
		if werr == nil {
			wfi, werr = wf.Stat()
			wf.Close()
		}
		fd, gerr := bn.open(name, os.O_RDONLY|openFlags)
		var gfi os.FileInfo
		if gerr == nil {
			gfi, gerr = fstatInfo(fd, name)
			syscall.Close(fd)
		}
		if !sameOutcome(wfi, werr, gfi, gerr) {
			t.Errorf("open %s: beneath %v, %v; root %v, %v", name, gfi, gerr, wfi, werr)
		}
	}
}

// TestBeneathMkdirRemove: mkdir and remove by openat2 and the *at calls
// in the parent do to one copy of beneathTree what os.Root does to
// another, name by name, with the same protocol errors: no link leads a
// new directory or a removal out of the tree.
func TestBeneathMkdirRemove(t *testing.T) {
	trA, names := beneathTree(t)
	trB, _ := beneathTree(t)
	rootA, errA := os.OpenRoot(trA.in)
	rootB, errB := os.OpenRoot(trB.in)
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	defer rootA.Close()
	defer rootB.Close()
	g := &grant{root: rootB, bn: openBeneath(rootB)}
	if g.bn.fd < 0 {
		t.Skip("openat2 is not available here")
	}
	defer g.bn.close()
	errOf := func(err error) vfsproto.Error {
		if err == nil {
			return vfsproto.Error{}
		}
		return *fsError(err)
	}
	errOfE := func(e *vfsproto.Error, ok bool) vfsproto.Error {
		if !ok {
			t.Fatal("openat2 did not answer")
		}
		if e == nil {
			return vfsproto.Error{}
		}
		return *e
	}
	for _, name := range names {
		for _, n := range []string{path.Join(name, "nd"), name} {
			if n == "." || path.Base(n) == ".." {
				continue // no parent of its own: os.Root answers
			}
			want, got := errOf(rootA.Mkdir(n, 0o777)), errOfE(mkdirBeneath(g, n))
			if want != got {
				t.Errorf("mkdir %s: beneath %v; root %v", n, got, want)
			}
		}
	}
	for i := len(names) - 1; i >= 0; i-- {
		n := names[i]
		if n == "." || path.Base(n) == ".." || path.Base(n) == "." {
			continue
		}
		want, got := errOf(rootA.Remove(n)), errOfE(removeBeneath(g, n))
		if want != got {
			t.Errorf("remove %s: beneath %v; root %v", n, got, want)
		}
	}
	for _, name := range names {
		_, werr := rootA.Lstat(name)
		_, gerr := rootB.Lstat(name)
		if errOf(werr) != errOf(gerr) {
			t.Errorf("after: lstat %s: beneath tree %v; root tree %v", name, gerr, werr)
		}
	}
}

// sameOutcome reports whether two stats found the same file, or failed
// with the same protocol error.
func sameOutcome(a os.FileInfo, aerr error, b os.FileInfo, berr error) bool {
	if aerr != nil || berr != nil {
		return aerr != nil && berr != nil && *fsError(aerr) == *fsError(berr)
	}
	as, bs := a.Sys().(*syscall.Stat_t), b.Sys().(*syscall.Stat_t)
	return as.Dev == bs.Dev && as.Ino == bs.Ino && a.Mode() == b.Mode() &&
		a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// TestBeneathServerSame: a server whose grants resolve by openat2 answers
// list, lstat, stat, open and read exactly as one that resolves through
// os.Root alone, on every name of beneathTree and the hidden file.
func TestBeneathServerSame(t *testing.T) {
	tr, names := beneathTree(t)
	writeFile(t, filepath.Join(tr.in, "hidden.txt"), "hide\n")
	if err := os.Symlink("hidden.txt", filepath.Join(tr.in, "tohidden")); err != nil {
		t.Fatal(err)
	}
	names = append(names, "hidden.txt", "tohidden")
	cfg := tr.config()
	cfg.Hidden = []string{filepath.Join(tr.in, "hidden.txt")}
	fast, slow := newServer(t, cfg), newServer(t, cfg)
	for _, g := range slow.pol.grants {
		g.bn.close()
	}
	if fast.pol.grants[0].bn.fd < 0 {
		t.Skip("openat2 is not available here")
	}
	cf, cs := connect(t, fast), connect(t, slow)
	hello := vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureListStat}}
	cf.ok(vfsproto.OpHello, hello, nil)
	cs.ok(vfsproto.OpHello, hello, nil)
	for _, name := range names {
		p := path.Join(tr.in, name)
		for _, rq := range []struct {
			op     string
			params any
		}{
			{vfsproto.OpList, vfsproto.ListParams{Path: p}},
			{vfsproto.OpLstat, vfsproto.PathParams{Path: p}},
			{vfsproto.OpStat, vfsproto.StatParams{Path: &p}},
			{vfsproto.OpOpen, vfsproto.OpenParams{Path: p, Mode: vfsproto.ModeRead}},
		} {
			got, want := cf.call(rq.op, rq.params), cs.call(rq.op, rq.params)
			got.ID, want.ID = "", ""
			gb, _ := json.Marshal(got)
			wb, _ := json.Marshal(want)
			if !bytes.Equal(gb, wb) {
				t.Errorf("%s %s: %s, want %s", rq.op, name, gb, wb)
			}
			if rq.op == vfsproto.OpOpen && got.OK {
				var r vfsproto.OpenResult
				mustUnmarshal(t, got.Result, &r)
				if data := cf.readAll(r.Handle); data != readFile(t, filepath.Join(tr.in, name)) {
					t.Errorf("read %s: %q", name, data)
				}
			}
		}
	}
}
