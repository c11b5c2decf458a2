package builtins

import "testing"

// Expected values checked against GNU tsort 9.1, loops included.
func TestTsort(t *testing.T) {
	runLines(t, []linesCase{
		{nil, []string{"tsort"}, "a b\nb c\nc d\n", "a\nb\nc\nd\n", "", 0},
		{nil, []string{"tsort"}, "3 8 3 10 5 11 7 8 7 11 8 9 11 2 11 9 11 10\n", "3\n5\n7\n11\n8\n10\n2\n9\n", "", 0},
		{nil, []string{"tsort"}, "x y z w\ny z a a\nq r r s s q\nm n n m k k\n", "a\nk\nx\ny\nz\nw\nm\nn\nq\nr\ns\n",
			"tsort: -: input contains a loop:\ntsort: m\ntsort: n\ntsort: -: input contains a loop:\ntsort: q\ntsort: r\ntsort: s\n", 1},
		{nil, []string{"tsort"}, "b a\nc a\nd a\na e\ne b\n", "c\nd\na\ne\nb\n", "tsort: -: input contains a loop:\ntsort: a\ntsort: e\ntsort: b\n", 1},
		{nil, []string{"tsort"}, "a b c\n", "", "tsort: -: input contains an odd number of tokens\n", 1},
		{nil, []string{"tsort", "a", "b"}, "", "", "tsort: extra operand 'b'\nTry 'tsort --help' for more information.\n", 1},
	})
}
