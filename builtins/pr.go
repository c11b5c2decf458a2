package builtins

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "pr", Summary: "convert text files for printing", Run: prCmd})

// prOpts are the options of one pr call.
type prOpts struct {
	columns, pageLen, width, offset int
	across, merge, number, double   bool
	noHeader                        bool
	header                          string
	headerSet                       bool
	sep                             string // -s: columns joined by it, unpadded
	sepSet                          bool
	always                          bool   // -W: the width cuts single-column lines too
	numSep                          string // -n's separator (TAB)
	numDigits                       int    // -n's digits (5)
	firstNum                        int    // -N: the first line's number (1)
	dateFormat                      string // -D: the header's date format
	oldW                            bool   // -w came after the last -W: it does not
	now                             time.Time
}

// truncate cuts a line of single-column output at the page width under
// -W, as GNU pr: each byte takes a column, a tab up to the next multiple
// of 8; what it keeps is written as it is.
func (o *prOpts) truncate(line string) string {
	if !o.always || o.oldW {
		return line
	}
	col := 0
	for i := 0; i < len(line); i++ {
		next := col + 1
		if line[i] == '\t' {
			next = (col/8 + 1) * 8
		}
		if next > o.width {
			return line[:i]
		}
		col = next
	}
	return line
}

// prCmd is GNU pr 9.1's common use: pages of 66 lines with a header and
// trailer, -t, -T, -h, -D, -l, -w, -W, -n[SEP[DIGITS]], -N, -d, -o, -COLUMN (--columns) down (balanced on the last
// page) or -a across, -m to merge files, -s. Padding between columns
// uses tabs where they fit, as pr does.
func prCmd(env *Env) int {
	o := &prOpts{columns: 1, pageLen: 66, width: 72, now: time.Now(), numSep: "\t", numDigits: 5, firstNum: 1}
	f := NewFlags(env, "Paginate or columnate FILE(s) for printing.\n\nWith no FILE, or when FILE is -, read standard input.", "[OPTION]... [FILE]...")
	for d := '0'; d <= '9'; d++ {
		d := d
		f.Func(d, "", NoArg, "", "", func(string, bool) error {
			o.columns = o.columns*10 + int(d-'0')
			return nil
		})
	}
	f.BoolVar(&o.across, 'a', "across", "print columns across rather than down, used together\n                    with -COLUMN")
	f.BoolVar(&o.double, 'd', "double-space", "double space the output")
	f.Func('h', "header", RequiredArg, "HEADER", "use a centered HEADER instead of filename in page header", func(v string, _ bool) error {
		o.header, o.headerSet = v, true
		return nil
	})
	intArg := func(p *int, what string) func(string, bool) error {
		return func(v string, _ bool) error {
			n, err := prNumber(env, v, what)
			if err == nil {
				*p = n
			}
			return err
		}
	}
	f.Func('l', "length", RequiredArg, "PAGE_LENGTH", "set the page length to PAGE_LENGTH (66) lines", intArg(&o.pageLen, "'-l PAGE_LENGTH' invalid number of lines"))
	f.BoolVar(&o.merge, 'm', "merge", "print all files in parallel, one in each column")
	f.Func('n', "number-lines", OptionalArg, "SEP[DIGITS]", "number lines, use DIGITS (5) digits, then SEP (TAB),\ndefault counting starts with 1st line of input file", func(v string, _ bool) error {
		o.number = true
		if v != "" && (v[0] < '0' || v[0] > '9') {
			o.numSep, v = v[:1], v[1:]
		}
		if v != "" {
			n, err := prNumber(env, v, "'-n' extra characters or invalid number in the argument")
			if err != nil {
				// GNU: this one is a usage error, with its Try line;
				// range errors past an int say why, smaller ones not.
				return &UsageError{strings.TrimSuffix(err.Error(), ": Numerical result out of range")}
			}
			o.numDigits = n
		}
		return nil
	})
	f.Func('N', "first-line-number", RequiredArg, "NUMBER", "start counting with NUMBER at 1st line of first\npage printed", func(v string, _ bool) error {
		n, err := prNumber(env, v, "'-N NUMBER' invalid starting line number")
		o.firstNum = n
		return err
	})
	f.Func(0, "columns", RequiredArg, "COLUMN", "output COLUMN columns and print columns down,\nunless -a is used. Balance number of lines in the\ncolumns on each page", func(v string, _ bool) error {
		n, err := prNumber(env, v, "invalid number of columns")
		o.columns = n
		return err
	})
	f.Func('D', "date-format", RequiredArg, "FORMAT", "use FORMAT for the header date", func(v string, _ bool) error {
		o.dateFormat = v
		return nil
	})
	f.Func('T', "omit-pagination", NoArg, "", "omit page headers and trailers", func(string, bool) error {
		o.noHeader = true
		return nil
	})
	f.Func('o', "indent", RequiredArg, "MARGIN", "offset each line with MARGIN (zero) spaces", intArg(&o.offset, "'-o MARGIN' invalid line offset"))
	f.Func('s', "separator", OptionalArg, "CHAR", "separate columns by a single character, default TAB", func(v string, present bool) error {
		o.sep, o.sepSet = "\t", true
		if present {
			o.sep = v[:1]
		}
		return nil
	})
	f.BoolVar(&o.noHeader, 't', "omit-header", "omit page headers and trailers")
	// GNU pr: -W dominates -w (whose width it keeps), yet a -w after it
	// still stops the cutting of single-column lines.
	f.Func('w', "width", RequiredArg, "PAGE_WIDTH", "set page width to PAGE_WIDTH (72) characters for\n                    multiple text-column output only", func(v string, _ bool) error {
		n, err := prNumber(env, v, "'-w PAGE_WIDTH' invalid number of characters")
		if err == nil && !o.always {
			o.width = n
		}
		o.oldW = true
		return err
	})
	f.Func('W', "page-width", RequiredArg, "PAGE_WIDTH", "set page width to PAGE_WIDTH (72) characters always,\ntruncate lines", func(v string, _ bool) error {
		n, err := prNumber(env, v, "'-W PAGE_WIDTH' invalid number of characters")
		if err == nil {
			o.width, o.always, o.oldW = n, true, false
		}
		return err
	})
	version := versionOption(f)
	// -COLUMN digits: rebuild "-3" bundles so each digit counts once.
	var args []string
	for _, a := range env.Args[1:] {
		if len(a) > 1 && a[0] == '-' && a[1] >= '0' && a[1] <= '9' {
			o.columns = 0
		}
		args = append(args, a)
	}
	files, err := f.Parse(args)
	if err != nil {
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	if o.columns == 0 {
		o.columns = 1
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	return o.run(env, files)
}

// prNumber reads the argument of -l, -o or -w as GNU pr's xdectoimax:
// a decimal integer from 1 (0 for -o's offset) to INT_MAX, or what's
// message, fatal, with the errno GNU's names: EOVERFLOW for a value
// beyond half an int's range, ERANGE for a smaller one out of range.
func prNumber(env *Env, v, what string) (int, error) {
	lo := int64(1)
	if strings.HasPrefix(what, "'-o") {
		lo = 0
	}
	msg := what + ": " + env.Quote(v)
	n, err := strconv.ParseInt(strings.TrimLeft(v, " \t\n\v\f\r"), 10, 64)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return 0, errors.New(msg + ": Value too large for defined data type")
	case err != nil:
		return 0, errors.New(msg)
	case n >= lo && n <= math.MaxInt32:
		return int(n), nil
	case n > math.MaxInt32/2 || n < math.MinInt32/2:
		return 0, errors.New(msg + ": Value too large for defined data type")
	}
	return 0, errors.New(msg + ": Numerical result out of range")
}

// run paginates files.
func (o *prOpts) run(env *Env, files []string) int {
	w := stdoutWriter(env)
	status := 0
	if o.merge {
		var cols [][]string
		for _, name := range files {
			lines, _, ok := o.read(env, w, name)
			if ok {
				cols = append(cols, lines)
			} else {
				status = 1
			}
		}
		o.columns = len(cols)
		prPages(env, w, o, prMerge(env, cols), o.header, o.now)
		return finishOutput(env, w, status)
	}
	for _, name := range files {
		lines, mt, ok := o.read(env, w, name)
		if !ok {
			status = 1
			continue
		}
		hdr := name
		if name == "-" {
			hdr = ""
		}
		if o.headerSet {
			hdr = o.header
		}
		if prPages(env, w, o, prColumns(env, o, lines), hdr, mt) != nil {
			break
		}
	}
	return finishOutput(env, w, status)
}

// read reads the lines of the file name and its time; false (reported)
// when it cannot be read.
func (o *prOpts) read(env *Env, w *bufio.Writer, name string) ([]string, time.Time, bool) {
	r, fi, err := openOperand(env, name)
	if err == nil && fi != nil && fi.IsDir() {
		r.Close()
		err = errReadDir
	}
	if err != nil {
		w.Flush()
		env.PathError(name, err)
		return nil, time.Time{}, false
	}
	data, err := readAllCtx(env, r)
	r.Close()
	if err != nil {
		w.Flush()
		env.PathError(name, err)
		return nil, time.Time{}, false
	}
	mt := o.now
	if fi != nil && name != "-" {
		mt = fi.ModTime()
	}
	s := string(data)
	if s == "" {
		return nil, mt, true
	}
	lines, err := splitStringLinesCtx(env.Ctx, strings.TrimSuffix(s, "\n"))
	if err != nil {
		return nil, mt, false // cancelled
	}
	return lines, mt, true
}

// splitStringLinesCtx is strings.Split(s, "\n") that stops with
// gnu.ErrCancelled once ctx is done: the 20 million lines of a 169 MB
// file take seconds.
func splitStringLinesCtx(ctx context.Context, s string) ([]string, error) {
	out := make([]string, 0, strings.Count(s, "\n")+1)
	for {
		if len(out)&0xffff == 0xffff && ctx.Err() != nil {
			return nil, gnu.ErrCancelled
		}
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return append(out, s), nil
		}
		out = append(out, s[:i])
		s = s[i+1:]
	}
}

