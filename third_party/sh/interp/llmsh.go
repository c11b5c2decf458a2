// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// This file holds what llmsh added to the interpreter: the limits on the
// text that eval, source and traps parse, the session's virtual process
// ids and user, and process substitution through a handler. See LLMSH.md.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/llmsh/llmsh/internal/dotdot"
	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// The defaults of [TextLimits].
const (
	DefaultMaxText    = 16 << 20 // bytes of a script text
	DefaultMaxNesting = 1000     // bracket nesting of a script text
)

// VirtualUID and VirtualGID are the user and group of every runner unless
// [User] says otherwise: $UID, $EUID and $GROUPS never show the host's.
const (
	VirtualUID = 1000
	VirtualGID = 1000
)

// session is what a runner shares with its subshells and with the runners
// that Reset makes of it: limits, identity and the process ids handed out.
type session struct {
	// substLines caches substLineMap (comsub.go) for the $( ) run
	// lately, a loop's again and again; it is emptied when it grows
	// past substLinesMax.
	substLines struct {
		sync.Mutex
		m map[*syntax.CmdSubst]map[*syntax.Stmt][3]int
	}
	maxText    int
	maxNesting int
	uid, gid   int
	pid        int // $$: the session's virtual process id
	ppid       int // $PPID: its parent's (ParentPid)
	// entryIgnored are the signals ignored as the shell started
	// (IgnoredAtEntry): their traps stay '' (traps.go).
	entryIgnored map[string]bool
	lastPid      atomic.Int64 // the last process id handed out ($BASHPID, $!)
	procSubst    ProcSubstHandlerFunc
	goContext    func(context.Context) context.Context // GoContext
	procs        sync.Map                              // pid → *bgProc: the jobs still running, for kill
	orphanMu     sync.Mutex
	orphans      []*bgProc                              // >(LIST)s whose job ended before them (orphanPsubs)
	running      atomic.Int64                           // how many of procs: while any runs, no write is deferred
	jobsStarted  atomic.Int64                           // background jobs started in the session
	ulimits      map[byte]int64                         // what ulimit shows, by flag (umask.go)
	ulimitFns    map[byte]func(int64) (int64, error)    // limits the embedder keeps (UlimitFunc)
	top          topSignal                              // signals sent to $$ (signals.go)
	topPending   atomic.Bool                            // top.pending is not empty
	groupSig     atomic.Bool                            // GroupSignals was asked for (jobsig.go)
	maxValue     int                                    // expand.Config.MaxValue
	heapCheck    func(uint64)                           // expand.Config.HeapCheck
	graceEnd     graceEnd                               // GraceEnd
	timeFormat   func(time.Time, string, string) string // expand.Config.TimeFormat
	jobControl   bool                                   // fg and bg work (JobControl)
	fg           atomic.Pointer[bgProc]                 // the job waited for in the foreground (jobstop.go)
	exitWarned   uint64                                 // the statement whose exit warned of stopped jobs
	scriptName   string                                 // the script file (ScriptName)
	invocation   string                                 // the end of $- (Invocation)
	atPrompt     bool                                   // errors without "line N:" (AtPrompt)
	ttyIn        atomic.Pointer[ttyFeed]                // the terminal's feed (TerminalStdin)
	// entryUmask is the mask the shell starts with (StartUmask; umask.go):
	// a nested shell's is its parent's, as a process inherits it.
	entryUmask fs.FileMode
	// killedJobs counts the jobs that kill has ended (notifyKilled
	// looks at the table only once one has been).
	killedJobs atomic.Int64
	// execBuiltins are the builtins the exec handler runs (ExecBuiltins).
	execBuiltins map[string]bool
	history      func() []string // the interactive history, for fc (History)
	commands     func() []string // the embedder's commands, for compgen -c (CommandNames)
	// settleDeferred confirms the deferred writes (DeferredWrites).
	settleDeferred func(cur uint64) (uint8, bool)
	// deferRedirs lets an echo or printf with an output redirection of
	// its own defer (DeferredRedirects).
	deferRedirs bool
}

func newSession() *session {
	s := &session{
		maxText:    DefaultMaxText,
		maxNesting: DefaultMaxNesting,
		uid:        VirtualUID,
		gid:        VirtualGID,
		entryUmask: defaultUmask,
		// A number that looks like a process id and says nothing of the
		// host: scripts use $$ in names, and bash's pids are above 300.
		pid: 1000 + rand.IntN(30000),
	}
	s.ppid = s.pid - 1 - rand.IntN(200)
	s.lastPid.Store(int64(s.pid))
	return s
}

// newPid returns a virtual process id not handed out before in the session.
func (s *session) newPid() int { return int(s.lastPid.Add(1)) }

// TextLimits bounds the text that the runner parses for eval, source, .,
// and trap actions: at most maxBytes bytes, and brackets nested at most
// maxNesting deep (Go cannot recover from the stack overflow that deeper
// text would cause in the parser or the runner). Zero keeps a default.
func TextLimits(maxBytes, maxNesting int) RunnerOption {
	return func(r *Runner) error {
		if maxBytes > 0 {
			r.llmsh.maxText = maxBytes
		}
		if maxNesting > 0 {
			r.llmsh.maxNesting = maxNesting
		}
		return nil
	}
}

// ValueLimit bounds, in bytes, the output a command substitution keeps
// and each word an expansion makes (expand.Config.MaxValue): past it the
// command fails with "value too large". Zero: no bound.
func ValueLimit(n int) RunnerOption {
	return func(r *Runner) error {
		r.llmsh.maxValue = n
		return nil
	}
}

// HeapCheck makes f what an expansion calls every 64Ki fields it makes,
// and before a list of millions of fields grows, with the bytes of the
// new list (expand.Config.HeapCheck): llmsh's memory guard looks at the
// heap then, on the runner's goroutine, and stops the run if it, and
// those bytes, are over.
func HeapCheck(f func(grow uint64)) RunnerOption {
	return func(r *Runner) error {
		r.llmsh.heapCheck = f
		return nil
	}
}

// graceEnd is GraceEnd's function.
type graceEnd = func() (end <-chan struct{}, stop func())

// GraceEnd makes end the bound of HangUp's grace for the jobs still
// running that neither end nor enter a command that waits: end returns
// a channel that is closed once the grace is over, and a function that
// HangUp calls when it no longer needs it. Without it the grace is
// graceWait of wall-clock time, of which the machine's load leaves the
// jobs a share that it alone decides (llmsh: see jobs.go).
func GraceEnd(end func() (<-chan struct{}, func())) RunnerOption {
	return func(r *Runner) error {
		r.llmsh.graceEnd = end
		return nil
	}
}

// TimeFormat sets how the prompt escape \D{FORMAT} formats a time
// (expand.Config.TimeFormat): as strftime(3) does FORMAT, in the zone
// that tz, the value of TZ, names. Unset, \D{…} is kept as written.
func TimeFormat(f func(t time.Time, format, tz string) string) RunnerOption {
	return func(r *Runner) error {
		r.llmsh.timeFormat = f
		return nil
	}
}

// User sets the ids that $UID, $EUID and $GROUPS show (default [VirtualUID]
// and [VirtualGID]) and that -O and -G test against.
func User(uid, gid int) RunnerOption {
	return func(r *Runner) error {
		r.llmsh.uid, r.llmsh.gid = uid, gid
		return nil
	}
}

