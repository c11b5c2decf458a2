package shell

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// declare -f and declare -F, export -f, readonly -f. interp knows no -F,
// and its -f prints a function as the pre-pass rewrote it (with llmsh's
// internal commands); its export -f and readonly -f print it too. The
// pre-pass (declFuncStmt) turns a declare, typeset, export or readonly
// whose options are among -f -F -g -x -r -p -n and include -f or -F into
// declFuncCmd VARIANT ARG..., which does as bash does:
//
//	declare -F          declare -fATTRS NAME, for each function, sorted
//	declare -F NAME...  NAME, for each that is a function
//	declare -f          each definition, as the script wrote it, followed
//	                    by declare -fATTRS NAME when it has attributes
//	declare -f NAME...  the definitions
//	declare -fx NAME... (or -fr, export -f, readonly -f) sets the attribute;
//	                    without NAME, lists the functions that have it
//	export -nf NAME...  takes the export attribute away
//
// A NAME that is no function makes the status 1. The attributes are the
// session's, by name (llmsh runs no program that would see an exported
// function).
const declFuncCmd = "\x00declfunc"

// declFuncStmt rewrites st if it is such a declaration (see above).
func declFuncStmt(st *syntax.Stmt) {
	dc, ok := st.Cmd.(*syntax.DeclClause)
	if !ok || dc.Variant == nil {
		return
	}
	variant := dc.Variant.Value
	switch variant {
	case "declare", "typeset", "export", "readonly":
	default:
		return
	}
	args := []*syntax.Word{litWord(declFuncCmd), litWord(variant)}
	funcs := false
	for _, a := range dc.Args {
		switch {
		case !a.Naked || a.Index != nil:
			return
		case a.Name != nil && a.Value == nil:
			args = append(args, litWord(a.Name.Value))
		case a.Name == nil && a.Value != nil:
			if opt := a.Value.Lit(); len(opt) > 1 && opt[0] == '-' && opt != "--" {
				if strings.Trim(opt[1:], "fFgxrpn") != "" {
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

// declFuncCall answers declFuncCmd VARIANT ARG...
func (s *Shell) declFuncCall(ctx context.Context, args []string) []string {
	hc := interp.HandlerCtx(ctx)
	variant := args[1]
	var namesOnly, print, unset bool
	set := ""
	switch variant {
	case "export":
		set = "x"
	case "readonly":
		set = "r"
	}
	i := 2
	for ; i < len(args); i++ {
		if args[i] == "--" {
			i++
			break
		}
		if len(args[i]) < 2 || args[i][0] != '-' {
			break
		}
		opt := args[i]
		namesOnly = namesOnly || strings.Contains(opt, "F")
		print = print || strings.Contains(opt, "p")
		unset = unset || strings.Contains(opt, "n")
		for _, c := range "xr" {
			if strings.ContainsRune(opt, c) && !strings.ContainsRune(set, c) {
				set += string(c)
			}
		}
	}
	funcs := s.funcs(ctx)
	names := args[i:]
	var b strings.Builder
	st := 0
	if len(names) > 0 && !print && (set != "" || unset) && !namesOnly {
		for _, name := range names {
			if funcs[name] == nil {
				fmt.Fprintf(hc.Stderr, "llmsh: %s: %s: not a function\n", variant, name)
				st = 1
				continue
			}
			s.state.setFuncAttrs(name, set, unset)
		}
		return statusArgs(st)
	}
	listing := len(names) == 0
	if listing {
		for name := range funcs {
			if attrs := s.state.funcAttrs(name); strings.Trim(set, attrs) == "" {
				names = append(names, name)
			}
		}
		sort.Strings(names)
	}
	for _, name := range names {
		body := funcs[name]
		attrs := s.state.funcAttrs(name)
		switch {
		case body == nil:
			st = 1
		case namesOnly && listing:
			fmt.Fprintf(&b, "declare -f%s %s\n", attrs, name)
		case namesOnly:
			b.WriteString(name + "\n")
		default:
			b.WriteString(s.funcText(name, body))
			if attrs != "" && (listing || print) {
				fmt.Fprintf(&b, "declare -f%s %s\n", attrs, name)
			}
		}
	}
	if _, err := io.WriteString(hc.Stdout, b.String()); err != nil {
		fmt.Fprintf(hc.Stderr, "llmsh: %s: write error: %v\n", variant, err)
		return statusArgs(1)
	}
	return statusArgs(st)
}
