package vfsd

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
	"time"

	"github.com/llmsh/llmsh/vfsproto"
)

// Tree operations: lstat, readlink, mkdir, remove, rename, utimes and chmod. Every change
// of a real file needs the path inside a writable (-o) grant and goes
// through that grant's os.Root, so that ".." and symlinks cannot lead out
// of it. A granted path itself, and an ancestor of one, is never removed
// or renamed. Outside every grant the tree is virtual: mkdir makes a
// virtual directory (unless Config.Strict), and virtual files and
// directories can be removed, renamed among virtual names and have their
// modification time and permission bits set. A path outside the grants
// that is not virtual is absent (E_NOENT), as for reads.

// doTreeOp decodes and runs a tree operation.
func (c *conn) doTreeOp(j *job) (*frameBuf, *vfsproto.Error, int) {
	s := c.s
	switch j.op {
	case vfsproto.OpLstat:
		var p vfsproto.PathParams
		if e := c.decodeNamed(j.raw, &p, "path"); e != nil {
			return nil, e, 0
		}
		j.path = p.Path
		st, e := s.lstatPath(p.Path)
		if e != nil {
			return nil, e, 0
		}
		return okFrame(j.id, st), nil, 0
	case vfsproto.OpReadlink:
		var p vfsproto.PathParams
		if e := c.decodeNamed(j.raw, &p, "path"); e != nil {
			return nil, e, 0
		}
		j.path = p.Path
		target, e := s.readlinkPath(p.Path)
		if e != nil {
			return nil, e, 0
		}
		return okFrame(j.id, vfsproto.ReadlinkResult{Target: c.wireName(target)}), nil, 0
	case vfsproto.OpMkdir:
		var p vfsproto.MkdirParams
		if e := c.decodeNamed(j.raw, &p, "path"); e != nil {
			return nil, e, 0
		}
		j.path = p.Path
		if p.Mode != nil && *p.Mode > 0o777 {
			return nil, perr(vfsproto.EArg, "invalid mode"), 0
		}
		if e := s.mkdir(p.Path, p.Mode); e != nil {
			return nil, e, 0
		}
	case vfsproto.OpRemove:
		var p vfsproto.PathParams
		if e := c.decodeNamed(j.raw, &p, "path"); e != nil {
			return nil, e, 0
		}
		j.path = p.Path
		if e := s.remove(p.Path); e != nil {
			return nil, e, 0
		}
	case vfsproto.OpRename:
		var p vfsproto.RenameParams
		if e := c.decodeNamed(j.raw, &p, "from", "to"); e != nil {
			return nil, e, 0
		}
		j.path, j.to = p.From, p.To
		if e := s.rename(p.From, p.To); e != nil {
			return nil, e, 0
		}
	case vfsproto.OpUtimes:
		var p vfsproto.UtimesParams
		if e := c.decodeNamed(j.raw, &p, "path"); e != nil {
			return nil, e, 0
		}
		j.path = p.Path
		var at, mt time.Time
		if p.Atime != nil {
			at = time.Unix(0, *p.Atime)
		}
		if p.Mtime != nil {
			mt = time.Unix(0, *p.Mtime)
		}
		if e := s.utimes(p.Path, at, mt); e != nil {
			return nil, e, 0
		}
	case vfsproto.OpChmod:
		var p vfsproto.ChmodParams
		if e := c.decodeNamed(j.raw, &p, "path", "mode"); e != nil {
			return nil, e, 0
		}
		j.path = p.Path
		if p.Mode > 0o777 {
			return nil, perr(vfsproto.EArg, "invalid mode"), 0
		}
		if e := s.chmod(p.Path, fs.FileMode(p.Mode)); e != nil {
			return nil, e, 0
		}
	default:
		return nil, unsupported(), 0
	}
	return okFrame(j.id, nil), nil, 0
}

