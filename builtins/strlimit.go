package builtins

import (
	awkinterp "github.com/llmsh/llmsh/third_party/goawk/interp"
	"github.com/llmsh/llmsh/third_party/gojq"
)

// SetStringLimit makes n the most bytes of one string that awk and jq
// build in one step (their MaxString, 256 MiB until it is set), for the
// whole process: a process that runs one session (the llmsh command, a
// session's worker) sets it to that session's value limit before the
// session starts, so that one concatenation, which no memory guard can
// interrupt, stays within the session's memory limit. It must not be
// called while a command may run; n <= 0 changes nothing.
func SetStringLimit(n int) {
	if n > 0 {
		awkinterp.MaxString = n
		gojq.MaxString = n
	}
}
