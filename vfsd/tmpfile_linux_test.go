package vfsd

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// TestUnnamedTempCommit: the unnamed temp file of an atomic write gets its
// name at close by each way there is (AT_EMPTY_PATH, /proc/self/fd, and a
// copy when neither works), keeping the target's mode; nothing else is
// left in the directory, and a hang-up before the close leaves nothing.
func TestUnnamedTempCommit(t *testing.T) {
	fail := func(*os.File, int, string) error { return errors.New("refused") }
	for _, tc := range []struct {
		name  string
		links []func(*os.File, int, string) error
	}{
		{"AT_EMPTY_PATH", []func(*os.File, int, string) error{linkEmptyPath}},
		{"/proc/self/fd", []func(*os.File, int, string) error{fail, linkProcFD}},
		{"copy", []func(*os.File, int, string) error{fail, fail}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			saved := unnamedLinks
			unnamedLinks = tc.links
			defer func() { unnamedLinks = saved }()
			tr := newTree(t)
			target := filepath.Join(tr.out, "o.txt")
			if err := os.Chmod(target, 0o640); err != nil {
				t.Fatal(err)
			}
			root, err := os.OpenRoot(tr.out)
			if err != nil {
				t.Fatal(err)
			}
			defer root.Close()
			f, d, err := openUnnamed(root, ".", 0o644)
			if err != nil {
				t.Skipf("no O_TMPFILE on this file system: %v", err)
			}
			f.Close()
			d.Close()
			s := newServer(t, tr.config())
			c := connect(t, s)
			h := c.open("out/o.txt", "w")
			c.write(h, "new")
			if tmps := tempFiles(t, tr.out); len(tmps) != 0 {
				t.Fatalf("named temp during the write: %v", tmps)
			}
			c.ok("close", map[string]int64{"h": h}, nil)
			fi, err := os.Stat(target)
			if got := readFile(t, target); got != "new" || err != nil || fi.Mode().Perm() != 0o640 {
				t.Fatalf("target %q, %v %v", got, fi.Mode(), err)
			}
			if tmps := tempFiles(t, tr.out); len(tmps) != 0 {
				t.Fatalf("temp left behind: %v", tmps)
			}
			c.ok("mkdir", vfsproto.MkdirParams{Path: "out/sub"}, nil)
			c.put("out/sub/n.txt", "w", "in a subdirectory")
			if got := readFile(t, filepath.Join(tr.out, "sub", "n.txt")); got != "in a subdirectory" {
				t.Fatalf("new file %q", got)
			}
		})
	}
}
