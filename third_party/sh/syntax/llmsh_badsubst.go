package syntax

import (
	"bytes"
	"strings"
)

// llmsh: a malformed ${…} is bash's run-time "bad substitution".
//
// Bash finds the end of ${…} by matching braces (skipping quotes, nested
// ${…} and $(…)) and only looks at what is inside when it expands the
// word: `echo ${x y}` runs the lines before it, then fails with
// "${x y}: bad substitution". In bash mode the parser records the bytes
// of each ${…} as it reads them; when an error is raised while it reads
// the expansion's own structure (not inside a nested $( ), `…` or
// $(( ))), it unwinds to the ${, skips to the matching } as bash does
// and returns a ParamExp whose Bad field holds the text.

// badSubstErr carries the parse error that a bad ${…} turned into.
type badSubstErr struct{ err error }

// rawEnter starts recording the input from absolute offset start.
func (p *Parser) rawEnter(start int64) {
	if p.rawDepth == 0 {
		p.rawBase = start
		p.rawBs = p.rawBs[:0]
	}
	p.rawDepth++
}

func (p *Parser) rawExit() {
	p.rawDepth--
}

// rawKeep saves the bytes fill is about to discard (llmsh).
func (p *Parser) rawKeep() {
	if p.rawDepth == 0 {
		return
	}
	from := max(p.rawBase-p.offs, 0)
	to := min(int64(p.bsp), int64(len(p.bs)))
	if from < to {
		p.rawBs = append(p.rawBs, p.bs[from:to]...)
	}
}

// rawText is the input from absolute offset start up to what the lexer
// has read (p.r included).
func (p *Parser) rawText(start int64) []byte {
	var out []byte
	if start < p.offs {
		out = append(out, p.rawBs[start-p.rawBase:]...)
		start = p.offs
	}
	to := min(int64(p.bsp), int64(len(p.bs)))
	if from := start - p.offs; from < to {
		out = append(out, p.bs[from:to]...)
	}
	return out
}

// braceScan follows bash's matching of ${…}: quotes, backslashes,
// nested ${…} and parentheses.
type braceScan struct {
	depth, parens int
	quote         byte // '\'' or '"' while inside quotes
	esc           bool
}

// feed reports whether b closes the outermost ${.
func (s *braceScan) feed(b byte) bool {
	switch {
	case s.esc:
		s.esc = false
	case s.quote == '\'':
		if b == '\'' {
			s.quote = 0
		}
	case b == '\\':
		s.esc = true
	case s.quote == '"':
		if b == '"' {
			s.quote = 0
		}
	case b == '\'' || b == '"':
		s.quote = b
	case b == '(':
		s.parens++
	case b == ')':
		if s.parens > 0 {
			s.parens--
		}
	case b == '{':
		s.depth++
	case b == '}' && s.parens == 0:
		s.depth--
		return s.depth == 0
	}
	return false
}

// paramExp parses ${…} or $name; in bash mode a malformed ${…} is kept
// as a ParamExp with Bad set (llmsh).
func (p *Parser) paramExp() *ParamExp {
	if p.tok != dollBrace || !p.lang.in(langBashLike) || p.r == runeEOF {
		return p.paramExpParse()
	}
	start := p.offs + int64(p.bsp) - int64(p.w)
	dollar, old, openNodes := p.pos, p.quote, p.openNodes
	outer, outerArith := p.badSubst, p.badArith
	p.rawEnter(start)
	defer func() {
		p.rawExit()
		p.badArith = outerArith
	}()
	p.badArith = 0
	var failed error
	pe := func() (pe *ParamExp) {
		defer func() {
			if r := recover(); r != nil {
				bs, ok := r.(badSubstErr)
				if !ok {
					panic(r)
				}
				pe, failed = nil, bs.err
			}
		}()
		p.badSubst = true
		return p.paramExpParse()
	}()
	p.badSubst = outer
	if failed == nil {
		return pe
	}
	p.quote, p.openNodes, p.litBs = runeByRune, openNodes, nil
	arith := p.badArith
	text := append([]byte("${"), p.rawText(start)...)
	s := braceScan{depth: 1}
	for i := 2; i < len(text); i++ {
		if !s.feed(text[i]) {
			continue
		}
		// The lexer may have read past the closing brace: then
		// what follows it is read again.
		if arithKept(text[:i+1], arith) {
			p.badSubst = false
			p.errPass(failed) // left to parseArithRepair
			return nil
		}
		if rest := len(text) - i - 1; rest == 0 {
			pe = p.badParamExp(dollar, p.nextPos(), text)
			p.rune()
		} else if p.r != runeEOF && rest == p.w {
			end := p.nextPos()
			rbrace := NewPos(end.Offset()-1, end.Line(), end.Col()-1)
			pe = p.badParamExp(dollar, rbrace, text[:i+1])
		} else {
			pe = p.badParamExp(dollar, p.unreadAfter(dollar, text[:i+1]), text[:i+1])
			p.rune()
		}
		p.quote = old
		p.next()
		return pe
	}
	read := true
	for {
		if read {
			p.rune()
		}
		read = true
		if p.r == runeEOF {
			p.quote = old
			p.tok = _EOF
			p.matchingErr(dollar, dollBrace, rightBrace)
			return nil
		}
		if p.r == escNewl {
			text = append(text, '\\', '\n')
			continue
		}
		if p.r == '$' && s.quote != '\'' && !s.esc {
			// bash parses a $( ) in ${…}: its syntax errors
			// are parse errors.
			if b1, b2 := p.peekTwo(); b1 == '(' && b2 != '(' {
				from := p.offs + int64(p.bsp) - int64(p.w)
				p.pos = p.nextPos()
				p.rune()
				p.rune()
				p.tok = dollParen
				p.cmdSubst()
				if p.err != nil {
					return nil
				}
				raw := p.rawText(from)
				if p.r != runeEOF {
					raw = raw[:len(raw)-p.w]
				}
				text = append(text, raw...)
				read = false
				continue
			}
		}
		text = append(text, p.rawText(p.offs+int64(p.bsp)-int64(p.w))...)
		if s.feed(text[len(text)-1]) {
			if arithKept(text, arith) {
				p.badSubst = false
				p.errPass(failed) // left to parseArithRepair
				return nil
			}
			pe = p.badParamExp(dollar, p.nextPos(), text)
			p.rune()
			p.quote = old
			p.next()
			return pe
		}
	}
}

