// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// declare, typeset, export and readonly as bash 5.2 lists and prints:
// every option of a group (-rx), "--", the listings without names (set,
// declare, declare -p, export -p, readonly -p, declare -x/-r/-a/-A/-i),
// and the functions: declare -f/-F, export -f, readonly -f, export -nf,
// printed as bash prints them. See LLMSH.md.

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/internal"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// declOpts are the options of one declaration.
type declOpts struct {
	variant            string
	modes              []string // -x -r -i +i +x
	valType            string   // -a -A -n
	global             bool
	inherit            bool   // -I: a new local starts as the variable it hides
	funcs, namesOnly   bool   // -f, -F
	funcsPlus          bool   // +f
	print              bool   // -p
	unexport           bool   // +x (export -n)
	unarray            bool   // +a, +A (llmsh: refused on an array of that kind)
	unarrayKinds       string // the letters given: "a", "A" or both
	bothArrays         bool   // -a and -A (llmsh: bash's error for each name)
	listAttrs          string
	sawOpt, sawAttrOpt bool
}

// declUsage is bash's usage line of each declaration builtin.
var declUsageOnce lazy[map[string]string] // made on first use, not in init

// declUsage returns the table (the map literal was code in the package's init,
// run at every start of llmsh).
func declUsage() map[string]string { return declUsageOnce.get(makeDeclUsage) }

func makeDeclUsage() map[string]string {
	return map[string]string{
		"declare":  "declare [-aAfFgiIlnrtux] [name[=value] ...] or declare -p [-aAfFilnrtux] [name ...]",
		"typeset":  "typeset [-aAfFgiIlnrtux] name[=value] ... or typeset -p [-aAfFilnrtux] [name ...]",
		"local":    "local [option] name[=value] ...",
		"export":   "export [-fn] [name[=value] ...] or export -p",
		"readonly": "readonly [-aAf] [name[=value] ...] or readonly -p",
		"nameref":  "nameref [name[=value] ...]",
	}
}

// declOption applies one option letter c, given with sign '-' or '+'; it
// reports false for an option bash's builtin does not take here.
func (o *declOpts) option(sign, c byte) bool {
	flag := string([]byte{sign, c})
	o.sawOpt = true
	if (o.variant == "export" || o.variant == "readonly") && (c == 'x' || c == 'r' || c == 'i') {
		return false // llmsh: not theirs, as in bash
	}
	switch c {
	case 'x':
		if sign == '+' {
			o.unexport = true
			break
		}
		o.modes = append(o.modes, flag)
		o.listAttrs += "x"
		o.sawAttrOpt = true
	case 'r':
		o.modes = append(o.modes, flag) // llmsh: +r fails on a readonly variable
		o.listAttrs += "r"
		o.sawAttrOpt = true
	case 'i':
		o.modes = append(o.modes, flag)
		if sign == '-' {
			o.listAttrs += "i"
		}
		o.sawAttrOpt = true
	case 'l', 'u', 'c': // llmsh: the case attributes
		if o.variant == "export" || o.variant == "readonly" {
			return false
		}
		o.modes = append(o.modes, flag)
		if sign == '-' {
			o.listAttrs += string(c)
		}
		o.sawAttrOpt = true
	case 't': // llmsh: the trace attribute
		if o.variant == "export" || o.variant == "readonly" {
			return false
		}
		o.modes = append(o.modes, flag)
		if sign == '-' {
			o.listAttrs += "t"
		}
		o.sawAttrOpt = true
	case 'a', 'A', 'n':
		if o.variant == "export" && c != 'n' && sign != '-' {
			return false // llmsh: export -a and -A, not +a (bash)
		}
		if o.variant == "export" && c == 'n' { // export -n: take the attribute away
			o.unexport = true
			break
		}
		if sign == '-' {
			if c != 'n' && (o.valType == "-a" || o.valType == "-A") && o.valType != flag {
				// llmsh: -a and -A: the array is made associative,
				// then refused the other kind (bash).
				o.bothArrays, flag = true, "-A"
			}
			o.valType = flag
		} else if c != 'n' {
			o.unarray = true
			o.unarrayKinds += string(c)
		} else {
			o.modes = append(o.modes, flag) // llmsh: declare +n r
		}
		o.listAttrs += string(c)
		o.sawAttrOpt = true
	case 'g':
		if o.variant == "export" || o.variant == "readonly" {
			return false
		}
		o.global = true
	case 'I':
		// llmsh: -I, as shopt localvar_inherit for this declaration.
		if o.variant == "export" || o.variant == "readonly" {
			return false
		}
		o.inherit = true
	case 'f':
		o.funcs = true
		o.funcsPlus = o.funcsPlus || sign == '+' // llmsh: declare +f NAME
	case 'F':
		if o.variant == "export" || o.variant == "readonly" {
			return false
		}
		o.funcs, o.namesOnly = true, true
	case 'p':
		o.print = true
	default:
		return false
	}
	return true
}

