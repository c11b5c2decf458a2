package vfsclient_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/llmsh/llmsh/vfsclient"
	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// TestSetStop: once its stop context is done, a file's Read, WriteTo
// and ReadAt fail with the stop's error, by every read path (read_bulk,
// the shared region, base64), and read as before while it is not.
func TestSetStop(t *testing.T) {
	dir := t.TempDir()
	want := bytes.Repeat([]byte("0123456789abcdef"), 64<<10) // 1 MiB
	if err := os.WriteFile(filepath.Join(dir, "f"), want, 0o644); err != nil {
		t.Fatal(err)
	}
	shm, _ := vfstest.SessionShm(t, vfsd.Config{Inputs: []string{dir}}, 4)
	clients := map[string]*vfsclient.Client{
		"bulk":  vfstest.Session(t, vfsd.Config{Inputs: []string{dir}}),
		"shm":   shm,
		"plain": vfstest.SessionNoHello(t, vfsd.Config{Inputs: []string{dir}}),
	}
	errStop := errors.New("stopped")
	for name, c := range clients {
		open := func(ctx context.Context) *vfsclient.File {
			f, err := c.Open(filepath.Join(dir, "f"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
			f.SetStop(ctx, errStop)
			return f
		}
		if got, err := io.ReadAll(open(context.Background())); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: a read with its context live: %d bytes, %v", name, len(got), err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		f := open(ctx)
		p := make([]byte, 100)
		if n, err := f.Read(p); n != 100 || err != nil {
			t.Errorf("%s: Read before the stop: %d %v", name, n, err)
		}
		cancel()
		if _, err := f.Read(p); err != errStop {
			t.Errorf("%s: Read after the stop: %v", name, err)
		}
		if _, err := f.ReadAt(p, 0); err != errStop {
			t.Errorf("%s: ReadAt after the stop: %v", name, err)
		}
		var out bytes.Buffer
		if n, err := f.WriteTo(&out); err != errStop || n != 0 {
			t.Errorf("%s: WriteTo after the stop: %d %v", name, n, err)
		}
	}
}
