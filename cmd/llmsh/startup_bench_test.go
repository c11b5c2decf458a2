package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkStartup runs the real binary on an empty script: what one
// agent call costs before its first command (llmsh's and vfsd's start-up,
// the read_shm region, Landlock on both sides, hello, exit). "static" is
// the build the README recommends (CGO_ENABLED=0), "cgo" a default build
// on a machine with a C compiler (a dynamic binary; Landlock on every
// thread through libpsx's C signal walk).
func BenchmarkStartup(b *testing.B) {
	dir := b.TempDir()
	for _, build := range []string{"static", "cgo"} {
		b.Run(build, func(b *testing.B) {
			bin := realLlmsh(b)
			if build == "cgo" {
				bin = filepath.Join(b.TempDir(), "llmsh-cgo")
				cmd := exec.Command("go", "build", "-o", bin, ".")
				cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Skipf("no cgo build here: %v\n%s", err, out)
				}
			}
			for b.Loop() {
				cmd := exec.Command(bin, "-i", dir, "-c", "true")
				cmd.Dir = dir
				if out, err := cmd.CombinedOutput(); err != nil || len(out) != 0 {
					b.Fatalf("llmsh -c true: %v %q", err, out)
				}
			}
		})
	}
}

// BenchmarkWcLines100MB runs the real binary's wc -l on a 100 MB file of
// 1,000,000 lines, the shape of bench/text.sh's wc row (there side by side
// with GNU wc).
func BenchmarkWcLines100MB(b *testing.B) {
	bin := realLlmsh(b)
	dir := b.TempDir()
	line := append(bytes.Repeat([]byte("abcdefghij,"), 9), "0123456789\n"...) // 110 bytes
	data := bytes.Repeat(line, 1_000_000)
	if err := os.WriteFile(filepath.Join(dir, "text.csv"), data, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		cmd := exec.Command(bin, "-i", ".", "-c", "wc -l text.csv")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil || string(out) != "1000000 text.csv\n" {
			b.Fatalf("llmsh wc -l: %v %q", err, out)
		}
	}
}
