package expand

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/llmsh/llmsh/third_party/sh/internal"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
	"mvdan.cc/sh/v3/pattern"
)

// This file holds llmsh's additions to the expand package (see
// third_party/sh/LLMSH.md): bash's order of associative arrays, bash's
// expansion errors, and the parameter references of indirection and
// namerefs.

// ParamError is a parameter expansion that failed, with bash's message
// (`x: invalid indirect expansion`, `a: bad array subscript`). A
// non-interactive bash abandons the command it is running with status 1;
// the runner ends the shell, as `bash -c` does.
type ParamError struct {
	Msg string
	// Fatal ends the shell, not just the line (${s@Z}): with status 1,
	// or 127 for bash -c's own shell, as unset parameters do.
	Fatal bool
	// Status is the abandoned line's status when not 1 (2 for ${r:=x}
	// of a readonly r, as bash).
	Status uint8
	// node is the expansion a "bad substitution" is about, whose word
	// quotedBad names (${x@Z}, ${!$}).
	node *syntax.ParamExp
}

func (e ParamError) Error() string { return e.Msg }

// timeNow is the clock of prompt expansion.
var timeNow = time.Now

// bashHash is bash's hash_string (FNV-1, 32 bits), which places the keys
// of an associative array in its buckets.
func bashHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h *= 16777619
		h ^= uint32(int8(s[i])) // bash's char is signed: é's bytes extend
	}
	return h
}

// AssocKeys returns the keys of an associative array in the order bash
// 5.2 lists them (`${!m[@]}`, `${m[@]}`, `declare -p`): by bucket of
// bash's hash table (1024 buckets, four times more each time the table
// holds twice as many keys as buckets). Bash lists the keys of one bucket
// newest first: so does llmsh for the keys whose order of insertion it
// knows ([Variable.Born]), the others in byte order.
func (v Variable) AssocKeys() []string {
	keys, _ := v.assocKeysStop(context.TODO())
	return keys
}

// assocKeysStop is AssocKeys, looking at ctx (when not nil) every
// fieldsCheck keys: it gives up with ctx's error once the run is stopped.
// The keys are placed by a counting sort over the buckets, and sorted
// only within a bucket (llmsh, session 26, red team: one sort of all the
// keys, hashing both keys of each comparison and looking up their Born,
// looked at no context: `${!m[*]}` of a million keys kept a library Run
// with a 300 ms limit for 9.4 s, `${m[*]}` 4.9 s).
func (v Variable) assocKeysStop(ctx context.Context) ([]string, error) {
	stopped := func(i int) bool {
		return i%fieldsCheck == fieldsCheck-1 && ctx != nil && ctx.Err() != nil
	}
	n := len(v.Map)
	nb := uint32(1024)
	for uint32(n) > nb*2 {
		nb *= 4
	}
	type keyBucket struct {
		key    string
		bucket uint32
	}
	kbs := make([]keyBucket, 0, n)
	start := make([]int, nb+1) // a bucket's keys are keys[start[b]:start[b+1]]
	for k := range v.Map {
		if stopped(len(kbs)) {
			return nil, ctx.Err()
		}
		b := bashHash(k) & (nb - 1)
		kbs = append(kbs, keyBucket{k, b})
		start[b+1]++
	}
	for b := uint32(1); b <= nb; b++ {
		start[b] += start[b-1]
	}
	keys := make([]string, n)
	next := slices.Clone(start[:nb])
	for i, kb := range kbs {
		if stopped(i) {
			return nil, ctx.Err()
		}
		keys[next[kb.bucket]] = kb.key
		next[kb.bucket]++
	}
	for b := uint32(0); b < nb; b++ {
		if stopped(int(b)) {
			return nil, ctx.Err()
		}
		if bucket := keys[start[b]:start[b+1]]; len(bucket) > 1 {
			slices.SortFunc(bucket, func(a, b string) int {
				if na, nb := v.Born[a], v.Born[b]; na != nb && na != 0 && nb != 0 {
					if na > nb {
						return -1 // newest first
					}
					return 1
				}
				return strings.Compare(a, b)
			})
		}
	}
	return keys, nil
}

// assocKeys is vr's keys in bash's order, ending the expansion once the
// run is stopped.
func (cfg *Config) assocKeys(vr Variable) []string {
	keys, err := vr.assocKeysStop(cfg.Ctx)
	if err != nil {
		panic(valuePanic{err})
	}
	return keys
}

// assocValues returns the values of an associative array in the order of
// [Variable.AssocKeys], ending the expansion once the run is stopped.
func (cfg *Config) assocValues(vr Variable) []string {
	keys := cfg.assocKeys(vr)
	for i, k := range keys {
		keys[i] = vr.Map[k]
	}
	return keys
}

// ParseRef parses what a nameref or an indirect expansion names: a
// variable name, an element `name[subscript]`, a positional parameter
// (digits) or a special parameter (`@ * # ? - $ !`). ok is false for
// anything else, which bash calls an invalid variable name.
func ParseRef(s string) (param *syntax.Lit, index syntax.ArithmExpr, ok bool) {
	if s == "" {
		return nil, nil, false
	}
	if syntax.ValidName(s) {
		return &syntax.Lit{Value: s}, nil, true
	}
	switch s {
	case "@", "*", "#", "?", "-", "$", "!":
		return &syntax.Lit{Value: s}, nil, true
	}
	if strings.Trim(s, "0123456789") == "" {
		return &syntax.Lit{Value: s}, nil, true
	}
	i := strings.IndexByte(s, '[')
	if i <= 0 || !strings.HasSuffix(s, "]") || !syntax.ValidName(s[:i]) {
		return nil, nil, false
	}
	f, err := syntax.NewParser().Document(strings.NewReader("${" + s + "}"))
	if err != nil || len(f.Parts) != 1 {
		return nil, nil, false
	}
	pe, isPE := f.Parts[0].(*syntax.ParamExp)
	if !isPE || pe.Index == nil || pe.Exp != nil || pe.Repl != nil || pe.Slice != nil || pe.Excl || pe.Length {
		return nil, nil, false
	}
	return pe.Param, pe.Index, true
}

// resolveProbe is resolveParam for a look at what pe stands for before it
// is expanded: the warning of ${!x[-9]} (x: bad array subscript) is left
// to the expansion itself, so bash's one message is not repeated.
func (cfg *Config) resolveProbe(pe *syntax.ParamExp) (*syntax.ParamExp, error) {
	if pe != nil && pe.Excl && pe.Index != nil && cfg.Warn != nil {
		warn := cfg.Warn
		cfg.Warn = nil
		defer func() { cfg.Warn = warn }()
	}
	return cfg.resolveParam(pe)
}

// resolveParam gives the parameter expansion that pe stands for once its
// indirection and namerefs are followed: `${!x}` with x=a[2] is `${a[2]}`
// with pe's operators, a nameref to `a[1]` is `${a[1]}`. pe itself is
// returned when there is nothing to follow (and for `${!ref}` of a
// nameref, which gives the name it refers to).
func (cfg *Config) resolveParam(pe *syntax.ParamExp) (*syntax.ParamExp, error) {
	if pe.Bad != "" {
		// llmsh: a malformed ${…} that the parser kept, as bash.
		return nil, ParamError{Msg: pe.Bad + ": bad substitution"}
	}
	if pe == nil || pe.Param == nil {
		return pe, nil
	}
	if pe.Excl && pe.Names != 0 && !syntax.ValidName(pe.Param.Value) {
		// llmsh: ${!1*} names no prefix of a variable (bash).
		op := "*"
		if pe.Names == syntax.NamesPrefixWords {
			op = "@"
		}
		return nil, ParamError{Msg: "${!" + pe.Param.Value + op + "}: bad substitution"}
	}
	// llmsh: only ${!a[@]} and ${!a[*]} alone are a's keys: with an
	// operator (${!a[@]:1}, ${!a[*]#x}), a's value names the variable.
	withOp := pe.Exp != nil || pe.Repl != nil || pe.Slice != nil
	if pe.Excl && pe.Names == 0 && (!allIndex(pe.Index) || withOp) {
		name := pe.Param.Value
		vr := cfg.Env.Get(name)
		if vr.Kind == NameRef && pe.Index == nil {
			if vr.Str == "" || circularRef(cfg.Env, vr) {
				// declare -n q; ${!q}: a nameref that names nothing
				// or comes back to itself (bash).
				return nil, ParamError{Msg: name + ": invalid indirect expansion"}
			}
			return pe, nil // ${!ref}: the name
		}
		inner := &syntax.ParamExp{Dollar: pe.Dollar, Rbrace: pe.Rbrace, Param: pe.Param, Index: pe.Index}
		// set -u is applied below, to the indirection as bash names it
		// (`!x: unbound variable`, or no x at all: `x: invalid
		// indirect expansion`), not to x itself.
		noUnset := cfg.NoUnset
		cfg.NoUnset = false
		warn, warned, warnMsg := cfg.Warn, false, ""
		if cfg.negWarned == pe && cfg.negWarnedGen == cfg.randGen {
			cfg.Warn = nil // llmsh: reported once (negWarned)
		} else if warn != nil && pe.Index != nil {
			cfg.Warn = func(s string) { warned, warnMsg = true, s; warn(s) }
		}
		val, err := cfg.paramExp(inner)
		cfg.NoUnset = noUnset
		if warned {
			cfg.negWarned, cfg.negWarnedGen = pe, cfg.randGen
		}
		if err != nil {
			cfg.Warn = warn
			return nil, err
		}
		if val == "" && cfg.negWarned == pe && cfg.negWarnedGen == cfg.randGen {
			cfg.Warn = nil
		}
		defer func() { cfg.Warn = warn }()
		if val == "" {
			set := cfg.isSet(inner)
			if set && pe.Index == nil && (vr.Kind == Indexed || vr.Kind == Associative) {
				_, set, _ = cfg.varInd(vr, nil) // x=(): ${x} is unset
			}
			if allIndex(pe.Index) {
				// x=(): ${!x[@]:-w} is w; x=: ${!x[@]} names ""
				set = vr.IsSet() && (vr.Kind != Indexed && vr.Kind != Associative || len(vr.List)+len(vr.Map) > 0)
			}
			switch {
			case set:
				return nil, ParamError{Msg: ": invalid variable name"}
			case vr.Declared() && pe.Exp != nil && (pe.Exp.Op == syntax.AssignUnset || pe.Exp.Op == syntax.AssignUnsetOrNull):
				// declare x; ${!x:=w}: bash's assignment finds no
				// name to assign (parameter_brace_expand_rhs), which
				// looks the subscript up again (m=(); ${!m[-1]:=w}
				// says m: bad array subscript twice).
				if warnMsg != "" {
					warn(warnMsg)
				}
				return nil, ParamError{Msg: errorOpName(pe) + ": invalid indirect expansion"}
			case !vr.Declared() && syntax.ValidName(name):
				// An unset $2 or $! gives nothing, as bash.
				ref := name
				if pe.Index != nil {
					ref = name + "[" + SubscriptText(pe.Index) + "]"
				}
				return nil, ParamError{Msg: ref + ": invalid indirect expansion"}
			case cfg.NoUnset && !overridingUnset(pe):
				return nil, unboundIndirect(pe)
			}
			// declare x; ${!x}: nothing, as an unset variable gives
			// (${!x:-w} is w).
			npe := *pe
			npe.Excl = false // the unset x (or x[i]) itself
			return &npe, nil
		}
		param, index, ok := ParseRef(val)
		if !ok {
			return nil, ParamError{Msg: val + ": invalid variable name"}
		}
		npe := *pe
		npe.Excl, npe.Param, npe.Index = false, param, index
		if param.Value == "RANDOM" {
			cfg.drawRandomAt(pe.Param) // llmsh: ${!n} with n=RANDOM draws
			cfg.randDrawn(param)       // once: param is what n names
		}
		return cfg.resolveParam(&npe)
	}
	if pe.Excl || pe.Param.Value == "RANDOM" {
		// (llmsh: each Get of RANDOM draws a number; it is no nameref.)
		return pe, nil
	}
	vr := cfg.Env.Get(pe.Param.Value)
	if vr.Kind != NameRef {
		cfg.gotFor, cfg.got = pe, vr
		return pe, nil
	}
	ref, _ := vr.Resolve(cfg.Env)
	if ref == "RANDOM" {
		cfg.drawRandomAt(pe.Param) // llmsh: $r with r naming RANDOM draws
	}
	if ref == "" || syntax.ValidName(ref) {
		return pe, nil // followed by paramExp itself
	}
	if cfg.Env.Get(ref).Declared() {
		// llmsh: a variable named "a[0]" (bash's local r=v of a local
		// nameref r='a[0]' makes one) is what the nameref reaches.
		npe := *pe
		npe.Param = &syntax.Lit{ValuePos: pe.Param.ValuePos, ValueEnd: pe.Param.ValueEnd, Value: ref}
		return &npe, nil
	}
	param, index, ok := ParseRef(ref)
	if !ok || index == nil {
		return pe, nil
	}
	npe := *pe
	npe.Param = param
	if pe.Index != nil || pe.Length && !cfg.NoUnset {
		// llmsh: bash looks r[i] and ${#r} up as the variable named
		// "a[1]", which none is: ${r[@]} is empty, ${#r} 0 (set -u
		// takes ${#r} as the element's length).
		npe.Param, npe.Index = &syntax.Lit{ValuePos: pe.Param.ValuePos, ValueEnd: pe.Param.ValueEnd, Value: ref}, nil
		return &npe, nil
	}
	npe.Index = index
	// llmsh: a braced ${r} of a nameref to a[@] or a[*] is the
	// elements joined, a string its operators apply to (bash: "${r}"
	// is one word, ${r:1} cuts the joined text); $r is the list.
	npe.Joined = !pe.Short && pe.Index == nil && allIndex(index)
	return &npe, nil
}

