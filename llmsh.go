// Package llmsh embeds llmsh, a restricted shell for LLM agents, in a Go
// program: a Session runs bash-style scripts in which every command is an
// in-process builtin, no host program is ever executed, the host
// environment is invisible, and every byte of file I/O goes through the
// session's own vfsd, a separate I/O-only process that enforces read and
// write allowlists.
//
// Like a terminal tab (and like the bash tools agents are trained on), a
// Session keeps its variables, functions, working directory and virtual
// files from one Run to the next, until Close; Reset starts over.
//
// vfsd runs as a child process. It is either a vfsd (or llmsh) binary named
// by Options.VfsdPath, or the embedding program itself re-executed in
// server mode, which works only if that program calls MaybeServeVfsd first
// thing in main (and in TestMain for tests):
//
//	func main() {
//		llmsh.MaybeServeVfsd()
//		…
//	}
//
// The library never restricts the embedding process itself (the llmsh
// command adds a Landlock layer on its own process; an embedder may do the
// same once its sessions are started, see internal/sandbox).
//
// docs/architecture.md shows how the packages fit together.
package llmsh

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"

	"github.com/llmsh/llmsh/builtins"
	"github.com/llmsh/llmsh/internal/memguard"
	"github.com/llmsh/llmsh/internal/vfsdproc"
	"github.com/llmsh/llmsh/shell"
	"github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
	"github.com/llmsh/llmsh/vfsclient"
	"github.com/llmsh/llmsh/vfsd"
	"github.com/llmsh/llmsh/vfsproto"
)

// MaybeServeVfsd makes the running executable usable as vfsd. When the
// process was started as vfsd (by a Session of this same executable), it
// serves the session and exits the process; otherwise it returns at once
// and records that New may re-execute this executable as vfsd. Call it
// first in main, before anything else reads the arguments, and in TestMain.
//
// It also serves the worker process of an isolated session
// (Options.Isolated), which is this executable started the same way.
func MaybeServeVfsd() {
	vfsdproc.WorkerMain = serveWorker
	vfsdproc.Serve()
}

// Options configure a Session. The zero value is a session that may read
// and write nothing of the host: its writes all go to virtual files.
type Options struct {
	// Inputs are readable paths, Outputs writable (and readable) ones; a
	// directory grants its tree. Relative paths resolve against Dir.
	Inputs, Outputs []string
	// Dir is the shell's working directory at the start (and where vfsd
	// resolves relative grants). Empty: the process's working directory.
	Dir string
	// Strict makes writes outside Outputs fail with "Permission denied"
	// instead of creating virtual files.
	Strict bool
	// Limits bound each Run; zero fields take the defaults.
	Limits Limits
	// Timeout bounds each Run's wall-clock time (exit status 124); zero
	// means none beyond the context given to Run.
	Timeout time.Duration
	// MaxOutput caps the bytes of stdout plus stderr that a Run keeps;
	// output beyond it is dropped, the Run is stopped (exit status 125) and
	// Result.Truncated is set. Zero means no cap.
	MaxOutput int64
	// VfsdPath is a vfsd binary (cmd/vfsd) to run as the file server.
	// Empty: this executable in server mode (see MaybeServeVfsd).
	VfsdPath string
	// MaxVirtualBytes bounds the total size of the session's virtual
	// files (writes beyond it fail with "File too large"); zero
	// is vfsd's default.
	MaxVirtualBytes int64
	// MaxWrite is the write budget: the most bytes the session's scripts
	// may add to host files under Outputs (vfsd counts each file's growth;
	// a rewrite is counted again, nothing is given back), over
	// the session's life. A write past it fails with "File too large"
	// (status 1, the script goes on), as under bash's ulimit -f, which
	// reports and lowers it. Zero: DefaultMaxWrite; negative: no budget.
	MaxWrite int64
	// VfsdLog, if set, is a file to which vfsd appends one JSON line per
	// request.
	VfsdLog string
	// Isolated runs the session's shell in a process of its own: this
	// executable re-executed (it must call MaybeServeVfsd first in main),
	// confined as the llmsh command confines itself (Landlock: no file
	// access and no network once its vfsd runs) and by MaxMemory. A crash
	// of the shell (Go's stack overflow, the kernel's out-of-memory
	// killer) ends that process only: the Run returns an error wrapping
	// ErrCrashed, the embedding program and its other sessions go on,
	// and Reset starts the session anew. llmsh serve and llmsh mcp run
	// every session so. Without it the shell runs in the embedding
	// process, which shares one heap and one stack limit with it: a
	// session can then exhaust the process's memory, and the memory
	// limit of the llmsh command does not apply.
	Isolated bool
	// MaxMemory bounds the heap: a Run that takes it past the limit is
	// stopped with status 125 and "llmsh: memory limit exceeded (…)" on
	// its stderr, and the session goes on. For an Isolated session it is
	// the heap of the session's own process (zero: DefaultMaxMemory).
	// For one that is not, it is the heap of the whole embedding process,
	// which the guard also sets as the Go runtime's soft memory limit;
	// the llmsh command, one session per process, runs so with
	// DefaultMaxMemory. Zero, for a session that is not Isolated: each
	// Run is stopped so when the process's heap grows by more than
	// DefaultMaxMemory while it runs (a command gathering one endless
	// line of /dev/zero grew it by gigabytes a second until the Run's
	// time limit); negative: no guard at all.
	MaxMemory int64

	// Name is $0 (default "llmsh"), Args are $1…. Command says that the
	// scripts are -c strings and Source that they come from that file
	// (${BASH_SOURCE}): errors of a RunOptions.Script run are worded as
	// bash's for them.
	Name    string
	Args    []string
	Command bool
	Source  string
	// FromStdin says that the scripts are read from standard input (bash
	// -s, or no script operand): $- ends in "s", as bash's.
	FromStdin bool
	// ShellOpts are set options the shell starts with, as set takes them
	// ("-e", "-o", "pipefail").
	ShellOpts []string
	// Color is the choice for builtins' --color=auto: "" or "auto"
	// (when the command's stdout is a terminal), "always" or "never".
	Color string
	// Verbose says on a Run's stderr which background jobs the end of a
	// RunOptions.Script run stopped.
	Verbose bool
	// Hidden are files vfsd never opens, whatever the grants (the
	// interactive shell's history file).
	Hidden []string
	// VfsdFDs, when set, are the read and write descriptors of a vfsd
	// that the parent process already runs: the session uses it instead
	// of starting one (Inputs, Outputs, Strict and the other vfsd options
	// are then that vfsd's business). Not with Isolated.
	VfsdFDs []int
	// VfsdStderr receives vfsd's own messages (a refused grant says why
	// there, and the error of New repeats it); nil is os.Stderr. An
	// Isolated session's vfsd writes to its process's stderr, which
	// ErrCrashed quotes.
	VfsdStderr io.Writer `json:"-"`
	// OnStart, if set, is called once, as soon as vfsd's process runs
	// and while it starts answering (for an Isolated session, once its
	// process has opened the session): the llmsh command confines itself
	// (Landlock) there, so that the two take their time side by side.
	OnStart func() `json:"-"`
}

