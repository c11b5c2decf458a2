// Package repl is llmsh's interactive shell: line editing with emacs keys
// and persistent history (chzyer/readline), multi-line input, completion of
// commands, options, variables and paths through vfsd, a prompt with the
// virtual working directory and the last status, colour through
// fatih/color, and Ctrl-C that interrupts the running command only.
//
// Every command runs in one shell.Shell, so one vfsd session serves the
// whole REPL.
package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/llmsh/llmsh/third_party/readline"
	"github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"

	"github.com/llmsh/llmsh/builtins"
	"github.com/llmsh/llmsh/shell"
)

// Options configure a REPL.
type Options struct {
	Shell *shell.Shell
	// Input is the terminal, shared with the shell: give the shell
	// Input.Commands() as its standard input.
	Input *Input
	// Terminal is the terminal's file (for raw mode and its width).
	Terminal *os.File
	// Stderr is where prompts, editing and llmsh's messages go.
	Stderr io.Writer
	// History is the persistent history; nil keeps it in memory only.
	History *History
	// Color enables colour in llmsh's own output.
	Color bool
	// Version, Readable and Writable are shown in the banner.
	Version            string
	Readable, Writable []string
	// Roots are the absolute grant paths, offered by path completion.
	Roots []string
	// Timeout, when positive, bounds each command line's run (status 124).
	Timeout time.Duration
	// Begin, when set, is called before each command line runs, with the
	// function that stops it; End after it has run, reporting whether a
	// limit stopped it (which has said so; the status is then 125). They
	// let the operator's limits (output, memory) end the line, not the
	// session.
	Begin func(stop func())
	End   func() bool
	// Held are the terminal's outputs that the command lines write to,
	// when they take write deadlines (a file of its own in non-blocking
	// mode): when a line ends (its time limit, another limit, Ctrl-C), a
	// write to them that the terminal holds (^S, XOFF) ends too, as a
	// signal ends bash's command held there, instead of keeping the line
	// running past its limit until ^Q.
	Held []Held
}

// Held is a terminal output that takes write deadlines.
type Held interface {
	SetWriteDeadline(time.Time) error
}

// current is the history of the running REPL, which the history builtin
// lists; nil outside the REPL.
var current atomic.Pointer[History]

func init() {
	builtins.Register(builtins.Builtin{Name: "history", Summary: "list the commands typed in the interactive shell", Run: historyCmd})
}

func historyCmd(env *builtins.Env) int {
	if len(env.Args) > 1 && env.Args[1] == "--help" {
		// bash's CHECK_HELPOPT: its own text, status 2
		syn, _, text, _ := interp.BuiltinHelp("history")
		fmt.Fprintf(env.Stdout, "history: %s\n%s", syn, text)
		return 2
	}
	if current.Load() == nil {
		return scriptHistory(env)
	}
	f := builtins.NewFlags(env, "List the commands entered in the interactive shell, oldest first, numbered;\nwith N, only the last N.", "[N]")
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 2)
	}
	h := current.Load()
	if h == nil {
		return scriptHistory(env)
	}
	entries := h.Entries()
	first := 0
	switch len(args) {
	case 0:
	case 1:
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 0 {
			env.Errorf("%s: numeric argument required", args[0])
			return 2
		}
		first = max(0, len(entries)-n)
	default:
		env.Errorf("too many arguments")
		return 2
	}
	for i := first; i < len(entries); i++ {
		if _, err := fmt.Fprintf(env.Stdout, "%5d  %s\n", i+1, entries[i]); err != nil {
			return 1
		}
	}
	return 0
}

