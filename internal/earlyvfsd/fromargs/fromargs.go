// Package fromargs starts llmsh's vfsd early (earlyvfsd.StartFromArgs)
// in its package init, when the command line is a plain -c run. Only
// llmsh's main imports it: a program that embeds llmsh starts vfsd when
// it asks for a session, never at initialisation.
package fromargs

import (
	"os"

	"github.com/llmsh/llmsh/internal/earlyvfsd"
)

func init() {
	if len(os.Args) > 1 {
		earlyvfsd.StartFromArgs(os.Args[1:])
	}
}
