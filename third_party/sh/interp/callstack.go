// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// bash's call stack: FUNCNAME, BASH_SOURCE and BASH_LINENO, and $LINENO
// in eval text, sourced files, trap actions and functions defined in
// them. See LLMSH.md.

import (
	"slices"
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// callFrame is one entry of the call stack: a function being run, or a
// file being sourced.
type callFrame struct {
	name   string // FUNCNAME: the function's name, or "source"
	file   string // BASH_SOURCE: the file the running code comes from
	line   int    // BASH_LINENO: the line of the call, in the caller
	isFunc bool
	// args are the function's arguments, for BASH_ARGV and BASH_ARGC:
	// as bash, a function's frame has them when extdebug was on as it
	// was called (hasArgs).
	args    []string
	hasArgs bool
}

// frameNode is the call stack as a list, the innermost frame first: a
// frame is never changed once pushed, so a subshell shares its parent's
// stack (copying it cost a job started d levels deep O(d) time and
// memory, most of what a fork bomb's jobs used). llmsh.
type frameNode struct {
	callFrame
	up    *frameNode
	depth int // frames from the bottom, this one included
	funcs int // the function frames among them
}

// len is the number of frames; n may be nil.
func (n *frameNode) len() int {
	if n == nil {
		return 0
	}
	return n.depth
}

// funcDef is where a function was defined: the file (its BASH_SOURCE)
// and the text it was parsed from.
type funcDef struct {
	file string
	line int // the line of the definition (declare -F under extdebug)
	text textPlace
}

// textPlace is the text that runs: its source, when the runner knows it
// (eval text, a sourced file, a trap's action, a script given to
// [Runner.SetSource]), and the number added to its lines for $LINENO
// (eval text is numbered from the line of the eval).
type textPlace struct {
	lineOffset int
	src        string
	// locale is the locale the line running was read in (llmsh): see
	// expand.Config.ParseLocale, which it sets.
	locale uint8
}

// SetSource gives the runner the source text that the next nodes given to
// Run were parsed from: declare -f and type then print the functions it
// defines from that text, as it was written (an embedder may have changed
// the tree since).
func (r *Runner) SetSource(src string) {
	if !r.didReset {
		r.Reset()
	}
	r.setText(textPlace{src: src})
}

// SetSourceAt is SetSource for text that starts after line lines of its
// script (llmsh: a script read from standard input, a command at a time):
// $LINENO, the callers' lines and error messages count from there.
func (r *Runner) SetSourceAt(src string, line int) {
	if !r.didReset {
		r.Reset()
	}
	r.setText(textPlace{lineOffset: line, src: src})
}

// writtenBody returns the body of function name as its text was written,
// parsed again from that text, or nil when the runner does not have it.
func (r *Runner) writtenBody(name string, body *syntax.Stmt) (*syntax.Stmt, string) {
	src := r.funcDefs[name].text.src
	start, end := int(body.Pos().Offset()), int(body.End().Offset())
	if src == "" || start >= end || end > len(src) {
		return nil, ""
	}
	text := src[start:end]
	if hdEnd := hdocsEnd(body); hdEnd > end && hdEnd <= len(src) {
		// llmsh: here-documents whose bodies follow the body's line
		// (f() { cat <<EOF; }): their lines come with it.
		if nl := strings.IndexByte(src[end:], '\n'); nl >= 0 && end+nl < hdEnd {
			stop := len(src)
			if i := strings.IndexByte(src[hdEnd:], '\n'); i >= 0 {
				stop = hdEnd + i
			}
			text += src[end+nl : stop]
		}
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(text), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil, ""
	}
	return f.Stmts[0], text
}

// hdocsEnd is where the last here-document body of node ends in its
// source, 0 when it has none.
func hdocsEnd(node syntax.Node) int {
	end := 0
	syntax.Walk(node, func(n syntax.Node) bool {
		if rd, ok := n.(*syntax.Redirect); ok && rd.Hdoc != nil {
			end = max(end, int(rd.Hdoc.End().Offset()))
		}
		return true
	})
	return end
}

// noFileSource is BASH_SOURCE for a function that bash -c defines: bash
// names it so.
const noFileSource = "environment"

// ScriptName names the script file that the runner runs: the bottom of
// BASH_SOURCE, with "main" at the bottom of FUNCNAME and 0 at the bottom
// of BASH_LINENO, as bash running a file. Without it the runner is as
// bash -c: FUNCNAME holds the functions only and BASH_SOURCE is unset at
// the top.
func ScriptName(name string) RunnerOption {
	return func(r *Runner) error {
		r.llmsh.scriptName = name
		return nil
	}
}

// curFile is the file the running code comes from.
func (r *Runner) curFile() string {
	if r.frames != nil {
		return r.frames.file
	}
	if r.llmsh.scriptName != "" {
		return r.llmsh.scriptName
	}
	if strings.HasSuffix(r.llmsh.invocation, "s") {
		return stdinSource // a script on stdin, or the prompt's lines
	}
	return noFileSource
}

// stdinSource is BASH_SOURCE for a function that a script read from
// standard input defines (or one typed at the prompt): bash names it so.
const stdinSource = "main"

// defineFunc records where function name was defined.
func (r *Runner) defineFunc(name string) {
	if r.funcDefs == nil {
		r.funcDefs = make(map[string]funcDef, 4)
	}
	r.funcDefs[name] = funcDef{file: r.curFile(), line: r.line, text: r.text}
}

// pushFrame enters a function or a sourced file called at line (of the
// caller's text) and returns what popFrame needs.
func (r *Runner) pushFrame(f callFrame, t textPlace) (saved textPlace) {
	saved = r.text
	n := &frameNode{callFrame: f, up: r.frames, depth: r.frames.len() + 1}
	if r.frames != nil {
		n.funcs = r.frames.funcs
	}
	if f.isFunc {
		n.funcs++
	}
	r.frames = n
	r.setText(t)
	return saved
}

// popFrame leaves the frame that pushFrame entered.
func (r *Runner) popFrame(saved textPlace) {
	r.frames = r.frames.up
	r.setText(saved)
}

// setText sets the text running.
func (r *Runner) setText(t textPlace) {
	r.text = t
	// llmsh: error messages' "line N" (llmsh.go); a $( ) of a
	// here-document counts from the command's line, above its own, so
	// the offset may be below 0: lineBase then wraps, and lineBase plus
	// a line of the text is that line less the offset.
	r.lineBase = uint(t.lineOffset)
	if r.ecfg != nil {
		r.ecfg.LineOffset = t.lineOffset
		r.ecfg.ParseLocale = t.locale
		r.ecfg.Text = t.src
	}
}

// noteParseLocale notes the locale in which a line of the text running is read
// (llmsh): bash decodes its $'…' strings then (expand.Config.ParseLocale),
// and a function defined on it keeps it (funcDef.text).
func (r *Runner) noteParseLocale() {
	r.text.locale = 1
	if expand.ByteLocale(r.writeEnv) {
		r.text.locale = 2
	}
	if r.ecfg != nil {
		r.ecfg.ParseLocale = r.text.locale
	}
}

// callStackVar computes FUNCNAME, BASH_SOURCE and BASH_LINENO. As in
// bash, FUNCNAME outside every function is a declared array with no
// value, BASH_SOURCE and BASH_LINENO at the top of bash -c are empty
// arrays, and an assignment to any of them changes nothing; ok is true.
func (r *Runner) callStackVar(name string) (vr expand.Variable, ok bool) {
	main := r.llmsh.scriptName != ""
	switch name {
	case "FUNCNAME":
		if !r.funcRunning() && !(r.stackMain != stackLive && main) {
			return expand.Variable{Kind: expand.Indexed}, true
		}
	case "BASH_ARGV", "BASH_ARGC":
		// llmsh: at the top of bash -c too, the positional
		// parameters' frame.
		return r.argStackVar(name), true
	default:
		if r.frames == nil && !main {
			return expand.Variable{Set: true, Kind: expand.Indexed}, true
		}
	}
	var hide *frameNode // llmsh: the frames bash unwound (stackUnwound)
	if r.stackMain == stackUnwound && main {
		hide = r.unwoundFrames
	}
	list := make([]string, 0, r.frames.len()+1)
	for f := r.frames; f != nil && (hide == nil || f != hide); f = f.up {
		switch name {
		case "FUNCNAME":
			list = append(list, f.name)
		case "BASH_SOURCE":
			list = append(list, f.file)
		default:
			list = append(list, strconv.Itoa(f.line))
		}
	}
	if main {
		switch name {
		case "FUNCNAME":
			list = append(list, "main")
		case "BASH_SOURCE":
			list = append(list, r.llmsh.scriptName)
		default:
			list = append(list, "0")
		}
	}
	return expand.Variable{Set: true, Kind: expand.Indexed, List: list}, true
}

// argStackVar computes BASH_ARGV (each frame's arguments, the last
// first, the innermost frame first) and BASH_ARGC (how many each frame
// has). As bash, the bottom frame holds the positional parameters of the
// time BASH_ARGV was first read outside a function or extdebug set
// (initMainArgs); before, it is not there. A
// function's frame is there when extdebug was on as it was called.
func (r *Runner) argStackVar(name string) expand.Variable {
	if !r.funcRunning() {
		r.initMainArgs() // bash takes them when read outside functions
	}
	var list []string
	add := func(args []string) {
		if name == "BASH_ARGC" {
			list = append(list, strconv.Itoa(len(args)))
			return
		}
		for i := len(args) - 1; i >= 0; i-- {
			list = append(list, args[i])
		}
	}
	for f := r.frames; f != nil; f = f.up {
		if f.hasArgs {
			add(f.args)
		}
	}
	if r.mainArgsSet {
		add(r.mainArgs)
	}
	if list == nil {
		list = []string{}
	}
	return expand.Variable{Set: true, Kind: expand.Indexed, List: list}
}

// funcRunning reports whether a function is on the call stack (bash's
// variable_context is not 0).
func (r *Runner) funcRunning() bool {
	return r.frames != nil && r.frames.funcs > 0
}

// initMainArgs takes the bottom frame's BASH_ARGV, once.
func (r *Runner) initMainArgs() {
	if !r.mainArgsSet {
		r.mainArgs, r.mainArgsSet = slices.Clone(r.Params), true
	}
}

// stackEnviron is the runner's environment with FUNCNAME, BASH_SOURCE
// and BASH_LINENO from the call stack, for the handlers. (One pointer:
// making it an interface allocates nothing.)
type stackEnviron struct{ r *Runner }

func (e stackEnviron) Get(name string) expand.Variable {
	switch name {
	case "FUNCNAME", "BASH_SOURCE", "BASH_LINENO", "BASH_ARGV", "BASH_ARGC":
		if e.r.dynGone[name] {
			break // llmsh: unset FUNCNAME is a plain variable
		}
		if vr, ok := e.r.callStackVar(name); ok {
			return vr
		}
	}
	return e.r.writeEnv.Get(name)
}

func (e stackEnviron) Each(f func(name string, vr expand.Variable) bool) {
	e.r.writeEnv.Each(f)
}

// evalLine is the line from which eval numbers its text: where the first
// argument of the command running ends, as bash's parser has read it then.
func (r *Runner) evalLine() int {
	if ce, ok := r.node.(*syntax.CallExpr); ok && len(ce.Args) > 1 {
		for i, w := range ce.Args[:len(ce.Args)-1] {
			if w.Lit() == "eval" {
				return int(ce.Args[i+1].End().Line()) + r.text.lineOffset
			}
		}
	}
	return int(r.lineEnd) // the line bash had read
}

// callerBuiltin is bash's caller: with no argument the line and file of
// the current call, "LINE FILE"; with N the frame N calls up, "LINE
// FUNCNAME FILE". An entry that is missing prints NULL (no argument) or
// fails (N). As bash's, it reads the stack as FUNCNAME, BASH_SOURCE and
// BASH_LINENO show it.
func (r *Runner) callerBuiltin(args []string) (exit exitStatus) {
	lines, _ := r.callStackVar("BASH_LINENO")
	files, _ := r.callStackVar("BASH_SOURCE")
	funcs, _ := r.callStackVar("FUNCNAME")
	if len(funcs.List) == 0 && r.frames != nil {
		// llmsh: bash's caller reads FUNCNAME's cells, which hold the
		// sourced files' frames ("source", then "main") where the
		// variable shows nothing outside functions.
		for f := r.frames; f != nil; f = f.up {
			funcs.List = append(funcs.List, f.name)
		}
		if r.llmsh.scriptName != "" {
			funcs.List = append(funcs.List, "main")
		}
	}
	if len(lines.List) == 0 || len(files.List) == 0 {
		exit.code = 1
		return exit
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	} else if len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		r.errf("%scaller: %s: invalid option\ncaller: usage: caller [expr]\n", r.errPrefix(), args[0][:2])
		exit.code = 2
		return exit
	}
	at := func(list []string, i int64) (string, bool) {
		if i < 0 || i >= int64(len(list)) {
			return "", false
		}
		return list[i], true
	}
	if len(args) == 0 {
		line, _ := at(lines.List, 0)
		file, ok := at(files.List, 1)
		if !ok {
			file = "NULL"
		}
		r.outf("%s %s\n", line, file)
		return exit
	}
	n, err := strconv.ParseInt(strings.TrimSpace(args[0]), 10, 64)
	if err != nil {
		r.errf("%scaller: %s: %s\ncaller: usage: caller [expr]\n", r.errPrefix(), args[0], invalidNum(args[0]))
		exit.code = 2
		return exit
	}
	if len(funcs.List) == 0 {
		exit.code = 1
		return exit
	}
	line, ok1 := at(lines.List, n)
	fn, ok2 := at(funcs.List, n+1)
	file, ok3 := at(files.List, n+1)
	if !ok1 || !ok2 || !ok3 {
		exit.code = 1
		return exit
	}
	r.outf("%s %s %s\n", line, fn, file)
	return exit
}

// funcNestExceeded reports whether calling function name would go deeper
// than $FUNCNEST allows; as bash, it then says so and abandons the command
// line with status 1 (bash's DISCARD: the script, an eval string or a
// sourced file goes on with its next line, set -e or not; a subshell
// ends).
func (r *Runner) funcNestExceeded(name string) bool {
	limit, err := strconv.Atoi(r.lookupVar("FUNCNEST").String())
	if err != nil || limit <= 0 {
		return false
	}
	depth := 0
	if r.frames != nil {
		depth = r.frames.funcs
	}
	if depth < limit {
		return false
	}
	r.errf("%s%s: maximum function nesting level exceeded (%d)\n", r.errPrefix(), name, limit)
	r.exit = exitStatus{code: 1, exiting: true, abandon: true, noExit: true}
	return true
}
