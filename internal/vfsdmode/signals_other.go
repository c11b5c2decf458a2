//go:build !unix

package vfsdmode

import "os"

// terminalSignals are the signals of the terminal's keys that are for
// the running command, not for vfsd: Ctrl-C.
var terminalSignals = []os.Signal{os.Interrupt}
