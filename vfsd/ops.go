package vfsd

import (
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh/vfsproto"
)

// openFlags are added to every open of a real file: a FIFO or device must
// never block the server, and is refused once opened.
const openFlags = syscall.O_NONBLOCK

// reject counts a policy rejection and returns E_PERM.
func (s *Server) reject(msg string) *vfsproto.Error {
	s.stats.rejects.Add(1)
	return perr(vfsproto.EPerm, msg)
}

// absent counts a policy rejection and answers that the path does not
// exist: outside every grant, a path that is neither virtual nor on the
// way to a grant is absent, whatever the host has there, so that no
// answer tells whether a host path exists.
func (s *Server) absent() *vfsproto.Error {
	s.stats.rejects.Add(1)
	return perr(vfsproto.ENoEnt, msgNoEnt)
}

// StandingDir is the directory that every session without Config.Strict
// finds outside the grants before it makes anything: /tmp, where scripts
// make their scratch files and directories (mkdir /tmp/work, mktemp -d).
// It holds only the session's virtual entries, and cannot be removed.
// Inside a readable grant the real /tmp is seen instead.
const StandingDir = "/tmp"

// standingDirs are the directories that a session without Config.Strict
// finds outside the grants before it makes anything, with how stat
// describes each while nothing has been made in it: StandingDir, and the
// home of llmsh's one user (vfsproto.HomeDir, $HOME) with its parent, so
// that `cd`, `cd ~` and `ls ~` work as on a machine where the user has a
// home. Each holds only the session's virtual entries and cannot be
// removed, renamed or have its mode changed; inside a readable grant the
// real directory is seen instead.
var standingDirs = []struct {
	path string
	stat vfsproto.StatResult
}{
	{StandingDir, standingStat},
	{path.Dir(vfsproto.HomeDir), vfsproto.StatResult{Mode: 0o755, IsDir: true, Size: dirCost}},
	{vfsproto.HomeDir, vfsproto.StatResult{Mode: 0o755, IsDir: true, Size: dirCost}},
}

// standingStat is how StandingDir is described while nothing has been
// made in it.
var standingStat = vfsproto.StatResult{Mode: 0o777, IsDir: true, Size: dirCost}

// standing reports whether abs is a standing directory in the virtual
// space, and how it is described while nothing has been made in it
// (modified when the session started).
func (s *Server) standing(abs string) (vfsproto.StatResult, bool) {
	if s.cfg.Strict {
		return vfsproto.StatResult{}, false
	}
	for _, d := range standingDirs {
		if d.path == abs && s.pol.readable(abs) == nil {
			st := d.stat
			st.Mtime = s.started
			return st, true
		}
	}
	return vfsproto.StatResult{}, false
}

// isStanding reports whether abs is a standing directory in the virtual
// space (StandingDir, $HOME or its parent).
func (s *Server) isStanding(abs string) bool {
	_, ok := s.standing(abs)
	return ok
}

// standingParent reports whether abs is the parent of a standing
// directory, whose listing names it.
func standingParent(abs string) bool {
	for _, d := range standingDirs {
		if parentDir(d.path) == abs {
			return true
		}
	}
	return false
}

// isVirtualDir reports whether abs is a directory of the virtual space:
// a virtual directory, or StandingDir.
func (s *Server) isVirtualDir(abs string) bool {
	return s.virt.isDir(abs) || s.isStanding(abs)
}

// outsideDir describes abs when it is a directory outside the readable
// grants: a virtual directory, StandingDir, or an ancestor of a grant
// (which reveals nothing but that it is a directory: dirStat).
func (s *Server) outsideDir(abs string) (vfsproto.StatResult, bool) {
	if st, ok := s.virt.statDir(abs); ok {
		if sd, ok := s.standing(abs); ok {
			// what is made in a standing directory leaves its mode
			// as it was (its mode cannot be changed): /tmp stays 0777
			st.Mode = sd.Mode
		}
		return st, true
	}
	if st, ok := s.standing(abs); ok {
		return st, true
	}
	if s.pol.isAncestor(abs) {
		return dirStat, true
	}
	return vfsproto.StatResult{}, false
}

