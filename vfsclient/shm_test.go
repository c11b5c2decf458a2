package vfsclient_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"unsafe"

	"github.com/llmsh/llmsh/vfsclient"
	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
	"github.com/llmsh/llmsh/vfsproto"
)

// regionWriter collects what WriteTo hands it and counts the slices that
// came straight from the read_shm region (no copy in the client).
type regionWriter struct {
	region   []byte
	got      bytes.Buffer
	inRegion int
	outside  int
}

func (w *regionWriter) Write(p []byte) (int, error) {
	if len(p) > 0 {
		start := uintptr(unsafe.Pointer(unsafe.SliceData(w.region)))
		at := uintptr(unsafe.Pointer(&p[0]))
		if at >= start && at+uintptr(len(p)) <= start+uintptr(len(w.region)) {
			w.inRegion++
		} else {
			w.outside++
		}
	}
	return w.got.Write(p)
}

// randomFiles writes files of the given sizes under dir.
func randomFiles(t *testing.T, dir string, sizes []int) map[string][]byte {
	t.Helper()
	rng := newRandom(3) // one stream: no two files start alike
	data := map[string][]byte{}
	for _, n := range sizes {
		b := make([]byte, n)
		randomFill(b, rng)
		name := filepath.Join(dir, "f"+itoa(n))
		if err := os.WriteFile(name, b, 0o644); err != nil {
			t.Fatal(err)
		}
		data[name] = b
	}
	return data
}

// WriteTo over read_shm_at, and over read_shm in order (a vfsd without
// read_shm_at), gives the writer the file's bytes straight from the
// shared region, for sizes around the slot size.
func TestWriteToShm(t *testing.T) {
	for _, at := range []bool{true, false} {
		t.Run(map[bool]string{true: "read_shm_at", false: "read_shm"}[at], func(t *testing.T) { testWriteToShm(t, at) })
	}
}

func testWriteToShm(t *testing.T, at bool) {
	dir := t.TempDir()
	data := randomFiles(t, dir, []int{0, 1, 4096, 1<<20 - 1, 1 << 20, 1<<20 + 1, 5<<20 + 7})
	c, region := vfstest.SessionShm(t, vfsd.Config{Inputs: []string{dir}}, 4)
	if !vfsclient.ForTests.ShmAt(c) {
		t.Fatal("read_shm_at not negotiated")
	}
	if !at {
		vfsclient.ForTests.StopShmAt(c)
	}
	for name, want := range data {
		f, err := c.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		w := &regionWriter{region: region}
		n, err := f.WriteTo(w)
		if err != nil || n != int64(len(want)) || !bytes.Equal(w.got.Bytes(), want) {
			t.Fatalf("%s: WriteTo = %d, %v; got %d bytes, want %d", name, n, err, w.got.Len(), len(want))
		}
		if w.outside != 0 || (len(want) > 0) != (w.inRegion > 0) {
			t.Fatalf("%s: %d writes from the region, %d from elsewhere", name, w.inRegion, w.outside)
		}
		// At the end: Read says EOF, the position is the size.
		if k, err := f.Read(make([]byte, 10)); k != 0 || err != io.EOF {
			t.Fatalf("%s: Read after WriteTo = %d, %v", name, k, err)
		}
		if pos, err := f.Seek(0, io.SeekCurrent); err != nil || pos != int64(len(want)) {
			t.Fatalf("%s: position after WriteTo = %d, %v", name, pos, err)
		}
		// From a position set by Seek, and then Read from the start.
		if len(want) > 5 {
			if _, err := f.Seek(5, io.SeekStart); err != nil {
				t.Fatal(err)
			}
			w := &regionWriter{region: region}
			if n, err := f.WriteTo(w); err != nil || n != int64(len(want)-5) || !bytes.Equal(w.got.Bytes(), want[5:]) {
				t.Fatalf("%s: WriteTo from 5 = %d, %v", name, n, err)
			}
			f.Seek(0, io.SeekStart)
			if got, err := io.ReadAll(f); err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%s: ReadAll after WriteTo and Seek: %d bytes, %v", name, len(got), err)
			}
		}
		f.Close()
	}
	// A virtual file goes the same way.
	v, err := c.Create("/tmp/v.txt")
	if err != nil {
		t.Fatal(err)
	}
	v.Write([]byte("virtual\n"))
	v.Close()
	f, err := c.Open("/tmp/v.txt")
	if err != nil {
		t.Fatal(err)
	}
	w := &regionWriter{region: region}
	if _, err := f.WriteTo(w); err != nil || w.got.String() != "virtual\n" || w.inRegion != 1 {
		t.Fatalf("virtual file: %q, %v, %d from the region", w.got.String(), err, w.inRegion)
	}
	f.Close()
}

