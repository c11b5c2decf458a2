package llmsh

// Isolated sessions: the shell in a child process of its own (the worker),
// confined as the llmsh command confines itself, so that a crash, a
// runaway heap or a breach of the interpreter is that one session's.
//
// The parent (Session with Options.Isolated) and the worker speak JSON
// values over a Unix socket pair, one request and one response per call,
// matched by id. A Run's standard input travels as a descriptor (the read
// end of a pipe the parent feeds), attached to a newline written just
// before the run request (JSON ignores the newline). The worker runs an
// ordinary in-process Session with the same options; the parent only
// relays.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/llmsh/llmsh/builtins"
	"github.com/llmsh/llmsh/internal/memguard"
	"github.com/llmsh/llmsh/internal/sandbox"
	"github.com/llmsh/llmsh/internal/stuck"
	"github.com/llmsh/llmsh/internal/vfsdproc"
)

// DefaultMaxMemory is an isolated session's heap limit when
// Options.MaxMemory is zero.
const DefaultMaxMemory = memguard.Default

// MinMaxMemory is the smallest MaxMemory that the command line and serve
// take: under about 512 KiB a session's own state is over the limit and
// no script runs (session 32: `exit 4` ended 125).
const MinMaxMemory = 1 << 20

// ErrCrashed is returned (wrapped) by Run, ReadFile, ReadDir and Stat of an
// isolated session whose process has died (a stack overflow, the kernel's
// out-of-memory killer): the session is gone, and Reset starts a new one.
// Other sessions are not affected.
var ErrCrashed = errors.New("llmsh: the session's process died")

// cancelGrace is how long a Restore past its limit, or a closed worker,
// may take to answer before the worker is killed, and the window in
// which a cancelled Run's worker that uses no CPU is (awaitCancelled).
const cancelGrace = 10 * time.Second

type workerReq struct {
	ID     int64    `json:"id"`
	Op     string   `json:"op"` // open, run, cancel, readfile, readdir, stat, snapshot, apply, virtual
	Opts   *Options `json:"opts,omitempty"`
	Script string   `json:"script,omitempty"`
	Name   string   `json:"name,omitempty"`
	Run    int64    `json:"run,omitempty"`  // cancel: the id of the run
	Data   []byte   `json:"data,omitempty"` // apply: the snapshot
	Max    int64    `json:"max,omitempty"`  // readfile: ReadFileMax's bound (-1: none)
	// run: RunOptions but Stdin, the writers and OnStop; Live asks for
	// the output as it is written (bits 1: stdout, 2: stderr), for the
	// stop (4: OnStop), or (8) for RunStream's: the output streamed and
	// kept in the Result too.
	RunOpts *RunOptions `json:"run_opts,omitempty"`
	Live    int         `json:"live,omitempty"`
}

type workerResp struct {
	ID     int64      `json:"id"`
	Err    string     `json:"err,omitempty"`
	Kind   string     `json:"kind,omitempty"` // of Err: closed, vfsd, canceled, notexist, perm, errno, other; crashed (parent only)
	Errno  int        `json:"errno,omitempty"`
	Result *Result    `json:"result,omitempty"`
	Data   []byte     `json:"data,omitempty"`
	Infos  []fileInfo `json:"infos,omitempty"`
	// Stream: Data is output of run ID as it was written, on stdout (1)
	// or stderr (2); 3: the run was stopped, Err names the cause (time,
	// output, memory, vfsd). The run's answer comes later.
	Stream int `json:"stream,omitempty"`
}

// fileInfo is an fs.FileInfo on the wire.
type fileInfo struct {
	FName string      `json:"name"`
	FSize int64       `json:"size"`
	FMode fs.FileMode `json:"mode"`
	FTime time.Time   `json:"mtime"`
}

func (f *fileInfo) Name() string       { return f.FName }
func (f *fileInfo) Size() int64        { return f.FSize }
func (f *fileInfo) Mode() fs.FileMode  { return f.FMode }
func (f *fileInfo) ModTime() time.Time { return f.FTime }
func (f *fileInfo) IsDir() bool        { return f.FMode.IsDir() }
func (f *fileInfo) Sys() any           { return nil }

func wireInfo(fi fs.FileInfo) fileInfo {
	return fileInfo{FName: fi.Name(), FSize: fi.Size(), FMode: fi.Mode(), FTime: fi.ModTime()}
}