// Limits bound a Run: commands run, call depth, script size and nesting,
// processes at once. Zero fields take the defaults of package shell.
type Limits = shell.Limits

// ValueLimit is the bound on one value (Limits.MaxValue: a command
// substitution's output, an expanded word, a string awk or jq builds) of
// a session whose Options.MaxMemory is maxMemory: an eighth of its memory
// limit (DefaultMaxMemory's when it has none), and at most
// shell.DefaultMaxValue (256 MiB, an eighth of 2 GiB). Session 29: a
// value could grow to 256 MiB whatever the memory limit, so a run under
// --max-memory 128M reached 519 MB of RSS in the allocations of one value
// (a buffer doubling as it is filled, then the string made of it), which
// no guard's tick interrupts; an eighth keeps that burst within the limit.
func ValueLimit(maxMemory int64) int {
	if maxMemory <= 0 {
		maxMemory = DefaultMaxMemory
	}
	return int(min(maxMemory/8, shell.DefaultMaxValue))
}

// limits are the shell's limits: Options.Limits, with a MaxValue of
// ValueLimit's when it has none.
func (s *Session) limits() Limits { return limitsOf(s.opts) }

func limitsOf(opts Options) Limits {
	l := opts.Limits
	if l.MaxValue == 0 {
		l.MaxValue = ValueLimit(opts.MaxMemory)
	}
	return l
}

// Result is what one Run produced.
type Result struct {
	Stdout, Stderr string
	// Output is stdout and stderr together in the order they were
	// written, as a terminal shows them (within MaxOutput, as they are).
	Output string
	// ExitCode is the status of the last command, as $? would show it:
	// 124 after Options.Timeout, 125 when a limit (or MaxOutput) stopped
	// the script, 2 for a syntax error.
	ExitCode int
	// Truncated reports that Options.MaxOutput cut the output short.
	Truncated bool
	// Limit names the limit that stopped the Run: "time" (status 124),
	// "output" or "memory" (status 125); empty when the script ended by
	// itself (a limit of Options.Limits, which the shell enforces, says
	// so on stderr with status 125).
	Limit string `json:",omitempty"`
	// Duration is the Run's wall-clock time.
	Duration time.Duration
	// VirtualFiles are the absolute paths of the session's virtual files
	// after the Run: files written outside Outputs, which exist only in
	// vfsd's memory until the session ends.
	VirtualFiles []string
	// VirtualFilesOmitted counts the virtual files that VirtualFiles does
	// not name: when their names are too long to list in one answer of
	// vfsd (about 1 MiB), VirtualFiles names the shortest.
	VirtualFilesOmitted int64
	// VirtualFilesErr, if not nil, is why vfsd could not list them.
	VirtualFilesErr error `json:"-"`
	// HungUp names the background jobs that the end of the Run stopped
	// (a Run's jobs end with it; wait collects them).
	HungUp []string `json:",omitempty"`
}

// ErrClosed is returned by Run on a closed Session.
var ErrClosed = errors.New("llmsh: session closed")

// ErrVfsdGone is returned (wrapped) by Run when the session's vfsd has
// exited; Reset starts a new one.
var ErrVfsdGone = errors.New("llmsh: vfsd exited")

// A Session is one shell and its vfsd. Its methods are safe to call from
// several goroutines, but Runs do not overlap: a Run waits for the one in
// progress to finish. Separate Sessions are independent and run in
// parallel, each with its own virtual files.
type Session struct {
	opts Options
	dir  string
	sem  chan struct{} // held by Run, Reset and Close

	// Under sem:
	proc           *vfsdproc.Proc
	sh             *shell.Shell
	stdout, stderr stream
	closed         bool
	started        bool            // OnStart has been called
	stopGuard      func()          // the memory guard's, nil without one
	memGuard       *memguard.Guard // the guard of MaxMemory in process, or nil
	// heapBase is the heap from which the Runs of a session in process
	// without MaxMemory are measured: the lowest seen when its shell
	// started or a Run began (growthGuard), so that what earlier Runs
	// kept counts.
	heapBase uint64

	iso *isoProc // the worker of an Isolated session (under sem)

	mu      sync.Mutex
	cancel  context.CancelFunc // of the Run in progress
	lim     *limiter           // of the Run in progress, for the memory guard
	vfs     *vfsclient.Client  // the current vfsd's client, for ReadFile
	isoLive *isoProc           // iso, for ReadFile
}

