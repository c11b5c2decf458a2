package vfsd

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/llmsh/llmsh/vfsproto"
)

// benchClient is a lean pipelined client, so that the benchmarks measure
// the server: hand-built request frames, responses only scanned.
type benchClient struct {
	*client
	bw *bufio.Writer
	br *bufio.Reader
	id int
}

func newBenchClient(b *testing.B, cfg Config) *benchClient {
	c := connect(b, newServer(b, cfg))
	return &benchClient{client: c, bw: bufio.NewWriterSize(c.w, 64<<10), br: bufio.NewReaderSize(c.r, 64<<10)}
}

func (c *benchClient) sendRaw(op string, params string) {
	c.id++
	p := `{"id":"` + strconv.Itoa(c.id) + `","op":"` + op + `","params":` + params + `}`
	frame, _ := vfsproto.AppendFrame(nil, []byte(p))
	c.bw.Write(frame)
}

// recvRaw returns the payload of the next response.
func (c *benchClient) recvRaw(b *testing.B, buf []byte) []byte {
	p, err := vfsproto.ReadFrame(c.br, buf)
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// runPipelined keeps window requests in flight for n requests; next builds
// request i, seen inspects each response and returns the data bytes moved.
func (c *benchClient) runPipelined(b *testing.B, n, window int, next func(i int), seen func(resp []byte) int) int64 {
	var moved int64
	buf := make([]byte, 0, 16<<10)
	sent, got := 0, 0
	for got < n {
		for sent < n && sent-got < window {
			next(sent)
			sent++
		}
		c.bw.Flush()
		moved += int64(seen(c.recvRaw(b, buf)))
		got++
	}
	return moved
}

func benchRead(b *testing.B, window int) {
	dir := b.TempDir()
	const size = 8 << 20
	writeFile(b, filepath.Join(dir, "big"), string(bytes.Repeat([]byte("0123456789abcdef"), size/16)))
	c := newBenchClient(b, Config{Inputs: []string{dir}, Dir: dir})
	h := c.open("big", "r")
	readReq := `{"h":` + strconv.FormatInt(h, 10) + `,"max":4096}`
	seekReq := `{"h":` + strconv.FormatInt(h, 10) + `,"offset":0,"whence":"SEEK_SET"}`
	rewind := false
	b.ResetTimer()
	start := time.Now()
	moved := c.runPipelined(b, b.N, window, func(int) {
		if rewind {
			c.sendRaw("seek", seekReq)
			rewind = false
			return
		}
		c.sendRaw("read", readReq)
	}, func(resp []byte) int {
		i := bytes.Index(resp, []byte(`"data":"`))
		if i < 0 {
			return 0
		}
		j := bytes.IndexByte(resp[i+8:], '"')
		n := base64.StdEncoding.DecodedLen(j)
		if j > 0 && resp[i+8+j-1] == '=' {
			n -= bytes.Count(resp[i+8+j-2:i+8+j], []byte("="))
		}
		if bytes.HasSuffix(resp, []byte(`"eof":true}}`)) {
			rewind = true
		}
		return n
	})
	b.StopTimer()
	b.ReportMetric(float64(moved)/1e6/time.Since(start).Seconds(), "MB/s")
}

// BenchmarkRead measures 4 KiB reads, one request at a time.
func BenchmarkRead(b *testing.B) { benchRead(b, 1) }

// BenchmarkReadPipelined measures 4 KiB reads with 16 requests in flight.
func BenchmarkReadPipelined(b *testing.B) { benchRead(b, 16) }

func benchWrite(b *testing.B, window int) {
	dir := b.TempDir()
	c := newBenchClient(b, Config{Outputs: []string{dir}, Dir: dir})
	h := c.open("out", "w")
	req := `{"h":` + strconv.FormatInt(h, 10) + `,"data":"` + base64.StdEncoding.EncodeToString(bytes.Repeat([]byte("x"), 4096)) + `"}`
	b.ResetTimer()
	start := time.Now()
	moved := c.runPipelined(b, b.N, window, func(int) { c.sendRaw("write", req) }, func(resp []byte) int {
		if bytes.Contains(resp, []byte(`"written":4096`)) {
			return 4096
		}
		b.Fatalf("write failed: %s", resp)
		return 0
	})
	b.StopTimer()
	b.ReportMetric(float64(moved)/1e6/time.Since(start).Seconds(), "MB/s")
	os.Remove(filepath.Join(dir, "out"))
}

// BenchmarkWrite measures 4 KiB writes, one request at a time.
func BenchmarkWrite(b *testing.B) { benchWrite(b, 1) }

// BenchmarkWritePipelined measures 4 KiB writes with 16 requests in flight.
func BenchmarkWritePipelined(b *testing.B) { benchWrite(b, 16) }
