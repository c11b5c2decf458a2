//go:build unix

package vfsdmode

import (
	"os"
	"syscall"
)

// terminalSignals are the signals of the terminal's keys that are for
// the running command, not for vfsd: Ctrl-C, and Ctrl-Z, which stops a
// command of llmsh's REPL; and SIGTTOU, which would stop vfsd at a write
// to the terminal from outside its foreground process group (stty
// tostop), where llmsh starts it: ignored, the write is made.
var terminalSignals = []os.Signal{os.Interrupt, syscall.SIGTSTP, syscall.SIGTTOU}
