package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// startRealServe runs the release build's `llmsh serve -v` on a socket in
// a fresh directory and returns once it listens.
func startRealServe(t *testing.T) string {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "s.sock")
	startListening(t, exec.Command(realLlmsh(t), "serve", "-v", "--socket", sock), sock)
	return sock
}

// TestSessionCLIArgs holds `llmsh session VERB`'s command line to GNU's
// shape: --max-memory reaches the session (it was read, then dropped),
// options may follow the operands, and a usage error names the
// subcommand; options a session does not take are refused, not ignored.
func TestSessionCLIArgs(t *testing.T) {
	t.Parallel()
	sock := startRealServe(t)
	dir := t.TempDir()
	id, errs, code := runLlmsh(t, "", "session", "open", "-i", dir, "--max-memory", "32M", "--socket", sock)
	id = strings.TrimSpace(id)
	if code != 0 || len(id) != 32 {
		t.Fatalf("session open: %q %q %d", id, errs, code)
	}
	// 64 strings of 1 MiB kept, past the session's 32 MiB heap, each
	// made in a step that ends at once when the guard stops the run. A
	// string doubled to 2^27 bytes was stopped in its last doublings,
	// each of tens of MiB with the heap past the runtime's soft limit:
	// at load 30-40 one outlasted the second a stopped run has to
	// return (stuck.Grace), and the worker ended as stuck (status 1,
	// "the session's process died").
	_, errs, code = runLlmsh(t, "", "--session", id, "--socket", sock, "-c", `s=aaaaaaaa; for i in {1..17}; do s=$s$s; done; for i in {1..64}; do a[i]=$s$i; done; echo ${#a[@]}`)
	if code != 125 || !strings.Contains(errs, "llmsh: memory limit exceeded (32 MiB)") {
		t.Errorf("--max-memory 32M: status %d, stderr %q", code, errs)
	}
	if _, errs, code = runLlmsh(t, "", "session", "close", id, "--socket", sock); code != 0 || errs != "" {
		t.Errorf("close ID --socket S: status %d, stderr %q", code, errs)
	}
	// No --socket and no XDG_RUNTIME_DIR (runLlmsh's environment has none).
	if _, errs, code := runLlmsh(t, "", "session", "close", id); code != 2 || errs != "llmsh: session close: no --socket given and XDG_RUNTIME_DIR is not set\nTry 'llmsh session close --help' for more information.\n" {
		t.Errorf("close without a socket: status %d, stderr %q", code, errs)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"open", "--bogus"}, "llmsh: session open: unrecognized option '--bogus'\nTry 'llmsh session open --help' for more information.\n"},
		{[]string{"open", "-e"}, "llmsh: session open: --vfsd, --log, --no-history, -s and bash's option letters cannot be used\n"},
		{[]string{"open", "--vfsd", "/x"}, "llmsh: session open: --vfsd, --log"},
		{[]string{"close", id, "x"}, "llmsh: session close: want one session ID\n"},
		{[]string{"restore", "--max-memory", "0"}, "llmsh: session restore: invalid --max-memory '0'\n"},
	} {
		_, errs, code := runLlmsh(t, "", append(append([]string{"session"}, c.args...), "--socket", sock)...)
		if code != 2 || !strings.HasPrefix(errs, c.want) {
			t.Errorf("session %q: status %d, stderr %q, want 2 and %q", c.args, code, errs, c.want)
		}
	}
}

// TestServeListenError: a socket that cannot be made is named with the
// reason in GNU's words, not Go's ("stat DIR: no such file or directory").
func TestServeListenError(t *testing.T) {
	t.Parallel()
	sock := filepath.Join(t.TempDir(), "no", "s.sock")
	_, errs, code := runLlmsh(t, "", "serve", "--socket", sock)
	if want := "llmsh: serve: cannot listen on '" + sock + "': No such file or directory\n"; code != 1 || errs != want {
		t.Errorf("status %d, stderr %q, want 1 and %q", code, errs, want)
	}
}
