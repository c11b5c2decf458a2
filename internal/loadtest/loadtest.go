// Package loadtest runs many llmsh sessions at once, each with its own
// vfsd, and checks what they produce: every session streams its own input
// through vfsd (cat, sort, a copy to a real file and a virtual file), no
// session sees another's virtual files, no descriptor is left open in any
// vfsd or llmsh between the start and the end of the work, and no process
// survives the run. bench/load and cmd/llmsh's tests drive it.
package loadtest

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Config describes a run.
type Config struct {
	Sessions int   // concurrent llmsh sessions
	Size     int64 // bytes of input per session (whole lines, about)
	// Dir holds the inputs and each session's -o directory; the caller
	// removes it.
	Dir string
	// Command returns the llmsh command to run with args; its Stdin,
	// Stdout and Stderr are set by Run.
	Command func(args ...string) *exec.Cmd
	// Log, if non-nil, receives progress lines.
	Log io.Writer
}

// Report is what a run measured.
type Report struct {
	Sessions, OK int
	Failures     []string      // one line per problem found
	Wall         time.Duration // from the first start to the last exit
	Bytes        int64         // bytes streamed through the vfsds, in all
	// Peak resident sizes in KiB: llmsh from its rusage, vfsd from its
	// VmHWM once the work is done.
	MaxLlmshRSS, MaxVfsdRSS int64
	// Descriptors each vfsd and llmsh held at the first barrier (the
	// largest over the sessions).
	VfsdFds, LlmshFds int
}

// virtualDir is where each session writes its virtual file: outside every
// grant, and nowhere on disk.
const virtualDir = "/llmsh-load"

// expected is what a session's input should give.
type expected struct {
	catSum, sortSum, headSum string
	lines                    int
}

// headBytes is the size of each session's virtual file.
const headBytes = 100_000

// script is the session's program. It stops twice, printing readyN and
// reading a line, so that the parent can count descriptors before and
// after the work, and can let every session look for the others' virtual
// files only once all of them exist.
func script(id, n int, token string) string {
	var others []string
	for j := range n {
		if j != id {
			others = append(others, fmt.Sprintf("%s/%s-%d", virtualDir, token, j))
		}
	}
	own := fmt.Sprintf("%s/%s-%d", virtualDir, token, id)
	// The same work on a small file first: what the runtime opens once
	// (its poller) is open before the first count.
	warm := "mkdir -p " + virtualDir + "; cat warm.dat | sha256sum >/dev/null; sort warm.dat >/dev/null; cat warm.dat > out/warm.dat; " +
		"wc -l < out/warm.dat >/dev/null; head -c 10 warm.dat > " + own + "; sha256sum < " + own + " >/dev/null"
	return strings.Join([]string{
		warm,
		"echo ready0; read -r go0",
		"cat in.dat | sha256sum",
		"sort in.dat | sha256sum",
		"cat in.dat > out/copy.dat",
		"wc -l < out/copy.dat",
		"head -c " + strconv.Itoa(headBytes) + " in.dat > " + own,
		"sha256sum < " + own,
		"echo ready1; read -r go1",
		"for f in " + strings.Join(others, " ") + "; do if cat \"$f\" 2>/dev/null; then echo \"LEAK $f\"; fi; done",
		"ls " + virtualDir,
		"echo done",
	}, "\n")
}

func (e expected) stdout(id int, token string) string {
	return fmt.Sprintf("ready0\n%s  -\n%s  -\n%d\n%s  -\nready1\n%s-%d\ndone\n",
		e.catSum, e.sortSum, e.lines, e.headSum, token, id)
}

