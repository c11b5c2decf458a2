package builtins

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
	"github.com/llmsh/llmsh/third_party/gojq"
)

var _ = register(Builtin{Name: "jq", Summary: "command-line JSON processor (jq 1.7)", Run: jq})

// jqVersion is what --version prints: the jq whose behaviour llmsh's jq
// follows (key order, number printing, messages, exit statuses).
const jqVersion = "jq-1.7.1"

// jq exit statuses, as jq 1.7 documents them.
const (
	jqExitFalsy   = 1
	jqExitUsage   = 2
	jqExitCompile = 3
	jqExitNoValue = 4
	jqExitRuntime = 5
)

type jqOpts struct {
	raw, join, compact, slurp, nullIn, rawIn, exit, sortKeys, tab, ascii, fromFile, seq, stream, streamErrors, unbuffered bool
	raw0                                                                                                                  bool       // --raw-output0
	colors                                                                                                                *[8]string // with -C: null, false, true, numbers, strings, arrays, objects, keys
	indent                                                                                                                int
	names                                                                                                                 []string
	values                                                                                                                []any
	positional                                                                                                            []any
	lib                                                                                                                   []string // -L, in order; nil: none given
}

func jq(env *Env) int {
	o, operands, status := jqParse(env)
	if o == nil {
		return status
	}
	return jqRun(env, o, operands)
}

// jqParse reads jq's options into a jqOpts; on nil it returns the exit
// status.
func jqParse(env *Env) (*jqOpts, []string, int) {
	o := &jqOpts{indent: 2}
	f := NewFlags(env, "Process each JSON input with the jq FILTER and print the results, as jq 1.7.1\ndoes: objects keep the order of their keys, numbers print as jq prints them.\nThe filter language is jq's, implemented by a fork of gojq (third_party/gojq).",
		"[OPTION]... FILTER [FILE]...", "[OPTION]... -f FILTERFILE [FILE]...")
	f.Epilog = "Options taking two arguments:\n" +
		"      --arg NAME VALUE       set $NAME to the string VALUE\n" +
		"      --argjson NAME TEXT    set $NAME to the JSON value TEXT\n" +
		"      --slurpfile NAME FILE  set $NAME to an array of the JSON values in FILE\n" +
		"      --rawfile NAME FILE    set $NAME to the contents of FILE as a string\n" +
		"      --args                 the remaining operands are positional string arguments\n" +
		"      --jsonargs             the remaining operands are positional JSON arguments\n" +
		"The named and positional arguments are also in $ARGS.\n\n" +
		"Exit status: 0 on success; with -e, 1 if the last output was false or null and\n" +
		"4 if there was none; 2 for a usage error or a file that cannot be read, 3 for a\n" +
		"compile error, 5 for a run-time error or malformed input.\n\n" +
		"Modules (import, include) are found in the current directory, then in the -L\n" +
		"directories, through llmsh's file service.\n\n" +
		"Differences from jq 1.7.1:\n" +
		"jq 1.8's trim, ltrim, rtrim, trimstr, add/1, skip/2 and @urid are there; an\n" +
		"object's value may be any expression ({a: 1 + 2}), where jq's must be a term\n" +
		"or a pipe."
	showVersion := false
	f.BoolVar(&o.raw, 'r', "raw-output", "output raw strings, not JSON texts")
	f.BoolVar(&o.join, 'j', "join-output", "like -r, without a newline after each output")
	f.BoolVar(&o.raw0, 0, "raw-output0", "like -r, with a NUL after each output instead of a newline")
	// -c, --tab and --indent each undo the others given before them.
	f.Func('c', "compact-output", NoArg, "", "compact instead of pretty-printed output", func(string, bool) error {
		o.compact = true
		return nil
	})
	f.BoolVar(&o.slurp, 's', "slurp", "read all inputs into one array")
	f.BoolVar(&o.nullIn, 'n', "null-input", "use null as the single input value")
	f.BoolVar(&o.rawIn, 'R', "raw-input", "read each line as a string instead of JSON")
	f.BoolVar(&o.exit, 'e', "exit-status", "exit 1 if the last output is false or null, 4 if there was none")
	f.BoolVar(&o.sortKeys, 'S', "sort-keys", "print the keys of each object sorted")
	f.Func(0, "tab", NoArg, "", "indent with a tab", func(string, bool) error {
		o.tab, o.compact = true, false
		return nil
	})
	f.BoolVar(&o.ascii, 'a', "ascii-output", "escape every non-ASCII character")
	f.BoolVar(&o.fromFile, 'f', "from-file", "read the filter from the first file operand")
	f.BoolVar(&o.seq, 0, "seq", "read and write RFC 7464 sequences (an RS before each text)")
	f.BoolVar(&o.stream, 0, "stream", "read the inputs as streams of [PATH, LEAF] and [PATH] events")
	f.Func(0, "stream-errors", NoArg, "", "like --stream, with malformed input as a last event\n[MESSAGE, PATH]", func(string, bool) error {
		o.stream, o.streamErrors = true, true
		return nil
	})
	f.BoolVar(&showVersion, 'V', "version", "print jq's version ("+jqVersion+") and exit")
	f.Func('h', "", NoArg, "", "", func(string, bool) error { return ErrHelp })
	f.Func('L', "", RequiredArg, "DIRECTORY", "search modules in DIRECTORY (repeatable; ~/.jq without -L)", func(v string, _ bool) error {
		o.lib = append(o.lib, v)
		return nil
	})
	f.BoolVar(&o.unbuffered, 0, "unbuffered", "write each output as soon as it is made")
	color, mono := false, false
	f.Func('C', "color-output", NoArg, "", "colour the output (JQ_COLORS sets the colours)", func(string, bool) error {
		color = true
		return nil
	})
	f.Func('M', "monochrome-output", NoArg, "", "output without colours (the default; wins over -C)", func(string, bool) error {
		mono = true
		return nil
	})
	f.Func(0, "indent", RequiredArg, "N", "indent with N spaces (0..7; 0: compact, -1: a tab)", func(v string, _ bool) error {
		n := jqAtoi(v)
		if n < -1 || n > 7 {
			return errJqIndent
		}
		// jq 1.7.1's JV_PRINT_INDENT_FLAGS(-1) is JV_PRINT_TAB.
		o.indent, o.tab, o.compact = n, n == -1, n == 0
		return nil
	})
	// --arg and friends take two arguments; they are picked out of the
	// argument list before the option parser sees it.
	args, status := jqTwoArgOptions(env, o, env.Args[1:])
	if status >= 0 {
		return nil, nil, status
	}
	if n := len(args); n > 0 && args[n-1] == "--indent" {
		jqUsageError(env, "--indent takes one parameter")
		return nil, nil, jqExitUsage
	}
	negated := jqMarkOperands(args)
	operands, err := f.Parse(args)
	for i, a := range operands {
		if n, ok := strings.CutPrefix(a, jqOperandMark); ok {
			k, _ := strconv.Atoi(n)
			operands[i] = negated[k]
		}
	}
	if err != nil {
		if msg, ok := usageMessage(err); ok && (strings.HasPrefix(msg, "unrecognized option") || strings.HasPrefix(msg, "invalid option")) {
			jqUsageError(env, "Unknown option "+jqBadOption(args, msg))
			return nil, nil, jqExitUsage
		}
		if errors.Is(err, errJqIndent) {
			jqUsageError(env, "--indent takes a number between -1 and 7")
			return nil, nil, jqExitUsage
		}
		return nil, nil, f.Fail(err, jqExitUsage)
	}
	if showVersion {
		fmt.Fprintln(env.Stdout, jqVersion)
		return nil, nil, 0
	}
	if o.join || o.raw0 {
		o.raw = true
	}
	// jq reads JQ_COLORS (and warns of a bad one) with or without -C
	if colors := jqColors(env); color && !mono {
		o.colors = colors
	}
	if len(operands) == 0 {
		// jq's filter is . where its input or output is no terminal,
		// which a builtin's never are
		operands = []string{"."}
	}
	return o, operands, 0
}

