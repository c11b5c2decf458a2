// Copyright (c) 2016, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package syntax

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

func asciiLetter[T rune | byte](r T) bool {
	return ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z')
}

func asciiDigit[T rune | byte](r T) bool {
	return r >= '0' && r <= '9'
}

// bytes that form or start a token
func regOps(r rune) bool {
	switch r {
	case ';', '"', '\'', '(', ')', '$', '|', '&', '>', '<', '`':
		return true
	}
	return false
}

// tokenize these inside parameter expansions
func paramOps(r rune) bool {
	switch r {
	case '}', '#', '!', ':', '-', '+', '=', '?', '%', '[', ']', '/', '^',
		',', '@', '*':
		return true
	}
	return false
}

// tokenize these inside arithmetic expansions
func arithmOps(r rune) bool {
	switch r {
	case '+', '-', '!', '~', '*', '/', '%', '(', ')', '^', '<', '>', ':', '=',
		',', '?', '|', '&', '[', ']', '#', '.':
		return true
	}
	return false
}

func bquoteEscaped(b byte) bool {
	switch b {
	case '$', '`', '\\':
		return true
	}
	return false
}

// Sentinel rune values used by [Parser.rune]. They are above [utf8.MaxRune]
// so that they can never collide with runes decoded from the input.
const (
	runeEOF rune = utf8.MaxRune + 1 // the input ran out, or we stopped early
	escNewl rune = utf8.MaxRune + 2 // an escaped newline, "\\\n"
)

// The modes of a carriage return before a newline (llmsh): bash keeps it
// as any other byte; the fork drops it where it is not quoted, so that a
// script with CRLF line ends runs, and keeps it inside quotes and
// here-documents' bodies, as bash (printf 'a\r\nb' written with a raw CR).
const (
	crByState = iota // kept in double quotes and here-documents' bodies
	crKeep           // kept: inside single quotes, or the rune after an opening quote
	crDrop           // dropped: the rune after a closing quote
)

// keepCR reports whether a carriage return before a newline is kept.
func (p *Parser) keepCR() bool {
	switch p.crMode {
	case crKeep:
		return true
	case crDrop:
		return false
	}
	return p.quote&(dblQuotes|hdocBody|hdocBodyTabs) != 0
}

// bquoteRun is called at the first backslash of a run inside n >= 2
// levels of backquotes (llmsh). bash removes one level of escapes from a
// backquote's text before it parses it (\\ is \, \` is `, \$ is $), and
// does so again for each level: a run of k backslashes before c becomes
// k/2 (rounded down) before $ and `, or (rounded up) before another
// character, at each level; a backquote after an even run at level r-1
// closes level r. Upstream dropped one backslash per level (three
// backslashes and a backquote, the opener of a third level, were read as
// an escaped backquote). It skips
// the backslashes that the n levels remove, sets bqRaw to how many are
// left to give as they are, and reports whether the lexer should read
// on; false when the run's end is not in the buffer (the old way then).
func (p *Parser) bquoteRun() bool {
	start := p.bsp - 1
	end := start
	for end < uint(len(p.bs)) && p.bs[end] == '\\' {
		end++
	}
	if end >= uint(len(p.bs)) || p.bs[end] == '\n' || p.bs[end] == '\r' {
		return false
	}
	c := p.bs[end]
	k := int(end - start)
	n := p.openBquotes
	closes := 0
	for r := 1; r <= n; r++ {
		special := c == '$' || c == '`' || c == '"' && r <= p.openBquoteDbls
		switch {
		case !special:
			k = (k + 1) / 2
		case k%2 == 1:
			k = (k - 1) / 2
		case c == '`':
			// Unescaped in level r-1's text: the end of level r.
			closes, k = r, k/2
		default:
			k /= 2
		}
		if closes > 0 {
			break
		}
	}
	if c == '`' {
		if closes > 0 {
			p.bqEsc = closes // lastBquoteEsc = closes-1
			if k%2 == 1 {
				k++ // a backslash at the text's end is itself, as \\
			}
		} else {
			p.bqEsc = n + 1
		}
	}
	drop := int(end-start) - k
	p.col += int64(drop)
	p.bsp = start + uint(drop)
	p.bqRaw = k
	return true
}

func (p *Parser) rune() rune {
	if p.r == '\n' || p.r == escNewl {
		// p.r instead of b so that newline
		// character positions don't have col 0.
		p.line++
		p.col = 0
	}
	p.col += int64(p.w)
	if p.bqDouble {
		// llmsh: the second backslash of an escaped pair (see below).
		p.bqDouble, p.bqBsOdd = false, false
		if p.litBs != nil {
			p.litBs = append(p.litBs, '\\')
		}
		p.w, p.r = 0, '\\'
		return p.r
	}
	bquotes := 0
retry:
	if p.bsp >= uint(len(p.bs)) && p.fill() == 0 {
		if len(p.bs) == 0 {
			// Necessary for the last position to be correct.
			// TODO: this is not exactly intuitive; figure out a better way.
			p.bsp = 1
		}
		p.r = runeEOF
		p.w = 1
		return p.r
	}
	if b := p.bs[p.bsp]; b < utf8.RuneSelf {
		p.bsp++
		switch b {
		case '\x00':
			// Ignore null bytes while parsing, like bash.
			p.col++
			goto retry
		case '\r':
			if p.peek() == '\n' && !p.keepCR() { // \r\n turns into \n
				p.col++
				goto retry
			}
		case '\\':
			if p.openBquotes >= 2 {
				if p.bqRaw > 0 {
					p.bqRaw-- // a backslash of the run's level text
					break
				}
				if p.bquoteRun() {
					goto retry
				}
			}
			if p.r == '\\' {
			} else if p.peek() == '\n' {
				p.bsp++
				p.w, p.r = 1, escNewl
				return escNewl
			} else if p1, p2 := p.peekTwo(); p1 == '\r' && p2 == '\n' { // \\\r\n turns into \\\n
				p.col++
				p.bsp += 2
				p.w, p.r = 2, escNewl
				return escNewl
			}
			// TODO: why is this necessary to ensure correct position info?
			p.readEOF = false
			if p.openBquotes > 0 && p.bsp < uint(len(p.bs)) &&
				((bquotes < p.openBquotes && bquoteEscaped(p.bs[p.bsp])) ||
					// Backquotes within double quotes also escape double quotes.
					(bquotes < p.openBquoteDbls && p.bs[p.bsp] == '"')) {
				// We turn backquote command substitutions into $(),
				// so we remove the extra backslashes needed by the backquotes.
				bquotes++
				p.col++
				goto retry
			}
		}
		if b == '`' {
			p.lastBquoteEsc = bquotes
			if p.bqEsc > 0 {
				p.lastBquoteEsc, p.bqEsc = p.bqEsc-1, 0
			}
		}
		if b == '\\' && p.openBquotes == 1 {
			// llmsh: bash reads `echo \\` as the text `echo \`, whose
			// last backslash, at the end of that text, is itself. A
			// backslash that would escape the closing backquote is
			// given as an escaped pair instead.
			p.bqBsOdd = !p.bqBsOdd
			p.bqDouble = bquotes > 0 && p.bqBsOdd && p.bsp < uint(len(p.bs)) && p.bs[p.bsp] == '`'
		} else {
			p.bqBsOdd = false
		}
		if p.litBs != nil {
			p.litBs = append(p.litBs, b)
		}
		p.w, p.r = 1, rune(b)
		return p.r
	}
decodeRune:
	var w int
	p.r, w = utf8.DecodeRune(p.bs[p.bsp:])
	if p.r == utf8.RuneError && !utf8.FullRune(p.bs[p.bsp:]) {
		// we need more bytes to read a full non-ascii rune
		if p.fill() > 0 {
			goto decodeRune
		}
	}
	if p.litBs != nil {
		p.litBs = append(p.litBs, p.bs[p.bsp:p.bsp+uint(w)]...)
	}
	p.bsp += uint(w)
	// llmsh: a byte that is no part of valid UTF-8 is a character of
	// its own, kept as it is in the word's text (litBs), as bash reads
	// it (upstream: an "invalid UTF-8 encoding" error).
	p.w = w
	return p.r
}

