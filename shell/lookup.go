package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"

	"github.com/llmsh/llmsh/builtins"
)

// The command-lookup builtins. interp's own type, command -v and hash
// search $PATH through the stat handler; llmsh answers them from what it
// really has: keywords, functions, interp builtins, and its programs in
// the virtual /usr/bin and /bin that PATH names (builtins.LookPath),
// however they are reached (`builtin type`, `command command -v`).
func (s *Shell) lookupCommand(ctx context.Context, args []string) (status int, ok bool) {
	for len(args) > 1 && (args[0] == "builtin" || args[0] == "command" && !strings.HasPrefix(args[1], "-")) {
		args = args[1:]
	}
	if r := currentRunner(ctx); r != nil && interp.IsBuiltin(args[0]) && !r.BuiltinEnabled(args[0]) {
		return 0, false // enable -n turned it off
	}
	switch args[0] {
	case "type":
		return s.typeCmd(ctx, args), true
	case "command":
		if names, verbose, stdPath, ok := commandVOpts(args[1:]); ok {
			return s.commandV(ctx, names, verbose, stdPath), true
		}
	case "hash":
		if len(args) == 1 || strings.HasPrefix(args[1], "-") {
			return 0, false // the fork's: options, the table hash -p fills
		}
		return s.hashCmd(ctx, args), true
	}
	return 0, false
}

// commandVOpts reads the options of `command` (args after the word):
// ok when -v or -V is among them (command -v, -V, -pv, -p -V, -vp …),
// with the names to look up, whether -V was given and whether -p was.
// An unknown option is left to the interpreter's command, which refuses
// it as bash.
func commandVOpts(args []string) (names []string, verbose, stdPath, ok bool) {
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		for _, c := range a[1:] {
			switch c {
			case 'v':
				ok, verbose = true, false // the last of -v and -V counts
			case 'V':
				ok, verbose = true, true
			case 'p':
				stdPath = true
			default:
				return nil, false, false, false
			}
		}
	}
	return args[i:], verbose, stdPath, ok
}

// kindOf is one answer of type: what a name is, and a file's path.
type kindOf struct{ kind, path string }

// kinds lists every kind name has, in the order bash's `type -a` gives
// them; noFuncs leaves functions out (type -f). A program is a file in
// each directory of PATH that has it (the first only unless all);
// hash's table answers first, as bash's. pathVar, when not "", is
// searched instead of the shell's PATH (command -pv).
func (s *Shell) kinds(ctx context.Context, name string, noFuncs, all bool, pathVar string) []kindOf {
	var ks []kindOf
	if _, ok := s.alias(ctx, name); ok {
		ks = append(ks, kindOf{kind: "alias"})
	}
	if syntax.IsKeyword(name) {
		ks = append(ks, kindOf{kind: "keyword"})
	}
	if !noFuncs && s.funcs(ctx)[name] != nil {
		ks = append(ks, kindOf{kind: "function"})
	}
	if builtinOn(ctx, name) || name == "llmsh" || !strings.Contains(name, "/") && !builtins.IsProgram(name) && builtinExists(name) {
		ks = append(ks, kindOf{kind: "builtin"})
	}
	if strings.Contains(name, "/") {
		if s.executable(ctx, name) {
			ks = append(ks, kindOf{"file", name}) // runPath runs it
		}
		return ks
	}
	if r := currentRunner(ctx); r != nil && !all {
		if p, ok := r.Hashed(name); ok {
			if len(ks) == 0 {
				r.HashCommand(name, p, true) // bash's lookup counts a hit
			}
			return append(ks, kindOf{"file", p})
		}
	}
	search := s.searchPath
	if !all {
		search = s.searchPathPreferred
	}
	for _, p := range search(ctx, name, all, pathVar) {
		ks = append(ks, kindOf{"file", p})
	}
	return ks
}

