// Command llmsh is a restricted shell for LLM agents: every command is a
// builtin, the host environment is invisible, and all file I/O goes
// through vfsd. Run `llmsh --help`.
package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/llmsh/llmsh"
	"github.com/llmsh/llmsh/builtins"
	_ "github.com/llmsh/llmsh/internal/earlystack" // the main goroutine's stack grown before any other init
	"github.com/llmsh/llmsh/internal/earlyvfsd"
	_ "github.com/llmsh/llmsh/internal/earlyvfsd/fromargs" // vfsd starts during init (a -c run)
	"github.com/llmsh/llmsh/internal/memguard"
	"github.com/llmsh/llmsh/internal/stuck"
	llmshversion "github.com/llmsh/llmsh/internal/version"
	_ "github.com/llmsh/llmsh/internal/vfsdmode/atinit" // and as vfsd, llmsh serves from init
	"github.com/llmsh/llmsh/server/sessionserver"
	"github.com/llmsh/llmsh/shell"
	"github.com/llmsh/llmsh/shell/repl"
	"github.com/llmsh/llmsh/third_party/sh/interp"
)

const version = llmshversion.Number

// fullProcsAfter is how long a script runs on the one P of llmsh's start
// before it has every P (earlyvfsd.FullProcsAfter): longer than an
// agent's one-command run once vfsd has answered hello (`head`, `tail`,
// `-c true` take a few tenths of a millisecond then), short beside a
// script whose pipeline or sort has work for a second CPU (a goroutine
// that does not block can keep the timer waiting until the runtime
// preempts it, 10 ms).
const fullProcsAfter = 1 * time.Millisecond

// The --help text of llmsh: GNU's layout, printed by builtins.Flags.
var (
	usageLines = []string{
		"[OPTION]... SCRIPT_FILE [ARG]...",
		"[OPTION]... -c SCRIPT [NAME [ARG]...]",
		"mcp [-i PATH]... [-o PATH]... [--strict] [--timeout DUR]",
		"serve [--socket PATH] [--idle DUR] [--max-sessions N]",
		"session open [--socket PATH] [-i PATH]... [-o PATH]... [--strict]",
		"--session ID [--socket PATH] [--json] -c SCRIPT",
		"session close [--socket PATH] ID",
		"session snapshot [--socket PATH] ID FILE",
		"session restore [--socket PATH] [-i PATH]... [-o PATH]... FILE",
		"test [--update] PATH...",
	}
	usageSummary = `Run a bash-style script with builtins only; all file I/O goes through vfsd.
"llmsh mcp" serves the shell to an agent over the Model Context Protocol
(stdio); "llmsh mcp --help" says more. "llmsh serve" keeps sessions alive
on a Unix socket for callers that run one command at a time; "llmsh session
open" opens one there and prints its ID, "llmsh --session ID -c SCRIPT" runs
a script in it; "llmsh serve --help" says more.`
	usageEpilog = `Limits: at most 50,000,000 commands per run, an interpreter depth of 20,000 Go
frames (about 2,400 levels of function recursion), 20,000 processes at once
(jobs, pipeline elements), scripts of at most 16 MiB nested at most 1000
brackets deep, --max-output (output is kept up to the cap) and a memory guard
at 2 GiB of heap (--max-memory); each stops the script with a message and
status 125 (a script too large or too deep: status 2, before it runs). A run
may add at most 10G to files under the -o paths (--max-write; ulimit -f lowers
it), names past the first 8K included (a new file's name costs about 268
bytes, a directory 4364): past that a write fails with "File too large"
(status 1) and the script goes on. In the interactive shell a limit,
--timeout and --max-output stop the command line that met them, and the
session goes on.

As bash, llmsh takes the option letters -a -b -B -C -e -E -f -H -k -n -p -P
-t -T -u -x of set, -o NAME for errexit, nounset, pipefail, xtrace, noglob,
noclobber, errtrace, functrace, allexport and noexec when no file NAME exists
(else -o grants it), +LETTERS and +o NAME to turn them off, -O NAME and
+O NAME for shopt, --posix, -s (the script is standard input, the operands
its arguments), and ignores -l, -m, --login, --norc, --noprofile, --rcfile
FILE, --init-file FILE and --noediting (llmsh reads no start-up file and
has no job control without a terminal); -r (restricted) is refused; -i, -o,
-v and -h keep the meanings above.`
)

type options struct {
	inputs, outputs  []string
	script           string
	haveScript       bool
	vfsFds, vfsdPath string
	strict           bool
	timeout          time.Duration
	maxOutput        int64
	maxMemory        int64 // --max-memory; 0: memoryLimit
	maxWrite         int64 // --max-write; 0: the default, -1: none
	maxCommands      int64
	logFile          string
	verbose, quiet   bool
	noHistory        bool
	json             bool
	color            string
	session, socket  string
	operands         []string
	fdScript         []byte // the script of /dev/fd/N, read before the run
	fdErr            error
	shellOpts        []string // bash's option letters and -o names: "-e", "-o", "pipefail"
	stdinScript      bool     // -s: the script is standard input, the operands its arguments
}

