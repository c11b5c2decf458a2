package builtins

import (
	_ "embed"
	"fmt"
	"io"
	"path"
	"strings"
)

var _ = register(Builtin{Name: "dircolors", Summary: "color setup for ls", Run: dircolorsCmd})

// dircolorsDB is coreutils 9.1's built-in database, as `dircolors -p`
// prints it (LC_ALL=C dircolors -p > builtins/dircolors_db.txt).
//
//go:embed dircolors_db.txt
var dircolorsDB string

// dircolorsSlack and dircolorsCodes are the file-type keywords and the
// LS_COLORS codes they stand for.
var (
	dircolorsSlack = []string{"NORMAL", "NORM", "FILE", "RESET", "DIR", "LNK", "LINK",
		"SYMLINK", "ORPHAN", "MISSING", "FIFO", "PIPE", "SOCK", "BLK", "BLOCK",
		"CHR", "CHAR", "DOOR", "EXEC", "LEFT", "LEFTCODE", "RIGHT", "RIGHTCODE",
		"END", "ENDCODE", "SUID", "SETUID", "SGID", "SETGID", "STICKY",
		"OTHER_WRITABLE", "OWR", "STICKY_OTHER_WRITABLE", "OWT", "CAPABILITY",
		"MULTIHARDLINK", "CLRTOEOL"}
	dircolorsCodes = []string{"no", "no", "fi", "rs", "di", "ln", "ln", "ln", "or", "mi", "pi", "pi",
		"so", "bd", "bd", "cd", "cd", "do", "ex", "lc", "lc", "rc", "rc", "ec", "ec",
		"su", "su", "sg", "sg", "st", "ow", "ow", "tw", "tw", "ca", "mh", "cl"}
)

// dircolorsCmd is coreutils 9.1's dircolors: shell code setting LS_COLORS
// from the built-in database or a file, for the script's TERM and
// COLORTERM; -p prints the database.
func dircolorsCmd(env *Env) int {
	f := NewFlags(env, "Output commands to set the LS_COLORS environment variable.\n\nDetermine format of output:", "[OPTION]... [FILE]")
	f.Epilog = "If FILE is specified, read it to determine which colors to use for which\n" +
		"file types and extensions.  Otherwise, a precompiled database is used.\n" +
		"For details on the format of these files, run 'dircolors --print-database'."
	syntax := byte(0)
	f.Func('b', "sh", NoArg, "", "output Bourne shell code to set LS_COLORS", func(string, bool) error { syntax = 'b'; return nil })
	f.Synonym("bourne-shell", "sh")
	f.Func('c', "csh", NoArg, "", "output C shell code to set LS_COLORS", func(string, bool) error { syntax = 'c'; return nil })
	f.Synonym("c-shell", "csh")
	printDB := f.Bool('p', "print-database", "output defaults")
	printLS := f.Bool(0, "print-ls-colors", "output fully escaped colors for display")
	version := versionOption(f)
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	switch {
	case (*printDB || *printLS) && syntax != 0:
		return f.Fail(&UsageError{"the options to output non shell syntax,\nand to select a shell syntax are mutually exclusive"}, 1)
	case *printDB && *printLS:
		return f.Fail(&UsageError{"options --print-database and --print-ls-colors are mutually exclusive"}, 1)
	case *printDB && len(args) > 0:
		env.Errorf("extra operand %s", env.Quote(args[0]))
		fmt.Fprintf(env.Stderr, "file operands cannot be combined with --print-database (-p)\nTry '%s --help' for more information.\n", env.Name())
		return 1
	case len(args) > 1:
		return f.Fail(&UsageError{"extra operand " + env.Quote(args[1])}, 1)
	}
	if *printDB {
		io.WriteString(env.Stdout, dircolorsDB)
		return 0
	}
	if syntax == 0 && !*printLS {
		shell, _ := envLookup(env.Environ, "SHELL")
		switch base := path.Base(shell); {
		case shell == "":
			env.Errorf("no SHELL environment variable, and no shell type option given")
			return 1
		case base == "csh" || base == "tcsh":
			syntax = 'c'
		default:
			syntax = 'b'
		}
	}
	text, name := dircolorsDB, ""
	if len(args) == 1 {
		name = args[0]
		r, err := env.Open(name)
		var data []byte
		if err == nil {
			data, err = readAllCtx(env, r)
			r.Close()
		}
		if err != nil {
			env.PathError(env.QuoteF(name), err)
			return 1
		}
		text = string(data)
	}
	out, ok := dircolorsParse(env, text, name, *printLS)
	if !ok {
		return 1
	}
	w := stdoutWriter(env)
	switch {
	case *printLS:
		w.WriteString(out)
	case syntax == 'c':
		w.WriteString("setenv LS_COLORS '" + out + "'\n")
	default:
		w.WriteString("LS_COLORS='" + out + "';\nexport LS_COLORS\n")
	}
	return finishOutput(env, w, 0)
}

