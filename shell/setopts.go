package shell

import (
	"context"
	"fmt"
	"strconv"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/interp"
)

// returnArgs answers return outside a function and a sourced file as
// bash does: its message and status 2, and the shell goes on (interp
// says "can only be done from a func or sourced script", status 1). In
// a subshell of a function (whose runner interp does not mark as in a
// function, but which has the function's FUNCNAME), return ends the
// subshell as bash's does: it becomes exit.
func (s *Shell) returnArgs(ctx context.Context, args []string) ([]string, bool) {
	r := currentRunner(ctx)
	if r == nil {
		return nil, false
	}
	if r.InFunc() || r.InSource() {
		return nil, false
	}
	hc := interp.HandlerCtx(ctx)
	if fn := hc.Env.Get("FUNCNAME"); fn.Kind == expand.Indexed && len(fn.List) > 0 && r != s.runner {
		if len(args) == 1 {
			return []string{"exit", strconv.Itoa(hc.LastExitStatus)}, true
		}
		return append([]string{"exit"}, args[1:]...), true
	}
	if len(args) > 1 {
		if _, err := strconv.Atoi(args[1]); err != nil {
			fmt.Fprintf(hc.Stderr, "llmsh: return: %s: numeric argument required\n", args[1])
		}
	}
	fmt.Fprintln(hc.Stderr, "llmsh: return: can only `return' from a function or sourced script")
	return statusArgs(2), true
}

// source FILE ARG…: the call handler runs it as
//
//	eval 'builtin source FILE ARG…; \x01srcpop "$?" K'
//
// \x01srcpop returns the status of source (BASH_SOURCE and FUNCNAME are
// the interpreter's own, third_party/sh/interp/callstack.go).
// A `return` in the file ends the source, not the eval.

const sourcePopCmd = "\x01srcpop"

// sourceArgs answers source FILE ARG… and . FILE ARG….
func (s *Shell) sourceArgs(ctx context.Context, args []string) []string {
	if s.funcs(ctx)[args[0]] != nil || s.funcs(ctx)["builtin"] != nil || currentRunner(ctx) == nil {
		return args
	}
	k := s.state.nonce()
	code := "builtin source"
	for _, a := range args[1:] {
		code += " " + shQuote(a)
	}
	return []string{"eval", code + "\n" + sourcePopCmd + ` "$?" ` + k}
}

// sourcePopCall answers \x01srcpop STATUS K; with a K that sourceArgs did
// not issue (or that was popped) it is no command.
func (s *Shell) sourcePopCall(ctx context.Context, args []string) []string {
	if len(args) != 3 || !s.state.hasNonce(args[2]) {
		return notFound(args[0])
	}
	s.state.dropNonce(args[2])
	st, _ := strconv.Atoi(args[1])
	return statusArgs(st)
}
