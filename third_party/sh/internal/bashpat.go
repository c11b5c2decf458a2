// llmsh: bash's pattern matching, written for the fork (see LLMSH.md).

package internal

import (
	"context"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// PatMode says how a [BashPattern] matches.
type PatMode uint

const (
	// PatFilename matches a file name: a leading dot is matched only by a
	// literal dot (unless PatDotGlob), as bash's pathname expansion does.
	PatFilename PatMode = 1 << iota
	// PatDotGlob lets wildcards match a leading dot (shopt dotglob).
	PatDotGlob
	// PatNoCase matches letters without regard to case (nocaseglob,
	// nocasematch).
	PatNoCase
	// PatExtGlob reads ?(…) *(…) +(…) @(…) !(…) as bash's extended
	// patterns (shopt extglob); without it they are ordinary characters.
	PatExtGlob
	// PatPathname matches as bash's strmatch with FNM_PATHNAME (llmsh:
	// GLOBIGNORE's patterns): ? never matches a slash, nor does a * that
	// other pattern follows; * at the end of the pattern matches the
	// rest, slashes too (GLOBIGNORE=d/* ignores d/e/f).
	PatPathname
)

type patKind uint8

const (
	patLit  patKind = iota // one character
	patAny                 // ?
	patStar                // *
	patSet                 // [...]
	patExt                 // ?(…) *(…) +(…) @(…) !(…)
)

type patNode struct {
	kind patKind
	r    rune
	set  *bracketSet
	op   byte
	alts [][]patNode
}

type bracketSet struct {
	neg   bool
	items []setItem
	minus *bracketSet // llmsh: what it does not match all the same (equivTail)
}

type setItem struct {
	lo, hi rune
	class  string // [:name:]
}

// BashPattern is a compiled bash pattern. Unlike mvdan's pattern
// package, which translates to a regular expression, it matches as bash's
// strmatch does, by backtracking, so that !(…) negates any pattern list
// and a leading dot follows bash's rules inside extended patterns too.
type BashPattern struct {
	nodes []patNode
	mode  PatMode
	only  int // llmsh: 1 + the characters a match must have (Only), or 0
}

// Only returns p matching only strings of n characters (llmsh): bash's
// pattern substitution tries only substrings of the length its
// umatchlen reckons ([BashMatchLen]), which a pattern whose bracket
// expression bash reads on past its ] (equivTail) may exceed.
func (p *BashPattern) Only(n int) *BashPattern {
	q := *p
	q.only = n + 1
	return &q
}

// CompileBashPattern compiles pat. Malformed parts (an unclosed [ or an
// unclosed extended pattern) are ordinary characters, as in bash.
//
// llmsh: the pattern is immutable, and the last ones compiled are kept
// (up to patCacheMax of at most patCacheLen bytes): a case or [[ ]] in a
// loop compiled the same patterns, with allocations, on every round.
func CompileBashPattern(pat string, mode PatMode) *BashPattern {
	if len(pat) > patCacheLen {
		return &BashPattern{nodes: parsePat(pat, mode), mode: mode}
	}
	return patCache.Get(patKey{pat, mode}, func() *BashPattern {
		return &BashPattern{nodes: parsePat(pat, mode), mode: mode}
	})
}

// patCache holds the patterns CompileBashPattern compiled last (llmsh):
// 256, of up to patCacheLen bytes each.
var patCache = Cache[patKey, *BashPattern]{Max: 256}

type patKey struct {
	pat  string
	mode PatMode
}

const patCacheLen = 256 // bytes: a longer pattern is not kept

// IsLiteral reports whether the pattern matches one string only.
func (p *BashPattern) IsLiteral() bool {
	for _, n := range p.nodes {
		if n.kind != patLit {
			return false
		}
	}
	return true
}

// Literal is the one string a literal pattern matches.
func (p *BashPattern) Literal() string {
	var sb strings.Builder
	for _, n := range p.nodes {
		if n.r > utf8.MaxRune {
			sb.WriteByte(byte(n.r - utf8.MaxRune - 1)) // see decodeRune
		} else {
			sb.WriteRune(n.r)
		}
	}
	return sb.String()
}

// HasExt reports whether the pattern holds an extended pattern.
func (p *BashPattern) HasExt() bool {
	for _, n := range p.nodes {
		if n.kind == patExt {
			return true
		}
	}
	return false
}

// Match reports whether the pattern matches all of s.
func (p *BashPattern) Match(s string) bool {
	return p.MatchStop(nil, s)
}

// PatStop lets matches be stopped with a run (llmsh, session 18, red
// team): matching by backtracking takes time exponential in the length
// of the subject for nested extended patterns ([[ $s == +(+(a))b ]] of
// 20 a's and a c: seconds; of 30: hours), and ${s//+([a-z])Q/r} tries
// every substring of s (a 16 MB value: hours), without a look at the
// run's context, so a library Session.Run went on past its time limit.
// A match given a PatStop looks at Ctx every 4096 steps, counted across
// all the matches it is given to; once Ctx is done, Err is its error and
// every match fails at once.
type PatStop struct {
	Ctx context.Context
	Err error
	n   int
}

// stopped counts a step of matching and reports whether st is stopped.
func (st *PatStop) stopped() bool {
	if st == nil || st.Ctx == nil {
		return false
	}
	if st.n++; st.n&0xfff == 0 && st.Err == nil {
		st.Err = st.Ctx.Err()
	}
	return st.Err != nil
}

// MatchStop is Match, false once st is stopped (st may be nil).
func (p *BashPattern) MatchStop(st *PatStop, s string) bool {
	if p.only > 0 && utf8.RuneCountInString(s) != p.only-1 {
		return false
	}
	if !p.HasExt() {
		return p.matchFlat(st, p.nodes, s, 0, len(s)) && (st == nil || st.Err == nil)
	}
	return p.matchAt(st, p.nodes, s, 0, len(s)) && (st == nil || st.Err == nil)
}

// BashHasMeta reports whether pat holds a character that makes it a
// pattern rather than a literal string.
func BashHasMeta(pat string, mode PatMode) bool {
	// llmsh: without a wildcard, a closing bracket, a backslash or (with
	// extglob) a parenthesis, pat is literal: `[` as a command name was
	// parsed, with allocations, on every run of `[ … ]`.
	if !strings.ContainsAny(pat, `*?]\`) && (mode&PatExtGlob == 0 || !strings.Contains(pat, "(")) {
		return false
	}
	return !CompileBashPattern(pat, mode).IsLiteral()
}

// BashQuoteMeta escapes every character of s that a pattern could read
// as special, extended patterns' included, and ^ and - that a bracket
// expression reads as negation and range: a quoted one in [a"-"z] or
// [\^a] is the character itself, as in bash.
func BashQuoteMeta(s string) string {
	if !strings.ContainsAny(s, quotedMeta) {
		return s
	}
	var sb strings.Builder
	for _, r := range s {
		if strings.ContainsRune(quotedMeta, r) {
			sb.WriteByte('\\')
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

// quotedMeta is what BashQuoteMeta escapes.
const quotedMeta = `*?[]\()|!@+^-`

func parsePat(pat string, mode PatMode) []patNode {
	var nodes []patNode
	for i := 0; i < len(pat); {
		r, size := decodeRune(pat[i:])
		switch {
		case r == '\\':
			if i+1 < len(pat) {
				r, size = decodeRune(pat[i+1:])
				nodes = append(nodes, patNode{kind: patLit, r: r})
				i += 1 + size
				continue
			}
			nodes = append(nodes, patNode{kind: patLit, r: '\\'})
		case mode&PatExtGlob != 0 && strings.ContainsRune("?*+@!", r) && i+1 < len(pat) && pat[i+1] == '(':
			if end := groupEnd(pat, i+2); end > 0 {
				n := patNode{kind: patExt, op: byte(r)}
				for _, alt := range splitAlts(pat[i+2 : end]) {
					n.alts = append(n.alts, parsePat(alt, mode))
				}
				nodes = append(nodes, n)
				i = end + 1
				continue
			}
			nodes = append(nodes, litOrWild(r))
		case r == '[':
			if set, n := parseSet(pat[i+1:]); set != nil {
				if alts := equivTail(pat, i, n, set, mode); alts != nil {
					// the rest of the pattern is in the alternatives
					return append(nodes, patNode{kind: patExt, op: '@', alts: alts})
				}
				nodes = append(nodes, patNode{kind: patSet, set: set})
				i += 1 + n
				continue
			}
			nodes = append(nodes, patNode{kind: patLit, r: r})
		case r == '*':
			if len(nodes) == 0 || nodes[len(nodes)-1].kind != patStar {
				nodes = append(nodes, patNode{kind: patStar})
			}
		default:
			nodes = append(nodes, litOrWild(r))
		}
		i += size
	}
	return nodes
}

func litOrWild(r rune) patNode {
	switch r {
	case '?':
		return patNode{kind: patAny}
	case '*':
		return patNode{kind: patStar}
	}
	return patNode{kind: patLit, r: r}
}

// groupEnd gives the index of the ) that closes a group whose text starts
// at i, or -1.
func groupEnd(pat string, i int) int {
	depth := 0
	for ; i < len(pat); i++ {
		switch pat[i] {
		case '\\':
			i++
		case '[':
			if _, n := parseSet(pat[i+1:]); n > 0 {
				i += n
			}
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// splitAlts splits a group's text at its top-level | characters.
func splitAlts(s string) []string {
	var alts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			if _, n := parseSet(s[i+1:]); n > 0 {
				i += n
			}
		case '(':
			depth++
		case ')':
			depth--
		case '|':
			if depth == 0 {
				alts = append(alts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(alts, s[start:])
}

// equivTail is bash 5.2's reading of a bracket expression (at pat[i], n
// bytes after its [) that ends with an equivalence class, [[=a=]] or
// [x[=a=]] (llmsh): after a class that a character does not match,
// BRACKMATCH takes the next character, the closing ], as one more
// member of the set, and goes on to the next ] of the pattern: [[=a=]]x]
// matches a and then x], or one of ] and x. With no ] after, it reaches
// the end of the pattern: a [ is then an ordinary character (case '[a]'
// in [[=a=]]) matches), any other character no match, even in a negated
// set ([![=a=]] matches no b). It returns the alternatives that replace
// the rest of the pattern, or nil when the set is not such.
func equivTail(pat string, i, n int, set *bracketSet, mode PatMode) [][]patNode {
	body, rest := pat[i+1:i+n], pat[i+1+n:]
	if !strings.HasSuffix(body, "=]") {
		return nil
	}
	k := strings.LastIndex(body[:len(body)-2], "[=")
	if k < 0 || utf8.RuneCountInString(body[k+2:len(body)-2]) != 1 {
		return nil
	}
	var alts [][]patNode
	taken := *set // the members before bash reads on
	taken.neg = false
	if !set.neg {
		alts = append(alts, append([]patNode{{kind: patSet, set: set}}, parsePat(rest, mode)...))
	}
	more, m := parseSet("]" + rest)
	switch {
	case more != nil && set.neg:
		more.neg, more.items = true, append(slices.Clip(taken.items), more.items...)
		alts = append(alts, append([]patNode{{kind: patSet, set: more}}, parsePat(rest[m-1:], mode)...))
	case more != nil:
		more.minus = &taken
		alts = append(alts, append([]patNode{{kind: patSet, set: more}}, parsePat(rest[m-1:], mode)...))
	case !taken.match('[', mode&PatNoCase != 0):
		alts = append(alts, append([]patNode{{kind: patLit, r: '['}}, parsePat(pat[i+1:], mode)...))
	}
	if alts == nil {
		alts = [][]patNode{{{kind: patSet, set: &bracketSet{}}}} // matches nothing
	}
	return alts
}

// parseSet reads a bracket expression after its [; it returns nil when
// there is no closing ], and the bytes read, the ] included.
func parseSet(s string) (*bracketSet, int) {
	set := &bracketSet{}
	i := 0
	if i < len(s) && (s[i] == '!' || s[i] == '^') {
		set.neg = true
		i++
	}
	first := true
	for i < len(s) {
		if s[i] == ']' && !first {
			return set, i + 1
		}
		first = false
		if s[i] == '[' && i+1 < len(s) && (s[i+1] == ':' || s[i+1] == '=' || s[i+1] == '.') {
			delim := s[i+1]
			if end := strings.Index(s[i+2:], string(delim)+"]"); end >= 0 {
				name := s[i+2 : i+2+end]
				i += 2 + end + 2
				switch delim {
				case ':':
					set.items = append(set.items, setItem{class: name})
				default:
					for _, r := range name {
						set.items = append(set.items, setItem{lo: r, hi: r})
					}
				}
				continue
			}
		}
		r, size := decodeRune(s[i:])
		if r == '\\' && i+1 < len(s) {
			r, size = decodeRune(s[i+1:])
			size++
		}
		i += size
		lo, hi := r, r
		if i+1 < len(s) && s[i] == '-' && s[i+1] != ']' {
			r2, size2 := decodeRune(s[i+1:])
			if r2 == '\\' && i+2 < len(s) {
				r2, size2 = decodeRune(s[i+2:])
				size2++
			}
			hi = r2
			i += 1 + size2
		}
		set.items = append(set.items, setItem{lo: lo, hi: hi})
	}
	return nil, 0
}

func classMatch(class string, r rune) bool {
	switch class {
	case "alpha":
		return unicode.IsLetter(r)
	case "digit":
		return r >= '0' && r <= '9'
	case "alnum":
		return unicode.IsLetter(r) || unicode.IsDigit(r)
	case "upper":
		return unicode.IsUpper(r)
	case "lower":
		return unicode.IsLower(r)
	case "space":
		return unicode.IsSpace(r)
	case "blank":
		return r == ' ' || r == '\t'
	case "punct":
		return r < 128 && unicode.IsPunct(r) || r < 128 && unicode.IsSymbol(r)
	case "print":
		return unicode.IsPrint(r)
	case "graph":
		return unicode.IsGraphic(r) && r != ' '
	case "cntrl":
		return unicode.IsControl(r)
	case "xdigit":
		return r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F'
	case "word":
		return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	return false
}

func (set *bracketSet) match(r rune, nocase bool) bool {
	// llmsh: a class tests the character as it is, also without
	// regard to case, as bash's BRACKMATCH (orig_test): [[:lower:]]
	// never matches A; a character or a range folds it.
	in := func(r rune, classes bool) bool {
		for _, it := range set.items {
			if it.class != "" {
				if classes && classMatch(it.class, r) {
					return true
				}
			} else if r >= it.lo && r <= it.hi {
				return true
			}
		}
		return false
	}
	ok := in(r, true)
	if !ok && nocase {
		ok = in(unicode.ToLower(r), false) || in(unicode.ToUpper(r), false)
	}
	if set.minus != nil && ok != set.neg && set.minus.match(r, nocase) {
		return false
	}
	return ok != set.neg
}

// dotBlocked reports whether a wildcard may not match at i: a leading dot
// of a file name.
func (p *BashPattern) dotBlocked(s string, i int) bool {
	return i == 0 && p.mode&(PatFilename|PatDotGlob) == PatFilename && len(s) > 0 && s[0] == '.'
}

// matchOne reports whether n, a character, a ? or a [...], matches the
// character at s[i:j] and its size.
func (p *BashPattern) matchOne(n patNode, s string, i, j int) (int, bool) {
	if i >= j {
		return 0, false
	}
	r, size := decodeRune(s[i:j])
	switch n.kind {
	case patLit:
		if r != n.r && !(p.mode&PatNoCase != 0 && unicode.ToLower(r) == unicode.ToLower(n.r)) {
			return 0, false
		}
	case patAny:
		if p.dotBlocked(s, i) || r == '/' && p.mode&PatPathname != 0 {
			return 0, false
		}
	case patSet:
		if p.dotBlocked(s, i) || !n.set.match(r, p.mode&PatNoCase != 0) {
			return 0, false
		}
	}
	return size, true
}

// matchFlat is matchAt for nodes without an extended pattern, in time
// linear in len(nodes) times j-i (llmsh, session 18, red team): trying
// every split for each * took time of the power of the number of stars
// (find -name '*a*a*a*a*a*a*a*a*a*b' of a 200-character name: past 100 s,
// which no time limit stopped). When the nodes after a * fail, only the
// last * need take one more character: the standard wildcard match.
func (p *BashPattern) matchFlat(st *PatStop, nodes []patNode, s string, i, j int) bool {
	star, starAt := -1, 0 // the last * seen, and where what follows it starts
	for ni := 0; ni < len(nodes) || i < j; {
		if ni < len(nodes) {
			n := nodes[ni]
			if n.kind == patStar {
				if p.dotBlocked(s, i) {
					return false // as matchAt
				}
				star, starAt, ni = ni, i, ni+1
				continue
			}
			if size, ok := p.matchOne(n, s, i, j); ok {
				i, ni = i+size, ni+1
				continue
			}
		}
		if star < 0 || starAt >= j || st.stopped() || p.slashStops(nodes[star+1:], s[starAt]) {
			return false
		}
		_, size := decodeRune(s[starAt:j])
		starAt += size
		i, ni = starAt, star+1
	}
	return true
}

// matchAt reports whether nodes match all of s[i:j]; s is the whole
// subject, for the leading-dot rule.
func (p *BashPattern) matchAt(st *PatStop, nodes []patNode, s string, i, j int) bool {
	if st.stopped() {
		return false
	}
	for len(nodes) > 0 {
		n := nodes[0]
		switch n.kind {
		case patLit, patAny, patSet:
			size, ok := p.matchOne(n, s, i, j)
			if !ok {
				return false
			}
			i += size
			nodes = nodes[1:]
		case patStar:
			rest := nodes[1:]
			if p.dotBlocked(s, i) {
				// llmsh: bash's strmatch fails a * at a leading
				// dot at once (*.a does not match .a).
				return false
			}
			return p.starThen(st, rest, s, i, j)
		case patExt:
			rest := nodes[1:]
			for k := i; k <= j; {
				if p.extMatch(st, n, s, i, k) && p.matchAt(st, rest, s, k, j) {
					return true
				}
				if k == j {
					break
				}
				_, size := decodeRune(s[k:j])
				k += size
			}
			return false
		}
	}
	return i == j
}

// starThen matches a * then rest at s[i:j] as bash's strmatch does
// (sm_loop.c, bash 5.2), which differs from trying every split when an
// extended pattern follows. It first collapses what follows the *: other
// *s; ?s, each taking a character; a ?(…), tried with the rest of the
// pattern where the * stops taking nothing, then dropped; a *(…), tried
// where the * stops at each position before the end, then dropped. The
// first other node is then tried where the * stops at each position
// before the end, never at the end itself: so *@(x|) matches no string
// and a*!(b) not ab, and *?(x)!(c) not c. At the end only !(…) is tried,
// see below.
func (p *BashPattern) starThen(st *PatStop, rest []patNode, s string, i, j int) bool {
	for len(rest) > 0 {
		n := rest[0]
		switch {
		case n.kind == patStar:
		case n.kind == patAny:
			if i >= j || s[i] == '/' && p.mode&PatPathname != 0 {
				return false
			}
			_, size := decodeRune(s[i:j])
			i += size
		case n.kind == patExt && n.op == '?':
			if p.matchAt(st, rest, s, i, j) {
				return true
			}
		case n.kind == patExt && n.op == '*':
			for k := i; k < j; {
				if p.matchAt(st, rest, s, k, j) {
					return true
				}
				if p.slashStops(rest, s[k]) {
					break
				}
				_, size := decodeRune(s[k:j])
				k += size
			}
		default:
			return p.starGeneral(st, rest, s, i, j)
		}
		rest = rest[1:]
	}
	return true
}

// starGeneral is starThen's last step: rest, which starts with neither a
// wildcard nor ?(…) or *(…), from each position before j.
func (p *BashPattern) starGeneral(st *PatStop, rest []patNode, s string, i, j int) bool {
	if i == j {
		// llmsh: at the end of the subject bash's strmatch hands
		// !(…) and the rest of the pattern to EXTMATCH one character
		// too far on (at the !). In the whole pattern it then finds no
		// closing ) before the pattern's NUL and compares the
		// pattern's text with the empty rest as strings: they differ,
		// and that failure of !(…) is a match, so *!(b)c matches ""
		// and a*!(a) matches "a". Inside an alternative of an
		// extended pattern the scan stops at the alternative's end
		// instead, the empty rest matches, and so nothing does.
		return rest[0].kind == patExt && rest[0].op == '!' && p.wholeTail(rest)
	}
	for k := i; k < j; {
		if p.matchAt(st, rest, s, k, j) {
			return true
		}
		if p.slashStops(rest, s[k]) {
			break
		}
		_, size := decodeRune(s[k:j])
		k += size
	}
	return false
}

// slashStops reports whether a * followed by rest may not take the
// character c: a slash, under PatPathname, unless only other *s follow.
func (p *BashPattern) slashStops(rest []patNode, c byte) bool {
	if c != '/' || p.mode&PatPathname == 0 {
		return false
	}
	for _, n := range rest {
		if n.kind != patStar {
			return true
		}
	}
	return false
}

// wholeTail reports whether tail is the end of the whole pattern, not of
// an alternative inside an extended pattern (those are slices of their
// own).
func (p *BashPattern) wholeTail(tail []patNode) bool {
	return len(tail) > 0 && len(p.nodes) > 0 && &tail[len(tail)-1] == &p.nodes[len(p.nodes)-1]
}

func (p *BashPattern) anyAlt(st *PatStop, n patNode, s string, i, j int) bool {
	for _, alt := range n.alts {
		if p.matchAt(st, alt, s, i, j) {
			return true
		}
	}
	return false
}

// extMatch reports whether the extended pattern n matches all of s[i:j].
func (p *BashPattern) extMatch(st *PatStop, n patNode, s string, i, j int) bool {
	if st.stopped() {
		return false
	}
	switch n.op {
	case '@':
		return p.anyAlt(st, n, s, i, j)
	case '?':
		return i == j || p.anyAlt(st, n, s, i, j)
	case '*', '+':
		if i == j {
			return n.op == '*' || p.anyAlt(st, n, s, i, j)
		}
		for m := i + 1; m <= j; m++ {
			if m < j && !utf8.RuneStart(s[m]) {
				continue
			}
			if p.anyAlt(st, n, s, i, m) && (m == j || p.extMatch(st, patNode{op: '*', alts: n.alts}, s, m, j)) {
				return true
			}
		}
		return false
	case '!':
		if p.dotBlocked(s, i) {
			return false
		}
		return !p.anyAlt(st, n, s, i, j)
	}
	return false
}

// decodeRune is utf8.DecodeRuneInString, except that a byte that is not
// part of valid UTF-8 is a rune of its own, distinct for each byte value
// and from every character (0x110000 + the byte, above Unicode): names
// are bytes, and $'\376' must neither match [$'\377'] nor the literal
// $'\377', as it would if both were utf8.RuneError.
func decodeRune(s string) (rune, int) {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && size == 1 {
		return utf8.MaxRune + 1 + rune(s[0]), 1
	}
	return r, size
}

// FixedLen is the number of characters that every match of p has, or -1
// when p holds a * or an extended pattern (llmsh).
func (p *BashPattern) FixedLen() int {
	for _, n := range p.nodes {
		if n.kind == patStar || n.kind == patExt {
			return -1
		}
	}
	return len(p.nodes)
}

// BashMatchLen is bash's umatchlen (lib/glob/gm_loop.c, bash 5.2): the
// number of characters pat matches as bash's pattern substitution
// reckons it, -1 when that varies (a *, an extended pattern). bash then
// tries only substrings of that length; it ends a bracket expression at
// the first ] after its first character, so [!]] counts as two and
// ${x//[!]]/y} replaces nothing (llmsh).
func BashMatchLen(pat string, extglob bool) int {
	matlen := 0
	for i := 0; i < len(pat); {
		c := pat[i]
		i++
		switch {
		case c == '\\':
			matlen++
			if i < len(pat) {
				_, size := decodeRune(pat[i:])
				i += size
			}
		case c == '*':
			return -1
		case extglob && strings.IndexByte("?+@!", c) >= 0 && i < len(pat) && pat[i] == '(':
			return -1
		case c == '[':
			n, end := bracketLen(pat, i)
			matlen += n
			i = end
		default:
			if c >= utf8.RuneSelf {
				_, size := decodeRune(pat[i-1:])
				i += size - 1
			}
			matlen++
		}
	}
	return matlen
}

// bracketLen is BashMatchLen's scan of a bracket expression whose text
// starts at i (after the [): the characters it counts for it and where
// the scan ends.
func bracketLen(pat string, i int) (n, end int) {
	bracklen := 1
	inClass, inColl, inEquiv := false, false, false
	next := func() (byte, bool) {
		if i >= len(pat) {
			return 0, false
		}
		c := pat[i]
		i++
		return c, true
	}
	c, more := next()
	for {
		switch {
		case !more:
			return bracklen, i // a bad bracket: its characters count
		case c == '\\':
			bracklen++
			if i >= len(pat) || i+1 >= len(pat) {
				return bracklen, len(pat)
			}
			i++
		case c == '[' && i < len(pat) && pat[i] == ':':
			i++
			bracklen++
			inClass = true
		case inClass && c == ':' && i < len(pat) && pat[i] == ']':
			i++
			bracklen++
			inClass = false
		case c == '[' && i < len(pat) && (pat[i] == '.' || pat[i] == '='):
			d := pat[i]
			i++
			bracklen++
			if i < len(pat) && pat[i] == ']' {
				i++
				bracklen++
			}
			inColl, inEquiv = d == '.', d == '='
		case inColl && c == '.' && i < len(pat) && pat[i] == ']',
			inEquiv && c == '=' && i < len(pat) && pat[i] == ']':
			i++
			bracklen++
			inColl, inEquiv = false, false
		default:
			bracklen++
		}
		if c, more = next(); more && c == ']' {
			return 1, i
		}
	}
}
