// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

import "github.com/llmsh/llmsh/third_party/sh/expand"

// The state that llmsh's shell layer reads and sets while its remaining
// rewrites of the syntax tree (the ERR trap, compound statuses, IFS
// splitting) still run outside the interpreter. Each accessor goes with
// the rewrite it serves, when that behaviour moves into the fork. llmsh:
// before these, the shell layer reached the fields by reflection and
// unsafe pointers.

// Runner is the runner that calls the handler, nil outside one.
func (hc HandlerContext) Runner() *Runner { return hc.runner }

// ExpandConfig is the runner's expansion configuration.
func (r *Runner) ExpandConfig() *expand.Config { return r.ecfg }

// WriteEnv is the runner's variables, writable.
func (r *Runner) WriteEnv() expand.WriteEnviron { return r.writeEnv }

// NoErrExit reports whether set -e is off where the runner is (a test of
// if, while, && or ||, or after !); SetNoErrExit turns it off there.
func (r *Runner) NoErrExit() bool { return r.noErrExit }

// SetNoErrExit turns set -e off for the runner (a subshell in a test).
func (r *Runner) SetNoErrExit() { r.noErrExit = true }

// ErrTrap is the runner's ERR trap action, "" for none.
func (r *Runner) ErrTrap() string { return r.callbackErr }

// SetErrTrap sets the runner's ERR trap action.
func (r *Runner) SetErrTrap(action string) { r.callbackErr = action }

// HandlingTrap reports whether the runner is running a trap's action.
func (r *Runner) HandlingTrap() bool { return r.handlingTrap }

// InFunc and InSource report whether the runner runs a function or a
// sourced file.
func (r *Runner) InFunc() bool   { return r.inFunc }
func (r *Runner) InSource() bool { return r.inSource }

// LastReturning and LastExiting report whether the last command returned
// from a function or exits the shell.
func (r *Runner) LastReturning() bool { return r.lastExit.returning }
func (r *Runner) LastExiting() bool   { return r.lastExit.exiting }

// LastStatus is $?: the status of the last command run.
func (r *Runner) LastStatus() uint8 { return r.lastExit.code }
