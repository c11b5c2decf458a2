// Package vfsd is the I/O-only server of llmsh: it serves the FS Proxy
// Protocol (package vfsproto) to llmsh's clients, enforcing read and write
// allowlists with os.Root and keeping session-scoped virtual files and
// directories in memory (outside the grants, nothing else exists). It runs no program, opens no network connection and reads no
// environment variable.
//
// docs/architecture.md shows how the packages fit together.
package vfsd

import (
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/llmsh/llmsh/vfsproto"
)

// Config configures a Server.
type Config struct {
	Inputs          []string // -i: readable trees or files
	Outputs         []string // -o: writable (and readable) trees or files
	Strict          bool     // unlisted writes are E_PERM instead of virtual files
	MaxVirtualBytes int64    // total bytes of virtual files; 0 means DefaultMaxVirtualBytes
	// MaxVirtualNameBytes bounds the names of virtual files and
	// directories (their lengths plus a fixed cost per entry); 0 means
	// DefaultMaxVirtualNameBytes.
	MaxVirtualNameBytes int64
	// MaxVirtualEntries is the most virtual files and directories at
	// once; 0 means DefaultMaxVirtualEntries.
	MaxVirtualEntries int
	// MaxWriteBytes bounds the bytes the session adds to real files
	// under Outputs (writeBudget); 0 means no bound.
	MaxWriteBytes int64
	Log           io.Writer // if non-nil: one slog JSON line per request
	Dir           string    // base for relative paths; "" means the working directory
	// Hidden are files never opened, whatever the allowlists say (llmsh's
	// REPL history): E_PERM. They are matched by identity (device and
	// inode), so no other name or link reaches them; one that does not
	// exist when the server starts is ignored.
	Hidden []string
	// OnWork, if set, is called once, when work first starts on a
	// goroutine beside a client's reader (a worker, a handle's queue, a
	// read_shm_at): Main gives the Go runtime its default GOMAXPROCS
	// back there when llmsh started it on one.
	OnWork func()
}

// Server is one vfsd session: the allowlists, the virtual files and the
// counters shared by every client served by Serve.
type Server struct {
	cfg    Config
	pol    *policy
	virt   *virtualStore
	budget *writeBudget
	hidden []os.FileInfo // Config.Hidden, for os.SameFile
	log    *slog.Logger
	stats  counters
	onWork sync.Once // cfg.OnWork
	mu     sync.Mutex
	closed bool
	// started is when the session began: the modification time of the
	// standing directories while nothing changed them.
	started int64
}

// counters are the server's statistics, updated atomically.
type counters struct {
	opens, reads, writes, closes  atomic.Int64
	bytesIn, bytesOut, rejects    atomic.Int64
	requests, errors, openHandles atomic.Int64
}

// New validates cfg and opens an os.Root for every allowlisted path. A
// granted path that does not exist is a single file whose parent must
// exist.
func New(cfg Config) (*Server, error) {
	if cfg.MaxVirtualBytes < 0 || cfg.MaxVirtualNameBytes < 0 || cfg.MaxVirtualEntries < 0 {
		return nil, errors.New("vfsd: negative virtual budget")
	}
	if cfg.MaxWriteBytes < 0 {
		return nil, errors.New("vfsd: negative write budget")
	}
	base := cfg.Dir
	if base == "" || !filepath.IsAbs(base) {
		wd, err := syscall.Getwd()
		if err != nil {
			return nil, err
		}
		base = filepath.Join(wd, base)
	}
	base = filepath.Clean(base)
	pol, err := newPolicy(base, cfg.Inputs, cfg.Outputs)
	if err != nil {
		return nil, errors.New("vfsd: " + err.Error())
	}
	s := &Server{cfg: cfg, pol: pol, virt: newVirtualStore(cfg.MaxVirtualBytes, cfg.MaxVirtualNameBytes, cfg.MaxVirtualEntries),
		budget: newWriteBudget(cfg.MaxWriteBytes), started: time.Now().UnixNano()}
	for _, h := range cfg.Hidden {
		if fi, err := os.Stat(h); err == nil {
			s.hidden = append(s.hidden, fi)
		}
	}
	if cfg.Log != nil {
		s.log = slog.New(slog.NewJSONHandler(cfg.Log, nil))
	}
	return s, nil
}

// Stats returns a snapshot of the server's counters.
func (s *Server) Stats() vfsproto.StatsResult {
	files, dirs, bytes, names := s.virt.counts()
	return vfsproto.StatsResult{
		Opens:           s.stats.opens.Load(),
		Reads:           s.stats.reads.Load(),
		Writes:          s.stats.writes.Load(),
		Closes:          s.stats.closes.Load(),
		BytesIn:         s.stats.bytesIn.Load(),
		BytesOut:        s.stats.bytesOut.Load(),
		AllowlistReject: s.stats.rejects.Load(),
		Requests:        s.stats.requests.Load(),
		Errors:          s.stats.errors.Load(),
		OpenHandles:     s.stats.openHandles.Load(),
		VirtualFiles:    files,
		VirtualBytes:    bytes,
		VirtualDirs:     dirs,
		VirtualNames:    names,
	}
}

// Close releases the allowlisted roots and discards the virtual files. It
// must be called after every Serve has returned.
func (s *Server) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	s.virt.reset()
	return s.pol.close()
}