// GoContext sets f, which the runner applies to the context of each
// goroutine it starts for commands (a pipeline's elements but the last,
// a background job, a process substitution, a coprocess). llmsh carries
// the depth of the stack that started it there, so that a recursion
// through new goroutines (f() { f | cat; }) meets the same call-depth
// limit as one on a single stack.
func GoContext(f func(context.Context) context.Context) RunnerOption {
	return func(r *Runner) error {
		r.llmsh.goContext = f
		return nil
	}
}

// goContext is ctx for a new goroutine of commands (GoContext).
func (r *Runner) goContext(ctx context.Context) context.Context {
	if r.llmsh.goContext != nil {
		return r.llmsh.goContext(ctx)
	}
	return ctx
}

// ProcSubstHandlerFunc makes the pipe of a process substitution <(LIST) or
// >(LIST). path is the name that replaces the substitution in the command's
// words (bash's /dev/fd/N); the handler's open and stat handlers must serve
// it. job is the list's end of the pipe: the list writes to it when
// jobWrites (<(LIST)) and reads from it otherwise (>(LIST)); the runner
// closes it when the list ends. release is called when the command whose
// words held the substitution has finished: it closes the command's end if
// the command never opened it, so that the list does not wait forever.
type ProcSubstHandlerFunc func(ctx context.Context, jobWrites bool) (path string, job io.ReadWriteCloser, release func(), err error)

// ProcSubstHandler sets the handler of process substitutions. Without one,
// a process substitution fails ("process substitution is not supported"):
// llmsh's interpreter makes no FIFO on the host (upstream made one in
// $TMPDIR).
func ProcSubstHandler(f ProcSubstHandlerFunc) RunnerOption {
	return func(r *Runner) error {
		r.llmsh.procSubst = f
		return nil
	}
}

// SetInputSync gives the runner f, which sets the offset of the input it
// reads its script from (a file that can seek) back to the end of the
// lines it has run, as bash's sync_buffered_stream: bash reads such a
// script a block at a time, and sets the offset back before each process
// it forks (a subshell, a pipeline's element, a job, a program: a command
// the exec handler runs), a `read` of descriptor 0 and a redirection of
// descriptor 0; mapfile and `read -u N` of a copy of it read after the
// block. Subshells do not get it (a forked child's buffer is empty). It
// returns the function it replaces (nil: none).
func (r *Runner) SetInputSync(f func()) func() {
	old := r.inputSync
	r.inputSync = f
	return old
}

// syncInput is bash's sync_buffered_stream of its script's input
// (SetInputSync), before a fork, a read of descriptor 0 or a
// redirection of it.
func (r *Runner) syncInput() {
	if r.inputSync != nil {
		r.inputSync()
	}
}

// Pid returns the runner's $BASHPID: the session's $$ at the top, a new
// virtual id in each subshell.
func (r *Runner) Pid() int { return r.bashPid }

// KilledBy is the signal that ended the shell in the last Run (`kill
// $$`, `kill -9 $BASHPID`), or 0: a nested shell's parent reports it
// ([KilledStatus]).
func (r *Runner) KilledBy() int { return int(r.killedBy) }

// TextLimitError is the error of a text that passes a [TextLimits] bound.
// eval, source and . refuse such a text with status 2, as a syntax error.
type TextLimitError string

func (e TextLimitError) Error() string { return string(e) }

// textStatus is the status of eval, source or . when parsing failed.
func textStatus(err error) uint8 {
	var tl TextLimitError
	if errors.As(err, &tl) {
		return 2
	}
	return 1
}

// CheckText reports whether src is within maxBytes and maxNesting (see
// [TextLimits]); the error says which limit it passes. Brackets are
// counted as written, quotes and all, which overestimates and so errs on
// the safe side.
func CheckText(src string, maxBytes, maxNesting int) error {
	if len(src) > maxBytes {
		return TextLimitError(fmt.Sprintf("script too large (%d bytes; the limit is %d)", len(src), maxBytes))
	}
	depth := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '(', '{', '[':
			depth++
			if depth > maxNesting {
				return TextLimitError(fmt.Sprintf("script nested too deeply (more than %d levels)", maxNesting))
			}
		case ')', '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	return nil
}

// parseText parses src for eval, source or a trap after checking it
// against the runner's text limits, however the builtin was reached
// (`command eval`, `builtin source`, a trap set through `command trap`).
func (r *Runner) parseText(src, name string) (*syntax.File, error) {
	return r.parseTextCtx(context.Background(), src, name)
}

// parseTextCtx is parseText for eval and source, whose parse of a long
// text ends with ctx (TextParser).
func (r *Runner) parseTextCtx(ctx context.Context, src, name string) (*syntax.File, error) {
	if err := CheckText(src, r.llmsh.maxText, r.llmsh.maxNesting); err != nil {
		return nil, err
	}
	f, err := TextParser(ctx, src).Parse(strings.NewReader(src), name)
	if le := (syntax.LangError{}); errors.As(err, &le) {
		// llmsh: another shell's feature is bash's syntax error, in
		// eval, source and trap text as in a script (shell's
		// runToSyntaxError): `eval '() { :; }'`.
		err = LangSyntaxError(le, src)
	}
	return f, err
}

// ErrTextStopped is the error of a parse of a long text that its run's
// end stopped (TextParser).
var ErrTextStopped = errors.New("parse stopped: the run has ended")

// stopTextAt is the length from which a text's parse looks at its run's
// context: 64 of the parser's reads of 1 KiB.
const stopTextAt = 64 << 10

// TextParser is the parser of src, which fails with ErrTextStopped once
// ctx is done when src is of stopTextAt bytes or more (never for a ctx
// that cannot end, as context.Background()), so that such a parse ends
// with its run (llmsh, session 27: `eval ": $x"` of a million words went
// on parsing 1.2 s past the time limit, a nested `bash -c` likewise).
func TextParser(ctx context.Context, src string) *syntax.Parser {
	if ctx.Done() == nil || len(src) < stopTextAt {
		return syntax.NewParser()
	}
	return syntax.NewParser(syntax.StopWhen(func() error {
		if ctx.Err() != nil {
			return ErrTextStopped
		}
		return nil
	}))
}

// readUpTo notes the lines of the script read when bash has read the
// line of stmts[i] (and the statements after it on that line); under set
// -v (verbose) they are echoed on stderr as bash echoes its input.
func (r *Runner) readUpTo(stmts []*syntax.Stmt, i int) {
	r.linesUpTo(stmts, i, &r.linesRead)
}

// linesUpTo is readUpTo for the text of stmts, whose lines read so far
// *read counts: a script's (readUpTo), or eval text's, a sourced file's
// or a trap action's, which bash echoes too under set -v. The empty lines
// that start the rest of a text read again (restText) are not echoed.
func (r *Runner) linesUpTo(stmts []*syntax.Stmt, i int, read *uint) {
	end := stmts[i].End().Line()
	if end <= *read {
		return // its line was read with the statements before it
	}
	for j := i + 1; j < len(stmts) && stmts[j].Pos().Line() == end; j++ {
		end = stmts[j].End().Line()
	}
	if end <= *read {
		return
	}
	if r.opts[optVerbose] && r.text.src != "" {
		lines := strings.SplitAfter(r.text.src, "\n")
		n := *read
		if n == 0 {
			for int(n) < len(lines) && lines[n] == "\n" {
				n++
			}
		}
		for ; n < end && int(n) < len(lines); n++ {
			r.errf("%s", lines[n])
			if !strings.HasSuffix(lines[n], "\n") {
				r.errf("\n")
			}
		}
	}
	*read = end
}

