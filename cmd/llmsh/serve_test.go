package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/llmsh/llmsh/server/sessionserver"
)

// startServe runs `llmsh serve -v` (the test binary through
// TestHelperLlmsh) on a socket in a fresh directory, and returns once it
// has said that it listens.
func startServe(t *testing.T, extra ...string) (string, *exec.Cmd) {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "llmsh.sock")
	cmd := llmshHelper(append([]string{"serve", "-v", "--socket", sock}, extra...))
	startListening(t, cmd, sock)
	return sock, cmd
}

// startListening starts cmd, an `llmsh serve -v --socket sock`, kills it
// at the test's end, and returns once it has said that it listens on
// sock, its log drained from then on.
func startListening(t *testing.T, cmd *exec.Cmd, sock string) {
	t.Helper()
	errp, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	sc := bufio.NewScanner(errp)
	for sc.Scan() {
		if strings.Contains(sc.Text(), "listening on "+sock) {
			go func() { // keep draining the log
				for sc.Scan() {
				}
			}()
			return
		}
	}
	t.Fatalf("llmsh serve did not start: %v", sc.Err())
}

func TestServeCLI(t *testing.T) {
	t.Parallel()
	sock, srv := startServe(t)
	if fi, err := os.Lstat(sock); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket: %v %v", fi, err)
	}
	out := t.TempDir()
	id, errs, code := runLlmsh(t, "", "session", "open", "--socket", sock, "-o", out)
	id = strings.TrimSpace(id)
	if code != 0 || len(id) != 32 || errs != "" {
		t.Fatalf("session open: %q %q %d", id, errs, code)
	}
	other, _, code := runLlmsh(t, "", "session", "open", "--socket", sock)
	other = strings.TrimSpace(other)
	if code != 0 || other == id {
		t.Fatalf("second session: %q %d", other, code)
	}

	// A missing -o path is announced by session open, and one with a
	// trailing slash made a directory, as for a run of llmsh.
	single, made := filepath.Join(out, "single"), filepath.Join(out, "made")
	_, errs, code = runLlmsh(t, "", "session", "open", "--socket", sock, "-o", single, "-o", made+"/")
	if want := "llmsh: -o '" + single + "' does not exist: granted as a single file (-o '" + single + "/' makes it a directory)\n"; errs != want || code != 0 {
		t.Errorf("session open, missing -o: err=%q code=%d, want %q", errs, code, want)
	}
	if fi, err := os.Stat(made); err != nil || !fi.IsDir() {
		t.Errorf("session open: -o DIR/ not made: %v", err)
	}
	// A grant vfsd refuses is a usage error, as for a run of llmsh.
	_, errs, code = runLlmsh(t, "", "session", "open", "--socket", sock, "-i", "/no/such/dir")
	if want := "llmsh: session open: -i '/no/such/dir': No such file or directory\nTry 'llmsh session open --help' for more information.\n"; errs != want || code != 2 {
		t.Errorf("session open, refused -i: err=%q code=%d, want %q", errs, code, want)
	}

	// State persists across calls; stdin is sent; the status is the script's.
	o, e, code := runLlmsh(t, "piped\n", "--session", id, "--socket", sock, "-c",
		`x=kept; echo scratch > /tmp/v.txt; echo real > `+filepath.Join(out, "r.txt")+`; cat; echo oops >&2; exit 3`)
	if o != "piped\n" || e != "oops\n" || code != 3 {
		t.Errorf("first call: %q %q %d", o, e, code)
	}
	o, e, code = runLlmsh(t, "", "--session", id, "--socket", sock, "-c", `echo "$x"; cat /tmp/v.txt; echo $CANARY_SECRET`)
	if o != "kept\nscratch\n\n" || e != "" || code != 0 {
		t.Errorf("second call: %q %q %d", o, e, code)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "r.txt")); string(b) != "real\n" {
		t.Errorf("granted write: %q", b)
	}
	// The other session sees none of it.
	o, _, code = runLlmsh(t, "", "--session", other, "--socket", sock, "-c", `echo "[$x]"; cat /tmp/v.txt`)
	if o != "[]\n" || code != 1 {
		t.Errorf("other session: %q %d", o, code)
	}
	// --json prints the object of `llmsh --json`.
	o, _, code = runLlmsh(t, "", "--session", id, "--socket", sock, "--json", "-c", `echo "$x"; exit 4`)
	var res struct {
		Stdout       string   `json:"stdout"`
		ExitCode     int      `json:"exit_code"`
		VirtualFiles []string `json:"virtual_files"`
	}
	if err := json.Unmarshal([]byte(o), &res); err != nil || res.Stdout != "kept\n" || res.ExitCode != 4 || code != 4 ||
		len(res.VirtualFiles) != 1 || res.VirtualFiles[0] != "/tmp/v.txt" {
		t.Errorf("--json: %q %v %d", o, err, code)
	}

	// A snapshot to a file, restored into a new session.
	snap := filepath.Join(t.TempDir(), "snap.json")
	if _, e, code := runLlmsh(t, "", "session", "snapshot", "--socket", sock, id, snap); code != 0 || e != "" {
		t.Errorf("session snapshot: %q %d", e, code)
	}
	if _, e, code := runLlmsh(t, "", "session", "snapshot", "--socket", sock, id, snap); code != 1 || e != "llmsh: session snapshot: "+snap+": File exists\n" {
		t.Errorf("session snapshot over a file: %q %d", e, code)
	}
	// A snapshot file that is missing or not JSON: GNU's words, not Go's.
	notJSON := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(notJSON, []byte("{bad\n"), 0o644)
	for file, want := range map[string]string{
		notJSON:              notJSON + ": not a snapshot (not JSON)",
		notJSON + ".missing": notJSON + ".missing: No such file or directory",
	} {
		if _, e, code := runLlmsh(t, "", "session", "restore", "--socket", sock, file); code != 1 || e != "llmsh: session restore: "+want+"\n" {
			t.Errorf("session restore %s: %q %d", file, e, code)
		}
	}
	// JSON that is not a snapshot: the server's reason, one "llmsh:",
	// the file named, no JSON-RPC code nor Go type.
	for text, want := range map[string]string{
		"{}":           `not a snapshot file (format "", want "llmsh-snapshot")`,
		"[1]":          `not a snapshot file (a JSON array, not an object)`,
		`{"format":3}`: `not a snapshot file (format is a JSON number)`,
	} {
		notSnap := filepath.Join(t.TempDir(), "bad.json")
		os.WriteFile(notSnap, []byte(text+"\n"), 0o644)
		if _, e, code := runLlmsh(t, "", "session", "restore", "--socket", sock, notSnap); code != 1 ||
			e != "llmsh: session restore: "+notSnap+": "+want+"\n" {
			t.Errorf("session restore of %s: %q %d", text, e, code)
		}
	}
	restored, e, code := runLlmsh(t, "", "session", "restore", "--socket", sock, snap)
	restored = strings.TrimSpace(restored)
	if code != 0 || len(restored) != 32 || restored == id {
		t.Fatalf("session restore: %q %q %d", restored, e, code)
	}
	if o, e, code := runLlmsh(t, "", "--session", restored, "--socket", sock, "-c", `echo "$x"; cat /tmp/v.txt`); o != "kept\nscratch\n" || code != 0 {
		t.Errorf("restored session: %q %q %d", o, e, code)
	}
	if _, e, code = runLlmsh(t, "", "session", "close", "--socket", sock, id); code != 0 || e != "" {
		t.Errorf("session close: %q %d", e, code)
	}
	_, e, code = runLlmsh(t, "", "--session", id, "--socket", sock, "-c", "echo")
	if code != 1 || !strings.Contains(e, "llmsh: --session: session \""+id+"\" was closed\n") {
		t.Errorf("closed session: %q %d", e, code)
	}
	// Usage errors.
	for _, args := range [][]string{
		{"--session", other, "--socket", sock},
		{"--session", other, "--socket", sock, "-i", out, "-c", "echo"},
		{"--session", other, "--socket", sock, "-e", "-c", "false; echo after"},
		{"--session", other, "--socket", sock, "-o", "pipefail", "-c", "echo"},
		{"--socket", sock, "-c", "echo"},
		{"session", "frob"},
		{"session", "close", "--socket", sock},
		{"serve", "--idle", "soon"},
		{"serve"},                          // no --socket and no XDG_RUNTIME_DIR
		{"--session", other, "-c", "echo"}, // the same
	} {
		if _, _, code := runLlmsh(t, "", args...); code != 2 {
			t.Errorf("%q: status %d, want 2", args, code)
		}
	}
	// A session subcommand's usage error points to its own --help.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"session", "frob"}, "llmsh: session: want 'open', 'close', 'snapshot' or 'restore'\nTry 'llmsh session --help' for more information.\n"},
		{[]string{"session", "close", "--socket", sock}, "llmsh: session close: want one session ID\nTry 'llmsh session close --help' for more information.\n"},
	} {
		if _, e, code := runLlmsh(t, "", tc.args...); code != 2 || e != tc.want {
			t.Errorf("%q: %q %d", tc.args, e, code)
		}
	}
	none := filepath.Join(t.TempDir(), "none")
	if _, e, code := runLlmsh(t, "", "session", "open", "--socket", none); code != 1 ||
		e != "llmsh: cannot reach the session server: "+none+": No such file or directory\n" {
		t.Errorf("no server: %q %d", e, code)
	}
	// A second server on the same socket is refused.
	if _, e, code := runLlmsh(t, "", "serve", "--socket", sock); code != 1 || !strings.Contains(e, "already listening") {
		t.Errorf("second server: %q %d", e, code)
	}

	// SIGTERM: sessions closed, socket removed, status 0.
	if err := srv.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := srv.Wait(); err != nil {
		t.Errorf("serve after SIGTERM: %v", err)
	}
	if _, err := os.Lstat(sock); !os.IsNotExist(err) {
		t.Errorf("socket left after SIGTERM: %v", err)
	}
}

