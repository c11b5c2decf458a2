package builtins

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/llmsh/llmsh/internal/zones"
)

var _ = register(Builtin{Name: "date", Summary: "print the date and time", Run: date})

// now is the clock date reads; tests replace it.
var now = time.Now

// dateDefaultFormat is the C locale's date_fmt, GNU date's default.
const dateDefaultFormat = "%a %b %e %H:%M:%S %Z %Y"

// dateConfig is what date's command line asks for.
type dateConfig struct {
	dateStr   string // -d
	dateSet   bool
	refFile   string // -r
	refSet    bool
	resSet    bool // --resolution: the time is the clock's resolution
	utc       bool
	formats   []string
	sources   int // how many of -d, -f, -r
	sourceErr bool
	setStr    string // -s
	setGiven  bool
	batchFile string // -f
	batchSet  bool
	debug     bool
	format    string
	loc       *time.Location
}

func date(env *Env) int {
	c, status := dateCmdLine(env)
	if c == nil {
		return status
	}
	return c.run(env)
}

// flags is date's option table, filling c.
func (c *dateConfig) flags(env *Env) *Flags {
	f := NewFlags(env, "Display the current time in the given FORMAT, or set the system date.\n\n"+
		"The time zone is taken from the script's TZ variable (UTC when it is unset);\n"+
		"llmsh never sets the system date.",
		"[OPTION]... [+FORMAT]", "[-u|--utc|--universal] [MMDDhhmm[[CC]YY][.ss]]")
	var (
		isoChoices = []string{"hours", "minutes", "date", "seconds", "ns"}
		isoFormats = map[string]string{
			"date":    "%Y-%m-%d",
			"hours":   "%Y-%m-%dT%H%:z",
			"minutes": "%Y-%m-%dT%H:%M%:z",
			"seconds": "%Y-%m-%dT%H:%M:%S%:z",
			"ns":      "%Y-%m-%dT%H:%M:%S,%N%:z",
		}
		rfcChoices = []string{"date", "seconds", "ns"}
		rfcFormats = map[string]string{
			"date":    "%Y-%m-%d",
			"seconds": "%Y-%m-%d %H:%M:%S%:z",
			"ns":      "%Y-%m-%d %H:%M:%S.%N%:z",
		}
	)
	source := func() {
		c.sources++
		if c.sources > 1 {
			c.sourceErr = true
		}
	}
	f.Func('d', "date", RequiredArg, "STRING", "display time described by STRING, not 'now'", func(v string, _ bool) error {
		if !c.dateSet {
			source()
		}
		c.dateStr, c.dateSet = v, true
		return nil
	})
	f.Func('I', "iso-8601", OptionalArg, "FMT", "output date/time in ISO 8601 format.\n"+
		"                            FMT='date' for date only (the default),\n"+
		"                            'hours', 'minutes', 'seconds', or 'ns'", func(v string, present bool) error {
		if !present {
			v = "date"
		}
		choice, err := argmatch(env, v, isoChoices, "--iso-8601")
		if err != nil {
			return err
		}
		c.formats = append(c.formats, isoFormats[choice])
		return nil
	})
	f.Func(0, "resolution", NoArg, "", "output the available resolution of timestamps\n"+
		"                            Example: 0.000000001", func(string, bool) error {
		if !c.resSet {
			source()
		}
		c.resSet = true
		return nil
	})
	f.Func('R', "rfc-email", NoArg, "", "output date and time in RFC 5322 format.\n"+
		"                            Example: Mon, 14 Aug 2006 02:34:56 -0600", func(string, bool) error {
		c.formats = append(c.formats, "%a, %d %b %Y %H:%M:%S %z")
		return nil
	})
	f.Func(0, "rfc-3339", RequiredArg, "FMT", "output date/time in RFC 3339 format.\n"+
		"                            FMT='date', 'seconds', or 'ns'", func(v string, _ bool) error {
		choice, err := argmatch(env, v, rfcChoices, "--rfc-3339")
		if err != nil {
			return err
		}
		c.formats = append(c.formats, rfcFormats[choice])
		return nil
	})
	f.Func('f', "file", RequiredArg, "DATEFILE", "like --date; once for each line of DATEFILE", func(v string, _ bool) error {
		if !c.batchSet {
			source()
		}
		c.batchFile, c.batchSet = v, true
		return nil
	})
	f.Func('r', "reference", RequiredArg, "FILE", "display the last modification time of FILE", func(v string, _ bool) error {
		if !c.refSet {
			source()
		}
		c.refFile, c.refSet = v, true
		return nil
	})
	f.Func('s', "set", RequiredArg, "STRING", "set time described by STRING (always refused)", func(v string, _ bool) error {
		c.setStr, c.setGiven = v, true
		return nil
	})
	f.BoolVar(&c.debug, 0, "debug", "annotate the parsed date, and warn about questionable usage to stderr")
	f.BoolVar(&c.utc, 'u', "utc", "print or set Coordinated Universal Time (UTC)")
	f.Synonym("universal", "utc")
	f.Alias("rfc-822", "rfc-email") // GNU's hidden spellings
	f.Alias("rfc-2822", "rfc-email")
	f.Epilog = dateHelpEpilog
	return f
}

