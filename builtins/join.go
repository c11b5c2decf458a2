package builtins

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "join", Summary: "join lines of two files on a common field", Run: join})

// joinNoField is an unset join field (GNU's SIZE_MAX).
const joinNoField = math.MaxInt

// Operand statuses: whether an operand might be the argument of a
// preceding obsolete "-j1 FIELD", "-j2 FIELD" or "-o SPEC SPEC..." form.
const (
	joinMustBeOperand = iota
	joinMightBeJ1
	joinMightBeJ2
	joinMightBeO
)

// joinField is one field of a line: data[beg:end].
type joinField struct{ beg, end int }

// joinLine is one input line (without its delimiter) split into fields.
type joinLine struct {
	data   []byte
	fields []joinField
	fbuf   [6]joinField // fields' storage for short lines
}

func (l *joinLine) nfields() int {
	if l == nil {
		return 0
	}
	return len(l.fields)
}

func (l *joinLine) field(n int) []byte {
	f := l.fields[n]
	return l.data[f.beg:f.end]
}

// joinSpec is one item of -o: file 0 means the join field.
type joinSpec struct{ file, field int }

// joinOpts is the parsed command line.
type joinOpts struct {
	field1, field2 int
	tab            int // -1: blanks
	eol            byte
	filler         *string
	ignoreCase     bool
	header         bool
	check          int // 0 default, 1 --check-order, -1 --nocheck-order
	pairables      bool
	unpaired       [2]bool
	autoformat     bool
	outlist        []joinSpec
}

// joinInput is one of the two inputs being read.
type joinInput struct {
	name   string
	br     *bufio.Reader
	long   []byte
	lineNo uint64
	prev   *joinLine
	warned bool
}

// errJoinDisorder ends the run after a fatal --check-order diagnostic.
var errJoinDisorder = errors.New("join: disorder")

// joinReadError is a failure reading an input.
type joinReadError struct{ err error }

func (e joinReadError) Error() string { return e.err.Error() }

func join(env *Env) int {
	o, names, status := joinParse(env)
	if o == nil {
		return status
	}
	return joinFiles(env, o, names)
}

// joinCmdLine is the state of parsing join's command line, whose options
// and operands interact through the obsolete -j1/-j2 and -o forms.
type joinCmdLine struct {
	o          *joinOpts
	curArg     string // the argument being parsed, for the obsolete -j1/-j2
	optcStatus int
	jCount     [2]int
	names      [2]string
	opStatus   [2]int
	nfiles     int
	prevStatus int
}

