package builtins_test

import "testing"

// TestMkfifo: GNU's command-line checks and messages (coreutils 9.1), then
// a refusal for each name: vfsd has no FIFOs.
func TestMkfifo(t *testing.T) {
	t.Parallel()
	files := map[string]string{"f": "x"}
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"mkfifo"}, "mkfifo: missing operand\nTry 'mkfifo --help' for more information.\n"},
		{[]string{"mkfifo", "-m", "zz", "p"}, "mkfifo: invalid mode\n"},
		{[]string{"mkfifo", "f"}, "mkfifo: cannot create fifo 'f': File exists\n"},
		{[]string{"mkfifo", "-m", "600", "p", "q"}, "mkfifo: cannot create fifo 'p': Operation not supported (llmsh has no FIFOs)\n" +
			"mkfifo: cannot create fifo 'q': Operation not supported (llmsh has no FIFOs)\n"},
	} {
		r := runCmd(t, files, "", tc.args...)
		if r.stdout != "" || r.stderr != tc.stderr || r.status != 1 {
			t.Errorf("%q: got %q %q %d, want %q 1", tc.args, r.stdout, r.stderr, r.status, tc.stderr)
		}
	}
}
