// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// llmsh: syntax errors in bash's words (see LLMSH.md).

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// SyntaxError describes a parse error of src as bash reports it: the line
// bash names, and the lines it prints after its "NAME: line N: " prefix
// ("syntax error near unexpected token `fi'" and the offending line
// quoted, "syntax error: unexpected end of file", or "unexpected EOF
// while looking for matching `)'").
func SyntaxError(perr syntax.ParseError, src string) (line int, msgs []string) {
	line, msgs = syntaxError(perr, src)
	if perr.SubstEOF && len(msgs) == 1 && msgs[0] == "syntax error: unexpected end of file" {
		// llmsh: the text ends inside a $( … ) (`x=$(if`).
		msgs[0] = "unexpected EOF while looking for matching `)'"
	}
	return line, msgs
}

func syntaxError(perr syntax.ParseError, src string) (line int, msgs []string) {
	if perr.Quiet {
		return int(perr.Pos.Line()), nil // bash says nothing
	}
	text := perr.Text
	if perr.Cond {
		// bash words a conditional command's errors itself, or not at
		// all (`[[ ]]`).
		if text == "" {
			return int(perr.Pos.Line()), nil
		}
		msgs := strings.Split(text, "\n")
		if strings.HasPrefix(text, "unexpected token `EOF' in") {
			// llmsh: bash meets the end of the text on the line after
			// the last; the lines of the ( left open stay.
			end := textLines(src) + 1
			for i, m := range msgs[1:] {
				l, m := MsgLine(int(perr.Pos.Line()), m)
				msgs[i+1] = lineMark(l-end) + m
			}
			return end, msgs
		}
		return int(perr.Pos.Line()), msgs
	}
	lines := textLines(src)
	if from, end, ok := syntax.ForHeader(src, int(perr.Pos.Offset())); ok && strings.Count(src[from:end], ";") != 2 {
		// llmsh: bash splits a for (( )) header at its semicolons
		// before it parses any expression.
		hdr := src[from:end]
		msg := "syntax error: arithmetic expression required"
		if strings.Count(hdr, ";") > 2 {
			msg = "syntax error: `;' unexpected"
		}
		return int(perr.Pos.Line()), []string{msg, fmt.Sprintf("syntax error: `((%s))'", hdr)}
	}
	if strings.Contains(text, "`foo(` must be followed by `)`") {
		// llmsh: NAME ( at the end of a line is a function's "(" that
		// bash meets the newline after.
		if off := int(perr.Pos.Offset()); off <= len(src) {
			if _, end := tokenAt(src, off); end <= len(src) {
				if op, end := tokenAt(src, end); op == "(" {
					if tok, _ := tokenAt(src, end); tok == "" {
						line = int(perr.Pos.Line())
						return line, []string{"syntax error near unexpected token `newline'", fmt.Sprintf("`%s'", lineText(src, line))}
					}
				}
			}
		}
	}
	if text == "`((` can only be used to open an arithmetic cmd" {
		// llmsh: bash reads (( as one token only where a command
		// starts: after a word it meets a (.
		line = int(perr.Pos.Line())
		return line, []string{
			"syntax error near unexpected token `('",
			fmt.Sprintf("`%s'", lineText(src, line)),
		}
	}
	if strings.Contains(text, "arithmetic") || strings.Contains(text, "((") ||
		perr.Incomplete && strings.Contains(text, "must be followed by an expression") {
		if line, ok := unclosedArith(src, int(perr.Pos.Offset())); ok {
			// llmsh: bash reads (( or $(( to its matching )) first,
			// and meets the end of the text.
			return line, []string{"unexpected EOF while looking for matching `)'"}
		}
	}
	if strings.Contains(text, "`[[` with `]]`") {
		if line, ok := unclosedRegexParen(src, int(perr.Pos.Offset())); ok {
			// llmsh: bash reads a ( of a =~ regex to its matching ),
			// across blanks and lines, then meets the end of the text.
			return line, []string{"unexpected EOF while looking for matching `)'",
				lineMark(lines+1-line) + "unexpected argument to conditional binary operator"}
		}
	}
	if perr.Incomplete && (strings.Contains(text, "`expr`") || strings.Contains(text, "must be followed by an expression")) {
		// llmsh: bash reads (( (a for's too) and $[ to their end
		// first, and meets the end of the text.
		if line, ok := unclosedArith(src, int(perr.Pos.Offset())); ok {
			return line, []string{"unexpected EOF while looking for matching `)'"}
		}
		if line, ok := unclosedOld(src, int(perr.Pos.Offset())); ok {
			return line, []string{"unexpected EOF while looking for matching `]'"}
		}
	}
	if perr.Incomplete || strings.HasPrefix(text, "reached EOF") {
		if line, op, ok := lastToken(src); ok && (strings.Contains(text, "must be followed by") || text == "coproc clause requires a command") && (op[0] == '<' || op[0] == '>' || op == "&>" || op == "&>>" || wantsWord[op]) {
			// llmsh: eval text that ends in `for` or `>`: bash
			// meets the newline it reads after the text.
			return line, []string{"syntax error near unexpected token `newline'", fmt.Sprintf("`%s'", lineText(src, line))}
		}
		switch {
		case strings.Contains(text, "`[[` with `]]`"):
			// llmsh: bash's own words for a [[ the text ends in.
			return int(perr.Pos.Line()), []string{"unexpected EOF while looking for `]]'"}
		case strings.Contains(text, "`[[` must be followed by"):
			return lines + 1, []string{"unexpected token `EOF' in conditional command"}
		// bash names the line where the quote or bracket opened, but
		// the line after the text for $( (it parses a command list).
		case strings.Contains(text, "closing quote"):
			return int(perr.Pos.Line()), []string{fmt.Sprintf("unexpected EOF while looking for matching `%s'", quoteIn(text))}
		case strings.Contains(text, "`$(` with `)`"):
			if off := int(perr.Pos.Offset()); off+3 <= len(src) && string(src[off:off+3]) == "$((" {
				// llmsh: a "$((" read as "$(" and a subshell: bash
				// names the line where it starts (it read the text
				// as arithmetic first).
				return int(perr.Pos.Line()), []string{"unexpected EOF while looking for matching `)'"}
			}
			return lines + 1, []string{"unexpected EOF while looking for matching `)'"}
		case strings.Contains(text, "`$((` with `))`"):
			return int(perr.Pos.Line()), []string{"unexpected EOF while looking for matching `)'"}
		case perr.Status == 0 && (strings.Contains(text, "`(` with `)`") || strings.Contains(text, "`{` with `}`")):
			// A subshell, a group or a function body: bash's parser
			// meets the end of the text as a token.
			return lines + 1, []string{"syntax error: unexpected end of file"}
		case strings.Contains(text, "without matching"):
			if q, line, ok := unclosedQuoteInBrace(src, int(perr.Pos.Offset())); ok && strings.Contains(text, "`${`") {
				// llmsh: bash reads a ${ to its } first, quotes in it
				// too, and names the innermost one the text ends in,
				// on the line where it opened (`"${u-a'b}'c"`: `"').
				return line, []string{fmt.Sprintf("unexpected EOF while looking for matching `%s'", q)}
			}
			return int(perr.Pos.Line()), []string{fmt.Sprintf("unexpected EOF while looking for matching `%s'", closerIn(text))}
		}
		return lines + 1, []string{"syntax error: unexpected end of file"}
	}
	if line, ok := unclosedSubscript(src, int(perr.Pos.Offset())); ok {
		return line, []string{"unexpected EOF while looking for matching `]'"}
	}
	if text == "invalid parameter name" && int(perr.Pos.Offset()) >= len(src) && perr.At.IsValid() {
		// llmsh: a ${ that ends the text (eval 'echo ${'): bash reads
		// to its matching } first.
		return int(perr.At.Line()), []string{"unexpected EOF while looking for matching `}'"}
	}
	if text == `not a valid parameter expansion operator: "\n"` {
		return int(perr.Pos.Line()), []string{"unexpected EOF while looking for matching `}'"}
	}
	off := int(perr.Pos.Offset())
	if off > len(src) {
		off = len(src)
	}
	tok, end := tokenAt(src, off)
	atLine := 0 // the line of the token named, when it is not Pos's
	if strings.Contains(text, "must be followed by a statement list") && tok != "" {
		// llmsh: an empty body (`do` then `done` on the next line):
		// bash names the token it meets instead, past newlines and
		// comments, on that token's line.
		if next, at := tokenAcross(src, end); next != "" {
			line = strings.Count(src[:at], "\n") + 1
			return line, []string{
				fmt.Sprintf("syntax error near unexpected token `%s'", next),
				fmt.Sprintf("`%s'", lineText(src, line)),
			}
		}
	}
	if at := int(perr.At.Offset()); (strings.Contains(text, "statement must end with") || strings.HasPrefix(text, "reached `")) &&
		perr.At.IsValid() && at > off && at < len(src) {
		// llmsh: `( if a; then b )`, `x=$(f() { a)`, `case a in a) if
		// b; then c;; esac`: the ) that closes the subshell or
		// substitution, or the case item's end, is the token bash
		// meets inside the compound command, on its own line.
		if t, _ := tokenAt(src, at); t == ")" || t == ";;" || t == ";&" || t == ";;&" {
			tok, atLine = t, int(perr.At.Line())
		}
	}
	if strings.Contains(text, "must be followed by") || text == "coproc clause requires a command" {
		op := tok
		tok, _ = tokenAt(src, end) // bash names what came instead
		if at := int(perr.At.Offset()); strings.Contains(text, "must be followed by `") && perr.At.IsValid() && at > off && at <= len(src) {
			// llmsh: a reserved word or token was expected (`do`,
			// `in`, `)`): bash names the token met in its place, on
			// that token's line (`for x in a⏎echo`: line 2).
			tok, _ = tokenAt(src, at)
			if n := fdNumberBefore(src, at); n != "" {
				tok = n // llmsh: `for 2>x in`: bash's NUMBER token
			}
			if perr.At.Line() > perr.Pos.Line() {
				atLine = int(perr.At.Line())
			}
		}
		if at := int(perr.At.Offset()); strings.HasSuffix(text, "must be followed by a statement") && perr.At.Line() > perr.Pos.Line() && at <= len(src) {
			// llmsh: `a &&`, `a |` with an operator on a later line:
			// bash names it, on its own line.
			if t, _ := tokenAt(src, at); t != "" {
				tok, atLine = t, int(perr.At.Line())
			}
		}
		if tok == "" && op != "" && (op[0] == '<' || op[0] == '>' || op == "&>" || op == "&>>" || wantsWord[op]) {
			// llmsh: a redirection's missing word, or the name or
			// word after for, select, case, function or coproc:
			// bash meets the newline (its -c text and files end
			// with one).
			tok = "newline"
		}
	}
	if strings.HasPrefix(text, "case patterns must") && (tok == "" || tok[0] == '#') {
		// llmsh: a pattern (or `|`) ends its line: bash meets the
		// newline (its -c text and files end with one).
		tok = "newline"
	}
	if tok == "" {
		return lines + 1, []string{"syntax error: unexpected end of file"}
	}
	if tok == "))" {
		tok = ")" // llmsh: bash has no )) token: (( reads to its end
	}
	if n := fdNumberBefore(src, off); n != "" && !strings.Contains(text, "must be followed by") {
		tok = n // llmsh: `a=(x 2>y)`: bash's NUMBER token, the digits before < or >
	}
	if tok == "((" {
		tok = dparenText(src, end) // llmsh: bash's ARITH_CMD token
	}
	line = int(perr.Pos.Line())
	if atLine > 0 {
		line = atLine
	}
	return line, []string{
		fmt.Sprintf("syntax error near unexpected token `%s'", tok),
		fmt.Sprintf("`%s'", lineText(src, line)),
	}
}

