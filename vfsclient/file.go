package vfsclient

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"path"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/llmsh/llmsh/vfsproto"
)

const (
	readAhead   = 96       // most outstanding read requests on a sequential reader
	firstWindow = 4        // outstanding reads at first: a small file costs few requests
	writeBehind = 16       // outstanding write requests before waiting
	writeChunk  = 64 << 10 // bytes per write request

	// With read_bulk: the first requests ask for bulkFirst bytes (a
	// small file costs one round trip), each full chunk makes the next
	// request four times larger up to bulkReadChunk (Read) or bulkChunk
	// (WriteTo), and then bulkAhead requests (bulkReadAhead for Read)
	// are kept in flight. Read's chunks stop at half of WriteTo's: what a
	// reader has in flight and in hand is garbage-collected memory of
	// this process, and `cut big.txt` (100 MB) peaked at 22.7 MB with 1
	// MiB chunks, 18.9 with 512 KiB at the same CPU time, 18.1 with 256
	// KiB at 10% more (chrt -r 10 perf stat -r 10, alternated). Read
	// keeps one request ahead of the one its reader waits for, not two:
	// the reader takes longer over a chunk than vfsd takes to read the
	// next, and the third 512 KiB was memory held for nothing.
	bulkFirst     = 64 << 10
	bulkReadChunk = 512 << 10
	bulkChunk     = vfsproto.MaxBulkRead
	bulkAhead     = 3
	bulkReadAhead = 2

	// bulkAheadBudget bounds the bytes that the requests sent ahead of
	// the one a reader waits for may ask, over all the client's files:
	// one file reads ahead as it did (two requests of WriteTo's 1 MiB
	// at most), and many read at once (a sort merging nine runs) share
	// the budget instead of each holding two answers it has not reached.
	bulkAheadBudget = 2 << 20

	// With write_bulk: bytes per request, and requests in flight.
	bulkWriteChunk  = vfsproto.MaxBulkWrite
	bulkWriteBehind = 4

	// With write_shm: the bytes a write-behind slot gathers before they
	// go to vfsd. Half a slot: with the six requests in flight the data
	// both sides touch stays in the caches (1 GiB in 64 KiB Writes, vfsd
	// CPU a GiB, three runs interleaved at load 19, bench/vfsstream
	// -rounds 2: 1 MiB 0.76-0.79 s, 512 KiB 0.26 s, 256 KiB 0.29-0.30 s,
	// 128 KiB 0.40-0.44 s, one write_shm per 64 KiB Write 0.49-0.57 s).
	writeGather = vfsproto.ShmSlot / 2
)

// File is an open vfsd handle. One goroutine uses a File at a time; Close
// may be called concurrently with nothing worse than an error.
type File struct {
	c    *Client
	h    int64
	name string
	mode vfsproto.Mode

	mu     sync.Mutex
	reads  []pendingRead // outstanding reads, in order
	window int           // read-ahead depth now (grows to readAhead)
	chunk  int           // read_bulk: bytes asked by the next request
	// readMax bounds chunk for Read when set (SetReadSize), else
	// bulkReadChunk does.
	readMax int
	buf     []byte  // data read but not yet returned
	bufp    *[]byte // pooled storage of buf, recycled once buf is consumed
	eof     bool
	pos     int64 // logical offset of the caller
	writes  []chan answer
	wslots  []int // the write_shm slot of each of writes, or -1
	// wb is the write-behind slot's memory (len: the bytes gathered
	// there, not sent yet), nil when f has none; wslot is its number.
	wb    []byte
	wslot int
	// noShm: writes never take a slot (SetWriteShm).
	noShm bool
	// hold: SendHeld was called, the writer's small writes are worth a
	// slot from the first (they wait there for the next command's).
	hold bool

	// stop, when set, ends f's reads with stopErr once it is done
	// (SetStop).
	stop    context.Context
	stopErr error

	piped int64 // bytes sent by writes over the pipe (not write_shm)
	// sent counts the write requests sent, answered those answered, in
	// order; failedAt is the number (1-based) of the first that failed
	// since the last Rearm, 0 if none (Send, Sent).
	sent, answered, failedAt int64
	werr                     error
	closed                   bool
	// pendingOn: f is in its client's pending set (see markPending).
	pendingOn bool
	// openCh is the answer to be had to the open of a File of
	// OpenLater (nil once had, and for other files), openErr its error.
	// closeCh is the answer to CloseLater's close, until CloseErr.
	openCh, closeCh chan answer
	openErr         error
	// closeErr is the failure of CloseLater's close once Settled took
	// its answer (CloseErr's).
	closeErr error
	// opened is the file's stat that came with its open (openStat),
	// until the first Stat takes it; nil after, and for other files.
	opened *vfsproto.StatResult
	// ordered is set while every request sent on f, opened by
	// OpenLater, is one that vfsd serves before it reads the next (its
	// open, small writes, close): f need not be flushed before a
	// request on another handle (see markPending).
	ordered bool
	// ident is the file's identity as vfsd's stat gives it ("" for a
	// virtual file or when unknown), asked once, when another file has
	// writes pending (flushOthers).
	ident atomic.Pointer[string]
}

