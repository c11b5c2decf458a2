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
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/llmsh/llmsh/internal/vfsdproc"
	"github.com/llmsh/llmsh/shell"
	"github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
	"github.com/llmsh/llmsh/vfsclient"
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
	// MaxMemory bounds the heap of an isolated session's process: a Run
	// that takes it past the limit is stopped with status 125 and
	// "llmsh: memory limit exceeded (…)" on its stderr, and the session
	// goes on. Zero: DefaultMaxMemory. It does not apply to a session
	// that is not Isolated.
	MaxMemory int64
}

// Limits bound a Run: commands run, call depth, script size and nesting,
// concurrent jobs. Zero fields take the defaults of package shell.
type Limits = shell.Limits

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

	iso *isoProc // the worker of an Isolated session (under sem)

	mu      sync.Mutex
	cancel  context.CancelFunc // of the Run in progress
	vfs     *vfsclient.Client  // the current vfsd's client, for ReadFile
	isoLive *isoProc           // iso, for ReadFile
}

// New starts a session: its vfsd, with the allowlists of opts, and a
// shell. Close it to end vfsd and discard the virtual files.
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
	s := &Session{opts: opts, dir: dir, sem: make(chan struct{}, 1)}
	if err := s.start(); err != nil {
		return nil, err
	}
	return s, nil
}