// cleanPath is policy.clean counting a rejection, and, for a name that
// ends in a slash (or "/."), which must name a directory, ENOTDIR when
// abs is a virtual file or a file of a readable grant (the kernel's rule:
// cat file.txt/ is "Not a directory").
func (s *Server) cleanPath(name string) (string, *vfsproto.Error) {
	abs, e := s.pol.clean(name)
	if e != nil {
		if e.Code == vfsproto.EPerm {
			s.stats.rejects.Add(1)
		}
		return abs, e
	}
	if dirSyntax(name) && s.isNonDir(abs) {
		return abs, perr(vfsproto.ENoEnt, msgNotDir)
	}
	return abs, nil
}

// dirSyntax reports whether name says it is a directory: a final slash,
// or a final "." or ".." component.
func dirSyntax(name string) bool {
	return strings.HasSuffix(name, "/") || name == "." || name == ".." ||
		strings.HasSuffix(name, "/.") || strings.HasSuffix(name, "/..")
}

// isNonDir reports whether abs exists and is not a directory (followed
// through symbolic links, as the kernel follows them before a final
// slash).
func (s *Server) isNonDir(abs string) bool {
	if s.virt.lookup(abs) != nil {
		return true
	}
	if g := s.pol.readable(abs); g != nil {
		fi, err := g.stat(g.rel(abs))
		return err == nil && !fi.IsDir()
	}
	return false
}

// isGrant reports whether abs is exactly a granted path.
func (p *policy) isGrant(abs string) bool {
	for _, g := range p.grants {
		if g.path == abs {
			return true
		}
	}
	return false
}

// changeable returns the writable grant through which abs may be changed
// (removed, renamed, created), or the error to answer: outside the grants,
// read-only, or a granted path (or an ancestor of one) itself.
func (s *Server) changeable(abs string) (*grant, *vfsproto.Error) {
	g := s.pol.writable(abs)
	if g == nil {
		if s.pol.readable(abs) != nil {
			return nil, s.reject(msgReadOnly)
		}
		return nil, s.reject(msgOutside)
	}
	if s.pol.isGrant(abs) || s.pol.isAncestor(abs) {
		return nil, s.reject(msgPerm)
	}
	return g, nil
}

// lstatPath implements lstat{path}: stat without following a final
// symbolic link.
func (s *Server) lstatPath(name string) (vfsproto.StatResult, *vfsproto.Error) {
	return s.statAt(name, true)
}

// readlinkPath implements readlink{path}: the text of a symbolic link
// inside a readable grant, reached as lstat reaches it (the final link is
// not followed). The text is returned as stored, also when it names a
// path outside the grants: it is data of the granted tree, like the
// bytes of a file there, and following it stays E_PERM (see
// docs/security.md). Anything that is not a link is E_ARG "not a symbolic
// link" (GNU's EINVAL).
func (s *Server) readlinkPath(name string) (string, *vfsproto.Error) {
	abs, e := s.cleanPath(name)
	if e != nil {
		return "", e
	}
	if s.virt.lookup(abs) != nil {
		return "", perr(vfsproto.EArg, msgNotLink)
	}
	if g := s.pol.readable(abs); g != nil {
		rel := g.rel(abs)
		fi, err := g.root.Lstat(rel)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && s.virt.isDir(abs) {
				return "", perr(vfsproto.EArg, msgNotLink)
			}
			return "", fsError(err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return "", perr(vfsproto.EArg, msgNotLink)
		}
		target, err := g.root.Readlink(rel)
		if err != nil {
			return "", fsError(err)
		}
		return target, nil
	}
	if s.pol.isAncestor(abs) || s.isVirtualDir(abs) {
		return "", perr(vfsproto.EArg, msgNotLink)
	}
	return "", s.absent()
}

