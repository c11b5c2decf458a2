// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// cd and shift as bash 5.2. See LLMSH.md.

import (
	"context"
	"slices"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// builtinCd is bash's cd: -L, -P (paths are logical either way: symbolic
// links are vfsd's), -e, -@ and "--"; no operand is $HOME, "-" is
// $OLDPWD (printed), "" stays; bash's messages and statuses.
func (r *Runner) builtinCd(ctx context.Context, args []string) uint8 {
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		for _, c := range args[0][1:] {
			if c != 'L' && c != 'P' && c != 'e' { // llmsh: -@ is invalid, as in bash on Linux
				r.errf("%scd: -%c: invalid option\ncd: usage: cd [-L|[-P [-e]] [-@]] [dir]\n", r.errPrefix(), c)
				return 2
			}
		}
		args = args[1:]
	}
	var dir string
	switch len(args) {
	case 0:
		if dir = r.envGet("HOME"); dir == "" {
			if r.lookupVar("HOME").IsSet() {
				return 0 // bash: an empty HOME leaves the directory
			}
			r.errf("%scd: HOME not set\n", r.errPrefix())
			return 1
		}
	case 1:
		dir = args[0]
	default:
		r.errf("%scd: too many arguments\n", r.errPrefix())
		return 1
	}
	switch dir {
	case "":
		// llmsh: bash changes to the working directory itself, so
		// OLDPWD and PWD are set again.
		return r.changeDir(ctx, "cd", ".")
	case "-":
		old := r.lookupVar("OLDPWD")
		if !old.IsSet() {
			r.errf("%scd: OLDPWD not set\n", r.errPrefix())
			return 1
		}
		// llmsh: bash prints OLDPWD as it was (`/usr/../etc`, `.`),
		// an empty one too (a cd "").
		dir = old.String()
		if dir == "" {
			dir = "."
		}
		if st := r.changeDir(ctx, "cd", dir); st != 0 {
			return st
		}
		r.outf("%s\n", old.String())
		return 0
	}
	if st, ok := r.cdPath(ctx, dir); ok {
		return st
	}
	if r.opts[optCdableVars] && syntax.ValidName(dir) {
		// llmsh: shopt cdable_vars: a name that is not a directory is
		// the variable that holds one; cd prints where it went.
		if info, err := r.stat(ctx, r.absPath(dir)); err != nil || !info.IsDir() {
			if v := r.lookupVar(dir); v.IsSet() {
				if v.String() != "" {
					if st := r.changeDir(ctx, "cd", v.String()); st != 0 {
						return st
					}
				}
				r.outf("%s\n", v.String())
				return 0
			}
		}
	}
	return r.changeDir(ctx, "cd", dir)
}

// cdPath is cd DIR through $CDPATH, as bash: a relative DIR that does not
// start with . or .. is looked for under each directory of the list (an
// empty one is the working directory); the first that is a directory is
// gone to, and printed when it came from a non-empty entry. ok is false
// when none is, or CDPATH does not apply.
func (r *Runner) cdPath(ctx context.Context, dir string) (uint8, bool) {
	cdpath := r.envGet("CDPATH")
	if cdpath == "" || strings.HasPrefix(dir, "/") || dir == "." || dir == ".." ||
		strings.HasPrefix(dir, "./") || strings.HasPrefix(dir, "../") {
		return 0, false
	}
	for _, base := range strings.Split(cdpath, ":") {
		cand := dir
		if base != "" {
			cand = strings.TrimSuffix(base, "/") + "/" + dir
		}
		if info, err := r.stat(ctx, r.absPath(cand)); err != nil || !info.IsDir() {
			continue
		}
		if st := r.changeDir(ctx, "cd", cand); st != 0 {
			return st, true
		}
		if base != "" {
			r.outf("%s\n", r.envGet("PWD"))
		}
		return 0, true
	}
	return 0, false
}

// builtinShift is bash's shift: N more than the positional parameters,
// or negative, fails with status 1 and leaves them as they are.
func (r *Runner) builtinShift(args []string) uint8 {
	n := 1
	switch len(args) {
	case 0:
	case 1:
		n2, ok := legalNumber(args[0])
		if !ok {
			r.errf("%sshift: %s: numeric argument required\n", r.errPrefix(), args[0])
			return 1
		}
		n = int(min(n2, int64(len(r.Params))+1))
	}
	if n < 0 {
		r.errf("%sshift: %s: shift count out of range\n", r.errPrefix(), args[0])
		return 1
	}
	if n > len(r.Params) {
		if r.opts[optShiftVerbose] || r.opts[optPosix] { // llmsh: shopt shift_verbose, or posix mode, as bash
			if len(args) == 0 {
				r.errf("%sshift: shift count out of range\n", r.errPrefix())
			} else {
				r.errf("%sshift: %s: shift count out of range\n", r.errPrefix(), args[0])
			}
		}
		return 1
	}
	r.shiftParams(n)
	return 0
}

// shiftParams drops the first n positional parameters (llmsh). Params[n:]
// kept the dropped values alive in the array's front for as long as the
// parameters lived (session 33: `set -- "$big" x; shift` kept big, and
// `shift $#` all of them): none left, Params is nil; once the values
// dropped since the array was last copied make 1 MiB, the rest is copied
// (which keeps `while shift` linear: a copy per MiB dropped). The array
// itself is never changed, as a `for` loop may be walking it.
func (r *Runner) shiftParams(n int) {
	r.paramsGen++
	for _, p := range r.Params[:n] {
		r.shiftDropped += len(p) + 16
	}
	r.Params = r.Params[n:]
	switch {
	case len(r.Params) == 0:
		r.Params, r.shiftDropped = nil, 0
	case r.shiftDropped >= 1<<20:
		r.Params, r.shiftDropped = slices.Clone(r.Params), 0
	}
}
