//go:build unix

package repl

import (
	"os"
	"syscall"
)

// stopSignal is what Ctrl-Z sends while a command runs (the terminal is
// then in its normal mode): it stops the command in the foreground.
var stopSignal os.Signal = syscall.SIGTSTP
