package shell

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unicode/utf8"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// Word splitting with an IFS that holds a non-whitespace character.
//
// interp splits the result of an unquoted expansion on every IFS
// character as if each were whitespace: with IFS=: the value "a::b:"
// gives two fields where bash gives three (a, "", b). Bash follows POSIX
// 2.6.5: IFS whitespace (space, tab, newline in IFS) is ignored at the
// start and end and a run of it delimits one field; each other IFS
// character delimits one field, together with the IFS whitespace around
// it, so two in a row delimit an empty field; a delimiter at the very
// end makes no empty last field.
//
// In a script whose text may set IFS to something with a non-whitespace
// character (see needsIFSSplit), the pre-pass rewrites every word that
// is field-split (a command's words, the words of a for loop, the
// elements of an array assignment) and has an unquoted expansion, W, into
//
//	$(<"\x01split ID")"${_llmsh_split[@]}"$(<"\x01split -")
//
// interp reads $(<FILE) through llmsh's open handler in the current
// shell, with no subshell (see arithParts). Opening "\x01split ID"
// expands W's parts with the runner's own expansion, splits them by
// bash's rules, applies pathname expansion to the fields (unless set -f)
// and stores the fields in the array _llmsh_split; the quoted "${…[@]}"
// gives them as they are, empty ones included; opening "\x01split -"
// unsets the array again. The files read empty, and an empty unquoted
// expansion makes no field. The same rules hold when IFS holds only
// whitespace or nothing as the word is expanded (interp's expansion then
// splits as bash does, but takes the quoted parts of ${v:-"…"} for
// unquoted ones, and ${!a[@]} for one field when IFS is empty).
// Scripts that never set IFS so are not rewritten and pay nothing.

const (
	splitFile = "\x01split "
	splitVar  = "_llmsh_split"
)

// splitPass rewrites the field-split words of root that have unquoted
// expansions. It runs after the other rewrites, which it must see in the
// words' parts; nodes already rewritten as other text (r.done) were
// split by the rewriter that made them.
func (r *rewriter) splitPass(root syntax.Node) {
	var words []*syntax.Word
	add := func(w *syntax.Word) {
		if w != nil && !r.done[w] && splitNeeded(w) {
			words = append(words, w)
		}
	}
	addAssign := func(a *syntax.Assign) {
		if a.Array == nil {
			return
		}
		for _, e := range a.Array.Elems {
			if e.Index == nil {
				add(e.Value)
			}
		}
	}
	syntax.Walk(root, func(n syntax.Node) bool {
		if r.done[n] {
			return false
		}
		switch n := n.(type) {
		case *syntax.CallExpr:
			for _, a := range n.Assigns {
				addAssign(a)
			}
			for _, w := range n.Args {
				add(w)
			}
		case *syntax.DeclClause:
			for _, a := range n.Args {
				addAssign(a)
			}
		case *syntax.WordIter:
			for _, w := range n.Items {
				add(w)
			}
		}
		return true
	})
	// The words' parts were walked above with their own words: rewriting
	// a word now only replaces its Parts.
	for _, w := range words {
		parts := w.Parts
		pos, end := w.Pos(), w.End()
		open := func(name string, data any) *syntax.CmdSubst {
			rd := &syntax.Redirect{OpPos: pos, Op: syntax.RdrIn, Word: &syntax.Word{Parts: []syntax.WordPart{
				&syntax.Lit{ValuePos: pos, ValueEnd: pos, Value: name}}}}
			r.st.put(rd, data)
			return &syntax.CmdSubst{Left: pos, Right: end, Stmts: []*syntax.Stmt{{Position: pos, Redirs: []*syntax.Redirect{rd}}}}
		}
		elems := &syntax.ParamExp{Dollar: pos, Rbrace: end, Param: &syntax.Lit{ValuePos: pos, ValueEnd: pos, Value: splitVar},
			Index: litWord("@")}
		w.Parts = []syntax.WordPart{
			open(splitFile+r.st.next(), splitParts(parts)),
			&syntax.DblQuoted{Left: pos, Right: end, Parts: []syntax.WordPart{elems}},
			open(splitFile+"-", nil),
		}
		r.done[w] = true
	}
}

// splitParts are the parts of a word that "\x01split ID" splits.
type splitParts []syntax.WordPart