// openPath opens the client path name in mode and reports what the handle
// may do.
func (s *Server) openPath(name string, mode vfsproto.Mode) (f file, canRead, canWrite bool, e *vfsproto.Error) {
	switch mode {
	case vfsproto.ModeRead:
		canRead = true
	case vfsproto.ModeWrite, vfsproto.ModeAppend:
		canWrite = true
	case vfsproto.ModeReadWrite:
		canRead, canWrite = true, true
	default:
		return nil, false, false, perr(vfsproto.EArg, "invalid mode")
	}
	abs, e := s.cleanPath(name)
	if e != nil {
		return nil, false, false, e
	}
	if canWrite && dirSyntax(name) {
		// open("new/", O_CREAT) is EISDIR, whatever is there.
		return nil, false, false, perr(vfsproto.EArg, msgIsDir)
	}
	if vf := s.virt.lookup(abs); vf != nil {
		f, e = s.openVirtual(abs, mode)
		return f, canRead, canWrite, e
	}
	if !canWrite {
		if g := s.pol.readable(abs); g != nil {
			f, e = s.openReal(g, g.rel(abs), mode)
			return f, canRead, canWrite, e
		}
		if s.pol.isAncestor(abs) || s.isVirtualDir(abs) {
			return nil, false, false, perr(vfsproto.EArg, msgIsDir)
		}
		return nil, false, false, s.absent()
	}
	if g := s.pol.writable(abs); g != nil {
		f, e = s.openWritable(g, g.rel(abs), mode)
		return f, canRead, canWrite, e
	}
	if s.pol.readable(abs) != nil {
		return nil, false, false, s.reject(msgReadOnly)
	}
	if s.pol.isAncestor(abs) || s.isStanding(abs) {
		return nil, false, false, perr(vfsproto.EArg, msgIsDir)
	}
	if s.cfg.Strict {
		return nil, false, false, s.reject(msgOutside)
	}
	if e := s.virtualParent(abs); e != nil {
		return nil, false, false, e
	}
	f, e = s.openVirtual(abs, mode)
	return f, canRead, canWrite, e
}

// openWritable opens rel inside g's root for writing, under the write
// budget when there is one.
func (s *Server) openWritable(g *grant, rel string, mode vfsproto.Mode) (file, *vfsproto.Error) {
	if mode == vfsproto.ModeAppend && s.budget.chargesEntries() {
		// Most appends are to a file that is there (`echo $i >> log` in
		// a loop): opened without O_CREAT, it needs no lstat before to
		// tell whether its name is new. Absent, it is opened as below.
		if f, e := s.openRealFlag(g, rel, appendExisting); e == nil {
			return s.appendBudgeted(f)
		} else if e.Code != vfsproto.ENoEnt {
			return nil, e
		}
	}
	// A new name pays for its entry and inode first (diskEntryCost).
	entry := int64(0)
	if s.budget.chargesEntries() {
		if _, err := g.root.Lstat(rel); errors.Is(err, fs.ErrNotExist) {
			entry = diskEntryCost(path.Base(rel))
			if !s.budget.takeEntry(entry) {
				return nil, perr(vfsproto.ERange, msgTooLarge)
			}
		}
	}
	f, e := s.openReal(g, rel, mode)
	if e != nil {
		s.budget.giveEntry(entry)
		return f, e
	}
	if !s.budget.bounded() {
		return f, nil
	}
	// A truncating write's file starts empty (its temp file): rewriting a
	// file is counted again, as the old one may still be held open by
	// another handle, its blocks still used. It is not stat'ed: since
	// Linux 6.13 a file whose times were queried gets its next
	// modification time from the fine clock, where a shell's `> f`
	// (open, write, close) gets the clock tick's, so files written in
	// one tick have the same time (`ls -t` lists them by name).
	if mode == vfsproto.ModeWrite {
		return s.budgeted(f, mode, 0), nil
	}
	if mode == vfsproto.ModeAppend {
		return s.appendBudgeted(f)
	}
	st, err := f.stat()
	if err != nil {
		f.abort()
		return nil, ioError(err)
	}
	return s.budgeted(f, mode, st.Size), nil
}