// fill reads more bytes from the input src into readBuf.
// Any bytes that had not yet been used at the end of the buffer
// are slid into the beginning of the buffer.
// The number of read bytes is returned, which is at least one
// unless a read error occurred, such as [io.EOF].
func (p *Parser) fill() (n int) {
	if len(p.unread) > 0 {
		return p.fillUnread() // llmsh: llmsh_badsubst.go
	}
	if p.readEOF || p.r == runeEOF {
		// If the reader already gave us [io.EOF], do not try again.
		// If we decided to stop for any reason, do not bother reading either.
		return 0
	}
	p.rawKeep() // llmsh: a ${…} being read may turn out bad
	p.offs += int64(p.bsp)
	left := len(p.bs) - int(p.bsp)
	copy(p.readBuf[:left], p.readBuf[p.bsp:])
readAgain:
	n, err := 0, p.readErr
	if err == nil && p.stop != nil {
		err = p.stop() // llmsh: StopWhen
		p.readErr = err
	}
	if err == nil {
		n, err = p.src.Read(p.readBuf[left:])
		p.readErr = err
		if err == io.EOF {
			p.readEOF = true
		}
	}
	if n == 0 {
		if err == nil {
			goto readAgain
		}
		// don't use p.errPass as we don't want to overwrite p.tok
		if err != io.EOF {
			p.err = err
		}
		if left > 0 {
			p.bs = p.readBuf[:left]
		} else {
			p.bs = nil
		}
	} else {
		p.bs = p.readBuf[:left+n]
	}
	p.bsp = 0
	return n
}

func (p *Parser) nextKeepSpaces() {
	r := p.r
	if p.quote != hdocBody && p.quote != hdocBodyTabs {
		// Heredocs handle escaped newlines in a special way, but others do not.
		for r == escNewl {
			r = p.rune()
		}
	}
	p.pos = p.nextPos()
	switch p.quote {
	case runeByRune:
		p.tok = illegalTok
	case dblQuotes:
		switch r {
		case '`', '"', '$':
			p.tok = p.dqToken(r)
		default:
			p.advanceLitDquote(r)
		}
	case hdocBody, hdocBodyTabs:
		switch r {
		case '`', '$':
			if !p.hdocMidLine && !p.parsingDoc && len(p.hdocStops) > 0 && p.stopAhead(p.hdocStops[len(p.hdocStops)-1]) {
				// llmsh: a first line that is the delimiter
				// written with $ or ` (cat <<$x, then $x) ends
				// the empty body, as advanceLitHdoc's later lines.
				p.tok, p.val = _Newl, ""
				p.hdocStops[len(p.hdocStops)-1] = nil
				break
			}
			p.hdocMidLine = true // llmsh: what follows is within the line
			p.tok = p.dqToken(r)
		default:
			p.advanceLitHdoc(r)
		}
	case paramExpRepl:
		if r == '/' && !p.replLead {
			p.rune()
			p.tok = slash
			break
		}
		fallthrough
	case paramExpExp:
		switch r {
		case '}':
			p.tok = p.paramToken(r)
		case '`', '"', '$', '\'':
			p.tok = p.regToken(r)
		default:
			p.advanceLitOther(r)
		}
	}
	if p.err != nil {
		p.tok = _EOF
	}
}

