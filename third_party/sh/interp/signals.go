// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// Signal names and numbers as bash on Linux knows them, for kill, trap and
// jobs. No signal of the host is ever sent or received: kill stops the
// session's own jobs (see jobs.go) and runs the traps of the shell it is
// sent to. See LLMSH.md.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

const (
	sigHUP  = 1
	sigINT  = 2
	sigQUIT = 3
	sigKILL = 9
	sigPIPE = 13
	sigTERM = 15
	sigMax  = 64
)

// signalNames are Linux's signal names without SIG, by number.
var signalNames = [...]string{
	1: "HUP", 2: "INT", 3: "QUIT", 4: "ILL", 5: "TRAP", 6: "ABRT", 7: "BUS", 8: "FPE",
	9: "KILL", 10: "USR1", 11: "SEGV", 12: "USR2", 13: "PIPE", 14: "ALRM", 15: "TERM",
	16: "STKFLT", 17: "CHLD", 18: "CONT", 19: "STOP", 20: "TSTP", 21: "TTIN", 22: "TTOU",
	23: "URG", 24: "XCPU", 25: "XFSZ", 26: "VTALRM", 27: "PROF", 28: "WINCH", 29: "IO",
	30: "PWR", 31: "SYS",
}

// signalDescriptions are what jobs shows for a job a signal ended
// (strsignal's words).
var signalDescriptions = [...]string{
	1: "Hangup", 2: "Interrupt", 3: "Quit", 4: "Illegal instruction", 5: "Trace/breakpoint trap",
	6: "Aborted", 7: "Bus error", 8: "Floating point exception", 9: "Killed",
	10: "User defined signal 1", 11: "Segmentation fault", 12: "User defined signal 2",
	13: "Broken pipe", 14: "Alarm clock", 15: "Terminated", 16: "Stack fault",
	17: "Child exited", 18: "Continued", 19: "Stopped (signal)", 20: "Stopped",
	21: "Stopped (tty input)", 22: "Stopped (tty output)", 23: "Urgent I/O condition",
	24: "CPU time limit exceeded", 25: "File size limit exceeded", 26: "Virtual timer expired",
	27: "Profiling timer expired", 28: "Window changed", 29: "I/O possible", 30: "Power failure",
	31: "Bad system call",
}

// signalName is the name of signal n without SIG ("TERM", "RTMIN+2"), or
// "" for a number that is no signal.
func signalName(n int) string {
	switch {
	case n > 0 && n < len(signalNames):
		return signalNames[n]
	case n == 34:
		return "RTMIN"
	case n > 34 && n <= 49:
		return "RTMIN+" + strconv.Itoa(n-34)
	case n >= 50 && n < 64:
		return "RTMAX-" + strconv.Itoa(64-n)
	case n == 64:
		return "RTMAX"
	}
	return ""
}

func signalDescription(n int) string {
	if n > 0 && n < len(signalDescriptions) {
		return signalDescriptions[n]
	}
	return "Real-time signal " + strconv.Itoa(n-34)
}

// signalNumber parses a signal given by name (TERM, SIGTERM, term) or by
// number; ok is false for neither. 0 is a valid signal for kill.
func signalNumber(s string) (int, bool) {
	if n, err := strconv.Atoi(s); err == nil {
		if n == 0 || signalName(n) != "" {
			return n, true
		}
		return 0, false
	}
	name := strings.TrimPrefix(strings.ToUpper(s), "SIG")
	if name == "" {
		return 0, false // llmsh: not the name of a gap in the table
	}
	for n := 1; n <= sigMax; n++ {
		if signalName(n) == name {
			return n, true
		}
	}
	return 0, false
}

// sigTerminates reports whether a signal's default action ends the
// process: not the stop signals and CONT (jobstop.go), nor those ignored
// by default.
func sigTerminates(n int) bool {
	switch n {
	case 17, 18, 19, 20, 21, 22, 23, 28:
		return false
	}
	return n > 0
}

// listSignals prints the signals as kill -l and trap -l do: five to a
// line, " 1) SIGHUP".
func listSignals(out func(format string, a ...any)) {
	var sb strings.Builder
	i := 0
	for n := 1; n <= sigMax; n++ {
		name := signalName(n)
		if name == "" {
			continue
		}
		fmt.Fprintf(&sb, "%2d) SIG%s", n, name)
		i++
		if i%5 == 0 {
			sb.WriteByte('\n')
		} else {
			sb.WriteByte('\t')
		}
	}
	if i%5 != 0 {
		sb.WriteByte('\n')
	}
	out("%s", sb.String())
}