// New starts a session: its vfsd, with the allowlists of opts, and a
// shell. Close it to end vfsd and discard the virtual files. A grant vfsd
// refuses is New's error (ErrGrantRefused). New does not wait for vfsd to
// have started when it finds the grants sound and there is no VfsdLog: a
// vfsd that fails after that is the error of the first Run that needs
// it, or of the first Run after it is gone (ErrVfsdGone).
func New(opts Options) (*Session, error) {
	dir := opts.Dir
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("llmsh: %w", err)
		}
		dir = wd
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("llmsh: %w", err)
	}
	if len(opts.VfsdFDs) != 0 && (len(opts.VfsdFDs) != 2 || opts.Isolated) {
		return nil, errors.New("llmsh: VfsdFDs wants two descriptors, and no Isolated")
	}
	if err := startable(dir, opts); err != nil {
		return nil, err
	}
	s := &Session{opts: opts, dir: dir, sem: make(chan struct{}, 1)}
	if err := s.start(); err != nil {
		return nil, err
	}
	if !opts.Isolated && opts.MaxMemory > 0 {
		limit := uint64(opts.MaxMemory)
		prev := debug.SetMemoryLimit(-1)
		g := memguard.Start(limit, func() {
			s.mu.Lock()
			l := s.lim
			s.mu.Unlock()
			if l != nil {
				l.fire(ErrMemoryLimit, memguard.Message(limit))
			}
		})
		s.memGuard = g
		s.stopGuard = func() {
			g.Stop()
			debug.SetMemoryLimit(prev) // the Go runtime's soft limit as it was
		}
	}
	return s, nil
}

// startable says, as vfsd would, why the grants or the directory of a
// session cannot be started with: a NUL in a path failed the exec of
// vfsd or the worker, and a directory that does not exist their chdir,
// both told as "fork/exec /path/to/llmsh: …", naming llmsh (session
// 30, red team: serve's open said "cannot start the session's process:
// fork/exec /usr/bin/llmsh: no such file or directory" of a dir).
func startable(dir string, opts Options) error {
	for _, g := range []struct {
		flag  string
		paths []string
	}{{"-i", opts.Inputs}, {"-o", opts.Outputs}} {
		for _, p := range g.paths {
			if strings.IndexByte(p, 0) >= 0 {
				return fmt.Errorf("%w: %s %q: invalid path", ErrGrantRefused, g.flag, p)
			}
		}
	}
	if len(opts.VfsdFDs) != 0 {
		return nil // no process is started in dir
	}
	fi, err := os.Stat(dir)
	if err == nil && !fi.IsDir() {
		err = syscall.ENOTDIR
	}
	var errno syscall.Errno
	switch {
	case err == nil:
		return nil
	case errors.As(err, &errno):
		name := dir
		if strings.ContainsFunc(dir, func(r rune) bool { return !unicode.IsPrint(r) }) {
			name = strconv.Quote(dir)
		}
		return fmt.Errorf("llmsh: %s: %s", name, builtins.ErrText(errno))
	}
	return fmt.Errorf("llmsh: %w", err)
}

// runGuard is the memory guard of one Run of a session in process.
type runGuard struct {
	stop func()
	top  uint64 // the heap above which the Run is stopped; 0: none
	fire func()
	// start is the live heap at the Run's start when it was above top
	// already (the session kept more than its bound), else 0.
	start uint64
}

// check stops the Run if the heap is above the guard's top after a
// collection, and reports whether it was: called as the Run's script
// ends, so that what a Run shorter than the guard's tick keeps is seen
// (session 25, red team: Runs of a few milliseconds each keeping 25 MB
// grew a session past its MaxMemory, the guard firing only when a tick
// fell inside a Run).
func (g runGuard) check() bool {
	if g.top != 0 && memguard.Over(g.top) {
		g.fire()
		return true
	}
	return false
}

// begin notes the heap a Run starts with when it is above the bound
// (after the collection memguard.Allowance made), and starts recording
// the variables the Run stores (endCheck).
func (g *runGuard) begin(sh *shell.Shell) {
	if g.top == 0 {
		return
	}
	if h := memguard.Heap(); h > g.top {
		g.start = h
	}
	sh.TrackSets(true)
}

// endCheck is the check at a Run's end. A Run that leaves the session
// over its memory bound is stopped (125), and the global variables it
// stored are unset, the biggest first, until what they hold makes up
// what it grew the heap past the bound (past the heap it started with,
// for a Run that started over it), so that what a session keeps stays
// under its bound and the next Runs run (session 30's leftover: the
// state stayed, and every later Run was stopped at its end, `echo hi`
// with it, until one unset the right names or the session was reset).
// Both are said on stderr; so is what the session still keeps over its
// bound (functions, or what an earlier Run left).
func (s *Session) endCheck(g runGuard, lim *limiter) {
	if g.top == 0 {
		return
	}
	defer s.sh.TrackSets(false)
	// The text of the run's last expansion, its last value stored,
	// stays in the expansion's buffer: unset, that variable freed none
	// of its heap, and a session left over its bound by 10 MB of one
	// 7 MB value each took it still over it after unsetting two.
	s.sh.DropBuffers()
	if !g.check() {
		return
	}
	sets := s.sh.TrackedSets()
	heap := memguard.Heap() // live: Over collected
	grew := heap - min(heap, g.top)
	if g.start != 0 {
		grew = min(grew, heap-min(heap, g.start))
	}
	var names []string
	freed, params := 0, false
	for _, v := range sets {
		if uint64(freed) >= grew {
			break
		}
		s.sh.UnsetGlobal(v.Name)
		if v.Name == "@" {
			params = true
		} else {
			names = append(names, v.Name)
		}
		freed += v.Size
	}
	if len(names) != 0 {
		lim.note(fmt.Sprintf("unset %s, which this run set: the session would keep more than its memory limit", strings.Join(names, " ")))
	}
	if params {
		lim.note("set --: the positional parameters this run set would keep the session over its memory limit")
	}
	if memguard.Over(g.top) {
		lim.note("the session keeps more than its memory limit: each run is stopped until one unsets what it keeps, or the session is reset")
	}
}

