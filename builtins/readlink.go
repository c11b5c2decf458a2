package builtins

import (
	"fmt"
	"strings"
	"syscall"
)

var _ = register(Builtin{Name: "readlink", Summary: "print resolved symbolic links or canonical file names", Run: readlink})

func readlink(env *Env) int {
	f := NewFlags(env, "Print the value of a symbolic link or canonical file name.\n\n"+
		"Links are read through vfsd: with -f, -e or -m a link (or any component)\n"+
		"that leads outside the granted trees cannot be resolved further.", "[OPTION]... FILE...")
	canon := f.Bool('f', "canonicalize", "canonicalize by following every symlink in every component of the given name recursively; all but the last component must exist")
	existing := f.Bool('e', "canonicalize-existing", "canonicalize as -f; all components must exist")
	missing := f.Bool('m', "canonicalize-missing", "canonicalize as -f; without requirements on components existence")
	noNewline := f.Bool('n', "no-newline", "do not output the trailing delimiter")
	quiet := f.Bool('q', "quiet", "suppress most error messages (on by default)")
	f.BoolVar(quiet, 's', "silent", "same as -q")
	verbose := f.Bool('v', "verbose", "report error messages")
	zero := f.Bool('z', "zero", "end each output line with NUL, not newline")
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if len(files) == 0 {
		return f.Fail(&UsageError{"missing operand"}, 1)
	}
	end := "\n"
	if *zero {
		end = "\x00"
	}
	if *noNewline && len(files) > 1 {
		env.Errorf("ignoring --no-newline with multiple arguments")
		*noNewline = false
	}
	if *noNewline {
		end = ""
	}
	report := func(name string, err error) {
		if *verbose && !*quiet {
			env.PathError(name, err)
		}
	}
	status := 0
	for _, name := range files {
		if env.Ctx.Err() != nil {
			return 1
		}
		if *canon || *existing || *missing {
			mode := canonAllButLast
			switch {
			case *missing:
				mode = canonMissing
			case *existing:
				mode = canonAll
			}
			p, err := canonicalize(env, name, mode)
			if err != nil {
				report(name, err)
				status = 1
				continue
			}
			fmt.Fprint(env.Stdout, p+end)
			continue
		}
		if strings.HasSuffix(name, "/") {
			// readlink(2) follows a link named with a trailing slash,
			// so the name is never a link.
			if _, err := env.FS.Stat(env.Abs(name)); err != nil {
				report(name, err)
			} else {
				report(name, syscall.EINVAL)
			}
			status = 1
			continue
		}
		target, err := env.FS.Readlink(env.Abs(name))
		if err != nil {
			report(name, err)
			status = 1
			continue
		}
		fmt.Fprint(env.Stdout, target+end)
	}
	return status
}
