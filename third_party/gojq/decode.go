package gojq

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Decoder reads a stream of JSON texts as jq 1.7's parser does: a
// character at a time, finding each error where jq finds it and naming it
// with jq's words, line and column. Objects become *OrderedMap with their
// keys in the order read, and a number keeps its literal (as json.Number, in
// the canonical form jq prints) when printing it as a float64 would give
// something else, as for 1.0, 1E+2 or -0.
//
// A Decoder is fed either by an io.Reader (NewDecoder, Decode) or buffer by
// buffer (NewBufDecoder, SetBuf, Next), as jq's input loop feeds its parser
// a line at a time.
type Decoder struct {
	r       io.Reader // the source of Decode, nil for SetBuf
	rbuf    []byte
	rerr    error // the error that ended r, io.EOF at its end
	buf     []byte
	pos     int
	partial bool // more buffers follow buf
	fed     bool // a buffer has been set
	eof     bool // the last buffer is parsed
	bom     int  // bytes of a leading UTF-8 BOM skipped; -1 past it, -2 malformed

	line, col int  // jq's: line from 1, column of the last character read
	st        byte // 0 between tokens, 's' in a string, 'e' after its backslash
	stack     []decFrame
	vals      []any    // the elements of the open arrays, the innermost's last
	kvs       []keyVal // the members of the open objects, likewise
	next      any
	nextStr   string // the pending value when it is a string (not boxed: it may be a key)
	nextIsStr bool
	hasNext   bool
	tok       []byte
	keys      map[string]string // object keys read, to share their bytes

	// jq --seq: the input is an RFC 7464 sequence, each text after an RS
	seq       bool
	seqStream bool // jq --seq --stream
	waitRS    bool // skipping to the next RS (at the start, after an error)
	lastWS    bool // the last character read was white space
	atRS      bool // the last character read was an RS

	// jq --stream: the events of a malformed text before its error, as
	// jq's streaming parser emits them
	track      bool
	events     []any
	errPath    []any // the streaming parser's path at the last error
	afterComma bool  // the last token was a ','
}

// streamCheck is jq's streaming parser's error for the structural
// character c where its words differ from its whole-text parser's
// (jq --stream); "" where they agree.
func (d *Decoder) streamCheck(c byte, top *decFrame, afterComma bool) string {
	inArray := top != nil && top.kind == '['
	switch c {
	case '[', '{':
		if d.hasNext {
			return "Expected a separator between values"
		}
	case ':':
		if top == nil || inArray {
			return "':' not as part of an object"
		}
		if d.hasNext && !d.nextIsStr {
			return "Object keys must be strings"
		}
	case ']':
		switch {
		case top == nil:
			return "Unmatched ']' at the top-level"
		case afterComma:
			return "Expected another array element"
		case !inArray:
			return "Unmatched ']' in the middle of an object"
		}
	case '}':
		switch {
		case top == nil:
			return "Unmatched '}' at the top-level"
		case afterComma:
			return "Expected another key:value pair"
		case inArray:
			return "Unmatched '}' in the middle of an array"
		}
	}
	return ""
}

// TrackEvents makes d read as jq --stream's parser: its errors in that
// parser's words, and PartialEvents giving the events emitted for a
// malformed text before its error.
func (d *Decoder) TrackEvents() { d.track = true }

// ErrorPath returns, after an error (see TrackEvents), the path where jq's
// streaming parser was, as jq --stream-errors reports it: an open array's
// index of the element being read, an open object's key after its ':'
// and null before it ([1,{"a":2 3 is at [1,"a"], {"a":1,} at [null]).
func (d *Decoder) ErrorPath() []any { return d.errPath }

// PartialEvents returns the events of the malformed text of the last
// error (see TrackEvents), and forgets them.
func (d *Decoder) PartialEvents() []any {
	evs := d.events
	d.events = nil
	return evs
}

