package builtins

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"
)

var _ = register(Builtin{Name: "timeout", Summary: "run a command with a time limit", Run: timeoutCmd})

// toSignals are the Linux signal numbers timeout accepts by name.
var toSignals = map[string]int{
	"HUP": 1, "INT": 2, "QUIT": 3, "ILL": 4, "TRAP": 5, "ABRT": 6, "IOT": 6, "BUS": 7,
	"FPE": 8, "KILL": 9, "USR1": 10, "SEGV": 11, "USR2": 12, "PIPE": 13, "ALRM": 14,
	"TERM": 15, "STKFLT": 16, "CHLD": 17, "CLD": 17, "CONT": 18, "STOP": 19, "TSTP": 20,
	"TTIN": 21, "TTOU": 22, "URG": 23, "XCPU": 24, "XFSZ": 25, "VTALRM": 26, "PROF": 27,
	"WINCH": 28, "IO": 29, "POLL": 29, "PWR": 30, "SYS": 31,
}

// toSignal parses a signal name (TERM, SIGTERM, term) or number as GNU
// timeout does.
func toSignal(s string) (int, bool) {
	if s != "" && s[0] >= '0' && s[0] <= '9' {
		n, err := strconv.Atoi(s)
		if err != nil || n > 64 {
			return 0, false
		}
		return n, true
	}
	u := strings.ToUpper(s)
	u = strings.TrimPrefix(u, "SIG")
	if n, ok := toSignals[u]; ok {
		return n, true
	}
	if rest, ok := strings.CutPrefix(u, "RTMIN"); ok {
		return toRT(rest, 34, 1)
	}
	if rest, ok := strings.CutPrefix(u, "RTMAX"); ok {
		return toRT(rest, 64, -1)
	}
	return 0, false
}

func toRT(rest string, base, dir int) (int, bool) {
	if rest == "" {
		return base, true
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n*dir < 0 || n*dir > 30 {
		return 0, false
	}
	return base + n, true
}

func toSignalName(n int) string {
	best := ""
	for name, v := range toSignals {
		if v == n && (best == "" || name < best) && name != "IOT" && name != "CLD" && name != "POLL" {
			best = name
		}
	}
	if best == "" {
		return strconv.Itoa(n)
	}
	return best
}

// toDuration parses DURATION as GNU timeout does: a floating point number
// with an optional s, m, h or d suffix; 0 means no limit.
func toDuration(s string) (time.Duration, bool) {
	sec, ok := sleepSeconds(s)
	if !ok {
		return 0, false
	}
	if sec*float64(time.Second) >= math.MaxInt64 {
		return math.MaxInt64, true
	}
	d := time.Duration(sec * float64(time.Second))
	if d == 0 && sec > 0 {
		d = 1 // a tiny positive duration is a timeout, not "no limit"
	}
	return d, true
}

// gateWriter forwards writes until closed; an abandoned command's later
// writes fail as a broken pipe instead of reaching the output.
type gateWriter struct {
	mu     sync.Mutex
	w      io.Writer
	closed bool
}

func (g *gateWriter) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return 0, ErrBrokenPipe
	}
	return g.w.Write(p)
}

func (g *gateWriter) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
}

// toStdin hands the command its standard input through a goroutine, so
// that a read blocked on a pipe or terminal that never delivers ends with
// the command's context instead of outliving the timeout. The goroutine
// reads only when asked, never ahead of the command: a shell that the
// command runs shares it with its own commands (SharedInput), so that
// `while read f; do timeout 5 ./job.sh; done < list` leaves the loop its
// lines.
type toStdin struct {
	mu       sync.Mutex // the shell's readers may read at once
	ctx      context.Context
	r        io.Reader
	once     sync.Once
	req      chan int
	ch       chan toChunk
	inflight bool
	left     []byte
	err      error
}

type toChunk struct {
	b   []byte
	err error
}

func (t *toStdin) pump() {
	for {
		select {
		case n := <-t.req:
			buf := make([]byte, n)
			n, err := t.r.Read(buf)
			select {
			case t.ch <- toChunk{buf[:n], err}:
			case <-t.ctx.Done():
				return
			}
			if err != nil {
				return
			}
		case <-t.ctx.Done():
			return
		}
	}
}

