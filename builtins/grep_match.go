package builtins

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/llmsh/llmsh/internal/stopre"
	"github.com/llmsh/llmsh/posixre"
	"github.com/llmsh/llmsh/third_party/regexp2"
	regexp2syntax "github.com/llmsh/llmsh/third_party/regexp2/syntax"
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
	// win, when set, decides whether a line matches by looking only at a
	// window of winLen bytes on each side of an occurrence of must: the
	// pattern's matches are at most winLen bytes long and depend on
	// nothing outside themselves (no anchors, no word boundaries).
	win    *regexp.Regexp
	winLen int
	perl   *regexp.Regexp  // -P, when RE2 can take the pattern
	perl2  *regexp2.Regexp // -P otherwise: look-around, backreferences
	keep   bool            // perl2 has \K, as the group regexp2syntax.KeepName
	// lat: -P in the C locale, as PCRE2 without UTF: a line with bytes of
	// 0x80 and over is matched in its Latin-1 form (posixre.Latin1), so
	// that each byte is one character; the pattern was read so too.
	lat bool
	// deadline, when set, is the run's: no perl2 match goes on past it.
	deadline time.Time
	only     *grepMatcher // with all: the non-empty patterns, for -o
	// ctx, when set, is the run's: a search of grepLong bytes or more
	// reads them through internal/stopre, which looks at it (session 18,
	// red team: grep -E '[a-z]{1,1000}[0-9]' of a 1 MB line answered 64
	// s past a 500 ms limit).
	ctx          context.Context
	scanS, perlS *stopre.Searcher
	// u8: a pattern's RE2 form matches a byte that is not UTF-8 where
	// GNU's does not (posixre's utf8.go).
	u8  bool
	set *grepSet // many fixed strings (grep_fixedset.go)
}

// grepLong is the length of a buffer or line from which a search reads
// it through a reader that looks at the run's context.
var grepLong = 1 << 14

// setCtx makes m's searches stop with ctx, and its -P matches end by
// ctx's deadline.
func (m *grepMatcher) setCtx(ctx context.Context) {
	m.ctx = ctx
	if d, ok := ctx.Deadline(); ok {
		m.deadline = d
	}
	if m.scan != nil {
		m.scanS = stopre.New(m.scan, true) // leftmost-longest
	}
	if m.perl != nil {
		m.perlS = stopre.New(m.perl, false)
	}
	if m.only != nil {
		m.only.setCtx(ctx)
	}
}

// long reports whether a search of b reads it through stopre.
func (m *grepMatcher) long(b []byte) bool { return m.ctx != nil && len(b) >= grepLong }

// findIndex is re's first match in b (a Searcher of m), stoppable.
func (m *grepMatcher) findIndex(re *regexp.Regexp, s *stopre.Searcher, b []byte) ([]int, error) {
	if !m.long(b) || s == nil {
		return re.FindIndex(b), nil
	}
	return stopre.Index(m.ctx, s, b, 0)
}

// eachRE2 calls fn with each non-empty match of re in line.
func (m *grepMatcher) eachRE2(re *regexp.Regexp, s *stopre.Searcher, line []byte, fn func(s, e int)) error {
	if !m.long(line) || s == nil {
		for _, loc := range re.FindAllIndex(line, -1) {
			if loc[1] > loc[0] {
				fn(loc[0], loc[1])
			}
		}
		return nil
	}
	return stopre.Each(m.ctx, s, line, -1, func(loc []int) bool {
		if loc[1] > loc[0] {
			fn(loc[0], loc[1])
		}
		return true
	})
}

type grepPatternError struct{ msg string }

// grepPerlTimeout bounds one -P match of the backtracking engine, as
// PCRE's backtracking limit bounds GNU grep's.
const grepPerlTimeout = 10 * time.Second

