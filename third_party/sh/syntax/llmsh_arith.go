package syntax

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
)

// llmsh: bash parses the text of $(( … )) only when it expands it, after
// the expansions in it have run: `op=+; echo $((6 $op 7))` is 13, and
// `echo before; echo $(( 1 + ))` prints before, then fails when the
// second command runs. The upstream parser checks such text with the
// rest of the script and refuses both. parseArithRepair parses the
// source; on an error inside a $(( … )), it replaces the text of that
// expansion with a name of the same length (so that every other offset
// stays), parses again, and gives the ArithmExp the original text as a
// word (Raw), which the expander expands and evaluates at run time. The
// (( … )) command is repaired the same way (bash: `(( m[a b] = 1 ))`).

// readSource reads all of r: a strings.Reader (a command's text, a line
// of a script read a command at a time) into a slice of its size, not
// io.ReadAll's 512 bytes and up.
func readSource(r io.Reader) ([]byte, error) {
	if sr, ok := r.(*strings.Reader); ok {
		src := make([]byte, sr.Len())
		_, err := io.ReadFull(sr, src)
		return src, err
	}
	return io.ReadAll(r)
}

// maxArithRepairs bounds the repairs of one source.
const maxArithRepairs = 32

func (p *Parser) parseArithRepair(r io.Reader, name string) (*File, error) {
	src, err := readSource(r)
	if err != nil {
		return nil, err
	}
	defer func() { p.dollParenSub, p.fullSrc = nil, nil }()
	p.fullSrc = src
	f, err := p.parse(bytes.NewReader(src), name)
	if err == nil {
		return f, rawBadArith(f, src)
	}
	first := f
	firstErr := err
	if subs := dblParenComsubs(src); subs != nil {
		// `$((echo hi) )`: bash reads a command substitution where
		// the text is no arithmetic. Kept when that parses, or gets
		// as far as the first error (then repaired as below).
		p.dollParenSub = subs
		f2, err2 := p.parse(bytes.NewReader(src), name)
		if err2 == nil {
			return f2, rawBadArith(f2, src)
		}
		if at := unclosedSub(src, subs, errOffset(err2)); at >= 0 {
			// llmsh: `$(( 1 + (2 ))`: bash's parse_matched_pair
			// meets the end of the text before it reads the commands
			// of that "$(": its error is the unexpected EOF, read as
			// such from the text blanked after the "$(".
			blanked := slices.Concat(src[:at+2], []byte(blankText(string(src[at+2:]))))
			if f3, err3 := p.parse(bytes.NewReader(blanked), name); err3 != nil {
				f2, err2 = f3, err3
			}
		}
		if errOffset(err2) >= errOffset(err) {
			// Its error, if no repair mends it, is bash's: `$(( (1 +
			// 2 ))` is an unclosed "$(" (bash: unexpected EOF).
			f, err = f2, err2
			first, firstErr = f2, err2
		} else {
			p.dollParenSub = nil
		}
	}
	patched := string(src)
	var spans [][3]int
	bquotes := map[int]bool{} // spans that are a backquoted substitution's text
	dollars := map[int]bool{} // those that are a here-document's $( … ) (llmsh_hdoc.go)
	for range maxArithRepairs {
		var pos Pos
		var perr ParseError
		var lerr LangError
		switch {
		case errors.As(err, &perr) && perr.Quiet:
			return f, err // bash's parser gave up: no repair
		case errors.As(err, &perr):
			pos = perr.Pos
		case errors.As(err, &lerr): // $(( 1.5 )): zsh's, bash's error when it runs
			pos = lerr.Pos
		default:
			return first, err
		}
		// llmsh_hdoc.go: a here-document's $( left open is no other span.
		hd, hlast, past, hok := hdocSubstSpan(patched, perr)
		openHdoc := hok && past
		var from, to int
		ok := openHdoc
		if !ok {
			from, to, ok = forSpan(patched, int(pos.Offset()))
		}
		if !ok {
			from, to, ok = arithSpan(patched, int(pos.Offset()))
		}
		if !ok {
			from, to, ok = subscriptSpan(patched, int(pos.Offset()))
		}
		if !ok {
			from, to, ok = sliceSpan(patched, int(pos.Offset()))
		}
		if !ok {
			from, to, ok = letSpan(patched, int(pos.Offset()))
		}
		if !ok {
			from, to, ok = oldArithSpan(patched, int(pos.Offset()))
		}
		bquote := false
		if !ok {
			from, to, ok = bquoteSpan(patched, int(pos.Offset()))
			bquote = ok
			if ok && hok && from-1 < hd {
				// backquotes around the here-document's $( are
				// none of its own (another repair's, say)
				ok, bquote = false, false
			}
		}
		if openHdoc {
			ok = false
		}
		if d, last := hd, hlast; !ok && hok {
			// llmsh_hdoc.go: the $( … ) of a here-document, made an
			// empty backquoted substitution.
			patched = patched[:d] + "`" + blankText(patched[d+1:last-1]) + "`" + patched[last:]
			dollars[len(spans)] = true
			from, to, ok, bquote = d+1, last-1, true, true
		}
		if !ok {
			// An error no repair mends: the script's own, past the
			// repaired ones (which bash reports when they run).
			return first, err
		}
		if n := len(spans); n > 1 && spans[n-1][0] == from && spans[n-1][1] == to {
			// llmsh: the same span again, its repair changed nothing
			// (the (( of [[ x -eq y-=((1)) ]] is no expression): the
			// error is the script's, past the ones mended before it.
			return first, err
		}
		if bquote {
			// llmsh: bash parses a backquoted substitution's text
			// when it runs: blanked here (its newlines kept), the
			// CmdSubst gets the text back as Bad below.
			if !dollars[len(spans)] {
				patched = patched[:from] + blankText(patched[from:to]) + patched[to:]
			}
			bquotes[len(spans)] = true
			spans = append(spans, [3]int{from, to, from})
			p.fullSrc = []byte(patched)
			if f, err = p.parse(strings.NewReader(patched), name); err == nil {
				break
			}
			continue
		}
		text := from // llmsh: the expression's text, its leading blanks too
		for strings.Contains(patched[from:to], "\n") && strings.IndexByte(" \t\n", patched[from]) >= 0 {
			from++ // the name starts where the expression does
		}
		patched = patched[:from] + blankSpan(patched[from:to]) + patched[to:]
		spans = append(spans, [3]int{from, to, text})
		p.fullSrc = []byte(patched)
		f, err = p.parse(strings.NewReader(patched), name)
		if err == nil {
			break
		}
	}
	if err != nil {
		return first, firstErr
	}
	var werr error
	restored := 0 // every span must be found again, else the repair was wrong
	Walk(f, func(n Node) bool {
		if werr != nil {
			return false
		}
		if cs, ok := n.(*CmdSubst); ok && cs.Backquotes {
			for i, sp := range spans {
				if bquotes[i] && int(cs.Left.Offset())+1 == sp[0] && int(cs.Right.Offset()) == sp[1] {
					cs.Bad = string(src[sp[0]:sp[1]])
					if dollars[i] {
						// The text after the $(, to the body's end.
						cs.Bad, cs.Backquotes = string(src[sp[0]+1:min(sp[1]+2, len(src))]), false
					}
					restored++
				}
			}
			return true
		}
		var xs []*ArithmExpr
		var raw *bool
		switch n := n.(type) {
		case *ArithmExp:
			xs, raw = []*ArithmExpr{&n.X}, &n.Raw
		case *ArithmCmd:
			xs, raw = []*ArithmExpr{&n.X}, &n.Raw
		case *ParamExp:
			xs, raw = []*ArithmExpr{&n.Index}, new(bool)
			if n.Slice != nil { // llmsh: ${x:1 +}
				xs = append(xs, &n.Slice.Offset, &n.Slice.Length)
			}
		case *Assign:
			xs, raw = []*ArithmExpr{&n.Index}, new(bool)
		case *ArrayElem:
			xs, raw = []*ArithmExpr{&n.Index}, new(bool)
		case *LetClause: // let x = 1: "=" fails when let runs
			raw = new(bool)
			for i := range n.Exprs {
				xs = append(xs, &n.Exprs[i])
			}
		case *CStyleLoop: // llmsh: for ((i=0 x; …)) fails when it runs
			xs, raw = []*ArithmExpr{&n.Init, &n.Cond, &n.Post}, new(bool)
		default:
			return true
		}
		for _, x := range xs {
			w, ok := (*x).(*Word)
			if !ok {
				continue
			}
			for _, sp := range spans {
				if int(w.Pos().Offset()) != sp[0] {
					continue
				}
				restored++
				if _, ok := n.(*LetClause); ok {
					// letSpan's words are plain text: kept with
					// their place, for declare -f.
					*x = &Word{Parts: []WordPart{&Lit{ValuePos: w.Pos(), ValueEnd: w.End(), Value: string(src[sp[2]:sp[1]])}}}
					continue
				}
				doc, err := NewParser().Document(strings.NewReader(string(src[sp[2]:sp[1]])))
				if err != nil {
					werr = err
					return false
				}
				*x, *raw = doc, true
			}
		}
		return true
	})
	if werr != nil || restored != len(spans) {
		return first, firstErr
	}
	return f, rawBadArith(f, []byte(patched))
}

