package shell

import (
	"bytes"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
	"mvdan.cc/sh/v3/pattern"
	"regexp"
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/builtins"
)

// This file holds the pre-pass rewrites of the syntax tree that make
// interp v3.14.1 behave as bash where it does not by itself, or keep it
// off the host. Each works on one node.

// rewriter walks a syntax tree parsed from src and rewrites it in place.
type rewriter struct {
	src        string
	done       map[syntax.Node]bool // words made from other text, already rewritten
	pipeStatus bool                 // set PIPESTATUS after pipelines
	piped      map[*syntax.BinaryCmd]bool
	integer    map[string]bool         // names declared -i somewhere in the script
	exprs      map[string]bool         // names that may hold an expression (see exprNames)
	ifsSplit   bool                    // split words by bash's rules (see splitPass)
	loops      map[syntax.Command]bool // loops whose status is set (see loopStatus)
	facts      *loopFacts              // what the script's text shows (nil at the prompt)
	execFd     map[syntax.Node]bool
	internal   map[*syntax.Stmt]bool // statements the pre-pass made (see psList)
	st         *sessionState         // the session's (see state.go)
	bad        map[*syntax.Word]bool // words standing for arithmetic interp's parser refused (see parseScript)
}

// sub is a rewriter for a word made from text, a part of r.src.
func (r *rewriter) sub(text string) *rewriter {
	return &rewriter{src: text, done: r.done, pipeStatus: r.pipeStatus, integer: r.integer, exprs: r.exprs, ifsSplit: r.ifsSplit, st: r.st, bad: r.bad}
}

func (r *rewriter) walk(root syntax.Node) {
	if r.execFd == nil {
		r.execFd = execFdNodes(root)
	}
	syntax.Walk(root, func(n syntax.Node) bool {
		if r.done[n] {
			return false
		}
		r.loopLists(n)
		r.psLists(n)
		switch n := n.(type) {
		case *syntax.FuncDecl:
			if n.Name != nil && n.Body != nil {
				r.st.setFuncSource(n.Body, printFunc("\x00NAME", n.Body))
			}
			r.funcNameStmt(n)
		case *syntax.Stmt:
			r.negatedStmt(n)
			r.loopGroup(n)
			forkFds(n, r.execFd)
			r.procSubstStmt(n)
			r.anchorStmt(n)
			declFuncStmt(n)
			stdRedirStmt(n)
			declListStmt(n)
			r.fdRedirStmt(n)
			execRedirStmt(n)
			r.cstyleLoop(n)
			exitLastElem(n)
			r.pipeErrTrap(n)
			if r.pipeStatus {
				r.pipeStatusStmt(n)
			}
			r.arithStmt(n)
		case *syntax.Word:
			r.arithParts(n.Parts)
		case *syntax.DblQuoted:
			r.arithParts(n.Parts)
		case *syntax.CmdSubst:
			catShortcut(n)
			r.errInherit(n)
			r.noErrExitSub(n, "cmdsubst")
			forkFds(n, r.execFd)
		case *syntax.Subshell:
			r.errInherit(n)
			forkFds(n, r.execFd)
		case *syntax.BinaryCmd:
			forkFds(n, r.execFd)
			if n.Op == syntax.AndStmt || n.Op == syntax.OrStmt {
				r.ignoredSubshells(n.X)
			}
		case *syntax.IfClause:
			r.ignoredSubshells(n.Cond...)
		case *syntax.WhileClause:
			r.ignoredSubshells(n.Cond...)
		case *syntax.CallExpr:
			for _, a := range n.Assigns {
				r.integerAssign(a)
			}
		case *syntax.DeclClause:
			dropEndOfOptions(n)
			dropIntegerFlag(n)
			splitDeclFlags(n)
			for _, a := range n.Args {
				r.integerAssign(a)
			}
		case *syntax.ParamExp:
			if n.Exp != nil && n.Exp.Word != nil {
				switch n.Exp.Op {
				case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix:
					quoteParts(n.Exp.Word.Parts, "glob")
				}
			}
		case *syntax.BinaryTest:
			if n.Op == syntax.TsReMatch {
				if w, ok := n.Y.(*syntax.Word); ok {
					quoteParts(w.Parts, "re")
				}
			}
		case *syntax.Assign:
			if n.Value != nil {
				n.Value.Parts = unescapeLits(n.Value.Parts)
			}
		}
		return true
	})
	if r.ifsSplit {
		r.splitPass(root)
	}
}

