// Package posixre translates POSIX basic and extended regular expressions,
// in their GNU flavour, into Go's RE2 syntax, and matches them with POSIX
// leftmost-longest semantics.
//
// A pattern is first parsed into a small syntax tree following GNU regcomp's
// rules (what is an anchor, when '*' and '{' are literal, bracket
// expressions, GNU escapes). The tree is then written out as RE2 syntax.
// Where RE2 cannot express the pattern exactly, the package says so instead
// of matching wrongly:
//
//   - back-references (\1..\9) make Translate fail with ErrBackref; Compile
//     then matches with a small backtracking matcher of its own;
//   - \b, \B, \< and \> become an empty capture that marks their
//     position (RE2's \b knows only ASCII word characters); a match is
//     only accepted once the neighbouring characters have been checked
//     (Translation.Checks), and Compile falls back to the backtracking
//     matcher for an input where a check fails;
//   - bytes of the pattern that are not UTF-8, and repetition counts above
//     RE2's limit of 1000, also send Compile to the backtracking matcher.
//
// Byte semantics: the subject may hold any bytes. A valid UTF-8 sequence is
// one character; every byte that is not part of one is a character of its
// own, matched by '.', by negated bracket expressions and by a pattern byte
// equal to it, and by nothing else. ASCII behaves exactly as in the C
// locale; character classes ([:alpha:], \w) and word characters (for \<,
// \>, \b, grep -w) are those of glibc's C.UTF-8 locale (see classes.go).
package posixre

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Flags select the dialect and matching mode.
type Flags uint

const (
	// ERE selects extended syntax (grep -E, sed -E); the default is BRE.
	ERE Flags = 1 << iota
	// IgnoreCase matches letters of either case.
	IgnoreCase
	// Lines is the line-oriented mode of grep and of sed's M flag: '^' and
	// '$' also match just after and before a newline, and '.', negated
	// bracket expressions, \s and \W never match a newline. Without it (sed
	// without M) the subject is one string: '.' matches a newline and '^'
	// and '$' match only at its ends.
	Lines
	// MatchWords is grep -w: a match must be neither preceded nor
	// followed by a word character; among such matches the leftmost, then
	// longest, is chosen.
	MatchWords
	// MatchLines is grep -x: a match must span a whole line.
	MatchLines
	// RegComp reads an ERE as glibc's regcomp does with REG_EXTENDED
	// (bash's [[ =~ ]]), not as GNU grep: a repetition operator with
	// nothing to repeat (at the start of a branch or after an anchor: *a,
	// (+a), ^*, $?, {1}a) and a '{' that starts no valid interval (a{,
	// a{x}) are errors, where grep ignores them or reads them literally.
	// In a BRE it is glibc's RE_SYNTAX_POSIX_BASIC, as GNU sed compiles
	// one (RE_CONTEXT_INVALID_DUP): \{ at the start of the expression, a
	// group or an alternative, and * or \{ right after a repetition
	// (a**, a\{1\}*), are errors; grep reads the first literally and
	// takes the second.
	RegComp
	// NoGNUOps is glibc's RE_LIMITED_OPS and RE_NO_GNU_OPS, as sed
	// --posix sets them: in a BRE \+, \? and \| are the literal +, ? and |,
	// and in both dialects \w \W \s \S \b \B \< \> \` \' stand for the
	// letter or sign after the backslash.
	NoGNUOps
	// CloseError makes an unmatched ')' in an ERE an error, "Unmatched ) or
	// \)", as GNU sed's extended syntax (without glibc's
	// RE_UNMATCHED_RIGHT_PAREN_ORD), where grep and regcomp read it as a
	// literal ')'.
	CloseError
	// Bytes is the C (POSIX) locale of GNU's tools (LC_ALL=C): every byte
	// of the pattern and of the subject is one character, the classes,
	// \w, \s and the word characters are ASCII's, and IgnoreCase folds
	// ASCII letters only (session 23: `.` matched the two bytes of "é").
	Bytes
	// EmptyRanges is glibc's syntax without RE_NO_EMPTY_RANGES, as GNU
	// expr, csplit, nl and find's default (emacs) regex type compile: a
	// range whose end sorts before its start ([b-a]) is empty where grep
	// and sed say "Invalid range end".
	EmptyRanges
)

// ErrBackref is returned by Translate for a pattern with a back-reference,
// which RE2 cannot express. Compile handles such patterns itself.
var ErrBackref = errors.New("posixre: back-references are not expressible in RE2")

