package xz

import (
	"bytes"
	"encoding/binary"
	"io"
	"testing"
)

// TestCRC64 checks the lazily made CRC-64 table (LLMSH.md) against the
// check value of CRC-64/XZ, and an xz stream with a CRC-64 check through
// the writer and the reader (which checks it).
func TestCRC64(t *testing.T) {
	h := newCRC64()
	h.Write([]byte("123456789"))
	if got, want := binary.LittleEndian.Uint64(h.Sum(nil)), uint64(0x995dc9bbdf1939fa); got != want {
		t.Errorf("CRC-64 of 123456789 = %#x, want %#x", got, want)
	}
	var buf bytes.Buffer
	w, err := WriterConfig{CheckSum: CRC64}.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.Repeat([]byte("llmsh start-up "), 1000)
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	stream := buf.Bytes()
	r, err := NewReader(bytes.NewReader(stream))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read back %d bytes, %v; want %d bytes", len(got), err, len(data))
	}
}
