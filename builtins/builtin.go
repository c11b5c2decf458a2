// Package builtins holds llmsh's commands. Every command runs inside the
// llmsh process as a Go function of a small Env; none executes a host
// program, reads the host environment, or touches a file other than through
// Env.FS, which the shell connects to vfsd.
//
// A builtin is registered once, in an init function of its own file, with
// Register. The shell looks commands up with Lookup and runs them with Run,
// which turns a panic into "llmsh: NAME: internal error" and status 2.
//
// docs/architecture.md shows how the packages fit together.
package builtins

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"path"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/llmsh/llmsh/internal/dotdot"
	"github.com/llmsh/llmsh/internal/version"
)

// File is an open file of the FS.
type File interface {
	io.Reader
	io.Writer
	io.Seeker
	io.Closer
	Stat() (fs.FileInfo, error)
}

// FileCopier is an output that is a file of vfsd's (a redirection) and
// can take the bytes of an input that is one too without their passing
// through the builtin (vfsd copies between its own descriptors, as GNU
// cat's copy_file_range). CopyFileFrom copies up to max bytes of r from
// r's offset and returns how many (0: r is at its end); ok is false when
// it cannot copy from r (nothing was copied: the caller reads r itself).
// An error is the output's write failure.
type FileCopier interface {
	CopyFileFrom(r io.Reader, max int64) (n int64, ok bool, err error)
}

// FS is the file system a builtin sees. Names are absolute, slash-separated
// paths (builtins make them so with Env.Abs). Errors are *fs.PathError
// values whose Err is a syscall.Errno where one applies, so that ErrText
// gives GNU's wording.
type FS interface {
	// OpenFile opens name with os.O_* flags (O_RDONLY, O_WRONLY|O_CREATE|O_TRUNC,
	// O_WRONLY|O_CREATE|O_APPEND, O_RDWR|O_CREATE).
	OpenFile(name string, flag int) (File, error)
	// Stat describes name, following symbolic links.
	Stat(name string) (fs.FileInfo, error)
	// ReadDir lists the directory name, sorted by file name.
	ReadDir(name string) ([]fs.DirEntry, error)
	// Lstat describes name without following a final symbolic link
	// (Mode has fs.ModeSymlink for a link).
	Lstat(name string) (fs.FileInfo, error)
	// Readlink returns the text of the symbolic link name, unresolved;
	// anything that is not a link is EINVAL.
	Readlink(name string) (string, error)
	// Mkdir creates the directory name with exactly the permission bits
	// of perm. An existing name is EEXIST.
	Mkdir(name string, perm fs.FileMode) error
	// Remove removes a file, a symbolic link or an empty directory, like
	// os.Remove; a directory that is not empty is ENOTEMPTY.
	Remove(name string) error
	// Rename renames oldname to newname, replacing a file (or an empty
	// directory by a directory). Across granted trees it fails with EXDEV
	// and the caller copies instead.
	Rename(oldname, newname string) error
	// Chtimes sets the access and modification times of name; a zero
	// time is left unchanged.
	Chtimes(name string, atime, mtime time.Time) error
	// Chmod sets the permission bits of name (0 to 0777), following
	// symbolic links.
	Chmod(name string, perm fs.FileMode) error
}

// SameFile reports whether a and b (FileInfos from the FS) describe the
// same file by the identity the FS gives them (vfsd's "id": hard links, a
// followed link and its target). It is false when either has none.
func SameFile(a, b fs.FileInfo) bool {
	type ider interface{ FileID() string }
	ia, okA := a.(ider)
	ib, okB := b.(ider)
	return okA && okB && ia.FileID() != "" && ia.FileID() == ib.FileID()
}

// ExecFunc runs another command in-process (for xargs, find -exec, timeout,
// sh -c): args[0] is a builtin name or a shell function; it returns the
// exit status.
type ExecFunc func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int

type execDirKey struct{}

// WithExecDir returns ctx for an Exec call that runs its command in dir
// (absolute), as env -C and find -execdir do.
func WithExecDir(ctx context.Context, dir string) context.Context {
	return context.WithValue(ctx, execDirKey{}, dir)
}

// ExecDir is the directory that ctx gives an Exec call (WithExecDir).
func ExecDir(ctx context.Context) (string, bool) {
	d, ok := ctx.Value(execDirKey{}).(string)
	return d, ok && d != ""
}

type execFailureKey struct{}

// ExecFailure records whether an Exec call could not run its command at
// all (no such file, not executable): GNU xargs stops with 126 or 127
// then, but a command that ran and exited 126 or 127 itself is just a
// failure (123).
type ExecFailure struct{ failed atomic.Bool }

// Failed reports whether the command could not be run.
func (f *ExecFailure) Failed() bool { return f != nil && f.failed.Load() }

