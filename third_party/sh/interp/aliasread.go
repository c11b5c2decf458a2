// llmsh: aliases expanded as bash's reader expands them (LLMSH.md).

package interp

import (
	"context"
	"errors"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// maxAliasSteps bounds the expansions made in one line read, against
// aliases that expand into ever more text.
const maxAliasSteps = 10000

// aliasSpan is text that came from the expansion of alias name: a word in
// it is not expanded as that alias again.
type aliasSpan struct {
	start, end int
	name       string
}

// aliasedLine returns the statements of the line that starts at stmts[i],
// with their aliases expanded, as bash reads the line: bash expands aliases
// in a command word when it reads it, with the aliases defined when the
// line is read (not those a command of the line defines, which apply from
// the next line on; `unalias x; x` still expands x). next is the index of
// the first statement of the next line; ok is false when no alias applies
// (then stmts[i:next] run as they are). text is the line's text expanded,
// read the text as read; both start at the line of stmts[i].
func (r *Runner) aliasedLine(ctx context.Context, stmts []*syntax.Stmt, i int) (text, read string, next int, ok bool) {
	src := r.text.src
	if len(r.alias) == 0 || !r.opts[optExpandAliases] || src == "" {
		return "", "", i + 1, false // (next is only meant when ok)
	}
	next = lineEnd(stmts, i)
	start := int(stmts[i].Pos().Offset())
	end := len(src)
	if next < len(stmts) {
		end = int(stmts[next].Pos().Offset())
	} else if e := stmtTextEnd(src, stmts[next-1]); e < len(src) {
		// The statements may be the start of src (the lines before
		// a syntax error): the line ends with the last one's text.
		if k := strings.IndexByte(src[e:], '\n'); k >= 0 {
			end = e + k + 1
		}
	}
	if start > end || end > len(src) || !strings.HasPrefix(src[start:], firstWordText(stmts[i], src)) {
		return "", "", next, false // not the text the statements came from
	}
	if next < len(stmts) {
		end = strings.LastIndexByte(src[:end], '\n') + 1
	}
	start = strings.LastIndexByte(src[:start], '\n') + 1
	read = src[start:end]
	named := false
	for name := range r.alias {
		if strings.Contains(read, name) {
			named = true
			break
		}
	}
	if !named {
		return "", "", next, false
	}
	text, changed := r.expandAliasText(ctx, read)
	if !changed || ctx.Err() != nil {
		return "", "", next, false
	}
	return text, read, next, true
}

// runAliasedLine parses and runs the text of a line whose aliases were
// expanded (aliasedLine), as readLines runs a line; stopped as readStmts.
// A syntax error quotes the line as read, as bash's does.
func (r *Runner) runAliasedLine(ctx context.Context, text, read string, line0 int, top bool, synErr func(line int, msgs []string)) (stopped bool) {
	file, err := r.parseText(text, "")
	if err != nil {
		if perr, ok := err.(syntax.ParseError); ok {
			line, msgs := SyntaxError(perr, text)
			if n := len(msgs) - 1; n > 0 && msgs[n] == "`"+lineText(text, line)+"'" {
				msgs[n] = "`" + lineText(read, line) + "'"
			}
			synErr(line0+line, msgs)
		} else {
			r.errf("%s%v\n", r.errPrefix(), err)
		}
		r.exit = exitStatus{code: 2, exiting: top}
		r.lastExit = r.exit
		return true
	}
	// The text's lines count from the line's own (as eval's do).
	saved := r.text
	r.setText(textPlace{lineOffset: saved.lineOffset + line0, src: text, locale: saved.locale})
	defer r.setText(saved)
	return r.readStmts(ctx, file.Stmts, top, synErr, false)
}

// aliasedSubst is the commands of the command substitution cs with the
// aliases defined now expanded in its text, as bash 5.2 reads a $( ) or
// backquotes again when it runs them (the line that holds them expands
// none inside: nextAliasWord), so an alias defined on the same line or
// after a function that holds one applies; nil when none applies. The
// runner, the substitution's, takes the text as its own.
func (r *Runner) aliasedSubst(ctx context.Context, cs *syntax.CmdSubst) []*syntax.Stmt {
	return r.aliasedText(ctx, cs.Left, cs.Right, cs.Backquotes)
}

// aliasedText is aliasedSubst for the substitution from left (its $(,
// <(, >( or backquote) to right (its last character).
func (r *Runner) aliasedText(ctx context.Context, left, right syntax.Pos, backquotes bool) []*syntax.Stmt {
	if len(r.alias) == 0 || !r.opts[optExpandAliases] {
		return nil
	}
	src := r.text.src
	from, to := int(left.Offset()), int(right.Offset())
	if !left.IsValid() || !right.IsValid() || from >= to || to >= len(src) {
		return nil
	}
	var text string
	switch {
	case backquotes && src[from] == '`' && src[to] == '`':
		text = unescapeBackquoted(src[from+1 : to])
	case !backquotes && (strings.HasPrefix(src[from:], "$(") || strings.HasPrefix(src[from:], "<(") || strings.HasPrefix(src[from:], ">(")) && src[to] == ')':
		text = src[from+2 : to]
	default:
		return nil
	}
	named := false
	for name := range r.alias {
		if strings.Contains(text, name) {
			named = true
			break
		}
	}
	if !named {
		return nil
	}
	expanded, changed := r.expandAliasText(ctx, text)
	if !changed {
		return nil
	}
	file, err := r.parseText(expanded, "")
	if err != nil || len(file.Stmts) == 0 {
		return nil
	}
	r.substLines = nil
	r.setText(textPlace{lineOffset: r.text.lineOffset + int(left.Line()) - 1, src: expanded, locale: r.text.locale})
	return file.Stmts
}

// firstWordText is the start of a statement's text, to check that src
// holds it where its position says.
func firstWordText(st *syntax.Stmt, src string) string {
	off, end := int(st.Pos().Offset()), int(st.End().Offset())
	if end > len(src) || off > end {
		return "\x00" // matches nothing
	}
	return src[off:min(end, off+1)]
}

// expandAliasText expands the aliases of the command words of text: the
// first word of each simple command (after its assignments), a reserved
// word in its place (`alias for=…`), the first word of a replacement
// unless it names an alias being expanded, and the word after a value that
// ends in a blank. The text is parsed again after each expansion, so a
// replacement that is more than words (`a; b`, `{`, `x |`) joins the rest
// of the line as bash reads it. A text that does not parse is left there:
// its error is reported when it is run.
func (r *Runner) expandAliasText(ctx context.Context, text string) (string, bool) {
	var spans []aliasSpan
	forced := map[int]bool{}
	pos, changed := 0, false
	next, nextName := -1, "" // the next alias word, found without a parse
	// The text is head followed by tail: head, up to the end of the last
	// value put in, does not change any more (every later expansion is
	// at or after pos), so an expansion copies no more than it adds.
	var head []byte
	tail := text
	lenient := maxLenientParses
	for range maxAliasSteps {
		if ctx.Err() != nil {
			break // the run is stopped (a limit): it runs nothing more
		}
		off, name := next, nextName
		if next < 0 {
			if len(head) > 0 {
				tail, head = string(head)+tail, head[:0]
			}
			file, strict, ok := aliasParse(tail)
			if !ok || !strict && lenient == 0 {
				break
			}
			if !strict {
				lenient--
			}
			var found bool
			if off, name, found = r.nextAliasWord(file, tail, pos, spans, forced); !found {
				break
			}
		}
		next = -1
		als := r.alias[name]
		h := len(head)
		head = append(append(head, tail[:off-h]...), als.value...)
		tail = tail[off-h+len(name):]
		if r.llmsh.maxText > 0 && len(head)+len(tail) > r.llmsh.maxText {
			break // the caller's parse reports the limit
		}
		delta := len(als.value) - len(name)
		kept := spans[:0] // a span that ends before off holds no word to come
		for _, sp := range spans {
			if sp.end <= off {
				continue
			}
			if sp.start > off {
				sp.start += delta
			}
			sp.end += delta
			kept = append(kept, sp)
		}
		spans = kept
		moved := map[int]bool{}
		for o := range forced {
			if o > off {
				moved[o+delta] = true
			}
		}
		if forced[off] {
			// bash: a word checked because of a value ending in a
			// blank has the first word of its own value checked too
			// (alias e2='echo ' sp='e2 e2 ': e2 sp e is echo echo
			// echo e).
			k := 0
			for k < len(als.value) && (als.value[k] == ' ' || als.value[k] == '\t') {
				k++
			}
			moved[off+k] = true
		}
		forced = moved
		valEnd := off + len(als.value)
		spans = append(spans, aliasSpan{start: off, end: valEnd, name: name})
		if als.blank {
			k := 0
			for k < len(tail) && (tail[k] == ' ' || tail[k] == '\t') {
				k++
			}
			if !r.chainReaches(spans, off, valEnd+k) {
				pos, changed = off, true
				continue
			}
			forced[valEnd+k] = true
			if r.plainAliasValue(name, als.value) {
				next, nextName = r.plainAliasWordAt(tail, k, valEnd, spans)
			}
		}
		pos, changed = off, true
	}
	if len(head) > 0 {
		tail = string(head) + tail
	}
	return tail, changed
}

// A value of plain words (aliasPlainByte) put in place of a word leaves the
// parse of the text around it as it was, with only arguments added: the
// next alias word is then the word after it, when that is a plain word
// naming an alias (what nextAliasWord would find first), without parsing
// the text again. A line of words that aliases ending in a blank expand
// one after another (`alias a='a '`, `a a a …`) was parsed again for each
// word: quadratic in the line's length.

// aliasPlainByte says whether c may be in a plain word: one that is the
// same literal word wherever it stands in a simple command's arguments.
func aliasPlainByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("_./:,+@%-", c) >= 0
}

