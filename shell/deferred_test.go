package shell_test

import (
	"strings"
	"testing"
)

// TestDeferredWrites: an echo or printf in a loop whose output is one
// redirection does not wait for vfsd's answer to its write; a failure is
// still charged to the command that made it, in GNU's words, with its
// status where a later command reads it ($?, the loop's status), and
// every later command tries its own write, as bash's does (a virtual
// budget of 100 bytes here: runBudget).
func TestDeferredWrites(t *testing.T) {
	msg := func(name string, n int) string {
		return strings.Repeat("llmsh: line 1: "+name+": write error: File too large\n", n)
	}
	tests := []struct {
		name, src, out, err string
		status              int
	}{
		{"printf in a C-style loop", `for ((i=1;i<=40;i++)); do printf '%d\n' $i; done > /d; echo $?; wc -c < /d`, "1\n99\n", msg("printf", 4), 0},
		{"the loop's status is the last command's", `for i in $(seq 40) x; do echo $i; done > /d; echo $?; wc -c < /d`, "1\n99\n", msg("echo", 5), 0},
		{"a later write that fits is written", `head -c 97 /dev/zero > /d; for s in 123 4 56 7; do echo $s; done >> /d; echo $?; tail -c 3 /d | od -An -c`,
			"1\n  \\0   4  \\n\n", msg("echo", 3), 0},
		{"the last one fits", `head -c 96 /dev/zero > /d; for s in 12345 4; do echo $s; done >> /d; echo $?; tail -c 2 /d`, "0\n4\n", msg("echo", 1), 0},
		{"$? in the loop", `head -c 97 /dev/zero > /d; for i in 1 2 3; do echo $i; echo "st $?" >&2; done >> /d; echo $?`,
			"0\n", "st 0\n" + msg("echo", 1) + "st 1\n" + msg("echo", 1) + "st 1\n", 0},
		{"PIPESTATUS in the loop", `head -c 99 /dev/zero > /d; for i in 1; do echo $i; echo "${PIPESTATUS[@]}" >&2; done >> /d`,
			"", msg("echo", 1) + "1\n", 0},
		{"two commands a round", `for ((i=0;i<30;i++)); do printf ab; echo $i; done > /d; echo $?; wc -c < /d`, "1\n100\n", strings.Repeat(msg("printf", 1)+msg("echo", 1), 8), 0},
		{"a while loop", `i=0; while [ $i -lt 40 ]; do i=$((i+1)); echo $i; done > /d; echo $?; wc -c < /d`, "1\n99\n", msg("echo", 4), 0},
		{"break after the failure", `for i in $(seq 40); do echo $i; [ $i = 38 ] && break; done > /d; echo $?`, "0\n", msg("echo", 2), 0},
		{"set -e stops at the failing write", `set -e; for i in $(seq 40); do echo $i; done > /d; echo not reached`, "", msg("echo", 1), 1},
		{"set -e, then read back", `set -e; for ((i=1;i<=40;i++)); do printf '%d\n' $i; done > /d || true; wc -c < /d`, "99\n", msg("printf", 4), 0},
		{"an ERR trap sees each failure", `trap 'echo trap $? >&2' ERR; for i in $(seq 38); do echo $i; done > /d`, "", msg("echo", 1) + "trap 1\n" + msg("echo", 1) + "trap 1\n", 1},
		{"a function's return", `f() { for i in $(seq 40); do echo $i; done > /d; return; }; f; echo $?`, "1\n", msg("echo", 4), 0},
		// $? in the words of an echo that defers: its own write is still
		// confirmed (the loop's status), and $? in a command or process
		// substitution is the confirmed one.
		{"$? in the deferred echo's words", `head -c 97 /dev/zero > /d; for i in 1 2 3; do echo $i $?; done >> /d; echo $?`, "1\n", msg("echo", 3), 0},
		{"$? in a command substitution", `head -c 97 /dev/zero > /d; for i in 1 2 3; do echo $i; echo "st $(echo $?)" >&2; done >> /d`,
			"", "st 0\n" + msg("echo", 1) + "st 1\n" + msg("echo", 1) + "st 1\n", 0},
		{"$? in printf -v's substitution", `head -c 97 /dev/zero > /d; for i in 1 2; do echo $i; printf -v x %s "$(echo $?)"; echo "x=$x" >&2; done >> /d`,
			"", "x=0\n" + msg("echo", 1) + "x=1\n", 0},
		{"$? in a process substitution", `head -c 97 /dev/zero > /d; for i in 1 2; do echo $i; : <(echo $? >&2); wait $!; done >> /d`,
			"", "0\n" + msg("echo", 1) + "1\n", 0},
		// While a job runs nothing is deferred (the job's goroutine could
		// settle the shell's writes); the result is the same.
		{"a job running", `sleep 100 & for i in $(seq 40); do echo $i; done > /d; echo $?; kill %1; wc -c < /d`, "1\n99\n", msg("echo", 4), 0},
		{"the messages and printf's own, in order", `head -c 97 /dev/zero > /d; for i in 1 2 x 3; do printf '%d\n' $i; done >> /d; echo $?`,
			"1\n", msg("printf", 1) + "llmsh: line 1: printf: x: invalid number\n" + msg("printf", 2), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, st := runBudget(t, tt.src)
			if out != tt.out || errs != tt.err || st != tt.status {
				t.Errorf("%s\ngot  out=%q err=%q status=%d\nwant out=%q err=%q status=%d", tt.src, out, errs, st, tt.out, tt.err, tt.status)
			}
		})
	}
}

