// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// Functions printed as bash 5.2 prints them (declare -f, type): bash's
// print_cmd.c lays a command out anew, one command a line, four spaces
// an indent, ";" after each command of a body, compound commands over
// several lines. Words are printed as written. See LLMSH.md.

import (
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// funcPrinter writes commands in bash's layout.
type funcPrinter struct {
	b      strings.Builder
	src    string // the text the nodes were parsed from, or ""
	words  *syntax.Printer
	hdocs  []*syntax.Redirect // here-documents due at the end of the line
	noSemi bool               // the next separator has no ";" (after a here-document, as bash)
	midDoc bool               // here-documents were written inside the line: the next separator between commands has no ";" (bash's was_heredoc)
	comsub bool               // printing a $( )'s commands: bash's print_comsub layout (comsub.go)
	// reprint: the commands are those of a $( ) inside a $( ), which
	// bash parsed from its print of the outer one (substLineMap).
	reprint bool
	// lines, when not nil, gets the first and the last line of each
	// command printed and bash's line of it (stmtLine's rule in the
	// printed text: substLineMap), counted up to nl in b.
	lines map[*syntax.Stmt][3]int
	nl    struct{ at, lines int }
	// conn counts the connections (lists of several commands, && ||
	// |) being printed, bash's printing_connection.
	conn int
	// flat is the layout of a function exported in the environment
	// (bash's named_function_string without FUNC_MULTILINE): every
	// indented line starts with one space, whatever its depth.
	flat bool
	// inFunc: printing a function's text (bash's inside_function_def),
	// where a condition's ";" ends its line.
	inFunc bool
}

// bashFuncText prints function name with body as bash does.
func bashFuncText(name string, body *syntax.Stmt, src string) string {
	p := &funcPrinter{src: src, words: syntax.NewPrinter(syntax.SingleLine(true))}
	p.function(name, body, 0, false)
	p.b.WriteString("\n")
	return p.b.String()
}

// bashFuncEnvText prints a function's body as bash exports it in the
// environment (BASH_FUNC_NAME%%): "() {  first;\n second\n}", the first
// command on the brace's line, each line after it one space in.
func bashFuncEnvText(body *syntax.Stmt, src string) string {
	p := &funcPrinter{src: src, words: syntax.NewPrinter(syntax.SingleLine(true)), flat: true, inFunc: true}
	p.b.WriteString("() { ")
	if blk, ok := body.Cmd.(*syntax.Block); ok {
		p.list(blk.Stmts, 4, false)
		p.b.WriteString("\n}")
		p.redirs(body.Redirs, false)
		p.endLine()
		return p.b.String()
	}
	p.indent(4)
	p.stmt(body, 4)
	p.endLine()
	p.b.WriteString("\n}")
	return p.b.String()
}

func (p *funcPrinter) indent(n int) {
	if p.flat {
		n = min(n, 1)
	}
	p.b.WriteString(strings.Repeat(" ", n))
}

// function writes NAME () and the body as a group.
func (p *funcPrinter) function(name string, body *syntax.Stmt, ind int, keyword bool) {
	defer func(c, f bool) { p.comsub, p.inFunc = c, f }(p.comsub, p.inFunc)
	p.comsub = false // a function in a $( ) is printed as a function
	p.inFunc = true
	if keyword {
		p.b.WriteString("function ")
	}
	p.b.WriteString(name + " () \n")
	p.indent(ind)
	p.b.WriteString("{ \n")
	if blk, ok := body.Cmd.(*syntax.Block); ok {
		p.list(blk.Stmts, ind+4, false)
		p.b.WriteString("\n")
		p.indent(ind)
		p.b.WriteString("}")
		// llmsh: the group's redirections follow its brace, as bash.
		p.redirs(body.Redirs, false)
		p.endLine()
		return
	}
	p.indent(ind + 4)
	p.stmt(body, ind+4)
	p.endLine()
	p.b.WriteString("\n")
	p.indent(ind)
	p.b.WriteString("}")
}

// list writes stmts one a line at indent ind; with semiLast the last one
// ends with ";" too (the bodies of if, while, for), not in a group.
func (p *funcPrinter) list(stmts []*syntax.Stmt, ind int, semiLast bool) {
	if p.comsub {
		p.comsubList(stmts, ind, semiLast, true)
		return
	}
	if len(stmts) > 1 {
		p.conn++ // bash's printing_connection
		defer func() { p.conn-- }()
	}
	for i, st := range stmts {
		if i == 0 || !stmts[i-1].Background {
			p.indent(ind)
		}
		p.stmt(st, ind)
		last, carry := i == len(stmts)-1, false
		switch {
		case st.Background && !last:
			p.b.WriteString(" ")
			continue
		case st.Background:
		case p.flushHdocs():
			// bash 5.2 prints the bodies of the first command's
			// here-documents at the separator after it, which then
			// drops the ";" after the second command too; a later
			// command's bodies end its own connection, and the
			// separator after it is the one dropped.
			p.noSemi = i == 0 || last // the last one's: the list's end
			if !last {
				p.b.WriteString("\n")
			}
			continue
		case !last && p.midDoc:
			p.midDoc = false
		case last && p.noSemi:
			// bash's was_heredoc outlives the list: a loop's body
			// still ends with ";" (its semicolon()), and the next
			// separator outside is the one dropped.
			if semiLast {
				p.b.WriteString(";")
			}
			carry = true
		case (!last || semiLast) && !p.noSemi:
			p.b.WriteString(";")
		}
		p.noSemi = carry
		if !last {
			p.b.WriteString("\n")
		} else if p.flushHdocs() {
			p.noSemi = true
		}
	}
}

// endLine writes the here-documents due.
func (p *funcPrinter) endLine() { p.flushHdocs() }

// flushHdocs writes the bodies of the here-documents of the line, and
// reports whether there were any.
func (p *funcPrinter) flushHdocs() bool {
	if len(p.hdocs) == 0 {
		return false
	}
	for i, rd := range p.hdocs {
		if i == 0 {
			p.b.WriteString("\n") // the next body follows the delimiter
		}
		body, delim := "", p.text(rd.Word)
		if d, quoted := syntax.HeredocDelim(rd.Word); quoted {
			delim = d // bash's: <<E\OF ends at EOF
		}
		if rd.Hdoc != nil {
			body = p.textRaw(rd.Hdoc, nil)
			if !hdocQuotedDelim(rd.Word) || !strings.ContainsAny(p.text(rd.Word), `'"\`) {
				body = hdocLineConts(body) // bash reads the body's continuations
			}
		}
		if rd.Op == syntax.DashHdoc {
			// bash prints <<- bodies with their tabs stripped.
			lines := strings.Split(body, "\n")
			for i, l := range lines {
				lines[i] = strings.TrimLeft(l, "\t")
			}
			body = strings.Join(lines, "\n")
		}
		if body != "" && !strings.HasSuffix(body, "\n") && !strings.HasSuffix(body, delim) {
			body += "\n"
		}
		if !strings.HasSuffix(body, delim) {
			body += delim
		}
		p.b.WriteString(body + "\n")
	}
	p.hdocs = p.hdocs[:0]
	return true
}

// text is a node as written: from the source when the runner has it
// (its line continuations gone, as bash's lexer drops them), else as
// mvdan's printer prints it.
func (p *funcPrinter) text(n syntax.Node) string {
	if p.src == "" {
		return p.textRaw(n, nil)
	}
	return p.textRaw(n, &lineConts{})
}

// textRaw is text; lc, when not nil, strips the source's line
// continuations.
func (p *funcPrinter) textRaw(n syntax.Node, lc *lineConts) string {
	if w, ok := n.(*syntax.Word); ok && w == nil {
		return ""
	}
	if w, ok := n.(*syntax.Word); ok && hasDollarSgl(w) {
		// bash prints $'…' as the '…' it decodes to.
		var sb strings.Builder
		for _, wp := range w.Parts {
			if dq, ok := wp.(*syntax.DblQuoted); ok && dq.Dollar {
				// llmsh: $"…" as the "…" bash translated it to.
				sb.WriteString(strings.TrimPrefix(p.text(wp), "$"))
				continue
			}
			if sq, ok := wp.(*syntax.SglQuoted); ok && sq.Dollar {
				v, _, _ := expand.Format(nil, sq.Value, nil)
				v, _, _ = strings.Cut(v, "\x00")
				if v == "'" {
					sb.WriteString(`\'`) // bash's sh_single_quote
					continue
				}
				sb.WriteString("'" + strings.ReplaceAll(v, "'", `'\''`) + "'")
				continue
			}
			sb.WriteString(p.text(wp))
		}
		return sb.String()
	}
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if p.src != "" && n.Pos().IsValid() && start < end && end <= len(p.src) {
		if substs := outerSubsts(n); len(substs) > 0 {
			return p.withSubsts(start, end, substs, lc) // comsub.go
		}
		if lc != nil {
			return lc.strip(p.src[start:end])
		}
		return p.src[start:end]
	}
	var sb strings.Builder
	p.words.Print(&sb, n)
	return sb.String()
}

