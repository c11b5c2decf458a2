// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package interp

import (
	"cmp"
	cryptorand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/internal"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

func newOverlayEnviron(parent expand.Environ, background bool) *overlayEnviron {
	oenv := &overlayEnviron{}
	if !background {
		oenv.parent = parent
	} else {
		// We could do better here if the parent is also an overlayEnviron;
		// measure with profiles or benchmarks before we choose to do so.
		for name, vr := range parent.Each {
			oenv.Set(name, vr)
		}
		oenv.funcLocals, _ = funcLocalNames(parent) // llmsh
		oenv.users = usersOf(parent)                // llmsh
		// llmsh: the copy shares the parent's arrays, which from now on
		// no scope of the parent may change in place.
		for po, ok := parent.(*overlayEnviron); ok; po, ok = po.parent.(*overlayEnviron) {
			clear(po.owned)
		}
	}
	return oenv
}

// overlayEnviron is our main implementation of [expand.WriteEnviron].
type overlayEnviron struct {
	// parent is non-nil if [values] is an overlay over a parent environment
	// which we can safely reuse without data races, such as non-background subshells
	// or function calls.
	parent expand.Environ

	// values maps normalized variable names, per [overlayEnviron.normalize].
	values map[string]namedVariable

	// We need to know if the current scope is a function's scope, because
	// functions can modify global variables. When true, [parent] must not be nil.
	funcScope bool

	// llmsh: users is the base environment of a background copy (whose
	// parent is nil), for tilde expansion's "HOME user" queries.
	users expand.Environ

	// llmsh: owned names the arrays of [values] whose storage (List,
	// Indexes, Map) this scope made itself for an element assignment
	// and shares with no one: the next such assignment may change it in
	// place instead of copying it, which made n appends or n element
	// assignments take time in n². Every store into values drops the
	// name; a background copy of the scope's variables drops them all.
	owned map[string]struct{}

	// llmsh: funcLocals, in a background copy of a function's
	// variables (a pipeline's element, a job), names the function's own
	// locals, which the copy no longer tells from its callers'; a local
	// the copy declares is added. See [funcLocalNames].
	funcLocals map[string]bool

	// llmsh: exports is set once a variable that was or becomes exported
	// is stored or unset in this scope (see [HandlerContext.Exported]).
	exports bool

	// llmsh: exportLog names those variables, one entry per store or
	// unset, after the exportBase first (dropped: the log keeps at most
	// exportLogMax), so that [HandlerContext.Exported] can bring a list
	// made earlier up to date with what changed since.
	exportLog  []string
	exportBase uint64

	// llmsh: sets, while [Runner.TrackSets] tracks, names the variables
	// stored or unset in this scope (the global one) since.
	sets map[string]struct{}

	// llmsh: base is, in a function's scope, the nearest scope under it
	// that is no function's (nil when there is none); localRefs, in such
	// a base, counts for each name the running functions' scopes above it
	// whose values hold it. A function's scope holds its locals only, so
	// Get of a name that none holds goes to base at once, not down every
	// function's scope: a recursion n functions deep took n² map lookups
	// (each $IFS, $LC_ALL… walked all of them). The values of a function's
	// scope change through put and drop only, which keep the count.
	base      *overlayEnviron
	localRefs map[string]int

	// llmsh: expEpoch, expIdx and expGen stamp the scope for the
	// [exportCache] whose epoch is expEpoch: the scope expIdx of its
	// chain (expGen 0), or a scope seen at exportGen expGen-1 to add
	// nothing to its list, above the chain's scope expIdx. See
	// [exportCache.valid].
	expEpoch uint64
	expIdx   int
	expGen   uint64
}

// newFuncScope is the scope of a function called from parent (llmsh).
func newFuncScope(parent expand.Environ) *overlayEnviron {
	o := &overlayEnviron{parent: parent, funcScope: true}
	if po, ok := parent.(*overlayEnviron); ok {
		o.base = po
		if po.funcScope {
			o.base = po.base
		}
	}
	return o
}

// put stores nv as values[normalized] (llmsh: see localRefs).
func (o *overlayEnviron) put(normalized string, nv namedVariable) {
	if o.base != nil {
		if _, in := o.values[normalized]; !in {
			if o.base.localRefs == nil {
				o.base.localRefs = make(map[string]int)
			}
			o.base.localRefs[normalized]++
		}
	}
	if o.values == nil {
		o.values = make(map[string]namedVariable)
	}
	o.values[normalized] = nv
}

// drop deletes values[normalized] (llmsh: see localRefs).
func (o *overlayEnviron) drop(normalized string) {
	if _, in := o.values[normalized]; in && o.base != nil {
		o.base.unref(normalized)
	}
	delete(o.values, normalized)
}

func (o *overlayEnviron) unref(normalized string) {
	if n := o.localRefs[normalized]; n > 1 {
		o.localRefs[normalized] = n - 1
	} else {
		delete(o.localRefs, normalized)
	}
}

// release is the end of a function's scope: its names no longer count
// (llmsh: see localRefs).
func (o *overlayEnviron) release() {
	if o.base == nil {
		return
	}
	for name := range o.values {
		o.base.unref(name)
	}
	o.base = nil
}

// exportLogMax bounds an overlayEnviron's exportLog.
const exportLogMax = 1024

// exportChanged records a store or unset of name, a variable that was
// or becomes exported, in this scope (llmsh: see
// [HandlerContext.Exported]).
func (o *overlayEnviron) exportChanged(name string) {
	exportGen.Add(1)
	o.exports = true
	if len(o.exportLog) >= exportLogMax {
		half := len(o.exportLog) / 2
		o.exportLog = append(o.exportLog[:0], o.exportLog[half:]...)
		o.exportBase += uint64(half)
	}
	o.exportLog = append(o.exportLog, name)
}

// exportSeq counts the stores and unsets that exportLog has recorded.
func (o *overlayEnviron) exportSeq() uint64 { return o.exportBase + uint64(len(o.exportLog)) }

// namedVariable records the original name of a variable for platforms
// where variable names are matched in a case-insensitive way.
type namedVariable struct {
	// TODO(v4): consider adding this field to [expand.Variable],
	// as a general way for a variable to report its original name.
	// This can be useful for GOOS=windows with case insensitive env vars,
	// as otherwise it's not possible to Environ.Get a var
	// and know what was its original name without looping over Environ.Each.
	Name string
	expand.Variable
}

func (o *overlayEnviron) normalize(name string) string {
	if runtime.GOOS == "windows" {
		return strings.ToUpper(name)
	}
	return name
}

func (o *overlayEnviron) Get(name string) expand.Variable {
	// llmsh: a loop down the scopes, not a call per scope: a recursion
	// thousands of functions deep had each lookup take as many frames.
	normalized := o.normalize(name)
	for {
		if vr, ok := o.values[normalized]; ok {
			return vr.Variable
		}
		if o.base != nil && o.base.localRefs[normalized] == 0 {
			o = o.base // no function's scope holds it (localRefs)
			continue
		}
		parent, ok := o.parent.(*overlayEnviron)
		if !ok {
			break
		}
		o = parent
	}
	if o.parent != nil {
		return o.parent.Get(name)
	}
	if o.users != nil && strings.HasPrefix(name, "HOME ") {
		return o.users.Get(name) // llmsh: ~user in a background copy
	}
	return expand.Variable{}
}

// usersOf is the environment under env's scopes, which answers the
// "HOME user" queries of tilde expansion (llmsh).
func usersOf(env expand.Environ) expand.Environ {
	for {
		o, ok := env.(*overlayEnviron)
		if !ok {
			return env
		}
		if o.parent == nil {
			return o.users
		}
		env = o.parent
	}
}

func (o *overlayEnviron) Set(name string, vr expand.Variable) error {
	return o.set(name, vr, false)
}

// set is Set; force makes it past a readonly variable's refusal, for
// declare -a/-A converting a readonly scalar, as bash (llmsh).
func (o *overlayEnviron) set(name string, vr expand.Variable, force bool) error {
	normalized := o.normalize(name)
	prev, inOverlay := o.values[normalized]
	// Manipulation of a global var inside a function.
	if o.funcScope && !vr.Local && !prev.Local {
		// In a function, the parent environment is ours, so it's always read-write.
		if po, ok := o.parent.(*overlayEnviron); ok && !vr.Declared() {
			// llmsh: unset of a calling function's local removes it, so
			// that the scope before shows through, as bash.
			return po.unsetFromCallee(name)
		}
		if po, ok := o.parent.(*overlayEnviron); ok {
			return po.set(name, vr, force)
		}
		return o.parent.(expand.WriteEnviron).Set(name, vr)
	}
	delete(o.owned, normalized) // llmsh: see [overlayEnviron.owned]
	if o.funcLocals != nil && vr.Local {
		o.funcLocals[normalized] = true // llmsh
	}
	if !inOverlay && o.parent != nil {
		prev.Variable = o.parent.Get(name)
	}
	if prev.Exported || vr.Exported {
		o.exportChanged(name) // llmsh: see [HandlerContext.Exported]
	}

	if o.values == nil {
		o.values = make(map[string]namedVariable)
	}
	keep := vr.Kind == expand.KeepValue
	if keep {
		vr.Kind = prev.Kind
		vr.Str = prev.Str
		vr.List = prev.List
		vr.Indexes = prev.Indexes
		vr.Map = prev.Map
	} else if prev.ReadOnly && (prev.IsSet() || vr.IsSet() || !vr.ReadOnly) && !force && !(vr.Local && !inOverlay && o.funcScope && prev.Local) {
		// llmsh: a new local may hide a calling function's readonly
		// local, as bash, not a readonly global.
		// llmsh: but a readonly name with no value may be given a kind
		// with no value either (readonly r; declare -a r), as bash.
		return errReadOnly
	}
	if o.sets != nil && !keep {
		// llmsh: a value stored (an attribute alone is not), see
		// [Runner.TrackSets].
		o.sets[normalized] = struct{}{}
	}
	if !vr.Declared() { // unsetting (llmsh: declare -i n, declare n keep n)
		if prev.Local {
			vr.Local = true
			o.put(normalized, namedVariable{name, vr})
			return nil
		}
		o.drop(normalized)
	}
	// modifying the entire variable
	vr.Local = prev.Local || vr.Local
	o.put(normalized, namedVariable{name, vr})
	return nil
}

// GlobalGet is name's variable in the scope outside every function
// (llmsh: expand.GlobalEnviron).
func (o *overlayEnviron) GlobalGet(name string) expand.Variable {
	for o.funcScope {
		po, ok := o.parent.(*overlayEnviron)
		if !ok {
			return o.parent.Get(name)
		}
		o = po
	}
	return o.Get(name)
}

// globalScope is the scope outside every running function's, or nil
// outside a function (llmsh: declare -g).
func (r *Runner) globalScope() *overlayEnviron {
	o, ok := r.writeEnv.(*overlayEnviron)
	if !ok || !o.funcScope {
		return nil
	}
	for o.funcScope {
		if o, ok = o.parent.(*overlayEnviron); !ok {
			return nil
		}
	}
	return o
}

// setTarget is the scope whose values [overlayEnviron.Set] of name
// changes for a variable whose Local is local (llmsh): a function's
// scope passes a variable that is not its own local to its caller's.
func (o *overlayEnviron) setTarget(name string, local bool) *overlayEnviron {
	normalized := o.normalize(name)
	for o.funcScope && !local && !o.values[normalized].Local {
		po, ok := o.parent.(*overlayEnviron)
		if !ok {
			return nil
		}
		o = po
	}
	return o
}

// ownedArray reports whether the array stored as name, which an
// element assignment about to store a variable whose Local is local
// starts from, is this runner's own to change in place (llmsh).
func (r *Runner) ownedArray(name string, local bool) bool {
	o, ok := r.writeEnv.(*overlayEnviron)
	if !ok {
		return false
	}
	if o = o.setTarget(name, local); o == nil {
		return false
	}
	_, owned := o.owned[o.normalize(name)]
	return owned
}

// setArray stores vr, an array whose storage the runner has just made
// or changed in place, and records it as owned (llmsh): see
// [overlayEnviron.owned].
func (r *Runner) setArray(name string, vr expand.Variable) {
	if err := r.setVarErr(name, vr); err != nil {
		r.errf("%s%v\n", r.errPrefix(), err)
		r.exit.code = 1
		r.roAssignFailed = errors.Is(err, errReadOnly)                   // llmsh: posixSpecialExit
		r.reportPending = r.reportPending || errors.Is(err, errReadOnly) // llmsh
		return
	}
	o, ok := r.writeEnv.(*overlayEnviron)
	if !ok {
		return
	}
	if o = o.setTarget(name, vr.Local); o == nil {
		return
	}
	normalized := o.normalize(name)
	if _, in := o.values[normalized]; !in {
		return
	}
	if o.owned == nil {
		o.owned = make(map[string]struct{})
	}
	o.owned[normalized] = struct{}{}
}

// unsetFromCallee unsets name for a function called from this scope: a
// local of this scope (or of a caller) is removed, a global is unset.
func (o *overlayEnviron) unsetFromCallee(name string) error {
	normalized := o.normalize(name)
	prev, inOverlay := o.values[normalized]
	if inOverlay && prev.Local && o.funcScope {
		if prev.ReadOnly {
			return errReadOnly
		}
		if prev.Exported {
			o.exportChanged(name)
		}
		o.drop(normalized)
		delete(o.owned, normalized)
		return nil
	}
	if !inOverlay && o.funcScope {
		if po, ok := o.parent.(*overlayEnviron); ok {
			return po.unsetFromCallee(name)
		}
	}
	return o.Set(name, expand.Variable{})
}

// unsetLocalKeep unsets name where it is a local of a running function,
// this one or a caller, keeping it a local with no value (shopt
// localvar_unset); done is false when no function has such a local
// (llmsh).
func (o *overlayEnviron) unsetLocalKeep(name string) (done bool, err error) {
	normalized := o.normalize(name)
	for {
		if prev, ok := o.values[normalized]; ok && prev.Local && o.funcScope {
			if prev.ReadOnly {
				return true, errReadOnly
			}
			if prev.Exported {
				o.exportChanged(name)
			}
			delete(o.owned, normalized)
			o.put(normalized, namedVariable{name, expand.Variable{Local: true}})
			return true, nil
		} else if ok || !o.funcScope {
			return false, nil
		}
		po, ok := o.parent.(*overlayEnviron)
		if !ok {
			return false, nil
		}
		o = po
	}
}

func (o *overlayEnviron) Each(f func(name string, vr expand.Variable) bool) {
	if o.parent != nil {
		o.parent.Each(f)
	}
	for _, vr := range o.values {
		if !f(vr.Name, vr.Variable) {
			return
		}
	}
}

func execEnv(env expand.Environ) []string {
	list := make([]string, 0, 64)
	for name, vr := range env.Each {
		if !vr.IsSet() {
			// If a variable is set globally but unset in the
			// runner, we need to ensure it's not part of the final
			// list. Seems like zeroing the element is enough.
			// This is a linear search, but this scenario should be
			// rare, and the number of variables shouldn't be large.
			for i, kv := range list {
				if strings.HasPrefix(kv, name+"=") {
					list[i] = ""
				}
			}
		}
		if vr.Exported && vr.Kind == expand.String {
			list = append(list, name+"="+vr.String())
		}
	}
	return list
}

func (r *Runner) lookupVar(name string) expand.Variable {
	vr := r.lookupVarValue(name)
	if r.dynExported[name] && !r.dynGone[name] {
		vr.Exported = true // llmsh: export SHELLOPTS (dynExport)
	}
	return vr
}

// dynExport records what declare's modes (-x, +x) do to the export of
// name when it is a dynamic variable, whose value is computed when read
// (llmsh: export SHELLOPTS, export RANDOM).
func (r *Runner) dynExport(name string, modes []string) {
	if r.dynGone[name] || r.dynLocal(name) || !slices.Contains(dynamicVars, name) {
		return
	}
	for _, m := range modes {
		switch m {
		case "-x":
			if r.dynExported == nil {
				r.dynExported = map[string]bool{}
			}
			r.dynExported[name] = true
			exportGen.Add(1) // see [HandlerContext.Exported]
		case "+x":
			delete(r.dynExported, name)
			exportGen.Add(1)
		}
	}
}

func (r *Runner) lookupVarValue(name string) expand.Variable {
	if name == "" {
		panic("variable name must not be empty")
	}
	var vr expand.Variable
	if r.dynGone[name] {
		// llmsh: unset, a dynamic variable is a plain one (bash).
		return r.writeEnv.Get(name)
	}
	if r.dynLocal(name) {
		return r.writeEnv.Get(name) // llmsh: local RANDOM is a plain one (bash)
	}
	switch name {
	case "#":
		vr.Kind, vr.Str = expand.String, strconv.Itoa(len(r.Params))
	case "@", "*":
		vr.Kind = expand.Indexed
		if r.Params == nil {
			// r.Params may be nil but positional parameters always exist
			vr.List = []string{}
		} else {
			vr.List = r.Params
		}
	case "!":
		// llmsh: the virtual pid of the last job (upstream: "g1"), in
		// subshells too.
		if r.lastBgPid > 0 {
			vr.Kind, vr.Str = expand.String, strconv.Itoa(r.lastBgPid)
		}
	case "FUNCNAME", "BASH_SOURCE", "BASH_LINENO", "BASH_ARGV", "BASH_ARGC":
		if v, ok := r.callStackVar(name); ok { // llmsh: callstack.go
			return v
		}
	case "LINENO": // llmsh: in arithmetic (expand knows it in ${LINENO})
		vr.Kind, vr.Str = expand.String, strconv.Itoa(r.line)
	case "SECONDS", "EPOCHSECONDS", "EPOCHREALTIME", "BASH_COMMAND":
		if v, ok := r.specialVar(name); ok { // llmsh: specialvars.go
			return v
		}
	case "?":
		r.deferBarrier(&r.lastExit) // llmsh: deferred.go
		vr.Kind, vr.Str = expand.String, strconv.Itoa(int(r.lastExit.code))
	case pipeStatusVar:
		r.deferBarrier(&r.lastExit) // llmsh: deferred.go
	case "-":
		// Note that we don't support some of Bash's flags, such as h or B.
		vr.Kind, vr.Str = expand.String, r.posixOptFlags()
	case "$":
		// llmsh: the session's virtual ids, never the host's.
		vr.Kind, vr.Str = expand.String, strconv.Itoa(r.llmsh.pid)
	case "BASHPID":
		vr.Kind, vr.Str = expand.String, strconv.Itoa(r.bashPid)
		vr.Integer = true // llmsh: bash's declare -i BASHPID
	case "_": // llmsh: the last argument of the last simple command
		vr.Kind, vr.Str, vr.Exported = expand.String, r.lastArg, r.lastArgExported
	case "BASH_SUBSHELL": // llmsh: how deep in subshells
		vr.Kind, vr.Str = expand.String, strconv.Itoa(r.subshellLevel)
	case "SHELLOPTS", "BASHOPTS": // llmsh: the options on (options.go)
		vr.Kind, vr.Str = expand.String, r.optsOn(name == "BASHOPTS")
		if name == "BASHOPTS" && r.bashOptsSnap {
			vr.Str = r.bashOpts // llmsh: snapBashOpts
		}
		vr.ReadOnly = true // as bash's: set -o and shopt change them
	case "COMP_WORDBREAKS": // llmsh: bash's, until the script sets it
		if v := r.writeEnv.Get(name); v.Declared() {
			return v
		}
		// Read, it holds its value from then on, as bash's (listings
		// show it).
		vr.Kind, vr.Str, vr.Set = expand.String, compWordbreaks, true
		r.writeEnv.Set(name, vr)
		return vr
	case "OPTERR": // llmsh: 1 until the script sets it, as bash
		if v := r.writeEnv.Get(name); v.Declared() {
			return v
		}
		vr.Kind, vr.Str = expand.String, "1"
	case "RANDOM": // not for cryptographic use
		// llmsh: bash's generator, so that RANDOM=seed gives bash's
		// numbers (random.go). [Runner.subshell] does not copy it, so
		// subshells start afresh like in bash.
		vr.Kind, vr.Str = expand.String, strconv.Itoa(r.rand.current())
		vr.Integer = true // bash's declare -i RANDOM: RANDOM=2+3 seeds 5
	case "HISTCMD":
		// llmsh: the current command's number in the history: the
		// prompt's, or the script's under set -o history (0 when off).
		n := 0
		switch {
		case r.llmsh.history != nil:
			n = len(r.llmsh.history())
		case r.opts[optHistory]:
			n = r.histBase + len(r.scriptHist)
		}
		vr.Kind, vr.Str = expand.String, strconv.Itoa(n)
		vr.Integer = true // llmsh: bash's declare -i HISTCMD
	case "SRANDOM": // pseudo-random generator from the system
		var p [4]byte
		cryptorand.Read(p[:])
		n := binary.NativeEndian.Uint32(p[:])
		vr.Kind, vr.Str = expand.String, strconv.FormatUint(uint64(n), 10)
		vr.Integer = true // llmsh: bash's declare -i SRANDOM
	case "GROUPS":
		// llmsh: bash's array of the user's groups (the virtual
		// user's one); bash has no $GID (upstream set it readonly).
		if v := r.writeEnv.Get(name); v.Declared() {
			return v
		}
		vr.Kind, vr.List = expand.Indexed, []string{strconv.Itoa(r.llmsh.gid)}
	case "DIRSTACK":
		vr.Kind, vr.List = expand.Indexed, r.dirEntries() // llmsh: entry 0 first
	case "BASH_CMDS":
		// llmsh: hash's table, name to path, as bash's; an assignment
		// enters names (setVarErr); once unset, a variable as any.
		if r.cmdsGone {
			break
		}
		vr.Kind, vr.Map = expand.Associative, maps.Clone(r.hashed)
		if vr.Map == nil {
			vr.Map = map[string]string{}
		}
	case "BASH_ALIASES":
		// llmsh: the aliases, name to value, as bash's; an assignment
		// defines aliases (setVarErr); once unset, a variable as any.
		if r.aliasesGone {
			break
		}
		vr.Kind, vr.Map = expand.Associative, make(map[string]string, len(r.alias))
		for name, al := range r.alias {
			vr.Map[name] = al.value
		}
	case "0":
		vr.Kind = expand.String
		switch {
		case r.arg0Set: // llmsh: BASH_ARGV0=NAME
			vr.Str = r.arg0
		case r.filename != "":
			vr.Str = r.filename
		default:
			vr.Str = shellName // llmsh: not "gosh": a Run, the REPL, as bash's interactive $0
		}
	case "BASH_ARGV0":
		// llmsh: $0 as a variable until it is unset, as bash.
		if !r.argv0Gone {
			return r.lookupVar("0")
		}
	case "1", "2", "3", "4", "5", "6", "7", "8", "9":
		if i := int(name[0] - '1'); i < len(r.Params) {
			vr.Kind = expand.String
			vr.Str = r.Params[i]
		}
	default:
		// llmsh: ${10} and above.
		if name[0] >= '0' && name[0] <= '9' {
			if n, err := strconv.Atoi(name); err == nil && n >= 1 && n <= len(r.Params) {
				vr.Kind, vr.Str = expand.String, r.Params[n-1]
			}
		}
	}
	if vr.Kind != expand.Unknown {
		vr.Set = true
		return vr
	}
	if vr := r.writeEnv.Get(name); vr.Declared() {
		return vr
	}
	return expand.Variable{}
}

func (r *Runner) envGet(name string) string {
	return r.lookupVar(name).String()
}

func (r *Runner) delVar(name string) {
	if unsetPlain[name] && !r.dynGone[name] && !r.writeEnv.Get(name).ReadOnly {
		// llmsh: no longer computed when read (bash).
		if r.dynGone == nil {
			r.dynGone = map[string]bool{}
		}
		r.dynGone[name] = true
		if name == "LINENO" {
			r.ecfg.PlainLineno = true
		}
	}
	if name == "BASH_ARGV0" {
		r.argv0Gone = true // llmsh: no longer $0 (bash)
	}
	if name == "BASH_ALIASES" {
		r.aliasesGone = true // llmsh: no longer the aliases (bash)
	}
	if name == "BASH_CMDS" {
		r.cmdsGone = true // llmsh: no longer hash's table (bash)
	}
	if name == "GLOBIGNORE" {
		r.setDotGlob(false) // llmsh: as bash (setVarErr)
	}
	if name == "PATH" {
		r.hashed, r.hashHits = nil, nil // llmsh: as bash (setVarErr)
	}
	if o, ok := r.writeEnv.(*overlayEnviron); ok && r.opts[optLocalUnset] {
		// llmsh: shopt -s localvar_unset: a calling function's local
		// stays, unset, as the function's own does.
		if done, err := o.unsetLocalKeep(name); done {
			if err != nil {
				r.errf("%s%s: %v\n", r.errPrefix(), name, err)
				r.exit.code = 1
			}
			return
		}
	}
	if err := r.writeEnv.Set(name, expand.Variable{}); err != nil {
		r.errf("%s%s: %v\n", r.errPrefix(), name, err) // llmsh: bash's prefix
		r.exit.code = 1
		return
	}
	if name == "BASH_XTRACEFD" {
		r.setXtraceFd("", false) // llmsh: as bash (trace.go)
	}
	if name == "POSIXLY_CORRECT" {
		r.strictPosix(false) // llmsh: as bash (specialvars.go)
	}
	if name == "IGNOREEOF" {
		r.opts[optIgnoreEOF] = false // llmsh: bash's sv_ignoreeof
	}
	if name == "BASH_COMPAT" {
		r.assignCompat("", false) // llmsh: compat.go
	}
}

// keepAttrs gives vr, a value that a builtin stores (read, mapfile,
// printf -v, getopts, for, select, cd), the attributes of prev that a
// new value keeps in bash: export and trace (llmsh).
func keepAttrs(prev expand.Variable, vr *expand.Variable) {
	vr.Exported = vr.Exported || prev.Exported
	vr.Trace = vr.Trace || prev.Trace
}

func (r *Runner) setVarString(name, value string) {
	vr := expand.Variable{Set: true, Kind: expand.String, Str: value}
	prev := r.writeEnv.Get(name)
	if prev.Kind == expand.Indexed || prev.Kind == expand.Associative {
		// llmsh: for a in x, cd (PWD): an array's element 0, as bash.
		r.setVarWithIndex(prev, name, nil, vr)
		return
	}
	keepAttrs(prev, &vr)
	if prev.Integer && (prev.Kind == expand.String || prev.Kind == expand.Unknown) {
		// llmsh: read, for, getopts… into an integer variable.
		var ok bool
		if vr.Str, ok = r.intValue(value); !ok {
			return
		}
		vr.Integer, vr.Local, vr.Exported = true, prev.Local, prev.Exported
	} else if prev.HasCase() {
		vr.Lower, vr.Upper, vr.Capital, vr.Local, vr.Exported = prev.Lower, prev.Upper, prev.Capital, prev.Local, prev.Exported
	}
	r.setVar(name, vr)
}

func (r *Runner) setVar(name string, vr expand.Variable) {
	if err := r.setVarErr(name, vr); err != nil {
		r.errf("%s%v\n", r.errPrefix(), err) // llmsh: bash's prefix
		r.exit.code = 1
		r.roAssignFailed = errors.Is(err, errReadOnly)                   // llmsh: posixSpecialExit
		r.reportPending = r.reportPending || errors.Is(err, errReadOnly) // llmsh
	}
}

// caseValues converts the values of vr to the case its attribute asks
// for (declare -l, -u, -c), in the script's locale (bytes: the C
// locale's, where only ASCII letters change).
func caseValues(vr *expand.Variable, bytes bool) {
	conv := func(s string) string { return expand.MapCase(s, false, bytes, unicode.ToLower) }
	switch {
	case vr.Upper:
		conv = func(s string) string { return expand.MapCase(s, false, bytes, unicode.ToUpper) }
	case vr.Capital:
		conv = func(s string) string { return capitalize(s, bytes) }
	}
	switch vr.Kind {
	case expand.String, expand.NameRef: // llmsh: declare -un r=x names X (bash)
		vr.Str = conv(vr.Str)
	case expand.Indexed:
		list := make([]string, len(vr.List))
		for i, s := range vr.List {
			list[i] = conv(s)
		}
		vr.List = list
	case expand.Associative:
		m := make(map[string]string, len(vr.Map))
		for k, s := range vr.Map {
			m[k] = conv(s)
		}
		vr.Map = m
	}
}

// countCaseModes counts the case attributes that modes (declare's
// options) turn on.
func countCaseModes(modes []string) int {
	n := 0
	for _, m := range modes {
		if m == "-l" || m == "-u" || m == "-c" {
			n++
		}
	}
	return n
}

// capitalize gives s with its first character in upper case and the
// others in lower case, as bash's declare -c (bytes: the C locale's).
func capitalize(s string, bytes bool) string {
	s = expand.MapCase(s, false, bytes, unicode.ToLower)
	return expand.MapCase(s, true, bytes, unicode.ToUpper)
}

// errReadOnly is returned when trying to modify a read-only variable.
var errReadOnly = errors.New("readonly variable")

// randomMax is one past the highest value that RANDOM expands to, like in Bash.
const randomMax = 32768

// setVarErr is like [Runner.setVar], but it returns any error rather than
// reporting it, for the sake of the expand package.
func (r *Runner) setVarErr(name string, vr expand.Variable) error {
	if r.opts[optAllExport] && vr.Kind != expand.Indexed && vr.Kind != expand.Associative {
		vr.Exported = true // llmsh: set -a exports no array, as bash
	}
	if vr.HasCase() {
		caseValues(&vr, expand.ByteLocale(r.writeEnv)) // llmsh: declare -l, -u, -c
	}
	if name == "PATH" {
		r.hashed, r.hashHits = nil, nil // llmsh: as bash, a new PATH empties hash's table
	}
	if r.noAssign(name) {
		return nil // llmsh: ignored, as bash's null_array_assign
	}
	if name == "BASH_ALIASES" && !r.aliasesGone {
		// llmsh: BASH_ALIASES[x]=v defines the alias x, as bash; an
		// element unset or left out of a list keeps its alias.
		for k, v := range vr.Map {
			if r.alias == nil {
				r.alias = make(map[string]alias)
			}
			r.alias[k] = alias{value: v, blank: strings.TrimRight(v, " \t\n") != v}
		}
		return nil
	}
	if name == "BASH_CMDS" && !r.cmdsGone {
		// llmsh: BASH_CMDS[x]=PATH enters x in hash's table, as bash.
		for k, v := range vr.Map {
			if r.hashed == nil {
				r.hashed = map[string]string{}
			}
			r.hashed[k] = v
		}
		return nil
	}
	if err := r.writeEnv.Set(name, vr); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if r.tempVars[name] > 0 {
		r.tempAssigned(name, vr) // llmsh: x=1 printf -v x 8 (prefixassign.go)
	}
	if name == "OPTIND" {
		// llmsh: as bash, an assignment of 1 to OPTIND starts getopts
		// again; another number lets it finish the word it reads
		// (set -- -ac -b; after -a, OPTIND=2 gives c, then OPTIND 3).
		// Only OPTIND's value is read as a number: every assignment
		// did it (16 ms for a 16 MB value, session 28).
		if n, ok := legalNumber(vr.String()); !ok || n <= 1 {
			r.optState.runeidx = 0
		}
	}
	r.assignSpecial(name, vr) // llmsh: SECONDS=N, BASH_ARGV0=NAME
	if name == "HISTSIZE" {
		defer r.histStifle() // llmsh: bash stifles the history at once
	}
	if name == "GLOBIGNORE" && strings.Trim(vr.String(), ":") != "" {
		// llmsh: as bash's setup_glob_ignore, a GLOBIGNORE with a
		// pattern turns dotglob on; an empty one leaves it; unset turns
		// it off (delVar).
		r.setDotGlob(true)
	}
	if name == "RANDOM" && vr.Kind == expand.String && !r.dynGone[name] && !r.dynLocal(name) {
		// Assigning to RANDOM seeds its generator; the stored value is never
		// read, as [Runner.lookupVar] always computes a new number. We only
		// seed once the assignment succeeds so that attributes such as
		// read-only still apply. llmsh: a value that is no number seeds
		// nothing, as bash.
		if n, err := strconv.ParseInt(strings.TrimSpace(vr.Str), 10, 64); err == nil {
			r.rand.seed(uint64(n))
		}
	}
	return nil
}

func (r *Runner) setVarWithIndex(prev expand.Variable, name string, index syntax.ArithmExpr, vr expand.Variable) {
	if index != nil && r.tempVars[name] > 0 && !r.tempElemming && r.tempElem(name, index, vr) {
		return
	}
	if vr.Kind == expand.String && index == nil {
		// When assigning a string to an array, fall back to the
		// zero value for the index.
		switch prev.Kind {
		case expand.Indexed:
			index = &syntax.Word{Parts: []syntax.WordPart{
				&syntax.Lit{Value: "0"},
			}}
		case expand.Associative:
			// llmsh: m=v sets the key 0, as in bash.
			index = &syntax.Word{Parts: []syntax.WordPart{
				&syntax.Lit{Value: "0"},
			}}
		}
	}
	if index == nil {
		r.setVar(name, vr)
		return
	}

	// from the syntax package, we know that value must be a string if index
	// is non-nil; nested arrays are forbidden.
	valStr := vr.Str

	var list []string
	var indexes []int
	switch prev.Kind {
	case expand.String:
		if prev.IsSet() { // llmsh: declare x; x[2]=v makes no element 0
			list = append(list, prev.Str)
		}
	case expand.Indexed:
		// llmsh: copied below unless the runner owns it.
		list, indexes = prev.List, prev.Indexes
	case expand.Associative:
		// if the existing variable is already an AssocArray, try our
		// best to convert the key to a string
		k := r.assocKey(index)
		if k == "" && r.exit.exiting {
			return // llmsh: the key's expansion failed (set -u), reported
		}
		if k == "" {
			// llmsh: bash refuses an empty key and abandons the line.
			r.errf("%s%s[%s]: bad array subscript\n", r.errPrefix(), r.elemName(name), subscriptText(index))
			r.badSubscript()
			return
		}

		// llmsh: in place when the runner owns it ([overlayEnviron.owned]).
		if prev.Map == nil || !r.ownedArray(name, prev.Local) {
			prev.Map = maps.Clone(prev.Map)
			prev.Born = maps.Clone(prev.Born)
		}
		if prev.Map == nil {
			prev.Map = make(map[string]string)
		}
		if _, had := prev.Map[k]; !had {
			prev.Born = r.bornKey(prev.Born, k)
		}
		prev.Map[k] = valStr
		prev.Set = true
		r.setArray(name, prev)
		return
	}
	if emptySubscript(index) {
		// llmsh: a[]=v, as bash: the line is abandoned.
		r.errf("%s%s[]: bad array subscript\n", r.errPrefix(), r.elemName(name))
		r.badSubscript()
		return
	}
	k, ok := r.arithm(index)
	if !ok {
		return // llmsh: no element is assigned
	}
	if k < 0 {
		// Negative indices count from one past the maximum index;
		// llmsh: a scalar's, set or only declared, is 0, as bash's
		// assign_array_element (declare x; x[-1]=v assigns x[0]).
		top := internal.IndexedMax(list, indexes)
		if prev.Kind == expand.String || prev.Kind == expand.Unknown && prev.Declared() {
			top = 0
		}
		if k += top + 1; k < 0 {
			// llmsh: bash names the element and abandons the line (a
			// function, a subshell), as for an empty key above; a
			// declaration or a builtin's assignment fails, status 1.
			r.errf("%s%s[%s]: bad array subscript\n", r.errPrefix(), r.elemName(name), r.writtenSubscript(index))
			r.badSubscript()
			return
		}
	}
	if prev.Kind == expand.Indexed && !r.ownedArray(name, prev.Local) {
		list, indexes = slices.Clone(list), slices.Clone(indexes)
	}
	list, indexes = internal.SetIndexedElem(list, indexes, k, valStr)
	prev.Set = true
	prev.Kind = expand.Indexed
	prev.List = list
	prev.Indexes = indexes
	r.setArray(name, prev)
}

// cutElemSubscript splits an array element argument like `a[3]`, as used by
// the unset builtin, into the array name and the subscript between brackets.
func cutElemSubscript(arg string) (name, sub string, ok bool) {
	i := strings.IndexByte(arg, '[')
	if i > 0 && strings.HasSuffix(arg, "]") && syntax.ValidName(arg[:i]) {
		return arg[:i], arg[i+1 : len(arg)-1], true
	}
	return "", "", false
}

// unsetKey is the key that unset 'm[SUB]' names in an associative
// array: SUB expanded as a word is (quotes removed, parameters and
// command substitutions expanded, not split), as bash 5.2 does (unset
// 'm[$k]' unsets k's value; unset "m[\$x]" the key $x). ok is false
// when SUB is no word (an unbalanced quote: bash unsets nothing) or
// expands to nothing (bash's bad array subscript).
func (r *Runner) unsetKey(name, sub string) (key string, ok bool) {
	depth := 0
	for i := 0; i < len(sub); i++ {
		switch sub[i] {
		case '[':
			depth++
		case ']':
			if depth--; depth < 0 {
				return "", false // m[a]b]: no element (bash unsets nothing)
			}
		}
	}
	if !strings.ContainsAny(sub, "'\"\\$`") {
		return sub, true
	}
	if !quotesClosed(sub) {
		return "", false // m[a'b]: no word (bash unsets nothing)
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(name+"["+sub+"]=''"), "")
	if err != nil || len(f.Stmts) != 1 {
		return "", false
	}
	ce, isCall := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !isCall || len(ce.Args) > 0 || len(ce.Assigns) != 1 || ce.Assigns[0].Index == nil {
		return "", false
	}
	key, err = expand.AssocKey(r.ecfg, ce.Assigns[0].Index)
	if err != nil {
		r.expandErr(err)
		return "", false
	}
	if key == "" {
		r.errf("%sunset: [%s]: bad array subscript\n", r.errPrefix(), sub)
		r.exit.code = 1
		return "", false
	}
	return key, true
}

// quotesClosed reports whether every quote that s opens, read as a
// shell word, is closed.
func quotesClosed(s string) bool {
	var q byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case q == '\'':
			if c == '\'' {
				q = 0
			}
		case c == '\\':
			i++
		case q == '"':
			if c == '"' {
				q = 0
			}
		case c == '\'' || c == '"':
			q = c
		}
	}
	return q == 0
}