func (p *Parser) next() {
	if p.r == runeEOF {
		p.tok = _EOF
		return
	}
	p.spaced = false
	if p.quote&allKeepSpaces != 0 {
		p.nextKeepSpaces()
		return
	}
	r := p.r
	for r == escNewl {
		r = p.rune()
	}
	if p.quote == testExprRegexp && p.rxOpenParens > 0 && !p.rxFirstPart &&
		(r == ' ' || r == '\t' || r == '\r' || r == '\n') {
		// llmsh: blanks and newlines inside a regex's parentheses are
		// part of it after an expansion or a quoted part too, as bash
		// reads the parentheses to their match (`=~ ($p c)`).
		p.pos = p.nextPos()
		p.advanceLitRe(r)
		return
	}
skipSpace:
	for {
		switch r {
		case runeEOF:
			p.tok = _EOF
			return
		case escNewl:
			r = p.rune()
		case ' ', '\t': // llmsh: a lone CR is a word's, as bash's
			p.spaced = true
			r = p.rune()
		case '\n':
			if p.tok == _Newl {
				// merge consecutive newline tokens
				r = p.rune()
				continue
			}
			p.spaced = true
			p.tok = _Newl
			if p.quote != hdocWord && len(p.heredocs) > p.buriedHdocs {
				p.doHeredocs()
			}
			return
		default:
			break skipSpace
		}
	}
	if p.stopAt != nil && (p.spaced || p.tok == illegalTok || p.stopToken()) {
		// Note that the buffer may have been refilled since we read r,
		// such as when peeking at the byte which follows a backslash,
		// in which case r's bytes are gone and we cannot match on them.
		w := uint(runeWidth(r, p.w))
		if p.bsp >= w && bytes.HasPrefix(p.bs[p.bsp-w:], p.stopAt) {
			p.r = runeEOF
			p.w = 1
			p.tok = _EOF
			return
		}
	}
	p.pos = p.nextPos()
	switch {
	case p.quote&allRegTokens != 0:
		switch r {
		case ';', '"', '\'', '(', ')', '$', '|', '&', '>', '<', '`':
			if r == '<' && p.lang.in(LangZsh) && p.zshNumRange() {
				p.advanceLitNone(r)
				return
			}
			p.tok = p.regToken(r)
		case '#':
			// If we're parsing $foo#bar, ${foo}#bar, 'foo'#bar, or "foo"#bar,
			// #bar is a continuation of the same word, not a comment.
			// The same applies inside [[ ]] tests, where '#' has no comment meaning.
			if !p.spaced && (p.quote == unquotedWordCont || p.quote == testExpr) {
				p.advanceLitNone(r)
				return
			}
			r = p.rune()
			p.newLit(r)
		runeLoop:
			for {
				switch r {
				case '\n', runeEOF:
					break runeLoop
				case escNewl:
					p.litBs = append(p.litBs, '\\', '\n')
					// llmsh: a backslash ends no comment's line: the
					// comment is the backslash's, the newline ends the
					// command, as in bash.
					p.r = '\n'
					break runeLoop
				case '`':
					if p.backquoteEnd() {
						break runeLoop
					}
				}
				r = p.rune()
			}
			if p.keepComments {
				*p.curComs = append(*p.curComs, Comment{
					Hash: p.pos,
					Text: p.endLit(),
				})
			} else {
				p.litBs = nil
			}
			p.next()
		case '[':
			// `[` only starts an `[idx]=val` element when it begins a new word;
			// otherwise it continues a glob like `foo[0-9]`.
			if p.quote == arrayElems && (p.spaced || p.tok == leftParen || p.tok == _Newl) && p.bracketAssigns() {
				p.rune()
				p.tok = leftBrack
			} else {
				p.advanceLitNone(r)
			}
		case '=':
			if p.peek() == '(' {
				p.rune()
				p.rune()
				p.tok = assgnParen
			} else if p.quote == arrayElems && p.tok == rightBrack {
				// llmsh: only after [idx]: in ("k"=v), (--"$1"="$2")
				// the = is part of the word, as bash.
				p.rune()
				p.tok = assgn
			} else {
				p.advanceLitNone(r)
			}
		case '?', '*', '+', '@', '!':
			if r == '+' && p.quote == arrayElems && p.tok == rightBrack && p.peek() == '=' {
				// llmsh: ([i]+=v), an element appended to.
				p.rune()
				p.rune()
				p.tok = addAssgn
			} else if p.extendedGlob() {
				switch r {
				case '?':
					p.tok = globQuest
				case '*':
					p.tok = globStar
				case '+':
					p.tok = globPlus
				case '@':
					p.tok = globAt
				case '!':
					p.tok = globExcl
				}
				p.rune()
				p.rune()
			} else {
				p.advanceLitNone(r)
			}
		default:
			p.advanceLitNone(r)
		}
	case p.quote == paramExpArithm && r == '#':
		// '#' is mksh's unsigned prefix, which only [ArithmExp] and [ArithmCmd]
		// can represent, so in a subscript it starts a literal instead;
		// it can be part of an associative array key, like in ${args[cmd,#]}.
		p.advanceLitOther(r)
	case p.quote == arithmExprLet && (r == '<' || r == '>' || r == '|' || r == '&'):
		// llmsh: let's arguments are words: an unquoted < or > is a
		// redirection, as bash's (`let x>1` makes the file 1), and |
		// and & end the command (`let a=0||b=2` is two).
		p.tok = p.regToken(r)
	case p.quote&allArithmExpr != 0 && arithmOps(r):
		p.tok = p.arithmToken(r)
	case p.quote&allParamExp != 0 && paramOps(r):
		p.tok = p.paramToken(r)
	case p.quote == testExprRegexp:
		if !p.rxFirstPart && p.spaced {
			p.quote = testExpr
			goto skipSpace
		}
		p.rxFirstPart = false
		switch r {
		case ';', '&', '>', '<':
			if p.rxOpenParens > 0 {
				// llmsh: inside the regex's parentheses these are
				// the regex's after an expansion too (`=~ ($x;)`).
				p.advanceLitRe(r)
			} else {
				p.tok = p.regToken(r)
			}
		case '"', '\'', '$', '`':
			p.tok = p.regToken(r)
		case ')':
			if p.rxOpenParens > 0 {
				// continuation of open paren
				p.advanceLitRe(r)
			} else {
				p.tok = rightParen
				p.quote = testExpr
				p.rune() // we are tokenizing manually
			}
		default: // including '(', '|'
			p.advanceLitRe(r)
		}
	case regOps(r):
		p.tok = p.regToken(r)
	default:
		p.advanceLitOther(r)
	}
	if p.err != nil {
		p.tok = _EOF
	}
}

// extendedGlob determines whether we're parsing a Bash extended globbing expression.
// For example, whether `*` or `@` are followed by `(` to form `@(foo)`.
func (p *Parser) extendedGlob() bool {
	if p.lang.in(LangZsh) {
		// Zsh supports Bash extended globs via the KSH_GLOB option.
		// In Bash we would parse extended globs as [ExtGlob] nodes,
		// but trying to do that in Zsh would cause ambiguity with glob qualifiers.
		// Just like glob qualifiers, parse extended globs as literals in Zsh.
		return false
	}
	if p.val == "function" {
		// We don't support e.g. `function @() { ... }` at the moment, but we could.
		return false
	}
	if p.peek() == '(' {
		// NOTE: empty pattern list is a valid globbing syntax like `@()`,
		// but we'll operate on the "likelihood" that it is a function;
		// only tokenize if its a non-empty pattern list.
		// We do this after peeking for just one byte, so that the input `echo *`
		// followed by a newline does not hang an interactive shell parser until
		// another byte is input.
		_, p2 := p.peekTwo()
		// llmsh: in [[ ]] and a case pattern, no function can be
		// meant: @() is the empty pattern list there, as bash.
		// An argument (echo @(), f x*()) names no function either:
		// the word before it is a command's (llmsh, as bash with
		// extglob on).
		afterWord := false
		switch p.tok {
		case _LitWord, _Lit:
			afterWord = !p.spaced || !IsKeyword(p.val) || p.val == "in"
		case globQuest, globStar, globPlus, globAt, globExcl, sglQuote, dblQuote, rightBrace,
			dollar, rightParen, dblRightParen, bckQuote:
			// the end of a word before it ($x, $(…), $((…)), `…`)
			afterWord = true
		}
		return p2 != ')' || p.quote&(testExpr|switchCase) != 0 || p.casePattern || afterWord
	}
	return false
}

