package posixre

import "slices"

// Bytes mode (the C locale): a subject that holds bytes of 0x80 and over
// is matched in its Latin-1 form, where each such byte is the character
// of its value (two bytes of UTF-8), so that RE2 and the backtracking
// matcher, which read UTF-8, take each byte for one character; the
// offsets found are mapped back to the subject's. A pattern that cannot
// tell the two forms apart (transparent: ASCII literals and classes
// only, no '.', no negated class, no empty match) is matched on the
// subject itself, as is an ASCII subject.

// latin1 is a subject's Latin-1 form.
type latin1 struct {
	b    []byte
	high []int // the offsets in b of the characters of two bytes
}

// needLatin1 reports whether b must be matched in its Latin-1 form.
func (r *Regexp) needLatin1(b []byte) bool {
	if r.fl&Bytes == 0 || r.transparent {
		return false
	}
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}

func toLatin1(b []byte) *latin1 {
	n := 0
	for _, c := range b {
		if c >= 0x80 {
			n++
		}
	}
	l := &latin1{b: make([]byte, 0, len(b)+n), high: make([]int, 0, n)}
	for _, c := range b {
		if c < 0x80 {
			l.b = append(l.b, c)
			continue
		}
		l.high = append(l.high, len(l.b))
		l.b = append(l.b, 0xc0|c>>6, 0x80|c&0x3f)
	}
	return l
}

// Latin1 returns b's Latin-1 form, where each byte of 0x80 and over is
// the character of its value (for a matcher that reads UTF-8 to take each
// byte for one character, as GNU's tools in the C locale), and a function
// that maps an offset of that form (at a character's start, or -1) back to
// b's; b itself and a nil function when b is ASCII.
func Latin1(b []byte) ([]byte, func(int) int) {
	for _, c := range b {
		if c >= 0x80 {
			l := toLatin1(b)
			return l.b, l.orig
		}
	}
	return b, nil
}

// orig maps an offset of l.b (at a character's start, or -1) to the
// subject's.
func (l *latin1) orig(p int) int {
	if p < 0 {
		return p
	}
	k, _ := slices.BinarySearch(l.high, p)
	return p - k
}

// mapLoc maps the offsets of loc in place; a nil l maps nothing.
func (l *latin1) mapLoc(loc []int) []int {
	if l != nil {
		for i, p := range loc {
			loc[i] = l.orig(p)
		}
	}
	return loc
}

// mapped returns fn called with each loc mapped to the subject's offsets.
func (l *latin1) mapped(fn func(loc []int) bool) func(loc []int) bool {
	var out []int
	return func(loc []int) bool {
		out = out[:0]
		for _, p := range loc {
			out = append(out, l.orig(p))
		}
		return fn(out)
	}
}

// isTransparent reports whether a Bytes-mode pattern matches the same in
// a subject and in its Latin-1 form.
func isTransparent(n *node) bool {
	return asciiOnly(n) && minLen(n) > 0
}

// asciiOnly reports whether every character n can match is ASCII.
func asciiOnly(n *node) bool {
	switch n.kind {
	case kLit:
		return n.c < 0x80
	case kAny, kBackref:
		return false
	case kClass:
		return !n.neg && (len(n.ranges) == 0 || n.ranges[len(n.ranges)-1] < 0x80)
	}
	for _, s := range n.sub {
		if !asciiOnly(s) {
			return false
		}
	}
	return true
}

// minLen returns the fewest characters a match of n spans (at most a
// little over 1<<20).
func minLen(n *node) int {
	switch n.kind {
	case kLit, kAny, kClass:
		return 1
	case kGroup:
		return minLen(n.sub[0])
	case kRepeat:
		return min(n.min*minLen(n.sub[0]), 1<<20)
	case kConcat:
		t := 0
		for _, s := range n.sub {
			t = min(t+minLen(s), 1<<20)
		}
		return t
	case kAlt:
		m := -1
		for _, s := range n.sub {
			if l := minLen(s); m < 0 || l < m {
				m = l
			}
		}
		return max(m, 0)
	}
	return 0
}
