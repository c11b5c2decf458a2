// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package expand

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// llmsh: arithmetic is evaluated as bash 5.2 evaluates it (expr.c): the
// expression is text, expanded first, then read by a parser that evaluates
// as it goes. A tree from the syntax parser is printed back to text with
// its words expanded (its spacing taken from the positions, so that error
// messages quote the text as bash does), and that text is evaluated. So
// `op=+; $((6 $op 7))` and `x=1+2; $(($x*2))` read as bash reads them, a
// variable whose value is an expression is that expression, and errors
// have bash's words. Upstream evaluated the tree, each word a number.

// ArithmError is an error of arithmetic evaluation, worded as bash's:
// "EXPR: MSG (error token is "TOKEN")". Bash abandons the command that
// expands $(( )) with such an error; (( )) and let fail with status 1.
type ArithmError struct {
	Expr  string // the expression's text, leading blanks dropped (not newlines)
	Msg   string
	Token string // the text from the token at fault on
	NoTok bool   // no "(error token is ...)" part
	// Fatal is set for an error in an array subscript or in the value of
	// an integer variable (llmsh): bash then ends a shell that is not
	// interactive (a[1/0]=x, ${a[1 +]}, (( a[1/0] )), declare -i n;
	// n=1/0), where other arithmetic errors abandon the line or fail
	// the command.
	Fatal bool
	// KeepStatus is set for an error in the value of an integer
	// variable (llmsh): bash's jump leaves $? as it was (1 if it was 0),
	// where a subscript's or an expansion's error sets it to 1.
	KeepStatus bool
	// Err is the error of an assignment the expression made, such as
	// "r: readonly variable" (llmsh): bash fails the expression as it
	// does an arithmetic error, with the assignment's own message.
	Err error
}

// subscriptErr marks an arithmetic error of a subscript as fatal.
func subscriptErr(err error) error {
	if ae, ok := err.(*ArithmError); ok {
		ae.Fatal = true
	}
	return err
}

func (e *ArithmError) Error() string {
	if e.Err != nil {
		return e.Err.Error()
	}
	if e.NoTok {
		return e.Expr + ": " + e.Msg
	}
	return e.Expr + ": " + e.Msg + " (error token is \"" + e.Token + "\")"
}

func (e *ArithmError) Unwrap() error { return e.Err }

// Arithm evaluates an arithmetic expression as bash does.
func Arithm(cfg *Config, expr syntax.ArithmExpr) (int, error) {
	return ArithmEnd(cfg, expr, syntax.Pos{})
}

// ArithmEnd is [Arithm] for an expression whose text, as written, ends at
// end (the position of the closing "))"): the blanks before it are part of
// the text that an error message quotes, as in bash.
func ArithmEnd(cfg *Config, expr syntax.ArithmExpr, end syntax.Pos) (int, error) {
	n, _, err := arithmEnd(cfg, expr, end)
	return n, err
}

// arithmEnd is [ArithmEnd]; inner reports an error of an expansion in the
// expression's text ($((1/0)) in ${s:$((1/0))}), not of the expression.
func arithmEnd(cfg *Config, expr syntax.ArithmExpr, end syntax.Pos) (n int, inner bool, err error) {
	if w, ok := expr.(*syntax.Word); ok && rawQuoted(w) {
		// llmsh: the text of an expression that did not parse (for
		// (( ; "3" | 1.5 ; )), a[x = "3" || y -= 1]=v), its double
		// quotes removed as bash's first pass does, as (( ))'s Raw.
		text, err := Literal(cfg, rawArithWord(w))
		if err != nil {
			return 0, true, err
		}
		n64, err := cfg.ArithmText(text)
		return int(n64), false, err
	}
	if w, ok := expr.(*syntax.Word); ok && len(w.Parts) == 1 {
		// A lone literal ($((i)), a[3], ${s:2}) needs no printing.
		if lit, ok := w.Parts[0].(*syntax.Lit); ok && !end.IsValid() {
			if lit.Value != "" {
				if n, ok := plainDecimal(lit.Value); ok {
					return int(n), false, nil // a[3], and fixSubscript's a[i]
				}
			}
			n, err := cfg.ArithmText(arithLitText(lit.Value, false))
			return int(n), false, err
		}
	}
	key := arithKey{expr, end}
	if cfg != nil {
		// llmsh: text printed before is evaluated without
		// prepareConfig's lookup of IFS (ArithmText).
		if text, ok := cfg.arithTexts[key]; ok {
			n, err := cfg.ArithmText(text)
			return int(n), false, err
		}
	}
	cfg = prepareConfig(cfg)
	var b strings.Builder
	pr := arithPrinter{cfg: cfg, b: &b, quoteBrackets: hasExpChar(expr)}
	if err := pr.print(expr); err != nil {
		return 0, true, err
	}
	if end.IsValid() {
		endGap(&b, cfg, pr.last, end)
	} else {
		trailBlanks(&b, cfg, pr.last)
	}
	text := b.String()
	if !pr.expanded {
		// Text without expansions is the same each time: a loop's
		// $((i + 1)) is printed once per runner.
		if cfg.arithTexts == nil {
			cfg.arithTexts = make(map[arithKey]string)
		}
		cfg.arithTexts[key] = text
	}
	n64, err := cfg.ArithmText(text)
	return int(n64), false, err
}

// LetText is the text of an argument of let, parsed as arithmetic: its
// words are the shell's, their quotes and backslashes removed (let
// x='2'+3, let x=2\*3), as bash's builtin receives them (llmsh).
func LetText(cfg *Config, expr syntax.ArithmExpr) (string, error) {
	key := arithKey{expr, syntax.Pos{}}
	if cfg != nil {
		if text, ok := cfg.arithTexts[key]; ok {
			return text, nil // let i++ in a loop: printed once
		}
	}
	cfg = prepareConfig(cfg)
	var b strings.Builder
	pr := arithPrinter{cfg: cfg, b: &b, shellWords: true}
	if err := pr.print(expr); err != nil {
		return "", err
	}
	if !pr.expanded {
		if cfg.arithTexts == nil {
			cfg.arithTexts = make(map[arithKey]string)
		}
		cfg.arithTexts[key] = b.String()
	}
	return b.String(), nil
}

// LetFields is LetText split as bash splits let's word: the text that
// unquoted expansions gave (let x=$y with y='1 + 2') is split at IFS,
// each field an argument of its own (x=1, +, 2), as bash's builtin
// receives them (llmsh).
func LetFields(cfg *Config, expr syntax.ArithmExpr) ([]string, error) {
	cfg = prepareConfig(cfg)
	var b strings.Builder
	pr := arithPrinter{cfg: cfg, b: &b, shellWords: true, splits: [][2]int{}}
	if err := pr.print(expr); err != nil {
		return nil, err
	}
	text := b.String()
	if len(pr.splits) == 0 {
		return []string{text}, nil
	}
	var fields []string
	var cur strings.Builder
	have, wsEnded := false, false
	emit := func() {
		fields = append(fields, cur.String())
		cur.Reset()
	}
	next := 0 // the first range that may hold i
	for i, r := range text {
		for next < len(pr.splits) && pr.splits[next][1] <= i {
			next++
		}
		inRange := next < len(pr.splits) && pr.splits[next][0] <= i
		switch {
		case !inRange || !cfg.ifsRune(r):
			cur.WriteRune(r)
			have, wsEnded = true, false
		case cfg.ifsWhitespace(r):
			if have {
				emit()
				have, wsEnded = false, true
			}
		default:
			if have || !wsEnded {
				emit()
			}
			have, wsEnded = false, false
		}
	}
	if have {
		emit()
	}
	return fields, nil
}

// arithKey names an expression whose text Config.arithTexts keeps.
type arithKey struct {
	x   syntax.ArithmExpr
	end syntax.Pos
}