// identity is the id of the file f's handle is open on, asked of vfsd the
// first time; "" when it has none (a virtual file) or cannot be had. It
// needs neither f.mu nor f's pending writes (an inode's id does not
// change with them).
func (f *File) identity() string {
	if id := f.ident.Load(); id != nil {
		return *id
	}
	h := f.h
	var r vfsproto.StatResult
	if err := f.c.call(vfsproto.OpStat, vfsproto.StatParams{H: &h}, &r); err != nil {
		return "" // unknown: not cached, the caller flushes
	}
	f.ident.Store(&r.ID)
	return r.ID
}

// markPending puts f in its client's pending set while its write-behind
// slot holds bytes or writes of it are unanswered, and takes it out
// after: vfsd serves each handle's requests in a queue of its own, so a
// request on another handle sent now could be served before them. The
// caller holds f.mu.
func (f *File) markPending() {
	if on := (f.wb != nil || len(f.writes) > 0) && !f.ordered; on != f.pendingOn {
		f.pendingOn = on
		f.c.setPending(f, on)
	}
}

func newFile(c *Client, h int64, name string, mode vfsproto.Mode) *File {
	return &File{c: c, h: h, name: name, mode: mode}
}

// Name is the path the file was opened with.
func (f *File) Name() string { return f.name }

// Read reads up to len(p) bytes. Read-only files keep several 4 KiB reads
// in flight so a sequential reader never waits a round trip per chunk.
func (f *File) Read(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return 0, pathErr("read", f.name, fs.ErrClosed)
	}
	if err := f.stopped(); err != nil {
		return 0, err
	}
	if len(p) == 0 {
		return 0, nil
	}
	f.c.flushOthers(f)
	if f.mode != vfsproto.ModeRead {
		if err := f.flushWrites(); err != nil {
			return 0, err
		}
		max := min(len(p), vfsproto.MaxRead)
		ch, err := f.c.sendRead(f.h, max)
		if err != nil {
			return 0, pathErr("read", f.name, err)
		}
		var r vfsproto.ReadResult
		if err := recv(ch, &r); err != nil {
			return 0, pathErr("read", f.name, err)
		}
		n := copy(p, r.Data)
		f.pos += int64(n)
		if n == 0 && r.EOF {
			return 0, io.EOF
		}
		return n, nil
	}
	for len(f.buf) == 0 {
		putBuf(f.bufp)
		f.buf, f.bufp = nil, nil
		if f.eof {
			f.drainReads()
			return 0, io.EOF
		}
		direct, err := f.fill(p)
		if err != nil {
			return 0, err
		}
		if direct > 0 {
			f.pos += int64(direct)
			return direct, nil
		}
	}
	n := copy(p, f.buf)
	f.buf = f.buf[n:]
	f.pos += int64(n)
	return n, nil
}

// SetStop makes f's reads (Read, WriteTo, ReadAt) fail with err once
// ctx is done: a command's reads of a file end with the command (session
// 22, red team: `cut -c1` of a 6 GB file without a newline, sparse under
// the write budget, gathered it into one line whatever its run's limit:
// a library Run with a 1 s limit took 101 s and 19.7 GB). Call it before
// the first read.
func (f *File) SetStop(ctx context.Context, err error) {
	f.mu.Lock()
	f.stop, f.stopErr = ctx, err
	f.mu.Unlock()
}

