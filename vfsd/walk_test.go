package vfsd

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// walkTree makes a tree of 8 directories of 8 directories, each with 16
// small files, under the returned directory.
func walkTree(t testing.TB) (dir string) {
	dir = t.TempDir()
	for i := range 8 {
		for j := range 8 {
			for k := range 16 {
				writeFile(t, filepath.Join(dir, "in", fmt.Sprintf("d%d", i), fmt.Sprintf("e%d", j), fmt.Sprintf("f%02d.txt", k)), "x\n")
			}
		}
	}
	return dir
}

func walkHello(t testing.TB, c *client) {
	t.Helper()
	var h vfsproto.HelloResult
	c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureWalk}}, &h)
}

// BenchmarkWalk is a walk of a tree of 73 directories and 1024 files:
// one walk request, against a list per directory one after the other
// (the answers only read, not decoded).
func BenchmarkWalk(b *testing.B) {
	dir := walkTree(b)
	in := filepath.Join(dir, "in")
	for _, names := range []bool{true, false} {
		b.Run(fmt.Sprintf("walk/names=%v", names), func(b *testing.B) {
			c := newBenchClient(b, Config{Inputs: []string{in}, Dir: dir})
			walkHello(b, c.client)
			buf := make([]byte, 0, 1<<20)
			for b.Loop() {
				c.sendRaw(vfsproto.OpWalk, fmt.Sprintf(`{"path":%q,"names":%v}`, in, names))
				c.bw.Flush()
				if p := c.recvRaw(b, buf); !bytes.Contains(p, []byte(`"path":"d7/e7"`)) {
					b.Fatalf("walk: %.200s", p)
				}
			}
		})
		b.Run(fmt.Sprintf("list/names=%v", names), func(b *testing.B) {
			c := newBenchClient(b, Config{Inputs: []string{in}, Dir: dir})
			c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureListStat}}, nil)
			buf := make([]byte, 0, 1<<20)
			list := func(d string) {
				c.sendRaw(vfsproto.OpList, fmt.Sprintf(`{"path":%q,"names":%v}`, d, names))
				c.bw.Flush()
				c.recvRaw(b, buf)
			}
			for b.Loop() {
				list(in)
				for i := range 8 {
					d := filepath.Join(in, fmt.Sprintf("d%d", i))
					list(d)
					for j := range 8 {
						list(filepath.Join(d, fmt.Sprintf("e%d", j)))
					}
				}
			}
		})
	}
}
