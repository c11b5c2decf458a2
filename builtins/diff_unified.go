package builtins

import (
	"context"
	"fmt"
	"strings"
)

// UnifiedDiff is GNU diff -u's body (hunks with 3 lines of context, no
// file header) for a and b, from diff's own algorithm; "" when they are
// equal. llmsh test shows a fixture's differences with it.
func UnifiedDiff(a, b []byte) string {
	fa, fb := splitDiffLines(a), splitDiffLines(b)
	script, err := diffLines(context.Background(), fa, fb, &diffOpts{})
	if err != nil || len(script) == 0 {
		return ""
	}
	const ctxLines = 3
	var out strings.Builder
	line := func(prefix string, f *diffFile, i int) {
		out.WriteString(prefix)
		out.Write(f.lines[i])
		out.WriteByte('\n')
		if i == len(f.lines)-1 && f.missingNewline {
			out.WriteString("\\ No newline at end of file\n")
		}
	}
	for k := 0; k < len(script); {
		// A hunk: changes whose context overlaps.
		end := k
		for end+1 < len(script) && script[end+1].line0-(script[end].line0+script[end].deleted) <= 2*ctxLines {
			end++
		}
		first, last := script[k], script[end]
		start0 := max(0, first.line0-ctxLines)
		start1 := max(0, first.line1-ctxLines)
		stop0 := min(len(fa.lines), last.line0+last.deleted+ctxLines)
		stop1 := min(len(fb.lines), last.line1+last.inserted+ctxLines)
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(start0, stop0-start0), hunkRange(start1, stop1-start1))
		i0 := start0
		for _, c := range script[k : end+1] {
			for ; i0 < c.line0; i0++ {
				line(" ", fa, i0)
			}
			for i := c.line0; i < c.line0+c.deleted; i++ {
				line("-", fa, i)
			}
			for i := c.line1; i < c.line1+c.inserted; i++ {
				line("+", fb, i)
			}
			i0 = c.line0 + c.deleted
		}
		for ; i0 < stop0; i0++ {
			line(" ", fa, i0)
		}
		k = end + 1
	}
	return out.String()
}

// hunkRange is a unified hunk's "start,count" (1-based; "start" alone
// for one line, "start-1,0" for none).
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}
