package builtins

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"syscall"
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
	sep                             string // the column separator (" ", or -S's, -s's)
	join                            bool   // -J (or old -s): columns follow each other, unaligned
	always                          bool   // -W: the width cuts single-column lines too
	numSep                          string // -n's separator (TAB)
	numDigits                       int    // -n's digits (5)
	firstNum                        int    // -N: the first line's number (1)
	firstNumSet                     bool
	dateFormat                      string // -D: the header's date format
	oldW                            bool   // -w came after the last -W: it does not
	now                             time.Time

	firstPage, lastPage int  // +FIRST[:LAST], --pages (1 and 0: all)
	noWarn              bool // -r: no message for a file that cannot be opened
	formFeed            bool // -F, -f: a page ends with a form feed
	inTab               byte // -e's CHAR (TAB)
	inTabWidth          int  // -e's WIDTH (8)
	untabify            bool // -e
	ctrl, esc           bool // -c, -v
	outTab              byte // -i's CHAR (TAB)
	outTabWidth         int  // -i's WIDTH (8)
	tabify              bool // -i

	// how the options came, for GNU's reading of the old -s and -w
	oldS, sepS, explicitCols bool
	digits                   string // -COLUMN's digits, read after the options

	fatal     bool // a file could not be read: pr ends
	widthCols int  // -m: the files named, for the columns' width
	pagesAt   int  // the operands before --pages (-1: none)

	// form feeds of the input (not with -m): the lines at which a page
	// starts after one, whether the input ends with one, and (prColumns)
	// the pages that start after one and the file's page count
	breaks []int
	endFF  bool
	pageFF []bool
	count  int
	noFF   bool // -T: form feeds end lines, and start no page
	// whether each of those form feeds ended a line (no newline before
	// it): GNU then writes no -d empty line before it
	breakLine, pageFFLine []bool
	endFFLine             bool
}

// truncate cuts a line of single-column output at the page width under
// -W (and -w with -m), as GNU pr: a printable byte takes a column, a tab
// up to the next multiple of 8, a backspace takes one back, the others
// (bytes from 0x80 on too) none; what it keeps is written as it is.
func (o *prOpts) truncate(line string) string {
	if !(o.always && !o.oldW || o.oldW && o.merge) || o.join {
		return o.unmark(line)
	}
	// -n: GNU reads a line's first character (clump) before it adds
	// the number, so both are written whatever the width.
	first := -1
	if o.number && o.columns == 1 && !o.merge {
		first = o.numDigits + len(o.numSep)
	}
	col := 0
	for i := 0; i < len(line); i++ {
		if line[i] == prMark && o.marked() {
			n := prClumpLen(line, i)
			if i != first && col+n > o.width {
				return o.unmark(line[:i])
			}
			i, col = i+n, col+n
			continue
		}
		next := max(0, col+prByteWidth(line[i]))
		if line[i] == '\t' {
			next = (col/8 + 1) * 8
		}
		if next > o.width && i > first {
			return o.unmark(line[:i])
		}
		col = next
	}
	return o.unmark(line)
}

