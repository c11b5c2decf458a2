package builtins

import (
	"bufio"
	"bytes"
	"crypto/md5"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "sort", Summary: "sort lines of text files", Run: sortMain})

// Character classes of the C locale, as GNU sort builds them. sortBlank
// is data; the others are made by sortTables when an option that uses
// them is given (an init function of this file made every start fault in
// its page of the binary's text).
var (
	sortBlank   = [256]bool{' ': true, '\t': true, '\n': true} // isblank or newline: field separators and skipped blanks
	sortNonDict [256]bool                                      // ignored by -d
	sortNonPrnt [256]bool                                      // ignored by -i
	sortFold    [256]byte                                      // -f: toupper
)

// sortTables makes sortNonDict, sortNonPrnt and sortFold, once.
var sortTables = sync.OnceFunc(func() {
	for i := 0; i < 256; i++ {
		c := byte(i)
		alnum := c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		sortNonDict[i] = !alnum && !sortBlank[i]
		sortNonPrnt[i] = c < 0x20 || c > 0x7e
		sortFold[i] = c
		if c >= 'a' && c <= 'z' {
			sortFold[i] = c - 'a' + 'A'
		}
	}
})

// sortKey is one -k key (or the whole-line key made from global options).
type sortKey struct {
	sword, schar int // start: fields and characters to skip
	eword, echar int // end; eword < 0 means the end of the line
	skipSB       bool
	skipEB       bool
	ignore       *[256]bool
	translate    *[256]byte
	numeric      bool
	general      bool
	human        bool
	month        bool
	version      bool
	random       bool
	reverse      bool
}

func (k *sortKey) isDefault() bool {
	return k.ignore == nil && k.translate == nil && !k.skipSB && !k.skipEB && !k.month &&
		!k.numeric && !k.general && !k.human && !k.version && !k.random
}

func (k *sortKey) opts() string {
	var b []byte
	if k.skipSB || k.skipEB {
		b = append(b, 'b')
	}
	if k.ignore == &sortNonDict {
		b = append(b, 'd')
	}
	if k.translate != nil {
		b = append(b, 'f')
	}
	if k.general {
		b = append(b, 'g')
	}
	if k.human {
		b = append(b, 'h')
	}
	if k.ignore == &sortNonPrnt {
		b = append(b, 'i')
	}
	if k.month {
		b = append(b, 'M')
	}
	if k.numeric {
		b = append(b, 'n')
	}
	if k.random {
		b = append(b, 'R')
	}
	if k.reverse {
		b = append(b, 'r')
	}
	if k.version {
		b = append(b, 'V')
	}
	return string(b)
}

func (k *sortKey) incompatible() bool {
	n := 0
	for _, b := range []bool{k.numeric, k.general, k.human, k.month, k.version || k.random || k.ignore != nil} {
		if b {
			n++
		}
	}
	return n > 1
}

// setOpt applies one ordering-option letter; it reports false for others.
func (k *sortKey) setOpt(c byte, end bool) bool {
	switch c {
	case 'd', 'i', 'f', 'M':
		sortTables()
	}
	switch c {
	case 'b':
		if end {
			k.skipEB = true
		} else {
			k.skipSB = true
		}
	case 'd':
		k.ignore = &sortNonDict
	case 'i':
		if k.ignore == nil { // as GNU: -i does not override -d
			k.ignore = &sortNonPrnt
		}
	case 'f':
		k.translate = &sortFold
	case 'g':
		k.general = true
	case 'h':
		k.human = true
	case 'M':
		k.month = true
	case 'n':
		k.numeric = true
	case 'R':
		k.random = true
	case 'r':
		k.reverse = true
	case 'V':
		k.version = true
	default:
		return false
	}
	return true
}

// sortParseCount parses the decimal count at the start of s (saturating).
func sortParseCount(env *Env, s, spec, after string) (int, string, error) {
	i := 0
	n := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if n < math.MaxInt32 {
			n = n*10 + int(s[i]-'0')
		}
		i++
	}
	if i == 0 {
		return 0, s, fmt.Errorf("%s: invalid count at start of %s", after, env.Quote(s))
	}
	if n > math.MaxInt32 {
		n = math.MaxInt32
	}
	return n, s[i:], nil
}

func sortParseKey(env *Env, spec string) (*sortKey, error) {
	k := &sortKey{eword: -1}
	bad := func(why string) error { return fmt.Errorf("%s: invalid field specification %s", why, env.Quote(spec)) }
	n, s, err := sortParseCount(env, spec, spec, "invalid number at field start")
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, bad("field number is zero")
	}
	k.sword = n - 1
	if strings.HasPrefix(s, ".") {
		if n, s, err = sortParseCount(env, s[1:], spec, "invalid number after '.'"); err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, bad("character offset is zero")
		}
		k.schar = n - 1
	}
	for len(s) > 0 && s[0] != ',' {
		if !k.setOpt(s[0], false) {
			return nil, bad("stray character in field spec")
		}
		s = s[1:]
	}
	if strings.HasPrefix(s, ",") {
		if n, s, err = sortParseCount(env, s[1:], spec, "invalid number after ','"); err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, bad("field number is zero")
		}
		k.eword = n - 1
		if strings.HasPrefix(s, ".") {
			if n, s, err = sortParseCount(env, s[1:], spec, "invalid number after '.'"); err != nil {
				return nil, err
			}
			k.echar = n
		}
		for len(s) > 0 {
			if !k.setOpt(s[0], true) {
				return nil, bad("stray character in field spec")
			}
			s = s[1:]
		}
	}
	return k, nil
}

// sortBuf holds lines that records point into: a read block of a run,
// the buffer of a merge input, the copy of a line kept under -u.
type sortBuf struct{ b []byte }

// sortRec is one line and what the comparisons need of its first key:
// 32 bytes, as there is one per line (1M lines: 32 MB), as GNU's struct
// line. The line is where it was read (buf.b[off:off+n]), not a slice of
// its own (24 bytes).
type sortRec struct {
	buf    *sortBuf
	v      int64 // first key: prefix bytes, integer part, month; the float64's bits under -g
	off, n uint32
	// key packs the bounds of the first key in the line (28 bits each;
	// sortKeyFar when either is past them: recomputed at each use) and
	// its class (8 bits: -n fast-path valid, -h unit order, -g kind).
	key uint64
}

const sortKeyFar = 1<<28 - 1

// sortRecOf makes the record of the line b.b[off:off+n], its key fields
// not prepared.
func sortRecOf(b *sortBuf, off, n int) sortRec {
	return sortRec{buf: b, off: uint32(off), n: uint32(n)}
}

// line is r's line, without its delimiter.
func (r *sortRec) line() []byte {
	o, e := int(r.off), int(r.off)+int(r.n)
	return r.buf.b[o:e:e]
}

func (r *sortRec) class() int32 { return int32(int8(r.key >> 56)) }

func (r *sortRec) setKey(ks, ke int, c int32) {
	if ke >= sortKeyFar {
		ks, ke = sortKeyFar, sortKeyFar
	}
	r.key = uint64(ks) | uint64(ke)<<28 | uint64(uint8(int8(c)))<<56
}