// assign is an assignment as bash prints it: a plain value's $'…' parts
// decoded (see text).
func (p *funcPrinter) assign(as *syntax.Assign) string {
	if as.Naked && as.Value != nil {
		return p.text(as.Value)
	}
	if as.Array != nil {
		return p.arrayAssign(as)
	}
	if w := as.Value; w != nil && len(w.Parts) > 1 && !as.Naked {
		// llmsh: x=(a   b) before a command's name is the word the
		// parser made of its list (arrayAsWord), whose blanks are
		// zero-width: bash prints one space between the elements.
		if lit, ok := w.Parts[0].(*syntax.Lit); ok && lit.Value == "(" {
			var sb strings.Builder
			sb.WriteString(as.Name.Value)
			if as.Append {
				sb.WriteByte('+')
			}
			sb.WriteByte('=')
			for _, part := range w.Parts {
				if lit, ok := part.(*syntax.Lit); ok && (lit.ValuePos == lit.ValueEnd || lit.Value == "(" || lit.Value == ")") {
					sb.WriteString(lit.Value)
					continue
				}
				sb.WriteString(p.text(part))
			}
			return sb.String()
		}
	}
	if as.Value == nil || !hasDollarSgl(as.Value) {
		return p.text(as)
	}
	start, end := int(as.Pos().Offset()), int(as.Value.Pos().Offset())
	if p.src == "" || start >= end || end > len(p.src) {
		return p.text(as)
	}
	return p.src[start:end] + p.text(as.Value)
}