// jqMarkOperands replaces in args each argument that jq takes for an
// operand though it starts with - and no letter (-1, -.: the filter -1 is
// the number, but --indent -1 is --indent's) with jqOperandMark and its
// index in the list it returns.
func jqMarkOperands(args []string) []string {
	var negated []string
	for i, a := range args {
		if i > 0 && args[i-1] == "--indent" {
			continue
		}
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && !('a' <= a[1]|0x20 && a[1]|0x20 <= 'z') {
			args[i] = jqOperandMark + strconv.Itoa(len(negated))
			negated = append(negated, a)
		}
	}
	return negated
}

// jqOperandMark stands, while the options are parsed, for an argument
// that is an operand although it starts with -.
const jqOperandMark = "\x00jq operand "

// jqAtoi is C's atoi, with which jq reads --indent: the leading sign and
// digits of s, 0 for none.
func jqAtoi(s string) int {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	n, err := strconv.Atoi(s[:i])
	if err != nil && i > 1 {
		return 1 << 31 // out of range, as refused
	}
	return n
}

// jqRun compiles the filter (operands[0]) and runs it on the inputs.
func jqRun(env *Env, o *jqOpts, operands []string) int {
	src := operands[0]
	files := operands[1:]
	if o.fromFile {
		b, err := jqReadAll(env, src)
		if err != nil {
			fmt.Fprintf(env.Stderr, "jq: Could not open %s: %s\n", src, ErrText(err))
			return jqExitUsage
		}
		src = string(b)
	}
	query, err := gojq.Parse(src)
	if err != nil {
		jqCompileError(env, err, src)
		return jqExitCompile
	}
	names, values := o.variables()
	environ := env.Environ
	w := bufio.NewWriterSize(env.Stdout, 32<<10)
	defer w.Flush()
	r := &jqRunner{env: env, o: o, w: w, values: values, status: 0}
	if len(files) == 0 {
		files = []string{"-"}
	}
	r.in = &jqInputs{r: r, files: files}
	if !o.rawIn {
		r.in.dec = gojq.NewBufDecoder()
		if o.seq {
			r.in.dec.SetSeq(o.stream)
		}
		if o.stream {
			r.in.dec.TrackEvents()
		}
	}
	modules := newJqModules(env, o.lib)
	code, err := gojq.Compile(query,
		gojq.WithVariables(names),
		gojq.WithEnvironLoader(func() []string { return environ }),
		// localtime and strflocaltime: the script's TZ, never the host's.
		gojq.WithLocation(dateLocation(env)),
		gojq.WithInputIter(r.inputIter()),
		gojq.WithBacktracker(jqBacktrack),
		gojq.WithModuleLoader(modules),
		gojq.WithFunction("get_search_list", 0, 0, modules.searchList),
		gojq.WithFunction("input_filename", 0, 0, func(any, []any) any { return r.in.fname }),
		gojq.WithFunction("input_line_number", 0, 0, func(any, []any) any {
			return r.in.line
		}),
		gojq.WithFunction("debug", 0, 1, func(v any, args []any) any {
			msg := v
			if len(args) > 0 {
				msg = args[0]
			}
			b, err := gojq.Marshal([]any{"DEBUG:", msg})
			if err != nil {
				return err
			}
			env.Stderr.Write(append(b, '\n'))
			return v
		}),
		gojq.WithFunction("stderr", 0, 0, func(v any, _ []any) any {
			if s, ok := v.(string); ok { // jq 1.7.1 writes a string raw
				io.WriteString(env.Stderr, s)
				return v
			}
			b, err := gojq.Marshal(v)
			if err != nil {
				return err
			}
			env.Stderr.Write(b)
			return v
		}))
	if err != nil {
		jqCompileError(env, err, src)
		return jqExitCompile
	}
	r.code = code
	r.run()
	if err := w.Flush(); err != nil {
		return jqWriteFailed(env, err)
	}
	if r.status != 0 || r.halted {
		return r.status
	}
	if r.failed {
		return jqExitRuntime
	}
	if o.exit {
		if !r.outputs {
			return jqExitNoValue
		}
		if r.last == nil || r.last == false {
			return jqExitFalsy
		}
	}
	return 0
}