// flags is join's option table.
func (p *joinCmdLine) flags(env *Env) *Flags {
	f := NewFlags(env, "For each pair of input lines with identical join fields, write a line to\n"+
		"standard output.  The default join field is the first, delimited by blanks.\n\n"+
		"When FILE1 or FILE2 (not both) is -, read standard input.", "[OPTION]... FILE1 FILE2")
	f.Epilog = "Unless -t CHAR is given, leading blanks separate fields and are ignored,\n" +
		"else fields are separated by CHAR.  Any FIELD is a field number counted\n" +
		"from 1.  FORMAT is one or more comma or blank separated specifications,\n" +
		"each being 'FILENUM.FIELD' or '0'.  Default FORMAT outputs the join field,\n" +
		"the remaining fields from FILE1, the remaining fields from FILE2, all\n" +
		"separated by CHAR.  If FORMAT is the keyword 'auto', then the first\n" +
		"line of each file determines the number of fields output for each line.\n\n" +
		"Important: FILE1 and FILE2 must be sorted on the join fields.\n" +
		"E.g., use \"sort -k 1b,1\" if 'join' has no options,\n" +
		"or use \"join -t ''\" if 'sort' has no options.\n" +
		"If the input is not sorted and some lines cannot be joined, a\n" +
		"warning message will be given."
	o := p.o
	unpaired := func(v string) error {
		n, ok, _ := joinParseUint(v)
		if !ok || (n != 1 && n != 2) {
			return fmt.Errorf("invalid field number: %s", env.Quote(v))
		}
		o.unpaired[n-1] = true
		return nil
	}
	f.Func('a', "", RequiredArg, "FILENUM", "also print unpairable lines from file FILENUM, where\n                           FILENUM is 1 or 2, corresponding to FILE1 or FILE2", func(v string, _ bool) error {
		return unpaired(v)
	})
	f.Func('e', "", RequiredArg, "STRING", "replace missing (empty) input fields with STRING;\n                           I.e., missing fields specified with '-12jo' options", func(v string, _ bool) error {
		if o.filler != nil && *o.filler != v {
			return errors.New("conflicting empty-field replacement strings")
		}
		s := v
		o.filler = &s
		return nil
	})
	f.BoolVar(&o.ignoreCase, 'i', "ignore-case", "ignore differences in case when comparing fields")
	f.Func('j', "", RequiredArg, "FIELD", "equivalent to '-1 FIELD -2 FIELD'", func(v string, _ bool) error {
		if (v == "1" || v == "2") && p.curArg == "-j"+v {
			n := int(v[0] - '1')
			p.jCount[n]++
			p.optcStatus = joinMightBeJ1 + n
			return nil
		}
		n, err := joinFieldNumber(env, v)
		if err != nil {
			return err
		}
		if err := joinSetField(&o.field1, n); err != nil {
			return err
		}
		return joinSetField(&o.field2, o.field1)
	})
	f.Func('o', "", RequiredArg, "FORMAT", "obey FORMAT while constructing output line", func(v string, _ bool) error {
		if v == "auto" {
			o.autoformat = true
			return nil
		}
		if err := o.addFieldList(env, v); err != nil {
			return err
		}
		p.optcStatus = joinMightBeO
		return nil
	})
	f.Func('t', "", RequiredArg, "CHAR", "use CHAR as input and output field separator", func(v string, _ bool) error {
		var tab int
		switch {
		case v == "":
			tab = '\n' // the whole line is the field
		case v == `\0`:
			tab = 0
		case len(v) > 1:
			return fmt.Errorf("multi-character tab %s", env.Quote(v))
		default:
			tab = int(v[0])
		}
		if o.tab >= 0 && o.tab != tab {
			return errors.New("incompatible tabs")
		}
		o.tab = tab
		return nil
	})
	f.Func('v', "", RequiredArg, "FILENUM", "like -a FILENUM, but suppress joined output lines", func(v string, _ bool) error {
		o.pairables = false
		return unpaired(v)
	})
	setField := func(p *int) func(string, bool) error {
		return func(v string, _ bool) error {
			n, err := joinFieldNumber(env, v)
			if err != nil {
				return err
			}
			return joinSetField(p, n)
		}
	}
	f.Func('1', "", RequiredArg, "FIELD", "join on this FIELD of file 1", setField(&o.field1))
	f.Func('2', "", RequiredArg, "FIELD", "join on this FIELD of file 2", setField(&o.field2))
	f.Func(0, "check-order", NoArg, "", "check that the input is correctly sorted, even\n                           if all input lines are pairable", func(string, bool) error {
		o.check = 1
		return nil
	})
	f.Func(0, "nocheck-order", NoArg, "", "do not check that the input is correctly sorted", func(string, bool) error {
		o.check = -1
		return nil
	})
	f.BoolVar(&o.header, 0, "header", "treat the first line in each file as field headers,\n                           print them without trying to pair them")
	f.Func('z', "zero-terminated", NoArg, "", "line delimiter is NUL, not newline", func(string, bool) error {
		o.eol = 0
		return nil
	})
	return f
}

// addFile takes an operand, which may turn out to be the argument of an
// obsolete -j1/-j2 or -o before it.
func (p *joinCmdLine) addFile(env *Env, name string) error {
	if p.nfiles == 2 {
		op0 := 0
		if p.opStatus[0] == joinMustBeOperand {
			op0 = 1
		}
		arg := p.names[op0]
		switch p.opStatus[op0] {
		case joinMustBeOperand:
			return &UsageError{"extra operand " + env.Quote(name)}
		case joinMightBeJ1, joinMightBeJ2:
			p.jCount[p.opStatus[op0]-joinMightBeJ1]--
			n, err := joinFieldNumber(env, arg)
			if err != nil {
				return err
			}
			field := &p.o.field1
			if p.opStatus[op0] == joinMightBeJ2 {
				field = &p.o.field2
			}
			if err := joinSetField(field, n); err != nil {
				return err
			}
		case joinMightBeO:
			if err := p.o.addFieldList(env, arg); err != nil {
				return err
			}
		}
		if op0 == 0 {
			p.opStatus[0], p.names[0] = p.opStatus[1], p.names[1]
		}
		p.nfiles = 1
	}
	p.opStatus[p.nfiles] = p.prevStatus
	p.names[p.nfiles] = name
	p.nfiles++
	if p.prevStatus == joinMightBeO {
		p.optcStatus = joinMightBeO
	}
	return nil
}

