package builtins

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "tr", Summary: "translate or delete characters", Run: tr})

// trSet is an expanded SET: its bytes as runs of one byte, where
// [:upper:]/[:lower:] started (for the alignment check), and for string2
// where a [c*] fill goes. A [c*n] repeat is one run, not n bytes
// (session 28, red team: `tr a-z '[x*2000000000]'` made a 2 GB set, past
// the memory limit and 5 s past the time limit; GNU's is a count too).
type trSet struct {
	runs     []trRun
	n        int // the set's length: the runs' counts summed
	classAt  map[int]string
	fillAt   int // the run before which string2's [c*] fill goes; -1: none
	fillC    byte
	fillPos  int  // the position of the [c*] fill in the set
	classes  bool // any class other than at classAt (string2 check)
	anyClass bool // any character class (the -c check)
	equiv    bool // an [=c=]
	endClass bool // the set ends with a character class
	// indefinite counts the [c*] (and [c*0]) constructs: GNU checks
	// them once both strings are parsed
	indefinite int
}

// trRun is n copies of c in a SET.
type trRun struct {
	c byte
	n int
}

// add appends n copies of c.
func (s *trSet) add(c byte, n int) {
	if n > 0 {
		s.runs = append(s.runs, trRun{c, n})
		s.n += n
	}
}

// trWalk calls f(a's byte, b's byte) for the first n positions of a and
// b (each holds n or more), once for each stretch where neither changes.
func trWalk(a, b []trRun, n int, f func(ca, cb byte)) {
	i, j, ua, ub := 0, 0, 0, 0 // the runs, and how much of each is used
	for n > 0 {
		for a[i].n == ua {
			i, ua = i+1, 0
		}
		for b[j].n == ub {
			j, ub = j+1, 0
		}
		k := min(a[i].n-ua, b[j].n-ub, n)
		f(a[i].c, b[j].c)
		ua, ub, n = ua+k, ub+k, n-k
	}
}

