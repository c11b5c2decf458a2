package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// readmeBlock returns the README's first ```sh block that holds marker.
func readmeBlock(t *testing.T, marker string) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(string(b), -1) {
		if strings.Contains(m[1], marker) {
			return m[1]
		}
	}
	t.Fatalf("README.md has no sh block with %q", marker)
	return ""
}

// TestReadmeServeExample runs the README's "Sessions over a socket" block
// as printed (its socket moved into a temp dir), through bash, with the
// release build first on PATH: a user who pastes it gets what the README
// says. Before the README said `-o ./out/`, its `cp … out/` failed (a
// missing ./out was granted as one file), and `session open` could run
// before the server listened.
func TestReadmeServeExample(t *testing.T) {
	t.Parallel()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to run the README's block")
	}
	block := readmeBlock(t, "llmsh serve --socket")
	dir := t.TempDir()
	sock := filepath.Join(dir, "s.sock")
	block = strings.ReplaceAll(block, "/tmp/llmsh-$USER.sock", sock)
	work := filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	script := "set -e\ntrap 'kill $(jobs -p) 2>/dev/null' EXIT\n" + block
	cmd := exec.CommandContext(ctx, bash, "-c", script)
	cmd.Dir = work
	cmd.Env = []string{"PATH=" + filepath.Dir(realLlmsh(t)) + ":/usr/bin:/bin", "HOME=" + dir}
	cmd.WaitDelay = 10 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("the README's block failed: %v\nstdout:\n%s\nstderr:\n%s", err, out.String(), errb.String())
	}
	want := regexp.MustCompile(`^2 files\ndraft\n\{"stdout":"","stderr":"","exit_code":0,[^\n]*"virtual_files":\["/tmp/notes.txt"\]\}\n2 files\ndraft\n$`)
	if !want.MatchString(out.String()) {
		t.Errorf("stdout:\n%s\nstderr:\n%s", out.String(), errb.String())
	}
	if b, err := os.ReadFile(filepath.Join(work, "out", "notes.txt")); err != nil || string(b) != "draft\n" {
		t.Errorf("out/notes.txt: %q %v", b, err)
	}
}

// TestReadmeMCPConfig runs `llmsh mcp` with the arguments of the README's
// client configuration, in a directory where ./out does not exist yet, as
// a client started there would: a write under out/ must land on disk.
// With "-o ./out" (the README before) it was refused: a missing grant is
// one file, and out/x lay inside -i . only.
func TestReadmeMCPConfig(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```json\n(\\{\n  \"mcpServers\".*?)```").FindSubmatch(b)
	if m == nil {
		t.Fatal("README.md has no mcpServers block")
	}
	var cfg struct {
		MCPServers map[string]struct {
			Command string
			Args    []string
		}
	}
	if err := json.Unmarshal(m[1], &cfg); err != nil {
		t.Fatal(err)
	}
	srv := cfg.MCPServers["llmsh"]
	if srv.Command != "llmsh" || len(srv.Args) == 0 || srv.Args[0] != "mcp" {
		t.Fatalf("README's configuration: %+v", cfg)
	}
	dir := t.TempDir()
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"bash","arguments":{"command":"echo hi > out/x && cat out/x"}}}`,
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, realLlmsh(t), srv.Args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("llmsh %v: %v\n%s", srv.Args, err, errb.String())
	}
	if !strings.Contains(out.String(), `"exit_code":0,"stderr":"","stdout":"hi\n"`) {
		t.Errorf("llmsh %v: the call's answer:\n%s\nstderr:\n%s", srv.Args, out.String(), errb.String())
	}
	if b, err := os.ReadFile(filepath.Join(dir, "out", "x")); err != nil || string(b) != "hi\n" {
		t.Errorf("out/x: %q %v", b, err)
	}
}

// TestReadmeTranscripts runs each ```sh block of the README that is a
// terminal transcript (its first line `$ llmsh …`) in the repository's
// root, as a user pasting it there would, and compares what it prints
// (stdout and stderr as a terminal shows them) with the block's lines
// after the command; durations and mktemp's random names are masked.
// The JSON example's `wc -l < go.mod` had said 27 while go.mod had 25
// lines (it now prints go.mod's first line, which does not move).
func TestReadmeTranscripts(t *testing.T) {
	t.Parallel()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to run the README's transcripts")
	}
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	mask := func(s string) string {
		s = regexp.MustCompile(`"duration_ms":[0-9]+`).ReplaceAllString(s, `"duration_ms":N`)
		return regexp.MustCompile(`/tmp/tmp\.[0-9A-Za-z]{10}`).ReplaceAllString(s, "/tmp/tmp.XXXXXXXXXX")
	}
	n := 0
	for _, m := range regexp.MustCompile("(?s)```sh\n(\\$ llmsh .*?)```").FindAllStringSubmatch(string(b), -1) {
		lines := strings.SplitAfter(strings.TrimPrefix(m[1], "$ "), "\n")
		// The command ends on the line where its single quotes balance.
		end := 0
		for q := 0; end < len(lines); end++ {
			if q += strings.Count(lines[end], "'"); q%2 == 0 {
				end++
				break
			}
		}
		command, want := strings.Join(lines[:end], ""), strings.Join(lines[end:], "")
		n++
		t.Run(strings.Fields(command)[1], func(t *testing.T) {
			bin := realLlmsh(t) // built before the clock starts
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bash, "-c", command)
			cmd.Dir = "../.."
			cmd.Env = []string{"PATH=" + filepath.Dir(bin) + ":/usr/bin:/bin", "HOME=" + t.TempDir()}
			out, err := cmd.CombinedOutput()
			if got := mask(string(out)); got != mask(want) {
				t.Errorf("README's transcript\n$ %s\nprints (%v)\n%s\nnot\n%s", command, err, got, want)
			}
		})
	}
	if n < 2 {
		t.Errorf("found %d transcripts in README.md, want the JSON and scratch examples", n)
	}
}
