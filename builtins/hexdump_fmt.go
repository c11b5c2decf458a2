package builtins

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

// hexdump -e format strings: units of [ITER][/BYTES] "FORMAT", where
// FORMAT mixes text with printf conversions (d i o u x X c e f g E G) and
// hexdump's own (%_a[dox] and %_A[dox] addresses, %_c, %_p, %_u).

type hexdumpPiece struct {
	text  string // literal text, or the printf spec for a conversion
	conv  byte   // 0 for text; d i o u x X c e f g E G, 'a', 'A', 'C' (%_c), 'p' (%_p), 'U' (%_u)
	size  int    // bytes consumed
	width string // flags and width, for blanks when the data has run out
}

type hexdumpUnit struct {
	iter   int
	setRep bool // the iteration count was given
	bytes  int  // 0: each conversion's own size
	pieces []hexdumpPiece
}

type hexdumpFormat struct{ units []hexdumpUnit }

// unitSize is the number of bytes one iteration of u consumes: its byte
// count when given, else the sum of its conversions' sizes.
func (u hexdumpUnit) unitSize() int {
	if u.bytes != 0 {
		return u.bytes
	}
	per := 0
	for _, p := range u.pieces {
		if p.conv != 0 && p.conv != 'a' && p.conv != 'A' {
			per += p.size
		}
	}
	return per
}

// size is the number of bytes one pass of the format consumes.
func (f *hexdumpFormat) size() int {
	n := 0
	for _, u := range f.units {
		n += u.iter * u.unitSize()
	}
	return n
}

// fill repeats the last unit of a format smaller than the block size bs
// when that unit consumes data and has no iteration count, as util-linux
// does ('"%c\n"' beside '2/1 "%02x"' prints two characters a block).
func (f *hexdumpFormat) fill(bs int) {
	n := len(f.units)
	if n == 0 {
		return
	}
	size, last := f.size(), &f.units[n-1]
	if us := last.unitSize(); size < bs && !last.setRep && us != 0 {
		last.iter += (bs - size) / us
	}
}

// hexdumpEscapes are the escapes of a format string; an unknown one is the
// character after the backslash.
var hexdumpEscapes = gnu.Escapes{Letters: "abfnrtv0", DropUnknown: true}

// hexdumpParseFormat parses one -e argument.
func hexdumpParseFormat(s string) (*hexdumpFormat, error) {
	f := &hexdumpFormat{}
	i := 0
	skipSpace := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
			i++
		}
	}
	num := func() (int, bool) {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == j {
			return 0, false
		}
		n, err := strconv.Atoi(s[j:i])
		return min(n, 1<<16), err == nil
	}
	for {
		skipSpace()
		if i >= len(s) {
			return f, nil
		}
		u := hexdumpUnit{iter: 1}
		if n, ok := num(); ok {
			u.iter, u.setRep = max(n, 1), true
			skipSpace()
		}
		if i < len(s) && s[i] == '/' {
			i++
			skipSpace()
			n, ok := num()
			if !ok {
				return nil, fmt.Errorf("bad byte count for conversion character %s", s[i:])
			}
			u.bytes = n
			skipSpace()
		}
		if i >= len(s) || s[i] != '"' {
			return nil, fmt.Errorf("bad format {%s}", s)
		}
		end := strings.IndexByte(s[i+1:], '"')
		if end < 0 {
			return nil, fmt.Errorf("bad format {%s}", s)
		}
		body := s[i+1 : i+1+end]
		i += end + 2
		pieces, err := hexdumpParseBody(body, u.bytes)
		if err != nil {
			return nil, err
		}
		if u.bytes != 0 && hexdumpDataConvs(pieces) > 1 {
			return nil, errors.New("byte count with multiple conversion characters")
		}
		u.pieces = pieces
		f.units = append(f.units, u)
	}
}

// hexdumpDataConvs counts the conversions of pieces that consume data
// (all but text and addresses).
func hexdumpDataConvs(pieces []hexdumpPiece) int {
	n := 0
	for _, p := range pieces {
		if p.conv != 0 && p.conv != 'a' && p.conv != 'A' {
			n++
		}
	}
	return n
}

