package builtins

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "xxd", Summary: "make a hex dump or do the reverse", Run: xxd})

const xxdUsage = `Usage:
       xxd [options] [infile [outfile]]
    or
       xxd -r [-s [-]offset] [-c cols] [-ps] [infile [outfile]]
Options:
    -a          toggle autoskip: A single '*' replaces nul-lines. Default off.
    -b          binary digit dump (incompatible with -ps,-i,-r). Default hex.
    -C          capitalize variable names in C include file style (-i).
    -c cols     format <cols> octets per line. Default 16 (-i: 12, -ps: 30).
    -E          show characters in EBCDIC. Default ASCII.
    -e          little-endian dump (incompatible with -ps,-i,-r).
    -g bytes    number of octets per group in normal output. Default 2 (-e: 4).
    -h          print this summary.
    -i          output in C include file style.
    -l len      stop after <len> octets.
    -n name     set the variable name used in C include output (-i).
    -o off      add <off> to the displayed file position.
    -ps         output in postscript plain hexdump style.
    -r          reverse operation: convert (or patch) hexdump into binary.
    -r -s off   revert with <off> added to file positions found in hexdump.
    -d          show offset in decimal instead of hex.
    -s [+][-]seek  start at <seek> bytes abs. (or +: rel.) infile offset.
    -u          use upper case hex letters.
    -v          show version: "xxd 2022-01-14 by Juergen Weigert et al.".
`

// xxdStrtol is C's strtol(s, NULL, 0): an optional sign, then a decimal,
// 0x hexadecimal or 0 octal number; parsing stops at the first other
// character, and no digits at all is 0.
func xxdStrtol(s string) int64 {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	base := int64(10)
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && gnu.DigitValue(s[2]) < 16 {
		base, s = 16, s[2:]
	} else if len(s) > 1 && s[0] == '0' {
		base, s = 8, s[1:]
	}
	var v int64
	for i := 0; i < len(s); i++ {
		d := int64(gnu.DigitValue(s[i]))
		if d < 0 || d >= base {
			break
		}
		if v > (1<<62)/base {
			v = 1 << 62
			break
		}
		v = v*base + d
	}
	if neg {
		return -v
	}
	return v
}

type xxdOpts struct {
	autoskip, bits, upper, ps, cinc, capital, decimal, revert bool
	little, ebcdic                                            bool
	cols, group                                               int
	colsGiven                                                 bool
	length                                                    int64
	seek                                                      int64
	relSeek, negSeek, seekGiven                               bool
	displayOff                                                int64
	varName                                                   *string
}

func xxd(env *Env) int {
	o := &xxdOpts{group: -1, length: -1, relSeek: true}
	args, st, done := o.parse(env, env.Args[1:])
	if done {
		return st
	}
	if st := o.layout(env); st != 0 {
		return st
	}
	if len(args) > 2 {
		io.WriteString(env.Stderr, xxdUsage)
		return 1
	}
	return o.run(env, args)
}

// parse reads xxd's own option syntax: each option is matched by its
// first two characters ("-cols" is -c), "--x" is "-x", values attached or
// next. It returns the operands, or done with the status to exit with.
func (o *xxdOpts) parse(env *Env, args []string) (_ []string, st int, done bool) {
	value := func(pp, longTail string) (string, bool) {
		if len(pp) > 2 && !strings.HasPrefix(longTail, pp[2:]) {
			return pp[2:], true
		}
		if len(args) < 2 {
			return "", false
		}
		args = args[1:]
		return args[0], true
	}
	for len(args) > 0 {
		a := args[0]
		if a == "--help" {
			io.WriteString(env.Stdout, xxdUsage)
			return nil, 0, true
		}
		pp := a
		if strings.HasPrefix(a, "--") && len(a) > 2 {
			pp = a[1:]
		}
		if a == "--" {
			args = args[1:]
			break
		}
		if len(pp) < 2 || pp[0] != '-' {
			break
		}
		if pp[1] == 'v' {
			fmt.Fprintln(env.Stderr, "xxd 2022-01-14 by Juergen Weigert et al.")
			return nil, 0, true
		}
		if !o.option(pp, value) {
			io.WriteString(env.Stderr, xxdUsage)
			return nil, 1, true
		}
		args = args[1:]
	}
	return args, 0, false
}

