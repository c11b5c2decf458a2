package shell_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	. "github.com/llmsh/llmsh/shell"
	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// sortedBytes is b's bytes in order, to compare what readers took with
// what the file held, whoever took it.
func sortedBytes(b []byte) string {
	c := slices.Clone(b)
	slices.Sort(c)
	return string(c)
}

// TestRedirFileConcurrentReaders has goroutines read one redirected file
// at once (run with -race), with small reads, large reads, WriteTo and
// Seek(0, SeekCurrent): every byte goes to exactly one reader.
func TestRedirFileConcurrentReaders(t *testing.T) {
	dir := t.TempDir()
	var want bytes.Buffer
	for i := range 20000 {
		fmt.Fprintf(&want, "line %d\n", i)
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), want.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	c := vfstest.Session(t, vfsd.Config{Outputs: []string{dir}})
	vf, err := c.OpenFile(filepath.Join(dir, "f"), os.O_RDONLY)
	if err != nil {
		t.Fatal(err)
	}
	rf := ForTests.RedirFile(c, vf)
	defer rf.Close()
	got := make([][]byte, 6)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() {
			var b bytes.Buffer
			if i == 5 {
				// one reader waits for the others' end: WriteTo the rest
				rf.WriteTo(&b)
				got[i] = b.Bytes()
				return
			}
			p := make([]byte, []int{1, 7, 4096, 64 << 10, 3}[i])
			for {
				if _, err := rf.Seek(0, io.SeekCurrent); err != nil {
					t.Error(err)
					return
				}
				n, err := rf.Read(p)
				b.Write(p[:n])
				if err != nil {
					break
				}
			}
			got[i] = b.Bytes()
		})
	}
	wg.Wait()
	all := bytes.Join(got, nil)
	if len(all) != want.Len() || sortedBytes(all) != sortedBytes(want.Bytes()) {
		t.Errorf("the readers took %d bytes, not the file's %d once each", len(all), want.Len())
	}
}

// TestSharedStdinConcurrentReaders has background jobs and the shell read
// one redirected stdin at once (run with -race): read -N 1 loops in jobs
// and in the shell; every byte of the file reaches exactly one of them.
func TestSharedStdinConcurrentReaders(t *testing.T) {
	dir := t.TempDir()
	src := `seq 1 600 > nums
{
  for j in 1 2 3; do
    while IFS= read -r -N 1 c; do printf %s "$c"; done > out$j &
  done
  while IFS= read -r -N 1 c; do printf %s "$c"; done > out0
  wait
} < nums
cat out0 out1 out2 out3 | wc -c; wc -c < nums`
	out, errs, st := run(t, dir, src, Limits{})
	if st != 0 || errs != "" {
		t.Fatalf("got out=%q err=%q status=%d", out, errs, st)
	}
	f := strings.Fields(out)
	if len(f) != 2 || f[0] != f[1] {
		t.Fatalf("bytes read / file size: %q", out)
	}
	var all []byte
	for _, n := range []string{"out0", "out1", "out2", "out3"} {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	file, _ := os.ReadFile(filepath.Join(dir, "nums"))
	if sortedBytes(all) != sortedBytes(file) {
		t.Errorf("the readers' bytes are not the file's, each once")
	}
}
