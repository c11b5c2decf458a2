//go:build !unix

package repl

import "os"

// stopSignal is nil where the terminal has no Ctrl-Z signal.
var stopSignal os.Signal
