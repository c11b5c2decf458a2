package builtins

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
)

var _ = register(Builtin{Name: "install", Summary: "copy files and set attributes", Run: install})

// installRun is one install call: GNU coreutils 9.1's install, through
// vfsd. Owners cannot be set (vfsd exposes none) and there is no strip
// program.
type installRun struct {
	env                         *Env
	mode                        fs.FileMode
	verbose, compare, keepTimes bool
	backup                      bool
	suffix                      string
	owner                       bool // -o or -g: refused after the copy, as for a user
}

func install(env *Env) int {
	f := NewFlags(env, "This install program copies files (often just compiled) into destination\n"+
		"locations you choose.\n\n"+
		"In the first three forms, copy SOURCE to DEST or multiple SOURCE(s) to\n"+
		"the existing DIRECTORY, while setting permission modes.\n"+
		"In the 4th form, create all components of the given DIRECTORY(ies).\n\n"+
		"In llmsh, ownership cannot be changed (-o and -g fail as for a user who\n"+
		"is not the super-user) and there is no strip program (-s fails).",
		"[OPTION]... [-T] SOURCE DEST", "[OPTION]... SOURCE... DIRECTORY",
		"[OPTION]... -t DIRECTORY SOURCE...", "[OPTION]... -d DIRECTORY...")
	r := &installRun{env: env, mode: 0o755, suffix: "~"}
	f.Func(0, "backup", OptionalArg, "CONTROL", "make a backup of each existing destination file", func(v string, _ bool) error {
		r.backup = v != "none" && v != "off"
		return nil
	})
	f.BoolVar(&r.backup, 'b', "", "like --backup but does not accept an argument")
	f.Bool('c', "", "(ignored)")
	f.BoolVar(&r.compare, 'C', "compare", "compare content of source and destination files, and\nif no change to content and permissions, do not modify\nthe destination at all")
	dirs := f.Bool('d', "directory", "treat all arguments as directory names; create all\ncomponents of the specified directories")
	leading := f.Bool('D', "", "create all leading components of DEST except the last,\nor all components of --target-directory,\nthen copy SOURCE to DEST")
	_, group := f.String('g', "group", "GROUP", "set group ownership (llmsh: refused)")
	modeStr, modeSet := f.String('m', "mode", "MODE", "set permission mode (as in chmod), instead of rwxr-xr-x")
	_, owner := f.String('o', "owner", "OWNER", "set ownership (llmsh: refused)")
	f.BoolVar(&r.keepTimes, 'p', "preserve-timestamps", "apply access/modification times of SOURCE files\nto corresponding destination files")
	strip := f.Bool('s', "strip", "strip symbol tables (llmsh: there is no strip program)")
	suffix, suffixSet := f.String('S', "suffix", "SUFFIX", "override the usual backup suffix")
	target, targetSet := f.String('t', "target-directory", "DIRECTORY", "copy all SOURCE arguments into DIRECTORY")
	noTarget := f.Bool('T', "no-target-directory", "treat DEST as a normal file")
	f.BoolVar(&r.verbose, 'v', "verbose", "print the name of each directory as it is created")
	contextWarn := addContextFlags(env, f, true, "SELinux")
	operands, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	contextWarn()
	// GNU's install checks the operands' count before the mode.
	if len(operands) == 0 {
		return f.Fail(&UsageError{"missing file operand"}, 1)
	}
	if !*dirs && !*targetSet && len(operands) == 1 {
		return f.Fail(&UsageError{"missing destination file operand after " + env.QuoteAF(operands[0])}, 1)
	}
	if *modeSet {
		changes, ok := compileMode(*modeStr)
		if !ok {
			env.Errorf("invalid mode %s", env.Quote(*modeStr))
			return 1
		}
		r.mode = fs.FileMode(adjustMode(changes, 0, false, 0) & 0o777)
	}
	if *suffixSet {
		r.suffix, r.backup = *suffix, true
	}
	r.owner = *owner || *group
	if *dirs {
		status := 0
		for _, d := range operands {
			if !r.mkdirs(d) {
				status = 1
			} else if *modeSet && !r.chmod(d, r.mode) {
				status = 1
			}
		}
		return status
	}
	if *strip && len(operands) > 0 {
		env.Errorf("cannot run 'strip': No such file or directory")
		return 1
	}
	if *leading {
		switch {
		case *targetSet:
			if !r.mkdirs(*target) {
				return 1
			}
		case len(operands) >= 2:
			if dir := path.Dir(operands[len(operands)-1]); dir != "." && dir != "/" && !r.mkdirs(dir) {
				return 1
			}
		}
	}
	return copyOrMove(env, f, operands, moveOpts{target: *target, targetSet: *targetSet, noTarget: *noTarget, install: true}, r.file)
}

