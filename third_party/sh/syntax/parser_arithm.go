package syntax

import (
	"slices"
	"strings"
)

// compact specifies whether we allow spaces between expressions.
// This is true for let
func (p *Parser) arithmExpr(compact bool) ArithmExpr {
	return p.arithmExprComma(compact)
}

// These function names are inspired by Bash's expr.c

func (p *Parser) arithmExprComma(compact bool) ArithmExpr {
	return p.arithmExprBinary(compact, p.arithmExprAssign, Comma)
}

func (p *Parser) arithmExprAssign(compact bool) ArithmExpr {
	// Assign is different from the other binary operators because it's
	// right-associative and needs to check that it's placed after a name
	value := p.arithmExprTernary(compact)
	switch BinAritOperator(p.tok) {
	case AddAssgn, SubAssgn, MulAssgn, QuoAssgn, RemAssgn, AndAssgn,
		OrAssgn, XorAssgn, ShlAssgn, ShrAssgn, Assgn,
		AndBoolAssgn, OrBoolAssgn, XorBoolAssgn, PowAssgn:
		if compact && p.spaced {
			return value
		}
		if !isArithName(value) {
			p.posErr(p.pos, "%#q must follow a name", p.tok)
		}
		pos := p.pos
		tok := p.tok
		p.nextArithOp(compact)
		y := p.arithmExprAssign(compact)
		if y == nil {
			p.followErrExp(pos, tok)
		}
		return &BinaryArithm{
			OpPos: pos,
			Op:    BinAritOperator(tok),
			X:     value,
			Y:     y,
		}
	}
	return value
}

func (p *Parser) arithmExprTernary(compact bool) ArithmExpr {
	value := p.arithmExprLor(compact)
	if BinAritOperator(p.tok) != TernQuest || (compact && p.spaced) {
		return value
	}

	if value == nil {
		p.curErr("%#q must follow an expression", p.tok)
	}
	questPos := p.pos
	p.nextArithOp(compact)
	if BinAritOperator(p.tok) == TernColon {
		p.followErrExp(questPos, TernQuest)
	}
	trueExpr := p.arithmExpr(compact)
	if trueExpr == nil {
		p.followErrExp(questPos, TernQuest)
	}
	if BinAritOperator(p.tok) != TernColon {
		p.posErr(questPos, "ternary operator missing %#q after %#q", colon, quest)
	}
	colonPos := p.pos
	p.nextArithOp(compact)
	falseExpr := p.arithmExprTernary(compact)
	if falseExpr == nil {
		p.followErrExp(colonPos, TernColon)
	}
	return &BinaryArithm{
		OpPos: questPos,
		Op:    TernQuest,
		X:     value,
		Y: &BinaryArithm{
			OpPos: colonPos,
			Op:    TernColon,
			X:     trueExpr,
			Y:     falseExpr,
		},
	}
}

func (p *Parser) arithmExprLor(compact bool) ArithmExpr {
	return p.arithmExprBinary(compact, p.arithmExprLand, OrArit, XorBool)
}

func (p *Parser) arithmExprLand(compact bool) ArithmExpr {
	return p.arithmExprBinary(compact, p.arithmExprBor, AndArit)
}

func (p *Parser) arithmExprBor(compact bool) ArithmExpr {
	return p.arithmExprBinary(compact, p.arithmExprBxor, Or)
}

func (p *Parser) arithmExprBxor(compact bool) ArithmExpr {
	return p.arithmExprBinary(compact, p.arithmExprBand, Xor)
}

func (p *Parser) arithmExprBand(compact bool) ArithmExpr {
	return p.arithmExprBinary(compact, p.arithmExprEquality, And)
}

func (p *Parser) arithmExprEquality(compact bool) ArithmExpr {
	return p.arithmExprBinary(compact, p.arithmExprComparison, Eql, Neq)
}

func (p *Parser) arithmExprComparison(compact bool) ArithmExpr {
	return p.arithmExprBinary(compact, p.arithmExprShift, Lss, Gtr, Leq, Geq)
}

func (p *Parser) arithmExprShift(compact bool) ArithmExpr {
	return p.arithmExprBinary(compact, p.arithmExprAddition, Shl, Shr)
}

func (p *Parser) arithmExprAddition(compact bool) ArithmExpr {
	return p.arithmExprBinary(compact, p.arithmExprMultiplication, Add, Sub)
}

func (p *Parser) arithmExprMultiplication(compact bool) ArithmExpr {
	return p.arithmExprBinary(compact, p.arithmExprPower, Mul, Quo, Rem)
}

