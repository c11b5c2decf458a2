package shell_test

import (
	"testing"

	. "github.com/llmsh/llmsh/shell"
)

// TestLoopStatus checks the status of loops against what bash 5.2 prints
// for the same scripts.
func TestLoopStatus(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"while body fails", `i=0; while [ $i -lt 2 ]; do i=$((i+1)); false; done; echo $?`, "1\n"},
		{"never ran", `false; while false; do :; done; echo $?`, "0\n"},
		{"break", `while true; do false; break; done; echo $?`, "0\n"},
		{"continue", `i=0; while [ $i -lt 2 ]; do i=$((i+1)); false; continue; done; echo $?`, "0\n"},
		{"until", `i=0; until [ $i -ge 2 ]; do i=$((i+1)); (exit 3); done; echo $?`, "3\n"},
		{"test sees status", `i=0; while echo "c$?"; [ $i -lt 2 ]; do i=$((i+1)); (exit $i); done`, "c0\nc1\nc2\n"},
		{"test sees status before", `false; while [ $? -ne 0 ]; do true; done; echo ok $?`, "ok 0\n"},
		{"nested break 2", `while true; do while true; do false; break 2; done; done; echo $?`, "0\n"},
		{"cstyle", `for ((i=0;i<2;i++)); do false; done; echo $?`, "1\n"},
		{"cstyle piped", `for ((i=0;i<2;i++)); do (exit 4); done | cat; echo ${PIPESTATUS[0]}`, "4\n"},
		{"in function", `f() { local n=0; while [ $n -lt 2 ]; do n=$((n+1)); (exit 5); done; }; f; echo $?`, "5\n"},
		{"pipeline", `echo x | while read l; do (exit 6); done; echo $?`, "6\n"},
		{"cmdsubst", `x=$(while true; do (exit 7); break; done; (exit 7)); echo $?`, "7\n"},
		{"in if", `if while true; do false; break; done; then echo then; fi`, "then\n"},
		{"set -e ignores the loop", `set -e; for x in a b; do [ $x = a ] && echo $x; done; echo "after $?"`, "a\nafter 1\n"},
		{"set -e in the body", `set -e; while true; do false; echo no; done; echo no`, ""},
		{"set -e function", `set -e; f() { while true; do false && :; break; done; for x in a; do false && :; done; }; f; echo no`, ""},
		{"read by a function", `st() { echo "st=$?"; }; while true; do (exit 3); break; done; st; for x in a; do false; done; st`, "st=0\nst=1\n"},
		{"read by return", `f() { while [ -z "$x" ]; do x=1; false; done; return; }; f; echo $?`, "1\n"},
		{"read in a substitution", `while [ -z "$x" ]; do x=1; false; done; echo "$(echo $?)"`, "1\n"},
		{"test calls a function", `c() { echo "c$?"; [ $# -gt 0 ]; }; false; while c; do :; done`, "c1\n"},
		{"eval", `eval 'g() { echo "g$?"; }'; while [ -z "$x" ]; do x=1; false; done; g`, "g1\n"},
		{"errexit by eval", `eval 'set -e'; for x in a; do false && :; done; echo "after $?"`, "after 1\n"},
		{"exit in a pipeline's last element", `true | exit 3; echo "after $?"`, "after 3\n"},
		{"eval", `eval 'while read l; do (exit 4); done < nope2 2>/dev/null; echo $?; for ((i=0;i<2;i++)); do false; done; echo $?'`, "1\n1\n"},
		{"c-style in a trap", `trap 'for ((i=0;i<3;i++)); do ((i==1)) && continue; echo "t$i"; false; done; echo "trap $?"' EXIT`, "t0\nt2\ntrap 1\n"},
		{"missing redirection", `while read l; do :; done < nope; echo $?`, "1\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errb, _ := run(t, t.TempDir(), tc.src, Limits{})
			if out != tc.want {
				t.Errorf("stdout %q, want %q (stderr %q)", out, tc.want, errb)
			}
		})
	}
}

// BenchmarkLoop measures tight loops: a while loop, the same loop followed
// by a read of $? and of PIPESTATUS, one whose test reads $?, and a for
// loop without and with set -e. (When the loop status and PIPESTATUS were
// rewrites, these were the cases that cost more; they are now the fork's.)
func BenchmarkLoop(b *testing.B) {
	for _, bc := range []struct{ name, src, want string }{
		{"while", `i=0; while [ $i -lt 2000 ]; do i=$((i + 1)); done; echo $i`, "2000\n"},
		{"while-observed", `i=0; while [ $i -lt 2000 ]; do i=$((i + 1)); done; echo $i $?`, "2000 0\n"},
		{"test-reads-status", `i=0; while [ $? = 0 ] && [ $i -lt 2000 ]; do i=$((i + 1)); done; echo $i`, "2000\n"},
		{"for", `for i in {1..2000}; do :; done; echo $i`, "2000\n"},
		{"for-errexit", `set -e; for i in {1..2000}; do :; done; echo $i`, "2000\n"},
		{"pipestatus", `i=0; while [ $i -lt 2000 ]; do i=$((i + 1)); done; echo $i ${PIPESTATUS[0]}`, "2000 1\n"},
	} {
		b.Run(bc.name, func(b *testing.B) { benchScript(b, bc.src, bc.want) })
	}
}
