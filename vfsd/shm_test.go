package vfsd

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// connectShm is connect for a client sharing the region shm.
func connectShm(t testing.TB, s *Server, shm []byte) *client {
	t.Helper()
	return connectWith(t, func(r io.Reader, w *os.File) error { return s.ServeShm(r, w, shm) })
}

// helloShm negotiates read_shm (and read_bulk).
func (c *client) helloShm() vfsproto.HelloResult {
	c.t.Helper()
	var hr vfsproto.HelloResult
	c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureReadBulk, vfsproto.FeatureReadShm}}, &hr)
	return hr
}

// readShm sends a read_shm request and returns its result.
func (c *client) readShm(h int64, max, slot int) vfsproto.ReadBulkResult {
	c.t.Helper()
	var r vfsproto.ReadBulkResult
	c.ok(vfsproto.OpReadShm, vfsproto.ReadShmParams{H: h, Max: max, Slot: slot}, &r)
	if r.EOF != (r.Size == 0) || r.Size < 0 || r.Size > max {
		c.t.Fatalf("read_shm(max %d) = %+v", max, r)
	}
	return r
}

// read_shm is granted only to a connection with a region, and only when
// hello asks for it; otherwise it is an unknown operation.
func TestReadShmNeedsRegionAndHello(t *testing.T) {
	tr := newTree(t)
	s := newServer(t, tr.config())
	params := func(h int64) vfsproto.ReadShmParams { return vfsproto.ReadShmParams{H: h, Max: 10, Slot: 0} }

	// No region: hello does not grant it.
	c := connect(t, s)
	h := c.open("in/a.txt", vfsproto.ModeRead)
	if hr := c.helloShm(); slices.Contains(hr.Features, vfsproto.FeatureReadShm) || hr.ShmSlots != 0 ||
		slices.Contains(hr.Ops, vfsproto.OpReadShm) {
		t.Fatalf("hello without a region = %+v", hr)
	}
	if code := c.code(vfsproto.OpReadShm, params(h)); code != vfsproto.EUnsupported {
		t.Fatalf("read_shm without a region: %q", code)
	}

	// A region, but hello did not ask.
	shm := make([]byte, 2*vfsproto.ShmSlot)
	c = connectShm(t, s, shm)
	h = c.open("in/a.txt", vfsproto.ModeRead)
	if code := c.code(vfsproto.OpReadShm, params(h)); code != vfsproto.EUnsupported {
		t.Fatalf("read_shm before hello: %q", code)
	}
	var hr vfsproto.HelloResult
	c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureReadBulk}}, &hr)
	if slices.Contains(hr.Features, vfsproto.FeatureReadShm) || hr.ShmSlots != 0 {
		t.Fatalf("hello without read_shm = %+v", hr)
	}
	if code := c.code(vfsproto.OpReadShm, params(h)); code != vfsproto.EUnsupported {
		t.Fatalf("read_shm after a hello without it: %q", code)
	}
	if !bytes.Equal(shm, make([]byte, len(shm))) {
		t.Fatal("the region was written without read_shm")
	}

	// A region too small for one slot is no region.
	c = connectShm(t, s, make([]byte, vfsproto.ShmSlot-1))
	if hr := c.helloShm(); hr.ShmSlots != 0 {
		t.Fatalf("hello with a short region = %+v", hr)
	}
}

