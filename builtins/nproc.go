package builtins

import (
	"errors"
	"strconv"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "nproc", Summary: "print the number of processing units available (llmsh: always 1)", Run: nprocCmd})

// virtualCPUs is what nproc reports: llmsh's builtins run in one process
// whose share of the host is not the script's business, so the answer is
// fixed, and the same on every host.
const virtualCPUs = 1

func nprocCmd(env *Env) int {
	f := NewFlags(env, "Print the number of processing units available to the current process,\n"+
		"which may be less than the number of online processors.\n"+
		"llmsh reports a fixed virtual value, 1, never the host's count.", "[OPTION]...")
	f.Bool(0, "all", "print the number of installed processors")
	ignore := uint64(0)
	f.Func(0, "ignore", RequiredArg, "N", "if possible, exclude N processing units", func(v string, _ bool) error {
		n, e := gnu.ParseSize(v, 10, "")
		if e&^gnu.SizeOverflow != 0 {
			return errors.New("invalid number: " + env.Quote(v))
		}
		ignore = n
		return nil
	})
	version := versionOption(f)
	operands, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	if len(operands) > 0 {
		return f.Fail(&UsageError{"extra operand " + env.Quote(operands[0])}, 1)
	}
	n := uint64(virtualCPUs)
	if ignore < n {
		n -= ignore
	} else {
		n = 1
	}
	w := stdoutWriter(env)
	w.WriteString(strconv.FormatUint(n, 10) + "\n")
	return finishOutput(env, w, 0)
}
