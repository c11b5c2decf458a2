package builtins

import (
	"bufio"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

var _ = register(Builtin{Name: "tput", Summary: "initialize a terminal or query terminfo database", Run: tputCmd})

// ncurses tput's exit statuses.
const (
	tputErrUsage    = 2
	tputErrTermType = 3
	tputErrCapName  = 4
)

const tputUsage = `Usage: tput [options] [command]

Options:
  -S <<       read commands from standard input
  -T TERM     use this instead of $TERM
  -V          print curses-version
  -x          do not try to clear scrollback

Commands:
  clear       clear the screen
  init        initialize the terminal
  reset       reinitialize the terminal
  capname     unlike clear/init/reset, print value for capability "capname"
`

//go:embed tput_terminfo.txt
var tputTerminfoText string

// tiEntry is one terminal's terminfo entry.
type tiEntry struct {
	longName string
	bools    map[string]bool
	nums     map[string]int
	strs     map[string]string
}

// tiDB is the terminfo llmsh knows: the kinds of the standard capability
// names and a few entries (see testdata/gen_tput_terminfo.py). The host's
// database is never read.
type tiDB struct {
	kinds   map[string]byte // 'b', 'n' or 's'
	entries map[string]*tiEntry
}

var tputDB = sync.OnceValue(func() *tiDB {
	db := &tiDB{kinds: map[string]byte{}, entries: map[string]*tiEntry{}}
	var cur *tiEntry
	for _, line := range strings.Split(strings.TrimSuffix(tputTerminfoText, "\n"), "\n") {
		if kind, names, ok := strings.Cut(line, ": "); ok && !strings.HasPrefix(line, "\t") {
			for _, n := range strings.Fields(names) {
				db.kinds[n] = kind[0]
			}
			continue
		}
		if !strings.HasPrefix(line, "\t") {
			// The names line: "name|alias|...|long name,". Only the
			// name is known: which aliases a system installs varies.
			names := strings.Split(strings.TrimSuffix(line, ","), "|")
			cur = &tiEntry{longName: names[len(names)-1], bools: map[string]bool{}, nums: map[string]int{}, strs: map[string]string{}}
			db.entries[names[0]] = cur
			continue
		}
		cap := strings.TrimSuffix(strings.TrimPrefix(line, "\t"), ",")
		if name, val, ok := strings.Cut(cap, "="); ok {
			cur.strs[name] = tiUnescape(val)
		} else if name, val, ok := strings.Cut(cap, "#"); ok {
			n, _ := strconv.ParseInt(val, 0, 32)
			cur.nums[name] = int(n)
		} else {
			cur.bools[cap] = true
		}
	}
	return db
})

// tiUnescape decodes a string capability as terminfo source writes it.
func tiUnescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '^' && i+1 < len(s):
			i++
			if s[i] == '?' {
				b.WriteByte(0x7f)
			} else {
				b.WriteByte(s[i] & 0x1f)
			}
		case c == '\\' && i+1 < len(s):
			i++
			switch d := s[i]; d {
			case 'E', 'e':
				b.WriteByte(0x1b)
			case 'n', 'l':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 's':
				b.WriteByte(' ')
			case '0', '1', '2', '3', '4', '5', '6', '7':
				v, n := 0, 0
				for n < 3 && i < len(s) && s[i] >= '0' && s[i] <= '7' {
					v = v*8 + int(s[i]-'0')
					i++
					n++
				}
				i--
				if v == 0 {
					v = 0x80 // terminfo's \0 is stored as \200
				}
				b.WriteByte(byte(v))
			default:
				b.WriteByte(d)
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// tputRun is one tput: its terminal, options and output.
type tputRun struct {
	env       *Env
	term      *tiEntry
	noScroll  bool // -x
	w         *bufio.Writer
	quitError bool // a message was printed and tput must stop (ncurses' quit)
}

// tputCmd is ncurses 6.4's tput for the script's TERM (or -T): the
// values of capabilities from llmsh's own terminfo entries, their
// parameters expanded; clear, init, reset, longname; -S reads commands
// from standard input.
func tputCmd(env *Env) int {
	f := NewFlags(env, "", "[options] [command]")
	fromStdin := f.Bool('S', "", "read commands from standard input")
	term, termSet := f.String('T', "", "TERM", "use this instead of $TERM")
	curses := f.Bool('V', "", "print curses-version")
	noScroll := f.Bool('x', "", "do not try to clear scrollback")
	version := versionOption(f)
	args, err := f.Parse(env.Args[1:])
	if errors.Is(err, ErrHelp) {
		io.WriteString(env.Stdout, tputUsage)
		return 0
	}
	if err != nil {
		msg, _ := usageMessage(err)
		if msg == "" {
			msg = err.Error()
		}
		fmt.Fprintf(env.Stderr, "tput: %s\n%s", msg, tputUsage)
		return tputErrUsage
	}
	switch {
	case *version:
		return printVersion(env)
	case *curses:
		io.WriteString(env.Stdout, "ncurses 6.4.20221231\n")
		return 0
	}
	name := *term
	if !*termSet || name == "" {
		name, _ = envLookup(env.Environ, "TERM")
	}
	if name == "" {
		env.Errorf("No value for $TERM and no -T specified")
		return tputErrUsage
	}
	entry := tputDB().entries[name]
	if entry == nil {
		env.Errorf("unknown terminal \"%s\"", name)
		return tputErrTermType
	}
	t := &tputRun{env: env, term: entry, noScroll: *noScroll, w: stdoutWriter(env)}
	if *fromStdin {
		return finishOutput(env, t.w, t.fromStdin())
	}
	if len(args) == 0 {
		io.WriteString(env.Stderr, tputUsage)
		return tputErrUsage
	}
	status := 0
	for len(args) > 0 {
		var used int
		status, used = t.command(args)
		if status != 0 || t.quitError {
			break
		}
		args = args[used:]
	}
	return finishOutput(env, t.w, status)
}

// fromStdin is -S: a command on each line; the status counts the failures
// from 5 up, as ncurses does.
func (t *tputRun) fromStdin() int {
	result := 0
	sc := bufio.NewScanner(t.env.Stdin)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		words := strings.Fields(sc.Text())
		if len(words) == 0 {
			continue
		}
		for len(words) > 0 {
			st, used := t.command(words)
			if t.quitError {
				return st
			}
			if st != 0 {
				if result == 0 {
					result = 4
				}
				result++
			}
			words = words[used:]
			if st != 0 {
				break
			}
		}
	}
	return result
}

// command runs the command args[0] with the parameters it takes from
// args[1:]; it returns the status and how many words it used.
func (t *tputRun) command(args []string) (int, int) {
	name := args[0]
	switch name {
	case "clear":
		s, ok := t.term.strs["clear"]
		if !ok {
			return tputErrUsage, 1
		}
		if e3, ok := t.term.strs["E3"]; ok && !t.noScroll {
			s += e3
		}
		t.put(s)
		return 0, 1
	case "init", "reset":
		return t.initReset(name == "reset"), 1
	case "longname":
		t.w.WriteString(t.term.longName)
		return 0, 1
	}
	if v, ok := t.term.bools[name]; ok || t.kind(name) == 'b' {
		if v {
			return 0, 1
		}
		return 1, 1
	}
	if t.kind(name) == 'n' {
		fmt.Fprintf(t.w, "%d\n", t.number(name))
		return 0, 1
	}
	s, ok := t.term.strs[name]
	if !ok {
		if t.kind(name) == 's' {
			return 1, 1
		}
		t.w.Flush()
		t.env.Errorf("unknown terminfo capability '%s'", name)
		t.quitError = true
		return tputErrCapName, 1
	}
	used := 1
	if len(args) > 1 {
		n := tparmCount(s)
		params := make([]tparmValue, 9)
		for i := 0; i < n && used < len(args); i++ {
			params[i] = tparmArg(args[used])
			used++
		}
		if n > 0 {
			s = tparm(s, params)
		}
	}
	t.put(s)
	return 0, used
}

// kind is the kind of capability name: 'b', 'n', 's', or 0 when terminfo
// has no such name (an entry's extended names count as its own).
func (t *tputRun) kind(name string) byte {
	if _, ok := t.term.nums[name]; ok {
		return 'n'
	}
	if _, ok := t.term.strs[name]; ok {
		return 's'
	}
	return tputDB().kinds[name]
}

// number is a numeric capability; cols and lines come from COLUMNS and
// LINES when the script sets them (never from a terminal), else from the
// entry, else 80x24.
func (t *tputRun) number(name string) int {
	if name == "cols" || name == "lines" {
		envName, def := "COLUMNS", 80
		if name == "lines" {
			envName, def = "LINES", 24
		}
		if v, ok := envLookup(t.env.Environ, envName); ok {
			if n, err := strconv.Atoi(v); err == nil && n > 0 {
				return n
			}
		}
		if n, ok := t.term.nums[name]; ok {
			return n
		}
		return def
	}
	if n, ok := t.term.nums[name]; ok {
		return n
	}
	return -1
}

// initReset sends the terminal's init (or reset) strings, as ncurses does
// on a terminal; off one, it fails as ncurses does when it cannot read the
// terminal's modes (ENXIO: status 4+6).
func (t *tputRun) initReset(reset bool) int {
	if !t.env.Terminal {
		t.w.Flush()
		t.env.Errorf("terminal attributes: No such device or address\n")
		return 10
	}
	pick := func(n int) {
		if s, ok := t.term.strs[fmt.Sprintf("rs%d", n)]; reset && ok {
			t.put(s)
		} else if s, ok := t.term.strs[fmt.Sprintf("is%d", n)]; ok {
			t.put(s)
		}
	}
	pick(1)
	pick(2)
	if s, ok := t.term.strs["mgc"]; ok {
		t.put(s)
	}
	pick(3)
	return 0
}

// put writes a string capability without its padding ($<5>), as putp
// does at an unknown speed.
func (t *tputRun) put(s string) {
	for {
		i := strings.Index(s, "$<")
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], '>')
		if j < 0 || strings.Trim(s[i+2:i+j], "0123456789.*/") != "" {
			t.w.WriteString(s[:i+2])
			s = s[i+2:]
			continue
		}
		t.w.WriteString(s[:i])
		s = s[i+j+1:]
	}
	t.w.WriteString(s)
}