// variables returns the names and values of the filter's variables: the
// --arg family's and $ARGS ($__loc__ is the parser's).
func (o *jqOpts) variables() ([]string, []any) {
	names := append([]string{}, o.names...)
	values := append([]any{}, o.values...)
	named := gojq.NewOrderedMap(len(o.names))
	for i, n := range o.names {
		named.Set(strings.TrimPrefix(n, "$"), o.values[i])
	}
	names = append(names, "$ARGS")
	argsObj := gojq.NewOrderedMap(2)
	argsObj.Set("positional", append([]any{}, o.positional...))
	argsObj.Set("named", named)
	values = append(values, argsObj)
	return names, values
}

// jqTwoArgOptions removes --arg NAME VALUE, --argjson NAME JSON,
// --slurpfile NAME FILE, --rawfile NAME FILE, --args and --jsonargs from
// args. It returns the remaining arguments, and a status >= 0 on error.
func jqTwoArgOptions(env *Env, o *jqOpts, args []string) ([]string, int) {
	var rest []string
	positionalMode := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			// as jq 1.7.1: what follows is the filter if none was
			// given yet, then positional arguments after --args or
			// --jsonargs (a second -- among them), else files
			rest = append(rest, a)
			filter := jqHasFilter(rest)
			for _, b := range args[i+1:] {
				switch {
				case !filter:
					rest, filter = append(rest, b), true
				case positionalMode != "":
					if st := jqPositional(env, o, positionalMode, b); st >= 0 {
						return nil, st
					}
				default:
					rest = append(rest, b)
				}
			}
			break
		}
		switch a {
		case "--args", "--jsonargs":
			positionalMode = a
			continue
		case "--arg", "--argjson", "--slurpfile", "--rawfile":
			if i+2 >= len(args) {
				what := map[string]string{"--arg": "value", "--argjson": "text", "--slurpfile": "filename", "--rawfile": "filename"}[a]
				jqUsageError(env, fmt.Sprintf("%s takes two parameters (e.g. %s varname %s)", a, a, what))
				return nil, jqExitUsage
			}
			name, val := args[i+1], args[i+2]
			i += 2
			var v any
			switch a {
			case "--arg":
				v = val
			case "--argjson":
				x, err := jqDecodeOne([]byte(val))
				if err != nil {
					jqUsageError(env, "invalid JSON text passed to --argjson")
					return nil, jqExitUsage
				}
				v = x
			case "--slurpfile", "--rawfile":
				b, err := jqReadAll(env, val)
				if err != nil && quietStop(err) {
					return nil, jqExitUsage // a file past the value bound, the run stopped
				}
				if err != nil {
					msg := ErrText(err)
					if msg == "Is a directory" {
						msg = "It's a directory" // jv_load_file's words
					}
					fmt.Fprintf(env.Stderr, "jq: Bad JSON in --%s %s %s: Could not open %s: %s\n", a[2:], name, val, val, msg)
					return nil, jqExitUsage
				}
				if a == "--rawfile" {
					v = gojq.ValidUTF8(string(b))
				} else {
					vals, err := jqDecodeAll(b)
					if err != nil {
						fmt.Fprintf(env.Stderr, "jq: Bad JSON in --slurpfile %s %s: %s\n", name, val, err)
						return nil, jqExitUsage
					}
					v = vals
				}
			}
			if !slices.Contains(o.names, "$"+name) { // jq keeps the first
				o.names = append(o.names, "$"+name)
				o.values = append(o.values, v)
			}
			continue
		}
		if positionalMode != "" && !strings.HasPrefix(a, "-") && jqHasFilter(rest) {
			if st := jqPositional(env, o, positionalMode, a); st >= 0 {
				return nil, st
			}
			continue
		}
		rest = append(rest, a)
	}
	return rest, -1
}

