// llmsh: bash's set -o and shopt options, as bash 5.2 has them (see
// LLMSH.md). Upstream had seven set options and a shorter shopt table in
// alphabetical order; llmsh kept errtrace and noclobber in hidden
// variables and printed `set -o` from outside with reflect.

package interp

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/expand"
)

// optKind says what llmsh does with an option.
type optKind uint8

const (
	// optReal options change what the shell does.
	optReal optKind = iota
	// optNoop options are accepted in either state, kept and listed, and
	// change nothing: they are about interactive shells, history,
	// completion, job control or the host, which llmsh has not.
	optNoop
	// optFixed options have bash's default state only: the other one
	// would change the language in a way llmsh does not implement, and
	// is refused.
	optFixed
)

// runnerOpts contains all set and shopt options as one contiguous table.
type runnerOpts [len(posixOptsTable) + len(bashOptsTable)]bool

type posixOpt struct {
	flag byte   // one-character flag form for this option; a space if none exists
	name string // full name of the option
	kind optKind
	def  bool // bash's default state in a script
}

type bashOpt struct {
	name         string
	defaultState bool // Bash's default value for this option
	kind         optKind
}

// posixOptsTable is bash's set -o table, in the order bash lists it.
var posixOptsTable = [...]posixOpt{
	{'a', "allexport", optReal, false},
	{'B', "braceexpand", optReal, true},
	{' ', "emacs", optNoop, false},
	{'e', "errexit", optReal, false},
	{'E', "errtrace", optReal, false},
	{'T', "functrace", optReal, false},
	{'h', "hashall", optReal, true},
	{'H', "histexpand", optNoop, false},
	{' ', "history", optReal, false}, // llmsh: a script's history (scripthist.go)
	{' ', "ignoreeof", optNoop, false},
	{' ', "interactive-comments", optNoop, true}, // llmsh: no effect but at a prompt
	{'k', "keyword", optReal, false},
	{'m', "monitor", optNoop, false},
	{'C', "noclobber", optReal, false},
	{'n', "noexec", optReal, false},
	{'f', "noglob", optReal, false},
	{' ', "nolog", optNoop, false},
	{'b', "notify", optNoop, false},
	{'u', "nounset", optReal, false},
	{'t', "onecmd", optReal, false},
	{'P', "physical", optNoop, false},
	{' ', "pipefail", optReal, false},
	{' ', "posix", optNoop, false},
	{'p', "privileged", optNoop, false},
	{'v', "verbose", optReal, false},
	{' ', "vi", optNoop, false},
	{'x', "xtrace", optReal, false},
}

// bashOptsTable is bash's shopt table, in the order bash lists it.
var bashOptsTable = [...]bashOpt{
	{"autocd", false, optNoop},
	{"assoc_expand_once", false, optNoop}, // llmsh: bash-differences.md
	{"cdable_vars", false, optReal},
	{"cdspell", false, optNoop},
	{"checkhash", false, optNoop},
	{"checkjobs", false, optNoop},
	{"checkwinsize", true, optNoop},
	{"cmdhist", true, optNoop},
	{"compat31", false, optReal}, // llmsh: compat.go
	{"compat32", false, optReal}, // llmsh: compat.go
	{"compat40", false, optReal}, // llmsh: compat.go
	{"compat41", false, optReal}, // llmsh: compat.go
	{"compat42", false, optReal}, // llmsh: compat.go
	{"compat43", false, optReal}, // llmsh: compat.go
	{"compat44", false, optReal}, // llmsh: compat.go
	{"complete_fullquote", true, optNoop},
	{"direxpand", false, optNoop},
	{"dirspell", false, optNoop},
	{"dotglob", false, optReal},
	{"execfail", false, optReal},
	{"expand_aliases", false, optReal},
	{"extdebug", false, optReal},
	{"extglob", false, optReal},
	{"extquote", true, optReal},
	{"failglob", false, optReal},
	{"force_fignore", true, optNoop},
	{"globasciiranges", true, optNoop}, // llmsh: C locale ranges
	{"globskipdots", true, optReal},
	{"globstar", false, optReal},
	{"gnu_errfmt", false, optReal},
	{"histappend", false, optNoop},
	{"histreedit", false, optNoop},
	{"histverify", false, optNoop},
	{"hostcomplete", true, optNoop},
	{"huponexit", false, optNoop},
	{"inherit_errexit", false, optReal},
	{"interactive_comments", true, optNoop},
	{"lastpipe", false, optReal},
	{"lithist", false, optNoop},
	{"localvar_inherit", false, optReal},
	{"localvar_unset", false, optReal},
	{"login_shell", false, optFixed},
	{"mailwarn", false, optNoop},
	{"no_empty_cmd_completion", false, optNoop},
	{"nocaseglob", false, optReal},
	{"nocasematch", false, optReal},
	{"noexpand_translation", false, optNoop},
	{"nullglob", false, optReal},
	{"patsub_replacement", true, optReal},
	{"progcomp", true, optNoop},
	{"progcomp_alias", false, optNoop},
	{"promptvars", true, optNoop},
	{"restricted_shell", false, optFixed},
	{"shift_verbose", false, optReal},
	{"sourcepath", true, optReal},
	{"varredir_close", false, optReal},
	{"xpg_echo", false, optReal},
}

