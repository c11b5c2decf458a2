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
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/llmsh/llmsh"
	"github.com/llmsh/llmsh/vfsproto"
)

// Defaults of Config.
const (
	DefaultIdle        = 30 * time.Minute
	DefaultMaxSessions = 16
)

// Config configures a Server. Every session the server opens runs with
// the grants its client asks for: the server's uid is the only limit, so
// the socket admits that uid alone.
type Config struct {
	// Idle is how long a session may go unused before it is closed;
	// zero: DefaultIdle.
	Idle time.Duration
	// MaxSessions bounds the sessions open at once; zero:
	// DefaultMaxSessions.
	MaxSessions int
	// VfsdPath and VfsdLog are passed to every session (llmsh.Options).
	VfsdPath, VfsdLog string
	// Now is the clock that idle expiry reads; nil: time.Now. Tests set
	// it and call ExpireIdle.
	Now func() time.Time
	// Log receives one line per session event; nil: none.
	Log io.Writer
}

// A Server keeps sessions for the clients of one Unix socket.
type Server struct {
	cfg Config
	uid int

	ctx    context.Context // ends the runs in progress at Close
	cancel context.CancelFunc
	kick   chan struct{} // wakes the reaper when idle times change
	done   chan struct{} // closed by Close
	wg     sync.WaitGroup

	mu       sync.Mutex
	sessions map[string]*entry
	pending  int // sessions being opened
	conns    map[net.Conn]struct{}
	closed   bool
	ln       *net.UnixListener
	path     string      // the socket's path
	sock     os.FileInfo // the socket file as created, so that Close removes only ours

	closeOnce sync.Once
	closeErr  error

	onRun    func()          // test hook: a run is about to start
	onExpire func(id string) // test hook: a session expired
}

// entry is one open session.
type entry struct {
	sess *llmsh.Session
	last time.Time // end of the last request that used it
	busy int       // runs in progress: never expired while nonzero
}

// New returns a server with cfg; Listen and Serve start it.
func New(cfg Config) *Server {
	if cfg.Idle <= 0 {
		cfg.Idle = DefaultIdle
	}
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = DefaultMaxSessions
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Server{
		cfg: cfg, uid: os.Getuid(), ctx: ctx, cancel: cancel,
		kick: make(chan struct{}, 1), done: make(chan struct{}),
		sessions: map[string]*entry{}, conns: map[net.Conn]struct{}{},
	}
}

func (s *Server) logf(format string, args ...any) {
	if s.cfg.Log != nil {
		fmt.Fprintf(s.cfg.Log, "llmsh serve: "+format+"\n", args...)
	}
}

// Listen creates the socket at path, mode 0600, without a window in which
// another user could connect: it is bound inside a fresh directory of mode
// 0700 beside path, given mode 0600 there, and hard-linked to path (link
// never replaces an existing file). An existing path is refused unless it
// is a stale socket (one that refuses connections), which is removed.
func (s *Server) Listen(path string) error {
	path = filepath.Clean(path)
	if err := clearStale(path); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(path), ".llmsh-serve-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	tpath := filepath.Join(tmp, "sock")
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: tpath, Net: "unix"})
	if err != nil {
		return err
	}
	ln.SetUnlinkOnClose(false)
	if err := os.Chmod(tpath, 0o600); err != nil {
		ln.Close()
		return err
	}
	if err := os.Link(tpath, path); err != nil {
		ln.Close()
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("%s: file exists", path)
		}
		return err
	}
	fi, err := os.Lstat(path)
	if err != nil {
		ln.Close()
		return err
	}
	s.mu.Lock()
	s.ln, s.path, s.sock = ln, path, fi
	s.mu.Unlock()
	return nil
}