func TestServeHelp(t *testing.T) {
	t.Parallel()
	o, _, code := runLlmsh(t, "", "--help")
	if code != 0 || !strings.Contains(o, "llmsh serve [--socket PATH]") || !strings.Contains(o, "--session ID") ||
		!strings.Contains(o, "llmsh session snapshot") || !strings.Contains(o, "llmsh session restore") {
		t.Errorf("--help does not list serve, --session, snapshot and restore:\n%s", o)
	}
	o, _, code = runLlmsh(t, "", "serve", "--help")
	if code != 0 || !strings.Contains(o, "--max-sessions N") || !strings.Contains(o, "session close") {
		t.Errorf("serve --help:\n%s", o)
	}
	// Each --help ends naming where that command is documented (it named
	// the builtins' page for all of them).
	for _, tc := range [][]string{
		{"--help", "Full documentation: README.md and docs/builtins.md in llmsh's source\n"},
		{"serve --help", "Full documentation: docs/serve.md in llmsh's source\n"},
		{"session --help", "Full documentation: docs/serve.md in llmsh's source\n"},
		{"session open --help", "Full documentation: docs/serve.md in llmsh's source\n"},
		{"mcp --help", `Full documentation: README.md ("MCP") in llmsh's source` + "\n"},
		{"test --help", `Full documentation: README.md ("For a fixture author") in llmsh's source` + "\n"},
	} {
		if o, _, code := runLlmsh(t, "", strings.Fields(tc[0])...); code != 0 || !strings.HasSuffix(o, tc[1]) {
			t.Errorf("llmsh %s: status %d, ends %q, want %q", tc[0], code, o[max(0, len(o)-120):], tc[1])
		}
	}
}