// dateCmdLine reads date's options and operands into a dateConfig; on nil
// it returns the exit status.
func dateCmdLine(env *Env) (*dateConfig, int) {
	c := &dateConfig{}
	f := c.flags(env)
	operands, err := f.Parse(env.Args[1:])
	if err != nil {
		return nil, f.Fail(err, 1)
	}
	if c.sourceErr {
		return nil, f.Fail(&UsageError{"the options to specify dates for printing are mutually exclusive"}, 1)
	}
	if c.setGiven && c.sources > 0 {
		return nil, f.Fail(&UsageError{"the options to print and set the time may not be used together"}, 1)
	}
	if len(operands) > 0 && strings.HasPrefix(operands[0], "+") {
		c.format = operands[0][1:]
		if len(operands) > 1 {
			return nil, f.Fail(&UsageError{"extra operand " + env.Quote(operands[1])}, 1)
		}
		c.formats = append(c.formats, c.format)
	} else if len(operands) > 1 {
		return nil, f.Fail(&UsageError{"extra operand " + env.Quote(operands[1])}, 1)
	}
	if len(c.formats) > 1 {
		env.Errorf("multiple output formats specified")
		return nil, 1
	}
	if len(c.formats) == 1 {
		c.format = c.formats[0]
	} else if c.resSet {
		c.format = "%s.%N"
	} else {
		c.format = dateDefaultFormat
	}
	c.loc = time.UTC
	if !c.utc {
		c.loc = dateLocation(env)
	}
	if len(operands) == 1 && !strings.HasPrefix(operands[0], "+") {
		// MMDDhhmm[[CC]YY][.ss] would set the clock.
		if c.sources > 0 {
			return nil, f.Fail(&UsageError{"the argument " + env.Quote(operands[0]) + " lacks a leading '+';\nwhen using an option to specify date(s), any non-option\nargument must be a format string beginning with '+'"}, 1)
		}
		t, ok := datePosixTime(operands[0], now().In(c.loc), c.loc)
		if !ok {
			env.Errorf("invalid date %s", env.Quote(operands[0]))
			return nil, 1
		}
		// GNU date reports the failure to set the clock, then prints
		// the date it would have set, and exits 1.
		env.Errorf("cannot set date: %s", ErrText(errPermSet))
		c.printTime(env, t)
		return nil, 1
	}
	return c, 0
}

// run prints the time asked for.
func (c *dateConfig) run(env *Env) int {
	if c.setGiven {
		t, err := dateParse(c.setStr, now(), c.loc)
		if err != nil {
			env.Errorf("invalid date %s", env.Quote(c.setStr))
			return 1
		}
		env.Errorf("cannot set date: %s", ErrText(errPermSet))
		c.printTime(env, t)
		return 1
	}
	if c.batchSet {
		return dateBatch(env, c.batchFile, c.format, c.loc, c.utc)
	}
	var t time.Time
	var err error
	switch {
	case c.dateSet:
		t, err = dateParse(c.dateStr, now(), c.loc)
		if err != nil {
			env.Errorf("invalid date %s", env.Quote(c.dateStr))
			return 1
		}
	case c.resSet:
		// Go's clock, and so llmsh's, counts nanoseconds.
		t = time.Unix(0, 1)
	case c.refSet:
		fi, err := env.FS.Stat(env.Abs(c.refFile))
		if err != nil {
			env.PathError(c.refFile, err)
			return 1
		}
		t = fi.ModTime()
	default:
		t = now()
	}
	t = t.In(c.loc)
	if c.debug {
		if c.dateSet {
			_, off := t.Zone()
			u := t.UTC()
			fmt.Fprintf(env.Stderr, "%s: final: %d.%09d (epoch-seconds)\n", env.Name(), t.Unix(), t.Nanosecond())
			fmt.Fprintf(env.Stderr, "%s: final: (Y-M-D) %s (UTC)\n", env.Name(), u.Format("2006-01-02 15:04:05"))
			fmt.Fprintf(env.Stderr, "%s: final: (Y-M-D) %s (UTC%s)\n", env.Name(), t.Format("2006-01-02 15:04:05"), dateFormat(time.Unix(0, 0).In(time.FixedZone("", off)), "%:::z", false))
		}
		fmt.Fprintf(env.Stderr, "%s: output format: %s\n", env.Name(), env.Quote(c.format))
	}
	return c.printTime(env, t)
}

