package shell_test

import (
	"testing"

	. "github.com/llmsh/llmsh/shell"
)

// TestFatalErrorsAsBash: the errors that end bash -c's shell where a
// script file goes on with its next line (an arithmetic error in a
// subscript or an integer value), and the ones that end both, with
// status 127 in bash -c's own shell (set -u, ${u?}, an unknown ${v@X};
// 1 under set -e),
// and a malformed ${…}, which abandons its line in both.
// Each want is what bash 5.2 gives for the same text as -c and as a file.
func TestFatalErrorsAsBash(t *testing.T) {
	const sub = "a=(1)\necho ${a[1/0]}\necho next $?"
	const integer = "declare -i n\nn=1+\necho next $?"
	const unset = "set -u\n( echo $u ); echo sub $?\necho $((u + 1))\necho next"
	const badOp = "s=abc\necho ${s@Z}\necho next"
	const badSubst = "echo a\necho ${x y}; echo same\necho next $?"
	for _, tc := range []struct {
		name     string
		command  bool
		src, out string
		errs     string
		st       int
	}{
		{"subscript -c", true, sub, "", "llmsh: line 2: 1/0: division by 0 (error token is \"0\")\n", 1},
		{"subscript file", false, sub, "next 1\n", "s.sh: line 2: 1/0: division by 0 (error token is \"0\")\n", 0},
		{"integer -c", true, integer, "", "llmsh: line 2: 1+: syntax error: operand expected (error token is \"+\")\n", 1},
		{"integer file", false, integer, "next 1\n", "s.sh: line 2: 1+: syntax error: operand expected (error token is \"+\")\n", 0},
		{"set -u -c", true, unset, "sub 1\n", "llmsh: line 2: u: unbound variable\nllmsh: line 3: u: unbound variable\n", 127},
		{"set -u file", false, unset, "sub 1\n", "s.sh: line 2: u: unbound variable\ns.sh: line 3: u: unbound variable\n", 1},
		{"set -eu -c", true, "set -eu\necho $u\necho next", "", "llmsh: line 2: u: unbound variable\n", 1},
		{"bad @ -c", true, badOp, "", "llmsh: line 2: ${s@Z}: bad substitution\n", 127},
		{"bad @ -e -c", true, "set -e\n" + badOp, "", "llmsh: line 3: ${s@Z}: bad substitution\n", 1},
		{"bad @ file", false, badOp, "", "s.sh: line 2: ${s@Z}: bad substitution\n", 1},
		{"bad ${} -c", true, badSubst, "a\nnext 1\n", "llmsh: line 2: ${x y}: bad substitution\n", 0},
		{"bad ${} file", false, badSubst, "a\nnext 1\n", "s.sh: line 2: ${x y}: bad substitution\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := Options{Name: "s.sh", Source: "s.sh"}
			if tc.command {
				o = Options{Name: "llmsh", Command: true}
			}
			checkRunAs(t, o, tc.src, tc.out, tc.errs, tc.st)
		})
	}
}
