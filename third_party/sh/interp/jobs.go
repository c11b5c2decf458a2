// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// This file holds llmsh's job control for one process: the session's own
// background jobs, numbered and listed as bash lists them (jobs), ended
// by cancelling their context (kill), stopped and continued at their
// gates (jobstop.go), waited for with bash's statuses (wait, wait -n,
// wait %N) and forgotten (disown). There is no terminal and no process
// group: fg and bg need job control, which only an interactive shell
// has. See LLMSH.md.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// bgProc is a background job of a runner: a command run with & (a job of
// the table that jobs lists), or the list of a process substitution (not
// a job, but its pid is $! as in bash).
type bgProc struct {
	// closed when the background process finishes,
	// after which point the result fields below are set.
	done chan struct{}

	exit *exitStatus

	pid    int    // its virtual process id ($!)
	seq    int64  // the session's count of jobs started, with this one
	num    int    // its job number (%N); 0 for a process substitution
	text   string // the command as jobs shows it
	cancel context.CancelFunc
	// kill cancels its context with errJobKilled (JobKilled).
	kill func()
	// gate stops and continues the job (jobstop.go); ctxDone is the end
	// of its context, which ends a wait at the gate.
	gate    *jobGate
	ctxDone <-chan struct{}

	mu       sync.Mutex
	sig      int  // the signal that kill sent it before it finished
	reaped   bool // waited for, or reported done: no longer in the table
	disowned bool // taken out of the table by disown
	// pending is a signal sent while the job was stopped, delivered
	// when it continues (as a stopped process's); stopSig is the signal
	// that last stopped it, stoppedAt when (the current job is the last
	// one stopped), and stopShown says that its stop was reported.
	pending   int
	stopSig   int
	stoppedAt time.Time
	stopShown bool
	notified  bool // its end by a signal was reported (notifyKilled)
	chldSeen  bool // its end was counted for its subshell's CHLD trap
	owner     int  // the $BASHPID of the shell that started it
	// trapped are the signals the job's shell traps or ignores, and
	// trapPending those sent to it that its traps are still to run
	// (llmsh: kill to a job whose subshell traps the signal runs the
	// trap, as in bash; jobsig.go).
	trapped     map[string]bool
	trapPending []int
	hasPending  atomic.Bool
	// nestedSig is the nested shell that is the job's process, which
	// takes a signal it traps (ClaimJobSignals).
	nestedSig func(sig int) bool
	// wake ends the wait of the job's shell, while it waits.
	wake context.CancelFunc
	// shown says that a jobs listing showed it (jobs -n).
	shown bool
	// endSeen says that ForgetEnded found it ended (llmsh).
	endSeen bool
	// killed is the session's count of jobs a signal ended.
	killed *atomic.Int64
}

// startJob makes the record of a background job run by r; the job runs
// under the context it returns, which kill cancels.
func (r *Runner) startJob(ctx context.Context, st *syntax.Stmt) (*bgProc, context.Context) {
	bg, jctx := r.newJob(ctx)
	if st != nil {
		bg.text = jobText(st, r.text.src)
		r.forgetSeen()
		bg.num = r.nextJobNum()
	}
	r.pruneJobs()
	r.bgProcs = append(r.bgProcs, bg)
	r.lastBgPid = bg.pid
	if bg.num > 0 {
		// llmsh: bash chooses the current and previous jobs as each
		// job starts (reset_current): the new job, which runs, and the
		// newest older one that runs, found without listing the table.
		r.jobMarks = true
		if bg.finished() || r.stopped(bg) {
			r.resetCurrentJob(r.tableJobs())
		} else if r.curJob, r.prevJob = bg, r.lastRunningBefore(bg); r.prevJob == nil {
			r.prevJob = bg
		}
	}
	if bg.num > 0 && r.llmsh.jobControl && r.bashPid == r.llmsh.pid {
		// llmsh: an interactive bash names the job it starts.
		r.errf("[%d] %d\n", bg.num, bg.pid)
	}
	return bg, jctx
}

// nextJobNum is the number of a job that enters the table now: one more
// than the highest there. A job enters the table at the end of bgProcs
// with a number above all those in the table, and leaves it for good, so
// the numbers of the table rise in its order: the highest is the newest
// job's (llmsh: not a scan of the table for each job, O(N^2) for a loop
// of `cmd &`).
func (r *Runner) nextJobNum() int {
	for _, js := range [][]*bgProc{r.bgProcs, r.inheritedJobs} {
		for _, j := range slices.Backward(js) {
			if j.inTable() {
				return j.num + 1
			}
		}
	}
	return 1
}

// lastRunningBefore is the newest job of the table older than bg that
// still runs (lastRunningJob), bg being the newest of r.bgProcs.
func (r *Runner) lastRunningBefore(bg *bgProc) *bgProc {
	for _, js := range [][]*bgProc{r.bgProcs, r.inheritedJobs} {
		for _, j := range slices.Backward(js) {
			if j != bg && j.inTable() && !j.finished() && !r.stopped(j) {
				return j
			}
		}
	}
	return nil
}

// newJob makes a job that runs under the context it returns (which kill
// cancels), not yet in the table.
func (r *Runner) newJob(ctx context.Context) (*bgProc, context.Context) {
	jctx, cancel := context.WithCancelCause(r.goContext(ctx))
	bg := &bgProc{
		done:    make(chan struct{}),
		exit:    new(exitStatus),
		pid:     r.llmsh.newPid(),
		seq:     r.llmsh.jobsStarted.Add(1),
		cancel:  func() { cancel(nil) },
		kill:    func() { cancel(errJobKilled) },
		gate:    newJobGate(r.gate),
		ctxDone: jctx.Done(),
		owner:   r.bashPid,
		killed:  &r.llmsh.killedJobs,
	}
	jctx = withGate(jctx, bg.gate)
	r.llmsh.procs.Store(bg.pid, bg)
	r.llmsh.running.Add(1)
	return bg, jctx
}

// finish records the end of a job: its status, or 128+N when kill sent
// it signal N while it ran (its runner stopped part way).
func (bg *bgProc) finish(r *Runner, exit exitStatus) {
	// A stopped job ends only when it has continued (or was killed).
	bg.gate.pass(bg.ctxDone)
	bg.mu.Lock()
	if bg.sig != 0 {
		exit = exitStatus{code: uint8(128 + bg.sig)}
	} else if exit.signaled != 0 && bg.num > 0 {
		// llmsh: the job's shell killed itself ({ kill -HUP $BASHPID; }
		// &): reported as a job a signal ended, with its text
		// (notifyKilled), not by the wait that returns its status.
		bg.sig = int(exit.signaled)
		exit = exitStatus{code: exit.code, err: exit.err}
		if bg.killed != nil {
			bg.killed.Add(1)
		}
	}
	*bg.exit = exit
	bg.mu.Unlock()
	// Its context ends with it, unless a job was started since it began:
	// that job may be its own child (or a child's), which goes on after
	// it as an orphan, until the run ends or kill stops it.
	if r.llmsh.jobsStarted.Load() == bg.seq {
		bg.cancel()
	}
	r.llmsh.procs.Delete(bg.pid)
	r.llmsh.running.Add(-1)
	if bg.num != 0 {
		// llmsh: a job of the table (not a process substitution,
		// counted as it is made): its CHLD trap, before wait returns
		// (chld.go).
		r.llmsh.jobEnded(bg.owner)
	}
	close(bg.done)
}

