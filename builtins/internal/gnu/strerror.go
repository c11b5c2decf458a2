package gnu

import (
	"errors"
	"io/fs"
	"sync"
	"syscall"
)

// errnoText is GNU libc's strerror wording for the errnos builtins meet,
// made by the first Strerror (a map literal here was made in package
// init, which every start of llmsh and of its vfsd ran).
var (
	errnoText     map[syscall.Errno]string
	errnoTextOnce sync.Once
)

func makeErrnoText() {
	errnoText = map[syscall.Errno]string{
		syscall.ENOENT:       "No such file or directory",
		syscall.EACCES:       "Permission denied",
		syscall.EPERM:        "Operation not permitted",
		syscall.EISDIR:       "Is a directory",
		syscall.ENOTDIR:      "Not a directory",
		syscall.EEXIST:       "File exists",
		syscall.EIO:          "Input/output error",
		syscall.EINVAL:       "Invalid argument",
		syscall.EBADF:        "Bad file descriptor",
		syscall.ENOSPC:       "No space left on device",
		syscall.EFBIG:        "File too large",
		syscall.ENOTSUP:      "Operation not supported",
		syscall.ENOTEMPTY:    "Directory not empty",
		syscall.EPIPE:        "Broken pipe",
		syscall.EXDEV:        "Invalid cross-device link",
		syscall.ENAMETOOLONG: "File name too long",
		syscall.ELOOP:        "Too many levels of symbolic links",
		syscall.EMFILE:       "Too many open files",
		syscall.EILSEQ:       "Invalid or incomplete multibyte or wide character",
		syscall.ECONNREFUSED: "Connection refused",
		syscall.ENODEV:       "No such device",
		syscall.ENXIO:        "No such device or address",
		syscall.ENOTTY:       "Inappropriate ioctl for device",
		syscall.EBUSY:        "Device or resource busy",
	}
}

// Strerror is GNU's wording for err: glibc's strerror text of the errno
// it wraps ("No such file or directory"), the text of an io/fs sentinel
// error otherwise, and err's own text as a last resort. It never
// includes a path.
func Strerror(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		errnoTextOnce.Do(makeErrnoText)
		if s, ok := errnoText[errno]; ok {
			return s
		}
		return errno.Error()
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "No such file or directory"
	case errors.Is(err, fs.ErrPermission):
		return "Permission denied"
	case errors.Is(err, fs.ErrExist):
		return "File exists"
	case errors.Is(err, fs.ErrClosed):
		return "Bad file descriptor"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