// scriptHistory is this builtin outside the REPL, run as a command of
// its own (a script's history builtin is the interpreter's, which keeps
// the list history -s adds to): it lists nothing, -c clears nothing, -p
// prints its arguments (history expansion is off), -anrw have no file
// to use, and -s is refused, having no list to add to.
func scriptHistory(env *builtins.Env) int {
	args := env.Args[1:]
	fileOps := 0
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		a := args[0]
		if a == "--" {
			args = args[1:]
			break
		}
		args = args[1:]
		for _, c := range a[1:] {
			switch c {
			case 'c':
			case 'a', 'n', 'r', 'w':
				fileOps++
			case 'p':
				for _, arg := range args {
					fmt.Fprintln(env.Stdout, arg)
				}
				return 0
			case 's':
				env.Errorf("-s: no history: only the interactive shell keeps one")
				return 1
			case 'd':
				if len(args) == 0 {
					env.Errorf("-d: option requires an argument")
					return 2
				}
				env.Errorf("%s: history position out of range", args[0])
				return 1
			default:
				env.Errorf("-%c: invalid option", c)
				fmt.Fprintln(env.Stderr, "history: usage: history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]")
				return 2
			}
		}
	}
	if fileOps > 1 {
		env.Errorf("cannot use more than one of -anrw")
		return 1
	}
	if fileOps == 1 {
		return 0
	}
	switch {
	case len(args) > 1:
		env.Errorf("too many arguments")
		return 1
	case len(args) == 1:
		if _, err := strconv.Atoi(args[0]); err != nil {
			env.Errorf("%s: numeric argument required", args[0])
			return 1
		}
	}
	return 0
}

// shellSource answers completion from the shell and its vfsd client.
type shellSource struct {
	sh    *shell.Shell
	roots []string
}