// start starts vfsd and a fresh shell (in a worker when Isolated); it
// holds sem or is New.
func (s *Session) start() error {
	if s.opts.Isolated {
		p, err := startIsolated(s.opts, s.dir)
		if err != nil {
			return err
		}
		s.iso = p
		s.mu.Lock()
		s.isoLive = p
		s.mu.Unlock()
		return nil
	}
	p, err := vfsdproc.Start(vfsdproc.Config{
		Path: s.opts.VfsdPath, Inputs: s.opts.Inputs, Outputs: s.opts.Outputs,
		Strict: s.opts.Strict, Log: s.opts.VfsdLog, MaxVirtualBytes: s.opts.MaxVirtualBytes,
		Dir: s.dir, Stderr: os.Stderr,
	})
	if err != nil {
		return fmt.Errorf("llmsh: %w", err)
	}
	if _, err := p.Client.Hello(); err != nil {
		p.Close()
		return fmt.Errorf("llmsh: vfsd did not answer: %w", err)
	}
	s.stdout.set(nil)
	s.stderr.set(nil)
	sh, err := shell.New(shell.Options{
		Client: p.Client, Stdout: &s.stdout, Stderr: &s.stderr, Dir: s.dir, Limits: s.opts.Limits,
	})
	if err != nil {
		p.Close()
		return fmt.Errorf("llmsh: %w", err)
	}
	sh.RouteBuiltins("help", "history")
	s.proc, s.sh = p, sh
	s.mu.Lock()
	s.vfs = p.Client
	s.mu.Unlock()
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
	err := s.proc.Close()
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
// for none), and returns its output and status. Variables, functions,
// the working directory and virtual files carry over to the next Run.
// Background jobs end with the Run (collect them with wait). stdin is
// copied to the script by a goroutine until its end or the end of the Run;
// a reader that blocks keeps that goroutine until it returns.
//
// The error is nil whenever the script ran, whatever its status; it is
// ErrClosed, a wrapped ErrVfsdGone, or ctx's error when ctx ended the Run
// (the Result then holds the output so far). A Run that Options.Timeout or
// a limit stopped does not end the session: the next Run works.
func (s *Session) Run(ctx context.Context, script string, stdin io.Reader) (Result, error) {
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
		// The worker's session applies Timeout and the limits; Close
		// cancels through s.cancel.
		runCtx, cancel := context.WithCancel(ctx)
		defer cancel()
		defer s.cancelWith(cancel)()
		res, err := s.runIsolated(runCtx, script, stdin)
		if errors.Is(err, context.Canceled) && ctx.Err() == nil {
			err = nil // Close cancelled it: as an in-process Run, the output so far
		}
		return res, err
	}
	if s.sh == nil {
		return Result{}, fmt.Errorf("%w (Reset starts a new session)", ErrVfsdGone)
	}
	client := s.proc.Client
	if err := client.Err(); err != nil {
		return Result{}, fmt.Errorf("%w: %v (Reset starts a new session)", ErrVfsdGone, err)
	}
	start := time.Now()
	runCtx, cancel := context.WithCancel(ctx)
	if s.opts.Timeout > 0 {
		runCtx, cancel = context.WithTimeout(ctx, s.opts.Timeout)
	}
	defer cancel()
	defer s.cancelWith(cancel)()

	out := newCapture(s.opts.MaxOutput, cancel)
	out.stdout.live, out.stderr.live = liveWriters(ctx)
	s.stdout.set(&out.stdout)
	s.stderr.set(&out.stderr)
	defer s.stdout.set(nil)
	defer s.stderr.set(nil)

	in, err := stdinPipe(stdin)
	if err != nil {
		return Result{}, fmt.Errorf("llmsh: %w", err)
	}
	defer in.Close()
	if err := s.sh.SetStdin(in); err != nil {
		return Result{}, fmt.Errorf("llmsh: %w", err)
	}

	gone := make(chan struct{})
	go func() {
		select {
		case <-client.Done():
			close(gone)
			cancel()
		case <-runCtx.Done():
		}
	}()
	status, perr := s.sh.RunInteractive(runCtx, script)
	var syn syntax.ParseError
	switch {
	case errors.As(perr, &syn):
		// In bash's words, as bash reading a script on its stdin says
		// them (the whole lines before the error have run).
		line, msgs := interp.SyntaxError(syn, script)
		for _, m := range msgs {
			fmt.Fprintf(&out.stderr, "llmsh: line %d: %s\n", line, m)
		}
	case perr != nil:
		fmt.Fprintf(&out.stderr, "llmsh: %v\n", perr)
	}
	timedOut := errors.Is(runCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil
	cancel() // background jobs end with the Run
	var runErr error
	select {
	case <-gone:
		runErr = fmt.Errorf("%w: %v (Reset starts a new session)", ErrVfsdGone, client.Err())
	default:
	}
	switch {
	case runErr != nil:
	case out.truncated():
		status = 125
		out.note(fmt.Sprintf("llmsh: output limit exceeded (%d bytes)\n", s.opts.MaxOutput))
	case timedOut:
		status = 124
		out.note(fmt.Sprintf("llmsh: timed out after %s\n", s.opts.Timeout))
	case ctx.Err() != nil:
		runErr = ctx.Err()
	}
	res := out.result()
	res.ExitCode = status
	res.Duration = time.Since(start)
	if runErr == nil {
		if vl, err := client.VirtualListing(); err == nil {
			for _, v := range vl.Files {
				res.VirtualFiles = append(res.VirtualFiles, v.Path)
			}
			res.VirtualFilesOmitted = vl.Omitted
		}
	}
	return res, runErr
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
	if s.opts.Isolated {
		r, err := s.isoFile("readfile", s.abs(name))
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
	return io.ReadAll(f)
}

// ReadDir lists the named directory as the session's scripts see it,
// sorted by name. A symbolic link is an entry of type fs.ModeSymlink, as
// os.ReadDir reports it; vfsclient.LinkTarget tells what it leads to.
func (s *Session) ReadDir(name string) ([]fs.DirEntry, error) {
	if s.opts.Isolated {
		r, err := s.isoFile("readdir", s.abs(name))
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
		r, err := s.isoFile("stat", s.abs(name))
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
	return s.stop()
}

// capture collects one Run's stdout and stderr under a shared byte budget.
type capture struct {
	mu             sync.Mutex
	stdout, stderr half
	all            bytes.Buffer // both, in the order written
	left           int64        // bytes still allowed; -1 for no cap
	cut            bool
	cancel         func()
}

// half is one of capture's two streams.
type half struct {
	c    *capture
	buf  bytes.Buffer
	live io.Writer // also gets what is kept, as it is written (RunStream)
}

func (h *half) Write(p []byte) (int, error) {
	c := h.c
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.left < 0 {
		c.all.Write(p)
		h.tee(p)
		return h.buf.Write(p)
	}
	if int64(len(p)) <= c.left {
		c.left -= int64(len(p))
		c.all.Write(p)
		h.tee(p)
		return h.buf.Write(p)
	}
	c.all.Write(p[:c.left])
	h.tee(p[:c.left])
	h.buf.Write(p[:c.left])
	c.left = 0
	if !c.cut {
		c.cut = true
		c.cancel()
	}
	return 0, errors.New("output limit exceeded")
}

func newCapture(max int64, cancel func()) *capture {
	c := &capture{left: max, cancel: cancel}
	if max <= 0 {
		c.left = -1
	}
	c.stdout.c, c.stderr.c = c, c
	return c
}

func (c *capture) truncated() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cut
}

// note appends llmsh's own message to stderr, outside the budget.
func (c *capture) note(msg string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, b := range []*bytes.Buffer{&c.stderr.buf, &c.all} {
		if b.Len() > 0 && b.Bytes()[b.Len()-1] != '\n' {
			b.WriteByte('\n') // on a line of its own, not glued to a cut line
		}
		b.WriteString(msg)
	}
}

func (c *capture) result() Result {
	c.mu.Lock()
	defer c.mu.Unlock()
	return Result{Stdout: c.stdout.buf.String(), Stderr: c.stderr.buf.String(), Output: c.all.String(), Truncated: c.cut}
}

// stream is the shell's stdout or stderr: the current Run's capture, or
// nowhere between Runs.
type stream struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *stream) set(h *half) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h == nil {
		s.w = nil
		return
	}
	s.w = h
}

func (s *stream) Write(p []byte) (int, error) {
	s.mu.Lock()
	w := s.w
	s.mu.Unlock()
	if w == nil {
		return len(p), nil
	}
	return w.Write(p)
}
