package builtins

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

// Helpers shared by the file and tree builtins (mkdir, rm, rmdir, cp, mv,
// touch, stat, du, realpath).

// lstatOperand describes the operand name as lstat(2) does: a final symbolic
// link is described itself, unless name ends in "/", which makes the
// system resolve it (Env.Abs drops the slash, so vfsd would not).
func lstatOperand(env *Env, name string) (fs.FileInfo, error) {
	if strings.HasSuffix(name, "/") {
		return env.FS.Stat(env.Abs(name))
	}
	return env.FS.Lstat(env.Abs(name))
}

// fileErrorf prints "NAME: what 'FILE': reason", the GNU form of a failed
// operation on a file ("cannot remove 'x': No such file or directory").
func (e *Env) fileErrorf(what, file string, err error) {
	e.Errorf("%s %s: %s", what, e.QuoteAF(file), ErrText(err))
}

// isErrno reports whether err wraps errno.
func isErrno(err error, errno syscall.Errno) bool {
	var got syscall.Errno
	return errors.As(err, &got) && got == errno
}

// defaultDirMode and defaultFileMode are what a new directory and a
// new file get: llmsh's umask is 022.
const (
	defaultDirMode  fs.FileMode = 0o755
	defaultFileMode fs.FileMode = 0o644
	defaultUmask    fs.FileMode = 0o022
)

// parseMode parses a chmod-style mode, octal ("750") or symbolic
// ("u=rwx,go-w", "a+X", "g=u"), applied to base with llmsh's umask as
// chmod does. isDir matters for X. Bits above 0777 (setuid, setgid,
// sticky) are accepted in the syntax and dropped: vfsd sets permission
// bits only.
func parseMode(s string, base fs.FileMode, isDir bool) (fs.FileMode, bool) {
	changes, ok := compileMode(s)
	if !ok {
		return 0, false
	}
	return fs.FileMode(adjustMode(changes, uint32(base.Perm()), isDir, uint32(defaultUmask)) & 0o777), true
}

// copyFile copies the regular file src to dst (created or truncated,
// atomically on a real file) and returns the source's info. srcErr is a
// failure to open or read src, dstErr one to create or write dst.
func copyFile(env *Env, src, dst string) (fi fs.FileInfo, srcErr, dstErr error) {
	in, err := env.FS.OpenFile(src, os.O_RDONLY)
	if err != nil {
		return nil, err, nil
	}
	defer in.Close()
	if fi, err = in.Stat(); err != nil {
		return nil, err, nil
	}
	out, err := env.FS.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
	if err != nil {
		return nil, nil, err
	}
	if fc, ok := out.(FileCopier); ok {
		// vfsd copies between its own descriptors, as GNU cp's
		// copy_file_range (what is left when it cannot is read below).
		switch err := copyVia(env, fc, in); {
		case err == nil:
			if err := out.Close(); err != nil {
				return nil, nil, closeError{err}
			}
			return fi, nil, nil
		case errors.Is(err, gnu.ErrCancelled):
			out.Close()
			return nil, nil, env.Ctx.Err()
		case err != errNotCopied:
			out.Close()
			return nil, nil, err
		}
	}
	buf := make([]byte, 64<<10)
	for {
		if err := env.Ctx.Err(); err != nil {
			out.Close()
			return nil, nil, err
		}
		n, rerr := in.Read(buf)
		if n > 0 {
			if _, werr := out.Write(buf[:n]); werr != nil {
				out.Close()
				return nil, nil, gnu.WriteError{Err: werr}
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			out.Close()
			return nil, rerr, nil
		}
	}
	if err := out.Close(); err != nil {
		return nil, nil, closeError{err}
	}
	return fi, nil, nil
}

// closeError is a failure to close an output file: what was written to it
// may be lost.
type closeError struct{ error }

func (e closeError) Unwrap() error { return e.error }

// errNotDir is ENOTDIR, for a path component that exists but is not a
// directory.
var errNotDir error = syscall.ENOTDIR

// errFtIsDir is EISDIR, for a directory operand where a file is needed.
var errFtIsDir error = syscall.EISDIR

// mkdirAll creates the directory dir (absolute) with perm, and its
// missing parents with 0755; an existing directory is no error.
func mkdirAll(env *Env, dir string, perm fs.FileMode) error {
	fi, err := env.FS.Stat(dir)
	if err == nil {
		if fi.IsDir() {
			return nil
		}
		return syscall.ENOTDIR
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if parent := path.Dir(dir); parent != dir {
		if err := mkdirAll(env, parent, 0o755); err != nil {
			return err
		}
	}
	if err := env.FS.Mkdir(dir, perm); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return nil
}
