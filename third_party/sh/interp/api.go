// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

// Package interp implements an interpreter to execute shell programs
// parsed by the [syntax] package as either [syntax.LangBash]
// or [syntax.LangPOSIX], behaving like Bash as a result.
//
// The interpreter currently aims to behave like a non-interactive shell,
// which is how most shells run scripts, and is more useful to machines.
// In the future, it may gain an option to behave like an interactive shell.
package interp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// A Runner interprets shell programs. It can be reused, but it is not safe for
// concurrent use. Use [New] to build a new Runner.
//
// Note that writes to Stdout and Stderr may be concurrent if background
// commands are used. If you plan on using an [io.Writer] implementation that
// isn't safe for concurrent use, consider a workaround like hiding writes
// behind a mutex.
//
// Runner's exported fields are meant to be configured via [RunnerOption];
// once a Runner has been created, the fields should be treated as read-only.
type Runner struct {
	// Env specifies the initial environment for the interpreter, which must
	// not be nil. It can only be set via [Env].
	//
	// llmsh: TMPDIR means nothing to the interpreter, which makes no
	// temporary file (see [ProcSubstHandler]).
	Env expand.Environ

	// writeEnv overlays [Runner.Env] so that we can write environment variables
	// as an overlay.
	writeEnv expand.WriteEnviron

	// Dir specifies the working directory of the command, which must be an
	// absolute path. It can only be set via [Dir].
	Dir string

	// llmsh is what the runner shares with its subshells (llmsh.go).
	llmsh *session

	// appendBuf holds the value the last string append (s+=v) made, with
	// room to grow (appendString). Not copied to subshells: only this
	// runner writes past its end.
	appendBuf *strings.Builder

	// births numbers the keys added to associative arrays (llmsh:
	// expand.Variable.Born).
	births uint64

	// regFile and regFileOK remember whether the file read last read from
	// is a regular file; readBuf is its read-ahead buffer (read.go).
	regFile   stdinFile
	regFileOK bool
	readBuf   []byte

	// exports is the list [HandlerContext.Exported] made last (vars.go).
	exports exportCache

	// bashPid is $BASHPID: the session's $$ at the top, a new virtual id
	// in each subshell.
	bashPid int

	// psubRelease holds the release functions of the process
	// substitutions made by the statements running (see stmtSync).
	psubRelease []func()

	// node is the CallExpr or Redirect that the next call, exec or open
	// handler runs for; see [HandlerContext.Node]. (llmsh)
	node syntax.Node

	// llmsh: traps other than EXIT and ERR (traps.go), by name: DEBUG,
	// RETURN and the signals ("INT"). An empty action ignores the signal.
	traps map[string]string
	// shownTraps are the traps that trap -p shows in a subshell that has
	// set none: its parent's (bash).
	shownTraps map[string]string
	// asyncInt and asyncQuit: r is the shell of a job of & without job
	// control, which ignores SIGINT and SIGQUIT until it traps or resets
	// them; its subshells do not (bash's setup_async_signals; llmsh).
	asyncInt, asyncQuit bool
	// curCmd is $BASH_COMMAND: the simple command running or about to.
	curCmd syntax.Command
	// curRedirs are curCmd's redirections, which $BASH_COMMAND shows
	// (llmsh).
	curRedirs []*syntax.Redirect
	// curText, when not empty, is $BASH_COMMAND instead of curCmd: the
	// head of a loop whose iteration is about to run (llmsh).
	curText string
	// curSrc is the text curCmd was parsed from, or "" (llmsh:
	// writtenCommand).
	curSrc string
	// debugDone is set when [Runner.stmtSync] has run the DEBUG trap of
	// the command [Runner.cmd] is about to run (llmsh).
	debugDone bool
	// debugAsync is set in the job of `cmd &` when its shell has run
	// the DEBUG trap for cmd already, as bash before it forks (llmsh).
	debugAsync bool
	// arg0 is $0 once BASH_ARGV0 is assigned (arg0Set); argv0Gone says
	// BASH_ARGV0 was unset and is an ordinary variable since (llmsh).
	arg0               string
	arg0Set, argv0Gone bool
	// aliasesGone says BASH_ALIASES was unset: no longer the aliases
	// (llmsh).
	aliasesGone bool
	// cmdsGone says the same of BASH_CMDS and hash's table (llmsh).
	cmdsGone bool
	// dynGone holds the dynamic variables (unsetPlain) that were unset:
	// plain variables from then on (llmsh).
	dynGone map[string]bool
	// dynExported holds the dynamic variables that export (declare -x)
	// exported: their computed values go to the commands' environment,
	// as bash's (export SHELLOPTS; llmsh).
	dynExported map[string]bool
	// secondsBase is when $SECONDS was last assigned (or the shell
	// started), secondsAssigned the value assigned then: $SECONDS is
	// secondsAssigned plus the whole seconds elapsed since (rounded
	// down; see specialvars.go).
	secondsBase     time.Time
	secondsAssigned int64
	// secondsRead is set once $SECONDS's value was computed (expanded,
	// or declare -p SECONDS), which gives it the integer attribute, as
	// bash's get_seconds (llmsh).
	secondsRead bool
	// topEnd is the last line of the top-level command run last, and
	// cmdNumber the count of command lines before it (llmsh:
	// Config.CmdNumber).
	topEnd    uint
	cmdNumber int
	// xtraceFd is the descriptor set -x writes to, that an assignment
	// to BASH_XTRACEFD chose (xtraceSet; else stderr) (llmsh: trace.go).
	xtraceFd  int
	xtraceSet bool
	// umask is the file mode creation mask of the shell (umask.go).
	umask fs.FileMode

	// Params are the current shell parameters, e.g. from running a shell
	// file or calling a function. Accessible via the $@/$* family of vars.
	// It can only be set via [Params].
	Params []string

	// Separate maps - note that bash allows a name to be both a var and a
	// func simultaneously.
	// Vars is mostly superseded by Env at this point.
	// TODO(v4): remove these
	//
	// llmsh: Vars stays empty: copying every variable into it at the
	// end of each Run (each statement of a session) cost 0.17 s of CPU
	// per statement with 300,000 variables, which no context could
	// stop; VarsNow gives them when asked.

	Vars  map[string]expand.Variable
	Funcs map[string]*syntax.Stmt

	alias map[string]alias

	// llmsh: the builtins enable -n turned off, and complete's specs
	// (bashbuiltins.go, complete.go).
	disabled  map[string]bool
	compSpecs map[string]*compSpec
	// llmsh: the names hash -p entered (hash.go).
	hashed map[string]string
	// hashHits counts the runs of each hashed command (hash's hits).
	hashHits map[string]int

	// callHandler is a function allowing to replace a simple command's
	// arguments. It may be nil.
	callHandler CallHandlerFunc

	// execHandler is responsible for executing programs. It must not be nil.
	execHandler ExecHandlerFunc

	// execMiddlewares grows with calls to [ExecHandlers],
	// and is used to construct execHandler when Reset is first called.
	// The slice is needed to preserve the relative order of middlewares.
	execMiddlewares []func(ExecHandlerFunc) ExecHandlerFunc

	// openHandler is a function responsible for opening files. It must not be nil.
	openHandler OpenHandlerFunc

	// readDirHandler is a function responsible for reading directories during
	// glob expansion. It must be non-nil.
	readDirHandler ReadDirHandlerFunc2

	// statHandler is a function responsible for getting file stat. It must be non-nil.
	statHandler StatHandlerFunc

	// accessHandler is a function responsible for checking file access. It must be non-nil.
	accessHandler AccessHandlerFunc

	stdin stdinFile // e.g. the read end of a pipe
	// llmsh: freeCallCtx is the call handler's context, kept for the
	// next command (callHandlerCtx); nil while a handler holds it.
	freeCallCtx *handlerValueCtx
	// llmsh: the shared file that stdin reads, when a redirection or
	// StdIO gave one (sharedin.go); stdin is then an empty pipe.
	stdinSrc InputFile
	// llmsh: the stdin that a file redirection gave (read -t 0).
	// stdinWO says that a closed stdin (stdin and stdinSrc nil) is
	// open, for writing only (0>FILE, 0<&N of a write-only N): reads
	// fail as of a closed one, but the descriptor is there (llmsh:
	// HandlerContext.StdinWriteOnly).
	stdinWO   bool
	fileStdin stdinFile
	stdout    io.Writer
	stderr    io.Writer

	ecfg *expand.Config
	ectx context.Context // just so that Runner.Subshell can use it again

	// sets, while TrackSets tracks, names the global variables stored
	// or unset since (llmsh): the global scope's overlayEnviron.sets.
	sets map[string]struct{}

	// paramsGen counts the stores of the positional parameters by set
	// and shift; paramsTracked is its value at TrackSets (llmsh: a
	// session over its memory bound clears those a Run set).
	paramsGen, paramsTracked uint64

	// shiftDropped is about how many bytes of positional parameters
	// shift dropped from the front of Params' array since it was last
	// copied (cdshift.go); it goes with the array: 0 for a new one, saved
	// and restored with Params around a function call or a source.
	shiftDropped int

	// didReset remembers whether the runner has ever been reset. This is
	// used so that Reset is automatically called when running any program
	// or node for the first time on a Runner.
	didReset bool

	usedNew bool

	filename string // only if Node was a File
	// llmsh: jobRun is set on the subshell that runs a background job or
	// a coprocess: its Run of the statement keeps the script's name
	// (filename) for bash's "NAME: line N: " in its errors.
	jobRun bool
	line   int // llmsh: the line of the statement that runs

	// lastPrefix is the last errPrefix made, for the next command of the
	// same line and file (llmsh: the shell's echo and printf ask for it
	// at every run, a loop's rounds from one line).
	lastPrefix atomic.Pointer[errPrefixText]

	// cString is set when the script is a -c string (SetCommandString,
	// llmsh): an arithmetic error in a subscript or an
	// integer variable's value (ArithmError.Fatal) then ends the shell,
	// where a script file goes on with its next line.
	cString bool

	// arithWho names the command whose arithmetic runs ("((", "let",
	// "[["): bash's "`5': not a valid identifier" of an assignment in
	// it names it first (llmsh).
	arithWho string

	// tempElemming is set while tempElem assigns an element of the
	// variable a temporary one hides (llmsh).
	tempElemming bool

	// cmdErr is the stderr from before the running statement's
	// redirections, where a simple command's expansions write (llmsh).
	cmdErr io.Writer
	// preCall and preFields are the simple command whose words stmtSync
	// expanded before making its redirections, as bash does, and its
	// fields, which cmd takes instead of expanding them again (llmsh).
	preCall   *syntax.CallExpr
	preFields []string
	// preDecl is the declaration whose words stmtSync expanded before
	// making its redirections, as bash does (declare y=$(ls) >g does
	// not list g), with what declArgs gave for them (llmsh).
	preDecl *preDeclArgs
	// thisCmd is bash's this_command_name where a declaration's
	// compound array names it (declare.go: localRefused): the function
	// called, eval, source, [[ or ((, until a simple command ends
	// (llmsh).
	thisCmd string
	// preTraced says that stmtSync traced preCall too (set -x), before
	// the redirections whose words it then expands (llmsh).
	preTraced bool
	// prePA is what prefixAssigns did for preCall's own assignments,
	// which stmtSync makes before the redirections, as bash (x=$(ls)
	// cmd >g does not list g) (llmsh).
	prePA *prefixState
	// noCall is set while a simple command whose redirection failed is
	// expanded, traced and its assignments made, as bash does before its
	// redirections; the command is not run (llmsh).
	noCall bool
	// posixSpecialFail says that the command whose redirection failed
	// (noCall) is a special builtin in posix mode: the shell exits.
	posixSpecialFail bool
	// posixErrPending: a special builtin failed with a usage error in
	// posix mode with an ERR trap set; the shell ends after the
	// statement unless the trap ran (posixSpecialExit).
	posixErrPending bool
	// roAssignFailed: an assignment of export or readonly met a
	// readonly variable (bash's EX_BADASSIGN; posixSpecialExit).
	roAssignFailed bool
	// sourceNotFound says that the last `.` found no file to read.
	sourceNotFound bool
	// traceWait and traceDone order the set -x lines of a pipeline's
	// elements as bash's forks do (llmsh, pipeline.go): an element's
	// first line waits until the element before it has written one or
	// has ended (traceWait), and its own first line lets the next go.
	traceWait, traceDone []*traceGate

	// cmdTrace is where set -x wrote before the running statement's
	// redirections: a simple command is traced there, as bash (llmsh).
	cmdTrace io.Writer

	// frames is the call stack (callstack.go); funcDefs says where each
	// function was defined; text is the text running, for $LINENO and
	// declare -f; funcAttrs are declare -fr/-fx's "r", "x", "rx"
	// (declare.go). (llmsh)
	frames    *frameNode
	funcDefs  map[string]funcDef
	funcAttrs map[string]string
	text      textPlace
	// mainArgs are the bottom frame's BASH_ARGV, taken from the
	// positional parameters the first time BASH_ARGV is read or extdebug
	// set (mainArgsSet), as bash (callstack.go).
	mainArgs    []string
	mainArgsSet bool
	// selfTraps are the traps of signals that the running command sent
	// to its own shell, run when it is over (signals.go). (llmsh)
	selfTraps []string
	// sigRunning are the signals whose traps' actions are running: a
	// trap's action may run another signal's, not its own (llmsh).
	sigRunning []string
	// inExecBuiltin: the exec handler runs a builtin (execbuiltins.go).
	inExecBuiltin bool

	// llmsh: deferred write confirmation (deferred.go). stmtSeq numbers
	// the statements as they start, lastSeq is the number of the last
	// one that ended (whose status lastExit is), deferSeq the number of
	// the running statement when its command may defer its writes (0
	// otherwise), deferredRan the statements that may have deferred
	// since the last barrier; mayDefer is set by a list for the
	// statement it runs next.
	stmtSeq, lastSeq, deferSeq uint64
	deferredRan                int
	mayDefer                   bool
	// lazyOpen is set while the redirection of a statement that may
	// defer is opened (HandlerContext.Lazy).
	lazyOpen bool
	// inCommand: the exec handler runs a command for `command NAME`
	// (HandlerContext.NoFunc).
	inCommand bool
	// stdPath: `command -p NAME` runs; Path is StandardPath.
	stdPath bool
	// execArgv0: the exec builtin runs a command (HandlerContext.Exec),
	// with exec -a's name when not empty (HandlerContext.Argv0).
	inExec bool
	// execFailed: the exec builtin's command could not be run
	// (HandlerContext.ExecFailed).
	execFailed bool
	execArgv0  string
	execNoEnv  bool // exec -c: the command gets an empty environment
	// llmsh: declVariant is the declaration builtin whose assignments
	// run; arithPrefix the command an arithmetic error names (bash's
	// "declare: 1 +: syntax error…" for declare -i j="1 +").
	declVariant, arithPrefix string
	// declPrefix holds a declaration builtin's own prefix assignments
	// in a function while it runs (x=7 declare -p x shows them; llmsh).
	declPrefix map[string]expand.Variable
	// builtinAssign is set while read, printf -v and the other builtins
	// that assign a name assign it: a bad subscript there fails the
	// builtin (status 1) without abandoning the line, as bash (llmsh).
	builtinAssign bool

	// reportPending: a builtin's assignment met an error that bash
	// reports with report_error (a readonly variable, a bad subscript:
	// read, printf -v, getopts, mapfile, let, (( )), export,
	// declare a[-1]=x), which under set -e ends the shell as the
	// builtin returns, even in a condition or before && or || (llmsh).
	reportPending bool

	// errexitOff is bash's exit_immediately_on_error turned off while
	// -e stays set ($- has e): eval, source and command run where set -e
	// is ignored (before || or &&, in a condition) run with it off
	// (bash's builtin_ignoring_errexit), and a report_error there
	// (reportExit) does not end the shell (llmsh).
	errexitOff bool

	// rand is bash's generator behind $RANDOM (llmsh: random.go): zero
	// until RANDOM is assigned or first read; a subshell starts afresh.
	rand bashRandom

	// >0 to break or continue out of N enclosing loops
	breakEnclosing, contnEnclosing int

	inLoop    bool
	loopDepth int // llmsh: the loops being run (break N stops at the outermost)
	// declaring is set while declare, local, typeset, export or readonly
	// assign a value (llmsh: some of bash's messages differ there).
	declaring bool
	// declLocal is set with declaring when the declaration makes locals
	// (llmsh: liveElems).
	declLocal bool
	// llmsh: declNewLocal names the local that a declaration is making
	// (local -i x=x+1), which exists, unset, when its integer value is
	// evaluated, as bash's make_local_variable comes first.
	declNewLocal string
	// llmsh: partial is what a compound assignment whose integer value
	// or subscript failed leaves (assignValIndex's false), as bash keeps
	// the elements assigned before the error: declare -i a=(1 1/0 3)
	// is a=([0]=1). Its callers take it and clear it.
	partial *expand.Variable
	// llmsh: refElem is the nameref written with a subscript (r[-5]=v)
	// whose element is being assigned: bash's bad array subscript names
	// it, not the array it refers to.
	refElem    string
	inFunc     bool
	inSource   bool
	sourceName string // llmsh: the file being sourced, as given, for errPrefix
	lineBase   uint   // llmsh: line of an eval string's first line, less one
	// llmsh: what sets the offset of the script's seekable input back
	// to the end of the lines run (SetInputSync); the top shell's only.
	inputSync func()
	// llmsh: bash's line_number between simple commands, which the
	// report of a command a signal ended names: the top-level command's
	// last line, a for's, select's or case's line in its body, a
	// function's body's line (0: r.line).
	killLine int
	// llmsh: in a $( ), the first and last line of each of its
	// commands in the text bash runs there (its print_comsub of them),
	// and the line that text counts from less one (comsub.go:
	// substLineMap).
	substLines map[*syntax.Stmt][3]int
	substBase  int
	// inHdoc is set while a here-document's body is expanded (llmsh).
	inHdoc    bool
	substLine bool // the statement running is one of substLines
	// jobStmt is the command a background job's shell runs: a signal
	// that ends it is the job's, reported when it is waited for.
	jobStmt    *syntax.Stmt
	returnLine int // llmsh: the line a RETURN trap's $LINENO counts from
	returnAt   int // llmsh: the line of the return builtin that is returning
	// jobSelf is the job this runner is the shell of (llmsh: its
	// $BASHPID is the job's pid; jobsig.go).
	jobSelf *bgProc
	// trapName is the trap whose action runs ("exit", "error", "DEBUG",
	// a signal's name), trapSaved the status from before it (llmsh).
	trapName  string
	trapSaved uint8
	// jobSub is the subshell that is the whole of that job (`( … ) &`),
	// whose runner is then the job's shell.
	jobSub       *syntax.Subshell
	lineEnd      uint // llmsh: the last line of the statement running
	abandoned    bool // llmsh: the last Run of a Stmt abandoned its line
	handlingTrap bool // whether we're currently in a trap callback

	// llmsh: a timed subshell with redirections, and its report
	// (timing.go).
	timedSub    *syntax.Subshell
	timedReport func()
	// llmsh: bash's compatibility level, 0 for the default (compat.go).
	compatLevel int
	// llmsh: children ended whose CHLD trap has not run (chld.go).
	chldPending int
	inErrTrap   bool // llmsh: in the ERR trap's action, which does not recurse
	// errTrapLine is, in the ERR trap's action, the failing command's
	// line: bash gives it as BASH_LINENO of every function called there,
	// however deep, until a ( … ) subshell (its executing_line_number
	// stays at that command). llmsh.
	errTrapLine int
	// errStale is bash's line_number_for_err_trap: the line of the last
	// simple command, ( … ), (( )) or [[ ]] that began, which the ERR
	// trap's $LINENO stays at when a compound command's redirection
	// fails (`{ …; } <missing`). eval, source and traps put it back as
	// bash's parse_and_execute. llmsh.
	errStale int
	// readEnd caches readEndLine's answers for one line's statements.
	// llmsh.
	readEnd readEndCache
	// pipeAllErr is, in the element before |&, the shell's stderr: bash
	// reads X |& Y as X 2>&1 | Y, so set -x traces a simple command X
	// there, before its redirections, and not what it runs. llmsh.
	pipeAllErr io.Writer
	// assignTrace, when set, traces the assignment assignValIndex makes
	// once its value is expanded. llmsh.
	assignTrace func()
	// assignText is the last assignment's word as expanded, which set -x
	// prints (bash: n+=n, not the sum). llmsh.
	assignText string
	// traceHide, while set -x traces a command after its own
	// assignments, is the values they hide: bash's PS4 for the
	// command's line does not see them (llmsh).
	traceHide []restoreVar
	// inTrap is true in a trap's action and the subshells it starts:
	// they set no $BASH_COMMAND. (llmsh)
	inTrap bool
	// inDebug is true in the DEBUG trap's action and the subshells it
	// starts: the DEBUG trap does not run there, as bash's; it does in
	// the other traps' actions. (llmsh)
	inDebug bool
	// trapsOff keeps every trap's action from running (SetTrapsOff):
	// the embedder runs its own commands in the shell. (llmsh)
	trapsOff bool
	// llmsh: exitTrapLost is set in a pipeline element or a job that is
	// a for, while, until, if or case: bash forks it without making it a
	// shell of its own (not a user subshell, as ( ) and { } are), so an
	// EXIT trap it sets never runs, not even on exit; a signal that ends
	// it still runs it.
	exitTrapLost bool
	// llmsh: the only statement of a subshell, itself a subshell, whose
	// failure runs no ERR trap (bash runs it without a process of its
	// own).
	bareSubshell *syntax.Stmt

	// negatedAlone is the one statement of a `( ! … )` subshell: bash's
	// execute_in_subshell takes the ! off the command and inverts the
	// subshell's status instead, so set -e is not ignored in what it
	// runs (llmsh: `set -e; f() { false; echo f; }; ( ! f )` prints
	// nothing, status 0).
	negatedAlone *syntax.Stmt
	// llmsh: the last statement of the ( … ) this runner runs, and the
	// statement it runs now: a subshell that kills itself with its
	// last command runs no EXIT trap (bash runs that command without
	// the subshell's own exit path), one that does it earlier runs it.
	subLast, curStmt *syntax.Stmt
	// llmsh: here-documents that the end of the script ended, warned
	// about as the statement that holds them is reached (readLines).
	pendingHdocs []syntax.UnclosedHdoc
	// readFile is the file that AliasReread read with its aliases
	// expanded: Run does not expand them again.
	readFile *syntax.File
	// readOn says that Run stopped reading its text at offset readTo,
	// in the middle of the statements parsed (Runner.ReadOn).
	readOn bool
	readTo int
	// aliasEnd is where the lines that an alias made the last Run read
	// on end (its text's offset), wherever that is (AliasReadEnd).
	aliasEnd int
	// llmsh: the lines of the script read so far (set -v).
	linesRead uint
	histRead  uint // llmsh: the lines set -o history has seen (scripthist.go)
	// llmsh: the text whose lines set -o history reads, split once.
	histSrc   string
	histLines []string
	// llmsh: $BASH_SUBSHELL, one more in each subshell.
	subshellLevel int
	// llmsh: $_, the last argument of the last simple command.
	lastArg string
	// llmsh: $_ still holds the exported _ of the environment (no
	// command set it yet): declare -p shows it -x, as bash.
	lastArgExported bool
	// llmsh: the options that `local -` saved in the running function.
	localOpts *runnerOpts
	// llmsh: $? before a `return N`, which the RETURN trap sees
	// (bash's), and whether it is set.
	preReturn    uint8
	hasPreReturn bool

	// track if a sourced script set positional parameters
	sourceSetParams bool

	// noErrExit prevents failing commands from triggering [optErrExit],
	// such as the condition in a [syntax.IfClause]. llmsh: and the ERR
	// trap; subshells and command substitutions inherit it (bash).
	noErrExit bool
	// negCall says that the simple command running is negated (! cmd):
	// a special builtin's usage error then leaves a posix shell running,
	// as bash's ignore_return (llmsh).
	negCall bool

	// pipeElem marks the next statement as an element of a pipeline,
	// which sets -e and the ERR trap leave to the pipeline (llmsh).
	pipeElem bool
	// pipeStmt is the pipeline's element that the runner runs, whose
	// end by a signal it does not report (llmsh: reportForeground).
	pipeStmt *syntax.Stmt
	// subStmt is the ( … ) statement running in the foreground, for
	// reportForeground (llmsh).
	subStmt *syntax.Stmt
	// pipeProcs are the elements of the pipeline whose last element a
	// signal ended, for reportForeground (llmsh).
	pipeProcs []pipeProc
	// killedBy is the signal that ended the last Run: KilledBy (llmsh).
	killedBy uint8
	// evalCmd is $BASH_COMMAND as the outermost eval or source running
	// found it: its own text (llmsh: keepBashCommand).
	evalCmd *bashCommand
	// pipeCall marks a pipeline's element that is a simple command: its
	// $BASH_SUBSHELL is the shell's, one more once it calls a function,
	// as bash's (llmsh).
	pipeCall bool
	// forkedCall marks a shell that bash forks to run one simple command
	// (a pipeline's element, a background job), and discardFails one
	// whose abandoned line has status 1 whatever $? was: a command
	// substitution's, or such a shell once its command is a builtin
	// (bash's execute_subshell_builtin_or_function exits 1 on DISCARD);
	// elsewhere an integer variable's error keeps $? (llmsh, see
	// ArithmError.KeepStatus).
	forkedCall, discardFails bool
	// noForkTail is the simple command that bash runs last in the
	// shell it forked, or in a -c string, and so execs without a fork
	// of its own (a shell it starts then has the forked shell's pid
	// for parent, noForkPpid, and, but for a pipeline's element, one
	// less in SHLVL: noForkShlvl); nil when there is none (llmsh:
	// HandlerContext.NoForkExec).
	noForkTail  *syntax.CallExpr
	noForkPpid  int
	noForkShlvl bool
	// noForkFuncs is set in a $( … ) and a <( … ), where bash execs
	// the last simple command of a function that is the noForkTail,
	// in turn, without a fork (llmsh).
	noForkFuncs bool
	// parenSub is set in a ( … ) subshell and the subshells it starts:
	// exec there keeps SHLVL, as bash's SUBSHELL_PAREN; forkParent is
	// the pid of the shell that started this subshell (llmsh:
	// NoForkExec).
	parenSub   bool
	forkParent int
	// readsPipe marks a pipeline's element that reads the pipe from the
	// element before it, and the subshells it starts (llmsh: read -t 0
	// waits for that element, see pipeSettle).
	readsPipe bool
	// condBroken is set by a syntax error in a [[ ]] of eval text or a
	// sourced file: bash's parser keeps its conditional state, and the
	// next [[ it reads is a syntax error (llmsh: condBrokenAt).
	condBroken bool
	// condFirstWord is set with condBroken by a [[ that the end of eval
	// text or of a sourced file cut short (`eval '[[ a'`): bash's parser
	// also takes the first word of the next line it reads for no
	// reserved word (llmsh: condEOFError).
	condFirstWord bool
	// pairFirstWord is set with condFirstWord (not condBroken) by eval
	// text that ends inside a quote, ${, $((, (( or $[ (bash's
	// parse_matched_pair): a [[ first on the next line is then a plain
	// word, the command `[[` (condWord). llmsh.
	pairFirstWord bool
	condWord      *syntax.TestClause
	// bangWord is the simple command after a `!` that condFirstWord
	// made a plain word: the command's name is `!`; bangStmt is the
	// statement that `!` no longer negates (llmsh).
	bangWord *syntax.CallExpr
	bangStmt *syntax.Stmt
	// parenArith is a (( … )) that condFirstWord left no arithmetic
	// command: bash reads two ( there, and runs parenCmd, ( ( … ) ),
	// in its place (llmsh: condArithParen).
	parenArith *syntax.ArithmCmd
	parenCmd   *syntax.Subshell
	// errExited is set when set -e makes the shell leave (llmsh).
	errExited bool
	// llmsh: redirCalls counts the simple commands with redirections
	// running (stmtSync); exitDeferred is set when set -e left the EXIT
	// trap for the innermost of them (deferredExitTrap), stackMain while
	// that trap runs.
	redirCalls   int
	exitDeferred bool
	stackMain    stackShown
	// llmsh: unwoundFrames is the innermost frame that stackUnwound
	// hides, with the ones under it (a subshell's inherited frames).
	unwoundFrames *frameNode

	// traceLevel is how many command substitutions deep the runner is:
	// xtrace repeats PS4's first character that many times more (llmsh).
	traceLevel int

	// The current and last exit statuses. They can only be different if
	// the interpreter is in the middle of running a statement. In that
	// scenario, 'exit' is the status for the current statement being run,
	// and 'lastExit' corresponds to the previous statement that was run.
	exit     exitStatus
	lastExit exitStatus

	lastExpandExit exitStatus // used to surface exit statuses while expanding fields

	// bgProcs holds all background shells spawned by this runner, the
	// jobs of jobs.go (llmsh: numbered by the session's virtual pids;
	// upstream named them g1, g2…).
	//
	// Note that each shell only tracks its direct children;
	// subshells do not share nor inherit the background PIDs they can wait for.
	bgProcs []*bgProc
	// lastBgPid is $!: the pid of the last job started (llmsh: kept by
	// subshells, which have no jobs of their own).
	lastBgPid int
	// curJob and prevJob are bash's current and previous jobs (%+ and
	// %-), chosen as jobs start and leave the table, once jobMarks says
	// this runner started one (llmsh: jobs.go currentJobs).
	curJob, prevJob *bgProc
	jobMarks        bool
	// tempVars counts, by name, the commands running with an assignment
	// of their own to it (x=1 f): bash's temporary environment, whose
	// value local x copies (llmsh).
	tempVars map[string]int
	// tempStack holds the states of the commands running with such
	// assignments, the newest last (llmsh: tempUnset).
	tempStack []*prefixState
	// liveRedirs are the files that the redirections of the statements
	// running hold open: a job started inside takes a hold on each, so
	// that they stay open until it ends too (`{ cat & } < f`), as a
	// process of bash keeps its descriptors (llmsh; jobs.go).
	liveRedirs []*heldCloser
	// stdinRedir is bash's stdin_redir: a control structure running has
	// its stdin redirected (or is a pipeline's element after the
	// first). Without it, a job started without job control reads an
	// empty stdin (/dev/null in bash). stmtStdin says the statement
	// about to run has a stdin redirection of its own, pipeIn that the
	// runner is a pipeline's element after the first (llmsh; jobs.go).
	stdinRedir, stmtStdin, pipeIn bool

	// inheritedJobs are the parent's jobs that a subshell lists (jobs,
	// kill %N) but cannot wait for. (llmsh)
	inheritedJobs []*bgProc
	// pruneAt is the length of bgProcs at which a job's start prunes it
	// next (pruneJobs), and seenEnded says that ForgetEnded marked jobs
	// that the next job's start takes out of the table (forgetSeen):
	// a job starts in O(1) amortised (llmsh; jobs.go).
	pruneAt   int
	seenEnded bool
	// jobCtx, when set, is the context the runner's jobs start from
	// (SetJobContext; llmsh's REPL). Subshells do not inherit it.
	jobCtx context.Context
	// gate is the stop gate of the job the runner runs in, nil outside
	// a job (llmsh; jobstop.go).
	gate *jobGate
	// substShell says that the runner is the shell of a command or
	// process substitution (bash's SUBSHELL_COMSUB with startup_state
	// 2), not a subshell, pipeline element or job started in it, which
	// start a shell of their own (not copied): it reports no job that a
	// signal ended (notifyKilled; llmsh).
	substShell bool

	opts runnerOpts
	// bashOpts is $BASHOPTS once an option of shopt changed other than
	// by shopt -s/-u (set -o posix, GLOBIGNORE), bashOptsSnap true: bash
	// updates it only there (set_bashopts). llmsh.
	bashOpts     string
	bashOptsSnap bool

	origDir    string
	origParams []string
	origOpts   runnerOpts
	origStdin  stdinFile
	origStdout io.Writer
	// llmsh: origStdinSrc is the InputFile that StdIO gave (sharedin.go),
	// which Reset keeps with origStdin.
	origStdinSrc InputFile

	// llmsh: subst is the command substitution the runner runs in (its
	// subshells and jobs too), nil outside one (jobs.go, substJobs).
	subst *substJobs
	// llmsh: pexec counts the texts bash runs by parse_and_execute
	// around the running command: eval strings, sourced files, the
	// shell of a command substitution itself (not its subshells). A
	// line abandoned there with status 2 (${a[@]:=x}) has status 1,
	// as in bash -c's own shell.
	pexec      int
	origStderr io.Writer

	// Most scripts don't use pushd/popd, so make space for the initial PWD
	// without requiring an extra allocation.
	dirStack     []string
	dirBootstrap [1]string

	optState getopts

	// keepRedirs is set by "exec" so that its statement's redirections
	// apply to the current shell, and not just the command.
	// It is consumed by the enclosing statement once it finishes.
	keepRedirs bool

	// llmsh: the descriptor table (fds.go). fds holds descriptors 3 and
	// up; execClosers the files that exec opened as stdin, stdout or
	// stderr, and execHeld the descriptors that exec made them copies
	// of, both let go when the (sub)shell ends. persist is set while a
	// redirection whose descriptor may outlive its command is opened.
	fds map[int]*fdObj
	// declBuiltin: the next DeclClause is the builtin reached by name
	// (builtin declare), which a function of its name does not answer.
	// (llmsh)
	declBuiltin bool
	// letBuiltin: the same for the next LetClause (builtin let).
	letBuiltin bool

	// ranFile: a File ran since Reset; the first sets $_ (llmsh).
	ranFile bool

	// coprocs is the coprocess the shell tracks (llmsh; coproc.go).
	coprocs *coprocState

	// scriptHist is the history of a script: history -s adds to it
	// (llmsh; bashbuiltins.go).
	scriptHist []string
	// histLineOut says the entry of the line being run has given way to
	// one that history -s or fc -s added: the next ones add after it
	// (bash's hist_last_line_added; llmsh).
	histLineOut bool
	// histBase is the number of the script's history entries that
	// HISTSIZE dropped from its front: entry i is numbered histBase+i+1
	// (llmsh; scripthist.go).
	histBase int

	// condNot: the next traced term of [[ … ]] is under ! (llmsh).
	condNot bool
	// condReErr is set by a regular expression of [[ =~ ]] that does not
	// compile (status 2): bash reads it as a false term for || and !.
	condReErr   bool
	execClosers []io.Closer
	execHeld    []*fdObj
	// wordStd is where the statement running sent its output and errors
	// before its redirections: bash expands a command's words before it
	// redirects it, so a >(LIST) among them writes there (llmsh: the
	// list wrote to the shell's first stdout, whatever a function's,
	// subshell's, pipeline's or substitution's redirections had made
	// it). redirWord says a redirection's word is being expanded, whose
	// list sees the redirections before it, as bash's.
	wordStd   wordStd
	redirWord bool
	// psubJobs are the jobs of the >(LIST)s that this (sub)shell
	// started, which a subshell waits for when it ends (waitPsubs).
	psubJobs []*bgProc
	// stdSaves are the stdout and stderr that the redirections of the
	// statements running put back when they end (dropExecStd).
	stdSaves []io.Writer
	persist  bool
	// multiOut: the statement whose redirections are being made writes
	// more than one file; it holds those opened so far (llmsh;
	// stmtSync, redirFile).
	multiOut map[string]bool
	// docExternal (llmsh): the statement whose redirections are being
	// made runs a program, which bash forks before it expands a
	// here-document: an expansion error there ends only the child.
	docExternal bool

	// Fake signal callbacks
	callbackErr  string
	callbackExit string
	// holdExit keeps Run of a whole file from running the EXIT trap,
	// which RunExitTrap runs later (llmsh: HoldExitTrap).
	holdExit bool
	// llmsh: trap '' EXIT / ERR: set to nothing, which trap -p lists.
	exitIgnored, errIgnored bool
}