// ErrexitSyntax reports whether set -e is in force where r runs: bash's
// parser_error then exits the shell (status 2) as soon as it has printed
// the first line of a syntax error, before the offending line; not
// where set -e is ignored (`eval fi || …`, `if eval fi`), as bash's
// exit_immediately_on_error is off there (llmsh).
func (r *Runner) ErrexitSyntax() bool {
	return r.opts[optErrExit] && !r.noErrExit
}

// substSyntaxExit ends the shell for a syntax error inside a $( ), <( )
// or >( ) of eval or trap text or of a sourced file, which bash meets as
// it parses the substitution (llmsh): with status code, 2 under set -e
// (parser_error exits), 127 in the shell of a -c string (a subshell of
// it: code).
func (r *Runner) substSyntaxExit(code uint8) exitStatus {
	switch {
	case r.ErrexitSyntax():
		code = 2
	case r.cString && r.bashPid == r.llmsh.pid:
		code = 127
	}
	return exitStatus{code: code, exiting: true}
}

// SyntaxErrorLines is msgs as r prints them: the first line alone under
// set -e ([Runner.ErrexitSyntax]).
func (r *Runner) SyntaxErrorLines(msgs []string) []string {
	if len(msgs) > 1 && r.ErrexitSyntax() {
		return msgs[:1]
	}
	return msgs
}