func (p *Parser) peek() byte {
	if int(p.bsp) >= len(p.bs) {
		p.fill()
	}
	if int(p.bsp) >= len(p.bs) {
		return utf8.RuneSelf
	}
	return p.bs[p.bsp]
}

func (p *Parser) peekTwo() (byte, byte) {
	// TODO: This should loop for slow readers, e.g. those providing one byte at
	// a time. Use a loop and test it with [testing/iotest.OneByteReader].
	if int(p.bsp+1) >= len(p.bs) {
		p.fill()
	}
	if int(p.bsp) >= len(p.bs) {
		return utf8.RuneSelf, utf8.RuneSelf
	}
	if int(p.bsp+1) >= len(p.bs) {
		return p.bs[p.bsp], utf8.RuneSelf
	}
	return p.bs[p.bsp], p.bs[p.bsp+1]
}

func (p *Parser) regToken(r rune) token {
	switch r {
	case '\'':
		p.crMode = crKeep // until the closing quote
		p.rune()
		return sglQuote
	case '"':
		p.crMode = crKeep
		p.rune()
		p.crMode = crByState
		return dblQuote
	case '`':
		// Don't call p.rune, as we need to work out p.openBquotes to
		// properly handle backslashes in the lexer.
		return bckQuote
	case '&':
		switch p.rune() {
		case '&':
			p.rune()
			return andAnd
		case '>':
			switch p.rune() {
			case '|':
				p.rune()
				return rdrAllClob
			case '!':
				if p.lang.in(LangZsh) {
					p.rune()
					return rdrAllClob
				}
			case '>':
				switch p.rune() {
				case '|':
					p.rune()
					return appAllClob
				case '!':
					if p.lang.in(LangZsh) {
						p.rune()
						return appAllClob
					}
				}
				return appAll
			}
			return rdrAll
		case '|':
			if p.lang.in(LangZsh) {
				p.rune()
				return andPipe
			}
		case '!':
			if p.lang.in(LangZsh) {
				p.rune()
				return andBang
			}
		}
		return and
	case '|':
		switch p.rune() {
		case '|':
			p.rune()
			return orOr
		case '&':
			if !p.lang.in(langBashLike | LangMirBSDKorn | LangZsh) {
				break
			}
			p.rune()
			return orAnd
		}
		return or
	case '$':
		switch p.rune() {
		case '\'':
			if !p.lang.in(langBashLike | LangMirBSDKorn | LangZsh) {
				break
			}
			p.crMode = crKeep // until the closing quote
			p.rune()
			return dollSglQuote
		case '"':
			if !p.lang.in(langBashLike | LangMirBSDKorn) {
				break
			}
			p.crMode = crKeep
			p.rune()
			p.crMode = crByState
			return dollDblQuote
		case '{':
			p.rune()
			return dollBrace
		case '[':
			if !p.lang.in(langBashLike) {
				// latter to not tokenise ${$[@]} as $[
				break
			}
			p.rune()
			return dollBrack
		case '(':
			if p.rune() == '(' && !p.dollParenSub[int(p.pos.Offset())] {
				p.rune()
				return dollDblParen
			}
			return dollParen
		}
		return dollar
	case '(':
		if p.rune() == '(' && p.lang.in(langBashLike|LangMirBSDKorn|LangZsh) && p.quote != testExpr && !p.dollParenSub[int(p.pos.Offset())] {
			p.rune()
			return dblLeftParen
		}
		return leftParen
	case ')':
		p.rune()
		return rightParen
	case ';':
		switch p.rune() {
		case ';':
			if p.rune() == '&' && p.lang.in(langBashLike) {
				p.rune()
				return dblSemiAnd
			}
			return dblSemicolon
		case '&':
			if !p.lang.in(langBashLike | LangMirBSDKorn | LangZsh) {
				break
			}
			p.rune()
			return semiAnd
		case '|':
			if !p.lang.in(LangMirBSDKorn | LangZsh) {
				break
			}
			p.rune()
			return semiOr
		}
		return semicolon
	case '<':
		switch p.rune() {
		case '<':
			switch p.rune() {
			case '-':
				p.rune()
				return dashHdoc
			case '<':
				p.rune()
				return wordHdoc
			}
			return hdoc
		case '>':
			p.rune()
			return rdrInOut
		case '&':
			p.rune()
			return dplIn
		case '(':
			if !p.lang.in(langBashLike | LangZsh) {
				break
			}
			p.rune()
			return cmdIn
		}
		return rdrIn
	case '>':
		switch p.rune() {
		case '>':
			switch p.rune() {
			case '|':
				p.rune()
				return appClob
			case '!':
				if p.lang.in(LangZsh) {
					p.rune()
					return appClob
				}
			case '&':
				if !p.lang.in(LangZsh) {
					break
				}
				switch p.rune() {
				case '|':
					p.rune()
					return appAllClob // >>&| is an alias for &>>|
				case '!':
					p.rune()
					return appAllClob // >>&! is an alias for &>>|
				}
				return appAll // >>& is an alias for &>>
			}
			return appOut
		case '&':
			r = p.rune()
			if p.lang.in(LangZsh) {
				switch r {
				case '|':
					p.rune()
					return rdrAllClob // >&| is an alias for &>|
				case '!':
					p.rune()
					return rdrAllClob // >&! is an alias for &>|
				}
			}
			return dplOut
		case '|':
			p.rune()
			return rdrClob
		case '!':
			if p.lang.in(LangZsh) {
				p.rune()
				return rdrClob
			}
		case '(':
			if !p.lang.in(langBashLike | LangZsh) {
				break
			}
			p.rune()
			return cmdOut
		}
		return rdrOut
	}
	panic("unreachable")
}

