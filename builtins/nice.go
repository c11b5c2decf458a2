package builtins

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

var _ = register(Builtin{Name: "nice", Summary: "run a command with an adjusted niceness", Run: niceCmd})

// niceKey holds the niceness nice gave the commands it runs (llmsh's
// commands all run in one process: the value is the script's, not the
// kernel's).
type niceKey struct{}

// niceness is the niceness of the commands ctx runs: 0, or what an
// enclosing nice set.
func niceness(ctx context.Context) int {
	n, _ := ctx.Value(niceKey{}).(int)
	return n
}

func niceCmd(env *Env) int {
	f := NewFlags(env, "Run COMMAND with an adjusted niceness, which affects process scheduling.\n"+
		"With no COMMAND, print the current niceness.  Niceness values range from\n"+
		"-20 (most favorable to the process) to 19 (least favorable to the process).\n\n"+
		"In llmsh every command runs in one process: the niceness is the one nice\n"+
		"reports to the commands it runs; the kernel's scheduling is not changed.",
		"[OPTION] [COMMAND [ARG]...]")
	f.StopAtOperand = true
	adj, given := 10, false
	f.Func('n', "adjustment", RequiredArg, "N", "add integer N to the niceness (default 10)", func(v string, _ bool) error {
		n, ok := niceAdjustment(v)
		if !ok {
			return &niceInvalid{v}
		}
		adj, given = n, true
		return nil
	})
	args := env.Args[1:]
	// The obsolete form: nice -N COMMAND (and nice -N alone).
	if len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		if n, ok := niceAdjustment(args[0][1:]); ok && args[0][1] >= '0' && args[0][1] <= '9' {
			adj, given = n, true
			args = args[1:]
		}
	}
	rest, err := f.Parse(args)
	if err != nil {
		var bad *niceInvalid
		if errors.As(err, &bad) {
			env.Errorf("invalid adjustment %s", env.Quote(bad.v))
			return 125
		}
		return f.Fail(err, 125)
	}
	cur := niceness(env.Ctx)
	if len(rest) == 0 {
		if given {
			return f.Fail(&UsageError{"a command must be given with an adjustment"}, 125)
		}
		fmt.Fprintln(env.Stdout, cur)
		return 0
	}
	next := min(max(cur+adj, -20), 19)
	if next < cur {
		// llmsh's user is not privileged: as GNU nice says when
		// setpriority fails, and the command runs all the same.
		env.Errorf("cannot set niceness: Permission denied")
		next = cur
	}
	if env.Exec == nil {
		env.Errorf("cannot run commands here")
		return 126
	}
	return env.Exec(context.WithValue(env.Ctx, niceKey{}, next), rest, env.Stdin, env.Stdout, env.Stderr)
}

// niceInvalid is an adjustment that is not an integer.
type niceInvalid struct{ v string }

func (e *niceInvalid) Error() string { return "invalid adjustment " + e.v }

// niceAdjustment parses N as GNU nice does: an integer, with a sign; a
// value past the range saturates.
func niceAdjustment(v string) (int, bool) {
	s := strings.TrimLeft(v, " \t")
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			if strings.HasPrefix(s, "-") {
				return -40, true
			}
			return 40, true
		}
		return 0, false
	}
	return int(min(max(n, -40), 40)), true
}