// stopped is f's stop error once its stop context is done, else nil.
func (f *File) stopped() error {
	if f.stop != nil && f.stop.Err() != nil {
		return f.stopErr
	}
	return nil
}

// SetReadSize bounds the bytes that each read request of Read asks for
// (at least bulkFirst, at most bulkReadChunk): for a reader that has many
// files open at once and takes a little of each at a time, as sort's merge
// of its runs, so that each file holds about n bytes in flight and in hand
// instead of up to three requests of bulkReadChunk.
func (f *File) SetReadSize(n int) {
	f.mu.Lock()
	f.readMax = min(max(n, bulkFirst), bulkReadChunk)
	f.mu.Unlock()
}

// SetWriteShm(false) sends every write of f through the pipe, none through
// a slot of the shared region: for a writer of a few MiB (sort's runs of
// a pipe, 0.7 MB each), to which the slots' pages would add up to 1 MiB
// resident in this process and in vfsd alike, two slots of writeGather
// touched, where the pipe carries the bytes at no memory cost. Call it
// before the first write.
func (f *File) SetWriteShm(on bool) {
	f.mu.Lock()
	f.noShm = !on
	f.mu.Unlock()
}

// fill receives the answer to the oldest read in flight of a read-only
// file (sending more first, see topUp) into f.buf, f.bufp and f.eof. A
// read_bulk answer may go straight into p (one copy less) when p is large
// enough to be worth it: direct is then how many bytes it put there. The
// caller holds f.mu and has consumed f.buf.
func (f *File) fill(p []byte) (direct int, err error) {
	if err := f.topUp(); err != nil {
		f.drainReads()
		return 0, pathErr("read", f.name, err)
	}
	pr := f.reads[0]
	f.reads = f.reads[1:]
	f.c.endAhead(pr)
	ch, asked := pr.ch, pr.size
	isDirect := f.c.bulk && len(p) >= 16<<10 && f.c.setDst(pr.id, p)
	a := <-ch
	if !a.fast {
		// An error, or an answer in a shape the fast path does not
		// know: decode it the general way.
		ch <- a
		var r vfsproto.ReadResult
		if err := recv(ch, &r); err != nil {
			f.drainReads()
			return 0, pathErr("read", f.name, err)
		}
		f.buf, f.eof = r.Data, r.EOF || len(r.Data) == 0
		return 0, nil
	}
	if a.data != nil {
		f.buf, f.bufp = *a.data, a.data
	}
	got := len(f.buf) // bytes of this answer
	if a.bulk {
		got = a.size // some went straight into p
	}
	f.eof = a.eof || got == 0
	switch {
	case got != asked:
	case a.bulk:
		// A full chunk: more is likely to come, so the chunks grow,
		// up to Read's or WriteTo's largest, and then more are kept
		// in flight.
		most, ahead := bulkReadChunk, bulkReadAhead
		if f.readMax > 0 {
			most = f.readMax
		}
		if p == nil {
			most, ahead = bulkChunk, bulkAhead // nextChunk
		}
		f.chunk = min(4*f.chunk, max(most, f.chunk))
		if f.chunk >= most {
			f.window = ahead
		}
	default:
		// A full chunk: the window doubles, up to readAhead.
		f.window = min(2*f.window, readAhead)
	}
	if isDirect {
		return a.direct, nil
	}
	return 0, nil
}

