package builtins_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// treeFS is clientFS that lists whole trees (vfsd's walk), as the shell's
// FS does, and counts its walks: all of them, and those going on where
// one was cut.
type treeFS struct {
	clientFS
	mu          sync.Mutex
	walks, more int
}

func (f *treeFS) ReadTree(name, after string, types bool, described *atomic.Bool) (map[string][]fs.DirEntry, string, bool, error) {
	f.mu.Lock()
	f.walks++
	if after != "" {
		f.more++
	}
	f.mu.Unlock()
	return f.c.Walk(name, after, types, described)
}

// TestWalksPastAFrame: find, ls -R, grep -r, du and tar c over a tree
// whose walk does not fit in one answer (4800 files of 240-byte names in
// twelve directories: about 1.3 MB of names) print what they print
// listing each directory by itself, and go on with the walk where its
// answer was cut: a few walks in all, not one per directory left out
// (nor a walk of its own for a directory a lister ahead of the walk
// asks for before the answer that holds it comes). The walk is what is
// checked, not the files: grep and tar read one file in ten (--include,
// --exclude), and the tree is no smaller than a names walk cut twice
// needs (about 4100 files).
func TestWalksPastAFrame(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	long := strings.Repeat("n", 236)
	for _, top := range []string{"a", "b", "c"} {
		for _, sub := range []string{"w", "x", "y", "z"} {
			d := filepath.Join(dir, "t", top, sub)
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
			for i := range 400 {
				if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("%s%04d", long, i)), []byte("needle\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	plain := clientFS{vfstest.Session(t, vfsd.Config{Outputs: []string{dir}, Dir: dir})}
	tree := &treeFS{clientFS: clientFS{vfstest.Session(t, vfsd.Config{Outputs: []string{dir}, Dir: dir})}}
	for _, args := range [][]string{
		{"find", "t"}, {"find", "t", "-size", "-2k"}, {"ls", "-R", "t"}, {"ls", "-lR", "t"},
		{"grep", "-rc", "--include=*0", "needle", "t"}, {"du", "-a", "--apparent-size", "-b", "t"},
		{"tar", "cvf", "out.tar", "--exclude=*[1-9]", "t"},
	} {
		want := runCmdFS(t, plain, dir, args...)
		tree.walks, tree.more = 0, 0
		got := runCmdFS(t, tree, dir, args...)
		if got != want || want.status != 0 {
			t.Errorf("%v: walking %+v\nlisting each directory %+v", args, got, want)
		}
		if tree.more == 0 || tree.walks != tree.more+1 || tree.walks > 4 {
			t.Errorf("%v: %d walks, %d going on after a cut; want one walk going on two or three times", args, tree.walks, tree.more)
		}
	}
}