// unsetIndex is the value of an indexed array's subscript for unset: an
// arithmetic error (unset 'a[x y]') is reported and abandons the line
// (under bash -c, ends the shell), as bash's (llmsh).
func (r *Runner) unsetIndex(sub string) (int, bool) {
	k, err := r.ecfg.SubscriptIndex(sub)
	if err != nil {
		if ae, ok := err.(*expand.ArithmError); ok {
			ae.Fatal = true
		}
		r.expandErr(err)
		return 0, false
	}
	return int(k), true
}

// unsetElem unsets a single element of an indexed or associative array, like
// `unset 'a[3]'`. Unsetting an indexed array element may leave a hole.
// A literal sub is the key as it is (bash's W_ARRAYREF words: unset
// m[$k] names the key that $k holds, expanded once).
func (r *Runner) unsetElem(name, sub string, literal bool) {
	vr := r.lookupVar(name)
	if n, v := vr.Resolve(r.writeEnv); n != "" {
		name, vr = n, v
	}
	if vr.ReadOnly {
		// llmsh: bash's message for an element of a readonly array,
		// or scalar (unset 'V[@]', 'V[1]' of a readonly V too).
		r.errf("%sunset: %s: cannot unset: readonly variable\n", r.errPrefix(), name)
		r.exit.code = 1
		return
	}
	switch vr.Kind {
	case expand.Indexed:
		if sub == "@" || sub == "*" {
			// llmsh: bash 5.2 empties the array and keeps it declared.
			vr.List, vr.Indexes = []string{}, nil
			r.setVar(name, vr)
			return
		}
		if sub == "" {
			return // an empty subscript like `unset 'a[]'` is a no-op
		}
		k, ok := r.unsetIndex(sub)
		if !ok {
			return
		}
		if k < 0 {
			// Negative indices count from one past the maximum index.
			if k += internal.IndexedMax(vr.List, vr.Indexes) + 1; k < 0 {
				r.errf("%sunset: [%s]: bad array subscript\n", r.errPrefix(), sub)
				r.exit.code = 1
				return
			}
		}
		// TODO: only clone when inside a subshell and getting a var from outside for the first time
		vr.List = slices.Clone(vr.List)
		vr.Indexes = slices.Clone(vr.Indexes)
		vr.List, vr.Indexes = internal.DeleteIndexedElem(vr.List, vr.Indexes, k)
		r.setVar(name, vr)
	case expand.Associative:
		// llmsh: m[@] and m[*] are keys as any (bash 5.2).
		key, ok := sub, literal
		if !literal {
			if key, ok = r.unsetKey(name, sub); !ok {
				return
			}
		}
		// TODO: only clone when inside a subshell and getting a var from outside for the first time
		vr.Map = maps.Clone(vr.Map)
		delete(vr.Map, key)
		r.setVar(name, vr)
	case expand.String:
		// A scalar can be unset via subscript zero (llmsh: any that
		// evaluates to 0, unset 's[k]', as bash).
		k := 0
		if sub == "@" || sub == "*" {
			k = 1 // llmsh: unset 's[@]' of a scalar: not an array (bash)
		} else if sub != "0" {
			var ok bool
			if k, ok = r.unsetIndex(sub); !ok {
				return
			}
		}
		if k == 0 {
			r.delVar(name)
		} else {
			r.errf("%sunset: %s: not an array variable\n", r.errPrefix(), name)
			r.exit.code = 1
		}
	}
}