// Set records that the command could not be run.
func (f *ExecFailure) Set() {
	if f != nil {
		f.failed.Store(true)
	}
}

// WithExecFailure returns ctx for an Exec call that records in f whether
// its command could not be run; f nil: none is recorded.
func WithExecFailure(ctx context.Context, f *ExecFailure) context.Context {
	return context.WithValue(ctx, execFailureKey{}, f)
}

// ExecFailureOf is the record ctx gives an Exec call (WithExecFailure),
// or nil.
func ExecFailureOf(ctx context.Context) *ExecFailure {
	f, _ := ctx.Value(execFailureKey{}).(*ExecFailure)
	return f
}

// Env is everything a builtin runs with.
type Env struct {
	Ctx   context.Context // cancelled by --timeout, Ctrl-C and closed pipes
	Args  []string        // Args[0] is the command name as invoked
	Stdin io.Reader
	// StdinClosed reports that the command runs with its standard
	// input closed (<&-), not merely unreadable (open write-only):
	// reads fail with EBADF either way, but a GNU tool that closes the
	// standard input it read fails once more only then.
	StdinClosed bool
	Stdout      io.Writer
	Stderr      io.Writer
	FS          FS       // every file access goes here
	Dir         string   // the virtual working directory, absolute
	Environ     []string // the script's exported variables, "NAME=value", sorted
	Exec        ExecFunc // runs another command in-process; nil where unavailable
	// GoCtx, when set, is the context for Exec from a goroutine that the
	// builtin starts (xargs -P, awk's command pipes): called on the
	// goroutine that starts them, at or before the start, it
	// carries that stack's depth, so that a recursion through new
	// goroutines meets the call-depth limit.
	GoCtx func(context.Context) context.Context
	// Terminal reports whether Stdout is a terminal (ls layout, gzip's
	// refusal to write compressed data to one).
	Terminal bool
	// Color reports whether --color=auto colours: Stdout is a terminal and
	// the operator has not turned colour off (NO_COLOR, llmsh
	// --color=never), or llmsh runs with --color=always.
	Color bool
	// PanicLog, when not nil, receives the value and stack of a panic
	// that Run recovers (llmsh --verbose: the run's stderr). The
	// script's stderr gets only "llmsh: NAME: internal error".
	PanicLog io.Writer
	// ShellPrefix starts the messages of the shell's own builtins (echo,
	// printf) run as a command of the script: bash's "NAME: line N: ".
	// Empty means "llmsh: " (see Env.ShellName).
	ShellPrefix string
	// XPGEcho is the shell's shopt xpg_echo: the shell's echo expands
	// backslash escapes unless -E says not to.
	XPGEcho bool
	// EchoNoOptions is set when both xpg_echo and set -o posix are on:
	// then bash's echo reads no options (echo -n x prints "-n x").
	EchoNoOptions bool
	// Shell, set for the shell's own printf, is what it may ask of the
	// shell that runs it; nil where there is none (env printf).
	Shell ShellVars
	// MaxLine, when not zero, bounds the bytes of one line that a
	// reader of lines gathers (the session's bound on one value): past
	// it the reader calls Limit, which stops the run, and ends as a
	// cancelled command (Env.gatherLine).
	MaxLine int
	Limit   func(error)
}

// ClosedStdin is a closed standard input (the shell's <&-, what find -ok
// gives its command): every read fails with EBADF, as a read(2) of a
// closed descriptor ("cat: -: Bad file descriptor"). Given to Env.Exec,
// the command runs with Env.StdinClosed set.
type ClosedStdin struct{}

func (ClosedStdin) Read([]byte) (int, error) { return 0, syscall.EBADF }

func (ClosedStdin) unreadable() {}

// unreadable is a standard input that is closed or open for writing only
// (ClosedStdin, and the shell's types that embed it).
type unreadable interface{ unreadable() }

// ShellVars is what the shell's own printf may ask of the shell that runs
// it, looked up when asked (a printf with no %n nor %q never does).
type ShellVars interface {
	// Assign assigns a shell variable (%n).
	Assign(name, value string)
	// ByteLocale says whether the shell's locale (LC_ALL, LC_CTYPE,
	// LANG, exported or not) is C or POSIX, where %q quotes each byte
	// that is not ASCII.
	ByteLocale() bool
}

// ShellName is what a message of the shell's own builtins starts with:
// ShellPrefix, or "llmsh: ".
func (e *Env) ShellName() string {
	if e.ShellPrefix != "" {
		return e.ShellPrefix
	}
	return "llmsh: "
}

// Func is the body of a builtin: it returns the exit status.
type Func func(env *Env) int

// Builtin is a registered command.
type Builtin struct {
	Name    string // the command name
	Summary string // one line, for help
	Run     Func
}

var (
	regMu    sync.RWMutex
	registry = make(map[string]Builtin, 256) // every builtin, without regrowing at start-up
)