func hexdumpParseBody(body string, bytes int) ([]hexdumpPiece, error) {
	var out []hexdumpPiece
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			t, _ := hexdumpEscapes.Decode(text.String())
			out = append(out, hexdumpPiece{text: t})
			text.Reset()
		}
	}
	for i := 0; i < len(body); i++ {
		if body[i] != '%' {
			text.WriteByte(body[i])
			continue
		}
		if i+1 < len(body) && body[i+1] == '%' {
			text.WriteByte('%')
			i++
			continue
		}
		j := i + 1
		for j < len(body) && strings.IndexByte("-+ #0", body[j]) >= 0 {
			j++
		}
		for j < len(body) && (body[j] >= '0' && body[j] <= '9') {
			j++
		}
		widthEnd := j
		if j < len(body) && body[j] == '.' {
			j++
			for j < len(body) && body[j] >= '0' && body[j] <= '9' {
				j++
			}
		}
		if j >= len(body) {
			return nil, fmt.Errorf("bad format {%s}", body)
		}
		spec := body[i:j]
		width := body[i+1 : widthEnd]
		flush()
		p := hexdumpPiece{width: width}
		c := body[j]
		switch {
		case c == '_' && j+1 < len(body):
			k := body[j+1]
			switch k {
			case 'a', 'A':
				base := byte('x')
				end := j + 2
				if end < len(body) && strings.IndexByte("dox", body[end]) >= 0 {
					base = body[end]
					end++
				}
				p.conv, p.text = k, spec+string(base)
				j = end - 1
			case 'c', 'p':
				p.conv, p.size = map[byte]byte{'c': 'C', 'p': 'p'}[k], 1
				p.text = spec
				j++
			case 'u':
				if bytes > 1 {
					return nil, fmt.Errorf("bad byte count for conversion character _u")
				}
				p.conv, p.size, p.text = 'U', 1, spec
				j++
			default:
				return nil, fmt.Errorf("bad conversion character %%_%c", k)
			}
		case strings.IndexByte("diouxX", c) >= 0:
			p.conv, p.text, p.size = c, spec+string(c), 4
			if bytes != 0 {
				if bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8 {
					return nil, fmt.Errorf("bad byte count for conversion character %c", c)
				}
				p.size = bytes
			}
		case strings.IndexByte("eEfgG", c) >= 0:
			p.conv, p.text, p.size = c, spec+string(c), 8
			if bytes != 0 {
				if bytes != 4 && bytes != 8 {
					return nil, fmt.Errorf("bad byte count for conversion character %c", c)
				}
				p.size = bytes
			}
		case c == 'c':
			p.conv, p.text, p.size = 'c', spec+"c", 1
			if bytes > 1 {
				return nil, fmt.Errorf("bad byte count for conversion character %c", c)
			}
		default:
			return nil, fmt.Errorf("bad conversion character %%%s", body[i:j+1])
		}
		out = append(out, p)
		i = j
	}
	flush()
	return out, nil
}

// print prints one block of data (the last may be shorter than the block
// size bs) with format f; blockAddr is the address of data[0].
func (f *hexdumpFormat) print(w *bufio.Writer, data []byte, blockAddr int64, bs int) {
	pos := 0
	for _, u := range f.units {
		if u.endOnly() {
			continue
		}
		for it := 0; it < u.iter; it++ {
			lastIter := it == u.iter-1 && u.iter > 1
			for pi, p := range u.pieces {
				if p.conv == 0 {
					t := p.text
					// The last iteration of a repeated unit drops the
					// final character of its final text if it is white.
					if lastIter && pi == len(u.pieces)-1 && t != "" && strings.IndexByte(" \t\n\v\f\r", t[len(t)-1]) >= 0 {
						t = t[:len(t)-1]
					}
					w.WriteString(t)
					continue
				}
				switch p.conv {
				case 'a':
					if len(data) < bs && pos >= len(data) {
						// Past the end of the input: blanks.
						hexdumpBlank(w, p)
						continue
					}
					fmt.Fprintf(w, strings.Replace(p.text, "_a", "", 1), blockAddr+int64(pos))
					continue
				case 'A':
					continue
				}
				if pos < len(data) && pos+p.size > len(data) {
					// A short last unit is zero-filled.
					b := make([]byte, p.size)
					copy(b, data[pos:])
					pos += p.size
					hexdumpConvert(w, p, b)
					continue
				}
				if pos+p.size > len(data) {
					hexdumpBlank(w, p)
					pos += p.size
					continue
				}
				b := data[pos : pos+p.size]
				pos += p.size
				hexdumpConvert(w, p, b)
			}
		}
	}
}