// WriteTo writes the rest of a read-only file to w, for io.Copy and for
// builtins that consume a whole file (wc). With read_shm it hands w the
// slots of the shared region as vfsd fills them (see writeToShm); else,
// over read_bulk, it hands w
// each answer's buffer as it arrived, with no copy through a caller's
// buffer, and asks for bulkChunk bytes per request from the start (the
// caller wants everything, so the small first requests that spare a small
// file a larger read would only add round trips). f.mu is not held while
// w.Write runs.
func (f *File) WriteTo(w io.Writer) (int64, error) {
	f.c.flushOthers(f)
	if f.mode != vfsproto.ModeRead {
		return io.Copy(w, struct{ io.Reader }{f})
	}
	if n, ok, err := f.writeToShm(w, true); ok {
		return n, err
	}
	if n, ok, err := f.writeToShm(w, false); ok {
		return n, err
	}
	if !f.c.bulk {
		return io.Copy(w, struct{ io.Reader }{f})
	}
	var n int64
	for {
		if err := f.stopped(); err != nil {
			return n, err
		}
		b, bp, err := f.nextChunk()
		if len(b) > 0 {
			m, werr := w.Write(b)
			n += int64(m)
			if werr == nil && m < len(b) {
				werr = io.ErrShortWrite
			}
			if werr != nil {
				putBuf(bp)
				return n, werr
			}
		}
		putBuf(bp)
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// nextChunk takes the next data of a read-only file over read_bulk out of
// f: the caller owns b (and recycles bp with putBuf once done with b).
func (f *File) nextChunk() (b []byte, bp *[]byte, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil, nil, pathErr("read", f.name, fs.ErrClosed)
	}
	for len(f.buf) == 0 {
		putBuf(f.bufp)
		f.buf, f.bufp = nil, nil
		if f.eof {
			f.drainReads()
			return nil, nil, io.EOF
		}
		f.chunk, f.window = bulkChunk, bulkAhead
		if _, err := f.fill(nil); err != nil {
			return nil, nil, err
		}
	}
	b, bp = f.buf, f.bufp
	f.buf, f.bufp = nil, nil
	f.pos += int64(len(b))
	return b, bp, nil
}

// topUp sends more read requests when few are in flight: 4 KiB reads in a
// window that grows to readAhead, or read_bulk requests of growing size
// when vfsd offers them.
func (f *File) topUp() error {
	var err error
	if f.c.bulk {
		if f.window == 0 {
			// Two reads at first, the second for the end of a small
			// file, unless the first will say it (read_eof).
			f.window, f.chunk = 2, bulkFirst
			if f.c.readEOF {
				f.window = 1
			}
		}
		for len(f.reads) < f.window && err == nil {
			ahead := len(f.reads) > 0
			if ahead && !f.c.startAhead(f.chunk) {
				break
			}
			n := len(f.reads)
			f.reads, err = f.c.sendReads(f.h, f.chunk, 1, true, f.reads)
			if len(f.reads) > n {
				f.reads[n].ahead = ahead
			} else if ahead {
				f.c.aheadBytes.Add(-int64(f.chunk))
			}
		}
		return err
	}
	if f.window == 0 {
		f.window = firstWindow
	}
	if len(f.reads) <= f.window/2 {
		// Top up in one batch: one Write for several requests.
		f.reads, err = f.c.sendReads(f.h, vfsproto.MaxRead, f.window-len(f.reads), false, f.reads)
	}
	return err
}

// drainReads waits for every outstanding read and forgets its data.
func (f *File) drainReads() {
	for _, pr := range f.reads {
		recv(pr.ch, nil)
		f.c.endAhead(pr)
	}
	f.reads = nil
}

// startAhead counts n bytes of a read sent ahead, if the budget has room.
func (c *Client) startAhead(n int) bool {
	for {
		cur := c.aheadBytes.Load()
		if cur+int64(n) > bulkAheadBudget {
			return false
		}
		if c.aheadBytes.CompareAndSwap(cur, cur+int64(n)) {
			return true
		}
	}
}

// endAhead uncounts pr, taken by its reader or dropped, if it was sent ahead.
func (c *Client) endAhead(pr pendingRead) {
	if pr.ahead {
		c.aheadBytes.Add(-int64(pr.size))
	}
}

// Write sends p in chunks without waiting for each answer; an error shows
// on a later Write, or on Seek, Stat, Read, Flush or Close.
//
// With write_shm, a streaming writer's bytes gather in a slot of the
// shared region (the write-behind slot, f.wb) and go to vfsd as one
// write_shm when writeGather bytes are there or at the next flush point:
// Flush (the shell's, when a command ends), Read, Seek, Stat, Close. The
// 64 KiB Writes of a builtin's bufio output then cost one request per
// 512 KiB instead of one each. The slot is taken only for a write of
// writeShmMin bytes or more, or once the file's small writes have sent
// that much over the pipe, and only when one is free or f's own writes
// in flight free one (readers come first: no write waits for a slot a
// reader holds; it goes through the pipe).
func (f *File) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.writable(); err != nil {
		return 0, err
	}
	f.c.flushOthers(f)
	return f.write(p)
}

