package sessionserver

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
)

// Client speaks the session protocol over one connection. Its methods may
// be called from several goroutines (a Cancel while a Run waits).
type Client struct {
	conn net.Conn
	wmu  sync.Mutex // one message at a time

	mu      sync.Mutex
	next    int64
	pending map[string]*call
	err     error         // why the connection ended
	done    chan struct{} // closed when the reader ends
}

type call struct {
	done   chan struct{}
	result json.RawMessage
	err    *Error
	output func(stream, data string) // the run's output notifications
}

// message is any line from the server.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// Dial connects to the server listening on the socket at path.
func Dial(path string) (*Client, error) {
	conn, err := net.Dial("unix", path)
	if err != nil {
		return nil, err
	}
	c := &Client{conn: conn, pending: map[string]*call{}, done: make(chan struct{})}
	go c.read()
	return c, nil
}

// Close closes the connection: the runs it started are cancelled; the
// sessions stay open on the server.
func (c *Client) Close() error {
	err := c.conn.Close()
	<-c.done
	return err
}

func (c *Client) read() {
	defer close(c.done)
	sc := bufio.NewScanner(c.conn)
	sc.Buffer(nil, 1<<30)
	var err error
	for sc.Scan() {
		var m message
		if err = json.Unmarshal(sc.Bytes(), &m); err != nil {
			err = fmt.Errorf("malformed message from the server: %v", err)
			break
		}
		if m.Method == NotifyOutput {
			var p OutputParams
			if json.Unmarshal(m.Params, &p) == nil {
				c.mu.Lock()
				cl := c.pending[string(p.ID)]
				c.mu.Unlock()
				if cl != nil && cl.output != nil {
					cl.output(p.Stream, p.Data)
				}
			}
			continue
		}
		c.mu.Lock()
		cl := c.pending[string(m.ID)]
		delete(c.pending, string(m.ID))
		c.mu.Unlock()
		if cl == nil {
			if m.Error != nil && string(m.ID) == "null" {
				err = m.Error // the server refused the connection
				break
			}
			continue
		}
		cl.result, cl.err = m.Result, m.Error
		close(cl.done)
	}
	if err == nil {
		err = sc.Err()
	}
	if err == nil {
		err = errors.New("the server closed the connection")
	}
	c.mu.Lock()
	c.err = err
	for id, cl := range c.pending {
		delete(c.pending, id)
		close(cl.done)
	}
	c.mu.Unlock()
}

// Call sends one request and decodes its result into result. A failure
// the server answered is an *Error.
func (c *Client) Call(method string, params, result any) error {
	return c.call(method, params, result, nil)
}

func (c *Client) call(method string, params, result any, output func(stream, data string)) error {
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return err
	}
	c.next++
	id := strconv.FormatInt(c.next, 10)
	cl := &call{done: make(chan struct{}), output: output}
	c.pending[id] = cl
	c.mu.Unlock()
	req, err := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      int64  `json:"id"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}{"2.0", c.next, method, params})
	if err != nil {
		return err
	}
	c.wmu.Lock()
	_, err = c.conn.Write(append(req, '\n'))
	c.wmu.Unlock()
	if err != nil {
		return err
	}
	<-cl.done
	switch {
	case cl.err != nil:
		return cl.err
	case cl.result == nil:
		c.mu.Lock()
		defer c.mu.Unlock()
		return fmt.Errorf("no answer: %w", c.err)
	case result == nil:
		return nil
	}
	return json.Unmarshal(cl.result, result)
}

// Open opens a session and returns its ID.
func (c *Client) Open(p OpenParams) (string, error) {
	var r OpenResult
	if err := c.Call(MethodOpen, p, &r); err != nil {
		return "", err
	}
	return r.Session, nil
}

// Run runs script in the session, without output notifications.
func (c *Client) Run(session, script, stdin string) (RunResult, error) {
	var r RunResult
	off := false
	err := c.Call(MethodRun, RunParams{Session: session, Script: script, Stdin: stdin, Stream: &off}, &r)
	return r, err
}

// RunStream runs script in the session; output gets each piece of its
// output ("stdout" or "stderr", the data) while it runs, in order, from
// the connection's reader goroutine.
func (c *Client) RunStream(session, script, stdin string, output func(stream, data string)) (RunResult, error) {
	var r RunResult
	err := c.call(MethodRun, RunParams{Session: session, Script: script, Stdin: stdin}, &r, output)
	return r, err
}

// Cancel stops the run in progress in the session, if any.
func (c *Client) Cancel(session string) (bool, error) {
	var r CancelResult
	err := c.Call(MethodCancel, SessionParams{Session: session}, &r)
	return r.Cancelled, err
}

// Reset starts the session over (a fresh shell and vfsd).
func (c *Client) Reset(session string) error {
	return c.Call(MethodReset, SessionParams{Session: session}, nil)
}

// List describes the open sessions.
func (c *Client) List() ([]SessionInfo, error) {
	var r ListResult
	err := c.Call(MethodList, nil, &r)
	return r.Sessions, err
}

// Ping checks that the server answers.
func (c *Client) Ping() (PingResult, error) {
	var r PingResult
	err := c.Call(MethodPing, nil, &r)
	return r, err
}

// CloseSession closes the session: its vfsd exits and its virtual files
// are gone.
func (c *Client) CloseSession(session string) error {
	return c.Call(MethodClose, SessionParams{Session: session}, nil)
}

// Snapshot returns the session's snapshot file.
func (c *Client) Snapshot(session string) ([]byte, error) {
	var r SnapshotResult
	err := c.Call(MethodSnapshot, SnapshotParams{Session: session}, &r)
	return r.Snapshot, err
}

// Restore opens a session with p and the state of snap; it returns its
// ID.
func (c *Client) Restore(p OpenParams, snap []byte) (string, error) {
	var r OpenResult
	err := c.Call(MethodRestore, RestoreParams{OpenParams: p, Snapshot: snap}, &r)
	return r.Session, err
}

// SnapshotTo has the server write the session's snapshot to path
// (absolute; a new file of mode 0600) and returns its size: the way to
// take a snapshot larger than the server answers inline.
func (c *Client) SnapshotTo(session, path string) (int, error) {
	var r SnapshotResult
	err := c.Call(MethodSnapshot, SnapshotParams{Session: session, Path: path}, &r)
	return r.Bytes, err
}

// RestoreFrom opens a session with p and the state of the snapshot file
// at path (absolute), which the server reads; it returns its ID.
func (c *Client) RestoreFrom(p OpenParams, path string) (string, error) {
	var r OpenResult
	err := c.Call(MethodRestore, RestoreParams{OpenParams: p, Path: path}, &r)
	return r.Session, err
}

// InlineTooLarge reports whether err is the server's refusal to answer a
// snapshot inline for its size (SnapshotTo takes it).
func InlineTooLarge(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == CodeSnapshot && strings.HasSuffix(e.Message, inlineTooLarge)
}
