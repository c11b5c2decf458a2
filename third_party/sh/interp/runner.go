// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package interp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/internal"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

const (
	// shellReplyPS3Var, or PS3, is a special variable in Bash used by the select command,
	// while the shell is awaiting for input. the default value is [shellDefaultPS3]
	shellReplyPS3Var = "PS3"
	// shellDefaultPS3, or #?, is PS3's default value
	shellDefaultPS3 = "#? "
	// shellReplyVar, or REPLY, is a special variable in Bash that is used to store the result of
	// the select command or of the read command, when no variable name is specified
	shellReplyVar = "REPLY"
)

func (r *Runner) fillExpandConfig(ctx context.Context) {
	r.ectx = ctx
	r.ecfg = &expand.Config{
		Env:         expandEnv{r},
		MaxValue:    r.llmsh.maxValue,
		HeapCheck:   r.llmsh.heapCheck,
		Ctx:         ctx, // llmsh: expand/longmatch.go
		LineOffset:  r.text.lineOffset,
		ParseLocale: r.text.locale, // llmsh
		Text:        r.text.src,    // llmsh
		PlainLineno: r.dynGone["LINENO"],
		CmdNumber:   r.cmdNumber,
		Jobs:        r.ownJobs,
		Birth:       func() uint64 { r.births++; return r.births },
		TimeFormat:  r.llmsh.timeFormat,
		Warn: func(msg string) {
			if r.errExited && r.exit.exiting {
				return // llmsh: set -e already ends the shell (reportExit)
			}
			if r.arithWho != "" && strings.HasPrefix(msg, "`") {
				msg = r.arithWho + ": " + msg // llmsh: ((: `5': …
			}
			r.errf("%s%s\n", r.errPrefix(), msg) // llmsh: bash's prefix
			if !strings.HasPrefix(msg, "warning:") {
				r.reportExit() // a bad array subscript
			}
		},
		ReportError: r.reportExpandErr,
		CmdSubst: func(w io.Writer, cs *syntax.CmdSubst) error {
			if cs.Bad != "" {
				return r.badBackquote(w, cs) // llmsh: comsub.go
			}
			switch len(cs.Stmts) {
			case 0: // nothing to do
				return nil
			}
			r.deferBarrier(&r.lastExit) // llmsh: deferred.go
			switch len(cs.Stmts) {
			case 1: // $(<file)
				word := catShortcutArg(cs.Stmts[0])
				if word == nil {
					break
				}
				err := r.catSubst(ctx, w, cs.Stmts[0].Redirs[0]) // llmsh
				r.lastExit.code = r.lastExpandExit.code
				return err
			}
			r2 := r.subshell(false)
			// llmsh: the element's own first set -x line, not its
			// substitution's, lets the next element of a pipeline
			// trace (bash's usual order; the element's end opens it
			// too).
			r2.traceDone = nil
			r2.discardFails = true                                   // llmsh: see discardFails
			r2.setNoForkTail(cs.Stmts, r.bashPid, true, redirsNever) // llmsh: NoForkExec
			r2.noForkFuncs = true
			// llmsh: bash's command substitution keeps the loops it
			// is in: break and continue there end what is left of it
			// (its EXIT trap too).
			r2.inLoop, r2.loopDepth = r.inLoop, r.loopDepth
			// llmsh: bash parses the substitution's text when it runs,
			// counting its lines from the line of the command that
			// holds it ($LINENO, the "line N:" of messages).
			if hold := r.ecfg.CmdLine; hold != 0 {
				// In $( ) the count starts at the first command (bash's
				// parse skips the newlines before it), in `` at the `.
				start := cs.Stmts[0].Pos().Line()
				if cs.Backquotes || r.inHdoc {
					// A here-document's $( ) is read from its text
					// as written, as `` (its newlines count).
					start = cs.Left.Line()
				} else if lines := r.substLineMap(cs); lines != nil {
					r2.substLines, r2.substBase = lines, hold-1
				}
				shift := hold - (int(r.lineBase) + int(start))
				if shift != 0 {
					// The text's offset too, which a function
					// called there gives back when it returns
					// and BASH_LINENO reads.
					r2.setText(textPlace{lineOffset: r2.text.lineOffset + shift, src: r2.text.src, locale: r2.text.locale})
				}
			}
			// llmsh: bash outside posix mode turns set -e off in a
			// command substitution unless shopt inherit_errexit is on
			// ($- and set -o say so; set -e there turns it back on).
			if !r.opts[optInheritErrExit] {
				r2.opts[optErrExit] = false
			}
			if cs.Backquotes {
				// llmsh: bash reads backquotes' text as it runs it.
				r2.text.locale, r2.ecfg.ParseLocale = 0, 0
			}
			r2.traceLevel++
			r2.stdout = w
			r2.subst = &substJobs{out: w}
			r2.substShell = true // llmsh: jobs.go (notifyKilled)
			r2.pexec = 1
			// llmsh: comsub.go; the aliases of its text (aliasread.go)
			stmts := cs.Stmts
			if aliased := r2.aliasedSubst(ctx, cs); aliased != nil {
				stmts = aliased
			}
			// llmsh: bash runs the text with parse_and_execute, which
			// puts $BASH_COMMAND back when it returns: the EXIT trap
			// there names the command that holds the $( ).
			r2.evalCmd = nil
			restoreCmd := r2.keepBashCommand()
			r2.substStmts(ctx, stmts)
			if r2.exit.returning {
				// bash's return jumps past that (to the function).
				r2.evalCmd = nil
			} else {
				restoreCmd()
			}
			r2.subshellExit(ctx) // llmsh: its own EXIT trap
			r2.waitPsubs(ctx)    // llmsh: fds.go
			r2.subst.wait(ctx)   // llmsh: jobs that still write to it
			r2.exit.leaveShell() // subshells don't exit the parent shell
			r.childExited(1)     // llmsh: chld.go
			r.lastExpandExit = r2.exit
			if r2.exit.signaled == sigINT && r.bashPid == r.llmsh.pid && !strings.HasPrefix(r.llmsh.invocation, "i") {
				// llmsh: bash's command_substitute: a non-interactive
				// shell whose substitution died of SIGINT sends
				// itself SIGINT (x=$(kill -INT $BASHPID) ends the
				// script, 130; an INT trap runs after the command).
				r.llmsh.signalTop(sigINT)
			} else if r2.exit.signaled == sigINT && r.signalSelf(ctx, sigINT) {
				// llmsh: a subshell dies of it.
				r.exit = exitStatus{code: 128 + sigINT, exiting: true, signaled: sigINT, sigPid: r.bashPid}
			}
			// llmsh: bash reports no signal that ended a command
			// substitution (x=$(kill $BASHPID) is 143, silently).
			r.lastExpandExit.signaled = 0
			// llmsh: as in bash, $? later in the same command is the
			// substitution's status ("$(false) $?" is " 1").
			r.lastExit.code = r2.exit.code
			if r2.exit.fatalExit {
				return r2.exit.err // surface fatal errors immediately
			}
			return nil
		},
		ProcSubst: func(ps *syntax.ProcSubst) (string, error) {
			if ps.Op == syntax.CmdInTemp { // zsh's =(...)
				return "", fmt.Errorf("unsupported")
			}
			if len(ps.Stmts) == 0 { // nothing to do
				return "/dev/null", nil
			}
			// llmsh: the pipe comes from the handler, never a FIFO on the host.
			if r.llmsh.procSubst == nil {
				return "", fmt.Errorf("process substitution is not supported")
			}
			r.deferBarrier(&r.lastExit) // llmsh: deferred.go
			// llmsh: a child whose CHLD trap runs after the command
			// that made it (chld.go).
			r.childExited(1)
			jobWrites := ps.Op == syntax.CmdIn
			path, job, release, err := r.llmsh.procSubst(r.handlerCtx(ctx, handlerKindOpen, ps.Pos()), jobWrites)
			if err != nil {
				// llmsh: as bash when pipe(2) fails: the message (its
				// sys_error: no line number), and the word is gone;
				// the command still runs.
				r.errf("%s: %s\n", r.shellFileName(), err)
				return "", nil
			}
			r.psubRelease = append(r.psubRelease, release)

			r2 := r.subshell(true)
			r2.substShell = true // llmsh: jobs.go (notifyKilled)
			// llmsh: set -x marks its commands one level deeper, as
			// bash does ("++ echo a" in <(echo a)).
			r2.traceLevel++
			stmts := ps.Stmts
			if aliased := r2.aliasedText(ctx, ps.OpPos, ps.Rparen, false); aliased != nil {
				stmts = aliased // llmsh: aliasread.go
			}
			r2.setNoForkTail(stmts, r.bashPid, true, redirsAlways) // llmsh: NoForkExec
			r2.noForkFuncs = true
			var in stdinFile
			out, errw := r.psubStd()
			r2.stderr = errw
			if jobWrites {
				r2.stdout = job
			} else {
				if in, err = newStdinFile(job); err != nil {
					job.Close()
					return "", err
				}
				r2.stdin, r2.stdinSrc = in, nil
				r2.stdout = out
			}
			// TODO: note that `man bash` mentions that `wait` only waits for the last
			// process substitution as long as it is $!; the logic here would mean we wait for all of them.
			// llmsh: its pid is $!, kill stops it; it starts from the jobs'
			// context, which outlives the Run (exec > >(tee log) reads
			// to its end after the script: HangUp waits for it)
			bg, jctx := r.startJob(r.jobBase(ctx), nil)
			r2.gate = bg.gate
			if !jobWrites {
				r.notePsub(bg, out) // llmsh: fds.go
			}
			// llmsh: like a job, the list keeps open the files that
			// the running statements' redirections opened, which may
			// be its stdout (f > out, where f runs tee >(sed …)).
			held := r.holdRedirs()
			go func() {
				defer func() {
					releaseRedirs(held)
					job.Close()
					if in != nil {
						in.Close()
					}
					bg.finish(r2, r2.exit)
				}()
				r2.evalCmd = nil // llmsh: as in $( ) (parse_and_execute)
				restoreCmd := r2.keepBashCommand()
				r2.stmts(jctx, stmts)
				if r2.exit.returning {
					r2.evalCmd = nil // bash's return jumps past it
				} else {
					restoreCmd()
				}
				r2.subshellExit(jctx) // llmsh: its own EXIT trap
				r2.exit.leaveShell()  // subshells don't exit the parent shell
			}()
			return path, nil
		},
	}
	r.updateExpandOpts()
}

// catShortcutArg checks if a statement is of the form "$(<file)". The redirect
// word is returned if there's a match, and nil otherwise.
func catShortcutArg(stmt *syntax.Stmt) *syntax.Word {
	if stmt.Cmd != nil || stmt.Negated || stmt.Background || stmt.Coprocess || stmt.Disown {
		return nil
	}
	if len(stmt.Redirs) != 1 {
		return nil
	}
	redir := stmt.Redirs[0]
	if redir.Op != syntax.RdrIn {
		return nil
	}
	return redir.Word
}

func (r *Runner) updateExpandOpts() {
	if r.ecfg == nil {
		return // llmsh: before the first Run (Shopt), whose fillExpandConfig applies them
	}
	if r.opts[optNoGlob] {
		r.ecfg.ReadDir2 = nil
	} else {
		r.ecfg.ReadDir2 = func(s string) ([]fs.DirEntry, error) {
			return r.readDirHandler(r.handlerCtx(r.ectx, handlerKindReadDir, todoPos), s)
		}
	}
	r.ecfg.GlobStar = r.opts[optGlobStar]
	r.ecfg.DotGlob = r.opts[optDotGlob]
	r.ecfg.GlobDots = !r.opts[optGlobSkipDots]
	r.ecfg.NoCaseGlob = r.opts[optNoCaseGlob]
	r.ecfg.NoCaseMatch = r.opts[optNoCaseMatch]
	r.ecfg.NullGlob = r.opts[optNullGlob]
	r.ecfg.NoUnset = r.opts[optNoUnset]
	r.ecfg.ExtGlob = r.opts[optExtGlob]
	r.ecfg.FailGlob = r.opts[optFailGlob]
	r.ecfg.NoBraceExpand = !r.opts[optBraceExpand]
	r.ecfg.PatsubReplacement = r.opts[optPatsubReplacement]
	r.ecfg.NoExtQuote = !r.opts[optExtQuote]
	r.ecfg.Posix = r.opts[optPosix]
}

// reportExpandErr prints an expansion error that bash reports and goes on
// from: one in a prompt string, PS4's or ${v@P}'s (llmsh).
func (r *Runner) reportExpandErr(err error) {
	if ae, ok := errors.AsType[*expand.ArithmError](err); ok {
		r.arithErr("", ae)
		return
	}
	r.errf("%s%s\n", r.errPrefix(), err.Error())
	r.reportExit() // set -e ends the shell, as bash's report_error
}

func (r *Runner) expandErr(err error) {
	if err == nil {
		return
	}
	if _, ok := errors.AsType[expand.ValueTooLargeError](err); ok {
		// llmsh: a limit, as the memory guard: the run stops (a loop
		// that doubles a string would otherwise go on failing).
		r.exit.fatal(err)
		return
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		// llmsh: the run is being stopped (a limit, a timeout, the
		// caller), which llmsh says in its own words: a command
		// substitution cut short prints nothing of its own.
		r.exit.code = 1
		return
	}
	errMsg := err.Error()
	if ae, ok := errors.AsType[*expand.ArithmError](err); ok {
		// llmsh: bash abandons the command with status 1; as
		// `bash -c` does, the shell ends (a subshell: only it).
		r.arithErr(r.arithPrefix, ae)
		r.exit.code = 1
		r.exit.exiting, r.exit.abandon = true, !(ae.Fatal && r.cString)
		r.exit.noExit = r.exit.abandon
		// llmsh: an error in a subscript or an integer variable's
		// value discards the line the top level read, through eval
		// and source (bash's top_level_cleanup before its DISCARD);
		// another arithmetic error ends only eval's line.
		r.exit.discard = ae.Fatal && r.exit.abandon
		if ae.KeepStatus {
			r.keepStatus()
		}
		return
	}
	_, unsetParam := errors.AsType[expand.UnsetParameterError](err)
	if pe, ok := errors.AsType[expand.ParamError](err); ok && pe.Fatal {
		unsetParam = true // ends the shell as an unset parameter does
	}
	switch {
	case unsetParam:
		// llmsh: ${v:?} and set -u end a shell that is not interactive.
		// A bad subscript that set -e already ended the shell at (the
		// Warn above: ${a[-9]}) says no more, as bash.
		if !r.errExited || !r.exit.exiting {
			r.errf("%s%s\n", r.errPrefix(), errMsg)
		}
		r.exit.code = 1
		if r.cString && r.bashPid == r.llmsh.pid && !r.opts[optErrExit] {
			r.exit.code = 127 // bash -c's own shell ends so (1 under set -e)
		}
		r.exit.exiting, r.exit.forceEOF = true, true
		// llmsh: under set -e bash runs the EXIT trap as it leaves, in
		// the function the expansion failed in, with its locals; without
		// it, bash unwinds every frame first (the trap runs at the end,
		// its FUNCNAME "main" where a function was running).
		if r.opts[optErrExit] {
			r.exitTrapEarly(r.ectx)
		} else if r.funcRunning() {
			r.stackMain, r.unwoundFrames = stackUnwound, r.frames
		}
	case errors.As(err, new(expand.ParamError)), errors.As(err, new(expand.GlobError)):
		// llmsh: a bad substitution or failglob abandons the command
		// line, as an arithmetic error does (readLines).
		r.errf("%s%s\n", r.errPrefix(), errMsg)
		r.exit.code = 1
		if pe, ok := errors.AsType[expand.ParamError](err); ok && pe.Status != 0 && r.pexec == 0 && !(r.cString && r.bashPid == r.llmsh.pid) {
			r.exit.code = pe.Status
		}
		r.exit.exiting, r.exit.abandon = true, true
	case errors.Is(err, errReadOnly):
		// llmsh: an expansion that assigns a readonly variable
		// (${r:=x}, $((r=3))) abandons the command line, as bash.
		r.errf("%s%s\n", r.errPrefix(), errMsg)
		r.exit.code = 1
		r.exit.exiting, r.exit.abandon = true, true
	default:
		fmt.Fprintln(r.stderr, errMsg)
	}
}

// keepStatus gives the line that an integer variable's arithmetic error
// abandons $? as it was, 1 if it was 0: bash's bind_int_variable jumps to
// the top level without setting it, and the reader makes a 0 1
// (`(exit 5); declare -i n=1/0`: 5). A command substitution and a builtin
// forked alone exit 1 (llmsh: see discardFails).
func (r *Runner) keepStatus() {
	if !r.exit.abandon || r.discardFails {
		return
	}
	r.deferBarrier(&r.lastExit)
	if c := r.lastExit.code; c != 0 {
		r.exit.code = c
	}
}

// forkedBuiltin marks the shell that bash forked for one simple command
// whose command is a builtin (llmsh: see discardFails).
func (r *Runner) forkedBuiltin() {
	if r.forkedCall {
		r.forkedCall, r.discardFails = false, true
	}
}

// arithm evaluates a subscript: an arithmetic error ends the shell, as
// bash (llmsh).
func (r *Runner) arithm(expr syntax.ArithmExpr) (int, bool) {
	n, err := expand.Arithm(r.ecfg, expr)
	if ae, ok := err.(*expand.ArithmError); ok {
		ae.Fatal = true
	}
	r.expandErr(err)
	return n, err == nil
}

func (r *Runner) fields(words ...*syntax.Word) []string {
	strs, err := expand.Fields(r.ecfg, words...)
	r.expandErr(err)
	return strs
}

func (r *Runner) literal(word *syntax.Word) string {
	str, err := expand.Literal(r.ecfg, word)
	r.expandErr(err)
	return str
}

// expandBeforeRedirs expands the words of cm, a simple command with
// redirections, before stmtSync makes them, as bash does: `echo "$(ls)"
// >f` does not list f, `echo "$(echo a >f)" >>f` appends to what the
// substitution wrote, `echo ${u?} >f` makes no f. cmd takes the fields
// (preCall). It reports whether the expansion failed (llmsh).
func (r *Runner) expandBeforeRedirs(cm *syntax.CallExpr) bool {
	args := cm.Args
	if r.opts[optKeyword] {
		args = keywordAssigns(cm).Args
	}
	r.lastExpandExit = exitStatus{}
	fields := r.fields(args...)
	r.preCall, r.preFields, r.preTraced = cm, fields, false
	if !r.exit.ok() {
		return true
	}
	if len(fields) == 0 || r.opts[optKeyword] || r.bangWord == cm {
		return false
	}
	trace := r.tracer()
	if len(cm.Assigns) > 0 {
		// bash makes a command's own assignments before its
		// redirections too (x=$(ls) cmd >g does not list g), each
		// traced with its value.
		pa := r.prefixAssigns(cm.Assigns, fields, r.stderr, trace)
		r.prePA = &pa
		if trace != nil {
			r.traceHide = pa.restores
			defer func() { r.traceHide = nil }()
		}
	}
	if trace != nil {
		// bash traces the command before it makes its redirections,
		// whose command substitutions trace after it.
		trace.call(fields[0], fields[1:]...)
		trace.newLineFlush()
		r.preTraced = true
	}
	return false
}

// elemFields expands a word of an array's list a=(…) (llmsh: x=~ keeps
// its tilde, as bash).
func (r *Runner) elemFields(word *syntax.Word) []string {
	fields, err := expand.ArrayElemFields(r.ecfg, word)
	r.expandErr(err)
	return fields
}

// assocValue expands the value of [k]=v in an associative array's list
// (llmsh: no tilde expanded, as bash).
func (r *Runner) assocValue(word *syntax.Word) string {
	if word == nil {
		return ""
	}
	str, err := expand.AssocValue(r.ecfg, word)
	r.expandErr(err)
	return str
}

// assignValue expands an assignment's value (llmsh: bash's tilde
// expansion after ':').
func (r *Runner) assignValue(word *syntax.Word) string {
	str, err := expand.AssignValue(r.ecfg, word)
	r.expandErr(err)
	return str
}

func (r *Runner) document(word *syntax.Word) string {
	str, err := expand.Document(r.ecfg, word)
	r.expandErr(err)
	return str
}

func (r *Runner) pattern(word *syntax.Word) string {
	str, err := expand.Pattern(r.ecfg, word)
	r.expandErr(err)
	return str
}

// expandEnviron exposes [Runner]'s variables to the expand package.
type expandEnv struct {
	r *Runner
}

var _ expand.WriteEnviron = expandEnv{}

func (e expandEnv) Get(name string) expand.Variable {
	if name == "SECONDS" {
		e.r.secondsRead = true // llmsh: read, it is an integer (bash)
	}
	if e.r.traceHide != nil {
		for _, h := range e.r.traceHide {
			if h.name == name {
				return h.vr
			}
		}
	}
	return e.r.lookupVar(name)
}

// GlobalGet is name's variable outside every function (llmsh:
// expand.GlobalEnviron).
func (e expandEnv) GlobalGet(name string) expand.Variable {
	if o, ok := e.r.writeEnv.(*overlayEnviron); ok {
		return o.GlobalGet(name)
	}
	return e.r.writeEnv.Get(name)
}

