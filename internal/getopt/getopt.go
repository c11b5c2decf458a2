// Package getopt is the GNU getopt_long style option parser of llmsh's
// builtins (builtins.Flags) and of llmsh's and vfsd's own command lines,
// with GNU's --help layout. It imports only the standard library's
// formatting and string packages, so vfsd may link it.
package getopt

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
)

// ErrHelp is returned by Flags.Parse when --help was given; the help text
// has not been printed yet (Flags.Fail prints it and returns 0).
var ErrHelp = errors.New("help requested")

// ArgKind says whether an option takes an argument.
type ArgKind int

// Argument kinds.
const (
	NoArg       ArgKind = iota // -n, --number
	RequiredArg                // -n 5, -n5, --lines=5, --lines 5
	OptionalArg                // --color, --color=always, -i, -iSUFFIX (attached only)
	// OptionalLongArg takes an argument only in its long form: -F never
	// takes one (-Fa is -F -a), --classify=WHEN may (GNU's "F" beside
	// {"classify", optional_argument}).
	OptionalLongArg
)

type option struct {
	short   rune
	long    string
	kind    ArgKind
	argName string
	help    string
	set     func(val string, present bool) error
	aliasOf *option // another long name of this option (Alias)
	listed  bool    // an alias --help lists (Synonym)
	whole   bool    // matched only when spelled whole (AliasWhole)
	// A line of --help that is no option: a section's title (Section),
	// or a row with left as its option column (Row), or an empty line
	// (Gap).
	section, left string
	gap           bool
}

// Flags is a GNU getopt_long style parser for one command line. It
// never exits the process and never prints on its own except through Fail:
// bundled short options (-nE), attached or separate arguments (-n5, -n 5),
// long options with = or a separate argument, unambiguous long prefixes,
// "--" to end options, "-" as an operand, and options after operands
// (argument permutation) unless StopAtOperand is set.
type Flags struct {
	name           string // the command's name in messages and --help
	stdout, stderr io.Writer
	usage          []string // synopsis lines after "Usage: "
	summary        string
	opts           []*option
	StopAtOperand  bool // POSIX style: the first operand ends the options
	// Each, when not nil, is called with every option Parse meets (its
	// short name, or 0, and long name) before the option's own function.
	Each func(short rune, long string)
	// Epilog is printed after the option list in --help.
	Epilog string
	// NoVersion leaves --version out of --help (a command without one).
	NoVersion bool
	// HelpShort and VersionShort are the short forms --help lists for
	// --help and --version (gzip's -h and -V; 0: none).
	HelpShort, VersionShort rune
	// OwnHelpRows: the command lists --help and --version itself (with
	// Row, in a section of its own, as grep), not on the closing lines.
	OwnHelpRows bool
	// NoMandatoryNote leaves out "Mandatory arguments to long options
	// are mandatory for short options too." (grep prints none).
	NoMandatoryNote bool
	// FlushFurther starts a description's further lines at its first
	// line's column (grep's layout), not two columns further in.
	FlushFurther bool
	// UtilLinux lays --help out as util-linux's tools do: "Usage:" on a
	// line of its own, the summary, "Options:", options one column in
	// (an argument after a space: --terminate <char>), then --help and
	// --version after an empty line.
	UtilLinux bool
	// LeftMax, when set, is the widest option that descriptions line up
	// after (GNU nl's, 30); wider ones run on. Unset: helpLeftMax.
	LeftMax int
	// Footer closes --help after an empty line, where GNU's tools say
	// where their documentation is.
	Footer string
	// order ranks long names as the GNU tool's option table has them
	// (SetOrder): an ambiguous prefix lists its options in that order.
	order   map[string]int
	stopped bool // Stop was called: the options end after this argument
	long    bool // the option being parsed was spelled long (Long)
	seen    int  // operands Parse has met so far (Operands)
}

// Operands, called from an option's function, is the number of operands
// before the option on the command line (tar's positional options).
func (f *Flags) Operands() int { return f.seen }

// Stop, called from an option's function, ends the options after the
// command-line argument being parsed: the arguments after it are operands
// (as bash's -c SCRIPT leaves the rest to $0, $1...).
func (f *Flags) Stop() { f.stopped = true }

