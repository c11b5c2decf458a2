package vfsd

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash"
	"io"
	"io/fs"
	"os"
	"sync"
	"syscall"

	"github.com/llmsh/llmsh/vfsproto"
)

// file is what a handle reads and writes: a real file opened through an
// os.Root, a temp file of an atomic write, or a virtual file.
type file interface {
	Read(p []byte) (int, error)
	// ReadAt reads at an offset without the handle's position, at the
	// same time as the handle's other operations (read_shm_at).
	ReadAt(p []byte, off int64) (int, error)
	Write(p []byte) (int, error)
	Seek(offset int64, whence int) (int64, error)
	stat() (vfsproto.StatResult, error)
	// commit ends the handle normally (close).
	commit() error
	// abort ends the handle without completing it (client gone).
	abort()
}

// statOf converts a FileInfo to a stat result.
func statOf(fi os.FileInfo) vfsproto.StatResult {
	return vfsproto.StatResult{
		Size:  fi.Size(),
		Mtime: fi.ModTime().UnixNano(),
		Mode:  uint32(fi.Mode().Perm()),
		IsDir: fi.IsDir(),
		Type:  typeOf(fi.Mode()),
		ID:    fileID(fi),
	}
}

// statAccessed is statOf with the access time, for stat and lstat of one
// file (listings leave it out: it changes as the tree is read).
func statAccessed(fi os.FileInfo) vfsproto.StatResult {
	st := statOf(fi)
	st.Atime = atimeOf(fi)
	return st
}

// atimeOf is the access time of a real file in Unix nanoseconds, 0 when
// fi has none.
func atimeOf(fi os.FileInfo) int64 {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0
	}
	return syscall.TimespecToNsec(st.Atim)
}

// typeOf is the protocol's name for a file type that is neither regular,
// nor a directory, nor a symbolic link; "" for those.
func typeOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return vfsproto.TypeFIFO
	case m&fs.ModeSocket != 0:
		return vfsproto.TypeSocket
	case m&fs.ModeCharDevice != 0:
		return vfsproto.TypeChar
	case m&fs.ModeDevice != 0:
		return vfsproto.TypeBlock
	}
	return ""
}

// idKey is this vfsd process's key for file identities: random, never
// written anywhere, so an id says nothing of the host's device and inode
// numbers and ids of one file differ from one vfsd process to the next.
// It is made on first use, not at start-up: crypto/rand's first read sets
// up its generator, which every start of llmsh and vfsd paid in package
// init for runs that never ask a file's identity.
var idKey = sync.OnceValue(func() []byte {
	k := make([]byte, 32)
	rand.Read(k) // crypto/rand.Read never fails (Go 1.24+)
	return k
})

// fileID is the opaque identity of a real file: HMAC-SHA256 of its device
// and inode under idKey, truncated to 128 bits, in hex. Two names of the
// same file (hard links, a link and its target) have the same id; "" when
// the system gives no device and inode.
func fileID(fi os.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], uint64(st.Dev))
	binary.LittleEndian.PutUint64(b[8:], st.Ino)
	m := idMACs.Get().(hash.Hash)
	m.Reset()
	m.Write(b[:])
	var sum [sha256.Size]byte
	id := hex.EncodeToString(m.Sum(sum[:0])[:16])
	idMACs.Put(m)
	return id
}

// idMACs holds HMACs under idKey for fileID: a listing describes each of
// its entries, and a new HMAC costs more than the hashing itself.
var idMACs = sync.Pool{New: func() any { return hmac.New(sha256.New, idKey()) }}

// realFile is a file opened in place.
type realFile struct{ *os.File }

func (f realFile) stat() (vfsproto.StatResult, error) {
	fi, err := f.File.Stat()
	if err != nil {
		return vfsproto.StatResult{}, err
	}
	return statAccessed(fi), nil
}

func (f realFile) commit() error { return f.File.Close() }
func (f realFile) abort()        { f.File.Close() }

// atomicFile is a truncating write: data goes to a temp file beside the
// target, renamed over it on commit and removed on abort. The temp file
// is either unnamed (dir is set: O_TMPFILE, linked at commit) or named tmp.
type atomicFile struct {
	realFile
	root   *os.Root
	tmp    string   // temp name relative to root (named temp)
	dir    *os.File // the target's directory (unnamed temp)
	target string   // target name relative to root, or in dir
}

func (f *atomicFile) commit() error {
	if f.dir != nil {
		err := commitUnnamed(f.File, f.dir, f.target)
		if cerr := f.File.Close(); err == nil {
			err = cerr
		}
		f.dir.Close()
		return err
	}
	if err := f.File.Close(); err != nil {
		f.root.Remove(f.tmp)
		return err
	}
	if _, err := f.root.Lstat(f.target); errors.Is(err, fs.ErrNotExist) {
		// Removed while open: it does not come back (replaceTarget).
		f.root.Remove(f.tmp)
		return nil
	}
	if err := f.root.Rename(f.tmp, f.target); err != nil {
		f.root.Remove(f.tmp)
		return err
	}
	return nil
}