// arithPrinter prints an arithmetic tree as text, its words expanded.
type arithPrinter struct {
	cfg  *Config
	b    *strings.Builder
	last syntax.Pos // the end of what was printed

	expanded bool // a word had an expansion
	index    int  // the depth of indexed arrays' subscripts printed
	// quoteBrackets: the text has an expansion or a ~, so that bash
	// 5.2 expands it whole and quotes the brackets of an element read
	// in a subscript ($(( a[a[0]] + $x )) is the text a[a\[0\]] + 1,
	// an error when the subscript is evaluated); see hasExpChar.
	quoteBrackets bool
	shellWords    bool // words lose their quotes and backslashes (let)
	// splits, when not nil, gathers the ranges of b that unquoted
	// expansions wrote (LetFields).
	splits [][2]int
}

func isLitWord(w *syntax.Word) bool {
	if len(w.Parts) != 1 {
		return false
	}
	_, ok := w.Parts[0].(*syntax.Lit)
	return ok
}

// gap writes the blanks between what was printed and pos.
func (p *arithPrinter) gap(pos syntax.Pos) {
	if p.b.Len() == 0 {
		p.last = pos
		return
	}
	if pos.IsValid() && p.last.IsValid() {
		if pos.Line() != p.last.Line() {
			if !lineGap(p.b, p.cfg, p.last, pos) {
				p.b.WriteByte(' ')
			}
		} else {
			writeBlanks(p.b, p.cfg, pos, int(pos.Col())-int(p.last.Col()))
		}
	} else {
		p.b.WriteByte(' ')
	}
}

// endGap writes to b the blanks (and newlines) of an expression's text
// from last, the end of its last token, to end, where the closing "))"
// is: bash quotes them.
func endGap(b *strings.Builder, cfg *Config, last, end syntax.Pos) {
	switch {
	case !end.IsValid() || !last.IsValid():
	case end.Line() == last.Line() && end.Col() > last.Col():
		writeBlanks(b, cfg, end, int(end.Col())-int(last.Col()))
	case end.Line() != last.Line():
		lineGap(b, cfg, last, end)
	}
}

// trailBlanks writes to b the blanks after last, the end of an
// expression's last token, that the source text (cfg.Text) has before
// the "]", "}" or ":" that ends a subscript or an offset: bash quotes
// them (`a[1/0 ]`: "1/0 : division by 0") (llmsh).
func trailBlanks(b *strings.Builder, cfg *Config, last syntax.Pos) {
	if cfg == nil || !last.IsValid() {
		return
	}
	at, text := int(last.Offset()), cfg.Text
	end := at
	for end < len(text) && (text[end] == ' ' || text[end] == '\t') {
		end++
	}
	if end > at && end < len(text) && strings.IndexByte("]}:", text[end]) >= 0 {
		b.WriteString(text[at:end])
	}
}

// writeBlanks writes to b the n blanks of an expression's text before
// pos on its line: those of the source text (cfg.Text) when it has n
// blanks there, a tab as a tab as bash quotes the text; else n spaces
// (llmsh).
func writeBlanks(b *strings.Builder, cfg *Config, pos syntax.Pos, n int) {
	if n <= 0 {
		return
	}
	if cfg != nil {
		if at := int(pos.Offset()); at >= n && at <= len(cfg.Text) {
			if gap := cfg.Text[at-n : at]; strings.Trim(gap, " \t") == "" {
				b.WriteString(gap)
				return
			}
		}
	}
	for range n {
		b.WriteByte(' ')
	}
}

// lineGap writes to b the gap of an expression's text from last to pos
// on another line, as bash quotes that text (llmsh): the newline that
// ends last's line and the blanks before pos (a blank for each, a tab
// too), when the gap is only those; it writes nothing and reports false
// otherwise (a backslash-newline, which bash's text drops, or blanks
// that end the line, may be there).
func lineGap(b *strings.Builder, cfg *Config, last, pos syntax.Pos) bool {
	lead := int(pos.Col()) - 1
	if pos.Line() != last.Line()+1 || int(pos.Offset())-int(last.Offset()) != 1+lead {
		return false
	}
	b.WriteByte('\n')
	writeBlanks(b, cfg, pos, lead)
	return true
}

func (p *arithPrinter) token(pos syntax.Pos, s string) {
	p.gap(pos)
	p.b.WriteString(s)
	if pos.IsValid() {
		p.last = posAdd(pos, len(s))
	} else {
		p.last = syntax.Pos{}
	}
}

func posAdd(pos syntax.Pos, n int) syntax.Pos {
	return syntax.NewPos(pos.Offset()+uint(n), pos.Line(), pos.Col()+uint(n))
}

