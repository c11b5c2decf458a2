// Package atinit makes the llmsh command vfsd during package init: when
// llmsh is started in server mode (vfsdmode.ServerModeArg, as Start and
// the early start run it), vfsd serves from this package's init and the
// process exits there. Go initialises a package after its imports and
// otherwise in import path order, so the shell, the builtins, gojq and the
// MCP server's packages, which vfsd never uses, are not initialised at
// all in vfsd: each run's second start of the binary is that much shorter.
// Only llmsh's main imports it (TestStartupInit checks the order).
package atinit

import "github.com/llmsh/llmsh/internal/vfsdmode"

func init() { vfsdmode.Serve() }