// option sets the option pp, taking its value from value; false for a
// usage error.
func (o *xxdOpts) option(pp string, value func(pp, longTail string) (string, bool)) bool {
	var v string
	ok := true
	switch pp[1] {
	case 'a':
		o.autoskip = !o.autoskip
	case 'b':
		o.bits, o.ps, o.cinc, o.little = true, false, false, false
	case 'e':
		o.bits, o.ps, o.cinc, o.little = false, false, false, true
	case 'E':
		o.ebcdic = true
	case 'u':
		o.upper = true
	case 'p':
		o.bits, o.ps, o.cinc, o.little = false, true, false, false
	case 'i':
		o.bits, o.ps, o.cinc, o.little = false, false, true, false
	case 'C':
		o.capital = true
	case 'd':
		o.decimal = true
	case 'r':
		o.revert = true
	case 'c':
		if strings.HasPrefix(pp[2:], "apitalize") && len(pp) > 2 {
			o.capital = true
			break
		}
		if v, ok = value(pp, "ols"); ok {
			o.cols, o.colsGiven = int(max(min(xxdStrtol(v), 1<<30), -1<<30)), true
		}
	case 'g':
		if v, ok = value(pp, "roup"); ok {
			o.group = int(max(min(xxdStrtol(v), 1<<30), -1<<30))
		}
	case 'o':
		if v, ok = value(pp, "ffset"); ok {
			o.displayOff = xxdStrtol(v)
		}
	case 's':
		if v, ok = value(pp, "eek"); ok {
			o.seekGiven, o.relSeek, o.negSeek = true, false, false
			if strings.HasPrefix(v, "+") {
				o.relSeek, v = true, v[1:]
			}
			if strings.HasPrefix(v, "-") {
				o.negSeek, v = true, v[1:]
			}
			o.seek = xxdStrtol(v)
		}
	case 'l':
		if v, ok = value(pp, "en"); ok {
			o.length = xxdStrtol(v)
		}
	case 'n':
		if v, ok = value(pp, "ame"); ok {
			o.varName = &v
		}
	default:
		return false
	}
	return ok
}

// layout fills in the columns and group size the options left out, and
// checks them.
func (o *xxdOpts) layout(env *Env) int {
	// As in xxd 2022-01-14, the last of -b, -p and -i wins.
	if !o.colsGiven || (o.cols == 0 && !o.ps) {
		switch {
		case o.ps:
			o.cols = 30
		case o.bits:
			o.cols = 6
		case o.cinc:
			o.cols = 12
		default:
			o.cols = 16
		}
	}
	if o.group < 0 {
		switch {
		case o.bits:
			o.group = 1
		case o.ps || o.cinc:
			o.group = 0
		case o.little:
			o.group = 4
		default:
			o.group = 2
		}
	}
	if (o.ps && o.cols < 0) || (!o.ps && o.cols < 1) || (!o.ps && !o.cinc && o.cols > 256) {
		env.Errorf("invalid number of columns (max. 256).")
		return 1
	}
	if o.group < 1 || o.group > o.cols {
		o.group = o.cols
	} else if o.little && o.group&(o.group-1) != 0 {
		env.Errorf("number of octets per group must be a power of 2 with -e.")
		return 1
	}
	return 0
}

