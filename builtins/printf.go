package builtins

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

// printf is coreutils' printf, which xargs, find -exec, timeout and env
// run; a script's own printf is bash's builtin (ShellPrintf), as echo is.
var _ = register(Builtin{Name: "printf", Summary: "format and print data (coreutils' printf, for env, xargs, find -exec; scripts use the shell's printf)", Run: printfCmd})

// printfStart stands for the shell's start time, the time of %(FMT)T's
// argument -2.
var printfStart = time.Now()

const printfUsage = "printf: usage: printf [-v var] format [arguments]\n"

// printfMaxWidth is the largest field width or precision, C's INT_MAX as
// in bash: the padding and the zeros of a conversion are written a piece
// at a time (printfState.repeat), so that the output's cap stops a width
// of gigabytes before memory does.
const printfMaxWidth = 1<<31 - 1

// printfFieldMax caps the widths and precisions of printfField, whose
// text is built whole (stat's and find's directives).
const printfFieldMax = 1 << 24

type printfState struct {
	env    *Env
	out    bytes.Buffer
	args   []string
	mark   int  // p.out holds the output of the passes done up to here
	next   int  // index of the next argument
	failed bool // an argument was not a valid number
	gnu    bool // coreutils' printf, not bash's
	// dead: coreutils' printf died on a bad \u or \U (session 23).
	dead bool
	werr error
	// flushed counts the bytes taken out of out so far; passBase is the
	// count of bytes output when the pass began (%n counts from there).
	flushed, passBase int
}

// total is the count of bytes printf has output so far.
func (p *printfState) total() int { return p.flushed + p.out.Len() }

// printfCmd is coreutils' printf: --help and --version only as the sole
// argument, no -v, "missing operand", the escapes and conversions of
// coreutils (\c ends the output, %q quotes as ls does, no %(FMT)T, %Q or
// %n), its words for bad numbers and a warning for unused arguments.
func printfCmd(env *Env) int {
	args := env.Args[1:]
	if len(args) == 1 && args[0] == "--help" {
		NewFlags(env, "Print ARGUMENT(s) according to FORMAT, as coreutils' printf does: the\n"+
			"conversions %d %i %o %u %x %X %e %E %f %F %g %G %a %A %c %s %b %q and %%, with\n"+
			"the flags -+ #0, a width and a precision (* takes them from the arguments);\n"+
			"the escapes \\\" \\\\ \\a \\b \\c \\e \\f \\n \\r \\t \\v \\NNN \\xHH \\uHHHH \\UHHHHHHHH.\n"+
			"The FORMAT is reused until the ARGUMENTs are consumed. A script's own\n"+
			"printf is bash's (help printf).", "FORMAT [ARGUMENT]...", "OPTION").PrintHelp(env.Stdout)
		return 0
	}
	if len(args) == 1 && args[0] == "--version" {
		fmt.Fprintf(env.Stdout, "%s (llmsh) %s\n", env.Name(), Version)
		return 0
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return env.UsageErrorf(1, "missing operand")
	}
	p := &printfState{env: env, args: args[1:], gnu: true}
	return p.run(args[0])
}

// ShellPrintf is bash's printf builtin, which the shell runs for a
// script's printf (printf -v VAR stays with the interpreter, which can
// assign variables).
func ShellPrintf(env *Env) int {
	args := env.Args[1:]
	if len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		switch {
		case args[0] == "--":
			args = args[1:]
		case args[0] == "--help":
			NewFlags(env, "Format and print ARGUMENTS under control of the FORMAT, as bash's printf does:\n"+
				"%d %i %o %u %x %X %e %E %f %F %g %G %a %A %c %s %b %q %Q %(FMT)T and %%, with\n"+
				"the flags -+ #0, a width and a precision (* takes them from the arguments).\n"+
				"The format is reused until the arguments are consumed. -v VAR (in a script)\n"+
				"assigns the output to VAR instead of printing it.", "[-v var] format [arguments]").PrintHelp(env.Stdout)
			return 0
		case strings.HasPrefix(args[0], "-v"):
			fmt.Fprint(env.Stderr, env.ShellName()+"printf: -v: only a script's own printf can assign a variable\n"+printfUsage)
			return 2
		default:
			fmt.Fprintf(env.Stderr, "%sprintf: %s: invalid option\n%s", env.ShellName(), args[0][:2], printfUsage)
			return 2
		}
	}
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, printfUsage)
		return 2
	}
	p := &printfState{env: env, args: args[1:]}
	return p.run(args[0])
}

// run prints the format until the arguments are used up and returns the
// status.
func (p *printfState) run(format string) int {
	env := p.env
	status := 0
	stopped := false
	for {
		before := p.next
		ok, stop := p.pass(format)
		if p.dead {
			ok = false
		}
		// bash's stdout is line-buffered: the output stays buffered
		// until an error message must follow its lines (flushPasses).
		p.mark = p.out.Len()
		if p.mark > 32<<10 {
			p.flush()
		}
		if !ok {
			status = 1
			break
		}
		if stop {
			// bash returns at \c before it counts bad numbers.
			p.failed, stopped = false, true
			break
		}
		if p.next == before || p.next >= len(p.args) || p.werr != nil {
			break
		}
	}
	if p.gnu && status == 0 && !stopped && p.werr == nil && p.next < len(p.args) {
		// Only a pass that used no argument leaves some (coreutils).
		p.errorf("warning: ignoring excess arguments, starting with %s", env.Quote(p.args[p.next]))
	}
	p.flush()
	if p.werr != nil {
		if !IsBrokenPipe(p.werr) {
			if p.gnu {
				env.Errorf("write error: %s", ErrText(p.werr))
			} else {
				fmt.Fprintf(env.Stderr, "%sprintf: write error: %s\n", env.ShellName(), ErrText(p.werr))
			}
		}
		return 1
	}
	if p.failed {
		status = 1
	}
	return status
}

