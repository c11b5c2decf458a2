package shell

import (
	"context"
	"fmt"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/interp"
	"mvdan.cc/sh/v3/syntax"
)

// Arrays. interp counts an associative array as one element in
// ${#m[@]}, ignores m+=([k]=v) on one, and never finds an element with
// [[ -v a[i] ]]. The pre-pass rewrites, for the names that the script
// declares with -A anywhere:
//
//	${#m[@]}        ->  $(\x00count "${!m[@]}")
//	m+=([k]=v ...)  ->  m[k]=v ...
//
// and, for any array, [[ -v a[i] ]] -> [[ -n ${a[i]+set} ]].

const countCmd = "\x00count"

// assocNames lists the names that some declare/local/typeset -A declares.
func assocNames(root syntax.Node) map[string]bool {
	names := map[string]bool{}
	syntax.Walk(root, func(n syntax.Node) bool {
		dc, ok := n.(*syntax.DeclClause)
		if !ok {
			return true
		}
		assoc := false
		for _, a := range dc.Args {
			if a.Naked && a.Name == nil && a.Value != nil {
				if flag := a.Value.Lit(); strings.HasPrefix(flag, "-") && strings.Contains(flag, "A") {
					assoc = true
				}
				continue
			}
			if assoc && a.Name != nil {
				names[a.Name.Value] = true
			}
		}
		return true
	})
	return names
}

// isAllIndex reports whether x is the subscript @ or *.
func isAllIndex(x syntax.ArithmExpr) bool {
	w, ok := x.(*syntax.Word)
	return ok && (w.Lit() == "@" || w.Lit() == "*")
}

// assocCountParts rewrites ${#m[@]} among parts for associative m.
func (r *rewriter) assocCountParts(parts []syntax.WordPart) {
	for i, p := range parts {
		pe, ok := p.(*syntax.ParamExp)
		if !ok || !pe.Length || pe.Param == nil || !r.assoc[pe.Param.Value] || !isAllIndex(pe.Index) {
			continue
		}
		keys := &syntax.ParamExp{Dollar: pe.Dollar, Rbrace: pe.Rbrace, Excl: true, Param: pe.Param, Index: litWord("@")}
		parts[i] = &syntax.CmdSubst{Left: pe.Dollar, Right: pe.Rbrace, Stmts: []*syntax.Stmt{{
			Position: pe.Dollar,
			Cmd: &syntax.CallExpr{Args: []*syntax.Word{litWord(countCmd),
				{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{keys}}}}}},
		}}}
	}
}

// assocAppend rewrites m+=([k]=v ...) for associative m into m[k]=v ...
func (r *rewriter) assocAppend(assigns []*syntax.Assign) []*syntax.Assign {
	var out []*syntax.Assign
	changed := false
	for _, a := range assigns {
		if !a.Append || a.Array == nil || a.Name == nil || !r.assoc[a.Name.Value] {
			out = append(out, a)
			continue
		}
		changed = true
		for _, e := range a.Array.Elems {
			if e.Index == nil {
				continue // bash: "must use subscript"; nothing to assign
			}
			v := e.Value
			if v == nil {
				v = &syntax.Word{}
			}
			out = append(out, &syntax.Assign{Name: a.Name, Index: e.Index, Value: v})
		}
	}
	if !changed {
		return assigns
	}
	return out
}

// varSetTest rewrites [[ -v a[i] ]] into [[ -n ${a[i]+set} ]].
func varSetTest(t *syntax.UnaryTest) {
	w0, ok := t.X.(*syntax.Word)
	if t.Op != syntax.TsVarSet || !ok || len(w0.Parts) == 0 {
		return
	}
	w := &syntax.Word{Parts: mergeLits(w0.Parts)}
	first, ok := w.Parts[0].(*syntax.Lit)
	last, ok2 := w.Parts[len(w.Parts)-1].(*syntax.Lit)
	if !ok || !ok2 || !strings.HasSuffix(last.Value, "]") {
		return
	}
	name, rest, found := strings.Cut(first.Value, "[")
	if !found || !syntax.ValidName(name) {
		return
	}
	// The subscript's parts: what follows "[" up to the final "]".
	var idx []syntax.WordPart
	if len(w.Parts) == 1 {
		rest = strings.TrimSuffix(rest, "]")
		idx = append(idx, &syntax.Lit{ValuePos: first.ValuePos, ValueEnd: first.ValueEnd, Value: rest})
	} else {
		if rest != "" {
			idx = append(idx, &syntax.Lit{ValuePos: first.ValuePos, ValueEnd: first.ValueEnd, Value: rest})
		}
		idx = append(idx, w.Parts[1:len(w.Parts)-1]...)
		if v := strings.TrimSuffix(last.Value, "]"); v != "" {
			idx = append(idx, &syntax.Lit{ValuePos: last.ValuePos, ValueEnd: last.ValueEnd, Value: v})
		}
	}
	pe := &syntax.ParamExp{Dollar: w.Pos(), Rbrace: w.End(), Param: &syntax.Lit{ValuePos: first.ValuePos, Value: name},
		Index: &syntax.Word{Parts: idx}, Exp: &syntax.Expansion{Op: syntax.AlternateUnset, Word: litWord("set")}}
	t.Op = syntax.TsNempStr
	t.X = &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Left: w.Pos(), Right: w.End(), Parts: []syntax.WordPart{pe}}}}
}

