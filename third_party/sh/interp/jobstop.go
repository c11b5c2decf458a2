// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// This file holds the cooperative stop of a job (llmsh): a job is a
// goroutine, which cannot be suspended, so each job has a gate that its
// code passes at its blocking and I/O points (between commands, at the
// end of the job, and through StopPoint in the handlers: the reads and
// writes of a command, the end of its run) and that holds it while the
// job is stopped (kill -STOP/-TSTP/-TTIN/-TTOU, Ctrl-Z at the REPL) until
// kill -CONT, bg or fg continues it. Timers go on while a job is
// stopped: `sleep 60` stopped for a minute ends as soon as it continues,
// as a stopped process's sleep counts wall time. See LLMSH.md.

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// Stop signals: their default action stops a process.
const (
	sigCONT = 18
	sigSTOP = 19
	sigTSTP = 20
	sigTTIN = 21
	sigTTOU = 22
)

// sigStops reports whether sig's default action stops a process.
func sigStops(sig int) bool {
	return sig == sigSTOP || sig == sigTSTP || sig == sigTTIN || sig == sigTTOU
}

// jobGate is where the goroutines of a job wait while it is stopped; a
// job started inside another passes its parent's gate too, as a
// process stops with its process group.
type jobGate struct {
	parent *jobGate

	mu sync.Mutex
	// cont is closed when the stopped job continues; nil while it runs.
	cont chan struct{}
	// stopped is closed when the running job stops (and replaced when
	// it continues), for whoever waits for the job in the foreground.
	stopped chan struct{}
	// waiting counts the goroutines waiting at the gate (tests observe
	// that a stopped job has come to a halt).
	waiting atomic.Int32

	// The end of the script that started the job (HangUp's grace): a
	// job still running goes on until it blocks (enters a command that
	// waits: sleep, wait) or has passed graceSteps stop points,
	// and is then hung up (hup), so that a job whose output is ready
	// (echo a &) keeps it, while none keeps the run alive.
	ending   atomic.Bool
	budget   atomic.Int32
	blocking atomic.Int32 // goroutines of the job in a command that waits
	hupOnce  sync.Once
	hup      func()
	hungUp   atomic.Bool
}

// graceSteps is how many stop points (commands, reads, writes) a job
// passes after its script has ended before it is hung up.
const graceSteps = 256

// root is the gate of the outermost job g runs in.
func (g *jobGate) root() *jobGate {
	for g.parent != nil {
		g = g.parent
	}
	return g
}

// hangup hangs the job up, once.
func (g *jobGate) hangup() {
	g.hupOnce.Do(func() {
		g.hungUp.Store(true)
		if g.hup != nil {
			g.hup()
		}
	})
}

// step counts a stop point of a job whose script has ended.
func (g *jobGate) step() {
	if g == nil {
		return
	}
	if g = g.root(); g.ending.Load() && g.budget.Add(-1) <= 0 {
		g.hangup()
	}
}

// blockingCmds wait for time or for other jobs: a job whose script has
// ended is hung up as it runs one (HangUp). (read waits only on a pipe
// or a terminal: graceWait bounds that.)
var blockingCmds = map[string]bool{"sleep": true, "wait": true}

// enterBlocking notes that a goroutine of the job enters a command that
// waits; the function it returns notes that it has left it.
func (g *jobGate) enterBlocking() func() {
	g = g.root()
	g.blocking.Add(1)
	if g.ending.Load() {
		g.hangup()
	}
	return func() { g.blocking.Add(-1) }
}

func newJobGate(parent *jobGate) *jobGate {
	return &jobGate{parent: parent, stopped: make(chan struct{})}
}

// stop stops the job; it reports whether the job was running.
func (g *jobGate) stop() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cont != nil {
		return false
	}
	g.cont = make(chan struct{})
	close(g.stopped)
	return true
}

// resume continues the job; it reports whether the job was stopped.
func (g *jobGate) resume() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cont == nil {
		return false
	}
	close(g.cont)
	g.cont = nil
	g.stopped = make(chan struct{})
	return true
}

// isStopped reports whether the job itself is stopped.
func (g *jobGate) isStopped() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.cont != nil
}

// stopEvent is closed when the job next stops.
func (g *jobGate) stopEvent() <-chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.stopped
}

