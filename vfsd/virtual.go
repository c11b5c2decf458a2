package vfsd

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/llmsh/llmsh/vfsproto"
)

// DefaultMaxVirtualBytes is the budget of virtual files when
// Config.MaxVirtualBytes is 0.
const DefaultMaxVirtualBytes = 256 << 20

// TempDir is the directory under which create_temp names its virtual files.
// Nothing is ever created on disk there.
const TempDir = "/tmp/llmsh-virtual"

// vfile is one session-scoped virtual file, held in memory.
type vfile struct {
	data  []byte
	mtime time.Time
	mode  uint32 // permission bits set by chmod; 0 means 0644
	gone  bool   // removed or replaced: its bytes no longer count against the budget
}

// virtualStore holds the virtual files of a session. One mutex guards every
// file and the byte budget.
type virtualStore struct {
	mu    sync.Mutex
	files map[string]*vfile
	total int64
	max   int64
	seq   int64
}

func newVirtualStore(max int64) *virtualStore {
	if max <= 0 {
		max = DefaultMaxVirtualBytes
	}
	return &virtualStore{files: make(map[string]*vfile), max: max}
}

// lookup returns the virtual file at abs, or nil.
func (v *virtualStore) lookup(abs string) *vfile {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.files[abs]
}

// open returns the virtual file at abs, creating it when create is set and
// truncating it when trunc is set. created reports a new file.
func (v *virtualStore) open(abs string, create, trunc bool) (*vfile, *vfsproto.Error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	f := v.files[abs]
	if f == nil {
		if !create {
			return nil, perr(vfsproto.ENoEnt, msgNoEnt)
		}
		if v.isDirLocked(abs) {
			return nil, perr(vfsproto.EArg, msgIsDir)
		}
		for d := parentDir(abs); d != "/"; d = parentDir(d) {
			if v.files[d] != nil {
				return nil, perr(vfsproto.ENoEnt, msgNotDir)
			}
		}
		f = &vfile{mtime: time.Now()}
		v.files[abs] = f
		return f, nil
	}
	if trunc {
		v.total -= int64(len(f.data))
		f.data = nil
		f.mtime = time.Now()
	}
	return f, nil
}

// remove deletes the virtual file abs. Handles still open on it keep
// working on the orphaned file.
func (v *virtualStore) remove(abs string) *vfsproto.Error {
	v.mu.Lock()
	defer v.mu.Unlock()
	f := v.files[abs]
	if f == nil {
		return perr(vfsproto.ENoEnt, msgNoEnt)
	}
	v.dropLocked(abs, f)
	return nil
}

func (v *virtualStore) dropLocked(abs string, f *vfile) {
	delete(v.files, abs)
	v.total -= int64(len(f.data))
	f.gone = true
}

// rename moves the virtual file from to the virtual path to, replacing a
// virtual file there. Open handles follow the file.
func (v *virtualStore) rename(from, to string) *vfsproto.Error {
	v.mu.Lock()
	defer v.mu.Unlock()
	f := v.files[from]
	if f == nil {
		return perr(vfsproto.ENoEnt, msgNoEnt)
	}
	if from == to {
		return nil
	}
	if v.isDirLocked(to) {
		return perr(vfsproto.EArg, msgIsDir)
	}
	for d := parentDir(to); d != "/"; d = parentDir(d) {
		if v.files[d] != nil {
			return perr(vfsproto.ENoEnt, msgNotDir)
		}
	}
	if old := v.files[to]; old != nil {
		v.dropLocked(to, old)
	}
	delete(v.files, from)
	v.files[to] = f
	return nil
}

// setMtime sets the modification time of f.
func (v *virtualStore) setMtime(f *vfile, t time.Time) {
	v.mu.Lock()
	defer v.mu.Unlock()
	f.mtime = t
}

// setMode sets the permission bits of f.
func (v *virtualStore) setMode(f *vfile, mode uint32) {
	v.mu.Lock()
	defer v.mu.Unlock()
	f.mode = mode
	if mode == 0 {
		f.mode = 0o1000 // remembered as "no bits" (0 means the default)
	}
}

