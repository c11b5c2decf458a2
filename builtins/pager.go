package builtins

import (
	"fmt"
	"io"
	"strings"
	"sync"
)

var _ = register(Builtin{Name: "more", Summary: "copy files to standard output, as more does when it is not on a terminal (llmsh has no pager)", Run: moreCmd})
var _ = register(Builtin{Name: "less", Summary: "copy files to standard output, as less does when it is not on a terminal (llmsh has no pager; options are ignored)", Run: lessCmd})

// moreCmd is util-linux more with its output not a terminal, which is what
// llmsh's commands always see: the files are copied, each after a header
// with its name (standard input without one).
func moreCmd(env *Env) int {
	f := NewFlags(env, "Display the contents of a file in a terminal.\n\n"+
		"llmsh has no pager: the files are copied to standard output, as more does\n"+
		"when its output is not a terminal, and the display options are accepted.", "[options] <file>...")
	f.UtilLinux = true // util-linux's --help layout
	for _, o := range []struct {
		short rune
		long  string
	}{{'d', "silent"}, {'l', "logical"}, {'e', "exit-on-eof"}, {'f', "no-pause"}, {'p', "print-over"},
		{'c', "clean-print"}, {'s', "squeeze"}, {'u', "plain"}} {
		f.Bool(o.short, o.long, "accepted; no effect without a terminal")
	}
	f.String('n', "lines", "number", "the number of lines per screenful (no effect here)")
	version := shortHelpVersion(f, 'h', 'V')
	var args []string
	for _, a := range env.Args[1:] {
		// +NUM and +/STRING (where to start) and -NUM (lines per screen)
		// are more's own forms, for a terminal.
		if len(a) > 1 && (a[0] == '+' || a[0] == '-' && a[1] >= '0' && a[1] <= '9') {
			continue
		}
		args = append(args, a)
	}
	operands, err := f.Parse(args)
	if err != nil {
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	w := stdoutWriter(env)
	if len(operands) == 0 {
		if _, err := io.Copy(w, env.Stdin); err != nil {
			w.Flush()
			env.Errorf("%s", ErrText(err))
		}
		return finishOutput(env, w, 0)
	}
	for _, name := range operands {
		if fi, err := env.FS.Stat(env.Abs(name)); err == nil && fi.IsDir() {
			fmt.Fprintf(w, "\n*** %s: directory ***\n\n", name)
			continue
		}
		r, err := env.FS.OpenFile(env.Abs(name), 0)
		if err == nil && name == "" {
			r.Close()
			err = errEmptyName
		}
		if err != nil {
			w.Flush()
			env.Errorf("cannot open %s: %s", name, ErrText(err))
			continue
		}
		fmt.Fprintf(w, "::::::::::::::\n%s\n::::::::::::::\n", name)
		_, err = io.Copy(w, r)
		r.Close()
		if err != nil {
			w.Flush()
			env.Errorf("%s: %s", name, ErrText(err))
		}
	}
	return finishOutput(env, w, 0)
}

// lessArgOptions are less's short options that take an argument.
const lessArgOptions = "bhjkKoOpPtTxyz#"

// lessLongOptions are less 590's long options, lower-cased (less has
// pairs such as --ignore-case and --IGNORE-CASE).
// They are made the first time less meets a long option.
var lessLongOptions = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, o := range strings.Fields(`auto-buffers buffers chop-long-lines clear-screen color dumb
		exit-follow-on-close file-size follow-name header hilite-search hilite-unread
		ignore-case incsearch jump-target line-num-width line-numbers lesskey-file log-file
		long-prompt max-back-scroll max-forw-scroll mouse no-histdups no-init no-keypad
		no-lessopen no-number-headers no-search-headers no-vbell old-bot pattern prompt
		proc-backspace proc-return proc-tab quiet quit-at-eof quit-if-one-screen
		quit-on-intr quotes raw-control-chars redraw-on-quit rscroll save-marks search-skip-screen
		shift show-preproc-errors silent squeeze-blank-lines status-column status-line tabs tag
		tag-file tilde underline-special use-backslash use-color window word-wrap wheel-lines`) {
		m[o] = true
	}
	return m
})

// lessCmd is less with its output not a terminal: it copies the files (or
// standard input) like cat; a file it cannot read is reported on standard
// output, as less does, and the status stays 0.
func lessCmd(env *Env) int {
	var operands []string
	args := env.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			operands = append(operands, args[i+1:]...)
			i = len(args)
		case a == "--help":
			fmt.Fprintf(env.Stdout, "Usage: less [OPTION]... [FILE]...\n\n"+
				"llmsh has no pager: less copies the files (or standard input) to standard\n"+
				"output, as less does when its output is not a terminal. Options are ignored.\n")
			return 0
		case a == "--version" || a == "-V":
			return printVersion(env)
		case strings.HasPrefix(a, "--"):
			// A long option is ignored; one less 590 lacks is named
			// on stderr, and less goes on (status 0).
			if name, _, _ := strings.Cut(a[2:], "="); !lessLongOptions()[strings.ToLower(name)] {
				fmt.Fprintf(env.Stderr, "There is no %s option (\"less --help\" for help)\n", name)
			}
		case len(a) > 1 && (a[0] == '-' || a[0] == '+'):
			if a[0] == '-' && strings.ContainsRune(lessArgOptions, rune(a[len(a)-1])) && i+1 < len(args) {
				i++ // the option's argument is the next word
			}
		default:
			operands = append(operands, a)
		}
	}
	w := stdoutWriter(env)
	if len(operands) == 0 {
		io.Copy(w, env.Stdin)
		return finishOutput(env, w, 0)
	}
	for _, name := range operands {
		if name == "-" {
			io.Copy(w, env.Stdin)
			continue
		}
		if fi, err := env.FS.Stat(env.Abs(name)); err == nil && fi.IsDir() {
			fmt.Fprintf(w, "%s is a directory\n", name)
			continue
		}
		r, err := env.Open(name)
		if err != nil {
			fmt.Fprintf(w, "%s: %s\n", name, ErrText(err))
			continue
		}
		io.Copy(w, r)
		r.Close()
	}
	return finishOutput(env, w, 0)
}
