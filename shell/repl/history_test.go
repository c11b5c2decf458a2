package repl

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestHistoryPath(t *testing.T) {
	for _, tc := range []struct{ xdg, home, want string }{
		{"/state", "/home/u", "/state/llmsh/history"},
		{"", "/home/u", "/home/u/.local/state/llmsh/history"},
		{"relative", "/home/u", "/home/u/.local/state/llmsh/history"},
		{"", "", ""},
	} {
		if got := HistoryPath(tc.xdg, tc.home); got != tc.want {
			t.Errorf("HistoryPath(%q, %q) = %q, want %q", tc.xdg, tc.home, got, tc.want)
		}
	}
}

func TestHistoryEntry(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"echo hi\n", "echo hi"},
		{"for i in 1 2 3\ndo echo $i\ndone\n", "for i in 1 2 3; do echo $i; done"},
		{"if true\nthen\n  echo 'a  b'\nfi\n", "if true; then echo 'a  b'; fi"},
		{"cat <<EOF\nx\nEOF\n", "cat <<EOF\nx\nEOF"},
		{"echo a # note\necho b\n", "echo a # note\necho b"},
	} {
		if got := historyEntry(tc.src); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.src, got, tc.want)
		}
	}
}

func TestHistoryFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "state", "llmsh", "history")
	h, err := OpenHistory(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{"echo one\n", "echo one\n", "  \n", "cat <<EOF\nx\nEOF\n", "#llmsh-multiline not really\n", "echo two\n"} {
		if _, err := h.Add(src); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"echo one", "cat <<EOF\nx\nEOF", "#llmsh-multiline not really", "echo two"}
	if got := h.Entries(); !reflect.DeepEqual(got, want) {
		t.Fatalf("entries %q", got)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(p)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("history file mode: %v %v", info, err)
	}
	h2, err := OpenHistory(p)
	if err != nil {
		t.Fatal(err)
	}
	defer h2.Close()
	if got := h2.Entries(); !reflect.DeepEqual(got, want) {
		t.Fatalf("reloaded %q, want %q", got, want)
	}
	var none *History
	if err := none.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestHistoryFileCompacted: the history file is cut to its last
// maxHistory entries when it is opened, as bash cuts its file to
// HISTFILESIZE (session 23, red team: llmsh only ever appended, so the
// file, outside every grant and the write budget, grew with every line
// typed, for good).
func TestHistoryFileCompacted(t *testing.T) {
	p := filepath.Join(t.TempDir(), "history")
	var b strings.Builder
	for i := range maxHistory + 50 {
		fmt.Fprintf(&b, "echo %d\n", i)
	}
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	h, err := OpenHistory(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Add("echo last\n"); err != nil {
		t.Fatal(err)
	}
	h.Close()
	data, _ := os.ReadFile(p)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != maxHistory+1 || lines[0] != "echo 50" || lines[maxHistory] != "echo last" {
		t.Fatalf("%d lines, from %q to %q", len(lines), lines[0], lines[len(lines)-1])
	}
	if info, err := os.Stat(p); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("mode: %v %v", info, err)
	}
}
