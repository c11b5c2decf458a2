package shell

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/interp"
	"mvdan.cc/sh/v3/syntax"
)

// declare -f and declare -F. interp knows no -F, and its -f prints a
// function as the pre-pass rewrote it (with llmsh's internal commands).
// The pre-pass (declFuncStmt) turns a declare or typeset whose options
// are among -f -F -g into declFuncCmd, which prints as bash does:
//
//	declare -F          declare -f NAME, for each function, sorted
//	declare -F NAME...  NAME, for each that is a function
//	declare -f [NAME...] the definitions, as the script wrote them
//
// A NAME that is no function makes the status 1.
const declFuncCmd = "\x00declfunc"

// declFuncStmt rewrites st if it is such a declaration (see above).
func declFuncStmt(st *syntax.Stmt) {
	dc, ok := st.Cmd.(*syntax.DeclClause)
	if !ok || dc.Variant == nil || (dc.Variant.Value != "declare" && dc.Variant.Value != "typeset") {
		return
	}
	args := []*syntax.Word{litWord(declFuncCmd)}
	funcs := false
	for _, a := range dc.Args {
		switch {
		case !a.Naked || a.Index != nil:
			return
		case a.Name != nil && a.Value == nil:
			args = append(args, litWord(a.Name.Value))
		case a.Name == nil && a.Value != nil:
			if opt := a.Value.Lit(); len(opt) > 1 && opt[0] == '-' && opt != "--" {
				if strings.Trim(opt[1:], "fFg") != "" {
					return
				}
				funcs = funcs || strings.ContainsAny(opt, "fF")
			}
			args = append(args, a.Value)
		default:
			return
		}
	}
	if funcs {
		st.Cmd = &syntax.CallExpr{Args: args}
	}
}

// declFuncCall answers declFuncCmd ARG...
func (s *Shell) declFuncCall(ctx context.Context, args []string) []string {
	hc := interp.HandlerCtx(ctx)
	namesOnly := false
	i := 1
	for ; i < len(args); i++ {
		if args[i] == "--" {
			i++
			break
		}
		if len(args[i]) < 2 || args[i][0] != '-' {
			break
		}
		namesOnly = namesOnly || strings.Contains(args[i], "F")
	}
	funcs := s.funcs(ctx)
	names := args[i:]
	if len(names) == 0 {
		for name := range funcs {
			names = append(names, name)
		}
		sort.Strings(names)
	}
	var b strings.Builder
	st := 0
	for _, name := range names {
		body := funcs[name]
		switch {
		case body == nil:
			st = 1
		case namesOnly && len(args[i:]) == 0:
			fmt.Fprintf(&b, "declare -f %s\n", name)
		case namesOnly:
			b.WriteString(name + "\n")
		default:
			b.WriteString(s.funcText(name, body))
		}
	}
	if _, err := io.WriteString(hc.Stdout, b.String()); err != nil {
		fmt.Fprintf(hc.Stderr, "llmsh: declare: write error: %v\n", err)
		return statusArgs(1)
	}
	return statusArgs(st)
}