// unboundIndirect is set -u's error for ${!x} (bash names it "!x").
func unboundIndirect(pe *syntax.ParamExp) error {
	ref := pe.Param.Value
	if pe.Index != nil {
		ref += "[" + SubscriptText(pe.Index) + "]" // !a[3]
	}
	return UnsetParameterError{
		Node:    &syntax.ParamExp{Param: &syntax.Lit{Value: "!" + ref}},
		Message: "unbound variable",
	}
}

// errorOpName names the parameter of ${P?W} or ${P:?W} in its message as
// bash does, with its subscript as written and the ! of an indirection
// (a[$i], !r); "" for a plain name (llmsh).
func errorOpName(pe *syntax.ParamExp) string {
	if pe.Index == nil && !pe.Excl {
		return ""
	}
	ref := pe.Param.Value
	if pe.Index != nil {
		ref += "[" + SubscriptText(pe.Index) + "]"
	}
	if pe.Excl {
		ref = "!" + ref
	}
	return ref
}

// isSet reports whether the parameter (or element) of pe is set.
func (cfg *Config) isSet(pe *syntax.ParamExp) bool {
	vr := cfg.Env.Get(pe.Param.Value)
	if _, v := vr.Resolve(cfg.Env); v.Kind != Unknown || v.Set {
		vr = v
	}
	if pe.Index == nil {
		return vr.IsSet()
	}
	_, set, err := cfg.varInd(vr, pe.Index)
	return err == nil && set
}

func allIndex(idx syntax.ArithmExpr) bool {
	switch nodeLit(idx) {
	case "@", "*":
		return true
	}
	return false
}

// SubscriptText prints a subscript as written.
func SubscriptText(idx syntax.ArithmExpr) string {
	if w, ok := idx.(*syntax.Word); ok {
		if lit := w.Lit(); lit != "" {
			return lit
		}
	}
	switch x := idx.(type) {
	case *syntax.UnaryArithm:
		if x.Post {
			return SubscriptText(x.X) + x.Op.String()
		}
		return x.Op.String() + SubscriptText(x.X)
	case *syntax.BinaryArithm:
		return SubscriptText(x.X) + x.Op.String() + SubscriptText(x.Y)
	case *syntax.ParenArithm:
		return "(" + SubscriptText(x.X) + ")"
	}
	var sb strings.Builder
	syntax.NewPrinter().Print(&sb, idx)
	return sb.String()
}

// replSeg is a piece of the replacement of ${v/pat/rep}: text, or (match)
// the text that the pattern matched.
type replSeg struct {
	text  string
	match bool
}

// replTemplate expands the replacement of ${v/pat/rep} as bash does:
// a backslash quotes the next character of an unquoted part, and, with
// patsub_replacement, an unquoted & (also one that an unquoted expansion
// gives) stands for the matched text.
func (cfg *Config) replTemplate(w *syntax.Word) ([]replSeg, error) {
	if w == nil {
		return nil, nil
	}
	oldRaw, oldHere := cfg.rawLits, cfg.hereDoc
	cfg.rawLits, cfg.hereDoc = true, false // llmsh: $'…' decoded there too
	cfg.markAt = cfg.PatsubReplacement
	field, err := cfg.wordField(w.Parts, quoteNone)
	cfg.rawLits, cfg.markAt, cfg.hereDoc = oldRaw, false, oldHere
	if err != nil {
		return nil, err
	}
	if cfg.PatsubReplacement {
		markNulls(field)
	}
	// The text is at most its parts together: past MaxValue it is
	// refused before it is built, as a word's parts are (fieldJoin).
	// ${big/#/$big$big…} built its 272 MiB a byte at a time, to 890 MB
	// of resident memory, before the result's size was checked.
	n := 0
	for _, fp := range field {
		n += len(fp.val)
	}
	if err := cfg.checkSize(n); err != nil {
		return nil, err
	}
	return replSegs(field, n, cfg.PatsubReplacement), nil
}

// replSegs cuts the expanded replacement of ${v/pat/rep} at each & that
// stands for the match, as bash 5.2 (llmsh). Without patsub_replacement
// a backslash of the word's own unquoted text quotes the next character
// and an expansion's text is kept as it is. With it, the unquoted text
// of a run of parts (literal text with its escapes of \ and & kept, the
// others removed; an expansion's text as it is) is read as one: \ is a
// backslash, \& an ampersand, & the match, another backslash itself
// (r='q\'; ${v/b/$r&} is q&; r='\x'; ${v/b/$r} is \x).
func replSegs(field []fieldPart, n int, patsub bool) []replSeg {
	var segs []replSeg
	var sb, run strings.Builder
	sb.Grow(n)
	flush := func() {
		if run.Len() == 0 {
			return
		}
		s := run.String()
		run.Reset()
		for i := 0; i < len(s); i++ {
			if j := strings.IndexAny(s[i:], `\&`); j != 0 {
				// the text up to the next backslash or &, at once
				if j < 0 {
					j = len(s) - i
				}
				sb.WriteString(s[i : i+j])
				i += j - 1
				continue
			}
			switch c := s[i]; {
			case c == '\\' && i+1 < len(s) && (s[i+1] == '\\' || s[i+1] == '&'):
				i++
				sb.WriteByte(s[i])
			case c == '&':
				segs = append(segs, replSeg{text: sb.String()}, replSeg{match: true})
				sb.Reset()
			default:
				sb.WriteByte(c)
			}
		}
	}
	for _, fp := range field {
		switch {
		case fp.quote != quoteNone:
			flush()
			sb.WriteString(fp.val)
		case fp.expanded && !patsub:
			sb.WriteString(fp.val)
		case fp.expanded:
			run.WriteString(fp.val)
		case patsub:
			unescapeRepl(&run, fp.val, true)
		default:
			unescapeRepl(&sb, fp.val, false)
		}
	}
	flush()
	return append(segs, replSeg{text: sb.String()})
}

// unescapeRepl writes s, unquoted literal text of a replacement, to b
// with its backslashes removed; keep keeps those before a backslash or
// & (for replSegs to read) (llmsh).
func unescapeRepl(b *strings.Builder, s string, keep bool) {
	for {
		i := strings.IndexByte(s, '\\')
		if i < 0 || i+1 >= len(s) {
			b.WriteString(s)
			return
		}
		b.WriteString(s[:i])
		if keep && (s[i+1] == '\\' || s[i+1] == '&') {
			b.WriteString(s[i : i+2])
		} else {
			b.WriteByte(s[i+1])
		}
		s = s[i+2:]
	}
}

// markNulls turns the NULs that joinMarked put for the empty elements of
// a replacement's quoted lists into \x7f, bash 5.2's quoted null
// (CTLNUL), which its pattern substitution leaves in the text under
// patsub_replacement: a=(x "" y); ${s/h/"${a[@]}"} is x, \x7f and
// yello. As bash's, the last element's mark goes when text follows it
// ("${a[@]}x").
func markNulls(field []fieldPart) {
	more := false // a later part has text
	for i := len(field) - 1; i >= 0; i-- {
		v := field[i].val
		if strings.IndexByte(v, 0) >= 0 {
			if more && v[len(v)-1] == 0 {
				v = v[:len(v)-1]
			}
			field[i].val = strings.ReplaceAll(v, "\x00", "\x7f")
		}
		more = more || field[i].val != ""
	}
}

// Quoter quotes as bash does in a locale (llmsh): Bytes is set in the C
// or POSIX locale, where bash takes every byte from 0x80 for a character
// it cannot print (é is $'\303\251'); else the text is UTF-8.
type Quoter struct{ Bytes bool }

// hasControl reports whether s holds a control character, which bash's
// quoting writes as $'…'.
func (q Quoter) hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
		if s[i] >= 0x80 {
			if q.ansiBytes(s, i) > 0 {
				return true // llmsh: a byte that is no character, a C1 control
			}
			_, n := utf8.DecodeRuneInString(s[i:])
			i += n - 1
		}
	}
	return false
}

// NeedsANSIQuote reports whether bash quotes s as $'…' (llmsh): it has a
// control character or a byte that is no character.
func (q Quoter) NeedsANSIQuote(s string) bool { return q.hasControl(s) }

// ansiBytes is how many bytes from s[i], which is not ASCII, bash quotes
// as octal escapes in $'…' (llmsh): one that starts no valid UTF-8
// character, or the two of a C1 control character (U+0080 to U+009F);
// 0 for a printable character.
func (q Quoter) ansiBytes(s string, i int) int {
	if q.Bytes {
		return 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && size <= 1:
		return 1
	case !PrintableRune(r):
		return size // a C1 control, U+2028…
	}
	return 0
}

// PrintableRune reports whether r, not ASCII, is a character that glibc's
// iswprint takes for printable in a UTF-8 locale, as bash's quoting asks
// it (llmsh): a graphic one or a space (U+00A0), or a format character
// (U+200B); not a control (U+0080 to U+009F), a line or paragraph
// separator (U+2028, U+2029), a surrogate, a private or unassigned one.
func PrintableRune(r rune) bool {
	return unicode.IsGraphic(r) || unicode.Is(unicode.Cf, r)
}

// BashQuote quotes s as bash's ${s@Q} does: '…' (a quote as '\”), or
// $'…' when s holds a control character.
func BashQuote(s string) string { return Quoter{}.Bash(s) }

