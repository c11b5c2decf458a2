package vfsd

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmsh/llmsh/vfsproto"
)

// treeLayout adds to the standard tree: out/d (empty dir), out/full/f
// (non-empty dir), out/esc (symlink to secret), out/loop -> out/d (link
// inside the tree), a virtual file /virt/v.txt.
func treeLayout(t *testing.T) (tree, *client) {
	t.Helper()
	tr := newTree(t)
	for _, d := range []string{"d", "d2", "d3", "d4"} {
		if err := os.Mkdir(filepath.Join(tr.out, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(tr.out, "full", "f"), "f\n")
	writeFile(t, filepath.Join(tr.out, "x.txt"), "x\n")
	if err := os.Symlink(tr.secret, filepath.Join(tr.out, "esc")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("d", filepath.Join(tr.out, "inlink")); err != nil {
		t.Fatal(err)
	}
	c := connect(t, newServer(t, tr.config()))
	c.mkdirAll("/virt")
	c.put("/virt/v.txt", "w", "virtual")
	c.put("/virt/w.txt", "w", "w")
	return tr, c
}

// TestTreeOpCodes checks the answer code of every tree operation over the
// policy's cases.
func TestTreeOpCodes(t *testing.T) {
	tr, c := treeLayout(t)
	c.mkdirAll("/virt2")
	cases := []struct {
		name, op, params string
		want             vfsproto.Code
		msg              string
	}{
		{"mkdir ok", "mkdir", `{"path":"out/new"}`, "", ""},
		{"mkdir mode", "mkdir", `{"path":"out/new700","mode":448}`, "", ""},
		{"mkdir bad mode", "mkdir", `{"path":"out/bad","mode":4096}`, vfsproto.EArg, "invalid mode"},
		{"mkdir exists", "mkdir", `{"path":"out/d"}`, vfsproto.EArg, "file exists"},
		{"mkdir exists file", "mkdir", `{"path":"out/x.txt"}`, vfsproto.EArg, "file exists"},
		{"mkdir grant root", "mkdir", `{"path":"out"}`, vfsproto.EArg, "file exists"},
		{"mkdir ancestor", "mkdir", `{"path":"."}`, vfsproto.EArg, "file exists"},
		{"mkdir missing parent", "mkdir", `{"path":"out/no/such"}`, vfsproto.ENoEnt, ""},
		{"mkdir read-only", "mkdir", `{"path":"in/new"}`, vfsproto.EPerm, ""},
		{"mkdir outside", "mkdir", `{"path":"secret/new"}`, vfsproto.ENoEnt, "no such file or directory"},
		{"mkdir virtual space", "mkdir", `{"path":"/virt/dir"}`, "", ""},
		{"mkdir virtual exists", "mkdir", `{"path":"/virt/dir"}`, vfsproto.EArg, "file exists"},
		{"mkdir virtual missing parent", "mkdir", `{"path":"/nowhere/dir"}`, vfsproto.ENoEnt, "no such file or directory"},
		{"mkdir under virtual file", "mkdir", `{"path":"/virt/w.txt/d"}`, vfsproto.ENoEnt, "not a directory"},
		{"mkdir standing tmp", "mkdir", `{"path":"/tmp"}`, vfsproto.EArg, "file exists"},
		{"mkdir dotdot escape", "mkdir", `{"path":"out/../secret/new"}`, vfsproto.EPerm, ""},
		{"mkdir symlink escape", "mkdir", `{"path":"out/esc/new"}`, vfsproto.EPerm, ""},
		{"mkdir through inner link", "mkdir", `{"path":"out/inlink/sub"}`, "", ""},
		{"mkdir missing path", "mkdir", `{}`, vfsproto.EArg, ""},
		{"mkdir NUL", "mkdir", `{"path":"out/a\u0000b"}`, vfsproto.EPerm, ""},
		{"remove file", "remove", `{"path":"out/o.txt"}`, "", ""},
		{"remove empty dir", "remove", `{"path":"out/d2"}`, "", ""},
		{"remove non-empty dir", "remove", `{"path":"out/full"}`, vfsproto.EArg, "directory not empty"},
		{"remove missing", "remove", `{"path":"out/none"}`, vfsproto.ENoEnt, ""},
		{"remove read-only", "remove", `{"path":"in/a.txt"}`, vfsproto.EPerm, ""},
		{"remove outside", "remove", `{"path":"secret/s.txt"}`, vfsproto.ENoEnt, ""},
		{"remove outside missing", "remove", `{"path":"/nonexistent/x"}`, vfsproto.ENoEnt, ""},
		{"remove standing tmp", "remove", `{"path":"/tmp"}`, vfsproto.EPerm, ""},
		{"remove grant root", "remove", `{"path":"out"}`, vfsproto.EPerm, ""},
		{"remove ancestor", "remove", `{"path":"` + tr.dir + `"}`, vfsproto.EPerm, ""},
		{"remove root", "remove", `{"path":"/"}`, vfsproto.EPerm, ""},
		{"remove dotdot escape", "remove", `{"path":"out/../secret/s.txt"}`, vfsproto.EPerm, ""},
		{"remove symlink escape", "remove", `{"path":"out/esc/s.txt"}`, vfsproto.EPerm, ""},
		{"remove virtual", "remove", `{"path":"/virt/w.txt"}`, "", ""},
		{"remove virtual dir", "remove", `{"path":"/virt"}`, vfsproto.EArg, "directory not empty"},
		{"remove virtual gone", "remove", `{"path":"/virt/w.txt"}`, vfsproto.ENoEnt, ""},
		{"rename ok", "rename", `{"from":"out/x.txt","to":"out/d/y.txt"}`, "", ""},
		{"rename missing", "rename", `{"from":"out/x.txt","to":"out/z"}`, vfsproto.ENoEnt, ""},
		{"rename dir over non-empty", "rename", `{"from":"out/d","to":"out/full"}`, vfsproto.EArg, "directory not empty"},
		{"rename file over dir", "rename", `{"from":"out/d/y.txt","to":"out/full"}`, vfsproto.EArg, "is a directory"},
		{"rename dir over empty dir", "rename", `{"from":"out/d3","to":"out/d4"}`, "", ""},
		{"rename from read-only", "rename", `{"from":"in/a.txt","to":"out/a"}`, vfsproto.EPerm, ""},
		{"rename to read-only", "rename", `{"from":"out/d/y.txt","to":"in/y"}`, vfsproto.EPerm, ""},
		{"rename from outside", "rename", `{"from":"secret/s.txt","to":"out/s"}`, vfsproto.ENoEnt, ""},
		{"rename to outside", "rename", `{"from":"out/d/y.txt","to":"secret/y"}`, vfsproto.EArg, "cross-device link"},
		{"rename grant root", "rename", `{"from":"out","to":"out2"}`, vfsproto.EPerm, ""},
		{"rename onto grant root", "rename", `{"from":"out/d","to":"out"}`, vfsproto.EPerm, ""},
		{"rename dotdot escape", "rename", `{"from":"out/d/y.txt","to":"out/../secret/y"}`, vfsproto.EPerm, ""},
		{"rename symlink escape to", "rename", `{"from":"out/d/y.txt","to":"out/esc/y"}`, vfsproto.EPerm, ""},
		{"rename symlink escape from", "rename", `{"from":"out/esc/s.txt","to":"out/s"}`, vfsproto.EPerm, ""},
		{"rename missing to", "rename", `{"from":"out/d/y.txt"}`, vfsproto.EArg, ""},
		{"rename virtual into a missing directory", "rename", `{"from":"/virt/v.txt","to":"/virt3/v.txt"}`, vfsproto.ENoEnt, "no such file or directory"},
		{"rename virtual", "rename", `{"from":"/virt/v.txt","to":"/virt2/v.txt"}`, "", ""},
		{"rename virtual into grant", "rename", `{"from":"/virt2/v.txt","to":"out/v.txt"}`, vfsproto.EArg, "cross-device link"},
		{"rename virtual to read-only", "rename", `{"from":"/virt2/v.txt","to":"in/v.txt"}`, vfsproto.EPerm, ""},
		{"utimes ok", "utimes", `{"path":"out/full/f","atime":1000000000,"mtime":2000000000}`, "", ""},
		{"utimes mtime only", "utimes", `{"path":"out/full","mtime":3000000000}`, "", ""},
		{"utimes grant root", "utimes", `{"path":"out","mtime":3000000000}`, "", ""},
		{"utimes missing", "utimes", `{"path":"out/none","mtime":1}`, vfsproto.ENoEnt, ""},
		{"utimes read-only", "utimes", `{"path":"in/a.txt","mtime":1}`, vfsproto.EPerm, ""},
		{"utimes outside", "utimes", `{"path":"secret/s.txt","mtime":1}`, vfsproto.ENoEnt, ""},
		{"utimes ancestor", "utimes", `{"path":"/","mtime":1}`, vfsproto.EPerm, ""},
		{"utimes symlink escape", "utimes", `{"path":"out/esc/s.txt","mtime":1}`, vfsproto.EPerm, ""},
		{"utimes virtual", "utimes", `{"path":"/virt2/v.txt","mtime":5000000000}`, "", ""},
		{"utimes bad type", "utimes", `{"path":"out/full","mtime":"x"}`, vfsproto.EArg, ""},
		{"lstat link", "lstat", `{"path":"out/esc"}`, "", ""},
		{"lstat outside", "lstat", `{"path":"secret/s.txt"}`, vfsproto.ENoEnt, ""},
		{"lstat missing", "lstat", `{"path":"out/none"}`, vfsproto.ENoEnt, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var params json.RawMessage
			if tc.params != "" {
				params = json.RawMessage(tc.params)
			}
			resp := c.call(tc.op, params)
			var got vfsproto.Code
			if !resp.OK {
				got = resp.Error.Code
				if strings.Contains(resp.Error.Message, tr.dir) {
					t.Fatalf("message reveals host path: %q", resp.Error.Message)
				}
				if tc.msg != "" && resp.Error.Message != tc.msg {
					t.Fatalf("message %q, want %q", resp.Error.Message, tc.msg)
				}
			}
			if got != tc.want {
				t.Fatalf("code %q (%v), want %q", got, resp.Error, tc.want)
			}
		})
	}

	// The effects, checked on the host.
	exists := func(p string) bool { _, err := os.Lstat(filepath.Join(tr.dir, p)); return err == nil }
	for _, p := range []string{"out/new", "out/d/y.txt", "out/d/sub", "out/full/f", "in/a.txt", "secret/s.txt", "out/esc", "out/d4"} {
		if !exists(p) {
			t.Errorf("%s missing", p)
		}
	}
	for _, p := range []string{"out/o.txt", "out/d2", "out/x.txt", "secret/new", "in/new", "out/bad", "out/d3"} {
		if exists(p) {
			t.Errorf("%s exists", p)
		}
	}
	if fi, err := os.Stat(filepath.Join(tr.out, "new700")); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("new700: %v %v", fi, err)
	}
	if fi, err := os.Stat(filepath.Join(tr.out, "full", "f")); err != nil || !fi.ModTime().Equal(time.Unix(2, 0)) {
		t.Errorf("utimes: %v %v", fi, err)
	}
	if fi, err := os.Stat(filepath.Join(tr.out, "full")); err != nil || !fi.ModTime().Equal(time.Unix(3, 0)) {
		t.Errorf("utimes dir: %v %v", fi, err)
	}
	var st vfsproto.StatResult
	c.ok("lstat", map[string]string{"path": "out/esc"}, &st)
	if !st.Symlink {
		t.Errorf("lstat link = %+v", st)
	}
	st = vfsproto.StatResult{}
	c.ok("lstat", map[string]string{"path": "out/d"}, &st)
	if st.Symlink || !st.IsDir {
		t.Errorf("lstat dir = %+v", st)
	}
	c.ok("stat", map[string]string{"path": "/virt2/v.txt"}, &st)
	if st.Mtime != 5000000000 || st.Size != 7 {
		t.Errorf("virtual after rename/utimes = %+v", st)
	}
	if got := c.cat("/virt2/v.txt"); got != "virtual" {
		t.Errorf("virtual content %q", got)
	}
	var vr vfsproto.VirtualsResult
	c.ok("virtual_files", nil, &vr)
	if len(vr.Files) != 2 || vr.Files[0] != (vfsproto.VirtualFile{Path: "/virt/dir/", Dir: true}) || vr.Files[1].Path != "/virt2/v.txt" {
		t.Errorf("virtual files %+v", vr.Files)
	}
}

// TestTreeOpsStrictAndBudget: strict mode refuses virtual targets, and a
// removed virtual file gives its bytes back to the budget.
func TestTreeOpsStrictAndBudget(t *testing.T) {
	tr := newTree(t)
	cfg := tr.config()
	cfg.Strict = true
	c := connect(t, newServer(t, cfg))
	if code := c.code("rename", vfsproto.RenameParams{From: "out/o.txt", To: "/elsewhere"}); code != vfsproto.EPerm {
		t.Errorf("strict rename out: %q", code)
	}

	cfg = tr.config()
	cfg.MaxVirtualBytes = 10
	s := newServer(t, cfg)
	c = connect(t, s)
	c.mkdirAll("/v")
	c.put("/v/a", "w", "0123456789")
	if code := c.code("open", vfsproto.OpenParams{Path: "/v/b", Mode: "w"}); code != "" {
		t.Fatalf("open b: %q", code)
	}
	c.ok("remove", vfsproto.PathParams{Path: "/v/a"}, nil)
	c.put("/v/c", "w", "0123456789")
	if st := s.Stats(); st.VirtualBytes != 10 {
		t.Errorf("virtual bytes %d", st.VirtualBytes)
	}
	c.put("/v/d", "w", "")
	c.ok("rename", vfsproto.RenameParams{From: "/v/c", To: "/v/d"}, nil)
	if st := s.Stats(); st.VirtualBytes != 10 || st.VirtualFiles != 2 {
		t.Errorf("after rename over: %+v", st)
	}
	if code := c.code("rename", vfsproto.RenameParams{From: "/v/d", To: "/v/b/x"}); code != vfsproto.ENoEnt {
		t.Errorf("rename under a file: %q", code)
	}
	if code := c.code("rename", vfsproto.RenameParams{From: "/v/d", To: "/v"}); code != vfsproto.EArg {
		t.Errorf("rename onto a virtual dir: %q", code)
	}
}

// TestTreeOpsSingleFileGrant: a granted file is itself never removed or
// renamed, nor turned into a directory.
func TestTreeOpsSingleFileGrant(t *testing.T) {
	tr := newTree(t)
	one := filepath.Join(tr.secret, "s.txt")
	c := connect(t, newServer(t, Config{Outputs: []string{one}, Dir: tr.dir}))
	for _, tc := range []struct{ op, params string }{
		{"remove", `{"path":"secret/s.txt"}`},
		{"rename", `{"from":"secret/s.txt","to":"secret/t.txt"}`},
		{"mkdir", `{"path":"secret/s.txt"}`},
		{"remove", `{"path":"secret"}`},
	} {
		resp := c.call(tc.op, json.RawMessage(tc.params))
		if resp.OK || resp.Error.Code != vfsproto.EPerm {
			t.Errorf("%s %s: %+v", tc.op, tc.params, resp.Error)
		}
	}
	c.ok("utimes", json.RawMessage(`{"path":"secret/s.txt","mtime":1000}`), nil)
	if readFile(t, one) != "secret\n" {
		t.Fatal("granted file changed")
	}
}

// TestTreeOpsLogged: tree operations, refused ones included, are in the
// audit log with their paths (rename with its target).
func TestTreeOpsLogged(t *testing.T) {
	tr := newTree(t)
	var log strings.Builder
	cfg := tr.config()
	cfg.Log = &syncWriter{w: &log}
	c := connect(t, newServer(t, cfg))
	c.ok("rename", vfsproto.RenameParams{From: "out/o.txt", To: "out/p.txt"}, nil)
	c.code("remove", vfsproto.PathParams{Path: "secret/s.txt"})
	c.hangUp()
	got := log.String()
	for _, want := range []string{`"op":"rename","path":"out/o.txt","to":"out/p.txt"`, `"op":"remove","path":"secret/s.txt"`, `"code":"E_NOENT"`} {
		if !strings.Contains(got, want) {
			t.Errorf("log lacks %s:\n%s", want, got)
		}
	}
}

// syncWriter serialises writes to w.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// TestChmodOp: chmod sets permission bits inside -o trees only, never on a
// directory grant or an ancestor, never special bits, and keeps virtual
// files' bits for stat.
func TestChmodOp(t *testing.T) {
	tr, c := treeLayout(t)
	for _, tc := range []struct {
		name, params string
		want         vfsproto.Code
		msg          string
	}{
		{"file", `{"path":"out/x.txt","mode":448}`, "", ""},
		{"dir", `{"path":"out/full","mode":493}`, "", ""},
		{"zero", `{"path":"out/o.txt","mode":0}`, "", ""},
		{"through inner link", `{"path":"out/inlink","mode":488}`, "", ""},
		{"setuid", `{"path":"out/x.txt","mode":2541}`, vfsproto.EArg, "invalid mode"},
		{"sticky", `{"path":"out/d","mode":1023}`, vfsproto.EArg, "invalid mode"},
		{"negative", `{"path":"out/x.txt","mode":-1}`, vfsproto.EArg, ""},
		{"missing mode", `{"path":"out/x.txt"}`, vfsproto.EArg, "missing mode"},
		{"missing path", `{"mode":420}`, vfsproto.EArg, "missing path"},
		{"missing file", `{"path":"out/none","mode":420}`, vfsproto.ENoEnt, ""},
		{"read-only", `{"path":"in/a.txt","mode":511}`, vfsproto.EPerm, "path is read-only"},
		{"outside", `{"path":"secret/s.txt","mode":511}`, vfsproto.ENoEnt, "no such file or directory"},
		{"grant root", `{"path":"out","mode":0}`, vfsproto.EPerm, ""},
		{"ancestor", `{"path":"` + tr.dir + `","mode":511}`, vfsproto.EPerm, ""},
		{"dotdot escape", `{"path":"out/../secret/s.txt","mode":511}`, vfsproto.EPerm, ""},
		{"symlink escape", `{"path":"out/esc/s.txt","mode":511}`, vfsproto.EPerm, ""},
		{"symlink to outside", `{"path":"out/esc","mode":511}`, vfsproto.EPerm, ""},
		{"virtual", `{"path":"/virt/v.txt","mode":493}`, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := c.call("chmod", json.RawMessage(tc.params))
			var got vfsproto.Code
			if !resp.OK {
				got = resp.Error.Code
				if tc.msg != "" && resp.Error.Message != tc.msg {
					t.Fatalf("message %q, want %q", resp.Error.Message, tc.msg)
				}
			}
			if got != tc.want {
				t.Fatalf("code %q (%v), want %q", got, resp.Error, tc.want)
			}
		})
	}
	for p, want := range map[string]os.FileMode{"out/x.txt": 0o700, "out/full": 0o755, "out/o.txt": 0, "out/d": 0o750, "in/a.txt": 0o644, "secret/s.txt": 0o644} {
		fi, err := os.Stat(filepath.Join(tr.dir, p))
		if err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v (%v), want %v", p, fi.Mode().Perm(), err, want)
		}
	}
	if fi, err := os.Stat(tr.out); err != nil || fi.Mode().Perm() == 0 {
		t.Errorf("grant root changed: %v %v", fi, err)
	}
	var st vfsproto.StatResult
	c.ok("stat", map[string]string{"path": "/virt/v.txt"}, &st)
	if st.Mode != 0o755 {
		t.Errorf("virtual mode %o", st.Mode)
	}
	c.ok("chmod", json.RawMessage(`{"path":"/virt/v.txt","mode":0}`), nil)
	c.ok("stat", map[string]string{"path": "/virt/v.txt"}, &st)
	if st.Mode != 0 {
		t.Errorf("virtual mode after 0: %o", st.Mode)
	}
	var h vfsproto.HelloResult
	c.ok("hello", vfsproto.HelloParams{Version: 1}, &h)
	if !slices.Contains(h.Ops, "chmod") {
		t.Errorf("hello ops lack chmod: %v", h.Ops)
	}
}

// TestMadeUpDirSize: a directory vfsd makes up (virtual, standing, an
// ancestor of a grant) has the size of an ext4 directory's one block, as
// its blocks say, so that `test -s` and `stat -c %s` agree with a real
// directory's (session 27).
func TestMadeUpDirSize(t *testing.T) {
	_, c := treeLayout(t)
	for _, p := range []string{"/virt", "/", vfsproto.HomeDir, "/tmp"} {
		var st vfsproto.StatResult
		c.ok("stat", map[string]string{"path": p}, &st)
		if !st.IsDir || st.Size != 4096 {
			t.Errorf("stat %s = %+v, want a directory of 4096 bytes", p, st)
		}
	}
}
