// Package vfsdproc runs llmsh's child processes: vfsd over a pipe pair,
// for the llmsh command and for the llmsh library, and the worker process
// of an isolated session (worker.go). It is the only place in llmsh that
// uses os/exec.
//
// vfsd is either a separate binary (cmd/vfsd) or the running executable
// itself in server mode: a program that calls Serve first thing in main
// (llmsh does) can be re-executed with ServerModeArg and then acts as vfsd.
package vfsdproc

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/llmsh/llmsh/internal/earlyvfsd"
	"github.com/llmsh/llmsh/internal/vfsdmode"
	"github.com/llmsh/llmsh/vfsclient"
)

// ServerModeArg, as the first argument, makes a program that calls Serve
// act as vfsd.
const ServerModeArg = earlyvfsd.ServerModeArg

// selfServes records that this executable calls Serve, so re-executing it
// in server mode starts vfsd rather than the embedder's own main.
var selfServes atomic.Bool

// Serve makes this executable usable as vfsd. When the first argument is
// ServerModeArg it serves one client on stdin/stdout and exits the process
// with vfsd's status (with WorkerModeArg it runs WorkerMain and exits);
// otherwise it returns at once, and Start may from now
// on re-execute this executable in server mode. Call it first in main (and
// in TestMain).
func Serve() {
	selfServes.Store(true)
	serveWorker()
	vfsdmode.Serve()
}

// ErrNoServer is returned by Start when there is no vfsd to start: no
// Path, and this executable never called Serve.
var ErrNoServer = errors.New("no vfsd to start: give the path of a vfsd (or llmsh) binary, or call llmsh.MaybeServeVfsd first in main")

// DefaultMaxWrite is the write budget of the llmsh command and of a
// Session that sets none.
const DefaultMaxWrite = earlyvfsd.DefaultMaxWrite

// Config says which vfsd to start and with which allowlists.
type Config struct {
	// Path is a vfsd binary (cmd/vfsd). Empty: this executable in server
	// mode, which needs Serve.
	Path string
	// Inputs are readable paths, Outputs writable ones; relative paths
	// resolve against Dir.
	Inputs, Outputs []string
	// Strict refuses writes outside the allowlists instead of making
	// virtual files.
	Strict bool
	// Log is vfsd's request log file, if any.
	Log string
	// MaxVirtualBytes bounds the virtual files' total size; zero is
	// vfsd's default.
	MaxVirtualBytes int64
	// MaxWriteBytes is the write budget: the most bytes the session may
	// add to files under Outputs; zero is none.
	MaxWriteBytes int64
	// Hidden are files vfsd never opens, by any name (the REPL's history).
	Hidden []string
	// Dir is vfsd's working directory; empty is the caller's.
	Dir string
	// Stderr receives vfsd's own messages; nil discards them.
	Stderr io.Writer
}

// Args is vfsd's command line for the allowlists and options of c.
func (c Config) Args() []string {
	return earlyvfsd.Argv(c.Inputs, c.Outputs, c.Strict, c.Log, c.Hidden, c.MaxVirtualBytes, c.MaxWriteBytes)
}

// Proc is a running vfsd and its client.
type Proc struct {
	Client *vfsclient.Client
	cmd    *exec.Cmd
	pid    int           // a vfsd started early (earlyvfsd), instead of cmd
	errEOF chan struct{} // closed when the early vfsd's stderr is passed on
	shm    []byte        // the read_shm region shared with vfsd, if any
}

// Start starts vfsd over a pipe pair with an empty environment. Where
// the kernel has sealed memory files it also shares a read_shm region
// with vfsd (--shm-fd), which the client uses once Hello negotiates it.
func Start(c Config) (*Proc, error) {
	prog, argv := c.Path, c.Args()
	if prog == "" {
		if !selfServes.Load() {
			return nil, ErrNoServer
		}
		self, err := os.Executable()
		if err != nil {
			return nil, err
		}
		// llmsh's main may have started this very vfsd already.
		if e := earlyvfsd.Take(argv, c.Dir); e != nil {
			return takeEarly(e, c.Stderr), nil
		}
		prog, argv = self, append([]string{ServerModeArg}, argv...)
	}
	cmd := exec.Command(prog, argv...)
	cmd.Env = earlyvfsd.VfsdEnv()
	cmd.SysProcAttr = earlyvfsd.VfsdAttr()
	cmd.Dir = c.Dir
	cmd.Stderr = c.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	shmFile, shm := earlyvfsd.NewShm()
	if shmFile != nil {
		cmd.ExtraFiles = []*os.File{shmFile} // descriptor 3 in vfsd
		cmd.Args = append(cmd.Args, "--shm-fd", "3")
	}
	err = cmd.Start()
	if shmFile != nil {
		shmFile.Close() // vfsd has its own; the mapping stays
	}
	if err != nil {
		if shm != nil {
			earlyvfsd.UnmapShm(shm)
		}
		return nil, startError{prog, err}
	}
	p := &Proc{Client: vfsclient.New(out, in), cmd: cmd, shm: shm}
	if shm != nil {
		p.Client.UseShm(shm)
	}
	return p, nil
}