func TestReadShm(t *testing.T) {
	tr := newTree(t)
	big := bytes.Repeat([]byte("0123456789abcdef\n"), 3<<16) // 3.2 MiB, not a multiple of 1 MiB
	writeFile(t, filepath.Join(tr.in, "big"), string(big))
	s := newServer(t, tr.config())
	shm := make([]byte, 3*vfsproto.ShmSlot+100) // the tail is no slot
	c := connectShm(t, s, shm)
	hr := c.helloShm()
	if hr.ShmSlots != 3 || !slices.Contains(hr.Features, vfsproto.FeatureReadShm) || !slices.Contains(hr.Ops, vfsproto.OpReadShm) {
		t.Fatalf("hello = %+v", hr)
	}

	// The whole file, slot after slot: the bytes land at the slot's
	// offset and nowhere else.
	h := c.open("in/big", vfsproto.ModeRead)
	var got []byte
	for i := 0; ; i++ {
		slot := i % 3
		clear(shm)
		r := c.readShm(h, vfsproto.ShmSlot, slot)
		if r.Size == 0 {
			break
		}
		off := slot * vfsproto.ShmSlot
		got = append(got, shm[off:off+r.Size]...)
		if !bytes.Equal(shm[:off], make([]byte, off)) || !bytes.Equal(shm[off+r.Size:], make([]byte, len(shm)-off-r.Size)) {
			t.Fatalf("read_shm into slot %d wrote outside its %d bytes", slot, r.Size)
		}
	}
	if !bytes.Equal(got, big) {
		t.Fatalf("read %d bytes through the region, want %d", len(got), len(big))
	}

	// A small max, the last slot, and a virtual file.
	h = c.open("in/a.txt", vfsproto.ModeRead)
	if r := c.readShm(h, 3, 2); r.Size != 3 || string(shm[2*vfsproto.ShmSlot:][:3]) != "hel" {
		t.Fatalf("read_shm max 3 = %+v %q", r, shm[2*vfsproto.ShmSlot:][:3])
	}
	c.mkdirAll("/elsewhere")
	c.put("/elsewhere/v.txt", vfsproto.ModeWrite, "virtual bytes")
	v := c.open("/elsewhere/v.txt", vfsproto.ModeRead)
	if r := c.readShm(v, 100, 1); string(shm[vfsproto.ShmSlot:][:r.Size]) != "virtual bytes" {
		t.Fatalf("read_shm of a virtual file = %q", shm[vfsproto.ShmSlot:][:r.Size])
	}

	// Errors: bad max and slot, a write-only handle, a closed or unknown
	// handle; each leaves the stream in step.
	w := c.open("out/w.txt", vfsproto.ModeWrite)
	for _, tc := range []struct {
		p    vfsproto.ReadShmParams
		want vfsproto.Code
	}{
		{vfsproto.ReadShmParams{H: h, Max: 0, Slot: 0}, vfsproto.EArg},
		{vfsproto.ReadShmParams{H: h, Max: vfsproto.ShmSlot + 1, Slot: 0}, vfsproto.ERange},
		{vfsproto.ReadShmParams{H: h, Max: 10, Slot: 3}, vfsproto.ERange},
		{vfsproto.ReadShmParams{H: h, Max: 10, Slot: -1}, vfsproto.ERange},
		{vfsproto.ReadShmParams{H: w, Max: 10, Slot: 0}, vfsproto.EPerm},
		{vfsproto.ReadShmParams{H: 999, Max: 10, Slot: 0}, vfsproto.ENoEnt},
		{vfsproto.ReadShmParams{H: 1, Max: 10, Slot: 0}, vfsproto.EPerm},
	} {
		if code := c.code(vfsproto.OpReadShm, tc.p); code != tc.want {
			t.Errorf("read_shm %+v: %q, want %q", tc.p, code, tc.want)
		}
	}
	if code := c.code(vfsproto.OpReadShm, map[string]any{"h": h, "max": 10}); code != vfsproto.EArg {
		t.Errorf("read_shm without a slot: %q", code)
	}
	c.ok(vfsproto.OpClose, vfsproto.HandleParams{H: h}, nil)
	if code := c.code(vfsproto.OpReadShm, vfsproto.ReadShmParams{H: h, Max: 10, Slot: 0}); code != vfsproto.EClosed {
		t.Errorf("read_shm on a closed handle: %q", code)
	}
	if got := c.cat("in/a.txt"); got != "hello\n" {
		t.Fatalf("after the errors: %q", got)
	}
}

// Two connections of one server never share a region: each has its own
// (or none), and read_shm on one writes only to its own.
func TestReadShmRegionPerConnection(t *testing.T) {
	tr := newTree(t)
	s := newServer(t, tr.config())
	shmA, shmB := make([]byte, vfsproto.ShmSlot), make([]byte, vfsproto.ShmSlot)
	a, b := connectShm(t, s, shmA), connectShm(t, s, shmB)
	a.helloShm()
	b.helloShm()
	ha := a.open("in/a.txt", vfsproto.ModeRead)
	hb := b.open("in/sub/b.txt", vfsproto.ModeRead)
	a.readShm(ha, 100, 0)
	b.readShm(hb, 100, 0)
	if string(shmA[:6]) != "hello\n" || string(shmB[:4]) != "bee\n" || shmB[4] != 0 {
		t.Fatalf("regions: %q, %q", shmA[:6], shmB[:6])
	}
}

