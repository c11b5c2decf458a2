// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package expand

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/llmsh/llmsh/third_party/sh/internal"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
	"mvdan.cc/sh/v3/pattern"
)

func nodeLit(node syntax.Node) string {
	if word, ok := node.(*syntax.Word); ok && word != nil {
		return word.Lit() // llmsh: not of a nil word (${a[@]@})
	}
	return ""
}

// UnsetParameterError is returned when a parameter expansion encounters an
// unset variable and [Config.NoUnset] has been set.
type UnsetParameterError struct {
	Node    *syntax.ParamExp
	Message string
	// Name, when set, names the parameter in the message in place of
	// Node's ("a[5]" for an unset element; llmsh).
	Name string
}

func (u UnsetParameterError) Error() string {
	name := u.Name
	if name == "" {
		name = u.Node.Param.Value
		if u.Node.Short && name != "" && (name[0] >= '0' && name[0] <= '9' || name == "!") {
			name = "$" + name // llmsh: bash's "$1: unbound variable", "$!: …"
		}
	}
	return fmt.Sprintf("%s: %s", name, u.Message)
}

// dblQuotedWord gives the word of "${v:-WORD}" as the double-quoted
// text it is, where \} stands for } as well.
func dblQuotedWord(w *syntax.Word) *syntax.Word {
	parts := make([]syntax.WordPart, len(w.Parts))
	for i, p := range w.Parts {
		if lit, ok := p.(*syntax.Lit); ok && strings.Contains(lit.Value, `\}`) {
			var b strings.Builder
			for j := 0; j < len(lit.Value); j++ {
				c := lit.Value[j]
				if c == '\\' && j+1 < len(lit.Value) {
					if lit.Value[j+1] != '}' {
						b.WriteByte(c)
					}
					j++
					c = lit.Value[j]
				}
				b.WriteByte(c)
			}
			p = &syntax.Lit{ValuePos: lit.ValuePos, ValueEnd: lit.ValueEnd, Value: b.String()}
		}
		parts[i] = p
	}
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: parts}}}
}

func overridingUnset(pe *syntax.ParamExp) bool {
	if pe.Exp == nil {
		return false
	}
	switch pe.Exp.Op {
	case syntax.AlternateUnset, syntax.AlternateUnsetOrNull,
		syntax.DefaultUnset, syntax.DefaultUnsetOrNull,
		syntax.ErrorUnset, syntax.ErrorUnsetOrNull,
		syntax.AssignUnset, syntax.AssignUnsetOrNull:
		return true
	}
	return false
}

// emptyWord reports whether w has no text at all (${v:?} but not
// ${v:?$e}).
func emptyWord(w *syntax.Word) bool { return w == nil || len(w.Parts) == 0 }

// unquotedLiteral is w expanded as text outside double quotes, its fields
// joined by spaces (no pathname expansion), as bash's expand_string and
// string_list.
func (cfg *Config) unquotedLiteral(w *syntax.Word) (string, error) {
	if w == nil {
		return "", nil
	}
	old := cfg.dblQuoted
	cfg.dblQuoted = false
	defer func() { cfg.dblQuoted = old }()
	fields, err := cfg.wordFields(w.Parts)
	if err != nil {
		return "", err
	}
	strs := make([]string, 0, len(fields))
	for _, f := range fields {
		s, err := cfg.fieldJoin(f)
		if err != nil {
			return "", err
		}
		strs = append(strs, s)
	}
	return strings.Join(strs, " "), nil
}

// bareTrim reports whether pe is ${x%} or ${x#}, an operator with no
// pattern at all, which bash's parameter_brace_expand skips, keeping the
// value it has (the name, for ${!ref%} of a nameref to an array).
func bareTrim(pe *syntax.ParamExp) bool {
	return pe.Exp != nil && (pe.Exp.Op == syntax.RemSmallSuffix || pe.Exp.Op == syntax.RemSmallPrefix) &&
		(pe.Exp.Word == nil || len(pe.Exp.Word.Parts) == 0)
}

// ifsJoinOp reports whether pe trims or transforms each element
// (${a[@]#x}, ${@@Q}), whose elements bash joins by IFS's first
// character where one string is wanted (x=${a[@]@U}), as for ${a[*]},
// but by a space when IFS is empty; other list expansions are joined by
// spaces (llmsh).
func ifsJoinOp(pe *syntax.ParamExp) bool {
	if pe.Exp == nil {
		return false
	}
	switch pe.Exp.Op {
	case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix:
		return true
	case syntax.OtherParamOps:
		op := nodeLit(pe.Exp.Word)
		return len(op) == 1 && strings.Contains("QEPUuLak", op)
	}
	return false
}

// condIFSOp reports whether pe, a list expansion, has an operator that
// makes bash split its joined elements by IFS in [[ ]] and case: a
// slice, a replacement, a case conversion, a trim, a transformation
// (llmsh: condSplitJoin).
func condIFSOp(pe *syntax.ParamExp) bool {
	if pe.Slice != nil || pe.Repl != nil || ifsJoinOp(pe) {
		return true
	}
	if pe.Exp != nil {
		switch pe.Exp.Op {
		case syntax.UpperFirst, syntax.UpperAll, syntax.LowerFirst, syntax.LowerAll,
			syntax.ToggleFirst, syntax.ToggleAll:
			return true
		}
	}
	return false
}

// condSplitJoin is the text s (the elements joined by IFS's first
// character) of an unquoted list expansion with an operator in [[ ]], a
// case word or an associative array's subscript, as bash gives it when
// IFS starts with a character that is no blank: split into fields by
// IFS, then joined by spaces (IFS=:; a=(x:y z); [[ ${a[@]:0} == "x y z"
// ]]). Bash
// marks an empty field there in a way a case pattern does not match;
// llmsh keeps it empty (llmsh).
func (cfg *Config) condSplitJoin(s string) string {
	ifs := cfg.ifsValue()
	if ifs == "" || ifs[0] == ' ' || ifs[0] == '\t' || ifs[0] == '\n' {
		return s
	}
	white := func(r rune) bool { return (r == ' ' || r == '\t' || r == '\n') && strings.ContainsRune(ifs, r) }
	rs := []rune(s)
	var fields []string
	i := 0
	for i < len(rs) && white(rs[i]) {
		i++
	}
	for i < len(rs) {
		start := i
		for i < len(rs) && !strings.ContainsRune(ifs, rs[i]) {
			i++
		}
		fields = append(fields, string(rs[start:i]))
		for i < len(rs) && white(rs[i]) {
			i++
		}
		if i < len(rs) && !white(rs[i]) && strings.ContainsRune(ifs, rs[i]) {
			for i++; i < len(rs) && white(rs[i]); i++ {
			}
		}
	}
	return strings.Join(fields, " ")
}

// rhsIFSJoin reports whether bash joins the elements of the list
// expansion pe by IFS's first character (when IFS is not empty) in the
// value of an assignment or a here-string, which are not split (llmsh):
// ${!prefix@} and the per-element trims and transformations always; in
// double quotes also a slice, a replacement, a case conversion and the
// keys ${!a[@]} (a=(x y); IFS=,; v="${a[@]:0}" is x,y; v="${a[@]}" and
// v=${a[@]:0} are x y). [[ ]] and case join them all by spaces.
func rhsIFSJoin(pe *syntax.ParamExp, dbl bool) bool {
	if pe.Names == syntax.NamesPrefixWords || ifsJoinOp(pe) {
		return true
	}
	if !dbl {
		return false
	}
	if pe.Slice != nil || pe.Repl != nil || pe.Excl && pe.Names == 0 && pe.Index != nil {
		return true
	}
	if pe.Exp != nil {
		switch pe.Exp.Op {
		case syntax.UpperFirst, syntax.UpperAll, syntax.LowerFirst, syntax.LowerAll:
			return true
		}
	}
	return false
}

// paramExp is paramExpText checked against MaxValue (llmsh): one part of
// a word (${x@Q} quadruples a value) must not pile up with the others.
func (cfg *Config) paramExp(pe *syntax.ParamExp) (string, error) {
	s, err := cfg.paramExpText(pe)
	if err != nil {
		return "", err
	}
	return cfg.checkValue(s)
}

