package vfsd

import (
	"bytes"
	"encoding/binary"
	"io/fs"
	"os"
	"path"
	"slices"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/llmsh/llmsh/vfsproto"
)

// beneath resolves names under a grant's directory in one openat2 call
// (RESOLVE_BENEATH: a ".." or a symbolic link that leaves the directory,
// an absolute link, a magic link of /proc, all fail with EXDEV or ELOOP,
// which fsError words as E_PERM, as os.Root's "path escapes from parent").
// os.Root opens a path one component at a time, about two system calls
// per directory on the way; a walk that reads thousands of small files
// paid most of vfsd's time there. Where openat2 is missing (kernels
// before 5.6, a seccomp filter that refuses it) fd is -1 and every caller
// goes through the os.Root as before.
type beneath struct {
	dir *os.File // the grant's directory, the same one as its os.Root
	fd  int
}

// resolveBeneath is the resolution every openat2 call of vfsd asks for.
const resolveBeneath = unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS

// openBeneath opens root's own directory for openat2, and probes that the
// kernel takes openat2 there; on any failure the result resolves nothing.
func openBeneath(root *os.Root) beneath {
	d, err := root.Open(".")
	if err != nil {
		return beneath{fd: -1}
	}
	fd := int(d.Fd())
	probe, err := unix.Openat2(fd, ".", &unix.OpenHow{Flags: unix.O_PATH | unix.O_CLOEXEC, Resolve: resolveBeneath})
	if err != nil {
		d.Close()
		return beneath{fd: -1}
	}
	unix.Close(probe)
	return beneath{dir: d, fd: fd}
}

func (b *beneath) close() {
	if b.dir != nil {
		b.dir.Close()
		b.dir, b.fd = nil, -1
	}
}

// open opens rel beneath the directory with flag (O_CLOEXEC added); the
// error is an *fs.PathError around the errno, as os.Root's are.
func (b *beneath) open(rel string, flag int) (int, error) {
	if b.fd < 0 {
		return -1, errFallback
	}
	for {
		how := unix.OpenHow{Flags: uint64(flag | unix.O_CLOEXEC), Resolve: resolveBeneath}
		if flag&unix.O_CREAT != 0 {
			how.Mode = 0o644 // as openInPlace's os.Root
		}
		fd, err := unix.Openat2(b.fd, rel, &how)
		switch {
		case err == nil:
			return fd, nil
		case err == unix.EINTR:
			continue
		case err == unix.EAGAIN || err == unix.ENOSYS:
			return -1, errFallback
		}
		return -1, &fs.PathError{Op: "openat2", Path: rel, Err: err}
	}
}

// stat is os.Root.Stat by openat2: the file rel names, through a final
// symbolic link.
func (b *beneath) stat(rel string) (fs.FileInfo, error) {
	fd, err := b.open(rel, unix.O_PATH)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	return fstatInfo(fd, rel)
}

// fstatInfo describes the open fd as os.File.Stat would.
func fstatInfo(fd int, name string) (fs.FileInfo, error) {
	si := &statInfo{name: name}
	for {
		err := syscall.Fstat(fd, &si.sys)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "fstat", Path: name, Err: err}
		}
		return si, nil
	}
}

// statInfo is an fs.FileInfo of a stat result, with the os package's
// mode bits and a *syscall.Stat_t for Sys (fileID and linkCount read it).
type statInfo struct {
	name string
	sys  syscall.Stat_t
}

func (s *statInfo) Name() string       { return s.name }
func (s *statInfo) Size() int64        { return s.sys.Size }
func (s *statInfo) ModTime() time.Time { return time.Unix(s.sys.Mtim.Unix()) }
func (s *statInfo) IsDir() bool        { return s.Mode().IsDir() }
func (s *statInfo) Sys() any           { return &s.sys }

