package builtins

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "cut", Summary: "remove sections from each line of files", Run: cut})

type cutRange struct{ lo, hi int } // 1-based, inclusive; hi may be math.MaxInt

// cutParseList parses a LIST as GNU's set_fields does.
func cutParseList(env *Env, s string, pos bool) ([]cutRange, error) {
	msg := func(field, position string) error {
		if pos {
			return &UsageError{position}
		}
		return &UsageError{field}
	}
	var rs []cutRange
	lhs, rhs, dash, inDigits := false, false, false, false
	// GNU accumulates in uintmax_t: up to 2^64-2 is a number (positions
	// past math.MaxInt-1, which no line reaches, are kept as that).
	var initial, value uint64 = 1, 0
	clamp := func(v uint64) int { return int(min(v, math.MaxInt-1)) }
	numStart := 0
	for i := 0; ; {
		c := byte(0)
		if i < len(s) {
			c = s[i]
		}
		switch {
		case c == '-':
			inDigits = false
			if dash {
				return nil, msg("invalid field range", "invalid byte or character range")
			}
			dash = true
			i++
			if lhs && value == 0 {
				return nil, msg("fields are numbered from 1", "byte/character positions are numbered from 1")
			}
			initial = 1
			if lhs {
				initial = value
			}
			value = 0
		case c == ',' || c == ' ' || c == '\t' || i >= len(s):
			inDigits = false
			if dash {
				dash = false
				if !lhs && !rhs {
					return nil, &UsageError{"invalid range with no endpoint: -"}
				}
				if !rhs {
					rs = append(rs, cutRange{clamp(initial), math.MaxInt})
				} else {
					if value < initial {
						return nil, &UsageError{"invalid decreasing range"}
					}
					rs = append(rs, cutRange{clamp(initial), clamp(value)})
				}
			} else {
				if value == 0 {
					return nil, msg("fields are numbered from 1", "byte/character positions are numbered from 1")
				}
				rs = append(rs, cutRange{clamp(value), clamp(value)})
			}
			value = 0
			if i >= len(s) {
				return cutMerge(rs), nil
			}
			i++
			lhs, rhs = false, false
		case c >= '0' && c <= '9':
			if !inDigits {
				numStart = i
			}
			inDigits = true
			if dash {
				rhs = true
			} else {
				lhs = true
			}
			if value > (math.MaxUint64-uint64(c-'0'))/10 || value*10+uint64(c-'0') == math.MaxUint64 {
				j := numStart
				for j < len(s) && s[j] >= '0' && s[j] <= '9' {
					j++
				}
				bad := s[numStart:j]
				return nil, msg(fmt.Sprintf("field number %s is too large", env.Quote(bad)), fmt.Sprintf("byte/character offset %s is too large", env.Quote(bad)))
			}
			value = value*10 + uint64(c-'0')
			i++
		default:
			return nil, msg(fmt.Sprintf("invalid field value %s", env.Quote(s[i:])), fmt.Sprintf("invalid byte/character position %s", env.Quote(s[i:])))
		}
	}
}

// cutMerge sorts ranges and merges the overlapping ones.
func cutMerge(rs []cutRange) []cutRange {
	slices.SortFunc(rs, func(a, b cutRange) int {
		if a.lo != b.lo {
			return a.lo - b.lo
		}
		return a.hi - b.hi
	})
	out := rs[:0]
	for _, r := range rs {
		if n := len(out); n > 0 && r.lo <= out[n-1].hi {
			out[n-1].hi = max(out[n-1].hi, r.hi)
			continue
		}
		out = append(out, r)
	}
	return out
}

func cutComplement(rs []cutRange) []cutRange {
	var out []cutRange
	next := 1
	for _, r := range rs {
		if r.lo > next {
			out = append(out, cutRange{next, r.lo - 1})
		}
		if r.hi == math.MaxInt {
			return out
		}
		next = r.hi + 1
	}
	return append(out, cutRange{next, math.MaxInt})
}

// cutSel answers "is position i selected, and does a range start there"
// from tables up to the last finite bound, or cutTableMax, and from the
// ranges past them.
type cutSel struct {
	sel, start []bool // index 1..n
	rs         []cutRange
	open       bool // positions past the last finite bound are selected
	limit      int  // no selection past this position (when !open)
}

// cutTableMax bounds cutSel's tables: a bound of 2000000000 (cut -c
// 2000000000-) made two tables of 2 GB, and the process ran out of memory.
const cutTableMax = 1 << 16

func newCutSel(rs []cutRange) *cutSel {
	n := 0
	s := &cutSel{rs: rs}
	for _, r := range rs {
		n = max(n, r.lo)
		if r.hi != math.MaxInt {
			n = max(n, r.hi)
		} else {
			s.open = true
		}
	}
	t := min(n, cutTableMax)
	s.sel = make([]bool, t+2)
	s.start = make([]bool, t+2)
	for _, r := range rs {
		if r.lo < len(s.start) {
			s.start[r.lo] = true
		}
		for i := r.lo; i <= min(r.hi, t+1); i++ {
			s.sel[i] = true
		}
	}
	s.limit = n
	if s.open {
		s.limit = math.MaxInt
	}
	return s
}

func (s *cutSel) is(i int) bool {
	if i < len(s.sel) {
		return s.sel[i]
	}
	for _, r := range s.rs {
		if r.lo <= i && i <= r.hi {
			return true
		}
	}
	return false
}