// exitStatus holds the state of the shell after running one command.
// Beyond the exit status code, it also holds whether the shell should return or exit,
// as well as any Go error values that should be given back to the user.
//
// TODO(v4): consider replacing ExitStatus with a struct like this,
// so that an [ExecHandlerFunc] can e.g. mimic `exit 0` or fatal errors
// with specific exit codes.
type exitStatus struct {
	// code is the exit status code.
	// When code is zero, err must be nil.
	code uint8

	// TODO: consider an enum, as only one of these should be set at a time
	returning bool // whether the current function `return`ed
	exiting   bool // whether the current shell is exiting
	fatalExit bool // whether the current shell is exiting due to a fatal error; err below must not be nil

	// llmsh: abandon is set with exiting by an expansion error: bash
	// abandons the command line it is reading (a script's, a sourced
	// file's, an eval string's) and goes on with the next one; in a
	// subshell or a command substitution, which read no lines, it ends
	// that shell. See readLines.
	abandon bool
	// llmsh: discard is set with abandon when the whole command line
	// that the top-level shell is reading is abandoned, from within eval
	// text and sourced files too (bash's jump_to_top_level DISCARD:
	// shift, exit, return, break, continue given too many arguments).
	discard bool
	// llmsh: noExit is set with abandon by bash's DISCARD errors (an
	// arithmetic error, too many arguments): set -e does not end the
	// shell for them, as it does for a bad substitution.
	noExit bool
	// llmsh: signaled is the signal that ended the shell (kill of its
	// own $BASHPID) or the command (a handler's [KilledStatus]), and
	// sigPid the pid it had, for the report (reportForeground).
	signaled uint8
	sigPid   int
	// llmsh: sigPrev is $? in the EXIT trap of a shell that signaled
	// ended: the status before the signal came (bash's), 0 after its
	// own kill.
	sigPrev uint8
	// llmsh: forceEOF is set with exiting by set -u's error or ${x:?}
	// (bash's FORCE_EOF): in the EXIT trap's action it ends the action
	// and the shell keeps the status it was leaving with.
	forceEOF bool

	// err holds the error information for a non-zero exit status code or fatal error.
	// Used so that running a single statement with a custom handler
	// which returns a non-fatal Go error, such as a Go error wrapping [NewExitStatus],
	// can be returned by [Runner.Run] without being lost entirely.
	err error
}