// wantsWord are the reserved words that bash wants a word after on the
// same line (llmsh).
var wantsWord = map[string]bool{"for": true, "select": true, "case": true, "function": true, "coproc": true}

// SyntaxErrorStatus is the exit status of a script that ends at the parse
// error perr of src, when last is the status of the last command that ran
// before it. bash says 2 for most errors, but an error its parser meets
// reading a matched pair (a quote, `${`, `$((`, a backquote) or a
// conditional command's error at a newline or the end of the text keeps
// the last status, unless that is 0 (llmsh).
func SyntaxErrorStatus(perr syntax.ParseError, src string, last int) int {
	if perr.Status != 0 {
		return int(perr.Status)
	}
	if perr.Quiet {
		return last
	}
	_, msgs := SyntaxError(perr, src)
	if perr.Cond && strings.HasPrefix(perr.Text, "unexpected token `EOF'") {
		// `[[ a &&`, `[[ ( a` at the end of the text: as the other EOF
		// errors.
		if last != 0 {
			return last
		}
		return 2
	}
	keep := perr.Cond
	if len(msgs) > 0 && !perr.Cond {
		m := msgs[0]
		keep = strings.HasPrefix(m, "unexpected token `EOF'") ||
			strings.HasPrefix(m, "unexpected EOF while looking for") &&
				!strings.Contains(perr.Text, "`$(` with `)`")
	} else if perr.Cond && (!strings.Contains(perr.Text, "`newline'") || textAfterLine(src, int(perr.Pos.Offset()))) {
		// [[ 1 -eq ]]: the status of the last command; an error at a
		// newline too when more text follows it (`[[ a ==⏎b ]]`), as
		// bash's parser then reads on to a token (llmsh).
		return last
	}
	if keep && last != 0 {
		return last
	}
	return 2
}

