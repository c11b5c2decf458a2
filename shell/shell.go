// Package shell is llmsh's runner: the interpreter of third_party/sh (our
// fork of mvdan/sh, which runs bash's language itself) with every command
// a builtin, every file operation through vfsd, no host environment, and
// limits on time, output, commands and memory.
//
// A script is parsed by the fork's syntax package and run by its interp
// as written; nothing rewrites it. The shell only supplies the handlers
// the interpreter calls: the call handler (command count, depth and
// goroutine limits, nested-text checks), the exec handler (builtins,
// nested sh -c), the open, stat and readdir handlers (vfsclient, with
// write errors settled before a status is final: writes.go), and the
// process-substitution and descriptor hooks.
//
// docs/architecture.md shows how the packages fit together.
package shell

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"path"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"

	"github.com/llmsh/llmsh/builtins"
	"github.com/llmsh/llmsh/internal/dotdot"
	"github.com/llmsh/llmsh/internal/memguard"
	"github.com/llmsh/llmsh/vfsclient"
	"github.com/llmsh/llmsh/vfsproto"
)

// Limits bound a run. Zero values mean the defaults below.
type Limits struct {
	MaxCommands   int64 // simple commands run, in all
	MaxGoFrames   int   // interpreter stack depth (bounds function recursion)
	MaxScriptSize int   // bytes of script text
	MaxNesting    int   // bracket nesting of the script text
	// MaxGoroutines bounds how much runs at once (background jobs and
	// pipelines each take goroutines): it is what stops a fork bomb.
	MaxGoroutines int
	// MaxValue bounds the bytes of one value: a command substitution's
	// output, an expanded word ("value too large", status 1). A value
	// that big would take the heap past the memory limit (2 GiB) in a
	// few doublings, faster than the guard can stop it.
	MaxValue int
}

// Default limits: generous enough that real scripts never meet them.
const (
	DefaultMaxCommands   = 50_000_000
	DefaultMaxGoFrames   = 40_000 // about 3,000 levels of shell function recursion; nested shells cost more (nestedShellFrames)
	DefaultMaxScriptSize = 16 << 20
	DefaultMaxNesting    = 1000
	DefaultMaxGoroutines = 20_000
	DefaultMaxValue      = 256 << 20
)

// Options configure a Shell.
type Options struct {
	Client *vfsclient.Client
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Dir    string // the virtual working directory, absolute
	Name   string // $0
	// Source is the script file as it was named (llmsh FILE, sh FILE),
	// "" for -c and stdin: ${BASH_SOURCE[0]} at the top level, and in
	// the functions of the script's text.
	Source string
	// Command says the script is a -c string: syntax errors then read
	// "NAME: -c: line N: …", as bash's (a file's "FILE: line N: …", a
	// script on stdin's "NAME: line N: …").
	Command bool
	// FromStdin says the script is standard input (bash -s, or bash with
	// no script operand, interactive too): $- ends in "s".
	FromStdin bool
	Args      []string // $1…
	Limits    Limits
	// Color is the operator's choice for builtins' --color=auto: "" or
	// "auto" colours when the command's stdout is a terminal, "always"
	// always, "never" never (as when NO_COLOR is set).
	Color string
	// PanicLog, when not nil, receives the value and stack of every panic
	// the shell recovers from (a builtin's or the interpreter's); the
	// script sees only "internal error". llmsh --verbose sets it.
	PanicLog io.Writer
	// Vars are extra variables "NAME=value" set before the defaults are
	// overridden by nothing else (used by nested sh -c to inherit exports).
	Vars []string
	// OnlyVars says Vars are the whole environment (a nested sh -c):
	// of the defaults only PWD is added (the new shell sets bash's
	// default PATH, unexported, when Vars have none), as bash,
	// so `env -u HOME sh -c …` sees no HOME.
	OnlyVars bool
	// ShellOpts are options as `set` takes them ("-e", "-o", "pipefail"),
	// set before the script runs (a nested `sh -e -c …`); "-O", NAME and
	// "+O", NAME are bash's shopt options on the command line
	// (`llmsh -O extglob script`), set (unset) as `shopt -s NAME` would.
	ShellOpts []string
	// ParentPid is $PPID (a nested shell's: its parent's $BASHPID); 0
	// gives a virtual one below $$.
	ParentPid int
	// IgnoredSignals are the signals ignored as the shell starts (a
	// nested shell: those its parent ignores); their traps stay ''.
	IgnoredSignals []string
}

// Shell runs scripts in one vfsd session.
type Shell struct {
	client   *vfsclient.Client
	opts     Options
	runner   *interp.Runner
	commands *atomic.Int64
	inflight *atomic.Int64   // builtins running now, in all runners
	psubs    *psubs          // process substitutions' pipes, shared with nested shells
	deferred *deferredWrites // echo and printf awaiting confirmation (deferred.go)
	isNested bool            // runs inside another shell's command
	state    *sessionState   // the session's own state, shared with nested shells
	history  func() []string // the REPL's history (SetHistory); nil in a script

	// frameCheck is the command count at which call measures the stack
	// depth next (shared with nested shells, as commands).
	frameCheck *atomic.Int64
	// paths schedules runPath's stack walks (shared with nested shells,
	// as frameCheck).
	paths *pathRounds

	mu       sync.Mutex
	cancel   context.CancelFunc // of the run in progress
	tripped  error              // a limit that fired in a background job
	tripSaid bool               // a nested shell has reported tripped
	// lineLimit is the builtins' Env.Limit: a line past the bound on
	// one value stops the run as a value does (builtins.Env.MaxLine).
	lineLimit func(error)
	routes    []string // RouteBuiltins' names, routed in nested shells too
	exited    bool     // the last RunFile's script ran exit
	// holdEnd keeps RunFile from closing the script's descriptors and
	// hanging up its jobs: the lines before a syntax error have run, and
	// the error message and the EXIT trap still use them (endScript).
	holdEnd  bool
	endedRun bool     // endScript ran for the last RunFile
	hungUp   []string // the jobs the last script's end stopped
	// lineOffset is the number of the script's lines before the text
	// that runs (RunInput runs a command at a time); syntaxEnded says
	// that a syntax error ended the script.
	lineOffset  int
	syntaxEnded bool
	// inputRun says that RunInput runs the script, a command at a time:
	// it runs the EXIT trap at the script's end.
	inputRun bool
	// hangUpWait is hangUpWait, which a test lengthens so that a wait
	// that runs out its bound cannot pass for a slow machine.
	hangUpWait time.Duration
	// jobsCtx is the context of the jobs started at the prompt, which
	// outlive their line; jobsCancel ends them.
	jobsCtx    context.Context
	jobsCancel context.CancelFunc
}

// umaskOf is the umask of the shell that runs the command of a handler's
// context (022 for a context that is no handler's).
func umaskOf(ctx context.Context) (m fs.FileMode) {
	defer func() {
		if recover() != nil {
			m = 0o022
		}
	}()
	return interp.HandlerCtx(ctx).Umask
}

// ErrLimit is returned (wrapped) when a limit stops a script.
var ErrLimit = errors.New("limit exceeded")

// virtualHome is the home of llmsh's one user, a directory that vfsd
// shows outside the grants (an empty one without --strict).
const virtualHome = vfsproto.HomeDir

// Defaults are the only variables a script starts with. TMPDIR is
// unset, as in a login shell: the interpreter makes no temporary file,
// and `${TMPDIR:-/tmp}` is /tmp, virtual files outside the grants.
func Defaults(dir string) []string {
	return []string{
		"HOME=" + virtualHome, "PWD=" + dir, "PATH=" + builtins.DefaultPath,
		"SHELL=llmsh", "USER=llmsh", "LOGNAME=llmsh", "LANG=C.UTF-8", "TERM=dumb",
	}
}