// firstKey is the first key k of r's line.
func (s *sortSorter) firstKey(r *sortRec, k *sortKey) []byte {
	line := r.line()
	ks, ke := int(r.key&sortKeyFar), int(r.key>>28&sortKeyFar)
	if ke == sortKeyFar {
		ks, ke = s.bounds(line, k)
	}
	return line[ks:ke]
}

type sortSorter struct {
	keys    []*sortKey
	tab     int // -1: blank-separated fields
	unique  bool
	stable  bool
	reverse bool // global -r, for the last-resort comparison
	seed    maphash.Seed
	// md5 is GNU's random hash state under --random-source: the 16
	// bytes read from the file, which -R keys are hashed after.
	md5 []byte
	// nmerge is how many runs a merge takes at once (--batch-size).
	nmerge int
	// --debug: annotate each output line; gkeyOnly: keys[0] is the key
	// of the global options (no -k was given).
	debug, gkeyOnly bool
	parallel        int // --parallel; 0: as many as there are CPUs, at most 8
}

// begfield and limfield follow GNU sort exactly.
func (s *sortSorter) begfield(d []byte, k *sortKey) int {
	p, lim := 0, len(d)
	sword := k.sword
	if s.tab >= 0 {
		t := byte(s.tab)
		for p < lim && sword > 0 {
			sword--
			for p < lim && d[p] != t {
				p++
			}
			if p < lim {
				p++
			}
		}
	} else {
		for p < lim && sword > 0 {
			sword--
			for p < lim && sortBlank[d[p]] {
				p++
			}
			for p < lim && !sortBlank[d[p]] {
				p++
			}
		}
	}
	if k.skipSB {
		for p < lim && sortBlank[d[p]] {
			p++
		}
	}
	return min(lim, p+k.schar)
}

func (s *sortSorter) limfield(d []byte, k *sortKey) int {
	if k.eword < 0 {
		return len(d)
	}
	p, lim := 0, len(d)
	eword, echar := k.eword, k.echar
	if echar == 0 {
		eword++
	}
	if s.tab >= 0 {
		t := byte(s.tab)
		for p < lim && eword > 0 {
			eword--
			for p < lim && d[p] != t {
				p++
			}
			if p < lim && (eword > 0 || echar > 0) {
				p++
			}
		}
	} else {
		for p < lim && eword > 0 {
			eword--
			for p < lim && sortBlank[d[p]] {
				p++
			}
			for p < lim && !sortBlank[d[p]] {
				p++
			}
		}
	}
	if echar != 0 {
		if k.skipEB {
			for p < lim && sortBlank[d[p]] {
				p++
			}
		}
		p = min(lim, p+echar)
	}
	return p
}

func (s *sortSorter) bounds(line []byte, k *sortKey) (int, int) {
	a := s.begfield(line, k)
	b := s.limfield(line, k)
	if b < a {
		b = a
	}
	return a, b
}

// prepare fills in r's first-key fields.
func (s *sortSorter) prepare(r *sortRec) {
	line := r.line()
	if len(s.keys) == 0 {
		r.v = int64(sortPrefix(line, nil, nil))
		return
	}
	k := s.keys[0]
	ks, ke := s.bounds(line, k)
	key := line[ks:ke]
	var c int32
	switch {
	case k.random || k.version:
	case k.numeric:
		n := sortParseNum(key)
		r.v, c = n.fast()
	case k.human:
		n := sortParseNum(key)
		c = int32(sortUnitOrder(key))
		r.v, _ = n.fast()
	case k.general:
		var f float64
		f, c = sortParseFloat(key)
		r.v = int64(math.Float64bits(f))
	case k.month:
		r.v = int64(sortMonth(key))
	default:
		r.v = int64(sortPrefix(key, k.ignore, k.translate))
	}
	r.setKey(ks, ke, c)
}

// sortPrefix packs the first 8 bytes of the (filtered, translated) key big
// endian, biased so that signed comparison orders like the bytes.
func sortPrefix(b []byte, ignore *[256]bool, tr *[256]byte) uint64 {
	var v uint64
	n := 0
	for _, c := range b {
		if n == 8 {
			break
		}
		if ignore != nil && ignore[c] {
			continue
		}
		if tr != nil {
			c = tr[c]
		}
		v = v<<8 | uint64(c)
		n++
	}
	v <<= 8 * uint(8-n)
	return v ^ 1<<63
}

// cmp orders two records: keys, then the last-resort whole-line comparison.
func (s *sortSorter) cmp(a, b *sortRec) int {
	if len(s.keys) == 0 {
		d := 0
		if a.v != b.v {
			d = -1
			if a.v > b.v {
				d = 1
			}
		} else {
			d = sortPrefixTie(a.line(), b.line())
		}
		if s.reverse {
			return -d
		}
		return d
	}
	for i, k := range s.keys {
		var d int
		if i == 0 {
			d = s.cmpFirst(a, b, k)
		} else {
			al, bl := a.line(), b.line()
			as, ae := s.bounds(al, k)
			bs, be := s.bounds(bl, k)
			d = s.cmpKey(al[as:ae], bl[bs:be], k)
		}
		if d != 0 {
			if k.reverse {
				return -d
			}
			return d
		}
	}
	if s.unique || s.stable {
		return 0
	}
	d := bytes.Compare(a.line(), b.line())
	if s.reverse {
		return -d
	}
	return d
}

func sortCmpInt(a, b int64) int {
	if a < b {
		return -1
	}
	if a > b {
		return 1
	}
	return 0
}

func (s *sortSorter) cmpFirst(a, b *sortRec, k *sortKey) int {
	if k.typedTransform() {
		return s.cmpKey(s.firstKey(a, k), s.firstKey(b, k), k)
	}
	ac, bc := a.class(), b.class()
	switch {
	case k.random || k.version:
	case k.numeric:
		if ac != 0 && bc != 0 {
			if a.v != b.v {
				return sortCmpInt(a.v, b.v)
			}
			if ac == 1 && bc == 1 {
				return 0 // two equal integers
			}
		}
	case k.human:
		if ac != bc {
			return sortCmpInt(int64(ac), int64(bc))
		}
		return sortNumCmp(s.firstKey(a, k), s.firstKey(b, k))
	case k.general:
		return sortCmpFloat(math.Float64frombits(uint64(a.v)), ac, math.Float64frombits(uint64(b.v)), bc)
	case k.month:
		return sortCmpInt(a.v, b.v)
	default:
		if a.v != b.v {
			return sortCmpInt(a.v, b.v)
		}
		if k.ignore == nil && k.translate == nil {
			return sortPrefixTie(s.firstKey(a, k), s.firstKey(b, k))
		}
	}
	return s.cmpKey(s.firstKey(a, k), s.firstKey(b, k), k)
}

// sortPrefixTie orders two keys whose sortPrefix values (without ignore
// or translate) are equal, without comparing those bytes again: a line
// of the small vocabularies sorts are run on is all in its prefix. Equal
// prefixes mean equal first min(len, 8) bytes and zeros after the shorter
// key's end, so when either key is 8 bytes or shorter the shorter one
// sorts first, as bytes.Compare has it.
func sortPrefixTie(a, b []byte) int {
	if len(a) > 8 && len(b) > 8 {
		return bytes.Compare(a[8:], b[8:])
	}
	return sortCmpInt(int64(len(a)), int64(len(b)))
}

