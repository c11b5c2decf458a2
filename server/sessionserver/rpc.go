package sessionserver

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/llmsh/llmsh"
)

// maxInFlight bounds the requests of one connection in progress at once;
// reading the next line waits for one to end.
const maxInFlight = 64

// maxBatch bounds the requests of one batch, whose answers are kept until
// the last is done: a line of 390000 `list` requests was answered with
// 104 MB, and four such lines at once took the server to 8.5 GB (session
// 21, red team). A batch costs no more than maxInFlight lines would.
const maxBatch = maxInFlight

// maxGrantBytes bounds the paths of one session's grants and directory
// (the sum of their lengths), which every list answer repeats: 16
// sessions with the most grants a vfsd command line takes (2 MB) made
// each list 32 MB.
const maxGrantBytes = 64 << 10

// conn is one client's connection.
type conn struct {
	s      *Server
	c      net.Conn
	ctx    context.Context // ends when the client hangs up: its runs are cancelled
	cancel context.CancelFunc
	wmu    sync.Mutex
	wg     sync.WaitGroup
	slots  chan struct{}

	// known holds the IDs of the sessions this connection opened,
	// restored or named in a request that found them open: list shows
	// only those. A session's ID admits whoever holds it (128 random
	// bits); list must not hand it to another client of the uid.
	kmu   sync.Mutex
	known map[string]bool

	// pend is the bytes of its small lines in progress and answers not
	// yet written (s.pend's mu guards it).
	pend int64
}

// learn records that the connection holds the session id. Past twice
// the sessions the server may hold, it drops the IDs of the sessions that
// are gone (list drops them too): a long-lived connection that opens and
// closes sessions without listing them grew by an ID each.
func (cn *conn) learn(id string) {
	s := cn.s
	s.mu.Lock()
	defer s.mu.Unlock()
	cn.kmu.Lock()
	defer cn.kmu.Unlock()
	if cn.known == nil {
		cn.known = map[string]bool{}
	}
	cn.known[id] = true
	if len(cn.known) > 2*s.cfg.MaxSessions {
		for k := range cn.known {
			if s.sessions[k] == nil {
				delete(cn.known, k)
			}
		}
	}
}

// response is a JSON-RPC response.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// notification is a JSON-RPC notification from the server.
type notification struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

var nullID = json.RawMessage("null")

// send writes one message; a failed write means the client is gone. The
// connection's messages are encoded one at a time (pending.go).
func (cn *conn) send(v any) {
	cn.wmu.Lock()
	defer cn.wmu.Unlock()
	b, err := encode(v)
	if err != nil {
		b, _ = encode(response{JSONRPC: "2.0", ID: nullID, Error: errorf(CodeInternal, "%v", err)})
	}
	cn.write(b)
}

// sendBatch writes a batch's answers as one JSON array, encoding and
// writing one response at a time: the answers of 64 list requests are
// 64 lists.
func (cn *conn) sendBatch(out []*response) {
	cn.wmu.Lock()
	defer cn.wmu.Unlock()
	for i, r := range out {
		b, err := encode(r)
		if err != nil {
			b, _ = encode(response{JSONRPC: "2.0", ID: r.ID, Error: errorf(CodeInternal, "%v", err)})
		}
		b = b[:len(b)-1] // its newline
		open, end := []byte(","), []byte{}
		if i == 0 {
			open = []byte("[")
		}
		if i == len(out)-1 {
			end = []byte("]\n")
		}
		if !cn.write(slices.Concat(open, b, end)) {
			return
		}
	}
}

// write writes b, counted as pending until written; it holds wmu. A
// failed write hangs up.
func (cn *conn) write(b []byte) bool {
	n := int64(len(b))
	cn.s.pend.charge(cn, n)
	defer cn.s.pend.give(cn, n)
	cn.c.SetWriteDeadline(time.Now().Add(cn.s.cfg.WriteTimeout))
	if _, err := cn.c.Write(b); err != nil {
		// Gone, or not reading: hang up (which ends the reader too).
		cn.cancel()
		cn.c.Close()
		return false
	}
	return true
}