// New makes a shell; nothing runs until Run.
func New(opts Options) (*Shell, error) {
	if opts.Stdin == nil {
		opts.Stdin = strings.NewReader("")
	}
	opts.Name = cmp.Or(opts.Name, "llmsh")
	l := &opts.Limits
	l.MaxCommands = cmp.Or(l.MaxCommands, DefaultMaxCommands)
	l.MaxGoFrames = cmp.Or(l.MaxGoFrames, DefaultMaxGoFrames)
	l.MaxScriptSize = cmp.Or(l.MaxScriptSize, DefaultMaxScriptSize)
	l.MaxNesting = cmp.Or(l.MaxNesting, DefaultMaxNesting)
	l.MaxValue = cmp.Or(l.MaxValue, DefaultMaxValue)
	l.MaxGoroutines = cmp.Or(l.MaxGoroutines, DefaultMaxGoroutines)
	s := &Shell{client: opts.Client, opts: opts, commands: new(atomic.Int64), frameCheck: new(atomic.Int64), paths: new(pathRounds), inflight: new(atomic.Int64), psubs: new(psubs), state: newSessionState(), deferred: new(deferredWrites), hangUpWait: hangUpWait}
	s.frameCheck.Store(s.firstFrameCheck())
	s.lineLimit = func(err error) { s.trip(fmt.Errorf("%w: %v", ErrLimit, err)) }
	env := Defaults(opts.Dir)
	if opts.OnlyVars {
		// No PATH: the new shell sets bash's default, unexported.
		env = []string{"PWD=" + opts.Dir}
	}
	env = append(env, opts.Vars...)
	setOpts, shopts := splitShopts(opts.ShellOpts)
	r, err := interp.New(
		interp.ParentPid(opts.ParentPid),
		interp.IgnoredAtEntry(opts.IgnoredSignals...),
		interp.Env(noHostUsers{expand.ListEnviron(env...)}),
		interp.Dir(opts.Dir),
		interp.StdIO(opts.Stdin, opts.Stdout, opts.Stderr),
		interp.Params(append(append(setOpts, "--"), opts.Args...)...),
		interp.CallHandler(s.callHandler),
		// ulimit shows llmsh's own bound on what runs at once.
		interp.Ulimit('u', int64(opts.Limits.MaxGoroutines)),
		// ulimit -f is vfsd's write budget, in blocks of 1024 bytes.
		interp.UlimitFunc('f', s.fileSizeLimit),
		interp.ExecHandlers(s.execMiddleware),
		interp.OpenHandler(s.openHandler),
		interp.StatHandler(s.statHandler),
		interp.ReadDirHandler2(s.readDirHandler),
		interp.AccessHandler(s.accessHandler),
		interp.ProcSubstHandler(s.procSubstHandler),
		interp.GoContext(goContext),
		interp.ScriptName(opts.Source),
		interp.Invocation(invocationFlags(opts)),
		interp.ExecBuiltins(shellBuiltins...),
		interp.DeferredWrites(s.deferred.settle),
		interp.DeferredRedirects(true),
		interp.TextLimits(l.MaxScriptSize, l.MaxNesting),
		interp.ValueLimit(l.MaxValue),
		interp.HeapCheck(memguard.CheckGrow),
		interp.GraceEnd(jobGraceEnd),
		interp.CommandNames(commandNames),
		interp.TimeFormat(builtins.Strftime),
	)
	if err != nil {
		return nil, err
	}
	for _, args := range shopts {
		r.Shopt(args...)
	}
	s.runner = r
	return s, nil
}

// splitShopts parts ShellOpts into set's arguments and the shopt
// arguments of its "-O NAME" and "+O NAME" pairs ("-s", NAME).
func splitShopts(opts []string) (set []string, shopts [][]string) {
	for i := 0; i < len(opts); i++ {
		if (opts[i] == "-O" || opts[i] == "+O") && i+1 < len(opts) {
			flag := "-s"
			if opts[i] == "+O" {
				flag = "-u"
			}
			shopts = append(shopts, []string{flag, opts[i+1]})
			i++
			continue
		}
		set = append(set, opts[i])
	}
	return set, shopts
}

var framePool = sync.Pool{New: func() any { b := make([]uintptr, DefaultMaxGoFrames+1); return &b }}

// shellBuiltins are the interpreter's builtins that llmsh runs itself
// (interp.ExecBuiltins): its printf is bash's (interp's differs), and its
// echo takes combined options (-ne) and all of bash's escapes, writes a
// line at once and reports the write errors of a redirection.
var shellBuiltins = []string{"echo", "printf"}

// callHandler sees every simple command: it enforces the command-count and
// depth limits and refuses what would touch the host. What it answers
// itself reaches the interpreter as an interp.ExitStatus.
func (s *Shell) callHandler(ctx context.Context, args []string) ([]string, error) {
	if name := execName(args); internal(name) {
		// A name that begins with a NUL or \x01 byte is no command (the
		// call handler's own answers use such names; the script's
		// never reach them).
		s.commands.Add(1)
		hc := interp.HandlerCtx(ctx)
		return nil, interp.ExitStatus(uint8(notFoundStatus(hc.Stderr, scriptPrefix(hc), name)))
	}
	return s.call(ctx, args)
}

// execName returns the name of the command that args run, past the
// words `command` (with its options) and `exec` in front of it; "" when
// there is none or `command -v`/`-V` only looks names up.
func execName(args []string) string {
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "command":
			for i+1 < len(args) && len(args[i+1]) > 1 && args[i+1][0] == '-' {
				i++
				if args[i] == "--" {
					break
				}
				if strings.ContainsAny(args[i], "vV") {
					return ""
				}
			}
		case "exec":
			if i+1 < len(args) && args[i+1] == "--" {
				i++
			}
		default:
			return args[i]
		}
	}
	return ""
}

// framesPerLevel bounds the Go frames that one level of shell recursion
// (a function call, eval, source) adds: about 8.
const framesPerLevel = 32

// firstFrameCheck is the command count at which a run first measures
// its stack. A run starts on a stack of a few dozen frames (its caller's,
// the interpreter's), which cannot pass the limit within its first
// limit/(2*framesPerLevel) commands while that stack is under half the
// limit; so the first walk waits for the 16th command, as the later ones
// wait for 16 at least, or for fewer when the limit is that small. A
// command line of a few commands never walks its stack: the walk read
// the function tables of every frame of it, 9 of the 40 windows of the
// binary's pclntab that `llmsh -c true` touched (0.6 MB of its resident
// set).
func (s *Shell) firstFrameCheck() int64 {
	return int64(min(16, s.opts.Limits.MaxGoFrames/(2*framesPerLevel)))
}

// checkGoroutines trips the limit on what runs at once. What it counts
// is goroutines, bash's processes: a job, each element of a pipeline
// (sleep 9 | cat & is two), a process substitution; so the message
// names processes, as ulimit -u does, and not jobs (session 27: a loop
// of `sleep 9 | cat &` was stopped at 10016 jobs as "more than 20000
// concurrent jobs").
func (s *Shell) checkGoroutines() error {
	if runtime.NumGoroutine() > s.opts.Limits.MaxGoroutines {
		return s.trip(fmt.Errorf("%w: more than %d processes at once: jobs, pipeline elements (a fork bomb?)", ErrLimit, s.opts.Limits.MaxGoroutines))
	}
	return nil
}

// checkDepth walks the stack and trips the depth limit when it is deeper
// than MaxGoFrames; it returns the depth found and the limit.
func (s *Shell) checkDepth(ctx context.Context) (depth, limit int, err error) {
	bp := framePool.Get().(*[]uintptr)
	buf := *bp
	limit = min(s.opts.Limits.MaxGoFrames, len(buf)-1)
	depth = runtime.Callers(0, buf[:limit+1]) + stackBase(ctx)
	framePool.Put(bp)
	if depth > limit {
		return depth, limit, s.trip(fmt.Errorf("%w: maximum call depth exceeded", ErrLimit))
	}
	return depth, limit, nil
}

// stackBaseKey holds the frames below a goroutine's own stack: the depth
// of the stack that started it, which checkDepth adds to its own.
type stackBaseKey struct{}

func stackBase(ctx context.Context) int {
	n, _ := ctx.Value(stackBaseKey{}).(int)
	return n
}

// goContext is ctx for a goroutine that this one starts to run commands
// (interp.GoContext: a pipeline's elements, jobs; timeout's command): it
// carries this stack's depth, so that a recursion through new goroutines
// (f() { f | cat; }, f() { timeout 9 f; }) is stopped at the call-depth
// limit as one on a single stack is.
func goContext(ctx context.Context) context.Context {
	bp := framePool.Get().(*[]uintptr)
	n := runtime.Callers(0, *bp)
	framePool.Put(bp)
	return context.WithValue(ctx, stackBaseKey{}, stackBase(ctx)+n)
}

// nestedShellFrames is what a nested shell (sh, bash, llmsh; through
// xargs, find -exec, awk's commands, split --filter, a script run by
// name) adds to the depth its commands' stack walks see, besides its own
// frames (about 15): a new shell is a new runner and its tables, much
// more than a function call's frames (about 9), and a recursion of
// nested shells costs more the deeper it goes. Session 33 measured
// (llmsh -c, /usr/bin/time): at 80,000 frames, `sh r.sh` calling itself
// stopped at 5,339 levels after 43.6 s and 203 MB, a recursion through
// `xargs -P 2 sh r.sh` took 16 s and 645 MB, and a `#!/usr/bin/env`
// script running itself 9.8 s; at 40,000 frames with this charge they
// stop where the 20,000-frame limit stopped them (1,334 levels, 1.1 s;
// 0.9 s; 3.3 s).
const nestedShellFrames = 15

