package vfsproto_test

import (
	"bytes"
	"encoding/base64"
	"math/rand/v2"
	"testing"

	. "github.com/llmsh/llmsh/vfsproto"
)

func TestAppendBase64MatchesStd(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 300 {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		for _, prefix := range [][]byte{nil, []byte(`{"data":"`)} {
			want := base64.StdEncoding.AppendEncode(bytes.Clone(prefix), src)
			if got := AppendBase64(bytes.Clone(prefix), src); !bytes.Equal(got, want) {
				t.Fatalf("len %d: %q, want %q", n, got, want)
			}
		}
	}
	all := make([]byte, 4096*3)
	for i := range all {
		all[i] = byte(i) ^ byte(i>>8) ^ byte(i>>4)
	}
	if got, want := AppendBase64(nil, all), base64.StdEncoding.AppendEncode(nil, all); !bytes.Equal(got, want) {
		t.Fatal("large input differs")
	}
}

func FuzzAppendBase64(f *testing.F) {
	f.Add([]byte("hello, world"))
	f.Add([]byte{0xff, 0xfe, 0, 1, 2, 3, 4, 5, 6})
	f.Fuzz(func(t *testing.T, src []byte) {
		if got, want := AppendBase64(nil, src), base64.StdEncoding.AppendEncode(nil, src); !bytes.Equal(got, want) {
			t.Fatalf("%q, want %q", got, want)
		}
	})
}

func BenchmarkBase64(b *testing.B) {
	src := bytes.Repeat([]byte("0123456789abcdef"), 256)
	dst := make([]byte, 0, 8192)
	b.SetBytes(int64(len(src)))
	b.Run("std", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			dst = base64.StdEncoding.AppendEncode(dst[:0], src)
		}
	})
	b.Run("vfsd", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			dst = AppendBase64(dst[:0], src)
		}
	})
}