// splitNeeded reports whether w has an unquoted expansion that field
// splitting applies to. A word with a process substitution is left to
// interp.
func splitNeeded(w *syntax.Word) bool {
	found := false
	for _, p := range w.Parts {
		switch p.(type) {
		case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp:
			found = true
		case *syntax.ProcSubst:
			return false
		}
	}
	return found
}

// splitOpen answers the open of "\x01split ID" (the fields of word ID
// into _llmsh_split) and of "\x01split -" (unset _llmsh_split) with an
// empty file. An expansion error is the file's read error, which interp
// reports as it would have reported it expanding the word itself.
func (s *Shell) splitOpen(ctx context.Context, arg string) (io.ReadWriteCloser, error) {
	ecfg := runnerExpandConfig(currentRunner(ctx))
	if ecfg == nil {
		return nil, redirError(splitFile+arg, syscall.ENOENT)
	}
	env, ok := ecfg.Env.(expand.WriteEnviron)
	if !ok {
		return nil, redirError(splitFile+arg, syscall.ENOENT)
	}
	if arg == "-" {
		env.Set(splitVar, expand.Variable{})
		return valueFile{strings.NewReader("")}, nil
	}
	data, _ := s.state.made(interp.HandlerCtx(ctx).Node)
	parts, ok := data.(splitParts)
	if !ok {
		return nil, redirError(splitFile+arg, syscall.ENOENT)
	}
	// A copy: the runner's own config holds the buffer of the command
	// substitution that is reading this file.
	cfg := *ecfg
	fields, err := splitFields(&cfg, parts)
	if err != nil {
		return nopRWC{r: &errReader{err}}, nil
	}
	if fields == nil {
		fields = []string{}
	}
	if err := env.Set(splitVar, expand.Variable{Set: true, Kind: expand.Indexed, List: fields}); err != nil {
		return nopRWC{r: &errReader{err}}, nil
	}
	return valueFile{strings.NewReader("")}, nil
}

// splitFields expands a word of parts into fields as bash does: brace
// expansion, then the expansions, field splitting by IFS and pathname
// expansion.
func splitFields(cfg *expand.Config, parts []syntax.WordPart) ([]string, error) {
	word := &syntax.Word{Parts: parts}
	ifs := " \t\n"
	if v := cfg.Env.Get("IFS"); v.IsSet() {
		ifs = v.String()
	}
	copied := *word // SplitBraces replaces the Parts of the word it is given
	words := []*syntax.Word{&copied}
	if syntax.SplitBraces(&copied) {
		words = nil
		for w, err := range expand.BracesSeq(cfg, &copied) {
			if err != nil {
				return nil, err
			}
			words = append(words, w)
		}
	}
	var out []string
	for _, w := range words {
		b := chunker{cfg: cfg, ifs: ifs}
		if err := b.parts(w.Parts, false); err != nil {
			return nil, err
		}
		for _, f := range splitChunks(b.chunks, ifs, b.dollarAt) {
			matches, err := globField(cfg, f)
			if err != nil {
				return nil, err
			}
			out = append(out, matches...)
		}
	}
	return out, nil
}

// chunkKind tells how a piece of an expanded word takes part in field
// splitting and pathname expansion.
type chunkKind uint8

const (
	chunkLit    chunkKind = iota // unquoted literal text: a pattern, never split
	chunkQuoted                  // quoted text (maybe empty): neither split nor a pattern; the field exists
	chunkExp                     // the value of an unquoted expansion: split, and a pattern
	chunkBreak                   // a field boundary between the elements of "$@"
	chunkSep                     // a boundary between the elements of $@ when IFS is empty: as IFS whitespace
)

type chunk struct {
	kind chunkKind
	text string
}

// chunker expands word parts into chunks.
type chunker struct {
	cfg    *expand.Config
	ifs    string
	chunks []chunk
	// dollarAt is set when the word has a list expansion ($@, "$@",
	// ${a[@]}, $*…): bash then splits the word's text without first
	// dropping its leading IFS whitespace (see splitChunks).
	dollarAt bool
}

func (b *chunker) add(kind chunkKind, text string) {
	if text == "" && (kind == chunkLit || kind == chunkExp) {
		return
	}
	b.chunks = append(b.chunks, chunk{kind, text})
}

// literal expands parts as interp expands an assignment's value.
func (b *chunker) literal(parts ...syntax.WordPart) (string, error) {
	return expand.Literal(b.cfg, &syntax.Word{Parts: parts})
}