// jqPositional adds a to $ARGS.positional, as a string (mode --args) or
// as JSON (--jsonargs); it returns a status >= 0 on error.
func jqPositional(env *Env, o *jqOpts, mode, a string) int {
	if mode == "--args" {
		o.positional = append(o.positional, a)
		return -1
	}
	x, err := jqDecodeOne([]byte(a))
	if err != nil {
		jqUsageError(env, "invalid JSON text passed to --jsonargs")
		return jqExitUsage
	}
	o.positional = append(o.positional, x)
	return -1
}

var errJqIndent = errors.New("bad --indent")

// jqUsageError prints msg as jq prints a command-line error.
func jqUsageError(env *Env, msg string) {
	fmt.Fprintf(env.Stderr, "jq: %s\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://jqlang.github.io/jq\n", msg)
}

// jqCompileError reports an error in the program src as jq does: the
// message, and for an error with a place the line of src where it is,
// followed by as many spaces as the place is past the line's start.
func jqCompileError(env *Env, err error, src string) {
	var me *jqModuleError
	if errors.As(err, &me) {
		jqModuleCompileError(env, me)
		return
	}
	var nf *jqModuleNotFound
	var de *jqDataError
	switch {
	case errors.As(err, &nf):
		fmt.Fprintf(env.Stderr, "jq: error: %s\n\n", nf) // jq's empty line
		jqCompileErrorCount(env, 1)
		return
	case errors.As(err, &de):
		fmt.Fprintf(env.Stderr, "jq: %s\n\n", de)
		jqCompileErrorCount(env, 1)
		return
	}
	var pe *gojq.ParseError
	if errors.As(err, &pe) {
		// every error jq's parser reports, in its order and words
		for _, e := range pe.Errors {
			fmt.Fprintf(env.Stderr, "jq: error: %s%s\n", e.Msg, jqPlace(src, e.Start))
		}
		jqCompileErrorCount(env, len(pe.Errors))
		return
	}
	var undefined gojq.UndefinedErrors
	if errors.As(err, &undefined) {
		// every name used and not defined, as jq reports them
		for _, e := range undefined {
			fmt.Fprintf(env.Stderr, "jq: error: %s%s\n", e.Error(), jqPlace(src, jqOffset(e)))
		}
		jqCompileErrorCount(env, len(undefined))
		return
	}
	fmt.Fprintf(env.Stderr, "jq: error: %s%s\n", err.Error(), jqPlace(src, jqOffset(err)))
	jqCompileErrorCount(env, 1)
}

// jqOffset is where in the program the compile error err is, or -1.
func jqOffset(err error) int {
	at := -1
	var placed interface{ Offset() int }
	if errors.As(err, &placed) {
		at = placed.Offset()
	}
	return at
}

// jqCompileErrorCount ends a report of n compile errors as jq does.
func jqCompileErrorCount(env *Env, n int) {
	if n == 1 {
		fmt.Fprintf(env.Stderr, "jq: 1 compile error\n")
	} else {
		fmt.Fprintf(env.Stderr, "jq: %d compile errors\n", n)
	}
}

// jqPlace is where an error is, as jq shows it: " at <top-level>, line
// N:", the line, and as many spaces as the place is past its start; ""
// for no place.
func jqPlace(src string, at int) string {
	if at < 0 || at > len(src) {
		return ""
	}
	start := strings.LastIndexByte(src[:at], '\n') + 1
	end := strings.IndexByte(src[start:], '\n')
	if end < 0 {
		end = len(src) - start
	}
	return fmt.Sprintf(" at <top-level>, line %d:\n%s%s", strings.Count(src[:start], "\n")+1,
		src[start:start+end], strings.Repeat(" ", at-start))
}

// jqBadOption returns the argument that the option parser's message msg
// is about, as jq names it: the whole argument.
func jqBadOption(args []string, msg string) string {
	if rest, ok := strings.CutPrefix(msg, "unrecognized option '"); ok {
		return strings.TrimSuffix(rest, "'")
	}
	r := strings.TrimSuffix(strings.TrimPrefix(msg, "invalid option -- '"), "'")
	for _, a := range args {
		if a == "--" {
			break
		}
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Contains(a[1:], r) {
			return a
		}
	}
	return "-" + r
}

// jqHasFilter reports whether the filter operand has been seen among args.
func jqHasFilter(args []string) bool {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") || a == "-" {
			return true
		}
	}
	return false
}

func jqReadAll(env *Env, name string) ([]byte, error) {
	f, err := env.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// A file read whole is one value (-Rs, --rawfile, --slurpfile):
	// past the bound on one value the run stops (Env.gatherLine).
	return readHeld(env, f)
}

func jqDecodeOne(b []byte) (any, error) {
	vals, err := jqDecodeAll(b)
	if err != nil {
		return nil, err
	}
	if len(vals) != 1 {
		return nil, errors.New("expected exactly one JSON value")
	}
	return vals[0], nil
}