func (cfg *Config) paramExpText(pe *syntax.ParamExp) (string, error) {
	cfg.drawRandom(pe) // llmsh
	// llmsh: a quoted list of a replacement marks its empty elements;
	// what it expands in turn does not (markAt).
	markAt := cfg.markAt
	if markAt {
		cfg.markAt = false
		defer func() { cfg.markAt = true }()
	}
	// llmsh: the word of ${v:-WORD} is left to the splitter (deferWord).
	deferWord := cfg.deferWord
	cfg.deferWord = false
	oldParam, oldArray := cfg.curParam, cfg.curArray
	cfg.curParam, cfg.curArray = pe, ""
	defer func() { cfg.curParam, cfg.curArray = oldParam, oldArray }()

	if pe.Param == nil { // e.g. zsh's ${}
		return "", fmt.Errorf("unsupported")
	}
	if pe.Excl && pe.Names == 0 && pe.Index == nil && (pe.Param.Value == "$" || pe.Param.Value == "!") {
		// llmsh: ${!$}, ${!!…}: bash's bad substitution (the line is
		// abandoned).
		var b strings.Builder
		syntax.NewPrinter().Print(&b, pe)
		return "", ParamError{Msg: b.String() + ": bad substitution", node: pe}
	}
	// llmsh: ${!x} and namerefs to elements name another parameter.
	written := pe
	cfg.gotFor = nil
	pe, err := cfg.resolveParam(pe)
	if err != nil {
		return "", err
	}
	if pe != written && !pe.Excl && pe.Param != nil {
		cfg.curArray = pe.Param.Value // llmsh: x=A[-9]; ${!x}, a nameref to A[-9]: "A: …"
	}
	got, gotOK := cfg.got, cfg.gotFor == pe
	cfg.gotFor, cfg.got = nil, Variable{}
	// llmsh: ${r@A} and ${r@a} of a nameref to an element (r=a[1],
	// a[@]) are nothing, as bash.
	if pe != written && pe.Index != nil && written.Param != nil && written.Names == 0 && written.Index == nil &&
		pe.Exp != nil && cfg.viaNameRef(written) && pe.Exp.Op == syntax.OtherParamOps && (nodeLit(pe.Exp.Word) == "A" || nodeLit(pe.Exp.Word) == "a") {
		return "", nil
	}
	if pe.Joined {
		pe, got, err = cfg.joinedRef(pe)
		if err != nil {
			return "", err
		}
		gotOK = true
	}
	name := pe.Param.Value
	index := pe.Index
	switch name {
	case "@", "*":
		index = &syntax.Word{Parts: []syntax.WordPart{
			&syntax.Lit{Value: name},
		}}
	}
	// "*" expansions like ${*}, ${arr[*]}, or ${!prefix*} join their
	// elements with the first IFS character; others use a space.
	join := func(elems []string) string {
		if markAt && cfg.dblQuoted && nodeLit(index) == "@" {
			return cfg.joinMarked(elems)
		}
		if cfg.CondJoin && !cfg.dblQuoted && nodeLit(index) == "@" && condIFSOp(pe) {
			return cfg.condSplitJoin(cfg.ifsJoin(elems))
		}
		if cfg.hereDoc && hereDocSpaces(pe) {
			return cfg.joinValues(elems, " ") // llmsh: as bash's string_list
		}
		if cfg.declValue && !cfg.dblQuoted && nodeLit(index) == "*" && declSpaceJoin(pe, name) && cfg.ifsValue() == "" {
			return cfg.joinValues(elems, " ") // llmsh: export v=$*, IFS=''
		}
		if nodeLit(index) == "*" || pe.Names == syntax.NamesPrefix || cfg.rhsJoin && cfg.ifsValue() != "" && rhsIFSJoin(pe, cfg.dblQuoted) {
			return cfg.ifsJoin(elems)
		}
		return cfg.joinValues(elems, " ") // llmsh: bounded
	}
	var vr Variable
	switch {
	case name == "LINENO" && !cfg.PlainLineno && !cfg.Env.Get(name).Local: // llmsh: local LINENO is plain
		// This is the only parameter expansion that the environment
		// interface cannot satisfy.
		line := int64(cfg.curParam.Pos().Line()) + int64(cfg.LineOffset) // llmsh
		if cfg.CmdLine != 0 {
			line = int64(cfg.CmdLine)
		}
		if cfg.TrapLine != 0 {
			line = int64(cfg.TrapLine) // llmsh: in the ERR trap's action
		}
		vr = Variable{Set: true, Kind: String, Str: strconv.FormatInt(line, 10)}
	case gotOK:
		vr = got // llmsh: resolveParam's lookup of it
	default:
		vr = cfg.Env.Get(name)
	}
	orig := vr
	if n, v := vr.Resolve(cfg.Env); n != "" {
		name, vr = n, v
		if !strings.Contains(n, "[") && v.Declared() {
			cfg.curArray = n // llmsh: else bash names the nameref
		}
		if !v.Declared() && cfg.Warn != nil && circularRef(cfg.Env, orig) {
			cfg.Warn("warning: " + pe.Param.Value + ": circular name reference")
		} else if orig.Local {
			// llmsh: local -n l=l; bash warns twice for an element.
			n := 1
			if index != nil && !pe.Length && !allIndex(index) {
				n = 2
			}
			cfg.selfRefWarn(pe.Param.Value, orig, n)
		}
	}
	if pe.Excl && pe.Names == 0 && pe.Index == nil && orig.Kind == NameRef && (pe.Exp != nil || pe.Repl != nil || pe.Slice != nil) {
		// llmsh: ${!ref OP} of a nameref: OP applies to the array ref
		// names (${a OP}, its element 0), else to the name itself, with
		// the attributes of the variable it names, as bash's; the
		// operators that test for a value (${!ref-w}, ${!ref:=w}) test
		// the name even for an array (bash: "A" of declare -n r=A), and
		// ${!ref%}, ${!ref#} (no pattern at all) leave the name as it is.
		if strings.Contains(name, "[") && !overridingUnset(pe) && !bareTrim(pe) {
			// llmsh: of a nameref to an element (r='A[2]'), OP applies
			// to the element: ${!r,,} is ${A[2],,}, as bash.
			if p, idx, ok := ParseRef(name); ok && idx != nil {
				pe3 := *pe
				pe3.Excl, pe3.Param, pe3.Index = false, p, idx
				return cfg.paramExpText(&pe3)
			}
		}
		pe2 := *pe
		pe2.Excl = false
		pe = &pe2
		if vr.Kind != Indexed && vr.Kind != Associative || overridingUnset(pe) || bareTrim(pe) {
			if !vr.Declared() && pe.Exp != nil && pe.Exp.Op == syntax.OtherParamOps && nodeLit(pe.Exp.Word) == "A" {
				return "", nil // ${!ref@A} of an unset name is nothing
			}
			vr.Kind, vr.Str, vr.Set = String, name, true
			vr.List, vr.Map, vr.Indexes = nil, nil, nil
		}
	}
	if cfg.NoUnset && pe.Length && index != nil && !pe.Excl && pe.Names == 0 && syntax.ValidName(name) &&
		(!vr.IsSet() || vr.Kind != Indexed && vr.Kind != Associative) {
		// llmsh: ${#a[@]}, ${#a[i]} of a name that is no array with a
		// value (unset, declare -a a, a scalar) is bash's unbound
		// variable, which abandons the line with status 1.
		return "", ParamError{Msg: name + ": unbound variable"}
	}
	// llmsh: an element (${a[i]}, or $a of an array) is checked for set
	// -u once it is read.
	elemIndex := !pe.Excl && index != nil && !allIndex(index)
	if cfg.NoUnset && !vr.IsSet() && pe.Names == 0 && !overridingUnset(pe) && !(pe.Excl && pe.Index != nil) && !(allIndex(index) && !pe.Length) && !elemIndex {
		if written.Excl && written != pe {
			return "", unboundIndirect(written) // llmsh: "!r: unbound variable"
		}
		return "", UnsetParameterError{
			Node:    pe,
			Message: "unbound variable",
		}
	}

	var (
		str   string
		elems []string

		indexAllElements bool // true if var has been accessed with * or @ index
		callVarInd       = true
		set              = vr.IsSet()
	)

	switch nodeLit(index) {
	case "@", "*":
		switch vr.Kind {
		case Unknown, NameRef: // llmsh: a nameref to nothing has no elements
			elems = nil
			indexAllElements = true
		case Indexed:
			indexAllElements = true
			callVarInd = false
			if elems, err = cfg.sliceElems(pe, vr.List, vr.Indexes, positionalIf(name == "@" || name == "*")); err != nil {
				return "", err
			}
			str = join(elems)
			set = len(elems) > 0 // llmsh: ${@-d} with no parameters is d
		case Associative:
			// llmsh: in bash's order, and sliced as a list.
			indexAllElements = true
			callVarInd = false
			if elems, err = cfg.sliceElems(pe, cfg.assocValues(vr), nil, sliceAssoc); err != nil {
				return "", err
			}
			str = join(elems)
			set = len(elems) > 0
		case String:
			// llmsh: ${s[@]} of a scalar is its one element (${#s[@]} 1);
			// ${s[@]:1:2} slices its text, as bash. One with only
			// attributes (declare -x s) has none.
			if !vr.IsSet() {
				indexAllElements = true
				callVarInd = false
				break
			}
			if pe.Slice != nil {
				index = nil
				break
			}
			indexAllElements = true
			callVarInd = false
			if elems, err = cfg.sliceElems(pe, []string{vr.Str}, nil, sliceList); err != nil {
				return "", err
			}
			str = join(elems)
		}
	}
	if pe.Length && elemIndex && !vr.IsSet() {
		// llmsh: ${#a[i]} of a name with no value is 0, the subscript
		// not evaluated (bash's array_length_reference).
		callVarInd = false
	}
	if callVarInd {
		var err error
		str, set, err = cfg.varIndFresh(name, vr, index)
		if err != nil {
			return "", err
		}
	}
	arrayZero := !pe.Excl && index == nil && (vr.Kind == Indexed || vr.Kind == Associative)
	if cfg.NoUnset && (elemIndex && !pe.Length || arrayZero && !(attrOp(pe) && len(vr.List)+len(vr.Map) > 0)) && !set && !overridingUnset(pe) {
		// llmsh: set -u and an unset element: "a[i]: unbound variable".
		if written.Excl && written != pe {
			return "", unboundIndirect(written)
		}
		u := UnsetParameterError{Node: pe, Message: "unbound variable", Name: pe.Param.Value}
		if index != nil {
			u.Name += "[" + SubscriptText(index) + "]" // ${#a[5]} is 0
		}
		return "", u
	}
	if !indexAllElements && (pe.Length || pe.Slice != nil || pe.Repl != nil || pe.Exp != nil) {
		// llmsh: only the operators below take the value as a list:
		// a plain $v makes none (an allocation each).
		elems = []string{str}
	}

	switch {
	case pe.Length:
		n := len(elems)
		switch nodeLit(index) {
		case "@", "*":
		default:
			n = utf8.RuneCountInString(str)
			if n != len(str) && cfg.byteLocale() {
				n = len(str) // llmsh: LC_ALL=C counts bytes, as bash
			}
		}
		str = strconv.Itoa(n)
	case pe.Excl:
		var strs []string
		switch {
		case pe.Names != 0:
			strs = cfg.namesByPrefix(pe.Param.Value)
		case orig.Kind == NameRef && pe.Index == nil:
			// llmsh: the name at the end of a chain of namerefs, as
			// bash (declare -n b=a a=x: ${!b} is x).
			if n, _ := orig.Resolve(cfg.Env); n != "" {
				strs = append(strs, n)
			} else {
				strs = append(strs, orig.Str)
			}
		case pe.Index != nil && vr.Kind == Indexed:
			strs = vr.indexedKeys()
		case pe.Index != nil && vr.Kind == Associative:
			strs = cfg.assocKeys(vr)
		case pe.Index != nil:
			// ${!s[@]} of a scalar: its one key, 0.
			if vr.IsSet() {
				strs = append(strs, "0")
			}
		}
		str = join(strs)
	case pe.Width:
		return "", fmt.Errorf("unsupported")
	case pe.IsSet:
		return "", fmt.Errorf("unsupported")
	case pe.Slice != nil && callVarInd && !set:
		// llmsh: the offset and length of an unset value or element are
		// not evaluated, as bash (${u:1/0}, ${a[9]:0:-1} are nothing).
		str = ""
	case pe.Slice != nil:
		if callVarInd {
			// llmsh: evaluated after the subscript, as bash
			// (${a[i++]:i++}).
			var sliceOffset, sliceLen int
			if pe.Slice.Offset != nil {
				if sliceOffset, err = cfg.sliceArithm(pe, pe.Slice.Offset); err != nil {
					return "", err
				}
			}
			// The offset and length are in characters, not bytes
			// (llmsh: in bytes under LC_ALL=C, as bash); a byte that
			// is no part of valid UTF-8 is a character of its own,
			// kept as it is (bash).
			starts := charStarts(str, cfg.byteLocale())
			n := len(starts)
			from, to := 0, n
			if pe.Slice.Offset != nil {
				if o := sliceOffset; o > n || o < 0 && o+n < 0 {
					str = "" // llmsh: out of range, nothing (no length error)
					break
				}
				from = sliceCount(sliceOffset, n) // in range: 0..n
			}
			if pe.Slice.Length != nil {
				// llmsh: evaluated once the offset is in range
				// (${x:5:2:3} of abc is nothing, as bash).
				if sliceLen, err = cfg.sliceArithm(pe, pe.Slice.Length); err != nil {
					return "", err
				}
				if sliceLen < 0 && n-from+sliceLen < 0 {
					// llmsh: bash's error for an end before the start.
					return "", ParamError{Msg: sliceLenText(pe, sliceLen) + ": substring expression < 0"}
				}
				to = from + sliceCount(sliceLen, n-from)
			}
			starts = append(starts, len(str))
			str = Apart(str[starts[from]:starts[to]], str)
		} // else, elems are already sliced
	case pe.Repl != nil && !set:
		// llmsh: no value to replace in (${u/#/x} of an unset u is
		// empty, as bash; an empty value still gives x).
		str = ""
	case pe.Repl != nil:
		elems, err := cfg.replaceElems(pe.Repl, elems)
		if err != nil {
			return "", err
		}
		str = join(elems)
	case pe.Exp != nil:
		word := pe.Exp.Word
		litWord := word
		if cfg.dblQuoted && overridingUnset(pe) && word != nil {
			// llmsh: in "${v:-'x'}" the single quotes are characters,
			// and the word is double-quoted text ("${v:-~}" is ~).
			if cfg.NoExtQuote {
				word = dollarSglText(word)
			}
			if cfg.NoExtQuote || cfg.hereDoc {
				word = dollarDblText(word)
			}
			word = sglQuotesLiteral(word)
			if op := pe.Exp.Op; op != syntax.ErrorUnset && op != syntax.ErrorUnsetOrNull {
				word = cfg.quotedNameJoin(word)
			}
			litWord = dblQuotedWord(word)
		}
		// llmsh: the word is expanded only when it is used, as in bash
		// (${v:-$((i++))} with v set leaves i alone).
		var arg string
		switch op := pe.Exp.Op; op {
		case syntax.AlternateUnset, syntax.AlternateUnsetOrNull, syntax.DefaultUnset, syntax.DefaultUnsetOrNull:
			use := set
			switch op {
			case syntax.AlternateUnsetOrNull:
				use = str != ""
			case syntax.DefaultUnset:
				use = !set
			case syntax.DefaultUnsetOrNull:
				use = str == ""
			}
			if !use {
				if op == syntax.AlternateUnset || op == syntax.AlternateUnsetOrNull {
					str = ""
				}
				return str, nil
			}
			if deferWord {
				cfg.deferred = word
				return "", nil
			}
			return Literal(cfg, litWord)
		case syntax.ErrorUnset, syntax.AssignUnset:
			if set {
				return str, nil
			}
		case syntax.ErrorUnsetOrNull, syntax.AssignUnsetOrNull:
			if str != "" {
				return str, nil
			}
		}
		switch pe.Exp.Op {
		case syntax.RemSmallPrefix, syntax.RemLargePrefix,
			syntax.RemSmallSuffix, syntax.RemLargeSuffix:
			// a pattern, expanded below; llmsh: not for an empty
			// or unset value, as bash.
			if str == "" {
				return "", nil
			}
		case syntax.UpperFirst, syntax.UpperAll,
			syntax.LowerFirst, syntax.LowerAll,
			syntax.ToggleFirst, syntax.ToggleAll:
			// llmsh: a pattern, expanded below once; not for an
			// unset value, as bash.
			if !set {
				return "", nil
			}
		case syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
			// llmsh: bash expands the message of ${v:?WORD} as
			// unquoted text, also inside double quotes ("${v:?'a b'}"
			// says a b).
			var err error
			if arg, err = cfg.unquotedLiteral(pe.Exp.Word); err != nil {
				return "", err
			}
		default:
			var err error
			if arg, err = Literal(cfg, litWord); err != nil {
				return "", err
			}
		}
		switch op := pe.Exp.Op; op {
		case syntax.ErrorUnset:
			if set {
				break
			}
			if arg == "" && emptyWord(pe.Exp.Word) {
				arg = "parameter not set" // llmsh: ${v?$empty} says "v: "
			}
			return "", UnsetParameterError{Node: pe, Message: arg, Name: errorOpName(written)}
		case syntax.ErrorUnsetOrNull:
			if str == "" {
				if arg == "" && emptyWord(pe.Exp.Word) {
					arg = "parameter null or not set"
				}
				return "", UnsetParameterError{
					Node:    pe,
					Message: arg,
					Name:    errorOpName(written),
				}
			}
		case syntax.AssignUnset:
			if set {
				break
			}
			fallthrough
		case syntax.AssignUnsetOrNull:
			if str == "" {
				if written.Excl && written != pe && index != nil {
					// llmsh: ${!x:=w} with x=a[1]: bash's error,
					// which abandons the line.
					return "", ParamError{Msg: pe.Param.Value + "[" + SubscriptText(index) + "]: invalid variable name"}
				}
				if (index == nil || name == "@" || name == "*") && !syntax.ValidName(name) {
					// llmsh: ${1:=x}, ${@:=x}: bash's error, which abandons
					// the line.
					return "", ParamError{Msg: "$" + name + ": cannot assign in this way"}
				}
				elemIndex := index
				if allIndex(index) && vr.Kind == Associative {
					// llmsh: ${m[@]=w} assigns the key @, as bash.
					elemIndex = keyWord(index)
				} else if allIndex(index) {
					// llmsh: ${b[@]:=w} assigns nothing: bash's
					// error, which abandons the line, status 2; it
					// names a nameref as written (${r[@]:=w}).
					msgName := name
					if !written.Excl && written.Param != nil && written.Index != nil {
						msgName = written.Param.Value
					}
					return "", ParamError{Msg: msgName + "[" + nodeLit(index) + "]: bad array subscript", Status: 2}
				}
				if str, err = cfg.assignDefault(name, vr, elemIndex, arg); err != nil {
					if err == errNegativeIndex {
						// llmsh: m=(); ${m[-1]:=w}: bash's error,
						// which abandons the line, status 2.
						return "", ParamError{Msg: name + "[" + SubscriptText(elemIndex) + "]: bad array subscript", Status: 2}
					}
					if vr.ReadOnly {
						// llmsh: bash abandons the line, status 2.
						return "", ParamError{Msg: err.Error(), Status: 2}
					}
					return "", err
				}
			}
		case syntax.RemSmallPrefix, syntax.RemLargePrefix,
			syntax.RemSmallSuffix, syntax.RemLargeSuffix:
			// llmsh: the pattern's quoted parts match literally.
			pat, err := Pattern(cfg, word)
			if err != nil {
				return "", err
			}
			str = join(cfg.removePatternElems(op, pat, elems))
		case syntax.UpperFirst, syntax.UpperAll,
			syntax.LowerFirst, syntax.LowerAll,
			syntax.ToggleFirst, syntax.ToggleAll:
			conv, err := cfg.caseConvWord(op, word, elems)
			if err != nil {
				return "", err
			}
			str = join(conv)
		case syntax.OtherParamOps:
			// llmsh: an array declared and never assigned (declare -a
			// d) is described as an unset variable: ${d[@]@a} is a,
			// ${d[@]@A} declare -a d, as bash.
			// llmsh: a name with no value, only attributes (declare -x
			// x) is described the same way: ${x[@]@a} is x.
			unsetArray := indexAllElements && !vr.IsSet()
			// llmsh: @k and @K of the parameters or a scalar quote each
			// element, as @Q.
			kvList := vr.Kind == Indexed && name != "@" && name != "*" || vr.Kind == Associative
			if indexAllElements && len(arg) == 1 && (strings.Contains("QEPUuLa", arg) && !(unsetArray && arg == "a") || strings.Contains("kK", arg) && !kvList) {
				// llmsh: each element, as bash does.
				out := make([]string, len(elems))
				evr := vr
				if name == "@" || name == "*" {
					evr = Variable{} // llmsh: parameters have no attributes
				}
				for i, e := range elems {
					if i%fieldsCheck == fieldsCheck-1 {
						cfg.mustGoOn() // llmsh: an op on each of millions of elements
					}
					if out[i], err = cfg.elemAtOp(arg, e, evr); err != nil {
						return "", err
					}
				}
				str = join(out)
				break
			}
			switch arg {
			case "Q":
				// llmsh: bash's quoting ('…', $'…'); nothing for an unset one.
				if set {
					str = cfg.quoter().Bash(str)
				}
			case "E":
				// llmsh: the escapes of $'…', as bash expands them,
				// up to a NUL (bash's strings end there).
				str = dollarSingle(cfg, str)
			case "a":
				// ${var@a} returns variable attribute flags.
				// llmsh: a nameref's are its target's, as bash;
				// one with no target has none.
				str = vr.Flags()
				if vr.Kind == NameRef && !vr.IsSet() {
					str = ""
				}
			case "A":
				// ${var@A} returns a declare statement that recreates the variable.
				// llmsh: quoted as bash quotes (${a[@]@A}: as declare -p).
				flags := vr.Flags()
				if indexAllElements && (name == "@" || name == "*") {
					str = join(positionalDecl(elems, cfg.quoter())) // llmsh: set -- …
					break
				}
				if !syntax.ValidName(name) && index == nil || vr.Kind == NameRef && !vr.IsSet() {
					// llmsh: ${1@A}, ${0@A}, a nameref with no
					// target: nothing, as bash.
					str = ""
					break
				}
				if !set && (!indexAllElements || unsetArray) {
					// llmsh: an unset value with attributes is
					// their declaration (declare -a a), as bash.
					str = ""
					if flags != "" {
						str = "declare -" + flags + " " + name
					}
					break
				}
				quoted := cfg.quoter().Bash(str)
				if indexAllElements && (vr.Kind == Indexed || vr.Kind == Associative) {
					quoted = cfg.quoter().DeclValue(vr)
				}
				if flags == "" {
					str = fmt.Sprintf("%s=%s", name, quoted)
				} else {
					str = fmt.Sprintf("declare -%s %s=%s", flags, name, quoted)
				}
			case "P":
				if str, err = cfg.promptExpand(str); err != nil {
					return "", err
				}
			case "U":
				str = mapChars(str, false, nil, cfg.caseFunc(unicode.ToUpper))
			case "u":
				str = mapChars(str, true, nil, cfg.caseFunc(unicode.ToUpper))
			case "L":
				str = mapChars(str, false, nil, cfg.caseFunc(unicode.ToLower))
			case "K", "k":
				// llmsh: key-value pairs of an array (@K quoted);
				// a scalar as @Q.
				if indexAllElements && (vr.Kind == Indexed || vr.Kind == Associative) {
					str = join(cfg.kvPairs(vr, arg == "K", cfg.quoter()))
					if arg == "K" {
						// llmsh: ${a[*]@K} too is joined by spaces (bash).
						str = cfg.joinValues(cfg.kvPairs(vr, true, cfg.quoter()), " ")
					}
					if vr.Kind == Associative && arg == "K" && len(vr.Map) > 0 {
						str += " " // as bash prints it
					}
				} else if set {
					str = cfg.quoter().Bash(str)
				}
			default:
				// llmsh: an operator bash does not know (the parser
				// keeps it): bad substitution, when the variable is set.
				// Bash refuses an operator of more than one
				// character that starts with A or a even then
				// (${u@A#x}, ${u@ab}); ${u@QQ} is empty.
				if set || len(arg) > 1 && (arg[0] == 'A' || arg[0] == 'a') {
					return "", badTransform(pe, arg)
				}
				str = ""
			}
		}
	}
	return str, nil
}