// cstyleLoop rewrites `for ((I; C; P)); do BODY; done`, which interp ends
// as soon as an iteration's last command fails, into the equivalent
//
//	{ : $((I)); F=1; while ((F ? (F = 0) : (P), C)); do BODY; done; }
//
// F marks the first test, before which P is not evaluated; continue still
// evaluates P, as it goes to the loop's test. The status is that of the
// last command of the body, or 0, as in bash.
func (r *rewriter) cstyleLoop(st *syntax.Stmt) {
	fc, ok := st.Cmd.(*syntax.ForClause)
	if !ok {
		return
	}
	cl, ok := fc.Loop.(*syntax.CStyleLoop)
	if !ok {
		return
	}
	f := "_llmsh_for" + r.st.next()
	var post, cond syntax.ArithmExpr = arithLit("0"), arithLit("1")
	if cl.Post != nil {
		post = cl.Post
	}
	if cl.Cond != nil {
		cond = cl.Cond
	}
	test := &syntax.BinaryArithm{Op: syntax.Comma,
		X: &syntax.BinaryArithm{Op: syntax.TernQuest, X: arithLit(f),
			Y: &syntax.BinaryArithm{Op: syntax.TernColon,
				X: &syntax.ParenArithm{X: &syntax.BinaryArithm{Op: syntax.Assgn, X: arithLit(f), Y: arithLit("0")}},
				Y: &syntax.ParenArithm{X: post}}},
		Y: cond}
	pos := st.Position
	var stmts []*syntax.Stmt
	if cl.Init != nil {
		stmts = append(stmts, &syntax.Stmt{Position: pos, Cmd: &syntax.CallExpr{Args: []*syntax.Word{
			litWord(":"), {Parts: []syntax.WordPart{&syntax.ArithmExp{X: cl.Init}}}}}})
	}
	stmts = append(stmts,
		&syntax.Stmt{Position: pos, Cmd: &syntax.CallExpr{Assigns: []*syntax.Assign{{Name: &syntax.Lit{Value: f}, Value: litWord("1")}}}},
		&syntax.Stmt{Position: pos, Cmd: &syntax.WhileClause{WhilePos: fc.ForPos, DoPos: fc.DoPos, DonePos: fc.DonePos,
			Cond: []*syntax.Stmt{{Position: pos, Cmd: &syntax.ArithmCmd{Left: pos, X: test}}},
			Do:   fc.Do, DoLast: fc.DoLast}})
	st.Cmd = &syntax.Block{Lbrace: pos, Rbrace: fc.DonePos, Stmts: stmts}
}

func arithLit(s string) *syntax.Word { return litWord(s) }

// Arithmetic whose words hold expansions. interp expands `$x` in
// $(( $x * 2 )) to a number or to 0, where bash expands the text first and
// then evaluates it (x="1+2" gives 5); and it takes a quoted let argument
// (let "a = b + 1") for a single word. The pre-pass hands such arithmetic
// to llmsh as text:
//
//	(( E )) and let ARG...  ->  \x00let "TEXT"...      (then an eval of (( E1, E2 )))
//	$(( E ))                ->  $(<"\x01arith ID")     (when E assigns nothing; ID names "TEXT")
//
// TEXT is E as written, expanded as in double quotes. An arithmetic
// expansion that assigns ($(( i = $i + 1 ))) is left to interp: it must
// assign in the current shell, and its words are numbers in practice.

const (
	letCmd    = "\x00let"
	arithFile = "\x01arith "
)