// prPage is one page's body: rows of column cells.
type prPage [][]string

// prColumns lays lines out in pages of rows; with several columns, down
// (the last page balanced: the first columns one line longer) or across.
func prColumns(env *Env, o *prOpts, lines []string) []prPage {
	rows := prBodyLines(o)
	if o.double {
		rows = max(1, rows/2)
	}
	var pages []prPage
	for n := 1; len(lines) > 0; n++ {
		if n&63 == 0 && env.Ctx.Err() != nil {
			return nil // millions of lines: seconds (prPages says why)
		}
		per := rows * o.columns
		chunk := lines[:min(per, len(lines))]
		lines = lines[len(chunk):]
		var page prPage
		switch {
		case o.columns == 1:
			for i, l := range chunk {
				if o.number {
					l = o.lineNumber((n-1)*rows+i+o.firstNum) + l
				}
				page = append(page, []string{l})
			}
		case o.across:
			if o.number {
				chunk = prNumbered(o, chunk, (n-1)*per)
			}
			for i := 0; i < len(chunk); i += o.columns {
				page = append(page, chunk[i:min(i+o.columns, len(chunk))])
			}
		default:
			if o.number {
				chunk = prNumbered(o, chunk, (n-1)*per)
			}
			height := rows
			if len(chunk) < per {
				height = (len(chunk) + o.columns - 1) / o.columns
			}
			// Column c holds base lines, the first extra ones one more.
			base, extra := len(chunk)/o.columns, len(chunk)%o.columns
			if len(chunk) == per {
				base, extra = rows, 0
			}
			page = make(prPage, height)
			at := 0
			for c := 0; c < o.columns; c++ {
				h := base
				if c < extra {
					h++
				}
				for r := 0; r < h && at < len(chunk); r++ {
					for len(page[r]) < c {
						page[r] = append(page[r], "")
					}
					page[r] = append(page[r], chunk[at])
					at++
				}
			}
		}
		pages = append(pages, page)
	}
	return pages
}