// failed keeps, before d forgets a malformed text, the --stream events
// jq's streaming parser had emitted for it: those of each element ended
// (by a ',') in the open containers, and of a last value that is a
// whole container (its events came as it closed; a scalar's come only
// with what follows it).
func (d *Decoder) failed() {
	if !d.track {
		return
	}
	var evs []any
	path := []any{}
	at := func(k any) []any { return append(slices.Clip(path), k) }
	d.errPath = []any{}
	for i, f := range d.stack {
		switch f.kind {
		case '{':
			d.errPath = append(d.errPath, nil)
		case 'k':
			d.errPath[len(d.errPath)-1] = f.key
		}
		switch f.kind {
		case '[':
			end := len(d.vals)
			for _, g := range d.stack[i+1:] {
				if g.kind == '[' {
					end = g.start
					break
				}
			}
			for j, v := range d.vals[f.start:end] {
				evs = StreamEvents(at(j), v, evs)
			}
			path = at(end - f.start)
			d.errPath = append(d.errPath, end-f.start)
		case '{':
			end := len(d.kvs)
			for _, g := range d.stack[i+1:] {
				if g.kind == '{' {
					end = g.start
					break
				}
			}
			for _, kv := range d.kvs[f.start:end] {
				evs = StreamEvents(at(kv.key), kv.val, evs)
			}
		case 'k':
			path = at(f.key)
		}
	}
	if d.hasNext && !d.nextIsStr && len(d.stack) > 0 {
		switch v := d.next.(type) {
		case []any, *OrderedMap:
			evs = StreamEvents(path, v, evs)
		}
	}
	d.events = evs
}

// StreamEvents appends to events the --stream form of v at path, as
// jq's tostream: [PATH, LEAF] for each scalar and empty container, and
// [PATH] closing each non-empty container with its last element's path.
func StreamEvents(path []any, v any, events []any) []any {
	var last []any
	switch x := v.(type) {
	case []any:
		for i, e := range x {
			last = append(slices.Clip(path), i)
			events = StreamEvents(last, e, events)
		}
	case *OrderedMap:
		for k, e := range x.All() {
			last = append(slices.Clip(path), k)
			events = StreamEvents(last, e, events)
		}
	}
	if last == nil {
		if path == nil {
			path = []any{}
		}
		return append(events, []any{path, v})
	}
	return append(events, []any{last})
}

const rs = 0x1e // ASCII RS, which starts each text of a JSON sequence

// SetSeq makes d read its input as jq --seq does: text before the first
// RS is skipped, an RS ends a value (or reports it truncated), and after
// a malformed text d skips to the next RS. With streaming (jq --seq
// --stream), a last number with nothing after it is dropped without a
// word, as jq's streaming parser drops it.
func (d *Decoder) SetSeq(streaming bool) {
	d.seq, d.waitRS, d.seqStream = true, true, streaming
}

// decFrame is an array or object being read, or an object's key read
// before its value.
type decFrame struct {
	kind  byte // '[', '{', or 'k' for a key
	start int  // '[': where its elements start in vals; '{': its members in kvs
	key   string
}

// NewDecoder returns a Decoder reading from r.
func NewDecoder(r io.Reader) *Decoder {
	d := NewBufDecoder()
	d.r, d.rbuf = r, make([]byte, 64<<10)
	return d
}

// NewBufDecoder returns a Decoder fed by SetBuf.
func NewBufDecoder() *Decoder {
	return &Decoder{line: 1}
}

// A DecodeError is a malformed input; its text is jq's message.
type DecodeError struct {
	Msg string
}

func (e *DecodeError) Error() string { return e.Msg }

// Line returns the number of newlines read so far, counted from 1 as jq's
// parser counts them.
func (d *Decoder) Line() int { return d.line }

// Remaining returns the number of bytes of the last buffer not yet read.
func (d *Decoder) Remaining() int {
	if !d.fed {
		return 0
	}
	return len(d.buf) - d.pos
}

var utf8BOM = [3]byte{0xef, 0xbb, 0xbf}