// hasExpansion reports whether x has a word with an expansion or quotes.
func hasExpansion(x syntax.Node) bool {
	found := false
	syntax.Walk(x, func(n syntax.Node) bool {
		if w, ok := n.(*syntax.Word); ok {
			for _, p := range w.Parts {
				if _, lit := p.(*syntax.Lit); !lit {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// assigns reports whether x assigns a variable.
func assigns(x syntax.Node) bool {
	found := false
	syntax.Walk(x, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.UnaryArithm:
			if n.Op == syntax.Inc || n.Op == syntax.Dec {
				found = true
			}
		case *syntax.BinaryArithm:
			switch n.Op {
			case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn,
				syntax.RemAssgn, syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn:
				found = true
			}
		case *syntax.CmdSubst:
			return false // its own statements
		}
		return !found
	})
	return found
}

// mayDivideByZero reports whether x divides (/ or %) by anything but a
// non-zero number written out. interp reports a division by zero in $(( ))
// and goes on with 0 and status 0; bash ends the shell with status 1, as
// llmsh's evaluation of a rewritten $(( )) does. $((i % 2)) keeps
// interp's faster evaluation.
func mayDivideByZero(x syntax.Node) bool {
	found := false
	syntax.Walk(x, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.BinaryArithm:
			if n.Op == syntax.Quo || n.Op == syntax.Rem {
				w, ok := n.Y.(*syntax.Word)
				if !ok {
					found = true
					break
				}
				if v, err := strconv.ParseInt(w.Lit(), 0, 64); err != nil || v == 0 {
					found = true
				}
			}
		case *syntax.CmdSubst:
			return false
		}
		return !found
	})
	return found
}

// textWord makes the word "TEXT" for the source of x: TEXT parsed as a
// here-document body (expansions active, quotes literal) inside double
// quotes. ok is false if src does not hold x.
func (r *rewriter) textWord(x syntax.Node) (*syntax.Word, bool) {
	src := r.src
	from, to := int(x.Pos().Offset()), int(x.End().Offset())
	if !x.Pos().IsValid() || from > to || to > len(src) {
		return nil, false
	}
	text := strings.TrimSpace(src[from:to])
	if strings.Contains(text, "\n") && strings.Contains(text, "\\\n") {
		text = strings.ReplaceAll(text, "\\\n", "")
	}
	doc, err := syntax.NewParser().Document(strings.NewReader(text))
	if err != nil {
		return nil, false
	}
	neutralize(doc)
	// The new word's positions are offsets in text: rewrite it now, with
	// text as its source, and not again as part of src.
	r.sub(text).walk(doc)
	w := &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Left: x.Pos(), Right: x.End(), Parts: doc.Parts}}}
	r.done[w] = true
	return w, true
}

// arithStmt rewrites (( E )) and let ARG... whose words hold expansions.
func (r *rewriter) arithStmt(st *syntax.Stmt) {
	var words []*syntax.Word
	switch cm := st.Cmd.(type) {
	case *syntax.ArithmCmd:
		if !hasExpansion(cm.X) {
			if !assigns(cm.X) && readsAny(cm.X, r.exprs) {
				if w, ok := r.textWord(cm.X); ok {
					call := &syntax.CallExpr{Args: []*syntax.Word{litWord(arithCmdCmd), litWord(r.st.next())}}
					r.st.put(call, newArithExpr(w, cm.X))
					st.Cmd = call
				}
			}
			return
		}
		w, ok := r.textWord(cm.X)
		if !ok {
			return
		}
		words = append(words, w)
	case *syntax.LetClause:
		if !hasExpansion(cm) {
			return
		}
		for _, x := range cm.Exprs {
			if w, ok := x.(*syntax.Word); ok {
				words = append(words, w)
				continue
			}
			w, ok := r.textWord(x)
			if !ok {
				return
			}
			words = append(words, w)
		}
	default:
		return
	}
	st.Cmd = &syntax.CallExpr{Args: append([]*syntax.Word{litWord(letCmd)}, words...)}
}