// LangSyntaxError is the parse error bash meets where llmsh's parser
// reports a feature of another shell (le): the token bash names is `)` of
// `if() {`, `()`, the `(` after `function`, the `{` of `case x {`, the
// first `}` after a redirection before `{ …; }`, else the token at le's
// position (llmsh).
func LangSyntaxError(le syntax.LangError, src string) syntax.ParseError {
	off := min(int(le.Pos.Offset()), len(src))
	at := off
	switch {
	case strings.HasPrefix(le.Feature, "anonymous functions"):
		if i := strings.IndexByte(src[off:], '('); i >= 0 {
			at = off + i
			if w, _ := tokenAt(src, off); w != "function" {
				if j := strings.IndexByte(src[at:], ')'); j >= 0 {
					at += j
				}
			}
		}
	case strings.HasPrefix(le.Feature, "`case i {`"):
		if i := strings.IndexByte(src[off:], '{'); i >= 0 {
			at = off + i
		}
	case strings.HasPrefix(le.Feature, "redirects before compound"):
		if i := strings.IndexByte(src[off:], '}'); i >= 0 {
			at = off + i
		}
	}
	line := strings.Count(src[:at], "\n") + 1
	col := at - strings.LastIndexByte(src[:at], '\n')
	return syntax.ParseError{Filename: le.Filename, Pos: syntax.NewPos(uint(at), uint(line), uint(col)), Text: "llmsh: " + le.Feature, InSubst: le.InSubst}
}