// prCmd is GNU pr 9.1: pages of 66 lines with a header and trailer
// (-t, -T, -h, -D, -l, -F), +FIRST[:LAST], -w, -W, -n[SEP[DIGITS]], -N,
// -d, -o, -e, -i, -c, -v, -r, -COLUMN (--columns) down (balanced on the
// last page) or -a across, -m to merge files, -s, -S, -J. Padding between
// columns uses tabs where they fit, as pr does.
func prCmd(env *Env) int {
	o := &prOpts{columns: 1, pageLen: 66, width: 72, now: time.Now(), numSep: "\t", numDigits: 5, firstNum: 1,
		inTab: '\t', inTabWidth: 8, outTab: '\t', outTabWidth: 8, pagesAt: -1}
	f, version := prFlags(env, o)
	operands, err := f.Parse(env.Args[1:])
	if err == nil && o.digits != "" {
		// GNU's parse_column_count, after all the options
		o.columns, err = prNumber(env, o.digits, "invalid number of columns")
		o.explicitCols = true
		if err != nil {
			env.Errorf("%s", err)
			return 1
		}
	}
	if err != nil {
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	switch {
	case o.merge && o.explicitCols:
		env.Errorf("cannot specify number of columns when printing in parallel")
		return 1
	case o.merge && o.across:
		env.Errorf("cannot specify both printing across and printing in parallel")
		return 1
	}
	var files []string
	pages := [2]int{o.firstPage, o.lastPage} // --pages's, which wins
	set := false
	for i, a := range operands {
		// GNU: +FIRST[:LAST] unless a range is set (by --pages before
		// it, or a + before); what is no range is a file's name.
		set = set || i == o.pagesAt
		if !set && strings.HasPrefix(a, "+") {
			ok, err := o.pageRange(env, a[1:], "+")
			if err != nil {
				env.Errorf("%s", err)
				return 1
			}
			if set = ok; ok {
				continue
			}
		}
		files = append(files, a)
	}
	if o.pagesAt >= 0 {
		o.firstPage, o.lastPage = pages[0], pages[1]
	}
	o.resolve()
	if msg := o.widthError(len(files)); msg != "" {
		env.Errorf("%s", msg)
		return 1
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	return o.run(env, files)
}

// widthError is GNU pr's complaint about the columns of one file, ""
// for none: a column narrower than a character ("page width too
// narrow"), or columns printed down whose page's store would pass an int
// ("integer overflow", GNU's init_store_cols: lines × columns ×
// (width + 1)); session 29: `pr -2 -w 2000000000` made rows of 250 MB.
// With -m the columns are the nfiles named (none: -m is ignored), the
// first after -n's number.
func (o *prOpts) widthError(nfiles int) string {
	if o.merge && nfiles > 0 {
		o.widthCols = max(2, nfiles) // (GNU counts the number for one too)
		used := o.mergeNumberWidth() + (nfiles-1)*len(o.sep)
		o.widthCols = 0
		if (o.width-used)/nfiles < 1 {
			return "page width too narrow"
		}
		return ""
	}
	if o.columns <= 1 || o.merge {
		return ""
	}
	cols := int64(o.columns)
	width := (int64(o.width) - (cols-1)*int64(len(o.sep))) / cols
	if width < 1 {
		return "page width too narrow"
	}
	if o.across {
		return ""
	}
	rows := int64(prBodyLines(o))
	if o.double {
		rows /= 2
	}
	if total := rows * cols; total > math.MaxInt32 || total*(width+1) > math.MaxInt32 {
		return "integer overflow"
	}
	return ""
}

// resolve settles the separator, alignment and truncation as GNU pr does
// after reading the options: the old -s (without -w or -W) joins the
// columns, unaligned, with its character (TAB by default); -w with
// columns cuts them, and -s then means no separator; -S keeps them
// aligned; -J joins them.
func (o *prOpts) resolve() {
	cols := o.columns > 1 || o.merge
	switch {
	case o.oldW && (o.merge || o.explicitCols):
		// GNU: -w with columns cuts them (as it does already here)
		if o.oldS {
			o.sepS = true
		}
	case o.oldW:
		o.join = true
	case !o.sepS && o.oldS && (o.merge || o.explicitCols) && !o.always:
		o.join = true
		o.sepS = o.sep != ""
	case !o.sepS && o.oldS && (o.merge || o.explicitCols):
		o.sepS = true
	}
	if cols {
		switch {
		case !o.sepS && o.join:
			o.sep = "\t"
		case !o.sepS:
			o.sep = " "
		case !o.join && o.sep == "\t":
			o.sep = " "
		}
	}
}

// pageRange reads FIRST[:LAST] as GNU pr's first_last_page: false when it
// is no range (for +, then a file's name), an error for a number that
// cannot be read.
func (o *prOpts) pageRange(env *Env, v, opt string) (bool, error) {
	bad := func(overflow bool) error {
		if overflow {
			return fmt.Errorf("%s argument %s too large", opt, env.Quote(v))
		}
		return fmt.Errorf("invalid %s argument %s", opt, env.Quote(v))
	}
	first, rest, e := prUintmax(v)
	if e == prNumInvalid || e == prNumOverflow {
		return false, bad(e == prNumOverflow)
	}
	if first == 0 {
		return false, nil
	}
	last := uint64(math.MaxUint64)
	if t, ok := strings.CutPrefix(rest, ":"); ok {
		var e2 int
		last, rest, e2 = prUintmax(t)
		if e2 != prNumOK {
			return false, bad(e2 == prNumOverflow)
		}
		if last < first {
			return false, nil
		}
	}
	if rest != "" {
		return false, nil
	}
	o.firstPage, o.lastPage = int(min(first, math.MaxInt32)), int(min(last, math.MaxInt32))
	return true, nil
}

// The outcomes of prUintmax.
const (
	prNumOK       = iota
	prNumInvalid  // a sign, or no digits
	prNumOverflow // past uintmax
	prNumSuffix   // digits followed by more (returned in rest)
)

// prUintmax reads a number as gnulib's xstrtoumax without suffixes:
// leading blanks, then digits; a minus sign or no digits is invalid.
func prUintmax(s string) (uint64, string, int) {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	if t == "" || t[0] == '-' {
		return 0, "", prNumInvalid
	}
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, "", prNumInvalid
	}
	n, err := strconv.ParseUint(t[:i], 10, 64)
	if err != nil {
		return 0, "", prNumOverflow
	}
	if i < len(t) {
		return n, t[i:], prNumSuffix
	}
	return n, "", prNumOK
}

// prCharNum reads -e's, -i's and -n's argument, [CHAR[NUMBER]], into c
// and n, an error (a usage error, as GNU's) when NUMBER is no number from
// 1 up.
func prCharNum(env *Env, opt, v string, c *byte, n *int) error {
	if v != "" && (v[0] < '0' || v[0] > '9') {
		*c, v = v[0], v[1:]
	}
	if v == "" {
		return nil
	}
	k, err := prNumber(env, v, "'-"+opt+"' extra characters or invalid number in the argument")
	if err != nil {
		// GNU: a usage error, with its Try line; range errors past an
		// int say why, smaller ones not.
		return &UsageError{strings.TrimSuffix(err.Error(), ": Numerical result out of range")}
	}
	*n = k
	return nil
}

// prFlags is pr's option table; it fills o.
func prFlags(env *Env, o *prOpts) (*Flags, *bool) {
	f := NewFlags(env, "Paginate or columnate FILE(s) for printing.\n\nWith no FILE, or when FILE is -, read standard input.", "[OPTION]... [FILE]...")
	// -COLUMN: GNU gathers the digits of consecutive digit options (-12,
	// -1 -2) and starts again after any other option (-2 -t -3 is 3).
	run := false
	f.Each = func(short rune, _ string) {
		if short < '0' || short > '9' {
			run = false
		}
	}
	for d := '0'; d <= '9'; d++ {
		d := d
		f.Func(d, "", NoArg, "", "", func(string, bool) error {
			if !run {
				o.digits = ""
			}
			o.digits += string(d)
			run = true
			return nil
		})
	}
	f.Func(0, "pages", RequiredArg, "FIRST_PAGE[:LAST_PAGE]", "begin [stop] printing with page FIRST_[LAST_]PAGE (also +FIRST_PAGE[:LAST_PAGE])", func(v string, _ bool) error {
		ok, err := o.pageRange(env, v, "--pages")
		if err == nil && !ok {
			err = fmt.Errorf("invalid page range %s", env.Quote(v))
		}
		o.pagesAt = f.Operands()
		return err
	})
	f.Func(0, "columns", RequiredArg, "COLUMN", "output COLUMN columns and print columns down,\nunless -a is used. Balance number of lines in the\ncolumns on each page", func(v string, _ bool) error {
		n, err := prNumber(env, v, "invalid number of columns")
		o.columns, o.explicitCols = n, true
		o.digits = "" // GNU: it overrides an earlier -COLUMN
		return err
	})
	f.BoolVar(&o.across, 'a', "across", "print columns across rather than down, used together\n                    with -COLUMN")
	f.BoolVar(&o.ctrl, 'c', "show-control-chars", "use hat notation (^G) and octal backslash notation")
	f.BoolVar(&o.double, 'd', "double-space", "double space the output")
	f.Func('D', "date-format", RequiredArg, "FORMAT", "use FORMAT for the header date", func(v string, _ bool) error {
		o.dateFormat = v
		return nil
	})
	f.Func('e', "expand-tabs", OptionalArg, "CHAR[WIDTH]", "expand input CHARs (TABs) to tab WIDTH (8)", func(v string, _ bool) error {
		o.untabify = true
		return prCharNum(env, "e", v, &o.inTab, &o.inTabWidth)
	})
	f.Func('F', "form-feed", NoArg, "", "use form feeds instead of newlines to separate pages\n(-f is the same)", func(string, bool) error {
		o.formFeed = true
		return nil
	})
	f.Func('f', "", NoArg, "", "", func(string, bool) error {
		o.formFeed = true
		return nil
	})
	f.Func('h', "header", RequiredArg, "HEADER", "use a centered HEADER instead of filename in page header", func(v string, _ bool) error {
		o.header, o.headerSet = v, true
		return nil
	})
	f.Func('i', "output-tabs", OptionalArg, "CHAR[WIDTH]", "replace spaces with CHARs (TABs) to tab WIDTH (8)", func(v string, _ bool) error {
		o.tabify = true
		return prCharNum(env, "i", v, &o.outTab, &o.outTabWidth)
	})
	f.BoolVar(&o.join, 'J', "join-lines", "merge full lines, turns off -W line truncation, no column\nalignment, --sep-string[=STRING] sets separators")
	prFlagsMore(env, f, o)
	return f, versionOption(f)
}

// prFlagsMore is the rest of pr's option table, -l on.
func prFlagsMore(env *Env, f *Flags, o *prOpts) {
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
		sep := o.numSep[0]
		err := prCharNum(env, "n", v, &sep, &o.numDigits)
		o.numSep = string(sep)
		return err
	})
	f.Func('N', "first-line-number", RequiredArg, "NUMBER", "start counting with NUMBER at 1st line of first\npage printed", func(v string, _ bool) error {
		n, err := prNumber(env, v, "'-N NUMBER' invalid starting line number")
		o.firstNum, o.firstNumSet = n, true
		return err
	})
	f.Func('o', "indent", RequiredArg, "MARGIN", "offset each line with MARGIN (zero) spaces", intArg(&o.offset, "'-o MARGIN' invalid line offset"))
	f.BoolVar(&o.noWarn, 'r', "no-file-warnings", "omit warning when a file cannot be opened")
	f.Func('s', "separator", OptionalArg, "CHAR", "separate columns by a single character, default for CHAR\nis the <TAB> character without -w and 'no char' with -w", func(v string, present bool) error {
		o.oldS = true
		if present && !o.sepS {
			o.sep = v
		}
		return nil
	})
	f.Func('S', "sep-string", OptionalArg, "STRING", "separate columns by STRING,\nwithout -S: Default separator <TAB> with -J and <space>\notherwise (same as -S\" \"), no effect on column options", func(v string, _ bool) error {
		o.oldS, o.sepS, o.sep = false, true, v
		return nil
	})
	f.BoolVar(&o.noHeader, 't', "omit-header", "omit page headers and trailers")
	f.Func('T', "omit-pagination", NoArg, "", "omit page headers and trailers, eliminate any pagination\nby form feeds set in input files", func(string, bool) error {
		o.noHeader, o.noFF = true, true
		return nil
	})
	f.BoolVar(&o.esc, 'v', "show-nonprinting", "use octal backslash notation")
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
			if o.fatal {
				return finishOutput(env, w, 1)
			}
		}
		if len(cols) == 0 {
			return finishOutput(env, w, status) // GNU: nothing at all
		}
		// GNU: the columns' width counts the files that could not be
		// opened too, though they take no column.
		o.columns, o.widthCols = len(cols), len(files)
		most := 0
		for _, c := range cols {
			most = max(most, len(c))
		}
		if count := most/max(1, prPerPage(o)/o.columns) + 1; o.firstPage > count && len(cols) > 0 {
			w.Flush()
			env.Errorf("starting page number %d exceeds page count %d", o.firstPage, count)
			return finishOutput(env, w, status)
		}
		prPages(env, w, o, prMerge(env, o, cols), o.header, o.now)
		return finishOutput(env, w, status)
	}
	for _, name := range files {
		lines, mt, ok := o.read(env, w, name)
		if !ok && o.fatal {
			return finishOutput(env, w, 1)
		}
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
		pages := prColumns(env, o, lines)
		if o.firstPage > o.count {
			w.Flush()
			env.Errorf("starting page number %d exceeds page count %d", o.firstPage, o.count)
			continue
		}
		if prPages(env, w, o, pages, hdr, mt) != nil {
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
		// GNU: a file that opens and cannot be read (a directory) ends
		// pr, and -r does not hide it.
		o.fatal = errors.Is(err, syscall.EISDIR)
		if !o.noWarn || o.fatal {
			env.PathError(name, err)
		}
		return nil, time.Time{}, false
	}
	data, err := readHeld(env, r)
	r.Close()
	if err != nil {
		w.Flush()
		if quietStop(err) {
			o.fatal = true
			return nil, time.Time{}, false
		}
		if name == "-" {
			name = "standard input" // GNU: "pr: 'standard input': ..."
		}
		env.PathError(name, err)
		o.fatal = true
		return nil, time.Time{}, false
	}
	mt := o.now
	if fi != nil && name != "-" {
		mt = fi.ModTime()
	}
	s := string(data)
	o.breaks, o.breakLine, o.endFF = nil, nil, false
	if s == "" {
		return nil, mt, true
	}
	var lines []string
	if !o.merge && strings.IndexByte(s, '\f') >= 0 {
		lines = o.splitFF(s)
	} else if lines, err = splitStringLinesCtx(env.Ctx, strings.TrimSuffix(s, "\n")); err != nil {
		return nil, mt, false // cancelled
	}
	if o.untabify || o.ctrl || o.esc {
		for i, l := range lines {
			lines[i] = o.clump(l)
		}
	}
	return lines, mt, true
}