var trClasses = map[string]func(c byte) bool{
	"alnum":  trAlnum,
	"alpha":  func(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' },
	"blank":  func(c byte) bool { return c == ' ' || c == '\t' },
	"cntrl":  func(c byte) bool { return c < 0x20 || c == 0x7f },
	"digit":  func(c byte) bool { return c >= '0' && c <= '9' },
	"graph":  func(c byte) bool { return c > 0x20 && c < 0x7f },
	"lower":  func(c byte) bool { return c >= 'a' && c <= 'z' },
	"print":  func(c byte) bool { return c >= 0x20 && c < 0x7f },
	"punct":  func(c byte) bool { return c > 0x20 && c < 0x7f && !trAlnum(c) },
	"space":  func(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' },
	"upper":  func(c byte) bool { return c >= 'A' && c <= 'Z' },
	"xdigit": func(c byte) bool { return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f' },
}

func trAlnum(c byte) bool { return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z' }

// trEscapes are SET's one-letter escapes; its octal escapes warn of
// values past \377 and are trUnescape's own, and any other escaped
// character stands for itself.
var trEscapes = gnu.Escapes{Letters: "abfnrtv"}

// trUnescape turns SET's backslash escapes into bytes, marking which bytes
// came from an escape (they lose any special meaning).
func trUnescape(env *Env, s string) ([]byte, []bool) {
	var b []byte
	var esc []bool
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b, esc = append(b, c), append(esc, false)
			continue
		}
		if i+1 == len(s) {
			fmt.Fprintf(env.Stderr, "%s: warning: an unescaped backslash at end of string is not portable\n", env.Name())
			b, esc = append(b, '\\'), append(esc, true)
			continue
		}
		i++
		c = s[i]
		if e, n, _ := trEscapes.Next(nil, s[i:]); n > 0 {
			c = e[0]
		}
		switch c {
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := int(c - '0')
			for j := 0; j < 2 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7'; j++ {
				nv := v*8 + int(s[i+1]-'0')
				if nv > 0377 {
					fmt.Fprintf(env.Stderr, "%s: warning: the ambiguous octal escape \\%c%c%c is being\n\tinterpreted as the 2-byte sequence \\0%c%c, %c\n",
						env.Name(), s[i-j], s[i-j+1], s[i+1], s[i-j], s[i-j+1], s[i+1])
					break
				}
				v = nv
				i++
			}
			c = byte(v)
		}
		b, esc = append(b, c), append(esc, true)
	}
	return b, esc
}

// trParse expands one SET as GNU's build_spec_list does.
func trParse(env *Env, s string) (*trSet, error) {
	b, esc := trUnescape(env, s)
	set := &trSet{classAt: map[int]string{}, fillAt: -1}
	plain := func(i int, c byte) bool { return i < len(b) && !esc[i] && b[i] == c }
	// closing finds the unescaped two-byte terminator "x]" from i.
	closing := func(i int, x byte) int {
		for j := i; j+1 < len(b); j++ {
			if plain(j, x) && plain(j+1, ']') {
				return j
			}
		}
		return -1
	}
	for i := 0; i < len(b); {
		if plain(i, '[') && i+1 < len(b) {
			switch {
			case plain(i+1, ':'):
				if j := closing(i+2, ':'); j >= 0 {
					name := string(b[i+2 : j])
					fn, ok := trClasses[name]
					if !ok {
						return nil, fmt.Errorf("invalid character class %s", env.Quote(name))
					}
					if name == "upper" || name == "lower" {
						set.classAt[set.n] = name
					} else {
						set.classes = true
					}
					set.anyClass = true
					for c := 0; c < 256; c++ {
						if fn(byte(c)) {
							set.add(byte(c), 1)
						}
					}
					i = j + 2
					set.endClass = i == len(b)
					continue
				}
			case plain(i+1, '='):
				if j := closing(i+2, '='); j >= 0 {
					if j == i+2 {
						return nil, fmt.Errorf("missing equivalence class character '[==]'")
					}
					if j-(i+2) != 1 {
						return nil, fmt.Errorf("%s: equivalence class operand must be a single character", trPrintable(b[i+2:j]))
					}
					set.add(b[i+2], 1)
					set.equiv = true
					i = j + 2
					continue
				}
			case i+2 < len(b) && plain(i+2, '*'):
				j := i + 3
				for j < len(b) && !plain(j, ']') {
					j++
				}
				if j < len(b) {
					c, num := b[i+1], string(b[i+3:j])
					var n uint64
					if num != "" {
						base := 10
						if num[0] == '0' {
							base = 8
						}
						var err error
						n, err = strconv.ParseUint(num, base, 31)
						if err != nil {
							return nil, fmt.Errorf("invalid repeat count %s in [c*n] construct", env.Quote(num))
						}
					}
					if n == 0 {
						set.indefinite++
						if set.fillAt < 0 {
							set.fillAt, set.fillC, set.fillPos = len(set.runs), c, set.n
						}
					}
					set.add(c, int(n))
					i = j + 1
					continue
				}
			}
		}
		if i+2 < len(b) && plain(i+1, '-') {
			lo, hi := b[i], b[i+2]
			if lo > hi {
				return nil, fmt.Errorf("range-endpoints of '%s-%s' are in reverse collating sequence order", trQuoteChar(lo), trQuoteChar(hi))
			}
			for c := int(lo); c <= int(hi); c++ {
				set.add(byte(c), 1)
			}
			i += 3
			continue
		}
		set.add(b[i], 1)
		i++
	}
	return set, nil
}

// trPrintable is GNU tr's make_printable_str: C escapes for the control
// characters that have one, octal for other unprintable bytes.
func trPrintable(b []byte) string {
	var sb strings.Builder
	for _, c := range b {
		if e := gnu.CEscape(c); e != "" {
			sb.WriteString(e)
		} else {
			sb.WriteString(trQuoteChar(c))
		}
	}
	return sb.String()
}

// trQuoteChar prints a range endpoint as GNU does (octal when unprintable).
func trQuoteChar(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return string(c)
	}
	return fmt.Sprintf("\\%03o", c)
}

