// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp_test

import (
	"context"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// The fork alone (no llmsh shell layer, no rewrite) gives PIPESTATUS, loop
// statuses, for (( )) and break/continue as bash 5.2 does; the expected
// output is bash's.
func TestPipelinesAndLoops(t *testing.T) {
	for _, tc := range []struct {
		name, src, out string
		status         int
	}{
		{"pipeline", `true | false | true; echo "${PIPESTATUS[*]} ${#PIPESTATUS[@]}"`, "0 1 0 3\n", 0},
		{"simple command", `true | false; (exit 3); echo "${PIPESTATUS[*]}"`, "3\n", 0},
		{"negated", `! true | false; echo "${PIPESTATUS[*]} $?"; ! true; echo "${PIPESTATUS[*]} $?"`, "0 1 0\n0 1\n", 0},
		{"compound keeps", `true | false; { (exit 2) | true; }; echo "${PIPESTATUS[*]}"; true | false; if true; then :; fi; echo "${PIPESTATUS[*]}"`, "2 0\n0\n", 0},
		{"for none keeps", `true | false; for x in; do :; done; echo "${PIPESTATUS[*]} $?"`, "0 1 0\n", 0},
		{"function sees the caller's", `f() { echo "in f: ${PIPESTATUS[*]}"; return 2; }; true | (exit 4); f; echo "${PIPESTATUS[*]}"`, "in f: 0 4\n2\n", 0},
		{"eval", `eval 'true | (exit 5)'; echo "${PIPESTATUS[*]}"; eval 'false | true; echo "${PIPESTATUS[*]}"'`, "5\n1 0\n", 0},
		{"trap leaves it", `trap 'true | true | true' EXIT; trap 'false | (exit 3)' ERR; true | false; echo "${PIPESTATUS[*]}"`, "0 1\n", 0},
		{"pipefail", `set -o pipefail; (exit 2) | (exit 3) | true; echo "$? ${PIPESTATUS[*]}"`, "3 2 3 0\n", 0},
		{"many elements", `true | true | true | true | true | true | (exit 7); echo "${PIPESTATUS[6]} ${#PIPESTATUS[@]}"`, "7 7\n", 0},
		{"exit in the last element", `true | exit 3; echo "after $?"`, "after 3\n", 0},
		{"last element is a subshell", `x=1; echo | x=2; echo x | read -r v; echo "$x ${v:-unset}"`, "1 unset\n", 0},
		{"set -e ignored in elements", `set -e; if true | { false; echo in; }; then echo then; fi; true | { false; echo in2; } || echo or; echo after`, "in\nthen\nin2\nafter\n", 0},
		{"set -e in elements", `set -e; { false; echo no; } | true; echo after; true | { false; echo no; }; echo no`, "after\n", 1},
		{"while", `i=0; while [ $i -lt 2 ]; do i=$((i + 1)); (exit 3); done; echo $?`, "3\n", 0},
		{"until test status", `i=0; until [ $i -ge 1 ]; do echo "body sees $?"; i=1; done; echo $?`, "body sees 1\n0\n", 0},
		{"never ran", `false; while false; do :; done; echo $?; false; for x in; do :; done; echo $?`, "0\n0\n", 0},
		{"break and continue succeed", `for x in a b; do (exit 3); continue; done; echo $?; while :; do false; break; done; echo $?`, "0\n0\n", 0},
		{"for", `for x in a b; do [ $x = a ]; done; echo $?`, "1\n", 0},
		{"set -e ignores the loop's own", `set -e; for x in a; do [ -z "$x" ] && :; done; echo "on $?"`, "on 1\n", 0},
		{"ERR trap ignores the loop's own", `trap 'echo ERR' ERR; for x in a; do false && :; done; echo "on $?"`, "on 1\n", 0},
		{"c-style", `for ((i = 0; i < 4; i++)); do ((i % 2)) && continue; echo $i; false; done; echo "$? $i"; for ((i = 0; i < 2; i++)); do false; done; echo $?`, "0\n2\n0 4\n1\n", 0},
		{"c-style never", `false; for ((i = 5; i < 2; i++)); do :; done; echo $?`, "0\n", 0},
		{"c-style error", `for ((i = 0; i < 1/0; i++)); do :; done; echo "on $?"`, "on 1\n", 0},
		{"break above the depth", `while :; do break 5; done; for i in 1 2; do echo $i; done`, "1\n2\n", 0},
		{"break below 1", `for i in 1 2; do for j in a; do break 0; done; echo no; done; echo $?`, "1\n", 0},
		{"break outside", `(break); echo $?`, "0\n", 0},
		{"break not a number", `for i in 1; do break x; done; echo no`, "", 128},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, st := runScript(t, tc.src)
			if out != tc.out || st != tc.status {
				t.Errorf("got %q, status %d (stderr %q); want %q, status %d", out, st, errs, tc.out, tc.status)
			}
		})
	}
}