// splitFF splits s into lines as GNU pr reads a text with form feeds: a
// form feed ends the line before it (a newline after it is passed over)
// and the page; the lines at which a new page starts go to o.breaks, a
// form feed at the end (which starts no page) to o.endFF. Under -T form
// feeds only end lines.
func (o *prOpts) splitFF(s string) []string {
	var lines []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			lines = append(lines, s[start:i])
			start = i + 1
		case '\f':
			endsLine := i > start
			if endsLine {
				lines = append(lines, s[start:i])
			}
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			start = i + 1
			if o.noFF {
				continue
			}
			if start == len(s) {
				o.endFF, o.endFFLine = true, endsLine
			} else {
				o.breaks = append(o.breaks, len(lines))
				o.breakLine = append(o.breakLine, endsLine)
			}
		}
	}
	if start < len(s) {
		lines = append(lines, s[start:])
	}
	return lines
}

// clump is a line as GNU pr's char_to_clump reads it: with -e each input
// tab CHAR (and each TAB) made into the spaces up to its next stop (of
// WIDTH, 8 for a TAB); with -v each byte that does not print as \ooo,
// with -c as ^X below 0200 (^? for DEL) and \ooo from it on; else such
// a byte takes no column, and a backspace takes one back.
func (o *prOpts) clump(line string) string {
	var b strings.Builder
	pos := 0
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == o.inTab || c == '\t':
			n := 8
			if c == o.inTab {
				n = o.inTabWidth
			}
			width := n - pos%n
			if o.untabify {
				b.WriteString(strings.Repeat(" ", width))
			} else {
				b.WriteByte(c)
			}
			pos += width
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
			pos++
		case c == '\f':
			b.WriteByte(c)
		case o.esc || o.ctrl && c >= 0x80:
			b.WriteByte(prMark)
			fmt.Fprintf(&b, "\\%03o", c)
			pos += 4
		case o.ctrl:
			b.WriteByte(prMark)
			b.WriteByte('^')
			b.WriteByte(c ^ 0x40)
			pos += 2
		case c == '\b':
			b.WriteByte(c)
			pos = max(0, pos-1)
		default:
			b.WriteByte(c) // takes no column
		}
	}
	return b.String()
}