// nestedDepth is ctx for a nested shell's run: its depth charged with
// nestedShellFrames.
func nestedDepth(ctx context.Context) context.Context {
	return context.WithValue(ctx, stackBaseKey{}, stackBase(ctx)+nestedShellFrames)
}

// call is callHandler's work on a command that passed the gate.
func (s *Shell) call(ctx context.Context, args []string) ([]string, error) {
	n := s.commands.Add(1)
	if n > s.opts.Limits.MaxCommands {
		return nil, s.trip(fmt.Errorf("%w: more than %d commands", ErrLimit, s.opts.Limits.MaxCommands))
	}
	if err := s.checkGoroutines(); err != nil {
		return nil, err
	}
	// Walking the stack costs its depth, so it is measured once in a
	// while: a recursion gains one level (under framesPerLevel frames) per
	// command, so a stack d frames deep cannot pass the limit within
	// (limit-d)/framesPerLevel commands; it is measured again then, after
	// 16 commands at least and 256 at most. A recursion overshoots the
	// limit by at most 16 levels before it is stopped (256 when a job in
	// another goroutine was measured last). Every 16th command walked it:
	// a sixth of a `for ((…))` loop's time.
	if n >= s.frameCheck.Load() {
		depth, limit, err := s.checkDepth(ctx)
		if err != nil {
			return nil, err
		}
		s.frameCheck.Store(n + int64(min(max(16, (limit-depth)/framesPerLevel), 256)))
	}
	if len(args) >= 2 && args[1] == "--help" && isInterpBuiltin(args[0]) && s.funcs(ctx)[args[0]] == nil {
		// NAME --help ...: the interpreter answers as bash (its help
		// text, status 2), before any of llmsh's own handling of NAME.
		return args, nil
	}
	if len(args) > 0 && (s.funcs(ctx)[args[0]] == nil || viaCommand(ctx)) {
		// (A function of the name answers instead, as in bash:
		// type() { …; } runs, not llmsh's type.)
		switch args[0] {
		case "pwd":
			for _, a := range args[1:] {
				if a == "-P" {
					// Symlinks are not exposed: -P is the logical path.
					return []string{"pwd"}, nil
				}
			}
		case "eval":
			// interp parses eval's string itself: bound it as a script
			// first (Go's stack overflow in the parser cannot be
			// recovered) and refuse what Run refuses. eval takes no
			// options; bash accepts a "--" before the code (the fork's
			// eval drops it).
			dashes := len(args) > 1 && args[1] == "--"
			if st, bad := s.checkNested(ctx, "eval", strings.Join(args[1+boolInt(dashes):], " ")); bad {
				return nil, interp.ExitStatus(uint8(st))
			}
		case "trap":
			if i := 1 + boolInt(len(args) > 1 && args[1] == "--"); len(args) > i+1 && !strings.HasPrefix(args[i], "-") {
				if st, bad := s.checkNested(ctx, "trap", args[i]); bad {
					return nil, interp.ExitStatus(uint8(st))
				}
			}
		case "source", ".":
			if len(args) > 1 {
				if src, ok := s.readScript(ctx, args[1]); ok {
					if st, bad := s.checkNested(ctx, args[0], src); bad {
						return nil, interp.ExitStatus(uint8(st))
					}
				}
			}
		}
		if st, ok := s.lookupCommand(ctx, args); ok {
			return nil, interp.ExitStatus(uint8(st))
		}
	}
	return args, nil
}

// execMiddleware runs builtins; it never calls next, so no host program
// can ever be executed.
func (s *Shell) execMiddleware(next interp.ExecHandlerFunc) interp.ExecHandlerFunc {
	return func(ctx context.Context, args []string) error {
		hc := interp.HandlerCtx(ctx)
		var st int
		var killed *killedShell
		var report *builtins.KillReport
		if isNestedShell(path.Base(args[0])) {
			killed = new(killedShell)
			ctx = context.WithValue(ctx, killedShell{}, killed)
		}
		// Each command gets a report of its own, where a signal that
		// ends its process is noted: timeout's KILL, a nested shell's
		// `kill $$` reached through commands that exec it (env, nice,
		// timeout's re-raise). A report of an outer command is out of
		// reach from there.
		ctx, report = builtins.WithKillReport(ctx)
		if hc.Argv0 != "" && isNestedShell(args[0]) {
			// exec -a NAME: the nested shell's $0 (the name was looked up).
			st = s.nested(ctx, append([]string{hc.Argv0}, args[1:]...), hc.Stdin, hc.Stdout, hc.Stderr, hc.Dir, execShlvl(hc, hc.Exported()))
		} else if p, found, noPath := s.programPath(ctx, args[0], hc.IsBuiltin); !found && noPath {
			fmt.Fprintf(hc.Stderr, "%s%s: No such file or directory\n", scriptPrefix(hc), commandText(args[0]))
			st = 127
		} else if !found {
			st = notFound
		} else {
			environ := hc.Exported()
			// exec -c: an empty environment, no _ either.
			if !hc.IsBuiltin && !(hc.Exec && environ == nil) {
				environ = underscoreEnv(ctx, environ, args[0], p)
				environ = execShlvl(hc, environ)
			}
			if p != "" {
				args = append([]string{p}, args[1:]...) // a script in a directory of PATH
			}
			st = s.run(ctx, args, hc.IsBuiltin, stdinOf(hc), hc.Stdout, hc.Stderr, hc.Dir, environ)
		}
		if st == notFound && hc.Exec {
			fmt.Fprintf(hc.Stderr, "%sexec: %s: not found\n", scriptPrefix(hc), commandText(args[0]))
			hc.ExecFailed()
			st = 127
		} else if st == notFound && hc.NotFoundHook() {
			return interp.ErrNotFoundHook // the script's command_not_found_handle
		} else if st == notFound {
			st = notFoundStatus(hc.Stderr, scriptPrefix(hc), args[0])
		}
		if ctx.Err() != nil && !interp.JobKilled(ctx) {
			// The run is over (deadline, limit, memory guard): what a
			// command substitution collected is dropped, or interp would
			// still split it into fields, out of the context's reach (an
			// unquoted $(yes) cut by a 300ms deadline held enough to
			// split for minutes and gigabytes). interp hands a
			// substitution's writer to its last command as is. A job
			// that kill ended keeps what it wrote (`x=$(sleep 9 & echo
			// a; kill $!)` is a).
			switch w := hc.Stdout.(type) {
			case *strings.Builder:
				w.Reset()
			case interface{ DropOutput() }: // the fork's bounded writer
				w.DropOutput()
			}
		}
		if killed != nil && killed.sig != 0 && st == 128+killed.sig {
			return interp.KilledStatus{Sig: killed.sig, Pid: killed.pid}
		}
		if report != nil && report.Sig() != 0 && st == 128+report.Sig() {
			return interp.KilledStatus{Sig: report.Sig()} // a new pid
		}
		if uint8(st) != 0 {
			// The low 8 bits, as exit(2) keeps them: a builtin's 256
			// (jq's halt_error(256)) is success, as a program's is.
			return interp.ExitStatus(uint8(st))
		}
		return nil
	}
}

// killedShell is, in the context of a command that names a nested shell,
// the signal that ended that shell (`bash -c 'kill $$'`) and its pid:
// the parent reports it as bash (interp.KilledStatus).
type killedShell struct{ sig, pid int }

// exec runs one command in-process and returns its status.
func (s *Shell) exec(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, dir string, environ []string) int {
	st := s.run(ctx, args, false, stdin, stdout, stderr, dir, environ)
	if st == notFound {
		st = notFoundStatus(stderr, "llmsh: ", args[0])
	}
	return st
}

// notFound is run's answer for a name that is no command: its caller
// says so, in the words of where the name came from.
const notFound = -127

// scriptPrefix is what bash puts before a message about a command of the
// script: "llmsh: line N: " for -c, "FILE: line N: " in a file.
func scriptPrefix(hc interp.HandlerContext) string {
	if r := hc.Runner(); r != nil {
		return r.ShellErrPrefix()
	}
	return "llmsh: "
}

// invocationFlags are the letters that end $- for how the shell was
// started: "c" for a -c string, "s" for a script read from stdin.
func invocationFlags(opts Options) string {
	switch {
	case opts.Command:
		return "c"
	case opts.FromStdin:
		return "s"
	}
	return ""
}

