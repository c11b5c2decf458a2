package builtins

import (
	"fmt"
	"os"
	"path"
	"strings"
	"syscall"

	"golang.org/x/term"
)

var _ = register(Builtin{Name: "nohup", Summary: "run a command immune to hangups", Run: nohupCmd})

func nohupCmd(env *Env) int {
	f := NewFlags(env, "Run COMMAND, ignoring hangup signals.\n\n"+
		"If standard input is a terminal, redirect it from an unreadable file.\n"+
		"If standard output is a terminal, append output to 'nohup.out' if possible,\n"+
		"'$HOME/nohup.out' otherwise.\n"+
		"If standard error is a terminal, redirect it to standard output.\n"+
		"To save output to FILE, use 'nohup COMMAND > FILE'.\n\n"+
		"In llmsh no hangup reaches a command: a job started with & ends with its\n"+
		"script, as any other.",
		"COMMAND [ARG]...", "OPTION")
	f.StopAtOperand = true
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 125)
	}
	if len(args) == 0 {
		return f.Fail(&UsageError{"missing operand"}, 125)
	}
	if env.Exec == nil {
		env.Errorf("cannot run commands here")
		return 126
	}
	stdin, stdout, stderr := env.Stdin, env.Stdout, env.Stderr
	inTTY, outTTY, errTTY := IsTerminal(env.Stdin), env.Terminal, IsTerminal(env.Stderr)
	if inTTY {
		stdin = eofReader{}
		if !outTTY && !errTTY {
			env.Errorf("ignoring input")
		}
	}
	if outTTY {
		name := "nohup.out"
		out, err := env.FS.OpenFile(env.Abs(name), os.O_WRONLY|os.O_CREATE|os.O_APPEND)
		if err != nil {
			failed := []string{fmt.Sprintf("failed to open %s: %s", env.Quote(name), ErrText(err))}
			for _, kv := range env.Environ {
				if home, ok := strings.CutPrefix(kv, "HOME="); ok && home != "" {
					name = path.Join(home, name)
					if out, err = env.FS.OpenFile(env.Abs(name), os.O_WRONLY|os.O_CREATE|os.O_APPEND); err != nil {
						failed = append(failed, fmt.Sprintf("failed to open %s: %s", env.Quote(name), ErrText(err)))
					}
				}
			}
			if err != nil {
				for _, m := range failed {
					env.Errorf("%s", m)
				}
				return 125
			}
		}
		defer out.Close()
		stdout = out
		if inTTY {
			env.Errorf("ignoring input and appending output to %s", env.Quote(name))
		} else {
			env.Errorf("appending output to %s", env.Quote(name))
		}
	}
	if errTTY {
		if !outTTY {
			if inTTY {
				env.Errorf("ignoring input and redirecting stderr to stdout")
			} else {
				env.Errorf("redirecting stderr to stdout")
			}
		}
		stderr = stdout
	}
	return env.Exec(env.Ctx, args, stdin, stdout, stderr)
}

// IsTerminal reports whether v (a reader or writer) is the terminal llmsh
// runs on. A value that wraps a file (llmsh's output limit) tells its
// descriptor through SyscallConn or an Fd method, as *os.File does. It
// asks through SyscallConn where it can, not Fd(), which puts an *os.File
// in blocking mode: a write to a pipe (a coprocess's, a pipeline's) then
// blocked in write(2), where neither a deadline nor Close could end it,
// so a hung-up `coproc yes` cost every later Run of a session 2 s
// (session 20, red team).
func IsTerminal(v any) bool {
	if sc, ok := v.(syscall.Conn); ok {
		rc, err := sc.SyscallConn()
		if err != nil {
			return false
		}
		is := false
		rc.Control(func(fd uintptr) { is = term.IsTerminal(int(fd)) })
		return is
	}
	f, ok := v.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(int(f.Fd()))
}
