package syntax_test

import (
	"strings"
	"testing"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// TestDeclPrefixAssigns: a declaration builtin after the command's own
// assignments is a DeclClause holding them (x=1 declare -a q=(a b), as
// bash parses it), printed back as written; builtin declare and a
// function call are not.
func TestDeclPrefixAssigns(t *testing.T) {
	for _, c := range []struct {
		in      string
		assigns int
		out     string
	}{
		{"x=1 declare -a q=(a b)", 1, "x=1 declare -a q=(a b)\n"},
		{"x=1 y=$z local -r l=([1]=a)", 2, "x=1 y=$z local -r l=([1]=a)\n"},
		{">f x=1 export e=(1)", 1, "x=1 export e=(1) >f\n"},
		{"x=(a b) readonly r", 1, "x=(a b) readonly r\n"},
		{"declare a=1 >f b=2", 0, "declare a=1 b=2 >f\n"},
	} {
		f, err := syntax.NewParser().Parse(strings.NewReader(c.in), "")
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		dc, ok := f.Stmts[0].Cmd.(*syntax.DeclClause)
		if !ok {
			t.Fatalf("%q: %T, want *DeclClause", c.in, f.Stmts[0].Cmd)
		}
		if len(dc.Assigns) != c.assigns {
			t.Errorf("%q: %d assignments, want %d", c.in, len(dc.Assigns), c.assigns)
		}
		var b strings.Builder
		if err := syntax.NewPrinter().Print(&b, f); err != nil {
			t.Fatal(err)
		}
		if b.String() != c.out {
			t.Errorf("%q printed %q, want %q", c.in, b.String(), c.out)
		}
	}
	for _, in := range []string{"x=1 builtin declare -a q=(a b)", "x=1 command declare q=(a)"} {
		if _, err := syntax.NewParser().Parse(strings.NewReader(in), ""); err == nil {
			t.Errorf("%q parsed, bash refuses it", in)
		}
	}
}
