package builtins

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"syscall"
)

var _ = register(Builtin{Name: "flock", Summary: "manage file locks from shell scripts (llmsh has no file locks: refused)", Run: flockCmd})

// flockCmd is util-linux 2.38's flock up to its flock(2) call: the same
// options, checks, messages and statuses (64 for a bad command line, 66
// for a lock file it cannot open or create), then the lock fails as
// flock(2) fails where the file system keeps no locks: "flock: FILE: No
// locks available", status 71 (EX_OSERR), and the command is not run.
// llmsh's commands share one process and vfsd offers no locks, so a
// lock would exclude nothing: taking none and running the command would
// be a fake.
func flockCmd(env *Env) int {
	if len(env.Args) < 2 {
		return flockUsage(env, "not enough arguments")
	}
	f := NewFlags(env, "Manage file locks from shell scripts.\n\nllmsh keeps no file locks (its commands share one process; vfsd has no\nlock operation): flock fails as flock(2) does on a file system without\nlocks, \"No locks available\", status 71, and runs no command.",
		"[options] <file>|<directory> <command> [<argument>...]",
		"[options] <file>|<directory> -c <command>",
		"[options] <file descriptor number>")
	f.UtilLinux = true // util-linux's --help layout
	f.StopAtOperand = true
	f.Bool('s', "shared", "get a shared lock")
	f.Bool('x', "exclusive", "get an exclusive lock (default)")
	f.Bool('e', "", "")
	f.Bool('u', "unlock", "remove a lock")
	f.Bool('n', "nonblocking", "fail rather than wait")
	f.Alias("nb", "nonblocking")
	f.Func('w', "timeout", RequiredArg, "<secs>", "wait for a limited amount of time", func(v string, _ bool) error {
		if s, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err != nil || math.IsNaN(s) || s < 0 {
			return &flockBad{"invalid timeout value: " + env.QuoteAF(v)}
		}
		return nil
	})
	f.Alias("wait", "timeout")
	f.Func('E', "conflict-exit-code", RequiredArg, "<number>", "exit code after conflict or timeout", func(v string, _ bool) error {
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil {
			return &flockBad{"invalid exit code: " + env.QuoteAF(v)}
		}
		if n < 0 || n > 255 {
			return &flockBad{"exit code out of range (expected 0 to 255)"}
		}
		return nil
	})
	closeFD := f.Bool('o', "close", "close file descriptor before running command")
	f.Row("-c, --command <command>", "run a single command string through the shell")
	noFork := f.Bool('F', "no-fork", "execute command without forking")
	f.Bool(0, "verbose", "increase verbosity")
	version := shortHelpVersion(f, 'h', 'V')
	rest, err := f.Parse(env.Args[1:])
	var bad *flockBad
	switch {
	case errors.As(err, &bad):
		env.Errorf("%s", bad.msg)
		return 64
	case err != nil:
		return f.Fail(err, 64)
	case *version:
		return printVersion(env)
	case *noFork && *closeFD:
		env.Errorf("the --no-fork and --close options are incompatible")
		return 64
	case len(rest) == 0:
		env.Errorf("requires file descriptor, file or directory")
		return 64
	case len(rest) == 1:
		n, err := strconv.ParseInt(rest[0], 10, 32)
		if err != nil {
			env.Errorf("bad file descriptor: %s", env.QuoteAF(rest[0]))
			return 64
		}
		return flockNoLocks(env, strconv.FormatInt(n, 10))
	case (rest[1] == "-c" || rest[1] == "--command") && len(rest) != 3:
		env.Errorf("%s requires exactly one command argument", rest[1])
		return 64
	}
	name := rest[0]
	if err := flockOpen(env, name); err != nil {
		env.Errorf("cannot open lock file %s: %s", name, ErrText(err))
		return 66 // EX_NOINPUT
	}
	return flockNoLocks(env, name)
}

// flockOpen opens (creating it, mode 0666 less the umask) the lock file
// name, as util-linux's open_file: an existing file or directory is
// enough.
func flockOpen(env *Env, name string) error {
	abs := env.Abs(name)
	_, serr := env.FS.Stat(abs)
	if serr == nil {
		return nil
	}
	fh, err := env.FS.OpenFile(abs, os.O_RDWR|os.O_CREATE)
	if errors.Is(err, syscall.EISDIR) {
		return serr // ("d/": util-linux opens it again without O_CREAT)
	}
	if err != nil {
		return err
	}
	return fh.Close()
}

// flockNoLocks is flock(2)'s failure where no locks are kept.
func flockNoLocks(env *Env, what string) int {
	env.Errorf("%s: No locks available", what) // ENOLCK
	return 71                                  // EX_OSERR
}

// flockUsage is util-linux's report of a command line it cannot use.
func flockUsage(env *Env, msg string) int {
	fmt.Fprintf(env.Stderr, "flock: %s\nTry 'flock --help' for more information.\n", msg)
	return 64
}

// flockBad is an option argument util-linux's flock rejects with its own
// message (and no "Try" line).
type flockBad struct{ msg string }

func (e *flockBad) Error() string { return e.msg }
