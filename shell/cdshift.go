package shell

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"syscall"

	"github.com/llmsh/llmsh/third_party/sh/interp"

	"github.com/llmsh/llmsh/builtins"
)

// cdArgs answers for interp's cd what it gets wrong: the options -L, -P
// (llmsh's paths are logical either way), -e and "--" (interp: a usage
// error), `cd ""` (bash: stays), too many operands, HOME or OLDPWD unset,
// and the messages of a failed cd, which are bash's: "llmsh: cd: DIR: No
// such file or directory" (interp: `cd: no such file or directory:
// "DIR"`, for a file too). What remains goes to interp's cd.
func (s *Shell) cdArgs(ctx context.Context, args []string) []string {
	if s.funcs(ctx)["cd"] != nil {
		return args
	}
	hc := interp.HandlerCtx(ctx)
	fail := func(format string, a ...any) []string {
		fmt.Fprintf(hc.Stderr, "llmsh: cd: "+format+"\n", a...)
		return statusArgs(1)
	}
	ops := args[1:]
	for len(ops) > 0 && len(ops[0]) > 1 && ops[0][0] == '-' {
		if ops[0] == "--" {
			ops = ops[1:]
			break
		}
		for _, c := range ops[0][1:] {
			if c != 'L' && c != 'P' && c != 'e' && c != '@' {
				fmt.Fprintf(hc.Stderr, "llmsh: cd: -%c: invalid option\ncd: usage: cd [-L|[-P [-e]] [-@]] [dir]\n", c)
				return statusArgs(2)
			}
		}
		ops = ops[1:]
	}
	var dir string
	switch len(ops) {
	case 0:
		if dir = hc.Env.Get("HOME").String(); dir == "" {
			return fail("HOME not set")
		}
	case 1:
		dir = ops[0]
	default:
		return fail("too many arguments")
	}
	switch dir {
	case "":
		return statusArgs(0)
	case "-":
		if hc.Env.Get("OLDPWD").String() == "" {
			return fail("OLDPWD not set")
		}
		return []string{"cd", "-"}
	}
	info, err := s.statHandler(ctx, dir, true)
	switch {
	case err != nil && (errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission)):
		return fail("%s: %s", dir, builtins.ErrText(syscall.ENOENT))
	case err != nil:
		return fail("%s: %s", dir, builtins.ErrText(err))
	case !info.IsDir():
		return fail("%s: %s", dir, builtins.ErrText(syscall.ENOTDIR))
	}
	return []string{"cd", dir}
}

// shiftArgs gives `shift [N]` bash's status when N (1) is more than the number
// of positional parameters (1, and they are left as they were; interp
// dropped them all with status 0) or negative.
func (s *Shell) shiftArgs(ctx context.Context, args []string) []string {
	if len(args) > 2 || s.funcs(ctx)["shift"] != nil {
		return args
	}
	n, err := 1, error(nil)
	if len(args) == 2 {
		n, err = strconv.Atoi(args[1])
	}
	r := currentRunner(ctx)
	if err != nil || r == nil {
		return args
	}
	if n < 0 {
		fmt.Fprintf(interp.HandlerCtx(ctx).Stderr, "llmsh: shift: %s: shift count out of range\n", args[1])
		return statusArgs(1)
	}
	if n > len(r.Params) {
		return statusArgs(1)
	}
	return args
}
