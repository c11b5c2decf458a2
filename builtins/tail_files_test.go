package builtins_test

import "testing"

// Expected values checked against GNU tail and head 9.1 (LC_ALL=C).
func TestTailFiles(t *testing.T) {
	t.Parallel()
	runLines(t, []linesCase{
		{map[string]string{"a": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "b": "x\ny", "e": ""}, []string{"tail", "a"}, "", "3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", 0},
		{map[string]string{"a": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "b": "x\ny", "e": ""}, []string{"tail", "-n2", "a", "b", "e"}, "", "==> a <==\n11\n12\n\n==> b <==\nx\ny\n==> e <==\n", "", 0},
		{map[string]string{"a": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "b": "x\ny", "e": ""}, []string{"tail", "-c3", "a", "b"}, "", "==> a <==\n12\n\n==> b <==\nx\ny", "", 0},
		{map[string]string{"a": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "b": "x\ny", "e": ""}, []string{"tail", "-n1", "b"}, "", "y", "", 0},
		{map[string]string{"a": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "b": "x\ny", "e": ""}, []string{"tail", "-c", "+5", "b", "a"}, "", "==> b <==\n\n==> a <==\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", 0},
		{map[string]string{"a": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "b": "x\ny", "e": ""}, []string{"tail", "-n", "+12", "a"}, "", "12\n", "", 0},
		{map[string]string{"a": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "b": "x\ny", "e": ""}, []string{"tail", "missing", "b"}, "", "==> b <==\nx\ny", "tail: cannot open 'missing' for reading: No such file or directory\n", 1},
		{map[string]string{"a": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "b": "x\ny", "e": ""}, []string{"tail", "-n", "0", "a"}, "", "", "", 0},
		{map[string]string{"a": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "b": "x\ny", "e": ""}, []string{"head", "-n2", "a", "b", "missing", "e"}, "", "==> a <==\n1\n2\n\n==> b <==\nx\ny\n==> e <==\n", "head: cannot open 'missing' for reading: No such file or directory\n", 1},
		{map[string]string{"a": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "b": "x\ny", "e": ""}, []string{"head", "-c", "-3", "b"}, "", "", "", 0},
		{map[string]string{"a": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "b": "x\ny", "e": ""}, []string{"head", "-q", "-n1", "a", "-", "b"}, "stdin\n", "1\nstdin\nx\n", "", 0},
	})
}

func TestHeadTailBigFiles(t *testing.T) {
	t.Parallel()
	headTailBig(t, true)
}
