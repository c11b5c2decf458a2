package vfsd

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

func TestTraversal(t *testing.T) {
	tr := newTree(t)
	// Symlinks inside in/: one staying inside, several leaving.
	mustSymlink(t, "a.txt", filepath.Join(tr.in, "inside"))
	mustSymlink(t, "../secret/s.txt", filepath.Join(tr.in, "relout"))
	mustSymlink(t, filepath.Join(tr.secret, "s.txt"), filepath.Join(tr.in, "absout"))
	mustSymlink(t, "/proc/self/root", filepath.Join(tr.in, "procroot"))
	mustSymlink(t, "../secret", filepath.Join(tr.out, "dirout"))
	c := connect(t, newServer(t, tr.config()))

	cases := []struct {
		name, path string
		mode       vfsproto.Mode
		want       vfsproto.Code
	}{
		{"symlink inside", "in/inside", "r", ""},
		{"dotdot inside", "in/sub/../a.txt", "r", ""},
		{"dotdot out of tree", "in/../secret/s.txt", "r", vfsproto.EPerm},
		{"dotdot out of tree write", "out/../secret/new.txt", "w", vfsproto.EPerm},
		{"dotdot past root", "in/../../../../etc/passwd", "r", vfsproto.EPerm},
		{"absolute outside", filepath.Join(tr.secret, "s.txt"), "r", vfsproto.ENoEnt},
		{"absolute etc", "/etc/passwd", "r", vfsproto.ENoEnt},
		{"relative symlink out", "in/relout", "r", vfsproto.EPerm},
		{"absolute symlink out", "in/absout", "r", vfsproto.EPerm},
		{"magic link", "in/procroot/etc/passwd", "r", vfsproto.EPerm},
		{"proc self root", "/proc/self/root/etc/passwd", "r", vfsproto.ENoEnt},
		{"proc self cwd", "/proc/self/cwd/secret/s.txt", "r", vfsproto.ENoEnt},
		{"write through dir symlink out", "out/dirout/s.txt", "w", vfsproto.EPerm},
		{"append through dir symlink out", "out/dirout/s.txt", "a", vfsproto.EPerm},
		{"NUL", "in/a.txt\x00", "r", vfsproto.EPerm},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := c.call("open", vfsproto.OpenParams{Path: tc.path, Mode: tc.mode})
			var got vfsproto.Code
			if !resp.OK {
				got = resp.Error.Code
				if strings.Contains(resp.Error.Message, "secret") || strings.Contains(resp.Error.Message, "/") {
					t.Fatalf("message reveals a path: %q", resp.Error.Message)
				}
			}
			if got != tc.want {
				t.Fatalf("open %q %s = %q %v, want %q", tc.path, tc.mode, got, resp.Error, tc.want)
			}
		})
	}
	if got := readFile(t, filepath.Join(tr.secret, "s.txt")); got != "secret\n" {
		t.Fatalf("secret modified: %q", got)
	}
}

func mustSymlink(t testing.TB, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
}