// arrayAssign is NAME=(ELEMS) as bash prints it: the elements as written,
// on one line with one space between them, whatever the source's layout.
func (p *funcPrinter) arrayAssign(as *syntax.Assign) string {
	var sb strings.Builder
	sb.WriteString(as.Name.Value)
	if as.Index != nil {
		sb.WriteString("[" + p.text(as.Index) + "]")
	}
	if as.Append {
		sb.WriteString("+")
	}
	sb.WriteString("=(")
	for i, el := range as.Array.Elems {
		if i > 0 {
			sb.WriteByte(' ')
		}
		if el.Index != nil {
			sb.WriteString("[" + p.text(el.Index) + "]=")
		}
		if el.Value != nil {
			sb.WriteString(p.text(el.Value))
		}
	}
	sb.WriteByte(')')
	return sb.String()
}

// hasDollarSgl reports whether w has a $'…' part of its own (not one
// inside double quotes, which is no ANSI-C quoting), or a $"…" (llmsh).
func hasDollarSgl(w *syntax.Word) bool {
	for _, wp := range w.Parts {
		if sq, ok := wp.(*syntax.SglQuoted); ok && sq.Dollar {
			return true
		}
		if dq, ok := wp.(*syntax.DblQuoted); ok && dq.Dollar {
			return true
		}
	}
	return false
}

func (p *funcPrinter) stmt(st *syntax.Stmt, ind int) {
	if p.lines != nil {
		text := p.b.String()
		p.nl.lines += strings.Count(text[p.nl.at:], "\n")
		p.nl.at = len(text)
		p.lines[st] = [3]int{p.nl.lines + 1}
	}
	start := p.b.Len()
	if st.Negated {
		p.b.WriteString("! ")
	}
	if st.Cmd != nil {
		p.command(st.Cmd, ind)
	}
	p.redirs(st.Redirs, st.Cmd == nil)
	if p.lines != nil {
		text := p.b.String()
		p.nl.lines += strings.Count(text[p.nl.at:], "\n")
		p.nl.at = len(text)
		first := p.lines[st][0]
		p.lines[st] = [3]int{first, p.nl.lines + 1, first + p.lookaheadLines(st, text[start:])}
	}
	if st.Background {
		p.b.WriteString(" &")
	}
}