// wordText is a word of an arithmetic expression expanded; its single
// quotes stay, as bash reads arithmetic as if double-quoted ('1' is an
// error there, llmsh).
func (p *arithPrinter) wordText(w *syntax.Word) (string, error) {
	if p.shellWords {
		return p.shellWordText(w)
	}
	if p.index > 0 {
		return p.indexWordText(w)
	}
	sgl := false
	for _, wp := range w.Parts {
		switch wp := wp.(type) {
		case *syntax.SglQuoted:
			sgl = true
		case *syntax.Lit:
			sgl = sgl || strings.Contains(wp.Value, `\`)
		}
	}
	if !sgl {
		return Literal(p.cfg, w)
	}
	var b strings.Builder
	for _, wp := range w.Parts {
		if lit, ok := wp.(*syntax.Lit); ok {
			// llmsh: \1$x is the text \13, as bash's.
			b.WriteString(arithLitText(lit.Value, false))
			continue
		}
		s, err := Literal(p.cfg, &syntax.Word{Parts: []syntax.WordPart{wp}})
		if err != nil {
			return "", err
		}
		if sq, ok := wp.(*syntax.SglQuoted); ok && !p.extQuoted(sq) {
			// $'1' too: bash's parser makes it '1' there.
			s = "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// extQuoted reports whether sq is a $'…' that bash decodes as it reads
// the subscript of a double-quoted "${a[$'1']}" (shopt extquote, on by
// default): its text, without quotes (llmsh).
func (p *arithPrinter) extQuoted(sq *syntax.SglQuoted) bool {
	return sq.Dollar && p.cfg.dblQuoted && !p.cfg.hereDoc && !p.cfg.NoExtQuote
}

// indexWordText is wordText for a word of an indexed array's subscript:
// the text of an expansion is quoted for indexText's reading (llmsh), as
// bash 5.2 quotes it there (a[$x] with x=\'1\' is the text a[\\'1\\'], an
// error; with x='$i', a[\\$i], not i's value).
func (p *arithPrinter) indexWordText(w *syntax.Word) (string, error) {
	var b strings.Builder
	for _, wp := range w.Parts {
		var parts []syntax.WordPart
		if dq, ok := wp.(*syntax.DblQuoted); ok {
			parts = dq.Parts
		} else {
			parts = []syntax.WordPart{wp}
		}
		for _, part := range parts {
			if lit, ok := part.(*syntax.Lit); ok && wp == part {
				b.WriteString(arithLitText(lit.Value, p.quoteBrackets))
				continue
			}
			x := part
			if wp != part {
				x = &syntax.DblQuoted{Parts: []syntax.WordPart{part}}
			}
			s, err := Literal(p.cfg, &syntax.Word{Parts: []syntax.WordPart{x}})
			if err != nil {
				return "", err
			}
			switch part := part.(type) {
			case *syntax.SglQuoted:
				// $'1' too: bash's parser makes it '1' there.
				if !p.extQuoted(part) {
					s = "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
				}
			case *syntax.ParamExp:
				if part.Dollar.IsValid() {
					s = quoteSubscript(s)
				}
			case *syntax.CmdSubst:
				s = quoteSubscript(s)
			}
			b.WriteString(s)
		}
	}
	return b.String(), nil
}

// shellWordText is wordText for let's words: each part as the shell
// expands it, quotes and backslashes removed, but an element (a[1]\*2)
// as its name and subscript's text, for the evaluator to read.
func (p *arithPrinter) shellWordText(w *syntax.Word) (string, error) {
	var b strings.Builder
	for _, wp := range w.Parts {
		if pe, ok := wp.(*syntax.ParamExp); ok && !pe.Dollar.IsValid() && pe.Index != nil {
			var idx strings.Builder
			sub := arithPrinter{cfg: p.cfg, b: &idx, shellWords: true}
			if err := sub.print(pe.Index); err != nil {
				return "", err
			}
			b.WriteString(pe.Param.Value + "[" + idx.String() + "]")
			continue
		}
		s, err := Literal(p.cfg, &syntax.Word{Parts: []syntax.WordPart{wp}})
		if err != nil {
			return "", err
		}
		if p.splits != nil && splitPart(wp) {
			base := p.b.Len() + b.Len()
			p.splits = append(p.splits, [2]int{base, base + len(s)})
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// splitPart reports whether the text of wp, a part of a word, is split
// into fields: an unquoted parameter expansion or command substitution.
func splitPart(wp syntax.WordPart) bool {
	switch wp := wp.(type) {
	case *syntax.ParamExp:
		return wp.Dollar.IsValid()
	case *syntax.CmdSubst:
		return true
	}
	return false
}

func (p *arithPrinter) print(expr syntax.ArithmExpr) error {
	switch x := expr.(type) {
	case *syntax.Word:
		p.gap(x.Pos())
		if len(x.Parts) == 1 {
			switch part := x.Parts[0].(type) {
			case *syntax.Lit:
				if p.shellWords && strings.Contains(part.Value, `\`) {
					break // let x=2\*3: the backslash goes
				}
				if p.shellWords {
					p.b.WriteString(part.Value)
				} else {
					p.b.WriteString(arithLitText(part.Value, p.index > 0 && p.quoteBrackets))
				}
				p.last = x.End()
				return nil
			case *syntax.ParamExp:
				if !part.Dollar.IsValid() && part.Index != nil {
					// An element, a[i+1]: its name and
					// subscript as text, read by the evaluator.
					p.b.WriteString(part.Param.Value)
					quoted := p.quoteBrackets && p.index > 0
					if quoted {
						p.b.WriteByte('\\')
					}
					p.b.WriteByte('[')
					p.last = posAdd(part.Param.End(), 1)
					if w, ok := part.Index.(*syntax.Word); ok && !isLitWord(w) && p.cfg.Env.Get(part.Param.Value).Kind == Associative {
						// llmsh: a key is expanded once, its
						// quotes removed (m['a b'], m[$k]), and
						// quoted for the evaluator's reading
						// (subscriptText).
						key, err := Literal(p.cfg, w)
						if err != nil {
							return err
						}
						p.expanded = true
						p.b.WriteString(quoteSubscript(key))
						p.b.WriteByte(']')
						p.last = x.End()
						return nil
					}
					p.index++
					err := p.print(part.Index)
					p.index--
					if err != nil {
						return err
					}
					if quoted {
						p.b.WriteByte('\\')
					}
					p.b.WriteByte(']')
					p.last = x.End()
					return nil
				}
			}
		}
		p.expanded = true
		s, err := p.wordText(x)
		if err != nil {
			return err
		}
		p.b.WriteString(s)
		p.last = x.End()
	case *syntax.ParenArithm:
		p.token(x.Lparen, "(")
		if err := p.print(x.X); err != nil {
			return err
		}
		p.token(x.Rparen, ")")
	case *syntax.UnaryArithm:
		if x.Post {
			if err := p.print(x.X); err != nil {
				return err
			}
			p.token(x.OpPos, x.Op.String())
			return nil
		}
		p.token(x.OpPos, x.Op.String())
		return p.print(x.X)
	case *syntax.BinaryArithm:
		if err := p.print(x.X); err != nil {
			return err
		}
		p.token(x.OpPos, x.Op.String())
		return p.print(x.Y)
	case *syntax.FlagsArithm: // e.g. zsh's ${a[(r)b]}
		return fmt.Errorf("unsupported")
	default:
		panic(fmt.Sprintf("unexpected arithm expr: %T", expr))
	}
	return nil
}

// arithLitText is the literal text s of an arithmetic expression as
// bash's first pass over the text leaves it (llmsh): as in double quotes,
// a backslash goes before " \ $ ` and stays before any other byte
// ($(( \"1\" )) is the error of "1", $(( a[\"1\"] )) reads a["1"], whose
// subscript is a[1]). With sub, in a subscript of a text that bash
// expands whole (arithPrinter.quoteBrackets), a backslash before one of
// " \ $ ` ' stays, quoting it for the subscript's own expansion, and goes
// before any other byte: a[\"1\"+$x] is the error of "1", a[\${x}] of
// ${x}, a[\i+$x] is a[i+1].
func arithLitText(s string, sub bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			if special := strings.IndexByte("\"\\$`'", s[i+1]) >= 0; !sub && s[i+1] != '\'' && special {
				i++
			} else if sub && !special {
				i++
			} else if sub {
				b = append(b, s[i])
				i++
			}
		}
		b = append(b, s[i])
	}
	return string(b)
}

// hasExpChar reports whether the text of x holds what makes bash 5.2
// expand an arithmetic text whole (expand_arith_string's EXP_CHAR: an
// expansion, a backquote, a ~), rather than only removing its quotes.
func hasExpChar(x syntax.ArithmExpr) bool {
	found := false
	syntax.Walk(x, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ParamExp:
			if n.Dollar.IsValid() {
				found = true
			}
		case *syntax.CmdSubst, *syntax.ArithmExp, *syntax.ProcSubst:
			found = true
		case *syntax.Lit:
			if strings.ContainsAny(n.Value, "$`~") {
				found = true
			}
		case *syntax.UnaryArithm:
			if n.Op == syntax.BitNegation {
				found = true
			}
		}
		return !found
	})
	return found
}

// WholeSubscript reports whether the "[" that t starts with is closed by
// t's last byte, as bash's valid_array_reference asks skipsubscript
// (brackets nest, a backslash escapes, quotes hold): m[x]y] and m[a'b]
// name no element (llmsh).
func WholeSubscript(t string) bool {
	return len(t) > 1 && t[0] == '[' && skipSubscript(t, 0) == len(t)-1
}

// SubscriptKey is the key that the text of an associative array's
// subscript names, expanded as bash's expand_subscript_string does: once,
// quotes and backslashes removed (test -v 'm[$k]').
func (cfg *Config) SubscriptKey(sub string) (string, error) {
	return cfg.subscriptText(sub)
}

// ArithmText evaluates text, expanded already, as bash's arithmetic.
// SubscriptIndex evaluates the text of an indexed array's subscript as
// bash's unset does (array_expand_index): expanded once ($i, quotes
// removed), then evaluated, with bash's errors (llmsh).
func (cfg *Config) SubscriptIndex(sub string) (int64, error) {
	text, err := cfg.indexText(sub)
	if err != nil {
		return 0, err
	}
	return cfg.ArithmText(text)
}

func (cfg *Config) ArithmText(text string) (int64, error) {
	// llmsh: not prepareConfig, whose lookup of IFS arithmetic never
	// uses (two per round of for ((…)), a sixth of its time); what the
	// evaluation expands goes through an entry point that prepares.
	cfg = cmp.Or(cfg, zeroConfig)
	cfg.Env = cmp.Or(cfg.Env, FuncEnviron(func(string) string { return "" }))
	if cfg == zeroConfig {
		ev := arithEval{cfg: cfg}
		return ev.eval(text, cfg.arithDepth)
	}
	ev := cfg.arithEv
	if ev == nil || ev.busy {
		// The first evaluation, or one that a subscript's evaluation
		// (through the Environ) started while another holds it.
		ev = new(arithEval)
		if cfg.arithEv == nil {
			cfg.arithEv = ev
		}
	}
	*ev = arithEval{cfg: cfg, busy: true}
	defer func() { ev.busy = false }()
	return ev.eval(text, cfg.arithDepth)
}

