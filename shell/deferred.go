package shell

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/llmsh/llmsh/builtins"
	"github.com/llmsh/llmsh/third_party/sh/interp"
)

// Deferred write confirmation (docs/security.md, "Writes"). An echo or
// printf whose status nothing reads right after it (interp.DeferredWrites
// says which: `for …; do printf …; done > f`) does not wait for vfsd's
// answer to its write: its bytes go at once, without waiting, and the
// shell notes which of the file's write requests were the command's. At
// the runner's next barrier (a statement that is not an echo or printf,
// $?, the loop's end, the end of the script) settleDeferred waits for
// the answers and charges each command whose requests failed with the
// failure as settle does: GNU's "NAME: write error: REASON" on its stderr
// and status 1, which becomes $? or the loop's status when nothing ran
// after it. vfsd's write_stop refuses every write sent after a failed one
// on the handle, so no byte of a later command lands out of place; those
// commands are charged too, as bash's would be by a disk still full, and
// the file is re-armed for the commands after the barrier.

// maxDeferred is the most commands awaiting confirmation: the next one
// waits (its settle confirms them all). maxCapture is the most bytes of
// one command's output kept for writing again (more: it waits), and
// maxKept the most kept for all of them.
const (
	maxDeferred = 4096
	maxCapture  = 64 << 10
	maxKept     = 1 << 20
)

// sender is an output whose writes can be sent without waiting and
// confirmed later (vfsclient.File).
type sender interface {
	Send() (int64, error)
	Sent() (int64, error)
	Requests() int64
	Written() (requests, pos int64)
}

// holder is a sender whose commands' bytes may share a request
// (vfsclient.File.SendHeld): a failed request is then placed by the
// file's offset after it (RearmOffset), as a write(2) that fails in
// the middle of a command's bytes, or before them, is placed by bash.
type holder interface {
	SendHeld() (to, pos int64, held bool, err error)
	RearmOffset() (int64, bool)
}

// deferredCmd is a command awaiting the confirmation of its writes: the
// requests from+1..to of its stdout's file, which carried the bytes
// data[start:end] of deferredWrites.
type deferredCmd struct {
	o          *outFile
	from, to   int64
	start, end int
	name       string
	prefix     string
	stderr     io.Writer // nil: its stderr is o, nowhere to report
	st         int
	seq        uint64
	// lazy: o is the command's own redirection, its open and close
	// confirmed here too (outFile.lazy).
	lazy bool
	// held: the command's bytes may share a request with others'
	// (holder); startPos and endPos are the file's offsets before and
	// after them.
	held             bool
	startPos, endPos int64
}

// deferredWrites holds a shell's commands awaiting confirmation.
type deferredWrites struct {
	n    atomic.Int32 // len(cmds), read without mu
	mu   sync.Mutex
	cmds []deferredCmd
	data []byte // the bytes the commands wrote
	// out gathers what the running command writes (outFile.capture).
	out []byte
	// charged holds the statuses of the deferred commands charged with
	// a failure by a settle that the runner has not asked about yet,
	// by statement (a settle that a command in a job made).
	charged map[uint64]uint8
}

// pending says whether commands await confirmation.
func (d *deferredWrites) pending() bool { return d.n.Load() > 0 }