// errJobKilled is the cause of a job's context that a signal ended (kill,
// the hangup at the end): not the end of the run.
var errJobKilled = errors.New("job killed by a signal")

// JobKilled reports whether ctx, a command's context, ended because a
// signal ended the job the command runs in (kill %1), not the run (a
// deadline, a limit): a handler keeps what the command wrote to a
// command substitution then (llmsh).
func JobKilled(ctx context.Context) bool {
	return ctx.Err() != nil && errors.Is(context.Cause(ctx), errJobKilled)
}

func (bg *bgProc) finished() bool {
	select {
	case <-bg.done:
		return true
	default:
		return false
	}
}

// inTable reports whether jobs lists bg.
func (bg *bgProc) inTable() bool {
	bg.mu.Lock()
	defer bg.mu.Unlock()
	return bg.num > 0 && !bg.reaped && !bg.disowned
}

// inJobTable is inTable for a job that may be nil (none).
func (bg *bgProc) inJobTable() bool {
	return bg != nil && bg.inTable()
}

func (bg *bgProc) reap() {
	bg.mu.Lock()
	bg.reaped = true
	bg.mu.Unlock()
}

// signal sends sig to bg: a job still running is ended (its context
// cancelled) with status 128+sig; a stop signal stops it and CONT
// continues it (jobstop.go). A job that has ended but was not waited
// for keeps its status, as in bash. A signal that would end a stopped
// job waits for it to continue, as a stopped process's does, unless
// cont says to continue it (bash's kill under job control, the hangup
// at the end); KILL ends it at once.
func (bg *bgProc) signal(sig int, cont bool) {
	switch {
	case sig == sigCONT:
		bg.resume()
		return
	case sigStops(sig):
		// What the stop was is set before the gate tells a waiter.
		bg.mu.Lock()
		if !bg.finished() && !bg.gate.isStopped() {
			bg.stoppedAt, bg.stopShown, bg.stopSig = time.Now(), false, sig
			bg.gate.stop()
		}
		bg.mu.Unlock()
		return
	case sig == 0 || !sigTerminates(sig):
		return
	}
	if bg.num > 0 && (sig == sigINT || sig == sigQUIT) {
		return // a job of & ignores them without job control (bash)
	}
	bg.mu.Lock()
	nested := bg.nestedSig
	bg.mu.Unlock()
	if nested != nil && !bg.gate.isStopped() && nested(sig) {
		return // llmsh: the nested shell traps it (jobsig.go)
	}
	bg.mu.Lock()
	defer bg.mu.Unlock()
	if bg.finished() || bg.sig != 0 {
		return
	}
	if bg.gate.isStopped() && sig != sigKILL && !cont {
		if bg.pending == 0 {
			bg.pending = sig
		}
		return
	}
	if act, ok := bg.trapped[signalName(sig)]; ok {
		// llmsh: the job's shell traps or ignores it (jobsig.go); a
		// signal already pending is not queued twice.
		if !act {
			return
		}
		if !slices.Contains(bg.trapPending, sig) {
			bg.trapPending = append(bg.trapPending, sig)
		}
		if bg.wake != nil {
			bg.wake() // its shell's wait ends
		}
		bg.hasPending.Store(true)
		return
	}
	bg.sig = sig
	bg.kill()
	bg.gate.resume()
	if bg.num > 0 && bg.killed != nil {
		bg.killed.Add(1)
	}
}

// resume continues bg if it is stopped, and delivers the signal that
// waited for that.
func (bg *bgProc) resume() {
	if !bg.gate.resume() {
		return
	}
	bg.mu.Lock()
	sig := bg.pending
	bg.pending = 0
	bg.mu.Unlock()
	if sig != 0 {
		bg.signal(sig, true)
	}
}

// stopped reports whether bg is stopped, as a shell with job control
// sees it (without, bash is never told that a job stopped: jobs shows
// it running).
func (r *Runner) stopped(bg *bgProc) bool {
	return r.llmsh.jobControl && !bg.finished() && bg.gate.isStopped()
}

// reapDone takes out of r's table, silently, its jobs that have ended
// by themselves (not by a signal), as a shell running a -c string does
// when it has waited for a process in the foreground: bash's
// notify_of_job_status marks them notified, and they are cleaned up
// (a script's shell keeps them, startup_state 0).
// `bash -c 'true & sleep 1; jobs'` lists nothing and `wait %1` says no
// such job; `wait $!` still gives the job's status (llmsh).
func (r *Runner) reapDone() {
	if len(r.bgProcs) == 0 || !r.cString || r.llmsh.jobControl {
		return
	}
	for _, j := range r.bgProcs {
		if j.num == 0 || j.owner != r.bashPid || !j.finished() {
			continue
		}
		j.mu.Lock()
		if j.sig == 0 {
			j.reaped = true
		}
		j.mu.Unlock()
	}
}

// notifyKilled reports, as a shell that is not interactive does, the
// jobs of r's table that a signal ended and that were not reported yet
// (the same job is reported once): "NAME: line N:  PID Killed   CMD" on
// stderr, bash's notify_of_job_status. A job ended by SIGINT, SIGTERM or
// SIGPIPE, or by a signal the shell traps, is not reported, nor any in
// the shell of a command or process substitution (substShell). bash reports
// them when it waits for a program or a job; llmsh does after each
// command of the exec handler (its programs) and in wait. At a prompt
// the REPL reports jobs its own way (FinishedJobs).
func (r *Runner) notifyKilled() {
	if r.llmsh.killedJobs.Load() == 0 || r.llmsh.jobControl {
		return
	}
	for _, j := range r.bgProcs {
		if j.num == 0 || j.owner != r.bashPid || !j.finished() {
			continue
		}
		j.mu.Lock()
		sig, report := j.sig, j.sig != 0 && !j.notified && !j.disowned
		if report && r.substShell && j.pid == r.lastBgPid {
			// bash's notify_of_job_status in a command substitution:
			// no report; the job that is $! stays in the table for
			// jobs to list as killed, the others leave it silently.
			report = false
		}
		j.notified = j.notified || report
		j.reaped = j.reaped || report // reported: out of the table (bash)
		j.mu.Unlock()
		if !report || r.substShell || sig == sigINT || sig == sigTERM || sig == sigPIPE {
			continue
		}
		if _, trapped := r.traps[signalName(sig)]; trapped {
			continue
		}
		r.errf("%s%5d %-24s%s\n", r.errPrefix(), j.pid, signalDescription(sig), j.text)
	}
}