func (r *Runner) setFunc(name string, body *syntax.Stmt) {
	if r.Funcs == nil {
		r.Funcs = make(map[string]*syntax.Stmt, 4)
	}
	r.Funcs[name] = body
	r.defineFunc(name) // llmsh: callstack.go
}

// litBracket reports whether w begins with an unquoted "[".
func litBracket(w *syntax.Word) bool {
	if w == nil || len(w.Parts) == 0 {
		return false
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	return ok && strings.HasPrefix(lit.Value, "[")
}

// elemName is the name a bad subscript of an element assignment of name
// is reported under: the nameref as written (r[-5]=v), as bash.
func (r *Runner) elemName(name string) string {
	if r.refElem != "" {
		return r.refElem
	}
	return name
}

// TODO: make assignVal and [setVar] consistent with the [expand.WriteEnviron] interface

func (r *Runner) assignVal(name string, prev expand.Variable, as *syntax.Assign, valType string) (string, expand.Variable) {
	name, vr, _ := r.assignValIndex(name, prev, as, valType, nil)
	return name, vr
}

// assignValIndex is assignVal for an assignment whose subscript (after
// namerefs) is index; ok is false when bash refuses the assignment (it
// then said why).
func (r *Runner) assignValIndex(name string, prev expand.Variable, as *syntax.Assign, valType string, index syntax.ArithmExpr) (string, expand.Variable, bool) {
	if valType != "-n" {
		if n, v := prev.Resolve(r.writeEnv); n != "" && syntax.ValidName(n) {
			name, prev = n, v
		}
	}
	emptyRef := prev.Kind == expand.NameRef // a nameref with no target yet
	// llmsh: the value is expanded first, then set -x traces the
	// assignment, then it is made (its subscript checked), as bash.
	var s string
	traceIt := r.assignTrace
	r.assignTrace = nil // not an assignment the expansion makes
	if as.Value != nil {
		s = r.assignValue(as.Value)
		r.assignText = s
		if r.exit.exiting {
			// llmsh: a value whose expansion failed (x=$((1/0)))
			// assigns nothing: the variable keeps its value, as bash.
			return name, prev, false
		}
	}
	if traceIt != nil {
		traceIt()
	}
	if emptyRef && index != nil && valType != "-n" {
		// llmsh: r[1]=v of a nameref with no variable yet: bash's
		// error, the line abandoned; declare r[1]=v makes r an array.
		if r.declVariant == "" {
			r.errf("%s`': not a valid identifier\n", r.errPrefix())
			r.exit = exitStatus{code: 1, exiting: true, abandon: true}
			return name, prev, false
		}
		r.errf("%swarning: %s: removing nameref attribute\n", r.errPrefix(), name)
	}
	if index != nil && prev.Kind != expand.Associative && allSubscript(index) {
		// llmsh: a[@]=v, a[*]+=v: bash's error, and the line is
		// abandoned (a declaration goes on, status 1).
		r.errf("%s%s[%s]: bad array subscript\n", r.errPrefix(), r.elemName(name), subscriptText(index))
		r.badSubscript()
		return name, prev, false
	}
	wasSet := prev.IsSet()
	prev.Set = true
	if as.Value != nil {
		if prev.Integer && prev.ReadOnly && r.declVariant == "" {
			// llmsh: w=1+ of a readonly integer w: bash says it is
			// readonly before it evaluates the value (the caller).
			return name, prev, true
		}
		if prev.Integer && prev.Kind != expand.NameRef {
			// llmsh: an integer variable's value is evaluated; += adds.
			// In a declaration, an error names its builtin (bash).
			var ok bool
			if r.declNewLocal != "" && r.declNewLocal == name {
				// llmsh: local -i x=x+1 reads the new local x,
				// unset (bash: 1), not the one it hides.
				r.setVar(name, expand.Variable{Kind: expand.String, Local: true})
			}
			r.arithPrefix = r.declVariant
			s, ok = r.intValue(s)
			r.arithPrefix = ""
			if !ok {
				return name, prev, false
			}
			if as.Append {
				var old string
				if index != nil {
					if old, ok = r.elemForAppend(name, index); !ok {
						return name, prev, false
					}
				} else if prev.Kind == expand.String {
					old = prev.Str
				} else if prev.Kind == expand.Associative {
					old = prev.Map["0"] // m+=N adds to key 0, as bash
				} else if prev.Kind == expand.Indexed {
					old, _ = internal.IndexedElem(prev.List, prev.Indexes, 0) // a+=N adds to element 0
				} else {
					old = prev.String()
				}
				if s, ok = r.intValue(old + "+(" + s + ")"); !ok {
					return name, prev, false
				}
				if index == nil && (prev.Kind == expand.String || prev.Kind == expand.Unknown) {
					prev.Kind, prev.Str = expand.String, s
					return name, prev, true
				}
				switch {
				case index == nil && prev.Kind == expand.Indexed:
					// llmsh: the sum replaces element 0 (it was
					// appended to it as text).
					prev.List, prev.Indexes = slices.Clone(prev.List), slices.Clone(prev.Indexes)
					prev.List, prev.Indexes = internal.SetIndexedElem(prev.List, prev.Indexes, 0, s)
					return name, prev, true
				case index == nil && prev.Kind == expand.Associative:
					prev.Map = maps.Clone(prev.Map)
					if prev.Map == nil {
						prev.Map = map[string]string{}
					}
					prev.Map["0"] = s
					return name, prev, true
				}
				if index != nil {
					return name, expand.Variable{Set: true, Kind: expand.String, Str: s}, true
				}
			}
		}
		if index != nil {
			// llmsh: a[i]=v, a[i]+=v: the element's value, which
			// setVarWithIndex stores.
			if as.Append {
				old, ok := r.elemForAppend(name, index)
				if !ok || !r.appendFits(len(old), len(s)) {
					return name, prev, false
				}
				s = old + s
			}
			return name, expand.Variable{Set: true, Kind: expand.String, Str: s}, true
		}
		if !as.Append {
			if valType == "-n" && s == "" && r.declVariant != "" {
				// llmsh: declare -n r='' names no variable (bash).
				r.errf("%s%s: `': not a valid identifier\n", r.errPrefix(), r.declVariant)
				r.exit.code = 1
				return name, prev, false
			}
			prev.Kind = expand.String
			if valType == "-n" || emptyRef {
				prev.Kind = expand.NameRef
			}
			if emptyRef && valType != "-n" && r.declVariant != "local" {
				if p, _, ok := expand.ParseRef(s); !ok || !syntax.ValidName(p.Value) {
					// llmsh: declare -n q; q=1: bash's words, and the
					// command line is abandoned (declare goes on).
					if r.declVariant != "" {
						r.errf("%s%s: `%s': not a valid identifier\n", r.errPrefix(), r.declVariant, s)
						r.exit.code = 1
						return name, prev, false
					}
					r.errf("%s`%s': not a valid identifier\n", r.errPrefix(), s)
					r.exit = exitStatus{code: 1, exiting: true, abandon: true}
					return name, prev, false
				}
			}
			if prev.Kind == expand.NameRef && prev.Integer && s != "" && !syntax.ValidName(s) {
				// llmsh: declare -in r=v: the value evaluated (0)
				// names nothing; bash fails without a word.
				r.exit.code = 1
				return name, prev, false
			}
			if prev.Kind == expand.NameRef && !r.validRef(name, s) {
				return name, prev, false
			}
			prev.Str = s
			return name, prev, true
		}
		if !r.appendFits(appendedLen(prev), len(s)) {
			return name, prev, false
		}
		switch prev.Kind {
		case expand.String, expand.Unknown, expand.NameRef:
			if prev.Kind == expand.Unknown {
				prev.Kind = expand.String
			}
			prev.Str = r.appendString(prev.Str, s)
		case expand.Indexed:
			// Appends to the element at index 0, creating it if unset.
			// llmsh: on a copy, as the list may be shared.
			prev.List, prev.Indexes = slices.Clone(prev.List), slices.Clone(prev.Indexes)
			if len(prev.List) > 0 && (prev.Indexes == nil || prev.Indexes[0] == 0) {
				prev.List[0] += s
			} else {
				prev.List, prev.Indexes = internal.SetIndexedElem(prev.List, prev.Indexes, 0, s)
			}
		case expand.Associative:
			// llmsh: m+=v appends to the element of key 0, as in bash.
			prev.Map = maps.Clone(prev.Map)
			if prev.Map == nil {
				prev.Map = map[string]string{}
			}
			prev.Map["0"] += s
		}
		return name, prev, true
	}
	if as.Array == nil && !as.Naked && !as.Append && prev.Integer && prev.Kind != expand.NameRef {
		// llmsh: declare -i i; i= is 0, as bash evaluates the empty text.
		if index != nil {
			return name, expand.Variable{Set: true, Kind: expand.String, Str: "0"}, true
		}
		prev.Kind, prev.Str = expand.String, "0"
		return name, prev, true
	}
	if as.Array == nil && emptyRef && valType != "-n" && r.declVariant == "" && index == nil {
		// llmsh: r= or r+= of a nameref with no target names no
		// variable: bash's error, the command line abandoned.
		r.errf("%s`': not a valid identifier\n", r.errPrefix())
		r.exit = exitStatus{code: 1, exiting: true, abandon: true}
		return name, prev, false
	}
	if as.Array == nil {
		if as.Append && prev.Integer && index == nil && (prev.Kind == expand.String || prev.Kind == expand.Unknown) {
			// llmsh: declare -i h; h+= adds 0: an empty h is 0 (bash).
			prev.Kind = expand.String
			if prev.Str == "" {
				prev.Str = "0"
			}
			return name, prev, true
		}
		if as.Append && prev.Kind != expand.Unknown && prev.Kind != expand.NameRef {
			// llmsh: x+= appends nothing (upstream emptied x).
			if index != nil {
				old := r.literal(&syntax.Word{Parts: []syntax.WordPart{&syntax.ParamExp{
					Param: &syntax.Lit{Value: name}, Index: index}}})
				return name, expand.Variable{Set: true, Kind: expand.String, Str: old}, true
			}
			zero := "" // llmsh: the element a+= makes (0 with -i), as bash
			if prev.Integer {
				zero = "0"
			}
			if prev.Kind == expand.Associative { // m+= makes key 0, as bash
				prev.Map = maps.Clone(prev.Map)
				if prev.Map == nil {
					prev.Map = map[string]string{}
				}
				if _, ok := prev.Map["0"]; !ok {
					prev.Map["0"] = zero
				}
			}
			if _, ok := internal.IndexedElem(prev.List, prev.Indexes, 0); prev.Kind == expand.Indexed && !ok {
				prev.List, prev.Indexes = internal.SetIndexedElem(slices.Clone(prev.List), slices.Clone(prev.Indexes), 0, zero)
			}
			return name, prev, true
		}
		if index != nil {
			return name, expand.Variable{Set: true, Kind: expand.String}, true
		}
		// don't return the zero value, as that's an unset variable
		prev.Kind = expand.String
		if valType == "-n" || emptyRef {
			prev.Kind = expand.NameRef
		}
		prev.Str = ""
		return name, prev, true
	}
	if emptyRef && valType != "-n" {
		// llmsh: r=(…), r+=(…) of a nameref with no variable yet: r
		// becomes an array, with bash's warning (but from declare, typeset
		// and local).
		if r.declVariant == "" || r.declVariant == "export" || r.declVariant == "readonly" {
			r.errf("%swarning: %s: removing nameref attribute\n", r.errPrefix(), name)
		}
		prev = expand.Variable{Set: true, Local: prev.Local, Exported: prev.Exported}
	}
	// Array assignment.
	elems := as.Array.Elems
	if valType == "" {
		valType = "-a" // indexed
		// llmsh: a quoted first subscript does not make it associative
		// (bash: a=(["k"]=v) is indexed, "k" evaluated as arithmetic).
		if prev.Kind == expand.Associative {
			valType = "-A" // associative
		}
	}
	if valType == "-A" {
		// llmsh: m+=([k]=v) adds to the array; an element without a
		// subscript is refused, as in bash.
		amap := make(map[string]string, len(elems))
		var born map[string]uint64
		if as.Append && prev.Kind == expand.Associative {
			amap = maps.Clone(prev.Map)
			born = maps.Clone(prev.Born)
			if amap == nil {
				amap = map[string]string{}
			}
		}
		// llmsh: m=(k1 v1 k2 v2), a list of keys and values (bash 5.1),
		// when its first element has no subscript.
		// A first word that begins with an unquoted [ (m=([k] …), no =)
		// is no pair but a bad subscript, as bash reads it (declare's
		// argument, declare -A m=([k] v), is pairs).
		pairs := len(elems) > 0 && elems[0].Index == nil && (r.declaring || !litBracket(elems[0].Value))
		for i := 0; i < len(elems); i++ {
			elem := elems[i]
			var k, v string
			switch {
			case pairs:
				k = r.assocPairWord(elem)
				if i++; k == "" && !r.exit.exiting {
					// llmsh: an empty key is bash's bad
					// subscript; its value goes with it.
					r.emptyPairKey(elem)
					continue
				}
				if i < len(elems) {
					v = r.assocPairWord(elems[i])
				}
			case elem.Index == nil:
				// llmsh: bash quotes the word for declare's
				// assignments only.
				word := wordText(elem.Value)
				msg := "%s%s: %s: must use subscript when assigning associative array\n"
				if r.declaring {
					word = "'" + strings.ReplaceAll(word, "'", `'\''`) + "'"
					if r.cmdErr != nil {
						// bash warns as it expands declare's
						// words, before the redirections.
						fmt.Fprintf(r.cmdErr, msg, r.errPrefix(), name, word)
						continue
					}
				}
				r.errf(msg, r.errPrefix(), name, word)
				continue
			default:
				k = r.assocKey(elem.Index)
				v = r.assocValue(elem.Value)
				if k == "" && !r.exit.exiting {
					// llmsh: an empty key: bash names the element
					// (declare's as it quoted it) and goes on.
					text := "[" + subscriptText(elem.Index) + "]=" + elemValueText(elem)
					if r.declaring {
						text = "['']=" + "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
					}
					out := r.stderr
					if r.declaring && r.cmdErr != nil {
						out = r.cmdErr
					}
					fmt.Fprintf(out, "%s%s: bad array subscript\n", r.errPrefix(), text)
					continue
				}
				if elem.Append {
					// llmsh: ([k]+=v) appends to the key's value
					// before the assignment (the array's, for +=).
					if as.Append {
						v = amap[k] + v
					} else if prev.Kind == expand.Associative {
						v = prev.Map[k] + v
					}
				}
			}
			if prev.Integer {
				var ok bool
				if v, ok = r.intValue(v); !ok {
					// bash: m+=(…) keeps the keys added before
					// the error, m=(…) the array as it was.
					part := prev
					switch {
					case as.Append:
						part.Kind, part.Map = expand.Associative, amap
					case prev.Kind != expand.Associative:
						part.Kind, part.Map = expand.Associative, map[string]string{}
					}
					r.partial = &part
					return name, prev, false
				}
			}
			if _, had := amap[k]; !had {
				born = r.bornKey(born, k)
			}
			amap[k] = v
		}
		prev.Kind = expand.Associative
		prev.Map, prev.Born = amap, born
		return name, prev, true
	}
	// The base array which the new elements are set on; empty unless
	// we are appending to an existing value.
	var list []string
	var indexes []int
	if as.Append {
		switch prev.Kind {
		case expand.Unknown:
		case expand.String:
			if wasSet { // llmsh: local x; x+=(a) is (a), as bash
				list = []string{prev.Str}
			}
		case expand.Indexed:
			// TODO: only clone when inside a subshell and getting a var from outside for the first time
			list = slices.Clone(prev.List)
			indexes = slices.Clone(prev.Indexes)
		case expand.Associative:
			// TODO
			return name, prev, true
		default:
			// Should only happen if we forgot a case above.
			panic(fmt.Sprintf("unexpected conversion of kind %d", prev.Kind))
		}
	}
	// Evaluate values for each array element. An explicit index like
	// [5]=x resets our index counter, which otherwise advances for every
	// value, starting after the maximum index of the base array.
	next := internal.IndexedMax(list, indexes) + 1
	// llmsh: every value is expanded before any subscript or integer
	// value is evaluated, as bash expands the whole list first:
	// a=([i++]=$i [i++]=$i) is (0 0), declare -i c=(x++ $x) one element.
	vals := make([][]string, len(elems))
	for i, elem := range elems {
		if elem.Index != nil {
			vals[i] = []string{r.assignValue(elem.Value)} // [i]=x:~ as an assignment
		} else {
			vals[i] = r.elemFields(elem.Value)
		}
	}
	for ei, elem := range elems {
		if elem.Index != nil {
			// llmsh: ([@]=v) and ([]=v) name no element: bash
			// says so and goes on with the others.
			if allSubscript(elem.Index) {
				r.errf("%s[%s]=%s: cannot assign to non-numeric index\n", r.errPrefix(), subscriptText(elem.Index), vals[ei][0])
				continue
			}
			if emptySubscript(elem.Index) {
				r.errf("%s[]=%s: bad array subscript\n", r.errPrefix(), vals[ei][0])
				continue
			}
			// Index resets our index with a literal value.
			var ok bool
			r.liveElems(name, prev, list, indexes, elem.Index)
			if next, ok = r.arithm(sglQuotesGone(elem.Index)); !ok {
				return name, prev, r.partialIndexed(prev, wasSet, list, indexes)
			}
			if next < 0 {
				// Negative indices count from one past the maximum index.
				if next += internal.IndexedMax(list, indexes) + 1; next < 0 {
					// llmsh: bash names the element and goes on
					// with the others.
					r.errf("%s[%s]=%s: bad array subscript\n", r.errPrefix(), subscriptText(elem.Index), vals[ei][0])
					next = internal.IndexedMax(list, indexes) + 1
					continue
				}
			}
			v := vals[ei][0]
			if elem.Append {
				// llmsh: ([i]+=v) appends to the element as it is.
				if old, ok := internal.IndexedElem(list, indexes, next); ok {
					if prev.Integer {
						v = old + "+(" + v + ")" // evaluated below
					} else {
						v = old + v
					}
				}
			}
			if prev.Integer {
				var ok bool
				if v, ok = r.intValue(v); !ok {
					return name, prev, r.partialIndexed(prev, wasSet, list, indexes)
				}
			}
			list, indexes = internal.SetIndexedElem(list, indexes, next, v)
			next++
		} else {
			// Implicit index, advancing for every word.
			for _, val := range vals[ei] {
				if prev.Integer {
					var ok bool
					if val, ok = r.intValue(val); !ok {
						return name, prev, r.partialIndexed(prev, wasSet, list, indexes)
					}
				}
				list, indexes = internal.SetIndexedElem(list, indexes, next, val)
				next++
			}
		}
	}
	if list == nil {
		// An empty array like a=() must still expand to zero fields.
		list = []string{}
	}
	prev.Kind = expand.Indexed
	prev.List = list
	prev.Indexes = indexes
	return name, prev, true
}

// liveElems shows the array name as its compound assignment has made it
// so far (prev with list and indexes) to the subscript idx about to be
// evaluated, as bash assigns each element to the variable itself, which
// it emptied first (a=([a]=1 [a]=2) is (1 2)) (llmsh). A subscript of
// digits reads nothing and is left alone.
func (r *Runner) liveElems(name string, prev expand.Variable, list []string, indexes []int, idx syntax.ArithmExpr) {
	if w, ok := idx.(*syntax.Word); ok {
		if lit := w.Lit(); lit != "" && strings.Trim(lit, "0123456789") == "" {
			return
		}
	}
	if list == nil {
		list = []string{}
	}
	prev.Set, prev.Kind, prev.Str, prev.List, prev.Indexes, prev.Map = true, expand.Indexed, "", list, indexes, nil
	prev.ReadOnly = false
	prev.Local = prev.Local || r.declaring && r.declLocal // local a=(…) over a global a
	_ = r.writeEnv.Set(name, prev)                        // the assignment's own setVar follows
}

// partialIndexed keeps in r.partial the elements of an indexed array's
// compound assignment assigned before an error (bash's), and is false.
func (r *Runner) partialIndexed(prev expand.Variable, wasSet bool, list []string, indexes []int) bool {
	switch {
	case len(list) == 0 && !wasSet:
		// declare -ai a=(1/0): declared, no value (bash).
		list, indexes, prev.Set = nil, nil, false
	case list == nil:
		list = []string{}
	}
	prev.Kind, prev.List, prev.Indexes = expand.Indexed, list, indexes
	r.partial = &prev
	return false
}

// sglQuotesGone gives a subscript of a compound assignment with its
// single-quoted parts as double-quoted text: bash removes the quotes of
// a=(['k+1']=v) before it evaluates the subscript (llmsh).
func sglQuotesGone(idx syntax.ArithmExpr) syntax.ArithmExpr {
	w, ok := idx.(*syntax.Word)
	if !ok || !slices.ContainsFunc(w.Parts, func(p syntax.WordPart) bool {
		sq, ok := p.(*syntax.SglQuoted)
		return ok && !sq.Dollar
	}) {
		return idx
	}
	parts := make([]syntax.WordPart, len(w.Parts))
	for i, p := range w.Parts {
		if sq, ok := p.(*syntax.SglQuoted); ok && !sq.Dollar {
			p = &syntax.DblQuoted{Left: sq.Left, Right: sq.Right, Parts: []syntax.WordPart{
				&syntax.Lit{ValuePos: sq.Left, ValueEnd: sq.Right, Value: sq.Value}}}
		}
		parts[i] = p
	}
	return &syntax.Word{Parts: parts}
}

// plainAppend reports whether as is a+=(v…) of the indexed array prev,
// with no subscripts, as a command of its own (llmsh): [Runner.appendElems].
func plainAppend(prev expand.Variable, as *syntax.Assign, index syntax.ArithmExpr) bool {
	if index != nil || !as.Append || as.Array == nil || prev.Kind != expand.Indexed {
		return false
	}
	for _, elem := range as.Array.Elems {
		if elem.Index != nil {
			return false
		}
	}
	return true
}

// appendElems gives prev with the values of elems appended (llmsh), in
// place when the runner owns the array ([overlayEnviron.owned]), so that
// a loop of n appends takes time in n, not n²; [Runner.setArray] stores
// it. ok is false when an integer array refuses a value.
func (r *Runner) appendElems(name string, prev expand.Variable, elems []*syntax.ArrayElem) (vr expand.Variable, ok bool) {
	var vals []string
	ok = true
elems:
	for _, elem := range elems {
		for _, val := range r.elemFields(elem.Value) {
			if prev.Integer {
				if val, ok = r.intValue(val); !ok {
					break elems // bash keeps those before the error
				}
			}
			vals = append(vals, val)
		}
	}
	list, indexes := prev.List, prev.Indexes
	if !r.ownedArray(name, prev.Local) {
		list, indexes = slices.Clone(list), slices.Clone(indexes)
	}
	next := internal.IndexedMax(list, indexes) + 1
	for _, v := range vals {
		list, indexes = internal.SetIndexedElem(list, indexes, next, v)
		next++
	}
	if list == nil {
		list = []string{} // a+=() of an empty array is still set
	}
	prev.Set, prev.List, prev.Indexes = true, list, indexes
	if !ok {
		r.partial = &prev
	}
	return prev, ok
}

// refTarget follows the namerefs from name (llmsh): the variable that an
// assignment to name[index] sets, and its subscript, which comes from
// the nameref when it names an element (declare -n r='a[1]').
func (r *Runner) refTarget(name string, index syntax.ArithmExpr) (string, syntax.ArithmExpr) {
	vr := r.lookupVar(name)
	if vr.Kind != expand.NameRef {
		return name, index
	}
	ref, _ := vr.Resolve(r.writeEnv)
	if ref == "" {
		return name, index // no target yet: the assignment sets it
	}
	if syntax.ValidName(ref) || r.lookupVar(ref).Declared() {
		// (llmsh: a local named "a[0]" that local r=v of a nameref
		// r='a[0]' made is reached before the element, as bash.)
		return ref, index
	}
	if p, idx, ok := expand.ParseRef(ref); ok && idx != nil {
		if index == nil {
			index = idx
		}
		return p.Value, index
	}
	return name, index
}

// validRef reports whether a nameref called name may refer to ref, and
// says why not as bash does.
func (r *Runner) validRef(name, ref string) bool {
	if ref == "" {
		return true
	}
	self := ref == name
	if p, idx, ok := expand.ParseRef(ref); ok && idx != nil && p.Value == name {
		self = true // llmsh: declare -n s=s[0] names itself too (bash)
	}
	if self {
		switch {
		case r.declVariant == "":
			// llmsh: declare -n r; r=r gives r its value, as bash.
			return true
		case r.inFunc:
			// llmsh: bash warns and makes it; each use of it then
			// reaches the global variable (expand.Variable.Resolve).
			r.errf("%s%s: warning: %s: circular name reference\n", r.errPrefix(), r.declVariant, name)
			r.errf("%swarning: %s: circular name reference\n", r.errPrefix(), name)
			return true
		}
		r.errf("%s%s: %s: nameref variable self references not allowed\n", r.errPrefix(), r.declVariant, name)
		r.exit.code = 1
		return false
	}
	if p, _, ok := expand.ParseRef(ref); !ok || !syntax.ValidName(p.Value) {
		r.errf("%s%s: `%s': invalid variable name for name reference\n", r.errPrefix(), cmp.Or(r.declVariant, "declare"), ref)
		r.exit.code = 1
		return false
	}
	return true
}

// declKind applies declare -a/-A to vr as bash converts a variable (a
// scalar becomes element 0 of the array) and refuses what bash refuses
// (builtin names the declaring builtin in the message; "" for a new
// local, which hides what vr was); false means the declaration of this
// name is abandoned.
// convertErr reports that a declaration cannot convert name's array to
// the other kind. Of NAME=(…), bash converts when it expands the words
// (make_internal_declare): the message names no builtin, and outside
// functions the line is abandoned (status 1); in a function the
// builtin's own message follows and the declaration goes on (llmsh).
func (r *Runner) convertErr(builtin, name, msg string, as *syntax.Assign) {
	if as != nil && !as.Naked && as.Array != nil {
		r.errf("%s%s: %s\n", r.errPrefix(), name, msg)
		if !r.inFunc {
			r.exit = exitStatus{code: 1, exiting: true, abandon: true}
			return
		}
	}
	r.errf("%s%s: %s: %s\n", r.errPrefix(), builtin, name, msg)
	r.exit.code = 1
}

func (r *Runner) declKind(builtin, name string, vr *expand.Variable, valType string, as *syntax.Assign) bool {
	if builtin == "" && (valType == "-A" && vr.Kind == expand.Indexed || valType == "-a" && vr.Kind == expand.Associative ||
		valType == "-n" && (vr.Kind == expand.Indexed || vr.Kind == expand.Associative)) {
		// llmsh: a new local hides the array of that name: it starts
		// afresh, as bash's (local -a m of a global associative m).
		*vr = expand.Variable{Exported: vr.Exported}
	}
	switch valType {
	case "-A":
		switch vr.Kind {
		case expand.Indexed:
			r.convertErr(builtin, name, "cannot convert indexed to associative array", as)
			return false
		case expand.String:
			if as.Naked || as.Array == nil {
				m := map[string]string{}
				if vr.IsSet() {
					m["0"] = vr.Str
				}
				vr.Kind, vr.Map, vr.Str = expand.Associative, m, ""
			}
		case expand.Unknown:
			vr.Kind = expand.Associative
		}
	case "-a":
		switch vr.Kind {
		case expand.Associative:
			r.convertErr(builtin, name, "cannot convert associative to indexed array", as)
			return false
		case expand.String:
			if as.Naked || as.Array == nil {
				var list []string
				if vr.IsSet() {
					list = []string{vr.Str}
				}
				vr.Kind, vr.List, vr.Indexes, vr.Str = expand.Indexed, list, nil, ""
			}
		case expand.Unknown:
			vr.Kind = expand.Indexed
		}
	case "-n":
		if (vr.Kind == expand.Indexed || vr.Kind == expand.Associative) && (as == nil || as.Naked || as.Array == nil) {
			// llmsh: bash's refusal (declare -n of an array).
			r.errf("%s%s: %s: reference variable cannot be an array\n", r.errPrefix(), builtin, name)
			r.exit.code = 1
			return false
		}
		if as.Naked && (vr.Kind == expand.Unknown || vr.Kind == expand.String) {
			// llmsh: a new local (builtin "") hides the value.
			if vr.IsSet() && builtin != "" && !r.validRef(name, vr.Str) {
				return false
			}
			vr.Kind = expand.NameRef
		}
	}
	return true
}

// quoter quotes in the script's locale, as bash (llmsh).
func (r *Runner) quoter() expand.Quoter {
	return expand.Quoter{Bytes: expand.ByteLocale(r.writeEnv)}
}

// declLine prints a variable as `declare -p` does.
func (r *Runner) declLine(name string, vr expand.Variable) string {
	flags := vr.Flags()
	if flags == "" {
		flags = "-"
	}
	head := "declare -" + flags + " " + name
	if !vr.IsSet() {
		return head
	}
	switch vr.Kind {
	case expand.Indexed, expand.Associative:
		// llmsh: a stopped run prints nothing more of it
		val, err := r.quoter().DeclValueStop(r.ectx, vr)
		if err != nil {
			return head
		}
		return head + "=" + val
	}
	return head + "=" + r.quoter().Decl(vr.Str)
}

// elemValueText is an array element's value as written.
func elemValueText(elem *syntax.ArrayElem) string {
	if elem.Value == nil {
		return ""
	}
	return wordText(elem.Value)
}

// assocPairWord is an element of an associative array's list of keys
// and values: its word expanded, or "[k]=v" as text.
func (r *Runner) assocPairWord(elem *syntax.ArrayElem) string {
	if elem.Index != nil {
		v := ""
		if elem.Value != nil {
			v = r.literal(elem.Value)
		}
		// llmsh: the element is a word as any other there: its
		// subscript expanded too, += kept ([$i]+=v is "[2]+=v").
		op := "="
		if elem.Append {
			op = "+="
		}
		return "[" + r.assocKey(elem.Index) + "]" + op + v
	}
	if elem.Value == nil {
		return ""
	}
	return r.literal(elem.Value)
}

// readonlyToArray makes a readonly scalar vr an array of valType's kind
// (-a, -A) before declare -a r=(…) is refused, as bash's declare makes
// the array before it assigns (its value becomes element 0).
func (r *Runner) readonlyToArray(builtin, name string, vr expand.Variable, valType string) {
	if (valType != "-a" && valType != "-A") || (vr.Kind != expand.String && vr.Kind != expand.Unknown) {
		return
	}
	naked := &syntax.Assign{Naked: true, Name: &syntax.Lit{Value: name}}
	if !r.declKind(builtin, name, &vr, valType, naked) {
		return
	}
	if o, ok := r.writeEnv.(*overlayEnviron); ok {
		o.set(name, vr, true)
	}
}

// writtenSubscript is a subscript's text between its brackets as the
// script wrote it (a[1 << -1], a[ -5 ]), as bash names it; its printed
// form when the text at hand is not where it was parsed (llmsh).
func (r *Runner) writtenSubscript(idx syntax.ArithmExpr) string {
	printed := subscriptText(idx)
	src := r.text.src
	from, to := int(idx.Pos().Offset()), int(idx.End().Offset())
	if from >= to || to > len(src) {
		return printed
	}
	for from > 0 && (src[from-1] == ' ' || src[from-1] == '\t') {
		from--
	}
	for to < len(src) && (src[to] == ' ' || src[to] == '\t') {
		to++
	}
	text := src[from:to]
	squeeze := func(s string) string { return strings.Join(strings.Fields(s), "") }
	if from == 0 || src[from-1] != '[' || to >= len(src) || src[to] != ']' || squeeze(text) != squeeze(printed) {
		return printed
	}
	return text
}

// emptyPairKey reports a key of m=(k1 v1 …) that expands to nothing
// as bash's assign_assoc_from_kvlist: the word as written (declare's
// arguments are expanded first, so it is two single quotes).
func (r *Runner) emptyPairKey(elem *syntax.ArrayElem) {
	text := "''"
	out := r.stderr
	if r.declaring {
		if r.cmdErr != nil {
			out = r.cmdErr
		}
	} else if elem.Value != nil {
		text = wordText(elem.Value)
	}
	fmt.Fprintf(out, "%s%s: bad array subscript\n", r.errPrefix(), text)
}

// assocKey is the key an associative array's subscript names: the
// parser may have read it as arithmetic, and a key is its text, the words
// in it expanded (expand.AssocKey).
func (r *Runner) assocKey(idx syntax.ArithmExpr) string {
	str, err := expand.AssocKey(r.ecfg, idx)
	r.expandErr(err)
	return str
}

// bornKey numbers key k as the newest of an associative array whose
// numbers are born (llmsh: expand.Variable.Born), which it returns.
func (r *Runner) bornKey(born map[string]uint64, k string) map[string]uint64 {
	if born == nil {
		born = make(map[string]uint64)
	}
	r.births++
	born[k] = r.births
	return born
}

// subscriptText prints a subscript as written.
func subscriptText(idx syntax.ArithmExpr) string { return expand.SubscriptText(idx) }

// varSet reports whether [[ -v X ]] holds: X names a set variable, or a
// set element (a[i], m[k]), namerefs followed.
func (r *Runner) varSet(x string) bool {
	param, index, ok := expand.ParseRef(x)
	if !ok {
		return false
	}
	pe := &syntax.ParamExp{Param: param, Index: index,
		Exp: &syntax.Expansion{Op: syntax.AlternateUnset, Word: &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: "1"}}}}}
	s, err := expand.Literal(r.ecfg, &syntax.Word{Parts: []syntax.WordPart{pe}})
	if ae, ok := err.(*expand.ArithmError); ok && ae.Fatal {
		r.expandErr(ae) // llmsh: [[ -v a[1/0] ]] ends the shell, as bash
	}
	return err == nil && s == "1"
}

