// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// llmsh: bash's programmable completion builtins. complete and compopt
// keep one spec per command name in the runner; compgen generates the
// words a spec (or its own options) gives, as bash 5.2 does in a script.
// The REPL's Tab completion asks [Runner.CompleteSpec] for a command's
// spec.

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// compActions are bash's completion actions, in the order bash generates
// them (alphabetical); letter is the short option, if there is one.
var compActions = []struct {
	name   string
	letter byte
}{
	{"alias", 'a'}, {"arrayvar", 0}, {"binding", 0}, {"builtin", 'b'},
	{"command", 'c'}, {"directory", 'd'}, {"disabled", 0}, {"enabled", 0},
	{"export", 'e'}, {"file", 'f'}, {"function", 0}, {"group", 'g'},
	{"helptopic", 0}, {"hostname", 0}, {"job", 'j'}, {"keyword", 'k'},
	{"running", 0}, {"service", 's'}, {"setopt", 0}, {"shopt", 0},
	{"signal", 0}, {"stopped", 0}, {"user", 'u'}, {"variable", 'v'},
}

// compOptions are complete's -o options, in bash's (alphabetical) order.
var compOptions = []string{"bashdefault", "default", "dirnames", "filenames", "noquote", "nosort", "nospace", "plusdirs"}

// compArgOrder is the order complete -p prints the options with a value.
const compArgOrder = "GWPSXCF"

// The names complete -D, -E and -I keep their specs under, as bash.
const (
	compDefault = "_DefaultCmD_"
	compEmpty   = "_EmptycmD_"
	compInitial = "_InitialWorD_"
)

// compSpec is one completion specification. It is not changed once
// stored: compopt stores a changed copy (subshells share specs).
type compSpec struct {
	actions map[string]bool
	options map[string]bool
	args    map[byte]string // G W P S X C F
	seq     int             // when the name got its first spec, for -p's order
}

func (cs *compSpec) clone() *compSpec {
	return &compSpec{actions: maps.Clone(cs.actions), options: maps.Clone(cs.options), args: maps.Clone(cs.args), seq: cs.seq}
}

const (
	compgenUsage  = "compgen [-abcdefgjksuv] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [word]"
	completeUsage = "complete [-abcdefgjksuv] [-pr] [-DEI] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [name ...]"
	compoptUsage  = "compopt [-o|+o option] [-DEI] [name ...]"
)

// parseCompSpec reads the options compgen and complete share into a
// spec; flags gets the letters of extra (complete's -p -r -D -E -I).
func (r *Runner) parseCompSpec(name string, args []string, extra, usage string) (cs *compSpec, flags string, rest []string, st exitStatus, ok bool) {
	opts, rest, bad, problem := bashOpts(args, "abcdefgjksuvA:o:G:W:F:C:X:P:S:"+extra, false)
	if bad != "" {
		return nil, "", nil, r.usageFail(name, bad, problem, usage), false
	}
	cs = &compSpec{actions: map[string]bool{}, options: map[string]bool{}, args: map[byte]string{}}
	for _, o := range opts {
		switch {
		case o.c == 'A':
			if !slices.ContainsFunc(compActions, func(a struct {
				name   string
				letter byte
			}) bool {
				return a.name == o.value
			}) {
				r.errf("%s%s: %s: invalid action name\n", r.errPrefix(), name, o.value)
				return nil, "", nil, exitStatus{code: 2}, false
			}
			cs.actions[o.value] = true
		case o.c == 'o':
			if !slices.Contains(compOptions, o.value) {
				r.errf("%s%s: %s: invalid option name\n", r.errPrefix(), name, o.value)
				return nil, "", nil, exitStatus{code: 2}, false
			}
			cs.options[o.value] = true
		case strings.IndexByte(compArgOrder, o.c) >= 0:
			cs.args[o.c] = o.value
		case strings.IndexByte(extra, o.c) >= 0:
			flags += string(o.c)
		default:
			for _, a := range compActions {
				if a.letter == o.c {
					cs.actions[a.name] = true
				}
			}
		}
	}
	return cs, flags, rest, exitStatus{}, true
}