// Alias registers long as another name of the option whose long name is
// of; it is not listed by --help, and a prefix of both is not ambiguous
// (as getopt_long treats two entries with the same flag and value).
func (f *Flags) Alias(long, of string) { f.alias(long, of, false) }

// AliasWhole is Alias for a name that only its whole spelling matches:
// a prefix of it means the other options it prefixes (llmsh's
// --init-file, bash's, beside --input: --in stays --input).
func (f *Flags) AliasWhole(long, of string) {
	f.alias(long, of, false)
	f.opts[len(f.opts)-1].whole = true
}

// Synonym is Alias for a name --help lists after the option's own names
// (GNU's "-q, --quiet, --silent").
func (f *Flags) Synonym(long, of string) { f.alias(long, of, true) }

func (f *Flags) alias(long, of string, listed bool) {
	for _, o := range f.opts {
		if o.long == of {
			f.add(&option{short: 0, long: long, kind: o.kind, argName: o.argName, set: o.set, aliasOf: o, listed: listed})
			return
		}
	}
	panic("getopt: Alias of an unregistered option --" + of)
}

// New starts a parser for the command name, whose --help goes to stdout
// and errors to stderr (through Fail). usage holds synopsis lines such as
// "[OPTION]... [FILE]..." (the name is prepended); summary is the
// one-paragraph description printed under them by --help.
func New(name string, stdout, stderr io.Writer, summary string, usage ...string) *Flags {
	return &Flags{name: name, stdout: stdout, stderr: stderr, usage: usage, summary: summary}
}

func (f *Flags) add(o *option) { f.opts = append(f.opts, o) }

// Section starts a section of the option list in --help: an empty line
// and title (GNU grep's "Output control:"); the first comes right after
// the empty line that opens the list.
func (f *Flags) Section(title string) { f.add(&option{section: title}) }

// Gap puts an empty line between two options of --help's list (GNU
// comm's before --check-order).
func (f *Flags) Gap() { f.add(&option{gap: true}) }

// Row lists in --help a line that is no option of the parser's: left in
// the option column (grep's "-NUM"), help as an option's description.
func (f *Flags) Row(left, help string) { f.add(&option{left: left, help: help}) }

// BoolVar registers a flag that sets *p to true. short may be 0 and long
// may be "" when the option has only one spelling.
func (f *Flags) BoolVar(p *bool, short rune, long, help string) {
	f.add(&option{short: short, long: long, kind: NoArg, help: help,
		set: func(string, bool) error { *p = true; return nil }})
}

// Bool registers a boolean flag and returns its variable.
func (f *Flags) Bool(short rune, long, help string) *bool {
	p := new(bool)
	f.BoolVar(p, short, long, help)
	return p
}

// CountVar registers a flag that increments *p each time it is given.
func (f *Flags) CountVar(p *int, short rune, long, help string) {
	f.add(&option{short: short, long: long, kind: NoArg, help: help,
		set: func(string, bool) error { *p++; return nil }})
}

// StringVar registers an option with a required argument; the last one
// given wins.
func (f *Flags) StringVar(p *string, short rune, long, argName, help string) {
	f.add(&option{short: short, long: long, kind: RequiredArg, argName: argName, help: help,
		set: func(v string, _ bool) error { *p = v; return nil }})
}

// String registers an option with a required argument and returns its
// variable; set reports whether it was given at all.
func (f *Flags) String(short rune, long, argName, help string) (val *string, set *bool) {
	val, set = new(string), new(bool)
	f.add(&option{short: short, long: long, kind: RequiredArg, argName: argName, help: help,
		set: func(v string, _ bool) error { *val, *set = v, true; return nil }})
	return val, set
}

// Func registers an option whose every occurrence calls fn, in command-line
// order, with its argument (kind RequiredArg or OptionalArg) or "" (NoArg).
// For OptionalArg, present tells whether an argument was attached. An error
// returned by fn is reported as "NAME: <error>" by Fail.
func (f *Flags) Func(short rune, long string, kind ArgKind, argName, help string, fn func(val string, present bool) error) {
	f.add(&option{short: short, long: long, kind: kind, argName: argName, help: help, set: fn})
}