// WriteTo falls back to the pipe when read_shm cannot serve it: the file
// has buffered data from a Read, no slot is free, or vfsd has no region.
// The bytes are the same every way.
func TestWriteToShmFallback(t *testing.T) {
	dir := t.TempDir()
	data := randomFiles(t, dir, []int{3<<20 + 5})
	var name string
	var want []byte
	for name, want = range data {
	}
	c, region := vfstest.SessionShm(t, vfsd.Config{Inputs: []string{dir}}, 4)

	// After a Read: the rest comes from the read-ahead already asked.
	f, _ := c.Open(name)
	head := make([]byte, 1000)
	if _, err := io.ReadFull(f, head); err != nil {
		t.Fatal(err)
	}
	w := &regionWriter{region: region}
	if _, err := f.WriteTo(w); err != nil || !bytes.Equal(append(head, w.got.Bytes()...), want) || w.inRegion != 0 {
		t.Fatalf("WriteTo after Read: %d bytes, %v, %d from the region", w.got.Len(), err, w.inRegion)
	}
	f.Close()

	// While another WriteTo holds every slot (its writer is blocked), a
	// second one goes through the pipe, and the region stays in use.
	a, _ := c.Open(name)
	b, _ := c.Open(name)
	entered, release := make(chan struct{}), make(chan struct{})
	var wa blockingWriter
	wa.entered, wa.release = entered, release
	done := make(chan error, 1)
	go func() { _, err := a.WriteTo(&wa); done <- err }()
	<-entered
	wb := &regionWriter{region: region}
	if _, err := b.WriteTo(wb); err != nil || !bytes.Equal(wb.got.Bytes(), want) || wb.inRegion != 0 {
		t.Fatalf("second WriteTo: %d bytes, %v, %d from the region", wb.got.Len(), err, wb.inRegion)
	}
	if c.DetachShm() {
		t.Fatal("DetachShm while a WriteTo holds slots")
	}
	close(release)
	if err := <-done; err != nil || !bytes.Equal(wa.got.Bytes(), want) {
		t.Fatalf("first WriteTo: %d bytes, %v", wa.got.Len(), err)
	}
	a.Close()
	b.Close()

	// Without a region: the pipe.
	plain := vfstest.Session(t, vfsd.Config{Inputs: []string{dir}})
	f, _ = plain.Open(name)
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil || !bytes.Equal(buf.Bytes(), want) {
		t.Fatalf("WriteTo without a region: %d bytes, %v", buf.Len(), err)
	}
	f.Close()
	if !plain.DetachShm() || !c.DetachShm() {
		t.Fatal("DetachShm with no reader")
	}
	// Once detached, nothing reads through the region any more.
	f, _ = c.Open(name)
	w = &regionWriter{region: region}
	if _, err := f.WriteTo(w); err != nil || !bytes.Equal(w.got.Bytes(), want) || w.inRegion != 0 {
		t.Fatalf("WriteTo after DetachShm: %d bytes, %v, %d from the region", w.got.Len(), err, w.inRegion)
	}
	f.Close()
}

// blockingWriter blocks in its first Write until released.
type blockingWriter struct {
	once             sync.Once
	entered, release chan struct{}
	got              bytes.Buffer
}

func (w *blockingWriter) Write(p []byte) (int, error) {
	w.once.Do(func() {
		close(w.entered)
		<-w.release
	})
	return w.got.Write(p)
}

