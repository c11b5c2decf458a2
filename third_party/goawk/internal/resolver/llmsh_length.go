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

// varPass is a variable passed to a function's parameter.
type varPass struct {
	arg   varKey // the variable passed
	param varKey // the parameter
	n     int    // the argument's number, from 1
}

// notePass notes that the variable of arg (in function caller) is passed
// to the parameter i of function callee.
func (r *resolver) notePass(caller string, arg *ast.VarExpr, callee string, i int) {
	if r.passes == nil {
		r.passes = map[lexer.Position]varPass{}
	}
	_, _, argFunc, _ := r.lookupVar(caller, arg.Name)
	r.passes[arg.Pos] = varPass{varKey{argFunc, arg.Name}, varKey{callee, r.funcInfo[callee].Params[i]}, i + 1}
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
		first := sortedPositions(lengths)[0]
		if len(uses) > 0 && before(uses[0], first) {
			continue // an array when length() is met
		}
		local := ""
		if k.funcName != "" {
			local = "local "
			errs = append(errs, r.arrayPasses(k)...)
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

// arrayPasses are the errors of the calls that pass an array to param, a
// scalar for mawk.
func (r *resolver) arrayPasses(param varKey) []*ast.PositionError {
	var errs []*ast.PositionError
	for pos, p := range r.passes {
		if p.param != param || r.varInfo[p.arg.funcName][p.arg.name].Type != Array {
			continue
		}
		errs = append(errs, &ast.PositionError{Position: pos,
			Message: fmt.Sprintf("can't pass array %q as scalar param (arg %d in call to %s)", p.arg.name, p.n, param.funcName)})
	}
	return errs
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
