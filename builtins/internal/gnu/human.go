package gnu

import "strconv"

// HumanCeil is gnulib's human_readable as ls -h and du -h call it (powers
// of 1024, autoscaled, rounded up): 1023, 1.0K, 1.1K, 10K, 118M. Below 10
// a unit shows one decimal.
func HumanCeil(n int64) string { return HumanCeilBase(n, 1024) }

// HumanCeilBase is HumanCeil in powers of base: 1024 (K M G …) or 1000
// (--si: k M G …).
func HumanCeilBase(n, base int64) string {
	if n < base {
		return strconv.FormatInt(n, 10)
	}
	suffixes := "KMGTPE"
	if base == 1000 {
		suffixes = "kMGTPE"
	}
	e, div := 0, base
	for n/div >= base && e < len(suffixes)-1 {
		div *= base
		e++
	}
	tenths := (n*10 + div - 1) / div
	if n > (1<<62)/10 {
		tenths = 100 // too large for tenths: integer display
	}
	if tenths < 100 {
		return strconv.FormatInt(tenths/10, 10) + "." + strconv.FormatInt(tenths%10, 10) + string(suffixes[e])
	}
	whole := (n + div - 1) / div
	if whole >= base && e < len(suffixes)-1 {
		return "1.0" + string(suffixes[e+1])
	}
	return strconv.FormatInt(whole, 10) + string(suffixes[e])
}
