package syntax_test

import (
	"strings"
	"testing"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// bufSize is the parser's reader buffer (parser.go): the ${…} of each
// case is placed across its boundaries.
const bufSize = 1 << 10

// TestBadParamExp: bash reads a malformed ${…} up to its matching brace
// and fails only when it expands it; the parser keeps the text, the
// printer prints it back, and what follows parses as usual, wherever
// the ${…} falls against the reader's buffer.
func TestBadParamExp(t *testing.T) {
	for _, tc := range []struct{ src, bad string }{
		{"echo ${}", "${}"},
		{"echo ${x y}", "${x y}"},
		{"echo ${1a}", "${1a}"},
		{"echo ${#x:1}", "${#x:1}"},
		{"echo ${#!x}", "${#!x}"},
		{"echo ${x:}", "${x:}"},
		{"echo ${a[}", "${a[}"},
		{"echo ${a[]}", "${a[]}"},
		{"echo ${a[1}", "${a[1}"},
		{"echo ${a[1]]}", "${a[1]]}"},
		{"echo \"${a[1 + 2}\"", "${a[1 + 2}"},
		{"echo ${x[1]y}", "${x[1]y}"},
		{`echo ${x y "}" '}' $(echo })}`, `${x y "}" '}' $(echo })}`},
		{"echo \"a ${x\ty} b\"", "${x\ty}"},
		{"echo ${x:-${y z}}", "${y z}"},
		{"echo ${x y\nz}", "${x y\nz}"},
		{"echo ${x y $(case a in a) echo };; esac) $((1)) z}", "${x y $(case a in a) echo };; esac) $((1)) z}"},
	} {
		for _, pad := range []int{0, bufSize - 8, bufSize - 7, bufSize - 6, bufSize - 5, bufSize - 3, 3 * bufSize} {
			src := "#" + strings.Repeat("-", pad) + "\n" + tc.src + "; echo ${ok}\n"
			f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
			if err != nil {
				t.Errorf("%q (pad %d): %v", tc.src, pad, err)
				continue
			}
			var found []string
			syntax.Walk(f, func(n syntax.Node) bool {
				if pe, ok := n.(*syntax.ParamExp); ok && pe.Bad != "" {
					found = append(found, pe.Bad)
				}
				return true
			})
			if len(found) != 1 || found[0] != tc.bad {
				t.Errorf("%q (pad %d): bad %q, want %q", tc.src, pad, found, tc.bad)
			}
			if len(f.Stmts) != 2 {
				t.Errorf("%q (pad %d): %d statements, want 2", tc.src, pad, len(f.Stmts))
			}
			var b strings.Builder
			if err := syntax.NewPrinter().Print(&b, f.Stmts[0]); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.src {
				t.Errorf("%q (pad %d): printed %q", tc.src, pad, b.String())
			}
		}
	}
}

// TestBadParamExpErrors: what is not a bad ${…} in bash stays a parse
// error: an unterminated one, and one inside a $( ) it holds.
func TestBadParamExpErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"echo ${x y", "reached EOF without matching `${` with `}`"},
		{"echo ${x y\n", "reached EOF without matching `${` with `}`"},
		{"echo ${x:-$(if)}", "`if` must be followed by a statement list"},
		{"echo ${x y $(if)}", "`if` must be followed by a statement list"},
		{"echo \"${x y $(echo \"$(fi)\")}\"", "`fi` can only be used to end an `if`"},
	} {
		_, err := syntax.NewParser().Parse(strings.NewReader(tc.src), "")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.src, err, tc.want)
		}
	}
}
