// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// llmsh: bash's command_not_found_handle. See LLMSH.md.

import (
	"context"
	"errors"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// notFoundHook is the function bash calls for a command it finds no
// program for.
const notFoundHook = "command_not_found_handle"

// ErrNotFoundHook is what an exec handler returns, instead of saying
// "command not found", for a command it has no program for when
// [HandlerContext.NotFoundHook] is true: the runner then calls the
// script's command_not_found_handle as bash does.
var ErrNotFoundHook = errors.New("interp: command not found: call " + notFoundHook)

// NotFoundHook reports whether the script defines command_not_found_handle
// (a command that exec does not run: exec says "not found" itself).
func (hc HandlerContext) NotFoundHook() bool {
	return hc.runner != nil && hc.runner.Funcs[notFoundHook] != nil
}

// ExecFailed tells the runner that the command of the exec builtin could
// not be run (not found, a directory, a file without an execute bit): the
// shell then goes on under `shopt -s execfail`, as bash's (llmsh).
func (hc HandlerContext) ExecFailed() {
	if hc.runner != nil && hc.Exec {
		hc.runner.execFailed = true
	}
}

// callNotFoundHook runs command_not_found_handle with the command's words
// as its arguments, as bash does in the child it forked to run the
// command: in a subshell, whose status is the command's.
func (r *Runner) callNotFoundHook(ctx context.Context, pos syntax.Pos, args []string) {
	r2 := r.subshell(false)
	r2.subshellLevel-- // a forked command, not a ( … ): $BASH_SUBSHELL stays
	r2.call(ctx, pos, append([]string{notFoundHook}, args...))
	r2.subshellExit(ctx)
	r2.exit.leaveShell()
	if r2.exit.fatalExit {
		r.exit.fatal(r2.exit.err)
		return
	}
	r.exit = r2.exit
}