func posixOptIndex(name string) int {
	for i, opt := range &posixOptsTable {
		if opt.name == name {
			return i
		}
	}
	panic("no set option " + name)
}

func bashOptIndex(name string) int {
	for i, opt := range &bashOptsTable {
		if opt.name == name {
			return len(posixOptsTable) + i
		}
	}
	panic("no shopt option " + name)
}

// Indexes in runnerOpts of the options the runner reads.
var (
	optAllExport   = posixOptIndex("allexport")
	optBraceExpand = posixOptIndex("braceexpand")
	optErrExit     = posixOptIndex("errexit")
	optErrTrace    = posixOptIndex("errtrace")
	optHashAll     = posixOptIndex("hashall")
	optEmacs       = posixOptIndex("emacs")
	optVi          = posixOptIndex("vi")
	optComments    = posixOptIndex("interactive-comments")
	optShComments  = bashOptIndex("interactive_comments")
	optLocalUnset  = bashOptIndex("localvar_unset")
	optOneCmd      = posixOptIndex("onecmd")
	optVerbose     = posixOptIndex("verbose")
	optFuncTrace   = posixOptIndex("functrace")
	optNoClobber   = posixOptIndex("noclobber")
	optNoExec      = posixOptIndex("noexec")
	optNoGlob      = posixOptIndex("noglob")
	optNoUnset     = posixOptIndex("nounset")
	optXTrace      = posixOptIndex("xtrace")
	optPipeFail    = posixOptIndex("pipefail")
	optKeyword     = posixOptIndex("keyword")
	optHistory     = posixOptIndex("history")
	optPosix       = posixOptIndex("posix")
	optPrivileged  = posixOptIndex("privileged")
	optMonitor     = posixOptIndex("monitor")
	optIgnoreEOF   = posixOptIndex("ignoreeof")

	optDotGlob           = bashOptIndex("dotglob")
	optGlobSkipDots      = bashOptIndex("globskipdots")
	optExtDebug          = bashOptIndex("extdebug")
	optExpandAliases     = bashOptIndex("expand_aliases")
	optLastPipe          = bashOptIndex("lastpipe")
	optExtGlob           = bashOptIndex("extglob")
	optFailGlob          = bashOptIndex("failglob")
	optInheritErrExit    = bashOptIndex("inherit_errexit")
	optGnuErrfmt         = bashOptIndex("gnu_errfmt")
	optGlobStar          = bashOptIndex("globstar")
	optNoCaseGlob        = bashOptIndex("nocaseglob")
	optNoCaseMatch       = bashOptIndex("nocasematch")
	optNullGlob          = bashOptIndex("nullglob")
	optPatsubReplacement = bashOptIndex("patsub_replacement")
	optXPGEcho           = bashOptIndex("xpg_echo")
	optCdableVars        = bashOptIndex("cdable_vars")
	optVarRedirClose     = bashOptIndex("varredir_close")
	optExtQuote          = bashOptIndex("extquote")
	optShiftVerbose      = bashOptIndex("shift_verbose")
	optExecFail          = bashOptIndex("execfail")
	optSourcePath        = bashOptIndex("sourcepath")
	optLocalVarInherit   = bashOptIndex("localvar_inherit")
)

// defaultOpts sets every option to bash's default state.
func (r *Runner) defaultOpts() {
	for i, opt := range &posixOptsTable {
		r.opts[i] = opt.def
	}
	for i, opt := range &bashOptsTable {
		r.opts[len(posixOptsTable)+i] = opt.defaultState
	}
}

