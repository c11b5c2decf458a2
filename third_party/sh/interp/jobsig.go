// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// Signals sent to a background job whose shell traps them (llmsh): as in
// bash, `( trap 'echo t; exit 3' TERM; sleep 1 ) & kill %1` runs the
// trap when the job's running command is over, and the job ends as the
// action says; a signal the job's shell ignores (trap '' TERM) does
// nothing. Other signals end the job as before (bgProc.signal).

import "context"

// noteJobTraps tells the job r is the shell of which signals r traps
// (true) or ignores (false), for bgProc.signal (another goroutine's).
func (r *Runner) noteJobTraps() {
	bg := r.jobSelf
	if bg == nil || r.bashPid != bg.pid {
		return
	}
	set := make(map[string]bool, len(r.traps))
	for name, a := range r.traps {
		set[name] = a != "" // false: ignored
	}
	bg.mu.Lock()
	bg.trapped = set
	bg.mu.Unlock()
}

// runJobSignals runs the traps of the signals sent to the job r is the
// shell of; it is called before each of its commands.
func (r *Runner) runJobSignals(ctx context.Context) {
	bg := r.jobSelf
	bg.mu.Lock()
	sigs := bg.trapPending
	bg.trapPending = nil
	bg.hasPending.Store(false)
	bg.mu.Unlock()
	for _, sig := range sigs {
		if a := r.traps[signalName(sig)]; a != "" {
			r.trapCallback(ctx, a, signalName(sig))
		}
		if r.exit.exiting {
			return
		}
	}
}

// SignalTrapped sends sig to the shell of r, a shell's top runner, when
// that shell traps or ignores it: the trap runs before its next command
// (the command it runs goes on: the signal is the shell's alone). It
// reports whether the shell took it.
func (r *Runner) SignalTrapped(sig int) bool {
	s := r.llmsh
	t := &s.top
	t.mu.Lock()
	trapped := t.cancel != nil && t.trapped[signalName(sig)]
	t.mu.Unlock()
	if trapped {
		s.signalTop(sig)
	}
	return trapped
}

type jobTargetKey struct{}

// ClaimJobSignals makes the function mk returns the receiver of the
// signals kill sends to the job whose context ctx is, a job of one
// simple command, when no other shell has claimed it: a nested shell
// (`bash -c 'trap … TERM; …' &`) is that job's process, as bash execs
// it. release gives it back.
func ClaimJobSignals(ctx context.Context, mk func() func(sig int) bool) (release func()) {
	bg, _ := ctx.Value(jobTargetKey{}).(*bgProc)
	if bg == nil {
		return func() {}
	}
	bg.mu.Lock()
	defer bg.mu.Unlock()
	if bg.nestedSig != nil {
		return func() {}
	}
	bg.nestedSig = mk()
	return func() {
		bg.mu.Lock()
		bg.nestedSig = nil
		bg.mu.Unlock()
	}
}

// GroupSignals returns how to send a signal to the process group of the
// shell of r, a shell's top runner, as timeout signals the command it
// runs: when that shell traps or ignores the signal, the command it runs
// (one of llmsh's, as a child process) ends, and the trap runs when it
// has; deliver reports whether the shell took the signal. Otherwise
// the caller ends the shell its own way (timeout cancels its command).
func (r *Runner) GroupSignals() (deliver func(sig int) bool) {
	s := r.llmsh
	s.groupSig.Store(true)
	return func(sig int) bool {
		t := &s.top
		t.mu.Lock()
		trapped := t.cancel != nil && t.trapped[signalName(sig)]
		cmdCancel, ignored := t.cmdCancel, t.ignored[signalName(sig)]
		t.mu.Unlock()
		if !trapped {
			return false
		}
		s.signalTop(sig)
		// The command inherits an ignored signal and ignores it too.
		if cmdCancel != nil && sigTerminates(sig) && !ignored {
			cmdCancel()
		}
		return true
	}
}

// groupCommand makes the context of a command the main shell runs while
// GroupSignals may end it.
func (r *Runner) groupCommand(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	t := &r.llmsh.top
	t.mu.Lock()
	old := t.cmdCancel
	t.cmdCancel = cancel
	t.mu.Unlock()
	return ctx, func() {
		t.mu.Lock()
		t.cmdCancel = old
		t.mu.Unlock()
		cancel()
	}
}

// pendingAtEnd runs, as a shell's commands are done, the traps of the
// signals sent to it during its last command (bash runs them when that
// command returns): `trap 'echo got' USR1; ( sleep 0.2; kill -USR1 $$ )
// & sleep 1` prints got.
func (r *Runner) pendingAtEnd(ctx context.Context) {
	if r.handlingTrap {
		return
	}
	if r.llmsh.topPending.Load() && r.bashPid == r.llmsh.pid {
		r.runPendingSignals(ctx)
	} else if r.jobSelf != nil && r.jobSelf.hasPending.Load() && r.bashPid == r.jobSelf.pid {
		r.runJobSignals(ctx)
	}
}

// interruptible makes the context of a wait of the job's shell, which a
// signal its traps take ends (wait returns 128+N, as bash's).
func (bg *bgProc) interruptible(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	bg.mu.Lock()
	bg.wake = cancel
	if len(bg.trapPending) > 0 {
		cancel()
	}
	bg.mu.Unlock()
	return ctx, func() {
		bg.mu.Lock()
		bg.wake = nil
		bg.mu.Unlock()
		cancel()
	}
}