// A writer's error ends WriteTo with that error, the reads in flight are
// answered before their slots are used again, and the next WriteTo of
// another file reads correctly through the same slots.
func TestWriteToShmWriterError(t *testing.T) {
	dir := t.TempDir()
	data := randomFiles(t, dir, []int{4<<20 + 3, 2<<20 + 1})
	c, _ := vfstest.SessionShm(t, vfsd.Config{Inputs: []string{dir}}, 4)
	boom := errors.New("boom")
	for name, want := range data {
		f, _ := c.Open(name)
		w := &failingWriter{after: 1, err: boom}
		if n, err := f.WriteTo(w); !errors.Is(err, boom) || n != int64(min(len(want), vfsclient.ForTests.ShmFirst())) {
			t.Fatalf("%s: WriteTo = %d, %v", name, n, err)
		}
		f.Close()
		f, _ = c.Open(name)
		var buf bytes.Buffer
		if _, err := f.WriteTo(&buf); err != nil || !bytes.Equal(buf.Bytes(), want) {
			t.Fatalf("%s: WriteTo after an error: %d bytes, %v", name, buf.Len(), err)
		}
		f.Close()
		// A closed file says so.
		if _, err := f.WriteTo(&buf); err == nil {
			t.Fatalf("%s: WriteTo on a closed file", name)
		}
	}
	if !c.DetachShm() {
		t.Fatal("slots not given back")
	}
}

// failingWriter accepts after writes and then fails with err.
type failingWriter struct {
	after int
	err   error
}

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.after == 0 {
		return 0, w.err
	}
	w.after--
	return len(p), nil
}

// With write_shm, writes of 32 KiB or more gather in a free slot of the
// region (and the small ones after them), and go through the pipe when
// none is free; every slot is free again once the writes are answered,
// and the file holds the bytes in order whichever way each chunk went.
func TestWriteShm(t *testing.T) {
	dir := t.TempDir()
	c, region := vfstest.SessionShm(t, vfsd.Config{Outputs: []string{dir}}, 4)
	if !vfsclient.ForTests.ShmW(c) {
		t.Fatal("write_shm not negotiated")
	}
	want := randomBytes(9<<20+13, 5)
	name := filepath.Join(dir, "out")
	f, err := c.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	for off, i := 0, 0; off < len(want); i++ {
		n := min([]int{5, 40 << 10, 1<<20 + 1, 3 << 20, 100}[i%5], len(want)-off)
		var held []int
		if i%3 == 2 {
			held = vfsclient.ForTests.TakeSlots(c, 4) // readers hold every slot: the pipe
		}
		if k, err := f.Write(want[off : off+n]); k != n || err != nil {
			t.Fatalf("Write(%d) = %d, %v", n, k, err)
		}
		vfsclient.ForTests.PutSlots(c, held)
		if n == 40<<10 && held == nil {
			// The chunk went through a slot (which keeps it until reused).
			if !bytes.Contains(region[:4*vfsproto.ShmSlot], want[off:off+n]) {
				t.Fatalf("a write of %d bytes at %d is in no slot", n, off)
			}
		}
		off += n
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(name); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("out: %d bytes, %v; want %d", len(got), err, len(want))
	}
	if s := vfsclient.ForTests.TakeSlots(c, 8); len(s) != 4 {
		t.Fatalf("%d slots free after the writes, want 4", len(s))
	}
}

