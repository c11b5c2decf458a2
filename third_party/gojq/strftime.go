package gojq

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// brokenDownTime is a C struct tm as jq 1.7.1's jv2tm fills it from a
// broken-down time: each field as given (truncated to an int), not
// normalized; year is the year itself, not less 1900.
type brokenDownTime struct {
	year, mon, mday, hour, min, sec, wday, yday int
}

func timeToBrokenDown(t time.Time) brokenDownTime {
	return brokenDownTime{t.Year(), int(t.Month()) - 1, t.Day(), t.Hour(), t.Minute(), t.Second(),
		int(t.Weekday()), t.YearDay() - 1}
}

// arrayToBrokenDown reads the first eight numbers of a as jv2tm does.
func arrayToBrokenDown(a []any) brokenDownTime {
	var f [8]int
	for i := range f {
		x, _ := ToFloat64(a[i])
		switch {
		case math.IsNaN(x):
			f[i] = math.MinInt32
		case x < math.MinInt32:
			f[i] = math.MinInt32
		case x > math.MaxInt32:
			f[i] = math.MaxInt32
		default:
			f[i] = int(x)
		}
	}
	return brokenDownTime{f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7]}
}

var (
	cWeekdays = [...]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	cMonths   = [...]string{"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December"}
)

// floorDiv100 and floorMod100 are a / 100 rounded down and what is left.
func floorDiv100(a int) int {
	if a < 0 {
		return -((-a + 99) / 100)
	}
	return a / 100
}

func floorMod100(a int) int { return a - 100*floorDiv100(a) }

func isLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

// isoWeekDays is glibc's iso_week_days: the days since the Monday of the
// ISO week 1 of the year of the day yday (weekday wday).
func isoWeekDays(yday, wday int) int {
	const bigEnough = (366/7 + 2) * 7
	return yday - (yday-wday+4+bigEnough)%7 + 4 - 1
}

