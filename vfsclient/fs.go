package vfsclient

import (
	"io/fs"
	"os"
	"path"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/llmsh/llmsh/vfsproto"
)

// pathErr wraps err of operation op on name. An empty name is ENOENT, as
// the kernel answers it (vfsd refuses it as a missing argument).
func pathErr(op, name string, err error) error {
	if err == nil {
		return nil
	}
	if name == "" {
		err = syscall.ENOENT
	}
	return &fs.PathError{Op: op, Path: name, Err: err}
}

// modeFor maps os.O_* flags to a protocol open mode.
func modeFor(flag int) vfsproto.Mode {
	switch {
	case flag&os.O_APPEND != 0:
		return vfsproto.ModeAppend
	case flag&(os.O_WRONLY|os.O_RDWR) == os.O_WRONLY && flag&os.O_TRUNC != 0:
		return vfsproto.ModeWrite
	case flag&(os.O_WRONLY|os.O_RDWR) == os.O_RDWR && flag&os.O_TRUNC != 0:
		// rw with truncation: vfsd's "w" truncates atomically; reading
		// back through the same handle is not offered in that case.
		return vfsproto.ModeWrite
	case flag&(os.O_WRONLY|os.O_RDWR) != 0:
		return vfsproto.ModeReadWrite
	}
	return vfsproto.ModeRead
}

// OpenFile opens name with os.O_* flags. O_EXCL is checked with a stat
// first (a racing creator in the same session can slip between the two).
func (c *Client) OpenFile(name string, flag int) (*File, error) {
	if err := c.ready(); err != nil {
		return nil, pathErr("open", name, err)
	}
	if flag&os.O_EXCL != 0 {
		if _, err := c.Stat(name); err == nil {
			return nil, pathErr("open", name, syscall.EEXIST)
		}
	}
	c.flushPending()
	mode := modeFor(flag)
	if mode == vfsproto.ModeRead && c.named {
		if f, ok, err := c.openStat(name); ok {
			return f, err
		}
	}
	var r vfsproto.OpenResult
	if err := c.call(vfsproto.OpOpen, vfsproto.OpenParams{Path: name, Mode: mode}, &r); err != nil {
		return nil, pathErr("open", name, err)
	}
	return newFile(c, r.Handle, name, mode), nil
}

// Open opens name for reading.
func (c *Client) Open(name string) (*File, error) { return c.OpenFile(name, os.O_RDONLY) }

// Create opens name for writing, truncating it (atomically on close).
func (c *Client) Create(name string) (*File, error) {
	return c.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
}

// CreateTemp makes a new virtual file; File.Name is its path.
func (c *Client) CreateTemp(prefix string) (*File, error) {
	var r vfsproto.CreateTempResult
	if err := c.call(vfsproto.OpCreateTemp, vfsproto.CreateTempParams{Prefix: prefix}, &r); err != nil {
		return nil, pathErr("createtemp", prefix, err)
	}
	return newFile(c, r.Handle, r.Path, vfsproto.ModeReadWrite), nil
}

// FileInfo describes a file as vfsd reports it.
type FileInfo struct {
	name string
	st   vfsproto.StatResult
}

// Name is the base name.
func (i *FileInfo) Name() string { return i.name }

// Size is the length in bytes.
func (i *FileInfo) Size() int64 { return i.st.Size }

// Mode is the permission bits, with fs.ModeDir for directories,
// fs.ModeSymlink for a symbolic link described by Lstat, and the type
// bits of a named pipe, socket or device.
func (i *FileInfo) Mode() fs.FileMode {
	m := fs.FileMode(i.st.Mode) & fs.ModePerm
	switch {
	case i.st.Symlink:
		m |= fs.ModeSymlink
	case i.st.IsDir:
		m |= fs.ModeDir
	default:
		m |= typeBits(i.st.Type)
	}
	return m
}

// typeBits are the fs.FileMode type bits of a vfsproto type name.
func typeBits(t string) fs.FileMode {
	switch t {
	case vfsproto.TypeFIFO:
		return fs.ModeNamedPipe
	case vfsproto.TypeSocket:
		return fs.ModeSocket
	case vfsproto.TypeChar:
		return fs.ModeDevice | fs.ModeCharDevice
	case vfsproto.TypeBlock:
		return fs.ModeDevice
	}
	return 0
}

// ModTime is the modification time in UTC: a time in time.Local would
// show the host's zone to whatever formats it without a zone of its own.
func (i *FileInfo) ModTime() time.Time { return time.Unix(0, i.st.Mtime).UTC() }

// AccessTime is the last access time in UTC, and false when vfsd keeps
// none (virtual files, synthesised directories).
func (i *FileInfo) AccessTime() (time.Time, bool) {
	if i.st.Atime == 0 {
		return time.Time{}, false
	}
	return time.Unix(0, i.st.Atime).UTC(), true
}