// errKind describes err for the wire.
func errKind(err error, r *workerResp) {
	r.Err, r.Kind = err.Error(), "other"
	var errno syscall.Errno
	switch {
	case errors.Is(err, ErrClosed):
		r.Kind = "closed"
	case errors.Is(err, ErrVfsdGone):
		r.Kind = "vfsd"
	case errors.Is(err, ErrGrantRefused):
		r.Kind = "grant"
	case errors.Is(err, ErrSnapshot):
		r.Kind = "snapshot"
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		r.Kind = "canceled"
	case errors.As(err, &errno):
		r.Kind, r.Errno = "errno", int(errno)
	case errors.Is(err, fs.ErrNotExist):
		r.Kind = "notexist"
	case errors.Is(err, fs.ErrPermission):
		r.Kind = "perm"
	}
}

// pathErr is the error of a file call as the worker described it: an
// *fs.PathError whose Err is what the in-process call's would match.
func (r *workerResp) pathErr(op, name string) error {
	var e error
	switch r.Kind {
	case "errno":
		e = syscall.Errno(r.Errno)
	case "notexist":
		e = fs.ErrNotExist
	case "perm":
		e = fs.ErrPermission
	default:
		return r.err()
	}
	return &fs.PathError{Op: op, Path: name, Err: e}
}

// err is the error of a call that is not about a file.
func (r *workerResp) err() error {
	switch r.Kind {
	case "":
		return nil
	case "closed":
		return ErrClosed
	case "vfsd":
		return fmt.Errorf("%w (%s)", ErrVfsdGone, r.Err)
	case "grant":
		return fmt.Errorf("%w: %s", ErrGrantRefused, strings.TrimPrefix(r.Err, ErrGrantRefused.Error()+": "))
	case "crashed":
		return fmt.Errorf("%w: %s (Reset starts a new session)", ErrCrashed, r.Err)
	case "errno":
		return wrappedErr{r.Err, syscall.Errno(r.Errno)}
	case "notexist":
		return wrappedErr{r.Err, fs.ErrNotExist}
	case "perm":
		return wrappedErr{r.Err, fs.ErrPermission}
	}
	return errors.New(r.Err)
}

// wrappedErr is an error the worker described: its text, and what the
// in-process error wrapped (errors.Is(err, fs.ErrNotExist) holds for a
// vfsd that cannot be started in either).
type wrappedErr struct {
	msg string
	err error
}

func (e wrappedErr) Error() string { return e.msg }
func (e wrappedErr) Unwrap() error { return e.err }

// isoProc is the parent's side of a worker.
type isoProc struct {
	w    *vfsdproc.Worker
	wmu  sync.Mutex // serialises writes to the socket
	enc  *json.Encoder
	mu   sync.Mutex
	next int64
	wait map[int64]chan workerResp
	live map[int64]liveRun // the writers of a run's live output, its OnStop
	dead bool              // the reader has ended: every call answers "crashed"
	done chan struct{}     // closed when the reader ends
}

// startIsolated starts a worker and opens the session in it.
func startIsolated(opts Options, dir string) (*isoProc, error) {
	w, err := vfsdproc.StartWorker(dir)
	if err != nil {
		return nil, fmt.Errorf("llmsh: %w", err)
	}
	p := &isoProc{w: w, enc: json.NewEncoder(w.Conn), wait: map[int64]chan workerResp{}, live: map[int64]liveRun{}, done: make(chan struct{})}
	go p.read()
	o := opts
	o.Dir, o.Isolated = dir, false
	resp := p.call(workerReq{Op: "open", Opts: &o})
	if resp.Kind != "" {
		p.close()
		if resp.Kind == "crashed" {
			return nil, fmt.Errorf("llmsh: the session's process did not start: %s", resp.Err)
		}
		return nil, resp.err()
	}
	return p, nil
}