// run opens the input and output operands and dumps (or reverts) one to
// the other.
func (o *xxdOpts) run(env *Env, args []string) int {
	var in io.Reader = env.Stdin
	var inFile File
	inName := ""
	if len(args) >= 1 && args[0] != "-" {
		inName = args[0]
		f, err := env.FS.OpenFile(env.Abs(inName), os.O_RDONLY)
		if err == nil {
			var fi os.FileInfo
			if fi, err = f.Stat(); err == nil && fi.IsDir() {
				f.Close()
				err = &os.PathError{Op: "read", Path: inName, Err: syscall.EISDIR}
			}
		}
		switch {
		case errors.Is(err, syscall.EISDIR):
			// xxd opens a directory (and its output) and fails as it
			// reads it: a dump says so (-i after its header), -r
			// takes it for an empty input.
			in = errReader{err}
		case err != nil:
			env.PathError(inName, err)
			return 2
		default:
			defer f.Close()
			in, inFile = f, f
		}
	}
	var out io.Writer = env.Stdout
	var outFile File
	if len(args) == 2 && args[1] != "-" {
		var f File
		var err error
		if o.revert {
			f, err = env.FS.OpenFile(env.Abs(args[1]), os.O_RDWR|os.O_CREATE)
		} else {
			f, err = env.Create(args[1])
		}
		if err != nil {
			env.PathError(args[1], err)
			return 3
		}
		out, outFile = f, f
	}
	st := xxdRun(env, o, in, inFile, inName, out, outFile)
	if outFile != nil {
		if err := outFile.Close(); err != nil && st == 0 {
			env.PathError(args[1], err)
			st = 3
		}
	}
	return st
}

func xxdRun(env *Env, o *xxdOpts, in io.Reader, inFile File, inName string, out io.Writer, outFile File) int {
	if o.revert {
		if o.cinc || o.bits || o.little {
			env.Errorf("Sorry, cannot revert this type of hexdump")
			return 255
		}
		base := o.seek
		if o.negSeek {
			base = -base
		}
		st := xxdRevert(env, o, bufio.NewReaderSize(in, 64<<10), out, outFile, base)
		if st == 0 && inName == "" && env.StdinClosed {
			// xxd's fclose of a closed standard input fails.
			env.Errorf("%s", ErrText(syscall.EBADF))
			return 2
		}
		return st
	}
	var seekoff int64
	if o.seekGiven || o.seek != 0 {
		off := o.seek
		if o.negSeek {
			off = -off
		}
		done := false
		var seeker io.Seeker = inFile
		if s, ok := in.(io.Seeker); ok && inFile == nil {
			seeker = s // a redirected file: the descriptor the shell shares
		}
		if seeker != nil {
			whence := io.SeekStart
			if o.relSeek {
				whence = io.SeekCurrent
			} else if o.negSeek {
				whence = io.SeekEnd
			}
			if pos, err := seeker.Seek(off, whence); err == nil {
				seekoff, done = pos, true
			}
		}
		if _, ok := in.(unreadable); ok && !done && !env.StdinClosed {
			// open for writing only (0>/dev/null): xxd's fseek succeeds,
			// its first read fails.
			env.Errorf("%s", ErrText(syscall.EBADF))
			return 2
		}
		if !done {
			if o.negSeek {
				env.Errorf("Sorry, cannot seek.")
				return 4
			}
			n, err := io.CopyN(io.Discard, in, off)
			if errors.Is(err, gnu.ErrCancelled) {
				return 1
			}
			if err != nil && err != io.EOF {
				// xxd's getc_or_die: a failed read is perror's.
				env.Errorf("%s", ErrText(err))
				return 2
			}
			if err != nil || n < off {
				env.Errorf("Sorry, cannot seek.")
				return 4
			}
			seekoff = off
		}
	}
	br := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriterSize(out, 64<<10)
	if o.length >= 0 {
		br = bufio.NewReaderSize(io.LimitReader(br, o.length), 64<<10)
	}
	hexx := "0123456789abcdef"
	if o.upper {
		hexx = "0123456789ABCDEF"
	}
	var err error
	switch {
	case o.cinc:
		err = xxdInclude(env, o, br, w, inName, hexx)
	case o.ps:
		err = xxdPlain(env, o, br, w, hexx)
	default:
		err = xxdNormal(env, o, br, w, hexx, seekoff)
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		if errors.Is(err, gnu.ErrCancelled) || IsBrokenPipe(err) {
			return 1
		}
		var we gnu.WriteError
		if errors.As(err, &we) {
			env.Errorf("%s", ErrText(err))
			return 3
		}
		// xxd's perror, then exit, which flushes what -i's header (or
		// the dump so far) left in the output buffer.
		env.Errorf("%s", ErrText(err))
		w.Flush()
		return 2
	}
	return 0
}