// quoteIn is the quote named in a "closing quote `X`" message.
func quoteIn(text string) string {
	i := strings.LastIndex(text, "quote ")
	q := strings.TrimSpace(text[i+len("quote "):])
	if len(q) >= 3 {
		return q[1 : len(q)-1] // `"` or "`"
	}
	return "`"
}

// closerIn is the closing bracket of a "without matching `X` with `Y`"
// message.
func closerIn(text string) string {
	i := strings.LastIndex(text, " with ")
	if i < 0 {
		return ")"
	}
	return strings.Trim(text[i+len(" with "):], "` ")
}

// shellOps are bash's operator tokens, longest first (llmsh: <<<, <<-, &>> too).
var shellOps = []string{"<<<", "<<-", "&>>", "<>", ">|", ";;&", ";;", ";&", "&&", "||", "|&", ">>", "<<", "<&", ">&", "&>", "((", "))", "(", ")", ";", "&", "|", "<", ">"}

// tokenAt returns the token that starts at or after offset off of src
// (spaces skipped, not newlines) and the offset after it; "" at the end of
// the text or of the line.
func tokenAt(src string, off int) (string, int) {
	for off < len(src) && (src[off] == ' ' || src[off] == '\t') {
		off++
	}
	if off >= len(src) || src[off] == '\n' {
		return "", off
	}
	for _, op := range shellOps {
		if strings.HasPrefix(src[off:], op) {
			return op, off + len(op)
		}
	}
	end := off
	for end < len(src) && !strings.ContainsRune(" \t\n;&|()<>", rune(src[end])) {
		end++
	}
	return src[off:end], end
}

// dparenText is the text of a (( … )) from offset off, just after the
// ((, to its )): the word of bash's ARITH_CMD token, which it names
// where a command may not start (`((1)) ((2))`: token `2'); "((" when
// the text ends first (llmsh).
func dparenText(src string, off int) string {
	depth := 0
	for i := off; i < len(src); i++ {
		switch src[i] {
		case '(':
			depth++
		case ')':
			if depth == 0 {
				if i+1 < len(src) && src[i+1] == ')' {
					return src[off:i]
				}
				return "(("
			}
			depth--
		}
	}
	return "(("
}

// tokenAcross is the token that starts at or after offset off of src,
// blanks, newlines and comments skipped, and the offset where it starts;
// "" at the end of the text (llmsh).
func tokenAcross(src string, off int) (string, int) {
	for off < len(src) {
		switch c := src[off]; {
		case c == ' ' || c == '\t' || c == '\n':
			off++
		case c == '#':
			for off < len(src) && src[off] != '\n' {
				off++
			}
		default:
			tok, _ := tokenAt(src, off)
			if tok == "))" {
				tok = ")"
			}
			return tok, off
		}
	}
	return "", off
}

// lastToken is the last token of src, blanks and newlines after it
// skipped, and its line (llmsh).
func lastToken(src string) (line int, tok string, ok bool) {
	trimmed := strings.TrimRight(src, " \t\n")
	start := strings.LastIndexByte(trimmed, '\n') + 1
	for off := start; off < len(trimmed); {
		t, end := tokenAt(trimmed, off)
		if t == "" || end <= off {
			break
		}
		tok, off = t, end
	}
	return strings.Count(trimmed, "\n") + 1, tok, tok != ""
}

// lineText is line n (from 1) of src.
func lineText(src string, n int) string {
	for i := 1; i < n; i++ {
		j := strings.IndexByte(src, '\n')
		if j < 0 {
			return ""
		}
		src = src[j+1:]
	}
	if j := strings.IndexByte(src, '\n'); j >= 0 {
		src = src[:j]
	}
	return src
}

// maxRetreat bounds the lines CompleteLines goes back over to find where
// the failing command starts.
const maxRetreat = 64

// lineStart is the offset in src where line n (from 1) starts, 0 when
// there is no such line.
func lineStart(src string, n int) int {
	off := 0
	for line := 1; line < n; line++ {
		i := strings.IndexByte(src[off:], '\n')
		if i < 0 {
			return 0
		}
		off += i + 1
	}
	return off
}