// The client's canonical read_shm frames take vfsd's fast path, and other
// shapes the slow one: both check the same things.
func TestReadShmFastAndSlowPaths(t *testing.T) {
	tr := newTree(t)
	s := newServer(t, tr.config())
	shm := make([]byte, 2*vfsproto.ShmSlot)
	c := connectShm(t, s, shm)
	h := c.open("in/a.txt", vfsproto.ModeRead)
	// Before hello both paths say unsupported.
	for _, frame := range []string{
		`{"id":"f","op":"read_shm","params":{"h":3,"max":10,"slot":1}}`,
		`{"id":"s","op":"read_shm","params":{"slot":1,"h":3,"max":10}}`,
	} {
		c.send([]byte(frame))
		if resp := c.recv(); resp.OK || resp.Error.Code != vfsproto.EUnsupported {
			t.Fatalf("%s before hello: %+v", frame, resp)
		}
	}
	c.helloShm()
	for _, tc := range []struct {
		frame string
		want  vfsproto.Code // "" for a read of 2 bytes into slot 1
	}{
		{`{"id":"f","op":"read_shm","params":{"h":3,"max":2,"slot":1}}`, ""},
		{`{"id":"s","op":"read_shm","params":{"slot":1,"max":2,"h":3}}`, ""},
		{`{"id":"f","op":"read_shm","params":{"h":3,"max":2,"slot":2}}`, vfsproto.ERange},
		{`{"id":"s","op":"read_shm","params":{"slot":2,"h":3,"max":2}}`, vfsproto.ERange},
		{`{"id":"f","op":"read_shm","params":{"h":3,"max":0,"slot":0}}`, vfsproto.EArg},
		{`{"id":"f","op":"read_shm","params":{"h":3,"max":1048577,"slot":0}}`, vfsproto.ERange},
	} {
		if h != 3 {
			t.Fatalf("handle %d, the frames say 3", h)
		}
		clear(shm)
		c.send([]byte(tc.frame))
		resp := c.recv()
		switch {
		case tc.want != "":
			if resp.OK || resp.Error.Code != tc.want {
				t.Errorf("%s: %+v, want %s", tc.frame, resp, tc.want)
			}
		case !resp.OK:
			t.Errorf("%s: %+v", tc.frame, resp)
		default:
			var r vfsproto.ReadBulkResult
			mustUnmarshal(t, resp.Result, &r)
			if r.Size != 2 || shm[vfsproto.ShmSlot] == 0 || shm[vfsproto.ShmSlot+2] != 0 {
				t.Errorf("%s: %+v, slot holds %q", tc.frame, r, shm[vfsproto.ShmSlot:][:3])
			}
		}
	}
}

// helloShmAt negotiates read_shm and read_shm_at.
func (c *client) helloShmAt() vfsproto.HelloResult {
	c.t.Helper()
	var hr vfsproto.HelloResult
	c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureReadShm, vfsproto.FeatureReadShmAt}}, &hr)
	return hr
}

// read_shm_at is granted only with read_shm (a region, and hello asking
// for both); otherwise it is an unknown operation and writes nothing.
func TestReadShmAtNeedsRegionAndHello(t *testing.T) {
	tr := newTree(t)
	s := newServer(t, tr.config())
	params := func(h int64) vfsproto.ReadShmAtParams {
		return vfsproto.ReadShmAtParams{H: h, Off: 1, Max: 10, Slot: 0}
	}
	granted := func(hr vfsproto.HelloResult) bool {
		return slices.Contains(hr.Features, vfsproto.FeatureReadShmAt) || slices.Contains(hr.Ops, vfsproto.OpReadShmAt)
	}

	// No region.
	c := connect(t, s)
	h := c.open("in/a.txt", vfsproto.ModeRead)
	if hr := c.helloShmAt(); granted(hr) {
		t.Fatalf("hello without a region = %+v", hr)
	}
	if code := c.code(vfsproto.OpReadShmAt, params(h)); code != vfsproto.EUnsupported {
		t.Fatalf("read_shm_at without a region: %q", code)
	}

	// A region, hello asking for read_shm_at but not read_shm.
	shm := make([]byte, vfsproto.ShmSlot)
	c = connectShm(t, s, shm)
	h = c.open("in/a.txt", vfsproto.ModeRead)
	if code := c.code(vfsproto.OpReadShmAt, params(h)); code != vfsproto.EUnsupported {
		t.Fatalf("read_shm_at before hello: %q", code)
	}
	var hr vfsproto.HelloResult
	c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureReadShmAt}}, &hr)
	if granted(hr) {
		t.Fatalf("hello with read_shm_at alone = %+v", hr)
	}
	for _, frame := range []string{
		`{"id":"f","op":"read_shm_at","params":{"h":3,"off":1,"max":10,"slot":0}}`,
		`{"id":"s","op":"read_shm_at","params":{"slot":0,"h":3,"off":1,"max":10}}`,
	} {
		c.send([]byte(frame))
		if resp := c.recv(); resp.OK || resp.Error.Code != vfsproto.EUnsupported {
			t.Fatalf("%s without read_shm_at: %+v", frame, resp)
		}
	}
	if !bytes.Equal(shm, make([]byte, len(shm))) {
		t.Fatal("the region was written without read_shm_at")
	}

	// read_shm without read_shm_at: granted alone.
	c = connectShm(t, s, make([]byte, vfsproto.ShmSlot))
	if hr := c.helloShm(); granted(hr) || hr.ShmSlots != 1 {
		t.Fatalf("hello with read_shm only = %+v", hr)
	}
}