// typedTransform says whether k reads its keys as numbers, months,
// versions or random ranks after -f (or -d, -i where they combine) made
// them over: GNU's keycompare gives those comparisons the translated
// copy, so `sort -hf` reads 1e3 as 1E (exa) and 2m as 2M.
func (k *sortKey) typedTransform() bool {
	return (k.ignore != nil || k.translate != nil) &&
		(k.numeric || k.human || k.general || k.month || k.version || k.random)
}

// cmpKey compares two extracted keys under k's ordering (without -r).
func (s *sortSorter) cmpKey(a, b []byte, k *sortKey) int {
	if k.typedTransform() {
		a, b = k.transform(a), k.transform(b)
	}
	switch {
	case k.random && s.md5 != nil:
		return s.cmpMD5(a, b, k)
	case k.random:
		ha, hb := maphash.Bytes(s.seed, a), maphash.Bytes(s.seed, b)
		if ha != hb {
			if ha < hb {
				return -1
			}
			return 1
		}
		return bytes.Compare(a, b)
	case k.numeric:
		return sortNumCmp(a, b)
	case k.human:
		if d := sortUnitOrder(a) - sortUnitOrder(b); d != 0 {
			return d
		}
		return sortNumCmp(a, b)
	case k.general:
		fa, ca := sortParseFloat(a)
		fb, cb := sortParseFloat(b)
		return sortCmpFloat(fa, ca, fb, cb)
	case k.version:
		return sortVerCmp(a, b)
	case k.month:
		return sortMonth(a) - sortMonth(b)
	case k.ignore != nil || k.translate != nil:
		ig, tr := k.ignore, k.translate
		i, j := 0, 0
		for {
			if ig != nil {
				for i < len(a) && ig[a[i]] {
					i++
				}
				for j < len(b) && ig[b[j]] {
					j++
				}
			}
			if i >= len(a) || j >= len(b) {
				break
			}
			ca, cb := a[i], b[j]
			if tr != nil {
				ca, cb = tr[ca], tr[cb]
			}
			if ca != cb {
				return int(ca) - int(cb)
			}
			i++
			j++
		}
		x, y := 0, 0
		if i < len(a) {
			x = 1
		}
		if j < len(b) {
			y = 1
		}
		return x - y
	}
	return bytes.Compare(a, b)
}

// sortNum is a number as GNU's strnumcmp sees it: sign, integer digits
// without leading zeros, fraction digits without trailing zeros.
type sortNum struct {
	neg        bool
	intg, frac []byte
}

func sortParseNum(b []byte) sortNum {
	i := 0
	for i < len(b) && sortBlank[b[i]] {
		i++
	}
	var n sortNum
	if i < len(b) && b[i] == '-' {
		n.neg = true
		i++
	}
	for i < len(b) && b[i] == '0' {
		i++
	}
	st := i
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	n.intg = b[st:i]
	if i < len(b) && b[i] == '.' {
		i++
		st = i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		e := i
		for e > st && b[e-1] == '0' {
			e--
		}
		n.frac = b[st:e]
	}
	return n
}

func (n sortNum) zero() bool { return len(n.intg) == 0 && len(n.frac) == 0 }

// fast returns the truncated integer part when it fits, and then 1 if
// the number is an integer (so that equal parts are equal numbers), 2 if
// it has a fraction; 0 when the integer part does not fit.
func (n sortNum) fast() (int64, int32) {
	if len(n.intg) > 18 {
		return 0, 0
	}
	var v int64
	for _, c := range n.intg {
		v = v*10 + int64(c-'0')
	}
	if n.neg {
		v = -v
	}
	if len(n.frac) > 0 {
		return v, 2
	}
	return v, 1
}

func sortNumCmp(a, b []byte) int {
	x, y := sortParseNum(a), sortParseNum(b)
	sx, sy := sortSign(x), sortSign(y)
	if sx != sy {
		return sx - sy
	}
	if sx == 0 {
		return 0
	}
	d := len(x.intg) - len(y.intg)
	if d == 0 {
		d = bytes.Compare(x.intg, y.intg)
	}
	if d == 0 {
		d = bytes.Compare(x.frac, y.frac)
	}
	if d > 0 {
		d = 1
	} else if d < 0 {
		d = -1
	}
	return d * sx
}

func sortSign(n sortNum) int {
	if n.zero() {
		return 0
	}
	if n.neg {
		return -1
	}
	return 1
}

// sortUnitOrder is GNU's find_unit_order for -h.
func sortUnitOrder(b []byte) int {
	i := 0
	for i < len(b) && sortBlank[b[i]] {
		i++
	}
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	var maxd byte
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		maxd = max(maxd, b[i])
		i++
	}
	if i < len(b) && b[i] == '.' {
		i++
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			maxd = max(maxd, b[i])
			i++
		}
	}
	if maxd <= '0' || i >= len(b) {
		return 0
	}
	o := strings.IndexByte("KMGTPEZYRQ", b[i]) + 1
	if b[i] == 'k' {
		o = 1
	}
	if neg {
		return -o
	}
	return o
}

var sortMonths = [...]string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}

func sortMonth(b []byte) int {
	i := 0
	for i < len(b) && sortBlank[b[i]] {
		i++
	}
	if len(b)-i < 3 {
		return 0
	}
	m := [3]byte{sortFold[b[i]], sortFold[b[i+1]], sortFold[b[i+2]]}
	for n, name := range sortMonths {
		if string(m[:]) == name {
			return n + 1
		}
	}
	return 0
}

// sortParseFloat parses the longest strtold-style prefix of b. The class is
// 0 for a conversion failure, 1 for NaN, 2 for a number.
func sortParseFloat(b []byte) (float64, int32) {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] >= '\t' && b[i] <= '\r') {
		i++
	}
	st := i
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		i++
	}
	rest := b[i:]
	low := func(p string) bool {
		if len(rest) < len(p) {
			return false
		}
		for j := 0; j < len(p); j++ {
			if rest[j]|0x20 != p[j] {
				return false
			}
		}
		return true
	}
	neg := st < len(b) && b[st] == '-'
	switch {
	case low("inf"):
		if neg {
			return math.Inf(-1), 2
		}
		return math.Inf(1), 2
	case low("nan"):
		return math.NaN(), 1
	}
	digits := func() int {
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if len(rest) > 2 && rest[0] == '0' && rest[1]|0x20 == 'x' {
		// Hexadecimal: let ParseFloat judge the longest valid prefix.
		j := i + 2
		for j < len(b) && (isHexDigit(b[j]) || b[j] == '.' || b[j]|0x20 == 'p' || b[j] == '+' || b[j] == '-') {
			j++
		}
		for ; j > i+2; j-- {
			t := string(b[st:j])
			if !strings.ContainsAny(t, "pP") {
				t += "p0"
			}
			if f, err := strconv.ParseFloat(t, 64); err == nil || errors.Is(err, strconv.ErrRange) {
				return f, 2
			}
		}
		return 0, 2 // "0x" alone reads as 0
	}
	n := digits()
	if i < len(b) && b[i] == '.' {
		i++
		n += digits()
	}
	if n == 0 {
		return 0, 0
	}
	if i < len(b) && b[i]|0x20 == 'e' {
		j := i
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			i = j
		}
	}
	f, _ := strconv.ParseFloat(string(b[st:i]), 64)
	return f, 2
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f'
}

