package vfsd

import (
	"io"
	"sync"

	"github.com/llmsh/llmsh/vfsproto"
)

// msgTooLarge is the write budget's refusal, which vfsclient maps to
// EFBIG: GNU's tools then say "File too large", as under bash's ulimit -f.
const msgTooLarge = "file too large"

// dirCost is what a new directory costs of the write budget: the block
// that ext4 gives it.
const dirCost = 4096

// entryInode is what a new file costs of the write budget besides its
// directory entry: the inode that ext4 gives it (256 bytes).
const entryInode = 256

// entryFree is the cost of names that the write budget's bound leaves
// out: without it a new file's 268 bytes were more than a --max-write
// of 200, under which no file could be made (session 31). The first 8
// KiB of names (a directory and a dozen small files, or 30 files) are
// free, so a session adds at most --max-write and 8 KiB to the disk.
const entryFree = 8192

// diskEntryCost is what a new directory entry named name costs of the write
// budget, as ext4 takes it: an 8-byte header and the name, padded to 4
// bytes, in its directory's blocks, and an inode. Empty files cost no
// data, yet 30000 of them with 245-byte names grew their directory by
// 11 MB and took 30000 of the disk's inodes (session 20, red team).
func diskEntryCost(name string) int64 {
	return entryInode + 8 + int64(len(name)+3)&^3
}

// writeBudget bounds the bytes a session adds to real files under its -o
// trees (Config.MaxWriteBytes): the growth of each file written, never
// given back by a truncation, a removal or a rewrite (the old file may
// still be held open by a handle, its blocks still used: a rewrite that
// filled its target's old size free let `exec 3<f; cat big > f` add
// that size to the disk each round). Writing within a file's size (dd
// conv=notrunc, an O_RDWR handle) costs nothing. Virtual files have
// their own budget.
//
// The names a session adds (diskEntryCost: a new file's directory entry
// and inode; a new directory's entry and its first block, dirCost) are
// charged to the same bound, Config.MaxWriteBytes, but not to the limit
// that write_budget lowers: that is bash's `ulimit -f`, a bound of file
// sizes that never limits how many files or directories a script makes.
// So the data and the entries past entryFree stay within max, and the
// data within limit.
type writeBudget struct {
	mu      sync.Mutex
	limit   int64 // the data's bound, lowered by write_budget; -1: none
	used    int64 // the data charged
	max     int64 // the bound of used and the entries past entryFree; -1: none
	entries int64 // the entries charged
}

// total is what max bounds: the data and the entries past entryFree.
// It holds b.mu.
func (b *writeBudget) total(entries int64) int64 {
	return b.used + max(entries-entryFree, 0)
}

func newWriteBudget(max int64) *writeBudget {
	if max <= 0 {
		max = -1
	}
	return &writeBudget{limit: max, max: max}
}

// bounded reports whether the data has a bound (when it has none, files
// are written without a budgetFile).
func (b *writeBudget) bounded() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.limit >= 0
}

// chargesEntries reports whether new names are charged (there is a max).
func (b *writeBudget) chargesEntries() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.max >= 0
}

// take charges up to n bytes of data and returns how many it charged.
func (b *writeBudget) take(n int64) int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	got := n
	if b.limit >= 0 {
		got = min(got, max(b.limit-b.used, 0))
	}
	if b.max >= 0 {
		got = min(got, max(b.max-b.total(b.entries), 0))
	}
	b.used += got
	return got
}

// give returns n bytes of data charged by take (what was charged for a
// write that then did not happen).
func (b *writeBudget) give(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used -= n
}

// takeEntry charges the cost n of a new name if it fits within max
// (past entryFree).
func (b *writeBudget) takeEntry(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.max >= 0 && b.total(b.entries+n) > b.max {
		return false
	}
	b.entries += n
	return true
}

// giveEntry returns an entry cost charged for a name that was not made.
func (b *writeBudget) giveEntry(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.entries -= n
}

// lower sets the limit to n when that lowers it (n < 0 asks nothing), and
// returns the limit and what was used.
func (b *writeBudget) lower(n int64) (limit, used int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n >= 0 && (b.limit < 0 || n < b.limit) {
		b.limit = n
	}
	return b.limit, b.used
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
				f.b.give(got)
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