// IsDir reports whether it is a directory (a symbolic link described by
// Lstat is not).
func (i *FileInfo) IsDir() bool { return i.st.IsDir && !i.st.Symlink }

// Sys returns nil: vfsd reveals no owner or device.
func (i *FileInfo) Sys() any { return nil }

// FileID is vfsd's opaque identity of the file, "" when it has none (see
// the function FileID).
func (i *FileInfo) FileID() string { return i.st.ID }

// FileID returns vfsd's opaque identity of the file fi describes (a
// FileInfo from Stat, Lstat or a handle's Stat): equal for two names of
// the same file within one session. ok is false when fi has none (a
// virtual file, an ancestor of a grant, or a FileInfo not from vfsd).
func FileID(fi fs.FileInfo) (id string, ok bool) {
	i, isOurs := fi.(*FileInfo)
	if !isOurs || i.st.ID == "" {
		return "", false
	}
	return i.st.ID, true
}

// Stat describes name.
func (c *Client) Stat(name string) (fs.FileInfo, error) {
	c.flushPending()
	var r vfsproto.StatResult
	if err := c.call(vfsproto.OpStat, vfsproto.StatParams{Path: &name}, &r); err != nil {
		return nil, pathErr("stat", name, err)
	}
	return &FileInfo{name: path.Base(name), st: r}, nil
}

// dirEntry is one entry of ReadDir. A symbolic link is reported as
// os.ReadDir reports one: Type is fs.ModeSymlink, IsDir is false and Info
// describes the link itself (an lstat, made when asked for).
type dirEntry struct {
	c   *Client
	dir string
	e   vfsproto.Entry
	// l is the listing of names an entry with Kind came in.
	l *namesListing
}

func (d dirEntry) Name() string { return d.e.Name }
func (d dirEntry) IsDir() bool {
	if d.e.Kind != "" {
		return d.e.Kind == vfsproto.KindDir
	}
	return d.e.IsDir && !d.e.Symlink
}
func (d dirEntry) Type() fs.FileMode {
	switch {
	case d.e.Kind == vfsproto.KindDir:
		return fs.ModeDir
	case d.e.Kind == vfsproto.KindSymlink:
		return fs.ModeSymlink
	case d.e.Kind != "":
		return typeBits(d.e.Kind)
	case d.e.Symlink:
		return fs.ModeSymlink
	case d.e.IsDir:
		return fs.ModeDir
	}
	return typeBits(d.e.Type)
}
func (d dirEntry) Info() (fs.FileInfo, error) {
	if d.e.Lstat != nil {
		return &FileInfo{name: d.e.Name, st: *d.e.Lstat}, nil
	}
	if d.l != nil {
		if st, ok := d.l.describe(d.e.Name); ok {
			return &FileInfo{name: d.e.Name, st: st}, nil
		}
	}
	return d.c.Lstat(path.Join(d.dir, d.e.Name))
}

// namesListing is what the entries of one ReadDirTypes share: the
// directory's full listing, made once, when the first of them is asked
// for its Info.
type namesListing struct {
	c         *Client
	dir       string
	described *atomic.Bool
	once      sync.Once
	full      map[string]*vfsproto.StatResult
}

// describe returns the lstat of the entry name from the directory's full
// listing; ok is false when that listing did not describe it (the
// directory changed, or vfsd did not describe entries).
func (l *namesListing) describe(name string) (st vfsproto.StatResult, ok bool) {
	if l.described != nil {
		l.described.Store(true)
	}
	l.once.Do(func() {
		var r vfsproto.ListResult
		if l.c.call(vfsproto.OpList, vfsproto.ListParams{Path: l.dir}, &r) != nil {
			return
		}
		l.full = make(map[string]*vfsproto.StatResult, len(r.Entries))
		for _, e := range r.Entries {
			if e.Lstat != nil {
				l.full[e.Name] = e.Lstat
			}
		}
	})
	if p := l.full[name]; p != nil {
		return *p, true
	}
	return st, false
}
func (d dirEntry) String() string { return fs.FormatDirEntry(d) }

// Described reports whether Info answers from the listing, without a
// round trip to vfsd.
func (d dirEntry) Described() bool { return d.e.Lstat != nil }

// LinkTarget reports, for an entry of ReadDir that is a symbolic link,
// whether its target is a directory and the target's size, as vfsd
// reached it through the granted tree when it listed the directory (a
// target that is missing or leaves the tree is no directory, of size 0).
// ok is false for any other entry.
func LinkTarget(de fs.DirEntry) (isDir bool, size int64, ok bool) {
	d, isOurs := de.(dirEntry)
	if isOurs && d.e.Kind == vfsproto.KindSymlink {
		// From a listing of names: the target asked for now.
		if fi, err := d.c.Stat(path.Join(d.dir, d.e.Name)); err == nil {
			return fi.IsDir(), sizeOf(fi), true
		}
		return false, 0, true
	}
	if !isOurs || !d.e.Symlink {
		return false, 0, false
	}
	return d.e.IsDir, d.e.Size, true
}

