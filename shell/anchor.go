package shell

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
	"mvdan.cc/sh/v3/pattern"
)

// Anchored replacement. interp's parser takes the # of ${v/#pat/rep} (and
// the % of ${v/%pat/rep}) for a literal character. The pre-pass turns a
// statement S that holds such an expansion into
//
//	{ \x00anchor V OP MODE "$?" "PAT" "REP" "${v[@]}"; S'; }
//
// where S' reads ${V[@]} (or $V) in its place: \x00anchor does the
// replacement on each value in Go and assigns the results to V.

const anchorCmd = "\x00anchor"

// anchorStmt rewrites st if its own words hold anchored replacements.
func (r *rewriter) anchorStmt(st *syntax.Stmt) {
	var pre []*syntax.Stmt
	status := &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{paramExp("?")}}}}
	syntax.Walk(st, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			return n == st
		case *syntax.ParamExp:
			if n.Repl == nil || n.Repl.All || n.Repl.Orig == nil || len(n.Repl.Orig.Parts) == 0 || n.Param == nil ||
				n.Excl || n.Length || n.Slice != nil || n.Exp != nil {
				return true
			}
			lit, ok := n.Repl.Orig.Parts[0].(*syntax.Lit)
			if !ok || lit.Value == "" || (lit.Value[0] != '#' && lit.Value[0] != '%') {
				return true
			}
			op := lit.Value[:1]
			orig := append([]syntax.WordPart{&syntax.Lit{ValuePos: lit.ValuePos, ValueEnd: lit.ValueEnd, Value: lit.Value[1:]}}, n.Repl.Orig.Parts[1:]...)
			quoteParts(orig, "glob")
			mode, idx := "s", syntax.ArithmExpr(nil)
			switch {
			case n.Index != nil && isAllIndex(n.Index):
				mode, idx = "a", n.Index
			case n.Param.Value == "@" || n.Param.Value == "*":
				mode, idx = "a", litWord(n.Param.Value)
			}
			v := "_llmsh_rep" + r.st.next()
			with := []syntax.WordPart{}
			if n.Repl.With != nil {
				with = n.Repl.With.Parts
			}
			values := &syntax.ParamExp{Dollar: n.Dollar, Rbrace: n.Rbrace, Param: n.Param, Index: n.Index}
			if mode == "a" && n.Index != nil {
				values.Index = litWord("@")
			}
			if n.Param.Value == "*" {
				values.Param = &syntax.Lit{Value: "@"} // one value per parameter
			}
			pre = append(pre, &syntax.Stmt{Position: st.Position, Cmd: &syntax.CallExpr{Args: []*syntax.Word{
				litWord(anchorCmd), litWord(v), litWord(op), litWord(mode), status,
				{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: orig}}},
				{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: with}}},
				{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{values}}}},
			}}})
			*n = syntax.ParamExp{Dollar: n.Dollar, Rbrace: n.Rbrace, Param: &syntax.Lit{ValuePos: n.Param.ValuePos, Value: v}, Index: idx}
			return false
		}
		return true
	})
	if len(pre) == 0 {
		return
	}
	end := st.End()
	inner := &syntax.Stmt{Position: st.Position, Cmd: st.Cmd, Redirs: st.Redirs}
	st.Cmd = &syntax.Block{Lbrace: st.Position, Rbrace: end, Stmts: append(pre, inner)}
	st.Redirs = nil
}

// anchorCall answers \x00anchor V OP MODE STATUS PAT REP VALUE...
func anchorCall(_ context.Context, args []string) []string {
	if len(args) < 7 {
		return statusArgs(2)
	}
	v, op, mode, pat, rep, values := args[1], args[2], args[3], args[5], args[6], args[7:]
	st, _ := strconv.Atoi(args[4])
	var rx *regexp.Regexp
	if pat != "" {
		expr, err := pattern.Regexp(pat, 0)
		if err == nil {
			if op == "#" {
				expr = "^(?:" + expr + ")"
			} else {
				expr = "(?:" + expr + ")$"
			}
			rx, err = regexp.Compile("(?s)" + expr)
		}
		if err != nil {
			rx = nil
			pat = "\x00" // matches nothing
		}
		if rx != nil {
			rx.Longest()
		}
	}
	out := make([]string, len(values))
	for i, s := range values {
		switch {
		case pat == "" && op == "#":
			out[i] = rep + s
		case pat == "" && op == "%":
			out[i] = s + rep
		case rx == nil:
			out[i] = s
		default:
			if loc := rx.FindStringIndex(s); loc != nil {
				out[i] = s[:loc[0]] + rep + s[loc[1]:]
			} else {
				out[i] = s
			}
		}
	}
	var src strings.Builder
	src.WriteString(v + "=")
	if mode == "a" {
		src.WriteString("(")
		for i, s := range out {
			if i > 0 {
				src.WriteString(" ")
			}
			src.WriteString(shQuote(s))
		}
		src.WriteString(")")
	} else if len(out) > 0 {
		src.WriteString(shQuote(out[0]))
	}
	if st != 0 {
		src.WriteString("; (exit " + strconv.Itoa(st) + ")")
	}
	return []string{"eval", src.String()}
}

// shQuote quotes s as one single-quoted shell word.
func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// isAllIndex reports whether x is the subscript @ or *.
func isAllIndex(x syntax.ArithmExpr) bool {
	w, ok := x.(*syntax.Word)
	return ok && (w.Lit() == "@" || w.Lit() == "*")
}
