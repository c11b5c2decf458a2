// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

import (
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/llmsh/llmsh/third_party/sh/expand"
)

// The state that llmsh's shell layer reads and sets while its remaining
// rewrites of the syntax tree (IFS splitting) still run outside the
// interpreter. Each accessor goes with the rewrite it serves, when that
// behaviour moves into the fork. llmsh: before these, the shell layer
// reached the fields by reflection and unsafe pointers.

// Runner is the runner that calls the handler, nil outside one.
func (hc HandlerContext) Runner() *Runner { return hc.runner }

// WriteEnv is the runner's variables, writable.
func (r *Runner) WriteEnv() expand.WriteEnviron { return r.writeEnv }

// InFunc and InSource report whether the runner runs a function or a
// sourced file.
func (r *Runner) InFunc() bool   { return r.inFunc }
func (r *Runner) InSource() bool { return r.inSource }

// Stderr is the shell's standard error as the script left it (exec
// 2>FILE moves it), or nil before the runner has run.
func (r *Runner) Stderr() io.Writer { return r.stderr }

// LastStatus is $?: the status of the last command run.
func (r *Runner) LastStatus() uint8 { return r.lastExit.code }

// SetTrapsOff says whether the traps' actions (EXIT, ERR, DEBUG,
// RETURN, signals) are kept from running: the embedder's own commands
// (a snapshot's export or restore) run none of the script's code. The
// traps stay set.
func (r *Runner) SetTrapsOff(off bool) { r.trapsOff = off }

// SetCommandString says whether the script that runs is a -c string: as
// in bash, an arithmetic error in a subscript or in an integer
// variable's value then ends the shell, where a script file goes on with
// its next line.
func (r *Runner) SetCommandString(on bool) { r.cString = on }

// SetExecutionString sets $BASH_EXECUTION_STRING to text, the script of
// -c, as bash sets it when it starts with -c.
func (r *Runner) SetExecutionString(text string) {
	if !r.didReset {
		r.Reset()
	}
	r.setVarString("BASH_EXECUTION_STRING", text)
	delete(r.sets, "BASH_EXECUTION_STRING") // the embedder's store, not the Run's
}

// ErrPrefix is what bash puts before a message about the command that
// runs: "NAME: line N: ", NAME being the script or sourced file, or
// llmsh for -c.
func (r *Runner) ErrPrefix() string { return r.errPrefix() }

// GnuErrfmt reports whether shopt gnu_errfmt is on: the shell's own
// messages then start "NAME:N: " (ShellErrPrefix).
func (r *Runner) GnuErrfmt() bool { return r.opts[optGnuErrfmt] && !r.llmsh.atPrompt }

// ShellErrPrefix is ErrPrefix for a message of the shell itself (a
// command not found, a redirection's failure), not of a builtin: under
// shopt -s gnu_errfmt bash writes it "NAME:N: ".
func (r *Runner) ShellErrPrefix() string {
	if r.GnuErrfmt() {
		return fmt.Sprintf("%s:%d: ", r.shellFileName(), r.line)
	}
	return r.errPrefix()
}

// TrackSets starts recording the names of the global variables stored
// or unset from now on (a function's locals and a subshell's variables
// are not), forgetting those recorded before; TrackSets(false) stops.
// A session that ends a run over its memory bound unsets what the run
// stored (llmsh).
func (r *Runner) TrackSets(on bool) {
	r.sets = nil
	if on {
		r.sets = map[string]struct{}{}
	}
	r.paramsTracked = r.paramsGen
	if o := r.topScope(); o != nil {
		o.sets = r.sets
	}
}

// DropBuffers lets go of what the runner's last expansion left in the
// buffers the next reuses (expand.Config.DropBuffers), and of the last
// assignment's value kept for set -x (assignText), between two Runs
// (llmsh).
func (r *Runner) DropBuffers() {
	r.assignText = ""
	if r.ecfg != nil {
		r.ecfg.DropBuffers()
	}
	r.dropStaleExports()
}

// dropStaleExports brings the list [HandlerContext.Exported] keeps up to
// date with the exported variables, or lets go of it when it cannot: it
// holds a copy of every exported value ("NAME=value"), and the scopes it
// was made from, so that after `export big=…; env; unset big` the value
// stayed alive until the next command asked for the list, which a
// session's last Run never does (llmsh, session 33: 48 MB of a 50 MB
// value after its unset; the session's unset of what a Run over its
// memory bound stored freed none of an exported variable's copy).
func (r *Runner) dropStaleExports() {
	c := &r.exports
	if c.list == nil {
		return
	}
	gen := exportGen.Load()
	o, ok := r.writeEnv.(*overlayEnviron)
	if !ok || !c.valid(o, gen) || c.gen != gen && !c.update(gen) {
		*c = exportCache{} // a function's scope it was made from is gone, or too much changed
	}
}

// TrackedSets returns the names TrackSets recorded, unsorted, and _
// when the last command left $_ (a Run's last argument, which a value of
// up to the bound on one kept alive after every variable was unset:
// `echo "$big" >/dev/null`).
func (r *Runner) TrackedSets() []string {
	names := slices.Collect(maps.Keys(r.sets))
	if _, ok := r.sets["_"]; r.sets != nil && r.lastArg != "" && !ok {
		names = append(names, "_")
	}
	if r.sets != nil && r.paramsGen != r.paramsTracked && len(r.Params) != 0 {
		names = append(names, "@") // see UnsetGlobal
	}
	return names
}

// UnsetGlobal unsets the global variable name, readonly or not: the
// session's own unset of what a run over its memory bound stored
// (llmsh).
func (r *Runner) UnsetGlobal(name string) {
	if name == "_" {
		r.lastArg, r.lastArgExported = "", false
	}
	if name == "@" {
		// The positional parameters a Run set (TrackedSets): set --.
		r.Params, r.shiftDropped = nil, 0
		r.paramsGen++
		return
	}
	if o := r.topScope(); o != nil {
		o.set(name, expand.Variable{}, true)
	}
	r.dropStaleExports()
}

// topScope is the runner's scope outside every function, nil before
// its first reset.
func (r *Runner) topScope() *overlayEnviron {
	o, ok := r.writeEnv.(*overlayEnviron)
	for ok && o.funcScope {
		o, ok = o.parent.(*overlayEnviron)
	}
	if !ok {
		return nil
	}
	return o
}