// ErrNotRE2 is returned by Translate for a pattern RE2 cannot express for
// another reason (a pattern byte that is not UTF-8, a repetition count over
// 1000). Compile handles such patterns itself.
var ErrNotRE2 = errors.New("posixre: pattern is not expressible in RE2")

// Error is a syntax error, worded as GNU regcomp words it ("Unmatched ( or
// \\(") so that grep and sed can print it unchanged.
type Error struct {
	Msg string
}

func (e *Error) Error() string { return e.Msg }

// GNU regcomp's messages.
var (
	errBrack    = &Error{"Unmatched [, [^, [:, [., or [="}
	errParen    = &Error{"Unmatched ( or \\("}
	errRParen   = &Error{"Unmatched ) or \\)"}
	errBrace    = &Error{"Unmatched \\{"}
	errBadBrace = &Error{"Invalid content of \\{\\}"}
	errRange    = &Error{"Invalid range end"}
	errCtype    = &Error{"Invalid character class name"}
	errEscape   = &Error{"Trailing backslash"}
	errSubreg   = &Error{"Invalid back reference"}
	errBig      = &Error{"Regular expression too big"}
	errCollate  = &Error{"Invalid collation character"}
	errInvalid  = &Error{"Invalid regular expression"}
	errClassSyn = &Error{"character class syntax is [[:space:]], not [:space:]"}
	errBadRpt   = &Error{"Invalid preceding regular expression"}
)

// dupMax is GNU's RE_DUP_MAX.
const dupMax = 0x7fff

type kind uint8

const (
	kLit     kind = iota // c
	kAny                 // any character (not newline in Lines mode)
	kClass               // ranges, neg
	kConcat              // sub
	kAlt                 // sub
	kRepeat              // sub[0], min, max (-1: no limit)
	kGroup               // sub[0], n = group number
	kBackref             // n = group number
	kAssert              // n = assertion
	kEmpty
)

// Assertions.
const (
	aBOL        = iota // ^
	aEOL               // $
	aBOT               // \`
	aEOT               // \'
	aWordB             // \b
	aNotWordB          // \B
	aWordStart         // \<
	aWordEnd           // \>
	aNotAfterW         // -w: not preceded by a word character
	aNotBeforeW        // -w: not followed by a word character
)

// A char is a rune, or invalidBase+b for a byte b that is not part of a
// valid UTF-8 sequence.
const invalidBase = 0x110000

type node struct {
	kind     kind
	c        int32
	ranges   []int32 // pairs lo, hi, inclusive
	neg      bool
	min, max int
	n        int
	sub      []*node
}

type parser struct {
	p      string
	i      int
	ere    bool
	strict bool         // RegComp
	close  bool         // CloseError
	dups   bool         // RegComp in a BRE
	nognu  bool         // NoGNUOps
	groups int          // groups opened so far
	closed map[int]bool // groups closed so far
	// Warnings collects GNU's warnings ("* at start of expression").
	warnings []string
	backref  bool
	bytes    bool // Bytes
	empty    bool // EmptyRanges
}

// decode is decodeChar, or in Bytes mode the byte at s[i].
func (ps *parser) decode(s string, i int) (int32, int) {
	if ps.bytes {
		return int32(s[i]), 1
	}
	return decodeChar(s, i)
}

// class returns ranges, in Bytes mode clipped to ASCII (the C locale's
// classes are the ASCII part of C.UTF-8's).
func (ps *parser) class(ranges []int32) []int32 {
	if !ps.bytes {
		return ranges
	}
	return rangeMinus(ranges, []int32{utf8.RuneSelf, invalidBase + 0xff})
}

// decode returns the char at p[i:] and its width.
func decodeChar(s string, i int) (int32, int) {
	c := s[i]
	if c < utf8.RuneSelf {
		return int32(c), 1
	}
	r, w := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && w == 1 {
		return invalidBase + int32(c), 1
	}
	return r, w
}

// MaxLen bounds the length of a pattern (session 25, red team): parsing
// and compiling one look at no context and take time and memory in
// proportion to it (a 2 MB alternation, `seq 100000 399999 | paste
// -sd'|'`, took 2-7 s in grep -E, sed or expr whatever the run's time
// limit), so a longer one fails with glibc's REG_ESIZE message, as
// `[[ =~ ]]` refuses one (status 2) since session 24.
const MaxLen = 1 << 20