// read delivers the worker's answers to their callers until the socket
// ends; then every call waiting or to come answers "crashed".
func (p *isoProc) read() {
	dec := json.NewDecoder(p.w.Conn)
	for {
		var r workerResp
		if err := dec.Decode(&r); err != nil {
			break
		}
		p.mu.Lock()
		if r.Stream != 0 {
			lr := p.live[r.ID]
			p.mu.Unlock()
			switch {
			case r.Stream == 1 && lr.stdout != nil:
				lr.stdout.Write(r.Data)
			case r.Stream == 2 && lr.stderr != nil:
				lr.stderr.Write(r.Data)
			case r.Stream == 3 && lr.onStop != nil && stopCauses[r.Err] != nil:
				lr.onStop(stopCauses[r.Err])
			}
			continue
		}
		ch := p.wait[r.ID]
		delete(p.wait, r.ID)
		delete(p.live, r.ID)
		p.mu.Unlock()
		if ch != nil {
			ch <- r
		}
	}
	p.w.Conn.Close()
	<-p.w.Done() // the process has exited: its stderr is whole
	reason := p.w.Reason()
	p.mu.Lock()
	p.dead = true
	for id, ch := range p.wait {
		ch <- workerResp{ID: id, Kind: "crashed", Err: reason}
		delete(p.wait, id)
	}
	p.mu.Unlock()
	close(p.done)
}

// send writes req (with the descriptor fd attached, if not nil) and
// returns the channel its answer comes on.
func (p *isoProc) send(req workerReq, fd *os.File, live ...liveRun) chan workerResp {
	ch := make(chan workerResp, 1)
	p.mu.Lock()
	if p.dead {
		p.mu.Unlock()
		ch <- workerResp{Kind: "crashed", Err: p.w.Reason()}
		return ch
	}
	p.next++
	req.ID = p.next
	p.wait[req.ID] = ch
	if len(live) == 1 {
		p.live[req.ID] = live[0]
	}
	p.mu.Unlock()
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if fd != nil {
		// The descriptor rides on a newline that the decoder skips.
		if _, _, err := p.w.Conn.WriteMsgUnix([]byte("\n"), syscall.UnixRights(int(fd.Fd())), nil); err != nil {
			p.w.Kill()
			return ch // the reader answers "crashed"
		}
	}
	if err := p.enc.Encode(req); err != nil {
		p.w.Kill()
	}
	return ch
}

// call sends req (without a descriptor) and waits for its answer.
func (p *isoProc) call(req workerReq) workerResp {
	return <-p.send(req, nil)
}

// apply relays a Restore's snapshot to the worker, which applies it
// within limit (the session's Timeout; zero: none). When ctx ends first,
// or the worker has not answered cancelGrace after limit (stuck in work
// that does not look at its context), it is killed: the restore fails and
// the caller starts the session over. sent is called once the worker
// has been sent snap.
func (p *isoProc) apply(ctx context.Context, snap []byte, limit time.Duration, sent func()) error {
	ch := p.send(workerReq{Op: "apply", Data: snap}, nil)
	sent()
	var expired <-chan time.Time
	if limit > 0 {
		t := time.NewTimer(limit + cancelGrace)
		defer t.Stop()
		expired = t.C
	}
	select {
	case r := <-ch:
		return r.snapErr()
	case <-ctx.Done():
		p.w.Kill()
		<-ch
		return context.Cause(ctx)
	case <-expired:
		p.w.Kill()
		<-ch
		return restoreTimedOut(limit)
	}
}

// run relays a Run: when ctx ends first, the worker is told to cancel it,
// and killed if it does not answer (awaitCancelled).
func (p *isoProc) run(ctx context.Context, req workerReq, stdin *os.File, live liveRun) workerResp {
	ch := p.send(req, stdin, live)
	p.mu.Lock()
	id := p.next
	p.mu.Unlock()
	select {
	case r := <-ch:
		return r
	case <-ctx.Done():
	}
	p.send(workerReq{Op: "cancel", Run: id}, nil)
	return p.awaitCancelled(ch)
}

// awaitCancelled waits for the answer ch of a cancelled Run. The worker
// ends itself when the Run is stuck (stuck.Wait); it is killed here
// only once it has spent twice that budget of CPU since the cancel, or
// a window of cancelGrace has passed in which it used next to none (its
// own watch failed): the worker's CPU, not the wall-clock time, so that
// a worker finishing a step on a loaded machine is not killed (session
// 28: a Run cancelled at load 40, a twentieth of a CPU, had 10 s of wall
// time for what takes half a second of CPU).
func (p *isoProc) awaitCancelled(ch <-chan workerResp) workerResp {
	meter, end := stuck.MeterOf(p.w.Pid())
	defer end()
	wall, cpu, ready := meter()
	j := stuck.NewJudgeFor(wall, cpu, ready, 2*stuck.Grace, cancelGrace)
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case r := <-ch:
			return r
		case <-t.C:
			if j.Stuck(meter()) {
				p.w.Kill()
				return <-ch
			}
		}
	}
}