// leaveShell clears what ends only the shell that set it (exit, set -e,
// an abandoned line, return in a function's subshell) as a subshell
// ends (llmsh).
func (e *exitStatus) leaveShell() {
	e.exiting, e.abandon, e.discard, e.returning, e.noExit = false, false, false, false, false
}

// clear sets the exit status code and error to zero, as long as the exit status
// was not set by `return`, `exit`, or a fatal error.
func (e *exitStatus) clear() {
	if e.returning || e.exiting || e.fatalExit {
		return
	}
	e.code = 0
	e.err = nil
}

func (e *exitStatus) ok() bool { return e.code == 0 }

// oneIf sets the exit status code to 1 if b is true.
// Note that it assumes the exit status hasn't been set yet,
// meaning that [exitStatus.code] and [exitStatus.err] are zero values.
func (e *exitStatus) oneIf(b bool) {
	if b {
		e.code = 1
	}
}

func (e *exitStatus) fatal(err error) {
	if e.fatalExit || err == nil {
		return
	}
	e.exiting = true
	e.fatalExit = true
	e.err = err
	if e.code == 0 {
		e.code = 1
	}
}

func (e *exitStatus) fromHandlerError(err error) {
	if err == nil {
		return
	}
	if exit, ok := errors.AsType[errBuiltinExitStatus](err); ok {
		*e = exitStatus(exit)
	} else if es, ok := errors.AsType[ExitStatus](err); ok {
		e.err = err
		e.code = uint8(es)
	} else if ks, ok := errors.AsType[KilledStatus](err); ok && ks.Sig > 0 && ks.Sig < 128 {
		// llmsh: reported as bash reports a command a signal ended.
		e.code = uint8(128 + ks.Sig)
		e.err = ExitStatus(e.code)
		e.signaled, e.sigPid = uint8(ks.Sig), ks.Pid
	} else {
		e.fatal(err) // handler's custom fatal error
	}
}

