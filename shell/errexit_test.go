package shell_test

import (
	"bytes"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/shell"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// TestCompoundErrexit checks set -e and the ERR trap on if, case and { }
// against what bash 5.2 prints for the same scripts.
func TestCompoundErrexit(t *testing.T) {
	tests := []struct {
		name, src, want string
		status          int
	}{
		{"if", `set -e; if true; then [ -f /nonexist ] && echo y; fi; echo "ok $?"`, "ok 1\n", 0},
		{"group", `set -e; { false && true; }; echo "ok $?"`, "ok 1\n", 0},
		{"case", `set -e; case a in a) false && true;; esac; echo "ok $?"`, "ok 1\n", 0},
		{"negated", `set -e; { ! true; }; echo "ok $?"`, "ok 1\n", 0},
		{"nested", `set -e; if true; then { false || false && :; }; fi; echo "ok $?"`, "ok 1\n", 0},
		{"function body", `set -e; f() { [ -f /nonexist ] && echo y; }; f; echo no`, "", 1},
		{"failure inside", `set -e; if true; then false; echo no; fi; echo no`, "", 1},
		{"subshell", `set -e; ( false && true ); echo no`, "", 1},
		{"command substitution", `set -e; x=$(if true; then false && true; fi); echo no`, "", 1},
		{"if without else", `set -e; false || :; if false; then :; fi; echo $?`, "0\n", 0},
		{"case without match keeps $? for the word", `set -e; [ -f /nonexist ] && :; case $? in 1) echo one;; esac; case b in a) ;; esac; echo $?`, "one\n0\n", 0},
		{"errexit by eval", `eval 'set -e'; { false && :; }; echo "ok $?"`, "ok 1\n", 0},
		{"err trap once", `trap 'echo ERR' ERR; { false; }; if true; then false; fi; case a in a) false;; esac; echo "ok $?"`, "ERR\nERR\nERR\nok 1\n", 0},
		{"err trap ignored", `trap 'echo ERR' ERR; if true; then false && :; fi; echo "ok $?"`, "ok 1\n", 0},
		{"pipefail", `set -e -o pipefail; if true; then false | true && :; fi; echo "ok $?"; { false && :; } | cat; echo no`, "ok 1\n", 1},
		{"or group", `set -e; false || { false && true; }; echo "ok $?"`, "ok 1\n", 0},
		{"and if", `set -e; true && if true; then ! true; fi; echo "ok $?"`, "ok 1\n", 0},
		{"or loop", `set -e; false || for i in 1; do false && :; done; echo "ok $?"`, "ok 1\n", 0},
		{"or case reads $?", `set -e; (exit 4) || case $? in 4) false && :;; esac; echo "ok $?"`, "ok 1\n", 0},
		{"or group not run", `set -e; true || { false && true; }; echo "ok $?"`, "ok 0\n", 0},
		{"and group not run", `set -e; (exit 5) && { false && true; }; echo "ok $?"`, "ok 5\n", 0},
		{"or group failure", `set -e; false || { true && false; }; echo no`, "", 1},
		{"or group err trap", `trap 'echo ERR' ERR; false || { false; }; echo "ok $?"`, "ERR\nok 1\n", 0},
		{"return from a group", `set -e; f() { { [ "$1" = x ] && return 3; }; echo "f $1"; }; f y; f x || echo "got $?"`, "f y\ngot 3\n", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errb, st := run(t, t.TempDir(), tc.src, Limits{})
			if out != tc.want || st != tc.status {
				t.Errorf("stdout %q status %d, want %q %d (stderr %q)", out, st, tc.want, tc.status, errb)
			}
		})
	}
}

// TestErrexitNotRewritten checks that set -e, the ERR trap and set -E
// leave the syntax tree as written: the interpreter acts on them itself,
// so eval, source and trap text behave as the script's.
func TestErrexitNotRewritten(t *testing.T) {
	for _, src := range []string{
		`set -e; if true; then false && :; fi`,
		`set -o errexit; { false && :; }; ! { false; }`,
		`trap 'echo e' ERR; { false; }; x=$(false); ( false )`,
		`set -eE; false || { false && :; }; if ( false ); then :; fi`,
		`set -E; trap 'echo e' ERR; true | { false; }; ! true | false`,
	} {
		parse := func() *syntax.File {
			file, err := syntax.NewParser().Parse(strings.NewReader(src), "")
			if err != nil {
				t.Fatal(err)
			}
			return file
		}
		var want, got bytes.Buffer
		syntax.NewPrinter().Print(&want, parse())
		file := parse()
		if err := ForTests.Refuse(file); err != nil {
			t.Fatal(err)
		}
		syntax.NewPrinter().Print(&got, file)
		if got.String() != want.String() {
			t.Errorf("%s: rewritten:\n%s", src, got.String())
		}
	}
}

