// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package interp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// HandlerCtx returns the [HandlerContext] value stored in ctx,
// which is used when calling handler functions.
// It panics if ctx has no HandlerContext stored.
func HandlerCtx(ctx context.Context) HandlerContext {
	hc, ok := ctx.Value(handlerCtxKey{}).(*HandlerContext)
	if !ok {
		panic("interp.HandlerCtx: no HandlerContext in ctx")
	}
	return *hc
}

// HandlerCtxRef is [HandlerCtx] without the copy: the HandlerContext
// stored in ctx, which the caller must not change (llmsh: the shell's
// echo and printf keep it for the run of the command).
func HandlerCtxRef(ctx context.Context) *HandlerContext {
	hc, ok := ctx.Value(handlerCtxKey{}).(*HandlerContext)
	if !ok {
		panic("interp.HandlerCtx: no HandlerContext in ctx")
	}
	return hc
}

type handlerCtxKey struct{}

// handlerValueCtx is a context that carries a HandlerContext, as
// context.WithValue would in one allocation instead of two (the value
// boxed, then the context): the runner makes one for each handler call,
// two a command (llmsh). Its value is a pointer to hc, which nothing
// changes once made.
type handlerValueCtx struct {
	context.Context
	hc HandlerContext
}

func (c *handlerValueCtx) Value(key any) any {
	if _, ok := key.(handlerCtxKey); ok {
		return &c.hc
	}
	return c.Context.Value(key)
}

type handlerKind int

const (
	_                  handlerKind = iota
	handlerKindExec                // [ExecHandlerFunc]
	handlerKindCall                // [CallHandlerFunc]
	handlerKindOpen                // [OpenHandlerFunc]
	handlerKindReadDir             // [ReadDirHandlerFunc2]
	handlerKindStat                // [StatHandlerFunc]
	handlerKindAccess              // [AccessHandlerFunc]
)

// HandlerContext is the data passed to all the handler functions via [context.WithValue].
// It contains some of the current state of the [Runner].
type HandlerContext struct {
	runner *Runner // for internal use only, e.g. [HandlerContext.Builtin]

	// kind records which type of handler this context was built for.
	kind handlerKind

	// Env is a read-only version of the interpreter's environment,
	// including environment variables, global variables, and local function
	// variables.
	Env expand.Environ

	// Dir is the interpreter's current directory.
	Dir string

	// Pos is the source position which relates to the operation,
	// such as a [syntax.CallExpr] when calling an [ExecHandlerFunc].
	// It may be invalid if the operation has no relevant position information.
	Pos syntax.Pos

	// Node is the syntax node that a call, exec or open handler runs for:
	// the [*syntax.CallExpr] of the command (also for a command that
	// `command` or `exec` runs), the [*syntax.Redirect] of a redirection
	// or of a $(<FILE). It is nil for other handlers, and for an open
	// that no redirection asked for (`source FILE`). (llmsh: lets a
	// handler tell the nodes its own program made from a script's.)
	Node syntax.Node

	// TODO(v4): use an os.File for stdin below directly.

	// Stdin is the interpreter's current standard input reader.
	// It is always an [*os.File], except on js/wasm, where it may be
	// any reader; the type here remains an [io.Reader]
	// due to backwards compatibility.
	Stdin io.Reader
	// StdinWriteOnly says that a nil Stdin is a descriptor open for
	// writing only (0>FILE), not a closed one (<&-): reads fail the
	// same, but a program that closes it does not fail again (llmsh).
	StdinWriteOnly bool
	// Stdout is the interpreter's current standard output writer.
	Stdout io.Writer
	// Stderr is the interpreter's current standard error writer.
	Stderr io.Writer

	// Umask is the shell's file mode creation mask (the umask builtin;
	// 022 at start). A handler that creates a file gives it 0666 (0777
	// for a directory) less Umask. (llmsh: the process's own umask is
	// never read nor changed.)
	Umask fs.FileMode

	// Persist is set for an open handler's call for a redirection whose
	// descriptor may outlive its command: exec's, and those of
	// descriptors above 2. A handler that commits a truncating write only
	// when the file is closed should make it visible at once. (llmsh)
	Persist bool

	// fds is the descriptor table, for [HandlerContext.Fd]. (llmsh)
	fds map[int]*fdObj

	// LastExitStatus is the value that "$?" would hold when the handler is called.
	// A [CallHandlerFunc] or [ExecHandlerFunc] runs as part of its own command,
	// so this refers to the command before it.
	// At the start of a trap callback, it is the status of the command which triggered the trap.
	LastExitStatus int

	// IsBuiltin is true when an exec handler is asked to run the shell's
	// builtin Args[0], one that [ExecBuiltins] names, not a program.
	// (llmsh)
	IsBuiltin bool

	// NoFunc is true when an exec handler is asked to run Args[0] for
	// the command builtin (command NAME): the script's functions are
	// not looked at, as bash's command skips them. (llmsh)
	NoFunc bool

	// Exec is true when an exec handler is asked to run Args[0] for the
	// exec builtin (exec NAME): a name not found is bash's
	// "exec: NAME: not found". Argv0 is then exec -a's NAME, the
	// name the command is to see as its own (its $0 for a shell), or
	// empty. (llmsh)
	Exec  bool
	Argv0 string

	// DeferSeq is set, for an exec handler asked to run the shell's
	// echo or printf, when the command's status is read by nothing
	// before the runner's next barrier (see [DeferredWrites]): the
	// handler may then return before its writes are confirmed, and
	// charge a failure later, through the settle function, to the
	// statement DeferSeq. (llmsh)
	DeferSeq uint64

	// Lazy is set, for an open handler asked to open the output
	// redirection of an echo or printf that may defer (see
	// [DeferredRedirects]), when the handler may return before the
	// open is confirmed. (llmsh)
	Lazy bool
}

