package vfsproto_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	. "github.com/llmsh/llmsh/vfsproto"
)

// FuzzReadFrame checks ReadFrame on arbitrary streams: it returns a payload
// only when the announced length is within MaxFrame and fully present, the
// payload re-frames to the bytes consumed, and every failure is one of the
// documented errors.
func FuzzReadFrame(f *testing.F) {
	f.Add([]byte{0, 0, 0, 2, '{', '}'})
	f.Add([]byte{0, 0, 0, 0})
	f.Add([]byte{0, 0, 0, 5, 'a'})
	f.Add([]byte{0, 0})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 'x'})
	f.Add([]byte{0, 0x10, 0, 1})
	f.Add([]byte{0, 0x10, 0, 0})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, stream []byte) {
		r := bytes.NewReader(stream)
		payload, err := ReadFrame(r, make([]byte, 0, 16))
		switch {
		case err == nil:
			if len(stream) < 4 {
				t.Fatal("payload from a stream shorter than a header")
			}
			n := binary.BigEndian.Uint32(stream)
			if n > MaxFrame || int(n) != len(payload) {
				t.Fatalf("length %d, payload %d", n, len(payload))
			}
			again, err := AppendFrame(nil, payload)
			if err != nil || !bytes.Equal(again, stream[:4+len(payload)]) {
				t.Fatalf("re-framing differs: %v", err)
			}
		case errors.Is(err, io.EOF):
			if len(stream) != 0 {
				t.Fatalf("EOF on a non-empty stream of %d bytes", len(stream))
			}
		case errors.Is(err, ErrFrameTooLarge):
			if binary.BigEndian.Uint32(stream) <= MaxFrame {
				t.Fatal("ErrFrameTooLarge for an acceptable length")
			}
		case errors.Is(err, ErrShortFrame):
			if len(stream) >= 4 && int(binary.BigEndian.Uint32(stream)) <= len(stream)-4 {
				t.Fatal("ErrShortFrame for a complete frame")
			}
		default:
			t.Fatalf("unexpected error %v", err)
		}
	})
}
