package builtins

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

var _ = register(Builtin{Name: "mkdir", Summary: "make directories", Run: mkdir})

func mkdir(env *Env) int {
	f := NewFlags(env, "Create the DIRECTORY(ies), if they do not already exist.\n\n"+
		"Inside the granted trees, directories can be made only in those granted\n"+
		"writable (-o). Outside every grant a directory is a virtual directory of\n"+
		"the session, held in memory and gone when it ends (refused under --strict);\n"+
		"/tmp is there to make them in. Special mode bits (setuid, setgid, sticky)\n"+
		"are not set.", "[OPTION]... DIRECTORY...")
	parents := f.Bool('p', "parents", "no error if existing, make parent directories as needed")
	verbose := f.Bool('v', "verbose", "print a message for each created directory")
	modeStr, modeSet := f.String('m', "mode", "MODE", "set file mode (as in chmod), not a=rwx - umask")
	contextWarn := addContextFlags(env, f, true, "SELinux/SMACK")
	dirs, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	contextWarn()
	mode := defaultDirMode
	if *modeSet {
		m, ok := parseMode(*modeStr, 0o777, true)
		if !ok {
			env.Errorf("invalid mode %s", env.Quote(*modeStr))
			return 1
		}
		mode = m
	}
	if len(dirs) == 0 {
		return f.Fail(&UsageError{"missing operand"}, 1)
	}
	status := 0
	created := func(name string) {
		if *verbose {
			fmt.Fprintf(env.Stdout, "%s: created directory %s\n", env.Name(), env.QuoteAF(name))
		}
	}
	for _, d := range dirs {
		if env.Ctx.Err() != nil {
			return 1
		}
		if !*parents {
			if err := mkdirMode(env, env.Abs(d), mode, *modeSet); err != nil {
				mkdirError(env, d, err)
				status = 1
				continue
			}
			created(d)
			continue
		}
		exact := exactNone
		if *modeSet {
			exact = exactLast
		}
		if !mkdirParents(env, d, mode, exact, created) {
			status = 1
		}
	}
	return status
}

// mkdirParents makes d and its missing ancestors (mode 0755 for them, mode
// for d), reporting each component as the user spelled its prefix.
func mkdirParents(env *Env, d string, mode fs.FileMode, exact exactMode, created func(string)) bool {
	if d == "" {
		mkdirError(env, d, fs.ErrNotExist)
		return false
	}
	comps := strings.Split(d, "/")
	prefix := ""
	if strings.HasPrefix(d, "/") {
		prefix = "/"
	}
	var last int
	for i, c := range comps {
		if c != "" && c != "." {
			last = i
		}
	}
	for i, c := range comps {
		if c == "" {
			continue
		}
		if prefix != "" && !strings.HasSuffix(prefix, "/") {
			prefix += "/"
		}
		prefix += c
		if c == "." || c == ".." {
			continue
		}
		m := defaultDirMode
		if i == last {
			m = mode
		}
		abs := env.Abs(prefix)
		fi, err := env.FS.Stat(abs)
		if err == nil {
			if fi.IsDir() {
				continue
			}
			if i == last {
				err = fs.ErrExist
			} else {
				err = errNotDir
			}
			mkdirError(env, prefix, err)
			return false
		}
		if !errors.Is(err, fs.ErrNotExist) {
			mkdirError(env, prefix, err)
			return false
		}
		if err := mkdirMode(env, abs, m, exact == exactAll || exact == exactLast && i == last); err != nil {
			if fi, serr := env.FS.Stat(abs); errors.Is(err, fs.ErrExist) && serr == nil && fi.IsDir() {
				continue
			}
			mkdirError(env, prefix, err)
			return false
		}
		created(prefix)
	}
	return true
}

// mkdirError prints mkdir's "cannot create directory 'DIR': reason": GNU
// mkdir quotes DIR with quote() (q\376 between single quotes), not with
// quoteaf() as the other tools' file errors do ('q'$'\376').
func mkdirError(env *Env, dir string, err error) {
	env.Errorf("cannot create directory %s: %s", env.Quote(dir), ErrText(err))
}

// exactMode says which directories mkdirParents makes get their mode
// whatever the shell's umask: none (mkdir -p), the last (mkdir -p -m) or
// all (install -d, whose directories are 0755).
type exactMode int

const (
	exactNone exactMode = iota
	exactLast
	exactAll
)

// mkdirMode makes directory abs. The shell's FS gives the builtins'
// default mode (0755) its umask, so a mode of 0755 given with -m (exact)
// is set again once the directory exists, as GNU mkdir sets -m's mode
// whatever the umask.
func mkdirMode(env *Env, abs string, mode fs.FileMode, exact bool) error {
	if err := env.FS.Mkdir(abs, mode); err != nil {
		return err
	}
	if exact && mode == defaultDirMode {
		return env.FS.Chmod(abs, mode)
	}
	return nil
}