// lookaheadLines is the number of lines between the start of st, a
// command printed as text, and the line bash's parser reaches when it
// makes it: for a simple command, the end of the token after its first
// word (stmtLine), the words being printed as text; 0 for others.
// `echo $(cat <<E …)` in a $( ) is on the line of the inner $( )'s end.
func (p *funcPrinter) lookaheadLines(st *syntax.Stmt, text string) int {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated {
		return 0
	}
	var end int
	switch {
	case len(ce.Assigns) > 0:
		// An assignment first: the end of it (`x=$(…⏎…)`).
		end = len(p.assign(ce.Assigns[0]))
	case len(ce.Args) < 2:
		return 0
	default:
		end = len(p.text(ce.Args[0])) + 1 + len(p.text(ce.Args[1]))
	}
	if end > len(text) {
		return 0
	}
	return strings.Count(text[:end], "\n")
}

// defaultFd reports whether rd names the descriptor its operator has by
// default (0<f, 1>f, 1>>f, 0<<<w), which bash does not print (nor 1 of
// 1<>f, whose own default, 0, bash does print).
// dupToWord reports whether the target of N>&WORD or N<&WORD is a word
// (>&$fd) rather than a number or a close (>&2, >&3-, >&-), which bash's
// parser keeps apart (llmsh).
func dupToWord(w *syntax.Word) bool {
	lit := w.Lit()
	if lit == "-" {
		return false
	}
	d := strings.TrimSuffix(lit, "-")
	if n, err := strconv.ParseInt(d, 10, 32); err == nil && n >= 0 && strings.Trim(d, "0123456789") == "" {
		return false
	}
	return true
}

func defaultFd(rd *syntax.Redirect) bool {
	switch rd.Op {
	case syntax.RdrIn, syntax.WordHdoc, syntax.Hdoc, syntax.DashHdoc:
		return rd.N.Value == "0"
	case syntax.RdrOut, syntax.AppOut, syntax.ClbOut, syntax.RdrInOut:
		return rd.N.Value == "1" // bash prints 1<>f as <>f
	}
	return false
}

// forPart is a part of for (( ; ; )) as bash prints it: an empty one is 1.
// forParts is the three expressions of for ((…)) as bash prints them:
// each as written with its leading blanks dropped (its trailing blanks
// kept), "1" for an empty one (make_arith_for_expr's text).
func (p *funcPrinter) forParts(l *syntax.CStyleLoop) string {
	exprs := []syntax.ArithmExpr{l.Init, l.Cond, l.Post}
	src := cstyleSrcParts(p.src, l)
	out := make([]string, 3)
	for i, x := range exprs {
		out[i] = p.arith(x)
		if src == nil {
			out[i] = forPart(out[i])
			continue
		}
		part := src[i]
		if x == nil {
			out[i] = forPart(strings.TrimLeft(part, " \t"))
		} else if out[i] != "" {
			out[i] += part[len(strings.TrimRight(part, " \t\n")):]
		}
	}
	return strings.Join(out, "; ")
}

func forPart(s string) string {
	if s == "" {
		return "1"
	}
	return s
}