// builtinComplete is bash's complete: it stores, prints (-p) and removes
// (-r) specs.
func (r *Runner) builtinComplete(args []string) exitStatus {
	cs, flags, names, st, ok := r.parseCompSpec("complete", args, "prDEI", completeUsage)
	if !ok {
		return st
	}
	for _, f := range flags {
		switch f {
		case 'D':
			names = append(names, compDefault)
		case 'E':
			names = append(names, compEmpty)
		case 'I':
			names = append(names, compInitial)
		}
	}
	switch {
	case strings.Contains(flags, "r"):
		return r.removeCompSpecs(names)
	case strings.Contains(flags, "p") || (len(args) == 0):
		return r.printCompSpecs(names)
	case len(names) == 0:
		r.errf("complete: usage: %s\n", completeUsage)
		return exitStatus{code: 2}
	}
	if r.compSpecs == nil {
		r.compSpecs = map[string]*compSpec{}
	}
	for _, n := range names {
		c := cs.clone()
		if old := r.compSpecs[n]; old != nil {
			c.seq = old.seq
		} else {
			c.seq = r.nextCompSeq()
		}
		r.compSpecs[n] = c
	}
	return exitStatus{}
}

// removeCompSpecs is complete -r: the named specs go, or all of them. A
// name without a spec is an error once there has been a spec, as bash's
// table exists from the first.
func (r *Runner) removeCompSpecs(names []string) exitStatus {
	var exit exitStatus
	if len(names) == 0 && r.compSpecs != nil {
		r.compSpecs = map[string]*compSpec{}
	}
	for _, n := range names {
		if _, ok := r.compSpecs[n]; !ok && r.compSpecs != nil {
			r.errf("%scomplete: %s: no completion specification\n", r.errPrefix(), n)
			exit.code = 1
		}
		delete(r.compSpecs, n)
	}
	return exit
}

func (r *Runner) nextCompSeq() int {
	n := 0
	for _, cs := range r.compSpecs {
		n = max(n, cs.seq)
	}
	return n + 1
}

// compHash is bash's hash_string (FNV-1), whose buckets set the order in
// which complete -p lists the specs.
func compHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h *= 16777619
		h ^= uint32(int8(s[i])) // bash's char is signed: é's bytes extend
	}
	return h
}

// printCompSpecs is complete -p: the named specs, or all in bash's order
// (its hash table's 512 buckets in turn, the latest first in each).
func (r *Runner) printCompSpecs(names []string) exitStatus {
	var exit exitStatus
	if len(names) == 0 {
		names = slices.Collect(maps.Keys(r.compSpecs))
		slices.SortFunc(names, func(a, b string) int {
			ha, hb := compHash(a)&511, compHash(b)&511
			if ha != hb {
				return int(ha) - int(hb)
			}
			return r.compSpecs[b].seq - r.compSpecs[a].seq
		})
	}
	for _, n := range names {
		cs := r.compSpecs[n]
		if cs == nil {
			r.errf("%scomplete: %s: no completion specification\n", r.errPrefix(), n)
			exit.code = 1
			continue
		}
		r.outf("%s\n", cs.text(n))
	}
	return exit
}

// text is the spec as complete -p prints it.
func (cs *compSpec) text(name string) string {
	var b strings.Builder
	b.WriteString("complete ")
	for _, o := range compOptions {
		if cs.options[o] {
			b.WriteString("-o " + o + " ")
		}
	}
	for _, a := range compActions {
		if cs.actions[a.name] && a.letter != 0 {
			b.WriteString("-" + string(a.letter) + " ")
		}
	}
	for _, a := range compActions {
		if cs.actions[a.name] && a.letter == 0 {
			b.WriteString("-A " + a.name + " ")
		}
	}
	for _, c := range []byte(compArgOrder) {
		v, ok := cs.args[c]
		switch {
		case !ok:
		case c == 'F':
			b.WriteString("-F " + v + " ")
		default:
			b.WriteString("-" + string(c) + " " + singleQuote(v) + " ")
		}
	}
	switch name {
	case compDefault:
		b.WriteString("-D")
	case compEmpty:
		b.WriteString("-E")
	case compInitial:
		b.WriteString("-I")
	default:
		if strings.ContainsAny(name, " \t\n'\"\\|&;()<>!{}*[]?^$`") || strings.HasPrefix(name, "~") || strings.HasPrefix(name, "#") {
			name = singleQuote(name)
		}
		b.WriteString(name)
	}
	return b.String()
}