// joinParse reads join's options and the two file names; on nil it
// returns the exit status.
func joinParse(env *Env) (*joinOpts, [2]string, int) {
	p := &joinCmdLine{o: &joinOpts{field1: joinNoField, field2: joinNoField, tab: -1, eol: '\n', pairables: true}}
	f := p.flags(env)
	// Options and operands are taken in command-line order, as GNU's
	// getopt "-" mode does, for the obsolete "-o 1.1 2.1 FILE1 FILE2" and
	// "-j1 FIELD" forms.
	p.prevStatus = joinMustBeOperand
	args := env.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		p.optcStatus = joinMustBeOperand
		if a == "--" {
			p.prevStatus = joinMustBeOperand
			for _, name := range args[i+1:] {
				if err := p.addFile(env, name); err != nil {
					return nil, p.names, f.Fail(err, 1)
				}
			}
			break
		}
		if len(a) > 1 && a[0] == '-' {
			chunk := []string{a}
			if joinNeedsNext(a) && i+1 < len(args) {
				chunk = append(chunk, args[i+1])
				i++
			}
			p.curArg = a
			if _, err := f.Parse(chunk); err != nil {
				return nil, p.names, f.Fail(err, 1)
			}
		} else if err := p.addFile(env, a); err != nil {
			return nil, p.names, f.Fail(err, 1)
		}
		p.prevStatus = p.optcStatus
	}
	if p.nfiles != 2 {
		if p.nfiles == 0 {
			return nil, p.names, f.Fail(&UsageError{"missing operand"}, 1)
		}
		return nil, p.names, f.Fail(&UsageError{"missing operand after " + env.Quote(env.Args[len(env.Args)-1])}, 1)
	}
	for i := range 2 {
		if p.jCount[i] != 0 {
			if err := joinSetField(&p.o.field1, i); err != nil {
				return nil, p.names, f.Fail(err, 1)
			}
			if err := joinSetField(&p.o.field2, i); err != nil {
				return nil, p.names, f.Fail(err, 1)
			}
		}
	}
	if p.o.field1 == joinNoField {
		p.o.field1 = 0
	}
	if p.o.field2 == joinNoField {
		p.o.field2 = 0
	}
	return p.o, p.names, 0
}

// joinFiles opens the two files and joins them.
func joinFiles(env *Env, o *joinOpts, names [2]string) int {
	if names[0] == "-" && names[1] == "-" {
		env.Errorf("both files cannot be standard input")
		return 1
	}
	var in [2]*joinInput
	for i, name := range names {
		r, err := env.Open(name)
		if err != nil {
			if errors.Is(err, syscall.EISDIR) {
				env.Errorf("read error: %s", ErrText(err))
			} else {
				env.PathError(name, err)
			}
			return 1
		}
		defer r.Close()
		in[i] = &joinInput{name: name, br: bufio.NewReaderSize(r, 64<<10)}
	}
	j := &joiner{env: env, o: o, in: in, w: bufio.NewWriterSize(env.Stdout, 64<<10)}
	err := j.run()
	if err == nil {
		err = j.w.Flush()
		if err != nil {
			err = gnu.WriteError{Err: err}
		}
	} else {
		j.w.Flush()
	}
	var re joinReadError
	switch {
	case err == nil:
	case errors.Is(err, errJoinDisorder):
		return 1
	case errors.As(err, &re):
		if !quietStop(re.err) {
			env.Errorf("read error: %s", ErrText(re.err))
		}
		return 1
	default:
		if st, stop := stopError(env, err); stop {
			return st
		}
		env.Errorf("%s", ErrText(err))
		return 1
	}
	if in[0].warned || in[1].warned {
		env.Errorf("input is not in sorted order")
		return 1
	}
	return 0
}

// joinNeedsNext reports whether the short-option argument a ends with an
// option that takes the next argument as its value.
func joinNeedsNext(a string) bool {
	if strings.HasPrefix(a, "--") {
		return false
	}
	for i := 1; i < len(a); i++ {
		switch a[i] {
		case 'a', 'e', '1', '2', 'j', 'o', 't', 'v':
			return i == len(a)-1
		case 'i', 'z':
		default:
			return false
		}
	}
	return false
}

