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
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// TODO: given the categories below, perhaps this should be more like:
//
//   func IsBuiltin(lang syntax.LangVariant, name string) bool
//
// or perhaps some API that also lets the user iterate through the builtins?
//
// Also, should we move this to the syntax package too?
// It's not a syntactical property strictly speaking,
// but it's also odd to require importing the interp package for it.

// IsBuiltin returns true if the given word is a POSIX Shell
// or Bash builtin.
func IsBuiltin(name string) bool {
	switch name {
	case
		// POSIX Shell regular built-ins, that is, the utilities which the shell
		// must provide as built-ins, from section 1.d obtained in September 2025 from:
		// https://pubs.opengroup.org/onlinepubs/9699919799/utilities/V3_chap02.html#tag_18_09_01_01
		"alias",
		"bg",
		"cd",
		"command",
		"false",
		"fc",
		"fg",
		"getopts",
		"hash",
		"jobs",
		"kill",
		"pwd",
		"read",
		"true",
		"umask",
		"unalias",
		"wait",

		// POSIX Shell special built-ins, obtained in September 2025 from:
		// https://pubs.opengroup.org/onlinepubs/9699919799/utilities/V3_chap02.html#tag_18_14
		"break",
		":",
		"continue",
		".",
		"eval",
		"exec",
		"exit",
		"export",   // NOTE: our parser treats this as a keyword
		"readonly", // NOTE: our parser treats this as a keyword
		"return",
		"set",
		"shift",
		"times",
		"trap",
		"unset",

		// Bash built-ins which are not present in POSIX, obtained in September 2025 from:
		// https://man.archlinux.org/man/bash.1.en#SHELL_BUILTIN_COMMANDS
		"source",
		"bind",
		"builtin",
		"caller",
		"compgen",
		"complete",
		"compopt",
		"declare", // NOTE: our parser treats this as a keyword
		"typeset", // NOTE: our parser treats this as a keyword
		"dirs",
		"disown",
		"enable",
		"history",
		"help",
		"let", // NOTE: our parser treats this as a keyword
		"local",
		"logout",
		"mapfile",
		"readarray",
		"popd",
		"pushd",
		"shopt",
		"suspend",
		"type",
		"ulimit",

		// POSIX utilities which the shell need not provide as built-ins,
		// so they are separate executables found via PATH, but which we
		// implement as built-ins just like Bash does. Obtained in September
		// 2025 from https://pubs.opengroup.org/onlinepubs/9699919799/utilities/contents.html
		"echo",
		"printf",
		"test",
		"[": // NOTE: an alias for "test", not documented separately
		return true
	}
	return false
}

// TODO: atoi is duplicated in the expand package.

