package repl

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/llmsh/llmsh/internal/replacefile"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// HistoryPath returns where the REPL keeps its history:
// $XDG_STATE_HOME/llmsh/history, else ~/.local/state/llmsh/history. The
// arguments are llmsh's own XDG_STATE_HOME and HOME (the operator's
// environment, never shown to scripts). It returns "" when neither is set.
func HistoryPath(xdgStateHome, home string) string {
	if filepath.IsAbs(xdgStateHome) {
		return filepath.Join(xdgStateHome, "llmsh", "history")
	}
	if home != "" {
		return filepath.Join(home, ".local", "state", "llmsh", "history")
	}
	return ""
}

// multiLinePrefix marks a history file line that holds an entry with
// newlines (a here-document, say), quoted as a Go string.
const multiLinePrefix = "#llmsh-multiline "

// maxHistory is how many entries the REPL keeps and loads.
const maxHistory = 10000

// History is the REPL's list of entered commands, optionally backed by a
// file that it appends to. It is llmsh's own state: the file is opened by
// llmsh before a script runs and is never reachable through vfsd.
type History struct {
	mu      sync.Mutex
	entries []string
	file    *os.File // nil: in memory only
}

// NewHistory returns an empty history kept in memory only.
func NewHistory() *History { return &History{} }

// OpenHistory opens (creating it and its directory, private to the user)
// the history file at path and loads its entries.
func OpenHistory(path string) (*History, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	h := &History{file: f}
	n, err := h.load(f)
	if err == nil && n > maxHistory {
		err = h.compact(path)
	}
	if err != nil {
		h.file.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return h, nil
}

// compact replaces the history file at path by one of the entries kept
// (the last maxHistory), renamed over it, and appends to that from now
// on: as bash cuts its file to HISTFILESIZE, so that it does not grow,
// outside every grant and the write budget, with every line typed, for
// good (session 23, red team).
func (h *History) compact(path string) error {
	err := replacefile.Write(path, 0o600, func(w io.Writer) error {
		for _, e := range h.entries {
			if _, err := io.WriteString(w, historyLine(e)+"\n"); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	h.file.Close()
	h.file = f
	return nil
}

// historyLine is an entry as the history file holds it: one line.
func historyLine(entry string) string {
	if strings.ContainsAny(entry, "\n\r") || strings.HasPrefix(entry, multiLinePrefix) {
		return multiLinePrefix + strconv.Quote(entry)
	}
	return entry
}

// load reads the entries of r, keeping the last maxHistory, and returns
// how many it read.
func (h *History) load(r io.Reader) (int, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		if q, ok := strings.CutPrefix(line, multiLinePrefix); ok {
			if s, err := strconv.Unquote(q); err == nil {
				line = s
			}
		}
		h.entries = append(h.entries, line)
	}
	n := len(h.entries)
	if n > maxHistory {
		h.entries = h.entries[n-maxHistory:]
	}
	return n, sc.Err()
}

// Entries returns a copy of the entries, oldest first.
func (h *History) Entries() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.entries...)
}

// Add records one command (the complete text of a possibly multi-line
// input) and appends it to the file. Blank input and an exact repeat of
// the previous entry are not recorded. It returns the entry as stored.
func (h *History) Add(src string) (string, error) {
	entry := historyEntry(src)
	if strings.TrimSpace(entry) == "" {
		return "", nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if n := len(h.entries); n > 0 && h.entries[n-1] == entry {
		return entry, nil
	}
	h.entries = append(h.entries, entry)
	if len(h.entries) > maxHistory {
		h.entries = h.entries[len(h.entries)-maxHistory:]
	}
	if h.file == nil {
		return entry, nil
	}
	_, err := h.file.WriteString(historyLine(entry) + "\n")
	return entry, err
}

// Name is the history file's name; "" for a history kept in memory only
// (and for a nil History).
func (h *History) Name() string {
	if h == nil {
		return ""
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.file == nil {
		return ""
	}
	return h.file.Name()
}

// Close closes the history file. A nil History is a no-op.
func (h *History) Close() error {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.file == nil {
		return nil
	}
	err := h.file.Close()
	h.file = nil
	return err
}

// historyEntry is the form in which src is remembered: without its final
// newline, and a multi-line command joined onto one line as bash does
// ("for i in 1 2; do echo $i; done") when that can be done faithfully.
func historyEntry(src string) string {
	src = strings.TrimRight(src, "\n")
	if !strings.Contains(src, "\n") {
		return src
	}
	f, err := syntax.NewParser(syntax.KeepComments(false)).Parse(strings.NewReader(src+"\n"), "")
	if err != nil {
		return src
	}
	var b strings.Builder
	if err := syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, f); err != nil {
		return src
	}
	one := strings.TrimRight(b.String(), "\n")
	if strings.Contains(one, "\n") || hasComment(src) {
		return src
	}
	return one
}

// hasComment reports whether src has a comment the printer would drop.
func hasComment(src string) bool {
	f, err := syntax.NewParser(syntax.KeepComments(true)).Parse(strings.NewReader(src), "")
	if err != nil {
		return true
	}
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if _, ok := n.(*syntax.Comment); ok {
			found = true
		}
		return !found
	})
	return found || len(f.Last) > 0
}