// declSpaceJoin reports whether bash joins the list pe, of name, by
// spaces in the value of a declaration builtin's NAME=VALUE argument when
// IFS is empty and pe is not quoted, as the fields of a word: $* in
// every form, and ${a[*]} sliced, trimmed, with an @ operator or its keys
// (${!a[*]}); ${a[*]} alone, replaced or case-converted joins by nothing
// as in an assignment.
func declSpaceJoin(pe *syntax.ParamExp, name string) bool {
	if name == "*" || pe.Slice != nil || pe.Excl {
		return true
	}
	if pe.Exp == nil {
		return false
	}
	switch pe.Exp.Op {
	case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix, syntax.OtherParamOps:
		return true
	}
	return false
}

// attrOp reports whether pe is ${v@A} or ${v@a}, which describe an array
// v with elements but none at 0 also under set -u, as bash.
func attrOp(pe *syntax.ParamExp) bool {
	if pe.Exp == nil || pe.Exp.Op != syntax.OtherParamOps {
		return false
	}
	op := nodeLit(pe.Exp.Word)
	return op == "A" || op == "a"
}

// hereDocSpaces reports whether bash joins the list of pe by spaces in
// a here-document's body, whatever IFS holds: $* in every form but
// the case operators', and ${a[*]} sliced, with a pattern removed or replaced, an @ operator
// or its keys (${!a[*]}); other forms of ${a[*]} join by IFS's first
// character, as in double quotes (llmsh).
func hereDocSpaces(pe *syntax.ParamExp) bool {
	if pe.Exp != nil {
		switch pe.Exp.Op {
		case syntax.UpperFirst, syntax.UpperAll, syntax.LowerFirst, syntax.LowerAll, syntax.ToggleFirst, syntax.ToggleAll:
			return false // ${*^^}: by IFS
		}
	}
	if pe.Param.Value == "*" && pe.Index == nil {
		return true
	}
	if nodeLit(pe.Index) != "*" {
		return false
	}
	if pe.Slice != nil || pe.Repl != nil || pe.Excl {
		return true
	}
	if pe.Exp == nil {
		return false
	}
	switch pe.Exp.Op {
	case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix, syntax.OtherParamOps:
		return true
	}
	return false
}

