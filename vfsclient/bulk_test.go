package vfsclient_test

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/llmsh/llmsh/vfsclient"
	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// Files of sizes around the chunk boundaries read the same with read_bulk
// (after hello) and with seed 000's base64 reads (no hello), in whatever
// pieces the caller asks for, and read_bulk needs far fewer requests.
func TestReadBulkAndBase64Agree(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	sizes := []int{0, 1, 4095, 4096, 64<<10 - 1, 64 << 10, 64<<10 + 1, 320 << 10, 1 << 20, 3<<20 + 7}
	data := map[string][]byte{}
	for _, n := range sizes {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.UintN(256))
		}
		name := filepath.Join(dir, "f"+itoa(n))
		if err := os.WriteFile(name, b, 0o644); err != nil {
			t.Fatal(err)
		}
		data[name] = b
	}
	bulk := vfstest.Session(t, vfsd.Config{Inputs: []string{dir}})
	plain := vfstest.SessionNoHello(t, vfsd.Config{Inputs: []string{dir}})
	for _, c := range []*vfsclient.Client{bulk, plain} {
		for name, want := range data {
			for _, piece := range []int{1 << 20, 64 << 10, 4093} {
				f, err := c.Open(name)
				if err != nil {
					t.Fatal(err)
				}
				got, err := readInPieces(f, piece)
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("%s in pieces of %d (bulk %v): %d bytes, %v; want %d bytes", name, piece, c == bulk, len(got), err, len(want))
				}
				f.Close()
			}
		}
	}
	bs, _ := bulk.Stats()
	ps, _ := plain.Stats()
	if bs.BytesOut != ps.BytesOut || bs.BytesOut == 0 {
		t.Fatalf("bytes out: bulk %d, base64 %d", bs.BytesOut, ps.BytesOut)
	}
	// 3 passes over 10 files of 4.4 MiB in all: base64 takes over 3000
	// requests, read_bulk a few per file and pass.
	if bs.Reads > 200 || ps.Reads < 3000 {
		t.Fatalf("read requests: bulk %d, base64 %d", bs.Reads, ps.Reads)
	}
}

// Seeks in the middle of a read_bulk read-ahead, and a file that grows
// while it is read (a virtual file written through another handle).
func TestReadBulkSeekAndGrowth(t *testing.T) {
	dir := t.TempDir()
	big := bytes.Repeat([]byte("0123456789"), 300_000)
	name := filepath.Join(dir, "big")
	os.WriteFile(name, big, 0o644)
	c := vfstest.Session(t, vfsd.Config{Inputs: []string{dir}, MaxVirtualBytes: 1 << 20})
	f, err := c.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 100_000)
	io.ReadFull(f, buf)
	for _, off := range []int64{5, 2_999_990, 1 << 20, 123_457} {
		if _, err := f.Seek(off, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(f)
		if err != nil || !bytes.Equal(got, big[off:]) {
			t.Fatalf("after seek to %d: %d bytes, %v", off, len(got), err)
		}
	}
	f.Close()

	w, err := c.Create("/virtual/grow")
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("first "))
	r, err := c.Open("/virtual/grow")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(r); string(got) != "first " {
		t.Fatalf("first read %q", got)
	}
	w.Write([]byte("second"))
	w.Close()
	if got, _ := io.ReadAll(r); string(got) != "" {
		t.Fatalf("after eof %q", got) // io.ReadAll after EOF: the File stays at EOF
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(r); string(got) != "first second" {
		t.Fatalf("reread %q", got)
	}
	r.Close()
}

func readInPieces(r io.Reader, piece int) ([]byte, error) {
	var out []byte
	buf := make([]byte, piece)
	for {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// Writes of every size land the same with write_bulk (after hello) and
// with base64 write requests (no hello), and large ones need fewer
// write_bulk requests.
func TestWriteBulkAndBase64Agree(t *testing.T) {
	dir := t.TempDir()
	bulk := vfstest.Session(t, vfsd.Config{Outputs: []string{dir}})
	plain := vfstest.SessionNoHello(t, vfsd.Config{Outputs: []string{dir}})
	rng := rand.New(rand.NewPCG(3, 4))
	data := make([]byte, 3<<20+11)
	for i := range data {
		data[i] = byte(rng.UintN(256))
	}
	for k, c := range []*vfsclient.Client{bulk, plain} {
		for _, piece := range []int{1, 4093, 16 << 10, 16<<10 + 1, 1 << 20, 3 << 20} {
			name := filepath.Join(dir, "w"+strconv.Itoa(k)+"-"+strconv.Itoa(piece))
			f, err := c.Create(name)
			if err != nil {
				t.Fatal(err)
			}
			want := data
			if piece == 1 {
				want = data[:5000] // byte by byte: a short file
			}
			for p := want; len(p) > 0; {
				n := min(piece, len(p))
				if m, err := f.Write(p[:n]); err != nil || m != n {
					t.Fatalf("write %d: %d %v", n, m, err)
				}
				p = p[n:]
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(name); !bytes.Equal(got, want) {
				t.Fatalf("%s: %d bytes on disk, want %d", name, len(got), len(want))
			}
		}
	}
	bs, _ := bulk.Stats()
	ps, _ := plain.Stats()
	// Small writes are one request each either way; the 1 and 3 MiB
	// ones take 4 write_bulk requests per file, not 49 of 64 KiB.
	if bs.BytesIn != ps.BytesIn || bs.Writes+80 > ps.Writes {
		t.Fatalf("bytes in: bulk %d, base64 %d; write requests: bulk %d, base64 %d", bs.BytesIn, ps.BytesIn, bs.Writes, ps.Writes)
	}
}