// declListing lists the variables for a declaration without names: as
// `set` does (NAME=VALUE, then the functions) for a bare declare or
// typeset, else as `declare -p` does, only those with one of the
// attributes asked for.
func (r *Runner) declListing(o *declOpts) {
	want := o.listAttrs
	switch o.variant {
	case "export":
		want += "x"
	case "readonly":
		want += "r"
	}
	long := o.print || want != "" || o.variant == "export" || o.variant == "readonly" || o.sawAttrOpt
	// llmsh: as bash, -a (-A) lists only the indexed (associative)
	// arrays, and of them those with one of the other attributes asked
	// for, if any (export -a: the exported arrays).
	kind := expand.Unknown
	for i, c := range []string{"a", "A"} {
		if strings.Contains(want, c) {
			kind = []expand.ValueKind{expand.Indexed, expand.Associative}[i]
			if rest := strings.ReplaceAll(want, c, ""); rest != "" {
				want = rest
			}
		}
	}
	var b strings.Builder
	if long && want == "" && kind == expand.Unknown && r.localOpts != nil && r.inFunc {
		b.WriteString("local -\n") // llmsh: as bash lists local -
	}
	names, dyn := r.listedNames()
	for i, name := range names {
		if i%compCheck == compCheck-1 && r.compStopped() {
			return // llmsh: a stopped run lists no more
		}
		var vr expand.Variable
		if dyn[name] {
			vr = r.dynListedVar(name)
		} else {
			vr = r.lookupVar(name)
		}
		if want != "" && !strings.ContainsAny(vr.Flags(), want) || kind != expand.Unknown && vr.Kind != kind {
			continue
		}
		if long {
			line := r.declLine(name, vr)
			if r.opts[optPosix] && (o.variant == "export" || o.variant == "readonly") {
				line = posixDeclLine(o.variant, line)
			}
			b.WriteString(line)
			b.WriteByte('\n')
			continue
		}
		if !vr.IsSet() {
			continue
		}
		b.WriteString(name + "=")
		switch vr.Kind {
		case expand.Indexed, expand.Associative:
			val, err := r.quoter().DeclValueStop(r.ectx, vr) // llmsh
			if err != nil {
				return // a stopped run: set lists no more
			}
			b.WriteString(val)
		default:
			b.WriteString(setQuote(vr.String(), r.quoter()))
		}
		b.WriteByte('\n')
	}
	if !long && !r.opts[optPosix] { // llmsh: posix mode's set lists no functions, as bash
		r.printFuncs(&b, r.funcNames(""), false)
	}
	r.out(b.String())
}

// localHere reports whether name is a local variable of the running
// function itself (not of a caller).
func (r *Runner) localHere(name string) bool {
	names, _ := funcLocalNames(r.writeEnv)
	return names[name]
}