// glibcStrftime formats tm as glibc's strftime does in the C locale,
// which jq 1.7.1 calls for strftime: the fields as they are (a weekday
// outside 0 to 6 is "?"), years unpadded, the flags _ - 0 ^ # and a
// width; zone and offset name t's zone. An unknown conversion is copied.
func glibcStrftime(format string, tm brokenDownTime, zone string, offset int) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			b.WriteByte(format[i])
			continue
		}
		start := i
		var pad byte
		upcase, swapcase := false, false
	flags:
		for i+1 < len(format) {
			switch c := format[i+1]; c {
			case '_', '-', '0', '+':
				pad = c
			case '^':
				upcase = true
			case '#':
				swapcase = true
			default:
				break flags
			}
			i++
		}
		width := -1
		for i+1 < len(format) && format[i+1] >= '0' && format[i+1] <= '9' {
			if width < 0 {
				width = 0
			}
			width = min(width*10+int(format[i+1]-'0'), 1<<16)
			i++
		}
		for i+1 < len(format) && (format[i+1] == 'E' || format[i+1] == 'O') {
			i++
		}
		if i+1 >= len(format) {
			b.WriteString(format[start:])
			break
		}
		i++
		// number writes n with at least digits digits (the sign counts),
		// padded as the flags say
		number := func(n, digits int, spacePad bool) {
			if pad == '-' {
				digits = 1
			}
			if width >= 0 {
				digits = width
			}
			s := strconv.Itoa(absInt(n))
			sign := ""
			if n < 0 {
				sign = "-"
			}
			fill := "0"
			if pad == '_' || (spacePad && pad != '0') {
				fill = " "
			}
			for len(sign)+len(s) < digits {
				if fill == " " {
					sign = " " + sign
				} else {
					s = "0" + s
				}
			}
			b.WriteString(sign + s)
		}
		text := func(s string, lowerForSwap bool) {
			switch {
			case upcase || (swapcase && !lowerForSwap):
				s = strings.ToUpper(s)
			case swapcase:
				s = strings.ToLower(s)
			}
			if width > len(s) && pad != '-' {
				fill := " "
				if pad == '0' {
					fill = "0"
				}
				s = strings.Repeat(fill, width-len(s)) + s
			}
			b.WriteString(s)
		}
		sub := func(f string) {
			s := glibcStrftime(f, tm, zone, offset)
			text(s, false)
		}
		hour12 := tm.hour // glibc's: not a remainder
		if hour12 > 12 {
			hour12 -= 12
		} else if hour12 == 0 {
			hour12 = 12
		}
		switch c := format[i]; c {
		case '%':
			text("%", false)
		case 'n':
			text("\n", false)
		case 't':
			text("\t", false)
		case 'a', 'A':
			s := "?"
			if tm.wday >= 0 && tm.wday <= 6 {
				s = cWeekdays[tm.wday]
				if c == 'a' {
					s = s[:3]
				}
			}
			text(s, false)
		case 'b', 'h', 'B':
			s := "?"
			if tm.mon >= 0 && tm.mon <= 11 {
				s = cMonths[tm.mon]
				if c != 'B' {
					s = s[:3]
				}
			}
			text(s, false)
		case 'c':
			sub("%a %b %e %H:%M:%S %Y")
		case 'D', 'x':
			sub("%m/%d/%y")
		case 'F':
			sub("%Y-%m-%d")
		case 'T', 'X':
			sub("%H:%M:%S")
		case 'R':
			sub("%H:%M")
		case 'r':
			sub("%I:%M:%S %p")
		case 'C':
			number(floorDiv100(tm.year), 1, false)
		case 'Y':
			number(tm.year, 1, false)
		case 'y':
			number(floorMod100(tm.year), 2, false)
		case 'd':
			number(tm.mday, 2, false)
		case 'e':
			number(tm.mday, 2, true)
		case 'H':
			number(tm.hour, 2, false)
		case 'k':
			number(tm.hour, 2, true)
		case 'I':
			number(hour12, 2, false)
		case 'l':
			number(hour12, 2, true)
		case 'j':
			number(tm.yday+1, 3, false)
		case 'm':
			number(tm.mon+1, 2, false)
		case 'M':
			number(tm.min, 2, false)
		case 'S':
			number(tm.sec, 2, false)
		case 'p', 'P':
			s := "AM"
			if tm.hour > 11 {
				s = "PM"
			}
			if c == 'P' {
				s = strings.ToLower(s)
			}
			text(s, true)
		case 'u':
			number((tm.wday-1+7)%7+1, 1, false)
		case 'w':
			number(tm.wday, 1, false)
		case 'U':
			number((tm.yday-tm.wday+7)/7, 2, false)
		case 'W':
			number((tm.yday-(tm.wday-1+7)%7+7)/7, 2, false)
		case 'V', 'g', 'G':
			yearAdjust := 0
			days := isoWeekDays(tm.yday, tm.wday)
			if days < 0 {
				yearAdjust = -1
				leap := 0
				if isLeap(tm.year - 1) {
					leap = 1
				}
				days = isoWeekDays(tm.yday+365+leap, tm.wday)
			} else {
				leap := 0
				if isLeap(tm.year) {
					leap = 1
				}
				if d := isoWeekDays(tm.yday-365-leap, tm.wday); d >= 0 {
					yearAdjust, days = 1, d
				}
			}
			switch c {
			case 'V':
				number(days/7+1, 2, false)
			case 'g':
				number(floorMod100(tm.year+yearAdjust), 2, false)
			default:
				number(tm.year+yearAdjust, 1, false)
			}
		case 's':
			number(int(time.Date(tm.year, time.Month(tm.mon+1), tm.mday, tm.hour, tm.min, tm.sec, 0, time.UTC).Unix())-offset, 1, false)
		case 'z':
			sign := '+'
			o := offset
			if o < 0 {
				sign, o = '-', -o
			}
			b.WriteRune(sign)
			number(o/3600*100+o/60%60, 4, false)
		case 'Z':
			text(zone, true)
		default:
			b.WriteString(format[start : i+1])
		}
	}
	return b.String()
}

func absInt(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
