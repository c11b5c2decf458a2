package builtins

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/itchyny/gojq"
)

func init() {
	Register(Builtin{Name: "jq", Summary: "command-line JSON processor (gojq)", Run: jq})
}

// jq exit statuses, as jq 1.6 documents them.
const (
	jqExitFalsy   = 1
	jqExitUsage   = 2
	jqExitCompile = 3
	jqExitNoValue = 4
	jqExitRuntime = 5
)

type jqOpts struct {
	raw, join, compact, slurp, nullIn, rawIn, exit, sortKeys, tab, ascii, fromFile, seq bool
	indent                                                                              int
	names                                                                               []string
	values                                                                              []any
	positional                                                                          []any
}

func jq(env *Env) int {
	o := jqOpts{indent: 2}
	f := NewFlags(env, "Process each JSON input with the jq FILTER and print the results.\nThe filter language is jq's, implemented by gojq (object keys are printed sorted).",
		"[OPTION]... FILTER [FILE]...", "[OPTION]... -f FILTERFILE [FILE]...")
	f.BoolVar(&o.raw, 'r', "raw-output", "output raw strings, not JSON texts")
	f.BoolVar(&o.join, 'j', "join-output", "like -r, without a newline after each output")
	f.BoolVar(&o.compact, 'c', "compact-output", "compact instead of pretty-printed output")
	f.BoolVar(&o.slurp, 's', "slurp", "read all inputs into one array")
	f.BoolVar(&o.nullIn, 'n', "null-input", "use null as the single input value")
	f.BoolVar(&o.rawIn, 'R', "raw-input", "read each line as a string instead of JSON")
	f.BoolVar(&o.exit, 'e', "exit-status", "exit 1 if the last output is false or null, 4 if there was none")
	f.BoolVar(&o.sortKeys, 'S', "sort-keys", "sort object keys (always the case with gojq)")
	f.BoolVar(&o.tab, 0, "tab", "indent with a tab")
	f.BoolVar(&o.ascii, 'a', "ascii-output", "escape every non-ASCII character")
	f.BoolVar(&o.fromFile, 'f', "from-file", "read the filter from the first file operand")
	f.BoolVar(&o.seq, 0, "seq", "write an RS character before each output")
	f.Func('C', "color-output", NoArg, "", "accepted; llmsh's jq does not colour", func(string, bool) error { return nil })
	f.Func('M', "monochrome-output", NoArg, "", "output without colours (the default)", func(string, bool) error { return nil })
	f.Func(0, "indent", RequiredArg, "N", "indent with N spaces (0..7)", func(v string, _ bool) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 7 {
			return errors.New("Cannot indent more than 7 characters")
		}
		o.indent = n
		return nil
	})
	// --arg and friends take two arguments; they are picked out of the
	// argument list before the option parser sees it.
	args, status := jqTwoArgOptions(env, &o, env.Args[1:])
	if status >= 0 {
		return status
	}
	operands, err := f.Parse(args)
	if err != nil {
		return f.Fail(err, jqExitUsage)
	}
	if len(operands) == 0 {
		fmt.Fprintf(env.Stderr, "Usage:\tjq [OPTION]... FILTER [FILE]...\nTry 'jq --help' for more information.\n")
		return jqExitUsage
	}
	src := operands[0]
	files := operands[1:]
	if o.fromFile {
		b, err := jqReadAll(env, src)
		if err != nil {
			fmt.Fprintf(env.Stderr, "jq: error: Could not open %s: %s\n", src, ErrText(err))
			return jqExitUsage
		}
		src = string(b)
	}
	query, err := gojq.Parse(src)
	if err != nil {
		fmt.Fprintf(env.Stderr, "jq: error: %s\njq: 1 compile error\n", err)
		return jqExitCompile
	}
	names := append([]string{}, o.names...)
	values := append([]any{}, o.values...)
	named := map[string]any{}
	for i, n := range o.names {
		named[strings.TrimPrefix(n, "$")] = o.values[i]
	}
	names = append(names, "$ARGS")
	values = append(values, map[string]any{"positional": append([]any{}, o.positional...), "named": named})
	environ := env.Environ
	w := bufio.NewWriterSize(env.Stdout, 32<<10)
	defer w.Flush()
	r := &jqRunner{env: env, o: &o, w: w, values: values, status: 0}
	if len(files) == 0 {
		files = []string{"-"}
	}
	r.in = &jqInputs{r: r, files: files}
	code, err := gojq.Compile(query,
		gojq.WithVariables(names),
		gojq.WithEnvironLoader(func() []string { return environ }),
		gojq.WithInputIter(r.in),
		gojq.WithFunction("input_filename", 0, 0, func(any, []any) any { return r.in.fname }))
	if err != nil {
		fmt.Fprintf(env.Stderr, "jq: error: %s\njq: 1 compile error\n", err)
		return jqExitCompile
	}
	r.code = code
	r.run()
	if err := w.Flush(); err != nil && !IsBrokenPipe(err) {
		env.Errorf("error: %s", ErrText(err))
		return jqExitUsage
	}
	if r.status != 0 {
		return r.status
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

// jqTwoArgOptions removes --arg NAME VALUE, --argjson NAME JSON,
// --slurpfile NAME FILE, --rawfile NAME FILE, --args and --jsonargs from
// args. It returns the remaining arguments, and a status >= 0 on error.
func jqTwoArgOptions(env *Env, o *jqOpts, args []string) ([]string, int) {
	var rest []string
	positionalMode := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		switch a {
		case "--args", "--jsonargs":
			positionalMode = a
			continue
		case "--arg", "--argjson", "--slurpfile", "--rawfile":
			if i+2 >= len(args) {
				fmt.Fprintf(env.Stderr, "jq: %s takes two parameters (e.g. %s varname value)\n", a, a)
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
					fmt.Fprintf(env.Stderr, "jq: Invalid JSON text passed to --argjson\n")
					return nil, jqExitUsage
				}
				v = x
			case "--slurpfile", "--rawfile":
				b, err := jqReadAll(env, val)
				if err != nil {
					fmt.Fprintf(env.Stderr, "jq: Bad JSON in --%s %s %s: Could not open %s: %s\n", a[2:], name, val, val, ErrText(err))
					return nil, jqExitUsage
				}
				if a == "--rawfile" {
					v = string(b)
				} else {
					vals, err := jqDecodeAll(b)
					if err != nil {
						fmt.Fprintf(env.Stderr, "jq: Bad JSON in --slurpfile %s %s: %s\n", name, val, err)
						return nil, jqExitUsage
					}
					v = vals
				}
			}
			o.names = append(o.names, "$"+name)
			o.values = append(o.values, v)
			continue
		}
		if positionalMode != "" && !strings.HasPrefix(a, "-") && jqHasFilter(rest) {
			if positionalMode == "--args" {
				o.positional = append(o.positional, a)
			} else {
				x, err := jqDecodeOne([]byte(a))
				if err != nil {
					fmt.Fprintf(env.Stderr, "jq: Invalid JSON text passed to --jsonargs\n")
					return nil, jqExitUsage
				}
				o.positional = append(o.positional, x)
			}
			continue
		}
		rest = append(rest, a)
	}
	return rest, -1
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
	return io.ReadAll(f)
}