func (p *Parser) dqToken(r rune) token {
	switch r {
	case '"':
		p.crMode = crDrop // the closing quote: the rune after it is not quoted
		p.rune()
		p.crMode = crByState
		return dblQuote
	case '`':
		// Don't call p.rune, as we need to work out p.openBquotes to
		// properly handle backslashes in the lexer.
		return bckQuote
	case '$':
		switch p.rune() {
		case '{':
			p.rune()
			return dollBrace
		case '[':
			if !p.lang.in(langBashLike) {
				break
			}
			p.rune()
			return dollBrack
		case '(':
			if p.rune() == '(' && !p.dollParenSub[int(p.pos.Offset())] {
				p.rune()
				return dollDblParen
			}
			return dollParen
		}
		return dollar
	}
	panic("unreachable")
}

func (p *Parser) paramToken(r rune) token {
	switch r {
	case '}':
		p.rune()
		return rightBrace
	case ':':
		switch p.rune() {
		case '+':
			p.rune()
			return colPlus
		case '-':
			p.rune()
			return colMinus
		case '?':
			p.rune()
			return colQuest
		case '=':
			p.rune()
			return colAssgn
		case '#':
			p.rune()
			return colHash
		case '|':
			p.rune()
			return colPipe
		case '*':
			p.rune()
			return colStar
		}
		return colon
	case '+':
		p.rune()
		return plus
	case '-':
		p.rune()
		return minus
	case '?':
		p.rune()
		return quest
	case '=':
		p.rune()
		return assgn
	case '%':
		if p.rune() == '%' {
			p.rune()
			return dblPerc
		}
		return perc
	case '#':
		if p.rune() == '#' {
			p.rune()
			return dblHash
		}
		return hash
	case '!':
		p.rune()
		return exclMark
	case ']':
		p.rune()
		return rightBrack
	case '/':
		if p.rune() == '/' {
			p.rune()
			return dblSlash
		}
		return slash
	case '^':
		if p.rune() == '^' {
			p.rune()
			return dblCaret
		}
		return caret
	case ',':
		if p.rune() == ',' {
			p.rune()
			return dblComma
		}
		return comma
	case '~': // llmsh: bash's ${s~} and ${s~~}
		if p.rune() == '~' {
			p.rune()
			return dblTilde
		}
		return tilde
	case '@':
		p.rune()
		return at
	case '*':
		p.rune()
		return star

	// This func gets called by the parser in [runeByRune] mode;
	// we need to handle EOF and unexpected runes.
	case runeEOF:
		return _EOF
	default:
		return illegalTok
	}
}

func (p *Parser) arithmToken(r rune) token {
	switch r {
	case '!':
		if p.rune() == '=' {
			p.rune()
			return nequal
		}
		return exclMark
	case '=':
		if p.rune() == '=' {
			p.rune()
			return equal
		}
		return assgn
	case '~':
		p.rune()
		return tilde
	case '(':
		p.rune()
		return leftParen
	case ')':
		p.rune()
		return rightParen
	case '&':
		switch p.rune() {
		case '&':
			if p.rune() == '=' && p.lang.in(LangZsh) {
				p.rune()
				return andBoolAssgn
			}
			return andAnd
		case '=':
			p.rune()
			return andAssgn
		}
		return and
	case '|':
		switch p.rune() {
		case '|':
			if p.rune() == '=' && p.lang.in(LangZsh) {
				p.rune()
				return orBoolAssgn
			}
			return orOr
		case '=':
			p.rune()
			return orAssgn
		}
		return or
	case '<':
		switch p.rune() {
		case '<':
			if p.rune() == '=' {
				p.rune()
				return shlAssgn
			}
			return hdoc
		case '=':
			p.rune()
			return lequal
		}
		return rdrIn
	case '>':
		switch p.rune() {
		case '>':
			if p.rune() == '=' {
				p.rune()
				return shrAssgn
			}
			return appOut
		case '=':
			p.rune()
			return gequal
		}
		return rdrOut
	case '+':
		switch p.rune() {
		case '+':
			p.rune()
			return addAdd
		case '=':
			p.rune()
			return addAssgn
		}
		return plus
	case '-':
		switch p.rune() {
		case '-':
			p.rune()
			return subSub
		case '=':
			p.rune()
			return subAssgn
		}
		return minus
	case '%':
		if p.rune() == '=' {
			p.rune()
			return remAssgn
		}
		return perc
	case '*':
		switch p.rune() {
		case '*':
			if p.rune() == '=' && p.lang.in(LangZsh) {
				p.rune()
				return powAssgn
			}
			return power
		case '=':
			p.rune()
			return mulAssgn
		}
		return star
	case '/':
		if p.rune() == '=' {
			p.rune()
			return quoAssgn
		}
		return slash
	case '^':
		switch p.rune() {
		case '^':
			if p.rune() == '=' && p.lang.in(LangZsh) {
				p.rune()
				return xorBoolAssgn
			}
			return dblCaret
		case '=':
			p.rune()
			return xorAssgn
		}
		return caret
	case '[':
		p.rune()
		return leftBrack
	case ']':
		p.rune()
		return rightBrack
	case ',':
		p.rune()
		return comma
	case '?':
		p.rune()
		return quest
	case ':':
		p.rune()
		return colon
	case '#':
		p.rune()
		return hash
	case '.':
		p.rune()
		return period
	}
	panic("unreachable")
}

func (p *Parser) newLit(r rune) {
	switch {
	case r < utf8.RuneSelf:
		p.litBs = p.litBuf[:1]
		p.litBs[0] = byte(r)
	case r == runeEOF || r == escNewl:
		// sentinel runes not present in the input as-is
		p.litBs = p.litBuf[:0]
	default:
		w := runeWidth(r, p.w)
		p.litBs = append(p.litBuf[:0], p.bs[p.bsp-uint(w):p.bsp]...)
	}
}

// runeWidth is the number of input bytes of r, just read in w bytes: a
// byte that is no part of valid UTF-8 is read as utf8.RuneError, of one
// byte (llmsh).
func runeWidth(r rune, w int) int {
	if r == utf8.RuneError {
		return w
	}
	return utf8.RuneLen(r)
}