// add defers the settle of a command that ended with status st, its
// writes since marks made, when it wrote only to its stdout's file and
// heard of no failure; false means settle it now.
func (d *deferredWrites) add(name, prefix string, stdout, stderr io.Writer, marks [2]outMark, st int, seq uint64) bool {
	o, ok := asOutFile(stdout)
	if !ok {
		return false
	}
	o.mu.Lock()
	m, over := outMark{writes: o.writes, told: o.told}, o.over
	o.capture, o.over = nil, false
	o.mu.Unlock()
	sd, ok := o.f.(sender)
	if !ok || o.own && !o.lazy {
		return false
	}
	errw := stderr
	if eo, ok := asOutFile(stderr); ok {
		if eo == o {
			errw = nil
		} else if eo.mark() != marks[1] {
			return false // wrote to a redirected stderr: settle both
		}
	}
	if m.told != marks[0].told {
		return false // heard of a failure: settle says what it must
	} else if m.writes == marks[0].writes && !o.lazy {
		return true // wrote nothing: nothing to confirm
	}
	// An error of Send is an earlier command's (settle finds it): the
	// command's requests are those sent, or none, and what it wrote is
	// written again if vfsd refused it.
	var to, endPos int64
	held := false
	if hs, ok := o.f.(holder); ok && !o.lazy {
		to, endPos, held, _ = hs.SendHeld()
	} else {
		to, _ = sd.Send()
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	start, end := -1, -1 // over: too long to keep, a refusal is a failure
	if o.lazy {
		// Its own file: nothing after its writes to refuse them.
		o.deferClose = true
	} else if !over {
		start = len(d.data)
		d.data = append(d.data, d.out...)
		end = len(d.data)
	}
	d.prune()
	d.cmds = append(d.cmds, deferredCmd{o: o, from: marks[0].sent, to: to, start: start, end: end,
		name: name, prefix: prefix, stderr: errw, st: st, seq: seq, lazy: o.lazy,
		held: held, startPos: marks[0].pos, endPos: endPos})
	d.n.Store(int32(len(d.cmds)))
	return true
}

// settler is a file of a command's own redirection that says, without
// waiting, whether its open, writes and close were all answered with
// success (vfsclient.File.Settled).
type settler interface{ Settled() bool }

// prune forgets the commands at the front of the queue that wrote to
// their own redirection (lazy) and whose open, writes and close have all
// been answered with success: a settle would find nothing to confirm or
// report of them. In a loop such as `for …; do echo $i >> f; done` the
// queue then holds the commands whose answers are still on their way
// instead of up to maxDeferred (a live heap the collector marked again
// and again), and a full queue's barrier, which waits for every answer,
// rarely comes. It stops at the first command that is not such, so the
// failures are still reported by the barrier, in order. d.mu is held.
func (d *deferredWrites) prune() {
	i := 0
	for i < len(d.cmds) && d.cmds[i].lazy {
		sf, ok := d.cmds[i].o.f.(settler)
		if !ok || !sf.Settled() {
			break
		}
		i++
	}
	if i > 0 {
		clear(d.cmds[:i]) // their files are garbage now
		d.cmds = d.cmds[i:]
	}
}

// watch has o, the stdout of an echo or printf that may defer its
// settle, keep a copy of what the command writes (see add).
func (d *deferredWrites) watch(stdout io.Writer) {
	o, ok := asOutFile(stdout)
	if !ok {
		return
	}
	d.out = d.out[:0]
	o.mu.Lock()
	o.capture, o.over = &d.out, false
	o.mu.Unlock()
}

// settle confirms every deferred command's writes, reports those that
// failed, and returns the status of the command of statement cur, if it
// was charged with a failure (by this settle or an earlier one).
func (d *deferredWrites) settle(cur uint64) (uint8, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.cmds) > 0 {
		d.confirm(nil, 0)
	}
	code, ok := d.charged[cur]
	clear(d.charged)
	return code, ok
}

// confirm is settle's work, with d.mu held. before, if not nil, runs
// before the command of statement at is confirmed (or at the end).
func (d *deferredWrites) confirm(before func(), at uint64) {
	if before != nil {
		defer func() {
			if before != nil {
				before()
			}
		}()
	}
	files := d.sentFiles()
	for _, c := range d.cmds {
		if before != nil && c.seq == at {
			before()
			before = nil
		}
		if c.lazy {
			d.confirmLazy(c)
			continue
		}
		r := &files[0]
		for i := range files {
			if files[i].o == c.o {
				r = &files[i]
			}
		}
		switch {
		case r.failedAt != 0 && r.off >= 0:
			d.place(c, r)
			continue
		case r.failedAt == 0 || c.to < r.failedAt:
			continue // every request of the command was written
		case c.from >= r.failedAt && c.start >= 0:
			// Refused after the failure (write_stop): written now, as
			// bash's command would have tried after the one that failed.
			if d.rewrite(c, r) {
				continue
			}
		}
		d.charge(c, r.err)
		rearm(c.o) // the next command's writes are tried again
	}
	for _, r := range files {
		r.o.mu.Lock()
		if r.failedAt != 0 {
			r.o.told++
		}
		r.o.attributed, r.o.settled = r.o.told, r.o.writes
		r.o.mu.Unlock()
	}
	d.cmds, d.data = d.cmds[:0], d.data[:0]
	d.n.Store(0)
}

