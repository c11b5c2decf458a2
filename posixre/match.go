package posixre

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/llmsh/llmsh/internal/stopre"
)

// ErrTooComplex is returned by a match that the backtracking matcher gave
// up on: it would have taken too long. It is never a silent non-match.
var ErrTooComplex = errors.New("regular expression too complex to match (back-references)")

// btBudget bounds the work of one backtracking search.
const btBudget = 20_000_000

// Regexp is a compiled POSIX pattern. Its methods are safe for concurrent
// use.
type Regexp struct {
	re      *regexp.Regexp // RE2 form (exact, or a superset when checks != nil); nil: backtrack only
	tr      *Translation
	srch    *stopre.Searcher // re's stoppable search (MatchContext, FindAllContext)
	root    *node
	fl      Flags
	ngroups int
	budget  int // steps a backtracking search may take (btBudget)
	// transparent: in Bytes mode, the pattern matches a subject as it
	// does its Latin-1 form (bytes.go).
	transparent bool
	// Warnings are GNU's warnings about the pattern.
	Warnings []string
	// u8: the forms for a subject that is not UTF-8, nil when the pattern
	// matches it as RE2 does (utf8.go).
	u8 *utf8Forms
}

// Compile parses pat (see Translate) and prepares it for matching.
func Compile(pat string, fl Flags) (*Regexp, error) {
	root, ps, err := parse(pat, fl)
	if err != nil {
		return nil, err
	}
	return compileTree(root, ps, fl)
}

func compileTree(root *node, ps *parser, fl Flags) (*Regexp, error) {
	switch {
	case fl&MatchLines != 0:
		root = &node{kind: kConcat, sub: []*node{{kind: kAssert, n: aBOL}, root, {kind: kAssert, n: aEOL}}}
	case fl&MatchWords != 0:
		root = &node{kind: kConcat, sub: []*node{{kind: kAssert, n: aNotAfterW}, root, {kind: kAssert, n: aNotBeforeW}}}
	}
	r := &Regexp{root: root, fl: fl, ngroups: ps.groups, budget: btBudget, Warnings: ps.warnings}
	t, err := translateTree(root, ps, fl)
	if err == nil {
		re, cerr := regexp.Compile(t.Expr)
		if cerr == nil {
			re.Longest()
			r.re, r.tr, r.srch = re, t, stopre.New(re, true)
		}
	} else if err != ErrBackref && err != ErrNotRE2 {
		return nil, err
	}
	r.transparent = fl&Bytes != 0 && r.re != nil && isTransparent(root)
	if fl&Bytes == 0 && r.re != nil && sensitive(root) {
		r.u8 = &utf8Forms{}
	}
	return r, nil
}

// NumSubexp returns the number of parenthesised groups of the pattern.
func (r *Regexp) NumSubexp() int { return r.ngroups }

// RE2 returns the RE2 form of the pattern, if it has one, and whether its
// matches are exactly the pattern's. When exact is false, every match of
// the pattern is a match of re but not the reverse: confirm with Match.
// In Bytes mode only a pattern that matches raw bytes as its RE2 form
// does has one (bytes.go).
func (r *Regexp) RE2() (re *regexp.Regexp, exact bool) {
	if r.re == nil || r.fl&Bytes != 0 && !r.transparent {
		return nil, false
	}
	return r.re, len(r.tr.Checks) == 0
}

// Match reports whether b contains a match.
func (r *Regexp) Match(b []byte) (bool, error) {
	if v := r.forSubject(b); v != r {
		return v.Match(b)
	}
	if r.needLatin1(b) {
		b = toLatin1(b).b
	}
	if r.re != nil {
		if len(r.tr.Checks) == 0 {
			return r.re.Match(b), nil
		}
		loc := r.re.FindSubmatchIndex(b)
		if loc == nil {
			return false, nil
		}
		if r.checksHold(b, loc) {
			return true, nil
		}
	}
	m := r.newBT(b)
	loc, err := m.find(0)
	return loc != nil, err
}