func sortCmpFloat(a float64, ca int32, b float64, cb int32) int {
	if ca != 2 || cb != 2 {
		return int(ca) - int(cb)
	}
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// sortVerCmp is gnulib's filevercmp (sort -V).
func sortVerCmp(a, b []byte) int {
	if len(a) == 0 {
		if len(b) == 0 {
			return 0
		}
		return -1
	}
	if len(b) == 0 {
		return 1
	}
	if a[0] == '.' {
		if b[0] != '.' {
			return -1
		}
		adot, bdot := len(a) == 1, len(b) == 1
		if adot {
			if bdot {
				return 0
			}
			return -1
		}
		if bdot {
			return 1
		}
		add, bdd := a[1] == '.' && len(a) == 2, b[1] == '.' && len(b) == 2
		if add {
			if bdd {
				return 0
			}
			return -1
		}
		if bdd {
			return 1
		}
	} else if b[0] == '.' {
		return 1
	}
	ap, bp := sortVerPrefix(a), sortVerPrefix(b)
	r := sortVerRev(a[:ap], b[:bp])
	if r != 0 || (ap == len(a) && bp == len(b)) {
		return r
	}
	return sortVerRev(a, b)
}

func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func sortVerPrefix(s []byte) int {
	n := len(s)
	prefix := 0
	for i := 0; ; {
		if i == n {
			return prefix
		}
		i++
		prefix = i
		for i+1 < n && s[i] == '.' && (isAlpha(s[i+1]) || s[i+1] == '~') {
			for i += 2; i < n && (isAlpha(s[i]) || isDigit(s[i]) || s[i] == '~'); i++ {
			}
		}
	}
}

func sortVerOrder(s []byte, pos int) int {
	if pos == len(s) {
		return -1
	}
	c := s[pos]
	switch {
	case isDigit(c):
		return 0
	case isAlpha(c):
		return int(c)
	case c == '~':
		return -2
	}
	return int(c) + 256
}

func sortVerRev(s1, s2 []byte) int {
	p1, p2 := 0, 0
	for p1 < len(s1) || p2 < len(s2) {
		first := 0
		for (p1 < len(s1) && !isDigit(s1[p1])) || (p2 < len(s2) && !isDigit(s2[p2])) {
			c1, c2 := sortVerOrder(s1, p1), sortVerOrder(s2, p2)
			if c1 != c2 {
				return c1 - c2
			}
			p1++
			p2++
		}
		for p1 < len(s1) && s1[p1] == '0' {
			p1++
		}
		for p2 < len(s2) && s2[p2] == '0' {
			p2++
		}
		for p1 < len(s1) && p2 < len(s2) && isDigit(s1[p1]) && isDigit(s2[p2]) {
			if first == 0 {
				first = int(s1[p1]) - int(s2[p2])
			}
			p1++
			p2++
		}
		if p1 < len(s1) && isDigit(s1[p1]) {
			return 1
		}
		if p2 < len(s2) && isDigit(s2[p2]) {
			return -1
		}
		if first != 0 {
			return first
		}
	}
	return 0
}

// sortChunks sorts each chunk in place, in parallel. The chunks are the
// chunks sortLoader filled, in input order; sortMerge then yields their
// records in order without a copy of them all (GNU sort's memory is the
// lines and one array of pointers; a merge into a second array of
// records doubled llmsh's).
func (s *sortSorter) sortChunks(chunks [][]sortRec) {
	work := make(chan []sortRec)
	var wg sync.WaitGroup
	for range max(1, min(s.workers(), len(chunks))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range work {
				s.sortChunk(c)
			}
		}()
	}
	for _, c := range chunks {
		work <- c
	}
	close(work)
	wg.Wait()
}

// workers is how many chunks are sorted at once: the CPUs, at most 8, or
// --parallel.
func (s *sortSorter) workers() int {
	workers := min(runtime.GOMAXPROCS(0), 8)
	if s.parallel > 0 {
		workers = min(workers, s.parallel)
	}
	return workers
}

// sortChunk sorts one chunk in place.
func (s *sortSorter) sortChunk(c []sortRec) {
	cmp := func(a, b sortRec) int { return s.cmp(&a, &b) }
	if s.stable || s.unique {
		slices.SortStableFunc(c, cmp)
	} else {
		slices.SortFunc(c, cmp)
	}
}

// sortMerge is a k-way merge of sorted chunks: a tree of losers (Knuth's
// replacement selection), ties to the earlier chunk (so that -s and -u
// keep input order). Each record out costs one comparison a level of the
// tree, log2(k), where a binary heap's sift-down costs two.
type sortMerge struct {
	s      *sortSorter
	chunks [][]sortRec
	// tree[0] is the chunk whose head is least; tree[1:] the loser of
	// the match at each inner node (chunk i is leaf len(chunks)+i).
	tree []int
}

func (s *sortSorter) newMerge(chunks [][]sortRec) *sortMerge {
	k := len(chunks)
	m := &sortMerge{s: s, chunks: slices.Clone(chunks)} // chunks stay whole
	if k == 0 {
		return m
	}
	m.tree = make([]int, k)
	win := make([]int, 2*k)
	for i := range k {
		win[k+i] = i
	}
	for p := k - 1; p >= 1; p-- {
		a, b := win[2*p], win[2*p+1]
		if m.beats(b, a) {
			a, b = b, a
		}
		win[p], m.tree[p] = a, b
	}
	m.tree[0] = win[1]
	return m
}

// beats says whether chunk i's head comes before chunk j's: an empty
// chunk comes after every other.
func (m *sortMerge) beats(i, j int) bool {
	ci, cj := m.chunks[i], m.chunks[j]
	if len(ci) == 0 {
		return false
	}
	if len(cj) == 0 {
		return true
	}
	if c := m.s.cmp(&ci[0], &cj[0]); c != 0 {
		return c < 0
	}
	return i < j
}

// sortHeapDown moves h[i] down the binary min-heap h of indices that less
// orders.
func sortHeapDown(h []int, i int, less func(a, b int) bool) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		least := l
		if r := l + 1; r < len(h) && less(h[r], h[l]) {
			least = r
		}
		if !less(h[least], h[i]) {
			return
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
}

// next returns the next record in order, nil at the end. The record
// stays valid: chunks are only resliced.
func (m *sortMerge) next() *sortRec {
	if len(m.tree) == 0 {
		return nil
	}
	w := m.tree[0]
	if len(m.chunks[w]) == 0 {
		return nil // the least is an empty chunk: all are
	}
	r := &m.chunks[w][0]
	m.chunks[w] = m.chunks[w][1:]
	for p := (len(m.chunks) + w) / 2; p >= 1; p /= 2 {
		if l := m.tree[p]; m.beats(l, w) {
			m.tree[p], w = w, l
		}
	}
	m.tree[0] = w
	return r
}

// sortConfig is what sort's options select: the global ordering g, the
// keys, and the sorter they configure.
type sortConfig struct {
	env                  *Env // for its quoting in messages
	g                    *sortKey
	keys                 []*sortKey
	s                    *sortSorter
	check, quiet, merge  bool
	zero, badWord, debug bool
	output               string // -o
	outSet, tabSet       bool
	files0               string // --files0-from
	files0Set            bool
	bufSize              int64    // -S in bytes; 0: sortDefaultBuffer
	tmpDirs              []string // -T
	randomSource         string   // --random-source
	compress             string   // --compress-program
}

