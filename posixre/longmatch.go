package posixre

import (
	"context"
	"slices"

	"github.com/llmsh/llmsh/internal/stopre"
)

// A match of a long subject that the run's context can stop (session 17,
// red team): one search of a 16 MB line took sed a minute
// (`[a-z]{1,30}Q`) without a look at the context, so a library
// Session.Run went on that long past its time limit. A subject of
// longSubject bytes or more is searched through internal/stopre, which
// reads it through a reader that looks at ctx every 1024 characters;
// since session 18 (red team) this holds for the patterns whose RE2 form
// looks behind (^, \b) or needs checks (\<, \>) too, and the
// backtracking matcher (back-references; up to 25 s a search within its
// budget) looks at ctx every 65536 steps, whatever the subject's length.

// longSubject is the length from which a match looks at the context.
var longSubject = 1 << 14

// allSubject is the length from which a search of all matches looks at
// the context (session 18, red team): each of its searches may read to
// the end, s/a\([^b]*b\)\{0,1\}/x/g of 128 KB of a's read 8 GB (past
// 60 s); the context is looked at every 1024 characters read in all.
var allSubject = 1 << 10

// MatchContext is Match, failing with ctx's error once ctx is done.
func (r *Regexp) MatchContext(ctx context.Context, b []byte) (bool, error) {
	if v := r.forSubject(b); v != r {
		return v.MatchContext(ctx, b)
	}
	if r.needLatin1(b) {
		b = toLatin1(b).b
	}
	if r.re != nil {
		switch {
		case len(r.tr.Checks) != 0:
		case len(b) < longSubject:
			return r.re.Match(b), nil
		default:
			rd := &stopre.Reader[[]byte]{Ctx: ctx, Text: b}
			ok := r.re.MatchReader(rd)
			return ok && rd.Err == nil, rd.Err
		}
		loc, err := r.find(ctx, b)
		if err != nil || loc == nil {
			return false, err
		}
		if len(r.tr.Checks) == 0 || r.checksHold(b, loc) {
			return true, nil
		}
	}
	m := r.newBT(b)
	m.ctx = ctx
	loc, err := m.find(0)
	return loc != nil, err
}

// find is the RE2 form's first match of b, stoppable when b is long.
func (r *Regexp) find(ctx context.Context, b []byte) ([]int, error) {
	if len(b) < longSubject {
		return r.re.FindSubmatchIndex(b), nil
	}
	return stopre.Find(ctx, r.srch, b, 0)
}

// FindSubmatchIndexContext is FindSubmatchIndex, failing with ctx's error
// once ctx is done. One search from the start may look behind (^, \b), so
// only the checks (\<, \>) and a pattern RE2 cannot express leave it to
// FindSubmatchIndex.
func (r *Regexp) FindSubmatchIndexContext(ctx context.Context, b []byte) ([]int, error) {
	if v := r.forSubject(b); v != r {
		return v.FindSubmatchIndexContext(ctx, b)
	}
	var l *latin1
	if r.needLatin1(b) {
		l = toLatin1(b)
		b = l.b
	}
	if len(b) < longSubject || r.re == nil || len(r.tr.Checks) != 0 {
		var out []int
		err := r.findAll(context.TODO(), b, 1, func(loc []int) bool {
			out = append([]int(nil), loc...)
			return false
		})
		return l.mapLoc(out), err
	}
	rd := &ContextReader[[]byte]{Ctx: ctx, Text: b}
	loc := r.re.FindReaderSubmatchIndex(rd)
	if rd.Err != nil || loc == nil {
		return nil, rd.Err
	}
	out := make([]int, 2*(r.ngroups+1))
	r.mapGroups(out, loc)
	return l.mapLoc(out), nil
}

// FindAllContext is FindAll, failing with ctx's error once ctx is done.
func (r *Regexp) FindAllContext(ctx context.Context, b []byte, n int, fn func(loc []int) bool) error {
	if v := r.forSubject(b); v != r {
		return v.FindAllContext(ctx, b, n, fn)
	}
	if r.needLatin1(b) {
		l := toLatin1(b)
		b, fn = l.b, l.mapped(fn)
	}
	if r.re != nil && len(b) >= min(allSubject, longSubject) {
		var all [][]int // the RE2 form's matches, when their checks must hold
		ok := true
		out := make([]int, 2*(r.ngroups+1))
		err := stopre.Each(ctx, r.srch, b, n, func(loc []int) bool {
			if len(r.tr.Checks) == 0 {
				r.mapGroups(out, loc)
				return fn(out)
			}
			if ok = r.checksHold(b, loc); ok {
				all = append(all, slices.Clone(loc))
			}
			return ok
		})
		if err != nil || len(r.tr.Checks) == 0 {
			return err
		}
		return r.yieldAll(ctx, b, all, ok, n, fn)
	}
	return r.findAll(ctx, b, n, fn)
}

// ContextReader reads Text from Pos as runes, as a regexp reads a
// string or []byte input, and ends early (Err is then set) once Ctx is
// done: it looks every 1024 characters (internal/stopre's Reader).
type ContextReader[T ~string | ~[]byte] = stopre.Reader[T]
