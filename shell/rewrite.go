package shell

import (
	"github.com/llmsh/llmsh/third_party/sh/syntax"
	"mvdan.cc/sh/v3/pattern"
	"regexp"
	"strings"

	"github.com/llmsh/llmsh/builtins"
)

// This file holds the pre-pass rewrites of the syntax tree that make
// interp v3.14.1 behave as bash where it does not by itself, or keep it
// off the host. Each works on one node.

// rewriter walks a syntax tree parsed from src and rewrites it in place.
type rewriter struct {
	src      string
	done     map[syntax.Node]bool // words made from other text, already rewritten
	ifsSplit bool                 // split words by bash's rules (see splitPass)
	st       *sessionState        // the session's (see state.go)
}

func (r *rewriter) walk(root syntax.Node) {
	syntax.Walk(root, func(n syntax.Node) bool {
		if r.done[n] {
			return false
		}
		switch n := n.(type) {
		case *syntax.CmdSubst:
			catShortcut(n)
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

// Quoted parts of a pattern. Bash matches the quoted parts of the regular
// expression in [[ s =~ RE ]] (and of the pattern of an anchored
// replacement, anchor.go) literally; interp expands them to plain text,
// special characters and all (the fork quotes those of ${v#PAT} itself). The pre-pass escapes them: a quoted
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

// shQuote quotes s as one single-quoted shell word.
func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
