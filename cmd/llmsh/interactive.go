package main

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/term"

	"github.com/llmsh/llmsh/shell/repl"
)

// isTerminal reports whether r is a terminal.
func isTerminal(r any) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// openHistory opens the REPL's history file. Its place comes from llmsh's
// own XDG_STATE_HOME and HOME (the operator's settings; scripts never see
// them). Without either, or when the file cannot be opened, the history is
// kept in memory only, with a warning.
func openHistory(stderr io.Writer) *repl.History {
	home, _ := os.UserHomeDir()
	p := repl.HistoryPath(os.Getenv("XDG_STATE_HOME"), home)
	if p == "" {
		return nil
	}
	h, err := repl.OpenHistory(p)
	if err != nil {
		fmt.Fprintf(stderr, "llmsh: history not saved: %v\n", err)
		return nil
	}
	return h
}

// hiddenFiles are the files vfsd must never open: the REPL's history,
// which is llmsh's own state, even where a grant covers it.
func hiddenFiles(h *repl.History) []string {
	if name := h.Name(); name != "" {
		return []string{name}
	}
	return nil
}

// colorWanted decides whether llmsh's own messages are coloured: --color
// always or never, else (auto) when stdout is a terminal and the operator
// has not turned colour off (noColorEnv).
func colorWanted(mode string, stdout io.Writer) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	return !noColorEnv() && isTerminal(stdout)
}

// noColorEnv tells whether llmsh's own environment turns --color=auto
// off: NO_COLOR set to anything (no-color.org), or a terminal that has
// no colours, TERM=dumb (as GNU grep's --color=auto decides, and the
// Emacs shell buffers and editors' terminals that set it).
func noColorEnv() bool {
	return os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb"
}