// readEndLine is the last line that bash's parser has read when it runs
// stmts[i]: that of the last command on the line where stmts[i] ends, or
// of the last here-document body in them (llmsh: killLine). The group of
// statements that follow each other on one line is measured once, with
// the here-documents' last lines from each statement on (readEndCache):
// a line of n commands (`eval "$(printf 'x=1;%.0s' {1..10000})"`) was
// walked n times, n*n/2 nodes before its last command ran.
func (r *Runner) readEndLine(stmts []*syntax.Stmt, i int) uint {
	c := &r.readEnd
	if len(stmts) > 0 && c.first == stmts[0] && c.n == len(stmts) && c.start <= i && i < c.start+len(c.ends) {
		return c.ends[i-c.start]
	}
	end := stmts[i].End().Line()
	j := i + 1
	for ; j < len(stmts) && stmts[j].Pos().Line() == end; j++ {
		end = stmts[j].End().Line()
	}
	// a new slice each time: a subshell's copy of the Runner shares the
	// old one
	ends := make([]uint, j-i)
	for k := j - 1; k >= i; k-- {
		syntax.Walk(stmts[k], func(n syntax.Node) bool {
			if rd, ok := n.(*syntax.Redirect); ok && rd.Hdoc != nil {
				end = max(end, rd.Hdoc.End().Line())
			}
			return true
		})
		ends[k-i] = end
	}
	*c = readEndCache{first: stmts[0], n: len(stmts), start: i, ends: ends}
	return ends[0]
}

// readEndCache holds readEndLine's answers for the statements
// stmts[start:start+len(ends)] of the list whose first statement is first
// and length n.
type readEndCache struct {
	first    *syntax.Stmt
	n, start int
	ends     []uint
}

// warnHdocsUpTo says bash's warning for the script's here-documents that
// the end of the script ended, on lines up to line, as bash does when it
// has read the command that holds them.
func (r *Runner) warnHdocsUpTo(line uint) {
	file := r.shellFileName()
	for len(r.pendingHdocs) > 0 && r.pendingHdocs[0].Pos.Line() <= line {
		h := r.pendingHdocs[0]
		r.pendingHdocs = r.pendingHdocs[1:]
		r.hdocWarnings(&syntax.File{UnclosedHdocs: []syntax.UnclosedHdoc{h}}, r.text.src, file, r.text.lineOffset)
	}
}

// hdocWarnings says bash's warning for each here-document that the end
// of src ended: named after file (a sourced file as it was given, or
// the script running eval text, whose lines count from the eval's line;
// llmsh in -c text: "llmsh: line N: …", as bash -c), or after llmsh
// alone at a prompt, as interactive bash.
func (r *Runner) hdocWarnings(f *syntax.File, src, file string, offset int) {
	for _, h := range f.UnclosedHdocs {
		if r.llmsh.atPrompt {
			r.errf("%s: %s\n", shellName, HdocWarning(h))
			continue
		}
		h.Pos = syntax.NewPos(h.Pos.Offset(), h.Pos.Line()+uint(offset), h.Pos.Col())
		r.errf("%s: line %d: %s\n", file, TextLines(src)+offset, HdocWarning(h))
	}
}

// HdocWarning is bash's warning for a here-document that the end of the
// input ended, after its "NAME: line N: ".
func HdocWarning(h syntax.UnclosedHdoc) string {
	return fmt.Sprintf("warning: here-document at line %d delimited by end-of-file (wanted `%s')", h.Pos.Line(), h.Stop)
}

// TextLines is the number of lines of src, the last one counted when it
// has no newline: the line bash is on at its end.
func TextLines(src string) int {
	n := strings.Count(src, "\n")
	if src != "" && !strings.HasSuffix(src, "\n") {
		n++
	}
	return n
}

// readText reads at most the runner's text limit from rd (a file that
// source or . runs), and one byte more so that a longer file is refused.
func (r *Runner) readText(rd io.Reader) (string, error) {
	b, err := io.ReadAll(io.LimitReader(rd, int64(r.llmsh.maxText)+1))
	return string(b), err
}

// unTestOwnOrGrp implements the -O and -G unary tests: every file that a
// script can see is its own user's and group's, so they are true when the
// file exists. llmsh: upstream compared the host's user database with the
// host file's owner (and panicked on a FileInfo that was not a host file's).
func (r *Runner) unTestOwnOrGrp(ctx context.Context, op syntax.UnTestOperator, x string) bool {
	_, err := r.stat(ctx, x)
	return err == nil
}

// releaseProcSubsts calls the release functions of the process
// substitutions made since mark, newest first, and forgets them.
func (r *Runner) releaseProcSubsts(mark int) {
	for i := len(r.psubRelease) - 1; i >= mark; i-- {
		r.psubRelease[i]()
	}
	clear(r.psubRelease[mark:])
	r.psubRelease = r.psubRelease[:mark]
}

// fileArg is absPath for a file that a test or the stat and access
// handlers look at: a name that ends in "/" or "/." keeps one trailing
// slash (the root excepted), so that the handler wants a directory there
// and `test -e FILE/` is false, as on Linux (upstream cleaned it away).
func fileArg(dir, name string) string {
	p := absPath(dir, name)
	if p != "" && p != "/" && (strings.HasSuffix(name, "/") || strings.HasSuffix(name, "/.")) {
		p += "/"
	}
	return p
}

// errPrefix is bash's prefix of an error the shell reports while it runs
// a command: "NAME: line N: ", NAME the script's name ($0; llmsh for -c);
// at a prompt "llmsh: ", as interactive bash's (AtPrompt).
func (r *Runner) errPrefix() string {
	if r.llmsh.atPrompt {
		return shellName + ": "
	}
	name := r.shellFileName()
	if p := r.lastPrefix.Load(); p != nil && p.line == r.line && p.name == name {
		return p.text
	}
	text := fmt.Sprintf("%s: line %d: ", name, r.line)
	r.lastPrefix.Store(&errPrefixText{name: name, line: r.line, text: text})
	return text
}

// errPrefixText is an errPrefix made for a line of a file (llmsh).
type errPrefixText struct {
	name string
	line int
	text string
}

// AtPrompt says the runner runs commands typed at a terminal's prompt:
// its errors then read "llmsh: …" with no "line N:", wherever the
// command came from (a function, a sourced file, eval), as interactive
// bash's do. llmsh's REPL turns it on.
func AtPrompt(enabled bool) RunnerOption {
	return func(r *Runner) error {
		r.llmsh.atPrompt = enabled
		return nil
	}
}

// TerminalStdin says that f, the stdin [StdIO] gave the runner, is a pipe
// that feeds it what is typed at a terminal (llmsh's REPL gives each
// command line one): `[ -t 0 ]` is then true and read -p shows its
// prompt, as with bash's stdin the terminal itself. quiet, when not nil,
// turns the terminal's echo off for read -s and returns what turns it
// back on; without it read -s reads the feed as any pipe (the terminal
// echoes what is typed). read -e is refused as at a terminal.
func TerminalStdin(f stdinFile, quiet func() (restore func())) RunnerOption {
	return func(r *Runner) error {
		r.llmsh.ttyIn.Store(&ttyFeed{f: f, quiet: quiet})
		return nil
	}
}

// ttyFeed is the terminal's feed of [TerminalStdin].
type ttyFeed struct {
	f     stdinFile
	quiet func() func()
}

// ttyFeed returns the terminal's feed ([TerminalStdin]) when f is it.
func (r *Runner) ttyFeed(f stdinFile) *ttyFeed {
	p := r.llmsh.ttyIn.Load()
	if p == nil || f == nil || p.f != f {
		return nil
	}
	return p
}

