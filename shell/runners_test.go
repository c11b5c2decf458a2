package shell_test

import (
	"testing"

	. "github.com/llmsh/llmsh/shell"
)

// TestNiceUnprivileged: llmsh's user is not privileged, so a niceness
// below the current one is refused with GNU nice's warning, and the
// command runs all the same at the old niceness (bash as root would lower
// it: the fixture cmd_runners keeps to raising it).
func TestNiceUnprivileged(t *testing.T) {
	out, errs, st := run(t, t.TempDir(), `nice -n -5 nice; nice -n 4 nice -n -2 nice; nice -n -3 sh -c 'exit 6'`, Limits{})
	if out != "0\n4\n" || st != 6 {
		t.Errorf("stdout %q, status %d; want \"0\\n4\\n\", 6", out, st)
	}
	want := "nice: cannot set niceness: Permission denied\n"
	if errs != want+want+want {
		t.Errorf("stderr %q", errs)
	}
}