// tparmValue is a parameter or a stack entry of tparm: a number or a
// string.
type tparmValue struct {
	n     int
	s     string
	isStr bool
}

// tparmArg makes a command-line word a parameter: a number as strtol
// reads it with base 0, or else a string (0 as a number).
func tparmArg(s string) tparmValue {
	if n, err := strconv.ParseInt(strings.TrimPrefix(s, "+"), 0, 64); err == nil && !strings.Contains(s, "_") {
		return tparmValue{n: int(n)}
	}
	return tparmValue{s: s, isStr: true}
}

// tparmCount is how many parameters s uses (its highest %pN).
func tparmCount(s string) int {
	n := 0
	for i := 0; i+2 < len(s); i++ {
		if s[i] == '%' {
			if s[i+1] == 'p' && s[i+2] >= '1' && s[i+2] <= '9' {
				n = max(n, int(s[i+2]-'0'))
			}
			i++
		}
	}
	return n
}

// tparm expands a parameterized string as ncurses' tparm does.
func tparm(s string, params []tparmValue) string {
	var out strings.Builder
	var stack []tparmValue
	var dyn, stat [26]tparmValue
	pop := func() tparmValue {
		if len(stack) == 0 {
			return tparmValue{}
		}
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		return v
	}
	push := func(n int) { stack = append(stack, tparmValue{n: n}) }
	for i := 0; i < len(s); i++ {
		if s[i] != '%' || i+1 >= len(s) {
			out.WriteByte(s[i])
			continue
		}
		i++
		c := s[i]
		switch c {
		case '%':
			out.WriteByte('%')
		case 'c':
			v := pop().n
			if v == 0 {
				v = 0x80
			}
			out.WriteByte(byte(v))
		case 'l':
			push(len(pop().s))
		case 'p':
			if i+1 < len(s) && s[i+1] >= '1' && s[i+1] <= '9' {
				i++
				stack = append(stack, params[s[i]-'1'])
			}
		case 'P', 'g':
			if i+1 >= len(s) {
				break
			}
			i++
			var vars *[26]tparmValue
			var k byte
			switch v := s[i]; {
			case v >= 'a' && v <= 'z':
				vars, k = &dyn, v-'a'
			case v >= 'A' && v <= 'Z':
				vars, k = &stat, v-'A'
			default:
				continue
			}
			if c == 'P' {
				vars[k] = pop()
			} else {
				stack = append(stack, vars[k])
			}
		case '\'':
			if i+2 < len(s) {
				push(int(s[i+1]))
				i += 2
			}
		case '{':
			j := strings.IndexByte(s[i:], '}')
			if j < 0 {
				break
			}
			n, _ := strconv.Atoi(s[i+1 : i+j])
			push(n)
			i += j
		case '+', '-', '*', '/', 'm', '&', '|', '^', '=', '>', '<', 'A', 'O':
			y, x := pop().n, pop().n
			push(tparmBinary(c, x, y))
		case '!':
			push(tparmBool(pop().n == 0))
		case '~':
			push(^pop().n)
		case 'i':
			params[0].n++
			params[1].n++
		case '?', ';':
		case 't':
			if pop().n == 0 {
				i = tparmSkip(s, i+1, true)
			}
		case 'e':
			i = tparmSkip(s, i+1, false)
		default:
			if j, ok := tparmFormat(&out, s, i, pop); ok {
				i = j
			} else {
				out.WriteByte('%')
				out.WriteByte(c)
			}
		}
	}
	return out.String()
}

