package builtins

import (
	"fmt"
	"io"
	"strings"
)

var _ = register(Builtin{Name: "getopt", Summary: "parse command options (util-linux getopt)", Run: getoptCmd})

// getopt's exit statuses (util-linux).
const (
	getoptParseError = 1 // getopt(3) found an error in the parameters
	getoptUsageError = 2 // getopt(1)'s own options are wrong
	getoptTestStatus = 4 // -T: the enhanced getopt
)

// goLong is one long option getopt(1) was told to recognise.
type goLong struct {
	name string
	arg  int // 0 none, 1 required, 2 optional
}

// goConfig is how one getopt(1) call parses and prints.
type goConfig struct {
	name        string // the program named in messages (-n)
	short       string // the short options, as getopt(3)'s optstring
	long        []goLong
	longOnly    bool // -a: long options may start with one '-'
	quiet       bool // -q: no messages from the parse
	quietOutput bool // -Q: no output
	quote       bool // quote the output for the shell
	tcsh        bool // -s csh / tcsh quoting
	posixly     bool // POSIXLY_CORRECT is set
}

func getoptCmd(env *Env) int {
	compat, posixly := false, false
	for _, kv := range env.Environ {
		compat = compat || strings.HasPrefix(kv, "GETOPT_COMPATIBLE=")
		posixly = posixly || strings.HasPrefix(kv, "POSIXLY_CORRECT=")
	}
	c := goConfig{name: "getopt", quote: true, posixly: posixly}
	args := env.Args[1:]
	if len(args) == 0 {
		if compat {
			fmt.Fprintln(env.Stdout, " --")
			return 0
		}
		fmt.Fprintf(env.Stderr, "getopt: missing optstring argument\nTry 'getopt --help' for more information.\n")
		return getoptUsageError
	}
	if !strings.HasPrefix(args[0], "-") || compat {
		// The first form: getopt OPTSTRING PARAMETERS, unquoted.
		c.quote = false
		c.short = strings.TrimLeft(args[0], "-+")
		return c.generate(env.Stdout, env.Stderr, args[1:])
	}
	f := NewFlags(env, "Parse command options.",
		"<optstring> <parameters>",
		"[options] [--] <optstring> <parameters>",
		"[options] -o|--options <optstring> [options] [--] <parameters>")
	f.UtilLinux = true // util-linux's --help layout
	f.StopAtOperand = true
	var short *string
	test := false
	f.BoolVar(&c.longOnly, 'a', "alternative", "allow long options starting with single -")
	f.Func('l', "longoptions", RequiredArg, "<longopts>", "the long options to be recognized", func(v string, _ bool) error {
		return c.addLong(v)
	})
	f.StringVar(&c.name, 'n', "name", "<progname>", "the name under which errors are reported")
	f.Func('o', "options", RequiredArg, "<optstring>", "the short options to be recognized", func(v string, _ bool) error {
		short = &v
		return nil
	})
	f.BoolVar(&c.quiet, 'q', "quiet", "disable error reporting by getopt(3)")
	f.BoolVar(&c.quietOutput, 'Q', "quiet-output", "no normal output")
	f.Func('s', "shell", RequiredArg, "<shell>", "set quoting conventions to those of <shell>", func(v string, _ bool) error {
		switch v {
		case "sh", "bash":
			c.tcsh = false
		case "csh", "tcsh":
			c.tcsh = true
		default:
			return &UsageError{"unknown shell after -s or --shell argument"}
		}
		return nil
	})
	f.BoolVar(&test, 'T', "test", "test for getopt(1) version")
	f.Func('u', "unquoted", NoArg, "", "do not quote the output", func(string, bool) error {
		c.quote = false
		return nil
	})
	version := shortHelpVersion(f, 'h', 'V')
	f.Epilog = "In llmsh getopt is util-linux's getopt(1) built in: its output is meant\nfor eval \"set -- $(getopt ...)\"."
	rest, err := f.Parse(args)
	if err != nil || *version {
		if err == nil {
			return printVersion(env)
		}
		return f.Fail(err, getoptUsageError)
	}
	if test {
		return getoptTestStatus
	}
	if short != nil {
		c.short = *short
	} else {
		if len(rest) == 0 {
			fmt.Fprintf(env.Stderr, "getopt: missing optstring argument\nTry 'getopt --help' for more information.\n")
			return getoptUsageError
		}
		c.short, rest = rest[0], rest[1:]
	}
	return c.generate(env.Stdout, env.Stderr, rest)
}

// addLong adds the long options of one -l argument: names separated by
// commas or blanks, each with ':' (a required argument) or '::' (an
// optional one).
func (c *goConfig) addLong(list string) error {
	for _, name := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }) {
		l := goLong{name: name}
		if n, ok := strings.CutSuffix(name, "::"); ok {
			l = goLong{n, 2}
		} else if n, ok := strings.CutSuffix(name, ":"); ok {
			l = goLong{n, 1}
		}
		if l.name == "" {
			return &UsageError{"empty long option after -l or --long argument"}
		}
		c.long = append(c.long, l)
	}
	return nil
}

