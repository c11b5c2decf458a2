package interp

// llmsh: regular-expression work that the run's context can stop. The
// context was looked at every checkContextOps instructions, but one match
// of a regexp over a long string (up to MaxString) takes seconds or
// minutes (Go's NFA: `[a-z]{1,30}Q` scans 16 MB in 12 s), so a loop of
// such matches ran for minutes past its time limit in a library
// Session.Run, and a gsub with millions of matches went on to its end.
// Now: after regexp work on bigRegexInput bytes the next instruction
// looks at the context; a match of a string that long reads it through a
// reader that looks at the context as it goes; and gsub looks at it
// every 4096 matches.

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/llmsh/llmsh/internal/stopre"
)

// bigRegexInput is the input of regexp work after which the context is
// looked at, and the length from which one match can be stopped midway
// (a variable for the tests).
var bigRegexInput = 1 << 14

// allRegexInput is the length of a string from which a search of all its
// matches looks at the context (session 18, red team): each search may
// read to the end, so gsub(/a([^b]*b)?/, "x") of 128 KB of a's read
// 8 GB (past 60 s); the context is looked at every 1024 characters read
// in all (internal/stopre's Each).
var allRegexInput = 1 << 10

// regexDone counts n bytes of input that a regexp scanned.
func (p *interp) regexDone(n int) {
	p.regexBytes += n
	if p.regexBytes >= bigRegexInput {
		p.regexBytes = 0
		p.ctxOps = checkContextOps // the next instruction looks
	}
}

// matchString is re.MatchString(s), stopped when the run is.
func (p *interp) matchString(re *regexp.Regexp, s string) (bool, error) {
	loc, err := p.findStringIndex(re, s)
	return loc != nil, err
}

// findStringIndex is re.FindStringIndex(s), stopped when the run is.
// A regexp of mawk's over bytes (bytesRE) searches s as Latin-1.
func (p *interp) findStringIndex(re *regexp.Regexp, s string) ([]int, error) {
	p.regexDone(len(s))
	if p.bytesRE {
		if ls, ok := latin1(s); ok {
			loc, err := p.findIndex(re, ls)
			if loc != nil {
				m := latinOffsets{s: s}
				loc = []int{m.orig(loc[0]), m.orig(loc[1])}
			}
			return loc, err
		}
	}
	return p.findIndex(re, s)
}

// findIndex is findStringIndex's search.
func (p *interp) findIndex(re *regexp.Regexp, s string) ([]int, error) {
	if len(s) < bigRegexInput || !p.checkCtx {
		return re.FindStringIndex(s), nil
	}
	return stopre.Index(p.ctx, p.searcher(re), s, 0)
}

// searcher is re's stoppable search (internal/stopre), which finds the
// matches after the first by a regexp that looks behind (^, \b) too
// (session 18, red team: gsub(/^…|…/) and split of a 16 MB string ran to
// their end).
func (p *interp) searcher(re *regexp.Regexp) *stopre.Searcher {
	if srch := p.searchers[re]; srch != nil {
		return srch
	}
	if p.searchers == nil || len(p.searchers) >= 64 {
		p.searchers = make(map[*regexp.Regexp]*stopre.Searcher)
	}
	srch := stopre.New(re, false)
	p.searchers[re] = srch
	return srch
}

// eachMatch calls f with each match of re in s, as FindAllStringIndex
// (and so ReplaceAllStringFunc and Split) finds them. A long s is
// searched through the stoppable reader, and the context is looked at
// every 4096 matches.
func (p *interp) eachMatch(re *regexp.Regexp, s string, f func(loc []int) error) error {
	p.regexDone(len(s))
	if p.bytesRE {
		if ls, ok := latin1(s); ok {
			m := latinOffsets{s: s}
			return p.eachIn(re, ls, func(loc []int) error {
				return f([]int{m.orig(loc[0]), m.orig(loc[1])})
			})
		}
	}
	return p.eachIn(re, s, f)
}

