package builtins

import (
	"errors"
	"strings"
	"sync"
	"time"
)

// This file reads date -d strings, following the grammar of gnulib's
// parse-datetime: a sequence of items (calendar dates, times of day, time
// zones, days of the week, relative offsets and plain numbers) in any
// order, or "@SECONDS".

var errDateInvalid = errors.New("invalid date")

// Token kinds.
const (
	dtEOF = iota
	dtNum // unsigned number
	dtSNum
	dtWord
	dtChar
)

type dateTok struct {
	kind    int
	val     int64 // magnitude for numbers
	neg     bool
	digits  int
	frac    int64 // nanoseconds after '.' or ','
	hasFrac bool
	word    string // lower case, dots removed
	ch      byte
}

func (t dateTok) signed() int64 {
	if t.neg {
		return -t.val
	}
	return t.val
}

func dateLex(s string) ([]dateTok, error) {
	var toks []dateTok
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' }
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	isAlpha := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case isSpace(c):
			i++
		case isDigit(c) || c == '-' || c == '+':
			tok := dateTok{kind: dtNum}
			j := i
			if c == '-' || c == '+' {
				j++
				for j < len(s) && isSpace(s[j]) {
					j++
				}
				if j >= len(s) || !isDigit(s[j]) {
					i = j // a sign without a number is skipped
					continue
				}
				tok.kind, tok.neg = dtSNum, c == '-'
			}
			for ; j < len(s) && isDigit(s[j]); j++ {
				if tok.digits > 18 {
					return nil, errDateInvalid
				}
				tok.val = tok.val*10 + int64(s[j]-'0')
				tok.digits++
			}
			if j+1 < len(s) && (s[j] == '.' || s[j] == ',') && isDigit(s[j+1]) {
				j++
				tok.hasFrac = true
				n := 0
				for ; j < len(s) && isDigit(s[j]); j++ {
					if n < 9 {
						tok.frac = tok.frac*10 + int64(s[j]-'0')
						n++
					}
				}
				for ; n < 9; n++ {
					tok.frac *= 10
				}
			}
			toks = append(toks, tok)
			i = j
		case isAlpha(c):
			j := i
			for j < len(s) && (isAlpha(s[j]) || s[j] == '.') {
				j++
			}
			w := strings.ToLower(strings.ReplaceAll(s[i:j], ".", ""))
			toks = append(toks, dateTok{kind: dtWord, word: w})
			i = j
		case c == '(':
			depth := 0
			for ; i < len(s); i++ {
				if s[i] == '(' {
					depth++
				} else if s[i] == ')' {
					depth--
					if depth == 0 {
						i++
						break
					}
				}
			}
			if depth != 0 {
				return nil, errDateInvalid
			}
		default:
			toks = append(toks, dateTok{kind: dtChar, ch: c})
			i++
		}
	}
	return toks, nil
}

// Word classes.
const (
	dwNone = iota
	dwMonth
	dwDay
	dwMeridian
	dwUnit
	dwDayShift
	dwOrdinal
	dwAgo
	dwZone
	dwDST
)

// dateUnit is a relative unit in seconds-like steps: years, months, days
// or seconds.
type dateUnit struct {
	y, mo, d, s int64
}

var dateUnits = map[string]dateUnit{
	"year": {y: 1}, "month": {mo: 1}, "fortnight": {d: 14}, "week": {d: 7}, "day": {d: 1},
	"hour": {s: 3600}, "minute": {s: 60}, "min": {s: 60}, "second": {s: 1}, "sec": {s: 1},
}

var dateOrdinals = map[string]int64{
	"last": -1, "this": 0, "next": 1, "first": 1, "third": 3, "fourth": 4, "fifth": 5,
	"sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12,
}

// dateZones are gnulib's time zone abbreviations, in minutes east of UTC.
var dateZones = sync.OnceValue(func() map[string]int {
	return map[string]int{
		"gmt": 0, "ut": 0, "utc": 0, "wet": 0, "west": 60, "bst": 60, "art": -180, "brt": -180,
		"brst": -120, "nst": -210, "ndt": -150, "ast": -240, "adt": -180, "clt": -240, "clst": -180,
		"est": -300, "edt": -240, "cst": -360, "cdt": -300, "mst": -420, "mdt": -360, "pst": -480,
		"pdt": -420, "akst": -540, "akdt": -480, "hst": -600, "hast": -600, "hadt": -540, "sst": -720,
		"wat": 60, "cet": 60, "cest": 120, "met": 60, "mez": 60, "mesz": 120, "eet": 120, "eest": 180,
		"cat": 120, "sast": 120, "eat": 180, "msk": 180, "msd": 240, "ist": 330, "sgt": 480,
		"kst": 540, "jst": 540, "gst": 600, "nzst": 720, "nzdt": 780,
	}
})

