package builtins

import (
	"bufio"
	"errors"
	"io"
)

// Helpers shared by sort, uniq, cut, tr, paste, join, comm, fold, expand,
// unexpand and column.

// skWriteError marks an output failure returned through skEachFile, so
// that it is not reported against the input file.
type skWriteError struct{ err error }

func (e skWriteError) Error() string { return e.err.Error() }
func (e skWriteError) Unwrap() error { return e.err }

// skEachFile is Env.EachFile that also stops quietly on cancellation
// (errSkCancelled) and reports output errors (skWriteError) once, GNU
// style. It returns the exit status: 0, or 1 if anything failed.
func skEachFile(env *Env, operands []string, fn func(name string, r io.Reader) error) int {
	if len(operands) == 0 {
		operands = []string{"-"}
	}
	status := 0
	for _, name := range operands {
		if env.Ctx.Err() != nil {
			return 1
		}
		f, err := env.Open(name)
		if err != nil {
			env.PathError(name, err)
			status = 1
			continue
		}
		err = fn(name, f)
		f.Close()
		if err != nil {
			if st, stop := skFailed(env, err); stop {
				return st
			}
			env.PathError(name, err)
			status = 1
		}
	}
	return status
}

// skFailed handles the errors that end a command: cancellation and output
// errors (quiet on a broken pipe). It reports whether err was one.
func skFailed(env *Env, err error) (int, bool) {
	var we skWriteError
	switch {
	case errors.Is(err, errSkCancelled):
		return 1, true
	case errors.As(err, &we) || IsBrokenPipe(err):
		if !IsBrokenPipe(err) {
			env.Errorf("write error: %s", ErrText(err))
		}
		return 1, true
	}
	return 0, false
}

// skFlush flushes w and returns status, or 1 after a write failure.
func skFlush(env *Env, w *bufio.Writer, status int) int {
	if err := w.Flush(); err != nil {
		st, _ := skFailed(env, skWriteError{err})
		return st
	}
	return status
}

// skLines reads delimited lines through a 64 KiB buffer without
// allocating, except for lines longer than the buffer.
type skLines struct {
	br   *bufio.Reader
	long []byte
	env  *Env
	n    int
}

func newSkLines(env *Env, r io.Reader) *skLines {
	return &skLines{br: bufio.NewReaderSize(r, 64<<10), env: env}
}

// next returns the next line without its delimiter, whether it had one,
// and io.EOF after the last line. The line is valid until the next call.
// It returns errSkCancelled once the context is done.
func (l *skLines) next(eol byte) (line []byte, hadEOL bool, err error) {
	l.n++
	if l.n&1023 == 0 && l.env.Ctx.Err() != nil {
		return nil, false, errSkCancelled
	}
	line, err = l.br.ReadSlice(eol)
	if err == bufio.ErrBufferFull {
		l.long = append(l.long[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = l.br.ReadSlice(eol)
			l.long = append(l.long, line...)
		}
		line = l.long
	}
	if len(line) == 0 {
		if err == nil {
			err = io.EOF
		}
		return nil, false, err
	}
	if line[len(line)-1] == eol {
		return line[:len(line)-1], true, nil
	}
	if err == io.EOF {
		err = nil
	}
	return line, false, err
}
