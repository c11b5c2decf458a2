package builtins

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"
)

func init() {
	Register(Builtin{Name: "realpath", Summary: "print the resolved path", Run: realpath})
}

// canonMode says which components of a path must exist.
type canonMode int

const (
	canonAllButLast canonMode = iota // -E, readlink -f: all but the last
	canonAll                         // -e
	canonMissing                     // -m: none
)

// canonicalize makes name absolute against env.Dir and cleans it; "." and
// ".." are applied lexically and symbolic links are not resolved (vfsd does
// not reveal link targets). The components that mode requires to exist are
// checked through vfsd: each one before the last must be a directory.
func canonicalize(env *Env, name string, mode canonMode) (string, error) {
	if name == "" {
		return "", syscall.ENOENT
	}
	abs := env.Abs(name)
	if mode == canonMissing || abs == "/" {
		return abs, nil
	}
	comps := strings.Split(abs[1:], "/")
	prefix := ""
	for i, c := range comps {
		if env.Ctx.Err() != nil {
			return "", env.Ctx.Err()
		}
		prefix += "/" + c
		fi, err := env.FS.Stat(prefix)
		last := i == len(comps)-1
		switch {
		case err == nil && !last && !fi.IsDir():
			return "", syscall.ENOTDIR
		case err == nil:
		case last && mode == canonAllButLast && errors.Is(err, fs.ErrNotExist):
		default:
			return "", err
		}
	}
	return abs, nil
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
		"Names are resolved against the working directory and '..' is applied\n"+
		"lexically; symbolic links are not expanded (vfsd does not reveal link\n"+
		"targets), so -s, -L and -P change nothing.", "[OPTION]... FILE...")
	existing := f.Bool('e', "canonicalize-existing", "all components of the path must exist")
	missing := f.Bool('m', "canonicalize-missing", "no path components need exist or be a directory")
	f.Bool('E', "", "all but the last component must exist (default)")
	f.Bool('L', "logical", "resolve '..' components before symlinks")
	f.Bool('P', "physical", "resolve symlinks as encountered (default)")
	quiet := f.Bool('q', "quiet", "suppress most error messages")
	f.Bool('s', "strip", "don't expand symlinks")
	f.Bool(0, "no-symlinks", "same as -s")
	relTo, relSet := f.String(0, "relative-to", "DIR", "print the resolved path relative to DIR")
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
	base := ""
	if *relSet {
		if base, err = canonicalize(env, *relTo, mode); err != nil {
			if !*quiet {
				env.PathError(xaQuote(*relTo), err)
			}
			return 1
		}
	}
	end := "\n"
	if *zero {
		end = "\x00"
	}
	status := 0
	for _, name := range files {
		p, err := canonicalize(env, name, mode)
		if err != nil {
			if env.Ctx.Err() != nil {
				return 1
			}
			if !*quiet {
				env.PathError(xaQuote(name), err)
			}
			status = 1
			continue
		}
		if *relSet {
			p = relativeTo(p, base)
		}
		fmt.Fprint(env.Stdout, p+end)
	}
	return status
}