// redirErrText words a failed redirection's error as bash reports it:
// one the shell words itself ("llmsh: WORD: reason", see [fdError])
// takes the "NAME: line N: " of [Runner.errPrefix].
func (r *Runner) redirErrText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Op == shellName+":" {
		return r.ShellErrPrefix() + pe.Path + ": " + pe.Err.Error()
	}
	return err.Error()
}

// shellFileName names the shell in its messages as bash does: the
// script or sourced file running, llmsh for -c.
func (r *Runner) shellFileName() string {
	if r.frames != nil {
		// bash names BASH_SOURCE[0]: the file that defined the
		// function running (a function that bash -c defined is
		// "environment"), or the file being sourced.
		if f := r.frames.file; f != "" && (f != noFileSource || r.cString) {
			return f
		}
	}
	name := r.filename
	if r.sourceName != "" {
		name = r.sourceName
	}
	if name == "" {
		name = shellName
	}
	return name
}

// trapParseName is how bash names a trap's action in a syntax error
// ("exit trap: line 1: …"); a signal's trap is "trap".
func trapParseName(name string) string {
	switch name {
	case "exit", "error":
		return name + " trap"
	case "RETURN", trapDebug:
		return strings.ToLower(name) + " trap"
	}
	return "trap"
}

// arithErr reports an arithmetic error as bash does; cmd is "((" or "let"
// for those commands, empty for $(( )).
func (r *Runner) arithErr(cmd string, ae *expand.ArithmError) {
	if ae.Err != nil {
		cmd = "" // r: readonly variable, unprefixed as bash's
	}
	if cmd != "" {
		cmd += ": "
	}
	r.errf("%s%s%s\n", r.errPrefix(), cmd, ae.Error())
}

// arithCmdErr handles the error of (( )) or let: an arithmetic error is
// reported with status 1 and the shell goes on; any other error is an
// expansion error. It reports whether there was an error.
func (r *Runner) arithCmdErr(cmd string, err error) bool {
	return r.arithCmdErrInner(cmd, err, false)
}

// arithCmdErrInner is arithCmdErr; inner says the error is one of an
// expansion in the expression's text ($((1/0)) in (( x = $((1/0)) ))),
// which bash reports and acts on as the expansion's error: unprefixed,
// the command line abandoned.
func (r *Runner) arithCmdErrInner(cmd string, err error, inner bool) bool {
	if err == nil {
		return false
	}
	if _, ok := errors.AsType[*expand.ArithmError](err); ok && inner {
		r.expandErr(err)
		return true
	}
	if ae, ok := errors.AsType[*expand.ArithmError](err); ok && !ae.Fatal {
		r.arithErr(cmd, ae)
		r.exit.code = 1
		// llmsh: an assignment to a readonly variable: set -e ends
		// the shell (bash's err_readonly is a report_error).
		r.reportPending = r.reportPending || errors.Is(ae.Err, errReadOnly)
		return true
	}
	if errors.Is(err, errReadOnly) {
		// llmsh: (( r = 3 )), let r=3: status 1, the line goes on
		// (but set -e ends the shell: reportPending).
		r.errf("%s%s\n", r.errPrefix(), err)
		r.exit.code = 1
		r.reportPending = true
		return true
	}
	r.expandErr(err)
	if r.exit.code == 0 {
		r.exit.code = 1
	}
	return true
}

// arithAs names cmd as the command whose arithmetic runs (arithWho)
// and gives the name it replaces, for arithRestore.
func (r *Runner) arithAs(cmd string) string {
	who := r.arithWho
	r.arithWho = cmd
	return who
}

// arithRestore puts back the name arithAs replaced.
func (r *Runner) arithRestore(who string) { r.arithWho = who }

// arithTest compares the operands of [[ x -eq y ]] (and -ne -lt -le -gt
// -ge) as arithmetic expressions; "1" is true, "" false. An error is
// reported as bash's and makes the term false (status 1 if it decides).
func (r *Runner) arithTest(op syntax.BinTestOperator, x, y string) string {
	defer r.arithRestore(r.arithAs("[["))
	a, err := r.ecfg.ArithmText(x)
	var b int64
	if err == nil {
		b, err = r.ecfg.ArithmText(y)
	}
	if ae, ok := errors.AsType[*expand.ArithmError](err); ok && !ae.Fatal {
		// llmsh: reported, and the term is false; the other terms
		// are still tested, as bash's arithcomp (test.c) gives FALSE.
		r.arithErr("[[", ae)
		r.reportPending = r.reportPending || errors.Is(ae.Err, errReadOnly) // llmsh: see arithCmdErrInner
		return ""
	}
	if errors.Is(err, errReadOnly) {
		r.errf("%s%s\n", r.errPrefix(), err)
		r.reportPending = true // llmsh: see arithCmdErrInner
		return ""
	}
	if r.arithCmdErr("[[", err) {
		return ""
	}
	var ok bool
	switch op {
	case syntax.TsEql:
		ok = a == b
	case syntax.TsNeq:
		ok = a != b
	case syntax.TsLeq:
		ok = a <= b
	case syntax.TsGeq:
		ok = a >= b
	case syntax.TsLss:
		ok = a < b
	case syntax.TsGtr:
		ok = a > b
	}
	if ok {
		return "1"
	}
	return ""
}

// intValue is the value that an integer variable (declare -i) gets for s:
// s evaluated as arithmetic. An error is an expansion error (see
// expandErr); ok is then false.
func (r *Runner) intValue(s string) (string, bool) {
	n, err := r.ecfg.ArithmText(s)
	if err != nil {
		if ae, ok := err.(*expand.ArithmError); ok {
			ae.Fatal = true // declare -i n; n=1/0 ends the shell
			ae.KeepStatus = true
		}
		r.expandErr(err)
		return "", false
	}
	return strconv.FormatInt(n, 10), true
}

// LastArg returns $_ as the shell has it and whether _ is still in the
// environment the shell was given (llmsh: a session snapshot keeps both;
// the first command takes the export away, as bash's).
func (r *Runner) LastArg() (string, bool) { return r.lastArg, r.lastArgExported }

// SetLastArg sets $_ and whether it is exported, as [Runner.LastArg]
// gave them (llmsh).
func (r *Runner) SetLastArg(s string, exported bool) {
	if !r.didReset {
		r.Reset() // as Run would, which would then set $_ again
	}
	r.lastArg, r.lastArgExported = s, exported
}

// SetLastStatus sets $? as the next Run sees it. llmsh's REPL calls it
// when a command line was interrupted (130), timed out (124) or stopped by
// a limit (125), which the interpreter itself did not see as a status,
// and when Ctrl-C drops a line being typed (130), possibly the first.
func (r *Runner) SetLastStatus(code uint8) {
	if !r.didReset {
		r.Reset() // as Run would, which would then clear $?
	}
	r.lastExit = exitStatus{code: code}
}

// readLines runs stmts as bash runs the lines it reads from a script, a
// sourced file or an eval string: when an expansion error abandons a
// line (exitStatus.abandon), the statements left on that line are
// skipped and the next line runs, with $? 1. Under set -e the shell
// exits instead, as bash's does. A discarded line (exitStatus.discard)
// is the top-level one: eval text and sourced files (top false) leave it
// to their caller, and so they do any abandoned line in a subshell.
func (r *Runner) readLines(ctx context.Context, stmts []*syntax.Stmt, top bool, synErr func(line int, msgs []string)) {
	if !top {
		r.pexec++
		defer func(kill int) { r.pexec--; r.killLine = kill }(r.killLine)
	}
	r.readStmts(ctx, stmts, top, synErr, true)
}