// mkdir implements mkdir{path, mode}: a real directory inside a
// writable grant, a virtual one outside every grant.
func (s *Server) mkdir(name string, mode *uint32) *vfsproto.Error {
	abs, e := s.cleanPath(name)
	if e != nil {
		return e
	}
	if s.virt.lookup(abs) != nil || s.isVirtualDir(abs) || s.pol.isAncestor(abs) {
		return perr(vfsproto.EArg, msgExist)
	}
	g := s.pol.writable(abs)
	if g == nil {
		if s.pol.readable(abs) != nil {
			return s.reject(msgReadOnly)
		}
		if s.cfg.Strict {
			return s.reject(msgOutside)
		}
		return s.mkdirVirtual(abs, mode)
	}
	if g.file != "" {
		// A single-file grant never becomes a tree.
		return s.reject(msgPerm)
	}
	rel := g.rel(abs)
	if rel == "." || s.pol.isGrant(abs) {
		return perr(vfsproto.EArg, msgExist)
	}
	// A new directory takes a block of the disk and an entry in its
	// parent: the write budget pays for them first (a million mkdirs are
	// 4 GB of ext4), as for a new file's entry (diskEntryCost), not
	// under the limit `ulimit -f` lowers.
	cost := dirCost + diskEntryCost(path.Base(rel))
	if !s.budget.takeEntry(cost) {
		return perr(vfsproto.ERange, msgTooLarge)
	}
	e, ok := mkdirBeneath(g, rel)
	if !ok {
		if err := g.root.Mkdir(rel, 0o777); err != nil {
			e = fsError(err)
		}
	}
	if e != nil {
		s.budget.giveEntry(cost)
		return e
	}
	if mode != nil {
		if err := g.root.Chmod(rel, fs.FileMode(*mode)); err != nil {
			return fsError(err)
		}
	}
	return nil
}

// virtualParent checks that the parent of abs, a new name outside every
// grant, is a directory in the session's view (the root, a virtual
// directory, StandingDir or an ancestor of a grant), as open(2) with
// O_CREAT, mkdir(2) and rename(2) want: else ENOENT, or ENOTDIR when the
// parent is a file.
func (s *Server) virtualParent(abs string) *vfsproto.Error {
	parent := parentDir(abs)
	if parent == "/" || s.isVirtualDir(parent) || s.pol.isAncestor(parent) {
		return nil
	}
	if s.isNonDir(parent) {
		return perr(vfsproto.ENoEnt, msgNotDir)
	}
	return perr(vfsproto.ENoEnt, msgNoEnt)
}

// mkdirVirtual makes the virtual directory abs (outside every grant),
// whose parent must be a directory, as mkdir(2) wants: the root, a
// virtual directory, StandingDir or an ancestor of a grant.
func (s *Server) mkdirVirtual(abs string, mode *uint32) *vfsproto.Error {
	if e := s.virtualParent(abs); e != nil {
		return e
	}
	m := uint32(0o755)
	if mode != nil {
		m = *mode
	}
	return s.virt.mkdir(abs, m)
}

// outsideOnly reports whether abs lies outside every grant and is not
// on the way to one: the virtual space, where only virtual files and
// directories exist.
func (s *Server) outsideOnly(abs string) bool {
	return s.pol.readable(abs) == nil && !s.pol.isAncestor(abs)
}

// remove implements remove{path}: a file, a symbolic link or an empty
// directory.
func (s *Server) remove(name string) *vfsproto.Error {
	abs, e := s.cleanPath(name)
	if e != nil {
		return e
	}
	if s.virt.lookup(abs) != nil {
		return s.virt.remove(abs)
	}
	if s.pol.writable(abs) == nil && !s.pol.isAncestor(abs) && s.virt.isDir(abs) {
		return s.virt.rmdir(abs)
	}
	if s.outsideOnly(abs) {
		if s.isStanding(abs) {
			return s.reject(msgPerm)
		}
		return s.absent()
	}
	g, e := s.changeable(abs)
	if e != nil {
		return e
	}
	if s.hiddenAt(g, g.rel(abs), false) {
		return s.reject(msgPerm)
	}
	if e, ok := removeBeneath(g, g.rel(abs)); ok {
		return e
	}
	if err := g.root.Remove(g.rel(abs)); err != nil {
		return fsError(err)
	}
	return nil
}

