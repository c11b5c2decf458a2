package builtins

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

// sort's memory bound, as GNU's -S: input is read into runs of at most
// the buffer size; a run that fills the buffer is sorted and written to a
// temporary file, and the runs are merged at the end (16 at a time, as
// GNU's NMERGE, in passes when there are more).
const (
	sortRecSize = 32 // bytes of one sortRec: a line costs its text, delimiter and record
	sortNMerge  = 16
	// sortMinBuffer is the smallest buffer, as GNU's MIN_SORT_SIZE.
	sortMinBuffer = sortNMerge * (2 + sortRecSize)
	// sortMaxDefault caps the default buffer: well under the llmsh
	// command's 2 GiB memory guard.
	sortMaxDefault = 512 << 20
	sortBlock      = 1 << 20 // read blocks that records point into, at most
	// sortBlockMax bounds any buffer records point into: a record holds
	// a line's offset and length in 32 bits each.
	sortBlockMax = 1<<32 - 1
)

// errSortLineMemory is a line longer than a record can hold (4 GiB), as
// GNU's sort runs out of memory on what it cannot allocate.
var errSortLineMemory = errors.New("memory exhausted")

// sortDefaultBuffer bounds the buffer without -S: an eighth of physical
// memory (GNU takes up to the available memory), at most 512 MiB.
func sortDefaultBuffer() int64 {
	total := physMemory()
	if total <= 0 {
		return sortMaxDefault
	}
	return max(min(total/8, sortMaxDefault), sortMinBuffer)
}

// sortInputGuess is the size guessed for an input whose size is unknown
// (a pipe, a device), as GNU's INPUT_FILE_SIZE_GUESS.
const sortInputGuess = 128 << 10

// sortBuffer is the buffer for the inputs files, as GNU's
// sort_buffer_size: room for each input's worst case (every byte a line)
// up to bound (-S, else sortDefaultBuffer). An input of unknown size
// counts as sortInputGuess bytes, unless -S was given: then the buffer is
// -S. So a sort reading a pipe spills in runs of a few MiB, where GNU's
// does, instead of holding its input (1M short lines take 55 MB).
func sortBuffer(env *Env, files []string, bufSize int64) int64 {
	bound := bufSize
	if bound == 0 {
		bound = sortDefaultBuffer()
	}
	if m := int64(env.MaxLine); m > 0 && bound > m {
		// A run in memory is held as a value is: at most the session's
		// bound on one (an eighth of its memory limit); more goes to
		// temporary files (session 31's leftover: under --max-memory
		// 64M, sort of 100 MB of short lines held them whole until the
		// memory guard stopped it).
		bound = max(m, sortMinBuffer)
	}
	perByte := int64(sortRecSize + 1)
	size := perByte + 1
	for _, name := range files {
		fsize, known := sortInputSize(env, name)
		if !known {
			if bufSize != 0 {
				return bound
			}
			fsize = sortInputGuess
		}
		if fsize > (bound-size)/perByte {
			return bound
		}
		size += fsize*perByte + 1
	}
	return size
}

// sortInputSize is the size of the input name when it is a regular file.
func sortInputSize(env *Env, name string) (int64, bool) {
	var fi fs.FileInfo
	var err error
	switch name {
	case "":
		return 0, false
	case "-", "/dev/stdin", "/dev/fd/0":
		st, ok := env.Stdin.(interface{ Stat() (fs.FileInfo, error) })
		if !ok {
			return 0, false
		}
		fi, err = st.Stat()
	default:
		if env.FS == nil {
			return 0, false
		}
		fi, err = env.FS.Stat(env.Abs(name))
	}
	if err != nil || !fi.Mode().IsRegular() {
		return 0, false
	}
	return fi.Size(), true
}

