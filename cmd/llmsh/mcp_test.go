package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmsh/llmsh/third_party/go-sdk/mcp"
)

// TestMCPStdio drives `llmsh mcp` in its own process (Landlock applied,
// where the kernel has it) with the SDK's client over the process's stdio.
func TestMCPStdio(t *testing.T) {
	in, out, outside := t.TempDir(), t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(in, "data.txt"), []byte("b\na\n"), 0o644)
	os.WriteFile(filepath.Join(outside, "secret"), []byte("SECRET"), 0o644)
	cmd := llmshHelper([]string{"mcp", "-i", in, "-o", out, "--timeout", "20s"})
	cmd.Stderr = os.Stderr
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	// Over the process's pipes: the vendored SDK has no CommandTransport
	// (third_party/go-sdk/LLMSH.md), since no package of llmsh but
	// internal/vfsdproc may import os/exec (TestOnlyVfsdprocExecs).
	stdin, stdout, exited := startPiped(t, cmd)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: stdout, Writer: stdin}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 2 || tools.Tools[0].Name != "bash" || tools.Tools[1].Name != "reset" {
		t.Fatalf("tools: %+v %v", tools, err)
	}
	bash := func(command string) (*mcp.CallToolResult, map[string]any) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"command": command}})
		if err != nil {
			t.Fatal(err)
		}
		var out map[string]any
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &out)
		return res, out
	}
	// The test's working directory is not granted: the shell starts in
	// the first granted directory.
	if _, got := bash("pwd; ls"); got["stdout"] != in+"\ndata.txt\n" {
		t.Errorf("start directory: %v", got)
	}
	if _, got := bash("sort " + in + "/data.txt | tr a-z A-Z; echo v > /tmp/v"); got["stdout"] != "A\nB\n" || got["exit_code"] != 0.0 {
		t.Errorf("pipeline: %v", got)
	}
	if _, got := bash("cat /tmp/v; echo w > " + out + "/w.txt"); got["stdout"] != "v\n" {
		t.Errorf("scratch file in the next call: %v", got)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "w.txt")); string(b) != "w\n" {
		t.Errorf("written file: %q", b)
	}
	res, got := bash("cat " + outside + "/secret")
	if !res.IsError || got["exit_code"] != 1.0 || !strings.Contains(got["stderr"].(string), "No such file or directory") {
		t.Errorf("absent: %v", got)
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "file://" + in + "/data.txt"})
	if err != nil || rr.Contents[0].Text != "b\na\n" {
		t.Errorf("resource: %+v %v", rr, err)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	// Its stdin closed, llmsh mcp ends.
	if err := <-exited; err != nil {
		t.Errorf("llmsh mcp: %v", err)
	}
}

func TestMCPUsage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args  []string
		out   string
		errIn string
		code  int
	}{
		{[]string{"mcp", "-c", "echo"}, "", "the client sends the commands", 2},
		{[]string{"mcp", "script.sh"}, "", "extra operand 'script.sh'", 2},
		{[]string{"mcp", "--json"}, "", "llmsh: mcp: unrecognized option '--json'\nTry 'llmsh mcp --help' for more information.\n", 2},
		{[]string{"mcp", "--timeout", "0"}, "", "llmsh: mcp: invalid --timeout '0'\n", 2},
		// The limits of llmsh's command line, the memory one at most an
		// isolated session's default.
		{[]string{"mcp", "--max-commands", "0"}, "", "llmsh: mcp: invalid --max-commands '0'\n", 2},
		{[]string{"mcp", "--max-memory", "3G"}, "", "llmsh: mcp: invalid --max-memory '3G' (at most 2 GiB)\n", 2},
		{[]string{"mcp", "--max-memory", "-1"}, "", "llmsh: mcp: invalid --max-memory '-1'\n", 2},
		// A grant vfsd refuses is a usage error, as for a run of llmsh.
		{[]string{"mcp", "-i", "/no/such/dir"}, "", "llmsh: mcp: -i '/no/such/dir': No such file or directory\nTry 'llmsh mcp --help' for more information.\n", 2},
		{[]string{"mcp", "--help"}, "Usage: llmsh mcp [OPTION]...\nServe the Model Context Protocol", "", 0},
		{[]string{"mcp", "--help"}, "\n      --max-output=N    cap on the stdout+stderr bytes of each call\n", "", 0},
	} {
		out, errs, code := runLlmsh(t, "", tc.args...)
		if !strings.Contains(out, tc.out) || !strings.Contains(errs, tc.errIn) || code != tc.code {
			t.Errorf("%q: out=%q err=%q code=%d", tc.args, out, errs, code)
		}
	}
	// A missing -o path is announced, and one with a trailing slash made
	// a directory, as for a run of llmsh (the client's input is empty, so
	// the server ends at once).
	dir := t.TempDir()
	single, made := filepath.Join(dir, "single"), filepath.Join(dir, "made")
	_, errs, code := runLlmsh(t, "", "mcp", "-o", single, "-o", made+"/")
	if want := "llmsh: -o '" + single + "' does not exist: granted as a single file (-o '" + single + "/' makes it a directory)\n"; errs != want || code != 0 {
		t.Errorf("missing -o: err=%q code=%d, want %q", errs, code, want)
	}
	if fi, err := os.Stat(made); err != nil || !fi.IsDir() {
		t.Errorf("-o DIR/ not made: %v", err)
	}
	// --max-commands bounds each call, and --max-memory is taken (the
	// server answers the requests it has read when its input ends).
	msgs := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"bash","arguments":{"command":"for i in 1 2 3 4 5 6 7 8; do :; done; echo done"}}}