// rawBadArith makes Raw each $(( … )) of f that holds a malformed ${…}
// (ParamExp.Bad): bash names the whole text of the expansion as written
// in its error (` ${x y} + 1 : bad substitution`), which the expander
// then does as for any Raw text. src is f's source.
func rawBadArith(f *File, src []byte) error {
	if !bytes.Contains(src, []byte("$((")) || !bytes.Contains(src, []byte("${")) {
		return nil
	}
	var werr error
	Walk(f, func(n Node) bool {
		ae, ok := n.(*ArithmExp)
		if !ok || ae.Raw || ae.Bracket || werr != nil {
			return werr == nil
		}
		bad := false
		Walk(ae.X, func(n Node) bool {
			if pe, ok := n.(*ParamExp); ok && pe.Bad != "" {
				bad = true
			}
			return !bad
		})
		from, to := int(ae.Left.Offset())+3, int(ae.Right.Offset())
		if !bad || from > to || to > len(src) || !bytes.HasPrefix(src[from-3:], []byte("$((")) {
			return true
		}
		doc, err := NewParser().Document(bytes.NewReader(src[from:to]))
		if err != nil {
			werr = err
			return false
		}
		ae.X, ae.Raw = doc, true
		return false
	})
	return werr
}

// subscriptSpan finds the text between the [ and ] of a subscript
// (a[…], ${a[…]}, ([…]=v)) that hold offset off of src: bash reads a
// subscript as text and evaluates it when it runs (a=([1 +]=x) and
// ${a[: b]} are arithmetic errors then, status 1). The repaired
// subscript is a word of its text, as arithmRest makes.
func subscriptSpan(src string, off int) (from, to int, ok bool) {
	if off >= len(src) {
		off = len(src) - 1
	}
	if off < 0 {
		return 0, 0, false
	}
	start := openBracketBefore(src, off)
	if strings.HasPrefix(src[off:], "${") {
		// llmsh: ${a[(1]}: the subscript's "(" made the parser read
		// to the end of the text, and the error names the "${".
		i := off + 2
		if i < len(src) && (src[i] == '#' || src[i] == '!') {
			i++ // ${#a[(1]}, ${!a[(1]}
		}
		name := i
		for i < len(src) && isNameByte(src[i]) {
			i++
		}
		if i > name && i < len(src) && src[i] == '[' {
			start = i
		}
	}
	if start < 1 || start <= off && strings.IndexByte(src[start:off+1], '\n') >= 0 {
		return 0, 0, false
	}
	if c := src[start-1]; c != '(' && c != ' ' && c != '\t' && !isNameByte(c) {
		return 0, 0, false
	}
	from = start + 1
	depth := 0 // ${a[1 *= a[1]]}: a subscript in it, as bash skips it
	for i := from; i < len(src); i++ {
		switch src[i] {
		case ']':
			if depth > 0 {
				depth--
				continue
			}
			if i < off || i == from {
				return 0, 0, false
			}
			return from, i, true
		case '[':
			if i == from || !isNameByte(src[i-1]) {
				return 0, 0, false // no subscript in it: [[:space:]]
			}
			depth++
		case '\n':
			return 0, 0, false
		}
	}
	return 0, 0, false
}