// generate writes size bytes of lines (in an order sort must change) to
// path and returns what the session should report.
func generate(path string, id int, size int64) (expected, error) {
	rng := rand.New(rand.NewPCG(uint64(id), 0x9e3779b97f4a7c15))
	var lines []string
	var total int64
	for total < size {
		l := fmt.Sprintf("%016x %d session-%d %s\n", rng.Uint64(), len(lines), id, strings.Repeat("x", rng.IntN(40)))
		lines = append(lines, l)
		total += int64(len(l))
	}
	var buf bytes.Buffer
	buf.Grow(int(total))
	for _, l := range lines {
		buf.WriteString(l)
	}
	data := buf.Bytes()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return expected{}, err
	}
	var e expected
	e.catSum = sum(data)
	e.headSum = sum(data[:min(len(data), headBytes)])
	e.lines = len(lines)
	slices.Sort(lines)
	h := sha256.New()
	for _, l := range lines {
		io.WriteString(h, l)
	}
	e.sortSum = hex.EncodeToString(h.Sum(nil))
	return e, nil
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// session is one running llmsh.
type session struct {
	id    int
	dir   string
	want  expected
	cmd   *exec.Cmd
	stdin io.WriteCloser
	ready chan string   // the readyN lines, in order
	eof   chan struct{} // closed when stdout ends
	out   bytes.Buffer  // all of stdout, complete once eof is closed
	err   bytes.Buffer
	fds   [2][2]map[string]string // [barrier][llmsh, vfsd]: descriptor -> what it is
	vfsd  int                     // vfsd's pid, found at the first barrier
	hwm   int64                   // vfsd's VmHWM (KiB) at the second barrier
}

// readStdout copies stdout into s.out, announcing the readyN lines.
func (s *session) readStdout(r io.Reader) {
	defer close(s.eof)
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadString('\n')
		s.out.WriteString(line)
		if strings.HasPrefix(line, "ready") {
			s.ready <- strings.TrimSpace(line)
		}
		if err != nil {
			return
		}
	}
}

// await waits for the session to print tag, or to end without it.
func (s *session) await(tag string) bool {
	select {
	case l := <-s.ready:
		return l == tag
	case <-s.eof:
		select {
		case l := <-s.ready:
			return l == tag
		default:
			return false
		}
	}
}

// Run runs cfg.Sessions sessions at once and checks them.
func Run(cfg Config) (*Report, error) {
	if cfg.Sessions < 1 || cfg.Size < 1 {
		return nil, errors.New("loadtest: need at least one session and one byte")
	}
	l := &loadRun{cfg: cfg, token: fmt.Sprintf("v%d", os.Getpid()), rep: &Report{Sessions: cfg.Sessions}}
	if err := l.inputs(); err != nil {
		return nil, err
	}
	l.logf("generated %d inputs of %d bytes", cfg.Sessions, cfg.Size)

	// The first pipe starts the runtime's poller (descriptors it keeps):
	// count after it.
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	pr.Close()
	pw.Close()
	fdsBefore, err := countFds(os.Getpid())
	if err != nil {
		return nil, err
	}
	l.start = time.Now()
	if err := l.startAll(); err != nil {
		return nil, err
	}
	l.logf("started %d sessions", cfg.Sessions)
	l.barrier(0) // descriptors before any work
	l.barrier(1)
	for _, s := range l.sessions {
		l.check(s)
	}
	rep := l.rep
	rep.Wall = time.Since(l.start)
	// cat, sort, the copy's read and write, wc: five passes; and head.
	rep.Bytes = int64(cfg.Sessions) * (5*cfg.Size + min(cfg.Size, headBytes))

	// Nothing left behind: no process naming our directory (llmsh waits
	// for its vfsd, so none may remain), no descriptor in this process,
	// no virtual file on disk.
	if left := processesMentioning(cfg.Dir); len(left) > 0 {
		l.fail("processes left behind: %v", left)
	}
	if n, err := countFds(os.Getpid()); err != nil || n != fdsBefore {
		l.fail("this process held %d descriptors before the sessions and %d after (%v)", fdsBefore, n, err)
	}
	if _, err := os.Lstat(virtualDir); err == nil {
		l.fail("%s exists on disk", virtualDir)
	}
	return rep, nil
}

// loadRun is one load test: its sessions and what it found.
type loadRun struct {
	cfg      Config
	token    string // names the virtual files of this run
	rep      *Report
	sessions []*session
	start    time.Time
}

func (l *loadRun) logf(format string, args ...any) {
	if l.cfg.Log != nil {
		fmt.Fprintf(l.cfg.Log, format+"\n", args...)
	}
}

func (l *loadRun) fail(format string, args ...any) {
	l.rep.Failures = append(l.rep.Failures, fmt.Sprintf(format, args...))
}

