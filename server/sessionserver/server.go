package sessionserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/llmsh/llmsh"
)

// Defaults of Config.
const (
	DefaultIdle         = 30 * time.Minute
	DefaultMaxSessions  = 16
	DefaultWriteTimeout = time.Minute
	// DefaultMaxInlineSnapshot is Config.MaxInlineSnapshot's default.
	DefaultMaxInlineSnapshot = MaxOutputLimit
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
	// MaxInlineSnapshot bounds a snapshot answered inline, as
	// MaxOutputLimit bounds a run's output: a larger one is refused
	// (CodeSnapshot; Client.SnapshotTo writes it to a path), and one of
	// this size fits a restore request. Zero: DefaultMaxInlineSnapshot.
	MaxInlineSnapshot int
	// WriteTimeout is how long a message to a client may take to send
	// (a client that does not read its answers and output blocks it);
	// past it the client is taken as gone: its connection is closed and
	// its runs cancelled. Zero: DefaultWriteTimeout.
	WriteTimeout time.Duration
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
	gone     map[string]string // why a recent session is gone: "closed", "expired …"
	goneIDs  []string          // gone's keys, oldest first (at most maxGone)
	pending  int               // sessions being opened
	conns    map[net.Conn]struct{}
	closed   bool
	ln       *net.UnixListener
	path     string      // the socket's path
	sock     os.FileInfo // the socket file as created, so that Close removes only ours

	closeOnce sync.Once
	closeErr  error

	// bulk admits one snapshot or restore at a time to the work that
	// holds a snapshot's bytes in this process (bulkWork).
	bulk        chan struct{}
	bulkWaiting atomic.Int32 // requests waiting for bulk (tests)

	// held is the bytes of large request lines (over freeLine) the
	// server holds, being read or in progress, across connections;
	// maxHeld bounds it (DefaultMaxHeld; tests lower it).
	held    atomic.Int64
	maxHeld int64
	// pend counts the small lines in progress and the answers not yet
	// written of every connection (pending.go).
	pend *pendingPool
	// maxConns bounds the connections served at once (DefaultMaxConns;
	// tests lower it).
	maxConns int

	onRun      func()          // test hook: a run is about to start
	onBulk     func()          // test hook: a snapshot or restore holds bulk
	onFree     func()          // test hook: a run, reset or snapshot has ended
	onExpire   func(id string) // test hook: a session expired
	onClosed   func()          // test hook: Close has closed the listener
	onPendWait func(n int64)   // test hook: a reader waits, its connection holding n bytes
}

// entry is one open session.
type entry struct {
	sess   *llmsh.Session
	opts   OpenParams
	opened time.Time
	last   time.Time          // end of the last request that used it
	busy   int                // requests in progress: never expired while nonzero
	run    context.CancelFunc // of the run in progress, nil if none
}

// maxGone bounds the closed and expired sessions whose fate the server
// remembers (an ID it has forgotten is "unknown").
const maxGone = 4096

// forget records why the session id is gone; it holds mu.
func (s *Server) forget(id, why string) {
	if len(s.goneIDs) >= maxGone {
		delete(s.gone, s.goneIDs[0])
		s.goneIDs = s.goneIDs[1:]
	}
	s.gone[id] = why
	s.goneIDs = append(s.goneIDs, id)
}

// New returns a server with cfg; Listen and Serve start it.
func New(cfg Config) *Server {
	if cfg.Idle <= 0 {
		cfg.Idle = DefaultIdle
	}
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = DefaultMaxSessions
	}
	if cfg.MaxInlineSnapshot <= 0 {
		cfg.MaxInlineSnapshot = DefaultMaxInlineSnapshot
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = DefaultWriteTimeout
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Server{
		cfg: cfg, uid: os.Getuid(), ctx: ctx, cancel: cancel,
		kick: make(chan struct{}, 1), done: make(chan struct{}),
		sessions: map[string]*entry{}, gone: map[string]string{}, conns: map[net.Conn]struct{}{},
		bulk: make(chan struct{}, 1), maxHeld: DefaultMaxHeld, maxConns: DefaultMaxConns,
		pend: newPendingPool(DefaultMaxPending),
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
		if len(s.conns) >= s.maxConns {
			s.mu.Unlock()
			refuseConn(c, s.maxConns) // a small line: the new socket's buffer is empty
			continue
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

// DefaultMaxConns bounds the connections the server serves at once: each
// costs a goroutine, a descriptor and a 64 KiB read buffer, and nothing
// bounded them (session 24, red team; the Go runtime raises the
// descriptor limit to its hard limit, here a million).
const DefaultMaxConns = 1024

// refuseConn answers a connection past maxConns with one CodeServerBusy
// error (id null) and closes it.
func refuseConn(c net.Conn, max int) {
	defer c.Close()
	b, _ := json.Marshal(response{JSONRPC: "2.0", ID: nullID,
		Error: errorf(CodeServerBusy, "server busy: %d connections are open; connect again later", max)})
	c.SetWriteDeadline(time.Now().Add(time.Second))
	c.Write(append(b, '\n'))
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
	// The socket goes while it still listens: a server started at the
	// same path meanwhile sees it live and leaves it, and finds no file
	// once it is gone. Removed after the listener closed (and the
	// sessions), it was a stale socket that a new server replaced, whose
	// new file took the freed inode, so SameFile held and this removed
	// the new server's socket (session 30, red team: kill, then start
	// again at once, left a running server nobody could reach, 3 in 3).
	var rmErr error
	if path != "" {
		if fi, err := os.Lstat(path); err == nil && os.SameFile(fi, sock) {
			rmErr = os.Remove(path)
		}
	}
	close(s.done)
	s.cancel()
	if ln != nil {
		ln.Close()
	}
	if s.onClosed != nil {
		s.onClosed()
	}
	for _, c := range conns {
		c.Close()
	}
	for id, e := range ents {
		e.sess.Close()
		s.logf("session %s closed at shutdown", id)
	}
	s.wg.Wait()
	return rmErr
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
			s.forget(id, fmt.Sprintf("expired (unused for %s)", s.cfg.Idle))
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
