// llmsh: field splitting as bash 5.2 does it (see LLMSH.md).

package expand

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// splitter expands the parts of a word into fields as bash does, by
// POSIX 2.6.5: only the values of unquoted expansions are split; IFS
// whitespace (the space, tab and newline in IFS) is dropped at the start
// and end of the word and a run of it delimits one field; every other
// IFS character delimits one field together with the IFS whitespace
// around it, so that two in a row delimit an empty field; a delimiter at
// the very end makes no empty last field; an expansion that gives
// nothing makes no field, a quoted empty string does.
//
// The splitting is done on line, as the word's parts are expanded: the
// state says where in a field the text so far has left off.
type splitter struct {
	cfg    *Config
	fields [][]fieldPart
	cur    []fieldPart
	// batch holds the parts that add gives new fields, batchN parts
	// when last made.
	batch  []fieldPart
	batchN int
	// exists is set when cur is a field, even if empty.
	exists bool
	// started is set once a field was made.
	started bool
	// pending is set when IFS whitespace was seen after cur's text: the
	// next text starts a new field.
	pending bool
	// after is set when a non-whitespace delimiter was just taken: the
	// IFS whitespace after it belongs to it.
	after bool
	// dollarAt is set when the word has a list expansion ($@, ${a[@]},
	// "$@", $*…): bash then splits the word's text without first
	// dropping its leading IFS whitespace, which makes a delimiter of its
	// own that takes a non-whitespace delimiter after it with it, and no
	// field (IFS=' :'; a=(' :b'); ${a[@]} is b, where $s with s=' :b'
	// is "" and b).
	dollarAt bool
	// quoteIFS is set when the word has an unquoted expansion and IFS a
	// character that is not whitespace: the unquoted literal characters
	// of the word that are in IFS are then quoted, as bash quotes them
	// (IFS='*'; $d* does not glob; a word without expansions does).
	quoteIFS bool
	// rhsAt is set in the word of an unquoted ${v:-WORD} that has an
	// unquoted $@ or ${a[@]} when IFS is set, not empty, and does not
	// start with a space: bash then gives the elements quoted and
	// joined by spaces, and splits the rest of WORD's unquoted text
	// joining its pieces by spaces too (IFS=:; set -- a:b c;
	// ${u:-$@} is the one field "a:b c").
	rhsAt bool
	// noneAt is set when a list in the double-quoted part being added
	// had no elements (dblQuoted).
	noneAt bool
}

// wordFields expands the parts of a word into fields, each a list of
// parts whose quoting tells pathname expansion what is a pattern.
func (cfg *Config) wordFields(wps []syntax.WordPart) (_ [][]fieldPart, err error) {
	defer catchValue(&err) // llmsh: a join past MaxValue
	sp := splitter{cfg: cfg}
	if !cfg.splitting {
		sp.fields, sp.cur = cfg.fieldsAlloc[:0], cfg.fieldAlloc[:0]
		cfg.splitting = true
		defer func() { cfg.splitting = false }()
	}
	sp.scan(wps, nonWhiteIFS(cfg.ifsValue()), false)
	if err := sp.parts(wps, false); err != nil {
		return nil, quotedBad(wps, err)
	}
	sp.settle()
	if sp.exists {
		sp.emit()
	}
	return sp.fields, nil
}

// nonWhiteIFS reports whether ifs holds a character other than a space,
// a tab or a newline.
func nonWhiteIFS(ifs string) bool {
	for i := 0; i < len(ifs); i++ {
		if c := ifs[i]; c != ' ' && c != '\t' && c != '\n' {
			return true
		}
	}
	return false
}

// scan sets dollarAt and quoteIFS from the word's parts as written.
// rhs is set in the WORD of ${v:-WORD} and the like, where bash joins
// $* and ${a[*]} by IFS's first character and splits them as one
// value (IFS=', '; set -- ' ' b; ${v:-$*} is an empty field and b, where
// $* is b alone): they set no dollarAt there.
func (sp *splitter) scan(wps []syntax.WordPart, nonWhite, rhs bool) {
	for _, wp := range wps {
		switch wp := wp.(type) {
		case *syntax.ParamExp:
			sp.quoteIFS = nonWhite
			if listExp(wp) {
				if !rhs || !starList(wp) {
					sp.dollarAt = true
				}
			} else if wordOp(wp) {
				sp.scan(wp.Exp.Word.Parts, nonWhite, true)
			}
		case *syntax.CmdSubst, *syntax.ArithmExp:
			sp.quoteIFS = nonWhite
		case *syntax.DblQuoted:
			for _, q := range wp.Parts {
				if pe, ok := q.(*syntax.ParamExp); ok && listExp(pe) {
					sp.dollarAt = true
					sp.quoteIFS = nonWhite
				}
			}
		}
	}
}