// posixOptByName gives the set option name, and whether it may be set to
// on; nil when there is none.
func (r *Runner) posixOptByName(name string) *bool {
	for i, opt := range &posixOptsTable {
		if opt.name == name {
			return &r.opts[i]
		}
	}
	return nil
}

// optAllowed reports whether the option at index i may be turned to on.
// editMode makes emacs and vi exclusive, as bash's line editing modes:
// turning one on (set -o vi) turns the other off; set -o
// interactive-comments and shopt interactive_comments are one option
// (llmsh).
func (r *Runner) editMode(idx int, on bool) {
	switch idx {
	case optComments:
		r.opts[optShComments] = on
	case optShComments:
		r.opts[optComments] = on
	}
	switch {
	case !on:
	case idx == optEmacs:
		r.opts[optVi] = false
	case idx == optVi:
		r.opts[optEmacs] = false
	}
}

func optAllowed(i int, on bool) bool {
	if i < len(posixOptsTable) {
		opt := posixOptsTable[i]
		return opt.kind != optFixed || opt.def == on
	}
	opt := bashOptsTable[i-len(posixOptsTable)]
	return opt.kind != optFixed || opt.defaultState == on
}

// posixOptFlags returns the one-character flags of the enabled set
// options, as held by "$-", in bash's order.
func (r *Runner) posixOptFlags() string {
	const order = "abefhikmnptuvxBCEHPT"
	flags := make([]byte, 0, len(posixOptsTable))
	for i, opt := range &posixOptsTable {
		if opt.flag != ' ' && r.opts[i] {
			flags = append(flags, opt.flag)
		}
	}
	// llmsh: an interactive shell's i sorts among the options, as
	// bash's himBHs; c and s end the string.
	inv, interactive := strings.CutPrefix(r.llmsh.invocation, "i")
	if interactive {
		flags = append(flags, 'i')
	}
	slices.SortFunc(flags, func(a, b byte) int {
		return indexByte(order, a) - indexByte(order, b)
	})
	return string(flags) + inv
}

// optsOn is $SHELLOPTS (the set -o options that are on) or, with shopt,
// $BASHOPTS: their names in byte order, joined by colons.
func (r *Runner) optsOn(shopt bool) string {
	var names []string
	if shopt {
		for i, opt := range &bashOptsTable {
			if r.opts[len(posixOptsTable)+i] {
				names = append(names, opt.name)
			}
		}
	} else {
		for i, opt := range &posixOptsTable {
			if r.opts[i] {
				names = append(names, opt.name)
			}
		}
	}
	slices.Sort(names)
	return strings.Join(names, ":")
}

// Invocation gives the letters that end $- for how the shell was started:
// "c" for a -c string, "s" for a script on stdin, "is" for an
// interactive shell (its i sorts among the options), as bash's (llmsh).
func Invocation(flags string) RunnerOption {
	return func(r *Runner) error {
		r.llmsh.invocation = flags
		return nil
	}
}

func indexByte(s string, b byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return i
		}
	}
	return len(s)
}

func (r *Runner) posixOptByFlag(flag byte) *bool {
	for i, opt := range &posixOptsTable {
		if opt.flag == flag {
			return &r.opts[i]
		}
	}
	return nil
}

// importShellOpts turns on the options that SHELLOPTS and BASHOPTS
// name when the shell's environment has them (a parent shell exported
// them), and keeps them exported, as bash's initialize_shell_variables;
// names of no option are passed over (llmsh).
//
// A shell started privileged (bash -p) turns on none of them, as bash's
// initialize_shell_variables in privileged mode: `set -x; export
// SHELLOPTS; bash -p -c 'echo $-'` says hpBc.
func (r *Runner) importShellOpts() {
	for _, name := range [...]string{"SHELLOPTS", "BASHOPTS"} {
		vr := r.Env.Get(name)
		if !vr.IsSet() || !vr.Exported || vr.Kind != expand.String {
			continue
		}
		for _, opt := range strings.Split(vr.Str, ":") {
			if r.opts[optPrivileged] {
				break
			}
			var p *bool
			if name == "SHELLOPTS" {
				p = r.posixOptByName(opt)
			} else {
				p, _ = r.bashOptByName(opt)
			}
			if p != nil && optAllowed(r.optIndex(p), true) {
				*p = true
				r.editMode(r.optIndex(p), true)
			}
		}
		r.dynExport(name, []string{"-x"})
	}
}

