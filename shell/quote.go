package shell

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// quoteCall answers \x00quote KIND TEXT: it prints TEXT escaped for a
// pattern (KIND glob) or a regular expression (re); and \x00quote sh SET
// VALUE, ${v@Q} (nothing when SET is empty: v is unset).
func quoteCall(ctx context.Context, args []string) []string {
	hc := interp.HandlerCtx(ctx)
	if len(args) == 4 && args[1] == "sh" {
		if args[2] != "" { // set: ${v@Q} of an unset v is empty
			fmt.Fprint(hc.Stdout, bashQuote(args[3]))
		}
		return statusArgs(0)
	}
	if len(args) != 3 {
		return statusArgs(2)
	}
	if args[1] == "re" {
		fmt.Fprint(hc.Stdout, reQuote(args[2]))
	} else {
		fmt.Fprint(hc.Stdout, globQuote(args[2]))
	}
	return statusArgs(0)
}

// valueFile is the file of a value. It is an io.WriterTo, so that interp's
// io.Copy of it allocates no buffer.
type valueFile struct{ *strings.Reader }

func (valueFile) Write([]byte) (int, error) { return 0, syscall.EBADF }
func (valueFile) Close() error              { return nil }

// getoptsArgs handles what interp's getopts gets wrong: at an argument
// "--" it stops without stepping OPTIND past it, as bash does. Anything
// else is left to interp.
func (s *Shell) getoptsArgs(ctx context.Context, args []string) []string {
	if len(args) < 3 || !syntax.ValidName(args[2]) {
		return args
	}
	hc := interp.HandlerCtx(ctx)
	params := args[3:]
	if len(args) == 3 {
		r := currentRunner(ctx)
		if r == nil {
			return args
		}
		params = r.Params
	}
	optind, err := strconv.Atoi(hc.Env.Get("OPTIND").String())
	if err != nil || optind < 1 || optind > len(params) || params[optind-1] != "--" {
		return args
	}
	return []string{"eval", args[2] + "='?'; unset OPTARG; OPTIND=" + strconv.Itoa(optind+1) + "; false"}
}