func dateClassify(w string) (kind int, val int64, unit dateUnit) {
	if w == "am" || w == "pm" {
		return dwMeridian, map[string]int64{"am": 1, "pm": 2}[w], unit
	}
	for i, m := range dateMonths {
		lm := strings.ToLower(m)
		if w == lm || (len(w) == 3 && lm[:3] == w) || (i == 8 && w == "sept") {
			return dwMonth, int64(i + 1), unit
		}
	}
	for i, d := range dateDays {
		ld := strings.ToLower(d)
		if w == ld || (len(w) == 3 && ld[:3] == w) ||
			(i == 2 && w == "tues") || (i == 3 && w == "wednes") || (i == 4 && (w == "thur" || w == "thurs")) {
			return dwDay, int64(i), unit
		}
	}
	switch w {
	case "tomorrow":
		return dwDayShift, 1, unit
	case "yesterday":
		return dwDayShift, -1, unit
	case "today", "now":
		return dwDayShift, 0, unit
	case "ago":
		return dwAgo, -1, unit
	case "hence":
		return dwAgo, 1, unit
	case "dst":
		return dwDST, 0, unit
	}
	if n, ok := dateOrdinals[w]; ok {
		return dwOrdinal, n, unit
	}
	if u, ok := dateUnits[w]; ok {
		return dwUnit, 0, u
	}
	if u, ok := dateUnits[strings.TrimSuffix(w, "s")]; ok && strings.HasSuffix(w, "s") {
		return dwUnit, 0, u
	}
	if off, ok := dateZones()[w]; ok {
		return dwZone, int64(off), unit
	}
	if len(w) == 1 && w != "j" {
		// Military time zones.
		c := int64(w[0])
		switch {
		case c == 'z':
			return dwZone, 0, unit
		case c >= 'a' && c <= 'i':
			return dwZone, (c - 'a' + 1) * 60, unit
		case c >= 'k' && c <= 'm':
			return dwZone, (c - 'k' + 10) * 60, unit
		case c >= 'n' && c <= 'y':
			return dwZone, -(c - 'n' + 1) * 60, unit
		}
	}
	return dwNone, 0, unit
}

// dateParser holds what the items of a date string said.
type dateParser struct {
	toks []dateTok
	i    int

	year, month, day   int64
	yearDigits         int
	hour, minute, sec  int64
	nsec               int64
	meridian           int64 // 0 24-hour, 1 am, 2 pm
	times, dates, days int
	zones              int
	zoneOff            int64 // minutes east
	dayOrdinal, dayNum int64
	rels               bool
	rel                dateUnit
	relNs              int64
	lastRel            dateUnit // the latest relative item, for "ago"
	lastRelNs          int64
}

func (p *dateParser) peek(k int) dateTok {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return dateTok{kind: dtEOF}
}

func (p *dateParser) isChar(k int, c byte) bool {
	t := p.peek(k)
	return t.kind == dtChar && t.ch == c
}

func (p *dateParser) word(k int) (int, int64, dateUnit) {
	t := p.peek(k)
	if t.kind != dtWord {
		return dwNone, 0, dateUnit{}
	}
	return dateClassify(t.word)
}

