package vfsd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// TestErrorCodes sends raw requests to a session where handle 3 reads
// in/a.txt, handle 4 appends to out/o.txt and handle 5 is closed.
func TestErrorCodes(t *testing.T) {
	tr := newTree(t)
	s := newServer(t, tr.config())
	c := connect(t, s)
	if h := c.open("in/a.txt", "r"); h != 3 {
		t.Fatalf("first handle %d, want 3", h)
	}
	c.open("out/o.txt", "a")
	h5 := c.open("in/a.txt", "r")
	c.ok("close", vfsproto.HandleParams{H: h5}, nil)

	cases := []struct {
		name, op, params string
		want             vfsproto.Code
	}{
		{"read ok", "read", `{"h":3,"max":4096}`, ""},
		{"read max 0", "read", `{"h":3,"max":0}`, vfsproto.EArg},
		{"read max negative", "read", `{"h":3,"max":-1}`, vfsproto.EArg},
		{"read max 4097", "read", `{"h":3,"max":4097}`, vfsproto.ERange},
		{"read missing max", "read", `{"h":3}`, vfsproto.EArg},
		{"read missing h", "read", `{"max":1}`, vfsproto.EArg},
		{"read h string", "read", `{"h":"3","max":1}`, vfsproto.EArg},
		{"read null h", "read", `{"h":null,"max":1}`, vfsproto.EArg},
		{"read params array", "read", `[3,1]`, vfsproto.EArg},
		{"read no params", "read", ``, vfsproto.EArg},
		{"read write-only handle", "read", `{"h":4,"max":1}`, vfsproto.EPerm},
		{"read closed handle", "read", `{"h":5,"max":1}`, vfsproto.EClosed},
		{"read never issued", "read", `{"h":99,"max":1}`, vfsproto.ENoEnt},
		{"read negative handle", "read", `{"h":-1,"max":1}`, vfsproto.ENoEnt},
		{"read handle 0", "read", `{"h":0,"max":1}`, vfsproto.EPerm},
		{"write handle 1", "write", `{"h":1,"data":""}`, vfsproto.EPerm},
		{"close handle 2", "close", `{"h":2}`, vfsproto.EPerm},
		{"seek handle 0", "seek", `{"h":0,"offset":0,"whence":"SEEK_SET"}`, vfsproto.EPerm},
		{"stat handle 2", "stat", `{"h":2}`, vfsproto.EPerm},
		{"write read-only handle", "write", `{"h":3,"data":"eA=="}`, vfsproto.EPerm},
		{"write bad base64", "write", `{"h":4,"data":"!!"}`, vfsproto.EArg},
		{"write missing data", "write", `{"h":4}`, vfsproto.EArg},
		{"write closed", "write", `{"h":5,"data":"eA=="}`, vfsproto.EClosed},
		{"write ok", "write", `{"h":4,"data":"eA==","final":true}`, ""},
		{"close closed", "close", `{"h":5}`, vfsproto.EClosed},
		{"close never issued", "close", `{"h":1000}`, vfsproto.ENoEnt},
		{"close missing h", "close", `{}`, vfsproto.EArg},
		{"seek ok", "seek", `{"h":3,"offset":1,"whence":"SEEK_SET"}`, ""},
		{"seek bad whence", "seek", `{"h":3,"offset":0,"whence":"SEEK_XXX"}`, vfsproto.EArg},
		{"seek negative", "seek", `{"h":3,"offset":-10,"whence":"SEEK_SET"}`, vfsproto.EArg},
		{"seek missing whence", "seek", `{"h":3,"offset":0}`, vfsproto.EArg},
		{"seek closed", "seek", `{"h":5,"offset":0,"whence":"SEEK_SET"}`, vfsproto.EClosed},
		{"stat handle", "stat", `{"h":3}`, ""},
		{"stat closed handle", "stat", `{"h":5}`, vfsproto.EClosed},
		{"stat both", "stat", `{"h":3,"path":"in/a.txt"}`, vfsproto.EArg},
		{"stat neither", "stat", `{}`, vfsproto.EArg},
		{"stat path", "stat", `{"path":"in/a.txt"}`, ""},
		{"stat missing in tree", "stat", `{"path":"in/nope"}`, vfsproto.ENoEnt},
		{"stat outside", "stat", `{"path":"secret/s.txt"}`, vfsproto.ENoEnt},
		{"stat outside missing", "stat", `{"path":"secret/none"}`, vfsproto.ENoEnt},
		{"open missing mode", "open", `{"path":"in/a.txt"}`, vfsproto.EArg},
		{"open bad mode", "open", `{"path":"in/a.txt","mode":"x"}`, vfsproto.EArg},
		{"open empty path", "open", `{"path":"","mode":"r"}`, vfsproto.EArg},
		{"open path number", "open", `{"path":1,"mode":"r"}`, vfsproto.EArg},
		{"open missing", "open", `{"path":"in/none","mode":"r"}`, vfsproto.ENoEnt},
		{"open outside read", "open", `{"path":"secret/s.txt","mode":"r"}`, vfsproto.ENoEnt},
		{"open outside read missing", "open", `{"path":"/nonexistent/x","mode":"r"}`, vfsproto.ENoEnt},
		{"open write read-only tree", "open", `{"path":"in/a.txt","mode":"w"}`, vfsproto.EPerm},
		{"open append read-only tree", "open", `{"path":"in/new","mode":"a"}`, vfsproto.EPerm},
		{"open rw read-only tree", "open", `{"path":"in/a.txt","mode":"rw"}`, vfsproto.EPerm},
		{"open dir", "open", `{"path":"in/sub","mode":"r"}`, vfsproto.EArg},
		{"open dir write", "open", `{"path":"out","mode":"w"}`, vfsproto.EArg},
		{"open NUL", "open", `{"path":"in/a.txt\u0000x","mode":"r"}`, vfsproto.EPerm},
		{"open missing parent", "open", `{"path":"out/no/such","mode":"w"}`, vfsproto.ENoEnt},
		{"list missing", "list", `{"path":"in/none"}`, vfsproto.ENoEnt},
		{"list file", "list", `{"path":"in/a.txt"}`, vfsproto.EArg},
		{"list outside", "list", `{"path":"secret"}`, vfsproto.ENoEnt},
		{"list missing path", "list", `{}`, vfsproto.EArg},
		{"create_temp bad prefix", "create_temp", `{"prefix":"a/b"}`, vfsproto.EArg},
		{"hello", "hello", `{"version":1}`, ""},
		{"hello no version", "hello", `{}`, vfsproto.EArg},
		{"hello version string", "hello", `{"version":"1"}`, vfsproto.EArg},
		{"stats", "stats", ``, ""},
		{"virtual_files", "virtual_files", `{}`, ""},
		{"LLMCMD", "LLMCMD", `{}`, vfsproto.EUnsupported},
		{"QUOTA", "QUOTA", ``, vfsproto.EUnsupported},
		{"unknown", "frobnicate", `{}`, vfsproto.EUnsupported},
		{"missing op", "", `{}`, vfsproto.EArg},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id := "t" + string(rune('a'+i%26)) + tc.name
			req := map[string]any{"id": id, "op": tc.op}
			if tc.params != "" {
				req["params"] = json.RawMessage(tc.params)
			}
			b, err := json.Marshal(req)
			if err != nil {
				t.Fatal(err)
			}
			c.send(b)
			resp := c.recv()
			if resp.ID != id {
				t.Fatalf("id %q, want %q", resp.ID, id)
			}
			var got vfsproto.Code
			if !resp.OK {
				got = resp.Error.Code
				if !got.Valid() {
					t.Fatalf("invalid code %q", got)
				}
				if strings.Contains(resp.Error.Message, tr.dir) {
					t.Fatalf("message reveals host path: %q", resp.Error.Message)
				}
			}
			if got != tc.want {
				t.Fatalf("code %q (%v), want %q", got, resp.Error, tc.want)
			}
		})
	}
}