// The statuses of a pipeline's elements come from their own subshells,
// also when the elements are themselves compound or pipelines in
// parentheses; stderr goes down the pipe with |&.
func TestPipelineElements(t *testing.T) {
	out, errs, st := runScript(t, `{ echo a; echo b >&2; } |& { read -r x; read -r y; echo "$x$y"; (exit 2); } | (read -r z; echo "got $z"; exit 4); echo "${PIPESTATUS[*]}"`)
	if out != "got ab\n0 2 4\n" || st != 0 || strings.Contains(errs, "b") {
		t.Fatalf("got %q (stderr %q, status %d)", out, errs, st)
	}
}

// TestPipelineTraceOrder: set -x writes a pipeline's elements in the
// order bash forks them, the first element's line first, also for
// compound elements, a pipeline inside an element, a function and a
// command substitution.
func TestPipelineTraceOrder(t *testing.T) {
	for _, tc := range []struct{ name, src, errs string }{
		{"three", `set -x; echo a | read -r v | :`, "+ echo a\n+ read -r v\n+ :\n"},
		{"compound", `set -x; { echo a; } | (read -r v) | { :; }`, "+ echo a\n+ read -r v\n+ :\n"},
		{"function", `f() { read -r v; }; set -x; (echo x) | f`, "+ echo x\n+ f\n+ read -r v\n"},
		{"inner pipeline", `set -x; (echo a) | (: | echo b)`, "+ echo a\n+ :\n+ echo b\n"},
		{"comsub", `set -x; echo "$(echo in)" | read -r v`, "++ echo in\n+ echo in\n+ read -r v\n"},
		{"lastpipe", `shopt -s lastpipe; set -x; echo a | read -r v; : "$v"`, "+ echo a\n+ read -r v\n+ : a\n"},
		{"xtrace off inside", `set -x; (set +x; echo a) | read -r v`, "+ set +x\n+ read -r v\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for range 3 { // the order must not depend on scheduling
				var out, errb lockedBuilder
				r, err := New(StdIO(nil, &out, &errb))
				if err != nil {
					t.Fatal(err)
				}
				f, err := syntax.NewParser().Parse(strings.NewReader(tc.src), "")
				if err != nil {
					t.Fatal(err)
				}
				r.Run(context.Background(), f)
				if got := errb.String(); got != tc.errs {
					t.Fatalf("stderr %q, want %q", got, tc.errs)
				}
			}
		})
	}
}

// TestArrayAssignTrace: set -x shows NAME=(…) as written, but a $'…'
// element as its text in single quotes and $"…" as "…", as bash (its
// parser converts them).
func TestArrayAssignTrace(t *testing.T) {
	_, errs, _ := runScript(t, `set -x; a=($'f\tg' $'it\'s' x$'\n'y "$'q'" $'' [3]=$'\x41' $"loc" b)`)
	want := "+ a=('f\tg' 'it'\\''s' x'\n'y \"$'q'\" '' [3]='A' \"loc\" b)\n"
	if errs != want {
		t.Fatalf("stderr %q, want %q", errs, want)
	}
}
