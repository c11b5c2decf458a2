package posixre

import (
	"slices"
	"sync"
	"unicode"
)

// The character classes are those of glibc's C.UTF-8 locale (the locale
// llmsh's commands run in), as glibc's gen-unicode-ctype derives them from
// the Unicode data: alpha is Alphabetic plus the non-ASCII decimal digits,
// digit and xdigit are ASCII only, upper and lower are the characters
// with a lower- or upper-case mapping, space and blank are the Unicode
// spaces but the no-break ones, print is every assigned character but
// the controls and the line and paragraph separators, graph is print but
// the spaces, punct is graph but alnum. U+FFFD is left out of punct,
// graph and print so that RE2 can match them (it reads every byte that is
// not UTF-8 as U+FFFD).

// classNames are the names that [:NAME:] accepts.
var classNames = map[string]bool{
	"alpha": true, "digit": true, "alnum": true, "upper": true, "lower": true, "space": true,
	"blank": true, "punct": true, "print": true, "graph": true, "cntrl": true, "xdigit": true,
}

// classRanges returns the sorted, disjoint ranges (lo, hi pairs) of the
// class NAME; they are shared and must not be changed.
func classRanges(name string) ([]int32, bool) {
	if !classNames[name] {
		return nil, false
	}
	return unicodeClasses()[name], true
}

// wordRanges are \w's: alnum and '_'.
func wordRanges() []int32 { return unicodeClasses()["word"] }

// spaceRanges are \s's: space.
func spaceRanges() []int32 { return unicodeClasses()["space"] }

var unicodeClasses = sync.OnceValue(func() map[string][]int32 {
	spaces := []int32{'\t', '\r', ' ', ' ', 0x1680, 0x1680, 0x2000, 0x2006, 0x2008, 0x200a, 0x2028, 0x2029, 0x205f, 0x205f, 0x3000, 0x3000}
	blank := []int32{'\t', '\t', ' ', ' ', 0x1680, 0x1680, 0x2000, 0x2006, 0x2008, 0x200a, 0x205f, 0x205f, 0x3000, 0x3000}
	cntrl := []int32{0, 0x1f, 0x7f, 0x9f, 0x2028, 0x2029}
	digit := []int32{'0', '9'}
	alpha := rangeMinus(rangeUnion(tableRanges(unicode.L), tableRanges(unicode.Nl),
		tableRanges(unicode.Other_Alphabetic), tableRanges(unicode.Nd)), digit)
	alnum := rangeUnion(alpha, digit)
	upper, lower := []int32(nil), []int32{0xdf, 0xdf} // ß has no simple mapping
	for _, cr := range unicode.CaseRanges {
		for r := rune(cr.Lo); r <= rune(cr.Hi); r++ {
			if unicode.ToLower(r) != r {
				upper = append(upper, r, r)
			}
			if unicode.ToUpper(r) != r {
				lower = append(lower, r, r)
			}
		}
	}
	assigned := rangeUnion(tableRanges(unicode.L), tableRanges(unicode.M), tableRanges(unicode.N),
		tableRanges(unicode.P), tableRanges(unicode.S), tableRanges(unicode.Zs), tableRanges(unicode.Cf),
		tableRanges(unicode.Co))
	print := rangeMinus(assigned, []int32{0, 0x1f, 0x7f, 0x9f, 0x2028, 0x2029, 0xfffd, 0xfffd})
	graph := rangeMinus(print, spaces)
	return map[string][]int32{
		"alpha": alpha, "digit": digit, "alnum": alnum,
		"upper": rangeUnion(upper), "lower": rangeUnion(lower),
		"space": spaces, "blank": blank, "cntrl": cntrl,
		"print": print, "graph": graph, "punct": rangeMinus(graph, alnum),
		"xdigit": {'0', '9', 'A', 'F', 'a', 'f'},
		"word":   rangeUnion(alnum, []int32{'_', '_'}),
	}
})

// tableRanges returns t's characters as lo, hi pairs.
func tableRanges(t *unicode.RangeTable) []int32 {
	var out []int32
	for _, r := range t.R16 {
		out = appendStride(out, int32(r.Lo), int32(r.Hi), int32(r.Stride))
	}
	for _, r := range t.R32 {
		out = appendStride(out, int32(r.Lo), int32(r.Hi), int32(r.Stride))
	}
	return out
}

func appendStride(out []int32, lo, hi, stride int32) []int32 {
	if stride == 1 {
		return append(out, lo, hi)
	}
	for c := lo; c <= hi; c += stride {
		out = append(out, c, c)
	}
	return out
}

// rangeUnion returns the union of range lists, sorted and merged.
func rangeUnion(lists ...[]int32) []int32 {
	type span struct{ lo, hi int32 }
	var all []span
	for _, l := range lists {
		for i := 0; i+1 < len(l); i += 2 {
			all = append(all, span{l[i], l[i+1]})
		}
	}
	slices.SortFunc(all, func(a, b span) int { return int(a.lo) - int(b.lo) })
	var out []int32
	for _, s := range all {
		if n := len(out); n > 0 && s.lo <= out[n-1]+1 {
			out[n-1] = max(out[n-1], s.hi)
			continue
		}
		out = append(out, s.lo, s.hi)
	}
	return out
}

// rangeMinus returns the characters of a that are not in b.
func rangeMinus(a, b []int32) []int32 {
	a, b = rangeUnion(a), rangeUnion(b)
	var out []int32
	j := 0
	for i := 0; i < len(a); i += 2 {
		lo, hi := a[i], a[i+1]
		for j < len(b) && b[j+1] < lo {
			j += 2
		}
		for k := j; k < len(b) && b[k] <= hi && lo <= hi; k += 2 {
			if b[k] > lo {
				out = append(out, lo, b[k]-1)
			}
			lo = b[k+1] + 1
		}
		if lo <= hi {
			out = append(out, lo, hi)
		}
	}
	return out
}

// inSorted reports whether c is in the sorted, disjoint ranges.
func inSorted(ranges []int32, c int32) bool {
	i, j := 0, len(ranges)/2
	for i < j {
		h := int(uint(i+j) >> 1)
		if ranges[2*h+1] < c {
			i = h + 1
		} else {
			j = h
		}
	}
	return i < len(ranges)/2 && ranges[2*i] <= c
}

// isWordChar reports whether c is a word character (alnum or '_'), as
// for \w, \b, \<, \> and grep -w.
func isWordChar(c int32) bool {
	if c < 0x80 {
		return isWordByte(byte(c))
	}
	return inSorted(wordRanges(), c)
}

// ClassRE2 returns the characters of the class [:NAME:] written for the
// inside of an RE2 bracket expression (\x{41}-\x{5a}...); NAME "word" is
// \w's class.
func ClassRE2(name string) (string, bool) {
	r, ok := unicodeClasses()[name]
	if !ok {
		return "", false
	}
	var b []byte
	for i := 0; i < len(r); i += 2 {
		b = appendHex(b, r[i])
		if r[i+1] != r[i] {
			b = appendHex(append(b, '-'), r[i+1])
		}
	}
	return string(b), true
}