// startError is a failed start of vfsd in GNU's words: "cannot start
// vfsd: PROG: No such file or directory", where exec says "fork/exec PROG:
// no such file or directory".
type startError struct {
	prog string
	err  error
}

func (e startError) Error() string {
	var errno syscall.Errno
	if !errors.As(e.err, &errno) || errno.Error() == "" {
		return "cannot start vfsd: " + e.err.Error()
	}
	t := errno.Error()
	return "cannot start vfsd: " + e.prog + ": " + strings.ToUpper(t[:1]) + t[1:]
}

func (e startError) Unwrap() error { return e.err }

// takeEarly makes a Proc of a vfsd started early, its stderr passed on to
// stderr (nil: discarded) as exec.Cmd passes on a writer's.
func takeEarly(e *earlyvfsd.Proc, stderr io.Writer) *Proc {
	if stderr == nil {
		stderr = io.Discard
	}
	p := &Proc{Client: vfsclient.New(e.R, e.W), pid: e.Pid, shm: e.Shm, errEOF: make(chan struct{})}
	go func() {
		io.Copy(stderr, e.Stderr)
		e.Stderr.Close()
		close(p.errEOF)
	}()
	if e.Shm != nil {
		p.Client.UseShm(e.Shm)
	}
	return p
}

// Attach uses a vfsd that a parent process runs, on inherited descriptors.
func Attach(rfd, wfd uintptr) *Proc {
	r := os.NewFile(rfd, "vfsd-r")
	w := os.NewFile(wfd, "vfsd-w")
	return &Proc{Client: vfsclient.New(r, w)}
}

// Close ends the session (vfsd sees end of file and drops its virtual
// files) and waits for a vfsd that Start started.
func (p *Proc) Close() error {
	err := p.Client.Close()
	if p.cmd != nil {
		if werr := p.cmd.Wait(); err == nil {
			err = werr
		}
	}
	if p.pid != 0 {
		if st := earlyvfsd.Wait(p.pid); st != 0 && err == nil {
			err = &ExitError{Status: st}
		}
		<-p.errEOF
		p.pid = 0
	}
	// vfsd is gone; the region is unmapped unless a reader still holds
	// a slot (then it stays, rather than fault under that reader).
	if p.shm != nil && p.Client.DetachShm() {
		earlyvfsd.UnmapShm(p.shm)
		p.shm = nil
	}
	return err
}

// Drop ends a vfsd that holds nothing of the session (never asked to
// change a file: vfsclient's Changed is false): it is killed rather than
// told, and waited for, so that nothing is left of it; its exit status
// then says nothing, and Drop returns none.
func (p *Proc) Drop() {
	switch {
	case p.cmd != nil && p.cmd.Process != nil:
		p.cmd.Process.Kill()
	case p.pid != 0:
		syscall.Kill(p.pid, syscall.SIGKILL)
	}
	p.Close()
}

// Refused reports whether err, returned by Close, says that vfsd refused
// its arguments (a grant it cannot serve): it exits with status 2 after
// saying why on its stderr.
func Refused(err error) bool {
	var ee *exec.ExitError
	var ours *ExitError
	return errors.As(err, &ee) && ee.ExitCode() == 2 || errors.As(err, &ours) && ours.Status == 2
}

// ExitError is Close's error for a vfsd started early that did not exit
// with status 0 (exec.ExitError for the others).
type ExitError struct {
	Status int // the exit status, 128+N for signal N, -1 if unknown
}

func (e *ExitError) Error() string { return "vfsd: exit status " + strconv.Itoa(e.Status) }
