package vfsclient_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"testing/iotest"

	"github.com/llmsh/llmsh/vfsclient"
	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
	"github.com/llmsh/llmsh/vfsproto"
)

// randomBytes returns n bytes of a fixed pseudo-random stream.
func randomBytes(n int, seed uint64) []byte {
	b := make([]byte, n)
	randomFill(b, newRandom(seed))
	return b
}

// newRandom is a fixed pseudo-random stream for randomFill.
func newRandom(seed uint64) *rand.ChaCha8 {
	return rand.NewChaCha8([32]byte{byte(seed), byte(seed >> 8), byte(seed >> 16), byte(seed >> 24)})
}

// randomFill fills b from the stream r, a block at a time (a byte at a
// time, the race detector's checks of each call made the megabytes of
// these tests cost seconds).
func randomFill(b []byte, r *rand.ChaCha8) {
	r.Read(b)
}

// writesSince is how many write requests vfsd served since st.
func writesSince(t *testing.T, c *vfsclient.Client, st vfsproto.StatsResult) int64 {
	t.Helper()
	now, err := c.Stats()
	if err != nil {
		t.Fatal(err)
	}
	return now.Writes - st.Writes
}

// allSlotsFree fails the test unless all n slots of c's region are free.
func allSlotsFree(t *testing.T, c *vfsclient.Client, n int) {
	t.Helper()
	s := vfsclient.ForTests.TakeSlots(c, n+1)
	vfsclient.ForTests.PutSlots(c, s)
	if len(s) != n {
		t.Fatalf("%d slots free, want %d", len(s), n)
	}
}

// closeAndCheck closes f and fails the test unless the file name holds
// want; after closeAndCheck and any checks, the caller checks the slots.
func closeAndCheck(t *testing.T, f *vfsclient.File, name string, want []byte) {
	t.Helper()
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(name); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%s: %d bytes, %v; want the %d written", filepath.Base(name), len(got), err, len(want))
	}
}

// 64 KiB Writes, as a builtin's bufio output makes them, gather in the
// write-behind slot: vfsd serves one write_shm per 512 KiB, not one a
// Write, and the file holds every byte in order. Small writes go on the
// pipe until they have sent writeShmMin bytes; then they too gather.
func TestWriteBehindGathers(t *testing.T) {
	for _, tc := range []struct {
		size, write int
		writes      int64
	}{
		// Six gathered 512 KiB and the last 100 bytes, sent by Close.
		{3<<20 + 100, 64 << 10, 7},
		// 33 writes of 1000 bytes reach 32 KiB; the other 172 gather in
		// a slot, sent by Close.
		{200 << 10, 1000, 34},
	} {
		dir := t.TempDir()
		c, _ := vfstest.SessionShm(t, vfsd.Config{Outputs: []string{dir}}, 4)
		want := randomBytes(tc.size, 1)
		st, err := c.Stats()
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, "out")
		f, err := c.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		for off := 0; off < len(want); off += tc.write {
			p := want[off:min(off+tc.write, len(want))]
			if n, err := f.Write(p); n != len(p) || err != nil {
				t.Fatalf("Write at %d = %d, %v", off, n, err)
			}
		}
		closeAndCheck(t, f, name, want)
		if n := writesSince(t, c, st); n != tc.writes {
			t.Errorf("vfsd served %d writes for %d bytes in writes of %d, want %d", n, tc.size, tc.write, tc.writes)
		}
		allSlotsFree(t, c, 4)
	}
}

