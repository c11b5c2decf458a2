package builtins_test

import (
	"context"
	"testing"
)

// Expected values checked against GNU tee 9.1.
func TestTee(t *testing.T) {
	t.Parallel()
	runLines(t, []linesCase{
		{nil, []string{"tee"}, "a\nb", "a\nb", "", 0},
		{nil, []string{"tee", "-a", "-i"}, "x\n", "x\n", "", 0},
		{nil, []string{"tee", "-p"}, "x\n", "x\n", "", 0},
		{nil, []string{"tee", "--output-error=bogus"}, "x\n", "", "tee: invalid argument 'bogus' for '--output-error'\nValid arguments are:\n  - 'warn'\n  - 'warn-nopipe'\n  - 'exit'\n  - 'exit-nopipe'\nTry 'tee --help' for more information.\n", 1},
		{nil, []string{"tee", "-x"}, "", "", "tee: invalid option -- 'x'\nTry 'tee --help' for more information.\n", 1},
	})
}

func TestTeeBrokenPipe(t *testing.T) {
	t.Parallel()
	w := &limitWriter{limit: 3}
	if st, stderr := runLinesEnv(context.Background(), "hello\n", w, "tee"); st != 1 || stderr != "" || w.buf.String() != "hel" {
		t.Errorf("tee on a closed pipe: status %d, stderr %q, out %q", st, stderr, w.buf.String())
	}
}
