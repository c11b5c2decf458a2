package shell

import (
	"context"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/interp"
)

// setShellVar assigns name in the runner that runs the command of ctx
// (its subshell's or its function's scope as an assignment would), through
// the fork's Runner.WriteEnv (TestSetShellVar). It reports whether it could.
func setShellVar(ctx context.Context, name string, vr expand.Variable) bool {
	r := currentRunner(ctx)
	if r == nil {
		return false
	}
	return setRunnerVar(r, name, vr)
}

// setRunnerVar assigns name in the runner r (see setShellVar).
func setRunnerVar(r *interp.Runner, name string, vr expand.Variable) bool {
	env := r.WriteEnv()
	return env != nil && env.Set(name, vr) == nil
}