// growthGuard starts the guard of a Run of an in-process session: for a
// session without MaxMemory one that fires l when the heap grows by more
// than DefaultMaxMemory (memguard.RunGrowth for the tests) from the
// session's base, so that what the session keeps between Runs counts
// (session 24's leftover: twelve Runs each keeping 192 MB took the heap
// to 2.3 GB, each Run's guard counting from its own start); for one with
// MaxMemory, the check of the session's guard at the Run's end (and
// allowMemory's room while it runs). A Run that starts above its bound
// has memguard.Allowance's room above the heap it starts with.
func (s *Session) growthGuard(l *limiter) runGuard {
	switch {
	case s.opts.Isolated || s.opts.MaxMemory < 0:
		return runGuard{stop: func() {}}
	case s.opts.MaxMemory > 0:
		limit := uint64(s.opts.MaxMemory)
		return runGuard{stop: s.allowMemory(), top: limit, fire: func() { l.fire(ErrMemoryLimit, memguard.Message(limit)) }}
	}
	limit := uint64(DefaultMaxMemory)
	if memguard.RunGrowth != 0 {
		limit = memguard.RunGrowth
	}
	fire := func() { l.fire(ErrMemoryLimit, memguard.Message(limit)) }
	stop, from := memguard.GrowthFrom(s.heapBase, limit, fire)
	s.heapBase = from
	return runGuard{stop: stop, top: memguard.Top(from, limit), fire: fire}
}

// allowMemory gives the work that starts now (a Run, a command line
// of Interactive) of a session with MaxMemory in process the room that
// memguard.Allowance gives work starting over the bound, and returns
// the function that takes it back: the session's guard would stop it at
// its first tick, before it could unset what the session keeps.
func (s *Session) allowMemory() (restore func()) {
	if s.memGuard == nil {
		return func() {}
	}
	limit := uint64(s.opts.MaxMemory)
	allow := memguard.Allowance(limit, limit)
	if allow == limit {
		return func() {}
	}
	s.memGuard.SetLimit(allow)
	return func() { s.memGuard.SetLimit(limit) }
}

// setLimiter makes l the limiter the memory guard fires.
func (s *Session) setLimiter(l *limiter) {
	s.mu.Lock()
	s.lim = l
	s.mu.Unlock()
}

// start starts vfsd and a fresh shell (in a worker when Isolated); it
// holds sem or is New.
func (s *Session) start() error {
	if !s.opts.Isolated && s.opts.MaxMemory == 0 {
		s.heapBase = memguard.Heap() // a new shell keeps nothing yet
	}
	if s.opts.Isolated {
		p, err := startIsolated(s.opts, s.dir)
		if err != nil {
			return err
		}
		if s.opts.OnStart != nil && !s.started {
			s.started = true
			s.opts.OnStart()
		}
		s.iso = p
		s.mu.Lock()
		s.isoLive = p
		s.mu.Unlock()
		return nil
	}
	var p *vfsdproc.Proc
	var vfsdErr *tailWriter
	if fds := s.opts.VfsdFDs; len(fds) == 2 {
		p = vfsdproc.Attach(uintptr(fds[0]), uintptr(fds[1]))
	} else {
		w := s.opts.VfsdStderr
		if w == nil {
			w = os.Stderr
		}
		vfsdErr = &tailWriter{w: w}
		var err error
		p, err = vfsdproc.Start(vfsdproc.Config{
			Path: s.opts.VfsdPath, Inputs: s.opts.Inputs, Outputs: s.opts.Outputs,
			Strict: s.opts.Strict, Log: s.opts.VfsdLog, MaxVirtualBytes: s.opts.MaxVirtualBytes,
			MaxWriteBytes: vfsdWriteBudget(s.opts.MaxWrite),
			Hidden:        s.opts.Hidden, Dir: s.dir, Stderr: vfsdErr,
		})
		if err != nil {
			return fmt.Errorf("llmsh: %w", err)
		}
	}
	// OnStart runs while vfsd answers hello (on this goroutine: llmsh's
	// start runs on one P, earlyvfsd.FullProcs), and so is the shell
	// made, which sends vfsd nothing: a -c run's vfsd is still starting
	// when llmsh gets here (issue 21). When nothing vfsd could refuse is
	// left to its answer (mayStartLater), no one waits for it here: the first
	// request does, and a script that asks nothing ends before vfsd has
	// started.
	later := vfsdErr != nil && s.mayStartLater()
	hello := func() (vfsproto.HelloResult, error) { return vfsproto.HelloResult{}, nil }
	if later {
		p.Client.HelloLater()
	} else {
		hello = p.Client.SendHello()
	}
	if s.opts.OnStart != nil && !s.started {
		s.started = true
		s.opts.OnStart()
	}
	s.stdout.set(nil)
	s.stderr.set(nil)
	sh, shErr := shell.New(shell.Options{
		Client: p.Client, Stdout: &s.stdout, Stderr: &s.stderr, Dir: s.dir, Limits: s.limits(),
		Name: s.opts.Name, Args: s.opts.Args, ShellOpts: s.opts.ShellOpts, Command: s.opts.Command, Source: s.opts.Source, Color: s.opts.Color,
		FromStdin: s.opts.FromStdin,
		PanicLog:  panicLog(s.opts.Verbose, &s.stderr),
	})
	if _, err := hello(); err != nil {
		if vfsdproc.Refused(p.Close()) && vfsdErr != nil {
			// vfsd refused a grant and said why on its stderr.
			return fmt.Errorf("%w: %s", ErrGrantRefused, vfsdErr.text())
		}
		return fmt.Errorf("llmsh: vfsd did not answer: %w", err)
	}
	if shErr != nil {
		if later {
			p.Drop()
		} else {
			p.Close()
		}
		return fmt.Errorf("llmsh: %w", shErr)
	}
	sh.RouteBuiltins("help", "history")
	s.proc, s.sh = p, sh
	s.mu.Lock()
	s.vfs = p.Client
	s.mu.Unlock()
	return nil
}