// printTime writes t in c's format and zone, as date prints the time it
// was asked for (or would have set).
func (c *dateConfig) printTime(env *Env, t time.Time) int {
	out := dateFormat(t.In(c.loc), c.format, c.utc) + "\n"
	if _, err := env.Stdout.Write([]byte(out)); err != nil {
		return writeFailed(env, err)
	}
	return 0
}

// dateBatch prints the date of each line of name ("-" for standard
// input), as date -f does; unparsable lines are reported and skipped.
func dateBatch(env *Env, name, format string, loc *time.Location, utc bool) int {
	r, err := env.Open(name)
	if err != nil {
		env.PathError(name, err)
		return 1
	}
	defer r.Close()
	lr := newLineReader(env, r)
	w := bufio.NewWriter(env.Stdout)
	status := 0
	for {
		line, _, err := lr.next('\n')
		if err == io.EOF {
			break
		}
		if err != nil {
			if st, stop := stopError(env, err); stop {
				return st
			}
			w.Flush()
			env.PathError(name, err)
			return 1
		}
		t, perr := dateParse(string(line), now(), loc)
		if perr != nil {
			w.Flush()
			env.Errorf("invalid date %s", env.Quote(string(line)))
			status = 1
			continue
		}
		w.WriteString(dateFormat(t.In(loc), format, utc))
		if err := w.WriteByte('\n'); err != nil {
			break
		}
	}
	return finishOutput(env, w, status)
}

// errPermSet is why the clock is never set.
var errPermSet = errors.New("Operation not permitted")

const dateHelpEpilog = `FORMAT controls the output.  Interpreted sequences are:

  %%   a literal %
  %a   locale's abbreviated weekday name (e.g., Sun)
  %A   locale's full weekday name (e.g., Sunday)
  %b   locale's abbreviated month name (e.g., Jan)
  %B   locale's full month name (e.g., January)
  %c   locale's date and time (e.g., Thu Mar  3 23:05:25 2005)
  %C   century; like %Y, except omit last two digits (e.g., 20)
  %d   day of month (e.g., 01)
  %D   date; same as %m/%d/%y
  %e   day of month, space padded; same as %_d
  %F   full date; like %+4Y-%m-%d
  %g   last two digits of year of ISO week number (see %G)
  %G   year of ISO week number (see %V); normally useful only with %V
  %h   same as %b
  %H   hour (00..23)
  %I   hour (01..12)
  %j   day of year (001..366)
  %k   hour, space padded ( 0..23); same as %_H
  %l   hour, space padded ( 1..12); same as %_I
  %m   month (01..12)
  %M   minute (00..59)
  %n   a newline
  %N   nanoseconds (000000000..999999999)
  %p   locale's equivalent of either AM or PM; blank if not known
  %P   like %p, but lower case
  %q   quarter of year (1..4)
  %r   locale's 12-hour clock time (e.g., 11:11:04 PM)
  %R   24-hour hour and minute; same as %H:%M
  %s   seconds since the Epoch (1970-01-01 00:00 UTC)
  %S   second (00..60)
  %t   a tab
  %T   time; same as %H:%M:%S
  %u   day of week (1..7); 1 is Monday
  %U   week number of year, with Sunday as first day of week (00..53)
  %V   ISO week number, with Monday as first day of week (01..53)
  %w   day of week (0..6); 0 is Sunday
  %W   week number of year, with Monday as first day of week (00..53)
  %x   locale's date representation (e.g., 12/31/99)
  %X   locale's time representation (e.g., 23:13:48)
  %y   last two digits of year (00..99)
  %Y   year
  %z   +hhmm numeric time zone (e.g., -0400)
  %:z  +hh:mm numeric time zone (e.g., -04:00)
  %::z  +hh:mm:ss numeric time zone (e.g., -04:00:00)
  %:::z  numeric time zone with : to necessary precision (e.g., -04, +05:30)
  %Z   alphabetic time zone abbreviation (e.g., EDT)

By default, date pads numeric fields with zeroes.
The following optional flags may follow '%':

  -  (hyphen) do not pad the field
  _  (underscore) pad with spaces
  0  (zero) pad with zeros
  ^  use upper case if possible
  #  use opposite case if possible

After any flags comes an optional field width, as a decimal number;
then an optional modifier, which is either
E to use the locale's alternate representations if available, or
O to use the locale's alternate numeric symbols if available.

Examples:
Convert seconds since the Epoch (1970-01-01 UTC) to a date
  $ date --date='@2147483647'

Show the time on the west coast of the US (use tzselect(1) to find TZ)
  $ TZ='America/Los_Angeles' date

Show the local time for 9AM next Friday on the west coast of the US
  $ date --date='TZ="America/Los_Angeles" 09:00 next Fri'`