func (p *Parser) arithmExprPower(compact bool) ArithmExpr {
	// Power is different from the other binary operators because it's right-associative
	value := p.arithmExprUnary(compact)
	if BinAritOperator(p.tok) != Pow || (compact && p.spaced) {
		return value
	}

	if value == nil {
		p.curErr("%#q must follow an expression", p.tok)
	}

	op := p.tok
	pos := p.pos
	p.nextArithOp(compact)
	y := p.arithmExprPower(compact)
	if y == nil {
		p.followErrExp(pos, op)
	}
	return &BinaryArithm{
		OpPos: pos,
		Op:    BinAritOperator(op),
		X:     value,
		Y:     y,
	}
}

func (p *Parser) arithmExprUnary(compact bool) ArithmExpr {
	if !compact {
		p.got(_Newl)
	}

	switch UnAritOperator(p.tok) {
	case Not, BitNegation, Plus, Minus:
		ue := &UnaryArithm{OpPos: p.pos, Op: UnAritOperator(p.tok)}
		p.nextArithOp(compact)
		if ue.X = p.arithmExprUnary(compact); ue.X == nil {
			p.followErrExp(ue.OpPos, ue.Op)
		}
		return ue
	}
	return p.arithmExprValue(compact)
}

func (p *Parser) arithmExprValue(compact bool) ArithmExpr {
	var x ArithmExpr
	switch p.tok {
	case addAdd, subSub:
		ue := &UnaryArithm{OpPos: p.pos, Op: UnAritOperator(p.tok)}
		if p.nextArith(compact) {
			// llmsh: let ++ x: "++" is an argument of its own, an
			// error when let runs, as bash's.
			p.followErrExp(ue.OpPos, ue.Op)
		}
		if p.tok != _LitWord {
			p.followErr(ue.OpPos, ue.Op, noQuote("a literal"))
		}
		ue.X = p.arithmExprValue(compact)
		return ue
	case leftParen:
		if p.quote == paramExpArithm && p.lang.in(LangZsh) {
			x = p.zshSubFlags()
			break
		}
		pe := &ParenArithm{Lparen: p.pos}
		p.nextArithOp(compact)
		pe.X = p.followArithm(leftParen, pe.Lparen)
		pe.Rparen = p.matched(pe.Lparen, leftParen, rightParen)
		if p.quote == paramExpArithm && p.tok == _LitWord {
			p.checkLang(pe.Lparen, LangZsh, "subscript flags")
		}
		x = pe
	case leftBrack:
		p.curErr("%#q must follow a name like a[i]", p.tok)
	case colon:
		p.curErr("ternary operator missing %#q before %#q", quest, colon)
	case _LitWord:
		l := p.getLit()
		if p.tok != leftBrack || p.spaced && p.lang.in(langBashLike) {
			// llmsh: "a [0]" is no element: bash's invalid
			// arithmetic operator when it runs (the repair).
			x = p.wordOne(l)
			break
		}
		pe := &ParamExp{Short: true, Param: l}
		pe.Index = p.eitherIndex()
		x = p.wordOne(pe)
	case bckQuote:
		if p.quote == arithmExprLet && p.openBquotes > 0 {
			return nil
		}
		fallthrough
	default:
		if w := p.getWord(); w != nil {
			x = w
		} else {
			return nil
		}
	}

	if compact && p.spaced {
		return x
	}
	if !compact {
		p.got(_Newl)
	}

	// we want real nil, not (*Word)(nil) as that
	// sets the type to non-nil and then x != nil
	if p.tok == addAdd || p.tok == subSub {
		if !isArithName(x) {
			p.curErr("%#q must follow a name", p.tok)
		}
		u := &UnaryArithm{
			Post:  true,
			OpPos: p.pos,
			Op:    UnAritOperator(p.tok),
			X:     x,
		}
		p.nextArith(compact)
		return u
	}
	return x
}

// nextArith consumes a token.
// It returns true if compact and the token was followed by spaces
func (p *Parser) nextArith(compact bool) bool {
	p.next()
	if compact && p.spaced {
		return true
	}
	if !compact {
		p.got(_Newl)
	}
	return false
}

func (p *Parser) nextArithOp(compact bool) {
	pos := p.pos
	tok := p.tok
	if p.nextArith(compact) {
		p.followErrExp(pos, tok)
	}
}

// arithmExprBinary is used for all left-associative binary operators
func (p *Parser) arithmExprBinary(compact bool, nextOp func(bool) ArithmExpr, operators ...BinAritOperator) ArithmExpr {
	value := nextOp(compact)
	for {
		var foundOp BinAritOperator
		for _, op := range operators {
			if p.tok == token(op) {
				foundOp = op
				break
			}
		}

		if token(foundOp) == illegalTok || (compact && p.spaced) || p.quote == arithmExprLet && (p.peekRedir() || p.stopToken()) {
			return value // (llmsh: let x>1 redirects, lexer.go)
		}

		if value == nil {
			p.curErr("%#q must follow an expression", p.tok)
		}

		pos := p.pos
		p.nextArithOp(compact)
		y := nextOp(compact)
		if y == nil {
			p.followErrExp(pos, foundOp)
		}

		value = &BinaryArithm{
			OpPos: pos,
			Op:    foundOp,
			X:     value,
			Y:     y,
		}
	}
}