// TestSessionSnapshotLarge: `llmsh session snapshot` of a snapshot larger
// than the server answers inline has the server write the file (session
// 22, red team: the server now refuses those inline, as a restore request
// could not carry them), and `llmsh session restore` of a file larger
// than a request holds has the server read it (it failed: "message
// exceeds 16777216 bytes"). In process, with both bounds lowered.
func TestSessionSnapshotLarge(t *testing.T) {
	defer func(n int64) { inlineSnapshotMax = n }(inlineSnapshotMax)
	inlineSnapshotMax = 16 << 10
	srv := sessionserver.New(sessionserver.Config{MaxInlineSnapshot: 16 << 10})
	sock := filepath.Join(t.TempDir(), "s.sock")
	if err := srv.Listen(sock); err != nil {
		t.Fatal(err)
	}
	go srv.Serve()
	defer srv.Close()
	c, err := sessionserver.Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	id, err := c.Open(sessionserver.OpenParams{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(id, "head -c 32K /dev/zero > /tmp/big", ""); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "big.json")
	cli := func(args ...string) (string, string, int) {
		var out, errs strings.Builder
		st := runSessionCmd(args, &out, &errs)
		return out.String(), errs.String(), st
	}
	if _, e, st := cli("snapshot", "--socket", sock, id, file); st != 0 || e != "" {
		t.Fatalf("session snapshot of 44 KB: %q %d", e, st)
	}
	if fi, err := os.Stat(file); err != nil || fi.Size() <= 16<<10 || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the snapshot file: %v %v", fi, err)
	}
	if _, e, st := cli("snapshot", "--socket", sock, id, file); st != 1 || e != "llmsh: session snapshot: "+file+": File exists\n" {
		t.Errorf("session snapshot of 44 KB over a file: %q %d", e, st)
	}
	o, e, st := cli("restore", "--socket", sock, file)
	restored := strings.TrimSpace(o)
	if st != 0 || len(restored) != 32 {
		t.Fatalf("session restore of 44 KB: %q %q %d", o, e, st)
	}
	if r, err := c.Run(restored, "wc -c < /tmp/big", ""); err != nil || r.Stdout != "32768\n" {
		t.Errorf("the restored session: %+v %v", r, err)
	}
}