// rename implements rename{from, to}. Both paths must lie in the same
// writable grant, or both be virtual; between two grants, or between a
// grant and the virtual files, the answer is E_ARG "cross-device link" so
// that a client copies instead.
func (s *Server) rename(from, to string) *vfsproto.Error {
	src, e := s.cleanPath(from)
	if e != nil {
		return e
	}
	dst, e := s.cleanPath(to)
	if e != nil {
		return e
	}
	if s.virt.lookup(src) != nil {
		return s.renameVirtual(src, dst)
	}
	if s.pol.writable(src) == nil && !s.pol.isAncestor(src) && s.virt.isDir(src) {
		ok, e := s.virtualTarget(dst)
		if e != nil {
			return e
		}
		if !ok {
			// Into a grant: the client copies the tree.
			return perr(vfsproto.EArg, msgXDev)
		}
		return s.virt.renameDir(src, dst)
	}
	if s.outsideOnly(src) {
		if s.isStanding(src) {
			return s.reject(msgPerm)
		}
		return s.absent()
	}
	gs, e := s.changeable(src)
	if e != nil {
		return e
	}
	gd := s.pol.writable(dst)
	if gd == nil {
		if s.pol.readable(dst) != nil {
			return s.reject(msgReadOnly)
		}
		if s.pol.isAncestor(dst) {
			return s.reject(msgPerm)
		}
		if s.cfg.Strict {
			return s.reject(msgOutside)
		}
		return perr(vfsproto.EArg, msgXDev)
	}
	if _, e := s.changeable(dst); e != nil {
		return e
	}
	if gd != gs {
		return perr(vfsproto.EArg, msgXDev)
	}
	if s.hiddenAt(gs, gs.rel(src), false) || s.hiddenAt(gd, gd.rel(dst), false) {
		return s.reject(msgPerm)
	}
	cost := s.renameEntryCost(gd, gs.rel(src), gd.rel(dst))
	if !s.budget.takeEntry(cost) {
		return perr(vfsproto.ERange, msgTooLarge)
	}
	e = renameReal(gs.root, gs.rel(src), gs.rel(dst))
	if e != nil {
		s.budget.giveEntry(cost)
	}
	return e
}

// renameEntryCost is what renaming src to dst, both in g, costs of the
// write budget when dst is a new name: its directory entry (diskEntryCost
// without the inode, which the file keeps). The old entry is not given
// back, as a removal gives nothing back (session 22, red team: an empty
// file with a short name renamed to a 245-byte name paid 268 bytes for
// 512, so a loop of `: > a; mv a LONG` grew a directory about twice as
// far as the budget said). An existing dst, or a missing src (the rename
// fails as rename(2) fails), costs nothing.
func (s *Server) renameEntryCost(g *grant, src, dst string) int64 {
	if !s.budget.chargesEntries() {
		return 0
	}
	if _, err := g.root.Lstat(src); err != nil {
		return 0 // the rename fails as rename(2) fails
	}
	if _, err := g.root.Lstat(dst); !errors.Is(err, fs.ErrNotExist) {
		return 0
	}
	return diskEntryCost(path.Base(dst)) - entryInode
}

// renameReal renames inside root with rename(2) semantics: os.Root.Rename
// refuses any existing directory as the target (EEXIST), where rename(2)
// replaces an empty directory by a directory, and says EISDIR for a file
// and ENOTEMPTY for a directory that is not empty.
func renameReal(root *os.Root, src, dst string) *vfsproto.Error {
	err := root.Rename(src, dst)
	if err == nil || !errors.Is(err, syscall.EEXIST) {
		return fsError(err)
	}
	sfi, serr := root.Lstat(src)
	dfi, derr := root.Lstat(dst)
	if serr != nil || derr != nil || !dfi.IsDir() {
		return fsError(err)
	}
	if !sfi.IsDir() {
		return perr(vfsproto.EArg, msgIsDir)
	}
	// A directory over a directory: replace it only when it is empty.
	if err := root.Remove(dst); err != nil {
		return fsError(err)
	}
	return fsError(root.Rename(src, dst))
}

// virtualTarget checks that dst may name a virtual file: outside every
// grant, not an ancestor of one, not in strict mode, and in a directory. ok is false (with
// a nil error) when dst lies in a writable grant.
func (s *Server) virtualTarget(dst string) (ok bool, e *vfsproto.Error) {
	switch {
	case s.pol.writable(dst) != nil:
		return false, nil
	case s.pol.readable(dst) != nil:
		return false, s.reject(msgReadOnly)
	case s.pol.isAncestor(dst), s.isStanding(dst):
		return false, s.reject(msgPerm)
	case s.cfg.Strict:
		return false, s.reject(msgOutside)
	}
	if e := s.virtualParent(dst); e != nil {
		return false, e
	}
	return true, nil
}