type alias struct {
	blank bool
	// llmsh: the value as defined (alias prints it; aliasread.go puts
	// it in place of the word).
	value string
}

// New creates a new Runner, applying a number of options. If applying any of
// the options results in an error, it is returned.
//
// Any unset options fall back to their defaults. For example, not supplying the
// environment falls back to the process's environment, and not supplying the
// standard output writer means that the output will be discarded.
func New(opts ...RunnerOption) (*Runner, error) {
	r := &Runner{
		usedNew:        true,
		openHandler:    DefaultOpenHandler(),
		readDirHandler: DefaultReadDirHandler2(),
		statHandler:    DefaultStatHandler(),
		accessHandler:  DefaultAccessHandler(),
		llmsh:          newSession(),
	}
	r.dirStack = r.dirBootstrap[:0]
	// llmsh: bash's default state of every set and shopt option
	r.defaultOpts()

	for _, opt := range opts {
		if err := opt(r); err != nil {
			return nil, err
		}
	}

	// Set the default fallbacks, if necessary.
	if r.Env == nil {
		Env(nil)(r)
	}
	if r.Dir == "" {
		r.Dir = "/" // llmsh: never the process's directory
	}
	if r.stdout == nil || r.stderr == nil {
		StdIO(r.stdin, r.stdout, r.stderr)(r)
	}
	return r, nil
}