// CompleteLines is the text of the whole command lines of src before the
// one that holds the syntax error perr: what bash has run by the time its
// parser meets the error. Commands that share a line with the failing one
// (echo a; fi) do not run.
func CompleteLines(src string, perr syntax.ParseError) string {
	var stmts []*syntax.Stmt
	syntax.NewParser().Stmts(strings.NewReader(src), func(st *syntax.Stmt) bool {
		stmts = append(stmts, st)
		return true
	})
	next := perr.Pos.Line() // the line where the failing command starts
	// llmsh: Stmts stops at a $(( … )) that only fails when it runs,
	// which Parse repairs: the lines before the error's, parsed whole,
	// give the statements when they make a script of their own (the
	// failing command may start a few lines up: tried back to there).
	if len(stmts) == 0 || stmts[len(stmts)-1].End().Line()+1 < next {
		for n := int(next); n > 1 && n+maxRetreat > int(next); n-- {
			cut := lineStart(src, n)
			if cut == 0 {
				break
			}
			if f, err := syntax.NewParser().Parse(strings.NewReader(src[:cut]), ""); err == nil {
				if len(f.Stmts) > len(stmts) {
					stmts = f.Stmts
				}
				break
			}
		}
	}
	// The failing command may start lines before the error (a function
	// body, an if): bash has read it from there and runs none of it.
	off := 0
	for _, st := range stmts {
		off = max(off, stmtTextEnd(src, st))
	}
	if l := nextTokenLine(src, off); l > 0 {
		next = min(next, uint(l))
	}
	k := len(stmts)
	for k > 0 && (stmts[k-1].End().Line() >= next || stmts[k-1].Pos().Line() >= next) {
		k--
	}
	for k > 0 {
		if k < len(stmts) {
			next = min(next, stmts[k].Pos().Line())
		}
		if stmts[k-1].End().Line() < next {
			break
		}
		k--
	}
	if k == 0 {
		return ""
	}
	if k < len(stmts) {
		next = min(next, stmts[k].Pos().Line())
	}
	// The text up to the start of line next.
	off = 0
	for l := uint(1); l < next; l++ {
		i := strings.IndexByte(src[off:], '\n')
		if i < 0 {
			return src
		}
		off += i + 1
	}
	return src[:off]
}

// nextTokenLine is the line (from 1) of the first token at or after
// offset off of src, past blanks, newlines, `;`, `&` and comments; 0 if
// there is none.
func nextTokenLine(src string, off int) int {
	for off < len(src) {
		switch c := src[off]; c {
		case ' ', '\t', '\n', ';', '&':
			off++
		case '#':
			for off < len(src) && src[off] != '\n' {
				off++
			}
		default:
			return strings.Count(src[:off], "\n") + 1
		}
	}
	return 0
}

// stmtTextEnd is the offset in src where the text of st ends: after the
// closing lines of its here-documents, if it has any.
func stmtTextEnd(src string, st *syntax.Stmt) int {
	off := int(st.End().Offset())
	syntax.Walk(st, func(n syntax.Node) bool {
		if rd, ok := n.(*syntax.Redirect); ok && rd.Hdoc != nil {
			end := int(rd.Hdoc.End().Offset())
			if i := strings.IndexByte(src[min(end, len(src)):], '\n'); i >= 0 {
				end += i + 1
			} else {
				end = len(src)
			}
			off = max(off, end)
		}
		return true
	})
	return off
}

// ResumeText is the text that bash reads on with after a syntax error it
// recovers from ([syntax.ParseError.Resume]) reported at line: src's
// lines after that one, the lines before them kept empty so that the
// rest keeps its line numbers. ok is false for any other error (llmsh).
func ResumeText(src string, perr syntax.ParseError, line int) (rest string, ok bool) {
	if !perr.Resume || line < 1 {
		return "", false
	}
	off := 0
	for range line {
		i := strings.IndexByte(src[off:], '\n')
		if i < 0 {
			return "", true // the error's line was the last
		}
		off += i + 1
	}
	return strings.Repeat("\n", line) + src[off:], true
}