// trConfig is what tr's options select.
type trConfig struct {
	complement, del, squeeze, trunc bool
}

// trTables is what tr does to each byte: translate it, delete it, or
// squeeze its repeats.
type trTables struct {
	xlat          [256]byte
	delSet, sqSet [256]bool
}

func tr(env *Env) int {
	var o trConfig
	f := NewFlags(env, "Translate, squeeze, and/or delete characters from standard input,\n"+
		"writing to standard output.  STRING1 and STRING2 specify arrays of\n"+
		"characters ARRAY1 and ARRAY2 that control the action.", "[OPTION]... STRING1 [STRING2]")
	f.Row("-c, -C, --complement", "use the complement of ARRAY1")
	f.BoolVar(&o.complement, 'c', "complement", "")
	f.BoolVar(&o.complement, 'C', "", "")
	// -A: GNU's undocumented AIX option (the C locale; tr is bytes here)
	var aix bool
	f.BoolVar(&aix, 'A', "", "")
	f.BoolVar(&o.del, 'd', "delete", "delete characters in ARRAY1, do not translate")
	f.BoolVar(&o.squeeze, 's', "squeeze-repeats", "replace each sequence of a repeated character\nthat is listed in the last specified ARRAY,\nwith a single occurrence of that character")
	f.BoolVar(&o.trunc, 't', "truncate-set1", "first truncate ARRAY1 to length of ARRAY2")
	f.StopAtOperand = true // GNU's "+AcCdst": `tr a -d` maps a to -
	f.Epilog = trHelp
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	b2i := func(b bool) int {
		if b {
			return 1
		}
		return 0
	}
	minOps := 1 + b2i(o.del == o.squeeze)
	maxOps := 1 + b2i(b2i(o.del) <= b2i(o.squeeze))
	switch {
	case len(args) == 0:
		return f.Fail(&UsageError{"missing operand"}, 1)
	case len(args) < minOps:
		why := "Two strings must be given when translating."
		if o.squeeze {
			why = "Two strings must be given when both deleting and squeezing repeats."
		}
		return f.Fail(&UsageError{fmt.Sprintf("missing operand after %s\n%s", env.Quote(args[len(args)-1]), why)}, 1)
	case len(args) > maxOps:
		msg := fmt.Sprintf("extra operand %s", env.Quote(args[maxOps]))
		if len(args) == 2 {
			msg += "\nOnly one string may be given when deleting without squeezing repeats."
		}
		return f.Fail(&UsageError{msg}, 1)
	}
	t, err := o.tables(env, args)
	if err != nil {
		env.Errorf("%s", err)
		return 1
	}
	return o.run(env, t)
}

// tables builds the tables of the operands, SET1 and SET2.
func (o *trConfig) tables(env *Env, args []string) (*trTables, error) {
	s1, err := trParse(env, args[0])
	if err != nil {
		return nil, err
	}
	var s2 *trSet
	if len(args) == 2 {
		if s2, err = trParse(env, args[1]); err != nil {
			return nil, err
		}
	}
	// GNU's validate, in its order
	switch {
	case s1.indefinite > 0:
		return nil, fmt.Errorf("the [c*] repeat construct may not appear in string1")
	case s2 != nil && s2.indefinite > 1:
		return nil, fmt.Errorf("only one [c*] repeat construct may appear in string2")
	case s2 != nil && o.del && s2.indefinite > 0:
		return nil, fmt.Errorf("the [c*] construct may appear in string2 only when translating")
	}
	set1 := s1
	if o.complement {
		var in [256]bool
		for _, r := range s1.runs {
			in[r.c] = true
		}
		set1 = &trSet{}
		for c := 0; c < 256; c++ {
			if !in[c] {
				set1.add(byte(c), 1)
			}
		}
	}
	t := &trTables{}
	for i := range t.xlat {
		t.xlat[i] = byte(i)
	}
	switch {
	case !o.del && len(args) == 2:
		return t, o.translation(t, s1, s2, set1)
	case o.del:
		for _, r := range set1.runs {
			t.delSet[r.c] = true
		}
		if o.squeeze {
			for _, r := range s2.runs {
				t.sqSet[r.c] = true
			}
		}
	default:
		for _, r := range set1.runs {
			t.sqSet[r.c] = true
		}
	}
	return t, nil
}