// parts adds the chunks of parts. Inside an unquoted expansion (the word
// of ${v:-WORD}) literal text is part of the expansion's value.
func (b *chunker) parts(parts []syntax.WordPart, inExp bool) error {
	litKind := chunkLit
	if inExp {
		litKind = chunkExp
	}
	for i, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			s := p.Value
			if i == 0 && strings.HasPrefix(s, "~") {
				// The tilde prefix, up to the first slash; a word that
				// goes on with other parts and has no slash has none.
				slash := strings.IndexByte(s, '/')
				if slash >= 0 || len(parts) == 1 {
					prefix := s
					if slash >= 0 {
						prefix = s[:slash]
					}
					home, err := b.literal(&syntax.Lit{ValuePos: p.ValuePos, ValueEnd: p.ValueEnd, Value: prefix})
					if err != nil {
						return err
					}
					b.add(chunkQuoted, home)
					s = s[len(prefix):]
				}
			}
			// An escaped character is quoted; a trailing backslash stays.
			for {
				j := strings.IndexByte(s, '\\')
				if j < 0 || j == len(s)-1 {
					break
				}
				_, size := utf8.DecodeRuneInString(s[j+1:])
				b.add(litKind, s[:j])
				b.add(chunkQuoted, s[j+1:j+1+size])
				s = s[j+1+size:]
			}
			b.add(litKind, s)
		case *syntax.SglQuoted:
			v := p.Value
			if p.Dollar {
				var err error
				if v, err = b.literal(p); err != nil {
					return err
				}
			}
			b.add(chunkQuoted, v)
		case *syntax.DblQuoted:
			// "$@" and "${a[@]}" give a field per element, "" one empty
			// field; no pattern is expanded in a quoted word.
			for _, q := range p.Parts {
				if pe, ok := q.(*syntax.ParamExp); ok && listExp(pe) {
					b.dollarAt = true
				}
			}
			fields, err := expand.Fields(b.cfg, &syntax.Word{Parts: []syntax.WordPart{p}})
			if err != nil {
				return err
			}
			for k, f := range fields {
				if k > 0 {
					b.add(chunkBreak, "")
				}
				b.add(chunkQuoted, f)
			}
		case *syntax.ParamExp:
			if err := b.paramExp(p); err != nil {
				return err
			}
		case *syntax.CmdSubst, *syntax.ArithmExp:
			v, err := b.literal(p)
			if err != nil {
				return err
			}
			b.add(chunkExp, v)
		case *syntax.ExtGlob:
			if !b.cfg.ExtGlob {
				return fmt.Errorf("extended globbing operator used without the \"extglob\" option set")
			}
			b.add(litKind, p.Op.String()+p.Pattern.Value+")")
		default:
			// A process substitution (such words are not rewritten)
			// or a part interp would not expand either.
			v, err := b.literal(p)
			if err != nil {
				return err
			}
			b.add(chunkExp, v)
		}
	}
	return nil
}

// paramExp adds the chunks of an unquoted parameter expansion.
func (b *chunker) paramExp(pe *syntax.ParamExp) error {
	if listExp(pe) {
		// $@, $*, ${a[@]}, ${a[*]} (and their slices, replacements and
		// trims): the elements joined by the first character of IFS,
		// then split as one value, as bash does.
		b.dollarAt = true
		quoted := *pe
		if quoted.Param.Value == "*" {
			quoted.Param = &syntax.Lit{ValuePos: pe.Param.ValuePos, ValueEnd: pe.Param.ValueEnd, Value: "@"}
		}
		if quoted.Index != nil {
			quoted.Index = litWord("@")
		}
		elems, err := expand.Fields(b.cfg, &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{&quoted}}}})
		if err != nil {
			return err
		}
		if b.ifs != "" {
			_, size := utf8.DecodeRuneInString(b.ifs)
			b.add(chunkExp, strings.Join(elems, b.ifs[:size]))
			return nil
		}
		// IFS empty: no splitting, but each element is a field of its
		// own (an empty one is none), as in bash; bash joins by spaces
		// the keys ${!a[*]} and an array's elements trimmed by # or %.
		trim := false
		if pe.Exp != nil {
			switch pe.Exp.Op {
			case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix:
				trim = pe.Param.Value != "@" && pe.Param.Value != "*"
			}
		}
		if trim || pe.Excl && indexLit(pe) == "*" {
			b.add(chunkExp, strings.Join(elems, " "))
			return nil
		}
		for k, e := range elems {
			if k > 0 {
				b.add(chunkSep, "")
			}
			b.add(chunkExp, e)
		}
		return nil
	}
	if pe.Exp != nil && pe.Exp.Word != nil && plainParam(pe) {
		switch op := pe.Exp.Op; op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
			// ${v:-WORD}: the quoted parts of WORD are not split.
			probe := *pe
			probe.Exp = &syntax.Expansion{Op: syntax.AlternateUnset, Word: litWord("set")}
			isSet, err := b.literal(&probe)
			if err != nil {
				return err
			}
			val := ""
			if isSet != "" {
				base := *pe
				base.Exp = nil
				if val, err = b.literal(&base); err != nil {
					return err
				}
			}
			var useWord bool
			switch op {
			case syntax.DefaultUnset:
				useWord = isSet == ""
			case syntax.DefaultUnsetOrNull:
				useWord = val == ""
			case syntax.AlternateUnset:
				useWord = isSet != ""
			case syntax.AlternateUnsetOrNull:
				useWord = val != ""
			}
			if useWord {
				return b.parts(pe.Exp.Word.Parts, true)
			}
			if op == syntax.DefaultUnset || op == syntax.DefaultUnsetOrNull {
				b.add(chunkExp, val)
			}
			return nil
		}
	}
	v, err := b.literal(pe)
	if err != nil {
		return err
	}
	b.add(chunkExp, v)
	return nil
}