// reportForeground says that st, in the foreground, whose process had
// $BASHPID pid, was ended by signal sig, as bash's notify_of_job_status
// in a shell without job control: "NAME: line N: PID Killed  ( … )" on
// w, the stderr the statement had before its own redirections; only the
// signal's description for SIGTERM or a signal the shell traps; nothing
// for SIGINT or SIGPIPE, in a command substitution, or for an element
// of a pipeline: a pipeline whose last element (or with pipefail, the
// one whose status it takes) a signal ended lists its elements
// (reportPipeline).
func (r *Runner) reportForeground(sig, pid int, st *syntax.Stmt, w io.Writer) {
	procs := r.pipeProcs
	r.pipeProcs = nil
	if sig == sigINT || sig == sigPIPE || r.subst != nil || st == r.pipeStmt || r.llmsh.jobControl {
		return
	}
	if w == nil {
		w = r.stderr
	}
	if _, trapped := r.traps[signalName(sig)]; trapped || sig == sigTERM {
		fmt.Fprintf(w, "%s\n", signalDescription(sig))
		return
	}
	if bc, ok := st.Cmd.(*syntax.BinaryCmd); ok && (bc.Op == syntax.Pipe || bc.Op == syntax.PipeAll) && len(procs) > 1 {
		r.reportPipeline(w, procs)
		return
	}
	fmt.Fprintf(w, "%s%5d %-24s%s\n", r.killPrefix(), pid, signalDescription(sig), r.stmtText(st))
}

// killPrefix is errPrefix with bash's line_number after a simple command
// (killLine): the report of a command that a signal ended names the last
// line of the top-level command it is in, or the line of the for, select
// or case or of the function's body around it (bash restores its line
// number after a simple command, and reports the job then).
func (r *Runner) killPrefix() string {
	if r.killLine == 0 || r.killLine == r.line {
		return r.errPrefix()
	}
	line := r.line
	r.line = r.killLine
	defer func() { r.line = line }()
	return r.errPrefix()
}

// pipeProc is an element of a pipeline as bash's report lists it.
type pipeProc struct {
	pid    int
	status exitStatus
	text   string
}

// reportPipeline is bash's report of a pipeline whose last element a
// signal ended (print_pipeline): a line per element, its pid and how it
// ended, left blank when it ended as the first did.
func (r *Runner) reportPipeline(w io.Writer, procs []pipeProc) {
	how := func(e exitStatus) string {
		switch {
		case e.signaled != 0:
			return signalDescription(int(e.signaled))
		case e.code == 0:
			return "Done"
		}
		return fmt.Sprintf("Exit %d", e.code)
	}
	first := how(procs[0].status)
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s%5d %-24s%s\n", r.killPrefix(), procs[0].pid, first, procs[0].text)
	for _, p := range procs[1:] {
		pad := 24 // LONGEST_SIGNAL_DESC
		h := how(p.status)
		if h == first {
			h, pad = "", 22
		}
		fmt.Fprintf(&sb, "     %5d %-*s| %s\n", p.pid, pad, h, p.text)
	}
	io.WriteString(w, sb.String())
}

// maxReaped bounds how many ended jobs a runner remembers for `wait PID`
// (bash remembers a bounded number of statuses too).
const maxReaped = 1024

// pruneJobs forgets the oldest jobs that were waited for when there are
// more than maxReaped, so that a long loop of `cmd &` does not grow
// without bound. It looks at bgProcs only when it has grown by half
// since it last did (and has maxReaped jobs), so that a job starts in
// O(1) amortised (llmsh): at most about half as many more are kept.
func (r *Runner) pruneJobs() {
	if len(r.bgProcs) <= max(r.pruneAt, maxReaped) {
		return
	}
	r.pruneAll()
	r.pruneAt = len(r.bgProcs) + len(r.bgProcs)/2
}

// pruneAll is pruneJobs, now.
func (r *Runner) pruneAll() {
	n := 0
	for _, j := range r.bgProcs {
		if j.finished() && (j.num == 0 || !j.inTable()) {
			n++
		}
	}
	if n <= maxReaped {
		return
	}
	drop := n - maxReaped/2
	r.bgProcs = slices.DeleteFunc(r.bgProcs, func(j *bgProc) bool {
		if drop > 0 && j.finished() && (j.num == 0 || !j.inTable()) {
			drop--
			return true
		}
		return false
	})
}

// RunningJobs reports how many background jobs of the runner still run.
func (r *Runner) RunningJobs() int {
	n := 0
	for _, j := range r.bgProcs {
		if !j.finished() {
			n++
		}
	}
	return n
}

// jobText is the command of a job as jobs shows it, on one line but for
// a compound command's (src is the text st was parsed from, or "").
func jobText(st *syntax.Stmt, src string) string {
	st2 := *st
	st2.Background, st2.Disown = false, false
	return jobStmtText(&st2, src)
}

// jobCompoundText prints st, an if, for, while, until or case command,
// as bash prints it in jobs: on several lines, as in a function (llmsh).
func jobCompoundText(st *syntax.Stmt, src string) (string, bool) {
	var kw string
	switch cm := st.Cmd.(type) {
	case *syntax.IfClause:
		kw = "if"
	case *syntax.ForClause:
		kw = "for"
		if cm.Select {
			return "", false
		}
	case *syntax.WhileClause:
		kw = "while"
		if cm.Until {
			kw = "until"
		}
	case *syntax.CaseClause:
		kw = "case"
	default:
		return "", false
	}
	if off := int(st.Cmd.Pos().Offset()); off+len(kw) > len(src) || src[off:off+len(kw)] != kw {
		src = "" // not the text st came from
	}
	p := &funcPrinter{src: src, words: syntax.NewPrinter(syntax.SingleLine(true))}
	p.stmt(st, 0)
	p.flushHdocs()
	return p.b.String(), true
}