// plainAliasValue says whether value, alias name's, is plain words and
// blanks whose first word, in a command's place, is a command word and no
// alias but name itself (not expanded in its own value): replacing a word
// by it changes no parse.
func (r *Runner) plainAliasValue(name, value string) bool {
	first := strings.TrimLeft(value, " \t")
	if end := strings.IndexAny(first, " \t"); end >= 0 {
		first = first[:end]
	}
	if first == "" {
		return false
	}
	for i := 0; i < len(value); i++ {
		if c := value[i]; c != ' ' && c != '\t' && !aliasPlainByte(c) {
			return false
		}
	}
	switch first {
	case "if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do", "done",
		"function", "time", "coproc", "in", "let", "declare", "local", "export", "readonly", "typeset", "nameref":
		return false
	}
	_, isAlias := r.alias[first]
	return !isAlias || first == name
}

// plainAliasWordAt returns base+k and the word at k of text (which is at
// base in the line) when it is a plain word naming an alias, not within an
// expansion of itself; -1 otherwise.
func (r *Runner) plainAliasWordAt(text string, k, base int, spans []aliasSpan) (int, string) {
	end := k
	for end < len(text) && aliasPlainByte(text[end]) {
		end++
	}
	if end == k || end < len(text) && strings.IndexByte(" \t\n;&|", text[end]) < 0 {
		return -1, ""
	}
	word := text[k:end]
	if _, ok := r.alias[word]; !ok {
		return -1, ""
	}
	for _, sp := range spans {
		if sp.name == word && base+k >= sp.start && base+k < sp.end {
			return -1, ""
		}
	}
	return base + k, word
}