// FindAll calls fn with each successive non-overlapping match of b, as
// Go's FindAllSubmatchIndex finds them (an empty match right after a match
// is skipped), at most n of them if n >= 0, until fn returns false. loc
// holds 2*(NumSubexp()+1) offsets, -1 for a group that did not take part;
// fn must not keep it.
func (r *Regexp) FindAll(b []byte, n int, fn func(loc []int) bool) error {
	if v := r.forSubject(b); v != r {
		return v.FindAll(b, n, fn)
	}
	if r.needLatin1(b) {
		l := toLatin1(b)
		return r.findAll(context.TODO(), l.b, n, l.mapped(fn))
	}
	return r.findAll(context.TODO(), b, n, fn)
}

// findAll is FindAll, its backtracking stopped by ctx if not nil.
func (r *Regexp) findAll(ctx context.Context, b []byte, n int, fn func(loc []int) bool) error {
	var all [][]int
	ok := r.re != nil
	if ok {
		all = r.re.FindAllSubmatchIndex(b, n)
		for _, loc := range all {
			if !r.checksHold(b, loc) {
				ok = false
				break
			}
		}
	}
	return r.yieldAll(ctx, b, all, ok, n, fn)
}

// yieldAll gives fn the RE2 form's matches all, mapped to the pattern's
// groups, when ok says that their checks held; else the backtracking
// matcher finds the matches anew, stopped by ctx.
func (r *Regexp) yieldAll(ctx context.Context, b []byte, all [][]int, ok bool, n int, fn func(loc []int) bool) error {
	if ok {
		out := make([]int, 2*(r.ngroups+1))
		for _, loc := range all {
			r.mapGroups(out, loc)
			if !fn(out) {
				break
			}
		}
		return nil
	}
	m := r.newBT(b)
	m.ctx = ctx
	return m.findAll(n, fn)
}

// findAll is FindAll by the backtracking matcher.
func (m *bt) findAll(n int, fn func(loc []int) bool) error {
	b := m.b
	pos, prevEnd, count := 0, -1, 0
	for pos <= len(b) && (n < 0 || count < n) {
		loc, err := m.find(pos)
		if err != nil || loc == nil {
			return err
		}
		accept := true
		if loc[1] == loc[0] && loc[0] == prevEnd {
			accept = false
		}
		if loc[1] == loc[0] {
			// Advance one character past an empty match.
			w := 1
			if loc[0] < len(b) {
				_, w = m.char(loc[0])
			}
			pos = loc[0] + w
		} else {
			pos = loc[1]
		}
		prevEnd = loc[1]
		if accept {
			count++
			if !fn(loc) {
				return nil
			}
		}
	}
	return nil
}

// FindSubmatchIndex returns the leftmost-longest match of b, or nil.
func (r *Regexp) FindSubmatchIndex(b []byte) ([]int, error) {
	var out []int
	err := r.FindAll(b, 1, func(loc []int) bool {
		out = append([]int(nil), loc...)
		return false
	})
	return out, err
}