// atoi is like [strconv.ParseInt](s, 10, 64), but it ignores errors and trims whitespace.
func atoi(s string) int64 {
	s = strings.TrimSpace(s)
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

type errBuiltinExitStatus exitStatus

func (e errBuiltinExitStatus) Error() string {
	return fmt.Sprintf("builtin exit status %d", e.code)
}

// Builtin allows [ExecHandlerFunc] implementations to execute any builtin,
// which can be useful for an exec handler to wrap or combine builtin calls.
//
// Note that a non-nil error may be returned in cases where the builtin
// alters the control flow of the runner, even if the builtin did not fail.
// For example, this is the case with `exit 0` or `return`.
func (hc HandlerContext) Builtin(ctx context.Context, args []string) error {
	if hc.kind != handlerKindExec {
		return fmt.Errorf("HandlerContext.Builtin can only be called via an ExecHandlerFunc")
	}
	exit := hc.runner.builtin(ctx, hc.Pos, args[0], args[1:])
	if exit != (exitStatus{}) {
		return errBuiltinExitStatus(exit)
	}
	return nil
}

func (r *Runner) builtin(ctx context.Context, pos syntax.Pos, name string, args []string) (exit exitStatus) {
	failf := func(code uint8, format string, args ...any) exitStatus {
		r.errf(format, args...)
		exit.code = code
		return exit
	}
	if st, ok := r.dashHelp(name, args); ok { // llmsh: NAME --help as bash
		return st
	}
	if r.llmsh.execBuiltins[name] { // llmsh: execbuiltins.go
		return r.execBuiltin(ctx, pos, name, args)
	}
	if !runsCode[name] {
		// llmsh: a write of the builtin's that fails is bash's
		// "NAME: write error: REASON", status 1 (sh_chkwrite).
		ew := r.watchStdout()
		defer func() {
			if r.unwatchStdout(ew, name) && exit.code == 0 {
				exit.code = 1
			}
		}()
		// llmsh: a bug in a builtin that runs no code ends that
		// command, as builtins.Run does, never the process (which is
		// a serve worker's or a library host's).
		defer func() {
			if v := recover(); v != nil {
				r.errf("%s%s: internal error\n", r.errPrefix(), name)
				exit = exitStatus{code: 2}
			}
		}()
	}
	switch name {
	case ":", "true":
	case "false":
		exit.code = 1
	case "help":
		return r.runHelp(args)
	case "times":
		// llmsh: bash's no_options: an option is "invalid option", status 2.
		if _, st, ok := r.noOptions("times", "times", args); !ok {
			return st
		}
		// llmsh: the shell's user and system time (the process's
		// rusage, which counts every goroutine of the run), then its
		// children's, which llmsh never has: zeros.
		user, sys := processTimes()
		r.outf("%s %s\n0m0.000s 0m0.000s\n", minSecs(user), minSecs(sys))
	case "exit":
		if r.warnStoppedJobs() { // llmsh: jobstop.go
			exit.code = 1
			break
		}
		args = dashDash(args)
		if len(args) > 1 && !numericArg(args[0]) {
			args = args[:1] // bash checks the first before the count
		}
		switch len(args) {
		case 0:
			exit = r.lastExit
			if r.trapName == "exit" {
				exit.code = r.trapSaved // llmsh: bash's trap_saved_exit_value
			}
		case 1:
			n, ok := legalNumber(args[0])
			if !ok {
				// llmsh: bash's message; the shell still exits.
				r.errf("%sexit: %s: numeric argument required\n", r.errPrefix(), args[0])
				n = 2
			}
			exit.code = uint8(n)
		default:
			return r.tooManyArgs("exit")
		}
		exit.exiting = true
		// llmsh: the EXIT trap runs here, as bash's exit runs it: in
		// the caller's function, with its FUNCNAME and locals.
		if r.exitTrapDue() {
			r.exit = exit
			r.exitTrapHere(ctx, false)
			exit = r.exit // the action's exit N sets the status
		}
	case "set":
		if len(args) == 0 { // llmsh: the variables and functions, as bash
			r.declListing(&declOpts{variant: "set"})
			break
		}
		if err := Params(args...)(r); err != nil {
			return failf(2, "%sset: %v\n", r.errPrefix(), err)
		}
		r.updateExpandOpts()
	case "shift":
		args = dashDash(args)
		if len(args) > 1 && numericArg(args[0]) {
			return r.tooManyArgs("shift")
		}
		if len(args) > 1 {
			args = args[:1] // bash checks the first before the count
		}
		exit.code = r.builtinShift(args) // llmsh: cdshift.go
	case "unset":
		// llmsh: bash's options and messages.
		refWords := r.unsetRefWords(len(args))
		opts, rest, bad, problem := bashOpts(args, "fnv", false)
		if bad != "" {
			return r.usageFail("unset", bad, problem, "unset [-f] [-v] [-n] [name ...]")
		}
		vars, funcs, refs := true, true, false
		onlyVars := false
		for _, o := range opts {
			switch o.c {
			case 'v':
				funcs, onlyVars = false, true
			case 'f':
				vars = false
			case 'n':
				refs = true
			}
		}
		if !vars && onlyVars {
			return failf(1, "%sunset: cannot simultaneously unset a function and a variable\n", r.errPrefix())
		}
		if refs && vars {
			funcs = false // llmsh: unset -n unsets the nameref itself
		} else if refs {
			refs = false
		}
		args = rest

		r.exit = exitStatus{}
		defer func() {
			// llmsh: a bad subscript fails, an arithmetic error in one
			// ends the shell, as bash (unsetElem sets r.exit).
			if r.exit.code != 0 && exit.code == 0 {
				exit = r.exit
			}
		}()
		if refWords != nil {
			refWords = refWords[len(refWords)-len(args):]
		}
		for i, arg := range args {
			if r.exit.exiting {
				break
			}
			if vars && !refs && syntax.ValidName(arg) {
				// llmsh: through a nameref, which may name an element.
				if name, idx := r.refTarget(arg, nil); idx != nil {
					r.unsetElem(name, subscriptText(idx), false)
					continue
				} else if vr := r.lookupVar(arg); vr.Kind == expand.NameRef {
					if n, _ := vr.Resolve(r.writeEnv); n != "" && syntax.ValidName(n) {
						arg = n
					} else if n != "" && r.lookupVar(n).Declared() {
						r.delVar(n) // llmsh: a local named "a[0]" (declRefElem)
						continue
					}
				}
			}
			if onlyVars && !syntax.ValidName(arg) {
				if _, _, ok := cutElemSubscript(arg); !ok {
					r.errf("%sunset: `%s': not a valid identifier\n", r.errPrefix(), arg)
					exit.code = 1
					continue
				}
			}
			if arg == "" {
				continue // llmsh: bash skips it (lookupVar panics on "")
			}
			if vr := r.lookupVar(arg); refs && vr.Kind != expand.NameRef {
				// llmsh: unset -n leaves what is no nameref, and
				// refuses a readonly one (bash).
				if vr.ReadOnly {
					r.errf("%sunset: %s: cannot unset: readonly variable\n", r.errPrefix(), arg)
					exit.code = 1
				}
				continue
			}
			if vars && !refs && r.tempUnset(arg) {
				continue // llmsh: a command's own x=1 (bash's tempenv)
			}
			if name, sub, ok := cutElemSubscript(arg); vars && ok {
				ref := refWords != nil && refWords[i]
				if !ref && !expand.WholeSubscript("["+sub+"]") {
					// llmsh: m[a[b], m[x]y], m[a'b]: bash's
					// valid_array_reference names no element, and
					// unset does nothing, status 0. (A word written
					// as NAME[...], bash's W_ARRAYREF, takes its
					// expanded key whole.)
					continue
				}
				r.unsetElem(name, sub, ref && sub != "@" && sub != "*")
			} else if vr := r.lookupVar(arg); vars && vr.ReadOnly {
				// llmsh: bash's message and status.
				r.errf("%sunset: %s: cannot unset: readonly variable\n", r.errPrefix(), arg)
				exit.code = 1
			} else if vars && r.noAssign(arg) && arg != "FUNCNAME" && arg != "GROUPS" {
				r.errf("%sunset: %s: cannot unset\n", r.errPrefix(), arg) // llmsh: bash's nounset
				exit.code = 1
			} else if vars && (vr.IsSet() || vr.Declared() && (vr.Kind != expand.NameRef || !funcs || r.Funcs[arg] == nil)) {
				// llmsh: a variable declared with no value
				// (declare -a y, local y) is unset, and not a
				// function of its name, as bash; a nameref with
				// no target is, unless a function has its name.
				r.delVar(arg)
			} else if _, ok := r.Funcs[arg]; ok && funcs {
				if strings.Contains(r.funcAttrs[arg], "r") {
					r.errf("%sunset: %s: cannot unset: readonly function\n", r.errPrefix(), arg)
					exit.code = 1
					continue
				}
				delete(r.Funcs, arg)
			}
		}
	case "echo":
		newline, doExpand := true, r.opts[optXPGEcho] // llmsh: shopt xpg_echo
	echoOpts:
		for len(args) > 0 {
			switch args[0] {
			case "-n":
				newline = false
			case "-e":
				doExpand = true
			case "-E":
				doExpand = false
			default:
				break echoOpts
			}
			args = args[1:]
		}
		for i, arg := range args {
			if i > 0 {
				r.out(" ")
			}
			if doExpand {
				arg, _, _ = expand.Format(r.ecfg, arg, nil)
			}
			r.out(arg)
		}
		if newline {
			r.out("\n")
		}
	case "printf":
		if len(args) == 0 {
			return failf(2, "usage: printf format [arguments]\n")
		}
		format, args := args[0], args[1:]
		for {
			s, n, err := expand.Format(r.ecfg, format, args)
			if err != nil {
				return failf(1, "%v\n", err)
			}
			r.out(s)
			args = args[n:]
			if n == 0 || len(args) == 0 {
				break
			}
		}
	case "break", "continue":
		return r.loopControl(name, args) // llmsh: pipeline.go
	case "pwd":
		// llmsh: bash's option parsing: -L and -P (also -LP), "--" ends
		// the options, operands are ignored; a bad one is named as bash
		// names it, with the usage line.
		evalSymlinks := false
		for ; len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-'; args = args[1:] {
			if args[0] == "--" {
				break
			}
			if bad := badOption(args[0], "LP"); bad != "" {
				r.errf("%spwd: %s: invalid option\npwd: usage: pwd [-LP]\n", r.errPrefix(), bad)
				exit.code = 2
				return exit
			}
			evalSymlinks = args[0][len(args[0])-1] == 'P' // the last wins
		}
		// llmsh: -P prints the logical directory: symbolic links are
		// resolved by vfsd, which never says where one leads outside the
		// grants (upstream evaluated $PWD's links on the host).
		_ = evalSymlinks
		// llmsh: the working directory, not $PWD: bash prints $PWD
		// only when it names the current directory (PWD=/x, unset PWD).
		r.outf("%s\n", r.Dir)
	case "cd":
		exit.code = r.builtinCd(ctx, args) // llmsh: cdshift.go
	case "wait": // llmsh: jobs.go
		exit = r.builtinWait(ctx, args)
	case "jobs":
		exit = r.builtinJobs(ctx, pos, args)
	case "kill":
		exit = r.builtinKill(ctx, args)
	case "disown":
		exit = r.builtinDisown(args)
	case "fg", "bg":
		exit = r.builtinFgBg(ctx, name, args)
	case "umask": // llmsh: umask.go
		exit = r.builtinUmask(args)
	case "ulimit":
		exit = r.builtinUlimit(args)
	case "builtin":
		args, st, ok := r.noOptions("builtin", "builtin [shell-builtin [arg ...]]", args)
		if !ok {
			return st
		}
		if len(args) < 1 {
			break
		}
		if !r.isBuiltin(args[0]) {
			// llmsh: bash's message (upstream said nothing).
			return failf(1, "%sbuiltin: %s: not a shell builtin\n", r.errPrefix(), args[0])
		}
		exit = r.builtin(ctx, pos, args[0], args[1:])
	case "type":
		anyNotFound := false
		mode := ""
		fp := flagParser{remaining: args}
		for fp.more() {
			switch flag := fp.flag(); flag {
			case "-a", "-f", "--help":
				return failf(3, "type: NOT IMPLEMENTED\n")
			case "-p", "-P", "-t":
				mode = flag
			default:
				return r.usageFail("type", flag, "invalid option", "type [-afptP] name [name ...]")
			}
		}
		args := fp.args()
		for _, arg := range args {
			if mode == "-p" || mode == "-P" {
				if path, err := r.lookPath(ctx, arg, true); err == nil {
					r.outf("%s\n", path)
				} else {
					anyNotFound = true
				}
				continue
			}
			if syntax.IsKeyword(arg) {
				if mode == "-t" {
					r.out("keyword\n")
				} else {
					r.outf("%s is a shell keyword\n", arg)
				}
				continue
			}
			if als, ok := r.alias[arg]; ok && r.opts[optExpandAliases] {
				if mode == "-t" {
					r.out("alias\n")
				} else {
					r.outf("%s is aliased to `%s'\n", arg, als.value)
				}
				continue
			}
			if _, ok := r.Funcs[arg]; ok {
				if mode == "-t" {
					r.out("function\n")
				} else {
					r.outf("%s is a function\n", arg)
				}
				continue
			}
			if IsBuiltin(arg) {
				if mode == "-t" {
					r.out("builtin\n")
				} else {
					r.outf("%s is a shell builtin\n", arg)
				}
				continue
			}
			if path, err := r.lookPath(ctx, arg, true); err == nil {
				if mode == "-t" {
					r.out("file\n")
				} else {
					r.outf("%s is %s\n", arg, path)
				}
				continue
			}
			if mode != "-t" {
				r.errf("%stype: %s: not found\n", r.errPrefix(), arg)
			}
			anyNotFound = true
		}
		if anyNotFound {
			exit.code = 1
		}
	case "hash":
		return r.hashBuiltin(ctx, args) // llmsh: hash.go
	case "eval":
		args, st, ok := r.noOptions("eval", "eval [arg ...]", args)
		if !ok {
			return st
		}
		defer r.keepBashCommand()() // llmsh: specialvars.go
		r.thisCmd = "eval"          // llmsh: declare.go: localRefused
		// llmsh: bash's line_number comes back (abandonShift); a return
		// in the text leaves at the eval's line (the RETURN trap's).
		defer func(line int) {
			r.line = line
			if r.exit.returning {
				r.returnAt = line
			}
		}(r.line)
		src := strings.Join(args, " ")
		// llmsh: eval's text is numbered from the eval's line (bash: the
		// line where its first argument ends).
		oldText, evalNode := r.text, r.node
		r.setText(textPlace{lineOffset: r.evalLine() - 1, src: src})
		defer r.setText(oldText)
		file, err := r.parseTextCtx(ctx, src, "")
		if errors.Is(err, ErrTextStopped) {
			return exitStatus{code: 1} // the run has ended: nothing to say
		}
		var perr syntax.ParseError
		if errors.As(err, &perr) {
			src, perr = r.textEndError(src, "", perr)
			// llmsh: as bash, the whole lines before a syntax error run,
			// then the error in bash's words; the status is 2.
			prefix := CompleteLines(src, perr)
			if file, _ := r.parseText(prefix, ""); file != nil {
				r.traceLevel++ // llmsh: "++", as the whole text's below
				r.readLines(ctx, file.Stmts, false, r.evalSyntaxError)
				r.traceLevel--
				if r.exit.exiting {
					return r.exit
				}
				if r.readOn {
					// llmsh: an alias read on past the failing
					// command's start (aliasread.go).
					r.readOn = false
					return r.evalRest(ctx, pos, src, r.readTo, evalNode, oldText)
				}
			}
			if text, read, line0, end, whole, ok := r.aliasReread(ctx, src, len(prefix), int(perr.Pos.Line())); ok && whole {
				// llmsh: an alias that the lines before defined
				// makes a command of the failing lines, as bash
				// reads them.
				if r.runAliasedLine(ctx, text, read, line0, false, r.evalSyntaxError) || r.exit.exiting {
					return r.exit
				}
				return r.evalRest(ctx, pos, src, end, evalNode, oldText)
			}
			if line, tok, ok := r.condBrokenText(src, len(prefix), perr); ok {
				// llmsh: bash's parser meets this text's first [[
				// in the state its last [[ error left (condBroken).
				r.condBroken = false
				r.evalSyntaxError(line, []string{"syntax error near unexpected token `" + tok + "'", "`" + lineText(src, line) + "'"})
				return exitStatus{code: 2}
			}
			line, msgs := SyntaxError(perr, src)
			r.evalSyntaxError(line, msgs)
			r.condBroken = false // llmsh: any other syntax error resets it (bash)
			r.noteCondError(perr, true)
			if !r.condBroken && matchedPairEOF(perr, src, msgs) {
				r.condFirstWord, r.pairFirstWord = true, true
			}
			if perr.InSubst {
				// llmsh: bash parses a $( ), <( ) or >( ) of eval
				// text as it reads it; its syntax error there ends
				// the shell (a subshell: only it).
				return r.substSyntaxExit(1)
			}
			if rest, ok := ResumeText(src, perr, line); ok {
				// llmsh: bash reads on after an error it recovers
				// from, the status 1 (syntax.ParseError.Resume).
				r.exit.code = 1
				r.lastExit = r.exit
				if strings.TrimSpace(rest) == "" {
					return r.exit
				}
				return r.builtin(ctx, pos, "eval", []string{rest})
			}
			return exitStatus{code: syntaxStatus(perr)}
		}
		if err != nil {
			return failf(textStatus(err), "eval: %v\n", err)
		}
		r.hdocWarnings(file, src, r.shellFileName(), r.text.lineOffset)
		// llmsh: the eval string's lines count from the line bash had
		// read when it ran the eval (set above: callstack.go); set -x
		// marks them one level deeper ("++"), as bash.
		r.traceLevel++
		r.readLines(ctx, file.Stmts, false, r.evalSyntaxError)
		r.traceLevel--
		exit = r.exit
		if r.readOn && !r.exit.exiting {
			r.readOn = false
			return r.evalRest(ctx, pos, src, r.readTo, evalNode, oldText)
		}
	case "source", ".":
		// llmsh: bash's options, usage and messages.
		usage := name + " filename [arguments]"
		args, st, ok := r.noOptions(name, usage, args)
		if !ok {
			return st
		}
		if len(args) < 1 {
			return failf(2, "%s%s: filename argument required\n%s: usage: %s\n", r.errPrefix(), name, name, usage)
		}
		defer r.keepBashCommand()() // llmsh: specialvars.go
		r.thisCmd = name            // llmsh: declare.go: localRefused
		// llmsh: bash's line_number comes back (abandonShift).
		defer func(line int) { r.line = line }(r.line)
		path, err := args[0], error(nil)
		if r.opts[optSourcePath] && !strings.Contains(args[0], "/") { // llmsh: shopt -u sourcepath, or a slash: no $PATH search
			path, err = r.lookPath(ctx, args[0], false)
		}
		if err != nil {
			// If the script was not found in PATH or there was any error, pass
			// the source path to the open handler so it has a chance to look
			// at files it manages (eg: virtual filesystem), and also allow
			// it to look for the sourced script in the current directory.
			path = args[0]
		}
		// llmsh: bash names the file as $PATH found it (BASH_SOURCE,
		// its messages: DIR/FILE, ./FILE), else as it was given.
		srcName := args[0]
		if err == nil && path != args[0] {
			srcName = r.sourcePathName(ctx, args[0])
		}
		if info, err := r.stat(ctx, path); err == nil && info.IsDir() {
			// llmsh: bash's message and status.
			return failf(1, "%s%s: %s: is a directory\n", r.errPrefix(), name, args[0])
		}
		r.node = nil
		f, err := r.open(ctx, path, os.O_RDONLY, 0, false)
		if err != nil {
			// llmsh: bash's "NAME: line N: FILE: reason"; in posix mode
			// the shell exits (posixSpecialExit).
			r.sourceNotFound = true
			return failf(1, "%s%s: %s\n", r.errPrefix(), args[0], errText(err))
		}
		defer f.Close()
		text, err := r.readText(f)
		if err != nil {
			return failf(1, "source: %v\n", err)
		}
		var synErrs []string
		synStatus := uint8(2)
		resume := "" // llmsh: the text after an error bash recovers from
		// llmsh: the line of a syntax error and the length of the
		// whole lines before it (aliasread.go reads on from there).
		errLine, prefixLen := 0, 0
		inSubst := false // llmsh: the error is inside a $( ) (eval's)
		// parse is the file's text (or what follows such an error) as
		// bash runs it: the whole lines before a syntax error, then the
		// error in bash's words ("FILE: line N: …"), status 2.
		parse := func(text string) (*syntax.File, error) {
			file, err := r.parseTextCtx(ctx, text, path)
			errLine, inSubst = 0, false
			if perr := (syntax.ParseError{}); errors.As(err, &perr) {
				inSubst = perr.InSubst
				text, perr = r.textEndError(text, path, perr)
				synStatus = syntaxStatus(perr)
				line, msgs := SyntaxError(perr, text)
				r.noteCondError(perr, false)
				if r.ErrexitSyntax() {
					synStatus = 2 // llmsh: bash's parser_error exits
				}
				if synErrs == nil {
					// llmsh: an error bash says nothing of
					// (ParseError.Quiet) still ends the file with its
					// status.
					synErrs = []string{}
				}
				for _, m := range r.SyntaxErrorLines(msgs) {
					l, m := MsgLine(line, m)
					synErrs = append(synErrs, fmt.Sprintf("%s: line %d: %s\n", srcName, l, m))
				}
				resume, _ = ResumeText(text, perr, line)
				prefix := CompleteLines(text, perr)
				errLine, prefixLen = int(perr.Pos.Line()), len(prefix)
				file, err = r.parseText(prefix, path)
			}
			return file, err
		}
		file, err := parse(text)
		if errors.Is(err, ErrTextStopped) {
			return exitStatus{code: 1} // the run has ended: nothing to say
		}
		if err != nil {
			return failf(textStatus(err), "source: %v\n", err)
		}
		r.hdocWarnings(file, text, srcName, 0) // llmsh

		// Keep the current versions of some fields we might modify.
		oldParams, oldDropped := r.Params, r.shiftDropped
		oldSourceSetParams := r.sourceSetParams
		oldInSource := r.inSource

		// If we run "source file args...", set said args as parameters.
		// Otherwise, keep the current parameters.
		sourceArgs := len(args[1:]) > 0
		if sourceArgs {
			r.Params, r.shiftDropped = args[1:], 0
			r.sourceSetParams = false
		}
		// We want to track if the sourced file explicitly sets the
		// parameters.
		r.sourceSetParams = false
		r.inSource = true // know that we're inside a sourced script.
		oldSourceName := r.sourceName
		r.sourceName = srcName
		// llmsh: "source" on the call stack (callstack.go); its lines
		// count from 1.
		// BASH_ARGV and BASH_ARGC, as bash's: outside functions the
		// bottom frame is taken first (with the arguments given, when
		// there are any); the file's frame holds the arguments under
		// extdebug, and the file's name when there are none.
		frame := callFrame{name: "source", file: srcName, line: r.line}
		if !r.funcRunning() {
			r.initMainArgs()
		}
		switch {
		case !sourceArgs:
			frame.args, frame.hasArgs = args[:1], true
		case r.opts[optExtDebug]:
			frame.args, frame.hasArgs = args[1:], true
		}
		savedText := r.pushFrame(frame, textPlace{src: text})
		lineErr := func(line int, msgs []string) {
			for _, m := range msgs {
				l, m := MsgLine(line, m)
				synErrs = append(synErrs, fmt.Sprintf("%s: line %d: %s\n", srcName, l, m))
			}
		}
		r.traceLevel++ // llmsh: set -x marks a sourced file's commands "++", as bash
		// llmsh: without set -T, bash unsets the DEBUG trap while the
		// file runs, and gives it back unless the file set one.
		debugAction, debugSaved := r.traps[trapDebug]
		debugSaved = debugSaved && debugAction != "" && !r.opts[optFuncTrace]
		if debugSaved {
			delete(r.traps, trapDebug)
		}
		r.readLines(ctx, file.Stmts, false, lineErr)
		for cur := text; !r.exit.exiting && !r.exit.returning; {
			var rest string
			if r.readOn {
				// llmsh: an alias read on past the statements
				// (aliasread.go); the rest is read again.
				r.readOn = false
				rest, synErrs, resume = restText(cur, r.readTo), nil, ""
			} else if atext, aread, line0, end, whole, ok := r.aliasReread(ctx, cur, prefixLen, errLine); errLine > 0 && ok && whole {
				// llmsh: an alias that the lines before defined
				// makes a command of the failing lines.
				if r.runAliasedLine(ctx, atext, aread, line0, false, lineErr) {
					break
				}
				rest, synErrs, resume = restText(cur, end), nil, ""
			} else if strings.TrimSpace(resume) != "" {
				// llmsh: bash goes on after an array literal's bad
				// token (syntax.ParseError.Resume), the status 1.
				for _, m := range synErrs {
					r.errf("%s", m)
				}
				synErrs, synStatus = nil, 2
				r.exit.code = 1
				r.lastExit = r.exit
				rest, resume = resume, ""
			} else {
				break
			}
			if strings.TrimSpace(rest) == "" {
				break
			}
			if file, err = parse(rest); err != nil {
				break
			}
			cur = rest
			r.setText(textPlace{src: cur})
			r.readLines(ctx, file.Stmts, false, lineErr)
		}
		r.traceLevel--
		// llmsh: bash runs the RETURN trap once the file's frame is
		// gone: BASH_SOURCE, FUNCNAME and $LINENO are the caller's;
		// the DEBUG trap comes back after it (none runs in it).
		r.popFrame(savedText)
		// llmsh: return and messages there are the caller's.
		r.inSource, r.sourceName = oldInSource, oldSourceName
		r.runReturnTrap(ctx, frame.line) // llmsh: traps.go
		if _, set := r.traps[trapDebug]; debugSaved && !set {
			r.setTrapQuiet(trapDebug, debugAction)
		}

		// If we modified the parameters and the sourced file didn't
		// explicitly set them, we restore the old ones.
		if sourceArgs && !r.sourceSetParams {
			r.Params, r.shiftDropped = oldParams, oldDropped
		}
		r.sourceSetParams = oldSourceSetParams
		if sourceArgs && !r.inFunc {
			// llmsh: bash's maybe_pop_dollar_vars clears the mark
			// of the file that sourced this one: its own set -- is
			// forgotten, and its caller's parameters come back.
			r.sourceSetParams = false
		}
		r.inSource = oldInSource

		exit = r.exit
		exit.returning = false
		if synErrs != nil && !exit.exiting {
			for _, m := range synErrs {
				r.errf("%s", m)
			}
			exit.code = synStatus
			if inSubst {
				exit = r.substSyntaxExit(1)
			}
		}
	case "[":
		if len(args) == 0 || args[len(args)-1] != "]" {
			return failf(2, "%s[: missing `]'\n", r.errPrefix())
		}
		exit = r.classicTestStatus(r.runClassicTest(ctx, "[", args[:len(args)-1]))
	case "test":
		exit = r.classicTestStatus(r.runClassicTest(ctx, "test", args))
	case "exec":
		// TODO: Consider unix.Exec, i.e. actually replacing
		// the process. It's in theory what a shell should do,
		// but in practice it would kill the entire Go process
		// and it's not available on Windows.
		// llmsh: bash's options: -a NAME, -c (an empty environment
		// for the command), -l (a login shell's dash before its name).
		opts, rest, bad, problem := bashOpts(args, "cla:", false)
		if bad != "" {
			return r.usageFail("exec", bad, problem, "exec [-cl] [-a name] [command [argument ...]] [redirection ...]")
		}
		args = rest
		if len(args) == 0 {
			r.keepRedirs = true
			break
		}
		argv0, clearEnv, login := "", false, false
		for _, o := range opts {
			switch o.c {
			case 'a':
				argv0 = o.value
			case 'c':
				clearEnv = true
			case 'l':
				login = true
			}
		}
		if login {
			// llmsh: a login shell's dash before the command's
			// name, as bash's exec -l.
			argv0 = "-" + cmp.Or(argv0, args[0])
		}
		r.exit.exiting = true
		r.inExec, r.execArgv0, r.execNoEnv = true, argv0, clearEnv
		r.execFailed = false
		r.exec(ctx, pos, args)
		r.inExec, r.execArgv0, r.execNoEnv = false, "", false
		exit = r.exit
		if r.execFailed && r.opts[optExecFail] && !exit.fatalExit && r.subshellLevel == 0 {
			// llmsh: shopt -s execfail: a command exec cannot
			// run leaves the shell running, as in bash; not a
			// subshell, which bash's exec_builtin always ends.
			exit.exiting = false
		}
		if exit.exiting && !(r.execFailed && exit.code == 127 && !strings.Contains(args[0], "/")) {
			// llmsh: the shell was replaced by the command (or bash
			// tried execve and failed): its EXIT trap is gone, as
			// bash's exec resets the traps before execve. A name
			// not found leaves it.
			r.callbackExit = ""
		}
		r.execFailed = false
	case "command":
		show, stdPath := false, false
		fp := flagParser{remaining: args}
		for fp.more() {
			switch flag := fp.flag(); flag {
			case "-v":
				show = true
			case "-p": // llmsh: PATH is StandardPath for the command, as bash
				stdPath = true
			default:
				return r.usageFail("command", flag, "invalid option", "command [-pVv] command [arg ...]")
			}
		}
		args := fp.args()
		if len(args) == 0 {
			break
		}
		if !show {
			if strings.HasPrefix(args[0], "%") {
				return r.builtinFgBg(ctx, "fg", args) // llmsh: as bash
			}
			if r.isBuiltin(args[0]) {
				return r.builtin(ctx, pos, args[0], args[1:])
			}
			// llmsh: not a function of the script, as bash.
			r.inCommand, r.stdPath = true, stdPath
			r.exec(ctx, pos, args)
			r.inCommand, r.stdPath = false, false
			exit = r.exit
			return exit
		}
		last := uint8(0)
		for _, arg := range args {
			last = 0
			if r.Funcs[arg] != nil || r.isBuiltin(arg) {
				r.outf("%s\n", arg)
			} else if path, err := r.lookPath(ctx, arg, true); err == nil {
				r.outf("%s\n", path)
			} else {
				last = 1
			}
		}
		exit.code = last
	case "dirs":
		return r.dirsBuiltin(args) // llmsh: dirstack.go
	case "pushd", "popd":
		return r.pushdPopd(ctx, name, args)
	case "return":
		// llmsh: bash's messages and statuses; with no argument, $?.
		args = dashDash(args)
		if len(args) > 1 && numericArg(args[0]) {
			return r.tooManyArgs("return")
		}
		if len(args) > 1 {
			args = args[:1] // bash checks the first before the count
		}
		if !r.inFunc && !r.inSource {
			if len(args) == 1 {
				if _, ok := legalNumber(args[0]); !ok {
					r.errf("%sreturn: %s: numeric argument required\n", r.errPrefix(), args[0])
				}
			}
			r.errf("%sreturn: can only `return' from a function or sourced script\n", r.errPrefix())
			exit.code = 2
			return exit
		}
		switch len(args) {
		case 0:
			exit.code = r.lastExit.code
			if r.trapName != "" && r.trapName != trapDebug {
				exit.code = r.trapSaved // llmsh: bash's trap_saved_exit_value
			}
		case 1:
			r.preReturn, r.hasPreReturn = r.lastExit.code, true
			n, ok := legalNumber(args[0])
			if !ok {
				// llmsh: bash's message; the function still returns.
				r.errf("%sreturn: %s: numeric argument required\n", r.errPrefix(), args[0])
				n = 2
			}
			exit.code = uint8(n)
		}
		exit.returning = true
		r.returnAt = r.line // llmsh: the RETURN trap's line (leaveFunc)
	case "read":
		return r.readBuiltin(ctx, args)

	case "getopts":
		return r.getoptsBuiltin(args)

	case "shopt":
		// llmsh: bash's shopt (shoptBuiltin).
		exit.code = r.shoptBuiltin(args)
	case "alias":
		exit = r.aliasBuiltin(args) // llmsh: alias.go
	case "unalias":
		exit = r.unaliasBuiltin(args)

	case "trap": // llmsh: traps.go
		exit = r.builtinTrap(args)

	case "caller":
		return r.callerBuiltin(args) // llmsh: callstack.go
	case "readarray", "mapfile":
		return r.mapfileBuiltin(ctx, name, args)

	case "let":
		// llmsh: let reached by name (builtin let, command let): its
		// words are expanded already, each one expression.
		lc := &syntax.LetClause{Let: pos}
		for _, a := range args {
			lc.Exprs = append(lc.Exprs, &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: a}}})
		}
		r.letBuiltin = true // the builtin, not a function of its name
		r.cmd(ctx, lc)
		return r.exit

	case "declare", "typeset", "local", "export", "readonly":
		// llmsh: a declaration reached by name (builtin declare, command
		// declare, \declare): its words are expanded already, each one
		// argument, as in declare "$x".
		dc := &syntax.DeclClause{Variant: &syntax.Lit{Value: name}}
		for _, a := range args {
			w := &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: a}}}
			dc.Args = append(dc.Args, &syntax.Assign{Naked: true, Value: w})
		}
		r.declBuiltin = true // the builtin, not a function of its name
		r.cmd(ctx, dc)
		return r.exit

	default:
		if st, ok := r.bashBuiltin(ctx, name, args); ok { // llmsh: bashbuiltins.go
			return st
		}
		return failf(2, "%s: unsupported builtin\n", name)
	}
	return exit
}

