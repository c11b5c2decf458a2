package vfsd

import (
	"io"
	"sync/atomic"

	"github.com/llmsh/llmsh/vfsproto"
)

// msgTooLarge is the write budget's refusal, which vfsclient maps to
// EFBIG: GNU's tools then say "File too large", as under bash's ulimit -f.
const msgTooLarge = "file too large"

// dirCost is what a new directory costs of the write budget: the block
// that ext4 gives it.
const dirCost = 4096

// writeBudget bounds the bytes a session adds to real files under its -o
// trees (Config.MaxWriteBytes): the growth of each file written, never
// given back by a truncation, a removal or a rewrite (the old file may
// still be held open by a handle, its blocks still used: a rewrite that
// filled its target's old size free let `exec 3<f; cat big > f` add
// that size to the disk each round). Writing within a file's size (dd
// conv=notrunc, an O_RDWR handle) costs nothing. Virtual files have
// their own budget.
type writeBudget struct {
	limit atomic.Int64 // -1: none
	used  atomic.Int64
}

func newWriteBudget(max int64) *writeBudget {
	b := &writeBudget{}
	if max <= 0 {
		max = -1
	}
	b.limit.Store(max)
	return b
}

// take charges up to n bytes and returns how many it charged.
func (b *writeBudget) take(n int64) int64 {
	for {
		limit, used := b.limit.Load(), b.used.Load()
		got := n
		if limit >= 0 {
			got = min(n, max(limit-used, 0))
		}
		if b.used.CompareAndSwap(used, used+got) {
			return got
		}
	}
}

// lower sets the limit to n when that lowers it (n < 0 asks nothing), and
// returns the limit and what was used.
func (b *writeBudget) lower(n int64) (limit, used int64) {
	for n >= 0 {
		cur := b.limit.Load()
		if cur >= 0 && cur <= n || b.limit.CompareAndSwap(cur, n) {
			break
		}
	}
	return b.limit.Load(), b.used.Load()
}

// budgetFile is a real file written under the write budget. It knows the
// handle's offset and the file's size as the handle has seen them, and
// charges what a write adds past that size before it writes.
type budgetFile struct {
	file
	b         *writeBudget
	off, size int64
	appending bool
}

// budgeted wraps f, a real file opened for writing in mode, under the
// write budget; size is the file's size.
func (s *Server) budgeted(f file, mode vfsproto.Mode, size int64) file {
	off := int64(0)
	if mode == vfsproto.ModeAppend {
		off = size
	}
	return &budgetFile{file: f, b: s.budget, off: off, size: size, appending: mode == vfsproto.ModeAppend}
}

func (f *budgetFile) Write(p []byte) (int, error) {
	if f.appending {
		f.off = max(f.off, f.size)
	}
	// A write past the end adds the gap before it too.
	grow := max(f.off+int64(len(p))-f.size, 0)
	if grow > 0 {
		got := f.b.take(grow)
		if got < grow {
			// Write what fits, then refuse the rest, as a write(2)
			// under RLIMIT_FSIZE does.
			keep := int64(len(p)) - (grow - got)
			if keep <= 0 {
				// Not even the gap before the write fits: charge nothing.
				f.b.used.Add(-got)
				keep = 0
			}
			n, err := f.file.Write(p[:keep])
			f.moved(n)
			if err == nil {
				err = protoError{perr(vfsproto.ERange, msgTooLarge)}
			}
			return n, err
		}
	}
	n, err := f.file.Write(p)
	f.moved(n)
	return n, err
}

func (f *budgetFile) Read(p []byte) (int, error) {
	n, err := f.file.Read(p)
	f.off += int64(n)
	return n, err
}

// moved records n bytes written at the offset.
func (f *budgetFile) moved(n int) {
	f.off += int64(n)
	f.size = max(f.size, f.off)
}

func (f *budgetFile) Seek(offset int64, whence int) (int64, error) {
	off, err := f.file.Seek(offset, whence)
	if err == nil {
		f.off = off
		if whence == io.SeekEnd {
			f.size = max(f.size, off-offset)
		}
	}
	return off, err
}

// writeBudgetOp answers write_budget: the limit (lowered to Max when Max
// is set and lower) and the bytes used.
func (s *Server) writeBudgetOp(p vfsproto.WriteBudgetParams) vfsproto.WriteBudgetResult {
	n := int64(-1)
	if p.Max != nil {
		n = max(*p.Max, 0)
	}
	limit, used := s.budget.lower(n)
	return vfsproto.WriteBudgetResult{Max: limit, Used: used}
}
