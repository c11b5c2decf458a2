package vfsd

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/llmsh/llmsh/vfsproto"
)

// DefaultMaxVirtualBytes is the budget of the contents of virtual files
// when Config.MaxVirtualBytes is 0.
const DefaultMaxVirtualBytes = 256 << 20

// DefaultMaxVirtualNameBytes is the budget of the names of virtual files
// and of the virtual directories that hold them (see entryCost) when
// Config.MaxVirtualNameBytes is 0: 4000 files of the longest names Linux
// allows, or 65536 of 192 bytes.
const DefaultMaxVirtualNameBytes = 16 << 20

// DefaultMaxVirtualEntries is the most virtual files and virtual
// directories a session holds at once when Config.MaxVirtualEntries is 0.
const DefaultMaxVirtualEntries = 1 << 16

// entryOverhead is what one virtual file or directory costs in the budget
// besides its name and contents: about what the maps and the vfile hold
// for it, so that a million empty files with one-byte names are not free.
const entryOverhead = 64

// entryCost is the budget a virtual file or directory named abs takes
// whatever its contents.
func entryCost(abs string) int64 { return int64(len(abs)) + entryOverhead }

// TempDir is the directory under which create_temp names its virtual files.
// Nothing is ever created on disk there.
const TempDir = "/tmp/llmsh-virtual"

// vfile is one session-scoped virtual file, held in memory.
type vfile struct {
	data  vdata
	mtime time.Time
	mode  uint32 // permission bits set by chmod; 0 means 0644
	gone  bool   // removed or replaced: no longer in the store
	refs  int    // open handles; the bytes of a gone file count until the last closes
}

// vdir is one virtual directory. An explicit one was made by mkdir and
// exists, empty or not, until it is removed; an implicit one is an
// ancestor of a virtual file or explicit directory that nobody made, and
// goes with the last entry under it (a write to /x/y/f needs no mkdir).
type vdir struct {
	n        int // virtual files and explicit directories under it, at any depth
	explicit bool
	mtime    time.Time
	mode     uint32 // permission bits set by mkdir or chmod; 0 means 0755
}

// virtualStore holds the virtual files and directories of a session. One
// mutex guards every file, every directory and the budget.
//
// The budget has three parts: the bytes of every file still named or
// still open (max, "File too large" past it); entryCost for every virtual
// file and every virtual directory, explicit or implicit (maxNames: names
// are memory too, and 600 empty files with 500 KB names once held vfsd at
// 484 MB); and the number of files and directories (maxEntries). A new
// name past either of the last two is "No space left on device", as a
// full tmpfs says.
type virtualStore struct {
	mu    sync.Mutex
	files map[string]*vfile
	// dirs holds every virtual directory (never "/"); its key is a copy,
	// so that it costs exactly entryCost.
	dirs       map[string]*vdir
	total      int64 // bytes of contents (files named or still open)
	names      int64 // entryCost of every file and directory
	max        int64
	maxNames   int64
	maxEntries int
	seq        int64
}

func newVirtualStore(max, maxNames int64, maxEntries int) *virtualStore {
	if max <= 0 {
		max = DefaultMaxVirtualBytes
	}
	if maxNames <= 0 {
		maxNames = DefaultMaxVirtualNameBytes
	}
	if maxEntries <= 0 {
		maxEntries = DefaultMaxVirtualEntries
	}
	return &virtualStore{files: make(map[string]*vfile), dirs: make(map[string]*vdir),
		max: max, maxNames: maxNames, maxEntries: maxEntries}
}

// errNoSpace is the answer when a new name does not fit the budget or the
// entry limit: what a full tmpfs says (ENOSPC).
func errNoSpace() *vfsproto.Error { return perr(vfsproto.ERange, msgNoSpace) }

// lookup returns the virtual file at abs, or nil.
func (v *virtualStore) lookup(abs string) *vfile {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.files[abs]
}

