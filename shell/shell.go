// Package shell is llmsh's runner: mvdan.cc/sh/v3's interpreter with every
// command a builtin, every file operation through vfsd, no host
// environment, and limits on time, output, commands and memory.
package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/llmsh/llmsh/builtins"
	"github.com/llmsh/llmsh/vfsclient"
)

// Limits bound a run. Zero values mean the defaults below.
type Limits struct {
	MaxCommands   int64 // simple commands run, in all
	MaxGoFrames   int   // interpreter stack depth (bounds function recursion)
	MaxScriptSize int   // bytes of script text
	MaxNesting    int   // bracket nesting of the script text
}

// Default limits: generous enough that real scripts never meet them.
const (
	DefaultMaxCommands   = 50_000_000
	DefaultMaxGoFrames   = 100_000
	DefaultMaxScriptSize = 16 << 20
	DefaultMaxNesting    = 1000
)

// Options configure a Shell.
type Options struct {
	Client *vfsclient.Client
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Dir    string   // the virtual working directory, absolute
	Name   string   // $0
	Args   []string // $1…
	Limits Limits
	// Vars are extra variables "NAME=value" set before the defaults are
	// overridden by nothing else (used by nested sh -c to inherit exports).
	Vars []string
}

// Shell runs scripts in one vfsd session.
type Shell struct {
	client   *vfsclient.Client
	opts     Options
	runner   *interp.Runner
	commands *atomic.Int64
}

// ErrLimit is returned (wrapped) when a limit stops a script.
var ErrLimit = errors.New("limit exceeded")

// Defaults are the only variables a script starts with.
func Defaults(dir string) []string {
	return []string{
		"HOME=/home/llmsh", "PWD=" + dir, "PATH=", "TMPDIR=/nonexistent-llmsh-tmp",
		"SHELL=llmsh", "USER=llmsh", "LOGNAME=llmsh", "LANG=C.UTF-8", "TERM=dumb",
	}
}

// New makes a shell; nothing runs until Run.
func New(opts Options) (*Shell, error) {
	if opts.Stdin == nil {
		opts.Stdin = strings.NewReader("")
	}
	if opts.Name == "" {
		opts.Name = "llmsh"
	}
	l := &opts.Limits
	if l.MaxCommands == 0 {
		l.MaxCommands = DefaultMaxCommands
	}
	if l.MaxGoFrames == 0 {
		l.MaxGoFrames = DefaultMaxGoFrames
	}
	if l.MaxScriptSize == 0 {
		l.MaxScriptSize = DefaultMaxScriptSize
	}
	if l.MaxNesting == 0 {
		l.MaxNesting = DefaultMaxNesting
	}
	s := &Shell{client: opts.Client, opts: opts, commands: new(atomic.Int64)}
	env := append(Defaults(opts.Dir), opts.Vars...)
	r, err := interp.New(
		interp.Env(expand.ListEnviron(env...)),
		interp.Dir(opts.Dir),
		interp.StdIO(opts.Stdin, opts.Stdout, opts.Stderr),
		interp.Params(append([]string{"--"}, opts.Args...)...),
		interp.CallHandler(s.callHandler),
		interp.ExecHandlers(s.execMiddleware),
		interp.OpenHandler(s.openHandler),
		interp.StatHandler(s.statHandler),
		interp.ReadDirHandler2(s.readDirHandler),
		interp.AccessHandler(s.accessHandler),
	)
	if err != nil {
		return nil, err
	}
	s.runner = r
	return s, nil
}

var framePool = sync.Pool{New: func() any { return make([]uintptr, DefaultMaxGoFrames+1) }}

// callHandler sees every simple command: it enforces the command-count and
// depth limits and refuses what would touch the host.
func (s *Shell) callHandler(ctx context.Context, args []string) ([]string, error) {
	if n := s.commands.Add(1); n > s.opts.Limits.MaxCommands {
		return nil, fmt.Errorf("%w: more than %d commands", ErrLimit, s.opts.Limits.MaxCommands)
	}
	buf := framePool.Get().([]uintptr)
	max := min(s.opts.Limits.MaxGoFrames, len(buf)-1)
	n := runtime.Callers(0, buf[:max+1])
	framePool.Put(buf)
	if n > max {
		return nil, fmt.Errorf("%w: maximum call depth exceeded", ErrLimit)
	}
	if len(args) > 0 {
		switch args[0] {
		case "pwd":
			for _, a := range args[1:] {
				if a == "-P" {
					// Symlinks are not exposed: -P is the logical path.
					return []string{"pwd"}, nil
				}
			}
		case "read":
			for _, a := range args[1:] {
				if a == "-s" || (strings.HasPrefix(a, "-") && strings.Contains(a, "s") && !strings.HasPrefix(a, "--")) {
					hc := interp.HandlerCtx(ctx)
					fmt.Fprintln(hc.Stderr, "llmsh: read: -s is not supported (no terminal control)")
					return []string{"false"}, nil
				}
			}
		}
	}
	return args, nil
}