// searchPath searches the PATH of the shell of ctx for the program name
// (builtins.LookPath): its paths, the first only unless all. pathVar,
// when not "", is searched instead of that PATH.
func (s *Shell) searchPath(ctx context.Context, name string, all bool, pathVar string) []string {
	dir, pathVar := searchDirs(ctx, pathVar)
	return builtins.LookPath(name, pathVar, dir, all, func(p string) bool { return s.executable(ctx, p) })
}

// searchDirs is the directory and the PATH that a search of PATH in the
// shell of ctx starts from: pathVar unless it is "".
func searchDirs(ctx context.Context, pathVar string) (dir, pathList string) {
	dir, shellPath := "/", builtins.DefaultPath
	if r := currentRunner(ctx); r != nil {
		dir, shellPath = r.Dir, r.Path()
	}
	if pathVar == "" {
		pathVar = shellPath
	}
	return dir, pathVar
}

// searchPathPreferred is searchPath for the one file that bash's search
// for a command finds (FS_EXEC_PREFERRED; all is ignored): the first
// executable file in PATH or, when there is none, the first file there
// that is no directory, which type and command -v name and which fails
// to run, "Permission denied" (126). type -a and hash want executables.
func (s *Shell) searchPathPreferred(ctx context.Context, name string, _ bool, pathVar string) []string {
	if ps := s.searchPath(ctx, name, false, pathVar); len(ps) > 0 {
		return ps
	}
	dir, pathVar := searchDirs(ctx, pathVar)
	return builtins.LookPath(name, pathVar, dir, false, func(p string) bool {
		info, err := s.client.Stat(p)
		return err == nil && !info.IsDir()
	})
}

// executable reports whether name, a path, is a file with an execute bit
// that runPath would run, or one of llmsh's programs (/usr/bin/cat).
func (s *Shell) executable(ctx context.Context, name string) bool {
	dir := "/"
	if r := currentRunner(ctx); r != nil {
		dir = r.Dir
	}
	p := absPath(dir, name)
	if builtins.ProgramDir(p) && builtins.IsProgram(path.Base(p)) {
		return true
	}
	info, err := s.client.Stat(p)
	return err == nil && !info.IsDir() && info.Mode().Perm()&0o111 != 0
}

// alias returns the value of alias name in the runner that runs the
// command, when aliases are expanded there.
func (s *Shell) alias(ctx context.Context, name string) (string, bool) {
	if r := currentRunner(ctx); r != nil {
		return r.Alias(name)
	}
	return "", false
}

// describe writes bash's `type NAME` text for a name of kind k (a file's
// path p).
func (s *Shell) describe(ctx context.Context, w io.Writer, name string, k kindOf) {
	switch k.kind {
	case "alias":
		value, _ := s.alias(ctx, name)
		fmt.Fprintf(w, "%s is aliased to `%s'\n", name, value)
	case "keyword":
		fmt.Fprintf(w, "%s is a shell keyword\n", name)
	case "builtin":
		fmt.Fprintf(w, "%s is a shell builtin\n", name)
	case "file":
		if r := currentRunner(ctx); r != nil {
			if p, ok := r.Hashed(name); ok && p == k.path {
				fmt.Fprintf(w, "%s is hashed (%s)\n", name, p)
				return
			}
		}
		fmt.Fprintf(w, "%s is %s\n", name, k.path)
	case "function":
		text := ""
		if r := currentRunner(ctx); r != nil {
			text = r.FuncText(name)
		}
		fmt.Fprintf(w, "%s is a function\n%s", name, text)
	}
}