// unclosedSubscript reports whether the word that the parse error at off
// is in starts as NAME[ with no ] after it in the rest of src: bash reads
// such a subscript up to its matching ], across blanks and lines, and
// meets the end of the text (a[1=2). line is the line of the [.
func unclosedSubscript(src string, off int) (line int, ok bool) {
	if off > len(src) {
		return 0, false
	}
	start := off
	for start > 0 && !strings.ContainsRune(" \t\n;&|()<>", rune(src[start-1])) {
		start--
	}
	word := src[start:off]
	i := strings.IndexByte(word, '[')
	if i < 1 || !syntax.ValidName(word[:i]) || strings.Contains(src[start+i:], "]") {
		return 0, false
	}
	return strings.Count(src[:start+i], "\n") + 1, true
}

// unclosedQuoteInBrace reads the ${ at offset off of src as bash's
// parse_matched_pair does, to the end of src: in it, and in the quotes,
// $( ), ${ } and backquotes it opens, a quote opens a span to its match
// (double quotes nesting the same in their turn). ok reports that the
// text ends inside a quote or backquote, q, the innermost that is open,
// opened on line, or inside a $( ) (llmsh).
func unclosedQuoteInBrace(src string, off int) (q string, line int, ok bool) {
	if off < 0 || off+2 > len(src) || src[off:off+2] != "${" {
		return "", 0, false
	}
	type open struct {
		kind byte
		at   int
	}
	stack := []open{{'{', off}}
	closer := map[byte]byte{'{': '}', '(': ')', '"': '"', '\'': '\'', '`': '`'}
	for i := off + 2; i < len(src) && len(stack) > 0; i++ {
		top, c := stack[len(stack)-1].kind, src[i]
		switch {
		case top == '\'':
			if c == '\'' {
				stack = stack[:len(stack)-1]
			}
		case c == '\\':
			i++
		case c == closer[top]:
			stack = stack[:len(stack)-1]
		case c == '`':
			stack = append(stack, open{c, i})
		case top == '`':
		case c == '$' && i+1 < len(src) && (src[i+1] == '{' || src[i+1] == '('):
			i++
			stack = append(stack, open{src[i], i})
		case top == '"':
		case c == '"' || c == '\'' || c == '(' && top == '(':
			stack = append(stack, open{c, i})
		}
	}
	if len(stack) == 0 {
		return "", 0, false
	}
	if in := stack[len(stack)-1]; in.kind == '"' || in.kind == '\'' || in.kind == '`' {
		return string(in.kind), strings.Count(src[:in.at], "\n") + 1, true
	} else if in.kind == '(' {
		// a $( ): bash parses a command list, and meets the end of
		// the text on the line after it.
		return ")", textLines(src) + 1, true
	}
	return "", 0, false
}

// unclosedRegexParen reports whether the [[ at off has a =~ whose regex
// opens a ( that nothing closes before the end of src, and the line of
// that (.
func unclosedRegexParen(src string, off int) (line int, ok bool) {
	if off > len(src) {
		return 0, false
	}
	rest := src[off:]
	i := strings.Index(rest, "=~")
	if i < 0 {
		return 0, false
	}
	i += off + 2
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	depth, open := 0, 0
	for ; i < len(src); i++ {
		switch c := src[i]; c {
		case '\\':
			i++
		case '(':
			if depth == 0 {
				open = i
			}
			depth++
		case ')':
			depth--
		case ' ', '\t', '\n':
			if depth == 0 {
				return 0, false
			}
		}
	}
	if depth <= 0 {
		return 0, false
	}
	return strings.Count(src[:open], "\n") + 1, true
}

// textEndError is the parse error perr of src, or, when src does not
// end in a newline, the error met with one after it, and the text that
// error is of: bash reads the end of eval's text or a file as a newline
// (`eval '[[ a =='`), as the shell does for a script (shell's
// runToSyntaxError) (llmsh).
func (r *Runner) textEndError(src, name string, perr syntax.ParseError) (string, syntax.ParseError) {
	if strings.HasSuffix(src, "\n") {
		return src, perr
	}
	var nl syntax.ParseError
	if _, err := r.parseText(src+"\n", name); errors.As(err, &nl) {
		return src + "\n", nl
	}
	return src, perr
}

// textAfterLine reports whether src has text after the line that holds
// offset off (llmsh).
func textAfterLine(src string, off int) bool {
	off = min(max(off, 0), len(src))
	nl := strings.IndexByte(src[off:], '\n')
	return nl >= 0 && off+nl+1 < len(src)
}