// singleQuote is bash's sh_single_quote.
func singleQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// builtinCompopt is bash's compopt. Outside a completion function it
// needs a name (or -D, -E, -I); without -o or +o it prints the options.
func (r *Runner) builtinCompopt(args []string) exitStatus {
	opts, names, bad, problem := bashOpts(args, "o:DEI", true)
	if bad != "" {
		return r.usageFail("compopt", bad, problem, compoptUsage)
	}
	set, unset := map[string]bool{}, map[string]bool{}
	for _, o := range opts {
		switch o.c {
		case 'o':
			if !slices.Contains(compOptions, o.value) {
				r.errf("%scompopt: %s: invalid option name\n", r.errPrefix(), o.value)
				return exitStatus{code: 2}
			}
			if o.plus {
				unset[o.value] = true
				delete(set, o.value)
			} else {
				set[o.value] = true
				delete(unset, o.value)
			}
		case 'D':
			names = append(names, compDefault)
		case 'E':
			names = append(names, compEmpty)
		case 'I':
			names = append(names, compInitial)
		}
	}
	if len(names) == 0 {
		r.errf("%scompopt: not currently executing completion function\n", r.errPrefix())
		return exitStatus{code: 1}
	}
	var exit exitStatus
	for _, n := range names {
		cs := r.compSpecs[n]
		if cs == nil {
			r.errf("%scompopt: %s: no completion specification\n", r.errPrefix(), n)
			exit.code = 1
			continue
		}
		if len(set)+len(unset) == 0 {
			var b strings.Builder
			b.WriteString("compopt ")
			for _, o := range compOptions {
				b.WriteString(map[bool]string{true: "-o ", false: "+o "}[cs.options[o]] + o + " ")
			}
			r.outf("%s%s\n", b.String(), n)
			continue
		}
		cs = cs.clone()
		maps.Copy(cs.options, set)
		for o := range unset {
			delete(cs.options, o)
		}
		r.compSpecs[n] = cs
	}
	return exit
}

// builtinCompgen is bash's compgen: the words its options generate that
// start with WORD, one a line; status 1 when there are none.
func (r *Runner) builtinCompgen(ctx context.Context, args []string) exitStatus {
	cs, _, rest, st, ok := r.parseCompSpec("compgen", args, "", compgenUsage)
	if !ok {
		return st
	}
	word := ""
	if len(rest) > 0 {
		word = rest[0]
	}
	if len(cs.actions)+len(cs.options)+len(cs.args) == 0 {
		return exitStatus{}
	}
	for _, o := range "FC" {
		if _, ok := cs.args[byte(o)]; ok {
			r.errf("%scompgen: warning: -%c option may not work as you expect\n", r.errPrefix(), o)
		}
	}
	words := r.compWords(ctx, cs, "compgen", word, "")
	for _, w := range words {
		r.outf("%s\n", w)
	}
	if len(words) == 0 {
		return exitStatus{code: 1}
	}
	return exitStatus{}
}

// CompleteSpec returns the words the completion spec of command cmd gives
// for word (prev is the word before it), and whether cmd has a spec; the
// REPL's Tab completion asks it.
func (r *Runner) CompleteSpec(ctx context.Context, cmd, word, prev string) ([]string, bool) {
	if !r.didReset {
		r.Reset()
	}
	cs := r.compSpecs[cmd]
	if cs == nil {
		if cs = r.compSpecs[compDefault]; cs == nil {
			return nil, false
		}
	}
	return r.compWords(ctx, cs, cmd, word, prev), true
}

// compWords generates a spec's words, as bash's gen_compspec_completions:
// the actions, -G, -W, -F, -C; then -X filters and -P and -S are added;
// -o dirnames, plusdirs and default add directories and files.
func (r *Runner) compWords(ctx context.Context, cs *compSpec, cmd, word, prev string) []string {
	var out []string
	for _, a := range compActions {
		if cs.actions[a.name] {
			out = append(out, r.compAction(ctx, a.name, word)...)
		}
	}
	if g, ok := cs.args['G']; ok {
		if fields, err := r.globFields(g); err == nil {
			out = append(out, fields...)
		}
	}
	if wl, ok := cs.args['W']; ok {
		for _, w := range r.compWordList(wl) {
			if strings.HasPrefix(w, word) {
				out = append(out, w)
			}
		}
	}
	if fn, ok := cs.args['F']; ok {
		out = append(out, r.compFunc(ctx, fn, cmd, word, prev)...)
	}
	if c, ok := cs.args['C']; ok {
		out = append(out, r.compCommand(ctx, c, cmd, word, prev)...)
	}
	if x, ok := cs.args['X']; ok {
		out = r.compFilter(out, x, word)
	}
	p, s := cs.args['P'], cs.args['S']
	for i := range out {
		out[i] = p + out[i] + s
	}
	if (len(out) == 0 && cs.options["dirnames"]) || cs.options["plusdirs"] {
		out = append(out, r.compFiles(ctx, word, true)...)
	}
	if len(out) == 0 && (cs.options["default"] || cs.options["bashdefault"]) {
		out = append(out, r.compFiles(ctx, word, false)...)
	}
	return out
}