// writable says why f takes no writes, if it does not. The caller holds
// f.mu.
func (f *File) writable() error {
	switch {
	case f.closed:
		return pathErr("write", f.name, fs.ErrClosed)
	case f.werr != nil:
		return f.werr
	case f.mode == vfsproto.ModeRead:
		return pathErr("write", f.name, &Error{Code: vfsproto.EPerm, Msg: "handle is read-only"})
	}
	return nil
}

// write is Write with f.mu held and f writable.
func (f *File) write(p []byte) (int, error) {
	written := 0
	chunk := writeChunk
	if f.c.bulkW {
		chunk = bulkWriteChunk
	}
	for len(p) > 0 {
		if f.ordered && (len(p) > orderedWrite || f.piped+int64(len(p)) > orderedBytes) {
			f.ordered = false // its requests from now on as any file's
			f.markPending()
		}
		if f.wb == nil && f.c.shmW && !f.noShm && (len(p) >= writeShmMin || f.piped >= writeShmMin || f.hold) {
			if f.takeWriteSlot(); f.werr != nil {
				return written, f.werr // seen while waiting for a slot
			}
		}
		if f.wb != nil {
			n := copy(f.wb[len(f.wb):writeGather], p)
			f.wb = f.wb[:len(f.wb)+n]
			p = p[n:]
			written += n
			f.pos += int64(n)
			if len(f.wb) == writeGather {
				if err := f.sendWriteSlot(); err != nil {
					return written, err
				}
			}
			continue
		}
		n := min(len(p), chunk)
		var ch chan answer
		var err error
		if f.ordered && n <= orderedWrite && f.piped+int64(n) <= orderedBytes {
			// Waits in the cork with the open and the close.
			ch, err = f.c.sendWriteBulkCorked(f.h, p[:n])
		} else if f.c.bulkW {
			ch, err = f.c.sendWriteBulk(f.h, p[:n])
		} else {
			ch, err = f.c.sendWrite(f.h, p[:n])
		}
		if err != nil {
			f.werr = pathErr("write", f.name, err)
			return written, f.werr
		}
		if err := f.pushWrite(ch, -1); err != nil {
			return written, err
		}
		p = p[n:]
		written += n
		f.piped += int64(n)
		f.pos += int64(n)
	}
	return written, nil
}

// takeWriteSlot makes a free slot of the shared region f's write-behind
// slot, if one is free, or else once f's oldest write through a slot is
// answered (a reader holds the others: cat FILE > OUT). The caller holds
// f.mu.
func (f *File) takeWriteSlot() {
	s := f.c.takeSlots(1)
	for len(s) == 0 && slices.ContainsFunc(f.wslots, func(slot int) bool { return slot >= 0 }) {
		if f.waitWrite() != nil {
			return
		}
		s = f.c.takeSlots(1)
	}
	if len(s) == 1 {
		f.wslot, f.wb = s[0], f.c.slot(s[0])[:0]
		f.markPending()
	}
}

// sendWriteSlot sends what the write-behind slot holds (write_shm) and
// gives the slot up to that request: it is free again once vfsd answered.
// The caller holds f.mu.
func (f *File) sendWriteSlot() error {
	slot, size := f.wslot, len(f.wb)
	f.wb = nil
	f.markPending()
	if size == 0 || f.werr != nil {
		// Nothing to send, or a write failed already: the bytes after
		// it are not written (vfsd would refuse them too).
		f.c.putSlots([]int{slot})
		return f.werr
	}
	ch, err := f.c.sendWriteShm(f.h, slot, size)
	if err != nil {
		f.c.putSlots([]int{slot})
		if f.werr == nil {
			f.werr = pathErr("write", f.name, err)
		}
		return f.werr
	}
	return f.pushWrite(ch, slot)
}

