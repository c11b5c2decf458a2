package vfsd

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// pipeline sends the requests at once, then reads their answers, keyed
// by the request's position.
func (c *client) pipeline(reqs ...[2]any) []vfsproto.Response {
	c.t.Helper()
	ids := make([]string, len(reqs))
	frames := make([][]byte, len(reqs))
	for i, r := range reqs {
		ids[i], frames[i] = c.request(r[0].(string), r[1])
	}
	// Sent while the answers are read: neither pipe may fill up.
	sent := make(chan error, 1)
	go func() {
		var err error
		for _, b := range frames {
			if err == nil {
				err = vfsproto.WriteFrame(c.w, b)
			}
		}
		sent <- err
	}()
	defer func() {
		if err := <-sent; err != nil {
			c.t.Fatalf("write frame: %v", err)
		}
	}()
	byID := map[string]vfsproto.Response{}
	for range reqs {
		resp := c.recv()
		byID[resp.ID] = resp
	}
	out := make([]vfsproto.Response, len(reqs))
	for i, id := range ids {
		out[i] = byID[id]
	}
	return out
}

func named(path string, mode vfsproto.Mode, h int64) vfsproto.OpenParams {
	return vfsproto.OpenParams{Path: path, Mode: mode, H: &h}
}

// A client-named handle (open_named) can be written and closed in the
// requests sent right after its open, without waiting for its answer;
// the failures of the open are every later request's; and a hostile
// client's names (out of range, in use, another connection's, many
// failed ones) are refused without harm.
func TestOpenNamed(t *testing.T) {
	tr := newTree(t)
	s := newServer(t, tr.config())
	c := connect(t, s)
	var hr vfsproto.HelloResult
	c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureOpenNamed}}, &hr)
	if !slices.Contains(hr.Features, vfsproto.FeatureOpenNamed) {
		t.Fatalf("hello = %+v", hr)
	}
	h := int64(vfsproto.FirstNamedHandle)

	// open, write, close and reopen, write, close: in order, unanswered.
	resps := c.pipeline(
		[2]any{vfsproto.OpOpen, named("out/log", vfsproto.ModeAppend, h)},
		[2]any{vfsproto.OpWrite, vfsproto.WriteParams{H: h, Data: []byte("1\n")}},
		[2]any{vfsproto.OpClose, vfsproto.HandleParams{H: h}},
		[2]any{vfsproto.OpOpen, named("out/log", vfsproto.ModeAppend, h+1)},
		[2]any{vfsproto.OpWrite, vfsproto.WriteParams{H: h + 1, Data: []byte("2\n")}},
		[2]any{vfsproto.OpClose, vfsproto.HandleParams{H: h + 1}},
	)
	for i, r := range resps {
		if !r.OK {
			t.Fatalf("request %d: %+v", i, r.Error)
		}
	}
	if got := readFile(t, filepath.Join(tr.out, "log")); got != "1\n2\n" {
		t.Fatalf("log = %q", got)
	}
	var or vfsproto.OpenResult
	mustUnmarshal(t, resps[0].Result, &or)
	if or.Handle != h {
		t.Fatalf("open answered handle %d, want %d", or.Handle, h)
	}

	// A failed open: each request on the handle fails with its error,
	// the close frees the name, which a new open may take.
	for _, tc := range []struct {
		path string
		code vfsproto.Code
	}{
		{"out/nodir/f", vfsproto.ENoEnt},
		{"in/a.txt", vfsproto.EPerm}, // no write grant
		{"out", vfsproto.EArg},       // a directory
	} {
		resps := c.pipeline(
			[2]any{vfsproto.OpOpen, named(tc.path, vfsproto.ModeAppend, h)},
			[2]any{vfsproto.OpWrite, vfsproto.WriteParams{H: h, Data: []byte("x\n")}},
			[2]any{vfsproto.OpStat, vfsproto.StatParams{H: &h}},
			[2]any{vfsproto.OpClose, vfsproto.HandleParams{H: h}},
			[2]any{vfsproto.OpWrite, vfsproto.WriteParams{H: h, Data: []byte("x\n")}},
		)
		for i, r := range resps[:4] {
			if r.OK || r.Error.Code != tc.code || r.Error.Message != resps[0].Error.Message {
				t.Errorf("%s: request %d = %+v, want the open's %s", tc.path, i, r, tc.code)
			}
		}
		if r := resps[4]; r.OK || r.Error.Code != vfsproto.ENoEnt {
			t.Errorf("%s: write after close = %+v, want E_NOENT", tc.path, r)
		}
	}
	if got := readFile(t, filepath.Join(tr.in, "a.txt")); got != "hello\n" {
		t.Fatalf("read-only file written: %q", got)
	}

	// Names out of range, or in use, take nothing.
	for _, bad := range []int64{-1, 0, 2, 3, vfsproto.FirstNamedHandle - 1, vfsproto.MaxNamedHandle + 1} {
		if code := c.code(vfsproto.OpOpen, named("out/x", vfsproto.ModeAppend, bad)); code != vfsproto.ERange {
			t.Errorf("open named %d: %s, want E_RANGE", bad, code)
		}
	}
	c.ok(vfsproto.OpOpen, named("out/x", vfsproto.ModeAppend, h), nil)
	served := c.open("out/o.txt", vfsproto.ModeRead)
	resps = c.pipeline(
		[2]any{vfsproto.OpOpen, named("in/a.txt", vfsproto.ModeRead, h)},
		[2]any{vfsproto.OpWrite, vfsproto.WriteParams{H: h, Data: []byte("still\n")}},
	)
	if r := resps[0]; r.OK || r.Error.Code != vfsproto.EArg || r.Error.Message != "handle in use" {
		t.Errorf("reuse of a live name = %+v", r)
	}
	if !resps[1].OK {
		t.Errorf("the live handle lost its file: %+v", resps[1].Error)
	}
	// A failed name is in use too until its close.
	c.pipeline([2]any{vfsproto.OpOpen, named("out/nodir/f", vfsproto.ModeAppend, h+5)})
	if r := c.call(vfsproto.OpOpen, named("out/y", vfsproto.ModeAppend, h+5)); r.OK || r.Error.Message != "handle in use" {
		t.Errorf("reuse of a failed name = %+v", r)
	}
	c.pipeline([2]any{vfsproto.OpClose, vfsproto.HandleParams{H: h + 5}})
	c.ok(vfsproto.OpClose, vfsproto.HandleParams{H: h}, nil)
	c.ok(vfsproto.OpClose, vfsproto.HandleParams{H: served}, nil)
	if got := readFile(t, filepath.Join(tr.out, "x")); got != "still\n" {
		t.Fatalf("x = %q", got)
	}

	// Another connection's handle is not this one's.
	c2 := connect(t, s)
	c2.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureOpenNamed}}, nil)
	c.ok(vfsproto.OpOpen, named("out/mine", vfsproto.ModeAppend, h+9), nil)
	if code := c2.code(vfsproto.OpWrite, vfsproto.WriteParams{H: h + 9, Data: []byte("theirs\n")}); code != vfsproto.ENoEnt {
		t.Errorf("write to another connection's named handle: %s, want E_NOENT", code)
	}
	c2.ok(vfsproto.OpOpen, named("out/theirs", vfsproto.ModeAppend, h+9), nil)
	c2.ok(vfsproto.OpClose, vfsproto.HandleParams{H: h + 9}, nil)
	c.write(h+9, "mine\n")
	c.ok(vfsproto.OpClose, vfsproto.HandleParams{H: h + 9}, nil)
	if got := readFile(t, filepath.Join(tr.out, "mine")); got != "mine\n" {
		t.Fatalf("mine = %q", got)
	}

	// Failed names count against the handle limit, and free it on close.
	reqs := make([][2]any, 0, MaxHandles+1)
	for i := range int64(MaxHandles + 1) {
		reqs = append(reqs, [2]any{vfsproto.OpOpen, named("out/nodir/f", vfsproto.ModeAppend, h+100+i)})
	}
	resps = c.pipeline(reqs...)
	if r := resps[MaxHandles]; r.OK || r.Error.Code != vfsproto.ERange {
		t.Fatalf("open past the limit = %+v", r)
	}
	reqs = reqs[:0]
	for i := range int64(MaxHandles) {
		reqs = append(reqs, [2]any{vfsproto.OpClose, vfsproto.HandleParams{H: h + 100 + i}})
	}
	c.pipeline(reqs...)
	c.ok(vfsproto.OpOpen, named("out/z", vfsproto.ModeAppend, h), nil)
	c.ok(vfsproto.OpClose, vfsproto.HandleParams{H: h}, nil)
}