// argmatch resolves v among choices as GNU's argmatch does: an exact
// match or an unambiguous prefix.
func argmatch(env *Env, v string, choices []string, opt string) (string, error) {
	var match []string
	for _, c := range choices {
		if c == v {
			return c, nil
		}
		if strings.HasPrefix(c, v) {
			match = append(match, c)
		}
	}
	if len(match) == 1 {
		return match[0], nil
	}
	kind := "invalid"
	if len(match) > 1 {
		kind = "ambiguous"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s argument %s for %s\nValid arguments are:", kind, env.Quote(v), env.Quote(opt))
	for _, c := range choices {
		fmt.Fprintf(&b, "\n  - %s", env.Quote(c))
	}
	return "", &UsageError{b.String()}
}

// dateLocation is the time zone named by the script's TZ variable: a
// zoneinfo name (Europe/Paris), or a POSIX "STDoffset" such as UTC0 or
// EST5; UTC when TZ is unset or empty. The host's TZ is never consulted.
func dateLocation(env *Env) *time.Location {
	tz, ok := "", false
	for _, kv := range env.Environ {
		if v, found := strings.CutPrefix(kv, "TZ="); found {
			tz, ok = v, true
		}
	}
	if !ok {
		return time.UTC
	}
	return dateZoneNamed(tz)
}

// dateZoneNamed is the zone a TZ value names.
func dateZoneNamed(tz string) *time.Location {
	tz = strings.TrimPrefix(tz, ":")
	if tz == "" {
		return time.UTC
	}
	if tz != "Local" && !strings.HasPrefix(tz, "/") && !strings.Contains(tz, "..") {
		if loc, err := zones.Load(tz); err == nil {
			return loc
		}
	}
	return datePosixTZ(tz)
}

// datePosixTZ reads a POSIX TZ string ("EST5", "<+03>-3", "JST-9",
// "PST8PDT,M4.1.0,M10.5.0"); as glibc does, a string it cannot read names
// a zone at UTC. A daylight-saving part is applied by Go's own reading of
// TZ rules: the string becomes the footer of a zoneinfo file without
// transitions.
func datePosixTZ(s string) *time.Location {
	name, off, rest := datePosixStd(s)
	if rest != "" {
		if loc, err := time.LoadLocationFromTZData(s, dateTZif(name, off, s)); err == nil {
			return loc
		}
	}
	return time.FixedZone(name, off)
}

// dateTZif builds a zoneinfo (TZif version 2) file with one zone type,
// no transitions, and tz as its footer rule.
func dateTZif(name string, off int, tz string) []byte {
	var b []byte
	be32 := func(v uint32) { b = append(b, byte(v>>24), byte(v>>16), byte(v>>8), byte(v)) }
	block := func(version byte) {
		b = append(b, "TZif"...)
		b = append(b, version)
		b = append(b, make([]byte, 15)...)
		// isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
		for _, n := range []int{0, 0, 0, 0, 1, len(name) + 1} {
			be32(uint32(n))
		}
		be32(uint32(int32(off)))
		b = append(b, 0, 0)
		b = append(b, name...)
		b = append(b, 0)
	}
	block('2')
	block('2')
	b = append(b, '\n')
	b = append(b, tz...)
	return append(b, '\n')
}

// datePosixStd reads the standard-time name and offset (seconds east) at
// the start of a POSIX TZ string, and returns what follows them.
func datePosixStd(s string) (string, int, string) {
	var name string
	i := 0
	if strings.HasPrefix(s, "<") {
		if k := strings.IndexByte(s, '>'); k > 0 {
			name, i = s[1:k], k+1
		}
	} else {
		for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
			i++
		}
		name = s[:i]
	}
	if len(name) < 3 {
		return "", 0, "" // glibc: no usable name, UTC without an abbreviation
	}
	sign := 1
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		if s[i] == '-' {
			sign = -1
		}
		i++
	}
	secs := 0
	for part, mul := 0, 3600; part < 3 && i < len(s) && s[i] >= '0' && s[i] <= '9'; part, mul = part+1, mul/60 {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			n = min(n*10+int(s[i]-'0'), 1000)
			i++
		}
		if part == 0 {
			n = min(n, 24) // glibc caps the hours
		}
		secs += n * mul
		if i < len(s) && s[i] == ':' {
			i++
		} else {
			break
		}
	}
	return name, -sign * secs, s[i:]
}