// BenchmarkCompoundErrexit measures an if whose branch ends with an &&
// list, 2000 times, without set -e (left as written) and with it, and the
// same if ending with : under set -e (left as written).
func BenchmarkCompoundErrexit(b *testing.B) {
	for _, bc := range []struct{ name, src string }{
		{"plain", `for i in {1..2000}; do if true; then [ $i = 0 ] && :; fi; done; echo $i`},
		{"errexit", `set -e; for i in {1..2000}; do if true; then [ $i = 0 ] && :; fi; done; echo $i`},
		{"errexit-colon", `set -e; for i in {1..2000}; do if true; then [ $i = 0 ] && :; :; fi; done; echo $i`},
	} {
		b.Run(bc.name, func(b *testing.B) { benchScript(b, bc.src, "2000\n") })
	}
}

// TestErrTrapAndOptions checks the ERR trap's runs, set -E and set -C
// against what bash 5.2 prints for the same scripts.
func TestErrTrapAndOptions(t *testing.T) {
	tests := []struct {
		name, src, want string
		status          int
	}{
		{"call only", `trap 'echo ERR' ERR; f() { false; }; f; echo "ok $?"`, "ERR\nok 1\n", 0},
		{"errtrace", `set -E; trap 'echo ERR' ERR; f() { false; }; f; echo "ok $?"`, "ERR\nERR\nok 1\n", 0},
		{"errtrace nested", `set -o errtrace; trap 'echo ERR' ERR; f() { g; }; g() { false; }; f`, "ERR\nERR\nERR\n", 1},
		{"return", `trap 'echo "ERR $?"' ERR; f() { return 3; }; f; echo "ok $?"`, "ERR 3\nok 3\n", 0},
		{"exit", `trap 'echo ERR' ERR; exit 3`, "", 3},
		{"errexit once", `set -e; trap 'echo ERR' ERR; { false; }; echo no`, "ERR\n", 1},
		{"errexit errtrace", `set -eE; trap 'echo ERR' ERR; f() { false && :; }; f; echo no`, "ERR\n", 1},
		{"trap -p", `trap 'echo "it'\''s"' ERR EXIT; trap -p; trap - EXIT; trap`, "trap -- 'echo \"it'\\''s\"' EXIT\ntrap -- 'echo \"it'\\''s\"' ERR\ntrap -- 'echo \"it'\\''s\"' ERR\n", 0},
		{"set in a function", `main() { trap 'echo "ERR $?"' ERR; (exit 3); h; return 4; }; h() { false; }; main; echo "st $?"`, "ERR 3\nERR 1\nst 4\n", 0},
		{"pipeline once", `trap 'echo ERR' ERR; true | false; echo a | grep b; echo "st $?"`, "ERR\nERR\nst 1\n", 0},
		{"pipeline with PIPESTATUS", `trap 'echo ERR' ERR; true | false; echo "${PIPESTATUS[*]}"`, "ERR\n0 1\n", 0},
		{"set -o in a group", `set -Co pipefail; echo a >f; echo b >f; echo "st $?"; false | true; echo "pipefail $?"; set -eo errtrace; set -o | grep -E '^(errexit|errtrace|noclobber) '`, "st 1\npipefail 1\nerrexit        \ton\nerrtrace       \ton\nnoclobber      \ton\n", 0},
		{"set -o bad name", `set -o bogus; echo "st $?"`, "st 2\n", 0},
		{"set keeps the rest", `set -Cu -- a b; echo "$1 $2"; set +C -e; echo "$1"`, "a b\na\n", 0},
		{"noclobber", `echo a >f; set -C; echo b >f; echo "st $?"; echo c >|f; echo d >>f; cat f`, "st 1\nc\nd\n", 0},
		{"noclobber exec", `echo a >f; set -C; exec >f; echo "st $?"`, "st 1\n", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errb, st := run(t, t.TempDir(), tc.src, Limits{})
			if out != tc.want || st != tc.status {
				t.Errorf("stdout %q status %d, want %q %d (stderr %q)", out, st, tc.want, tc.status, errb)
			}
		})
	}
}