// UsageError is a command-line error, printed GNU style by Fail followed by
// "Try 'NAME --help' for more information.".
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// UsageMessage makes *UsageError a Usage.
func (e *UsageError) UsageMessage() string { return e.Msg }

// Usage is an error that Fail prints with the "Try --help" line:
// *UsageError, or a type of the caller's own with the same method.
type Usage interface {
	error
	UsageMessage() string
}

// UsageMessage returns the message of a Usage in err's chain.
func UsageMessage(err error) (string, bool) {
	var u Usage
	if errors.As(err, &u) {
		return u.UsageMessage(), true
	}
	return "", false
}

// Parse parses args (without the command name) and returns the operands.
func (f *Flags) Parse(args []string) ([]string, error) {
	var operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(operands, args[i+1:]...), nil
		case strings.HasPrefix(a, "--"):
			if a == "--help" || (strings.HasPrefix("--help", a) && len(a) > 3 && f.longMatches(a[2:]) == nil) {
				return nil, ErrHelp
			}
			n, err := f.parseLong(args, i)
			if err != nil {
				return nil, err
			}
			i = n
			if f.stopped {
				return append(operands, args[i+1:]...), nil
			}
		case len(a) > 1 && a[0] == '-':
			n, err := f.parseShort(args, i)
			if err != nil {
				return nil, err
			}
			i = n
			if f.stopped {
				return append(operands, args[i+1:]...), nil
			}
		default:
			if f.StopAtOperand {
				return append(operands, args[i:]...), nil
			}
			operands = append(operands, a)
			f.seen++
		}
	}
	return operands, nil
}

// SetOrder gives the long names of the GNU tool's option table in its
// order (separated by spaces; names it lacks rank after): the list of
// an ambiguous prefix is then glibc's getopt_long's, in that order, every
// spelling of an option other than the first match's (aliases and
// --help too).
func (f *Flags) SetOrder(names string) {
	f.order = map[string]int{}
	for i, n := range strings.Fields(names) {
		f.order[n] = i
	}
}

// ambiguous lists, as glibc does, the names that prefix matches: in the
// table's order, each that is not the first match's option, and the
// first match itself.
func (f *Flags) ambiguous(prefix string) []string {
	type cand struct {
		name  string
		canon *option
		rank  int
	}
	var all []cand
	for k, o := range f.opts {
		if o.long == "" || !strings.HasPrefix(o.long, prefix) {
			continue
		}
		c := o
		if o.aliasOf != nil {
			c = o.aliasOf
		}
		all = append(all, cand{o.long, c, f.rank(o.long, k)})
	}
	for _, n := range []string{"help", "version"} {
		if _, ok := f.order[n]; ok && strings.HasPrefix(n, prefix) && !f.registered(n) {
			all = append(all, cand{n, nil, f.rank(n, len(f.opts))})
		}
	}
	slices.SortStableFunc(all, func(a, b cand) int { return a.rank - b.rank })
	var names []string
	for k, c := range all {
		if k == 0 || c.canon == nil || c.canon != all[0].canon {
			names = append(names, "'--"+c.name+"'")
		}
	}
	return names
}

// registered reports whether long is an option's long name.
func (f *Flags) registered(long string) bool {
	for _, o := range f.opts {
		if o.long == long {
			return true
		}
	}
	return false
}

// rank is name's place in the tool's table; names it lacks come after,
// in the order they were registered (k).
func (f *Flags) rank(name string, k int) int {
	if r, ok := f.order[name]; ok {
		return r
	}
	return len(f.order) + k
}

func (f *Flags) longMatches(name string) []*option {
	var exact *option
	var matches []*option
	for _, o := range f.opts {
		if o.long == "" {
			continue
		}
		if o.long == name {
			exact = o
		} else if !o.whole && strings.HasPrefix(o.long, name) {
			matches = append(matches, o)
		}
	}
	if exact != nil {
		return []*option{exact}
	}
	// An option and its aliases count once.
	var out []*option
	seen := map[*option]bool{}
	for _, o := range matches {
		c := o
		if o.aliasOf != nil {
			c = o.aliasOf
		}
		if !seen[c] {
			seen[c] = true
			out = append(out, o)
		}
	}
	return out
}