// joinParseUint parses s as GNU's xstrtoumax does with no suffixes:
// leading blanks and a '+' are allowed, a '-' is not; an overflowing
// value reports overflow.
func joinParseUint(s string) (n uint64, ok, overflow bool) {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	if strings.HasPrefix(t, "-") {
		return 0, false, false
	}
	t = strings.TrimPrefix(t, "+")
	if t == "" {
		return 0, false, false
	}
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return 0, false, false
		}
	}
	n, err := strconv.ParseUint(t, 10, 64)
	if err != nil {
		return math.MaxUint64, true, true
	}
	return n, true, false
}

// joinFieldNumber converts a 1-based FIELD operand to a 0-based index;
// huge values are clamped as GNU does.
func joinFieldNumber(env *Env, s string) (int, error) {
	n, ok, overflow := joinParseUint(s)
	if overflow || ok && n > math.MaxInt32 {
		return math.MaxInt32, nil
	}
	if !ok || n == 0 {
		return 0, fmt.Errorf("invalid field number: %s", env.Quote(s))
	}
	return int(n - 1), nil
}

func joinSetField(p *int, v int) error {
	if *p != joinNoField && *p != v {
		return fmt.Errorf("incompatible join fields %d, %d", *p+1, v+1)
	}
	*p = v
	return nil
}

// addFieldList adds the comma or blank separated specs of s to the
// output list.
func (o *joinOpts) addFieldList(env *Env, s string) error {
	for {
		i := strings.IndexAny(s, ", \t")
		item := s
		if i >= 0 {
			item = s[:i]
		}
		spec, err := joinDecodeSpec(env, item)
		if err != nil {
			return err
		}
		o.outlist = append(o.outlist, spec)
		if i < 0 {
			return nil
		}
		s = s[i+1:]
	}
}

func joinDecodeSpec(env *Env, s string) (joinSpec, error) {
	switch {
	case s == "0":
		return joinSpec{0, 0}, nil
	case strings.HasPrefix(s, "0"):
		return joinSpec{}, fmt.Errorf("invalid field specifier: %s", env.Quote(s))
	case strings.HasPrefix(s, "1") || strings.HasPrefix(s, "2"):
		if len(s) < 2 || s[1] != '.' {
			return joinSpec{}, fmt.Errorf("invalid field specifier: %s", env.Quote(s))
		}
		n, err := joinFieldNumber(env, s[2:])
		if err != nil {
			return joinSpec{}, err
		}
		return joinSpec{int(s[0] - '0'), n}, nil
	}
	return joinSpec{}, fmt.Errorf("invalid file number in field spec: %s", env.Quote(s))
}

// joiner runs the merge of two sorted inputs.
type joiner struct {
	env        *Env
	o          *joinOpts
	in         [2]*joinInput
	w          *bufio.Writer
	unpairable bool // GNU's seen_unpairable
	auto       [2]int
	n          int
	seq        [2][]*joinLine // the current group of lines with equal keys
}

// getLine reads the next line of input i (nil at the end), splits it and
// checks its order against the previous line.
func (j *joiner) getLine(i int) (*joinLine, error) {
	in := j.in[i]
	j.n++
	if j.n&1023 == 0 && j.env.Ctx.Err() != nil {
		return nil, gnu.ErrCancelled
	}
	eol := j.o.eol
	data, err := in.br.ReadSlice(eol)
	if err == bufio.ErrBufferFull {
		in.long, err = j.env.gatherLine(append(in.long[:0], data...), in.br, eol)
		data = in.long
		if err == gnu.ErrCancelled {
			return nil, err
		}
	}
	if err != nil && err != io.EOF {
		return nil, joinReadError{err}
	}
	if len(data) == 0 {
		return nil, nil
	}
	if data[len(data)-1] == eol {
		data = data[:len(data)-1]
	}
	line := &joinLine{data: bytes.Clone(data)}
	line.fields = line.fbuf[:0]
	j.split(line)
	in.lineNo++
	if in.prev != nil {
		if err := j.checkOrder(i, in.prev, line); err != nil {
			return nil, err
		}
	}
	in.prev = line
	return line, nil
}