// appendString returns old+s. When old is the value the last append made
// (s+=x in a loop), s goes into the same buffer, after its end, which the
// strings already handed out do not cover: a loop of appends costs time
// linear in the result, not quadratic. The comparison is by content (Go
// compares the same backing array in constant time), so a value that only
// looks like the buffer's is still appended to correctly.
// appendFits reports whether a value of old bytes with s more appended
// is within the bound on one value; past it the run stops, as for any
// value (llmsh, session 31: x+=$y was not checked, so a loop of
// appends grew one string to the memory limit, and one append made a
// value of twice the bound).
func (r *Runner) appendFits(old, s int) bool {
	if max := r.llmsh.maxValue; max > 0 && old+s > max {
		r.expandErr(expand.ValueTooLargeError{Limit: max})
		return false
	}
	return true
}

// appendedLen is the length of the value that x+=v appends to: x's, its
// element 0 for an indexed array, its key "0" for an associative one.
func appendedLen(prev expand.Variable) int {
	switch prev.Kind {
	case expand.Indexed:
		e, _ := internal.IndexedElem(prev.List, prev.Indexes, 0)
		return len(e)
	case expand.Associative:
		return len(prev.Map["0"])
	}
	return len(prev.Str)
}

func (r *Runner) appendString(old, s string) string {
	if len(old) < 64 {
		return old + s
	}
	b := r.appendBuf
	if b == nil || b.Len() != len(old) || b.String() != old {
		b = new(strings.Builder)
		b.Grow(2 * (len(old) + len(s)))
		b.WriteString(old)
		r.appendBuf = b
	}
	b.WriteString(s)
	return b.String()
}

