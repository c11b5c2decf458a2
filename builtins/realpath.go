package builtins

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"syscall"
)

var _ = register(Builtin{Name: "realpath", Summary: "print the resolved path", Run: realpath})

// canonMode says which components of a path must exist.
type canonMode int

const (
	canonAllButLast canonMode = iota // -E, readlink -f: all but the last
	canonAll                         // -e
	canonMissing                     // -m: none
)

// maxLinks bounds the symbolic links followed while canonicalising one
// name (Linux's MAXSYMLINKS); more is ELOOP, as for a loop of links.
const maxLinks = 40

// canonicalize makes name absolute against env.Dir and resolves it as
// GNU's canonicalize_filename_mode does: "." is dropped, ".." goes to the
// parent of what has been resolved so far, and each symbolic link is
// replaced by its text (read through vfsd, so only links inside the grants
// are followed: a link leading out of its tree is EACCES, and a component
// outside the grants is ENOENT, whether or not the host has it). The
// components that mode requires to exist must exist, and
// each one before the last must be a directory.
func canonicalize(env *Env, name string, mode canonMode) (string, error) {
	return canonicalizeHow(env, name, mode, true, false)
}

// canonicalizeHow is canonicalize; with follow false symbolic links are
// not expanded and ".." is applied lexically (realpath -s); with logical
// ".." is applied lexically before links are expanded (realpath -L).
func canonicalizeHow(env *Env, name string, mode canonMode, follow, logical bool) (string, error) {
	if name == "" {
		return "", syscall.ENOENT
	}
	if logical && follow {
		// GNU: a pass without links (".." lexical, each component
		// still looked at in turn), then one that expands them
		first, err := canonicalizeHow(env, name, mode, false, false)
		if err != nil {
			return "", err
		}
		return canonicalizeHow(env, first, mode, true, false)
	}
	if !follow {
		return canonNoLinks(env, name, mode)
	}
	rest := absComponents(env, name)
	resolved := "/"
	links := 0
	lastLink := "" // the last link followed
	for len(rest) > 0 {
		if env.Ctx.Err() != nil {
			return "", env.Ctx.Err()
		}
		c := rest[0]
		rest = rest[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			resolved = path.Dir(resolved)
			continue
		}
		next := path.Join(resolved, c)
		last := true
		for _, r := range rest {
			if r != "" && r != "." {
				last = false
				break
			}
		}
		var fi fs.FileInfo
		var err error
		if follow {
			fi, err = env.FS.Lstat(next)
		} else {
			fi, err = env.FS.Stat(next)
		}
		switch {
		case err != nil && mode == canonMissing:
			// -m asks nothing of the components: what cannot be
			// described is taken as it is written.
			resolved = next
			continue
		case err != nil && errors.Is(err, fs.ErrNotExist) && lastLink != "" && escapes(env, lastLink):
			// Missing because a link led out of its tree: refused
			// (EACCES), as every other tool meets that link, not
			// "missing" as the path it names outside the grants is.
			return "", syscall.EACCES
		case err != nil && last && mode == canonAllButLast && errors.Is(err, fs.ErrNotExist):
			resolved = next
			continue
		case err != nil:
			return "", err
		}
		if follow && fi.Mode()&fs.ModeSymlink != 0 {
			if links++; links > maxLinks {
				if mode != canonMissing {
					return "", syscall.ELOOP
				}
				// -m keeps a link it cannot resolve as written, as GNU.
				resolved = next
				continue
			}
			lastLink = next
			target, err := env.FS.Readlink(next)
			if err != nil {
				return "", err
			}
			if strings.HasPrefix(target, "/") {
				resolved = "/"
			}
			rest = append(strings.Split(target, "/"), rest...)
			continue
		}
		if !last && !fi.IsDir() && mode != canonMissing {
			return "", syscall.ENOTDIR
		}
		resolved = next
	}
	return resolved, nil
}

// absComponents splits name, made absolute against the working
// directory, at its slashes (empty, "." and ".." components included).
func absComponents(env *Env, name string) []string {
	if !strings.HasPrefix(name, "/") {
		name = env.Dir + "/" + name
	}
	return strings.Split(name, "/")
}

// canonNoLinks is canonicalizeHow without expanding links (realpath -s,
// and -L's first pass), as gnulib's canonicalize_filename_mode with
// CAN_NOLINKS: ".." goes to the parent of what is resolved so far; with
// -e every component must exist; with -E only one that a slash, "." or
// ".." follows is looked at (it must be a directory), so a missing name
// in the middle (a/x/y) is taken as written.
func canonNoLinks(env *Env, name string, mode canonMode) (string, error) {
	if name == "" {
		return "", syscall.ENOENT
	}
	parts := absComponents(env, name)
	resolved := "/"
	for i, c := range parts {
		switch c {
		case "", ".":
			continue
		case "..":
			resolved = path.Dir(resolved)
			continue
		}
		next := path.Join(resolved, c)
		resolved = next
		if mode == canonMissing {
			continue
		}
		// what follows c: after any slashes, "." or ".." (or only
		// slashes, a trailing one) asks for a directory
		needDir, last := false, true
		for _, r := range parts[i+1:] {
			if r == "" {
				needDir = true
				continue
			}
			needDir, last = r == "." || r == "..", false
			break
		}
		if !needDir && mode != canonAll {
			continue
		}
		fi, err := env.FS.Stat(next)
		if err != nil {
			return "", err
		}
		if (needDir || !last) && !fi.IsDir() {
			return "", syscall.ENOTDIR
		}
	}
	return resolved, nil
}