func isArithName(left ArithmExpr) bool {
	w, ok := left.(*Word)
	if !ok {
		return false
	}
	for _, wp := range w.Parts {
		switch wp := wp.(type) {
		case *ParamExp:
			if len(w.Parts) > 1 || !wp.nakedIndex() {
				// llmsh: bash expands the text first, and only then
				// finds a name or not (${#s} |= 1: "attempted
				// assignment to non-variable" when it runs).
				return true
			}
		case *CmdSubst, *ArithmExp:
			return true // llmsh: as above
		}
	}
	if len(w.Parts) != 1 {
		return false
	}
	switch wp := w.Parts[0].(type) {
	case *Lit:
		return ValidName(wp.Value)
	case *ParamExp:
		return wp.nakedIndex()
	default:
		return false
	}
}

func (p *Parser) followArithm(ftok token, fpos Pos) ArithmExpr {
	x := p.arithmExpr(false)
	if x == nil {
		p.followErrExp(fpos, ftok)
	}
	return x
}

func (p *Parser) peekArithmEnd() bool {
	return p.tok == rightParen && p.r == ')'
}

func (p *Parser) arithmMatchingErr(pos Pos, left, right token) {
	switch p.tok {
	case _Lit, _LitWord:
		p.curErr("not a valid arithmetic operator: %#q", p.val)
	case leftBrack:
		p.curErr("%#q must follow a name like a[i]", leftBrack)
	case colon:
		p.curErr("ternary operator missing %#q before %#q", quest, colon)
	case rightParen, _EOF:
		p.matchingErr(pos, left, right)
	case period:
		p.checkLang(p.pos, LangZsh, `floating point arithmetic`)
	default:
		if p.quote&allArithmExpr != 0 {
			p.curErr("not a valid arithmetic operator: %#q", p.tok)
		}
		p.matchingErr(pos, left, right)
	}
}

func (p *Parser) matchedArithm(lpos Pos, left, right token) {
	if !p.got(right) {
		p.arithmMatchingErr(lpos, left, right)
	}
}

func (p *Parser) arithmEnd(ltok token, lpos Pos, old saveState) Pos {
	if !p.peekArithmEnd() {
		if p.recoverError() {
			return recoveredPos
		}
		p.arithmMatchingErr(lpos, ltok, dblRightParen)
	}
	p.rune()
	p.postNested(old)
	pos := p.pos
	p.next()
	return pos
}

// arithmRest is for an arithmetic text that bash reads as a word and only
// evaluates when it runs: a subscript (a[k 1], [x y]=v) up to its ']' or a
// slice's length (${x:1:2:3}) up to its '}'. Given the expression parsed so
// far, with the current token not the stop token, it reads the tokens up
// to a stop token and gives the whole text as one word, blanks kept as written
// (a tab as a blank), so that an associative array's key is that text and
// arithmetic reports bash's error when evaluated. It gives nil, consuming
// nothing, when x cannot be written back as text.
func (p *Parser) arithmRest(x ArithmExpr, stop ...token) ArithmExpr {
	if !p.lang.in(langBashLike) || p.err != nil || p.tok == _EOF || slices.Contains(stop, p.tok) {
		return nil
	}
	var parts []WordPart
	var end Pos
	add := func(pos, to Pos, wps ...WordPart) {
		if end.IsValid() && pos.Offset() > end.Offset() {
			parts = append(parts, &Lit{ValuePos: end, ValueEnd: pos, Value: p.blanks(end, pos)})
		}
		parts = append(parts, wps...)
		end = to
	}
	op := func(pos Pos, s string) {
		to := posAddCol(pos, len(s))
		add(pos, to, &Lit{ValuePos: pos, ValueEnd: to, Value: s})
	}
	var flat func(x ArithmExpr) bool
	flat = func(x ArithmExpr) bool {
		switch x := x.(type) {
		case *Word:
			for _, wp := range x.Parts {
				pe, ok := wp.(*ParamExp)
				if !ok || pe.Dollar.IsValid() {
					add(wp.Pos(), wp.End(), wp)
					continue
				}
				// llmsh: a[i] as a name in arithmetic, written
				// back as its text (m[a[1]b[2]]=v is the key
				// "a[1]b[2]", as bash).
				if pe.Index == nil || pe.Param == nil {
					return false
				}
				open := posAddCol(pe.Param.End(), 1)
				add(pe.Pos(), open, &Lit{ValuePos: pe.Pos(), ValueEnd: open, Value: pe.Param.Value + "["})
				if !flat(pe.Index) {
					return false
				}
				op(posAddCol(pe.End(), -1), "]")
			}
		case *BinaryArithm:
			if !flat(x.X) {
				return false
			}
			op(x.OpPos, x.Op.String())
			return flat(x.Y)
		case *UnaryArithm:
			if x.Post {
				if !flat(x.X) {
					return false
				}
				op(x.OpPos, x.Op.String())
				return true
			}
			op(x.OpPos, x.Op.String())
			return flat(x.X)
		case *ParenArithm:
			op(x.Lparen, "(")
			if !flat(x.X) {
				return false
			}
			op(x.Rparen, ")")
		default:
			return false
		}
		return true
	}
	if x != nil && !flat(x) {
		return nil
	}
	depth := 0 // llmsh: brackets opened in the text (m[x b[2]])
	for (depth > 0 || !slices.Contains(stop, p.tok)) && p.tok != _EOF && p.err == nil {
		switch p.tok {
		case leftBrack:
			depth++
		case rightBrack:
			depth = max(depth-1, 0)
		case _Lit, _LitWord, dollar, dollBrace, dollDblParen, dollParen, dollBrack,
			sglQuote, dollSglQuote, dblQuote, dollDblQuote, bckQuote:
			if w := p.getWord(); w != nil {
				add(w.Pos(), w.End(), w.Parts...)
				continue
			}
		}
		op(p.pos, p.tok.String())
		p.next()
	}
	if len(parts) == 0 {
		return nil
	}
	return &Word{Parts: parts}
}

