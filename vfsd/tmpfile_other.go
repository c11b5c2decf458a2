//go:build !linux

package vfsd

import (
	"errors"
	"io/fs"
	"os"
)

// openUnnamed has no O_TMPFILE to use here: atomic writes use a named
// temp file.
func openUnnamed(root *os.Root, dir string, perm fs.FileMode) (tmp, d *os.File, err error) {
	return nil, nil, errors.ErrUnsupported
}

func commitUnnamed(f, dir *os.File, target string) error { return errors.ErrUnsupported }
