package shell

import (
	"io"
	"io/fs"
	"path"
	"slices"
	"sync"
	"time"

	"github.com/llmsh/llmsh/builtins"
	"github.com/llmsh/llmsh/vfsclient"
)

// truncTable names the files that a truncating redirection of the
// session (`> f`, `>| f`, `&> f`) is writing now. bash truncates such a
// file when it opens it, so a command that reads it while the
// redirection is open reads what has been written so far: nothing, for
// the usual slip `sort f > f`, `sed … f > f`, `tr a b < f > f`, which
// leaves f empty. vfsd's truncating writes go to a temp file renamed over
// the target at the close (atomic writes, docs/protocol.md), so the file
// vfsd reads is the old one; the shell reads such a file as empty
// instead, whatever vfsd holds, until the redirection closes. A file
// kept open past its command (`exec 3>f`) is truncated on disk at once
// (openPersistent) and is not named here.
//
// A file is known by its path and by its identity (vfsd's id of its
// device and inode, builtins.SameFile), so that another name of it, a
// symbolic link (`cat link > f`) or a path through a linked directory,
// reads as empty too, as bash's reader of the one truncated inode does
// (session 29: it read the old content). The identity of a path is
// asked of vfsd only when a file is read while a redirection is open,
// once per redirection: the target still names the old file then (the
// new one is linked at the close); a target that did not exist has none.
type truncTable struct {
	mu sync.Mutex
	m  map[string]*truncEntry // absolute path -> its redirections
}

// truncEntry is a path of truncTable: how many redirections are open on
// it, and the identity of the file it names, once looked up.
type truncEntry struct {
	n      int
	id     string // "" for none (a new or virtual file)
	looked bool
}

// add notes a truncating redirection of path, an absolute clean name.
func (t *truncTable) add(path string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = make(map[string]*truncEntry)
	}
	e := t.m[path]
	if e == nil {
		e = &truncEntry{}
		t.m[path] = e
	}
	e.n++
}

// done notes the close of a redirection that add noted.
func (t *truncTable) done(path string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e := t.m[path]; e != nil {
		if e.n--; e.n <= 0 {
			delete(t.m, path)
		}
	}
}

// pending reports whether a truncating redirection of path is open.
func (t *truncTable) pending(path string) bool {
	if t == nil {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.m[path] != nil
}

// empty reports whether no truncating redirection is open.
func (t *truncTable) empty() bool {
	if t == nil {
		return true
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.m) == 0
}

// statFunc is vfsd's stat of a path (vfsclient.Client.Stat).
type statFunc func(name string) (fs.FileInfo, error)

// ids returns the identities of the files that the open redirections
// truncate, looking up with stat those not looked up yet.
func (t *truncTable) ids(stat statFunc) []string {
	if t.empty() {
		return nil
	}
	t.mu.Lock()
	var todo []string
	for p, e := range t.m {
		if !e.looked {
			todo = append(todo, p)
		}
	}
	t.mu.Unlock()
	found := make(map[string]string, len(todo))
	for _, p := range todo {
		found[p] = ""
		if fi, err := stat(p); realFile(fi, err) {
			found[p] = fileID(fi)
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	var ids []string
	for p, e := range t.m {
		if id, asked := found[p]; asked && !e.looked {
			e.id, e.looked = id, true
		}
		if e.id != "" {
			ids = append(ids, e.id)
		}
	}
	return ids
}

// aliased reports whether some open redirection truncates a real file,
// which a name other than its own may reach.
func (t *truncTable) aliased(stat statFunc) bool {
	return len(t.ids(stat)) > 0
}

// holds reports whether a truncating redirection writes the file fi (a
// stat's result with err) that name reaches: name is the redirection's
// path, or fi is the same real file as one it truncates.
func (t *truncTable) holds(name string, fi fs.FileInfo, err error, stat statFunc) bool {
	if t.empty() || !realFile(fi, err) {
		return false
	}
	if t.pending(name) {
		return true
	}
	return slices.Contains(t.ids(stat), fileID(fi))
}

// fileID is the identity of a real file's stat (realFile).
func fileID(fi fs.FileInfo) string {
	return fi.(interface{ FileID() string }).FileID()
}

// openedInfo is the stat of a file just opened, the one its open gave
// when there is one (not taken from its next Stat).
func openedInfo(f *vfsclient.File) (fs.FileInfo, error) {
	if fi, ok := f.OpenedStat(); ok {
		return fi, nil
	}
	return f.Stat()
}

// realFile reports whether fi (with err, a stat's result) is a regular
// file on disk, which vfsd writes through a temp file: a virtual file
// has no identity, and is written in place, so that its readers already
// see what has been written so far, as bash's do.
func realFile(fi fs.FileInfo, err error) bool {
	return err == nil && fi.Mode().IsRegular() && builtins.SameFile(fi, fi)
}

// truncatedFile is a file opened for reading while a truncating
// redirection writes it (truncTable): it reads as empty, and its stat
// says size 0, as bash's reader of the truncated file sees it.
type truncatedFile struct{ builtins.File }

func (truncatedFile) Read([]byte) (int, error)       { return 0, io.EOF }
func (truncatedFile) Seek(int64, int) (int64, error) { return 0, nil }
func (f truncatedFile) Stat() (fs.FileInfo, error) {
	fi, err := f.File.Stat()
	if err != nil {
		return nil, err
	}
	return emptyInfo{fi}, nil
}

// emptyInfo is the stat of a file that truncTable reads as empty.
type emptyInfo struct{ fs.FileInfo }

func (emptyInfo) Size() int64 { return 0 }

// AccessTime keeps the file's access time, where vfsd gives one.
func (i emptyInfo) AccessTime() (time.Time, bool) {
	if a, ok := i.FileInfo.(interface{ AccessTime() (time.Time, bool) }); ok {
		return a.AccessTime()
	}
	return time.Time{}, false
}

// FileID keeps the identity of the file (builtins.SameFile).
func (i emptyInfo) FileID() string {
	if id, ok := i.FileInfo.(interface{ FileID() string }); ok {
		return id.FileID()
	}
	return ""
}

// Sys keeps what the file's stat carries beyond fs.FileInfo.
func (i emptyInfo) Sys() any { return i.FileInfo.Sys() }

// truncWriter is a builtin's own output file opened with O_TRUNC: its
// name is in the truncTable until it is closed.
type truncWriter struct {
	*vfsclient.File
	once sync.Once
	done func()
}

func (w *truncWriter) Close() error {
	err := w.File.Close()
	w.once.Do(w.done)
	return err
}

// entries is the listing ents of the directory dir, the files in it that
// a truncating redirection writes now described with size 0 (`ls -l >
// list` lists list empty, as bash's truncated file).
func (t *truncTable) entries(dir string, ents []fs.DirEntry) []fs.DirEntry {
	if t == nil {
		return ents
	}
	t.mu.Lock()
	n := len(t.m)
	t.mu.Unlock()
	if n == 0 {
		return ents
	}
	for i, e := range ents {
		if e.Type().IsRegular() && t.pending(path.Join(dir, e.Name())) {
			if realFile(e.Info()) {
				ents[i] = emptyEntry{e}
			}
		}
	}
	return ents
}

// emptyEntry is a directory entry whose Info is an emptyInfo.
type emptyEntry struct{ fs.DirEntry }

func (e emptyEntry) Info() (fs.FileInfo, error) {
	fi, err := e.DirEntry.Info()
	if err != nil {
		return fi, err
	}
	return emptyInfo{fi}, nil
}