// positionalDecl is ${@@A}: the parameters quoted, the first after
// "set -- ", as bash (llmsh).
func positionalDecl(elems []string, q Quoter) []string {
	out := make([]string, len(elems))
	for i, e := range elems {
		out[i] = q.Bash(e)
	}
	if len(out) > 0 {
		out[0] = "set -- " + out[0]
	}
	return out
}

func (cfg *Config) removePattern(str, pat string, fromEnd, shortest bool) string {
	var mode pattern.Mode
	if shortest {
		mode |= pattern.Shortest
	}
	expr, err := pattern.Regexp(pat, mode)
	if err != nil {
		return str
	}
	switch {
	case fromEnd && shortest:
		// use .* to get the right-most shortest match
		expr = ".*(" + expr + ")$"
	case fromEnd:
		// simple suffix
		expr = "(" + expr + ")$"
	default:
		// simple prefix
		expr = "^(" + expr + ")"
	}
	// no need to check error as Translate returns one
	rx := cachedRegexp(expr) // llmsh
	// llmsh: stopped with the run (longmatch.go)
	if loc := cfg.findSubmatch(rx, str); loc != nil {
		// remove the original pattern (the submatch)
		str = Apart(str[:loc[2]]+str[loc[3]:], str)
	}
	return str
}