func sortMain(env *Env) int {
	c := &sortConfig{env: env, g: &sortKey{eword: -1}, s: &sortSorter{tab: -1, seed: maphash.MakeSeed(), nmerge: sortNMerge}}
	f := c.flags(env)
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		if c.badWord {
			return f.Fail(err, 1) // GNU's argmatch failure status
		}
		return f.Fail(err, 2)
	}
	if c.files0Set {
		if len(files) > 0 {
			return f.Fail(&UsageError{fmt.Sprintf("extra operand %s\nfile operands cannot be combined with --files0-from", env.QuoteAF(files[0]))}, 2)
		}
		var st int
		if files, st = sortFiles0(env, c.files0); files == nil {
			return st
		}
	}
	if st := c.setKeys(env); st != 0 {
		return st
	}
	if c.randomSource != "" && slices.ContainsFunc(c.s.keys, func(k *sortKey) bool { return k.random }) && !c.readRandomSource(env) {
		return 2
	}
	delim := byte('\n')
	if c.zero {
		delim = 0
	}
	if c.check {
		if c.outSet {
			o := "c"
			if c.quiet {
				o = "C"
			}
			env.Errorf("options '-%so' are incompatible", o)
			return 2
		}
		if len(files) > 1 {
			env.Errorf("extra operand %s not allowed with -%s", env.QuoteAF(files[1]), map[bool]string{false: "c", true: "C"}[c.quiet])
			return 2
		}
		file := "-"
		if len(files) == 1 {
			file = files[0]
		}
		return c.s.check(env, file, delim, c.quiet)
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	if c.merge {
		return c.s.merge(env, files, delim, c.outSet, c.output)
	}
	return c.run(env, files, delim)
}

// flags is sort's option table.
func (c *sortConfig) flags(env *Env) *Flags {
	f := NewFlags(env, "Write sorted concatenation of all FILE(s) to standard output.\n\nWith no FILE, or when FILE is -, read standard input.", "[OPTION]... [FILE]...", "[OPTION]... --files0-from=F")
	g, s := c.g, c.s
	f.Section("Ordering options:")
	f.Gap()
	for _, o := range []struct {
		c    byte
		long string
		help string
	}{
		{'b', "ignore-leading-blanks", "ignore leading blanks"},
		{'d', "dictionary-order", "consider only blanks and alphanumeric characters"},
		{'f', "ignore-case", "fold lower case to upper case characters"},
		{'g', "general-numeric-sort", "compare according to general numerical value"},
		{'i', "ignore-nonprinting", "consider only printable characters"},
		{'M', "month-sort", "compare (unknown) < 'JAN' < ... < 'DEC'"},
		{'h', "human-numeric-sort", "compare human readable numbers (e.g., 2K 1G)"},
		{'n', "numeric-sort", "compare according to string numerical value"},
		{'R', "random-sort", "shuffle, but group identical keys.  See shuf(1)"},
		{'r', "reverse", "reverse the result of comparisons"},
		{'V', "version-sort", "natural sort of (version) numbers within text"},
	} {
		switch o.c { // --random-source and --sort, in GNU's places
		case 'r':
			c.randomSourceFlag(f)
		case 'V':
			c.sortWordFlag(f)
		}
		c := o.c
		f.Func(rune(c), o.long, NoArg, "", o.help, func(string, bool) error {
			g.setOpt(c, false)
			if c == 'b' {
				g.skipEB = true
			}
			return nil
		})
	}
	f.Section("Other options:")
	f.Gap()
	f.Func(0, "batch-size", RequiredArg, "NMERGE", "merge at most NMERGE inputs at once;\nfor more use temp files", c.setBatchSize)
	c.checkFlags(f)
	f.StringVar(&c.compress, 0, "compress-program", "PROG", "compress temporaries with PROG;\n  decompress them with PROG -d")
	f.BoolVar(&c.debug, 0, "debug", "annotate the part of the line used to sort,\n                            and warn about questionable usage to stderr")
	f.Func(0, "files0-from", RequiredArg, "F", "read input from the files specified by NUL-terminated names in file F;\n                            if F is - then read names from standard input", func(v string, _ bool) error {
		c.files0, c.files0Set = v, true
		return nil
	})
	f.Func('k', "key", RequiredArg, "KEYDEF", "sort via a key; KEYDEF gives location and type", func(v string, _ bool) error {
		k, err := sortParseKey(env, v)
		if err != nil {
			return err
		}
		c.keys = append(c.keys, k)
		return nil
	})
	f.BoolVar(&c.merge, 'm', "merge", "merge already sorted files; do not sort")
	f.Func('o', "output", RequiredArg, "FILE", "write result to FILE instead of standard output", func(v string, _ bool) error {
		if c.outSet && c.output != v {
			return errors.New("multiple output files specified")
		}
		c.output, c.outSet = v, true
		return nil
	})
	f.BoolVar(&s.stable, 's', "stable", "stabilize sort by disabling last-resort comparison")
	f.Func('S', "buffer-size", RequiredArg, "SIZE", "use SIZE for main memory buffer", func(v string, _ bool) error {
		opt := "-S"
		if f.Long() {
			opt = "--buffer-size"
		}
		return c.setBufferSize(opt, v)
	})
	f.Func('t', "field-separator", RequiredArg, "SEP", "use SEP instead of non-blank to blank transition", c.setTab)
	f.Func('T', "temporary-directory", RequiredArg, "DIR", "use DIR for temporaries, not $TMPDIR or /tmp;\n  multiple options specify multiple directories", func(v string, _ bool) error {
		c.tmpDirs = append(c.tmpDirs, v)
		return nil
	})
	f.Func(0, "parallel", RequiredArg, "N", "change the number of sorts run concurrently to N", c.setParallel)
	f.BoolVar(&s.unique, 'u', "unique", "with -c, check for strict ordering;\n  without -c, output only the first of an equal run")
	f.BoolVar(&c.zero, 'z', "zero-terminated", "line delimiter is NUL, not newline")
	// GNU: -y takes an argument and is ignored (an old System V option).
	f.Func('y', "", RequiredArg, "", "", func(string, bool) error { return nil })
	f.Epilog = "KEYDEF is F[.C][OPTS][,F[.C][OPTS]] for start and stop position, where F is a\nfield number and C a character position in the field; both are origin 1, and\nthe stop position defaults to the line's end.  If neither -t nor -b is in\neffect, characters in a field are counted from the beginning of the preceding\nwhitespace.  OPTS is one or more single-letter ordering options [bdfgiMhnRrV],\nwhich override global ordering options for that key.  If no key is given, use\nthe entire line as the key.  Use --debug to diagnose incorrect key usage.\n\nSIZE may be followed by the following multiplicative suffixes:\n% 1% of memory, b 1, K 1024 (default), and so on for M, G, T, P, E, Z, Y.\n\nllmsh: without -S the buffer is what the input files need, as GNU sizes it\n(an input of unknown size, such as a pipe, counted as 128 KiB), up to an\neighth of physical memory, at most 512 MiB.  Input beyond it is sorted in runs\nwritten to temporary files in the -T directories, else $TMPDIR or /tmp\n(outside the writable paths, virtual files in the session's memory); when no\n-T is given and none can be written, the rest of the input is sorted in\nmemory."
	return f
}

