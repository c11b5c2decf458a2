package stuck

import (
	"context"
	"time"
)

// ForTests is stuck's test-support surface: the internals that its own
// tests drive directly (stuck_test is an external package); nothing else
// uses it.
var ForTests forTests

type forTests struct{}

// WaitWith is WaitOr reading meter instead of the process, and looking
// at it on each of tick's values instead of a ticker's.
func (forTests) WaitWith(ctx context.Context, stopped, done <-chan struct{}, check func() bool, meter func() (wall, cpu, ready time.Duration), tick <-chan time.Time) bool {
	return waitWith(ctx, stopped, done, check, meter, tick)
}