// TestDeferredRedirects: an echo or printf with its own redirection in a
// loop (`echo $i >> f`) opens, writes and closes without waiting for
// vfsd; a failed open, write or budget is still that command's, with
// bash's message and status, where anything reads it.
func TestDeferredRedirects(t *testing.T) {
	msg := func(name string, n int) string {
		return strings.Repeat("llmsh: line 1: "+name+": write error: File too large\n", n)
	}
	redir := func(file, reason string, n int) string {
		return strings.Repeat("llmsh: line 1: "+file+": "+reason+"\n", n)
	}
	tests := []struct {
		name, src, out, err string
		status              int
	}{
		{"over the budget", `for i in $(seq 40); do echo $i >> /d; done; echo $?; wc -c < /d`, "1\n99\n", msg("echo", 4), 0},
		{"a later line that fits", `head -c 97 /dev/zero > /d; for s in 123 4 56 7; do echo $s >> /d; done; echo $?; tail -c 3 /d | od -An -c`,
			"1\n  \\0   4  \\n\n", msg("echo", 3), 0},
		{"no write grant", `for i in 1 2; do echo $i >> ro/f; done; echo $?; cat ro/f`, "1\nold\n", redir("ro/f", "Permission denied", 2), 0},
		{"a missing directory", `for i in 1 2; do printf '%s\n' $i > /nodir/d; done; echo $?`, "1\n", redir("/nodir/d", "No such file or directory", 2), 0},
		{"a directory", `mkdir /vd; for i in 1; do echo x >> /vd; done; echo $?`, "1\n", redir("/vd", "Is a directory", 1), 0},
		{"$? right after", `for i in 1 2; do echo $i >> ro/f; echo "st $?"; done`, "st 1\nst 1\n", redir("ro/f", "Permission denied", 2), 0},
		{"|| sees it", `for i in 1; do echo $i >> ro/f || echo "or $?"; done`, "or 1\n", redir("ro/f", "Permission denied", 1), 0},
		{"set -e stops", `set -e; for i in 1 2; do echo $i >> ro/f; done; echo not reached`, "", redir("ro/f", "Permission denied", 1), 1},
		{"an ERR trap", `trap 'echo trap $? >&2' ERR; for i in 1; do echo x >> ro/f; done`, "", redir("ro/f", "Permission denied", 1) + "trap 1\n", 1},
		{"printf's message is not said when the open fails", `for i in x; do printf '%d\n' $i >> ro/f; done; echo $?`, "1\n", redir("ro/f", "Permission denied", 1), 0},
		{"printf's message when it does not", `for i in x; do printf '%d\n' $i >> /p; done; echo $?; cat /p`, "1\n0\n", "llmsh: line 1: printf: x: invalid number\n", 0},
		{"messages in order", `head -c 99 /dev/zero > /d; for i in 12 34; do echo $i >> /d; echo "e$i" >&2; done; echo $?`,
			"0\n", msg("echo", 1) + "e12\n" + msg("echo", 1) + "e34\n", 0},
		{"the loop's last command", `for f in /ok ro/f /ok; do echo $f >> $f; done; echo $?; cat /ok`, "0\n/ok\n/ok\n", redir("ro/f", "Permission denied", 1), 0},
		{"printf -v waits for its open", `v=unset; for i in 1; do printf -v v %s $i >> ro/f; done; echo "v=$v"`, "v=unset\n", redir("ro/f", "Permission denied", 1), 0},
		{"a function's return", `f() { for i in 1 2; do echo $i >> ro/f; done; return; }; f; echo $?`, "1\n", redir("ro/f", "Permission denied", 2), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, st := runBudget(t, tt.src)
			if out != tt.out || errs != tt.err || st != tt.status {
				t.Errorf("%s\ngot  out=%q err=%q status=%d\nwant out=%q err=%q status=%d", tt.src, out, errs, st, tt.out, tt.err, tt.status)
			}
		})
	}
}
