package vfsd

import (
	"errors"
	"io"
	"os"

	"github.com/llmsh/llmsh/vfsproto"
)

// copy (vfsproto.FeatureCopy) writes the bytes of one handle to another
// without sending them to the client and back: `cat big > out/copy`
// read 100 MB through the shared region and wrote them through it again,
// 1.93x GNU cat, which copies in the kernel (copy_file_range). Both ends
// are handles the client opened under the policy, so the copy reads
// nothing a read could not and writes nothing a write could not; the
// write budget is charged as for a write, and the answer comes once the
// bytes are in the file (its commit, for a truncating write, is still
// the close's). What the kernel cannot copy (a virtual file, a device,
// an append, another file system) is E_UNSUPPORTED with nothing copied:
// the client then copies through itself.

// errNoCopy says that a copy cannot be made between these files.
var errNoCopy = errors.New("copy: not between regular files")

// copyHandles serves a copy to h, on h's goroutine.
func (c *conn) copyHandles(h *handle, j *job) (*frameBuf, *vfsproto.Error, int) {
	if !h.canWrite {
		return nil, perr(vfsproto.EPerm, "handle not open for writing"), 0
	}
	if h.werr != nil {
		return nil, h.werr, 0
	}
	switch {
	case j.max < 1 || j.off < 0:
		return nil, perr(vfsproto.EArg, "invalid max or off"), 0
	case j.max > vfsproto.MaxCopy:
		return nil, perr(vfsproto.ERange, "max too large"), 0
	}
	c.mu.Lock()
	src := c.handles[j.from]
	c.mu.Unlock()
	if src == nil {
		return nil, perr(vfsproto.ENoEnt, "no such handle"), 0
	}
	if !src.canRead {
		return nil, perr(vfsproto.EPerm, "handle not open for reading"), 0
	}
	n, err := copyFile(h.f, src.f, j.off, j.max)
	if errors.Is(err, errNoCopy) {
		return nil, perr(vfsproto.EUnsupported, err.Error()), 0
	}
	if err != nil {
		e := ioError(err)
		if c.writeStop.Load() {
			h.werr = e
		}
		return nil, e, int(n)
	}
	c.s.stats.writes.Add(1)
	c.s.stats.bytesIn.Add(n)
	return okFrame(j.id, vfsproto.CopyResult{Size: n}), nil, int(n)
}

// copyFile copies up to max bytes of src from off to dst at its offset,
// and leaves src's offset just past them, where a read of the client's
// after the copy takes up. errNoCopy (nothing copied) when the files
// are not two regular files the kernel can copy between.
func copyFile(dst, src file, off, max int64) (int64, error) {
	sf, ok := src.(realFile)
	if !ok {
		return 0, errNoCopy
	}
	budget, _ := dst.(*budgetFile)
	if budget != nil {
		if budget.appending {
			return 0, errNoCopy // copy_file_range refuses O_APPEND
		}
		dst = budget.file
	}
	var df *os.File
	switch f := dst.(type) {
	case realFile:
		df = f.File
	case *atomicFile:
		df = f.File
	default:
		return 0, errNoCopy
	}
	fi, err := sf.File.Stat()
	if err != nil {
		return 0, err
	}
	if !fi.Mode().IsRegular() {
		return 0, errNoCopy
	}
	want := min(max, fi.Size()-off)
	if want <= 0 {
		return 0, nil // at or past the end, as a read there
	}
	run := func(n int64) (int64, error) { return kernelCopy(df, sf.File, off, n) }
	var n int64
	if budget != nil {
		n, err = budget.charge(want, run)
	} else {
		n, err = run(want)
	}
	if n > 0 {
		if _, serr := sf.File.Seek(off+n, io.SeekStart); err == nil {
			err = serr
		}
	}
	return n, err
}

// charge runs a write of up to want bytes at the handle's offset (run
// writes at most the bytes it is given and returns how many it wrote),
// charging what it adds past the file's size as Write does: when the
// budget holds less, run gets what fits and the copy then fails with
// E_RANGE, as a write(2) under RLIMIT_FSIZE.
func (f *budgetFile) charge(want int64, run func(n int64) (int64, error)) (int64, error) {
	grow := max(f.off+want-f.size, 0)
	limit, got := want, int64(0)
	if grow > 0 {
		got = f.b.take(grow)
		limit = want - (grow - got)
		if limit <= 0 {
			f.b.give(got)
			return 0, protoError{perr(vfsproto.ERange, msgTooLarge)}
		}
	}
	n, err := run(limit)
	f.b.give(got - max(f.off+n-f.size, 0))
	f.off += n
	f.size = max(f.size, f.off)
	if err == nil && n == limit && limit < want {
		err = protoError{perr(vfsproto.ERange, msgTooLarge)}
	}
	return n, err
}