// generate parses params as glibc's getopt_long (or getopt_long_only)
// does with c's options, and prints them normalised: the options, "--",
// then the operands.
func (c *goConfig) generate(stdout, stderr io.Writer, params []string) int {
	optstr := c.short
	order := "permute"
	switch {
	case strings.HasPrefix(optstr, "-"):
		order, optstr = "inorder", optstr[1:]
	case strings.HasPrefix(optstr, "+"):
		order, optstr = "require", optstr[1:]
	case c.posixly:
		order = "require"
	}
	colon := strings.HasPrefix(optstr, ":")
	var out strings.Builder
	status := 0
	// fail notes an error in the parameters; getopt(3) is silent under
	// -q and with a leading ':' in the optstring.
	fail := func(format string, a ...any) {
		status = getoptParseError
		if !c.quiet && !colon {
			fmt.Fprintf(stderr, "%s: "+format+"\n", append([]any{c.name}, a...)...)
		}
	}
	emit := func(s string) {
		if !c.quietOutput {
			out.WriteString(s)
		}
	}
	arg := func(v string) {
		if !c.quietOutput {
			out.WriteString(" " + c.normalize(v))
		}
	}
	var operands []string
	i := 0
	for i < len(params) {
		p := params[i]
		i++
		if p == "--" {
			operands = append(operands, params[i:]...)
			break
		}
		if len(p) < 2 || p[0] != '-' {
			switch order {
			case "require":
				operands = append(operands, params[i-1:]...)
				i = len(params)
			case "inorder":
				arg(p)
			default:
				operands = append(operands, p)
			}
			continue
		}
		if strings.HasPrefix(p, "--") || c.longOnly && (len(p) > 2 || !c.isShort(p[1])) {
			prefix, body := "--", p[2:]
			if !strings.HasPrefix(p, "--") {
				prefix, body = "-", p[1:]
			}
			l, amb, found := c.lookupLong(body)
			switch {
			case amb != nil:
				msg := fmt.Sprintf("option '%s%s' is ambiguous; possibilities:", prefix, body)
				for _, a := range amb {
					msg += fmt.Sprintf(" '%s%s'", prefix, a.name)
				}
				fail("%s", msg)
				continue
			case !found:
				if prefix == "--" || !c.isShort(p[1]) {
					fail("unrecognized option '%s%s'", prefix, body)
					continue
				}
				// getopt_long_only: not a long option, but -x… starts
				// with a short one: read the word as short options.
			default:
				_, val, hasVal := strings.Cut(body, "=")
				switch {
				case l.arg == 0 && hasVal:
					fail("option '%s%s' doesn't allow an argument", prefix, l.name)
				case l.arg == 1 && !hasVal && i >= len(params):
					fail("option '%s%s' requires an argument", prefix, l.name)
				case l.arg == 1 && !hasVal:
					emit(" --" + l.name)
					arg(params[i])
					i++
				case l.arg == 0:
					emit(" --" + l.name)
				default:
					emit(" --" + l.name)
					arg(val) // an optional argument not given is ''
				}
				continue
			}
		}
		c.shortOpts(p[1:], params, &i, emit, arg, fail)
	}
	if !c.quietOutput {
		out.WriteString(" --")
		for _, o := range operands {
			out.WriteString(" " + c.normalize(o))
		}
		fmt.Fprintln(stdout, out.String())
	}
	return status
}

// shortOpts reads one word of short options (the text after its '-').
func (c *goConfig) shortOpts(word string, params []string, i *int, emit, arg func(string), fail func(string, ...any)) {
	for j := 0; j < len(word); j++ {
		ch := word[j]
		k := strings.IndexByte(c.optstr(), ch)
		if k < 0 || ch == ':' {
			fail("invalid option -- '%c'", ch)
			continue
		}
		spec := c.optstr()[k+1:]
		switch {
		case strings.HasPrefix(spec, "::"):
			emit(" -" + string(ch))
			arg(word[j+1:]) // only attached; none is ''
			return
		case strings.HasPrefix(spec, ":"):
			if j+1 < len(word) {
				emit(" -" + string(ch))
				arg(word[j+1:])
			} else if *i < len(params) {
				emit(" -" + string(ch))
				arg(params[*i])
				*i++
			} else {
				fail("option requires an argument -- '%c'", ch)
			}
			return
		default:
			emit(" -" + string(ch))
		}
	}
}

// optstr is the short options without their ordering and colon marks.
func (c *goConfig) optstr() string {
	return strings.TrimLeft(c.short, "+-")
}

// isShort reports whether ch is one of the short options.
func (c *goConfig) isShort(ch byte) bool {
	return ch != ':' && strings.IndexByte(c.optstr(), ch) >= 0
}

// lookupLong finds the long option body names (NAME or NAME=VALUE): an
// exact name, or the one name it abbreviates; amb lists the names it
// abbreviates when there are several.
func (c *goConfig) lookupLong(body string) (l goLong, amb []goLong, found bool) {
	name, _, _ := strings.Cut(body, "=")
	var matches []goLong
	for _, o := range c.long {
		if o.name == name {
			return o, nil, true
		}
		if strings.HasPrefix(o.name, name) {
			matches = append(matches, o)
		}
	}
	switch len(matches) {
	case 0:
		return goLong{}, nil, false
	case 1:
		return matches[0], nil, true
	}
	return goLong{}, matches, false
}

// normalize quotes v for the shell getopt's output is meant for (or
// leaves it as it is under -u).
func (c *goConfig) normalize(v string) string {
	if !c.quote {
		return v
	}
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(v); i++ {
		ch := v[i]
		switch {
		case ch == '\'':
			b.WriteString(`'\''`)
		case c.tcsh && ch == '!':
			b.WriteString(`'\!'`)
		case c.tcsh && ch == '\n':
			b.WriteString(`\n`)
		case c.tcsh && (ch == ' ' || ch == '\t' || ch == '\v' || ch == '\f' || ch == '\r'):
			b.WriteString(`'\` + string(ch) + `'`)
		default:
			b.WriteByte(ch)
		}
	}
	b.WriteByte('\'')
	return b.String()
}
