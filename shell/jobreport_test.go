package shell_test

import (
	"regexp"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/shell"
)

// A job that a signal ends is reported on stderr as bash reports it in a
// script ("llmsh: line N:  PID Killed                  CMD"), once, when
// the shell waits for it (or after a program runs, which a test cannot
// time: the job ends as its goroutine notices the signal); not for
// SIGINT, SIGTERM or SIGPIPE, nor for a signal the shell traps. The pids
// vary, so the lines are matched with the pid masked.
func TestKilledJobReport(t *testing.T) {
	src := strings.Join([]string{
		`sleep 5 & kill -9 $!; wait $!; echo "killed: $?"`,
		`wait $!; echo "again: $?"`,
		`sleep 5 & kill -HUP $!; wait; echo "hangup waited"`,
		`sleep 5 & kill -USR1 $!; wait -n; jobs; echo "jobs empty"`,
		`sleep 5 & kill -TERM $!; wait $!; echo "term: $?"`,
		`sleep 5 & kill -PIPE $!; wait $!; echo "pipe: $?"`,
		`{ sleep 5; echo x; } & kill -SEGV $!; wait $!; echo "segv: $?"`,
		`trap 'echo usr2 trapped' USR2`,
		`sleep 5 & kill -USR2 $!; wait $!; echo "usr2: $?"`,
		`( sleep 5 & kill -9 $!; wait $! ); echo "subshell: $?"`,
		`sleep 5 & kill -9 $!; echo "only builtins"`,
	}, "\n")
	out, errs, st := run(t, t.TempDir(), src, Limits{})
	wantOut := "killed: 137\nagain: 137\nhangup waited\njobs empty\nterm: 143\npipe: 141\nsegv: 139\nusr2: 140\nsubshell: 137\nonly builtins\n"
	if out != wantOut || st != 0 {
		t.Errorf("stdout %q status %d, want %q 0", out, st, wantOut)
	}
	masked := regexp.MustCompile(`(line \d+:) +\d+ `).ReplaceAllString(errs, "$1 PID ")
	want := "llmsh: line 1: PID Killed                  sleep 5\n" +
		"llmsh: line 3: PID Hangup                  sleep 5\n" +
		"llmsh: line 4: PID User defined signal 1   sleep 5\n" +
		"llmsh: line 7: PID Segmentation fault      { sleep 5; echo x; }\n" +
		"llmsh: line 10: PID Killed                  sleep 5\n"
	if masked != want {
		t.Errorf("stderr (pids masked):\n%s\nwant:\n%s", masked, want)
	}
}