// sortLoader reads lines into the current run. Each line costs its bytes,
// its delimiter and its record; when the next line would take the run
// past budget, spill is handed the run's chunks (when spill is nil the
// run grows without bound). The memory of a spilled run is reused.
type sortLoader struct {
	s           *sortSorter
	env         *Env
	delim       byte
	budget      int64
	used        int64
	chunks      [][]sortRec
	recs        []sortRec
	chunkCap    int
	spareRecs   [][]sortRec
	blocks      []*sortBuf // blocks the run's lines point into; the last is being filled
	spareBlocks []*sortBuf
	blockSize   int // of a block (newSortLoader)
	spill       func(chunks [][]sortRec) error

	// bg sorts each chunk as it fills while reading goes on, on a
	// machine of more than one CPU; sorted is how many of the run's
	// chunks (the first ones) it was given, bgWait counts those not
	// sorted yet, and bgStop has it drop the rest (an error).
	bg     chan []sortRec
	sorted int
	bgWait sync.WaitGroup
	bgStop atomic.Bool
}

// newSortLoader makes a loader of runs of budget bytes. The records go in
// chunks of a sixteenth of the budget and the lines in blocks of a
// thirty-second (64 KiB to sortBlock): a run holds at most one chunk and
// two blocks more than its lines cost, 4.6 MB for a pipe's 4.3 MB, where
// chunks of a quarter and blocks of a sixteenth held 5.5 MB
// (TestSortRunMemory; GNU's buffer holds lines and records in the one
// allocation of its size).
func newSortLoader(s *sortSorter, env *Env, delim byte, budget int64, spill func([][]sortRec) error) *sortLoader {
	return &sortLoader{s: s, env: env, delim: delim, budget: budget, spill: spill,
		blockSize: int(min(max(budget/32, 64<<10), sortBlock)),
		chunkCap:  int(min(1<<15, max(16, budget/sortRecSize/16)))}
}

// handOff gives the run's last full chunk (the last of l.chunks) to the
// background sorter. The first l.sorted chunks are the ones sorted or
// handed off: chunks filled before the sorter started, while the sort
// ran on one CPU (GOMAXPROCS can grow during a sort: llmsh's main gives
// a script every P only once it has run a while), go to it first.
func (l *sortLoader) handOff() {
	if l.bg == nil {
		if sortWorkers(l.s) < 2 {
			return
		}
		bg := make(chan []sortRec, 64)
		l.bg = bg
		go func() {
			for c := range bg {
				if !l.bgStop.Load() {
					l.s.sortChunk(c)
				}
				l.bgWait.Done()
			}
		}()
	}
	for _, d := range l.chunks[l.sorted:] { // the new chunk, and any before it
		l.bgWait.Add(1)
		l.bg <- d
	}
	l.sorted = len(l.chunks)
}

// sortWorkers is (*sortSorter).workers (a test's count of CPUs in tests).
var sortWorkers = (*sortSorter).workers

// stopBg ends the background sorter, dropping what it was not done with.
func (l *sortLoader) stopBg() {
	if l.bg != nil {
		l.bgStop.Store(true)
		close(l.bg)
		l.bgWait.Wait()
		l.bg = nil
	}
}

// add adds the line b.b[off:off+n].
func (l *sortLoader) add(b *sortBuf, off, n int) error {
	if m := l.env.MaxLine; m > 0 && n > m {
		return l.env.lineTooLong()
	}
	cost := int64(n) + 1 + sortRecSize
	if l.spill != nil && l.used > 0 && l.used+cost > l.budget {
		if err := l.flush(); err != nil {
			return err
		}
	}
	if len(l.recs) == cap(l.recs) {
		if l.recs != nil {
			l.chunks = append(l.chunks, l.recs)
			l.handOff()
		}
		if n := len(l.spareRecs); n > 0 {
			l.recs, l.spareRecs = l.spareRecs[n-1], l.spareRecs[:n-1]
		} else {
			l.recs = make([]sortRec, 0, l.chunkCap)
		}
	}
	l.recs = append(l.recs, sortRecOf(b, off, n))
	l.s.prepare(&l.recs[len(l.recs)-1])
	l.used += cost
	return nil
}