// Bash quotes s as ${s@Q} does in q's locale.
func (q Quoter) Bash(s string) string {
	if s == "'" {
		return `\'` // llmsh: bash's sh_single_quote
	}
	if !q.hasControl(s) {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' || c == '\'':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			b.WriteString(ansiEscape(c))
		case c >= 0x80:
			n := q.ansiBytes(s, i)
			if n == 0 {
				_, n = utf8.DecodeRuneInString(s[i:])
				b.WriteString(s[i : i+n])
			} else {
				for k := range n {
					b.WriteString(ansiEscape(s[i+k]))
				}
			}
			i += n - 1
		default:
			b.WriteByte(c)
		}
	}
	b.WriteString("'")
	return b.String()
}

// ansiEscape is bash's $'…' escape of a control byte.
func ansiEscape(c byte) string {
	switch c {
	case '\a':
		return `\a`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	case '\v':
		return `\v`
	case 0x1b:
		return `\E`
	}
	const octal = "01234567"
	return string([]byte{'\\', octal[c>>6], octal[c>>3&7], octal[c&7]})
}

// DeclQuote quotes a value as `declare -p` prints it: "…" with \ " $ `
// escaped, or $'…' when s holds a control character.
func DeclQuote(s string) string { return Quoter{}.Decl(s) }

// Decl quotes s as DeclQuote does, in q's locale.
func (q Quoter) Decl(s string) string {
	if q.hasControl(s) {
		return q.Bash(s)
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\', '"', '$', '`':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// declKey quotes an associative array's key as `declare -p` prints it:
// as it is, or as DeclQuote quotes it when it is @ or holds a character special
// to the shell.
func (q Quoter) declKey(k string) string {
	if k == "" || k == "@" || strings.ContainsAny(k, " \t\n'\"\\|&;()<>!{}*[?]^$`") || k[0] == '~' || k[0] == '#' || q.hasControl(k) {
		return q.Decl(k)
	}
	return k
}

// DeclValue prints the value of an array as `declare -p` and ${a[@]@A}
// do, without the name: `([0]="x" [2]="y")` for an indexed array,
// `([k]="v" )` for an associative one (bash leaves that space).
func (v Variable) DeclValue() string { return Quoter{}.DeclValue(v) }

// DeclValue prints v's value as [Variable.DeclValue] does, in q's locale.
func (q Quoter) DeclValue(v Variable) string {
	s, _ := q.DeclValueStop(context.TODO(), v)
	return s
}

// DeclValueStop is DeclValue looking at ctx (if not nil) every 4096
// elements: it ends with ctx's error once ctx is done (llmsh, session 25,
// red team: `declare -p a` of two million elements kept a library Run
// with a 500 ms limit for 2.5 s at load 30, `declare -a` 4.3 s).
func (q Quoter) DeclValueStop(ctx context.Context, v Variable) (string, error) {
	var b strings.Builder
	b.WriteByte('(')
	stopped := func(i int) bool {
		return i%fieldsCheck == fieldsCheck-1 && ctx != nil && ctx.Err() != nil
	}
	switch v.Kind {
	case Indexed:
		for i, k := range v.indexedKeys() {
			if stopped(i) {
				return "", ctx.Err()
			}
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString("[" + k + "]=" + q.Decl(v.List[i]))
		}
	case Associative:
		keys, err := v.assocKeysStop(ctx)
		if err != nil {
			return "", err
		}
		for i, k := range keys {
			if stopped(i) {
				return "", ctx.Err()
			}
			b.WriteString("[" + q.declKey(k) + "]=" + q.Decl(v.Map[k]) + " ")
		}
	}
	b.WriteByte(')')
	return b.String(), nil
}

// kvPairs gives the keys and values of an array in turn, for ${a[@]@k}
// and (quoted) ${a[@]@K}.
func (cfg *Config) kvPairs(v Variable, quote bool, q Quoter) []string {
	var out []string
	switch v.Kind {
	case Indexed:
		for i, k := range v.indexedKeys() {
			if i%fieldsCheck == fieldsCheck-1 {
				cfg.mustGoOn() // llmsh: millions of elements
			}
			val := v.List[i]
			if quote {
				val = q.Decl(val)
			}
			out = append(out, k, val)
		}
	case Associative:
		for i, k := range cfg.assocKeys(v) {
			if i%fieldsCheck == fieldsCheck-1 {
				cfg.mustGoOn() // llmsh: millions of elements
			}
			val := v.Map[k]
			if quote {
				k, val = q.declKey(k), q.Decl(val)
			}
			out = append(out, k, val)
		}
	}
	return out
}

// promptExpand expands a prompt string as ${v@P} does: the backslash
// escapes first (\u \h \H \w \W \s \v \V \d \t \T \@ \A \n \r \a \e \$ \\
// \[ \] \NNN), what they stand for quoted, then parameters, command
// substitutions and arithmetic, as inside double quotes (bash's
// promptvars).
//
// As bash, an error of the expansion (an arithmetic error, a bad
// substitution, even ${u:?}) is reported through ReportError and the
// prompt is the text with its escapes decoded; the command goes on.
func (cfg *Config) promptExpand(s string) (string, error) {
	decoded := cfg.promptEscapes(s)
	word := promptWord(decoded)
	if word == nil {
		return "", nil // an empty prompt (${u@P} of an unset u)
	}
	field, err := cfg.wordField(word.Parts, quoteHeredoc)
	if err == nil {
		return cfg.fieldJoin(field)
	}
	if _, ok := errors.AsType[ValueTooLargeError](err); ok || cfg.ReportError == nil ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return "", err
	}
	cfg.ReportError(err)
	return decoded, nil
}

// promptWord parses a prompt's text as a here-document's body, its
// malformed $(( )) kept as text that fails when it is expanded, as the
// parser keeps a script's (`1+: syntax error: operand expected`); text
// it cannot parse at all is a literal, as bash leaves it.
func promptWord(text string) *syntax.Word {
	if text == "" {
		return nil
	}
	if w, err := syntax.NewParser().Document(strings.NewReader(text)); err == nil {
		return w
	}
	delim := "LLMSH_PROMPT"
	for strings.Contains(text, delim) {
		delim += "_"
	}
	src := "_ <<" + delim + "\n" + text + "\n" + delim + "\n"
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err == nil && len(f.Stmts) == 1 && len(f.Stmts[0].Redirs) == 1 {
		if w := f.Stmts[0].Redirs[0].Hdoc; w != nil && len(w.Parts) > 0 {
			// The body's last newline is the document's, not the prompt's.
			if lit, ok := w.Parts[len(w.Parts)-1].(*syntax.Lit); ok && strings.HasSuffix(lit.Value, "\n") {
				lit.Value = lit.Value[:len(lit.Value)-1]
				return w
			}
		}
	}
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: text}}}
}

// Prompt expands s as bash expands a prompt string (PS4 of xtrace,
// ${v@P}): its backslash escapes, then its parameters, command
// substitutions and arithmetic (llmsh).
func Prompt(cfg *Config, s string) (string, error) { return cfg.promptExpand(s) }

