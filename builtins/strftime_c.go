package builtins

import (
	"strconv"
	"strings"
	"time"
)

// strftimeC expands format for t as glibc 2.36's strftime(3) does in the
// C locale, which bash's printf %(FORMAT)T and the prompt's \D{FORMAT}
// call (GNU date, ls and du use gnulib's nstrftime instead: dateFormat).
// The two differ in their padding: glibc pads a number to the larger of
// its digits and the width (%1M is 00), then pads the whole conversion to
// the width with spaces, or zeros with the flag 0 (%-5d is "   14", %12z
// "           +000000000000"); %Y, %G and %C have no digits of their own
// (year 5 is 5); and glibc has no %q, %N, %:z or + flag, which it copies
// as written.
func strftimeC(t time.Time, format string) string {
	var b strings.Builder
	strftimeCTo(&b, t, format)
	if b.Len() >= 128 {
		// bash's buffer holds 128 bytes; strftime fails on more,
		// which bash prints as nothing.
		return ""
	}
	return b.String()
}

// strftimeCDir is one conversion of strftimeC.
type strftimeCDir struct {
	b          *strings.Builder
	pad        byte // _ - 0, or 0
	width      int  // -1: none
	upper      bool // ^, or # on a name glibc upper-cases
	lower      bool // # on %Z, %p; %P
	changeCase bool // #
}

// add writes s padded to the width: zeros with the flag 0, else spaces
// (glibc's add), in the case asked for (its cpy).
func (d *strftimeCDir) add(s string) {
	switch {
	case d.lower:
		s = strings.ToLower(s)
	case d.upper:
		s = strings.ToUpper(s)
	}
	fill := byte(' ')
	if d.pad == '0' {
		fill = '0'
	}
	for k := len(s); k < d.width; k++ {
		d.b.WriteByte(fill)
	}
	d.b.WriteString(s)
}

// number writes v with at least digits digits (glibc's DO_NUMBER; the
// width counts as digits too), spaces before them when spacePad.
func (d *strftimeCDir) number(v int64, digits int, spacePad bool) {
	digits = max(digits, d.width)
	pad := d.pad
	if spacePad && pad == 0 {
		pad = '_'
	}
	neg := v < 0
	s := strconv.FormatInt(v, 10)
	if neg {
		s = s[1:]
	}
	n := len(s)
	if neg {
		n++
	}
	if padding := digits - n; pad != '-' && padding > 0 {
		if pad == '_' {
			d.b.WriteString(strings.Repeat(" ", padding))
			d.width = max(d.width-padding, 0)
		} else {
			if neg {
				d.b.WriteByte('-')
				neg = false
			}
			d.b.WriteString(strings.Repeat("0", padding))
			d.width = 0
		}
	}
	if neg {
		s = "-" + s
	}
	d.add(s)
}

// sub writes the expansion of a composite conversion (%c, %D, %F …)
// padded as one field (glibc's subformat).
func (d *strftimeCDir) sub(t time.Time, format string) {
	var sb strings.Builder
	strftimeCTo(&sb, t, format)
	d.lower = false
	d.add(sb.String())
}

func strftimeCTo(b *strings.Builder, t time.Time, format string) {
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			b.WriteByte(format[i])
			continue
		}
		start := i
		d := strftimeCDir{b: b, width: -1}
		j := i + 1
	flags:
		for ; j < len(format); j++ {
			switch format[j] {
			case '_', '-', '0':
				d.pad = format[j]
			case '^':
				d.upper = true
			case '#':
				d.changeCase = true
			default:
				break flags
			}
		}
		for ; j < len(format) && format[j] >= '0' && format[j] <= '9'; j++ {
			d.width = min(max(d.width, 0)*10+int(format[j]-'0'), 1<<20)
		}
		var mod byte
		if j < len(format) && (format[j] == 'E' || format[j] == 'O') {
			mod = format[j]
			j++
		}
		if j >= len(format) {
			d.add(format[start:]) // a % at the end: copied
			return
		}
		i = j
		if !d.conv(t, format[j], mod) {
			d.add(format[start : j+1]) // glibc's bad_format
		}
	}
}