// readStmts is readLines; aliases are expanded in each line first when
// aliases is true (aliasread.go). stopped reports that the shell stops
// reading (set -e, a syntax error, a cancelled run).
func (r *Runner) readStmts(ctx context.Context, stmts []*syntax.Stmt, top bool, synErr func(line int, msgs []string), aliases bool) (stopped bool) {
	var nestedRead uint // the lines of eval text or a sourced file read (set -v)
	echo := func(i int) {
		switch {
		case top:
			r.readUpTo(stmts, i)
		case aliases:
			// the lines read while set -v was off count as read:
			// `eval 'set -v; echo hi'` echoes nothing (bash).
			r.linesUpTo(stmts, i, &nestedRead)
		}
	}
	for i := 0; i < len(stmts); i++ {
		if i == 0 || stmts[i].Pos().Line() > stmts[i-1].End().Line() {
			r.noteParseLocale() // llmsh: $'…' as bash decodes it
		}
		if top && aliases && (i == 0 || stmts[i].Pos().Line() > stmts[i-1].End().Line()) {
			r.recordHistory(stmts, i) // set -o history (scripthist.go)
		}
		if aliases && (i == 0 || stmts[i].Pos().Line() > stmts[i-1].End().Line()) {
			if text, read, next, ok := r.aliasedLine(ctx, stmts, i); ok {
				if top && len(r.pendingHdocs) > 0 {
					r.warnHdocsUpTo(stmts[next-1].End().Line())
				}
				echo(i)
				if j, done, stopped := r.readOnAlias(ctx, stmts, i, text, top, synErr); done {
					if stopped {
						return true
					}
					i = j - 1
					continue
				}
				if r.runAliasedLine(ctx, text, read, int(stmts[i].Pos().Line())-1, top, synErr) {
					return true
				}
				i = next - 1
				continue
			}
		}
		if !r.opts[optExtGlob] && (i == 0 || stmts[i].Pos().Line() > stmts[i-1].End().Line()) {
			if line, ok := extGlobOnLine(stmts, i); ok {
				// bash parsed this line without extglob: `(` after
				// @ + ? * ! is a syntax error, and nothing of the line
				// runs (shopt -s extglob on it comes too late).
				synErr(line, []string{"syntax error near unexpected token `('", "`" + lineText(r.text.src, line) + "'"})
				r.exit = exitStatus{code: 2, exiting: top}
				return true
			}
			if line, msgs, ok := condExtGlobOnLine(stmts, i); ok {
				// the same in [[ ]], where bash's conditional command
				// parser words the error and the text ends there: the
				// script with the last status, eval and source with 2.
				synErr(line, msgs)
				code := uint8(2)
				if top {
					code = r.exit.code
				}
				r.exit = exitStatus{code: code, exiting: top}
				r.condBroken = true // as noteCondError
				return true
			}
		}
		if r.condFirstWord && (i == 0 || stmts[i].Pos().Line() > stmts[i-1].End().Line()) {
			r.condFirstWord = false
			pair := r.pairFirstWord
			r.pairFirstWord = false
			if tc := firstTestClause(stmts[i]); pair && tc != nil {
				r.condWord = tc // a plain word: the command `[[`
			} else if line, tok, ok := r.condEOFError(stmts[i]); ok {
				r.condBroken = false
				synErr(line, []string{"syntax error near unexpected token `" + tok + "'", "`" + lineText(r.text.src, line) + "'"})
				r.exit = exitStatus{code: 2, exiting: top}
				return true
			}
			r.bangStmt, r.bangWord = condBangWord(stmts[i])
			var bad string
			r.parenArith, r.parenCmd, bad = r.condArithParen(stmts[i])
			line := int(stmts[i].Pos().Line())
			if l, tok, ok := parenExtGlob(r.parenCmd); ok && !r.opts[optExtGlob] {
				// ((1+(2))) read as ( (1+(2)) ): bash's parser takes
				// 1+ ( for a function's name and parentheses.
				line, bad = l, "syntax error near unexpected token `"+tok+"'"
			}
			if bad != "" {
				r.parenArith, r.parenCmd = nil, nil
				synErr(line, []string{bad, "`" + lineText(r.text.src, line) + "'"})
				r.exit = exitStatus{code: 2, exiting: top}
				return true
			}
		}
		if r.condBroken && (i == 0 || stmts[i].Pos().Line() > stmts[i-1].End().Line()) {
			if line, tok, ok := r.condBrokenAt(stmts, i); ok {
				// bash's parser meets the next [[ in the state its
				// last [[ error left (found in session 22): the
				// word after it is unexpected, status 2.
				r.condBroken = false
				synErr(line, []string{"syntax error near unexpected token `" + tok + "'", "`" + lineText(r.text.src, line) + "'"})
				r.exit = exitStatus{code: 2, exiting: top}
				return true
			}
		}
		if top && len(r.pendingHdocs) > 0 {
			r.warnHdocsUpTo(stmts[i].End().Line())
		}
		if top {
			// llmsh: bash's command number (\# in ${v@P}) counts
			// the command lines read; bash -c reads none (0).
			if r.cString {
				r.cmdNumber = -1
				r.ecfg.CmdNumber = -1
			} else if r.topEnd > 0 && stmts[i].Pos().Line() > r.topEnd {
				r.cmdNumber++
				r.ecfg.CmdNumber = r.cmdNumber
			}
			r.topEnd = stmts[i].End().Line()
		}
		echo(i)
		if top || r.pexec > 0 {
			// bash's line_number between the simple commands of a
			// command it has read whole (reportForeground), in eval
			// and sourced text too (parse_and_execute).
			r.killLine = int(r.lineBase + r.readEndLine(stmts, i))
		}
		r.stmt(ctx, stmts[i])
		if top && r.opts[optOneCmd] && !r.cString && (i+1 == len(stmts) || stmts[i+1].Pos().Line() > stmts[i].End().Line()) {
			// set -t: bash reads and runs one line more (this one's
			// rest) and exits; bash -c runs its whole text.
			r.exit.exiting = true
			return true
		}
		// llmsh: in a subshell (…), $( ) bash's eval and source
		// leave every abandoned line to the subshell's top level,
		// which ends it (parse_and_execute's DISCARD there).
		if !r.exit.abandon || ((r.exit.discard || r.subshellLevel > 0 && !r.inTrap) && !top) {
			continue
		}
		if (r.opts[optErrExit] && !r.exit.noExit) || ctx.Err() != nil || (top && r.exit.discard && r.cString) {
			// (bash -c: a discarded line is the rest of the string;
			// the shell ends with the status.)
			r.exit.abandon, r.exit.discard, r.exit.noExit = false, false, false
			return true
		}
		r.exit.exiting, r.exit.abandon, r.exit.discard, r.exit.noExit = false, false, false, false
		r.lastExit = r.exit
		r.abandonShift(stmts, i)
		line := stmts[i].End().Line()
		for i+1 < len(stmts) && stmts[i+1].Pos().Line() == line {
			i++
			line = stmts[i].End().Line()
		}
	}
	return false
}

// abandonShift leaves the line count of the text as bash's after an
// error abandoned the command stmts[i] of a script, eval text or sourced
// file (a jump to its top level): bash's counter stays at the line of the command that failed
// (r.line; a function's call restores its caller's), so the lines read
// after it, to the end of the text, are numbered short by the lines
// from there to the end of what the parser had read ($LINENO, "line N"
// of messages, functions defined later) (llmsh).
func (r *Runner) abandonShift(stmts []*syntax.Stmt, i int) {
	shift := int(r.lineBase+r.readEndLine(stmts, i)) - r.line
	if shift > 0 && !r.substLine {
		r.setText(textPlace{lineOffset: r.text.lineOffset - shift, src: r.text.src, locale: r.text.locale})
	}
}