// newDirsLocked returns the cost and number of the virtual directories
// that naming a file or directory abs would add, or ENOTDIR when one of
// its ancestors is a virtual file.
func (v *virtualStore) newDirsLocked(abs string) (cost int64, n int, e *vfsproto.Error) {
	for d := parentDir(abs); d != "/"; d = parentDir(d) {
		if v.files[d] != nil {
			return 0, 0, perr(vfsproto.ENoEnt, msgNotDir)
		}
		if v.dirs[d] != nil {
			break // and so are all its ancestors
		}
		cost += entryCost(d)
		n++
	}
	return cost, n, nil
}

// fitsLocked checks that naming abs (neither a file nor a directory)
// fits the budget with the directories it adds, unless force is set
// (putting back a name just taken out).
func (v *virtualStore) fitsLocked(abs string, force bool) *vfsproto.Error {
	dcost, dn, e := v.newDirsLocked(abs)
	if e != nil {
		return e
	}
	cost := entryCost(abs) + dcost
	if !force && (v.names+cost > v.maxNames || len(v.files)+len(v.dirs)+1+dn > v.maxEntries) {
		return errNoSpace()
	}
	return nil
}

// linkLocked names f abs (which is neither a file nor a directory) after
// checking that every ancestor of abs is a directory and that the name
// fits the budget (unless force is set).
func (v *virtualStore) linkLocked(abs string, f *vfile, force bool) *vfsproto.Error {
	if e := v.fitsLocked(abs, force); e != nil {
		return e
	}
	v.files[abs] = f
	v.names += entryCost(abs)
	v.addAncestorsLocked(abs)
	return nil
}

// mkdirLocked makes abs (which is not a file, nor a directory unless an
// implicit one) an explicit directory, as linkLocked names a file.
func (v *virtualStore) mkdirLocked(abs string, d *vdir, force bool) *vfsproto.Error {
	if old := v.dirs[abs]; old != nil {
		old.explicit = true
		old.mode, old.mtime = d.mode, d.mtime
		return nil
	}
	if e := v.fitsLocked(abs, force); e != nil {
		return e
	}
	d.n, d.explicit = 0, true
	v.dirs[strings.Clone(abs)] = d
	v.names += entryCost(abs)
	v.addAncestorsLocked(abs)
	return nil
}

// addAncestorsLocked counts a new entry abs in each of its ancestors,
// making the missing ones implicit directories.
func (v *virtualStore) addAncestorsLocked(abs string) {
	now := time.Now()
	for d := parentDir(abs); d != "/"; d = parentDir(d) {
		vd := v.dirs[d]
		if vd == nil {
			vd = &vdir{mtime: now}
			v.dirs[strings.Clone(d)] = vd
			v.names += entryCost(d)
		}
		if d == parentDir(abs) {
			vd.mtime = now
		}
		vd.n++
	}
}

// dropAncestorsLocked uncounts the entry abs in each of its ancestors,
// dropping the implicit directories left empty.
func (v *virtualStore) dropAncestorsLocked(abs string) {
	now := time.Now()
	for d := parentDir(abs); d != "/"; d = parentDir(d) {
		vd := v.dirs[d]
		if d == parentDir(abs) {
			vd.mtime = now
		}
		if vd.n--; vd.n == 0 && !vd.explicit {
			delete(v.dirs, d)
			v.names -= entryCost(d)
		}
	}
}

// unlinkLocked takes the name abs of f out of the store; f's bytes still
// count while a handle holds it.
func (v *virtualStore) unlinkLocked(abs string, f *vfile) {
	delete(v.files, abs)
	v.names -= entryCost(abs)
	v.dropAncestorsLocked(abs)
}

// rmdirLocked takes out the explicit directory abs, which is empty.
func (v *virtualStore) rmdirLocked(abs string) {
	delete(v.dirs, abs)
	v.names -= entryCost(abs)
	v.dropAncestorsLocked(abs)
}

// mkdir makes the explicit virtual directory abs with the permission bits
// mode. The caller has checked that its parent exists; an existing file
// or directory at abs is EEXIST.
func (v *virtualStore) mkdir(abs string, mode uint32) *vfsproto.Error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.files[abs] != nil || v.dirs[abs] != nil {
		return perr(vfsproto.EArg, msgExist)
	}
	return v.mkdirLocked(abs, &vdir{mtime: time.Now(), mode: dirMode(mode)}, false)
}