// errorf reports on stderr at once; like bash's, printf's own output is
// buffered until it ends, the buffer fills or a message follows its
// complete lines (flushPasses). Coreutils' printf writes all its output
// so far first.
func (p *printfState) errorf(format string, a ...any) {
	if p.gnu {
		p.flush() // coreutils' error() flushes stdout first
		p.env.Errorf(format, a...)
		return
	}
	p.flushPasses()
	fmt.Fprintf(p.env.Stderr, p.env.ShellName()+"printf: "+format+"\n", a...)
}

func (p *printfState) flush() {
	p.flushed += p.out.Len()
	if p.out.Len() > 0 && p.werr == nil {
		_, p.werr = p.env.Stdout.Write(p.out.Bytes())
	}
	p.out.Reset()
	p.mark = 0
}

// flushPasses writes the output so far up to its last newline, which
// bash (its stdout line-buffered) has flushed before a message.
func (p *printfState) flushPasses() {
	n := bytes.LastIndexByte(p.out.Bytes(), '\n') + 1
	if n == 0 {
		return
	}
	p.flushed += n
	if p.werr == nil {
		_, p.werr = p.env.Stdout.Write(p.out.Next(n))
	} else {
		p.out.Next(n)
	}
	p.mark = max(p.mark-n, 0)
}

// pass runs the format once. ok is false after a fatal format error; stop
// is true after \c in a %b argument.
func (p *printfState) pass(f string) (ok, stop bool) {
	p.passBase = p.total()
	for i := 0; i < len(f); i++ {
		if p.out.Len() > 32<<10 {
			p.flush()
			if p.werr != nil {
				return true, true
			}
		}
		c := f[i]
		if c == '\\' {
			n, sawC := p.escape(&p.out, f[i+1:], false)
			if sawC {
				// coreutils: \c in the format ends the output too.
				return true, true
			}
			i += n
			continue
		}
		if c != '%' {
			p.out.WriteByte(c)
			continue
		}
		start := i
		i++
		if i < len(f) && f[i] == '%' {
			p.out.WriteByte('%')
			continue
		}
		var sp printfSpec
		sp, i = p.spec(f, i)
		if i >= len(f) {
			if p.gnu {
				p.errorf("%s: invalid conversion specification", f[start:])
			} else {
				p.errorf("`%s': missing format character", f[start:])
			}
			return false, false
		}
		sp.conv = f[i]
		if i, ok, stop = p.convert(f, start, i, sp); !ok || stop {
			return ok, stop
		}
	}
	return true, false
}

// spec parses the flags, width, precision and length of the conversion
// specification at f[i:], just after its '%'; it returns the index of
// the conversion character.
func (p *printfState) spec(f string, i int) (printfSpec, int) {
	var sp printfSpec
	sp.prec = -1
flags:
	for ; i < len(f); i++ {
		switch f[i] {
		case '-':
			sp.minus, sp.minusFlag = true, true
		case '+':
			sp.plus = true
		case ' ':
			sp.space = true
		case '#':
			sp.hash = true
		case '0':
			sp.zero = true
		case '\'':
			sp.group = true
		default:
			break flags
		}
	}
	if i < len(f) && f[i] == '*' {
		i++
		w := p.intArg()
		if w < 0 {
			sp.minus = true
			w = -w
		}
		sp.width = min(w, printfMaxWidth)
	} else {
		var w int64
		for ; i < len(f) && f[i] >= '0' && f[i] <= '9'; i++ {
			w = min(w*10+int64(f[i]-'0'), printfMaxWidth+1)
			sp.cWidth = sp.cWidth*10 + int32(f[i]-'0')
		}
		sp.width, sp.wideWidth = int(min(w, printfMaxWidth)), w > printfMaxWidth
	}
	if i < len(f) && f[i] == '.' {
		i++
		if i < len(f) && f[i] == '*' {
			i++
			pr := p.intArg()
			sp.precNum, sp.precStar = true, true
			if pr >= 0 {
				sp.prec = min(pr, printfMaxWidth)
			}
		} else {
			neg := i < len(f) && f[i] == '-'
			if neg {
				i++
			}
			ds, pr := i, int64(0)
			for ; i < len(f) && f[i] >= '0' && f[i] <= '9'; i++ {
				pr = min(pr*10+int64(f[i]-'0'), printfMaxWidth+1)
				sp.cPrec = sp.cPrec*10 + int32(f[i]-'0')
			}
			sp.widePrec = !neg && pr > printfMaxWidth
			if neg {
				sp.negPrec = "-" + f[ds:i]
			} else {
				sp.prec, sp.precNum = int(min(pr, printfMaxWidth)), i > ds
			}
		}
	}
	for i < len(f) && strings.IndexByte("hjlLtz", f[i]) >= 0 {
		i++
	}
	return sp, i
}

