package builtins

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"unicode/utf8"

	"github.com/llmsh/llmsh/posixre"
	shexpand "github.com/llmsh/llmsh/third_party/sh/expand"
)

var _ = register(Builtin{Name: "expr", Summary: "evaluate expressions", Run: expr})

// exprError is a failure with its exit status (2 syntax or type, 3 other).
type exprError struct {
	msg    string
	status int
}

type exprParser struct {
	ctx   context.Context // the run's: a long match stops with it
	args  []string
	pos   int
	depth int  // primaries being read, one inside another
	bytes bool // the C locale: a character is a byte
	env   *Env // for its quoting in messages
}

// exprMaxDepth bounds the nesting of parentheses and keyword operands
// (`( ( … ) )`, `length length … x`): each level is a recursion of the
// descent, and a million of them from "$@" overflowed Go's stack, a fatal
// error (GNU expr's descent is in C and crashes too).
const exprMaxDepth = 10000

func expr(env *Env) (status int) {
	args := env.Args[1:]
	if len(args) == 1 && args[0] == "--help" {
		f := NewFlags(env, "Print the value of EXPRESSION to standard output.", "EXPRESSION", "OPTION")
		f.PrintHelp(env.Stdout)
		return 0
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return env.UsageErrorf(2, "missing operand")
	}
	defer func() {
		if v := recover(); v != nil {
			e, ok := v.(*exprError)
			if !ok {
				panic(v)
			}
			if e.msg != "" { // "": the run was stopped
				env.Errorf("%s", e.msg)
			}
			status = e.status
		}
	}()
	p := &exprParser{ctx: env.Ctx, args: args, bytes: byteLocale(env), env: env}
	v := p.or()
	if p.pos < len(p.args) {
		panic(&exprError{"syntax error: unexpected argument " + env.Quote(p.args[p.pos]), 2})
	}
	w := stdoutWriter(env)
	w.WriteString(v + "\n")
	st := 0
	if exprNull(v) {
		st = 1
	}
	if err := w.Flush(); err != nil {
		return env.WriteFailed(err, 3) // GNU: EXPR_FAILURE
	}
	return st
}

// exprNull is expr's falsehood: the empty string or an integer zero.
func exprNull(v string) bool {
	if v == "" {
		return true
	}
	n, ok := exprInt(v)
	return ok && n.Sign() == 0
}

func exprInt(v string) (*big.Int, bool) {
	s := strings.TrimPrefix(v, "-")
	if s == "" || headDigits(s) != len(s) {
		return nil, false
	}
	n, ok := new(big.Int).SetString(v, 10)
	return n, ok
}

func (p *exprParser) peek() (string, bool) {
	if p.pos < len(p.args) {
		return p.args[p.pos], true
	}
	return "", false
}

func (p *exprParser) next() string {
	if p.pos >= len(p.args) {
		prev := p.args[len(p.args)-1]
		panic(&exprError{"syntax error: missing argument after " + p.env.Quote(prev), 2})
	}
	p.pos++
	return p.args[p.pos-1]
}

func (p *exprParser) binary(ops []string, sub func() string, apply func(op, a, b string) string) string {
	v := sub()
	for {
		t, ok := p.peek()
		if !ok || !exprIn(t, ops) {
			return v
		}
		p.pos++
		if p.pos >= len(p.args) {
			panic(&exprError{"syntax error: missing argument after " + p.env.Quote(t), 2})
		}
		v = apply(t, v, sub())
	}
}

func exprIn(t string, ops []string) bool {
	for _, o := range ops {
		if t == o {
			return true
		}
	}
	return false
}

func (p *exprParser) or() string {
	return p.binary([]string{"|"}, p.and, func(_, a, b string) string {
		if !exprNull(a) {
			return a
		}
		if !exprNull(b) {
			return b
		}
		return "0"
	})
}

func (p *exprParser) and() string {
	return p.binary([]string{"&"}, p.cmp, func(_, a, b string) string {
		if exprNull(a) || exprNull(b) {
			return "0"
		}
		return a
	})
}

