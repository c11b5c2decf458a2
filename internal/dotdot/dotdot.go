// Package dotdot checks the ".." of a path name as the kernel resolves
// them: name by name, so that "nope/.." and "file/.." fail where a path
// made clean first ("nope/.." is ".") would not. The interpreter (cd,
// test, redirections) and the builtins (Env.Abs) share it.
package dotdot

import (
	"errors"
	"io/fs"
	"strings"
	"syscall"
)

// Check asks stat about each prefix of name that a ".." follows, as
// written (a relative prefix stays relative), and stops at the first that
// does not exist (or may not be seen) or is no directory: it returns that
// prefix and syscall.ENOENT or syscall.ENOTDIR, the kernel's errno for
// name. A name without ".." costs nothing; one with costs a stat for each
// "..". ("", nil) when every such prefix is a directory.
func Check(name string, stat func(prefix string) (fs.FileInfo, error)) (string, error) {
	if !strings.Contains(name, "..") {
		return "", nil
	}
	parts := strings.Split(name, "/")
	for i := 1; i < len(parts); i++ {
		if parts[i] != ".." {
			continue
		}
		prefix := strings.Join(parts[:i], "/")
		if prefix == "" {
			continue // "/..": the root
		}
		info, err := stat(prefix)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
				return prefix, syscall.ENOENT
			}
			if errors.Is(err, syscall.ENOTDIR) {
				return prefix, syscall.ENOTDIR
			}
			return prefix, err
		}
		if !info.IsDir() {
			return prefix, syscall.ENOTDIR
		}
	}
	return "", nil
}
