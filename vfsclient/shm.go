package vfsclient

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"strconv"
	"sync"

	"github.com/llmsh/llmsh/vfsproto"
)

// read_shm: when vfsd was started with a memory region shared with this
// process (vfsd --shm-fd), WriteTo has vfsd read the file into slots of
// that region and hands the writer each slot's bytes, with no copy in
// this process at all: vfsd's copy from the page cache runs on one CPU
// while the writer (wc counting lines) works on the previous slot on
// another. With read_shm_at the reads name their offsets, so vfsd copies
// the chunks in flight at the same time instead of one after the other
// (a 100 MB wc -l: 39 -> 36 ms, bench/text.sh). vfsd only writes to the
// region; this process only reads it.

var errNegativeOffset = errors.New("negative offset")

// shmAhead is the most slots one WriteTo uses: shmAhead-1 reads in
// flight while the writer has the last.
const shmAhead = 4

// shmFirst is the size of WriteTo's first read_shm; each read after it
// asks for twice the one before, up to a whole slot, and each full one
// lets one more be in flight. A reader that stops
// early (cat big.txt | head) had vfsd copy shmAhead-1 whole slots, 3 MiB,
// into the region first: a thousand page faults and a millisecond of
// CPU, where GNU cat reads 128 KiB.
const shmFirst = 64 << 10

// UseShm gives the client the memory region it shares with vfsd (the one
// vfsd was started with, --shm-fd): Hello then asks for the read_shm
// feature. Call it before Hello.
func (c *Client) UseShm(mem []byte) { c.shm = mem }

// slotStack holds the free slots of the shared region, the last one
// given back on top: a slot is taken again while its pages are resident,
// and slots that a run never needs at once are never touched. (Taken in
// turn, as from a queue, every slot of the region was touched in time:
// a sort writing its runs through write_shm had 2.9 MB of the region
// resident in both processes.)
type slotStack struct {
	mu   sync.Mutex
	free []int
	n    int // slots in all
}

// newSlotStack makes a stack of the n slots, slot 0 on top.
func newSlotStack(n int) *slotStack {
	s := &slotStack{free: make([]int, n), n: n}
	for i := range s.free {
		s.free[i] = n - 1 - i
	}
	return s
}