func (p *exprParser) cmp() string {
	return p.binary([]string{"<", "<=", "=", "==", "!=", ">=", ">"}, p.add, func(op, a, b string) string {
		var c int
		x, okA := exprInt(a)
		y, okB := exprInt(b)
		if okA && okB {
			c = x.Cmp(y)
		} else {
			c = strings.Compare(a, b)
		}
		r := false
		switch op {
		case "<":
			r = c < 0
		case "<=":
			r = c <= 0
		case "=", "==":
			r = c == 0
		case "!=":
			r = c != 0
		case ">=":
			r = c >= 0
		case ">":
			r = c > 0
		}
		if r {
			return "1"
		}
		return "0"
	})
}

func exprArith(op, a, b string) string {
	x, okA := exprInt(a)
	y, okB := exprInt(b)
	if !okA || !okB {
		panic(&exprError{"non-integer argument", 2})
	}
	z := new(big.Int)
	switch op {
	case "+":
		z.Add(x, y)
	case "-":
		z.Sub(x, y)
	case "*":
		z.Mul(x, y)
	case "/", "%":
		if y.Sign() == 0 {
			panic(&exprError{"division by zero", 2})
		}
		if op == "/" {
			z.Quo(x, y)
		} else {
			z.Rem(x, y)
		}
	}
	return z.String()
}

func (p *exprParser) add() string { return p.binary([]string{"+", "-"}, p.mul, exprArith) }
func (p *exprParser) mul() string { return p.binary([]string{"*", "/", "%"}, p.match, exprArith) }

func (p *exprParser) match() string {
	return p.binary([]string{":"}, p.primary, func(_, s, pat string) string { return p.exprMatch(s, pat) })
}

// exprLongSubject is the length from which a match is read through a
// reader that looks at the run's context (a variable the tests lower).
var exprLongSubject = 1 << 14

// exprMatch anchors the BRE pat at the start of s: the first group when
// the pattern has one, else the number of characters matched.
func (p *exprParser) exprMatch(s, pat string) string {
	if p.bytes && (!isASCII(s) || !isASCII(pat)) {
		// each byte a character: matched as Latin-1, the group's text
		// turned back into the bytes (posixre's back-references match
		// bytes as they are)
		if _, err := compileBRE(toLatin1(pat)); exprNeedsPosixre(err) {
			return p.exprMatchBackref(s, pat)
		}
		return fromLatin1(p.exprMatchChars(toLatin1(s), toLatin1(pat)))
	}
	return p.exprMatchChars(s, pat)
}

// exprNeedsPosixre reports whether compileBRE's error is for a pattern
// that posixre runs: a back-reference, or a reversed range ([b-a]), which
// GNU expr's syntax (no RE_NO_EMPTY_RANGES) takes as empty.
func exprNeedsPosixre(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "back-references") || err.Error() == "Invalid range end")
}

// exprMatchChars is exprMatch of UTF-8 characters.
func (p *exprParser) exprMatchChars(s, pat string) string {
	re, err := compileBRE(pat)
	if exprNeedsPosixre(err) {
		return p.exprMatchBackref(s, pat)
	}
	if err != nil {
		panic(&exprError{err.Error(), 2})
	}
	var m []int
	if len(s) < exprLongSubject || p.ctx == nil {
		m = re.FindStringSubmatchIndex(s)
	} else {
		// A long string is read through a reader that looks at the
		// run's context (one match of 16 MB took a minute, session 17).
		rd := &posixre.ContextReader[string]{Ctx: p.ctx, Text: s}
		m = re.FindReaderSubmatchIndex(rd)
		if rd.Err != nil {
			panic(&exprError{"", 125})
		}
	}
	return exprMatchResult(s, m, re.NumSubexp())
}

// exprMatchResult is expr's answer for the match m of a pattern with
// groups groups in s: the first group's text when it has one, else the
// characters matched; a match not at the start of s counts as none.
func exprMatchResult(s string, m []int, groups int) string {
	if m != nil && m[0] != 0 {
		m = nil // the leftmost match is not at the start: no anchored match
	}
	if groups > 0 {
		if m == nil || m[2] < 0 {
			return ""
		}
		return s[m[2]:m[3]]
	}
	if m == nil {
		return "0"
	}
	return fmt.Sprint(utf8.RuneCountInString(s[:m[1]]))
}

