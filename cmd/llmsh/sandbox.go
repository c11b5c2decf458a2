package main

import (
	"fmt"
	"io"

	"github.com/llmsh/llmsh/internal/sandbox"
	"github.com/llmsh/llmsh/internal/stuck"
)

// afterRestrict, when set (by tests), runs right after restrictSelf.
var afterRestrict func()

// restrictSelf is the defence in depth under the handlers: once vfsd runs
// and the history file is open, llmsh needs no file system and no network
// of its own, so it asks Landlock to forbid both to every thread of this
// process. A bug in llmsh, interp or a builtin that opened a host path
// directly then fails with EACCES. Descriptors already open (vfsd's pipes,
// stdio, the history file) keep working. Where the kernel lacks Landlock
// this degrades to nothing, and --verbose says so.
func restrictSelf(verbose bool, stderr io.Writer) {
	abi := sandbox.ABI()
	stuck.Prepare() // its readings of this process outlive the restriction
	err := sandbox.RestrictSelf()
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "llmsh: Landlock self-restriction failed: %v\n", err)
	case !verbose:
	case abi <= 0:
		fmt.Fprintln(stderr, "llmsh: Landlock is not available in this kernel: no self-restriction (vfsd's checks still apply)")
	case abi < 4:
		fmt.Fprintf(stderr, "llmsh: Landlock ABI %d: file system closed to llmsh itself; network not restrictable before ABI 4\n", abi)
	default:
		fmt.Fprintf(stderr, "llmsh: Landlock ABI %d: file system and TCP closed to llmsh itself\n", abi)
	}
	if afterRestrict != nil {
		afterRestrict()
	}
}

// sandboxLevel is the --version line that says what the kernel enforces.
func sandboxLevel() string {
	abi := sandbox.ABI()
	switch {
	case abi <= 0:
		return "sandbox: none (no Landlock in this kernel; vfsd's policy and llmsh's handlers only)"
	case abi < 4:
		return fmt.Sprintf("sandbox: Landlock ABI %d (llmsh: no file system; vfsd: its allowlists; TCP not restrictable)", abi)
	}
	return fmt.Sprintf("sandbox: Landlock ABI %d (llmsh: no file system, no TCP; vfsd: its allowlists, no TCP)", abi)
}