// Register adds b to the registry. It panics on a duplicate name, which is
// a programming error caught by the package's tests.
func Register(b Builtin) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := registry[b.Name]; dup {
		panic("builtins: duplicate registration of " + b.Name)
	}
	registry[b.Name] = b
}

// register is Register for a declaration, `var _ = register(...)`, as
// each file registers its commands: the package's variables are set in
// one init function, where an init function of each file made the start
// fault in a page of the binary's text for each of them (and the 64 KiB
// around it: about 1 MB of llmsh's resident set at start-up).
func register(b Builtin) struct{} {
	Register(b)
	return struct{}{}
}

// Lookup returns the builtin called name.
func Lookup(name string) (Builtin, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	b, ok := registry[name]
	return b, ok
}

// All returns every registered builtin, sorted by name.
func All() []Builtin {
	regMu.RLock()
	defer regMu.RUnlock()
	out := make([]Builtin, 0, len(registry))
	for _, b := range registry {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Run runs b with env, turning a panic into "llmsh: NAME: internal error"
// on env.Stderr and status 2. A panic that is a closed-pipe signal from a
// writer (see ErrClosedPipe handling in the shell) is the shell's business;
// Run treats every panic alike.
func Run(b Builtin, env *Env) (status int) {
	if len(env.Args) == 2 && env.Args[1] == "--version" && !ownVersion[b.Name] {
		fmt.Fprintf(env.Stdout, "%s (llmsh) %s\n", b.Name, Version)
		if b.Name == "false" { // GNU's false fails even here
			return 1
		}
		return 0
	}
	defer func() {
		if v := recover(); v != nil {
			if env.PanicLog != nil {
				fmt.Fprintf(env.PanicLog, "llmsh: %s: panic: %v\n%s", b.Name, v, debug.Stack())
			}
			fmt.Fprintf(env.Stderr, "llmsh: %s: internal error\n", b.Name)
			status = 2
		}
	}()
	return b.Run(env)
}

// Version is llmsh's version, which `NAME --version` prints for every
// command ("grep (llmsh) 0.1.0", in the place of GNU's "grep (GNU grep)
// 3.8"): the same in a library session as in the llmsh command.
var Version = version.Number

// ownVersion are the commands whose --version is theirs: echo and printf
// (the shell's bash builtins of these names print --version as an operand
// or refuse it, where GNU's print llmsh's version), jq (jq-VERSION),
// awk (GoAWK's origin and what llmsh refuses of it), help (bash's
// builtin refuses it: "help: --: invalid option", status 2).
var ownVersion = map[string]bool{"echo": true, "printf": true, "jq": true, "awk": true, "help": true}

// Name is the command name for messages: Args[0] without any directory.
func (e *Env) Name() string {
	if len(e.Args) == 0 {
		return ""
	}
	return path.Base(e.Args[0])
}

// Abs makes name absolute against the working directory and cleans it,
// keeping a final slash (or "/."): such a name must be a directory, and
// vfsd answers ENOTDIR for a file, as the kernel would.
func (e *Env) Abs(name string) string {
	if name == "" {
		return "" // names no file: the FS answers ENOENT, as the kernel
	}
	p := path.Join(e.Dir, name)
	if strings.HasPrefix(name, "/") {
		p = path.Clean(name)
	}
	if p != "/" && (strings.HasSuffix(name, "/") || strings.HasSuffix(name, "/.")) {
		p += "/" // name must be a directory: vfsd says ENOTDIR for a file
	}
	if e.FS != nil && strings.Contains(name, "..") {
		return e.dotDotAbs(name, p)
	}
	return p
}

// joinDir is name made absolute against the working directory, cleaned.
func (e *Env) joinDir(name string) string {
	if strings.HasPrefix(name, "/") {
		return path.Clean(name)
	}
	return path.Join(e.Dir, name)
}

// dotDotAbs is Abs of a name that holds "..": the kernel resolves it name
// by name, so `cat f/../x` is ENOTDIR and `ls nope/..` ENOENT where the
// clean path p would be found. A prefix before a ".." that is no
// directory gives a path under it: every use of that path (stat, open,
// create, mkdir, remove, rename) fails with the errno the kernel gives
// name, while vfsd still judges the final path (docs/security.md). One
// stat for each "..", none for a name without one (mkdir -p asks for its
// prefixes one by one, so it makes nope before nope/..: GNU's order).
func (e *Env) dotDotAbs(name, p string) string {
	bad, err := dotdot.Check(name, func(prefix string) (fs.FileInfo, error) {
		return e.FS.Stat(e.joinDir(prefix))
	})
	if err == nil {
		return p
	}
	bad = e.joinDir(bad)
	// a name under bad: not there when bad is missing, ENOTDIR for a file
	return path.Join(bad, "..."+path.Base(p))
}