func (s *Shell) typeCmd(ctx context.Context, args []string) int {
	hc := interp.HandlerCtx(ctx)
	mode := ""
	all, noFuncs := false, false
	names := args[1:]
	for len(names) > 0 && strings.HasPrefix(names[0], "-") && names[0] != "-" {
		if names[0] == "--" {
			names = names[1:]
			break
		}
		for _, c := range names[0][1:] {
			switch c {
			case 't', 'p', 'P':
				mode = string(c)
			case 'a':
				all = true
			case 'f':
				noFuncs = true
			default:
				fmt.Fprintf(hc.Stderr, "%stype: -%c: invalid option\ntype: usage: type [-afptP] name [name ...]\n", scriptPrefix(hc), c)
				return 2
			}
		}
		names = names[1:]
	}
	// bash's type reports a write that fails (sh_chkwrite), as the
	// interpreter's builtins do: "type: write error: REASON", status 1.
	stdout := &firstWriteErr{w: hc.Stdout}
	marks := markOutputs(hc.Stdout, hc.Stderr)
	st := s.typeNames(ctx, stdout, names, mode, all, noFuncs)
	if stdout.err != nil {
		fmt.Fprintf(hc.Stderr, "%stype: write error: %s\n", scriptPrefix(hc), builtins.ErrText(stdout.err))
		st = 1
	}
	// A write to a file that fails late is found when it settles.
	return settleOutputs("type", scriptPrefix(hc), hc.Stdout, hc.Stderr, marks, st)
}

// typeNames writes type's answer for each name on stdout; the status is 1
// when a name is not found.
func (s *Shell) typeNames(ctx context.Context, stdout io.Writer, names []string, mode string, all, noFuncs bool) int {
	hc := interp.HandlerCtx(ctx)
	st := 0
	for _, n := range names {
		if mode == "P" {
			// The program's path whatever else the name is, as bash's
			// type -P (which prints the same).
			var ps []string
			if r := currentRunner(ctx); r != nil && !strings.Contains(n, "/") {
				if h, ok := r.Hashed(n); ok {
					ps = []string{h} // hash's table answers alone, with -a too
					r.HashCommand(n, h, true)
				}
			}
			if len(ps) == 0 && all {
				ps = s.searchPath(ctx, n, true, "")
			} else if len(ps) == 0 {
				ps = s.searchPathPreferred(ctx, n, false, "")
			}
			if strings.Contains(n, "/") && s.executable(ctx, n) {
				ps = []string{n}
			}
			for _, p := range ps {
				fmt.Fprintln(stdout, p)
			}
			if len(ps) == 0 {
				st = 1
			}
			continue
		}
		ks := s.kinds(ctx, n, noFuncs, all, "")
		if len(ks) == 0 {
			if mode == "" {
				fmt.Fprintf(hc.Stderr, "%stype: %s: not found\n", scriptPrefix(hc), n)
			}
			st = 1
			continue
		}
		if !all {
			ks = ks[:1]
		}
		for _, k := range ks {
			switch mode {
			case "t":
				fmt.Fprintln(stdout, k.kind)
			case "p":
				// bash prints nothing for a name that is not a file.
				if k.kind == "file" {
					fmt.Fprintln(stdout, k.path)
				}
			default:
				if all && k.kind == "file" {
					// type -a names the files PATH finds, none
					// "hashed", as bash's.
					fmt.Fprintf(stdout, "%s is %s\n", n, k.path)
					continue
				}
				s.describe(ctx, stdout, n, k)
			}
		}
	}
	return st
}

func (s *Shell) commandV(ctx context.Context, names []string, verbose, stdPath bool) int {
	hc := interp.HandlerCtx(ctx)
	found := false
	pathVar := ""
	if stdPath {
		pathVar = interp.StandardPath
	}
	for _, n := range names {
		k, p := "", ""
		if ks := s.kinds(ctx, n, false, false, pathVar); len(ks) > 0 {
			k, p = ks[0].kind, ks[0].path
		}
		switch {
		case k == "":
			if verbose {
				fmt.Fprintf(hc.Stderr, "%scommand: %s: not found\n", scriptPrefix(hc), n)
			}
			continue
		case verbose:
			s.describe(ctx, hc.Stdout, n, kindOf{k, p})
		case k == "alias":
			value, _ := s.alias(ctx, n)
			fmt.Fprintf(hc.Stdout, "alias %s='%s'\n", n, strings.ReplaceAll(value, "'", `'\''`))
		case k == "file":
			fmt.Fprintln(hc.Stdout, p)
		default:
			fmt.Fprintln(hc.Stdout, n)
		}
		found = true
	}
	if found || len(names) == 0 {
		return 0
	}
	return 1
}