// listExp reports whether pe expands the elements of a list ($@, $*,
// ${a[@]}, ${a[*]}, ${!a[@]}), possibly sliced, with a replacement or
// with an operator that applies to each element.
func listExp(pe *syntax.ParamExp) bool {
	if pe.Param == nil || pe.Length || pe.Width || pe.IsSet || pe.Names != 0 {
		return false
	}
	name, index := pe.Param.Value, indexLit(pe)
	if name != "@" && name != "*" && index != "@" && index != "*" {
		return false
	}
	if pe.Excl && (pe.Slice != nil || pe.Repl != nil || pe.Exp != nil) {
		return false
	}
	if pe.Exp != nil {
		switch pe.Exp.Op {
		case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix,
			syntax.UpperFirst, syntax.UpperAll, syntax.LowerFirst, syntax.LowerAll:
		default:
			return false
		}
	}
	return true
}

// indexLit returns the index of pe when it is a literal word (@, *).
func indexLit(pe *syntax.ParamExp) string {
	if w, ok := pe.Index.(*syntax.Word); ok {
		return w.Lit()
	}
	return ""
}

// plainParam reports whether pe names a variable or parameter with no
// other operation than its Exp.
func plainParam(pe *syntax.ParamExp) bool {
	return pe.Param != nil && !pe.Excl && !pe.Length && !pe.Width && !pe.IsSet && pe.Names == 0 &&
		pe.Slice == nil && pe.Repl == nil && !listExp(&syntax.ParamExp{Param: pe.Param, Index: pe.Index})
}

// splitPiece is a piece of a field; pattern pieces take part in pathname
// expansion.
type splitPiece struct {
	text    string
	pattern bool
}

type splitField []splitPiece