// serveConn answers one client's requests until it hangs up; then the runs
// it started are cancelled.
func (s *Server) serveConn(c net.Conn) {
	defer c.Close()
	ctx, cancel := context.WithCancel(s.ctx)
	cn := &conn{s: s, c: c, ctx: ctx, cancel: cancel, slots: make(chan struct{}, maxInFlight)}
	cred, err := peerCred(c)
	if err == nil {
		err = checkPeer(cred, s.uid)
	}
	if err != nil {
		s.logf("connection refused: %v", err)
		cn.send(response{JSONRPC: "2.0", ID: nullID, Error: errorf(CodePeer, "%v", err)})
		cancel()
		return
	}
	defer cn.wg.Wait()
	defer cancel()
	context.AfterFunc(ctx, s.pend.wake) // a reader waiting for room
	br := bufio.NewReaderSize(c, 64<<10)
	for {
		s.pend.wait(cn)
		line, held, fate, err := s.readLine(br)
		small := int64(0)
		if held == 0 {
			small = int64(len(line))
			s.pend.charge(cn, small)
		}
		release := func() {
			s.held.Add(-held)
			s.pend.give(cn, small)
		}
		switch {
		case fate == lineTooLong:
			cn.send(response{JSONRPC: "2.0", ID: nullID, Error: errorf(CodeInvalidRequest, "message exceeds %d bytes", MaxLine)})
		case fate == lineRefused:
			cn.send(response{JSONRPC: "2.0", ID: nullID, Error: errorf(CodeServerBusy,
				"server busy: it holds %d MiB of large requests (of every connection); send it again later", s.maxHeld>>20)})
		case len(bytes.TrimSpace(line)) > 0:
			cn.dispatch(line, release)
			release = nil
		}
		if release != nil {
			release()
		}
		if err != nil {
			return
		}
	}
}

// DefaultMaxHeld bounds the bytes of large request lines (each over
// freeLine) that the server holds at once, being read or in progress,
// across all connections: each connection may send a line of MaxLine, and
// nothing bounds the connections (session 24, red team: 40 connections
// each sending 15 MiB of a line took the server, which has no memory
// guard, to 1 GB in 2 s; a few hundred would take it down with every
// session). Past it a large line is skipped and answered CodeServerBusy.
const DefaultMaxHeld = 256 << 20

// freeLine is the size up to which a line is not counted in held: small
// requests are never refused for the large ones of others.
const freeLine = 64 << 10

// What readLine did with a line.
const (
	lineRead    = iota
	lineTooLong // over MaxLine: skipped to its end
	lineRefused // it would pass maxHeld: skipped to its end
)

// readLine reads one line of at most MaxLine bytes, charging to s.held
// the bytes of one over freeLine (held, which the caller gives back once
// the line is done with). A longer line, or one that would take s.held
// past maxHeld, is skipped to its end.
func (s *Server) readLine(br *bufio.Reader) (line []byte, held int64, fate int, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if fate == lineRead {
			n := len(line) + len(chunk)
			switch {
			case n > MaxLine:
				fate = lineTooLong
			case n > freeLine && !s.hold(int64(n)-held):
				fate = lineRefused
			default:
				if n > freeLine {
					held = int64(n)
				}
				line = append(line, chunk...)
			}
			if fate != lineRead {
				s.held.Add(-held)
				line, held = nil, 0
			}
		}
		if err != bufio.ErrBufferFull {
			return line, held, fate, err
		}
	}
}

// hold charges n bytes to s.held if they fit under maxHeld.
func (s *Server) hold(n int64) bool {
	for {
		cur := s.held.Load()
		if cur+n > s.maxHeld {
			return false
		}
		if s.held.CompareAndSwap(cur, cur+n) {
			return true
		}
	}
}