// Tokens of the arithmetic lexer.
const (
	atEOF = iota
	atNum
	atStr // a variable, perhaps an element
	atOp  // an operator; arithEval.op says which
	atAssignOp
	atPreInc
	atPreDec
	atPostInc
	atPostDec
)

// arithEval is one evaluation, with bash's lexer state.
type arithEval struct {
	cfg    *Config
	noeval int
	depth  int
	nest   int  // llmsh: recursions of the descent under way (see down)
	busy   bool // llmsh: an evaluation holds it (Config.arithEv)
}

// arithState is the lexer state of one expression's text.
type arithState struct {
	ev      *arithEval
	text    string
	pos     int    // next byte
	lastTP  int    // start of the last token read
	tok     int    // current token
	op      string // its operator, for atOp and atAssignOp
	lastTok int
	val     int64  // value of atNum and atStr
	name    string // atStr's text
	// nameText is atStr's text as written when name has its subscript
	// evaluated (a[i] read as a[-5]): bash's messages name it so
	// (llmsh).
	nameText string
	peekOK   int // llmsh: peekLex found no error before this byte
}

const maxArithDepth = 1024

// maxArithNest bounds the nesting of one expression's text: parentheses,
// unary operators, and right-recursive ?:, = and ** (llmsh). Each level
// is a recursion of the descent, and a value of a million `(` overflowed
// Go's stack (a fatal error); bash, whose descent is in C, reads
// thousands of levels (5000 work) and crashes on a million.
const maxArithNest = 10000

// down counts one more level of the descent, failing past maxArithNest;
// the caller undoes it with up once the level is read.
func (s *arithState) down() {
	if s.ev.nest++; s.ev.nest > maxArithNest {
		s.fail("expression recursion level exceeded")
	}
}

func (s *arithState) up() { s.ev.nest-- }

func (ev *arithEval) eval(text string, depth int) (int64, error) {
	if strings.TrimLeft(text, " \t\n") == "" {
		return 0, nil
	}
	if depth >= maxArithDepth {
		outer := strings.TrimLeft(cmp.Or(ev.cfg.arithOuter, text), " \t")
		return 0, &ArithmError{Expr: outer, Msg: "expression recursion level exceeded", Token: outer}
	}
	s := &arithState{ev: ev, text: text}
	saved, savedDepth, savedOuter := ev.depth, ev.cfg.arithDepth, ev.cfg.arithOuter
	ev.depth, ev.cfg.arithDepth, ev.cfg.arithOuter = depth, depth+1, text
	defer func() { ev.depth, ev.cfg.arithDepth, ev.cfg.arithOuter = saved, savedDepth, savedOuter }()
	var v int64
	err := s.catch(func() {
		s.next()
		v = s.comma()
		if s.tok != atEOF {
			s.fail("syntax error in expression")
		}
	})
	return v, err
}

// arithPanic carries an error out of the recursive descent.
type arithPanic struct{ err error }

func (s *arithState) catch(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			ap, ok := r.(arithPanic)
			if !ok {
				panic(r)
			}
			err = ap.err
		}
	}()
	f()
	return nil
}

func (s *arithState) fail(msg string) {
	s.failAt(msg, s.lastTP)
}

func (s *arithState) failAt(msg string, at int) {
	expr := strings.TrimLeft(s.text, " \t")
	if at > len(s.text) {
		at = len(s.text)
	}
	panic(arithPanic{&ArithmError{Expr: expr, Msg: msg, Token: s.text[at:]}})
}

func (s *arithState) failErr(err error) {
	panic(arithPanic{err})
}

func isArithBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isNameStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isNameByte(c byte) bool { return isNameStart(c) || c >= '0' && c <= '9' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// next reads the next token, as bash's readtok.
func (s *arithState) next() {
	t := s.text
	i := s.pos
	for i < len(t) && isArithBlank(t[i]) {
		i++
	}
	if i >= len(t) {
		s.lastTok = s.tok
		s.tok = atEOF
		s.pos = i
		return
	}
	s.lastTP = i
	c := t[i]
	switch {
	case isNameStart(c):
		j := i + 1
		for j < len(t) && isNameByte(t[j]) {
			j++
		}
		if j < len(t) && t[j] == '[' {
			e := skipSubscript(t, j)
			if e < 0 {
				s.lastTP = i // bash's error token starts at the name
				s.fail("bad array subscript")
			}
			j = e + 1
		}
		s.name, s.nameText = t[i:j], ""
		s.pos = j
		s.peekLex(j)
		// An assignment's target is not read.
		k := j
		for k < len(t) && isArithBlank(t[k]) {
			k++
		}
		assign := k < len(t) && t[k] == '=' && (k+1 >= len(t) || t[k+1] != '=')
		read := s.lastTok == atPreInc || s.lastTok == atPreDec || s.tok == atPreInc || s.tok == atPreDec || !assign
		if j > 0 && t[j-1] == ']' && s.ev.noeval == 0 && read {
			// llmsh: the target of a plain = is not fixed: bash
			// evaluates its subscript when it assigns, after the
			// value (a[i] = i++ sets a[2]).
			s.unsetArray(s.name)
			name, err := s.ev.cfg.fixSubscript(s.name)
			if err != nil {
				s.failErr(err)
			}
			s.name, s.nameText = name, s.name
		}
		if read {
			s.val = s.varValue(s.name)
		} else {
			s.val = 0
		}
		s.lastTok = s.tok
		s.tok = atStr
		return
	case isDigit(c):
		j := i + 1
		for j < len(t) && (isNameByte(t[j]) || t[j] == '#' || t[j] == '@') {
			j++
		}
		s.pos = j
		s.val = s.number(t[:j], i)
		s.lastTok = s.tok
		s.tok = atNum
		return
	}
	var c1 byte
	if i+1 < len(t) {
		c1 = t[i+1]
	}
	op := string(c)
	n := 1
	tok := atOp
	switch {
	case c == '=' && c1 == '=', c == '!' && c1 == '=', c == '>' && c1 == '=', c == '<' && c1 == '=',
		c == '&' && c1 == '&', c == '|' && c1 == '|', c == '*' && c1 == '*':
		op, n = t[i:i+2], 2
	case (c == '<' || c == '>') && c1 == c:
		op, n = t[i:i+2], 2
		if i+2 < len(t) && t[i+2] == '=' {
			op, n, tok = op+"=", 3, atAssignOp
		}
	case (c == '+' || c == '-') && c1 == c && s.tok == atStr:
		n = 2
		tok = atPostInc
		if c == '-' {
			tok = atPostDec
		}
	case (c == '+' || c == '-') && c1 == c && s.tok == atNum &&
		(s.lastTok == atPreInc || s.lastTok == atPreDec):
		// bash's readtok catches ++a++ and --a-- here.
		s.fail(t[i:i+2] + ": assignment requires lvalue")
	case (c == '+' || c == '-') && c1 == c:
		k := i + 2
		for k < len(t) && isArithBlank(t[k]) {
			k++
		}
		if k < len(t) && isNameStart(t[k]) {
			n = 2
			tok = atPreInc
			if c == '-' {
				tok = atPreDec
			}
		}
	case c1 == '=' && strings.IndexByte("*/%+-&^|", c) >= 0:
		op, n, tok = t[i:i+2], 2, atAssignOp
	case strings.IndexByte("=><+-*/%&|^~!?:(),", c) < 0:
		if s.tok == atEOF || s.tok == atOp || s.tok == atAssignOp {
			s.fail("syntax error: operand expected")
		}
		s.fail("syntax error: invalid arithmetic operator")
	}
	s.pos = i + n
	s.op = op
	s.lastTok = s.tok
	s.tok = tok
}

// peekLex lexes the token at i as bash's readtok does after a name, to
// see whether an assignment operator follows (llmsh): before the name is
// read, so an error of that token comes first (n='1/0'; $(( n 08 )) is
// 08's "value too great for base"), and a name peeks its own next token
// in turn. peekOK keeps a chain of names from being lexed again.
func (s *arithState) peekLex(i int) {
	t := s.text
	for i >= s.peekOK {
		for i < len(t) && isArithBlank(t[i]) {
			i++
		}
		if i >= len(t) {
			break
		}
		c := t[i]
		switch {
		case isNameStart(c):
			j := i + 1
			for j < len(t) && isNameByte(t[j]) {
				j++
			}
			if j < len(t) && t[j] == '[' {
				e := skipSubscript(t, j)
				if e < 0 {
					s.lastTP = i
					s.fail("bad array subscript")
				}
				j = e + 1
			}
			i = j
			continue
		case isDigit(c):
			j := i + 1
			for j < len(t) && (isNameByte(t[j]) || t[j] == '#' || t[j] == '@') {
				j++
			}
			s.number(t[:j], i)
			i = j
		case strings.IndexByte("=><+-*/%&|^~!?:(),", c) < 0:
			s.lastTP = i
			s.fail("syntax error: invalid arithmetic operator")
		}
		break
	}
	s.peekOK = max(s.peekOK, i)
}

// skipSubscript returns the index of the "]" that closes the "[" at i, or -1.
// A backslash escapes the byte after it and quotes hold brackets, as in
// bash's skipsubscript (llmsh: m[x\]y], m['a]']).
func skipSubscript(t string, i int) int {
	depth := 0
	for j := i; j < len(t); j++ {
		switch t[j] {
		case '\\':
			j++
		case '\'', '"':
			k := strings.IndexByte(t[j+1:], t[j])
			if k < 0 {
				return -1 // an unclosed quote takes the rest
			}
			j += 1 + k
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

func (s *arithState) is(op string) bool { return s.tok == atOp && s.op == op }

// number reads a constant as bash's strlong.
func (s *arithState) number(whole string, start int) int64 {
	// Bash ends the text at the number for its errors.
	t := whole[start:]
	fail := func(msg string) {
		panic(arithPanic{&ArithmError{Expr: strings.TrimLeft(whole, " \t"), Msg: msg, Token: t}})
	}
	base := int64(10)
	i := 0
	foundBase := false
	if t[0] == '0' {
		i++
		if len(t) == 1 {
			return 0
		}
		if t[1] == 'x' || t[1] == 'X' {
			base = 16
			i++
		} else {
			base = 8
		}
		foundBase = true
	}
	var val int64
	for ; i < len(t); i++ {
		c := t[i]
		if c == '#' {
			if foundBase {
				fail("invalid number")
			}
			if val < 2 || val > 64 {
				fail("invalid arithmetic base")
			}
			base, val, foundBase = val, 0, true
			if i+1 >= len(t) || digitValue(t[i+1], base) < 0 {
				fail("invalid integer constant")
			}
			continue
		}
		d := digitValue(c, base)
		if d < 0 || d >= base {
			fail("value too great for base")
		}
		val = val*base + d
	}
	return val
}

// digitValue is the value of c as a digit in base, or -1.
func digitValue(c byte, base int64) int64 {
	switch {
	case c >= '0' && c <= '9':
		return int64(c - '0')
	case c >= 'a' && c <= 'z':
		return int64(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		if base <= 36 {
			return int64(c-'A') + 10
		}
		return int64(c-'A') + 36
	case c == '@':
		return 62
	case c == '_':
		return 63
	}
	return -1
}

// unsetArray is set -u's error for NAME[SUB] read when the array NAME
// is not set (unset, or declared without a value): bash's expr_streval
// names the array, before the subscript is evaluated (llmsh). An unset
// element of a set array is 0, as in bash.
func (s *arithState) unsetArray(name string) {
	if !s.ev.cfg.NoUnset {
		return
	}
	base := name[:strings.IndexByte(name, '[')]
	vr := s.ev.cfg.Env.Get(base)
	if vr.Kind == NameRef {
		if n, v := vr.Resolve(s.ev.cfg.Env); n != "" && !strings.Contains(n, "[") {
			vr = v
		}
	}
	if !vr.IsSet() {
		s.failErr(UnsetParameterError{Node: &syntax.ParamExp{Param: &syntax.Lit{Value: base}}, Message: "unbound variable"})
	}
}

// varValue is the value of a variable (or element) as a number: its text
// evaluated as an expression, 0 when empty or unset.
func (s *arithState) varValue(name string) int64 {
	if s.ev.noeval > 0 {
		return 0
	}
	if name == "RANDOM" {
		s.ev.cfg.drawRandomName() // llmsh: each read draws a number
	}
	str, set, err := s.ev.cfg.arithGet(name)
	if err != nil {
		s.failErr(err)
	}
	if !set && s.ev.cfg.NoUnset && strings.IndexByte(name, '[') < 0 { // an element may be unset (bash)
		// llmsh: set -u's error, which ends the shell as bash's does.
		s.failErr(UnsetParameterError{Node: &syntax.ParamExp{Param: &syntax.Lit{Value: name}}, Message: "unbound variable"})
	}
	if str == "" {
		return 0
	}
	if n, ok := plainDecimal(str); ok {
		return n
	}
	if s.ev.depth+1 >= maxArithDepth && strings.TrimLeft(str, " \t\n") != "" {
		// llmsh: bash's error token is this name, where its
		// lexer reads the value (x='1+x': "x", not "1+x").
		s.fail("expression recursion level exceeded")
	}
	v, err := s.ev.eval(str, s.ev.depth+1)
	if err != nil {
		s.failErr(err)
	}
	return v
}

// plainDecimal reads a value that is a decimal number without leading
// zeros, the common case, without the parser.
func plainDecimal(str string) (int64, bool) {
	neg := false
	t := str
	if t[0] == '-' {
		neg, t = true, t[1:]
	}
	if t == "" || len(t) > 18 || t[0] == '0' && len(t) > 1 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(t); i++ {
		if !isDigit(t[i]) {
			return 0, false
		}
		n = n*10 + int64(t[i]-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// arithGet reads a variable, or an element when name is NAME[SUB].
func (cfg *Config) arithGet(name string) (string, bool, error) {
	i := strings.IndexByte(name, '[')
	if i < 0 {
		vr := cfg.Env.Get(name)
		if vr.Kind == NameRef {
			// llmsh: $(( r )) reads the nameref's target.
			if n, _ := vr.Resolve(cfg.Env); n != "" && n != name {
				if n == "RANDOM" {
					cfg.drawRandomName() // llmsh: read through r, it draws
				}
				return cfg.arithGet(n)
			}
		}
		if vr.Kind == Indexed || vr.Kind == Associative {
			s, ok, err := cfg.varInd(vr, nil)
			return s, ok, err
		}
		return vr.String(), vr.IsSet(), nil
	}
	vr := cfg.Env.Get(name[:i])
	if sub := name[i:]; sub == "[]" || (sub == "[@]" || sub == "[*]") && vr.Kind != Associative {
		// llmsh: bash reports it and reads 0; $(( a[@] )) is 0 after
		// bash's message, which ends nothing (an associative array's
		// key @ is read).
		cfg.warn(name + ": bad array subscript")
		return "", false, nil
	}
	base := name[:i]
	if vr.Kind == NameRef {
		// llmsh: $(( r[i] )) reads an element of the nameref's array
		// (and a message names the array, as bash).
		if n, v := vr.Resolve(cfg.Env); n != "" && n != name[:i] && !strings.Contains(n, "[") {
			vr = v
			if v.Declared() {
				base = n // (a nameref to nothing: bash names the nameref)
			}
		}
	}
	w, err := cfg.subscriptWord(name[i:], vr.Kind == Associative)
	if err != nil {
		return "", false, err
	}
	var idx syntax.ArithmExpr = w
	if vr.Kind == Associative {
		idx = rawKey(w)
	}
	// llmsh: a[-5] out of range is bash's `a: bad array subscript`,
	// named after the array, not after an enclosing ${…}.
	oldParam, oldArray := cfg.curParam, cfg.curArray
	cfg.curParam, cfg.curArray = &syntax.ParamExp{Param: &syntax.Lit{Value: base}}, ""
	defer func() { cfg.curParam, cfg.curArray = oldParam, oldArray }()
	return cfg.varIndFresh(name[:i], vr, idx)
}

// warn reports msg through Config.Warn, if any.
func (cfg *Config) warn(msg string) {
	if cfg.Warn != nil {
		cfg.Warn(msg)
	}
}

// fixSubscript evaluates the subscript of NAME[SUB] once, for the
// element's reading and its assignment both (llmsh): bash's a[i++]++
// adds one to i once. The name returned has the key quoted for
// subscriptText or the index as a number.
func (cfg *Config) fixSubscript(name string) (string, error) {
	i := strings.IndexByte(name, '[')
	base, sub := name[:i], name[i+1:len(name)-1]
	if sub == "" || sub == "@" || sub == "*" {
		return name, nil
	}
	if _, ok := plainDecimal(sub); ok {
		return name, nil
	}
	vr := cfg.Env.Get(base)
	if vr.Kind == NameRef {
		if n, v := vr.Resolve(cfg.Env); n != "" && n != base && !strings.Contains(n, "[") {
			vr = v
		}
	}
	if vr.Kind == Associative {
		text, err := cfg.subscriptText(sub)
		if err != nil {
			return "", err
		}
		if text = quoteSubscript(text); text == sub {
			return name, nil
		}
		return base + "[" + text + "]", nil
	}
	text, err := cfg.indexText(sub)
	if err != nil {
		return "", err
	}
	n, err := cfg.ArithmText(text)
	if err != nil {
		return "", subscriptErr(err)
	}
	var b strings.Builder
	b.Grow(len(base) + 22)
	b.WriteString(base)
	b.WriteByte('[')
	b.WriteString(strconv.FormatInt(n, 10))
	b.WriteByte(']')
	return b.String(), nil
}

// subscriptWord is the subscript of "[SUB]" as a word of its text
// expanded: an associative array's key (assoc), an indexed array's
// expression.
func (cfg *Config) subscriptWord(sub string, assoc bool) (*syntax.Word, error) {
	expand := cfg.indexText
	if assoc {
		expand = cfg.subscriptText
	}
	sub, err := expand(sub[1 : len(sub)-1])
	if err != nil {
		return nil, err
	}
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: sub}}}, nil
}

// rawKey is the key that subscriptWord gave, w, as a word that is read
// as it is (llmsh): a backslash in it stays (m[$k] with k='a\b').
func rawKey(w *syntax.Word) syntax.ArithmExpr {
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: w.Lit()}}}
}

// keyWord is an associative array's key word w, quoted when it is @ or *
// (llmsh): (( m[@] = 1 )) names the key @, not every element.
func keyWord(w syntax.ArithmExpr) syntax.ArithmExpr {
	switch k := nodeLit(w); k {
	case "@", "*":
		return &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: k}}}
	}
	return w
}