// DefaultMaxWrite is a session's write budget when Options.MaxWrite is
// zero: 10 GiB, which a real task's files rarely reach and most disks
// can spare.
const DefaultMaxWrite = vfsdproc.DefaultMaxWrite

// vfsdWriteBudget is vfsd's --max-write for Options.MaxWrite (0: none).
func vfsdWriteBudget(n int64) int64 {
	switch {
	case n == 0:
		return DefaultMaxWrite
	case n < 0:
		return 0
	}
	return n
}

// mayStartLater says whether the session may run scripts before its
// vfsd has answered hello: vfsd has nothing to refuse that it would only
// say in that answer (its allowlists open, CheckGrants; its budget is
// not negative) and writes no audit log, whose record starts with hello.
// It runs before OnStart, while llmsh may still open files.
func (s *Session) mayStartLater() bool {
	return s.opts.VfsdLog == "" && s.opts.MaxVirtualBytes >= 0 &&
		vfsd.CheckGrants(s.dir, s.opts.Inputs, s.opts.Outputs) == nil
}

// panicLog is where the shell writes the stack of a panic it recovers:
// the run's stderr under Verbose, else nowhere.
func panicLog(verbose bool, stderr io.Writer) io.Writer {
	if verbose {
		return stderr
	}
	return nil
}

// stop ends the shell and vfsd; it holds sem.
func (s *Session) stop() error {
	if s.iso != nil {
		s.mu.Lock()
		s.isoLive = nil
		s.mu.Unlock()
		err := s.iso.close()
		s.iso = nil
		return err
	}
	if s.proc == nil {
		return nil
	}
	s.mu.Lock()
	s.vfs = nil
	s.mu.Unlock()
	var err error
	if s.proc.Client.Later() && !s.proc.Client.Changed() {
		// Never asked to change a file (or asked nothing at all): no
		// write of the session is in vfsd, no virtual file, so it is
		// killed rather than told and waited for while it ends.
		s.proc.Drop()
	} else {
		err = s.proc.Close()
	}
	s.proc, s.sh = nil, nil
	return err
}