func (p *Parser) endLit() (s string) {
	if p.r == runeEOF || p.r == escNewl {
		s = string(p.litBs)
	} else {
		s = string(p.litBs[:len(p.litBs)-p.w])
	}
	p.litBs = nil
	return s
}

func (p *Parser) isLitRedir() bool {
	lit := p.litBs[:len(p.litBs)-1]
	if lit[0] == '{' && lit[len(lit)-1] == '}' {
		name := lit[1 : len(lit)-1]
		// Bash also allows an array element such as {name[idx]}.
		if p.lang.in(langBashLike) && len(name) > 0 && name[len(name)-1] == ']' {
			if i := bytes.IndexByte(name, '['); i > 0 && i < len(name)-2 {
				name = name[:i]
			}
		}
		return ValidName(string(name))
	}
	// bash reads digits as a descriptor only when they fit an int:
	// "echo 2147483648>f" writes the word 2147483648 to f (llmsh)
	if !numberLiteral(lit) {
		return false
	}
	_, err := strconv.ParseInt(string(lit), 10, 32)
	return err == nil
}

func positionalRuneParam[T rune | byte](r T) bool {
	switch r {
	case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return true
	}
	return false
}

func singleRuneParam[T rune | byte](r T) bool {
	switch r {
	case '@', '*', '#', '$', '?', '!', '-':
		return true
	}
	return positionalRuneParam(r)
}

func paramNameRune[T rune | byte](r T) bool {
	return asciiLetter(r) || asciiDigit(r) || r == '_'
}

// paramNameStartRune reports whether a parameter name can begin with r,
// be it a single-rune name like $@ or a regular name like $foo.
func paramNameStartRune[T rune | byte](r T) bool {
	return singleRuneParam(r) || paramNameRune(r)
}

func (p *Parser) advanceLitOther(r rune) {
	tok := _LitWord
	lead := p.replLead // llmsh: a pattern's leading slash
	p.replLead = false
loop:
	for p.newLit(r); r != runeEOF; r, lead = p.rune(), false {
		switch r {
		case '\\': // escaped byte follows
			p.rune()
		case '\'', '"', '`', '$':
			tok = _Lit
			break loop
		case '}':
			if p.quote&allParamExp != 0 {
				break loop
			}
		case '/':
			if p.quote != paramExpExp && !lead {
				break loop
			}
		case ':', '=', '%', '^', ',', '?', '!', '~', '*':
			if p.quote&allArithmExpr != 0 {
				break loop
			}
		case '.':
			if !p.lang.in(LangZsh) && p.quote&allArithmExpr != 0 {
				break loop
			}
		case '[', ']':
			if p.lang.in(langBashLike|LangMirBSDKorn|LangZsh) && p.quote&allArithmExpr != 0 {
				break loop
			}
			fallthrough
		case '+', '-', ' ', '\t', ';', '&', '>', '<', '|', '(', ')', '\n':
			if p.quote&allKeepSpaces == 0 {
				break loop
			}
		}
	}
	p.tok, p.val = tok, p.endLit()
}

// zshNumRange peeks at the bytes after '<' to check for a zsh numeric
// range glob pattern like <->, <5->, <-10>, or <5-10>.
func (p *Parser) zshNumRange() bool {
	// Peeking a handful of bytes here should be enough.
	// TODO: This should loop for slow readers, e.g. those providing one byte at
	// a time. Use a loop and test it with [testing/iotest.OneByteReader].
	if int(p.bsp) >= len(p.bs) {
		p.fill()
	}
	rest := p.bs[p.bsp:]
	for len(rest) > 0 && rest[0] >= '0' && rest[0] <= '9' {
		rest = rest[1:]
	}
	if len(rest) == 0 || rest[0] != '-' {
		return false
	}
	rest = rest[1:]
	for len(rest) > 0 && rest[0] >= '0' && rest[0] <= '9' {
		rest = rest[1:]
	}
	return len(rest) > 0 && rest[0] == '>'
}

func (p *Parser) advanceLitNone(r rune) {
	p.eqlOffs = -1
	tok := _LitWord
loop:
	for p.newLit(r); r != runeEOF; r = p.rune() {
		switch r {
		case ' ', '\t', '\n', '&', '|', ';', ')':
			break loop
		case '(':
			break loop
		case '\\': // escaped byte follows
			p.rune()
		case '>', '<':
			if r == '<' && p.lang.in(LangZsh) && p.zshNumRange() {
				// Zsh numeric range glob like <-> or <1-100>; consume until '>'.
				for {
					if r = p.rune(); r == '>' || r == runeEOF {
						break
					}
				}
				continue
			}
			if p.peek() == '(' {
				tok = _Lit
			} else if p.isLitRedir() {
				tok = _LitRedir
			}
			break loop
		case '`':
			if p.quote != subCmdBckquo {
				tok = _Lit
			}
			break loop
		case '"', '\'', '$':
			tok = _Lit
			break loop
		case '?', '*', '+', '@', '!':
			if p.extendedGlob() {
				tok = _Lit
				break loop
			}
		case '=':
			if p.eqlOffs < 0 {
				p.eqlOffs = len(p.litBs) - 1
			}
		case '}':
			if p.quote == subCmdBraces && len(p.litBs) == 1 {
				// A word-initial `}` closes the substitution even if
				// more characters follow, as in `${ foo;}bar`.
				p.rune()
				break loop
			}
		case '[':
			if p.litBs[0] == '{' && p.lang.in(langBashLike) {
				// In bash, words beginning with '{' are always kept whole,
				// so that {name[idx]} literals can prefix a redirect
				// operator below.
				break
			}
			if p.lang.in(langBashLike|LangMirBSDKorn|LangZsh) && len(p.litBs) > 1 && p.litBs[0] != '[' {
				tok = _Lit
				break loop
			}
		}
	}
	p.tok, p.val = tok, p.endLit()
}

func (p *Parser) advanceLitDquote(r rune) {
	tok := _LitWord
loop:
	for p.newLit(r); r != runeEOF; r = p.rune() {
		switch r {
		case '"':
			break loop
		case '\\': // escaped byte follows
			p.rune()
		case escNewl, '`', '$':
			tok = _Lit
			break loop
		}
	}
	p.tok, p.val = tok, p.endLit()
}