// Long, called from an option's function, reports whether the option
// was given by its long name (GNU's messages say -S or --buffer-size as
// the user wrote it).
func (f *Flags) Long() bool { return f.long }

func (f *Flags) parseLong(args []string, i int) (int, error) {
	f.long = true
	defer func() { f.long = false }()
	a := args[i][2:]
	name, val, hasVal := strings.Cut(a, "=")
	m := f.longMatches(name)
	if f.order != nil && len(m) == 1 && m[0].long != name {
		// --help and --version, answered apart, are in GNU's table.
		if names := f.ambiguous(name); len(names) > 1 {
			return i, &UsageError{fmt.Sprintf("option '--%s' is ambiguous; possibilities: %s", name, strings.Join(names, " "))}
		}
	}
	// Several spellings registered for one variable count once.
	if len(m) > 1 {
		var names []string
		for _, o := range m {
			names = append(names, "'--"+o.long+"'")
		}
		if f.order != nil {
			names = f.ambiguous(name)
		}
		return i, &UsageError{fmt.Sprintf("option '--%s' is ambiguous; possibilities: %s", name, strings.Join(names, " "))}
	}
	if len(m) == 0 {
		return i, &UsageError{fmt.Sprintf("unrecognized option '--%s'", a)}
	}
	o := m[0]
	switch o.kind {
	case NoArg:
		if hasVal {
			return i, &UsageError{fmt.Sprintf("option '--%s' doesn't allow an argument", o.long)}
		}
		return i, f.call(o, "", false)
	case RequiredArg:
		if !hasVal {
			if i+1 >= len(args) {
				return i, &UsageError{fmt.Sprintf("option '--%s' requires an argument", o.long)}
			}
			i++
			val = args[i]
		}
		return i, f.call(o, val, true)
	default:
		return i, f.call(o, val, hasVal)
	}
}

func (f *Flags) short(r rune) *option {
	for _, o := range f.opts {
		if o.short == r && r != 0 {
			return o
		}
	}
	return nil
}

func (f *Flags) parseShort(args []string, i int) (int, error) {
	a := args[i]
	for j := 1; j < len(a); {
		r := rune(a[j])
		size := 1
		if r >= 0x80 {
			for _, rr := range a[j:] {
				r = rr
				break
			}
			size = len(string(r))
		}
		o := f.short(r)
		if o == nil {
			return i, &UsageError{fmt.Sprintf("invalid option -- '%c'", r)}
		}
		rest := a[j+size:]
		switch o.kind {
		case NoArg, OptionalLongArg:
			if err := f.call(o, "", false); err != nil {
				return i, err
			}
			j += size
			continue
		case RequiredArg:
			if rest == "" {
				if i+1 >= len(args) {
					return i, &UsageError{fmt.Sprintf("option requires an argument -- '%c'", r)}
				}
				i++
				rest = args[i]
			}
			return i, f.call(o, rest, true)
		default:
			return i, f.call(o, rest, rest != "")
		}
	}
	return i, nil
}

func (f *Flags) call(o *option, val string, present bool) error {
	if f.Each != nil {
		f.Each(o.short, o.long)
	}
	if err := o.set(val, present); err != nil {
		if _, ok := UsageMessage(err); ok {
			return err
		}
		return &valueError{err}
	}
	return nil
}

// valueError is an option value rejected by the option's own function: it
// is printed without the "Try --help" line, as GNU tools do for bad values.
type valueError struct{ err error }

func (e *valueError) Error() string { return e.err.Error() }
func (e *valueError) Unwrap() error { return e.err }

// Fail reports err from Parse and returns the status the command should
// exit with: 0 after printing help for ErrHelp, code otherwise.
func (f *Flags) Fail(err error, code int) int {
	if errors.Is(err, ErrHelp) {
		f.PrintHelp(f.stdout)
		return 0
	}
	name := f.name
	if msg, ok := UsageMessage(err); ok {
		fmt.Fprintf(f.stderr, "%s: %s\nTry '%s --help' for more information.\n", name, msg, name)
		return code
	}
	fmt.Fprintf(f.stderr, "%s: %s\n", name, err)
	return code
}

