package builtins

import (
	"fmt"
	"path"
	"strings"
	"syscall"
)

var _ = register(Builtin{Name: "ln", Summary: "make links (refused: llmsh never creates links)", Run: ln})

// lnRefusal is why each link fails: GNU's form ("failed to create
// symbolic link 'l': ...") with the errno a kernel gives for a link it
// does not allow, and llmsh's reason.
const lnRefusal = "Operation not permitted (llmsh creates no links; cp copies the file)"

// lnOpts is what ln's options ask for that shapes its messages.
type lnOpts struct {
	symbolic, noTarget, relative bool
	targetDir                    string
	targetSet                    bool
	force, interactive, backup   bool // -f and -i: the last one given wins
	dirLinks                     bool // -d, -F: hard links to directories asked for
}

// ln refuses every link: symbolic links could point out of a granted tree
// for whoever follows them later, and hard links would alias files across
// the allowlists, so llmsh creates neither. It reads its operands as GNU
// ln 9.1 does, reports their errors in GNU's words, and names each link
// it would have made in GNU's message for a failed one (docs/security.md,
// T-LINK-4).
func ln(env *Env) int {
	var o lnOpts
	f := NewFlags(env, "Make links between files: refused in llmsh.\n\n"+
		"llmsh never creates symbolic or hard links; copy the file (cp) instead.\n"+
		"The operands are read as GNU ln reads them: an existing LINK_NAME is\n"+
		"\"File exists\" without -f, and each link is reported as not permitted.",
		"[OPTION]... [-T] TARGET LINK_NAME", "[OPTION]... TARGET", "[OPTION]... TARGET... DIRECTORY",
		"[OPTION]... -t DIRECTORY TARGET...")
	f.BoolVar(&o.symbolic, 's', "symbolic", "make symbolic links instead of hard links (refused too)")
	f.BoolVar(&o.noTarget, 'T', "no-target-directory", "treat LINK_NAME as a normal file always")
	f.BoolVar(&o.relative, 'r', "relative", "with -s, create links relative to link location")
	f.Func('t', "target-directory", RequiredArg, "DIRECTORY", "specify the DIRECTORY in which to create the links", func(v string, _ bool) error {
		o.targetDir, o.targetSet = v, true
		return nil
	})
	for _, b := range []struct {
		short rune
		long  string
	}{{'n', "no-dereference"}, {'v', "verbose"}, {'L', "logical"}, {'P', "physical"}} {
		f.Bool(b.short, b.long, "accepted; the link is refused")
	}
	f.BoolVar(&o.dirLinks, 'd', "directory", "allow hard links to directories (refused)")
	f.BoolVar(&o.dirLinks, 'F', "", "like -d")
	f.Func('f', "force", NoArg, "", "remove existing destination files (the link is refused)", func(string, bool) error {
		o.force, o.interactive = true, false
		return nil
	})
	f.Func('i', "interactive", NoArg, "", "prompt whether to remove destinations", func(string, bool) error {
		o.force, o.interactive = false, true
		return nil
	})
	f.Func('b', "", NoArg, "", "like --backup but does not accept an argument", o.setBackup)
	f.Func('S', "suffix", RequiredArg, "SUFFIX", "override the usual backup suffix", o.setBackup)
	f.Func(0, "backup", OptionalArg, "CONTROL", "make a backup of each existing destination file\n(the link is refused)", o.setBackup)
	ops, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if o.relative && !o.symbolic {
		env.Errorf("cannot do --relative without --symbolic")
		return 1
	}
	targets, links, st := o.linkNames(env, f, ops)
	if st >= 0 {
		return st
	}
	st = 0
	for i, target := range targets {
		if !o.link(env, target, links[i]) {
			st = 1
		}
	}
	return st
}

// setBackup notes -b, -S or --backup: an existing destination would be
// renamed, not an error.
func (o *lnOpts) setBackup(string, bool) error {
	o.backup = true
	return nil
}