// nextAliasWord finds the first word at or after offset pos of the parsed
// text that bash would expand as an alias.
func (r *Runner) nextAliasWord(file *syntax.File, text string, pos int, spans []aliasSpan, forced map[int]bool) (off int, name string, found bool) {
	off = -1
	consider := func(o int, word string) {
		if o < pos || (off >= 0 && o >= off) || word == "" {
			return
		}
		if o+len(word) > len(text) || text[o:o+len(word)] != word {
			return // not the word as written (quoted, escaped)
		}
		if o+len(word) < len(text) && !strings.ContainsRune(" \t\n;&|()<>", rune(text[o+len(word)])) {
			return
		}
		if _, ok := r.alias[word]; !ok {
			return
		}
		for _, sp := range spans {
			if sp.name == word && o >= sp.start && o < sp.end {
				return // within its own expansion
			}
		}
		off, name = o, word
	}
	syntax.Walk(file, func(node syntax.Node) bool {
		switch node.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false // expanded when it runs (aliasedSubst)
		}
		st, ok := node.(*syntax.Stmt)
		if !ok || st.Cmd == nil {
			return true
		}
		at := int(st.Cmd.Pos().Offset())
		switch cm := st.Cmd.(type) {
		case *syntax.CallExpr:
			for k, w := range cm.Args {
				if k == 0 || forced[int(w.Pos().Offset())] {
					consider(int(w.Pos().Offset()), w.Lit())
					if k > 0 && k+1 < len(cm.Args) && quotedWord(w) && r.chainReaches(spans, int(w.Pos().Offset()), int(cm.Args[k+1].Pos().Offset())) {
						// bash: a quoted word is not expanded
						// and leaves the next one to check.
						forced[int(cm.Args[k+1].Pos().Offset())] = true
					}
				}
			}
		case *syntax.IfClause:
			consider(at, "if")
		case *syntax.WhileClause:
			if cm.Until {
				consider(at, "until")
			} else {
				consider(at, "while")
			}
		case *syntax.ForClause:
			if cm.Select {
				consider(at, "select")
			} else {
				consider(at, "for")
			}
		case *syntax.CaseClause:
			consider(at, "case")
		case *syntax.Block:
			consider(at, "{")
		case *syntax.TestClause:
			consider(at, "[[")
		case *syntax.TimeClause:
			consider(at, "time")
		case *syntax.CoprocClause:
			consider(at, "coproc")
		case *syntax.LetClause:
			consider(at, "let")
		case *syntax.DeclClause:
			consider(int(cm.Variant.Pos().Offset()), cm.Variant.Value)
		case *syntax.FuncDecl:
			if cm.RsrvWord {
				consider(at, "function")
			} else {
				consider(int(cm.Name.Pos().Offset()), cm.Name.Value)
			}
		}
		return true
	})
	return off, name, off >= 0
}