// prNumbered is a page's lines for several columns with -n: each line
// cut to what its column holds after the number, then numbered (five
// digits and a tab, which takes the column's first 8 places), from
// first+1 on.
func prNumbered(o *prOpts, lines []string, first int) []string {
	numWidth := o.numDigits + 1
	if o.numSep == "\t" {
		numWidth = (o.numDigits/8 + 1) * 8
	}
	keep := max(0, prColWidth(o)-numWidth)
	out := make([]string, len(lines))
	for i, l := range lines {
		if len(l) > keep {
			l = l[:keep]
		}
		out[i] = o.lineNumber(first+i+o.firstNum) + l
	}
	return out
}

// prColWidth is the width of one column of output.
func prColWidth(o *prOpts) int {
	if o.columns > 1 {
		return (o.width - (o.columns - 1)) / o.columns
	}
	return o.width
}

// prMerge lays the files side by side, one column each.
func prMerge(env *Env, cols [][]string) []prPage {
	n := 0
	for _, c := range cols {
		n = max(n, len(c))
	}
	var all prPage
	for r := 0; r < n; r++ {
		if r&0xffff == 0xffff && env.Ctx.Err() != nil {
			return nil
		}
		row := make([]string, len(cols))
		for i, c := range cols {
			if r < len(c) {
				row[i] = c[r]
			}
		}
		all = append(all, row)
	}
	return []prPage{all} // split into pages by prPages
}

// prBodyLines is the number of text lines a page holds.
func prBodyLines(o *prOpts) int {
	if o.noHeader || o.pageLen <= 10 {
		return o.pageLen
	}
	return o.pageLen - 10
}

