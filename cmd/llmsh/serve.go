package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/llmsh/llmsh"
	"github.com/llmsh/llmsh/builtins"
	"github.com/llmsh/llmsh/server/sessionserver"
)

// The --help text of llmsh serve (and of llmsh session).
const (
	serveSummary = `Keep shell sessions alive across calls: listen on a Unix socket (mode 0600;
only processes of this uid are served) and speak JSON-RPC 2.0 on it, one
message per line: open, run (output streamed as notifications), cancel,
reset, list, ping, close, snapshot, restore (docs/serve.md). Each session's
shell runs in a confined process of its own, with its own vfsd and the
grants its client asks for: any path this uid can reach.`
	serveEpilog = `Clients:
  id=$(llmsh session open [--socket PATH] [-i PATH]... [-o PATH]...
         [--strict] [--timeout DUR] [--max-output N] [--max-commands N]
         [--max-memory N] [--max-write N])
  llmsh --session "$id" [--socket PATH] [--json] -c SCRIPT
         (stdin is sent unless it is a terminal)
  llmsh session close [--socket PATH] "$id"
  llmsh session snapshot [--socket PATH] "$id" FILE  (FILE: new, mode 0600)
  id=$(llmsh session restore [--socket PATH] [-i PATH]... [-o PATH]...
         [--strict] [--timeout DUR] [--max-output N] [--max-commands N]
         [--max-memory N] [--max-write N] FILE)`
)

// serveFlags is the command line of llmsh serve, read into cfg, socket
// and verbose.
func serveFlags(stdout io.Writer, cfg *sessionserver.Config, socket *string, verbose *bool) *builtins.Flags {
	f := subFlags("llmsh serve", stdout, serveSummary, "[--socket PATH] [--idle DUR] [--max-sessions N]")
	f.Epilog = serveEpilog
	f.StringVar(socket, 0, "socket", "PATH", "the socket (default: $XDG_RUNTIME_DIR/llmsh.sock)")
	f.Func(0, "idle", builtins.RequiredArg, "DUR", "close sessions unused this long (default 30m)", func(v string, _ bool) error {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("invalid --idle '%s'", v)
		}
		cfg.Idle = d
		return nil
	})
	f.Func(0, "max-sessions", builtins.RequiredArg, "N", "sessions open at once (default 16)", func(v string, _ bool) error {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return fmt.Errorf("invalid --max-sessions '%s'", v)
		}
		cfg.MaxSessions = n
		return nil
	})
	f.StringVar(&cfg.VfsdPath, 0, "vfsd", "PATH", "run this vfsd binary instead of llmsh's own\nserver mode")
	f.StringVar(&cfg.VfsdLog, 0, "log", "FILE", "vfsd's structured request log (all sessions)")
	f.BoolVar(verbose, 'v', "verbose", "log sessions opened, closed and expired on\nstderr")
	return f
}

// sessionSummary is the --help text of llmsh session.
const sessionSummary = `Open, close, snapshot and restore the sessions of "llmsh serve"
(docs/serve.md): open and restore print the new session's ID, which
llmsh --session ID -c SCRIPT runs a script in (stdin is sent unless it is a
terminal); snapshot writes the session's state to FILE (new, mode 0600).
The grants and limits are the session's own, for all its runs.`

