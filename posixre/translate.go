package posixre

import (
	"slices"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// CheckKind is a condition on the bytes around a position that RE2 cannot
// state and that a caller must verify after a match.
type CheckKind uint8

const (
	// WordStart (\<): the next character is a word character (\b holds).
	WordStart CheckKind = iota + 1
	// WordEnd (\>): the previous character is a word character (\b holds).
	WordEnd
	// NotAfterWord: the previous character is not a word character (grep -w).
	NotAfterWord
	// NotBeforeWord: the next character is not a word character (grep -w).
	NotBeforeWord
	// WordBoundary (\b): one of the characters around is a word character
	// and the other is not (RE2's \b knows only ASCII word characters).
	WordBoundary
	// NotWordBoundary (\B): WordBoundary does not hold.
	NotWordBoundary
)

// Check is one post-match condition: the position is where RE2 capture
// group Group matched (an empty group).
type Check struct {
	Group int
	Kind  CheckKind
}

// Translation is a pattern in RE2 syntax.
type Translation struct {
	// Expr is the RE2 expression. Compile it with regexp.Compile and call
	// Longest for POSIX's leftmost-longest rule.
	Expr string
	// Groups maps a POSIX group number (1..) to its RE2 capture index;
	// Groups[0] is 0.
	Groups []int
	// Checks must all hold for a match of Expr to be a match of the POSIX
	// pattern (\b, \B, \< and \> are translated to an empty group whose
	// position is checked).
	Checks []Check
	// Warnings are GNU's warnings about the pattern, such as "* at start
	// of expression".
	Warnings []string
}

// Translate parses pat as a GNU BRE (or ERE with the ERE flag) and writes
// it in RE2 syntax. A syntax error is an *Error with GNU's wording;
// ErrBackref and ErrNotRE2 mean the pattern is valid but RE2 cannot
// express it (Compile still matches it).
func Translate(pat string, fl Flags) (*Translation, error) {
	root, ps, err := parse(pat, fl)
	if err != nil {
		return nil, err
	}
	switch {
	case fl&MatchLines != 0:
		root = &node{kind: kConcat, sub: []*node{{kind: kAssert, n: aBOL}, root, {kind: kAssert, n: aEOL}}}
	case fl&MatchWords != 0:
		root = &node{kind: kConcat, sub: []*node{{kind: kAssert, n: aNotAfterW}, root, {kind: kAssert, n: aNotBeforeW}}}
	}
	return translateTree(root, ps, fl)
}

// TranslateBRE translates a basic regular expression; see Translate. It
// returns ErrNotRE2 when the pattern needs post-match checks (\< \>).
func TranslateBRE(pat string) (string, error) { return translateSimple(pat, 0) }

// TranslateERE translates an extended regular expression; see
// TranslateBRE.
func TranslateERE(pat string) (string, error) { return translateSimple(pat, ERE) }

func translateSimple(pat string, fl Flags) (string, error) {
	t, err := Translate(pat, fl)
	if err != nil {
		return "", err
	}
	if len(t.Checks) > 0 {
		return "", ErrNotRE2
	}
	return t.Expr, nil
}

type emitter struct {
	b      []byte
	fl     Flags
	cap    int // RE2 capture groups written so far
	t      *Translation
	notRE2 bool
	br     bool
	// strict: '.' and negated classes never match U+FFFD, which RE2
	// reads for a byte that is not UTF-8 (utf8.go).
	strict bool
}

func translateTree(root *node, ps *parser, fl Flags) (*Translation, error) {
	return translateMode(root, ps, fl, false)
}

func translateMode(root *node, ps *parser, fl Flags, strict bool) (*Translation, error) {
	t := &Translation{Groups: make([]int, ps.groups+1), Warnings: ps.warnings}
	e := &emitter{fl: fl, t: t, strict: strict}
	if fl&IgnoreCase != 0 && fl&Bytes == 0 {
		// In Bytes mode the emitter writes both cases of ASCII letters
		// itself: RE2's (?i) would also fold é and É (U+00E9, U+00C9),
		// which are two bytes each of the C locale's subject.
		e.b = append(e.b, "(?i)"...)
	}
	if fl&Lines != 0 {
		e.b = append(e.b, "(?m)"...)
	} else {
		e.b = append(e.b, "(?s)"...)
	}
	e.emit(root, false)
	if e.br {
		return nil, ErrBackref
	}
	if e.notRE2 {
		return nil, ErrNotRE2
	}
	t.Expr = string(e.b)
	return t, nil
}

func (e *emitter) emit(n *node, inRepeat bool) {
	switch n.kind {
	case kEmpty:
		e.b = append(e.b, "(?:)"...)
	case kLit:
		if n.c >= invalidBase || n.c == utf8.RuneError {
			e.notRE2 = true
			return
		}
		if e.asciiFold() && asciiLetter(n.c) {
			e.b = append(e.b, '[', byte(n.c|0x20), byte(n.c&^0x20), ']')
			return
		}
		if e.unicodeFold() {
			if set := gnuFoldSet(n.c); set != nil {
				// (?i) would match the whole orbit: GNU's set instead.
				e.b = append(e.b, "(?-i:["...)
				for _, r := range set {
					e.b = appendHex(e.b, r)
				}
				e.b = append(e.b, "])"...)
				return
			}
		}
		e.b = appendChar(e.b, n.c, false)
	case kAny:
		switch {
		case !e.strict:
			e.b = append(e.b, '.')
		case e.fl&Lines != 0:
			e.b = append(e.b, `[^\n\x{fffd}]`...)
		default:
			e.b = append(e.b, `[^\x{fffd}]`...)
		}
	case kClass:
		e.class(n)
	case kConcat:
		for _, s := range n.sub {
			e.emit(s, inRepeat)
		}
	case kAlt:
		e.b = append(e.b, "(?:"...)
		for i, s := range n.sub {
			if i > 0 {
				e.b = append(e.b, '|')
			}
			e.emit(s, inRepeat)
		}
		e.b = append(e.b, ')')
	case kRepeat:
		if n.min > 1000 || n.max > 1000 {
			e.notRE2 = true
			return
		}
		e.b = append(e.b, "(?:"...)
		e.emit(n.sub[0], true)
		e.b = append(e.b, ')')
		switch {
		case n.min == 0 && n.max == -1:
			e.b = append(e.b, '*')
		case n.min == 1 && n.max == -1:
			e.b = append(e.b, '+')
		case n.min == 0 && n.max == 1:
			e.b = append(e.b, '?')
		default:
			e.b = append(e.b, '{')
			e.b = strconv.AppendInt(e.b, int64(n.min), 10)
			if n.max != n.min {
				e.b = append(e.b, ',')
				if n.max >= 0 {
					e.b = strconv.AppendInt(e.b, int64(n.max), 10)
				}
			}
			e.b = append(e.b, '}')
		}
	case kGroup:
		e.cap++
		e.t.Groups[n.n] = e.cap
		e.b = append(e.b, '(')
		e.emit(n.sub[0], inRepeat)
		e.b = append(e.b, ')')
	case kBackref:
		e.br = true
	case kAssert:
		switch n.n {
		case aBOL:
			e.b = append(e.b, '^')
		case aEOL:
			e.b = append(e.b, '$')
		case aBOT:
			if e.fl&Lines != 0 {
				e.b = append(e.b, '^')
			} else {
				e.b = append(e.b, `\A`...)
			}
		case aEOT:
			if e.fl&Lines != 0 {
				e.b = append(e.b, '$')
			} else {
				e.b = append(e.b, `\z`...)
			}
		default:
			// A check inside a repetition cannot be verified from the
			// last iteration's capture alone.
			if inRepeat {
				e.notRE2 = true
				return
			}
			e.cap++
			k := map[int]CheckKind{aWordStart: WordStart, aWordEnd: WordEnd, aNotAfterW: NotAfterWord,
				aNotBeforeW: NotBeforeWord, aWordB: WordBoundary, aNotWordB: NotWordBoundary}[n.n]
			e.t.Checks = append(e.t.Checks, Check{Group: e.cap, Kind: k})
			e.b = append(e.b, "()"...)
		}
	}
}

// classRangesFor returns n's ranges as matched in mode fl: in Lines mode a
// newline is never in the set.
func classRangesFor(n *node, fl Flags) (ranges []int32, neg bool) {
	ranges, neg = n.ranges, n.neg
	if fl&Lines == 0 {
		return
	}
	if neg {
		return append(append([]int32(nil), ranges...), '\n', '\n'), true
	}
	var out []int32
	for i := 0; i < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if lo <= '\n' && '\n' <= hi {
			if lo < '\n' {
				out = append(out, lo, '\n'-1)
			}
			if hi > '\n' {
				out = append(out, '\n'+1, hi)
			}
			continue
		}
		out = append(out, lo, hi)
	}
	return out, false
}