// hexdumpBlank prints the blanks of p once the data has run out: as
// wide as the field.
func hexdumpBlank(w *bufio.Writer, p hexdumpPiece) {
	n, _ := strconv.Atoi(strings.TrimLeft(p.width, "-+ #0"))
	w.WriteString(strings.Repeat(" ", n))
}

// hexdumpNames are the names %_u prints for the control characters.
var hexdumpNames = [0x20]string{"nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel",
	"bs", "ht", "lf", "vt", "ff", "cr", "so", "si", "dle", "dc1", "dc2", "dc3",
	"dc4", "nak", "syn", "etb", "can", "em", "sub", "esc", "fs", "gs", "rs", "us"}

func hexdumpConvert(w *bufio.Writer, p hexdumpPiece, b []byte) {
	var u uint64
	switch len(b) {
	case 1:
		u = uint64(b[0])
	case 2:
		u = uint64(binary.LittleEndian.Uint16(b))
	case 4:
		u = uint64(binary.LittleEndian.Uint32(b))
	case 8:
		u = binary.LittleEndian.Uint64(b)
	}
	switch p.conv {
	case 'd', 'i':
		var v int64
		switch len(b) {
		case 1:
			v = int64(int8(u))
		case 2:
			v = int64(int16(u))
		case 4:
			v = int64(int32(u))
		default:
			v = int64(u)
		}
		fmt.Fprintf(w, p.text[:len(p.text)-1]+"d", v)
	case 'u':
		fmt.Fprintf(w, p.text[:len(p.text)-1]+"d", u)
	case 'o', 'x', 'X':
		fmt.Fprintf(w, p.text, u)
	case 'c':
		fmt.Fprintf(w, p.text[:len(p.text)-1]+"s", string(b[:1]))
	case 'e', 'E', 'f', 'g', 'G':
		var v float64
		if len(b) == 4 {
			v = float64(math.Float32frombits(uint32(u)))
		} else {
			v = math.Float64frombits(u)
		}
		fmt.Fprintf(w, p.text, v)
	case 'U':
		// util-linux's %_u: control characters by their lower-case
		// names, bytes above 0x7f in hex.
		switch c := b[0]; {
		case c < 0x20:
			fmt.Fprintf(w, p.text+"s", hexdumpNames[c])
		case c == 0x7f:
			fmt.Fprintf(w, p.text+"s", "del")
		case c > 0x7f:
			fmt.Fprintf(w, p.text+"x", c)
		default:
			fmt.Fprintf(w, p.text+"s", string(rune(c)))
		}
	case 'p':
		c := b[0]
		if c < 0x20 || c >= 0x7f {
			c = '.'
		}
		fmt.Fprintf(w, p.text+"s", string([]byte{c}))
	case 'C':
		var s string
		switch c := b[0]; {
		case c >= 0x20 && c < 0x7f:
			s = string(rune(c))
		case c == 0:
			s = `\0`
		case c == '\a':
			s = `\a`
		case c == '\b':
			s = `\b`
		case c == '\f':
			s = `\f`
		case c == '\n':
			s = `\n`
		case c == '\r':
			s = `\r`
		case c == '\t':
			s = `\t`
		case c == '\v':
			s = `\v`
		default:
			s = fmt.Sprintf("%03o", c)
		}
		fmt.Fprintf(w, p.text+"s", s)
	}
}

// endOnly reports whether u holds a %_A conversion: such a unit prints
// only once, after all input.
func (u hexdumpUnit) endOnly() bool {
	for _, p := range u.pieces {
		if p.conv == 'A' {
			return true
		}
	}
	return false
}

// printEnd prints the %_A units once all input has been read.
func (f *hexdumpFormat) printEnd(w *bufio.Writer, end int64) {
	for _, u := range f.units {
		if !u.endOnly() {
			continue
		}
		for _, p := range u.pieces {
			switch p.conv {
			case 0:
				w.WriteString(p.text)
			case 'A':
				fmt.Fprintf(w, strings.Replace(p.text, "_A", "", 1), end)
			}
		}
	}
}