// compFilter is -X: a word matching pat goes (with !pat, one not
// matching); & in pat is the word being completed.
func (r *Runner) compFilter(words []string, pat, word string) []string {
	neg := strings.HasPrefix(pat, "!")
	if neg {
		pat = pat[1:]
	}
	var b strings.Builder
	for i := 0; i < len(pat); i++ {
		switch {
		case pat[i] == '\\' && i+1 < len(pat) && pat[i+1] == '&':
			b.WriteString(`\&`)
			i++
		case pat[i] == '&':
			b.WriteString(word)
		default:
			b.WriteByte(pat[i])
		}
	}
	pat = b.String()
	var out []string
	for i, w := range words {
		if i%compCheck == compCheck-1 && r.compStopped() {
			return nil
		}
		if r.match(pat, w) == neg {
			out = append(out, w)
		}
	}
	return out
}

// compCheck is how many words -W's list and -X's filter take between two
// looks at the run's context (llmsh, session 25, red team: `compgen -W
// "${a[*]}" 1` of two million words answered a library Run with a
// 500 ms limit after 28.5 s, at load 30).
const compCheck = 1 << 12

// compStopped reports whether the run is stopped.
func (r *Runner) compStopped() bool { return r.ectx != nil && r.ectx.Err() != nil }

// compWordList is -W's list: split into words as the shell splits a
// command line, each expanded without word splitting or globbing.
func (r *Runner) compWordList(wl string) []string {
	var out []string
	for w, err := range syntax.NewParser().WordsSeq(strings.NewReader(wl)) {
		if err != nil {
			return expand.ReadFields(r.ecfg, wl, -1, true)
		}
		if len(out)%compCheck == compCheck-1 && r.compStopped() {
			return nil
		}
		s, err := expand.Literal(r.ecfg, w)
		if err != nil {
			return nil
		}
		out = append(out, s)
	}
	return out
}

// globFields is -G: the pattern's matches, or nothing.
func (r *Runner) globFields(pat string) ([]string, error) {
	var out []string
	for w, err := range syntax.NewParser().WordsSeq(strings.NewReader(pat)) {
		if err != nil {
			return nil, err
		}
		fields, err := expand.Fields(r.ecfg, w)
		if err != nil {
			return nil, err
		}
		if len(fields) == 1 && fields[0] == pat {
			continue // no match: the pattern as it is
		}
		out = append(out, fields...)
	}
	return out, nil
}

// compFunc is -F: the function runs with the command name, the word and
// the word before it; COMPREPLY's elements are the words.
func (r *Runner) compFunc(ctx context.Context, fn, cmd, word, prev string) []string {
	body := r.Funcs[fn]
	if body == nil {
		return nil
	}
	r.delVar("COMPREPLY")
	saved := r.exit
	r.call(ctx, syntax.Pos{}, []string{fn, cmd, word, prev})
	r.exit = saved
	vr := r.lookupVar("COMPREPLY")
	switch vr.Kind {
	case expand.Indexed:
		return slices.Clone(vr.List)
	case expand.String:
		if vr.IsSet() {
			return []string{vr.Str}
		}
	}
	return nil
}

// compCommand is -C: the command runs with the command name, the word and
// the word before it; each line it prints is a word.
func (r *Runner) compCommand(ctx context.Context, c, cmd, word, prev string) []string {
	src := c + " " + singleQuote(cmd) + " " + singleQuote(word) + " " + singleQuote(prev)
	file, err := r.parseText(src, "")
	if err != nil {
		return nil
	}
	out := &boundedBuilder{max: r.llmsh.maxValue}
	oldOut, saved := r.stdout, r.exit
	r.stdout = out
	r.stmts(ctx, file.Stmts)
	r.stdout, r.exit = oldOut, saved
	text := strings.TrimSuffix(out.String(), "\n")
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}

// bashKeywords are bash's reserved words in the order compgen -k lists them.
var bashKeywords = []string{"if", "then", "else", "elif", "fi", "case", "esac", "for", "select",
	"while", "until", "do", "done", "in", "function", "time", "{", "}", "!", "[[", "]]", "coproc"}

