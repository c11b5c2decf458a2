package builtins_test

import "testing"

// Expected values checked against GNU coreutils 9.1 fold (LC_ALL=C).
func TestFoldFiles(t *testing.T) {
	t.Parallel()
	in := map[string]string{"a": "abcdef\n", "b": "xyz"}
	runTextFiles(t, []textFileCase{
		{in, []string{"fold", "-w4", "a", "nosuch", "b"}, "abcd\nef\nxyz", "fold: nosuch: No such file or directory\n", 1, "", ""},
	})
}