func (s shellSource) Dir() string            { return s.sh.Dir() }
func (s shellSource) CommandNames() []string { return s.sh.CommandNames() }
func (s shellSource) VarNames() []string {
	var out []string
	for k := range s.sh.Vars() {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
func (s shellSource) CompleteSpec(cmd, word, prev string) ([]string, bool) {
	return s.sh.CompleteSpec(cmd, word, prev)
}
func (s shellSource) ReadDir(dir string) ([]fs.DirEntry, error) {
	return s.sh.Client().ReadDir(dir)
}
func (s shellSource) Stat(name string) (fs.FileInfo, error) { return s.sh.Client().Stat(name) }
func (s shellSource) Roots() []string {
	out := append([]string(nil), s.roots...)
	if vf, err := s.sh.Client().VirtualFiles(); err == nil {
		for _, v := range vf {
			out = append(out, v.Path)
		}
	}
	return out
}

// Run reads and runs commands until Ctrl-D, exit, or the end of ctx, and
// returns the status to exit with.
func Run(ctx context.Context, o Options) int {
	s := &session{o: o, pal: newPalette(o.Color), hist: o.History}
	if s.hist == nil {
		s.hist = NewHistory()
	}
	current.Store(s.hist)
	defer current.Store(nil)
	o.Shell.SetHistory(s.hist.Entries)
	o.Shell.SetAtPrompt(true)
	defer o.Shell.SetAtPrompt(false)
	o.Shell.StartInteractive()

	rl, err := newEditor(o, ctx.Done())
	if err != nil {
		fmt.Fprintf(o.Stderr, "llmsh: %v\n", err)
		return 1
	}
	restore := restoreMode(int(o.Terminal.Fd()))
	defer restore()
	defer rl.Close()
	s.rl = rl
	for _, e := range s.hist.Entries() {
		rl.SaveHistory(e)
	}
	defer s.catchInterrupts()()

	fmt.Fprintln(o.Stderr, s.pal.note.Sprint(banner(o)))
	status := 0
	var buf strings.Builder
	for ctx.Err() == nil {
		s.prompt(status, buf.Len() > 0)
		line, err := rl.Readline()
		switch {
		case errors.Is(err, readline.ErrInterrupt):
			// Ctrl-C: drop the line (and any unfinished command); $? is
			// 130, as in bash.
			buf.Reset()
			status = 130
			o.Shell.SetLastStatus(status)
			continue
		case errors.Is(err, io.EOF):
			if buf.Len() == 0 && ctx.Err() == nil && o.Shell.StoppedJobs() {
				// Ctrl-D is exit, which bash refuses once while
				// jobs are stopped ("There are stopped jobs.").
				restore()
				if st, exit := s.run(ctx, "exit\n"); exit {
					o.Shell.Finish(ctx)
					return st
				}
				continue
			}
			if buf.Len() == 0 || ctx.Err() != nil {
				o.Shell.Finish(ctx)
				return status
			}
			// Ctrl-D inside an unfinished command: show why it is one.
			_, perr := syntax.NewParser().Parse(strings.NewReader(buf.String()), "")
			showError(o.Stderr, s.pal, perr, buf.String())
			buf.Reset()
			status = 2
			o.Shell.SetLastStatus(status)
			continue
		case err != nil:
			fmt.Fprintf(o.Stderr, "llmsh: %v\n", err)
			return 1
		}
		buf.WriteString(line)
		buf.WriteString("\n")
		src := buf.String()
		if o.Shell.InputIncomplete(ctx, src) {
			continue
		}
		buf.Reset()
		if strings.TrimSpace(src) == "" {
			continue
		}
		if entry, err := s.hist.Add(src); err != nil {
			fmt.Fprintln(o.Stderr, s.pal.err.Sprintf("llmsh: history: %v", err))
		} else if entry != "" {
			rl.SaveHistory(entry)
		}
		// The terminal leaves raw mode only now, for the command:
		// between the lines of one command it stays raw, so a Ctrl-C
		// typed ahead is a key for the editor, never a SIGINT that
		// would flush what was typed before it.
		restore()
		var exit bool
		if status, exit = s.run(ctx, src); exit {
			return status
		}
	}
	return status
}

// session is one run of the REPL: its line editor, and the command
// running, which SIGINT cancels.
type session struct {
	o    Options
	pal  *palette
	hist *History
	rl   *readline.Instance

	mu          sync.Mutex
	cancelCmd   context.CancelFunc // guarded by mu
	endInput    func()             // ends the running line's input; guarded by mu
	pending     bool               // a SIGINT before the command started; guarded by mu
	interrupted atomic.Bool
}

// newEditor makes the line editor, reading the terminal until
// sessionDone.
func newEditor(o Options, sessionDone <-chan struct{}) (*readline.Instance, error) {
	stdin := o.Input.editor(sessionDone)
	fd := int(o.Terminal.Fd())
	var rl *readline.Instance
	rl, err := readline.NewEx(&readline.Config{
		Stdin:                  stdin,
		Stdout:                 o.Stderr,
		Stderr:                 o.Stderr,
		AutoComplete:           NewCompleter(shellSource{sh: o.Shell, roots: o.Roots}),
		HistoryLimit:           maxHistory,
		DisableAutoSaveHistory: true,
		InterruptPrompt:        "^C",
		EOFPrompt:              "exit",
		FuncIsTerminal:         func() bool { return readline.IsTerminal(fd) },
		FuncGetWidth:           func() int { return termWidth(fd) },
		FuncMakeRaw:            rawMode(fd),
		FuncExitRaw:            func() error { return nil }, // Run restores it before a command runs
		// Ctrl-C clears the line, as bash's, even while a completion
		// list or a history search is shown (readline only leaves
		// those): the filter runs in readline's own loop, before the key.
		FuncFilterInputRune: func(r rune) (rune, bool) {
			if r == readline.CharCtrlZ {
				// Ctrl-Z at the prompt does nothing, as in bash
				// (readline would suspend llmsh). Dropping the key
				// (false) would leave readline a stale read request
				// that takes the next line's first key while the
				// command runs; Ctrl-G, which readline ignores
				// outside a search or a completion list, does not.
				return readline.CharBell, true
			}
			if r == readline.CharInterrupt && rl != nil {
				if rl.Operation.IsSearchMode() {
					rl.Operation.ExitSearchMode(true)
				}
				if rl.Operation.IsInCompleteMode() {
					rl.Operation.ExitCompleteMode(true)
				}
			}
			return r, true
		},
	})
	return rl, err
}

// catchInterrupts starts handling SIGINT and SIGTSTP, which reach llmsh
// only while a command runs (line editing keeps the terminal raw).
// SIGINT cancels that command; one that comes after the line was read
// but before the command has started is kept for it. SIGTSTP (Ctrl-Z)
// stops the job in the foreground, which the shell then reports as
// stopped, as bash does; without one it does nothing (llmsh itself is
// never stopped). It returns the function that stops it.
func (s *session) catchInterrupts() (stop func()) {
	sigc := make(chan os.Signal, 1)
	signal.Notify(sigc, os.Interrupt)
	if stopSignal != nil {
		signal.Notify(sigc, stopSignal)
	}
	stopFg := s.o.Shell.ForegroundStopper()
	go func() {
		for sig := range sigc {
			if sig == stopSignal {
				if stopFg() {
					// The stopped job, which holds the line's input,
					// must take nothing more that is typed: the line
					// reads to its end, and what comes next waits for
					// the prompt (in bash it stays in the terminal).
					s.mu.Lock()
					if s.endInput != nil {
						s.endInput()
					}
					s.mu.Unlock()
				}
				continue
			}
			s.mu.Lock()
			if s.cancelCmd != nil {
				s.interrupted.Store(true)
				s.cancelCmd()
			} else {
				s.pending = true
			}
			s.mu.Unlock()
		}
	}()
	return func() {
		signal.Stop(sigc)
		close(sigc)
	}
}

// prompt sets the prompt of the next line: PS2 when it continues a
// command, else PS1 after the report of the jobs that have ended.
func (s *session) prompt(status int, continued bool) {
	o := s.o
	vars := o.Shell.Vars()
	st := promptState{dir: o.Shell.Dir(), home: vars["HOME"], status: status, version: o.Version}
	if !continued {
		// The jobs that have ended since the last prompt, as
		// bash reports them.
		for _, job := range o.Shell.FinishedJobs() {
			fmt.Fprintln(o.Stderr, job)
		}
		st.ps = vars["PS1"]
		s.rl.SetPrompt(primaryPrompt(st, s.pal))
	} else {
		st.ps = vars["PS2"]
		s.rl.SetPrompt(continuationPrompt(st))
	}
	s.mu.Lock()
	s.pending = false
	s.mu.Unlock()
}

// run runs the command src; exit tells that the REPL ends, with status.
func (s *session) run(ctx context.Context, src string) (status int, exit bool) {
	o, pal := s.o, s.pal
	cmdCtx, cancel := context.WithCancel(ctx)
	if o.Timeout > 0 {
		cmdCtx, cancel = context.WithTimeout(ctx, o.Timeout)
	}
	s.interrupted.Store(false)
	cmdIn, err := o.Input.command(func() {
		s.interrupted.Store(true)
		cancel()
	})
	if err == nil {
		err = o.Shell.SetTerminalStdin(cmdIn.stdin, quietTerminal(int(o.Terminal.Fd())))
	}
	if err != nil {
		cancel()
		fmt.Fprintln(o.Stderr, pal.err.Sprintf("llmsh: %v", err))
		return 1, true
	}
	s.mu.Lock()
	s.endInput = cmdIn.interrupt
	s.cancelCmd = func() {
		cancel()
		cmdIn.interrupt()
	}
	if s.pending {
		s.pending = false
		s.interrupted.Store(true)
		s.cancelCmd()
	}
	s.mu.Unlock()
	if o.Begin != nil {
		o.Begin(cancel)
	}
	// A timeout or a limit that ends the line also ends a read from
	// the terminal, as Ctrl-C does.
	stopFeed := context.AfterFunc(cmdCtx, cmdIn.interrupt)
	unhold := endHeldWrites(cmdCtx, o.Held)
	status, rerr := o.Shell.RunInteractive(cmdCtx, src)
	stopFeed()
	unhold()
	limited := o.End != nil && o.End()
	timedOut := errors.Is(cmdCtx.Err(), context.DeadlineExceeded)
	// The interpreter also reports an interrupted run as exited.
	exited := o.Shell.Exited() && cmdCtx.Err() == nil
	s.mu.Lock()
	s.cancelCmd, s.endInput = nil, nil
	s.mu.Unlock()
	cancel()
	cmdIn.finish()
	if rerr != nil {
		showError(o.Stderr, pal, rerr, src)
	}
	switch {
	case s.interrupted.Load():
		status = 130
		fmt.Fprintln(o.Stderr)
	case limited:
		status = 125
	case timedOut:
		status = 124
		fmt.Fprintln(o.Stderr, pal.err.Sprintf("llmsh: timed out after %s", o.Timeout))
	}
	if s.interrupted.Load() || limited || timedOut || rerr != nil {
		// $? of the next line is what the prompt shows, as bash's
		// (after a syntax error too: 2).
		o.Shell.SetLastStatus(status)
	}
	return status, exited
}

// endHeldWrites ends the writes to outs in progress or to come once ctx
// (the command line's) ends; the function it returns lets them wait
// again, for the next line and the prompt.
func endHeldWrites(ctx context.Context, outs []Held) (unhold func()) {
	if len(outs) == 0 {
		return func() {}
	}
	ended := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(ended)
		// stderr (the last) first: a command whose write to stdout
		// ends says so to a stderr that takes nothing more either
		for i := len(outs) - 1; i >= 0; i-- {
			outs[i].SetWriteDeadline(time.Now())
		}
	})
	return func() {
		if !stop() {
			<-ended
		}
		for _, o := range outs {
			o.SetWriteDeadline(time.Time{})
		}
	}
}