// clearStale removes path if it is a socket that nobody listens on, and
// fails if it exists otherwise.
func clearStale(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if fi.Mode()&os.ModeSocket == 0 {
		return fmt.Errorf("%s exists and is not a socket", path)
	}
	c, err := net.Dial("unix", path)
	if err == nil {
		c.Close()
		return fmt.Errorf("%s: a server is already listening", path)
	}
	if !errors.Is(err, syscall.ECONNREFUSED) {
		return fmt.Errorf("%s exists: %w", path, err)
	}
	return os.Remove(path)
}

// Serve accepts connections until Close; it returns nil after Close.
func (s *Server) Serve() error {
	s.mu.Lock()
	ln := s.ln
	if ln == nil {
		s.mu.Unlock()
		return errors.New("sessionserver: Serve before Listen")
	}
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	// Added under mu, after the closed check: Close sets closed under mu
	// before it waits, so this Add never races with that Wait.
	s.wg.Add(1)
	s.mu.Unlock()
	go s.reap()
	for {
		c, err := ln.Accept()
		if err != nil {
			select {
			case <-s.done:
				return nil
			default:
			}
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				continue
			}
			return err
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			c.Close()
			return nil
		}
		s.conns[c] = struct{}{}
		s.wg.Add(1)
		s.mu.Unlock()
		go func() {
			defer s.wg.Done()
			s.serveConn(c)
			s.mu.Lock()
			delete(s.conns, c)
			s.mu.Unlock()
		}()
	}
}

// Close stops the server: no more connections, every session closed (their
// vfsd exit, runs in progress are cancelled), the socket removed. Every
// call returns when that is done.
func (s *Server) Close() error {
	s.closeOnce.Do(func() { s.closeErr = s.close() })
	return s.closeErr
}

func (s *Server) close() error {
	s.mu.Lock()
	s.closed = true
	ents := s.sessions
	s.sessions = map[string]*entry{}
	conns := make([]net.Conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	ln, path, sock := s.ln, s.path, s.sock
	s.mu.Unlock()
	close(s.done)
	s.cancel()
	if ln != nil {
		ln.Close()
	}
	for _, c := range conns {
		c.Close()
	}
	for id, e := range ents {
		e.sess.Close()
		s.logf("session %s closed at shutdown", id)
	}
	s.wg.Wait()
	if path != "" {
		if fi, err := os.Lstat(path); err == nil && os.SameFile(fi, sock) {
			return os.Remove(path)
		}
	}
	return nil
}

// Sessions is the number of open sessions.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

// ExpireIdle closes the sessions that have been idle for Config.Idle or
// longer by Config.Now, and returns how many it closed. A timer calls it;
// tests call it after moving their clock.
func (s *Server) ExpireIdle() int {
	now := s.cfg.Now()
	var old []*entry
	var ids []string
	s.mu.Lock()
	for id, e := range s.sessions {
		if e.busy == 0 && now.Sub(e.last) >= s.cfg.Idle {
			old = append(old, e)
			ids = append(ids, id)
			delete(s.sessions, id)
		}
	}
	s.mu.Unlock()
	for i, e := range old {
		e.sess.Close()
		s.logf("session %s expired (idle %s)", ids[i], s.cfg.Idle)
		if s.onExpire != nil {
			s.onExpire(ids[i])
		}
	}
	return len(old)
}

// nextExpiry is how long until the first idle session expires (Idle when
// none is idle).
func (s *Server) nextExpiry() time.Duration {
	now := s.cfg.Now()
	next := s.cfg.Idle
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range s.sessions {
		if e.busy == 0 {
			if d := e.last.Add(s.cfg.Idle).Sub(now); d < next {
				next = d
			}
		}
	}
	return max(next, 0)
}

// reap expires idle sessions when their time comes.
func (s *Server) reap() {
	defer s.wg.Done()
	t := time.NewTimer(s.nextExpiry())
	defer t.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-s.kick:
		case <-t.C:
			s.ExpireIdle()
		}
		t.Reset(s.nextExpiry())
	}
}

