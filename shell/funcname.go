package shell

import (
	"context"
	"strconv"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// FUNCNAME, which interp does not set. bash gives a running function the
// array of the functions being run, itself first and "main" (the script)
// last. The pre-pass starts the body of each function NAME of the text with
//
//	\x00fname NAME "$?" && (( 1 ))
//
// whose handler assigns FUNCNAME, local to the function (so that the
// caller's comes back when it returns), as NAME followed by the caller's
// FUNCNAME, or by main; it keeps the $? that the function sees (an EXIT
// trap's handler reads it), and, as part of an && list, is ignored by set
// -e and the ERR trap. A function defined in eval's code or a sourced file
// is not rewritten and leaves FUNCNAME as its caller had it.

const funcNameCmd = "\x00fname"

// funcNameStmt starts the body of fd with \x00fname (see above).
func (r *rewriter) funcNameStmt(fd *syntax.FuncDecl) {
	if fd.Name == nil || fd.Body == nil {
		return
	}
	pos := fd.Body.Position
	status := &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{paramExp("?")}}}}
	st := &syntax.Stmt{Position: pos, Cmd: &syntax.BinaryCmd{OpPos: pos, Op: syntax.AndStmt,
		X: &syntax.Stmt{Position: pos, Cmd: &syntax.CallExpr{Args: []*syntax.Word{litWord(funcNameCmd), litWord(fd.Name.Value), status}}},
		Y: trueStmt(pos)}}
	r.markInternal(st)
	var tail []*syntax.Stmt
	if f := r.facts; f == nil || f.dynamic || f.errtrace || setsErrTrap(fd.Body) {
		// \x00errbody "$?"; \x00loopst 0 "$_llmsh_ebst" && (( 1 )):
		// see errBodyCall.
		t1 := &syntax.Stmt{Position: pos, Cmd: &syntax.CallExpr{Args: []*syntax.Word{litWord(errBodyCmd), status}}}
		t2 := &syntax.Stmt{Position: pos, Cmd: &syntax.BinaryCmd{OpPos: pos, Op: syntax.AndStmt,
			X: &syntax.Stmt{Position: pos, Cmd: &syntax.CallExpr{Args: []*syntax.Word{litWord(loopStatusCmd), litWord("0"), quotedParam(errStatusVar)}}},
			Y: trueStmt(pos)}}
		r.markInternal(t1)
		r.markInternal(t2)
		tail = []*syntax.Stmt{t1, t2}
	}
	switch b := fd.Body.Cmd.(type) {
	case *syntax.Block:
		b.Stmts = append(append([]*syntax.Stmt{st}, b.Stmts...), tail...)
	case *syntax.Subshell:
		b.Stmts = append([]*syntax.Stmt{st}, b.Stmts...)
	default:
		inner := &syntax.Stmt{Position: pos, Cmd: fd.Body.Cmd}
		fd.Body.Cmd = &syntax.Block{Lbrace: pos, Rbrace: fd.Body.End(), Stmts: append([]*syntax.Stmt{st, inner}, tail...)}
	}
}

// funcNameCall answers \x00fname NAME STATUS.
func (s *Shell) funcNameCall(ctx context.Context, args []string) []string {
	if len(args) != 3 {
		return statusArgs(2)
	}
	st, _ := strconv.Atoi(args[2])
	caller := interp.HandlerCtx(ctx).Env.Get("FUNCNAME")
	list := []string{args[1]}
	if caller.Kind == expand.Indexed && len(caller.List) > 0 {
		list = append(list, caller.List...)
	} else {
		list = append(list, "main")
	}
	setShellVar(ctx, "FUNCNAME", expand.Variable{Set: true, Local: true, Kind: expand.Indexed, List: list})
	if s.opts.Source != "" {
		// The function was defined in the script's text: its file
		// comes first, then the caller's BASH_SOURCE.
		src := []string{s.opts.Source}
		if c := interp.HandlerCtx(ctx).Env.Get("BASH_SOURCE"); c.Kind == expand.Indexed {
			src = append(src, c.List...)
		}
		setShellVar(ctx, "BASH_SOURCE", expand.Variable{Set: true, Local: true, Kind: expand.Indexed, List: src})
	}
	return s.statusCmd(ctx, st)
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