// noteCondError sets condBroken for a syntax error of eval text or a
// sourced file that bash's parse_cond_command reports (not one at the
// end of a line or of the text, which leaves another state).
func (r *Runner) noteCondError(perr syntax.ParseError, eval bool) {
	cut := !perr.Cond && strings.Contains(perr.Text, "`[[` with `]]`") ||
		perr.Cond && (perr.Incomplete || strings.Contains(perr.Text, "newline"))
	switch {
	case perr.Cond && !cut:
		r.condBroken = true
	case cut && eval:
		r.condBroken, r.condFirstWord = true, true
	case cut:
		r.condBroken = true // a sourced file's: the next [[ only
	}
}

// firstTestClause is the [[ ]] that the first command of st's list is,
// on st's first line, or nil (llmsh: pairFirstWord).
func firstTestClause(st *syntax.Stmt) *syntax.TestClause {
	first := st.Position.Line()
	for {
		b, isList := st.Cmd.(*syntax.BinaryCmd)
		if !isList {
			break
		}
		st = b.X
	}
	if tc, ok := st.Cmd.(*syntax.TestClause); ok && tc.Left.Line() == first && !st.Negated {
		return tc
	}
	return nil
}

// condEOFError is the syntax error that bash's parser meets in the first
// line it reads after a [[ that the end of eval text or of a sourced file
// cut short (condFirstWord), that line's first statement st: the first
// word is no reserved word, so `[[ x ]]` is a command whose `]]` ends a
// conditional (the token after `(` for `[[ ( x ) ]]`), `if true; then`
// a command before `then`, `while`/`until`/`for … ; do` before `do`, `{
// …; }` before `}` (found in session 26). ok is false for a line that
// bash reads as it is (a simple command first).
func (r *Runner) condEOFError(st *syntax.Stmt) (line int, tok string, ok bool) {
	for {
		// the first command of a list: `[[ x ]] && echo t`
		b, isList := st.Cmd.(*syntax.BinaryCmd)
		if !isList {
			break
		}
		st = b.X
	}
	first := st.Position.Line()
	at := func(pos syntax.Pos, t string) (int, string, bool) {
		if !pos.IsValid() || pos.Line() != first {
			return 0, "", false
		}
		return int(pos.Line()), t, true
	}
	switch cm := st.Cmd.(type) {
	case *syntax.TestClause:
		if p, isParen := cm.X.(*syntax.ParenTest); isParen {
			return at(cm.Left, r.condFirstToken(p.X))
		}
		return at(cm.Right, "]]")
	case *syntax.IfClause:
		return at(cm.ThenPos, "then")
	case *syntax.WhileClause:
		return at(cm.DoPos, "do")
	case *syntax.ForClause:
		return at(cm.DoPos, "do")
	case *syntax.Block:
		return at(cm.Rbrace, "}")
	case *syntax.CaseClause:
		// `case a in a)`: the `)` after the first pattern, or the `(`
		// before it.
		if len(cm.Items) == 0 || len(cm.Items[0].Patterns) == 0 {
			return 0, "", false
		}
		pat := cm.Items[0].Patterns[0].Pos()
		if from, to := int(cm.In.Offset())+2, int(pat.Offset()); from <= to && to <= len(r.text.src) && strings.Contains(r.text.src[from:to], "(") {
			return at(pat, "(")
		}
		return at(pat, ")")
	case *syntax.CallExpr, *syntax.DeclClause:
		if pos, tok, ok := r.condArrayToken(cm); ok {
			return at(pos, tok)
		}
	}
	return 0, "", false
}

// condArrayToken is the token bash's parser finds unexpected in cm, the
// first command of the line read in condFirstWord's state, when cm
// assigns an array literal: the literal's first element as written when
// cm starts with it (`a=(x y)`: x, as `a=` and `(` begin a function),
// else its `(` (`x=1 a=(1)`, `declare a=(1)`). An empty `a=()` is left
// alone (llmsh).
func (r *Runner) condArrayToken(cm syntax.Command) (syntax.Pos, string, bool) {
	var assigns []*syntax.Assign
	switch cm := cm.(type) {
	case *syntax.CallExpr:
		assigns = cm.Assigns
	case *syntax.DeclClause:
		assigns = cm.Args
	}
	for i, as := range assigns {
		if as.Array == nil {
			continue
		}
		if _, decl := cm.(*syntax.DeclClause); i > 0 || decl {
			return as.Array.Lparen, "(", true
		}
		if len(as.Array.Elems) == 0 {
			break
		}
		e := as.Array.Elems[0]
		from, to := int(e.Pos().Offset()), int(e.End().Offset())
		if e.Index != nil && from > 0 && r.text.src[from-1] == '[' {
			from-- // [1]=a: the element's position is its index's
		}
		if from < to && to <= len(r.text.src) {
			return e.Pos(), r.text.src[from:to], true
		}
		break
	}
	return syntax.Pos{}, "", false
}

// condBangWord finds in st, the first statement of the line read after
// a [[ that the end of eval text cut short, a `!` that comes first: bash
// takes it for no reserved word but the name of the simple command after
// it (`!: command not found`, status 127), that of a pipeline's first
// element too. neg is the statement it negated, cm that command.
func condBangWord(st *syntax.Stmt) (neg *syntax.Stmt, cm *syntax.CallExpr) {
	for {
		b, isList := st.Cmd.(*syntax.BinaryCmd)
		if !isList || st.Negated || b.Op == syntax.Pipe || b.Op == syntax.PipeAll {
			break
		}
		st = b.X
	}
	if !st.Negated {
		return nil, nil
	}
	first := st
	for {
		b, isPipe := first.Cmd.(*syntax.BinaryCmd)
		if !isPipe || b.Op != syntax.Pipe && b.Op != syntax.PipeAll {
			break
		}
		first = b.X
	}
	if cm, ok := first.Cmd.(*syntax.CallExpr); ok && len(cm.Assigns) == 0 && len(first.Redirs) == 0 {
		return st, cm
	}
	return nil, nil
}

// condArithParen finds in st, the first statement of the line read
// after a [[ that the end of eval text cut short, a (( … )) that comes
// first: bash's lexer reads `((` as one token only where a reserved word
// may come, so there it reads two `(`, a subshell in a subshell (`((1))`
// runs the command `1`). ac is that command, sub the ( ( … ) ) it is
// read as, at its place in the text; nil when the text does not parse
// so, with bad bash's message when that is a syntax error on its line.
func (r *Runner) condArithParen(st *syntax.Stmt) (ac *syntax.ArithmCmd, sub *syntax.Subshell, bad string) {
	for !st.Negated {
		b, isList := st.Cmd.(*syntax.BinaryCmd)
		if !isList {
			break
		}
		st = b.X
	}
	ac, ok := st.Cmd.(*syntax.ArithmCmd)
	if !ok || ac.Unsigned {
		return nil, nil, ""
	}
	from, to := int(ac.Left.Offset())+2, int(ac.Right.Offset())
	if from > to || to+2 > len(r.text.src) || r.text.src[to:to+2] != "))" {
		return nil, nil, ""
	}
	text := strings.Repeat("\n", int(ac.Left.Line())-1) + strings.Repeat(" ", int(ac.Left.Col())-1) +
		"( (" + r.text.src[from:to] + ") )"
	f, err := r.parseText(text, "")
	var perr syntax.ParseError
	if errors.As(err, &perr) && int(perr.Pos.Line()) == int(ac.Left.Line()) {
		// ((y + (2))) as ( (y + (2)) ): bash's syntax error
		if _, msgs := SyntaxError(perr, text); len(msgs) > 0 && strings.HasPrefix(msgs[0], "syntax error near unexpected token") {
			return nil, nil, msgs[0]
		}
	}
	if err != nil || len(f.Stmts) != 1 {
		return nil, nil, ""
	}
	sub, ok = f.Stmts[0].Cmd.(*syntax.Subshell)
	if !ok || len(f.Stmts[0].Redirs) > 0 {
		return nil, nil, ""
	}
	return ac, sub, ""
}