// emit ends the current field. llmsh: every fieldsCheck fields it looks
// at the run's context (mustGoOn), as a split of millions of fields is
// long work of its own.
func (sp *splitter) emit() {
	if n := len(sp.fields); n == cap(sp.fields) && n >= 256 {
		// llmsh: doubling, where append grows a large slice by a
		// quarter (a split of 100,000 fields copied its list over and
		// over: 12.6 MB for 2.4); a list of millions by a quarter,
		// the memory guard asked first (Config.listGrowth).
		grow := sp.cfg.listGrowth(n, fieldListSize)
		sp.cfg.mustGoOn()
		sp.fields = slices.Grow(sp.fields, grow)
	}
	sp.fields = append(sp.fields, sp.cur)
	sp.cur, sp.exists, sp.started = nil, false, true
	if len(sp.fields)%fieldsCheck == 0 {
		if len(sp.fields)%heapCheckFields == 0 && sp.cfg.HeapCheck != nil {
			sp.cfg.HeapCheck(0)
		}
		sp.cfg.mustGoOn()
	}
}

// add appends p to the current field. A field's first part comes from
// a batch that doubles up to 256 parts (llmsh: a split of many fields,
// `for i in $(seq 100000)`, made a slice of one part a field).
func (sp *splitter) add(p fieldPart) {
	if sp.cur != nil {
		sp.cur = append(sp.cur, p)
		return
	}
	if len(sp.batch) == 0 {
		sp.batchN = min(max(2*sp.batchN, 1), 256)
		sp.batch = make([]fieldPart, sp.batchN)
	}
	sp.cur, sp.batch = sp.batch[:1:1], sp.batch[1:]
	sp.cur[0] = p
}

// heapCheckFields is how many fields a split makes between two calls of
// Config.HeapCheck.
const heapCheckFields = 1 << 16

// fieldListSize is the bytes of one field in splitter.fields (a slice
// header), stringListSize of one in a list of strings (Fields).
const (
	fieldListSize  = 24
	stringListSize = 16
)

// bigList is the length from which a list of fields grows by a quarter,
// not by doubling (Config.listGrowth).
const bigList = 1 << 18

// listGrowth is how many more elements a full list of n elements of
// size bytes each is to grow by (llmsh): n, doubling, below bigList;
// from it a quarter more, as append grows a large slice, once
// HeapCheck was asked about the bytes of the new list. The old list and
// the new are both live while it is copied, in one step that no tick of
// the memory guard sees: session 31, red team, `IFS=0; set -- $x` of a
// 20 MB value under a 256 MiB memory limit still reached 368 MB of RSS,
// its list of fields doubling from 4Mi fields (96 MB) to 8Mi past the
// guard's looks every 64Ki fields. The caller then looks at Ctx.
func (cfg *Config) listGrowth(n, size int) int {
	if n < bigList {
		return n
	}
	grow := n / 4
	if cfg.HeapCheck != nil {
		cfg.HeapCheck(uint64(n+grow) * uint64(size))
	}
	return grow
}

// fieldsCheck is how many fields a split or an expansion makes between
// two looks at the run's context (llmsh, session 25, red team:
// `a=( $x )` of a 100 MB value of 50 million words made its fields and
// its array for 170 s past a library Run's 30 s limit and its memory
// guard, which had fired at 2 GiB, to 6.4 GB).
const fieldsCheck = 1 << 12

// settle ends the current field before new text when IFS whitespace
// came after it.
func (sp *splitter) settle() {
	if sp.pending && sp.exists {
		sp.emit()
	}
	sp.pending, sp.after = false, false
}

// quoted adds text that is neither split nor a pattern; the field exists
// even when the text is empty.
func (sp *splitter) quoted(s string, ql quoteLevel) {
	sp.settle()
	sp.add(fieldPart{val: s, quote: ql})
	sp.exists = true
}

