// Package stuck tells when a run that was told to stop has not returned:
// it is deep in work that does not look at its context (an expansion, the
// parser), and whoever ran it ends the process rather than let it burn a
// CPU for good. The llmsh command and the isolated session's worker use
// it.
package stuck

import (
	"context"
	"time"
)

// Grace is how long a stopped run may take to return.
const Grace = time.Second

// Wait waits until the run returns (done is closed) or is told to stop
// (ctx ends, or stopped is closed; stopped may be nil). Told to stop, it
// waits Grace more for done, and reports true when the run still has
// not returned.
func Wait(ctx context.Context, stopped, done <-chan struct{}) bool {
	select {
	case <-done:
		return false
	case <-stopped:
	case <-ctx.Done():
	}
	t := time.NewTimer(Grace)
	defer t.Stop()
	select {
	case <-done:
		return false
	case <-t.C:
		return true
	}
}