// datePosixTime reads date's operand MMDDhhmm[[CC]YY][.ss] as gnulib's
// posixtime does, in loc: a two-digit year 69-99 is 19YY, 00-68 20YY,
// no year is now's; ss may be 60 (the next minute); a date that does not
// exist (0230...) is not valid.
func datePosixTime(s string, now time.Time, loc *time.Location) (time.Time, bool) {
	main, sec, hasSec := strings.Cut(s, ".")
	if hasSec && (len(sec) != 2 || strings.Trim(sec, "0123456789") != "") {
		return time.Time{}, false
	}
	if strings.Trim(main, "0123456789") != "" || (len(main) != 8 && len(main) != 10 && len(main) != 12) {
		return time.Time{}, false
	}
	n := func(s string) int { v, _ := strconv.Atoi(s); return v }
	mon, day, hour, min := n(main[0:2]), n(main[2:4]), n(main[4:6]), n(main[6:8])
	year := now.Year()
	switch len(main) {
	case 10:
		year = n(main[8:10]) + 1900
		if year < 1969 {
			year += 100
		}
	case 12:
		year = n(main[8:12])
	}
	ss := 0
	if hasSec {
		ss = n(sec)
	}
	if mon < 1 || mon > 12 || day < 1 || day > 31 || hour > 23 || min > 59 || ss > 60 {
		return time.Time{}, false
	}
	t := time.Date(year, time.Month(mon), day, hour, min, 0, 0, loc)
	if t.Day() != day || t.Month() != time.Month(mon) || t.Hour() != hour || t.Minute() != min {
		return time.Time{}, false
	}
	return t.Add(time.Duration(ss) * time.Second), true
}

var (
	dateDays   = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	dateMonths = []string{"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December"}
)

// dateFormat expands a GNU date FORMAT for t (C locale).
func dateFormat(t time.Time, format string, utc bool) string {
	var b strings.Builder
	dateFormatTo(&b, t, format, utc, 0)
	return b.String()
}

// dateFormatTo appends the expansion of format; yrPad is the padding flag
// of an enclosing composite (%D, %F...), which gnulib passes on to the
// year conversions inside it.
// dateDirective is one % directive of a date format being expanded.
type dateDirective struct {
	b           *strings.Builder
	t           time.Time
	utc         bool
	yrPad       byte   // the padding of the directive %c, %D etc. expand
	text        string // the directive as written, '%' to the conversion
	pad         byte   // the flag among _ - 0 +
	upper, swap bool   // the flags ^ and #
	width       int    // -1: none
	mod         byte   // E or O
	colons      int
}