func main() {
	llmsh.MaybeServeVfsd() // in server mode, llmsh is vfsd
	// No time of a script shows the host's zone (its TZ, /etc/localtime):
	// a script's zone is its own TZ, which the builtins read.
	time.Local = time.UTC
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func usageErr(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "llmsh: "+format+"\n", args...)
	fmt.Fprintln(stderr, usageLine)
	return 2
}

// parseSub parses the arguments of a subcommand with f. It returns the
// operands and -1 to go on, or the status after --help, --version or a
// usage error (printed by usage).
func parseSub(f *builtins.Flags, args []string, stdout io.Writer, usage func(string, ...any) int) ([]string, int) {
	operands, err := f.Parse(args)
	switch {
	case errors.Is(err, builtins.ErrHelp):
		f.PrintHelp(stdout)
		return nil, 0
	case errors.Is(err, errVersion):
		return nil, printVersion(stdout)
	case err != nil:
		return nil, usage("%s", err)
	}
	return operands, -1
}

// subUsage is the usage error function of the subcommand sub for
// parseSub.
func subUsage(stderr io.Writer, sub string) func(string, ...any) int {
	return func(format string, args ...any) int { return subUsageErr(stderr, sub, format, args...) }
}

// subUsageErr prints a usage error of the subcommand sub (serve, mcp),
// GNU's way, and returns 2.
func subUsageErr(stderr io.Writer, sub, format string, args ...any) int {
	fmt.Fprintf(stderr, "llmsh: "+sub+": "+format+"\n", args...)
	fmt.Fprintf(stderr, "Try 'llmsh %s --help' for more information.\n", sub)
	return 2
}

// usageLine follows every usage error of llmsh: the synopsis, as bash
// prints its own, then GNU's pointer to --help, as the subcommands'
// errors end (subUsageErr).
const usageLine = "Usage: llmsh [OPTION]... [SCRIPT_FILE | -c SCRIPT [NAME]] [ARG]...\n" +
	"Try 'llmsh --help' for more information."

// errVersion is returned by the --version option's function.
var errVersion = errors.New("version requested")