// writeOnlyStdin is a command's standard input open for writing only
// (0>FILE): reads fail as of a closed one (builtins.ClosedStdin), but a
// GNU tool that closes it does not fail again (Env.StdinClosed).
type writeOnlyStdin struct{ builtins.ClosedStdin }

// stdinOf is the stdin that hc gives a command: nil when it is closed.
func stdinOf(hc interp.HandlerContext) io.Reader {
	if hc.Stdin == nil && hc.StdinWriteOnly {
		return writeOnlyStdin{}
	}
	return hc.Stdin
}

// run is exec; shellBuiltin says that args[0] is the shell's builtin of
// that name (echo, printf: see shellBuiltins), which the interpreter has
// asked for.
func (s *Shell) run(ctx context.Context, args []string, shellBuiltin bool, stdin io.Reader, stdout, stderr io.Writer, dir string, environ []string) int {
	name := args[0]
	_, stdinClosed := stdin.(builtins.ClosedStdin)
	if stdin == nil {
		stdin, stdinClosed = builtins.ClosedStdin{}, true // <&-: every read fails, as in bash
	}
	if strings.Contains(name, "/") {
		return s.runPath(ctx, args, stdin, stdout, stderr, dir, environ)
	}
	if isNestedShell(name) {
		return s.nested(ctx, args, stdin, stdout, stderr, dir, environ)
	}
	s.inflight.Add(1)
	defer s.inflight.Add(-1)
	b, ok := builtins.Lookup(name)
	if shellBuiltin && name == "echo" {
		b = builtins.Builtin{Name: "echo", Run: builtins.ShellEcho}
	}
	if shellBuiltin && name == "printf" {
		b = builtins.Builtin{Name: "printf", Run: builtins.ShellPrintf}
	}
	if !ok {
		if isInterpBuiltin(name) && builtins.IsProgram(name) {
			// A program that is also a builtin (/usr/bin/test, kill,
			// pwd): the builtin on a nested runner, never a function
			// of that name, and even when enable -n turned the
			// builtin off and PATH found the program.
			return s.runInShell(ctx, `builtin "$@"`, args, stdin, stdout, stderr, dir, environ)
		}
		// Reached through env.Exec (xargs, find -exec, timeout, env,
		// nice) or exec, a name that is no program is not found, as
		// there is no file to run: the script's functions and the
		// shell's builtins that are no programs (cd, read, export)
		// answer only to the shell itself, as in bash (`echo 1 | xargs
		// f` is `xargs: f: No such file or directory`, 127).
		return notFound
	}
	terminal := isTerminal(stdout)
	var env *builtins.Env
	var sb *shellBuiltinRun
	if shellBuiltin {
		// The shell's own echo and printf (a command of every round of
		// an agent's loop) read no file and run no command: no FS, no
		// Exec; what printf alone may ask of the runner (%n's
		// assignment, %q's locale) is looked up when it asks. Its
		// Env and its stdout's pipeWatch are one allocation.
		hc := interp.HandlerCtxRef(ctx)
		sb = &shellBuiltinRun{vars: shellVars{hc: hc}}
		env, sb.env.Ctx = &sb.env, ctx
		env.ShellPrefix = scriptPrefix(*hc)
		env.Shell = &sb.vars // printf's %n and %q, both's \u in the C locale
		if name == "echo" {
			env.XPGEcho = hc.ShellOption("xpg_echo")
			env.EchoNoOptions = env.XPGEcho && hc.ShellOption("posix")
		}
	} else {
		env = &builtins.Env{Ctx: ctx}
	}
	env.Args, env.Stdin, env.Stdout, env.Stderr = args, stdin, stdout, stderr
	env.StdinClosed = stdinClosed
	env.Dir, env.Environ, env.Terminal = dir, environ, terminal
	env.Color = s.opts.Color == "always" || s.opts.Color != "never" && terminal
	env.PanicLog = s.opts.PanicLog
	if sb != nil {
		return s.runShellBuiltin(ctx, name, b, sb, stdout, stderr)
	}
	env.Stdin = stoppable(ctx, stdin, s.state.stdin.Load())
	env.MaxLine, env.Limit = max(s.opts.Limits.MaxValue, 0), s.lineLimit
	env.FS = clientFS{c: s.client, truncs: &s.state.truncs, psubs: s.psubs, fd: fdOpener(ctx, stdin, stdout, stderr), umask: umaskOf(ctx), ctx: ctx}
	if name == "timeout" {
		env.Ctx = goContext(ctx) // its command runs on a goroutine of its own
	}
	env.GoCtx = goContext // xargs -P's commands run on goroutines of their own
	env.Exec = func(ctx context.Context, args []string, in io.Reader, out, errw io.Writer) int {
		return s.toolExec(ctx, name, args, in, out, errw, dir, environ)
	}
	var pipe *pipeWatch
	if !runsCommands[name] {
		pipe = watchPipe(ctx, env, new(pipeWatch), stdout, stderr)
	}
	return s.runBuiltin(name, b, env, pipe, stdout, stderr)
}

// shellBuiltinRun is what a run of the shell's own echo or printf
// allocates: its Env, what printf may ask of the runner, and its
// stdout's pipeWatch.
type shellBuiltinRun struct {
	env  builtins.Env
	vars shellVars
	pipe pipeWatch
	ebuf bytes.Buffer // its stderr while writes await confirmation (runDeferrable)
}

// runShellBuiltin runs the shell's own echo or printf (see run), whose
// settle may be deferred (runDeferrable).
func (s *Shell) runShellBuiltin(ctx context.Context, name string, b builtins.Builtin, sb *shellBuiltinRun, stdout, stderr io.Writer) int {
	env, pipe := &sb.env, &sb.pipe
	watchPipe(ctx, env, pipe, stdout, stderr)
	if seq := deferSeq(ctx); seq != 0 {
		return s.runDeferrable(b, env, pipe, &sb.ebuf, stdout, stderr, seq)
	}
	return s.runBuiltin(name, b, env, pipe, stdout, stderr)
}

// watchPipe makes env's stdout pipe, a pipeWatch of stdout (and, in a
// job, its writes and its stderr's stop while the job is stopped).
func watchPipe(ctx context.Context, env *builtins.Env, pipe *pipeWatch, stdout, stderr io.Writer) *pipeWatch {
	pipe.w = stdout
	env.Stdout = pipe
	if interp.Stoppable(ctx) {
		// In a job: a write waits while the job is stopped.
		pipe.job = ctx
		env.Stderr = stopWriter{ctx: ctx, w: stderr}
	}
	return pipe
}

// runBuiltin runs b with env after the deferred settles, and settles its
// writes; pipe, if not nil, is env's stdout.
func (s *Shell) runBuiltin(name string, b builtins.Builtin, env *builtins.Env, pipe *pipeWatch, stdout, stderr io.Writer) int {
	s.deferred.barrier()
	marks := markOutputs(stdout, stderr)
	st := builtins.Run(b, env)
	if pipe != nil && pipe.broken.Load() {
		// A GNU tool that writes to a pipe whose reader has gone is
		// killed by SIGPIPE: bash reports 128+13.
		st = 141
	}
	return settleOutputs(name, env.ShellPrefix, stdout, stderr, marks, st)
}

// shellVars is what the shell's printf asks of the runner that runs it
// (builtins.ShellVars): an assignment (%n) and whether the locale is C
// (%q).
type shellVars struct{ hc *interp.HandlerContext }

func (v *shellVars) Assign(name, value string) { v.hc.Assign(name, value) }
func (v *shellVars) ByteLocale() bool          { return expand.ByteLocale(v.hc.Env) }

// execFailMsg is how each GNU tool that runs a command says it could not
// run it (%s: the name as the tool quotes it, then why).
var execFailMsg = map[string]string{
	"env":     "env: %s: %s",
	"xargs":   "xargs: %s: %s",
	"find":    "find: %s: %s",
	"timeout": "timeout: failed to run command %s: %s",
	"nice":    "nice: %s: %s",
	"nohup":   "nohup: failed to run command %s: %s",
	"stdbuf":  "stdbuf: failed to run command %s: %s",
}

// execNotFound reports a command that tool (env, xargs, timeout …) could
// not run, in that tool's words, and returns 127 as GNU's tools do.
func execNotFound(w io.Writer, tool, name string) int {
	if !toolExecFailed(w, tool, name, "No such file or directory") {
		return notFoundStatus(w, "llmsh: ", name)
	}
	if tool == "env" && strings.ContainsAny(name, " \t") {
		fmt.Fprintln(w, "env: use -[v]S to pass options in shebang lines")
	}
	return 127
}

// runsCommands are the builtins that run other commands on their output
// and answer for their statuses themselves (GNU xargs says "terminated by
// signal 13" and exits 125; find's -exec is false); the others die as a
// command killed by SIGPIPE when their output's reader has gone.
var runsCommands = map[string]bool{"xargs": true, "find": true}