func (p *Parser) advanceLitHdoc(r rune) {
	// Unlike the rest of nextKeepSpaces quote states, we handle escaped
	// newlines here. If lastTok==_Lit, then we know we're following an
	// escaped newline, so the first line can't end the heredoc.
	lastTok := p.tok
	escaped := false // llmsh: the line goes on after an escaped newline
	for r == escNewl {
		r = p.rune()
		lastTok, escaped = _Lit, true
	}
	if !escaped {
		p.hdocJoin = nil
	}
	p.pos = p.nextPos()

	p.tok = _Lit
	p.newLit(r)
	lStart := -1
	lineStart := -1 // llmsh: where the line starts, before <<-'s tabs
	if !p.hdocMidLine && !escaped {
		lineStart = 0
		for p.quote == hdocBodyTabs && r == '\t' {
			r = p.rune()
		}
		lStart = len(p.litBs) - 1
		if r == escNewl {
			lStart = len(p.litBs) // not in litBs
		}
	} else if escaped {
		// llmsh: the line goes on after an escaped newline (it never
		// ends the body, and its tabs stay, as bash's <<-).
		lStart = 0
	}
	// llmsh: every return below but the body's end is within a line.
	p.hdocMidLine = true
	stop := p.hdocStops[len(p.hdocStops)-1]
	for ; ; r = p.rune() {
		if (r == '$' || r == '`') && !p.parsingDoc && lStart >= 0 &&
			!(lStart == 0 && lastTok == _Lit) && bytes.HasPrefix(stop, p.litBs[lStart:len(p.litBs)-1]) &&
			p.stopAhead(stop[len(p.litBs)-1-lStart:]) {
			// llmsh: a delimiter written with $ or ` ends the body
			// where a line is that text (cat <<$x … $x), as bash.
			p.tok = _LitWord
			p.val = p.endLit()[:hdocCut(lStart, lineStart)]
			if p.val == "" {
				p.tok = _Newl
			}
			p.hdocStops[len(p.hdocStops)-1] = nil
			return
		}
		switch r {
		case escNewl, '$':
			p.noteHdocJoin(r, lStart, lineStart, escaped)
			p.val = p.endLit()
			return
		case '\\': // escaped byte follows
			p.rune()
		case '`':
			if !p.backquoteEnd() {
				p.hdocJoin = nil
				p.val = p.endLit()
				return
			}
			fallthrough
		case '\n', runeEOF:
			if p.parsingDoc {
				if r == runeEOF {
					p.tok = _LitWord
					p.val = p.endLit()
					return
				}
			} else if lStart == 0 && lastTok == _Lit {
				// This line starts right after an escaped
				// newline: llmsh: it ends the heredoc when the
				// lines joined are the delimiter, as in bash.
				if p.joinedHdocStop(r, stop) {
					p.tok, p.val = _Newl, ""
					p.litBs = nil
					p.hdocStops[len(p.hdocStops)-1] = nil
					return
				}
			} else if lStart >= 0 {
				// Compare the current line with the stop word.
				line := p.litBs[lStart:]
				if r != runeEOF && len(line) > 0 {
					line = line[:len(line)-1] // minus trailing character
				}
				if hdocStopLine(line, stop) {
					p.tok = _LitWord
					p.val = p.endLit()[:hdocCut(lStart, lineStart)]
					if p.val == "" {
						p.tok = _Newl
					}
					p.hdocStops[len(p.hdocStops)-1] = nil
					return
				}
			}
			if r == runeEOF {
				// llmsh: the end of the input ends the body, as
				// in bash (File.UnclosedHdocs); its last line
				// gets its newline.
				p.val = p.endLit()
				if p.val != "" && !strings.HasSuffix(p.val, "\n") {
					p.val += "\n"
				}
				return
			}
			if r != '\n' {
				return // hit an unexpected EOF or closing backquote
			}
			lineStart = len(p.litBs)
			for p.quote == hdocBodyTabs && p.peek() == '\t' {
				p.rune()
			}
			lStart = len(p.litBs)
			p.hdocMidLine = false
			p.hdocJoin = nil
		}
	}
}

// hdocCut is where a here-document's body ends before its delimiter's
// line: where the line starts (lineStart, before <<-'s tabs, when
// known), else where its text starts (lStart) (llmsh: <<-E whose first
// line is a tab and E has an empty body, as bash's).
func hdocCut(lStart, lineStart int) int {
	if lineStart >= 0 && lineStart <= lStart {
		return lineStart
	}
	return lStart
}

// noteHdocJoin keeps, at an escaped newline (r), the text of the
// here-document's line so far for joinedHdocStop, when the line holds no
// expansion; lStart and escaped are advanceLitHdoc's (llmsh).
func (p *Parser) noteHdocJoin(r rune, lStart, lineStart int, escaped bool) {
	switch {
	case r != escNewl || lStart < 0:
		p.hdocJoin = nil
	case escaped && lStart == 0:
		if p.hdocJoin != nil {
			p.hdocJoin = append(p.hdocJoin, p.litBs...)
			p.hdocLine += len(p.litBs)
		}
	case lineStart >= 0:
		p.hdocJoin = append([]byte{}, p.litBs[lStart:]...)
		p.hdocLine = len(p.litBs) - lineStart
	default:
		p.hdocJoin = nil
	}
}

// joinedHdocStop reports whether the line that an escaped newline
// continued, joined to the text before it (hdocJoin), is the delimiter
// stop: bash joins the lines first, then strips <<-'s leading tabs. r is
// the rune that ends the line (llmsh).
func (p *Parser) joinedHdocStop(r rune, stop []byte) bool {
	if p.hdocJoin == nil {
		return false
	}
	line := p.litBs
	if r != runeEOF && len(line) > 0 {
		line = line[:len(line)-1]
	}
	joined := append(append([]byte{}, p.hdocJoin...), line...)
	if p.quote == hdocBodyTabs {
		joined = bytes.TrimLeft(joined, "\t")
	}
	if !hdocStopLine(joined, stop) {
		return false
	}
	p.hdocTrim, p.hdocJoin = p.hdocLine, nil
	return true
}

// trimHdocTail takes n bytes off the end of a here-document's body: the
// start of the delimiter's line, read before the escaped newline that
// continued it (llmsh: see Parser.hdocJoin).
func trimHdocTail(w *Word, n int) {
	for i := len(w.Parts) - 1; i >= 0 && n > 0; i-- {
		lit, ok := w.Parts[i].(*Lit)
		if !ok {
			return
		}
		k := min(n, len(lit.Value))
		lit.Value = lit.Value[:len(lit.Value)-k]
		n -= k
	}
}