func (s *statInfo) Mode() fs.FileMode {
	m := fs.FileMode(s.sys.Mode & 0o777)
	switch s.sys.Mode & syscall.S_IFMT {
	case syscall.S_IFBLK:
		m |= fs.ModeDevice
	case syscall.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFDIR:
		m |= fs.ModeDir
	case syscall.S_IFIFO:
		m |= fs.ModeNamedPipe
	case syscall.S_IFLNK:
		m |= fs.ModeSymlink
	case syscall.S_IFSOCK:
		m |= fs.ModeSocket
	}
	if s.sys.Mode&syscall.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if s.sys.Mode&syscall.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if s.sys.Mode&syscall.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	return m
}

// openRawRead opens rel of g for reading as a *rawFile, with openInPlace's
// checks; ok is false when openat2 cannot answer and the os.Root must.
func openRawRead(g *grant, rel string) (f file, e *vfsproto.Error, ok bool) {
	return openRaw(g, rel, os.O_RDONLY)
}

// openRawAppend opens rel by openat2 to append to it (flag: O_WRONLY and
// O_APPEND, with O_CREATE or not: appendExisting), with openInPlace's checks: a handle that costs no
// os.File (whose NewFile asks fcntl and epoll about each file: `echo $i
// >> f` in a loop opens one a command). It is write-only, so nothing
// reads it concurrently (read_shm_at), which asHandle guards against for
// a *rawFile read. ok is false when openat2 cannot answer.
func openRawAppend(g *grant, rel string, flag int) (f file, e *vfsproto.Error, ok bool) {
	return openRaw(g, rel, flag)
}

// openRaw opens rel of g by openat2 with flag as a *rawFile (a writer
// unless flag is O_RDONLY) after openInPlace's checks.
func openRaw(g *grant, rel string, flag int) (f file, e *vfsproto.Error, ok bool) {
	fd, err := g.bn.open(rel, flag|openFlags)
	if err == errFallback {
		return nil, nil, false
	}
	if err != nil {
		return nil, fsError(err), true
	}
	fi, err := fstatInfo(fd, rel)
	if err != nil {
		unix.Close(fd)
		return nil, fsError(err), true
	}
	if e := inPlaceOK(fi, flag); e != nil {
		unix.Close(fd)
		return nil, e, true
	}
	return &rawFile{fd: fd, name: rel, write: flag&(os.O_WRONLY|os.O_RDWR) != 0, size: fi.Size()}, nil, true
}

// parentBeneath opens the directory holding rel by openat2 (O_PATH) and
// returns it with rel's last name, for the *at calls of mkdir, lstat and
// remove: os.Root walks the parent a component at a time, so `mkdir -p`
// or `rm -r` of N levels cost O(N^3) system calls (300 levels: 1.6 s of
// vfsd's mkdirs, 1.9 s of its removes). ok is false when openat2 cannot
// answer (or rel has no parent of its own) and the os.Root must.
func parentBeneath(g *grant, rel string) (fd int, base string, err error, ok bool) {
	dir, base := path.Split(rel)
	if base == "" || base == "." || base == ".." {
		return -1, "", nil, false
	}
	if dir == "" {
		dir = "."
	}
	fd, err = g.bn.open(dir, unix.O_PATH|unix.O_DIRECTORY)
	if err == errFallback {
		return -1, "", nil, false
	}
	return fd, base, err, true
}

// mkdirBeneath is os.Root.Mkdir(rel, 0777) by mkdirat in rel's parent.
func mkdirBeneath(g *grant, rel string) (e *vfsproto.Error, ok bool) {
	fd, base, err, ok := parentBeneath(g, rel)
	if !ok || err != nil {
		return errorOf(err), ok
	}
	defer unix.Close(fd)
	for {
		err = unix.Mkdirat(fd, base, 0o777)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return fsError(&fs.PathError{Op: "mkdirat", Path: rel, Err: err}), true
	}
	return nil, true
}

// lstatBeneath is os.Root.Lstat(rel) by fstatat in rel's parent.
func lstatBeneath(g *grant, rel string) (fi fs.FileInfo, err error, ok bool) {
	fd, base, err, ok := parentBeneath(g, rel)
	if !ok || err != nil {
		return nil, err, ok
	}
	defer unix.Close(fd)
	si := &statInfo{name: base}
	if err := fstatat(fd, base, &si.sys); err != nil {
		return nil, &fs.PathError{Op: "fstatat", Path: rel, Err: err}, true
	}
	return si, nil, true
}

