package vfsclient_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/llmsh/llmsh/vfsclient"
	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// TestCopyFrom: CopyFrom has vfsd copy a file's bytes from where its
// reader is to where the writer is, after the writer's earlier writes;
// the reader reads on after them; 0 at the end. It refuses (ErrNoCopy,
// nothing copied) an append, a virtual file, a source that has read
// ahead and a client without hello's copy; a copy past the write budget
// is the writer's write failure (EFBIG), as a Write's.
func TestCopyFrom(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
	os.Mkdir(in, 0o755)
	os.Mkdir(out, 0o755)
	data := strings.Repeat("abcdefghij", 30000) // 300,000 bytes
	if err := os.WriteFile(filepath.Join(in, "big"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := vfsd.Config{Inputs: []string{in}, Outputs: []string{out}, Dir: dir}
	for _, shm := range []bool{false, true} {
		var c *vfsclient.Client
		if shm {
			c, _ = vfstest.SessionShm(t, cfg, 4)
		} else {
			c = vfstest.Session(t, cfg)
		}
		src, err := c.Open(filepath.Join(in, "big"))
		if err != nil {
			t.Fatal(err)
		}
		dst, err := c.OpenFile(filepath.Join(out, "copy"), os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
		if err != nil {
			t.Fatal(err)
		}
		head := make([]byte, 7)
		if _, err := io.ReadFull(src, head); err != nil {
			t.Fatal(err)
		}
		dst.Write([]byte("<" + string(head) + ">"))
		// The reader has read ahead of its 7 bytes: no copy from it.
		if n, err := dst.CopyFrom(src, 100); n != 0 || !errors.Is(err, vfsclient.ErrNoCopy) {
			t.Fatalf("copy from a file read ahead = %d, %v", n, err)
		}
		src.Seek(7, io.SeekStart) // forgets what it read ahead
		if n, err := dst.CopyFrom(src, 100000); n != 100000 || err != nil {
			t.Fatalf("copy = %d, %v", n, err)
		}
		rest := make([]byte, 3)
		if _, err := io.ReadFull(src, rest); err != nil || string(rest) != data[100007:100010] {
			t.Fatalf("read after the copy = %q, %v", rest, err)
		}
		src.Seek(100010, io.SeekStart)
		var total int64
		for {
			n, err := dst.CopyFrom(src, 64<<10)
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				break
			}
			total += n
		}
		if total != 300000-100010 {
			t.Fatalf("copied %d of the rest", total)
		}
		dst.Write([]byte("."))
		if err := dst.Close(); err != nil {
			t.Fatal(err)
		}
		src.Close()
		want := "<" + data[:7] + ">" + data[7:100007] + data[100010:] + "."
		if got, _ := os.ReadFile(filepath.Join(out, "copy")); string(got) != want {
			t.Fatalf("shm %v: the copy has %d bytes, want %d", shm, len(got), len(want))
		}
	}

	c := vfstest.Session(t, cfg)
	src, _ := c.Open(filepath.Join(in, "big"))
	app, _ := c.OpenFile(filepath.Join(out, "copy"), os.O_WRONLY|os.O_APPEND)
	virt, _ := c.OpenFile("/tmp/v", os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
	for name, f := range map[string]*vfsclient.File{"an append": app, "a virtual file": virt} {
		if n, err := f.CopyFrom(src, 10); n != 0 || !errors.Is(err, vfsclient.ErrNoCopy) {
			t.Errorf("copy to %s = %d, %v; want ErrNoCopy", name, n, err)
		}
	}
	if n, ok, err := app.CopyFileFrom(strings.NewReader("x"), 10); n != 0 || ok || err != nil {
		t.Errorf("CopyFileFrom of a reader that is no File = %d, %v, %v; want not ok", n, ok, err)
	}
	old := vfstest.SessionNoHello(t, cfg)
	osrc, _ := old.Open(filepath.Join(in, "big"))
	odst, _ := old.OpenFile(filepath.Join(out, "o"), os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
	if n, err := odst.CopyFrom(osrc, 10); n != 0 || !errors.Is(err, vfsclient.ErrNoCopy) {
		t.Errorf("copy without hello's copy = %d, %v; want ErrNoCopy", n, err)
	}

	cfg.MaxWriteBytes = 1000
	c = vfstest.Session(t, cfg)
	src, _ = c.Open(filepath.Join(in, "big"))
	dst, _ := c.OpenFile(filepath.Join(out, "small"), os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
	if _, err := dst.CopyFrom(src, 5000); !errors.Is(err, syscall.EFBIG) {
		t.Fatalf("copy past the budget: %v, want EFBIG", err)
	}
	if _, err := dst.Write([]byte("x")); !errors.Is(err, syscall.EFBIG) {
		t.Fatalf("a write after the failed copy: %v, want its failure", err)
	}
	dst.Rearm()
	if n, err := dst.CopyFrom(src, 10); n != 0 || !errors.Is(err, syscall.EFBIG) {
		t.Fatalf("a copy once the budget is spent = %d, %v", n, err)
	}
}
