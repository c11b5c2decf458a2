//go:build unix

package vfsdmode

import (
	"os"
	"syscall"
)

// terminalSignals are the signals of the terminal's keys that are for
// the running command, not for vfsd (which shares the terminal's process
// group): Ctrl-C, and Ctrl-Z, which stops a command of llmsh's REPL.
var terminalSignals = []os.Signal{os.Interrupt, syscall.SIGTSTP}