// SetBuf gives the decoder its next buffer, once the last is read;
// partial says that more follow. b must stay unchanged until it is read.
func (d *Decoder) SetBuf(b []byte, partial bool) {
	for len(b) > 0 && d.bom >= 0 && d.bom < len(utf8BOM) {
		if b[0] == utf8BOM[d.bom] {
			b = b[1:]
			d.bom++
		} else if d.bom == 0 {
			d.bom = -1
		} else {
			d.bom = -2
		}
	}
	if d.bom == len(utf8BOM) {
		d.bom = -1
	}
	d.buf, d.pos, d.partial, d.fed = b, 0, partial, true
}

// Decode returns the next value, or io.EOF after the last.
func (d *Decoder) Decode() (any, error) {
	for {
		v, ok, err := d.Next()
		if ok || err != nil {
			return v, err
		}
		if d.eof {
			if d.rerr != nil && d.rerr != io.EOF {
				return nil, d.rerr
			}
			return nil, io.EOF
		}
		if d.rerr != nil {
			d.SetBuf(nil, false)
			continue
		}
		n, err := d.r.Read(d.rbuf)
		if err != nil {
			d.rerr = err
		}
		d.SetBuf(d.rbuf[:n], err == nil)
	}
}

func (d *Decoder) errorf(format string, a ...any) error {
	return &DecodeError{fmt.Sprintf(format, a...)}
}

// Next parses the current buffer up to the end of the next value. It
// returns the value and true; or an error (the rest of the buffer is
// dropped, as jq drops it); or false, nil when the buffer is used up (a
// partial one) or the input ended without another value.
func (d *Decoder) Next() (any, bool, error) {
	if d.eof || !d.fed {
		return nil, false, nil
	}
	if d.bom == -2 {
		return nil, false, d.errorf("Malformed BOM")
	}
	for d.pos < len(d.buf) {
		if d.waitRS {
			d.skipToRS()
			continue
		}
		v, ok, msg := d.scan()
		if msg != "" {
			d.failed()
			d.reset()
			if d.seq && !d.atRS {
				d.waitRS = true
				return nil, false, d.errorf("%s at line %d, column %d (need RS to resync)", msg, d.line, d.col)
			}
			if !d.seq {
				d.buf, d.pos, d.fed = nil, 0, false
			}
			return nil, false, d.errorf("%s at line %d, column %d", msg, d.line, d.col)
		}
		if ok {
			return v, true, nil
		}
	}
	if d.partial {
		return nil, false, nil
	}
	d.eof = true
	if d.waitRS {
		return nil, false, d.errorf("Unfinished abandoned text at EOF at line %d, column %d", d.line, d.col)
	}
	if d.st != 0 {
		d.failed()
		d.reset()
		return nil, false, d.errorf("Unfinished string at EOF at line %d, column %d", d.line, d.col)
	}
	if msg := d.literal(); msg != "" {
		d.failed()
		d.reset()
		return nil, false, d.errorf("%s at EOF at line %d, column %d", msg, d.line, d.col)
	}
	if len(d.stack) > 0 {
		d.failed()
		d.reset()
		return nil, false, d.errorf("Unfinished JSON term at EOF at line %d, column %d", d.line, d.col)
	}
	if d.hasNext {
		v := d.take()
		if d.seq && !d.lastWS && isNumberValue(v) {
			if d.seqStream {
				return nil, false, nil
			}
			return nil, false, d.errorf("Potentially truncated top-level numeric value at EOF at line %d, column %d", d.line, d.col)
		}
		return v, true, nil
	}
	return nil, false, nil
}

// count moves the line and column past seg, as jq's parser counts them.
func (d *Decoder) count(seg []byte) {
	if n := bytes.Count(seg, []byte{'\n'}); n > 0 {
		d.line += n
		d.col = len(seg) - 1 - bytes.LastIndexByte(seg, '\n')
	} else {
		d.col += len(seg)
	}
}