// helpLeftMax is the widest option column that descriptions line up after.
const helpLeftMax = 24

// PrintHelp writes the --help text: usage lines, summary, and the options.
func (f *Flags) PrintHelp(w io.Writer) {
	if f.UtilLinux {
		f.printUtilLinux(w)
		return
	}
	name := f.name
	for i, u := range f.usage {
		if i == 0 {
			fmt.Fprintf(w, "Usage: %s %s\n", name, u)
		} else {
			fmt.Fprintf(w, "  or:  %s %s\n", name, u)
		}
	}
	if len(f.usage) == 0 {
		fmt.Fprintf(w, "Usage: %s [OPTION]...\n", name)
	}
	if f.summary != "" {
		fmt.Fprintf(w, "%s\n", Wrap(f.summary))
	}
	rows, width, mandatory, versionShort := f.helpRows()
	if len(rows) > 0 {
		fmt.Fprintln(w)
	}
	if mandatory && !f.NoMandatoryNote {
		fmt.Fprintln(w, "Mandatory arguments to long options are mandatory for short options too.")
	}
	// GNU's layout: a description starts two columns after the widest
	// option (one too wide to line up runs on after two spaces) and its
	// further lines are indented two columns more than its first. Further
	// lines written with their own leading spaces keep only their depth
	// relative to each other, so every description lines up with its
	// command's column.
	indent := strings.Repeat(" ", 2+width+2+2)
	if f.FlushFurther {
		indent = indent[2:]
	}
	for i, r := range rows {
		switch {
		case r.gap:
			fmt.Fprintln(w)
		case r.section != "":
			if i > 0 {
				fmt.Fprintln(w)
			}
			fmt.Fprintln(w, r.section)
		case r.help == "":
			fmt.Fprintf(w, "  %s\n", r.left)
		default:
			first := fmt.Sprintf("  %-*s  ", width, r.left)
			fmt.Fprintf(w, "%s\n", strings.Join(fill(strings.Split(first+helpIndent(r.help, indent), "\n"), len(first), len(indent), true), "\n"))
		}
	}
	// GNU's HELP_OPTION_DESCRIPTION and VERSION_OPTION_DESCRIPTION.
	if !f.OwnHelpRows {
		fmt.Fprintf(w, "  %s--help        display this help and exit\n", shortPrefix(f.HelpShort))
	}
	if !f.NoVersion && !f.OwnHelpRows {
		fmt.Fprintf(w, "  %s--version     output version information and exit\n", shortPrefix(versionShort))
	}
	for _, text := range []string{f.Epilog, f.Footer} {
		if text != "" {
			fmt.Fprintf(w, "\n%s\n", Wrap(strings.TrimRight(text, "\n")))
		}
	}
}

// printUtilLinux is PrintHelp in util-linux's layout (UtilLinux).
func (f *Flags) printUtilLinux(w io.Writer) {
	fmt.Fprint(w, "\nUsage:\n")
	for _, u := range f.usage {
		fmt.Fprintf(w, " %s %s\n", f.name, u)
	}
	if f.summary != "" {
		fmt.Fprintf(w, "\n%s\n", Wrap(f.summary))
	}
	rows, width, _, versionShort := f.helpRows()
	help, version := shortPrefix(f.HelpShort)+"--help", shortPrefix(versionShort)+"--version"
	width = max(width, len(help))
	if !f.NoVersion {
		width = max(width, len(version))
	}
	indent := strings.Repeat(" ", 1+width+2)
	fmt.Fprint(w, "\nOptions:\n")
	for _, r := range rows {
		switch {
		case r.gap:
			fmt.Fprintln(w)
		case r.section != "":
			fmt.Fprintf(w, "\n%s\n", r.section)
		default:
			first := fmt.Sprintf(" %-*s  ", width, r.left)
			fmt.Fprintf(w, "%s\n", strings.Join(fill(strings.Split(first+helpIndent(r.help, indent), "\n"), len(first), len(indent), true), "\n"))
		}
	}
	fmt.Fprintf(w, "\n %-*s  display this help\n", width, help)
	if !f.NoVersion {
		fmt.Fprintf(w, " %-*s  display version\n", width, version)
	}
	for _, text := range []string{f.Epilog, f.Footer} {
		if text != "" {
			fmt.Fprintf(w, "\n%s\n", Wrap(strings.TrimRight(text, "\n")))
		}
	}
}