// dispatch handles one line: a request, a notification or a batch; it
// calls release once it is done with the line.
func (cn *conn) dispatch(line []byte, release func()) {
	line = bytes.TrimSpace(line)
	if !json.Valid(line) {
		release()
		cn.send(response{JSONRPC: "2.0", ID: nullID, Error: errorf(CodeParse, "parse error: not a JSON value")})
		return
	}
	select {
	case cn.slots <- struct{}{}:
	case <-cn.ctx.Done():
		release()
		return
	}
	cn.wg.Add(1)
	go func() {
		defer cn.wg.Done()
		defer func() { <-cn.slots }()
		defer release()
		if line[0] != '[' {
			if r := cn.handle(line); r != nil {
				cn.send(r)
			}
			return
		}
		var batch []json.RawMessage
		json.Unmarshal(line, &batch)
		if len(batch) == 0 {
			cn.send(response{JSONRPC: "2.0", ID: nullID, Error: errorf(CodeInvalidRequest, "invalid request: an empty batch")})
			return
		}
		if len(batch) > maxBatch {
			cn.send(response{JSONRPC: "2.0", ID: nullID, Error: errorf(CodeInvalidRequest, "invalid request: a batch of more than %d requests", maxBatch)})
			return
		}
		var out []*response
		for _, raw := range batch {
			if r := cn.handle(raw); r != nil {
				out = append(out, r)
			}
		}
		if len(out) > 0 {
			cn.sendBatch(out)
		}
	}()
}

// handle answers one request; nil for a notification.
func (cn *conn) handle(raw json.RawMessage) *response {
	var req struct {
		JSONRPC any             `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  any             `json:"method"`
		Params  json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(raw, &req); err != nil || bytes.TrimSpace(raw)[0] != '{' {
		return &response{JSONRPC: "2.0", ID: nullID, Error: errorf(CodeInvalidRequest, "invalid request: not a request object")}
	}
	notify := req.ID == nil
	id := req.ID
	switch {
	case notify:
	case bytes.Equal(id, nullID):
	case id[0] == '"' || id[0] == '-' || (id[0] >= '0' && id[0] <= '9'):
	default:
		return &response{JSONRPC: "2.0", ID: nullID, Error: errorf(CodeInvalidRequest, "invalid request: id must be a string, a number or null")}
	}
	fail := func(e *Error) *response {
		if notify {
			return nil
		}
		return &response{JSONRPC: "2.0", ID: id, Error: e}
	}
	method, ok := req.Method.(string)
	switch {
	case req.JSONRPC != "2.0":
		return fail(errorf(CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`))
	case !ok:
		return fail(errorf(CodeInvalidRequest, `invalid request: "method" must be a string`))
	}
	if p := bytes.TrimSpace(req.Params); len(p) > 0 && p[0] != '{' && !bytes.Equal(p, nullID) {
		return fail(errorf(CodeInvalidParams, "invalid params: params must be an object"))
	}
	result, e := cn.call(method, id, notify, req.Params)
	if e != nil {
		return fail(e)
	}
	if notify {
		return nil
	}
	return &response{JSONRPC: "2.0", ID: id, Result: result}
}

// decodeParams decodes raw strictly: an object, no unknown fields.
// Methods without required params accept none.
func decodeParams(raw json.RawMessage, v any, required bool) *Error {
	if len(raw) == 0 || bytes.Equal(raw, nullID) {
		if required {
			return errorf(CodeInvalidParams, "invalid params: missing params")
		}
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return errorf(CodeInvalidParams, "invalid params: %s", paramsErrText(err))
	}
	return nil
}

// paramsErrText says why params did not decode in the protocol's words:
// encoding/json's "json: cannot unmarshal string into Go struct field
// OpenParams.inputs of type []string" named the server's Go types.
func paramsErrText(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Sprintf("%s: a JSON %s where %s is wanted", te.Field, te.Value, jsonKind(te.Type.String()))
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// jsonKind names the JSON value that decodes into a Go type, named as
// reflect does ("[]string", "int64", "sessionserver.Limits").
func jsonKind(goType string) string {
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	case goType == "string":
		return "a string"
	case goType == "bool":
		return "a boolean"
	case strings.HasPrefix(goType, "int"), strings.HasPrefix(goType, "uint"):
		return "an integer"
	case strings.HasPrefix(goType, "float"):
		return "a number"
	}
	return "an object"
}

func needSession(id string) *Error {
	if id == "" {
		return errorf(CodeInvalidParams, `invalid params: "session" is required`)
	}
	return nil
}