// pipeWatch is a builtin's standard output; it notes a write that failed
// because the reader of the pipe has gone.
type pipeWatch struct {
	w      io.Writer
	broken atomic.Bool
	// job, when set, is the context of the job the command runs in:
	// each write passes its stop gate (interp.StopPoint).
	job context.Context
}

func (p *pipeWatch) Write(b []byte) (int, error) {
	if p.job != nil {
		if err := interp.StopPoint(p.job); err != nil {
			return 0, err
		}
	}
	n, err := p.w.Write(b)
	if err != nil && (errors.Is(err, syscall.EPIPE) || errors.Is(err, io.ErrClosedPipe)) {
		p.broken.Store(true)
	}
	return n, err
}

func (p *pipeWatch) Unwrap() io.Writer { return p.w }

// CopyFileFrom passes a copy on to the output when it is a file of vfsd's
// (builtins.FileCopier), outside a job: a job's writes pass its stop
// gate, which a copy would not.
func (p *pipeWatch) CopyFileFrom(r io.Reader, max int64) (int64, bool, error) {
	fc, ok := p.w.(builtins.FileCopier)
	if !ok || p.job != nil {
		return 0, false, nil
	}
	return fc.CopyFileFrom(r, max)
}

// stopWriter is the standard error of a command run in a job: each
// write passes the job's stop gate.
type stopWriter struct {
	ctx context.Context
	w   io.Writer
}

func (s stopWriter) Write(b []byte) (int, error) {
	if err := interp.StopPoint(s.ctx); err != nil {
		return 0, err
	}
	return s.w.Write(b)
}

func (s stopWriter) Unwrap() io.Writer { return s.w }

// execShlvl is environ for the command that hc runs. bash execs the
// last command of a forked shell (and exec's command) with SHLVL one less
// first (never below 0): env and printenv show it, a nested shell counts
// from it. Otherwise, or without SHLVL, it is environ itself.
func execShlvl(hc interp.HandlerContext, environ []string) []string {
	if _, shlvl, ok := hc.NoForkExec(); !ok || !shlvl {
		return environ
	}
	for i, kv := range environ {
		v, ok := strings.CutPrefix(kv, "SHLVL=")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return environ
		}
		out := slices.Clone(environ)
		out[i] = "SHLVL=" + strconv.Itoa(max(n-1, 0))
		return out
	}
	return environ
}