func TestIsADirectoryMessage(t *testing.T) {
	tr := newTree(t)
	c := connect(t, newServer(t, tr.config()))
	for _, tc := range []struct{ path, mode string }{
		{"in/sub", "r"}, {"out", "w"}, {"out", "a"}, {"out", "rw"}, {"in", "r"}, {tr.dir, "r"}, {"/", "w"},
	} {
		resp := c.call("open", map[string]string{"path": tc.path, "mode": tc.mode})
		if resp.OK || resp.Error.Code != vfsproto.EArg || resp.Error.Message != "is a directory" {
			t.Errorf("open %s %s: %+v %v", tc.path, tc.mode, resp, resp.Error)
		}
	}
}

func TestReadWriteSeekStat(t *testing.T) {
	tr := newTree(t)
	c := connect(t, newServer(t, tr.config()))

	if got := c.cat("in/a.txt"); got != "hello\n" {
		t.Fatalf("cat = %q", got)
	}
	if got := c.cat(filepath.Join(tr.in, "sub", "b.txt")); got != "bee\n" {
		t.Fatalf("cat abs = %q", got)
	}

	// Small reads honour max.
	h := c.open("in/a.txt", "r")
	var r vfsproto.ReadResult
	c.ok("read", vfsproto.ReadParams{H: h, Max: 2}, &r)
	if string(r.Data) != "he" || r.EOF {
		t.Fatalf("read 2 = %+v", r)
	}
	var sk vfsproto.SeekResult
	c.ok("seek", vfsproto.SeekParams{H: h, Offset: -2, Whence: vfsproto.SeekEnd}, &sk)
	if sk.Offset != 4 {
		t.Fatalf("seek end-2 = %d", sk.Offset)
	}
	c.ok("seek", vfsproto.SeekParams{H: h, Offset: 1, Whence: vfsproto.SeekCur}, &sk)
	if sk.Offset != 5 {
		t.Fatalf("seek cur+1 = %d", sk.Offset)
	}
	if got := c.readAll(h); got != "\n" {
		t.Fatalf("after seek = %q", got)
	}
	var st vfsproto.StatResult
	c.ok("stat", map[string]int64{"h": h}, &st)
	if st.Size != 6 || st.IsDir || st.Mode != 0o644 || st.Mtime == 0 {
		t.Fatalf("stat h = %+v", st)
	}
	c.ok("stat", map[string]string{"path": "in/sub"}, &st)
	if !st.IsDir {
		t.Fatalf("stat dir = %+v", st)
	}

	// w truncates (atomically), a appends, rw writes in place.
	c.put("out/o.txt", "w", "new")
	if got := readFile(t, filepath.Join(tr.out, "o.txt")); got != "new" {
		t.Fatalf("after w: %q", got)
	}
	c.put("out/o.txt", "a", "+more")
	if got := readFile(t, filepath.Join(tr.out, "o.txt")); got != "new+more" {
		t.Fatalf("after a: %q", got)
	}
	h = c.open("out/o.txt", "rw")
	c.write(h, "NEW")
	c.ok("seek", vfsproto.SeekParams{H: h, Offset: 0, Whence: vfsproto.SeekSet}, &sk)
	if got := c.readAll(h); got != "NEW+more" {
		t.Fatalf("rw read back %q", got)
	}
	c.ok("close", vfsproto.HandleParams{H: h}, nil)
	c.put("out/fresh.txt", "rw", "x")
	c.ok("stat", map[string]string{"path": "out/fresh.txt"}, &st)
	if st.Size != 1 || st.Mode != 0o644 {
		t.Fatalf("new file stat %+v", st)
	}
	// r on a write handle's file after close reads the committed content.
	if got := c.cat("out/fresh.txt"); got != "x" {
		t.Fatalf("fresh = %q", got)
	}
}