// stopAhead reports whether the line from the current rune on is stop,
// the rest of a here-document's delimiter, and if so reads up to its
// newline (llmsh).
func (p *Parser) stopAhead(stop []byte) bool {
	if len(stop) == 0 || rune(stop[0]) != p.r {
		return false
	}
	for {
		rest := p.bs[p.bsp:]
		i := bytes.IndexByte(rest, '\n')
		if i < 0 && !p.readEOF && len(rest) < len(stop)+1 && p.fill() > 0 {
			continue
		}
		if i < 0 {
			i = len(rest)
		}
		if !bytes.Equal(rest[:i], stop[1:]) {
			return false
		}
		for range i {
			p.rune()
		}
		p.rune() // the newline, or the end
		return true
	}
}

// hdocStopLine reports whether a here-document's line ends it: it is the
// delimiter, or the delimiter and a carriage return, the line end of a
// CRLF script, whose delimiter word lost its own (llmsh).
func hdocStopLine(line, stop []byte) bool {
	if n := len(line) - 1; n >= 0 && line[n] == '\r' {
		if bytes.Equal(line[:n], stop) {
			return true
		}
	}
	return bytes.Equal(line, stop)
}

func (p *Parser) quotedHdocWord() *Word {
	r := p.r
	p.newLit(r)
	pos := p.nextPos()
	stop := p.hdocStops[len(p.hdocStops)-1]
	for ; ; r = p.rune() {
		if r == runeEOF {
			// llmsh: the end of the input ends the body, as in
			// bash (File.UnclosedHdocs).
			if val := p.endLit(); val != "" {
				if !strings.HasSuffix(val, "\n") {
					val += "\n"
				}
				return p.wordOne(p.lit(pos, val))
			}
			return nil
		}
		for p.quote == hdocBodyTabs && r == '\t' {
			r = p.rune()
		}
		lStart := len(p.litBs) - 1
	runeLoop:
		for {
			switch r {
			case runeEOF, '\n':
				break runeLoop
			case '`':
				if p.backquoteEnd() {
					break runeLoop
				}
			case escNewl:
				p.litBs = append(p.litBs, '\\', '\n')
				break runeLoop
			}
			r = p.rune()
		}
		if lStart < 0 {
			continue
		}
		// Compare the current line with the stop word.
		line := p.litBs[lStart:]
		if r != runeEOF && len(line) > 0 {
			line = line[:len(line)-1] // minus \n
		}
		if hdocStopLine(line, stop) {
			p.hdocStops[len(p.hdocStops)-1] = nil
			val := p.endLit()[:lStart]
			if val == "" {
				return nil
			}
			return p.wordOne(p.lit(pos, val))
		}
	}
}

func (p *Parser) advanceLitRe(r rune) {
	for p.newLit(r); ; r = p.rune() {
		switch r {
		case '\\':
			p.rune()
		case '(':
			p.rxOpenParens++
		case ')':
			if p.rxOpenParens--; p.rxOpenParens < 0 {
				p.tok, p.val = _LitWord, p.endLit()
				p.quote = testExpr
				return
			}
		case ' ', '\t', '\r', '\n', ';', '&', '>', '<':
			if p.rxOpenParens <= 0 {
				p.tok, p.val = _LitWord, p.endLit()
				p.quote = testExpr
				return
			}
		case '"', '\'', '$', '`':
			p.tok, p.val = _Lit, p.endLit()
			return
		case runeEOF:
			p.tok, p.val = _LitWord, p.endLit()
			p.quote = noState
			return
		}
	}
}

func testUnaryOp(val string) UnTestOperator {
	switch val {
	case "!":
		return TsNot
	case "-e", "-a":
		return TsExists
	case "-f":
		return TsRegFile
	case "-d":
		return TsDirect
	case "-c":
		return TsCharSp
	case "-b":
		return TsBlckSp
	case "-p":
		return TsNmPipe
	case "-S":
		return TsSocket
	case "-L", "-h":
		return TsSmbLink
	case "-k":
		return TsSticky
	case "-g":
		return TsGIDSet
	case "-u":
		return TsUIDSet
	case "-G":
		return TsGrpOwn
	case "-O":
		return TsUsrOwn
	case "-N":
		return TsModif
	case "-r":
		return TsRead
	case "-w":
		return TsWrite
	case "-x":
		return TsExec
	case "-s":
		return TsNoEmpty
	case "-t":
		return TsFdTerm
	case "-z":
		return TsEmpStr
	case "-n":
		return TsNempStr
	case "-o":
		return TsOptSet
	case "-v":
		return TsVarSet
	case "-R":
		return TsRefVar
	default:
		return 0
	}
}

func testBinaryOp(val string) BinTestOperator {
	switch val {
	case "=":
		return TsMatchShort
	case "==":
		return TsMatch
	case "!=":
		return TsNoMatch
	case "=~":
		return TsReMatch
	case "-nt":
		return TsNewer
	case "-ot":
		return TsOlder
	case "-ef":
		return TsDevIno
	case "-eq":
		return TsEql
	case "-ne":
		return TsNeq
	case "-le":
		return TsLeq
	case "-ge":
		return TsGeq
	case "-lt":
		return TsLss
	case "-gt":
		return TsGtr
	default:
		return 0
	}
}

// bracketAssigns reports whether the "[" at p.r starts an element's
// "[idx]=" or "[idx]+=" in an array literal (llmsh): bash takes any other
// "[x]" as a word (a=([x]) is one element "[x]"). When the text read so
// far ends before it can tell, it says yes, as upstream did.
func (p *Parser) bracketAssigns() bool {
	rest := p.bs[min(int(p.bsp), len(p.bs)):]
	depth := 1
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case '\\':
			i++
		case '\'', '"':
			q := rest[i]
			for i++; i < len(rest) && rest[i] != q; i++ {
				if q == '"' && rest[i] == '\\' {
					i++
				}
			}
		case '\n':
			return false
		case '[':
			depth++
		case ']':
			if depth--; depth == 0 {
				after := rest[i+1:]
				switch {
				case len(after) == 0 || after[0] == '=':
					return true
				case after[0] == '+':
					return len(after) == 1 || after[1] == '='
				}
				return false
			}
		}
	}
	return true
}