// ReadDir lists the directory name, sorted by name. An entry's Info is
// its Lstat: taken from the listing when vfsd described the entries in it
// (hello's list_stat), else asked for when called. For a symbolic link,
// see LinkTarget for what the link leads to.
func (c *Client) ReadDir(name string) ([]fs.DirEntry, error) {
	c.flushPending()
	var r vfsproto.ListResult
	if err := c.call(vfsproto.OpList, vfsproto.ListParams{Path: name}, &r); err != nil {
		return nil, pathErr("readdir", name, err)
	}
	out := make([]fs.DirEntry, len(r.Entries))
	for i, e := range r.Entries {
		out[i] = dirEntry{c: c, dir: name, e: e}
	}
	return out, nil
}

// ReadDirTypes lists the directory name, sorted by name, as ReadDir does,
// but vfsd reads only the entries' names and types, and describes only
// the directories among them (list's "names"): a walk that needs no more
// (find without tests of size or time, grep -r) skips an lstat per file.
// The first entry asked for its Info makes the directory's full listing,
// for every entry of it, and sets *described when described is not nil
// (the walk may then ask for full listings from the start).
func (c *Client) ReadDirTypes(name string, described *atomic.Bool) ([]fs.DirEntry, error) {
	c.flushPending()
	var r vfsproto.ListResult
	if err := c.call(vfsproto.OpList, vfsproto.ListParams{Path: name, Names: true}, &r); err != nil {
		return nil, pathErr("readdir", name, err)
	}
	l := &namesListing{c: c, dir: name, described: described}
	out := make([]fs.DirEntry, len(r.Entries))
	for i, e := range r.Entries {
		out[i] = dirEntry{c: c, dir: name, e: e, l: l}
	}
	return out, nil
}

// walkFirst is the size of the first answer of a walk of names: vfsd
// stops listing once it holds that much, so that the walker starts on it
// while vfsd lists the rest (the walk going on after it, asked for at
// once, up to a frame). `ls -R` over a copy of this repository (6793
// entries, 365 KB of names): 28.1 -> 23.8 ms; 16 KiB was too little to
// overlap anything. A walk of described entries (du, ls -l, tar) asks
// for a frame: tar c reads small files ahead across the directories
// listed, and with fewer listed read 261 more of them one request each
// (CPU 268 -> 468 ms).
const walkFirst = 64 << 10

// Walk lists the directory name and the directories below it in one
// request (vfsd's walk): each as ReadDirTypes lists it with names set,
// else as ReadDir does with every entry described, keyed by its path
// (name joined with the path below it). A directory vfsd left out (it
// could not list it, or the answer was full) is not there, nor those
// below it: the caller lists them itself. When the answer was full, last
// is the path below name of the last directory listed, and a Walk of
// name with after set to it goes on from there (without name's own
// listing); else last is empty. A walk of names without after answers
// walkFirst bytes or so at most. ok is false when vfsd did not negotiate
// walk; an error is the error of listing name itself.
func (c *Client) Walk(name, after string, names bool, described *atomic.Bool) (dirs map[string][]fs.DirEntry, last string, ok bool, err error) {
	if c.ready() != nil || !c.walk {
		return nil, "", false, nil // the caller's lists say why
	}
	c.flushPending()
	var r vfsproto.WalkResult
	max := 0 // a frame
	if after == "" && names {
		max = walkFirst
	}
	if err := c.call(vfsproto.OpWalk, vfsproto.WalkParams{Path: name, Names: names, After: after, Max: max}, &r); err != nil {
		return nil, "", true, pathErr("readdir", name, err)
	}
	dirs = make(map[string][]fs.DirEntry, len(r.Dirs))
	for _, w := range r.Dirs {
		dir := name
		if w.Path != "." {
			dir = path.Join(name, w.Path)
		}
		var l *namesListing
		if names {
			l = &namesListing{c: c, dir: dir, described: described}
		}
		out := make([]fs.DirEntry, len(w.Entries))
		for i, e := range w.Entries {
			out[i] = dirEntry{c: c, dir: dir, e: e, l: l}
		}
		dirs[dir] = out
	}
	if r.Cut && len(r.Dirs) > 0 {
		last = r.Dirs[len(r.Dirs)-1].Path
	}
	return dirs, last, true, nil
}

// sizeOf is the size a listing gives an entry: 0 for a directory.
func sizeOf(fi fs.FileInfo) int64 {
	if fi.IsDir() {
		return 0
	}
	return fi.Size()
}