// DrawRandom draws $RANDOM's next number for an expansion (random.go).
func (e expandEnv) DrawRandom() { e.r.rand.next() }

func (e expandEnv) Set(name string, vr expand.Variable) error {
	return e.r.setVarErr(name, vr)
}

func (e expandEnv) Each(fn func(name string, vr expand.Variable) bool) {
	e.r.eachVar(fn)
}

// dynamicVars are the variables lookupVar answers without holding them,
// which bash lists by name as any other (`${!BASH*}`, `compgen -v`).
var dynamicVars = []string{
	"BASHOPTS", "BASHPID", "BASH_ALIASES", "BASH_ARGC", "BASH_ARGV", "BASH_ARGV0",
	"BASH_CMDS", "BASH_COMMAND", "BASH_LINENO", "BASH_SOURCE", "BASH_SUBSHELL",
	"COMP_WORDBREAKS", "DIRSTACK", "EPOCHREALTIME", "EPOCHSECONDS", "FUNCNAME", "GROUPS", "HISTCMD",
	"LINENO", "OPTERR", "PPID", "RANDOM", "SECONDS", "SHELLOPTS", "SRANDOM", "_",
}

// compWordbreaks is bash's $COMP_WORDBREAKS until a script sets it.
const compWordbreaks = " \t\n\"'@><=;|&(:"

// eachVar calls fn for each variable: the ones held, then the dynamic
// ones that have a value. $RANDOM and $SRANDOM are named with no value,
// so that listing them draws no number.
func (r *Runner) eachVar(fn func(name string, vr expand.Variable) bool) {
	seen := make(map[string]bool, len(dynamicVars))
	stopped := false
	r.writeEnv.Each(func(name string, vr expand.Variable) bool {
		seen[name] = true
		stopped = !fn(name, vr)
		return !stopped
	})
	for _, name := range dynamicVars {
		if stopped || seen[name] || r.dynGone[name] {
			continue
		}
		vr := expand.Variable{Set: true, Kind: expand.String}
		switch name {
		case "RANDOM", "SRANDOM":
			if r.dynExported[name] {
				vr = r.lookupVar(name) // llmsh: exported, it draws (bash)
			}
		case "COMP_WORDBREAKS":
			vr.Str = compWordbreaks // named, not read (lookupVar keeps it)
		default:
			vr = r.lookupVar(name)
		}
		if vr.IsSet() {
			stopped = !fn(name, vr)
		}
	}
}

var todoPos syntax.Pos // for handlerCtx callers where we don't yet have a position

func (r *Runner) handlerCtx(ctx context.Context, kind handlerKind, pos syntax.Pos) context.Context {
	c := &handlerValueCtx{Context: ctx}
	r.fillHandlerCtx(&c.hc, kind, pos)
	return c
}

// callHandlerCtx is handlerCtx for the call handler (llmsh): the runner
// keeps the context for the next command once the handler has returned
// (putCallCtx), where a new one of 250 bytes a command was a third of
// what a loop of `:` allocated. A call while another's handler runs gets
// a new one.
func (r *Runner) callHandlerCtx(ctx context.Context, pos syntax.Pos) *handlerValueCtx {
	c := r.freeCallCtx
	if c == nil {
		c = new(handlerValueCtx)
	}
	r.freeCallCtx = nil
	c.Context = ctx
	r.fillHandlerCtx(&c.hc, handlerKindCall, pos)
	return c
}

// putCallCtx keeps c, which the call handler no longer holds, for the
// next call (without what it refers to).
func (r *Runner) putCallCtx(c *handlerValueCtx) {
	*c = handlerValueCtx{}
	r.freeCallCtx = c
}

// fillHandlerCtx sets *hc for a handler of kind called at pos.
func (r *Runner) fillHandlerCtx(hc *HandlerContext, kind handlerKind, pos syntax.Pos) {
	*hc = HandlerContext{
		runner:         r,
		kind:           kind,
		Env:            stackEnviron{r}, // llmsh: callstack.go; read-only, allocates nothing
		Dir:            r.Dir,
		Pos:            pos,
		Stdout:         r.stdout,
		Stderr:         r.stderr,
		LastExitStatus: int(r.lastExit.code),
		Umask:          r.umask,
		IsBuiltin:      kind == handlerKindExec && r.inExecBuiltin,
		DeferSeq:       r.handlerDeferSeq(kind),
		Lazy:           kind == handlerKindOpen && r.lazyOpen,
		NoFunc:         kind == handlerKindExec && r.inCommand,
		Exec:           kind == handlerKindExec && r.inExec,
		Argv0:          r.execArgv0,
		Persist:        r.persist,
		fds:            r.fds,
	}
	if kind == handlerKindExec && !r.inExecBuiltin {
		hc.Stdout, hc.Stderr = programOut(hc.Stdout), programOut(hc.Stderr) // llmsh: pipeline.go
	}
	if kind == handlerKindExec && r.execNoEnv {
		hc.Env = expand.ListEnviron() // llmsh: exec -c
	}
	if kind == handlerKindCall || kind == handlerKindExec || kind == handlerKindOpen {
		hc.Node = r.node
	}
	hc.Stdin = r.stdinReader() // never a typed nil
	hc.StdinWriteOnly = hc.Stdin == nil && r.stdinWO
}

func (r *Runner) out(s string) {
	io.WriteString(r.stdout, s)
}

func (r *Runner) outf(format string, a ...any) {
	fmt.Fprintf(r.stdout, format, a...)
}

func (r *Runner) errf(format string, a ...any) {
	if r.GnuErrfmt() {
		io.WriteString(r.stderr, r.gnuErrfmt(fmt.Sprintf(format, a...)))
		return
	}
	fmt.Fprintf(r.stderr, format, a...)
}

// gnuErrfmt is msg as shopt -s gnu_errfmt has bash write it: a message
// of the shell itself starts "NAME:N: " instead of "NAME: line N: "; a
// builtin's ("NAME: line N: cd: …") keeps its form (llmsh).
func (r *Runner) gnuErrfmt(msg string) string {
	name := r.shellFileName()
	rest, ok := strings.CutPrefix(msg, name+": line ")
	if !ok {
		// eval's syntax errors: "NAME: eval: line N: " is "NAME: eval:N: ".
		if rest, ok = strings.CutPrefix(msg, name+": eval: line "); !ok {
			return msg
		}
		name += ": eval"
	}
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	text, ok := strings.CutPrefix(rest[i:], ": ")
	if i == 0 || !ok {
		return msg
	}
	if word, _, ok := strings.Cut(text, ": "); ok && IsBuiltin(word) {
		return msg
	}
	return name + ":" + rest[:i] + ": " + text
}

func (r *Runner) stop(ctx context.Context) bool {
	// llmsh: a trap's action starts with neither (trapCallback), so
	// that set -e, exit and return act in it as anywhere.
	if r.exit.returning || r.exit.exiting {
		return true
	}
	// llmsh: after break or continue nothing more of the loop's body
	// runs, however deep in it (if, case, { }, && lists): the loop
	// takes the count back (loopStmtsBroken).
	if r.breakEnclosing > 0 || r.contnEnclosing > 0 {
		return true
	}
	if err := ctx.Err(); err != nil {
		r.exit.fatal(err)
		return true
	}
	if r.opts[optNoExec] {
		return true
	}
	return false
}

func (r *Runner) stmt(ctx context.Context, st *syntax.Stmt) {
	r.curStmt = st // llmsh: see subLast
	if r.pipeAllErr != nil && st != r.pipeStmt {
		r.pipeAllErr = nil // llmsh: what X runs traces to the pipe
	}
	r.passGate(ctx) // llmsh: a stopped job waits here (jobstop.go)
	if r.stop(ctx) {
		return
	}
	elem := r.pipeElem
	r.pipeElem = false
	// llmsh: deferred write confirmation (deferred.go).
	mayDefer := r.mayDefer
	r.mayDefer = false
	if !echoOrPrintf(st) {
		r.deferBarrier(&r.lastExit)
	}
	r.stmtSeq++
	seq := r.stmtSeq
	if r.llmsh.topPending.Load() && r.bashPid == r.llmsh.pid && !r.handlingTrap {
		r.runPendingSignals(ctx) // llmsh: kill $$ from a job (signals.go)
		if r.stop(ctx) {
			return // llmsh: the action ran exit (trap 'exit 143' TERM)
		}
	} else if r.jobSelf != nil && r.jobSelf.hasPending.Load() && r.bashPid == r.jobSelf.pid && !r.handlingTrap {
		r.runJobSignals(ctx) // llmsh: kill %N of a job that traps it (jobsig.go)
		if r.stop(ctx) {
			return
		}
	}
	r.exit = exitStatus{}
	if st.Background || st.Disown {
		ran, skip := r.asyncDebugTrap(ctx, st)
		if skip {
			return
		}
		r2 := r.subshellJobs(true, false) // llmsh: a forked child has no jobs (bash)
		r2.debugAsync = ran
		r2.jobRun = true
		r2.exitTrapLost = losesExitTrap(st.Cmd)
		switch st.Cmd.(type) {
		case *syntax.Subshell:
			// llmsh: bash runs `( … ) &` as one subshell
			// ($BASH_SUBSHELL one more, not two).
			r2.subshellLevel--
		case *syntax.CallExpr, *syntax.DeclClause:
			r2.forkedCall = true // llmsh: see discardFails
		}
		r2.setNoForkTail([]*syntax.Stmt{{Cmd: st.Cmd}}, r.bashPid, true, redirsAlone) // llmsh: NoForkExec
		st2 := *st
		st2.Background = false
		st2.Disown = false
		st2.Negated = false // llmsh: bash's ! does not invert a job's status
		// llmsh: a job of the table (jobs.go), under a context of its
		// own that kill cancels.
		bg, jctx := r.startJob(r.jobBase(ctx), st)
		r2.gate = bg.gate
		r2.bashPid, r2.jobSelf = bg.pid, bg // llmsh: $BASHPID is $! (jobsig.go)
		if !r.llmsh.jobControl {
			r2.asyncInt, r2.asyncQuit = true, true
		}
		r2.jobSub, _ = st.Cmd.(*syntax.Subshell)
		r2.noteTraps()
		if _, ok := st.Cmd.(*syntax.CallExpr); ok {
			jctx = context.WithValue(jctx, jobTargetKey{}, bg) // ClaimJobSignals
		}
		r.subst.hold(r.stdout, st, bg) // llmsh: jobs.go
		if !r.stdinRedir && !r.llmsh.jobControl {
			// llmsh: as bash without job control, a job whose stdin
			// no control structure redirected reads an empty one.
			if f, err := eofStdin(); err == nil {
				r2.stdin, r2.stdinSrc = f, nil
			}
		}
		held := r.holdRedirs()
		r2.jobStmt = &st2
		go func() {
			r2.Run(jctx, &st2)
			r2.subshellExit(jctx) // its own EXIT trap (Run runs it only at exit)
			r2.orphanPsubs()      // llmsh: fds.go
			r2.exit.leaveShell()  // subshells don't exit the parent shell
			// llmsh: the files it held are closed (written out) before
			// wait returns: `{ echo late & } > out; wait; cat out`.
			releaseRedirs(held)
			bg.finish(r2, r2.exit)
		}()
		// llmsh: the job gets the processor first, as a forked child
		// usually starts before its parent's next command: `for i in 1 2
		// 3; do (echo $i) & done; wait` prints 1 2 3 as bash usually
		// does (Go ran the newest goroutine first: 3 1 2).
		runtime.Gosched()
	} else {
		if r.deferrable(st, mayDefer, elem) {
			r.deferSeq = seq
			r.deferredRan++
		}
		r.stmtSync(ctx, st, elem)
		r.deferSeq = 0
	}
	if r.traps[chldTrap] != "" && r.bashPid != r.llmsh.pid {
		r.subshellJobsEnded() // llmsh: chld.go
	}
	if r.chldPending > 0 && !r.handlingTrap {
		r.runChldTraps(ctx) // llmsh: chld.go
	}
	if ctx.Err() == nil || context.Cause(ctx) != errTopSignal {
		// llmsh: a command a signal to the shell cut short leaves $?
		// as it was, for the EXIT trap (sigPrev).
		r.lastExit = r.exit
	}
	r.lastSeq = seq
}

// stmtSync runs st in the foreground; elem is true when st is an element
// of a pipeline.
func (r *Runner) stmtSync(ctx context.Context, st *syntax.Stmt, elem bool) {
	// llmsh: the process substitutions that this statement's words make
	// are released when it has run.
	defer r.releaseProcSubsts(len(r.psubRelease))
	r.line = int(r.lineBase + stmtLine(st)) // llmsh: for bash's "NAME: line N: " prefix
	negated := st.Negated
	if negated && st == r.bangStmt {
		// llmsh: `!` is a command's name (condBangWord), maybe in a
		// pipeline's subshell.
		negated, r.bangStmt = false, nil
		defer func() { r.bangWord = nil }()
	}
	call := false
	switch st.Cmd.(type) {
	case *syntax.CallExpr, *syntax.DeclClause:
		call = true
	}
	defer func(old bool) { r.negCall = old }(r.negCall)
	r.negCall = negated && call // llmsh: posixSpecialExit
	r.substLine = false
	if l, ok := r.substLines[st]; ok {
		r.line, r.substLine = r.substBase+l[2], true // llmsh: in a $( ), the line in bash's text of it
	}
	r.lineEnd = r.lineBase + st.End().Line()
	// llmsh: $LINENO in a simple command's words is its line; in other
	// commands', where the word is.
	oldCmdLine := r.ecfg.CmdLine
	r.ecfg.CmdLine = 0
	switch cm := st.Cmd.(type) {
	case *syntax.CallExpr, *syntax.TestClause, *syntax.DeclClause, *syntax.LetClause, *syntax.ArithmCmd:
		// llmsh: bash expands all the words of a [[ ]], a declaration,
		// let and (( )) at their line too (`[[ $LINENO &&⏎ $LINENO ]]`:
		// the second line twice).
		r.ecfg.CmdLine = r.line
	case *syntax.ForClause:
		if _, ok := cm.Loop.(*syntax.WordIter); ok {
			r.ecfg.CmdLine = r.line // the words after in, at the line of for
		}
	case *syntax.CaseClause:
		r.ecfg.CmdLine = r.line // its word and patterns, at the line of case
	}
	defer func() { r.ecfg.CmdLine = oldCmdLine }()
	// llmsh: bash runs the ERR trap for a command only when one was set
	// before the command ran (a function may set it).
	errTrap := r.callbackErr != ""
	// llmsh: $BASH_COMMAND and the DEBUG trap (traps.go) come before
	// the command's redirections, as bash's.
	debugDone := r.debugAsync
	r.debugAsync = false
	if debugDone {
		// the shell that started this job ran it (asyncDebugTrap)
	} else if st.Cmd != nil && !r.inDebug && debugCmd(st.Cmd) && (len(st.Redirs) == 0 || !afterRedirsDebug(st.Cmd)) {
		if !r.inTrap {
			r.curCmd, r.curRedirs, r.curText, r.curSrc = st.Cmd, st.Redirs, "", r.text.src
		}
		if r.traps != nil && r.debugTrap(ctx, st.Cmd) {
			return // llmsh: extdebug skips it
		}
		debugDone = true
	} else if _, ok := st.Cmd.(*syntax.Subshell); ok {
		r.subshellCommandText(st) // llmsh: $BASH_COMMAND for an ERR trap
		r.subStmt = st            // llmsh: reportForeground
	}
	oldIn, oldOut, oldErr := r.stdin, r.stdout, r.stderr
	oldSrc, oldWO := r.stdinSrc, r.stdinWO
	defer func(w wordStd) { r.wordStd = w }(r.wordStd)
	r.wordStd = wordStd{out: oldOut, err: oldErr, set: true} // llmsh: see wordStd
	r.cmdErr = oldErr                                        // llmsh: where a simple command's expansions write (cmd)
	r.cmdTrace = nil
	if r.opts[optXTrace] {
		r.cmdTrace, _ = r.traceOutput()
	}
	var closers []io.Closer
	var sv redirSaves // llmsh: descriptors above 2 (fds.go)
	if len(st.Redirs) > 0 {
		sv.fds = r.fds
	}
	keep := len(st.Redirs) > 0 && isExecRedirs(st)
	// llmsh: the statement puts back, when it ends, only the standard
	// descriptors that its redirections set, as bash: an exec inside
	// it (`f 2>/dev/null` running `exec >&3`) changes the others for
	// good. What it puts back stays open meanwhile (dropExecStd).
	var stdSet [3]bool
	if len(st.Redirs) > 0 && !keep {
		stdSet = stdRedirected(st.Redirs)
		n := len(r.stdSaves)
		if stdSet[1] {
			r.stdSaves = append(r.stdSaves, oldOut)
		}
		if stdSet[2] {
			r.stdSaves = append(r.stdSaves, oldErr)
		}
		if len(r.stdSaves) > n {
			defer func() { clear(r.stdSaves[n:]); r.stdSaves = r.stdSaves[:n] }()
		}
	}
	// llmsh: a simple command's words, and an assignment-only
	// command's assignments, come before its redirections, as bash.
	preFailed, assignFirst := false, false
	if dc, ok := st.Cmd.(*syntax.DeclClause); ok && len(st.Redirs) > 0 && r.exit.ok() && r.Funcs[dc.Variant.Value] == nil {
		preFailed = r.expandDeclBeforeRedirs(dc)
		defer func() { r.preDecl = nil }()
	}
	if cm, ok := st.Cmd.(*syntax.CallExpr); ok && len(st.Redirs) > 0 && r.exit.ok() {
		if len(cm.Args) > 0 {
			preFailed = r.expandBeforeRedirs(cm)
			defer func() { r.preCall, r.preFields, r.preTraced, r.prePA = nil, nil, false, nil }()
		} else {
			r.debugDone = debugDone
			r.cmd(ctx, cm)
			assignFirst = true
			preFailed = r.exit.abandon || r.exit.exiting || r.exit.fatalExit
		}
	}
	// llmsh: with two files written (`>f >>f`, `>f 2>f`), each is
	// truncated as it opens, not when it closes: what one writes is not
	// replaced by the other's empty truncation.
	r.multiOut = nil
	if outRedirs(st.Redirs) > 1 {
		r.multiOut = map[string]bool{}
	}
	redirFailed := false
	callExpr, _ := st.Cmd.(*syntax.CallExpr)
	// llmsh: says why a simple command's redirection failed.
	var redirErr func()
	r.lazyOpen = r.deferSeq != 0 && len(st.Redirs) == 1 && r.bashPid == r.llmsh.pid // llmsh: deferred.go
	_, subshell := st.Cmd.(*syntax.Subshell)
	if staleBefore(st.Cmd) {
		r.errStale = int(r.lineBase + stmtLine(st)) // llmsh: see errStale
	}
	r.docExternal = len(st.Redirs) > 0 && (subshell || callExpr != nil && r.runsProgram(callExpr))
	cmdLine := r.line
	if len(st.Redirs) > 0 && r.killLine != 0 && compoundRedirLine(st.Cmd) {
		// llmsh: bash makes a compound command's redirections at the
		// line number it has between commands (killLine): the `}` or
		// `done` of a top-level one, a for's line in its body.
		r.line = r.killLine
	}
	for _, rd := range st.Redirs {
		if preFailed {
			break // llmsh: echo ${u?} >f makes no f, as bash
		}
		cls, err := r.redir(ctx, rd, &sv, keep)
		r.lazyOpen = false
		if err != nil {
			if !r.exit.fatalExit && err != errRedirExpand {
				// A fatal error from a handler is reported by [Runner.Run].
				w, text := r.stderr, r.redirErrText(err)
				redirErr = func() { fmt.Fprintf(w, "%s\n", text) }
				if callExpr == nil {
					redirErr()
					redirErr = nil
				}
			}
			if r.exit.code == 0 || err != errRedirExpand && !r.exit.exiting {
				r.exit.code = 1 // (llmsh: set -u's 127 under -c stays)
			}
			redirFailed = true
			break
		}
		if cls != nil {
			// llmsh: a job started by the command holds it (jobs.go).
			hc := holdCloser(cls)
			closers = append(closers, hc)
			r.liveRedirs = append(r.liveRedirs, hc)
		}
	}
	r.line = cmdLine
	if !redirFailed && afterRedirsDebug(st.Cmd) && st.Cmd != nil {
		if _, ok := st.Cmd.(*syntax.CaseClause); !ok {
			r.errStale = int(r.lineBase + stmtLine(st)) // llmsh: see errStale
		}
	}
	if len(closers) > 0 {
		defer func(n int) { r.liveRedirs = r.liveRedirs[:n] }(len(r.liveRedirs) - len(closers))
	}
	r.stmtStdin = stdinRedirects(st.Redirs)
	if len(st.Redirs) > 0 && controlStructure(st.Cmd) {
		// llmsh: bash's stdin_redir, for the jobs it starts (jobs.go).
		defer func(old bool) { r.stdinRedir = old }(r.stdinRedir)
		r.stdinRedir = r.stmtStdin
	}
	r.multiOut = nil
	if callExpr != nil && redirFailed && !assignFirst && !r.exit.fatalExit && !r.exit.exiting {
		// llmsh: bash expands and traces a simple command, and makes
		// its assignments (x=1 >&7 keeps x), before its redirections;
		// an assignment that abandons the line leaves them unmade.
		failCode := r.exit.code // llmsh: 127 for a here-document's child (docExpandErr)
		r.exit = exitStatus{}
		r.noCall, r.debugDone = true, true
		r.cmd(ctx, callExpr)
		r.noCall = false
		if redirErr != nil && !r.exit.abandon && !r.exit.exiting && !r.exit.fatalExit {
			redirErr()
		}
		if r.exit.code == 0 {
			r.exit.code = max(failCode, 1)
		}
		if r.posixSpecialFail {
			r.posixSpecialFail = false
			r.exit.exiting = true
		}
	} else if redirErr != nil {
		redirErr()
	}
	// llmsh: a simple command with redirections (f >log, eval …
	// 2>&1, . lib >/dev/null): a simple command that set -e ends the
	// shell at inside what it runs leaves the EXIT trap until they are
	// undone (exitDeferred), as bash's run_unwind_frame
	// ("saved-redirects") before its jump to the top level.
	redirCall := callExpr != nil && len(st.Redirs) > 0
	if redirCall {
		r.redirCalls++
	}
	if (r.exit.ok() || preFailed) && st.Cmd != nil && !assignFirst {
		if negated && r.opts[optErrExit] && !r.noErrExit && st != r.negatedAlone {
			// llmsh: under set -e, bash ignores it (and the ERR
			// trap) in every command that ! runs.
			r.noErrExit = true
			r.debugDone = debugDone
			r.cmd(ctx, st.Cmd)
			r.noErrExit = false
		} else {
			r.debugDone = debugDone
			r.cmd(ctx, st.Cmd)
		}
	}
	if redirCall {
		r.redirCalls--
	}
	r.staleAfter(st)
	r.cmdErr, r.cmdTrace = nil, nil
	if _, ok := st.Cmd.(*syntax.CallExpr); !ok && st.Cmd != nil {
		// llmsh: a compound command's status may be that of a
		// deferred command it ran last (deferred.go).
		r.deferBarrier(&r.exit)
	}
	if simpleCommand(st.Cmd) {
		r.setPipeStatus(oneStatus[r.exit.code]) // llmsh: pipeline.go
	}
	if negated {
		switch {
		case st == r.negatedAlone && r.exit.exiting && !r.exit.fatalExit:
			// llmsh: set -e ended the subshell, whose status is
			// inverted (negatedAlone); an exit's is not, as bash's.
			if r.errExited {
				r.exit.code = 0
			}
		case r.exit.ok():
			r.exit.code = 1
		default:
			r.exit.clear()
		}
	}
	// llmsh: the ERR trap and set -e act once the command's own
	// redirections are undone, as bash's execute_command_internal: the
	// trap's output goes where the shell's does (false > f leaves f
	// empty).
	errCheck := !negated && !elem && !r.exit.ok() && !r.noErrExit && !r.exit.returning && !r.exit.exiting &&
		!r.exit.fatalExit && (redirFailed || errExitCmd(st.Cmd))
	errAct := func() {
		// llmsh: bash runs the ERR trap and acts on set -e for simple
		// commands, subshells, pipelines, (( )) and [[ ]] (and for any
		// command whose redirection failed), never again for the if,
		// case, loop, { } or function body that ends with such a
		// failure, nor for a return or an exit. The exceptions:
		//
		//   conditions (if <cond>, while <cond>, etc): noErrExit
		//   part of && or || lists: noErrExit, and no errExitCmd
		//   preceded by !: excluded via the if above
		//   an element of a pipeline: elem (the pipeline is checked)
		// llmsh: nor for the command a background job runs (false &,
		// f &, a | b &): bash's child runs no ERR trap for it, only
		// for the commands inside it, as set -E has it.
		if errTrap && st != r.bareSubshell && st != r.jobStmt {
			r.posixErrPending = false // llmsh: posixSpecialExit
			r.errTrap(ctx, st, redirFailed && !staleBefore(st.Cmd))
		}
		// llmsh: a return in the ERR trap's action returns before
		// set -e would end the shell, as bash's.
		if r.opts[optErrExit] && !r.exit.returning {
			r.exit.exiting = true
			r.errExited = true
			// llmsh: bash runs the EXIT trap where set -e ends the
			// shell, in the failing command's function (its FUNCNAME,
			// BASH_LINENO and locals), as exit does.
			if _, simple := st.Cmd.(*syntax.CallExpr); simple && r.exitTrapDue() && r.redirCalls > 0 {
				r.exitDeferred = true
				if r.funcRunning() {
					r.stackMain = stackMain // see deferredExitTrap
				}
			} else if r.exitTrapDue() {
				r.exitTrapHere(ctx, true)
			}
		}
	}
	// (( )) and [[ ]] are the exception: bash checks them in their own
	// case, with their redirections still in place.
	errEarly := false
	switch st.Cmd.(type) {
	case *syntax.ArithmCmd, *syntax.TestClause:
		errEarly = !redirFailed
	}
	if errCheck && errEarly {
		errAct()
	}
	if r.keepRedirs {
		// The exec builtin made this statement's redirections apply to the
		// shell itself, so don't undo them and keep their files open
		// (llmsh: until the shell ends, or a later exec replaces them).
		r.keepRedirs = false
		r.execClosers = append(r.execClosers, closers...)
		r.restoreFds(&sv, true)
		r.dropExecStd(oldOut, oldErr) // llmsh: fds.go
	} else if len(st.Redirs) > 0 {
		curOut, curErr := r.stdout, r.stderr
		if stdSet[0] {
			r.stdin, r.stdinSrc, r.stdinWO = oldIn, oldSrc, oldWO
		}
		if stdSet[1] {
			r.stdout = oldOut
		}
		if stdSet[2] {
			r.stderr = oldErr
		}
		if len(r.execClosers)+len(r.execHeld) > 0 {
			r.dropExecStd(curOut, curErr) // ({ exec >&3; } 2>&1)
		}
		for _, cls := range closers {
			cls.Close()
		}
		r.restoreFds(&sv, false)
	}
	if redirCall && r.exitDeferred {
		r.deferredExitTrap(ctx)
	}
	if errCheck && !errEarly {
		errAct()
	}
	if r.posixErrPending {
		// llmsh: the ERR trap did not run (posixSpecialExit).
		r.posixErrPending = false
		r.exit.exiting = true
	}
	if sig := r.exit.signaled; sig != 0 && !r.exit.exiting {
		// llmsh: a command that a signal ended (a nested shell's
		// KilledStatus), reported on the stderr it had before its
		// redirections, as bash.
		// An element's is the pipeline's, when it is the last; a
		// job's command's is the job's (notifyKilled, when it is
		// waited for), as bash's job is that command's process.
		if !elem && st != r.pipeStmt && st != r.jobStmt {
			r.exit.signaled = 0
			pid := r.exit.sigPid
			if pid == 0 {
				pid = r.llmsh.newPid() // llmsh: a handler's command (KilledStatus)
			}
			r.reportForeground(int(sig), pid, st, r.stderr)
		}
	}
	if r.selfTraps != nil {
		// llmsh: kill -SIG $$ (signals.go), also in another trap's
		// action, as bash.
		r.runSelfTraps(ctx)
	}
}

