package bzenc_test

import (
	"bytes"
	"compress/bzip2"
	"crypto/md5"
	"encoding/hex"
	"io"
	"strconv"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins/internal/bzenc"
)

func compress(t *testing.T, in []byte, level int) []byte {
	t.Helper()
	var out bytes.Buffer
	z := NewWriter(&out, level)
	if _, err := z.Write(in); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestRoundTrip: compress/bzip2 reads back what the Writer makes, for
// runs, one symbol, every byte value and several blocks.
func TestRoundTrip(t *testing.T) {
	x := uint32(1)
	rnd := make([]byte, 250000)
	for i := range rnd {
		x = x*1103515245 + 12345
		rnd[i] = byte(x >> 16)
		if i%1000 < 300 {
			rnd[i] = 'a'
		}
	}
	inputs := [][]byte{nil, []byte("a"), []byte("hello\n"), bytes.Repeat([]byte("y\n"), 5000),
		bytes.Repeat([]byte{0}, 1000), []byte(strings.Repeat("abcabcabd", 3000)), rnd}
	for i, in := range inputs {
		for _, level := range []int{1, 9} {
			got, err := io.ReadAll(bzip2.NewReader(bytes.NewReader(compress(t, in, level))))
			if err != nil || !bytes.Equal(got, in) {
				t.Errorf("input %d level %d: round trip differs (%v)", i, level, err)
			}
		}
	}
}

// TestGNU: md5 sums of what bzip2 1.0.8 wrote for the same input.
func TestGNU(t *testing.T) {
	var nums bytes.Buffer
	for i := 1; i <= 20000; i++ {
		nums.WriteString(strconv.Itoa(i) + "\n")
	}
	tests := []struct {
		in    []byte
		level int
		want  string
	}{
		{[]byte("hello\n"), 9, "c3bfcee1b02c38c012368af8a429cb1f"},
		{nil, 9, "4059d198768f9f8dc9372dc1c54bc3c3"},
		{nums.Bytes(), 9, "fe8d7faceb4ec63e76b0a6622aa1b2f6"},
		{nums.Bytes(), 1, "36f51bd64da7a334102817bf87bbf63e"},
	}
	for _, tt := range tests {
		sum := md5.Sum(compress(t, tt.in, tt.level))
		if got := hex.EncodeToString(sum[:]); got != tt.want {
			t.Errorf("%d bytes, level %d: md5 %s, want %s", len(tt.in), tt.level, got, tt.want)
		}
	}
}