// localListing is local with no name: the variables local to the running
// function, in byte order, as declare -p prints them; bash lists them all
// whatever the options (local -a, local -p -i).
func (r *Runner) localListing(o *declOpts) {
	locals, ok := funcLocalNames(r.writeEnv)
	if !ok {
		return
	}
	names := make([]string, 0, len(locals))
	for name := range locals {
		if listedName(name) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var b strings.Builder
	if r.localOpts != nil {
		b.WriteString("local -\n") // llmsh: bash lists local - first
	}
	for _, name := range names {
		vr := r.writeEnv.Get(name)
		b.WriteString(r.declLine(name, vr))
		b.WriteByte('\n')
	}
	r.out(b.String())
}

// dynListed is how a bash listing (declare, declare -p, set) shows each
// variable whose value bash computes when it is read, as it stands
// before the script reads it (llmsh): its attributes, and its value
// as llmsh computes it ("v"), an empty array ("()"), none (""), or the
// value in a function only ("f").
var dynListedOnce lazy[map[string]dynVar] // made on first use, not in init

// dynVar is a variable of dynListed: its attributes and how it shows.
type dynVar struct{ attrs, show string }

// dynListed returns the table (the map literal was code in the package's init,
// run at every start of llmsh).
func dynListed() map[string]dynVar { return dynListedOnce.get(makeDynListed) }

func makeDynListed() map[string]dynVar {
	return map[string]dynVar{
		"BASHOPTS": {"r", "v"}, "SHELLOPTS": {"r", "v"}, "BASHPID": {"i", ""},
		"BASH_ALIASES": {"A", "()"}, "BASH_ARGC": {"a", "()"}, "BASH_ARGV": {"a", "()"},
		"BASH_ARGV0": {"", ""}, "BASH_CMDS": {"A", "()"}, "BASH_COMMAND": {"", ""},
		"BASH_LINENO": {"a", "v"}, "BASH_SOURCE": {"a", "v"}, "BASH_SUBSHELL": {"", ""},
		"COMP_WORDBREAKS": {"", ""},
		"DIRSTACK":        {"a", "()"}, "EPOCHREALTIME": {"", ""}, "EPOCHSECONDS": {"", ""},
		"FUNCNAME": {"a", "f"}, "GROUPS": {"a", "()"}, "HISTCMD": {"i", ""},
		"LINENO": {"", ""}, "OPTERR": {"", "v"}, "RANDOM": {"i", ""}, "SECONDS": {"", ""},
		"SRANDOM": {"i", ""}, "_": {"", "v"},
	}
}

// listedNames is declaredNames with the variables of dynListed that the
// script has not unset nor made its own; dyn marks those.
func (r *Runner) listedNames() (names []string, dyn map[string]bool) {
	names = r.declaredNames()
	dyn = map[string]bool{}
	for name := range dynListed() {
		if r.dynGone[name] || r.writeEnv.Get(name).Declared() {
			continue
		}
		if (name == "BASH_ALIASES" && r.aliasesGone) || (name == "BASH_CMDS" && r.cmdsGone) {
			continue
		}
		dyn[name] = true
		names = append(names, name)
	}
	sort.Strings(names)
	return names, dyn
}

// dynListedVar is the variable name of dynListed as a listing shows it.
func (r *Runner) dynListedVar(name string) expand.Variable {
	d := dynListed()[name]
	if d.show == "v" || d.show == "f" && r.inFunc {
		return r.lookupVar(name)
	}
	vr := expand.Variable{Kind: expand.String, Integer: d.attrs == "i"}
	switch d.attrs {
	case "a":
		vr.Kind = expand.Indexed
	case "A":
		vr.Kind = expand.Associative
	}
	if d.show == "()" {
		vr.Set, vr.List, vr.Map = true, []string{}, map[string]string{}
	}
	return vr
}

// declaredNames returns the names of the variables declared in scope,
// sorted as bash sorts them (byte order).
func (r *Runner) declaredNames() []string {
	seen := map[string]bool{}
	n := 0
	r.writeEnv.Each(func(name string, vr expand.Variable) bool {
		// Outer scopes come first: a later entry (a local, an unset)
		// replaces an earlier one.
		seen[name] = vr.Declared()
		n++
		return n%compCheck != 0 || !r.compStopped() // llmsh
	})
	names := make([]string, 0, len(seen))
	for name, ok := range seen {
		if ok && listedName(name) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// listedName reports whether a variable called name is listed (declare,
// local, set): a valid name, or one as "a[0]" that declRefElem makes
// (llmsh: bash lists it).
func listedName(name string) bool {
	if syntax.ValidName(name) {
		return true
	}
	_, idx, ok := expand.ParseRef(name)
	return ok && idx != nil
}

// setQuote quotes a value as `set` prints it: as it is when no character
// is special to the shell, else as ${v@Q} quotes.
func setQuote(s string, q expand.Quoter) string {
	if s == "" {
		return ""
	}
	if strings.ContainsAny(s, " \t\n\"'\\$`|&;()<>*?[]{}!^") || s[0] == '~' || s[0] == '#' || q.NeedsANSIQuote(s) {
		return q.Bash(s)
	}
	return s
}

// funcNames returns the names of the functions, sorted, that have every
// attribute of attrs.
func (r *Runner) funcNames(attrs string) []string {
	var names []string
	for name := range r.Funcs {
		if len(names)%compCheck == compCheck-1 && r.compStopped() {
			break // llmsh: a stopped run lists no more
		}
		if strings.Trim(attrs, r.funcAttrs[name]) == "" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// declFuncs runs a declaration with -f or -F (or export/readonly -f) over
// names; it returns the status.
func (r *Runner) declFuncs(o *declOpts, names []string) uint8 {
	set := ""
	for _, m := range o.modes {
		if m == "-x" || m == "-r" || m == "-t" {
			set += m[1:]
		}
	}
	switch o.variant {
	case "export":
		set += "x"
	case "readonly":
		set += "r"
	}
	if o.unexport {
		set = strings.ReplaceAll(set, "x", "")
	}
	status := uint8(0)
	if len(names) > 0 && !o.print && o.funcsPlus && !o.namesOnly {
		// llmsh: declare +f NAME, declare +ft NAME print and change
		// nothing (bash).
		return status
	}
	if len(names) > 0 && !o.print && slices.Contains(o.modes, "+t") && set == "" && !o.unexport && !o.namesOnly {
		// llmsh: declare -f +t NAME takes the trace attribute away.
		for _, name := range names {
			a, ok := r.funcAttrs[name]
			switch {
			case r.Funcs[name] == nil:
				status = 1
			case ok:
				r.funcAttrs[name] = strings.ReplaceAll(a, "t", "")
			}
		}
		return status
	}
	if len(names) > 0 && !o.print && (set != "" || o.unexport) && !o.namesOnly {
		for _, name := range names {
			if r.Funcs[name] == nil {
				if o.variant == "export" || o.variant == "readonly" {
					r.errf("%s%s: %s: not a function\n", r.errPrefix(), o.variant, name)
				} else if o.unexport {
					continue // llmsh: declare +fx NAME, silent and 0 (bash)
				}
				status = 1 // llmsh: declare -fx NAME fails silently (bash)
				continue
			}
			r.setFuncAttrs(name, set, o.unexport)
		}
		return status
	}
	listing := len(names) == 0
	if listing {
		names = r.funcNames(set)
	}
	var b strings.Builder
	for i, name := range names {
		if i%compCheck == compCheck-1 && r.compStopped() {
			break // llmsh: a stopped run lists no more
		}
		switch {
		case r.Funcs[name] == nil:
			status = 1
			if o.print {
				// llmsh: declare -pf NAME reports it, as bash.
				r.out(b.String())
				b.Reset()
				r.errf("%s%s: %s: not found\n", r.errPrefix(), o.variant, name)
			}
		case o.namesOnly && (listing || o.print):
			b.WriteString("declare -f" + r.funcAttrs[name] + " " + name + "\n")
		case o.namesOnly && r.opts[optExtDebug]:
			// llmsh: extdebug adds where the function was defined.
			def := r.funcDefs[name]
			fmt.Fprintf(&b, "%s %d %s\n", name, def.line, def.file)
		case o.namesOnly:
			b.WriteString(name + "\n")
		default:
			r.printFuncs(&b, []string{name}, listing || o.print)
		}
	}
	r.out(b.String())
	return status
}

// printFuncs writes the definitions of names, each followed by its
// attributes (declare -fx NAME) when attrs.
func (r *Runner) printFuncs(b *strings.Builder, names []string, attrs bool) {
	for i, name := range names {
		if i%compCheck == compCheck-1 && r.compStopped() {
			return // llmsh: a stopped run lists no more
		}
		body := r.Funcs[name]
		if body == nil {
			continue
		}
		b.WriteString(r.FuncText(name))
		if a := r.funcAttrs[name]; a != "" && attrs {
			b.WriteString("declare -f" + a + " " + name + "\n")
		}
	}
}

// setFuncAttrs adds the attributes of set to function name's, or with
// unexport takes the export attribute away.
func (r *Runner) setFuncAttrs(name, set string, unexport bool) {
	a := r.funcAttrs[name]
	if unexport {
		a = strings.ReplaceAll(a, "x", "")
	}
	for _, c := range "rtx" {
		if strings.ContainsRune(set, c) && !strings.ContainsRune(a, c) {
			a += string(c)
		}
	}
	bs := []byte(a)
	slices.Sort(bs)
	if r.funcAttrs == nil {
		r.funcAttrs = map[string]string{}
	}
	if len(bs) == 0 {
		delete(r.funcAttrs, name)
	} else {
		r.funcAttrs[name] = string(bs)
	}
}

// FuncText prints function name's definition as bash prints it (declare
// -f, type): "NAME () ", the body's braces on lines of their own, its
// statements indented by four spaces. It is "" when name is no function.
func (r *Runner) FuncText(name string) string {
	body := r.Funcs[name]
	if body == nil {
		return ""
	}
	if b, src := r.writtenBody(name, body); b != nil {
		return bashFuncText(name, b, src)
	}
	return bashFuncText(name, body, "")
}

// quotedCompound gives, for declare -a/-A NAME='(…)', the assignment of
// the array that the value's text writes, as bash reads it (llmsh); any
// other assignment as it is.
func (r *Runner) quotedCompound(as *syntax.Assign, valType string) *syntax.Assign {
	if valType != "-a" && valType != "-A" || as.Value == nil || as.Array != nil || as.Index != nil {
		return as
	}
	if lit := as.Value.Lit(); lit != "" && lit[0] != '(' {
		return as // no quotes, no expansions: a plain value
	}
	s := r.literal(as.Value)
	if len(s) < 2 || s[0] != '(' || s[len(s)-1] != ')' {
		return as
	}
	f, err := r.parseText(as.Name.Value+"="+s, "")
	if err != nil || len(f.Stmts) != 1 {
		return as
	}
	ce, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) != 0 || len(ce.Assigns) != 1 || ce.Assigns[0].Array == nil {
		return as
	}
	as2 := *as
	as2.Value, as2.Array = nil, ce.Assigns[0].Array
	return &as2
}

// arrayElemZero is vr, an array of declare's valType (-a or -A), with
// its element 0 set to s: bash's declare -a a=x.
func arrayElemZero(vr expand.Variable, valType, s string) expand.Variable {
	vr.Set = true
	if valType == "-A" {
		vr.Kind = expand.Associative
		vr.Map = maps.Clone(vr.Map)
		if vr.Map == nil {
			vr.Map = map[string]string{}
		}
		vr.Map["0"] = s
		return vr
	}
	if vr.Kind != expand.Indexed {
		vr.List, vr.Indexes = nil, nil
	}
	vr.Kind = expand.Indexed
	vr.List, vr.Indexes = internal.SetIndexedElem(slices.Clone(vr.List), slices.Clone(vr.Indexes), 0, s)
	return vr
}

// declElemZero is the array whose element 0 a declaration's NAME=VALUE
// assigns (as, through a nameref to name), or nil: bash's declare a=x of
// an array a that is not a new local (llmsh).
func (r *Runner) declElemZero(before expand.Variable, name string, as *syntax.Assign, newLocal bool) *expand.Variable {
	if as.Name == nil || newLocal {
		return nil
	}
	if name != as.Name.Value {
		before = r.lookupVar(name)
	}
	if before.Kind != expand.Indexed && before.Kind != expand.Associative {
		return nil
	}
	return &before
}

// declArgs is the words of declaration cm split into assignments, their
// values expanded before the builtin runs, as bash expands a command's
// words (declare a=1 b=$a gives b a's old value), and traced under set
// -x as bash: each compound array as name=('v'…) (its elements expanded
// here then), then the command with the name alone in the array's place
// (llmsh). traceCmd is false for the builtin called by name, which
// the simple command traced.
//
// last is the command's last word as bash leaves it in $_: name=value,
// an array's name alone, or the command's name without arguments;
// words are the arguments as the command's fields (llmsh). preRedirs is set
// when the words come before the command's redirections: compound arrays
// are expanded then too (declare -a a=($(ls)) >g does not list g).
func (r *Runner) declArgs(cm *syntax.DeclClause, traceCmd, preRedirs bool) (args []*syntax.Assign, last string, words []string) {
	t := r.tracer()
	if t != nil && r.cmdTrace != nil {
		t.output = r.cmdTrace // traced before its redirections, as bash
	}
	early := earlyCompounds(cm)
	var opts []*syntax.Assign // the options before the first name
	var late []string         // option words after the first name
	optsDone := false
	for as := range r.flattenAssigns(cm.Args) {
		isOpt := as.Naked && as.Index == nil && as.Name != nil && len(as.Name.Value) > 1 && strings.ContainsRune("-+", rune(as.Name.Value[0])) && as.Name.Value != "--"
		switch {
		case !optsDone && isOpt:
			opts = append(opts, as)
		case isOpt:
			late = append(late, as.Name.Value)
		default:
			optsDone = true
		}
		name := ""
		if as.Name != nil {
			name = as.Name.Value
		}
		if as.Index != nil {
			name += "[" + subscriptText(as.Index) + "]"
		}
		op := "="
		if as.Append {
			op = "+="
		}
		switch {
		case as.Naked:
			words = append(words, name)
		case as.Array != nil && as.Index == nil && as.Name != nil && r.localRefused(cm.Variant.Value, opts, as.Name.Value):
			// llmsh: bash's make_internal_declare makes the local
			// first, after the elements are expanded; a readonly
			// variable refuses it, under the name of the command that
			// called the function (this_command_name), and the
			// builtin then sees the name alone and refuses it again.
			r.expandedCompound(as, nil, "", false)
			if r.exit.exiting {
				break
			}
			cmdName := r.thisCmd
			if cmdName != "" {
				cmdName += ": "
			}
			r.errf("%s%s%s: readonly variable\n", r.errPrefix(), cmdName, as.Name.Value)
			r.reportPending = r.reportPending || cmdName == "" // llmsh: export r=1
			as = &syntax.Assign{Naked: true, Name: as.Name}
			words = append(words, name)
		case as.Array != nil && as.Index == nil && as.Name != nil && !r.inFunc && cm.Variant.Value == "local":
			// llmsh: local x=(…) outside a function: bash's
			// make_internal_declare still makes the global array,
			// with the options of its kind and case (-a, -A, -i, -l,
			// -u), before local refuses the name.
			r.internalDecl(&syntax.Lit{Value: "declare"}, kindOpts(opts), as)
			as = &syntax.Assign{Naked: true, Name: as.Name}
			words = append(words, name)
		case as.Array != nil && lateDeclOpts(opts, late) != "" && as.Index == nil && as.Name != nil && (r.inFunc || cm.Variant.Value != "local"):
			// llmsh: an option word after a name (declare -a a=(1)
			// -A m=(…)) is no option of the builtin, but bash's
			// parser notes it, and the compound assignments after
			// it are made first as the words are expanded, with
			// the options it gathered (fix_assignment_words).
			opt := &syntax.Assign{Naked: true, Name: &syntax.Lit{Value: lateDeclOpts(opts, late)}}
			r.internalDecl(cm.Variant, []*syntax.Assign{opt}, as)
			as = &syntax.Assign{Naked: true, Name: as.Name}
			words = append(words, name)
		case as.Array != nil && as.Index == nil && as.Name != nil && printOpts(opts) != nil && (r.inFunc || cm.Variant.Value != "local"):
			// llmsh: declare -p x=(1): bash makes the compound
			// assignment as the words are expanded, and the builtin
			// then lists x.
			r.internalDecl(cm.Variant, printOpts(opts), as)
			as = &syntax.Assign{Naked: true, Name: as.Name}
			words = append(words, name)
		case as.Array != nil && early && as.Index == nil && as.Name != nil && internalOpts(cm.Variant.Value, opts) && (r.inFunc || cm.Variant.Value != "local"):
			// llmsh: a compound array assignment that a later word
			// may read is made as the words are expanded, by the
			// builtin itself with the options before it, and the
			// builtin then sees its name alone, as bash's
			// make_internal_declare (declare -a x=(1) y=$x).
			r.internalDecl(cm.Variant, opts, as)
			as = &syntax.Assign{Naked: true, Name: as.Name}
			words = append(words, name)
		case as.Array != nil:
			if t != nil || len(cm.Assigns) > 0 || preRedirs {
				// Also before the command's own assignments are made
				// (IFS=, declare -a a=($s) splits $s by the old IFS).
				as = r.expandedCompound(as, t, name+op, r.assocDecl(opts, as.Name.Value))
			}
			words = append(words, name)
		default:
			val := ""
			if as.Value != nil {
				var err error
				val, err = expand.DeclValue(r.ecfg, as.Value)
				r.expandErr(err)
			}
			as2 := *as
			as2.Value = &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: val}}}
			as = &as2
			words = append(words, name+op+val)
		}
		if r.exit.exiting {
			// llmsh: an expansion error (local id=${1:?usage})
			// abandons the command: no more words are expanded,
			// and set -x shows nothing of it, as bash.
			return args, cm.Variant.Value, words
		}
		args = append(args, as)
	}
	if traceCmd { // the builtin reached by name was traced
		r.traceDecl(cm.Variant.Value, words)
	}
	last = cm.Variant.Value
	if len(words) > 0 {
		last = words[len(words)-1]
	}
	return args, last, words
}

// localRefused says whether a declaration (variant, with the options
// opts) in a function cannot make name, which it assigns a compound
// array, a local: name is a readonly variable that is no local of this
// function nor of a caller (llmsh: declArgs).
func (r *Runner) localRefused(variant string, opts []*syntax.Assign, name string) bool {
	if !r.inFunc || variant != "local" && variant != "declare" && variant != "typeset" {
		return false
	}
	for _, o := range opts {
		if v := o.Name.Value; v[0] == '-' && strings.IndexByte(v, 'g') > 0 {
			return false
		}
	}
	vr := r.lookupVar(name)
	return vr.ReadOnly && !vr.Local && vr.Kind != expand.NameRef && !r.localHere(name)
}

// preDeclArgs is what declArgs gave for a declaration that stmtSync
// expanded before its redirections (llmsh).
type preDeclArgs struct {
	cm    *syntax.DeclClause
	args  []*syntax.Assign
	last  string
	words []string
}

// expandDeclBeforeRedirs expands the words of declaration cm, a statement
// with redirections, before stmtSync makes them, as bash expands every
// command's words: `declare y=$(ls) >g` does not list g, `local
// v=${u?} >g` makes no g. cmd takes them (preDecl). It reports whether
// the expansion failed (llmsh).
func (r *Runner) expandDeclBeforeRedirs(cm *syntax.DeclClause) bool {
	errOut := r.stderr
	if r.cmdErr != nil {
		r.stderr = r.cmdErr // as cmd: the stderr from before the redirections
	}
	r.forkedBuiltin()
	args, last, words := r.declArgs(cm, len(cm.Assigns) == 0, true)
	r.stderr = errOut
	r.preDecl = &preDeclArgs{cm: cm, args: args, last: last, words: words}
	return !r.exit.ok()
}

// earlyCompounds says whether a word of cm after its first compound
// array assignment has a value to expand, which may read the array
// (llmsh: declArgs).
func earlyCompounds(cm *syntax.DeclClause) bool {
	seen := false
	for _, as := range cm.Args {
		switch {
		case seen && (as.Name == nil || !as.Naked):
			return true
		case as.Array != nil:
			seen = true
		}
	}
	return false
}

// lateDeclOpts is the option word bash's make_internal_declare gets for
// a compound assignment that follows option words late, after a name,
// and opts before the first name: -A if any of them holds A, else -a if
// one holds a, and g, as bash's fix_assignment_words notes them; ""
// when there are no late options or none of these (llmsh).
func lateDeclOpts(opts []*syntax.Assign, late []string) string {
	if len(late) == 0 {
		return ""
	}
	words := slices.Clone(late)
	for _, o := range opts {
		words = append(words, o.Name.Value)
	}
	has := func(c byte) bool {
		for _, w := range words {
			if w[0] == '-' && strings.IndexByte(w[1:], c) >= 0 {
				return true
			}
		}
		return false
	}
	out := "-"
	switch {
	case has('A'):
		out += "A"
	case has('a'):
		out += "a"
	}
	if has('g') {
		out += "g"
	}
	if out == "-" {
		return "" // none: the builtin assigns it (bash's opti == 0)
	}
	return out
}

// printOpts is the options of opts that bash's internal declare gets
// for a compound assignment of declare -p (declare -p x=(…), llmsh):
// a, A, g and the attributes that change values (i l u c I), when one of
// opts holds a p; else nil. The builtin then lists the array, and
// applies none of the others (-r, -x).
func printOpts(opts []*syntax.Assign) []*syntax.Assign {
	found := false
	keep := ""
	for _, o := range opts {
		v := o.Name.Value
		if v[0] != '-' {
			continue
		}
		found = found || strings.Contains(v[1:], "p")
		for _, c := range v[1:] {
			if strings.ContainsRune("aAgIilcu", c) && !strings.ContainsRune(keep, c) {
				keep += string(c)
			}
		}
	}
	if !found {
		return nil
	}
	if keep == "" {
		return []*syntax.Assign{}
	}
	return []*syntax.Assign{{Naked: true, Name: &syntax.Lit{Value: "-" + keep}}}
}

// internalOpts says whether the options opts of a declaration are ones
// its compound assignments are made with as the words are expanded.
func internalOpts(variant string, opts []*syntax.Assign) bool {
	d := &declOpts{variant: variant}
	for _, o := range opts {
		v := o.Name.Value
		if strings.Trim(v[1:], "aAgilrtuxcI") != "" {
			return false
		}
		for i := 1; i < len(v); i++ {
			if !d.option(v[0], v[i]) {
				return false // llmsh: badOptCompounds
			}
		}
	}
	return true
}

// badOptCompounds makes the compound array assignments among args (a
// declaration's words) that declArgs left to the builtin (variant), as
// bash's make_internal_declare made them while the words were expanded,
// before the builtin refuses an option (llmsh): with the options' kind
// and case letters only, global for export and readonly in a function
// (readonly -l z=(A) makes z an array of a; export -q x=(1) x=(1)).
func (r *Runner) badOptCompounds(variant string, args []*syntax.Assign) {
	var opts []*syntax.Assign
	for _, as := range args {
		if as.Naked && as.Index == nil && as.Name != nil && len(as.Name.Value) > 1 && as.Name.Value[0] == '-' && as.Name.Value != "--" {
			opts = append(opts, as)
		}
	}
	kind := kindOpts(opts)
	if (variant == "export" || variant == "readonly") && r.inFunc {
		kind = append(kind, &syntax.Assign{Naked: true, Name: &syntax.Lit{Value: "-g"}})
	}
	code := r.exit.code
	for _, as := range args {
		if as.Array != nil && as.Index == nil && as.Name != nil {
			if r.internalDecl(&syntax.Lit{Value: "declare"}, kind, as); r.exit.exiting {
				return // an arithmetic error abandons the line (bash)
			}
		}
	}
	r.exit.code = code
}

// kindOpts is the option words of opts cut to the letters of a
// variable's kind and case (aAiluc), as bash's make_internal_declare
// gives them (llmsh).
func kindOpts(opts []*syntax.Assign) []*syntax.Assign {
	var b strings.Builder
	for _, o := range opts {
		if v := o.Name.Value; v[0] == '-' {
			for _, c := range v[1:] {
				if strings.ContainsRune("aAiluc", c) {
					b.WriteRune(c)
				}
			}
		}
	}
	if b.Len() == 0 {
		return nil
	}
	return []*syntax.Assign{{Naked: true, Name: &syntax.Lit{Value: "-" + b.String()}}}
}

// internalDecl makes the compound array assignment as, a word of a
// declaration (variant) after the options opts, as that builtin would
// alone (llmsh: declArgs).
func (r *Runner) internalDecl(variant *syntax.Lit, opts []*syntax.Assign, as *syntax.Assign) {
	dc := &syntax.DeclClause{Variant: variant, Args: append(slices.Clone(opts), as)}
	r.declBuiltin, r.debugDone = true, true
	r.cmd(r.ectx, dc)
}

// assignText is a declaration's argument NAME=VALUE as bash names it in
// a message, its value as declArgs expanded it (llmsh).
func assignText(as *syntax.Assign) string {
	op := "="
	if as.Append {
		op = "+="
	}
	val := ""
	if as.Value != nil && len(as.Value.Parts) == 1 {
		if sq, ok := as.Value.Parts[0].(*syntax.SglQuoted); ok {
			val = sq.Value
		}
	}
	return as.Name.Value + op + val
}

// traceDecl traces a declaration command under set -x, before its
// redirections as bash (llmsh).
func (r *Runner) traceDecl(name string, words []string) {
	t := r.tracer()
	if t == nil {
		return
	}
	if r.cmdTrace != nil {
		t.output = r.cmdTrace
	}
	t.call(name, words...)
	t.newLineFlush()
}

// localThroughRef is what local name[=v] declares when name is a local
// nameref of the running function (vr): the variable it refers to, as
// a local, as bash's declare_transform_name follows the nameref (local
// r=y of r=arr makes a local arr="y", the global array untouched)
// (llmsh). With +n (plusN) only a target that no variable has yet is
// followed; else the nameref itself loses the attribute. A nameref to
// an element or with no target stays name (declRefElem).
func (r *Runner) localThroughRef(name string, vr expand.Variable, as *syntax.Assign, plusN bool) (string, expand.Variable, *syntax.Assign) {
	t, idx := r.refTarget(name, nil)
	if t == name || idx != nil || !syntax.ValidName(t) || plusN && r.refReaches(vr) {
		return name, vr, as
	}
	na := *as
	if as.Name != nil {
		lit := *as.Name
		lit.Value = t
		na.Name = &lit
	}
	return t, r.lookupVar(t), &na
}

// refValue reports whether s may be a nameref's value: a name or an
// element, as bash's valid_nameref_value (llmsh).
func (r *Runner) refValue(s string) bool {
	p, _, ok := expand.ParseRef(s)
	return ok && syntax.ValidName(p.Value)
}

// refReaches reports whether the nameref vr leads to a variable (bash's
// find_variable of it is not null): one declared, or declRefElem's
// local named as an element ("a[0]") (llmsh).
func (r *Runner) refReaches(vr expand.Variable) bool {
	_, t := vr.Resolve(r.writeEnv)
	return t.Declared() && t.Kind != expand.NameRef
}

// declRefElem handles NAME=VALUE of a declaration (variant) where name
// is a nameref to an array element (r='a[0]'), as bash (llmsh): in the
// function whose local the nameref is (inScope), a local variable named
// as the nameref's text ("a[0]") is made, which the nameref then reaches
// (bash's make_local_variable of the name; the element is untouched);
// else the element is assigned, and export and readonly then say the
// element is no identifier, status 0. It reports whether name was such
// a nameref.
func (r *Runner) declRefElem(variant, name string, as *syntax.Assign, inScope bool) bool {
	if inScope {
		ref, _ := r.lookupVar(name).Resolve(r.writeEnv)
		if _, idx, ok := expand.ParseRef(ref); !ok || idx == nil {
			return false
		}
		vr := expand.Variable{Kind: expand.String, Local: true}
		if as.Naked && r.localHere(ref) {
			return true // local r again: the local keeps its value
		}
		if as.Value != nil {
			vr.Str, vr.Set = r.assignValue(as.Value), true
		}
		if !r.exit.exiting {
			r.setVar(ref, vr)
		}
		return true
	}
	if as.Naked {
		return false
	}
	t, idx := r.refTarget(name, nil)
	if idx == nil {
		return false
	}
	prev := r.lookupVar(t)
	if n, vr, ok := r.assignValIndex(t, prev, as, "", idx); ok {
		r.setVarWithIndex(prev, n, idx, vr)
	}
	if variant == "export" || variant == "readonly" {
		r.errf("%s%s: `%s[%s]': not a valid identifier\n", r.errPrefix(), variant, t, subscriptText(idx))
	}
	return true
}

// assocDecl reports whether a declaration with the options opts (those
// before the first name) makes name an associative array (llmsh:
// expandedCompound).
func (r *Runner) assocDecl(opts []*syntax.Assign, name string) bool {
	for _, o := range opts {
		if v := o.Name.Value; v[0] == '-' && strings.IndexByte(v, 'A') > 0 {
			return true
		}
	}
	return r.lookupVar(name).Kind == expand.Associative
}

// expandedCompound is the compound array assignment as with its
// elements expanded, traced on t (if not nil) as bash's xtrace shows it:
// head, then ('v' ['k']='v' …) (llmsh). For an associative array
// (assoc) whose first element has a subscript, an element without one
// is traced as written and left out with bash's warning.
func (r *Runner) expandedCompound(as *syntax.Assign, t *tracer, head string, assoc bool) *syntax.Assign {
	sq := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	lit := func(s string) *syntax.Word {
		return &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: s}}}
	}
	arr := &syntax.ArrayExpr{}
	var sb strings.Builder
	var warns []string
	sb.WriteString(head + "(")
	for _, elem := range as.Array.Elems {
		if elem.Index != nil {
			v := ""
			if elem.Value != nil {
				v = r.literal(elem.Value)
			}
			key := subscriptText(elem.Index)
			if w, ok := elem.Index.(*syntax.Word); ok && w.Lit() == "" {
				key = r.assocKey(elem.Index)
			}
			if r.exit.exiting {
				break // llmsh: as below
			}
			e := *elem
			e.Value = lit(v)
			arr.Elems = append(arr.Elems, &e)
			op := "]="
			if elem.Append {
				op = "]+="
			}
			sb.WriteString(" [" + sq(key) + op + sq(v))
			continue
		}
		if elem.Value == nil {
			continue
		}
		if assoc && as.Array.Elems[0].Index != nil {
			text := wordText(elem.Value)
			sb.WriteString(" " + sq(text))
			warns = append(warns, fmt.Sprintf("%s%s: '%s': must use subscript when assigning associative array\n", r.errPrefix(), as.Name.Value, text))
			continue
		}
		for _, f := range r.fields(elem.Value) {
			arr.Elems = append(arr.Elems, &syntax.ArrayElem{Value: lit(f)})
			sb.WriteString(" " + sq(f))
		}
		if r.exit.exiting {
			break // llmsh: an expansion error: no more, nothing traced
		}
	}
	if t != nil && !r.exit.exiting {
		text := sb.String()
		text = strings.Replace(text, "( ", "(", 1)
		t.string(text + ")")
		t.newLineFlush()
	}
	for _, w := range warns {
		r.errf("%s", w) // bash warns as it expands the words, after the trace
	}
	as2 := *as
	as2.Array = arr
	return &as2
}