// jqDecodeAll reads every JSON value in b, objects in their key order.
func jqDecodeAll(b []byte) ([]any, error) {
	dec := gojq.NewDecoder(bytes.NewReader(b))
	var out []any
	for {
		v, err := dec.Decode()
		if err == io.EOF {
			return out, nil
		} else if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
}

// jqHaltStatus is the exit status of halt_error(code) as jq 1.7.1's main
// makes it: the number is converted to a C int (one out of its range, NaN
// included, becomes INT_MIN), then exit(abs(r)) under -e, exit(r > 0 ? r :
// 0) otherwise; exit keeps the low 8 bits (`halt_error(-1)` is 0, with -e 1;
// `halt_error(256)` and `halt_error(1e10)` are 0).
func jqHaltStatus(code int, exit bool) int {
	if code < math.MinInt32 || code > math.MaxInt32 {
		return 0
	}
	if code < 0 && exit {
		code = -code
	}
	if code < 0 {
		return 0
	}
	return code & 0xff
}

// jqRunner feeds inputs through the compiled filter and prints results.
type jqRunner struct {
	env     *Env
	o       *jqOpts
	w       *bufio.Writer
	code    *gojq.Code
	values  []any
	in      *jqInputs
	status  int
	outputs bool
	last    any
	stop    bool
	halted  bool // halt or halt_error: status is the exit status, whatever -e says
	failed  bool // the filter failed on the last input
}

// slurpRaw is the text of all the input files (-R -s), which it reads;
// false when the run stopped.
func (r *jqRunner) slurpRaw() (string, bool) {
	var all strings.Builder
	for i, name := range r.in.files {
		if r.stop || r.env.Ctx.Err() != nil {
			return "", false
		}
		r.in.next = i + 1
		b, err := jqReadAll(r.env, name)
		if err == nil && r.env.MaxLine > 0 && all.Len()+len(b) > r.env.MaxLine {
			err = r.env.lineTooLong()
		}
		if err != nil {
			r.in.openErr(name, err)
			continue
		}
		all.Write(b)
	}
	return gojq.ValidUTF8(all.String()), true
}

// inputIter is what input and inputs read: the inputs, or with -n and
// -s, as jq 1.7.1, one value: the array of all the inputs (their text
// with -R).
func (r *jqRunner) inputIter() gojq.Iter {
	if r.o.nullIn && r.o.slurp {
		return &jqSlurpIter{r: r}
	}
	return r.in
}

// jqSlurpIter is input and inputs under -n -s.
type jqSlurpIter struct {
	r    *jqRunner
	done bool
}

func (it *jqSlurpIter) Next() (any, bool) {
	if it.done {
		// the inputs are read: as jq, a later read says at <unknown>
		return it.r.in.Next()
	}
	it.done = true
	if it.r.o.rawIn {
		all, ok := it.r.slurpRaw()
		return all, ok
	}
	slurped := []any{}
	for {
		v, ok := it.r.in.Next()
		if !ok {
			break
		}
		if _, isErr := v.(error); isErr {
			return v, true
		}
		slurped = append(slurped, v)
	}
	return slurped, !it.r.stop
}

// run evaluates the filter on each input (once on null with -n, once on
// the array of all inputs with -s); input and inputs in the filter read
// from the same sequence.
func (r *jqRunner) run() {
	switch {
	case r.o.nullIn:
		r.eval(nil)
	case r.o.slurp && r.o.rawIn:
		if all, ok := r.slurpRaw(); ok {
			r.eval(all)
		}
	case r.o.slurp:
		slurped := []any{}
		for {
			v, ok := r.in.Next()
			if !ok {
				break
			}
			if err, isErr := v.(error); isErr {
				if r.parseError(err) {
					continue
				}
				return
			}
			slurped = append(slurped, v)
		}
		if r.stop {
			return
		}
		if r.o.stream && jqDelayedClose(r.in.last, slurped) {
			// jq's next call, which returns the kept event, comes after
			// the slurped array is done: the event is an input of its own
			last := slurped[len(slurped)-1]
			r.eval(slurped[:len(slurped)-1])
			if !r.stop {
				r.eval(last)
			}
			return
		}
		r.eval(slurped)
	default:
		for !r.stop {
			v, ok := r.in.Next()
			if !ok {
				return
			}
			if err, isErr := v.(error); isErr {
				if r.parseError(err) {
					continue
				}
				return
			}
			r.eval(v)
		}
	}
}

// parseError reports malformed input read by the main loop, which ends
// the run as in jq 1.7 (status 5); with --seq jq reports it and reads on,
// and parseError says so.
func (r *jqRunner) parseError(err error) bool {
	if r.o.seq {
		fmt.Fprintf(r.env.Stderr, "jq: ignoring parse error: %s\n", err)
		return true
	}
	fmt.Fprintf(r.env.Stderr, "jq: parse error: %s\n", err)
	r.status = jqExitRuntime
	r.stop = true
	return false
}

// jqInputs reads the input values of every file in turn, as jq's input
// loop does: the files are one stream, read a line (or 4095 bytes) at a
// time into one parser, so a value may run from one file into the next and
// an error names the file and the lines read when it is reported. It is the
// filter's input iterator too.
type jqInputs struct {
	r     *jqRunner
	files []string
	next  int
	fh    io.ReadCloser
	br    *bufio.Reader
	atEOF bool // the open file is read to its end (or failed)
	chunk []byte
	dec   *gojq.Decoder // nil with -R
	// events holds the --stream events of the value read last.
	events []any
	name   string // the current input for messages: a file name, <stdin>, "" for none
	fname  any    // input_filename: the current file's name, "<stdin>" for stdin (jq 1.7)
	line   int    // the newlines read in the current file
	last   byte   // the last byte read, of any file
	// pending counts the bytes given the decoder since the last value
	// it made: the text of the value it is reading.
	pending int
	ended   bool // --stream-errors reported malformed input: nothing follows
}

// tooLong stops the run when the text of one input value (a JSON text,
// a -R line), n bytes so far, passes the bound on one value
// (Env.gatherLine): jq would decode it whole.
func (in *jqInputs) tooLong(n int) bool {
	env := in.r.env
	if env.MaxLine <= 0 || n <= env.MaxLine {
		return false
	}
	if err := env.lineTooLong(); err != gnu.ErrCancelled {
		in.readErr(err)
	}
	in.r.stop, in.r.status = true, 1
	in.close()
	return true
}

// jqDelayedClose reports whether jq 1.7.1's stream parser would keep the
// last of these --stream events for its next call: the input ended with
// the closing bracket of a top-level array or object (nothing after it)
// whose last member is a scalar ([1], {"a":"x"}; not [[1]] or [{}]).
func jqDelayedClose(lastByte byte, events []any) bool {
	if (lastByte != ']' && lastByte != '}') || len(events) < 2 {
		return false
	}
	leaf, ok := events[len(events)-2].([]any)
	if !ok || len(leaf) != 2 {
		return false
	}
	if path, ok := leaf[0].([]any); !ok || len(path) != 1 {
		return false
	}
	switch leaf[1].(type) {
	case []any, *gojq.OrderedMap, map[string]any:
		return false
	}
	return true
}

// jqChunk is the most jq reads at once: fgets into a 4096-byte buffer.
const jqChunk = 4095

func (in *jqInputs) openErr(name string, err error) {
	in.r.status = jqExitUsage
	if quietStop(err) {
		return // a read that the run's end stopped (-s of /dev/zero)
	}
	if msg := ErrText(err); msg != "Is a directory" {
		fmt.Fprintf(in.r.env.Stderr, "jq: error: Could not open file %s: %s\n", name, msg)
	} else if in.next < len(in.files) {
		// jq 1.7.1 opens a directory, fails to read it, and says so
		// only when it goes on to the next file
		fmt.Fprintf(in.r.env.Stderr, "jq: error: %s\n", msg)
	}
}

// readErr fails the run for a read that failed (a standard input closed
// or open write-only): jq 1.7.1 says "jq: error: MSG" only when it goes
// on to the next file, as for a directory.
func (in *jqInputs) readErr(err error) {
	in.r.status = jqExitUsage
	if !quietStop(err) && in.next < len(in.files) {
		fmt.Fprintf(in.r.env.Stderr, "jq: error: %s\n", ErrText(err))
	}
}

func (in *jqInputs) close() {
	if in.fh != nil {
		in.fh.Close()
	}
	in.fh, in.br = nil, nil
}

// position is where a run-time error happened, as jq names it.
func (in *jqInputs) position() string {
	if in.name == "" {
		return "<unknown>"
	}
	return fmt.Sprintf("%s:%d", in.name, in.line)
}

// readMore reads the next chunk into in.chunk: the rest of the current
// line of the open file, or of the next file once it is read to its end.
// It reports whether this is the last chunk of the last file.
func (in *jqInputs) readMore() bool {
	r := in.r
	if in.fh == nil || in.atEOF {
		if in.fh != nil {
			in.close()
			in.name, in.fname, in.line = "", nil, 0
		}
		if in.next < len(in.files) {
			name := in.files[in.next]
			in.next++
			in.name, in.fname, in.line, in.atEOF = name, any(name), 0, false
			if name == "-" {
				in.name, in.fname = "<stdin>", "<stdin>"
			}
			if fh, err := r.env.Open(name); err != nil {
				in.openErr(name, err)
			} else {
				in.fh, in.br = fh, bufio.NewReaderSize(fh, jqChunk)
			}
		}
	}
	in.chunk = in.chunk[:0]
	if in.fh != nil {
		b, err := in.br.ReadSlice('\n')
		in.chunk = append(in.chunk, b...)
		if len(b) > 0 {
			in.last = b[len(b)-1]
		}
		if len(b) > 0 && b[len(b)-1] == '\n' {
			in.line++
		}
		if err != nil && err != bufio.ErrBufferFull {
			in.atEOF = true
			if err != io.EOF {
				in.readErr(err)
			}
		}
	}
	return in.next == len(in.files) && (in.fh == nil || in.atEOF)
}

// Next returns the next input value, or a parse error as a value.
func (in *jqInputs) Next() (any, bool) {
	r := in.r
	for {
		if len(in.events) > 0 {
			ev := in.events[0]
			in.events = in.events[1:]
			return ev, true
		}
		if r.stop || in.ended {
			return nil, false
		}
		if r.env.Ctx.Err() != nil {
			r.stop, r.status = true, 1
			in.close()
			return nil, false
		}
		if in.dec == nil {
			return in.nextLine()
		}
		last := false
		if in.dec.Remaining() == 0 {
			last = in.readMore()
			in.dec.SetBuf(in.chunk, !last)
			if in.pending += len(in.chunk); in.tooLong(in.pending) {
				return nil, false
			}
		}
		v, ok, err := in.dec.Next()
		if err != nil && r.o.streamErrors {
			// jq 1.7.1 --stream-errors: the events before the error,
			// then [MESSAGE, PATH], and the input ends there
			ev := []any{err.Error(), in.dec.ErrorPath()}
			in.events = append(append(in.events[:0], in.dec.PartialEvents()...), ev)
			in.ended = true
			continue
		}
		if ok || err != nil {
			in.pending = in.dec.Remaining() // the text of the next values
		}
		if err != nil {
			if evs := in.dec.PartialEvents(); r.o.stream && len(evs) > 0 {
				// jq's streaming parser has emitted the events of the
				// text before the error
				in.events = append(append(in.events[:0], evs...), err)
				continue
			}
			return err, true
		}
		if ok {
			if r.o.stream {
				in.events = gojq.StreamEvents(nil, v, in.events[:0])
				continue
			}
			return v, true
		}
		if last {
			return nil, false
		}
	}
}

// nextLine returns the next line with -R; a last line without a newline
// runs on into the next file, as in jq.
func (in *jqInputs) nextLine() (any, bool) {
	var line []byte
	have := false
	for {
		last := in.readMore()
		if n := len(in.chunk); n > 0 {
			if in.chunk[n-1] == '\n' {
				return gojq.ValidUTF8(string(append(line, in.chunk[:n-1]...))), true
			}
			line, have = append(line, in.chunk...), true
			if in.tooLong(len(line)) {
				return nil, false
			}
		}
		if last || in.r.env.Ctx.Err() != nil {
			break
		}
	}
	if have {
		return gojq.ValidUTF8(string(line)), true
	}
	return nil, false
}

// eval runs the filter on v; errors name the input as jq does, where the
// reading of inputs stands when they are reported.
func (r *jqRunner) eval(v any) {
	r.failed = false
	iter := r.code.RunWithContext(r.env.Ctx, v, r.values...)
	for {
		x, ok := iter.Next()
		if !ok {
			return
		}
		if err, isErr := x.(error); isErr {
			var halt *gojq.HaltError
			if errors.As(err, &halt) {
				if hv := halt.Value(); hv != nil {
					if s, ok := hv.(string); ok {
						io.WriteString(r.env.Stderr, s)
					} else {
						b, err := gojq.Marshal(hv)
						if err != nil {
							b = []byte("jq: error (at " + r.in.position() + "): " + err.Error())
						}
						r.env.Stderr.Write(append(b, '\n'))
					}
				}
				r.status = jqHaltStatus(halt.ExitCode(), r.o.exit)
				r.stop, r.halted = true, true
				return
			}
			if r.env.Ctx.Err() != nil {
				r.stop, r.status = true, 1
				return
			}
			var ve gojq.ValueError
			if errors.As(err, &ve) {
				if s, ok := ve.Value().(string); ok {
					// jq prints the message as a C string: up to a NUL
					s, _, _ = strings.Cut(s, "\x00")
					fmt.Fprintf(r.env.Stderr, "jq: error (at %s): %s\n", r.in.position(), s)
				} else {
					if b, err := gojq.Marshal(ve.Value()); err != nil {
						fmt.Fprintf(r.env.Stderr, "jq: error (at %s): %s\n", r.in.position(), err)
					} else {
						fmt.Fprintf(r.env.Stderr, "jq: error (at %s) (not a string): %s\n", r.in.position(), b)
					}
				}
			} else {
				fmt.Fprintf(r.env.Stderr, "jq: error (at %s): %s\n", r.in.position(), err)
			}
			// jq abandons the rest of the filter for this input; the
			// exit status is the last input's (jq 1.7).
			r.failed = true
			return
		}
		if s, ok := x.(string); ok && r.o.raw0 && strings.IndexByte(s, 0) >= 0 {
			fmt.Fprintf(r.env.Stderr, "jq: error (at %s): Cannot dump a string containing NUL with --raw-output0 option\n", r.in.position())
			r.failed = true
			return
		}
		r.outputs = true
		r.last = x
		if err := r.print(x); err != nil {
			r.stop = true
			if st := jqWriteFailed(r.env, err); st != 1 {
				r.status = st
			}
			return
		}
	}
}

func (r *jqRunner) print(v any) error {
	if s, ok := v.(string); ok && (r.o.raw || r.o.join) {
		// A string printed raw takes no RS under --seq; with -a jq 1.7
		// prints it as JSON even so.
		if !r.o.ascii {
			r.w.WriteString(s)
		} else if err := jqEncode(r.w, v, r.o, r.o.indent, 0); err != nil {
			return err
		}
	} else {
		if r.o.seq {
			r.w.WriteByte(0x1e)
		}
		if err := jqEncode(r.w, v, r.o, r.o.indent, 0); err != nil {
			return err
		}
	}
	switch {
	case r.o.raw0:
		r.w.WriteByte(0)
	case !r.o.join:
		r.w.WriteByte('\n')
	}
	if r.w.Buffered() > 16<<10 || r.o.unbuffered {
		return r.w.Flush()
	}
	return nil
}

// jqEncode writes v as jq prints it: scalars through gojq.Marshal (jq's
// number and string formatting), arrays and objects indented by indent
// spaces (or a tab), compact when indent < 0 (or 0 without --tab); object
// keys in their order, or sorted with sortKeys. With -C (o.colors) each
// value is in its kind's colour, the punctuation of arrays and objects in
// theirs and keys in the key colour, with resets where jq 1.7.1's
// jv_dump_term puts them.
//
// A value nested deeper than gojq.MaxPrintDepth is written as jq 1.7.1's
// jv_dump_term writes it, `<skipped: too deep>` (llmsh: the recursion
// overflowed Go's stack on a value nested millions deep).
func jqEncode(w *bufio.Writer, v any, o *jqOpts, indent, depth int) error {
	if depth > gojq.MaxPrintDepth {
		w.WriteString("<skipped: too deep>")
		return nil
	}
	pretty := (indent > 0 || o.tab) && !o.compact
	nl := func(d int) {
		if !pretty {
			return
		}
		w.WriteByte('\n')
		if o.tab {
			for range d {
				w.WriteByte('\t')
			}
		} else {
			for range d * indent {
				w.WriteByte(' ')
			}
		}
	}
	colored := o.colors != nil
	color := ""
	if colored {
		color = jqKindColor(v, o.colors)
		w.WriteString(color)
	}
	switch v := v.(type) {
	case []any:
		if len(v) == 0 {
			w.WriteString("[]")
			break
		}
		w.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				w.WriteByte(',')
			}
			nl(depth + 1)
			if err := jqEncode(w, x, o, indent, depth+1); err != nil {
				return err
			}
			w.WriteString(color)
		}
		nl(depth)
		w.WriteString(color)
		w.WriteByte(']')
	case *gojq.OrderedMap:
		if v.Len() == 0 {
			w.WriteString("{}")
			break
		}
		w.WriteByte('{')
		i := 0
		field := func(k string, x any) error {
			if i > 0 {
				w.WriteByte(',')
			}
			i++
			nl(depth + 1)
			if colored {
				w.WriteString(jqReset + "\x1b[" + o.colors[7] + "m")
			}
			jqScalar(w, k, o.ascii)
			if colored {
				w.WriteString(jqReset + color)
			}
			w.WriteByte(':')
			if pretty {
				w.WriteByte(' ')
			}
			if colored {
				w.WriteString(jqReset)
			}
			if err := jqEncode(w, x, o, indent, depth+1); err != nil {
				return err
			}
			w.WriteString(color)
			return nil
		}
		if o.sortKeys {
			for _, k := range v.SortedKeys() {
				x, _ := v.Get(k)
				if err := field(k, x); err != nil {
					return err
				}
			}
		} else {
			for k, x := range v.All() {
				if err := field(k, x); err != nil {
					return err
				}
			}
		}
		nl(depth)
		w.WriteString(color)
		w.WriteByte('}')
	default:
		if err := jqScalar(w, v, o.ascii); err != nil {
			return err
		}
	}
	if colored {
		w.WriteString(jqReset)
	}
	return nil
}

