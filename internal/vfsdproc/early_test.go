package vfsdproc

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/llmsh/llmsh/internal/earlyvfsd"
)

// A vfsd that llmsh's main started early with the same command line is
// the one Start returns (no second process), and it serves and exits as
// one that Start made.
func TestStartTakesEarlyVfsd(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f"), []byte("data\n"), 0o644)
	earlyvfsd.StartFromArgs([]string{"-i", dir, "--strict", "-c", "cat f"})
	p, err := Start(Config{Inputs: []string{dir}, Strict: true, MaxWriteBytes: DefaultMaxWrite, Stderr: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	if p.pid == 0 || p.cmd != nil {
		t.Fatalf("Start did not take the early vfsd (pid %d, cmd %v)", p.pid, p.cmd)
	}
	if _, err := p.Client.Hello(); err != nil {
		t.Fatal(err)
	}
	f, err := p.Client.Open(filepath.Join(dir, "f"))
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 16)
	if n, _ := f.Read(b); string(b[:n]) != "data\n" {
		t.Fatalf("read %q", b[:n])
	}
	f.Close()
	if err := p.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// An early vfsd with other grants is not used: Start ends it and starts
// its own, which serves the grants it was asked for.
func TestStartEndsOtherEarlyVfsd(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	earlyvfsd.StartFromArgs([]string{"-i", other, "-c", "true"})
	p, err := Start(Config{Inputs: []string{dir}, Stderr: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.pid != 0 || p.cmd == nil {
		t.Fatal("Start took an early vfsd with other grants")
	}
	if earlyvfsd.Take(Config{Inputs: []string{other}}.Args(), "") != nil {
		t.Fatal("the early vfsd is still there to take")
	}
	if _, err := p.Client.Hello(); err != nil {
		t.Fatal(err)
	}
}

// A grant that vfsd refuses ends an early vfsd with status 2, which
// Refused recognises as it does for a vfsd that Start made.
func TestEarlyVfsdRefusal(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing", "f") // its directory is missing too
	earlyvfsd.StartFromArgs([]string{"-i", missing, "-c", "true"})
	p, err := Start(Config{Inputs: []string{missing}, MaxWriteBytes: DefaultMaxWrite, Stderr: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	if p.pid == 0 {
		t.Fatal("Start did not take the early vfsd")
	}
	if _, err := p.Client.Hello(); err == nil {
		t.Fatal("hello answered with a missing grant")
	}
	if err := p.Close(); !Refused(err) {
		t.Fatalf("Close = %v, want a refusal (status 2)", err)
	}
}