// TestSymlinkSwapRace swaps a symlink between an inside and an outside
// target while opening through it many times: no open may ever return the
// outside content.
func TestSymlinkSwapRace(t *testing.T) {
	tr := newTree(t)
	link := filepath.Join(tr.in, "swing")
	mustSymlink(t, "a.txt", link)
	c := connect(t, newServer(t, tr.config()))

	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		targets := []string{"a.txt", filepath.Join(tr.secret, "s.txt"), "../secret/s.txt"}
		tmp := link + ".new"
		for i := 0; !stop.Load(); i++ {
			os.Remove(tmp)
			if err := os.Symlink(targets[i%len(targets)], tmp); err != nil {
				t.Error(err)
				return
			}
			if err := os.Rename(tmp, link); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	okCount, permCount := 0, 0
	for range 2000 {
		resp := c.call("open", vfsproto.OpenParams{Path: "in/swing", Mode: "r"})
		if !resp.OK {
			if resp.Error.Code != vfsproto.EPerm && resp.Error.Code != vfsproto.ENoEnt {
				t.Fatalf("unexpected %v", resp.Error)
			}
			permCount++
			continue
		}
		okCount++
		var or vfsproto.OpenResult
		mustUnmarshal(t, resp.Result, &or)
		if got := c.readAll(or.Handle); got != "hello\n" {
			t.Fatalf("read %q through swapped link", got)
		}
		c.ok("close", vfsproto.HandleParams{H: or.Handle}, nil)
	}
	stop.Store(true)
	wg.Wait()
	t.Logf("ok %d, refused %d", okCount, permCount)
}

func TestVirtualFiles(t *testing.T) {
	tr := newTree(t)
	s := newServer(t, tr.config())
	c := connect(t, s)

	// A write outside every allowlist is virtual: readable back, never on disk.
	c.mkdirAll(tr.secret)
	c.put(filepath.Join(tr.secret, "s.txt"), "w", "shadow")
	if got := readFile(t, filepath.Join(tr.secret, "s.txt")); got != "secret\n" {
		t.Fatalf("host file changed: %q", got)
	}
	if got := c.cat(filepath.Join(tr.secret, "s.txt")); got != "shadow" {
		t.Fatalf("virtual read back %q", got)
	}
	c.mkdirAll("/nowhere/deep")
	c.put("/nowhere/deep/v.txt", "a", "one")
	c.put("/nowhere/deep/v.txt", "a", "two")
	if got := c.cat("/nowhere/deep/v.txt"); got != "onetwo" {
		t.Fatalf("append %q", got)
	}
	if _, err := os.Stat("/nowhere"); err == nil {
		t.Fatal("virtual file reached the disk")
	}
	h := c.open("/nowhere/deep/v.txt", "rw")
	c.write(h, "ON")
	c.ok("seek", vfsproto.SeekParams{H: h, Offset: 0, Whence: vfsproto.SeekSet}, nil)
	if got := c.readAll(h); got != "ONetwo" {
		t.Fatalf("rw %q", got)
	}
	var st vfsproto.StatResult
	c.ok("stat", map[string]int64{"h": h}, &st)
	if st.Size != 6 || st.Mode != 0o644 || st.IsDir {
		t.Fatalf("stat h %+v", st)
	}
	c.ok("close", vfsproto.HandleParams{H: h}, nil)
	c.ok("stat", map[string]string{"path": "/nowhere/deep/v.txt"}, &st)
	if st.Size != 6 {
		t.Fatalf("stat path %+v", st)
	}
	c.ok("stat", map[string]string{"path": "/nowhere"}, &st)
	if !st.IsDir {
		t.Fatalf("virtual ancestor %+v", st)
	}
	if code := c.code("open", vfsproto.OpenParams{Path: "/nowhere/deep", Mode: "w"}); code != vfsproto.EArg {
		t.Fatalf("write over virtual dir: %q", code)
	}
	if code := c.code("open", vfsproto.OpenParams{Path: "/nowhere/deep/v.txt/x", Mode: "w"}); code != vfsproto.ENoEnt {
		t.Fatalf("write under virtual file: %q", code)
	}
	if code := c.code("open", vfsproto.OpenParams{Path: "/nowhere/none", Mode: "r"}); code != vfsproto.ENoEnt {
		t.Fatalf("read missing virtual: %q", code)
	}

	// create_temp: rw handle, path reopenable, shared with other clients.
	var ct vfsproto.CreateTempResult
	c.ok("create_temp", vfsproto.CreateTempParams{Prefix: "sort"}, &ct)
	if !strings.HasPrefix(ct.Path, TempDir+"/sort-") {
		t.Fatalf("temp path %q", ct.Path)
	}
	c.write(ct.Handle, "tmp data")
	c.ok("close", vfsproto.HandleParams{H: ct.Handle}, nil)
	c2 := connect(t, s)
	if got := c2.cat(ct.Path); got != "tmp data" {
		t.Fatalf("temp from second client %q", got)
	}
	var vr vfsproto.VirtualsResult
	c2.ok("virtual_files", nil, &vr)
	var paths []string
	for _, f := range vr.Files {
		paths = append(paths, f.Path)
	}
	want := []string{"/nowhere/deep/v.txt", filepath.Join(tr.secret, "s.txt"), ct.Path}
	if !reflect.DeepEqual(paths, sortedCopy(want)) {
		t.Fatalf("virtual_files %v, want %v", paths, sortedCopy(want))
	}
	// The virtual file shows in its parent's listing.
	var lr vfsproto.ListResult
	c2.ok("list", vfsproto.ListParams{Path: "/nowhere/deep"}, &lr)
	if len(lr.Entries) != 1 || lr.Entries[0] != (vfsproto.Entry{Name: "v.txt", Size: 6}) {
		t.Fatalf("list virtual dir %+v", lr)
	}
	// Handles are per client.
	h = c.open("/nowhere/deep/v.txt", "r")
	if code := c2.code("read", vfsproto.ReadParams{H: h, Max: 1}); code != vfsproto.ENoEnt {
		t.Fatalf("other client's handle: %q", code)
	}
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func TestStrictAndBudget(t *testing.T) {
	tr := newTree(t)
	cfg := tr.config()
	cfg.Strict = true
	c := connect(t, newServer(t, cfg))
	for _, mode := range []vfsproto.Mode{"w", "a", "rw"} {
		if code := c.code("open", vfsproto.OpenParams{Path: "/elsewhere/x", Mode: mode}); code != vfsproto.EPerm {
			t.Fatalf("strict %s: %q", mode, code)
		}
	}
	c.put("out/ok.txt", "w", "fine")
	var ct vfsproto.CreateTempResult
	c.ok("create_temp", nil, &ct)
	if !strings.HasPrefix(ct.Path, TempDir+"/tmp-") {
		t.Fatalf("default prefix: %q", ct.Path)
	}

	cfg = tr.config()
	cfg.MaxVirtualBytes = 10
	s := newServer(t, cfg)
	c = connect(t, s)
	c.mkdirAll("/v")
	h := c.open("/v/a", "w")
	c.write(h, "12345678")
	if code := c.code("write", vfsproto.WriteParams{H: h, Data: []byte("abc")}); code != vfsproto.ERange {
		t.Fatalf("over budget: %q", code)
	}
	c.write(h, "90")
	if code := c.code("write", vfsproto.WriteParams{H: h, Data: []byte("x")}); code != vfsproto.ERange {
		t.Fatalf("at budget: %q", code)
	}
	// Overwriting in place costs nothing; truncating frees the budget.
	c.ok("seek", vfsproto.SeekParams{H: h, Whence: vfsproto.SeekSet}, nil)
	c.write(h, "AB")
	c.ok("close", vfsproto.HandleParams{H: h}, nil)
	c.put("/v/a", "w", "")
	c.put("/v/b", "w", "0123456789")
	if st := s.Stats(); st.VirtualBytes != 10 || st.VirtualFiles != 2 {
		t.Fatalf("stats %+v", st)
	}
}

func TestListAndAncestors(t *testing.T) {
	tr := newTree(t)
	writeFile(t, filepath.Join(tr.dir, "single", "f.txt"), "12345")
	writeFile(t, filepath.Join(tr.dir, "single", "hidden.txt"), "no")
	mustSymlink(t, "a.txt", filepath.Join(tr.in, "ln"))
	mustSymlink(t, "../secret/s.txt", filepath.Join(tr.in, "lnout"))
	// A link to a directory inside, one to the secret directory outside,
	// one dangling inside and one to a missing path outside: the two that
	// leave the tree look exactly like the dangling one (is_dir false,
	// size 0), so list reveals no more about them than lstat does.
	mustSymlink(t, "sub", filepath.Join(tr.in, "lnsub"))
	mustSymlink(t, "../secret", filepath.Join(tr.in, "lnsecret"))
	mustSymlink(t, "nothing", filepath.Join(tr.in, "lndangle"))
	mustSymlink(t, "../secret/nothing", filepath.Join(tr.in, "lnoutdangle"))
	cfg := tr.config()
	cfg.Inputs = append(cfg.Inputs, filepath.Join(tr.dir, "single", "f.txt"))
	c := connect(t, newServer(t, cfg))

	list := func(p string) []vfsproto.Entry {
		t.Helper()
		var lr vfsproto.ListResult
		c.ok("list", vfsproto.ListParams{Path: p}, &lr)
		return lr.Entries
	}
	got := list("in")
	want := []vfsproto.Entry{
		{Name: "a.txt", Size: 6}, {Name: "ln", Size: 6, Symlink: true},
		{Name: "lndangle", Symlink: true}, {Name: "lnout", Symlink: true},
		{Name: "lnoutdangle", Symlink: true}, {Name: "lnsecret", Symlink: true},
		{Name: "lnsub", IsDir: true, Symlink: true}, {Name: "sub", IsDir: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("list in = %+v", got)
	}
	// On the wire the field is additive: absent for a plain entry.
	resp := c.call("list", vfsproto.ListParams{Path: "in"})
	raw := string(resp.Result)
	for _, frag := range []string{`{"name":"a.txt","is_dir":false,"size":6}`,
		`{"name":"lnsecret","is_dir":false,"size":0,"symlink":true}`,
		`{"name":"lnsub","is_dir":true,"size":0,"symlink":true}`} {
		if !strings.Contains(raw, frag) {
			t.Errorf("list in: %s lacks %s", raw, frag)
		}
	}
	// The temp dir: only granted children show, never "secret".
	got = list(tr.dir)
	want = []vfsproto.Entry{{Name: "in", IsDir: true}, {Name: "out", IsDir: true}, {Name: "single", IsDir: true}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("list base = %+v", got)
	}
	got = list("single")
	want = []vfsproto.Entry{{Name: "f.txt", Size: 5}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("list single = %+v", got)
	}
	got = list("/") // home, the standing parent of $HOME, and the grants' ancestor
	if len(got) != 2 || got[0].Name != "home" || !got[1].IsDir || !strings.HasPrefix(tr.dir, "/"+got[1].Name+"/") {
		t.Fatalf("list / = %+v", got)
	}
	var st vfsproto.StatResult
	c.ok("stat", map[string]string{"path": "/"}, &st)
	if st != (vfsproto.StatResult{Mode: 0o555, IsDir: true, Size: 4096}) {
		t.Fatalf("stat / = %+v", st)
	}
	c.ok("stat", map[string]string{"path": "single"}, &st)
	if st != (vfsproto.StatResult{Mode: 0o555, IsDir: true, Size: 4096}) {
		t.Fatalf("stat single = %+v", st)
	}
	if code := c.code("open", vfsproto.OpenParams{Path: "single/hidden.txt", Mode: "r"}); code != vfsproto.ENoEnt {
		t.Fatalf("sibling of a granted file: %q", code)
	}
	if code := c.code("stat", map[string]string{"path": "single/hidden.txt"}); code != vfsproto.ENoEnt {
		t.Fatalf("stat sibling: %q", code)
	}
	if got := c.cat("single/f.txt"); got != "12345" {
		t.Fatalf("granted file %q", got)
	}
	if code := c.code("list", vfsproto.ListParams{Path: "/definitely/not/granted"}); code != vfsproto.ENoEnt {
		t.Fatalf("list ungranted: %q", code)
	}
}

func TestSingleFileOutput(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "sib.txt"), "sibling")
	out := filepath.Join(dir, "result.txt")
	c := connect(t, newServer(t, Config{Outputs: []string{out}, Dir: dir, Strict: true}))
	c.put("result.txt", "w", "done")
	if got := readFile(t, out); got != "done" {
		t.Fatalf("result %q", got)
	}
	if code := c.code("open", vfsproto.OpenParams{Path: "sib.txt", Mode: "r"}); code != vfsproto.ENoEnt {
		t.Fatalf("sibling read: %q", code)
	}
	if code := c.code("open", vfsproto.OpenParams{Path: "sib.txt", Mode: "w"}); code != vfsproto.EPerm {
		t.Fatalf("sibling write: %q", code)
	}
	if code := c.code("open", vfsproto.OpenParams{Path: "result.txt/../sib.txt", Mode: "r"}); code != vfsproto.EPerm {
		t.Fatalf("dotdot from granted file: %q", code)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Fatalf("leftover files: %v", entries)
	}
}

func TestNewErrors(t *testing.T) {
	dir := t.TempDir()
	for _, cfg := range []Config{
		{Inputs: []string{filepath.Join(dir, "no", "such", "x")}},
		{Outputs: []string{""}},
		{Inputs: []string{"a\x00b"}},
		{MaxVirtualBytes: -1},
	} {
		if s, err := New(cfg); err == nil {
			s.Close()
			t.Errorf("New(%+v) succeeded", cfg)
		} else if strings.Contains(err.Error(), "\x00") {
			t.Errorf("raw NUL in error %q", err)
		}
	}
}

// TestRootIsADirectory: / is a directory however little is granted (cd /
// and ls / work as on any system): with no grant it lists the standing
// /tmp (nothing at all under --strict), then the virtual files' way; a
// grant of / itself is served as it is.
func TestRootIsADirectory(t *testing.T) {
	strict := connect(t, newServer(t, Config{Strict: true}))
	var st vfsproto.StatResult
	strict.ok(vfsproto.OpStat, vfsproto.PathParams{Path: "/"}, &st)
	if !st.IsDir {
		t.Fatalf("stat / (strict): %+v", st)
	}
	var ls vfsproto.ListResult
	strict.ok(vfsproto.OpList, vfsproto.PathParams{Path: "/"}, &ls)
	if len(ls.Entries) != 0 {
		t.Fatalf("list / with no grant (strict): %+v", ls.Entries)
	}
	c := connect(t, newServer(t, Config{}))
	c.ok(vfsproto.OpStat, vfsproto.PathParams{Path: "/"}, &st)
	if !st.IsDir {
		t.Fatalf("stat /: %+v", st)
	}
	c.ok(vfsproto.OpList, vfsproto.PathParams{Path: "/"}, &ls)
	if len(ls.Entries) != 2 || ls.Entries[0].Name != "home" || ls.Entries[1].Name != "tmp" || !ls.Entries[1].IsDir {
		t.Fatalf("list / with no grant: %+v", ls.Entries)
	}
	c.mkdirAll("/var")
	c.ok(vfsproto.OpClose, vfsproto.HandleParams{H: c.open("/var/v.txt", vfsproto.ModeWrite)}, nil)
	c.ok(vfsproto.OpList, vfsproto.PathParams{Path: "/"}, &ls)
	if len(ls.Entries) != 3 || ls.Entries[1].Name != "tmp" || ls.Entries[2].Name != "var" || !ls.Entries[2].IsDir {
		t.Fatalf("list / over a virtual file: %+v", ls.Entries)
	}
	if code := c.code(vfsproto.OpList, vfsproto.PathParams{Path: "/etc"}); code != vfsproto.ENoEnt {
		t.Fatalf("list /etc: %q, want E_NOENT", code)
	}
	if code := c.code(vfsproto.OpMkdir, vfsproto.PathParams{Path: "/"}); code == "" {
		t.Fatal("mkdir / succeeded")
	}
	if code := c.code(vfsproto.OpRemove, vfsproto.PathParams{Path: "/"}); code == "" {
		t.Fatal("remove / succeeded")
	}
}
