package builtins

import (
	"context"
	"sync"
	"sync/atomic"
)

// SignalTarget is how a command that signals the command it runs
// (timeout) reaches a shell that traps the signal: the command it runs
// gets a context holding the target (WithSignalTarget), a nested shell
// that starts under it claims it (Claim), and Deliver hands that shell
// the signal as a trapped one. Nothing of the host is signalled.
type SignalTarget struct {
	mu      sync.Mutex
	deliver func(sig int) bool
}

type signalTargetKey struct{}

// WithSignalTarget returns ctx holding a new target.
func WithSignalTarget(ctx context.Context) (context.Context, *SignalTarget) {
	t := new(SignalTarget)
	return context.WithValue(ctx, signalTargetKey{}, t), t
}

// Claim makes the function that mk returns the target's of ctx, if ctx
// holds one that no shell has claimed yet (the first shell started is
// the command's process); release gives it back.
func Claim(ctx context.Context, mk func() (deliver func(sig int) bool)) (release func()) {
	t, _ := ctx.Value(signalTargetKey{}).(*SignalTarget)
	if t == nil {
		return func() {}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.deliver != nil {
		return func() {}
	}
	t.deliver = mk()
	return func() {
		t.mu.Lock()
		t.deliver = nil
		t.mu.Unlock()
	}
}

// Deliver sends sig to the shell that claimed t; it reports whether that
// shell took it (it traps or ignores sig).
func (t *SignalTarget) Deliver(sig int) bool {
	t.mu.Lock()
	d := t.deliver
	t.mu.Unlock()
	return d != nil && d(sig)
}

// KillReport tells the shell that runs a command that a signal ended the
// command's own process: GNU timeout sends the KILL it sends its command
// (-s KILL, -k) to its whole process group, itself included, and bash
// then reports the timeout command as killed ("Killed"). The shell puts
// a report in the command's context (WithKillReport), the command fills
// it (ReportKilled).
type KillReport struct{ sig atomic.Int32 }

type killReportKey struct{}

// WithKillReport returns ctx holding a new, empty report.
func WithKillReport(ctx context.Context) (context.Context, *KillReport) {
	k := new(KillReport)
	return context.WithValue(ctx, killReportKey{}, k), k
}

// ReportKilled records, in ctx's report if it holds one, that signal sig
// ended the command.
func ReportKilled(ctx context.Context, sig int) {
	if k, _ := ctx.Value(killReportKey{}).(*KillReport); k != nil {
		k.sig.Store(int32(sig))
	}
}

// Sig is the signal reported, 0 for none.
func (k *KillReport) Sig() int { return int(k.sig.Load()) }
