package shell_test

import (
	"context"
	"testing"

	. "github.com/llmsh/llmsh/shell"
	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// benchShell is a shell for a benchmark, writing to out and errb, with
// a temp directory granted for output as its working directory.
func benchShell(b *testing.B) (sh *Shell, out, errb *lockedBuffer) {
	dir := b.TempDir()
	c := vfstest.Session(b, vfsd.Config{Outputs: []string{dir}})
	out, errb = &lockedBuffer{}, &lockedBuffer{}
	sh, err := New(Options{Client: c, Stdout: out, Stderr: errb, Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	return sh, out, errb
}

// benchScript runs src in one shell b.N times, each run required to end
// with status 0 and print want.
func benchScript(b *testing.B, src, want string) {
	sh, out, errb := benchShell(b)
	for b.Loop() {
		out.b.Reset()
		if st := sh.Run(context.Background(), src, "llmsh"); st != 0 || out.String() != want {
			b.Fatalf("status %d, out %q: %s", st, out.String(), errb.String())
		}
	}
}