// translation fills t to translate set1 (SET1, complemented under -c)
// into SET2, after GNU's checks in GNU's order.
func (o *trConfig) translation(t *trTables, s1, s2, set1 *trSet) error {
	if s2.equiv {
		return fmt.Errorf("[=c=] expressions may not appear in string2 when translating")
	}
	if s2.classes {
		return fmt.Errorf("when translating, the only character classes that may appear in\nstring2 are 'upper' and 'lower'")
	}
	// GNU checks the case classes' alignment (validate_case_classes)
	// before it extends string2; -c maps the complement's bytes in
	// order to string2's, classes or not.
	pairs := map[int]string{}
	if !o.complement {
		for at, name := range s2.classAt {
			if s2.fillAt >= 0 && at >= s2.fillPos {
				at += max(0, set1.n-s2.n) // after the [c*] fill
			}
			if at > set1.n {
				continue // GNU stops one byte after string1's end
			}
			other, ok := s1.classAt[at]
			if !ok || (other != "upper" && other != "lower") {
				return fmt.Errorf("misaligned [:upper:] and/or [:lower:] construct")
			}
			if other == name {
				pairs[at] = name
			}
		}
	}
	if !o.trunc && set1.n > s2.n && s2.n > 0 && s2.endClass && s2.fillAt < 0 {
		return fmt.Errorf("when translating with string1 longer than string2,\nthe latter string must not end with a character class")
	}
	set2 := s2.filled(set1.n)
	n1 := set1.n
	if o.trunc {
		n1 = min(n1, set2.n)
	}
	if set2.n < n1 {
		if set2.n == 0 {
			return fmt.Errorf("when not truncating set1, string2 must be non-empty")
		}
		set2.add(set2.runs[len(set2.runs)-1].c, n1-set2.n)
	}
	if o.complement && s1.anyClass && (set2.n != set1.n || !trHomogeneous(set2)) {
		return fmt.Errorf("when translating with complemented character classes,\nstring2 must map all characters in the domain to one")
	}
	// A class mapped to the same class ([:lower:] to [:lower:]) maps
	// only its first byte: GNU skips the rest of both.
	r1, r2 := set1.runs, set2.runs
	ats := slices.Sorted(maps.Keys(pairs))
	// total is the positions cut.
	total := 0
	for i := len(ats) - 1; i >= 0; i-- { // the last first: positions hold
		if at := ats[i]; at < n1 {
			cut := min(trClassSize(pairs[at])-1, n1-at-1)
			r1, r2 = trCut(r1, at+1, cut), trCut(r2, at+1, cut)
			total += cut
		}
	}
	trWalk(r1, r2, n1-total, func(c1, c2 byte) { t.xlat[c1] = c2 })
	if o.squeeze {
		o.squeezeSet2(t, set2, n1)
	}
	return nil
}

// filled is string2 with its [c*] fill expanded for a string1 of n1
// bytes.
func (s2 *trSet) filled(n1 int) *trSet {
	set2 := &trSet{}
	for i, r := range s2.runs {
		if i == s2.fillAt {
			set2.add(s2.fillC, n1-s2.n)
		}
		set2.add(r.c, r.n)
	}
	if s2.fillAt == len(s2.runs) {
		set2.add(s2.fillC, n1-s2.n)
	}
	return set2
}

// squeezeSet2 marks string2's bytes (those paired with string1's) for -s.
func (o *trConfig) squeezeSet2(t *trTables, set2 *trSet, n1 int) {
	m := min(set2.n, n1)
	if n1 == 0 {
		m = set2.n
	}
	for _, r := range set2.runs {
		if m <= 0 {
			break
		}
		t.sqSet[r.c] = true
		m -= r.n
	}
}

