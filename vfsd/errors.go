package vfsd

import (
	"errors"
	"io/fs"
	"os"
	"syscall"

	"github.com/llmsh/llmsh/vfsproto"
)

// Fixed error messages. They never carry a host path: the client knows which
// path it named, and the server must not reveal any other.
const (
	msgIsDir       = "is a directory"
	msgNotDir      = "not a directory"
	msgNoEnt       = "no such file or directory"
	msgPerm        = "permission denied"
	msgOutside     = vfsproto.MsgOutside
	msgReadOnly    = "path is read-only"
	msgIO          = "input/output error"
	msgNoSpace     = "no space left on device"
	msgInternal    = "internal error"
	msgNotRegular  = "not a regular file"
	msgNotEmpty    = "directory not empty"
	msgExist       = "file exists"
	msgXDev        = "cross-device link"
	msgNotLink     = "not a symbolic link"
	msgNameTooLong = "file name too long"
	msgHardLinks   = vfsproto.MsgHardLinks
)

// errPathEscapesText is the text of os.Root's unexported escape error. A
// symlink or ".." that leaves a root is a policy violation (E_PERM), not an
// I/O failure.
const errPathEscapesText = "path escapes from parent"

func perr(code vfsproto.Code, msg string) *vfsproto.Error {
	return &vfsproto.Error{Code: code, Message: msg}
}

// unsupported is the error of an op this server does not know, or that
// the connection's hello did not negotiate.
func unsupported() *vfsproto.Error {
	return perr(vfsproto.EUnsupported, "unsupported operation")
}

// isEscape reports whether err is os.Root's "path escapes from parent".
func isEscape(err error) bool {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if e.Error() == errPathEscapesText {
			return true
		}
	}
	return false
}

// fsError maps an error of the os package to a protocol error whose message
// reveals nothing of the host.
func fsError(err error) *vfsproto.Error {
	switch {
	case err == nil:
		return nil
	case isEscape(err), errors.Is(err, syscall.ELOOP), errors.Is(err, fs.ErrPermission),
		errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM), errors.Is(err, syscall.EXDEV):
		return perr(vfsproto.EPerm, msgPerm)
	case errors.Is(err, fs.ErrNotExist):
		return perr(vfsproto.ENoEnt, msgNoEnt)
	case errors.Is(err, syscall.ENOTEMPTY):
		return perr(vfsproto.EArg, msgNotEmpty)
	case errors.Is(err, syscall.EEXIST):
		return perr(vfsproto.EArg, msgExist)
	case errors.Is(err, syscall.EISDIR):
		return perr(vfsproto.EArg, msgIsDir)
	case errors.Is(err, syscall.ENOTDIR):
		return perr(vfsproto.ENoEnt, msgNotDir)
	case errors.Is(err, syscall.ENXIO), errors.Is(err, syscall.ENODEV):
		return perr(vfsproto.EArg, msgNotRegular)
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		// A full disk is an I/O failure of the host (E_IO), worded so
		// that the client can print GNU's message.
		return perr(vfsproto.EIO, msgNoSpace)
	case errors.Is(err, syscall.EFBIG):
		return perr(vfsproto.ERange, "file too large")
	case errors.Is(err, syscall.ENAMETOOLONG):
		return perr(vfsproto.EArg, msgNameTooLong)
	case errors.Is(err, syscall.EINVAL):
		return perr(vfsproto.EArg, "invalid argument")
	case errors.Is(err, os.ErrClosed):
		return perr(vfsproto.EClosed, "handle closed")
	}
	return perr(vfsproto.EIO, msgIO)
}