// errExitCmd reports whether a failure of cm itself is one that set -e
// and the ERR trap act on (llmsh): not that of an if, case, loop, { },
// && || list or time, whose status is that of a command run inside
// (checked there, or ignored there).
func errExitCmd(cm syntax.Command) bool {
	switch cm := cm.(type) {
	case *syntax.CallExpr, *syntax.Subshell, *syntax.ArithmCmd, *syntax.TestClause,
		*syntax.LetClause, *syntax.DeclClause:
		return true
	case *syntax.BinaryCmd:
		return cm.Op == syntax.Pipe || cm.Op == syntax.PipeAll
	}
	return false
}

// stmtLine is bash's line of a statement: for a simple command, the line
// bash's parser had reached when it made the command, at the token after
// its first word (bash reads it to tell a command from a function
// definition): `echo a \<newline> b` is on its first line, `echo "a
// <newline>b"` on its second; an assignment needs no look-ahead. Other
// statements are on the line they start.
func stmtLine(st *syntax.Stmt) uint {
	if ac, ok := st.Cmd.(*syntax.ArithmCmd); ok && ac.Right.IsValid() {
		return ac.Right.Line() // bash reads (( … )) to its end as one token
	}
	if sub, ok := st.Cmd.(*syntax.Subshell); ok && sub.Rparen.IsValid() {
		// bash's subshell command keeps the line where its parse
		// ended, its ")": the ERR trap's $LINENO and the "line N" of
		// its redirections' errors.
		return sub.Rparen.Line()
	}
	switch cm := st.Cmd.(type) {
	case *syntax.TestClause:
		// llmsh: bash's [[ ]] has the line where its last operand ends,
		// as its parser had read it (`[[ a ==⏎ b ]]`: 2; `[[ a == b⏎ ]]`: 1).
		if cm.X != nil && cm.X.End().IsValid() {
			return cm.X.End().Line()
		}
	case *syntax.LetClause:
		// llmsh: as a simple command's, at the end of the word
		// after `let` (`let "<newline>1/0"`: line 2).
		if len(cm.Exprs) > 0 && cm.Exprs[0].End().IsValid() {
			return cm.Exprs[0].End().Line()
		}
	case *syntax.DeclClause:
		if len(cm.Args) > 0 && cm.Args[0].End().IsValid() {
			return cm.Args[0].End().Line()
		}
	}
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 && len(ce.Assigns) == 0 {
		return st.Position.Line()
	}
	if len(ce.Assigns) > 0 && (len(ce.Args) == 0 || ce.Assigns[0].Pos().Offset() < ce.Args[0].Pos().Offset()) {
		return ce.Assigns[0].End().Line()
	}
	first := ce.Args[0].End()
	next := syntax.Pos{}
	if len(ce.Args) > 1 {
		next = ce.Args[1].End()
	}
	for _, rd := range st.Redirs {
		if rd.OpPos.Offset() >= first.Offset() && (!next.IsValid() || rd.OpPos.Offset() < next.Offset()) {
			next = rd.OpPos
		}
	}
	if !next.IsValid() {
		return first.Line()
	}
	return next.Line()
}

// errLine is the line of st for its ERR trap: stmtLine's, but for a
// pipeline the line of its last element that is a simple command, the
// last that bash's shell ran itself before forking (`true |⏎ false`: 2;
// `true |⏎ { false; }`: 1).
func errLine(st *syntax.Stmt) uint {
	bc, ok := st.Cmd.(*syntax.BinaryCmd)
	if !ok || bc.Op != syntax.Pipe && bc.Op != syntax.PipeAll {
		return stmtLine(st)
	}
	elems, _ := pipeElems(bc)
	for i := len(elems) - 1; i >= 0; i-- {
		switch elems[i].Cmd.(type) {
		case *syntax.CallExpr, *syntax.DeclClause, *syntax.LetClause:
			return stmtLine(elems[i])
		}
	}
	return stmtLine(st)
}

// simpleCallLine reports whether r.line is the line of the simple command
// whose name, at pos (line first in the text's numbering), calls a
// function: r.node is that command and r.line lies between its first
// line and the end of its statement.
func (r *Runner) simpleCallLine(pos syntax.Pos, first int) bool {
	ce, ok := r.node.(*syntax.CallExpr)
	return ok && len(ce.Args) > 0 && ce.Args[0].Pos() == pos &&
		r.line > first && r.line <= int(r.lineEnd)
}

// errTrap runs the ERR trap for the statement st that failed, with
// $LINENO the line of st (llmsh; bash's line_number_for_err_trap), in
// eval's text counted from the eval's line as bash does; stale says st
// is a compound command whose redirection failed, whose line bash has
// not taken yet (errStale).
func (r *Runner) errTrap(ctx context.Context, st *syntax.Stmt, stale bool) {
	old := r.ecfg.TrapLine
	r.ecfg.TrapLine = uint64(r.lineBase + errLine(st))
	if l, ok := r.substLines[st]; ok {
		r.ecfg.TrapLine = uint64(r.substBase + l[2]) // llmsh: substLineMap
	}
	if stale && r.errStale > 0 {
		r.ecfg.TrapLine = uint64(r.errStale)
	}
	r.trapCallback(ctx, r.callbackErr, "error")
	r.ecfg.TrapLine = old
}

// staleBefore reports whether bash takes cm's line for the ERR trap
// (errStale) before cm's redirections: a simple command's or a ( … )'s.
func staleBefore(cm syntax.Command) bool {
	switch cm.(type) {
	case *syntax.CallExpr, *syntax.DeclClause, *syntax.LetClause, *syntax.Subshell:
		return true
	}
	return false
}

// staleAfter sets errStale once st has run: a function call, eval or
// source leaves it at the call's line, as bash's execute_function and
// parse_and_execute put it back; a pipeline at its last simple command
// or ( … ), which bash's parent reaches before it forks them, or else
// at its end; a function definition at its end.
func (r *Runner) staleAfter(st *syntax.Stmt) {
	switch cm := st.Cmd.(type) {
	case *syntax.CallExpr, *syntax.DeclClause, *syntax.LetClause, *syntax.Subshell:
		r.errStale = int(r.lineBase + stmtLine(st))
	case *syntax.FuncDecl:
		r.errStale = int(r.lineBase + cm.End().Line()) // where its parse ended
	case *syntax.BinaryCmd:
		if cm.Op == syntax.Pipe || cm.Op == syntax.PipeAll {
			// (bash's line_number as it runs the pipeline: where
			// its parser stopped, the pipeline's end.)
			r.errStale = int(r.lineBase + cm.End().Line())
			elems, _ := pipeElems(cm)
			for _, e := range elems {
				if staleBefore(e.Cmd) {
					r.errStale = int(r.lineBase + stmtLine(e))
				}
			}
		}
	}
}

// afterRedirsDebug reports whether bash runs the DEBUG trap for cm, and
// sets $BASH_COMMAND, only once cm's redirections are made (its
// execute_arith_command, execute_cond_command, execute_case_command):
// with a redirection that fails, neither.
func afterRedirsDebug(cm syntax.Command) bool {
	switch cm.(type) {
	case *syntax.ArithmCmd, *syntax.TestClause, *syntax.CaseClause:
		return true
	}
	return false
}

func (r *Runner) cmd(ctx context.Context, cm syntax.Command) {
	if r.stop(ctx) {
		return
	}

	// llmsh: $BASH_COMMAND and the DEBUG trap (traps.go), for the
	// commands bash runs the trap before. A trap's action leaves
	// $BASH_COMMAND as it was; the DEBUG trap's runs no DEBUG trap.
	debugDone := r.debugDone
	r.debugDone = false
	if !debugDone && !r.inDebug && debugCmd(cm) {
		if !r.inTrap {
			r.curCmd, r.curRedirs, r.curText, r.curSrc = cm, nil, "", r.text.src
		}
		if r.traps != nil && r.debugTrap(ctx, cm) {
			return // llmsh: extdebug skips it
		}
	}

	tracingEnabled := r.opts[optXTrace]
	trace := r.tracer()
	switch cm.(type) {
	case *syntax.CallExpr, *syntax.DeclClause, *syntax.LetClause:
		if trace != nil && r.cmdTrace != nil {
			// llmsh: bash traces a simple command before it makes
			// its redirections (set -x; echo a 2>/dev/null shows it).
			trace.output = r.cmdTrace
		}
	}

	switch cm := cm.(type) {
	case *syntax.Block:
		r.stmts(ctx, cm.Stmts)
	case *syntax.Subshell:
		r.cmdSubshell(ctx, cm)
	case *syntax.CallExpr:
		r.cmdCall(ctx, cm, tracingEnabled, trace)
	case *syntax.BinaryCmd:
		switch cm.Op {
		case syntax.AndStmt, syntax.OrStmt:
			r.andOr(ctx, cm) // llmsh: without recursion
		case syntax.Pipe, syntax.PipeAll:
			r.pipeline(ctx, cm) // llmsh: pipeline.go
		}
	case *syntax.IfClause:
		oldNoErrExit := r.noErrExit
		r.noErrExit = true
		r.stmts(ctx, cm.Cond)
		r.noErrExit = oldNoErrExit

		if r.exit.ok() {
			r.stmts(ctx, cm.Then)
			break
		}
		r.exit.clear()
		if cm.Else != nil {
			r.cmd(ctx, cm.Else)
		}
	case *syntax.WhileClause:
		// llmsh: the loop's status is its body's (pipeline.go).
		var body exitStatus
		for !r.stop(ctx) {
			oldNoErrExit := r.noErrExit
			r.noErrExit = true
			taken, ended := r.loopCond(ctx, cm.Cond)
			r.noErrExit = oldNoErrExit

			stop := r.exit.ok() == cm.Until
			cond := r.exit
			r.exit.clear()
			if ended || stop {
				break // llmsh: the loop ends even after a continue
			}
			if taken {
				// llmsh: a continue in the condition: the skipped
				// body's status is the condition's, as bash's.
				body = cond
				continue
			}
			broken := r.loopStmtsBroken(ctx, cm.Do)
			r.deferBarrier(&r.exit) // llmsh: body is kept aside (deferred.go)
			body = r.exit
			if broken {
				break
			}
		}
		r.loopStatus(body)
	case *syntax.ForClause:
		r.cmdFor(ctx, cm, trace)
	case *syntax.FuncDecl:
		r.cmdFuncDecl(ctx, cm)
	case *syntax.ArithmCmd:
		r.cmdArithm(ctx, cm, tracingEnabled, trace)
	case *syntax.LetClause:
		r.thisCmd = "" // llmsh: declare.go: localRefused
		r.letClause(ctx, cm, trace)
	case *syntax.CaseClause:
		r.cmdCase(ctx, cm, trace)
	case *syntax.TestClause:
		r.cmdTest(ctx, cm)
	case *syntax.DeclClause:
		r.cmdDecl(ctx, cm, trace)
	case *syntax.TimeClause:
		r.timeClause(ctx, cm) // llmsh: timing.go
	case *syntax.CoprocClause:
		r.coproc(ctx, cm) // llmsh: coproc.go
	default:
		// Should only happen if we forgot a case above.
		r.errf("unhandled command node: %T\n", cm)
		r.exit.code = 1
	}
	r.reportPendingExit(ctx) // llmsh: (( r=1 )), declare a[-1]=x
}

// cmdSubshell runs cm, a case of [Runner.cmd] (llmsh: a method of its own, so
// that cmd's stack frame stays small: a recursion of shell functions
// takes cmd's frame several times a level).
func (r *Runner) cmdSubshell(ctx context.Context, cm *syntax.Subshell) {
	fg := r.foregroundJobs() // llmsh: a job in the foreground (jobstop.go)
	r2 := r.subshell(fg)
	r2.errTrapLine = 0                      // llmsh: see errTrapLine
	r2.inheritedJobs = nil                  // llmsh: only $( ) keeps the parent's jobs (bash)
	r2.stdinRedir = r.stmtStdin || r.pipeIn // llmsh: bash's stdin_redir
	r2.subLast = nil                        // llmsh: see subLast
	if n := len(cm.Stmts); n > 0 {
		r2.subLast = cm.Stmts[n-1]
	}
	r2.setNoForkTail(cm.Stmts, r.bashPid, true, redirsAlone) // llmsh: NoForkExec
	r2.parenSub = true
	if r.jobSelf != nil && r.jobSub == cm {
		// llmsh: `( … ) &` is one process, the job's (jobsig.go).
		r2.bashPid, r2.jobSelf = r.bashPid, r.jobSelf
		r2.asyncInt, r2.asyncQuit = r.asyncInt, r.asyncQuit
		r2.noteTraps()
	}
	if len(cm.Stmts) == 1 && cm.Stmts[0].Negated && !cm.Stmts[0].Background {
		r2.negatedAlone = cm.Stmts[0]
	}
	if len(cm.Stmts) == 1 && !cm.Stmts[0].Negated && !cm.Stmts[0].Background {
		if _, ok := cm.Stmts[0].Cmd.(*syntax.Subshell); ok {
			// llmsh: bash runs `( ( … ) )`'s inner subshell in
			// the outer one's process, with no ERR trap of its own.
			r2.bareSubshell = cm.Stmts[0]
		}
	}
	if fg {
		// llmsh: Ctrl-Z at the prompt stops it.
		r.subshellForeground(ctx, r2, cm)
		return
	}
	sctx, sgate, stopSub := pipeGate(ctx, r2) // llmsh: SIGPIPE ends the subshell alone
	r2.stmts(sctx, cm.Stmts)
	r2.pendingAtEnd(sctx) // llmsh: jobsig.go
	stopSub()
	if sgate != nil && sgate.broke.Load() && ctx.Err() == nil {
		r2.exit = exitStatus{code: 141}
	}
	r2.subshellExit(ctx) // llmsh: its own EXIT trap
	if r.jobSelf != nil && r.jobSub == cm {
		r2.orphanPsubs() // llmsh: `( … ) &` is the job (fds.go)
	} else {
		r2.waitPsubs(ctx) // llmsh: fds.go
	}
	r2.exit.leaveShell() // subshells don't exit the parent shell
	r.reapDone()         // llmsh: it waited for a child (jobs.go)
	if r2.exit.fatalExit {
		// llmsh: a fatal error (a limit) ends the run, as from a
		// pipeline or a command substitution.
		r.exit.fatal(r2.exit.err)
		return
	}
	r.exit = r2.exit
	if sig := r.exit.signaled; sig != 0 && r.subStmt != nil && r.subStmt == r.pipeStmt && r.subStmt.Cmd == cm {
		// llmsh: the element of a pipeline: the pipeline
		// reports it (pipeline.go).
		r.subStmt = nil
		r.exit.sigPid = r2.bashPid
	} else if sig != 0 {
		r.exit.signaled = 0
		st := r.subStmt
		r.subStmt = nil
		if st != nil && st.Cmd == cm && !(sig == sigTERM && r.jobSelf != nil && r.jobSub == cm) {
			// (`( … ) &` is the job itself: bash reports no
			// background job that SIGTERM ended, notifyKilled's
			// rule.)
			r.reportForeground(int(sig), r2.bashPid, st, r.cmdErr) // llmsh: jobs.go
		}
	}
	r.childExited(1) // llmsh: chld.go
	if r.timedSub == cm {
		// llmsh: `time ( … ) 2>f` reports under the redirections
		// (timing.go).
		report := r.timedReport
		r.timedSub, r.timedReport = nil, nil
		report()
	}
}

