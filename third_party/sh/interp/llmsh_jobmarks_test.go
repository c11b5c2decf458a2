// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

import "testing"

// TestJobMarks: the + and - of jobs are bash's current and previous jobs,
// chosen as each job starts: a job that was running when it started keeps
// + after it ends (bash's set_current_job), and the newest running job
// older than it is -.
func TestJobMarks(t *testing.T) {
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	r.Reset()
	start := func(num int) *bgProc {
		j := &bgProc{done: make(chan struct{}), num: num, pid: 1000 + num}
		r.bgProcs = append(r.bgProcs, j)
		r.jobMarks = true
		r.resetCurrentJob(r.tableJobs())
		return j
	}
	marks := func() string {
		cur, prev := r.currentJobs()
		s := ""
		for _, j := range r.tableJobs() {
			switch j {
			case cur:
				s += "+"
			case prev:
				s += "-"
			default:
				s += " "
			}
		}
		return s
	}
	j1 := start(1)
	if got := marks(); got != "+" {
		t.Errorf("one job: %q", got)
	}
	j2 := start(2)
	close(j2.done) // ended after it started
	if got := marks(); got != "-+" {
		t.Errorf("a running job and a newer one that ended: %q, want bash's \"-+\"", got)
	}
	j3 := start(3)
	if got := marks(); got != "- +" {
		t.Errorf("three jobs, the second ended: %q, want \"- +\" (- is the newest running job older than +)", got)
	}
	j3.reap() // waited for: out of the table, bash's reset_current
	if got := marks(); got != "+ " {
		t.Errorf("after the current job left: %q, want \"+ \" (the newest running job, alone)", got)
	}
	close(j1.done)
	j1.reap()
	j2.reap()
	if cur, prev := r.currentJobs(); cur != nil || prev != nil {
		t.Errorf("no jobs: %v %v", cur, prev)
	}
}