// held returns the channel to wait on while g or a gate above it is
// stopped, or nil when none is.
func (g *jobGate) held() <-chan struct{} {
	for ; g != nil; g = g.parent {
		g.mu.Lock()
		c := g.cont
		g.mu.Unlock()
		if c != nil {
			return c
		}
	}
	return nil
}

// pass returns when neither the job nor a job it runs in is stopped, or
// with false when done is closed first. A nil gate passes at once.
func (g *jobGate) pass(done <-chan struct{}) bool {
	for {
		c := g.held()
		if c == nil {
			return true
		}
		g.waiting.Add(1)
		select {
		case <-c:
			g.waiting.Add(-1)
		case <-done:
			g.waiting.Add(-1)
			return false
		}
	}
}

type jobGateKey struct{}

// withGate is ctx carrying the gate of the job that runs under it.
func withGate(ctx context.Context, g *jobGate) context.Context {
	return context.WithValue(ctx, jobGateKey{}, g)
}

// StopPoint is where the code of a command passes the stop gate of the
// job it runs in (a read, a write, the end of a wait): it returns at once
// unless that job is stopped, and then when it continues, or with ctx's
// error when ctx ends first (a limit, the end of the run). Outside a job
// it returns nil at once.
func StopPoint(ctx context.Context) error {
	g, _ := ctx.Value(jobGateKey{}).(*jobGate)
	g.step()
	if g == nil || g.held() == nil {
		return nil
	}
	if !g.pass(ctx.Done()) {
		return ctx.Err()
	}
	return nil
}

// Stoppable reports whether ctx is that of a job, which kill -STOP or
// Ctrl-Z can stop: its commands should pass StopPoint.
func Stoppable(ctx context.Context) bool {
	g, _ := ctx.Value(jobGateKey{}).(*jobGate)
	return g != nil
}

// passGate passes the gate of the job that r runs in, between commands.
func (r *Runner) passGate(ctx context.Context) {
	if r.gate != nil {
		r.gate.step()
		r.gate.pass(ctx.Done())
	}
}

// foregroundJobs reports whether r runs its commands as jobs that Ctrl-Z
// can stop: the commands typed at a terminal's prompt (JobControl and
// AtPrompt: the REPL), not those of a job, a subshell or exec. Other
// surfaces have no Ctrl-Z and keep the cheaper direct run.
func (r *Runner) foregroundJobs() bool {
	// The runner's own fields first: a job's goroutines (which have a
	// gate) never read the session's flags, which the REPL sets.
	return r.gate == nil && r.bashPid == r.llmsh.pid && !r.inExec && !r.inExecBuiltin &&
		r.llmsh.jobControl && r.llmsh.atPrompt
}

// execForeground runs a command of the interactive shell (one that the
// exec handler runs: a process, in bash) as a job in the foreground,
// which Ctrl-Z can stop (ForegroundStopper): it then enters the table as
// stopped, and the shell goes on with status 128+N, as bash's; fg, bg
// and kill -CONT continue it. It runs on a subshell of r, as a process
// has its own copy of the environment.
func (r *Runner) execForeground(ctx context.Context, pos syntax.Pos, args []string) {
	r2 := r.subshell(true)
	r2.node, r2.inCommand, r2.stdPath, r2.execArgv0, r2.execNoEnv = r.node, r.inCommand, r.stdPath, r.execArgv0, r.execNoEnv
	j, jctx := r.newJob(r.jobBase(ctx))
	r.llmsh.fg.Store(j) // before it runs: Ctrl-Z from now on stops it
	j.text = strings.Join(args, " ")
	if cm, ok := r.curCmd.(*syntax.CallExpr); ok && r.curText == "" {
		j.text = jobStmtText(&syntax.Stmt{Cmd: cm, Redirs: r.curRedirs}, r.text.src)
	}
	hctx := r2.handlerCtx(jctx, handlerKindExec, pos)
	held := r.holdRedirs()
	go func() {
		var exit exitStatus
		if err := r2.execHandler(hctx, args); err == ErrNotFoundHook {
			r2.callNotFoundHook(jctx, pos, args) // notfound.go
			exit = r2.exit
		} else {
			exit.fromHandlerError(err)
		}
		releaseRedirs(held) // before the wait for it returns
		j.finish(r2, exit)
	}()
	var stopped bool
	if r.exit, stopped = r.waitForeground(ctx, j); !stopped {
		r.exit = *j.exit // the handler's own, a fatal error too
	}
}