// cmdCall runs cm, a case of [Runner.cmd] (llmsh: a method of its own, so
// that cmd's stack frame stays small: a recursion of shell functions
// takes cmd's frame several times a level).
func (r *Runner) cmdCall(ctx context.Context, cm *syntax.CallExpr, tracingEnabled bool, trace *tracer) {
	orig := cm
	if r.opts[optKeyword] {
		cm = keywordAssigns(cm) // llmsh: set -k
	}
	// llmsh: aliases were expanded when the line was read
	// (aliasread.go).
	args := cm.Args
	if r.coprocs != nil {
		r.reapCoproc() // llmsh: a coprocess wait took (coproc.go)
	}
	// llmsh: bash expands a simple command's words before its
	// redirections are made: their errors and command substitutions
	// write to the stderr from before them (echo $(ls x) 2>/dev/null
	// shows ls's error), as do all of an assignment-only command's.
	errOut := r.stderr
	if r.cmdErr != nil {
		r.stderr = r.cmdErr
	}
	var fields []string
	var prePA *prefixState
	if r.preCall == orig && orig != nil {
		fields, r.preCall, r.preFields = r.preFields, nil, nil // stmtSync expanded them
		prePA, r.prePA = r.prePA, nil                          // and made the assignments
		if r.preTraced {
			trace, r.preTraced = nil, false // and traced them
		}
	} else {
		r.lastExpandExit = exitStatus{}
		fields = r.fields(args...)
	}
	if r.bangWord != nil && r.bangWord == cm {
		r.bangWord = nil
		fields = append([]string{"!"}, fields...) // llmsh: condBangWord
	}
	if len(fields) > 0 {
		r.stderr = errOut
	}
	if len(fields) == 0 {
		r.thisCmd = ""                   // llmsh: declare.go: localRefused
		var localEnv expand.WriteEnviron // llmsh: see selfRef below
		for _, as := range cm.Assigns {
			r.refElem = ""
			if localEnv != nil {
				r.writeEnv, localEnv = localEnv, nil
			}
			if r.exit.abandon {
				break // llmsh: an expansion error abandons the rest
			}
			if as.Index != nil && as.Array != nil {
				// llmsh: a[1]=(y): bash's run-time error; the
				// command line is abandoned.
				r.errf("%s%s[%s]: cannot assign list to array member\n", r.errPrefix(), as.Name.Value, subscriptText(as.Index))
				r.exit = exitStatus{code: 1, exiting: true, abandon: true}
				break
			}
			// llmsh: a variable that is not a nameref (n=$i in
			// a loop) is its own target: one lookup, where the
			// three checks below made three and a map.
			isRef := r.lookupVar(as.Name.Value).Kind == expand.NameRef
			var g *overlayEnviron
			if isRef {
				g = r.selfRef(as.Name.Value)
			}
			if g != nil {
				// llmsh: a local nameref naming itself: bash
				// warns and assigns the global variable.
				r.errf("%swarning: %s: circular name reference\n", r.errPrefix(), as.Name.Value)
				localEnv, r.writeEnv = r.writeEnv, g
			} else if isRef && r.circularRef(as.Name.Value) {
				// llmsh: bash warns, assigns nothing and
				// abandons the command line, status 1 (set -e
				// does not end the shell).
				r.errf("%swarning: %s: circular name reference\n", r.errPrefix(), as.Name.Value)
				r.exit = exitStatus{code: 1, exiting: true, abandon: true, noExit: true}
				break
			}
			// llmsh: through a nameref, which may name an element.
			name, index := as.Name.Value, as.Index
			if isRef {
				name, index = r.refTarget(name, index)
				if as.Index != nil {
					r.refElem = as.Name.Value
				}
			}
			if as.Array != nil && as.Index == nil && index != nil {
				// llmsh: r=(…) of a nameref naming an element
				// (r='a[0]'): bash's error, and the command line
				// is abandoned.
				r.errf("%s`%s[%s]': not a valid identifier\n", r.errPrefix(), name, subscriptText(index))
				r.exit = exitStatus{code: 1, exiting: true, abandon: true}
				break
			}
			if isRef && as.Index == nil && allSubscript(index) && r.lookupVar(name).Kind == expand.Associative {
				// llmsh: r=v of a nameref to m[@] or m[*] is bash's
				// error, as for an indexed array's (m[@]=v itself
				// assigns the key @).
				r.errf("%s%s[%s]: bad array subscript\n", r.errPrefix(), name, subscriptText(index))
				r.badSubscript()
				break
			}
			if as.Append && index != nil && as.Array == nil {
				// llmsh: a[i++]+=v evaluates i++ once, as bash.
				var ok bool
				if index, ok = r.fixedIndex(name, index); !ok {
					break
				}
			}

			prev := r.lookupVar(name)
			// Here we have a naked "foo=bar", so if we inherited a local var from a parent
			// function we want to signal that we are modifying the parent var rather than
			// creating a new local var via "local foo=bar".
			// TODO: there is likely a better way to do this.
			prev.Local = false

			var vr expand.Variable
			var ok bool
			if tracingEnabled && as.Array != nil {
				// llmsh: bash traces NAME=(…) as written,
				// before it expands the elements.
				trace.string(r.writtenArray(as))
				trace.newLineFlush()
			}
			if as.Array != nil && prev.ReadOnly {
				// llmsh: r=(…), r+=(…) of a readonly r: bash
				// refuses before it expands the elements.
				r.errf("%s%s: readonly variable\n", r.errPrefix(), name)
				r.exit.code = 1
				r.exit.exiting, r.exit.abandon = true, !r.opts[optPosix]
				break
			}
			if as.Array != nil && index == nil && !prev.Declared() {
				// llmsh: bash makes the array before it expands
				// the elements (find_or_make_array_variable), so
				// they see it: a=(${!a*}) holds a, declare -p a
				// in them says a=().
				r.setVar(name, expand.Variable{Set: true, Kind: expand.Indexed})
				prev = r.lookupVar(name)
				prev.Local = false
			}
			appended := plainAppend(prev, as, index)
			if appended {
				vr, ok = r.appendElems(name, prev, as.Array.Elems) // llmsh
			} else {
				if tracingEnabled && as.Array == nil {
					// llmsh: traced once the value is
					// expanded, before it is assigned (a
					// bad subscript, 1/0 of an integer
					// variable come after), as bash.
					r.assignTrace = func() { r.traceAssign(trace, as) }
				}
				name, vr, ok = r.assignValIndex(name, prev, as, "", index)
				r.assignTrace = nil
			}
			if part := r.partial; part != nil {
				// llmsh: the elements before an error stay (bash).
				r.partial = nil
				if !prev.ReadOnly && appended {
					r.setArray(name, *part)
				} else if !prev.ReadOnly {
					r.setVarWithIndex(prev, name, nil, *part)
				}
			}
			if !ok {
				continue
			}
			if prev.ReadOnly {
				// llmsh: as bash, an assignment to a readonly
				// variable abandons the command line, status 1
				// (set -x has traced it).
				r.errf("%s%s: readonly variable\n", r.errPrefix(), name)
				r.exit.code = 1
				// In posix mode the shell exits (bash's
				// assignment error of a non-interactive shell).
				r.exit.exiting, r.exit.abandon = true, !r.opts[optPosix]
				if r.opts[optErrExit] {
					r.exitTrapEarly(ctx) // set -e ends the shell
				}
				break
			}
			if appended {
				r.setArray(name, vr)
			} else {
				r.setVarWithIndex(prev, name, index, vr)
			}
		}
		r.refElem = "" // set by a nameref's element, below
		if localEnv != nil {
			r.writeEnv = localEnv
		}
		r.lastArg, r.lastArgExported = "", false // llmsh: $_ after an assignment (bash)
		r.stderr = errOut
		// If interpreting the last expansion like $(foo) failed,
		// and the expansion and assignments otherwise succeeded,
		// we need to surface that last exit code.
		if r.exit.ok() {
			r.exit = r.lastExpandExit
		}
		return
	}

	var pa prefixState
	if prePA != nil {
		pa = *prePA
	} else {
		pa = r.prefixAssigns(cm.Assigns, fields, errOut, trace)
	}
	if trace != nil {
		r.traceHide = pa.restores
		trace.call(fields[0], fields[1:]...)
		trace.newLineFlush()
		r.traceHide = nil
	}
	if r.noCall || pa.roFailed && r.reportExit() && r.exitTrapEarly(ctx) {
		// llmsh: a redirection failed (stmtSync). In posix mode
		// a special builtin's failed redirection ends the shell,
		// as bash's.
		r.posixSpecialFail = r.noCall && r.opts[optPosix] && specialBuiltins[fields[0]] && r.Funcs[fields[0]] == nil
		pa.undo(r)
		return
	}
	if pa.roFailed && r.opts[optPosix] {
		// llmsh: in posix mode an assignment error before a
		// command abandons the command line, status 1, and
		// before a special builtin ends the shell, as bash's.
		pa.undo(r)
		special := specialBuiltins[fields[0]] && r.Funcs[fields[0]] == nil
		r.exit = exitStatus{code: 1, exiting: true, abandon: !special}
		return
	}

	r.node = cm
	pa.start(r, fields)
	r.call(ctx, cm.Args[0].Pos(), fields)
	r.lastArg, r.lastArgExported = fields[len(fields)-1], false // llmsh: $_
	pa.end(r, fields)
}

// cmdFor runs cm, a case of [Runner.cmd] (llmsh: a method of its own, so
// that cmd's stack frame stays small: a recursion of shell functions
// takes cmd's frame several times a level).
func (r *Runner) cmdFor(ctx context.Context, cm *syntax.ForClause, trace *tracer) {
	// llmsh: bash's line_number in the body (reportForeground):
	// for's and select's line, an arithmetic for's last.
	oldKill := r.killLine
	defer func() { r.killLine = oldKill }()
	if _, ok := cm.Loop.(*syntax.CStyleLoop); ok {
		r.killLine = int(r.lineBase + cm.End().Line())
	} else {
		r.killLine = int(r.lineBase + cm.Pos().Line())
	}
	r.thisCmd = "" // llmsh: bash's this_command_name (declare.go: localRefused)
	if _, ok := cm.Loop.(*syntax.CStyleLoop); ok {
		r.thisCmd = "(("
	}
	switch y := cm.Loop.(type) {
	case *syntax.WordIter:
		name := y.Name.Value
		if !syntax.ValidName(name) {
			// llmsh: bash checks the name before it expands the
			// words: the loop does not run, status 1.
			r.shErrf("`%s': not a valid identifier\n", name)
			r.exit.code = 1
			break
		}
		items := r.Params // for i; do ...

		inToken := y.InPos.IsValid()
		if inToken {
			items = r.fields(y.Items...) // for i in ...; do ...
		}

		if cm.Select && r.forDebugTrap(ctx, cm, forHeadText(cm, y)) {
			break // llmsh: extdebug skips it
		}
		if cm.Select {
			// llmsh: set -x shows the head once, as bash.
			trace.stringf("select %s in", y.Name.Value)
			if inToken {
				for _, item := range y.Items {
					trace.string(" ")
					trace.expr(item)
				}
				if len(y.Items) == 0 {
					trace.string(" ")
				}
			} else {
				trace.string(` "$@"`)
			}
			trace.newLineFlush()
		}
		if cm.Select && len(items) == 0 {
			break // llmsh: bash shows no menu for no items (status 0)
		}
		if cm.Select {
			ps3 := cmp.Or(r.envGet(shellReplyPS3Var), shellDefaultPS3)

			for menu := true; ; {
				if menu {
					// display menu
					r.errf("%s", selectMenu(items, r.envGet("COLUMNS")))
					menu = false
				}
				r.errf("%s", ps3)

				line, err := r.readLine(ctx, true)
				if err != nil {
					r.out("\n") // llmsh: on stdout, as bash
					r.exit.code = 1
					break
				}
				if len(line) == 0 {
					menu = true // no reply; show the menu again
					continue
				}

				reply := string(line)
				r.setVarString(shellReplyVar, reply)

				// llmsh: through a nameref, as bash.
				// bash's legal_number: blanks around it too.
				if c, _ := legalNumber(reply); c > 0 && c <= int64(len(items)) {
					r.assignName("select", name, items[c-1])
				} else {
					r.assignName("select", name, "")
				}
				if r.reportPending {
					// llmsh: a readonly name ends the loop,
					// status 1, and set -e the shell, as bash's.
					r.exit = exitStatus{code: 1}
					r.reportPendingExit(ctx)
					break
				}

				// execute commands until break or return is encountered
				if r.loopStmtsBroken(ctx, cm.Do) || r.stop(ctx) {
					break // llmsh: and a return or exit in an && list, an if
				}
			}
			break
		}

		var head string // llmsh: $BASH_COMMAND in the DEBUG trap
		for _, field := range items {
			if r.stop(ctx) {
				// llmsh: a return or exit in the body (in an
				// && list, an if) ends the loop: the name keeps
				// its word, and no head is traced again.
				break
			}
			if r.traps[trapDebug] != "" && !r.inDebug {
				if head == "" {
					head = forHeadText(cm, y)
				}
				if r.forDebugTrap(ctx, cm, head) {
					continue // llmsh: extdebug skips the iteration
				}
			}
			vr := r.lookupVar(name)
			if r.noAssign(name) {
				// llmsh: for FUNCNAME in …: the loop ends, status
				// 1, silently (bash's noassign).
				r.exit = exitStatus{code: 1}
				break
			}
			if _, t := vr.Resolve(r.writeEnv); t.ReadOnly {
				// llmsh: a readonly name ends the loop, status 1.
				r.errf("%s%s: readonly variable\n", r.errPrefix(), name)
				r.exit = exitStatus{code: 1}
				if r.reportExit() {
					r.exitTrapEarly(ctx)
				}
				break
			}
			if vr.Kind == expand.NameRef {
				if p, _, ok := expand.ParseRef(field); !ok || !syntax.ValidName(p.Value) {
					// llmsh: bash ends the loop, status 1.
					r.errf("%s`%s': not a valid identifier\n", r.errPrefix(), field)
					r.exit = exitStatus{code: 1}
					break
				}
				// llmsh: a nameref refers to each word in turn.
				vr.Str, vr.Set = field, true
				r.setVar(name, vr)
			} else {
				r.setVarString(name, field)
			}
			if r.exit.exiting {
				break // llmsh: declare -i x; for x in 1/0
			}
			if trace != nil { // (llmsh: the name's boxing allocated)
				trace.stringf("for %s in", y.Name.Value)
			}
			if inToken {
				for _, item := range y.Items {
					trace.string(" ")
					trace.expr(item)
				}
			} else {
				trace.string(` "$@"`)
			}
			trace.newLineFlush()
			if r.loopStmtsBroken(ctx, cm.Do) {
				break
			}
		}
	case *syntax.CStyleLoop:
		r.cstyleLoop(ctx, cm, y) // llmsh: pipeline.go
	}
}

// cmdFuncDecl runs cm, a case of [Runner.cmd] (llmsh: a method of its own, so
// that cmd's stack frame stays small: a recursion of shell functions
// takes cmd's frame several times a level).
func (r *Runner) cmdFuncDecl(ctx context.Context, cm *syntax.FuncDecl) {
	if cm.Name == nil { // e.g. zsh's anonymous or multi-name functions
		r.errf("unsupported\n")
		r.exit.code = 1
		return
	}
	if cm.BadName {
		// llmsh: bash parses any word as a name and refuses a
		// quoted one, or one with an expansion, when it runs.
		r.errf("%s`%s': not a valid identifier\n", r.errPrefix(), cm.Name.Value)
		r.exit.code = 1
		r.posixBadFunc() // llmsh
		return
	}
	if r.opts[optPosix] && r.posixFuncName(cm.Name.Value) { // llmsh
		return
	}
	if strings.Contains(r.funcAttrs[cm.Name.Value], "r") {
		// llmsh: bash refuses to redefine a readonly function,
		// at its line between commands outside a function (the
		// `}` of a top-level definition, a for's line).
		prefix := r.errPrefix()
		if !r.inFunc {
			prefix = r.killPrefix()
		}
		r.errf("%s%s: readonly function\n", prefix, cm.Name.Value)
		r.exit.code = 1
		return
	}
	r.setFunc(cm.Name.Value, cm.Body)
}

// cmdArithm runs cm, a case of [Runner.cmd] (llmsh: a method of its own, so
// that cmd's stack frame stays small: a recursion of shell functions
// takes cmd's frame several times a level).
func (r *Runner) cmdArithm(ctx context.Context, cm *syntax.ArithmCmd, tracingEnabled bool, trace *tracer) {
	r.thisCmd = "((" // llmsh: declare.go: localRefused
	if cm == r.parenArith {
		// llmsh: read as ( ( … ) ) (condArithParen).
		sub := r.parenCmd
		r.parenArith, r.parenCmd = nil, nil
		r.cmd(ctx, sub)
		return
	}
	if tracingEnabled {
		r.tracedArithCmd(cm, trace)
		return
	}
	// llmsh: an error is status 1 and the shell goes on, as bash.
	who := r.arithAs("((")
	n, inner, err := expand.ArithmCmdInner(r.ecfg, cm)
	r.arithWho = who
	if r.arithCmdErrInner("((", err, inner) {
		return
	}
	r.exit.oneIf(n == 0)
}

// cmdCase runs cm, a case of [Runner.cmd] (llmsh: a method of its own, so
// that cmd's stack frame stays small: a recursion of shell functions
// takes cmd's frame several times a level).
func (r *Runner) cmdCase(ctx context.Context, cm *syntax.CaseClause, trace *tracer) {
	oldKill := r.killLine // llmsh: as for's
	defer func() { r.killLine = oldKill }()
	r.killLine = int(r.lineBase + cm.Pos().Line())
	trace.string("case ")
	trace.expr(cm.Word)
	trace.string(" in")
	trace.newLineFlush()
	r.ecfg.CondJoin = true // llmsh: see expand.Config.CondJoin
	str := r.literal(cm.Word)
	r.ecfg.CondJoin = false
	runNext := false // whether the previous item ended with ";&"
	for _, ci := range cm.Items {
		if !runNext && !slices.ContainsFunc(ci.Patterns, func(word *syntax.Word) bool {
			return r.matchExt(r.pattern(word), str, r.opts[optExtGlob])
		}) {
			continue
		}
		r.stmts(ctx, ci.Stmts)
		if len(ci.Stmts) == 0 && !r.exit.returning && !r.exit.exiting && !r.exit.fatalExit {
			// llmsh: an empty item reached by ;& or ;;& is status
			// 0, as bash (case a in a) false;& b) ;; esac).
			r.exit.code = 0
		}
		switch ci.Op {
		case syntax.Fallthrough: // ";&" runs the next item unconditionally
			runNext = true
		case syntax.Resume, syntax.ResumeKorn: // ";;&" and ";|" resume matching
			runNext = false
		default: // ";;" or the last item stop
			return
		}
	}
}

// cmdTest runs cm, a case of [Runner.cmd] (llmsh: a method of its own, so
// that cmd's stack frame stays small: a recursion of shell functions
// takes cmd's frame several times a level).
func (r *Runner) cmdTest(ctx context.Context, cm *syntax.TestClause) {
	if r.condWord == cm {
		// llmsh: pairFirstWord made [[ a plain word, the name
		// of a command that does not exist (bash).
		r.condWord = nil
		r.cmd(ctx, &syntax.CallExpr{Args: []*syntax.Word{{Parts: []syntax.WordPart{&syntax.Lit{ValuePos: cm.Left, ValueEnd: cm.Left, Value: "[["}}}}})
		return
	}
	r.thisCmd = "[[" // llmsh: declare.go: localRefused
	r.condReErr = false
	r.ecfg.CondJoin = true // llmsh: see expand.Config.CondJoin
	res := r.bashTest(ctx, cm.X, false)
	r.ecfg.CondJoin = false
	if res == "" && r.exit.ok() {
		// to preserve exit status code 2 for regex errors, etc
		r.exit.code = 1
	}
}