// AliasedLine returns the statements of the line of stmts (parsed from the
// text given to SetSource) that starts at stmts[i], as bash reads that line
// at its prompt: with the aliases defined by then expanded in its command
// words. src is the text they were parsed from (the caller gives it to
// SetSource while they run); next is the index in stmts of the next line.
// An expansion that makes the line a syntax error returns the parser's
// error on src.
func (r *Runner) AliasedLine(ctx context.Context, stmts []*syntax.Stmt, i int) (line []*syntax.Stmt, src string, next int, err error) {
	text, _, next, ok := r.aliasedLine(ctx, stmts, i)
	if !ok {
		next = lineEnd(stmts, i)
		return stmts[i:next], r.text.src, next, nil
	}
	// A prompt's chunk is short: its lines before this one are padding.
	text = strings.Repeat("\n", int(stmts[i].Pos().Line())-1) + text
	file, err := r.parseText(text, "")
	if err != nil {
		return nil, text, next, err
	}
	return file.Stmts, text, next, nil
}

// lineEnd is the index of the first statement after the line that starts
// at stmts[i] (the statements that start where the one before ends).
func lineEnd(stmts []*syntax.Stmt, i int) int {
	next := i + 1
	for next < len(stmts) && stmts[next].Pos().Line() <= stmts[next-1].End().Line() {
		next++
	}
	return next
}

// quotedWord reports whether w has quotes or an escape in it: bash does
// not expand it as an alias, and after a value ending in a blank it
// checks the next word instead.
func quotedWord(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if strings.ContainsRune(p.Value, '\\') {
				return true
			}
		}
	}
	return false
}

// chainReaches reports whether the check of the word after a value ending
// in a blank goes on from the word at from to the word at to: not past
// the end of an alias's value that holds from unless that value ends in a
// blank too, as bash stops at the end of each alias's text (alias h='e w'
// with w='word ': in h v, v is not checked).
func (r *Runner) chainReaches(spans []aliasSpan, from, to int) bool {
	for _, sp := range spans {
		if sp.start <= from && from < sp.end && to >= sp.end && !r.alias[sp.name].blank {
			return false
		}
	}
	return true
}

// aliasRecover is how many missing tokens aliasParse lets the parser
// recover (syntax.RecoverErrors).
const aliasRecover = 8

// maxLenientParses bounds the expansions of one text made in text that
// does not parse (aliasParse): they cost more parses each, and aliases
// whose values open ever more commands (`alias o='{ '`, `o o o …`) would
// make as many as the line has words.
const maxLenientParses = 16

// aliasParse parses text to find its command words (nextAliasWord). A
// text that does not parse may be lines that only the expansion of an
// alias in them completes (`br; }` with alias br='{ echo in'), as bash
// expands each word as it reads it: then what parses of it is used, the
// text with the closing tokens it lacks recovered, or the text before
// the error; strict is false.
func aliasParse(text string) (file *syntax.File, strict, ok bool) {
	file, err := syntax.NewParser().Parse(strings.NewReader(text), "")
	if err == nil {
		return file, true, true
	}
	lenient := syntax.NewParser(syntax.RecoverErrors(aliasRecover))
	if file, rerr := lenient.Parse(strings.NewReader(text), ""); rerr == nil {
		return file, false, true
	}
	var perr syntax.ParseError
	if !errors.As(err, &perr) {
		return nil, false, false
	}
	off := int(perr.Pos.Offset())
	if off <= 0 || off >= len(text) {
		return nil, false, false
	}
	file, err = lenient.Parse(strings.NewReader(text[:off]), "")
	return file, false, err == nil
}

