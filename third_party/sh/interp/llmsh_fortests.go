// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

import (
	"context"
	"time"
)

// ForTests is the package's test-support surface (llmsh): the internals
// that the fork's own tests check directly. Those tests are an external
// package (interp_test), so that a test run compiles interp once, not a
// second time with its tests; nothing else uses ForTests. Each method is
// a thin view of one internal: the checks stay in the tests.
var ForTests forTests

type forTests struct{}

// HelpNotes are llmsh's notes under bash's help texts, by name, and
// HelpText is what help NAME prints.
func (forTests) HelpNotes() map[string]string { return helpNotes() }
func (forTests) HelpText(name string) string  { return helpText(name) }

// FormatTimes is the time keyword's report of real, user and sys under
// format (TIMEFORMAT): the text, the bad conversion, whether it is valid.
func (forTests) FormatTimes(format string, real, user, sys time.Duration) (string, byte, bool) {
	return formatTimes(format, real, user, sys)
}

// StartJob puts a job numbered num in r's job table, as a job that
// starts: end makes it finish, reap takes it out of the table as a wait
// for it does.
func (forTests) StartJob(r *Runner, num int) (end, reap func()) {
	j := &bgProc{done: make(chan struct{}), num: num, pid: 1000 + num}
	r.bgProcs = append(r.bgProcs, j)
	r.jobMarks = true
	r.resetCurrentJob(r.tableJobs())
	return func() { close(j.done) }, j.reap
}

// JobMarks is r's job table as jobs marks it: "+" the current job, "-"
// the previous, " " another, in the table's order; cur and prev are the
// two jobs' numbers (0: none).
func (forTests) JobMarks(r *Runner) (marks string, cur, prev int) {
	c, p := r.currentJobs()
	for _, j := range r.tableJobs() {
		switch j {
		case c:
			marks += "+"
		case p:
			marks += "-"
		default:
			marks += " "
		}
	}
	if c != nil {
		cur = c.num
	}
	if p != nil {
		prev = p.num
	}
	return marks, cur, prev
}

// JobStatuses are the statuses jobs shows of r's table.
func (forTests) JobStatuses(r *Runner) []string {
	var st []string
	for _, j := range r.tableJobs() {
		st = append(st, j.jobStatus(false))
	}
	return st
}

// JobAtGate reports whether a goroutine of r's i-th job started waits at
// the job's gate (a stopped job).
func (forTests) JobAtGate(r *Runner, i int) bool { return r.bgProcs[i].gate.waiting.Load() != 0 }

// JobGate makes the gate of a job inside parent's (nil: a job of the
// shell), which StopPoint waits at under the context that Context gives.
func (forTests) JobGate(parent *testGate) *testGate {
	var p *jobGate
	if parent != nil {
		p = parent.g
	}
	return &testGate{newJobGate(p)}
}

// testGate is a jobGate as ForTests shows it.
type testGate struct{ g *jobGate }

// Context is ctx under the gate; Stop and Resume are kill -STOP and
// -CONT of its job; Waiting reports whether a goroutine waits at it.
func (t *testGate) Context(ctx context.Context) context.Context { return withGate(ctx, t.g) }
func (t *testGate) Stop() bool                                  { return t.g.stop() }
func (t *testGate) Resume() bool                                { return t.g.resume() }
func (t *testGate) Waiting() bool                               { return t.g.waiting.Load() != 0 }

// ReMatch is [[ s =~ pat ]]'s match under ctx: the match and its groups,
// nil for none. ReLimits are the longest pattern kept compiled and the
// longest compiled at all; ErrReTooBig is the error past that.
func (forTests) ReMatch(ctx context.Context, pat, s string, nocase bool) ([]string, error) {
	return reMatch(ctx, pat, s, nocase, false)
}
func (forTests) ReLimits() (cacheLen, maxLen int) { return reCacheLen, reMaxLen }
func (forTests) ErrReTooBig() error               { return errReTooBig }
