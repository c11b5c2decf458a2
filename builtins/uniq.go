package builtins

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "uniq", Summary: "report or omit repeated lines", Run: uniq})

// uniqCount parses a count of -f, -s or -w as GNU uniq: gnu.ParseSize without
// suffixes, saturating on overflow.
func uniqCount(v, what string) (int, error) {
	n, e := gnu.ParseSize(v, 10, "")
	if e&^gnu.SizeOverflow != 0 {
		return 0, fmt.Errorf("%s: %s", v, what)
	}
	if n > math.MaxInt {
		return math.MaxInt, nil
	}
	return int(n), nil
}

// uniqConfig is what uniq's options select.
type uniqConfig struct {
	count, ignoreCase, zero       bool
	outUnique, outFirst, outLater bool   // print unique lines, a group's first, its later ones
	delimit                       string // --all-repeated METHOD
	group                         string // --group METHOD, "" without it
	skipFields, skipChars         int
	checkChars                    int
}

func uniq(env *Env) int {
	c := &uniqConfig{outUnique: true, outFirst: true, delimit: "none", checkChars: math.MaxInt}
	f := c.flags(env)
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if len(files) > 2 {
		return f.Fail(&UsageError{fmt.Sprintf("extra operand %s", env.Quote(files[2]))}, 1)
	}
	if c.group != "" {
		if c.count || !c.outUnique || !c.outFirst || c.outLater {
			return f.Fail(&UsageError{"--group is mutually exclusive with -c/-d/-D/-u"}, 1)
		}
		c.outLater = true
	}
	if c.count && c.outLater {
		return f.Fail(&UsageError{"printing all duplicated lines and repeat counts is meaningless"}, 1)
	}
	return c.run(env, files)
}

// flags is uniq's option table.
func (c *uniqConfig) flags(env *Env) *Flags {
	f := NewFlags(env, "Filter adjacent matching lines from INPUT (or standard input),\nwriting to OUTPUT (or standard output).\n\nWith no options, matching lines are merged to the first occurrence.", "[OPTION]... [INPUT [OUTPUT]]")
	f.BoolVar(&c.count, 'c', "count", "prefix lines by the number of occurrences")
	f.Func('d', "repeated", NoArg, "", "only print duplicate lines, one for each group", func(string, bool) error {
		c.outUnique = false
		return nil
	})
	f.Func('D', "", NoArg, "", "print all duplicate lines", func(string, bool) error {
		c.outUnique, c.outLater, c.delimit = false, true, "none"
		return nil
	})
	f.Func(0, "all-repeated", OptionalArg, "METHOD", "like -D, but allow separating groups with an empty line; METHOD={none(default),prepend,separate}", func(v string, present bool) error {
		c.outUnique, c.outLater = false, true
		if !present {
			v = "none"
		}
		words := []string{"none", "prepend", "separate"}
		i, err := lsArgMatch(env, "--all-repeated", v, words, lsSeq(len(words)))
		if err != nil {
			return err
		}
		c.delimit = words[i]
		return nil
	})
	f.Func(0, "group", OptionalArg, "METHOD", "show all items, separating groups with an empty line;\n                          METHOD={separate(default),prepend,append,both}", func(v string, present bool) error {
		if !present {
			v = "separate"
		}
		words := []string{"prepend", "append", "separate", "both"}
		i, err := lsArgMatch(env, "--group", v, words, lsSeq(len(words)))
		if err != nil {
			return err
		}
		c.group = words[i]
		return nil
	})
	f.Func('f', "skip-fields", RequiredArg, "N", "avoid comparing the first N fields", func(v string, _ bool) (err error) {
		c.skipFields, err = uniqCount(v, "invalid number of fields to skip")
		return err
	})
	f.BoolVar(&c.ignoreCase, 'i', "ignore-case", "ignore differences in case when comparing")
	f.Func('s', "skip-chars", RequiredArg, "N", "avoid comparing the first N characters", func(v string, _ bool) (err error) {
		c.skipChars, err = uniqCount(v, "invalid number of bytes to skip")
		return err
	})
	f.Func('u', "unique", NoArg, "", "only print unique lines", func(string, bool) error {
		c.outFirst = false
		return nil
	})
	f.BoolVar(&c.zero, 'z', "zero-terminated", "line delimiter is NUL, not newline")
	f.Func('w', "check-chars", RequiredArg, "N", "compare no more than N characters in lines", func(v string, _ bool) (err error) {
		c.checkChars, err = uniqCount(v, "invalid number of bytes to compare")
		return err
	})
	f.Epilog = "A field is a run of blanks (usually spaces and/or TABs), then non-blank\ncharacters.  Fields are skipped before chars."
	return f
}