// literal adds unquoted literal text: a pattern, never split.
func (sp *splitter) literal(s string) {
	if s == "" {
		return
	}
	sp.settle()
	sp.exists = true
	if !sp.quoteIFS {
		sp.add(fieldPart{val: s})
		return
	}
	for s != "" {
		end := strings.IndexFunc(s, sp.cfg.ifsRune)
		if end == 0 {
			_, end = utf8.DecodeRuneInString(s)
			sp.add(fieldPart{val: s[:end], quote: quoteSingle})
		} else {
			if end < 0 {
				end = len(s)
			}
			sp.add(fieldPart{val: s[:end]})
		}
		s = s[end:]
	}
}

// split adds the value of an unquoted expansion: split by IFS, and a
// pattern.
func (sp *splitter) split(s string) {
	if sp.rhsAt {
		sp.splitJoin(s)
		return
	}
	ifs := sp.cfg.ifsValue()
	if ifs == "" {
		if s != "" {
			sp.settle()
			sp.add(fieldPart{val: s})
			sp.exists = true
		}
		return
	}
	// llmsh: in the C locale each byte is a character, of IFS too
	bytes := sp.cfg.byteLocale()
	for s != "" {
		c := s[0]
		var r rune
		size := 1
		isIFS := false
		if c < utf8.RuneSelf || bytes {
			r = rune(c)
			isIFS = strings.IndexByte(ifs, c) >= 0
		} else {
			r, size = utf8.DecodeRuneInString(s)
			isIFS = strings.ContainsRune(ifs, r)
		}
		if !isIFS {
			end := size
			for end < len(s) {
				c := s[end]
				if c < utf8.RuneSelf || bytes {
					if strings.IndexByte(ifs, c) >= 0 {
						break
					}
					end++
					continue
				}
				r, n := utf8.DecodeRuneInString(s[end:])
				if strings.ContainsRune(ifs, r) {
					break
				}
				end += n
			}
			sp.settle()
			sp.add(fieldPart{val: s[:end]})
			sp.exists = true
			s = s[end:]
			continue
		}
		s = s[size:]
		if r == ' ' || r == '\t' || r == '\n' {
			if !sp.after {
				sp.pending = true
			}
			continue
		}
		// A non-whitespace delimiter ends the field, empty or not, with
		// the whitespace before it.
		if !(sp.dollarAt && sp.pending && !sp.exists && !sp.started) {
			sp.emit()
		}
		sp.pending, sp.after = false, true
	}
}

// splitJoin adds s, in rhsAt's mode, with each run of IFS characters
// turned into a space.
func (sp *splitter) splitJoin(s string) {
	sp.rhsAt = false
	defer func() { sp.rhsAt = true }()
	for s != "" {
		i := strings.IndexFunc(s, sp.cfg.ifsRune)
		if i < 0 {
			sp.split(s)
			return
		}
		if i > 0 {
			sp.split(s[:i])
		}
		s = strings.TrimLeftFunc(s[i:], sp.cfg.ifsRune)
		sp.split(" ")
	}
}

// starList reports whether the list expansion pe is of $* or ${a[*]}.
func starList(pe *syntax.ParamExp) bool {
	return pe.Names == 0 && (pe.Param.Value == "*" || nodeLit(pe.Index) == "*")
}

// atList reports whether pe is $@, ${@} or ${a[@]}, with no operator.
func atList(pe *syntax.ParamExp) bool {
	return listExp(pe) && pe.Slice == nil && pe.Repl == nil && pe.Exp == nil && !pe.Excl &&
		(pe.Param.Value == "@" || nodeLit(pe.Index) == "@")
}

// hasAtList reports whether wps has an unquoted list expansion of "@"
// ($@, ${a[@]}, ${@:1}…).
func hasAtList(wps []syntax.WordPart) bool {
	for _, wp := range wps {
		if pe, ok := wp.(*syntax.ParamExp); ok && listExp(pe) && !pe.Excl &&
			(pe.Param.Value == "@" || nodeLit(pe.Index) == "@") {
			return true
		}
	}
	return false
}

// hasAtListOp is hasAtList, or wps has "${@:-w}", "${a[@]+w}" and the
// like, the list or WORD.
func hasAtListOp(wps []syntax.WordPart) bool {
	for _, wp := range wps {
		if pe, ok := wp.(*syntax.ParamExp); ok && wordOpEmpty(pe) && !pe.Excl && pe.Param != nil &&
			(pe.Param.Value == "@" || nodeLit(pe.Index) == "@") {
			return true
		}
	}
	return hasAtList(wps)
}