// openScript opens the script file of a nested `bash FILE`, its ".."
// resolved as the kernel does: `bash nope/../f` is ENOENT, `bash f/../g`
// ENOTDIR (one stat for each "..", none without).
func (s *Shell) openScript(dir, name string) (*vfsclient.File, error) {
	_, err := dotdot.Check(name, func(prefix string) (fs.FileInfo, error) {
		return s.client.Stat(absPath(dir, prefix))
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return s.client.Open(absPath(dir, name))
}

// SetLetters are the option letters of set that a shell's command line
// takes as bash does (`bash -e script`, `llmsh -xc 'echo hi'`), but for
// -v, which llmsh's own command line keeps for --verbose (a nested shell
// takes it as bash).
const SetLetters = "aBCeEfnTuxbkptHP"

// nested runs a nested shell (sh, bash or llmsh) on a new runner in the
// same session, sharing the limits: `sh [-eufxa] [-o OPT]… -c SCRIPT [NAME
// [ARG…]]`, `sh [OPTIONS] FILE [ARG…]` (FILE read through vfsd), or `sh
// [OPTIONS] [-s] [ARG…]` with the script on stdin. A nested llmsh takes no
// options but -c: its grants and limits are the session's.
func (s *Shell) nested(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, dir string, environ []string) int {
	if len(args) > 1 && (args[1] == "--help" || args[1] == "--version") {
		nestedHelp(stdout, args[0], args[1] == "--version")
		return 0
	}
	inv, msg := parseNestedArgs(args)
	if msg != "" {
		return nestedUsageErr(stderr, args[0], msg)
	}
	src := inv.script
	switch {
	case inv.file != "":
		f, err := s.openScript(dir, inv.file)
		if err != nil && hidden(err) {
			err = fs.ErrNotExist // outside the grants: as if it did not exist
		}
		if err != nil && errors.Is(err, syscall.EISDIR) {
			// bash opens it, and its read fails: named as $0 is.
			fmt.Fprintf(stderr, "%s: %s: %s\n", inv.file, inv.file, builtins.ErrText(err))
			return 126
		}
		if err != nil {
			fmt.Fprintf(stderr, "llmsh: %s: %s\n", inv.file, builtins.ErrText(err))
			if errors.Is(err, syscall.ENOTDIR) {
				return 126 // bash: 127 for ENOENT only
			}
			return 127
		}
		b, err := io.ReadAll(io.LimitReader(f, int64(s.opts.Limits.MaxScriptSize)+1))
		f.Close()
		if err != nil {
			fmt.Fprintf(stderr, "llmsh: %s: %s\n", inv.file, builtins.ErrText(err))
			return 126
		}
		if BinaryScript(b) {
			fmt.Fprintf(stderr, "%s: %s: cannot execute binary file\n", inv.file, inv.file)
			return 126
		}
		src = string(b)
	}
	// A write of the shell's own to a pipeline's pipe whose reader has
	// gone sends it SIGPIPE, as to bash (status 141 unless trapped).
	var sigpipe atomic.Pointer[interp.Runner]
	sendSigpipe := func() {
		if r := sigpipe.Load(); r != nil {
			r.SignalShell(13)
		}
	}
	stdout, _ = interp.ShellPipeOutput(stdout, sendSigpipe)
	stderr, _ = interp.ShellPipeOutput(stderr, sendSigpipe) // 2>&1 |, |&
	o := s.opts
	// bash takes no IFS from its environment: the new shell starts with
	// the default.
	environ = slices.DeleteFunc(slices.Clone(environ), func(v string) bool { return strings.HasPrefix(v, "IFS=") })
	o.Stdin, o.Stdout, o.Stderr, o.Dir, o.Vars, o.OnlyVars = stdin, stdout, stderr, dir, environ, true
	o.Name, o.Args, o.ShellOpts, o.Source, o.Command = inv.name, inv.args, inv.opts, inv.file, inv.command
	o.FromStdin = !inv.command && inv.file == ""
	if r := currentRunner(ctx); r != nil {
		o.ParentPid = r.Pid()
		o.IgnoredSignals = r.IgnoredSignals()
		// bash execs the last command of a forked shell without a fork
		// of its own: the new shell's parent is that shell's (SHLVL is
		// one less first, as exec makes it: execMiddleware lowered it
		// in environ, which reaches here through env, xargs, timeout
		// and scripts run by name as they pass it on).
		if ppid, _, ok := interp.HandlerCtx(ctx).NoForkExec(); ok {
			o.ParentPid = ppid
		}
	}
	sub, err := New(o)
	if err != nil {
		fmt.Fprintf(stderr, "llmsh: %s: %v\n", args[0], err)
		return 2
	}
	sub.commands, sub.inflight, sub.psubs, sub.isNested = s.commands, s.inflight, s.psubs, true
	sigpipe.Store(sub.runner)
	sub.frameCheck, sub.paths = s.frameCheck, s.paths
	inheritFds(ctx, sub)
	defer sub.runner.CloseFds()
	sub.state = s.state
	if len(s.routes) > 0 {
		sub.RouteBuiltins(s.routes...)
	}
	if o.Command {
		sub.runner.SetExecutionString(src)
	}
	inv.applyShopts(sub.runner, stdout)
	// timeout's signal reaches the shell's traps (builtins.SignalTarget).
	release := builtins.Claim(ctx, sub.runner.GroupSignals)
	// So does kill's, when the shell is a job (`bash -c … &`).
	releaseJob := interp.ClaimJobSignals(ctx, func() func(int) bool { return sub.runner.SignalTrapped })
	ctx = nestedDepth(ctx)
	var st int
	if o.FromStdin {
		// The script is standard input, read a command at a time as it
		// runs: what its commands read is its next lines.
		st = sub.RunInput(ctx, stdin, o.Name)
	} else {
		st = sub.Run(ctx, src, o.Name)
	}
	releaseJob()
	release()
	if k, ok := ctx.Value(killedShell{}).(*killedShell); ok {
		k.sig, k.pid = sub.runner.KilledBy(), sub.runner.Pid()
	}
	if sig := sub.runner.KilledBy(); sig != 0 {
		// The command that runs this shell in its process (xargs's
		// child, env's command) was ended by the signal.
		builtins.ReportKilled(ctx, sig)
	}
	if err := sub.limitErr(); err != nil {
		// A limit ends the whole run, not only the nested shell, which
		// has said so already.
		s.trip(err)
		s.mu.Lock()
		s.tripSaid = true
		s.mu.Unlock()
	}
	return st
}

// underscoreEnv is environ with _ set to the command as bash's execute
// puts it in a program's environment (put_command_name_into_env): the
// path PATH found (/usr/bin/bash, what the hash table holds; p when it
// is a script in a directory of PATH), or the name as written when it
// holds a slash. env lists it; a nested shell starts its $_ with it.
func underscoreEnv(ctx context.Context, environ []string, name, p string) []string {
	full := name
	if p != "" {
		full = p
	} else if r := currentRunner(ctx); r != nil && !strings.Contains(name, "/") {
		if h, ok := r.Hashed(name); ok {
			full = h
		}
	}
	out := slices.DeleteFunc(slices.Clone(environ), func(v string) bool { return strings.HasPrefix(v, "_=") })
	return append(out, "_="+full)
}

// nestedUsageErr prints what a nested shell says of its bad arguments
// (msg, from parseNestedArgs) and returns bash's status, 2.
func nestedUsageErr(stderr io.Writer, name, msg string) int {
	// bash's words: "bash: -c: option requires an argument",
	// "bash: line 0: bash: x: invalid option name", then its usage
	// after an invalid option.
	if strings.HasSuffix(msg, "invalid option name") {
		fmt.Fprintf(stderr, "%s: line 0: %s: %s\n", name, name, msg)
		return 2
	}
	if strings.HasSuffix(msg, "invalid shell option name") {
		fmt.Fprintf(stderr, "%s: line 0: %s\n", name, msg)
		return 2
	}
	fmt.Fprintf(stderr, "%s: %s\n", name, msg)
	if strings.HasSuffix(msg, "option requires an argument") {
		return 2
	}
	if name == "llmsh" {
		fmt.Fprintln(stderr, "Usage: llmsh [-c SCRIPT [NAME [ARG...]] | FILE [ARG...]] (a nested llmsh shares the session's grants and limits)")
	} else {
		fmt.Fprintf(stderr, "Usage: %s [-eufxa] [-o OPTION]... [-c SCRIPT [NAME [ARG...]] | FILE [ARG...] | -s [ARG...]]\n", name)
	}
	return 2
}

// nestedHelp is a nested shell's --help, in bash's layout with what the
// nested shell takes, or its --version.
func nestedHelp(w io.Writer, name string, version bool) {
	if version {
		fmt.Fprintf(w, "%s (llmsh) %s\n", name, builtins.Version)
		return
	}
	if name == "llmsh" {
		fmt.Fprint(w, "Usage:\tllmsh [-c SCRIPT [NAME [ARG...]]]\n\tllmsh FILE [ARG...]\n"+
			"Run a script on a new shell in the same session: a nested llmsh takes no\n"+
			"options but -c, and shares the session's grants and limits.\n"+
			"Type `llmsh -c help' for more information about shell builtin commands.\n")
		return
	}
	fmt.Fprintf(w, "Usage:\t%[1]s [GNU long option] [option] ...\n\t%[1]s [GNU long option] [option] script-file ...\n"+
		"GNU long options:\n\t--help\n\t--login\n\t--noprofile\n\t--norc\n\t--posix\n\t--version\n"+
		"Shell options:\n\t-ils or -c command or -O shopt_option\t\t(invocation only)\n\t-abefhkmnptuvxBCEHPT or -o option\n"+
		"Type `%[1]s -c \"help set\"' for more information about shell options.\n"+
		"Type `%[1]s -c help' for more information about shell builtin commands.\n\n"+
		"llmsh: the script runs on a new shell in the same session, with its grants and\n"+
		"limits; --login, --noprofile, --norc and --posix change nothing (there are no\n"+
		"start-up files).\n", name)
}

// nestedInvocation is what a nested shell's arguments ask for.
type nestedInvocation struct {
	opts    []string // shell options for interp.Params: -e, +u, -o pipefail, …
	command bool     // -c
	script  string   // -c's SCRIPT
	file    string   // FILE
	name    string   // $0
	args    []string // $1…
	// listOpts is -o or +o when it came last, with no option name: the
	// new shell lists its options first (bash -o).
	listOpts string
	// shopts are the -O and +O options, as shopt takes them ("-s",
	// "extglob"); a bare -O or +O at the end is nil or "-p", a listing.
	shopts [][]string
}

// applyShopts lists the options when the invocation ends in -o or +o,
// and applies its -O and +O options (or lists them), in r, the new
// shell's runner, before its script runs.
func (inv *nestedInvocation) applyShopts(r *interp.Runner, stdout io.Writer) {
	if inv.listOpts != "" {
		r.PrintInvocationOptions(stdout, inv.listOpts == "+o")
	}
	for _, args := range inv.shopts {
		r.Shopt(args...)
	}
}

// setoArg reads the option name after -o or +o (sign "-" or "+"),
// args[i+1]; none lists the options; it returns the index of the last
// argument read.
func (inv *nestedInvocation) setoArg(sign string, args []string, i int) (int, string) {
	if i+1 >= len(args) {
		// bash lists the options, as set -o (set +o) does, then
		// reads its script from stdin.
		inv.listOpts = sign + "o"
		return i, ""
	}
	if !interp.IsSetOption(args[i+1], sign == "-") {
		return i, fmt.Sprintf("%s: invalid option name", args[i+1])
	}
	inv.opts = append(inv.opts, sign+"o", args[i+1])
	return i + 1, ""
}

// shoptArg reads the option name after -O (on) or +O, args[i]: the shopt
// option it names is set or unset, none lists them; it returns the index
// of the last argument read.
func (inv *nestedInvocation) shoptArg(on bool, args []string, i int) (int, string) {
	if i+1 >= len(args) {
		// bash lists the shopt options, as shopt (+O: shopt -p)
		// does, then reads its script from stdin.
		if on {
			inv.shopts = append(inv.shopts, nil)
		} else {
			inv.shopts = append(inv.shopts, []string{"-p"})
		}
		return i, ""
	}
	name := args[i+1]
	if !interp.IsShoptOption(name) {
		return i, name + ": invalid shell option name"
	}
	if on {
		inv.shopts = append(inv.shopts, []string{"-s", name})
	} else {
		inv.shopts = append(inv.shopts, []string{"-u", name})
	}
	return i + 1, ""
}

// parseNestedArgs reads `sh`/`bash`/`llmsh` arguments; msg says what is
// wrong with them.
func parseNestedArgs(args []string) (inv nestedInvocation, msg string) {
	inv.name = args[0]
	fromStdin := false
	i := 1
options:
	for ; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--" || a == "-":
			i++
			break options
		case args[0] == "llmsh" && a != "-c":
			if strings.HasPrefix(a, "-") {
				return inv, fmt.Sprintf("%s: a nested llmsh takes no options but -c", a)
			}
			break options
		case a == "--norc" || a == "--noprofile" || a == "--login" || a == "--noediting":
			// start-up files and line editing that llmsh does not have
		case (a == "--rcfile" || a == "--init-file") && i+1 < len(args):
			i++ // the interactive start-up file, read by no script
		case a == "--posix":
			// bash's posix mode, as set -o posix turns it on
			inv.opts = append(inv.opts, "-o", "posix")
		case a == "--verbose":
			inv.opts = append(inv.opts, "-v") // bash's long -v
		case a == "--debug":
			// bash takes it and does nothing more (extended debugging
			// is --debugger)
		case strings.HasPrefix(a, "--"):
			return inv, fmt.Sprintf("%s: invalid option", a)
		case len(a) > 1 && (a[0] == '-' || a[0] == '+'):
			// -o and -O take the next arguments in turn, also inside
			// a group (bash -euo pipefail, bash -eOo extglob pipefail).
			var named []rune
			for _, c := range a[1:] {
				switch c {
				case 'o', 'O':
					named = append(named, c)
				case 'c':
					inv.command = true
				case 's':
					fromStdin = true
				case 'l', 'i', 'm', 'h':
					// login, interactive, job control (off in bash -c
					// without a terminal), hashing: nothing to do for a
					// script
				default:
					if c != 'v' && !strings.ContainsRune(SetLetters, c) {
						return inv, fmt.Sprintf("%c%c: invalid option", a[0], c)
					}
					inv.opts = append(inv.opts, a[:1]+string(c))
				}
			}
			for _, c := range named {
				if c == 'o' {
					i, msg = inv.setoArg(a[:1], args, i)
				} else {
					i, msg = inv.shoptArg(a[0] == '-', args, i)
				}
				if msg != "" {
					return inv, msg
				}
			}
		default:
			break options
		}
	}
	rest := args[i:]
	switch {
	case inv.command:
		if len(rest) == 0 {
			return inv, "-c: option requires an argument"
		}
		inv.script = rest[0]
		if len(rest) > 1 {
			inv.name, inv.args = rest[1], rest[2:]
		}
	case len(rest) > 0 && !fromStdin:
		inv.file, inv.name, inv.args = rest[0], rest[0], rest[1:]
	default:
		inv.args = rest
	}
	return inv, ""
}

