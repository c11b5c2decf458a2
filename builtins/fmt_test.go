package builtins_test

import "testing"

// Expected values produced by GNU fmt 9.1.
func TestFmt(t *testing.T) {
	t.Parallel()
	runLines(t, []linesCase{
		{nil, []string{"fmt"}, "The quick brown fox jumps over the lazy dog. It was a fine day, and (as always) the dog slept. Mr. Smith went to Washington; he never came back! The end.\n", "The quick brown fox jumps over the lazy dog. It was a fine day, and\n(as always) the dog slept. Mr. Smith went to Washington; he never came\nback! The end.\n", "", 0},
		{nil, []string{"fmt", "-w", "30"}, "The quick brown fox jumps over the lazy dog. It was a fine day, and (as always) the dog slept.\n\n  Indented paragraph with more words than fit on one line of thirty.\n  And a second line.\n", "The quick brown fox jumps\nover the lazy dog. It was\na fine day, and (as always)\nthe dog slept.\n\n  Indented paragraph with\n  more words than fit on\n  one line of thirty.  And a\n  second line.\n", "", 0},
		{nil, []string{"fmt", "-s", "-w", "20"}, "short line\nthis is a much longer line that needs splitting into parts\n", "short line\nthis is a much\nlonger line that\nneeds splitting\ninto parts\n", "", 0},
		{nil, []string{"fmt", "-u"}, "one   two  three.  four\tfive six.   seven\n", "one two three.\tfour five six.\tseven\n", "", 0},
		{nil, []string{"fmt", "-c", "-w", "30"}, "  first line of a crown paragraph\nsecond line is not indented and goes on for a while\n", "  first line of a crown\nparagraph second line is\nnot indented and goes on for\na while\n", "", 0},
		{nil, []string{"fmt", "-t", "-w", "30"}, "tagged first line of a paragraph here\n   and the rest of it goes on for a while longer\n", "tagged first line of a\n   paragraph here and the\n   rest of it goes on for a\n   while longer\n", "", 0},
		{nil, []string{"fmt", "-p", "#", "-w", "30"}, "# a comment that is rather long and wraps around\n# more comment\ncode line stays as it is\n", "# a comment that is rather\n# long and wraps around\n# more comment\ncode line stays as it is\n", "", 0},
		{nil, []string{"fmt", "-20"}, "\twords after a tab that wrap at twenty columns\n", "\twords after\n\ta tab that\n\twrap at\n\ttwenty\n\tcolumns\n", "", 0},
		{nil, []string{"fmt", "-w", "40", "-g", "30"}, "aaa bbb ccc ddd eee fff ggg hhh iii jjj kkk lll mmm nnn ooo ppp\n", "aaa bbb ccc ddd eee fff ggg hhh\niii jjj kkk lll mmm nnn ooo ppp\n", "", 0},
		{nil, []string{"fmt", "-w", "x"}, "", "", "fmt: invalid width: 'x'\n", 1},
		{nil, []string{"fmt", "-w", "3000"}, "", "", "fmt: invalid width: '3000': Numerical result out of range\n", 1},
		{nil, []string{"fmt", "-w", "5", "-5"}, "", "", "fmt: invalid option -- 5; -WIDTH is recognized only when it is the first\noption; use -w N instead\nTry 'fmt --help' for more information.\n", 1},
		{map[string]string{}, []string{"fmt", "nosuch"}, "", "", "fmt: cannot open 'nosuch' for reading: No such file or directory\n", 1},
	})
}