// quoteSubscript quotes a key that subscriptText is to read as it is:
// a backslash before each of [ ] \ " ' $ `, as bash 5.2 quotes an
// expansion in an arithmetic subscript (m[$k] with k='x]y' is the text
// m[x\]y], which its messages show).
func quoteSubscript(key string) string {
	if !strings.ContainsAny(key, subscriptSpecial+"[]") {
		return key
	}
	var b strings.Builder
	for i := 0; i < len(key); i++ {
		if strings.IndexByte(subscriptSpecial+"[]", key[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(key[i])
	}
	return b.String()
}

// subscriptSpecial are the bytes that subscriptText expands or removes.
const subscriptSpecial = "$`'\"\\"

// subscriptText expands the text of a subscript that the evaluator reads
// (llmsh): as bash 5.2's expand_subscript_string, once, with quotes
// removed and no splitting, so m['a b'], m["$k"] and let 'm[$k]++' name
// the key that ${m[…]} does.
func (cfg *Config) subscriptText(sub string) (string, error) {
	return cfg.expandSubscript(sub, false)
}

// indexText expands the text of an indexed array's subscript that the
// evaluator reads as bash 5.2's array_expand_index does (llmsh): once,
// as if in double quotes, so single quotes stay (a['1'] is an error, as
// is a[\1]) and double quotes go (a["1"]).
func (cfg *Config) indexText(sub string) (string, error) {
	return cfg.expandSubscript(sub, true)
}

// expandSubscript is subscriptText, or indexText when dq.
func (cfg *Config) expandSubscript(sub string, dq bool) (string, error) {
	if !strings.ContainsAny(sub, subscriptSpecial) {
		return sub, nil
	}
	var b strings.Builder
	doc := func(s string) error {
		if s == "" {
			return nil
		}
		if !strings.ContainsAny(s, "$`\\") {
			b.WriteString(s)
			return nil
		}
		w, err := syntax.NewParser().Document(strings.NewReader(s))
		if err != nil {
			return err
		}
		v, err := Document(cfg, w)
		b.WriteString(v)
		return err
	}
	start := 0
	for i := 0; i < len(sub); i++ {
		var lit string
		end := -1
		switch sub[i] {
		case '\'':
			if dq {
				continue
			}
			if j := strings.IndexByte(sub[i+1:], '\''); j >= 0 {
				end = i + 1 + j
				lit = sub[i+1 : end]
			}
		case '"':
			for j := i + 1; j < len(sub); j++ {
				if sub[j] == '\\' {
					j++
				} else if sub[j] == '"' {
					end = j
					break
				}
			}
		case '\\':
			if dq && i+1 < len(sub) && sub[i+1] != '"' {
				i++ // \$, \\, \` for doc; \1 stays
				continue
			}
			if i+1 < len(sub) {
				end = i + 1
				lit = sub[end : end+1]
			}
		}
		if end < 0 {
			continue
		}
		if err := doc(sub[start:i]); err != nil {
			return "", err
		}
		if sub[i] == '"' {
			if err := doc(strings.ReplaceAll(sub[i+1:end], `\"`, `"`)); err != nil {
				return "", err
			}
		} else {
			b.WriteString(lit)
		}
		i, start = end, end+1
	}
	if err := doc(sub[start:]); err != nil {
		return "", err
	}
	return b.String(), nil
}

// arithSet assigns a variable, or an element when name is NAME[SUB].
func (cfg *Config) arithSet(name string, val int64) error {
	return cfg.arithSetText(name, name, val)
}

// arithSetText is arithSet, text naming the target in a message: as
// written, before its subscript was evaluated (llmsh).
func (cfg *Config) arithSetText(name, text string, val int64) error {
	str := strconv.FormatInt(val, 10)
	i := strings.IndexByte(name, '[')
	if i < 0 {
		vr := cfg.Env.Get(name)
		if vr.Kind == NameRef {
			// llmsh: (( r += 2 )) assigns the nameref's target.
			if n, _ := vr.Resolve(cfg.Env); n != "" && n != name {
				return cfg.arithSet(n, val)
			}
			if vr.Str == "" {
				// llmsh: a nameref with no target yet would take
				// the number as the name it refers to: bash
				// reports it and the expression goes on.
				cfg.warn("`" + str + "': not a valid identifier")
				return nil
			}
		}
		if vr.Kind == Indexed || vr.Kind == Associative {
			return cfg.assignElem(name, vr, nil, str)
		}
		if wenv, ok := cfg.Env.(WriteEnviron); ok && vr.Kind != NameRef {
			// llmsh: the variable keeps its attributes, as bash:
			// export C=0; (( C++ )) leaves C exported (-i, -l too).
			vr.Set, vr.Kind, vr.Str = true, String, str
			return wenv.Set(name, vr)
		}
		return cfg.envSet(name, str)
	}
	if name[i:] == "[]" {
		// llmsh: bash reports it and assigns nothing.
		cfg.warn("`" + name + "': not a valid identifier")
		return nil
	}
	base := name[:i]
	vr := cfg.Env.Get(base)
	if vr.Kind == NameRef {
		// llmsh: (( r[i] = 1 )) assigns an element of the nameref's array.
		if n, v := vr.Resolve(cfg.Env); n != "" && n != base && !strings.Contains(n, "[") {
			base, vr = n, v
		}
	}
	if sub := name[i:]; (sub == "[@]" || sub == "[*]") && vr.Kind != Associative {
		// llmsh: (( a[@] = 1 )): bash reports it, assigns nothing and
		// the expression goes on (an associative array's key is @).
		cfg.warn(name + ": bad array subscript")
		return nil
	}
	w, err := cfg.subscriptWord(name[i:], vr.Kind == Associative)
	if err != nil {
		return err
	}
	var idx syntax.ArithmExpr = w
	if vr.Kind == Associative {
		idx = rawKey(w)
	}
	err = cfg.assignElem(base, vr, idx, str)
	if err == errNegativeIndex {
		// llmsh: bash reports a[-5]: bad array subscript and the
		// expression goes on; a[i]-- names a[i] so.
		cfg.warn(text + ": bad array subscript")
		return nil
	}
	return err
}

// assign sets name, a variable or an element, to val; text is name as
// written when its subscript was evaluated, for messages (llmsh).
func (s *arithState) assign(name, text string, val int64) {
	if s.ev.noeval > 0 {
		return
	}
	if text == "" {
		text = name
	}
	if err := s.ev.cfg.arithSetText(name, text, val); err != nil {
		var unset UnsetParameterError
		if _, ok := err.(*ArithmError); !ok && !errors.As(err, &unset) {
			// (set -u's error in a target's subscript, a[nope] = 1,
			// ends the shell as it is.)
			err = &ArithmError{Err: err}
		}
		s.failErr(err)
	}
}

// comma is bash's expcomma, the lowest precedence.
func (s *arithState) comma() int64 {
	v := s.assignExpr()
	for s.is(",") {
		s.next()
		v = s.assignExpr()
	}
	return v
}

func (s *arithState) assignExpr() int64 {
	v := s.cond()
	if s.is("=") || s.tok == atAssignOp {
		special := s.tok == atAssignOp
		op := s.op
		if s.lastTok != atStr {
			s.fail("attempted assignment to non-variable")
		}
		name, text := s.name, s.nameText
		lv := v
		s.next()
		s.down()
		v = s.assignExpr()
		s.up()
		if special {
			switch op[:len(op)-1] {
			case "*":
				lv *= v
			case "/", "%":
				if v == 0 {
					if s.ev.noeval == 0 {
						s.fail("division by 0")
					}
					v = 1
				}
				if op[0] == '/' {
					lv = div(lv, v)
				} else {
					lv = rem(lv, v)
				}
			case "+":
				lv += v
			case "-":
				lv -= v
			case "<<":
				lv <<= uint64(v) & 63
			case ">>":
				lv >>= uint64(v) & 63
			case "&":
				lv &= v
			case "^":
				lv ^= v
			case "|":
				lv |= v
			}
			v = lv
		}
		s.assign(name, text, v)
	}
	return v
}

func div(a, b int64) int64 {
	if a == math.MinInt64 && b == -1 {
		return a
	}
	return a / b
}

func rem(a, b int64) int64 {
	if b == -1 {
		return 0
	}
	return a % b
}

func (s *arithState) cond() int64 {
	c := s.lor()
	if s.is("?") {
		if c == 0 {
			s.ev.noeval++
		}
		s.next()
		if s.tok == atEOF || s.is(":") {
			s.fail("expression expected")
		}
		s.down()
		v1 := s.comma()
		s.up()
		if c == 0 {
			s.ev.noeval--
		}
		if !s.is(":") {
			s.fail("`:' expected for conditional expression")
		}
		if c != 0 {
			s.ev.noeval++
		}
		s.next()
		if s.tok == atEOF {
			s.fail("expression expected")
		}
		s.down()
		v2 := s.cond()
		s.up()
		if c != 0 {
			s.ev.noeval--
		}
		s.lastTok = atNum
		if c != 0 {
			return v1
		}
		return v2
	}
	return c
}

func (s *arithState) lor() int64 {
	v := s.land()
	for s.is("||") {
		skip := v != 0
		if skip {
			s.ev.noeval++
		}
		s.next()
		v2 := s.land()
		if skip {
			s.ev.noeval--
		}
		v = b2i(v != 0 || v2 != 0)
		s.lastTok = atOp
	}
	return v
}

func (s *arithState) land() int64 {
	v := s.bor()
	for s.is("&&") {
		skip := v == 0
		if skip {
			s.ev.noeval++
		}
		s.next()
		v2 := s.bor()
		if skip {
			s.ev.noeval--
		}
		v = b2i(v != 0 && v2 != 0)
		s.lastTok = atOp
	}
	return v
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (s *arithState) bor() int64 {
	v := s.bxor()
	for s.is("|") {
		s.next()
		v |= s.bxor()
		s.lastTok = atNum
	}
	return v
}

func (s *arithState) bxor() int64 {
	v := s.band()
	for s.is("^") {
		s.next()
		v ^= s.band()
		s.lastTok = atNum
	}
	return v
}

func (s *arithState) band() int64 {
	v := s.eq()
	for s.is("&") {
		s.next()
		v &= s.eq()
		s.lastTok = atNum
	}
	return v
}

func (s *arithState) eq() int64 {
	v := s.cmp()
	for s.is("==") || s.is("!=") {
		op := s.op
		s.next()
		v2 := s.cmp()
		v = b2i((v == v2) == (op == "=="))
		s.lastTok = atNum
	}
	return v
}

func (s *arithState) cmp() int64 {
	v := s.shift()
	for s.is("<") || s.is(">") || s.is("<=") || s.is(">=") {
		op := s.op
		s.next()
		v2 := s.shift()
		switch op {
		case "<":
			v = b2i(v < v2)
		case ">":
			v = b2i(v > v2)
		case "<=":
			v = b2i(v <= v2)
		default:
			v = b2i(v >= v2)
		}
		s.lastTok = atNum
	}
	return v
}

func (s *arithState) shift() int64 {
	v := s.add()
	for s.is("<<") || s.is(">>") {
		op := s.op
		s.next()
		v2 := s.add()
		if op == "<<" {
			v <<= uint64(v2) & 63
		} else {
			v >>= uint64(v2) & 63
		}
		s.lastTok = atNum
	}
	return v
}

func (s *arithState) add() int64 {
	v := s.mul()
	for s.is("+") || s.is("-") {
		op := s.op
		s.next()
		v2 := s.mul()
		if op == "+" {
			v += v2
		} else {
			v -= v2
		}
		s.lastTok = atNum
	}
	return v
}

func (s *arithState) mul() int64 {
	v := s.power()
	for s.is("*") || s.is("/") || s.is("%") {
		op := s.op
		after := s.pos
		s.next()
		v2 := s.power()
		if op != "*" && v2 == 0 {
			if s.ev.noeval == 0 {
				for after < len(s.text) && isArithBlank(s.text[after]) {
					after++
				}
				s.failAt("division by 0", after)
			}
			v2 = 1
		}
		switch op {
		case "*":
			v *= v2
		case "/":
			v = div(v, v2)
		default:
			v = rem(v, v2)
		}
		s.lastTok = atNum
	}
	return v
}

func (s *arithState) power() int64 {
	v := s.unary()
	if s.is("**") {
		s.next()
		s.down()
		e := s.power() // right-associative
		s.up()
		s.lastTok = atNum
		if e == 0 {
			return 1
		}
		if e < 0 {
			s.fail("exponent less than 0")
		}
		p := int64(1)
		for e > 0 {
			if e&1 != 0 {
				p *= v
			}
			e >>= 1
			v *= v
		}
		return p
	}
	return v
}

func (s *arithState) unary() int64 {
	switch {
	case s.is("!"):
		s.next()
		s.down()
		v := b2i(s.unary() == 0)
		s.up()
		s.lastTok = atNum
		return v
	case s.is("~"):
		s.next()
		s.down()
		v := ^s.unary()
		s.up()
		s.lastTok = atNum
		return v
	case s.is("-"):
		s.next()
		s.down()
		v := -s.unary()
		s.up()
		s.lastTok = atNum
		return v
	case s.is("+"):
		s.next()
		s.down()
		v := s.unary()
		s.up()
		s.lastTok = atNum
		return v
	}
	return s.primary()
}

func (s *arithState) primary() int64 {
	switch s.tok {
	case atPreInc, atPreDec:
		inc := int64(1)
		if s.tok == atPreDec {
			inc = -1
		}
		s.next()
		if s.tok != atStr {
			s.fail("identifier expected after pre-increment or pre-decrement")
		}
		v := s.val + inc
		s.assign(s.name, s.nameText, v)
		s.tok = atNum
		s.next()
		return v
	case atOp:
		if s.op == "(" {
			s.next()
			s.down()
			v := s.comma()
			s.up()
			if !s.is(")") {
				s.fail("missing `)'")
			}
			s.next()
			return v
		}
	case atNum:
		v := s.val
		s.next()
		return v
	case atStr:
		v := s.val
		name, text := s.name, s.nameText
		s.next()
		if s.tok == atPostInc || s.tok == atPostDec {
			inc := int64(1)
			if s.tok == atPostDec {
				inc = -1
			}
			s.assign(name, text, v+inc)
			s.tok = atNum
			s.next()
		}
		return v
	}
	s.fail("syntax error: operand expected")
	return 0
}

// arithmExp evaluates $(( … )); a Raw one's text is expanded, then
// evaluated (see syntax.ArithmExp).
func (cfg *Config) arithmExp(ae *syntax.ArithmExp) (int, error) {
	if !ae.Raw {
		return ArithmEnd(cfg, ae.X, ae.Right)
	}
	text, err := Literal(cfg, rawArithWord(ae.X.(*syntax.Word)))
	if err != nil {
		return 0, err
	}
	n, err := cfg.ArithmText(text)
	return int(n), err
}

// RawQuoted reports whether expr is the text of an expression that did
// not parse holding a double quote, whose text [ArithmExprText] gives
// with its quotes removed (llmsh).
func RawQuoted(expr syntax.ArithmExpr) bool {
	w, ok := expr.(*syntax.Word)
	return ok && rawQuoted(w)
}

// rawQuoted reports whether w holds a double quote as literal text: the
// parser leaves one so only in the text of an expression that did not
// parse (a Raw text), never in a word it read (llmsh).
func rawQuoted(w *syntax.Word) bool {
	for _, wp := range w.Parts {
		if lit, ok := wp.(*syntax.Lit); ok && unescapedQuote(lit.Value) {
			return true
		}
	}
	return false
}

// unescapedQuote reports a " in s that no backslash escapes.
func unescapedQuote(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return true
		}
	}
	return false
}

// rawArithWord is w, the text of a Raw $(( … )), with the double quotes
// of its own text removed: bash removes them before it evaluates the
// text ($(( "1" "2" )) is the error of `1 2 `); the results of its
// expansions keep theirs, and its backslashes go as in double quotes
// (arithLitText: \" is a quote, \+ stays), single quotes stay (see
// wordText).
func rawArithWord(w *syntax.Word) *syntax.Word {
	var w2 *syntax.Word
	for i, part := range w.Parts {
		lit, ok := part.(*syntax.Lit)
		if !ok || !strings.ContainsAny(lit.Value, `"\`) {
			continue
		}
		if w2 == nil {
			w2 = &syntax.Word{Parts: slices.Clone(w.Parts)}
		}
		var b strings.Builder
		for j := 0; j < len(lit.Value); j++ {
			switch c := lit.Value[j]; {
			case c == '\\' && j+1 < len(lit.Value):
				j++
				if strings.IndexByte("\"\\$`", lit.Value[j]) < 0 {
					b.WriteByte(c) // llmsh: \+ stays, as in bash
				}
				b.WriteByte(lit.Value[j])
			case c != '"':
				b.WriteByte(c)
			}
		}
		// Literal would remove the backslashes left.
		w2.Parts[i] = &syntax.SglQuoted{Left: lit.ValuePos, Right: lit.ValueEnd, Value: b.String()}
	}
	if w2 == nil {
		return w
	}
	return w2
}

