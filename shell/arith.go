package shell

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
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

// arithCall answers \x00arith TEXT (the body of a $(( )) that assigns
// nothing): it prints the value of TEXT, in which a variable whose value is
// itself an expression counts as that expression, as in bash.
func (s *Shell) arithCall(ctx context.Context, args []string) []string {
	hc := interp.HandlerCtx(ctx)
	text := strings.Join(args[1:], " ")
	x, err := parseArith(text)
	if err == nil && x != nil && assigns(x) {
		err = fmt.Errorf("%s: attempted assignment in an expanded expression", text)
	}
	if err != nil {
		fmt.Fprintf(hc.Stderr, "llmsh: %v\n", err)
		return statusArgs(1)
	}
	n := 0
	if x != nil {
		n, err = expand.Arithm(&expand.Config{Env: arithEnv{hc.Env, 0}}, x)
		if err != nil {
			fmt.Fprintf(hc.Stderr, "llmsh: %s: %v\n", text, err)
			return statusArgs(1)
		}
	}
	fmt.Fprint(hc.Stdout, n)
	return statusArgs(0)
}

// arithEnv evaluates a variable whose value is an expression ("3 + 4") to
// its number when arithmetic reads it, as bash does.
type arithEnv struct {
	expand.Environ
	depth int
}

func (e arithEnv) Get(name string) expand.Variable {
	v := e.Environ.Get(name)
	if v.Kind != expand.String || e.depth > 32 {
		return v
	}
	str := strings.TrimSpace(v.Str)
	if _, err := strconv.ParseInt(str, 0, 64); err == nil || str == "" || syntax.ValidName(str) {
		return v
	}
	x, err := parseArith(str)
	if err != nil || x == nil || assigns(x) {
		return v
	}
	n, err := expand.Arithm(&expand.Config{Env: arithEnv{e.Environ, e.depth + 1}}, x)
	if err != nil {
		return v
	}
	v.Str = strconv.Itoa(n)
	return v
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
