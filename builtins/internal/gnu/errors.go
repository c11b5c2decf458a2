package gnu

import "errors"

// ErrCancelled stops a command's loop once its context is done (the run's
// time limit, an interrupt). It is never printed: the command ends with
// status 1 and the shell says why.
var ErrCancelled error = constError("cancelled")

// WriteError marks a failure to write the output, so that a command's
// per-file loop does not report it against the input it was reading and
// reports it once, as GNU's "write error".
type WriteError struct{ Err error }

func (e WriteError) Error() string { return e.Err.Error() }
func (e WriteError) Unwrap() error { return e.Err }

// IsWriteError reports whether err is (or wraps) a WriteError.
func IsWriteError(err error) bool {
	var we WriteError
	return errors.As(err, &we)
}