// printSessionHelp prints the --help of llmsh session and of each of its
// verbs: the options they take, the ones of llmsh's own command line.
func printSessionHelp(stdout io.Writer) int {
	f := subFlags("llmsh session", stdout, sessionSummary,
		"open [--socket PATH] [OPTION]...",
		"close [--socket PATH] ID",
		"snapshot [--socket PATH] ID FILE",
		"restore [--socket PATH] [OPTION]... FILE")
	o := new(options)
	f.StringVar(&o.socket, 0, "socket", "PATH", "the socket of \"llmsh serve\" (default\n$XDG_RUNTIME_DIR/llmsh.sock)")
	grantFlags(f, o, nil)
	f.BoolVar(&o.strict, 0, "strict", "writes outside -o fail instead of going to\nvirtual files")
	f.Func(0, "timeout", builtins.RequiredArg, "DUR", "wall-clock limit for each run (exit status 124)", durationFlag("timeout", &o.timeout))
	f.Func(0, "max-output", builtins.RequiredArg, "N", "cap on each run's stdout+stderr bytes\n(suffixes K, M, G: 1K = 1024, 1KB = 1000)", sizeFlag("max-output", &o.maxOutput))
	f.Func(0, "max-commands", builtins.RequiredArg, "N", "cap on the commands of each run", func(string, bool) error { return nil })
	f.Func(0, "max-memory", builtins.RequiredArg, "N", "the heap limit of the session's process\n(default and most 2G; suffixes as --max-output)", func(string, bool) error { return nil })
	f.Func(0, "max-write", builtins.RequiredArg, "N", "the most bytes the session may add to files\nunder the -o paths (default 10G, or unlimited)", func(string, bool) error { return nil })
	f.PrintHelp(stdout)
	return 0
}

// defaultSocket is $XDG_RUNTIME_DIR/llmsh.sock: llmsh's own configuration,
// read by the CLI process (scripts never see the environment).
func defaultSocket() (string, error) {
	d := os.Getenv("XDG_RUNTIME_DIR")
	if d == "" {
		return "", errors.New("no --socket given and XDG_RUNTIME_DIR is not set")
	}
	return filepath.Join(d, "llmsh.sock"), nil
}

// runServe is `llmsh serve`.
func runServe(args []string, stdout, stderr io.Writer) int {
	var cfg sessionserver.Config
	var socket string
	verbose := false
	f := serveFlags(stdout, &cfg, &socket, &verbose)
	operands, st := parseSub(f, args, stdout, subUsage(stderr, "serve"))
	switch {
	case st >= 0:
		return st
	case len(operands) > 0:
		return subUsageErr(stderr, "serve", "extra operand '%s'", operands[0])
	}
	if socket == "" {
		var err error
		if socket, err = defaultSocket(); err != nil {
			return subUsageErr(stderr, "serve", "%v", err)
		}
	}
	if verbose {
		cfg.Log = stderr
	}
	if cfg.VfsdLog != "" {
		abs, err := filepath.Abs(cfg.VfsdLog)
		if err == nil {
			cfg.VfsdLog = abs
		}
	}
	srv := sessionserver.New(cfg)
	if err := srv.Listen(socket); err != nil {
		var errno syscall.Errno
		if errors.As(err, &errno) {
			// a system call's failure, in GNU's words ("stat
			// /nonexistent/dir: no such file or directory" before)
			fmt.Fprintf(stderr, "llmsh: serve: cannot listen on '%s': %s\n", socket, builtins.ErrText(err))
			return 1
		}
		fmt.Fprintf(stderr, "llmsh: serve: %v\n", err)
		return 1
	}
	// No Landlock here: each session starts a vfsd with the grants its
	// client asks for, so this process keeps the file system (docs/security.md).
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if verbose {
		fmt.Fprintf(stderr, "llmsh serve: listening on %s\n", socket)
	}
	err := srv.Serve()
	cerr := srv.Close()
	if err != nil {
		fmt.Fprintf(stderr, "llmsh: serve: %v\n", err)
		return 1
	}
	if cerr != nil {
		fmt.Fprintf(stderr, "llmsh: serve: %v\n", cerr)
		return 1
	}
	return 0
}

// dialSession connects to the socket that o names (or the default one);
// sub names the `llmsh session` verb whose usage error that may be.
func dialSession(o *options, sub string, stderr io.Writer) (*sessionserver.Client, int) {
	socket := o.socket
	if socket == "" {
		var err error
		if socket, err = defaultSocket(); err != nil {
			if sub != "" {
				return nil, subUsageErr(stderr, sub, "%v", err)
			}
			return nil, usageErr(stderr, "%v", err)
		}
	}
	c, err := sessionserver.Dial(socket)
	if err != nil {
		// GNU's words ("SOCKET: No such file or directory"), not
		// Go's "dial unix SOCKET: connect: no such file or directory"
		fmt.Fprintf(stderr, "llmsh: cannot reach the session server: %s: %s\n", socket, builtins.ErrText(err))
		return nil, 1
	}
	return c, 0
}

