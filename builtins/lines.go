package builtins

import (
	"bufio"
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
