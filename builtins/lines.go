package builtins

import (
	"bufio"
	"fmt"
	"io"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

// lineReader is the line input of sort, uniq, cut, tr, paste, join, comm,
// fold, expand, unexpand and column.

// lineReader reads delimited lines through a 64 KiB buffer without
// allocating, except for lines longer than the buffer.
type lineReader struct {
	br   *bufio.Reader
	long []byte
	env  *Env
	n    int
}

func newLineReader(env *Env, r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10), env: env}
}

// next returns the next line without its delimiter, whether it had one,
// and io.EOF after the last line. The line is valid until the next call.
// It returns gnu.ErrCancelled once the context is done.
func (l *lineReader) next(eol byte) (line []byte, hadEOL bool, err error) {
	l.n++
	if l.n&1023 == 0 && l.env.Ctx.Err() != nil {
		return nil, false, gnu.ErrCancelled
	}
	line, err = l.br.ReadSlice(eol)
	if err == bufio.ErrBufferFull {
		l.long, err = l.env.gatherLine(append(l.long[:0], line...), l.br, eol)
		line = l.long
		if err == gnu.ErrCancelled {
			return nil, false, err
		}
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

// LineTooLongError is what a reader of lines says of a line longer than
// Env.MaxLine: the shell's words for a value past its bound.
type LineTooLongError struct{ Limit int }

func (e LineTooLongError) Error() string {
	return fmt.Sprintf("value too large (more than %d bytes)", e.Limit)
}

// gatherLine appends to buf the rest of a line of br up to delim (or the
// end of the input), the part before it being buf, and returns it with
// br's error (nil at delim). Past e.MaxLine it stops the run (e.Limit)
// and fails with gnu.ErrCancelled: one line of a big file would
// otherwise take the heap past a small memory limit on its last copy,
// which no memory guard can interrupt (session 30's leftover: rev, sed,
// nl and cut had no bound on a line).
func (e *Env) gatherLine(buf []byte, br *bufio.Reader, delim byte) ([]byte, error) {
	for {
		chunk, err := br.ReadSlice(delim)
		buf = append(buf, chunk...)
		if e.MaxLine > 0 && len(buf) > e.MaxLine {
			return buf[:0], e.lineTooLong()
		}
		if err != bufio.ErrBufferFull {
			return buf, err
		}
	}
}

// lineTooLong stops the run for a line past e.MaxLine and returns
// gnu.ErrCancelled; without e.Limit it returns the error to report.
func (e *Env) lineTooLong() error {
	err := LineTooLongError{Limit: e.MaxLine}
	if e.Limit == nil {
		return err
	}
	e.Limit(err)
	return gnu.ErrCancelled
}
