package shell

import (
	"context"
	"strconv"
	"testing"

	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// BenchmarkArithLoop measures the agents' counting loop, whose arithmetic
// expansion holds a parameter expansion ($i), and the same loop written
// with a bare name (i).
func BenchmarkArithLoop(b *testing.B) {
	for _, bc := range []struct{ name, src string }{
		{"dollar", `i=0; while [ $i -lt 2000 ]; do i=$(( $i + 1 )); done; echo $i`},
		{"bare", `i=0; while [ $i -lt 2000 ]; do i=$((i + 1)); done; echo $i`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			dir := b.TempDir()
			c := vfstest.Session(b, vfsd.Config{Outputs: []string{dir}})
			var out, errb lockedBuffer
			sh, err := New(Options{Client: c, Stdout: &out, Stderr: &errb, Dir: dir})
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				out.b.Reset()
				if st := sh.Run(context.Background(), bc.src, "llmsh"); st != 0 || out.String() != strconv.Itoa(2000)+"\n" {
					b.Fatalf("status %d, out %q: %s", st, out.String(), errb.String())
				}
			}
		})
	}
}