// pushWrite records a write request in flight (with its write_shm slot, or
// -1) and waits for the oldest answers while too many are. The caller
// holds f.mu.
func (f *File) pushWrite(ch chan answer, slot int) error {
	behind := writeBehind
	if f.c.bulkW {
		behind = bulkWriteBehind
	}
	if f.c.shmW {
		behind = max(behind, f.c.shmFree.n-2)
	}
	f.writes = append(f.writes, ch)
	f.wslots = append(f.wslots, slot)
	f.sent++
	f.markPending()
	for len(f.writes) >= behind {
		if err := f.waitWrite(); err != nil {
			return err
		}
	}
	return nil
}

// ReadFrom writes what r reads until its end, for io.Copy into f (cat, cp
// and redirections copying a stream into a file): with write_shm, r reads
// straight into the write-behind slot, writeGather bytes a request and no
// copy in this process; else through a buffer of the size of one request.
// f.mu is not held while r.Read runs (it may wait on a pipe for long).
func (f *File) ReadFrom(r io.Reader) (int64, error) {
	var n int64
	var buf []byte
	f.c.flushOthers(f)
	for {
		f.mu.Lock()
		if err := f.writable(); err != nil {
			f.mu.Unlock()
			return n, err
		}
		if f.wb == nil && f.c.shmW && !f.noShm {
			if f.takeWriteSlot(); f.werr != nil {
				err := f.werr // seen while waiting for a slot
				f.mu.Unlock()
				return n, err
			}
		}
		// The slot leaves f while r fills it: nobody else flushes it.
		slot, wb := f.wslot, f.wb
		f.wb = nil
		f.mu.Unlock()
		var m int
		var rerr error
		if wb != nil {
			m, rerr = r.Read(wb[len(wb):writeGather])
		} else {
			if buf == nil {
				buf = make([]byte, writeChunk)
				if f.c.bulkW {
					buf = make([]byte, bulkWriteChunk)
				}
			}
			m, rerr = r.Read(buf)
		}
		f.mu.Lock()
		var werr error
		switch {
		case wb != nil:
			f.wslot, f.wb = slot, wb[:len(wb)+m]
			f.markPending()
			f.pos += int64(m)
			switch {
			case f.closed:
				// Closed meanwhile: the bytes cannot go anywhere.
				werr = f.dropWriteSlot()
			case len(f.wb) == writeGather:
				werr = f.sendWriteSlot()
			}
		case m > 0:
			_, werr = f.write(buf[:m])
		}
		f.mu.Unlock()
		if werr != nil {
			return n, werr
		}
		n += int64(m)
		if rerr == io.EOF {
			f.mu.Lock()
			if f.wb != nil && len(f.wb) == 0 {
				f.dropWriteSlot() // nothing gathered: the slot goes back now
			}
			f.mu.Unlock()
			return n, nil
		}
		if rerr != nil {
			return n, rerr
		}
	}
}

// dropWriteSlot gives back the write-behind slot, forgetting what it
// holds, and returns why those bytes are lost (when f is closed). The
// caller holds f.mu.
func (f *File) dropWriteSlot() error {
	f.c.putSlots([]int{f.wslot})
	f.wb = nil
	f.markPending()
	return pathErr("write", f.name, fs.ErrClosed)
}

func (f *File) waitWrite() error {
	f.resolveOpen()
	f.c.uncork() // the request may be corked (Send)
	putChan(f.takeWrite())
	return f.werr
}

// takeWrite receives the answer to f's oldest write in flight (waiting
// for it if it has not come) and takes its failure as f's; it returns
// the write's channel, empty again.
func (f *File) takeWrite() chan answer {
	ch, slot := f.writes[0], f.wslots[0]
	f.writes, f.wslots = f.writes[1:], f.wslots[1:]
	f.markPending()
	err := recv(ch, nil)
	if slot >= 0 {
		f.c.putSlots([]int{slot}) // vfsd has written it
	}
	f.answered++
	if err != nil && f.failedAt == 0 {
		f.failedAt = f.answered
	}
	if err != nil && f.werr == nil {
		f.werr = pathErr("write", f.name, err)
	}
	return ch
}

