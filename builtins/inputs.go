package builtins

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
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

// FilesDone is the outcome of Env.EachFile.
type FilesDone struct {
	Failed  bool // a file could not be opened or read (reported)
	Stopped bool // the output failed (reported once) or the run was cancelled: write nothing more
}

// Status is the exit status it makes: 0, or 1.
func (d FilesDone) Status() int { return exitStatus(!d.Failed && !d.Stopped) }

// finish ends a command whose loop was EachFile's: w flushed, with GNU's
// write error if that fails, and the exit status.
func (d FilesDone) finish(env *Env, w *bufio.Writer) int {
	return d.finishAs(env, w, wroteStdout)
}

// finishAs is finish with a failed write said in form (outputFailed).
func (d FilesDone) finishAs(env *Env, w *bufio.Writer, form string) int {
	if d.Stopped {
		return 1
	}
	return finishOutputAs(env, w, d.Status(), form)
}

// EachFile opens each operand in turn ("-" when there are none, "-" meaning
// standard input) and calls fn with it. A file that cannot be opened is
// reported GNU style ("NAME: FILE: No such file or directory") and skipped,
// and so is one whose reading fails (fn's error). What ends the command
// stops the loop: cancellation (gnu.ErrCancelled) and a broken pipe
// quietly, an output error (gnu.WriteError) as "NAME: write error: …".
// Before each message w (when not nil) is flushed, as GNU's error()
// flushes standard output, so that the output of the files before comes
// first.
func (e *Env) EachFile(w *bufio.Writer, operands []string, fn func(name string, r io.Reader) error) FilesDone {
	return e.eachFile(w, operands, fileWords{closedIn: "-"}, fn)
}

// fileWords are a command's own words for a file that cannot be opened or
// read, where GNU's command does not say "NAME: FILE: REASON" (nil).
type fileWords struct {
	openFailed, readFailed func(name string, err error)
	// wrote is the form of the message on a failed write (outputFailed):
	// wroteStdout when empty.
	wrote string
	// dirEmpty reads a directory as empty input (cksum 9.1's crc).
	dirEmpty bool
	// pre, when set, is offered each operand before it is opened: done
	// means it handled the operand (err then as fn's), else the operand
	// is opened and given to fn as usual.
	pre func(name string) (done bool, err error)
	// closedIn, when set, is what GNU's command names when it closes
	// a standard input it read that was closed (<&-), which fails
	// once more: "NAME: CLOSEDIN: Bad file descriptor" ("-",
	// "standard input").
	closedIn string
}

// eachFile is EachFile in the command's own words.
func (e *Env) eachFile(w *bufio.Writer, operands []string, words fileWords, fn func(name string, r io.Reader) error) FilesDone {
	if len(operands) == 0 {
		operands = []string{"-"}
	}
	openFailed, readFailed := words.openFailed, words.readFailed
	if openFailed == nil {
		openFailed = e.PathError
	}
	if readFailed == nil {
		readFailed = e.PathError
	}
	var d FilesDone
	for _, name := range operands {
		if err := e.Ctx.Err(); err != nil {
			d.Stopped = true
			return d
		}
		done, err := false, error(nil)
		if words.pre != nil {
			done, err = words.pre(name)
		}
		if !done {
			f, oerr := e.Open(name)
			if words.dirEmpty && (errors.Is(oerr, syscall.EISDIR) || oerr == nil && isDirFile(f)) {
				if oerr == nil {
					f.Close()
				}
				f, oerr = nopReadCloser{eofReader{}}, nil
			}
			if oerr != nil {
				flushBefore(w)
				openFailed(name, oerr)
				d.Failed = true
				continue
			}
			err = fn(name, f)
			f.Close()
		}
		if name == "-" && e.StdinClosed && words.closedIn != "" && !quietStop(err) && !gnu.IsWriteError(err) {
			if err != nil {
				flushBefore(w)
				readFailed(name, err)
			}
			flushBefore(w)
			e.Errorf("%s: %s", words.closedIn, gnu.Strerror(syscall.EBADF))
			d.Failed = true
			continue
		}
		if err == nil {
			continue
		}
		if quietStop(err) {
			d.Stopped = true
			return d
		}
		if gnu.IsWriteError(err) {
			d.Stopped = true
			outputFailed(e, err, words.wroteForm(), "", 1)
			return d
		}
		flushBefore(w)
		readFailed(name, err)
		d.Failed = true
	}
	return d
}

// wroteForm is the form of the message on a failed write.
func (words fileWords) wroteForm() string {
	if words.wrote == "" {
		return wroteStdout
	}
	return words.wrote
}

// isDirFile reports whether r is an open directory of the FS.
func isDirFile(r io.Reader) bool {
	f, ok := r.(File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.IsDir()
}

// flushBefore flushes w, if any, before a message on standard error. A
// failure stays in w for the command's end to report.
func flushBefore(w *bufio.Writer) {
	if w != nil {
		w.Flush()
	}
}
