package builtins

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/llmsh/llmsh/posixre"
)

// grepSet finds many fixed strings at once (grep -F -f LIST, or a list of
// patterns without special characters): an Aho-Corasick automaton over
// their bytes, built and run with checks of the run's context. Before it
// (session 23, red team), each string was compiled as a regexp and all of
// them joined into one alternation for Go's regexp, which no context could
// stop: `grep -F -f b a` with 2.9 million strings in b answered a library
// Run with a 1 s limit after 3 min 24 s at 6.2 GB of heap.
//
// Under -x (lines) it is a set of whole lines. Under -i it folds ASCII
// letters only: newGrepSet is not used where a letter has other case
// variants (k and s in a UTF-8 locale). Under -w a match counts where it
// is neither preceded nor followed by a word character, as GNU's kwset
// search tries each match, a shorter one at the same start, then a later
// one (session 25: -w took the regexp path, and `grep -wF -f` of 300,000
// strings took 23 s).
type grepSet struct {
	fold  bool
	word  bool                // -w
	bytes bool                // the C locale: only ASCII word characters (posixre.Bytes)
	lines map[string]struct{} // -x: the patterns, folded
	// The automaton: node 0 is the root; a node's edges are
	// edgeC/edgeTo[first[n]:first[n+1]], sorted by byte.
	root   [256]int32 // the root's goto, -1 for none
	first  []int32
	edgeC  []byte
	edgeTo []int32
	fail   []int32
	depth  []int32
	term   []bool // a pattern ends at the node
	out    []bool // a pattern ends at the node or at one of its suffixes
	// dict is, under -w, the nearest proper suffix of the node at which
	// a pattern ends (0: none), to list the patterns that end at a byte.
	dict   []int32
	maxLen int
}

// grepSetMin is the number of distinct patterns from which a set is used
// (a variable for the tests, which compare it with the regexps).
var grepSetMin = 2

// grepSetCheck is how many patterns, nodes or bytes are handled between
// two looks at the context.
const grepSetCheck = 1 << 14

// grepLiteral reports whether a BRE or ERE pattern is a fixed string (no
// character is special in either syntax).
func grepLiteral(p string) bool { return !strings.ContainsAny(p, `\.[]*^$+?{}()|`) }

// grepSetFits reports whether pats (distinct) can be matched by a grepSet
// as the regexp path would match them.
func grepSetFits(pats []string, mode byte, icase, word, line bool, eol byte, cloc bool) bool {
	if mode == 'P' || !grepSeveral(pats) && !grepOverMax(pats) {
		return false
	}
	for _, p := range pats {
		switch {
		case p == "" && !line, strings.IndexByte(p, eol) >= 0:
			return false
		case mode != 'F' && !grepLiteral(p):
			return false
		case !cloc && !utf8.ValidString(p):
			return false
		case icase && !cloc && (strings.ContainsAny(p, "kKsSiI") || !grepASCII(p)):
			// ſ (long s) and ı (dotless i) match s and i in GNU's
			// folding (posixre/fold.go), K (Kelvin) in Unicode's.
			return false
		}
	}
	return true
}

func grepASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func grepLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func grepFoldString(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return 'A' <= r && r <= 'Z' }) < 0 {
		return s
	}
	b := []byte(s)
	for i, c := range b {
		b[i] = grepLower(c)
	}
	return string(b)
}

// newGrepSet builds the matcher of pats, stopping when ctx is done; word
// is -w (line, -x, wins over it), cloc the C locale.
func newGrepSet(ctx context.Context, pats []string, icase, word, line, cloc bool) (*grepSet, error) {
	s := &grepSet{fold: icase, word: word && !line, bytes: cloc}
	if line {
		s.lines = make(map[string]struct{}, len(pats))
		for i, p := range pats {
			if i%grepSetCheck == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if icase {
				p = grepFoldString(p)
			}
			s.lines[p] = struct{}{}
		}
		return s, nil
	}
	if err := s.trie(ctx, pats, icase); err != nil {
		return nil, err
	}
	for c := range s.root {
		s.root[c] = -1
	}
	for i := s.first[0]; i < s.first[1]; i++ {
		s.root[s.edgeC[i]] = s.edgeTo[i]
	}
	return s, s.links(ctx)
}