// asciiFold reports whether the emitter writes both cases of letters
// itself (IgnoreCase in Bytes mode).
func (e *emitter) asciiFold() bool { return e.fl&(IgnoreCase|Bytes) == IgnoreCase|Bytes }

// unicodeFold reports whether case is folded by (?i) in UTF-8.
func (e *emitter) unicodeFold() bool { return e.fl&(IgnoreCase|Bytes) == IgnoreCase }

// foldClassGNU gives a small class under (?i) GNU's case-fold sets of its
// members where one of them differs from its Unicode orbit ([k] does
// not match K); nil when (?i) matches as GNU does. A class of more than
// 512 characters is left to (?i).
func foldClassGNU(ranges []int32) []int32 {
	n := 0
	for i := 0; i < len(ranges); i += 2 {
		n += int(ranges[i+1]-ranges[i]) + 1
		if n > 512 || ranges[i+1] >= utf8.RuneError {
			return nil // large, or for class's checks of U+FFFD and bytes
		}
	}
	var out []rune
	differs := false
	for i := 0; i < len(ranges); i += 2 {
		for c := ranges[i]; c <= ranges[i+1]; c++ {
			set := gnuFoldSet(c)
			if set == nil {
				set = []rune{c}
				for f := unicode.SimpleFold(c); f != c; f = unicode.SimpleFold(f) {
					set = append(set, f)
				}
			} else {
				differs = true
			}
			out = append(out, set...)
		}
	}
	if !differs {
		return nil
	}
	slices.Sort(out)
	out = slices.Compact(out)
	var r []int32
	for _, c := range out {
		if len(r) > 0 && r[len(r)-1]+1 == c {
			r[len(r)-1] = c
			continue
		}
		r = append(r, c, c)
	}
	return r
}

