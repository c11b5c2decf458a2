package builtins

import (
	"errors"
	"fmt"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

// ErrText returns GNU's wording for err: the strerror text of the errno it
// wraps ("No such file or directory"), or a sensible phrase otherwise,
// followed by vfsd's reason in parentheses when the errno does not say
// why ("Permission denied (file has other hard links, …)"). It never
// includes a path.
func ErrText(err error) string {
	var r interface{ Reason() string }
	if errors.As(err, &r) {
		if reason := r.Reason(); reason != "" {
			return gnu.Strerror(err) + " (" + reason + ")"
		}
	}
	return gnu.Strerror(err)
}

// Errorf prints "NAME: message" on Stderr, GNU style.
func (e *Env) Errorf(format string, args ...any) {
	fmt.Fprintf(e.Stderr, "%s: %s\n", e.Name(), fmt.Sprintf(format, args...))
}

// UsageErrorf prints "NAME: message" and GNU's "Try 'NAME --help' for
// more information." on Stderr, and returns code: a usage error found
// outside the option parser (Flags.Fail prints the same for its own).
func (e *Env) UsageErrorf(code int, format string, args ...any) int {
	e.Errorf(format, args...)
	fmt.Fprintf(e.Stderr, "Try '%s --help' for more information.\n", e.Name())
	return code
}

// PathError prints "NAME: FILE: reason" on Stderr, as GNU tools report a
// failure on a file operand. file is printed as the user wrote it, or, for
// the coreutils that quote it (gnulib's quotef), quoted when the shell
// would need it to be: 'a b', and the empty name as a pair of quotes.
func (e *Env) PathError(file string, err error) {
	if errors.Is(err, gnu.ErrCancelled) {
		return // a read that the run's end stopped: GNU's tool is killed, silently
	}
	if quotefCommands[e.Name()] {
		file = e.QuoteF(file)
	}
	fmt.Fprintf(e.Stderr, "%s: %s: %s\n", e.Name(), file, ErrText(err))
}

// quotefCommands are the builtins whose GNU tool names a file operand it
// cannot read through quotef (coreutils 9.1); grep, sed, diff, column and
// the others print it as it is.
var quotefCommands = map[string]bool{
	"b2sum": true, "base32": true, "base64": true, "basenc": true, "cat": true, "cksum": true, "comm": true, "cut": true, "expand": true,
	"fold": true, "join": true, "md5sum": true, "nl": true, "od": true,
	"paste": true, "pr": true, "date": true, "sha1sum": true, "sha224sum": true, "sha256sum": true,
	"sha384sum": true, "sha512sum": true, "shuf": true, "split": true, "sum": true,
	"tee": true, "unexpand": true, "uniq": true, "wc": true,
}