// dircolorsParse is GNU's dc_parse_stream: the entries that apply to the
// script's TERM and COLORTERM, as LS_COLORS text (or, for
// --print-ls-colors, one coloured line each).
func dircolorsParse(env *Env, text, name string, printLS bool) (string, bool) {
	term, _ := envLookup(env.Environ, "TERM")
	if term == "" {
		term = "none"
	}
	colorterm, _ := envLookup(env.Environ, "COLORTERM")
	const (
		global = iota
		termNo
		termYes
		termSure
	)
	state := global
	ok := true
	var b strings.Builder
	where := name
	if name == "" {
		where = "<internal>"
	} else {
		where = env.QuoteF(name)
	}
	for n, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		keyword, arg, hasArg := dircolorsLine(line)
		if keyword == "" {
			continue
		}
		if !hasArg {
			env.Errorf("%s:%d: invalid line;  missing second token", where, n+1)
			ok = false
			continue
		}
		unrecognized := false
		switch {
		case strings.EqualFold(keyword, "TERM"), strings.EqualFold(keyword, "COLORTERM"):
			subject := term
			if strings.EqualFold(keyword, "COLORTERM") {
				subject = colorterm
			}
			if state != termSure {
				state = termNo
				if matched, _ := path.Match(arg, subject); matched {
					state = termSure
				}
			}
		default:
			if state == termSure {
				state = termYes
			}
			if state == termNo {
				break
			}
			switch {
			case keyword[0] == '.':
				dircolorsEntry(&b, "*"+keyword, arg, printLS)
			case keyword[0] == '*':
				dircolorsEntry(&b, keyword, arg, printLS)
			case strings.EqualFold(keyword, "OPTIONS"), strings.EqualFold(keyword, "COLOR"), strings.EqualFold(keyword, "EIGHTBIT"):
			default:
				unrecognized = true
				for i, s := range dircolorsSlack {
					if strings.EqualFold(keyword, s) {
						dircolorsEntry(&b, dircolorsCodes[i], arg, printLS)
						unrecognized = false
						break
					}
				}
			}
		}
		if unrecognized && (state == termSure || state == termYes) {
			env.Errorf("%s:%d: unrecognized keyword %s", where, n+1, keyword)
			ok = false
		}
	}
	return b.String(), ok
}

// dircolorsLine splits a line into its keyword and argument (GNU's
// parse_line: '#' starts a comment).
func dircolorsLine(line string) (keyword, arg string, hasArg bool) {
	p := strings.TrimLeft(line, " \t\n\v\f\r")
	if p == "" || p[0] == '#' {
		return "", "", false
	}
	i := strings.IndexAny(p, " \t\n\v\f\r")
	if i < 0 {
		return p, "", false
	}
	keyword = p[:i]
	p = strings.TrimLeft(p[i:], " \t\n\v\f\r")
	if p == "" || p[0] == '#' {
		return keyword, "", false
	}
	if j := strings.IndexByte(p, '#'); j >= 0 {
		p = p[:j]
	}
	return keyword, strings.TrimRight(p, " \t\n\v\f\r"), true
}

// dircolorsEntry appends "item=arg:" (or the coloured line of
// --print-ls-colors), quoted as GNU's append_quoted.
func dircolorsEntry(b *strings.Builder, item, arg string, printLS bool) {
	if printLS {
		b.WriteString("\x1b[" + arg + "m" + item + "\t" + arg + "\x1b[0m\n")
		return
	}
	dircolorsQuoted(b, item)
	b.WriteByte('=')
	dircolorsQuoted(b, arg)
	b.WriteByte(':')
}

func dircolorsQuoted(b *strings.Builder, s string) {
	needBackslash := true
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'':
			b.WriteString(`'\'`)
			needBackslash = true
		case '\\', '^':
			needBackslash = !needBackslash
		case ':', '=':
			if needBackslash {
				b.WriteByte('\\')
			}
			needBackslash = true
		default:
			needBackslash = true
		}
		b.WriteByte(s[i])
	}
}