func (s *cutSel) starts(i int) bool {
	if i < len(s.start) {
		return s.start[i]
	}
	for _, r := range s.rs {
		if r.lo == i {
			return true
		}
	}
	return false
}

func cut(env *Env) int {
	f := NewFlags(env, "Print selected parts of lines from each FILE to standard output.\n\nWith no FILE, or when FILE is -, read standard input.", "OPTION... [FILE]...")
	f.Epilog = "Use one, and only one of -b, -c or -f.  Each LIST is made up of one\n" +
		"range, or many ranges separated by commas.  Selected input is written\n" +
		"in the same order that it is read, and is written exactly once.\n" +
		"Each range is one of:\n\n" +
		"  N     N'th byte, character or field, counted from 1\n" +
		"  N-    from N'th byte, character or field, to end of line\n" +
		"  N-M   from N'th to M'th (included) byte, character or field\n" +
		"  -M    from first to M'th (included) byte, character or field"
	var list string
	kind := byte(0)
	setList := func(k byte) func(string, bool) error {
		return func(v string, _ bool) error {
			if kind != 0 {
				return &UsageError{"only one list may be specified"}
			}
			kind, list = k, v
			return nil
		}
	}
	f.Func('b', "bytes", RequiredArg, "LIST", "select only these bytes", setList('b'))
	f.Func('c', "characters", RequiredArg, "LIST", "select only these characters", setList('c'))
	delim, delimSet := byte('\t'), false
	f.Func('d', "delimiter", RequiredArg, "DELIM", "use DELIM instead of TAB for field delimiter", func(v string, _ bool) error {
		if len(v) > 1 {
			return &UsageError{"the delimiter must be a single character"}
		}
		delim, delimSet = 0, true
		if v != "" {
			delim = v[0]
		}
		return nil
	})
	f.Func('f', "fields", RequiredArg, "LIST", "select only these fields;  also print any line\nthat contains no delimiter character, unless\nthe -s option is specified", setList('f'))
	f.Bool('n', "", "(ignored)")
	complement := f.Bool(0, "complement", "complement the set of selected bytes, characters\nor fields")
	suppress := f.Bool('s', "only-delimited", "do not print lines not containing delimiters")
	outDelim, outSet := f.String(0, "output-delimiter", "STRING", "use STRING as the output delimiter\nthe default is to use the input delimiter")
	zero := f.Bool('z', "zero-terminated", "line delimiter is NUL, not newline")
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	fail := func(msg string) int { return f.Fail(&UsageError{msg}, 1) }
	if kind == 0 {
		return fail("you must specify a list of bytes, characters, or fields")
	}
	if kind != 'f' && delimSet {
		return fail("an input delimiter may be specified only when operating on fields")
	}
	if kind != 'f' && *suppress {
		return fail("suppressing non-delimited lines makes sense\n\tonly when operating on fields")
	}
	rs, err := cutParseList(env, list, kind != 'f')
	if err != nil {
		return f.Fail(err, 1)
	}
	if *complement {
		rs = cutComplement(rs)
	}
	sel := newCutSel(rs)
	eol := byte('\n')
	if *zero {
		eol = 0
	}
	od := []byte{delim}
	if *outSet {
		od = []byte(*outDelim)
		if len(od) == 0 {
			od = []byte{0} // GNU: an empty STRING is one NUL byte
		}
	}
	w := bufio.NewWriterSize(env.Stdout, 64<<10)
	lineOut := env.LineBuffered()
	done := env.EachFile(w, files, func(name string, r io.Reader) error {
		lr := newLineReader(env, r)
		for {
			line, _, err := lr.next(eol)
			if err != nil {
				if err == io.EOF {
					return nil
				}
				return err
			}
			if kind == 'f' {
				err = cutFields(w, line, delim, sel, od, *suppress, eol)
			} else {
				err = cutBytes(w, line, sel, od, *outSet, eol)
			}
			if err != nil {
				return gnu.WriteError{Err: err}
			}
			if lineOut {
				w.Flush() // stdbuf -oL
			}
		}
	})
	return done.finish(env, w)
}

func cutBytes(w *bufio.Writer, line []byte, sel *cutSel, od []byte, outSet bool, eol byte) error {
	printed := false
	end := min(len(line), sel.limit)
	for i := 0; i < end; {
		if !sel.is(i + 1) {
			i++
			continue
		}
		// A run of selected bytes.
		j := i + 1
		for j < end && sel.is(j+1) && !(outSet && sel.starts(j+1)) {
			j++
		}
		if outSet && printed && sel.starts(i+1) {
			w.Write(od)
		}
		w.Write(line[i:j])
		printed = true
		i = j
	}
	return w.WriteByte(eol)
}

func cutFields(w *bufio.Writer, line []byte, delim byte, sel *cutSel, od []byte, suppress bool, eol byte) error {
	i := bytes.IndexByte(line, delim)
	if i < 0 {
		if !suppress {
			w.Write(line)
			return w.WriteByte(eol)
		}
		return nil
	}
	printed := false
	for n := 1; n <= sel.limit; n++ {
		field := line
		if i >= 0 {
			field = line[:i]
		}
		if sel.is(n) {
			if printed {
				w.Write(od)
			}
			w.Write(field)
			printed = true
		}
		if i < 0 {
			break
		}
		line = line[i+1:]
		i = bytes.IndexByte(line, delim)
	}
	return w.WriteByte(eol)
}
