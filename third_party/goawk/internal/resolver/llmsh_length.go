package resolver

// llmsh: mawk 1.3.4 types a variable as it parses, in the order of the
// program's text; length(x) of a name not yet used as an array makes it a
// scalar, so an array use after it is "illegal reference to variable x"
// (GoAWK's inference took the array).

import (
	"fmt"
	"sort"

	"github.com/llmsh/llmsh/third_party/goawk/internal/ast"
	"github.com/llmsh/llmsh/third_party/goawk/lexer"
)

// varKey names a variable: its function ("" for a global) and its name.
type varKey struct {
	funcName, name string
}

// noteArrayUse notes that the variable is used as an array at pos.
func (r *resolver) noteArrayUse(funcName, name string, pos lexer.Position) {
	k := varKey{funcName, name}
	if r.arrayUses == nil {
		r.arrayUses = map[varKey]map[lexer.Position]bool{}
	}
	if r.arrayUses[k] == nil {
		r.arrayUses[k] = map[lexer.Position]bool{}
	}
	r.arrayUses[k][pos] = true
}

// noteLengthUse notes a call length(name) at pos in function funcName.
func (r *resolver) noteLengthUse(funcName, name string, pos lexer.Position) {
	_, _, varFunc, _ := r.lookupVar(funcName, name)
	k := varKey{varFunc, name}
	if r.lengthUses == nil {
		r.lengthUses = map[varKey]map[lexer.Position]bool{}
	}
	if r.lengthUses[k] == nil {
		r.lengthUses[k] = map[lexer.Position]bool{}
	}
	r.lengthUses[k][pos] = true
}

// mawkLengthTypes fails, as mawk does, on the array uses of a variable
// that follow, in the program's text, a length() of it that no array use
// precedes: one error for each such use, in the text's order.
func (r *resolver) mawkLengthTypes() {
	var errs []*ast.PositionError
	for k, lengths := range r.lengthUses {
		uses := sortedPositions(r.arrayUses[k])
		if len(uses) == 0 {
			continue
		}
		first := sortedPositions(lengths)[0]
		if before(uses[0], first) {
			continue // an array when length() is met
		}
		local := ""
		if k.funcName != "" {
			local = "local "
		}
		for _, pos := range uses {
			errs = append(errs, &ast.PositionError{Position: pos,
				Message: fmt.Sprintf("can't use %sscalar %q as array", local, k.name)})
		}
	}
	if len(errs) == 0 {
		return
	}
	sort.Slice(errs, func(i, j int) bool { return before(errs[i].Position, errs[j].Position) })
	last := errs[len(errs)-1]
	last.Prior = errs[:len(errs)-1]
	panic(last)
}

func sortedPositions(set map[lexer.Position]bool) []lexer.Position {
	out := make([]lexer.Position, 0, len(set))
	for pos := range set {
		out = append(out, pos)
	}
	sort.Slice(out, func(i, j int) bool { return before(out[i], out[j]) })
	return out
}

func before(a, b lexer.Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
}