// execMiddleware runs builtins; it never calls next, so no host program
// can ever be executed.
func (s *Shell) execMiddleware(next interp.ExecHandlerFunc) interp.ExecHandlerFunc {
	return func(ctx context.Context, args []string) error {
		hc := interp.HandlerCtx(ctx)
		st := s.exec(ctx, args, hc.Stdin, hc.Stdout, hc.Stderr, hc.Dir, exported(hc.Env))
		if st != 0 {
			return interp.ExitStatus(uint8(st))
		}
		return nil
	}
}

func exported(env expand.Environ) []string {
	var out []string
	env.Each(func(name string, vr expand.Variable) bool {
		if vr.Exported && vr.IsSet() {
			out = append(out, name+"="+vr.String())
		}
		return true
	})
	sort.Strings(out)
	return out
}

// exec runs one command in-process and returns its status.
func (s *Shell) exec(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, dir string, environ []string) int {
	name := args[0]
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	if strings.Contains(name, "/") {
		fmt.Fprintf(stderr, "llmsh: %s: command not found\n", name)
		return 127
	}
	switch name {
	case "sh", "bash", "llmsh":
		return s.nested(ctx, args, stdin, stdout, stderr, dir, environ)
	}
	b, ok := builtins.Lookup(name)
	if !ok {
		fmt.Fprintf(stderr, "llmsh: %s: command not found\n", name)
		return 127
	}
	env := &builtins.Env{
		Ctx: ctx, Args: args, Stdin: stdin, Stdout: stdout, Stderr: stderr,
		FS: clientFS{s.client}, Dir: dir, Environ: environ,
	}
	env.Exec = func(ctx context.Context, args []string, in io.Reader, out, errw io.Writer) int {
		return s.exec(ctx, args, in, out, errw, dir, environ)
	}
	return builtins.Run(b, env)
}

// nested runs `sh -c SCRIPT [NAME ARG...]` on a new runner in the same
// session, with the same command budget.
func (s *Shell) nested(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, dir string, environ []string) int {
	if len(args) < 3 || args[1] != "-c" {
		fmt.Fprintf(stderr, "llmsh: %s: only '%s -c SCRIPT [NAME [ARG...]]' is supported\n", args[0], args[0])
		return 2
	}
	o := s.opts
	o.Stdin, o.Stdout, o.Stderr, o.Dir, o.Vars = stdin, stdout, stderr, dir, environ
	o.Name, o.Args = args[0], nil
	if len(args) > 3 {
		o.Name, o.Args = args[3], args[4:]
	}
	sub, err := New(o)
	if err != nil {
		fmt.Fprintf(stderr, "llmsh: %v\n", err)
		return 2
	}
	sub.commands = s.commands
	return sub.Run(ctx, args[2], o.Name)
}

// Run parses and runs src and returns its exit status. Errors are printed
// on the shell's stderr in llmsh's words.
func (s *Shell) Run(ctx context.Context, src, name string) int {
	if err := precheck(src, s.opts.Limits); err != nil {
		fmt.Fprintf(s.opts.Stderr, "llmsh: %v\n", err)
		return 2
	}
	file, err := syntax.NewParser().Parse(strings.NewReader(src), name)
	if err != nil {
		fmt.Fprintf(s.opts.Stderr, "llmsh: %v\n", err)
		return 2
	}
	if err := refuse(file); err != nil {
		fmt.Fprintf(s.opts.Stderr, "llmsh: %v\n", err)
		return 2
	}
	return s.RunFile(ctx, file)
}

// RunFile runs a parsed script.
func (s *Shell) RunFile(ctx context.Context, file *syntax.File) int {
	err := s.runner.Run(ctx, file)
	return s.status(ctx, err)
}

func (s *Shell) status(ctx context.Context, err error) int {
	var es interp.ExitStatus
	switch {
	case err == nil:
		return 0
	case errors.As(err, &es):
		return int(es)
	case errors.Is(err, ErrLimit):
		fmt.Fprintf(s.opts.Stderr, "llmsh: %v\n", err)
		return 125
	case ctx.Err() != nil:
		return 124
	}
	fmt.Fprintf(s.opts.Stderr, "llmsh: %v\n", err)
	return 1
}

// Exited reports whether the script ran exit.
func (s *Shell) Exited() bool { return s.runner.Exited() }

// precheck bounds the script's size and bracket nesting before the parser
// runs: Go's stack overflow cannot be recovered.
func precheck(src string, l Limits) error {
	if len(src) > l.MaxScriptSize {
		return fmt.Errorf("script too large (%d bytes; the limit is %d)", len(src), l.MaxScriptSize)
	}
	depth := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '(', '{', '[':
			depth++
			if depth > l.MaxNesting {
				return fmt.Errorf("script nested too deeply (more than %d levels)", l.MaxNesting)
			}
		case ')', '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	return nil
}

// refuse rejects constructs that cannot be run without the host:
// process substitution would create FIFOs in a host directory.
func refuse(file *syntax.File) error {
	var err error
	syntax.Walk(file, func(n syntax.Node) bool {
		if _, ok := n.(*syntax.ProcSubst); ok && err == nil {
			err = errors.New("process substitution is not supported")
		}
		return err == nil
	})
	return err
}

// Incomplete reports whether src ends inside an unfinished construct (an
// open quote, a loop without done, a here-doc, a trailing pipe).
func Incomplete(src string) bool {
	_, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	return err != nil && syntax.IsIncomplete(err)
}
