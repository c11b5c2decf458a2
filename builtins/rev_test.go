package builtins_test

import "testing"

// Expected values checked against util-linux rev 2.38 (LC_ALL=C.UTF-8).
func TestRev(t *testing.T) {
	t.Parallel()
	runLines(t, []linesCase{
		{nil, []string{"rev"}, "abc\ndef\n", "cba\nfed\n", "", 0},
		{nil, []string{"rev"}, "abc\ndef", "cba\nfed", "", 0},
		{nil, []string{"rev"}, "ab\xc3\xa9\xe4\xb8\xad\n\n x y\n", "\xe4\xb8\xad\xc3\xa9ba\n\ny x \n", "", 0},
		// A NUL ends the part of its line util-linux keeps, newline
		// included: the next line joins it.
		{nil, []string{"rev"}, "xy\x00bc\ndef\n", "fedyx\n", "", 0},
		{nil, []string{"rev"}, "12\nxy\x00bc\nlast\n", "21\ntsalyx\n", "", 0},
		{nil, []string{"rev"}, "xy\x00bc", "yx", "", 0},
		{nil, []string{"rev"}, "\x00abc\nde\n", "ed\n", "", 0},
		{nil, []string{"rev"}, "ab\x00\nc\x00d\nef\n", "fecba\n", "", 0},
	})
}

// TestRevExtensions covers what util-linux 2.38 lacks: "-" is standard
// input, and -0 (util-linux 2.39) uses NUL as the line delimiter.
func TestRevExtensions(t *testing.T) {
	t.Parallel()
	if got := runCmd(t, nil, "12\n", "rev", "-"); got.stdout != "21\n" || got.status != 0 {
		t.Errorf("rev -: %+v", got)
	}
	if got := runCmd(t, nil, "ab\x00cd", "rev", "-0"); got.stdout != "ba\x00dc" || got.status != 0 {
		t.Errorf("rev -0: %+v", got)
	}
}