func (p *funcPrinter) redirs(rds []*syntax.Redirect, first bool) {
	if len(rds) > 0 {
		p.noSemi, p.midDoc = false, false // bash's print_redirection_list clears was_heredoc
	}
	for _, rd := range rds {
		if !first {
			p.b.WriteString(" ")
		}
		first = false
		wordDup := (rd.Op == syntax.DplOut || rd.Op == syntax.DplIn) && dupToWord(rd.Word)
		if wordDup {
			// bash: >&WORD and <&WORD print their descriptor only
			// when it is not the operator's own (2>&$fd, not 1>&$fd).
			own := "0"
			if rd.Op == syntax.DplOut {
				own = "1"
			}
			if rd.N != nil && rd.N.Value != own {
				p.b.WriteString(rd.N.Value)
			}
		} else if rd.N != nil {
			if !defaultFd(rd) {
				p.b.WriteString(rd.N.Value)
			}
		} else if rd.Op == syntax.DplOut {
			p.b.WriteString("1") // bash: >&2 is 1>&2
		} else if rd.Op == syntax.DplIn || rd.Op == syntax.RdrInOut {
			p.b.WriteString("0") // bash: <>f is 0<>f
		}
		if rd.Op == syntax.DplIn && p.text(rd.Word) == "-" {
			p.b.WriteString(">&") // bash prints a close as N>&-
		} else {
			p.b.WriteString(rd.Op.String())
		}
		switch rd.Op {
		case syntax.DplIn, syntax.DplOut, syntax.Hdoc, syntax.DashHdoc:
		default:
			p.b.WriteString(" ")
		}
		if delim, quoted := syntax.HeredocDelim(rd.Word); quoted && (rd.Op == syntax.Hdoc || rd.Op == syntax.DashHdoc) {
			p.b.WriteString("'" + delim + "'") // bash: <<"EOF", <<\EOF as <<'EOF'
		} else {
			p.b.WriteString(p.text(rd.Word))
		}
		if rd.Op == syntax.Hdoc || rd.Op == syntax.DashHdoc {
			p.hdocs = append(p.hdocs, rd)
		}
	}
}

func (p *funcPrinter) words_(ws []*syntax.Word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = p.text(w)
	}
	return strings.Join(parts, " ")
}

// inline writes stmts as bash writes a condition: on one line in a $( ),
// one a line in a function.
func (p *funcPrinter) inline(stmts []*syntax.Stmt, ind int) {
	for i, st := range stmts {
		if i > 0 {
			switch {
			case stmts[i-1].Background:
				p.b.WriteString(" ")
			case p.comsub || !p.inFunc:
				p.b.WriteString("; ")
			default:
				// bash's ";" in a function's text ends the line
				// (`while a;⏎    b; do`).
				p.b.WriteString(";\n")
				p.indent(ind)
			}
		}
		p.stmt(st, ind)
	}
}