// newFlags is llmsh's command line, parsed into o by the getopt_long
// parser the builtins use: options end at the first operand and after -c's
// argument, as bash's do.
func newFlags(o *options, stdout, stderr io.Writer) *builtins.Flags {
	f := builtins.NewFlags(&builtins.Env{Args: []string{"llmsh"}, Stdout: stdout, Stderr: stderr}, usageSummary, usageLines...)
	f.Footer = "llmsh online help: 'help' lists every command; 'help NAME' shows its --help\n" +
		"Full documentation: README.md and docs/builtins.md in llmsh's source"
	f.StopAtOperand = true
	f.Epilog = usageEpilog
	str := func(p *string) func(string, bool) error {
		return func(v string, _ bool) error { *p = v; return nil }
	}
	grantFlags(f, o, func(v string) bool {
		// bash's -o OPTION, when OPTION names a shell option and no
		// file (`llmsh -euo pipefail script`).
		if !shellOptName[v] {
			return false
		}
		if _, err := os.Lstat(v); err == nil {
			return false
		}
		o.shellOpts = append(o.shellOpts, "-o", v)
		return true
	})
	// bash's set letters: -i, -o, -v and -h keep llmsh's meanings.
	for _, c := range shell.SetLetters {
		f.Func(c, "", builtins.NoArg, "", "", func(string, bool) error {
			o.shellOpts = append(o.shellOpts, "-"+string(c))
			return nil
		})
	}
	f.Func('O', "", builtins.RequiredArg, "NAME", "", func(v string, _ bool) error {
		// bash's -O NAME: shopt -s NAME before the script runs.
		if !interp.IsShoptOption(v) {
			return fmt.Errorf("%s: invalid shell option name", v)
		}
		o.shellOpts = append(o.shellOpts, "-O", v)
		return nil
	})
	f.Func('s', "", builtins.NoArg, "", "", func(string, bool) error { o.stdinScript = true; return nil })
	for _, name := range []string{"norc", "noprofile", "login", "noediting"} {
		f.Func(0, name, builtins.NoArg, "", "", func(string, bool) error { return nil }) // llmsh reads no start-up file
	}
	// bash -i's start-up file, never read (not --init-file, which would
	// make --in ambiguous).
	f.Func(0, "rcfile", builtins.RequiredArg, "FILE", "", func(string, bool) error { return nil })
	// bash's other name of --rcfile, only when spelled whole: --in is
	// still --input.
	f.AliasWhole("init-file", "rcfile")
	// bash -m: job control, which bash -c without a terminal turns off
	// again ("no job control in this shell"): nothing for a script.
	f.Func('m', "", builtins.NoArg, "", "", func(string, bool) error { return nil })
	f.Func('r', "", builtins.NoArg, "", "", func(string, bool) error {
		return errors.New("-r: restricted mode is not supported (llmsh confines a script by its -i and -o grants)")
	})
	// bash -l (a login shell: `bash -lc CMD`, as agent harnesses run
	// commands) differs from bash only by the start-up files it reads.
	f.Func('l', "", builtins.NoArg, "", "", func(string, bool) error { return nil })
	f.Func(0, "posix", builtins.NoArg, "", "", func(string, bool) error {
		o.shellOpts = append(o.shellOpts, "-o", "posix") // bash --posix: set -o posix
		return nil
	})
	f.Func('c', "", builtins.RequiredArg, "SCRIPT", "run SCRIPT (NAME is $0, llmsh if none; ARGs $1...)", func(v string, _ bool) error {
		o.script, o.haveScript = v, true
		f.Stop()
		return nil
	})
	f.Func(0, "vfs-fds", builtins.RequiredArg, "R,W", "use a vfsd that the parent already runs, on\ninherited fds", str(&o.vfsFds))
	f.Func(0, "vfsd", builtins.RequiredArg, "PATH", "run this vfsd binary instead of llmsh's own\nserver mode", str(&o.vfsdPath))
	f.BoolVar(&o.strict, 0, "strict", "writes outside -o fail instead of going to\nvirtual files")
	f.Func(0, "session", builtins.RequiredArg, "ID", "run -c SCRIPT in session ID of \"llmsh serve\"\n(stdin is sent unless it is a terminal)", func(v string, _ bool) error {
		if v == "" {
			// `llmsh --session "$id"` after a failed `session open`: the
			// script must not run here, in a fresh local shell, instead.
			return fmt.Errorf("invalid --session '' (an empty ID: did 'llmsh session open' fail?)")
		}
		o.session = v
		return nil
	})
	f.Func(0, "socket", builtins.RequiredArg, "PATH", "the socket of \"llmsh serve\" (default\n$XDG_RUNTIME_DIR/llmsh.sock)", str(&o.socket))
	f.BoolVar(&o.json, 0, "json", "print one JSON object {stdout, stderr, exit_code,\ntruncated, duration_ms, virtual_files} instead\nof streaming the output")
	f.Func(0, "timeout", builtins.RequiredArg, "DUR", "wall-clock limit for the whole run (exit status\n124); interactive: for each command line", durationFlag("timeout", &o.timeout))
	f.Func(0, "max-output", builtins.RequiredArg, "N", "cap on stdout+stderr bytes (suffixes K, M, G:\n1K = 1024, 1KB = 1000); interactive: per\ncommand line", sizeFlag("max-output", &o.maxOutput))
	f.Func(0, "max-memory", builtins.RequiredArg, "N", "the memory guard's heap limit (default 2G;\nsuffixes as --max-output)", maxMemoryFlag(&o.maxMemory, 0))
	f.Func(0, "max-write", builtins.RequiredArg, "N", "the most bytes the run may add to files under\nthe -o paths (default 10G, or unlimited;\nsuffixes as --max-output); past it a write\nfails with \"File too large\"", writeFlag(&o.maxWrite))
	f.Func(0, "max-commands", builtins.RequiredArg, "N", "cap on the commands run (default 50,000,000);\ninteractive: per command line", maxCommandsFlag(&o.maxCommands))
	f.Func(0, "log", builtins.RequiredArg, "FILE", "vfsd's structured request log", str(&o.logFile))
	f.BoolVar(&o.verbose, 'v', "verbose", "say more about the session on stderr")
	f.BoolVar(&o.quiet, 'q', "quiet", "do not name discarded virtual files at exit")
	f.BoolVar(&o.noHistory, 0, "no-history", "interactive: do not read or write the history\nfile")
	colorFlag(f, &o.color, "colour llmsh's messages and builtins'\n--color=auto output: auto (default: when stdout\nis a terminal, NO_COLOR is not set and TERM is\nnot dumb), always, never")
	f.Func('h', "", builtins.NoArg, "", "", func(string, bool) error { return builtins.ErrHelp })
	f.Func(0, "version", builtins.NoArg, "", "", func(string, bool) error { return errVersion })
	return f
}

// colorFlag defines --color[=WHEN] (and --colour), which sets *p to
// auto, always or never.
func colorFlag(f *builtins.Flags, p *string, help string) {
	f.Func(0, "color", builtins.OptionalArg, "WHEN", help, func(v string, present bool) error {
		if !present {
			v = "always"
		}
		if v != "auto" && v != "always" && v != "never" {
			return fmt.Errorf("invalid --color '%s' (want auto, always or never)", v)
		}
		*p = v
		return nil
	})
	f.Alias("colour", "color")
}

// shellOptName are the set -o names that `-o NAME` means when no file of
// that name exists.
var shellOptName = map[string]bool{
	"errexit": true, "nounset": true, "pipefail": true, "xtrace": true, "noglob": true,
	"noclobber": true, "errtrace": true, "functrace": true, "allexport": true, "noexec": true,
}

// grantFlags defines -i and -o, which add to o's grants. -o's value goes
// to shellOpt first, if set: it returns whether it took the value.
func grantFlags(f *builtins.Flags, o *options, shellOpt func(string) bool) {
	f.Func('i', "input", builtins.RequiredArg, "PATH", "PATH may be read; a directory grants its tree;\nrepeatable", func(v string, _ bool) error {
		o.inputs = append(o.inputs, v)
		return nil
	})
	f.Func('o', "output", builtins.RequiredArg, "PATH", "PATH may be written and read; a directory grants\nits tree; repeatable", func(v string, _ bool) error {
		if shellOpt != nil && shellOpt(v) {
			return nil
		}
		o.outputs = append(o.outputs, v)
		return nil
	})
}

