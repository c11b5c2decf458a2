// Command vfsd is llmsh's I/O-only file server: it serves the FS Proxy
// Protocol on stdin/stdout (or inherited descriptors) under read and write
// allowlists. See docs/protocol.md.
package main

import (
	"os"

	"github.com/llmsh/llmsh/internal/sandbox"
	"github.com/llmsh/llmsh/vfsd"
)

func main() {
	os.Exit(vfsd.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, sandbox.RestrictToGrants))
}