// flatDbl returns wps with the parts of its double-quoted strings in
// their place: the word of "${v:-"$@"}" is in double quotes already.
func flatDbl(wps []syntax.WordPart) []syntax.WordPart {
	var flat []syntax.WordPart
	for i, wp := range wps {
		if dq, ok := wp.(*syntax.DblQuoted); ok {
			if flat == nil {
				flat = append(flat, wps[:i]...)
			}
			flat = append(flat, dq.Parts...)
		} else if flat != nil {
			flat = append(flat, wp)
		}
	}
	if flat == nil {
		return wps
	}
	return flat
}

// brk ends a field between two elements of "$@".
func (sp *splitter) brk() {
	sp.settle()
	if sp.exists {
		sp.emit()
	}
}

// parts adds the parts of a word. Inside the word of an unquoted
// ${v:-WORD}, inExp, unquoted literal text is part of the expansion's
// value: it is split.
func (sp *splitter) parts(wps []syntax.WordPart, inExp bool) error {
	cfg := sp.cfg
	for i, wp := range wps {
		switch wp := wp.(type) {
		case *syntax.Lit:
			s := wp.Value
			if i == 0 && cfg.tildes != tildeNone {
				prefix, rest := cfg.expandUser(s, len(wps) > 1)
				if prefix == "" && rest == s && !inExp && cfg.tildes != tildeNoAssign && !cfg.Posix { // (HOME='' makes ~ nothing)
					// NAME=~/a:~/b as an argument, as bash
					prefix, rest = cfg.argAssignTilde(s, len(wps) == 1)
				}
				if rest != s || prefix != "" {
					sp.quoted(prefix, quoteSingle)
					s = rest
				}
			}
			// Escaped characters are quoted, so that they aren't
			// treated as metacharacters when globbing.
			for {
				j := strings.IndexByte(s, '\\')
				if j < 0 || j == len(s)-1 {
					break // a trailing backslash is kept as-is
				}
				_, size := utf8.DecodeRuneInString(s[j+1:])
				sp.text(s[:j], inExp)
				sp.quoted(s[j+1:j+1+size], quoteSingle)
				s = s[j+1+size:]
			}
			sp.text(s, inExp)
		case *syntax.SglQuoted:
			v := wp.Value
			if wp.Dollar {
				v = dollarSingle(cfg, v)
			}
			sp.quoted(v, quoteSingle)
		case *syntax.DblQuoted:
			if err := sp.dblQuoted(wp); err != nil {
				return quotedBad(wp.Parts, err)
			}
		case *syntax.ParamExp:
			if err := sp.paramExp(wp); err != nil {
				return err
			}
		case *syntax.CmdSubst:
			val, err := cfg.cmdSubst(wp)
			if err != nil {
				return err
			}
			sp.split(val)
		case *syntax.ArithmExp:
			n, err := cfg.arithmExp(wp)
			if err != nil {
				return err
			}
			sp.split(strconv.Itoa(n))
		case *syntax.ProcSubst:
			path, err := cfg.ProcSubst(wp)
			if err != nil {
				return err
			}
			sp.split(path)
		case *syntax.ExtGlob:
			// The pattern is kept as text; pathname expansion reads it
			// (llmsh: with extglob off as the word is expanded, after
			// bash parsed it on, as plain text: `?(a)` is ? and (a)).
			sp.settle()
			parts, err := cfg.extGlobParts(wp)
			if err != nil {
				return err
			}
			sp.cur = append(sp.cur, parts...)
			sp.exists = true
		default:
			panic(fmt.Sprintf("unhandled word part: %T", wp))
		}
	}
	return nil
}

// text adds unquoted literal text of a word, or of the word of an
// unquoted ${v:-WORD} (inExp), where it is split.
func (sp *splitter) text(s string, inExp bool) {
	if inExp {
		sp.split(s)
	} else {
		sp.literal(s)
	}
}

