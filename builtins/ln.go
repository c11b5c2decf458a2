package builtins

import (
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
		"llmsh never creates symbolic or hard links; copy the file (cp) instead. The operands\n"+
		"are read as GNU ln reads them, and each link is reported as not permitted.",
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
	}{{'f', "force"}, {'n', "no-dereference"}, {'v', "verbose"}, {'L', "logical"}, {'P', "physical"},
		{'i', "interactive"}, {'b', ""}, {'d', "directory"}, {'F', ""}} {
		f.Bool(b.short, b.long, "accepted; the link is refused")
	}
	f.String('S', "suffix", "SUFFIX", "accepted; the link is refused")
	f.Func(0, "backup", OptionalArg, "CONTROL", "accepted; the link is refused", func(string, bool) error { return nil })
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
	for i, target := range targets {
		if o.symbolic {
			env.Errorf("failed to create symbolic link %s: %s", env.QuoteAF(links[i]), lnRefusal)
			continue
		}
		if _, err := env.FS.Stat(env.Abs(target)); err != nil {
			env.Errorf("failed to access %s: %s", env.QuoteAF(target), ErrText(err))
			continue
		}
		env.Errorf("failed to create hard link %s => %s: %s", env.QuoteAF(links[i]), env.QuoteAF(target), lnRefusal)
	}
	return 1
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
