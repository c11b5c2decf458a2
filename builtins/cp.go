package builtins

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"syscall"
	"time"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "cp", Summary: "copy files and directories", Run: cp})

func cp(env *Env) int {
	f := NewFlags(env, "Copy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY.\n\n"+
		"Sources are read through vfsd; destinations must be writable (-o trees, or\n"+
		"virtual files). Copies are written atomically. A symbolic link is followed\n"+
		"as GNU cp follows it: without -r, or with -L (every link), or -H (the links\n"+
		"named as SOURCE). Any other link GNU cp would copy as a link, which llmsh\n"+
		"cannot create: it says so (\"cannot create symbolic link\"), copies the rest\n"+
		"and exits 1. A new file or directory gets the source's permission bits less\n"+
		"the umask (022); -p keeps the permission bits and the modification time\n"+
		"(vfsd exposes no owner; setuid, setgid and sticky bits are never set).\n"+
		"Two names are the same file when vfsd gives them the same file identity\n"+
		"(hard links, a symbolic link and its target) or name the same path.",
		"[OPTION]... [-T] SOURCE DEST", "[OPTION]... SOURCE... DIRECTORY", "[OPTION]... -t DIRECTORY SOURCE...")
	recursive := f.Bool('r', "recursive", "copy directories recursively")
	f.BoolVar(recursive, 'R', "", "same as -r")
	archive := f.Bool('a', "archive", "same as -dR --preserve=all")
	noClobber := f.Bool('n', "no-clobber", "do not overwrite an existing file")
	f.Bool('f', "force", "if an existing destination file cannot be opened, try again (accepted)")
	preserve := f.Bool('p', "", "preserve the mode and the modification time")
	f.Func(0, "preserve", OptionalArg, "ATTR_LIST", "preserve the specified attributes (mode and timestamps are kept)", func(string, bool) error {
		*preserve = true
		return nil
	})
	verbose := f.Bool('v', "verbose", "explain what is being done")
	target, targetSet := f.String('t', "target-directory", "DIRECTORY", "copy all SOURCE arguments into DIRECTORY")
	noTarget := f.Bool('T', "no-target-directory", "treat DEST as a normal file")
	deref := cpDerefUnset
	derefFlag := func(mode int) func(string, bool) error {
		return func(string, bool) error { deref = mode; return nil }
	}
	f.Func('L', "dereference", NoArg, "", "always follow symbolic links in SOURCE", derefFlag(cpDerefAlways))
	f.Func('P', "no-dereference", NoArg, "", "never follow symbolic links in SOURCE", derefFlag(cpDerefNever))
	f.Func('H', "", NoArg, "", "follow command-line symbolic links in SOURCE", derefFlag(cpDerefArgs))
	f.Func('d', "", NoArg, "", "same as --no-dereference --preserve=links", derefFlag(cpDerefNever))
	operands, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if *archive {
		*recursive, *preserve = true, true
		if deref == cpDerefUnset {
			deref = cpDerefNever
		}
	}
	if deref == cpDerefUnset {
		// GNU cp: -r copies links as links, a plain copy follows them.
		deref = cpDerefAlways
		if *recursive {
			deref = cpDerefNever
		}
	}
	c := &copier{env: env, recursive: *recursive, noClobber: *noClobber, preserve: *preserve, verbose: *verbose, deref: deref}
	return copyOrMove(env, f, operands, *target, *targetSet, *noTarget, c.operand)
}