func (r *Regexp) mapGroups(out, loc []int) {
	out[0], out[1] = loc[0], loc[1]
	for g := 1; g <= r.ngroups; g++ {
		k := r.tr.Groups[g]
		if k == 0 {
			out[2*g], out[2*g+1] = -1, -1
			continue
		}
		out[2*g], out[2*g+1] = loc[2*k], loc[2*k+1]
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// WordBefore reports whether a word character (alnum or '_') ends at
// b[i], as grep -w's test reads b; bytes is Bytes mode (the C locale),
// where only ASCII ones are.
func WordBefore(b []byte, i int, bytes bool) bool { return wordBefore(b, i, bytes) }

// WordAfter reports whether a word character starts at b[i] (see
// WordBefore).
func WordAfter(b []byte, i int, bytes bool) bool { return wordAfter(b, i, bytes) }

// wordBefore reports whether a word character ends at b[i]; in Bytes
// mode (asciiOnly) only ASCII ones are, whether b is the subject or its
// Latin-1 form.
func wordBefore(b []byte, i int, asciiOnly bool) bool {
	if i <= 0 {
		return false
	}
	if b[i-1] < utf8.RuneSelf || asciiOnly {
		return isWordByte(b[i-1])
	}
	r, w := utf8.DecodeLastRune(b[:i])
	return w > 1 && isWordChar(r)
}

// wordAfter reports whether a word character starts at b[i] (see
// wordBefore).
func wordAfter(b []byte, i int, asciiOnly bool) bool {
	if i >= len(b) {
		return false
	}
	if b[i] < utf8.RuneSelf || asciiOnly {
		return isWordByte(b[i])
	}
	r, w := utf8.DecodeRune(b[i:])
	return w > 1 && isWordChar(r)
}

func (r *Regexp) checksHold(b []byte, loc []int) bool {
	bytes := r.fl&Bytes != 0
	for _, c := range r.tr.Checks {
		i := loc[2*c.Group]
		if i < 0 {
			continue
		}
		switch c.Kind {
		case WordStart:
			if !wordAfter(b, i, bytes) || wordBefore(b, i, bytes) {
				return false
			}
		case WordEnd:
			if !wordBefore(b, i, bytes) || wordAfter(b, i, bytes) {
				return false
			}
		case NotAfterWord:
			if wordBefore(b, i, bytes) {
				return false
			}
		case NotBeforeWord:
			if wordAfter(b, i, bytes) {
				return false
			}
		case WordBoundary, NotWordBoundary:
			if (wordBefore(b, i, bytes) != wordAfter(b, i, bytes)) != (c.Kind == WordBoundary) {
				return false
			}
		}
	}
	return true
}

// Must returns a string that every match contains, or "" if none is
// known. With IgnoreCase, a match contains it up to case (and only ASCII
// strings are returned). A caller can search for it with bytes.Index
// before running the matcher.
func (r *Regexp) Must() string {
	m := mustOf(r.root, r.fl&Bytes != 0)
	if r.fl&IgnoreCase != 0 {
		for _, c := range m {
			if c >= utf8.RuneSelf {
				return ""
			}
		}
		if r.fl&Bytes == 0 {
			// s and i match ſ and ı in UTF-8 (fold.go): the longest
			// part without them.
			best := ""
			for _, part := range strings.FieldsFunc(string(m), func(c rune) bool { return strings.ContainsRune("sSiI", c) }) {
				if len(part) > len(best) {
					best = part
				}
			}
			return best
		}
	}
	return string(m)
}

func mustOf(n *node, bytes bool) []byte {
	switch n.kind {
	case kLit:
		if bytes {
			return []byte{byte(n.c)}
		}
		if n.c >= invalidBase {
			return []byte{byte(n.c - invalidBase)}
		}
		return utf8.AppendRune(nil, n.c)
	case kGroup:
		return mustOf(n.sub[0], bytes)
	case kRepeat:
		if n.min >= 1 {
			return mustOf(n.sub[0], bytes)
		}
	case kConcat:
		var best, run []byte
		for _, s := range n.sub {
			switch {
			case s.kind == kLit:
				run = append(run, mustOf(s, bytes)...)
			case s.kind == kAssert:
				// Zero-width: a run of literals continues across it.
			default:
				if m := mustOf(s, bytes); len(m) > len(best) {
					best = m
				}
				if len(run) > len(best) {
					best = run
				}
				run = nil
			}
		}
		if len(run) > len(best) {
			best = run
		}
		return best
	}
	return nil
}

// bt is the backtracking matcher over the syntax tree, for patterns RE2
// cannot match exactly. It explores every path from a start position and
// keeps the longest match (POSIX), preferring the first path found.
type bt struct {
	r     *Regexp
	b     []byte
	caps  []int
	best  []int
	steps int
	icase bool
	lines bool
	ascii bool            // Bytes: b is the subject's Latin-1 form, only ASCII letters fold
	ctx   context.Context // looked at every 65536 steps when not nil
}

type budgetExceeded struct{}

// btStopped carries ctx's error out of a search (MatchContext,
// FindAllContext): a search within its budget took up to 25 s.
type btStopped struct{ err error }

func (r *Regexp) newBT(b []byte) *bt {
	return &bt{r: r, b: b, caps: make([]int, 2*(r.ngroups+1)), best: make([]int, 2*(r.ngroups+1)),
		icase: r.fl&IgnoreCase != 0, lines: r.fl&Lines != 0, ascii: r.fl&Bytes != 0}
}

// find returns the leftmost-longest match starting at or after from.
func (m *bt) find(from int) (loc []int, err error) {
	defer func() {
		if v := recover(); v != nil {
			if st, ok := v.(btStopped); ok {
				loc, err = nil, st.err
				return
			}
			if _, ok := v.(budgetExceeded); !ok {
				panic(v)
			}
			loc, err = nil, ErrTooComplex
		}
	}()
	m.steps = 0
	for p := from; p <= len(m.b); {
		for i := range m.caps {
			m.caps[i] = -1
		}
		bestEnd := -1
		m.match(m.r.root, p, func(j int) bool {
			if j > bestEnd {
				bestEnd = j
				copy(m.best, m.caps)
			}
			return j == len(m.b)
		})
		if bestEnd >= 0 {
			m.best[0], m.best[1] = p, bestEnd
			return m.best, nil
		}
		if p == len(m.b) {
			break
		}
		_, w := m.char(p)
		p += w
	}
	return nil, nil
}

// char decodes the character at i.
func (m *bt) char(i int) (int32, int) {
	c := m.b[i]
	if c < utf8.RuneSelf {
		return int32(c), 1
	}
	r, w := utf8.DecodeRune(m.b[i:])
	if r == utf8.RuneError && w == 1 {
		return invalidBase + int32(c), 1
	}
	return r, w
}

func (m *bt) step() {
	m.steps++
	if m.steps&0xffff == 0 && m.ctx != nil {
		if err := m.ctx.Err(); err != nil {
			panic(btStopped{err})
		}
	}
	if m.steps > m.r.budget {
		panic(budgetExceeded{})
	}
}

// foldEq reports whether a and b are the same letter up to case; in
// Bytes mode (asciiOnly) only ASCII letters fold.
func foldEq(a, b int32, asciiOnly bool) bool {
	if a == b {
		return true
	}
	if asciiOnly {
		return asciiLetter(a) && a^0x20 == b
	}
	if a >= invalidBase || b >= invalidBase {
		return false
	}
	if set := gnuFoldSet(b); set != nil {
		return slices.Contains(set, a) // b's set as GNU's (fold.go)
	}
	for f := unicode.SimpleFold(a); f != a; f = unicode.SimpleFold(f) {
		if f == b {
			return true
		}
	}
	return false
}

func (m *bt) classMatch(n *node, c int32) bool {
	if c == '\n' && m.r.fl&Lines != 0 {
		return false // see classRangesFor
	}
	ranges, neg := n.ranges, n.neg
	if neg && c >= invalidBase {
		return false // see kAny
	}
	in := inSorted(ranges, c)
	if !in && m.icase && m.ascii {
		in = asciiLetter(c) && inSorted(ranges, c^0x20)
	} else if !in && m.icase && c < invalidBase {
		for f := unicode.SimpleFold(c); f != c; f = unicode.SimpleFold(f) {
			if inSorted(ranges, f) {
				in = true
				break
			}
		}
	}
	return in != neg
}

// match matches n at i and calls k with each end position, in preference
// order, until k returns true.
func (m *bt) match(n *node, i int, k func(int) bool) bool {
	m.step()
	switch n.kind {
	case kEmpty:
		return k(i)
	case kLit:
		if i >= len(m.b) {
			return false
		}
		c, w := m.char(i)
		if c == n.c || m.icase && foldEq(c, n.c, m.ascii) {
			return k(i + w)
		}
		return false
	case kAny:
		if i >= len(m.b) {
			return false
		}
		c, w := m.char(i)
		if c == '\n' && m.lines || c >= invalidBase {
			return false // an encoding error is no character (utf8.go)
		}
		return k(i + w)
	case kClass:
		if i >= len(m.b) {
			return false
		}
		c, w := m.char(i)
		if m.classMatch(n, c) {
			return k(i + w)
		}
		return false
	case kConcat:
		return m.seq(n.sub, i, k)
	case kAlt:
		for _, s := range n.sub {
			if m.match(s, i, k) {
				return true
			}
		}
		return false
	case kGroup:
		g := n.n
		os, oe := m.caps[2*g], m.caps[2*g+1]
		if m.match(n.sub[0], i, func(j int) bool {
			ps, pe := m.caps[2*g], m.caps[2*g+1]
			m.caps[2*g], m.caps[2*g+1] = i, j
			if k(j) {
				return true
			}
			m.caps[2*g], m.caps[2*g+1] = ps, pe
			return false
		}) {
			return true
		}
		m.caps[2*g], m.caps[2*g+1] = os, oe
		return false
	case kRepeat:
		return m.rep(n, 0, i, k)
	case kBackref:
		s, e := m.caps[2*n.n], m.caps[2*n.n+1]
		if s < 0 {
			return false
		}
		j := i
		for p := s; p < e; {
			if j >= len(m.b) {
				return false
			}
			c1, w1 := m.char(p)
			c2, w2 := m.char(j)
			if c1 != c2 && !(m.icase && foldEq(c1, c2, m.ascii)) {
				return false
			}
			p += w1
			j += w2
		}
		return k(j)
	case kAssert:
		if m.assert(n.n, i) {
			return k(i)
		}
		return false
	}
	return false
}

func (m *bt) seq(items []*node, i int, k func(int) bool) bool {
	if len(items) == 0 {
		return k(i)
	}
	return m.match(items[0], i, func(j int) bool { return m.seq(items[1:], j, k) })
}

func (m *bt) rep(n *node, count, i int, k func(int) bool) bool {
	if n.max < 0 || count < n.max {
		if m.match(n.sub[0], i, func(j int) bool {
			if j == i && count >= n.min {
				return false // an empty iteration adds nothing
			}
			return m.rep(n, count+1, j, k)
		}) {
			return true
		}
	}
	if count >= n.min {
		return k(i)
	}
	return false
}

func (m *bt) assert(a, i int) bool {
	b, bytes := m.b, m.r.fl&Bytes != 0
	switch a {
	case aBOL:
		return i == 0 || m.lines && b[i-1] == '\n'
	case aEOL:
		return i == len(b) || m.lines && b[i] == '\n'
	case aBOT:
		if m.r.fl&Lines != 0 {
			return i == 0 || b[i-1] == '\n'
		}
		return i == 0
	case aEOT:
		if m.r.fl&Lines != 0 {
			return i == len(b) || b[i] == '\n'
		}
		return i == len(b)
	case aWordB:
		return wordBefore(b, i, bytes) != wordAfter(b, i, bytes)
	case aNotWordB:
		return wordBefore(b, i, bytes) == wordAfter(b, i, bytes)
	case aWordStart:
		return !wordBefore(b, i, bytes) && wordAfter(b, i, bytes)
	case aWordEnd:
		return wordBefore(b, i, bytes) && !wordAfter(b, i, bytes)
	case aNotAfterW:
		return !wordBefore(b, i, bytes)
	case aNotBeforeW:
		return !wordAfter(b, i, bytes)
	}
	return false
}