// dblQuoted adds a double-quoted part: quoted text, with a field for each
// element of "$@", "${a[@]}" and the like ("a$@b" with a, b and c as the
// parameters is "aa", "b" and "cb"; with none, "ab").
//
// llmsh: a part with a list of no elements whose other text is empty
// ("$@$*", "${a[@]}$x" with no parameters, no elements) is no field,
// unless a field was begun before it, as bash; "$@""" is one field.
func (sp *splitter) dblQuoted(dq *syntax.DblQuoted) error {
	before, nFields, nCur := sp.exists, len(sp.fields), len(sp.cur)
	outer := sp.noneAt
	sp.noneAt = false
	defer func() { sp.noneAt = outer }()
	if err := sp.dblQuotedParts(dq); err != nil {
		return err
	}
	if sp.noneAt && !before && sp.exists && len(sp.fields) == nFields && len(sp.cur) >= nCur {
		for _, part := range sp.cur[nCur:] {
			if part.val != "" {
				return nil
			}
		}
		sp.cur, sp.exists = sp.cur[:nCur], false
	}
	return nil
}

func (sp *splitter) dblQuotedParts(dq *syntax.DblQuoted) error {
	cfg := sp.cfg
	start := 0
	for j, p := range dq.Parts {
		pe, ok := p.(*syntax.ParamExp)
		if ok && pe.Excl && (wordOp(pe) && allIndex(pe.Index) || wordOpEmpty(pe) && pe.Index == nil) {
			// llmsh: "${!a[@]:-WORD}" is "${x:-WORD}" of the x that
			// a's value names (resolveParam); "${!r+WORD}" of r=A[@]
			// (or @) is "${A[@]+WORD}", the list or WORD.
			if rpe, err := cfg.resolveParam(pe); err == nil && !rpe.Excl {
				pe = rpe
			}
		}
		if ok && wordOpEmpty(pe) && !pe.Excl && pe.Param != nil &&
			(pe.Param.Value == "@" || pe.Param.Value == "*" || allIndex(pe.Index)) {
			// "${a[@]:-WORD}", "${@:+WORD}": the list or WORD.
			if err := sp.dblText(dq.Parts[start:j]); err != nil {
				return err
			}
			start = j + 1
			if err := sp.dblListWordOp(pe); err != nil {
				return err
			}
			continue
		}
		if ok && wordOp(pe) && hasAtListOp(flatDbl(sglQuotesLiteral(pe.Exp.Word).Parts)) {
			// "${u:-x$@y}": WORD's "$@" makes fields, as bash
			// ("${u-"${@:-w}"}" too).
			if err := sp.dblText(dq.Parts[start:j]); err != nil {
				return err
			}
			start = j + 1
			if err := sp.dblWordOp(pe); err != nil {
				return err
			}
			continue
		}
		if !ok || (len(dq.Parts) > 1 && !maybeList(pe)) {
			continue
		}
		if changesVars(dq.Parts[start:j]) {
			// llmsh: "$(( a[1]++ ))${a[*]}" reads the list after
			// the text before it has run, as bash.
			if err := sp.dblText(dq.Parts[start:j]); err != nil {
				return err
			}
			start = j
		}
		elems, err := cfg.quotedElemFields(pe)
		if err != nil {
			return err
		}
		if elems == nil {
			continue
		}
		if err := sp.dblText(dq.Parts[start:j]); err != nil {
			return err
		}
		if len(elems) == 0 {
			sp.noneAt = true
		}
		for k, elem := range elems {
			if k > 0 {
				sp.brk()
			}
			sp.quoted(elem, quoteDouble)
		}
		start = j + 1
		if len(dq.Parts) == 1 {
			return nil
		}
	}
	if start == 0 {
		// No list: the whole string, a field even if empty.
		if len(dq.Parts) == 0 {
			sp.quoted("", quoteDouble)
			return nil
		}
		return sp.dblText(dq.Parts)
	}
	return sp.dblText(dq.Parts[start:])
}

// changesVars reports whether expanding wps may assign variables: an
// arithmetic expansion, a command substitution, ${v=WORD}.
func changesVars(wps []syntax.WordPart) bool {
	for _, wp := range wps {
		switch wp := wp.(type) {
		case *syntax.ArithmExp, *syntax.CmdSubst:
			return true
		case *syntax.ParamExp:
			if wp.Exp != nil && (wp.Exp.Op == syntax.AssignUnset || wp.Exp.Op == syntax.AssignUnsetOrNull) {
				return true
			}
		}
	}
	return false
}