// maxRereadLines bounds how many lines past a syntax error aliasReread
// reads on while an alias's expansion leaves a command open: each line
// more parses the lines read again.
const maxRereadLines = 256

// aliasReread reads the lines of src from offset start (a line's start)
// with the aliases defined now, as bash reads them: a line at a time,
// an alias expanded as its word is read, so that an alias may open a
// compound command or a quote that later lines close (alias br='{ echo
// in', then `br; }`, or `br` and `}` lines later), which a parse of the
// whole text made before any alias was defined cannot see. Lines are
// read one more at a time until, their aliases expanded, they make whole
// commands, or make a syntax error other than an open command, or reach
// the end of src. text is those lines expanded and read the lines as
// written; line0 is the number of lines before them and end the offset in
// src after them; whole says that text parses. ok is false when no alias
// was expanded in the lines up to line errLine (where the parse failed).
func (r *Runner) aliasReread(ctx context.Context, src string, start, errLine int) (text, read string, line0, end int, whole, ok bool) {
	if len(r.alias) == 0 || !r.opts[optExpandAliases] || start >= len(src) {
		return "", "", 0, 0, false, false
	}
	line0 = strings.Count(src[:start], "\n")
	for end, line := start, line0+1; end < len(src) && line <= errLine+maxRereadLines; line++ {
		if i := strings.IndexByte(src[end:], '\n'); i >= 0 {
			end += i + 1
		} else {
			end = len(src)
		}
		read = src[start:end]
		var changed bool
		text, changed = r.expandAliasText(ctx, read)
		if ctx.Err() != nil {
			break
		}
		if !changed {
			if line >= errLine {
				break // no alias up to the error: it stands
			}
			continue
		}
		_, err := syntax.NewParser().Parse(strings.NewReader(text), "")
		if err == nil || !syntax.IsIncomplete(err) || end == len(src) {
			return text, read, line0, end, err == nil, true
		}
	}
	return "", "", 0, 0, false, false
}

// restText is the text of src from offset end on, the lines before it
// kept empty so that its lines keep their numbers.
func restText(src string, end int) string {
	return strings.Repeat("\n", strings.Count(src[:end], "\n")) + src[end:]
}

// readOnAlias runs the line that starts at stmts[i], whose aliases,
// expanded (text), open a command that the lines after it close: those
// lines are read with it (aliasReread) and run. done reports that it ran
// them: next is then the index of the statement to go on with, or
// len(stmts) when the lines read reach past the statements (the text
// after them is the caller's to read on: Runner.ReadOn); stopped is as
// readStmts's.
func (r *Runner) readOnAlias(ctx context.Context, stmts []*syntax.Stmt, i int, text string, top bool, synErr func(line int, msgs []string)) (next int, done, stopped bool) {
	if _, err := syntax.NewParser().Parse(strings.NewReader(text), ""); err == nil || !syntax.IsIncomplete(err) {
		return 0, false, false
	}
	src := r.text.src
	off := int(stmts[i].Pos().Offset())
	start := strings.LastIndexByte(src[:off], '\n') + 1
	ctext, read, line0, end, _, ok := r.aliasReread(ctx, src, start, int(stmts[i].Pos().Line()))
	if !ok {
		return 0, false, false
	}
	if top {
		r.aliasEnd = max(r.aliasEnd, end)
	}
	if r.runAliasedLine(ctx, ctext, read, line0, top, synErr) {
		return 0, true, true
	}
	next = i
	for next < len(stmts) && int(stmts[next].Pos().Offset()) < end {
		next++
	}
	if next < len(stmts) && int(stmts[next-1].End().Offset()) > end || next == len(stmts) && moreText(src[end:]) {
		// The statements parsed without the alias do not start where
		// the lines read end: the caller reads on from there.
		r.readOn, r.readTo = true, end
		return len(stmts), true, true
	}
	return next, true, false
}

// AliasIncomplete reports whether src, lines typed at a prompt, ends
// inside a command once the aliases defined now are expanded in it, as
// bash reads them (alias br='{ echo in', then a line `br`): bash's prompt
// then reads on (PS2) until the command is closed. expanded is false when
// no alias applies (src's own text decides).
func (r *Runner) AliasIncomplete(ctx context.Context, src string) (incomplete, expanded bool) {
	if len(r.alias) == 0 || !r.opts[optExpandAliases] {
		return false, false
	}
	text, changed := r.expandAliasText(ctx, src)
	if !changed || ctx.Err() != nil {
		return false, false
	}
	file, err := syntax.NewParser().Parse(strings.NewReader(text), "")
	if err != nil {
		return syntax.IsIncomplete(err), true
	}
	return len(file.UnclosedHdocs) > 0, true
}

