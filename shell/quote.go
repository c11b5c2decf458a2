package shell

import (
	"context"
	"fmt"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh/third_party/sh/interp"
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