// call runs one method.
func (cn *conn) call(method string, id json.RawMessage, notify bool, raw json.RawMessage) (any, *Error) {
	s := cn.s
	switch method {
	case MethodPing:
		var p struct{}
		if e := decodeParams(raw, &p, false); e != nil {
			return nil, e
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		return PingResult{Sessions: len(s.sessions), MaxSessions: s.cfg.MaxSessions}, nil
	case MethodList:
		var p struct{}
		if e := decodeParams(raw, &p, false); e != nil {
			return nil, e
		}
		return ListResult{Sessions: s.list(cn)}, nil
	case MethodOpen:
		var p OpenParams
		if e := decodeParams(raw, &p, false); e != nil {
			return nil, e
		}
		sess, e := s.startSession(&p)
		if e != nil {
			return nil, e
		}
		sid, e := s.register(sess, p)
		if e != nil {
			return nil, e
		}
		cn.learn(sid)
		return OpenResult{Session: sid}, nil
	case MethodRun:
		var p RunParams
		if e := decodeParams(raw, &p, true); e != nil {
			return nil, e
		}
		if e := needSession(p.Session); e != nil {
			return nil, e
		}
		stream := (p.Stream == nil || *p.Stream) && !notify
		return cn.learned(p.Session)(cn.run(p, id, stream))
	case MethodCancel, MethodReset, MethodClose:
		var p SessionParams
		if e := decodeParams(raw, &p, true); e != nil {
			return nil, e
		}
		if e := needSession(p.Session); e != nil {
			return nil, e
		}
		switch method {
		case MethodCancel:
			return cn.learned(p.Session)(s.cancelRun(p.Session))
		case MethodReset:
			return cn.learned(p.Session)(s.reset(p.Session))
		}
		return s.closeSession(p.Session)
	case MethodSnapshot:
		var p SnapshotParams
		if e := decodeParams(raw, &p, true); e != nil {
			return nil, e
		}
		if e := needSession(p.Session); e != nil {
			return nil, e
		}
		return cn.learned(p.Session)(s.snapshot(cn.ctx, p))
	case MethodRestore:
		var p RestoreParams
		if e := decodeParams(raw, &p, true); e != nil {
			return nil, e
		}
		r, e := s.restore(cn.ctx, p)
		if e == nil {
			cn.learn(r.Session)
		}
		return r, e
	}
	return nil, errorf(CodeNoMethod, "method not found: %q", method)
}

// learned passes on a method's answer about the session id, recording
// that the connection holds id unless the session was not open.
func (cn *conn) learned(id string) func(any, *Error) (any, *Error) {
	return func(r any, e *Error) (any, *Error) {
		if e == nil || (e.Code != CodeNoSession && e.Code != CodeExpired) {
			cn.learn(id)
		}
		return r, e
	}
}

// noSession is the error for an ID that is not open; it holds mu.
func (s *Server) noSession(id string) *Error {
	switch why := s.gone[id]; {
	case strings.HasPrefix(why, "expired"):
		return errorf(CodeExpired, "session %q %s", id, why)
	case why != "":
		return errorf(CodeNoSession, "session %q was %s", id, why)
	}
	return errorf(CodeNoSession, "unknown session %q", id)
}

// acquire marks the session busy for a run, reset or snapshot; a session
// already busy is refused.
func (s *Server) acquire(id string) (*entry, *Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.sessions[id]
	switch {
	case e == nil:
		return nil, s.noSession(id)
	case e.busy > 0:
		return nil, errorf(CodeBusy, "session %q is busy (a run, reset or snapshot is in progress; cancel stops a run)", id)
	}
	e.busy++
	return e, nil
}

func (s *Server) release(e *entry) {
	s.mu.Lock()
	e.busy--
	e.run = nil
	e.last = s.cfg.Now()
	s.mu.Unlock()
	s.poke()
	if s.onFree != nil {
		s.onFree()
	}
}

// sessionErr is the protocol error of a failed session call.
func (s *Server) sessionErr(id string, err error) *Error {
	switch {
	case errors.Is(err, llmsh.ErrClosed):
		return errorf(CodeNoSession, "session %q was closed", id)
	case errors.Is(err, llmsh.ErrSnapshot):
		// the message names no program, as the others do not: a client
		// prefixes its own ("llmsh: session: llmsh: snapshot: …" was
		// llmsh session restore's line)
		return errorf(CodeSnapshot, "%s", strings.TrimPrefix(err.Error(), "llmsh: "))
	case s.ctx.Err() != nil:
		return errorf(CodeShuttingDown, "the server is shutting down")
	}
	return errorf(CodeSession, "%v", err)
}

// list describes the sessions that the connection cn holds.
func (s *Server) list(cn *conn) []SessionInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	cn.kmu.Lock()
	defer cn.kmu.Unlock()
	out := []SessionInfo{}
	for id := range cn.known {
		e := s.sessions[id]
		if e == nil {
			delete(cn.known, id) // closed or expired
			continue
		}
		out = append(out, SessionInfo{
			Session: id, Busy: e.busy > 0, Opened: e.opened, LastUse: e.last, Dir: e.sess.Dir(),
			Inputs: nonNil(e.opts.Inputs), Outputs: nonNil(e.opts.Outputs),
		})
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// startSession validates p and starts a session with it (not yet
// registered; it counts as pending meanwhile).
func (s *Server) startSession(p *OpenParams) (*llmsh.Session, *Error) {
	lim, err := p.Limits.shell()
	switch {
	case err != nil:
		return nil, errorf(CodeInvalidParams, "invalid params: %v", err)
	case p.Timeout < 0:
		return nil, errorf(CodeInvalidParams, "invalid params: timeout must not be negative")
	case p.MaxOutput < 0 || p.MaxOutput > MaxOutputLimit:
		return nil, errorf(CodeInvalidParams, "invalid params: max_output must be between 0 and %d", MaxOutputLimit)
	case p.MaxMemory < 0 || p.MaxMemory > llmsh.DefaultMaxMemory || p.MaxMemory > 0 && p.MaxMemory < llmsh.MinMaxMemory:
		return nil, errorf(CodeInvalidParams, "invalid params: max_memory must be 0 (the default) or between %d and %d", llmsh.MinMaxMemory, llmsh.DefaultMaxMemory)
	case p.MaxWrite < -1:
		return nil, errorf(CodeInvalidParams, "invalid params: max_write must be -1 (none), 0 (the default) or a number of bytes")
	case p.Dir != "" && !filepath.IsAbs(p.Dir):
		return nil, errorf(CodeInvalidParams, "invalid params: dir must be an absolute path")
	case grantBytes(p) > maxGrantBytes:
		return nil, errorf(CodeInvalidParams, "invalid params: the paths of inputs, outputs and dir take more than %d bytes", maxGrantBytes)
	}
	if p.MaxOutput == 0 {
		p.MaxOutput = DefaultMaxOutput
	}
	s.mu.Lock()
	switch {
	case s.closed:
		s.mu.Unlock()
		return nil, errorf(CodeShuttingDown, "the server is shutting down")
	case len(s.sessions)+s.pending >= s.cfg.MaxSessions:
		s.mu.Unlock()
		return nil, errorf(CodeTooMany, "too many sessions (at most %d open at once)", s.cfg.MaxSessions)
	}
	s.pending++
	s.mu.Unlock()
	sess, err := llmsh.New(llmsh.Options{
		Inputs: p.Inputs, Outputs: p.Outputs, Dir: p.Dir, Strict: p.Strict, Limits: lim,
		Timeout: time.Duration(p.Timeout), MaxOutput: p.MaxOutput, MaxMemory: p.MaxMemory, MaxWrite: p.MaxWrite,
		VfsdPath: s.cfg.VfsdPath, VfsdLog: s.cfg.VfsdLog,
		// Each session's shell in a confined process of its own: one
		// session's crash or heap cannot take the server down.
		Isolated: true,
	})
	if err != nil {
		s.mu.Lock()
		s.pending--
		s.mu.Unlock()
		return nil, errorf(CodeSession, "%v", err)
	}
	return sess, nil
}

// grantBytes is the length of the paths of p's grants and directory as
// list writes them (JSON strings: a control character takes six bytes).
func grantBytes(p *OpenParams) int {
	n := jsonLen(p.Dir)
	for _, g := range p.Inputs {
		n += jsonLen(g)
	}
	for _, g := range p.Outputs {
		n += jsonLen(g)
	}
	return n
}

// register makes a started session open under a new ID.
func (s *Server) register(sess *llmsh.Session, p OpenParams) (string, *Error) {
	s.mu.Lock()
	s.pending--
	if s.closed {
		s.mu.Unlock()
		sess.Close()
		return "", errorf(CodeShuttingDown, "the server is shutting down")
	}
	id := newID()
	now := s.cfg.Now()
	s.sessions[id] = &entry{sess: sess, opts: p, opened: now, last: now}
	s.mu.Unlock()
	s.poke()
	s.logf("session %s opened (inputs %q, outputs %q)", id, p.Inputs, p.Outputs)
	return id, nil
}

func (cn *conn) run(p RunParams, reqID json.RawMessage, stream bool) (any, *Error) {
	s := cn.s
	e, perr := s.acquire(p.Session)
	if perr != nil {
		return nil, perr
	}
	ctx, cancel := context.WithCancel(cn.ctx)
	defer cancel()
	s.mu.Lock()
	e.run = cancel
	s.mu.Unlock()
	released := false
	release := func() {
		if !released {
			released = true
			s.release(e)
		}
	}
	defer release()
	if s.onRun != nil {
		s.onRun()
	}
	var stdin io.Reader
	if p.Stdin != "" {
		stdin = strings.NewReader(p.Stdin)
	}
	var outs *outputs
	var stdout, stderr io.Writer
	if stream {
		outs = newOutputs(cn, OutputParams{ID: reqID, Session: p.Session})
		stdout, stderr = outs.writer("stdout"), outs.writer("stderr")
	}
	res, err := e.sess.RunStream(ctx, p.Script, stdin, stdout, stderr)
	if stream {
		// The session is free once its run is over; the answer waits
		// for the output notifications before it, however long the
		// client takes to read them.
		outs.flush()
		release()
		outs.wait()
	}
	cancelled := false
	if err != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) && s.ctx.Err() == nil {
		// cancel, or the client hung up (then nobody reads the answer).
		cancelled, err = true, nil
		res.ExitCode = 130
	}
	if err != nil {
		return nil, s.sessionErr(p.Session, err)
	}
	r := RunResult{
		Stdout: res.Stdout, Stderr: res.Stderr, ExitCode: res.ExitCode, Truncated: res.Truncated,
		DurationMS: res.Duration.Milliseconds(), VirtualFiles: nonNil(res.VirtualFiles),
		VirtualFilesOmitted: res.VirtualFilesOmitted, Cancelled: cancelled,
	}
	return r, nil
}

// outputs sends a run's output as output notifications. Writes are
// gathered into one notification until a newline, 64 KiB, the other
// stream's turn, or flushDelay after the first byte waiting (a prompt
// without a newline still shows); whole UTF-8 sequences only, as JSON
// strings cannot carry a split one.
//
// A goroutine of its own (send) writes them, so that a client that does
// not read holds up neither the run nor the session's worker (session
// 27, red team: the worker's run waited on its output, held by the
// connection's write, until its time limit, and then the worker was
// ended as stuck, losing the session). Notifications past maxQueued
// bytes waiting are dropped: the run's answer holds its output whole.
type outputs struct {
	mu     sync.Mutex
	cn     *conn
	params OutputParams
	pend   []byte
	timer  *time.Timer
	more   *sync.Cond // on mu: queued or ended
	queue  []queuedNote
	queued int  // bytes of queue's data
	ended  bool // the run is over: send ends with the queue
	done   chan struct{}
}

// queuedNote is a notification waiting, with the bytes of its data.
type queuedNote struct {
	n    notification
	size int
}

// maxQueued bounds the bytes of a run's output notifications waiting to
// be written: a connection's pending answers are held back at 1 MiB
// (connPending), and the answer holds the output anyway.
const maxQueued = 1 << 20

func newOutputs(cn *conn, params OutputParams) *outputs {
	o := &outputs{cn: cn, params: params, done: make(chan struct{})}
	o.more = sync.NewCond(&o.mu)
	go o.send()
	return o
}

// send writes the queued notifications until the run is over and the
// queue empty.
func (o *outputs) send() {
	defer close(o.done)
	o.mu.Lock()
	defer o.mu.Unlock()
	for {
		for len(o.queue) == 0 && !o.ended {
			o.more.Wait()
		}
		if len(o.queue) == 0 {
			return
		}
		q := o.queue[0]
		o.queue = o.queue[1:]
		o.queued -= q.size
		o.mu.Unlock()
		o.cn.send(q.n)
		o.mu.Lock()
	}
}

// wait waits until the notifications are written (or the connection
// hung up, which fails the writes at once).
func (o *outputs) wait() { <-o.done }

const flushDelay = 20 * time.Millisecond

func (o *outputs) writer(stream string) io.Writer {
	return writerFunc(func(p []byte) (int, error) {
		o.mu.Lock()
		defer o.mu.Unlock()
		if len(o.pend) > 0 && o.params.Stream != stream {
			o.flushLocked(true)
		}
		o.params.Stream = stream
		o.pend = append(o.pend, p...)
		switch {
		case len(o.pend) >= 64<<10 || bytes.HasSuffix(o.pend, []byte("\n")):
			o.flushLocked(false)
		case o.timer == nil:
			o.timer = time.AfterFunc(flushDelay, func() {
				o.mu.Lock()
				defer o.mu.Unlock()
				o.timer = nil
				o.flushLocked(false)
			})
		}
		return len(p), nil
	})
}

// flushLocked sends what waits, but a cut UTF-8 sequence at its end
// unless all.
func (o *outputs) flushLocked(all bool) {
	if o.timer != nil {
		o.timer.Stop()
		o.timer = nil
	}
	k := len(o.pend)
	for i := k - 1; !all && i >= 0 && i >= k-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(o.pend[i]) {
			if !utf8.FullRune(o.pend[i:]) {
				k = i
			}
			break
		}
	}
	if k > 0 && o.queued+k <= maxQueued {
		p := o.params
		p.Data = string(o.pend[:k])
		o.queue = append(o.queue, queuedNote{notification{JSONRPC: "2.0", Method: NotifyOutput, Params: p}, k})
		o.queued += k
		o.more.Signal()
	}
	o.pend = append(o.pend[:0], o.pend[k:]...)
}