// sessionErr reports a failed request of who ("session close",
// "--session", ...) in the server's words, without its JSON-RPC code
// (a CLI user has no use for "(code -32008)"). A snapshot that restore
// cannot read names its file, as GNU's tools name a bad input.
func sessionErr(stderr io.Writer, who string, err error) int {
	msg := err.Error()
	var rpcErr *sessionserver.Error
	if errors.As(err, &rpcErr) {
		msg = rpcErr.Message
		if file, ok := strings.CutPrefix(who, "session restore "); ok && rpcErr.Code == sessionserver.CodeSnapshot {
			who, msg = "session restore", file+": "+strings.TrimPrefix(msg, "snapshot: ")
		}
	}
	fmt.Fprintf(stderr, "llmsh: %s: %s\n", who, msg)
	return 1
}

// writeSnapshot writes `llmsh session snapshot`'s answer to a new file
// (never over one) and returns the command's status.
func writeSnapshot(name string, snap []byte, stderr io.Writer) int {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		_, err = f.Write(append(snap, '\n'))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "llmsh: session snapshot: %s: %s\n", name, builtins.ErrText(err))
		return 1
	}
	return 0
}

// snapshotTo has the server write a snapshot too large for an answer to
// name (its absolute path: the server runs as this user on this machine).
func snapshotTo(c *sessionserver.Client, id, name string, stderr io.Writer) int {
	abs, err := filepath.Abs(name)
	if err == nil {
		if _, err = os.Lstat(abs); err == nil {
			err = syscall.EEXIST
		} else if errors.Is(err, fs.ErrNotExist) {
			err = nil
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "llmsh: session snapshot: %s: %s\n", name, builtins.ErrText(err))
		return 1
	}
	if _, err := c.SnapshotTo(id, abs); err != nil {
		return sessionErr(stderr, "session snapshot", err)
	}
	return 0
}

// inlineSnapshotMax is the largest snapshot file that restore sends in
// its request: a larger one (a request is at most sessionserver.MaxLine)
// is read by the server from its path. (A variable: tests lower it.)
var inlineSnapshotMax int64 = sessionserver.MaxLine - 1<<20

// readSnapshot reads `llmsh session restore`'s file, or says why it
// cannot and returns nil; a file too large to send is not read, and its
// absolute path is returned instead.
func readSnapshot(name string, stderr io.Writer) ([]byte, string) {
	fi, err := os.Stat(name)
	if err == nil && fi.Mode().IsRegular() && fi.Size() > inlineSnapshotMax {
		abs, err := filepath.Abs(name)
		if err == nil {
			return nil, abs
		}
	}
	b, err := os.ReadFile(name)
	if err != nil {
		fmt.Fprintf(stderr, "llmsh: session restore: %s: %s\n", name, builtins.ErrText(err))
		return nil, ""
	}
	// The request carries the snapshot as JSON: a file that is not
	// JSON is said to be so here, not as the encoder's error.
	if !json.Valid(b) {
		fmt.Fprintf(stderr, "llmsh: session restore: %s: not a snapshot (not JSON)\n", name)
		return nil, ""
	}
	return b, ""
}