// jobStmtText prints st on one line, with bash's spaces inside the
// parentheses of a subshell ("( exit 5 )"), here or as an element of a
// list or pipeline; a compound command on several lines (src is the text
// st was parsed from, or "": jobCompoundText).
func jobStmtText(st *syntax.Stmt, src string) string {
	print := func(n syntax.Node) string {
		var sb strings.Builder
		syntax.NewPrinter(syntax.SingleLine(true)).Print(&sb, n)
		return strings.TrimSpace(sb.String())
	}
	if st.Background || st.Coprocess || st.Cmd == nil {
		return print(st)
	}
	if st.Negated {
		st2 := *st
		st2.Negated = false
		return "! " + jobStmtText(&st2, src)
	}
	if text, ok := jobCompoundText(st, src); ok {
		return text
	}
	if len(st.Redirs) > 0 {
		st2 := *st
		st2.Redirs = nil
		p := &funcPrinter{words: syntax.NewPrinter(syntax.SingleLine(true))}
		p.redirs(st.Redirs, false)
		// llmsh: here-document bodies after all the redirections, as
		// bash prints them (cat <<E > f<NL>body<NL>E<NL>).
		p.flushHdocs()
		return jobStmtText(&st2, src) + p.b.String()
	}
	switch cm := st.Cmd.(type) {
	case *syntax.Subshell:
		if len(cm.Stmts) == 0 {
			break
		}
		parts := make([]string, len(cm.Stmts))
		for i, s := range cm.Stmts {
			parts[i] = jobStmtText(s, src) // with its & (print)
		}
		text := parts[0]
		for i, p := range parts[1:] {
			if cm.Stmts[i].Background {
				text += " " + p
			} else {
				text += "; " + p
			}
		}
		return "( " + text + " )"
	case *syntax.BinaryCmd:
		if cm.Op == syntax.PipeAll {
			// llmsh: bash prints |& as 2>&1 |
			return jobStmtText(cm.X, src) + " 2>&1 | " + jobStmtText(cm.Y, src)
		}
		return jobStmtText(cm.X, src) + " " + cm.Op.String() + " " + jobStmtText(cm.Y, src)
	case *syntax.CoprocClause:
		if cm.Name != nil && cm.Stmt != nil {
			return "coproc " + print(cm.Name) + " " + jobStmtText(cm.Stmt, src)
		}
	case *syntax.CallExpr, *syntax.ArithmCmd:
		// llmsh: words as written (`…`, (( x++ ))), $'…' decoded, as
		// bash prints them, when the text st came from is known.
		if text := print(st); src != "" && text != "" {
			if off := int(st.Pos().Offset()); off < len(src) && src[off] == text[0] {
				p := &funcPrinter{src: src, words: syntax.NewPrinter(syntax.SingleLine(true))}
				p.stmt(st, 0)
				return p.b.String()
			}
		}
	}
	return print(st)
}

// tableJobs returns the jobs that jobs lists, oldest first: in a
// subshell, its parent's (which it can list and kill, not wait for, as
// a forked bash can), then its own.
func (r *Runner) tableJobs() []*bgProc {
	var js []*bgProc
	for _, j := range r.inheritedJobs {
		if j.inTable() {
			js = append(js, j)
		}
	}
	for _, j := range r.bgProcs {
		if j.inTable() {
			js = append(js, j)
		}
	}
	return js
}

// ownJobs counts the jobs in this shell's table, not a subshell's
// parent's: bash's \j (llmsh).
func (r *Runner) ownJobs() int {
	n := 0
	for _, j := range r.bgProcs {
		if j.inTable() {
			n++
		}
	}
	return n
}

// currentJobs returns the current job (%+, %%) and the previous one (%-).
// Once this runner has started a job and none is stopped, they are the
// ones bash chose (setCurrentJob); otherwise: the last two jobs started
// that still run, or, short of those, that have ended and are still in
// the table (bash prefers running jobs).
func (r *Runner) currentJobs() (cur, prev *bgProc) {
	js := r.tableJobs()
	if r.jobMarks && !slices.ContainsFunc(js, r.stopped) {
		if r.curJob != nil && !slices.Contains(js, r.curJob) || r.prevJob != nil && !slices.Contains(js, r.prevJob) {
			r.resetCurrentJob(js) // bash's delete_job
		}
		return r.curJob, r.prevJob
	}
	var picked []*bgProc
	// Under job control, stopped jobs come first, the last stopped
	// first (bash's current job is the one stopped last).
	var stopped []*bgProc
	for _, j := range js {
		if r.stopped(j) {
			stopped = append(stopped, j)
		}
	}
	if len(stopped) > 0 {
		slices.SortStableFunc(stopped, func(a, b *bgProc) int { return b.stopTime().Compare(a.stopTime()) })
		picked = stopped[:min(2, len(stopped))]
		js = slices.DeleteFunc(js, r.stopped)
	}
	for _, running := range []bool{true, false} {
		for _, j := range slices.Backward(js) {
			if len(picked) < 2 && j.finished() != running {
				picked = append(picked, j)
			}
		}
	}
	if len(picked) > 0 {
		cur = picked[0]
	}
	if len(picked) > 1 {
		prev = picked[1]
	}
	return cur, prev
}

// resetCurrentJob is bash's reset_current for jobs none of which is
// stopped: the newest job that runs becomes the current job, else the
// newest in the table (one that has ended, not yet reported), or there
// is none (llmsh).
func (r *Runner) resetCurrentJob(js []*bgProc) {
	j := r.lastRunningJob(js, len(js))
	if j == nil && len(js) > 0 {
		j = js[len(js)-1]
	}
	if j != nil {
		r.setCurrentJob(js, j)
		return
	}
	r.curJob, r.prevJob = nil, nil
}

// setCurrentJob is bash's set_current_job for jobs none of which is
// stopped: j becomes the current job, and the previous one is the newest
// job older than j that runs (any that runs when j does not), else j
// (llmsh).
func (r *Runner) setCurrentJob(js []*bgProc, j *bgProc) {
	r.curJob = j
	i := slices.Index(js, j)
	if j.finished() || i < 0 {
		i = len(js)
	}
	r.prevJob = r.lastRunningJob(js, i)
	if r.prevJob == nil {
		r.prevJob = j
	}
}

// lastRunningJob is the newest job of js[:before] that still runs.
func (r *Runner) lastRunningJob(js []*bgProc, before int) *bgProc {
	for _, j := range slices.Backward(js[:before]) {
		if !j.finished() && !r.stopped(j) {
			return j
		}
	}
	return nil
}

// jobSpecErr says why builtin found no job for spec (findJob's msg): an
// ambiguous spec is named without its % or %?, as bash does, and jobs
// and disown (noSuch) then say that there is no such job (llmsh).
func (r *Runner) jobSpecErr(builtin, spec, msg string, noSuch bool) {
	if msg != "ambiguous job spec" {
		r.errf("%s%s: %s: %s\n", r.errPrefix(), builtin, spec, msg)
		return
	}
	name := strings.TrimPrefix(strings.TrimPrefix(spec, "%"), "?")
	r.errf("%s%s: %s: %s\n", r.errPrefix(), builtin, name, msg)
	if noSuch {
		r.errf("%s%s: %s: no such job\n", r.errPrefix(), builtin, spec)
	}
}