// Apart is part, a piece of src (a substring, a pattern's removal),
// copied when it is less than half of a src over 1 KiB, so that it does
// not hold all of src alive (llmsh, session 32: x=${a:0:3} kept all of
// a 7 MB a after unset a, where the session's unset of a run over its
// memory bound, which goes by what each variable holds, freed nothing).
func Apart(part, src string) string {
	if len(src) > 1024 && len(part) < len(src)/2 {
		return strings.Clone(part)
	}
	return part
}

// The helpers below never modify elems in place, as it may alias a
// variable's list of elements.

// perElemOps applies pattern removal, replacement, or case conversion to
// each element, leaving them unchanged for any whole-expansion operator.
func (cfg *Config) perElemOps(pe *syntax.ParamExp, elems []string) ([]string, error) {
	// llmsh: a pattern or replacement is expanded once, and not for a
	// list of no elements, as bash.
	switch {
	case pe.Repl != nil:
		if len(elems) == 0 {
			return elems, nil
		}
		return cfg.replaceElems(pe.Repl, elems)
	case pe.Exp != nil:
		switch op := pe.Exp.Op; op {
		case syntax.OtherParamOps:
			arg, err := Literal(cfg, pe.Exp.Word)
			if err != nil {
				return nil, err
			}
			// llmsh: "${a[@]@Q}" and the like, element by element.
			if positional := pe.Index == nil && (pe.Param.Value == "@" || pe.Param.Value == "*"); positional && arg == "A" {
				return positionalDecl(elems, cfg.quoter()), nil
			}
			if len(elems) > 0 && (len(arg) != 1 || !strings.Contains("QEPAKakuUL", arg)) {
				// llmsh: an operator bash does not know, of a list
				// with elements (${a[@]@Z}).
				return nil, badTransform(pe, arg)
			}
			if len(arg) == 1 && strings.Contains("QEPUuLakK", arg) {
				vr := cfg.Env.Get(pe.Param.Value)
				if _, t := vr.Resolve(cfg.Env); t.Declared() {
					vr = t // llmsh: a nameref's target
				}
				if pe.Index == nil && (pe.Param.Value == "@" || pe.Param.Value == "*") {
					vr = Variable{} // llmsh: parameters have no attributes
				}
				out := make([]string, len(elems))
				total := 0
				for i, e := range elems {
					if i%fieldsCheck == fieldsCheck-1 {
						cfg.mustGoOn() // llmsh: an op on each of millions of elements
					}
					var err error
					if out[i], err = cfg.elemAtOp(arg, e, vr); err != nil {
						return nil, err
					}
					// llmsh: the elements made, together
					if total += len(out[i]); cfg.checkSize(total) != nil {
						return nil, cfg.checkSize(total)
					}
				}
				return out, nil
			}
		case syntax.RemSmallPrefix, syntax.RemLargePrefix,
			syntax.RemSmallSuffix, syntax.RemLargeSuffix:
			if len(elems) == 0 {
				return elems, nil
			}
			// llmsh: the pattern's quoted parts match literally.
			pat, err := Pattern(cfg, pe.Exp.Word)
			if err != nil {
				return nil, err
			}
			return cfg.removePatternElems(op, pat, elems), nil
		case syntax.UpperFirst, syntax.UpperAll,
			syntax.LowerFirst, syntax.LowerAll,
			syntax.ToggleFirst, syntax.ToggleAll:
			if len(elems) == 0 {
				return elems, nil
			}
			return cfg.caseConvWord(op, pe.Exp.Word, elems)
		}
	}
	return elems, nil
}

