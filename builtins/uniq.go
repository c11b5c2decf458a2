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

func init() {
	Register(Builtin{Name: "uniq", Summary: "report or omit repeated lines", Run: uniq})
}

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

func uniq(env *Env) int {
	f := NewFlags(env, "Filter adjacent matching lines from INPUT (or standard input),\nwriting to OUTPUT (or standard output).\n\nWith no options, matching lines are merged to the first occurrence.", "[OPTION]... [INPUT [OUTPUT]]")
	count := f.Bool('c', "count", "prefix lines by the number of occurrences")
	outUnique, outFirst, outLater := true, true, false
	delimit := "none"
	f.Func('d', "repeated", NoArg, "", "only print duplicate lines, one for each group", func(string, bool) error {
		outUnique = false
		return nil
	})
	f.Func('D', "", NoArg, "", "print all duplicate lines", func(string, bool) error {
		outUnique, outLater, delimit = false, true, "none"
		return nil
	})
	f.Func(0, "all-repeated", OptionalArg, "METHOD", "like -D, but allow separating groups with an empty line; METHOD={none(default),prepend,separate}", func(v string, present bool) error {
		outUnique, outLater = false, true
		if !present {
			v = "none"
		}
		switch v {
		case "none", "prepend", "separate":
			delimit = v
			return nil
		}
		return &UsageError{fmt.Sprintf("invalid argument %s for '--all-repeated'\nValid arguments are:\n  - 'none'\n  - 'prepend'\n  - 'separate'", gnu.Quote(v))}
	})
	group := ""
	f.Func(0, "group", OptionalArg, "METHOD", "show all items, separating groups with an empty line;\n                          METHOD={separate(default),prepend,append,both}", func(v string, present bool) error {
		if !present {
			v = "separate"
		}
		switch v {
		case "separate", "prepend", "append", "both":
			group = v
			return nil
		}
		return &UsageError{fmt.Sprintf("invalid argument %s for '--group'\nValid arguments are:\n  - 'prepend'\n  - 'append'\n  - 'separate'\n  - 'both'", gnu.Quote(v))}
	})
	var skipFields, skipChars int
	checkChars := math.MaxInt
	f.Func('f', "skip-fields", RequiredArg, "N", "avoid comparing the first N fields", func(v string, _ bool) (err error) {
		skipFields, err = uniqCount(v, "invalid number of fields to skip")
		return err
	})
	ignoreCase := f.Bool('i', "ignore-case", "ignore differences in case when comparing")
	f.Func('s', "skip-chars", RequiredArg, "N", "avoid comparing the first N characters", func(v string, _ bool) (err error) {
		skipChars, err = uniqCount(v, "invalid number of bytes to skip")
		return err
	})
	f.Func('u', "unique", NoArg, "", "only print unique lines", func(string, bool) error {
		outFirst = false
		return nil
	})
	zero := f.Bool('z', "zero-terminated", "line delimiter is NUL, not newline")
	f.Func('w', "check-chars", RequiredArg, "N", "compare no more than N characters in lines", func(v string, _ bool) (err error) {
		checkChars, err = uniqCount(v, "invalid number of bytes to compare")
		return err
	})
	f.Epilog = "A field is a run of blanks (usually spaces and/or TABs), then non-blank\ncharacters.  Fields are skipped before chars."
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if len(files) > 2 {
		return f.Fail(&UsageError{fmt.Sprintf("extra operand %s", gnu.Quote(files[2]))}, 1)
	}
	if group != "" {
		if *count || !outUnique || !outFirst || outLater {
			return f.Fail(&UsageError{"--group is mutually exclusive with -c/-d/-D/-u"}, 1)
		}
		outLater = true
	}
	if *count && outLater {
		return f.Fail(&UsageError{"printing all duplicated lines and repeat counts is meaningless"}, 1)
	}
	in := "-"
	if len(files) > 0 {
		in = files[0]
	}
	r, err := env.Open(in)
	if err != nil && errors.Is(err, syscall.EISDIR) {
		env.Errorf("error reading %s", gnu.QuoteAF(in)) // GNU reads it and fails
		return 1
	}
	if err != nil {
		env.PathError(in, err)
		return 1
	}
	defer r.Close()
	out := env.Stdout
	var of File
	if len(files) == 2 && files[1] != "-" {
		if of, err = env.Create(files[1]); err != nil {
			env.PathError(files[1], err)
			return 1
		}
		out = of
	}
	delim := byte('\n')
	if *zero {
		delim = 0
	}
	field := func(l []byte) []byte {
		i := 0
		for n := 0; n < skipFields && i < len(l); n++ {
			for i < len(l) && sortBlank[l[i]] {
				i++
			}
			for i < len(l) && !sortBlank[l[i]] {
				i++
			}
		}
		i += min(skipChars, len(l)-i)
		l = l[i:]
		if len(l) > checkChars {
			l = l[:checkChars]
		}
		return l
	}
	equal := func(a, b []byte) bool {
		if len(a) != len(b) {
			return false
		}
		if *ignoreCase {
			for i := range a {
				if sortFold[a[i]] != sortFold[b[i]] {
					return false
				}
			}
			return true
		}
		return string(a) == string(b)
	}
	w := bufio.NewWriterSize(out, 64<<10)
	var cnt [24]byte
	writeline := func(line []byte, match bool, n int) {
		var ok bool
		switch {
		case n == 0:
			ok = outUnique
		case !match:
			ok = outFirst
		default:
			ok = outLater
		}
		if !ok {
			return
		}
		if *count {
			b := strconv.AppendInt(cnt[:0], int64(n)+1, 10)
			for i := len(b); i < 7; i++ {
				w.WriteByte(' ')
			}
			w.Write(b)
			w.WriteByte(' ')
		}
		w.Write(line)
	}
	br := bufio.NewReaderSize(r, 64<<10)
	var prev, cur []byte
	// readLine reads the next line into buf (with its delimiter, one
	// supplied if the input lacked it).
	readLine := func(buf []byte) ([]byte, error) {
		buf = buf[:0]
		for {
			chunk, err := br.ReadSlice(delim)
			buf = append(buf, chunk...)
			if err == bufio.ErrBufferFull {
				continue
			}
			if err == io.EOF && len(buf) > 0 {
				if buf[len(buf)-1] != delim {
					buf = append(buf, delim)
				}
				return buf, nil
			}
			return buf, err
		}
	}
	status := 0
	prev, err = readLine(prev)
	if err == nil {
		prevField := field(prev[:len(prev)-1])
		matches := 0
		first := true
		if group == "prepend" || group == "both" {
			w.WriteByte(delim)
		}
		for n := 0; ; n++ {
			if n&1023 == 0 {
				if env.Ctx.Err() != nil {
					return 1
				}
				if _, werr := w.Write(nil); werr != nil {
					break // the output failed (its reader gone): stop reading
				}
			}
			cur, err = readLine(cur)
			if err != nil {
				break
			}
			curField := field(cur[:len(cur)-1])
			match := equal(curField, prevField)
			if match {
				matches++
			}
			if delimit != "none" {
				if !match {
					if matches > 0 {
						first = false
					}
				} else if matches == 1 && (delimit == "prepend" || !first) {
					w.WriteByte(delim)
				}
			}
			if !match || outLater {
				writeline(prev, match, matches)
				if group != "" && !match {
					w.WriteByte(delim)
				}
				prev, cur = cur, prev
				prevField = curField
				if !match {
					matches = 0
				}
			}
		}
		writeline(prev, false, matches)
		if group == "append" || group == "both" {
			w.WriteByte(delim)
		}
	}
	if err != nil && err != io.EOF {
		env.Errorf("error reading %s", gnu.QuoteAF(in)) // GNU gives no reason
		status = 1
	}
	werr := w.Flush()
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
