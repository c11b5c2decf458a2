package vfsdproc

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// TestMain lets Start re-execute the test binary as vfsd.
func TestMain(m *testing.M) {
	Serve()
	os.Exit(m.Run())
}

// Start gives vfsd a read_shm region (on Linux) that the client
// negotiates; a whole file then reads through it, and Close unmaps it.
func TestStartSharesRegion(t *testing.T) {
	dir := t.TempDir()
	want := bytes.Repeat([]byte("line of text\n"), 300_000) // 3.9 MB
	if err := os.WriteFile(filepath.Join(dir, "f"), want, 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Start(Config{Inputs: []string{dir}, Stderr: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	hr, err := p.Client.Hello()
	if err != nil {
		t.Fatal(err)
	}
	shared := slices.Contains(hr.Features, vfsproto.FeatureReadShm)
	if shared != (runtime.GOOS == "linux") || shared != (p.shm != nil) {
		t.Fatalf("read_shm negotiated %v on %s (region %d bytes)", shared, runtime.GOOS, len(p.shm))
	}
	if shared && hr.ShmSlots != shmSlots {
		t.Fatalf("hello = %+v", hr)
	}
	f, err := p.Client.Open(filepath.Join(dir, "f"))
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if _, err := f.WriteTo(&got); err != nil || !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("WriteTo: %d bytes, %v", got.Len(), err)
	}
	f.Close()
	if shared {
		st, err := p.Client.Stats()
		if err != nil || st.Reads > 10 {
			t.Fatalf("stats %+v, %v: want a few 1 MiB reads", st, err)
		}
		if !bytes.Contains(p.shm, []byte("line of text\nline of text\n")) {
			t.Fatal("the file did not go through the region")
		}
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if p.shm != nil {
		t.Fatal("region still mapped after Close")
	}
}
