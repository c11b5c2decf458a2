package posixre

import (
	"context"
	"io"
	"regexp"
	"regexp/syntax"
	"unicode/utf8"
)

// A match of a long subject that the run's context can stop (session 17,
// red team): one search of a 16 MB line took sed a minute
// (`[a-z]{1,30}Q`) without a look at the context, so a library
// Session.Run went on that long past its time limit. A subject of
// longSubject bytes or more is read through a reader that looks at ctx
// every 65536 characters, where the RE2 form is exact; other matches are
// as Match and FindAll.

// longSubject is the length from which a match looks at the context.
var longSubject = 1 << 20

// MatchContext is Match, failing with ctx's error once ctx is done.
func (r *Regexp) MatchContext(ctx context.Context, b []byte) (bool, error) {
	if len(b) < longSubject || r.re == nil || len(r.tr.Checks) != 0 {
		return r.Match(b)
	}
	rd := &ContextReader[[]byte]{Ctx: ctx, Text: b}
	ok := r.re.MatchReader(rd)
	if rd.Err != nil {
		return false, rd.Err
	}
	return ok, nil
}

// FindSubmatchIndexContext is FindSubmatchIndex, failing with ctx's error
// once ctx is done. One search from the start may look behind (^, \b), so
// only the checks (\<, \>) and a pattern RE2 cannot express leave it to
// FindSubmatchIndex.
func (r *Regexp) FindSubmatchIndexContext(ctx context.Context, b []byte) ([]int, error) {
	if len(b) < longSubject || r.re == nil || len(r.tr.Checks) != 0 {
		return r.FindSubmatchIndex(b)
	}
	rd := &ContextReader[[]byte]{Ctx: ctx, Text: b}
	loc := r.re.FindReaderSubmatchIndex(rd)
	if rd.Err != nil || loc == nil {
		return nil, rd.Err
	}
	out := make([]int, 2*(r.ngroups+1))
	r.mapGroups(out, loc)
	return out, nil
}

// FindAllContext is FindAll, failing with ctx's error once ctx is done.
// Where the RE2 form looks behind (^, \b), a search cannot start midway
// and FindAll runs as it is.
func (r *Regexp) FindAllContext(ctx context.Context, b []byte, n int, fn func(loc []int) bool) error {
	if len(b) < longSubject || r.re == nil || len(r.tr.Checks) != 0 || looksBehind(r.re) {
		return r.FindAll(b, n, fn)
	}
	out := make([]int, 2*(r.ngroups+1))
	// Go's allMatches: an empty match right after a match is skipped,
	// and the search goes on a character past an empty match.
	for pos, prevEnd, count := 0, -1, 0; pos <= len(b) && (n < 0 || count < n); {
		rd := &ContextReader[[]byte]{Ctx: ctx, Text: b, Pos: pos}
		loc := r.re.FindReaderSubmatchIndex(rd)
		if rd.Err != nil {
			return rd.Err
		}
		if loc == nil {
			return nil
		}
		for i := range loc {
			if loc[i] >= 0 {
				loc[i] += pos
			}
		}
		accept := true
		if loc[1] == pos {
			accept = loc[0] != prevEnd
			if _, w := utf8.DecodeRune(b[pos:]); w > 0 {
				pos += w
			} else {
				pos = len(b) + 1
			}
		} else {
			pos = loc[1]
		}
		prevEnd = loc[1]
		if accept {
			count++
			r.mapGroups(out, loc)
			if !fn(out) {
				return nil
			}
		}
	}
	return nil
}

// looksBehind reports whether re has an assertion (^, \A, \b, \B) that
// depends on the text before a position.
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

// ContextReader reads Text from Pos as runes, as a regexp reads a
// string or []byte input, and ends early (Err is then set) once Ctx is
// done: it looks every 65536 characters. It makes a Go regexp's search
// of a long subject stoppable (FindReaderIndex and the like).
type ContextReader[T ~string | ~[]byte] struct {
	Ctx  context.Context
	Text T
	Pos  int
	Err  error
	n    int
}

// ReadRune is io.RuneReader's.
func (r *ContextReader[T]) ReadRune() (rune, int, error) {
	if r.n++; r.n&0xffff == 0 {
		if r.Err = r.Ctx.Err(); r.Err != nil {
			return 0, 0, io.EOF
		}
	}
	if r.Pos >= len(r.Text) {
		return 0, 0, io.EOF
	}
	c, w := rune(r.Text[r.Pos]), 1
	if c >= utf8.RuneSelf {
		c, w = utf8.DecodeRuneInString(string(r.Text[r.Pos:min(len(r.Text), r.Pos+utf8.UTFMax)]))
	}
	r.Pos += w
	return c, w, nil
}
