package builtins

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/llmsh/llmsh/third_party/gojq"
	"github.com/llmsh/llmsh/third_party/regexp2"
	regexp2syntax "github.com/llmsh/llmsh/third_party/regexp2/syntax"
)

// jqBacktrackTimeout bounds one search of jq's backtracking engine, as
// Oniguruma's retry limit bounds jq 1.7.1's (which gives up on
// "(a|aa)+(?=c)\\1" over 40 a's in 0.1 s).
const jqBacktrackTimeout = 2 * time.Second

// jqBacktracker is a jq regular expression that Go's regexp refuses
// (look-around, back-references, atomic groups, possessive counts, \Z),
// compiled by regexp2 with PCRE2's syntax, which Oniguruma's Perl_NT
// syntax (jq's) shares for these: its \w \d \s \b are Unicode ones, as
// Oniguruma's in jq; ^ is the start and $ the end or before a final
// newline, as jq's. A look-behind is checked by Oniguruma's rules
// (regexp2.Oniguruma), not PCRE2's.
type jqBacktracker struct {
	re    *regexp2.Regexp
	names []string
}

// jqBacktrack is gojq.WithBacktracker's compile.
func jqBacktrack(expr string, ignoreCase, dotAll bool) (gojq.Backtracker, error) {
	// Oniguruma's look-behind rules, not PCRE2's: (?<=a|bc) is refused,
	// (?<=\d+) taken.
	opts := regexp2.Oniguruma
	if ignoreCase {
		opts |= regexp2.IgnoreCase
	}
	if dotAll {
		opts |= regexp2.Singleline
	}
	re, err := regexp2.Compile(expr, opts, regexp2.OptionPCRE2())
	if err != nil {
		return nil, jqBacktrackError(err)
	}
	nums := re.GetGroupNumbers()
	names := make([]string, len(nums))
	for i, n := range nums {
		if name := re.GroupNameFromNumber(n); name != strconv.Itoa(n) {
			names[i] = name
		}
	}
	return &jqBacktracker{re: re, names: names}, nil
}

// jqBacktrackError is Oniguruma's words, which jq 1.7.1 prints after
// "Regex failure: ", for the mistakes both engines see alike; other errors
// are regexp2's (and gojq shows Go's regexp's instead).
func jqBacktrackError(err error) error {
	var se *regexp2syntax.Error
	if !errors.As(err, &se) {
		return err
	}
	msg := ""
	switch se.Code {
	case regexp2syntax.ErrMissingParen:
		msg = "end pattern with unmatched parenthesis"
	case regexp2syntax.ErrUnexpectedParen:
		msg = "unmatched close parenthesis"
	case regexp2syntax.ErrUnterminatedBracket:
		msg = "premature end of char-class"
	case regexp2syntax.ErrIllegalEndEscape:
		msg = "end pattern at escape"
	case regexp2syntax.ErrUndefinedBackRef:
		msg = "invalid backref number/name"
	case regexp2syntax.ErrOnigLookbehind:
		msg = string(se.Code)
	case regexp2syntax.ErrUndefinedNameRef:
		if len(se.Args) == 1 {
			msg = fmt.Sprintf("undefined name <%v> reference", se.Args[0])
		}
	}
	if msg == "" {
		return err
	}
	return errors.New("Regex failure: " + msg)
}

func (b *jqBacktracker) SubexpNames() []string { return b.names }

// FindAll is regexp's FindAllStringSubmatchIndex: up to n matches (all
// when n < 0), each the byte offsets of the match and of its groups (-1
// for a group that took no part).
func (b *jqBacktracker) FindAll(ctx context.Context, s string, n int) ([][]int, error) {
	var xs [][]int
	b.timeout(ctx)
	m, err := b.re.FindStringMatch(s)
	for ; m != nil && err == nil && (n < 0 || len(xs) < n); m, err = b.re.FindNextMatch(m) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		groups := m.Groups()
		x := make([]int, 2*len(b.names))
		for i := range b.names {
			x[2*i], x[2*i+1] = -1, -1
			if i < len(groups) && len(groups[i].Captures) > 0 {
				start, length := groups[i].ByteRange()
				x[2*i], x[2*i+1] = start, start+length
			}
		}
		xs = append(xs, x)
		b.timeout(ctx)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, errors.New("Regex failure: retry-limit-in-match over") // Oniguruma's words
	}
	return xs, nil
}

// timeout bounds the next search by jqBacktrackTimeout, or by the time
// left before ctx's deadline when that is sooner: the engine cannot be
// cancelled.
func (b *jqBacktracker) timeout(ctx context.Context) {
	d, _ := ctx.Deadline()
	b.re.MatchTimeout = searchBound(jqBacktrackTimeout, d)
}