// read_shm_at reads from the offset it names, leaves the handle's position
// alone, says eof when the file ends within the range, and checks what
// read_shm checks.
func TestReadShmAt(t *testing.T) {
	tr := newTree(t)
	big := bytes.Repeat([]byte("0123456789abcdef\n"), 3<<16) // 3.2 MiB
	writeFile(t, filepath.Join(tr.in, "big"), string(big))
	s := newServer(t, tr.config())
	shm := make([]byte, 2*vfsproto.ShmSlot)
	c := connectShm(t, s, shm)
	if hr := c.helloShmAt(); !slices.Contains(hr.Features, vfsproto.FeatureReadShmAt) || !slices.Contains(hr.Ops, vfsproto.OpReadShmAt) {
		t.Fatalf("hello = %+v", hr)
	}
	h := c.open("in/big", vfsproto.ModeRead)
	readAt := func(h, off int64, max, slot int) vfsproto.ReadBulkResult {
		t.Helper()
		clear(shm)
		var r vfsproto.ReadBulkResult
		c.ok(vfsproto.OpReadShmAt, vfsproto.ReadShmAtParams{H: h, Off: off, Max: max, Slot: slot}, &r)
		at := slot * vfsproto.ShmSlot
		if r.Size < 0 || r.Size > max ||
			!bytes.Equal(shm[:at], make([]byte, at)) || !bytes.Equal(shm[at+r.Size:], make([]byte, len(shm)-at-r.Size)) {
			t.Fatalf("read_shm_at(off %d, max %d, slot %d) = %+v, or wrote outside its bytes", off, max, slot, r)
		}
		return r
	}
	for _, tc := range []struct {
		off      int64
		max      int
		slot     int
		wantSize int
		wantEOF  bool
	}{
		{2 << 20, vfsproto.ShmSlot, 1, vfsproto.ShmSlot, false},
		{0, 17, 0, 17, false},
		{5, 3, 1, 3, false},
		{int64(len(big)) - 10, 100, 0, 10, true},  // the end within the range
		{int64(len(big)) - 10, 10, 1, 10, false},  // up to the end exactly
		{int64(len(big)), 10, 0, 0, true},         // at the end
		{int64(len(big)) + 1<<40, 10, 1, 0, true}, // far beyond
	} {
		r := readAt(h, tc.off, tc.max, tc.slot)
		at := tc.slot * vfsproto.ShmSlot
		if r.Size != tc.wantSize || r.EOF != tc.wantEOF || !bytes.Equal(shm[at:at+r.Size], big[min(tc.off, int64(len(big))):][:r.Size]) {
			t.Errorf("read_shm_at(off %d, max %d) = %+v, want size %d eof %v", tc.off, tc.max, r, tc.wantSize, tc.wantEOF)
		}
	}
	// The position is where it was: a plain read starts at 0.
	var rr vfsproto.ReadResult
	c.ok(vfsproto.OpRead, vfsproto.ReadParams{H: h, Max: 5}, &rr)
	if string(rr.Data) != "01234" {
		t.Fatalf("read after read_shm_at = %q", rr.Data)
	}
	// A virtual file, and a handle open for reading and writing.
	c.mkdirAll("/elsewhere")
	c.put("/elsewhere/v.txt", vfsproto.ModeWrite, "virtual bytes")
	v := c.open("/elsewhere/v.txt", vfsproto.ModeRead)
	if r := readAt(v, 8, 100, 1); r.Size != 5 || !r.EOF || string(shm[vfsproto.ShmSlot:][:5]) != "bytes" {
		t.Fatalf("read_shm_at of a virtual file = %+v %q", r, shm[vfsproto.ShmSlot:][:5])
	}
	rw := c.open("out/rw.txt", vfsproto.ModeReadWrite)
	c.ok(vfsproto.OpWrite, vfsproto.WriteParams{H: rw, Data: []byte("read-write")}, nil)
	if r := readAt(rw, 5, 100, 0); r.Size != 5 || string(shm[:5]) != "write" {
		t.Fatalf("read_shm_at of a read-write handle = %+v %q", r, shm[:5])
	}

	// Errors, by both decoders; each leaves the stream in step.
	w := c.open("out/w.txt", vfsproto.ModeWrite)
	for _, tc := range []struct {
		p    vfsproto.ReadShmAtParams
		want vfsproto.Code
	}{
		{vfsproto.ReadShmAtParams{H: h, Max: 0}, vfsproto.EArg},
		{vfsproto.ReadShmAtParams{H: h, Max: vfsproto.ShmSlot + 1}, vfsproto.ERange},
		{vfsproto.ReadShmAtParams{H: h, Max: 10, Slot: 2}, vfsproto.ERange},
		{vfsproto.ReadShmAtParams{H: h, Max: 10, Slot: -1}, vfsproto.ERange},
		{vfsproto.ReadShmAtParams{H: h, Off: -1, Max: 10}, vfsproto.EArg},
		{vfsproto.ReadShmAtParams{H: w, Max: 10}, vfsproto.EPerm},
		{vfsproto.ReadShmAtParams{H: 999, Max: 10}, vfsproto.ENoEnt},
		{vfsproto.ReadShmAtParams{H: 1, Max: 10}, vfsproto.EPerm},
	} {
		if code := c.code(vfsproto.OpReadShmAt, tc.p); code != tc.want {
			t.Errorf("read_shm_at %+v: %q, want %q", tc.p, code, tc.want)
		}
	}
	if code := c.code(vfsproto.OpReadShmAt, map[string]any{"h": h, "max": 10, "slot": 0}); code != vfsproto.EArg {
		t.Errorf("read_shm_at without an offset: %q", code)
	}
	c.ok(vfsproto.OpClose, vfsproto.HandleParams{H: h}, nil)
	if code := c.code(vfsproto.OpReadShmAt, vfsproto.ReadShmAtParams{H: h, Max: 10}); code != vfsproto.EClosed {
		t.Errorf("read_shm_at on a closed handle: %q", code)
	}
	if got := c.cat("in/a.txt"); got != "hello\n" {
		t.Fatalf("after the errors: %q", got)
	}
}