// sendSmall is the most bytes Send sends from the write-behind slot over
// the pipe, keeping the slot; more go as a write_shm of the slot.
const sendSmall = 16 << 10

// Send sends the bytes written so far without waiting for vfsd's answers
// and returns the number of write requests sent on f so far: a command
// whose output is confirmed later (the shell's deferred settle) notes it,
// and Sent tells afterwards whether those requests were written. A
// failure already known is returned instead (nothing is sent).
func (f *File) Send() (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.writable(); err != nil {
		return f.sent, err
	}
	if len(f.wb) > 0 {
		if len(f.wb) > sendSmall || !f.c.bulkW {
			if err := f.sendWriteSlot(); err != nil {
				return f.sent, err
			}
		} else {
			// Small (a line of printf): over the pipe, and the slot
			// stays f's for the next command's bytes.
			ch, err := f.c.sendWriteBulkCorked(f.h, f.wb)
			f.wb = f.wb[:0]
			if err != nil {
				f.werr = pathErr("write", f.name, err)
				return f.sent, f.werr
			}
			// Not bounded by writeBehind: the shell bounds the
			// commands awaiting confirmation (and their requests).
			f.writes = append(f.writes, ch)
			f.wslots = append(f.wslots, -1)
			f.sent++
			f.markPending()
		}
	}
	return f.sent, nil
}

// Requests is the number of write requests sent on f so far (see Send).
func (f *File) Requests() int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.sent
}

// Written is Requests, and f's offset after the bytes written so far.
func (f *File) Written() (requests, pos int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.sent, f.pos
}

// SendHeld is Send for a file whose failed write can be placed by its
// offset (RearmOffset): a file opened to write from its start (not to
// append, whose offset is the end of a file that others may grow), or
// a file that Send alone suits. While the write-behind slot holds
// sendSmall bytes or less, they stay there for the next command's
// (a line of printf in a loop: one request for thousands of them, not
// one each); to is then the number of the request that will carry them
// (held), sent at the latest by Sent, Flush or Close. pos is f's offset
// after the bytes written so far.
func (f *File) SendHeld() (to, pos int64, held bool, err error) {
	f.mu.Lock()
	f.hold = f.hold || f.mode == vfsproto.ModeWrite && f.c.bulkW
	if f.hold && f.writable() == nil && len(f.wb) > 0 && len(f.wb) <= sendSmall {
		to, pos = f.sent+1, f.pos
		f.mu.Unlock()
		return to, pos, true, nil
	}
	f.mu.Unlock()
	to, err = f.Send()
	f.mu.Lock()
	defer f.mu.Unlock()
	return to, f.pos, false, err
}

// RearmOffset rearms f after a failed write (Rearm) and returns its
// offset in vfsd, where the bytes written stop: ok is false when it is
// not known (the rearm failed, or f takes no writes). Meant for a file
// of SendHeld, where the bytes of several commands shared a request.
func (f *File) RearmOffset() (off int64, ok bool) {
	f.Rearm()
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.pos, f.werr == nil && !f.closed && f.mode == vfsproto.ModeWrite
}

// Sent waits for the answers to every write request sent so far and
// returns the number of the first that failed since the last Rearm (0 if
// none; the requests after it were refused too, under write_stop), with
// its error.
func (f *File) Sent() (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	err := f.flushWrites()
	return f.failedAt, err
}

// Flush waits for the answers to every write sent so far and returns the
// first write error of the file, as a later Write, Seek, Stat or Close
// would. The shell calls it when a command ends, so that a failed write
// to a redirection is that command's failure.
func (f *File) Flush() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.flushWrites()
}

// flushWrites sends what the write-behind slot holds and waits for every
// outstanding write.
func (f *File) flushWrites() error {
	f.resolveOpen()
	if f.wb != nil {
		f.sendWriteSlot()
	}
	for len(f.writes) > 0 {
		f.waitWrite()
	}
	return f.werr
}

