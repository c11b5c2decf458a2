package llmsh

import (
	"context"
	"io"
)

// liveKey carries RunStream's writers to Run (and, for an isolated
// session, to the relay of the worker's output).
type liveKey struct{}

type liveOut struct{ stdout, stderr io.Writer }

// liveWriters are the writers RunStream put in ctx, nil if none.
func liveWriters(ctx context.Context) (stdout, stderr io.Writer) {
	if l, ok := ctx.Value(liveKey{}).(liveOut); ok {
		return l.stdout, l.stderr
	}
	return nil, nil
}

// RunStream is Run that also writes the script's stdout and stderr to
// stdout and stderr (either may be nil) while it runs, as it is written:
// the bytes that Result keeps (within Options.MaxOutput), in the same
// order, without llmsh's own closing notes (the timeout and output-limit
// messages, which the Result's Stderr ends with). The writers are called
// one at a time, from the goroutine that writes the output; a slow writer
// slows the script, and a writer's error is ignored (the script goes on,
// and the Result is whole).
func (s *Session) RunStream(ctx context.Context, script string, stdin io.Reader, stdout, stderr io.Writer) (Result, error) {
	if stdout != nil || stderr != nil {
		ctx = context.WithValue(ctx, liveKey{}, liveOut{stdout, stderr})
	}
	return s.Run(ctx, script, stdin)
}