// conv expands conversion c with modifier mod; false for one that glibc
// copies as written.
func (d *strftimeCDir) conv(t time.Time, c, mod byte) bool {
	year := int64(t.Year())
	if c == 'b' || c == 'h' || c == 'B' {
		d.upper = d.upper || d.changeCase // before glibc's E check
	}
	if mod == 'E' && strings.IndexByte("aAbBdDeFgGhHIjklmMSUVwW", c) >= 0 ||
		mod == 'O' && strings.IndexByte("aAcDFxXY", c) >= 0 {
		return false
	}
	switch c {
	case 'a', 'A':
		d.upper = d.upper || d.changeCase
		if c == 'a' {
			d.add(dateDays[t.Weekday()][:3])
		} else {
			d.add(dateDays[t.Weekday()])
		}
	case 'b', 'h', 'B':
		if c == 'B' {
			d.add(dateMonths[t.Month()-1])
		} else {
			d.add(dateMonths[t.Month()-1][:3])
		}
	case 'c':
		d.sub(t, "%a %b %e %H:%M:%S %Y")
	case 'C':
		cent := year / 100
		if year%100 < 0 {
			cent--
		}
		d.number(cent, 1, false)
	case 'D', 'F', 'R', 'T', 'r':
		d.sub(t, map[byte]string{'D': "%m/%d/%y", 'F': "%Y-%m-%d", 'R': "%H:%M", 'T': "%H:%M:%S", 'r': "%I:%M:%S %p"}[c])
	case 'x', 'X':
		if c == 'x' {
			d.sub(t, "%m/%d/%y")
		} else {
			d.sub(t, "%H:%M:%S")
		}
	case 'n', 't', '%':
		d.add(map[byte]string{'n': "\n", 't': "\t", '%': "%"}[c])
	case 'p', 'P':
		d.lower = c == 'P' || d.changeCase
		if t.Hour() < 12 {
			d.add("AM")
		} else {
			d.add("PM")
		}
	case 's':
		d.add(strconv.FormatInt(t.Unix(), 10))
	case 'z':
		_, off := t.Zone()
		sign := "+"
		if off < 0 {
			sign, off = "-", -off
		}
		d.add(sign)
		off /= 60
		d.number(int64(off/60*100+off%60), 4, false)
	case 'Z':
		d.lower = d.changeCase
		name, _ := t.Zone()
		d.add(name)
	case 'y', 'Y':
		if c == 'Y' {
			d.number(year, 1, false)
		} else {
			d.number((year%100+100)%100, 2, false)
		}
	default:
		return d.numberConv(t, c)
	}
	return true
}

// numberConv expands the conversions that are numbers without a
// modifier of their own.
func (d *strftimeCDir) numberConv(t time.Time, c byte) bool {
	isoYear, isoWeek := t.ISOWeek()
	wday, yday := int64(t.Weekday()), int64(t.YearDay()-1)
	switch c {
	case 'd':
		d.number(int64(t.Day()), 2, false)
	case 'e':
		d.number(int64(t.Day()), 2, true)
	case 'g':
		d.number(int64((isoYear%100+100)%100), 2, false)
	case 'G':
		d.number(int64(isoYear), 1, false)
	case 'H':
		d.number(int64(t.Hour()), 2, false)
	case 'I':
		d.number(int64((t.Hour()+11)%12+1), 2, false)
	case 'j':
		d.number(yday+1, 3, false)
	case 'k':
		d.number(int64(t.Hour()), 2, true)
	case 'l':
		d.number(int64((t.Hour()+11)%12+1), 2, true)
	case 'm':
		d.number(int64(t.Month()), 2, false)
	case 'M':
		d.number(int64(t.Minute()), 2, false)
	case 'S':
		d.number(int64(t.Second()), 2, false)
	case 'u':
		d.number((wday+6)%7+1, 1, false)
	case 'U':
		d.number((yday-wday+7)/7, 2, false)
	case 'V':
		d.number(int64(isoWeek), 2, false)
	case 'w':
		d.number(wday, 1, false)
	case 'W':
		d.number((yday-(wday+6)%7+7)/7, 2, false)
	default:
		return false
	}
	return true
}