func (p *Parser) badParamExp(dollar, rbrace Pos, text []byte) *ParamExp {
	return &ParamExp{
		Dollar: dollar,
		Rbrace: rbrace,
		Param:  &Lit{ValuePos: dollar, ValueEnd: dollar},
		Bad:    string(text),
	}
}

// arithKept reports whether an error in the subscript (arith 'i') or
// the slice ('s') of the ${…} text is an arithmetic error when it runs,
// as bash: a closed, non-empty subscript (${a[1 +]}) or a non-empty
// slice (${x:1 +}); parseArithRepair keeps their text. An unclosed or
// empty subscript (${a[}, ${a[]}) and an empty offset (${x:}) are bad
// substitutions.
func arithKept(text []byte, arith byte) bool {
	inner := string(text[2 : len(text)-1])
	switch arith {
	case 'i':
		open := strings.IndexByte(inner, '[')
		if open < 0 {
			return false
		}
		depth := 0
		for j := open; j < len(inner); j++ {
			switch inner[j] {
			case '[':
				depth++
			case ']':
				if depth--; depth == 0 {
					return strings.TrimSpace(inner[open+1:j]) != ""
				}
			}
		}
	case 's':
		if colon := strings.IndexByte(inner, ':'); colon >= 0 {
			return strings.TrimSpace(inner[colon+1:]) != ""
		}
	}
	return false
}

// unreadAfter makes the input after text (a ${…} that starts at dollar)
// be read again, the lexer having read past its closing brace (as in
// ${a[1}; echo): p.r becomes that brace, whose position it returns.
func (p *Parser) unreadAfter(dollar Pos, text []byte) Pos {
	newOffs := int64(dollar.Offset()) + int64(len(text))
	var tail []byte
	if newOffs < p.offs {
		tail = append(tail, p.rawBs[newOffs-p.rawBase:]...)
		p.rawBs = p.rawBs[:newOffs-p.rawBase]
	} else {
		from := max(p.rawBase, p.offs) - p.offs
		p.rawBs = append(p.rawBs, p.bs[from:newOffs-p.offs]...)
	}
	tail = append(tail, p.bs[max(newOffs-p.offs, 0):]...)
	p.unread = append(tail, p.unread...)
	p.bs, p.bsp, p.offs = nil, 0, newOffs

	line, col := int64(dollar.Line()), int64(dollar.Col())+int64(len(text)-1)
	if nl := bytes.LastIndexByte(text, '\n'); nl >= 0 {
		line += int64(bytes.Count(text, []byte{'\n'}))
		col = int64(len(text) - 1 - nl)
	}
	p.r, p.w, p.line, p.col = '}', 1, line, col
	return NewPos(uint(newOffs-1), uint(line), uint(col))
}

// fillUnread is fill from the bytes unreadAfter gave back.
func (p *Parser) fillUnread() int {
	p.rawKeep()
	p.offs += int64(p.bsp)
	left := copy(p.readBuf[:], p.bs[min(int(p.bsp), len(p.bs)):])
	n := copy(p.readBuf[left:], p.unread)
	p.unread = p.unread[n:]
	p.bs, p.bsp = p.readBuf[:left+n], 0
	return n
}

// sliceText is the text of a ${x:off:len}'s length as written, from
// after its colon at colon to the } at hand, when the input is being
// recorded (bash mode); "" otherwise.
func (p *Parser) sliceText(colon Pos) string {
	start := int64(colon.Offset()) + 1
	if p.rawDepth == 0 || p.tok != rightBrace || start < p.rawBase {
		return ""
	}
	n := int64(p.pos.Offset()) - start
	raw := p.rawText(start)
	if n < 0 || n > int64(len(raw)) {
		return ""
	}
	return string(raw[:n])
}
