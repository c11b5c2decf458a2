package builtins_test

import "testing"

// Expected values checked against GNU coreutils 9.1 paste (LC_ALL=C).
func TestPasteFiles(t *testing.T) {
	t.Parallel()
	in := map[string]string{"a": "1,2\n3,4", "b": "5,6\n", "c": "1\n2\n3\n"}
	runTextFiles(t, []textFileCase{
		{in, []string{"paste", "a", "b"}, "1,2\t5,6\n3,4\t\n", "", 0, "", ""},
		{in, []string{"paste", "-d,", "c", "a", "b"}, "1,1,2,5,6\n2,3,4,\n3,,\n", "", 0, "", ""},
		{in, []string{"paste", "-s", "c", "b"}, "1\t2\t3\n5,6\n", "", 0, "", ""},
		{in, []string{"paste", "a", "nosuch"}, "", "paste: nosuch: No such file or directory\n", 1, "", ""},
	})
}