// skipToRS reads the buffer up to and with the next RS.
func (d *Decoder) skipToRS() {
	i := bytes.IndexByte(d.buf[d.pos:], rs)
	end := len(d.buf)
	if i >= 0 {
		end = d.pos + i + 1
		d.waitRS = false
	}
	seg := d.buf[d.pos:end]
	d.count(seg)
	d.pos = end
}

func isNumberValue(v any) bool {
	switch v.(type) {
	case nil, bool, string, []any, *OrderedMap:
		return false
	}
	return true
}

// scanRS reads an RS in a sequence: the end of the text before it, which
// is truncated unless white space or the end of a string, array or
// object came last.
func (d *Decoder) scanRS() (any, bool, string) {
	d.pos++
	d.col++
	d.atRS = true
	if !d.lastWS && (len(d.stack) > 0 || len(d.tok) > 0 || d.hasNext && !d.nextIsStr && isNumberValue(d.next)) {
		if d.literal() == "" && len(d.stack) == 0 && d.hasNext && !d.nextIsStr && isNumberValue(d.next) {
			return nil, false, "Potentially truncated top-level numeric value"
		}
		return nil, false, "Truncated value"
	}
	if msg := d.literal(); msg != "" {
		return nil, false, msg
	}
	if d.st == 0 {
		if v, ok := d.done(); ok {
			return v, true, ""
		}
	}
	d.reset()
	return nil, false, ""
}

func (d *Decoder) reset() {
	clear(d.stack)
	clear(d.vals)
	clear(d.kvs)
	d.stack, d.vals, d.kvs = d.stack[:0], d.vals[:0], d.kvs[:0]
	d.next, d.nextStr, d.nextIsStr, d.hasNext, d.tok, d.st = nil, "", false, false, d.tok[:0], 0
}

// take returns the pending value and clears it.
func (d *Decoder) take() any {
	v := d.next
	if d.nextIsStr {
		v = d.nextStr
	}
	d.next, d.nextStr, d.nextIsStr, d.hasNext = nil, "", false, false
	return v
}

// done takes a finished top-level value.
func (d *Decoder) done() (any, bool) {
	if len(d.stack) == 0 && d.hasNext {
		return d.take(), true
	}
	return nil, false
}

// scan reads one character, or a run of string or literal characters; it
// returns a finished value, or jq's message for an error.
func (d *Decoder) scan() (any, bool, string) {
	if d.seq {
		if d.atRS = d.buf[d.pos] == rs; d.atRS {
			return d.scanRS()
		}
		d.lastWS = false
	}
	if d.st != 0 {
		return d.scanString()
	}
	c := d.buf[d.pos]
	switch c {
	case ' ', '\t', '\r', '\n', '"', '[', ',', ']', '{', ':', '}':
	default:
		// a literal: up to the next delimiter in this buffer
		i := d.pos
		for i < len(d.buf) {
			switch d.buf[i] {
			case ' ', '\t', '\r', '\n', '"', '[', ',', ']', '{', ':', '}':
			case rs:
				if d.seq {
					break
				}
				i++
				continue
			default:
				i++
				continue
			}
			break
		}
		d.tok = append(d.tok, d.buf[d.pos:i]...)
		d.col += i - d.pos
		d.pos = i
		return nil, false, ""
	}
	d.pos++
	d.col++
	if c == '\n' {
		d.line++
		d.col = 0
	}
	if msg := d.literal(); msg != "" {
		return nil, false, msg
	}
	v, ok := d.done()
	switch c {
	case '"':
		d.st = 's'
	case ' ', '\t', '\r', '\n':
		d.lastWS = true
	default:
		if msg := d.token(c); msg != "" {
			return nil, false, msg
		}
	}
	if !ok {
		v, ok = d.done()
	}
	return v, ok, ""
}