// convert prints the conversion sp, whose specification starts at
// f[start] and whose conversion character is f[i]; it returns the index of
// the last character used, and pass's ok and stop.
func (p *printfState) convert(f string, start, i int, sp printfSpec) (int, bool, bool) {
	if sp.negPrec != "" && strings.IndexByte("csdiouxXeEfFgGaA", sp.conv) >= 0 {
		// bash hands "%.-N" to the C library, which prints such an
		// invalid specification back (its argument is used up).
		p.unknown(sp)
		return i, true, false
	}
	if (sp.wideWidth || sp.widePrec) && !p.gnu {
		return p.wideConvert(f, start, i, sp)
	}
	if sp.negPrec != "" {
		// bash's own conversions read the precision as 0.
		sp.prec = 0
		if sp.conv == 'q' || sp.conv == 'Q' {
			p.arg()
			p.pad(nil, sp)
			return i, true, false
		}
	}
	if p.gnu && strings.IndexByte("qQ(n", sp.conv) >= 0 && (sp.conv != 'q' || sp.negPrec != "") {
		// Not coreutils' conversions (and it has no negative precision).
		p.errorf("%s: invalid conversion specification", f[start:i+1])
		return i, false, false
	}
	if p.gnu && (sp.conv == 'b' || sp.conv == 'q') && i-start > 1 {
		// coreutils knows %b and %q only right after the %: no flags,
		// width or precision.
		p.errorf("%s: invalid conversion specification", f[start:i+1])
		return i, false, false
	}
	if p.gnu && sp.conv == 'q' {
		// coreutils quotes as ls does (shell-escape): 'a b', not a\ b.
		a, _ := p.arg()
		p.str(p.env.QuoteF(a), sp)
		return i, true, false
	}
	switch sp.conv {
	case 'c':
		var b []byte
		if a, ok := p.arg(); ok && a != "" {
			b = []byte{a[0]}
		} else {
			b = []byte{0}
		}
		sp.prec = -1
		p.pad(b, sp)
	case 's':
		a, _ := p.arg()
		p.str(a, sp)
	case 'b':
		a, _ := p.arg()
		s, stopped := p.bArg(a)
		p.str(s, sp)
		if stopped {
			return i, true, true
		}
	case 'q', 'Q':
		a, _ := p.arg()
		if sp.conv == 'Q' && sp.precNum {
			// A written precision cuts the unquoted string (a bare
			// "." leaves precision 0 for the quoted one); bash
			// ignores a * precision here.
			if !sp.precStar && sp.prec >= 0 && sp.prec < len(a) {
				a = a[:sp.prec]
			}
			sp.prec = -1
		}
		p.str(printfQuote(a, p.byteLocale()), sp)
	case '(':
		return p.timeConv(f, start, i, sp), true, false
	case 'n':
		// The count of bytes this pass has output so far, assigned to
		// the variable the argument names (none or an empty one:
		// nothing), as bash's.
		name, ok := p.arg()
		switch {
		case p.env.Shell == nil:
			// printf run as a program (env printf): GNU's refusal.
			p.errorf("%%n: invalid conversion specification")
			return i, false, false
		case !ok, name == "":
		case !printfName(name):
			p.errorf("`%s': not a valid identifier", name)
			return i, false, false
		default:
			p.env.Shell.Assign(name, strconv.Itoa(p.total()-p.passBase))
		}
	case 'd', 'i':
		v, _ := p.intVal(false)
		p.integer(int64(v) < 0, printfAbs(int64(v)), sp)
	case 'o', 'u', 'x', 'X':
		v, _ := p.intVal(true)
		p.integer(false, v, sp)
	case 'e', 'E', 'f', 'F', 'g', 'G', 'a', 'A':
		p.float(p.floatArg(), sp)
	default:
		if p.gnu {
			p.errorf("%s: invalid conversion specification", f[start:i+1])
		} else {
			p.errorf("`%c': invalid format character", sp.conv)
		}
		return i, false, false
	}
	return i, true, false
}

// wideConvert prints a conversion whose width or precision, written in
// the format, is past INT_MAX (llmsh): bash's own conversions (%b %q %Q
// %(…)T) read it as a C int, which wraps (a negative width left-justifies,
// a negative precision is none); glibc's printf prints nothing for the
// others (EOVERFLOW), though their argument is used.
func (p *printfState) wideConvert(f string, start, i int, sp printfSpec) (int, bool, bool) {
	wide := sp
	sp.wideWidth, sp.widePrec = false, false
	switch sp.conv {
	case 'b', 'q', 'Q', '(':
		if wide.wideWidth {
			w := int64(sp.cWidth)
			if w < 0 {
				sp.minus, w = true, -w
			}
			sp.width = int(min(w, printfMaxWidth))
		}
		if wide.widePrec {
			sp.prec = max(int(sp.cPrec), -1)
		}
		return p.convert(f, start, i, sp)
	}
	sp.width, sp.prec = 0, -1
	before := p.total()
	i, ok, stop := p.convert(f, start, i, sp)
	if drop := p.total() - before; drop > 0 && drop <= p.out.Len() {
		p.out.Truncate(p.out.Len() - drop)
	}
	return i, ok, stop
}

// bArg is %b's argument a with its escapes decoded; stopped tells that a
// \c ended it.
func (p *printfState) bArg(a string) (string, bool) {
	var b bytes.Buffer
	for j := 0; j < len(a); j++ {
		if a[j] != '\\' {
			b.WriteByte(a[j])
			continue
		}
		n, sawC := p.escape(&b, a[j+1:], true)
		if sawC {
			return b.String(), true
		}
		j += n
	}
	return b.String(), false
}

// timeConv prints %(FORMAT)T, its '(' at f[i]; it returns the index of the
// last character used.
func (p *printfState) timeConv(f string, start, i int, sp printfSpec) int {
	depth, j := 1, i+1
	for ; j < len(f); j++ {
		if f[j] == '(' {
			depth++
		} else if f[j] == ')' {
			depth--
			if depth == 0 {
				break
			}
		}
	}
	if j+1 >= len(f) || f[j+1] != 'T' {
		bad := byte(0)
		if j+1 < len(f) {
			bad = f[j+1]
		}
		p.flushPasses()
		fmt.Fprintf(p.env.Stderr, "%sprintf: warning: `%c': invalid time format specification\n", p.env.ShellName(), bad)
		p.out.WriteByte('%')
		return start
	}
	tf := f[i+1 : j]
	if tf == "" {
		tf = "%X"
	}
	secs := int64(-1)
	if p.next < len(p.args) {
		v, _ := p.intVal(false)
		secs = int64(v)
	}
	t := time.Now()
	switch secs {
	case -1:
	case -2:
		t = printfStart
	default:
		t = time.Unix(secs, 0)
	}
	loc := dateLocation(p.env)
	if y := int64(t.In(loc).Year()) - 1900; y > math.MaxInt32 || y < math.MinInt32 {
		// glibc's localtime fails on a year its struct tm cannot
		// hold, and bash then formats the epoch.
		t = time.Unix(0, 0)
	}
	p.str(strftimeC(t.In(loc), tf), sp)
	return j + 1
}

