package builtins

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

// The streaming commands' input and output: buffered standard output,
// GNU's write errors, copying with cancellation, opening operands and
// reporting what failed on them.

// ioBufSize is the read and write buffer size of the streaming commands.
const ioBufSize = 64 << 10

// stdoutWriter buffers env.Stdout.
func stdoutWriter(env *Env) *bufio.Writer { return bufio.NewWriterSize(env.Stdout, ioBufSize) }

// finishOutput flushes w and turns the outcome into an exit status: status when
// everything was written, 1 quietly on a broken pipe, and 1 with GNU's
// "NAME: write error: REASON" on any other write failure.
func finishOutput(env *Env, w *bufio.Writer, status int) int {
	return finishOutputAs(env, w, status, wroteStdout)
}

// finishOutputAs is finishOutput reporting a failure in the words of form
// (see outputFailed).
func finishOutputAs(env *Env, w *bufio.Writer, status int, form string) int {
	if err := w.Flush(); err != nil {
		return outputFailed(env, err, form, "", 1)
	}
	return status
}

// writeFailed reports a failed write and returns status 1.
func writeFailed(env *Env, err error) int {
	return outputFailed(env, err, wroteStdout, "", 1)
}

// quietStop reports whether err ends a command without a word: its
// output's reader has gone, or the run was cancelled.
// ErrCancelled is what a read of an input that llmsh serves itself (an
// endless device) returns once the command's context is done: the
// commands stop on it quietly, as on a cancelled loop of their own.
var ErrCancelled = gnu.ErrCancelled

func quietStop(err error) bool {
	return IsBrokenPipe(err) || errors.Is(err, gnu.ErrCancelled)
}

// WriteFailed reports err, a failed write of the command's standard output,
// as gnulib's close_stdout does ("NAME: write error: REASON"), and returns
// status (1 quietly on a broken pipe or cancellation).
func (e *Env) WriteFailed(err error, status int) int {
	return outputFailed(e, err, wroteStdout, "", status)
}

// The forms of GNU's message on a failed write of the output, for
// outputFailed: each is where the command's code in GNU finds the failure.
// %[1]s is the output's name, %[2]s the reason.
const (
	// gnulib's close_stdout: most commands.
	wroteStdout = "write error: %[2]s"
	// close_stdout after the command's own fflush failed (wc, md5sum,
	// cksum, du): the reason is gone by then.
	wroteFlushed = "write error"
	// A write of its own to a named output (dd, cp).
	wroteTo = "error writing %[1]s: %[2]s"
	// error (0, errno, "%s", name) on the output (yes, diff, tee).
	wroteNamed = "%[1]s: %[2]s"
)

// outputFailed is the one way a command reports err, a failed write or
// close of its output called name, in GNU's words form (above), and
// returns status. A broken pipe and cancellation end the command quietly
// with status 1.
func outputFailed(env *Env, err error, form, name string, status int) int {
	if quietStop(err) {
		return 1
	}
	if form == wroteFlushed {
		env.Errorf("%s", flushedText(err))
	} else {
		env.Errorf(form, name, ErrText(err))
	}
	return status
}

// flushedText is close_stdout's message after the command's own fflush
// failed: the reason is gone by then, but for a closed descriptor, whose
// fclose fails again with EBADF.
func flushedText(err error) string {
	if errors.Is(err, syscall.EBADF) {
		return "write error: " + ErrText(err)
	}
	return wroteFlushed
}

// copyOut copies r to w in large blocks, checking env.Ctx between blocks.
// A write failure comes back wrapped in gnu.WriteError. A reader that writes
// itself out (a file of vfsd: io.WriterTo) is asked to, so that its blocks
// go to w where they arrive (the shared region of read_shm) instead of
// being copied through buf first.
func copyOut(env *Env, w io.Writer, r io.Reader, buf []byte) error {
	if wt, ok := r.(io.WriterTo); ok {
		_, err := wt.WriteTo(ctxWriter{env, w})
		return err
	}
	for {
		if env.Ctx.Err() != nil {
			return gnu.ErrCancelled
		}
		n, err := r.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return gnu.WriteError{Err: werr}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// ctxWriter is w for copyOut's io.WriterTo: it checks env.Ctx before
// each block and wraps w's failures in gnu.WriteError, as copyOut's loop does.
type ctxWriter struct {
	env *Env
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if c.env.Ctx.Err() != nil {
		return 0, gnu.ErrCancelled
	}
	n, err := c.w.Write(p)
	if err != nil {
		return n, gnu.WriteError{Err: err}
	}
	return n, nil
}

// readFailed turns the error of a per-file loop into a message and an exit
// status contribution: write errors and cancellation are handled by the
// caller (stop == true), read errors are reported against name.
func readFailed(env *Env, name string, err error) (stop bool) {
	return readFailedShown(env, displayName(name), err)
}

// readFailedShown is readFailed naming the file shown as it is (GNU cat
// calls standard input "-").
func readFailedShown(env *Env, shown string, err error) (stop bool) {
	if gnu.IsWriteError(err) || errors.Is(err, gnu.ErrCancelled) || IsBrokenPipe(err) {
		return true
	}
	env.PathError(shown, err)
	return false
}

// displayName is how GNU names an operand in messages and headers.
func displayName(name string) string {
	if name == "-" {
		return "standard input"
	}
	return name
}

// openOperand opens an operand like Env.Open and also returns its FileInfo
// when it is a file of the FS (nil for standard input).
func openOperand(env *Env, name string) (io.ReadCloser, fs.FileInfo, error) {
	r, err := env.Open(name)
	if err != nil {
		return nil, nil, err
	}
	if f, ok := r.(File); ok && name != "-" {
		fi, err := f.Stat()
		if err != nil {
			r.Close()
			return nil, nil, err
		}
		return r, fi, nil
	}
	return r, nil, nil
}

// errReadDir is the error of reading a directory.
var errReadDir = &fs.PathError{Op: "read", Err: syscall.EISDIR}

// readAllCtx reads r to its end, checking env.Ctx between blocks, for the
// commands that must hold their whole input (tac).
func readAllCtx(env *Env, r io.Reader) ([]byte, error) {
	return readAllBound(env, r, 0)
}

// readHeld is readAllCtx for a command that holds its input whole (tac,
// csplit, look, diff, diff3): the input is one value, bounded as a line
// is (Env.gatherLine): past env.MaxLine bytes the run stops, "value too
// large" (session 31's leftover: a 100 MB line under --max-memory 64M
// took tac, csplit and look to 159 MB of RSS, diff to 132 MB, before the
// memory guard's tick caught the last doubling of the buffer).
func readHeld(env *Env, r io.Reader) ([]byte, error) {
	return readAllBound(env, r, env.MaxLine)
}

// readAllBound is readAllCtx stopping past limit bytes (0: no limit).
func readAllBound(env *Env, r io.Reader, limit int) ([]byte, error) {
	var data []byte
	buf := make([]byte, ioBufSize)
	for {
		if env.Ctx.Err() != nil {
			return nil, gnu.ErrCancelled
		}
		n, err := r.Read(buf)
		if limit > 0 && len(data)+n > limit {
			return nil, env.lineTooLong()
		}
		data = append(data, buf[:n]...)
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// stopError handles the errors that end a command: cancellation and output
// errors (quiet on a broken pipe). It reports whether err was one.
func stopError(env *Env, err error) (int, bool) {
	if errors.Is(err, gnu.ErrCancelled) || gnu.IsWriteError(err) || IsBrokenPipe(err) {
		return writeFailed(env, err), true
	}
	return 0, false
}