// arithParts rewrites each $(( E )) of a word's (or a double-quoted
// string's) parts that holds expansions and assigns nothing into
// $(<"\x01arith ID"), ID naming the word "TEXT" in arithWords. interp
// reads a $(<FILE) through the open handler in the current shell, with no
// subshell; the open handler expands TEXT and evaluates it (see arithOpen).
// FILE is one literal: interp's $(<FILE) shares its output buffer with
// the expansion of FILE, which a word of several parts would leave in it.
func (r *rewriter) arithParts(parts []syntax.WordPart) {
	for i, p := range parts {
		ae, ok := p.(*syntax.ArithmExp)
		if !ok {
			continue
		}
		w, _ := ae.X.(*syntax.Word)
		bad := w != nil && r.bad[w]
		if !bad && (assigns(ae.X) || !hasExpansion(ae.X) && !readsAny(ae.X, r.exprs) && !mayDivideByZero(ae.X)) {
			continue
		}
		tw, ok := r.textWord(ae.X)
		if !ok {
			continue
		}
		expr := newArithExpr(tw, ae.X)
		if bad {
			expr.words = nil // the text, never the placeholder
		}
		file := &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{ValuePos: ae.Left, ValueEnd: ae.Left, Value: arithFile + r.st.next()}}}
		rd := &syntax.Redirect{OpPos: ae.Left, Op: syntax.RdrIn, Word: file}
		r.st.put(rd, expr)
		cs := &syntax.CmdSubst{Left: ae.Left, Right: ae.Right, Stmts: []*syntax.Stmt{{
			Position: ae.Left,
			Redirs:   []*syntax.Redirect{rd},
		}}}
		r.done[cs] = true
		parts[i] = cs
	}
}

// A bare name in arithmetic ($((s)), (( s == 7 ))) whose value is an
// expression (s="3 + 4") is that expression in bash; interp reads the
// value as a number. Arithmetic that reads a name the script may set to
// something other than a number (see exprNames) and assigns nothing is
// rewritten as above, or, for (( E )), into \x00arithcmd ID; the rest keeps
// interp's evaluation, which is faster.

const arithCmdCmd = "\x00arithcmd"

// exprNames returns the names that the script assigns a value other than
// a decimal number or an arithmetic expansion, that a for loop sets to
// another word, or that read sets.
func exprNames(root syntax.Node) map[string]bool {
	names := map[string]bool{}
	syntax.Walk(root, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name != nil && n.Array == nil && n.Value != nil && !numberWord(n.Value) {
				names[n.Name.Value] = true
			}
		case *syntax.WordIter:
			if n.InPos.IsValid() {
				for _, w := range n.Items {
					if !numberWord(w) {
						names[n.Name.Value] = true
					}
				}
			} else {
				names[n.Name.Value] = true
			}
		case *syntax.CallExpr:
			if len(n.Args) > 0 && n.Args[0].Lit() == "read" {
				for _, w := range n.Args[1:] {
					if name := w.Lit(); syntax.ValidName(name) {
						names[name] = true
					}
				}
			}
		}
		return true
	})
	return names
}