// jqReset ends a colour, as jq writes it.
const jqReset = "\x1b[0m"

// jqKindColor is the escape that starts v's colour.
func jqKindColor(v any, colors *[8]string) string {
	i := 3 // numbers
	switch v := v.(type) {
	case nil:
		i = 0
	case bool:
		i = 1
		if v {
			i = 2
		}
	case string:
		i = 4
	case []any:
		i = 5
	case *gojq.OrderedMap:
		i = 6
	}
	return "\x1b[" + colors[i] + "m"
}

// jqDefaultColors are jq 1.7.1's colours: null, false, true, numbers,
// strings, arrays, objects, object keys.
var jqDefaultColors = [8]string{"0;90", "0;39", "0;39", "0;39", "0;32", "1;39", "1;39", "1;34"}

// jqColors are the colours -C uses: jq's, with those JQ_COLORS names
// (colon-separated, the first eight) in their place. A JQ_COLORS jq would
// refuse (anything but digits and semicolons, a colour longer than 12)
// leaves the defaults, with jq's warning.
func jqColors(env *Env) *[8]string {
	c := jqDefaultColors
	spec, ok := "", false
	for _, kv := range env.Environ {
		if v, found := strings.CutPrefix(kv, "JQ_COLORS="); found {
			spec, ok = v, true
		}
	}
	if !ok {
		return &c
	}
	set := c
	for i := 0; i < len(set) && spec != ""; i++ {
		f, rest, _ := strings.Cut(spec, ":")
		if len(f) > 12 || strings.Trim(f, "0123456789;") != "" {
			fmt.Fprintf(env.Stderr, "Failed to set $JQ_COLORS\n")
			return &c
		}
		set[i], spec = f, rest
	}
	return &set
}

// jqScalar writes a scalar as jq does; with ascii, every character past
// ASCII in a string is a \uXXXX escape (a surrogate pair above U+FFFF).
func jqScalar(w *bufio.Writer, v any, ascii bool) error {
	b, err := gojq.Marshal(v)
	if err != nil {
		return err
	}
	if _, ok := v.(string); ok && ascii {
		for _, r := range string(b) {
			switch {
			case r < 0x80:
				w.WriteByte(byte(r))
			case r < 0x10000:
				fmt.Fprintf(w, "\\u%04x", r)
			default:
				r1, r2 := utf16.EncodeRune(r)
				fmt.Fprintf(w, "\\u%04x\\u%04x", r1, r2)
			}
		}
		return nil
	}
	w.Write(b)
	return nil
}

// jqWriteFailed reports a failed write of the output in jq 1.7's words
// (without the command's name) and returns jq's status.
func jqWriteFailed(env *Env, err error) int {
	if quietStop(err) {
		return 1
	}
	fmt.Fprintf(env.Stderr, "Error: writing output failed: %s\n", ErrText(err))
	return jqExitUsage
}
