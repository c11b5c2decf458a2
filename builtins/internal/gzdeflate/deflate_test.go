package gzdeflate_test

import (
	"bytes"
	"compress/gzip"
	"crypto/md5"
	"encoding/hex"
	"io"
	"strconv"
	"testing"

	. "github.com/llmsh/llmsh/builtins/internal/gzdeflate"
)

// TestCompressGNU: bytes GNU gzip 1.12 wrote for the same input.
func TestCompressGNU(t *testing.T) {
	var nums bytes.Buffer
	for i := 1; i <= 20000; i++ {
		nums.WriteString(strconv.Itoa(i) + "\n")
	}
	tests := []struct {
		in    []byte
		level int
		name  string
		want  string // md5 of the output
	}{
		{[]byte("hello\n"), 6, "", "d59d1a1d43816bdfdadf203a7a8bb818"},
		{nil, 6, "", "7029066c27ac6f5ef18d660d5741979a"},
		{nums.Bytes(), 1, "", "bb9827c957a1a4790ace87f7cb204556"},
		{nums.Bytes(), 2, "", "7455d25e9fe52a02ce46e8be10de044a"},
		{nums.Bytes(), 5, "", "90f823bd25e896d9ddcb53b2be7fbaac"},
		{nums.Bytes(), 6, "", "d7f458b16ad330fe5d03637c1f694f16"},
		{nums.Bytes(), 9, "", "8bdc9ed61b801f3816327043a235e77f"},
		{make([]byte, 100000), 6, "", "781d85846e95592e564bead19c048178"},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		n, err := Compress(&out, bytes.NewReader(tt.in), tt.level, tt.name, 0)
		if err != nil || n != int64(len(tt.in)) {
			t.Fatalf("Compress: %d, %v", n, err)
		}
		sum := md5.Sum(out.Bytes())
		if got := hex.EncodeToString(sum[:]); got != tt.want {
			t.Errorf("level %d, %d bytes: md5 %s, want %s", tt.level, len(tt.in), got, tt.want)
		}
	}
}

// TestRoundTrip: what Compress writes, any gzip reads back, with the
// header it was given, for inputs that slide the window and end blocks.
func TestRoundTrip(t *testing.T) {
	x := uint32(1)
	data := make([]byte, 300000)
	for i := range data {
		x = x*1103515245 + 12345
		data[i] = byte(x >> 24 % 8) // few symbols: long chains
		if i > 200000 {
			data[i] = byte(x >> 16) // incompressible: stored blocks
		}
	}
	var z Compressor
	for level := 1; level <= 9; level++ {
		var out bytes.Buffer
		if _, err := z.Compress(&out, bytes.NewReader(data), level, "f.txt", 1700000000); err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(&out)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("level %d: round trip differs (%v)", level, err)
		}
		if zr.Name != "f.txt" || zr.ModTime.Unix() != 1700000000 {
			t.Errorf("level %d: header %q %v", level, zr.Name, zr.ModTime)
		}
	}
}
