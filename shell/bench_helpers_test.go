package shell_test

import (
	"context"
	"testing"

	. "github.com/llmsh/llmsh/shell"
	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// benchScript runs src in one shell b.N times, each run required to end
// with status 0 and print want.
func benchScript(b *testing.B, src, want string) {
	dir := b.TempDir()
	c := vfstest.Session(b, vfsd.Config{Outputs: []string{dir}})
	var out, errb lockedBuffer
	sh, err := New(Options{Client: c, Stdout: &out, Stderr: &errb, Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		out.b.Reset()
		if st := sh.Run(context.Background(), src, "llmsh"); st != 0 || out.String() != want {
			b.Fatalf("status %d, out %q: %s", st, out.String(), errb.String())
		}
	}
}
