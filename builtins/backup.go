package builtins

import (
	"fmt"
	"path"
	"strconv"
	"strings"
)

// How cp and mv back up a destination they replace (GNU's version
// control: --backup=CONTROL, -b with $VERSION_CONTROL).
const (
	backupNone = iota
	backupSimple
	backupExisting
	backupNumbered
)

// backupOpts is a command's backup choice: kind and the simple suffix.
type backupOpts struct {
	kind   int
	suffix string
}

// addBackupFlags registers -b, --backup[=CONTROL] and -S/--suffix on f;
// the returned function gives the choice once f is parsed.
func addBackupFlags(env *Env, f *Flags) func() (backupOpts, error) {
	var control string
	set, fromArg := false, false
	f.Func(0, "backup", OptionalArg, "CONTROL", "make a backup of each existing destination file", func(v string, present bool) error {
		set, fromArg, control = true, present, v
		return nil
	})
	f.Func('b', "", NoArg, "", "like --backup but does not accept an argument", func(string, bool) error {
		set, fromArg = true, false
		return nil
	})
	suffix, suffixSet := f.String('S', "suffix", "SUFFIX", "override the usual backup suffix")
	f.Epilog = backupHelp
	return func() (backupOpts, error) {
		b := backupOpts{suffix: "~"}
		if !set {
			return b, nil
		}
		if !*suffixSet {
			if s, ok := envLookup(env.Environ, "SIMPLE_BACKUP_SUFFIX"); ok {
				*suffix = s
			}
		}
		if *suffix != "" && !strings.Contains(*suffix, "/") {
			b.suffix = *suffix
		}
		name := "backup type"
		if !fromArg {
			name = "$VERSION_CONTROL"
			var ok bool
			if control, ok = envLookup(env.Environ, "VERSION_CONTROL"); !ok || control == "" {
				b.kind = backupExisting
				return b, nil
			}
		}
		kind, err := lsArgMatch(env, name, control,
			[]string{"none", "off", "simple", "never", "existing", "nil", "numbered", "t"},
			[]int{backupNone, backupNone, backupSimple, backupSimple, backupExisting, backupExisting, backupNumbered, backupNumbered})
		b.kind = kind
		return b, err
	}
}

// backupHelp is the paragraph GNU's --help gives the backup options.
const backupHelp = "The backup suffix is '~', unless set with --suffix or SIMPLE_BACKUP_SUFFIX.\n" +
	"The version control method may be selected via the --backup option or through\n" +
	"the VERSION_CONTROL environment variable.  Here are the values:\n\n" +
	"  none, off       never make backups (even if --backup is given)\n" +
	"  numbered, t     make numbered backups\n" +
	"  existing, nil   numbered if numbered backups exist, simple otherwise\n" +
	"  simple, never   always make simple backups"

// backupName is the name the existing file dst (absolute dabs) is
// renamed to, spelled as dst is.
func (b backupOpts) backupName(env *Env, dst, dabs string) string {
	if b.kind == backupSimple {
		return dst + b.suffix
	}
	base := path.Base(dabs) + ".~"
	highest := 0
	if entries, err := env.FS.ReadDir(path.Dir(dabs)); err == nil {
		for _, e := range entries {
			n, ok := strings.CutPrefix(e.Name(), base)
			if !ok || !strings.HasSuffix(n, "~") || len(n) < 2 || n[0] == '0' {
				continue
			}
			if v, err := strconv.Atoi(n[:len(n)-1]); err == nil && v > 0 && n[:len(n)-1] == strconv.Itoa(v) {
				highest = max(highest, v)
			}
		}
	}
	if highest == 0 && b.kind == backupExisting {
		return dst + b.suffix
	}
	return fmt.Sprintf("%s.~%d~", dst, highest+1)
}

// backup renames the existing dst to its backup name and returns that
// name; it says why when it cannot.
func (b backupOpts) backup(env *Env, dst, dabs string) (string, bool) {
	name := b.backupName(env, dst, dabs)
	if err := env.FS.Rename(dabs, env.Abs(name)); err != nil {
		env.Errorf("cannot backup %s: %s", env.QuoteAF(dst), ErrText(err))
		return "", false
	}
	return name, true
}

// confirm asks "NAME: overwrite 'dst'? " on stderr and reads the answer
// from stdin as GNU's yesno does: a line starting with y or Y is yes; no
// input is no. It reads byte by byte, leaving the rest of stdin unread.
func confirm(env *Env, dst string) bool {
	fmt.Fprintf(env.Stderr, "%s: overwrite %s? ", env.Name(), env.QuoteAF(dst))
	return yesno(env)
}

// yesno reads an answer from stdin as GNU's yesno does: a line starting
// with y or Y is yes; no input is no.
func yesno(env *Env) bool {
	if env.Stdin == nil {
		return false
	}
	var line []byte
	var c [1]byte
	for {
		n, err := env.Stdin.Read(c[:])
		if n == 1 {
			if c[0] == '\n' {
				break
			}
			line = append(line, c[0])
		}
		if err != nil {
			break
		}
	}
	return len(line) > 0 && (line[0] == 'y' || line[0] == 'Y')
}