func parse(pat string, fl Flags) (*node, *parser, error) {
	if len(pat) > MaxLen {
		return nil, nil, errBig
	}
	ps := &parser{p: pat, ere: fl&ERE != 0, strict: fl&(ERE|RegComp) == ERE|RegComp, close: fl&(ERE|CloseError) == ERE|CloseError, dups: fl&(ERE|RegComp) == RegComp, closed: map[int]bool{}, nognu: fl&NoGNUOps != 0, bytes: fl&Bytes != 0, empty: fl&EmptyRanges != 0}
	n, err := ps.alt(0)
	if err != nil {
		return nil, nil, err
	}
	if ps.i < len(ps.p) {
		// Only an unmatched close can stop the top level.
		return nil, nil, errRParen
	}
	return n, ps, nil
}

func (ps *parser) atAltSep() bool {
	if ps.ere {
		return ps.i < len(ps.p) && ps.p[ps.i] == '|'
	}
	return !ps.nognu && ps.i+1 < len(ps.p) && ps.p[ps.i] == '\\' && ps.p[ps.i+1] == '|'
}

func (ps *parser) atClose(depth int) bool {
	if ps.ere {
		return depth > 0 && ps.i < len(ps.p) && ps.p[ps.i] == ')'
	}
	return ps.i+1 < len(ps.p) && ps.p[ps.i] == '\\' && ps.p[ps.i+1] == ')'
}

func (ps *parser) alt(depth int) (*node, error) {
	var branches []*node
	for {
		b, err := ps.branch(depth)
		if err != nil {
			return nil, err
		}
		branches = append(branches, b)
		if !ps.atAltSep() {
			break
		}
		if ps.ere {
			ps.i++
		} else {
			ps.i += 2
		}
	}
	if len(branches) == 1 {
		return branches[0], nil
	}
	return &node{kind: kAlt, sub: branches}, nil
}

func (ps *parser) branch(depth int) (*node, error) {
	var items []*node
	start := true     // at the start of the branch: '*' is literal (BRE)
	afterHat := false // just after a leading '^'
	for ps.i < len(ps.p) {
		if ps.atAltSep() || ps.atClose(depth) {
			break
		}
		if !ps.ere && ps.p[ps.i] == '\\' && ps.i+1 < len(ps.p) && ps.p[ps.i+1] == ')' {
			// A BRE \) at depth 0 is unmatched.
			return nil, errRParen
		}
		if ps.close && ps.p[ps.i] == ')' {
			// atClose did not take it: at depth 0, unmatched.
			return nil, errRParen
		}
		c := ps.p[ps.i]
		// Repetition operators.
		if op, ok := ps.repOp(); ok {
			if ps.strict && (start || afterHat || len(items) > 0 && items[len(items)-1].kind == kAssert) {
				return nil, errBadRpt
			}
			if ps.dups && (op == '{' && (start || afterHat) ||
				(op == '*' || op == '{') && !start && !afterHat && len(items) > 0 && items[len(items)-1].kind == kRepeat) {
				return nil, errBadRpt
			}
			if start || afterHat {
				var lit bool
				if items, lit = ps.startRep(op, items, afterHat); lit {
					start, afterHat = false, false
				}
				continue
			}
			if len(items) == 0 {
				// After an ERE interval that repeated nothing: this
				// one repeats nothing too.
				if _, _, lit, err := ps.repCounts(op); err != nil {
					return nil, err
				} else if lit {
					items = append(items, &node{kind: kLit, c: '{'})
				}
				continue
			}
			min, max, lit, err := ps.repCounts(op)
			if err != nil {
				return nil, err
			}
			if lit {
				items = append(items, &node{kind: kLit, c: '{'})
				continue
			}
			last := items[len(items)-1]
			items[len(items)-1] = &node{kind: kRepeat, min: min, max: max, sub: []*node{last}}
			continue
		}
		start = false
		wasHat := afterHat
		afterHat = false
		switch {
		case c == '^' && (ps.ere || len(items) == 0 && !wasHat):
			ps.i++
			items = append(items, &node{kind: kAssert, n: aBOL})
			if !ps.ere || len(items) == 1 {
				afterHat = true
			}
		case c == '$' && (ps.ere || ps.atBREEnd(ps.i+1, depth)):
			ps.i++
			items = append(items, &node{kind: kAssert, n: aEOL})
		case c == '.':
			ps.i++
			items = append(items, &node{kind: kAny})
		case c == '[':
			n, err := ps.bracket()
			if err != nil {
				return nil, err
			}
			items = append(items, n)
		case ps.ere && c == '(':
			ps.i++
			n, err := ps.group(depth)
			if err != nil {
				return nil, err
			}
			items = append(items, n)
			start = false
		case c == '\\':
			if ps.i+1 >= len(ps.p) {
				return nil, errEscape
			}
			e := ps.p[ps.i+1]
			if !ps.ere && e == '(' {
				ps.i += 2
				n, err := ps.group(depth)
				if err != nil {
					return nil, err
				}
				items = append(items, n)
				continue
			}
			n, err := ps.escape()
			if err != nil {
				return nil, err
			}
			items = append(items, n)
		default:
			r, w := ps.decode(ps.p, ps.i)
			ps.i += w
			items = append(items, &node{kind: kLit, c: r})
		}
	}
	switch len(items) {
	case 0:
		return &node{kind: kEmpty}, nil
	case 1:
		return items[0], nil
	}
	return &node{kind: kConcat, sub: items}, nil
}

