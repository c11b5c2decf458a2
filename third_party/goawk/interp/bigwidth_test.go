package interp

import (
	"strings"
	"testing"
)

// TestSprintfBigWidths: widths and precisions past what Go's fmt takes
// (it printed "%!(NOVERB)%!(EXTRA int64=1)" for printf "%100000000d")
// pad as mawk's printf does (each checked against mawk 1.3.4); those
// within it still go to fmt.
func TestSprintfBigWidths(t *testing.T) {
	const w = 1100000 // past fmtNumMax: the path fmt cannot take from about 10^7 on
	sp := func(n int, s string) string { return strings.Repeat(s, n) }
	p := &interp{formatCache: map[string]cachedFormat{}}
	for _, c := range []struct {
		format string
		args   []value
		want   string
	}{
		{"%1100000d", []value{num(-42)}, sp(w-3, " ") + "-42"},
		{"%-1100000d|", []value{num(7)}, "7" + sp(w-1, " ") + "|"},
		{"%01100000d", []value{num(-42)}, "-" + sp(w-3, "0") + "42"},
		{"%01100000s", []value{str("ab")}, sp(w-2, " ") + "ab"},
		{"%*d", []value{num(w), num(5)}, sp(w-1, " ") + "5"},
		{"%-*d|", []value{num(-w), num(5)}, "5" + sp(w-1, " ") + "|"},
		{"%.1100000d", []value{num(-42)}, "-" + sp(w-2, "0") + "42"},
		{"%.1100000f", []value{num(0.5)}, "0.5" + sp(w-1, "0")},
		{"%.1100000e", []value{num(0.5)}, "5." + sp(w, "0") + "e-01"},
		{"%.1100000g", []value{num(0.5)}, "0.5"},
		{"%.1100000s", []value{str("ab")}, "ab"},
		{"%1100000f", []value{num(divide(1, 0))}, sp(w-3, " ") + "inf"},
		{"a%%%1100000d%%", []value{num(1)}, "a%" + sp(w-1, " ") + "1%"},
		{"%5d|%.3f", []value{num(1), num(2)}, "    1|2.000"},
		// Widths that sum past fmtNumMax take the checked path and
		// print as fmt would.
		{"%600000d|%600000d", []value{num(1), num(2)}, sp(599999, " ") + "1|" + sp(599999, " ") + "2"},
	} {
		got, err := p.sprintf(c.format, c.args)
		if err != nil || got != c.want {
			n := min(len(got), 40)
			t.Errorf("sprintf(%q): %d bytes %q…, err %v; want %d bytes", c.format, len(got), got[:n], err, len(c.want))
		}
	}
	// Past MaxString, as a concatenation: a fatal error, nothing built
	// (a * width of 2^33 was one allocation of 8 GB).
	defer func(n int) { MaxString = n }(MaxString)
	MaxString = w + 10
	for _, c := range []struct {
		format string
		args   []value
	}{
		{"%*s", []value{num(1 << 33), str("")}},
		{"%.*d", []value{num(1 << 33), num(1)}},
		{"%1100000d%1100000d", []value{num(1), num(2)}},
		{"%.1100011f", []value{num(1)}},
		// Widths each within fmt's, whose sum is not (session 33: no
		// check saw "%999999d" a thousand times).
		{"%600000d%600000d", []value{num(1), num(2)}},
	} {
		if got, err := p.sprintf(c.format, c.args); err == nil || err.Error() != errStringTooLong().Error() {
			t.Errorf("sprintf(%q) past MaxString: %d bytes, err %v", c.format, len(got), err)
		}
	}
	// A precision that only cuts (%s, %c, %g) adds nothing: mawk prints
	// "abc" for "%.10000000s".
	if got, err := p.sprintf("%.10000000s|%.10000000g", []value{str("abc"), num(0.5)}); err != nil || got != "abc|0.5" {
		t.Errorf(`sprintf("%%.10000000s|%%.10000000g") = %q, %v; want "abc|0.5"`, got, err)
	}
}