// splitChunks splits chunks into fields by IFS, as POSIX 2.6.5 and bash
// do: only the values of unquoted expansions are split. With dollarAt
// (the word has a list expansion), IFS whitespace at the very start is
// a delimiter of its own, which takes a non-whitespace delimiter after it
// with it and makes no field (" :b" gives one field, b, where a word
// without a list expansion gives two, "" and b): bash splits such a word
// as a quoted string, whose leading whitespace is kept.
func splitChunks(chunks []chunk, ifs string, dollarAt bool) []splitField {
	var (
		fields  []splitField
		cur     splitField
		exists  bool // cur is a field, even if empty
		started bool // the word's text has started (a field was or is being made)
		pending bool // IFS whitespace seen after cur's text
		after   bool // a non-whitespace delimiter was just taken: its trailing whitespace is part of it
	)
	emit := func() {
		fields = append(fields, cur)
		cur, exists, started = nil, false, true
	}
	settle := func() {
		if pending && exists {
			emit()
		}
		pending, after = false, false
	}
	for _, c := range chunks {
		switch c.kind {
		case chunkQuoted:
			settle()
			cur = append(cur, splitPiece{c.text, false})
			exists = true
		case chunkLit:
			// A literal character that is in IFS is quoted in a word
			// that is split: bash does not match it as a pattern
			// (IFS='*'; echo $d* gives "$d*").
			settle()
			for t := c.text; t != ""; {
				end := strings.IndexFunc(t, func(r rune) bool { return strings.ContainsRune(ifs, r) })
				if end == 0 {
					_, end = utf8.DecodeRuneInString(t)
					cur = append(cur, splitPiece{t[:end], false})
				} else {
					if end < 0 {
						end = len(t)
					}
					cur = append(cur, splitPiece{t[:end], true})
				}
				t = t[end:]
			}
			exists = true
		case chunkBreak:
			settle()
			if exists {
				emit()
			}
		case chunkSep:
			if !after {
				pending = true
			}
		case chunkExp:
			s := c.text
			for s != "" {
				r, size := utf8.DecodeRuneInString(s)
				if !strings.ContainsRune(ifs, r) {
					end := strings.IndexFunc(s, func(r rune) bool { return strings.ContainsRune(ifs, r) })
					if end < 0 {
						end = len(s)
					}
					settle()
					cur = append(cur, splitPiece{s[:end], true})
					exists = true
					s = s[end:]
					continue
				}
				s = s[size:]
				if r == ' ' || r == '\t' || r == '\n' {
					if !after {
						pending = true
					}
					continue
				}
				// A non-whitespace delimiter ends the field, empty or not,
				// with the whitespace before it.
				if !(dollarAt && pending && !exists && !started) {
					emit()
				}
				pending, after = false, true
			}
		}
	}
	settle()
	if exists {
		emit()
	}
	return fields
}

// globField returns the fields that pathname expansion makes of f: its
// text when it is no pattern, when set -f is on (the runner's config then
// has no ReadDir2) or, without nullglob, when nothing matches. interp's
// expansion does the matching: f becomes a word of unquoted expansions
// (its pattern pieces) and single-quoted strings, which interp globs as
// it globs any other word.
func globField(cfg *expand.Config, f splitField) ([]string, error) {
	candidate := false
	for _, p := range f {
		if p.pattern && strings.ContainsAny(p.text, "*?[") {
			candidate = true
		}
	}
	if !candidate || cfg.ReadDir2 == nil {
		var b strings.Builder
		for _, p := range f {
			b.WriteString(p.text)
		}
		return []string{b.String()}, nil
	}
	vals := map[string]string{}
	word := &syntax.Word{}
	for i, p := range f {
		if !p.pattern {
			word.Parts = append(word.Parts, &syntax.SglQuoted{Value: p.text})
			continue
		}
		name := splitVar + "_" + strconv.Itoa(i)
		vals[name] = p.text
		word.Parts = append(word.Parts, &syntax.ParamExp{Short: true, Param: &syntax.Lit{Value: name}})
	}
	gcfg := *cfg
	gcfg.Env = pieceEnv{cfg.Env, vals}
	gcfg.NoUnset = false
	return expand.Fields(&gcfg, word)
}

// pieceEnv is an environment with the pieces of a field as variables and
// an empty IFS, so that expanding them splits nothing.
type pieceEnv struct {
	expand.Environ
	vals map[string]string
}

func (e pieceEnv) Get(name string) expand.Variable {
	if v, ok := e.vals[name]; ok {
		return expand.Variable{Set: true, Kind: expand.String, Str: v}
	}
	if name == "IFS" {
		return expand.Variable{Set: true, Kind: expand.String}
	}
	return e.Environ.Get(name)
}