// replaceElems applies a ${var/pattern/repl} replacement to each element.
func (cfg *Config) replaceElems(repl *syntax.Replace, elems []string) ([]string, error) {
	// llmsh: ${v/#p/r} and ${v/%p/r} are anchored (the parser keeps the
	// # or % as the first character of the pattern).
	origWord, anchor := anchoredRepl(repl)
	// llmsh: the ~ after # or % is not at the start of bash's pattern
	// word: ${v/#~/x} matches a ~ (${v/~/x} $HOME; the replacement's ~
	// expands).
	oldTildes := cfg.tildes
	if anchor != 0 {
		cfg.tildes = tildeNone
	}
	orig, err := Pattern(cfg, origWord)
	cfg.tildes = oldTildes
	if err != nil {
		return nil, err
	}
	// llmsh: backslashes and & as bash reads them (replTemplate); the
	// replacement is expanded even when the pattern is empty, as bash.
	with, err := cfg.replTemplate(repl.With)
	if err != nil {
		return nil, err
	}
	if orig == "" && anchor == 0 {
		return elems, nil // nothing to replace
	}
	if cfg.neverReplaces(orig) {
		return elems, nil
	}
	n := 1
	if repl.All {
		n = -1
	}
	// llmsh: under LC_ALL=C the pattern matches bytes, as bash's
	// (ByteRunes): the pattern, each element and the replacement's text
	// as characters, the result as bytes. So does it in a UTF-8 locale
	// where the pattern or the element is no valid UTF-8 (bash's
	// match_pattern falls back to bytes when either does not convert).
	plain := cfg.newReplPat(orig, with)
	var byteWise *replPat
	allBytes := cfg.bytesMatch(orig)
	out := make([]string, len(elems))
	total := 0          // llmsh: the elements made, together, within MaxValue
	st := cfg.patStop() // llmsh: one count of steps for every element
	for i, elem := range elems {
		if i%fieldsCheck == fieldsCheck-1 {
			cfg.mustGoOn() // llmsh: an op on each of millions of elements
		}
		rp, bytes := plain, allBytes || cfg.bytesMatch(elem)
		if bytes {
			if byteWise == nil {
				w := slices.Clone(with)
				for k := range w {
					w[k].text = ByteRunes(w[k].text)
				}
				byteWise = cfg.newReplPat(ByteRunes(orig), w)
			}
			rp, elem = byteWise, ByteRunes(elem)
		}
		orig, with, whole := rp.orig, rp.with, rp.whole
		if whole != nil && !cfg.patMatcher(st, whole)(elem) {
			out[i] = elems[i]
			total += len(elem)
			continue
		}
		var matches func(yield func(a, b int) bool)
		p := cfg.replPattern(orig)
		if p != nil && p.HasExt() {
			if n := internal.BashMatchLen(orig, cfg.ExtGlob); n >= 0 {
				p = p.Only(n) // llmsh: internal.equivTail's sets
			}
		}
		switch {
		case anchor != 0:
			matches = func(yield func(a, b int) bool) {
				for _, loc := range cfg.anchoredMatch(st, orig, p, elem, anchor) {
					yield(loc[0], loc[1])
				}
			}
		case p != nil && elem == "" && strings.HasPrefix(orig, "*"):
			// llmsh: an empty value is tried once, by a pattern that
			// starts with * only (bash's match_pattern_char):
			// ${e//*(a)/X} is X, ${e//?(a)/X} empty.
			matches = func(yield func(a, b int) bool) {
				if cfg.patMatcher(st, p)("") {
					yield(0, 0)
				}
			}
		case p != nil:
			matches = cfg.extFindAll(st, p, elem, n)
		default:
			matches = cfg.findAllIndex(orig, elem, n)
		}
		// llmsh: the result's size first, without building it or
		// keeping the matches: ${x//?/$x} squares the size.
		size := len(elem)
		for a, b := range matches {
			size -= b - a
			for _, seg := range with {
				if seg.match {
					size += b - a
				} else {
					size += len(seg.text)
				}
			}
		}
		total += size
		if err := cfg.checkSize(max(size, total)); err != nil {
			return nil, err
		}
		sb := cfg.strBuilder()
		sb.Grow(size)
		last := 0
		for a, b := range matches {
			sb.WriteString(elem[last:a])
			for _, seg := range with {
				if seg.match {
					sb.WriteString(elem[a:b])
				} else {
					sb.WriteString(seg.text)
				}
			}
			last = b
		}
		sb.WriteString(elem[last:])
		if out[i] = sb.String(); bytes {
			out[i] = RunesBytes(out[i])
		}
	}
	return out, nil
}

// neverReplaces reports whether bash's pattern substitution finds no
// match of pat anywhere (llmsh): it tries only substrings of the length
// its umatchlen reckons for a pattern without * (internal.BashMatchLen),
// which is not the length the pattern matches when a bracket expression
// starts with a negated ] ([!]]) or does not close ([!]): ${x//[!]]/y}
// replaces nothing.
func (cfg *Config) neverReplaces(pat string) bool {
	if !strings.Contains(pat, "[") {
		return false
	}
	n := internal.BashMatchLen(pat, cfg.ExtGlob)
	if n < 0 {
		return false
	}
	mode := internal.PatMode(0)
	if cfg.ExtGlob {
		mode = internal.PatExtGlob
	}
	fixed := internal.CompileBashPattern(pat, mode).FixedLen()
	return fixed >= 0 && fixed != n
}

// replPat is the pattern and replacement of ${v/p/r} for one way of
// matching, characters or bytes (llmsh).
type replPat struct {
	orig  string
	with  []replSeg
	whole *internal.BashPattern // see newReplPat
}

// newReplPat prepares orig and with for replaceElems: bash's
// match_upattern tries a pattern that starts and ends with * (an escaped
// one too, not *(…)) on the whole value first: ${s/*\*/r} replaces
// nothing unless s ends with a star (llmsh).
func (cfg *Config) newReplPat(orig string, with []replSeg) *replPat {
	rp := &replPat{orig: orig, with: with}
	if len(orig) > 1 && orig[0] == '*' && orig[len(orig)-1] == '*' && !(cfg.ExtGlob && orig[1] == '(') {
		mode := internal.PatMode(0)
		if cfg.ExtGlob {
			mode |= internal.PatExtGlob
		}
		if cfg.NoCaseMatch {
			mode |= internal.PatNoCase
		}
		rp.whole = internal.CompileBashPattern(orig, mode)
	}
	return rp
}

// bytesMatch reports whether a pattern matches s byte by byte (llmsh):
// s has a byte past ASCII and the locale is C or POSIX, or s is not
// valid UTF-8, where bash's matching falls back to bytes.
func (cfg *Config) bytesMatch(s string) bool { return BytesMatch(cfg.Env, s) }

// BytesMatch is Config.bytesMatch in env's locale, for case and [[ ]]
// (llmsh).
func BytesMatch(env Environ, s string) bool {
	return HasHighBytes(s) && (!utf8.ValidString(s) || ByteLocale(env))
}

// removePatternElems applies a pattern removal operator to each element.
func (cfg *Config) removePatternElems(op syntax.ParExpOperator, arg string, elems []string) []string {
	suffix := op == syntax.RemSmallSuffix || op == syntax.RemLargeSuffix
	small := op == syntax.RemSmallPrefix || op == syntax.RemSmallSuffix
	out := make([]string, len(elems))
	// llmsh: under LC_ALL=C a pattern matches bytes, as bash's: ${s#?}
	// of é removes one of its two bytes; so does it where the pattern
	// or the element is no valid UTF-8 (bytesMatch).
	allBytes := cfg.bytesMatch(arg)
	byteArg := arg
	if HasHighBytes(arg) {
		byteArg = ByteRunes(arg)
	}
	p, st := cfg.extPattern(arg), cfg.patStop() // llmsh: st counts for every element
	var bp *internal.BashPattern
	bpDone := false
	for i, elem := range elems {
		if i%fieldsCheck == fieldsCheck-1 {
			cfg.mustGoOn() // llmsh: an op on each of millions of elements
		}
		if allBytes || cfg.bytesMatch(elem) {
			if !bpDone {
				bp, bpDone = cfg.extPattern(byteArg), true
			}
			out[i] = RunesBytes(cfg.removeOne(st, bp, ByteRunes(elem), byteArg, suffix, small))
			continue
		}
		out[i] = cfg.removeOne(st, p, elem, arg, suffix, small)
	}
	return out
}

// removeOne is removePatternElems for one element.
func (cfg *Config) removeOne(st *internal.PatStop, p *internal.BashPattern, elem, arg string, suffix, small bool) string {
	if p != nil {
		return cfg.extRemove(st, p, elem, suffix, small)
	}
	return cfg.removePattern(elem, arg, suffix, small)
}

