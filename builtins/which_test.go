package builtins_test

import "testing"

// Statuses as debianutils which 5.7: 0 all found, 1 otherwise (also with
// no operand); llmsh's programs are in /usr/bin and /bin (DefaultPath,
// used when the environment has no PATH, as execvp does).
func TestWhich(t *testing.T) {
	t.Parallel()
	runLines(t, []linesCase{
		{nil, []string{"which", "cat", "jq"}, "", "/usr/bin/cat\n/usr/bin/jq\n", "", 0},
		{nil, []string{"which", "-a", "cat", "nosuch", "test"}, "", "/usr/bin/cat\n/bin/cat\n/usr/bin/test\n/bin/test\n", "", 1},
		{nil, []string{"which", "cd"}, "", "", "", 1},
		{nil, []string{"which", "/usr/bin/cat"}, "", "/usr/bin/cat\n", "", 0},
		{nil, []string{"which"}, "", "", "", 1},
		{nil, []string{"which", "-x", "ls"}, "", "Usage: /usr/bin/which [-a] args\n", "Illegal option -x\n", 2},
	})
}
