// Copyright (c) 2026, llmsh authors
// See LICENSE for licensing information

package interp

import (
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/internal"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// llmsh: a command's own assignments (x=1 cmd, x=1 declare -a q=(…)),
// made before it runs and undone after it, as bash's temporary
// environment.

type restoreVar struct {
	name string
	vr   expand.Variable
	// dropped is set when the temporary variable was unset or exported
	// while the command ran: nothing is put back (tempUnset).
	dropped bool
}

// prefixState is what prefixAssigns did: the values to put back
// (restores) and a declaration's own values for its names (inherit).
type prefixState struct {
	restores, inherit []restoreVar
	roFailed          bool // a readonly name was assigned (reportExit)
	fn                bool // the command is a function's call
	// propagate is set when the command is a builtin whose own
	// assignments to the names reach the variables they hide too
	// (tempPropagates).
	propagate bool
	unset     bool // the builtin it runs is unset (builtin unset)
	// env is the scope the assignments were made in, where the values
	// are put back.
	env expand.WriteEnviron
}

// prefixAssigns makes the assignments of a command whose expanded
// words are fields; their errors go to the stderr from before the
// command's redirections (r.cmdErr), errOut is the one after them;
// trace is the command's xtrace.
func (r *Runner) prefixAssigns(assigns []*syntax.Assign, fields []string, errOut io.Writer, trace *tracer) (p prefixState) {
	// llmsh: local (declare, typeset) in a function gives a name the
	// command's own value: x=7 local x is a local x of 7, and the
	// outer x is not touched.
	declLocal := r.inFunc && len(fields) > 0 && (fields[0] == "local" || fields[0] == "declare" || fields[0] == "typeset")
	keeps := tempKept(fields, r.inFunc)
	var declared map[string]bool // the names a local declaration declares
	if declLocal {
		declared = declNames(fields)
	}

	// llmsh: bash makes a command's own assignments before its
	// redirections: their errors and command substitutions write to
	// the stderr from before them (RO=1 cmd 2>&1).
	if r.cmdErr != nil {
		r.stderr = r.cmdErr
	}
	p.env = r.writeEnv
	if trace != nil {
		// llmsh: the next pipeline element's trace waits for the
		// command's own line, not its first assignment's.
		trace.hold = true
		defer func() { trace.hold = false }()
	}
	for _, as := range assigns {
		if as.Index != nil {
			// llmsh: bash's message; the command still runs.
			r.errf("%s`%s[%s]': not a valid identifier\n", r.errPrefix(), as.Name.Value, subscriptText(as.Index))
			continue
		}
		name := as.Name.Value
		if r.circularRef(name) {
			// llmsh: bash warns and the command runs.
			r.errf("%swarning: %s: circular name reference\n", r.errPrefix(), name)
			continue
		}
		prev := r.lookupVar(name)
		// Resolve any nameref so we can restore the original final value later on.
		if n, v := prev.Resolve(r.writeEnv); n != "" {
			name, prev = n, v
		}

		// bash's temporary variable is a new one, exported: the
		// integer and case attributes of the one it hides do not
		// apply to its value (declare -i x; x=1+1 cmd gives 1+1).
		// (export and readonly keep the variable: x=1+1 export x
		// of an integer x is 2, as bash).
		plain := prev
		if plain.Kind == expand.NameRef && plain.Str == "" {
			// llmsh: over a nameref with no target, a plain
			// variable holding the value, as bash's.
			plain = expand.Variable{}
		}
		if !keeps {
			plain.Integer, plain.Lower, plain.Upper, plain.Capital = false, false, false, false
		}
		name, vr, ok := r.assignValIndex(name, plain, as, "", nil)
		// llmsh: bash traces a command's own assignments first, each
		// once it is made, PS4 seeing its value (not one to a
		// readonly variable).
		traced := trace != nil && ok
		if prev.ReadOnly {
			// llmsh: bash reports it and runs the command,
			// whose status stands (under set -e it exits).
			r.errf("%s%s: readonly variable\n", r.errPrefix(), name)
			p.roFailed = true
			continue
		}
		// Inline command vars are always exported.
		vr.Exported = true

		if declLocal && declared[name] {
			p.inherit = append(p.inherit, restoreVar{name: name, vr: vr})
			if traced {
				// PS4 sees the value the local will get.
				r.traceHide = []restoreVar{{name: name, vr: vr}}
				r.traceAssign(trace, as)
				r.traceHide = nil
			}
			continue
		}
		p.restores = append(p.restores, restoreVar{name: name, vr: prev})

		r.setVar(name, vr)
		if traced {
			r.traceAssign(trace, as)
		}
	}
	r.stderr = errOut
	return p
}

// undo puts the values back when the command does not run (a
// redirection failed).
func (p *prefixState) undo(r *Runner) {
	for _, restore := range slices.Backward(p.restores) {
		if !restore.vr.ReadOnly {
			r.setVar(restore.name, restore.vr)
		}
	}
}

// start marks the names as the running command's temporary ones.
func (p *prefixState) start(r *Runner, fields []string) {
	p.fn = len(fields) > 0 && r.Funcs[fields[0]] != nil
	p.propagate, p.unset = false, false
	if !p.fn {
		var name string
		p.propagate, name = r.tempPropagates(fields)
		p.unset = name == "unset" // builtin unset
	}
	if len(p.restores) > 0 {
		// llmsh: a copy, which shares p's restores: pushing p itself
		// put every command's state on the heap, its own assignments
		// or not.
		cp := *p
		r.tempStack = append(r.tempStack, &cp)
	}
	for _, rs := range p.restores {
		// llmsh: bash's temporary environment, which local
		// copies (tempVars).
		if r.tempVars == nil {
			r.tempVars = map[string]int{}
		}
		r.tempVars[rs.name]++
	}
	if len(p.inherit) > 0 {
		r.declPrefix = make(map[string]expand.Variable, len(p.inherit))
		for _, in := range p.inherit {
			r.declPrefix[in.name] = in.vr
		}
	}
}

// end puts the values back after the command (fields) ran, but for the
// names a declaration kept.
func (p *prefixState) end(r *Runner, fields []string) {
	r.declPrefix = nil
	if n := len(r.tempStack); n > 0 && len(p.restores) > 0 && &r.tempStack[n-1].restores[0] == &p.restores[0] {
		r.tempStack[n-1] = nil
		r.tempStack = r.tempStack[:n-1]
	}
	for _, rs := range p.restores {
		if r.tempVars[rs.name]--; r.tempVars[rs.name] <= 0 {
			delete(r.tempVars, rs.name)
		}
	}
	// Only a declaration command with prefix assignments needs the
	// names it declares (and fields may be huge: set -- "$@" "$big").
	var kept map[string]bool
	keeps := tempKept(fields, r.inFunc)
	if len(fields) > 0 && (len(p.inherit) > 0 || len(p.restores) > 0 && keeps) {
		kept = declNames(fields)
	}
	if !declPrints(fields) {
		for _, in := range p.inherit {
			if kept[in.name] {
				r.giveLocal(in, fields[0], slices.Contains(fields[1:], in.name))
			}
		}
	}
	if !keeps {
		kept = nil
	}
	restores := p.restores
	if len(fields) > 0 && r.opts[optPosix] && specialBuiltins[fields[0]] && r.Funcs[fields[0]] == nil {
		// llmsh: in posix mode the assignments before a special
		// builtin stay, exported, when it is done (bash: x=1 :).
		restores = nil
	}
	// llmsh: last first, so that a name assigned twice (v=0 v=1 f)
	// gets back what it held before the first.
	for _, restore := range slices.Backward(restores) {
		if restore.vr.ReadOnly || restore.dropped {
			continue // llmsh: it was not changed (said once)
		}
		if kept[restore.name] {
			// llmsh: x=7 export x (readonly x) keeps x, as bash.
			continue
		}
		r.setVar(restore.name, restore.vr)
	}
}

// tempKept reports whether the declaration command fields keeps the
// variables its own assignments made, as bash: export and readonly, and
// outside functions declare and typeset with -x or -r (x=1 declare -x x
// leaves x 1, x=1 declare x gives back the old x).
func tempKept(fields []string, inFunc bool) bool {
	if len(fields) == 0 {
		return false
	}
	switch fields[0] {
	case "export", "readonly":
		return true
	case "declare", "typeset":
		if inFunc {
			return false
		}
		for _, arg := range fields[1:] {
			if len(arg) < 2 || arg[0] != '-' || arg == "--" || strings.Contains(arg, "=") {
				break // the options end
			}
			if strings.ContainsAny(arg[1:], "xr") {
				return true
			}
		}
	}
	return false
}

// liveTemp is the restore entry of name's temporary variable, the one
// a running command's own assignment made (x=1 f) and that no local
// declared since hides, nil if none; and its command's state.
func (r *Runner) liveTemp(name string) (*prefixState, *restoreVar) {
	if r.tempVars[name] == 0 {
		return nil, nil
	}
	for i := len(r.tempStack) - 1; i >= 0; i-- {
		p := r.tempStack[i]
		for j := len(p.restores) - 1; j >= 0; j-- {
			rs := &p.restores[j]
			if rs.name != name || rs.dropped {
				continue
			}
			if rs.vr.ReadOnly || r.localSince(p.env, name) {
				return nil, nil
			}
			return p, rs
		}
	}
	return nil, nil
}

// localSince reports whether a function scope newer than env has a local
// name, or env is not a scope the runner sees.
func (r *Runner) localSince(env expand.WriteEnviron, name string) bool {
	o, ok := r.writeEnv.(*overlayEnviron)
	for ok && expand.WriteEnviron(o) != env {
		if vr, in := o.values[o.normalize(name)]; in && vr.Local {
			return true
		}
		o, ok = o.parent.(*overlayEnviron)
	}
	return !ok
}

// tempUnset unsets name when it is a running command's temporary
// variable: as bash, whose temporary environment is a scope of its own,
// that scope loses it and the variable it hid shows again (x=0; x=1 eval
// 'unset x; echo $x' prints 0), and the command's end puts nothing back
// (an assignment after the unset stays). It reports whether it did.
func (r *Runner) tempUnset(name string) bool {
	p, rs := r.liveTemp(name)
	if rs == nil {
		return false
	}
	if p.propagate && p.unset {
		// llmsh: x=1 builtin unset x unsets both (tempPropagates).
		rs.vr = expand.Variable{}
		return false
	}
	rs.dropped = true
	cur := r.writeEnv
	r.writeEnv = p.env
	r.setVar(name, rs.vr)
	r.writeEnv = cur
	return true
}

// tempPropagates reports whether the builtin command fields, run with
// its own assignments, assigns through them to the variables they hide:
// bash's bind_variable sets both the temporary variable and the shell's,
// so x=1 printf -v x 8 (let, getopts, builtin read, builtin eval) leaves
// x 8. Not for read and mapfile, nor eval, source and unset, whose
// temporary variables are a scope of their own, nor the declarations,
// which make their own; `command` passes to the builtin it runs,
// `builtin` runs it directly (x=1 builtin read x leaves x; llmsh). It
// also gives the name of the builtin that runs.
func (r *Runner) tempPropagates(fields []string) (bool, string) {
	if len(fields) == 0 || r.Funcs[fields[0]] != nil {
		return false, ""
	}
	i, direct := 0, false
	for i < len(fields) && (fields[i] == "command" || fields[i] == "builtin") {
		direct = fields[i] == "builtin"
		i++
		for i < len(fields) && (fields[i] == "--" || !direct && fields[i] == "-p") {
			i++
		}
	}
	if i >= len(fields) || !IsBuiltin(fields[i]) || declBuiltins[fields[i]] {
		return false, ""
	}
	switch fields[i] {
	case "mapfile", "readarray":
		return false, ""
	case "read", "eval", "source", ".", "unset":
		return direct, fields[i]
	}
	return true, fields[i]
}

// tempAssigned gives the variable that a running builtin's own
// assignment hides (restore) the value vr that the builtin assigns to
// name, when that command propagates (tempPropagates; llmsh).
func (r *Runner) tempAssigned(name string, vr expand.Variable) {
	p, rs := r.liveTemp(name)
	if rs == nil || !p.propagate {
		return
	}
	if vr.Kind != expand.String || !vr.IsSet() {
		return // an array's assignment does not (x=1 builtin read -a x)
	}
	nv := rs.vr
	switch nv.Kind {
	case expand.Indexed: // its element 0, as bash's bind_variable
		nv.List, nv.Indexes = internal.SetIndexedElem(slices.Clone(nv.List), slices.Clone(nv.Indexes), 0, vr.Str)
	case expand.Associative:
		nv.Map = maps.Clone(nv.Map)
		if nv.Map == nil {
			nv.Map = map[string]string{}
		}
		nv.Map["0"] = vr.Str
	default:
		nv.Kind, nv.Str = expand.String, vr.Str
	}
	nv.Set = true
	rs.vr = nv
}

// tempElem makes the element assignment NAME[index]=vr of a builtin that
// runs with its own assignment to name (x=1 printf -v 'x[1]' 8), when its
// assignments propagate: as bash's, whose array assignment finds the
// shell's variable, not the temporary one, the element goes to the
// variable that the temporary one hides, which the command's end puts
// back; the temporary variable is left as it is. It reports whether it
// did (llmsh).
func (r *Runner) tempElem(name string, index syntax.ArithmExpr, vr expand.Variable) bool {
	p, rs := r.liveTemp(name)
	if rs == nil || !p.propagate || p.env == nil || !rs.vr.IsSet() {
		return false // (none hidden: the temporary one takes it)
	}
	cur := r.writeEnv
	r.writeEnv = p.env
	temp := p.env.Get(name)
	if p.env.Set(name, rs.vr) != nil {
		r.writeEnv = cur
		return false
	}
	r.tempElemming = true
	r.setVarWithIndex(rs.vr, name, index, vr)
	r.tempElemming = false
	rs.vr = p.env.Get(name)
	p.env.Set(name, temp)
	r.writeEnv = cur
	return true
}

// tempPropagate keeps name's temporary variable, made for a function's
// call (x=1 f), when the function exports it or makes it readonly: bash
// copies such a variable to the caller's scope when the function returns
// (att_propagate), with the value it has then.
func (r *Runner) tempPropagate(name string) {
	if p, rs := r.liveTemp(name); rs != nil && p.fn {
		rs.dropped = true
	}
}

// giveLocal gives the local that a declaration in a function (x=1 local
// x) made of a name its own assignment also set the value of that
// temporary variable, as bash's local starts from it: exported, with the
// attributes the declaration gave (v=4 declare -i v: -ix; a string
// local of this function declared again takes it too), an empty
// array for -a or -A (x=1 local -a x), not converted to the case asked;
// a local given a value of its own is exported. A nameref (x=1 local -n
// x) has its value checked as the reference's target (`1': invalid
// variable name …, status 1) and is gone either way (llmsh).
func (r *Runner) giveLocal(in restoreVar, builtin string, naked bool) {
	o, ok := r.writeEnv.(*overlayEnviron)
	if !ok {
		return
	}
	n := o.normalize(in.name)
	vr := o.values[n].Variable
	if !vr.Local {
		return
	}
	switch {
	case !vr.IsSet() && vr.Kind == expand.NameRef:
		saved := r.declVariant
		r.declVariant = builtin
		if in.vr.Str != in.name {
			r.validRef(in.name, in.vr.Str)
		}
		r.declVariant = saved
		o.drop(n)
		return
	case !vr.IsSet() && vr.Kind == expand.Indexed:
		vr.List, vr.Indexes = []string{}, nil
	case !vr.IsSet() && vr.Kind == expand.Associative:
		vr.Map = map[string]string{}
	case !vr.IsSet() || naked && vr.Kind == expand.String:
		vr.Kind, vr.Str = in.vr.Kind, in.vr.Str
		vr.List, vr.Map, vr.Indexes = in.vr.List, in.vr.Map, in.vr.Indexes
	}
	// The local is written as it is, readonly too (x=1 local -r x).
	vr.Set, vr.Exported = true, true
	o.exportChanged(in.name)
	o.put(n, namedVariable{in.name, vr})
}

// declPrints reports whether the declaration fields only prints (declare
// -p x), which changes no variable (llmsh).
func declPrints(fields []string) bool {
	for _, f := range fields[1:] {
		if f == "--" || len(f) < 2 || f[0] != '-' && f[0] != '+' {
			return false
		}
		if f[0] == '-' && strings.ContainsRune(f, 'p') {
			return true
		}
	}
	return false
}

// declBuiltins are the declaration builtins, whose assignments to the
// names of their own prefix assignments tempKept and giveLocal handle.
var declBuiltins = map[string]bool{"declare": true, "typeset": true, "local": true, "export": true, "readonly": true}