// exportGen counts the changes to exported variables, in every runner
// (llmsh): a store of a variable that was or becomes exported, an unset
// of one. [HandlerContext.Exported] keeps its list while this count is
// the same and the scopes that made the list are still there.
var exportGen atomic.Uint64

// exportEpoch numbers the lists that [HandlerContext.Exported] makes, in
// every runner (llmsh: see [overlayEnviron.expEpoch]).
var exportEpoch atomic.Uint64

// exportCache is the list [HandlerContext.Exported] made last: at
// exportGen gen, from the scopes chain (innermost first; the outermost
// one's parent, the runner's initial environment, does not change), of
// which contrib are those that put, replaced or removed a name in it.
type exportCache struct {
	gen     uint64
	chain   []*overlayEnviron
	contrib []*overlayEnviron
	list    []string
	// seen is each chain scope's exportSeq when the list was last
	// brought up to date; base the exported variables of the outermost
	// scope's parent, "NAME" to value.
	seen []uint64
	base map[string]string
	// epoch stamps the scopes of chain (llmsh: see
	// [overlayEnviron.expEpoch]); minContrib is the least index in chain
	// of a scope of contrib, len(chain) when none.
	epoch      uint64
	minContrib int
}

// Exported lists the exported variables, "NAME=value", sorted, as a
// command run by the exec handler gets them in its environment (llmsh).
// Outer scopes come first, so a later entry for a name (a VAR=value
// prefix, a local, an unset) replaces an earlier one.
//
// The list is kept, as bash keeps its export environment, while no
// exported variable changes: a scope that came since (a function's call)
// has stored no exported variable (or it would have counted in
// exportGen), so it adds nothing; the list is made again when a scope
// that added to it is gone. Making it for every command was most of the
// cost of a builtin in a loop. The caller must not change the list.
func (hc HandlerContext) Exported() []string {
	r := hc.runner
	if r != nil && hc.kind == handlerKindExec && r.execNoEnv {
		return nil // llmsh: exec -c
	}
	if r == nil {
		return exportedList(hc.Env)
	}
	o, ok := r.writeEnv.(*overlayEnviron)
	if !ok {
		return exportedList(hc.Env)
	}
	gen := exportGen.Load()
	c := &r.exports
	if c.list != nil && c.valid(o, gen) && (c.gen == gen || c.update(gen)) {
		return r.exportedFuncs(r.withDynExports(c.list)) // llmsh: funcenv.go
	}
	c.gen, c.chain, c.contrib, c.seen = gen, c.chain[:0], c.contrib[:0], c.seen[:0]
	vals := map[string]string{}
	for {
		c.chain = append(c.chain, o)
		c.seen = append(c.seen, o.exportSeq())
		po, ok := o.parent.(*overlayEnviron)
		if !ok {
			if o.parent != nil {
				o.parent.Each(func(name string, vr expand.Variable) bool {
					exportedPut(vals, name, vr)
					return true
				})
			}
			break
		}
		o = po
	}
	c.base = maps.Clone(vals)
	c.epoch, c.minContrib = exportEpoch.Add(1), len(c.chain)
	for i, o := range slices.Backward(c.chain) {
		o.expEpoch, o.expIdx, o.expGen = c.epoch, i, 0
		added := false
		for _, vr := range o.values {
			added = exportedPut(vals, vr.Name, vr.Variable) || added
		}
		if added {
			c.contrib = append(c.contrib, o)
			c.minContrib = i
		}
	}
	c.list = exportedSorted(vals)
	return r.exportedFuncs(r.withDynExports(c.list))
}

