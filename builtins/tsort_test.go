package builtins_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

// Expected values checked against GNU tsort 9.1, loops included.
func TestTsort(t *testing.T) {
	t.Parallel()
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

// TestTsortGraphStops: reading the graph and sorting its items look at
// the context (session 23, red team: tsort of 20 million numbers in a
// library Session.Run with a 1 s limit answered after 6 minutes), and a
// node's successors are appended, the most recent last (a prepend each
// made many successors of one node quadratic).
func TestTsortGraphStops(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	for i := range 1 << 18 {
		fmt.Fprintf(&b, "%d ", i)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := ForTests.TsortGraph(&Env{Ctx: ctx}, b.Bytes()); err != gnu.ErrCancelled {
		t.Fatalf("graph under a cancelled context: %v", err)
	}
	nums := make([]int, 1<<18)
	for i := range nums {
		nums[i] = len(nums) - i
	}
	if err := ForTests.SortInts(ctx, nums); err != gnu.ErrCancelled {
		t.Fatalf("sort under a cancelled context: %v", err)
	}
	b.Reset()
	for i := range 1 << 16 {
		fmt.Fprintf(&b, "a b%d\n", i)
	}
	names, top, err := ForTests.TsortGraph(&Env{Ctx: context.Background()}, b.Bytes())
	if err != nil || len(names) != 1<<16+1 || names[0] != "a" || len(top[0]) != 1<<16 || top[0][1<<16-1] != "b65535" {
		t.Fatalf("graph: %d items, %v", len(names), err)
	}
}
