package vfsd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/internal/getopt"
	"github.com/llmsh/llmsh/internal/version"
)

// The --help text of vfsd: GNU's layout, printed by getopt.Flags.
const (
	usageLine    = "[-i PATH]... [-o PATH]... [OPTION]..."
	usageSummary = `Serve the FS Proxy Protocol to one client on stdin/stdout (or on the
inherited file descriptors R,W), allowing reads under -i and -o paths and
writes under -o paths. Writes and mkdir elsewhere make in-memory
virtual files and directories (refused with --strict); a path elsewhere
that is not virtual is absent.`
)

// errVersion is what parsing --version returns.
var errVersion = errors.New("--version")

// helpAndVersion adds -h (--help is getopt's own) and --version to f.
func helpAndVersion(f *getopt.Flags) {
	f.Func('h', "", getopt.NoArg, "", "", func(string, bool) error { return getopt.ErrHelp })
	f.Func(0, "version", getopt.NoArg, "", "", func(string, bool) error { return errVersion })
}

// printVersion is the answer to --version: "vfsd (llmsh) 0.1.0".
func printVersion(stdout io.Writer) int {
	fmt.Fprintf(stdout, "vfsd (llmsh) %s\n", version.Number)
	return 0
}

// OneProcUntilWork is set by llmsh's server mode (package vfsdmode),
// whose vfsd llmsh starts with GOMAXPROCS=1 (earlyvfsd.VfsdEnv): until
// work first runs beside its reader (Config.OnWork), Landlock's calls on
// every thread, and the goroutines that start and stop, meet no more
// threads than one P needs; then Main gives the runtime its default
// GOMAXPROCS, for the requests that run side by side. A run of "llmsh -c true" takes
// 7% less CPU so (issue 21).
var OneProcUntilWork bool

// Main is the vfsd command line: it parses args, serves one client and
// returns the exit status (0 after a clean end of stream, 1 on a serving
// error, 2 on bad usage). restrict, when not nil, is called once the
// allowlists are open and before serving, to confine the process to them
// (the vfsd and llmsh commands pass their Landlock layer; tests pass nil,
// since Main then runs inside the test process).
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, restrict func(inputs, outputs []string) error) int {
	var (
		inputs, outputs, hidden []string
		strict                  bool
		logFile, fds            string
		maxVirtual, maxWrite    int64
		shmFD                   = -1
	)
	f := getopt.New("vfsd", stdout, stderr, usageSummary, usageLine)
	list := func(l *[]string) func(string, bool) error {
		return func(v string, _ bool) error { *l = append(*l, v); return nil }
	}
	f.Func('i', "input", getopt.RequiredArg, "PATH", "PATH may be read; a directory grants its tree;\nrepeatable", list(&inputs))
	f.Func('o', "output", getopt.RequiredArg, "PATH", "PATH may be written and read; a directory grants\nits tree; repeatable", list(&outputs))
	f.BoolVar(&strict, 0, "strict", "refuse writes outside the -o paths instead of\nmaking virtual files")
	f.StringVar(&logFile, 0, "log", "FILE", "append one JSON line per request to FILE")
	f.Func(0, "max-virtual-bytes", getopt.RequiredArg, "N", "budget of virtual files in bytes", func(v string, _ bool) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return fmt.Errorf("invalid --max-virtual-bytes '%s'", v)
		}
		maxVirtual = n
		return nil
	})
	f.Func(0, "max-write", getopt.RequiredArg, "N", "the most bytes the client may add to files under\nthe -o paths (write budget; 0: no bound)", func(v string, _ bool) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("invalid --max-write '%s'", v)
		}
		maxWrite = n
		return nil
	})
	f.Func(0, "hide", getopt.RequiredArg, "FILE", "never open FILE, by any name (llmsh hides its\nREPL history from scripts); repeatable", list(&hidden))
	f.StringVar(&fds, 0, "vfs-fds", "R,W", "serve on the inherited descriptors R,W")
	f.Func(0, "shm-fd", getopt.RequiredArg, "N", "a sealed memory file shared with the client,\ninto which read_shm reads (llmsh makes one\nwhen it starts vfsd)", func(v string, _ bool) error {
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("invalid --shm-fd '%s'", v)
		}
		shmFD = n
		return nil
	})
	helpAndVersion(f)
	bad := func(msg string) int { return f.Fail(&getopt.UsageError{Msg: msg}, 2) }
	operands, err := f.Parse(args)
	if errors.Is(err, errVersion) {
		return printVersion(stdout)
	}
	if err != nil {
		return f.Fail(err, 2)
	}
	if len(operands) > 0 {
		return bad("unexpected argument " + strconv.Quote(operands[0]))
	}
	if maxVirtual < 0 {
		return bad("--max-virtual-bytes must not be negative")
	}
	var shm []byte
	if shmFD >= 0 && shmFD < 3 {
		return bad("--shm-fd must be 3 or more")
	}
	if shmFD >= 0 {
		var err error
		if shm, err = MapShm(shmFD); err != nil {
			return bad(err.Error())
		}
	}
	in, out := stdin, stdout
	if fds != "" {
		r, w, ok := parseFDs(fds)
		if !ok {
			return bad("--vfs-fds wants R,W (two descriptor numbers)")
		}
		rf, wf := os.NewFile(uintptr(r), "vfs-r"), os.NewFile(uintptr(w), "vfs-w")
		if rf == nil || wf == nil {
			return bad("--vfs-fds: invalid descriptor")
		}
		defer rf.Close()
		defer wf.Close()
		in, out = rf, wf
	}
	cfg := Config{Inputs: inputs, Outputs: outputs, Strict: strict, MaxVirtualBytes: maxVirtual, MaxWriteBytes: maxWrite, Hidden: hidden}
	if OneProcUntilWork {
		cfg.OnWork = func() { runtime.SetDefaultGOMAXPROCS() }
	}
	if logFile != "" {
		lf, err := os.OpenFile(logFile, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			// As a grant it cannot serve: GNU's words, status 2, which
			// llmsh reports as a usage error with this line.
			fmt.Fprintf(stderr, "vfsd: --log '%s': %s\n", logFile, errnoText(err))
			return 2
		}
		defer lf.Close()
		cfg.Log = lf
		// The audit log is vfsd's own record: no client reads it (a
		// script's cat of it would feed itself forever) or rewrites it.
		cfg.Hidden = append(cfg.Hidden, logFile)
	}
	s, err := New(cfg)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	defer s.Close()
	if restrict != nil {
		if err := restrict(inputs, outputs); err != nil {
			fmt.Fprintf(stderr, "vfsd: Landlock: %v\n", err)
			return 1
		}
	}
	growPipe(in)
	growPipe(out)
	if err := s.ServeShm(in, out, shm); err != nil {
		// ErrMalformed already names vfsd.
		fmt.Fprintf(stderr, "vfsd: %s\n", strings.TrimPrefix(err.Error(), "vfsd: "))
		return 1
	}
	return 0
}

// parseFDs parses "R,W".
func parseFDs(s string) (r, w int, ok bool) {
	a, b, found := strings.Cut(s, ",")
	if !found {
		return 0, 0, false
	}
	r, err1 := strconv.Atoi(a)
	w, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || r < 0 || w < 0 {
		return 0, 0, false
	}
	return r, w, true
}