func asciiLetter(c int32) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// foldASCII adds to ranges the other case of each ASCII letter in them.
func foldASCII(ranges []int32) []int32 {
	out := append([]int32(nil), ranges...)
	for _, lr := range [][2]int32{{'a', 'z'}, {'A', 'Z'}} {
		for i := 0; i < len(ranges); i += 2 {
			lo, hi := max(ranges[i], lr[0]), min(ranges[i+1], lr[1])
			if lo <= hi {
				out = append(out, lo^0x20, hi^0x20)
			}
		}
	}
	return rangeUnion(out)
}

func (e *emitter) class(n *node) {
	ranges, neg := classRangesFor(n, e.fl)
	if e.asciiFold() {
		ranges = foldASCII(ranges)
	}
	if e.unicodeFold() {
		if folded := foldClassGNU(ranges); folded != nil {
			e.b = append(e.b, "(?-i:"...)
			e.classRanges(folded, neg)
			e.b = append(e.b, ')')
			return
		}
	}
	e.classRanges(ranges, neg)
}

// classRanges writes a class of ranges, negated if neg.
func (e *emitter) classRanges(ranges []int32, neg bool) {
	for i := 0; i < len(ranges); i += 2 {
		if ranges[i+1] >= invalidBase {
			e.notRE2 = true
			return
		}
		if !neg && ranges[i] <= utf8.RuneError && utf8.RuneError <= ranges[i+1] {
			// RE2 would match bytes that are not UTF-8 as U+FFFD.
			e.notRE2 = true
			return
		}
	}
	if neg && e.strict {
		ranges = append(append([]int32(nil), ranges...), utf8.RuneError, utf8.RuneError)
	}
	if len(ranges) == 0 {
		if neg {
			e.b = append(e.b, `(?s:.)`...)
		} else {
			e.b = append(e.b, `[^\x00-\x{10FFFF}]`...)
		}
		return
	}
	e.b = append(e.b, '[')
	if neg {
		e.b = append(e.b, '^')
	}
	for i := 0; i < len(ranges); i += 2 {
		e.b = appendHex(e.b, ranges[i])
		if ranges[i+1] != ranges[i] {
			e.b = append(e.b, '-')
			e.b = appendHex(e.b, ranges[i+1])
		}
	}
	e.b = append(e.b, ']')
}

func appendHex(b []byte, c int32) []byte {
	b = append(b, `\x{`...)
	b = strconv.AppendInt(b, int64(c), 16)
	return append(b, '}')
}