// durationFlag sets *p from an option's value: a Go duration (300ms,
// 2m) or a number of seconds, greater than zero.
func durationFlag(name string, p *time.Duration) func(string, bool) error {
	return func(v string, _ bool) error {
		d, err := time.ParseDuration(v)
		if err != nil {
			// GNU timeout's forms too: 10, 1.5, 2m, 1d
			if n, ok := builtins.ParseSeconds(v); ok && n < float64(math.MaxInt64/time.Second) {
				d, err = time.Duration(n*float64(time.Second)), nil
			}
		}
		if err != nil || d <= 0 {
			return fmt.Errorf("invalid --%s '%s'", name, v)
		}
		*p = d
		return nil
	}
}

// sizeFlag sets *p from an option's value: a byte count with an
// optional suffix (100000, 1K, 10M, 1MB).
func sizeFlag(name string, p *int64) func(string, bool) error {
	return func(v string, _ bool) error {
		n, ok := builtins.ParseSize(v)
		if !ok {
			return fmt.Errorf("invalid --%s '%s'", name, v)
		}
		*p = n
		return nil
	}
}

// maxMemoryFlag sets *p from --max-memory's value: a size above zero,
// and, when most is above zero, at most most (an isolated session's
// process, as llmsh mcp runs it, is never given more than its default).
func maxMemoryFlag(p *int64, most int64) func(string, bool) error {
	return func(v string, _ bool) error {
		n, ok := builtins.ParseSize(v)
		if !ok || n <= 0 {
			return fmt.Errorf("invalid --max-memory '%s'", v)
		}
		if most > 0 && n > most {
			return fmt.Errorf("invalid --max-memory '%s' (at most %s)", v, memguard.SizeString(uint64(most)))
		}
		if n < llmsh.MinMaxMemory {
			// Below it the session's own state is over the limit:
			// even `exit 4` ended 125 with three lines of messages.
			return fmt.Errorf("invalid --max-memory '%s' (at least %s)", v, memguard.SizeString(llmsh.MinMaxMemory))
		}
		*p = n
		return nil
	}
}

// maxCommandsFlag sets *p from --max-commands's value, a count above zero.
func maxCommandsFlag(p *int64) func(string, bool) error {
	return func(v string, _ bool) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			return fmt.Errorf("invalid --max-commands '%s'", v)
		}
		*p = n
		return nil
	}
}

// writeFlag sets *p from --max-write's value: a size as sizeFlag takes
// it, or "unlimited" (-1).
func writeFlag(p *int64) func(string, bool) error {
	return func(v string, _ bool) error {
		if v == "unlimited" {
			*p = -1
			return nil
		}
		return sizeFlag("max-write", p)(v, true)
	}
}

// subcommandDocs names the document of each subcommand, for its --help.
var subcommandDocs = map[string]string{
	"llmsh test":    `README.md ("For a fixture author")`,
	"llmsh mcp":     `README.md ("MCP")`,
	"llmsh serve":   "docs/serve.md",
	"llmsh session": "docs/serve.md",
}

// subFlags is the command line of a subcommand (name is "llmsh test"):
// the builtins' getopt_long parser, with -h for --help and --version
// (Parse returns errVersion; printVersion answers it).
func subFlags(name string, stdout io.Writer, summary string, usage ...string) *builtins.Flags {
	f := builtins.NewFlags(&builtins.Env{Args: []string{name}, Stdout: stdout}, summary, usage...)
	// where this subcommand is documented, not the builtins' page
	f.Footer = "Full documentation: " + subcommandDocs[name] + " in llmsh's source"
	f.Func('h', "", builtins.NoArg, "", "", func(string, bool) error { return builtins.ErrHelp })
	f.Func(0, "version", builtins.NoArg, "", "", func(string, bool) error { return errVersion })
	return f
}

// printVersion is the answer to --version.
func printVersion(stdout io.Writer) int {
	fmt.Fprintf(stdout, "llmsh %s\n%s\n", version, sandboxLevel())
	return 0
}

// parseArgs parses llmsh's command line. The status is -1 to go on, -2
// for --version, -3 for --help, or 2 after a usage error was printed.
func parseArgs(args []string, stderr io.Writer) (*options, int) {
	return parseArgsInto(&options{}, args, stderr, func(format string, a ...any) int { return usageErr(stderr, format, a...) })
}

// parseArgsInto is parseArgs into o, with usage to report a usage error.
func parseArgsInto(o *options, args []string, stderr io.Writer, usage func(string, ...any) int) (*options, int) {
	for {
		operands, err := newFlags(o, io.Discard, stderr).Parse(args)
		switch {
		case errors.Is(err, builtins.ErrHelp):
			return nil, -3
		case errors.Is(err, errVersion):
			return nil, -2
		case err != nil:
			return nil, usage("%s", err)
		}
		rest, ok, err := plusOptions(o, args, operands)
		if err != nil {
			return nil, usage("%s", err)
		}
		if !ok {
			o.operands = operands
			return o, -1
		}
		args = rest // the options go on after +LETTERS
	}
}

