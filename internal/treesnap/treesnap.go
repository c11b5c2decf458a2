// Package treesnap describes a host directory tree so that tests can
// prove a run changed nothing outside the trees it was allowed to write.
// Only tests import it.
package treesnap

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// Take describes every entry under root except the subtree skip, without
// following links: its mode, size and modification time, a link's target
// and a regular file's SHA-256.
func Take(root, skip string) (map[string]string, error) {
	snap := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == skip {
			return filepath.SkipDir
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		desc := fmt.Sprintf("%v %d %d", fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			desc += " -> " + target
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			desc += fmt.Sprintf(" %x", sha256.Sum256(b))
		}
		snap[p] = desc
		return nil
	})
	return snap, err
}

// Diff lists, sorted, the entries removed, changed or appeared between two
// snapshots ("removed P", "changed P", "appeared P").
func Diff(before, after map[string]string) []string {
	var d []string
	for p, b := range before {
		if a, ok := after[p]; !ok {
			d = append(d, "removed "+p)
		} else if a != b {
			d = append(d, "changed "+p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			d = append(d, "appeared "+p)
		}
	}
	sort.Strings(d)
	return d
}