// lstatIn is lstat of rel in g: by openat2 where it can, else os.Root.
func lstatIn(g *grant, rel string) (fs.FileInfo, error) {
	if fi, err, ok := lstatBeneath(g, rel); ok {
		return fi, err
	}
	return g.root.Lstat(rel)
}

// removeBeneath is os.Root.Remove(rel) by unlinkat in rel's parent: a
// file, or else an empty directory, and os.Root's choice of error when
// both fail.
func removeBeneath(g *grant, rel string) (e *vfsproto.Error, ok bool) {
	fd, base, err, ok := parentBeneath(g, rel)
	if !ok || err != nil {
		return errorOf(err), ok
	}
	defer unix.Close(fd)
	err = ignoringEINTR(func() error { return unix.Unlinkat(fd, base, 0) })
	if err == nil {
		return nil, true
	}
	err1 := ignoringEINTR(func() error { return unix.Unlinkat(fd, base, unix.AT_REMOVEDIR) })
	if err1 == nil {
		return nil, true
	}
	if err1 != unix.ENOTDIR {
		err = err1
	}
	return fsError(&fs.PathError{Op: "unlinkat", Path: rel, Err: err}), true
}

func ignoringEINTR(f func() error) error {
	for {
		if err := f(); err != unix.EINTR {
			return err
		}
	}
}

// errorOf is fsError of err, or nil for none.
func errorOf(err error) *vfsproto.Error {
	if err == nil {
		return nil
	}
	return fsError(err)
}

// openDirBeneath opens the directory rel of g by openat2 for a listing;
// ok is false when openat2 cannot answer and the os.Root must.
func openDirBeneath(g *grant, rel string) (fd int, e *vfsproto.Error, ok bool) {
	// O_NONBLOCK: a FIFO without a writer (rel names one, or a link to
	// one) would block this open for ever; opened so, fstat sees it is
	// not a directory.
	fd, err := g.bn.open(rel, os.O_RDONLY|openFlags)
	if err == errFallback {
		return -1, nil, false
	}
	if err != nil {
		return -1, fsError(err), true
	}
	if fi, err := fstatInfo(fd, rel); err != nil {
		unix.Close(fd)
		return -1, fsError(err), true
	} else if !fi.IsDir() {
		unix.Close(fd)
		return -1, perr(vfsproto.EArg, msgNotDir), true
	}
	return fd, nil, true
}

// listBeneath is listReal's reading of a directory by openat2, getdents
// and an fstatat per entry relative to the directory; ok is false when
// openat2 cannot answer and the os.Root must.
func listBeneath(g *grant, rel string, full bool) (out []vfsproto.Entry, e *vfsproto.Error, ok bool) {
	fd, e, ok := openDirBeneath(g, rel)
	if !ok || e != nil {
		return nil, e, ok
	}
	defer unix.Close(fd)
	names, e := readNames(fd)
	if e != nil {
		return nil, e, true
	}
	// In name order already, the listing's sort (list) has nothing to
	// move: names are 16 bytes each, entries 100 with pointers (their
	// sort was 6% of a du -s walk's samples in vfsd, write barriers
	// included).
	slices.Sort(names)
	out = make([]vfsproto.Entry, 0, len(names))
	for _, name := range names {
		si := &statInfo{name: name}
		if err := fstatat(fd, name, &si.sys); err != nil {
			if err == unix.ENOENT {
				continue // gone between getdents and fstatat
			}
			return nil, fsError(err), true
		}
		out = append(out, entryOf(g, rel, name, si.Mode().Type(), si, full))
	}
	return out, nil, true
}