// SharedInput marks toStdin as input its readers share, which the
// interpreter reads as it is instead of copying it ahead into a pipe.
func (*toStdin) SharedInput() {}

func (t *toStdin) Read(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.left) > 0 {
		n := copy(p, t.left)
		t.left = t.left[n:]
		return n, nil
	}
	if t.err != nil {
		return 0, t.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	t.once.Do(func() {
		t.req = make(chan int, 1)
		t.ch = make(chan toChunk, 1)
		go t.pump()
	})
	if !t.inflight {
		t.req <- len(p)
		t.inflight = true
	}
	select {
	case c := <-t.ch:
		t.inflight = false
		n := copy(p, c.b)
		t.left = c.b[n:]
		t.err = c.err
		if n == 0 && c.err != nil {
			return 0, c.err
		}
		return n, nil
	case <-t.ctx.Done():
		return 0, t.ctx.Err()
	}
}

// timeoutOpts are timeout's options.
type timeoutOpts struct {
	preserve, foreground, verbose bool
	killAfter                     time.Duration
	sig                           int
}

// timeoutFlags declares timeout's options, filling o.
func timeoutFlags(env *Env, o *timeoutOpts) *Flags {
	f := NewFlags(env, "Start COMMAND, and kill it if still running after DURATION.\n\nCOMMAND runs inside llmsh through the shell (builtins and functions only);\n\"killing\" it cancels its context, which every builtin honours.", "[OPTION] DURATION COMMAND [ARG]...", "[OPTION]")
	f.StopAtOperand = true
	f.BoolVar(&o.preserve, 0, "preserve-status", "exit with the same status as COMMAND, even when the command times out")
	f.BoolVar(&o.foreground, 0, "foreground", "accepted for compatibility; there is no TTY to hand over")
	f.Func('k', "kill-after", RequiredArg, "DURATION", "also send a KILL signal if COMMAND is still running this long after the initial signal was sent", func(v string, _ bool) error {
		d, ok := toDuration(v)
		if !ok {
			return &UsageError{"invalid time interval " + env.Quote(v)}
		}
		o.killAfter = d
		return nil
	})
	f.Func('s', "signal", RequiredArg, "SIGNAL", "specify the signal to be sent on timeout; SIGNAL may be a name like 'HUP' or a number", func(v string, _ bool) error {
		n, ok := toSignal(v)
		if !ok {
			return &UsageError{env.Quote(v) + ": invalid signal"}
		}
		o.sig = n
		return nil
	})
	f.BoolVar(&o.verbose, 'v', "verbose", "diagnose to stderr any signal sent upon timeout")
	f.Epilog = "DURATION is a floating point number with an optional suffix:\n's' for seconds (the default), 'm' for minutes, 'h' for hours or 'd' for days.\nA duration of 0 disables the associated timeout.\n\nEXIT status:\n  124  if COMMAND times out, and --preserve-status is not specified\n  125  if the timeout command itself fails\n  126  if COMMAND is found but cannot be invoked\n  127  if COMMAND cannot be found\n  137  if COMMAND is sent the KILL (9) signal (128+9)\n  -    the exit status of COMMAND otherwise"
	return f
}

