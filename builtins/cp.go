package builtins

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
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
	c := &copier{env: env}
	archive := false
	f.Func('a', "archive", NoArg, "", "same as -dR --preserve=all", func(string, bool) error {
		archive, c.preserve, c.times = true, true, true
		return nil
	})
	attrsOnly := f.Bool(0, "attributes-only", "don't copy the file data, just the attributes")
	backupOpts := addBackupFlags(env, f)
	f.Bool(0, "copy-contents", "copy contents of special files when recursive (accepted: vfsd has none)")
	deref := cpDerefUnset
	derefFlag := func(mode int) func(string, bool) error {
		return func(string, bool) error { deref = mode; return nil }
	}
	f.Func('d', "", NoArg, "", "same as --no-dereference --preserve=links", derefFlag(cpDerefNever))
	force := f.Bool('f', "force", "if an existing destination file cannot be opened, remove it and try again\n"+
		"(this option is ignored when the -n option is also used)")
	f.Func('i', "interactive", NoArg, "", "prompt before overwrite (overrides a previous -n option); the\n"+
		"answer is read from standard input", func(string, bool) error {
		c.clobber = clobberAsk
		return nil
	})
	f.Func('H', "", NoArg, "", "follow command-line symbolic links in SOURCE", derefFlag(cpDerefArgs))
	link := f.Bool('l', "link", "hard link files instead of copying (refused: llmsh makes no links)")
	f.Func('L', "dereference", NoArg, "", "always follow symbolic links in SOURCE", derefFlag(cpDerefAlways))
	f.Func('n', "no-clobber", NoArg, "", "do not overwrite an existing file (overrides a previous -i option)", func(string, bool) error {
		c.clobber = clobberNever
		return nil
	})
	f.Func('P', "no-dereference", NoArg, "", "never follow symbolic links in SOURCE", derefFlag(cpDerefNever))
	f.Func('p', "", NoArg, "", "same as --preserve=mode,ownership,timestamps", func(string, bool) error {
		c.preserve, c.times = true, true
		return nil
	})
	f.Func(0, "preserve", OptionalArg, "ATTR_LIST", "preserve the specified attributes (default: mode,ownership,timestamps),\n"+
		"if possible; additional attributes: context, links, xattr, all (vfsd\n"+
		"keeps only mode and timestamps)", func(v string, present bool) error {
		if !present {
			v = "mode,ownership,timestamps"
		}
		return c.preserveList("--preserve", v, true)
	})
	f.Func(0, "no-preserve", RequiredArg, "ATTR_LIST", "don't preserve the specified attributes", func(v string, _ bool) error {
		return c.preserveList("--no-preserve", v, false)
	})
	parents := f.Bool(0, "parents", "use full source file name under DIRECTORY")
	recursive := f.Bool('R', "recursive", "copy directories recursively")
	f.BoolVar(recursive, 'r', "", "same as -R")
	whenFlag := func(name string, words []string) func(string, bool) error {
		return func(v string, present bool) error {
			if present {
				_, err := lsArgMatch(env, name, v, words, lsSeq(len(words)))
				return err
			}
			return nil
		}
	}
	f.Func(0, "reflink", OptionalArg, "WHEN", "control clone/CoW copies (vfsd makes none: every copy is a\n"+
		"standard copy)", whenFlag("--reflink", []string{"auto", "always", "never"}))
	removeDest := f.Bool(0, "remove-destination", "remove each existing destination file before attempting to open it\n"+
		"(contrast with --force)")
	f.Func(0, "sparse", RequiredArg, "WHEN", "control creation of sparse files (accepted: vfsd writes every byte)",
		whenFlag("--sparse", []string{"never", "auto", "always"}))
	strip := f.Bool(0, "strip-trailing-slashes", "remove any trailing slashes from each SOURCE argument")
	symbolic := f.Bool('s', "symbolic-link", "make symbolic links instead of copying (refused: llmsh makes no links)")
	target, targetSet := f.String('t', "target-directory", "DIRECTORY", "copy all SOURCE arguments into DIRECTORY")
	noTarget := f.Bool('T', "no-target-directory", "treat DEST as a normal file")
	c.update = updateAll
	f.Func('u', "update", OptionalLongArg, "UPDATE", "copy only when the SOURCE file is newer than the destination file\n"+
		"or when the destination file is missing; UPDATE is all, none or older\n"+
		"(the default)", c.updateFlag)
	verbose := f.Bool('v', "verbose", "explain what is being done")
	f.Bool('x', "one-file-system", "stay on this file system (accepted: vfsd's trees are one file system)")
	contextWarn := addContextFlags(env, f, true, "SELinux")
	operands, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	contextWarn()
	if c.backup, err = backupOpts(); err != nil {
		return f.Fail(err, 1)
	}
	if *link || *symbolic {
		env.Errorf("links are not supported in llmsh")
		return 1
	}
	if archive && deref == cpDerefUnset {
		*recursive = true
		deref = cpDerefNever
	}
	*recursive = *recursive || archive
	if deref == cpDerefUnset {
		// GNU cp: -r copies links as links, a plain copy follows them.
		deref = cpDerefAlways
		if *recursive {
			deref = cpDerefNever
		}
	}
	c.recursive, c.verbose, c.deref = *recursive, *verbose, deref
	c.attrsOnly, c.removeDest, c.force = *attrsOnly, *removeDest, *force
	m := moveOpts{target: *target, targetSet: *targetSet, noTarget: *noTarget, parents: *parents, strip: *strip}
	c.parents = *parents
	return copyOrMove(env, f, operands, m, c.operand)
}