// close ends the worker: its session sees the socket's end, closes (vfsd
// exits, the virtual files are gone) and the process exits. One that does
// not within cancelGrace is killed.
func (p *isoProc) close() error {
	p.w.Conn.CloseWrite()
	t := time.NewTimer(cancelGrace)
	defer t.Stop()
	select {
	case <-p.w.Done():
	case <-t.C:
		p.w.Kill()
	}
	<-p.done
	return nil
}

// runIsolated is Run for an isolated session; it holds sem.
func (s *Session) runIsolated(ctx context.Context, script string, ro RunOptions) (Result, error) {
	if _, err := prelude(ro); err != nil {
		return Result{}, err
	}
	in, err := stdinPipe(ro.Stdin)
	if err != nil {
		return Result{}, fmt.Errorf("llmsh: %w", err)
	}
	defer in.Close()
	req := workerReq{Op: "run", Script: script, RunOpts: &RunOptions{
		Timeout: ro.Timeout, MaxOutput: ro.MaxOutput, Dir: ro.Dir, Env: ro.Env, Script: ro.Script, ScriptFromStdin: ro.ScriptFromStdin,
	}}
	if ro.Stdout != nil {
		req.Live |= 1
	}
	if ro.Stderr != nil {
		req.Live |= 2
	}
	if ro.OnStop != nil {
		req.Live |= 4
	}
	live := liveRun{ro.Stdout, ro.Stderr, ro.OnStop}
	if stdout, stderr := liveWriters(ctx); ro.Stdout == nil && ro.Stderr == nil && (stdout != nil || stderr != nil) {
		// RunStream: streamed and kept.
		req.Live |= 8
		live.stdout, live.stderr = stdout, stderr
	}
	r := s.iso.run(ctx, req, in, live)
	var res Result
	if r.Result != nil {
		res = *r.Result
	}
	if r.Kind == "canceled" && ctx.Err() != nil {
		return res, ctx.Err()
	}
	return res, r.err()
}

// isoFile relays ReadFile, ReadDir or Stat.
func (s *Session) isoFile(req workerReq) (workerResp, error) {
	s.mu.Lock()
	p := s.isoLive
	s.mu.Unlock()
	if p == nil {
		return workerResp{}, ErrClosed
	}
	r := p.call(req)
	if r.Kind != "" {
		op := map[string]string{"readfile": "open", "readdir": "open", "stat": "stat"}[req.Op]
		if r.Kind == "errno" && syscall.Errno(r.Errno) == syscall.EFBIG {
			op = "read" // ReadFileMax's bound
		}
		return r, r.pathErr(op, req.Name)
	}
	return r, nil
}