// RunnerOption can be passed to [New] to alter a [Runner]'s behaviour.
// It can also be applied directly on an existing Runner,
// such as interp.Params("-e")(runner) or interp.StdIO(nil, w, w)(runner).
//
// Note that [Env] and [Dir] only take effect the next time that the runner is
// reset, as [Runner.Reset] derives state from them, such as the variables and
// the value of PWD. Since running a node only resets a runner the first time
// around, applying either option after a run requires an explicit reset.
type RunnerOption func(*Runner) error

// TODO(v4): consider making [Env] and [Dir] fail when applied after a reset,
// rather than being silently held back until the next one.

// Env sets the interpreter's environment. If nil, the environment is
// empty. llmsh: never the process's environment (upstream copied
// [os.Environ]).
func Env(env expand.Environ) RunnerOption {
	return func(r *Runner) error {
		if env == nil {
			env = expand.ListEnviron()
		}
		r.Env = env
		return nil
	}
}

// Dir sets the interpreter's working directory, which must be an absolute
// path. If empty, it is "/". llmsh: the path is not looked up on the host
// (upstream used the process's directory for an empty path, made a
// relative path absolute against it, and stat'ed the result); the
// handlers decide what exists.
func Dir(path string) RunnerOption {
	return func(r *Runner) error {
		if path == "" {
			path = "/"
		}
		if !filepath.IsAbs(path) {
			return fmt.Errorf("interp.Dir: %q is not an absolute path", path)
		}
		r.Dir = filepath.Clean(path)
		return nil
	}
}

// Interactive configures the interpreter to behave like an interactive shell,
// akin to Bash. Currently, this only enables the expansion of aliases,
// but later on it should also change other behavior.
func Interactive(enabled bool) RunnerOption {
	return func(r *Runner) error {
		r.opts[optExpandAliases] = enabled
		return nil
	}
}

// TODO(v4): split the "set" options into [PosixOpts], mirroring [BashOpts],
// leaving Params for the positional parameters alone. Accepting both means that
// Params with user-supplied arguments can set options by accident.

// Params populates the shell options and parameters. For example, Params("-e",
// "--", "foo") will set the "-e" option and the parameters ["foo"], and
// Params("+e") will unset the "-e" option and leave the parameters untouched.
//
// This is similar to what the interpreter's "set" builtin does.
// See [BashOpts] for the Bash options which "set" cannot change.
func Params(args ...string) RunnerOption {
	return func(r *Runner) error {
		fp := flagParser{remaining: args}
		for fp.more() {
			flag := fp.flag()
			if flag == "-" || flag == "+" {
				if flag == "-" {
					// Bash turns off the -x and -v options; note that
					// we don't support the -v option at all.
					r.opts[optXTrace] = false
				}
				if args := fp.args(); len(args) > 0 {
					r.Params, r.shiftDropped = args, 0
					r.paramsGen++ // llmsh: see TrackSets
				}
				return nil
			}
			enable := flag[0] == '-'
			if flag[1] != 'o' {
				opt := r.posixOptByFlag(flag[1])
				if opt == nil {
					return fmt.Errorf("%s: invalid option\nset: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]", flag)
				}
				if !optAllowed(r.optIndex(opt), enable) {
					return fmt.Errorf("%s: not supported by llmsh", flag)
				}
				*opt = enable
				continue
			}
			value := fp.value()
			if value == "" {
				// llmsh: set -o and set +o list as bash
				r.printSetOpts(!enable)
				continue
			}
			opt := r.posixOptByName(value)
			if opt == nil {
				return fmt.Errorf("%s: invalid option name", value)
			}
			if !optAllowed(r.optIndex(opt), enable) {
				return fmt.Errorf("-o %s: not supported by llmsh", value)
			}
			*opt = enable
			r.editMode(r.optIndex(opt), enable)
			if value == "posix" {
				// At New (bash -o posix, --posix) there are no
				// variables yet: posixMode leaves POSIXLY_CORRECT to
				// Reset (setting it there panicked). llmsh.
				r.posixMode(enable)
			}
			if value == "ignoreeof" && r.writeEnv != nil {
				r.ignoreEOFMode(enable) // llmsh: specialvars.go
			}
		}
		if args := fp.args(); args != nil {
			// If "--" wasn't given and there were zero arguments,
			// we don't want to override the current parameters.
			r.Params, r.shiftDropped = args, 0
			r.paramsGen++ // llmsh: see TrackSets

			// Record whether a sourced script sets the parameters:
			// llmsh: not inside a function, where bash's
			// set_dollar_vars_changed marks the function's
			// arguments, so that source gives its caller's back.
			if r.inSource && !r.inFunc {
				r.sourceSetParams = true
			}
		}
		return nil
	}
}