// prMark starts each escape of a clumped line (-c's ^X, -v's \ooo): GNU
// pr writes a clump whole or not at all, so a column or a line that has
// no room for all of an escape ends before it. Under -c and -v no byte
// of the input is left below 0x20 but TAB and FF, so the mark is never
// the input's; it takes no column, and is dropped as the line is written.
const prMark = '\x01'

// prClumpLen is the width of the escape whose mark is at s[k].
func prClumpLen(s string, k int) int {
	if k+1 < len(s) && s[k+1] == '^' {
		return 2
	}
	return 4
}

// marked reports whether clumped lines have marks (-c, -v).
func (o *prOpts) marked() bool { return o.ctrl || o.esc }

// unmark is s without its escapes' marks.
func (o *prOpts) unmark(s string) string {
	if !o.marked() || strings.IndexByte(s, prMark) < 0 {
		return s
	}
	return strings.ReplaceAll(s, string(prMark), "")
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

// prPerPage is the number of input lines a page takes.
func prPerPage(o *prOpts) int {
	rows := prBodyLines(o)
	if o.double {
		rows = max(1, rows/2)
	}
	return rows * o.columns
}

// prColumns lays lines out in pages of rows; with several columns, down
// (the last page of the input, or before a form feed, balanced: the
// first columns one line longer) or across. -n numbers from the first
// line, or with -N from the first line of the first page printed. It
// sets o.pageFF and o.count (GNU's page count counts the page the end of
// the input starts).
func prColumns(env *Env, o *prOpts, lines []string) []prPage {
	rows := prBodyLines(o)
	if o.double {
		rows = max(1, rows/2)
	}
	per := rows * o.columns
	type chunk struct {
		lines      []string
		first      int  // the index of its first line
		ff, ffLine bool // it starts after a form feed (that ended a line)
	}
	var chunks []chunk
	bounds := append(append([]int{0}, o.breaks...), len(lines))
	for k := 0; k+1 < len(bounds); k++ {
		seg, at := lines[bounds[k]:bounds[k+1]], bounds[k]
		ff, ffLine := k > 0, k > 0 && o.breakLine[k-1]
		if len(seg) == 0 && (k+1 < len(bounds)-1 || o.endFF) {
			chunks = append(chunks, chunk{nil, at, ff, ffLine}) // a page a form feed ends
		}
		for len(seg) > 0 {
			n := min(per, len(seg))
			chunks = append(chunks, chunk{seg[:n], at, ff, ffLine})
			seg, at, ff, ffLine = seg[n:], at+n, false, false
		}
	}
	o.count = len(chunks)
	if len(chunks) == 0 || len(chunks[len(chunks)-1].lines) == per {
		o.count++
	}
	skipped := 0
	if o.firstNumSet && o.firstPage > 1 && o.firstPage-1 < len(chunks) {
		skipped = chunks[o.firstPage-1].first
	}
	pages := make([]prPage, 0, len(chunks))
	o.pageFF, o.pageFFLine = o.pageFF[:0], o.pageFFLine[:0]
	for n, c := range chunks {
		if n&63 == 63 && env.Ctx.Err() != nil {
			return nil // millions of lines: seconds (prPages says why)
		}
		pages = append(pages, prLayout(o, c.lines, c.first-skipped, rows, per))
		o.pageFF, o.pageFFLine = append(o.pageFF, c.ff), append(o.pageFFLine, c.ffLine)
	}
	return pages
}

// prLayout is one page of lines in rows (numbered from first+1 with -n).
func prLayout(o *prOpts, chunk []string, first, rows, per int) prPage {
	var page prPage
	switch {
	case o.columns == 1:
		for i, l := range chunk {
			if o.number {
				l = o.lineNumber(first+i+o.firstNum) + l
			}
			page = append(page, []string{l})
		}
	case o.across:
		if o.number {
			chunk = prNumbered(o, chunk, first)
		}
		for i := 0; i < len(chunk); i += o.columns {
			page = append(page, chunk[i:min(i+o.columns, len(chunk))])
		}
	default:
		if o.number {
			chunk = prNumbered(o, chunk, first)
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
	return page
}

// prNumbered is a page's lines for several columns with -n, as GNU's
// read_line makes them: a line's first character is read, then the
// number is added (DIGITS, then for a TAB separator blanks up to the next
// multiple of 8, else the separator), then the characters that still fit
// the column (the first one always; -J cuts none), from first+1 on.
func prNumbered(o *prOpts, lines []string, first int) []string {
	numWidth := o.numDigits + 1
	sep := o.numSep
	if sep == "\t" {
		numWidth = (o.numDigits/8 + 1) * 8
		sep = strings.Repeat(" ", numWidth-o.numDigits)
	}
	colWidth := prColWidth(o)
	out := make([]string, len(lines))
	n := first + o.firstNum
	for i, l := range lines {
		if !o.join && strings.HasPrefix(l, "\t") && colWidth < 8 {
			// GNU: a first character wider than the column (a tab)
			// ends the line before its number, which is not used.
			out[i] = ""
			continue
		}
		num := o.lineNumber(n)
		n++
		num = num[:len(num)-len(o.numSep)] + sep
		if !(o.join && o.sep == "\t") && strings.IndexByte(l, '\t') >= 0 {
			// GNU's columns expand a tab as they read it: the first
			// character before the number is added, the others after
			var b strings.Builder
			pos := 0
			for k := 0; k < len(l); k++ {
				if l[k] == '\t' {
					b.WriteString(strings.Repeat(" ", 8-pos%8))
					pos += 8 - pos%8
				} else {
					b.WriteByte(l[k])
					pos = max(0, pos+prByteWidth(l[k]))
				}
				if k == 0 {
					pos += numWidth
				}
			}
			l = b.String()
		}
		if !o.join {
			l = prCut(l, colWidth-numWidth, o.marked())
		}
		out[i] = num + l
	}
	return out
}

// prCut is the start of l that fits in keep columns (prByteWidth's),
// its first byte always: GNU reads it before it adds the number, then
// stops at the first byte that leaves the column's position past its
// width (a byte of no width too, when the number alone passed it).
func prCut(l string, keep int, marked bool) string {
	pos := 0
	for k := 0; k < len(l); k++ {
		if l[k] == prMark && marked && k > 0 && pos+prClumpLen(l, k) > keep {
			return l[:k]
		}
		next := max(0, pos+prByteWidth(l[k]))
		if k > 0 && (next > keep || keep < 1) {
			return l[:k]
		}
		pos = next
	}
	return l
}

// prColWidth is the width of one column of output: the page width less
// the separators (and with -m, -n's number, written once a line), shared.
func prColWidth(o *prOpts) int {
	n := max(o.columns, o.widthCols)
	if n > 1 {
		return (o.width - o.mergeNumberWidth() - (n-1)*len(o.sep)) / n
	}
	return o.width
}

// mergeNumberWidth is the room -n's number takes before the first of
// several merged files' columns (0 otherwise): DIGITS and, for its TAB,
// the blanks up to the next multiple of 8, or its one separator.
func (o *prOpts) mergeNumberWidth() int {
	if !o.merge || !o.number || max(o.columns, o.widthCols) < 2 {
		return 0
	}
	if o.numSep == "\t" {
		return o.numDigits + 8 - o.numDigits%8
	}
	return o.numDigits + 1
}

// mergeFirstNumber is -n's number of the first merged row of the first
// page printed: -N's, or (GNU's skip_to_page) one more than the reads of
// the first file the pages skipped made, its end of file among them.
func (o *prOpts) mergeFirstNumber(firstLen int) int {
	rows := prBodyLines(o)
	if o.double {
		rows = max(1, rows/2)
	}
	skipped := max(0, o.firstPage-1) * rows
	if o.firstNumSet {
		return o.firstNum
	}
	return o.firstNum + min(skipped, firstLen+1)
}

// prMerge lays the files side by side, one column each. With -n each
// row starts with a cell of its number (GNU numbers a merged line once),
// ended by a newline when the first file has ended and the second has
// not (GNU then drops the blanks after the number under -s and -J: when
// the second has ended too, its separator writes them); with one file
// named, the
// number is part of its line, as pr without -m has it.
func prMerge(env *Env, o *prOpts, cols [][]string) []prPage {
	n := 0
	for _, c := range cols {
		n = max(n, len(c))
	}
	rows := prBodyLines(o)
	if o.double {
		rows = max(1, rows/2)
	}
	num := o.mergeFirstNumber(len(cols[0])) - max(0, o.firstPage-1)*rows
	numCell := o.number && o.widthCols > 1
	var all prPage
	for r := 0; r < n; r++ {
		if r&0xffff == 0xffff && env.Ctx.Err() != nil {
			return nil
		}
		row := make([]string, 0, len(cols)+1)
		if numCell {
			cell := o.lineNumber(num + r)
			if r >= len(cols[0]) && (len(cols) < 2 || r < len(cols[1])) {
				cell += "\n"
			}
			row = append(row, cell)
		}
		for _, c := range cols {
			cell := ""
			if r < len(c) {
				cell = c[r]
			}
			if o.number && !numCell {
				cell = o.lineNumber(num+r) + cell
			}
			row = append(row, cell)
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

// prPages writes the pages with their headers and trailers, those of
// the range +FIRST:LAST only. The blanks of a header and a line's offset
// are written a piece at a time (-w and -o take any int: one string of
// them was an allocation of gigabytes); it stops, with the error, when
// the run is cancelled or output fails.
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
	for n, page := range pages {
		if env.Ctx.Err() != nil {
			return gnu.ErrCancelled
		}
		if n+1 < o.firstPage || o.lastPage > 0 && n+1 > o.lastPage {
			continue
		}
		if header {
			if err := prHeader(env, w, o, hdr, mt, n+1); err != nil {
				return err
			}
		}
		// the input's form feed after this page, written as it is
		// with -t (GNU: after the page's last line, with no -d line)
		last := n == len(pages)-1
		ffAfter := n+1 < len(o.pageFF) && o.pageFF[n+1] || last && o.endFF && !o.merge
		ffLine := n+1 < len(o.pageFF) && o.pageFFLine[n+1] || last && o.endFFLine && !o.merge
		used := 0
		for r, row := range page {
			if err := prWriteRow(env, w, o, row); err != nil {
				return err
			}
			used++
			if o.double && !(r == len(page)-1 && (ffLine || last && !(header && o.formFeed) && prInputEnded(o, page, rows))) {
				w.WriteByte('\n')
				used++
			}
		}
		switch {
		case !header && ffAfter:
			w.WriteByte('\f')
		case header && o.formFeed:
			// GNU: with -d, a page of one column (or of merged files)
			// that the input does not fill has one more empty line.
			if o.double && (o.columns == 1 || o.merge) && len(page) < rows || len(page) == 0 {
				w.WriteByte('\n') // (an empty page has its empty line too)
			}
			w.WriteByte('\f')
		case header:
			// A page length of 2000000000 is that many newlines.
			if err := writeRepeat(env, w, '\n', uint64(max(rows*prDouble(o)-used, 0))); err != nil {
				return err
			}
			w.WriteString("\n\n\n\n\n")
		}
	}
	return nil
}

// prHeader writes the header of page n: two empty lines, the date, the
// file's name (or -h's header) centred and the page's number, two more.
func prHeader(env *Env, w *bufio.Writer, o *prOpts, hdr string, mt time.Time, n int) error {
	date := mt.In(dateLocation(env)).Format("2006-01-02 15:04")
	if o.dateFormat != "" {
		date = strftimeC(mt.In(dateLocation(env)), o.dateFormat)
	}
	pg := "Page " + strconv.Itoa(n)
	// GNU's printf of "%*s" with " ": at least one blank each
	// side, when the line is too narrow for the three.
	blank := max(0, o.width-len(date)-len(hdr)-len(pg))
	// GNU: -o's margin starts the first line and the third, in tabs
	// where the output is made into tabs (columns, -i) on the first.
	margin := uint64(max(0, o.offset))
	if (o.tabify || o.columns > 1 || o.merge) && margin > 1 {
		tw := uint64(o.outTabWidth)
		if err := writeRepeat(env, w, o.outTab, margin/tw); err != nil {
			return err
		}
		margin %= tw
	}
	if err := writeSpaces(env, w, margin); err != nil {
		return err
	}
	w.WriteString("\n\n")
	if err := writeSpaces(env, w, uint64(max(0, o.offset))); err != nil {
		return err
	}
	w.WriteString(date)
	if err := writeSpaces(env, w, uint64(max(1, blank/2))); err != nil {
		return err
	}
	w.WriteString(hdr)
	if err := writeSpaces(env, w, uint64(max(1, blank-blank/2))); err != nil {
		return err
	}
	w.WriteString(pg + "\n\n\n")
	return nil
}

// prWriteRow writes one row of a page: a line as it is (cut by -W) after
// -o's margin, or with -i the margin and line made into tabs; several
// columns as prRow lays them out.
func prWriteRow(env *Env, w *bufio.Writer, o *prOpts, row []string) error {
	if o.columns == 1 && !o.merge || o.merge && o.widthCols <= 1 {
		if o.tabify {
			if err := o.tabifyLine(env, w, o.truncate(row[0])); err != nil {
				return err
			}
			return w.WriteByte('\n')
		}
		if err := writeSpaces(env, w, uint64(max(0, o.offset))); err != nil {
			return err
		}
		w.WriteString(o.truncate(row[0]) + "\n")
		return nil
	}
	cells := row
	if o.mergeNumberWidth() > 0 {
		cells = row[1:]
	}
	if drop := o.mergeDrops(cells, prColWidth(o)); drop != nil && !slices.Contains(drop, false) {
		return nil // GNU writes nothing of the row, not even its newline
	}
	if err := prRow(env, w, o, row, prColWidth(o)); err != nil {
		return err
	}
	return w.WriteByte('\n')
}

// tabifyLine is a single-column line and -o's margin under -i, as GNU
// pr's print_char writes them: spaces are held and written as -i's CHARs
// to its tab stops (then spaces) when a character follows, so the ones
// that end a line are dropped; a character that does not print (a tab
// among them) takes no column, a backspace takes one back; -n's TAB goes
// to the next stop.
func (o *prOpts) tabifyLine(env *Env, b *bufio.Writer, line string) error {
	tc, tw := o.outTab, o.outTabWidth
	printed, pos := 0, max(0, o.offset)
	var err error
	flush := func() {
		if err == nil {
			printed, err = prBlanks(env, b, tc, tw, printed, pos)
		}
	}
	numSep := -1
	if o.number {
		numSep = o.numDigits
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c == ' ' {
			pos++
			continue
		}
		flush()
		b.WriteByte(c)
		switch {
		case i == numSep && c == '\t':
			pos = (pos/tw + 1) * tw
		case c == '\b':
			pos = max(0, pos-1)
		case c >= 0x20 && c < 0x7f:
			pos++
		}
		printed = pos
	}
	return err
}

// prBlanks writes the blanks from output column printed to column to as
// GNU pr's output routine does: a tab (tc) to each stop of tw while more
// than one column is left, then spaces; a buffer at a time, looking at
// the run's context (writeRepeat), where a width or margin of 2^31-1
// makes hundreds of megabytes. It returns the column reached.
func prBlanks(env *Env, w *bufio.Writer, tc byte, tw, printed, to int) (int, error) {
	if first := (printed/tw + 1) * tw; to-printed > 1 && first <= to {
		n := 1 + (to-first)/tw
		if tw == 1 {
			n = to - printed - 1
		}
		if err := writeRepeat(env, w, tc, uint64(n)); err != nil {
			return printed, err
		}
		printed = first + (n-1)*tw
	}
	if printed < to {
		if err := writeRepeat(env, w, ' ', uint64(to-printed)); err != nil {
			return printed, err
		}
	}
	return max(printed, to), nil
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
// column starts at its place (i*(width+len(sep))), reached with tabs (-i's
// CHAR and WIDTH) where a tab stop fits and spaces after, -o's margin
// too; within a cell a blank (a space, or a tab up to the cell's next
// stop of 8) is only written, the same way, when a character follows
// it, so the blanks that end a row are dropped while a cell that is an
// empty line is still padded to. Before each cell after the first the
// separator is written: its spaces as blanks, the ones that end it at
// once. A cell is cut at the column width; with -J (or the old -s) the
// cells follow each other, joined by the separator, uncut (and with TAB
// as the separator their tabs are as in the input).
//
// The row goes to b as it is made: a page width of 2^31-1 makes rows of
// hundreds of megabytes of tabs, which GNU writes as it goes (session
// 29: llmsh built each in memory, 600 MB, and looked at the run's
// context once a page, 2.4-6 s past a 5 s limit).
func prRow(env *Env, b *bufio.Writer, o *prOpts, row []string, colWidth int) error {
	tc, tw := o.outTab, o.outTabWidth
	printed := 0 // the output column after the last byte written
	var err error
	flush := func(to int) {
		if err == nil {
			printed, err = prBlanks(env, b, tc, tw, printed, to)
		}
	}
	// GNU expands the input's tabs for columns unless they are joined
	// by a TAB: then a tab is written as it is, and takes no column.
	rawTabs := o.join && o.sep == "\t"
	base := max(0, o.offset)
	flush(base) // -o's margin, whatever follows
	pos := base
	var drop []bool
	if o.mergeNumberWidth() > 0 {
		num := row[0]
		row = row[1:]
		drop = o.mergeDrops(row, colWidth)
		pos = prRowNumber(o, b, num, len(row), base, drop != nil && drop[0], flush, &printed)
		base = pos
	} else {
		drop = o.mergeDrops(row, colWidth)
	}
	for i, cell := range row {
		if drop != nil && drop[i] {
			continue // GNU writes nothing of it, no padding before it
		}
		start := base + i*(colWidth+len(o.sep))
		limit := start + colWidth
		if o.number && !o.merge {
			limit = -1 // prNumbered cut the cells as GNU does
		}
		if i > 0 {
			if !o.join {
				pos = start - len(o.sep)
			}
			for k := 0; k < len(o.sep); k++ {
				if o.sep[k] != ' ' {
					flush(pos)
					b.WriteByte(o.sep[k])
					printed++ // past pos when a cell ran over (-n)
				}
				pos++
			}
			flush(pos)
		}
		if o.join {
			start, limit = pos, -1
		}
		pos = start
		for k := 0; k < len(cell); k++ {
			if cell[k] == prMark && o.marked() {
				if limit >= 0 && pos+prClumpLen(cell, k) > limit {
					break
				}
				continue
			}
			next := pos + 1
			if cell[k] == '\t' {
				next = start + ((pos-start)/8+1)*8
			}
			if cell[k] == '\t' && rawTabs {
				flush(pos)
				b.WriteByte('\t')
				printed = pos
				start -= next - pos // its width still counts below
				continue
			}
			w := prByteWidth(cell[k])
			if cell[k] != '\t' {
				next = max(start, pos+w)
			}
			if limit >= 0 && next > limit {
				break
			}
			if cell[k] != ' ' && cell[k] != '\t' {
				flush(pos)
				b.WriteByte(cell[k])
				printed += w // past pos when a cell ran over (-n)
			}
			pos = next
		}
		if o.join && !o.merge && printed == pos {
			// GNU: after a joined cell that ends with no blank, its
			// place is taken to be where the column would start
			// aligned, plus the cell's width (-m counts what it
			// writes).
			pos = base + i*(colWidth+len(o.sep)) + pos - start
			printed = pos
		}
		if err != nil {
			return err
		}
	}
	return err
}

// prRowNumber writes -m -n's number cell num at column base, before the
// cells of the files, and returns the column where they start. When
// drop says that the first file's line is not written, its number is
// not either (blanks take its place).
func prRowNumber(o *prOpts, b *bufio.Writer, num string, cells, base int, drop bool, flush func(int), printed *int) int {
	pos := base
	for k := 0; k < o.numDigits; k++ {
		if num[k] != ' ' && !drop {
			flush(pos)
			b.WriteByte(num[k])
			*printed = pos + 1
		}
		pos++
	}
	switch sep := num[o.numDigits]; {
	case sep == '\t' && cells > 1:
		// GNU: blanks, as the columns' padding
		pos = base + o.mergeNumberWidth()
	case sep == '\t':
		// one file left of several: the TAB as it is, to its stop
		if !drop {
			flush(pos)
			b.WriteByte(sep)
			*printed = (pos/8 + 1) * 8
		}
		pos = (pos/8 + 1) * 8
	default:
		if !drop {
			flush(pos)
			b.WriteByte(sep)
			*printed = pos + 1
		}
		pos++
	}
	if strings.HasSuffix(num, "\n") && o.join {
		pos = *printed // the first file has ended: GNU drops them
	}
	return pos
}

// mergeDrops says, for each cell of a row of -m, whether GNU pr writes
// nothing of it: its first character (a tab, or an escape of -c or -v)
// is wider than the column, which ends the line before anything of it,
// the padding before it and (for the first file's) its number; nil when
// none is.
func (o *prOpts) mergeDrops(cells []string, colWidth int) []bool {
	if !o.merge || o.join {
		return nil
	}
	var drop []bool
	for i, cell := range cells {
		w := 0
		switch {
		case cell == "":
		case cell[0] == '\t':
			w = 8
		case cell[0] == prMark && o.marked():
			w = prClumpLen(cell, 0)
		}
		if w > colWidth {
			if drop == nil {
				drop = make([]bool, len(cells))
			}
			drop[i] = true
		}
	}
	return drop
}

// prByteWidth is the columns a byte of a clumped line takes in GNU pr's
// output: 1 for a printable one, -1 for a backspace, 0 for the others
// (bytes from 0x80 on too, in every locale).
func prByteWidth(c byte) int {
	switch {
	case c >= 0x20 && c < 0x7f:
		return 1
	case c == '\b':
		return -1
	}
	return 0
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
