package posixre

import (
	"slices"
	"unicode"
)

// How GNU grep 3.8 and sed 4.9 fold case in a UTF-8 locale (gnulib's
// case_folded_counterparts over glibc's C.UTF-8 towupper and towlower),
// where it differs from the Unicode simple folding orbits that RE2's (?i)
// matches: k and K do not match the Kelvin sign K (U+212A), nor does K
// match them (Å U+212B, Ω U+2126 alike); ẞ does not match ß; i and I
// match ı (U+0131), which folds to nothing in Unicode. Measured with
// `LC_ALL=C.UTF-8 grep -io` on the host's grep 3.8.

// lonesomeLower are the characters c whose towupper U has a towlower
// other than c (gnulib's localeinfo.c): they match U's case-fold set.
var lonesomeLower = [...]rune{
	0x00B5, 0x0131, 0x017F, 0x01C5, 0x01C8, 0x01CB, 0x01F2, 0x0345,
	0x03C2, 0x03D0, 0x03D1, 0x03D5, 0x03D6, 0x03F0, 0x03F1, 0x03F2,
	0x03F5, 0x1E9B, 0x1FBE,
}

// gnuFoldSet is the set of characters that a pattern character c
// matches under -i, or nil when it is c's Unicode folding orbit, which
// (?i) matches already.
func gnuFoldSet(c rune) []rune {
	set := []rune{c}
	up := unicode.ToUpper(c)
	low := unicode.ToLower(up)
	if up != c {
		set = append(set, up)
	}
	if low != up && low != c && unicode.ToUpper(low) == up {
		set = append(set, low)
	}
	for _, l := range lonesomeLower {
		if l != low && l != up && l != c && unicode.ToUpper(l) == up {
			set = append(set, l)
		}
	}
	n := 1
	for f := unicode.SimpleFold(c); f != c; f = unicode.SimpleFold(f) {
		if !slices.Contains(set, f) {
			slices.Sort(set)
			return set
		}
		n++
	}
	if n == len(set) {
		return nil
	}
	slices.Sort(set)
	return set
}
