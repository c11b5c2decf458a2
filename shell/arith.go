package shell

import (
	"context"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// parseArith parses text as one arithmetic expression, or says why not in
// bash's words.
func parseArith(text string) (syntax.ArithmExpr, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	x, err := syntax.NewParser().Arithmetic(strings.NewReader(text))
	if err != nil {
		return nil, fmt.Errorf("%s: syntax error in expression", text)
	}
	return x, nil
}

// letCall answers \x00let TEXT...: each text is parsed as arithmetic and
// the command becomes an eval of (( (E1), (E2)... )), which interp
// evaluates in the current shell, assignments and all; the status is that
// of the last, as let's and (( ))'s.
func (s *Shell) letCall(ctx context.Context, args []string) []string {
	hc := interp.HandlerCtx(ctx)
	var parts []string
	for _, text := range args[1:] {
		x, err := parseArith(text)
		if err != nil {
			fmt.Fprintf(hc.Stderr, "llmsh: let: %v\n", err)
			return statusArgs(1)
		}
		if x == nil {
			parts = append(parts, "0")
			continue
		}
		parts = append(parts, "("+printArithm(x)+")")
	}
	if len(parts) == 0 {
		fmt.Fprintln(hc.Stderr, "llmsh: let: expression expected")
		return statusArgs(1)
	}
	return []string{"eval", "((" + strings.Join(parts, ", ") + "))"}
}

// arithOpen answers the open of \x01arith ID, a $(( )) that assigns
// nothing (see arithParts), with a file that holds its value. Its text is
// expanded as interp expands words, then evaluated; a variable whose value
// is itself an expression counts as that expression, as in bash. An error
// is the file's read error: interp reports it as an expansion error and,
// since it is an UnsetParameterError, ends the current shell with status 1
// as bash does.
func (s *Shell) arithOpen(ctx context.Context, id string) (io.ReadWriteCloser, error) {
	v, err, ok := s.arithEval(ctx)
	if !ok {
		return nil, redirError(arithFile+id, syscall.ENOENT)
	}
	if err != nil {
		return nopRWC{r: &errReader{err}}, nil
	}
	return valueFile{strings.NewReader(strconv.Itoa(v))}, nil
}

// arithCmdCall answers \x00arithcmd ID, a (( E )) that assigns nothing:
// its status is 0 if E is not 0; an error is reported with status 1.
func (s *Shell) arithCmdCall(ctx context.Context, args []string) []string {
	if len(args) != 2 {
		return statusArgs(2)
	}
	v, err, ok := s.arithEval(ctx)
	if !ok {
		return statusArgs(2)
	}
	if err != nil {
		msg := err.Error()
		if u, isU := err.(expand.UnsetParameterError); isU && u.Node.Param.Value == "llmsh" {
			msg = "((: " + u.Message
		}
		fmt.Fprintf(interp.HandlerCtx(ctx).Stderr, "llmsh: %s\n", msg)
		return statusArgs(1)
	}
	if v == 0 {
		return statusArgs(1)
	}
	return statusArgs(0)
}

// arithEval evaluates the rewritten arithmetic of the handler's node (the
// \x00arithcmd call or the \x01arith redirection) in the shell of ctx; ok
// is false if the node holds none or there is no shell.
func (s *Shell) arithEval(ctx context.Context) (v int, err error, ok bool) {
	e, _ := s.state.made(interp.HandlerCtx(ctx).Node)
	ae, ok := e.(*arithExpr)
	ecfg := runnerExpandConfig(currentRunner(ctx))
	if !ok || ecfg == nil {
		return 0, nil, false
	}
	// A copy: the runner's own config holds the buffer of the command
	// substitution that is reading this file.
	cfg := *ecfg
	plain, err := plainOperands(&cfg, ae)
	if err == nil && plain {
		// Each word's text is one number or name: evaluating the
		// expression as parsed is evaluating the expanded text. On an
		// error, the text is evaluated again below for bash's message.
		v, err = arithm(cfg.Env, cfg.NoUnset, ae.x, "")
		plain = err == nil
		err = nil
	}
	if err == nil && !plain {
		var text string
		text, err = expand.Literal(&cfg, ae.text)
		if err == nil {
			v, err = arithValue(cfg.Env, text)
			if err != nil {
				err = arithError(err)
			}
		}
	}
	return v, err, true
}

// arithError is err as an expansion error that ends the shell.
func arithError(err error) error {
	return expand.UnsetParameterError{
		Node:    &syntax.ParamExp{Param: &syntax.Lit{Value: "llmsh"}},
		Message: err.Error(),
	}
}

// plainOperands reports whether ae has words, and each expands to a
// decimal number or a name.
func plainOperands(cfg *expand.Config, ae *arithExpr) (bool, error) {
	for _, w := range ae.words {
		s, err := expand.Literal(cfg, w)
		if err != nil {
			return false, err
		}
		if !syntax.ValidName(s) && (s == "" || strings.Trim(s, "0123456789") != "") {
			return false, nil
		}
	}
	return len(ae.words) > 0, nil
}

// arithValue evaluates text, which must assign nothing, in env.
func arithValue(env expand.Environ, text string) (int, error) {
	x, err := parseArith(text)
	if err != nil {
		return 0, err
	}
	if x == nil {
		return 0, nil
	}
	if assigns(x) {
		return 0, fmt.Errorf("%s: attempted assignment in an expanded expression", text)
	}
	v, err := arithm(env, false, x, text)
	if err != nil {
		return 0, err
	}
	return v, nil
}

// runnerExpandConfig returns the expansion config of r, which interp keeps
// in an unexported field; TestArithNoSubshell guards this against a change
// of mvdan.cc/sh.
func runnerExpandConfig(r *interp.Runner) *expand.Config {
	off := ecfgOffset()
	if r == nil || off == ^uintptr(0) {
		return nil
	}
	return *(**expand.Config)(unsafe.Add(unsafe.Pointer(r), off))
}

// ecfgOffset is the offset of the Runner's ecfg field, or ^0 if it has no
// such field of that type; it is looked up once (a split or an
// arithmetic expansion asks for it each time).
var ecfgOffset = sync.OnceValue(func() uintptr {
	f, ok := reflect.TypeFor[interp.Runner]().FieldByName("ecfg")
	if !ok || len(f.Index) != 1 || f.Type != reflect.TypeFor[*expand.Config]() {
		return ^uintptr(0)
	}
	return f.Offset
})

// errReader is a reader whose every read fails with err.
type errReader struct{ err error }

func (e *errReader) Read([]byte) (int, error) { return 0, e.err }

// arithEnv evaluates a variable whose value is an expression ("3 + 4") to
// its number when arithmetic reads it, as bash does. The first value that
// is no valid expression is recorded in *err.
type arithEnv struct {
	expand.Environ
	depth int
	err   *error
}

func (e arithEnv) Get(name string) expand.Variable {
	v := e.Environ.Get(name)
	// IFS is read by every expansion, arithmetic too, and is no
	// operand: IFS=, must not make ${x} in $(( … )) a syntax error.
	if v.Kind != expand.String || e.depth > 32 || name == "IFS" {
		return v
	}
	str := strings.TrimSpace(v.Str)
	if _, err := strconv.ParseInt(str, 0, 64); err == nil || str == "" || syntax.ValidName(str) {
		return v
	}
	x, err := parseArith(str)
	if err == nil && assigns(x) {
		err = fmt.Errorf("%s: attempted assignment in an expanded expression", str)
	}
	n := 0
	if err == nil {
		n, err = expand.Arithm(&expand.Config{Env: arithEnv{e.Environ, e.depth + 1, e.err}}, x)
	}
	if err != nil {
		if *e.err == nil {
			*e.err = err
		}
		return v
	}
	v.Str = strconv.Itoa(n)
	return v
}

// arithm evaluates x, written text, in env, where a variable may hold an
// expression.
func arithm(env expand.Environ, noUnset bool, x syntax.ArithmExpr, text string) (int, error) {
	var verr error
	n, err := expand.Arithm(&expand.Config{Env: arithEnv{env, 0, &verr}, NoUnset: noUnset}, x)
	if err != nil {
		return 0, fmt.Errorf("%s: %v", text, err)
	}
	return n, verr
}

// quoteCall answers \x00quote KIND TEXT: it prints TEXT escaped for a
// pattern (KIND glob) or a regular expression (re); and \x00quote sh SET
// VALUE, ${v@Q} (nothing when SET is empty: v is unset).
func quoteCall(ctx context.Context, args []string) []string {
	hc := interp.HandlerCtx(ctx)
	if len(args) == 4 && args[1] == "sh" {
		if args[2] != "" { // set: ${v@Q} of an unset v is empty
			fmt.Fprint(hc.Stdout, bashQuote(args[3]))
		}
		return statusArgs(0)
	}
	if len(args) != 3 {
		return statusArgs(2)
	}
	if args[1] == "re" {
		fmt.Fprint(hc.Stdout, reQuote(args[2]))
	} else {
		fmt.Fprint(hc.Stdout, globQuote(args[2]))
	}
	return statusArgs(0)
}

// getoptsArgs handles what interp's getopts gets wrong: at an argument
// "--" it stops without stepping OPTIND past it, as bash does. Anything
// else is left to interp.
func (s *Shell) getoptsArgs(ctx context.Context, args []string) []string {
	if len(args) < 3 || !syntax.ValidName(args[2]) {
		return args
	}
	hc := interp.HandlerCtx(ctx)
	params := args[3:]
	if len(args) == 3 {
		r := currentRunner(ctx)
		if r == nil {
			return args
		}
		params = r.Params
	}
	optind, err := strconv.Atoi(hc.Env.Get("OPTIND").String())
	if err != nil || optind < 1 || optind > len(params) || params[optind-1] != "--" {
		return args
	}
	return []string{"eval", args[2] + "='?'; unset OPTARG; OPTIND=" + strconv.Itoa(optind+1) + "; false"}
}

// valueFile is the file of a value. It is an io.WriterTo, so that interp's
// io.Copy of it allocates no buffer.
type valueFile struct{ *strings.Reader }

func (valueFile) Write([]byte) (int, error) { return 0, syscall.EBADF }
func (valueFile) Close() error              { return nil }
