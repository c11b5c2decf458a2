// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp_test

import "testing"

// TestErrExitAndErrTrap checks set -e, the ERR trap, set -E and set -T on
// the fork alone, without llmsh's shell layer: each script's stdout and
// status are what bash 5.2 gives for it (bash -c SCRIPT).
func TestErrExitAndErrTrap(t *testing.T) {
	for _, tc := range []struct {
		src, want string
		status    int
	}{
		{`set -e; if true; then false && :; fi; echo "ok $?"`,
			"ok 1\n", 0},
		{`set -e; { false || false && :; }; echo "ok $?"`,
			"ok 1\n", 0},
		{`set -e; case a in a) ! true;; esac; echo "ok $?"`,
			"ok 1\n", 0},
		{`set -e; false || for i in 1; do false && :; done; echo "ok $?"`,
			"ok 1\n", 0},
		{`set -e; f() { false; echo "f goes on"; }; f || :; if f; then :; fi; ! f; f; echo no`,
			"f goes on\nf goes on\nf goes on\n", 1},
		{`set -e; ( false; echo "sub goes on" ) || :; ( false; echo no ); echo no`,
			"sub goes on\n", 1},
		{`set -e; x=$(false; echo in); echo "$x"; shopt -s inherit_errexit; echo "$(echo a; false; echo no)"`,
			"in\na\n", 0},
		{`set -e; eval 'false || :; false'; echo no`,
			"", 1},
		{`set -e; true | false; echo no`,
			"", 1},
		{`set -e; false | true; echo "goes on"`,
			"goes on\n", 0},
		{`set -e; trap 'echo "in trap"; false; echo no' USR1; kill -USR1 $$; echo no`,
			"in trap\n", 1},
		{`trap 'echo "ERR $? $LINENO"' ERR; { false; }; if true; then false; fi; false && :; ! false; echo end`,
			"ERR 1 1\nERR 1 1\nend\n", 0},
		{`trap 'echo "ERR $?"' ERR; f() { false; }; f; set -E; f; g() { f; }; g`,
			"ERR 1\nERR 1\nERR 1\nERR 1\nERR 1\nERR 1\n", 1},
		{`trap 'echo "ERR $?"' ERR; f() { return 3; }; f; exit 4`,
			"ERR 3\n", 4},
		{`trap 'echo "ERR $?"' ERR; ( false ); x=$(false); set -E; ( false; true ); y=$(false; echo "y $?"); echo "$y"`,
			"ERR 1\nERR 1\nERR 1\nERR 1\ny 1\n", 0},
		{`trap 'echo "ERR $?"' ERR; true | false; echo a | (false); set -E; true | { false; true; }`,
			"ERR 1\nERR 1\nERR 1\nERR 1\n", 0},
		{`f() { trap 'echo "f ERR $?"' ERR; false; }; f; false; g() { false; }; g`,
			"f ERR 1\nf ERR 1\nf ERR 1\n", 1},
		{`trap 'echo "ERR $?"' ERR; trap 'false; echo "USR1 $?"' USR1; kill -USR1 $$; trap - ERR; false; echo end`,
			"ERR 1\nUSR1 1\nend\n", 0},
		{`trap 'echo R' RETURN; f() { echo f; }; f; set -T; f; g() { f; }; g; ( f )`,
			"f\nf\nR\nf\nR\nR\nf\nR\n", 0},
		{`set -E; trap 'echo "ERR $?"' ERR; f() { false; }; ! f; if f; then :; fi; f || :; echo end`,
			"ERR 1\nend\n", 0},
	} {
		out, errs, st := runScript(t, tc.src)
		if out != tc.want || st != tc.status {
			t.Errorf("%s\nstdout %q status %d, want %q %d (stderr %q)", tc.src, out, st, tc.want, tc.status, errs)
		}
	}
}
