package builtins

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "expand", Summary: "convert tabs to spaces", Run: expand})
var _ = register(Builtin{Name: "unexpand", Summary: "convert spaces to tabs", Run: unexpand})

// tabStops is the tab stop list of expand and unexpand, parsed and
// interpreted as GNU's expand-common does: explicit stops, then either a
// repeat size after the last one ('/N'), an increment relative to it ('+N'),
// or nothing (past the last stop a blank is no longer converted).
type tabStops struct {
	list      []uint64
	size      uint64 // every size columns, when the list has a single entry
	extend    uint64 // '/N'
	increment uint64 // '+N'
}

const tabsEpilog = `LIST is a comma or blank separated list of tab positions. The last one
can be prefixed with '/' to give a tab size to use after the last explicit
tab stop, or with '+' to align the remaining tab stops relative to it.`

// add parses a -t LIST into ts; the error holds every complaint GNU prints.
func (ts *tabStops) add(name, stops string) error {
	var msgs []string
	have, extendVal, incrVal := false, false, false
	var val uint64
	numStart := 0
	setSpecial := func() bool {
		if extendVal {
			if ts.extend != 0 {
				msgs = append(msgs, "'/' specifier only allowed with the last value")
				ts.extend = val
				return false
			}
			ts.extend = val
		} else if incrVal {
			if ts.increment != 0 {
				msgs = append(msgs, "'+' specifier only allowed with the last value")
				ts.increment = val
				return false
			}
			ts.increment = val
		} else {
			ts.list = append(ts.list, val)
		}
		return true
	}
	ok := true
loop:
	for i := 0; i < len(stops); i++ {
		c := stops[i]
		switch {
		case c == ',' || c == ' ' || c == '\t':
			if have && !setSpecial() {
				ok = false
				break loop
			}
			have = false
		case c == '/' || c == '+':
			if have {
				msgs = append(msgs, fmt.Sprintf("'%c' specifier not at start of number: %s", c, gnu.Quote(stops[i:])))
				ok = false
			}
			extendVal, incrVal = c == '/', c == '+'
		case c >= '0' && c <= '9':
			if !have {
				val, have, numStart = 0, true, i
			}
			d := uint64(c - '0')
			if val > (math.MaxUint64-d)/10 {
				j := numStart
				for j < len(stops) && stops[j] >= '0' && stops[j] <= '9' {
					j++
				}
				msgs = append(msgs, fmt.Sprintf("tab stop is too large %s", gnu.Quote(stops[numStart:j])))
				ok = false
				i = j - 1
				continue
			}
			val = val*10 + d
		default:
			msgs = append(msgs, fmt.Sprintf("tab size contains invalid character(s): %s", gnu.Quote(stops[i:])))
			ok = false
			break loop
		}
	}
	if ok && have && !setSpecial() {
		ok = false
	}
	if !ok {
		return errors.New(strings.Join(msgs, "\n"+name+": "))
	}
	return nil
}

// finish validates the stops once every option is parsed.
func (ts *tabStops) finish() error {
	var prev uint64
	for _, t := range ts.list {
		if t == 0 {
			return errors.New("tab size cannot be 0")
		}
		if t <= prev {
			return errors.New("tab sizes must be ascending")
		}
		prev = t
	}
	if ts.increment != 0 && ts.extend != 0 {
		return errors.New("'/' specifier is mutually exclusive with '+'")
	}
	switch {
	case len(ts.list) == 0:
		ts.size = 8
		if ts.extend != 0 {
			ts.size = ts.extend
		} else if ts.increment != 0 {
			ts.size = ts.increment
		}
	case len(ts.list) == 1 && ts.extend == 0 && ts.increment == 0:
		ts.size = ts.list[0]
	}
	return nil
}

// next returns the tab stop after column, advancing *idx through the list;
// last reports that column is past the last stop.
func (ts *tabStops) next(column uint64, idx *int) (stop uint64, last bool) {
	if ts.size != 0 {
		return column + (ts.size - column%ts.size), false
	}
	for ; *idx < len(ts.list); *idx++ {
		if t := ts.list[*idx]; column < t {
			return t, false
		}
	}
	if ts.extend != 0 {
		return column + (ts.extend - column%ts.extend), false
	}
	if ts.increment != 0 {
		end := ts.list[len(ts.list)-1]
		return column + (ts.increment - (column-end)%ts.increment), false
	}
	return 0, true
}

// errTabFatal carries a message that ends expand or unexpand at once
// (GNU's die), printed as "NAME: message".
type errTabFatal struct{ msg string }

func (e errTabFatal) Error() string { return e.msg }