// takeSlots takes up to n free read_shm slots without waiting (none when
// read_shm was not negotiated or all are in use).
func (c *Client) takeSlots(n int) []int {
	st := c.shmFree
	if st == nil {
		return nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	var s []int
	for len(s) < n && len(st.free) > 0 {
		s = append(s, st.free[len(st.free)-1])
		st.free = st.free[:len(st.free)-1]
	}
	return s
}

// putSlots gives back slots whose reads have all been answered.
func (c *Client) putSlots(s []int) {
	if len(s) == 0 {
		return // nothing to give back (a client may have no region)
	}
	st := c.shmFree
	st.mu.Lock()
	defer st.mu.Unlock()
	for i := len(s) - 1; i >= 0; i-- {
		st.free = append(st.free, s[i])
	}
}

// slot is the memory of read_shm slot i.
func (c *Client) slot(i int) []byte {
	return c.shm[i*vfsproto.ShmSlot : (i+1)*vfsproto.ShmSlot : (i+1)*vfsproto.ShmSlot]
}

// appendShmRequest appends a complete read_shm request frame, or a
// read_shm_at one when off >= 0.
func appendShmRequest(dst []byte, id uint64, h, off int64, max, slot int) ([]byte, error) {
	start := len(dst)
	op := vfsproto.OpReadShm
	if off >= 0 {
		op = vfsproto.OpReadShmAt
	}
	dst = beginRequest(dst, id, op)
	dst = append(dst, `{"h":`...)
	dst = strconv.AppendInt(dst, h, 10)
	if off >= 0 {
		dst = append(dst, `,"off":`...)
		dst = strconv.AppendInt(dst, off, 10)
	}
	dst = append(dst, `,"max":`...)
	dst = strconv.AppendInt(dst, int64(max), 10)
	dst = append(dst, `,"slot":`...)
	dst = strconv.AppendInt(dst, int64(slot), 10)
	dst = append(dst, '}')
	return finishRequest(dst, start)
}

// sendShm asks vfsd to read up to max bytes of handle h into slot: from
// off when off >= 0 (read_shm_at), else from the handle's position.
func (c *Client) sendShm(h, off int64, max, slot int) (chan answer, error) {
	return c.sendFrame(func(dst []byte, id uint64) ([]byte, error) {
		return appendShmRequest(dst, id, h, off, max, slot)
	})
}

// sendWriteShm asks vfsd to write the first size bytes of slot to handle
// h (write_shm); the slot must stay as it is until the answer came.
func (c *Client) sendWriteShm(h int64, slot, size int) (chan answer, error) {
	return c.sendFrame(func(dst []byte, id uint64) ([]byte, error) {
		start := len(dst)
		dst = beginRequest(dst, id, vfsproto.OpWriteShm)
		dst = append(dst, `{"h":`...)
		dst = strconv.AppendInt(dst, h, 10)
		dst = append(dst, `,"slot":`...)
		dst = strconv.AppendInt(dst, int64(slot), 10)
		dst = append(dst, `,"size":`...)
		dst = strconv.AppendInt(dst, int64(size), 10)
		dst = append(dst, '}')
		return finishRequest(dst, start)
	})
}

// writeShmMin is the smallest write sent through a slot (write_shm):
// smaller ones go on the pipe with their frame, and leave the slots to
// the readers.
const writeShmMin = 32 << 10

// recvShm waits for the answer to a read_shm of at most max bytes.
func recvShm(ch chan answer, max int) (size int, eof bool, err error) {
	a := <-ch
	switch {
	case a.err != nil:
		return 0, false, a.err
	case a.fast && a.bulk:
		size, eof = a.size, a.eof
	case a.fast:
		putBuf(a.data)
		return 0, false, &Error{Code: vfsproto.EIO, Msg: "malformed answer"}
	case !a.resp.OK:
		if a.resp.Error == nil {
			return 0, false, &Error{Code: vfsproto.EIO, Msg: "malformed answer"}
		}
		return 0, false, &Error{Code: a.resp.Error.Code, Msg: a.resp.Error.Message}
	default:
		var r vfsproto.ReadBulkResult
		if err := json.Unmarshal(a.resp.Result, &r); err != nil {
			return 0, false, err
		}
		size, eof = r.Size, r.EOF
	}
	if size < 0 || size > max {
		return 0, false, &Error{Code: vfsproto.EIO, Msg: "malformed answer"}
	}
	return size, eof || size == 0, nil
}

// writeToShm is WriteTo over read_shm, or read_shm_at when at is set.
// ok is false when it did nothing and the caller should use another way:
// read_shm (or read_shm_at) is not negotiated, no slots are free (others
// are reading), or the file has reads in flight or data buffered from
// earlier Reads.
//
// With read_shm_at the reads name their offsets, from f.pos on, and leave
// vfsd's position of the handle where it was: only a read-only file's
// WriteTo uses it, and after it f is at its end, where Read stays until a
// Seek, which names its target.
func (f *File) writeToShm(w io.Writer, at bool) (n int64, ok bool, err error) {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return 0, true, pathErr("read", f.name, fs.ErrClosed)
	}
	if f.c.shmFree == nil || (at && !f.c.shmAt) || len(f.reads) > 0 || len(f.buf) > 0 {
		f.mu.Unlock()
		return 0, false, nil
	}
	if f.eof {
		f.mu.Unlock()
		return 0, true, nil
	}
	chunk, next := shmFirst, int64(-1)
	if at {
		next = f.pos
	}
	slots := f.c.takeSlots(shmAhead)
	if len(slots) < 2 {
		f.c.putSlots(slots)
		f.mu.Unlock()
		return 0, false, nil
	}
	f.mu.Unlock()

	type read struct {
		ch         chan answer
		slot, size int
	}
	var (
		inFlight []read
		free     = slots
		eof      bool
		// most reads in flight: one at first, one more after each full
		// answer, so that a reader that stops early (cat big.txt |
		// head) had vfsd fill 64 and 128 KiB, not the four slots'
		// 960 KiB it asked for at once.
		ahead = 1
	)
	// Every read sent is answered before its slot is given back: vfsd
	// may write to a slot until it has answered.
	defer func() {
		for _, r := range inFlight {
			recvShm(r.ch, r.size)
		}
		f.c.putSlots(slots)
	}()
	for {
		if err := f.stopped(); err != nil {
			return n, true, err
		}
		// Keep all slots but the one being written busy.
		for !eof && len(free) > 0 && len(inFlight) < ahead {
			ch, err := f.c.sendShm(f.h, next, chunk, free[0])
			if err != nil {
				return n, true, pathErr("read", f.name, err)
			}
			if at {
				next += int64(chunk)
			}
			inFlight = append(inFlight, read{ch, free[0], chunk})
			free = free[1:]
			chunk = min(2*chunk, vfsproto.ShmSlot)
		}
		if len(inFlight) == 0 {
			return n, true, nil
		}
		r := inFlight[0]
		inFlight = inFlight[1:]
		size, atEOF, err := recvShm(r.ch, r.size)
		if err != nil {
			return n, true, pathErr("read", f.name, err)
		}
		if eof {
			// A read sent before the end was seen: its bytes (a file
			// that grew meanwhile) are dropped, as Read's read-ahead
			// drops them.
			free = append(free, r.slot)
			continue
		}
		f.mu.Lock()
		f.pos += int64(size)
		if atEOF || size == 0 {
			f.eof, eof = true, true
		}
		f.mu.Unlock()
		if size == r.size {
			ahead++
		}
		if size > 0 {
			m, werr := w.Write(f.c.slot(r.slot)[:size])
			n += int64(m)
			if werr == nil && m < size {
				werr = io.ErrShortWrite
			}
			if werr != nil {
				return n, true, werr // the deferred putSlots gives every slot back
			}
		}
		free = append(free, r.slot)
	}
}

