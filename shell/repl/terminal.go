package repl

import (
	"sync"

	"github.com/llmsh/llmsh/third_party/readline"
	"golang.org/x/term"
)

// rawMode and restoreMode switch the terminal fd into and out of raw mode
// for line editing; while a command runs the terminal is in its normal
// mode, so Ctrl-C sends SIGINT.
var (
	rawMu    sync.Mutex
	rawSaved = map[int]*readline.State{}
)

func rawMode(fd int) func() error {
	return func() error {
		rawMu.Lock()
		defer rawMu.Unlock()
		if _, ok := rawSaved[fd]; ok {
			return nil
		}
		st, err := readline.MakeRaw(fd) // keeps output post-processing (\n is CR LF)
		if err != nil {
			return err
		}
		rawSaved[fd] = st
		return nil
	}
}

func restoreMode(fd int) func() error {
	return func() error {
		rawMu.Lock()
		defer rawMu.Unlock()
		st, ok := rawSaved[fd]
		if !ok {
			return nil
		}
		delete(rawSaved, fd)
		return readline.Restore(fd, st)
	}
}

// termWidth is the terminal's width in columns, 80 when unknown.
func termWidth(fd int) int {
	w, _, err := term.GetSize(fd)
	if err != nil || w <= 0 {
		return 80
	}
	return w
}