// blanks is the text between from and to, the blanks between two tokens
// of a subscript, as written when the parser has the source (fullSrc),
// else as many spaces (llmsh).
func (p *Parser) blanks(from, to Pos) string {
	i, j := int(from.Offset()), int(to.Offset())
	if j <= i {
		return ""
	}
	if j <= len(p.fullSrc) {
		if s := string(p.fullSrc[i:j]); strings.Trim(s, " \t") == "" {
			return s
		}
	}
	return strings.Repeat(" ", j-i)
}

// blankedIndex is w, a subscript's word that ends before end (its "]"),
// with the blanks around it inside the brackets that the lexer skipped:
// bash keeps them in an associative array's key (m[ k ]=v is key " k
// "); arithmetic ignores them. Only when the parser has the source
// (llmsh).
func (p *Parser) blankedIndex(w *Word, end Pos) *Word {
	src := p.fullSrc
	from, to, e := int(w.Pos().Offset()), int(w.End().Offset()), int(end.Offset())
	if len(w.Parts) == 0 || !w.Pos().IsValid() || !w.End().IsValid() || e >= len(src) || from > to || to > e || src[e] != ']' {
		return w
	}
	start := from
	for start > 0 && (src[start-1] == ' ' || src[start-1] == '\t') {
		start--
	}
	if start == 0 || src[start-1] != '[' || strings.Trim(string(src[to:e]), " \t") != "" {
		return w
	}
	lead, trail := string(src[start:from]), string(src[to:e])
	if lead == "" && trail == "" {
		return w
	}
	parts := make([]WordPart, 0, len(w.Parts)+2)
	if lead != "" {
		parts = append(parts, &Lit{ValuePos: posAddCol(w.Pos(), -len(lead)), ValueEnd: w.Pos(), Value: lead})
	}
	parts = append(parts, w.Parts...)
	if trail != "" {
		parts = append(parts, &Lit{ValuePos: w.End(), ValueEnd: end, Value: trail})
	}
	return &Word{Parts: parts}
}

// blankIndex is the subscript of NAME[ ] (only blanks before the
// closing bracket): bash keeps the blanks as the text of the subscript,
// an associative array's key " " and 0 for an indexed one. nil when the
// subscript is not blanks only.
func (p *Parser) blankIndex(lbrack Pos) *Word {
	if p.tok != rightBrack || !p.lang.in(langBashLike) {
		return nil
	}
	src := p.fullSrc
	from, to := int(lbrack.Offset())+1, int(p.pos.Offset())
	if !lbrack.IsValid() || !p.pos.IsValid() || from >= to || to > len(src) || src[from-1] != '[' {
		return nil
	}
	blanks := string(src[from:to])
	if strings.Trim(blanks, " \t") != "" {
		return nil
	}
	return &Word{Parts: []WordPart{&Lit{ValuePos: posAddCol(lbrack, 1), ValueEnd: p.pos, Value: blanks}}}
}