// scanString reads string characters up to the closing quote.
func (d *Decoder) scanString() (any, bool, string) {
	i := d.pos
	for ; i < len(d.buf); i++ {
		c := d.buf[i]
		if c == rs && d.seq {
			break // an RS ends the text, inside a string too
		}
		if d.st == 'e' {
			d.st = 's'
		} else if c == '\\' {
			d.st = 'e'
		} else if c == '"' {
			break
		}
	}
	seg := d.buf[d.pos:i]
	d.count(seg)
	d.pos = i
	if i == len(d.buf) || d.buf[i] != '"' {
		d.tok = append(d.tok, seg...)
		return nil, false, ""
	}
	d.pos++
	d.col++
	d.st = 0
	text := seg
	if len(d.tok) > 0 {
		d.tok = append(d.tok, seg...)
		text = d.tok
	}
	var s, msg string
	if n := len(d.stack); n > 0 && d.stack[n-1].kind == '{' && !d.hasNext {
		s, msg = d.key(text)
	} else {
		s, msg = jqString(text)
	}
	d.tok = d.tok[:0]
	if msg != "" {
		return nil, false, msg
	}
	if d.hasNext {
		return nil, false, "Expected separator between values"
	}
	d.nextStr, d.nextIsStr, d.hasNext = s, true, true
	v, ok := d.done()
	return v, ok, ""
}

// value takes a finished scalar or container.
func (d *Decoder) value(v any) string {
	d.afterComma = false
	if d.hasNext {
		return "Expected separator between values"
	}
	d.next, d.hasNext = v, true
	return ""
}

// token takes a structural character.
func (d *Decoder) token(c byte) string {
	n := len(d.stack)
	var top *decFrame
	if n > 0 {
		top = &d.stack[n-1]
	}
	afterComma := d.afterComma
	d.afterComma = c == ','
	if d.track {
		if msg := d.streamCheck(c, top, afterComma); msg != "" {
			return msg
		}
	}
	switch c {
	case '[', '{':
		if n >= maxDepth {
			return "Exceeds depth limit for parsing"
		}
		if d.hasNext {
			return "Expected separator between values"
		}
		start := len(d.vals)
		if c == '{' {
			start = len(d.kvs)
		}
		d.stack = append(d.stack, decFrame{kind: c, start: start})
	case ':':
		if !d.hasNext {
			return "Expected string key before ':'"
		}
		if top == nil || top.kind != '{' {
			return "':' not as part of an object"
		}
		if !d.nextIsStr {
			return "Object keys must be strings"
		}
		d.stack = append(d.stack, decFrame{kind: 'k', key: d.nextStr})
		d.take()
	case ',':
		if !d.hasNext {
			return "Expected value before ','"
		}
		if top == nil {
			return "',' not as part of an object or array"
		}
		switch top.kind {
		case '[':
			d.vals = append(d.vals, d.take())
		case 'k':
			d.kvs = append(d.kvs, keyVal{top.key, d.take()})
			d.stack = d.stack[:n-1]
		default:
			return "Objects must consist of key:value pairs"
		}
	case ']':
		if top == nil || top.kind != '[' {
			return "Unmatched ']'"
		}
		if d.hasNext {
			d.vals = append(d.vals, d.take())
		} else if len(d.vals) > top.start {
			return "Expected another array element"
		}
		elems := d.vals[top.start:]
		a := make([]any, len(elems))
		copy(a, elems)
		clear(elems)
		d.vals = d.vals[:top.start]
		d.next, d.hasNext = a, true
		d.stack = d.stack[:n-1]
	case '}':
		if top == nil {
			return "Unmatched '}'"
		}
		if d.hasNext {
			if top.kind != 'k' {
				return "Objects must consist of key:value pairs"
			}
			d.kvs = append(d.kvs, keyVal{top.key, d.take()})
			d.stack = d.stack[:n-1]
			n--
			top = &d.stack[n-1]
		} else {
			if top.kind != '{' {
				return "Unmatched '}'"
			}
			if len(d.kvs) > top.start {
				return "Expected another key-value pair"
			}
		}
		members := d.kvs[top.start:]
		m := NewOrderedMap(len(members))
		for _, kv := range members {
			m.Set(kv.key, kv.val)
		}
		clear(members)
		d.kvs = d.kvs[:top.start]
		d.next, d.hasNext = m, true
		d.stack = d.stack[:n-1]
	}
	return ""
}

