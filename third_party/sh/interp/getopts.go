// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// bash's getopts, written for llmsh (see LLMSH.md, "read, getopts, test,
// mapfile as bash").

import (
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// getopts is where getopts stands: the next argument (OPTIND-1), the
// argument whose option characters it reads (cur) and the position of the
// next one in it (0: none, start at argidx). Assigning OPTIND 1 (or 0, or
// no number) starts it again (see setVarErr); another value moves argidx
// and leaves the word in progress to finish first, as bash's nextchar.
type getopts struct {
	argidx  int
	cur     int
	runeidx int
}

// getoptsBuiltin is bash's getopts.
func (r *Runner) getoptsBuiltin(args []string) (exit exitStatus) {
	args, exit, ok := r.noOptions("getopts", "getopts optstring name [arg ...]", args)
	if !ok {
		return exit
	}
	if len(args) < 2 {
		r.errf("getopts: usage: getopts optstring name [arg ...]\n")
		exit.code = 2
		return exit
	}
	optstr, name := args[0], args[1]
	// llmsh: a NAME that is no identifier fails only when getopts
	// assigns it, after it read the option (OPTIND, OPTARG and its
	// message as usual), as bash's getopts_bind_variable: status 1.
	badName := !syntax.ValidName(name)
	params := args[2:]
	if len(args) == 2 {
		params = r.Params
	}
	optind, ok := legalNumber(r.envGet("OPTIND"))
	// llmsh: bash keeps OPTIND in a C int: 2147483648 is negative
	// there (getopts starts again), 4294967297 is 1.
	if optind = int64(int32(optind)); !ok || optind < 1 {
		optind = 1
	}
	g := r.optState
	if !ok {
		g.runeidx = 0 // llmsh: unset OPTIND starts again, as bash
	}
	if int64(g.argidx+1) != optind {
		// llmsh: past the arguments is at their end, as bash
		// (set -- -a; OPTIND=5: OPTIND is 2 after).
		g.argidx = int(min(optind-1, int64(len(params))))
		if optind <= 1 {
			g.runeidx = 0
		}
	}
	silent := strings.HasPrefix(optstr, ":")
	if silent {
		optstr = optstr[1:]
	}
	report := !silent
	if v := r.lookupVar("OPTERR"); v.IsSet() {
		if n, ok := legalNumber(v.String()); ok && n == 0 {
			report = false
		}
	}
	readonly := false
	defer func() {
		if readonly && exit.code == 0 {
			exit.code = 2 // llmsh: bash's status when NAME is readonly
		}
	}()
	// finish sets OPTIND, then OPTARG and NAME in bash's order
	// (dogetopts): an illegal option or a missing argument assigns NAME
	// first, the end and an option OPTARG first (getopts a OPTARG).
	finish := func(opt string, optarg *string, errPath bool) {
		r.setVarString("OPTIND", strconv.Itoa(g.argidx+1))
		r.optState = g // after OPTIND, whose assignment resets it
		if errPath {
			r.getoptsName(name, opt, badName, &readonly, &exit)
		}
		switch {
		case optarg != nil:
			r.setVarString("OPTARG", *optarg)
		case !errPath && opt != "?":
			r.unsetOptarg()
		default:
			r.delVar("OPTARG")
		}
		if !errPath {
			r.getoptsName(name, opt, badName, &readonly, &exit)
		}
	}

	if g.runeidx > 0 && (g.argidx >= len(params) || g.cur >= len(params) || g.runeidx >= len(params[g.cur])) {
		// llmsh: the arguments changed under a word read halfway
		// (set -- between calls): bash's next character is the end of
		// the word, so it starts the next one.
		g.runeidx = 0
	}
	if g.runeidx == 0 {
		if g.argidx >= len(params) {
			// llmsh: bash's sh_getopt sets OPTIND to $#+1 here, also
			// when it was left beyond by a call with more arguments.
			g.argidx = len(params)
			finish("?", nil, false)
			exit.code = 1
			return exit
		}
		arg := params[g.argidx]
		if arg == "--" {
			g.argidx++
			finish("?", nil, false)
			exit.code = 1
			return exit
		}
		if len(arg) < 2 || arg[0] != '-' {
			finish("?", nil, false)
			exit.code = 1
			return exit
		}
		g.cur, g.runeidx = g.argidx, 1
	}
	arg := params[g.cur]
	c := arg[g.runeidx]
	g.runeidx++
	last := g.runeidx >= len(arg)
	advance := func() {
		if last {
			g.argidx++
			g.runeidx = 0
		}
	}
	copt := string([]byte{c}) // llmsh: the byte, not a rune of its value
	i := strings.IndexByte(optstr, c)
	if i < 0 || c == ':' {
		advance()
		if report {
			r.errf("%s: illegal option -- %s\n", r.lookupVar("0").String(), copt)
		}
		if silent {
			finish("?", &copt, true)
		} else {
			finish("?", nil, true)
		}
		return exit
	}
	if i+1 < len(optstr) && optstr[i+1] == ':' {
		var optarg string
		switch {
		case !last:
			optarg = arg[g.runeidx:]
			g.argidx++
		case g.argidx+1 < len(params):
			optarg = params[g.argidx+1]
			g.argidx += 2
		default:
			g.argidx++
			g.runeidx = 0
			if report {
				r.errf("%s: option requires an argument -- %s\n", r.lookupVar("0").String(), copt)
			}
			if silent {
				finish(":", &copt, true)
			} else {
				finish("?", nil, true)
			}
			return exit
		}
		g.runeidx = 0
		finish(copt, &optarg, false)
		return exit
	}
	advance()
	finish(copt, nil, false)
	return exit
}

// unsetOptarg is OPTARG after an option without an argument: bash unsets
// its value and keeps it declared (`declare -p OPTARG`: declare --
// OPTARG); at the end and on an error it unsets it.
func (r *Runner) unsetOptarg() {
	v := r.lookupVar("OPTARG")
	if v.ReadOnly {
		return
	}
	v.Set, v.Kind, v.Str, v.List, v.Map = false, expand.String, "", nil, nil
	if v.Integer {
		v.Set, v.Str = true, "0" // no value is 0 to -i
	}
	r.setVar("OPTARG", v)
}

// getoptsName assigns getopts' NAME: one that is no identifier fails
// only now, status 1, as bash's getopts_bind_variable.
func (r *Runner) getoptsName(name, opt string, bad bool, readonly *bool, exit *exitStatus) {
	if bad {
		r.shErrf("getopts: `%s': not a valid identifier\n", name)
		exit.code = 1
		return
	}
	// llmsh: status 2 for a noassign name (FUNCNAME) too.
	*readonly = r.lookupVar(name).ReadOnly || r.noAssign(name)
	r.assignName("getopts", name, opt) // llmsh: also through a nameref
}