// bashOptByName gives the shopt option name; nil when there is none.
func (r *Runner) bashOptByName(name string) (status *bool, supported bool) {
	for i, opt := range bashOptsTable {
		if opt.name == name {
			index := len(posixOptsTable) + i
			return &r.opts[index], true
		}
	}
	return nil, false
}

// optIndex gives the index in runnerOpts of a pointer that
// posixOptByName, posixOptByFlag or bashOptByName gave.
func (r *Runner) optIndex(p *bool) int {
	for i := range r.opts {
		if &r.opts[i] == p {
			return i
		}
	}
	return -1
}

// printSetOpts prints set -o (plus: set +o) as bash does.
func (r *Runner) printSetOpts(plus bool) {
	for i, opt := range &posixOptsTable {
		switch {
		case plus && r.opts[i]:
			r.outf("set -o %s\n", opt.name)
		case plus:
			r.outf("set +o %s\n", opt.name)
		default:
			r.outf("%-15s\t%s\n", opt.name, r.optStatusText(r.opts[i]))
		}
	}
}

// PrintInvocationOptions writes to w what `bash -o` (plus: `bash +o`)
// lists when -o comes last on its command line: set -o's listing of the
// new shell's options, where emacs is on (bash turns line editing on
// before it knows the shell is not interactive).
func (r *Runner) PrintInvocationOptions(w io.Writer, plus bool) {
	if !r.didReset {
		r.Reset()
	}
	for i, opt := range &posixOptsTable {
		on := r.opts[i] || opt.name == "emacs"
		switch {
		case plus && on:
			fmt.Fprintf(w, "set -o %s\n", opt.name)
		case plus:
			fmt.Fprintf(w, "set +o %s\n", opt.name)
		default:
			fmt.Fprintf(w, "%-15s\t%s\n", opt.name, r.optStatusText(on))
		}
	}
}

// ShellOption reports whether the set or shopt option name is on in the
// shell that runs the handler (false for an unknown name).
func (hc HandlerContext) ShellOption(name string) bool {
	if hc.runner == nil {
		return false
	}
	if p := hc.runner.posixOptByName(name); p != nil {
		return *p
	}
	if p, _ := hc.runner.bashOptByName(name); p != nil {
		return *p
	}
	return false
}

// posixMode does what bash's set -o posix and set +o posix do besides
// the option itself (posix_initialize): POSIXLY_CORRECT=y is set and
// unset; posix mode turns inherit_errexit, expand_aliases and
// shift_verbose on; leaving it turns the last two off (on for
// expand_aliases in an interactive shell) and leaves inherit_errexit on
// (bash 5.2). $BASHOPTS is not updated (snapBashOpts).
func (r *Runner) posixMode(on bool) {
	// Before the first Reset (Params at New: bash -o posix, --posix)
	// there are no variables yet: Reset sets POSIXLY_CORRECT then.
	if r.writeEnv != nil {
		if on {
			r.setVarString("POSIXLY_CORRECT", "y")
		} else {
			r.delVar("POSIXLY_CORRECT")
		}
	}
	r.posixOpts(on)
}

// posixOpts sets the options that POSIX mode turns on or off, as bash's
// posix_initialize; setting or unsetting POSIXLY_CORRECT does it too
// (sv_strict_posix, llmsh).
func (r *Runner) posixOpts(on bool) {
	r.snapBashOpts()
	if on {
		r.opts[optInheritErrExit] = true
		r.opts[optExpandAliases], r.opts[optShiftVerbose] = true, true
	} else {
		r.opts[optExpandAliases], r.opts[optShiftVerbose] = strings.Contains(r.llmsh.invocation, "i"), false
	}
	r.updateExpandOpts()
}

// snapBashOpts keeps $BASHOPTS as it is before an option of shopt
// changes other than by shopt -s or -u: bash updates it only there
// (set_bashopts), so set -o posix and GLOBIGNORE leave it stale.
func (r *Runner) snapBashOpts() {
	if !r.bashOptsSnap {
		r.bashOpts, r.bashOptsSnap = r.optsOn(true), true
	}
}