// The slot given back last is the next one taken: WriteTo of one small
// file after another reads every one into slot 0, and the rest of the
// region is never touched (resident memory of both processes).
func TestShmSlotsReused(t *testing.T) {
	dir := t.TempDir()
	data := randomFiles(t, dir, []int{1000, 20 << 10, 40 << 10, 50 << 10, 60 << 10, 3000})
	c, region := vfstest.SessionShm(t, vfsd.Config{Inputs: []string{dir}}, 4)
	for name, want := range data {
		f, err := c.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		w := &regionWriter{region: region}
		if n, err := f.WriteTo(w); err != nil || n != int64(len(want)) || w.inRegion == 0 {
			t.Fatalf("%s: WriteTo = %d, %v, %d writes from the region", name, n, err, w.inRegion)
		}
		f.Close()
	}
	if i := slices.IndexFunc(region[vfsproto.ShmSlot:], func(b byte) bool { return b != 0 }); i >= 0 {
		t.Fatalf("slot %d was written to", 1+i/vfsproto.ShmSlot)
	}
	if s := vfsclient.ForTests.TakeSlots(c, 2); !slices.Equal(s, []int{0, 1}) {
		t.Fatalf("TakeSlots(2) = %v, want [0 1]", s)
	} else if vfsclient.ForTests.PutSlots(c, s); !slices.Equal(vfsclient.ForTests.TakeSlots(c, 1), []int{0}) {
		t.Fatal("slot 0 was not on top once given back")
	}
}

// TestReadAt: ReadAt gives the bytes at its offset, io.EOF with a short
// read at the end, and leaves the position where Read left it, over
// read_shm_at, without a region (seek, read, seek back), and with every
// slot taken.
func TestReadAt(t *testing.T) {
	dir := t.TempDir()
	data := randomFiles(t, dir, []int{2<<20 + 7})
	var name string
	var want []byte
	for name, want = range data {
	}
	shmC, _ := vfstest.SessionShm(t, vfsd.Config{Inputs: []string{dir}}, 2)
	plainC := vfstest.Session(t, vfsd.Config{Inputs: []string{dir}})
	if !vfsclient.ForTests.ShmAt(shmC) {
		t.Fatal("no read_shm_at with a region")
	}
	for _, tc := range []struct {
		label string
		c     *vfsclient.Client
		hold  int // slots held by another reader meanwhile
	}{{"read_shm_at", shmC, 0}, {"no region", plainC, 0}, {"slots taken", shmC, 2}} {
		f, err := tc.c.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		var held []int
		if tc.hold > 0 {
			if held = vfsclient.ForTests.TakeSlots(tc.c, tc.hold); len(held) != tc.hold {
				t.Fatalf("%s: took %d slots", tc.label, len(held))
			}
		}
		head := make([]byte, 10)
		if _, err := io.ReadFull(f, head); err != nil {
			t.Fatal(err)
		}
		for _, rd := range []struct {
			off, n int
		}{{0, 100}, {12345, 65536}, {1 << 20, 1<<20 + 3}, {len(want) - 5, 5}, {3, 0}} {
			p := make([]byte, rd.n)
			if n, err := f.ReadAt(p, int64(rd.off)); n != rd.n || err != nil || !bytes.Equal(p, want[rd.off:rd.off+rd.n]) {
				t.Errorf("%s: ReadAt(%d bytes, %d) = %d, %v", tc.label, rd.n, rd.off, n, err)
			}
		}
		p := make([]byte, 100)
		if n, err := f.ReadAt(p, int64(len(want)-40)); n != 40 || err != io.EOF || !bytes.Equal(p[:40], want[len(want)-40:]) {
			t.Errorf("%s: ReadAt over the end = %d, %v", tc.label, n, err)
		}
		if n, err := f.ReadAt(p, int64(len(want)+10)); n != 0 || err != io.EOF {
			t.Errorf("%s: ReadAt past the end = %d, %v", tc.label, n, err)
		}
		if _, err := f.ReadAt(p, -1); err == nil {
			t.Errorf("%s: ReadAt at -1: no error", tc.label)
		}
		next := make([]byte, 20)
		if _, err := io.ReadFull(f, next); err != nil || !bytes.Equal(next, want[10:30]) {
			t.Errorf("%s: Read after ReadAt: %q, %v; want the bytes after the first Read", tc.label, next, err)
		}
		f.Close()
		if _, err := f.ReadAt(p, 0); err == nil {
			t.Errorf("%s: ReadAt after Close: no error", tc.label)
		}
		vfsclient.ForTests.PutSlots(tc.c, held)
	}
}
