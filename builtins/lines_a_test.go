package builtins

import (
	"strings"
	"testing"
)

// laCase is one table-driven call of a builtin: files (nil for none), the
// arguments, standard input, and the expected stdout, stderr and status.
type laCase struct {
	files                 map[string]string
	args                  []string
	stdin, stdout, stderr string
	status                int
}

// laRun runs each case as a subtest.
func laRun(t *testing.T, cases []laCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			got := runCmd(t, c.files, c.stdin, c.args...)
			if got.stdout != c.stdout {
				t.Errorf("stdout = %q, want %q", got.stdout, c.stdout)
			}
			if got.stderr != c.stderr {
				t.Errorf("stderr = %q, want %q", got.stderr, c.stderr)
			}
			if got.status != c.status {
				t.Errorf("status = %d, want %d", got.status, c.status)
			}
		})
	}
}