// printfSpec is one conversion specification.
type printfSpec struct {
	minus, plus, space, hash, zero bool
	group                          bool // ' (no effect in the C locale)
	minusFlag                      bool // - was written (not a negative * width)
	width                          int
	prec                           int    // -1: none; 0 for bash's own conversions after ".-N"
	negPrec                        string // "-N" of a precision written ".-N"
	precNum                        bool   // the precision has digits or is *
	precStar                       bool   // the precision is *
	conv                           byte
	// wideWidth, widePrec: a width or precision written in the format
	// past INT_MAX; cWidth and cPrec are what C's int made of them,
	// wrapping (llmsh).
	wideWidth, widePrec bool
	cWidth, cPrec       int32
}

func printfAbs(v int64) uint64 {
	if v < 0 {
		return uint64(-(v + 1)) + 1
	}
	return uint64(v)
}

// unknown uses up the argument of a conversion whose precision is
// ".-N" and prints what glibc's printf prints for the invalid
// specification bash makes of it: the spec rebuilt with precision 0, then
// the rest as text, with bash's length modifier.
func (p *printfState) unknown(sp printfSpec) {
	mod := ""
	switch sp.conv {
	case 'c', 's':
		p.arg()
	case 'd', 'i':
		p.intVal(false)
		mod = "l"
	case 'o', 'u', 'x', 'X':
		p.intVal(true)
		mod = "l"
	default:
		p.floatArg()
		mod = "L"
	}
	b := []byte{'%'}
	if sp.hash {
		b = append(b, '#')
	}
	if sp.group {
		b = append(b, '\'')
	}
	if sp.plus {
		b = append(b, '+')
	} else if sp.space {
		b = append(b, ' ')
	}
	if sp.minus {
		b = append(b, '-')
	}
	if sp.zero && !sp.minusFlag {
		b = append(b, '0')
	}
	if sp.width != 0 {
		b = strconv.AppendInt(b, int64(sp.width), 10)
	}
	p.out.Write(b)
	p.out.WriteString(".0" + sp.negPrec + mod + string(sp.conv))
}

// arg returns the next argument; ok is false when none is left.
func (p *printfState) arg() (string, bool) {
	if p.next >= len(p.args) {
		return "", false
	}
	p.next++
	return p.args[p.next-1], true
}