// declGlobalElem is declare -g NAME[SUB]=V, or NAME=V where the global
// NAME is an indexed array (or -a makes it one), in a function where a
// local NAME hides the global (llmsh): bash makes the global an array
// with the attributes given, then assigns the element by its name as an
// ordinary assignment does (bind_array_variable, assign_array_element),
// which finds the local: f() { local a=(x); declare -g a=6; } sets the
// local's element 0 and leaves the global array as it was. It reports
// whether it took the assignment.
func (r *Runner) declGlobalElem(scoped expand.WriteEnviron, name string, as *syntax.Assign, valType string, modes []string) bool {
	if as.Naked || as.Array != nil || valType == "-n" || !syntax.ValidName(name) {
		return false
	}
	lv := scoped.Get(name)
	if !lv.Local || lv.Kind == expand.NameRef && (lv.Str == "" || as.Index == nil || lv.ReadOnly) {
		return false
	}
	gv := r.lookupVar(name) // the global: writeEnv is its scope
	if gv.ReadOnly || gv.Kind == expand.NameRef || as.Index == nil && valType != "-a" && gv.Kind != expand.Indexed {
		return false
	}
	switch {
	case gv.Kind == expand.Indexed || gv.Kind == expand.Associative:
	case valType == "-A":
		gv = expand.Variable{Set: true, Kind: expand.Associative, Map: map[string]string{}, Exported: gv.Exported}
	default:
		list := []string{}
		if gv.IsSet() {
			list = []string{gv.String()}
		}
		gv = expand.Variable{Set: true, Kind: expand.Indexed, List: list, Exported: gv.Exported, Integer: gv.Integer}
	}
	if slices.Contains(modes, "-i") {
		gv.Integer = true
	}
	applyDeclModes(&gv, modes)
	r.setVar(name, gv)
	saved := r.writeEnv
	r.writeEnv = scoped
	defer func() { r.writeEnv = saved }()
	r.declLocalElem(scoped, name, lv, as)
	return true
}

