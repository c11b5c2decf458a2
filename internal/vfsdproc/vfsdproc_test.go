package vfsdproc

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/llmsh/llmsh/internal/earlyvfsd"
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
	if shared && hr.ShmSlots != earlyvfsd.ShmSize/vfsproto.ShmSlot {
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

// TestKilledMidWriteLeavesNothing kills a vfsd child (SIGKILL, under its
// Landlock confinement) in the middle of a truncating write of 8 MB: the
// target keeps its old content and nothing else is left in the tree,
// since the temp file had no name yet (O_TMPFILE). A write through a new
// vfsd then works as usual. (A vfsd that named its temp file left it
// behind: issue 18 found a hidden 1.2 GB one.)
func TestKilledMidWriteLeavesNothing(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("O_TMPFILE is Linux's")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "target.txt")
	if err := os.WriteFile(target, []byte("old content\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Start(Config{Outputs: []string{dir}, Stderr: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	f, err := p.Client.Create(target)
	if err != nil {
		t.Fatal(err)
	}
	chunk := bytes.Repeat([]byte("new content\n"), 1<<16)
	for range 10 {
		if _, err := f.Write(chunk); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Flush(); err != nil { // vfsd has every byte
		t.Fatal(err)
	}
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	p.cmd.Wait()
	p.Client.Close()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "target.txt" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("left in the tree: %v", names)
	}
	if b, _ := os.ReadFile(target); string(b) != "old content\n" {
		t.Fatalf("target after the kill: %.40q", b)
	}

	p, err = Start(Config{Outputs: []string{dir}, Stderr: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f, err = p.Client.Create(target)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(chunk); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); !bytes.Equal(b, chunk) {
		t.Fatalf("a write after the kill: %d bytes", len(b))
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("%d entries after a committed write", len(entries))
	}
}
