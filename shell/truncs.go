package shell

import (
	"io"
	"io/fs"
	"path"
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
type truncTable struct {
	mu sync.Mutex
	m  map[string]int // absolute path -> redirections open on it
}

// add notes a truncating redirection of path, an absolute clean name.
func (t *truncTable) add(path string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = make(map[string]int)
	}
	t.m[path]++
}

// done notes the close of a redirection that add noted.
func (t *truncTable) done(path string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m[path]--; t.m[path] <= 0 {
		delete(t.m, path)
	}
}

// pending reports whether a truncating redirection of path is open.
func (t *truncTable) pending(path string) bool {
	if t == nil {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.m[path] > 0
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