func timeoutCmd(env *Env) int {
	o := timeoutOpts{sig: 15}
	f := timeoutFlags(env, &o)
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 125)
	}
	if len(args) < 2 {
		fmt.Fprintf(env.Stderr, "Try '%s --help' for more information.\n", env.Name())
		return 125
	}
	limit, ok := toDuration(args[0])
	if !ok {
		return f.Fail(&UsageError{"invalid time interval " + env.Quote(args[0])}, 125)
	}
	if env.Exec == nil {
		env.Errorf("cannot run commands here")
		return 126
	}
	cmd := args[1:]

	ctx, cancel := context.WithCancel(env.Ctx)
	defer cancel()
	ctx = withLimitDeadline(ctx, limit)
	ctx, target := WithSignalTarget(ctx)
	out := &gateWriter{w: env.Stdout}
	errw := &gateWriter{w: env.Stderr}
	done := make(chan int, 1)
	ctx, child := WithKillReport(ctx)
	go func() {
		st := 2
		defer func() { done <- st }()
		st = env.Exec(ctx, cmd, &toStdin{ctx: ctx, r: env.Stdin}, out, errw)
	}()

	fire, stop := optTimer(limit)
	defer stop()
	select {
	case st := <-done:
		if sig := child.Sig(); sig != 0 && st == 128+sig {
			// GNU timeout ends itself with the signal that ended its
			// command when it did not time out.
			ReportKilled(env.Ctx, sig)
		}
		return st
	case <-env.Ctx.Done():
		// timeout itself was cancelled: pass it on and wait for the command.
		cancel()
		return <-done
	case <-fire:
	}
	if o.verbose {
		env.Errorf("sending signal %s to command %s", toSignalName(o.sig), env.Quote(cmd[0]))
	}
	// A KILL is sent to timeout's whole process group, timeout with it,
	// unless --foreground: bash then reports timeout killed.
	killed := func() int {
		if !o.foreground {
			ReportKilled(env.Ctx, 9)
		}
		return 128 + 9
	}
	timedOut := func(st int) int {
		switch {
		case o.sig == 9:
			return killed()
		case o.preserve:
			return 128 + o.sig
		}
		return 124
	}
	if o.sig == 0 {
		// Signal 0 kills nothing: the command runs on to its end.
		st := <-done
		if o.preserve {
			return st
		}
		return 124
	}
	if target.Deliver(o.sig) {
		st := waitTrapped(env, done, o.killAfter, o.preserve, o.verbose, cmd[0], cancel, func() {
			out.close()
			errw.close()
		})
		if st == 128+9 && env.Ctx.Err() == nil {
			return killed() // -k's
		}
		return st
	}
	// The command is "killed": it stops through its context, and nothing
	// it writes from now on gets out, as with a process killed by signal.
	out.close()
	errw.close()
	cancel()
	killc, stopKill := optTimer(o.killAfter)
	defer stopKill()
	select {
	case st := <-done:
		return timedOut(st)
	case <-killc:
		if o.verbose {
			env.Errorf("sending signal KILL to command %s", env.Quote(cmd[0]))
		}
		// The command ignored its cancellation: abandon it.
		return killed()
	}
}

// limitCtx is the context of timeout's command: its Deadline is when
// the limit runs out, which cancels nothing by itself (the timer's
// signal does), so that the backtracking engines of grep -P and jq,
// which cannot be cancelled, bound a search by it: a catastrophic
// pattern under "timeout 0.2" ran to their own 10 s or 2 s bound.
type limitCtx struct {
	context.Context
	deadline time.Time
}

func (c limitCtx) Deadline() (time.Time, bool) { return c.deadline, true }

// withLimitDeadline is ctx with the deadline of a limit d from now
// (limitCtx), unless ctx has an earlier one or d is none.
func withLimitDeadline(ctx context.Context, d time.Duration) context.Context {
	if d <= 0 || d == math.MaxInt64 {
		return ctx
	}
	deadline := time.Now().Add(d)
	if old, ok := ctx.Deadline(); ok && !deadline.Before(old) {
		return ctx
	}
	return limitCtx{ctx, deadline}
}

// optTimer fires after d, or never when d is 0 or the largest duration
// (no limit); stop releases it.
func optTimer(d time.Duration) (<-chan time.Time, func()) {
	if d <= 0 || d == math.MaxInt64 {
		return nil, func() {}
	}
	t := time.NewTimer(d)
	return t.C, func() { t.Stop() }
}

// waitTrapped waits for a command whose shell took timeout's signal: it
// runs its trap (before its next command) and goes on as the action
// says; the kill after -k abandons it (its output closed, its context
// cancelled). The status is 124, or the command's with --preserve-status.
func waitTrapped(env *Env, done <-chan int, killAfter time.Duration, preserve, verbose bool, name string, cancel context.CancelFunc, closeOut func()) int {
	killc, stopKill := optTimer(killAfter)
	defer stopKill()
	select {
	case st := <-done:
		if preserve {
			return st
		}
		return 124
	case <-killc:
		if verbose {
			env.Errorf("sending signal KILL to command %s", env.Quote(name))
		}
		closeOut()
		cancel()
		return 128 + 9
	case <-env.Ctx.Done():
		cancel()
		return <-done
	}
}

// SignalNumber reads a signal name (PIPE, SIGPIPE) or number as GNU's
// str2sig does, for env's signal options.
func SignalNumber(s string) (int, bool) {
	n, ok := toSignal(s)
	return n, ok && n > 0
}
