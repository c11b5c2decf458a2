// llmsh: jq builds no string longer than MaxString bytes (see LLMSH.md).

package gojq

import (
	"io"
	"strconv"
	"strings"
)

// MaxString is the most bytes of one string that `+`, `*`, `add`, `join`,
// `tojson`, `tostring` and the @formats build: llmsh's bound on one shell
// value (256 MiB). Doubling a string (`. + .` in a reduce) reached one
// allocation of gigabytes, which no heap guard can interrupt (Go's `fatal
// error: out of memory`).
var MaxString = 256 << 20

// stringTooLongError is the error of a string that would pass MaxString.
type stringTooLongError struct{}

func (*stringTooLongError) Error() string {
	return "string too long (more than " + strconv.Itoa(MaxString) + " bytes)"
}

// arrayTooLong reports whether an array of n elements would hold more
// than MaxString: each element is 16 bytes of interface, so `+` and
// add, which make an array of two at once, make none longer than
// MaxString/16 elements. Doubling an array (`. + .` in a reduce) made
// each step one allocation twice the last, faster than the memory
// guard's tick: under --max-memory 64M, 480 MB of RSS before it fired
// (session 33, red team).
func arrayTooLong(n int) bool { return n > MaxString/16 }

// arrayTooLongError is the error of an array that arrayTooLong refuses.
type arrayTooLongError struct{}

func (*arrayTooLongError) Error() string {
	return "array too long (more than " + strconv.Itoa(MaxString/16) + " elements)"
}

// jsonMarshalMax is jsonMarshal, or false when the text would pass
// MaxString (it stops writing there).
func jsonMarshalMax(v any) (string, bool) {
	var sb strings.Builder
	if !encodeMax(&sb, v) {
		return "", false
	}
	return sb.String(), true
}

// encodeMax writes v's JSON text to b, or returns false once it would
// pass MaxString.
func encodeMax[B writerLen](b B, v any) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, full := r.(maxWriterFull); !full {
				panic(r)
			}
			ok = false
		}
	}()
	(&encoder{w: maxWriter[B]{b}}).encode(v)
	return true
}

type writerLen interface {
	io.Writer
	io.ByteWriter
	io.StringWriter
	Len() int
}

// maxWriter writes to b, but panics with maxWriterFull rather than let
// it grow past MaxString; encodeMax recovers it.
type maxWriter[B writerLen] struct{ b B }

type maxWriterFull struct{}

func (w maxWriter[B]) room(n int) {
	if w.b.Len()+n > MaxString {
		panic(maxWriterFull{})
	}
}

func (w maxWriter[B]) Write(p []byte) (int, error) {
	w.room(len(p))
	return w.b.Write(p)
}

func (w maxWriter[B]) WriteByte(c byte) error {
	w.room(1)
	return w.b.WriteByte(c)
}

func (w maxWriter[B]) WriteString(s string) (int, error) {
	w.room(len(s))
	return w.b.WriteString(s)
}