// jqNormalize turns decoded JSON (numbers as json.Number) into the values
// gojq works on: int where it fits, *big.Int for larger integers, float64.
func jqNormalize(v any) any {
	switch v := v.(type) {
	case json.Number:
		s := string(v)
		if !strings.ContainsAny(s, ".eE") {
			if i, err := strconv.Atoi(s); err == nil {
				return i
			}
			if b, ok := new(big.Int).SetString(s, 10); ok {
				return b
			}
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			if f > 0 {
				return math.MaxFloat64
			}
			return -math.MaxFloat64
		}
		return f
	case []any:
		for i, x := range v {
			v[i] = jqNormalize(x)
		}
		return v
	case map[string]any:
		for k, x := range v {
			v[k] = jqNormalize(x)
		}
		return v
	}
	return v
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

func jqDecodeAll(b []byte) ([]any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out []any
	for {
		var v any
		if err := dec.Decode(&v); err == io.EOF {
			return out, nil
		} else if err != nil {
			return nil, err
		}
		out = append(out, jqNormalize(v))
	}
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
}

// run evaluates the filter on each input (once on null with -n, once on
// the array of all inputs with -s); input and inputs in the filter read
// from the same sequence.
func (r *jqRunner) run() {
	switch {
	case r.o.nullIn:
		r.eval(nil, "<unknown>")
	case r.o.slurp && r.o.rawIn:
		var all strings.Builder
		for _, name := range r.in.files {
			if r.stop || r.env.Ctx.Err() != nil {
				return
			}
			b, err := jqReadAll(r.env, name)
			if err != nil {
				r.in.openErr(name, err)
				continue
			}
			all.Write(b)
		}
		r.eval(all.String(), "<stdin>")
	case r.o.slurp:
		slurped := []any{}
		for {
			v, ok := r.in.Next()
			if !ok {
				break
			}
			slurped = append(slurped, v)
		}
		if !r.stop {
			r.eval(slurped, "<stdin>")
		}
	default:
		for !r.stop {
			v, ok := r.in.Next()
			if !ok {
				return
			}
			r.evalAt(v, r.in.label, r.in.line)
		}
	}
}

// jqInputs reads the input values of every file in turn: JSON texts, or
// lines with -R. It is the filter's input iterator too.
type jqInputs struct {
	r     *jqRunner
	files []string
	next  int
	fh    io.ReadCloser
	dec   *json.Decoder
	lc    *jqLineCounter
	br    *bufio.Reader
	label string // the current input for messages: a file name or <stdin>
	fname any    // input_filename: the current file's name, null for stdin
	line  int    // the line of the last value read
}

func (in *jqInputs) openErr(name string, err error) {
	fmt.Fprintf(in.r.env.Stderr, "jq: error: Could not open %s: %s\n", name, ErrText(err))
	in.r.status = jqExitUsage
}

func (in *jqInputs) close() {
	if in.fh != nil {
		in.fh.Close()
	}
	in.fh, in.dec, in.br = nil, nil, nil
}

// Next returns the next input value; decode errors are reported and end
// their file, as in jq.
func (in *jqInputs) Next() (any, bool) {
	r := in.r
	for {
		if r.stop {
			return nil, false
		}
		if r.env.Ctx.Err() != nil {
			r.stop, r.status = true, 1
			in.close()
			return nil, false
		}
		if in.fh == nil {
			if in.next >= len(in.files) {
				return nil, false
			}
			name := in.files[in.next]
			in.next++
			fh, err := r.env.Open(name)
			if err != nil {
				in.openErr(name, err)
				continue
			}
			in.fh, in.label, in.fname = fh, name, any(name)
			if name == "-" {
				in.label, in.fname = "<stdin>", nil
			}
			if r.o.rawIn {
				in.br = bufio.NewReaderSize(fh, 64<<10)
			} else {
				in.lc = &jqLineCounter{r: fh}
				in.dec = json.NewDecoder(in.lc)
				in.dec.UseNumber()
			}
		}
		if in.br != nil {
			line, err := in.br.ReadString('\n')
			if err != nil && err != io.EOF {
				r.env.PathError(in.label, err)
				r.status = jqExitUsage
			}
			if err != nil {
				in.close()
			}
			if len(line) > 0 {
				return strings.TrimSuffix(line, "\n"), true
			}
			continue
		}
		var v any
		err := in.dec.Decode(&v)
		if err == io.EOF {
			in.close()
			continue
		}
		in.line = in.lc.lineAt(in.dec.InputOffset() + 1)
		if err != nil {
			fmt.Fprintf(r.env.Stderr, "jq: error (at %s:%d): %s\n", in.label, in.line, jqDecodeErr(err))
			r.status = jqExitUsage
			in.close()
			continue
		}
		return jqNormalize(v), true
	}
}

func jqDecodeErr(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return se.Error()
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "Unfinished JSON term at EOF"
	}
	return err.Error()
}