// setPending records whether f's write-behind slot holds unsent bytes or
// f has writes in flight (File.markPending).
func (c *Client) setPending(f *File, on bool) {
	c.pendMu.Lock()
	defer c.pendMu.Unlock()
	switch {
	case on && c.pending == nil:
		c.pending = map[*File]struct{}{f: {}}
	case on:
		c.pending[f] = struct{}{}
	default:
		delete(c.pending, f)
	}
}

// flushPending sends what the write-behind slots of the client's files
// hold and waits for vfsd's answers, before a request that reads a file
// by its name (open, stat, lstat, list, read_file): a file written and
// then read back in one command (by another handle) shows its bytes, as
// it did when every Write went out at once. A file that its writer is
// using at that moment is left to it (TryLock): it is in mid-Write,
// and nothing orders the two anyway.
func (c *Client) flushPending() {
	c.pendMu.Lock()
	if len(c.pending) == 0 {
		c.pendMu.Unlock()
		return
	}
	files := make([]*File, 0, len(c.pending))
	for f := range c.pending {
		files = append(files, f)
	}
	c.pendMu.Unlock()
	for _, f := range files {
		if f.mu.TryLock() {
			if !f.closed {
				f.flushWrites() // a failure stays in f.werr for its writer
			}
			f.mu.Unlock()
		}
	}
}

// flushOthers sends what other files' write-behind slots hold and waits
// for their writes in flight, before a request on self's handle (a
// write, a read, a seek, a stat), when they may be open on self's file
// (the same id from vfsd's stat, or an id unknown): those bytes were
// written first, and vfsd serves each handle in a queue of its own.
// Without it a small write through one descriptor (awk's /dev/fd/4, a
// command's "2>> log" beside its ">> log") went out before a gathered one
// through another and was overwritten or came first, and a read through
// one missed what the other wrote. Other files (tee a b) keep theirs.
// Self's own slot stays (the caller holds self.mu, or self has none).
func (c *Client) flushOthers(self *File) {
	c.pendMu.Lock()
	n := len(c.pending)
	if _, ok := c.pending[self]; ok {
		n--
	}
	if n <= 0 {
		c.pendMu.Unlock()
		return
	}
	others := make([]*File, 0, n)
	for f := range c.pending {
		if f != self {
			others = append(others, f)
		}
	}
	c.pendMu.Unlock()
	id := self.identity()
	for _, f := range others {
		if id != "" && f.identity() != id {
			continue
		}
		if f.mu.TryLock() {
			if !f.closed {
				f.flushWrites() // a failure stays in f.werr for its writer
			}
			f.mu.Unlock()
		}
	}
}

// DetachShm forgets the read_shm region when no read is using it, and
// then reports true: the caller may unmap it (once vfsd cannot write to
// it any more). It reports false when a slot is still in use; the region
// must then stay mapped.
func (c *Client) DetachShm() bool {
	if c.shmFree == nil {
		return true
	}
	s := c.takeSlots(c.shmFree.n)
	if len(s) < c.shmFree.n {
		c.putSlots(s)
		return false
	}
	c.mu.Lock()
	c.shm = nil
	c.mu.Unlock()
	return true
}

// ReadAt reads len(p) bytes from offset off (io.ReaderAt) without moving
// f's position: with read_shm_at, a request a slot's worth, each
// answered in a slot of the shared region (tail reads the last block of
// a file in one round trip instead of a seek and a read). Without it, or
// with every slot in use, it seeks there, reads, and seeks back.
func (f *File) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, pathErr("read", f.name, errNegativeOffset)
	}
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return 0, pathErr("read", f.name, fs.ErrClosed)
	}
	f.resolveOpen()
	if f.openErr != nil {
		f.mu.Unlock()
		return 0, f.openErr
	}
	var slots []int
	if f.c.shmAt && f.mode == vfsproto.ModeRead {
		slots = f.c.takeSlots(1)
	}
	if len(slots) == 0 {
		f.mu.Unlock()
		return f.readAtSeeking(p, off)
	}
	defer f.mu.Unlock()
	defer f.c.putSlots(slots)
	f.c.flushOthers(f)
	n := 0
	for n < len(p) {
		if err := f.stopped(); err != nil {
			return n, err
		}
		max := min(len(p)-n, vfsproto.ShmSlot)
		ch, err := f.c.sendShm(f.h, off+int64(n), max, slots[0])
		if err != nil {
			return n, pathErr("read", f.name, err)
		}
		size, eof, err := recvShm(ch, max)
		if err != nil {
			return n, pathErr("read", f.name, err)
		}
		n += copy(p[n:], f.c.slot(slots[0])[:size])
		if eof && n < len(p) {
			return n, io.EOF
		}
	}
	return n, nil
}

// readAtSeeking is ReadAt by a seek to off, reads, and a seek back.
func (f *File) readAtSeeking(p []byte, off int64) (int, error) {
	pos, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0, err
	}
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return 0, err
	}
	n, err := io.ReadFull(f, p)
	if err == io.ErrUnexpectedEOF {
		err = io.EOF
	}
	if _, serr := f.Seek(pos, io.SeekStart); err == nil {
		err = serr
	}
	return n, err
}