// randomSourceFlag registers --random-source.
func (c *sortConfig) randomSourceFlag(f *Flags) {
	f.Func(0, "random-source", RequiredArg, "FILE", "get random bytes from FILE", func(v string, _ bool) error {
		if c.randomSource != "" && c.randomSource != v {
			return errors.New("multiple random sources specified")
		}
		c.randomSource = v
		return nil
	})
}

// sortWordFlag registers --sort=WORD.
func (c *sortConfig) sortWordFlag(f *Flags) {
	g := c.g
	f.Func(0, "sort", RequiredArg, "WORD", "sort according to WORD:\n  general-numeric -g, human-numeric -h, month -M,\n  numeric -n, random -R, version -V", func(v string, _ bool) error {
		words := []string{"general-numeric", "human-numeric", "month", "numeric", "random", "version"}
		letters := "ghMnRV"
		i, err := lsArgMatch(c.env, "--sort", v, words, lsSeq(len(words)))
		if err != nil {
			c.badWord = true
			return err
		}
		g.setOpt(letters[i], false)
		return nil
	})
}

// checkFlags registers -c, --check and -C.
func (c *sortConfig) checkFlags(f *Flags) {
	f.Row("-c, --check, --check=diagnose-first", "check for sorted input; do not sort")
	f.Row("-C, --check=quiet, --check=silent", "like -c, but do not report first bad line")
	// GNU: -c and -C (in any spelling) together end sort at once.
	mode := func(quiet bool) error {
		if c.check && c.quiet != quiet {
			return errors.New("options '-cC' are incompatible")
		}
		c.check, c.quiet = true, quiet
		return nil
	}
	f.Func('c', "check", OptionalLongArg, "diagnose-first", "", func(v string, present bool) error {
		if !present {
			return mode(false)
		}
		// argmatch: a prefix names a value; quiet and silent are one.
		quiet := map[bool]bool{}
		for _, w := range []string{"quiet", "silent", "diagnose-first"} {
			if w == v || strings.HasPrefix(w, v) {
				quiet[w != "diagnose-first"] = true
				if w == v {
					quiet = map[bool]bool{w != "diagnose-first": true}
					break
				}
			}
		}
		if len(quiet) != 1 {
			c.badWord = true
			kind := "invalid"
			if len(quiet) > 1 {
				kind = "ambiguous"
			}
			return &UsageError{fmt.Sprintf("%s argument %s for '--check'\nValid arguments are:\n  - 'quiet', 'silent'\n  - 'diagnose-first'", kind, c.env.Quote(v))}
		}
		return mode(quiet[true])
	})
	f.Func('C', "", NoArg, "", "", func(string, bool) error { return mode(true) })
}

// setTab sets -t's separator.
func (c *sortConfig) setTab(v string, _ bool) error {
	t := -1
	switch {
	case v == "":
		return errors.New("empty tab")
	case v == `\0`:
		t = 0
	case len(v) > 1:
		return fmt.Errorf("multi-character tab %s", c.env.Quote(v))
	default:
		t = int(v[0])
	}
	if c.tabSet && t != c.s.tab {
		return errors.New("incompatible tabs")
	}
	c.s.tab, c.tabSet = t, true
	return nil
}

// setKeys gives the keys without ordering options the global ones and
// hands them to the sorter; a status other than 0 ends the run.
func (c *sortConfig) setKeys(env *Env) int {
	g, s, keys := c.g, c.s, c.keys
	for _, k := range keys {
		if k.isDefault() && !k.reverse {
			k.ignore, k.translate = g.ignore, g.translate
			k.skipSB, k.skipEB = g.skipSB, g.skipEB
			k.month, k.numeric, k.general, k.human = g.month, g.numeric, g.general, g.human
			k.version, k.random, k.reverse = g.version, g.random, g.reverse
		}
	}
	gkeyOnly := len(keys) == 0 && !g.isDefault()
	if gkeyOnly {
		keys = append(keys, g)
	}
	for _, k := range keys {
		if k.incompatible() {
			// GNU names the ordering options only, without b and r.
			o := *k
			o.skipSB, o.skipEB, o.reverse = false, false, false
			env.Errorf("options '-%s' are incompatible", o.opts())
			return 2
		}
	}
	s.keys = keys
	s.reverse = g.reverse
	if c.debug {
		if c.check || c.outSet {
			env.Errorf("%s", sortDebugConflict(c.check, c.quiet))
			return 2
		}
		s.sortDebugWarnings(env, g, gkeyOnly)
	}
	s.debug, s.gkeyOnly = c.debug, gkeyOnly
	return 0
}

// run sorts files to the output: in memory while the input fits the
// buffer, else in runs spilled to temporary files and merged.
func (c *sortConfig) run(env *Env, files []string, delim byte) int {
	s := c.s
	budget := max(sortBuffer(env, files, c.bufSize), sortMinBuffer)
	temps := &sortTemps{env: env, dirs: c.tmpDirs, live: map[string]bool{}}
	if len(temps.dirs) == 0 {
		temps.dirs = []string{sortTmpDir(env)}
	}
	defer temps.cleanup()
	x := &sortSpiller{s: s, temps: temps, delim: delim, fallback: len(c.tmpDirs) == 0, compress: c.compress,
		small: budget <= sortPipeRuns}
	l := newSortLoader(s, env, delim, budget, x.spill)
	defer l.stopBg()
	for _, file := range files {
		r, err := env.Open(file)
		if err != nil {
			sortOpenFailed(env, file, err)
			return 2
		}
		err = l.read(r)
		r.Close()
		var te *sortTempError
		switch {
		case err == gnu.ErrCancelled:
			return 1
		case errors.As(err, &te):
			env.Errorf("%s", te.msg)
			return 2
		case err == errSortLineMemory:
			env.Errorf("%s", err)
			return 2
		case err != nil:
			what := "read failed"
			if file == "-" && env.StdinClosed {
				what = "stat failed" // GNU fstats its input first
			}
			fmt.Fprintf(env.Stderr, "%s: %s: %s: %s\n", env.Name(), what, env.QuoteF(file), ErrText(err))
			return 2
		}
	}
	mem := l.run()
	if env.Ctx.Err() != nil {
		return 1
	}
	if len(x.runs) > 0 && len(mem) > 0 && l.spill != nil {
		// Runs went to files: the last one goes too, as GNU's does,
		// and the buffer is let go before the merge, which then holds
		// only the runs' read buffers; kept, its records and blocks
		// (7.6 MB for runs of 6.4 MB) were live beside them. The
		// collection frees them now, for the merge's buffers: left to
		// the pacer, which had seen them live, the heap grew by the
		// merge's buffers first (`cut | sort | uniq -c` of 1M lines:
		// 28.4-28.9 -> 26.4-26.5 MB peak RSS; the collection of a heap
		// of 10 MB, 2 MB of it live, takes 0.3 ms, GODEBUG=gctrace=1).
		switch err := l.spill(mem); {
		case err == nil:
			mem = nil
			l.release()
			runtime.GC()
		case err != errSortInMemory:
			return sortMergeFailed(env, err)
		}
	}
	// Each file run read in the last merge gets a share of the buffer.
	bufSize := int(min(max(budget/(int64(s.nmerge)+1), 4<<10), 64<<10))
	if err := x.reduce(env, s.nmerge, bufSize); err != nil {
		return sortMergeFailed(env, err)
	}
	srcs, closeAll, err := x.openRuns(env, x.runs, bufSize)
	if err != nil {
		return sortMergeFailed(env, err)
	}
	defer closeAll()
	if mem != nil {
		srcs = append(srcs, &sortSrc{mem: s.newMerge(mem)})
	}
	h, err := s.newHeap(srcs, delim)
	if err != nil {
		return sortMergeFailed(env, err)
	}
	o, st := sortOpenOutput(env, c.outSet, c.output)
	if o == nil {
		return st
	}
	return o.end(env, s.mergeTo(env, h, o.w, s.debug))
}