func (r *jqRunner) eval(v any, label string) { r.evalAt(v, label, 0) }

func (r *jqRunner) evalAt(v any, label string, line int) {
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
						b, _ := gojq.Marshal(hv)
						r.env.Stderr.Write(append(b, '\n'))
					}
				}
				r.status = halt.ExitCode()
				r.stop = true
				return
			}
			if r.env.Ctx.Err() != nil {
				r.stop, r.status = true, 1
				return
			}
			var ve gojq.ValueError
			if errors.As(err, &ve) {
				if s, ok := ve.Value().(string); ok {
					fmt.Fprintf(r.env.Stderr, "jq: error (at %s:%d): %s\n", label, line, s)
				} else {
					b, _ := gojq.Marshal(ve.Value())
					fmt.Fprintf(r.env.Stderr, "jq: error (at %s:%d) (not a string): %s\n", label, line, b)
				}
			} else {
				fmt.Fprintf(r.env.Stderr, "jq: error (at %s:%d): %s\n", label, line, err)
			}
			// jq abandons the rest of the filter for this input.
			r.status = jqExitRuntime
			return
		}
		r.outputs = true
		r.last = x
		if err := r.print(x); err != nil {
			r.stop = true
			if !IsBrokenPipe(err) {
				r.env.Errorf("error: %s", ErrText(err))
				r.status = jqExitUsage
			}
			return
		}
	}
}

