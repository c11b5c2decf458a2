package shell

import (
	"context"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// FUNCNAME, BASH_SOURCE, BASH_LINENO and $LINENO in functions are the
// interpreter's own (third_party/sh/interp/callstack.go). What is left
// here is the ERR trap's epilogue of a function body (see errBodyCall),
// which the errexit rewrites still need.

// errBodyStmt ends the body of fd with
//
//	\x00errbody "$?"; \x00loopst 0 "$_llmsh_ebst" && (( 1 ))
//
// when the script may set an ERR trap or errtrace (see errBodyCall).
func (r *rewriter) errBodyStmt(fd *syntax.FuncDecl) {
	if fd.Name == nil || fd.Body == nil {
		return
	}
	if f := r.facts; f != nil && !f.dynamic && !f.errtrace && !setsErrTrap(fd.Body) {
		return
	}
	pos := fd.Body.Position
	status := &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{paramExp("?")}}}}
	t1 := &syntax.Stmt{Position: pos, Cmd: &syntax.CallExpr{Args: []*syntax.Word{litWord(errBodyCmd), status}}}
	t2 := &syntax.Stmt{Position: pos, Cmd: &syntax.BinaryCmd{OpPos: pos, Op: syntax.AndStmt,
		X: &syntax.Stmt{Position: pos, Cmd: &syntax.CallExpr{Args: []*syntax.Word{litWord(loopStatusCmd), litWord("0"), quotedParam(errStatusVar)}}},
		Y: trueStmt(pos)}}
	r.markInternal(t1)
	r.markInternal(t2)
	tail := []*syntax.Stmt{t1, t2}
	switch b := fd.Body.Cmd.(type) {
	case *syntax.Block:
		b.Stmts = append(b.Stmts, tail...)
	case *syntax.Subshell:
	default:
		inner := &syntax.Stmt{Position: pos, Cmd: fd.Body.Cmd}
		fd.Body.Cmd = &syntax.Block{Lbrace: pos, Rbrace: fd.Body.End(), Stmts: append([]*syntax.Stmt{inner}, tail...)}
	}
}

// statusCmd returns a command whose status is st: interp's own : or false
// when no function has their name (cheaper than llmsh's status command).
func (s *Shell) statusCmd(ctx context.Context, st int) []string {
	if st == 0 && s.funcs(ctx)[":"] == nil {
		return []string{":"}
	}
	if st == 1 && s.funcs(ctx)["false"] == nil {
		return []string{"false"}
	}
	return statusArgs(st)
}

// setsErrTrap reports whether the body may set the ERR trap (see
// trapSetHere).
func setsErrTrap(body *syntax.Stmt) bool {
	found := false
	syntax.Walk(body, func(n syntax.Node) bool {
		if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 1 && ce.Args[0].Lit() == "trap" {
			for _, a := range ce.Args[1:] {
				if v := a.Lit(); v == "" || v == "ERR" {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
