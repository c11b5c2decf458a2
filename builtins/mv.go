package builtins

import (
	"fmt"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "mv", Summary: "move (rename) files", Run: mv})

func mv(env *Env) int {
	f := NewFlags(env, "Rename SOURCE to DEST, or move SOURCE(s) to DIRECTORY.\n\n"+
		"Both names must be writable (-o trees, or virtual files). Within one granted\n"+
		"tree a move is a rename; between trees (or between a tree and the virtual\n"+
		"files) mv copies, keeping modification times, then removes the source; a\n"+
		"symbolic link cannot be copied so (vfsd makes no links): mv says so and\n"+
		"keeps the source.\n"+
		"Interactive prompting (-i) is refused: llmsh scripts are non-interactive.",
		"[OPTION]... [-T] SOURCE DEST", "[OPTION]... SOURCE... DIRECTORY", "[OPTION]... -t DIRECTORY SOURCE...")
	force := f.Bool('f', "force", "do not prompt before overwriting")
	noClobber := f.Bool('n', "no-clobber", "do not overwrite an existing file")
	interactive := f.Bool('i', "interactive", "refused: prompt before overwrite")
	verbose := f.Bool('v', "verbose", "explain what is being done")
	target, targetSet := f.String('t', "target-directory", "DIRECTORY", "move all SOURCE arguments into DIRECTORY")
	noTarget := f.Bool('T', "no-target-directory", "treat DEST as a normal file")
	operands, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	_ = force
	if *interactive {
		env.Errorf("interactive prompting (-i, --interactive) is not supported: llmsh scripts are non-interactive")
		return 1
	}
	m := &mover{env: env, noClobber: *noClobber, verbose: *verbose}
	return copyOrMove(env, f, operands, *target, *targetSet, *noTarget, m.operand)
}

type mover struct {
	env                *Env
	noClobber, verbose bool
}

func (m *mover) operand(src, dst string) bool {
	env := m.env
	sabs, dabs := env.Abs(src), env.Abs(dst)
	fi, err := env.FS.Lstat(sabs)
	if err != nil {
		env.fileErrorf("cannot stat", src, err)
		return false
	}
	if sabs == dabs {
		env.Errorf("%s and %s are the same file", gnu.QuoteAF(src), gnu.QuoteAF(dst))
		return false
	}
	if fi.IsDir() && strings.HasPrefix(dabs, sabs+"/") {
		env.Errorf("cannot move %s to a subdirectory of itself, %s", gnu.QuoteAF(src), gnu.QuoteAF(dst))
		return false
	}
	if dfi, err := env.FS.Stat(dabs); err == nil {
		switch {
		case m.noClobber:
			return true
		case dfi.IsDir() && !fi.IsDir():
			env.Errorf("cannot overwrite directory %s with non-directory", gnu.QuoteAF(dst))
			return false
		case !dfi.IsDir() && fi.IsDir():
			env.Errorf("cannot overwrite non-directory %s with directory %s", gnu.QuoteAF(dst), gnu.QuoteAF(src))
			return false
		}
	}
	err = env.FS.Rename(sabs, dabs)
	if err == nil {
		if m.verbose {
			fmt.Fprintf(env.Stdout, "renamed %s -> %s\n", gnu.QuoteAF(src), gnu.QuoteAF(dst))
		}
		return true
	}
	if !isErrno(err, syscall.EXDEV) {
		env.Errorf("cannot move %s to %s: %s", gnu.QuoteAF(src), gnu.QuoteAF(dst), ErrText(err))
		return false
	}
	// Across trees: copy, then remove the source. GNU mv copies a link as
	// a link, which vfsd cannot make: the copy says so and the source
	// stays.
	c := &copier{env: env, recursive: true, preserve: true, verbose: m.verbose, verb: "copied ", deref: cpDerefNever}
	if !c.copy(src, sabs, dst, dabs, fi) {
		return false
	}
	r := &remover{env: env, recursive: true, verbose: m.verbose}
	return r.operand(src)
}