// dblWordOp adds "${v:-WORD}" whose WORD has a list expansion: WORD, if
// used, as a double-quoted string of its own.
func (sp *splitter) dblWordOp(pe *syntax.ParamExp) error {
	cfg := sp.cfg
	cfg.deferWord = true
	oldDbl := cfg.dblQuoted
	cfg.dblQuoted = true // llmsh: WORD is in double quotes ("${u:-'$@'}")
	val, err := cfg.paramExp(pe)
	cfg.deferWord, cfg.dblQuoted = false, oldDbl
	w := cfg.deferred
	cfg.deferred = nil
	if err != nil {
		return err
	}
	if w != nil {
		n := len(sp.fields)
		if err := sp.dblQuoted(&syntax.DblQuoted{Parts: flatDbl(w.Parts)}); err != nil {
			return err
		}
		if len(sp.fields) == n && !sp.exists {
			// llmsh: WORD gave no field ("${u:-$@}" with no
			// parameters): bash's one empty field.
			sp.quoted("", quoteDouble)
		}
		return nil
	}
	sp.quoted(val, quoteDouble)
	return nil
}

// dblListWordOp adds "${L-W}", "${L:-W}", "${L+W}" or "${L:+W}" where L
// is a list ($@, $*, ${a[@]}, ${a[*]}), as bash: L is set when it has
// elements and null when they join ("@" by spaces, "*" by IFS's first
// character) into nothing; L unused is nothing, L used gives a field per
// element ("@") or one field ("*"), W used is a double-quoted string.
func (sp *splitter) dblListWordOp(pe *syntax.ParamExp) error {
	cfg := sp.cfg
	q := *pe
	q.Exp = nil
	elems, star, _, err := cfg.listElems(&q)
	if err != nil {
		return err
	}
	set := len(elems) > 0
	joined := strings.Join(elems, " ")
	if star {
		joined = cfg.ifsJoin(elems)
	}
	use := set // the alternate word
	switch pe.Exp.Op {
	case syntax.DefaultUnset:
		use = !set
	case syntax.DefaultUnsetOrNull:
		use = !set || joined == ""
	case syntax.AlternateUnsetOrNull:
		use = set && joined != ""
	}
	alt := pe.Exp.Op == syntax.AlternateUnset || pe.Exp.Op == syntax.AlternateUnsetOrNull
	switch {
	case use && pe.Exp.Word == nil:
		sp.quoted("", quoteDouble)
		return nil
	case use:
		n := len(sp.fields)
		if err := sp.dblQuoted(&syntax.DblQuoted{Parts: braceUnescaped(flatDbl(sglQuotesLiteral(pe.Exp.Word).Parts))}); err != nil {
			return err
		}
		if len(sp.fields) == n && !sp.exists {
			// W gave no field ("${@:-$@}" with none): bash's
			// one empty field.
			sp.quoted("", quoteDouble)
		}
		return nil
	case alt:
		if star || set {
			// Unused, W leaves an empty string: a field, but
			// for "${@:+W}" with no parameters (as "$@").
			sp.quoted("", quoteDouble)
		}
		return nil
	case star:
		sp.quoted(joined, quoteDouble)
		return nil
	}
	for k, elem := range elems {
		if k > 0 {
			sp.brk()
		}
		sp.quoted(elem, quoteDouble)
	}
	return nil
}

// maybeList reports whether pe, a part of a double-quoted string, may
// expand to a list of fields.
func maybeList(pe *syntax.ParamExp) bool {
	return pe.Excl || pe.Index != nil || (pe.Param != nil && (pe.Param.Value == "@" || pe.Param.Value == "*"))
}

// dblText adds the double-quoted parts wps as quoted text; none adds
// nothing.
func (sp *splitter) dblText(wps []syntax.WordPart) error {
	if len(wps) == 0 {
		return nil
	}
	wfield, err := sp.cfg.wordField(wps, quoteDouble)
	if err != nil {
		return err
	}
	sp.settle()
	for _, part := range wfield {
		part.quote = quoteDouble
		sp.add(part)
	}
	sp.exists = true
	return nil
}