// Rearm makes f take writes again after a failed one, once the shell has
// charged the failure to the command that made it: as a descriptor takes
// the next write(2) after one that failed (EFBIG, ENOSPC), the next
// command's writes are tried. vfsd's write_stop is lifted by a seek to
// its own offset (SEEK_CUR 0: the bytes that failed were not written),
// which f's position takes.
func (f *File) Rearm() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed || f.werr == nil || f.mode == vfsproto.ModeRead {
		return
	}
	f.flushWrites()
	var r vfsproto.SeekResult
	if err := f.c.call(vfsproto.OpSeek, vfsproto.SeekParams{H: f.h, Offset: 0, Whence: vfsproto.SeekCur}, &r); err != nil {
		return // vfsd gone, or the handle: the failure stays
	}
	f.pos, f.werr, f.failedAt = r.Offset, nil, 0
}

// Seek sets the offset for the next Read or Write.
func (f *File) Seek(offset int64, whence int) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return 0, pathErr("seek", f.name, fs.ErrClosed)
	}
	f.resolveOpen()
	if f.openErr != nil {
		return 0, f.openErr
	}
	f.c.flushOthers(f)
	if err := f.flushWrites(); err != nil {
		return 0, err
	}
	f.drainReads()
	putBuf(f.bufp)
	f.buf, f.bufp, f.eof = nil, nil, false
	f.window = 0 // a new position starts with a small read-ahead again
	w := vfsproto.SeekSet
	switch whence {
	case io.SeekCurrent:
		offset += f.pos
	case io.SeekEnd:
		w = vfsproto.SeekEnd
	case io.SeekStart:
	default:
		return 0, pathErr("seek", f.name, errors.New("invalid whence"))
	}
	var r vfsproto.SeekResult
	if err := f.c.call(vfsproto.OpSeek, vfsproto.SeekParams{H: f.h, Offset: offset, Whence: w}, &r); err != nil {
		return 0, pathErr("seek", f.name, err)
	}
	f.pos = r.Offset
	return r.Offset, nil
}

// Stat describes the open file.
func (f *File) Stat() (fs.FileInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.c.flushOthers(f)
	if err := f.flushWrites(); err != nil {
		return nil, err
	}
	if f.openErr != nil {
		return nil, f.openErr
	}
	if st := f.opened; st != nil {
		f.opened = nil
		return &FileInfo{name: path.Base(f.name), st: *st}, nil
	}
	h := f.h
	var r vfsproto.StatResult
	if err := f.c.call(vfsproto.OpStat, vfsproto.StatParams{H: &h}, &r); err != nil {
		return nil, pathErr("stat", f.name, err)
	}
	return &FileInfo{name: path.Base(f.name), st: r}, nil
}

// OpenedStat is the stat that came with the file's open, without taking
// it as Stat does (its next Stat still has it for free): for what
// cannot change while the file is open, such as its identity; false
// when there is none.
func (f *File) OpenedStat() (fs.FileInfo, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.opened == nil {
		return nil, false
	}
	return &FileInfo{name: path.Base(f.name), st: *f.opened}, true
}

// Close waits for outstanding writes and closes the handle; a truncating
// write to a real file becomes visible, atomically, at this point.
func (f *File) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return pathErr("close", f.name, fs.ErrClosed)
	}
	f.closed = true
	werr := f.flushWrites()
	if f.openErr != nil {
		// Nothing was open: the close frees the handle's name.
		f.c.send(vfsproto.OpClose, vfsproto.HandleParams{H: f.h})
		return f.openErr
	}
	f.drainReads()
	putBuf(f.bufp)
	f.buf, f.bufp = nil, nil
	if f.mode == vfsproto.ModeRead {
		// A read-only handle has nothing to commit, so its answer is
		// not waited for: one round trip less per file read (grep -r,
		// cat of many files). vfsd takes the handle out of its table
		// as it reads the request, before any later one.
		_, err := f.c.send(vfsproto.OpClose, vfsproto.HandleParams{H: f.h})
		return pathErr("close", f.name, err)
	}
	err := f.c.call(vfsproto.OpClose, vfsproto.HandleParams{H: f.h}, nil)
	if werr != nil {
		return werr
	}
	return pathErr("close", f.name, err)
}