// link reports the link from name to target as GNU's do_link would
// fail it, and refuses it otherwise; it reports whether the operand was
// skipped without an error (a "no" to -i's question).
func (o *lnOpts) link(env *Env, target, name string) bool {
	kind := "hard"
	if o.symbolic {
		kind = "symbolic"
	} else if fi, err := env.FS.Stat(env.Abs(target)); err != nil {
		env.Errorf("failed to access %s: %s", env.QuoteAF(target), ErrText(err))
		return false
	} else if fi.IsDir() && !o.dirLinks {
		env.Errorf("%s: hard link not allowed for directory", env.QuoteF(target))
		return false
	}
	if _, err := env.FS.Lstat(env.Abs(name)); err == nil {
		switch {
		case !o.force && !o.interactive && !o.backup:
			env.Errorf("failed to create %s link %s: File exists", kind, env.QuoteAF(name))
			return false
		case o.interactive:
			fmt.Fprintf(env.Stderr, "%s: replace %s? ", env.Name(), env.QuoteAF(name))
			if !yesno(env) {
				return true
			}
		case !(o.symbolic && o.backup) && path.Clean(env.Abs(target)) == path.Clean(env.Abs(name)):
			env.Errorf("%s and %s are the same file", env.QuoteAF(target), env.QuoteAF(name))
			return false
		}
	}
	if o.symbolic {
		env.Errorf("failed to create symbolic link %s: %s", env.QuoteAF(name), lnRefusal)
	} else {
		env.Errorf("failed to create hard link %s => %s: %s", env.QuoteAF(name), env.QuoteAF(target), lnRefusal)
	}
	return false
}

// linkNames splits ops into the TARGET operands and the name of the link
// GNU's ln would make for each, or gives a status (>= 0) after the
// message of an operand error.
func (o *lnOpts) linkNames(env *Env, f *Flags, ops []string) (targets, links []string, st int) {
	if o.targetSet && o.noTarget {
		env.Errorf("cannot combine --target-directory and --no-target-directory")
		return nil, nil, 1
	}
	if len(ops) == 0 {
		return nil, nil, f.Fail(&UsageError{"missing file operand"}, 1)
	}
	dir := ""
	switch {
	case o.targetSet:
		fi, err := env.FS.Stat(env.Abs(o.targetDir))
		if err != nil {
			env.Errorf("failed to access %s: %s", env.QuoteAF(o.targetDir), ErrText(err))
			return nil, nil, 1
		}
		if !fi.IsDir() {
			env.Errorf("target %s is not a directory", env.QuoteAF(o.targetDir))
			return nil, nil, 1
		}
		dir = o.targetDir
	case o.noTarget:
		if len(ops) == 1 {
			return nil, nil, f.Fail(&UsageError{"missing destination file operand after " + env.QuoteAF(ops[0])}, 1)
		}
		if len(ops) > 2 {
			return nil, nil, f.Fail(&UsageError{"extra operand " + env.QuoteAF(ops[2])}, 1)
		}
		return ops[:1], ops[1:], -1
	case len(ops) == 1:
		dir = "."
	default:
		last := ops[len(ops)-1]
		fi, err := env.FS.Stat(env.Abs(last))
		isDir := err == nil && fi.IsDir()
		if len(ops) == 2 && !isDir {
			return ops[:1], ops[1:], -1
		}
		if !isDir {
			if err == nil {
				err = syscall.ENOTDIR
			}
			env.Errorf("target %s: %s", env.QuoteAF(last), ErrText(err))
			return nil, nil, 1
		}
		dir = last
		ops = ops[:len(ops)-1]
	}
	links = make([]string, len(ops))
	for i, t := range ops {
		links[i] = lnJoin(dir, lnBase(t))
	}
	return ops, links, -1
}

// lnBase is gnulib's last_component: the name after the last slash,
// trailing slashes kept.
func lnBase(name string) string {
	trimmed := strings.TrimRight(name, "/")
	if trimmed == "" {
		return name
	}
	return name[strings.LastIndexByte(trimmed, '/')+1:]
}

// lnJoin is gnulib's file_name_concat as ln uses it: "." + base is
// "./base", and a slash ending dir is not doubled.
func lnJoin(dir, base string) string {
	if strings.HasSuffix(dir, "/") {
		return dir + base
	}
	return dir + "/" + base
}