// plusOptions takes bash's +LETTERS and +o NAME (`llmsh -e +e`, `+o
// pipefail`), which turn set options off, when the first operand is one
// (not after -c SCRIPT or --). It returns the arguments after them.
func plusOptions(o *options, args, operands []string) ([]string, bool, error) {
	if o.haveScript || len(operands) == 0 || len(operands[0]) < 2 || operands[0][0] != '+' {
		return nil, false, nil
	}
	if i := len(args) - len(operands); i > 0 && args[i-1] == "--" {
		return nil, false, nil
	}
	arg, rest := operands[0], operands[1:]
	for _, c := range arg[1:] {
		switch {
		case c == 'o' || c == 'O':
			valid, what := false, "option name"
			if len(rest) > 0 {
				valid = c == 'o' && shellOptName[rest[0]] || c == 'O' && interp.IsShoptOption(rest[0])
			}
			if c == 'O' {
				what = "shell option name"
			}
			if !valid {
				return nil, false, fmt.Errorf("%s: invalid %s", strings.Join(rest[:min(len(rest), 1)], ""), what)
			}
			o.shellOpts = append(o.shellOpts, "+"+string(c), rest[0])
			rest = rest[1:]
		case strings.ContainsRune(shell.SetLetters, c):
			o.shellOpts = append(o.shellOpts, "+"+string(c))
		default:
			return nil, false, fmt.Errorf("%s: invalid option", arg)
		}
	}
	return rest, true, nil
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "test" {
		return runFixtures(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "mcp" {
		return runMCP(args[1:], stdin, stdout, stderr)
	}
	if len(args) > 0 && args[0] == "serve" {
		return runServe(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "session" {
		return runSessionCmd(args[1:], stdout, stderr)
	}
	o, st := parseArgs(args, stderr)
	switch st {
	case -2:
		return printVersion(stdout)
	case -3:
		newFlags(&options{}, stdout, stderr).PrintHelp(stdout)
		return 0
	case -1:
	default:
		return st
	}
	if o.session != "" {
		return runClient(o, stdin, stdout, stderr)
	}
	if o.socket != "" {
		return usageErr(stderr, "--socket needs --session ID")
	}
	if len(o.operands) > 0 && o.operands[0] == "-" {
		// As bash: a lone - ends the options; the script is the next
		// operand, or standard input.
		o.operands = o.operands[1:]
	}
	if fd, ok := inheritedFD(firstOperand(o)); ok && fd != 0 {
		// Read now, before llmsh opens a descriptor of its own: a
		// number that is not the caller's must not reach one of them.
		o.fdScript, o.fdErr = readInheritedFD(fd, o.operands[0])
	}
	if o.json {
		return runJSON(o, stdin, stdout)
	}
	return runOpts(o, stdin, stdout, stderr, nil)
}

// report is what --json adds to the output of a run.
type report struct {
	truncated    bool
	virtualFiles []string
	omitted      int64 // virtual files not named in virtualFiles
}

// jsonResult is the one object that --json prints: the result of serve's
// run, whose fields are --json's (Cancelled is never set here).
type jsonResult = sessionserver.RunResult

// runJSON runs with the output collected, and prints it as one JSON
// object on stdout. The exit status is the script's, as without --json.
func runJSON(o *options, stdin io.Reader, stdout io.Writer) int {
	var out, errb bytes.Buffer
	rep := &report{}
	start := time.Now()
	// vfsd's own messages (why it refused a grant) are part of the
	// object's stderr too: it writes them from another goroutine.
	st := runOpts(o, stdin, &out, builtins.NewLockedWriter(&errb), rep)
	res := jsonResult{
		Stdout: out.String(), Stderr: errb.String(), ExitCode: st, Truncated: rep.truncated,
		DurationMS: time.Since(start).Milliseconds(), VirtualFiles: rep.virtualFiles,
		VirtualFilesOmitted: rep.omitted,
	}
	if res.VirtualFiles == nil {
		res.VirtualFiles = []string{}
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res); err != nil {
		return 1
	}
	return st
}

// runOpts runs the shell as the options say, in an llmsh.Session. With
// rep (--json) nothing is interactive, and the virtual files go to rep
// rather than to a message.
func runOpts(o *options, stdin io.Reader, stdout, stderr io.Writer, rep *report) int {
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "llmsh: %v\n", err)
		return 1
	}
	var hist *repl.History // opened before vfsd starts and before any self-restriction
	if !o.haveScript && len(o.operands) == 0 && !o.noHistory && rep == nil && isTerminal(stdin) {
		hist = openHistory(stderr)
		defer hist.Close()
	}
	colour := colorWanted(o.color, stdout)
	stdin = pollableStdin(stdin) // before Landlock: it opens /proc/self/fd/0
	name, source := "llmsh", ""
	var scriptArgs []string
	grantedInputs := o.inputs // the operator's -i paths, without the script file
	if o.haveScript {
		// As bash -c: the first operand is $0 (and the name in
		// messages), the rest $1….
		if len(o.operands) > 0 {
			name, scriptArgs = o.operands[0], o.operands[1:]
		}
	} else if o.stdinScript {
		scriptArgs = o.operands // as bash -s: the script is standard input
	} else if len(o.operands) > 0 {
		name, scriptArgs = o.operands[0], o.operands[1:]
		source = name
		if _, ok := inheritedFD(name); !ok {
			o.inputs = append(o.inputs, name) // the script file itself, nothing beside it
		}
	}
	var fds []int
	if o.vfsFds != "" {
		if len(o.inputs) > 0 && o.haveScript || len(o.outputs) > 0 {
			return usageErr(stderr, "--vfs-fds cannot be combined with -i/-o")
		}
		r, w, ok := strings.Cut(o.vfsFds, ",")
		rfd, err1 := strconv.Atoi(r)
		wfd, err2 := strconv.Atoi(w)
		if !ok || err1 != nil || err2 != nil || rfd < 0 || wfd < 0 {
			return usageErr(stderr, "invalid --vfs-fds '%s' (want R,W)", o.vfsFds)
		}
		fds = []int{rfd, wfd}
		if fd, bad := closedFD(fds); bad {
			return usageErr(stderr, "--vfs-fds '%s': %d: Bad file descriptor", o.vfsFds, fd)
		}
	} else {
		prepareGrants(grantedInputs, o.outputs, stderr)
	}
	builtinColor := o.color // builtins' --color=auto follows llmsh's --color, NO_COLOR and TERM=dumb
	if builtinColor != "always" && noColorEnv() {
		builtinColor = "never"
	}
	interactive := !o.haveScript && name == "llmsh" && rep == nil && isTerminal(stdin)
	var touts []*termOut // the REPL's terminal outputs, opened before Landlock
	if interactive {
		for _, w := range []io.Writer{stdout, stderr} {
			t := openTermOut(w)
			if t != nil {
				defer t.Close()
			}
			touts = append(touts, t)
		}
	}
	// This process runs this one session: awk's and jq's strings are
	// bounded as its values are, by its memory limit.
	builtins.SetStringLimit(llmsh.ValueLimit(cmp.Or(o.maxMemory, memoryLimit)))
	sess, err := llmsh.New(llmsh.Options{
		Inputs: o.inputs, Outputs: o.outputs, Strict: o.strict, Dir: cwd,
		VfsdPath: o.vfsdPath, VfsdLog: o.logFile, VfsdFDs: fds, VfsdStderr: stderr, Hidden: hiddenFiles(hist),
		Timeout: o.timeout, MaxOutput: o.maxOutput, MaxMemory: cmp.Or(o.maxMemory, memoryLimit),
		MaxWrite: o.maxWrite, Limits: shell.Limits{MaxCommands: o.maxCommands},
		Name: name, Source: source, Command: o.haveScript, Args: scriptArgs, Color: builtinColor, ShellOpts: o.shellOpts,
		FromStdin: !o.haveScript && (o.stdinScript || len(o.operands) == 0),
		Verbose:   o.verbose,
		// vfsd is running (exec has succeeded), so llmsh restricts
		// itself while vfsd is still starting up and answering hello:
		// the two take their time side by side.
		OnStart: func() { restrictSelf(o.verbose, stderr) },
	})
	if err != nil {
		if errors.Is(err, llmsh.ErrGrantRefused) {
			// vfsd refused a grant (-i/-o) and said why: a usage error.
			fmt.Fprintln(stderr, usageLine)
			return 2
		}
		fmt.Fprintln(stderr, err)
		return 1
	}
	defer sess.Close()

	var status int
	if interactive {
		earlyvfsd.FullProcs() // each command line runs on every P
		if status, err = runInteractive(sess, o, stdin.(*os.File), stdout, stderr, touts, hist, colour, cwd); err != nil {
			return runFailed(err, stderr)
		}
	} else if st, final := runScript(sess, o, name, stdin, stdout, stderr, rep); final {
		return st
	} else {
		status = st
	}
	if st, final := reportVirtuals(sess, o, stderr, rep); final {
		return st
	}
	return status
}

// runInteractive runs the REPL on the terminal tty.
// touts are stdout and stderr opened again when they are terminals (nil
// each when not), which the REPL writes to instead.
func runInteractive(sess *llmsh.Session, o *options, tty *os.File, stdout, stderr io.Writer, touts []*termOut, hist *repl.History, colour bool, cwd string) (int, error) {
	var held []repl.Held
	if touts[0] != nil {
		stdout = touts[0]
		held = append(held, touts[0])
	}
	if touts[1] != nil {
		stderr = touts[1]
		held = append(held, touts[1])
	}
	return sess.Interactive(context.Background(), stdout, stderr, func(ctx context.Context, p llmsh.Prompt) int {
		done := make(chan struct{})
		defer close(done)
		go stopStuck(ctx, done, sess.Kill, 0, stderr)
		return repl.Run(ctx, repl.Options{
			Shell: p.Shell, Input: repl.NewInput(tty), Terminal: tty, Stderr: stderr, History: hist, Color: colour,
			Timeout: p.Timeout, Begin: p.Begin, End: p.End, Held: held,
			Version: version, Readable: repl.Grants(cwd, o.inputs), Writable: repl.Grants(cwd, o.outputs),
			Roots: repl.Grants(cwd, append(o.inputs, o.outputs...)),
		})
	})
}

// runScript runs the script of -c, the file name, or standard input. final
// tells that llmsh exits with status at once.
func runScript(sess *llmsh.Session, o *options, name string, stdin io.Reader, stdout, stderr io.Writer, rep *report) (status int, final bool) {
	var src string
	fromStdin := false
	switch {
	case o.haveScript:
		src = o.script
	case name != "llmsh":
		var b []byte
		var err error
		if fd, ok := inheritedFD(name); ok {
			// A descriptor the caller gave llmsh (a pipe, <(…)): llmsh
			// reads it as it reads a script on its standard input (run
			// read any other descriptor before starting).
			b, err = o.fdScript, o.fdErr
			if fd == 0 {
				b, err = io.ReadAll(stdin)
				stdin = strings.NewReader("")
			}
		} else {
			b, err = sess.ReadFile(name)
		}
		if err != nil {
			// bash's words and statuses: 126 for a file that cannot be
			// read as a script, 127 for one that does not exist. bash
			// names a directory after the script ($0), as it does a
			// binary file below.
			if errors.Is(err, syscall.EISDIR) {
				fmt.Fprintf(stderr, "%s: %s: %s\n", name, name, builtins.ErrText(err))
				return 126, true
			}
			fmt.Fprintf(stderr, "llmsh: %s: %s\n", name, builtins.ErrText(err))
			if errors.Is(err, fs.ErrNotExist) {
				return 127, true
			}
			return 126, true
		}
		if _, piped := inheritedFD(name); !piped && shell.BinaryScript(b) {
			fmt.Fprintf(stderr, "%s: %s: cannot execute binary file\n", name, name)
			return 126, true
		}
		src = string(b)
	default:
		// The script is standard input: read a command at a time as
		// it runs, as bash reads it (its commands read its next lines).
		fromStdin = true
	}
	// A script that runs longer than a start runs on every P.
	defer earlyvfsd.FullProcsAfter(fullProcsAfter)()
	// A builtin or the parser deep in work that ignores cancellation
	// must not keep the run past its limit: stopStuck ends the process
	// once the stopped run is stuck (stuck.Wait: a second of CPU spent,
	// or a second of waiting, since the stop), a write to stdout or
	// stderr that nobody reads as any other wait.
	stopped, stop := context.WithCancelCause(context.Background())
	defer stop(nil)
	runDone := make(chan struct{})
	go stopStuck(stopped, runDone, sess.Kill, o.timeout, stderr)
	res, err := sess.RunWith(context.Background(), src, llmsh.RunOptions{
		Stdin: stdin, Stdout: stdout, Stderr: stderr, Script: true, ScriptFromStdin: fromStdin, OnStop: stop,
	})
	close(runDone)
	if rep != nil {
		rep.truncated = res.Truncated
	}
	if err != nil {
		return runFailed(err, stderr), true
	}
	if res.Limit == "time" {
		return res.ExitCode, true
	}
	return res.ExitCode, false
}

// reportVirtuals says which virtual files the session discarded; final
// tells that llmsh exits with status at once.
func reportVirtuals(sess *llmsh.Session, o *options, stderr io.Writer, rep *report) (status int, final bool) {
	names, omitted, err := sess.VirtualFiles()
	switch {
	case errors.Is(err, llmsh.ErrVfsdGone):
		// vfsd died as the script ended: the script's last writes may be
		// lost, so the run failed.
		return runFailed(err, stderr), true
	case err != nil:
		if !o.quiet {
			fmt.Fprintf(stderr, "llmsh: cannot list the discarded virtual files: %v\n", err)
		}
	case len(names)+int(omitted) == 0:
	case rep != nil:
		rep.virtualFiles, rep.omitted = names, omitted
	case !o.quiet:
		fmt.Fprintf(stderr, "llmsh: discarded virtual files: %s\n", discardedList(names, omitted))
	}
	return 0, false
}

// runFailed reports an error of the session that ended a run: status 1.
func runFailed(err error, stderr io.Writer) int {
	if errors.Is(err, llmsh.ErrVfsdGone) {
		fmt.Fprintln(stderr, "llmsh: vfsd exited unexpectedly")
	} else {
		fmt.Fprintln(stderr, err)
	}
	return 1
}

// discardedList is the text after "discarded virtual files: ": the names,
// and how many more were not named.
func discardedList(names []string, omitted int64) string {
	s := strings.Join(names, " ")
	if omitted > 0 {
		if s != "" {
			s += " "
		}
		s += fmt.Sprintf("(and %d more not named)", omitted)
	}
	return s
}

// stopStuck waits for the run to be stopped (ctx ends: time limit,
// memory or output limit, vfsd gone, with that cause); if it is then
// stuck (stuck.Wait: a second of CPU spent since, or a second in which
// it used next to none, such as a run held in a write to stdout or
// stderr that nobody reads), it says why (unless stderr blocks too),
// ends the session's processes and exits the process.
//
// A write held by an unread pipe is judged as any other wait (session
// 29): until then one in progress across a tick of 20 ms counted as
// stuck at once, a bound of wall-clock time that a reader slowed by the
// machine's load could pass, cutting the last output of a run that was
// finishing.
func stopStuck(ctx context.Context, runDone <-chan struct{}, endSession func(), timeout time.Duration, stderr io.Writer) {
	if !stuck.Wait(ctx, nil, runDone) {
		return
	}
	status := 125
	msg := "llmsh: the script did not stop when its run was cancelled\n"
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, llmsh.ErrVfsdGone):
		msg, status = "llmsh: vfsd exited unexpectedly\n", 1
	case errors.Is(cause, llmsh.ErrTimedOut), errors.Is(cause, context.DeadlineExceeded):
		msg, status = fmt.Sprintf("llmsh: timed out after %s\n", timeout), 124
	}
	sayAtMost(stderr, msg, 100*time.Millisecond)
	endSession()
	exit(status)
}