// HasHighBytes reports whether s has a byte that is not ASCII.
func HasHighBytes(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// ByteRunes gives s with each byte as a character of its own, so that
// patterns, which match characters, match its bytes one by one as bash's
// do under LC_ALL=C (llmsh); RunesBytes undoes it. An ASCII byte is its
// character; a byte from 0x80 is one of the private-use characters
// byteRuneBase+0x80 to byteRuneBase+0xFF, in the bytes' order (ranges
// keep it), which no class holds and no case folds, as the C locale's
// ctype says of those bytes (Latin-1, used before, made the byte of é's
// \xc3 a letter: [[:alpha:]] and [[:print:]] matched it).
func ByteRunes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		r := rune(s[i])
		if r >= utf8.RuneSelf {
			r += byteRuneBase
		}
		b.WriteRune(r)
	}
	return b.String()
}

// byteRuneBase puts the bytes from 0x80 at U+F780 to U+F7FF (ByteRunes).
const byteRuneBase = 0xF700

// RunesBytes gives the bytes that ByteRunes made s of.
func RunesBytes(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r >= byteRuneBase+utf8.RuneSelf {
			r -= byteRuneBase
		}
		b = append(b, byte(r))
	}
	return string(b)
}

// caseConvWord applies a case conversion operator to each element, its
// pattern from word (llmsh): the pattern's quoted parts match literally,
// and a quoted empty pattern (${x^^""}) matches nothing, as bash; none,
// or an unquoted empty one, is ?.
func (cfg *Config) caseConvWord(op syntax.ParExpOperator, word *syntax.Word, elems []string) ([]string, error) {
	if word == nil {
		return cfg.caseConvElems(op, "", elems), nil
	}
	pat, err := Pattern(cfg, word)
	if err != nil {
		return nil, err
	}
	if pat == "" && slices.ContainsFunc(word.Parts, func(p syntax.WordPart) bool {
		switch p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		}
		return false
	}) {
		return elems, nil
	}
	return cfg.caseConvElems(op, pat, elems), nil
}

// caseConvElems applies a case conversion operator to each element.
func (cfg *Config) caseConvElems(op syntax.ParExpOperator, arg string, elems []string) []string {
	caseFunc := unicode.ToLower
	switch op {
	case syntax.UpperFirst, syntax.UpperAll:
		caseFunc = unicode.ToUpper
	case syntax.ToggleFirst, syntax.ToggleAll: // llmsh: bash's ~ and ~~
		caseFunc = func(r rune) rune {
			// llmsh: glibc's iswupper holds for what has a
			// lower case (titlecase ǅ, Ⅷ, Ⓐ too), which bash's
			// toggle makes lower.
			if l := unicode.ToLower(r); l != r || unicode.IsUpper(r) {
				return l
			}
			return unicode.ToUpper(r)
		}
	}
	caseFunc = cfg.caseFunc(caseFunc)
	all := op == syntax.UpperAll || op == syntax.LowerAll || op == syntax.ToggleAll

	// empty string means '?'; nothing to do there
	var match func(string) bool
	// llmsh: bash matches each character with extended patterns
	// whatever extglob says (${x^^?(l)} is heLLo, as bash).
	if p := internal.CompileBashPattern(arg, internal.PatExtGlob); p.HasExt() || !utf8.ValidString(arg) {
		// Also a byte that is not UTF-8, which a regular expression
		// cannot hold (MustCompile panicked).
		match = p.Match
	} else {
		expr, err := pattern.Regexp(arg, 0)
		if err != nil {
			return elems
		}
		match = regexp.MustCompile(expr).MatchString
	}

	out := make([]string, len(elems))
	total := 0
	for i, elem := range elems {
		if i%fieldsCheck == fieldsCheck-1 {
			cfg.mustGoOn() // llmsh: an op on each of millions of elements
		}
		total += len(elem)
		cfg.mustFit(total) // llmsh: the elements made, together
		out[i] = mapChars(elem, !all, match, caseFunc)
	}
	return out
}

// varInd expands an indexed variable expansion like ${a[i]}, also reporting
// whether the resulting element is set, which may be false for missing array
// elements such as the holes in a sparse array.
// varIndFresh is varInd of the variable name (vr), read again once its
// subscript is evaluated when that may have changed it, as bash
// evaluates a subscript before it reads the array: ${a[a[1]++, 1]} is
// the element incremented (llmsh).
func (cfg *Config) varIndFresh(name string, vr Variable, idx syntax.ArithmExpr) (string, bool, error) {
	if idx == nil || vr.Kind != Indexed && vr.Kind != String || !subscriptMayAssign(idx) {
		// (an unset name stays unset: ${u[u[0]=5,0]} is empty, as bash)
		return cfg.varInd(vr, idx)
	}
	switch nodeLit(idx) {
	case "@", "*":
		return cfg.varInd(vr, idx)
	}
	n, err := Arithm(cfg, idx)
	if err != nil {
		return "", false, subscriptErr(err)
	}
	if fresh := cfg.Env.Get(name); fresh.Kind == Indexed || fresh.Kind == String {
		vr = fresh
	}
	lit := &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: strconv.Itoa(n)}}}
	return cfg.varInd(vr, lit)
}

// subscriptMayAssign reports whether evaluating the subscript idx may
// assign a variable: an assignment, ++ or --, or a substitution in it.
func subscriptMayAssign(idx syntax.ArithmExpr) bool {
	switch x := idx.(type) {
	case *syntax.BinaryArithm:
		if x.Op == syntax.Assgn || x.Op >= syntax.AddAssgn && x.Op <= syntax.PowAssgn {
			return true
		}
		return subscriptMayAssign(x.X) || subscriptMayAssign(x.Y)
	case *syntax.UnaryArithm:
		return x.Op == syntax.Inc || x.Op == syntax.Dec || subscriptMayAssign(x.X)
	case *syntax.ParenArithm:
		return subscriptMayAssign(x.X)
	case *syntax.Word:
		for _, p := range x.Parts {
			switch p := p.(type) {
			case *syntax.Lit:
				if strings.ContainsAny(p.Value, "=+-`$") { // raw text (a[$(f)+1])
					return true
				}
			case *syntax.ParamExp:
			default:
				return true
			}
		}
	}
	return false
}

func (cfg *Config) varInd(vr Variable, idx syntax.ArithmExpr) (string, bool, error) {
	if idx == nil {
		switch vr.Kind {
		case Indexed:
			// A bare $a is the element at index zero, which may be unset.
			str, ok := vr.indexedVal(0)
			return str, ok, nil
		case Associative:
			str, ok := vr.Map["0"]
			return str, ok, nil
		case NameRef:
			return "", false, nil // a nameref whose target is not set
		}
		return vr.String(), vr.IsSet(), nil
	}
	switch vr.Kind {
	case String:
		n, err := Arithm(cfg, idx)
		if err != nil {
			return "", false, subscriptErr(err)
		}
		if n < 0 {
			// llmsh: bash reports v[-1] of a scalar and expands it
			// to nothing.
			return "", false, cfg.badNegative(idx, vr)
		}
		if n == 0 {
			return vr.Str, vr.IsSet(), nil
		}
	case Indexed:
		switch nodeLit(idx) {
		case "*", "@":
			return cfg.joinValues(vr.List, " "), vr.IsSet(), nil // llmsh: bounded
		}
		i, err := Arithm(cfg, idx)
		if err != nil {
			return "", false, subscriptErr(err)
		}
		if i < 0 {
			// Negative indices count from one past the maximum index.
			if i += internal.IndexedMax(vr.List, vr.Indexes) + 1; i < 0 {
				// llmsh: bash reports it and expands to nothing.
				return "", false, cfg.badNegative(idx, vr)
			}
		}
		if str, ok := vr.indexedVal(i); ok {
			return str, true, nil
		}
	case Associative:
		switch lit := nodeLit(idx); lit {
		case "@", "*":
			strs := cfg.assocValues(vr)
			if lit == "*" {
				return cfg.ifsJoin(strs), vr.IsSet(), nil
			}
			return cfg.joinValues(strs, " "), vr.IsSet(), nil // llmsh: bounded
		}
		val, err := cfg.assocKey(idx)
		if err != nil {
			return "", false, err
		}
		if val == "" && cfg.Warn != nil && cfg.curParam != nil {
			// llmsh: an empty key names no element: bash reports it
			// and the expansion is empty (${m[$k]} with k empty); its
			// length is bash's error, which abandons the line.
			if cfg.curParam.Length {
				return "", false, ParamError{Msg: SubscriptText(idx) + "]: bad array subscript"}
			}
			cfg.Warn(cfg.curArrayName() + ": bad array subscript")
			return "", false, nil
		}
		str, ok := vr.Map[val]
		return str, ok, nil
	case Unknown:
		// llmsh: an unset name's subscript is still evaluated, as bash
		// does (${a[x++]}, $(( a[1 +] )) and its error).
		switch nodeLit(idx) {
		case "@", "*":
		default:
			n, err := Arithm(cfg, idx)
			if err != nil {
				return "", false, subscriptErr(err)
			}
			if n < 0 {
				cfg.badNegative(idx, vr) // llmsh: ${u[-1]}, as bash
			}
		}
	}
	return "", false, nil
}