// findJob resolves a job spec (%N, %%, %+, %-, %STRING, %?STRING).
func (r *Runner) findJob(spec string) (*bgProc, string) {
	s := strings.TrimPrefix(spec, "%")
	cur, prev := r.currentJobs()
	switch {
	case s == "" || s == "%" || s == "+":
		if cur == nil {
			return nil, "no such job"
		}
		return cur, ""
	case s == "-":
		if prev == nil {
			if cur != nil {
				return cur, ""
			}
			return nil, "no such job"
		}
		return prev, ""
	}
	if n, err := strconv.Atoi(s); err == nil {
		for _, j := range r.tableJobs() {
			if j.num == n {
				return j, ""
			}
		}
		return nil, "no such job"
	}
	var found *bgProc
	for _, j := range r.tableJobs() {
		var ok bool
		if sub, isSub := strings.CutPrefix(s, "?"); isSub {
			ok = strings.Contains(j.text, sub)
		} else {
			ok = strings.HasPrefix(j.text, s)
		}
		if ok {
			if found != nil {
				return nil, "ambiguous job spec"
			}
			found = j
		}
	}
	if found == nil {
		return nil, "no such job"
	}
	return found, ""
}

// jobByPid returns the job of this runner whose process id is pid, also
// one already waited for (bash remembers their statuses).
func (r *Runner) jobByPid(pid int) *bgProc {
	for _, j := range slices.Backward(r.bgProcs) {
		if j.pid == pid {
			return j
		}
	}
	return nil
}

// stopTime is when bg last stopped.
func (bg *bgProc) stopTime() time.Time {
	bg.mu.Lock()
	defer bg.mu.Unlock()
	return bg.stoppedAt
}

// jobStatus is the state column of jobs: Running (or Stopped, when
// stopped says so), Done, Exit N, or the description of the signal that
// ended it.
func (bg *bgProc) jobStatus(stopped bool) string {
	if stopped {
		return "Stopped"
	}
	if !bg.finished() {
		return "Running"
	}
	bg.mu.Lock()
	sig, code := bg.sig, bg.exit.code
	bg.mu.Unlock()
	switch {
	case sig != 0:
		return signalDescription(sig)
	case code == 0:
		return "Done"
	}
	return "Exit " + strconv.Itoa(int(code))
}

// jobLine formats a job as bash's jobs does: [N]+  STATE  COMMAND, with
// the process id after the marker for jobs -l.
func (r *Runner) jobLine(j *bgProc, long bool) string {
	cur, prev := r.currentJobs()
	return r.markedJobLine(j, long, cur, prev)
}

// markedJobLine is jobLine with the current and previous jobs given: a
// listing finds them once, not for each of its lines (llmsh).
func (r *Runner) markedJobLine(j *bgProc, long bool, cur, prev *bgProc) string {
	mark := ' '
	switch j {
	case cur:
		mark = '+'
	case prev:
		mark = '-'
	}
	state := j.jobStatus(r.stopped(j))
	text := j.text
	if state == "Running" {
		text += " &"
	}
	if long {
		return fmt.Sprintf("[%d]%c %5d %-24s%s\n", j.num, mark, j.pid, state, text)
	}
	return fmt.Sprintf("[%d]%c  %-24s%s\n", j.num, mark, state, text)
}

// jobsExecute is `jobs -x COMMAND [ARG...]`: each word that names a
// job (%N, %%, %name) is replaced by the job's process id and the
// command runs, as bash's execute_list_with_replacements; a word naming
// no job stays as it is. No command is status 0.
func (r *Runner) jobsExecute(ctx context.Context, pos syntax.Pos, args []string) exitStatus {
	if len(args) == 0 {
		return exitStatus{}
	}
	words := slices.Clone(args)
	for i, w := range words {
		if strings.HasPrefix(w, "%") {
			if j, _ := r.findJob(w); j != nil {
				words[i] = strconv.Itoa(j.pid)
			}
		}
	}
	r.call(ctx, pos, words)
	return r.exit
}

// builtinJobs is the jobs builtin.
func (r *Runner) builtinJobs(ctx context.Context, pos syntax.Pos, args []string) exitStatus {
	var exit exitStatus
	long, pids, running, stopped, execute, other, changed := false, false, false, false, false, false, false
	fp := flagParser{remaining: args}
	for fp.more() {
		flag := fp.flag()
		if flag != "-x" {
			other = true
		}
		switch flag {
		case "-l":
			long = true
		case "-p":
			pids = true
		case "-r":
			running = true
		case "-s":
			stopped = true
		case "-n":
			changed = true
		case "-x":
			if other {
				r.errf("%sjobs: no other options allowed with `-x'\n", r.errPrefix())
				exit.code = 1
				return exit
			}
			execute = true
		default:
			r.errf("%sjobs: %s: invalid option\n", r.errPrefix(), flag)
			r.errf("jobs: usage: jobs [-lnprs] [jobspec ...] or jobs -x command [args]\n")
			exit.code = 2
			return exit
		}
	}
	if execute {
		return r.jobsExecute(ctx, pos, fp.args())
	}
	var list []*bgProc
	if specs := fp.args(); len(specs) > 0 {
		for _, spec := range specs {
			j, msg := r.findJob(spec)
			if j == nil {
				r.jobSpecErr("jobs", spec, msg, true)
				exit.code = 1
				continue
			}
			list = append(list, j)
		}
	} else {
		list = r.tableJobs()
	}
	var sb strings.Builder
	cur, prev := r.currentJobs()
	for _, j := range list {
		done, isStopped := j.finished(), r.stopped(j)
		if (running && (done || isStopped)) || (stopped && !isStopped) {
			continue
		}
		j.mu.Lock()
		shown := j.shown
		j.shown = j.shown || !pids // jobs -p tells nothing of a status
		j.mu.Unlock()
		if changed && (shown || done) {
			// llmsh: jobs -n lists the jobs no listing has shown;
			// a finished job leaves the table unseen, as bash's.
			if done && !slices.Contains(r.inheritedJobs, j) {
				defer j.reap()
			}
			continue
		}
		if pids {
			fmt.Fprintf(&sb, "%d\n", j.pid)
		} else {
			sb.WriteString(r.markedJobLine(j, long, cur, prev))
		}
		if done && !pids && !slices.Contains(r.inheritedJobs, j) {
			// A finished job is reported once, then leaves the table.
			defer j.reap()
		}
	}
	r.outf("%s", sb.String())
	return exit
}