// sayAtMost writes msg to w unless that blocks for longer than d: the
// reader of a stopped run's output may be the one that stopped reading.
func sayAtMost(w io.Writer, msg string, d time.Duration) {
	said := make(chan struct{})
	go func() {
		defer close(said)
		io.WriteString(w, msg)
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-said:
	case <-t.C:
	}
}

// exit is os.Exit (a variable for tests).
var exit = os.Exit

func absJoin(dir, name string) string {
	if filepath.IsAbs(name) {
		return filepath.Clean(name)
	}
	return filepath.Join(dir, name)
}

// closedFD returns the first of fds that is not an open descriptor, so
// that --vfs-fds naming one is a usage error and not "vfsd exited".
func closedFD(fds []int) (int, bool) {
	for _, fd := range fds {
		if _, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFD, 0); e == syscall.EBADF {
			return fd, true
		}
	}
	return 0, false
}

// prepareGrants settles the -i and -o paths that do not exist yet, before
// vfsd opens its grants. A missing -i path is granted all the same (a file
// made there later can be read), and a line on stderr says so: a mistyped
// grant would otherwise only show as files the script cannot find. A
// missing -o path written with a trailing slash (-o out/) is made as a
// directory, as the operator asked; any other is granted as a single file,
// and a line on stderr says so (writes under it would otherwise be refused
// with no word of why). A path whose directory is missing too is left to
// vfsd, which refuses the grant and says why: nothing is made on the host
// but the directory a trailing slash names.
func prepareGrants(inputs, outputs []string, stderr io.Writer) {
	for _, p := range inputs {
		if _, err := os.Lstat(p); p == "" || !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if _, err := os.Stat(filepath.Dir(p)); err == nil {
			fmt.Fprintf(stderr, "llmsh: -i '%s': No such file or directory (granted: a file made there later can be read)\n", p)
		}
	}
	for _, p := range outputs {
		// an empty path is vfsd's to refuse ("invalid path"), not a file
		// to grant: its hint would be -o '/'
		if _, err := os.Lstat(p); p == "" || !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if strings.HasSuffix(p, "/") {
			// Only the directory named is made, as mkdir (not mkdir
			// -p) would: one whose parent is missing is refused by
			// vfsd, as a missing -i path's is (session 28: -o
			// /nonexist/x/ made /nonexist on the host).
			if err := os.Mkdir(p, 0o755); err != nil && !errors.Is(err, fs.ErrNotExist) {
				fmt.Fprintf(stderr, "llmsh: cannot create -o directory '%s': %s\n", p, builtins.ErrText(err))
			}
			continue
		}
		if _, err := os.Stat(filepath.Dir(p)); err != nil {
			// no directory to hold the file: vfsd refuses the grant
			// and says why, and nothing is granted
			continue
		}
		fmt.Fprintf(stderr, "llmsh: -o '%s' does not exist: granted as a single file (-o '%s/' makes it a directory)\n", p, p)
	}
}

// inheritedFD tells whether a script's name is one of llmsh's own
// descriptors (/dev/stdin, /dev/fd/N, /proc/self/fd/N), which the caller
// opened and handed over, as bash reads a script from a pipe or <(…).
func inheritedFD(name string) (int, bool) {
	if name == "/dev/stdin" {
		return 0, true
	}
	for _, dir := range []string{"/dev/fd/", "/proc/self/fd/"} {
		if n, ok := strings.CutPrefix(name, dir); ok {
			if fd, err := strconv.Atoi(n); err == nil && fd >= 0 && strconv.Itoa(fd) == n {
				return fd, true
			}
		}
	}
	return 0, false
}

// firstOperand is the script's name when there is a script file.
func firstOperand(o *options) string {
	if o.haveScript || len(o.operands) == 0 {
		return ""
	}
	return o.operands[0]
}

// readInheritedFD reads the script on descriptor fd. A
// descriptor that is not open is a file that does not exist, as the
// kernel says of /dev/fd/N.
func readInheritedFD(fd int, name string) ([]byte, error) {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	return io.ReadAll(f)
}