// listBeneathNames is listNames' reading of a directory by openat2 and
// getdents: each entry's kind from the type getdents gives, and an
// fstatat relative to the directory only for the directories (their
// lstat goes with them) and for entries of unknown type; ok is false
// when openat2 cannot answer.
func listBeneathNames(g *grant, rel string) (out []vfsproto.Entry, e *vfsproto.Error, ok bool) {
	fd, e, ok := openDirBeneath(g, rel)
	if !ok || e != nil {
		return nil, e, ok
	}
	defer unix.Close(fd)
	buf := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(buf)
	for {
		n, err := unix.ReadDirent(fd, *buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, fsError(err), true
		}
		if n <= 0 {
			return out, nil, true
		}
		for b := (*buf)[:n]; len(b) > 0; {
			name, typ, rest, valid := nextDirent(b)
			if !valid {
				return nil, perr(vfsproto.EIO, msgIO), true
			}
			b = rest
			if name == "." || name == ".." {
				continue
			}
			en := vfsproto.Entry{Name: name, Kind: direntKind(typ)}
			if en.Kind == "" || en.Kind == vfsproto.KindDir {
				si := &statInfo{name: name}
				if err := fstatat(fd, name, &si.sys); err != nil {
					if err == unix.ENOENT {
						continue // gone between getdents and fstatat
					}
					return nil, fsError(err), true
				}
				en.Kind = kindOf(si.Mode())
				if en.Kind == vfsproto.KindDir {
					st := statOf(si)
					en.Lstat = &st
				}
			}
			out = append(out, en)
			if len(out) > maxListEntries {
				return nil, perr(vfsproto.ERange, "too many entries"), true
			}
		}
	}
}

// nextDirent takes the first linux_dirent64 record of b apart: its name,
// its d_type and the records after it; valid is false for a record that
// does not fit in b.
func nextDirent(b []byte) (name string, typ byte, rest []byte, valid bool) {
	const nameOff = 19 // d_ino 8, d_off 8, d_reclen 2, d_type 1
	if len(b) < nameOff {
		return "", 0, nil, false
	}
	reclen := int(binary.NativeEndian.Uint16(b[16:18]))
	if reclen < nameOff || reclen > len(b) {
		return "", 0, nil, false
	}
	nb := b[nameOff:reclen]
	if i := bytes.IndexByte(nb, 0); i >= 0 {
		nb = nb[:i]
	}
	return string(nb), b[18], b[reclen:], true
}

// direntKind is the Entry.Kind of a getdents d_type; "" when the file
// system did not say (DT_UNKNOWN) and an fstatat must.
func direntKind(t byte) string {
	switch t {
	case unix.DT_REG:
		return vfsproto.KindFile
	case unix.DT_DIR:
		return vfsproto.KindDir
	case unix.DT_LNK:
		return vfsproto.KindSymlink
	case unix.DT_FIFO:
		return vfsproto.TypeFIFO
	case unix.DT_SOCK:
		return vfsproto.TypeSocket
	case unix.DT_CHR:
		return vfsproto.TypeChar
	case unix.DT_BLK:
		return vfsproto.TypeBlock
	}
	return ""
}

// readNames reads the names of the open directory fd, "." and ".." left
// out, at most maxListEntries of them.
func readNames(fd int) ([]string, *vfsproto.Error) {
	buf := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(buf)
	var names []string
	for {
		n, err := unix.ReadDirent(fd, *buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, fsError(err)
		}
		if n <= 0 {
			return names, nil
		}
		_, _, names = unix.ParseDirent((*buf)[:n], -1, names)
		if len(names) > maxListEntries {
			return nil, perr(vfsproto.ERange, "too many entries")
		}
	}
}

// direntBufs holds readNames' getdents buffers.
var direntBufs = sync.Pool{New: func() any { b := make([]byte, 16<<10); return &b }}

// fstatat is lstat of name in the open directory dirfd, into a
// syscall.Stat_t (fileID and linkCount read that type; the unix package's
// is the same kernel structure).
func fstatat(dirfd int, name string, st *syscall.Stat_t) error {
	for {
		err := unix.Fstatat(dirfd, name, (*unix.Stat_t)(unsafe.Pointer(st)), unix.AT_SYMLINK_NOFOLLOW)
		if err != unix.EINTR {
			return err
		}
	}
}

// The cast in fstatat needs both structures of one size.
var (
	_ [unsafe.Sizeof(unix.Stat_t{}) - unsafe.Sizeof(syscall.Stat_t{})]byte
	_ [unsafe.Sizeof(syscall.Stat_t{}) - unsafe.Sizeof(unix.Stat_t{})]byte
)