// ifsAssignText finds the places in a script's text that may assign IFS
// (IFS=, IFS+=, ${IFS=…}, ${IFS:=…}): one not seen as an assignment in the
// syntax tree is in code only run later (an eval's string).
var ifsAssignText = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|[^A-Za-z0-9_])IFS(\+?=|:?=)`) })

// needsIFSSplit reports whether the script may set IFS to a value with a
// non-whitespace character: an assignment to IFS (IFS=, local/declare/
// export IFS=) whose value is not whitespace written out (IFS=$'\n') or
// a variable the script only sets to such values or to $IFS (the saved
// value restored); an IFS=… prefix to a command that is a function of
// the script; read IFS, for IFS in, printf -v IFS; or "IFS=" in text
// the tree does not show as an assignment (the string of an eval).
// A prefix assignment to any other command (IFS=: read) does not change
// how words are split.
func needsIFSSplit(file *syntax.File, src string) bool {
	if !strings.Contains(src, "IFS") {
		return false
	}
	funcs := map[string]bool{}
	values := map[string][]*syntax.Word{} // the values assigned to each name
	assigned := map[string]bool{}         // names set otherwise (read, for, printf -v)
	type ifsAssign struct {
		value  *syntax.Word
		prefix string // the command it is a prefix of, if any ("" for none)
	}
	var ifsAssigns []ifsAssign
	seen := map[int]bool{} // offsets of IFS in assignments the tree shows
	onAssign := func(a *syntax.Assign, prefix string) {
		if a.Name == nil {
			return
		}
		values[a.Name.Value] = append(values[a.Name.Value], a.Value)
		if a.Name.Value != "IFS" {
			return
		}
		seen[int(a.Name.Pos().Offset())] = true
		if a.Array != nil || a.Append {
			ifsAssigns = append(ifsAssigns, ifsAssign{value: litWord(":"), prefix: prefix})
			return
		}
		ifsAssigns = append(ifsAssigns, ifsAssign{value: a.Value, prefix: prefix})
	}
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.FuncDecl:
			if n.Name != nil {
				funcs[n.Name.Value] = true
			}
		case *syntax.CallExpr:
			prefix := ""
			if len(n.Args) > 0 {
				prefix = "\x00"
				if lit := n.Args[0].Lit(); lit != "" {
					prefix = lit
				}
			}
			for _, a := range n.Assigns {
				onAssign(a, prefix)
			}
			if len(n.Args) > 0 {
				switch n.Args[0].Lit() {
				case "read", "printf", "mapfile", "readarray", "getopts":
					for _, w := range n.Args[1:] {
						assigned[w.Lit()] = true
					}
				}
			}
		case *syntax.DeclClause:
			for _, a := range n.Args {
				onAssign(a, "")
			}
		case *syntax.WordIter:
			if n.Name != nil {
				assigned[n.Name.Value] = true
			}
		}
		return true
	})
	if assigned["IFS"] {
		return true
	}
	// safe reports whether w's value is IFS whitespace only, as written or
	// as a variable that holds such values or IFS's own.
	var safe func(w *syntax.Word, depth int) bool
	safe = func(w *syntax.Word, depth int) bool {
		if w == nil {
			return true
		}
		if staticWord(w) {
			v, err := expand.Literal(nil, w)
			return err == nil && strings.Trim(v, " \t\n") == ""
		}
		name := plainRef(w)
		if name == "" || depth > 4 || assigned[name] {
			return false
		}
		if name == "IFS" {
			return true
		}
		vs, ok := values[name]
		if !ok {
			return false
		}
		for _, v := range vs {
			if !safe(v, depth+1) {
				return false
			}
		}
		return true
	}
	for _, a := range ifsAssigns {
		if a.prefix != "" && !funcs[a.prefix] && a.prefix != "\x00" {
			continue // IFS=: read …: only that command sees it
		}
		if !safe(a.value, 0) {
			return true
		}
	}
	for _, m := range ifsAssignText().FindAllStringSubmatchIndex(src, -1) {
		if at := m[3]; !seen[at] {
			return true
		}
	}
	return false
}

// staticWord reports whether w is made of literals and quotes only.
func staticWord(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if _, ok := q.(*syntax.Lit); !ok {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// plainRef returns NAME if w is $NAME, ${NAME}, "$NAME" or "${NAME}".
func plainRef(w *syntax.Word) string {
	if len(w.Parts) != 1 {
		return ""
	}
	p := w.Parts[0]
	if dq, ok := p.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
		p = dq.Parts[0]
	}
	pe, ok := p.(*syntax.ParamExp)
	if !ok || pe.Param == nil || !syntax.ValidName(pe.Param.Value) || pe.Excl || pe.Length || pe.Width ||
		pe.IsSet || pe.Index != nil || pe.Slice != nil || pe.Repl != nil || pe.Names != 0 || pe.Exp != nil {
		return ""
	}
	return pe.Param.Value
}

// runnerExpandConfig returns the expansion config of r.
func runnerExpandConfig(r *interp.Runner) *expand.Config {
	if r == nil {
		return nil
	}
	return r.ExpandConfig()
}

// errReader is a reader whose every read fails with err.
type errReader struct{ err error }

func (e *errReader) Read([]byte) (int, error) { return 0, e.err }
