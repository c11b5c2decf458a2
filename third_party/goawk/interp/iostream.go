package interp

// I/O streams are interfaces which allow file redirects and command pipelines to be treated
// equivalently.

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"syscall"
)

const (
	notClosedExitCode = -127
)

var (
	errDoubleClose = errors.New("close: stream already closed")
)

// firstError returns the first non-nil error or nil if all errors are nil.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

type inputStream interface {
	io.ReadCloser
	ExitCode() int
}

type outputStream interface {
	io.WriteCloser
	Flush() error
	ExitCode() int
}

type outFileStream struct {
	*bufio.Writer
	closer   io.Closer
	exitCode int
	closed   bool
}

func newOutFileStream(wc io.WriteCloser, size int) outputStream {
	b := bufio.NewWriterSize(wc, size)
	return &outFileStream{b, wc, notClosedExitCode, false}
}

func (s *outFileStream) Close() error {
	if s.closed {
		return errDoubleClose
	}
	s.closed = true
	flushErr := s.Writer.Flush()
	closeErr := s.closer.Close()
	if err := firstError(flushErr, closeErr); err != nil {
		s.exitCode = -1
		return err
	}
	s.exitCode = 0
	return nil
}

func (s *outFileStream) ExitCode() int {
	return s.exitCode
}

type inFileStream struct {
	io.ReadCloser
	exitCode int
	closed   bool
}

func newInFileStream(rc io.ReadCloser) inputStream {
	return &inFileStream{rc, notClosedExitCode, false}
}

func (s *inFileStream) Close() error {
	if s.closed {
		return errDoubleClose
	}
	s.closed = true
	if err := s.ReadCloser.Close(); err != nil {
		s.exitCode = -1
		return err
	}
	s.exitCode = 0
	return nil
}

func (s *inFileStream) ExitCode() int {
	return s.exitCode
}

// outCmdStream is print | "cmd" (llmsh): the command runs in a goroutine
// through the Exec hook and reads what awk prints from a pipe.
type outCmdStream struct {
	*bufio.Writer
	pw       *io.PipeWriter
	done     chan int
	exitCode int
	closed   bool
	written  int64 // bytes awk has written to the pipe
}

// cmdPipeCapacity is a Linux pipe's: a writer whose reader is gone only
// finds out once the pipe's buffer would have filled (llmsh).
const cmdPipeCapacity = 64 << 10

// ErrSigpipe (llmsh) is the error of a write to a command's pipe after the
// command has ended, past what the pipe's buffer would have held: mawk
// dies of SIGPIPE there (awk '{print | "head -1"}' over 100000 lines,
// status 141). It is a broken pipe (errors.Is syscall.EPIPE).
var ErrSigpipe error = sigpipeError{}

type sigpipeError struct{}

func (sigpipeError) Error() string        { return "Broken pipe" }
func (sigpipeError) Is(target error) bool { return target == syscall.EPIPE }

func newOutCmdStream(exec func(string, io.Reader, io.Writer) int, cmd string) outputStream {
	pr, pw := io.Pipe()
	s := &outCmdStream{pw: pw, done: make(chan int, 1), exitCode: notClosedExitCode}
	s.Writer = bufio.NewWriterSize(cmdPipeWriter{s}, outputBufSize)
	go func() {
		code := exec(cmd, pr, nil)
		// What awk prints after the command has ended is discarded, as
		// what a pipe's buffer took before its reader was gone, up to
		// cmdPipeCapacity (cmdPipeWriter).
		pr.Close()
		s.done <- code
	}()
	return s
}

func (s *outCmdStream) Close() error {
	if s.closed {
		return errDoubleClose
	}
	s.closed = true
	err := s.Writer.Flush()
	s.pw.Close()
	s.exitCode = <-s.done
	return err
}

func (s *outCmdStream) ExitCode() int {
	return s.exitCode
}

// cmdPipeWriter writes to a command's pipe; once the command has stopped
// reading, writes succeed and the data is dropped, until awk has written
// more than a pipe holds: then the write is ErrSigpipe.
type cmdPipeWriter struct{ s *outCmdStream }

func (w cmdPipeWriter) Write(b []byte) (int, error) {
	_, err := w.s.pw.Write(b)
	w.s.written += int64(len(b))
	switch {
	case err == nil:
	case !errors.Is(err, io.ErrClosedPipe):
		return 0, err
	case w.s.written > cmdPipeCapacity:
		return 0, ErrSigpipe
	}
	return len(b), nil
}

// inCmdStream is "cmd" | getline (llmsh): the command runs in a goroutine
// through the Exec hook and writes to a pipe that getline reads. Its
// standard input is empty: awk's own input is read by awk.
type inCmdStream struct {
	pr       *io.PipeReader
	done     chan int
	exitCode int
	closed   bool
}

func newInCmdStream(exec func(string, io.Reader, io.Writer) int, cmd string) inputStream {
	pr, pw := io.Pipe()
	s := &inCmdStream{pr: pr, done: make(chan int, 1), exitCode: notClosedExitCode}
	go func() {
		code := exec(cmd, strings.NewReader(""), pw)
		pw.Close()
		s.done <- code
	}()
	return s
}

func (s *inCmdStream) Read(b []byte) (int, error) {
	return s.pr.Read(b)
}

func (s *inCmdStream) Close() error {
	if s.closed {
		return errDoubleClose
	}
	s.closed = true
	// A command still writing gets an error and ends.
	s.pr.Close()
	s.exitCode = <-s.done
	return nil
}

func (s *inCmdStream) ExitCode() int {
	return s.exitCode
}