// cmdDecl runs cm, a case of [Runner.cmd] (llmsh: a method of its own, so
// that cmd's stack frame stays small: a recursion of shell functions
// takes cmd's frame several times a level).
func (r *Runner) cmdDecl(ctx context.Context, cm *syntax.DeclClause, trace *tracer) {
	// llmsh: a function of the declaration's name answers instead,
	// as in bash (declare () { …; } defines one).
	viaBuiltin := r.declBuiltin
	r.declBuiltin = false
	if !viaBuiltin && r.Funcs[cm.Variant.Value] != nil {
		if fields := r.fields(declWords(cm)...); !r.exit.abandon {
			pa := r.prefixAssigns(cm.Assigns, fields, r.stderr, trace)
			pa.start(r, fields)
			r.call(ctx, cm.Pos(), fields)
			pa.end(r, fields)
		}
		return
	}
	// llmsh: export -Z and readonly -Z end the shell in posix mode;
	// reached by name, the call of that name does (`\export -Z`),
	// not `command export -Z` nor `builtin export -Z`, as bash.
	if !viaBuiltin {
		r.roAssignFailed = false
		defer r.posixSpecialExit(cm.Variant.Value)
	}
	ew := r.watchStdout() // llmsh: a failed write is an error (builtin.go)
	defer func() {
		if r.unwatchStdout(ew, cm.Variant.Value) && r.exit.code == 0 {
			r.exit.code = 1
		}
	}()
	// llmsh: the words are expanded before the builtin runs, and
	// traced then (bash): the compound arrays first, name=(…), then
	// the command with the names alone.
	// Their errors and command substitutions write to the stderr
	// from before the redirections, as a simple command's (cmd).
	errOut := r.stderr
	if r.cmdErr != nil {
		r.stderr = r.cmdErr
	}
	r.forkedBuiltin()
	var args []*syntax.Assign
	var last string
	var words []string
	if pd := r.preDecl; pd != nil && pd.cm == cm && !viaBuiltin {
		args, last, words, r.preDecl = pd.args, pd.last, pd.words, nil // stmtSync expanded them
	} else {
		args, last, words = r.declArgs(cm, !viaBuiltin && len(cm.Assigns) == 0, false)
	}
	r.stderr = errOut
	r.thisCmd = "" // llmsh: declare.go: localRefused
	if len(cm.Assigns) > 0 {
		// llmsh: x=1 declare …: the command's own assignments,
		// made after its words are expanded, as a simple command's
		// (and traced between its arrays and its name, as bash).
		fields := append([]string{cm.Variant.Value}, words...)
		pa := r.prefixAssigns(cm.Assigns, fields, errOut, trace)
		if pa.roFailed && r.opts[optPosix] {
			// llmsh: as for a simple command (r=1 export x ends
			// a posix shell, r=1 declare x abandons the line).
			pa.undo(r)
			special := specialBuiltins[cm.Variant.Value] && r.Funcs[cm.Variant.Value] == nil
			r.exit = exitStatus{code: 1, exiting: true, abandon: !special}
			return
		}
		if !viaBuiltin {
			r.traceHide = pa.restores // PS4 does not see them
			r.traceDecl(cm.Variant.Value, words)
			r.traceHide = nil
		}
		pa.start(r, fields)
		defer pa.end(r, fields)
	}
	defer func() { r.lastArg, r.lastArgExported = last, false }() // llmsh: $_, as bash
	if r.exit.exiting {
		// llmsh: an expansion error (local v=$((1/0)) outside a
		// function) abandons the command before it runs, as bash.
		return
	}
	if len(args) > 0 && args[0].Naked && args[0].Index == nil && args[0].Name != nil {
		// llmsh: declare --help ... answers as bash, before local's
		// "can only be used in a function".
		if st, ok := r.dashHelp(cm.Variant.Value, []string{args[0].Name.Value}); ok {
			r.exit = st
			return
		}
	}
	local := false
	// llmsh: every option of a group (-rx), "--", the listings and
	// the functions as bash (declare.go).
	o := &declOpts{variant: cm.Variant.Value}
	switch cm.Variant.Value {
	case "declare", "typeset":
		// When used in a function, "declare" acts as "local"
		// unless the "-g" option is used.
		local = r.inFunc
	case "local":
		if !r.inFunc {
			r.errf("%slocal: can only be used in a function\n", r.errPrefix())
			r.exit.code = 1
			return
		}
		local = true
	case "export":
		o.modes = append(o.modes, "-x")
	case "readonly":
		o.modes = append(o.modes, "-r")
	case "nameref":
		o.valType = "-n"
	}
	var assigns []*syntax.Assign
	optsDone := false
	for _, as := range args {
		if !optsDone && as.Naked && as.Index == nil && as.Name != nil {
			opt := as.Name.Value
			if opt == "--" {
				optsDone = true
				continue
			}
			plusOK := cm.Variant.Value != "export" && cm.Variant.Value != "readonly" // llmsh: bash's
			if len(opt) > 1 && (opt[0] == '-' || opt[0] == '+' && plusOK) {
				for i := 1; i < len(opt); i++ {
					if !o.option(opt[0], opt[i]) {
						if r.badOptCompounds(o.variant, args); r.exit.exiting {
							return // llmsh: declare.go (declare -i a=(1/0))
						}
						r.errf("%s%s: %c%c: invalid option\n%s: usage: %s\n", r.errPrefix(), o.variant, opt[0], opt[i], o.variant, declUsage()[o.variant])
						r.exit.code = 2
						return
					}
				}
				continue
			}
		}
		optsDone = true
		assigns = append(assigns, as)
	}
	modes, valType, global := o.modes, o.valType, o.global
	inherit := o.inherit || r.opts[optLocalVarInherit]
	if o.unexport && !o.funcs {
		modes = append(slices.DeleteFunc(modes, func(m string) bool { return m == "-x" }), "+x")
	}
	if o.funcs {
		names := make([]string, 0, len(assigns))
		for _, as := range assigns {
			if as.Naked {
				names = append(names, as.Name.Value)
				continue
			}
			if o.variant == "export" || o.variant == "readonly" {
				names = append(names, assignText(as)) // "a=1: not a function"
				continue
			}
			// llmsh: declare -f x=1: bash's error, and the names
			// after it are left alone.
			if len(names) > 0 {
				r.declFuncs(o, names)
			}
			r.errf("%s%s: cannot use `-f' to make functions\n", r.errPrefix(), cm.Variant.Value)
			r.exit.code = 1
			return
		}
		r.exit.code = r.declFuncs(o, names)
		return
	}
	if len(assigns) == 0 && cm.Variant.Value == "local" {
		r.localListing(o) // llmsh: declare.go
		return
	}
	if len(assigns) == 0 {
		r.declListing(o)
		return
	}
	scoped := r.writeEnv // llmsh: declGlobalElem
	if g := r.globalScope(); global && g != nil {
		// llmsh: declare -g in a function reads and sets the global
		// variable even where a local of that name is in scope
		// (which stays what $name reads), as bash.
		saved := r.writeEnv
		r.writeEnv = g
		defer func() { r.writeEnv = saved }()
	}
	defer func(old string) { r.declVariant = old }(r.declVariant)
	r.declVariant = cm.Variant.Value
	for _, as := range assigns {
		if r.exit.exiting {
			// llmsh: an arithmetic error abandons the line with
			// the declaration's other names (bash).
			break
		}
		name := as.Name.Value
		valType, modes := valType, modes
		if as.Naked && (o.variant == "export" || o.variant == "readonly") && valType != "-n" {
			valType = "" // llmsh: readonly -a x, export -A x leave x's kind (bash)
		}
		if o.bothArrays && valType == "-A" && r.lookupVar(name).Kind != expand.Indexed {
			// llmsh: declare -aA m: made associative, and bash's
			// error for the -a (an indexed m refuses the -A).
			r.errf("%s%s: %s: cannot convert associative to indexed array\n", r.errPrefix(), cm.Variant.Value, name)
			r.exit.code = 1
		}
		if name == "-" && as.Naked && cm.Variant.Value == "local" {
			// llmsh: local - keeps the set options, given back
			// when the function returns (bash).
			if r.localOpts == nil {
				saved := r.opts
				r.localOpts = &saved
			}
			continue
		}
		if !syntax.ValidName(name) {
			// llmsh: bash's message; the other names still count.
			text := name
			if !as.Naked && as.Value != nil {
				text += "=" + r.literal(as.Value)
			}
			if o.print && o.variant != "export" && o.variant != "readonly" {
				// llmsh: declare -p 'a b' looks the name up (bash).
				r.errf("%s%s: %s: not found\n", r.errPrefix(), cm.Variant.Value, text)
			} else {
				r.errf("%s%s: `%s': not a valid identifier\n", r.errPrefix(), cm.Variant.Value, text)
			}
			r.exit.code = 1
			continue
		}
		if as.Index != nil && (o.variant == "export" || o.variant == "readonly") {
			// llmsh: export and readonly take no element (bash).
			r.errf("%s%s: `%s[%s]': not a valid identifier\n", r.errPrefix(), cm.Variant.Value, name, subscriptText(as.Index))
			r.exit.code = 1
			continue
		}
		if (o.variant == "export" && !o.unexport || o.variant == "readonly") && !o.print {
			r.tempPropagate(name)
		}
		if o.variant == "export" && o.unexport && as.Naked && !r.lookupVar(name).Declared() {
			continue // llmsh: export -n NAME makes no NAME (bash)
		}
		if as.Index != nil && as.Array != nil {
			// llmsh: declare a[1]=(y), as a[1]=(y).
			r.errf("%s%s[%s]: cannot assign list to array member\n", r.errPrefix(), name, subscriptText(as.Index))
			r.exit = exitStatus{code: 1, exiting: true, abandon: true}
			return
		}
		if !o.print && !slices.Contains(modes, "-n") && !slices.Contains(modes, "+n") && r.circularRef(name) {
			// llmsh: bash warns twice (export three times, and
			// fails) and declares nothing; local makes its local.
			warn := func() { r.errf("%swarning: %s: circular name reference\n", r.errPrefix(), name) }
			warn()
			warn()
			if cm.Variant.Value != "local" {
				if cm.Variant.Value == "export" {
					warn()
					r.exit.code = 1
				}
				continue
			}
		}
		if o.print && o.variant != "export" && o.variant != "readonly" {
			// declare -p name: print variable with attributes.
			// (llmsh: export -p NAME and readonly -p NAME act on
			// NAME as without -p, as bash's.)
			if !as.Naked && as.Value != nil {
				// llmsh: declare -p a=b looks up "a=b" (bash).
				text := name
				if as.Index != nil {
					text += "[" + subscriptText(as.Index) + "]"
				}
				if as.Append {
					text += "+"
				}
				r.errf("%s%s: %s=%s: not found\n", r.errPrefix(), cm.Variant.Value, text, r.literal(as.Value))
				r.exit.code = 1
				continue
			}
			if as.Index != nil {
				// llmsh: declare -p 'a[0]' names no variable (bash).
				r.errf("%s%s: %s[%s]: not found\n", r.errPrefix(), cm.Variant.Value, name, subscriptText(as.Index))
				r.exit.code = 1
				continue
			}
			if name == "RANDOM" && !r.dynGone[name] {
				r.rand.next() // llmsh: declare -p RANDOM draws, as bash
			}
			r.secondsRead = r.secondsRead || name == "SECONDS" // and computes SECONDS
			vr := r.lookupVar(name)
			if pv, ok := r.declPrefix[name]; ok && cm.Variant.Value != "local" {
				vr = pv // llmsh: x=7 declare -p x in a function
			}
			if cm.Variant.Value == "local" && !r.localHere(name) {
				vr = expand.Variable{} // llmsh: local -p names its own locals
			}
			if !vr.Declared() {
				r.errf("%s%s: %s: not found\n", r.errPrefix(), cm.Variant.Value, name)
				r.exit.code = 1
				continue
			}
			// llmsh: bash's format (declare -a a=([0]="x"), declare -A
			// m=([k]="v" ), declare -n r="t", declare -a c when unset).
			r.outf("%s\n", r.declLine(name, vr))
			continue
		}
		if r.noAssign(name) && (local && !global || !as.Naked) && o.variant != "export" && o.variant != "readonly" {
			// llmsh: bash makes no local of it, and assigns it
			// nothing (its message only for the local).
			if local && !global {
				r.errf("%s%s: %s: variable may not be assigned value\n", r.errPrefix(), cm.Variant.Value, name)
			}
			r.exit.code = 1
			continue
		}
		if global && scoped != r.writeEnv && r.declGlobalElem(scoped, name, as, valType, modes) {
			continue // llmsh: declare.go
		}
		vr := r.lookupVar(name)
		if local && !global && valType != "-n" && vr.Kind == expand.NameRef && r.localHere(name) {
			name, vr, as = r.localThroughRef(name, vr, as, slices.Contains(modes, "+n")) // llmsh: declare.go
		}
		if vr.ReadOnly && (slices.Contains(modes, "+r") || valType == "-n" && vr.Kind != expand.NameRef && as.Array == nil || vr.Kind == expand.NameRef && slices.Contains(modes, "+n")) {
			// llmsh: declare +r, declare -n of a readonly
			// variable, as bash (declare -n x=(…) fails as
			// the compound assignment, below).
			if valType == "-n" && as.Naked && !local && vr.Kind == expand.String && vr.IsSet() && !r.refValue(vr.Str) {
				// llmsh: bash checks the value first.
				r.errf("%s%s: `%s': invalid variable name for name reference\n", r.errPrefix(), cm.Variant.Value, vr.Str)
				r.exit.code = 1
				continue
			}
			r.errf("%s%s: %s: readonly variable\n", r.errPrefix(), cm.Variant.Value, name)
			r.exit.code = 1
			continue
		}
		newLocal := local && !global && !r.localHere(name)
		if o.unarray && !newLocal && (vr.Kind == expand.Indexed && strings.Contains(o.unarrayKinds, "a") || vr.Kind == expand.Associative && strings.Contains(o.unarrayKinds, "A")) {
			// (llmsh: +A of an indexed array, +a of an associative
			// one and a new local leave it, status 0.)
			// llmsh: declare +a a, as bash.
			r.errf("%s%s: %s: cannot destroy array variables in this way\n", r.errPrefix(), cm.Variant.Value, name)
			r.exit.code = 1
			continue
		}
		if as.Naked && !local && vr.Kind == expand.NameRef && valType != "-n" && !slices.Contains(modes, "+n") {
			// llmsh: declare -x r, readonly r, … of a nameref give
			// the attributes to the variable it refers to.
			if t, idx := r.refTarget(name, nil); t != name && idx == nil {
				name, vr = t, r.lookupVar(t)
			}
		}
		if vr.Kind == expand.NameRef && valType != "-n" && !slices.Contains(modes, "+n") && (!local || r.localHere(name)) {
			// llmsh: declaring through a nameref whose variable is
			// readonly fails, as bash: in a function the message
			// names the variable (local nr of a local nameref
			// too), outside one the nameref (declare nr=2 only).
			if t, idx := r.refTarget(name, nil); t != name && idx == nil && r.lookupVar(t).ReadOnly && (local || !as.Naked) {
				shown := t
				if !local {
					shown = name
				}
				r.errf("%s%s: %s: readonly variable\n", r.errPrefix(), cm.Variant.Value, shown)
				r.exit.code = 1
				continue
			}
		}
		inScope := local && !global && r.localHere(name) // llmsh: the function's own nameref
		if (!as.Naked || inScope) && as.Index == nil && as.Array == nil && vr.Kind == expand.NameRef && valType != "-n" &&
			(!slices.Contains(modes, "+n") || inScope && !r.refReaches(vr)) && (global || !local || r.localHere(name)) && r.declRefElem(cm.Variant.Value, name, as, local && !global) {
			continue // llmsh: declare.go
		}
		if local && !global && !as.Naked && valType != "-n" && !r.localHere(name) && !inherit {
			// llmsh: local y=v makes a new variable: the integer,
			// case and trace attributes of the y it hides do not
			// apply, nor does a nameref's target (bash).
			vr.Integer, vr.Lower, vr.Upper, vr.Capital, vr.Trace = false, false, false, false, false
			if vr.Local {
				vr.ReadOnly = false // llmsh: a caller's readonly local may be hidden (bash)
			}
			if vr.Kind == expand.NameRef || as.Append || as.Array != nil && valType == "" && !vr.ReadOnly {
				// (local v+=x appends to the new, empty v;
				// local a=(x) over an associative a is
				// indexed.)
				vr = expand.Variable{Exported: vr.Exported}
			}
		}
		// llmsh: declare -i applies to the value it assigns.
		unref := false
		for _, mode := range modes {
			switch mode {
			case "-i":
				vr.Integer = true
			case "+i":
				vr.Integer = false
			case "+n": // the nameref becomes a variable holding its name
				if vr.Kind == expand.NameRef {
					vr.Kind, unref = expand.String, true
				}
			}
		}
		if vr.ReadOnly && slices.Contains(modes, "+r") {
			// llmsh: bash's; a readonly variable stays so.
			r.errf("%s%s: %s: readonly variable\n", r.errPrefix(), cm.Variant.Value, name)
			r.exit.code = 1
			continue
		}
		if o.inherit && local && !global && !r.localHere(name) && (valType == "-a" && vr.Kind != expand.Indexed || valType == "-A" && vr.Kind != expand.Associative) {
			// llmsh: local -I -a x of a scalar x is an empty array (bash).
			vr = expand.Variable{Set: true, Kind: expand.Indexed, List: []string{}}
			if valType == "-A" {
				vr = expand.Variable{Set: true, Kind: expand.Associative, Map: map[string]string{}}
			}
		}
		if as.Naked && local && !global && vr.Kind == expand.String && vr.IsSet() && !vr.ReadOnly && (valType == "-a" || valType == "-A") && r.localHere(name) {
			// llmsh: local -a x of this function's string x is an
			// empty array, as bash's make_local_array_variable.
			vr.Str, vr.Set, vr.Kind = "", true, expand.Indexed
			vr.List = []string{}
			if valType == "-A" {
				vr.Kind, vr.Map = expand.Associative, map[string]string{}
			}
		}
		if valType == "-n" && as.Index != nil {
			// llmsh: declare -n r[1]=v, local -n r[0]: bash's
			// refusal; nothing is made.
			r.errf("%s%s: %s[%s]: reference variable cannot be an array\n", r.errPrefix(), cm.Variant.Value, name, subscriptText(as.Index))
			r.exit.code = 1
			continue
		}
		// llmsh: bash's conversions between kinds, and its errors.
		builtin := cm.Variant.Value
		if local && !global && !r.localHere(name) {
			builtin = "" // llmsh: a new local, whatever it hides
		}
		if !r.declKind(builtin, name, &vr, valType, as) {
			if r.exit.abandon {
				return // llmsh: convertErr
			}
			continue
		}
		if as.Naked {
			nakedType := valType
			if as.Index != nil && valType == "" && vr.Kind != expand.Associative && vr.Kind != expand.NameRef {
				// llmsh: declare a[5] is declare -a a (bash).
				nakedType = "-a"
				r.declKind(cm.Variant.Value, name, &vr, nakedType, as)
			}
			switch {
			case local && !global && !r.localHere(name) && inherit && vr.Declared() && vr.Kind != expand.NameRef:
				// llmsh: shopt localvar_inherit: the new local
				// starts as a copy of the variable it hides.
				if vr.ReadOnly {
					r.errf("%slocal: %s: readonly variable\n", r.errPrefix(), name)
					r.exit.code = 1
					continue
				}
			case local && !global && !r.localHere(name) && vr.ReadOnly && !vr.Local:
				// llmsh: bash's; a readonly variable cannot be
				// hidden by a local (UID, SHELLOPTS too).
				r.errf("%s%s: %s: readonly variable\n", r.errPrefix(), cm.Variant.Value, name)
				r.exit.code = 1
				continue
			case local && !global && !r.localHere(name):
				// llmsh: local x makes a new variable, unset
				// (bash), with only the attributes asked for and
				// the export of the variable it hides; but one
				// that hides a command's own assignment (x=1 f)
				// starts with its value, as bash's tempvar.
				hidden := vr
				vr = expand.Variable{Integer: slices.Contains(modes, "-i"), Exported: vr.Exported}
				r.declKind(cm.Variant.Value, name, &vr, nakedType, as)
				if vr.Kind == expand.Unknown {
					vr.Kind = expand.String
				}
				if r.tempVars[name] > 0 && hidden.IsSet() {
					vr.Set = true
					switch vr.Kind {
					case expand.String:
						vr.Str = hidden.String()
					case expand.Indexed:
						vr.List = []string{} // an empty array (bash)
					case expand.Associative:
						vr.Map = map[string]string{}
					}
				}
			case vr.Kind == expand.Unknown && nakedType == "" && !vr.Declared():
				// llmsh: declare x: declared, unset (declare -p
				// lists it as "declare -- x").
				vr.Kind = expand.String
			case vr.Kind == expand.Unknown || (nakedType == "" && vr.IsSet() && !unref):
				vr.Kind = expand.KeepValue
			case vr.ReadOnly && vr.IsSet() && (nakedType == "-a" || nakedType == "-A") && (vr.Kind == expand.Indexed || vr.Kind == expand.Associative):
				// llmsh: declare -a/-A of a readonly scalar makes
				// it an array of its value all the same (bash).
				if o, ok := r.writeEnv.(*overlayEnviron); ok {
					o.set(name, vr, true)
				}
				vr.Kind = expand.KeepValue
			case vr.ReadOnly && nakedType == "":
				// llmsh: readonly r again, declare r of a readonly
				// r with no value: kept, status 0 (bash).
				vr.Kind = expand.KeepValue
			}
		} else {
			if vr.ReadOnly && as.Array != nil && (global || !local || r.localHere(name)) {
				// llmsh: a compound array assigned to a readonly
				// variable: bash's assignment error (its internal
				// declare), and the command line is abandoned.
				r.readonlyToArray(cm.Variant.Value, name, vr, valType)
				r.errf("%s%s: readonly variable\n", r.errPrefix(), name)
				r.exit = exitStatus{code: 1, exiting: true, abandon: true}
				return
			}
			if vr.ReadOnly {
				// llmsh: bash names declare, typeset and local.
				variant := ""
				switch cm.Variant.Value {
				case "declare", "typeset", "local":
					variant = cm.Variant.Value + ": "
				case "export", "readonly":
					// traced before the error, as bash
					// (see below)
					r.traceExportAssign(as)
				}
				r.errf("%s%s%s: readonly variable\n", r.errPrefix(), variant, name)
				r.exit.code = 1
				r.roAssignFailed = true // llmsh: posixSpecialExit
				// llmsh: bash's err_readonly for export and readonly
				// (no builtin's name): set -e ends the shell.
				r.reportPending = r.reportPending || variant == ""
				if cm.Variant.Value == "export" {
					// llmsh: export r=v exports the readonly
					// r all the same, as bash; export -n r=v
					// takes the export away.
					vr.Kind, vr.Exported = expand.KeepValue, !o.unexport
					r.setVar(name, vr)
				}
				continue
			}
			var ok bool
			compType := valType
			if compType == "" && o.variant != "export" && o.variant != "readonly" && !(local && !global && !r.localHere(name)) {
				// llmsh: declare a='(4 5)' of an array a is its
				// compound assignment, as bash's.
				switch vr.Kind {
				case expand.Indexed:
					compType = "-a"
				case expand.Associative:
					compType = "-A"
				}
			}
			as = r.quotedCompound(as, compType)
			if ref := r.lookupVar(name); as.Index != nil && as.Array == nil && !local && ref.Kind == expand.NameRef && ref.IsSet() &&
				slices.Contains(modes, "+n") && syntax.ValidName(ref.Str) && !ref.ReadOnly {
				// llmsh: declare +n r[1]=w: the element goes through
				// the reference, then r is a variable holding the
				// name, as bash.
				prev := r.lookupVar(ref.Str)
				if n, tv, ok := r.assignValIndex(ref.Str, prev, as, "", as.Index); ok {
					r.setVarWithIndex(prev, n, as.Index, tv)
				}
				ref.Kind = expand.String
				r.setVar(name, ref)
				continue
			}
			if as.Index != nil {
				// llmsh: declare -A m[k]=v, declare -ir a[1]=v: the
				// array and its attributes first, then the element
				// (which a readonly array refuses), as bash.
				arr := r.lookupVar(name)
				unref := arr.Kind == expand.NameRef && arr.IsSet() && !slices.Contains(modes, "+n") && cm.Variant.Value != "local"
				if unref {
					// llmsh: declare r[1]=w of a nameref r: bash
					// drops the nameref and makes r the array.
					r.errf("%swarning: %s: removing nameref attribute\n", r.errPrefix(), name)
					arr = expand.Variable{Local: arr.Local, Exported: arr.Exported}
				}
				if local && !global && !r.localHere(name) && arr.Kind != expand.NameRef {
					// llmsh: local a[1]=w makes a new local
					// array, empty before the element, whatever
					// it hides, as bash.
					arr = expand.Variable{Exported: arr.Exported}
				}
				switch {
				case arr.Kind == expand.Indexed || arr.Kind == expand.Associative:
				case valType == "-A":
					arr = expand.Variable{Kind: expand.Associative, Map: map[string]string{}}
				case arr.IsSet():
					arr = expand.Variable{Kind: expand.Indexed, List: []string{arr.Str}, Exported: arr.Exported, Local: arr.Local}
				default:
					arr = expand.Variable{Kind: expand.Indexed, List: []string{}, Exported: arr.Exported}
				}
				arr.Set, arr.Local = true, arr.Local || local && !global
				arr.Integer = arr.Integer || vr.Integer
				applyDeclModes(&arr, modes)
				r.setVar(name, arr)
				if unref {
					vr = arr
				}
				if arr.ReadOnly {
					// declare -r a[0]=v: bash's message, and
					// status 0.
					r.errf("%s%s: readonly variable\n", r.errPrefix(), name)
					continue
				}
			}
			before := vr
			newLocal := local && !global && !r.localHere(name)
			r.declaring, r.declLocal = true, local && !global
			if local && !global && as.Index == nil && as.Array == nil && !r.localHere(name) && !r.opts[optLocalVarInherit] {
				r.declNewLocal = name
			}
			index := as.Index
			if as.Append && index != nil && as.Array == nil {
				// llmsh: declare a[i++]+=v evaluates i++ once.
				if index, ok = r.fixedIndex(name, index); !ok {
					r.declaring, r.declLocal, r.declNewLocal = false, false, ""
					continue
				}
			}
			if valType == "-n" && as.Array != nil {
				// llmsh: declare -n r=(…): through a nameref that
				// has a variable, the array is its; else bash's
				// error, and r is made an array all the same.
				valType = ""
				if n, v := vr.Resolve(r.writeEnv); vr.Kind == expand.NameRef && n != "" && syntax.ValidName(n) && v.Kind != expand.NameRef {
					name, vr = n, v
				} else {
					r.errf("%s%s: %s: reference variable cannot be an array\n", r.errPrefix(), cm.Variant.Value, name)
					r.exit.code = 1
					// (llmsh: as bash's make_internal_declare made
					// it, with the kind and case options only.)
					modes = slices.DeleteFunc(slices.Clone(modes), func(m string) bool { return !strings.ContainsAny(m[1:], "iluc") })
					if vr.Kind != expand.Indexed && vr.Kind != expand.Associative {
						vr = expand.Variable{Local: vr.Local, Exported: vr.Exported}
					}
					vr.Integer = vr.Integer || slices.Contains(modes, "-i")
				}
			}
			if vr.Kind == expand.NameRef && vr.Integer && valType != "-n" && slices.Contains(modes, "-i") {
				// llmsh: declare -i r=1+1 through a nameref r makes
				// its variable an integer first, as bash.
				if n, v := vr.Resolve(r.writeEnv); n != "" && syntax.ValidName(n) && v.Kind != expand.NameRef {
					name, vr = n, v
					vr.Integer = true
				}
			}
			name, vr, ok = r.assignValIndex(name, vr, as, valType, index)
			r.declaring, r.declLocal, r.declNewLocal = false, false, ""
			if part := r.partial; part != nil {
				// llmsh: declare -i a=(1 1/0 3) keeps a[0] and
				// its attributes (bash); the line is abandoned.
				r.partial = nil
				vr, ok = *part, true
			} else if !ok && r.exit.exiting && as.Index == nil && as.Array == nil {
				// llmsh: declare -i x=1/0 declares x, its value
				// as it was, the line abandoned (bash).
				vr, ok = before, true
				if vr.Kind == expand.Unknown {
					vr.Kind = expand.String
				}
				if !vr.IsSet() && (valType == "-a" || valType == "-A") {
					// llmsh: declare -ai a='1+' leaves a=()
					// (bash converts a to an array first).
					vr.Set, vr.Kind, vr.Str, vr.List = true, expand.Indexed, "", []string{}
					if valType == "-A" {
						vr.Kind, vr.List, vr.Map = expand.Associative, nil, map[string]string{}
					}
				}
			}
			if !ok {
				continue
			}
			if vr.Kind == expand.String && as.Index == nil && (valType == "-a" || valType == "-A") {
				if newLocal {
					// llmsh: local -a a=x over a global array a
					// is a new array.
					before.List, before.Indexes, before.Map = nil, nil, nil
				}
				vr = arrayElemZero(before, valType, vr.Str) // llmsh: declare -a a=x
			} else if old := r.declElemZero(before, name, as, newLocal); vr.Kind == expand.String && as.Index == nil && as.Array == nil && valType == "" && old != nil {
				// llmsh: declare a=x of an array a (not a new
				// local) assigns its element 0, as bash.
				before = *old
				arr, kind := vr, "-a"
				arr.Kind, arr.List, arr.Indexes, arr.Map = before.Kind, before.List, before.Indexes, before.Map
				if before.Kind == expand.Associative {
					kind = "-A"
				}
				vr = arrayElemZero(arr, kind, vr.Str)
			}
			if index != nil {
				prev := r.lookupVar(name)
				r.setVarWithIndex(prev, name, index, vr)
				continue
			}
		}
		if as.Naked {
			r.dynExport(name, modes) // llmsh: export SHELLOPTS
		}
		switch {
		case global:
			vr.Local = false
		case local:
			vr.Local = true
		case vr.Local && r.inFunc && !r.localHere(name):
			// llmsh: export x, readonly x in a function give
			// their attributes to the local of a calling
			// function that x names, as bash, not to a copy
			// local to this one (which unset x then removed).
			vr.Local = false
		}
		applyDeclModes(&vr, modes)
		if cm.Variant.Value == "export" || cm.Variant.Value == "readonly" {
			r.traceExportAssign(as)
		}
		r.setVar(name, vr)
	}
}