// BashOpts sets or unsets Bash shell options. For example,
// BashOpts("-s", "extglob", "globstar") sets both the "extglob" and "globstar"
// options, and BashOpts("-u", "extglob") unsets "extglob" alone.
//
// Just like the builtin, "-o" restricts the names to the POSIX options,
// which [Params] can set as well.
//
// This is similar to what the interpreter's "shopt" builtin does, except that
// no arguments is a no-op rather than printing all options.
func BashOpts(args ...string) RunnerOption {
	return func(r *Runner) error {
		mode := ""
		posixOpts := false
		fp := flagParser{remaining: args}
		for fp.more() {
			switch flag := fp.flag(); flag {
			case "-s", "-u":
				mode = flag
			case "-o":
				posixOpts = true
			default:
				return fmt.Errorf("invalid option: %q", flag)
			}
		}
		names := fp.args()
		if len(names) > 0 && mode == "" {
			return fmt.Errorf("either -s or -u must be given to set or unset options")
		}
		for _, name := range names {
			opt, supported := (*bool)(nil), true
			if posixOpts {
				opt = r.posixOptByName(name)
			} else {
				opt, supported = r.bashOptByName(name)
			}
			if opt == nil {
				return fmt.Errorf("invalid option name: %q", name)
			}
			if !supported {
				return fmt.Errorf("unsupported option: %q", name)
			}
			*opt = mode == "-s"
		}
		if r.didReset {
			// Some options affect expansion; before the first reset,
			// the reset itself takes care of this.
			r.updateExpandOpts()
		}
		return nil
	}
}

// CallHandler sets the call handler. See [CallHandlerFunc] for more info.
func CallHandler(f CallHandlerFunc) RunnerOption {
	return func(r *Runner) error {
		r.callHandler = f
		return nil
	}
}

// ExecHandler sets one command execution handler,
// which replaces [DefaultExecHandler](2 * time.Second).
//
// Deprecated: use [ExecHandlers] instead, which allows chaining handlers more easily
// like middleware functions.
func ExecHandler(f ExecHandlerFunc) RunnerOption {
	return func(r *Runner) error {
		r.execHandler = f
		return nil
	}
}

// ExecHandlers appends middlewares to handle command execution.
// The middlewares are chained from first to last, and the first is called by the runner.
// Each middleware is expected to call the "next" middleware at most once.
//
// For example, a middleware may implement only some commands.
// For those commands, it can run its logic and avoid calling "next".
// For any other commands, it can call "next" with the original parameters.
//
// Another common example is a middleware which always calls "next",
// but runs custom logic either before or after that call.
// For instance, a middleware could change the arguments to the "next" call,
// or it could print log lines before or after the call to "next".
//
// The last exec handler is always [DefaultExecHandler](2 * time.Second).
func ExecHandlers(middlewares ...func(next ExecHandlerFunc) ExecHandlerFunc) RunnerOption {
	return func(r *Runner) error {
		r.execMiddlewares = append(r.execMiddlewares, middlewares...)
		return nil
	}
}

// TODO: consider porting the middleware API in [ExecHandlers] to [OpenHandler],
// [ReadDirHandler2], and [StatHandler].

// TODO(v4): now that [ExecHandlers] allows calling a next handler with changed
// arguments, one of the two advantages of [CallHandler] is gone. The other is the
// ability to work with builtins; if we make [ExecHandlers] work with builtins, we
// could join both APIs.

// OpenHandler sets file open handler. See [OpenHandlerFunc] for more info.
func OpenHandler(f OpenHandlerFunc) RunnerOption {
	return func(r *Runner) error {
		r.openHandler = f
		return nil
	}
}

// ReadDirHandler sets the read directory handler. See [ReadDirHandlerFunc] for more info.
//
// Deprecated: use [ReadDirHandler2].
func ReadDirHandler(f ReadDirHandlerFunc) RunnerOption {
	return func(r *Runner) error {
		r.readDirHandler = func(ctx context.Context, path string) ([]fs.DirEntry, error) {
			infos, err := f(ctx, path)
			if err != nil {
				return nil, err
			}
			entries := make([]fs.DirEntry, len(infos))
			for i, info := range infos {
				entries[i] = fs.FileInfoToDirEntry(info)
			}
			return entries, nil
		}
		return nil
	}
}

// ReadDirHandler2 sets the read directory handler. See [ReadDirHandlerFunc2] for more info.
func ReadDirHandler2(f ReadDirHandlerFunc2) RunnerOption {
	return func(r *Runner) error {
		r.readDirHandler = f
		return nil
	}
}

// StatHandler sets the stat handler. See [StatHandlerFunc] for more info.
func StatHandler(f StatHandlerFunc) RunnerOption {
	return func(r *Runner) error {
		r.statHandler = f
		return nil
	}
}

// AccessHandler sets the file access handler. See [AccessHandlerFunc] for more info.
func AccessHandler(f AccessHandlerFunc) RunnerOption {
	return func(r *Runner) error {
		r.accessHandler = f
		return nil
	}
}

// StdIO configures an interpreter's standard input, standard output, and
// standard error. If out or err are nil, they default to a writer that discards
// the output.
//
// Note that providing a non-nil standard input other than [*os.File] will require
// an [os.Pipe] and spawning a goroutine to copy into it,
// as an [os.File] is the only way to share a reader with subprocesses.
// This may cause the interpreter to consume the entire reader.
// See [os/exec.Cmd.Stdin].
//
// When providing an [*os.File] as standard input, consider using an [os.Pipe]
// as it has the best chance to support cancellable reads via [os.File.SetReadDeadline],
// so that cancelling the runner's context can stop a blocked standard input read.
//
// On js/wasm, where there are no subprocesses nor OS pipes, any reader is used
// directly, and read deadlines are not supported: cancelling the runner's
// context cannot stop a blocked standard input read.
func StdIO(in io.Reader, out, err io.Writer) RunnerOption {
	return func(r *Runner) error {
		if _err := r.setStdinTo(in); _err != nil {
			return _err
		}
		if out == nil {
			out = io.Discard
		}
		r.stdout = out
		if err == nil {
			err = io.Discard
		}
		r.stderr = err
		return nil
	}
}