// run filters INPUT (files[0], default stdin) to OUTPUT (files[1], default
// stdout).
func (c *uniqConfig) run(env *Env, files []string) int {
	if c.ignoreCase {
		sortTables() // sortFold
	}
	in := "-"
	if len(files) > 0 {
		in = files[0]
	}
	r, err := env.Open(in)
	if err != nil && errors.Is(err, syscall.EISDIR) {
		env.Errorf("error reading %s", env.QuoteAF(in)) // GNU reads it and fails
		return 1
	}
	if err != nil {
		env.PathError(in, err)
		return 1
	}
	defer r.Close()
	out := env.Stdout
	var of File
	var input io.Reader = r
	if len(files) == 2 && files[1] != "-" {
		same := in != "-" && sameFileNames(env, in, files[1])
		if of, err = env.Create(files[1]); err != nil {
			env.PathError(files[1], err)
			return 1
		}
		out = of
		if same {
			// GNU opens OUTPUT with truncation before it reads INPUT:
			// `uniq f f` reads the file emptied (and leaves it so).
			input = eofReader{}
		}
	}
	u := &uniqRun{uniqConfig: c, w: bufio.NewWriterSize(out, 64<<10), br: bufio.NewReaderSize(input, 64<<10), delim: '\n'}
	if c.zero {
		u.delim = 0
	}
	status := 0
	if err := u.filter(env); err == gnu.ErrCancelled {
		return 1
	} else if err != nil && err != io.EOF {
		env.Errorf("error reading %s", env.QuoteAF(in)) // GNU gives no reason
		status = 1
	}
	werr := u.w.Flush()
	if of != nil {
		if cerr := of.Close(); werr == nil {
			werr = cerr
		}
	}
	if werr != nil {
		return writeFailed(env, werr)
	}
	return status
}

// uniqRun is one run of uniq: its config, input and output.
type uniqRun struct {
	*uniqConfig
	w     *bufio.Writer
	br    *bufio.Reader
	delim byte
	cnt   [24]byte
}

// field is the part of line l that is compared.
func (u *uniqRun) field(l []byte) []byte {
	i := 0
	for n := 0; n < u.skipFields && i < len(l); n++ {
		for i < len(l) && sortBlank[l[i]] {
			i++
		}
		for i < len(l) && !sortBlank[l[i]] {
			i++
		}
	}
	i += min(u.skipChars, len(l)-i)
	l = l[i:]
	if len(l) > u.checkChars {
		l = l[:u.checkChars]
	}
	return l
}

func (u *uniqRun) equal(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	if u.ignoreCase {
		for i := range a {
			if sortFold[a[i]] != sortFold[b[i]] {
				return false
			}
		}
		return true
	}
	return string(a) == string(b)
}

// writeline prints line if the options select it: n is the number of
// lines before it in its group, match whether the next line is in it too.
func (u *uniqRun) writeline(line []byte, match bool, n int) {
	var ok bool
	switch {
	case n == 0:
		ok = u.outUnique
	case !match:
		ok = u.outFirst
	default:
		ok = u.outLater
	}
	if !ok {
		return
	}
	if u.count {
		b := strconv.AppendInt(u.cnt[:0], int64(n)+1, 10)
		for i := len(b); i < 7; i++ {
			u.w.WriteByte(' ')
		}
		u.w.Write(b)
		u.w.WriteByte(' ')
	}
	u.w.Write(line)
}

// readLine reads the next line into buf (with its delimiter, one
// supplied if the input lacked it).
func (u *uniqRun) readLine(env *Env, buf []byte) ([]byte, error) {
	buf, err := env.gatherLine(buf[:0], u.br, u.delim)
	if err == io.EOF && len(buf) > 0 {
		if buf[len(buf)-1] != u.delim {
			buf = append(buf, u.delim)
		}
		return buf, nil
	}
	return buf, err
}

// filter copies the input's lines to the output as the options select,
// until the input ends (io.EOF), fails, or env is cancelled (gnu.ErrCancelled).
func (u *uniqRun) filter(env *Env) error {
	prev, err := u.readLine(env, nil)
	if err != nil {
		return err
	}
	var cur []byte
	prevField := u.field(prev[:len(prev)-1])
	matches := 0
	first := true
	if u.group == "prepend" || u.group == "both" {
		u.w.WriteByte(u.delim)
	}
	for n := 0; ; n++ {
		if n&1023 == 0 {
			if env.Ctx.Err() != nil {
				return gnu.ErrCancelled
			}
			if _, werr := u.w.Write(nil); werr != nil {
				break // the output failed (its reader gone): stop reading
			}
		}
		cur, err = u.readLine(env, cur)
		if err != nil {
			break
		}
		curField := u.field(cur[:len(cur)-1])
		match := u.equal(curField, prevField)
		if match {
			matches++
		}
		if u.delimit != "none" {
			if !match {
				if matches > 0 {
					first = false
				}
			} else if matches == 1 && (u.delimit == "prepend" || !first) {
				u.w.WriteByte(u.delim)
			}
		}
		if !match || u.outLater {
			u.writeline(prev, match, matches)
			if u.group != "" && !match {
				u.w.WriteByte(u.delim)
			}
			prev, cur = cur, prev
			prevField = curField
			if !match {
				matches = 0
			}
		}
	}
	u.writeline(prev, false, matches)
	if u.group == "append" || u.group == "both" {
		u.w.WriteByte(u.delim)
	}
	return err
}

// sameFileNames reports whether the names a and b are one existing file
// (the same identity in vfsd, or the same absolute name).
func sameFileNames(env *Env, a, b string) bool {
	if env.Abs(a) == env.Abs(b) {
		return true
	}
	fa, err := env.FS.Stat(env.Abs(a))
	if err != nil {
		return false
	}
	fb, err := env.FS.Stat(env.Abs(b))
	return err == nil && SameFile(fa, fb)
}