func (j *joiner) split(l *joinLine) {
	d := l.data
	if len(d) == 0 {
		return
	}
	tab := j.o.tab
	switch {
	case tab >= 0 && tab != '\n':
		beg := 0
		for {
			k := bytes.IndexByte(d[beg:], byte(tab))
			if k < 0 {
				break
			}
			l.fields = append(l.fields, joinField{beg, beg + k})
			beg += k + 1
		}
		l.fields = append(l.fields, joinField{beg, len(d)})
	case tab < 0:
		blank := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }
		p := 0
		for p < len(d) && blank(d[p]) {
			p++
		}
		if p == len(d) {
			return
		}
		for {
			s := p + 1
			for s < len(d) && !blank(d[s]) {
				s++
			}
			l.fields = append(l.fields, joinField{p, s})
			if s == len(d) {
				return
			}
			p = s + 1
			for p < len(d) && blank(d[p]) {
				p++
			}
			if p == len(d) {
				l.fields = append(l.fields, joinField{p, p})
				return
			}
		}
	default:
		l.fields = append(l.fields, joinField{0, len(d)})
	}
}

func (j *joiner) checkOrder(i int, prev, cur *joinLine) error {
	o := j.o
	if o.check < 0 || (o.check == 0 && !j.unpairable) || j.in[i].warned {
		return nil
	}
	fld := o.field1
	if i == 1 {
		fld = o.field2
	}
	if j.keycmp(prev, cur, fld, fld) <= 0 {
		return nil
	}
	data := cur.data
	if k := bytes.IndexByte(data, 0); k >= 0 {
		data = data[:k] // printed with %s
	}
	j.w.Flush() // GNU's error() flushes stdout first
	fmt.Fprintf(j.env.Stderr, "%s: %s:%d: is not sorted: %s\n", j.env.Name(), j.in[i].name, j.in[i].lineNo, data)
	j.in[i].warned = true
	if o.check > 0 {
		return errJoinDisorder
	}
	return nil
}

func (j *joiner) keycmp(l1, l2 *joinLine, f1, f2 int) int {
	var k1, k2 []byte
	if f1 < l1.nfields() {
		k1 = l1.field(f1)
	}
	if f2 < l2.nfields() {
		k2 = l2.field(f2)
	}
	if len(k1) == 0 {
		if len(k2) == 0 {
			return 0
		}
		return -1
	}
	if len(k2) == 0 {
		return 1
	}
	if j.o.ignoreCase {
		n := min(len(k1), len(k2))
		for i := 0; i < n; i++ {
			a, b := joinUpper(k1[i]), joinUpper(k2[i])
			if a != b {
				return int(a) - int(b)
			}
		}
		return cmpInt(len(k1), len(k2))
	}
	return bytes.Compare(k1, k2)
}

func joinUpper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (j *joiner) prfield(n int, l *joinLine) {
	if n < l.nfields() {
		if f := l.field(n); len(f) > 0 {
			j.w.Write(f)
			return
		}
	}
	if j.o.filler != nil {
		j.w.WriteString(*j.o.filler)
	}
}

func (j *joiner) prfields(l *joinLine, jf, auto int) {
	n := l.nfields()
	if j.o.autoformat {
		n = auto
	}
	sep := j.sep()
	for i := 0; i < jf && i < n; i++ {
		j.w.WriteByte(sep)
		j.prfield(i, l)
	}
	for i := jf + 1; i < n; i++ {
		j.w.WriteByte(sep)
		j.prfield(i, l)
	}
}

func (j *joiner) sep() byte {
	if j.o.tab < 0 {
		return ' '
	}
	return byte(j.o.tab)
}

// prjoin prints the join of l1 and l2; nil stands for a missing line.
func (j *joiner) prjoin(l1, l2 *joinLine) error {
	o := j.o
	if len(o.outlist) > 0 {
		for k, s := range o.outlist {
			if k > 0 {
				j.w.WriteByte(j.sep())
			}
			var line *joinLine
			var fld int
			switch {
			case s.file == 0 && l1 == nil:
				line, fld = l2, o.field2
			case s.file == 0:
				line, fld = l1, o.field1
			case s.file == 1:
				line, fld = l1, s.field
			default:
				line, fld = l2, s.field
			}
			j.prfield(fld, line)
		}
	} else {
		if l1 == nil {
			j.prfield(o.field2, l2)
		} else {
			j.prfield(o.field1, l1)
		}
		j.prfields(l1, o.field1, j.auto[0])
		j.prfields(l2, o.field2, j.auto[1])
	}
	if err := j.w.WriteByte(o.eol); err != nil {
		return gnu.WriteError{Err: err}
	}
	return nil
}