// declLocalElem is the element assignment of declGlobalElem, by name,
// to the local lv (scoped is its scope, r.writeEnv too). Without a
// subscript bash sets element 0 of the local made an indexed array (an
// associative one is replaced), even a readonly one; with one, it
// refuses a readonly local (status 0), and a local nameref leads it to
// its target: f() { local -n a=b; declare -g a[2]=z; } makes b[2]=z.
func (r *Runner) declLocalElem(scoped expand.WriteEnviron, name string, lv expand.Variable, as *syntax.Assign) {
	elem := *as
	if elem.Index == nil {
		elem.Index = &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: "0"}}}
		if lv.Kind != expand.Indexed || lv.ReadOnly {
			nv := lv
			if lv.Kind != expand.Indexed {
				nv = expand.Variable{Set: true, Kind: expand.Indexed, Local: true, ReadOnly: lv.ReadOnly,
					Exported: lv.Exported, Integer: lv.Integer, Lower: lv.Lower, Upper: lv.Upper, Capital: lv.Capital}
				if lv.Kind == expand.String && lv.IsSet() {
					nv.List = []string{lv.Str}
				}
			}
			nv.ReadOnly = false
			o, ok := scoped.(*overlayEnviron)
			if !ok || o.set(name, nv, true) != nil {
				return
			}
			if lv.ReadOnly {
				defer func() {
					vr := scoped.Get(name)
					vr.ReadOnly = true
					o.set(name, vr, true)
				}()
			}
		}
	}
	if lv.Kind == expand.NameRef && !syntax.ValidName(lv.Str) {
		// llmsh: a nameref naming an element (a='b[3]'): bash's
		// error, status 1.
		r.errf("%s%s: `%s': not a valid identifier\n", r.errPrefix(), r.declVariant, lv.Str)
		r.exit.code = 1
		return
	}
	target, index := r.refTarget(name, elem.Index)
	if elem.Append {
		var ok bool
		if index, ok = r.fixedIndex(target, index); !ok {
			return
		}
	}
	prev := r.lookupVar(target)
	prev.Local = false
	if prev.ReadOnly {
		// bash names the nameref, and declare's status stays 0.
		r.errf("%s%s: readonly variable\n", r.errPrefix(), name)
		return
	}
	n, vr, ok := r.assignValIndex(target, prev, &elem, "", index)
	if !ok {
		return
	}
	r.setVarWithIndex(prev, n, index, vr)
}

// posixDeclLine turns declare -p's line into export -p's or readonly -p's
// in posix mode: the builtin's name and only the a, A and f attributes
// (`export -a arr=(...)`, `readonly r="2"`), as bash's
// var_attribute_string (llmsh).
func posixDeclLine(builtin, line string) string {
	flags, after, _ := strings.Cut(strings.TrimPrefix(line, "declare -"), " ")
	head := builtin
	if keep := strings.Map(func(c rune) rune {
		if strings.ContainsRune("aAf", c) {
			return c
		}
		return -1
	}, flags); keep != "" {
		head += " -" + keep
	}
	return head + " " + after
}
