// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// Builtins that the embedder runs: see [ExecBuiltins] and LLMSH.md.

import (
	"bytes"
	"context"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// ExecBuiltins names builtins (echo, printf) that the embedder implements
// itself: wherever the runner would run its own (a command, `builtin
// NAME`, `command NAME`), it runs the exec handler with
// [HandlerContext.IsBuiltin] set, so that the handler runs the shell's
// builtin, not a program of that name. A function of that name still
// comes first, as for any builtin. printf's -v VAR is the runner's: the
// handler writes the output, which the runner assigns to VAR.
func ExecBuiltins(names ...string) RunnerOption {
	return func(r *Runner) error {
		if r.llmsh.execBuiltins == nil {
			r.llmsh.execBuiltins = map[string]bool{}
		}
		for _, n := range names {
			r.llmsh.execBuiltins[n] = true
		}
		return nil
	}
}

// execBuiltin runs builtin name through the exec handler.
func (r *Runner) execBuiltin(ctx context.Context, pos syntax.Pos, name string, args []string) exitStatus {
	if name == "printf" && len(args) > 0 && strings.HasPrefix(args[0], "-v") {
		return r.printfV(ctx, pos, args)
	}
	r.inExecBuiltin = true
	r.exec(ctx, pos, append(append(make([]string, 0, 1+len(args)), name), args...)) // llmsh: one allocation
	r.inExecBuiltin = false
	return r.exit
}

// printfV is printf -v VAR FORMAT [ARG…]: the handler's output, assigned.
func (r *Runner) printfV(ctx context.Context, pos syntax.Pos, args []string) exitStatus {
	name, rest := strings.TrimPrefix(args[0], "-v"), args[1:]
	if name == "" {
		if len(rest) == 0 {
			r.errf("%sprintf: -v: option requires an argument\nprintf: usage: printf [-v var] format [arguments]\n", r.errPrefix())
			return exitStatus{code: 2}
		}
		name, rest = rest[0], rest[1:]
	}
	if !validReadName(name) {
		r.errf("%sprintf: `%s': not a valid identifier\n", r.errPrefix(), name)
		return exitStatus{code: 2}
	}
	// The output is bounded as a command substitution's is (ValueLimit):
	// printf -v v %s "${a[@]}" of big elements took gigabytes.
	// Its messages wait for the end: past the bound, printf's "write
	// error: No space left on device" is not said, the limit is.
	out := &boundedBuilder{max: r.llmsh.maxValue}
	var errs bytes.Buffer
	oldOut, oldErr := r.stdout, r.stderr
	r.stdout, r.stderr = out, &errs
	r.inExecBuiltin = true
	r.exec(ctx, pos, append([]string{"printf"}, rest...))
	r.inExecBuiltin = false
	r.stdout, r.stderr = oldOut, oldErr
	msgs := errs.Bytes()
	if out.over {
		if i := bytes.LastIndexByte(bytes.TrimSuffix(msgs, []byte("\n")), '\n') + 1; bytes.Contains(msgs[i:], []byte("printf: write error: ")) {
			msgs = msgs[:i]
		}
	}
	r.stderr.Write(msgs)
	if out.over {
		r.expandErr(expand.ValueTooLargeError{Limit: out.max})
		return r.exit
	}
	exit := r.exit
	exit.exiting = false
	if exit.code == 2 {
		// llmsh: a usage error (printf -v v -x, printf -v v) leaves
		// VAR as it was, as bash's.
		return exit
	}
	r.exit = exitStatus{}
	r.assignName("printf", name, expand.CutNUL(out.String())) // bash's value ends at a NUL
	if r.exit.exiting {
		// llmsh: printf -v 'a[1/0]': an arithmetic error in the
		// subscript abandons the line, as bash's does.
		return r.exit
	}
	if r.exit.code != 0 && exit.code == 0 {
		exit.code = r.exit.code
	}
	return exit
}

// boundedBuilder is a buffer that refuses (ENOSPC) a write that would
// take it past max bytes (no bound when max is 0). It has no
// WriteString, so every write is bounded (strings.Builder's, promoted
// when it was embedded, was not). It grows as a strings.Builder does
// (append's growth, String without a copy): a buffer that doubled
// (session 26) held up to twice a value's size and, with String's copy,
// took an in-process session with two 12.5 MB values past a 32 MiB
// memory bound that it had kept under (TestInProcessSessionGrowth).
type boundedBuilder struct {
	b    strings.Builder
	max  int
	over bool
}

func (w *boundedBuilder) Write(p []byte) (int, error) {
	if w.max > 0 && w.b.Len()+len(p) > w.max {
		w.over = true
		return 0, syscall.ENOSPC
	}
	return w.b.Write(p)
}

// String is the text written.
func (w *boundedBuilder) String() string { return w.b.String() }

// Assign assigns value to the shell variable name as the shell's own
// builtins do (read, printf -v): through a nameref, with the variable's
// attributes, a readonly one's error said. It is for the builtins that
// the embedder runs for the shell (ExecBuiltins: printf's %n), and does
// nothing for any other command; ok reports that the value was assigned.
func (hc HandlerContext) Assign(name, value string) (ok bool) {
	r := hc.runner
	if r == nil || hc.kind != handlerKindExec || !r.inExecBuiltin {
		return false
	}
	saved := r.exit
	r.exit = exitStatus{}
	r.assignName("printf", name, value)
	ok = r.exit.code == 0
	r.exit = saved
	return ok
}
