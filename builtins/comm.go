package builtins

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

func init() {
	Register(Builtin{Name: "comm", Summary: "compare two sorted files line by line", Run: comm})
}

func comm(env *Env) int {
	f := NewFlags(env, "Compare sorted files FILE1 and FILE2 line by line.\n\nWhen FILE1 or FILE2 (not both) is -, read standard input.\n\nWith no options, produce three-column output.  Column one contains\nlines unique to FILE1, column two contains lines unique to FILE2,\nand column three contains lines common to both files.", "[OPTION]... FILE1 FILE2")
	no1 := f.Bool('1', "", "suppress column 1 (lines unique to FILE1)")
	no2 := f.Bool('2', "", "suppress column 2 (lines unique to FILE2)")
	no3 := f.Bool('3', "", "suppress column 3 (lines that appear in both files)")
	check := 0 // 0 default, 1 enabled, -1 disabled
	f.Func(0, "check-order", NoArg, "", "check that the input is correctly sorted, even\nif all input lines are pairable", func(string, bool) error {
		check = 1
		return nil
	})
	f.Func(0, "nocheck-order", NoArg, "", "do not check that the input is correctly sorted", func(string, bool) error {
		check = -1
		return nil
	})
	sep, sepSet := f.String(0, "output-delimiter", "STR", "separate columns with STR")
	total := f.Bool(0, "total", "output a summary")
	zero := f.Bool('z', "zero-terminated", "line delimiter is NUL, not newline")
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	switch {
	case len(files) == 0:
		return f.Fail(&UsageError{"missing operand"}, 1)
	case len(files) == 1:
		return f.Fail(&UsageError{fmt.Sprintf("missing operand after %s", gnu.Quote(files[0]))}, 1)
	case len(files) > 2:
		return f.Fail(&UsageError{fmt.Sprintf("extra operand %s", gnu.Quote(files[2]))}, 1)
	}
	delim := []byte("\t")
	if *sepSet {
		delim = []byte(*sep)
		if len(delim) == 0 {
			delim = []byte{0}
		}
	}
	eol := byte('\n')
	if *zero {
		eol = 0
	}
	var lr [2]*lineReader
	for i, name := range files {
		r, err := env.Open(name)
		if err != nil {
			env.PathError(name, err)
			return 1
		}
		defer r.Close()
		lr[i] = newLineReader(env, r)
	}
	w := bufio.NewWriterSize(env.Stdout, 64<<10)
	var cur, prev [2][]byte
	var have [2]bool
	var warned [2]bool
	unpairable := false
	// advance reads file i's next line, checking the order.
	var nread [2]int
	advance := func(i int) error {
		line, _, err := lr[i].next(eol)
		if err == io.EOF {
			// GNU re-checks the last two lines at the end of a file: an
			// unpairable line may have turned up since they were read.
			if have[i] && nread[i] >= 2 && check == 0 && unpairable && !warned[i] && bytes.Compare(prev[i], cur[i]) > 0 {
				w.Flush() // GNU's error() flushes stdout first
				env.Errorf("file %d is not in sorted order", i+1)
				warned[i] = true
			}
			have[i] = false
			return nil
		}
		if err != nil {
			return err
		}
		nread[i]++
		prev[i], cur[i] = cur[i], append(prev[i][:0], line...)
		if have[i] && check >= 0 && (check == 1 || unpairable) && !warned[i] {
			if bytes.Compare(prev[i], cur[i]) > 0 {
				w.Flush() // GNU's error() flushes stdout first
				env.Errorf("file %d is not in sorted order", i+1)
				if check == 1 {
					return gnu.ErrCancelled
				}
				warned[i] = true
			}
		}
		have[i] = true
		return nil
	}
	fail := func(i int, err error) int {
		w.Flush()
		if err == gnu.ErrCancelled {
			return 1
		}
		if st, stop := stopError(env, err); stop {
			return st
		}
		env.PathError(files[i], err)
		return 1
	}
	for i := range 2 {
		if err := advance(i); err != nil {
			return fail(i, err)
		}
	}
	var counts [3]int
	for have[0] || have[1] {
		var order int
		switch {
		case !have[0]:
			order = 1
		case !have[1]:
			order = -1
		default:
			order = bytes.Compare(cur[0], cur[1])
		}
		col, line := 2, cur[0]
		if order != 0 {
			unpairable = true
			if order < 0 {
				col = 0
			} else {
				col, line = 1, cur[1]
			}
		}
		counts[col]++
		show := [3]bool{!*no1, !*no2, !*no3}
		if show[col] {
			if col >= 1 && show[0] {
				w.Write(delim)
			}
			if col == 2 && show[1] {
				w.Write(delim)
			}
			w.Write(line)
			if err := w.WriteByte(eol); err != nil {
				return finishOutput(env, w, 1)
			}
		}
		if order <= 0 {
			if err := advance(0); err != nil {
				return fail(0, err)
			}
		}
		if order >= 0 {
			if err := advance(1); err != nil {
				return fail(1, err)
			}
		}
	}
	if *total {
		for _, n := range counts {
			w.WriteString(strconv.Itoa(n))
			w.Write(delim)
		}
		w.WriteString("total")
		w.WriteByte(eol)
	}
	status := finishOutput(env, w, 0)
	if status == 0 && (warned[0] || warned[1]) {
		env.Errorf("input is not in sorted order")
		return 1
	}
	return status
}
