// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// llmsh: the CHLD trap. bash runs it once for each child process of the
// shell that ends: a program, a ( … ), a command substitution, each
// element of a pipeline, a background job. llmsh runs those in-process;
// the places bash would fork count one child each (childExited), and the
// trap runs after the command that made them (runChldTraps), or, for a
// background job of the main shell, before its next command, without
// ending a wait as other trapped signals do. See LLMSH.md.

import "context"

// chldTrap is the trap's name.
const chldTrap = "CHLD"

// childExited counts n children of r that ended, when r traps CHLD.
func (r *Runner) childExited(n int) {
	if n > 0 && r.traps[chldTrap] != "" && !r.handlingTrap {
		r.chldPending += n
	}
}

// runChldTraps runs the CHLD trap once for each child counted.
func (r *Runner) runChldTraps(ctx context.Context) {
	n := r.chldPending
	r.chldPending = 0
	for range n {
		a := r.traps[chldTrap]
		if a == "" || r.exit.exiting || ctx.Err() != nil {
			return
		}
		r.trapCallback(ctx, a, chldTrap)
	}
}

// subshellJobsEnded counts the background jobs of r, a subshell (the
// main shell's are jobEnded's), that have ended since it last looked:
// `( trap 'echo done' CHLD; true & wait )` runs the trap after the wait,
// as bash (llmsh).
func (r *Runner) subshellJobsEnded() {
	if r.handlingTrap {
		// Not inside a trap's own commands: childExited would drop
		// the count while the job was marked seen (the second of `true
		// & true & wait` was lost when it ended during the first's trap).
		return
	}
	for _, j := range r.bgProcs {
		if j.num == 0 || j.owner != r.bashPid || !j.finished() {
			continue
		}
		j.mu.Lock()
		seen := j.chldSeen
		j.chldSeen = true
		j.mu.Unlock()
		if !seen {
			r.childExited(1)
		}
	}
}

// jobEnded is a background job's end, sent to the main shell that
// started it (owner): it runs its CHLD trap before its next command.
func (s *session) jobEnded(owner int) {
	if owner != s.pid {
		return
	}
	t := &s.top
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.trapped[chldTrap] {
		t.chld++
		s.topPending.Store(true)
	}
}
