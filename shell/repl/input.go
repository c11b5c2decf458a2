package repl

import (
	"bytes"
	"io"
	"os"
	"sync"
)

// Input shares the terminal between line editing and the commands the
// REPL runs. One goroutine reads the terminal, and only when a reader asks:
// a read abandoned because its command was interrupted leaves its bytes for
// the next reader, so nothing typed is lost, and an interrupted command
// never stays blocked on the terminal.
type Input struct {
	r    io.Reader
	mu   sync.Mutex // serialises readers
	want chan struct{}
	got  chan chunk

	// guarded by mu
	pending  []byte
	perr     error
	inflight bool

	closed chan struct{}
	once   sync.Once
}

// ctrlC is the byte Ctrl-C sends in raw mode.
const ctrlC = 0x03

type chunk struct {
	data []byte
	err  error
}

// NewInput starts sharing r (the terminal).
func NewInput(r io.Reader) *Input {
	in := &Input{r: r, want: make(chan struct{}, 1), got: make(chan chunk, 1), closed: make(chan struct{})}
	go in.loop()
	return in
}

func (in *Input) loop() {
	buf := make([]byte, 4096)
	var fatal error
	for {
		select {
		case <-in.want:
		case <-in.closed:
			return
		}
		c := chunk{err: fatal}
		if fatal == nil {
			n, err := in.r.Read(buf)
			c = chunk{data: append([]byte(nil), buf[:n]...), err: err}
			if err != nil && err != io.EOF {
				fatal = err // the terminal is gone; an EOF (Ctrl-D) is not final
			}
		}
		select {
		case in.got <- c:
		case <-in.closed:
			return
		}
	}
}

// read fills p, giving up with io.EOF when done or stop is closed (a nil
// channel never is).
func (in *Input) read(p []byte, done, stop <-chan struct{}) (int, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if len(p) == 0 {
		return 0, nil
	}
	if len(in.pending) == 0 && in.perr == nil {
		if !in.inflight {
			in.inflight = true
			in.want <- struct{}{}
		}
		select {
		case c := <-in.got:
			in.inflight = false
			in.pending, in.perr = c.data, c.err
		case <-done:
			return 0, io.EOF
		case <-stop:
			return 0, io.EOF
		case <-in.closed:
			return 0, io.EOF
		}
	}
	n := copy(p, in.pending)
	in.pending = in.pending[n:]
	if len(in.pending) == 0 && in.perr != nil && n == 0 {
		err := in.perr
		in.perr = nil
		return 0, err
	}
	return n, nil
}

// Close ends every read in progress and to come with io.EOF.
func (in *Input) Close() error {
	in.once.Do(func() { close(in.closed) })
	return nil
}

// feed is the terminal given to one command, through a pipe. The shell
// needs an *os.File (mvdan.cc/sh copies any other reader greedily), and a
// pipe can be closed to end a read that Ctrl-C abandons.
type feed struct {
	// stdin is the command's standard input.
	stdin *os.File
	// interrupt stops the feed: the command's reads end with EOF once
	// what the pipe holds is read.
	interrupt func()
	// finish, once the command has returned, stops the feed and puts
	// what the command did not read back in the terminal's queue, for
	// the prompt.
	finish func()
}

// command starts feeding the terminal to one command. Bytes typed before
// the terminal left raw mode (right after Enter) are given as the normal
// mode would have: a carriage return as a newline, a Ctrl-D as the end of
// the command's input, and a Ctrl-C, which the terminal would have turned
// into SIGINT, calls onCtrlC; what follows either goes back to the queue.
func (in *Input) command(onCtrlC func()) (*feed, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 4096)
		for {
			n, err := in.read(buf, stop, nil)
			for i, c := range buf[:n] {
				if c == '\r' {
					buf[i] = '\n'
				}
			}
			if i := bytes.IndexAny(buf[:n], "\x03\x04"); i >= 0 {
				in.unread(buf[i+1 : n])
				if i > 0 {
					pw.Write(buf[:i])
				}
				pw.Close()
				if buf[i] == ctrlC && onCtrlC != nil {
					onCtrlC()
				}
				return
			}
			if n > 0 {
				if _, werr := pw.Write(buf[:n]); werr != nil {
					in.unread(buf[:n])
					return
				}
			}
			if err != nil {
				select {
				case <-stop:
				default:
					pw.Close() // Ctrl-D typed to the command: its end of input
				}
				return
			}
		}
	}()
	var stopOnce, finishOnce sync.Once
	interrupt := func() {
		stopOnce.Do(func() {
			close(stop)
			pw.Close()
		})
	}
	finish := func() {
		finishOnce.Do(func() {
			interrupt()
			<-done
			left, _ := io.ReadAll(pr)
			pr.Close()
			in.unread(left)
		})
	}
	return &feed{stdin: pr, interrupt: interrupt, finish: finish}, nil
}

// unread puts p back at the front of the queue.
func (in *Input) unread(p []byte) {
	if len(p) == 0 {
		return
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	in.pending = append(append([]byte(nil), p...), in.pending...)
}

// editor returns the reader for line editing: it gives up when done (the
// session's end) is closed; closing it does not end the Input.
func (in *Input) editor(done <-chan struct{}) io.ReadCloser {
	return &editReader{in: in, done: done, stop: make(chan struct{})}
}

type editReader struct {
	in   *Input
	done <-chan struct{}
	stop chan struct{}
	once sync.Once
}

func (e *editReader) Read(p []byte) (int, error) { return e.in.read(p, e.done, e.stop) }

func (e *editReader) Close() error {
	e.once.Do(func() { close(e.stop) })
	return nil
}