// builtinWait is the wait builtin: wait for all jobs (status 0), for the
// jobs and process ids given (the status of the last), or with -n for
// the next job to end. An id that is not a job of this shell is status
// 127, as in bash.
func (r *Runner) builtinWait(ctx context.Context, args []string) exitStatus {
	var exit exitStatus
	next, varName := false, ""
	fp := flagParser{remaining: args}
	for fp.more() {
		switch flag := fp.flag(); flag {
		case "-n":
			next = true
		case "-f":
		case "-p":
			if len(fp.remaining) == 0 {
				r.errf("%swait: -p: option requires an argument\n", r.errPrefix())
				r.errf("wait: usage: wait [-fn] [-p var] [id ...]\n")
				exit.code = 2
				return exit
			}
			varName = fp.value()
			if !syntax.ValidName(varName) {
				r.errf("%swait: `%s': not a valid identifier\n", r.errPrefix(), varName)
				exit.code = 1 // bash's status for it
				return exit
			}
		default:
			r.errf("%swait: %s: invalid option\n", r.errPrefix(), flag)
			r.errf("wait: usage: wait [-fn] [-p var] [id ...]\n")
			exit.code = 2
			return exit
		}
	}
	if varName != "" {
		r.delVar(varName)
	}
	if r.bashPid == r.llmsh.pid {
		// A trapped signal sent to the main shell ends its wait, as in
		// bash: wait returns 128+N and the trap runs (signals.go).
		var stop func()
		ctx, stop = r.llmsh.top.interruptible(ctx)
		defer stop()
	} else if bg := r.jobSelf; bg != nil && r.bashPid == bg.pid {
		var stop func()
		ctx, stop = bg.interruptible(ctx) // llmsh: so does a job's (jobsig.go)
		defer stop()
	}
	var ids []*bgProc
	for _, arg := range fp.args() {
		var j *bgProc
		if strings.HasPrefix(arg, "%") {
			var msg string
			if j, msg = r.findJob(arg); j == nil {
				r.jobSpecErr("wait", arg, msg, false)
				exit.code = 127
				continue
			}
		} else if pid, err := strconv.Atoi(arg); next && (err != nil || !r.jobByPid(pid).inJobTable()) {
			// llmsh: wait -n names any id that is no job so, also
			// one that ended and left the table (waited for, or
			// cleaned up after a foreground command), as bash's
			// wait -n looks in the job table only (wait PID still
			// gives its saved status).
			r.errf("%swait: %s: no such job\n", r.errPrefix(), arg)
			exit.code = 127
			continue
		} else if err != nil {
			r.errf("%swait: `%s': not a pid or valid job spec\n", r.errPrefix(), arg)
			exit.code = 1
			continue
		} else if j = r.jobByPid(pid); j == nil {
			r.errf("%swait: pid %d is not a child of this shell\n", r.errPrefix(), pid) // 09 is 9 (bash)
			exit.code = 127
			continue
		}
		if !next {
			if r.stopped(j) {
				exit = r.waitStopped(j)
				continue
			}
			if !r.waitJob(ctx, j) {
				return r.waitInterrupted(exit)
			}
			r.notifyKilled()
			exit = *j.exit
			exit.returning, exit.exiting, exit.fatalExit, exit.err = false, false, false, nil
			if varName != "" {
				r.setVarString(varName, strconv.Itoa(j.pid))
			}
			continue
		}
		ids = append(ids, j)
	}
	if !next {
		if len(fp.args()) == 0 {
			// Without ids: every job, and the status is 0.
			for _, j := range r.bgProcs {
				j.mu.Lock()
				disowned := j.disowned
				j.mu.Unlock()
				if !disowned && r.stopped(j) {
					r.errf("%swait: warning: job %d[%d] stopped\n", r.errPrefix(), j.num, j.pid)
					continue
				}
				if !disowned && !r.waitJob(ctx, j) {
					return r.waitInterrupted(exit)
				}
			}
			r.notifyKilled()
		}
		return exit
	}
	if len(fp.args()) == 0 {
		for _, j := range r.bgProcs {
			if j.num > 0 && j.inTable() {
				ids = append(ids, j)
			}
		}
	}
	if len(ids) == 0 {
		exit.code = 127
		return exit
	}
	j := r.waitAny(ctx, ids)
	if j == nil {
		return r.waitInterrupted(exit)
	}
	j.reap()
	r.notifyKilled()
	exit = *j.exit
	exit.returning, exit.exiting, exit.fatalExit, exit.err = false, false, false, nil
	if varName != "" {
		r.setVarString(varName, strconv.Itoa(j.pid))
	}
	return exit
}

// waitStopped is wait for a stopped job under job control: bash warns
// and returns 128+N, where a shell without job control, which is never
// told of the stop, waits until the job continues and ends.
func (r *Runner) waitStopped(j *bgProc) exitStatus {
	r.errf("%swarning: wait_for_job: job %d is stopped\n", r.errPrefix(), j.num)
	j.mu.Lock()
	defer j.mu.Unlock()
	return exitStatus{code: uint8(128 + j.stopSig)}
}

// waitJob waits for j to end and takes it out of the table; it reports
// false when ctx ended first.
func (r *Runner) waitJob(ctx context.Context, j *bgProc) bool {
	select {
	case <-j.done:
		j.reap()
		return true
	case <-ctx.Done():
		return false
	}
}

// waitAny waits for the first of js to end (one that already has, first).
func (r *Runner) waitAny(ctx context.Context, js []*bgProc) *bgProc {
	for _, j := range js {
		if j.finished() {
			return j
		}
	}
	any := make(chan *bgProc, len(js))
	stop := make(chan struct{})
	defer close(stop)
	for _, j := range js {
		go func() {
			select {
			case <-j.done:
				any <- j
			case <-stop:
			}
		}()
	}
	select {
	case j := <-any:
		return j
	case <-ctx.Done():
		return nil
	}
}

// builtinDisown is the disown builtin: the jobs leave the table, and
// wait without ids no longer waits for them (they still end with the
// script). -h keeps them in the table: there is no SIGHUP to ignore.
func (r *Runner) builtinDisown(args []string) exitStatus {
	var exit exitStatus
	all, runningOnly, keep := false, false, false
	fp := flagParser{remaining: args}
	for fp.more() {
		switch flag := fp.flag(); flag {
		case "-a":
			all = true
		case "-r":
			runningOnly = true
		case "-h":
			keep = true
		default:
			r.errf("%sdisown: %s: invalid option\n", r.errPrefix(), flag)
			r.errf("disown: usage: disown [-h] [-ar] [jobspec ... | pid ...]\n")
			exit.code = 2
			return exit
		}
	}
	var list []*bgProc
	specs := fp.args()
	switch {
	case len(specs) > 0:
		for _, spec := range specs {
			var j *bgProc
			if pid, err := strconv.Atoi(spec); err == nil {
				if j = r.jobByPid(pid); j == nil || !j.inTable() {
					r.errf("%sdisown: %s: no such job\n", r.errPrefix(), spec)
					exit.code = 1
					continue
				}
			} else {
				var msg string
				if j, msg = r.findJob(spec); j == nil {
					r.jobSpecErr("disown", spec, msg, true)
					exit.code = 1
					continue
				}
			}
			list = append(list, j)
		}
	case all || runningOnly:
		list = r.tableJobs()
	default:
		cur, _ := r.currentJobs()
		if cur == nil {
			r.errf("%sdisown: current: no such job\n", r.errPrefix())
			exit.code = 1
			return exit
		}
		list = []*bgProc{cur}
	}
	for _, j := range list {
		if (runningOnly && (j.finished() || r.stopped(j))) || keep {
			continue
		}
		if r.stopped(j) {
			r.errf("%swarning: deleting stopped job %d with process group %d\n", r.errPrefix(), j.num, j.pid)
		}
		j.mu.Lock()
		j.disowned = true
		j.mu.Unlock()
		if r.jobMarks && (j == r.curJob || j == r.prevJob) {
			r.resetCurrentJob(r.tableJobs()) // bash's delete_job, now
		}
	}
	return exit
}