// appendExisting is the flag of an append to a file that must exist.
const appendExisting = os.O_WRONLY | os.O_APPEND

// appendBudgeted is the file f, opened to append, under the write budget
// when there is one: its size from the fstat of its open when openat2
// opened it (a *rawFile), with no second fstat and no file identity
// (f.stat's HMAC), else from f.stat.
func (s *Server) appendBudgeted(f file) (file, *vfsproto.Error) {
	if !s.budget.bounded() {
		return f, nil
	}
	if rf, ok := f.(*rawFile); ok {
		return s.budgeted(f, vfsproto.ModeAppend, rf.size), nil
	}
	st, err := f.stat()
	if err != nil {
		f.abort()
		return nil, ioError(err)
	}
	return s.budgeted(f, vfsproto.ModeAppend, st.Size), nil
}

// openVirtual opens (or creates) the virtual file abs.
func (s *Server) openVirtual(abs string, mode vfsproto.Mode) (file, *vfsproto.Error) {
	vf, e := s.virt.open(abs, mode != vfsproto.ModeRead, mode == vfsproto.ModeWrite)
	if e != nil {
		return nil, e
	}
	return &virtualHandle{store: s.virt, f: vf, appending: mode == vfsproto.ModeAppend}, nil
}

// openReal opens rel inside g's root, unless it is one of the hidden
// files.
func (s *Server) openReal(g *grant, rel string, mode vfsproto.Mode) (file, *vfsproto.Error) {
	return s.openRealFlag(g, rel, openFlag(mode))
}

// openRealFlag is openReal with the open(2) flag of openFlag (or
// appendExisting).
func (s *Server) openRealFlag(g *grant, rel string, flag int) (file, *vfsproto.Error) {
	if len(s.hidden) == 0 {
		return openReal(g, rel, flag)
	}
	if flag == flagAtomic { // replaced on close: look before
		if fi, err := g.stat(rel); err == nil && s.isHidden(fi) {
			return nil, s.reject(msgPerm)
		}
	}
	f, e := openReal(g, rel, flag)
	if f != nil {
		if fi, err := fileInfo(f); err == nil && s.isHidden(fi) {
			f.abort()
			return nil, s.reject(msgPerm)
		}
	}
	return f, e
}

// hiddenAt reports whether rel inside g's root names one of the hidden
// files: through a final symbolic link when follow is set, else the name
// itself (remove and rename act on the link, not on its target).
func (s *Server) hiddenAt(g *grant, rel string, follow bool) bool {
	if len(s.hidden) == 0 {
		return false
	}
	stat := func(rel string) (fs.FileInfo, error) { return lstatIn(g, rel) }
	if follow {
		stat = g.root.Stat
	}
	fi, err := stat(rel)
	return err == nil && s.isHidden(fi)
}

// isHidden reports whether fi is one of Config.Hidden.
func (s *Server) isHidden(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	for _, h := range s.hidden {
		if hs, hok := h.Sys().(*syscall.Stat_t); ok && hok {
			if st.Dev == hs.Dev && st.Ino == hs.Ino {
				return true
			}
		} else if os.SameFile(fi, h) {
			return true
		}
	}
	return false
}

// openReal opens rel inside g's root with flag (openFlag). Truncating
// writes are atomic.
func openReal(g *grant, rel string, flag int) (file, *vfsproto.Error) {
	if flag == flagAtomic {
		return openAtomic(g, rel)
	}
	return openInPlace(g, rel, flag)
}

// flagAtomic is openFlag's value for ModeWrite: not an open(2) flag, but
// a write to a temp file renamed over rel on close (openAtomic).
const flagAtomic = -1

// openFlag is the open(2) flag of mode, or flagAtomic.
func openFlag(mode vfsproto.Mode) int {
	switch mode {
	case vfsproto.ModeAppend:
		return os.O_WRONLY | os.O_CREATE | os.O_APPEND
	case vfsproto.ModeReadWrite:
		return os.O_RDWR | os.O_CREATE
	case vfsproto.ModeWrite:
		return flagAtomic
	}
	return os.O_RDONLY
}

