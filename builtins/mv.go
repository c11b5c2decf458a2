package builtins

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
)

var _ = register(Builtin{Name: "mv", Summary: "move (rename) files", Run: mv})

func mv(env *Env) int {
	f := NewFlags(env, "Rename SOURCE to DEST, or move SOURCE(s) to DIRECTORY.\n\n"+
		"Both names must be writable (-o trees, or virtual files). Within one granted\n"+
		"tree a move is a rename; between trees (or between a tree and the virtual\n"+
		"files) mv copies, keeping modification times, then removes the source; a\n"+
		"symbolic link cannot be copied so (vfsd makes no links): mv says so and\n"+
		"keeps the source. -i reads its answers from standard input.",
		"[OPTION]... [-T] SOURCE DEST", "[OPTION]... SOURCE... DIRECTORY", "[OPTION]... -t DIRECTORY SOURCE...")
	m := &mover{env: env}
	backupOpts := addBackupFlags(env, f)
	clobber := func(v int) func(string, bool) error {
		return func(string, bool) error { m.clobber = v; return nil }
	}
	f.Func('f', "force", NoArg, "", "do not prompt before overwriting", clobber(clobberYes))
	f.Func('i', "interactive", NoArg, "", "prompt before overwrite", clobber(clobberAsk))
	f.Func('n', "no-clobber", NoArg, "", "do not overwrite an existing file\n"+
		"If you specify more than one of -i, -f, -n, only the final one takes effect.", clobber(clobberNever))
	strip := f.Bool(0, "strip-trailing-slashes", "remove any trailing slashes from each SOURCE argument")
	target, targetSet := f.String('t', "target-directory", "DIRECTORY", "move all SOURCE arguments into DIRECTORY")
	noTarget := f.Bool('T', "no-target-directory", "treat DEST as a normal file")
	u := &copier{}
	f.Func('u', "update", OptionalLongArg, "UPDATE", "move only when the SOURCE file is newer than the destination file\n"+
		"or when the destination file is missing; UPDATE is all, none or older\n"+
		"(the default)", u.updateFlag)
	verbose := f.Bool('v', "verbose", "explain what is being done")
	addContextFlags(env, f, false, "")
	operands, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if m.backup, err = backupOpts(); err != nil {
		return f.Fail(err, 1)
	}
	if *strip {
		for i, o := range operands {
			operands[i] = stripTrailingSlashes(o)
		}
	}
	m.verbose, m.update = *verbose, u.update
	return copyOrMove(env, f, operands, moveOpts{target: *target, targetSet: *targetSet, noTarget: *noTarget, move: true}, m.operand)
}

type mover struct {
	env             *Env
	verbose         bool
	clobber, update int // clobber*, update*
	backup          backupOpts
}

func (m *mover) operand(src, dst string) bool {
	env := m.env
	sabs, dabs := env.Abs(src), env.Abs(dst)
	fi, err := env.FS.Lstat(sabs)
	if err != nil {
		env.fileErrorf("cannot stat", src, err)
		return false
	}
	if sabs == dabs && (m.clobber == clobberNever || m.update == updateNone) {
		return true // GNU: -n skips an existing destination before it compares
	}
	if sabs == dabs {
		env.Errorf("%s and %s are the same file", env.QuoteAF(src), env.QuoteAF(dst))
		return false
	}
	var backup string
	dfi, err := env.FS.Stat(dabs)
	if err != nil && errors.Is(err, syscall.ENOTDIR) {
		// GNU: rename fails, then stat of the destination (not ENOENT)
		env.fileErrorf("cannot stat", dst, err)
		return false
	}
	if err == nil {
		c := copier{env: env, clobber: m.clobber, update: m.update}
		switch {
		case c.skip(dst, fi, dfi):
			return true
		case dfi.IsDir() && !fi.IsDir():
			env.Errorf("cannot overwrite directory %s with non-directory", env.QuoteAF(dst))
			return false
		case !dfi.IsDir() && fi.IsDir():
			env.Errorf("cannot overwrite non-directory %s with directory %s", env.QuoteAF(dst), env.QuoteAF(src))
			return false
		}
	}
	// GNU mv learns this from rename's EINVAL, after the checks above.
	if fi.IsDir() && strings.HasPrefix(dabs, sabs+"/") {
		env.Errorf("cannot move %s to a subdirectory of itself, %s", env.QuoteAF(src), env.QuoteAF(dst))
		return false
	}
	if err == nil && m.backup.kind != backupNone {
		var ok bool
		if backup, ok = m.backup.backup(env, dst, dabs); !ok {
			return false
		}
	}
	err = env.FS.Rename(sabs, dabs)
	if err == nil {
		if m.verbose {
			fmt.Fprintf(env.Stdout, "renamed %s -> %s", env.QuoteAF(src), env.QuoteAF(dst))
			if backup != "" {
				fmt.Fprintf(env.Stdout, " (backup: %s)", env.QuoteAF(backup))
			}
			fmt.Fprintln(env.Stdout)
		}
		return true
	}
	if !isErrno(err, syscall.EXDEV) {
		env.Errorf("cannot move %s to %s: %s", env.QuoteAF(src), env.QuoteAF(dst), ErrText(err))
		return false
	}
	// Across trees: copy, then remove the source. GNU mv copies a link as
	// a link, which vfsd cannot make: the copy says so and the source
	// stays.
	c := &copier{env: env, recursive: true, preserve: true, times: true, verbose: m.verbose, verb: "copied ", deref: cpDerefNever}
	if !c.copy(src, sabs, dst, dabs, fi) {
		return false
	}
	r := &remover{env: env, recursive: true, verbose: m.verbose}
	return r.operand(src)
}