// The escapes of printf's format and of its %b arguments, as bash's
// tescape has them: %b takes \0NNN and \c and keeps \' \" \? as they are.
var (
	printfFormatEscapes = gnu.Escapes{Letters: `abeEfnrtv\"'?`, Octal: 3, Hex: 2, Unicode: printfAppendUTF8}
	printfBEscapes      = gnu.Escapes{Letters: `abeEfnrtv\`, Octal: 3, Octal0: 3, Hex: 2, Unicode: printfAppendUTF8, Stop: 'c'}
	// In the C or POSIX locale (llmsh): \u and \U of a character past
	// ASCII stay escapes (printfAppendCEscape).
	printfFormatEscapesC = gnu.Escapes{Letters: `abeEfnrtv\"'?`, Octal: 3, Hex: 2, Unicode: printfAppendCEscape}
	printfBEscapesC      = gnu.Escapes{Letters: `abeEfnrtv\`, Octal: 3, Octal0: 3, Hex: 2, Unicode: printfAppendCEscape, Stop: 'c'}
	// coreutils' print_esc: \c ends the output in the format too, \" is
	// decoded, \' \? and \E are not escapes.
	printfGNUFormatEscapes = gnu.Escapes{Letters: `"\abefnrtv`, Octal: 3, Hex: 2, Unicode: printfAppendUTF8, Stop: 'c'}
	printfGNUBEscapes      = gnu.Escapes{Letters: `"\abefnrtv`, Octal: 3, Octal0: 3, Hex: 2, Unicode: printfAppendUTF8, Stop: 'c'}
)

// gnuUnicode is coreutils' \uHHHH and \UHHHHHHHH (s after the
// backslash): exactly 4 or 8 hex digits, no character below U+00A0 but $
// @ and `, no surrogate (each fatal, status 1); in the C locale a
// character past ASCII is written as \u00E9, as print_unicode_char's
// fallback does. A fatal error sets p.dead and stops as \c does.
func (p *printfState) gnuUnicode(b *bytes.Buffer, s string) (int, bool) {
	want := 4
	if s[0] == 'U' {
		want = 8
	}
	die := func(format string, a ...any) (int, bool) {
		if b != &p.out {
			// %b's argument so far was written before coreutils died.
			p.out.Write(b.Bytes())
			b.Reset()
		}
		p.errorf(format, a...)
		p.dead = true
		return 0, true
	}
	var v uint32
	for i := 1; i <= want; i++ {
		d, ok := hexDigitValue(s, i)
		if !ok {
			return die("missing hexadecimal number in escape")
		}
		v = v*16 + d
	}
	if v <= 0x9f && v != '$' && v != '@' && v != '`' || v >= 0xd800 && v <= 0xdfff {
		return die("invalid universal character name \\%c%0*x", s[0], want, v)
	}
	fallback := v > 0x10ffff || v >= 0x80 && byteLocale(p.env)
	switch {
	case fallback && v < 0x10000:
		fmt.Fprintf(b, "\\u%04X", v)
	case fallback:
		fmt.Fprintf(b, "\\U%08X", v)
	default:
		b.Write(printfUTF8(v))
	}
	return 1 + want, false
}

// hexDigitValue is the value of s[i] as a hex digit.
func hexDigitValue(s string, i int) (uint32, bool) {
	if i >= len(s) {
		return 0, false
	}
	switch c := s[i]; {
	case c >= '0' && c <= '9':
		return uint32(c - '0'), true
	case c >= 'a' && c <= 'f':
		return uint32(c-'a') + 10, true
	case c >= 'A' && c <= 'F':
		return uint32(c-'A') + 10, true
	}
	return 0, false
}

func printfAppendUTF8(dst []byte, v uint32) []byte { return append(dst, printfUTF8(v)...) }

// printfAppendCEscape is bash's \u and \U in the C or POSIX locale
// (u32cconv, then u32tocesc): an ASCII character is itself; any other,
// which the locale cannot encode, is written as an escape by its value:
// \uXXXX up to U+FFFF, else \UXXXXXXXX, upper-case hex.
func printfAppendCEscape(dst []byte, v uint32) []byte {
	switch {
	case v < 0x80:
		return append(dst, byte(v))
	case v <= 0xFFFF:
		return fmt.Appendf(dst, "\\u%04X", v)
	}
	return fmt.Appendf(dst, "\\U%08X", v)
}

// byteLocale reports whether bash's printf runs in the C or POSIX locale
// that the script set (never coreutils' printf, which has its own \u).
func (p *printfState) byteLocale() bool {
	return !p.gnu && p.env != nil && p.env.Shell != nil && p.env.Shell.ByteLocale()
}

// escape expands the backslash escape whose text (after the backslash)
// starts s and returns how many bytes of s it used (0: none, the
// backslash is written as it is). inB selects %b's rules.
func (p *printfState) escape(b *bytes.Buffer, s string, inB bool) (n int, sawC bool) {
	if p.gnu && s != "" && (s[0] == 'u' || s[0] == 'U') {
		return p.gnuUnicode(b, s)
	}
	// The C locale's tables differ from the others in \u and \U alone:
	// the locale (three variables looked up) is asked for those only.
	uni := s != "" && (s[0] == 'u' || s[0] == 'U')
	e := &printfFormatEscapes
	switch {
	case p.gnu && inB:
		e = &printfGNUBEscapes
	case p.gnu:
		e = &printfGNUFormatEscapes
	case inB && uni && p.byteLocale():
		e = &printfBEscapesC
	case inB:
		e = &printfBEscapes
	case uni && p.byteLocale():
		e = &printfFormatEscapesC
	}
	var buf [8]byte
	out, n, stop := e.Next(buf[:0], s)
	if stop {
		return 1, true
	}
	if n == 0 {
		if s != "" {
			switch s[0] {
			case 'x':
				p.errorf("missing hex digit for \\x")
			case 'u', 'U':
				p.errorf("missing unicode digit for \\%c", s[0])
			}
		}
		b.WriteByte('\\')
		return 0, false
	}
	b.Write(out)
	return n, false
}

// printfUTF8 is bash's u32toutf8: UTF-8 extended to 31 bits (surrogates
// and values past U+10FFFF encoded as they come), nothing beyond.
func printfUTF8(v uint32) []byte {
	var n int
	switch {
	case v < 0x80:
		return []byte{byte(v)}
	case v < 0x800:
		n = 2
	case v < 0x10000:
		n = 3
	case v < 0x200000:
		n = 4
	case v < 0x4000000:
		n = 5
	case v < 0x80000000:
		n = 6
	default:
		return nil
	}
	b := make([]byte, n)
	for i := n - 1; i > 0; i-- {
		b[i] = byte(v&0x3f) | 0x80
		v >>= 6
	}
	b[0] = byte(v) | byte(uint16(0xff00)>>n)
	return b
}

// printfField formats v as printf's conversion "%"+spec+conv does, conv
// being 's', 'd' or 'o' (v a decimal number for 'd', octal for 'o'): stat's
// and find's directives. Widths and precisions are cut to printfFieldMax.
func printfField(spec string, conv byte, v string) string {
	var p printfState
	sp, _ := p.spec(spec, 0)
	sp.conv = conv
	sp.width, sp.prec = min(sp.width, printfFieldMax), min(sp.prec, printfFieldMax)
	if conv == 's' {
		p.str(v, sp)
		return p.out.String()
	}
	base := 10
	if conv == 'o' {
		base = 8
	}
	n, _ := strconv.ParseInt(v, base, 64)
	p.integer(n < 0, printfAbs(n), sp)
	return p.out.String()
}

// str writes s as %s does: precision cuts bytes, width pads with spaces.
func (p *printfState) str(s string, sp printfSpec) {
	if sp.prec >= 0 && sp.prec < len(s) {
		s = s[:sp.prec]
	}
	p.pad([]byte(s), sp)
}

func (p *printfState) pad(b []byte, sp printfSpec) {
	fill := sp.width - len(b)
	if fill > 0 && !sp.minus {
		p.repeat(' ', fill)
	}
	p.out.Write(b)
	if fill > 0 && sp.minus {
		p.repeat(' ', fill)
	}
}

// printfRun is a piece of the output for repeat to copy from, made on
// first use: not an allocation of every start-up's package init.
var printfRun = sync.OnceValue(func() [2][]byte {
	return [2][]byte{bytes.Repeat([]byte{' '}, 4<<10), bytes.Repeat([]byte{'0'}, 4<<10)}
})

// repeat writes n bytes c (a space or '0'), and the output so far
// whenever it holds more than 64 KiB (llmsh): a width of 2^31-1 streams
// to the output, whose cap or a write error stops it, instead of being
// built in memory.
func (p *printfState) repeat(c byte, n int) {
	runs := printfRun()
	run := runs[0]
	if c == '0' {
		run = runs[1]
	}
	for n > 0 {
		k := min(n, len(run))
		p.out.Write(run[:k])
		n -= k
		if p.env != nil && p.out.Len() > 64<<10 {
			if p.flush(); p.werr != nil {
				return
			}
		}
	}
}

// printfDigits is a conversion's text: head, then zeros '0's, then tail,
// written without building the zeros (a precision of 2^31-1).
type printfDigits struct {
	head  string
	zeros int
	tail  string
}

func (d printfDigits) len() int { return len(d.head) + d.zeros + len(d.tail) }

// field writes sign+prefix+digits padded to the width: with zeros after
// the prefix when zero is set, else with spaces.
func (p *printfState) field(prefix, digits string, sp printfSpec, zero bool) {
	p.fieldOf(prefix, printfDigits{head: digits}, sp, zero)
}

// fieldOf is field of digits d.
func (p *printfState) fieldOf(prefix string, d printfDigits, sp printfSpec, zero bool) {
	fill := sp.width - len(prefix) - d.len()
	if fill > 0 && !sp.minus && !zero {
		p.repeat(' ', fill)
	}
	p.out.WriteString(prefix)
	if fill > 0 && !sp.minus && zero {
		p.repeat('0', fill)
	}
	p.out.WriteString(d.head)
	p.repeat('0', d.zeros)
	p.out.WriteString(d.tail)
	if fill > 0 && sp.minus {
		p.repeat(' ', fill)
	}
}

func (p *printfState) integer(neg bool, mag uint64, sp printfSpec) {
	var digits, prefix string
	switch sp.conv {
	case 'o':
		digits = strconv.FormatUint(mag, 8)
	case 'x':
		digits = strconv.FormatUint(mag, 16)
	case 'X':
		digits = strings.ToUpper(strconv.FormatUint(mag, 16))
	default:
		digits = strconv.FormatUint(mag, 10)
	}
	if sp.prec == 0 && mag == 0 {
		digits = ""
	}
	zeros := max(sp.prec-len(digits), 0)
	switch sp.conv {
	case 'd', 'i':
		switch {
		case neg:
			prefix = "-"
		case sp.plus:
			prefix = "+"
		case sp.space:
			prefix = " "
		}
	case 'o':
		if sp.hash && zeros == 0 && !strings.HasPrefix(digits, "0") {
			digits = "0" + digits
		}
	case 'x', 'X':
		if sp.hash && mag != 0 {
			prefix = "0" + string(sp.conv)
		}
	}
	p.fieldOf(prefix, printfDigits{zeros: zeros, tail: digits}, sp, sp.zero && sp.prec < 0)
}

// intArg reads a * width or precision.
func (p *printfState) intArg() int {
	if p.next >= len(p.args) {
		return 0
	}
	v, _ := p.intVal(false)
	s := int64(v)
	if p.next >= len(p.args) {
		return int(int32(s)) // bash's C conversion to int
	}
	// bash names the argument after the one out of range.
	if s > 1<<31-1 {
		p.errorf("warning: %s: Numerical result out of range", p.args[p.next])
		return 1<<31 - 1
	}
	if s < -1<<31 {
		p.errorf("warning: %s: Numerical result out of range", p.args[p.next])
		return -1 << 31
	}
	return int(s)
}

// intVal reads the next argument as strtoimax (or strtoumax) does, with
// bash's 'c and "c character values. A bad number is reported and its
// accumulated value used.
func (p *printfState) intVal(unsigned bool) (uint64, bool) {
	a, ok := p.arg()
	if !ok {
		return 0, true
	}
	if p.charConst(a) {
		return uint64(p.charCode(a[1:])), true
	}
	v, end, erange := printfParseInt(a, unsigned)
	if end < len(a) {
		printfInvalid(p, a, end)
		return v, false
	}
	if erange {
		p.rangeError(a)
	}
	return v, true
}

// charConst tells whether a numeric argument a is a character constant,
// 'c or "c: a quote alone is one for bash (0), not for coreutils, which
// says it is no number.
func (p *printfState) charConst(a string) bool {
	return a != "" && (a[0] == '\'' || a[0] == '"') && (!p.gnu || len(a) > 1)
}

// charCode is the value of the character constant whose text after the
// quote is s: its first character's code point, or its first byte in
// the C locale (or where s does not start with a valid UTF-8 sequence),
// as bash's and coreutils' mbtowc. coreutils warns of what follows it.
func (p *printfState) charCode(s string) int {
	if s == "" {
		return 0
	}
	code, size := int(s[0]), 1
	if !p.byteLocale() && !(p.gnu && byteLocale(p.env)) {
		if r, n := utf8.DecodeRuneInString(s); r != utf8.RuneError || n > 1 {
			code, size = int(r), n
		}
	}
	if p.gnu && size < len(s) {
		p.errorf("warning: %s: character(s) following character constant have been ignored", s[size:])
	}
	return code
}

// rangeError reports a number out of range: a warning in bash, an error
// (status 1) in coreutils.
func (p *printfState) rangeError(a string) {
	if p.gnu {
		p.errorf("%s: Numerical result out of range", p.env.Quote(a))
		p.failed = true
		return
	}
	p.errorf("warning: %s: Numerical result out of range", a)
}

// printfInvalid reports a, a number whose parse stopped at end.
func printfInvalid(p *printfState, a string, end int) {
	p.failed = true
	if p.gnu {
		if end == 0 {
			p.errorf("%s: expected a numeric value", gnu.Quote(a))
		} else {
			p.errorf("%s: value not completely converted", gnu.Quote(a))
		}
		return
	}
	msg := "invalid number"
	if len(a) > 1 && a[0] == '0' && a[1] >= '0' && a[1] <= '9' {
		msg = "invalid octal number"
	} else if len(a) > 1 && a[0] == '0' && a[1] == 'x' {
		msg = "invalid hex number"
	}
	p.errorf("%s: %s", a, msg)
}

func printfSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// printfSign skips the white space and the sign that C's strtol and
// strtold take before a number: it returns where the digits start and
// whether the sign was '-'.
func printfSign(s string) (i int, neg bool) {
	for i < len(s) && printfSpace(s[i]) {
		i++
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	return i, neg
}

// printfParseInt is C's strtoimax/strtoumax with base 0: it returns the
// value (as uint64 bits), where parsing ended, and whether it overflowed.
func printfParseInt(s string, unsigned bool) (uint64, int, bool) {
	i, neg := printfSign(s)
	base := uint64(10)
	if i+1 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') && i+2 < len(s) && gnu.DigitValue(s[i+2]) < 16 {
		base = 16
		i += 2
	} else if i < len(s) && s[i] == '0' {
		base = 8
	}
	var v uint64
	over := false
	start := i
	for ; i < len(s); i++ {
		d := uint64(36)
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			d = uint64(c - '0')
		case c >= 'a' && c <= 'f':
			d = uint64(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = uint64(c-'A') + 10
		}
		if d >= base {
			break
		}
		if v > (1<<64-1-d)/base {
			over = true
		}
		v = v*base + d
	}
	if i == start {
		return 0, 0, false
	}
	if unsigned {
		if over {
			return 1<<64 - 1, i, true
		}
		if neg {
			v = -v
		}
		return v, i, false
	}
	limit := uint64(1<<63 - 1)
	if neg {
		limit++
	}
	if over || v > limit {
		if neg {
			return 1 << 63, i, true
		}
		return 1<<63 - 1, i, true
	}
	if neg {
		return -v, i, false
	}
	return v, i, false
}

// printfFloat is a long double: a 64-bit mantissa, or inf or nan.
type printfFloat struct {
	x        *big.Float
	inf, nan bool
	neg      bool
}

func (p *printfState) floatArg() printfFloat {
	a, ok := p.arg()
	if !ok {
		return printfFloat{x: new(big.Float).SetPrec(64)}
	}
	if p.charConst(a) {
		return printfFloat{x: new(big.Float).SetPrec(64).SetInt64(int64(p.charCode(a[1:])))}
	}
	f, end := printfParseFloat(a)
	if end < len(a) {
		printfInvalid(p, a, end)
	} else if f.inf && !strings.Contains(strings.ToLower(a), "inf") {
		p.rangeError(a)
	}
	return f
}

// printfParseFloat is C's strtold: the value of the longest prefix of s
// that is a number, and where that prefix ends (0 when there is none).
func printfParseFloat(s string) (printfFloat, int) {
	zero := printfFloat{x: new(big.Float).SetPrec(64)}
	i, neg := printfSign(s)
	rest := strings.ToLower(s[i:])
	switch {
	case strings.HasPrefix(rest, "infinity"):
		return printfFloat{inf: true, neg: neg}, i + 8
	case strings.HasPrefix(rest, "inf"):
		return printfFloat{inf: true, neg: neg}, i + 3
	case strings.HasPrefix(rest, "nan"):
		n := i + 3
		if n < len(s) && s[n] == '(' {
			j := n + 1
			for j < len(s) && (s[j] == '_' || s[j] < 0x80 && (unicode.IsLetter(rune(s[j])) || unicode.IsDigit(rune(s[j])))) {
				j++
			}
			if j < len(s) && s[j] == ')' {
				n = j + 1
			}
		}
		return printfFloat{nan: true, neg: neg}, n
	}
	hex := strings.HasPrefix(rest, "0x") && len(rest) > 2 && (gnu.DigitValue(rest[2]) < 16 || len(rest) > 3 && rest[2] == '.' && gnu.DigitValue(rest[3]) < 16)
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' || hex && gnu.DigitValue(c) < 16 }
	j := i
	if hex {
		j += 2
	}
	nd := 0
	for j < len(s) && isDigit(s[j]) {
		j++
		nd++
	}
	if j < len(s) && s[j] == '.' {
		k := j + 1
		for k < len(s) && isDigit(s[k]) {
			k++
			nd++
		}
		if nd > 0 {
			j = k
		}
	}
	if nd == 0 {
		return zero, 0
	}
	num := s[i:j]
	expc := byte('e')
	if hex {
		expc = 'p'
	}
	if j < len(s) && (s[j]|0x20) == expc {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		ds := k
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k > ds {
			num = s[i:k]
			j = k
		}
	}
	if hex && !strings.ContainsAny(num, "pP") {
		num += "p0"
	}
	// Exponents far beyond long double's range overflow or underflow
	// without building huge numbers.
	x, _, err := big.ParseFloat(printfClampExp(num, hex), 0, 64, big.ToNearestEven)
	if err != nil {
		return zero, 0
	}
	if neg {
		x.Neg(x)
	}
	if e := x.MantExp(nil); e > 16384 {
		return printfFloat{inf: true, neg: neg}, j
	} else if e < -16445 {
		x.SetInt64(0)
		if neg {
			x.Neg(x)
		}
	}
	return printfFloat{x: x, neg: neg}, j
}

// printfClampExp bounds the written exponent of num so that parsing
// stays cheap; the result still overflows or underflows as num would.
func printfClampExp(num string, hex bool) string {
	k := strings.LastIndexAny(num, "eEpP")
	if k < 0 {
		return num
	}
	e, err := strconv.Atoi(num[k+1:])
	limit := 20000
	if hex {
		limit = 70000
	}
	if err != nil || e > limit {
		return num[:k+1] + strconv.Itoa(limit)
	}
	if e < -limit {
		return num[:k+1] + strconv.Itoa(-limit)
	}
	return num
}

func (p *printfState) float(f printfFloat, sp printfSpec) {
	upper := sp.conv == 'E' || sp.conv == 'F' || sp.conv == 'G' || sp.conv == 'A'
	prefix := ""
	switch {
	case f.neg:
		prefix = "-"
	case sp.plus:
		prefix = "+"
	case sp.space:
		prefix = " "
	}
	if f.inf || f.nan {
		s := "inf"
		if f.nan {
			s = "nan"
		}
		if upper {
			s = strings.ToUpper(s)
		}
		p.field(prefix, s, sp, false)
		return
	}
	x := new(big.Float).SetPrec(64).Abs(f.x)
	prec := sp.prec
	if prec < 0 {
		prec = 6
	}
	// llmsh: the digits past printfFloatDigits are zeros (a long
	// double's decimal expansion ends before them), written as a run.
	cut, zeros := prec, 0
	if prec > printfFloatDigits {
		cut, zeros = printfFloatDigits, prec-printfFloatDigits
	}
	var d printfDigits
	switch sp.conv | 0x20 {
	case 'f':
		d.head = x.Text('f', cut)
		if sp.hash && prec == 0 {
			d.head += "."
		}
		d.zeros = zeros
	case 'e':
		d = printfSplit(printfExp(x, cut, sp.hash), 'e', zeros)
	case 'g':
		if prec == 0 {
			prec, cut = 1, 1
		}
		e := printfExp(x, cut-1, false)
		exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
		if exp < -4 || exp >= prec {
			d = printfSplit(printfExp(x, cut-1, sp.hash), 'e', zeros)
		} else {
			fprec := prec - 1 - exp
			d.head = x.Text('f', min(fprec, printfFloatDigits))
			d.zeros = fprec - min(fprec, printfFloatDigits)
			if sp.hash && !strings.Contains(d.head, ".") {
				d.head += "."
			}
		}
		if !sp.hash {
			d = printfDigits{head: printfTrimZeros(d.head + d.tail)}
		}
	case 'a':
		prefix += "0x"
		if sp.prec > printfFloatDigits {
			d = printfSplit(printfHex(x, printfFloatDigits, sp.hash), 'p', sp.prec-printfFloatDigits)
		} else {
			d.head = printfHex(x, sp.prec, sp.hash)
		}
	}
	if upper {
		d.head, d.tail = strings.ToUpper(d.head), strings.ToUpper(d.tail)
		prefix = strings.ToUpper(prefix)
	}
	p.fieldOf(prefix, d, sp, sp.zero)
}

// printfFloatDigits is the most digits a float conversion computes: a
// long double's exact decimal expansion is shorter (about 16,500 digits
// after the point for the smallest), so the digits asked past it are
// zeros, which printfDigits writes as a run.
const printfFloatDigits = 20000

// printfSplit is s, a conversion's text, as digits whose run of zeros
// goes before its exponent (the byte sep) or at its end.
func printfSplit(s string, sep byte, zeros int) printfDigits {
	if k := strings.IndexByte(s, sep); k >= 0 {
		return printfDigits{head: s[:k], zeros: zeros, tail: s[k:]}
	}
	return printfDigits{head: s, zeros: zeros}
}

// printfExp is C's %.{prec}e of x >= 0.
func printfExp(x *big.Float, prec int, hash bool) string {
	s := x.Text('e', prec)
	if hash && prec == 0 {
		k := strings.IndexByte(s, 'e')
		s = s[:k] + "." + s[k:]
	}
	return s
}

// printfTrimZeros removes trailing zeros of the fraction (and a bare
// point), as %g does without #.
func printfTrimZeros(s string) string {
	mant, exp := s, ""
	if k := strings.IndexByte(s, 'e'); k >= 0 {
		mant, exp = s[:k], s[k:]
	}
	if strings.Contains(mant, ".") {
		mant = strings.TrimRight(mant, "0")
		mant = strings.TrimSuffix(mant, ".")
	}
	return mant + exp
}

// printfHex is glibc's %a of a long double x >= 0 without the "0x": the
// leading hex digit holds the top four bits of the 64-bit mantissa.
func printfHex(x *big.Float, prec int, hash bool) string {
	if x.Sign() == 0 {
		s := "0"
		if prec > 0 {
			s += "." + strings.Repeat("0", prec)
		} else if hash {
			s += "."
		}
		return s + "p+0"
	}
	mant := new(big.Float).SetPrec(64)
	exp := x.MantExp(mant)
	m, _ := mant.SetMantExp(mant, 64).Uint64()
	exp -= 4
	var lead uint64
	fd := ""
	if prec < 0 || prec >= 15 {
		lead = m >> 60
		fd = strconv.FormatUint(m&(1<<60-1), 16)
		fd = strings.Repeat("0", 15-len(fd)) + fd
		if prec < 0 {
			fd = strings.TrimRight(fd, "0")
		} else {
			fd += strings.Repeat("0", prec-15)
		}
	} else {
		// Round to prec hex digits, ties to even.
		shift := uint(4 * (15 - prec))
		v := m >> shift
		r := m & (1<<shift - 1)
		half := uint64(1) << (shift - 1)
		if r > half || r == half && v&1 == 1 {
			v++
		}
		fbits := 4 * uint(prec)
		lead = v >> fbits
		if lead >= 16 { // a carry out of the leading digit
			lead = 1
			exp += 4
			v = 0
		}
		if prec > 0 {
			fd = strconv.FormatUint(v&(1<<fbits-1), 16)
			fd = strings.Repeat("0", prec-len(fd)) + fd
		}
	}
	s := strconv.FormatUint(lead, 16)
	if fd != "" || hash {
		s += "." + fd
	}
	sign := "+"
	if exp < 0 {
		sign = "-"
		exp = -exp
	}
	return s + "p" + sign + strconv.Itoa(exp)
}

// quotePrintable reports whether %q writes r as it is (not as octal
// escapes): as glibc's iswprint in a UTF-8 locale, a space, a graphic or a
// format character (U+00A0, U+200B), not U+2028 or a control.
func quotePrintable(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= ' ' && r != 0x7f
	}
	return unicode.IsGraphic(r) || unicode.Is(unicode.Cf, r)
}

// printfQuote is bash's %q: ” for an empty string, $'...' for one with
// unprintable characters, backslashes before special characters
// otherwise.
func printfQuote(s string, byteLocale bool) string {
	if s == "" {
		return "''"
	}
	printable := true
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 || !quotePrintable(r) || byteLocale && r >= utf8.RuneSelf {
			printable = false
			break
		}
		i += size
	}
	var b strings.Builder
	if !printable {
		b.WriteString("$'")
		for i := 0; i < len(s); {
			r, size := utf8.DecodeRuneInString(s[i:])
			if byteLocale && r >= utf8.RuneSelf {
				r, size = utf8.RuneError, 1 // no character in C: a byte
			}
			if r == utf8.RuneError && size <= 1 || !quotePrintable(r) {
				for j := 0; j < size; j++ {
					b.WriteString(BashEscapeByte(s[i+j]))
				}
			} else if r == '\\' || r == '\'' {
				b.WriteByte('\\')
				b.WriteRune(r)
			} else {
				b.WriteString(s[i : i+size])
			}
			i += size
		}
		b.WriteByte('\'')
		return b.String()
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case strings.IndexByte(" \t\n!\"$&'()*,;<>?[\\]^`{|}", c) >= 0:
			b.WriteByte('\\')
		case c == '#' && i == 0:
			b.WriteByte('\\')
		case c == '~' && (i == 0 || s[i-1] == ':' || s[i-1] == '='):
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// printfName reports whether s is a name that %n can assign: bash's
// legal_identifier (no subscript).
func printfName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '_' && !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}
