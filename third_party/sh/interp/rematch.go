package interp

import (
	"context"
	"io"
	"regexp"
	"unicode/utf8"
)

// llmsh: [[ s =~ re ]] of a long string can be stopped. One leftmost-
// longest match scans a 16 MB string for a minute (`[a-z]{1,30}Q`), and
// nothing looked at the run's context meanwhile, so a library
// Session.Run went on a minute past its time limit (session 17, red
// team). A string of longMatch bytes or more is read through a reader
// that looks at the context every 1024 characters.

// longMatch is the length from which a match looks at the context.
var longMatch = 1 << 14

// findSubmatchCtx is re.FindStringSubmatch(s), nil once ctx is done.
func findSubmatchCtx(ctx context.Context, re *regexp.Regexp, s string) []string {
	if len(s) < longMatch {
		return re.FindStringSubmatch(s)
	}
	rd := &ctxRuneReader{ctx: ctx, s: s}
	loc := re.FindReaderSubmatchIndex(rd)
	if rd.stopped || loc == nil {
		return nil
	}
	m := make([]string, len(loc)/2)
	for i := range m {
		if loc[2*i] >= 0 {
			m[i] = s[loc[2*i]:loc[2*i+1]]
		}
	}
	return m
}

// ctxRuneReader reads s as runes, as a string input gives them to a
// regexp, and ends early (stopped) once ctx is done.
type ctxRuneReader struct {
	ctx     context.Context
	s       string
	i, n    int
	stopped bool
}

func (r *ctxRuneReader) ReadRune() (rune, int, error) {
	if r.n++; r.n&0x3ff == 0 && r.ctx.Err() != nil {
		r.stopped = true
		return 0, 0, io.EOF
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