// ArithmCmdText is the text that the expression of (( … )) evaluates,
// its expansions done, and whether it had any: set -x shows it, as bash
// (llmsh). [Config.ArithmText] then evaluates it.
func ArithmCmdText(cfg *Config, cm *syntax.ArithmCmd) (text string, expanded bool, err error) {
	if cm.Raw {
		text, err = Literal(cfg, rawArithWord(cm.X.(*syntax.Word)))
		return text, true, err
	}
	return ArithmExprText(cfg, cm.X, cm.Right)
}

// ArithmExprText is [ArithmCmdText] for one expression whose text ends at
// end (if valid): a part of for ((…)), say.
func ArithmExprText(cfg *Config, expr syntax.ArithmExpr, end syntax.Pos) (text string, expanded bool, err error) {
	if RawQuoted(expr) {
		text, err = Literal(cfg, rawArithWord(expr.(*syntax.Word)))
		return text, true, err
	}
	cfg = prepareConfig(cfg)
	var b strings.Builder
	pr := arithPrinter{cfg: cfg, b: &b, quoteBrackets: hasExpChar(expr)}
	if err := pr.print(expr); err != nil {
		return "", false, err
	}
	endGap(&b, cfg, pr.last, end)
	return b.String(), pr.expanded, nil
}

// ArithmCmd evaluates the expression of (( … )).
func ArithmCmd(cfg *Config, cm *syntax.ArithmCmd) (int, error) {
	return cfg.arithmExp(&syntax.ArithmExp{Right: cm.Right, Raw: cm.Raw, X: cm.X})
}