// mergeLits joins adjacent literals (the parser splits m[a] as m, [a]).
func mergeLits(parts []syntax.WordPart) []syntax.WordPart {
	var out []syntax.WordPart
	for _, p := range parts {
		if lit, ok := p.(*syntax.Lit); ok && len(out) > 0 {
			if prev, ok := out[len(out)-1].(*syntax.Lit); ok {
				out[len(out)-1] = &syntax.Lit{ValuePos: prev.ValuePos, ValueEnd: lit.ValueEnd, Value: prev.Value + lit.Value}
				continue
			}
		}
		out = append(out, p)
	}
	return out
}

// countCall answers \x00count ARG...: it prints how many ARGs there are.
func countCall(ctx context.Context, args []string) []string {
	fmt.Fprint(interp.HandlerCtx(ctx).Stdout, len(args)-1)
	return statusArgs(0)
}

// Integer variables. interp knows no declare -i (nor local -i): the
// pre-pass drops the i, and every assignment in the script to a name that
// the script declares -i anywhere (a static approximation of bash's
// scoping) gets an arithmetic value: n=EXPR as n=$(( EXPR )), n+=EXPR as
// n=$(( n + (EXPR) )).

// integerNames lists the names that some declare/local/typeset -i declares.
func integerNames(root syntax.Node) map[string]bool {
	names := map[string]bool{}
	syntax.Walk(root, func(n syntax.Node) bool {
		dc, ok := n.(*syntax.DeclClause)
		if !ok {
			return true
		}
		integer := false
		for _, a := range dc.Args {
			if a.Naked && a.Name == nil && a.Value != nil {
				if flag := a.Value.Lit(); strings.HasPrefix(flag, "-") && strings.Contains(flag, "i") {
					integer = true
				}
				continue
			}
			if integer && a.Name != nil {
				names[a.Name.Value] = true
			}
		}
		return true
	})
	return names
}

// dropIntegerFlag removes the i from the flags of a declaration.
func dropIntegerFlag(dc *syntax.DeclClause) {
	var out []*syntax.Assign
	for _, a := range dc.Args {
		if a.Naked && a.Name == nil && a.Value != nil {
			if flag := a.Value.Lit(); strings.HasPrefix(flag, "-") && strings.Contains(flag, "i") {
				flag = strings.ReplaceAll(flag, "i", "")
				if flag == "-" {
					continue
				}
				a.Value = litWord(flag)
			}
		}
		out = append(out, a)
	}
	dc.Args = out
}

// integerAssign makes the value of an assignment to an integer variable
// arithmetic.
func (r *rewriter) integerAssign(a *syntax.Assign) {
	if a.Name == nil || !r.integer[a.Name.Value] || a.Value == nil || a.Index != nil || a.Array != nil || len(a.Value.Parts) == 0 {
		return
	}
	from, to := int(a.Value.Pos().Offset()), int(a.Value.End().Offset())
	if !a.Value.Pos().IsValid() || from > to || to > len(r.src) {
		return
	}
	text := r.src[from:to]
	if a.Append {
		text = a.Name.Value + " + (" + text + ")"
	}
	text = "$(( " + text + " ))"
	doc, err := syntax.NewParser().Document(strings.NewReader(text))
	if err != nil || len(doc.Parts) != 1 {
		return
	}
	neutralize(doc)
	sub := r.sub(text)
	sub.ifsSplit = false
	sub.walk(doc)
	r.done[doc] = true
	a.Value, a.Append = doc, false
}
