// Package vfsdmode is the server mode of an executable that can be vfsd:
// started with ServerModeArg as its first argument, it serves vfsd and
// exits. Package vfsdproc's Serve calls it first thing in main; the llmsh
// command also reaches it from package init (package atinit), before the
// packages that vfsd does not use are initialised.
package vfsdmode

import (
	"os"
	"os/signal"

	"github.com/llmsh/llmsh/internal/earlyvfsd"
	"github.com/llmsh/llmsh/internal/sandbox"
	"github.com/llmsh/llmsh/vfsd"
)

// ServerModeArg, as the first argument, makes the process vfsd.
const ServerModeArg = earlyvfsd.ServerModeArg

// Serve serves vfsd on stdin/stdout, confined by Landlock to its grants,
// and exits the process with vfsd's status when the first argument is
// ServerModeArg; otherwise it returns at once.
func Serve() {
	if len(os.Args) < 2 || os.Args[1] != ServerModeArg {
		return
	}
	// Ctrl-C and Ctrl-Z at a terminal are for the running command, not
	// for vfsd. llmsh starts it in a process group of its own, which the
	// terminal's keys do not signal (earlyvfsd.VfsdAttr); another parent
	// may leave it in the terminal's.
	signal.Ignore(terminalSignals...)
	vfsd.OneProcUntilWork = true // llmsh starts it with VfsdEnv
	os.Exit(vfsd.Main(os.Args[2:], os.Stdin, os.Stdout, os.Stderr, sandbox.RestrictToGrants))
}