// PCRE's horizontal and vertical white space, \h and \v, as members of a
// bracket expression that both engines read (RE2's \v is a vertical tab
// only, and neither knows \h).
const (
	grepPerlH = `\t\x20` + "\u00a0\u1680\u180e\u2000-\u200a\u202f\u205f\u3000"
	grepPerlV = `\n\x0b\f\r` + "\u0085\u2028\u2029"
)

// grepPerlClasses writes PCRE's escapes \h \H \v \V \R and \N, which
// neither engine has (or has with another meaning), as classes they read
// (\N{U+hhhh}, a character, is regexp2's in its PCRE2 mode).
func grepPerlClasses(expr string) string {
	if !strings.ContainsAny(expr, `\`) {
		return expr
	}
	return grepPerlRewrite(expr, func(c byte, rest string, class bool) (string, int, bool) {
		switch {
		case class && c == 'h':
			return grepPerlH, 0, true
		case class && c == 'v':
			return grepPerlV, 0, true
		case class:
			return "", 0, false
		case c == 'h':
			return "[" + grepPerlH + "]", 0, true
		case c == 'H':
			return "[^" + grepPerlH + "]", 0, true
		case c == 'v':
			return "[" + grepPerlV + "]", 0, true
		case c == 'V':
			return "[^" + grepPerlV + "]", 0, true
		case c == 'R':
			return `(?:\r\n|[` + grepPerlV + "])", 0, true
		case c == 'N' && (!strings.HasPrefix(rest, "{") || len(rest) > 1 && rest[1] >= '0' && rest[1] <= '9'):
			return `[^\n]`, 0, true // not \N{U+hhhh} nor \N{name}; \N{2} is \N twice
		case (c == 'p' || c == 'P') && rest != "":
			// PCRE2's caseless matching leaves a property alone:
			// grep -Pi '\p{Lu}' matches no lower-case letter
			n := 1
			if rest[0] == '{' {
				if n = strings.IndexByte(rest, '}') + 1; n == 0 {
					return "", 0, false
				}
			}
			return `(?-i:\` + string(c) + rest[:n] + ")", n, true
		}
		return "", 0, false
	})
}

// grepPerlRewrite copies expr, replacing each escape \c, and the n bytes
// after it, by what with(c, rest, class) returns when it says so; rest is
// what follows c, class tells whether the escape is in a bracket
// expression.
func grepPerlRewrite(expr string, with func(c byte, rest string, class bool) (string, int, bool)) string {
	var b strings.Builder
	class := false
	for i := 0; i < len(expr); i++ {
		c := expr[i]
		switch {
		case c == '\\' && i+1 < len(expr):
			if r, n, ok := with(expr[i+1], expr[i+2:], class); ok {
				b.WriteString(r)
				i += n
			} else {
				b.WriteString(expr[i : i+2])
			}
			i++
			continue
		case c == '[' && !class:
			class = true
			b.WriteByte(c)
			// A ] first in the class (after ^) is a member.
			if i+1 < len(expr) && expr[i+1] == '^' {
				b.WriteByte('^')
				i++
			}
			if i+1 < len(expr) && expr[i+1] == ']' {
				b.WriteByte(']')
				i++
			}
			continue
		case c == ']' && class:
			class = false
		}
		b.WriteByte(c)
	}
	return b.String()
}

// grepPerlByteEscapes is PCRE2's error, without UTF (the C locale), for an
// escape of a character past 0xff (\x{100}, \o{400}, \N{U+hhhh}), or "".
func grepPerlByteEscapes(expr string) string {
	for i := 0; i+1 < len(expr); i++ {
		if expr[i] != '\\' {
			continue
		}
		rest := expr[i+2:]
		switch expr[i+1] {
		case 'Q': // quoted up to \E
			end := strings.Index(rest, `\E`)
			if end < 0 {
				return ""
			}
			i += 2 + end + 1
			continue
		case 'x', 'o':
			base := 16
			if expr[i+1] == 'o' {
				base = 8
			}
			if body, ok := strings.CutPrefix(rest, "{"); ok {
				if end := strings.IndexByte(body, '}'); end > 0 {
					if v, err := strconv.ParseUint(body[:end], base, 64); err == nil && v > 0xff ||
						errors.Is(err, strconv.ErrRange) {
						return "character code point value in \\x{} or \\o{} is too large"
					}
				}
			}
		case 'N':
			if strings.HasPrefix(rest, "{U+") {
				return "\\N{U+dddd} is supported only in Unicode (UTF) mode"
			}
		}
		i++
	}
	return ""
}

// grepPerlError words a -P pattern's compile error.
func grepPerlError(err error) string {
	var se *regexp2syntax.Error
	if !errors.As(err, &se) {
		return err.Error()
	}
	// PCRE2's words, as GNU grep prints them, for the common mistakes.
	switch se.Code {
	case regexp2syntax.ErrMissingParen:
		return "missing closing parenthesis"
	case regexp2syntax.ErrUnexpectedParen:
		return "unmatched closing parenthesis"
	case regexp2syntax.ErrUnterminatedBracket:
		return "missing terminating ] for character class"
	case regexp2syntax.ErrMissingRepeatArgument:
		return "quantifier does not follow a repeatable item"
	case regexp2syntax.ErrIllegalEndEscape:
		return "\\ at end of pattern"
	case regexp2syntax.ErrInvalidRepeatSize: // a{2,1}
		return "numbers out of order in {} quantifier"
	case regexp2syntax.ErrUndefinedBackRef, regexp2syntax.ErrUndefinedNameRef: // (a)\2
		return "reference to non-existent subpattern"
	case regexp2syntax.ErrInvalidRepeatOp: // a** a{2}{3}
		return "quantifier does not follow a repeatable item"
	case regexp2syntax.ErrUnterminatedComment: // (?#c
		return "missing ) after (?# comment"
	case regexp2syntax.ErrBadClassInCharRange: // [a-\d]
		return "invalid range in character class"
	case regexp2syntax.ErrReversedCharRange: // [z-a]
		return "range out of order in character class"
	case regexp2syntax.ErrIncompleteSlashP: // \p{Lu
		return "malformed \\P or \\p sequence"
	case regexp2syntax.ErrUnknownSlashP: // \p{Xx}
		return "unknown property after \\P or \\p"
	}
	msg := se.Code.String()
	if len(se.Args) > 0 {
		msg = fmt.Sprintf(msg, se.Args...)
	}
	return msg
}

// grepPerlMatchError is GNU grep's message for a -P match that gave up.
func grepPerlMatchError(err error) error {
	if err == nil {
		return nil
	}
	return errors.New("exceeded PCRE's backtracking limit")
}

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

// grepScanMax bounds the length of the one RE2 alternation of all patterns
// that a search scans buffers with: Go compiles it without looking at any
// context (a 2 MB one took 3.6 s), so longer lists match line by line.
const grepScanMax = 1 << 20

// newGrepMatcher compiles pats; cloc is the C locale, where each byte is a
// character (posixre.Bytes). It stops, with ctx's error, when ctx is done.
func newGrepMatcher(ctx context.Context, pats []string, mode byte, icase, word, line bool, eol byte, cloc bool) (*grepMatcher, []string, error) {
	m := &grepMatcher{eol: eol}
	if mode == 'P' {
		m.lat = cloc
		return newGrepPerl(m, pats, icase, word, line, eol)
	}
	if mode == 'F' && len(pats) == 1 && !icase && !word && !line && pats[0] != "" && strings.IndexByte(pats[0], eol) < 0 {
		m.fixed = []byte(pats[0])
		return m, nil, nil
	}
	if !word && !line {
		var rest []string
		for _, p := range pats {
			if p == "" {
				m.all = true
			} else {
				rest = append(rest, p)
			}
		}
		if m.all {
			// Every line matches; -o still prints what the other
			// patterns match (GNU: grep -o -e '' -e two).
			if len(rest) > 0 {
				only, warnings, err := newGrepMatcher(ctx, rest, mode, icase, word, line, eol, cloc)
				if err != nil {
					return nil, nil, err
				}
				m.only = only
				return m, warnings, nil
			}
			return m, nil, nil
		}
	}
	if grepSetFits(pats, mode, icase, word, line, eol, cloc) {
		set, err := newGrepSet(ctx, pats, icase, word, line, cloc)
		if err != nil {
			return nil, nil, err
		}
		m.set = set
		return m, nil, nil
	}
	// A line ends at eol; with -z (eol 0) a newline is a character like
	// any other, as in GNU grep: '.' and [^a] match it, and ^ and $ match
	// only at the ends of the NUL-ended line.
	var fl posixre.Flags
	if eol == '\n' {
		fl = posixre.Lines
	}
	if mode == 'E' {
		fl |= posixre.ERE
	}
	if icase {
		fl |= posixre.IgnoreCase
	}
	if cloc {
		fl |= posixre.Bytes
	}
	if line {
		fl |= posixre.MatchLines
	} else if word {
		fl |= posixre.MatchWords
	}
	var warnings []string
	seen := map[string]bool{}
	for i, p := range pats {
		if i%grepSetCheck == 0 && ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
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
		m.u8 = m.u8 || re.UTF8Sensitive()
	}
	if len(m.res) == 0 {
		return m, warnings, nil
	}
	// One RE2 program for the buffer scan.
	var parts []string
	exact, size := true, 0
	for _, re := range m.res {
		r2, ex := re.RE2()
		if r2 == nil || size > grepScanMax {
			parts = nil
			break
		}
		exact = exact && ex
		parts = append(parts, "(?:"+r2.String()+")")
		size += len(parts[len(parts)-1]) + 1
	}
	if parts != nil && eol == '\n' {
		// (The buffer scan finds lines by their newlines: with -z a
		// match could run across a NUL, so each line is matched alone.)
		scan, err := regexp.Compile(strings.Join(parts, "|"))
		if err == nil {
			scan.Longest()
			m.scan, m.exact = scan, exact
		}
	}
	if len(m.res) == 1 {
		if must := m.res[0].Must(); must != "" && strings.IndexByte(must, eol) < 0 {
			m.must, m.fold = []byte(must), icase
			if re, exact := m.res[0].RE2(); re != nil && exact {
				if n, ok := grepMaxLen(re.String()); ok && n >= len(must) {
					m.win, m.winLen = re, n
				}
			}
		}
	}
	return m, warnings, nil
}

// newGrepPerl makes m match the -P pattern of pats: with Go's RE2 when it
// can take the pattern, else with a backtracking engine.
func newGrepPerl(m *grepMatcher, pats []string, icase, word, line bool, eol byte) (*grepMatcher, []string, error) {
	if len(pats) > 1 {
		return nil, nil, &grepPatternError{"the -P option only supports a single pattern"}
	}
	if len(pats[0]) > posixre.MaxLen {
		// PCRE2's words; compiling it would look at no context
		// (session 25, red team: posixre.MaxLen).
		return nil, nil, &grepPatternError{"regular expression is too large"}
	}
	expr := pats[0]
	if m.lat {
		if msg := grepPerlByteEscapes(expr); msg != "" {
			return nil, nil, &grepPatternError{msg}
		}
		l, _ := posixre.Latin1([]byte(expr))
		expr = string(l)
	}
	expr = grepPerlClasses(expr)
	switch {
	case line:
		expr = "^(?:" + expr + ")$"
	case word:
		// GNU grep's -w for PCRE.
		expr = `(?<!\w)(?:` + expr + `)(?!\w)`
	}
	// With -z, PCRE2 matches without MULTILINE, as GNU grep: ^ and $
	// at the ends of the NUL-ended line only.
	flags := "m"
	if eol != '\n' {
		flags = ""
	}
	if icase {
		flags += "i"
	}
	prefix := ""
	if flags != "" {
		prefix = "(?" + flags + ")"
	}
	// In the C locale, RE2 would fold Latin-1 letters under a (?i)
	// written in the pattern: the backtracking engine folds ASCII only.
	inlineFold := m.lat && grepPerlInlineFold(expr)
	if re, err := grepPerlRE2(prefix, expr, m.lat && icase); err == nil && !word && !inlineFold {
		if strings.Contains(expr, "(?<") || strings.Contains(expr, "(?P<") || strings.Contains(expr, "[") {
			// RE2 takes names PCRE2 refuses (a duplicate, a digit
			// first) and bracket expressions ([\d-z])
			if _, err := regexp2syntax.Parse(expr, regexp2syntax.ParseOptions{PCRE2: true}); err != nil {
				return nil, nil, &grepPatternError{grepPerlError(err)}
			}
		}
		m.perl = re
		return m, nil, nil
	}
	// What RE2 cannot do (look-around, backreferences, possessive
	// and atomic groups, \K) goes to a backtracking engine, which parses
	// as PCRE2 does: groups numbered in order, PCRE2's back-reference
	// spellings, its refusals (a lookbehind of varying length, \K in a
	// look-around), and \K as the group regexp2syntax.KeepName.
	// GNU grep compiles with PCRE2_DOLLAR_ENDONLY: with -z, $ is not
	// before a NUL-ended line's final newline.
	opts := regexp2.Multiline | regexp2.DollarEndOnly
	if eol != '\n' {
		opts = regexp2.DollarEndOnly
	}
	if icase {
		opts |= regexp2.IgnoreCase
	}
	if m.lat {
		// PCRE2 without UTF folds ASCII letters only: \xe3 is not
		// \xc3's other case.
		opts |= regexp2.ASCIIFold
	}
	re, err := regexp2.Compile(expr, opts, regexp2.OptionPCRE2())
	if err != nil {
		return nil, nil, &grepPatternError{grepPerlError(err)}
	}
	m.keep = re.GroupNumberFromName(regexp2syntax.KeepName) >= 0
	re.MatchTimeout = grepPerlTimeout
	m.perl2 = re
	return m, nil, nil
}

// grepPerlInlineFold reports whether expr may turn on caseless matching
// itself, with a (?i) or (?x-i:...) group: a ( followed by ? and option
// letters among which is an i (an escaped \( may be taken for one, which
// only sends the pattern to the slower engine).
func grepPerlInlineFold(expr string) bool {
	for i := strings.Index(expr, "(?"); i >= 0; {
		j := i + 2
		for j < len(expr) && strings.IndexByte("imnsxJU^-", expr[j]) >= 0 {
			if expr[j] == 'i' {
				return true
			}
			j++
		}
		k := strings.Index(expr[j:], "(?")
		if k < 0 {
			break
		}
		i = j + k
	}
	return false
}

// grepMaxWindow bounds the pattern length for which the window check is
// used: longer windows cost about what a whole line does.
const grepMaxWindow = 256

// grepMaxLen returns the most bytes a match of the RE2 expression expr can
// span, and false when that is unbounded or large, or when the expression
// holds an empty-width assertion (^ $ \b \B \A \z), whose result would
// depend on bytes outside the match.
func grepMaxLen(expr string) (int, bool) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return 0, false
	}
	n := grepMaxLenOf(re.Simplify())
	return n, n >= 0 && n <= grepMaxWindow
}

// grepMaxLenOf is grepMaxLen on a syntax tree; -1 means no bound.
func grepMaxLenOf(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpNoMatch, syntax.OpEmptyMatch:
		return 0
	case syntax.OpLiteral:
		n := 0
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 || r >= utf8.RuneSelf {
				n += utf8.UTFMax // a case variant may be longer (K, ſ)
			} else {
				n++
			}
		}
		return n
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return 0
		}
		if hi := re.Rune[len(re.Rune)-1]; hi < utf8.RuneSelf {
			return 1
		}
		return utf8.UTFMax
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return utf8.UTFMax
	case syntax.OpCapture:
		return grepMaxLenOf(re.Sub[0])
	case syntax.OpQuest:
		return grepMaxLenOf(re.Sub[0])
	case syntax.OpRepeat:
		n := grepMaxLenOf(re.Sub[0])
		if re.Max < 0 || n < 0 || re.Max > grepMaxWindow {
			return -1
		}
		return min(n*re.Max, grepMaxWindow+1)
	case syntax.OpConcat, syntax.OpAlternate:
		total := 0
		for _, sub := range re.Sub {
			n := grepMaxLenOf(sub)
			if n < 0 {
				return -1
			}
			if re.Op == syntax.OpConcat {
				total = min(total+n, grepMaxWindow+1)
			} else {
				total = max(total, n)
			}
		}
		return total
	}
	// OpStar, OpPlus (unbounded) and the empty-width assertions.
	return -1
}

// winMatch reports whether a match lies around the occurrence of must at
// buf[i]: it looks at most winLen bytes each way, and not beyond the line
// (from is at or before the line's start, end after its terminator). The
// window is widened to whole UTF-8 sequences, so that it decodes as the
// line does.
func (m *grepMatcher) winMatch(buf []byte, from, end, i int) bool {
	eol := m.eol
	ws := max(from, i-(m.winLen-len(m.must)))
	if j := bytes.LastIndexByte(buf[ws:i], eol); j >= 0 {
		ws += j + 1
	} else {
		for ws > from && !utf8.RuneStart(buf[ws]) && buf[ws-1] != eol {
			ws--
		}
	}
	we := min(end, i+m.winLen)
	if j := bytes.IndexByte(buf[i:we], eol); j >= 0 {
		we = i + j
	} else {
		for we < end && !utf8.RuneStart(buf[we]) {
			we++
		}
	}
	return m.win.Match(buf[ws:we])
}

// indexMust finds must in b.
func (m *grepMatcher) indexMust(b []byte) int {
	if m.fold {
		return grepIndexFold(b, m.must)
	}
	return bytes.Index(b, m.must)
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
	if m.set != nil {
		return m.set.next(m.ctx, m, buf, from, end)
	}
	// Lines that are not UTF-8 go to posixre line by line: the RE2 forms
	// of scan and win would take an encoding error for a character.
	raw := m.u8 && !utf8.Valid(buf[from:end])
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
			i := m.indexMust(buf[from:end])
			if i < 0 {
				return -1, -1, nil
			}
			i += from
			if m.win != nil && !raw {
				// Each occurrence of must until one has a match
				// around it; the lines skipped meanwhile have none.
				for !m.winMatch(buf, from, end, i) {
					k := m.indexMust(buf[i+1 : end])
					if k < 0 {
						return -1, -1, nil
					}
					i += 1 + k
				}
				ls, le := m.lineAt(buf, from, i)
				return ls, le, nil
			}
			ls, le := m.lineAt(buf, from, i)
			ok, err := m.matchLine(buf[ls:le])
			if err != nil || ok {
				return ls, le, err
			}
			from = le + 1
		case m.scan != nil && !raw:
			loc, err := m.findIndex(m.scan, m.scanS, buf[from:end])
			if err != nil {
				return -1, -1, err
			}
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

// perlTimeout bounds the backtracking engine's next match by
// grepPerlTimeout, or by the time left before the run's deadline when that
// is sooner: the engine cannot be cancelled, and a match it had started
// kept the run (a library Session.Run, a serve request) going up to
// grepPerlTimeout past its time limit.
func (m *grepMatcher) perlTimeout() {
	m.perl2.MatchTimeout = searchBound(grepPerlTimeout, m.deadline)
}

// searchBound is how long the backtracking engine's next search may run:
// bound, or the time left before deadline (none when zero) when that is
// sooner, at least a millisecond. grep -P and jq share it.
func searchBound(bound time.Duration, deadline time.Time) time.Duration {
	if deadline.IsZero() {
		return bound
	}
	return max(min(bound, time.Until(deadline)), time.Millisecond)
}

// matchLine reports whether line (without its terminator) matches.
func (m *grepMatcher) matchLine(line []byte) (bool, error) {
	switch {
	case m.all:
		return true, nil
	case m.set != nil:
		return m.set.matchLine(m.ctx, line, m.eol)
	case m.fixed != nil:
		return bytes.Contains(line, m.fixed), nil
	case m.perl != nil:
		if m.lat {
			line, _ = posixre.Latin1(line)
		}
		loc, err := m.findIndex(m.perl, m.perlS, line)
		return loc != nil, err
	case m.perl2 != nil:
		if m.lat {
			line, _ = posixre.Latin1(line)
		}
		m.perlTimeout()
		ok, err := m.perl2.MatchString(string(line))
		return ok, grepPerlMatchError(err)
	}
	for i, re := range m.res {
		if i%grepSetCheck == grepSetCheck-1 && m.ctx != nil && m.ctx.Err() != nil {
			return false, m.ctx.Err()
		}
		var ok bool
		var err error
		if m.ctx != nil {
			ok, err = re.MatchContext(m.ctx, line)
		} else {
			ok, err = re.Match(line)
		}
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

// findAll is re.FindAll, stoppable with m's context.
func (m *grepMatcher) findAll(re *posixre.Regexp, line []byte, fn func(loc []int) bool) error {
	if m.ctx != nil {
		return re.FindAllContext(m.ctx, line, -1, fn)
	}
	return re.FindAll(line, -1, fn)
}

// eachMatch calls fn with the start and end of each non-empty match in
// line, left to right, not overlapping.
func (m *grepMatcher) eachMatch(line []byte, fn func(s, e int)) error {
	switch {
	case m.all:
		if m.only != nil {
			return m.only.eachMatch(line, fn)
		}
		return nil
	case m.set != nil:
		return m.set.eachMatch(m.ctx, line, m.eol, fn)
	case m.fixed != nil:
		for p := 0; ; {
			i := bytes.Index(line[p:], m.fixed)
			if i < 0 {
				return nil
			}
			fn(p+i, p+i+len(m.fixed))
			p += i + len(m.fixed)
		}
	case m.perl != nil || m.perl2 != nil:
		if m.lat {
			if form, orig := posixre.Latin1(line); orig != nil {
				return m.eachPerl(form, func(s, e int) { fn(orig(s), orig(e)) })
			}
		}
		return m.eachPerl(line, fn)
	case len(m.res) == 1 || m.scan != nil && m.exact && !(m.u8 && !utf8.Valid(line)):
		if len(m.res) > 1 {
			return m.eachRE2(m.scan, m.scanS, line, fn)
		}
		return m.findAll(m.res[0], line, func(loc []int) bool {
			if loc[1] > loc[0] {
				fn(loc[0], loc[1])
			}
			return true
		})
	}
	// Several patterns: merge their matches, leftmost then longest.
	var all [][2]int
	for i, re := range m.res {
		if i%grepSetCheck == grepSetCheck-1 && m.ctx != nil && m.ctx.Err() != nil {
			return m.ctx.Err()
		}
		err := m.findAll(re, line, func(loc []int) bool {
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

// eachPerl is eachMatch of a -P pattern.
func (m *grepMatcher) eachPerl(line []byte, fn func(s, e int)) error {
	switch {
	case m.perl != nil:
		return m.eachRE2(m.perl, m.perlS, line, fn)
	case m.perl2 != nil && !m.keep:
		m.perlTimeout()
		locs, err := m.perl2.FindAllStringIndex(string(line), -1)
		for _, loc := range locs {
			if loc[1] > loc[0] {
				fn(loc[0], loc[1])
			}
		}
		return grepPerlMatchError(err)
	default:
		// A match is reported from where \K last was.
		m.perlTimeout()
		mt, err := m.perl2.FindStringMatch(string(line))
		for ; mt != nil && err == nil; mt, err = m.perl2.FindNextMatch(mt) {
			m.perlTimeout() // for the next one
			s, n := mt.ByteRange()
			e := s + n
			if g := mt.GroupByName(regexp2syntax.KeepName); g != nil && len(g.Captures) > 0 {
				s, _ = g.ByteRange()
			}
			if e > s {
				fn(s, e)
			}
		}
		return grepPerlMatchError(err)
	}
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

// grepPerlRE2 compiles a -P pattern with RE2. With asciiFold (-P -i in
// the C locale, where PCRE2 without UTF folds ASCII letters only) the
// characters of 0x80 and over, Latin-1 letters for RE2's (?i), match as
// the pattern without (?i) says: \xe3 and [\xe3] match \xe3 only, [^a]
// all of them (grepASCIIFold).
func grepPerlRE2(prefix, expr string, asciiFold bool) (*regexp.Regexp, error) {
	re, err := regexp.Compile(prefix + expr)
	if err != nil || !asciiFold {
		return re, err
	}
	folded, err1 := syntax.Parse(prefix+expr, syntax.Perl)
	exact, err2 := syntax.Parse(strings.Replace(prefix, "i", "", 1)+expr, syntax.Perl)
	if err1 != nil || err2 != nil || !grepASCIIFold(folded, exact) {
		return re, nil
	}
	if re2, err := regexp.Compile(folded.String()); err == nil {
		return re2, nil
	}
	return re, nil
}

// grepASCIIFold rewrites f, a pattern parsed with (?i), keeping its
// folding for ASCII only: the runes of 0x80 and over of its literals and
// classes are those of e, the same pattern parsed without (?i). It
// reports false when the two trees differ in shape.
func grepASCIIFold(f, e *syntax.Regexp) bool {
	if f.Op != e.Op || len(f.Sub) != len(e.Sub) {
		return false
	}
	for i := range f.Sub {
		if !grepASCIIFold(f.Sub[i], e.Sub[i]) {
			return false
		}
	}
	switch f.Op {
	case syntax.OpLiteral:
		if len(f.Rune) != len(e.Rune) {
			return false
		}
		var parts []*syntax.Regexp
		for i := 0; i < len(e.Rune); {
			j, high := i, e.Rune[i] >= 0x80
			for j < len(e.Rune) && (e.Rune[j] >= 0x80) == high {
				j++
			}
			p := &syntax.Regexp{Op: syntax.OpLiteral, Flags: f.Flags, Rune: f.Rune[i:j]}
			if high {
				p.Flags &^= syntax.FoldCase
				p.Rune = e.Rune[i:j]
			}
			parts = append(parts, p)
			i = j
		}
		if len(parts) > 1 {
			*f = syntax.Regexp{Op: syntax.OpConcat, Flags: f.Flags &^ syntax.FoldCase, Sub: parts}
		} else {
			*f = *parts[0]
		}
	case syntax.OpCharClass:
		var r []rune
		for i := 0; i < len(f.Rune); i += 2 {
			if lo := f.Rune[i]; lo < 0x80 {
				r = append(r, lo, min(f.Rune[i+1], 0x7f))
			}
		}
		for i := 0; i < len(e.Rune); i += 2 {
			if hi := e.Rune[i+1]; hi >= 0x80 {
				r = append(r, max(e.Rune[i], 0x80), hi)
			}
		}
		f.Rune = r
		f.Flags &^= syntax.FoldCase
	}
	return true
}