func (s *Shell) hashCmd(ctx context.Context, args []string) int {
	hc := interp.HandlerCtx(ctx)
	if !hc.ShellOption("hashall") {
		fmt.Fprintf(hc.Stderr, "%shash: hashing disabled\n", scriptPrefix(hc))
		return 1
	}
	names := args[1:]
	st := 0
	for _, n := range names {
		// bash's hash_builtin: a path, a function or a builtin is left
		// alone; another name is searched in PATH anew (not in the
		// table), entered with no hits, and forgotten when not found.
		if strings.Contains(n, "/") || s.funcs(ctx)[n] != nil {
			continue
		}
		if builtinOn(ctx, n) || n == "llmsh" || !builtins.IsProgram(n) && builtinExists(n) {
			continue
		}
		r := currentRunner(ctx)
		if ps := s.searchPath(ctx, n, false, ""); len(ps) > 0 && r != nil {
			r.ForgetHashed(n)
			r.HashCommand(n, ps[0], false)
			continue
		} else if r != nil {
			r.ForgetHashed(n)
		}
		fmt.Fprintf(hc.Stderr, "%shash: %s: not found\n", scriptPrefix(hc), n)
		st = 1
	}
	return st
}

// noHostUsers is the base environment: it answers interp's "HOME user"
// queries itself, so `~user` never reads the host's user database. Only
// llmsh's own user has a home; `~other` is unknown, so it stays as
// written, as in bash for an unknown user. $UID and $EUID are the
// virtual user's (not exported, read-only, as in bash), never the host's.
type noHostUsers struct{ expand.Environ }

func (e noHostUsers) Get(name string) expand.Variable {
	if user, ok := strings.CutPrefix(name, "HOME "); ok {
		if user == "llmsh" {
			return e.Environ.Get("HOME")
		}
		if user == "" {
			// The current user's home in the user database (expand
			// asks when HOME is unset): the virtual user's.
			return expand.Variable{Set: true, Kind: expand.String, Str: virtualHome}
		}
		// Unknown: the fork's tilde expansion leaves ~user as written
		// (its quote removal done, as bash: ~\/x is ~/x).
		return expand.Variable{}
	}
	if vr, ok := virtualIDs(name); ok {
		return vr
	}
	return e.Environ.Get(name)
}

// virtualIDs is $UID or $EUID of the virtual user; ok is false for
// any other name.
func virtualIDs(name string) (vr expand.Variable, ok bool) {
	if name != "UID" && name != "EUID" {
		return vr, false
	}
	// interp would read the host's ids when these are unset; bash's are
	// `declare -ir`.
	return expand.Variable{Set: true, Kind: expand.String, ReadOnly: true, Integer: true, Str: strconv.Itoa(builtins.VirtualUID)}, true
}

// Each lists the environment with bash's virtual ids that Get answers
// ($UID, $EUID), so that a copy of the variables (a pipeline's element,
// a background job) keeps them and declare -p lists them, as bash.
func (e noHostUsers) Each(f func(name string, vr expand.Variable) bool) {
	stopped := false
	e.Environ.Each(func(name string, vr expand.Variable) bool {
		if name == "UID" || name == "EUID" {
			return true
		}
		if !f(name, vr) {
			stopped = true
			return false
		}
		return true
	})
	for _, name := range []string{"EUID", "UID"} {
		if stopped {
			return
		}
		vr, _ := virtualIDs(name)
		stopped = !f(name, vr)
	}
}

// firstWriteErr passes writes on to w and keeps the first error of one,
// but for a closed pipe's (bash's builtin then ends by SIGPIPE, silently).
type firstWriteErr struct {
	w   io.Writer
	err error
}

func (f *firstWriteErr) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if err != nil && f.err == nil && !errors.Is(err, syscall.EPIPE) && !errors.Is(err, io.ErrClosedPipe) {
		f.err = err
	}
	return n, err
}

// builtinExists reports whether name is a registered command.
func builtinExists(name string) bool {
	_, ok := builtins.Lookup(name)
	return ok
}