// literal takes the literal read so far: true, false, null or a number.
func (d *Decoder) literal() string {
	if len(d.tok) == 0 {
		return ""
	}
	t := d.tok
	d.tok = d.tok[:0]
	var v any
	pattern := ""
	switch t[0] {
	case 't':
		pattern, v = "true", true
	case 'f':
		pattern, v = "false", false
	case 'n':
		// "nan" and its kin are numbers
		if len(t) > 1 && t[1] == 'u' {
			pattern, v = "null", nil
		}
	}
	if pattern != "" {
		if string(t) != pattern {
			return "Invalid literal"
		}
		return d.value(v)
	}
	n, ok := decNumberLiteral(string(t))
	if !ok {
		return "Invalid numeric literal"
	}
	return d.value(n)
}

// decNumberLiteral reads a number as jq 1.7 reads one in its input, with
// decNumber's syntax: a sign, digits with a point anywhere, an exponent;
// or Infinity, Inf, NaN, sNaN (any case; a NaN may carry zeros).
func decNumberLiteral(s string) (any, bool) {
	if plainInteger(s) {
		return ParseNumberLiteral(s)
	}
	body := s
	neg := false
	if body != "" && (body[0] == '-' || body[0] == '+') {
		neg = body[0] == '-'
		body = body[1:]
	}
	switch lower := strings.ToLower(body); {
	case lower == "inf" || lower == "infinity":
		if neg {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	case strings.HasPrefix(lower, "nan") || strings.HasPrefix(lower, "snan"):
		digits := strings.TrimPrefix(strings.TrimPrefix(lower, "s"), "nan")
		// a NaN with a payload other than 0 is refused, as jq 1.7.1 with
		// the fix of CVE-2024-53427 (Debian's, and jq 1.8) refuses it
		for _, c := range digits {
			if c != '0' {
				return nil, false
			}
		}
		return math.NaN(), true
	}
	// digits [. digits] with a digit at least, as ParseNumberLiteral wants
	i := 0
	for i < len(body) && body[i] >= '0' && body[i] <= '9' {
		i++
	}
	intPart, rest := body[:i], body[i:]
	frac := ""
	if strings.HasPrefix(rest, ".") {
		j := 1
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		frac, rest = rest[1:j], rest[j:]
	}
	if intPart == "" && frac == "" {
		return nil, false
	}
	if rest != "" {
		e := rest[1:]
		if rest[0] != 'e' && rest[0] != 'E' {
			return nil, false
		}
		if e != "" && (e[0] == '+' || e[0] == '-') {
			e = e[1:]
		}
		if e == "" || strings.Trim(e, "0123456789") != "" {
			return nil, false
		}
	}
	if t := strings.TrimLeft(intPart, "0"); t != "" {
		intPart = t
	} else {
		intPart = "0"
	}
	lit := intPart
	if frac != "" {
		lit += "." + frac
	}
	if neg {
		lit = "-" + lit
	}
	return ParseNumberLiteral(lit + rest)
}

// maxKeys bounds the object keys a Decoder keeps to share.
const maxKeys = 1024

// key decodes an object key: the same text as a key read before gives
// the same string, so that the objects of a stream share their keys'
// bytes (less memory, and lookups that compare them stay in the cache).
func (d *Decoder) key(text []byte) (string, string) {
	if k, ok := d.keys[string(text)]; ok {
		return k, ""
	}
	k, msg := jqString(text)
	if msg == "" && len(d.keys) < maxKeys && len(text) <= 64 {
		if d.keys == nil {
			d.keys = make(map[string]string)
		}
		d.keys[string(text)] = k
	}
	return k, msg
}

// plainInteger reports whether s is an integer as JSON writes one: an
// optional minus, then 0 or digits not starting with 0.
func plainInteger(s string) bool {
	if s != "" && s[0] == '-' {
		s = s[1:]
	}
	if s == "" || s[0] == '0' && len(s) > 1 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// jqString decodes the text of a string between its quotes as jq does,
// or returns jq's message for what is wrong in it.
func jqString(t []byte) (string, string) {
	if bytes.IndexByte(t, '\\') < 0 {
		for _, c := range t {
			if c < 0x20 {
				return "", "Invalid string: control characters from U+0000 through U+001F must be escaped"
			}
		}
		if utf8.Valid(t) {
			return string(t), ""
		}
		return ValidUTF8(string(t)), ""
	}
	out := make([]byte, 0, len(t))
	for i := 0; i < len(t); {
		c := t[i]
		i++
		if c != '\\' {
			if c < 0x20 {
				return "", "Invalid string: control characters from U+0000 through U+001F must be escaped"
			}
			out = append(out, c)
			continue
		}
		if i >= len(t) {
			return "", "Expected escape character at end of string"
		}
		c = t[i]
		i++
		switch c {
		case '\\', '"', '/':
			out = append(out, c)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 't':
			out = append(out, '\t')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 'u':
			if i+4 > len(t) {
				return "", "Invalid \\uXXXX escape"
			}
			r := unhex4(t[i:])
			if r < 0 {
				return "", "Invalid characters in \\uXXXX escape"
			}
			i += 4
			if 0xd800 <= r && r <= 0xdbff {
				if i+6 > len(t) || t[i] != '\\' || t[i+1] != 'u' {
					return "", "Invalid \\uXXXX\\uXXXX surrogate pair escape"
				}
				lo := unhex4(t[i+2:])
				if lo < 0xdc00 || lo > 0xdfff {
					return "", "Invalid \\uXXXX\\uXXXX surrogate pair escape"
				}
				i += 6
				r = utf16.DecodeRune(r, lo)
			}
			// a lone low surrogate is not UTF-8: jq replaces it
			out = utf8.AppendRune(out, r)
		default:
			return "", "Invalid escape"
		}
	}
	if utf8.Valid(out) {
		return string(out), ""
	}
	return ValidUTF8(string(out)), ""
}

// unhex4 is the value of four hex digits, -1 if they are not.
func unhex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return -1
		}
	}
	return r
}

