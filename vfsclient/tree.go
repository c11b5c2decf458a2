package vfsclient

import (
	"io/fs"
	"path"
	"syscall"
	"time"

	"github.com/llmsh/llmsh/vfsproto"
)

// treeErr wraps err of a tree operation on name as an *fs.PathError (the
// *Error inside names the precise errno: see Error.Errno).
func treeErr(op, name string, err error) error { return pathErr(op, name, err) }

// Lstat describes name without following a final symbolic link: Mode has
// fs.ModeSymlink for a link.
func (c *Client) Lstat(name string) (fs.FileInfo, error) {
	c.flushPending()
	var r vfsproto.StatResult
	if err := c.call(vfsproto.OpLstat, vfsproto.PathParams{Path: name}, &r); err != nil {
		return nil, pathErr("lstat", name, err)
	}
	return &FileInfo{name: path.Base(name), st: r}, nil
}

// Readlink returns the text of the symbolic link name, as stored (it is
// not resolved and may name a path outside the grants). Anything that is
// not a link gives syscall.EINVAL, as readlink(2).
func (c *Client) Readlink(name string) (string, error) {
	var r vfsproto.ReadlinkResult
	if err := c.call(vfsproto.OpReadlink, vfsproto.PathParams{Path: name}, &r); err != nil {
		return "", pathErr("readlink", name, err)
	}
	return r.Target, nil
}

// Mkdir creates the directory name with the permission bits of perm set
// exactly (vfsd applies no umask when a mode is given). An existing name
// is an error satisfying errors.Is(err, fs.ErrExist).
func (c *Client) Mkdir(name string, perm fs.FileMode) error {
	mode := uint32(perm.Perm())
	return treeErr("mkdir", name, c.call(vfsproto.OpMkdir, vfsproto.MkdirParams{Path: name, Mode: &mode}, nil))
}

// Remove removes a file, a symbolic link or an empty directory, like
// os.Remove. A directory that is not empty gives syscall.ENOTEMPTY.
func (c *Client) Remove(name string) error {
	return treeErr("remove", name, c.call(vfsproto.OpRemove, vfsproto.PathParams{Path: name}, nil))
}

// Rename renames oldname to newname inside one granted tree (or among
// virtual files). Between trees the error wraps syscall.EXDEV, and the
// caller copies instead. The error's Path is oldname.
func (c *Client) Rename(oldname, newname string) error {
	if newname == "" {
		return treeErr("rename", oldname, syscall.ENOENT)
	}
	return treeErr("rename", oldname, c.call(vfsproto.OpRename, vfsproto.RenameParams{From: oldname, To: newname}, nil))
}

// Chtimes sets the access and modification times of name; a zero
// time.Time leaves that time unchanged. Virtual files keep only a
// modification time.
func (c *Client) Chtimes(name string, atime, mtime time.Time) error {
	p := vfsproto.UtimesParams{Path: name}
	if !atime.IsZero() {
		n := atime.UnixNano()
		p.Atime = &n
	}
	if !mtime.IsZero() {
		n := mtime.UnixNano()
		p.Mtime = &n
	}
	return treeErr("utimes", name, c.call(vfsproto.OpUtimes, p, nil))
}

// Chmod sets the permission bits of name (perm.Perm(); setuid, setgid and
// sticky bits are refused by vfsd with E_ARG). It follows symbolic links
// inside the tree. A directory grant itself cannot be changed.
func (c *Client) Chmod(name string, perm fs.FileMode) error {
	return treeErr("chmod", name, c.call(vfsproto.OpChmod, vfsproto.ChmodParams{Path: name, Mode: uint32(perm & 0o7777)}, nil))
}