func (r *Runner) trapCallback(ctx context.Context, callback, name string) (status uint8) {
	if callback == "" || r.trapsOff { // llmsh: SetTrapsOff
		return // nothing to do
	}
	if name == "error" {
		// llmsh: bash runs the ERR trap in other traps' actions too,
		// but not in its own.
		if r.inErrTrap {
			return
		}
		r.inErrTrap = true
		defer func() { r.inErrTrap = false }()
	} else if r.handlingTrap && !r.nestedTrap(name) {
		return // don't recurse, as that could lead to cycles
	}
	if !pseudoSignal(name) && name != "exit" {
		r.sigRunning = append(r.sigRunning, name)
		defer func(n int) { r.sigRunning = r.sigRunning[:n] }(len(r.sigRunning) - 1)
	}
	oldHandling, oldInTrap, oldInDebug := r.handlingTrap, r.inTrap, r.inDebug
	r.handlingTrap = true
	r.inTrap = true // llmsh: no $BASH_COMMAND in it
	r.inDebug = r.inDebug || name == trapDebug
	defer func() {
		r.handlingTrap, r.inTrap = oldHandling, oldInTrap
		// llmsh: a shell that exits in the DEBUG trap's action runs
		// no DEBUG trap in its EXIT trap: bash's exit leaves the trap
		// marked in progress (it jumps to the top level).
		if !r.exit.exiting || name != trapDebug {
			r.inDebug = oldInDebug
		}
	}()
	defer func(v int) { r.errStale = v }(r.errStale) // llmsh: see errStale
	// llmsh: the action's commands are read anew, without the flag
	// of a condition that bash's parser gives (CMD_IGNORE_RETURN): a
	// RETURN or DEBUG trap of a function called in an if's condition
	// runs the ERR trap and set -e for its failures.
	defer func(v bool) { r.noErrExit = v }(r.noErrExit)
	r.noErrExit = false

	// TODO: do this parsing when "trap" is called?
	file, err := r.parseText(callback, name+" trap")
	aliases := true
	if perr := (syntax.ParseError{}); errors.As(err, &perr) {
		// llmsh: an alias that opens a command the action's text
		// closes (aliasread.go): the action as read, aliases expanded.
		if text, _, _, end, whole, ok := r.aliasReread(ctx, callback, 0, int(perr.Pos.Line())); ok && whole && strings.TrimSpace(callback[end:]) == "" {
			if f, ferr := r.parseText(text, name+" trap"); ferr == nil {
				file, err, callback, aliases = f, nil, text, false
			}
		}
	}
	if err != nil {
		// llmsh: bash's words; nothing of the action runs.
		var perr syntax.ParseError
		if errors.As(err, &perr) {
			line, msgs := SyntaxError(perr, callback)
			for _, m := range r.SyntaxErrorLines(msgs) {
				l, m := MsgLine(line, m)
				r.errf("%s: %s: line %d: %s\n", r.shellFileName(), trapParseName(name), l, m)
			}
			if perr.InSubst && name != "exit" {
				// llmsh: a syntax error inside a $( ) of the
				// action ends the shell, as in eval text: status 2
				// (1 for a conditional command's), as bash.
				r.exit = r.substSyntaxExit(2)
				if perr.Cond {
					r.exit = r.substSyntaxExit(1)
				}
			}
		} else {
			r.errf("%s: %s: %v\n", r.shellFileName(), trapParseName(name), err)
		}
		return
	}
	// llmsh: bash warns of a here-document the action's end ended, its
	// lines the action's own ("NAME: line 2: warning: …").
	r.hdocWarnings(file, callback, r.shellFileName(), 0)
	oldExit, oldLastExit := r.exit, r.lastExit
	// llmsh: exit (in the EXIT trap) and return (in any but DEBUG's)
	// with no argument give the status from before the action, as
	// bash's trap_saved_exit_value.
	oldTrapName, oldTrapSaved := r.trapName, r.trapSaved
	r.trapName, r.trapSaved = name, r.exit.code
	defer func() { r.trapName, r.trapSaved = oldTrapName, oldTrapSaved }()
	// llmsh: a trap's action leaves PIPESTATUS as it found it (bash).
	oldPipeStatus := r.writeEnv.Get(pipeStatusVar)
	defer r.writeEnv.Set(pipeStatusVar, oldPipeStatus)
	r.lastExit = r.exit
	if name == "exit" && r.exit.signaled != 0 {
		// llmsh: in the EXIT trap of a shell a signal ended, $? and
		// PIPESTATUS are from before the signal (bash: kill's own 0).
		r.lastExit = exitStatus{code: r.exit.sigPrev}
		r.setPipeStatus(oneStatus[r.exit.sigPrev])
	}
	// llmsh: a trap's action is numbered from its own first line; the
	// ERR trap's from the failing command's, as bash reports its errors.
	oldText := r.text
	place := textPlace{src: callback}
	if (name == "error" || name == trapDebug) && r.ecfg.TrapLine > 0 {
		place.lineOffset = int(r.ecfg.TrapLine) - 1
	}
	if name == "error" {
		oldErrLine := r.errTrapLine
		r.errTrapLine = place.lineOffset + 1
		defer func() { r.errTrapLine = oldErrLine }()
	}
	if name == trapReturn && r.returnLine > 0 {
		place.lineOffset = r.returnLine - 1 // llmsh: runReturnTrap
	}
	r.setText(place)
	// llmsh: the action runs even when the shell is leaving (EXIT) or a
	// function returning (RETURN); set -e and exit act in it.
	r.exit.exiting, r.exit.returning = false, false
	// llmsh: set -x marks an action's commands one level deeper ("++"),
	// as bash; the EXIT trap's at least one level deep in a subshell,
	// and at the shell's own level at its top.
	deeper := name != "exit" || r.subshellLevel > 0 && r.traceLevel == 0
	if deeper {
		r.traceLevel++
	}
	// llmsh: read as lines: an expansion error abandons the rest of its
	// line of the action only, as bash's.
	r.readLinesOn(ctx, file.Stmts, aliases, func(line int, msgs []string) {
		for _, m := range msgs {
			l, m := MsgLine(line, m)
			r.errf("%s: %s: line %d: %s\n", r.shellFileName(), trapParseName(name), l, m)
		}
	})
	if deeper {
		r.traceLevel--
	}
	r.setText(oldText)
	status = r.exit.code // llmsh: the DEBUG trap's, for extdebug
	if r.exit.exiting {
		// llmsh: exit in a trap's action ends the shell with its
		// status, as in bash (`trap 'exit 7' EXIT`).
		r.lastExit = oldLastExit
		if name == "exit" && oldExit.signaled != 0 {
			// llmsh: exit in it does not change how the shell ends:
			// by the signal (bash kills itself after the trap).
			r.exit.code, r.exit.signaled = oldExit.code, oldExit.signaled
		}
		if name == "exit" && r.exit.forceEOF {
			// llmsh: set -u's error or ${x:?} in the EXIT trap's
			// action: the status the shell was leaving with stays
			// (bash's run_exit_trap, FORCE_EOF).
			r.exit.code = oldExit.code
		}
		return status
	}
	if r.exit.returning && name != "exit" && name != "return" {
		// llmsh: return in a trap's action (ERR, DEBUG, a signal's)
		// returns from the function or sourced file it interrupted,
		// as in bash (`trap 'return 1' ERR` in a function).
		r.lastExit = oldLastExit
		return status
	}
	r.exit, r.lastExit = oldExit, oldLastExit // traps on EXIT or ERR should not modify the result
	return status
}

func (r *Runner) flattenAssigns(args []*syntax.Assign) iter.Seq[*syntax.Assign] {
	return func(yield func(*syntax.Assign) bool) {
		for _, as := range args {
			// Convert "declare $x" into "declare value".
			// Don't use syntax.Parser here, as we only want the basic
			// splitting by '='.
			if as.Name != nil {
				as = r.declSubscript(as)
				for _, as := range r.declBraces(as) {
					if !yield(as) {
						return
					}
				}
				continue
			}
			for _, field := range r.fields(as.Value) {
				as := &syntax.Assign{}
				name, val, ok := strings.Cut(field, "=")
				// llmsh: the name is kept apart from the field, whose
				// text the value holds: a name cut from it kept all of
				// it alive in the variables' map after an unset left
				// the name's entry there (declare c$i=$big; the
				// session's unset of a run over its memory bound
				// freed none of it).
				name = strings.Clone(name)
				if ok && len(name) > 1 && name[len(name)-1] == '+' {
					// llmsh: declare "v+=x" appends, as bash.
					name, as.Append = name[:len(name)-1], true
				}
				as.Name = &syntax.Lit{Value: name}
				if strings.HasSuffix(name, "]") {
					// llmsh: declare "a[1]=x" sets the element.
					if p, idx, isRef := declRef(name); isRef && idx != nil {
						as.Name, as.Index = p, idx
					}
				}
				if !ok {
					as.Naked = true
				} else {
					as.Value = &syntax.Word{Parts: []syntax.WordPart{
						&syntax.Lit{Value: val},
					}}
				}
				if !yield(as) {
					return
				}
			}
		}
	}
}

// declSubscript gives a declaration's element assignment (declare
// m["a b"]=v, local l[\$x]) the subscript that bash's builtin sees: the
// word's expansion (quotes removed, expansions made), which is then read
// again as the text of a reference (llmsh): its own expansions and
// backslashes are expanded again when the element is assigned, and a
// key holding "]" or a lone quote is "`m[]]=v': not a valid identifier".
// A subscript written without quotes, backslashes or expansions is as.
func (r *Runner) declSubscript(as *syntax.Assign) *syntax.Assign {
	if as.Index == nil || as.Array != nil || !strings.ContainsAny(subscriptText(as.Index), "'\"\\$`") {
		return as
	}
	key := r.assocKey(as.Index)
	if r.exit.exiting {
		return as
	}
	as2 := *as
	if key == "" {
		// an empty key: "m[]: bad array subscript" when it is assigned
		as2.Index = &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{ValuePos: as.Index.Pos(), ValueEnd: as.Index.Pos()}}}
		return &as2
	}
	name := as.Name.Value + "[" + key + "]"
	if p, idx, ok := declRef(name); ok && idx != nil {
		as2.Name, as2.Index = p, idx
	} else {
		as2.Name, as2.Index = &syntax.Lit{Value: name}, nil
	}
	return &as2
}

// declRef reads a declaration's NAME[KEY] as bash's builtin does (llmsh):
// the name is valid when KEY's brackets and quotes close where it ends,
// as bash's skipsubscript finds them; a key the parser cannot read as a
// reference (~, !) is its text.
func declRef(name string) (*syntax.Lit, syntax.ArithmExpr, bool) {
	p, idx, ok := expand.ParseRef(name)
	if ok {
		return p, idx, ok
	}
	i := strings.IndexByte(name, '[')
	if i <= 0 || !strings.HasSuffix(name, "]") || !syntax.ValidName(name[:i]) {
		return nil, nil, false
	}
	key := name[i+1 : len(name)-1]
	if subscriptEnd(key+"]") != len(key) {
		return nil, nil, false
	}
	return &syntax.Lit{Value: name[:i]}, &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: key}}}, true
}

// subscriptEnd is the offset of the "]" that closes a subscript starting
// at s[0], as bash's skipsubscript finds it (nested brackets, quotes,
// backslashes, backquotes, $( ) and ${ }), or -1.
func subscriptEnd(s string) int {
	depth, nest := 1, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			i++
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return -1
			}
			i += j + 1
		case c == '"' || c == '`':
			j := i + 1
			for ; j < len(s) && s[j] != c; j++ {
				if s[j] == '\\' {
					j++
				}
			}
			if j >= len(s) {
				return -1
			}
			i = j
		case c == '$' && i+1 < len(s) && (s[i+1] == '(' || s[i+1] == '{'):
			nest++
			i++
		case nest > 0 && (c == '(' || c == '{'):
			nest++
		case nest > 0 && (c == ')' || c == '}'):
			nest--
		case nest > 0:
		case c == '[':
			depth++
		case c == ']':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// declBraces is the assignments that the brace expansion of as's value