// Many read_shm_at requests in flight on one handle, sent without waiting,
// are all answered with the right bytes (they may be served in any
// order), also when the handle is closed behind them: a read that comes
// after the close fails, none reads another file. Run with -race.
func TestReadShmAtConcurrent(t *testing.T) {
	tr := newTree(t)
	big := make([]byte, 4<<20)
	for i := range big {
		big[i] = byte(i * 7 >> 3)
	}
	writeFile(t, filepath.Join(tr.in, "big"), string(big))
	s := newServer(t, tr.config())
	const slots = 8
	shm := make([]byte, slots*vfsproto.ShmSlot)
	c := connectShm(t, s, shm)
	c.helloShmAt()
	const chunk = 256 << 10
	for round := range 2 {
		h := c.open("in/big", vfsproto.ModeRead)
		for i := range slots {
			frame := fmt.Sprintf(`{"id":"%d","op":"read_shm_at","params":{"h":%d,"off":%d,"max":%d,"slot":%d}}`, i, h, i*chunk, chunk, i)
			c.send([]byte(frame))
		}
		if round == 1 {
			c.send([]byte(fmt.Sprintf(`{"id":"close","op":"close","params":{"h":%d}}`, h)))
		}
		answered := 0
		for range slots + round {
			resp := c.recv()
			if resp.ID == "close" {
				continue
			}
			i, err := strconv.Atoi(resp.ID)
			if err != nil {
				t.Fatalf("answer %+v", resp)
			}
			if !resp.OK {
				if round == 0 || (resp.Error.Code != vfsproto.EIO && resp.Error.Code != vfsproto.EClosed) {
					t.Fatalf("read %d: %+v", i, resp.Error)
				}
				continue
			}
			var r vfsproto.ReadBulkResult
			mustUnmarshal(t, resp.Result, &r)
			at := i * vfsproto.ShmSlot
			if r.Size != chunk || !bytes.Equal(shm[at:at+chunk], big[i*chunk:][:chunk]) {
				t.Fatalf("read %d: %+v, bytes differ", i, r)
			}
			answered++
		}
		if round == 0 {
			if answered != slots {
				t.Fatalf("%d of %d reads answered", answered, slots)
			}
			c.ok(vfsproto.OpClose, vfsproto.HandleParams{H: h}, nil)
		}
	}
	if got := c.cat("in/a.txt"); got != "hello\n" {
		t.Fatalf("after the reads: %q", got)
	}
}