// mkdirs makes d and its missing ancestors, saying so with -v.
func (r *installRun) mkdirs(d string) bool {
	return mkdirParents(r.env, d, defaultDirMode, exactAll, func(name string) {
		if r.verbose {
			fmt.Fprintf(r.env.Stdout, "%s: creating directory %s\n", r.env.Name(), r.env.QuoteAF(name))
		}
	})
}

func (r *installRun) chmod(name string, m fs.FileMode) bool {
	if err := r.env.FS.Chmod(r.env.Abs(name), m); err != nil {
		r.env.Errorf("cannot change permissions of %s: %s", r.env.QuoteAF(name), ErrText(err))
		return false
	}
	return true
}

// file installs the file src as dst.
func (r *installRun) file(src, dst string) bool {
	env := r.env
	sabs, dabs := env.Abs(src), env.Abs(dst)
	fi, err := env.FS.Stat(sabs)
	if err != nil {
		env.Errorf("cannot stat %s: %s", env.QuoteAF(src), ErrText(err))
		return false
	}
	if fi.IsDir() {
		env.Errorf("omitting directory %s", env.QuoteAF(src))
		return false
	}
	dfi, derr := env.FS.Stat(dabs)
	if derr == nil && dfi.IsDir() {
		env.Errorf("cannot overwrite directory %s with non-directory", env.QuoteAF(dst))
		return false
	}
	if derr == nil && SameFile(fi, dfi) {
		env.Errorf("%s and %s are the same file", env.QuoteAF(src), env.QuoteAF(dst))
		return false
	}
	if r.compare && derr == nil && dfi.Mode().Perm() == r.mode && r.sameContent(sabs, dabs) {
		return true
	}
	backup := ""
	if r.backup && derr == nil {
		backup = dst + r.suffix
		if err := env.FS.Rename(dabs, env.Abs(backup)); err != nil {
			env.Errorf("cannot backup %s: %s", env.QuoteAF(dst), ErrText(err))
			return false
		}
	}
	if _, srcErr, dstErr := copyFile(env, sabs, dabs); srcErr != nil {
		env.Errorf("cannot open %s for reading: %s", env.QuoteAF(src), ErrText(srcErr))
		return false
	} else if dstErr != nil {
		if env.Ctx.Err() == nil {
			env.fileErrorf("cannot create regular file", dst, dstErr)
		}
		return false
	}
	if r.verbose {
		if backup != "" {
			fmt.Fprintf(env.Stdout, "%s -> %s (backup: %s)\n", env.QuoteAF(src), env.QuoteAF(dst), env.QuoteAF(backup))
		} else {
			fmt.Fprintf(env.Stdout, "%s -> %s\n", env.QuoteAF(src), env.QuoteAF(dst))
		}
	}
	ok := r.chmod(dst, r.mode)
	if r.keepTimes {
		if err := env.FS.Chtimes(dabs, fi.ModTime(), fi.ModTime()); err != nil {
			env.Errorf("cannot set timestamps for %s: %s", env.QuoteAF(dst), ErrText(err))
			ok = false
		}
	}
	if r.owner {
		env.Errorf("cannot change ownership of %s: Operation not permitted", env.QuoteAF(dst))
		ok = false
	}
	return ok
}

// sameContent reports whether the files a and b hold the same bytes.
func (r *installRun) sameContent(a, b string) bool {
	read := func(name string) ([]byte, bool) {
		f, err := r.env.FS.OpenFile(name, os.O_RDONLY)
		if err != nil {
			return nil, false
		}
		defer f.Close()
		data, err := io.ReadAll(f)
		return data, err == nil
	}
	da, okA := read(a)
	db, okB := read(b)
	return okA && okB && bytes.Equal(da, db)
}
