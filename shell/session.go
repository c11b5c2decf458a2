package shell

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"sort"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"

	"github.com/llmsh/llmsh/builtins"
	"github.com/llmsh/llmsh/vfsclient"
)

// This file holds what an interactive front end (the REPL in shell/repl)
// needs from a Shell: its state between commands and a way to run one
// chunk of input at a time without ending the session.

// Dir returns the virtual working directory.
func (s *Shell) Dir() string {
	if s.runner.Dir != "" {
		return s.runner.Dir
	}
	return s.opts.Dir
}

// Client returns the session's vfsd client.
func (s *Shell) Client() *vfsclient.Client { return s.client }

// Vars returns the shell's set variables and their values. Before the
// first command has run they are llmsh's defaults.
func (s *Shell) Vars() map[string]string {
	out := map[string]string{}
	vars := s.runner.VarsNow()
	if len(vars) == 0 {
		for _, kv := range append(Defaults(s.opts.Dir), s.opts.Vars...) {
			k, v, _ := strings.Cut(kv, "=")
			out[k] = v
		}
		return out
	}
	for name, vr := range vars {
		if vr.IsSet() {
			out[name] = vr.String()
		}
	}
	return out
}

// Fds describes the shell's descriptors above 2 (exec 3>FILE), for a
// session snapshot.
func (s *Shell) Fds() []interp.FdState { return s.runner.FdStates() }

// SetTrapsOff says whether the traps' actions are kept from running
// (they stay set): the commands that export or restore a session's state
// run none of the script's code.
func (s *Shell) SetTrapsOff(off bool) { s.runner.SetTrapsOff(off) }

// SetDir makes dir the working directory without looking at it, as the
// shell starts in Options.Dir (a restored snapshot's directory, which
// need not be visible here). PWD is the caller's to set.
func (s *Shell) SetDir(dir string) { s.runner.Dir = dir }

// SetAtPrompt says the shell runs commands typed at a terminal: its
// errors then carry no "line N:", as interactive bash's (interp.AtPrompt).
func (s *Shell) SetAtPrompt(on bool) { interp.AtPrompt(on)(s.runner) }

// StartInteractive sets what an interactive bash starts with: aliases are
// expanded (expand_aliases), as the prompt's lines are read.
func (s *Shell) StartInteractive() {
	interp.Interactive(true)(s.runner)
	interp.Invocation("is")(s.runner) // $- as bash's himBHs
}

// HasFunc reports whether the shell defines a function named name.
func (s *Shell) HasFunc(name string) bool {
	_, ok := s.runner.Funcs[name]
	return ok
}

