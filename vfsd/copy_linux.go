package vfsd

import (
	"errors"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// kernelCopy copies up to n bytes of src from off to dst at its offset
// with copy_file_range(2), both descriptors held open meanwhile (a
// close of either handle waits for it). errNoCopy when the kernel
// cannot copy between them and nothing was copied.
func kernelCopy(dst, src *os.File, off, n int64) (int64, error) {
	sc, err := src.SyscallConn()
	if err != nil {
		return 0, errNoCopy
	}
	dc, err := dst.SyscallConn()
	if err != nil {
		return 0, errNoCopy
	}
	var done int64
	var cerr error
	rerr := sc.Read(func(sfd uintptr) bool {
		werr := dc.Write(func(dfd uintptr) bool {
			for done < n {
				o := off + done
				m, err := unix.CopyFileRange(int(sfd), &o, int(dfd), nil, int(min(n-done, 1<<30)), 0)
				if err == syscall.EINTR {
					continue
				}
				if err != nil {
					cerr = err
					break
				}
				if m == 0 {
					break // the file ended (or shrank) meanwhile
				}
				done += int64(m)
			}
			return true
		})
		if cerr == nil {
			cerr = werr
		}
		return true
	})
	if cerr == nil {
		cerr = rerr
	}
	if done == 0 && cerr != nil && unsupportedCopy(cerr) {
		return 0, errNoCopy
	}
	if done == 0 && cerr == nil {
		// The size said there were bytes (copyFile asks only then):
		// a file whose size is not its contents (procfs), as GNU cat
		// falls back on a first copy of 0.
		return 0, errNoCopy
	}
	if cerr != nil {
		return done, &os.PathError{Op: "copy_file_range", Path: dst.Name(), Err: cerr}
	}
	return done, nil
}

// unsupportedCopy reports whether err says that copy_file_range cannot
// copy between the two files at all, as GNU cat falls back on it.
func unsupportedCopy(err error) bool {
	for _, e := range []syscall.Errno{syscall.ENOSYS, syscall.EOPNOTSUPP, syscall.EINVAL, syscall.EBADF, syscall.EXDEV, syscall.ETXTBSY, syscall.EPERM} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