// copyOrMove works out the (source, destination) pairs of cp and mv from
// their operands and calls do for each; it returns the exit status.
func copyOrMove(env *Env, f *Flags, operands []string, target string, targetSet, noTarget bool,
	do func(src, dst string) bool) int {
	if targetSet && noTarget {
		return f.Fail(&UsageError{"cannot combine --target-directory (-t) and --no-target-directory (-T)"}, 1)
	}
	if len(operands) == 0 {
		return f.Fail(&UsageError{"missing file operand"}, 1)
	}
	if !targetSet {
		if len(operands) == 1 {
			return f.Fail(&UsageError{"missing destination file operand after " + gnu.QuoteAF(operands[0])}, 1)
		}
		if noTarget && len(operands) > 2 {
			return f.Fail(&UsageError{"extra operand " + gnu.QuoteAF(operands[2])}, 1)
		}
		target = operands[len(operands)-1]
		operands = operands[:len(operands)-1]
	}
	intoDir := targetSet || len(operands) > 1
	if !noTarget {
		fi, err := env.FS.Stat(env.Abs(target))
		switch {
		case err == nil && fi.IsDir():
			intoDir = true
		case intoDir && err != nil:
			env.Errorf("target %s: %s", gnu.QuoteAF(target), ErrText(err))
			return 1
		case intoDir:
			env.Errorf("target %s is not a directory", gnu.QuoteAF(target))
			return 1
		}
	}
	status := 0
	for _, src := range operands {
		if env.Ctx.Err() != nil {
			return 1
		}
		dst := target
		if intoDir {
			base := path.Base(strings.TrimRight(src, "/"))
			if strings.HasSuffix(target, "/") {
				dst = target + base
			} else {
				dst = target + "/" + base
			}
		}
		if !do(src, dst) {
			status = 1
		}
	}
	return status
}

// Which symbolic links in SOURCE cp follows.
const (
	cpDerefUnset  = iota
	cpDerefNever  // -P, -d, and -r or -a without -L/-H
	cpDerefArgs   // -H: the SOURCE operands only
	cpDerefAlways // -L, and a copy without -r
)

// copier copies files and trees for cp and for mv across trees.
type copier struct {
	env                                     *Env
	recursive, noClobber, preserve, verbose bool
	deref                                   int    // cpDeref*
	verb                                    string // "copied " for mv's -v, "" for cp's
}

// operand copies the command-line source src to dst.
func (c *copier) operand(src, dst string) bool {
	env := c.env
	sabs, dabs := env.Abs(src), env.Abs(dst)
	var fi fs.FileInfo
	var err error
	if c.deref == cpDerefAlways || c.deref == cpDerefArgs {
		fi, err = env.FS.Stat(sabs)
	} else {
		fi, err = lstatOperand(env, src)
	}
	if err != nil {
		env.fileErrorf("cannot stat", src, err)
		return false
	}
	if fi.IsDir() && !c.recursive {
		env.Errorf("-r not specified; omitting directory %s", gnu.QuoteAF(src))
		return false
	}
	same := sabs == dabs
	if !same && fi.Mode()&fs.ModeSymlink == 0 {
		// Two names of one file (a hard link, a link to it).
		if dfi, err := env.FS.Stat(dabs); err == nil {
			same = SameFile(fi, dfi)
		}
	}
	if same {
		env.Errorf("%s and %s are the same file", gnu.QuoteAF(src), gnu.QuoteAF(dst))
		return false
	}
	if fi.IsDir() && strings.HasPrefix(dabs, sabs+"/") {
		env.Errorf("cannot copy a directory, %s, into itself, %s", gnu.QuoteAF(src), gnu.QuoteAF(dst))
		return false
	}
	return c.copy(src, sabs, dst, dabs, fi)
}