// tparmBool is a truth value as tparm pushes it.
func tparmBool(b bool) int {
	if b {
		return 1
	}
	return 0
}

// tparmBinary is one of tparm's binary operators.
func tparmBinary(c byte, x, y int) int {
	switch c {
	case '+':
		return x + y
	case '-':
		return x - y
	case '*':
		return x * y
	case '/', 'm':
		if y == 0 {
			return 0
		}
		if c == '/' {
			return x / y
		}
		return x % y
	case '&':
		return x & y
	case '|':
		return x | y
	case '^':
		return x ^ y
	case '=':
		return tparmBool(x == y)
	case '>':
		return tparmBool(x > y)
	case '<':
		return tparmBool(x < y)
	case 'A':
		return tparmBool(x != 0 && y != 0)
	}
	return tparmBool(x != 0 || y != 0) // 'O'
}

// tparmFormat writes the printf conversion %[[:]flags][width[.precision]]
// [doxXs] starting at s[i] (after the '%') with a popped value; it returns
// the index of the conversion letter, or false when s has none there.
func tparmFormat(out *strings.Builder, s string, i int, pop func() tparmValue) (int, bool) {
	j := i
	if s[j] == ':' {
		j++
	}
	for j < len(s) && strings.IndexByte("-+# ", s[j]) >= 0 {
		j++
	}
	for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
		j++
	}
	if j >= len(s) || strings.IndexByte("doxXs", s[j]) < 0 {
		return i, false
	}
	spec := "%" + strings.TrimPrefix(s[i:j], ":")
	v := pop()
	if s[j] == 's' {
		fmt.Fprintf(out, spec+"s", v.s)
	} else {
		fmt.Fprintf(out, spec+string(s[j]), v.n)
	}
	return j, true
}

// tparmSkip skips a conditional's part from i: to just after the %e or
// %; that ends it at this depth (elseToo: a %e ends it too, the else part
// to run). It returns the index of the part's last byte.
func tparmSkip(s string, i int, elseToo bool) int {
	depth := 0
	for ; i+1 < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		i++
		switch s[i] {
		case '?':
			depth++
		case ';':
			if depth == 0 {
				return i
			}
			depth--
		case 'e':
			if depth == 0 && elseToo {
				return i
			}
		}
	}
	return len(s) - 1
}