func (p *funcPrinter) command(cm syntax.Command, ind int) {
	switch cm := cm.(type) {
	case *syntax.CallExpr:
		var parts []string
		for _, as := range cm.Assigns {
			parts = append(parts, p.assign(as))
		}
		if len(cm.Args) > 0 {
			parts = append(parts, p.words_(cm.Args))
		}
		p.b.WriteString(strings.Join(parts, " "))
	case *syntax.DeclClause:
		var parts []string
		for _, as := range cm.Assigns {
			parts = append(parts, p.assign(as))
		}
		parts = append(parts, cm.Variant.Value)
		for _, as := range cm.Args {
			parts = append(parts, p.assign(as))
		}
		p.b.WriteString(strings.Join(parts, " "))
	case *syntax.BinaryCmd:
		p.conn++
		defer func() { p.conn-- }()
		p.stmt(cm.X, ind)
		if len(p.hdocs) > 0 {
			// bash writes the here-documents of the left side after
			// the operator, and the right side after them.
			switch cm.Op {
			case syntax.AndStmt:
				p.b.WriteString(" && ")
			case syntax.OrStmt:
				p.b.WriteString(" || ")
			case syntax.Pipe:
				p.b.WriteString(" |")
			case syntax.PipeAll:
				p.b.WriteString(" 2>&1 |")
			}
			p.flushHdocs()
			p.midDoc = true
			if cm.Op == syntax.Pipe || cm.Op == syntax.PipeAll {
				p.b.WriteString(" ")
			}
			p.b.WriteString(" ")
			p.stmt(cm.Y, ind)
			return
		}
		switch cm.Op {
		case syntax.AndStmt:
			p.b.WriteString(" && ")
		case syntax.OrStmt:
			p.b.WriteString(" || ")
		case syntax.Pipe:
			p.b.WriteString(" | ")
		case syntax.PipeAll:
			p.b.WriteString(" 2>&1 | ")
		}
		p.stmt(cm.Y, ind)
	case *syntax.Block:
		if p.comsub {
			p.b.WriteString("{ ")
			p.comsubList(cm.Stmts, ind, false, false)
			p.semicolon()
			p.b.WriteString(" }")
			break
		}
		p.b.WriteString("{ \n")
		p.list(cm.Stmts, ind+4, false)
		p.b.WriteString("\n")
		p.indent(ind)
		p.b.WriteString("}")
	case *syntax.Subshell:
		p.b.WriteString("( ")
		if p.comsub {
			p.comsubList(cm.Stmts, ind, false, false)
			p.b.WriteString(" )")
			break
		}
		skip := 0 // separators without ";" (as list's)
		for i, st := range cm.Stmts {
			if i > 0 {
				if skip == 0 && !p.noSemi {
					p.b.WriteString(";")
				}
				skip, p.noSemi = max(skip-1, 0), false
				p.b.WriteString("\n")
				p.indent(ind)
			}
			p.stmt(st, ind)
			switch {
			case !p.flushHdocs():
			case i == len(cm.Stmts)-1:
				// bash's PRINT_DEFERRED_HEREDOCS before the ")":
				// the separator after the subshell is dropped.
				p.noSemi = true
			case i == 0:
				skip = 2
			default:
				skip = 1
			}
		}
		p.b.WriteString(" )")
	case *syntax.IfClause:
		p.ifClause(cm, ind)
	case *syntax.WhileClause:
		if cm.Until {
			p.b.WriteString("until ")
		} else {
			p.b.WriteString("while ")
		}
		p.inline(cm.Cond, ind)
		if !p.comsub && p.flushHdocs() {
			// bash prints the condition's here-documents before
			// " do", and the body's first separator has no ";"
			// (was_heredoc).
			p.noSemi = true
			p.b.WriteString(" do\n")
		} else {
			p.b.WriteString("; do\n")
		}
		p.body(cm.Do, ind)
		p.b.WriteString("done")
	case *syntax.ForClause:
		switch l := cm.Loop.(type) {
		case *syntax.WordIter:
			items := `"$@"`
			if l.InPos.IsValid() {
				items = p.words_(l.Items)
			}
			kw := "for "
			if cm.Select {
				kw = "select "
			}
			p.b.WriteString(kw + l.Name.Value + " in " + items + ";\n")
		case *syntax.CStyleLoop:
			p.b.WriteString("for ((" + p.forParts(l) + "))\n")
		}
		p.indent(ind)
		p.b.WriteString("do\n")
		p.body(cm.Do, ind)
		p.b.WriteString("done")
	case *syntax.CaseClause:
		p.b.WriteString("case " + p.text(cm.Word) + " in \n")
		for _, it := range cm.Items {
			p.indent(ind + 4)
			pats := make([]string, len(it.Patterns))
			for i, w := range it.Patterns {
				pats[i] = p.text(w)
			}
			p.b.WriteString(strings.Join(pats, " | ") + ")\n")
			p.list(it.Stmts, ind+8, false)
			p.b.WriteString("\n")
			p.indent(ind + 4)
			p.b.WriteString(it.Op.String() + "\n")
		}
		p.indent(ind)
		p.b.WriteString("esac")
	case *syntax.ArithmCmd:
		// bash keeps the text between the parentheses as written.
		l, r := int(cm.Left.Offset())+2, int(cm.Right.Offset())
		if p.src != "" && cm.Left.IsValid() && l <= r && r <= len(p.src) {
			p.b.WriteString("((" + (&lineConts{}).strip(p.src[l:r]) + "))")
			break
		}
		p.b.WriteString("(( " + p.arith(cm.X) + " ))")
	case *syntax.CoprocClause:
		name := "COPROC"
		if cm.Name != nil {
			name = p.text(cm.Name)
		}
		p.b.WriteString("coproc " + name + " ")
		p.stmt(cm.Stmt, ind)
	case *syntax.TestClause:
		p.b.WriteString("[[ " + p.testExpr(cm.X) + " ]]")
	case *syntax.LetClause:
		parts := []string{"let"}
		if cm.Dashes.IsValid() {
			parts = append(parts, "--")
		}
		for _, x := range cm.Exprs {
			parts = append(parts, p.arith(x))
		}
		p.b.WriteString(strings.Join(parts, " "))
	case *syntax.FuncDecl:
		p.function(cm.Name.Value, cm.Body, ind, true)
	case *syntax.TimeClause:
		p.b.WriteString("time")
		if cm.PosixFormat {
			p.b.WriteString(" -p")
		}
		if cm.Stmt != nil {
			p.b.WriteString(" ")
			p.stmt(cm.Stmt, ind)
		}
	default:
		p.b.WriteString(p.text(cm))
	}
}