// ServeWorker is the worker's main: it opens the session its parent asks
// for, confines the process (Landlock: no file access, no network; the
// heap limit), then serves calls until the socket ends.
func serveWorker(conn *net.UnixConn) int {
	fr := &fdReader{c: conn}
	dec := json.NewDecoder(fr)
	var wmu sync.Mutex
	enc := json.NewEncoder(conn)
	reply := func(r workerResp) {
		wmu.Lock()
		defer wmu.Unlock()
		enc.Encode(r)
	}
	var req workerReq
	if err := dec.Decode(&req); err != nil || req.Op != "open" || req.Opts == nil {
		fmt.Fprintln(os.Stderr, "llmsh: session worker: no open request")
		return 2
	}
	// This process is the session's alone: no time it formats shows the
	// host's zone (cmd/llmsh's main does the same).
	time.Local = time.UTC
	opts := *req.Opts
	if opts.MaxMemory <= 0 {
		opts.MaxMemory = DefaultMaxMemory
	}
	// This process runs this one session: awk's and jq's strings are
	// bounded as its values are.
	builtins.SetStringLimit(limitsOf(opts).MaxValue)
	// The session's guard watches this process's heap: the session's
	// own, as it is alone here.
	sess, err := New(opts)
	if err != nil {
		r := workerResp{ID: req.ID}
		errKind(err, &r)
		reply(r)
		return 1
	}
	defer sess.Close()
	// vfsd is running: from now on this process needs no file and no
	// network, and could not execute a program.
	stuck.Prepare() // its readings of this process outlive the restriction
	if err := sandbox.RestrictSelf(); err != nil {
		reply(workerResp{ID: req.ID, Kind: "other", Err: "llmsh: cannot confine the session's process: " + err.Error()})
		return 1
	}
	w := &worker{sess: sess, reply: reply}
	reply(workerResp{ID: req.ID})

	defer w.wg.Wait()
	for {
		var req workerReq
		if err := dec.Decode(&req); err != nil {
			// The parent closed the session (or is gone): end the run in
			// progress, if any, and exit.
			w.mu.Lock()
			if w.cancel != nil {
				w.cancel()
			}
			w.mu.Unlock()
			return 0
		}
		switch req.Op {
		case "run":
			w.start(req, fr.take())
		case "virtual":
			w.wg.Add(1)
			go w.virtual(req.ID)
		case "snapshot", "apply":
			w.wg.Add(1)
			go w.snapshot(req)
		case "cancel":
			w.mu.Lock()
			if w.id == req.Run && w.cancel != nil {
				w.cancel()
			}
			w.mu.Unlock()
		case "readfile", "readdir", "stat":
			w.wg.Add(1)
			go w.file(req)
		default:
			reply(workerResp{ID: req.ID, Kind: "other", Err: "llmsh: session worker: unknown request " + strconv.Quote(req.Op)})
		}
	}
}

// worker is the session a worker process serves, and the run in
// progress there.
type worker struct {
	sess  *Session
	reply func(workerResp)
	wg    sync.WaitGroup // the requests being answered

	mu     sync.Mutex
	id     int64 // the run in progress, guarded by mu
	cancel context.CancelFunc
}

// start runs a script in the background, with stdin (may be nil) as its
// standard input.
func (w *worker) start(req workerReq, stdin *os.File) {
	ctx, cancel := context.WithCancel(context.Background())
	w.mu.Lock()
	w.id, w.cancel = req.ID, cancel
	w.mu.Unlock()
	w.wg.Add(1)
	go func(id int64, script string, ro RunOptions, live int) {
		defer w.wg.Done()
		defer cancel()
		if stdin != nil {
			defer stdin.Close()
			ro.Stdin = stdin
		}
		reply := w.reply
		if live&1 != 0 {
			ro.Stdout = &liveWriter{id: id, stream: 1, reply: reply}
		}
		if live&2 != 0 {
			ro.Stderr = &liveWriter{id: id, stream: 2, reply: reply}
		}
		runCtx := ctx
		if live&8 != 0 {
			runCtx = context.WithValue(ctx, liveKey{}, liveOut{streamTo(reply, id, 1), streamTo(reply, id, 2)})
		}
		stopped := make(chan struct{})
		var stopOnce sync.Once
		ro.OnStop = func(cause error) {
			stopOnce.Do(func() { close(stopped) })
			if live&4 == 0 {
				return
			}
			for name, c := range stopCauses {
				if errors.Is(cause, c) {
					reply(workerResp{ID: id, Stream: 3, Err: name})
				}
			}
		}
		done := make(chan struct{})
		go w.endStuck(ctx, stopped, done)
		res, err := w.sess.RunWith(runCtx, script, ro)
		close(done)
		w.mu.Lock()
		w.id, w.cancel = 0, nil
		w.mu.Unlock()
		r := workerResp{ID: id, Result: &res}
		if err != nil {
			errKind(err, &r)
		}
		reply(r)
	}(req.ID, req.Script, *cmpOr(req.RunOpts, &RunOptions{}), req.Live)
}

// endStuck ends the process when a run stopped (a limit, its timeout, a
// cancel: stopped or ctx done) is stuck before it returns (done): a
// second of CPU spent since the stop, or a second of waiting (stuck.Wait);
// it is deep in work that does not look at its context (an expansion, the
// parser), and the process ends, as the llmsh command does, so that it
// does not burn a CPU for good with the session busy; the parent answers
// ErrCrashed with this line.
func (w *worker) endStuck(ctx context.Context, stopped, done <-chan struct{}) {
	if !stuck.Wait(ctx, stopped, done) {
		return
	}
	fmt.Fprintln(os.Stderr, "llmsh: the script did not stop when its run was cancelled")
	w.sess.Kill()
	os.Exit(125)
}