// VarNames returns the names of the shell's variables, set or only
// declared (declare -a x), sorted. Before the first command has run they
// are llmsh's defaults.
func (s *Shell) VarNames() []string {
	var out []string
	vars := s.runner.VarsNow()
	if len(vars) == 0 {
		for _, kv := range append(Defaults(s.opts.Dir), s.opts.Vars...) {
			k, _, _ := strings.Cut(kv, "=")
			out = append(out, k)
		}
	} else {
		for name := range vars {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// CommandNames lists every name that can stand in command position: the
// registered builtins, the interpreter's own builtins, sh/bash/llmsh and
// the functions the session has defined; sorted, without duplicates.
func (s *Shell) CommandNames() []string {
	seen := map[string]bool{}
	for _, n := range shellCommands() {
		seen[n] = true
	}
	for _, b := range builtins.All() {
		seen[b.Name] = true
	}
	for n := range s.runner.Funcs {
		seen[n] = true
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// RunInteractive runs one chunk of interactive input, statement by
// statement, as bash does at its prompt: the EXIT trap does not fire, the
// command budget starts afresh, and a syntax error or a limit ends the chunk
// but not the session. A syntax error is returned (a syntax.ParseError)
// for the caller to show (interp.SyntaxError words it as bash), after the
// whole lines before it have run; the status is then 2. A limit that fires is
// reported on the shell's stderr and the status is 125. Exited reports
// afterwards whether the chunk ran exit.
func (s *Shell) RunInteractive(ctx context.Context, src string) (status int, err error) {
	if err := precheck(src, s.opts.Limits); err != nil {
		s.exited = false
		return 2, err
	}
	return s.runInteractive(ctx, src)
}

// RunState runs src as RunInteractive does, bounding its nesting but not
// its size: src is a session's own state replayed (a snapshot's
// declarations), and a variable may hold more than the script size limit,
// since values have their own bound. Its caller bounds its time and
// memory as a run's.
func (s *Shell) RunState(ctx context.Context, src string) (status int, err error) {
	if err := interp.CheckText(src, len(src), s.opts.Limits.MaxNesting); err != nil {
		s.exited = false
		return 2, err
	}
	return s.runInteractive(ctx, src)
}

// runInteractive is RunInteractive once src is within the text limits.
func (s *Shell) runInteractive(ctx context.Context, src string) (status int, err error) {
	s.exited = false
	file, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		// As bash reads its input: the whole lines before the error run.
		var perr syntax.ParseError
		if errors.As(err, &perr) {
			if read, ok := s.runner.AliasReread(ctx, src, 0, int(perr.Pos.Line()), ""); ok {
				// An alias opens a command that the lines after
				// it close (alias br='{ echo in', then `br` and
				// `}`), as bash reads them at its prompt: the
				// command read, its aliases expanded, then the rest.
				status, err := s.runParsed(ctx, read.File, read.Text, false)
				if err != nil || s.exited || ctx.Err() != nil || blankText(read.Rest) {
					return status, err
				}
				return s.RunInteractive(ctx, read.Rest)
			}
			if prefix := interp.CompleteLines(src, perr); prefix != "" {
				st, _ := s.RunInteractive(ctx, prefix)
				if s.exited || ctx.Err() != nil {
					return st, nil
				}
			}
		}
		return 2, err
	}
	return s.runParsed(ctx, file, src, true)
}

// runParsed runs file, parsed from src, as RunInteractive does; aliases
// says whether its lines' aliases are still to be expanded (they are
// when AliasReread read it).
func (s *Shell) runParsed(ctx context.Context, file *syntax.File, src string, aliases bool) (status int, err error) {
	if err := refuseInternalFuncs(file); err != nil {
		return 2, err
	}
	// A limit that fires cancels this chunk only (through trip).
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.mu.Lock()
	s.cancel, s.tripped, s.tripSaid = cancel, nil, false
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.cancel = nil
		s.mu.Unlock()
	}()
	s.commands.Store(0)
	s.frameCheck.Store(s.firstFrameCheck())
	s.paths.reset()
	// At the prompt, jobs outlive their line (bash's interactive job
	// control, in one process): they run under the session's job
	// context, which a limit, Finish or HangUp ends; fg and bg work.
	interp.JobControl(true)(s.runner)
	s.runner.SetJobContext(s.jobContext(ctx))
	s.runner.SetSource(src) // declare -f prints functions as written
	for i := 0; i < len(file.Stmts); {
		// Line by line, with the aliases of when each line is read.
		stmts, lineSrc, next := file.Stmts, src, len(file.Stmts)
		if aliases {
			var err error
			stmts, lineSrc, next, err = s.runner.AliasedLine(ctx, file.Stmts, i)
			if err != nil {
				return 2, err
			}
		}
		if lineSrc != src {
			s.runner.SetSource(lineSrc)
		}
		stop := s.runLine(ctx, stmts, &status)
		if lineSrc != src {
			s.runner.SetSource(src)
		}
		if stop {
			break
		}
		i = next
	}
	// The interpreter also reports a cancelled run, or one that a limit
	// stopped, as exited.
	s.exited = s.runner.Exited() && ctx.Err() == nil && s.limitErr() == nil
	return status, nil
}

// runLine runs the statements of one line read; stop reports that the
// shell exited or the run was cancelled.
func (s *Shell) runLine(ctx context.Context, stmts []*syntax.Stmt, status *int) (stop bool) {
	for i := 0; i < len(stmts); i++ {
		*status = s.runStmt(ctx, stmts[i])
		if s.runner.Exited() || ctx.Err() != nil {
			return true
		}
		if s.runner.Abandoned() {
			// An expansion error abandons the rest of its line.
			line := stmts[i].End().Line()
			for i+1 < len(stmts) && stmts[i+1].Pos().Line() == line {
				i++
				line = stmts[i].End().Line()
			}
		}
	}
	return false
}

// runStmt runs one statement; an interpreter panic ends the statement
// with status 2 rather than the session.
func (s *Shell) runStmt(ctx context.Context, st *syntax.Stmt) (status int) {
	defer func() {
		if v := recover(); v != nil {
			if s.opts.PanicLog != nil {
				fmt.Fprintf(s.opts.PanicLog, "llmsh: panic: %v\n%s", v, debug.Stack())
			}
			fmt.Fprintln(s.opts.Stderr, "llmsh: internal error")
			status = 2
		}
	}()
	return s.interactiveStatus(ctx, s.runner.Run(ctx, st))
}

// interactiveStatus is the status of one statement at the prompt. Unlike a
// script's, it depends on nothing left from earlier statements: a limit
// that fired ends its own command only.
func (s *Shell) interactiveStatus(ctx context.Context, err error) int {
	if lerr := s.limitErr(); lerr != nil {
		// It may have fired in a background job or a nested shell, and
		// the run then ends as cancelled.
		err = lerr
	}
	return s.errStatus(ctx, err, 130)
}

// Finish ends an interactive session left other than by exit (which runs
// the trap itself): it runs the EXIT trap, if any.
func (s *Shell) Finish(ctx context.Context) {
	_ = s.runner.Run(ctx, &syntax.File{})
	s.hungUp = s.runner.HangUp(s.hangUpWait)
	s.mu.Lock()
	if s.jobsCancel != nil {
		s.jobsCancel()
	}
	s.mu.Unlock()
	s.runner.CloseFds()
}

// EndJobs hangs up the background jobs still running, as the end of a
// script does (RunFile), and returns them as jobs lists them ("sleep 5
// &"): a Session's Run ends its jobs, where the REPL's outlive their
// line. (Under the job context they outlived the Run: a `while :; do :;
// done &` in a serve session burnt a CPU for good, past any time limit.)
func (s *Shell) EndJobs() []string {
	s.psubs.hangUpLists()
	s.hungUp = s.runner.HangUp(s.hangUpWait)
	s.mu.Lock()
	if s.jobsCancel != nil {
		s.jobsCancel() // what the jobs started in turn
	}
	s.mu.Unlock()
	s.settle(s.hangUpWait)
	s.runner.ForgetEnded()
	return s.hungUp
}

// jobContext returns the context of the jobs started at the prompt: it
// outlives each line (not its values' cancellation), and ends when a
// limit fires or the session finishes.
func (s *Shell) jobContext(ctx context.Context) context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.jobsCtx == nil || s.jobsCtx.Err() != nil {
		s.jobsCtx, s.jobsCancel = context.WithCancel(context.WithoutCancel(ctx))
	}
	return s.jobsCtx
}

// FinishedJobs reports the background jobs started at the prompt that
// have ended since the last report ("[1]+  Done    sleep 1"), as bash
// reports them before its prompt.
func (s *Shell) FinishedJobs() []string { return s.runner.FinishedJobs() }

// ForegroundStopper returns the function that stops the command the REPL
// waits for, as Ctrl-Z does in bash: it enters the job table as stopped
// ("[1]+  Stopped  sleep 60") and the line goes on. The function reports
// whether there was one; any goroutine may call it.
func (s *Shell) ForegroundStopper() func() bool { return s.runner.ForegroundStopper() }

// StoppedJobs reports whether a job started at the prompt is stopped.
func (s *Shell) StoppedJobs() bool { return s.runner.StoppedJobs() }

// SetStdin makes f the standard input of the commands run from now on.
// It is an *os.File because the interpreter copies any other reader into
// a pipe eagerly, taking input that is not yet the commands'.
func (s *Shell) SetStdin(f *os.File) error {
	s.state.stdin.Store(f)
	return interp.StdIO(f, s.opts.Stdout, s.opts.Stderr)(s.runner)
}

// SetTerminalStdin is SetStdin for f, a pipe that feeds the command what
// is typed at a terminal (the REPL's): the script sees its stdin as the
// terminal (`[ -t 0 ]`, read -p's prompt; interp.TerminalStdin), and
// quiet, when not nil, turns the terminal's echo off for read -s.
func (s *Shell) SetTerminalStdin(f *os.File, quiet func() (restore func())) error {
	if err := s.SetStdin(f); err != nil {
		return err
	}
	return interp.TerminalStdin(f, quiet)(s.runner)
}

// CompleteSpec returns the words that the `complete` spec of command cmd
// gives for word (prev is the word before it), and whether cmd has one;
// the REPL's Tab completion asks it between command lines.
func (s *Shell) CompleteSpec(cmd, word, prev string) ([]string, bool) {
	return s.runner.CompleteSpec(context.Background(), cmd, word, prev)
}

// SetHistory gives fc the interactive history: entries returns it, oldest
// first, with the line being run last.
func (s *Shell) SetHistory(entries func() []string) error {
	s.history = entries
	return interp.History(entries)(s.runner)
}

// RouteBuiltins sends the named commands to the registered builtins of
// those names, although the interpreter counts them as its own (it lists
// history, for one, and implements it not at all). The builtin's status
// reaches the script as 0 or 1.
func (s *Shell) RouteBuiltins(names ...string) error {
	s.routes = slices.Clone(names) // for nested shells
	route := map[string]bool{}
	for _, n := range names {
		route[n] = true
	}
	return interp.CallHandler(func(ctx context.Context, args []string) ([]string, error) {
		args, err := s.callHandler(ctx, args)
		if err != nil || len(args) == 0 || !route[args[0]] || args[0] == "history" && s.history == nil {
			return args, err // a script's history is the interpreter's
		}
		if s.funcs(ctx)[args[0]] != nil {
			return args, nil // the script's function help() comes first, as in bash
		}
		hc := interp.HandlerCtx(ctx)
		// Its status as it is (help's usage error is 2).
		return nil, interp.ExitStatus(uint8(s.exec(ctx, args, hc.Stdin, hc.Stdout, hc.Stderr, hc.Dir, hc.Exported())))
	})(s.runner)
}

// Name is $0 as the shell was made with it.
func (s *Shell) Name() string { return s.opts.Name }

// TrackSets starts (or, false, stops) recording the global variables
// the script stores or unsets (interp.Runner.TrackSets); TrackedSets
// returns them.
func (s *Shell) TrackSets(on bool) { s.runner.TrackSets(on) }

// VarSize is a variable and about how many bytes of heap its value
// holds.
type VarSize struct {
	Name string
	Size int
}

// TrackedSets returns the variables recorded since TrackSets that are
// set, the biggest first, and "@" for the positional parameters when
// they were set since.
func (s *Shell) TrackedSets() []VarSize {
	env := s.runner.WriteEnv()
	var out []VarSize
	for _, name := range s.runner.TrackedSets() {
		if name == "@" {
			// The positional parameters the Run set ("@" for UnsetGlobal).
			out = append(out, VarSize{name, varSize(expand.Variable{Kind: expand.Indexed, List: s.runner.Params})})
			continue
		}
		if vr := env.Get(name); vr.Declared() {
			out = append(out, VarSize{name, varSize(vr)})
		}
	}
	slices.SortFunc(out, func(a, b VarSize) int { return cmp.Or(cmp.Compare(b.Size, a.Size), strings.Compare(a.Name, b.Name)) })
	return out
}

// varSize is about how many bytes of heap vr's value holds: its
// strings and their headers.
func varSize(vr expand.Variable) int {
	n := len(vr.Str) + 16*len(vr.Indexes)
	for _, v := range vr.List {
		n += len(v) + 16
	}
	for k, v := range vr.Map {
		n += len(k) + len(v) + 48
	}
	return n
}

// DropBuffers lets go of what the last expansion left in the buffers
// the next reuses (interp.Runner.DropBuffers); between two runs.
func (s *Shell) DropBuffers() { s.runner.DropBuffers() }

// UnsetGlobal unsets the global variable name, readonly or not
// (interp.Runner.UnsetGlobal).
func (s *Shell) UnsetGlobal(name string) { s.runner.UnsetGlobal(name) }