// paramExp adds an unquoted parameter expansion.
func (sp *splitter) paramExp(pe *syntax.ParamExp) error {
	cfg := sp.cfg
	if sp.rhsAt && atList(pe) {
		elems, err := cfg.quotedElemFields(pe)
		if err != nil {
			return err
		}
		for k, e := range elems {
			if k > 0 {
				sp.split(" ")
			}
			sp.quoted(e, quoteDouble)
		}
		return nil
	}
	if listExp(pe) {
		// $@, $*, ${a[@]}, ${a[*]} (and their slices, replacements and
		// trims): the elements joined by the first character of IFS,
		// then split as one value, as bash does.
		q := *pe
		if q.Param.Value == "*" {
			q.Param = &syntax.Lit{ValuePos: pe.Param.ValuePos, ValueEnd: pe.Param.ValueEnd, Value: "@"}
		}
		if nodeLit(q.Index) == "*" {
			q.Index = &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: "@"}}}
		}
		elems, err := cfg.quotedElemFields(&q)
		if err != nil {
			return err
		}
		if elems != nil {
			sp.listElems(pe, elems)
			return nil
		}
	}
	if wordOp(pe) {
		// ${v:-WORD} and the like: when WORD is used, its quoted parts
		// are not split (paramExp leaves it to us in cfg.deferred).
		cfg.deferWord = true
		val, err := cfg.paramExp(pe)
		cfg.deferWord = false
		if err != nil {
			cfg.deferred = nil
			return err
		}
		if w := cfg.deferred; w != nil {
			cfg.deferred = nil
			if ifs := cfg.ifsValue(); ifs != "" && ifs[0] != ' ' && !sp.rhsAt && hasAtList(w.Parts) {
				sp.rhsAt = true
				defer func() { sp.rhsAt = false }()
			}
			return quotedBad(w.Parts, sp.parts(w.Parts, true))
		}
		if elems, ok, err := sp.unusedWordList(pe); ok || err != nil {
			if err == nil && elems != nil {
				sp.listElems(pe, elems)
			}
			return err
		}
		sp.split(val)
		return nil
	}
	val, err := cfg.paramExp(pe)
	if err != nil {
		return err
	}
	if val != "" && wordOpEmpty(pe) {
		// llmsh: ${a[@]-}, ${@:-} (WORD empty) of a list not empty:
		// its elements, as those of ${a[@]}.
		if elems, ok, err := sp.unusedWordList(pe); ok || err != nil {
			if err == nil && elems != nil {
				sp.listElems(pe, elems)
			}
			return err
		}
	}
	sp.split(val)
	return nil
}

// listElems adds the elements of an unquoted list expansion pe.
func (sp *splitter) listElems(pe *syntax.ParamExp, elems []string) {
	ifs := sp.cfg.ifsValue()
	if ifs != "" {
		first := sp.cfg.ifsFirst()
		for k, e := range elems {
			if k > 0 {
				sp.split(first)
			}
			sp.split(e)
		}
		return
	}
	// IFS empty: no splitting, but each element is a field of its own
	// (an empty one is none), as in bash; bash joins by spaces the keys
	// ${!a[*]} and an array's elements trimmed by # or %.
	trim := false
	if pe.Exp != nil {
		switch pe.Exp.Op {
		case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix:
			trim = pe.Param.Value != "@" && pe.Param.Value != "*"
		}
	}
	if trim || pe.Excl && nodeLit(pe.Index) == "*" {
		sp.split(sp.cfg.joinValues(elems, " "))
		return
	}
	for k, e := range elems {
		if k > 0 && !sp.after {
			sp.pending = true // as IFS whitespace
		}
		sp.split(e)
	}
}

