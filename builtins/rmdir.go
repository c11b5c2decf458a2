package builtins

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"
)

// errRmdirSymlink is GNU rmdir's reason for "link/" when the link leads
// to a directory.
var errRmdirSymlink = errors.New("Symbolic link not followed")

var _ = register(Builtin{Name: "rmdir", Summary: "remove empty directories", Run: rmdir})

func rmdir(env *Env) int {
	f := NewFlags(env, "Remove the DIRECTORY(ies), if they are empty.\n\n"+
		"Directories can be removed only inside trees granted writable (-o); a\n"+
		"granted directory itself is never removed.", "[OPTION]... DIRECTORY...")
	ignore := f.Bool(0, "ignore-fail-on-non-empty", "ignore each failure to remove a non-empty directory")
	parents := f.Bool('p', "parents", "remove DIRECTORY and its ancestors; e.g., 'rmdir -p a/b' is similar to 'rmdir a/b a'")
	verbose := f.Bool('v', "verbose", "output a diagnostic for every directory processed")
	dirs, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if len(dirs) == 0 {
		return f.Fail(&UsageError{"missing operand"}, 1)
	}
	// remove removes one directory; quiet reports an ignored failure.
	remove := func(d string) (ok, quiet bool, err error) {
		if *verbose {
			fmt.Fprintf(env.Stdout, "%s: removing directory, %s\n", env.Name(), env.QuoteAF(d))
		}
		if err := rmdirDotErr(env, d); err != nil {
			return false, false, err
		}
		abs := env.Abs(d)
		fi, err := env.FS.Lstat(abs)
		switch {
		case err == nil && fi.Mode()&fs.ModeSymlink != 0 && strings.HasSuffix(d, "/"):
			if ti, serr := env.FS.Stat(abs); serr == nil && ti.IsDir() {
				err = errRmdirSymlink // "link/" is the directory; GNU will not remove it
			} else {
				err = syscall.ENOTDIR
			}
		case err == nil && !fi.IsDir():
			err = syscall.ENOTDIR
		}
		if err == nil {
			err = env.FS.Remove(abs)
		}
		if err == nil {
			return true, false, nil
		}
		if *ignore && isErrno(err, syscall.ENOTEMPTY) {
			return false, true, err
		}
		return false, false, err
	}
	status := 0
	for _, d := range dirs {
		if env.Ctx.Err() != nil {
			return 1
		}
		ok, quiet, err := remove(d)
		if !ok {
			if !quiet {
				env.Errorf("failed to remove %s: %s", env.QuoteAF(d), ErrText(err))
				status = 1
			}
			continue
		}
		if !*parents {
			continue
		}
		p := strings.TrimRight(d, "/")
		for {
			i := strings.LastIndexByte(p, '/')
			if i < 0 {
				break
			}
			p = strings.TrimRight(p[:i], "/")
			if p == "" {
				break
			}
			ok, quiet, err := remove(p)
			if !ok {
				if !quiet {
					env.Errorf("failed to remove directory %s: %s", env.QuoteAF(p), ErrText(err))
					status = 1
				}
				break
			}
		}
	}
	return status
}

// rmdirDotErr is Linux rmdir(2)'s refusal of a path whose last component
// is "." (EINVAL), ".." (ENOTEMPTY) or the root itself (EBUSY), which GNU
// rmdir reports as it gets it: "rmdir d/." never removes d. The path up
// to that component must still lead to a directory (ENOENT, ENOTDIR
// first, as the kernel's walk finds them). It is nil for other paths
// and for "".
func rmdirDotErr(env *Env, d string) error {
	p := strings.TrimRight(d, "/")
	switch {
	case d == "":
		return nil // ENOENT, as any missing name
	case p == "":
		return syscall.EBUSY
	}
	dir, last := ".", p
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		dir, last = p[:i+1], p[i+1:]
	}
	var why error
	switch last {
	case ".":
		why = syscall.EINVAL
	case "..":
		why = syscall.ENOTEMPTY
	default:
		return nil
	}
	fi, err := env.FS.Stat(env.Abs(dir))
	switch {
	case err != nil:
		return err
	case !fi.IsDir():
		return syscall.ENOTDIR
	}
	return why
}
