// Package replacefile replaces a file of the operator's host by a new one
// renamed over its name: nothing is written through a link at that name
// or into another name of the file, and a failure leaves the old file.
// (llmsh's own host files: `llmsh test --update`'s goldens, the REPL's
// history; a script's files go through vfsd.)
package replacefile

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
)

// Write makes a file of mode perm beside path, fills it with write, and
// renames it over path; on any error the new file is removed.
func Write(path string, perm os.FileMode, write func(w io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(tmp)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = tmp.Chmod(perm)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
