package vfsd

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// openUnnamed opens an unnamed temporary file (O_TMPFILE) in the directory
// dir of root, with permission bits perm, for a truncating write: it has
// no name until commitUnnamed links it beside the target, so a vfsd
// killed mid-write leaves nothing behind (the kernel frees the inode).
// It returns the file and the directory, or an error where the file
// system (or the kernel) has no O_TMPFILE; the caller then falls back to
// a named temp file.
func openUnnamed(root *os.Root, dir string, perm fs.FileMode) (tmp, d *os.File, err error) {
	// O_DIRECTORY|O_NONBLOCK: a FIFO put in the directory's place never
	// blocks the open.
	if d, err = root.OpenFile(dir, os.O_RDONLY|unix.O_DIRECTORY|unix.O_NONBLOCK, 0); err != nil {
		return nil, nil, err
	}
	fd, err := unix.Openat(int(d.Fd()), ".", unix.O_TMPFILE|unix.O_RDWR|unix.O_CLOEXEC, uint32(perm))
	if err != nil {
		d.Close()
		return nil, nil, err
	}
	tmp = os.NewFile(uintptr(fd), "")
	if err := tmp.Chmod(perm); err != nil { // past the umask, as the named temp
		tmp.Close()
		d.Close()
		return nil, nil, err
	}
	return tmp, d, nil
}

// commitUnnamed gives the unnamed file f (of openUnnamed, still open) the
// name target in dir, replacing what is there: a link under a hidden name,
// then a rename over the target, both relative to dir. The hidden name
// exists only between the two calls. Where neither way of linking an
// unnamed file works (AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH, the
// /proc/self/fd path needs /proc), the data is copied to a named temp.
func commitUnnamed(f, dir *os.File, target string) error {
	dfd := int(dir.Fd())
	for range 8 {
		name := tempName(target)
		err := error(unix.ENOTSUP)
		for _, link := range unnamedLinks {
			if err = link(f, dfd, name); err == nil || errors.Is(err, unix.EEXIST) {
				break
			}
		}
		if errors.Is(err, unix.EEXIST) {
			continue
		}
		if err != nil {
			if err = copyToNamed(f, dfd, name); err != nil {
				return err
			}
		}
		if err := replaceTarget(dfd, name, target); err != nil {
			unix.Unlinkat(dfd, name, 0)
			return &fs.PathError{Op: "rename", Path: target, Err: err}
		}
		return nil
	}
	return &fs.PathError{Op: "link", Path: target, Err: unix.EEXIST}
}

// replaceTarget puts the file named name in dfd in the place of target,
// unless target is gone: a file removed while it was open for writing
// does not come back as it is closed (`exec 3> f; rm f; exec 3>&-`
// leaves no f, as on Linux, where its writes went to a file with no
// name), which RENAME_EXCHANGE tells atomically (ENOENT). Where the file
// system cannot exchange, it is a rename over target.
func replaceTarget(dfd int, name, target string) error {
	err := unix.Renameat2(dfd, name, dfd, target, unix.RENAME_EXCHANGE)
	switch {
	case errors.Is(err, unix.ENOENT):
		unix.Unlinkat(dfd, name, 0) // the data goes, as the file's did
		return nil
	case errors.Is(err, unix.EINVAL), errors.Is(err, unix.ENOSYS), errors.Is(err, unix.ENOTSUP):
		return unix.Renameat(dfd, name, dfd, target)
	case err != nil:
		return err
	}
	// name is now the file that was target.
	if err := unix.Unlinkat(dfd, name, 0); err != nil {
		// target had become a directory: it goes back, as a rename
		// over it would have failed.
		unix.Renameat2(dfd, name, dfd, target, unix.RENAME_EXCHANGE)
		return err
	}
	return nil
}

// unnamedLinks are the ways to give an unnamed file a name, in the order
// tried (a variable for tests).
var unnamedLinks = []func(f *os.File, dfd int, name string) error{linkEmptyPath, linkProcFD}

// linkEmptyPath links f by its descriptor (needs CAP_DAC_READ_SEARCH).
func linkEmptyPath(f *os.File, dfd int, name string) error {
	return unix.Linkat(int(f.Fd()), "", dfd, name, unix.AT_EMPTY_PATH)
}

// linkProcFD links f through /proc/self/fd (needs /proc).
func linkProcFD(f *os.File, dfd int, name string) error {
	return unix.Linkat(unix.AT_FDCWD, "/proc/self/fd/"+strconv.Itoa(int(f.Fd())), dfd, name, unix.AT_SYMLINK_FOLLOW)
}

// copyToNamed copies the unnamed file f to a new file name in the
// directory dfd, with f's permission bits.
func copyToNamed(f *os.File, dfd int, name string) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	fd, err := unix.Openat(dfd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(fi.Mode().Perm()))
	if err != nil {
		return &fs.PathError{Op: "open", Path: name, Err: err}
	}
	dst := os.NewFile(uintptr(fd), name)
	_, err = io.Copy(dst, io.NewSectionReader(f, 0, fi.Size()))
	if err == nil {
		err = dst.Chmod(fi.Mode().Perm())
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		unix.Unlinkat(dfd, name, 0)
	}
	return err
}