// dirMode is mode as a vdir keeps it (0 means the default).
func dirMode(mode uint32) uint32 {
	if mode == 0 {
		return 0o1000 // remembered as "no bits" (0 means the default)
	}
	return mode
}

// rmdir removes the virtual directory abs: ENOTEMPTY unless it is an
// explicit directory with nothing under it.
func (v *virtualStore) rmdir(abs string) *vfsproto.Error {
	v.mu.Lock()
	defer v.mu.Unlock()
	d := v.dirs[abs]
	switch {
	case d == nil:
		return perr(vfsproto.ENoEnt, msgNoEnt)
	case d.n > 0:
		return perr(vfsproto.EArg, msgNotEmpty)
	}
	v.rmdirLocked(abs)
	return nil
}

// statDir describes the virtual directory abs; ok is false when there is
// none.
func (v *virtualStore) statDir(abs string) (st vfsproto.StatResult, ok bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	d := v.dirs[abs]
	if d == nil {
		return st, false
	}
	mode := uint32(0o755)
	if d.mode != 0 {
		mode = d.mode & 0o777
	}
	return vfsproto.StatResult{Mtime: d.mtime.UnixNano(), Mode: mode, IsDir: true, Size: dirCost}, true
}

// setDirMtime and setDirMode set the modification time and permission
// bits of the virtual directory abs; they report whether there is one.
func (v *virtualStore) setDirMtime(abs string, t time.Time) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	if d := v.dirs[abs]; d != nil {
		d.mtime = t
		return true
	}
	return false
}

func (v *virtualStore) setDirMode(abs string, mode uint32) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	if d := v.dirs[abs]; d != nil {
		d.mode = dirMode(mode)
		return true
	}
	return false
}

// renameDir moves the virtual directory from, with everything under it,
// to the virtual path to, with rename(2)'s rules: to may be missing or an
// empty explicit directory (replaced); a file there is ENOTDIR, a
// directory with entries ENOTEMPTY, to inside from EINVAL. Open handles
// follow their files. Past the budget nothing moves.
func (v *virtualStore) renameDir(from, to string) *vfsproto.Error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.dirs[from] == nil {
		return perr(vfsproto.ENoEnt, msgNoEnt)
	}
	if from == to {
		return nil
	}
	if strings.HasPrefix(to, from+"/") {
		return perr(vfsproto.EArg, "invalid argument")
	}
	if v.files[to] != nil {
		return perr(vfsproto.ENoEnt, msgNotDir)
	}
	old := v.dirs[to]
	if old != nil && old.n > 0 {
		return perr(vfsproto.EArg, msgNotEmpty)
	}
	for d := parentDir(to); d != "/"; d = parentDir(d) {
		if v.files[d] != nil {
			return perr(vfsproto.ENoEnt, msgNotDir)
		}
	}
	type fileAt struct {
		path string
		f    *vfile
	}
	type dirAt struct {
		path string
		d    *vdir
	}
	var files []fileAt
	var dirs []dirAt
	prefix := from + "/"
	for p, f := range v.files {
		if strings.HasPrefix(p, prefix) {
			files = append(files, fileAt{p, f})
		}
	}
	for p, d := range v.dirs {
		if d.explicit && (p == from || strings.HasPrefix(p, prefix)) {
			dirs = append(dirs, dirAt{p, d})
		}
	}
	// Parents before children when linking, children first when not.
	sort.Slice(dirs, func(i, j int) bool { return len(dirs[i].path) < len(dirs[j].path) })
	unlinkAll := func(files []fileAt, dirs []dirAt) {
		for _, f := range files {
			v.unlinkLocked(f.path, f.f)
		}
		for i := len(dirs) - 1; i >= 0; i-- {
			v.rmdirLocked(dirs[i].path)
		}
	}
	linkAll := func(files []fileAt, dirs []dirAt, force bool) (nf, nd int, e *vfsproto.Error) {
		for _, d := range dirs {
			if e := v.mkdirLocked(d.path, d.d, force); e != nil {
				return nf, nd, e
			}
			nd++
		}
		for _, f := range files {
			if e := v.linkLocked(f.path, f.f, force); e != nil {
				return nf, nd, e
			}
			nf++
		}
		return nf, nd, nil
	}
	unlinkAll(files, dirs)
	if old != nil {
		v.rmdirLocked(to)
	}
	moved := func(p string) string { return to + p[len(from):] }
	nfiles := make([]fileAt, len(files))
	for i, f := range files {
		nfiles[i] = fileAt{moved(f.path), f.f}
	}
	ndirs := make([]dirAt, len(dirs))
	for i, d := range dirs {
		ndirs[i] = dirAt{moved(d.path), d.d}
	}
	if nf, nd, e := linkAll(nfiles, ndirs, false); e != nil {
		unlinkAll(nfiles[:nf], ndirs[:nd])
		if old != nil {
			v.mkdirLocked(to, old, true)
		}
		linkAll(files, dirs, true)
		return e
	}
	return nil
}