// startRep takes a repetition operator op at the start of a branch (or
// just after its leading '^'): a literal in a BRE, and in an ERE a '{'
// that starts no valid interval; another ERE operator, or a valid
// interval, repeats nothing, with GNU grep 3.8's warning. lit tells that
// the branch is no longer at its start: op became an item, or was an
// interval (after which GNU's dfa warns of nothing more).
//
// After a leading '^' (afterHat), an ERE repetition that may repeat zero
// times makes the anchor optional, as GNU's dfa reads "^*a": the '^' is
// dropped ("a" anywhere).
func (ps *parser) startRep(op byte, items []*node, afterHat bool) (_ []*node, lit bool) {
	dropHat := func(min int) []*node {
		if afterHat && min == 0 && len(items) > 0 && items[len(items)-1].kind == kAssert {
			return items[:len(items)-1]
		}
		return items
	}
	if !ps.ere {
		if op == '{' {
			ps.i += 2
			items = append(items, &node{kind: kLit, c: '{'})
		} else {
			// BRE: '*' (or \+ \?) at the start is literal.
			w := 1
			if op != '*' {
				w = 2
			}
			ps.i += w
			items = append(items, &node{kind: kLit, c: int32(op)})
		}
		return items, true
	}
	if op == '{' {
		// ERE: a valid interval at the start repeats nothing ("{1}a" is
		// "a"); a '{' that starts none is literal.
		at := ps.i
		if min, _, lit, err := ps.repCounts(op); err == nil && !lit {
			ps.warnings = append(ps.warnings, "{...} at start of expression")
			return dropHat(min), true
		}
		ps.i = at + 1
		items = append(items, &node{kind: kLit, c: '{'})
		return items, true
	}
	// ERE: a leading '*', '+' or '?' repeats nothing.
	ps.warnings = append(ps.warnings, string(rune(op))+" at start of expression")
	ps.i++
	if op == '+' {
		return items, false
	}
	return dropHat(0), false
}

// atBREEnd reports whether a BRE '$' before position j is an anchor: at the
// end of the pattern, or before \) or \|.
func (ps *parser) atBREEnd(j, depth int) bool {
	if j == len(ps.p) {
		return true
	}
	if j+1 < len(ps.p) && ps.p[j] == '\\' && (ps.p[j+1] == '|' && !ps.nognu || ps.p[j+1] == ')' && depth > 0) {
		return true
	}
	return false
}

func (ps *parser) group(depth int) (*node, error) {
	ps.groups++
	n := ps.groups
	sub, err := ps.alt(depth + 1)
	if err != nil {
		return nil, err
	}
	if ps.ere {
		if ps.i >= len(ps.p) || ps.p[ps.i] != ')' {
			return nil, errParen
		}
		ps.i++
	} else {
		if ps.i+1 >= len(ps.p) || ps.p[ps.i] != '\\' || ps.p[ps.i+1] != ')' {
			return nil, errParen
		}
		ps.i += 2
	}
	ps.closed[n] = true
	return &node{kind: kGroup, n: n, sub: []*node{sub}}, nil
}

