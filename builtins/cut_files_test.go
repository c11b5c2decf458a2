package builtins_test

import "testing"

// Expected values checked against GNU coreutils 9.1 cut (LC_ALL=C).
func TestCutFiles(t *testing.T) {
	t.Parallel()
	in := map[string]string{"a": "1,2\n3,4", "b": "5,6\n"}
	runTextFiles(t, []textFileCase{
		{in, []string{"cut", "-d,", "-f2", "a", "b"}, "2\n4\n6\n", "", 0, "", ""},
		{in, []string{"cut", "-c1", "a", "nosuch", "b"}, "1\n3\n5\n", "cut: nosuch: No such file or directory\n", 1, "", ""},
	})
}