// open returns the virtual file at abs, creating it when create is set and
// truncating it when trunc is set, and counts a handle on it: the caller
// calls release when the handle ends.
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
		f = &vfile{mtime: time.Now()}
		if e := v.linkLocked(abs, f, false); e != nil {
			return nil, e
		}
	} else if trunc {
		v.total -= f.data.size()
		f.data.reset()
		f.mtime = time.Now()
	}
	f.refs++
	return f, nil
}

// release ends a handle on f counted by open or createTemp.
func (v *virtualStore) release(f *vfile) {
	v.mu.Lock()
	defer v.mu.Unlock()
	f.refs--
	if f.gone && f.refs == 0 {
		v.total -= f.data.size()
		f.data.reset()
	}
}

// remove deletes the virtual file abs. Handles still open on it keep
// working on the orphaned file, whose bytes count until the last closes.
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
	v.unlinkLocked(abs, f)
	f.gone = true
	if f.refs == 0 {
		v.total -= f.data.size()
		f.data.reset()
	}
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
	// The new name is checked against the budget with the old one (and
	// that of a file replaced) given back.
	old := v.files[to]
	v.unlinkLocked(from, f)
	if old != nil {
		v.unlinkLocked(to, old)
	}
	if e := v.linkLocked(to, f, false); e != nil {
		if old != nil {
			v.linkLocked(to, old, true)
		}
		v.linkLocked(from, f, true)
		return e
	}
	if old != nil {
		old.gone = true
		if old.refs == 0 {
			v.total -= old.data.size()
			old.data.reset()
		}
	}
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

// createTemp makes a new empty virtual file under TempDir, with a handle
// counted on it (see open).
func (v *virtualStore) createTemp(prefix string) (string, *vfile, *vfsproto.Error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	for {
		v.seq++
		name := fmt.Sprintf("%s/%s-%d", TempDir, prefix, v.seq)
		if v.files[name] == nil && !v.isDirLocked(name) {
			f := &vfile{mtime: time.Now(), refs: 1}
			if e := v.linkLocked(name, f, false); e != nil {
				return "", nil, e
			}
			return name, f, nil
		}
	}
}

// readAt copies bytes of f from off into p.
func (v *virtualStore) readAt(f *vfile, p []byte, off int64) int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return f.data.readAt(p, off)
}

// writeAt writes p into f at off (or at the end when appending) and returns
// the offset after the write. Growth beyond the budget is E_RANGE and
// writes nothing.
func (v *virtualStore) writeAt(f *vfile, p []byte, off int64, appending bool) (int64, *vfsproto.Error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if appending {
		off = f.data.size()
	}
	end := off + int64(len(p))
	if grow := end - f.data.size(); grow > 0 {
		if v.total+grow > v.max {
			return off, perr(vfsproto.ERange, "virtual file budget exceeded")
		}
		v.total += grow
	}
	f.data.writeAt(p, off)
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
	return vfsproto.StatResult{Size: f.data.size(), Mtime: f.mtime.UnixNano(), Mode: mode}
}