// escapes reports whether the symbolic link abs leads out of its tree,
// which vfsd refuses to follow.
func escapes(env *Env, abs string) bool {
	_, err := env.FS.Stat(abs)
	return errors.Is(err, fs.ErrPermission)
}

// relativeTo expresses the absolute path p relative to the absolute
// directory base.
func relativeTo(p, base string) string {
	if p == base {
		return "."
	}
	ps, bs := strings.Split(strings.Trim(p, "/"), "/"), strings.Split(strings.Trim(base, "/"), "/")
	if p == "/" {
		ps = nil
	}
	if base == "/" {
		bs = nil
	}
	i := 0
	for i < len(ps) && i < len(bs) && ps[i] == bs[i] {
		i++
	}
	var parts []string
	for range bs[i:] {
		parts = append(parts, "..")
	}
	parts = append(parts, ps[i:]...)
	return strings.Join(parts, "/")
}

func realpath(env *Env) int {
	f := NewFlags(env, "Print the resolved absolute file name; all but the last component must exist.\n\n"+
		"Names are resolved against the working directory. Symbolic links are\n"+
		"read through vfsd: a link (or any component) that leads outside the\n"+
		"granted trees cannot be resolved further.", "[OPTION]... FILE...")
	existing := f.Bool('e', "canonicalize-existing", "all components of the path must exist")
	missing := f.Bool('m', "canonicalize-missing", "no path components need exist or be a directory")
	f.Bool('E', "", "all but the last component must exist (default)")
	logical := f.Bool('L', "logical", "resolve '..' components before symlinks")
	physical := f.Bool('P', "physical", "resolve symlinks as encountered (default)")
	quiet := f.Bool('q', "quiet", "suppress most error messages")
	strip := f.Bool('s', "strip", "don't expand symlinks")
	f.BoolVar(strip, 0, "no-symlinks", "same as -s")
	relTo, relSet := f.String(0, "relative-to", "DIR", "print the resolved path relative to DIR")
	relBase, relBaseSet := f.String(0, "relative-base", "DIR", "print absolute paths unless paths below DIR")
	zero := f.Bool('z', "zero", "end each output line with NUL, not newline")
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if len(files) == 0 {
		return f.Fail(&UsageError{"missing operand"}, 1)
	}
	mode := canonAllButLast
	switch {
	case *missing:
		mode = canonMissing
	case *existing:
		mode = canonAll
	}
	if *logical && *physical {
		// The later of -L and -P wins, as in GNU.
		*logical = lastOption(env.Args[1:], 'L', "logical", 'P', "physical")
	}
	canon := func(name string) (string, error) {
		return canonicalizeHow(env, name, mode, !*strip, *logical)
	}
	if *relBaseSet && !*relSet {
		*relTo, *relSet = *relBase, true
	}
	base, limit := "", ""
	for _, d := range []struct {
		set  bool
		name string
		to   *string
	}{{*relSet, *relTo, &base}, {*relBaseSet, *relBase, &limit}} {
		if !d.set {
			continue
		}
		if *d.to, err = canon(d.name); err != nil {
			if !*quiet {
				env.PathError(env.QuoteF(d.name), err)
			}
			return 1
		}
	}
	if *relBaseSet && !pathPrefix(limit, base) {
		// GNU: --relative-to outside --relative-base: every path absolute.
		*relSet = false
	}
	end := "\n"
	if *zero {
		end = "\x00"
	}
	status := 0
	for _, name := range files {
		p, err := canon(name)
		if err != nil {
			if env.Ctx.Err() != nil {
				return 1
			}
			if !*quiet {
				env.PathError(env.QuoteF(name), err)
			}
			status = 1
			continue
		}
		if *relSet && (!*relBaseSet || pathPrefix(limit, p)) {
			p = relativeTo(p, base)
		}
		fmt.Fprint(env.Stdout, p+end)
	}
	return status
}

// pathPrefix is GNU realpath's path_prefix: p is prefix or below it.
func pathPrefix(prefix, p string) bool {
	return prefix == "/" || p == prefix || strings.HasPrefix(p, prefix+"/")
}

// lastOption reports whether, of two boolean options (a short letter and a
// long name each), the first was given after the second in args.
func lastOption(args []string, a rune, along string, b rune, blong string) bool {
	first := false
	for _, arg := range args {
		switch {
		case arg == "--":
			return first
		case strings.HasPrefix(arg, "--"):
			if l := arg[2:]; l != "" && strings.HasPrefix(along, l) && !strings.HasPrefix(blong, l) {
				first = true
			} else if l != "" && strings.HasPrefix(blong, l) && !strings.HasPrefix(along, l) {
				first = false
			}
		case strings.HasPrefix(arg, "-") && len(arg) > 1:
			for _, r := range arg[1:] {
				switch r {
				case a:
					first = true
				case b:
					first = false
				}
			}
		}
	}
	return first
}