// dateParse reads s relative to now, interpreting wall-clock fields in loc.
func dateParse(s string, now time.Time, loc *time.Location) (time.Time, error) {
	// A leading TZ="..." names the zone of the rest of the string.
	if rest := strings.TrimLeft(s, " \t\n\v\f\r"); strings.HasPrefix(rest, `TZ="`) {
		var tz strings.Builder
		i := 4
		for ; i < len(rest) && rest[i] != '"'; i++ {
			if rest[i] == '\\' {
				i++
				if i >= len(rest) || (rest[i] != '\\' && rest[i] != '"') {
					return time.Time{}, errDateInvalid
				}
			}
			tz.WriteByte(rest[i])
		}
		if i >= len(rest) {
			return time.Time{}, errDateInvalid
		}
		t, err := dateParse(rest[i+1:], now, dateZoneNamed(tz.String()))
		return t.In(loc), err
	}
	toks, err := dateLex(s)
	if err != nil {
		return time.Time{}, err
	}
	if len(toks) > 0 && toks[0].kind == dtChar && toks[0].ch == '@' {
		if len(toks) != 2 || (toks[1].kind != dtNum && toks[1].kind != dtSNum) {
			return time.Time{}, errDateInvalid
		}
		t := toks[1]
		secs, ns := t.val, t.frac
		if t.neg {
			secs, ns = -secs, -ns
			if ns < 0 {
				secs--
				ns += 1e9
			}
		}
		return time.Unix(secs, ns).In(loc), nil
	}
	base := now.In(loc)
	p := &dateParser{toks: toks}
	p.year, p.month, p.day = int64(base.Year()), int64(base.Month()), int64(base.Day())
	p.hour, p.minute, p.sec, p.nsec = int64(base.Hour()), int64(base.Minute()), int64(base.Second()), int64(base.Nanosecond())
	for p.i < len(p.toks) {
		if err := p.item(); err != nil {
			return time.Time{}, err
		}
	}
	if p.times > 1 || p.dates > 1 || p.days > 1 || p.zones > 1 {
		return time.Time{}, errDateInvalid
	}
	year := p.year
	if p.yearDigits == 2 {
		if year < 69 {
			year += 2000
		} else {
			year += 1900
		}
	}
	zloc := loc
	if p.zones > 0 {
		zloc = time.FixedZone("", int(p.zoneOff*60))
	}
	hour, minute, sec, nsec := int64(0), int64(0), int64(0), int64(0)
	if p.times > 0 || (p.rels && p.dates == 0 && p.days == 0) {
		hour, minute, sec, nsec = p.hour, p.minute, p.sec, p.nsec
		switch p.meridian {
		case 1, 2:
			if hour < 1 || hour > 12 {
				return time.Time{}, errDateInvalid
			}
			hour %= 12
			if p.meridian == 2 {
				hour += 12
			}
		default:
			if hour > 23 {
				return time.Time{}, errDateInvalid
			}
		}
		if minute > 59 || sec > 59 {
			return time.Time{}, errDateInvalid
		}
	}
	if p.month < 1 || p.month > 12 || p.day < 1 || p.day > 31 || year < -1e9 || year > 1e9 {
		return time.Time{}, errDateInvalid
	}
	t := time.Date(int(year), time.Month(p.month), int(p.day), int(hour), int(minute), int(sec), int(nsec), zloc)
	if int64(t.Day()) != p.day || int64(t.Month()) != p.month || int64(t.Hour()) != hour || int64(t.Minute()) != minute {
		// Out of range, or a wall-clock time skipped by a DST change.
		return time.Time{}, errDateInvalid
	}
	if p.days > 0 && p.dates == 0 {
		wd := int64(t.Weekday())
		shift := int64(0)
		if p.dayOrdinal > 0 && wd != p.dayNum {
			shift = 1
		}
		delta := (p.dayNum-wd+7)%7 + 7*(p.dayOrdinal-shift)
		t = t.AddDate(0, 0, int(delta))
	}
	if p.rel.y != 0 || p.rel.mo != 0 || p.rel.d != 0 {
		t = time.Date(t.Year()+int(p.rel.y), t.Month()+time.Month(p.rel.mo), t.Day()+int(p.rel.d),
			t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), zloc)
	}
	t = t.Add(time.Duration(p.rel.s)*time.Second + time.Duration(p.relNs))
	return t.In(loc), nil
}

// item reads one item at p.i.
func (p *dateParser) item() error {
	t := p.peek(0)
	switch t.kind {
	case dtNum:
		return p.numberItem()
	case dtSNum:
		if k, _, u := p.word(1); k == dwUnit {
			p.i += 2
			p.addRel(u, t.signed(), t)
			return p.ago()
		}
		return errDateInvalid
	case dtWord:
		return p.wordItem()
	}
	return errDateInvalid
}