// flush queues all that waits, at the end of the run, and lets send end
// once it is written.
func (o *outputs) flush() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.flushLocked(true)
	o.ended = true
	o.more.Signal()
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func (s *Server) cancelRun(id string) (any, *Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.sessions[id]
	if e == nil {
		return nil, s.noSession(id)
	}
	if e.run == nil {
		return CancelResult{}, nil
	}
	e.run()
	return CancelResult{Cancelled: true}, nil
}

func (s *Server) reset(id string) (any, *Error) {
	e, perr := s.acquire(id)
	if perr != nil {
		return nil, perr
	}
	defer s.release(e)
	if err := e.sess.Reset(); err != nil {
		return nil, s.sessionErr(id, err)
	}
	return struct{}{}, nil
}

func (s *Server) closeSession(id string) (any, *Error) {
	s.mu.Lock()
	e := s.sessions[id]
	if e == nil {
		defer s.mu.Unlock()
		return nil, s.noSession(id)
	}
	delete(s.sessions, id)
	s.forget(id, "closed")
	s.mu.Unlock()
	e.sess.Close()
	s.logf("session %s closed", id)
	return struct{}{}, nil
}

// inlineTooLarge ends the message of a snapshot refused inline.
const inlineTooLarge = "give a path to write it to"

// bulkWork admits one snapshot or restore at a time to the work that
// holds a snapshot's bytes in the server process, which has no memory
// guard: the snapshot of a session holding 437 MB (a 200 MB virtual file
// and a 150 MB variable, within a session's limits) took the server to
// 2.9 GB, a restore of it to 3.7 GB, and nothing bounded how many ran at
// once (session 22, red team). It returns the release, or an error once
// ctx is done or the server stops.
func (s *Server) bulkWork(ctx context.Context) (func(), *Error) {
	s.bulkWaiting.Add(1)
	select {
	case s.bulk <- struct{}{}:
		s.bulkWaiting.Add(-1)
	case <-ctx.Done():
		s.bulkWaiting.Add(-1)
		return nil, errorf(CodeShuttingDown, "cancelled: %v", context.Cause(ctx))
	}
	if s.onBulk != nil {
		s.onBulk()
	}
	return func() { <-s.bulk }, nil
}