// copy copies src (absolute sabs, described by fi) to dst.
func (c *copier) copy(src, sabs, dst, dabs string, fi fs.FileInfo) bool {
	env := c.env
	if fi.Mode()&fs.ModeSymlink != 0 {
		// GNU cp would make dst a link; vfsd makes none.
		env.fileErrorf("cannot create symbolic link", dst, syscall.ENOTSUP)
		return false
	}
	dfi, derr := env.FS.Stat(dabs)
	if fi.IsDir() {
		if derr == nil && !dfi.IsDir() {
			env.Errorf("cannot overwrite non-directory %s with directory %s", gnu.QuoteAF(dst), gnu.QuoteAF(src))
			return false
		}
		created := derr != nil
		if created {
			// Writable and searchable while its entries are copied; the
			// final bits are set after.
			if err := env.FS.Mkdir(dabs, c.newMode(fi)|0o700); err != nil {
				env.fileErrorf("cannot create directory", dst, err)
				return false
			}
			c.report(src, dst)
		}
		ok := c.copyDir(src, sabs, dst, dabs, fi)
		if created || c.preserve {
			if m := c.newMode(fi); m&0o700 != 0o700 || c.preserve {
				ok = c.setMode(dst, dabs, m) && ok
			}
		}
		return ok
	}
	if derr == nil {
		if dfi.IsDir() {
			env.Errorf("cannot overwrite directory %s with non-directory", gnu.QuoteAF(dst))
			return false
		}
		if c.noClobber {
			return true
		}
	}
	_, srcErr, dstErr := copyFile(env, sabs, dabs)
	switch {
	case srcErr != nil:
		env.Errorf("cannot open %s for reading: %s", gnu.QuoteAF(src), ErrText(srcErr))
		return false
	case dstErr != nil:
		var ce closeError
		switch {
		case env.Ctx.Err() != nil:
		case gnu.IsWriteError(dstErr):
			outputFailed(env, dstErr, wroteTo, gnu.QuoteAF(dst), 1)
		case errors.As(dstErr, &ce):
			outputFailed(env, ce.error, "failed to close %[1]s: %[2]s", gnu.QuoteAF(dst), 1)
		default:
			env.fileErrorf("cannot create regular file", dst, dstErr)
		}
		return false
	}
	c.report(src, dst)
	ok := true
	if m := c.newMode(fi); c.preserve || derr != nil && m != defaultFileMode {
		ok = c.setMode(dst, dabs, m)
	}
	if c.preserve {
		c.keepTimes(dst, dabs, fi.ModTime())
	}
	return ok
}

// newMode is the permission a copy of fi gets: its own bits with -p, less
// the umask otherwise (GNU cp's rule for a new file; an existing one
// keeps its mode). Setuid, setgid and sticky bits are never copied.
func (c *copier) newMode(fi fs.FileInfo) fs.FileMode {
	if c.preserve {
		return fi.Mode().Perm()
	}
	return fi.Mode().Perm() &^ defaultUmask
}

// setMode gives dst the permission bits m.
func (c *copier) setMode(dst, dabs string, m fs.FileMode) bool {
	if err := c.env.FS.Chmod(dabs, m); err != nil {
		what := "setting"
		if c.preserve {
			what = "preserving"
		}
		c.env.Errorf("%s permissions for %s: %s", what, gnu.QuoteAF(dst), ErrText(err))
		return false
	}
	return true
}

// copyDir copies the entries of the directory src into the existing
// directory dst.
func (c *copier) copyDir(src, sabs, dst, dabs string, fi fs.FileInfo) bool {
	env := c.env
	entries, err := env.FS.ReadDir(sabs)
	if err != nil {
		env.Errorf("cannot access %s: %s", gnu.QuoteAF(src), ErrText(err))
		return false
	}
	ok := true
	for _, e := range entries {
		if env.Ctx.Err() != nil {
			return false
		}
		cs, cd := joinPath(src, e.Name()), joinPath(dst, e.Name())
		csabs, cdabs := path.Join(sabs, e.Name()), path.Join(dabs, e.Name())
		stat := env.FS.Lstat
		if c.deref == cpDerefAlways {
			stat = env.FS.Stat
		}
		cfi, err := stat(csabs)
		if err != nil {
			env.fileErrorf("cannot stat", cs, err)
			ok = false
			continue
		}
		if !c.copy(cs, csabs, cd, cdabs, cfi) {
			ok = false
		}
	}
	if c.preserve {
		c.keepTimes(dst, dabs, fi.ModTime())
	}
	return ok
}

func (c *copier) report(src, dst string) {
	if c.verbose {
		fmt.Fprintf(c.env.Stdout, "%s%s -> %s\n", c.verb, gnu.QuoteAF(src), gnu.QuoteAF(dst))
	}
}

// keepTimes sets both times of dst to mtime (vfsd reports no access time).
func (c *copier) keepTimes(dst, dabs string, mtime time.Time) {
	if err := c.env.FS.Chtimes(dabs, mtime, mtime); err != nil && !errors.Is(err, fs.ErrNotExist) {
		c.env.Errorf("preserving times for %s: %s", gnu.QuoteAF(dst), ErrText(err))
	}
}

// joinPath appends a directory entry to a name as the user spelled it.
func joinPath(dir, name string) string {
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}
