package llmsh_test

import (
	"context"
	"testing"

	"github.com/llmsh/llmsh"
)

// BenchmarkRun is the cost of one small Run in a live session (one
// builtin, a virtual file written and read back, the virtual-file list).
func BenchmarkRun(b *testing.B) {
	s, err := llmsh.New(llmsh.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	for b.Loop() {
		res, err := s.Run(ctx, `echo hi > /v; cat /v`, nil)
		if err != nil || res.Stdout != "hi\n" {
			b.Fatalf("%+v %v", res, err)
		}
	}
}

// BenchmarkNewClose is the cost of a session's life: starting vfsd,
// the handshake, and ending it.
func BenchmarkNewClose(b *testing.B) {
	for b.Loop() {
		s, err := llmsh.New(llmsh.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
