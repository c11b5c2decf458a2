package builtins

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"syscall"
)

var _ = register(Builtin{Name: "rm", Summary: "remove files or directories", Run: rm})

func rm(env *Env) int {
	f := NewFlags(env, "Remove (unlink) the FILE(s).\n\n"+
		"Files can be removed only inside trees granted writable (-o); a granted\n"+
		"directory itself is never removed, and rm never removes anything through\n"+
		"a symbolic link: \"rm -r link/\" fails, where GNU rm empties the directory\n"+
		"the link leads to. The answers to -i and -I are read from standard\n"+
		"input, as GNU rm reads them when it is not a terminal.", "[OPTION]... [FILE]...")
	force := false
	interactive := rmNever
	f.Func('f', "force", NoArg, "", "ignore nonexistent files and arguments, never prompt", func(string, bool) error {
		force, interactive = true, rmNever
		return nil
	})
	f.Func('i', "", NoArg, "", "prompt before every removal", func(string, bool) error {
		interactive = rmAlways
		return nil
	})
	f.Func('I', "", NoArg, "", "prompt once before removing more than three files, or\nwhen removing recursively; less intrusive than -i,\nwhile still giving protection against most mistakes", func(string, bool) error {
		interactive = rmOnce
		return nil
	})
	f.Func(0, "interactive", OptionalArg, "WHEN", "prompt according to WHEN: never, once (-I), or\nalways (-i); without WHEN, prompt always", func(v string, present bool) error {
		if !present {
			interactive = rmAlways
			return nil
		}
		i, err := lsArgMatch(env, "--interactive", v, []string{"never", "no", "none", "once", "always", "yes"}, []int{rmNever, rmNever, rmNever, rmOnce, rmAlways, rmAlways})
		interactive = i
		return err
	})
	recursive := f.Bool('r', "recursive", "remove directories and their contents recursively")
	f.BoolVar(recursive, 'R', "", "same as -r")
	dirs := f.Bool('d', "dir", "remove empty directories")
	verbose := f.Bool('v', "verbose", "explain what is being done")
	f.Bool(0, "preserve-root", "do not remove '/' (default; always on in llmsh)")
	noPreserve := f.Bool(0, "no-preserve-root", "accepted, but '/' is never removed in llmsh")
	f.Bool(0, "one-file-system", "accepted; a granted tree is one file system")
	files, err := f.Parse(env.Args[1:])
	if msg, ok := usageMessage(err); ok {
		env.Errorf("%s", msg)
		rmLeadingHyphen(env)
		fmt.Fprintf(env.Stderr, "Try '%s --help' for more information.\n", env.Name())
		return 1
	}
	if err != nil {
		return f.Fail(err, 1)
	}
	_ = noPreserve
	if len(files) == 0 {
		if force {
			return 0
		}
		return f.Fail(&UsageError{"missing operand"}, 1)
	}
	if interactive == rmOnce && (*recursive || len(files) > 3) {
		what := "argument"
		if len(files) != 1 {
			what += "s"
		}
		if *recursive {
			what += " recursively"
		}
		fmt.Fprintf(env.Stderr, "%s: remove %d %s? ", env.Name(), len(files), what)
		if !yesno(env) {
			return 0
		}
	}
	r := &remover{env: env, force: force, recursive: *recursive, dirs: *dirs, verbose: *verbose, ask: interactive == rmAlways}
	status := 0
	for _, name := range files {
		if env.Ctx.Err() != nil {
			return 1
		}
		if !r.operand(name) {
			status = 1
		}
	}
	return status
}

// rmLeadingHyphen is GNU rm's diagnose_leading_hyphen: after a bad
// option, the first argument that starts with '-' and names a file gets
// a hint on how to remove it.
func rmLeadingHyphen(env *Env) {
	for _, a := range env.Args[1:] {
		if len(a) > 1 && a[0] == '-' {
			if _, err := env.FS.Lstat(env.Abs(a)); err == nil {
				fmt.Fprintf(env.Stderr, "Try '%s ./%s' to remove the file %s.\n", env.Name(), env.QuoteF(a), env.QuoteAF(a))
				return
			}
		}
	}
}

// rm's --interactive: never, once (-I) or always (-i).
const (
	rmNever = iota
	rmOnce
	rmAlways
)

// remover removes files and trees for rm (and mv's fallback).
type remover struct {
	env                             *Env
	force, recursive, dirs, verbose bool
	ask                             bool // -i: ask before each removal
}

// confirm asks -i's question about name ("remove regular file 'f'? ",
// "descend into directory 'd'? "). A directory whose files were kept is
// asked about too, and a yes fails as GNU rm's does: not empty.
func (r *remover) confirm(verb, kind, name string) bool {
	fmt.Fprintf(r.env.Stderr, "%s: %s %s %s? ", r.env.Name(), verb, kind, r.env.QuoteAF(name))
	return yesno(r.env)
}

// found reports whether abs is there for rm to refuse it (a dot or
// dot-dot that fts reports as a directory, not as ENOENT or ENOTDIR).
func (r *remover) found(abs string) bool {
	_, err := r.env.FS.Lstat(abs)
	return err == nil
}