func TestHelloStatsVirtuals(t *testing.T) {
	tr := newTree(t)
	s := newServer(t, tr.config())
	c := connect(t, s)
	var hr vfsproto.HelloResult
	c.ok("hello", vfsproto.HelloParams{Version: 1}, &hr)
	if hr.Version != vfsproto.Version || hr.MaxRead != vfsproto.MaxRead || hr.MaxFrame != vfsproto.MaxFrame || len(hr.Ops) != 19 {
		t.Fatalf("hello = %+v", hr)
	}
	c.cat("in/a.txt")
	c.mkdirAll("/elsewhere")
	c.put("/elsewhere/v.txt", "w", "virtual")
	c.code("open", vfsproto.OpenParams{Path: "secret/s.txt", Mode: "r"})
	var st vfsproto.StatsResult
	c.ok("stats", nil, &st)
	if st.Opens != 2 || st.Closes != 2 || st.Reads != 2 || st.Writes != 1 || st.BytesOut != 6 ||
		st.BytesIn != 7 || st.AllowlistReject != 1 || st.Errors != 1 || st.OpenHandles != 0 ||
		st.VirtualFiles != 1 || st.VirtualBytes != 7 || st.Requests != 12 {
		t.Fatalf("stats = %+v", st)
	}
	if st != s.Stats() {
		t.Fatalf("Stats() = %+v, op gave %+v", s.Stats(), st)
	}
	var vr vfsproto.VirtualsResult
	c.ok("virtual_files", nil, &vr)
	if len(vr.Files) != 1 || vr.Files[0] != (vfsproto.VirtualFile{Path: "/elsewhere/v.txt", Size: 7}) {
		t.Fatalf("virtual_files = %+v", vr)
	}
}

// TestFullDiskIsEIO: a full disk or quota (ENOSPC, EDQUOT from a write or
// close of a real file) is E_IO "no space left on device", the words
// vfsclient maps back to ENOSPC; a file over RLIMIT_FSIZE is E_RANGE. The
// errors are made here, not by a full disk: CI has none to fill.
func TestFullDiskIsEIO(t *testing.T) {
	for _, c := range []struct {
		err  error
		code vfsproto.Code
		msg  string
	}{
		{&os.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC}, vfsproto.EIO, "no space left on device"},
		{&os.PathError{Op: "close", Path: "x", Err: syscall.EDQUOT}, vfsproto.EIO, "no space left on device"},
		{&os.PathError{Op: "write", Path: "x", Err: syscall.EFBIG}, vfsproto.ERange, "file too large"},
		{&os.PathError{Op: "read", Path: "x", Err: syscall.EIO}, vfsproto.EIO, "input/output error"},
	} {
		if got := fsError(c.err); got.Code != c.code || got.Message != c.msg {
			t.Errorf("%v: %v, want %s %q", c.err, got, c.code, c.msg)
		}
	}
}
