package vfsclient

import (
	"errors"
	"io"

	"github.com/llmsh/llmsh/vfsproto"
)

// ErrNoCopy is CopyFrom's answer when vfsd cannot copy between the two
// files itself (or the files are not two of one client's, or src has
// read ahead): nothing was copied, and the caller copies through itself.
var ErrNoCopy = errors.New("vfsclient: no copy between these files")

// CopyFrom has vfsd copy up to max bytes of src, from src's offset, to f
// at f's offset (vfsd's copy: copy_file_range between its own
// descriptors; the bytes never come to this process) and returns how
// many it copied: 0 when src is at its end. It waits for the answer, so
// the bytes are written when it returns (f's commit, for a truncating
// write, is still its Close). A failure is f's write failure, as a failed
// Write's: f takes no more writes until Rearm. ErrNoCopy when vfsd cannot
// copy between them; then nothing was copied.
func (f *File) CopyFrom(src *File, max int64) (int64, error) {
	if !f.c.copy || src == nil || src == f || src.c != f.c || src.mode != vfsproto.ModeRead ||
		f.mode == vfsproto.ModeRead || f.mode == vfsproto.ModeAppend || max < 1 {
		return 0, ErrNoCopy
	}
	max = min(max, vfsproto.MaxCopy)
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.writable(); err != nil {
		return 0, err
	}
	if !src.mu.TryLock() {
		return 0, ErrNoCopy // in use: a Close, or another copy the other way
	}
	defer src.mu.Unlock()
	if src.closed || src.openCh != nil || src.openErr != nil || len(src.reads) > 0 || len(src.buf) > 0 {
		return 0, ErrNoCopy
	}
	f.c.flushOthers(src) // writes to src's file through other handles go first
	if err := f.flushWrites(); err != nil {
		return 0, err
	}
	var r vfsproto.CopyResult
	err := f.c.call(vfsproto.OpCopy, vfsproto.CopyParams{H: f.h, From: src.h, Off: src.pos, Max: max}, &r)
	var pe *Error
	if errors.As(err, &pe) && pe.Code == vfsproto.EUnsupported {
		return 0, ErrNoCopy
	}
	f.sent++
	f.answered++
	if err != nil {
		// Some bytes may have been copied before the failure: src's
		// offset in vfsd is past them, and Rearm finds f's.
		var sr vfsproto.SeekResult
		if serr := f.c.call(vfsproto.OpSeek, vfsproto.SeekParams{H: src.h, Offset: 0, Whence: vfsproto.SeekCur}, &sr); serr == nil {
			src.pos = sr.Offset
		}
		if f.failedAt == 0 {
			f.failedAt = f.answered
		}
		f.werr = pathErr("write", f.name, err)
		return 0, f.werr
	}
	f.pos += r.Size
	src.pos += r.Size
	src.eof = false
	return r.Size, nil
}

// CopyFileFrom is CopyFrom for a reader that may be a File of f's client
// (builtins.FileCopier: cat and cp copy through it): ok is false, and
// nothing was copied, when r is not one or vfsd cannot copy from it.
func (f *File) CopyFileFrom(r io.Reader, max int64) (n int64, ok bool, err error) {
	src, isFile := r.(*File)
	if !isFile {
		return 0, false, nil
	}
	n, err = f.CopyFrom(src, max)
	if errors.Is(err, ErrNoCopy) {
		return 0, false, nil
	}
	return n, true, err
}