// run returns the chunks of the current run, each sorted, and starts a
// new one.
func (l *sortLoader) run() [][]sortRec {
	chunks := l.chunks
	if len(l.recs) > 0 {
		chunks = append(chunks, l.recs)
	}
	// Sort the chunks the background sorter has not taken yet here,
	// beside it, then the rest in parallel.
	for stolen := true; stolen; {
		select {
		case c := <-l.bg: // never ready while l.bg is nil (nothing handed off)
			l.s.sortChunk(c)
			l.bgWait.Done()
		default:
			stolen = false
		}
	}
	l.bgWait.Wait()
	l.s.sortChunks(chunks[l.sorted:])
	l.chunks, l.recs, l.used, l.sorted = nil, nil, 0, 0
	return chunks
}

// flush spills the current run and keeps its memory for the next: the
// record chunks, and every block but the one being filled.
func (l *sortLoader) flush() error {
	chunks := l.run()
	err := l.spill(chunks)
	if err == errSortInMemory {
		// The run stays, sorted, and so does the rest of the input.
		l.chunks, l.spill, l.sorted = chunks, nil, len(chunks)
		return nil
	}
	for _, c := range chunks {
		if cap(c) == l.chunkCap {
			l.spareRecs = append(l.spareRecs, c[:0])
		}
	}
	if n := len(l.blocks); n > 0 {
		for _, b := range l.blocks[:n-1] {
			if len(b.b) == l.blockSize {
				l.spareBlocks = append(l.spareBlocks, b)
			}
		}
		l.blocks = append(l.blocks[:0], l.blocks[n-1])
	}
	return err
}

// release lets go of the memory of the runs: l is done.
func (l *sortLoader) release() {
	l.chunks, l.recs, l.spareRecs = nil, nil, nil
	l.blocks, l.spareBlocks = nil, nil
}

// block returns a buffer of size bytes for read.
func (l *sortLoader) block(size int) *sortBuf {
	var b *sortBuf
	if n := len(l.spareBlocks); size == l.blockSize && n > 0 {
		b, l.spareBlocks = l.spareBlocks[n-1], l.spareBlocks[:n-1]
	} else {
		b = &sortBuf{make([]byte, size)}
	}
	l.blocks = append(l.blocks, b)
	return b
}