// renameVirtual renames the virtual file src.
func (s *Server) renameVirtual(src, dst string) *vfsproto.Error {
	ok, e := s.virtualTarget(dst)
	if e != nil {
		return e
	}
	if !ok {
		return perr(vfsproto.EArg, msgXDev)
	}
	return s.virt.rename(src, dst)
}

// utimes implements utimes{path, atime, mtime}. A zero time is left
// unchanged. Virtual files have a modification time only.
func (s *Server) utimes(name string, atime, mtime time.Time) *vfsproto.Error {
	abs, e := s.cleanPath(name)
	if e != nil {
		return e
	}
	if vf := s.virt.lookup(abs); vf != nil {
		if !mtime.IsZero() {
			s.virt.setMtime(vf, mtime)
		}
		return nil
	}
	g := s.pol.writable(abs)
	if g == nil {
		if s.pol.readable(abs) != nil {
			return s.reject(msgReadOnly)
		}
		if s.pol.isAncestor(abs) {
			return s.reject(msgPerm)
		}
		if s.virt.isDir(abs) {
			if !mtime.IsZero() {
				s.virt.setDirMtime(abs, mtime)
			}
			return nil
		}
		if s.isStanding(abs) {
			return nil // touch /tmp: there is nothing to set
		}
		return s.outsideChange(abs)
	}
	if s.pol.isAncestor(abs) || s.hiddenAt(g, g.rel(abs), true) {
		return s.reject(msgPerm)
	}
	if e := refuseHardLinked(g, g.rel(abs)); e != nil {
		return e
	}
	if err := g.root.Chtimes(g.rel(abs), atime, mtime); err != nil {
		return fsError(err)
	}
	return nil
}

// chmod implements chmod{path, mode}: permission bits only (the caller
// has checked mode <= 0777). It follows symbolic links inside the tree. A
// directory grant itself and an ancestor of a grant are E_PERM (a grant's
// root must stay usable for the session); a single-file grant may be
// changed. A virtual file keeps the bits for stat.
func (s *Server) chmod(name string, mode fs.FileMode) *vfsproto.Error {
	abs, e := s.cleanPath(name)
	if e != nil {
		return e
	}
	if vf := s.virt.lookup(abs); vf != nil {
		s.virt.setMode(vf, uint32(mode))
		return nil
	}
	g := s.pol.writable(abs)
	if g == nil {
		if s.pol.readable(abs) != nil {
			return s.reject(msgReadOnly)
		}
		if !s.pol.isAncestor(abs) && !s.isStanding(abs) && s.virt.setDirMode(abs, uint32(mode)) {
			return nil
		}
		return s.outsideChange(abs)
	}
	if s.pol.isAncestor(abs) || (g.file == "" && s.pol.isGrant(abs)) || s.hiddenAt(g, g.rel(abs), true) {
		return s.reject(msgPerm)
	}
	if e := refuseHardLinked(g, g.rel(abs)); e != nil {
		return e
	}
	if err := g.root.Chmod(g.rel(abs), mode); err != nil {
		return fsError(err)
	}
	return nil
}

// outsideChange is the answer to changing the mode or times of abs,
// outside the readable grants and not virtual: E_PERM for the ancestors
// of a grant and StandingDir, which are seen but not changed; absent
// otherwise.
func (s *Server) outsideChange(abs string) *vfsproto.Error {
	if s.pol.isAncestor(abs) || s.isStanding(abs) {
		return s.reject(msgPerm)
	}
	return s.absent()
}

// refuseHardLinked is E_PERM when rel (followed through links) is a
// regular file with other hard links: its mode and times are those of
// every name it has, some perhaps outside the grants (see hardLinked).
func refuseHardLinked(g *grant, rel string) *vfsproto.Error {
	if fi, err := g.stat(rel); err == nil && hardLinked(fi) {
		return perr(vfsproto.EPerm, msgHardLinks)
	}
	return nil
}