// builtinKill is the kill builtin, for the session's own processes:
// a job (%N) or process id of the session is stopped by its context; a
// signal sent to the shell itself ($$, $BASHPID) runs its trap, or ends
// it with 128+N as the signal's default action would.
func (r *Runner) builtinKill(ctx context.Context, args []string) exitStatus {
	var exit exitStatus
	usage := func() exitStatus {
		r.errf("kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n")
		exit.code = 2
		return exit
	}
	if len(args) == 0 {
		return usage()
	}
	sig := sigTERM
	badSig := func(s string) exitStatus {
		r.errf("%skill: %s: invalid signal specification\n", r.errPrefix(), s)
		exit.code = 1
		return exit
	}
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
		a := args[0]
		switch a {
		case "--":
			args = args[1:]
			goto targets
		case "-l", "-L":
			return r.killList(killListArgs(args[1:]))
		case "-s", "-n":
			if len(args) < 2 {
				r.errf("%skill: %s: option requires an argument\n", r.errPrefix(), a)
				exit.code = 1 // llmsh: bash gives no usage here
				return exit
			}
			n, ok := signalNumber(args[1])
			if !ok {
				return badSig(args[1])
			}
			sig, args = n, args[2:]
			continue
		}
		n, ok := signalNumber(a[1:])
		if !ok {
			return badSig(a[1:])
		}
		sig, args = n, args[1:]
		break
	}
targets:
	if len(args) == 0 {
		return usage()
	}
	for _, arg := range args {
		if strings.HasPrefix(arg, "%") {
			j, msg := r.findJob(arg)
			if j == nil {
				r.jobSpecErr("kill", arg, msg, false)
				exit.code = 1
				continue
			}
			j.signal(sig, r.llmsh.jobControl)
			continue
		}
		pid, err := strconv.Atoi(arg)
		if err != nil {
			r.errf("%skill: %s: arguments must be process or job IDs\n", r.errPrefix(), arg)
			exit.code = 1
			continue
		}
		if pid == r.bashPid || (pid == r.llmsh.pid && r.bashPid == r.llmsh.pid) {
			if _, trapped := r.traps["INT"]; sig == sigINT && !trapped && r.callbackExit == "" && r.lastInSubshell() {
				// bash: a subshell's SIGINT is seen at its next
				// command; after its last there is none, so
				// `(kill -INT $BASHPID)` ends with kill's status, 0.
				continue
			}
			if r.signalSelf(ctx, sig) {
				// The signal's default action: the shell ends. bash
				// runs the EXIT trap, a subshell's too (`( trap 'echo
				// x' EXIT; kill $BASHPID; echo no )` prints x for
				// TERM, INT, HUP), but not when the kill is the
				// subshell's last statement (subLast), and none for
				// SIGKILL (llmsh).
				if sig == sigKILL || r.lastInSubshell() {
					r.callbackExit = ""
				}
				return exitStatus{code: uint8(128 + sig), exiting: true, signaled: uint8(sig), sigPid: r.bashPid}
			}
			if r.exit.exiting {
				return r.exit // llmsh: exit or set -e in the trap's action
			}
			continue
		}
		if pid == r.llmsh.pid {
			// $$ from a subshell or a job: the main shell gets it.
			r.llmsh.signalTop(sig)
			continue
		}
		// llmsh: a process that has ended is no more (bash reaps
		// its children as they end): kill says so.
		if j := r.jobByPid(pid); j != nil && !j.finished() {
			j.signal(sig, r.llmsh.jobControl)
			continue
		}
		if v, ok := r.llmsh.procs.Load(pid); ok && !v.(*bgProc).finished() {
			v.(*bgProc).signal(sig, r.llmsh.jobControl)
			continue
		}
		r.errf("%skill: (%d) - No such process\n", r.errPrefix(), pid)
		exit.code = 1
	}
	return exit
}

// lastInSubshell reports whether the statement running is the last of a
// ( ) subshell (subLast).
func (r *Runner) lastInSubshell() bool {
	return r.bashPid != r.llmsh.pid && r.curStmt != nil && r.curStmt == r.subLast
}