func (r *Runner) changeDir(ctx context.Context, cmd, path string) uint8 {
	if path == "" {
		r.errf("%s: empty directory path\n", cmd)
		return 1
	}
	apath := r.absPath(path)
	// llmsh: bash's messages ("cd: DIR: No such file or directory"),
	// DIR in $'…' when it holds a character that does not print; each
	// name before a ".." must be a directory, as bash's cd -L checks.
	var info fs.FileInfo
	err := r.dotDotErr(ctx, path)
	if err == nil {
		info, err = r.stat(ctx, apath)
	}
	path = unprintableQuote(path, expand.ByteLocale(r.writeEnv))
	switch {
	case err != nil && (errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission)):
		r.errf("%s%s: %s: No such file or directory\n", r.errPrefix(), cmd, path)
		return 1
	case err != nil:
		r.errf("%s%s: %s: %s\n", r.errPrefix(), cmd, path, errText(err))
		return 1
	case !info.IsDir():
		r.errf("%s%s: %s: Not a directory\n", r.errPrefix(), cmd, path)
		return 1
	}
	if r.access(ctx, apath, AccessExec) != nil {
		r.errf("%s%s: %s: Permission denied\n", r.errPrefix(), cmd, path)
		return 1
	}
	r.Dir = apath
	r.setVarString("OLDPWD", r.envGet("PWD"))
	r.setVarString("PWD", apath)
	return 0
}