// Reset returns a runner to its initial state, right before the first call to
// Run or Reset.
//
// Typically, this function only needs to be called if a runner is reused to run
// multiple programs non-incrementally. Not calling Reset between each run will
// mean that the shell state will be kept, including variables, options, and the
// current directory.
func (r *Runner) Reset() {
	if !r.usedNew {
		panic("use interp.New to construct a Runner")
	}
	if !r.didReset {
		r.origDir = r.Dir
		r.origParams = r.Params
		r.origOpts = r.opts
		r.origStdin = r.stdin
		r.origStdinSrc = r.stdinSrc // llmsh
		r.origStdout = r.stdout
		r.origStderr = r.stderr

		if r.execHandler != nil && len(r.execMiddlewares) > 0 {
			panic("interp.ExecHandler should be replaced with interp.ExecHandlers, not mixed")
		}
		if r.execHandler == nil {
			r.execHandler = DefaultExecHandler(2 * time.Second)
		}
		// Middlewares are chained from first to last, and each can call the
		// next in the chain, so we need to construct the chain backwards.
		for _, mw := range slices.Backward(r.execMiddlewares) {
			r.execHandler = mw(r.execHandler)
		}
	}
	// reset the internal state
	*r = Runner{
		Env:            r.Env,
		llmsh:          r.llmsh,
		jobCtx:         r.jobCtx, // llmsh: SetJobContext outlasts Reset
		bashPid:        r.llmsh.pid,
		callHandler:    r.callHandler,
		execHandler:    r.execHandler,
		openHandler:    r.openHandler,
		readDirHandler: r.readDirHandler,
		statHandler:    r.statHandler,
		accessHandler:  r.accessHandler,

		// These can be set by functions like [Dir] or [Params], but
		// builtins can overwrite them; reset the fields to whatever the
		// constructor set up.
		Dir:    r.origDir,
		Params: r.origParams,
		opts:   r.origOpts,
		stdin:  r.origStdin,
		stdout: r.origStdout,
		stderr: r.origStderr,
		// llmsh: a stdin that is an InputFile (sh -c CMD < FILE) stays
		// one; without it the runner read its empty stand-in pipe.
		stdinSrc: r.origStdinSrc,

		origDir:      r.origDir,
		origParams:   r.origParams,
		origOpts:     r.origOpts,
		origStdin:    r.origStdin,
		origStdinSrc: r.origStdinSrc,
		origStdout:   r.origStdout,
		origStderr:   r.origStderr,

		// emptied below, to reuse the space
		Vars: r.Vars,

		dirStack: r.dirStack[:0],
		usedNew:  r.usedNew,

		fds: r.fds, // llmsh: what InheritFds gave (fds.go)

		// llmsh: TrackSets outlasts the Reset of a Run's start (the
		// first Run of the llmsh command: its script's variables went
		// untracked, so a run over its memory bound unset none); what
		// Reset stores is not recorded (see below).
		sets: r.sets,
	}
	// Ensure we stop referencing any pointers before we reuse bgProcs.
	clear(r.bgProcs)
	r.bgProcs = r.bgProcs[:0]
	r.lastBgPid = 0
	r.curJob, r.prevJob, r.jobMarks = nil, nil, false

	if r.Vars == nil {
		r.Vars = make(map[string]expand.Variable)
	} else {
		clear(r.Vars)
	}
	// TODO(v4): Use the supplied Env directly if it implements enough methods.
	// llmsh: what Reset itself stores (UID, PWD, IFS…) is not the
	// Run's to have unset: TrackSets records from its end.
	top := &overlayEnviron{parent: r.Env}
	r.writeEnv = top
	defer func() { top.sets = r.sets }()
	// llmsh: HOME is what the environment says; unset, it stays unset
	// (upstream read the host's user database).
	if !r.writeEnv.Get("UID").IsSet() {
		r.setVar("UID", expand.Variable{
			Set:      true,
			Kind:     expand.String,
			ReadOnly: true,
			Str:      strconv.Itoa(r.llmsh.uid),
		})
	}
	if !r.writeEnv.Get("EUID").IsSet() {
		r.setVar("EUID", expand.Variable{
			Set:      true,
			Kind:     expand.String,
			ReadOnly: true,
			Str:      strconv.Itoa(r.llmsh.uid),
		})
	}
	// llmsh: bash exports PWD, and OLDPWD, unset, when the environment
	// has none.
	r.setVar("PWD", expand.Variable{Set: true, Kind: expand.String, Exported: true, Str: r.Dir})
	if !r.writeEnv.Get("OLDPWD").Declared() {
		r.setVar("OLDPWD", expand.Variable{Kind: expand.String, Exported: true})
	}
	r.setVarString("IFS", " \t\n")
	// llmsh: bash's declare -i OPTIND (OPTIND=1+1 is 2).
	r.setVar("OPTIND", expand.Variable{Set: true, Kind: expand.String, Integer: true, Str: "1"})
	r.resetSpecialVars() // llmsh: specialvars.go
	r.importShellOpts()  // llmsh: options.go
	if r.writeEnv.Get("POSIXLY_CORRECT").IsSet() && !r.opts[optPosix] {
		// llmsh: bash starts in posix mode when the environment has
		// it (sv_strict_posix), $BASHOPTS saying so.
		r.strictPosix(true)
		r.bashOpts = r.optsOn(true)
	}
	if r.opts[optPosix] && !r.writeEnv.Get("POSIXLY_CORRECT").IsSet() {
		// llmsh: started in posix mode (bash --posix, -o posix), as
		// set -o posix would have said it.
		r.setVarString("POSIXLY_CORRECT", "y")
	}
	if !r.writeEnv.Get("PS4").IsSet() {
		r.setVarString("PS4", "+ ") // llmsh: bash's default
	}

	r.dirStack = append(r.dirStack, r.Dir)
	r.importFuncs() // llmsh: BASH_FUNC_f%% (funcenv.go)
	for name := range r.llmsh.entryIgnored {
		if r.traps == nil {
			r.traps = make(map[string]string)
		}
		r.traps[name] = "" // llmsh: traps.go
	}

	r.didReset = true
}

// ExitStatus is a non-zero status code resulting from running a shell node.
// llmsh: a [CallHandler] that returns one answers the command itself:
// nothing runs and the command's status is the ExitStatus (0 included).
type ExitStatus uint8

func (s ExitStatus) Error() string { return fmt.Sprintf("exit status %d", s) }

// KilledStatus is what a handler returns for a command that signal Sig
// ended, Pid its process id (a nested shell that killed itself): status
// 128+Sig, reported as bash reports a foreground job that a signal
// ended, "NAME: line N: PID Killed  CMD" or "Terminated" (llmsh).
type KilledStatus struct{ Sig, Pid int }

func (s KilledStatus) Error() string { return fmt.Sprintf("killed by signal %d", s.Sig) }

// NewExitStatus creates an error which contains the specified exit status code.
//
// Deprecated: use [ExitStatus] directly.
//
//go:fix inline
func NewExitStatus(status uint8) error {
	return ExitStatus(status)
}

// IsExitStatus checks whether error contains an exit status and returns it.
//
// Deprecated: use [errors.As] with [ExitStatus] directly.
//
//go:fix inline
func IsExitStatus(err error) (status uint8, ok bool) {
	if es, ok := errors.AsType[ExitStatus](err); ok {
		return uint8(es), true
	}
	return 0, false
}

// Run interprets a node, which can be a [*File], [*Stmt], or [Command]. If a non-nil
// error is returned, it will typically contain a command's exit status, which
// can be retrieved with [IsExitStatus].
//
// Run can be called multiple times synchronously to interpret programs
// incrementally. To reuse a [Runner] without keeping the internal shell state,
// call Reset.
//
// Calling Run on an entire [*File] implies an exit, meaning that an exit trap may
// run.
func (r *Runner) Run(ctx context.Context, node syntax.Node) error {
	if !r.didReset {
		r.Reset()
	}
	if r.bashPid == r.llmsh.pid {
		if r.jobCtx == nil {
			// llmsh: jobs start from the Run's own context, not from
			// the one watchTop ends as Run returns: the embedder hangs
			// up the jobs still running (HangUp) and names them, which
			// it could not if they had been cancelled already.
			r.jobCtx = ctx
			defer func() { r.jobCtx = nil }()
		}
		// llmsh: the main shell can be sent a signal from its jobs
		// (kill $$), which may end it (signals.go).
		var stop func()
		ctx, stop = r.watchTop(ctx)
		defer stop()
	}
	r.fillExpandConfig(ctx)
	r.exit = exitStatus{}
	if !r.jobRun {
		r.filename = ""
	}
	switch node := node.(type) {
	case *syntax.File:
		r.filename = node.Name
		if !r.ranFile {
			// llmsh: $_ starts as bash's: _ from the environment, as
			// a parent shell exports it for the command it runs (a
			// nested bash: /usr/bin/bash), else the shell as invoked
			// (its argv[0]): llmsh, for a script file as for -c.
			r.ranFile, r.lastArg = true, shellName
			if vr := r.writeEnv.Get("_"); vr.Exported && vr.Kind == expand.String {
				r.lastArg, r.lastArgExported = vr.Str, true
			}
		}
		if r.cString && r.bashPid == r.llmsh.pid && !r.jobRun && r.noForkTail == nil && len(node.Stmts) > 0 {
			// llmsh: bash -c 'a; b' execs b (NoForkExec).
			r.setNoForkTail(node.Stmts, r.llmsh.ppid, true, redirsNever)
		}
		r.pendingHdocs = node.UnclosedHdocs // llmsh: warned when reached
		r.linesRead = 0                     // llmsh: set -v
		r.histRead = 0                      // llmsh: set -o history
		r.readOn, r.aliasEnd = false, 0
		r.readStmts(ctx, node.Stmts, true, r.topSyntaxError, node != r.readFile)
		r.pendingHdocs, r.readFile = nil, nil
	case *syntax.Stmt:
		r.stmt(ctx, node)
		// llmsh: an expansion error abandoned the statement's line; the
		// caller reads the lines (Abandoned) and the shell goes on.
		r.abandoned = r.exit.abandon
		if r.abandoned && (!r.opts[optErrExit] || r.exit.noExit) {
			r.exit.exiting = false
		}
		r.exit.abandon, r.exit.discard, r.exit.noExit = false, false, false
	case syntax.Command:
		r.cmd(ctx, node)
	default:
		return fmt.Errorf("node can only be File, Stmt, or Command: %T", node)
	}
	r.pendingAtEnd(ctx) // llmsh: jobsig.go
	if sig := r.topFatal(); sig != 0 && r.bashPid == r.llmsh.pid {
		// Ended by a signal from one of its jobs: status 128+N, and
		// the EXIT trap runs, as in bash (not for SIGKILL).
		r.exit = exitStatus{code: uint8(128 + sig), exiting: true, signaled: uint8(sig), sigPrev: r.lastExit.code}
		if sig == sigKILL {
			r.callbackExit = ""
		}
		ctx = context.WithoutCancel(ctx)
	}
	r.deferBarrier(&r.exit) // llmsh: deferred.go
	// A bare Command bypasses stmt, which normally updates lastExit.
	r.lastExit = r.exit
	r.killedBy = 0 // llmsh: KilledBy
	if r.exit.exiting {
		r.killedBy = r.exit.signaled
	}
	// Running an entire file implies an exit; a statement or command
	// only exits the shell via the exit builtin, errexit, and so on.
	if _, ok := node.(*syntax.File); ok && !r.holdExit && !r.readOn || r.exit.exiting {
		if !r.exitTrapLost || r.exit.signaled != 0 {
			r.trapCallback(ctx, r.callbackExit, "exit")
		}
		r.callbackExit = "" // llmsh: it runs once (a job's subshellExit)
		r.stackMain = stackLive
	}
	// llmsh: Vars is no longer filled with every variable at the end of
	// each Run (VarsNow builds it when asked).
	// Return the first of: a fatal error, a non-fatal handler error, or the exit code.
	if err := r.exit.err; err != nil {
		if r.exit.code == 0 {
			// This should never happen; too much code relies on checking [exitStatus.code]
			// to see if the last command succeeded or failed. [exitStatus.err] should only be
			// additional information, so fail loudly if the invariant is broken.
			panic("ended up with a non-nil exitStatus.err but a zero exitStatus.code")
		}
		return err
	}
	if code := r.exit.code; code != 0 {
		return ExitStatus(code)
	}
	return nil
}

