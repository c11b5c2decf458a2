package builtins

import (
	"bytes"
	"context"
	"fmt"
	"testing"
)

// TestDiffLinesStopsEarly: the equivalence classes of millions of lines
// took seconds without a look at the context, so a cancelled diff (sdiff,
// diff3) ran on that long past a time limit. Once the context has ended,
// diffLines builds no class of the lines (each class a string allocated).
func TestDiffLinesStopsEarly(t *testing.T) {
	var a, b bytes.Buffer
	for i := range 1 << 17 {
		fmt.Fprintf(&a, "a%d\n", i)
		fmt.Fprintf(&b, "b%d\n", i)
	}
	fa, fb := splitDiffLines(a.Bytes()), splitDiffLines(b.Bytes())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var err error
	allocs := testing.AllocsPerRun(1, func() { _, err = diffLines(ctx, fa, fb, &diffOpts{tabsize: 8}) })
	if err == nil {
		t.Fatal("diffLines under a cancelled context: no error")
	}
	if allocs > 1000 {
		t.Errorf("diffLines under a cancelled context made %v allocations (lines classified)", allocs)
	}
}