// subshellForeground runs ( … ) of the interactive shell as a job in the
// foreground, which Ctrl-Z can stop, as execForeground: r2 is the
// subshell.
func (r *Runner) subshellForeground(ctx context.Context, r2 *Runner, cm *syntax.Subshell) {
	j, jctx := r.newJob(r.jobBase(ctx))
	r.llmsh.fg.Store(j) // before it runs: Ctrl-Z from now on stops it
	j.text = jobStmtText(&syntax.Stmt{Cmd: cm}, r.text.src)
	r2.gate = j.gate
	go func() {
		r2.stmts(jctx, cm.Stmts)
		r2.subshellExit(jctx)
		r2.exit.leaveShell()
		j.finish(r2, r2.exit)
	}()
	var stopped bool
	r.exit, stopped = r.waitForeground(ctx, j)
	if !stopped && r2.exit.fatalExit {
		r.exit.fatal(r2.exit.err)
	}
}

// waitForeground waits for job j in the foreground (a command at the
// prompt, fg): until it ends, with its status; until it stops (Ctrl-Z),
// when it is reported as bash reports it ("[1]+  Stopped  sleep 60"),
// with status 128+N; or until ctx ends (Ctrl-C), when the job gets
// SIGINT, as a job in the foreground does. stopped says that it stopped.
func (r *Runner) waitForeground(ctx context.Context, j *bgProc) (exit exitStatus, stopped bool) {
	r.llmsh.fg.Store(j)
	defer r.llmsh.fg.Store(nil)
	select {
	case <-j.done:
	case <-j.gate.stopEvent():
		if j.num == 0 {
			j.num = r.nextJobNum()
			r.pruneJobs()
			r.bgProcs = append(r.bgProcs, j)
		}
		j.mu.Lock()
		j.stopShown = true
		sig := j.stopSig
		j.mu.Unlock()
		r.errf("\n%s", r.jobLine(j, false))
		return exitStatus{code: uint8(128 + sig)}, true
	case <-ctx.Done():
		j.mu.Lock()
		if !j.finished() && j.sig == 0 {
			j.sig = sigINT
			j.cancel()
			j.gate.resume()
		}
		j.reaped = true // it was in the foreground: not listed again
		j.mu.Unlock()
		<-j.done
	}
	exit = *j.exit
	exit.returning, exit.exiting, exit.fatalExit, exit.err = false, false, false, nil
	if j.num > 0 {
		j.reap()
	}
	return exit, false
}

// ForegroundStopper returns the function that stops the job the shell
// waits for in the foreground, as Ctrl-Z (SIGTSTP from the terminal) does
// in bash, and reports whether there was one. It may be called from any
// goroutine, while the runner runs (the REPL's signal handler calls it),
// and holds for the runners that Reset makes of r.
func (r *Runner) ForegroundStopper() func() bool {
	s := r.llmsh
	return func() bool {
		j := s.fg.Load()
		if j == nil {
			return false
		}
		j.signal(sigTSTP, true)
		return true
	}
}

// warnStoppedJobs is bash's check when an interactive shell is asked to
// exit at its prompt: with stopped jobs, exit says "There are stopped
// jobs." and the shell goes on (status 1); an exit right after it, with
// no command in between, exits (and the jobs are hung up).
func (r *Runner) warnStoppedJobs() bool {
	if !r.llmsh.jobControl || !r.llmsh.atPrompt || r.bashPid != r.llmsh.pid {
		return false
	}
	if w := r.llmsh.exitWarned; w != 0 && r.stmtSeq == w+1 {
		return false
	}
	for _, j := range r.tableJobs() {
		if r.stopped(j) {
			r.errf("There are stopped jobs.\n")
			r.llmsh.exitWarned = r.stmtSeq
			return true
		}
	}
	return false
}

// StoppedJobs reports whether a job of the runner's table is stopped (as
// a shell with job control sees it).
func (r *Runner) StoppedJobs() bool {
	return slices.ContainsFunc(r.tableJobs(), r.stopped)
}