// CallHandlerFunc is a handler which runs on every [syntax.CallExpr].
// It is called once variable assignments and field expansion have occurred.
// The context includes a [HandlerContext] value.
//
// The call's arguments are replaced by what the handler returns,
// and then the call is executed by the Runner as usual.
// The args slice is never empty.
// At this time, returning an empty slice without an error is not supported.
//
// This handler is similar to [ExecHandlerFunc], but has two major differences:
//
// First, it runs for all simple commands, including function calls and builtins.
//
// Second, it is not expected to execute the simple command, but instead to
// allow running custom code which allows replacing the argument list.
// Shell builtins touch on many internals of the Runner, after all.
//
// Returning a non-nil error will halt the [Runner] and will be returned via the API.
type CallHandlerFunc func(ctx context.Context, args []string) ([]string, error)

// TODO: consistently treat handler errors as non-fatal by default,
// but have an interface or API to specify fatal errors which should make
// the shell exit with a particular status code.

// ExecHandlerFunc is a handler which executes simple commands.
// It is called for all [syntax.CallExpr] nodes
// where the first argument is neither a declared function nor a builtin.
// The args slice is never empty.
// The context includes a [HandlerContext] value.
//
// Returning a nil error means a zero exit status.
// Other exit statuses can be set by returning or wrapping a [NewExitStatus] error,
// and such an error is returned via the API if it is the last statement executed.
// Any other error will halt the [Runner] and will be returned via the API.
type ExecHandlerFunc func(ctx context.Context, args []string) error

// DefaultExecHandler returns the [ExecHandlerFunc] used by default.
//
// llmsh: no host program is ever run. The default handler prints
// "NAME: command not found" to the handler's stderr and returns exit status
// 127, as bash does for a command it cannot find. killTimeout is kept for
// the API's sake and unused.
func DefaultExecHandler(killTimeout time.Duration) ExecHandlerFunc {
	return func(ctx context.Context, args []string) error {
		hc := HandlerCtx(ctx)
		fmt.Fprintf(hc.Stderr, "%s: command not found\n", args[0])
		return ExitStatus(127)
	}
}

// statFile returns the path of file (relative to dir) when the runner's
// stat handler finds a file there that is not a directory, and, with
// checkExec, that has an execute bit. llmsh: upstream's checkStat called
// os.Stat on the host.
func (r *Runner) statFile(ctx context.Context, dir, file string, checkExec bool) (string, error) {
	if !filepath.IsAbs(file) {
		file = filepath.Join(dir, file)
	}
	info, err := r.statHandler(r.handlerCtx(ctx, handlerKindStat, todoPos), file, true)
	if err != nil {
		return "", err
	}
	m := info.Mode()
	if m.IsDir() {
		return "", fmt.Errorf("is a directory")
	}
	if checkExec && m&0o111 == 0 {
		return "", fmt.Errorf("permission denied")
	}
	return file, nil
}

// lookPath searches $PATH for file as [os/exec.LookPath] does, through
// the runner's stat handler: with exec, for an executable file (type,
// command -v, hash); without, for any file (source and . search $PATH
// for a name without a slash). llmsh: upstream's LookPathDir and
// scriptFromPathDir stat the host, and are removed.
func (r *Runner) lookPath(ctx context.Context, file string, exec bool) (string, error) {
	if strings.Contains(file, "/") {
		return r.statFile(ctx, r.Dir, file, exec)
	}
	pathList := filepath.SplitList(r.writeEnv.Get("PATH").String())
	if len(pathList) == 0 {
		pathList = []string{""}
	}
	for _, elem := range pathList {
		var path string
		switch elem {
		case "", ".":
			// otherwise "foo" won't be "./foo"
			path = "." + string(filepath.Separator) + file
		default:
			path = filepath.Join(elem, file)
		}
		if f, err := r.statFile(ctx, r.Dir, path, exec); err == nil {
			return f, nil
		}
	}
	return "", fmt.Errorf("%q: executable file not found in $PATH", file)
}

