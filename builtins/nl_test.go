package builtins_test

import "testing"

// Expected values checked against GNU nl 9.1 (LC_ALL=C).
func TestNl(t *testing.T) {
	t.Parallel()
	runLines(t, []linesCase{
		{nil, []string{"nl", "-v", "9223372036854775807"}, "x\n\ny\n", "9223372036854775807\tx\n       \n", "nl: line number overflow\n", 1},
		{nil, []string{"nl", "-v", "9223372036854775807", "-i", "0"}, "x\ny\n", "9223372036854775807\tx\n9223372036854775807\ty\n", "", 0},
		{nil, []string{"nl"}, "a\n\nb\n\n\n\nc", "     1\ta\n       \n     2\tb\n       \n       \n       \n     3\tc\n", "", 0},
		{nil, []string{"nl", "-ba"}, "a\n\nb\n\n\n\nc", "     1\ta\n     2\t\n     3\tb\n     4\t\n     5\t\n     6\t\n     7\tc\n", "", 0},
		{nil, []string{"nl", "-bn"}, "a\n\nb\n\n\n\nc", "       a\n       \n       b\n       \n       \n       \n       c\n", "", 0},
		{nil, []string{"nl", "-ba", "-l", "2"}, "a\n\nb\n\n\n\nc", "     1\ta\n       \n     2\tb\n       \n     3\t\n       \n     4\tc\n", "", 0},
		{nil, []string{"nl", "-nln"}, "a\n\nb\n\n\n\nc", "1     \ta\n       \n2     \tb\n       \n       \n       \n3     \tc\n", "", 0},
		{nil, []string{"nl", "-nrz", "-w3"}, "a\n\nb\n\n\n\nc", "001\ta\n    \n002\tb\n    \n    \n    \n003\tc\n", "", 0},
		{nil, []string{"nl", "-s", ": "}, "a\n\nb\n\n\n\nc", "     1: a\n        \n     2: b\n        \n        \n        \n     3: c\n", "", 0},
		{nil, []string{"nl", "-v", "10", "-i", "5"}, "a\n\nb\n\n\n\nc", "    10\ta\n       \n    15\tb\n       \n       \n       \n    20\tc\n", "", 0},
		{nil, []string{"nl", "-w", "0"}, "a\n\nb\n\n\n\nc", "", "nl: invalid line number field width: '0': Numerical result out of range\n", 1},
		{nil, []string{"nl", "-b", "x"}, "a\n\nb\n\n\n\nc", "", "nl: invalid body numbering style: 'x'\nTry 'nl --help' for more information.\n", 1},
		{nil, []string{"nl", "-n", "xx"}, "a\n\nb\n\n\n\nc", "", "nl: invalid line numbering format: 'xx'\nTry 'nl --help' for more information.\n", 1},
		{nil, []string{"nl", "-bp^b"}, "a\n\nb\n\n\n\nc", "       a\n       \n     1\tb\n       \n       \n       \n       c\n", "", 0},
		{nil, []string{"nl", "-b", "p[ac]"}, "a\n\nb\n\n\n\nc", "     1\ta\n       \n       b\n       \n       \n       \n     2\tc\n", "", 0},
		{nil, []string{"nl"}, "h1\n\\:\\:\\:\nhead\n\\:\\:\nbody\n\nbody2\n\\:\nfoot\n", "     1\th1\n\n       head\n\n     1\tbody\n       \n     2\tbody2\n\n       foot\n", "", 0},
		{nil, []string{"nl", "-ha", "-fa"}, "h1\n\\:\\:\\:\nhead\n\\:\\:\nbody\n\nbody2\n\\:\nfoot\n", "     1\th1\n\n     1\thead\n\n     1\tbody\n       \n     2\tbody2\n\n     1\tfoot\n", "", 0},
		{nil, []string{"nl", "-p", "-ha", "-fa"}, "h1\n\\:\\:\\:\nhead\n\\:\\:\nbody\n\nbody2\n\\:\nfoot\n", "     1\th1\n\n     2\thead\n\n     3\tbody\n       \n     4\tbody2\n\n     5\tfoot\n", "", 0},
		{nil, []string{"nl", "-d", "X"}, "XX\na\nX\nb\n", "     1\tXX\n     2\ta\n     3\tX\n     4\tb\n", "", 0},
		{nil, []string{"nl", "-w1"}, "x\nx\nx\nx\nx\nx\nx\nx\nx\nx\nx\nx\n", "1\tx\n2\tx\n3\tx\n4\tx\n5\tx\n6\tx\n7\tx\n8\tx\n9\tx\n10\tx\n11\tx\n12\tx\n", "", 0},
		{nil, []string{"nl", "-nrz", "-v", "-3", "-w", "4"}, "a\nb\n", "-003\ta\n-002\tb\n", "", 0},
	})
}
