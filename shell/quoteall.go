package shell

import (
	"context"
	"strconv"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"mvdan.cc/sh/v3/syntax"
)

// ${a[@]@Q}, ${a[*]@Q}, ${@@Q} and ${*@Q}: bash quotes each element (each
// parameter) as ${v@Q} does; interp does not quote them. The pre-pass runs
//
//	\x00qall V "$?" "${a[@]}" && (( 1 ))
//
// just before the statement that holds one, and the expansion becomes
// ${V[@]} (or ${V[*]}): the handler assigns V the quoted elements and
// keeps $?. Like the anchored replacement, V is computed before the
// statement runs, so an assignment to the array in the same statement
// (a=(x) cmd "${a[@]@Q}") is not seen.

const quoteAllCmd = "\x00qall"

// quoteAllStmt rewrites the ${a[@]@Q} of st (not of statements nested in
// it, which the walk reaches on their own).
func (r *rewriter) quoteAllStmt(st *syntax.Stmt) {
	var pre []*syntax.Stmt
	syntax.Walk(st, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			return n == st
		case *syntax.ParamExp:
			if n.Exp == nil || n.Exp.Op != syntax.OtherParamOps || n.Exp.Word == nil || n.Exp.Word.Lit() != "Q" ||
				n.Param == nil || n.Excl || n.Length || n.Slice != nil || n.Repl != nil {
				return true
			}
			all := n.Param.Value == "@" || n.Param.Value == "*"
			if !all && (n.Index == nil || !isAllIndex(n.Index)) {
				return true
			}
			star := n.Param.Value == "*"
			values := &syntax.ParamExp{Dollar: n.Dollar, Rbrace: n.Rbrace, Param: n.Param, Index: n.Index}
			if all {
				values = &syntax.ParamExp{Param: &syntax.Lit{Value: "@"}}
			} else {
				star = n.Index.(*syntax.Word).Lit() == "*"
				values.Index = litWord("@")
			}
			v := "_llmsh_q" + r.st.next()
			status := &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{paramExp("?")}}}}
			call := &syntax.Stmt{Position: st.Position, Cmd: &syntax.CallExpr{Args: []*syntax.Word{
				litWord(quoteAllCmd), litWord(v), status,
				{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{values}}}}}}}
			rec := &syntax.Stmt{Position: st.Position, Cmd: &syntax.BinaryCmd{OpPos: st.Position, Op: syntax.AndStmt, X: call, Y: trueStmt(st.Position)}}
			r.markInternal(rec)
			pre = append(pre, rec)
			idx := "@"
			if star {
				idx = "*"
			}
			*n = syntax.ParamExp{Dollar: n.Dollar, Rbrace: n.Rbrace, Param: &syntax.Lit{ValuePos: n.Param.ValuePos, Value: v}, Index: litWord(idx)}
			return false
		}
		return true
	})
	if len(pre) == 0 {
		return
	}
	inner := &syntax.Stmt{Position: st.Position, Cmd: st.Cmd, Redirs: st.Redirs, Negated: st.Negated}
	r.markInternal(inner)
	st.Cmd = &syntax.Block{Lbrace: st.Position, Rbrace: st.End(), Stmts: append(pre, inner)}
	st.Redirs, st.Negated = nil, false
}

// quoteAllCall answers \x00qall V STATUS VALUE...
func (s *Shell) quoteAllCall(ctx context.Context, args []string) []string {
	if len(args) < 3 {
		return statusArgs(2)
	}
	st, _ := strconv.Atoi(args[2])
	list := make([]string, 0, len(args)-3)
	for _, a := range args[3:] {
		list = append(list, bashQuote(a))
	}
	if !setShellVar(ctx, args[1], expand.Variable{Set: true, Kind: expand.Indexed, List: list}) {
		return statusArgs(2)
	}
	return s.statusCmd(ctx, st)
}