// Without open_named, "h" is an unknown key: the open is served as ever,
// with a handle vfsd chooses.
func TestOpenNamedNotNegotiated(t *testing.T) {
	tr := newTree(t)
	s := newServer(t, tr.config())
	c := connect(t, s)
	var or vfsproto.OpenResult
	c.ok(vfsproto.OpOpen, named("out/o.txt", vfsproto.ModeAppend, vfsproto.FirstNamedHandle), &or)
	if or.Handle >= vfsproto.FirstNamedHandle {
		t.Fatalf("handle %d chosen by the client without open_named", or.Handle)
	}
	if code := c.code(vfsproto.OpWrite, vfsproto.WriteParams{H: vfsproto.FirstNamedHandle, Data: []byte("x")}); code != vfsproto.ENoEnt {
		t.Fatal(fmt.Sprint("write to the name: ", code))
	}
}

// TestStatBehindNamedOpen: a read-only named open with a stat of its
// handle behind it (vfsclient's openStat), sent together, answers both,
// the stat describing the file; a stat of a handle keeps its place
// among the handle's requests, inline (idle handle) or queued behind a
// write too large for the reader: it sees every write before it.
func TestStatBehindNamedOpen(t *testing.T) {
	tr := newTree(t)
	s := newServer(t, tr.config())
	c := connect(t, s)
	c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureOpenNamed}}, nil)
	h := int64(vfsproto.FirstNamedHandle)
	big := strings.Repeat("x", maxInline+1)
	resps := c.pipeline(
		[2]any{vfsproto.OpOpen, named("in/a.txt", vfsproto.ModeRead, h)},
		[2]any{vfsproto.OpStat, vfsproto.StatParams{H: &h}},
		[2]any{vfsproto.OpOpen, named("out/n", vfsproto.ModeAppend, h+1)},
		[2]any{vfsproto.OpWrite, vfsproto.WriteParams{H: h + 1, Data: []byte("12")}},
		[2]any{vfsproto.OpStat, vfsproto.StatParams{H: ptr(h + 1)}},
		[2]any{vfsproto.OpWrite, vfsproto.WriteParams{H: h + 1, Data: []byte(big)}},
		[2]any{vfsproto.OpStat, vfsproto.StatParams{H: ptr(h + 1)}},
		[2]any{vfsproto.OpWrite, vfsproto.WriteParams{H: h + 1, Data: []byte("3")}},
		[2]any{vfsproto.OpStat, vfsproto.StatParams{H: ptr(h + 1)}},
	)
	for i, r := range resps {
		if !r.OK {
			t.Fatalf("request %d: %+v", i, r.Error)
		}
	}
	for i, want := range map[int]int64{1: 6, 4: 2, 6: int64(2 + len(big)), 8: int64(3 + len(big))} {
		var st vfsproto.StatResult
		mustUnmarshal(t, resps[i].Result, &st)
		if st.Size != want {
			t.Errorf("stat %d: size %d, want %d", i, st.Size, want)
		}
	}
}