func dateFormatTo(b *strings.Builder, t time.Time, format string, utc bool, yrPad byte) {
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		start := i
		d := dateDirective{b: b, t: t, utc: utc, yrPad: yrPad, width: -1}
		// Flags.
		j := i + 1
	flags:
		for ; j < len(format); j++ {
			switch format[j] {
			case '_', '-', '0', '+':
				d.pad = format[j]
			case '^':
				d.upper = true
			case '#':
				d.swap = true
			default:
				break flags
			}
		}
		for ; j < len(format) && format[j] >= '0' && format[j] <= '9'; j++ {
			if d.width < 0 {
				d.width = 0
			}
			if d.width < 1<<20 {
				d.width = d.width*10 + int(format[j]-'0')
			}
		}
		if j < len(format) && (format[j] == 'E' || format[j] == 'O') {
			d.mod = format[j]
			j++
		}
		for ; j < len(format) && format[j] == ':'; j++ {
			d.colons++
		}
		// A sequence that is not a conversion is copied, padded to width.
		if j >= len(format) {
			datePadString(b, format[start:], d.pad, d.width)
			return
		}
		if d.colons > 0 && (format[j] != 'z' || d.mod == 'O') {
			j = strings.IndexByte(format[start:], ':') + start
			datePadString(b, format[start:j+1], d.pad, d.width)
			i = j
			continue
		}
		conv := format[j]
		i = j
		d.text = format[start : j+1]
		if d.mod == 'E' && strings.IndexByte("aAbBhDFNdeHIjklmMSUVwWgG", conv) >= 0 ||
			d.mod == 'O' && strings.IndexByte("aADFqcxXY", conv) >= 0 {
			d.bad()
			continue
		}
		if !d.dateField(conv) {
			d.timeField(conv)
		}
	}
}

// bad copies a directive that is not a conversion, as written.
func (d *dateDirective) bad() {
	s := d.text
	if d.upper {
		s = strings.ToUpper(s)
	}
	datePadString(d.b, s, d.pad, d.width)
}

// num writes a number of at least digits digits (padded with spaces if
// spacePad), as the flags and width say.
func (d *dateDirective) num(v int64, digits int, spacePad bool) {
	if d.mod != 0 {
		// Alternate digits (O) or era (E): the number keeps its own
		// digits, the width pads with spaces, or zeros with the 0 flag
		// (gnulib: %5Ey and %_5Om are "   70" and "   01", %05Om is
		// "00001").
		var nb strings.Builder
		dateNumber(&nb, v, digits, spacePad, 0, -1)
		n := nb.String()
		switch d.pad {
		case '-':
			datePadString(d.b, n, '-', d.width)
		case '0', '+':
			// The zeros go before the number's own padding:
			// %05Oe is "000 2".
			for k := len(n); k < d.width; k++ {
				d.b.WriteByte('0')
			}
			d.b.WriteString(n)
		default:
			datePadString(d.b, n, 0, d.width)
		}
		return
	}
	dateNumber(d.b, v, digits, spacePad, d.pad, d.width)
}

// str writes a name; # makes it upper case, or lower case if lowerSwap.
func (d *dateDirective) str(s string, lowerSwap bool) {
	switch {
	case d.swap && lowerSwap:
		s = strings.ToLower(s)
	case d.upper || d.swap:
		s = strings.ToUpper(s)
	}
	datePadString(d.b, s, d.pad, d.width)
}

// yearNum writes a year or a part of one, which gnulib pads its own way.
func (d *dateDirective) yearNum(v int64, digits int) {
	if d.pad == '+' && d.mod == 0 {
		// gnulib: a sign when the year overflows its digits or the width.
		limit := int64(9999)
		if digits == 2 {
			limit = 99
		}
		if v >= 0 && (v > limit || digits < d.width) {
			d.b.WriteByte('+')
			dateNumber(d.b, v, digits-1, false, '0', d.width-1)
			return
		}
	}
	if d.mod != 0 && digits != 2 {
		digits = 1 // %EY, %OG: the year's own digits only
	}
	if d.pad == 0 && d.mod == 0 {
		switch d.yrPad {
		case '_', '-':
			dateNumber(d.b, v, digits, false, '-', d.width)
			return
		case '0', '+':
			dateNumber(d.b, v, digits, false, '0', d.width)
			return
		}
	}
	d.num(v, digits, false)
}

// sub writes the expansion of format f, padded as one field.
func (d *dateDirective) sub(f string) {
	var sb strings.Builder
	dateFormatTo(&sb, d.t, f, d.utc, d.pad)
	s := sb.String()
	if d.upper {
		s = strings.ToUpper(s)
	}
	datePadString(d.b, s, d.pad, d.width)
}