// badNegative reports, as bash, a negative subscript idx before the first
// element of the parameter being expanded ("a: bad array subscript"),
// which then expands to nothing. The length of such an element of a set
// variable vr (${#s[-1]}) is bash's error instead, which abandons the
// line: "-1]: bad array subscript"; an unset one's is 0, unreported.
func (cfg *Config) badNegative(idx syntax.ArithmExpr, vr Variable) error {
	if cfg.curParam != nil && cfg.curParam.Length {
		if vr.IsSet() {
			return ParamError{Msg: SubscriptText(idx) + "]: bad array subscript"}
		}
		return nil
	}
	if cfg.Warn != nil && cfg.curParam != nil && (cfg.negWarned != cfg.curParam || cfg.negWarnedGen != cfg.randGen) {
		cfg.Warn(cfg.curArrayName() + ": bad array subscript")
	}
	return nil
}

// curArrayName names the array of the parameter being expanded: the one
// its nameref names, if any (${r[-5]} of r=arr: "arr: bad array
// subscript", as bash), else its own (llmsh).
func (cfg *Config) curArrayName() string {
	if cfg.curArray != "" {
		return cfg.curArray
	}
	return cfg.curParam.Param.Value
}

// assignElem assigns a variable via an expansion like ${a=val} or
// ${a[i]=val}, setting a single element when the variable is an array or is
// indexed, like Bash. ${a[i]=val} on a whole scalar converts it to an array.
// errNegativeIndex is assignElem's error for a negative index before the
// first element.
var errNegativeIndex = errors.New("negative array index")

func (cfg *Config) assignElem(name string, vr Variable, idx syntax.ArithmExpr, val string) error {
	wenv, ok := cfg.Env.(WriteEnviron)
	if !ok {
		return fmt.Errorf("environment is read-only")
	}
	arrayWise := false
	switch nodeLit(idx) {
	case "@", "*":
		// ${a[@]=val} assigns the element at index zero.
		arrayWise = true
		idx = nil
	}
	if idx == nil && !arrayWise && vr.Kind != Indexed && vr.Kind != Associative {
		// A plain scalar assignment like ${x=val}. llmsh: the variable
		// keeps its attributes (export, -i, -l, -u, -c, -t), as bash.
		if vr.Kind != NameRef {
			vr.Kind = String // (a nameref with no target takes a name)
		}
		vr.Set, vr.Str = true, val
		return wenv.Set(name, vr)
	}
	switch vr.Kind {
	case Associative:
		key := "0"
		if idx != nil {
			var err error
			if key, err = cfg.assocKey(idx); err != nil {
				return err
			}
		}
		vr.Map = maps.Clone(vr.Map)
		if vr.Map == nil {
			vr.Map = make(map[string]string, 1)
		}
		if _, had := vr.Map[key]; !had && cfg.Birth != nil {
			vr.Born = maps.Clone(vr.Born)
			if vr.Born == nil {
				vr.Born = make(map[string]uint64, 1)
			}
			vr.Born[key] = cfg.Birth() // llmsh: Variable.Born
		}
		vr.Map[key] = val
	default: // assign a single indexed element
		i := 0
		if idx != nil {
			var err error
			if i, err = Arithm(cfg, idx); err != nil {
				return subscriptErr(err)
			}
		}
		list, indexes := slices.Clone(vr.List), slices.Clone(vr.Indexes)
		if vr.Kind == String {
			list, indexes = []string{vr.Str}, nil
			if !vr.IsSet() {
				list = nil
			}
		}
		if i < 0 {
			// Negative indices count from one past the maximum
			// index; llmsh: a scalar's, set or only declared, is 0,
			// as bash's assign_array_element ((( V[-1] = 2 )) of
			// V=abc assigns V[0]).
			top := internal.IndexedMax(list, indexes)
			if vr.Kind == String || vr.Kind == Unknown && vr.Declared() {
				top = 0
			}
			if i += top + 1; i < 0 {
				return errNegativeIndex
			}
		}
		list, indexes = internal.SetIndexedElem(list, indexes, i, val)
		vr.Kind, vr.Str, vr.List, vr.Indexes = Indexed, "", list, indexes
	}
	vr.Set = true
	return wenv.Set(name, vr)
}

// assignDefault is ${name:=val} (elemIndex its element, if any): the
// value evaluated for an integer variable, assigned, and what the
// variable then holds (converted to its case) is the expansion, as bash
// (llmsh).
func (cfg *Config) assignDefault(name string, vr Variable, elemIndex syntax.ArithmExpr, val string) (string, error) {
	if vr.Integer {
		n, err := cfg.ArithmText(val)
		if err != nil {
			return "", err
		}
		val = strconv.FormatInt(n, 10)
	}
	switch {
	case vr.Upper:
		val = strings.ToUpper(val)
	case vr.Lower:
		val = strings.ToLower(val)
	case vr.Capital && val != "":
		r, size := utf8.DecodeRuneInString(val)
		val = string(unicode.ToUpper(r)) + strings.ToLower(val[size:])
	}
	if err := cfg.assignElem(name, vr, elemIndex, val); err != nil {
		return "", err
	}
	return val, nil
}

func (cfg *Config) namesByPrefix(prefix string) []string {
	// llmsh: only variables with a value, as bash (declare x is not
	// listed); a name seen twice (the environment's, then the
	// shell's) is listed once, as its last entry says.
	set := map[string]bool{}
	n := 0
	for name, vr := range cfg.Env.Each {
		if n++; n%fieldsCheck == 0 {
			cfg.mustGoOn() // llmsh: millions of variables
		}
		if strings.HasPrefix(name, prefix) {
			set[name] = vr.IsSet()
		}
	}
	var names []string
	for name, ok := range set {
		if ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// charStarts is the byte offset of each character of s: each byte
// under a byte locale, else each rune of valid UTF-8 and each byte that
// is no part of one (llmsh: ${s:i:n}).
func charStarts(s string, bytes bool) []int {
	starts := make([]int, 0, len(s))
	for i := 0; i < len(s); {
		starts = append(starts, i)
		size := 1
		if !bytes && s[i] >= utf8.RuneSelf {
			_, size = utf8.DecodeRuneInString(s[i:])
		}
		i += size
	}
	return starts
}

// sliceCount is a slice's offset or length n as a count of m characters
// (all of them, or those after the offset): a negative n counts back
// from the end, and the count stays within 0..m (llmsh).
func sliceCount(n, m int) int {
	switch {
	case n < 0:
		return max(m+n, 0)
	case n > m:
		return m
	}
	return n
}

// badTransform is bash's error for ${v@OP} with an operator it does not
// know (llmsh).
func badTransform(pe *syntax.ParamExp, op string) error {
	name := pe.Param.Value
	if pe.Index != nil {
		name += "[" + SubscriptText(pe.Index) + "]"
	}
	return ParamError{Msg: "${" + name + "@" + op + "}: bad substitution", Fatal: true, node: pe}
}