// makes, each with as's name (llmsh): bash expands declare c={a,b} as
// its words c=a c=b. An error in the expansion, or none, leaves as.
func (r *Runner) declBraces(as *syntax.Assign) []*syntax.Assign {
	one := []*syntax.Assign{as}
	if as.Naked && as.Index != nil {
		if list := r.declGlob(as); list != nil {
			return list
		}
	}
	if as.Value == nil || as.Naked || r.ecfg.NoBraceExpand {
		return one
	}
	w := *as.Value // SplitBraces replaces the Parts slice
	if !syntax.SplitBraces(&w) {
		return one
	}
	var list []*syntax.Assign
	for bw, err := range expand.BracesSeq(r.ecfg, &w) {
		if err != nil {
			return one
		}
		as2 := *as
		as2.Value = bw
		list = append(list, &as2)
	}
	return list
}

// declGlob is the names that a declaration's word NAME[SUB] with no
// value matches as a glob pattern (declare f[1] with a file f1 is
// declare f1, as bash's, for which such a word is no assignment; none
// under nullglob), or nil when it is left as it is (llmsh).
func (r *Runner) declGlob(as *syntax.Assign) []*syntax.Assign {
	text := subscriptText(as.Index)
	if strings.ContainsAny(text, "$`\"'\\") {
		return nil // (its expansions are made once, as a subscript)
	}
	pattern := as.Name.Value + "[" + text + "]"
	fields := r.fields(&syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: pattern}}})
	if len(fields) == 1 && fields[0] == pattern {
		return nil
	}
	list := make([]*syntax.Assign, len(fields)) // (none under nullglob)
	for i, f := range fields {
		list[i] = &syntax.Assign{Naked: true, Name: &syntax.Lit{Value: f}}
	}
	return list
}

// letWord is w, or, when w is the text of a word that the parser kept
// whole (syntax's letSpan: let 'a[1]'+=1, x='a'"b"), that text read as a
// shell word, whose quotes expansion then removes (llmsh).
func letWord(w *syntax.Word) *syntax.Word {
	if len(w.Parts) != 1 {
		return w
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	if !ok || !strings.ContainsAny(lit.Value, `'"`) {
		return w
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(": "+lit.Value), "")
	if err != nil || len(f.Stmts) != 1 {
		return w
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(call.Args) != 2 {
		return w
	}
	return call.Args[1]
}

// letHelp reports whether a let argument is the unquoted word --help,
// which the parser reads as a pre-decrement of help.
func letHelp(expr syntax.ArithmExpr) bool {
	u, ok := expr.(*syntax.UnaryArithm)
	if !ok || u.Op != syntax.Dec || u.Post {
		return false
	}
	w, ok := u.X.(*syntax.Word)
	return ok && w.Lit() == "help"
}

// tracedArithCmd runs (( … )) under set -x: bash traces the text as
// written, its expansions done (((  a[1] = 6  )) for a[1] = $x), and
// then evaluates that text (llmsh).
func (r *Runner) tracedArithCmd(cm *syntax.ArithmCmd, trace *tracer) {
	defer r.arithRestore(r.arithAs("(("))
	text, expanded, err := expand.ArithmCmdText(r.ecfg, cm)
	if r.arithCmdErrInner("((", err, true) { // (the text's expansions')
		return
	}
	inner, ok := r.srcBetween(cm.Left, cm.Right)
	switch {
	case ok && (expanded || strings.Contains(inner, "\\")):
		// llmsh: a backslash is gone from the text as bash reads it
		// (a[\"1\"] is a["1"], a backslash-newline nothing).
		inner = inner[:len(inner)-len(strings.TrimLeft(inner, " \t\n"))] + text
	case !ok:
		var sb strings.Builder
		syntax.NewPrinter().Print(&sb, cm.X)
		inner = " " + sb.String() + " "
	}
	trace.string("((" + " " + inner + " " + "))")
	trace.newLineFlush()
	n, err := r.ecfg.ArithmText(text)
	if r.arithCmdErr("((", err) {
		return
	}
	r.exit.oneIf(n == 0)
}

// letClause runs let as bash's builtin: every argument is expanded to
// its text first (let x=1 y=$x reads the x from before), then traced,
// then each text is evaluated in turn (llmsh).
func (r *Runner) letClause(ctx context.Context, cm *syntax.LetClause, trace *tracer) {
	texts := make([]string, 0, len(cm.Exprs))
	for _, expr := range cm.Exprs {
		var fields []string
		var err error
		if w, ok := expr.(*syntax.Word); ok {
			// llmsh: a shell word of bash's let, split and globbed
			// (let $e with e='x = 1' is three arguments).
			fields, err = expand.Fields(r.ecfg, letWord(w))
		} else if len(texts) == 0 && !cm.Dashes.IsValid() && letHelp(expr) {
			fields = []string{"--help"}
		} else {
			fields, err = expand.LetFields(r.ecfg, expr)
		}
		// (The words' expansions: bash's errors of those before let.)
		if r.arithCmdErrInner("let", err, true) {
			return
		}
		texts = append(texts, fields...)
	}
	if trace != nil {
		trace.string("let")
		if cm.Dashes.IsValid() {
			trace.string(" --")
		}
		for _, text := range texts {
			trace.stringf(" %s", traceWord(text, trace.bytes))
		}
		trace.newLineFlush()
	}
	viaBuiltin := r.letBuiltin
	r.letBuiltin = false
	if !viaBuiltin && r.Funcs["let"] != nil {
		// llmsh: a function of the name answers instead, as bash's
		// let () { …; } does; its arguments are let's words.
		args := []string{"let"}
		if cm.Dashes.IsValid() {
			args = append(args, "--")
		}
		r.call(ctx, cm.Pos(), append(args, texts...))
		return
	}
	if len(texts) > 0 && !cm.Dashes.IsValid() && texts[0] == "--help" {
		// llmsh: let --help ("--help", $x too) answers as bash's
		// other builtins.
		r.exit, _ = r.dashHelp("let", []string{"--help"})
		return
	}
	if len(texts) > 0 && !cm.Dashes.IsValid() && texts[0] == "--" {
		// llmsh: a first argument "--" that an expansion or quotes
		// made (let '--', let "$@") ends the options, as bash's.
		texts = texts[1:]
	}
	if len(texts) == 0 {
		r.errf("%slet: expression expected\n", r.errPrefix())
		r.exit.code = 1
		return
	}
	var val int64
	defer r.arithRestore(r.arithAs("let"))
	for _, text := range texts {
		var err error
		if val, err = r.ecfg.ArithmText(text); r.arithCmdErr("let", err) {
			return
		}
	}
	r.exit.oneIf(val == 0)
}

func (r *Runner) match(pat, name string) bool {
	return r.matchExt(pat, name, true)
}

// matchExt matches name against pat, a pattern with extended operators
// when ext is set (llmsh).
func (r *Runner) matchExt(pat, name string, ext bool) bool {
	// llmsh: bash's matching, extended patterns always on in [[ ]] as
	// bash 5.2 parses them (upstream supported one !(…) only); in case
	// when extglob is on as it runs (off, @(a|b) is plain text).
	mode := internal.PatExtGlob
	if !ext {
		mode = 0
	}
	if r.opts[optNoCaseMatch] {
		mode |= internal.PatNoCase
	}
	if expand.BytesMatch(r.writeEnv, name) || expand.BytesMatch(r.writeEnv, pat) {
		// llmsh: under LC_ALL=C, bytes (? matches one of é's two);
		// also where either is no valid UTF-8, as bash's xstrmatch.
		pat, name = expand.ByteRunes(pat), expand.ByteRunes(name)
	}
	// llmsh: a match fails once the run is stopped (internal.PatStop).
	return internal.CompileBashPattern(pat, mode).MatchStop(&internal.PatStop{Ctx: r.ectx}, name)
}

func (r *Runner) stmts(ctx context.Context, stmts []*syntax.Stmt) {
	for i, stmt := range stmts {
		// llmsh: the next statement's start reads no status of this
		// one but through $? (deferred.go).
		r.mayDefer = i < len(stmts)-1
		r.stmt(ctx, stmt)
	}
}

// docRunner is the runner that expands w, a here-document, here-string
// or word of a redirection of the statement whose redirections are being
// made: bash makes those of a program or a ( … ) in the child it forked,
// so that what the expansion changes (${x:=v}, $((n++)), $RANDOM's draw)
// is the child's, not the shell's (llmsh: a throwaway subshell, only
// when w may change something).
func (r *Runner) docRunner(w *syntax.Word) *Runner {
	if !r.docExternal || w == nil || !mayAssign(w) {
		return r
	}
	r2 := r.subshell(false)
	// llmsh: $LINENO in the document is the command's line there too.
	r2.ecfg.CmdLine, r2.ecfg.TrapLine, r2.line = r.ecfg.CmdLine, r.ecfg.TrapLine, r.line
	return r2
}

// mayAssign reports whether expanding w may change a variable: it holds
// ${v=…}, ${v:=…}, an arithmetic expansion, a subscript or offset that
// assigns (`${a[i++]}`), $RANDOM or $SRANDOM, also as a name in a
// subscript or offset (`${a[RANDOM%2]}`) (llmsh).
func mayAssign(w *syntax.Word) bool {
	found := false
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ArithmExp:
			found = true
		case *syntax.UnaryArithm:
			found = n.Op == syntax.Inc || n.Op == syntax.Dec
		case *syntax.BinaryArithm:
			switch n.Op {
			case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn,
				syntax.RemAssgn, syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn:
				found = true
			}
		case *syntax.ParamExp:
			if n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) ||
				n.Param != nil && (n.Param.Value == "RANDOM" || n.Param.Value == "SRANDOM") {
				found = true
			}
		case *syntax.Word:
			// RANDOM named in a subscript or an offset: ${a[RANDOM%2]}
			if lit := n.Lit(); lit == "RANDOM" || lit == "SRANDOM" {
				found = true
			}
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false // (run in a subshell anyway)
		}
		return !found
	})
	return found
}

// hdocQuotedDelim reports whether a here-document delimiter word is quoted,
// as in "<<'EOF'" or "<<\EOF", which makes its body literal.
func hdocQuotedDelim(word *syntax.Word) bool {
	for _, wp := range word.Parts {
		switch wp := wp.(type) {
		case *syntax.Lit:
			if strings.Contains(wp.Value, "\\") {
				return true
			}
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		}
	}
	return false
}

// hdocWord returns a here-document body, or one of its lines, as a string.
// A quoted delimiter, as in "<<'EOF'", makes the body literal,
// in which case the parser only gives us literal parts.
// Note that a partly quoted delimiter, such as "<<'A'B",
// is not spotted by the parser either, so we still expand its body.
func (r *Runner) hdocWord(word *syntax.Word, quoted bool) (string, error) {
	if quoted {
		if lit := word.Lit(); lit != "" {
			return lit, nil
		}
	}
	return expand.Document(r.ecfg, word)
}

// hdocString returns the body of a here-document as a string.
func (r *Runner) hdocString(rd *syntax.Redirect) (string, error) {
	if rd.Hdoc == nil {
		return "", nil // an empty here-document
	}
	quoted := hdocQuotedDelim(rd.Word)
	defer func(old bool) { r.inHdoc = old }(r.inHdoc)
	r.inHdoc = true
	if rd.Op != syntax.DashHdoc {
		return r.hdocWord(rd.Hdoc, quoted)
	}
	// Strip the leading tabs from each line.
	var buf strings.Builder
	var cur []syntax.WordPart
	var docErr error
	lines := 0
	flushLine := func() {
		if lines++; lines > 1 {
			buf.WriteByte('\n') // llmsh: after an empty first line too
		}
		s, err := r.hdocWord(&syntax.Word{Parts: cur}, quoted)
		if docErr == nil {
			docErr = err
		}
		buf.WriteString(s)
		cur = cur[:0]
	}
	// llmsh: only at the start of a line, not after an expansion or an
	// escaped newline within it (`\t$x\t$y` keeps the second tab).
	lineStart := true
	for _, wp := range rd.Hdoc.Parts {
		lit, ok := wp.(*syntax.Lit)
		if !ok {
			cur = append(cur, wp)
			lineStart = false
			continue
		}
		first := true
		for part := range strings.SplitSeq(lit.Value, "\n") {
			if !first {
				flushLine()
				lineStart = true
			}
			first = false
			if lineStart {
				part = strings.TrimLeft(part, "\t")
			}
			lineStart = lineStart && part == ""
			cur = append(cur, &syntax.Lit{Value: part})
		}
	}
	flushLine()
	return buf.String(), docErr
}

// docExpandErr reports an error of the expansion of a here-document or
// here-string (llmsh). Before a program, which bash forks before it
// expands the document, only that child ends: the command fails with the
// status the child exits with (1; 127 for set -u's error or ${x:?} under
// -c). Before a builtin, a function or a compound command, the error is
// the shell's own, as in an argument (set -u ends the shell).
func (r *Runner) docExpandErr(err error) {
	if errors.Is(err, errHdocSubst) {
		// llmsh: reported; the command fails (set -e: bash's
		// parser_error exits with 2).
		r.exit.code = 1
		if r.ErrexitSyntax() {
			r.exit = exitStatus{code: 2, exiting: true}
		}
		return
	}
	_, tooLarge := errors.AsType[expand.ValueTooLargeError](err)
	if !r.docExternal || tooLarge || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		r.expandErr(err)
		return
	}
	if ae, ok := errors.AsType[*expand.ArithmError](err); ok {
		r.arithErr(r.arithPrefix, ae)
		r.exit.code = 1
		return
	}
	r.errf("%s%s\n", r.errPrefix(), err.Error())
	r.exit.code = 1
	_, unsetParam := errors.AsType[expand.UnsetParameterError](err)
	if pe, ok := errors.AsType[expand.ParamError](err); ok && pe.Fatal {
		unsetParam = true
	}
	if unsetParam && r.cString && !r.opts[optErrExit] {
		r.exit.code = 127 // the child of bash -c ends so
	}
}

// runsProgram reports whether cm runs a program (llmsh): its name, as
// written, is no function and no builtin of bash's.
func (r *Runner) runsProgram(cm *syntax.CallExpr) bool {
	if len(cm.Args) == 0 {
		return false
	}
	name := cm.Args[0].Lit()
	if name == "" {
		return true // a name an expansion gives: taken as a program
	}
	if name == "command" && r.Funcs[name] == nil {
		// `command [-p] NAME`: NAME's (not a function, as bash's
		// command skips them); -v and -V run nothing.
		for _, w := range cm.Args[1:] {
			switch a := w.Lit(); {
			case a == "-p" || a == "--":
				continue
			case a == "" || a[0] == '-':
				return false
			default:
				return !IsBuiltin(a)
			}
		}
		return false
	}
	return r.Funcs[name] == nil && !IsBuiltin(name)
}

// redir applies one redirection of a statement (llmsh: any descriptor,
// fds.go). keep is true for exec's, which outlive the statement. What it
// returns is closed when the statement ends, or, under exec, when the
// shell does.
func (r *Runner) redir(ctx context.Context, rd *syntax.Redirect, sv *redirSaves, keep bool) (io.Closer, error) {
	n, varFd, err := r.redirFd(rd)
	if err != nil {
		return nil, err
	}
	if n >= fdMax {
		if varFd {
			return nil, nil // {NAME}>&- of a number too big: bash's close fails quietly
		}
		return nil, badFdError(rd.N.Value)
	}
	if n == 0 {
		r.syncInput() // llmsh: bash's check_bash_input
	}
	if varFd && (keep || !r.opts[optVarRedirClose]) {
		// bash: {NAME}>FILE and {NAME}>&- outlive the command, but
		// for exec's, under shopt -s varredir_close (llmsh).
		var own redirSaves
		own.fds = r.fds
		defer r.restoreFds(&own, true)
		sv, keep = &own, true
	}
	// Note that Hdoc is nil for an empty here-document.
	var doc *string
	switch rd.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		s, err := r.docRunner(rd.Hdoc).hdocString(rd)
		if err != nil {
			r.docExpandErr(err)
			return nil, errRedirExpand
		}
		doc = &s
	case syntax.WordHdoc:
		str, err := expand.HereString(r.docRunner(rd.Word).ecfg, rd.Word)
		if err != nil {
			r.docExpandErr(err)
			return nil, errRedirExpand
		}
		s := str + "\n"
		doc = &s
	}
	if doc != nil {
		return nil, r.docRedir(sv, n, *doc)
	}
	// llmsh: the word is expanded as bash expands a redirection's: split
	// and globbed, and it must give one field.
	r.redirWord = true
	fields, err := expand.Fields(r.docRunner(rd.Word).ecfg, rd.Word)
	r.redirWord = false
	if err != nil {
		r.expandErr(err)
		return nil, errRedirExpand
	}
	arg := ""
	switch len(fields) {
	case 1:
		arg = fields[0]
	case 0:
		if rd.Op != syntax.DplOut && rd.Op != syntax.DplIn {
			return nil, r.ambiguousError(wordText(rd.Word))
		}
	default:
		return nil, r.ambiguousError(wordText(rd.Word))
	}
	switch rd.Op {
	case syntax.DplOut, syntax.DplIn:
		if arg == "-" {
			r.closeFd(sv, n)
			return nil, nil
		}
		mtext, move := strings.CutSuffix(arg, "-")
		if move && !endsInDash(rd.Word) {
			// llmsh: only a "-" written last moves (bash's parser):
			// `3>&"1-"` and x=1- `3>&$x` name no descriptor.
			mtext, move = arg, false
		}
		m, isFd := parseFd(mtext)
		if !isFd {
			if rd.Op == syntax.DplOut && n == 1 && !varFd && arg != "" {
				// bash: >&WORD, 1>&WORD with WORD no descriptor is &>WORD.
				return r.redirFile(ctx, rd, syntax.RdrAll, 1, arg, sv, keep)
			}
			if arg == "" {
				arg = wordText(rd.Word)
			}
			return nil, r.ambiguousError(arg)
		}
		ename := dupErrName(rd, n, mtext)
		if m >= fdMax {
			return nil, badFdError(ename)
		}
		// llmsh: bash undoes N>&M-'s close of M only when N was open
		// before; M above 2 moved to a closed N stays closed.
		lose := move && m > 2 && n > 2 && r.fds[n] == nil && !sv.has(m)
		cls, err := r.dupFd(sv, n, m, ename, keep)
		if err != nil {
			return nil, err
		}
		if lose {
			if o := r.fds[m]; o != nil {
				r.setFd(m, nil)
				o.release()
			}
		} else if move && m != n {
			r.closeFd(sv, m)
		}
		return cls, nil
	case syntax.RdrIn, syntax.RdrOut, syntax.RdrClob, syntax.AppOut, syntax.RdrInOut,
		syntax.RdrAll, syntax.AppAll:
		return r.redirFile(ctx, rd, rd.Op, n, arg, sv, keep)
	}
	return nil, fmt.Errorf("unhandled redirect op: %v", rd.Op)
}

// setOut sets descriptor 1 or 2.
func (r *Runner) setOut(n int, w io.Writer) {
	if n == 2 {
		r.stderr = w
	} else {
		r.stdout = w
	}
}

// redirFile opens the file of N<FILE, N>FILE, N>|FILE, N>>FILE, N<>FILE,
// &>FILE and &>>FILE for descriptor n.
// outRedirs counts the redirections that open a file to write.
func outRedirs(rds []*syntax.Redirect) int {
	n := 0
	for _, rd := range rds {
		switch rd.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll, syntax.RdrInOut:
			n++
		}
	}
	return n
}

func (r *Runner) redirFile(ctx context.Context, rd *syntax.Redirect, op syntax.RedirOperator, n int, arg string, sv *redirSaves, keep bool) (io.Closer, error) {
	mode := os.O_RDONLY
	switch op {
	case syntax.AppOut, syntax.AppAll:
		mode = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	case syntax.RdrOut, syntax.RdrClob, syntax.RdrAll:
		mode = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	case syntax.RdrInOut:
		mode = os.O_RDWR | os.O_CREATE
	}
	if r.multiOut != nil && mode&(os.O_WRONLY|os.O_RDWR) != 0 {
		// llmsh: a file this statement has opened already is not
		// truncated again (the handler truncates by replacing it, which
		// would leave the first descriptor writing to the old file): it
		// is opened in place, at offset 0, as bash's second O_TRUNC
		// leaves it (`>f 2>f`: each descriptor writes at its offset).
		path := fileArg(r.Dir, arg)
		if r.multiOut[path] && mode&os.O_TRUNC != 0 {
			mode &^= os.O_TRUNC
		}
		r.multiOut[path] = true
	}
	f, err := r.openRedir(ctx, rd, op, arg, mode, keep || n > 2 || r.multiOut != nil)
	if err != nil {
		return nil, err
	}
	switch {
	case op == syntax.RdrAll || op == syntax.AppAll:
		r.stdout = f
		r.stderr = f
	case n == 0:
		var rd io.Reader = f
		if mode == os.O_WRONLY|os.O_CREATE|os.O_TRUNC || mode == os.O_WRONLY|os.O_CREATE|os.O_APPEND {
			rd = nil // 0>FILE: stdin not open for reading
		}
		if err := r.setStdin(rd, rd == nil); err != nil {
			f.Close()
			return nil, err
		}
		if rd != nil {
			r.fileStdin = r.stdin // llmsh: read -t 0 (read.go)
		}
	case n <= 2:
		if mode == os.O_RDONLY {
			r.setOut(n, badFdWriter{}) // 1<FILE: not open for writing
		} else {
			r.setOut(n, f)
		}
	default:
		var rdr io.Reader
		var w io.Writer
		if mode&(os.O_WRONLY|os.O_RDWR) != 0 {
			w = f
		}
		if mode&os.O_WRONLY == 0 {
			rdr = fdReaderOf(f, w != nil)
		}
		o := newFdObj(rdr, w, f)
		o.kind, o.path, o.flag = "file", r.absPath(arg), mode
		r.replaceFd(sv, n, o)
		return nil, nil
	}
	return f, nil
}