// parenExtGlob finds in sub, the ( ( … ) ) that condArithParen made, the
// first extglob-like word (1+(2)), which bash's parser without extglob
// reads as a word and a (: its line and the token bash rejects, the one
// after the ( when the word is a command's name (1+ ( must be a
// function's, followed by )), else the ( (llmsh).
func parenExtGlob(sub *syntax.Subshell) (line int, tok string, ok bool) {
	if sub == nil {
		return 0, "", false
	}
	first := func(n syntax.Node) *syntax.ExtGlob {
		var eg *syntax.ExtGlob
		syntax.Walk(n, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.TestClause, *syntax.ParamExp, *syntax.CmdSubst:
				return false
			case *syntax.ExtGlob:
				eg = n
			}
			return eg == nil
		})
		return eg
	}
	eg := first(sub)
	if eg == nil {
		return 0, "", false
	}
	tok = "("
	syntax.Walk(sub, func(n syntax.Node) bool {
		cm, is := n.(*syntax.CallExpr)
		if is && len(cm.Assigns) == 0 && len(cm.Args) > 0 && first(cm.Args[0]) == eg {
			t := strings.TrimLeft(eg.Pattern.Value, " \t")
			if i := strings.IndexAny(t, " \t\n;&|()<>"); i > 0 {
				tok = t[:i]
			} else if i < 0 && t != "" {
				tok = t
			}
		}
		return tok == "("
	})
	return int(eg.OpPos.Line()), tok, true
}

// condBrokenAt finds the first [[ ]] in the statements that bash reads as
// one line from stmts[i] on, and gives its line and the token after its
// [[, which bash's parser rejects while condBroken is set.
func (r *Runner) condBrokenAt(stmts []*syntax.Stmt, i int) (line int, tok string, ok bool) {
	end := stmts[i].End().Line()
	for j := i; j < len(stmts) && (j == i || stmts[j].Pos().Line() <= end); j++ {
		end = max(end, stmts[j].End().Line())
		syntax.Walk(stmts[j], func(n syntax.Node) bool {
			if ok {
				return false
			}
			if tc, is := n.(*syntax.TestClause); is {
				line, tok, ok = int(tc.Left.Line()), r.condFirstToken(tc.X), true
				return false
			}
			return true
		})
		if ok {
			return line, tok, true
		}
	}
	return 0, "", false
}

// condBrokenText finds, when condBroken is set, the first [[ of text
// src that failed to parse (perr) from byte from (the lines before ran)
// to the error: bash meets it in the state its last [[ error left, and
// the word after it is unexpected (condBrokenAt, for text that did not
// parse); line is its line in src.
func (r *Runner) condBrokenText(src string, from int, perr syntax.ParseError) (line int, tok string, ok bool) {
	to := min(int(perr.Pos.Offset())+1, len(src))
	if !r.condBroken || from >= to {
		return 0, "", false
	}
	for i := from; i+2 < to; i++ {
		if src[i] != '[' || src[i+1] != '[' || (src[i+2] != ' ' && src[i+2] != '\t') ||
			i > 0 && !strings.ContainsRune(" \t\n;&|(", rune(src[i-1])) {
			continue
		}
		j := i + 2
		for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
			j++
		}
		k := j
		if k < len(src) && (src[k] == '(' || src[k] == '!') {
			k++
		} else {
			for k < len(src) && !strings.ContainsRune(" \t\n;&|()<>", rune(src[k])) {
				k++
			}
		}
		if k == j {
			return 0, "", false
		}
		return 1 + strings.Count(src[:i], "\n"), src[j:k], true
	}
	return 0, "", false
}

// condFirstToken is the first token of a [[ ]] expression as written.
func (r *Runner) condFirstToken(x syntax.TestExpr) string {
	switch x := x.(type) {
	case *syntax.BinaryTest:
		return r.condFirstToken(x.X)
	case *syntax.UnaryTest:
		return x.Op.String()
	case *syntax.ParenTest:
		return "("
	case *syntax.Word:
		if from, to := int(x.Pos().Offset()), int(x.End().Offset()); from < to && to <= len(r.text.src) {
			return r.text.src[from:to]
		}
		var sb strings.Builder
		syntax.NewPrinter().Print(&sb, x)
		return sb.String()
	}
	return "[["
}

// extGlobOnLine finds an extended pattern (`@(…)`, `+(…)`, …) in the
// statements that bash reads as one line from stmts[i] on (those that
// start on the line where the one before ends), outside [[ ]] and ${ }
// (where bash takes one whatever the extglob option says); line is its
// line in the text.
func extGlobOnLine(stmts []*syntax.Stmt, i int) (line int, ok bool) {
	end := stmts[i].End().Line()
	for j := i; j < len(stmts) && (j == i || stmts[j].Pos().Line() == end); j++ {
		end = stmts[j].End().Line()
		syntax.Walk(stmts[j], func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.TestClause, *syntax.ParamExp:
				return false
			case *syntax.ExtGlob:
				if !ok {
					line, ok = int(n.OpPos.Line()), true
				}
				return false
			}
			return !ok
		})
		if ok {
			return line, true
		}
	}
	return 0, false
}

// condExtGlobOnLine finds, in the [[ ]] of the line that starts at
// stmts[i], an extended pattern that bash reads without extglob (llmsh):
// `@` then a `(` token, which only the right side of == != = takes as a
// pattern (bash 5.2 turns extglob on there). A word that starts a term
// (`[[ @(a) == b ]]`, `[[ @(a) ]]`) wants an operator after it; the
// operand of a unary test or of another binary one (`[[ -n @(a) ]]`) is
// a syntax error in the expression. `!(…)` starting a term is bash's
// negation of a group, left as it is.
func condExtGlobOnLine(stmts []*syntax.Stmt, i int) (line int, msgs []string, ok bool) {
	end := stmts[i].End().Line()
	var check func(x syntax.TestExpr, inParen bool)
	bad := func(w *syntax.Word, term, inParen, lhs bool) {
		if ok || w == nil {
			return
		}
		for _, wp := range w.Parts {
			eg, isGlob := wp.(*syntax.ExtGlob)
			if !isGlob {
				continue
			}
			if term && eg.Op == syntax.GlobExcept && wp == w.Parts[0] {
				if lhs { // [[ !(a) == b ]]: a group before an operator
					line, ok = int(eg.OpPos.Line()), true
					msgs = []string{"syntax error in conditional expression"}
				}
				return // [[ !(a) ]]: bash's `!` and a group
			}
			line, ok = int(eg.OpPos.Line()), true
			msgs = []string{"syntax error in conditional expression: unexpected token `('"}
			if term {
				msgs = []string{"unexpected token `(', conditional binary operator expected"}
				if inParen {
					msgs = append(msgs, "expected `)'")
				}
			}
			return
		}
	}
	check = func(x syntax.TestExpr, inParen bool) {
		switch x := x.(type) {
		case *syntax.BinaryTest:
			switch x.Op {
			case syntax.AndTest, syntax.OrTest:
				check(x.X, inParen)
				check(x.Y, inParen)
				return
			}
			w, _ := x.X.(*syntax.Word)
			bad(w, true, inParen, true)
			switch x.Op {
			case syntax.TsMatch, syntax.TsNoMatch, syntax.TsMatchShort, syntax.TsReMatch:
			default:
				w, _ := x.Y.(*syntax.Word)
				bad(w, false, inParen, false)
			}
		case *syntax.UnaryTest:
			if x.Op == syntax.TsNot {
				check(x.X, inParen)
				return
			}
			w, _ := x.X.(*syntax.Word)
			bad(w, false, inParen, false)
		case *syntax.ParenTest:
			check(x.X, true)
		case *syntax.Word:
			bad(x, true, inParen, false)
		}
	}
	for j := i; j < len(stmts) && (j == i || stmts[j].Pos().Line() == end) && !ok; j++ {
		end = stmts[j].End().Line()
		syntax.Walk(stmts[j], func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst:
				return false
			case *syntax.TestClause:
				check(n.X, false)
				return false
			}
			return !ok
		})
	}
	return line, msgs, ok
}