// What the slot holds reaches vfsd at every flush point: Flush, Stat,
// Read and Seek of the same handle, and Close.
func TestWriteBehindFlushPoints(t *testing.T) {
	dir := t.TempDir()
	c, _ := vfstest.SessionShm(t, vfsd.Config{Outputs: []string{dir}}, 4)
	name := filepath.Join(dir, "log")
	if err := os.WriteFile(name, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := randomBytes(40<<10, 3)
	b := randomBytes(50<<10, 4)

	// Appending in place: Flush makes the bytes the file's.
	f, err := c.OpenFile(name, os.O_WRONLY|os.O_APPEND)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(a)
	if err := f.Flush(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(name); !bytes.Equal(got, append([]byte("old\n"), a...)) {
		t.Fatalf("after Flush: %d bytes", len(got))
	}
	allSlotsFree(t, c, 4) // a flushed file holds no slot
	f.Write(b)
	if fi, err := f.Stat(); err != nil || fi.Size() != int64(4+len(a)+len(b)) {
		t.Fatalf("Stat after a write: %v, %v", fi, err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	// Read and write: what was written reads back, before and after a
	// Seek.
	f, err = c.OpenFile(name, os.O_RDWR)
	if err != nil {
		t.Fatal(err)
	}
	model := append(append([]byte("old\n"), a...), b...)
	f.Write(a) // over "old\n" and most of a
	copy(model, a)
	next := make([]byte, 4)
	if _, err := io.ReadFull(f, next); err != nil || !bytes.Equal(next, model[len(a):len(a)+4]) {
		t.Fatalf("Read after Write: %q, %v; want %q", next, err, model[len(a):len(a)+4])
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	f.Write(b)
	copy(model, b)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	if got, err := io.ReadAll(f); err != nil || !bytes.Equal(got, model) {
		t.Fatalf("read back: %d bytes, %v; want %d", len(got), err, len(model))
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	allSlotsFree(t, c, 4)
}

// Two handles appending to one file, flushed in turn as the shell flushes
// each command's redirections: the bytes land in the order written.
func TestWriteBehindTwoHandles(t *testing.T) {
	dir := t.TempDir()
	c, _ := vfstest.SessionShm(t, vfsd.Config{Outputs: []string{dir}}, 4)
	name := filepath.Join(dir, "log")
	open := func() *vfsclient.File {
		f, err := c.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	f1, f2 := open(), open()
	var want []byte
	for i := range 6 {
		f := f1
		if i%2 == 1 {
			f = f2
		}
		p := randomBytes(40<<10+i*300<<10, uint64(10+i))
		if _, err := f.Write(p); err != nil {
			t.Fatal(err)
		}
		if err := f.Flush(); err != nil {
			t.Fatal(err)
		}
		want = append(want, p...)
	}
	if err := errors.Join(f1.Close(), f2.Close()); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(name); !bytes.Equal(got, want) {
		t.Fatalf("log: %d bytes differ from the %d written", len(got), len(want))
	}
	allSlotsFree(t, c, 4)
}

// The same without a Flush between the writes (one command writing
// through two descriptors: awk's "/dev/fd/3" and "/dev/fd/4"): a write,
// read or stat through one handle first sends what another's slot holds.
// The appends came out of order, a small write through the second handle
// at offset 0 was overwritten by the first handle's slot, sent later, and
// a read through the second handle missed the first one's bytes.
func TestWriteBehindOtherHandleUnflushed(t *testing.T) {
	dir := t.TempDir()
	c, _ := vfstest.SessionShm(t, vfsd.Config{Outputs: []string{dir}}, 4)
	open := func(name string, flag int) *vfsclient.File {
		f, err := c.OpenFile(filepath.Join(dir, name), flag)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	write := func(f *vfsclient.File, p []byte) {
		if _, err := f.Write(p); err != nil {
			t.Fatal(err)
		}
	}
	app := os.O_WRONLY | os.O_CREATE | os.O_APPEND
	f1, f2 := open("log", app), open("log", app)
	var want []byte
	for i := range 5 {
		f := f1
		if i%2 == 1 {
			f = f2
		}
		p := randomBytes(40<<10+i*7, uint64(30+i))
		if i == 3 {
			p = p[:10] // a small one, sent on the pipe at once
		}
		write(f, p)
		want = append(want, p...)
	}
	if err := f1.Close(); err != nil {
		t.Fatal(err)
	}
	closeAndCheck(t, f2, filepath.Join(dir, "log"), want)

	if err := os.WriteFile(filepath.Join(dir, "rw"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	g1, g2 := open("rw", os.O_RDWR), open("rw", os.O_RDWR)
	big := bytes.Repeat([]byte{'0'}, 40<<10)
	write(g1, big)
	if fi, err := g2.Stat(); err != nil || fi.Size() != int64(len(big)) {
		t.Fatalf("stat through the other handle: %v, %v; want %d bytes", fi, err, len(big))
	}
	head := make([]byte, 3)
	if _, err := io.ReadFull(g2, head); err != nil || string(head) != "000" {
		t.Fatalf("read through the other handle: %q, %v", head, err)
	}
	if _, err := g2.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	write(g1, big[:100]) // gathers again behind g2's write below
	write(g2, []byte("X"))
	if err := g1.Close(); err != nil {
		t.Fatal(err)
	}
	want = append([]byte("X"), big[1:]...)
	closeAndCheck(t, g2, filepath.Join(dir, "rw"), append(want, big[:100]...))
	allSlotsFree(t, c, 4)
}

// Two different files written in turn (tee a b) keep gathering: a write
// to one does not send the other's slot, as it would for one file.
func TestWriteBehindTwoFilesGather(t *testing.T) {
	dir := t.TempDir()
	c, _ := vfstest.SessionShm(t, vfsd.Config{Outputs: []string{dir}}, 4)
	var fs [2]*vfsclient.File
	for i := range fs {
		f, err := c.Create(filepath.Join(dir, fmt.Sprint("f", i)))
		if err != nil {
			t.Fatal(err)
		}
		fs[i] = f
	}
	st, err := c.Stats()
	if err != nil {
		t.Fatal(err)
	}
	p := randomBytes(64<<10, 50)
	var want []byte
	for range 4 {
		for _, f := range fs {
			if _, err := f.Write(p); err != nil {
				t.Fatal(err)
			}
		}
		want = append(want, p...)
	}
	// 256 KiB each, gathered: one write_shm per file.
	if n := writesSince(t, c, st); n != 0 {
		t.Fatalf("%d writes sent before the files' flush, want 0", n)
	}
	for i, f := range fs {
		closeAndCheck(t, f, filepath.Join(dir, fmt.Sprint("f", i)), want)
	}
	if n := writesSince(t, c, st); n != 2 {
		t.Fatalf("%d writes, want 2", n)
	}
	allSlotsFree(t, c, 4)
}

// A write that fails in mid-stream (the virtual budget: "File too
// large") is reported to the writer, by a later Write or at the latest by
// Close; nothing written after the failed write lands in the file, whose
// bytes are a prefix of what was written; every slot comes back.
func TestWriteBehindErrorMidStream(t *testing.T) {
	for _, tc := range []struct {
		name   string
		budget int64
		size   int
	}{
		{"late", 3<<20 + 5000, 3<<20 + 4000 + 64<<10}, // the last, partial slot fails: Close says so
		{"early", 1<<20 + 10, 6 << 20},                // a later Write says so
		// The second slot fails, the last 50 KiB would fit: vfsd
		// refuses them, as they belong after the failed bytes.
		{"after", 1<<20 + 100<<10, 2<<20 + 50<<10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := vfstest.SessionShm(t, vfsd.Config{MaxVirtualBytes: tc.budget}, 4)
			f, err := c.CreateTemp("big")
			if err != nil {
				t.Fatal(err)
			}
			want := randomBytes(tc.size, 5)
			var werr error
			for off := 0; off < len(want) && werr == nil; off += 64 << 10 {
				_, werr = f.Write(want[off:min(off+64<<10, len(want))])
			}
			cerr := f.Close()
			err = werr
			if err == nil {
				err = cerr
			}
			if !errors.Is(err, syscall.EFBIG) {
				t.Fatalf("Write: %v, Close: %v; want File too large", werr, cerr)
			}
			if tc.name == "late" && werr != nil {
				t.Fatalf("a Write failed (%v); the failure should show only at Close", werr)
			}
			r, err := c.Open(f.Name())
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(r)
			r.Close()
			if err != nil || int64(len(got)) > tc.budget || !bytes.HasPrefix(want, got) {
				t.Fatalf("file: %d bytes (budget %d), %v; a prefix of what was written: %v", len(got), tc.budget, err, bytes.HasPrefix(want, got))
			}
			allSlotsFree(t, c, 4)
		})
	}
}

// After a failed write, Rearm (the shell's, once the command that wrote
// is charged) makes the next write land right after the bytes that were
// written, as the next write(2) after EFBIG does; before it the handle
// refuses writes (write_stop).
func TestWriteRearm(t *testing.T) {
	c, _ := vfstest.SessionShm(t, vfsd.Config{MaxVirtualBytes: 100 << 10}, 4)
	f, err := c.CreateTemp("big")
	if err != nil {
		t.Fatal(err)
	}
	head := randomBytes(60<<10, 7)
	if _, err := f.Write(head); err != nil {
		t.Fatal(err)
	}
	if err := f.Flush(); err != nil { // one command's end
		t.Fatal(err)
	}
	if _, err := f.Write(randomBytes(60<<10, 8)); err == nil {
		err = f.Flush()
		if !errors.Is(err, syscall.EFBIG) {
			t.Fatalf("a write past the budget: %v, want File too large", err)
		}
	}
	if _, err := f.Write([]byte("tail")); err == nil {
		if err = f.Flush(); err == nil {
			t.Fatal("a write after the failed one was taken before Rearm")
		}
	}
	f.Rearm()
	if _, err := f.Write([]byte("tail")); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := c.Open(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	r.Close()
	if want := append(head, "tail"...); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("file: %d bytes, %v; want the first write and the one after Rearm (%d)", len(got), err, len(want))
	}
	allSlotsFree(t, c, 4)
}

// io.Copy into a File reads straight into the write-behind slot
// (ReadFrom): any sizes of reads, one write_shm per 512 KiB; a reader's
// error ends the copy with that error and what was read before it is
// written.
func TestReadFrom(t *testing.T) {
	dir := t.TempDir()
	c, _ := vfstest.SessionShm(t, vfsd.Config{Outputs: []string{dir}}, 4)
	want := randomBytes(5<<20+7, 6)
	st, _ := c.Stats()
	name := filepath.Join(dir, "out")
	f, _ := c.Create(name)
	// io.Copy uses f's ReadFrom: the source is no WriterTo.
	n, err := io.Copy(f, iotest.HalfReader(bytes.NewReader(want)))
	if err != nil || n != int64(len(want)) {
		t.Fatalf("io.Copy = %d, %v", n, err)
	}
	closeAndCheck(t, f, name, want)
	if n := writesSince(t, c, st); n != 11 {
		t.Errorf("vfsd served %d writes for 5 MiB and 7 bytes, want 11", n)
	}

	boom := errors.New("boom")
	f, _ = c.Create(name)
	n, err = f.ReadFrom(io.MultiReader(bytes.NewReader(want[:3<<20]), iotest.ErrReader(boom)))
	if !errors.Is(err, boom) || n != 3<<20 {
		t.Fatalf("ReadFrom of a failing reader = %d, %v", n, err)
	}
	closeAndCheck(t, f, name, want[:3<<20])
	allSlotsFree(t, c, 4)
}

// Without a free slot (readers hold them all), writes and ReadFrom go on
// the pipe, and the bytes are the same.
func TestWriteBehindNoSlot(t *testing.T) {
	dir := t.TempDir()
	c, _ := vfstest.SessionShm(t, vfsd.Config{Outputs: []string{dir}}, 4)
	held := vfsclient.ForTests.TakeSlots(c, 4)
	want := randomBytes(3<<20+1, 7)
	name := filepath.Join(dir, "out")
	f, _ := c.Create(name)
	f.Write(want[:1<<20])
	if _, err := io.Copy(f, iotest.OneByteReader(bytes.NewReader(want[1<<20:1<<20+1000]))); err != nil {
		t.Fatal(err)
	}
	vfsclient.ForTests.PutSlots(c, held) // a slot frees up in mid-stream
	if _, err := io.Copy(f, bytes.NewBuffer(want[1<<20+1000:])); err != nil {
		t.Fatal(err)
	}
	closeAndCheck(t, f, name, want)
	allSlotsFree(t, c, 4)
}

// Close while ReadFrom waits on its reader: ReadFrom ends with an error,
// Close with none, and the slot comes back.
func TestReadFromClosed(t *testing.T) {
	dir := t.TempDir()
	c, _ := vfstest.SessionShm(t, vfsd.Config{Outputs: []string{dir}}, 4)
	f, _ := c.Create(filepath.Join(dir, "out"))
	pr, pw := io.Pipe()
	var wg sync.WaitGroup
	var rerr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, rerr = f.ReadFrom(pr)
	}()
	pw.Write([]byte("first")) // returns once ReadFrom has read it
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	// ReadFrom is in pr.Read with the slot, or saw the close already.
	pw.CloseWithError(io.ErrClosedPipe)
	wg.Wait()
	if rerr == nil {
		t.Fatal("ReadFrom into a file closed meanwhile: no error")
	}
	allSlotsFree(t, c, 4)
}

// A request that reads a file by its name (open, stat, lstat, list,
// read_file) first sends what the write-behind slots hold, and waits for
// it: a file appended to and read back by another handle in one command
// shows the bytes.
func TestWriteBehindReadByName(t *testing.T) {
	dir := t.TempDir()
	c, _ := vfstest.SessionShm(t, vfsd.Config{Outputs: []string{dir}}, 4)
	name := filepath.Join(dir, "log")
	f, err := c.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND)
	if err != nil {
		t.Fatal(err)
	}
	var want []byte
	for i, read := range []func() (int64, error){
		func() (int64, error) {
			fi, err := c.Stat(name)
			return fi.Size(), err
		},
		func() (int64, error) {
			fi, err := c.Lstat(name)
			return fi.Size(), err
		},
		func() (int64, error) {
			ents, err := c.ReadDir(dir)
			if err != nil || len(ents) != 1 {
				return 0, fmt.Errorf("%d entries, %v", len(ents), err)
			}
			fi, err := ents[0].Info()
			return fi.Size(), err
		},
		func() (int64, error) {
			p := make([]byte, 1<<20)
			n, _, ok, err := c.ReadFile(name, p)
			if !ok || err != nil || !bytes.Equal(p[:n], want) {
				return 0, fmt.Errorf("read_file: %d bytes, %v, %v", n, ok, err)
			}
			return int64(n), nil
		},
		func() (int64, error) {
			r, err := c.Open(name)
			if err != nil {
				return 0, err
			}
			defer r.Close()
			b, err := io.ReadAll(r)
			if !bytes.Equal(b, want) {
				return 0, fmt.Errorf("read back %d bytes, not those written", len(b))
			}
			return int64(len(b)), err
		},
	} {
		p := randomBytes(40<<10+i, uint64(20+i))
		if _, err := f.Write(p); err != nil {
			t.Fatal(err)
		}
		want = append(want, p...)
		if size, err := read(); err != nil || size != int64(len(want)) {
			t.Fatalf("read %d after a write: size %d, %v; want %d", i, size, err, len(want))
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	allSlotsFree(t, c, 4)
}

// SetWriteShm(false): the writes go on the pipe, one request each, and no
// slot is taken (sort's runs of a pipe).
func TestWriteShmOff(t *testing.T) {
	dir := t.TempDir()
	c, _ := vfstest.SessionShm(t, vfsd.Config{Outputs: []string{dir}}, 4)
	want := randomBytes(1<<20+100, 3)
	st, err := c.Stats()
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "run")
	f, err := c.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	f.SetWriteShm(false)
	for off := 0; off < 1<<20; off += 64 << 10 {
		if n, err := f.Write(want[off : off+64<<10]); n != 64<<10 || err != nil {
			t.Fatalf("Write at %d = %d, %v", off, n, err)
		}
	}
	allSlotsFree(t, c, 4)
	if _, err := io.Copy(f, bytes.NewReader(want[1<<20:])); err != nil {
		t.Fatal(err)
	}
	allSlotsFree(t, c, 4)
	closeAndCheck(t, f, name, want)
	if n := writesSince(t, c, st); n != 17 {
		t.Errorf("vfsd served %d writes, want 17 (16 of 64 KiB and one of 100 bytes)", n)
	}
}