// numberWord reports whether w is a decimal number or an arithmetic
// expansion.
func numberWord(w *syntax.Word) bool {
	for i, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.ArithmExp:
		case *syntax.Lit:
			v := p.Value
			if i == 0 {
				v = strings.TrimPrefix(v, "-")
			}
			if strings.Trim(v, "0123456789") != "" {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// readsAny reports whether x has a word that is one of names.
func readsAny(x syntax.Node, names map[string]bool) bool {
	if len(names) == 0 {
		return false
	}
	found := false
	syntax.Walk(x, func(n syntax.Node) bool {
		if w, ok := n.(*syntax.Word); ok && names[w.Lit()] {
			found = true
		}
		return !found
	})
	return found
}

// arithExpr is a rewritten $(( X )): text is X as a word "TEXT"; words
// are the words of X when they are all made of literals and plain
// parameter expansions ($x, ${x}, $1), which expand without side effects.
type arithExpr struct {
	text  *syntax.Word
	x     syntax.ArithmExpr
	words []*syntax.Word
}

func newArithExpr(text *syntax.Word, x syntax.ArithmExpr) *arithExpr {
	var words []*syntax.Word
	simple := true
	syntax.Walk(x, func(n syntax.Node) bool {
		if w, ok := n.(*syntax.Word); ok {
			words = append(words, w)
			for _, p := range w.Parts {
				switch p := p.(type) {
				case *syntax.Lit:
				case *syntax.ParamExp:
					if p.Excl || p.Length || p.Width || p.IsSet || p.Flags != nil || p.Index != nil ||
						p.Slice != nil || p.Repl != nil || p.Names != 0 || p.Exp != nil {
						simple = false
					}
				default:
					simple = false
				}
			}
			return false
		}
		return simple
	})
	if !simple {
		words = nil
	}
	return &arithExpr{text: text, x: x, words: words}
}

// printArithm prints an arithmetic expression (parsed from its own text,
// so that positions do not make the printer break lines) as shell source.
func printArithm(x syntax.ArithmExpr) string {
	var b bytes.Buffer
	syntax.NewPrinter().Print(&b, &syntax.ArithmCmd{X: x})
	out := strings.TrimSpace(b.String())
	return strings.TrimSuffix(strings.TrimPrefix(out, "(("), "))")
}

// Quoted parts of a pattern. Bash matches the quoted parts of the pattern
// in ${v#PAT} ${v%PAT} (and their ## %% forms) and of the regular
// expression in [[ s =~ RE ]] literally; interp expands them to plain
// text, special characters and all. The pre-pass escapes them: a quoted
// part with no expansions becomes an escaped literal; one with expansions
// becomes $(\x00quote KIND "...") which escapes its value when it runs.

const quoteCmd = "\x00quote"

// quoteParts escapes the quoted parts of parts for kind "glob" or "re".
func quoteParts(parts []syntax.WordPart, kind string) {
	quote := globQuote
	if kind == "re" {
		quote = reQuote
	}
	for i, p := range parts {
		switch p := p.(type) {
		case *syntax.SglQuoted:
			if !p.Dollar {
				parts[i] = &syntax.Lit{ValuePos: p.Left, ValueEnd: p.Right, Value: quote(p.Value)}
			}
		case *syntax.DblQuoted:
			text, static := dqLiteral(p)
			if static {
				parts[i] = &syntax.Lit{ValuePos: p.Left, ValueEnd: p.Right, Value: quote(text)}
				continue
			}
			parts[i] = &syntax.CmdSubst{Left: p.Left, Right: p.Right, Stmts: []*syntax.Stmt{{
				Position: p.Left,
				Cmd:      &syntax.CallExpr{Args: []*syntax.Word{litWord(quoteCmd), litWord(kind), {Parts: []syntax.WordPart{p}}}},
			}}}
		}
	}
}

// dqLiteral returns the text of a double-quoted string without
// expansions, its backslash escapes removed.
func dqLiteral(dq *syntax.DblQuoted) (string, bool) {
	var b strings.Builder
	for _, p := range dq.Parts {
		lit, ok := p.(*syntax.Lit)
		if !ok {
			return "", false
		}
		v := lit.Value
		for i := 0; i < len(v); i++ {
			if v[i] == '\\' && i+1 < len(v) && strings.IndexByte("$`\"\\\n", v[i+1]) >= 0 {
				i++
				if v[i] == '\n' {
					continue
				}
			}
			b.WriteByte(v[i])
		}
	}
	return b.String(), true
}

// globQuote escapes s for a pattern. A newline is written [\n], so that a
// command substitution does not drop a trailing one.
func globQuote(s string) string {
	return strings.ReplaceAll(pattern.QuoteMeta(s, 0), "\n", "[\n]")
}

// reQuote escapes s for a regular expression (newline as \n, for the
// same reason).
func reQuote(s string) string {
	return strings.ReplaceAll(regexp.QuoteMeta(s), "\n", `\n`)
}

// dq makes w one field, unglobbed, as the words of [[ ]] are.
func dq(w *syntax.Word) *syntax.Word {
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Left: w.Pos(), Right: w.End(), Parts: w.Parts}}}
}