// size is the length of f.
func (v *virtualStore) size(f *vfile) int64 {
	v.mu.Lock()
	defer v.mu.Unlock()
	return f.data.size()
}

// isDir reports whether abs is a virtual directory (explicit, or holding
// a virtual entry somewhere under it).
func (v *virtualStore) isDir(abs string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.isDirLocked(abs)
}

func (v *virtualStore) isDirLocked(abs string) bool {
	if abs == "/" {
		return len(v.files)+len(v.dirs) > 0
	}
	return v.dirs[abs] != nil
}

// children returns the entries of the virtual directory abs: the virtual
// files and directories in it.
func (v *virtualStore) children(abs string) map[string]vfsproto.Entry {
	v.mu.Lock()
	defer v.mu.Unlock()
	prefix := abs + "/"
	if abs == "/" {
		prefix = "/"
	}
	var out map[string]vfsproto.Entry
	add := func(name string, en vfsproto.Entry) {
		if out == nil {
			out = make(map[string]vfsproto.Entry)
		}
		out[name] = en
	}
	for p, f := range v.files {
		if !strings.HasPrefix(p, prefix) {
			continue
		}
		name, _, deeper := strings.Cut(p[len(prefix):], "/")
		if deeper {
			add(name, vfsproto.Entry{Name: name, IsDir: true})
		} else {
			add(name, vfsproto.Entry{Name: name, Size: f.data.size()})
		}
	}
	for p := range v.dirs {
		if strings.HasPrefix(p, prefix) {
			name, _, _ := strings.Cut(p[len(prefix):], "/")
			add(name, vfsproto.Entry{Name: name, IsDir: true})
		}
	}
	return out
}

// maxVirtualsListing bounds the encoded files of a virtual_files answer,
// so that it always fits a frame.
const maxVirtualsListing = vfsproto.MaxFrame - 4096

// snapshot lists the virtual files, and the empty explicit directories
// (their paths ending in "/": the others are implied by what they hold),
// sorted by path. When their encoding would pass limit bytes it names the
// shortest paths that fit and counts the others as omitted: a flood of
// long names never hides a short one (a listing too big for a frame was
// once answered with nothing). Each path is given as wire gives it (the
// connection's form, see conn.wireName) and measured so.
func (v *virtualStore) snapshot(limit int, wire func(string) string) vfsproto.VirtualsResult {
	v.mu.Lock()
	out := make([]vfsproto.VirtualFile, 0, len(v.files))
	for p, f := range v.files {
		out = append(out, vfsproto.VirtualFile{Path: wire(p), Size: f.data.size()})
	}
	for p, d := range v.dirs {
		if d.explicit && d.n == 0 {
			out = append(out, vfsproto.VirtualFile{Path: wire(p + "/"), Dir: true})
		}
	}
	v.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		if len(out[i].Path) != len(out[j].Path) {
			return len(out[i].Path) < len(out[j].Path)
		}
		return out[i].Path < out[j].Path
	})
	n, size := 0, 0
	for ; n < len(out); n++ {
		b, _ := json.Marshal(out[n])
		if size+len(b)+1 > limit {
			break
		}
		size += len(b) + 1
	}
	r := vfsproto.VirtualsResult{Files: out[:n], Omitted: int64(len(out) - n)}
	sort.Slice(r.Files, func(i, j int) bool { return r.Files[i].Path < r.Files[j].Path })
	return r
}

// counts returns the number of virtual files and directories, the bytes
// of their contents and the budget their names take.
func (v *virtualStore) counts() (files, dirs, bytes, names int64) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return int64(len(v.files)), int64(len(v.dirs)), v.total, v.names
}

// reset drops every virtual file and directory.
func (v *virtualStore) reset() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.files = make(map[string]*vfile)
	v.dirs = make(map[string]*vdir)
	v.total, v.names = 0, 0
}

// parentDir is the lexical parent of a cleaned absolute path.
func parentDir(abs string) string {
	i := strings.LastIndexByte(abs, '/')
	if i <= 0 {
		return "/"
	}
	return abs[:i]
}
