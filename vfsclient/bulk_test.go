package vfsclient_test

import (
	"bytes"
	"errors"
	"io"
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
	data := randomFiles(t, dir, []int{0, 1, 4095, 4096, 64<<10 - 1, 64 << 10, 64<<10 + 1, 320 << 10, 1 << 20, 3<<20 + 7})
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

	w, err := c.Create("/tmp/grow")
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("first "))
	// Writes are pipelined: vfsd may answer a request on another handle
	// before it has applied them. Flush waits for their answers.
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	r, err := c.Open("/tmp/grow")
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
	return readInPiecesWatch(r, piece, func() {})
}

func itoa(n int) string { return strconv.Itoa(n) }

// Writes of every size land the same with write_bulk (after hello) and
// with base64 write requests (no hello), and large ones need fewer
// write_bulk requests.
func TestWriteBulkAndBase64Agree(t *testing.T) {
	dir := t.TempDir()
	bulk := vfstest.Session(t, vfsd.Config{Outputs: []string{dir}})
	plain := vfstest.SessionNoHello(t, vfsd.Config{Outputs: []string{dir}})
	data := randomBytes(3<<20+11, 3)
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

// chunkRecorder is an io.Writer that keeps what it is given and the
// largest single Write.
type chunkRecorder struct {
	bytes.Buffer
	largest int
}

func (c *chunkRecorder) Write(p []byte) (int, error) {
	c.largest = max(c.largest, len(p))
	return c.Buffer.Write(p)
}

// WriteTo hands over the rest of a file (after a partial Read, too) with
// read_bulk and without hello, in chunks of up to 1 MiB with read_bulk,
// and a writer's error stops it and comes back.
func TestWriteToRestOfFile(t *testing.T) {
	dir := t.TempDir()
	want := randomBytes(5<<20+11, 3)
	name := filepath.Join(dir, "f")
	if err := os.WriteFile(name, want, 0o644); err != nil {
		t.Fatal(err)
	}
	bulk := vfstest.Session(t, vfsd.Config{Inputs: []string{dir}})
	plain := vfstest.SessionNoHello(t, vfsd.Config{Inputs: []string{dir}})
	for _, c := range []*vfsclient.Client{bulk, plain} {
		for _, first := range []int{0, 1, 70_000, len(want)} {
			f, err := c.Open(name)
			if err != nil {
				t.Fatal(err)
			}
			head := make([]byte, first)
			if _, err := io.ReadFull(f, head); err != nil {
				t.Fatal(err)
			}
			var rec chunkRecorder
			n, err := f.WriteTo(&rec)
			got := append(head, rec.Bytes()...)
			if err != nil || n != int64(len(want)-first) || !bytes.Equal(got, want) {
				t.Fatalf("bulk %v, after %d: WriteTo = %d, %v; %d bytes, equal %v", c == bulk, first, n, err, len(got), bytes.Equal(got, want))
			}
			if c == bulk && first == 0 && rec.largest != 1<<20 {
				t.Fatalf("largest chunk with read_bulk: %d, want 1 MiB", rec.largest)
			}
			if pos, err := f.Seek(0, io.SeekCurrent); err != nil || pos != int64(len(want)) {
				t.Fatalf("offset after WriteTo: %d, %v", pos, err)
			}
			f.Close()
		}
		f, err := c.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		stop := errors.New("stop")
		n, err := f.WriteTo(failWriter{stop})
		if err != stop || n != 0 {
			t.Fatalf("WriteTo to a failing writer = %d, %v", n, err)
		}
		f.Close()
	}
}

type failWriter struct{ err error }

func (w failWriter) Write(p []byte) (int, error) { return 0, w.err }

// Many files read at once share one budget of reads sent ahead (a sort
// merging its runs held two answers ahead for each), while one file alone
// still reads ahead; every file reads back whole, and the budget is
// all given back once the files are closed.
func TestReadAheadBudget(t *testing.T) {
	dir := t.TempDir()
	var names []string
	var want [][]byte
	for i := range 12 {
		b := bytes.Repeat([]byte{byte('a' + i)}, 1500<<10+i*4099)
		name := filepath.Join(dir, "f"+itoa(i))
		os.WriteFile(name, b, 0o644)
		names, want = append(names, name), append(want, b)
	}
	c := vfstest.Session(t, vfsd.Config{Inputs: []string{dir}})
	// One file alone: reads go ahead of the reader.
	f, err := c.Open(names[0])
	if err != nil {
		t.Fatal(err)
	}
	var most int64
	got, err := readInPiecesWatch(f, 64<<10, func() { most = max(most, vfsclient.ForTests.AheadBytes(c)) })
	if err != nil || !bytes.Equal(got, want[0]) {
		t.Fatalf("%s alone: %d bytes, %v", names[0], len(got), err)
	}
	if most == 0 {
		t.Error("one file alone read nothing ahead")
	}
	if most > int64(vfsclient.ForTests.BulkReadChunk()) {
		t.Errorf("one file alone asked %d bytes ahead, more than one request", most)
	}
	f.Close()
	// All of them, a piece of each in turn.
	var files []*vfsclient.File
	for _, name := range names {
		f, err := c.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	got2 := make([][]byte, len(files))
	buf := make([]byte, 64<<10)
	for done := 0; done < len(files); {
		done = 0
		for i, f := range files {
			n, err := f.Read(buf)
			got2[i] = append(got2[i], buf[:n]...)
			if err == io.EOF {
				done++
			} else if err != nil {
				t.Fatal(err)
			}
			if a := vfsclient.ForTests.AheadBytes(c); a > vfsclient.ForTests.BulkAheadBudget() || a < 0 {
				t.Fatalf("%d bytes asked ahead, budget %d", a, vfsclient.ForTests.BulkAheadBudget())
			}
		}
	}
	for i, f := range files {
		if !bytes.Equal(got2[i], want[i]) {
			t.Errorf("%s: %d bytes, want %d", names[i], len(got2[i]), len(want[i]))
		}
		f.Close()
	}
	// Closed before their end: what they asked ahead is given back.
	for _, name := range names[:4] {
		f, _ := c.Open(name)
		f.Read(buf)
		f.Read(buf)
		f.Close()
	}
	if a := vfsclient.ForTests.AheadBytes(c); a != 0 {
		t.Errorf("%d bytes still counted ahead after every close", a)
	}
}

// readInPiecesWatch is readInPieces calling watch after each Read.
func readInPiecesWatch(r io.Reader, piece int, watch func()) ([]byte, error) {
	var out []byte
	buf := make([]byte, piece)
	for {
		n, err := r.Read(buf)
		watch()
		out = append(out, buf[:n]...)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
}

// TestSetReadSize checks that a file given a read size asks for no more
// than that a request, where another reads in requests of up to 512 KiB;
// that either keeps one request ahead of its reader, and that both read
// the whole file.
func TestSetReadSize(t *testing.T) {
	dir := t.TempDir()
	want := bytes.Repeat([]byte("0123456789abcdef"), 200_000) // 3.2 MB
	name := filepath.Join(dir, "big")
	os.WriteFile(name, want, 0o644)
	c := vfstest.Session(t, vfsd.Config{Inputs: []string{dir}})
	for _, size := range []int{0, 64 << 10, 100 << 10} {
		f, err := c.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		if size > 0 {
			f.SetReadSize(size)
		}
		var chunk int
		var ahead int64
		got, err := readInPiecesWatch(f, 64<<10, func() {
			chunk = max(chunk, vfsclient.ForTests.ReadChunk(f))
			ahead = max(ahead, vfsclient.ForTests.AheadBytes(c))
		})
		f.Close()
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("read size %d: %d bytes, %v", size, len(got), err)
		}
		switch {
		case size == 0 && (chunk <= 64<<10 || ahead > int64(chunk)):
			t.Errorf("no read size: requests of at most %d bytes, %d ahead", chunk, ahead)
		case size > 0 && (chunk > size || ahead > int64(size)):
			t.Errorf("read size %d: requests of %d bytes, %d ahead", size, chunk, ahead)
		}
	}
}
