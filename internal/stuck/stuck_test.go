package stuck_test

import (
	"context"
	"testing"

	. "github.com/llmsh/llmsh/internal/stuck"
)

func TestWait(t *testing.T) {
	done := make(chan struct{})
	close(done)
	if Wait(context.Background(), nil, done) {
		t.Error("a run that returned is stuck")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if !Wait(ctx, nil, make(chan struct{})) {
		t.Error("a cancelled run that never returns is not stuck")
	}
	stopped := make(chan struct{})
	close(stopped)
	if !Wait(context.Background(), stopped, make(chan struct{})) {
		t.Error("a stopped run that never returns is not stuck")
	}
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if Wait(ctx, nil, done) {
		t.Error("a cancelled run that returned is stuck")
	}
}