// linkCount is the number of hard links of the file fi describes (1 when
// the system does not say).
func linkCount(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// hardLinked reports whether fi is a regular file with more than one
// name. vfsd writes through no such file (open for writing, truncating or
// appending, chmod, utimes): its other names may lie outside every grant,
// where a write through this one would change a file the script was never
// given (docs/security.md, T-LINK-4).
func hardLinked(fi fs.FileInfo) bool {
	return fi.Mode().IsRegular() && linkCount(fi) > 1
}

// openInPlace opens rel with flag and refuses anything but a regular file,
// and, for writing, a file with other hard links. O_TRUNC is applied
// after those checks, so a refused file keeps its content. A file opened
// for reading may be a *rawFile (see asHandle).
func openInPlace(g *grant, rel string, flag int) (file, *vfsproto.Error) {
	if flag == os.O_RDONLY {
		if f, e, ok := openRawRead(g, rel); ok {
			return f, e
		}
	}
	if flag&^os.O_CREATE == appendExisting {
		if f, e, ok := openRawAppend(g, rel, flag); ok {
			return f, e
		}
	}
	trunc := flag&os.O_TRUNC != 0
	f, err := g.root.OpenFile(rel, flag&^os.O_TRUNC|openFlags, 0o644)
	if err != nil {
		return nil, fsError(err)
	}
	fi, err := f.Stat()
	if err == nil {
		if e := inPlaceOK(fi, flag); e != nil {
			f.Close()
			return nil, e
		}
	}
	if err == nil && trunc {
		err = f.Truncate(0)
	}
	if err != nil {
		f.Close()
		return nil, fsError(err)
	}
	return realFile{f}, nil
}

// inPlaceOK refuses what openInPlace opens but must not serve: a
// directory, a special file, a hard-linked file for writing.
func inPlaceOK(fi fs.FileInfo, flag int) *vfsproto.Error {
	switch {
	case fi.IsDir():
		return perr(vfsproto.EArg, msgIsDir)
	case !fi.Mode().IsRegular():
		return perr(vfsproto.EArg, msgNotRegular)
	case flag&(os.O_WRONLY|os.O_RDWR) != 0 && hardLinked(fi):
		return perr(vfsproto.EPerm, msgHardLinks)
	}
	return nil
}

// asHandle is the file f as a handle keeps it: a *rawFile becomes an
// os.File, whose Close waits for a ReadAt of another request in flight
// (a plain descriptor closed under it could be reused by the next open).
func asHandle(f file) file {
	if rf, ok := f.(*rawFile); ok && !rf.write {
		return realFile{os.NewFile(uintptr(rf.fd), rf.name)}
	}
	return f
}

// tempBaseMax is the most of the target's name that a temp file's name
// repeats: "." and ".llmsh-tmp-" and 13 base-36 digits make 255.
const tempBaseMax = NameMax - 1 - len(".llmsh-tmp-") - 13

// tempName is a fresh hidden name for a temp file beside base.
func tempName(base string) string {
	if len(base) > tempBaseMax {
		base = base[:tempBaseMax] // the temp name must fit NAME_MAX too
	}
	return "." + base + ".llmsh-tmp-" + strconv.FormatUint(rand.Uint64(), 36)
}

// openAtomic starts a truncating write of rel: a temp file beside it, with
// the target's permissions, renamed over it on close. The temp file is
// unnamed (O_TMPFILE) until that close where the file system allows it, so
// that a vfsd killed mid-write leaves nothing behind; elsewhere it is
// .NAME.llmsh-tmp-RANDOM. A symlink target is written in place (through
// the root) so that the link survives.
func openAtomic(g *grant, rel string) (file, *vfsproto.Error) {
	perm := os.FileMode(0o644)
	fi, err := g.root.Lstat(rel)
	absent := false
	switch {
	case errors.Is(err, fs.ErrNotExist):
		absent = true
	case err != nil:
		return nil, fsError(err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return openInPlace(g, rel, os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
	case fi.IsDir():
		return nil, perr(vfsproto.EArg, msgIsDir)
	case !fi.Mode().IsRegular():
		return nil, perr(vfsproto.EArg, msgNotRegular)
	case hardLinked(fi):
		return nil, perr(vfsproto.EPerm, msgHardLinks)
	default:
		perm = fi.Mode().Perm()
	}
	dir, base := path.Split(rel)
	if f, d, err := openUnnamed(g.root, path.Clean("./"+dir), perm); err == nil {
		if absent {
			placeholder(g, rel, perm)
		}
		return &atomicFile{realFile: realFile{f}, dir: d, target: base}, nil
	}
	for range 8 {
		tmp := dir + tempName(base)
		f, err := g.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, fsError(err)
		}
		if err := f.Chmod(perm); err != nil {
			f.Close()
			g.root.Remove(tmp)
			return nil, fsError(err)
		}
		if absent {
			placeholder(g, rel, perm)
		}
		return &atomicFile{realFile: realFile{f}, root: g.root, tmp: tmp, target: rel}, nil
	}
	return nil, perr(vfsproto.EIO, msgIO)
}

// placeholder makes rel, which did not exist, an empty file while its
// atomic write runs, as a shell's redirection makes its file when it
// opens it: `ls > list` lists list, `find . > found` finds found, as in
// bash. The close renames the written file over it; a write that ends
// without one (the client gone) leaves it empty, as bash's would be. Best
// effort: a name made meanwhile by someone else is left alone (O_EXCL).
func placeholder(g *grant, rel string, perm os.FileMode) {
	if f, err := g.root.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm); err == nil {
		f.Close()
	}
}

// dirStat is what an ancestor of a granted path reveals: a directory, and
// nothing else. Like every directory vfsd makes up, its size is the one
// block of an ext4 directory (dirCost), so that stat's size, its blocks
// and `test -s` agree as for a real directory.
var dirStat = vfsproto.StatResult{Mode: 0o555, IsDir: true, Size: dirCost}

// statPath implements stat{path}.
func (s *Server) statPath(name string) (vfsproto.StatResult, *vfsproto.Error) {
	return s.statAt(name, false)
}

// statAt is stat{path}, or lstat{path} with lstat set: a virtual file, a
// path in a readable grant (a virtual directory where the grant has
// nothing), an ancestor of a grant, or absent.
func (s *Server) statAt(name string, lstat bool) (vfsproto.StatResult, *vfsproto.Error) {
	abs, e := s.cleanPath(name)
	if e != nil {
		return vfsproto.StatResult{}, e
	}
	if vf := s.virt.lookup(abs); vf != nil {
		return s.virt.stat(vf), nil
	}
	if g := s.pol.readable(abs); g != nil {
		var fi fs.FileInfo
		var err error
		if lstat {
			fi, err = lstatIn(g, g.rel(abs)) // openat2 parent, else os.Root
		} else {
			fi, err = g.stat(g.rel(abs))
		}
		if err != nil {
			if st, ok := s.virt.statDir(abs); ok && errors.Is(err, fs.ErrNotExist) {
				return st, nil
			}
			return vfsproto.StatResult{}, fsError(err)
		}
		st := statAccessed(fi)
		if lstat {
			st.Symlink = fi.Mode()&fs.ModeSymlink != 0
		}
		return st, nil
	}
	if st, ok := s.outsideDir(abs); ok {
		return st, nil
	}
	return vfsproto.StatResult{}, s.absent()
}

// maxListEntries bounds a list result (it must fit in one frame).
const maxListEntries = 16384

// list implements list{path}; with full set (list_stat negotiated), each
// entry carries its lstat result.
func (s *Server) list(name string, full bool) ([]vfsproto.Entry, *vfsproto.Error) {
	abs, e := s.cleanPath(name)
	if e != nil {
		return nil, e
	}
	if s.virt.lookup(abs) != nil {
		return nil, perr(vfsproto.EArg, msgNotDir)
	}
	var real []vfsproto.Entry
	found := false
	g := s.pol.readable(abs)
	if g != nil {
		real, e = listReal(g, g.rel(abs), full)
		switch {
		case e == nil:
			found = true
		case e.Code == vfsproto.ENoEnt && s.virt.isDir(abs):
		default:
			return nil, e
		}
	}
	virt, anc := s.virt.children(abs), s.pol.ancestorChildren(abs)
	if found && virt == nil && anc == nil && !standingParent(abs) && (!full || described(real)) {
		// A directory of one grant alone, as most are: no virtual
		// file and no nested grant below it, so listReal described
		// every entry as lstat does.
		if len(real) > maxListEntries {
			return nil, perr(vfsproto.ERange, "too many entries")
		}
		slices.SortFunc(real, func(a, b vfsproto.Entry) int { return strings.Compare(a.Name, b.Name) })
		return real, nil
	}
	entries := make(map[string]vfsproto.Entry, len(real))
	for _, en := range real {
		entries[en.Name] = en
	}
	for n, en := range virt {
		found = true
		if _, ok := entries[n]; !ok {
			entries[n] = en
		}
	}
	for n, g := range anc {
		found = true
		if _, ok := entries[n]; ok {
			continue
		}
		en := vfsproto.Entry{Name: n, IsDir: true}
		if g != nil && g.file != "" {
			fi, err := g.stat(g.file)
			if err != nil {
				continue // a granted file that does not exist (yet)
			}
			en = vfsproto.Entry{Name: n, IsDir: fi.IsDir(), Size: fi.Size()}
		}
		entries[n] = en
	}
	for _, d := range standingDirs {
		if parentDir(d.path) != abs || !s.isStanding(d.path) {
			continue
		}
		if n := path.Base(d.path); entries[n].Name == "" {
			found = true
			entries[n] = vfsproto.Entry{Name: n, IsDir: true}
		}
	}
	if !found {
		if anc != nil || s.pol.isAncestor(abs) || s.isVirtualDir(abs) {
			// The root with nothing under it, an empty virtual
			// directory.
			return []vfsproto.Entry{}, nil
		}
		return nil, s.absent()
	}
	if len(entries) > maxListEntries {
		return nil, perr(vfsproto.ERange, "too many entries")
	}
	out := make([]vfsproto.Entry, 0, len(entries))
	for _, en := range entries {
		if full {
			// What lstat{path} answers: a virtual file goes before a
			// real one of its name, a nested grant answers for its own
			// path, and what listReal did not describe (virtual,
			// ancestor and standing directories) is described as lstat
			// describes it.
			child := path.Join(abs, en.Name)
			if en.Lstat == nil || s.virt.lookup(child) != nil || s.pol.readable(child) != g {
				en.Lstat = nil
				if st, e := s.lstatPath(child); e == nil {
					st.Atime = 0 // as listReal's entries
					en.Lstat = &st
				}
			}
		}
		out = append(out, en)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// listNames implements list{path, names}: each entry's name and kind,
// and the lstat of those that are directories (a walk needs their
// identity to tell a loop), as list describes them; a real directory of
// one grant alone is read without an fstatat per entry.
func (s *Server) listNames(name string) ([]vfsproto.Entry, *vfsproto.Error) {
	abs, e := s.cleanPath(name)
	if e != nil {
		return nil, e
	}
	if g := s.pol.readable(abs); g != nil && g.file == "" && s.virt.lookup(abs) == nil && !standingParent(abs) &&
		s.virt.children(abs) == nil && s.pol.ancestorChildren(abs) == nil {
		if out, e, ok := listBeneathNames(g, g.rel(abs)); ok && e == nil {
			slices.SortFunc(out, func(a, b vfsproto.Entry) int { return strings.Compare(a.Name, b.Name) })
			return out, nil
		}
		// An error, or no openat2: list answers it (and says which).
	}
	out, e := s.list(name, true)
	if e != nil {
		return nil, e
	}
	for i := range out {
		en := &out[i]
		switch {
		case en.Lstat != nil:
			en.Kind = kindOfStat(en.Lstat)
		case en.Symlink:
			en.Kind = vfsproto.KindSymlink
		case en.IsDir:
			en.Kind = vfsproto.KindDir
		case en.Type != "":
			en.Kind = en.Type
		default:
			en.Kind = vfsproto.KindFile
		}
		if en.Kind != vfsproto.KindDir {
			en.Lstat = nil
		}
		en.IsDir, en.Size, en.Symlink, en.Type = false, 0, false, ""
	}
	return out, nil
}

// kindOf is the Entry.Kind of a file of mode m.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return vfsproto.KindDir
	case m&fs.ModeSymlink != 0:
		return vfsproto.KindSymlink
	}
	if t := typeOf(m); t != "" {
		return t
	}
	return vfsproto.KindFile
}

// kindOfStat is the Entry.Kind of a file lstat describes as st.
func kindOfStat(st *vfsproto.StatResult) string {
	switch {
	case st.Symlink:
		return vfsproto.KindSymlink
	case st.IsDir:
		return vfsproto.KindDir
	case st.Type != "":
		return st.Type
	}
	return vfsproto.KindFile
}

// described reports whether every entry carries its lstat.
func described(entries []vfsproto.Entry) bool {
	for i := range entries {
		if entries[i].Lstat == nil {
			return false
		}
	}
	return true
}

// listReal reads the directory rel of g; with full set, each entry
// carries its lstat result, taken relative to the open directory.
func listReal(g *grant, rel string, full bool) ([]vfsproto.Entry, *vfsproto.Error) {
	if g.file != "" {
		fi, err := g.stat(rel)
		if err != nil {
			return nil, fsError(err)
		}
		if !fi.IsDir() {
			return nil, perr(vfsproto.EArg, msgNotDir)
		}
		// A single-file grant that is a directory (created after startup)
		// grants no tree.
		return nil, perr(vfsproto.EPerm, msgPerm)
	}
	if out, e, ok := listBeneath(g, rel, full); ok {
		return out, e
	}
	// O_NONBLOCK: a FIFO without a writer (rel names one, or a link to
	// one) would block this open for ever; opened so, Stat sees it is not
	// a directory.
	d, err := g.root.OpenFile(rel, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, fsError(err)
	}
	defer d.Close()
	fi, err := d.Stat()
	if err != nil {
		return nil, fsError(err)
	}
	if !fi.IsDir() {
		return nil, perr(vfsproto.EArg, msgNotDir)
	}
	des, err := d.ReadDir(maxListEntries + 1)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fsError(err)
	}
	if len(des) > maxListEntries {
		return nil, perr(vfsproto.ERange, "too many entries")
	}
	out := make([]vfsproto.Entry, 0, len(des))
	for _, de := range des {
		var info fs.FileInfo
		if full || de.Type()&fs.ModeSymlink == 0 {
			// One lstat, relative to the open directory.
			info, _ = de.Info()
		}
		out = append(out, entryOf(g, rel, de.Name(), de.Type(), info, full))
	}
	return out, nil
}