// sourcePathName is the name bash gives file, which lookPath found in a
// directory of $PATH, for source: the directory as $PATH writes it, a
// slash (none more after one), the name; "./FILE" for an empty entry or
// "." (llmsh: bash's sh_makepath).
func (r *Runner) sourcePathName(ctx context.Context, file string) string {
	for _, elem := range filepath.SplitList(r.writeEnv.Get("PATH").String()) {
		name := elem + "/" + file
		switch {
		case elem == "" || elem == ".":
			name = "./" + file
		case strings.HasSuffix(elem, "/"):
			name = elem + file
		}
		if _, err := r.statFile(ctx, r.Dir, name, false); err == nil {
			return name
		}
	}
	return file
}

// OpenHandlerFunc is a handler which opens files.
// It is called for all files that are opened directly by the shell,
// such as in redirects, except for named pipes created by process substitutions.
// The context includes a [HandlerContext] value.
// Files opened by executed programs are not included.
//
// The path parameter may be relative to the current directory,
// which can be fetched via [HandlerCtx].
//
// Use a return error of type [*os.PathError] to have the error printed to
// stderr and the exit status set to 1.
// Any other error will halt the [Runner] and will be returned via the API.
//
// Note that implementations which do not return [os.File] will cause
// extra files and goroutines for input redirections; see [StdIO].
type OpenHandlerFunc func(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error)

// TODO: paths passed to [OpenHandlerFunc] should be cleaned.

// errNoFileSystem is the error of the default handlers. llmsh: a Runner
// touches no file of the host; without handlers it has no file system.
var errNoFileSystem = errors.New("no file system configured")

// DefaultOpenHandler returns the [OpenHandlerFunc] used by default.
// llmsh: it opens nothing (upstream used [os.OpenFile]); every open fails
// with an [*os.PathError] saying that no file system is configured.
func DefaultOpenHandler() OpenHandlerFunc {
	return func(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
		return nil, &os.PathError{Op: "open", Path: path, Err: errNoFileSystem}
	}
}

// ReadDirHandlerFunc is a handler which reads directories. It is called during
// shell globbing, if enabled.
//
// Deprecated: use [ReadDirHandlerFunc2], which uses [fs.DirEntry].
type ReadDirHandlerFunc func(ctx context.Context, path string) ([]fs.FileInfo, error)

// ReadDirHandlerFunc2 is a handler which reads directories. It is called during
// shell globbing, if enabled.
// The context includes a [HandlerContext] value.
type ReadDirHandlerFunc2 func(ctx context.Context, path string) ([]fs.DirEntry, error)

// DefaultReadDirHandler returns the [ReadDirHandlerFunc] used by default.
// llmsh: it lists nothing (upstream used [os.ReadDir]).
//
// Deprecated: use [DefaultReadDirHandler2], which uses [fs.DirEntry].
func DefaultReadDirHandler() ReadDirHandlerFunc {
	return func(ctx context.Context, path string) ([]fs.FileInfo, error) {
		return nil, &os.PathError{Op: "open", Path: path, Err: errNoFileSystem}
	}
}

// DefaultReadDirHandler2 returns the [ReadDirHandlerFunc2] used by default.
// llmsh: it lists nothing (upstream used [os.ReadDir]).
func DefaultReadDirHandler2() ReadDirHandlerFunc2 {
	return func(ctx context.Context, path string) ([]fs.DirEntry, error) {
		return nil, &os.PathError{Op: "open", Path: path, Err: errNoFileSystem}
	}
}

// StatHandlerFunc is a handler which gets a file's information.
// The context includes a [HandlerContext] value.
type StatHandlerFunc func(ctx context.Context, name string, followSymlinks bool) (fs.FileInfo, error)

// DefaultStatHandler returns the [StatHandlerFunc] used by default.
// llmsh: it finds nothing (upstream used [os.Stat] and [os.Lstat]).
func DefaultStatHandler() StatHandlerFunc {
	return func(ctx context.Context, path string, followSymlinks bool) (fs.FileInfo, error) {
		return nil, &os.PathError{Op: "stat", Path: path, Err: errNoFileSystem}
	}
}

// AccessMode is a bitmask of file access checks, used by [AccessHandlerFunc].
type AccessMode uint32

// The values match access(2)'s R_OK, W_OK, and X_OK.
const (
	AccessRead  AccessMode = 0b100
	AccessWrite AccessMode = 0b010
	AccessExec  AccessMode = 0b001
)

// TODO(v4): fold AccessHandlerFunc into StatHandlerFunc.

// AccessHandlerFunc is a handler which checks whether the current user can
// access a file. It is called by the unary test operators -r, -w, and -x,
// and by builtins such as cd. The path is always absolute.
// A nil error means access is allowed.
// The context includes a [HandlerContext] value.
type AccessHandlerFunc func(ctx context.Context, path string, mode AccessMode) error

// DefaultAccessHandler returns the [AccessHandlerFunc] used by default.
// llmsh: it allows nothing (upstream called access(2) on the host).
func DefaultAccessHandler() AccessHandlerFunc {
	return func(ctx context.Context, path string, mode AccessMode) error {
		return &os.PathError{Op: "access", Path: path, Err: errNoFileSystem}
	}
}