// builtinFgBg is fg and bg. Without job control (a script, llmsh's
// default; see [JobControl]) they fail as bash's do: "no job control".
// With it, fg continues the job if it is stopped and waits for it as if
// it ran in the foreground (there is no terminal to give it; Ctrl-C ends
// it, Ctrl-Z stops it again: waitForeground), and bg continues a stopped
// job, or says that the job already runs in the background.
func (r *Runner) builtinFgBg(ctx context.Context, name string, args []string) exitStatus {
	var exit exitStatus
	// llmsh: set -m turns job control on in a script too, as bash's.
	if !r.llmsh.jobControl && !r.opts[optMonitor] || r.bashPid != r.llmsh.pid {
		r.errf("%s%s: no job control\n", r.errPrefix(), name)
		exit.code = 1
		return exit
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	spec := "%+"
	if len(args) > 0 {
		spec = args[0]
	}
	j, msg := r.findJob(spec)
	if j == nil {
		if len(args) == 0 {
			spec = "current"
		}
		r.jobSpecErr(name, spec, msg, false)
		exit.code = 1
		return exit
	}
	if name == "bg" {
		if !r.stopped(j) {
			r.errf("%sbg: job %d already in background\n", r.errPrefix(), j.num)
			return exit
		}
		j.resume()
		r.outf("[%d]+ %s &\n", j.num, j.text)
		return exit
	}
	// Continued first, then in the foreground before it says so: a
	// Ctrl-Z from then on stops it again.
	j.resume()
	r.llmsh.fg.Store(j)
	r.outf("%s\n", j.text)
	exit, _ = r.waitForeground(ctx, j)
	return exit
}

// HangUp ends the background jobs of the runner that still run, as a
// closing terminal hangs up the jobs of its shell: their contexts are
// cancelled (and so those of the jobs they started), and HangUp waits
// for them to stop, at most wait in all. It returns the jobs it ended,
// as jobs would list them ("sleep 5 &"). llmsh calls it when a script
// has ended, so that no job keeps a run alive after its script.
func (r *Runner) HangUp(wait time.Duration) []string {
	r.drainProcSubsts(wait)
	var hung []*bgProc
	for _, j := range r.bgProcs {
		if j.finished() {
			continue
		}
		// llmsh: the grace (jobstop.go): the job goes on until it
		// blocks or has passed graceSteps stop points; one that waits
		// now, or is stopped, is hung up at once.
		g := j.gate
		g.hup = func() { j.signal(sigHUP, true) }
		g.budget.Store(graceSteps)
		g.ending.Store(true)
		if g.blocking.Load() > 0 || g.isStopped() {
			g.hangup()
		}
		hung = append(hung, j)
	}
	// A job blocked where no command says so (a pipe) is hung up when
	// the grace is over (graceOver), as any left then.
	if len(hung) > 0 {
		over, stop := r.graceOver()
		for _, j := range hung {
			select {
			case <-j.done:
			case <-over:
				for _, j := range hung {
					j.gate.hangup()
				}
			}
		}
		stop()
	}
	var ended []string
	for _, j := range hung {
		if j.num > 0 && j.gate.hungUp.Load() {
			ended = append(ended, j.text+" &")
		}
	}
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for _, j := range hung {
		select {
		case <-j.done:
		case <-deadline.C:
			return ended
		}
	}
	return ended
}

// graceWait bounds HangUp's grace for jobs that neither end nor block
// in a command that waits, when the runner has no GraceEnd.
const graceWait = 200 * time.Millisecond

// graceOver is a channel closed when HangUp's grace is over (GraceEnd's,
// or graceWait's timer), and the function that releases it.
func (r *Runner) graceOver() (<-chan struct{}, func()) {
	if end := r.llmsh.graceEnd; end != nil {
		return end()
	}
	c := make(chan struct{})
	t := time.AfterFunc(graceWait, func() { close(c) })
	return c, func() { t.Stop() }
}

// drainProcSubsts waits, at most wait in all, for the process
// substitutions still running to end on their own, the runner's and
// those its jobs left (orphanPsubs): their pipes are
// closed by now (the caller's), so `exec > >(tee log)` has the rest of
// its input and its end, as in bash, where the list outlives the shell
// and writes what it read. HangUp then cancels whatever is left.
func (r *Runner) drainProcSubsts(wait time.Duration) {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	s := r.llmsh
	s.orphanMu.Lock()
	orphans := s.orphans
	s.orphans = nil
	s.orphanMu.Unlock()
	for _, js := range [][]*bgProc{r.bgProcs, orphans} {
		for _, j := range js {
			if j.num != 0 || j.finished() {
				continue
			}
			select {
			case <-j.done:
			case <-deadline.C:
				return
			}
		}
	}
}

// JobControl turns on what an interactive shell's job control gives in
// one process: fg and bg (see builtinFgBg). llmsh's REPL turns it on.
func JobControl(enabled bool) RunnerOption {
	return func(r *Runner) error {
		if r.llmsh.jobControl != enabled {
			// Set once: the REPL applies it to each line, while the
			// jobs of earlier lines read it.
			r.llmsh.jobControl = enabled
		}
		return nil
	}
}

// SetJobContext makes the background jobs that the runner starts from
// now on run under ctx rather than under the context of the Run that
// starts them, so that they outlive it (an interactive shell's jobs
// outlive their command line). nil goes back to the Run's context.
func (r *Runner) SetJobContext(ctx context.Context) { r.jobCtx = ctx }

// jobBase is the context a background job of r starts from.
func (r *Runner) jobBase(ctx context.Context) context.Context {
	if r.jobCtx != nil {
		return r.jobCtx
	}
	return ctx
}

// ForgetEnded takes out of the table the jobs that had already ended when
// it was last called, and notes those that have ended now (llmsh). A
// library Session calls it after each Run: a job that ended during one
// Run (or was hung up at its end) can still be listed, waited for or
// reported in the next, as an interactive bash reports it at the next
// prompt, until that Run ends or starts a job of its own (which then
// numbers from 1 again, as bash's would). Without it the table of a
// long-lived session (serve, the library) kept every job of every Run,
// numbered on, and each job start walked it (session 24, red team).
func (r *Runner) ForgetEnded() {
	for _, j := range r.tableJobs() {
		if !j.finished() {
			continue
		}
		j.mu.Lock()
		if j.endSeen {
			j.reaped = true
		}
		j.endSeen = true
		j.mu.Unlock()
		r.seenEnded = true
	}
	r.pruneAll()
}

// forgetSeen takes out of the table the jobs that ForgetEnded found ended.
func (r *Runner) forgetSeen() {
	if !r.seenEnded {
		return
	}
	r.seenEnded = false
	for _, j := range r.tableJobs() {
		j.mu.Lock()
		if j.endSeen {
			j.reaped = true
		}
		j.mu.Unlock()
	}
}

// FinishedJobs reports the jobs of the runner's table that have ended
// since they were last listed, as an interactive bash reports them before
// its prompt ("[1]+  Done                    sleep 1"), and takes them out
// of the table; and those that have stopped since (kill -STOP) and
// were not reported ("[1]+  Stopped                 sleep 60").
func (r *Runner) FinishedJobs() []string {
	var lines []string
	var done []*bgProc
	for _, j := range r.tableJobs() {
		if j.finished() {
			lines = append(lines, strings.TrimSuffix(r.jobLine(j, false), "\n"))
			done = append(done, j)
		} else if r.stopped(j) {
			j.mu.Lock()
			shown := j.stopShown
			j.stopShown = true
			j.mu.Unlock()
			if !shown {
				lines = append(lines, strings.TrimSuffix(r.jobLine(j, false), "\n"))
			}
		}
	}
	for _, j := range done {
		j.reap()
	}
	return lines
}

// substJobs are the jobs started in a command substitution that hold its
// output: bash reads a substitution until its pipe closes, so it waits
// for a job started there (`$(cmd & echo x)`) unless the job's stdout
// goes elsewhere.
type substJobs struct {
	out  io.Writer // the substitution's writer
	mu   sync.Mutex
	jobs []*bgProc
}

// hold records job bg, whose statement st starts with stdout out, if
// it writes to the substitution: out is its writer and st does not
// redirect descriptor 1.
func (s *substJobs) hold(out io.Writer, st *syntax.Stmt, bg *bgProc) {
	if s == nil || !sameWriter(out, s.out) {
		return
	}
	if stdoutRedirected(st) && !writesProcSubst(st) {
		return
	}
	s.mu.Lock()
	s.jobs = append(s.jobs, bg)
	s.mu.Unlock()
}

// stdoutRedirected reports whether st's own redirections send its
// descriptor 1 elsewhere.
func stdoutRedirected(st *syntax.Stmt) bool {
	for _, rd := range st.Redirs {
		switch rd.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.DplOut:
			if rd.N == nil || rd.N.Value == "1" {
				return true
			}
		case syntax.RdrInOut:
			if rd.N != nil && rd.N.Value == "1" {
				return true
			}
		case syntax.RdrAll, syntax.AppAll:
			return true
		}
	}
	return false
}