// textLines is the number of lines of src: its complete lines and a last
// one without its newline.
func textLines(src string) int {
	lines := strings.Count(src, "\n")
	if src != "" && !strings.HasSuffix(src, "\n") {
		lines++
	}
	return lines
}

// lineMark starts a message of [SyntaxError] that bash says on the line
// delta lines after the one SyntaxError returns ([MsgLine] reads it).
func lineMark(delta int) string {
	return "\x00" + strconv.Itoa(delta) + "\x00"
}

// MsgLine is the line bash names for message m of [SyntaxError], line
// the line SyntaxError returned (with any offset the caller adds), and
// the message's text: most say line, some a later one.
func MsgLine(line int, m string) (int, string) {
	if rest, ok := strings.CutPrefix(m, "\x00"); ok {
		if d, text, ok := strings.Cut(rest, "\x00"); ok {
			if n, err := strconv.Atoi(d); err == nil {
				return line + n, text
			}
		}
	}
	return line, m
}

// unclosedOld reports whether the last $[ at or before off in src has
// no ] anywhere after it, and the line of that $[ (llmsh).
func unclosedOld(src string, off int) (line int, ok bool) {
	end := min(off+2, len(src))
	if end < 0 {
		return 0, false
	}
	i := strings.LastIndex(src[:end], "$[")
	if i < 0 || strings.Contains(src[i+2:], "]") {
		return 0, false
	}
	return strings.Count(src[:i], "\n") + 1, true
}

// unclosedArith reports whether the last (( at or before off in src has
// no )) anywhere after it, and the line of that ((.
func unclosedArith(src string, off int) (line int, ok bool) {
	end := min(off+3, len(src)) // off may be the $ of $((
	if end < 0 {
		return 0, false
	}
	i := lastUnquoted(src[:end], "((")
	if i < 0 || strings.Contains(src[i+2:], "))") {
		return 0, false
	}
	return strings.Count(src[:i], "\n") + 1, true
}

// lastUnquoted is the index of the last sub in src that is not inside
// single quotes, a backslash escape or a comment, or -1: a (( in
// 'echo $((1' is text, not an arithmetic command (llmsh).
func lastUnquoted(src, sub string) int {
	last := -1
	var inSingle, inDouble, inComment bool
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case inComment:
			inComment = c != '\n'
		case inSingle:
			inSingle = c != '\''
		case c == '\\':
			i++
		case c == '"':
			inDouble = !inDouble
		case c == '\'' && !inDouble:
			inSingle = true
		case c == '#' && !inDouble && (i == 0 || strings.IndexByte(" \t\n;&|(", src[i-1]) >= 0):
			inComment = true
		case strings.HasPrefix(src[i:], sub):
			last = i
		}
	}
	return last
}

// fdNumberBefore is the word of digits that ends at offset off of src,
// where a redirection operator starts: bash reads it as a NUMBER token
// (a descriptor), which its syntax errors name (`a=(x 2>y)`: token `2');
// "" when no such word ends there (llmsh).
func fdNumberBefore(src string, off int) string {
	if off >= len(src) || src[off] != '<' && src[off] != '>' {
		return ""
	}
	start := off
	for start > 0 && src[start-1] >= '0' && src[start-1] <= '9' {
		start--
	}
	if start == off || start > 0 && !strings.ContainsRune(" \t\n;&|()", rune(src[start-1])) {
		return ""
	}
	return src[start:off]
}

// matchedPairEOF reports whether perr, whose bash words are msgs, is the
// end of eval text met inside what bash's parse_matched_pair reads: a
// quote, ${, $((, ((, for ((, $[ (not a $( nor an array literal). bash's
// parser then reads the first word of the next line as no reserved word
// (llmsh: pairFirstWord).
func matchedPairEOF(perr syntax.ParseError, src string, msgs []string) bool {
	if len(msgs) == 0 || !strings.HasPrefix(msgs[0], "unexpected EOF while looking for matching") || perr.Status != 0 {
		return false
	}
	text := perr.Text
	if strings.Contains(text, "`$(` with `)`") {
		off := int(perr.Pos.Offset())
		return off+3 <= len(src) && src[off:off+3] == "$(("
	}
	return true
}