// runInShell runs src, "$@" or `builtin "$@"` of args (an interp builtin
// or a function of the script), on a new runner in the same session, with
// the script's functions.
func (s *Shell) runInShell(ctx context.Context, src string, args []string, stdin io.Reader, stdout, stderr io.Writer, dir string, environ []string) int {
	o := s.opts
	o.Stdin, o.Stdout, o.Stderr, o.Dir, o.Vars = stdin, stdout, stderr, dir, environ
	o.Name, o.Args = "llmsh", args
	// A program run for xargs or timeout is no shell: none of the
	// options the session started with (llmsh -x traced its
	// `builtin "$@"`).
	o.ShellOpts = nil
	sub, err := New(o)
	if err != nil {
		fmt.Fprintf(stderr, "llmsh: %v\n", err)
		return 2
	}
	sub.commands, sub.inflight, sub.psubs, sub.isNested = s.commands, s.inflight, s.psubs, true
	sub.frameCheck, sub.paths = s.frameCheck, s.paths
	inheritFds(ctx, sub)
	defer sub.runner.CloseFds()
	sub.state = s.state
	sub.runner.Reset()
	sub.runner.Funcs = maps.Clone(s.funcs(ctx))
	st := sub.Run(ctx, src, "llmsh")
	if err := sub.limitErr(); err != nil {
		s.trip(err)
	}
	return st
}

// isTerminal reports whether w is a terminal (grep --color=auto, ls).
func isTerminal(w io.Writer) bool { return builtins.IsTerminal(w) }

// SetExecutionString sets $BASH_EXECUTION_STRING to src, the text of -c
// that the shell is about to run (bash sets it as it starts).
func (s *Shell) SetExecutionString(src string) { s.runner.SetExecutionString(src) }

// Run parses and runs src and returns its exit status. Errors are printed
// on the shell's stderr in llmsh's words.
func (s *Shell) Run(ctx context.Context, src, name string) int {
	st, _ := s.runPart(ctx, src, src, name)
	return st
}

// runPart runs part, the start of script text src (the lines before a
// syntax error) or all of it. When an alias that a line defined makes a
// command of lines past the statements parsed (interp's ReadOn), the rest
// of src is read on, and readOn is true: the script has then run to its
// end.
func (s *Shell) runPart(ctx context.Context, part, src, name string) (status int, readOn bool) {
	if err := precheck(part, s.opts.Limits); err != nil {
		fmt.Fprintf(s.opts.Stderr, "llmsh: %v\n", err)
		return 2, false
	}
	file, err := interp.TextParser(ctx, part).Parse(strings.NewReader(part), name)
	if errors.Is(err, interp.ErrTextStopped) {
		return 1, false // the run has ended while the text was parsed
	}
	if err != nil {
		return s.runToSyntaxError(ctx, part, name, err), false
	}
	return s.runFilePart(ctx, file, src, name)
}

// runFilePart is runPart once part is parsed (file).
func (s *Shell) runFilePart(ctx context.Context, file *syntax.File, src, name string) (status int, readOn bool) {
	if err := refuse(file); err != nil {
		fmt.Fprintf(s.opts.Stderr, "llmsh: %v\n", err)
		return 2, false
	}
	s.runner.SetSourceAt(src, s.lineOffset) // declare -f prints functions as written
	s.runner.SetCommandString(s.opts.Command)
	st := s.RunFile(ctx, file)
	if rest, ok := s.runner.ReadOn(); ok && s.running(ctx) {
		s.runner.HoldExitTrap(s.inputRun) // the rest is the script's end (RunInput's: the command's)
		return s.Run(ctx, rest, name), true
	}
	return st, false
}

// running reports whether the script goes on: it did not exit, and no
// cancellation or limit stopped it.
func (s *Shell) running(ctx context.Context) bool {
	return !s.Exited() && ctx.Err() == nil && s.limitErr() == nil
}

// RunFile runs a parsed script. When a top-level script ends, the
// background jobs still running are hung up, as a closing terminal hangs
// up the jobs of its shell: their contexts are cancelled, so that no job
// keeps the run alive after its script (`wait` is the way to keep their
// output). HungUp names them afterwards.
func (s *Shell) RunFile(ctx context.Context, file *syntax.File) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.mu.Lock()
	s.cancel, s.tripped, s.tripSaid = cancel, nil, false
	s.mu.Unlock()
	s.exited = false
	// The jobs run under runCtx, which ends with the script; ctx stays
	// alive for the status. A part of a script read a command at a time
	// (holdEnd: RunInput ends the script itself) ends nothing here, and
	// runs under ctx (one context less a command of a piped script).
	runCtx, endRun := ctx, cancel
	if !s.holdEnd {
		runCtx, endRun = context.WithCancel(ctx)
		defer endRun()
	}
	if !s.isNested {
		s.endedRun = false
	}
	err := s.runner.Run(runCtx, file)
	if s.isNested && !s.holdEnd && !s.runner.ReadingOn() {
		// A nested shell's jobs get the grace of a script's end too
		// (bash -c 'echo a & echo b' prints both), then end with it.
		s.runner.HangUp(s.hangUpWait)
	}
	if !s.isNested && !s.runner.ReadingOn() {
		s.exited = s.runner.Exited()
		if !s.holdEnd {
			s.endScript(endRun)
		}
	}
	return s.status(ctx, err)
}

// endScript closes what a top-level script leaves open when it ends: its
// process substitutions and descriptors, and its background jobs, which
// it hangs up; endRun cancels what they started in turn.
func (s *Shell) endScript(endRun context.CancelFunc) {
	s.endedRun = true
	s.psubs.closeAll()
	// The descriptors go first, as at a process's exit: a process
	// substitution that exec made stdout (exec > >(tee log)) sees
	// the end of its input, and HangUp lets it finish.
	s.runner.CloseFds()
	s.hungUp = s.runner.HangUp(s.hangUpWait)
	// What the jobs started in turn (nested shells' jobs, process
	// substitutions) ends with the run too.
	endRun()
	s.settle(s.hangUpWait)
}

// hangUpWait bounds how long the end of a script waits for the jobs it
// hung up to stop (a builtin blocked on input that is not its context's
// may not notice at once).
const hangUpWait = time.Second

// SetLastStatus sets $? for the next chunk that RunInteractive runs (the
// REPL's status of a line it interrupted, timed out or limited).
func (s *Shell) SetLastStatus(st int) { s.runner.SetLastStatus(uint8(st)) }

// LastStatus is $?.
func (s *Shell) LastStatus() int { return int(s.runner.LastStatus()) }

// LastArg returns $_ and whether _ is still exported.
func (s *Shell) LastArg() (string, bool) { return s.runner.LastArg() }

// SetLastArg sets $_ and whether _ is exported, as LastArg gave them.
func (s *Shell) SetLastArg(v string, exported bool) { s.runner.SetLastArg(v, exported) }

// HungUp returns the background jobs that the last script left running
// and that its end stopped, as jobs lists them ("sleep 5 &").
func (s *Shell) HungUp() []string { return s.hungUp }

// settle waits, at most max, for the builtins still running in jobs that
// were hung up to return.
func (s *Shell) settle(max time.Duration) {
	if s.inflight.Load() == 0 {
		return
	}
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	deadline := time.After(max)
	for s.inflight.Load() > 0 {
		select {
		case <-tick.C:
		case <-deadline:
			return
		}
	}
}

// trip records a limit that fired (possibly in a background job, whose
// errors the interpreter drops) and cancels the run; it returns err.
func (s *Shell) trip(err error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tripped == nil {
		s.tripped = err
		if s.cancel != nil {
			s.cancel()
		}
	}
	if s.jobsCancel != nil {
		s.jobsCancel() // the prompt's jobs too (see jobContext)
	}
	return err
}

// Tripped reports whether a limit of the shell (commands, depth,
// processes) stopped the last run, which then said so and ended with 125.
func (s *Shell) Tripped() bool { return s.limitErr() != nil }

func (s *Shell) limitErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tripped
}