func (s *Session) lock(ctx context.Context) error {
	select {
	case s.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Session) unlock() { <-s.sem }

// Run runs script in the session, with stdin as its standard input (nil
// for none), and returns its output and status: RunWith with only Stdin.
func (s *Session) Run(ctx context.Context, script string, stdin io.Reader) (Result, error) {
	return s.RunWith(ctx, script, RunOptions{Stdin: stdin})
}

// RunWith runs script in the session as ro says, and returns its output
// and status. Variables, functions, the working directory and virtual
// files carry over to the next Run. Background jobs end with the Run
// (collect them with wait). A stdin that is not an *os.File is copied to
// the script by a goroutine until its end or the end of the Run; a reader
// that blocks keeps that goroutine until it returns.
//
// The error is nil whenever the script ran, whatever its status; it is
// ErrClosed, a wrapped ErrVfsdGone (or ErrCrashed), or ctx's error when
// ctx ended the Run (the Result then holds the output so far). A Run that
// a time limit or another limit stopped does not end the session: the
// next Run works.
func (s *Session) RunWith(ctx context.Context, script string, ro RunOptions) (Result, error) {
	if err := s.lock(ctx); err != nil {
		return Result{}, err
	}
	defer s.unlock()
	if s.closed {
		return Result{}, ErrClosed
	}
	if s.opts.Isolated {
		if s.iso == nil {
			return Result{}, fmt.Errorf("%w (Reset starts a new session)", ErrCrashed)
		}
		// The worker's session applies the limits; Close cancels
		// through s.cancel.
		runCtx, cancel := context.WithCancel(ctx)
		defer cancel()
		defer s.cancelWith(cancel)()
		res, err := s.runIsolated(runCtx, script, ro)
		if errors.Is(err, context.Canceled) && ctx.Err() == nil {
			err = nil // Close cancelled it: as an in-process Run, the output so far
		}
		return res, err
	}
	if s.sh == nil {
		return Result{}, fmt.Errorf("%w (Reset starts a new session)", ErrVfsdGone)
	}
	if err := s.proc.Client.Err(); err != nil {
		return Result{}, fmt.Errorf("%w: %v (Reset starts a new session)", ErrVfsdGone, err)
	}
	pre, err := prelude(ro)
	if err != nil {
		return Result{}, err
	}
	return s.run(ctx, script, pre, ro)
}

// prelude is the text run before a Run's script for ro's Dir and Env.
func prelude(ro RunOptions) (string, error) {
	var b strings.Builder
	if ro.Dir != "" {
		q, err := syntax.Quote(ro.Dir, syntax.LangBash)
		if err != nil {
			return "", fmt.Errorf("llmsh: RunOptions.Dir: %w", err)
		}
		fmt.Fprintf(&b, "cd -- %s\n", q)
	}
	for _, kv := range ro.Env {
		name, val, ok := strings.Cut(kv, "=")
		if !ok || !syntax.ValidName(name) {
			return "", fmt.Errorf("llmsh: RunOptions.Env: %q is not NAME=value", kv)
		}
		q, err := syntax.Quote(val, syntax.LangBash)
		if err != nil {
			return "", fmt.Errorf("llmsh: RunOptions.Env: %s: %w", name, err)
		}
		fmt.Fprintf(&b, "export %s=%s\n", name, q)
	}
	return b.String(), nil
}

// run is an in-process Run; it holds sem.
func (s *Session) run(ctx context.Context, script, pre string, ro RunOptions) (Result, error) {
	client := s.proc.Client
	start := time.Now()
	timeout := bound(s.opts.Timeout, ro.Timeout)
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if timeout > 0 {
		var c context.CancelFunc
		runCtx, c = context.WithTimeoutCause(runCtx, timeout, ErrTimedOut)
		defer c()
	}
	defer s.cancelWith(func() { cancel(context.Canceled) })()

	out, stdout, stderr, notes := outputs(ctx, ro)
	lim := &limiter{stderr: notes, maxOutput: bound(s.opts.MaxOutput, ro.MaxOutput), apart: apartStreams(ro.Stdout, ro.Stderr)}
	// The guard first: a session with MaxMemory that keeps more than
	// it allows gives the Run its room (allowMemory) after a collection,
	// and a tick of the session's guard inside that collection fired
	// the Run's limiter at the old limit, before the script began
	// (TestIsolatedSessionGrowth, session 29: "the Run that gives it
	// back" stopped after 18 ms, within its `sleep 0.1`). A limiter
	// fires nothing before begin.
	guard := s.growthGuard(lim)
	defer guard.stop()
	guard.begin(s.sh)
	lim.begin(cancel)
	s.setLimiter(lim)
	defer s.setLimiter(nil)
	errw := lim.errWriter(stderr)
	s.stdout.set(lim.writer(stdout))
	s.stderr.set(errw)
	defer s.stdout.set(nil)
	defer s.stderr.set(nil)
	stopped := onStop(runCtx, ro.OnStop)

	in, closeIn, err := stdinFile(ro.Stdin)
	if err != nil {
		return Result{}, fmt.Errorf("llmsh: %w", err)
	}
	defer closeIn()
	if err := s.sh.SetStdin(in); err != nil {
		return Result{}, fmt.Errorf("llmsh: %w", err)
	}
	ro.Stdin = in // where a ScriptFromStdin script is read

	go func() {
		select {
		case <-client.Done():
			cancel(ErrVfsdGone)
		case <-runCtx.Done():
		}
	}()
	var res Result
	status := s.execute(runCtx, script, pre, ro, errw, &res)
	stopped()
	s.endCheck(guard, lim)
	fired := lim.end()
	cause := context.Cause(runCtx)
	cancel(nil) // background jobs end with the Run
	// The client's error, not the watcher above: it is set before any
	// request waiting on the connection is answered, so a script that
	// saw vfsd gone (cat: Input/output error) and ended before the
	// watcher ran still ends the Run with ErrVfsdGone.
	var runErr error
	if err := client.Err(); err != nil {
		runErr = fmt.Errorf("%w: %v (Reset starts a new session)", ErrVfsdGone, err)
	}
	switch {
	case runErr != nil:
	case fired != nil && cause == fired:
		status = 125 // the limit said so
		res.Limit = "output"
		if fired == ErrMemoryLimit {
			res.Limit = "memory"
			runtime.GC() // the stopped script's heap, before the next Run
		}
	case cause == ErrTimedOut && ctx.Err() == nil && s.sh.Tripped():
		// A limit of the shell stopped the script first and said so
		// (125); the time ran out while its jobs were ending.
	case cause == ErrTimedOut && ctx.Err() == nil:
		status = 124
		res.Limit = "time"
		lim.say(fmt.Sprintf("timed out after %s", timeout))
	case ctx.Err() != nil:
		runErr = ctx.Err()
	}
	if out != nil {
		out.mu.Lock()
		if ro.Stdout == nil {
			res.Stdout = string(out.stdout.buf)
		}
		if ro.Stderr == nil {
			res.Stderr = string(out.stderr.buf)
		}
		res.Output = string(out.all)
		out.mu.Unlock()
	}
	res.ExitCode = status
	res.Truncated = lim.truncated()
	res.Duration = time.Since(start)
	if runErr == nil && (len(s.opts.VfsdFDs) == 2 || client.Changed()) {
		runErr = s.virtuals(&res)
	}
	return res, runErr
}

// outputs are the writers of a Run's stdout and stderr: ro's, or a
// capture of what ro leaves nil (nil when it leaves none); notes is where
// llmsh's own messages go.
func outputs(ctx context.Context, ro RunOptions) (out *capture, stdout, stderr, notes io.Writer) {
	stdout, stderr = serialWriters(ro.Stdout, ro.Stderr)
	notes = stderr
	if stdout == nil || stderr == nil {
		out = newCapture()
		liveOut, liveErr := liveWriters(ctx) // RunStream's
		if stdout == nil {
			stdout = &out.stdout
			out.stdout.live = liveOut
		}
		if stderr == nil {
			stderr = &out.stderr
			out.stderr.live = liveErr
			notes = out.stderr.notes()
		}
	}
	return out, stdout, stderr, notes
}

// serialWriters returns the caller's writers (nil stays nil) made to
// take the script's writes one at a time, as a process's descriptors
// would: a pipeline's elements (their set -x lines, builtins' messages)
// and a limit's message from the memory guard write from goroutines of
// their own, and a bytes.Buffer is not safe for that. A lock for each,
// one for both when they are one writer (a write that blocks on stdout
// does not hold up a message to stderr).
func serialWriters(stdout, stderr io.Writer) (io.Writer, io.Writer) {
	outMu, errMu := new(sync.Mutex), new(sync.Mutex)
	if sameWriter(stdout, stderr) {
		errMu = outMu
	}
	if stdout != nil {
		stdout = &serialWriter{mu: outMu, w: stdout}
	}
	if stderr != nil {
		stderr = &serialWriter{mu: errMu, w: stderr}
	}
	return stdout, stderr
}

// sameWriter reports whether a and b are the same writer (never
// comparing values of a type that cannot be compared).
func sameWriter(a, b io.Writer) bool {
	if a == nil || b == nil {
		return false
	}
	t := reflect.TypeOf(a)
	return t == reflect.TypeOf(b) && t.Comparable() && a == b
}

// serialWriter writes to w under mu, one write at a time.
type serialWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (sw *serialWriter) Write(p []byte) (int, error) {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	return sw.w.Write(p)
}

// Fd is w's descriptor (a terminal, for builtins that lay out or colour
// for one), ^uintptr(0) when it has none.
func (sw *serialWriter) Fd() uintptr { return fdOf(sw.w) }

// onStop calls f (when not nil) if runCtx ends for a limit or vfsd's end;
// the function it returns waits for f to have returned.
func onStop(runCtx context.Context, f func(error)) (stopped func()) {
	if f == nil {
		return func() {}
	}
	told := make(chan struct{})
	stop := context.AfterFunc(runCtx, func() {
		defer close(told)
		switch c := context.Cause(runCtx); {
		case errors.Is(c, ErrTimedOut), errors.Is(c, ErrOutputLimit), errors.Is(c, ErrMemoryLimit), errors.Is(c, ErrVfsdGone):
			f(c)
		}
	})
	return func() {
		if !stop() {
			<-told // OnStop has returned before the Run does
		}
	}
}

// execute runs pre, then script unless pre failed; it returns the status.
func (s *Session) execute(runCtx context.Context, script, pre string, ro RunOptions, errw io.Writer, res *Result) int {
	var status int
	run := true
	if pre != "" {
		// As if typed first; $? stays the last script's.
		last := s.sh.LastStatus()
		st, _ := s.sh.RunInteractive(runCtx, pre)
		if run = st == 0 && runCtx.Err() == nil; run {
			s.sh.SetLastStatus(last)
		} else {
			status = st
		}
	}
	switch {
	case !run:
	case ro.Script || ro.ScriptFromStdin:
		if s.opts.Command {
			s.sh.SetExecutionString(script)
		}
		if ro.ScriptFromStdin {
			status = s.sh.RunInput(runCtx, ro.Stdin, s.sh.Name())
		} else {
			status = s.sh.Run(runCtx, script, s.sh.Name())
		}
		res.HungUp = s.sh.HungUp()
		if s.opts.Verbose {
			// The jobs still running when the script ended were
			// stopped with it (as a terminal's hang-up stops them).
			for _, job := range res.HungUp {
				fmt.Fprintf(errw, "llmsh: stopped at the end of the script: %s\n", job)
			}
		}
	default:
		var perr error
		status, perr = s.sh.RunInteractive(runCtx, script)
		res.HungUp = s.sh.EndJobs()
		var syn syntax.ParseError
		switch {
		case errors.As(perr, &syn):
			// In bash's words, as bash reading a script on its stdin says
			// them (the whole lines before the error have run).
			line, msgs := interp.SyntaxError(syn, script)
			for _, m := range msgs {
				l, m := interp.MsgLine(line, m)
				fmt.Fprintf(errw, "llmsh: line %d: %s\n", l, m)
			}
		case perr != nil:
			fmt.Fprintf(errw, "llmsh: %v\n", perr)
		}
	}
	return status
}

// virtuals lists the session's virtual files in res; an error when vfsd
// is gone.
func (s *Session) virtuals(res *Result) error {
	vl, err := s.proc.Client.VirtualListing()
	switch {
	case errors.Is(err, vfsclient.ErrServerGone):
		// vfsd died as the script ended: its last writes may be lost.
		return fmt.Errorf("%w: %v (Reset starts a new session)", ErrVfsdGone, err)
	case err != nil:
		res.VirtualFilesErr = err
	default:
		for _, v := range vl.Files {
			res.VirtualFiles = append(res.VirtualFiles, v.Path)
		}
		res.VirtualFilesOmitted = vl.Omitted
	}
	return nil
}

// VirtualFiles lists the session's virtual files (as Result.VirtualFiles
// and VirtualFilesOmitted do after a Run). It waits for a Run in progress.
func (s *Session) VirtualFiles() (names []string, omitted int64, err error) {
	if err := s.lock(context.Background()); err != nil {
		return nil, 0, err
	}
	defer s.unlock()
	switch {
	case s.closed:
		return nil, 0, ErrClosed
	case s.opts.Isolated:
		if s.iso == nil {
			return nil, 0, fmt.Errorf("%w (Reset starts a new session)", ErrCrashed)
		}
		r := s.iso.call(workerReq{Op: "virtual"})
		if r.Kind != "" {
			return nil, 0, r.err()
		}
		return r.Result.VirtualFiles, r.Result.VirtualFilesOmitted, nil
	case s.proc == nil:
		return nil, 0, fmt.Errorf("%w (Reset starts a new session)", ErrVfsdGone)
	}
	c := s.proc.Client
	if len(s.opts.VfsdFDs) != 2 && !c.Changed() {
		return nil, 0, nil // never asked to write: none
	}
	vl, err := c.VirtualListing()
	if errors.Is(err, vfsclient.ErrServerGone) {
		return nil, 0, fmt.Errorf("%w: %v (Reset starts a new session)", ErrVfsdGone, err)
	}
	if err != nil {
		return nil, 0, err
	}
	for _, v := range vl.Files {
		names = append(names, v.Path)
	}
	return names, vl.Omitted, nil
}

// Kill ends the session's processes (vfsd, an isolated session's own
// process) at once, without waiting for a Run in progress: for a program
// about to exit because a Run does not stop. The session is then of no
// use but to Close.
func (s *Session) Kill() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.vfs != nil {
		s.vfs.Close()
	}
	if s.isoLive != nil {
		s.isoLive.w.Kill()
	}
}

