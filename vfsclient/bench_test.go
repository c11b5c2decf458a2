package vfsclient_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/llmsh/llmsh/vfsclient"
	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

const benchSize = 100 << 20

// BenchmarkStreamRead streams 100 MB from a real file through vfsd and the
// client to io.Discard.
func BenchmarkStreamRead(b *testing.B) {
	dir := b.TempDir()
	name := filepath.Join(dir, "data")
	f, _ := os.Create(name)
	f.Truncate(benchSize)
	f.Close()
	c := vfstest.Session(b, vfsd.Config{Inputs: []string{dir}})
	b.SetBytes(benchSize)
	b.ReportAllocs()
	buf := make([]byte, 64<<10)
	for i := 0; i < b.N; i++ {
		r, err := c.Open(name)
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.CopyBuffer(io.Discard, r, buf)
		if err != nil || n != benchSize {
			b.Fatal(n, err)
		}
		r.Close()
	}
}

// BenchmarkStreamWrite writes 100 MB to a real file through the client and vfsd.
func BenchmarkStreamWrite(b *testing.B) {
	dir := b.TempDir()
	c := vfstest.Session(b, vfsd.Config{Outputs: []string{dir}})
	chunk := make([]byte, 64<<10)
	b.SetBytes(benchSize)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		w, err := c.Create(filepath.Join(dir, "out"))
		if err != nil {
			b.Fatal(err)
		}
		for n := 0; n < benchSize; n += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStreamWriteTo has a 100 MB file written to io.Discard by
// File.WriteTo (the path of wc -l), through a read_shm region (read_shm_at,
// and read_shm in order) and over read_bulk.
func BenchmarkStreamWriteTo(b *testing.B) {
	dir := b.TempDir()
	name := filepath.Join(dir, "data")
	f, _ := os.Create(name)
	f.Write(bytes.Repeat([]byte("0123456789abcdef\n"), benchSize/17+1)[:benchSize])
	f.Close()
	for _, way := range []string{"shm_at", "shm", "bulk"} {
		b.Run(way, func(b *testing.B) {
			c := vfstest.Session(b, vfsd.Config{Inputs: []string{dir}})
			if way != "bulk" {
				c, _ = vfstest.SessionShm(b, vfsd.Config{Inputs: []string{dir}}, 8)
			}
			if way == "shm" {
				vfsclient.ForTests.StopShmAt(c)
			}
			b.SetBytes(benchSize)
			for b.Loop() {
				r, err := c.Open(name)
				if err != nil {
					b.Fatal(err)
				}
				if n, err := r.WriteTo(io.Discard); err != nil || n != benchSize {
					b.Fatal(n, err)
				}
				r.Close()
			}
		})
	}
}