func (s *Shell) status(ctx context.Context, err error) int {
	if lerr := s.limitErr(); lerr != nil {
		s.mu.Lock()
		said := s.tripSaid
		s.mu.Unlock()
		if !said {
			fmt.Fprintf(s.opts.Stderr, "llmsh: %v\n", lerr)
		}
		return 125
	}
	return s.errStatus(ctx, err, 124)
}

// errStatus is the exit status of a run that ended with err (nil, an
// exit status, a limit, or a cancellation, which is cancelled: 124 for a
// script, 130 at the prompt), saying on stderr what ended it.
func (s *Shell) errStatus(ctx context.Context, err error, cancelled int) int {
	var es interp.ExitStatus
	switch {
	case err == nil:
		return 0
	case errors.As(err, &es):
		return int(es)
	case errors.Is(err, ErrLimit):
		fmt.Fprintf(s.opts.Stderr, "llmsh: %v\n", err)
		return 125
	case errors.As(err, new(expand.ValueTooLargeError)):
		// A limit, in a script and at the prompt alike: a library Run,
		// serve's and the REPL's once said "llmsh: value too large …",
		// status 1.
		fmt.Fprintf(s.opts.Stderr, "llmsh: limit exceeded: %v\n", err)
		return 125
	case ctx.Err() != nil:
		return cancelled
	}
	fmt.Fprintf(s.opts.Stderr, "llmsh: %v\n", err)
	return 1
}

// Exited reports whether the script (or, after RunInteractive, the
// chunk) ran exit.
func (s *Shell) Exited() bool { return s.exited || (s.isNested && s.runner.Exited()) }

// checkNested applies Run's checks to code that interp parses on its own
// (eval's string, a sourced file). On a refusal it prints the message and
// reports the status.
func (s *Shell) checkNested(ctx context.Context, name, src string) (int, bool) {
	err := precheck(src, s.opts.Limits)
	if err == nil {
		file, perr := interp.TextParser(ctx, src).Parse(strings.NewReader(src), "")
		if perr != nil {
			return 0, false // interp reports the syntax error its own way (or stops)
		}
		err = refuseNested(file)
	}
	if err == nil {
		return 0, false
	}
	fmt.Fprintf(interp.HandlerCtx(ctx).Stderr, "llmsh: %s: %v\n", name, err)
	return 2, true
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// refuseNested refuses in eval's string or a sourced file what Run would
// refuse. (interp's own process substitution goes through
// procSubstHandler.)
func refuseNested(file *syntax.File) error {
	return refuseInternalFuncs(file)
}

// readScript reads a file that source is about to run, through vfsd and
// at most one byte past the script size limit. ok is false when it cannot
// be read: interp then reports the error.
func (s *Shell) readScript(ctx context.Context, name string) (string, bool) {
	f, err := s.client.Open(absPath(interp.HandlerCtx(ctx).Dir, name))
	if err != nil {
		return "", false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, int64(s.opts.Limits.MaxScriptSize)+1))
	if err != nil {
		return "", false
	}
	return string(b), true
}

// precheck bounds the script's size and bracket nesting before the parser
// runs: Go's stack overflow cannot be recovered.
func precheck(src string, l Limits) error {
	return interp.CheckText(src, l.MaxScriptSize, l.MaxNesting)
}

// refuse refuses what interp would not run as bash: a function whose
// name begins with a NUL or \x01 byte.
func refuse(file *syntax.File) error {
	return refuseInternalFuncs(file)
}

// Incomplete reports whether src ends inside an unfinished construct (an
// open quote, a loop without done, a here-doc, a trailing pipe or a
// trailing backslash that continues the line).
func Incomplete(src string) bool {
	file, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		return syntax.IsIncomplete(err)
	}
	if len(file.UnclosedHdocs) > 0 {
		return true // the here-document goes on on the next line
	}
	if !strings.HasSuffix(src, "\\\n") {
		return false
	}
	// A whole script may end in a line continuation (it joins nothing);
	// the interactive parser tells whether this one does.
	p := syntax.NewParser()
	incomplete := false
	//lint:ignore SA1019 Interactive's callback gives Incomplete after each line, which is what is asked here
	p.Interactive(strings.NewReader(src), func([]*syntax.Stmt) bool {
		incomplete = p.Incomplete()
		return true
	})
	return incomplete
}

// InputIncomplete reports whether src, lines typed at the prompt, ends
// inside an unfinished construct (Incomplete), or does once the aliases
// defined now are expanded in it, as bash reads a line (an alias that
// opens a `{` or a quote): the prompt then reads on.
func (s *Shell) InputIncomplete(ctx context.Context, src string) bool {
	if incomplete, expanded := s.runner.AliasIncomplete(ctx, src); expanded {
		// (A final backslash continues the line whatever the aliases.)
		return incomplete || strings.HasSuffix(src, "\\\n") && Incomplete(src)
	}
	return Incomplete(src)
}

// environKey carries the environment that `env` gives the command it runs.
type environKey struct{}

// fileSizeLimit is ulimit -f: vfsd's write budget in blocks of 1024 bytes
// (-1: none), lowered to lower blocks when lower is 0 or more.
func (s *Shell) fileSizeLimit(lower int64) (int64, error) {
	if s.client == nil {
		return -1, nil
	}
	if lower >= 0 {
		lower = min(lower, math.MaxInt64/1024) * 1024
	}
	r, err := s.client.WriteBudget(lower)
	if err != nil || r.Max < 0 {
		return -1, err
	}
	return r.Max / 1024, nil
}

// BinaryScript reports whether a script file's start looks binary, as
// bash's check_binary_file sees its first 80 bytes: an ELF header, or a
// NUL before the end of the first line (of the first two after "#!").
// bash refuses such a file with status 126 instead of running its text
// (`bash FILE`, llmsh FILE), saying "FILE: FILE: cannot execute binary file".
func BinaryScript(b []byte) bool {
	if len(b) > 80 {
		b = b[:80]
	}
	if bytes.HasPrefix(b, []byte("\x7fELF")) {
		return true
	}
	lines := 1
	if bytes.HasPrefix(b, []byte("#!")) {
		lines = 2
	}
	for _, c := range b {
		if c == '\n' {
			if lines--; lines == 0 {
				return false
			}
		}
		if c == 0 {
			return true
		}
	}
	return false
}

// toolExecFailed says, in tool's words, why it could not run the command
// name (why: the errno's text); false if tool is none of execFailMsg's.
func toolExecFailed(w io.Writer, tool, name, why string) bool {
	msg, ok := execFailMsg[tool]
	if !ok {
		return false
	}
	q := gnuQuote(name)
	if tool == "xargs" {
		q = name
	} else if tool == "nohup" {
		q = "'" + name + "'"
	}
	fmt.Fprintf(w, msg+"\n", q, why)
	return true
}

// toolExec runs args for the tool name (env, xargs, find -exec, timeout
// ...) as execvp would: a name on the command's PATH, or a path. What
// cannot be run the tool reports in its own words (and notes it in the
// call's builtins.ExecFailure).
func (s *Shell) toolExec(ctx context.Context, name string, args []string, in io.Reader, out, errw io.Writer, dir string, environ []string) int {
	vars, cdir := environ, dir
	if e, ok := ctx.Value(environKey{}).([]string); ok {
		vars = e // set by env NAME=VALUE
	}
	if d, ok := builtins.ExecDir(ctx); ok {
		cdir = d // env -C DIR, find -execdir: for this command only
		ctx = builtins.WithExecDir(ctx, "")
	}
	failed := builtins.ExecFailureOf(ctx)
	if failed != nil {
		ctx = builtins.WithExecFailure(ctx, nil) // the command's own commands are not the tool's
	}
	if len(args) > 0 && builtins.IsProgram(args[0]) {
		// As execvp: the command's PATH (the default when it
		// has none).
		pathVar, ok := builtins.EnvironValue(vars, "PATH")
		if !ok {
			pathVar = builtins.DefaultPath
		}
		ps := builtins.LookPath(args[0], pathVar, cdir, false, func(p string) bool { return s.executable(ctx, p) })
		if len(ps) == 0 {
			failed.Set()
			return execNotFound(errw, name, args[0])
		}
		if !builtins.ProgramDir(absPath(cdir, ps[0])) {
			args = append([]string{ps[0]}, args[1:]...)
		}
	}
	if len(args) > 0 && strings.Contains(args[0], "/") {
		// runPath says in the tool's words why the file cannot run.
		ctx = context.WithValue(ctx, execToolKey{}, execTool{name, failed})
	}
	st := s.run(ctx, args, false, in, out, errw, cdir, vars)
	if st == notFound {
		failed.Set()
		st = execNotFound(errw, name, args[0])
	}
	return st
}
