package expand

import (
	"context"
	"io"
	"regexp"
	"unicode/utf8"
)

// llmsh: a pattern match of a long value can be stopped. ${s//a*Q/x} and
// ${s##*Q*a} of a 64 MB value scanned it for 44 s and 17 s without
// looking at the run's context, so a library Session.Run with a 1 s
// limit answered that late (a 256 MB value: minutes; session 17, red
// team). A value of longMatch bytes or more is read through a reader
// that looks at Config.Ctx every 1024 characters; a stopped run ends
// the expansion with the context's error (valuePanic), which interp
// takes silently as a run being stopped.

// longMatch is the length from which a match looks at the context.
var longMatch = 1 << 14

// mustGoOn ends the expansion once the run is stopped.
func (cfg *Config) mustGoOn() {
	if cfg.Ctx != nil {
		if err := cfg.Ctx.Err(); err != nil {
			panic(valuePanic{err})
		}
	}
}

// findFrom is rx's leftmost match in s[pos:], as offsets in s. rx must
// not look behind (a search from pos takes pos for the start).
func (cfg *Config) findFrom(rx *regexp.Regexp, s string, pos int) []int {
	var loc []int
	if len(s)-pos < longMatch || cfg.Ctx == nil {
		loc = rx.FindStringIndex(s[pos:])
	} else {
		rd := &ctxRuneReader{ctx: cfg.Ctx, s: s, i: pos}
		loc = rx.FindReaderIndex(rd)
		if rd.stopped {
			cfg.mustGoOn()
		}
	}
	if loc != nil {
		loc[0] += pos
		loc[1] += pos
	}
	return loc
}

// findSubmatch is rx.FindStringSubmatchIndex(s), stopped with the run.
func (cfg *Config) findSubmatch(rx *regexp.Regexp, s string) []int {
	if len(s) < longMatch || cfg.Ctx == nil {
		return rx.FindStringSubmatchIndex(s)
	}
	rd := &ctxRuneReader{ctx: cfg.Ctx, s: s}
	loc := rx.FindReaderSubmatchIndex(rd)
	if rd.stopped {
		cfg.mustGoOn()
	}
	return loc
}

// ctxRuneReader reads s from i as runes, as a string input gives them to
// a regexp, and ends early (stopped) once ctx is done.
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