// update brings the kept list up to date, at gen, with the stores and
// unsets that the scopes it was made from have logged since: only the
// names they name are looked up again, and the list is copied, not made
// again (llmsh, session 27: with 300,000 exported variables, every
// command after an `export x=$i` made the list anew, 0.3-1.4 s of work
// that no context could stop). It reports false, leaving the list to be
// made again, when a scope's log no longer goes back that far or when
// more names changed than making it again would cost.
func (c *exportCache) update(gen uint64) bool {
	var names []string
	for i, o := range c.chain {
		seq := o.exportSeq()
		if c.seen[i] == seq {
			continue
		}
		if c.seen[i] < o.exportBase {
			return false
		}
		names = append(names, o.exportLog[c.seen[i]-o.exportBase:]...)
		if !slices.Contains(c.contrib, o) {
			c.contrib = append(c.contrib, o) // its end drops the list
			c.minContrib = min(c.minContrib, i)
		}
	}
	if len(names) > max(64, len(c.list)/16) {
		return false
	}
	list, own := c.list, false
	for _, name := range names {
		key := name + "="
		i, _ := slices.BinarySearch(list, key) // "NAME=" sorts first of NAME's, and apart from other names'
		has := i < len(list) && strings.HasPrefix(list[i], key)
		v, ok := c.valueOf(name)
		if ok && has && list[i][len(key):] == v || !ok && !has {
			continue
		}
		if !own {
			// Callers may hold the old list: it is never changed.
			list, own = slices.Grow(slices.Clone(list), len(names)), true
		}
		switch {
		case !ok:
			list = slices.Delete(list, i, i+1)
		case has:
			list[i] = key + v
		default:
			list = slices.Insert(list, i, key+v)
		}
	}
	c.list, c.gen = list, gen
	for i, o := range c.chain {
		c.seen[i] = o.exportSeq()
	}
	return true
}