// ArithmCmdInner is [ArithmCmd]; inner reports an error of an expansion
// in the expression's text ($((1/0)) in (( x = $((1/0)) ))), which bash
// reports as an expansion's, not as (( ))'s (llmsh).
func ArithmCmdInner(cfg *Config, cm *syntax.ArithmCmd) (n int, inner bool, err error) {
	if !cm.Raw {
		return arithmEnd(cfg, cm.X, cm.Right)
	}
	text, err := Literal(cfg, rawArithWord(cm.X.(*syntax.Word)))
	if err != nil {
		return 0, true, err
	}
	n64, err := cfg.ArithmText(text)
	return int(n64), false, err
}

// ArithmInner is [Arithm] with [ArithmCmdInner]'s inner (llmsh).
func ArithmInner(cfg *Config, expr syntax.ArithmExpr) (n int, inner bool, err error) {
	return arithmEnd(cfg, expr, syntax.Pos{})
}

// ArithmInnerEnd is [ArithmInner] for an expression whose text ends at
// end (a part of for ((…)): the blanks before end are part of the text
// that an error quotes, as bash's).
func ArithmInnerEnd(cfg *Config, expr syntax.ArithmExpr, end syntax.Pos) (n int, inner bool, err error) {
	return arithmEnd(cfg, expr, end)
}
