package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/llmsh/llmsh/builtins"
	"github.com/llmsh/llmsh/third_party/sh/interp"
)

// framesPerRound bounds the Go frames that one round of a script naming
// itself as its interpreter adds: runPath, run, the builtin of its #!
// line (env, timeout, …) and run again, about 10. (A round through a
// nested shell adds more, and passes call's checks of the interpreter's
// commands too.)
const framesPerRound = 64

// pathRounds schedules runPath's walks of the stack: a script that names
// itself as its interpreter (#!/usr/bin/env alone) nests one round
// deeper each time, past the interpreter's checks of its commands, and
// walking the stack each round cost its depth each time: 2.3 s of a 3.4 s
// run to the limit (session 26, perf). A stack d frames deep cannot pass
// the limit within (limit-d)/framesPerRound rounds, so it is walked again
// after half of those (a round of up to framesPerRound frames then stays
// under the limit), and after 256 rounds at most, as call's schedule
// (rounds are counted across a session's goroutines: a job measured last
// may have been shallower).
type pathRounds struct {
	rounds, next atomic.Int64
}

func (p *pathRounds) reset() {
	p.rounds.Store(0)
	p.next.Store(0)
}

// check counts a round and walks the stack when it is due.
func (p *pathRounds) check(ctx context.Context, s *Shell) error {
	n := p.rounds.Add(1)
	if n < p.next.Load() {
		return nil
	}
	depth, limit, err := s.checkDepth(ctx)
	if err != nil {
		return err
	}
	p.next.Store(n + int64(min(max(1, (limit-depth)/(2*framesPerRound)), 256)))
	return nil
}

// runPath runs a command named by a path (./s.sh, /tmp/x/run) as bash
// would exec it, without ever starting a host program: a directory or a
// file without an execute bit is 126, and an executable text file runs in-process as its
// "#!" line says when that names a shell (none, #!/bin/bash, #!/bin/sh,
// #!/usr/bin/env bash) or one of llmsh's commands (#!/usr/bin/awk -f).
// Another interpreter is 127, "required file not found", as bash 5.2 says
// of one the kernel cannot find; a binary (a host program llmsh never
// runs) is 126, "cannot execute binary file", as bash says of one the
// kernel cannot run; a path outside the grants is notFound.
func (s *Shell) runPath(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, dir string, environ []string) int {
	ctx, name, fail := pathFailer(ctx, args[0], dir, stderr)
	// A script may name itself as its interpreter's operand (#!/usr/bin/env
	// alone, #!/usr/bin/timeout 9): each round nests here, past the
	// interpreter's own checks, on this goroutine's stack or (timeout) on
	// a new goroutine, so it is bounded as a recursion or a fork bomb is.
	if err := s.checkGoroutines(); err != nil {
		return 1
	}
	if err := s.paths.check(ctx, s); err != nil {
		return 1
	}
	p := absPath(dir, name)
	if p == interp.VirtualBashPath {
		// $BASH -c …: the nested shell, as "#!/usr/bin/bash" runs it;
		// no host file is looked at.
		return s.nested(ctx, args, stdin, stdout, stderr, dir, environ)
	}
	if builtins.ProgramDir(p) && builtins.IsProgram(path.Base(p)) {
		// One of llmsh's programs by its virtual path (/usr/bin/cat).
		return s.run(ctx, append([]string{path.Base(p)}, args[1:]...), false, stdin, stdout, stderr, dir, environ)
	}
	info, err := s.client.Stat(p)
	if err != nil {
		// A host program's path outside the grants, or none: refused in
		// the words of every other name llmsh cannot run; but a
		// relative name that is not in a directory the script sees
		// (./nosuch, d/nosuch, "a b/c" with no a b) is bash's "No
		// such file or directory", one under a file (f/x) bash's "Not
		// a directory"; in a bin directory of the script's own
		// (./bin/run.sh) only when nothing is there, not even a link
		// to a host program (venv/bin/python).
		if !strings.HasPrefix(args[0], "/") {
			switch s.missingRelative(p, dir) {
			case missingNone:
				return fail(127, "No such file or directory", "")
			case missingNotDir:
				return fail(126, "Not a directory", "")
			}
		}
		return notFound
	}
	cannot := func(why string) int {
		return fail(126, why, "exec: "+commandText(name)+": cannot execute: "+why)
	}
	if info.IsDir() {
		return cannot("Is a directory")
	}
	if info.Mode().Perm()&0o111 == 0 {
		return cannot("Permission denied")
	}
	f, err := s.client.Open(p)
	if err != nil {
		return cannot(builtins.ErrText(err))
	}
	head := make([]byte, 256)
	n, _ := io.ReadFull(f, head)
	f.Close()
	head = head[:n]
	line, _, _ := strings.Cut(string(head), "\n")
	if !strings.HasPrefix(line, "#!") {
		if strings.IndexByte(string(head), 0) >= 0 {
			// A host program: never run.
			return fail(126, "cannot execute binary file: Exec format error", commandText(name)+": Success")
		}
		// bash runs a text file without "#!" as a script of its own.
		return s.nested(ctx, append([]string{"bash", name}, args[1:]...), stdin, stdout, stderr, dir, environ)
	}
	// As the kernel reads the line: the interpreter's path up to the first
	// blank, then everything after it, blanks at both ends trimmed, as ONE
	// argument (#!/usr/bin/env -S bash -e splits it in env; #!/usr/bin/env
	// bash -x names a program "bash -x", as env says).
	ipath, arg := strings.TrimLeft(line[2:], " \t"), ""
	if i := strings.IndexAny(ipath, " \t"); i >= 0 {
		ipath, arg = ipath[:i], strings.Trim(ipath[i+1:], " \t")
	}
	if ipath == "" {
		return s.nested(ctx, append([]string{"bash", name}, args[1:]...), stdin, stdout, stderr, dir, environ)
	}
	prog, opts := path.Base(ipath), []string{}
	if arg != "" {
		opts = append(opts, arg)
	}
	if prog == "env" && arg != "" && arg[0] != '-' && !strings.ContainsAny(arg, " \t") && !strings.Contains(arg, "=") {
		if _, ok := builtins.Lookup(arg); !ok && !isNestedShell(arg) {
			// #!/usr/bin/env python3: env says it finds no python3 (127).
			return s.run(ctx, append([]string{"env", arg, name}, args[1:]...), false, stdin, stdout, stderr, dir, environ)
		}
		prog, opts = arg, nil // #!/usr/bin/env bash: the program itself
	}
	cmd := append(append(append([]string{prog}, opts...), name), args[1:]...)
	if isNestedShell(prog) {
		return s.nested(ctx, cmd, stdin, stdout, stderr, dir, environ)
	}
	if _, ok := builtins.Lookup(prog); ok {
		return s.run(ctx, cmd, false, stdin, stdout, stderr, dir, environ)
	}
	return fail(127, "cannot execute: required file not found", "")
}