// valueOf is name's value in the exported list made from the scopes of
// c.chain, as Exported makes it; ok is false when the list has none.
func (c *exportCache) valueOf(name string) (v string, ok bool) {
	vals := map[string]string{}
	if bv, ok := c.base[name]; ok {
		vals[name] = bv
	}
	for _, o := range slices.Backward(c.chain) {
		if vr, ok := o.values[o.normalize(name)]; ok {
			exportedPut(vals, name, vr.Variable)
		}
	}
	v, ok = vals[name]
	return v, ok
}

// withDynExports is list with the exported dynamic variables (dynExport)
// and their values now; list itself when there are none (llmsh).
func (r *Runner) withDynExports(list []string) []string {
	if len(r.dynExported) == 0 {
		return list
	}
	out := slices.Clone(list)
	for _, name := range slices.Sorted(maps.Keys(r.dynExported)) {
		if r.dynGone[name] {
			continue
		}
		vr := r.lookupVar(name)
		if !vr.IsSet() || vr.Kind != expand.String {
			continue
		}
		out = slices.DeleteFunc(out, func(kv string) bool { return strings.HasPrefix(kv, name+"=") })
		out = append(out, name+"="+vr.String())
	}
	slices.Sort(out)
	return out
}

// valid reports whether the scopes from o out make the same list as the
// one kept: each scope is one the list was made from, or one that has
// never held an exported variable; each that added to it is there; the
// outermost is the same.
//
// llmsh: the scopes are stamped (expEpoch), so that the walk stops at
// the first of the chain, whose own chain is the rest of the list's
// (parents do not change); a scope found to add nothing is stamped
// too, for as long as no exported variable changes (gen), so that a
// recursion n functions deep walks each scope once, not n times (it
// took n² steps with a builtin at each level).
func (c *exportCache) valid(o *overlayEnviron, gen uint64) bool {
	start := o
	for o.expEpoch != c.epoch || o.expGen != 0 && o.expGen != gen+1 {
		if o.exports {
			return false
		}
		po, ok := o.parent.(*overlayEnviron)
		if !ok {
			return false // not the same outermost scope
		}
		o = po
	}
	idx := o.expIdx
	if idx > c.minContrib {
		return false // a scope that added to the list is gone
	}
	for s := start; s != o; s = s.parent.(*overlayEnviron) {
		s.expEpoch, s.expIdx, s.expGen = c.epoch, idx, gen+1
	}
	return true
}