func (s *Server) snapshot(ctx context.Context, p SnapshotParams) (any, *Error) {
	if p.Path != "" && !filepath.IsAbs(p.Path) {
		return nil, errorf(CodeInvalidParams, "invalid params: path must be absolute")
	}
	e, perr := s.acquire(p.Session)
	if perr != nil {
		return nil, perr
	}
	defer s.release(e)
	done, perr := s.bulkWork(ctx)
	if perr != nil {
		return nil, perr
	}
	defer done()
	snap, err := e.sess.Snapshot(ctx)
	if err != nil {
		return nil, s.sessionErr(p.Session, err)
	}
	if p.Path != "" {
		if err := writeNew(p.Path, snap); err != nil {
			return nil, errorf(CodeSnapshot, "writing the snapshot: %v", err)
		}
		return SnapshotResult{Path: p.Path, Bytes: len(snap)}, nil
	}
	compact := bytes.NewBuffer(make([]byte, 0, len(snap)))
	if err := json.Compact(compact, snap); err != nil {
		return nil, errorf(CodeInternal, "%v", err)
	}
	if compact.Len() > s.cfg.MaxInlineSnapshot {
		return nil, errorf(CodeSnapshot, "the snapshot takes %d bytes, more than %d inline: %s", compact.Len(), s.cfg.MaxInlineSnapshot, inlineTooLarge)
	}
	return SnapshotResult{Snapshot: compact.Bytes(), Bytes: compact.Len()}, nil
}

