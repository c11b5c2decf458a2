package builtins

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

var _ = register(Builtin{Name: "envsubst", Summary: "substitute the values of environment variables (GNU gettext)", Run: envsubstCmd})

func envsubstCmd(env *Env) int {
	f := NewFlags(env, "Substitutes the values of environment variables.", "[OPTION] [SHELL-FORMAT]")
	// gettext's sections, its -h and -V among them.
	f.Section("Operation mode:")
	vars := f.Bool('v', "variables", "output the variables occurring in SHELL-FORMAT")
	version := shortHelpVersion(f, 'h', 'V')
	f.Section("Informative output:")
	f.Row("-h, --help", "display this help and exit")
	f.Row("-V, --version", "output version information and exit")
	f.OwnHelpRows = true
	f.Epilog = "In normal operation mode, standard input is copied to standard output,\n" +
		"with references to environment variables of the form $VARIABLE or ${VARIABLE}\n" +
		"being replaced with the corresponding values.  If a SHELL-FORMAT is given,\n" +
		"only those environment variables that are referenced in SHELL-FORMAT are\n" +
		"substituted; otherwise all environment variables references occurring in\n" +
		"standard input are substituted.\n\n" +
		"When --variables is used, standard input is ignored, and the output consists\n" +
		"of the environment variables that are referenced in SHELL-FORMAT, one per line.\n\n" +
		"In llmsh the environment is the script's exported variables."
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	if len(args) > 1 {
		env.Errorf("too many arguments")
		return 1
	}
	if *vars {
		if len(args) == 0 {
			env.Errorf("missing arguments")
			return 1
		}
		w := stdoutWriter(env)
		envsubstRefs(args[0], func(name string) { fmt.Fprintln(w, name) })
		return finishOutput(env, w, 0)
	}
	var only map[string]bool
	if len(args) == 1 {
		only = map[string]bool{}
		envsubstRefs(args[0], func(name string) { only[name] = true })
	}
	value := func(name string) (string, bool) {
		if only != nil && !only[name] {
			return "", false
		}
		v, _ := envLookup(env.Environ, name)
		return v, true
	}
	r := bufio.NewReaderSize(env.Stdin, 64<<10)
	w := stdoutWriter(env)
	var buf []byte
	for {
		var err error
		buf, err = env.gatherLine(buf[:0], r, '\n')
		if len(buf) != 0 {
			w.WriteString(envsubstLine(string(buf), value))
		}
		if err == io.EOF {
			break
		}
		if quietStop(err) {
			w.Flush()
			return 1
		}
		if err != nil {
			w.Flush()
			env.Errorf("error while reading %s: %s", "\"standard input\"", ErrText(err))
			return 1
		}
	}
	return finishOutput(env, w, 0)
}

// envsubstRef reads a reference at s[i] == '$': $NAME or ${NAME}. It
// returns the name and the reference's length, or 0 when there is none.
func envsubstRef(s string, i int) (string, int) {
	j, brace := i+1, false
	if j < len(s) && s[j] == '{' {
		j, brace = j+1, true
	}
	k := j
	for k < len(s) && (s[k] == '_' || s[k] >= 'a' && s[k] <= 'z' || s[k] >= 'A' && s[k] <= 'Z' || k > j && s[k] >= '0' && s[k] <= '9') {
		k++
	}
	if k == j {
		return "", 0
	}
	if brace {
		if k >= len(s) || s[k] != '}' {
			return "", 0
		}
		return s[j:k], k + 1 - i
	}
	return s[j:k], k - i
}

// envsubstRefs calls fn with the name of each reference in format, in order.
func envsubstRefs(format string, fn func(string)) {
	for i := 0; i < len(format); i++ {
		if format[i] != '$' {
			continue
		}
		if name, n := envsubstRef(format, i); n > 0 {
			fn(name)
			i += n - 1
		}
	}
}

// envsubstLine replaces the references in line whose names value gives.
func envsubstLine(line string, value func(string) (string, bool)) string {
	if !strings.Contains(line, "$") {
		return line
	}
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		if line[i] == '$' {
			if name, n := envsubstRef(line, i); n > 0 {
				if v, ok := value(name); ok {
					b.WriteString(v)
					i += n - 1
					continue
				}
			}
		}
		b.WriteByte(line[i])
	}
	return b.String()
}