// sentFile is a file of deferred commands once their writes were
// answered: failedAt is the first of its requests that failed (0: none),
// with its error; off, for a file whose commands' bytes shared requests
// (deferredCmd.held), is its offset where the failed request's bytes
// stop, -1 when not known.
type sentFile struct {
	o        *outFile
	failedAt int64
	err      error
	off      int64
}

// sentFiles waits for the answers to the writes of the deferred
// commands' files (their own redirections' aside: confirmLazy), and
// finds where a file whose commands shared requests failed. d.mu is
// held.
func (d *deferredWrites) sentFiles() []sentFile {
	var files []sentFile
	var held []bool
	for _, c := range d.cmds {
		if c.lazy {
			continue // its own file (confirmLazy)
		}
		i := slices.IndexFunc(files, func(r sentFile) bool { return r.o == c.o })
		if i < 0 {
			i = len(files)
			files, held = append(files, sentFile{o: c.o, off: -1}), append(held, false)
		}
		held[i] = held[i] || c.held
	}
	for i := range files {
		r := &files[i]
		r.failedAt, r.err = r.o.f.(sender).Sent()
		if r.failedAt != 0 && held[i] {
			if off, ok := r.o.f.(holder).RearmOffset(); ok {
				r.off = off
			}
		}
	}
	return files
}

// place confirms c, a command of the file r whose failed request is
// placed by its offset r.off: a command whose bytes end before it was
// written; the one whose bytes it cuts failed, as a write(2) that stops
// in the middle of bash's command; one after it was not tried (vfsd
// stopped at the failure, write_stop refused the rest) and is written
// now, as bash's command would have tried after the one that failed.
// d.mu is held.
func (d *deferredWrites) place(c deferredCmd, r *sentFile) {
	switch {
	case c.endPos <= r.off:
		return // written whole
	case c.startPos >= r.off && c.start >= 0:
		if d.rewrite(c, r) {
			return
		}
	}
	d.charge(c, r.err)
	rearm(c.o) // the next command's writes are tried again
}

// rewrite writes c's bytes again, after a failure that stopped them,
// and says whether they were written (else r.err says why). d.mu is
// held.
func (d *deferredWrites) rewrite(c deferredCmd, r *sentFile) bool {
	rearm(c.o)
	if _, err := c.o.f.Write(d.data[c.start:c.end]); err != nil {
		r.err = err
		return false
	}
	r.err = c.o.f.Flush()
	return r.err == nil
}

// confirmLazy confirms the open, the writes and the close of a command
// whose own redirection was opened without waiting, and charges their
// failure to it as it would have been charged had it waited: a failed
// open as the runner's failed redirection, with status 1 (bash runs no
// command then: what it wrote went nowhere); a failed write as settle
// does; a failed close as Close reports it.
func (d *deferredWrites) confirmLazy(c deferredCmd) {
	lf := c.o.f.(lazyFile)
	if c.o.openFailed(c.stderr, c.prefix) {
		lf.CloseErr()
		d.chargeStatus(c.seq, 1)
		return
	}
	at, err := c.o.f.(sender).Sent()
	if at != 0 && at > c.from && at <= c.to {
		d.charge(c, err)
	}
	if cerr := lf.CloseErr(); cerr != nil && at == 0 {
		fmt.Fprintf(c.o.stderr, "llmsh: %s: %s\n", c.o.name, builtins.ErrText(cerr))
	}
}

