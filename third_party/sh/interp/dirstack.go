// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// llmsh: dirs, pushd and popd as bash 5.2's (see LLMSH.md).

import (
	"context"
	"slices"
	"strconv"
	"strings"
)

// dirEntries is the directory stack as bash numbers it: entry 0 is the
// working directory, then the directories pushed, newest first. The
// runner keeps them in r.dirStack oldest first, its last element the
// working directory when the stack last changed.
func (r *Runner) dirEntries() []string {
	e := []string{r.Dir}
	if len(r.dirStack) > 1 {
		e = append(e, r.dirStack[:len(r.dirStack)-1]...)
		slices.Reverse(e[1:])
	}
	return e
}

// setDirEntries makes e the stack (e[0] the working directory).
func (r *Runner) setDirEntries(e []string) {
	st := append([]string(nil), e[1:]...)
	slices.Reverse(st)
	r.dirStack = append(st, e[0])
}

// dirIndex is the entry that +N or -N names in a stack of n entries,
// and whether arg is such a number at all.
func dirIndex(arg string, n int) (i int, isNum, ok bool) {
	v, err := strconv.Atoi(arg[1:])
	if err != nil || v < 0 || arg[1] == '+' || arg[1] == '-' {
		return 0, false, false
	}
	if arg[0] == '-' {
		v = n - 1 - v
	}
	return v, true, v >= 0 && v < n
}

// tildeDir is dir with $HOME written ~, as dirs shows it without -l.
func (r *Runner) tildeDir(dir string) string {
	home := r.envGet("HOME")
	switch {
	case home == "" || home == "/":
		return dir
	case dir == home:
		return "~"
	case strings.HasPrefix(dir, home+"/"):
		return "~" + dir[len(home):]
	}
	return dir
}

// dirsFail reports a failure of dirs, pushd or popd with bash's message
// (and usage line, for a bad argument).
func (r *Runner) dirsFail(code uint8, cmd, msg string, usage bool) exitStatus {
	r.errf("%s%s: %s\n", r.errPrefix(), cmd, msg)
	if usage {
		r.errf("%s: usage: %s\n", cmd, map[string]string{
			"dirs":  "dirs [-clpv] [+N] [-N]",
			"pushd": "pushd [-n] [+N | -N | dir]",
			"popd":  "popd [-n] [+N | -N]",
		}[cmd])
	}
	return exitStatus{code: code}
}

// dirsBuiltin is bash's dirs.
func (r *Runner) dirsBuiltin(args []string) exitStatus {
	long, perLine, verbose := false, false, false
	pick := ""
	for _, a := range args {
		switch a {
		case "-c":
			r.dirStack = append(r.dirStack[:0], r.Dir)
			return exitStatus{} // bash prints nothing then
		case "-l":
			long = true
			continue
		case "-p":
			perLine = true
			continue
		case "-v":
			perLine, verbose = true, true
			continue
		}
		if len(a) > 1 && (a[0] == '+' || a[0] == '-') {
			if _, isNum, _ := dirIndex(a, 1); isNum {
				pick = a
				continue
			}
			return r.dirsFail(2, "dirs", a+": invalid number", true)
		}
		return r.dirsFail(2, "dirs", a+": invalid option", true) // bash takes no names
	}
	e := r.dirEntries()
	show := func(d string) string {
		if long {
			return d
		}
		return r.tildeDir(d)
	}
	if pick != "" {
		i, _, ok := dirIndex(pick, len(e))
		if !ok {
			if len(e) == 1 {
				return r.dirsFail(1, "dirs", "directory stack empty", false)
			}
			return r.dirsFail(1, "dirs", strings.TrimPrefix(pick, "+")+": directory stack index out of range", false)
		}
		r.outf("%s\n", show(e[i]))
		return exitStatus{}
	}
	for i, d := range e {
		switch {
		case verbose:
			r.outf("%2d  %s\n", i, show(d))
		case perLine:
			r.outf("%s\n", show(d))
		default:
			if i > 0 {
				r.out(" ")
			}
			r.out(show(d))
		}
	}
	if !perLine {
		r.out("\n")
	}
	return exitStatus{}
}

// pushdPopd is bash's pushd and popd.
func (r *Runner) pushdPopd(ctx context.Context, cmd string, args []string) exitStatus {
	noChange := false
	var arg string
	n := 0
	for i, a := range args {
		if a == "--" {
			n += len(args) - i - 1
			if i+1 < len(args) {
				arg = args[i+1]
			}
			break
		}
		if a == "-n" && n == 0 {
			noChange = true
			continue
		}
		n++
		if n == 1 {
			arg = a
		}
	}
	if n > 1 {
		if cmd == "popd" {
			return r.dirsFail(2, cmd, args[len(args)-1]+": invalid argument", true)
		}
		return r.dirsFail(1, cmd, "too many arguments", false)
	}
	e := r.dirEntries()
	index := -1
	if len(arg) > 1 && (arg[0] == '+' || arg[0] == '-') {
		i, isNum, ok := dirIndex(arg, len(e))
		switch {
		case !isNum:
			return r.dirsFail(2, cmd, arg+": invalid number", true)
		case len(e) == 1:
			return r.dirsFail(1, cmd, "directory stack empty", false)
		case !ok:
			return r.dirsFail(1, cmd, arg+": directory stack index out of range", false)
		}
		index = i
	} else if cmd == "popd" && (arg == "+" || arg == "-") {
		return r.dirsFail(2, cmd, arg+": invalid number", true) // bash's
	} else if cmd == "popd" && arg != "" {
		return r.dirsFail(2, cmd, arg+": invalid argument", true)
	}
	cd := func(dir string) bool {
		if noChange {
			return true
		}
		return r.changeDir(ctx, cmd, dir) == 0
	}
	switch {
	case cmd == "popd":
		if len(e) == 1 {
			return r.dirsFail(1, cmd, "directory stack empty", false)
		}
		if index < 0 {
			index = 0
			if noChange {
				index = 1
			}
		}
		rest := slices.Delete(slices.Clone(e), index, index+1)
		if index == 0 {
			if !cd(rest[0]) {
				return exitStatus{code: 1}
			}
			rest[0] = r.Dir
		}
		r.setDirEntries(rest)
	case index >= 0: // pushd +N, -N: rotate entry N to the top
		rot := append(slices.Clone(e[index:]), e[:index]...)
		if !cd(rot[0]) {
			return exitStatus{code: 1}
		}
		if !noChange {
			rot[0] = r.Dir
		}
		r.setDirEntries(rot)
	case arg == "": // pushd: swap the top two
		if len(e) < 2 {
			return r.dirsFail(1, cmd, "no other directory", false)
		}
		e[0], e[1] = e[1], e[0]
		if !cd(e[0]) {
			return exitStatus{code: 1}
		}
		e[0] = r.Dir
		r.setDirEntries(e)
	case noChange: // pushd -n DIR: DIR becomes entry 1
		r.setDirEntries(slices.Insert(e, 1, arg)) // as given, as bash
	default:
		old := r.Dir
		if !cd(arg) {
			return exitStatus{code: 1}
		}
		e[0] = old
		r.setDirEntries(append([]string{r.Dir}, e...))
	}
	return r.dirsBuiltin(nil)
}
