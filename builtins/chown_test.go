package builtins_test

import "testing"

// TestChown: every file is llmsh's; giving it to llmsh succeeds, other
// ids fail as an unprivileged chown fails (messages checked against
// coreutils 9.1 run as a user who is not root), other names are unknown.
func TestChown(t *testing.T) {
	t.Parallel()
	files := map[string]string{"f": "x", "d/e/g": "y"}
	for _, tc := range []struct {
		args           []string
		stdout, stderr string
		status         int
	}{
		{[]string{"chown", "llmsh", "f"}, "", "", 0},
		{[]string{"chown", "-v", "llmsh:llmsh", "f"}, "ownership of 'f' retained as llmsh:llmsh\n", "", 0},
		{[]string{"chown", "-v", "1000:", "f"}, "ownership of 'f' retained as 1000:llmsh\n", "", 0},
		{[]string{"chown", "-v", ":1000", "f"}, "group of 'f' retained as 1000\n", "", 0},
		{[]string{"chown", "-v", "", "f"}, "ownership of 'f' retained\n", "", 0},
		{[]string{"chown", "-c", "llmsh", "f"}, "", "", 0},
		{[]string{"chown", "0", "f"}, "", "chown: changing ownership of 'f': Operation not permitted\n", 1},
		{[]string{"chown", "-f", "0", "f"}, "", "", 1},
		{[]string{"chown", "-v", "0:0", "f"}, "failed to change ownership of 'f' from llmsh:llmsh to 0:0\n", "chown: changing ownership of 'f': Operation not permitted\n", 1},
		{[]string{"chown", "root", "f"}, "", "chown: invalid user: 'root'\n", 1},
		{[]string{"chown", "llmsh:wheel", "f"}, "", "chown: invalid group: 'llmsh:wheel'\n", 1},
		{[]string{"chown", "0:", "f"}, "", "chown: invalid spec: '0:'\n", 1},
		{[]string{"chown", "--from=0", "0", "f"}, "", "", 0},
		{[]string{"chown", "llmsh", "nope"}, "", "chown: cannot access 'nope': No such file or directory\n", 1},
		{[]string{"chown"}, "", "chown: missing operand\nTry 'chown --help' for more information.\n", 1},
		{[]string{"chown", "a"}, "", "chown: missing operand after 'a'\nTry 'chown --help' for more information.\n", 1},
		{[]string{"chown", "-Rv", "llmsh", "d"}, "ownership of 'd/e/g' retained as llmsh\nownership of 'd/e' retained as llmsh\nownership of 'd' retained as llmsh\n", "", 0},
		{[]string{"chown", "-R", "7", "d"}, "", "chown: changing ownership of 'd/e/g': Operation not permitted\nchown: changing ownership of 'd/e': Operation not permitted\nchown: changing ownership of 'd': Operation not permitted\n", 1},
		{[]string{"chown", "--reference=f", "-v", "d"}, "ownership of 'd' retained as llmsh:llmsh\n", "", 0},
		{[]string{"chown", "--reference=nope", "d"}, "", "chown: failed to get attributes of 'nope': No such file or directory\n", 1},
		{[]string{"chgrp", "-v", "llmsh", "f"}, "group of 'f' retained as llmsh\n", "", 0},
		{[]string{"chgrp", "-v", "0", "f"}, "failed to change group of 'f' from llmsh to 0\n", "chgrp: changing group of 'f': Operation not permitted\n", 1},
		{[]string{"chgrp", "wheel", "f"}, "", "chgrp: invalid group: 'wheel'\n", 1},
	} {
		r := runCmd(t, files, "", tc.args...)
		if r.stdout != tc.stdout || r.stderr != tc.stderr || r.status != tc.status {
			t.Errorf("%q: got %q %q %d, want %q %q %d", tc.args, r.stdout, r.stderr, r.status, tc.stdout, tc.stderr, tc.status)
		}
	}
}