// numberItem reads an item starting with an unsigned number.
func (p *dateParser) numberItem() error {
	t := p.peek(0)
	t1 := p.peek(1)
	switch {
	case t1.kind == dtChar && t1.ch == ':' && !t.hasFrac:
		return p.timeItem()
	case !t.hasFrac && t1.kind == dtWord:
		k, v, u := dateClassify(t1.word)
		switch k {
		case dwMeridian:
			p.i += 2
			p.times++
			p.hour, p.minute, p.sec, p.nsec, p.meridian = t.val, 0, 0, 0, v
			return p.zoneOffset()
		case dwMonth:
			// DAY MONTH [YEAR]
			p.i += 2
			p.dates++
			p.day, p.month = t.val, v
			t2 := p.peek(0)
			switch {
			case t2.kind == dtNum && !t2.hasFrac:
				p.year, p.yearDigits = t2.val, t2.digits
				p.i++
			case t2.kind == dtSNum && t2.neg && !t2.hasFrac:
				p.year, p.yearDigits = t2.val, t2.digits
				p.i++
			}
			return nil
		case dwDay:
			p.i += 2
			p.days++
			p.dayOrdinal, p.dayNum = t.val, v
			if p.isChar(0, ',') {
				p.i++
			}
			return nil
		case dwUnit:
			p.i += 2
			p.addRel(u, t.val, t)
			return p.ago()
		}
	case t.hasFrac && t1.kind == dtWord:
		if k, _, u := dateClassify(t1.word); k == dwUnit && u.s == 1 {
			p.i += 2
			p.addRel(u, t.val, t)
			return p.ago()
		}
		return errDateInvalid
	case t.hasFrac:
		return errDateInvalid
	case t1.kind == dtChar && t1.ch == '/':
		t2 := p.peek(2)
		if t2.kind != dtNum || t2.hasFrac {
			return errDateInvalid
		}
		p.dates++
		if p.isChar(3, '/') {
			t4 := p.peek(4)
			if t4.kind != dtNum || t4.hasFrac {
				return errDateInvalid
			}
			p.i += 5
			if t.digits >= 3 {
				p.year, p.yearDigits, p.month, p.day = t.val, t.digits, t2.val, t4.val
			} else {
				p.month, p.day, p.year, p.yearDigits = t.val, t2.val, t4.val, t4.digits
			}
			return nil
		}
		p.i += 3
		p.month, p.day = t.val, t2.val
		return nil
	case t1.kind == dtSNum && t1.neg && !t1.hasFrac:
		t2 := p.peek(2)
		if t2.kind == dtSNum && t2.neg && !t2.hasFrac {
			// ISO 8601 date, perhaps followed by T and a time.
			p.i += 3
			p.dates++
			p.year, p.yearDigits, p.month, p.day = t.val, t.digits, t1.val, t2.val
			if w := p.peek(0); w.kind == dtWord && w.word == "t" && p.peek(1).kind == dtNum {
				p.i++
				return p.isoTime()
			}
			return nil
		}
		if k, _, _ := p.word(2); k == dwUnit {
			// A number, then a signed relative item.
			p.i++
			return p.number(t)
		}
		return errDateInvalid
	}
	p.i++
	return p.number(t)
}

// isoTime reads the time after "T": HH[:MM[:SS]] or HHMM[SS].
func (p *dateParser) isoTime() error {
	if p.isChar(1, ':') {
		return p.timeItem()
	}
	t := p.peek(0)
	if z := p.peek(1); z.kind != dtSNum || z.hasFrac || t.digits > 2 || t.hasFrac {
		return errDateInvalid // gnulib wants HH:MM, or HH then a zone offset
	}
	p.i++
	p.times++
	p.meridian = 0
	p.hour, p.minute, p.sec, p.nsec = t.val, 0, 0, 0
	return p.zoneOffset()
}

// timeItem reads HH:MM[:SS[.frac]] [am|pm] [zone offset].
func (p *dateParser) timeItem() error {
	h := p.peek(0)
	m := p.peek(2)
	if m.kind != dtNum || m.hasFrac {
		return errDateInvalid
	}
	p.i += 3
	p.times++
	p.hour, p.minute, p.sec, p.nsec, p.meridian = h.val, m.val, 0, 0, 0
	if p.isChar(0, ':') {
		s := p.peek(1)
		if s.kind != dtNum {
			return errDateInvalid
		}
		p.i += 2
		p.sec, p.nsec = s.val, s.frac
	}
	if k, v, _ := p.word(0); k == dwMeridian {
		p.i++
		p.meridian = v
		return nil
	}
	return p.zoneOffset()
}

// zoneOffset reads an optional numeric zone after a time: +HH, +HHMM or
// +HH:MM.
func (p *dateParser) zoneOffset() error {
	t := p.peek(0)
	if t.kind != dtSNum || t.hasFrac {
		return nil
	}
	p.i++
	off, err := p.hhmm(t)
	if err != nil {
		return err
	}
	p.zones++
	p.zoneOff = off
	return nil
}