// bashQuote quotes s as bash's ${s@Q} does.
func bashQuote(s string) string {
	plain := true
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			plain = false
		}
	}
	if plain {
		return shQuote(s)
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' || c == '\'':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			b.WriteString(builtins.BashEscapeByte(c))
		default:
			b.WriteByte(c)
		}
	}
	b.WriteString("'")
	return b.String()
}

// execRedirStmt rewrites `exec >FILE` (exec with redirections only): interp
// never closes a file that exec opened, and vfsd commits a truncating
// write (a temp file renamed over the target) on close, so the output was
// lost. `: >FILE && exec >>FILE` truncates and commits at once, then
// appends in place, which is visible as it is written.
func execRedirStmt(st *syntax.Stmt) {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) != 1 || ce.Args[0].Lit() != "exec" || len(ce.Assigns) > 0 {
		return
	}
	var pre []*syntax.Stmt
	for _, rd := range st.Redirs {
		var op syntax.RedirOperator
		switch rd.Op {
		case syntax.RdrOut, syntax.ClbOut:
			op = syntax.AppOut
		case syntax.RdrAll:
			op = syntax.AppAll
		default:
			continue
		}
		pre = append(pre, &syntax.Stmt{Position: st.Position, Cmd: &syntax.CallExpr{Args: []*syntax.Word{litWord(":")}},
			Redirs: []*syntax.Redirect{{OpPos: rd.OpPos, Op: rd.Op, Word: rd.Word}}})
		rd.Op = op
	}
	if len(pre) == 0 {
		return
	}
	// { : >F && exec >>F; }: when the truncation fails (set -C), exec
	// does not run and the group fails with it.
	end := st.End()
	chain := &syntax.Stmt{Position: st.Position, Cmd: st.Cmd, Redirs: st.Redirs}
	for i := len(pre) - 1; i >= 0; i-- {
		chain = &syntax.Stmt{Position: st.Position, Cmd: &syntax.BinaryCmd{OpPos: st.Position, Op: syntax.AndStmt, X: pre[i], Y: chain}}
	}
	st.Cmd = &syntax.Block{Lbrace: st.Position, Rbrace: end, Stmts: []*syntax.Stmt{chain}}
	st.Redirs = nil
}

// dropEndOfOptions removes the "--" that ends a declaration's options
// (declare -- X=1, local -- y, export -- Z): interp takes it for a name.
func dropEndOfOptions(dc *syntax.DeclClause) {
	for i, a := range dc.Args {
		if !a.Naked || a.Name != nil || a.Value == nil {
			return
		}
		lit := a.Value.Lit()
		if lit == "--" {
			dc.Args = append(dc.Args[:i:i], dc.Args[i+1:]...)
			return
		}
		if !strings.HasPrefix(lit, "-") && !strings.HasPrefix(lit, "+") {
			return
		}
	}
}

// catCmd is the name under which $(<FILE) runs llmsh's cat when FILE is
// a word of several parts: no script function can shadow it.
const catCmd = "\x00cat"

// catShortcut turns $(<WORD) into $(\x00cat <WORD) when WORD has several
// parts ("$d/x", ./$f): interp v3.14.1 expands such a word into the
// buffer it is writing the substitution to, so the path came out in
// front of the file's contents ($(<"./$f") gave "./xhi").
func catShortcut(cs *syntax.CmdSubst) {
	if len(cs.Stmts) != 1 {
		return
	}
	st := cs.Stmts[0]
	if st.Cmd != nil || st.Negated || st.Background || st.Coprocess || st.Disown || len(st.Redirs) != 1 {
		return
	}
	r := st.Redirs[0]
	if r.Op != syntax.RdrIn || r.Word == nil || len(r.Word.Parts) == 1 && !isDblQuotedMulti(r.Word.Parts[0]) {
		return
	}
	st.Cmd = &syntax.CallExpr{Args: []*syntax.Word{litWord(catCmd)}}
}

// isDblQuotedMulti reports whether p is a double-quoted string of several
// parts, which interp joins in the same shared buffer.
func isDblQuotedMulti(p syntax.WordPart) bool {
	dq, ok := p.(*syntax.DblQuoted)
	return ok && len(dq.Parts) > 1
}