// moveOpts are the operand options cp and mv share.
type moveOpts struct {
	target                              string
	targetSet, noTarget, parents, strip bool
	move, install                       bool // which command: messages differ
}

// copyOrMove works out the (source, destination) pairs of cp and mv from
// their operands and calls do for each; it returns the exit status.
func copyOrMove(env *Env, f *Flags, operands []string, o moveOpts, do func(src, dst string) bool) int {
	target := o.target
	if o.targetSet && o.noTarget {
		return f.Fail(&UsageError{"cannot combine --target-directory (-t) and --no-target-directory (-T)"}, 1)
	}
	if len(operands) == 0 {
		return f.Fail(&UsageError{"missing file operand"}, 1)
	}
	if !o.targetSet {
		if len(operands) == 1 {
			return f.Fail(&UsageError{"missing destination file operand after " + env.QuoteAF(operands[0])}, 1)
		}
		if o.noTarget && len(operands) > 2 {
			return f.Fail(&UsageError{"extra operand " + env.QuoteAF(operands[2])}, 1)
		}
		target = operands[len(operands)-1]
		operands = operands[:len(operands)-1]
	}
	intoDir := o.targetSet || len(operands) > 1
	if !o.noTarget {
		fi, err := env.FS.Stat(env.Abs(target))
		switch {
		case err == nil && fi.IsDir():
			intoDir = true
		case o.parents:
			intoDir = false
		case intoDir:
			if err == nil {
				err = syscall.ENOTDIR
			}
			// coreutils 9.1: "target 'f': Not a directory"; with -t
			// "target directory 'f': ..." (install: "failed to access").
			what := "target %s: %s"
			if o.targetSet && o.install {
				what = "failed to access %s: %s"
			} else if o.targetSet {
				what = "target directory %s: %s"
			}
			env.Errorf(what, env.QuoteAF(target), ErrText(err))
			return 1
		case strings.HasSuffix(target, "/"):
			// DEST/ names a directory: an existing non-directory cannot be
			// stat'ed so, and a missing one is no place for a file.
			if err == nil || isErrno(err, syscall.ENOTDIR) {
				env.Errorf("cannot stat %s: %s", env.QuoteAF(target), ErrText(syscall.ENOTDIR))
				return 1
			}
			if sfi, serr := env.FS.Stat(env.Abs(operands[0])); serr == nil && !sfi.IsDir() {
				// GNU's open or rename of DEST/ fails with ENOENT when
				// DEST's directory is missing, else with ENOTDIR.
				why := error(syscall.ENOTDIR)
				if _, perr := env.FS.Stat(env.Abs(path.Dir(strings.TrimRight(target, "/")))); isErrno(perr, syscall.ENOENT) {
					why = syscall.ENOENT
				}
				if o.move {
					env.Errorf("cannot move %s to %s: %s", env.QuoteAF(operands[0]), env.QuoteAF(target), ErrText(why))
				} else {
					env.Errorf("cannot create regular file %s: %s", env.QuoteAF(target), ErrText(why))
				}
				return 1
			}
		}
	}
	if o.parents && !intoDir {
		return f.Fail(&UsageError{"with --parents, the destination must be a directory"}, 1)
	}
	status := 0
	for _, src := range operands {
		if env.Ctx.Err() != nil {
			return 1
		}
		dst := target
		if intoDir {
			if o.strip {
				src = stripTrailingSlashes(src)
			}
			base := path.Base(strings.TrimRight(src, "/"))
			if o.parents {
				base = src
			}
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

// stripTrailingSlashes is name without its trailing slashes, as GNU's
// strip_trailing_slashes leaves it ("/" stays "/").
func stripTrailingSlashes(name string) string {
	if t := strings.TrimRight(name, "/"); t != "" {
		return t
	}
	return name[:min(len(name), 1)]
}

// Which symbolic links in SOURCE cp follows.
const (
	cpDerefUnset  = iota
	cpDerefNever  // -P, -d, and -r or -a without -L/-H
	cpDerefArgs   // -H: the SOURCE operands only
	cpDerefAlways // -L, and a copy without -r
)

// What cp and mv do with an existing destination (-i, -n).
const (
	clobberYes = iota
	clobberNever
	clobberAsk
)

// What -u/--update lets cp and mv replace.
const (
	updateAll   = iota
	updateNone  // --update=none: like -n
	updateOlder // -u: a destination older than its source
)

// copier copies files and trees for cp and for mv across trees.
type copier struct {
	env                   *Env
	recursive, verbose    bool
	preserve, times       bool // keep the mode, the modification time
	attrsOnly, removeDest bool
	force, parents        bool
	clobber               int // clobber*
	update                int // update*
	backup                backupOpts
	deref                 int    // cpDeref*
	verb                  string // "copied " for mv's -v, "" for cp's

	// A directory copied into itself (GNU's copy_into_self): the first
	// directory an operand created, the operand's names for the message,
	// and whether the copy met that directory among its sources.
	firstDir, topSrc, topDst string
	intoSelf                 bool
}

// updateFlag is -u and --update[=UPDATE].
func (c *copier) updateFlag(v string, present bool) error {
	if !present {
		c.update = updateOlder
		return nil
	}
	u, err := lsArgMatch(c.env, "--update", v, []string{"all", "none", "older"}, []int{updateAll, updateNone, updateOlder})
	c.update = u
	return err
}

// preserveList applies --preserve=LIST (keep) or --no-preserve=LIST.
func (c *copier) preserveList(option, list string, keep bool) error {
	words := []string{"mode", "timestamps", "ownership", "links", "context", "xattr", "all"}
	for _, w := range strings.Split(list, ",") {
		i, err := lsArgMatch(c.env, option, w, words, lsSeq(len(words)))
		if err != nil {
			return err
		}
		switch words[i] {
		case "mode":
			c.preserve = keep
		case "timestamps":
			c.times = keep
		case "all":
			c.preserve, c.times = keep, keep
		}
	}
	return nil
}

// skip reports whether the existing destination dst (described by dfi)
// stays as it is: -n, --update, or a "no" to -i's question.
func (c *copier) skip(dst string, fi, dfi fs.FileInfo) bool {
	switch {
	case c.clobber == clobberNever || c.update == updateNone:
		return true
	case c.update == updateOlder && !dfi.ModTime().Before(fi.ModTime()):
		return true
	case c.clobber == clobberAsk:
		return !confirm(c.env, dst)
	}
	return false
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
		env.Errorf("-r not specified; omitting directory %s", env.QuoteAF(src))
		return false
	}
	same := sabs == dabs
	if !same && fi.Mode()&fs.ModeSymlink == 0 {
		// Two names of one file (a hard link, a link to it).
		dfi, err := env.FS.Stat(dabs)
		if err == nil {
			same = SameFile(fi, dfi)
		} else if errors.Is(err, syscall.ENOTDIR) && !c.parents {
			// GNU stats the destination first: any failure but ENOENT
			env.fileErrorf("cannot stat", dst, err)
			return false
		}
	}
	if same && (c.clobber == clobberNever || c.update == updateNone) {
		return true // GNU: -n skips an existing destination before it compares
	}
	if same {
		env.Errorf("%s and %s are the same file", env.QuoteAF(src), env.QuoteAF(dst))
		return false
	}
	// GNU copies a directory into its own tree until the copy meets the
	// first directory it created, then stops with an error.
	c.firstDir, c.topSrc, c.topDst, c.intoSelf = "", src, dst, false
	if c.parents && !c.makeParents(src, dst) {
		return false
	}
	return c.copy(src, sabs, dst, dabs, fi)
}

// makeParents is --parents: it creates under the target directory the
// directories of src's name that are missing there (dst is that directory
// followed by src), as GNU's make_dir_parents_private does.
func (c *copier) makeParents(src, dst string) bool {
	env := c.env
	root := strings.TrimSuffix(dst, src)
	for i := 0; i < len(src); i++ {
		if src[i] != '/' || i == 0 || src[i-1] == '/' {
			continue
		}
		dir, ddir := src[:i], root+src[:i]
		dfi, err := env.FS.Stat(env.Abs(ddir))
		if err == nil {
			if !dfi.IsDir() {
				env.Errorf("%s exists but is not a directory", env.QuoteAF(ddir))
				return false
			}
			continue
		}
		sfi, err := env.FS.Stat(env.Abs(dir))
		if err != nil {
			env.fileErrorf("failed to get attributes of", dir, err)
			return false
		}
		if err := env.FS.Mkdir(env.Abs(ddir), c.newMode(sfi)); err != nil {
			env.fileErrorf("cannot make directory", ddir, err)
			return false
		}
		if c.verbose {
			fmt.Fprintf(env.Stdout, "%s -> %s\n", dir, ddir)
		}
	}
	return true
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
	if derr != nil && errors.Is(derr, syscall.ENOTDIR) {
		// GNU stats the destination first: any failure but ENOENT
		env.fileErrorf("cannot stat", dst, derr)
		return false
	}
	if fi.IsDir() {
		if derr == nil && !dfi.IsDir() {
			env.Errorf("cannot overwrite non-directory %s with directory %s", env.QuoteAF(dst), env.QuoteAF(src))
			return false
		}
		created := derr != nil
		if c.firstDir != "" && strings.TrimSuffix(sabs, "/") == c.firstDir {
			env.Errorf("cannot copy a directory, %s, into itself, %s", env.QuoteAF(c.topSrc), env.QuoteAF(c.topDst))
			c.intoSelf = true
			return false
		}
		if created {
			// Writable and searchable while its entries are copied; the
			// final bits are set after.
			if err := env.FS.Mkdir(dabs, c.newMode(fi)|0o700); err != nil {
				env.fileErrorf("cannot create directory", dst, err)
				return false
			}
			c.report(src, dst, "")
			if c.firstDir == "" {
				c.firstDir = strings.TrimSuffix(dabs, "/")
			}
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
			env.Errorf("cannot overwrite directory %s with non-directory", env.QuoteAF(dst))
			return false
		}
		if c.skip(dst, fi, dfi) {
			return true
		}
	}
	var backup string
	if derr == nil && c.backup.kind != backupNone {
		var ok bool
		if backup, ok = c.backup.backup(env, dst, dabs); !ok {
			return false
		}
		derr = fs.ErrNotExist
	} else if derr == nil && c.removeDest {
		if err := env.FS.Remove(dabs); err != nil {
			env.fileErrorf("cannot remove", dst, err)
			return false
		}
		if c.verbose {
			fmt.Fprintf(env.Stdout, "removed %s\n", env.QuoteAF(dst))
		}
		derr = fs.ErrNotExist
	}
	var srcErr, dstErr error
	if c.attrsOnly {
		dstErr = touchFile(env, dabs)
	} else {
		_, srcErr, dstErr = copyFile(env, sabs, dabs)
	}
	switch {
	case srcErr != nil:
		env.Errorf("cannot open %s for reading: %s", env.QuoteAF(src), ErrText(srcErr))
		return false
	case dstErr != nil:
		var ce closeError
		switch {
		case env.Ctx.Err() != nil:
		case gnu.IsWriteError(dstErr):
			outputFailed(env, dstErr, wroteTo, env.QuoteAF(dst), 1)
		case errors.As(dstErr, &ce):
			outputFailed(env, ce.error, "failed to close %[1]s: %[2]s", env.QuoteAF(dst), 1)
		default:
			env.fileErrorf("cannot create regular file", dst, dstErr)
		}
		return false
	}
	c.report(src, dst, backup)
	ok := true
	if m := c.newMode(fi); c.preserve || derr != nil && m != defaultFileMode {
		ok = c.setMode(dst, dabs, m)
	}
	if c.times {
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
		c.env.Errorf("%s permissions for %s: %s", what, c.env.QuoteAF(dst), ErrText(err))
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
		env.Errorf("cannot access %s: %s", env.QuoteAF(src), ErrText(err))
		return false
	}
	ok := true
	for _, e := range entries {
		if env.Ctx.Err() != nil {
			return false
		}
		// GNU's file_name_concat: "d//" and "f" make "d/f".
		cs, cd := joinPath(stripTrailingSlashes(src), e.Name()), joinPath(stripTrailingSlashes(dst), e.Name())
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
		if c.intoSelf {
			break // GNU: no point in going on
		}
	}
	if c.times {
		c.keepTimes(dst, dabs, fi.ModTime())
	}
	return ok
}

// report is -v's line for a copy, naming the backup made of dst if any.
func (c *copier) report(src, dst, backup string) {
	if !c.verbose {
		return
	}
	fmt.Fprintf(c.env.Stdout, "%s%s -> %s", c.verb, c.env.QuoteAF(src), c.env.QuoteAF(dst))
	if backup != "" {
		fmt.Fprintf(c.env.Stdout, " (backup: %s)", c.env.QuoteAF(backup))
	}
	fmt.Fprintln(c.env.Stdout)
}

// touchFile is --attributes-only's copy: dabs exists afterwards, its data
// untouched (a new file is empty).
func touchFile(env *Env, dabs string) error {
	f, err := env.FS.OpenFile(dabs, os.O_WRONLY|os.O_CREATE|os.O_APPEND)
	if err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return closeError{err}
	}
	return nil
}

// keepTimes sets both times of dst to mtime (vfsd reports no access time).
func (c *copier) keepTimes(dst, dabs string, mtime time.Time) {
	if err := c.env.FS.Chtimes(dabs, mtime, mtime); err != nil && !errors.Is(err, fs.ErrNotExist) {
		c.env.Errorf("preserving times for %s: %s", c.env.QuoteAF(dst), ErrText(err))
	}
}

// joinPath appends a directory entry to a name as the user spelled it.
func joinPath(dir, name string) string {
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}
