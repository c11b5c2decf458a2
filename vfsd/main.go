package vfsd

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

const usage = `usage: vfsd [-i PATH]... [-o PATH]... [--strict] [--log FILE]
            [--max-virtual-bytes N] [--hide FILE]... [--vfs-fds R,W]
            [--shm-fd N] [-h|--help]

vfsd serves the FS Proxy Protocol to one client on stdin/stdout (or on the
inherited file descriptors R,W), allowing reads under -i and -o paths and
writes under -o paths. Writes and mkdir elsewhere make in-memory
virtual files and directories (refused with --strict); a path elsewhere
that is not virtual is absent. A --hide FILE is never opened, by any name
(llmsh hides its REPL history from scripts). --shm-fd N is a sealed
memory file shared with the client, into which read_shm reads (llmsh
makes one when it starts vfsd).
`

// listFlag collects a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// Restrict, when set, is called by Main once the allowlists are open and
// before serving, to confine the process to them (the vfsd and llmsh
// commands set it to their Landlock layer; in tests it stays nil, since
// Main then runs inside the test process).
var Restrict func(inputs, outputs []string) error

// Main is the vfsd command line: it parses args, serves one client and
// returns the exit status (0 after a clean end of stream, 1 on a serving
// error, 2 on bad usage).
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vfsd", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var (
		inputs, outputs listFlag
		hidden          listFlag
		strict, help    bool
		logFile, fds    string
		maxVirtual      int64
		shmFD           int
	)
	fs.Var(&inputs, "i", "readable path (repeatable)")
	fs.Var(&outputs, "o", "writable path (repeatable)")
	fs.Var(&hidden, "hide", "file never opened, by any name (repeatable)")
	fs.BoolVar(&strict, "strict", false, "refuse writes outside the allowlists")
	fs.StringVar(&logFile, "log", "", "append one JSON line per request to FILE")
	fs.Int64Var(&maxVirtual, "max-virtual-bytes", 0, "budget of virtual files in bytes")
	fs.StringVar(&fds, "vfs-fds", "", "serve on inherited descriptors R,W")
	fs.IntVar(&shmFD, "shm-fd", -1, "shared memory file for read_shm")
	fs.BoolVar(&help, "h", false, "show help")
	fs.BoolVar(&help, "help", false, "show help")
	bad := func(msg string) int {
		fmt.Fprintf(stderr, "vfsd: %s\n%s", msg, usage)
		return 2
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return 0
		}
		return bad(err.Error())
	}
	if help {
		fmt.Fprint(stdout, usage)
		return 0
	}
	if fs.NArg() > 0 {
		return bad("unexpected argument " + strconv.Quote(fs.Arg(0)))
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
	cfg := Config{Inputs: inputs, Outputs: outputs, Strict: strict, MaxVirtualBytes: maxVirtual, Hidden: hidden}
	if logFile != "" {
		lf, err := os.OpenFile(logFile, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			fmt.Fprintf(stderr, "vfsd: --log: %v\n", err)
			return 1
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
	if Restrict != nil {
		if err := Restrict(inputs, outputs); err != nil {
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
