package vfsd

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

func TestFrameLimits(t *testing.T) {
	tr := newTree(t)
	s := newServer(t, tr.config())

	// Exactly MaxFrame is served.
	c := connect(t, s)
	head := `{"id":"big","op":"stats","params":{},"pad":"`
	pad := strings.Repeat("x", vfsproto.MaxFrame-len(head)-2)
	c.send([]byte(head + pad + `"}`))
	if resp := c.recv(); resp.ID != "big" || !resp.OK {
		t.Fatalf("1 MiB frame: %+v", resp)
	}

	for _, n := range []uint32{vfsproto.MaxFrame + 1, 1<<32 - 1} {
		c := connect(t, s)
		if _, err := c.w.Write(rawFrame(n)); err != nil {
			t.Fatal(err)
		}
		// Serve must close without waiting for (or allocating) the body.
		if err := <-c.done; !errors.Is(err, vfsproto.ErrFrameTooLarge) {
			t.Fatalf("length %d: Serve = %v", n, err)
		}
		c.done = nil
		if _, err := vfsproto.ReadFrame(c.r, nil); err != io.EOF {
			t.Fatalf("length %d: connection not closed: %v", n, err)
		}
	}
}

func TestHugeLengthDoesNotAllocate(t *testing.T) {
	s := newServer(t, Config{Dir: t.TempDir()})
	in := bytes.NewReader(rawFrame(1<<32 - 1))
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	err := s.Serve(in, io.Discard)
	runtime.ReadMemStats(&ms1)
	if !errors.Is(err, vfsproto.ErrFrameTooLarge) {
		t.Fatalf("Serve = %v", err)
	}
	if d := ms1.TotalAlloc - ms0.TotalAlloc; d > 1<<20 {
		t.Fatalf("allocated %d bytes for a rejected frame", d)
	}
}

func TestMalformedFrames(t *testing.T) {
	tr := newTree(t)
	s := newServer(t, tr.config())
	cases := []struct {
		name    string
		payload string
		wantID  string // "" means the connection closes
	}{
		{"truncated json", `{"id":"m1","op":`, "m1"},
		{"id after garbage", `{"op":"read",, "id" : "m2"}`, "m2"},
		{"escaped id", `{"id":"m\"3","op":}`, `m"3`},
		{"params not object", `{"id":"m4","op":"read","params":7}`, "m4"},
		{"id number", `{"id":5,"op":"stats"}`, ""},
		{"garbage", `hello`, ""},
		{"empty", ``, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := connect(t, s)
			c.send([]byte(tc.payload))
			if tc.wantID == "" {
				if err := c.hangUp(); !errors.Is(err, ErrMalformed) {
					t.Fatalf("Serve = %v", err)
				}
				if _, err := vfsproto.ReadFrame(c.r, nil); err != io.EOF {
					t.Fatalf("expected close, got %v", err)
				}
				return
			}
			resp := c.recv()
			if resp.OK || resp.ID != tc.wantID || resp.Error.Code != vfsproto.EArg {
				t.Fatalf("resp %+v %v", resp, resp.Error)
			}
			// The connection stays usable.
			c.ok("stats", nil, nil)
		})
	}
	c := connect(t, s)
	c.w.Write(rawFrame(100))
	c.w.Write([]byte("abc"))
	if err := c.hangUp(); !errors.Is(err, vfsproto.ErrShortFrame) {
		t.Fatalf("short frame: Serve = %v", err)
	}
}

// TestFastPathMatchesJSON checks that the hand-written decoder and encoder
// agree with encoding/json on the canonical read and write shapes.
func TestFastPathMatchesJSON(t *testing.T) {
	cases := []vfsproto.Request{
		{ID: "1", Op: "read", Params: mustJSON(t, vfsproto.ReadParams{H: 3, Max: 4096})},
		{ID: "abc-9", Op: "read", Params: mustJSON(t, vfsproto.ReadParams{H: 12345, Max: 1})},
		{ID: "7", Op: "read_bulk", Params: mustJSON(t, vfsproto.ReadParams{H: 3, Max: 1 << 20})},
		{ID: "8", Op: "write_bulk", Params: mustJSON(t, vfsproto.WriteBulkParams{H: 5, Size: 1 << 20})},
		{ID: "16", Op: "write_shm", Params: mustJSON(t, vfsproto.WriteShmParams{H: 5, Slot: 3, Size: 7})},
		{ID: "17", Op: "close", Params: mustJSON(t, vfsproto.HandleParams{H: 1234})},
		{ID: "9", Op: "read_shm", Params: mustJSON(t, vfsproto.ReadShmParams{H: 3, Max: 1 << 20, Slot: 7})},
		{ID: "10", Op: "read_shm_at", Params: mustJSON(t, vfsproto.ReadShmAtParams{H: 3, Off: 123456789012, Max: 1 << 20, Slot: 7})},
		{ID: "11", Op: "read_shm_at", Params: mustJSON(t, vfsproto.ReadShmAtParams{H: 4, Off: 0, Max: 1, Slot: 0})},
		{ID: "2", Op: "write", Params: mustJSON(t, vfsproto.WriteParams{H: 3, Data: []byte("hello, world")})},
		{ID: "3", Op: "write", Params: mustJSON(t, vfsproto.WriteParams{H: 4, Data: []byte{}, Final: true})},
		{ID: "4", Op: "write", Params: mustJSON(t, vfsproto.WriteParams{H: 4, Data: bytes.Repeat([]byte{0, 255, 7}, 1000)})},
		{ID: "12", Op: "list", Params: mustJSON(t, vfsproto.ListParams{Path: "/work/a b/é"})},
		{ID: "13", Op: "list", Params: mustJSON(t, vfsproto.ListParams{Path: ""})},
		{ID: "16", Op: "list", Params: mustJSON(t, vfsproto.ListParams{Path: "/work/a b", Names: true})},
		{ID: "14", Op: "read_file", Params: mustJSON(t, vfsproto.ReadFileParams{Path: "src/main.go", Max: 65536})},
		{ID: "15", Op: "read_file", Params: mustJSON(t, vfsproto.ReadFileParams{Path: "x", Max: 0})},
		{ID: "25", Op: "read_files", Params: mustJSON(t, vfsproto.ReadFilesParams{Paths: []string{"src/main.go", "a b/é", ""}, Max: 65536})},
		{ID: "26", Op: "read_files", Params: mustJSON(t, vfsproto.ReadFilesParams{Paths: []string{"x"}, Max: 1})},
		{ID: "18", Op: "open", Params: mustJSON(t, vfsproto.OpenParams{Path: "out/a b/é", Mode: vfsproto.ModeAppend, H: ptr(int64(vfsproto.FirstNamedHandle))})},
		{ID: "19", Op: "open", Params: mustJSON(t, vfsproto.OpenParams{Path: "x", Mode: vfsproto.ModeReadWrite, H: ptr(int64(3))})},
		{ID: "22", Op: "stat", Params: mustJSON(t, vfsproto.StatParams{H: ptr(int64(3))})},
		{ID: "23", Op: "stat", Params: mustJSON(t, vfsproto.StatParams{Path: ptr("in/a b/é")})},
		{ID: "24", Op: "stat", Params: mustJSON(t, vfsproto.StatParams{Path: ptr("")})},
		{ID: "20", Op: "open", Params: mustJSON(t, vfsproto.OpenParams{Path: "in/big.txt", Mode: vfsproto.ModeRead})},
		{ID: "21", Op: "open", Params: mustJSON(t, vfsproto.OpenParams{Path: "a b/é", Mode: vfsproto.ModeWrite})},
		{ID: "5", Op: "hello", Params: mustJSON(t, vfsproto.HelloParams{Version: 1})},
		{ID: "6", Op: "hello", Params: mustJSON(t, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureReadBulk}})},
		{ID: "12", Op: "hello", Params: mustJSON(t, vfsproto.HelloParams{Version: 2, Features: []string{"read_bulk", "write_bulk", "read_eof", "list_stat",
			"read_file", "read_shm", "read_shm_at", "write_shm", "x9", "not_known"}})},
	}
	for _, req := range cases {
		b := mustJSON(t, req)
		fr, ok := parseFast(b)
		if !ok {
			t.Fatalf("fast path refused canonical %s", b)
		}
		if fr.id != req.ID || fr.op != req.Op {
			t.Fatalf("%s: id/op %q %q", b, fr.id, fr.op)
		}
		switch req.Op {
		case "read", "read_bulk":
			var p vfsproto.ReadParams
			mustUnmarshal(t, req.Params, &p)
			if fr.h != p.H || fr.max != int64(p.Max) {
				t.Fatalf("%s: %+v", b, fr)
			}
		case "read_shm":
			var p vfsproto.ReadShmParams
			mustUnmarshal(t, req.Params, &p)
			if fr.h != p.H || fr.max != int64(p.Max) || fr.slot != int64(p.Slot) {
				t.Fatalf("%s: %+v", b, fr)
			}
		case "read_shm_at":
			var p vfsproto.ReadShmAtParams
			mustUnmarshal(t, req.Params, &p)
			if fr.h != p.H || fr.off != p.Off || fr.max != int64(p.Max) || fr.slot != int64(p.Slot) {
				t.Fatalf("%s: %+v", b, fr)
			}
		case "write_bulk":
			var p vfsproto.WriteBulkParams
			mustUnmarshal(t, req.Params, &p)
			if fr.h != p.H || fr.max != int64(p.Size) {
				t.Fatalf("%s: %+v", b, fr)
			}
		case "write_shm":
			var p vfsproto.WriteShmParams
			mustUnmarshal(t, req.Params, &p)
			if fr.h != p.H || fr.slot != int64(p.Slot) || fr.max != int64(p.Size) {
				t.Fatalf("%s: %+v", b, fr)
			}
		case "close":
			var p vfsproto.HandleParams
			mustUnmarshal(t, req.Params, &p)
			if fr.h != p.H {
				t.Fatalf("%s: %+v", b, fr)
			}
		case "write":
			var p vfsproto.WriteParams
			mustUnmarshal(t, req.Params, &p)
			if fr.h != p.H || !bytes.Equal(fr.data, p.Data) {
				t.Fatalf("%s: %+v", b, fr)
			}
		case "open":
			var p vfsproto.OpenParams
			mustUnmarshal(t, req.Params, &p)
			if fr.path != p.Path || fr.mode != p.Mode || fr.named != (p.H != nil) || p.H != nil && fr.h != *p.H {
				t.Fatalf("%s: %+v", b, fr)
			}
		case "stat":
			var p vfsproto.StatParams
			mustUnmarshal(t, req.Params, &p)
			if fr.byPath != (p.Path != nil) || p.Path != nil && fr.path != *p.Path || p.H != nil && fr.h != *p.H {
				t.Fatalf("%s: %+v", b, fr)
			}
		case "list", "read_file":
			var p vfsproto.ReadFileParams
			mustUnmarshal(t, req.Params, &p)
			var lp vfsproto.ListParams
			mustUnmarshal(t, req.Params, &lp)
			if fr.path != p.Path || fr.max != int64(p.Max) || fr.names != lp.Names {
				t.Fatalf("%s: %+v", b, fr)
			}
		case "read_files":
			var p vfsproto.ReadFilesParams
			mustUnmarshal(t, req.Params, &p)
			if fr.files == nil || !slices.Equal(fr.files.Paths, p.Paths) || fr.files.Max != p.Max {
				t.Fatalf("%s: %+v", b, fr.files)
			}
		case "hello":
			var p vfsproto.HelloParams
			mustUnmarshal(t, req.Params, &p)
			if fr.hello == nil || fr.hello.Version != p.Version || !slices.Equal(fr.hello.Features, p.Features) {
				t.Fatalf("%s: %+v", b, fr.hello)
			}
		}
	}
	for _, b := range []string{
		`{"id":"1","op":"read","params":{"h":3,"max":4096} }`,
		`{"id":"1","op":"read","params":{"max":1,"h":3}}`,
		`{"id":"1","op":"read","params":{"h":03,"max":1}}`,
		`{"id":"1","op":"read","params":{"h":-3,"max":1}}`,
		`{"id":"\u0031","op":"read","params":{"h":3,"max":1}}`,
		`{"id":"1","op":"write","params":{"h":3,"data":"!!"}}`,
		`{"id":"1","op":"write","params":{"h":3,"data":"eA==","final":1}}`,
		`{"id":"1","op":"read","params":{"h":3,"max":99999999999999999999}}`,
		`{"id":"1","op":"read_bulk","params":{"h":3}}`,
		`{"id":"1","op":"read_bulkx","params":{"h":3,"max":1}}`,
		`{"id":"1","op":"write_bulk","params":{"h":3,"max":1}}`,
		`{"id":"1","op":"write_bulk","params":{"size":1,"h":3}}`,
		`{"id":"1","op":"read_shm","params":{"h":3,"max":1}}`,
		`{"id":"1","op":"write_shm","params":{"h":3,"size":1,"slot":1}}`,
		`{"id":"1","op":"write_shm","params":{"h":3,"slot":1}}`,
		`{"id":"1","op":"write_shm","params":{"h":3,"slot":-1,"size":1}}`,
		`{"id":"1","op":"close","params":{"h":3,"x":1}}`,
		`{"id":"1","op":"close","params":{}}`,
		`{"id":"1","op":"closed","params":{"h":3}}`,
		`{"id":"1","op":"read_shm","params":{"h":3,"max":1,"slot":-1}}`,
		`{"id":"1","op":"read_shm","params":{"h":3,"slot":1,"max":1}}`,
		`{"id":"1","op":"read_shm_at","params":{"h":3,"max":1,"slot":1}}`,
		`{"id":"1","op":"read_shm_at","params":{"h":3,"max":1,"off":0,"slot":1}}`,
		`{"id":"1","op":"read_shm_at","params":{"h":3,"off":-1,"max":1,"slot":1}}`,
		`{"id":"1","op":"read_shm","params":{"h":3,"off":0,"max":1,"slot":1}}`,
		`{"id":"1","op":"list","params":{"path":"a\\u0062"}}`,
		`{"id":"1","op":"list","params":{"path":"a\"b"}}`,
		"{\"id\":\"1\",\"op\":\"list\",\"params\":{\"path\":\"a\x01\"}}",
		"{\"id\":\"1\",\"op\":\"list\",\"params\":{\"path\":\"\xff\"}}",
		`{"id":"1","op":"list","params":{"path":"a"},"x":1}`,
		`{"id":"1","op":"list","params":{"path":"a","max":1}}`,
		`{"id":"1","op":"list","params":{"path":1}}`,
		`{"id":"1","op":"list","params":{"path":"a","names":false}}`,
		`{"id":"1","op":"list","params":{"path":"a","names":true,"x":1}}`,
		`{"id":"1","op":"list","params":{"path":"a","names":"true"}}`,
		`{"id":"1","op":"list","params":{"names":true,"path":"a"}}`,
		`{"id":"1","op":"list","params":{"path":"a","names":true}`,
		`{"id":"1","op":"read_file","params":{"path":"a"}}`,
		`{"id":"1","op":"read_file","params":{"path":"a","max":-1}}`,
		`{"id":"1","op":"read_file","params":{"max":1,"path":"a"}}`,
		`{"id":"1","op":"read_file","params":{"path":"a","max":1,"x":2}}`,
		`{"id":"1","op":"stat","params":{}}`,
		`{"id":"1","op":"stat","params":{"h":3,"path":"a"}}`,
		`{"id":"1","op":"stat","params":{"path":"a","h":3}}`,
		`{"id":"1","op":"stat","params":{"h":"3"}}`,
		`{"id":"1","op":"stat","params":{"h":null}}`,
		`{"id":"1","op":"stat","params":{"path":"a\u0062"}}`,
		`{"id":"1","op":"stat","params":{"path":null}}`,
		`{"id":"1","op":"stat","params":{"h":3}`,
		`{"id":"1","op":"open","params":{"path":"a"}}`,
		`{"id":"1","op":"open","params":{"path":"a","mode":"r","x":1}}`,
		`{"id":"1","op":"open","params":{"path":"a","mode":"\u0072"}}`,
		`{"id":"1","op":"open","params":{"path":"a","mode":"\\"}}`,
		`{"id":"1","op":"open","params":{"path":"a","mode":"rwx"}}`,
		`{"id":"1","op":"open","params":{"mode":"r","path":"a"}}`,
		`{"id":"1","op":"open","params":{"path":"a","mode":"r"}`,
		`{"id":"1","op":"open","params":{"path":"a","mode":"r","h":null}}`,
		`{"id":"1","op":"hello","params":{}}`,
		`{"id":"1","op":"hello","params":{"version":-1}}`,
		`{"id":"1","op":"hello","params":{"version":"1"}}`,
		`{"id":"1","op":"hello","params":{"version":1,"features":[]}}`,
		`{"id":"1","op":"hello","params":{"version":1,"features":null}}`,
		`{"id":"1","op":"hello","params":{"version":1,"features":["a",]}}`,
		`{"id":"1","op":"hello","params":{"version":1,"features":["a""b"]}}`,
		`{"id":"1","op":"hello","params":{"version":1,"features":[""]}}`,
		`{"id":"1","op":"hello","params":{"version":1,"features":["A"]}}`,
		`{"id":"1","op":"hello","params":{"version":1,"features":["read\u005fbulk"]}}`,
		`{"id":"1","op":"hello","params":{"version":1,"features":["a", "b"]}}`,
		`{"id":"1","op":"hello","params":{"version":1,"features":["a"}}`,
		`{"id":"1","op":"hello","params":{"version":1,"features":["a"]}}}`,
		`{"id":"1","op":"hello","params":{"features":["a"],"version":1}}`,
		`{"id":"1","op":"hello","params":{"version":1,"features":["a"],"x":1}}`,
		`{"id":"1","op":"hello","params":{"version":1}`,
		`{"id":"1","op":"read_files","params":{"paths":["a"],"max":1}`,
		`{"id":"1","op":"read_files","params":{"paths":["a"],"max":1}}}`,
		`{"id":"1","op":"read_files","params":{"paths":["a"],"max":1} }`,
		`{"id":"1","op":"read_files","params":{"paths":[],"max":1}}`,
		`{"id":"1","op":"read_files","params":{"paths":["a\"b"],"max":1}}`,
		`{"id":"1","op":"read_files","params":{"paths":["a\u0000"],"max":1}}`,
		`{"id":"1","op":"read_files","params":{"max":1,"paths":["a"]}}`,
		`{"id":"1","op":"read_files","params":{"paths":["a"],"max":"1"}}`,
		`{"id":"1","op":"read_files","params":{"paths":["a"]}}`,
		`{"id":"1","op":"read_files","params":{"paths":["a"],"max":1,"x":2}}`,
		`{"id":"1","op":"read_files","params":null}`,
	} {
		if _, ok := parseFast([]byte(b)); ok {
			t.Errorf("fast path accepted non-canonical %s", b)
		}
	}
	// Encoders produce what encoding/json decodes to the same values.
	for _, id := range []string{"1", `q"uote`, "é", "\x01"} {
		data := []byte("some bytes \x00\xff")
		var resp vfsproto.Response
		f := readFrameResp(id, data, true)
		mustUnmarshal(t, f.b[4:], &resp)
		var rr vfsproto.ReadResult
		mustUnmarshal(t, resp.Result, &rr)
		if resp.ID != id || !resp.OK || !bytes.Equal(rr.Data, data) || !rr.EOF {
			t.Fatalf("read response %s", f.b[4:])
		}
		f, ok := bulkFrameResp(id, 7, false)
		resp = vfsproto.Response{}
		mustUnmarshal(t, f.b[4:], &resp)
		if !ok || resp.ID != id || !resp.OK || string(resp.Result) != `{"size":7,"eof":false}` {
			t.Fatalf("read_bulk response %s", f.b[4:])
		}
		putFrame(f)
		f = writtenFrame(id, 42)
		mustUnmarshal(t, f.b[4:], &resp)
		if resp.ID != id || string(resp.Result) != `{"written":42}` {
			t.Fatalf("write response %s", f.b[4:])
		}
		f = errorFrame(id, perr(vfsproto.EPerm, "m\"sg"))
		resp = vfsproto.Response{}
		mustUnmarshal(t, f.b[4:], &resp)
		if resp.ID != id || resp.OK || *resp.Error != (vfsproto.Error{Code: vfsproto.EPerm, Message: "m\"sg"}) {
			t.Fatalf("error response %s", f.b[4:])
		}
	}
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestHelloEncoding: appendHelloResult writes the bytes encoding/json
// writes for the same result, omitted fields and all.
func TestHelloEncoding(t *testing.T) {
	for _, r := range []vfsproto.HelloResult{
		{},
		{Version: 1, Ops: supportedOps, MaxRead: vfsproto.MaxRead, MaxFrame: vfsproto.MaxFrame},
		{Version: 1, Ops: []string{}, Features: []string{}},
		{Version: 1, Ops: []string{"open", "read_bulk"}, MaxRead: 1, MaxFrame: 2, Features: []string{"read_bulk"}, MaxBulkRead: 3},
		{Version: 3, Ops: []string{`q"uote`, "é", "\x01", `back\slash`}, Features: []string{"a"}, MaxBulkWrite: 5, ShmSlots: 8},
		{Version: -1, MaxRead: -2, MaxBulkRead: -3, MaxBulkWrite: 1 << 40, ShmSlots: 16},
	} {
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendHelloResult([]byte("prefix"), r); string(got) != "prefix"+string(want) {
			t.Errorf("appendHelloResult(%+v) = %s, want %s", r, got[len("prefix"):], want)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// TestOkHandleFrame: the open's answer written by hand is okFrame's.
func TestOkHandleFrame(t *testing.T) {
	for _, h := range []int64{3, 4096, vfsproto.FirstNamedHandle, vfsproto.MaxNamedHandle} {
		got, want := okHandleFrame("12", h), okFrame("12", vfsproto.OpenResult{Handle: h})
		if string(got.b) != string(want.b) {
			t.Errorf("handle %d: %q, want %q", h, got.b, want.b)
		}
	}
}

// TestStatAnswerMatchesJSON: a stat or lstat answer, written by hand,
// decodes to what encoding/json's encoding of it decodes to.
func TestStatAnswerMatchesJSON(t *testing.T) {
	for _, st := range []vfsproto.StatResult{
		{},
		{Size: 20202021, Mtime: 1795780515771794216, Mode: 0o644, ID: "64c6bbc00ede7e3f4913cb4bbbb73422"},
		{Size: -1, Mtime: -5, Mode: 0xffffffff, IsDir: true},
		{Mode: 0o777, Symlink: true, Type: vfsproto.TypeFIFO, ID: "<&>\"\u2028"},
	} {
		f := okFrame("9", st)
		var resp vfsproto.Response
		mustUnmarshal(t, f.b[4:], &resp)
		var got vfsproto.StatResult
		mustUnmarshal(t, resp.Result, &got)
		if resp.ID != "9" || !resp.OK || got != st {
			t.Errorf("okFrame(%+v) = %s", st, f.b[4:])
		}
		putFrame(f)
	}
}
