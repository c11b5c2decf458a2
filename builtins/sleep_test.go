package builtins_test

import (
	"context"
	"io"
	"testing"
	"time"
)

// Messages and statuses checked against GNU sleep 9.1.
func TestSleep(t *testing.T) {
	t.Parallel()
	runLines(t, []linesCase{
		{nil, []string{"sleep", "x"}, "", "", "sleep: invalid time interval 'x'\nTry 'sleep --help' for more information.\n", 1},
		{nil, []string{"sleep"}, "", "", "sleep: missing operand\nTry 'sleep --help' for more information.\n", 1},
		{nil, []string{"sleep", "1x", "y"}, "", "", "sleep: invalid time interval '1x'\nsleep: invalid time interval 'y'\nTry 'sleep --help' for more information.\n", 1},
		{nil, []string{"sleep", "-1"}, "", "", "sleep: invalid option -- '1'\nTry 'sleep --help' for more information.\n", 1},
		{nil, []string{"sleep", "0.01", "0.01s", "0.0001m", ".001", "0h", "0d"}, "", "", "", 0},
		{nil, []string{"sleep", "1e-3"}, "", "", "", 0},
	})
	start := time.Now()
	if got := runCmd(t, nil, "", "sleep", "0.1", "0.05s"); got.status != 0 {
		t.Errorf("sleep 0.1 0.05s: %+v", got)
	}
	if d := time.Since(start); d < 150*time.Millisecond {
		t.Errorf("sleep 0.1 0.05s returned after %v", d)
	}
}

func TestSleepCancelled(t *testing.T) {
	t.Parallel()
	for _, arg := range []string{"1d", "inf"} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
		start := time.Now()
		st, _ := runLinesEnv(ctx, "", io.Discard, "sleep", arg)
		cancel()
		if st != 1 || time.Since(start) > 5*time.Second {
			t.Errorf("sleep %s cancelled: status %d after %v", arg, st, time.Since(start))
		}
	}
}
