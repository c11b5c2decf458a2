package builtins

import (
	"errors"
	"io/fs"
	"strings"
	"syscall"
)

var _ = register(Builtin{Name: "pathchk", Summary: "check whether file names are valid or portable", Run: pathchkCmd})

// The limits pathchk checks: POSIX's minimums with -p, Linux's otherwise
// (llmsh's file names are vfsd's, on Linux).
const (
	posixPathMax = 256
	posixNameMax = 14
	linuxPathMax = 4096
	linuxNameMax = 255
)

func pathchkCmd(env *Env) int {
	f := NewFlags(env, "Diagnose invalid or non-portable file names.", "[OPTION]... NAME...")
	basic := f.Bool('p', "", "check for most POSIX systems")
	extra := f.Bool('P', "", "check for empty names and leading \"-\"")
	port := f.Bool(0, "portability", "check for all POSIX systems (equivalent to -p -P)")
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if len(args) == 0 {
		return f.Fail(&UsageError{"missing operand"}, 1)
	}
	if *port {
		*basic, *extra = true, true
	}
	status := 0
	for _, a := range args {
		if !pathchkOne(env, a, *basic, *extra) {
			status = 1
		}
	}
	return status
}

// pathchkOne checks one name in the order GNU's validate_file_name does,
// reporting the first problem.
func pathchkOne(env *Env, name string, basic, extra bool) bool {
	if extra && (strings.HasPrefix(name, "-") || strings.Contains(name, "/-")) {
		env.Errorf("leading '-' in a component of file name %s", env.QuoteAF(name))
		return false
	}
	if (basic || extra) && name == "" {
		env.Errorf("empty file name")
		return false
	}
	exists := false
	if basic {
		// Byte by byte, as in the C locale.
		for i := 0; i < len(name); i++ {
			if r := name[i]; !(r == '/' || r == '.' || r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
				env.Errorf("nonportable character %s in file name %s", env.Quote(name[i:i+1]), env.QuoteAF(name))
				return false
			}
		}
	} else {
		var err error
		if name == "" {
			err = fs.ErrNotExist
		} else if len(name) >= linuxPathMax || longestComponent(name) > linuxNameMax {
			// What lstat says of the name on Linux, before any lookup.
			err = syscall.ENAMETOOLONG
		} else {
			_, err = env.FS.Lstat(env.Abs(name))
		}
		if err == nil {
			exists = true
		} else if !errors.Is(err, fs.ErrNotExist) || name == "" {
			env.Errorf("%s: %s", env.QuoteF(name), ErrText(err))
			return false
		}
	}
	if exists {
		return true
	}
	pathMax, nameMax := linuxPathMax, linuxNameMax
	if basic {
		pathMax, nameMax = posixPathMax, posixNameMax
	}
	if len(name) >= pathMax {
		env.Errorf("limit %d exceeded by length %d of file name %s", pathMax-1, len(name), env.QuoteAF(name))
		return false
	}
	for _, c := range strings.Split(name, "/") {
		if len(c) > nameMax {
			env.Errorf("limit %d exceeded by length %d of file name component %s", nameMax, len(c), env.Quote(c))
			return false
		}
	}
	return true
}

// longestComponent is the length of name's longest component.
func longestComponent(name string) int {
	n := 0
	for _, c := range strings.Split(name, "/") {
		n = max(n, len(c))
	}
	return n
}