// writeNew writes a new file of mode 0600 (an existing one is refused).
func writeNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

// maxSnapshotFile bounds a snapshot file that restore reads.
const maxSnapshotFile = 1 << 30

func (s *Server) restore(ctx context.Context, p RestoreParams) (OpenResult, *Error) {
	snap := []byte(p.Snapshot)
	switch {
	case (len(snap) == 0) == (p.Path == ""):
		return OpenResult{}, errorf(CodeInvalidParams, `invalid params: give one of "snapshot" and "path"`)
	case p.Path != "" && !filepath.IsAbs(p.Path):
		return OpenResult{}, errorf(CodeInvalidParams, "invalid params: path must be absolute")
	}
	done, perr := s.bulkWork(ctx)
	if perr != nil {
		return OpenResult{}, perr
	}
	// The bulk work ends once the session's process has the bytes: the
	// state's text may run as long as a script (a crafted snapshot's
	// "sleep 1000" held every other client's snapshot and restore until
	// its client hung up; session 30, red team).
	var once sync.Once
	done = func(release func()) func() { return func() { once.Do(release) } }(done)
	defer done()
	if p.Path != "" {
		var err error
		if snap, err = readSnapshot(p.Path); err != nil {
			return OpenResult{}, errorf(CodeSnapshot, "%v", err)
		}
	}
	sess, perr := s.startSession(&p.OpenParams)
	if perr != nil {
		return OpenResult{}, perr
	}
	if err := sess.RestoreHanded(ctx, snap, done); err != nil {
		sess.Close()
		s.mu.Lock()
		s.pending--
		s.mu.Unlock()
		return OpenResult{}, s.sessionErr("", err)
	}
	id, perr := s.register(sess, p.OpenParams)
	if perr != nil {
		return OpenResult{}, perr
	}
	return OpenResult{Session: id}, nil
}

// readSnapshot reads a snapshot file of at most maxSnapshotFile bytes,
// into a buffer of its size (io.ReadAll's doubling held up to twice it).
// Only a regular file: a FIFO's open would wait for a writer for good,
// holding the bulk work of every client (O_NONBLOCK), and a device may
// never end.
func readSnapshot(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("reading the snapshot: %v", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("reading the snapshot: %v", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("reading the snapshot: %s is not a regular file", path)
	}
	size := min(fi.Size(), maxSnapshotFile)
	var b bytes.Buffer
	b.Grow(int(size) + bytes.MinRead) // ReadFrom keeps MinRead free
	if _, err := b.ReadFrom(io.LimitReader(f, maxSnapshotFile+1)); err != nil {
		return nil, fmt.Errorf("reading the snapshot: %v", err)
	}
	if b.Len() > maxSnapshotFile {
		return nil, fmt.Errorf("the snapshot file exceeds %d bytes", maxSnapshotFile)
	}
	return b.Bytes(), nil
}

func newID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