// moreText reports whether text holds more than blanks and comments.
func moreText(text string) bool {
	for _, line := range strings.Split(text, "\n") {
		if line = strings.TrimSpace(line); line != "" && line[0] != '#' {
			return true
		}
	}
	return false
}

// ReadOn reports where the last Run stopped reading its text (given to
// SetSource) before its end, and the text from there, its lines before
// kept empty: an alias opened a command that lines after those of the
// statements closed (`br` with alias br='{ echo in', then `}` lines
// later), so that the statements parsed before any alias was defined
// end in the middle of what bash reads. The caller parses and runs the
// rest.
func (r *Runner) ReadOn() (rest string, ok bool) {
	if !r.readOn {
		return "", false
	}
	r.readOn = false
	return restText(r.text.src, r.readTo), true
}

// AliasRead is the command of a script that failed to parse, read again
// with its aliases expanded (Runner.AliasReread).
type AliasRead struct {
	// File is Text parsed; Run runs it as read: its aliases are
	// expanded already.
	File *syntax.File
	// Text is the command's lines with their aliases expanded, after as
	// many empty lines as come before it in the script.
	Text string
	// Rest is the script's text after the command, its lines before
	// kept empty.
	Rest string
}

// AliasReread reads again, with the aliases defined now, the command of
// src (a script whose parse failed at line errLine) that starts at
// offset start, once the lines before it have run (CompleteLines): bash
// reads a line at a time and expands aliases as it reads, so an alias
// may open a compound command or a quote that later text closes. ok is
// false when no alias makes a command of the text: its syntax error
// stands. The caller runs File, then Rest.
func (r *Runner) AliasReread(ctx context.Context, src string, start, errLine int, name string) (read AliasRead, ok bool) {
	text, _, line0, end, whole, ok := r.aliasReread(ctx, src, start, errLine)
	if !ok || !whole {
		return read, false
	}
	text = strings.Repeat("\n", line0) + text
	file, err := r.parseText(text, name)
	if err != nil {
		return read, false
	}
	r.readFile = file
	return AliasRead{File: file, Text: text, Rest: restText(src, end)}, true
}

// AliasReadEnd is the offset in the text of the last Run of a file (given
// to SetSource) where the lines end that an alias made it read past its
// statements (alias br='{ echo in', then `br` and `}`), 0 when none: text
// that failed to parse there was read by the alias (llmsh).
func (r *Runner) AliasReadEnd() int { return r.aliasEnd }

// ReadingOn reports that the last Run stopped before the end of its text
// for its caller to read on (ReadOn), which has not yet done so: the
// script has not ended.
func (r *Runner) ReadingOn() bool { return r.readOn }

// evalRest runs, as eval, the text of src (eval's string) from offset end
// on, when an alias made a command of lines past its statements; node
// and outer are the eval command and the text it is in, which number
// the lines of its string.
func (r *Runner) evalRest(ctx context.Context, pos syntax.Pos, src string, end int, node syntax.Node, outer textPlace) exitStatus {
	rest := restText(src, end)
	if strings.TrimSpace(rest) == "" {
		return r.exit
	}
	r.node = node
	r.setText(outer)
	return r.builtin(ctx, pos, "eval", []string{rest})
}

// readLinesOn is readLines for a text that is read to its end (a trap's
// action): when an alias made a command of lines past the statements, the
// rest of the text is parsed and read on. aliases is false for statements
// whose aliases were expanded as they were read (aliasReread).
func (r *Runner) readLinesOn(ctx context.Context, stmts []*syntax.Stmt, aliases bool, synErr func(line int, msgs []string)) {
	r.readStmts(ctx, stmts, false, synErr, aliases)
	for r.readOn {
		r.readOn = false
		if r.exit.exiting || r.exit.returning {
			return
		}
		rest := restText(r.text.src, r.readTo)
		file, err := r.parseText(rest, "")
		if err != nil {
			if perr, ok := err.(syntax.ParseError); ok {
				synErr(SyntaxError(perr, rest))
			}
			r.exit = exitStatus{code: 2}
			return
		}
		r.setText(textPlace{lineOffset: r.text.lineOffset, src: rest, locale: r.text.locale})
		r.readLines(ctx, file.Stmts, false, synErr)
	}
}
