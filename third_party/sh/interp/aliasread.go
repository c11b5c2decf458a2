// llmsh: aliases expanded as bash's reader expands them (LLMSH.md).

package interp

import (
	"context"
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
func (r *Runner) aliasedLine(stmts []*syntax.Stmt, i int) (text, read string, next int, ok bool) {
	src := r.text.src
	if len(r.alias) == 0 || !r.opts[optExpandAliases] || src == "" {
		return "", "", i + 1, false // (next is only meant when ok)
	}
	next = lineEnd(stmts, i)
	start := int(stmts[i].Pos().Offset())
	end := len(src)
	if next < len(stmts) {
		end = int(stmts[next].Pos().Offset())
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
	text, changed := r.expandAliasText(read)
	if !changed {
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
	r.setText(textPlace{lineOffset: saved.lineOffset + line0, src: text})
	defer r.setText(saved)
	return r.readStmts(ctx, file.Stmts, top, synErr, false)
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
func (r *Runner) expandAliasText(text string) (string, bool) {
	var spans []aliasSpan
	forced := map[int]bool{}
	pos, changed := 0, false
	next, nextName := -1, "" // the next alias word, found without a parse
	// The text is head followed by tail: head, up to the end of the last
	// value put in, does not change any more (every later expansion is
	// at or after pos), so an expansion copies no more than it adds.
	var head []byte
	tail := text
	for range maxAliasSteps {
		off, name := next, nextName
		if next < 0 {
			if len(head) > 0 {
				tail, head = string(head)+tail, head[:0]
			}
			file, err := syntax.NewParser().Parse(strings.NewReader(tail), "")
			if err != nil {
				break
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
func (r *Runner) AliasedLine(stmts []*syntax.Stmt, i int) (line []*syntax.Stmt, src string, next int, err error) {
	text, _, next, ok := r.aliasedLine(stmts, i)
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
