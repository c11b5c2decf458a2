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
	"io"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// bigRegexInput is the input of regexp work after which the context is
// looked at, and the length from which one match can be stopped midway
// (a variable for the tests).
var bigRegexInput = 1 << 20

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
func (p *interp) findStringIndex(re *regexp.Regexp, s string) ([]int, error) {
	p.regexDone(len(s))
	if len(s) < bigRegexInput || !p.checkCtx {
		return re.FindStringIndex(s), nil
	}
	return p.searchFrom(re, s, 0, looksBehind(re))
}

// searchFrom is the leftmost match of re in s at or after pos (a rune
// boundary), read through a reader that stops when the run is. Where re
// looks behind, pos must be 0: a reader starting later is taken for the
// start of the text.
func (p *interp) searchFrom(re *regexp.Regexp, s string, pos int, behind bool) ([]int, error) {
	if prefix, _ := re.LiteralPrefix(); prefix != "" && !behind {
		// Every match starts with prefix: none before its next
		// occurrence (the NFA of a reader has no such skip).
		k := strings.Index(s[pos:], prefix)
		if k < 0 {
			return nil, nil
		}
		pos += k
	}
	r := &ctxReader{p: p, s: s, i: pos}
	loc := re.FindReaderIndex(r)
	if r.err != nil {
		return nil, r.err
	}
	if loc != nil {
		loc[0] += pos
		loc[1] += pos
	}
	return loc, nil
}

// eachMatch calls f with each match of re in s, as FindAllStringIndex
// (and so ReplaceAllStringFunc and Split) finds them. A long s, where re
// does not look behind, is searched through the stoppable reader.
func (p *interp) eachMatch(re *regexp.Regexp, s string, f func(loc []int) error) error {
	p.regexDone(len(s))
	if len(s) < bigRegexInput || !p.checkCtx || looksBehind(re) {
		for _, loc := range re.FindAllStringIndex(s, -1) {
			if err := f(loc); err != nil {
				return err
			}
		}
		return nil
	}
	// Go's allMatches: an empty match right after a match is skipped,
	// and the search goes on a character past an empty match.
	for pos, prevEnd, n := 0, -1, 0; pos <= len(s); n++ {
		if n&0xfff == 0xfff {
			if err := p.checkContextNow(); err != nil {
				return err
			}
		}
		loc, err := p.searchFrom(re, s, pos, false)
		if err != nil || loc == nil {
			return err
		}
		accept := true
		if loc[1] == pos {
			accept = loc[0] != prevEnd
			if _, w := utf8.DecodeRuneInString(s[pos:]); w > 0 {
				pos += w
			} else {
				pos = len(s) + 1
			}
		} else {
			pos = loc[1]
		}
		prevEnd = loc[1]
		if accept {
			if err := f(loc); err != nil {
				return err
			}
		}
	}
	return nil
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

// looksBehind reports whether re has an assertion (^, \A, \b, \B) that
// depends on the text before a position: without one a search may start
// anywhere.
func looksBehind(re *regexp.Regexp) bool {
	t, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return true
	}
	var walk func(*syntax.Regexp) bool
	walk = func(t *syntax.Regexp) bool {
		switch t.Op {
		case syntax.OpBeginLine, syntax.OpBeginText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
			return true
		}
		for _, s := range t.Sub {
			if walk(s) {
				return true
			}
		}
		return false
	}
	return walk(t)
}

// ctxReader reads s from i as runes, as a string input gives them to a
// regexp, and ends early when the run is stopped (err is then set).
type ctxReader struct {
	p   *interp
	s   string
	i   int
	n   int
	err error
}

func (r *ctxReader) ReadRune() (rune, int, error) {
	if r.n++; r.n&0xffff == 0 {
		if r.err = r.p.checkContextNow(); r.err != nil {
			return 0, 0, io.EOF
		}
	}
	if r.i >= len(r.s) {
		return 0, 0, io.EOF
	}
	c, w := rune(r.s[r.i]), 1
	if c >= utf8.RuneSelf {
		c, w = utf8.DecodeRuneInString(r.s[r.i:])
	}
	r.i += w
	return c, w, nil
}

// regexStop carries the error that stops a replacement midway.
type regexStop struct{ err error }

// gsubLong is gsub of a long string by a regexp that does not look
// behind: its matches are found by the stoppable reader.
func (p *interp) gsubLong(re *regexp.Regexp, repl, in string) (string, int, error) {
	var b strings.Builder
	count, last, size := 0, 0, len(in)
	err := p.eachMatch(re, in, func(loc []int) error {
		count++
		m := in[loc[0]:loc[1]]
		if size += replLen(repl, len(m)) - len(m); size > MaxString {
			return errStringTooLong()
		}
		b.WriteString(in[last:loc[0]])
		b.WriteString(expandRepl(repl, m))
		last = loc[1]
		return nil
	})
	if err != nil {
		return "", 0, err
	}
	b.WriteString(in[last:])
	return b.String(), count, nil
}
