// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// Command substitutions printed as bash 5.2 prints them: its parser
// reads a $( ) or <( ) and keeps the commands' text as its printer lays
// them out again (parse_comsub, print_comsub), so declare -f, type and
// $BASH_COMMAND show `$(echo hi | cat)` for `$(echo   hi|cat)` and
// `$( ( exit 1 ))` for `$( (exit 1) )`. Backquotes keep their text.

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// outerSubsts are the outermost $( ) and <( ) >( ) in n, in order; not
// those in backquotes, which bash keeps as written.
func outerSubsts(n syntax.Node) []syntax.Node {
	var found []syntax.Node
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			if !n.Backquotes && !n.TempFile && !n.ReplyVar && n.Bad == "" {
				found = append(found, n)
			}
			return false
		case *syntax.ProcSubst:
			found = append(found, n)
			return false
		}
		return true
	})
	return found
}

// withSubsts is the source text from start to end with each of substs
// (inside it, in order) printed anew.
func (p *funcPrinter) withSubsts(start, end int, substs []syntax.Node, lc *lineConts) string {
	src := func(from, to int) string {
		if lc != nil {
			return lc.strip(p.src[from:to])
		}
		return p.src[from:to]
	}
	var b strings.Builder
	at := start
	for _, s := range substs {
		from, to := int(s.Pos().Offset()), int(s.End().Offset())
		if from < at || to > end || from > to {
			return src(start, end)
		}
		b.WriteString(src(at, from))
		b.WriteString(p.substText(s))
		at = to
	}
	b.WriteString(src(at, end))
	return b.String()
}

// substText is a $( ) or a <( ) as bash prints it: a space after the
// parenthesis when the commands start with one (`$( ( exit 1 ))`).
func (p *funcPrinter) substText(s syntax.Node) string {
	open, stmts := "$(", []*syntax.Stmt(nil)
	switch s := s.(type) {
	case *syntax.CmdSubst:
		stmts = s.Stmts
	case *syntax.ProcSubst:
		open, stmts = s.Op.String(), s.Stmts
	}
	q := &funcPrinter{src: p.src, words: p.words, comsub: true}
	q.list(stmts, 0, false)
	body := q.b.String()
	if strings.HasPrefix(body, "(") {
		body = " " + body
	}
	return open + body + ")"
}

// substLineMap gives the line of each command of cs (a $( )) in the text
// that bash runs for it: bash 5.2 keeps a $( )'s commands as its printer
// lays them out (print_comsub) and parses that text again when it runs,
// counting its lines from the line of the command that holds it; blank
// lines and comments are gone and compound commands spread over lines
// (`$(if true; then echo $LINENO; fi)` on line 2 says 3). nil when the
// layout changes no line: one line of simple commands.
func (r *Runner) substLineMap(cs *syntax.CmdSubst) map[*syntax.Stmt][3]int {
	c := &r.llmsh.substLines
	c.Lock()
	lines, ok := c.m[cs]
	c.Unlock()
	if ok {
		return lines
	}
	if cs.Left.Line() != cs.Right.Line() || hasCompound(cs.Stmts) {
		p := &funcPrinter{src: r.text.src, words: syntax.NewPrinter(syntax.SingleLine(true)), comsub: true, lines: map[*syntax.Stmt][3]int{}}
		// A $( ) inside one bash runs from its print was read from
		// that print: a command after a here-document is on a line
		// of its own there.
		p.reprint = r.substLines != nil
		p.list(cs.Stmts, 0, false)
		lines = p.lines
	}
	c.Lock()
	if c.m == nil || len(c.m) >= substLinesMax {
		c.m = make(map[*syntax.CmdSubst]map[*syntax.Stmt][3]int)
	}
	c.m[cs] = lines
	c.Unlock()
	return lines
}

// substStmts runs stmts, the commands of a $( ): where substLines gives
// their lines, bash's line number between them is the last line of its
// text of them that its parser has read (killLine), where the command
// ends or the last one on that line: a compound command's redirections
// fail there (`$(while …; done < nofile)` on line 1 says line 3).
func (r *Runner) substStmts(ctx context.Context, stmts []*syntax.Stmt) {
	if r.substLines == nil {
		r.stmts(ctx, stmts)
		return
	}
	for i, st := range stmts {
		end := r.substLines[st][1]
		for j := i + 1; j < len(stmts) && r.substLines[stmts[j]][0] == end; j++ {
			end = r.substLines[stmts[j]][1]
		}
		if end > 0 {
			r.killLine = r.substBase + end
		}
		r.mayDefer = i < len(stmts)-1
		r.stmt(ctx, st)
	}
}

// substLinesMax bounds the $( ) whose lines substLineMap keeps.
const substLinesMax = 256