// listExp reports whether pe expands the elements of a list ($@, $*,
// ${a[@]}, ${a[*]}, ${!a[@]}), possibly sliced, with a replacement or
// with an operator that applies to each element.
func listExp(pe *syntax.ParamExp) bool {
	if pe.Param != nil && pe.Names != 0 {
		// llmsh: ${!prefix@}: a field per name, as bash (${!prefix*}
		// is joined by IFS's first character, then split).
		return pe.Names == syntax.NamesPrefixWords && pe.Slice == nil && pe.Repl == nil && pe.Exp == nil && !pe.Length
	}
	if pe.Param == nil || pe.Length || pe.Width || pe.IsSet {
		return false
	}
	if name := pe.Param.Value; name != "@" && name != "*" && !allIndex(pe.Index) {
		return false
	}
	if pe.Excl && (pe.Slice != nil || pe.Repl != nil || pe.Exp != nil) {
		return false
	}
	if pe.Exp != nil {
		switch pe.Exp.Op {
		case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix,
			syntax.UpperFirst, syntax.UpperAll, syntax.LowerFirst, syntax.LowerAll,
			syntax.ToggleFirst, syntax.ToggleAll:
		case syntax.OtherParamOps:
			// llmsh: the per-element operators (${a[@]@Q}): a field
			// for each element, as bash, whatever IFS holds.
			op := nodeLit(pe.Exp.Word)
			if op == "A" {
				// llmsh: ${@@A}, set -- and the parameters; ${a[@]@A}
				// and ${a[*]@A} of an array, declare, its flags and
				// the assignment (three fields with IFS empty, bash).
				break
			}
			if op == "k" || op == "K" && (pe.Param.Value == "@" || pe.Param.Value == "*") {
				// llmsh: ${a[@]@k}, a field per key and value;
				// ${@@K}, a field per parameter, as bash. (${a[@]@K}
				// is one string, split.)
				break
			}
			if len(op) != 1 || !strings.Contains("QEPUuLa", op) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// wordOp reports whether pe is ${v-WORD}, ${v:-WORD}, ${v+WORD} or
// ${v:+WORD}, whose WORD, when used, is expanded as part of the word pe
// is in.
func wordOp(pe *syntax.ParamExp) bool {
	return pe.Exp != nil && pe.Exp.Word != nil && wordOpEmpty(pe)
}

// wordOpEmpty is wordOp, WORD empty too (${@:-}).
func wordOpEmpty(pe *syntax.ParamExp) bool {
	if pe.Exp == nil || pe.Length || pe.Width || pe.IsSet || pe.Names != 0 ||
		pe.Slice != nil || pe.Repl != nil {
		return false
	}
	switch pe.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		return true
	}
	return false
}

// unescapeLit adds to field the unquoted literal text s, its backslashes
// removed: an escaped character is quoted (a pattern's literal
// character). In the word of ${v:-WORD} inside double quotes, only the
// characters special there ($ ` " \ }) are escaped; other backslashes
// stay, as in bash.
func (cfg *Config) unescapeLit(field []fieldPart, s string) []fieldPart {
	if cfg.dblQuoted {
		// llmsh: an escaped character is quoted, so that a pattern
		// matches it as itself ("${v/\\/x}" replaces a backslash).
		start := 0
		for i := 0; i < len(s); i++ {
			if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\}", s[i+1]) >= 0 {
				if i > start {
					field = append(field, fieldPart{val: s[start:i]})
				}
				field = append(field, fieldPart{val: s[i+1 : i+2], quote: quoteSingle})
				i++
				start = i + 1
			}
		}
		if start < len(s) {
			field = append(field, fieldPart{val: s[start:]})
		}
		return field
	}
	for {
		j := strings.IndexByte(s, '\\')
		if j < 0 || j == len(s)-1 {
			break // a trailing backslash is kept as-is
		}
		_, size := utf8.DecodeRuneInString(s[j+1:])
		if j > 0 {
			field = append(field, fieldPart{val: s[:j]})
		}
		field = append(field, fieldPart{val: s[j+1 : j+1+size], quote: quoteSingle})
		s = s[j+1+size:]
	}
	if s != "" {
		field = append(field, fieldPart{val: s})
	}
	return field
}

// unusedWordList gives the elements of the list L of ${L-W} or ${L:-W}
// ($*, $@, ${a[*]}, ${a[@]}) whose W was not used: they are then fields
// as those of an unquoted L, as bash (IFS=; ${*:-x} is a field per
// positional parameter, not one joined by nothing).
func (sp *splitter) unusedWordList(pe *syntax.ParamExp) ([]string, bool, error) {
	if pe.Exp.Op != syntax.DefaultUnset && pe.Exp.Op != syntax.DefaultUnsetOrNull {
		return nil, false, nil
	}
	q := *pe
	q.Exp = nil
	if !listExp(&q) || q.Excl {
		return nil, false, nil
	}
	if q.Param.Value == "*" {
		q.Param = &syntax.Lit{ValuePos: pe.Param.ValuePos, ValueEnd: pe.Param.ValueEnd, Value: "@"}
	}
	if nodeLit(q.Index) == "*" {
		q.Index = &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: "@"}}}
	}
	elems, err := sp.cfg.quotedElemFields(&q)
	return elems, elems != nil, err
}