// prPages writes the pages with their headers and trailers. The blanks
// of a header and a line's offset are written a piece at a time (-w and
// -o take any int: one string of them was an allocation of gigabytes);
// it stops, with the error, when the run is cancelled or output fails.
func prPages(env *Env, w *bufio.Writer, o *prOpts, pages []prPage, hdr string, mt time.Time) error {
	rows := prBodyLines(o)
	if o.double {
		rows = max(1, rows/2)
	}
	// Merged output arrives as one long page: cut it here.
	if o.merge && len(pages) == 1 {
		var cut []prPage
		for p := pages[0]; len(p) > 0; p = p[min(rows, len(p)):] {
			cut = append(cut, p[:min(rows, len(p))])
		}
		pages = cut
	}
	header := !o.noHeader && o.pageLen > 10
	colWidth := prColWidth(o)
	for n, page := range pages {
		if env.Ctx.Err() != nil {
			return gnu.ErrCancelled
		}
		if header {
			date := mt.In(dateLocation(env)).Format("2006-01-02 15:04")
			if o.dateFormat != "" {
				date = strftimeC(mt.In(dateLocation(env)), o.dateFormat)
			}
			pg := "Page " + strconv.Itoa(n+1)
			// GNU's printf of "%*s" with " ": at least one blank each
			// side, when the line is too narrow for the three.
			blank := max(0, o.width-len(date)-len(hdr)-len(pg))
			w.WriteString("\n\n" + date)
			if err := writeSpaces(env, w, uint64(max(1, blank/2))); err != nil {
				return err
			}
			w.WriteString(hdr)
			if err := writeSpaces(env, w, uint64(max(1, blank-blank/2))); err != nil {
				return err
			}
			w.WriteString(pg + "\n\n\n")
		}
		used := 0
		for r, row := range page {
			if err := writeSpaces(env, w, uint64(max(0, o.offset))); err != nil {
				return err
			}
			// one column (or -m of one file): the line as it is
			if o.columns == 1 && !o.merge || o.merge && len(row) == 1 {
				w.WriteString(o.truncate(row[0]) + "\n")
			} else {
				w.WriteString(prRow(o, row, colWidth) + "\n")
			}
			used++
			if o.double && !(n == len(pages)-1 && r == len(page)-1 && prInputEnded(o, page, rows)) {
				w.WriteByte('\n')
				used++
			}
		}
		if header {
			// A page length of 2000000000 is that many newlines.
			if err := writeRepeat(env, w, '\n', uint64(max(rows*prDouble(o)-used, 0))); err != nil {
				return err
			}
			w.WriteString("\n\n\n\n\n")
		}
	}
	return nil
}

// prInputEnded says GNU pr has met the end of the input by the time it
// has written the last row of the last page, and so writes no -d blank
// line after it: with several columns, when that page is balanced (not
// full) or, across, when its last row is short.
func prInputEnded(o *prOpts, page prPage, rows int) bool {
	if o.columns == 1 || o.merge {
		return false
	}
	if o.across {
		return len(page[len(page)-1]) < o.columns
	}
	cells := 0
	for _, row := range page {
		cells += len(row)
	}
	return cells < rows*o.columns
}

func prDouble(o *prOpts) int {
	if o.double {
		return 2
	}
	return 1
}

// prRow lays out the cells of a row as GNU pr's output routine does: each
// column starts at its place (i*(width+1)), reached with tabs where a tab
// stop fits (never for one column) and spaces after; within a cell a blank (a space, or a tab up
// to the cell's next stop of 8) is only written, the same way, when a
// character follows it, so the blanks that end a row are dropped while a
// cell that is an empty line is still padded to. A cell is cut at the
// column width; with -s the cells follow each other, joined by the
// separator, uncut.
func prRow(o *prOpts, row []string, colWidth int) string {
	var b strings.Builder
	base := max(0, o.offset) // -o's blanks are written before the row
	printed := base          // the output column after the last byte written
	flush := func(to int) {
		for next := (printed/8 + 1) * 8; to-printed > 1 && next <= to; next = (printed/8 + 1) * 8 {
			b.WriteByte('\t')
			printed = next
		}
		for ; printed < to; printed++ {
			b.WriteByte(' ')
		}
	}
	pos := base
	for i, cell := range row {
		start := base + i*(colWidth+1)
		limit := start + colWidth
		if o.sepSet {
			if i > 0 {
				flush(pos)
				b.WriteString(o.sep)
				pos += len(o.sep)
				printed = pos
			}
			start, limit = pos, -1
		} else if i > 0 {
			flush(start)
		}
		pos = start
		for k := 0; k < len(cell); k++ {
			next := pos + 1
			if cell[k] == '\t' {
				next = start + ((pos-start)/8+1)*8
			}
			if limit >= 0 && next > limit {
				break
			}
			if cell[k] != ' ' && cell[k] != '\t' {
				flush(pos)
				b.WriteByte(cell[k])
				printed = next
			}
			pos = next
		}
	}
	return b.String()
}

// lineNumber is -n's number of line n and its separator: DIGITS wide,
// and only its last DIGITS digits when it has more, as GNU pr.
func (o *prOpts) lineNumber(n int) string {
	d := strconv.Itoa(n)
	if len(d) > o.numDigits {
		d = d[len(d)-o.numDigits:]
	}
	return fmt.Sprintf("%*s%s", o.numDigits, d, o.numSep)
}