// cancelWith makes cancel what Close calls to stop the Run in progress,
// until the returned function is called.
func (s *Session) cancelWith(cancel context.CancelFunc) func() {
	s.mu.Lock()
	s.cancel = cancel
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		s.cancel = nil
		s.mu.Unlock()
	}
}

// client is the current vfsd's client.
func (s *Session) client() (*vfsclient.Client, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.vfs == nil {
		return nil, ErrClosed
	}
	return s.vfs, nil
}

// abs resolves name against Options.Dir.
func (s *Session) abs(name string) string {
	if filepath.IsAbs(name) {
		return filepath.Clean(name)
	}
	return filepath.Join(s.dir, name)
}

// ReadFile reads the named file as the session's scripts see it, through
// its vfsd: a file under the grants or a virtual file. A relative name
// resolves against Options.Dir. It may be called while a Run is in
// progress.
func (s *Session) ReadFile(name string) ([]byte, error) {
	return s.ReadFileMax(name, -1)
}

// ReadFileMax reads the named file as ReadFile does, but no more than max
// bytes of it (max < 0: no bound): a longer file is an *fs.PathError whose
// Err is syscall.EFBIG, and no more than max+1 of its bytes were read.
// A caller that hands a file's bytes to another program (an MCP client's
// resources/read) bounds them so: a file the script wrote may be as big
// as the write budget.
func (s *Session) ReadFileMax(name string, max int64) ([]byte, error) {
	if s.opts.Isolated {
		r, err := s.isoFile(workerReq{Op: "readfile", Name: s.abs(name), Max: max})
		return r.Data, err
	}
	c, err := s.client()
	if err != nil {
		return nil, err
	}
	f, err := c.Open(s.abs(name))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if max < 0 {
		return io.ReadAll(f)
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(b)) > max {
		return nil, &fs.PathError{Op: "read", Path: s.abs(name), Err: syscall.EFBIG}
	}
	return b, err
}

