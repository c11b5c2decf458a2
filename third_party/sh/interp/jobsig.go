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
// or ignores, for bgProc.signal (another goroutine's).
func (r *Runner) noteJobTraps() {
	bg := r.jobSelf
	if bg == nil || r.bashPid != bg.pid {
		return
	}
	set := make(map[string]bool, len(r.traps))
	for name := range r.traps {
		set[name] = true
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
