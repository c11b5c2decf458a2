package shell

import (
	"context"
	"reflect"
	"strconv"
	"unsafe"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// EXIT traps in subshells. interp runs the EXIT trap at the end of the
// whole run only; bash runs a subshell's own EXIT trap when the subshell
// ends. llmsh runs it at the two ends it can see: `exit` run in a
// subshell (the call handler), and the end of a ( … ) or $( … ) that sets a
// trap (the pre-pass appends \x00subexit "$?"). A subshell ended by set -e does
// not run it.

const subExitCmd = "\x00subexit"

// exitTrap takes the EXIT trap of the runner of ctx, if that runner is
// not the shell's own (a subshell's): it returns the trap and clears it,
// as it is about to run. interp keeps it in an unexported field;
// TestSubshellExitTrap guards this against a change of mvdan.cc/sh.
func (s *Shell) exitTrap(ctx context.Context) (string, bool) {
	r := currentRunner(ctx)
	if r == nil || r == s.runner {
		return "", false
	}
	v := reflect.ValueOf(r).Elem().FieldByName("callbackExit")
	if !v.IsValid() || v.Kind() != reflect.String {
		return "", false
	}
	p := (*string)(unsafe.Pointer(v.UnsafeAddr()))
	cb := *p
	*p = ""
	return cb, cb != ""
}

// exitArgs runs a subshell's EXIT trap before its exit.
func (s *Shell) exitArgs(ctx context.Context, args []string) []string {
	cb, ok := s.exitTrap(ctx)
	if !ok {
		return args
	}
	st := ""
	if len(args) > 1 {
		st = args[1]
		if _, err := strconv.Atoi(st); err != nil {
			return args // interp reports the bad argument
		}
	}
	// The status of exit with no argument is that before the trap runs.
	return []string{"eval", cb + "\nexit " + st}
}

// subExitCall runs at the end of a ( … ) that sets a trap.
func (s *Shell) subExitCall(ctx context.Context, args []string) []string {
	st, _ := strconv.Atoi(args[len(args)-1])
	cb, ok := s.exitTrap(ctx)
	if !ok {
		return statusArgs(st)
	}
	return []string{"eval", cb + "\n(exit " + strconv.Itoa(st) + ")"}
}

// subshellTrap appends \x00subexit "$?" to the statements of a ( … ) or
// a $( … ) that set a trap.
func subshellTrap(n syntax.Node) {
	var stmts *[]*syntax.Stmt
	var last *[]syntax.Comment
	switch n := n.(type) {
	case *syntax.Subshell:
		stmts, last = &n.Stmts, &n.Last
	case *syntax.CmdSubst:
		stmts, last = &n.Stmts, &n.Last
	default:
		return
	}
	traps := false
	syntax.Walk(n, func(n syntax.Node) bool {
		if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 && ce.Args[0].Lit() == "trap" {
			traps = true
		}
		return !traps
	})
	if !traps || len(*stmts) == 0 || isCall((*stmts)[len(*stmts)-1], subExitCmd) {
		return
	}
	pos := n.Pos()
	status := &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{paramExp("?")}}}}
	*stmts = []*syntax.Stmt{
		{Position: pos, Cmd: &syntax.Block{Lbrace: pos, Rbrace: n.End(), Stmts: *stmts, Last: *last}},
		{Position: pos, Cmd: &syntax.CallExpr{Args: []*syntax.Word{litWord(subExitCmd), status}}},
	}
	*last = nil
}

func isCall(st *syntax.Stmt, name string) bool {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	return ok && len(ce.Args) > 0 && ce.Args[0].Lit() == name
}