func absPath(dir, path string) string {
	if path == "" {
		return ""
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	// Note that [filepath.Join] cleans its result, but an already absolute
	// path needs cleaning too, such as turning "/a/../b" into "/b".
	return filepath.Clean(path)
}

func (r *Runner) absPath(path string) string {
	return absPath(r.Dir, path)
}

// flagParser is used to parse builtin flags.
//
// It's similar to the getopts implementation, but with some key differences.
// First, the API is designed for Go loops, making it easier to use directly.
// Second, it doesn't require the awkward ":ab" syntax that getopts uses.
// Third, it supports "-a" flags as well as "+a".
type flagParser struct {
	current   string
	remaining []string
}

func (p *flagParser) more() bool {
	if p.current != "" {
		// We're still parsing part of "-ab".
		return true
	}
	if len(p.remaining) == 0 {
		// Nothing left.
		p.remaining = nil
		return false
	}
	arg := p.remaining[0]
	if arg == "--" {
		// We explicitly stop parsing flags.
		p.remaining = p.remaining[1:]
		return false
	}
	if len(arg) == 0 || (arg[0] != '-' && arg[0] != '+') {
		// The next argument is not a flag.
		return false
	}
	// More flags to come.
	return true
}

func (p *flagParser) flag() string {
	arg := p.current
	if arg == "" {
		arg = p.remaining[0]
		p.remaining = p.remaining[1:]
	} else {
		p.current = ""
	}
	if len(arg) > 2 {
		// We have "-ab", so return "-a" and keep "-b".
		p.current = arg[:1] + arg[2:]
		arg = arg[:2]
	}
	return arg
}

func (p *flagParser) value() string {
	if len(p.remaining) == 0 {
		return ""
	}
	arg := p.remaining[0]
	p.remaining = p.remaining[1:]
	return arg
}

func (p *flagParser) args() []string { return p.remaining }

// optStatusText returns a shell option's status text display
func (r *Runner) optStatusText(status bool) string {
	if status {
		return "on"
	}
	return "off"
}

// declWords is a declaration's words as a command's, for a function of
// its name (llmsh): NAME=VALUE is one word, as bash passes it, a[i]=v
// too, and an array's compound value is its name alone.
func declWords(cm *syntax.DeclClause) (words []*syntax.Word) {
	words = append(words, &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: cm.Variant.Value}}})
	for _, as := range cm.Args {
		name := ""
		if as.Name != nil {
			name = as.Name.Value
		}
		if as.Index != nil {
			name += "[" + subscriptText(as.Index) + "]"
		}
		switch {
		case as.Array != nil:
			// bash gives a function the array's name alone
			// (declare -a q=(a b) is "-a q").
			words = append(words, &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: name}}})
		case as.Naked && as.Value != nil:
			words = append(words, as.Value)
		case as.Naked:
			words = append(words, &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: as.Name.Value}}})
		default:
			op := "="
			if as.Append {
				op = "+="
			}
			parts := []syntax.WordPart{&syntax.Lit{Value: name + op}}
			if as.Value != nil {
				parts = append(parts, as.Value.Parts...)
			}
			words = append(words, &syntax.Word{Parts: parts})
		}
	}
	return words
}