func xxdInclude(env *Env, o *xxdOpts, br *bufio.Reader, w *bufio.Writer, inName, hexx string) error {
	name := inName
	if o.varName != nil {
		name = *o.varName
	}
	writeName := func() {
		if name != "" && name[0] >= '0' && name[0] <= '9' {
			w.WriteString("__")
		}
		for i := 0; i < len(name); i++ {
			c := name[i]
			switch {
			case c >= 'a' && c <= 'z':
				if o.capital {
					c -= 'a' - 'A'
				}
			case c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
			default:
				c = '_'
			}
			w.WriteByte(c)
		}
	}
	if name != "" {
		w.WriteString("unsigned char ")
		writeName()
		w.WriteString("[] = {\n")
	}
	p := 0
	for {
		c, ok, err := xxdByte(env, br, p)
		if !ok {
			if err != nil {
				return err
			}
			break
		}
		switch {
		case p == 0:
			w.WriteString("  ")
		case p%o.cols == 0:
			w.WriteString(",\n  ")
		default:
			w.WriteString(", ")
		}
		if o.bits {
			w.WriteString("0b")
			for i := 7; i >= 0; i-- {
				w.WriteByte('0' + (c>>i)&1)
			}
		} else if o.upper {
			fmt.Fprintf(w, "0X%c%c", hexx[c>>4], hexx[c&15])
		} else {
			fmt.Fprintf(w, "0x%c%c", hexx[c>>4], hexx[c&15])
		}
		p++
	}
	if p > 0 {
		w.WriteString("\n")
	}
	if name != "" {
		w.WriteString("};\nunsigned int ")
		writeName()
		if o.capital {
			fmt.Fprintf(w, "_LEN = %d;\n", p)
		} else {
			fmt.Fprintf(w, "_len = %d;\n", p)
		}
	}
	return nil
}