// banner is the line shown on start. What is writable is readable
// too, so it is listed under both.
func banner(o Options) string {
	grants := func(ps ...[]string) string {
		all := slices.Concat(ps...)
		if len(all) == 0 {
			return "nothing"
		}
		return strings.Join(all, " ")
	}
	return fmt.Sprintf("llmsh %s · readable: %s · writable: %s · type help for commands, Ctrl-D to leave",
		o.Version, grants(o.Readable, o.Writable), grants(o.Writable))
}

// showError prints a syntax error (with line and column) or another
// refusal in red.
func showError(w io.Writer, pal *palette, err error, src string) {
	if err == nil {
		return
	}
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		// In bash's words at its prompt (its first line: no line number,
		// the offending line is not quoted), then a caret under the spot.
		_, msgs := interp.SyntaxError(pe, src)
		if len(msgs) == 0 {
			msgs = []string{pe.Text}
		}
		fmt.Fprintln(w, pal.err.Sprintf("llmsh: %s", msgs[0]))
		if l := errorLine(src, int(pe.Pos.Line())); l != "" {
			fmt.Fprintf(w, "  %s\n  %s%s\n", l, strings.Repeat(" ", max(0, int(pe.Pos.Col())-1)), pal.err.Sprint("^"))
		}
		return
	}
	fmt.Fprintln(w, pal.err.Sprintf("llmsh: %v", err))
}

// errorLine returns line n (1-based) of src when it is short enough to
// show with a caret under the error.
func errorLine(src string, n int) string {
	lines := strings.Split(src, "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	l := lines[n-1]
	if len(l) > 200 || strings.ContainsAny(l, "\t\x1b") {
		return ""
	}
	return l
}

// Grants turns -i/-o operands into absolute, clean paths against dir.
func Grants(dir string, ps []string) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		if !path.IsAbs(p) {
			p = path.Join(dir, p)
		}
		out = append(out, path.Clean(p))
	}
	return out
}
