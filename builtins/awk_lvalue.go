package builtins

import (
	"strings"

	"github.com/llmsh/llmsh/third_party/goawk/lexer"
	"github.com/llmsh/llmsh/third_party/goawk/parser"
)

// awkMawkNearToken is the token mawk 1.3.4's parser stops at for the
// errors that GoAWK finds after it has parsed an expression, and the
// line it is on: a grouping of several expressions not followed by
// "in" (`x = (1,2)`: the token after the ")"), an assignment to what is
// no lvalue (`1 = 2`: the operator; GoAWK's error is there), and a third
// argument of sub or gsub that is no variable, element or field (mawk's
// grammar wants one of those and then ")": `gsub(/a/, "b", x y)` stops
// at y, `"a b"` at the string, `(x)` at x, `$1 $2` at the second $).
func awkMawkNearToken(pe *parser.ParseError, src string) (tok string, line int, ok bool) {
	switch {
	case pe.Message == "unexpected comma-separated expression":
		return awkTokenAfterGroup(src, awkErrorOffset(pe, src), pe.Position.Line)
	case strings.HasPrefix(pe.Message, "expected lvalue before "):
		return strings.TrimPrefix(pe.Message, "expected lvalue before "), pe.Position.Line, true
	case pe.Message == "3rd arg to sub/gsub must be lvalue":
		return awkSubTargetToken(src, awkErrorOffset(pe, src), pe.Position.Line)
	}
	return "", 0, false
}

// awkTokens scans src from off, as the parser would there.
type awkTokens struct {
	lx   *lexer.Lexer
	line int // the line of src[off]
	prev lexer.Token
	pos  lexer.Position // the last token's, in src[off:]
}

// next is the next token, its text as mawk names it, and its line.
func (t *awkTokens) next() (lexer.Token, string, int) {
	pos, tok, val := t.lx.Scan()
	if tok == lexer.DIV && awkOperandBefore(t.prev) {
		pos, tok, val = t.lx.ScanRegex()
	}
	t.prev, t.pos = tok, pos
	line := t.line + pos.Line - 1
	switch tok {
	case lexer.NAME, lexer.NUMBER, lexer.STRING:
		return tok, val, line
	case lexer.REGEX:
		return tok, "/" + val + "/", line
	case lexer.NEWLINE:
		return tok, "end of line", line
	case lexer.EOF:
		return tok, "end of file", line
	}
	return tok, tok.String(), line
}

// awkOperandBefore tells whether a '/' after tok starts a regex (no
// operand ends with tok).
func awkOperandBefore(tok lexer.Token) bool {
	switch tok {
	case lexer.NAME, lexer.NUMBER, lexer.STRING, lexer.REGEX, lexer.RPAREN, lexer.RBRACKET, lexer.DOLLAR, lexer.INCR, lexer.DECR:
		return false
	}
	return true
}

// skipGroup reads up to the token that closes the open one, '(' or '['
// (nested ones counted); false at the end of the text.
func (t *awkTokens) skipGroup(open, close lexer.Token) bool {
	for depth := 1; depth > 0; {
		tok, _, _ := t.next()
		switch tok {
		case open:
			depth++
		case close:
			depth--
		case lexer.EOF:
			return false
		}
	}
	return true
}

func awkTokensAt(src string, off, line int) *awkTokens {
	return &awkTokens{lx: lexer.NewLexer([]byte(src[off:])), line: line, prev: lexer.LPAREN}
}

// awkTokenAfterGroup is the token after the grouping that starts at
// src[off] (its "(").
func awkTokenAfterGroup(src string, off, line int) (string, int, bool) {
	t := awkTokensAt(src, off, line)
	if tok, _, _ := t.next(); tok != lexer.LPAREN || !t.skipGroup(lexer.LPAREN, lexer.RPAREN) {
		return "", 0, false
	}
	_, text, l := t.next()
	return text, l, true
}

// awkSubTargetToken is the token where mawk's parser stops in a third
// argument of sub or gsub that starts at src[off].
func awkSubTargetToken(src string, off, line int) (string, int, bool) {
	t := awkTokensAt(src, off, line)
	tok, text, l := t.next()
	switch tok {
	case lexer.LPAREN:
		_, text, l = t.next()
		return text, l, true
	case lexer.NAME:
		if off+len(text) < len(src) && src[off+len(text)] == '(' {
			return text, l, true // a call
		}
		tok, text, l = t.next()
		if tok == lexer.LBRACKET {
			if !t.skipGroup(lexer.LBRACKET, lexer.RBRACKET) {
				return "", 0, false
			}
			_, text, l = t.next()
		}
		return text, l, true
	case lexer.DOLLAR:
		// a field: "$" and one operand
		tok, _, _ = t.next()
		switch tok {
		case lexer.LPAREN:
			if !t.skipGroup(lexer.LPAREN, lexer.RPAREN) {
				return "", 0, false
			}
		case lexer.NAME:
			if tok, text, l = t.next(); tok != lexer.LBRACKET {
				return text, l, true
			}
			if !t.skipGroup(lexer.LBRACKET, lexer.RBRACKET) {
				return "", 0, false
			}
		}
		_, text, l = t.next()
		return text, l, true
	}
	return text, l, true
}