// trie builds the trie of pats (s.depth, s.term, s.maxLen) and its flat
// edge lists, sorted by node and byte (s.first, s.edgeC, s.edgeTo). The
// patterns are taken in sorted order, so each one shares the path of
// the one before up to their common prefix and the rest is new nodes,
// each node's children made in the order of their bytes: the edges then
// group by node with a count of each node's children. A map of the
// edges while the trie grew, then a sort of them, took twice as long
// (grep -cF -f of `seq 3000000`'s lines: 3.1 -> 1.4 s of CPU, session 26).
func (s *grepSet) trie(ctx context.Context, pats []string, icase bool) error {
	sorted := make([]string, len(pats))
	for i, p := range pats {
		if icase {
			p = grepFoldString(p)
		}
		sorted[i] = p
	}
	slices.Sort(sorted)
	s.depth = []int32{0}
	s.term = []bool{false}
	parent, edgeC := []int32{-1}, []byte{0} // of each node
	path := []int32{0}                      // the nodes of the pattern before
	prev := ""
	for i, p := range sorted {
		if i%grepSetCheck == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		l := 0
		for l < len(p) && l < len(prev) && p[l] == prev[l] {
			l++
		}
		path = path[:l+1]
		for j := l; j < len(p); j++ {
			k := int32(len(s.depth))
			s.depth = append(s.depth, int32(j+1))
			s.term = append(s.term, false)
			parent, edgeC = append(parent, path[j]), append(edgeC, p[j])
			path = append(path, k)
		}
		s.term[path[len(p)]] = true
		s.maxLen = max(s.maxLen, len(p))
		prev = p
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	nodes := len(s.depth)
	s.first = make([]int32, nodes+1)
	for _, n := range parent[1:] {
		s.first[n+1]++
	}
	for n := 1; n <= nodes; n++ {
		s.first[n] += s.first[n-1]
	}
	s.edgeC = make([]byte, nodes-1)
	s.edgeTo = make([]int32, nodes-1)
	next := slices.Clone(s.first[:nodes])
	for k := 1; k < nodes; k++ {
		e := next[parent[k]]
		next[parent[k]]++
		s.edgeC[e], s.edgeTo[e] = edgeC[k], int32(k)
	}
	return nil
}

// links sets the failure links and outputs, breadth first.
func (s *grepSet) links(ctx context.Context) error {
	nodes := len(s.depth)
	s.fail = make([]int32, nodes)
	s.out = make([]bool, nodes)
	if s.word {
		s.dict = make([]int32, nodes)
	}
	queue := make([]int32, 0, nodes)
	queue = append(queue, 0)
	for qi := 0; qi < len(queue); qi++ {
		if qi%grepSetCheck == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		n := queue[qi]
		s.out[n] = s.term[n] || s.out[s.fail[n]]
		if f := s.fail[n]; s.dict != nil && n != 0 {
			if s.term[f] {
				s.dict[n] = f
			} else {
				s.dict[n] = s.dict[f]
			}
		}
		for i := s.first[n]; i < s.first[n+1]; i++ {
			k := s.edgeTo[i]
			if n != 0 {
				s.fail[k] = s.step(s.fail[n], s.edgeC[i])
			}
			queue = append(queue, k)
		}
	}
	return nil
}

// child is n's goto on c, or -1.
func (s *grepSet) child(n int32, c byte) int32 {
	if n == 0 {
		return s.root[c]
	}
	lo, hi := s.first[n], s.first[n+1]
	for lo < hi {
		mid := int32(uint32(lo+hi) >> 1)
		switch {
		case s.edgeC[mid] < c:
			lo = mid + 1
		case s.edgeC[mid] > c:
			hi = mid
		default:
			return s.edgeTo[mid]
		}
	}
	return -1
}

// step is the automaton's move from n on c.
func (s *grepSet) step(n int32, c byte) int32 {
	for {
		if k := s.child(n, c); k >= 0 {
			return k
		}
		if n == 0 {
			return 0
		}
		n = s.fail[n]
	}
}

// scan returns the index just past the end of the first match in b, or
// -1; eol bytes start afresh (no pattern holds one).
func (s *grepSet) scan(ctx context.Context, b []byte, eol byte) (int, error) {
	n := int32(0)
	for i := 0; i < len(b); i++ {
		if i%(grepSetCheck<<2) == 0 && i > 0 && ctx != nil && ctx.Err() != nil {
			return -1, ctx.Err()
		}
		c := b[i]
		if c == eol {
			n = 0
			continue
		}
		if s.fold {
			c = grepLower(c)
		}
		n = s.step(n, c)
		if s.out[n] {
			return i + 1, nil
		}
	}
	return -1, nil
}

// matchLine reports whether line (without its terminator) matches.
func (s *grepSet) matchLine(ctx context.Context, line []byte, eol byte) (bool, error) {
	if s.lines != nil {
		_, ok := s.lines[s.key(line)]
		return ok, nil
	}
	if s.word {
		e, err := s.wordEnd(ctx, line, 0, eol)
		return e >= 0, err
	}
	e, err := s.scan(ctx, line, eol)
	return e >= 0, err
}

// key is line as the -x set holds it.
func (s *grepSet) key(line []byte) string {
	if s.fold {
		return grepFoldString(string(line))
	}
	return string(line)
}

// next finds the first matching line in buf[from:end], as
// grepMatcher.next.
func (s *grepSet) next(ctx context.Context, m *grepMatcher, buf []byte, from, end int) (int, int, error) {
	if s.lines != nil {
		for ; from < end; from++ {
			if from%grepSetCheck == 0 && ctx != nil && ctx.Err() != nil {
				return -1, -1, ctx.Err()
			}
			le := bytes.IndexByte(buf[from:end], m.eol) + from
			if _, ok := s.lines[s.key(buf[from:le])]; ok {
				return from, le, nil
			}
			from = le
		}
		return -1, -1, nil
	}
	if s.word {
		// buf[:end]: the word test reads the bytes around a match,
		// and every line there is terminated.
		e, err := s.wordEnd(ctx, buf[:end], from, m.eol)
		if e < 0 || err != nil {
			return -1, -1, err
		}
		ls, le := m.lineAt(buf, from, e-1)
		return ls, le, nil
	}
	e, err := s.scan(ctx, buf[from:end], m.eol)
	if e < 0 || err != nil {
		return -1, -1, err
	}
	ls, le := m.lineAt(buf, from, from+e-1)
	return ls, le, nil
}

// wordEnd returns the index just past the end of the first match in
// b[from:] that is a whole word in b (neither preceded nor followed by a
// word character), or -1; eol bytes start afresh. Each end is tried with
// every pattern that ends there, longest first, as GNU tries a match and
// then shorter ones.
func (s *grepSet) wordEnd(ctx context.Context, b []byte, from int, eol byte) (int, error) {
	n, steps := int32(0), 0
	for i := from; i < len(b); i++ {
		if steps++; steps%(grepSetCheck<<2) == 0 && ctx != nil && ctx.Err() != nil {
			return -1, ctx.Err()
		}
		c := b[i]
		if c == eol {
			n = 0
			continue
		}
		if s.fold {
			c = grepLower(c)
		}
		n = s.step(n, c)
		if !s.out[n] || posixre.WordAfter(b, i+1, s.bytes) {
			continue
		}
		k := n
		if !s.term[k] {
			k = s.dict[k]
		}
		for ; k > 0; k = s.dict[k] {
			if steps++; steps%(grepSetCheck<<2) == 0 && ctx != nil && ctx.Err() != nil {
				return -1, ctx.Err()
			}
			if !posixre.WordBefore(b, i+1-int(s.depth[k]), s.bytes) {
				return i + 1, nil
			}
		}
	}
	return -1, nil
}

// longestWordAt is the length of the longest pattern that starts at b[st]
// as a whole word in b, or 0.
func (s *grepSet) longestWordAt(b []byte, st int) int {
	if posixre.WordBefore(b, st, s.bytes) {
		return 0
	}
	n, best := int32(0), 0
	for i := st; i < len(b) && i-st < s.maxLen; i++ {
		c := b[i]
		if s.fold {
			c = grepLower(c)
		}
		if n = s.child(n, c); n < 0 {
			break
		}
		if s.term[n] && !posixre.WordAfter(b, i+1, s.bytes) {
			best = i + 1 - st
		}
	}
	return best
}

// longestAt is the length of the longest pattern that starts b, or 0.
func (s *grepSet) longestAt(b []byte) int {
	n, best := int32(0), 0
	for i := 0; i < len(b) && i < s.maxLen; i++ {
		c := b[i]
		if s.fold {
			c = grepLower(c)
		}
		if n = s.child(n, c); n < 0 {
			break
		}
		if s.term[n] {
			best = i + 1
		}
	}
	return best
}

// eachMatch calls fn with each match in line, leftmost then longest, not
// overlapping.
func (s *grepSet) eachMatch(ctx context.Context, line []byte, eol byte, fn func(s, e int)) error {
	if s.lines != nil {
		if _, ok := s.lines[s.key(line)]; ok && len(line) > 0 {
			fn(0, len(line))
		}
		return nil
	}
	for p := 0; p < len(line); {
		var e int
		var err error
		if s.word {
			e, err = s.wordEnd(ctx, line, p, eol)
		} else if e, err = s.scan(ctx, line[p:], eol); e >= 0 {
			e += p
		}
		if e < 0 || err != nil {
			return err
		}
		// The leftmost match starts at most maxLen before the first
		// end, and at or before the start of the match that ends there.
		found := false
		for st := max(p, e-s.maxLen); st < e; st++ {
			if st%grepSetCheck == 0 && ctx != nil && ctx.Err() != nil {
				return ctx.Err()
			}
			n := 0
			if s.word {
				n = s.longestWordAt(line, st)
			} else {
				n = s.longestAt(line[st:])
			}
			if n > 0 {
				fn(st, st+n)
				p, found = st+n, true
				break
			}
		}
		if !found { // cannot happen: a match ends at e
			return nil
		}
	}
	return nil
}

// grepSeveral reports whether pats holds grepSetMin distinct patterns or
// more (a set is for lists).
func grepSeveral(pats []string) bool {
	if grepSetMin > 2 {
		return len(grepDistinct(pats)) >= grepSetMin
	}
	return slices.ContainsFunc(pats, func(p string) bool { return p != pats[0] })
}

// grepOverMax reports whether a pattern of pats is longer than a regexp
// may be (posixre.MaxLen): the set takes even one such fixed string (-x,
// -w, -i in the C locale), which the regexp path refuses (session 26:
// GNU grep -F -x answers it at once).
func grepOverMax(pats []string) bool {
	return slices.ContainsFunc(pats, func(p string) bool { return len(p) > posixre.MaxLen })
}

// grepDistinct is pats without repeats, in their first order.
func grepDistinct(pats []string) []string {
	seen := make(map[string]bool, len(pats))
	out := make([]string, 0, len(pats))
	for _, p := range pats {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}