// ReadDir lists the named directory as the session's scripts see it,
// sorted by name. A symbolic link is an entry of type fs.ModeSymlink, as
// os.ReadDir reports it; vfsclient.LinkTarget tells what it leads to.
func (s *Session) ReadDir(name string) ([]fs.DirEntry, error) {
	if s.opts.Isolated {
		r, err := s.isoFile(workerReq{Op: "readdir", Name: s.abs(name)})
		if err != nil {
			return nil, err
		}
		ents := make([]fs.DirEntry, len(r.Infos))
		for i := range r.Infos {
			ents[i] = fs.FileInfoToDirEntry(&r.Infos[i])
		}
		return ents, nil
	}
	c, err := s.client()
	if err != nil {
		return nil, err
	}
	return c.ReadDir(s.abs(name))
}

// Stat describes the named file as the session's scripts see it.
func (s *Session) Stat(name string) (fs.FileInfo, error) {
	if s.opts.Isolated {
		r, err := s.isoFile(workerReq{Op: "stat", Name: s.abs(name)})
		if err != nil {
			return nil, err
		}
		if len(r.Infos) != 1 {
			return nil, &fs.PathError{Op: "stat", Path: name, Err: errors.New("no answer")}
		}
		return &r.Infos[0], nil
	}
	c, err := s.client()
	if err != nil {
		return nil, err
	}
	return c.Stat(s.abs(name))
}

// Dir is the session's initial working directory, absolute.
func (s *Session) Dir() string { return s.dir }

// tailWriter passes vfsd's stderr on and keeps its first bytes: the
// reason of a refused grant. A line where vfsd refuses one of llmsh's
// own options (-i, -o, --log) is said by llmsh: "llmsh: -i 'x': No such
// file or directory", as the user typed those options to llmsh (session
// 31 left "vfsd: -i 'x': ..." on the command line).
type tailWriter struct {
	w       io.Writer
	mu      sync.Mutex
	buf     []byte
	midLine bool // the last write did not end a line
}

func (t *tailWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	if n := 4096 - len(t.buf); n > 0 {
		t.buf = append(t.buf, p[:min(n, len(p))]...)
	}
	out := p
	if !t.midLine {
		if rest, ok := grantLine(string(p)); ok {
			out = []byte("llmsh: " + rest)
		}
	}
	t.midLine = len(p) > 0 && p[len(p)-1] != '\n' || len(p) == 0 && t.midLine
	t.mu.Unlock()
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// grantLine reports whether line is vfsd refusing an option of llmsh
// ("vfsd: -i 'x': ..."), and gives it without vfsd's name.
func grantLine(line string) (string, bool) {
	rest, ok := strings.CutPrefix(line, "vfsd: ")
	if !ok || !strings.HasPrefix(rest, "-") {
		return line, false
	}
	return rest, true
}

// text is what vfsd said, on one line, without vfsd's name before a
// refused option.
func (t *tailWriter) text() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	msg := strings.TrimSpace(string(t.buf))
	if msg == "" {
		return "vfsd exited with status 2"
	}
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		lines[i], _ = grantLine(l)
	}
	return strings.Join(lines, "; ")
}

// stdinPipe gives the shell its standard input as the read end of a pipe
// fed from r (the interpreter wants an *os.File). Closing it after the Run
// stops the copy.
func stdinPipe(r io.Reader) (*os.File, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	if r == nil {
		pw.Close()
		return pr, nil
	}
	go func() {
		io.Copy(pw, r)
		pw.Close()
	}()
	return pr, nil
}

// Reset starts the session over: a fresh shell and a fresh vfsd, with the
// same options; the virtual files are gone. It waits for a Run in
// progress.
func (s *Session) Reset() error {
	if err := s.lock(context.Background()); err != nil {
		return err
	}
	defer s.unlock()
	if s.closed {
		return ErrClosed
	}
	s.stop()
	return s.start()
}

// Close ends the session: a Run in progress is cancelled, vfsd exits and
// the virtual files are discarded. Closing twice is harmless.
func (s *Session) Close() error {
	s.mu.Lock()
	if s.cancel != nil {
		s.cancel()
	}
	s.mu.Unlock()
	if err := s.lock(context.Background()); err != nil {
		return err
	}
	defer s.unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	if s.stopGuard != nil {
		s.stopGuard()
	}
	return s.stop()
}