// entryOf describes the entry name of the directory rel of g, of type typ,
// whose lstat is info (nil when unknown).
func entryOf(g *grant, rel, name string, typ fs.FileMode, info fs.FileInfo, full bool) vfsproto.Entry {
	en := vfsproto.Entry{Name: name, IsDir: typ.IsDir()}
	if full && info != nil {
		st := statOf(info)
		st.Symlink = info.Mode()&fs.ModeSymlink != 0
		en.Lstat = &st
	}
	if typ&fs.ModeSymlink != 0 {
		// Marked as a link (lstat says as much), and followed only
		// through the root for is_dir and size: a link that leaves
		// the tree, or dangles, shows as a non-directory of size 0.
		en.Symlink = true
		if fi, err := g.stat(path.Join(rel, name)); err == nil {
			en.IsDir, en.Size, en.Type = fi.IsDir(), sizeOf(fi), typeOf(fi.Mode())
		}
	} else if info != nil {
		en.Size = sizeOf(info)
		en.Type = typeOf(info.Mode())
	}
	return en
}

func sizeOf(fi fs.FileInfo) int64 {
	if fi.IsDir() {
		return 0
	}
	return fi.Size()
}

// validPrefix reports whether a create_temp prefix is a plain name.
func validPrefix(p string) bool {
	return len(p) <= 64 && !strings.ContainsAny(p, "/\x00") && p != "." && p != ".."
}