// evalSyntaxError prints a syntax error in eval's text as bash does:
// "FILE: eval: line N: …", N counted from the eval's line ("llmsh: eval:
// line N: …" in -c text, as bash -c); "llmsh: …" alone at a prompt, as
// interactive bash.
func (r *Runner) evalSyntaxError(line int, msgs []string) {
	for _, m := range r.SyntaxErrorLines(msgs) {
		l, m := MsgLine(line, m)
		if !r.llmsh.atPrompt {
			r.errf("%s: eval: line %d: %s\n", r.shellFileName(), r.text.lineOffset+l, m)
		} else {
			r.errf("%s: %s\n", shellName, m)
		}
	}
}

// topSyntaxError prints a syntax error that the top-level script meets
// as it reads a line: "NAME: line N: …" ("NAME: -c: line N: …" in -c).
func (r *Runner) topSyntaxError(line int, msgs []string) {
	prefix := r.shellFileName() + ": "
	if r.cString {
		prefix += "-c: "
	}
	for _, m := range r.SyntaxErrorLines(msgs) {
		l, m := MsgLine(line, m)
		r.errf("%sline %d: %s\n", prefix, r.text.lineOffset+l, m)
	}
}

// Abandoned reports whether the statement the last Run ran was abandoned
// by an expansion error (a bad substitution, an arithmetic error,
// failglob): the caller that reads lines skips the statements left on
// that line and goes on with the next, as bash does (readLines).
func (r *Runner) Abandoned() bool { return r.abandoned }

// keywordAssigns is set -k's reading of a simple command: every word
// after the command name that is an assignment (NAME=VALUE, NAME written
// plainly) is one of the command's assignments, as those before it are.
// cm is returned as it is when it has none.
func keywordAssigns(cm *syntax.CallExpr) *syntax.CallExpr {
	var moved []*syntax.Assign
	var kept []*syntax.Word
	for i, w := range cm.Args {
		if i > 0 {
			if as := wordAssign(w); as != nil {
				moved = append(moved, as)
				continue
			}
		}
		kept = append(kept, w)
	}
	if moved == nil {
		return cm
	}
	c := *cm
	c.Assigns = append(slices.Clone(cm.Assigns), moved...)
	c.Args = kept
	return &c
}

// wordAssign reads w as an assignment word (NAME=VALUE, NAME an unquoted
// literal), or returns nil.
func wordAssign(w *syntax.Word) *syntax.Assign {
	lit, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		return nil
	}
	name, rest, ok := strings.Cut(lit.Value, "=")
	if !ok || !syntax.ValidName(name) {
		return nil
	}
	as := &syntax.Assign{Name: &syntax.Lit{ValuePos: lit.ValuePos, ValueEnd: lit.ValueEnd, Value: name}}
	var parts []syntax.WordPart
	if rest != "" {
		parts = append(parts, &syntax.Lit{ValuePos: lit.ValuePos, ValueEnd: lit.ValueEnd, Value: rest})
	}
	parts = append(parts, w.Parts[1:]...)
	if len(parts) > 0 {
		as.Value = &syntax.Word{Parts: parts}
	}
	return as
}

// HoldExitTrap keeps Run of a whole file from running the EXIT trap at its
// end (an exit, set -e or a fatal error still runs it): the caller runs it
// with RunExitTrap when the script has really ended, as after the lines
// before a syntax error, whose message bash prints before the trap runs.
func (r *Runner) HoldExitTrap(hold bool) {
	if !r.didReset {
		r.Reset() // Run's first Reset would clear it
	}
	r.holdExit = hold
	if r.bashPid == r.llmsh.pid {
		t := &r.llmsh.top
		t.mu.Lock()
		t.held = hold // a signal between two Runs is the script's (signals.go)
		if !hold {
			t.heldFatal = 0
		}
		t.mu.Unlock()
	}
}

// RunExitTrap runs the EXIT trap, with $? status, and returns the status
// the shell ends with (the trap's exit N changes it).
func (r *Runner) RunExitTrap(ctx context.Context, status int) int {
	if r.callbackExit == "" {
		return status
	}
	r.exit = exitStatus{code: uint8(status)}
	r.lastExit = r.exit
	r.trapCallback(ctx, r.callbackExit, "exit")
	r.callbackExit = "" // it runs once, as Run's
	return int(r.exit.code)
}

// badOption is how bash's builtins name the first bad option of arg, a
// word starting with "-" whose letters should be among valid: "--" for
// a long option ("--bogus"), "-x" for a letter that is not valid; "" when
// all are.
func badOption(arg, valid string) string {
	if strings.HasPrefix(arg, "--") {
		return "--"
	}
	for _, c := range arg[1:] {
		if !strings.ContainsRune(valid, c) {
			return "-" + string(c)
		}
	}
	return ""
}

// invalidNum is bash's sh_invalidnum wording for a number a builtin
// refuses (llmsh): 0x1 is an invalid hex number, 09x an invalid octal
// number, anything else an invalid number.
func invalidNum(s string) string {
	switch {
	case len(s) > 1 && s[0] == '0' && s[1] >= '0' && s[1] <= '9':
		return "invalid octal number"
	case len(s) > 1 && s[0] == '0' && s[1] == 'x':
		return "invalid hex number"
	}
	return "invalid number"
}

// dotDotErr is the error the kernel gives name when a ".." in it follows a
// name that does not exist or is no directory (`cd nope/..`, `[ -d
// f/.. ]`, `< nope/../f`): each name before a ".." must be a directory,
// as the kernel resolves them one by one. The handlers get paths made
// clean first (nope/.. is .), so the interpreter asks about each such
// prefix itself; nil when there is none or each is a directory (llmsh).
func (r *Runner) dotDotErr(ctx context.Context, name string) error {
	_, err := dotdot.Check(name, func(prefix string) (fs.FileInfo, error) {
		return r.statHandler(r.handlerCtx(ctx, handlerKindStat, todoPos), fileArg(r.Dir, prefix), true)
	})
	if err != nil {
		return &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	return nil
}

// errnoText is an error worded as bash words an errno ("No such file or
// directory"), for a redirection's message (redirErrText).
type errnoText struct{ err error }

func (e errnoText) Error() string { return errText(e.err) }
func (e errnoText) Unwrap() error { return e.err }