// hasCompound reports whether stmts hold a command that bash's printer
// spreads over lines (a compound command or a function), also inside a
// $( ) or <( ) of theirs, which the outer print holds as printed.
func hasCompound(stmts []*syntax.Stmt) bool {
	found := false
	for _, st := range stmts {
		syntax.Walk(st, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.IfClause, *syntax.WhileClause, *syntax.ForClause, *syntax.CaseClause,
				*syntax.Block, *syntax.Subshell, *syntax.FuncDecl:
				found = true
			case *syntax.CmdSubst:
				// Printed on its own, but in the outer print a $( )
				// over several lines spreads its command too.
				if !n.Backquotes && n.Left.Line() != n.Right.Line() {
					found = true
				}
				return !found && !n.Backquotes
			case *syntax.ProcSubst:
				if n.Pos().Line() != n.End().Line() {
					found = true
				}
				return !found
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// comsubList writes stmts as bash's print_comsub does: commands on one
// line are joined by "; ", a newline between two stays a newline (and
// the next command has no indent), one in the background is followed
// by " "; with semiLast a ";" ends the list, as the body of an if or a
// loop. indentFirst indents the first command (not in ( ) or { }).
// Here-document bodies go at the separator after their command, which
// then keeps its newline or is a space; as bash's was_heredoc, the ";"
// of the next separator is then dropped too.
func (p *funcPrinter) comsubList(stmts []*syntax.Stmt, ind int, semiLast, indentFirst bool) {
	if indentFirst {
		p.indent(ind)
	}
	wasDoc := false
	for i, st := range stmts {
		if i > 0 {
			prev := stmts[i-1]
			sameLine := prev.End().Line() == st.Pos().Line()
			sep := "\n"
			switch {
			case p.flushHdocs():
				wasDoc = true
				if sameLine && !p.reprint {
					sep = " "
				}
			case prev.Background:
				sep = " "
			case wasDoc || p.midDoc:
				wasDoc, p.midDoc = false, false
				if sameLine {
					sep = " "
				}
			case sameLine:
				sep = "; "
			}
			p.b.WriteString(sep)
		}
		p.stmt(st, ind)
	}
	if semiLast && len(p.hdocs) == 0 {
		p.semicolon()
	}
	p.flushHdocs()
}

// semicolon writes ";" unless the text ends a line or a background
// command, as bash's semicolon().
func (p *funcPrinter) semicolon() {
	s := p.b.String()
	if s != "" && (s[len(s)-1] == '\n' || s[len(s)-1] == '&') {
		return
	}
	p.b.WriteString(";")
}

// badBackquote runs a backquoted substitution whose text does not parse
// (syntax.CmdSubst.Bad): bash parses it only now, so its syntax error is
// that substitution's, "NAME: command substitution: line N: …" with N
// counted from the line of the command that holds it, and status 2; the
// whole lines before the error run, and the command goes on (llmsh).
func (r *Runner) badBackquote(w io.Writer, cs *syntax.CmdSubst) error {
	if !cs.Backquotes {
		return r.badHdocSubst(cs)
	}
	text := unescapeBackquoted(cs.Bad)
	status := uint8(2)
	if file, err := r.parseText(text, ""); err == nil {
		// llmsh: the text parses once its own bad substitutions are
		// set aside (`echo \`if\``, whose inner one fails when it runs).
		sub := &syntax.CmdSubst{Left: syntax.NewPos(0, 1, 1), Right: cs.Right, Backquotes: true, Stmts: file.Stmts}
		return r.ecfg.CmdSubst(w, sub)
	} else {
		var perr syntax.ParseError
		if errors.As(err, &perr) {
			if file, _ := r.parseText(CompleteLines(text, perr), ""); file != nil && len(file.Stmts) > 0 {
				// As bash, the whole lines before the error run
				// first, as the substitution's; its lines count
				// from the backquote's.
				sub := &syntax.CmdSubst{Left: syntax.NewPos(0, 1, 1), Right: cs.Right, Backquotes: true, Stmts: file.Stmts}
				if err := r.ecfg.CmdSubst(w, sub); err != nil {
					return err
				}
			}
			line, msgs := SyntaxError(perr, text)
			base := r.ecfg.CmdLine
			if base == 0 {
				base = r.line
			}
			for _, m := range msgs {
				l, m := MsgLine(line, m)
				r.errf("%s: command substitution: line %d: %s\n", r.shellFileName(), base+l-1, m)
			}
			status = uint8(syntaxStatus(perr))
		} else {
			r.errf("%s: command substitution: %v\n", r.shellFileName(), err)
		}
	}
	r.lastExpandExit = exitStatus{code: status}
	r.lastExit.code = status
	return nil
}

// unescapeBackquoted is the text of a backquoted substitution as bash
// parses it: a backslash before a backslash, a backquote or a $ removed.
func unescapeBackquoted(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\\`$", s[i+1]) >= 0 {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// errHdocSubst fails a here-document whose $( … ) does not parse: the
// error is reported (badHdocSubst), the command fails with status 1.
var errHdocSubst = errors.New("here-document command substitution not parsed")

// badHdocSubst reports the syntax error of a here-document's $( … ),
// which bash parses when it expands the body (syntax/llmsh_hdoc.go):
// "NAME: command substitution: line N: …" on the line of the error, the
// text from after the $( to the body's end parsed; the command fails.
func (r *Runner) badHdocSubst(cs *syntax.CmdSubst) error {
	text := cs.Bad
	_, err := r.parseText(text, "")
	// bash counts the lines from the one after the command's.
	base := r.ecfg.CmdLine
	if base == 0 {
		base = r.line
	}
	base++
	var perr syntax.ParseError
	var line int
	var msgs []string
	if errors.As(err, &perr) {
		line, msgs = SyntaxError(perr, text)
		if len(msgs) == 1 && msgs[0] == "syntax error: unexpected end of file" {
			msgs[0] = "unexpected EOF while looking for matching `)'" // the $( left open
		}
	} else {
		// The body ends before the $( is closed.
		line, msgs = strings.Count(text, "\n")+1, []string{"unexpected EOF while looking for matching `)'"}
	}
	for _, m := range r.SyntaxErrorLines(msgs) {
		l, m := MsgLine(line, m)
		r.errf("%s: command substitution: line %d: %s\n", r.shellFileName(), base+l-1, m)
	}
	return errHdocSubst
}