func (s *Server) poke() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// serveConn answers one client's requests in order until it hangs up.
func (s *Server) serveConn(c net.Conn) {
	defer c.Close()
	cred, err := peerCred(c)
	if err == nil {
		err = checkPeer(cred, s.uid)
	}
	if err != nil {
		s.logf("connection refused: %v", err)
		writeResp(c, failure("", EPeer, err.Error()))
		return
	}
	br := bufio.NewReader(c)
	var buf []byte
	for {
		frame, err := vfsproto.ReadFrame(br, buf)
		if err != nil {
			if errors.Is(err, vfsproto.ErrFrameTooLarge) {
				writeResp(c, failure("", EFrame, fmt.Sprintf("frame exceeds %d bytes; closing the connection", vfsproto.MaxFrame)))
			}
			return
		}
		buf = frame[:cap(frame)]
		if err := writeResp(c, s.handle(frame)); err != nil {
			return
		}
	}
}

func writeResp(w io.Writer, r vfsproto.Response) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return vfsproto.WriteFrame(w, b)
}

func failure(id string, code vfsproto.Code, msg string) vfsproto.Response {
	return vfsproto.Response{ID: id, Error: vfsproto.Errorf(code, "%s", msg)}
}

func success(id string, v any) vfsproto.Response {
	b, err := json.Marshal(v)
	if err != nil {
		return failure(id, ESession, err.Error())
	}
	return vfsproto.Response{ID: id, OK: true, Result: b}
}

// decodeParams decodes raw strictly: an object, no unknown fields.
func decodeParams(raw json.RawMessage, v any) error {
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return errors.New("missing params")
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("invalid params: %v", err)
	}
	return nil
}

// handle answers one request frame.
func (s *Server) handle(frame []byte) vfsproto.Response {
	var req vfsproto.Request
	if err := json.Unmarshal(frame, &req); err != nil {
		return failure("", EArg, "malformed request: not a JSON request object")
	}
	switch req.Op {
	case MethodOpen:
		var p OpenParams
		if err := decodeParams(req.Params, &p); err != nil {
			return failure(req.ID, EArg, err.Error())
		}
		id, code, err := s.open(p)
		if err != nil {
			return failure(req.ID, code, err.Error())
		}
		return success(req.ID, OpenResult{Session: id})
	case MethodRun:
		var p RunParams
		if err := decodeParams(req.Params, &p); err != nil {
			return failure(req.ID, EArg, err.Error())
		}
		res, code, err := s.run(p)
		if err != nil {
			return failure(req.ID, code, err.Error())
		}
		return success(req.ID, res)
	case MethodClose:
		var p CloseParams
		if err := decodeParams(req.Params, &p); err != nil {
			return failure(req.ID, EArg, err.Error())
		}
		s.mu.Lock()
		e := s.sessions[p.Session]
		delete(s.sessions, p.Session)
		s.mu.Unlock()
		if e == nil {
			return failure(req.ID, ENoSession, fmt.Sprintf("unknown session %q", p.Session))
		}
		e.sess.Close()
		s.logf("session %s closed", p.Session)
		return success(req.ID, struct{}{})
	}
	return failure(req.ID, EUnsupported, fmt.Sprintf("unknown method %q", req.Op))
}

