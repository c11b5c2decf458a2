package builtins_test

import "testing"

// Expected values: util-linux 2.38.1's flock (Debian 12) up to its
// flock(2) call; then flock(2)'s failure where no locks are kept (ENOLCK,
// EX_OSERR), as llmsh has none.
func TestFlock(t *testing.T) {
	t.Parallel()
	files := map[string]string{"f": ""}
	const try = "Try 'flock --help' for more information.\n"
	runLines(t, []linesCase{
		{files, []string{"flock"}, "", "", "flock: not enough arguments\n" + try, 64},
		{files, []string{"flock", "f"}, "", "", "flock: bad file descriptor: 'f'\n", 64},
		{files, []string{"flock", "-c"}, "", "", "flock: invalid option -- 'c'\n" + try, 64},
		{files, []string{"flock", "f", "-c", "a", "b"}, "", "", "flock: -c requires exactly one command argument\n", 64},
		{files, []string{"flock", "-x"}, "", "", "flock: requires file descriptor, file or directory\n", 64},
		{files, []string{"flock", "-w", "x", "f", "true"}, "", "", "flock: invalid timeout value: 'x'\n", 64},
		{files, []string{"flock", "-E", "300", "f", "true"}, "", "", "flock: exit code out of range (expected 0 to 255)\n", 64},
		{files, []string{"flock", "-oF", "f", "true"}, "", "", "flock: the --no-fork and --close options are incompatible\n", 64},
		{files, []string{"flock", "--n", "f", "true"}, "", "", "flock: option '--n' is ambiguous; possibilities: '--nonblocking' '--no-fork'\n" + try, 64},
		{files, []string{"flock", "d/", "true"}, "", "", "flock: cannot open lock file d/: No such file or directory\n", 66},
		{files, []string{"flock", "-n", "f", "echo", "x"}, "", "", "flock: f: No locks available\n", 71},
		{files, []string{"flock", "9"}, "", "", "flock: 9: No locks available\n", 71},
	})
}