// What missingRelative finds of a command path that cannot be stat'ed.
const (
	missingUnknown = iota // maybe a host program: "command not found"
	missingNone           // nothing there
	missingNotDir         // a file where a directory should be
)

// missingRelative says why p, the path of a relative command name run in
// dir, cannot be stat'ed: from p's directory up, while it stays under
// dir, the first directory that exists decides: nothing of the next name
// there is missingNone (in a bin directory: not even a link, which may
// lead to a host program); a file there is missingNotDir.
func (s *Shell) missingRelative(p, dir string) int {
	child := p
	for a := path.Dir(p); ; child, a = a, path.Dir(a) {
		info, err := s.client.Stat(a)
		if err == nil {
			if !info.IsDir() {
				return missingNotDir
			}
			if !hostBinDir(a) {
				return missingNone
			}
			if _, err := s.client.Lstat(child); errors.Is(err, fs.ErrNotExist) && !builtins.ProgramDir(child) {
				return missingNone
			}
			return missingUnknown
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) || !strings.HasPrefix(a, dir+"/") {
			// A link out of the grants, or above the working
			// directory: maybe a host program's.
			return missingUnknown
		}
	}
}

// hostBinDir reports whether dir is named as a directory of programs
// (/usr/bin, /opt/x/sbin): a name there that cannot run is a host
// program, "command not found".
func hostBinDir(dir string) bool {
	b := path.Base(dir)
	return b == "bin" || b == "sbin"
}

// execToolKey is the context key of the GNU tool (env, xargs, timeout ...)
// that runs a command by its path: runPath says in that tool's words why
// the file cannot run.
type execToolKey struct{}

// execTool is the value of execToolKey: the tool's name, and where to
// note that the command could not be run.
type execTool struct {
	name   string
	failed *builtins.ExecFailure
}

// execErrno is the text of the errno execve(2) fails with where bash
// says msg: a directory is EACCES, the kernel runs no interpreter it
// cannot find (ENOENT) and no file it cannot load (ENOEXEC).
func execErrno(msg string) string {
	switch {
	case msg == "Is a directory":
		return "Permission denied"
	case strings.HasSuffix(msg, "required file not found"):
		return "No such file or directory"
	case strings.HasSuffix(msg, "Exec format error"):
		return "Exec format error"
	}
	return msg
}

// pathFailer prepares runPath's run of the file name: the context its
// commands run in, the name its messages give, and fail, which says why
// the file cannot run (in bash's words, or in those of the GNU tool that
// runs it) and returns st. exec says a second line, as bash's exec
// builtin does after execve failed (then errno is 0 for a binary:
// bash's "Success").
func pathFailer(ctx context.Context, name, dir string, stderr io.Writer) (context.Context, string, func(st int, msg, execMsg string) int) {
	prefix := "llmsh: "
	tool, _ := ctx.Value(execToolKey{}).(execTool)
	if tool.name != "" {
		// Run by a GNU tool (env, xargs, timeout ...): the tool says why
		// the file cannot run; what the file runs is the shell's again.
		ctx = context.WithValue(ctx, execToolKey{}, execTool{})
	}
	if r := currentRunner(ctx); r != nil {
		prefix = r.ShellErrPrefix()
	}
	exec := execing(ctx)
	if exec {
		// exec names the file by its full path, as bash's exec builtin
		// hands execve the path it looked up.
		name = absPath(dir, name)
	}
	fail := func(st int, msg, execMsg string) int {
		if tool.name != "" && toolExecFailed(stderr, tool.name, name, execErrno(msg)) {
			tool.failed.Set()
			return st
		}
		fmt.Fprintf(stderr, "%s%s: %s\n", prefix, commandText(name), msg)
		if exec && execMsg != "" {
			fmt.Fprintf(stderr, "%s%s\n", prefix, execMsg)
		}
		execFailed(ctx) // exec ./dir: a command exec cannot run
		return st
	}
	return ctx, name, fail
}