// parseSessionArgs reads the options and operands of `llmsh session
// VERB`, as GNU getopt_long does: options may follow the operands (`close
// ID --socket S`) unless "--" came first. Usage errors are the
// subcommand's, and llmsh's options that a session does not take (-c,
// bash's option letters, --vfsd, --log, ...) are refused rather than
// silently ignored.
func parseSessionArgs(verb string, args []string, stderr io.Writer) (*options, int) {
	sub := "session " + verb
	usage := func(format string, a ...any) int { return subUsageErr(stderr, sub, format, a...) }
	o := &options{}
	var operands []string
	for {
		var st int
		if o, st = parseArgsInto(o, args, stderr, usage); st != -1 {
			return nil, st
		}
		ops := o.operands
		if len(ops) == 0 || o.haveScript {
			break
		}
		operands = append(operands, ops[0])
		if i := len(args) - len(ops); i > 0 && args[i-1] == "--" {
			operands = append(operands, ops[1:]...)
			break
		}
		args = ops[1:]
	}
	o.operands = operands
	switch {
	case o.haveScript:
		return nil, usage("-c cannot be used (llmsh --session ID -c SCRIPT runs it)")
	case o.session != "" || o.vfsFds != "" || o.json:
		return nil, usage("--session, --vfs-fds and --json cannot be used")
	case o.vfsdPath != "" || o.logFile != "" || o.noHistory || o.stdinScript || len(o.shellOpts) > 0:
		return nil, usage("--vfsd, --log, --no-history, -s and bash's option letters cannot be used")
	}
	return o, -1
}

// runSessionCmd is `llmsh session open|close`.
func runSessionCmd(args []string, stdout, stderr io.Writer) int {
	verbs := map[string]bool{"open": true, "close": true, "snapshot": true, "restore": true}
	if len(args) == 0 || !verbs[args[0]] {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
			return printSessionHelp(stdout)
		}
		if len(args) > 0 && args[0] == "--version" {
			return printVersion(stdout)
		}
		return subUsageErr(stderr, "session", "want 'open', 'close', 'snapshot' or 'restore'")
	}
	verb := args[0]
	o, st := parseSessionArgs(verb, args[1:], stderr)
	switch st {
	case -3:
		return printSessionHelp(stdout)
	case -2:
		return printVersion(stdout)
	case -1:
	default:
		return st
	}
	if verb == "close" || verb == "snapshot" {
		want := map[string]int{"close": 1, "snapshot": 2}[verb]
		if len(o.operands) != want {
			return subUsageErr(stderr, "session "+verb, "want %s", map[string]string{"close": "one session ID", "snapshot": "a session ID and a file"}[verb])
		}
		if len(o.inputs)+len(o.outputs) > 0 || o.strict || o.timeout > 0 || o.maxOutput > 0 || o.maxCommands > 0 || o.maxWrite != 0 || o.maxMemory != 0 {
			return subUsageErr(stderr, "session "+verb, "only --socket and the operands")
		}
		c, st := dialSession(o, "session "+verb, stderr)
		if c == nil {
			return st
		}
		defer c.Close()
		if verb == "close" {
			if err := c.CloseSession(o.operands[0]); err != nil {
				return sessionErr(stderr, "session close", err)
			}
			return 0
		}
		snap, err := c.Snapshot(o.operands[0])
		if sessionserver.InlineTooLarge(err) {
			// Too large for an answer: the server writes it.
			return snapshotTo(c, o.operands[0], o.operands[1], stderr)
		}
		if err != nil {
			return sessionErr(stderr, "session snapshot", err)
		}
		return writeSnapshot(o.operands[1], snap, stderr)
	}
	var snap []byte
	var snapPath string
	if verb == "restore" {
		if len(o.operands) != 1 {
			return subUsageErr(stderr, "session restore", "want a snapshot file")
		}
		if snap, snapPath = readSnapshot(o.operands[0], stderr); snap == nil && snapPath == "" {
			return 1
		}
	} else if len(o.operands) > 0 {
		return subUsageErr(stderr, "session open", "extra operand '%s'", o.operands[0])
	}
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "llmsh: %v\n", err)
		return 1
	}
	// The server opens the grants, but for this caller's paths: it is
	// told here of a missing one, as a run of llmsh is.
	prepareGrants(o.inputs, o.outputs, stderr)
	p := sessionserver.OpenParams{
		Inputs: o.inputs, Outputs: o.outputs, Dir: cwd, Strict: o.strict,
		Timeout: sessionserver.Duration(o.timeout), MaxOutput: o.maxOutput, MaxWrite: o.maxWrite,
		MaxMemory: o.maxMemory,
	}
	if o.maxCommands > 0 {
		p.Limits = &sessionserver.Limits{MaxCommands: o.maxCommands}
	}
	c, st := dialSession(o, "session "+verb, stderr)
	if c == nil {
		return st
	}
	defer c.Close()
	var id string
	switch {
	case snapPath != "":
		id, err = c.RestoreFrom(p, snapPath)
	case snap != nil:
		id, err = c.Restore(p, snap)
	default:
		id, err = c.Open(p)
	}
	var rpcErr *sessionserver.Error
	if errors.As(err, &rpcErr) && rpcErr.Code == sessionserver.CodeSession {
		// As the CLI: a grant vfsd refused is a usage error.
		if reason, ok := strings.CutPrefix(rpcErr.Message, llmsh.ErrGrantRefused.Error()+": "); ok {
			return subUsageErr(stderr, "session "+verb, "%s", reason)
		}
	}
	if err != nil {
		who := "session " + verb
		if verb == "restore" {
			who += " " + o.operands[0]
		}
		return sessionErr(stderr, who, err)
	}
	fmt.Fprintln(stdout, id)
	return 0
}

