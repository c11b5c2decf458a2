package xz_test

import (
	"bytes"
	"encoding/binary"
	"io"
	"testing"

	"github.com/llmsh/llmsh/third_party/xz"
)

// TestCRC64 checks the lazily made CRC-64 table (LLMSH.md) against the
// check value of CRC-64/XZ, the check the writer puts after a block of
// 123456789, and an xz stream with a CRC-64 check through the writer and
// the reader (which checks it).
func TestCRC64(t *testing.T) {
	var buf bytes.Buffer
	w, err := xz.WriterConfig{CheckSum: xz.CRC64}.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("123456789")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	// The stream ends with the block's check, the index and the footer,
	// whose backward size is the index's (in 4-byte units, less one).
	s := buf.Bytes()
	index := (int(binary.LittleEndian.Uint32(s[len(s)-8:])) + 1) * 4
	check := s[len(s)-12-index-8 : len(s)-12-index]
	if got, want := binary.LittleEndian.Uint64(check), uint64(0x995dc9bbdf1939fa); got != want {
		t.Errorf("CRC-64 of 123456789 = %#x, want %#x", got, want)
	}
	buf.Reset()
	w, err = xz.WriterConfig{CheckSum: xz.CRC64}.NewWriter(&buf)
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
	r, err := xz.NewReader(bytes.NewReader(stream))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read back %d bytes, %v; want %d bytes", len(got), err, len(data))
	}
}