// sortTmpDir is where temporary files go without -T: $TMPDIR, unless it
// is llmsh's placeholder (see mktemp), else /tmp.
func sortTmpDir(env *Env) string {
	for _, kv := range env.Environ {
		if v, ok := strings.CutPrefix(kv, "TMPDIR="); ok && v != "" {
			return v
		}
	}
	return "/tmp"
}

// sortMergeFailed reports an error of the merge before any output.
func sortMergeFailed(env *Env, err error) int {
	if err == gnu.ErrCancelled {
		return 1
	}
	env.Errorf("%s", err.Error())
	return 2
}

// setBufferSize sets -S; of several, the largest counts, as in GNU sort.
func (c *sortConfig) setBufferSize(opt, v string) error {
	n, err := sortBufferSize(opt, v)
	c.bufSize = max(c.bufSize, n)
	return err
}

// setParallel sets --parallel, checked as GNU sort checks it.
func (c *sortConfig) setParallel(v string, _ bool) error {
	n, e := gnu.ParseSize(v, 10, "")
	switch {
	case e&^gnu.SizeOverflow != 0:
		return fmt.Errorf("invalid --parallel argument %s", c.env.Quote(v))
	case n == 0:
		return errors.New("number in parallel must be nonzero")
	}
	c.s.parallel = int(min(n, math.MaxInt32))
	return nil
}

// sortBufferSize parses the SIZE of -S as GNU sort does: a number of
// KiB, or with a suffix of "EgGkKmMPtTYZ" (powers of 1024), b for bytes
// or % of physical memory. It returns the size in bytes.
func sortBufferSize(opt, v string) (int64, error) {
	n, e := gnu.ParseSize(v, 10, "EgGkKmMPtTYZ")
	last := byte(0)
	if v != "" {
		last = v[len(v)-1]
	}
	digitEnd := last >= '0' && last <= '9'
	if e == gnu.SizeOK && digitEnd {
		if n > math.MaxUint64/1024 {
			e = gnu.SizeOverflow
		}
		n *= 1024
	}
	if e == gnu.SizeInvalidSuffix && (last == 'b' || last == '%') {
		body := v[:len(v)-1]
		if b := body[len(body)-1:]; b >= "0" && b <= "9" {
			if bn, be := gnu.ParseSize(body, 10, ""); be == gnu.SizeOK {
				e, n = gnu.SizeOK, bn
				if last == '%' {
					mem := float64(physMemory())
					if mem == 0 {
						mem = sortMaxDefault * 8
					}
					if f := mem * float64(bn) / 100; f < math.MaxInt64 {
						n = uint64(f)
					} else {
						e = gnu.SizeOverflow
					}
				}
			}
		}
	}
	switch {
	case e == gnu.SizeOK:
		return int64(min(n, math.MaxInt64)), nil
	case e&gnu.SizeInvalid != 0:
		return 0, fmt.Errorf("invalid %s argument '%s'", opt, v)
	case e&gnu.SizeInvalidSuffix != 0:
		return 0, fmt.Errorf("invalid suffix in %s argument '%s'", opt, v)
	}
	return 0, fmt.Errorf("%s argument '%s' too large", opt, v)
}

// sortFiles0 reads the operands of --files0-from=F: NUL-terminated names
// (the last terminator may be missing). It reports a failure in GNU sort's
// words and returns nil and the exit status.
func sortFiles0(env *Env, from string) ([]string, int) {
	r, err := env.Open(from)
	if errors.Is(err, syscall.EISDIR) {
		// GNU opens a directory and fails reading it.
		env.Errorf("cannot read file names from %s", env.QuoteAF(from))
		return nil, 2
	}
	if err != nil {
		env.Errorf("open failed: %s: %s", env.QuoteF(from), ErrText(err))
		return nil, 2
	}
	data, err := io.ReadAll(r)
	r.Close()
	if err != nil {
		env.Errorf("cannot read file names from %s", env.QuoteAF(from))
		return nil, 2
	}
	if len(data) == 0 {
		env.Errorf("no input from %s", env.QuoteAF(from))
		return nil, 2
	}
	data = bytes.TrimSuffix(data, []byte{0})
	var names []string
	for i, n := range bytes.Split(data, []byte{0}) {
		switch {
		case len(n) == 0:
			env.Errorf("%s:%d: invalid zero-length file name", env.QuoteF(from), i+1)
			return nil, 2
		case string(n) == "-":
			env.Errorf("when reading file names from stdin, no file name of %s allowed", env.QuoteAF("-"))
			return nil, 2
		}
		names = append(names, string(n))
	}
	return names, 0
}

// sortOpenFailed reports an input that could not be opened. GNU opens a
// directory and fails reading it, so that is a read failure.
func sortOpenFailed(env *Env, file string, err error) {
	what := "cannot read"
	if errors.Is(err, syscall.EISDIR) {
		what = "read failed"
	}
	env.Errorf("%s: %s: %s", what, env.QuoteF(file), ErrText(err))
}

// sortOutput is where sort writes: standard output or the -o file.
type sortOutput struct {
	w      *bufio.Writer
	of     File
	name   string
	outSet bool
}

// sortOpenOutput opens the output; on failure it reports it and returns nil
// and the exit status.
func sortOpenOutput(env *Env, outSet bool, output string) (*sortOutput, int) {
	o := &sortOutput{name: output, outSet: outSet}
	out := env.Stdout
	if outSet {
		of, err := env.Create(output)
		if err != nil {
			fmt.Fprintf(env.Stderr, "%s: open failed: %s: %s\n", env.Name(), env.QuoteF(output), ErrText(err))
			return nil, 2
		}
		o.of, out = of, of
	}
	o.w = bufio.NewWriterSize(out, 64<<10)
	return o, 0
}

// finish flushes and closes the output and returns sort's exit status.
func (o *sortOutput) finish(env *Env) int {
	err := o.w.Flush()
	if o.of != nil {
		if cerr := o.of.Close(); err == nil {
			err = cerr
		}
	}
	if err == nil {
		return 0
	}
	// GNU sort writes -o's file through standard output too: its fflush
	// fails, and close_stdout then finds the stream's error flag set.
	name := "standard output"
	if o.outSet {
		name = o.name
	}
	st := outputFailed(env, err, "fflush failed: %[1]s: %[2]s", env.QuoteF(name), 2)
	if st == 2 {
		env.Errorf("%s", flushedText(err))
	}
	return st
}

// end finishes the output after mergeTo returned err and returns sort's
// exit status: a read error is reported after what was written.
func (o *sortOutput) end(env *Env, err error) int {
	var re *sortReadError
	switch {
	case err == gnu.ErrCancelled:
		o.finish(env)
		return 1
	case errors.As(err, &re):
		o.w.Flush()
		env.Errorf("%s", re.Error())
		return 2
	}
	return o.finish(env)
}

