package mcpserver

import (
	"context"
	"io"
	"maps"
	"sync"

	"github.com/llmsh/llmsh"
	"github.com/llmsh/llmsh/third_party/go-sdk/mcp"
)

// ForTests is mcpserver's test-support surface: the internals that its
// own tests check directly. Those tests are an external package
// (mcpserver_test), so that a test run compiles mcpserver once, not a
// second time with its tests; nothing else uses ForTests.
var ForTests forTests

type forTests struct{}

// RunBash is the bash tool's call of in on sess, without live output.
func (forTests) RunBash(ctx context.Context, sess *llmsh.Session, in BashInput) (*mcp.CallToolResult, BashOutput, error) {
	return runBash(ctx, sess, in, nil)
}

// Transport is Transport's bookkeeping over out without the SDK: in
// takes the client's lines as the SDK is handed them (and drops them),
// answers the SDK's lines, which go to out; state is whether a line of
// in waits for an answer (maxPending), the requests not yet answered,
// by id, and the ids whose answers are cancelled.
func (forTests) Transport(out io.Writer) (in, answers io.Writer, state func() (waiting bool, n int, pending map[string]int, cancelled int)) {
	lw := &lockedWriter{w: out, pending: map[string]int{}, cancelled: map[string]int{}}
	lw.cond = sync.NewCond(&lw.mu)
	return &requestCounter{io.Discard, lw}, lw, func() (bool, int, map[string]int, int) {
		lw.mu.Lock()
		defer lw.mu.Unlock()
		return lw.waiting, lw.n, maps.Clone(lw.pending), len(lw.cancelled)
	}
}
