package builtins

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "comm", Summary: "compare two sorted files line by line", Run: comm})

// commConfig is what comm's command line asks for.
type commConfig struct {
	show  [3]bool // the columns not suppressed
	check int     // --check-order: 0 default, 1 enabled, -1 disabled
	delim []byte
	eol   byte
	total bool
	files []string
}

func comm(env *Env) int {
	c, status := commParse(env)
	if c == nil {
		return status
	}
	return c.run(env)
}

// commParse reads comm's options and operands; on nil it returns the
// exit status.
func commParse(env *Env) (*commConfig, int) {
	f := NewFlags(env, "Compare sorted files FILE1 and FILE2 line by line.\n\nWhen FILE1 or FILE2 (not both) is -, read standard input.\n\nWith no options, produce three-column output.  Column one contains\nlines unique to FILE1, column two contains lines unique to FILE2,\nand column three contains lines common to both files.", "[OPTION]... FILE1 FILE2")
	c := &commConfig{}
	var no [3]bool
	f.BoolVar(&no[0], '1', "", "suppress column 1 (lines unique to FILE1)")
	f.BoolVar(&no[1], '2', "", "suppress column 2 (lines unique to FILE2)")
	f.BoolVar(&no[2], '3', "", "suppress column 3 (lines that appear in both files)")
	f.Gap()
	f.Func(0, "check-order", NoArg, "", "check that the input is correctly sorted, even\nif all input lines are pairable", func(string, bool) error {
		c.check = 1
		return nil
	})
	f.Func(0, "nocheck-order", NoArg, "", "do not check that the input is correctly sorted", func(string, bool) error {
		c.check = -1
		return nil
	})
	sep, sepSet := f.String(0, "output-delimiter", "STR", "separate columns with STR")
	f.BoolVar(&c.total, 0, "total", "output a summary")
	zero := f.Bool('z', "zero-terminated", "line delimiter is NUL, not newline")
	f.Epilog = "Note, comparisons are byte by byte, as in the C locale's 'LC_COLLATE'.\n\n" +
		"Examples:\n" +
		"  comm -12 file1 file2  Print only lines present in both file1 and file2.\n" +
		"  comm -3 file1 file2  Print lines in file1 not in file2, and vice versa." // GNU's, unaligned
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return nil, f.Fail(err, 1)
	}
	switch {
	case len(files) == 0:
		return nil, f.Fail(&UsageError{"missing operand"}, 1)
	case len(files) == 1:
		return nil, f.Fail(&UsageError{fmt.Sprintf("missing operand after %s", env.Quote(files[0]))}, 1)
	case len(files) > 2:
		return nil, f.Fail(&UsageError{fmt.Sprintf("extra operand %s", env.Quote(files[2]))}, 1)
	}
	c.delim = []byte("\t")
	if *sepSet {
		c.delim = []byte(*sep)
		if len(c.delim) == 0 {
			c.delim = []byte{0}
		}
	}
	c.eol = '\n'
	if *zero {
		c.eol = 0
	}
	c.show = [3]bool{!no[0], !no[1], !no[2]}
	c.files = files
	return c, 0
}

// run merges the two files into the three columns.
func (c *commConfig) run(env *Env) int {
	var lr [2]*lineReader
	for i, name := range c.files {
		r, err := env.Open(name)
		if err != nil {
			env.PathError(name, err)
			return 1
		}
		defer r.Close()
		lr[i] = newLineReader(env, r)
	}
	w := bufio.NewWriterSize(env.Stdout, 64<<10)
	in := &commInput{env: env, w: w, lr: lr, check: c.check, eol: c.eol}
	fail := func(i int, err error) int {
		w.Flush()
		if err == gnu.ErrCancelled {
			return 1
		}
		if st, stop := stopError(env, err); stop {
			return st
		}
		env.PathError(c.files[i], err)
		return 1
	}
	for i := range 2 {
		if err := in.advance(i); err != nil {
			return fail(i, err)
		}
	}
	var counts [3]int
	for in.have[0] || in.have[1] {
		var order int
		switch {
		case !in.have[0]:
			order = 1
		case !in.have[1]:
			order = -1
		default:
			order = bytes.Compare(in.cur[0], in.cur[1])
		}
		col, line := 2, in.cur[0]
		if order != 0 {
			in.unpairable = true
			if order < 0 {
				col = 0
			} else {
				col, line = 1, in.cur[1]
			}
		}
		counts[col]++
		show := c.show
		if show[col] {
			if col >= 1 && show[0] {
				w.Write(c.delim)
			}
			if col == 2 && show[1] {
				w.Write(c.delim)
			}
			w.Write(line)
			if err := w.WriteByte(c.eol); err != nil {
				return finishOutput(env, w, 1)
			}
		}
		if order <= 0 {
			if err := in.advance(0); err != nil {
				return fail(0, err)
			}
		}
		if order >= 0 {
			if err := in.advance(1); err != nil {
				return fail(1, err)
			}
		}
	}
	if c.total {
		for _, n := range counts {
			w.WriteString(strconv.Itoa(n))
			w.Write(c.delim)
		}
		w.WriteString("total")
		w.WriteByte(c.eol)
	}
	status := finishOutput(env, w, 0)
	if status == 0 && (in.warned[0] || in.warned[1]) {
		env.Errorf("input is not in sorted order")
		return 1
	}
	return status
}

// commInput is comm's two inputs with their current and previous lines.
type commInput struct {
	env        *Env
	w          *bufio.Writer
	lr         [2]*lineReader
	check      int
	eol        byte
	cur, prev  [2][]byte
	have       [2]bool
	warned     [2]bool
	nread      [2]int
	unpairable bool
}

// advance reads file i's next line, checking the order.
func (in *commInput) advance(i int) error {
	line, _, err := in.lr[i].next(in.eol)
	if err == io.EOF {
		// GNU re-checks the last two lines at the end of a file: an
		// unpairable line may have turned up since they were read.
		if in.have[i] && in.nread[i] >= 2 && in.check == 0 && in.unpairable && !in.warned[i] && bytes.Compare(in.prev[i], in.cur[i]) > 0 {
			in.w.Flush() // GNU's error() flushes stdout first
			in.env.Errorf("file %d is not in sorted order", i+1)
			in.warned[i] = true
		}
		in.have[i] = false
		return nil
	}
	if err != nil {
		return err
	}
	in.nread[i]++
	in.prev[i], in.cur[i] = in.cur[i], append(in.prev[i][:0], line...)
	if in.have[i] && in.check >= 0 && (in.check == 1 || in.unpairable) && !in.warned[i] {
		if bytes.Compare(in.prev[i], in.cur[i]) > 0 {
			in.w.Flush() // GNU's error() flushes stdout first
			in.env.Errorf("file %d is not in sorted order", i+1)
			if in.check == 1 {
				return gnu.ErrCancelled
			}
			in.warned[i] = true
		}
	}
	in.have[i] = true
	return nil
}