// createTemp makes a new empty virtual file under TempDir.
func (v *virtualStore) createTemp(prefix string) (string, *vfile) {
	v.mu.Lock()
	defer v.mu.Unlock()
	for {
		v.seq++
		name := fmt.Sprintf("%s/%s-%d", TempDir, prefix, v.seq)
		if v.files[name] == nil && !v.isDirLocked(name) {
			f := &vfile{mtime: time.Now()}
			v.files[name] = f
			return name, f
		}
	}
}

// readAt copies bytes of f from off into p.
func (v *virtualStore) readAt(f *vfile, p []byte, off int64) int {
	v.mu.Lock()
	defer v.mu.Unlock()
	if off >= int64(len(f.data)) {
		return 0
	}
	return copy(p, f.data[off:])
}

// writeAt writes p into f at off (or at the end when appending) and returns
// the offset after the write. Growth beyond the budget is E_RANGE and
// writes nothing.
func (v *virtualStore) writeAt(f *vfile, p []byte, off int64, appending bool) (int64, *vfsproto.Error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if appending {
		off = int64(len(f.data))
	}
	end := off + int64(len(p))
	if grow := end - int64(len(f.data)); grow > 0 {
		if v.total+grow > v.max {
			return off, perr(vfsproto.ERange, "virtual file budget exceeded")
		}
		if !f.gone {
			v.total += grow
		}
		if end > int64(cap(f.data)) {
			n := make([]byte, end, max(end, 2*int64(cap(f.data))))
			copy(n, f.data)
			f.data = n
		} else {
			f.data = f.data[:end]
		}
	}
	copy(f.data[off:], p)
	f.mtime = time.Now()
	return end, nil
}

// stat describes f.
func (v *virtualStore) stat(f *vfile) vfsproto.StatResult {
	v.mu.Lock()
	defer v.mu.Unlock()
	mode := uint32(0o644)
	if f.mode != 0 {
		mode = f.mode & 0o777
	}
	return vfsproto.StatResult{Size: int64(len(f.data)), Mtime: f.mtime.UnixNano(), Mode: mode}
}

// size is the length of f.
func (v *virtualStore) size(f *vfile) int64 {
	v.mu.Lock()
	defer v.mu.Unlock()
	return int64(len(f.data))
}

// isDir reports whether some virtual file lies under abs.
func (v *virtualStore) isDir(abs string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.isDirLocked(abs)
}

func (v *virtualStore) isDirLocked(abs string) bool {
	prefix := abs + "/"
	if abs == "/" {
		prefix = "/"
	}
	for p := range v.files {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

// children returns the entries of the virtual directory abs: the virtual
// files in it and the next component toward deeper ones.
func (v *virtualStore) children(abs string) map[string]vfsproto.Entry {
	v.mu.Lock()
	defer v.mu.Unlock()
	prefix := abs + "/"
	if abs == "/" {
		prefix = "/"
	}
	var out map[string]vfsproto.Entry
	for p, f := range v.files {
		if !strings.HasPrefix(p, prefix) {
			continue
		}
		if out == nil {
			out = make(map[string]vfsproto.Entry)
		}
		name, _, deeper := strings.Cut(p[len(prefix):], "/")
		if deeper {
			out[name] = vfsproto.Entry{Name: name, IsDir: true}
		} else {
			out[name] = vfsproto.Entry{Name: name, Size: int64(len(f.data))}
		}
	}
	return out
}

// snapshot lists every virtual file, sorted by path.
func (v *virtualStore) snapshot() []vfsproto.VirtualFile {
	v.mu.Lock()
	defer v.mu.Unlock()
	out := make([]vfsproto.VirtualFile, 0, len(v.files))
	for p, f := range v.files {
		out = append(out, vfsproto.VirtualFile{Path: p, Size: int64(len(f.data))})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// counts returns the number of virtual files and their total size.
func (v *virtualStore) counts() (files, bytes int64) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return int64(len(v.files)), v.total
}

// reset drops every virtual file.
func (v *virtualStore) reset() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.files = make(map[string]*vfile)
	v.total = 0
}

// parentDir is the lexical parent of a cleaned absolute path.
func parentDir(abs string) string {
	i := strings.LastIndexByte(abs, '/')
	if i <= 0 {
		return "/"
	}
	return abs[:i]
}