// repOp reports a repetition operator at the current position: '*', '+',
// '?' or '{' (BRE: '*', \+, \?, \{).
func (ps *parser) repOp() (byte, bool) {
	c := ps.p[ps.i]
	if c == '*' {
		return '*', true
	}
	if ps.ere {
		switch c {
		case '+', '?', '{':
			return c, true
		}
		return 0, false
	}
	if c == '\\' && ps.i+1 < len(ps.p) {
		switch ps.p[ps.i+1] {
		case '+', '?':
			return ps.p[ps.i+1], !ps.nognu
		case '{':
			return '{', true
		}
	}
	return 0, false
}

// repCounts consumes a repetition operator. lit reports an ERE '{' that
// GNU takes literally (it has been consumed).
func (ps *parser) repCounts(op byte) (min, max int, lit bool, err error) {
	w := 1
	if !ps.ere && op != '*' {
		w = 2
	}
	switch op {
	case '*':
		ps.i += w
		return 0, -1, false, nil
	case '+':
		ps.i += w
		return 1, -1, false, nil
	case '?':
		ps.i += w
		return 0, 1, false, nil
	}
	open := ps.i
	j := ps.i + w
	num := func() (int, bool) {
		k := j
		v := 0
		for j < len(ps.p) && ps.p[j] >= '0' && ps.p[j] <= '9' {
			if v <= dupMax {
				v = v*10 + int(ps.p[j]-'0')
			}
			j++
		}
		return v, j > k
	}
	bad := func() (int, int, bool, error) {
		if ps.strict {
			if j >= len(ps.p) {
				return 0, 0, false, errBrace
			}
			return 0, 0, false, errBadBrace
		}
		if ps.ere {
			ps.i = open + 1
			return 0, 0, true, nil
		}
		for k := j; k+1 < len(ps.p); k++ {
			if ps.p[k] == '\\' && ps.p[k+1] == '}' {
				return 0, 0, false, errBadBrace
			}
		}
		return 0, 0, false, errBrace
	}
	lo, haveLo := num()
	hi := lo
	if j < len(ps.p) && ps.p[j] == ',' {
		j++
		var haveHi bool
		hi, haveHi = num()
		if !haveHi {
			hi = -1
		}
		if !haveLo {
			lo = 0
		}
	} else if !haveLo {
		return bad()
	}
	if ps.ere {
		if j >= len(ps.p) || ps.p[j] != '}' {
			return bad()
		}
		j++
	} else {
		if j+1 >= len(ps.p) || ps.p[j] != '\\' || ps.p[j+1] != '}' {
			return bad()
		}
		j += 2
	}
	if hi != -1 && hi < lo {
		return 0, 0, false, errBadBrace
	}
	if lo > dupMax || hi > dupMax {
		return 0, 0, false, errBig
	}
	ps.i = j
	return lo, hi, false, nil
}

func (ps *parser) escape() (*node, error) {
	e := ps.p[ps.i+1]
	ps.i += 2
	if ps.nognu && strings.IndexByte("wWsSbB<>`'", e) >= 0 {
		return &node{kind: kLit, c: int32(e)}, nil
	}
	switch e {
	case 'w', 'W':
		return &node{kind: kClass, ranges: ps.class(wordRanges()), neg: e == 'W'}, nil
	case 's', 'S':
		return &node{kind: kClass, ranges: ps.class(spaceRanges()), neg: e == 'S'}, nil
	case 'b':
		return &node{kind: kAssert, n: aWordB}, nil
	case 'B':
		return &node{kind: kAssert, n: aNotWordB}, nil
	case '<':
		return &node{kind: kAssert, n: aWordStart}, nil
	case '>':
		return &node{kind: kAssert, n: aWordEnd}, nil
	case '`':
		return &node{kind: kAssert, n: aBOT}, nil
	case '\'':
		return &node{kind: kAssert, n: aEOT}, nil
	case '1', '2', '3', '4', '5', '6', '7', '8', '9':
		n := int(e - '0')
		if !ps.closed[n] {
			return nil, errSubreg
		}
		ps.backref = true
		return &node{kind: kBackref, n: n}, nil
	}
	// Any other escaped character stands for itself.
	r, w := ps.decode(ps.p, ps.i-1)
	ps.i += w - 1
	return &node{kind: kLit, c: r}, nil
}