// helpRow is a line of --help's option list: an option (left, help),
// a section's title or an empty line.
type helpRow struct {
	left, help, section string
	gap                 bool
}

// helpRows are --help's option list, the width of its option column,
// whether an option has a mandatory argument and a short name, and the
// short name of --version.
func (f *Flags) helpRows() (rows []helpRow, width int, mandatory bool, versionShort rune) {
	versionShort = f.VersionShort
	leftMax := helpLeftMax
	if f.UtilLinux {
		leftMax = 32 // util-linux's lists run wider (column's)
	}
	if f.LeftMax > 0 {
		leftMax = f.LeftMax
	}
	for _, o := range f.opts {
		if o.section != "" || o.left != "" || o.gap {
			rows = append(rows, helpRow{o.left, o.help, o.section, o.gap})
			if len(o.left) > width && len(o.left) <= leftMax {
				width = len(o.left)
			}
			continue
		}
		// A --version option the command declares itself is listed
		// once, in GNU's place after --help, by PrintHelp.
		if o.long == "version" && !f.NoVersion && o.aliasOf == nil {
			if o.short != 0 {
				versionShort = o.short
			}
			continue
		}
		if o.help == "" {
			continue
		}
		var left string
		if o.short != 0 {
			left = "-" + string(o.short)
			if o.long != "" {
				left += ", "
			}
		} else {
			left = "    "
		}
		if o.long != "" {
			left += "--" + o.long + f.argForm(o)
		} else {
			left += f.argForm(o)
		}
		mandatory = mandatory || o.kind == RequiredArg && o.long != "" && o.short != 0
		for _, a := range f.opts {
			if a.aliasOf != o || !a.listed {
				continue
			}
			// GNU lists another long name after a comma, on a line of
			// its own when the two do not fit (grep's --colour).
			if len(left)+4+len(a.long)+len(a.argForm()) > helpLeftMax {
				rows = append(rows, helpRow{left + ",", "", "", false})
				left = "    --" + a.long + a.argForm()
			} else {
				left += ", --" + a.long + a.argForm()
			}
		}
		rows = append(rows, helpRow{left, o.help, "", false})
		if len(left) > width && len(left) <= leftMax {
			width = len(left)
		}
	}
	return rows, width, mandatory, versionShort
}

// HelpWidth is the widest line --help prints, as GNU's texts keep theirs
// within 79 columns.
const HelpWidth = 79

// Wrap breaks each line of text wider than HelpWidth at its last space
// that fits, the rest going on a line of its own at the same indentation
// (a paragraph's lines are not joined: its line breaks are the writer's).
func Wrap(text string) string {
	return strings.Join(fill(strings.Split(text, "\n"), -1, -1, false), "\n")
}

// depth is the number of spaces l starts with.
func depth(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

// fill breaks the lines wider than HelpWidth at their last space that
// fits, a further line going on at the depth of the line it came from.
// With from >= 0 the first line is an option's: its description starts
// at column from, nothing left of that breaks, and its further lines go
// on at cont. With join,
// what a break leaves over runs on into the next line when that one goes
// on at the same depth (GNU fills a description as one paragraph). A word
// too long for any line stays whole.
func fill(lines []string, from, cont int, join bool) []string {
	var out []string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if len(l) <= HelpWidth {
			out = append(out, l)
			continue
		}
		start, at := depth(l), depth(l)
		if i == 0 && from >= 0 {
			start, at = min(from, len(l)), cont
		}
		cut := strings.LastIndexByte(l[:HelpWidth+1], ' ')
		if cut <= start || strings.TrimSpace(l[start:cut]) == "" {
			// no break fits: after the first word past start, if any
			word := strings.IndexByte(strings.TrimLeft(l[start:], " "), ' ')
			if word < 0 {
				out = append(out, l)
				continue
			}
			cut = len(l) - len(strings.TrimLeft(l[start:], " ")) + word
		}
		out = append(out, strings.TrimRight(l[:cut], " "))
		rest := strings.Repeat(" ", at) + strings.TrimLeft(l[cut:], " ")
		if join && i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" && depth(lines[i+1]) == at {
			lines[i+1] = rest + " " + lines[i+1][at:]
			continue
		}
		lines = append(lines[:i+1], append([]string{rest}, lines[i+1:]...)...)
	}
	return out
}