// Exited reports whether the last Run call should exit an entire shell. This
// can be triggered by the "exit" built-in command, for example.
//
// Note that this state is overwritten at every Run call, so it should be
// checked immediately after each Run call.
func (r *Runner) Exited() bool {
	return r.exit.exiting
}

// Subshell makes a copy of the given [Runner], suitable for use concurrently
// with the original. The copy will have the same environment, including
// variables and functions, but they can all be modified without affecting the
// original.
//
// Subshell is not safe to use concurrently with [Run]. Orchestrating this is
// left up to the caller; no locking is performed.
//
// To replace e.g. stdin/out/err, do [StdIO](r.stdin, r.stdout, r.stderr)(r) on
// the copy.
func (r *Runner) Subshell() *Runner {
	return r.subshell(true)
}

// subshell is like [Runner.subshell], but allows skipping some allocations and copies
// when creating subshells which will not be used concurrently with the parent shell.
// TODO(v4): we should expose this, e.g. SubshellForeground and SubshellBackground.
func (r *Runner) subshell(background bool) *Runner {
	return r.subshellJobs(background, true)
}

// subshellJobs is subshell; a forked child without the parent's jobs
// (a job's, a coprocess's, as in bash) does not list them (llmsh: a job
// starts in O(1), not a copy of the table).
func (r *Runner) subshellJobs(background, jobs bool) *Runner {
	if !r.didReset {
		r.Reset()
	}
	r.syncInput() // llmsh: bash forks
	// Keep in sync with the Runner type. Manually copy fields, to not copy
	// sensitive ones like [errgroup.Group], and to do deep copies of slices.
	r2 := &Runner{
		Dir:            r.Dir,
		llmsh:          r.llmsh,
		bashPid:        r.llmsh.newPid(),
		forkParent:     r.bashPid,
		parenSub:       r.parenSub,
		thisCmd:        r.thisCmd,
		Params:         r.Params,
		callHandler:    r.callHandler,
		execHandler:    r.execHandler,
		openHandler:    r.openHandler,
		readDirHandler: r.readDirHandler,
		statHandler:    r.statHandler,
		accessHandler:  r.accessHandler,
		stdin:          r.stdin,
		stdinSrc:       r.stdinSrc,
		stdinWO:        r.stdinWO,
		fileStdin:      r.fileStdin,
		stdout:         r.stdout,
		stderr:         r.stderr,
		filename:       r.filename,
		arg0:           r.arg0,
		arg0Set:        r.arg0Set,
		argv0Gone:      r.argv0Gone,
		aliasesGone:    r.aliasesGone,
		cmdsGone:       r.cmdsGone,
		dynGone:        maps.Clone(r.dynGone),
		dynExported:    maps.Clone(r.dynExported),
		cString:        r.cString,
		sourceName:     r.sourceName,
		lineBase:       r.lineBase, // llmsh: with text (callstack.go)
		killLine:       r.killLine,
		substLines:     r.substLines,
		substBase:      r.substBase,
		opts:           r.opts,
		bashOpts:       r.bashOpts,
		bashOptsSnap:   r.bashOptsSnap,
		noErrExit:      r.noErrExit, // llmsh: an ignored context holds in subshells
		errexitOff:     r.errexitOff,
		traceLevel:     r.traceLevel,
		usedNew:        r.usedNew,
		exit:           r.exit,
		lastExit:       r.lastExit,

		origStdout: r.origStdout, // used for process substitutions
		subst:      r.subst,      // llmsh: jobs that hold a $( )'s output
		trapsOff:   r.trapsOff,   // llmsh: SetTrapsOff

		inTrap:          r.inTrap,
		inDebug:         r.inDebug,                 // llmsh
		discardFails:    r.discardFails,            // llmsh
		readsPipe:       r.readsPipe,               // llmsh
		condBroken:      r.condBroken,              // llmsh
		condFirstWord:   r.condFirstWord,           // llmsh
		bangWord:        r.bangWord,                // llmsh
		parenArith:      r.parenArith,              // llmsh
		parenCmd:        r.parenCmd,                // llmsh
		inFunc:          r.inFunc,                  // llmsh: return ends a function's subshell
		localOpts:       r.localOpts,               // llmsh: local -p lists local -
		lastArg:         r.lastArg,                 // $_
		lastArgExported: r.lastArgExported,         // llmsh: declare -p _
		lastBgPid:       r.lastBgPid,               // llmsh: $!
		births:          r.births,                  // llmsh: expand.Variable.Born
		tempVars:        maps.Clone(r.tempVars),    // llmsh
		scriptHist:      slices.Clip(r.scriptHist), // llmsh: an append copies it
		histBase:        r.histBase,
		subshellLevel:   r.subshellLevel + 1,
		inSource:        r.inSource,    // …and a sourced file's
		inErrTrap:       r.inErrTrap,   // llmsh: no ERR trap in a subshell of its action
		errTrapLine:     r.errTrapLine, // llmsh: see errTrapLine
		secondsBase:     r.secondsBase, // llmsh: $SECONDS counts on
		secondsRead:     r.secondsRead,
		secondsAssigned: r.secondsAssigned,
		cmdNumber:       r.cmdNumber,
		xtraceFd:        r.xtraceFd,
		xtraceSet:       r.xtraceSet,
		traceWait:       r.traceWait, // llmsh: its pipeline element's
		traceDone:       r.traceDone,
		frames:          r.frames, // llmsh: shared, never changed (callstack.go)
		mainArgs:        r.mainArgs,
		mainArgsSet:     r.mainArgsSet,
		text:            r.text,
		umask:           r.umask,
		curCmd:          r.curCmd,
		curRedirs:       r.curRedirs,
		curText:         r.curText,
		curSrc:          r.curSrc,
		liveRedirs:      slices.Clone(r.liveRedirs),
		stdinRedir:      r.stdinRedir,
		gate:            r.gate, // llmsh: it stops with its job (jobstop.go)
	}
	r.subshellTraps(r2) // llmsh: traps.go
	r.forkFds(r2)       // llmsh: fds.go
	if jobs && (len(r.bgProcs) > 0 || len(r.inheritedJobs) > 0) {
		r2.inheritedJobs = r.tableJobs() // llmsh: jobs.go
		r2.seenEnded = r.seenEnded
	}
	r2.writeEnv = newOverlayEnviron(r.writeEnv, background)
	// Funcs are copied, since they might be modified.
	r2.Funcs = maps.Clone(r.Funcs)
	r2.funcDefs = maps.Clone(r.funcDefs)
	r2.funcAttrs = maps.Clone(r.funcAttrs)
	r2.Vars = make(map[string]expand.Variable)
	r2.alias = maps.Clone(r.alias)
	r2.disabled = maps.Clone(r.disabled)   // llmsh
	r2.hashed = maps.Clone(r.hashed)       // llmsh
	r2.hashHits = maps.Clone(r.hashHits)   // llmsh
	r2.compSpecs = maps.Clone(r.compSpecs) // llmsh: compopt copies a spec it changes

	r2.dirStack = append(r2.dirBootstrap[:0], r.dirStack...)
	r2.fillExpandConfig(r.ectx)
	r2.didReset = true
	return r2
}

// VarsNow returns the shell's variables as they stand (llmsh): what Vars
// held after each Run upstream. Before the first Run it is empty.
func (r *Runner) VarsNow() map[string]expand.Variable {
	m := map[string]expand.Variable{}
	if r.writeEnv != nil {
		maps.Insert(m, r.writeEnv.Each)
	}
	return m
}