// inputs makes the sessions' folders and inputs, on every core.
func (l *loadRun) inputs() error {
	cfg := l.cfg
	l.sessions = make([]*session, cfg.Sessions)
	var genErr error
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i := range l.sessions {
		s := &session{id: i, dir: filepath.Join(cfg.Dir, fmt.Sprintf("s%d", i)), ready: make(chan string, 2), eof: make(chan struct{})}
		l.sessions[i] = s
		if err := os.MkdirAll(filepath.Join(s.dir, "out"), 0o755); err != nil {
			return err
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			e, err := generate(filepath.Join(s.dir, "in.dat"), s.id, cfg.Size)
			if err == nil {
				err = os.WriteFile(filepath.Join(s.dir, "warm.dat"), []byte("b\na\nc\n"), 0o644)
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil && genErr == nil {
				genErr = err
			}
			s.want = e
		}()
	}
	wg.Wait()
	return genErr
}

// startAll starts the sessions' llmsh processes.
func (l *loadRun) startAll() error {
	var err error
	for _, s := range l.sessions {
		// Each session starts in its own directory, granted read-write;
		// llmsh resolves the grants against its working directory.
		s.cmd = l.cfg.Command("-o", s.dir, "-c", script(s.id, l.cfg.Sessions, l.token))
		s.cmd.Dir = s.dir
		s.cmd.Stderr = &s.err
		if s.stdin, err = s.cmd.StdinPipe(); err != nil {
			return err
		}
		stdout, err := s.cmd.StdoutPipe()
		if err != nil {
			return err
		}
		if err := s.cmd.Start(); err != nil {
			return err
		}
		go s.readStdout(stdout)
	}
	return nil
}

// barrier waits for every session to say it is ready for step n, counts
// their descriptors (and, at 1, vfsd's memory), then lets them go on.
func (l *loadRun) barrier(n int) {
	tag := "ready" + strconv.Itoa(n)
	var waiting []*session
	for _, s := range l.sessions {
		if s.await(tag) {
			waiting = append(waiting, s)
		} else {
			l.fail("session %d: ended before %s", s.id, tag)
		}
	}
	children := childPids()
	for _, s := range waiting {
		if n == 0 {
			if kids := children[s.cmd.Process.Pid]; len(kids) == 1 {
				s.vfsd = kids[0]
			} else {
				l.fail("session %d: llmsh has children %v, want one vfsd", s.id, kids)
			}
		}
		var err error
		if s.fds[n][0], err = fdTargets(s.cmd.Process.Pid); err != nil {
			l.fail("session %d: llmsh descriptors: %v", s.id, err)
		}
		if s.vfsd != 0 {
			if s.fds[n][1], err = fdTargets(s.vfsd); err != nil {
				l.fail("session %d: vfsd descriptors: %v", s.id, err)
			}
			if n == 1 {
				s.hwm = vmHWM(s.vfsd)
			}
		}
	}
	for _, s := range waiting {
		io.WriteString(s.stdin, "go\n")
	}
	l.logf("barrier %d passed by %d sessions (%s)", n, len(waiting), time.Since(l.start).Round(time.Millisecond))
}

// check waits for session s to end and checks what it did.
func (l *loadRun) check(s *session) {
	rep := l.rep
	s.stdin.Close()
	<-s.eof
	werr := s.cmd.Wait()
	ok := true
	bad := func(format string, args ...any) {
		ok = false
		l.fail("session %d: "+format, append([]any{s.id}, args...)...)
	}
	if werr != nil {
		bad("%v; stderr %q", werr, clip(s.err.String()))
	}
	if want := s.want.stdout(s.id, l.token); s.out.String() != want {
		bad("stdout %q, want %q", clip(s.out.String()), clip(want))
	}
	wantErr := fmt.Sprintf("llmsh: discarded virtual files: %s/%s-%d\n", virtualDir, l.token, s.id)
	if s.err.String() != wantErr {
		bad("stderr %q, want %q", clip(s.err.String()), wantErr)
	}
	if !vfsdFdsSame(s.fds[0][1], s.fds[1][1]) {
		bad("vfsd's descriptors before the work %v, after %v", s.fds[0][1], s.fds[1][1])
	}
	if !llmshFdsSame(s.fds[0][0], s.fds[1][0]) {
		bad("llmsh's descriptors before the work %v, after %v", s.fds[0][0], s.fds[1][0])
	}
	if got, err := os.ReadFile(filepath.Join(s.dir, "out", "copy.dat")); err != nil || sum(got) != s.want.catSum {
		bad("out/copy.dat differs from the input (%v)", err)
	}
	if ru, _ := s.cmd.ProcessState.SysUsage().(*syscall.Rusage); ru != nil {
		rep.MaxLlmshRSS = max(rep.MaxLlmshRSS, ru.Maxrss)
	}
	rep.MaxVfsdRSS = max(rep.MaxVfsdRSS, s.hwm)
	rep.LlmshFds = max(rep.LlmshFds, len(s.fds[0][0]))
	rep.VfsdFds = max(rep.VfsdFds, len(s.fds[0][1]))
	if ok {
		rep.OK++
	}
}

func clip(s string) string {
	if len(s) > 600 {
		return s[:600] + "..."
	}
	return s
}

// countFds counts the open descriptors of pid.
func countFds(pid int) (int, error) {
	d, err := os.Open("/proc/" + strconv.Itoa(pid) + "/fd")
	if err != nil {
		return 0, err
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if pid == os.Getpid() {
		return len(names) - 1, err // less the one reading the directory
	}
	return len(names), err
}

// llmshFdsSame compares llmsh's descriptors before and after the work.
// interp holds an OS pipe pair for a command's standard input while the
// command runs (a copy of a reader that is not a file), which may or may
// not be open at the moment of a count: every other descriptor must be the
// same, and there may be at most that one pair of pipes more.
func llmshFdsSame(before, after map[string]string) bool {
	nb, rb := splitPipes(before)
	na, ra := splitPipes(after)
	return maps.Equal(rb, ra) && na <= nb+2
}

// vfsdSplicePipes bounds the private pipes vfsd's splice path may add
// after the first barrier: a pool per client, made on demand, of at most
// maxBulkInFlight (vfsd/conn.go) pipes of two descriptors each, kept for
// reuse until the client goes.
const vfsdSplicePipes = 2 * 4

// vfsdFdsSame reports whether vfsd holds the same descriptors, except for
// splice pipes its pool may have grown by between the barriers.
func vfsdFdsSame(before, after map[string]string) bool {
	nb, rb := splitPipes(before)
	na, ra := splitPipes(after)
	return maps.Equal(rb, ra) && na >= nb && na <= nb+vfsdSplicePipes
}

// splitPipes counts m's pipes and returns its other descriptors.
func splitPipes(m map[string]string) (n int, rest map[string]string) {
	rest = map[string]string{}
	for fd, t := range m {
		if t == "pipe" {
			n++
		} else {
			rest[fd] = t
		}
	}
	return n, rest
}

// fdTargets maps each open descriptor of pid to what it refers to, a pipe
// or socket by its kind only: a command may hold a pipe that the next one
// replaces by another.
func fdTargets(pid int) (map[string]string, error) {
	dir := "/proc/" + strconv.Itoa(pid) + "/fd"
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(names))
	for _, n := range names {
		t, err := os.Readlink(dir + "/" + n)
		if err != nil {
			continue // closed since
		}
		if k, _, ok := strings.Cut(t, ":["); ok {
			t = k
		}
		out[n] = t
	}
	return out, nil
}

// childPids maps each process to its children.
func childPids() map[int][]int {
	out := map[int][]int{}
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + p.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		rest := b[bytes.LastIndexByte(b, ')')+1:]
		f := strings.Fields(string(rest))
		if len(f) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		out[ppid] = append(out[ppid], pid)
	}
	return out
}

// processesMentioning lists the processes whose command line contains s.
func processesMentioning(s string) []string {
	var out []string
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		if pid, err := strconv.Atoi(p.Name()); err != nil || pid == os.Getpid() {
			continue
		}
		b, err := os.ReadFile("/proc/" + p.Name() + "/cmdline")
		if err == nil && bytes.Contains(b, []byte(s)) {
			out = append(out, p.Name()+": "+strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return out
}

// vmHWM is pid's peak resident size in KiB, or 0.
func vmHWM(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for l := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}