// argForm is how --help shows o's argument: o.argForm, or in
// util-linux's layout " <arg>" after a long name.
func (f *Flags) argForm(o *option) string {
	if f.UtilLinux && o.kind == RequiredArg && o.long != "" {
		return " " + o.argName
	}
	return o.argForm()
}

// argForm is how --help shows the option's argument after its name:
// "=ARG" or " ARG" (short only), "[=ARG]" or "[ARG]".
func (o *option) argForm() string {
	switch o.kind {
	case RequiredArg:
		if o.long != "" {
			return "=" + o.argName
		}
		return " " + o.argName
	case OptionalArg, OptionalLongArg:
		if o.long != "" {
			return "[=" + o.argName + "]"
		}
		return "[" + o.argName + "]"
	}
	return ""
}

// shortPrefix is the "-h, " before a fixed --help or --version line, or
// four spaces when the option has no short form.
func shortPrefix(r rune) string {
	if r == 0 {
		return "    "
	}
	return "-" + string(r) + ", "
}

// helpIndent puts indent before each further line of help, after taking
// away the leading spaces its further lines have in common.
func helpIndent(help, indent string) string {
	lines := strings.Split(help, "\n")
	common := -1
	for _, l := range lines[1:] {
		if n := len(l) - len(strings.TrimLeft(l, " ")); l != "" && (common < 0 || n < common) {
			common = n
		}
	}
	for i := 1; i < len(lines); i++ {
		if lines[i] != "" {
			lines[i] = indent + lines[i][common:]
		}
	}
	return strings.Join(lines, "\n")
}

// Names returns the long option names, sorted (for tab completion).
func (f *Flags) Names() []string {
	var out []string
	for _, o := range f.opts {
		if o.long != "" {
			out = append(out, "--"+o.long)
		}
	}
	sort.Strings(out)
	return out
}

// ArgpUsage writes the text of an argp program's --usage (GNU tar's):
// the options without an argument as one bracket of letters, then each
// short option with its argument, each long option, and operands, filled
// to 79 columns with continuation lines indented by 12.
func (f *Flags) ArgpUsage(w io.Writer, operands string) {
	var letters []rune
	var shortArgs, longs []string
	for _, o := range f.opts {
		if o.section != "" || o.left != "" || o.gap {
			continue
		}
		if o.short != 0 {
			switch o.kind {
			case NoArg, OptionalLongArg:
				letters = append(letters, o.short)
			case RequiredArg:
				shortArgs = append(shortArgs, "[-"+string(o.short)+" "+o.argName+"]")
			case OptionalArg:
				shortArgs = append(shortArgs, "[-"+string(o.short)+"["+o.argName+"]]")
			}
		}
		if o.long != "" {
			longs = append(longs, "[--"+o.long+o.argForm()+"]")
		}
	}
	items := []string{}
	if len(letters) > 0 {
		items = append(items, "[-"+string(letters)+"]")
	}
	items = append(append(items, shortArgs...), longs...)
	for _, it := range []string{"[--help]", "[--usage]", "[--version]"} {
		if !slices.Contains(longs, it) {
			items = append(items, it)
		}
	}
	if operands != "" {
		items = append(items, operands)
	}
	line := "Usage: " + f.name
	for _, it := range items {
		if len(line)+1+len(it) > 79 {
			fmt.Fprintln(w, line)
			line = strings.Repeat(" ", 11)
		}
		line += " " + it
	}
	fmt.Fprintln(w, line)
}