// body writes the body of a loop or an if: each command with ";", then
// the indent of the closing word.
func (p *funcPrinter) body(stmts []*syntax.Stmt, ind int) {
	p.list(stmts, ind+4, true)
	p.b.WriteString("\n")
	p.indent(ind)
}

func (p *funcPrinter) ifClause(cm *syntax.IfClause, ind int) {
	p.b.WriteString("if ")
	p.inline(cm.Cond, ind)
	if !p.comsub && p.conn == 0 && p.flushHdocs() {
		// Not in a connection, bash prints the condition's
		// here-documents at once, before " then" (as a loop's).
		p.noSemi = true
		p.b.WriteString(" then\n")
	} else {
		p.b.WriteString("; then\n")
	}
	p.body(cm.Then, ind)
	if e := cm.Else; e != nil {
		p.b.WriteString("else\n")
		if len(e.Cond) > 0 { // elif: bash writes else, if … fi
			p.indent(ind + 4)
			p.ifClause(e, ind+4)
			p.b.WriteString(";\n")
			p.indent(ind)
		} else {
			p.body(e.Then, ind)
		}
	}
	p.b.WriteString("fi")
}

// arith is an arithmetic expression as written.
func (p *funcPrinter) arith(x syntax.ArithmExpr) string {
	if x == nil {
		return ""
	}
	return strings.TrimSpace(p.text(x))
}

// testExpr lays out a [[ ]] expression as bash does: on one line, a lone
// word as -n WORD, the words as written.
func (p *funcPrinter) testExpr(x syntax.TestExpr) string {
	switch x := x.(type) {
	case *syntax.Word:
		return "-n " + p.text(x)
	case *syntax.ParenTest:
		return "( " + p.testExpr(x.X) + " )"
	case *syntax.UnaryTest:
		if x.Op == syntax.TsNot {
			return "! " + p.testExpr(x.X)
		}
		return x.Op.String() + " " + p.text(x.X)
	case *syntax.BinaryTest:
		if x.Op == syntax.AndTest || x.Op == syntax.OrTest {
			return p.testExpr(x.X) + " " + x.Op.String() + " " + p.testExpr(x.Y)
		}
		return p.text(x.X) + " " + x.Op.String() + " " + p.text(x.Y)
	}
	return p.text(x)
}

// lineConts strips bash's line continuations from source text as its
// lexer does before bash prints a command: a backslash-newline outside
// single quotes goes (`echo a\<newline>b` prints as `echo ab`); one
// escaped by a backslash, or in single quotes, stays. Its state carries
// over the pieces of one node's text (withSubsts) (llmsh).
type lineConts struct{ single, double bool }

func (lc *lineConts) strip(s string) string {
	if !strings.Contains(s, "\\\n") {
		lc.scan(s)
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case lc.single:
			lc.single = c != '\''
		case c == '\\' && i+1 < len(s):
			if s[i+1] == '\n' {
				i++
				continue
			}
			b.WriteByte(c)
			i++
			c = s[i]
		case c == '"':
			lc.double = !lc.double
		case c == '\'' && !lc.double:
			lc.single = true
		}
		b.WriteByte(c)
	}
	return b.String()
}

// scan follows the quotes of s, which has no line continuation.
func (lc *lineConts) scan(s string) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case lc.single:
			lc.single = c != '\''
		case c == '\\':
			i++
		case c == '"':
			lc.double = !lc.double
		case c == '\'' && !lc.double:
			lc.single = true
		}
	}
}

// hdocLineConts is the body of a here-document whose delimiter is not
// quoted with its line continuations gone, as bash reads it; a
// backslash escaped by another stays with its newline (llmsh).
func hdocLineConts(body string) string {
	if !strings.Contains(body, "\\\n") {
		return body
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		if body[i] == '\\' && i+1 < len(body) {
			if body[i+1] == '\n' {
				i++
				continue
			}
			b.WriteByte(body[i])
			i++
		}
		b.WriteByte(body[i])
	}
	return b.String()
}