// trClassSize is the number of bytes of a character class.
func trClassSize(name string) int {
	n := 0
	for c := 0; c < 256; c++ {
		if trClasses[name](byte(c)) {
			n++
		}
	}
	return n
}

// trCut is runs without the n positions from position from on.
func trCut(runs []trRun, from, n int) []trRun {
	if n <= 0 {
		return runs
	}
	var out []trRun
	pos := 0
	for _, r := range runs {
		// the part of r before from, and the part after from+n
		before := max(0, min(r.n, from-pos))
		after := max(0, pos+r.n-max(pos, from+n))
		if k := before + after; k > 0 {
			out = append(out, trRun{r.c, k})
		}
		pos += r.n
	}
	return out
}

// trHomogeneous reports whether all of s's bytes are the same one.
func trHomogeneous(s *trSet) bool {
	for _, r := range s.runs {
		if r.c != s.runs[0].c {
			return false
		}
	}
	return true
}

// run copies standard input to standard output through t.
func (o *trConfig) run(env *Env, t *trTables) int {
	w := bufio.NewWriterSize(env.Stdout, 64<<10)
	buf := make([]byte, 64<<10)
	last := -1
	lineOut := env.LineBuffered()
	for {
		if env.Ctx.Err() != nil {
			return 1
		}
		n, rerr := env.Stdin.Read(buf)
		b := buf[:n]
		switch {
		case !o.del && !o.squeeze:
			for i, c := range b {
				b[i] = t.xlat[c]
			}
		default:
			o := 0
			for _, c := range b {
				if t.delSet[c] {
					continue
				}
				c = t.xlat[c]
				if t.sqSet[c] && int(c) == last {
					continue
				}
				last = int(c)
				b[o] = c
				o++
			}
			b = b[:o]
		}
		if _, err := w.Write(b); err != nil {
			return finishOutput(env, w, 1)
		}
		if lineOut && bytes.IndexByte(b, '\n') >= 0 {
			w.Flush() // stdbuf -oL: what was read is written at once
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			env.Errorf("read error: %s", ErrText(rerr))
			w.Flush()
			return 1
		}
	}
	return finishOutput(env, w, 0)
}

// trHelp is the end of tr's --help, as GNU's.
const trHelp = `ARRAYs are specified as strings of characters.  Most represent themselves.
Interpreted sequences are:

  \NNN            character with octal value NNN (1 to 3 octal digits)
  \\              backslash
  \a              audible BEL
  \b              backspace
  \f              form feed
  \n              new line
  \r              return
  \t              horizontal tab
  \v              vertical tab
  CHAR1-CHAR2     all characters from CHAR1 to CHAR2 in ascending order
  [CHAR*]         in ARRAY2, copies of CHAR until length of ARRAY1
  [CHAR*REPEAT]   REPEAT copies of CHAR, REPEAT octal if starting with 0
  [:alnum:]       all letters and digits
  [:alpha:]       all letters
  [:blank:]       all horizontal whitespace
  [:cntrl:]       all control characters
  [:digit:]       all digits
  [:graph:]       all printable characters, not including space
  [:lower:]       all lower case letters
  [:print:]       all printable characters, including space
  [:punct:]       all punctuation characters
  [:space:]       all horizontal or vertical whitespace
  [:upper:]       all upper case letters
  [:xdigit:]      all hexadecimal digits
  [=CHAR=]        all characters which are equivalent to CHAR

Translation occurs if -d is not given and both STRING1 and STRING2 appear.
-t may be used only when translating.  ARRAY2 is extended to length of
ARRAY1 by repeating its last character as necessary.  Excess characters
of ARRAY2 are ignored.  Character classes expand in unspecified order;
while translating, [:lower:] and [:upper:] may be used in pairs to
specify case conversion.  Squeezing occurs after translation or deletion.`