// shoptBuiltin is bash's shopt [-pqsu] [-o] [optname ...].
func (r *Runner) shoptBuiltin(args []string) uint8 {
	mode, posixOpts, print, quiet := "", false, false, false
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		for _, c := range args[0][1:] {
			switch c {
			case 's', 'u':
				if mode != "" && mode != string(c) {
					r.errf("%sshopt: cannot set and unset shell options simultaneously\n", r.errPrefix())
					return 1
				}
				mode = string(c)
			case 'o':
				posixOpts = true
			case 'p':
				print = true
			case 'q':
				quiet = true
			default:
				r.errf("%sshopt: -%c: invalid option\nshopt: usage: shopt [-pqsu] [-o] [optname ...]\n", r.errPrefix(), c)
				return 2
			}
		}
		args = args[1:]
	}
	type entry struct {
		name string
		idx  int
	}
	var all []entry
	if posixOpts {
		for i, opt := range &posixOptsTable {
			all = append(all, entry{opt.name, i})
		}
	} else {
		for i, opt := range &bashOptsTable {
			all = append(all, entry{opt.name, len(posixOptsTable) + i})
		}
	}
	show := func(e entry) {
		on := r.opts[e.idx]
		switch {
		case quiet:
		case print && posixOpts:
			sign := "+"
			if on {
				sign = "-"
			}
			r.outf("set %so %s\n", sign, e.name)
		case print:
			sign := "u"
			if on {
				sign = "s"
			}
			r.outf("shopt -%s %s\n", sign, e.name)
		default:
			r.outf("%-15s\t%s\n", e.name, r.optStatusText(on))
		}
	}
	if len(args) == 0 {
		if quiet {
			return 0
		}
		for _, e := range all {
			if mode == "" || r.opts[e.idx] == (mode == "s") {
				show(e)
			}
		}
		return 0
	}
	var status uint8
	for _, name := range args {
		idx := -1
		for _, e := range all {
			if e.name == name {
				idx = e.idx
			}
		}
		if idx < 0 {
			if posixOpts {
				r.errf("%sshopt: %s: invalid option name\n", r.errPrefix(), name)
				if mode == "s" || mode == "u" {
					continue // llmsh: bash's set_minus_o_option status is dropped: 0
				}
			} else {
				r.errf("%sshopt: %s: invalid shell option name\n", r.errPrefix(), name)
			}
			status = 1
			continue
		}
		switch mode {
		case "s", "u":
			on := mode == "s"
			if name == "login_shell" || name == "restricted_shell" {
				continue // llmsh: read-only, as bash: unchanged, status 0
			}
			if !optAllowed(idx, on) {
				r.errf("%sshopt: %s: not supported by llmsh\n", r.errPrefix(), name)
				status = 1
				continue
			}
			if isCompatOpt(idx) {
				r.setCompatOpt(idx, on)
				continue
			}
			r.opts[idx] = on
			r.editMode(idx, on)
			if idx == optExtDebug {
				// llmsh: as bash, extdebug sets errtrace and functrace.
				r.opts[optErrTrace], r.opts[optFuncTrace] = on, on
				r.initMainArgs()
			}
		default:
			show(entry{name, idx})
			if !r.opts[idx] {
				status = 1
			}
		}
	}
	if (mode == "s" || mode == "u") && !posixOpts {
		r.bashOptsSnap = false // bash's set_bashopts: up to date again
	}
	r.updateExpandOpts()
	return status
}

// IsShoptOption reports whether name is one of bash's shopt options
// (llmsh: a nested `bash -O NAME` checks its options with it).
func IsShoptOption(name string) bool {
	for _, opt := range &bashOptsTable {
		if opt.name == name {
			return true
		}
	}
	return false
}

// Shopt runs `shopt ARGS...` in the shell, for what its invocation asks
// (llmsh: bash -O NAME is shopt -s NAME, a bare -O lists the options as
// shopt does, +O as shopt -p); it returns shopt's status.
func (r *Runner) Shopt(args ...string) int {
	if !r.didReset {
		r.Reset()
	}
	return int(r.shoptBuiltin(args))
}

// IsSetOption reports whether name is one of bash's set -o options that
// llmsh accepts in the state on (llmsh: a nested `bash -o NAME` checks
// its options with it).
func IsSetOption(name string, on bool) bool {
	for i, opt := range &posixOptsTable {
		if opt.name == name {
			return optAllowed(i, on)
		}
	}
	return false
}