// writesProcSubst reports whether st makes a >(LIST), whose list writes
// to the output st started with, whatever st's own redirections
// (`x=$(echo a > >(cat) &)`: bash's substitution reads until the list
// has closed it).
func writesProcSubst(st *syntax.Stmt) bool {
	found := false
	syntax.Walk(st, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ProcSubst:
			found = found || n.Op == syntax.CmdOut
			return false
		case *syntax.CmdSubst:
			return false // its own output
		}
		return !found
	})
	return found
}

// wait waits for the jobs that hold the substitution's output, or for
// ctx to end.
func (s *substJobs) wait(ctx context.Context) {
	for {
		s.mu.Lock()
		if len(s.jobs) == 0 {
			s.mu.Unlock()
			return
		}
		j := s.jobs[0]
		s.jobs = s.jobs[1:]
		s.mu.Unlock()
		select {
		case <-j.done:
		case <-ctx.Done():
			return
		}
	}
}

// sameWriter reports whether a and b are the same writer (false when
// their type cannot be compared).
func sameWriter(a, b io.Writer) (same bool) {
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	return a == b
}

// heldCloser is a file that a statement's redirection opened, closed when
// the last of its holders lets it go: the statement, and the jobs
// started while it ran (llmsh).
type heldCloser struct {
	c    io.Closer
	refs atomic.Int32
}

// holdCloser wraps c with one hold, the statement's.
func holdCloser(c io.Closer) *heldCloser {
	h := &heldCloser{c: c}
	h.refs.Store(1)
	return h
}

// Close lets one hold go; the last closes the file.
func (h *heldCloser) Close() error {
	if h.refs.Add(-1) == 0 {
		return h.c.Close()
	}
	return nil
}

// holdRedirs takes a hold on each file the running statements'
// redirections opened, for a job that starts now.
func (r *Runner) holdRedirs() []*heldCloser {
	held := slices.Clone(r.liveRedirs)
	// llmsh: and on what exec opened as stdout or stderr, which a later
	// exec may let go (dropExecStd) while the job still writes to it.
	for _, c := range r.execClosers {
		if h, ok := c.(*heldCloser); ok {
			held = append(held, h)
		}
	}
	for _, h := range held {
		h.refs.Add(1)
	}
	return held
}

// releaseRedirs lets go the holds that holdRedirs took.
func releaseRedirs(held []*heldCloser) {
	for _, h := range held {
		h.Close()
	}
}

// stdinRedirects reports whether redirs redirect the standard input
// (bash's stdin_redirects).
func stdinRedirects(redirs []*syntax.Redirect) bool {
	for _, rd := range redirs {
		if rd.N != nil && rd.N.Value != "0" {
			continue
		}
		switch rd.Op {
		case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			return true
		}
	}
	return false
}

// compoundRedirLine reports whether bash makes the redirections of cm at
// its line number between commands (killLine), not at cm's own line
// (llmsh): those of { }, if, while, until, for … in, select and case;
// not for (( )).
func compoundRedirLine(cm syntax.Command) bool {
	switch cm := cm.(type) {
	case *syntax.Block, *syntax.IfClause, *syntax.WhileClause, *syntax.CaseClause:
		return true
	case *syntax.ForClause:
		_, cstyle := cm.Loop.(*syntax.CStyleLoop)
		return !cstyle // for (( )) names its own line, as bash
	}
	return false
}

// controlStructure reports whether cm is what bash calls a shell control
// structure: a compound command other than ( … ), or [[ ]] or (( )).
func controlStructure(cm syntax.Command) bool {
	switch cm.(type) {
	case *syntax.Block, *syntax.IfClause, *syntax.WhileClause, *syntax.ForClause,
		*syntax.CaseClause, *syntax.ArithmCmd, *syntax.TestClause:
		return true
	}
	return false
}