// exprMatchBackref is exprMatch for a pattern with back-references
// (expr abab : '\(ab\)\1'), which Go's regexp cannot run: posixre's
// backtracking matcher runs it, under the run's context.
func (p *exprParser) exprMatchBackref(s, pat string) string {
	re, err := posixre.Compile(pat, posixre.EmptyRanges)
	if err != nil {
		panic(&exprError{err.Error(), 2})
	}
	ctx := p.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	m, err := re.FindSubmatchIndexContext(ctx, []byte(s))
	if err != nil && ctx.Err() != nil {
		panic(&exprError{"", 125})
	}
	if err != nil {
		// A search that posixre's matcher gave up on (ErrTooComplex):
		// GNU's failure of its matcher (re_match's -2, out of memory),
		// status 3, the reason after the colon.
		panic(&exprError{"error in regular expression matcher: " + err.Error(), 3})
	}
	return exprMatchResult(s, m, re.NumSubexp())
}

func (p *exprParser) primary() string {
	if p.depth++; p.depth > exprMaxDepth {
		panic(&exprError{"syntax error: expression nested too deeply", 2})
	}
	defer func() { p.depth-- }()
	t := p.next()
	switch t {
	case "(":
		v := p.or()
		if c, ok := p.peek(); !ok || c != ")" {
			if !ok {
				panic(&exprError{"syntax error: expecting ')' after " + p.env.Quote(p.args[len(p.args)-1]), 2})
			}
			panic(&exprError{"syntax error: expecting ')' instead of " + p.env.Quote(c), 2})
		}
		p.pos++
		return v
	case ")":
		panic(&exprError{"syntax error: unexpected ')'", 2})
	case "+":
		return p.next()
	case "length":
		if p.bytes {
			return fmt.Sprint(len(p.primaryArg()))
		}
		return fmt.Sprint(utf8.RuneCountInString(p.primaryArg()))
	case "match":
		s := p.primaryArg()
		return p.exprMatch(s, p.primaryArg())
	case "index":
		s, chars := p.primaryArg(), p.primaryArg()
		if p.bytes {
			s, chars = toLatin1(s), toLatin1(chars)
		}
		for i, r := range []rune(s) {
			if strings.ContainsRune(chars, r) {
				return fmt.Sprint(i + 1)
			}
		}
		return "0"
	case "substr":
		a, ps, ls := p.primaryArg(), p.primaryArg(), p.primaryArg()
		if p.bytes {
			a = toLatin1(a)
		}
		s := []rune(a)
		pos, okP := exprInt(ps)
		n, okL := exprInt(ls)
		if !okP || !okL || pos.Sign() <= 0 || n.Sign() <= 0 || pos.Cmp(big.NewInt(int64(len(s)))) > 0 {
			return ""
		}
		start := int(pos.Int64()) - 1
		end := len(s)
		if n.IsInt64() && n.Int64() < int64(len(s)-start) {
			end = start + int(n.Int64())
		}
		if p.bytes {
			return fromLatin1(string(s[start:end]))
		}
		return string(s[start:end])
	}
	return t
}

// toLatin1 is s with each byte as a character of its own (the shell's
// ByteRunes: ASCII as it is, the bytes from 0x80 private-use characters
// that no class holds, where Latin-1's made \xc3 a letter), for a
// character-wise function to work on bytes (the C locale); fromLatin1
// turns such a string back into the bytes.
func toLatin1(s string) string {
	if isASCII(s) {
		return s
	}
	return shexpand.ByteRunes(s)
}

func fromLatin1(s string) string {
	if isASCII(s) {
		return s
	}
	return shexpand.RunesBytes(s)
}

// isASCII reports whether s has no byte of 0x80 or more.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// primaryArg reads an operand of a keyword function.
func (p *exprParser) primaryArg() string { return p.primary() }
