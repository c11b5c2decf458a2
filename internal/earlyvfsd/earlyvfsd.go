// Package earlyvfsd starts the llmsh command's vfsd while the rest of the
// program is still initialising, so that vfsd's start-up (a second start
// of the same large binary) runs beside llmsh's own package init on the
// other CPU instead of after it.
//
// Package fromargs, imported by llmsh's main only, calls StartFromArgs in
// its init, which runs before the packages that cost start-up time (this
// package needs only os and syscall). Package vfsdproc's Start then Takes
// the early vfsd when it was started with exactly the command line Start
// would give it, in the directory Start would give it, and otherwise ends
// it and starts one as before: the early start can only save time, never
// decide what vfsd serves. Its stderr is a pipe that Start passes on to
// the writer it was asked for, as os/exec does.
package earlyvfsd

import (
	"os"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// ServerModeArg, as the first argument, makes llmsh act as vfsd.
const ServerModeArg = "__vfsd"

// DefaultMaxWrite is the llmsh command's write budget (--max-write):
// the bytes a run may add to host files under its -o grants.
const DefaultMaxWrite = 10 << 30

// Argv is vfsd's command line after the program name: the allowlists and
// options in the one order that both Start and the early start use. A
// maxWrite of 0 is no write budget.
func Argv(inputs, outputs []string, strict bool, log string, hidden []string, maxVirtual, maxWrite int64) []string {
	var args []string
	for _, p := range inputs {
		args = append(args, "-i", p)
	}
	for _, p := range outputs {
		args = append(args, "-o", p)
	}
	if strict {
		args = append(args, "--strict")
	}
	if log != "" {
		args = append(args, "--log", log)
	}
	for _, p := range hidden {
		args = append(args, "--hide", p)
	}
	if maxVirtual > 0 {
		args = append(args, "--max-virtual-bytes", strconv.FormatInt(maxVirtual, 10))
	}
	if maxWrite > 0 {
		args = append(args, "--max-write", strconv.FormatInt(maxWrite, 10))
	}
	return args
}

// Proc is a vfsd started early.
type Proc struct {
	Pid    int
	Argv   []string // after the program name: ServerModeArg, Argv(...), then --shm-fd 3 if Shm
	R, W   *os.File // vfsd's answers, and its requests
	Stderr *os.File // vfsd's stderr, to be read until its end
	Shm    []byte   // the read_shm region shared with vfsd, or nil

	dev, ino uint64 // the working directory vfsd started in
}

var (
	mu    sync.Mutex
	early *Proc
)

// Take returns the vfsd started early if its arguments, up to the shared
// region's, are ServerModeArg followed by argv and it runs in dir (empty:
// the working directory it was started in), and forgets it. Any other
// early vfsd is ended (its pipes closed; it exits at their end of file)
// and Take returns nil.
func Take(argv []string, dir string) *Proc {
	mu.Lock()
	p := early
	early = nil
	mu.Unlock()
	if p == nil {
		return nil
	}
	want := append([]string{ServerModeArg}, argv...)
	if p.Shm != nil {
		want = append(want, "--shm-fd", "3")
	}
	if equal(p.Argv, want) && p.in(dir) {
		return p
	}
	p.R.Close()
	p.W.Close()
	p.Stderr.Close()
	if p.Shm != nil {
		UnmapShm(p.Shm)
	}
	go reap(p.Pid)
	return nil
}

// in reports whether dir is the directory p started in.
func (p *Proc) in(dir string) bool {
	if dir == "" {
		return true
	}
	var st syscall.Stat_t
	return syscall.Stat(dir, &st) == nil && uint64(st.Dev) == p.dev && uint64(st.Ino) == p.ino
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// reap waits for an early vfsd that was not taken.
func reap(pid int) {
	var ws syscall.WaitStatus
	for {
		if _, err := syscall.Wait4(pid, &ws, 0, nil); err != syscall.EINTR {
			return
		}
	}
}

// Wait waits for the process pid to exit and returns its exit status
// (128+N for a signal N), or -1 if it could not be waited for.
func Wait(pid int) int {
	var ws syscall.WaitStatus
	for {
		_, err := syscall.Wait4(pid, &ws, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return -1
		}
		if ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ws.ExitStatus()
	}
}

// StartFromArgs starts vfsd early when args (llmsh's arguments after the
// program name) are a plain run of a -c script (see ArgvFromArgs), with the
// allowlists they give. It does nothing for anything else.
func StartFromArgs(args []string) {
	argv, ok := ArgvFromArgs(args)
	if !ok {
		return
	}
	p, err := start(argv)
	if err != nil {
		return // Start will try again, and say why if it fails too
	}
	mu.Lock()
	early = p
	mu.Unlock()
	lowerProcs()
}

var (
	procsMu sync.Mutex
	procs   int // GOMAXPROCS before lowerProcs, 0 when it has not lowered it
)

// lowerProcs runs llmsh on one P until FullProcs: while it starts, the
// goroutines that start and stop wake no idle P's thread, and Landlock's
// calls on every thread meet no new one.
func lowerProcs() {
	procsMu.Lock()
	procs = runtime.GOMAXPROCS(1)
	procsMu.Unlock()
}

// FullProcs gives llmsh the GOMAXPROCS it had before an early start
// (StartFromArgs) ran it on one P: the runtime's default, or the value
// of the GOMAXPROCS variable it was started with. It does nothing after
// the first call, nor without an early start.
func FullProcs() {
	procsMu.Lock()
	defer procsMu.Unlock()
	if procs == 0 {
		return
	}
	if _, set := os.LookupEnv("GOMAXPROCS"); set {
		runtime.GOMAXPROCS(procs)
	} else {
		runtime.SetDefaultGOMAXPROCS()
	}
	procs = 0
}

// FullProcsAfter calls FullProcs once the script has run for d (llmsh's
// main calls it as a script starts), and returns the function that
// cancels that when the script has ended. A script that ends sooner, as
// most -c runs do, runs and ends on the one P it started on: it pays
// neither FullProcs (the world stopped, a P made, the cgroup's CPU limit
// read again) nor the wake-ups of another P's thread at each goroutine
// it starts. One that runs longer has every P from then on.
func FullProcsAfter(d time.Duration) (cancel func()) {
	procsMu.Lock()
	lowered := procs != 0
	procsMu.Unlock()
	if !lowered {
		return func() {}
	}
	t := afterFunc(d, FullProcs)
	return func() { t.Stop() }
}

// afterFunc is time.AfterFunc (a test's clock in tests).
var afterFunc = time.AfterFunc

// ArgvFromArgs reads llmsh's command line as llmsh's own parser does, as far as
// vfsd's arguments go: the -i, -o, --strict and --log options before -c
// SCRIPT or a script file (which llmsh grants for reading after the -i
// paths). Anything it does not know for certain (another subcommand, a
// script on a descriptor or standard input, --vfsd, --vfs-fds, --session,
// --socket, --help, an unknown option, an -o path that does not exist
// yet, which llmsh may first make) is not an early start.
func ArgvFromArgs(args []string) (argv []string, ok bool) {
	var inputs, outputs []string
	var strict bool
	var log string
	maxWrite := int64(DefaultMaxWrite)
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, v, hasEq := cut(a, '=')
		if !hasEq || len(name) < 2 || name[:2] != "--" {
			// A short option with anything attached (-iPATH, -i=x, -vq) is
			// left to llmsh's own parser, as is an abbreviated long one.
			name, hasEq = a, false
		}
		switch name {
		case "-i", "--input", "-o", "--output", "-c", "--timeout", "--max-output", "--max-memory", "--max-commands", "--log", "--max-write":
			if !hasEq {
				if i+1 >= len(args) {
					return nil, false
				}
				i++
				v = args[i]
			}
			switch name {
			case "-i", "--input":
				inputs = append(inputs, v)
			case "-o", "--output":
				if _, err := os.Lstat(v); err != nil {
					return nil, false
				}
				outputs = append(outputs, v)
			case "--log":
				log = v
			case "--max-write":
				if maxWrite, ok = WriteBudget(v); !ok {
					return nil, false
				}
			case "-c":
				return Argv(inputs, outputs, strict, log, nil, 0, maxWrite), true
			}
		case "--strict", "--json", "-v", "--verbose", "-q", "--quiet", "--no-history",
			"-a", "-B", "-C", "-e", "-E", "-f", "-n", "-T", "-u", "-x", "-l", "--login", "--norc", "--noprofile": // bash's
			if hasEq {
				return nil, false // a usage error
			}
			strict = strict || name == "--strict"
		case "--color", "--colour":
		default:
			if scriptFile(a) {
				return Argv(append(inputs, a), outputs, strict, log, nil, 0, maxWrite), true
			}
			return nil, false
		}
	}
	return nil, false
}

// WriteBudget is vfsd's budget for llmsh's --max-write value v:
// "unlimited" is 0 (none), digits with an optional K, M or G suffix
// (1K = 1024) a number of bytes, as llmsh's parser reads them; anything
// else (which that parser may still take) is not ok.
func WriteBudget(v string) (int64, bool) {
	if v == "unlimited" {
		return 0, true
	}
	shift := 0
	if n := len(v); n > 1 {
		switch v[n-1] {
		case 'K':
			shift = 10
		case 'M':
			shift = 20
		case 'G':
			shift = 30
		}
		if shift > 0 {
			v = v[:n-1]
		}
	}
	if v == "" || len(v) > 18 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return 0, false
		}
		n = n*10 + int64(v[i]-'0')
	}
	if n == 0 || n > (1<<63-1)>>shift {
		return 0, false
	}
	return n << shift, true
}

// cut is strings.Cut for one byte (this package keeps its imports few, so
// that it is initialised early).
func cut(s string, sep byte) (before, after string, found bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// scriptFile reports whether the operand a names a script file that llmsh
// reads through vfsd: not an option, a subcommand's name, nor a
// descriptor or standard input (/dev/…, /proc/…), which llmsh reads
// itself, nor llmsh's own server mode.
func scriptFile(a string) bool {
	if a == "" || a[0] == '-' || hasPrefix(a, "/dev/") || hasPrefix(a, "/proc/") || a == ServerModeArg {
		return false
	}
	switch a {
	case "mcp", "serve", "session", "test":
		return false
	}
	return true
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }
