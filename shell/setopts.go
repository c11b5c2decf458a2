package shell

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// errtraceOn reports whether set -E (errtrace) is on in the shell of ctx;
// the option is the fork's own.
func errtraceOn(ctx context.Context) bool {
	return interp.HandlerCtx(ctx).ShellOption("errtrace")
}

// The ERR trap. interp runs it for every statement that ends with a
// failure where set -e is not ignored: for the failing command, again for
// each { }, if or function body that ends with it, and in functions,
// where bash runs it only under set -E (errtrace), and again for a
// statement the shell is already leaving (set -e, exit, return). The call
// handler gives interp the trap's action as
//
//	\x01errgate "$?" || {
//	ACTION
//	}
//
// The gate fails with the status (so ACTION runs and sees it as $?) only
// when bash would run the trap: not while the shell is leaving or a
// function is returning, and not in a function unless errtrace is on.
// `trap` and `trap -p` print the action as it was given.

const errGateCmd = "\x01errgate"

// errGatePrefix is the gate of the session (its key: see sessionState).
func (s *Shell) errGatePrefix() string { return errGateCmd + " " + s.state.gateKey + " \"$?\" || {\n" }

// wrapErrTrap gives interp the action of an ERR trap.
func (s *Shell) wrapErrTrap(action string) string { return s.errGatePrefix() + action + "\n}" }

// errBodyCmd STATUS ends the body of a function when set -E may be on
// (see funcNameStmt), followed by \x00loopst 0 "$_llmsh_ebst" && (( 1 )),
// which gives the body its status back: interp runs the ERR trap for the
// body (a { } that ends with the failing command, for which it already
// ran) and then for the call; bash runs it for the call only, and ends
// the shell under set -e there. errBodyCall, a statement of the body
// itself, sees whether set -e is ignored there; when the trap is about to
// run for the body, it tells the gate to skip that run and to let the
// next one (the call's) run even though interp is then leaving the shell.
const errBodyCmd = "\x00errbody"

const (
	errSkipVar   = "_llmsh_errskip"
	errStatusVar = "_llmsh_ebst"
)

// errBodyCall answers \x00errbody STATUS.
func (s *Shell) errBodyCall(ctx context.Context, args []string) []string {
	if len(args) != 2 {
		return statusArgs(2)
	}
	setShellVar(ctx, errStatusVar, expand.Variable{Set: true, Kind: expand.String, Str: args[1]})
	if env := interp.HandlerCtx(ctx).Env; args[1] != "0" && (errtraceOn(ctx) || trapSetHere(env)) {
		if r := currentRunner(ctx); r != nil {
			if !r.NoErrExit() && r.ErrTrap() != "" {
				state := "body"
				if !errtraceOn(ctx) && trapSetHere(env) && env.Get(errTrapPrevVar).Str == "0" {
					state = "body-nocall"
				}
				setShellVar(ctx, errSkipVar, expand.Variable{Set: true, Kind: expand.String, Str: state})
			}
		}
	}
	return s.statusCmd(ctx, 0)
}

// errTrapVar holds the ERR trap's action (unwrapped: the gate's key is
// no variable's), for errInheritCall.
const errTrapVar = "_llmsh_errtrap"

// errInheritCmd STATUS starts each ( … ) and $( … ) of a text that may
// turn on set -E, as \x01errinherit "$?" && (( 1 )): interp gives a
// subshell no ERR trap, bash gives it the shell's under errtrace.
const errInheritCmd = "\x01errinherit"

// errInheritCall answers \x01errinherit STATUS: it sets the ERR trap of
// the subshell's runner (Runner.SetErrTrap) and returns STATUS, the $? the
// subshell starts with.
func (s *Shell) errInheritCall(ctx context.Context, args []string) []string {
	if len(args) != 2 {
		return statusArgs(2)
	}
	st, _ := strconv.Atoi(args[1])
	env := interp.HandlerCtx(ctx).Env
	if cb := env.Get(errTrapVar).Str; cb != "" && errtraceOn(ctx) {
		cb = s.wrapErrTrap(cb)
		if r := currentRunner(ctx); r != nil && r != s.runner {
			r.SetErrTrap(cb)
		}
	}
	return statusArgs(st)
}

// errInherit starts the subshell or command substitution n with \x01errinherit (see above) when
// the text may turn on set -E.
func (r *rewriter) errInherit(n syntax.Node) {
	if f := r.facts; f != nil && !f.dynamic && !(f.errtrace && f.errTrap) {
		return
	}
	stmts := subshellStmts(n)
	if stmts == nil {
		return
	}
	if len(*stmts) == 0 || (*stmts)[0].Cmd == nil {
		return // nothing, or $(<FILE), which interp reads itself
	}
	for _, st := range *stmts {
		if !r.internal[st] {
			break
		}
		if b, ok := st.Cmd.(*syntax.BinaryCmd); ok && b.Op == syntax.AndStmt && isCall(b.X, errInheritCmd) {
			return // done
		}
	}
	if r.internal[(*stmts)[0]] && !isNoErrExit((*stmts)[0]) {
		return // the inner statement of a pipeline's last element (see pipeErrTrap)
	}
	pos := n.Pos()
	status := &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{paramExp("?")}}}}
	st := &syntax.Stmt{Position: pos, Cmd: &syntax.BinaryCmd{OpPos: pos, Op: syntax.AndStmt,
		X: &syntax.Stmt{Position: pos, Cmd: &syntax.CallExpr{Args: []*syntax.Word{litWord(errInheritCmd), status}}},
		Y: trueStmt(pos)}}
	r.markInternal(st)
	*stmts = append([]*syntax.Stmt{st}, *stmts...)
}

// pipeErrTrap: interp runs the last element of a pipeline in the shell
// itself, and so ran the ERR trap for a failing last element and again
// for the pipeline (true | false); bash runs each element in a subshell,
// which has the trap only under set -E. In a text that may set an ERR
// trap, the pre-pass runs the last element as ( … ) && (( 1 )), in a
// subshell as bash (then an assignment there does not reach the shell
// either: echo a | read x), and as an && list, for which interp runs no
// trap; and
// under set -E starts an element that is a { … } with \x01errinherit
// (a subshell already gets it).
func (r *rewriter) pipeErrTrap(st *syntax.Stmt) {
	f := r.facts
	if f != nil && !f.errTrap {
		return
	}
	bc, ok := st.Cmd.(*syntax.BinaryCmd)
	if !ok || bc.Op != syntax.Pipe && bc.Op != syntax.PipeAll {
		return
	}
	if y := bc.Y; !r.internal[y] {
		// ( Y ) && (( 1 )): the element's status, and interp runs no
		// trap for an && list (the subshell has its own set -e).
		inner := &syntax.Stmt{Position: y.Position, Cmd: y.Cmd, Redirs: y.Redirs, Negated: y.Negated}
		if _, simple := inner.Cmd.(*syntax.CallExpr); simple {
			// bash runs a simple command there without the trap,
			// even under set -E: errInherit leaves it alone.
			r.markInternal(inner)
		}
		sub := &syntax.Stmt{Position: y.Position, Cmd: &syntax.Subshell{Lparen: y.Position, Rparen: y.End(), Stmts: []*syntax.Stmt{inner}}}
		y.Cmd, y.Redirs, y.Negated = &syntax.BinaryCmd{OpPos: y.Position, Op: syntax.AndStmt, X: sub, Y: trueStmt(y.Position)}, nil, false
		r.markInternal(y)
	}
	if f != nil && !f.dynamic && !f.errtrace {
		return
	}
	for x := bc.X; x != nil; {
		elem := x
		if b, ok := x.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) {
			elem, x = b.Y, b.X
		} else {
			x = nil
		}
		if blk, ok := elem.Cmd.(*syntax.Block); ok {
			sub := &syntax.Subshell{Lparen: blk.Lbrace, Rparen: blk.Rbrace, Stmts: blk.Stmts, Last: blk.Last}
			r.errInherit(sub)
			blk.Stmts = sub.Stmts
		}
	}
}

// errTrapSrcVar is the ERR trap's action as the script gave it.
const errTrapSrcVar = "_llmsh_errtrapsrc"

// errLineVar is $LINENO in the ERR trap's action: bash gives the line of
// the failing command, interp the line in the trap's own text. The call
// handler keeps the line of the last command while an ERR trap may be
// set; the gate puts it in this variable, which replaces LINENO in the
// action (errTrapLineno).
const errLineVar = "_llmsh_errline"

// errLines is the line of the last command run at each depth of
// FUNCNAME: after a function call fails, the line of the call.
type errLines struct {
	mu    sync.Mutex
	lines []int
}

func funcDepth(ctx context.Context) int {
	fn := interp.HandlerCtx(ctx).Env.Get("FUNCNAME")
	if fn.Kind != expand.Indexed {
		return 0
	}
	return min(len(fn.List), 1000)
}

// note keeps the line of the command of ctx, unless a trap runs it.
func (e *errLines) note(ctx context.Context) {
	p := interp.HandlerCtx(ctx).Pos
	if !p.IsValid() {
		return
	}
	if r := currentRunner(ctx); r != nil && r.HandlingTrap() {
		return
	}
	d := funcDepth(ctx)
	e.mu.Lock()
	defer e.mu.Unlock()
	for len(e.lines) <= d {
		e.lines = append(e.lines, 0)
	}
	e.lines[d] = int(p.Line())
}

// at is the line of the last command at the depth of ctx.
func (e *errLines) at(ctx context.Context) int {
	d := funcDepth(ctx)
	e.mu.Lock()
	defer e.mu.Unlock()
	if d < len(e.lines) {
		return e.lines[d]
	}
	return 0
}

