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