// signalSelf delivers sig to the shell running r: its trap runs after
// the command (runSelfTraps), an ignored signal does nothing, and otherwise signalSelf reports whether
// the signal ends the shell (with status 128+sig).
func (r *Runner) signalSelf(ctx context.Context, sig int) bool {
	name := signalName(sig)
	if action, ok := r.traps[name]; ok {
		if action != "" && !slices.Contains(r.sigRunning, name) && !slices.Contains(r.selfTraps, name) {
			// As bash, the trap runs when the command that sent the
			// signal is over, its redirections undone (stmtSync); a
			// signal already pending is not queued twice.
			r.selfTraps = append(r.selfTraps, name)
		}
		return false
	}
	switch {
	case sig == sigQUIT && (r.bashPid == r.llmsh.pid || r.asyncQuit):
		return false // bash ignores SIGQUIT, and so does a job of &
	case sig == sigINT && r.asyncInt:
		return false
	}
	return sigTerminates(sig)
}

// killListArgs is what kill -l lists of args, the words after its -l:
// as bash's kill reads on, it skips more -l and -L, a --, -s or -n and
// their word, and the first -SIGSPEC (not checked) (llmsh).
func killListArgs(args []string) []string {
	sawSig := false
	for len(args) > 0 {
		switch w := args[0]; {
		case w == "-l" || w == "-L":
			args = args[1:]
		case w == "--":
			return args[1:]
		case (w == "-s" || w == "-n") && len(args) > 1:
			args = args[2:]
		case len(w) > 1 && w[0] == '-' && !sawSig:
			sawSig, args = true, args[1:]
		default:
			return args
		}
	}
	return args
}

// killList is kill -l: every signal, or the name of each number (a status
// above 128 names its signal) and the number of each name.
func (r *Runner) killList(args []string) exitStatus {
	var exit exitStatus
	if len(args) == 0 {
		listSignals(r.outf)
		return exit
	}
	for _, a := range args {
		if n, err := strconv.Atoi(a); err == nil {
			if n > 128 {
				n -= 128
			}
			if n == 0 {
				r.outf("EXIT\n") // llmsh: as bash
				continue
			}
			if name := signalName(n); name != "" {
				r.outf("%s\n", name)
				continue
			}
		} else if n, ok := signalNumber(a); ok {
			r.outf("%d\n", n)
			continue
		} else if strings.EqualFold(a, "EXIT") {
			r.outf("0\n") // llmsh: as bash
			continue
		}
		r.errf("%skill: %s: invalid signal specification\n", r.errPrefix(), a)
		exit.code = 1
	}
	return exit
}

// topSignal is what the session's main shell ($$) has been sent from its
// subshells and jobs (`( sleep 5; kill $$ ) &`).
type topSignal struct {
	mu      sync.Mutex
	cancel  context.CancelCauseFunc // of the main shell's Run, while it runs
	trapped map[string]bool         // the signals the main shell traps
	wake    context.CancelFunc      // ends the main shell's wait, while it waits
	pending []int                   // trapped signals, run at its next command
	chld    int                     // its background jobs that ended (chld.go)
	fatal   int                     // the untrapped signal that ended it
	// cmdCancel ends the command the main shell runs, when a signal
	// may reach its process group (GroupSignals).
	cmdCancel context.CancelFunc
	ignored   map[string]bool // the signals of trapped it ignores
	// held is set while the main shell runs a script in parts
	// (HoldExitTrap: a script read on stdin, a Run per command): a
	// signal between two parts is the script's, not lost; heldFatal
	// is an untrapped one, which ends the next part as it starts.
	held      bool
	heldFatal int
}

// errTopSignal is the cause of a main shell's context that a signal ended.
var errTopSignal = errors.New("terminated by a signal")