const maxDepth = 10000

// ParseNumberLiteral converts a JSON number literal to the value jq 1.7
// keeps for it: an int or *big.Int for an integer printed as written, a
// float64 when jq would print it the same, else a json.Number holding the
// canonical form of the literal (decNumber's, as jq 1.7 prints it).
func ParseNumberLiteral(s string) (any, bool) {
	neg := strings.HasPrefix(s, "-")
	body := strings.TrimPrefix(s, "-")
	i := 0
	for i < len(body) && body[i] >= '0' && body[i] <= '9' {
		i++
	}
	if i == 0 || i > 1 && body[0] == '0' {
		return nil, false
	}
	intPart, frac, exp := body[:i], "", 0
	rest := body[i:]
	if strings.HasPrefix(rest, ".") {
		j := 1
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		if j == 1 {
			return nil, false
		}
		frac, rest = rest[1:j], rest[j:]
	}
	if len(rest) > 0 {
		if rest[0] != 'e' && rest[0] != 'E' {
			return nil, false
		}
		e, err := strconv.Atoi(strings.TrimPrefix(rest[1:], "+"))
		if err != nil || rest[1:] == "" || strings.HasPrefix(rest[1:], "+-") || strings.HasPrefix(rest[1:], "+ ") {
			return nil, false
		}
		exp = e
	}
	if frac == "" && len(rest) == 0 && !(neg && intPart == "0") {
		// past 2^53 jq keeps the literal but computes with a double
		if n, err := strconv.Atoi(s); err == nil && n <= 1<<53 && n >= -1<<53 {
			return n, true
		}
		return json.Number(s), true
	}
	canon := canonicalNumber(neg, intPart+frac, exp-len(frac))
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return nil, false
	}
	if formatFloat(f) == canon {
		return f, true
	}
	return json.Number(canon), true
}