// eachIn is eachMatch's search.
func (p *interp) eachIn(re *regexp.Regexp, s string, f func(loc []int) error) error {
	if len(s) < min(allRegexInput, bigRegexInput) || !p.checkCtx {
		for _, loc := range re.FindAllStringIndex(s, -1) {
			if err := f(loc); err != nil {
				return err
			}
		}
		return nil
	}
	var ferr error
	n := 0
	err := stopre.Each(p.ctx, p.searcher(re), s, -1, func(loc []int) bool {
		if n++; n&0xfff == 0 {
			if ferr = p.checkContextNow(); ferr != nil {
				return false
			}
		}
		ferr = f(loc[:2])
		return ferr == nil
	})
	if err != nil {
		return err
	}
	return ferr
}

// findAllIndex is re.FindAllStringIndex(s, -1), stopped when the run is.
func (p *interp) findAllIndex(re *regexp.Regexp, s string) ([][]int, error) {
	var locs [][]int
	err := p.eachMatch(re, s, func(loc []int) error {
		locs = append(locs, loc)
		return nil
	})
	return locs, err
}

// splitRegex is re.Split(s, -1), stopped when the run is.
func (p *interp) splitRegex(re *regexp.Regexp, s string) ([]string, error) {
	if len(s) == 0 && re.String() != "" {
		return []string{""}, nil
	}
	locs, err := p.findAllIndex(re, s)
	if err != nil {
		return nil, err
	}
	parts := make([]string, 0, len(locs))
	beg, end := 0, 0
	for _, loc := range locs {
		end = loc[0]
		if loc[1] != 0 {
			parts = append(parts, s[beg:end])
		}
		beg = loc[1]
	}
	if end != len(s) {
		parts = append(parts, s[beg:])
	}
	return parts, nil
}

// regexStop carries the error that stops a replacement midway.
type regexStop struct{ err error }

// gsubLong is gsub of a long string: its matches are found by the
// stoppable reader.
func (p *interp) gsubLong(re *regexp.Regexp, repl subRepl, in string) (string, int, error) {
	var b strings.Builder
	count, last, size := 0, 0, len(in)
	err := p.eachMatch(re, in, func(loc []int) error {
		count++
		m := in[loc[0]:loc[1]]
		if size += repl.len(len(m)) - len(m); size > MaxString {
			return errStringTooLong()
		}
		b.WriteString(in[last:loc[0]])
		b.WriteString(repl.expand(m))
		last = loc[1]
		return nil
	})
	if err != nil {
		return "", 0, err
	}
	b.WriteString(in[last:])
	return b.String(), count, nil
}

// latin1 returns s with each byte of 0x80 or more written as the UTF-8
// of the rune of that value, the subject of a regexp of mawk's
// (compiler.MawkRegex), and whether s has such a byte (else it is s).
func latin1(s string) (string, bool) {
	if isASCII(s) {
		return s, false
	}
	i := 0
	for s[i] < utf8.RuneSelf {
		i++
	}
	b := make([]byte, i, len(s)+len(s)/4+8)
	copy(b, s[:i])
	for ; i < len(s); i++ {
		if c := s[i]; c < utf8.RuneSelf {
			b = append(b, c)
		} else {
			b = append(b, 0xc0|c>>6, 0x80|c&0x3f)
		}
	}
	return string(b), true
}

// latinOffsets maps offsets in latin1(s) back to s, for offsets that
// do not go down between two calls (it starts over when one does).
type latinOffsets struct {
	s      string
	si, li int // an offset in s and the same in latin1(s)
}

func (m *latinOffsets) orig(t int) int {
	if t < m.li {
		m.si, m.li = 0, 0
	}
	for m.li < t && m.si < len(m.s) {
		if m.s[m.si] >= utf8.RuneSelf {
			m.li += 2
		} else {
			m.li++
		}
		m.si++
	}
	return m.si
}

// isASCII reports whether s has no byte of 0x80 or more.
func isASCII[T ~string | ~[]byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