// promptQuote escapes what a prompt escape stands for (a directory, a
// user name) so that the expansion after it leaves it as it is.
func promptQuote(s string) string {
	if !strings.ContainsAny(s, "$`\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte("$`\\", s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// promptEscapes decodes the backslash escapes of a prompt string.
func (cfg *Config) promptEscapes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'u':
			b.WriteString(promptQuote(cfg.envGet("USER")))
		case 'h', 'H':
			h := cfg.envGet("HOSTNAME")
			if e == 'h' {
				h, _, _ = strings.Cut(h, ".")
			}
			b.WriteString(promptQuote(h))
		case 'w', 'W':
			w, home := cfg.envGet("PWD"), cfg.envGet("HOME")
			if home != "" && (w == home || strings.HasPrefix(w, home+"/")) {
				w = "~" + w[len(home):]
			}
			if e == 'W' && w != "/" && w != "~" {
				if j := strings.LastIndexByte(w, '/'); j >= 0 {
					w = w[j+1:]
				}
			}
			b.WriteString(promptQuote(w))
		case '#':
			// llmsh: the command's number, counting the script's
			// command lines from 1, as bash's reader loop (0 for
			// bash -c, whose CmdNumber is -1).
			b.WriteString(strconv.Itoa(cfg.CmdNumber + 1))
		case '!':
			b.WriteByte('1') // llmsh: the history's number, 1 in a script
		case 'l':
			b.WriteString("tty") // llmsh: bash's, where stdin is no terminal
		case 'j':
			n := 0
			if cfg.Jobs != nil {
				n = cfg.Jobs()
			}
			b.WriteString(strconv.Itoa(n))
		case 's':
			b.WriteString("bash")
		case 'v':
			b.WriteString("5.2")
		case 'V':
			b.WriteString("5.2.15")
		case 'd':
			b.WriteString(timeNow().Format("Mon Jan 02"))
		case 't':
			b.WriteString(timeNow().Format("15:04:05"))
		case 'T':
			b.WriteString(timeNow().Format("03:04:05"))
		case '@':
			b.WriteString(timeNow().Format("03:04 PM"))
		case 'A':
			b.WriteString(timeNow().Format("15:04"))
		case 'D':
			// llmsh: \D{FORMAT}, strftime's (\D{} the locale's time).
			if i+1 >= len(s) || s[i+1] != '{' || cfg.TimeFormat == nil {
				b.WriteString(`\D`)
				break
			}
			end := strings.IndexByte(s[i:], '}') // or the end (bash)
			if end < 0 {
				end = len(s) - i
			}
			format := s[i+2 : i+end]
			if format == "" {
				format = "%X"
			}
			tz := "" // as bash's localtime: TZ when it is exported
			if v := cfg.Env.Get("TZ"); v.Exported {
				tz = v.String()
			}
			b.WriteString(promptQuote(cfg.TimeFormat(timeNow(), format, tz)))
			i += end
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case 'e':
			b.WriteByte(0x1b)
		case '$':
			if cfg.envGet("EUID") == "0" {
				b.WriteByte('#')
			} else {
				b.WriteString(`\$`) // a dollar, kept through the expansion
			}
		case '\\':
			b.WriteString(`\\`) // a backslash, kept through the expansion
		case '[', ']':
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n, j := 0, i
			for ; j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7'; j++ {
				n = n*8 + int(s[j]-'0')
			}
			b.WriteByte(byte(n))
			i = j - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String()
}

// selfRefWarn warns n times, as bash does where it reads the elements or
// keys of name, when vr (name's variable) is a local nameref naming
// itself (local -n l=l), which reaches the global l.
func (cfg *Config) selfRefWarn(name string, vr Variable, n int) {
	if vr.Kind != NameRef || vr.Str != name || !vr.Local || cfg.Warn == nil {
		return
	}
	for range n {
		cfg.Warn("warning: " + name + ": circular name reference")
	}
}

// circularRef reports whether the nameref chain from vr comes back on
// itself.
func circularRef(env Environ, vr Variable) bool {
	seen := map[string]bool{}
	for vr.Kind == NameRef {
		if seen[vr.Str] {
			return true
		}
		seen[vr.Str] = true
		vr = env.Get(vr.Str)
	}
	return false
}

// sglQuotesLiteral gives w with its single-quoted parts as literal text,
// quotes included, as bash reads the word of ${v:-word} inside double
// quotes.
// unescapeBrace removes the backslash of each \} of s (one a backslash
// before it does not escape): in the word of a double-quoted ${…}, bash
// reads \} as } also inside nested quotes ("${a:+'\}'}" is '}').
func unescapeBrace(s string) string {
	if !strings.Contains(s, `\}`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			if s[i+1] != '}' {
				b.WriteByte('\\')
			}
			b.WriteByte(s[i+1])
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// braceUnescaped is parts with unescapeBrace applied to each literal
// (the word of a double-quoted list expansion, flattened).
func braceUnescaped(parts []syntax.WordPart) []syntax.WordPart {
	var out []syntax.WordPart
	for i, p := range parts {
		lit, ok := p.(*syntax.Lit)
		if !ok || !strings.Contains(lit.Value, `\}`) {
			if out != nil {
				out = append(out, p)
			}
			continue
		}
		if out == nil {
			out = append(out, parts[:i]...)
		}
		l := *lit
		l.Value = unescapeBrace(l.Value)
		out = append(out, &l)
	}
	if out == nil {
		return parts
	}
	return out
}

// dollarSglText is w with each $'…' made the text as written, as bash
// leaves it under shopt -u extquote in a double-quoted ${v:-…}'s word
// (llmsh).
func dollarSglText(w *syntax.Word) *syntax.Word {
	var parts []syntax.WordPart
	for i, p := range w.Parts {
		sq, ok := p.(*syntax.SglQuoted)
		if !ok || !sq.Dollar {
			if parts != nil {
				parts = append(parts, p)
			}
			continue
		}
		if parts == nil {
			parts = slices.Clone(w.Parts[:i])
		}
		parts = append(parts, &syntax.Lit{Value: "$'" + sq.Value + "'"})
	}
	if parts == nil {
		return w
	}
	return &syntax.Word{Parts: parts}
}

// dollarDblText is w with each $"…" read as bash reads it in the word of
// ${v:-…} in a here-document, or in double quotes under shopt -u
// extquote: a $ before the quoted text, the quotes gone ($"b" is $b,
// $"{b}x" is ${b}x, $"" is $) (llmsh).
func dollarDblText(w *syntax.Word) *syntax.Word {
	var parts []syntax.WordPart
	for i := 0; i < len(w.Parts); i++ {
		p := w.Parts[i]
		dq, ok := p.(*syntax.DblQuoted)
		if !ok || !dq.Dollar {
			if parts != nil {
				parts = append(parts, p)
			}
			continue
		}
		if parts == nil {
			parts = slices.Clone(w.Parts[:i])
		}
		var sb strings.Builder
		sb.WriteByte('$')
		if len(dq.Parts) > 0 {
			syntax.NewPrinter().Print(&sb, &syntax.Word{Parts: dq.Parts})
		}
		// The literal text after it goes on the name ($"b"c is $bc).
		for ; i+1 < len(w.Parts); i++ {
			lit, ok := w.Parts[i+1].(*syntax.Lit)
			if !ok {
				break
			}
			sb.WriteString(lit.Value)
		}
		doc, err := syntax.NewParser().Document(strings.NewReader(sb.String()))
		if err != nil || doc == nil {
			parts = append(parts, &syntax.Lit{Value: sb.String()})
			continue
		}
		parts = append(parts, doc.Parts...)
	}
	if parts == nil {
		return w
	}
	return &syntax.Word{Parts: parts}
}

// quotedNameJoin is the word of a double-quoted ${v:-word} (or :+, :=
// and their forms without the colon) as bash 5.2 reads it (llmsh): its
// inner double quotes are removed as text before it is expanded, so a
// $name that such a quote ends takes the name characters after it:
// "${u:-"$f"x}" expands $fx, "${u:-x"$f"y}" is x, "${u:-$f$'x'}" $fx
// (extquote). The parts of the
// inner quotes join the word's (all double-quoted text there); a word
// where no name goes on is returned as it is.
func (cfg *Config) quotedNameJoin(w *syntax.Word) *syntax.Word {
	var flat []syntax.WordPart
	quoted := false
	for _, p := range w.Parts {
		if dq, ok := p.(*syntax.DblQuoted); ok && !dq.Dollar {
			flat, quoted = append(flat, dq.Parts...), true
			continue
		}
		if sq, ok := p.(*syntax.SglQuoted); ok && sq.Dollar && !cfg.hereDoc {
			// $'x' (shopt extquote) is x there.
			p, quoted = &syntax.Lit{ValuePos: sq.Left, ValueEnd: sq.Right, Value: dollarSingle(cfg, sq.Value)}, true
		}
		flat = append(flat, p)
	}
	if !quoted {
		return w
	}
	joined := false
	for i := 0; i < len(flat); i++ {
		pe, ok := flat[i].(*syntax.ParamExp)
		if !ok || !pe.Short || !syntax.ValidName(pe.Param.Value) {
			continue
		}
		name := pe.Param.Value
		j := i + 1
		for ; j < len(flat); j++ {
			lit, ok := flat[j].(*syntax.Lit)
			if !ok {
				break
			}
			n := 0
			for n < len(lit.Value) && (lit.Value[n] == '_' || lit.Value[n] >= 'a' && lit.Value[n] <= 'z' || lit.Value[n] >= 'A' && lit.Value[n] <= 'Z' || lit.Value[n] >= '0' && lit.Value[n] <= '9') {
				n++
			}
			name += lit.Value[:n]
			if n < len(lit.Value) {
				rest := *lit
				rest.Value = lit.Value[n:]
				flat[j] = &rest
				break
			}
			flat[j] = &syntax.Lit{ValuePos: lit.ValuePos, ValueEnd: lit.ValuePos}
		}
		if name != pe.Param.Value {
			npe, param := *pe, *pe.Param
			param.Value = name
			npe.Param = &param
			flat[i], joined = &npe, true
		}
	}
	if !joined {
		return w
	}
	return &syntax.Word{Parts: flat}
}

func sglQuotesLiteral(w *syntax.Word) *syntax.Word {
	if w == nil {
		return nil
	}
	var parts []syntax.WordPart
	changed := false
	for _, p := range w.Parts {
		if sq, ok := p.(*syntax.SglQuoted); ok && !sq.Dollar {
			// The text between them is double-quoted text: "${u:-'$x'}"
			// expands x, and "${u:-'$@'}" gives a field per parameter.
			val := unescapeBrace(sq.Value)
			if strings.Contains(val, `"`) {
				// bash reads the text as double-quoted: a " is a
				// quote, removed before the text is expanded
				// ("${u:-'a"b'}" is 'ab', "${u:-'a"$v"c'}" expands
				// $vc); \" is ".
				val = dquoteMarksGone(val)
			}
			inner := []syntax.WordPart{&syntax.Lit{Value: val}}
			if strings.ContainsAny(val, "$`\\") {
				if doc, err := syntax.NewParser().Document(strings.NewReader(val)); err == nil {
					inner = doc.Parts
				}
			}
			quote := &syntax.Lit{Value: "'"}
			parts = append(parts, &syntax.DblQuoted{Parts: slices.Concat([]syntax.WordPart{quote}, inner, []syntax.WordPart{quote})})
			changed = true
			continue
		}
		if dq, ok := p.(*syntax.DblQuoted); ok && !dq.Dollar && dblHasEscape(dq) {
			// A double-quoted part there is read as unquoted text:
			// each backslash escapes the character after it
			// ("${x-"a\zb"}" is azb).
			// An escaped name character after $name goes on the
			// name, as bash removes the backslash first ("${x-"$v\q"}"
			// expands $vq).
			in := make([]syntax.WordPart, 0, len(dq.Parts))
			for _, dp := range dq.Parts {
				l, ok := dp.(*syntax.Lit)
				if !ok || !strings.Contains(l.Value, `\`) {
					in = append(in, dp)
					continue
				}
				val := unescapeAll(l.Value)
				if n := len(in); n > 0 {
					if pe, ok := in[n-1].(*syntax.ParamExp); ok && pe.Short && syntax.ValidName(pe.Param.Value) {
						k := escapedNameChars(l.Value)
						if k > 0 {
							in[n-1] = &syntax.ParamExp{Dollar: pe.Dollar, Short: true,
								Param: &syntax.Lit{ValuePos: pe.Param.ValuePos, ValueEnd: pe.Param.ValueEnd, Value: pe.Param.Value + val[:k]}}
							val = val[k:]
						}
					}
				}
				if val != "" {
					in = append(in, &syntax.Lit{ValuePos: l.ValuePos, ValueEnd: l.ValueEnd, Value: val})
				}
			}
			parts = append(parts, &syntax.DblQuoted{Left: dq.Left, Right: dq.Right, Parts: in})
			changed = true
			continue
		}
		parts = append(parts, p)
	}
	if merged, ok := mergeQuotedNames(parts); ok {
		parts, changed = merged, true
	}
	if !changed {
		return w
	}
	return &syntax.Word{Parts: parts}
}

// mergeQuotedNames joins to a $name that ends a part of the WORD of
// "${v+WORD}" the name characters that the next part starts with: bash
// removes the inner double quotes before it expands WORD, so that
// "${v+"$a"b}" and "${v+$a"b"}" expand $ab (llmsh). ok is false when
// there is nothing to join; parts is not changed, the parts it joins
// are copies.
func mergeQuotedNames(parts []syntax.WordPart) (_ []syntax.WordPart, ok bool) {
	var out []syntax.WordPart
	for i := 0; i < len(parts); i++ {
		pe, inDbl := endName(parts[i])
		if pe == nil || i+1 >= len(parts) {
			if out != nil {
				out = append(out, parts[i])
			}
			continue
		}
		name := pe.Param.Value
		cur := parts[i]
		j := i + 1
		var rest syntax.WordPart // what is left of the part name ends in
		for ; j < len(parts); j++ {
			head, tail, whole := nameHead(parts[j])
			if head == "" {
				break
			}
			name += head
			if !whole {
				rest = tail
				j++
				break
			}
		}
		if name == pe.Param.Value {
			if out != nil {
				out = append(out, parts[i])
			}
			continue
		}
		if out == nil {
			out = append(make([]syntax.WordPart, 0, len(parts)), parts[:i]...)
		}
		npe := &syntax.ParamExp{Dollar: pe.Dollar, Short: true,
			Param: &syntax.Lit{ValuePos: pe.Param.ValuePos, ValueEnd: pe.Param.ValueEnd, Value: name}}
		if inDbl {
			dq := cur.(*syntax.DblQuoted)
			inner := slices.Clone(dq.Parts)
			inner[len(inner)-1] = npe
			cur = &syntax.DblQuoted{Left: dq.Left, Right: dq.Right, Parts: inner}
		} else {
			cur = npe
		}
		out = append(out, cur)
		if rest != nil {
			out = append(out, rest)
		}
		i = j - 1
	}
	return out, out != nil
}

// endName is the short $name (not a special parameter) that part p is
// or that its double-quoted text ends with (mergeQuotedNames).
func endName(p syntax.WordPart) (pe *syntax.ParamExp, inDbl bool) {
	if dq, ok := p.(*syntax.DblQuoted); ok && !dq.Dollar && len(dq.Parts) > 0 {
		p, inDbl = dq.Parts[len(dq.Parts)-1], true
	}
	if pe, ok := p.(*syntax.ParamExp); ok && pe.Short && syntax.ValidName(pe.Param.Value) {
		return pe, inDbl
	}
	return nil, false
}

// nameHead is the name characters that part p starts with, as text or
// as the text of its double quotes, and p without them (whole: p is all
// name characters).
func nameHead(p syntax.WordPart) (head string, tail syntax.WordPart, whole bool) {
	lit, _ := p.(*syntax.Lit)
	var dq *syntax.DblQuoted
	if lit == nil {
		if dq, _ = p.(*syntax.DblQuoted); dq == nil || dq.Dollar || len(dq.Parts) == 0 {
			return "", nil, false
		}
		lit, _ = dq.Parts[0].(*syntax.Lit)
	}
	if lit == nil {
		return "", nil, false
	}
	k := 0
	for k < len(lit.Value) && isNameByte(lit.Value[k]) {
		k++
	}
	if k == 0 {
		return "", nil, false
	}
	rest := &syntax.Lit{ValuePos: lit.ValuePos, ValueEnd: lit.ValueEnd, Value: lit.Value[k:]}
	if dq == nil {
		return lit.Value[:k], rest, k == len(lit.Value)
	}
	inner := slices.Clone(dq.Parts)
	if rest.Value == "" {
		inner = inner[1:]
	} else {
		inner[0] = rest
	}
	return lit.Value[:k], &syntax.DblQuoted{Left: dq.Left, Right: dq.Right, Parts: inner}, len(inner) == 0
}

// elemAtOp applies ${v@OP} for an OP that works on each element of a
// list alone (Q E P U u L a; K and k of a scalar or the parameters); vr
// is the variable, for a.
func (cfg *Config) elemAtOp(op, s string, vr Variable) (string, error) {
	switch op {
	case "Q", "K", "k":
		return cfg.quoter().Bash(s), nil
	case "E":
		return dollarSingle(cfg, s), nil // as $'…' (\cX, \x{HH} too)
	case "P":
		return cfg.promptExpand(s)
	case "U":
		return mapChars(s, false, nil, cfg.caseFunc(unicode.ToUpper)), nil
	case "L":
		return mapChars(s, false, nil, cfg.caseFunc(unicode.ToLower)), nil
	case "u":
		return mapChars(s, true, nil, cfg.caseFunc(unicode.ToUpper)), nil
	case "a":
		return vr.Flags(), nil
	}
	return s, nil
}

// wholeListOp gives the fields of "${a[@]@K}", "${a[@]@k}" and
// "${a[@]@A}", which describe the whole array; ok is false for other
// expansions.
func (cfg *Config) wholeListOp(pe *syntax.ParamExp) (fields []string, ok bool, err error) {
	if pe.Exp == nil || pe.Exp.Op != syntax.OtherParamOps || !allIndex(pe.Index) {
		return nil, false, nil
	}
	switch op := nodeLit(pe.Exp.Word); op {
	case "k":
		vr := cfg.Env.Get(pe.Param.Value)
		if _, v := vr.Resolve(cfg.Env); v.Kind == Indexed || v.Kind == Associative {
			pairs := cfg.kvPairs(v, false, Quoter{})
			if nodeLit(pe.Index) == "*" {
				return []string{cfg.ifsJoin(pairs)}, true, nil
			}
			return append([]string{}, pairs...), true, nil // none: no field
		}
	case "K", "A", "a":
		vr := cfg.Env.Get(pe.Param.Value)
		_, v := vr.Resolve(cfg.Env)
		array := v.Kind == Indexed || v.Kind == Associative
		if op == "a" && array && v.IsSet() {
			return nil, false, nil // each element's, in listElems
		}
		if op == "K" && array && nodeLit(pe.Index) == "@" && len(cfg.kvPairs(v, false, Quoter{})) == 0 {
			return []string{}, true, nil // llmsh: no elements, no field
		}
		s, err := cfg.paramExp(pe)
		if err != nil {
			return nil, true, err
		}
		// llmsh: bash gives "${a[@]@A}" of an array as three words
		// (declare, its flags, the assignment) when IFS is unset, empty
		// or holds a space, else as one word; a scalar's is one word.
		if s == "" && nodeLit(pe.Index) == "@" {
			// llmsh: nothing to describe (an unset name, a scalar
			// without attributes for @a) is no field, as bash.
			return []string{}, true, nil
		}
		if ifs := cfg.ifsValue(); op == "A" && array && nodeLit(pe.Index) == "@" && strings.HasPrefix(s, "declare ") &&
			(ifs == "" || strings.Contains(ifs, " ")) {
			return strings.SplitN(s, " ", 3), true, nil
		}
		return []string{s}, true, nil
	}
	return nil, false, nil
}

// ValueTooLargeError is the error of a command substitution or a word
// whose value passes Config.MaxValue, or (Words) of a brace expansion of
// more than Limit words.
type ValueTooLargeError struct {
	Limit int
	Words bool
}

func (e ValueTooLargeError) Error() string {
	if e.Words {
		return fmt.Sprintf("brace expansion would exceed %d words", e.Limit)
	}
	return fmt.Sprintf("value too large (more than %d bytes)", e.Limit)
}

// checkValue returns s, or ValueTooLargeError when it passes MaxValue.
func (cfg *Config) checkValue(s string) (string, error) {
	if cfg.MaxValue > 0 && len(s) > cfg.MaxValue {
		return "", ValueTooLargeError{Limit: cfg.MaxValue}
	}
	return s, nil
}

// checkSize returns ValueTooLargeError when a value of n bytes would pass
// MaxValue: the joins below ask before they allocate, since one join of
// an array's big elements, or one ${x//?/$x}, could build gigabytes in
// a single call that neither the check after it nor the memory guard
// could stop (issue 18).
func (cfg *Config) checkSize(n int) error {
	if cfg.MaxValue > 0 && n > cfg.MaxValue {
		return ValueTooLargeError{Limit: cfg.MaxValue}
	}
	return nil
}

// valuePanic carries checkSize's error out of a join deep inside a
// parameter expansion whose helpers return no error; wordField and
// wordFields turn it back into their error (catchValue).
type valuePanic struct{ err error }

// catchValue, deferred, makes a valuePanic the function's error.
func catchValue(err *error) {
	if r := recover(); r != nil {
		vp, ok := r.(valuePanic)
		if !ok {
			panic(r)
		}
		*err = vp.err
	}
}

// cutNUL is s up to its first NUL byte: a value in bash is a C string,
// so a NUL that an expansion or a builtin makes ends it.
func cutNUL(s string) string {
	s, _, _ = strings.Cut(s, "\x00")
	return s
}

// CutNUL is cutNUL for interp (mapfile, printf -v).
func CutNUL(s string) string { return cutNUL(s) }

// mustFit panics (valuePanic) when n bytes pass MaxValue.
func (cfg *Config) mustFit(n int) {
	if err := cfg.checkSize(n); err != nil {
		panic(valuePanic{err})
	}
}

// joinMarked joins the elements of a quoted list by spaces, each empty
// one after the first a NUL (markAt), which no value holds:
// replTemplate makes it a \x7f or drops it.
func (cfg *Config) joinMarked(strs []string) string {
	marked := make([]string, len(strs))
	for i, s := range strs {
		if s == "" && i > 0 {
			s = "\x00"
		}
		marked[i] = s
	}
	return cfg.joinValues(marked, " ")
}

// joinValues is strings.Join, checked against MaxValue before anything is
// allocated (valuePanic past it).
func (cfg *Config) joinValues(strs []string, sep string) string {
	if cfg.MaxValue > 0 && len(strs) > 0 {
		n := len(sep) * (len(strs) - 1)
		for _, s := range strs {
			if n += len(s); n > cfg.MaxValue {
				break
			}
		}
		cfg.mustFit(n)
	}
	return strings.Join(strs, sep)
}

// valueWriter is a command substitution's output up to a bound; a write
// past it fails with ENOSPC ("No space left on device"), as a full disk.
// The shell and the jobs that hold the substitution's output (a job
// started in it) write at once, as to one pipe: mu serialises them, and
// once the substitution has taken its text (done) a job still writing
// meets a closed pipe.
type valueWriter struct {
	mu   sync.Mutex
	sb   *strings.Builder
	max  int
	over bool
	done bool
}

// DropOutput forgets what was written (llmsh's exec handler calls it when
// the run is cancelled under the substitution, as it resets a
// strings.Builder: the output is then not split into fields).
func (w *valueWriter) DropOutput() {
	w.mu.Lock()
	w.sb.Reset()
	w.mu.Unlock()
}

func (w *valueWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return 0, syscall.EPIPE
	}
	if w.sb.Len()+len(p) > w.max {
		// As a reader that has gone (EPIPE: the writer ends silently,
		// as on SIGPIPE), not as a full disk: past the bound the run
		// stops with "value too large", which names the cause, where
		// ENOSPC made `x=$(cat big)` say "cat: write error: No space
		// left on device" before it, as printf -v does not.
		w.over = true
		return 0, syscall.EPIPE
	}
	return w.sb.Write(p)
}

// take ends the writes and returns the text, and whether a write went
// past the bound.
func (w *valueWriter) take() (string, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.done = true
	return w.sb.String(), w.over
}

// GlobError is a pattern that matched no file under failglob: bash says
// "no match: PATTERN", does not run the command, and a non-interactive
// shell ends with status 1, as for a [ParamError].
type GlobError struct {
	Pattern string
}

func (e GlobError) Error() string { return "no match: " + e.Pattern }

// extPattern is pat compiled as bash matches it when pat holds an
// extended pattern and extglob is on, or nil: Go's regular expressions,
// which the other patterns of parameter expansion use, cannot negate
// (!(…)), so such patterns are matched by trying each substring, as bash
// does.
func (cfg *Config) extPattern(pat string) *internal.BashPattern {
	if !utf8.ValidString(pat) {
		// A byte that is not UTF-8, which a regular expression cannot
		// hold (regexp.MustCompile panicked on ${v#$'\377'}).
		var mode internal.PatMode
		if cfg.ExtGlob {
			mode = internal.PatExtGlob
		}
		return internal.CompileBashPattern(pat, mode)
	}
	if strings.Contains(pat, "[.") || strings.Contains(pat, "[=") {
		// llmsh: a collating symbol or an equivalence class
		// ([[.[.]], [[=b=]]), which the regular expressions miss.
		var mode internal.PatMode
		if cfg.ExtGlob {
			mode = internal.PatExtGlob
		}
		return internal.CompileBashPattern(pat, mode)
	}
	if !cfg.ExtGlob || !strings.Contains(pat, "(") {
		return nil
	}
	if p := internal.CompileBashPattern(pat, internal.PatExtGlob); p.HasExt() {
		return p
	}
	return nil
}

// FnMatcher compiles pat as fnmatch(3) without FNM_PATHNAME does ('*'
// matches '/'), for find -name and ls -I: a wildcard matches a leading dot
// only with leadingDot, letters match without regard to case with fold.
// It is bash's own matcher, which takes names as bytes: a byte that is
// not UTF-8 matches itself and '?', never another such byte.
func FnMatcher(pat string, fold, leadingDot bool) func(string) bool {
	return internal.CompileBashPattern(pat, fnMode(fold, leadingDot)).Match
}

// FnMatcherBytes is FnMatcher in the C locale (llmsh): each byte of the
// pattern and of the name is a character, which no class holds and no
// case folds when it is not ASCII (ByteRunes), as glibc's fnmatch there.
func FnMatcherBytes(pat string, fold, leadingDot bool) func(string) bool {
	if !HasHighBytes(pat) {
		p := internal.CompileBashPattern(pat, fnMode(fold, leadingDot))
		return func(name string) bool {
			if HasHighBytes(name) {
				name = ByteRunes(name)
			}
			return p.Match(name)
		}
	}
	p := internal.CompileBashPattern(ByteRunes(pat), fnMode(fold, leadingDot))
	return func(name string) bool { return p.Match(ByteRunes(name)) }
}

func fnMode(fold, leadingDot bool) internal.PatMode {
	var mode internal.PatMode
	if !leadingDot {
		mode |= internal.PatFilename
	}
	if fold {
		mode |= internal.PatNoCase
	}
	return mode
}

// MapCase is s with f applied to its characters (with first, to its
// first character only) as declare's -u, -l and -c attributes convert a
// value: a byte that is not part of valid UTF-8 kept as it is, and with
// bytes (the C locale) only ASCII letters converted, as bash's toupper
// does there (llmsh).
func MapCase(s string, first, bytes bool, f func(rune) rune) string {
	if bytes {
		g := f
		f = func(r rune) rune {
			if r >= utf8.RuneSelf {
				return r
			}
			return g(r)
		}
	}
	return mapChars(s, first, nil, f)
}

// mapChars applies f to the characters of s that match (every one, or
// with first only the first character, if it matches), keeping each byte
// that is not part of valid UTF-8 as it is: []rune and strings.ToUpper
// made it U+FFFD, so that ${f^^} and ${f@U} changed the bytes of a name.
func mapChars(s string, first bool, match func(string) bool, f func(rune) rune) string {
	var sb strings.Builder
	sb.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r != utf8.RuneError || size > 1) && (match == nil || match(s[i:i+size])) {
			sb.WriteRune(f(r))
		} else {
			sb.WriteString(s[i : i+size])
		}
		i += size
		if first {
			sb.WriteString(s[i:])
			break
		}
	}
	return sb.String()
}

// replPattern is extPattern for ${v/pat/rep}, which nocasematch makes
// match without regard to case, as bash (its # and % removals do not).
func (cfg *Config) replPattern(pat string) *internal.BashPattern {
	if !cfg.NoCaseMatch {
		return cfg.extPattern(pat)
	}
	mode := internal.PatNoCase
	if cfg.ExtGlob {
		mode |= internal.PatExtGlob
	}
	return internal.CompileBashPattern(pat, mode)
}

// extRemove is ${s#p}, ${s##p}, ${s%p} and ${s%%p} for a pattern that
// extPattern compiled.
func (cfg *Config) extRemove(st *internal.PatStop, p *internal.BashPattern, s string, suffix, shortest bool) string {
	n := len(s)
	match := cfg.patMatcher(st, p)
	// llmsh: cut at characters only (é is one ?, not two bytes).
	at := func(k int) bool { return k == 0 || k == n || utf8.RuneStart(s[k]) }
	switch {
	case !suffix && shortest:
		for k := 0; k <= n; k++ {
			if at(k) && match(s[:k]) {
				return s[k:]
			}
		}
	case !suffix:
		for k := n; k >= 0; k-- {
			if at(k) && match(s[:k]) {
				return s[k:]
			}
		}
	case shortest:
		for k := n; k >= 0; k-- {
			if at(k) && match(s[k:]) {
				return s[:k]
			}
		}
	default:
		for k := 0; k <= n; k++ {
			if at(k) && match(s[k:]) {
				return s[:k]
			}
		}
	}
	return s
}

// patStop is a PatStop for the run's context, or nil.
func (cfg *Config) patStop() *internal.PatStop {
	if cfg.Ctx == nil {
		return nil
	}
	return &internal.PatStop{Ctx: cfg.Ctx}
}

// patMatcher is p.Match, stopped with the run by st (cfg.patStop, one
// for all the elements of an expansion, whose steps it counts): once the
// run is stopped, the expansion ends with its error (valuePanic).
func (cfg *Config) patMatcher(st *internal.PatStop, p *internal.BashPattern) func(string) bool {
	if st == nil {
		return p.Match
	}
	return func(s string) bool {
		ok := p.MatchStop(st, s)
		if st.Err != nil {
			panic(valuePanic{st.Err})
		}
		return ok
	}
}

// extFindAll gives the matches of ${s/p/r} (n 1) and ${s//p/r} (n -1) as
// bash finds them: at each position the longest match; an empty match
// replaces nothing but puts the replacement before the next character,
// and the end of the string is not tried.
func (cfg *Config) extFindAll(st *internal.PatStop, p *internal.BashPattern, s string, n int) func(yield func(a, b int) bool) {
	return func(yield func(a, b int) bool) {
		extFindEach(cfg.patMatcher(st, p), s, n, yield)
	}
}

// extFindEach is extFindAll's loop, which stops when yield returns false.
func extFindEach(match func(string) bool, s string, n int, yield func(a, b int) bool) {
	for i := 0; i < len(s) && n != 0; {
		found := false
		for j := len(s); j >= i; j-- {
			if j < len(s) && !utf8.RuneStart(s[j]) {
				continue
			}
			if match(s[i:j]) {
				if !yield(i, j) {
					return
				}
				n--
				found = true
				if j > i {
					i = j
				} else {
					_, size := utf8.DecodeRuneInString(s[i:])
					i += size
				}
				break
			}
		}
		if !found {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
		}
	}
}

// colonTilde expands a tilde prefix after each ':' of s, a literal part of
// an assignment's value, as bash does (PATH=~/bin:~/x); last says no
// other part follows s, so that a prefix may end at the end of s.
func (cfg *Config) colonTilde(s string, last bool) string {
	if !strings.Contains(s, ":~") {
		return s
	}
	var sb strings.Builder
	for i, seg := range strings.Split(s, ":") {
		if i > 0 {
			sb.WriteByte(':')
			if strings.HasPrefix(seg, "~") {
				end := strings.IndexByte(seg, '/')
				if end < 0 {
					end = len(seg)
				}
				if end < len(seg) || last || i < strings.Count(s, ":") {
					if prefix, rest := cfg.expandUser(seg, false); prefix != "" || rest != seg {
						seg = prefix + rest
					}
				}
			}
		}
		sb.WriteString(seg)
	}
	return sb.String()
}

// argAssignTilde expands, in an argument that looks like an assignment
// (NAME=~/a:~/b), the tilde prefixes after its '=' and its ':'s, as bash
// does outside POSIX mode. It gives the expanded start of s, which is not
// to be globbed, and the rest, or "" and s.
func (cfg *Config) argAssignTilde(s string, last bool) (string, string) {
	eq := strings.IndexByte(s, '=')
	if eq <= 0 || !syntax.ValidName(s[:eq]) || !strings.Contains(s[eq:], "~") {
		return "", s
	}
	val := s[eq+1:]
	if prefix, rest := cfg.expandUser(val, !last); prefix != "" || rest != val {
		val = prefix + rest
	}
	val = cfg.colonTilde(val, last)
	if s[:eq+1]+val == s {
		return "", s
	}
	return s[:eq+1] + val, ""
}

// AssignValue expands the value of an assignment: as [Literal], with
// bash's tilde expansion after each ':' too.
func AssignValue(cfg *Config, word *syntax.Word) (string, error) {
	if word == nil {
		return "", nil
	}
	cfg = prepareConfig(cfg)
	cfg.assignValue, cfg.rhsJoin = true, true
	defer func() { cfg.assignValue, cfg.rhsJoin = false, false }()
	return Literal(cfg, word)
}

// DeclValue expands the value of a declaration builtin's NAME=VALUE
// argument (export v=$*) as [AssignValue] does, but for an unquoted $*
// and some forms of ${a[*]} with IFS empty (declSpaceJoin): bash joins
// them by spaces there, as a word's fields, where an assignment joins
// them by nothing.
func DeclValue(cfg *Config, word *syntax.Word) (string, error) {
	if word == nil {
		return "", nil
	}
	cfg = prepareConfig(cfg)
	cfg.declValue = true
	defer func() { cfg.declValue = false }()
	return AssignValue(cfg, word)
}

// tildeMode says which tilde prefixes of a word expand (llmsh).
type tildeMode uint8

const (
	tildeAll      tildeMode = iota // at the start, and after = in NAME=~ arguments
	tildeNoAssign                  // at the start only (an array's element)
	tildeNone                      // none (an associative array's [k]=v)
)

// ArrayElemFields expands an element of an array's list, a=(WORD), into
// fields as [Fields] does, but for the tilde after = of x=~, which bash
// leaves in an element (llmsh).
func ArrayElemFields(cfg *Config, word *syntax.Word) ([]string, error) {
	cfg = prepareConfig(cfg)
	cfg.tildes = tildeNoAssign
	defer func() { cfg.tildes = tildeAll }()
	return Fields(cfg, word)
}

// AssocValue expands the value of [k]=v in an associative array's list
// as [Literal] does, no tilde expanded, as bash (m=([k]=~) is ~; llmsh).
func AssocValue(cfg *Config, word *syntax.Word) (string, error) {
	cfg = prepareConfig(cfg)
	cfg.tildes = tildeNone
	defer func() { cfg.tildes = tildeAll }()
	return Literal(cfg, word)
}

// HereString expands the word of a here-string (<<< WORD) as [Literal]
// does, but joins lists as an assignment's value does (rhsIFSJoin).
func HereString(cfg *Config, word *syntax.Word) (string, error) {
	if word == nil {
		return "", nil
	}
	cfg = prepareConfig(cfg)
	cfg.rhsJoin = true
	defer func() { cfg.rhsJoin = false }()
	return Literal(cfg, word)
}

// emptyLitWord reports whether brace expansion made w an empty unquoted
// word, which bash drops ({a,} is "a", {,} nothing).
func emptyLitWord(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); !ok || l.Value != "" {
			return false
		}
	}
	return true
}

// hasEntry reports whether the listing of dir has an entry name.
func (cfg *Config) hasEntry(dir, name string) bool {
	ents, err := cfg.ReadDir2(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if e.Name() == name {
			return true
		}
	}
	return false
}

// globIgnore drops the matches that a pattern of $GLOBIGNORE (a
// colon-separated list) matches, as bash does; assigning a GLOBIGNORE
// with a pattern turns dotglob on (the interpreter's setVarErr).
func (cfg *Config) globIgnore(matches []string) []string {
	gi := cfg.envGet("GLOBIGNORE")
	if gi == "" || len(matches) == 0 {
		return matches
	}
	// as bash's glob_name_is_acceptable: FNM_PATHNAME (* and ? stop at
	// a slash, but a * that ends the pattern), no FNM_PERIOD
	mode := internal.PatDotGlob | internal.PatPathname
	if cfg.ExtGlob {
		mode |= internal.PatExtGlob
	}
	if cfg.NoCaseGlob {
		// as bash: nocaseglob applies to GLOBIGNORE's patterns too
		mode |= internal.PatNoCase
	}
	var pats []*internal.BashPattern
	for _, p := range strings.Split(gi, ":") {
		if p != "" {
			pats = append(pats, internal.CompileBashPattern(p, mode))
		}
	}
	out := matches[:0:0]
	st := cfg.patStop()
	for _, m := range matches {
		// as bash: a name whose last component is . or .. is
		// ignored whenever GLOBIGNORE is set (*/. too)
		if last := path.Base(m); last == "." || last == ".." {
			continue
		}
		ignored := false
		for _, p := range pats {
			if p.MatchStop(st, m) {
				ignored = true
				break
			}
		}
		if !ignored {
			out = append(out, m)
		}
	}
	return out
}

// anchoredRepl gives the pattern word of ${v/#p/r} or ${v/%p/r} without
// its # or %, and that character; or repl's pattern and 0.
func anchoredRepl(repl *syntax.Replace) (*syntax.Word, byte) {
	w := repl.Orig
	if repl.All || w == nil || len(w.Parts) == 0 {
		return w, 0
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	if !ok || lit.Value == "" || (lit.Value[0] != '#' && lit.Value[0] != '%') {
		return w, 0
	}
	parts := append([]syntax.WordPart{&syntax.Lit{ValuePos: lit.ValuePos, ValueEnd: lit.ValueEnd, Value: lit.Value[1:]}}, w.Parts[1:]...)
	return &syntax.Word{Parts: parts}, lit.Value[0]
}

// anchoredMatch gives the longest match of pat at the start (#) or the
// end (%) of s, as one location, or none; ext is pat compiled when it is
// an extended pattern.
func (cfg *Config) anchoredMatch(st *internal.PatStop, pat string, ext *internal.BashPattern, s string, anchor byte) [][]int {
	if pat == "" {
		if anchor == '#' {
			return [][]int{{0, 0}}
		}
		return [][]int{{len(s), len(s)}}
	}
	if ext == nil {
		// One regular expression rather than one per length.
		expr, err := pattern.Regexp(pat, 0)
		if err != nil {
			return nil
		}
		if anchor == '#' {
			expr = "^(?:" + expr + ")"
		} else {
			expr = "(?:" + expr + ")$"
		}
		rx, err := regexp.Compile("(?s)" + expr)
		if err != nil {
			return nil
		}
		rx.Longest()
		if loc := rx.FindStringIndex(s); loc != nil {
			return [][]int{loc}
		}
		return nil
	}
	match := cfg.patMatcher(st, ext)
	if anchor == '#' {
		for k := len(s); k >= 0; k-- {
			if match(s[:k]) {
				return [][]int{{0, k}}
			}
		}
		return nil
	}
	for k := 0; k <= len(s); k++ {
		if match(s[k:]) {
			return [][]int{{k, len(s)}}
		}
	}
	return nil
}

// PatternTrace is [Pattern] and the pattern as bash's xtrace shows it:
// every quoted character preceded by a backslash, the unquoted parts as
// they are (llmsh).
func PatternTrace(cfg *Config, word *syntax.Word) (pattern, trace string, err error) {
	return patternTrace(cfg, word, true)
}

func patternTrace(cfg *Config, word *syntax.Word, tracing bool) (pattern, trace string, err error) {
	if word == nil {
		return "", "", nil
	}
	if len(word.Parts) == 1 {
		// llmsh: a pattern of plain text (case's *5), with no tilde or
		// backslash that wordField would change, is itself: no
		// expansion to make for it each time it is matched.
		if lit, ok := word.Parts[0].(*syntax.Lit); ok && !strings.ContainsAny(lit.Value, "~\\\x00") {
			if tracing {
				return lit.Value, lit.Value, nil
			}
			return lit.Value, "", nil
		}
	}
	cfg = prepareConfig(cfg)
	// llmsh: a here-document's ${v#$'a'} decodes the $'…' of its
	// pattern, as bash (not the WORD of ${u:-$'\t'}).
	oldOps, oldHere := cfg.quotedOps, cfg.hereDoc
	cfg.quotedOps, cfg.hereDoc = true, false
	field, err := cfg.wordField(word.Parts, quoteNone)
	cfg.quotedOps, cfg.hereDoc = oldOps, oldHere
	if err != nil {
		return "", "", err
	}
	var pb, tb strings.Builder
	for _, part := range field {
		if part.quote > quoteNone {
			pb.WriteString(internal.BashQuoteMeta(part.val))
			for _, c := range part.val {
				if !tracing {
					break
				}
				tb.WriteByte('\\')
				tb.WriteRune(c)
			}
		} else {
			pb.WriteString(part.val)
			if tracing {
				tb.WriteString(part.val)
			}
		}
	}
	return pb.String(), tb.String(), nil
}

// Regexp expands the right side of [[ s =~ RE ]]: as [Literal], with the
// quoted parts (and escaped characters) of the word escaped, so that
// they match literally, as in bash.
func Regexp(cfg *Config, word *syntax.Word) (string, error) {
	if word == nil {
		return "", nil
	}
	cfg = prepareConfig(cfg)
	oldOps := cfg.quotedOps
	cfg.quotedOps = true
	field, err := cfg.wordField(word.Parts, quoteNone)
	cfg.quotedOps = oldOps
	if err != nil {
		return "", err
	}
	var text []byte
	var quoted []bool
	for _, part := range field {
		text = append(text, part.val...)
		for range len(part.val) {
			quoted = append(quoted, part.quote > quoteNone)
		}
	}
	sb := cfg.strBuilder()
	for i := 0; i < len(text); i++ {
		c := text[i]
		if quoted[i] {
			// llmsh: as bash's quote_string_for_globbing (QGLOB_REGEXP):
			// an ERE character quoted gets a backslash.
			if strings.IndexByte(`.[\()*+?{|^$`, c) >= 0 {
				sb.WriteByte('\\')
			}
			sb.WriteByte(c)
			continue
		}
		if c == '[' {
			if end := reBracketEnd(text, quoted, i); end > 0 {
				// In a bracket expression a quoted character is
				// written as it is: ["."] is [.], [\^] is [^] (an
				// error: no closing bracket), [\]] is []].
				sb.Write(text[i : end+1])
				i = end
				continue
			}
		}
		sb.WriteByte(c)
	}
	return cfg.checkValue(sb.String())
}

// reBracketEnd is the index of the unquoted ']' that closes the bracket
// expression at text[i], as bash finds it: after a leading ^ and a first
// ], a character class [:…:] skipped; -1 if none.
func reBracketEnd(text []byte, quoted []bool, i int) int {
	j := i + 1
	if j < len(text) && text[j] == '^' && !quoted[j] {
		j++
	}
	if j < len(text) && text[j] == ']' && !quoted[j] {
		j++
	}
	for ; j < len(text); j++ {
		if quoted[j] {
			continue
		}
		switch {
		case text[j] == ']':
			return j
		case text[j] == '[' && j+1 < len(text) && text[j+1] == ':':
			if k := bytes.Index(text[j+2:], []byte(":]")); k >= 0 {
				j += 2 + k + 1
			}
		}
	}
	return -1
}

// byteLocale reports whether the script's locale is C or POSIX (LC_ALL,
// else LC_CTYPE, else LANG), where bash counts a string's length and
// slices it in bytes. llmsh's own default, with none of them set, is
// UTF-8.
func (cfg *Config) byteLocale() bool { return ByteLocale(cfg.Env) }

// caseFunc is f, a case conversion, in the script's locale (llmsh): under
// C or POSIX bash converts the ASCII letters only (é stays é).
func (cfg *Config) caseFunc(f func(rune) rune) func(rune) rune {
	if !cfg.byteLocale() {
		return f
	}
	return func(r rune) rune {
		if r >= utf8.RuneSelf {
			return r
		}
		return f(r)
	}
}

// quoter quotes in the script's locale (llmsh).
func (cfg *Config) quoter() Quoter { return Quoter{Bytes: cfg.byteLocale()} }

// ByteLocale reports whether env's locale is C or POSIX, as
// Config.byteLocale (read -n counts bytes there, else characters).
func ByteLocale(env Environ) bool {
	for _, name := range [...]string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := env.Get(name); v.IsSet() && v.Kind == String && v.Str != "" {
			return v.Str == "C" || v.Str == "POSIX"
		}
	}
	return false
}

// assocKey is the key that subscript idx of an associative array names:
// its text when the parser read it as arithmetic (m[1/0] of an array
// declared on an earlier line), as bash.
// The words within such a text are expanded, as bash expands the whole
// subscript: m[$i,$j] on the line that declared m is the key "1,2".
func (cfg *Config) assocKey(idx syntax.ArithmExpr) (string, error) {
	return AssocKey(cfg, idx)
}

// AssocKey is the key that subscript idx of an associative array names
// (llmsh; see assocKey). The blanks between the parts of an expression
// are kept, one space for each column they took (m[$a + 2] is "1 + 2").
func AssocKey(cfg *Config, idx syntax.ArithmExpr) (string, error) {
	// llmsh: no tilde expanded (m[~]=1 is the key ~), as bash.
	// And the subscript is unquoted text inside double quotes too
	// ("${m[a\ b]}" is the key "a b").
	if cfg != nil {
		old, oldDbl, oldCond := cfg.tildes, cfg.dblQuoted, cfg.CondJoin
		cfg.tildes, cfg.dblQuoted, cfg.CondJoin = tildeNone, false, true
		defer func() { cfg.tildes, cfg.dblQuoted, cfg.CondJoin = old, oldDbl, oldCond }()
	}
	if w, ok := idx.(*syntax.Word); ok {
		return Literal(cfg, elemRefText(w))
	}
	var sb strings.Builder
	end := uint(0)
	add := func(pos syntax.Pos, size uint, s string) {
		if end > 0 && pos.Offset() > end {
			sb.WriteString(strings.Repeat(" ", int(pos.Offset()-end)))
		}
		sb.WriteString(s)
		end = pos.Offset() + size
	}
	op := func(pos syntax.Pos, s string) { add(pos, uint(len(s)), s) }
	var walk func(x syntax.ArithmExpr) error
	walk = func(x syntax.ArithmExpr) error {
		switch x := x.(type) {
		case *syntax.Word:
			s, err := Literal(cfg, elemRefText(x))
			if err != nil {
				return err
			}
			add(x.Pos(), x.End().Offset()-x.Pos().Offset(), s)
		case *syntax.UnaryArithm:
			if x.Post {
				if err := walk(x.X); err != nil {
					return err
				}
				op(x.OpPos, x.Op.String())
				return nil
			}
			op(x.OpPos, x.Op.String())
			return walk(x.X)
		case *syntax.BinaryArithm:
			if err := walk(x.X); err != nil {
				return err
			}
			op(x.OpPos, x.Op.String())
			return walk(x.Y)
		case *syntax.ParenArithm:
			op(x.Lparen, "(")
			if err := walk(x.X); err != nil {
				return err
			}
			op(x.Rparen, ")")
		default:
			s := SubscriptText(x)
			add(x.Pos(), x.End().Offset()-x.Pos().Offset(), s)
		}
		return nil
	}
	if err := walk(idx); err != nil {
		return "", err
	}
	return sb.String(), nil
}

// elemRefText is w with each element reference the arithmetic parser
// made of its text (a[1], a ParamExp with no $) put back as that text,
// its subscript still to expand: an associative array's key is text,
// m[a[1]] has the key "a[1]", as bash (llmsh).
func elemRefText(w *syntax.Word) *syntax.Word {
	var parts []syntax.WordPart
	for i, part := range w.Parts {
		pe, ok := part.(*syntax.ParamExp)
		if !ok || pe.Dollar.IsValid() || pe.Index == nil || pe.Param == nil {
			if parts != nil {
				parts = append(parts, part)
			}
			continue
		}
		if parts == nil {
			parts = append(parts, w.Parts[:i]...)
		}
		parts = append(parts, &syntax.Lit{ValuePos: pe.Pos(), ValueEnd: pe.Pos(), Value: pe.Param.Value + "["})
		if iw, ok := pe.Index.(*syntax.Word); ok {
			parts = append(parts, elemRefText(iw).Parts...)
		} else {
			parts = append(parts, &syntax.Lit{ValuePos: pe.Pos(), ValueEnd: pe.Pos(), Value: SubscriptText(pe.Index)})
		}
		parts = append(parts, &syntax.Lit{ValuePos: pe.End(), ValueEnd: pe.End(), Value: "]"})
	}
	if parts == nil {
		return w
	}
	return &syntax.Word{Parts: parts}
}

// quotedBad gives bash's message for a malformed ${…} among parts: bash
// names the whole text that holds it (the word, the inside of double
// quotes, a here-document, the WORD of ${v:-WORD}): "a${x y}b: bad
// substitution", not just the ${…}. Other errors are returned as they
// are.
func quotedBad(parts []syntax.WordPart, err error) error {
	var pe ParamError
	if !errors.As(err, &pe) {
		return err
	}
	if pe.node != nil {
		// llmsh: ${x@Z}: the word too (bash's "a${x@Z}b: bad
		// substitution"), once.
		for _, part := range parts {
			if part == pe.node {
				var b strings.Builder
				syntax.NewPrinter().Print(&b, &syntax.Word{Parts: parts})
				return ParamError{Msg: b.String() + ": bad substitution", Fatal: pe.Fatal}
			}
		}
		return err
	}
	if pe.Fatal {
		return err
	}
	for _, part := range parts {
		if bad, ok := part.(*syntax.ParamExp); ok && bad.Bad != "" && pe.Msg == bad.Bad+": bad substitution" {
			var b strings.Builder
			syntax.NewPrinter().Print(&b, &syntax.Word{Parts: parts})
			return ParamError{Msg: b.String() + ": bad substitution"}
		}
	}
	return err
}

// hexVal is the value of the hexadecimal digit c, else -1.
func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// DollarSingle is dollarSingle, for the interpreter's trace (llmsh).
func DollarSingle(cfg *Config, s string) string { return dollarSingle(cfg, s) }

// dollarSingle is the value of $'...' text: its escapes decoded, cut at
// a NUL as bash (llmsh: \cX too).
func dollarSingle(cfg *Config, s string) string {
	if strings.Contains(s, `\u`) || strings.Contains(s, `\U`) {
		if bytes := cfg.byteLocale(); cfg.ParseLocale == 2 || cfg.ParseLocale == 0 && bytes {
			s = ansiCUnicode(s)
		}
	}
	s, _, _ = Format(cfg, ansiControl(s), nil)
	s, _, _ = strings.Cut(s, "\x00")
	return s
}

// ansiCUnicode turns the \uHHHH and \UHHHHHHHH escapes of a $'...'
// string into what bash makes of them in the C or POSIX locale, which
// cannot encode a character past ASCII (u32cconv, then u32tocesc): an
// ASCII character is itself, any other the escape's text by its value,
// \u00E9 up to U+FFFF, else \U0001F600, in upper-case hex (llmsh).
func ansiCUnicode(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			sb.WriteByte(s[i])
			continue
		}
		c := s[i+1]
		if c != 'u' && c != 'U' {
			sb.WriteString(s[i : i+2])
			i++
			continue
		}
		want := 4
		if c == 'U' {
			want = 8
		}
		j, v := i+2, uint32(0)
		for ; j < len(s) && j < i+2+want && hexVal(s[j]) >= 0; j++ {
			v = v<<4 | uint32(hexVal(s[j]))
		}
		switch {
		case j == i+2: // no digits: Format keeps \u
			sb.WriteString(s[i : i+2])
		case v < 0x80:
			fmt.Fprintf(&sb, `\x%02x`, v)
		case v <= 0xffff:
			fmt.Fprintf(&sb, `\\u%04X`, v)
		default:
			fmt.Fprintf(&sb, `\\U%08X`, v)
		}
		i = j - 1
	}
	return sb.String()
}

// ansiControl turns the \cX escapes of a $'...' string into their
// control characters, as bash (\cA and \ca are 0x01, \c? is 0x7f, \c\\
// is 0x1c), and bash's \x{HHH…} (the low byte of the number, \x{} a
// NUL) into \xHH; Format does the other escapes (llmsh).
func ansiControl(s string) string {
	if !strings.Contains(s, `\c`) && !strings.Contains(s, `\x{`) {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			sb.WriteByte(s[i])
			continue
		}
		if s[i+1] == 'x' && i+2 < len(s) && s[i+2] == '{' {
			j, n := i+3, byte(0)
			for ; j < len(s) && hexVal(s[j]) >= 0; j++ {
				n = n<<4 | byte(hexVal(s[j]))
			}
			if j < len(s) && s[j] == '}' {
				j++
			}
			fmt.Fprintf(&sb, `\x%02x`, n)
			i = j - 1
			continue
		}
		if s[i+1] != 'c' || i+2 >= len(s) {
			sb.WriteString(s[i : i+2])
			i++
			continue
		}
		c := s[i+2]
		i += 2
		if c == '\\' && i+1 < len(s) && s[i+1] == '\\' {
			i++ // \c\\ is one escaped backslash
		}
		if c == '?' {
			sb.WriteByte(0x7f)
		} else {
			sb.WriteByte(c & 0x1f)
		}
	}
	return sb.String()
}

// dquoteMarksGone is s with its double quotes removed and \" made ", as
// bash reads the text of a single-quoted part of ${u:-…} inside double
// quotes; other backslashes stay for the here-document parse after.
func dquoteMarksGone(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s):
			if s[i+1] != '"' {
				sb.WriteByte(c)
			}
			sb.WriteByte(s[i+1])
			i++
		case c == '"':
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

// escapedNameChars is how many characters of a name start s once its
// backslashes are removed, each of them escaped (\q\r: 2), as they
// continue a $name before them.
func escapedNameChars(s string) int {
	n := 0
	for i := 0; i+1 < len(s) && s[i] == '\\'; i += 2 {
		c := s[i+1]
		if c != '_' && !('a' <= c && c <= 'z') && !('A' <= c && c <= 'Z') && !('0' <= c && c <= '9') {
			break
		}
		n++
	}
	return n
}

// dblHasEscape reports whether a literal part of dq holds a backslash.
func dblHasEscape(dq *syntax.DblQuoted) bool {
	for _, p := range dq.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.Contains(l.Value, `\`) {
			return true
		}
	}
	return false
}

// unescapeAll removes each backslash and keeps the character after it, as
// quote removal does in unquoted text (a backslash-newline goes whole).
func unescapeAll(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// RandomDrawer is an environment whose $RANDOM changes only when drawn:
// its Get of RANDOM gives the number last drawn, so that looking the
// variable up for its attributes draws none.
type RandomDrawer interface{ DrawRandom() }

// drawRandom draws $RANDOM's next number for an expansion of it, once per
// node in one expansion (llmsh): a word's parts may look at one
// ${RANDOM…} more than once, bash draws for each ${RANDOM} written.
func (cfg *Config) drawRandom(pe *syntax.ParamExp) {
	if pe.Param == nil || pe.Param.Value != "RANDOM" || pe.Excl {
		return
	}
	cfg.drawRandomAt(pe.Param)
}

// drawRandomAt draws for the expansion written at key (the name of a
// ${RANDOM}, or of a ${!n} that names RANDOM), unless it drew already in
// this expansion: copies of a node share its name.
func (cfg *Config) drawRandomAt(key *syntax.Lit) {
	if cfg.randDrawn(key) {
		cfg.drawRandomName()
	}
}

// randDrawn records that the expansion written at key has drawn in this
// expansion, and reports whether it had not yet.
func (cfg *Config) randDrawn(key *syntax.Lit) bool {
	if cfg.randNodeGen != cfg.randGen {
		cfg.randNodes, cfg.randNodeGen = cfg.randNodes[:0], cfg.randGen
	}
	if slices.Contains(cfg.randNodes, key) {
		return false
	}
	cfg.randNodes = append(cfg.randNodes, key)
	return true
}

// drawRandomName draws $RANDOM's next number.
func (cfg *Config) drawRandomName() {
	if d, ok := cfg.Env.(RandomDrawer); ok {
		d.DrawRandom()
	}
}

// extGlobParts expands the text of an extended pattern, @(…), +(…) and
// the others (llmsh): as bash, its expansions are expanded ($v in
// @($v|y) is a pattern) and its quoted parts match as they are
// (@('a*') matches a*). The parser keeps that text as a literal; it is
// read again as the pattern of ${x#…}, whose quotes and expansions the
// parser knows.
func (cfg *Config) extGlobParts(eg *syntax.ExtGlob) ([]fieldPart, error) {
	text := eg.Pattern.Value
	open := fieldPart{val: eg.Op.String()}
	if !strings.ContainsAny(text, "$`'\"\\") {
		return []fieldPart{{val: open.val + text + ")"}}, nil
	}
	f, err := syntax.NewParser().Parse(strings.NewReader("${x#"+text+"}"), "")
	var pe *syntax.ParamExp
	if err == nil && len(f.Stmts) == 1 {
		if call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(call.Args) == 1 && len(call.Args[0].Parts) == 1 {
			pe, _ = call.Args[0].Parts[0].(*syntax.ParamExp)
		}
	}
	if pe == nil || pe.Exp == nil || pe.Exp.Word == nil {
		return []fieldPart{{val: open.val + text + ")"}}, nil
	}
	parts, err := cfg.wordField(pe.Exp.Word.Parts, quoteNone)
	if err != nil {
		return nil, err
	}
	return append(append([]fieldPart{open}, parts...), fieldPart{val: ")"}), nil
}

// dirStackTilde is the directory of ~N, ~+N and ~-N (llmsh): entry N of
// the directory stack (DIRSTACK, as dirs -v numbers it), counted from its
// end after a minus, as bash.
func (cfg *Config) dirStackTilde(name string) (string, bool) {
	digits := strings.TrimLeft(name, "+-")
	if digits == "" || len(name)-len(digits) > 1 || len(digits) > 9 {
		return "", false
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n < 0 || digits[0] == '+' || digits[0] == '-' {
		return "", false
	}
	vr := cfg.Env.Get("DIRSTACK")
	if vr.Kind != Indexed {
		return "", false
	}
	stack := vr.List
	if name[0] == '-' {
		n = len(stack) - 1 - n
	}
	if n < 0 || n >= len(stack) {
		return "", false
	}
	return stack[n], true
}

// appendBashUTF8 is bash's u32toutf8: UTF-8 extended to 31 bits, so a
// surrogate (\ud800) or a value past U+10FFFF is encoded as it comes, and
// nothing is written from 0x80000000 on.
func appendBashUTF8(dst []byte, v uint32) []byte {
	var n int
	switch {
	case v < 0x80:
		return append(dst, byte(v))
	case v < 0x800:
		n = 2
	case v < 0x10000:
		n = 3
	case v < 0x200000:
		n = 4
	case v < 0x4000000:
		n = 5
	case v < 0x80000000:
		n = 6
	default:
		return dst
	}
	var b [6]byte
	for i := n - 1; i > 0; i-- {
		b[i] = byte(v&0x3f) | 0x80
		v >>= 6
	}
	b[0] = byte(v) | byte(uint16(0xff00)>>n)
	return append(dst, b[:n]...)
}

// joinedRef gives, for pe, the ${a[@]} or ${a[*]} that a braced ${r} of
// a nameref stands for (ParamExp.Joined), the plain ${a} with its
// operators and a string variable of the elements joined as "${a[*]}"
// joins them (a[@]'s by a space in an assignment's value), set when
// there is one (llmsh).
func (cfg *Config) joinedRef(pe *syntax.ParamExp) (*syntax.ParamExp, Variable, error) {
	list := &syntax.ParamExp{Dollar: pe.Dollar, Rbrace: pe.Rbrace, Param: pe.Param, Index: pe.Index}
	elems, _, _, err := cfg.listElems(list)
	if err != nil {
		return nil, Variable{}, err
	}
	str := cfg.ifsJoin(elems)
	if cfg.assignValue && nodeLit(pe.Index) == "@" {
		// bash joins a[@]'s by a space in an assignment's value.
		str = cfg.joinValues(elems, " ")
	}
	npe := *pe
	npe.Joined, npe.Index = false, nil
	return &npe, Variable{Kind: String, Set: len(elems) > 0, Str: str}, nil
}

// viaNameRef reports whether pe, ${r} or ${!x}, names a nameref: r, or
// the name x holds (llmsh).
func (cfg *Config) viaNameRef(pe *syntax.ParamExp) bool {
	name := pe.Param.Value
	if pe.Excl {
		name = cfg.Env.Get(name).String()
	}
	return syntax.ValidName(name) && cfg.Env.Get(name).Kind == NameRef
}
