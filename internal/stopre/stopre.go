// Package stopre searches long subjects with Go's regular expressions in
// a way the run's context can stop (session 18, red team).
//
// Go's regexp looks at no context: one search of a 16 MB subject takes
// seconds to minutes (`[a-z]{1,30}Q`: 12 s), and a search of all matches
// runs to its end. Reading the subject through an io.RuneReader that
// looks at the context makes a search stoppable, but a reader is taken
// for the start of the text: a search from a later position saw `^`,
// `\A` and `\b` as at the start, so the regexps that look behind
// (awk's gsub and split with `^` or `\b`, sed's, jq's) were searched
// unstoppably. A Searcher gives the search from a later position the
// character before it: it reads that character first, through a regexp
// that consumes it (`\A(?s:.)`), so that the assertions after it see it.
//
// Where a search reads through a Reader (here, in posixre, awk, jq,
// expr, [[ =~ ]] and the shell's pattern expansions), it does so from 16
// KiB of subject (a megabyte until session 18: `[[ $s =~ [a-z]{1,1000}Q ]]`
// of 1,040,000 bytes answered 86 s past a 500 ms limit), and the Reader
// looks every 1024 characters (every 65536 before): the cost of one
// character grows with the regexp's states. One search of less than 16
// KiB, and one character of a regexp of millions of states, still cannot
// be stopped: Go's regexp looks at no context.
package stopre

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode/utf8"
)

// Searcher searches for one regexp's matches, stoppably. It is safe for
// concurrent use.
type Searcher struct {
	re      *regexp.Regexp
	longest bool
	behind  bool
	prefix  string // every match starts with it

	once     sync.Once
	first    *regexp.Regexp // \A(?s:.)(?s:.*?)(re), leftmost-first: where the next match starts
	anchored *regexp.Regexp // \A(?s:.)(?:re), leftmost-longest: the match there
	derr     error
}

// New is a Searcher for re, which was compiled leftmost-longest (its
// Longest method called) if longest is true.
func New(re *regexp.Regexp, longest bool) *Searcher {
	s := &Searcher{re: re, longest: longest, behind: LooksBehind(re)}
	s.prefix, _ = re.LiteralPrefix()
	if s.prefix == "" && s.behind {
		s.prefix = prefixAfterAsserts(re)
	}
	return s
}

// prefixAfterAsserts is the literal prefix of re's matches after the
// assertions it starts with (\bfoo\b: foo), or "".
func prefixAfterAsserts(re *regexp.Regexp) string {
	t, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil || t.Op != syntax.OpConcat {
		return ""
	}
	sub := t.Sub
	for len(sub) > 0 && isAssert(sub[0].Op) {
		sub = sub[1:]
	}
	if len(sub) == len(t.Sub) {
		return ""
	}
	t.Sub = sub
	// The prefix of the rest's program, as regexp.Compile(t.String())'s
	// LiteralPrefix (the rest starts with no assertion, so it is never
	// one-pass), without printing t: String works out the flags of each
	// character class rune by rune, milliseconds for [^a].
	prog, err := syntax.Compile(t.Simplify())
	if err != nil {
		return ""
	}
	prefix, _ := prog.Prefix()
	return prefix
}

func isAssert(op syntax.Op) bool {
	switch op {
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	}
	return false
}

// Regexp is the regexp s searches for.
func (s *Searcher) Regexp() *regexp.Regexp { return s.re }

// derived compiles the regexps of a search from a later position.
func (s *Searcher) derived() error {
	s.once.Do(func() {
		src := s.re.String()
		s.first, s.derr = regexp.Compile(`\A(?s:.)(?s:.*?)(` + src + `)`)
		if s.derr == nil && s.longest {
			s.anchored, s.derr = regexp.Compile(`\A(?s:.)(?:` + src + `)`)
			if s.derr == nil {
				s.anchored.Longest()
			}
		}
	})
	return s.derr
}

// Find is the leftmost match of the regexp in text at or after pos (a
// boundary of a character as Go's regexp decodes text), with its
// submatches, as re.FindSubmatchIndex gives them but as offsets in text:
// the match that Go's FindAllSubmatchIndex finds when its search goes on
// at pos. It fails with ctx's error once ctx is done (looked at every
// 1024 characters read).
func Find[T ~string | ~[]byte](ctx context.Context, s *Searcher, text T, pos int) ([]int, error) {
	return find(ctx, s, text, pos, true, new(int))
}

// Index is Find without the submatches: the match's start and end.
func Index[T ~string | ~[]byte](ctx context.Context, s *Searcher, text T, pos int) ([]int, error) {
	loc, err := find(ctx, s, text, pos, false, new(int))
	if len(loc) > 2 {
		loc = loc[:2]
	}
	return loc, err
}