// exportedPut records name's variable in vals, the exported list being
// made, and reports whether that changed the list.
func exportedPut(vals map[string]string, name string, vr expand.Variable) bool {
	// llmsh: as bash, arrays are not exported, and an exported nameref
	// exports the name it refers to.
	if vr.Exported && vr.IsSet() && (vr.Kind == expand.String || vr.Kind == expand.NameRef) {
		vals[name] = vr.Str
		return true
	}
	if vr.Local && !vr.IsSet() {
		// llmsh: a local with no value (local e, or one unset) hides
		// nothing of the environment: a caller's exported e is still
		// there, as bash's (its invisible variables are skipped).
		return false
	}
	if _, ok := vals[name]; ok {
		delete(vals, name)
		return true
	}
	return false
}

// exportedList makes [HandlerContext.Exported]'s list from env.
func exportedList(env expand.Environ) []string {
	vals := map[string]string{}
	env.Each(func(name string, vr expand.Variable) bool {
		exportedPut(vals, name, vr)
		return true
	})
	return exportedSorted(vals)
}

// exportedSorted is the list of vals' "NAME=value", sorted, never nil.
func exportedSorted(vals map[string]string) []string {
	out := make([]string, 0, len(vals))
	for name, v := range vals {
		out = append(out, name+"="+v)
	}
	slices.Sort(out)
	return slices.Clip(out)
}

// badSubscript fails an assignment to an element whose subscript names
// none (a[]=v, a[@]=v): the line is abandoned with status 1, as bash's,
// but for a declaration builtin, which goes on to its next argument.
func (r *Runner) badSubscript() {
	r.exit.code = 1
	if r.declVariant == "" && !r.builtinAssign {
		r.exit.exiting, r.exit.abandon = true, true
	} else {
		r.reportPending = true // llmsh
	}
}

// allSubscript reports whether index is the unquoted @ or * of a[@]=v,
// which names no one element (llmsh).
func allSubscript(index syntax.ArithmExpr) bool {
	w, ok := index.(*syntax.Word)
	if !ok || len(w.Parts) != 1 {
		return false
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	return ok && (lit.Value == "@" || lit.Value == "*")
}

// emptySubscript reports whether index is the empty one of a[]=v.
func emptySubscript(index syntax.ArithmExpr) bool {
	w, ok := index.(*syntax.Word)
	if !ok || len(w.Parts) != 1 {
		return false
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	return ok && lit.Value == ""
}

// funcLocalNames returns the normalized names of the running function's
// own locals as env sees them, in the function's scope or in a subshell
// of it (whose scopes lie above the function's, or copy it), and false
// outside functions. llmsh: bash's subshells keep the function's scope.
func funcLocalNames(env expand.Environ) (map[string]bool, bool) {
	names := map[string]bool{}
	for {
		ov, ok := env.(*overlayEnviron)
		if !ok || ov == nil {
			return nil, false
		}
		if ov.funcLocals != nil {
			for name := range ov.funcLocals {
				if ov.values[name].Local {
					names[name] = true
				}
			}
			return names, true
		}
		for name, vr := range ov.values {
			if vr.Local {
				names[name] = true
			}
		}
		if ov.funcScope {
			return names, true
		}
		env = ov.parent
	}
}

// setDotGlob sets the dotglob option, for the expansions that follow at
// once (llmsh: GLOBIGNORE).
func (r *Runner) setDotGlob(on bool) {
	r.snapBashOpts()
	r.opts[optDotGlob] = on
	if r.ecfg != nil {
		r.ecfg.DotGlob = on
	}
}

// selfRef is the global scope when name is a function's local nameref
// that names itself (local -n q=q), where bash's assignments to it go,
// else nil.
func (r *Runner) selfRef(name string) *overlayEnviron {
	if vr := r.lookupVar(name); vr.Kind != expand.NameRef || vr.Str != name || !vr.Local {
		return nil
	}
	return r.globalScope()
}

// circularRef reports whether name is a nameref whose chain of names
// comes back to a name already met (declare -n a=b b=a).
func (r *Runner) circularRef(name string) bool {
	vr := r.lookupVar(name)
	seen := map[string]bool{name: true}
	for vr.Kind == expand.NameRef && syntax.ValidName(vr.Str) {
		if seen[vr.Str] {
			return true
		}
		seen[vr.Str] = true
		vr = r.lookupVar(vr.Str)
	}
	return false
}

// fixedIndex is the subscript of an indexed array's element evaluated
// once, as a number, for a[i++]+=v, which reads the element and assigns
// it (llmsh); an associative array's key and a[@] are left as they are.
// ok is false after an arithmetic error, which was reported.
func (r *Runner) fixedIndex(name string, index syntax.ArithmExpr) (_ syntax.ArithmExpr, ok bool) {
	if vr := r.lookupVar(name); vr.Kind == expand.Associative || allSubscript(index) || emptySubscript(index) {
		return index, true
	}
	if w, isWord := index.(*syntax.Word); isWord {
		if _, err := strconv.Atoi(w.Lit()); err == nil {
			return index, true // a number already: its text kept for messages
		}
	}
	k, ok := r.arithm(index)
	if !ok {
		return nil, false
	}
	if k < 0 {
		// Counted from the end; named as written when it is out of
		// range (a[i-10]: bad array subscript), which is reported when
		// it is assigned. A scalar is element 0 of the array bash
		// makes of it first (V=abc; V[-1]+=m is abcm).
		last := -1
		switch vr := r.lookupVar(name); {
		case vr.Kind == expand.Indexed:
			last = internal.IndexedMax(vr.List, vr.Indexes)
		case vr.Kind == expand.String && vr.IsSet():
			last = 0
		}
		if k += last + 1; k < 0 || last < 0 {
			return index, true
		}
	}
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: strconv.Itoa(k)}}}, true
}

// elemForAppend is ${name[index]}, the element that a[i]+=v appends to
// (llmsh): an unset element is empty, also under set -u, as in bash
// (declare -A d; set -u; d[k]+=v gave "d[k]: unbound variable").
func (r *Runner) elemForAppend(name string, index syntax.ArithmExpr) (string, bool) {
	nounset, warn := r.ecfg.NoUnset, r.ecfg.Warn
	// llmsh: a[-9]+=x is reported once, by the assignment, as bash.
	r.ecfg.NoUnset, r.ecfg.Warn = false, nil
	defer func() { r.ecfg.NoUnset, r.ecfg.Warn = nounset, warn }()
	s := r.literal(&syntax.Word{Parts: []syntax.WordPart{&syntax.ParamExp{
		Param: &syntax.Lit{Value: name}, Index: index}}})
	// llmsh: an error in the subscript (a[x y]+=1) was reported; the
	// assignment is not made, nor the error said again.
	return s, !r.exit.exiting
}

// unsetRefWords tells, for each of unset's n arguments, whether its word
// as written is an array reference (NAME[…], bash's W_ARRAYREF), whose
// subscript is not expanded again: nil when the words do not give one
// field each (llmsh).
func (r *Runner) unsetRefWords(n int) []bool {
	ce, ok := r.node.(*syntax.CallExpr)
	if !ok || len(ce.Args) != n+1 {
		return nil
	}
	refs := make([]bool, n)
	for i, w := range ce.Args[1:] {
		var lead strings.Builder // the leading literal text
		for _, wp := range w.Parts {
			lit, ok := wp.(*syntax.Lit)
			if !ok {
				break
			}
			lead.WriteString(lit.Value)
		}
		name, _, found := strings.Cut(lead.String(), "[")
		last, ok := w.Parts[len(w.Parts)-1].(*syntax.Lit)
		refs[i] = found && syntax.ValidName(name) && ok && strings.HasSuffix(last.Value, "]")
	}
	return refs
}