// chargeStatus notes the status st of the command of statement seq,
// charged with a failure.
func (d *deferredWrites) chargeStatus(seq uint64, st uint8) {
	if d.charged == nil {
		d.charged = map[uint64]uint8{}
	}
	d.charged[seq] = st
}

// charge reports that the write of c failed with err, and notes its status.
func (d *deferredWrites) charge(c deferredCmd, err error) {
	st := c.st
	if st == 0 {
		st = 1
	}
	if c.stderr != nil {
		fmt.Fprintf(c.stderr, "%s%s: write error: %s\n", c.prefix, c.name, builtins.ErrText(err))
	}
	d.chargeStatus(c.seq, uint8(st))
}

// rearm makes o's file take writes again after a failed one.
func rearm(o *outFile) {
	if r, ok := o.f.(rearmer); ok {
		r.Rearm()
	}
}

// barrier confirms the deferred commands before a command that is not
// deferred runs or settles.
func (d *deferredWrites) barrier() {
	if !d.pending() {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.cmds) > 0 {
		d.confirm(nil, 0)
	}
}

// full says whether one more command would pass maxDeferred or maxKept.
func (d *deferredWrites) full() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.cmds) >= maxDeferred || len(d.data)+maxCapture > maxKept
}

// deferSeq is the statement whose echo or printf may defer its settle
// (interp.HandlerContext.DeferSeq), 0 if none.
func deferSeq(ctx context.Context) (seq uint64) {
	defer func() {
		if recover() != nil {
			seq = 0
		}
	}()
	return interp.HandlerCtx(ctx).DeferSeq
}

// runDeferrable runs an echo or printf of statement seq (see
// deferSeq): while commands await confirmation, what it writes to a
// stderr other than its stdout waits in a buffer (spare, empty), and
// goes after the failures of those commands are reported, in the order
// bash's would be.
func (s *Shell) runDeferrable(b builtins.Builtin, env *builtins.Env, pipe *pipeWatch, spare *bytes.Buffer, stdout, stderr io.Writer, seq uint64) int {
	name, prefix := env.Args[0], env.ShellPrefix
	d := s.deferred
	// lo is the command's own redirection, opened without waiting: what
	// the command says on stderr waits until the open is known to have
	// worked (bash would not have run it otherwise; printf -v, which
	// assigns, never has such a redirection: interp's lazyRedir).
	lo, _ := asOutFile(stdout)
	if lo != nil && !lo.lazy {
		lo = nil
	}
	var ebuf *bytes.Buffer
	if d.pending() && d.full() {
		d.barrier()
	}
	if o, ok := asOutFile(stdout); lo != nil || d.pending() && (!ok || !sameOutFile(o, stderr)) {
		ebuf = spare
		env.Stderr = ebuf
	}
	marks := markOutputs(stdout, stderr)
	if lo == nil {
		d.watch(stdout)
	}
	st := builtins.Run(b, env)
	if pipe.broken.Load() {
		st = 141 // as run's
	}
	if lo != nil && (ebuf.Len() > 0 || lo.mark().told != marks[0].told) {
		// It said something, or heard of a failure: its open first.
		if d.barrier(); lo.openFailed(stderr, prefix) {
			return 1
		}
	}
	deferred := d.add(name, prefix, stdout, stderr, marks, st, seq)
	if lo != nil && !deferred {
		if d.barrier(); lo.openFailed(stderr, prefix) {
			return 1
		}
	}
	if ebuf == nil || ebuf.Len() == 0 {
		if deferred {
			return st
		}
		d.barrier()
		return settleOutputs(name, prefix, stdout, stderr, marks, st)
	}
	// What the command said goes after the failures of the commands
	// before it, and before its own.
	say := func() { stderr.Write(ebuf.Bytes()) }
	if !deferred {
		d.barrier()
		say()
		return settleOutputs(name, prefix, stdout, stderr, marks, st)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.confirm(say, seq)
	if code, ok := d.charged[seq]; ok {
		return int(code)
	}
	return st
}

// sameOutFile says whether w is the redirection o.
func sameOutFile(o *outFile, w io.Writer) bool {
	x, ok := asOutFile(w)
	return ok && x == o
}