// canonicalNumber is decNumber's to-scientific-string of the coefficient
// digits and exponent.
func canonicalNumber(neg bool, coef string, exp int) string {
	coef = strings.TrimLeft(coef, "0")
	if coef == "" {
		coef = "0"
	}
	var sb strings.Builder
	if neg {
		sb.WriteByte('-')
	}
	adj := exp + len(coef) - 1
	if exp <= 0 && adj >= -6 {
		if exp == 0 {
			sb.WriteString(coef)
		} else if n := len(coef) + exp; n > 0 {
			sb.WriteString(coef[:n])
			sb.WriteByte('.')
			sb.WriteString(coef[n:])
		} else {
			sb.WriteString("0.")
			sb.WriteString(strings.Repeat("0", -n))
			sb.WriteString(coef)
		}
		return sb.String()
	}
	sb.WriteString(coef[:1])
	if len(coef) > 1 {
		sb.WriteByte('.')
		sb.WriteString(coef[1:])
	}
	sb.WriteByte('E')
	if adj >= 0 {
		sb.WriteByte('+')
	}
	sb.WriteString(strconv.Itoa(adj))
	return sb.String()
}

// formatFloat formats f as jq 1.7 prints a double: the shortest digits that
// read back as f, in exponent form (two exponent digits at least) when the
// decimal point would be more than 15 places past the digits or more than
// 3 places before them.
func formatFloat(f float64) string {
	if math.IsNaN(f) {
		return "null"
	}
	f = min(max(f, -math.MaxFloat64), math.MaxFloat64)
	if f == 0 {
		if math.Signbit(f) {
			return "-0"
		}
		return "0"
	}
	b := strconv.AppendFloat(nil, f, 'e', -1, 64)
	var sb strings.Builder
	if b[0] == '-' {
		sb.WriteByte('-')
		b = b[1:]
	}
	mant, e, _ := strings.Cut(string(b), "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(e)
	decpt := x + 1
	if decpt <= -4 || decpt > len(digits)+15 {
		sb.WriteString(digits[:1])
		if len(digits) > 1 {
			sb.WriteByte('.')
			sb.WriteString(digits[1:])
		}
		sb.WriteByte('e')
		if x < 0 {
			sb.WriteByte('-')
			x = -x
		} else {
			sb.WriteByte('+')
		}
		if x < 10 {
			sb.WriteByte('0')
		}
		sb.WriteString(strconv.Itoa(x))
		return sb.String()
	}
	switch {
	case decpt <= 0:
		sb.WriteString("0.")
		sb.WriteString(strings.Repeat("0", -decpt))
		sb.WriteString(digits)
	case decpt >= len(digits):
		sb.WriteString(digits)
		sb.WriteString(strings.Repeat("0", decpt-len(digits)))
	default:
		sb.WriteString(digits[:decpt])
		sb.WriteByte('.')
		sb.WriteString(digits[decpt:])
	}
	return sb.String()
}

// parseJSON reads the one JSON text of s, as jq's fromjson and tonumber
// do.
func parseJSON(s string) (any, error) {
	d := NewBufDecoder()
	d.SetBuf([]byte(s), false)
	v, ok, err := d.Next()
	if ok {
		if _, ok2, err2 := d.Next(); ok2 {
			err = errors.New("Unexpected extra JSON values")
		} else {
			err = err2
		}
	} else if err == nil {
		err = errors.New("Expected JSON value")
	}
	if err != nil {
		return nil, &fromJSONError{err, s}
	}
	return v, nil
}

// fromJSONError is a failure of fromjson, worded as jq 1.7 words it.
type fromJSONError struct {
	err error
	s   string
}

func (e *fromJSONError) Error() string {
	return fmt.Sprintf("%s (while parsing '%s')", e.err, e.s)
}