// dateField expands the conversions of the date; it reports false for a
// conversion that is not one of them.
func (d *dateDirective) dateField(conv byte) bool {
	year := int64(d.t.Year())
	switch conv {
	case 'a':
		d.str(dateDays[d.t.Weekday()][:3], false)
	case 'A':
		d.str(dateDays[d.t.Weekday()], false)
	case 'b', 'h':
		d.str(dateMonths[d.t.Month()-1][:3], false)
	case 'B':
		d.str(dateMonths[d.t.Month()-1], false)
	case 'c':
		// glibc's %c, whose year is not padded.
		d.sub("%a %b %e %H:%M:%S " + strconv.Itoa(d.t.Year()))
	case 'C':
		if d.mod != 0 {
			d.num(dateFloorDiv(year, 100), 1, false) // %EC: no padding
			break
		}
		d.yearNum(dateFloorDiv(year, 100), 2)
	case 'd':
		d.num(int64(d.t.Day()), 2, false)
	case 'D':
		d.sub("%m/%d/%y")
	case 'e':
		d.num(int64(d.t.Day()), 2, true)
	case 'F':
		d.isoDate(year)
	case 'g':
		y, _ := d.t.ISOWeek()
		d.yearNum(int64((y%100+100)%100), 2)
	case 'G':
		y, _ := d.t.ISOWeek()
		d.yearNum(int64(y), 4)
	case 'j':
		d.num(int64(d.t.YearDay()), 3, false)
	case 'm':
		d.num(int64(d.t.Month()), 2, false)
	case 'q':
		d.num(int64((d.t.Month()-1)/3+1), 1, false)
	case 'u':
		d.num(int64((d.t.Weekday()+6)%7+1), 1, false)
	case 'U':
		d.num(int64((d.t.YearDay()-1-int(d.t.Weekday())+7)/7), 2, false)
	case 'V':
		_, w := d.t.ISOWeek()
		d.num(int64(w), 2, false)
	case 'w':
		d.num(int64(d.t.Weekday()), 1, false)
	case 'W':
		d.num(int64((d.t.YearDay()-1-(int(d.t.Weekday())+6)%7+7)/7), 2, false)
	case 'x':
		d.sub("%m/%d/%y")
	case 'y':
		d.yearNum((year%100+100)%100, 2)
	case 'Y':
		d.yearNum(year, 4)
	default:
		return false
	}
	return true
}

// timeField expands the conversions of the time of day, the zone and
// the literal ones.
func (d *dateDirective) timeField(conv byte) {
	switch conv {
	case '%':
		if len(d.text) == 2 {
			d.b.WriteByte('%')
		} else {
			// gnulib copies a decorated %% and pads it one wider.
			datePadString(d.b, d.text, d.pad, d.width+1)
		}
	case 'H':
		d.num(int64(d.t.Hour()), 2, false)
	case 'I':
		d.num(int64((d.t.Hour()+11)%12+1), 2, false)
	case 'k':
		d.num(int64(d.t.Hour()), 2, true)
	case 'l':
		d.num(int64((d.t.Hour()+11)%12+1), 2, true)
	case 'M':
		d.num(int64(d.t.Minute()), 2, false)
	case 'n':
		datePadString(d.b, "\n", d.pad, d.width)
	case 'N':
		dateNanos(d.b, d.t.Nanosecond(), d.pad, d.width)
	case 'p':
		if d.t.Hour() < 12 {
			d.str("AM", true)
		} else {
			d.str("PM", true)
		}
	case 'P':
		d.upper, d.swap = false, false
		if d.t.Hour() < 12 {
			d.str("am", false)
		} else {
			d.str("pm", false)
		}
	case 'r':
		d.sub("%I:%M:%S %p")
	case 'R':
		d.sub("%H:%M")
	case 's':
		d.num(d.t.Unix(), 1, false)
	case 'S':
		d.num(int64(d.t.Second()), 2, false)
	case 't':
		datePadString(d.b, "\t", d.pad, d.width)
	case 'T':
		d.sub("%H:%M:%S")
	case 'X':
		d.sub("%H:%M:%S")
	case 'z':
		if d.colons > 3 {
			d.bad()
			return
		}
		_, off := d.t.Zone()
		dateZoneOffset(d.b, off, d.colons, d.pad, d.width)
	case 'Z':
		name, _ := d.t.Zone()
		if d.utc {
			name = "UTC"
		}
		upperName := d.upper
		d.upper = false
		if upperName {
			name = strings.ToUpper(name)
		}
		d.str(name, true)
	default:
		d.bad()
	}
}

// isoDate writes %F: %+4Y-%m-%d.
func (d *dateDirective) isoDate(year int64) {
	// gnulib: the width goes to the year, which by default is
	// %+4Y (a sign beyond 9999).
	ypad, ywidth := d.pad, max(d.width-6, 0)
	if d.pad == 0 && d.width < 0 {
		ypad, ywidth = '+', 4
	}
	if y := year; ypad == '+' && y >= 0 && (y > 9999 || ywidth > 4) {
		d.b.WriteByte('+')
		dateNumber(d.b, y, 3, false, '0', ywidth-1)
	} else {
		if ypad == '+' {
			ypad = '0'
		}
		dateNumber(d.b, y, 4, false, ypad, ywidth)
	}
	fmt.Fprintf(d.b, "-%02d-%02d", int(d.t.Month()), d.t.Day())
}

func dateFloorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// dateNumber writes v padded as gnulib's strftime pads numbers: to
// digits places with zeros (spaces for %e %k %l), or to width.
func dateNumber(b *strings.Builder, v int64, digits int, spacePad bool, pad byte, width int) {
	neg := v < 0
	s := strconv.FormatInt(v, 10)
	if neg {
		s = s[1:]
	}
	fill := byte('0')
	if spacePad {
		fill = ' '
	}
	switch pad {
	case '-':
		if neg {
			s = "-" + s
		}
		b.WriteString(s)
		return
	case '_':
		fill = ' '
	case '0', '+':
		fill = '0'
	}
	w := digits
	if width >= 0 {
		w = width
	}
	if neg {
		w--
	}
	if fill == '0' {
		if neg {
			b.WriteByte('-')
		}
		for k := len(s); k < w; k++ {
			b.WriteByte('0')
		}
		b.WriteString(s)
		return
	}
	for k := len(s); k < w; k++ {
		b.WriteByte(' ')
	}
	if neg {
		b.WriteByte('-')
	}
	b.WriteString(s)
}

// datePadString pads a text conversion to width with spaces (zeros with
// the 0 flag); the - flag turns padding off.
func datePadString(b *strings.Builder, s string, pad byte, width int) {
	if pad != '-' {
		fill := " "
		if pad == '0' || pad == '+' {
			fill = "0"
		}
		for k := len(s); k < width; k++ {
			b.WriteString(fill)
		}
	}
	b.WriteString(s)
}

// dateNanos writes %N as gnulib does: the fraction's significant digits,
// at most width of them (9 by default), then padded on the right to
// width with zeros (spaces with _, nothing with - and an explicit width).
func dateNanos(b *strings.Builder, ns int, pad byte, width int) {
	if width <= 0 {
		width = 9
		if pad == '-' {
			pad = '0'
		}
	}
	n, ndigs := ns, 9
	for width < ndigs || (ndigs > 1 && n%10 == 0) {
		ndigs--
		n /= 10
	}
	s := fmt.Sprintf("%0*d", ndigs, n)
	b.WriteString(s)
	if pad == '-' {
		return
	}
	fill := "0"
	if pad == '_' {
		fill = " "
	}
	for k := len(s); k < width; k++ {
		b.WriteString(fill)
	}
}

// dateZoneOffset writes %z, %:z, %::z or %:::z.
func dateZoneOffset(b *strings.Builder, off, colons int, pad byte, width int) {
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	h, m, s := off/3600, off/60%60, off%60
	var num int
	var digits int
	var suffix string
	switch colons {
	case 0:
		num, digits = h*100+m, 4
	case 1:
		num, digits, suffix = h, 2, fmt.Sprintf(":%02d", m)
	case 2:
		num, digits, suffix = h, 2, fmt.Sprintf(":%02d:%02d", m, s)
	default:
		num, digits = h, 2
		if s != 0 {
			suffix = fmt.Sprintf(":%02d:%02d", m, s)
		} else if m != 0 {
			suffix = fmt.Sprintf(":%02d", m)
		}
	}
	ds := strconv.Itoa(num)
	w := digits + 1 // the sign
	if width >= 0 {
		w = width - len(suffix)
	}
	switch pad {
	case '-':
		b.WriteByte(sign)
		b.WriteString(ds)
	case '_':
		for k := len(ds) + 1; k < w; k++ {
			b.WriteByte(' ')
		}
		b.WriteByte(sign)
		b.WriteString(ds)
	default:
		b.WriteByte(sign)
		for k := len(ds) + 1; k < w; k++ {
			b.WriteByte('0')
		}
		b.WriteString(ds)
	}
	b.WriteString(suffix)
}

// Strftime formats t as strftime(3) formats format in the C locale, in the
// zone that tz (a value of TZ) names, UTC when empty: for the prompt escape
// \D{FORMAT} of the shell (interp.TimeFormat).
func Strftime(t time.Time, format, tz string) string {
	return strftimeC(t.In(dateZoneNamed(tz)), format)
}