func (r *jqRunner) print(v any) error {
	if r.o.seq {
		r.w.WriteByte(0x1e)
	}
	if s, ok := v.(string); ok && (r.o.raw || r.o.join) {
		r.w.WriteString(s)
	} else {
		indent := r.o.indent
		if r.o.compact {
			indent = -1
		}
		if err := jqEncode(r.w, v, indent, r.o.tab, r.o.ascii, 0); err != nil {
			return err
		}
	}
	if !r.o.join {
		r.w.WriteByte('\n')
	}
	if r.w.Buffered() > 16<<10 {
		return r.w.Flush()
	}
	return nil
}

// jqEncode writes v as jq prints it: scalars through gojq.Marshal (jq's
// number and string formatting), arrays and objects indented by indent
// spaces (or a tab), compact when indent < 0; object keys sorted.
func jqEncode(w *bufio.Writer, v any, indent int, tab, ascii bool, depth int) error {
	nl := func(d int) {
		if indent < 0 || (indent == 0 && !tab) {
			return
		}
		w.WriteByte('\n')
		if tab {
			w.WriteString(strings.Repeat("\t", d))
		} else {
			w.WriteString(strings.Repeat(" ", d*indent))
		}
	}
	switch v := v.(type) {
	case []any:
		if len(v) == 0 {
			w.WriteString("[]")
			return nil
		}
		w.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				w.WriteByte(',')
			}
			nl(depth + 1)
			if err := jqEncode(w, x, indent, tab, ascii, depth+1); err != nil {
				return err
			}
		}
		nl(depth)
		w.WriteByte(']')
		return nil
	case map[string]any:
		if len(v) == 0 {
			w.WriteString("{}")
			return nil
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		w.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				w.WriteByte(',')
			}
			nl(depth + 1)
			jqScalar(w, k, ascii)
			w.WriteByte(':')
			if indent >= 0 && !(indent == 0 && !tab) {
				w.WriteByte(' ')
			}
			if err := jqEncode(w, v[k], indent, tab, ascii, depth+1); err != nil {
				return err
			}
		}
		nl(depth)
		w.WriteByte('}')
		return nil
	}
	return jqScalar(w, v, ascii)
}

func jqScalar(w *bufio.Writer, v any, ascii bool) error {
	b, err := gojq.Marshal(v)
	if err != nil {
		return err
	}
	if ascii {
		if s, ok := v.(string); ok {
			b = []byte(strconv.QuoteToASCII(s))
			b = bytes.ReplaceAll(b, []byte(`\x`), []byte(`\u00`))
		}
	}
	w.Write(b)
	return nil
}

// jqLineCounter counts newlines in what the JSON decoder has read, so that
// errors can name the line of the value, as jq does.
type jqLineCounter struct {
	r        io.Reader
	nls      []int64 // offsets of newlines not yet passed by a lineAt query
	base     int     // newlines before nls[0]
	consumed int64
}

func (c *jqLineCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for i := 0; i < n; i++ {
		if p[i] == '\n' {
			c.nls = append(c.nls, c.consumed+int64(i))
		}
	}
	c.consumed += int64(n)
	return n, err
}

// lineAt returns the number of newlines before offset; offsets must not
// decrease between calls.
func (c *jqLineCounter) lineAt(off int64) int {
	i := sort.Search(len(c.nls), func(i int) bool { return c.nls[i] >= off })
	c.base += i
	c.nls = c.nls[i:]
	return c.base
}