// hhmm turns a signed zone number (and an optional ":MM") into minutes.
func (p *dateParser) hhmm(t dateTok) (int64, error) {
	var mins int64
	if p.isChar(0, ':') && p.peek(1).kind == dtNum {
		mm := p.peek(1)
		p.i += 2
		if t.digits > 2 || mm.digits != 2 || mm.val > 59 {
			return 0, errDateInvalid
		}
		mins = t.val*60 + mm.val
	} else if t.digits <= 2 {
		mins = t.val * 60
	} else {
		mins = t.val/100*60 + t.val%100
	}
	if mins > 24*60 {
		return 0, errDateInvalid
	}
	if t.neg {
		mins = -mins
	}
	return mins, nil
}

// number applies gnulib's rule for a bare number: a year after a date, a
// YYYYMMDD date, or an HHMM time.
func (p *dateParser) number(t dateTok) error {
	if p.dates > 0 && p.yearDigits == 0 && !p.rels && (p.times > 0 || t.digits > 2) {
		p.year, p.yearDigits = t.val, t.digits
		return nil
	}
	if t.digits > 4 {
		p.dates++
		p.day, p.month, p.year = t.val%100, t.val/100%100, t.val/10000
		p.yearDigits = t.digits - 4
		return nil
	}
	p.times++
	if t.digits <= 2 {
		p.hour, p.minute = t.val, 0
	} else {
		p.hour, p.minute = t.val/100, t.val%100
	}
	p.sec, p.nsec, p.meridian = 0, 0, 0
	return nil
}

func (p *dateParser) addRel(u dateUnit, n int64, t dateTok) {
	r := dateUnit{y: u.y * n, mo: u.mo * n, d: u.d * n, s: u.s * n}
	var ns int64
	if t.hasFrac && u.s == 1 {
		ns = t.frac
		if t.neg {
			ns = -ns
		}
	}
	p.rel.y += r.y
	p.rel.mo += r.mo
	p.rel.d += r.d
	p.rel.s += r.s
	p.relNs += ns
	p.lastRel, p.lastRelNs = r, ns
	p.rels = true
}

// ago applies a following "ago" (or "hence") to the relative item just read.
func (p *dateParser) ago() error {
	if k, v, _ := p.word(0); k == dwAgo {
		p.i++
		if v < 0 {
			r := p.lastRel
			p.rel.y -= 2 * r.y
			p.rel.mo -= 2 * r.mo
			p.rel.d -= 2 * r.d
			p.rel.s -= 2 * r.s
			p.relNs -= 2 * p.lastRelNs
		}
	}
	return nil
}

func (p *dateParser) wordItem() error {
	k, v, u := p.word(0)
	switch k {
	case dwMonth:
		t1, t2 := p.peek(1), p.peek(2)
		switch {
		case t1.kind == dtNum && !t1.hasFrac:
			// MONTH DAY [, YEAR]
			p.i += 2
			p.dates++
			p.month, p.day = v, t1.val
			if p.isChar(0, ',') && p.peek(1).kind == dtNum && !p.peek(1).hasFrac {
				y := p.peek(1)
				p.year, p.yearDigits = y.val, y.digits
				p.i += 2
			}
			return nil
		case t1.kind == dtSNum && t1.neg && t2.kind == dtSNum && t2.neg:
			// MONTH-DAY-YEAR
			p.i += 3
			p.dates++
			p.month, p.day, p.year, p.yearDigits = v, t1.val, t2.val, t2.digits
			return nil
		}
		return errDateInvalid
	case dwDay:
		p.i++
		p.days++
		p.dayOrdinal, p.dayNum = 0, v
		if p.isChar(0, ',') {
			p.i++
		}
		return nil
	case dwOrdinal:
		k1, v1, u1 := p.word(1)
		switch k1 {
		case dwDay:
			p.i += 2
			p.days++
			p.dayOrdinal, p.dayNum = v, v1
			return nil
		case dwUnit:
			p.i += 2
			p.addRel(u1, v, dateTok{})
			return p.ago()
		}
		return errDateInvalid
	case dwUnit:
		p.i++
		p.addRel(u, 1, dateTok{})
		return p.ago()
	case dwDayShift:
		p.i++
		p.addRel(dateUnit{d: 1}, v, dateTok{})
		return nil
	case dwZone:
		p.i++
		p.zones++
		p.zoneOff = v
		if t := p.peek(0); t.kind == dtSNum && !t.hasFrac {
			if k2, _, _ := p.word(1); k2 == dwUnit {
				return nil // a relative item follows
			}
			p.i++
			off, err := p.hhmm(t)
			if err != nil {
				return err
			}
			p.zoneOff += off
		} else if k1, _, _ := p.word(0); k1 == dwDST {
			p.i++
			p.zoneOff += 60
		}
		return nil
	}
	return errDateInvalid
}