func (j *joiner) run() error {
	o := j.o
	for i := range 2 {
		if _, err := j.advance(i, true); err != nil {
			return err
		}
	}
	if o.autoformat {
		for i := range 2 {
			if len(j.seq[i]) > 0 {
				j.auto[i] = j.seq[i][0].nfields()
			}
		}
	}
	if o.header && (len(j.seq[0]) > 0 || len(j.seq[1]) > 0) {
		if err := j.headers(); err != nil {
			return err
		}
	}
	for len(j.seq[0]) > 0 && len(j.seq[1]) > 0 {
		if err := j.step(); err != nil {
			return err
		}
	}
	return j.tails()
}

// advance replaces (first) or extends the group of input i; it reports
// false at the end of the input.
func (j *joiner) advance(i int, first bool) (bool, error) {
	if first {
		j.seq[i] = j.seq[i][:0]
	}
	l, err := j.getLine(i)
	if err != nil || l == nil {
		return false, err
	}
	j.seq[i] = append(j.seq[i], l)
	return true, nil
}

// headers prints the first lines as headers (--header).
func (j *joiner) headers() error {
	var h [2]*joinLine
	for i := range 2 {
		if len(j.seq[i]) > 0 {
			h[i] = j.seq[i][0]
		}
	}
	if err := j.prjoin(h[0], h[1]); err != nil {
		return err
	}
	j.in[0].prev, j.in[1].prev = nil, nil
	for i := range 2 {
		if len(j.seq[i]) > 0 {
			if _, err := j.advance(i, true); err != nil {
				return err
			}
		}
	}
	return nil
}

// step takes the next group: an unpairable line, or the lines of both
// files with equal keys, joined pairwise.
func (j *joiner) step() error {
	o := j.o
	diff := j.keycmp(j.seq[0][0], j.seq[1][0], o.field1, o.field2)
	if diff != 0 {
		i := 0
		if diff > 0 {
			i = 1
		}
		if o.unpaired[i] {
			var err error
			if i == 0 {
				err = j.prjoin(j.seq[0][0], nil)
			} else {
				err = j.prjoin(nil, j.seq[1][0])
			}
			if err != nil {
				return err
			}
		}
		if _, err := j.advance(i, true); err != nil {
			return err
		}
		j.unpairable = true
		return nil
	}
	// Extend each group while its lines match the other's first.
	var eof [2]bool
	for i := range 2 {
		for {
			ok, err := j.advance(i, false)
			if err != nil {
				return err
			}
			if !ok {
				eof[i] = true
				break
			}
			last := j.seq[i][len(j.seq[i])-1]
			var c int
			if i == 0 {
				c = j.keycmp(last, j.seq[1][0], o.field1, o.field2)
			} else {
				c = j.keycmp(j.seq[0][0], last, o.field1, o.field2)
			}
			if c != 0 {
				break
			}
		}
	}
	n0, n1 := len(j.seq[0]), len(j.seq[1])
	if !eof[0] {
		n0--
	}
	if !eof[1] {
		n1--
	}
	if o.pairables {
		for _, a := range j.seq[0][:n0] {
			for _, b := range j.seq[1][:n1] {
				if err := j.prjoin(a, b); err != nil {
					return err
				}
			}
		}
	}
	for i := range 2 {
		if eof[i] {
			j.seq[i] = j.seq[i][:0]
		} else {
			j.seq[i][0] = j.seq[i][len(j.seq[i])-1]
			j.seq[i] = j.seq[i][:1]
		}
	}
	return nil
}

// tails reads what is left of the inputs, to print unpairable lines and
// check the order.
func (j *joiner) tails() error {
	o := j.o
	checkTail := o.check >= 0 && !(j.in[0].warned && j.in[1].warned)
	for i := range 2 {
		if !(o.unpaired[i] || checkTail) || len(j.seq[i]) == 0 {
			continue
		}
		pr := func(l *joinLine) error {
			if !o.unpaired[i] {
				return nil
			}
			if i == 0 {
				return j.prjoin(l, nil)
			}
			return j.prjoin(nil, l)
		}
		if err := pr(j.seq[i][0]); err != nil {
			return err
		}
		if len(j.seq[1-i]) > 0 {
			j.unpairable = true
		}
		for {
			l, err := j.getLine(i)
			if err != nil {
				return err
			}
			if l == nil {
				break
			}
			if err := pr(l); err != nil {
				return err
			}
			if j.in[i].warned && !o.unpaired[i] {
				break
			}
		}
	}
	return nil
}
