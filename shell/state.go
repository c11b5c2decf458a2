package shell

import (
	"fmt"
	"io"
	"os"
	"sync/atomic"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// The package-level variables left in shell hold no session's data: the
// command tables (commands.go, loops.go, setopts.go), regular
// expressions, sentinel errors and the parsed `wait` statement are never
// changed; ecfgOffset, runnerOffset and handlingTrapField are field
// offsets looked up once; framePool lends scratch buffers for
// runtime.Callers.

// sessionState is what a session keeps beside its runner: what the
// redirections of standard input opened (redirin.go). A shell makes one
// (New); its nested shells and the runners they start share it. Nothing
// of it is global, so no session can reach another's, and it goes away
// with the session.
type sessionState struct {
	// stdin is the session's own standard input (SetStdin), whose reads
	// by builtins stop with their context (stoppableScriptPipe).
	stdin atomic.Pointer[os.File]
	// truncs names the files that a truncating redirection is writing
	// now, which the session reads as empty (truncs.go).
	truncs truncTable
}

func newSessionState() *sessionState { return &sessionState{} }

// internal reports whether name is one of llmsh's internal command or
// file names (they begin with a NUL or a \x01 byte).
func internal(name string) bool { return name != "" && (name[0] == 0 || name[0] == 1) }

// notFoundStatus reports name as not found on w, as bash does (a name
// with control characters quoted as $'…'), and returns 127.
func notFoundStatus(w io.Writer, prefix, name string) int {
	fmt.Fprintf(w, "%s%s: command not found\n", prefix, commandText(name))
	return 127
}

// commandText is name as bash prints a command's name in a message: as
// it is, or as $'…' when it holds a control character.
func commandText(name string) string {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x20 || c == 0x7f {
			return bashQuote(name)
		}
	}
	return name
}

// refuseInternalFuncs refuses a function whose name begins with a NUL or
// \x01 byte: it would stand in for one of llmsh's internal commands.
func refuseInternalFuncs(root syntax.Node) error {
	var err error
	syntax.Walk(root, func(n syntax.Node) bool {
		if fd, ok := n.(*syntax.FuncDecl); ok && fd.Name != nil && internal(fd.Name.Value) {
			err = fmt.Errorf("`%s': not a valid identifier", commandText(fd.Name.Value))
		}
		return err == nil
	})
	return err
}