// read adds the lines of r. Input is read into blocks (blockSize) that
// records point into; a line crossing a block's end moves to the next
// block, so no byte is copied more than once.
func (l *sortLoader) read(r io.Reader) error {
	env, delim := l.env, l.delim
	blk := l.block(l.blockSize)
	buf := blk.b
	start, n := 0, 0
	for {
		if err := env.Ctx.Err(); err != nil {
			return gnu.ErrCancelled
		}
		if n == len(buf) {
			if m := env.MaxLine; m > 0 && n-start > m {
				return env.lineTooLong()
			}
			size := l.blockSize
			if n-start > size/2 {
				if int64(n-start) >= sortBlockMax {
					return errSortLineMemory
				}
				size = int(min(2*int64(n-start), sortBlockMax))
			}
			nb := l.block(size)
			n = copy(nb.b, buf[start:n])
			blk, buf, start = nb, nb.b, 0
		}
		m, err := r.Read(buf[n:])
		for p := n; p < n+m; {
			i := bytes.IndexByte(buf[p:n+m], delim)
			if i < 0 {
				break
			}
			if aerr := l.add(blk, start, p+i-start); aerr != nil {
				return aerr
			}
			p += i + 1
			start = p
		}
		n += m
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	if start < n {
		return l.add(blk, start, n-start)
	}
	return nil
}

// sortTemps are the temporary files of one sort: where they go and the
// ones that exist, removed by cleanup on every way out.
type sortTemps struct {
	env  *Env
	dirs []string // -T, in turn; else $TMPDIR or /tmp
	next int
	live map[string]bool
}

// sortTempError is a temporary file that could not be created or written.
type sortTempError struct {
	msg string
}

func (e *sortTempError) Error() string { return e.msg }

// create makes a new temporary file, named as GNU names them.
func (t *sortTemps) create() (string, File, error) {
	dir := t.dirs[t.next%len(t.dirs)]
	t.next++
	const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	var err error = syscall.ENOSYS // no file system
	for range 100 {
		if t.env.FS == nil {
			break
		}
		b := make([]byte, 6)
		rand.Read(b)
		for i := range b {
			b[i] = chars[int(b[i])%len(chars)]
		}
		name := strings.TrimSuffix(dir, "/") + "/sort" + string(b)
		abs := t.env.Abs(name)
		if _, serr := t.env.FS.Lstat(abs); serr == nil {
			continue
		}
		var f File
		if f, err = t.env.FS.OpenFile(abs, os.O_WRONLY|os.O_CREATE|os.O_TRUNC); err == nil {
			t.live[abs] = true
			return abs, f, nil
		}
		break
	}
	return "", nil, &sortTempError{fmt.Sprintf("cannot create temporary file in %s: %s", t.env.QuoteAF(dir), ErrText(err))}
}

// remove removes one temporary file.
func (t *sortTemps) remove(name string) {
	if t.live[name] {
		t.env.FS.Remove(name)
		delete(t.live, name)
	}
}

func (t *sortTemps) cleanup() {
	for name := range t.live {
		t.remove(name)
	}
}

// errSortInMemory is spill's answer when no temporary file can be had and
// no -T was given: the input is then sorted in memory.
var errSortInMemory = errors.New("sort: in memory")

// sortSpiller writes runs to temporary files.
type sortSpiller struct {
	s     *sortSorter
	temps *sortTemps
	delim byte
	runs  []string // in input order
	// fallback: when a temporary file cannot be had and no -T was
	// given, the rest of the input stays in memory (see run).
	fallback bool
	// small: runs go to vfsd through the pipe (see writeShmer).
	small bool
	// compress is --compress-program's PROG: llmsh runs no host
	// program, so a sort that needs temporary files fails as GNU's does
	// when PROG cannot be executed.
	compress string
	// w is the buffer every run is written through, one after another:
	// a new 64 KiB buffer per run was garbage until the next collection,
	// and the nine runs of `cut | sort` of 1M lines made 576 KiB of it.
	w *bufio.Writer
}

// spill writes a run, its chunks sorted (sortLoader.run), to a new
// temporary file.
func (x *sortSpiller) spill(chunks [][]sortRec) error {
	if x.compress != "" {
		return &sortTempError{"couldn't execute compress program: errno 2"}
	}
	m := x.s.newMerge(chunks)
	err := x.write(func(w *bufio.Writer) error {
		var prev *sortRec
		for r := m.next(); r != nil; r = m.next() {
			if x.s.unique && prev != nil && x.s.cmp(prev, r) == 0 {
				continue
			}
			prev = r
			w.Write(r.line())
			w.WriteByte(x.delim)
		}
		return nil
	})
	var te *sortTempError
	if x.fallback && errors.As(err, &te) {
		return errSortInMemory
	}
	return err
}

// write makes a run of what fill writes.
func (x *sortSpiller) write(fill func(w *bufio.Writer) error) error {
	name, f, err := x.temps.create()
	if err != nil {
		return err
	}
	if ws, ok := f.(writeShmer); ok && x.small {
		ws.SetWriteShm(false)
	}
	if x.w == nil {
		x.w = bufio.NewWriterSize(f, 64<<10)
	} else {
		x.w.Reset(f)
	}
	w := x.w
	err = fill(w)
	if ferr := w.Flush(); err == nil && ferr != nil {
		err = &sortTempError{fmt.Sprintf("write failed: %s: %s", gnu.QuoteF(name), ErrText(ferr))}
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = &sortTempError{fmt.Sprintf("write failed: %s: %s", gnu.QuoteF(name), ErrText(cerr))}
	}
	w.Reset(nil) // drops the closed file and any bytes a failed flush kept
	if err != nil {
		x.temps.remove(name)
		return err
	}
	x.runs = append(x.runs, name)
	return nil
}

// sortPipeRuns is the largest buffer whose runs are written through the
// pipe to vfsd, not through the memory region shared with it: the two
// slots a run's writes gather in were 1 MiB resident in llmsh and in vfsd
// alike, a fifth of the llmsh process's heap when sorting a pipe (4.3 MB
// runs: `cut | sort | uniq -c` of 1M lines peaked at 23.2 MB, 1.0 of it
// the region). Over the pipe the bytes cost no memory of either process,
// and a run of a few MiB little time; larger runs keep the region.
const sortPipeRuns = 32 << 20

// writeShmer is a vfsd file that can be kept off the shared region
// (vfsclient.File.SetWriteShm).
type writeShmer interface{ SetWriteShm(on bool) }

// sortSrc is one input of a merge: an in-memory run or a file of lines.
type sortSrc struct {
	rec *sortRec // the record at its head; nil at its end
	mem *sortMerge
	in  *sortMergeIn
}

func (s *sortSorter) srcNext(src *sortSrc, delim byte) error {
	if src.mem != nil {
		src.rec = src.mem.next()
		return nil
	}
	if err := s.advance(src.in, delim); err != nil {
		return err
	}
	src.rec = nil
	if src.in.ok {
		src.rec = &src.in.rec
	}
	return nil
}

// sortReadError is a failed read of a merge's input.
type sortReadError struct {
	name string
	err  error
}

func (e *sortReadError) Error() string {
	return fmt.Sprintf("read failed: %s: %s", gnu.QuoteF(e.name), ErrText(e.err))
}

// sortHeap merges sources: a binary heap by their head records, ties to
// the earlier source (so that -s and -u keep input order).
type sortHeap struct {
	s     *sortSorter
	srcs  []*sortSrc
	heap  []int
	delim byte
}

func (s *sortSorter) newHeap(srcs []*sortSrc, delim byte) (*sortHeap, error) {
	h := &sortHeap{s: s, srcs: srcs, delim: delim}
	for i, src := range srcs {
		if err := s.srcNext(src, delim); err != nil {
			if err == gnu.ErrCancelled {
				return nil, err
			}
			return nil, &sortReadError{src.name(), err}
		}
		if src.rec != nil {
			h.heap = append(h.heap, i)
		}
	}
	for i := len(h.heap)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
	return h, nil
}

func (src *sortSrc) name() string {
	if src.in != nil {
		return src.in.name
	}
	return ""
}

func (h *sortHeap) less(i, j int) bool {
	if c := h.s.cmp(h.srcs[i].rec, h.srcs[j].rec); c != 0 {
		return c < 0
	}
	return i < j
}

func (h *sortHeap) down(i int) { sortHeapDown(h.heap, i, h.less) }

// head is the least record, nil when all sources are done. It stays
// valid until pop.
func (h *sortHeap) head() *sortRec {
	if len(h.heap) == 0 {
		return nil
	}
	return h.srcs[h.heap[0]].rec
}

// pop moves past the head record.
func (h *sortHeap) pop() error {
	top := h.srcs[h.heap[0]]
	if err := h.s.srcNext(top, h.delim); err != nil {
		if err == gnu.ErrCancelled {
			return err
		}
		return &sortReadError{top.name(), err}
	}
	if top.rec == nil {
		last := len(h.heap) - 1
		h.heap[0] = h.heap[last]
		h.heap = h.heap[:last]
	}
	h.down(0)
	return nil
}

// sortWriteError is a failed write of the output.
type sortWriteError struct{ err error }

func (e *sortWriteError) Error() string { return e.err.Error() }

// mergeTo writes the merge of h to w: with -u only the first of equal
// lines, with --debug (debug) annotated. A read error is a
// *sortReadError, a write error a *sortWriteError.
func (s *sortSorter) mergeTo(env *Env, h *sortHeap, w *bufio.Writer, debug bool) error {
	var prev sortRec
	var prevBuf sortBuf // the copy of prev's line when it is a file's
	havePrev := false
	for n := 0; ; n++ {
		if n&0xfff == 0 && env.Ctx.Err() != nil {
			return gnu.ErrCancelled
		}
		r := h.head()
		if r == nil {
			return nil
		}
		if !s.unique || !havePrev || s.cmp(&prev, r) != 0 {
			var err error
			if debug {
				err = s.sortDebugWrite(w, r.line(), s.gkeyOnly)
			} else {
				s.writeLine(w, r)
				err = w.WriteByte(h.delim)
			}
			if err != nil {
				return &sortWriteError{err}
			}
			if s.unique {
				if h.srcs[h.heap[0]].mem != nil {
					prev = *r // in memory to the end
				} else {
					prevBuf.b = append(prevBuf.b[:0], r.line()...)
					prev = sortRecOf(&prevBuf, 0, len(prevBuf.b))
					s.prepare(&prev)
				}
				havePrev = true
			}
		}
		if err := h.pop(); err != nil {
			return err
		}
	}
}

// writeLine writes r's line. A line of 8 bytes or fewer sorted as a
// whole (no key) is all in its record's prefix, and is written from
// there: the lines come out in an order unrelated to where they are in
// memory, and reading each one was a cache miss a line.
func (s *sortSorter) writeLine(w *bufio.Writer, r *sortRec) {
	if n := int(r.n); n <= 8 && len(s.keys) == 0 {
		if b := w.AvailableBuffer(); cap(b) >= 8 {
			w.Write(binary.BigEndian.AppendUint64(b, uint64(r.v)^1<<63)[:n])
			return
		}
	}
	w.Write(r.line())
}

// readSizer is a file whose reads can be kept to about n bytes each
// (vfsclient.File): the merge reads many runs at once, each through its
// own buffer of bufSize, and what vfsclient reads ahead of each is memory
// of this process (`cut | sort | uniq -c` of 1M lines: nine runs).
type readSizer interface{ SetReadSize(n int) }

// openRuns opens temporary runs as merge sources.
func (x *sortSpiller) openRuns(env *Env, runs []string, bufSize int) ([]*sortSrc, func(), error) {
	var srcs []*sortSrc
	closeAll := func() {
		for _, src := range srcs {
			src.in.rc.Close()
		}
	}
	for _, name := range runs {
		r, err := env.FS.OpenFile(name, os.O_RDONLY)
		if err != nil {
			closeAll()
			return nil, nil, &sortReadError{name, err}
		}
		if rs, ok := r.(readSizer); ok {
			rs.SetReadSize(bufSize)
		}
		srcs = append(srcs, &sortSrc{in: &sortMergeIn{env: env, name: name, rc: r, br: bufio.NewReaderSize(r, bufSize)}})
	}
	return srcs, closeAll, nil
}

// reduce merges runs --batch-size (nmerge) at a time into new runs until at most
// keep are left: consecutive runs, so that input order is kept for ties.
func (x *sortSpiller) reduce(env *Env, keep, bufSize int) error {
	for len(x.runs) > keep {
		old := x.runs
		x.runs = nil
		for i := 0; i < len(old); i += x.s.nmerge {
			group := old[i:min(i+x.s.nmerge, len(old))]
			if len(group) == 1 {
				x.runs = append(x.runs, group[0])
				continue
			}
			if err := x.mergeRuns(env, group, bufSize); err != nil {
				return err
			}
		}
	}
	return nil
}

// mergeRuns merges group into one new run and removes group's files.
func (x *sortSpiller) mergeRuns(env *Env, group []string, bufSize int) error {
	srcs, closeAll, err := x.openRuns(env, group, bufSize)
	if err != nil {
		return err
	}
	defer func() {
		closeAll()
		for _, name := range group {
			x.temps.remove(name)
		}
	}()
	h, err := x.s.newHeap(srcs, x.delim)
	if err != nil {
		return err
	}
	return x.write(func(w *bufio.Writer) error {
		err := x.s.mergeTo(env, h, w, false)
		var we *sortWriteError
		if errors.As(err, &we) {
			return nil // Flush reports it with the file's name
		}
		return err
	})
}
