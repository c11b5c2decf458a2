package builtins

import (
	"bytes"
	"regexp"
	"sort"
	"strings"

	"github.com/llmsh/llmsh/posixre"
)

// grepMatcher selects lines. Patterns of every syntax (-G -E -F) go
// through posixre, except for two fast paths: one fixed string, found with
// bytes.Index over the whole buffer, and patterns that match every line.
// Regular expressions are searched over whole buffers with their RE2 form
// (or with bytes.Index on a literal every match must contain), and only
// the lines found are then confirmed and bounded.
type grepMatcher struct {
	eol   byte
	all   bool   // every line matches
	fixed []byte // a single fixed string, case-sensitive, no -w/-x
	res   []*posixre.Regexp
	scan  *regexp.Regexp // RE2 for all patterns over a buffer; nil: per line
	exact bool           // scan's matches need no confirmation
	must  []byte         // a literal in every match (one pattern)
	fold  bool           // must is compared ignoring ASCII case
	perl  *regexp.Regexp // -P
}

type grepPatternError struct{ msg string }

func (e *grepPatternError) Error() string { return e.msg }

// grepEscapeBRE quotes a fixed string as a BRE.
func grepEscapeBRE(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '.', '[', ']', '*', '^', '$', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func newGrepMatcher(pats []string, mode byte, icase, word, line bool, eol byte) (*grepMatcher, []string, error) {
	m := &grepMatcher{eol: eol}
	if mode == 'P' {
		if len(pats) > 1 {
			return nil, nil, &grepPatternError{"the -P option only supports a single pattern"}
		}
		if word {
			return nil, nil, &grepPatternError{"-P with -w is not supported (RE2 has no look-behind)"}
		}
		expr := pats[0]
		if line {
			expr = "^(?:" + expr + ")$"
		}
		prefix := "(?m)"
		if icase {
			prefix = "(?mi)"
		}
		re, err := regexp.Compile(prefix + expr)
		if err != nil {
			return nil, nil, &grepPatternError{"-P supports only RE2 syntax: " + strings.TrimPrefix(err.Error(), "error parsing regexp: ")}
		}
		m.perl = re
		return m, nil, nil
	}
	if mode == 'F' && len(pats) == 1 && !icase && !word && !line && pats[0] != "" && strings.IndexByte(pats[0], eol) < 0 {
		m.fixed = []byte(pats[0])
		return m, nil, nil
	}
	if !word && !line {
		for _, p := range pats {
			if p == "" {
				m.all = true
				return m, nil, nil
			}
		}
	}
	fl := posixre.Lines
	if mode == 'E' {
		fl |= posixre.ERE
	}
	if icase {
		fl |= posixre.IgnoreCase
	}
	if line {
		fl |= posixre.MatchLines
	} else if word {
		fl |= posixre.MatchWords
	}
	var warnings []string
	seen := map[string]bool{}
	for _, p := range pats {
		if seen[p] {
			continue
		}
		seen[p] = true
		if mode == 'F' {
			p = grepEscapeBRE(p)
		}
		re, err := posixre.Compile(p, fl)
		if err != nil {
			return nil, nil, &grepPatternError{err.Error()}
		}
		warnings = append(warnings, re.Warnings...)
		m.res = append(m.res, re)
	}
	if len(m.res) == 0 {
		return m, warnings, nil
	}
	// One RE2 program for the buffer scan.
	var parts []string
	exact := true
	for _, re := range m.res {
		r2, ex := re.RE2()
		if r2 == nil {
			parts = nil
			break
		}
		exact = exact && ex
		parts = append(parts, "(?:"+r2.String()+")")
	}
	if parts != nil {
		scan, err := regexp.Compile(strings.Join(parts, "|"))
		if err == nil {
			scan.Longest()
			m.scan, m.exact = scan, exact
		}
	}
	if len(m.res) == 1 {
		if must := m.res[0].Must(); must != "" {
			m.must, m.fold = []byte(must), icase
		}
	}
	return m, warnings, nil
}

// lineAt returns the bounds of the line holding buf[i]: its start and the
// index of its terminator (lines in buf[:end] are all terminated).
func (m *grepMatcher) lineAt(buf []byte, from, i int) (int, int) {
	ls := bytes.LastIndexByte(buf[from:i], m.eol) + 1 + from
	le := bytes.IndexByte(buf[i:], m.eol) + i
	return ls, le
}

// next finds the first matching line in buf[from:end] (from is a line
// start, every line there is terminated) and returns its start and the
// index of its terminator, or -1.
func (m *grepMatcher) next(buf []byte, from, end int) (int, int, error) {
	for from < end {
		switch {
		case m.all:
			return from, bytes.IndexByte(buf[from:end], m.eol) + from, nil
		case m.fixed != nil:
			i := bytes.Index(buf[from:end], m.fixed)
			if i < 0 {
				return -1, -1, nil
			}
			ls, le := m.lineAt(buf, from, from+i)
			return ls, le, nil
		case m.must != nil:
			var i int
			if m.fold {
				i = grepIndexFold(buf[from:end], m.must)
			} else {
				i = bytes.Index(buf[from:end], m.must)
			}
			if i < 0 {
				return -1, -1, nil
			}
			ls, le := m.lineAt(buf, from, from+i)
			ok, err := m.matchLine(buf[ls:le])
			if err != nil || ok {
				return ls, le, err
			}
			from = le + 1
		case m.scan != nil:
			loc := m.scan.FindIndex(buf[from:end])
			if loc == nil || from+loc[0] >= end {
				// (An empty match after the last terminator is no line.)
				return -1, -1, nil
			}
			ls, le := m.lineAt(buf, from, from+loc[0])
			if m.exact {
				return ls, le, nil
			}
			ok, err := m.matchLine(buf[ls:le])
			if err != nil || ok {
				return ls, le, err
			}
			from = le + 1
		default:
			le := bytes.IndexByte(buf[from:end], m.eol) + from
			ok, err := m.matchLine(buf[from:le])
			if err != nil || ok {
				return from, le, err
			}
			from = le + 1
		}
	}
	return -1, -1, nil
}

// matchLine reports whether line (without its terminator) matches.
func (m *grepMatcher) matchLine(line []byte) (bool, error) {
	switch {
	case m.all:
		return true, nil
	case m.fixed != nil:
		return bytes.Contains(line, m.fixed), nil
	case m.perl != nil:
		return m.perl.Match(line), nil
	}
	for _, re := range m.res {
		ok, err := re.Match(line)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

// eachMatch calls fn with the start and end of each non-empty match in
// line, left to right, not overlapping.
func (m *grepMatcher) eachMatch(line []byte, fn func(s, e int)) error {
	switch {
	case m.all:
		return nil
	case m.fixed != nil:
		for p := 0; ; {
			i := bytes.Index(line[p:], m.fixed)
			if i < 0 {
				return nil
			}
			fn(p+i, p+i+len(m.fixed))
			p += i + len(m.fixed)
		}
	case m.perl != nil:
		for _, loc := range m.perl.FindAllIndex(line, -1) {
			if loc[1] > loc[0] {
				fn(loc[0], loc[1])
			}
		}
		return nil
	case len(m.res) == 1 || m.scan != nil && m.exact:
		if len(m.res) > 1 {
			for _, loc := range m.scan.FindAllIndex(line, -1) {
				if loc[1] > loc[0] {
					fn(loc[0], loc[1])
				}
			}
			return nil
		}
		return m.res[0].FindAll(line, -1, func(loc []int) bool {
			if loc[1] > loc[0] {
				fn(loc[0], loc[1])
			}
			return true
		})
	}
	// Several patterns: merge their matches, leftmost then longest.
	var all [][2]int
	for _, re := range m.res {
		err := re.FindAll(line, -1, func(loc []int) bool {
			if loc[1] > loc[0] {
				all = append(all, [2]int{loc[0], loc[1]})
			}
			return true
		})
		if err != nil {
			return err
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i][0] != all[j][0] {
			return all[i][0] < all[j][0]
		}
		return all[i][1] > all[j][1]
	})
	p := 0
	for _, mt := range all {
		if mt[0] >= p {
			fn(mt[0], mt[1])
			p = mt[1]
		}
	}
	return nil
}

// grepIndexFold is bytes.Index ignoring ASCII case; lit is ASCII.
func grepIndexFold(b, lit []byte) int {
	c := lit[0]
	lo, up := c|0x20, c&^0x20
	if !(lo >= 'a' && lo <= 'z') {
		lo, up = c, c
	}
	nl, nu := -2, -2 // next positions of lo and up (-2: not searched yet)
	for p := 0; p+len(lit) <= len(b); {
		if nl < p && nl != -1 {
			if i := bytes.IndexByte(b[p:], lo); i >= 0 {
				nl = p + i
			} else {
				nl = -1
			}
		}
		if nu < p && nu != -1 {
			if i := bytes.IndexByte(b[p:], up); i >= 0 {
				nu = p + i
			} else {
				nu = -1
			}
		}
		i := nl
		if i < 0 || nu >= 0 && nu < i {
			i = nu
		}
		if i < 0 || i+len(lit) > len(b) {
			return -1
		}
		if bytes.EqualFold(b[i:i+len(lit)], lit) {
			return i
		}
		p = i + 1
	}
	return -1
}
