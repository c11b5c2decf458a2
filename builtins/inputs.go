package builtins

import (
	"errors"
	"io"
	"io/fs"
	"syscall"
)

// ErrBrokenPipe is what a builtin's Stdout returns once the reader of its
// pipe has gone (head closed it): the builtin stops quietly.
var ErrBrokenPipe = syscall.EPIPE

// IsBrokenPipe reports whether err means the output's reader has gone.
// Builtins stop writing, print nothing, and return 1 (the shell reports a
// pipeline's status as bash does).
func IsBrokenPipe(err error) bool {
	return errors.Is(err, syscall.EPIPE) || errors.Is(err, io.ErrClosedPipe) || errors.Is(err, fs.ErrClosed)
}

// exitStatus is a command's status for ok: 0, or 1.
func exitStatus(ok bool) int {
	if ok {
		return 0
	}
	return 1
}

// EachFile opens each operand in turn ("-" when there are none, "-" meaning
// standard input) and calls fn with it. A file that cannot be opened is
// reported GNU style ("NAME: FILE: No such file or directory") and skipped,
// and so is one whose reading fails (fn's error). What ends the command
// stops the loop: cancellation (gnu.ErrCancelled) and a broken pipe
// quietly, an output error (gnu.WriteError) as "NAME: write error: …".
// EachFile returns false if anything failed.
func (e *Env) EachFile(operands []string, fn func(name string, r io.Reader) error) bool {
	if len(operands) == 0 {
		operands = []string{"-"}
	}
	ok := true
	for _, name := range operands {
		if err := e.Ctx.Err(); err != nil {
			return false
		}
		f, err := e.Open(name)
		if err != nil {
			e.PathError(name, err)
			ok = false
			continue
		}
		err = fn(name, f)
		f.Close()
		if err != nil {
			if _, stop := stopError(e, err); stop {
				return false
			}
			e.PathError(name, err)
			ok = false
		}
	}
	return ok
}