func (r *Runner) loopStmtsBroken(ctx context.Context, stmts []*syntax.Stmt) bool {
	oldInLoop := r.inLoop
	r.inLoop = true
	r.loopDepth++
	defer func() { r.inLoop = oldInLoop; r.loopDepth-- }()
	for _, stmt := range stmts {
		// llmsh: a loop's body status is read at its end (deferred.go).
		r.mayDefer = true
		r.stmt(ctx, stmt)
		if r.contnEnclosing > 0 {
			r.contnEnclosing--
			return r.contnEnclosing > 0
		}
		if r.breakEnclosing > 0 {
			r.breakEnclosing--
			return true
		}
	}
	return false
}

// loopCond runs a while or until loop's condition, which is inside the
// loop for break and continue as in bash (llmsh). It takes back a break
// or continue run there, as loopStmtsBroken does for the body: taken
// says one ran (the body is skipped; after a continue the condition is
// tested again unless its status ended the loop, as bash's
// execute_while_or_until), broken that the loop ends.
func (r *Runner) loopCond(ctx context.Context, stmts []*syntax.Stmt) (taken, broken bool) {
	oldInLoop := r.inLoop
	r.inLoop = true
	r.loopDepth++
	r.stmts(ctx, stmts)
	r.inLoop = oldInLoop
	r.loopDepth--
	if r.contnEnclosing > 0 {
		r.contnEnclosing--
		return true, r.contnEnclosing > 0
	}
	if r.breakEnclosing > 0 {
		r.breakEnclosing--
		return true, true
	}
	return false, false
}

func (r *Runner) call(ctx context.Context, pos syntax.Pos, args []string) {
	if r.stop(ctx) {
		return
	}
	if r.gate != nil && blockingCmds[args[0]] {
		defer r.gate.enterBlocking()() // llmsh: HangUp's grace (jobstop.go)
	}
	if r.callHandler != nil {
		var err error
		hctx := r.callHandlerCtx(ctx, pos)
		args, err = r.callHandler(hctx, args)
		r.putCallCtx(hctx)
		if es, ok := errors.AsType[ExitStatus](err); ok {
			// llmsh: the handler answered the command itself (a refused
			// name, a status it decided): nothing runs, $? is es.
			r.exit = exitStatus{code: uint8(es)}
			return
		}
		if err != nil {
			// handler's custom fatal error
			r.exit.fatal(err)
			return
		}
	}
	name := args[0]
	r.thisCmd = "" // llmsh: declare.go: localRefused
	if strings.HasPrefix(name, "%") {
		// llmsh: bash runs a command whose name starts with % as fg
		// with the words as its arguments (`%1` is `fg %1`), before it
		// looks for a function or a builtin of that name.
		r.exit = r.builtinFgBg(ctx, "fg", args)
		return
	}
	if body := r.Funcs[name]; body != nil {
		r.forkedCall = false
		if r.funcNestExceeded(name) {
			return
		}
		r.thisCmd = name
		if r.pipeCall {
			r.pipeCall = false // llmsh: see pipeCall
			r.subshellLevel++
		}
		// stack them to support nested func calls
		oldParams, oldParamsGen, oldDropped := r.Params, r.paramsGen, r.shiftDropped
		r.Params, r.shiftDropped = args[1:], 0
		oldInFunc := r.inFunc
		r.inFunc = true
		// llmsh: a function's break and continue do not reach the
		// caller's loops, as bash.
		oldInLoop, oldLoopDepth := r.inLoop, r.loopDepth
		r.inLoop, r.loopDepth = false, 0

		// Functions run in a nested scope.
		// Note that [Runner.exec] below does something similar.
		origEnv := r.writeEnv
		scope := newFuncScope(r.writeEnv) // llmsh: see localRefs
		r.writeEnv = scope

		// llmsh: FUNCNAME, BASH_SOURCE, BASH_LINENO (callstack.go)
		def := r.funcDefs[name]
		frame := callFrame{name: name, file: def.file, line: int(pos.Line()) + r.text.lineOffset, isFunc: true}
		if r.simpleCallLine(pos, frame.line) {
			// llmsh: a simple command's line, as bash's parser numbers
			// it: where the word after the name ends (`f \⏎ x`, `f "a⏎b"`:
			// the second line), which stmtSync put in r.line.
			frame.line = r.line
		}
		if r.substLine {
			frame.line = r.line // llmsh: in a $( ), its line in bash's text of it
		}
		if r.errTrapLine > 0 {
			frame.line = r.errTrapLine // llmsh: see errTrapLine
		}
		if r.opts[optExtDebug] {
			frame.args, frame.hasArgs = args[1:], true // BASH_ARGV
		}
		savedText := r.pushFrame(frame, def.text)
		traced := strings.Contains(r.funcAttrs[name], "t") // declare -ft
		saved := r.enterFunc(traced)                       // llmsh: DEBUG, RETURN and ERR traps
		trapLine := r.ecfg.TrapLine
		r.ecfg.TrapLine = 0 // llmsh: a function's own $LINENO, also in a trap
		skip := false
		if (r.opts[optFuncTrace] || traced) && !r.inDebug {
			// llmsh: under set -T, bash runs the DEBUG trap again as
			// the function starts ($LINENO the body's line); under
			// extdebug, a status not 0 skips its body.
			r.ecfg.TrapLine = uint64(r.lineBase + body.Pos().Line())
			skip = r.debugTrap(ctx, nil)
			r.ecfg.TrapLine = 0
		}
		oldLocalOpts := r.localOpts
		r.localOpts = nil
		tail := r.funcNoForkTail(body) // llmsh: NoForkExec
		oldKill, oldLine := r.killLine, r.line
		r.killLine = int(r.lineBase + body.Pos().Line()) // llmsh: bash's line_number
		if !skip {
			r.stmt(ctx, body)
		}
		r.killLine, r.line = oldKill, oldLine // (abandonShift)
		r.noForkTail = tail
		if r.localOpts != nil { // local -
			copy(r.opts[:len(posixOptsTable)], r.localOpts[:len(posixOptsTable)])
			r.updateExpandOpts()
		}
		r.localOpts = oldLocalOpts
		r.ecfg.TrapLine = trapLine
		// llmsh: bash's RETURN trap runs at the line of the return
		// that ended the function, else at the line of its body.
		retLine := int(r.lineBase + body.Pos().Line())
		if r.exit.returning && r.returnAt > 0 {
			retLine = r.returnAt
		}
		r.returnAt = 0
		r.leaveFunc(ctx, saved, retLine)
		r.popFrame(savedText)
		if !r.exit.exiting {
			r.stackMain = stackLive
		} else if r.exit.abandon && r.stackMain == stackLive {
			// llmsh: an error that abandons the line (bash's DISCARD:
			// $((1/0)), failglob, a readonly assignment) leaves the
			// function by a jump: bash's FUNCNAME keeps "main" at the
			// top level until a call returns normally.
			r.stackMain, r.unwoundFrames = stackUnwound, r.frames
		}

		funcEnv := r.writeEnv
		r.writeEnv = origEnv
		if fo, ok := funcEnv.(*overlayEnviron); ok {
			if _, local := fo.values["BASH_XTRACEFD"]; local {
				// llmsh: bash's sv_xtracefd as the local goes.
				vr := r.lookupVar("BASH_XTRACEFD")
				r.setXtraceFd(vr.String(), vr.IsSet())
			}
			if _, local := fo.values["BASH_COMPAT"]; local {
				vr := r.lookupVar("BASH_COMPAT") // llmsh: compat.go
				r.assignCompat(vr.String(), vr.IsSet())
			}
			if _, local := fo.values["POSIXLY_CORRECT"]; local {
				r.strictPosix(r.lookupVar("POSIXLY_CORRECT").IsSet())
			}
			if _, local := fo.values["IGNOREEOF"]; local {
				r.opts[optIgnoreEOF] = r.lookupVar("IGNOREEOF").IsSet()
			}
		}

		r.Params, r.paramsGen, r.shiftDropped = oldParams, oldParamsGen, oldDropped // llmsh: see TrackSets, shiftParams
		r.inFunc = oldInFunc
		r.inLoop, r.loopDepth = oldInLoop, oldLoopDepth
		r.exit.returning = false
		scope.release() // llmsh: see localRefs
		return
	}
	if r.isBuiltin(name) { // llmsh: not one enable -n turned off
		r.forkedBuiltin()
		r.roAssignFailed, r.reportPending = false, false
		if r.noErrExit && !r.errexitOff && (name == "eval" || name == "source" || name == "." || name == "command") {
			r.errexitOff = true // llmsh: see errexitOff
			defer func() { r.errexitOff = false }()
		}
		r.exit = r.builtin(ctx, pos, name, args[1:])
		r.posixSpecialExit(name)
		r.reportPendingExit(ctx)
		return
	}
	r.exec(ctx, pos, args)
}

// posixSpecialExit ends the shell, as bash in posix mode does, when the
// special builtin name failed with a usage error or a syntax error
// (status 2: `set -o bogus`, `eval 'if'`), or `.` found no file (llmsh);
// not where set -e is ignored (`export -Q || echo`, an if's condition,
// `!`), as bash's execute_command_internal tests ignore_return first.
func (r *Runner) posixSpecialExit(name string) {
	if !r.opts[optPosix] || !specialBuiltins[name] || r.exit.exiting || r.exit.returning {
		return
	}
	if r.roAssignFailed && (name == "export" || name == "readonly") {
		// llmsh: bash's EX_BADASSIGN jumps to the top level at once,
		// status 1, wherever the builtin runs (`export r=1 || …`).
		r.roAssignFailed = false
		r.exit.code, r.exit.exiting = 1, true
		return
	}
	ignored := r.noErrExit || r.negCall
	if r.exit.code == 2 && (!ignored || name == "eval") || (name == "." || name == "source") && r.sourceNotFound {
		if r.exit.code == 2 && name != "eval" && r.callbackErr != "" {
			// llmsh: bash runs the ERR trap first, and its commands
			// clear special_builtin_failed: the shell goes on.
			r.posixErrPending = true
		} else {
			r.exit.exiting = true
		}
	}
	r.sourceNotFound = false
}

// declNames gives the names that a declaration builtin's arguments
// (export x, readonly x=1, local x) name, less those of export -n and
// -f: the names a command's own assignment of the same name stays in.
func declNames(fields []string) map[string]bool {
	names := map[string]bool{}
	for _, arg := range fields[1:] {
		if len(arg) > 1 && (arg[0] == '-' || arg[0] == '+') && !strings.Contains(arg, "=") {
			if strings.ContainsAny(arg[1:], "nf") && arg[0] == '-' && fields[0] == "export" || strings.Contains(arg[1:], "f") {
				return nil
			}
			continue
		}
		name, _, _ := strings.Cut(arg, "=")
		names[strings.TrimSuffix(name, "+")] = true
	}
	return names
}

func (r *Runner) exec(ctx context.Context, pos syntax.Pos, args []string) {
	if !r.inExecBuiltin {
		r.syncInput() // llmsh: bash forks for a program (or execs it)
	}
	if r.foregroundJobs() {
		r.execForeground(ctx, pos, args) // llmsh: Ctrl-Z stops it (jobstop.go)
		return
	}
	if r.llmsh.groupSig.Load() && r.bashPid == r.llmsh.pid {
		// llmsh: a signal to the process group ends this command too
		// (jobsig.go).
		var done func()
		ctx, done = r.groupCommand(ctx)
		defer done()
	}
	err := r.execHandler(r.handlerCtx(ctx, handlerKindExec, pos), args)
	if err == ErrNotFoundHook {
		r.callNotFoundHook(ctx, pos, args) // llmsh: notfound.go
		return
	}
	r.exit.fromHandlerError(err)
	if !r.inExecBuiltin {
		r.childExited(1) // llmsh: a program (chld.go)
		r.notifyKilled() // llmsh: as bash after waiting for a program (jobs.go)
		r.reapDone()
	}
}

func (r *Runner) open(ctx context.Context, path string, flags int, mode os.FileMode, print bool) (io.ReadWriteCloser, error) {
	var f io.ReadWriteCloser
	err := r.dotDotErr(ctx, path) // llmsh: < nope/../f fails
	if err != nil {
		err = &fs.PathError{Op: shellName + ":", Path: path, Err: errnoText{err.(*fs.PathError).Err}}
	} else {
		f, err = r.openHandler(r.handlerCtx(ctx, handlerKindOpen, todoPos), path, flags, mode)
	}
	// TODO: support wrapped PathError returned from openHandler.
	switch err.(type) {
	case nil:
		return f, nil
	case *os.PathError:
		if print {
			r.errf("%s\n", r.redirErrText(err))
		}
	default: // handler's custom fatal error
		r.exit.fatal(err)
	}
	return nil, err
}

func (r *Runner) stat(ctx context.Context, name string) (fs.FileInfo, error) {
	if name == "" {
		return nil, fs.ErrNotExist // llmsh: stat("") is ENOENT, not the directory
	}
	if err := r.dotDotErr(ctx, name); err != nil {
		return nil, err // llmsh: nope/.. does not exist
	}
	path := fileArg(r.Dir, name)
	return r.statHandler(r.handlerCtx(ctx, handlerKindStat, todoPos), path, true)
}

func (r *Runner) lstat(ctx context.Context, name string) (fs.FileInfo, error) {
	if name == "" {
		return nil, fs.ErrNotExist // llmsh: as stat
	}
	if err := r.dotDotErr(ctx, name); err != nil {
		return nil, err // llmsh: nope/.. does not exist
	}
	path := fileArg(r.Dir, name)
	return r.statHandler(r.handlerCtx(ctx, handlerKindStat, todoPos), path, false)
}

func (r *Runner) access(ctx context.Context, name string, mode AccessMode) error {
	if name == "" {
		return fs.ErrNotExist // llmsh: as stat
	}
	path := fileArg(r.Dir, name)
	return r.accessHandler(r.handlerCtx(ctx, handlerKindAccess, todoPos), path, mode)
}

// andOr runs a list a && b || c …, which the parser makes a tree leaning
// left, as deep as the list is long: (((a && b) || c) && d). llmsh: its
// spine is walked in a loop where upstream recursed once per operator,
// so that a list of 200000 commands (eval of generated text, which the
// nesting check does not count) no longer overflows Go's stack. Each
// inner list runs as a part of the outer one: its commands under
// noErrExit, as the recursion ran them.
func (r *Runner) andOr(ctx context.Context, cm *syntax.BinaryCmd) {
	spine := []*syntax.BinaryCmd{cm}
	for {
		x := spine[len(spine)-1].X
		b, ok := x.Cmd.(*syntax.BinaryCmd)
		if !ok || (b.Op != syntax.AndStmt && b.Op != syntax.OrStmt) || !plainStmt(x) {
			break
		}
		spine = append(spine, b)
	}
	oldNoErrExit := r.noErrExit
	r.noErrExit = true
	r.stmt(ctx, spine[len(spine)-1].X)
	for i := len(spine) - 1; i >= 0; i-- {
		b := spine[i]
		if i == 0 {
			r.noErrExit = oldNoErrExit // the outermost list's last part
		}
		if r.exit.ok() == (b.Op == syntax.AndStmt) {
			r.stmt(ctx, b.Y)
		}
	}
	r.noErrExit = oldNoErrExit
}

// plainStmt reports whether st is only its command: no redirection, !,
// & or coprocess, so that running st is running its command.
func plainStmt(st *syntax.Stmt) bool {
	return len(st.Redirs) == 0 && !st.Negated && !st.Background && !st.Coprocess && !st.Disown
}

// applyDeclModes gives vr the attributes that declare's options -x -r -l
// -u -c -t (and +x …) ask for.
func applyDeclModes(vr *expand.Variable, modes []string) {
	for _, mode := range modes {
		switch mode {
		case "-x":
			vr.Exported = true
		case "+x":
			vr.Exported = false
		case "-r":
			vr.ReadOnly = true
		case "-l":
			vr.Lower, vr.Upper, vr.Capital = true, false, false
		case "+l":
			vr.Lower = false
		case "-u":
			vr.Upper, vr.Lower, vr.Capital = true, false, false
		case "+u":
			vr.Upper = false
		case "-c":
			vr.Capital, vr.Lower, vr.Upper = true, false, false
		case "+c":
			vr.Capital = false
		case "-t":
			vr.Trace = true
		case "+t":
			vr.Trace = false
		}
	}
	if n := countCaseModes(modes); n > 1 {
		// llmsh: bash's -lu, -cu, -cl are none of them
		vr.Lower, vr.Upper, vr.Capital = false, false, false
	}
}

// exitTrapDue reports whether the EXIT trap is still to run and may run
// where the shell decides to exit (exit, set -e): not in another trap's
// action, which leaves it for the end.
func (r *Runner) exitTrapDue() bool {
	return r.callbackExit != "" && !r.handlingTrap && !r.trapsOff && !r.exitTrapLost
}

// losesExitTrap says whether a pipeline element or a job cm is one whose
// EXIT trap bash never runs (Runner.exitTrapLost).
func losesExitTrap(cm syntax.Command) bool {
	switch cm.(type) {
	case *syntax.ForClause, *syntax.WhileClause, *syntax.IfClause, *syntax.CaseClause:
		return true
	}
	return false
}

// exitTrapHere runs the EXIT trap now, with r.exit the status the shell
// is leaving with, as bash's exit_builtin and set -e do: in the current
// function, with its FUNCNAME, BASH_LINENO and positional parameters.
// exit leaves the function's locals in scope; set -e (global) does not:
// bash's reader_loop sets variable_context to 0, so the action sees and
// sets the global variables and local fails in it. The action's exit N
// sets the status; the shell is still exiting after it.
func (r *Runner) exitTrapHere(ctx context.Context, global bool) {
	cb := r.callbackExit
	r.callbackExit = ""
	if r.evalCmd != nil {
		r.evalCmd.put(r) // llmsh: the eval's or source's own text
	}
	if g := r.globalScope(); global && g != nil {
		saved, inFunc := r.writeEnv, r.inFunc
		r.writeEnv, r.inFunc = g, false
		defer func() { r.writeEnv, r.inFunc = saved, inFunc }()
	}
	r.trapCallback(ctx, cb, "exit")
	r.exit.exiting = true
}

// deferredExitTrap runs the EXIT trap that set -e left for the innermost
// simple command with redirections it failed in (f >log 2>&1), now that
// its redirections are undone and the frames it called are gone, as
// bash's: the trap's output goes where the caller's does. Where set -e
// failed in a function, FUNCNAME keeps "main" at the bottom even back at
// the top level (bash's stack is not emptied on that way out).
func (r *Runner) deferredExitTrap(ctx context.Context) {
	r.exitDeferred = false
	if r.exit.exiting && r.exitTrapDue() {
		r.exitTrapHere(ctx, true)
	}
	r.stackMain = stackLive
}

// stackShown is what FUNCNAME, BASH_SOURCE and BASH_LINENO show of the
// call stack in an EXIT trap that bash runs after it unwound frames.
type stackShown uint8

const (
	stackLive    stackShown = iota // the frames as they are
	stackMain                      // the frames left, and "main" at the top level
	stackUnwound                   // "main" only: bash unwound every frame (set -u)
)

// exitTrapEarly runs the EXIT trap, when it is due, where an error ends
// the shell (set -u's, a readonly variable's under set -e): bash runs it
// before it unwinds, in the function with its locals. It returns true.
func (r *Runner) exitTrapEarly(ctx context.Context) bool {
	if r.exitTrapDue() {
		r.exitTrapHere(ctx, false)
	}
	return true
}

// reportPendingExit is [Runner.reportExit] for the error a builtin's
// assignment met (reportPending), once the builtin has returned: the
// status is the last command's when that failed, as bash's
// last_command_exit_value (llmsh).
func (r *Runner) reportPendingExit(ctx context.Context) {
	if !r.reportPending {
		return
	}
	r.reportPending = false
	last := r.lastExit.code
	if !r.exit.exiting && r.reportExit() {
		r.exit.code = max(last, 1)
		r.exitTrapEarly(ctx)
	}
}

// reportExit is bash's report_error under set -e, for an error just
// printed that bash reports so (a readonly variable assigned before a
// command or by for, a bad array subscript read): where set -e is in
// force, even in a condition or before && or ||, the shell exits with
// status 1 (llmsh). It reports whether it does.
func (r *Runner) reportExit() bool {
	if !r.opts[optErrExit] || r.errexitOff {
		return false
	}
	r.exit = exitStatus{code: 1, exiting: true}
	r.errExited = true
	return true
}