`
	out, errs2, code2 := runLlmsh(t, msgs, "mcp", "--max-commands", "5", "--max-memory", "512M")
	if !strings.Contains(out, `"exit_code":125`) || !strings.Contains(out, "limit exceeded: more than 5 commands") || strings.Contains(out, "done") || code2 != 0 {
		t.Errorf("--max-commands 5: out=%q err=%q code=%d", out, errs2, code2)
	}
	if out, _, _ := runLlmsh(t, "", "--help"); !strings.Contains(out, "--json") || !strings.Contains(out, "llmsh mcp") {
		t.Errorf("--help lacks --json or mcp:\n%s", out)
	}
}

// TestMCPStartDir: the shell of llmsh mcp starts in the working directory
// when a granted directory covers it, else in the first granted directory
// (a granted file is not one), else in the working directory.
func TestMCPStartDir(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	file := filepath.Join(a, "f")
	os.WriteFile(file, nil, 0o644)
	sub := filepath.Join(b, "sub")
	os.Mkdir(sub, 0o755)
	for _, c := range []struct {
		cwd    string
		grants []string
		want   string
	}{
		{sub, []string{a, b}, sub},
		{b, []string{b}, b},
		{"/", []string{file, b, a}, b},
		{"/", []string{filepath.Join(a, "missing"), a}, a},
		{a + "x", []string{a}, a},
		{"/", []string{file}, "/"},
		{"/", nil, "/"},
	} {
		if got := startDir(c.cwd, c.grants); got != c.want {
			t.Errorf("startDir(%q, %q) = %q, want %q", c.cwd, c.grants, got, c.want)
		}
	}
}

// TestMCPClientGone: a client that exits during a call (both of its
// pipes closed) ends llmsh mcp and the call, which has no time limit
// here; a client that only closes stdin still gets its answers
// (TestMCPStdio, `printf … | llmsh mcp`). Session 30, red team: the
// call ran on for as long as it ran, `while :; do :; done` for good.
func TestMCPClientGone(t *testing.T) {
	cmd := llmshHelper([]string{"mcp", "-o", t.TempDir()})
	stdin, stdout, exited := startPiped(t, cmd)
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"bash","arguments":{"command":"while :; do :; done"}}}
`)
	// The answer to initialize: the server reads; then the client goes.
	if _, err := bufio.NewReader(stdout).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	stdin.Close()
	stdout.Close()
	select {
	case <-exited:
	case <-time.After(60 * time.Second): // a bound, not a synchronisation
		t.Fatal("llmsh mcp runs on after its client is gone")
	}
}

// startPiped starts cmd with pipes to its stdin and from its stdout; exited
// gets Wait's result, and the test's end kills what still runs.
func startPiped(t *testing.T, cmd *exec.Cmd) (stdin io.WriteCloser, stdout io.ReadCloser, exited chan error) {
	t.Helper()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if stdout, err = cmd.StdoutPipe(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited = make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() })
	return stdin, stdout, exited
}
