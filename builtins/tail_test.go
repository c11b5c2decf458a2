package builtins

import (
	"strings"
	"testing"
)

// Expected values checked against GNU tail 9.1 (LC_ALL=C).
func TestTail(t *testing.T) {
	runLines(t, []linesCase{
		{nil, []string{"tail"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", 0},
		{nil, []string{"tail"}, "a\nb", "a\nb", "", 0},
		{nil, []string{"tail"}, "", "", "", 0},
		{nil, []string{"tail", "-n", "3"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "10\n11\n12\n", "", 0},
		{nil, []string{"tail", "-n3"}, "a\nb\nc\nd", "b\nc\nd", "", 0},
		{nil, []string{"tail", "-n", "-2"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "11\n12\n", "", 0},
		{nil, []string{"tail", "-n", "+11"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "11\n12\n", "", 0},
		{nil, []string{"tail", "-n", "+0"}, "a\nb", "a\nb", "", 0},
		{nil, []string{"tail", "-n", "0"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", "", 0},
		{nil, []string{"tail", "-c", "4"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "\n12\n", "", 0},
		{nil, []string{"tail", "-c", "+20"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "0\n11\n12\n", "", 0},
		{nil, []string{"tail", "-c", "100"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", 0},
		{nil, []string{"tail", "-3"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "10\n11\n12\n", "", 0},
		{nil, []string{"tail", "+11"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "11\n12\n", "", 0},
		{nil, []string{"tail", "-3c"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "12\n", "", 0},
		{nil, []string{"tail", "+3c"}, "abcdef", "cdef", "", 0},
		{nil, []string{"tail", "-2l"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "11\n12\n", "", 0},
		{nil, []string{"tail", "-n", "x"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", "tail: invalid number of lines: 'x'\n", 1},
		{nil, []string{"tail", "-c", "x"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", "tail: invalid number of bytes: 'x'\n", 1},
		{nil, []string{"tail", "-n", "99999999999999999999999"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", "tail: invalid number of lines: '99999999999999999999999': Value too large for defined data type\n", 1},
		{nil, []string{"tail", "-z", "-n1"}, "a\x00b\x00", "b\x00", "", 0},
		{nil, []string{"tail", "-v", "-n1"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "==> standard input <==\n12\n", "", 0},
		{nil, []string{"tail", "-n1", "-", "-"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "==> standard input <==\n12\n\n==> standard input <==\n", "", 0},
		{nil, []string{"tail", "-q", "-c2", "-", "-"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "2\n", "", 0},
		{nil, []string{"tail", "-n", "2", "-3"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", "tail: option used in invalid context -- 3\n", 1},
	})
}

func TestTailFollowRefused(t *testing.T) {
	for _, args := range [][]string{{"tail", "-f"}, {"tail", "-F"}, {"tail", "--follow=name"}, {"tail", "-5f"}} {
		got := runCmd(t, nil, "x\n", args...)
		if got.status != 1 || got.stdout != "" || !strings.Contains(got.stderr, "not supported in llmsh") {
			t.Errorf("%v: got %+v", args, got)
		}
	}
}