// bracket parses a bracket expression; ps.i is at '['.
func (ps *parser) bracket() (*node, error) {
	open := ps.i
	ps.i++
	n := &node{kind: kClass}
	if ps.i < len(ps.p) && ps.p[ps.i] == '^' {
		n.neg = true
		ps.i++
	}
	if ps.i >= len(ps.p) {
		return nil, errInvalid
	}
	// "[:alpha:]" written without the outer brackets.
	if ps.p[ps.i] == ':' && !n.neg {
		if k := indexFrom(ps.p, ps.i+1, ']'); k > ps.i+1 && ps.p[k-1] == ':' && k-1 > ps.i {
			if classNames[ps.p[ps.i+1:k-1]] {
				return nil, errClassSyn
			}
		}
	}
	first := true
	for {
		if ps.i >= len(ps.p) {
			return nil, errBrack
		}
		c := ps.p[ps.i]
		if c == ']' && !first {
			ps.i++
			break
		}
		first = false
		var lo int32
		if c == '[' && ps.i+1 < len(ps.p) && (ps.p[ps.i+1] == ':' || ps.p[ps.i+1] == '=' || ps.p[ps.i+1] == '.') {
			delim := ps.p[ps.i+1]
			name, ok := ps.bracketName()
			if !ok {
				return nil, errBrack
			}
			if delim == ':' {
				r, ok := classRanges(name)
				if !ok {
					return nil, errCtype
				}
				n.ranges = append(n.ranges, ps.class(r)...)
				continue
			}
			r, err := ps.collElem(name)
			if err != nil {
				return nil, err
			}
			lo = r
			if delim == '=' {
				n.ranges = append(n.ranges, lo, lo)
				continue
			}
		} else {
			var w int
			lo, w = ps.decode(ps.p, ps.i)
			ps.i += w
		}
		// A range?
		if ps.i+1 < len(ps.p) && ps.p[ps.i] == '-' && ps.p[ps.i+1] != ']' {
			ps.i++
			var hi int32
			if ps.p[ps.i] == '[' && ps.i+1 < len(ps.p) && (ps.p[ps.i+1] == '.' || ps.p[ps.i+1] == '=') {
				name, ok := ps.bracketName()
				if !ok {
					return nil, errBrack
				}
				r, err := ps.collElem(name)
				if err != nil {
					return nil, err
				}
				hi = r
			} else if ps.p[ps.i] == '[' && ps.i+1 < len(ps.p) && ps.p[ps.i+1] == ':' {
				return nil, errRange
			} else {
				var w int
				hi, w = ps.decode(ps.p, ps.i)
				ps.i += w
			}
			if hi < lo && ps.empty {
				continue
			}
			if hi < lo {
				return nil, errRange
			}
			n.ranges = append(n.ranges, lo, hi)
			continue
		}
		n.ranges = append(n.ranges, lo, lo)
	}
	_ = open
	n.ranges = rangeUnion(n.ranges) // sorted, for inSorted
	return n, nil
}

// bracketName reads the [:name:], [=name=] or [.name.] that starts at
// ps.i inside a bracket expression (ps.p[ps.i+1] is the delimiter) and
// moves past it; false when it is not closed.
func (ps *parser) bracketName() (string, bool) {
	delim := ps.p[ps.i+1]
	for k := ps.i + 2; k+1 < len(ps.p); k++ {
		if ps.p[k] == delim && ps.p[k+1] == ']' {
			name := ps.p[ps.i+2 : k]
			ps.i = k + 2
			return name, true
		}
	}
	return "", false
}

// collElem returns the character that the name of a [.c.] or [=c=]
// stands for: exactly one, else errCollate.
func (ps *parser) collElem(name string) (int32, error) {
	if name == "" {
		return 0, errCollate
	}
	r, w := ps.decode(name, 0)
	if w != len(name) {
		return 0, errCollate
	}
	return r, nil
}

func indexFrom(s string, i int, c byte) int {
	for ; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// quoteChar writes c for RE2, escaped where RE2 would read it specially.
func appendChar(b []byte, c int32, inClass bool) []byte {
	if c < utf8.RuneSelf {
		ch := byte(c)
		switch {
		case ch >= 'a' && ch <= 'z', ch >= 'A' && ch <= 'Z', ch >= '0' && ch <= '9', ch == '_':
			return append(b, ch)
		case ch < ' ' || ch == 0x7f:
			b = append(b, `\x`...)
			return strconv.AppendUint(append(b, "0123456789abcdef"[ch>>4]), uint64(ch&15), 16)
		}
		if inClass && ch == ' ' {
			return append(b, ' ')
		}
		return append(b, '\\', ch)
	}
	return utf8.AppendRune(b, c)
}
