package shell_test

import (
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/shell"
)

// TestCmdSubstJobsWriteWithShell: a job started in a command substitution
// writes its output while the shell writes too (as two writers of one
// pipe); under -race the substitution's writer must be safe for both, and
// every line of both comes back.
func TestCmdSubstJobsWriteWithShell(t *testing.T) {
	src := `n=0
for k in $(seq 100); do
	y=$( (for i in 1 2 3; do echo job; done) & echo shell; echo shell )
	n=$((n + $(printf '%s\n' "$y" | wc -l)))
done
echo $n`
	out, errs, st := run(t, t.TempDir(), src, Limits{})
	if strings.TrimSpace(out) != "500" || errs != "" || st != 0 {
		t.Fatalf("got out=%q err=%q status=%d, want 500 lines", out, errs, st)
	}
}
