// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp_test

import (
	"testing"

	. "github.com/llmsh/llmsh/third_party/sh/interp"
)

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
	type job struct{ end, reap func() }
	start := func(num int) job {
		end, reap := ForTests.StartJob(r, num)
		return job{end, reap}
	}
	marks := func() string {
		s, _, _ := ForTests.JobMarks(r)
		return s
	}
	j1 := start(1)
	if got := marks(); got != "+" {
		t.Errorf("one job: %q", got)
	}
	j2 := start(2)
	j2.end() // ended after it started
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
	j1.end()
	j1.reap()
	j2.reap()
	if _, cur, prev := ForTests.JobMarks(r); cur != 0 || prev != 0 {
		t.Errorf("no jobs: %v %v", cur, prev)
	}
}