// sortMergeIn is one input of a merge and the record at its head.
type sortMergeIn struct {
	env  *Env // its lines are bounded by env.MaxLine
	name string
	rc   io.ReadCloser
	br   *bufio.Reader
	buf  sortBuf
	rec  sortRec
	ok   bool // rec holds a line
}

// advance reads in's next record.
func (s *sortSorter) advance(in *sortMergeIn, delim byte) error {
	in.ok = false
	chunk, err := in.br.ReadSlice(delim)
	b := append(in.buf.b[:0], chunk...)
	if err == bufio.ErrBufferFull {
		// A long line is bounded as a value (Env.gatherLine).
		b, err = in.env.gatherLine(b, in.br, delim)
		if err == gnu.ErrCancelled {
			return err
		}
	}
	in.buf.b = b
	if int64(len(b)) > sortBlockMax {
		return errSortLineMemory
	}
	if err != nil && err != io.EOF {
		return err
	}
	if len(b) == 0 {
		return nil
	}
	if b[len(b)-1] == delim {
		b = b[:len(b)-1]
	}
	in.rec = sortRecOf(&in.buf, 0, len(b))
	s.prepare(&in.rec)
	in.ok = true
	return nil
}

// merge implements -m as GNU does: a streaming merge of inputs taken to be
// sorted already (their order is not checked), holding one line of each;
// of equal lines the one of the earlier operand comes first.
func (s *sortSorter) merge(env *Env, files []string, delim byte, outSet bool, output string) int {
	srcs := make([]*sortSrc, 0, len(files))
	defer func() {
		for _, src := range srcs {
			src.in.rc.Close()
		}
	}()
	for _, file := range files {
		r, err := env.Open(file)
		if err != nil {
			sortOpenFailed(env, file, err)
			return 2
		}
		srcs = append(srcs, &sortSrc{in: &sortMergeIn{env: env, name: file, rc: r, br: bufio.NewReaderSize(r, 64<<10)}})
	}
	h, err := s.newHeap(srcs, delim)
	if err != nil {
		return sortMergeFailed(env, err)
	}
	o, st := sortOpenOutput(env, outSet, output)
	if o == nil {
		return st
	}
	return o.end(env, s.mergeTo(env, h, o.w, s.debug))
}

// check implements -c and -C, streaming with only two lines in memory.
func (s *sortSorter) check(env *Env, file string, delim byte, quiet bool) int {
	r, err := env.Open(file)
	if err != nil {
		if errors.Is(err, syscall.EISDIR) {
			sortOpenFailed(env, file, err)
		} else {
			// GNU's check opens with xfopen, in its own words.
			env.Errorf("open failed: %s: %s", env.QuoteF(file), ErrText(err))
		}
		return 2
	}
	defer r.Close()
	lr := newLineReader(env, r)
	var prev, cur []byte
	have := false
	for n := 1; ; n++ {
		if env.Ctx.Err() != nil {
			return 1
		}
		line, _, err := lr.next(delim)
		if err == gnu.ErrCancelled {
			return 1
		}
		if line == nil && err != nil {
			if err == io.EOF {
				return 0
			}
			fmt.Fprintf(env.Stderr, "%s: read failed: %s: %s\n", env.Name(), file, ErrText(err))
			return 2
		}
		cur = append(cur[:0], line...)
		if have {
			pb, cb := sortBuf{prev}, sortBuf{cur}
			a := sortRecOf(&pb, 0, len(prev))
			b := sortRecOf(&cb, 0, len(cur))
			s.prepare(&a)
			s.prepare(&b)
			d := s.cmp(&a, &b)
			if d > 0 || (s.unique && d == 0) {
				if !quiet {
					fmt.Fprintf(env.Stderr, "%s: %s:%d: disorder: %s%c", env.Name(), file, n, cur, delim)
				}
				return 1
			}
		}
		prev, cur = cur, prev
		have = true
		if err != nil {
			return 0
		}
	}
}

// sessionOpenFiles is the open-files limit of an llmsh session, the one
// its ulimit -n shows: GNU sort's --batch-size is at most 3 fewer.
const sessionOpenFiles = 1024

// setBatchSize sets --batch-size, checked as GNU sort's specify_nmerge.
func (c *sortConfig) setBatchSize(v string, _ bool) error {
	n, e := gnu.ParseSize(v, 10, "")
	maxMerge := uint64(sessionOpenFiles - 3)
	switch {
	case e == gnu.SizeOK && n < 2:
		return fmt.Errorf("invalid --batch-size argument %s\nsort: minimum --batch-size argument is '2'", c.env.Quote(v))
	case e == gnu.SizeOverflow || e == gnu.SizeOK && n > maxMerge:
		return fmt.Errorf("--batch-size argument %s too large\nsort: maximum --batch-size argument with current rlimit is %d", c.env.Quote(v), maxMerge)
	case e&gnu.SizeInvalidSuffix != 0:
		return fmt.Errorf("invalid suffix in --batch-size argument %s", c.env.Quote(v))
	case e != gnu.SizeOK:
		return fmt.Errorf("invalid --batch-size argument %s", c.env.Quote(v))
	}
	c.s.nmerge = int(n)
	return nil
}

// readRandomSource reads the 16 bytes GNU sort seeds -R's MD5 hashing
// with from --random-source's file; it reports failures as GNU does.
func (c *sortConfig) readRandomSource(env *Env) bool {
	name := c.randomSource
	r, err := env.Open(name)
	if errors.Is(err, syscall.EISDIR) {
		// GNU opens a directory and fails to read it.
		env.Errorf("%s: read error: %s", env.Quote(name), ErrText(err))
		return false
	}
	if err != nil {
		env.Errorf("open failed: %s: %s", env.QuoteF(name), ErrText(err))
		return false
	}
	defer r.Close()
	buf := make([]byte, md5.Size)
	if _, err := io.ReadFull(r, buf); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			env.Errorf("%s: end of file", env.Quote(name))
		} else {
			env.Errorf("%s: read error: %s", env.Quote(name), ErrText(err))
		}
		return false
	}
	c.s.md5 = buf
	return true
}

// cmpMD5 compares two -R keys as GNU sort does with a random source in
// the C locale: by the MD5 of the seed and the key (translated by -d, -f,
// -i), the keys themselves breaking a tie.
func (s *sortSorter) cmpMD5(a, b []byte, k *sortKey) int {
	a, b = k.transform(a), k.transform(b)
	ha := md5.Sum(append(s.md5[:len(s.md5):len(s.md5)], a...))
	hb := md5.Sum(append(s.md5[:len(s.md5):len(s.md5)], b...))
	if d := bytes.Compare(ha[:], hb[:]); d != 0 {
		return d
	}
	return bytes.Compare(a, b)
}

// transform is key with -d/-i's characters left out and -f's folded.
func (k *sortKey) transform(key []byte) []byte {
	if k.ignore == nil && k.translate == nil {
		return key
	}
	out := make([]byte, 0, len(key))
	for _, ch := range key {
		if k.ignore != nil && k.ignore[ch] {
			continue
		}
		if k.translate != nil {
			ch = k.translate[ch]
		}
		out = append(out, ch)
	}
	return out
}