// openBracketBefore is the offset of the "[" at or before off that no
// "]" before off closes (${a[b[0] + 1 *= 2]}: the outer one), or -1.
func openBracketBefore(src string, off int) int {
	depth := 0
	for i := off; i >= 0; i-- {
		switch src[i] {
		case ']':
			if i != off {
				depth++
			}
		case '[':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// sliceSpan finds the offset or length of a slice (${x:OFF:LEN},
// ${a[i]:OFF}, ${@:OFF}) that holds offset off of src: bash evaluates
// them when it expands the word (${x:1 +} is an arithmetic error then,
// status 1).
func sliceSpan(src string, off int) (from, to int, ok bool) {
	if off >= len(src) {
		off = len(src) - 1
	}
	if off < 0 {
		return 0, 0, false
	}
	start := strings.LastIndex(src[:off+1], "${")
	if start < 0 || strings.IndexByte(src[start:off+1], '\n') >= 0 {
		return 0, 0, false
	}
	i := start + 2
	switch {
	case i < len(src) && isNameByte(src[i]):
		for i < len(src) && isNameByte(src[i]) {
			i++
		}
	case i < len(src) && strings.IndexByte("@*#?$!-", src[i]) >= 0:
		i++
	default:
		return 0, 0, false
	}
	if i < len(src) && src[i] == '[' {
		j := strings.IndexByte(src[i:], ']')
		if j < 0 {
			return 0, 0, false
		}
		i += j + 1
	}
	if i+1 >= len(src) || src[i] != ':' || strings.IndexByte("-=+?", src[i+1]) >= 0 {
		return 0, 0, false
	}
	from = i + 1
	depth, cond := 0, 0 // cond: the ? whose : is still to come
	for k := from; k < len(src); k++ {
		switch c := src[k]; {
		case c == '(' || c == '[':
			depth++
		case (c == ')' || c == ']') && depth > 0:
			depth--
		case c == '\n':
			return 0, 0, false
		case depth == 0 && c == '?':
			cond++
		case depth == 0 && c == ':' && cond > 0:
			cond-- // llmsh: ${x:1 ? 1.5 : 2:1}, as bash's skiparith
		case depth == 0 && (c == ':' || c == '}'):
			if off >= from && off <= k && k > from {
				return from, k, true
			}
			if c == '}' {
				return 0, 0, false
			}
			from = k + 1
		}
	}
	return 0, 0, false
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// arithSpan finds the text between the (( (of $(( or a command) and the
// )) that hold offset
// of src.
func arithSpan(src string, off int) (from, to int, ok bool) {
	if off > len(src) {
		off = len(src)
	}
	end := min(off+3, len(src)) // off may be at $(( itself
	// An inner ((…)) that ends before off is no span of it: the $((
	// that holds off opens before ($(( ((1)) % x &= 2 ))).
	for i := range 64 {
		start := strings.LastIndex(src[:end], "((")
		if start < 0 {
			return 0, 0, false
		}
		for i == 0 && start > 0 && src[start-1] == '(' && (start > 1 && src[start-2] == '$' || arithCmdStart(src, start-1)) {
			// llmsh: (((1 *= 2))), $(((1 *= 2))): the outer "((" opens
			// it, the "(" after it is the expression's.
			start--
		}
		if i == 0 || start > 0 && src[start-1] == '$' || arithCmdStart(src, start) {
			if from, to, ok = arithSpanFrom(src, start+2, off); ok {
				return from, to, true
			}
		}
		end = start + 1
	}
	return 0, 0, false
}

// arithCmdStart reports whether the "((" at offset i of src opens an
// arithmetic command: it starts a command (llmsh), so that the command
// holding an inner ((…)) is found ((( r = ((1)) + ---x ))).
func arithCmdStart(src string, i int) bool {
	j := i
	for j > 0 && (src[j-1] == ' ' || src[j-1] == '\t') {
		j--
	}
	if j == 0 || strings.IndexByte("\n;&|({!", src[j-1]) >= 0 {
		return true
	}
	k := j
	for k > 0 && isNameByte(src[k-1]) {
		k--
	}
	switch src[k:j] {
	case "then", "do", "else", "elif", "if", "while", "until", "time":
		return true
	}
	return false
}

// arithSpanFrom is arithSpan for the "((" that ends at from.
func arithSpanFrom(src string, from, off int) (_, to int, ok bool) {
	depth := 0
	for i := from; i < len(src); i++ {
		switch src[i] {
		case '(':
			depth++
		case ')':
			if depth > 0 {
				depth--
				continue
			}
			if i+1 < len(src) && src[i+1] == ')' && i > from && (off <= i+1 || openBracket(src[from:i])) {
				// llmsh: "$(( a[1 ))" – the parser read the
				// subscript on past the "))" and failed further
				// on; bash's error comes when it runs.
				return from, i, true
			}
			return 0, 0, false
		case '\n':
			// llmsh: bash reads (( … )) across lines; a span
			// blankSpan cannot keep as one name is none.
			if strings.TrimLeft(src[from:i], " \t\n") != "" && src[i-1] == '\n' {
				return 0, 0, false
			}
		}
	}
	return 0, 0, false
}

// oldArithSpan finds the text of the $[ … ] of src that holds offset off
// (an error at its "]" counts), on one line: bash evaluates it when it
// runs, as $(( … )) (`echo $[ 1 + ]` fails then, status 1) (llmsh).
func oldArithSpan(src string, off int) (from, to int, ok bool) {
	off = min(max(off, 0), len(src))
	start := strings.LastIndex(src[:min(off+2, len(src))], "$[")
	if start < 0 {
		return 0, 0, false
	}
	from, depth := start+2, 0
	for i := from; i < len(src); i++ {
		switch src[i] {
		case '[':
			depth++
		case ']':
			if depth > 0 {
				depth--
				continue
			}
			return from, i, off <= i && strings.TrimSpace(src[from:i]) != ""
		case '\n':
			return 0, 0, false
		}
	}
	return 0, 0, false
}

// openBracket reports whether s, an arithmetic expression's text, has a
// "[" that no "]" closes (llmsh).
func openBracket(s string) bool {
	return strings.Count(s, "[") > strings.Count(s, "]")
}

// bquoteSpan finds the text between two backquotes that holds offset off
// of src (an error at the closing one counts): bash parses a backquoted
// command substitution when it runs it, so a syntax error in it fails
// that substitution then (status 2), not the script (llmsh). Text with
// an escaped backquote (a nested substitution) is no span.
func bquoteSpan(src string, off int) (from, to int, ok bool) {
	if off > len(src) {
		return 0, 0, false
	}
	unescaped := func(i int) bool {
		n := 0
		for j := i - 1; j >= 0 && src[j] == '\\'; j-- {
			n++
		}
		return n%2 == 0
	}
	to = -1
	for i := off; i < len(src); i++ {
		if src[i] == '`' && unescaped(i) {
			to = i
			break
		}
	}
	if to < 0 {
		return 0, 0, false
	}
	open := -1
	for i := min(off, to) - 1; i >= 0; i-- {
		if src[i] == '`' && unescaped(i) {
			open = i
			break
		}
	}
	if open < 0 {
		return 0, 0, false
	}
	return open + 1, to, true
}

// blankText is s with every character but a newline made a space.
func blankText(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c != '\n' {
			b[i] = ' '
		}
	}
	return string(b)
}

// blankSpan is a name as long as s, which replaces a repaired span: its
// newlines are kept, escaped (the character before each becomes a
// backslash), so that the lines after it keep their numbers (llmsh).
func blankSpan(s string) string {
	b := []byte(strings.Repeat("_", len(s)))
	for i := 1; i < len(s); i++ {
		if s[i] == '\n' {
			b[i-1], b[i] = '\\', '\n'
		}
	}
	return string(b)
}

// ForHeader finds the for ((…)) header on one line that holds offset off
// of src: the offsets just after its "((" and at its "))" (llmsh).
func ForHeader(src string, off int) (from, end int, ok bool) {
	if off > len(src) {
		return 0, 0, false
	}
	lineStart := strings.LastIndexByte(src[:off], '\n') + 1
	// llmsh: the header may hold an inner ((…)) (for (( r = ((1)) + x;
	// …))): the "((" after "for", and the "))" that closes it.
	open := -1
	for e := off; ; {
		o := strings.LastIndex(src[lineStart:e], "((")
		if o < 0 {
			return 0, 0, false
		}
		if o += lineStart; strings.HasSuffix(strings.TrimRight(src[lineStart:o], " \t"), "for") {
			open = o
			break
		}
		e = o + 1
	}
	lineEnd := len(src)
	if i := strings.IndexByte(src[open:], '\n'); i >= 0 {
		lineEnd = open + i
	}
	depth := 0
	for i := open + 2; i+1 < lineEnd; i++ {
		switch src[i] {
		case '(':
			depth++
		case ')':
			if depth == 0 && src[i+1] == ')' {
				return open + 2, i, true
			}
			depth = max(depth-1, 0)
		}
	}
	return 0, 0, false
}

// forParenCut reports whether the text of a `for ((` from offset from of
// src (just after the "((") has a first ")" at its depth that is not
// followed by another, which bash's parse_arith_cmd, reading the text as
// a matched pair, then takes for no arithmetic: its parser ends the
// input there, with no message (llmsh). Quotes and backslashes are
// skipped as bash's matched pair skips them.
func forParenCut(src []byte, from int) bool {
	depth := 0
	for i := from; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '\'', '"':
			j := bytes.IndexByte(src[i+1:], src[i])
			if j < 0 {
				return false
			}
			i += j + 1
		case '(':
			depth++
		case ')':
			if depth > 0 {
				depth--
				continue
			}
			return i+1 < len(src) && src[i+1] != ')'
		}
	}
	return false
}

// forSpan finds the expression of a for ((INIT; COND; POST)) header that
// holds offset off of src (at its text or the ";" or "))" after it): bash
// splits the header at its two semicolons when it parses and evaluates
// each part when it runs, so that a bad one is an arithmetic error then
// (llmsh). A header without two semicolons stays a syntax error, as in
// bash (interp.SyntaxError words it).
// letSpan finds the word of a let command that holds offset off of src
// (let x = 1: the "="): bash evaluates each of let's words when let runs,
// so a word that is no expression fails then, status 1, not when the
// script is parsed. The command must be a let on its line (the words
// before may have quotes and expansions: a span that no let holds after
// the repair makes parseArithRepair give the first error back), and the
// word without expansions; its quotes the runner removes (interp's
// letWord).
func letSpan(src string, off int) (from, to int, ok bool) {
	if off < 0 || off >= len(src) {
		return 0, 0, false
	}
	from = off
	for from > 0 && !strings.ContainsRune(" \t\n", rune(src[from-1])) {
		from--
	}
	to = off
	for to < len(src) && !strings.ContainsRune(" \t\n;&|)", rune(src[to])) {
		to++
	}
	// llmsh: quotes and backslashes are the word's (let x='2'+3): a
	// quote must close within it.
	if w := src[from:to]; to == from || strings.ContainsAny(w, "$`(") ||
		strings.Count(w, "'")%2 != 0 || strings.Count(w, `"`)%2 != 0 || strings.HasSuffix(w, `\`) {
		return 0, 0, false
	}
	start := strings.LastIndexAny(src[:from], "\n;&|({") + 1
	head := strings.TrimLeft(src[start:from], " \t")
	if !strings.HasPrefix(head, "let ") || strings.ContainsAny(head, "()<>") {
		return 0, 0, false
	}
	return from, to, true
}

func forSpan(src string, off int) (from, to int, ok bool) {
	from, end, ok := ForHeader(src, off)
	if !ok || strings.Count(src[from:end], ";") != 2 {
		return 0, 0, false
	}
	for from <= end {
		to = strings.IndexByte(src[from:end], ';')
		if to < 0 {
			to = end
		} else {
			to += from
		}
		if off >= from && off <= to {
			return from, to, strings.TrimSpace(src[from:to]) != ""
		}
		from = to + 1
	}
	return 0, 0, false
}

// errOffset is where a parse error is, -1 for another error.
func errOffset(err error) int {
	var perr ParseError
	if errors.As(err, &perr) {
		return int(perr.Pos.Offset())
	}
	return -1
}

// dblParenComsubs finds each "$((" of src that bash reads as a command
// substitution whose first command is a subshell: the ")" that closes
// its second "(" is not followed at once by another ")" (`$((echo hi)
// )`, `$((a)+(b))`), as bash's parser decides when it meets "$((".
// Quotes and backslashes are skipped roughly; an offset that the lexer
// never reads as "$((" (in single quotes, say) changes nothing. The
// same goes for a "((" command (the offset of its first "("), which
// bash's parse_dparen reads then as two subshells: `((echo hi); echo
// x)`, `(( 1 + 2 ); echo x` (an unclosed "(": unexpected end of file);
// not the "((" after for, which bash refuses.
func dblParenComsubs(src []byte) map[int]bool {
	var subs map[int]bool
	for i := 0; ; {
		k := bytes.Index(src[i:], []byte("(("))
		if k < 0 {
			return subs
		}
		i += k
		if end, ok := closeOf(src, i+2, '(', ')'); ok && (end+1 >= len(src) || src[end+1] != ')') {
			at := i
			if i > 0 && src[i-1] == '$' {
				at = i - 1
			}
			if at == i && bytes.HasSuffix(bytes.TrimRight(src[:i], " \t"), []byte("for")) {
				at = -1
			}
			if at >= 0 && subs == nil {
				subs = map[int]bool{}
			}
			if at >= 0 {
				subs[at] = true
			}
		}
		i += 2
	}
}

// unclosedSub is the offset of the last "$((" of subs before offset
// before (the error's), if no ")" closes its "$(", else -1 (llmsh).
func unclosedSub(src []byte, subs map[int]bool, before int) int {
	last := -1
	for at := range subs {
		if at < before && src[at] == '$' && at > last {
			last = at
		}
	}
	if last >= 0 {
		if _, ok := closeOf(src, last+2, '(', ')'); ok {
			return -1
		}
	}
	return last
}

// closeOf is the offset of the close byte that closes an open byte just
// before offset from of src, skipping nested pairs, quoted text and
// escaped bytes.
func closeOf(src []byte, from int, open, close byte) (int, bool) {
	depth := 1
	for j := from; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '\'':
			k := bytes.IndexByte(src[j+1:], src[j])
			if k < 0 {
				return 0, false
			}
			j += k + 1
		case '"':
			// llmsh: a backslash escapes the next byte inside double
			// quotes too (a["\""]=x is an assignment).
			for j++; j < len(src) && src[j] != '"'; j++ {
				if src[j] == '\\' {
					j++
				}
			}
			if j >= len(src) {
				return 0, false
			}
		case open:
			depth++
		case close:
			if depth--; depth == 0 {
				return j, true
			}
		}
	}
	return 0, false
}
