// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// runScript runs src on a new runner and returns its stdout, stderr and
// status.
func runScript(t *testing.T, src string, opts ...RunnerOption) (string, string, int) {
	t.Helper()
	var out, errb strings.Builder
	r, err := New(append([]RunnerOption{StdIO(nil, &out, &errb)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		t.Fatal(err)
	}
	err = r.Run(context.Background(), f)
	st := 0
	if es, ok := err.(ExitStatus); ok {
		st = int(es)
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), st
}

// defaultTimeFormat and posixTimeFormat are timing.go's: time's report
// without TIMEFORMAT, and under time -p.
const (
	defaultTimeFormat = "\nreal\t%3lR\nuser\t%3lU\nsys\t%3lS"
	posixTimeFormat   = "real %2R\nuser %2U\nsys %2S"
)

func TestFormatTimes(t *testing.T) {
	real, user, sys := 61500*time.Millisecond, 250*time.Millisecond, 1250*time.Millisecond
	for _, tc := range []struct {
		format, want string
		bad          byte
	}{
		{defaultTimeFormat, "\nreal\t1m1.500s\nuser\t0m0.250s\nsys\t0m1.250s", 0},
		{posixTimeFormat, "real 61.50\nuser 0.25\nsys 1.25", 0},
		{"%R|%0R|%1lR|%%|%P|%E|x%", "61.500|62|1m1.5s|%|2.44|61.500|x%", 0},
		{"%R %x", "", 'x'},
		{"%3lP", "", 'P'},
		{"%3", "", 0},
	} {
		got, bad, ok := ForTests.FormatTimes(tc.format, real, user, sys)
		if got != tc.want || bad != tc.bad || ok != (tc.want != "") {
			t.Errorf("formatTimes(%q) = %q, %q, %v; want %q, %q", tc.format, got, bad, ok, tc.want, tc.bad)
		}
	}
}

// time reports the process's CPU time over the pipeline (not a constant
// zero): a busy loop shows user time above zero.
func TestTimeUserTime(t *testing.T) {
	_, errs, _ := runScript(t, `TIMEFORMAT='%3U %3S'; time { i=0; while (( i < 200000 )); do (( i++ )); done; }`)
	if !regexp.MustCompile(`^\d+\.\d{3} \d+\.\d{3}\n$`).MatchString(errs) {
		t.Fatalf("time printed %q", errs)
	}
	if strings.HasPrefix(errs, "0.000 0.000") {
		t.Errorf("no CPU time reported for a busy loop: %q", errs)
	}
}

func TestUlimit(t *testing.T) {
	out, errs, st := runScript(t, `ulimit -a; ulimit; ulimit -u; ulimit -u 10; echo "st $?"; ulimit -n 1024; echo "same $?"`, Ulimit('u', 2000))
	lines := strings.Split(out, "\n")
	if len(lines) < 17 || lines[1] != "core file size              (blocks, -c) 0" ||
		lines[0] != "real-time non-blocking time  (microseconds, -R) unlimited" ||
		lines[14] != "max user processes                  (-u) 2000" {
		t.Fatalf("ulimit -a:\n%s", out)
	}
	if rest := strings.Join(lines[17:], "\n"); rest != "unlimited\n2000\nst 1\nsame 0\n" {
		t.Errorf("ulimit: %q", rest)
	}
	if errs != "llmsh: line 1: ulimit: max user processes: cannot modify limit: Operation not permitted\n" || st != 0 {
		t.Errorf("stderr %q status %d", errs, st)
	}
}

// ulimit reads a limit's digits as bash: wrapping past 2^64, and out of
// range when its unit (1024-byte blocks for -f) overflows.
func TestUlimitNumbers(t *testing.T) {
	_, errs, _ := runScript(t, `ulimit -n 99999999999999999999; ulimit -f 99999999999999999999999999; ulimit -f 1x; ulimit -f 18014398509481984`)
	want := "llmsh: line 1: ulimit: open files: cannot modify limit: Operation not permitted\n" +
		"llmsh: line 1: ulimit: 99999999999999999999999999: limit out of range\n" +
		"llmsh: line 1: ulimit: 1x: invalid number\n" +
		"llmsh: line 1: ulimit: 18014398509481984: limit out of range\n"
	if errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
}

// Job pids are the session's virtual ids: $! is a number above $$, and
// kill by pid stops a job that another subshell started.
func TestJobPids(t *testing.T) {
	out, _, _ := runScript(t, `sleep() { while :; do :; done; }; sleep & p=$!; (( p > $$ )) && echo above; ( kill $p ); wait $p; echo "st $?"`)
	if out != "above\nst 143\n" {
		t.Fatalf("out %q", out)
	}
}

// HangUp stops the jobs still running and names them.
func TestHangUp(t *testing.T) {
	r, err := New(StdIO(nil, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	f, _ := syntax.NewParser().Parse(strings.NewReader(`f() { while :; do :; done; }; f & true & wait $!`), "")
	if err := r.Run(context.Background(), f); err != nil {
		t.Fatal(err)
	}
	got := r.HangUp(time.Minute)
	if len(got) != 1 || got[0] != "f &" {
		t.Fatalf("HangUp = %q", got)
	}
	if st := ForTests.JobStatuses(r); len(st) != 1 || st[0] != "Hangup" {
		t.Fatalf("after HangUp: jobs %q", st)
	}
}

// kill $$ from a job reaches the main shell: a trapped signal runs its
// trap before the next command, an untrapped one ends it with 128+N
// (after its EXIT trap), stopping what it was waiting for.
func TestKillTop(t *testing.T) {
	out, _, st := runScript(t, `trap 'echo got USR1' USR1; ( kill -USR1 $$ ) & wait; echo a`)
	if out != "got USR1\na\n" || st != 0 {
		t.Errorf("trapped: out %q status %d", out, st)
	}
	out, _, st = runScript(t, `trap 'echo bye' EXIT; loop() { while :; do :; done; }; loop & ( kill $$ ); wait; echo not reached`)
	if out != "bye\n" || st != 143 {
		t.Errorf("untrapped: out %q status %d", out, st)
	}
}

// A trapped signal sent to the main shell while it waits ends the wait
// with 128+N, as in bash. The sender repeats until the wait has ended,
// so that one signal surely arrives during it; the waits after it repeat
// while a signal still in flight interrupts them.
func TestKillTopInterruptsWait(t *testing.T) {
	out, _, st := runScript(t, `n=0; trap 'n=$((n+1))' USR1
loop() { while :; do :; done; }
loop & long=$!
( while :; do kill -USR1 $$; done ) & killer=$!
wait $long; echo "wait: $?"
kill $killer; while wait $killer; [ $? = 138 ]; do :; done
kill $long; while wait $long; s=$?; [ $s = 138 ]; do :; done; echo "long: $s"; (( n > 0 )) && echo trapped`)
	if out != "wait: 138\nlong: 143\ntrapped\n" || st != 0 {
		t.Fatalf("out %q status %d", out, st)
	}
}
