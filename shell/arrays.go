package shell

import (
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

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