// virtual answers the request id with the session's virtual files.
func (w *worker) virtual(id int64) {
	defer w.wg.Done()
	r := workerResp{ID: id, Result: &Result{}}
	names, omitted, err := w.sess.VirtualFiles()
	r.Result.VirtualFiles, r.Result.VirtualFilesOmitted = names, omitted
	if err != nil {
		errKind(err, &r)
	}
	w.reply(r)
}

// snapshot answers a snapshot or apply request.
func (w *worker) snapshot(req workerReq) {
	defer w.wg.Done()
	r := workerResp{ID: req.ID}
	var err error
	if req.Op == "snapshot" {
		r.Data, err = w.sess.Snapshot(context.Background())
	} else {
		err = w.sess.apply(context.Background(), req.Data)
	}
	if err != nil {
		errKind(err, &r)
	}
	w.reply(r)
}

// file answers a readfile, readdir or stat request.
func (w *worker) file(req workerReq) {
	defer w.wg.Done()
	r := workerResp{ID: req.ID}
	var err error
	switch req.Op {
	case "readfile":
		r.Data, err = w.sess.ReadFileMax(req.Name, req.Max)
	case "readdir":
		var ents []fs.DirEntry
		ents, err = w.sess.ReadDir(req.Name)
		for _, e := range ents {
			fi, ierr := e.Info()
			if ierr != nil {
				fi = &fileInfo{FName: e.Name(), FMode: e.Type()}
			}
			r.Infos = append(r.Infos, wireInfo(fi))
		}
	case "stat":
		var fi fs.FileInfo
		if fi, err = w.sess.Stat(req.Name); err == nil {
			r.Infos = []fileInfo{wireInfo(fi)}
		}
	}
	if err != nil {
		errKind(err, &r)
	}
	w.reply(r)
}

// cmpOr is p, or q when p is nil.
func cmpOr[T any](p, q *T) *T {
	if p != nil {
		return p
	}
	return q
}

// liveRun is where a run's live output and stop go in the parent.
type liveRun struct {
	stdout, stderr io.Writer
	onStop         func(error)
}

// stopCauses are RunOptions.OnStop's causes by their names on the wire.
var stopCauses = map[string]error{"time": ErrTimedOut, "output": ErrOutputLimit, "memory": ErrMemoryLimit, "vfsd": ErrVfsdGone}

// liveWriter sends a run's output to the parent as it is written.
type liveWriter struct {
	id     int64
	stream int
	reply  func(workerResp)
}

func (w *liveWriter) Write(p []byte) (int, error) {
	w.reply(workerResp{ID: w.id, Stream: w.stream, Data: append([]byte(nil), p...)})
	return len(p), nil
}

// fdReader reads the socket and keeps the descriptors that arrive with
// the bytes, in order, for the run requests that follow them.
type fdReader struct {
	c   *net.UnixConn
	mu  sync.Mutex
	fds []*os.File
}

func (r *fdReader) Read(p []byte) (int, error) {
	oob := make([]byte, syscall.CmsgSpace(4*4))
	n, oobn, _, _, err := r.c.ReadMsgUnix(p, oob)
	if oobn > 0 {
		if msgs, perr := syscall.ParseSocketControlMessage(oob[:oobn]); perr == nil {
			for _, m := range msgs {
				fds, _ := syscall.ParseUnixRights(&m)
				r.mu.Lock()
				for _, fd := range fds {
					r.fds = append(r.fds, os.NewFile(uintptr(fd), "stdin"))
				}
				r.mu.Unlock()
			}
		}
	}
	return n, err
}

// take returns the oldest descriptor not yet taken, nil if none came.
func (r *fdReader) take() *os.File {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.fds) == 0 {
		return nil
	}
	f := r.fds[0]
	r.fds = r.fds[1:]
	return f
}

// streamTo is a live writer of the worker's run id: each write is one
// stream message to the parent.
func streamTo(reply func(workerResp), id int64, stream int) io.Writer {
	return &liveWriter{id: id, stream: stream, reply: reply}
}