// errTrapLineno replaces $LINENO in action by $_llmsh_errline, or gives
// action back as it is when it does not parse.
func errTrapLineno(action string) string {
	if !strings.Contains(action, "LINENO") {
		return action
	}
	file, err := syntax.NewParser().Parse(strings.NewReader(action), "")
	if err != nil {
		return action
	}
	found := false
	syntax.Walk(file, func(n syntax.Node) bool {
		if pe, ok := n.(*syntax.ParamExp); ok && pe.Param != nil && pe.Param.Value == "LINENO" {
			pe.Param = &syntax.Lit{ValuePos: pe.Param.ValuePos, ValueEnd: pe.Param.ValueEnd, Value: errLineVar}
			pe.Short = false
			found = true
		}
		return true
	})
	if !found {
		return action
	}
	var b strings.Builder
	if err := syntax.NewPrinter().Print(&b, file); err != nil {
		return action
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// errGateCall answers \x01errgate KEY STATUS; without the session's key
// it is no command (see sessionState.gateKey).
func (s *Shell) errGateCall(ctx context.Context, args []string) []string {
	if len(args) < 2 || args[1] != s.state.gateKey {
		return notFound(args[0])
	}
	args = args[1:]
	if len(args) != 2 {
		return statusArgs(2)
	}
	st, _ := strconv.Atoi(args[1])
	setShellVar(ctx, errLineVar, expand.Variable{Set: true, Kind: expand.String, Str: strconv.Itoa(s.errLines.at(ctx))})
	if r := currentRunner(ctx); r != nil {
		env := interp.HandlerCtx(ctx).Env
		if r.LastReturning() {
			// return N (and the body it leaves): the trap runs for
			// the call, where interp's set -e has already acted.
			state := "call"
			if !errtraceOn(ctx) && trapSetHere(env) && env.Get(errTrapPrevVar).Str == "0" {
				state = "nocall"
			}
			setShellVar(ctx, errSkipVar, expand.Variable{Set: true, Kind: expand.String, Str: state})
			return statusArgs(0)
		}
		switch env.Get(errSkipVar).String() {
		case "body":
			setShellVar(ctx, errSkipVar, expand.Variable{Set: true, Kind: expand.String, Str: "call"})
			return statusArgs(0)
		case "body-nocall":
			setShellVar(ctx, errSkipVar, expand.Variable{Set: true, Kind: expand.String, Str: "nocall"})
			return statusArgs(0)
		case "nocall":
			setShellVar(ctx, errSkipVar, expand.Variable{Set: true, Kind: expand.String})
			return statusArgs(0)
		case "call":
			setShellVar(ctx, errSkipVar, expand.Variable{Set: true, Kind: expand.String})
			if r.InFunc() && !errtraceOn(ctx) && !trapSetHere(env) {
				return statusArgs(0)
			}
			return statusArgs(st)
		}
		if r.LastExiting() {
			return statusArgs(0)
		}

		if r.InFunc() && !errtraceOn(ctx) && !trapSetHere(env) {
			return statusArgs(0)
		}
	}
	return statusArgs(st)
}

// errTrapDepthVar holds, local to the function that set the ERR trap, the
// depth of FUNCNAME there: without set -E, bash runs the trap in the
// function that set it, not in the ones it calls.
const errTrapDepthVar = "_llmsh_errtrapdepth"

// errTrapPrevVar, local with errTrapDepthVar, is "1" when an ERR trap was
// set before the function set its own: bash runs the trap for the call
// of that function only then.
const errTrapPrevVar = "_llmsh_errtrapprev"

// trapSetHere reports whether the running function set the ERR trap.
func trapSetHere(env expand.Environ) bool {
	d := env.Get(errTrapDepthVar)
	if !d.IsSet() || d.Str == "" {
		return false
	}
	fn := env.Get("FUNCNAME")
	return fn.Kind == expand.Indexed && strconv.Itoa(len(fn.List)) == d.Str
}

// trapArgs wraps an ERR trap's action (see above) and prints the traps
// for `trap` and `trap -p`.
func (s *Shell) trapArgs(ctx context.Context, args []string) []string {
	if len(args) == 1 || args[1] == "-p" {
		return s.trapList(ctx, args)
	}
	i := 1
	if args[1] == "--" {
		i = 2
	}
	if len(args) < i+2 || args[i] == "" || args[i] == "-" || strings.HasPrefix(args[i], "-") {
		if slices.Contains(args[i:], "ERR") {
			// trap - ERR, trap '' ERR, trap ERR: no trap for subshells
			setShellVar(ctx, errTrapVar, expand.Variable{Set: true, Kind: expand.String})
		}
		return args
	}
	sigs := args[i+1:]
	if !slices.Contains(sigs, "ERR") {
		return args
	}
	action := args[i]
	setShellVar(ctx, errTrapSrcVar, expand.Variable{Set: true, Kind: expand.String, Str: action})
	action = errTrapLineno(action)
	s.errTraps.Store(true)
	if fn := interp.HandlerCtx(ctx).Env.Get("FUNCNAME"); fn.Kind == expand.Indexed && len(fn.List) > 0 && !trapSetHere(interp.HandlerCtx(ctx).Env) {
		// Set in a function: bash runs it in that function (not in
		// the functions it calls) without set -E, and for the call
		// only when a trap was set before; see errGateCall.
		prev := "0"
		if r := currentRunner(ctx); r != nil {
			if r.ErrTrap() != "" {
				prev = "1"
			}
		}
		setShellVar(ctx, errTrapDepthVar, expand.Variable{Set: true, Local: true, Kind: expand.String, Str: strconv.Itoa(len(fn.List))})
		setShellVar(ctx, errTrapPrevVar, expand.Variable{Set: true, Local: true, Kind: expand.String, Str: prev})
	}
	var others []string
	for _, sig := range sigs {
		if sig != "ERR" {
			others = append(others, sig)
		}
	}
	setShellVar(ctx, errTrapVar, expand.Variable{Set: true, Kind: expand.String, Str: action})
	if len(others) == 0 {
		return []string{"trap", "--", s.wrapErrTrap(action), "ERR"}
	}
	// Each trap of the eval goes through the call handler again.
	code := "trap -- " + shQuote(args[i]) + " ERR && trap -- " + shQuote(args[i])
	for _, sig := range others {
		code += " " + shQuote(sig)
	}
	return []string{"eval", code}
}

// trapList prints the traps as bash's trap -p does, with the ERR trap's
// action as the script gave it (interp holds it wrapped, see wrapErrTrap).
// Without an ERR trap, interp's own trap -p prints them.
func (s *Shell) trapList(ctx context.Context, args []string) []string {
	r := currentRunner(ctx)
	if r == nil {
		return args
	}
	errAction := ""
	if src := interp.HandlerCtx(ctx).Env.Get(errTrapSrcVar).Str; src != "" {
		if listing, _ := r.TrapListing([]string{"ERR"}, ""); listing != "" {
			errAction = src // as given, before errTrapLineno
		}
	}
	if errAction == "" {
		return args
	}
	var names []string
	if len(args) > 2 {
		names = args[2:]
		if names[0] == "--" {
			names = names[1:]
		}
	}
	listing, ok := r.TrapListing(names, errAction)
	if !ok {
		return args // interp reports it
	}
	if _, err := io.WriteString(interp.HandlerCtx(ctx).Stdout, listing); err != nil {
		return statusArgs(1)
	}
	return statusArgs(0)
}

// returnArgs answers return outside a function and a sourced file as
// bash does: its message and status 2, and the shell goes on (interp
// says "can only be done from a func or sourced script", status 1). In
// a subshell of a function (whose runner interp does not mark as in a
// function, but which has the function's FUNCNAME), return ends the
// subshell as bash's does: it becomes exit.
func (s *Shell) returnArgs(ctx context.Context, args []string) ([]string, bool) {
	r := currentRunner(ctx)
	if r == nil {
		return nil, false
	}
	if r.InFunc() || r.InSource() {
		return nil, false
	}
	hc := interp.HandlerCtx(ctx)
	if fn := hc.Env.Get("FUNCNAME"); fn.Kind == expand.Indexed && len(fn.List) > 0 && r != s.runner {
		if len(args) == 1 {
			return []string{"exit", strconv.Itoa(hc.LastExitStatus)}, true
		}
		return append([]string{"exit"}, args[1:]...), true
	}
	if len(args) > 1 {
		if _, err := strconv.Atoi(args[1]); err != nil {
			fmt.Fprintf(hc.Stderr, "llmsh: return: %s: numeric argument required\n", args[1])
		}
	}
	fmt.Fprintln(hc.Stderr, "llmsh: return: can only `return' from a function or sourced script")
	return statusArgs(2), true
}

// source FILE ARG…: the call handler runs it as
//
//	eval 'builtin source FILE ARG…; \x01srcpop "$?" K'
//
// \x01srcpop returns the status of source (BASH_SOURCE and FUNCNAME are
// the interpreter's own, third_party/sh/interp/callstack.go).
// A `return` in the file ends the source, not the eval.

const sourcePopCmd = "\x01srcpop"

// sourceArgs answers source FILE ARG… and . FILE ARG….
func (s *Shell) sourceArgs(ctx context.Context, args []string) []string {
	if s.funcs(ctx)[args[0]] != nil || s.funcs(ctx)["builtin"] != nil || currentRunner(ctx) == nil {
		return args
	}
	k := s.state.nonce()
	code := "builtin source"
	for _, a := range args[1:] {
		code += " " + shQuote(a)
	}
	return []string{"eval", code + "\n" + sourcePopCmd + ` "$?" ` + k}
}

// sourcePopCall answers \x01srcpop STATUS K; with a K that sourceArgs did
// not issue (or that was popped) it is no command.
func (s *Shell) sourcePopCall(ctx context.Context, args []string) []string {
	if len(args) != 3 || !s.state.hasNonce(args[2]) {
		return notFound(args[0])
	}
	s.state.dropNonce(args[2])
	st, _ := strconv.Atoi(args[1])
	return statusArgs(st)
}