// minSecs is d as bash's times prints it: 0m0.012s (llmsh).
func minSecs(d time.Duration) string {
	return fmt.Sprintf("%dm%d.%03ds", d/time.Minute, d%time.Minute/time.Second, d%time.Second/time.Millisecond)
}

// syntaxStatus is bash's status for a parse error of eval's or a sourced
// file's text: 1 for an array literal left open (a=(x), else 2. (llmsh)
func syntaxStatus(perr syntax.ParseError) uint8 {
	if perr.Status != 0 {
		return uint8(perr.Status)
	}
	return 2
}

// runsCode names the builtins that run commands (whose writes are those
// commands' own) or that change the shell's descriptors: their output is
// not checked for write errors as a builtin's.
var runsCode = map[string]bool{
	"eval": true, "source": true, ".": true, "command": true, "builtin": true,
	"exec": true, "time": true, "wait": true, "fg": true, "bg": true,
	"exit": true, "return": true, "break": true, "continue": true,
	"echo": true, "printf": true, "fc": true, "compgen": true,
	"mapfile": true, "readarray": true, "test": true, "[": true,
}

// writeErrs passes writes on to w and keeps the first error of one, but
// for a closed pipe's (bash's builtin then ends by SIGPIPE, silently).
type writeErrs struct {
	w   io.Writer
	err error
}

// watchStdout makes the runner's stdout one that keeps its first error.
func (r *Runner) watchStdout() *writeErrs {
	ew := &writeErrs{w: r.stdout}
	r.stdout = ew
	return ew
}

// unwatchStdout gives back the stdout that watchStdout replaced and says
// bash's "NAME: write error: REASON" if a write failed, reporting so.
func (r *Runner) unwatchStdout(ew *writeErrs, name string) bool {
	if r.stdout == ew {
		r.stdout = ew.w
	}
	if ew.err == nil {
		return false
	}
	r.errf("%s%s: write error: %s\n", r.errPrefix(), name, errText(ew.err))
	return true
}

func (e *writeErrs) Write(p []byte) (int, error) {
	n, err := e.w.Write(p)
	if err != nil && e.err == nil && !errors.Is(err, syscall.EPIPE) && !errors.Is(err, io.ErrClosedPipe) {
		e.err = err
	}
	return n, err
}