func (f *atomicFile) abort() {
	f.File.Close()
	if f.dir != nil {
		f.dir.Close() // the unnamed file is gone with its last descriptor
		return
	}
	f.root.Remove(f.tmp)
}

// virtualHandle is an open virtual file with its own offset.
type virtualHandle struct {
	store     *virtualStore
	f         *vfile
	off       int64
	appending bool
}

// errVirtualRange carries an E_RANGE from the virtual store through the
// io.Writer interface.
type protoError struct{ e *vfsproto.Error }

func (p protoError) Error() string { return p.e.Error() }

func (h *virtualHandle) Read(p []byte) (int, error) {
	n := h.store.readAt(h.f, p, h.off)
	h.off += int64(n)
	if n == 0 && len(p) > 0 {
		return 0, io.EOF
	}
	return n, nil
}

// ReadAt reads at off without moving the handle's offset; io.EOF when
// the file ends before p is full.
func (h *virtualHandle) ReadAt(p []byte, off int64) (int, error) {
	n := h.store.readAt(h.f, p, off)
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (h *virtualHandle) Write(p []byte) (int, error) {
	end, perr := h.store.writeAt(h.f, p, h.off, h.appending)
	if perr != nil {
		return 0, protoError{perr}
	}
	h.off = end
	return len(p), nil
}

func (h *virtualHandle) Seek(offset int64, whence int) (int64, error) {
	var base int64
	switch whence {
	case io.SeekCurrent:
		base = h.off
	case io.SeekEnd:
		base = h.store.size(h.f)
	}
	n := base + offset
	if n < 0 {
		return h.off, protoError{perr(vfsproto.EArg, "negative offset")}
	}
	h.off = n
	return n, nil
}

func (h *virtualHandle) stat() (vfsproto.StatResult, error) { return h.store.stat(h.f), nil }
func (h *virtualHandle) commit() error                      { h.store.release(h.f); return nil }
func (h *virtualHandle) abort()                             { h.store.release(h.f) }

// rawFile is a regular file opened for reading by openat2 and read with
// plain system calls, without an os.File (whose NewFile asks fcntl and
// epoll about each file): read_file's, which never becomes a handle
// (asHandle makes one an os.File).
type rawFile struct {
	fd   int
	name string
	// write: opened to append (openRawAppend), the handle keeps it.
	write bool
	// size is the file's size when it was opened (openRaw's fstat):
	// the write budget's start for an append, with no second fstat.
	size int64
}

func (f *rawFile) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		n, err := syscall.Read(f.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &fs.PathError{Op: "read", Path: f.name, Err: err}
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f *rawFile) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	for n < len(p) {
		m, err := syscall.Pread(f.fd, p[n:], off+int64(n))
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return n, &fs.PathError{Op: "pread", Path: f.name, Err: err}
		case m == 0:
			return n, io.EOF
		}
		n += m
	}
	return n, nil
}

func (f *rawFile) Write(p []byte) (int, error) {
	if !f.write {
		return 0, &fs.PathError{Op: "write", Path: f.name, Err: syscall.EBADF}
	}
	n := 0
	for n < len(p) {
		m, err := syscall.Write(f.fd, p[n:])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return n, &fs.PathError{Op: "write", Path: f.name, Err: err}
		case m == 0:
			return n, &fs.PathError{Op: "write", Path: f.name, Err: io.ErrShortWrite}
		}
		n += m
	}
	return n, nil
}

func (f *rawFile) Seek(offset int64, whence int) (int64, error) {
	off, err := syscall.Seek(f.fd, offset, whence)
	if err != nil {
		return 0, &fs.PathError{Op: "seek", Path: f.name, Err: err}
	}
	return off, nil
}

func (f *rawFile) stat() (vfsproto.StatResult, error) {
	fi, err := fstatInfo(f.fd, f.name)
	if err != nil {
		return vfsproto.StatResult{}, err
	}
	return statAccessed(fi), nil
}

func (f *rawFile) commit() error {
	if err := syscall.Close(f.fd); err != nil {
		return &fs.PathError{Op: "close", Path: f.name, Err: err}
	}
	return nil
}

func (f *rawFile) abort() { syscall.Close(f.fd) }

// fileInfo describes the real file f; an error for any other.
func fileInfo(f file) (fs.FileInfo, error) {
	switch f := f.(type) {
	case realFile:
		return f.File.Stat()
	case *rawFile:
		return fstatInfo(f.fd, f.name)
	}
	return nil, errFallback
}