// find is Find; read counts the characters read, across the searches of
// Each, so that the context is looked at every 1024 of them in all.
func find[T ~string | ~[]byte](ctx context.Context, s *Searcher, text T, pos int, groups bool, read *int) ([]int, error) {
	if s.prefix != "" && (!s.behind || s.derived() == nil) {
		// Every match starts with prefix: none before its next
		// occurrence (the NFA of a reader has no such skip). Where re
		// looks behind, the search from there needs the derived
		// regexps.
		k := index(text[pos:], s.prefix)
		if k < 0 {
			return nil, nil
		}
		pos += k
	}
	if pos == 0 || !s.behind {
		rd := &Reader[T]{Ctx: ctx, Text: text, Pos: pos, n: *read}
		defer func() { *read = rd.n }()
		if !groups {
			return shift(s.re.FindReaderIndex(rd), pos, rd.Err)
		}
		return shift(s.re.FindReaderSubmatchIndex(rd), pos, rd.Err)
	}
	if err := s.derived(); err != nil {
		return nil, err
	}
	rd := behindReader(ctx, text, pos)
	rd.n = *read
	defer func() { *read = rd.n }()
	off := rd.Pos - rd.FirstWidth
	loc := s.first.FindReaderSubmatchIndex(rd)
	if rd.Err != nil || loc == nil {
		return nil, rd.Err
	}
	loc = loc[2:] // group 1 is the match, the groups after it re's
	if !s.longest {
		return shift(loc, off, nil)
	}
	start := loc[0] + off
	read1 := rd.n
	rd = behindReader(ctx, text, start)
	rd.n = read1
	off = rd.Pos - rd.FirstWidth
	loc = s.anchored.FindReaderSubmatchIndex(rd)
	if rd.Err != nil || loc == nil {
		return nil, rd.Err
	}
	loc, err := shift(loc, off, nil)
	loc[0] = start
	return loc, err
}

// Long is the length of a subject from which MatchLong reads it through
// a Reader.
const Long = 1 << 14

// MatchLong reports whether re matches text, through a Reader that looks
// at ctx when text is Long or longer; it fails with ctx's error once ctx
// is done.
func MatchLong[T ~string | ~[]byte](ctx context.Context, re *regexp.Regexp, text T) (bool, error) {
	if len(text) < Long {
		switch t := any(text).(type) {
		case string:
			return re.MatchString(t), nil
		case []byte:
			return re.Match(t), nil
		}
	}
	rd := &Reader[T]{Ctx: ctx, Text: text}
	ok := re.MatchReader(rd)
	return ok && rd.Err == nil, rd.Err
}

// Each calls fn with each match of the regexp in text, as Go's
// FindAllSubmatchIndex finds them (an empty match right after a match is
// skipped), at most n of them if n >= 0, until fn returns false; it
// fails with ctx's error once ctx is done. fn must not keep loc.
func Each[T ~string | ~[]byte](ctx context.Context, s *Searcher, text T, n int, fn func(loc []int) bool) error {
	if s.behind && s.derived() != nil {
		// The regexps of a search from a later position did not
		// compile (a \Q without \E takes the closing parenthesis in):
		// the search of all matches runs as Go's, not stoppable.
		var all [][]int
		switch t := any(text).(type) {
		case string:
			all = s.re.FindAllStringSubmatchIndex(t, n)
		case []byte:
			all = s.re.FindAllSubmatchIndex(t, n)
		default:
			all = s.re.FindAllStringSubmatchIndex(string(text), n)
		}
		for _, loc := range all {
			if !fn(loc) {
				break
			}
		}
		return nil
	}
	read := 0
	for pos, prevEnd, count := 0, -1, 0; pos <= len(text) && (n < 0 || count < n); {
		loc, err := find(ctx, s, text, pos, true, &read)
		if err != nil || loc == nil {
			return err
		}
		accept := true
		if loc[1] == pos {
			accept = loc[0] != prevEnd
			if _, w := utf8.DecodeRuneInString(string(text[pos:min(len(text), pos+utf8.UTFMax)])); w > 0 {
				pos += w
			} else {
				pos = len(text) + 1
			}
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

// index is strings.Index or bytes.Index of text.
func index[T ~string | ~[]byte](text T, sub string) int {
	switch t := any(text).(type) {
	case string:
		return strings.Index(t, sub)
	case []byte:
		return bytes.Index(t, []byte(sub))
	}
	return strings.Index(string(text), sub) // another named type: a copy
}

// behindReader reads text from pos, the character before pos first.
func behindReader[T ~string | ~[]byte](ctx context.Context, text T, pos int) *Reader[T] {
	c, w := utf8.DecodeLastRuneInString(string(text[max(0, pos-utf8.UTFMax):pos]))
	return &Reader[T]{Ctx: ctx, Text: text, Pos: pos, First: c, FirstWidth: w}
}

// shift adds off to each offset of loc that is not -1.
func shift(loc []int, off int, err error) ([]int, error) {
	if err != nil {
		return nil, err
	}
	for i := range loc {
		if loc[i] >= 0 {
			loc[i] += off
		}
	}
	return loc, nil
}

// LooksBehind reports whether re has an assertion (^, \A, \b, \B) that
// depends on the text before a position.
func LooksBehind(re *regexp.Regexp) bool {
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

// Reader reads Text from Pos as runes, as a regexp reads a string or
// []byte input, and ends early (Err is then set) once Ctx (if not nil)
// is done: it looks every 1024 characters. With FirstWidth > 0 it gives
// First, of that width, before the text.
type Reader[T ~string | ~[]byte] struct {
	Ctx        context.Context
	Text       T
	Pos        int
	First      rune
	FirstWidth int
	Err        error
	n          int
}

// ReadRune is io.RuneReader's.
func (r *Reader[T]) ReadRune() (rune, int, error) {
	if r.n++; r.n&0x3ff == 0 && r.Ctx != nil {
		if r.Err = r.Ctx.Err(); r.Err != nil {
			return 0, 0, io.EOF
		}
	}
	if r.FirstWidth > 0 {
		w := r.FirstWidth
		r.FirstWidth = 0
		return r.First, w, nil
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