// compAction is one action's words starting with word.
func (r *Runner) compAction(ctx context.Context, action, word string) []string {
	var all []string
	switch action {
	case "directory":
		return r.compFiles(ctx, word, true)
	case "file":
		return r.compFiles(ctx, word, false)
	case "alias":
		all = slices.Sorted(maps.Keys(r.alias))
	case "arrayvar", "export", "variable":
		all = r.compVars(action)
	case "binding":
		all = slices.Sorted(maps.Keys(editorKeys()))
	case "builtin", "enabled":
		all = slices.DeleteFunc(slices.Clone(builtinNames), func(n string) bool { return r.disabled[n] })
	case "disabled":
		all = slices.DeleteFunc(slices.Clone(builtinNames), func(n string) bool { return !r.disabled[n] })
	case "command":
		all = slices.Sorted(maps.Keys(r.alias))
		all = append(all, bashKeywords...)
		all = append(all, r.funcNames("")...)
		all = append(all, r.compAction(ctx, "builtin", "")...)
		if r.llmsh.commands != nil {
			all = append(all, r.llmsh.commands()...)
		}
	case "function":
		all = r.funcNames("")
	case "group", "user":
		all = []string{virtualUser}
	case "helptopic":
		all = slices.Sorted(maps.Keys(helpTable()))
	case "job", "running":
		for _, j := range r.tableJobs() {
			if f := strings.Fields(j.text); len(f) > 0 {
				all = append(all, f[0])
			}
		}
	case "keyword":
		all = bashKeywords
	case "setopt":
		for _, o := range posixOptsTable {
			all = append(all, o.name)
		}
	case "shopt":
		for _, o := range bashOptsTable {
			all = append(all, o.name)
		}
	case "signal": // bash's list: its trap names too
		all = append(all, "EXIT")
		for n := 1; n <= sigMax; n++ {
			if name := signalName(n); name != "" {
				all = append(all, "SIG"+name)
			} else {
				all = append(all, fmt.Sprintf("SIGJUNK(%d)", n))
			}
		}
		all = append(all, "DEBUG", "ERR", "RETURN")
	}
	var out []string
	for _, w := range all {
		if strings.HasPrefix(w, word) {
			out = append(out, w)
		}
	}
	return out
}

// compVars lists the set variables, sorted: all of them, the arrays, or
// the exported ones.
func (r *Runner) compVars(action string) []string {
	vars := map[string]expand.Variable{}
	r.eachVar(func(name string, vr expand.Variable) bool {
		vars[name] = vr
		return len(vars)%compCheck != 0 || !r.compStopped() // llmsh
	})
	var out []string
	for name, vr := range vars {
		switch {
		case !vr.IsSet() || !syntax.ValidName(name):
		case action == "arrayvar" && vr.Kind != expand.Indexed && vr.Kind != expand.Associative:
		case action == "export" && !vr.Exported:
		default:
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// compFiles is readline's filename completion (only directories with
// dirs): the entries of word's directory that start with its last part,
// through the read-dir handler. . and .. are offered for a part
// starting with a dot, as readline offers them.
func (r *Runner) compFiles(ctx context.Context, word string, dirs bool) []string {
	dir, base := "", word
	if i := strings.LastIndexByte(word, '/'); i >= 0 {
		dir, base = word[:i+1], word[i+1:]
	}
	readDir := dir
	if readDir == "" {
		readDir = "."
	}
	entries, err := r.readDirHandler(r.handlerCtx(ctx, handlerKindReadDir, todoPos), r.absPath(readDir))
	if err != nil {
		return nil
	}
	var out []string
	if strings.HasPrefix(base, ".") {
		for _, dot := range []string{".", ".."} {
			if strings.HasPrefix(dot, base) {
				out = append(out, dir+dot)
			}
		}
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, base) {
			continue
		}
		if dirs && !r.isDirEntry(ctx, path.Join(r.absPath(readDir), name), e) {
			continue
		}
		out = append(out, dir+name)
	}
	return out
}

func (r *Runner) isDirEntry(ctx context.Context, full string, e fs.DirEntry) bool {
	if e.IsDir() {
		return true
	}
	if e.Type()&fs.ModeSymlink == 0 {
		return false
	}
	info, err := r.stat(ctx, full)
	return err == nil && info.IsDir()
}