// runClient is `llmsh --session ID -c SCRIPT`: the script runs in the
// server's session; its output is printed and its status returned.
func runClient(o *options, stdin io.Reader, stdout, stderr io.Writer) int {
	switch {
	case !o.haveScript:
		return usageErr(stderr, "--session needs -c SCRIPT")
	case len(o.operands) > 0:
		return usageErr(stderr, "--session: arguments after -c SCRIPT are not supported")
	case len(o.inputs)+len(o.outputs) > 0 || o.strict || o.vfsFds != "" || o.vfsdPath != "" ||
		o.timeout > 0 || o.maxOutput > 0 || o.maxCommands > 0 || o.maxWrite != 0 || o.logFile != "":
		return usageErr(stderr, "--session: grants and limits are set by 'llmsh session open'")
	case len(o.shellOpts) > 0:
		// they were dropped without a word: -e or -o pipefail did not
		// apply; a script sets them itself (set -e), and they stay
		// set for the session's next runs, as in a terminal
		return usageErr(stderr, "--session: bash's option letters cannot be used (use set -o NAME in the script)")
	}
	var in string
	if stdin != nil && !isTerminal(stdin) {
		const room = sessionserver.MaxLine / 2 // JSON may escape each byte
		b, err := io.ReadAll(io.LimitReader(stdin, room+1))
		if err != nil {
			fmt.Fprintf(stderr, "llmsh: reading stdin: %v\n", err)
			return 1
		}
		if len(b)+len(o.script) > room {
			fmt.Fprintf(stderr, "llmsh: --session: script and stdin exceed %d bytes\n", room)
			return 1
		}
		in = string(b)
	}
	c, st := dialSession(o, "", stderr)
	if c == nil {
		return st
	}
	defer c.Close()
	if !o.json {
		// The output as it comes; then what the result adds (llmsh's
		// own closing notes: a timeout, the output limit).
		var sent [2]int
		res, err := c.RunStream(o.session, o.script, in, func(stream, data string) {
			i := map[string]int{"stdout": 0, "stderr": 1}[stream]
			io.WriteString([]io.Writer{stdout, stderr}[i], data)
			sent[i] += len(data)
		})
		if err != nil {
			return sessionErr(stderr, "--session", err)
		}
		for i, text := range []string{res.Stdout, res.Stderr} {
			if sent[i] <= len(text) {
				io.WriteString([]io.Writer{stdout, stderr}[i], text[sent[i]:])
			}
		}
		return res.ExitCode
	}
	res, err := c.Run(o.session, o.script, in)
	if err != nil {
		return sessionErr(stderr, "--session", err)
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res); err != nil {
		return 1
	}
	return res.ExitCode
}