// tabRun reads every operand as one stream through step, which consumes a
// chunk of input and writes to w; end runs after the last operand. Open
// and read errors are reported as GNU's next_file does and the next
// operand follows; cancellation, broken pipes, write and fatal errors stop.
func tabRun(env *Env, files []string, w *bufio.Writer, step func(chunk []byte) error, end func()) int {
	buf := make([]byte, 64<<10)
	done := env.EachFile(w, files, func(_ string, r io.Reader) error {
		return tabCopy(env, r, w, buf, step)
	})
	if !done.Stopped {
		end()
	}
	return done.finish(env, w)
}

func tabCopy(env *Env, r io.Reader, w *bufio.Writer, buf []byte, step func(chunk []byte) error) error {
	for {
		if env.Ctx.Err() != nil {
			return gnu.ErrCancelled
		}
		n, err := r.Read(buf)
		if n > 0 {
			if serr := step(buf[:n]); serr != nil {
				return serr
			}
			if _, werr := w.Write(nil); werr != nil {
				return gnu.WriteError{Err: werr}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// tabFatal reports err from a step: a fatal message is printed and turned
// into a quiet stop for the loop over the operands.
func tabFatal(env *Env, w *bufio.Writer, err error) error {
	var fe errTabFatal
	if errors.As(err, &fe) {
		w.Flush()
		env.Errorf("%s", fe.msg)
		return gnu.ErrCancelled
	}
	return err
}

// writeSpaces writes n spaces, checking for cancellation on long runs.
func writeSpaces(env *Env, w *bufio.Writer, n uint64) error {
	err := writeRepeat(env, w, ' ', n)
	if err != nil && err != gnu.ErrCancelled {
		return gnu.WriteError{Err: err}
	}
	return err
}

// writeRepeat writes n bytes c into the writer's own buffer, a buffer's
// worth at a time (a width of gigabytes is never one allocation),
// checking for cancellation on long runs: it returns the writer's error
// as it is, or gnu.ErrCancelled. (It filled a 4 KiB piece of c for each
// call: 4 us a tab, expand of 160000 tabs 0.7 s of CPU, GNU's 5 ms.)
func writeRepeat(env *Env, w *bufio.Writer, c byte, n uint64) error {
	for n > 0 {
		if w.Available() == 0 {
			if err := w.Flush(); err != nil {
				return err
			}
		}
		b := w.AvailableBuffer()[:min(n, uint64(w.Available()))]
		b[0] = c
		for i := 1; i < len(b); i *= 2 {
			copy(b[i:], b[:i])
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
		n -= uint64(len(b))
		if n > 0 && env.Ctx.Err() != nil {
			return gnu.ErrCancelled
		}
	}
	return nil
}

func expand(env *Env) int {
	f := NewFlags(env, "Convert tabs in each FILE to spaces, writing to standard output.\n\nWith no FILE, or when FILE is -, read standard input.", "[OPTION]... [FILE]...")
	f.Epilog = tabsEpilog
	initial := f.Bool('i', "initial", "do not convert tabs after non blanks")
	var ts tabStops
	f.Func('t', "tabs", RequiredArg, "LIST", "have tabs N characters apart, not 8, or use a LIST of tab positions", func(v string, _ bool) error {
		return ts.add(env.Name(), v)
	})
	// The obsolete -N and -N,M... forms: a digit option whose attached
	// argument continues the list.
	for d := '0'; d <= '9'; d++ {
		f.Func(d, "", OptionalArg, "", "", func(v string, _ bool) error {
			return ts.add(env.Name(), string(d)+v)
		})
	}
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if err := ts.finish(); err != nil {
		env.Errorf("%s", err)
		return 1
	}
	w := bufio.NewWriterSize(env.Stdout, 64<<10)
	var column uint64
	tabIndex := 0
	convert := true
	step := func(chunk []byte) error {
		start := 0 // chunk[start:i] is pending verbatim output
		for i := 0; i < len(chunk); i++ {
			c := chunk[i]
			if convert {
				switch c {
				case '\t':
					next, last := ts.next(column, &tabIndex)
					if last {
						next = column + 1
					}
					if next < column {
						return tabFatal(env, w, errTabFatal{"input line is too long"})
					}
					w.Write(chunk[start:i])
					start = i + 1
					if err := writeSpaces(env, w, next-column); err != nil {
						return err
					}
					column = next
					c = ' '
				case '\b':
					if column > 0 {
						column--
					}
					if tabIndex > 0 {
						tabIndex--
					}
				default:
					column++
					if column == 0 {
						return tabFatal(env, w, errTabFatal{"input line is too long"})
					}
				}
				convert = !*initial || c == ' ' || c == '\t'
			}
			if c == '\n' {
				column, tabIndex, convert = 0, 0, true
			}
		}
		w.Write(chunk[start:])
		return nil
	}
	return tabRun(env, files, w, step, func() {})
}

func unexpand(env *Env) int {
	f := NewFlags(env, "Convert blanks in each FILE to tabs, writing to standard output.\n\nWith no FILE, or when FILE is -, read standard input.", "[OPTION]... [FILE]...")
	f.Epilog = tabsEpilog
	all := false
	f.BoolVar(&all, 'a', "all", "convert all blanks, instead of just initial blanks")
	firstOnly := f.Bool(0, "first-only", "convert only leading sequences of blanks (overrides -a)")
	var ts tabStops
	f.Func('t', "tabs", RequiredArg, "LIST", "have tabs N characters apart instead of 8, or use a LIST of tab positions (enables -a)", func(v string, _ bool) error {
		all = true
		return ts.add(env.Name(), v)
	})
	// The obsolete -N form: each digit is an option of its own that
	// accumulates into a tab stop; ',' ends one.
	var tabval uint64
	haveTabval := false
	for d := '0'; d <= '9'; d++ {
		f.Func(d, "", NoArg, "", "", func(string, bool) error {
			if !haveTabval {
				tabval, haveTabval = 0, true
			}
			dv := uint64(d - '0')
			if tabval > (math.MaxUint64-dv)/10 {
				return errors.New("tab stop value is too large")
			}
			tabval = tabval*10 + dv
			return nil
		})
	}
	f.Func(',', "", NoArg, "", "", func(string, bool) error {
		if haveTabval {
			ts.list = append(ts.list, tabval)
		}
		haveTabval = false
		return nil
	})
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if *firstOnly {
		all = false
	}
	if haveTabval {
		ts.list = append(ts.list, tabval)
	}
	if err := ts.finish(); err != nil {
		env.Errorf("%s", err)
		return 1
	}
	w := bufio.NewWriterSize(env.Stdout, 64<<10)
	u := &unexpander{env: env, w: w, ts: &ts, all: all}
	u.reset()
	return tabRun(env, files, w, u.step, u.flushPending)
}

// unexpander is unexpand's line state, as in GNU's unexpand.
type unexpander struct {
	env *Env
	w   *bufio.Writer
	ts  *tabStops
	all bool // convert all blanks, not just initial ones

	column, nextTab                        uint64
	tabIndex                               int
	convert, oneBlankBeforeStop, prevBlank bool
	pending                                []byte
	n                                      int // bytes seen, to poll for cancellation
}

func (u *unexpander) reset() {
	u.column, u.nextTab, u.tabIndex = 0, 0, 0
	u.convert, u.oneBlankBeforeStop, u.prevBlank = true, false, true
	u.pending = u.pending[:0]
}

func (u *unexpander) flushPending() {
	if len(u.pending) > 0 {
		if len(u.pending) > 1 && u.oneBlankBeforeStop {
			u.pending[0] = '\t'
		}
		u.w.Write(u.pending)
		u.pending = u.pending[:0]
		u.oneBlankBeforeStop = false
	}
}

// step converts one chunk of input.
func (u *unexpander) step(chunk []byte) error {
	for _, c := range chunk {
		if u.convert {
			blank := c == ' ' || c == '\t'
			switch {
			case blank:
				var last bool
				u.nextTab, last = u.ts.next(u.column, &u.tabIndex)
				if last {
					u.convert = false
					break
				}
				if u.nextTab < u.column {
					return tabFatal(u.env, u.w, errTabFatal{"input line is too long"})
				}
				if c == '\t' {
					u.column = u.nextTab
					if len(u.pending) > 0 {
						u.pending[0] = '\t'
					}
				} else {
					u.column++
					if !(u.prevBlank && u.column == u.nextTab) {
						if u.column == u.nextTab {
							u.oneBlankBeforeStop = true
						}
						u.pending = append(u.pending, c)
						u.prevBlank = true
						if u.n++; u.n&0xffff == 0 && u.env.Ctx.Err() != nil {
							return gnu.ErrCancelled
						}
						continue
					}
					c = '\t'
					if len(u.pending) > 0 {
						u.pending[0] = '\t'
					}
				}
				// Drop the u.pending blanks, except a single one just
				// before the previous tab stop.
				if u.oneBlankBeforeStop {
					u.pending = u.pending[:1]
				} else {
					u.pending = u.pending[:0]
				}
			case c == '\b':
				if u.column > 0 {
					u.column--
				}
				u.nextTab = u.column
				if u.tabIndex > 0 {
					u.tabIndex--
				}
			default:
				u.column++
				if u.column == 0 {
					return tabFatal(u.env, u.w, errTabFatal{"input line is too long"})
				}
			}
			u.flushPending()
			u.prevBlank = blank
			u.convert = u.convert && (u.all || blank)
		}
		u.w.WriteByte(c)
		if c == '\n' {
			u.reset()
		}
	}
	return nil
}