func (s *Server) open(p OpenParams) (string, vfsproto.Code, error) {
	lim, err := p.Limits.shell()
	switch {
	case err != nil:
		return "", EArg, err
	case p.Timeout < 0:
		return "", EArg, errors.New("timeout must not be negative")
	case p.MaxOutput < 0 || p.MaxOutput > MaxOutputLimit:
		return "", EArg, fmt.Errorf("max_output must be between 0 and %d", MaxOutputLimit)
	case p.MaxMemory < 0 || p.MaxMemory > llmsh.DefaultMaxMemory:
		return "", EArg, fmt.Errorf("max_memory must be between 0 and %d", llmsh.DefaultMaxMemory)
	case p.Dir != "" && !filepath.IsAbs(p.Dir):
		return "", EArg, errors.New("dir must be an absolute path")
	}
	if p.MaxOutput == 0 {
		p.MaxOutput = DefaultMaxOutput
	}
	s.mu.Lock()
	switch {
	case s.closed:
		s.mu.Unlock()
		return "", EShuttingDown, errors.New("the server is shutting down")
	case len(s.sessions)+s.pending >= s.cfg.MaxSessions:
		s.mu.Unlock()
		return "", ETooMany, fmt.Errorf("too many sessions (at most %d open at once)", s.cfg.MaxSessions)
	}
	s.pending++
	s.mu.Unlock()
	sess, err := llmsh.New(llmsh.Options{
		Inputs: p.Inputs, Outputs: p.Outputs, Dir: p.Dir, Strict: p.Strict, Limits: lim,
		Timeout: time.Duration(p.Timeout), MaxOutput: p.MaxOutput, MaxMemory: p.MaxMemory,
		VfsdPath: s.cfg.VfsdPath, VfsdLog: s.cfg.VfsdLog,
		// Each session's shell in a confined process of its own: one
		// session's crash or heap cannot take the server down.
		Isolated: true,
	})
	s.mu.Lock()
	s.pending--
	if err != nil {
		s.mu.Unlock()
		return "", ESession, err
	}
	if s.closed {
		s.mu.Unlock()
		sess.Close()
		return "", EShuttingDown, errors.New("the server is shutting down")
	}
	id := newID()
	s.sessions[id] = &entry{sess: sess, last: s.cfg.Now()}
	s.mu.Unlock()
	s.poke()
	s.logf("session %s opened (inputs %q, outputs %q)", id, p.Inputs, p.Outputs)
	return id, "", nil
}

func (s *Server) run(p RunParams) (RunResult, vfsproto.Code, error) {
	s.mu.Lock()
	e := s.sessions[p.Session]
	if e == nil {
		s.mu.Unlock()
		return RunResult{}, ENoSession, fmt.Errorf("unknown session %q", p.Session)
	}
	e.busy++
	s.mu.Unlock()
	if s.onRun != nil {
		s.onRun()
	}
	var stdin io.Reader
	if p.Stdin != "" {
		stdin = strings.NewReader(p.Stdin)
	}
	res, err := e.sess.Run(s.ctx, p.Script, stdin)
	s.mu.Lock()
	e.busy--
	e.last = s.cfg.Now()
	s.mu.Unlock()
	s.poke()
	switch {
	case errors.Is(err, llmsh.ErrClosed):
		return RunResult{}, ENoSession, fmt.Errorf("session %q was closed", p.Session)
	case errors.Is(err, llmsh.ErrVfsdGone), errors.Is(err, llmsh.ErrCrashed):
		return RunResult{}, ESession, err
	case err != nil:
		return RunResult{}, EShuttingDown, err
	}
	out := RunResult{
		Stdout: res.Stdout, Stderr: res.Stderr, ExitCode: res.ExitCode, Truncated: res.Truncated,
		DurationMS: res.Duration.Milliseconds(), VirtualFiles: res.VirtualFiles,
		VirtualFilesOmitted: res.VirtualFilesOmitted,
	}
	if out.VirtualFiles == nil {
		out.VirtualFiles = []string{}
	}
	fit(&out)
	return out, "", nil
}

// fit trims the output of r until its answer fits in one frame (JSON
// escapes can make it up to six times the bytes kept), and marks it
// truncated if it had to.
func fit(r *RunResult) {
	const room = vfsproto.MaxFrame - 4<<10
	for {
		b, err := json.Marshal(r)
		if err != nil || len(b) <= room {
			return
		}
		r.Truncated = true
		if len(r.Stdout) >= len(r.Stderr) {
			r.Stdout = cutHalf(r.Stdout)
		} else {
			r.Stderr = cutHalf(r.Stderr)
		}
	}
}

// cutHalf keeps the first half of s, whole runes only.
func cutHalf(s string) string {
	n := len(s) / 2
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func newID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