// xxdByte reads the next byte of input for the -i and -p dumps; ok is
// false at the end (err nil) or on an error. Every 64 Ki bytes (n counts
// them) it checks whether the run was cancelled.
func xxdByte(env *Env, br *bufio.Reader, n int) (c byte, ok bool, err error) {
	c, err = br.ReadByte()
	if err == io.EOF {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	if n&0xffff == 0 && env.Ctx.Err() != nil {
		return 0, false, gnu.ErrCancelled
	}
	return c, true, nil
}

func xxdPlain(env *Env, o *xxdOpts, br *bufio.Reader, w *bufio.Writer, hexx string) error {
	p := o.cols
	n := 0
	for {
		c, ok, err := xxdByte(env, br, n)
		if !ok {
			if err != nil {
				return err
			}
			break
		}
		n++
		w.WriteByte(hexx[c>>4])
		w.WriteByte(hexx[c&15])
		if o.cols > 0 {
			p--
			if p == 0 {
				if err := w.WriteByte('\n'); err != nil {
					return gnu.WriteError{Err: err}
				}
				p = o.cols
			}
		}
	}
	if o.cols == 0 || p < o.cols {
		w.WriteByte('\n')
	}
	return nil
}

// xxdSkipper writes xxd's lines as its xxdline does: with -a, runs of
// all-zero lines show as one '*' (the first of the run is shown, and the
// last of the file).
type xxdSkipper struct {
	w        *bufio.Writer
	zline    []byte
	zeroSeen int
}

// emit writes line l; nz is its count of non-zero bytes, 1 without -a, -1
// for the last line of the file.
func (s *xxdSkipper) emit(l []byte, nz int) error {
	if nz == 0 && s.zeroSeen == 1 {
		s.zline = append(s.zline[:0], l...)
	}
	if nz == 0 && s.zeroSeen != 0 {
		s.zeroSeen++
		return nil
	}
	if nz == 0 {
		s.zeroSeen++
	}
	if nz != 0 {
		if nz < 0 {
			s.zeroSeen--
		}
		if s.zeroSeen == 2 {
			s.w.Write(s.zline)
		}
		if s.zeroSeen > 2 {
			s.w.WriteString("*\n")
		}
	}
	if nz >= 0 || s.zeroSeen > 0 {
		if _, err := s.w.Write(l); err != nil {
			return gnu.WriteError{Err: err}
		}
	}
	if nz != 0 {
		s.zeroSeen = 0
	}
	return nil
}

func xxdNormal(env *Env, o *xxdOpts, br *bufio.Reader, w *bufio.Writer, hexx string, seekoff int64) error {
	grplen := 2*o.group + 1
	if o.bits {
		grplen = 8*o.group + 1
	}
	asciiCol := 12 + (grplen*o.cols-1)/o.group
	sk := &xxdSkipper{w: w}
	emit := sk.emit
	var n int64
	p, nonzero, end, shift := 0, 0, 0, 0
	var line []byte
	for {
		e, err := br.ReadByte()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if p == 0 {
			if n&0xffff == 0 && env.Ctx.Err() != nil {
				return gnu.ErrCancelled
			}
			var addr string
			if o.decimal {
				addr = fmt.Sprintf("%08d:", n+seekoff+o.displayOff)
			} else {
				addr = fmt.Sprintf("%08x:", n+seekoff+o.displayOff)
			}
			// An address wider than eight digits pushes the line right.
			shift = len(addr) - 9
			// Room for -e's reordered groups, which may reach past the
			// ASCII column as in xxd (the line is cut at its newline).
			need := shift + asciiCol + o.cols + 1 + grplen*(o.cols+o.group)/o.group + 12
			if cap(line) < need {
				line = make([]byte, need)
			}
			line = line[:need]
			for i := range line {
				line[i] = ' '
			}
			copy(line, addr)
		}
		pos := p
		if o.little {
			pos = p ^ (o.group - 1)
		}
		c := shift + 10 + (grplen*pos)/o.group
		if o.bits {
			for i := 7; i >= 0; i-- {
				line[c] = '0' + (e>>i)&1
				c++
			}
		} else {
			line[c] = hexx[e>>4]
			line[c+1] = hexx[e&15]
		}
		switch {
		case o.ebcdic:
			line[shift+asciiCol+p] = xxdEBCDIC[e]
		case e > 31 && e < 127:
			line[shift+asciiCol+p] = e
		default:
			line[shift+asciiCol+p] = '.'
		}
		if e != 0 {
			nonzero++
		}
		n++
		p++
		if p == o.cols {
			end = shift + asciiCol + p
			line[end] = '\n'
			nz := 1
			if o.autoskip {
				nz = nonzero
			}
			if err := emit(line[:end+1], nz); err != nil {
				return err
			}
			nonzero, p = 0, 0
		}
	}
	if p > 0 {
		end = shift + asciiCol + p
		line[end] = '\n'
		return emit(line[:end+1], 1)
	} else if o.autoskip && n > 0 {
		return emit(line[:end+1], -1)
	}
	return nil
}

// xxdRevert turns a hex dump back into bytes (xxd's huntype): each line is
// an offset, a colon and up to cols pairs of hex digits; two garbage
// characters in a row end a line's data. With -p only the digits count.
// xxdRevertFail reports a write error of -r.
func xxdRevertFail(env *Env, err error) int {
	if IsBrokenPipe(err) || errors.Is(err, gnu.ErrCancelled) {
		return 1
	}
	env.Errorf("%s", ErrText(err))
	return 3
}

// xxdSeek moves -r's output from *haveOff to target: by seeking in
// outFile (not past its size), then by writing zeros; a status other than
// 0 ends the run.
func xxdSeek(env *Env, w *bufio.Writer, outFile File, size int64, haveOff *int64, target int64) int {
	if err := w.Flush(); err != nil {
		return xxdRevertFail(env, err)
	}
	if outFile != nil {
		pos := min(target, max(size, 0))
		if target >= 0 {
			if _, err := outFile.Seek(pos, io.SeekStart); err == nil {
				*haveOff = pos
			}
		}
	}
	if target < *haveOff {
		env.Errorf("Sorry, cannot seek backwards.")
		return 5
	}
	zeros := make([]byte, 64<<10)
	for *haveOff < target {
		if env.Ctx.Err() != nil {
			return 1
		}
		n := min(target-*haveOff, int64(len(zeros)))
		if _, err := w.Write(zeros[:n]); err != nil {
			return xxdRevertFail(env, err)
		}
		*haveOff += n
	}
	return 0
}

func xxdRevert(env *Env, o *xxdOpts, br *bufio.Reader, out io.Writer, outFile File, base int64) int {
	cols := o.cols
	w := bufio.NewWriterSize(out, 64<<10)
	var haveOff, wantOff int64
	n1, n2, n3 := -1, 0, 0
	ignGarb := true
	p := cols
	fail := func(err error) int { return xxdRevertFail(env, err) }
	skipEOL := func() (byte, error) {
		for {
			c, err := br.ReadByte()
			if err != nil {
				return 0, err
			}
			if c == '\n' {
				return c, nil
			}
		}
	}
	var size int64 = -1
	if outFile != nil {
		if fi, err := outFile.Stat(); err == nil {
			size = fi.Size()
		}
	}
	for count := 0; ; count++ {
		c, err := br.ReadByte()
		if errors.Is(err, gnu.ErrCancelled) {
			return 1
		}
		if err != nil {
			break // xxd's getc takes a failed read for the end (a directory: 0)
		}
		if count&0xffff == 0 && env.Ctx.Err() != nil {
			return 1
		}
		if c == '\r' {
			continue
		}
		if o.ps && (c == ' ' || c == '\n' || c == '\t') {
			continue
		}
		n3, n2 = n2, n1
		n1 = gnu.DigitValue(c)
		if n1 >= 16 {
			n1 = -1
		}
		if n1 == -1 && ignGarb {
			continue
		}
		ignGarb = false
		if !o.ps && p >= cols {
			if n1 < 0 {
				p = 0
				continue
			}
			wantOff = wantOff<<4 | int64(n1)
			continue
		}
		if base+wantOff != haveOff {
			if st := xxdSeek(env, w, outFile, size, &haveOff, base+wantOff); st != 0 {
				return st
			}
		}
		if n2 >= 0 && n1 >= 0 {
			if err := w.WriteByte(byte(n2<<4 | n1)); err != nil {
				return fail(err)
			}
			haveOff++
			wantOff++
			if size >= 0 && haveOff > size {
				size = haveOff
			}
			n1 = -1
			if !o.ps {
				p++
				if p >= cols {
					if c, err = skipEOL(); err != nil {
						break
					}
				}
			}
		} else if n1 < 0 && n2 < 0 && n3 < 0 {
			if c, err = skipEOL(); err != nil {
				break
			}
		}
		if c == '\n' {
			if !o.ps {
				wantOff = 0
			}
			p = cols
			ignGarb = true
		}
	}
	if err := w.Flush(); err != nil {
		return fail(err)
	}
	return 0
}

// xxdEBCDIC is the character column of xxd -E for each byte read as
// EBCDIC: its ASCII character when printable, else '.'.
const xxdEBCDIC = "................................................................" +
	" ...........<(+|&.........!$*);~-/.........,%_>?.........`:#@'=\"" +
	".abcdefghi.......jklmnopqr^.......stuvwxyz...[...............].." +
	"{ABCDEFGHI......}JKLMNOPQR......\\.STUVWXYZ......0123456789......"