// operand removes one command-line operand.
func (r *remover) operand(name string) bool {
	env := r.env
	abs := env.Abs(name)
	if r.recursive {
		// GNU checks the last component for . and .. before it checks
		// for the root (`rm -rf /tmp/../` names the dot-dot), once fts
		// found the directory: `rm -r nope/..` is ENOENT (-f: silent).
		trimmed := strings.TrimRight(name, "/")
		if base := path.Base(trimmed); trimmed != "" && (base == "." || base == "..") && r.found(abs) {
			env.Errorf("refusing to remove '.' or '..' directory: skipping %s", env.QuoteAF(name))
			return false
		}
		if abs == "/" {
			// fts leaves one of several trailing slashes ("///" is "/"),
			// but "//" as it is.
			if len(name) > 2 && strings.HasSuffix(name, "/") {
				for len(name) > 1 && name[len(name)-2] == '/' {
					name = name[:len(name)-1]
				}
			}
			if name == "/" {
				env.Errorf("it is dangerous to operate recursively on %s", env.QuoteAF(name))
			} else {
				env.Errorf("it is dangerous to operate recursively on %s (same as %s)", env.QuoteAF(name), env.QuoteAF("/"))
			}
			env.Errorf("use --no-preserve-root to override this failsafe")
			return false
		}
	}
	fi, err := env.FS.Lstat(abs)
	if err != nil {
		if r.force && ignorableMissing(err) {
			return true
		}
		env.fileErrorf("cannot remove", name, err)
		return false
	}
	if strings.HasSuffix(name, "/") && fi.Mode()&fs.ModeSymlink != 0 {
		// "link/" names what the link leads to, which GNU rm would
		// empty (-r) and then fail to unlink; llmsh removes nothing
		// through a link, and the link itself is not "link/".
		err := error(syscall.ENOTDIR)
		if ti, serr := env.FS.Stat(abs); serr == nil && ti.IsDir() && !r.recursive {
			err = errFtIsDir
			if r.dirs {
				err = syscall.ENOTEMPTY
				if ents, lerr := env.FS.ReadDir(abs); lerr == nil && len(ents) == 0 {
					err = syscall.ENOTDIR
				}
			}
		}
		env.fileErrorf("cannot remove", name, err)
		return false
	}
	return r.remove(name, abs, fi)
}

// remove removes name (absolute abs) described by fi.
func (r *remover) remove(name, abs string, fi fs.FileInfo) bool {
	env := r.env
	if !fi.IsDir() {
		if r.ask && !r.confirm("remove", typeText(fi.Mode(), fi.Size()), name) {
			return true
		}
		return r.unlink(name, abs, false)
	}
	if !r.recursive {
		if r.dirs {
			if r.ask && !r.confirm("remove", "directory", name) {
				return true
			}
			return r.unlink(name, abs, true)
		}
		env.fileErrorf("cannot remove", name, errFtIsDir)
		return false
	}
	entries, err := env.FS.ReadDir(abs)
	if err != nil {
		env.fileErrorf("cannot remove", name, err)
		return false
	}
	if r.ask {
		if len(entries) == 0 {
			if !r.confirm("remove", "directory", name) {
				return true
			}
			return r.unlink(name, abs, true)
		}
		if !r.confirm("descend into", "directory", name) {
			return true
		}
	}
	ok := true
	for _, e := range entries {
		if env.Ctx.Err() != nil {
			return false
		}
		cname := path.Join(name, e.Name())
		if strings.HasSuffix(name, "/") {
			cname = name + e.Name()
		}
		cabs := path.Join(abs, e.Name())
		cfi, err := env.FS.Lstat(cabs)
		if err != nil {
			if !(r.force && ignorableMissing(err)) {
				env.fileErrorf("cannot remove", cname, err)
				ok = false
			}
			continue
		}
		if !r.remove(cname, cabs, cfi) {
			ok = false
		}
	}
	if !ok {
		return false
	}
	if r.ask && !r.confirm("remove", "directory", name) {
		return true
	}
	return r.unlink(name, abs, true)
}

// unlink removes one file or empty directory and reports it under -v.
func (r *remover) unlink(name, abs string, dir bool) bool {
	if err := r.env.FS.Remove(abs); err != nil {
		if r.force && ignorableMissing(err) {
			return true
		}
		r.env.fileErrorf("cannot remove", name, err)
		return false
	}
	if r.verbose {
		if dir {
			fmt.Fprintf(r.env.Stdout, "removed directory %s\n", r.env.QuoteAF(name))
		} else {
			fmt.Fprintf(r.env.Stdout, "removed %s\n", r.env.QuoteAF(name))
		}
	}
	return true
}

// ignorableMissing is GNU rm's ignorable_missing: under -f a file that
// does not exist, or a name that cannot be one (`f/` of a file: ENOTDIR),
// is passed over silently.
func ignorableMissing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || isErrno(err, syscall.ENOTDIR)
}