// signalTop sends sig to the main shell: a trapped signal runs its trap
// before the main shell's next command; an ignored one does nothing; any
// other terminating signal ends the main shell (its context is
// cancelled, and its status is 128+sig), as it would end bash.
func (s *session) signalTop(sig int) {
	t := &s.top
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cancel == nil && !t.held || sig == 0 {
		return
	}
	name := signalName(sig)
	if t.ignored[name] {
		return // llmsh: nothing to run, no wait to end
	}
	if t.trapped[name] {
		t.pending = append(t.pending, sig)
		s.topPending.Store(true)
		if t.wake != nil {
			t.wake()
		}
		return
	}
	if !sigTerminates(sig) || sig == sigQUIT || t.fatal != 0 {
		return // bash ignores SIGQUIT when it does not trap it
	}
	if t.cancel == nil {
		if t.heldFatal == 0 {
			t.heldFatal = sig // between two parts of a script (held)
		}
		return
	}
	t.fatal = sig
	t.cancel(errTopSignal)
}

// watchTop makes the context under which the main shell runs a node, so
// that a signal sent to $$ can end it; stop forgets it.
func (r *Runner) watchTop(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	t := &r.llmsh.top
	t.mu.Lock()
	t.cancel, t.fatal = cancel, 0
	if t.heldFatal != 0 {
		// A signal that came between two parts of the script ends it.
		t.fatal, t.heldFatal = t.heldFatal, 0
		cancel(errTopSignal)
	}
	t.mu.Unlock()
	r.noteTraps()
	return ctx, func() {
		t.mu.Lock()
		t.cancel = nil
		t.mu.Unlock()
		cancel(nil)
	}
}

// noteTraps tells the session which signals the main shell traps, for
// signalTop (another goroutine's): called when its traps change.
func (r *Runner) noteTraps() {
	if r.bashPid != r.llmsh.pid {
		r.noteJobTraps() // llmsh: jobsig.go
		return
	}
	var set, ignored map[string]bool // (llmsh: none made for no trap, at each Run)
	if len(r.traps) > 0 {
		set = make(map[string]bool, len(r.traps))
	}
	for name, a := range r.traps {
		set[name] = true
		if a == "" {
			if ignored == nil {
				ignored = map[string]bool{}
			}
			ignored[name] = true
		}
	}
	t := &r.llmsh.top
	t.mu.Lock()
	t.trapped, t.ignored = set, ignored
	t.mu.Unlock()
}

// topFatal returns the signal that ended the main shell's run, if any.
func (r *Runner) topFatal() int {
	t := &r.llmsh.top
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.fatal
}

// runSelfTraps runs the traps of the signals that the command just run
// sent to its own shell (kill -USR1 $$, kill $BASHPID).
func (r *Runner) runSelfTraps(ctx context.Context) {
	names := r.selfTraps
	r.selfTraps = nil
	for _, name := range names {
		if a := r.traps[name]; a != "" {
			r.trapCallback(ctx, a, name)
		}
	}
}

// runPendingSignals runs the traps of the signals sent to the main shell
// by its subshells and jobs; it is called before each of its commands.
func (r *Runner) runPendingSignals(ctx context.Context) {
	t := &r.llmsh.top
	t.mu.Lock()
	sigs := t.pending
	t.pending = nil
	r.chldPending += t.chld // llmsh: chld.go
	t.chld = 0
	r.llmsh.topPending.Store(false)
	t.mu.Unlock()
	if r.traps[chldTrap] != "" {
		r.runChldTraps(ctx)
	}
	for _, sig := range sigs {
		if a := r.traps[signalName(sig)]; a != "" {
			r.trapCallback(ctx, a, signalName(sig))
		}
	}
}

// interruptible makes the context of the main shell's wait, which a
// trapped signal ends.
func (t *topSignal) interruptible(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	t.mu.Lock()
	t.wake = cancel
	if len(t.pending) > 0 {
		cancel()
	}
	t.mu.Unlock()
	return ctx, func() {
		t.mu.Lock()
		t.wake = nil
		t.mu.Unlock()
		cancel()
	}
}

// waitInterrupted is the status of a wait that ended before its jobs:
// 128+N when a trapped signal N interrupted it.
func (r *Runner) waitInterrupted(exit exitStatus) exitStatus {
	if bg := r.jobSelf; bg != nil && r.bashPid == bg.pid {
		bg.mu.Lock()
		defer bg.mu.Unlock()
		if len(bg.trapPending) > 0 {
			return exitStatus{code: uint8(128 + bg.trapPending[0])} // llmsh: jobsig.go
		}
		return exit
	}
	t := &r.llmsh.top
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.pending) > 0 && r.bashPid == r.llmsh.pid {
		return exitStatus{code: uint8(128 + t.pending[0])}
	}
	return exit
}
