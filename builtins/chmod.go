package builtins

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"syscall"
)

var _ = register(Builtin{Name: "chmod", Summary: "change file mode bits", Run: chmod})

const chmodHelp = `Change the mode of each FILE to MODE.
With --reference, change the mode of each FILE to that of RFILE.

Each MODE is of the form '[ugoa]*([-+=]([rwxXst]*|[ugo]))+|[-+=]?[0-7]+'.

Modes change only inside trees granted writable (-o), never on a granted
directory itself; llmsh's umask is 022. Setting the setuid, setgid or
sticky bit is refused ("Operation not permitted"): vfsd sets permission
bits only. Symbolic links met during -R are skipped, as GNU chmod does.`

func chmod(env *Env) int {
	// GNU accepts modes that look like options ("chmod -w f", "chmod
	// -R -x,o+r d"): an argument before "--" whose option letters reach a
	// mode letter is taken whole as a MODE.
	var dashModes []string
	args := make([]string, 0, len(env.Args)-1)
	for i, a := range env.Args[1:] {
		if a == "--" {
			args = append(args, env.Args[1+i:]...)
			break
		}
		if chmodDashMode(a) {
			dashModes = append(dashModes, a)
			continue
		}
		args = append(args, a)
	}
	f := NewFlags(env, chmodHelp, "[OPTION]... MODE[,MODE]... FILE...", "[OPTION]... OCTAL-MODE FILE...", "[OPTION]... --reference=RFILE FILE...")
	changes := f.Bool('c', "changes", "like verbose but report only when a change is made")
	silent := f.Bool('f', "silent", "suppress most error messages")
	f.BoolVar(silent, 0, "quiet", "suppress most error messages")
	verbose := f.Bool('v', "verbose", "output a diagnostic for every file processed")
	preserveRoot := false
	f.Func(0, "no-preserve-root", NoArg, "", "do not treat '/' specially (the default)", func(string, bool) error { preserveRoot = false; return nil })
	f.Func(0, "preserve-root", NoArg, "", "fail to operate recursively on '/'", func(string, bool) error { preserveRoot = true; return nil })
	ref, refSet := f.String(0, "reference", "RFILE", "use RFILE's mode instead of specifying MODE values")
	recursive := f.Bool('R', "recursive", "change files and directories recursively")
	ops, err := f.Parse(args)
	if err != nil {
		return f.Fail(err, 1)
	}
	mode := strings.Join(dashModes, ",")
	if !*refSet && len(dashModes) == 0 {
		if len(ops) == 0 {
			return f.Fail(&UsageError{"missing operand"}, 1)
		}
		mode, ops = ops[0], ops[1:]
	}
	if len(ops) == 0 {
		if *refSet || len(dashModes) > 0 {
			return f.Fail(&UsageError{"missing operand"}, 1)
		}
		return f.Fail(&UsageError{"missing operand after " + env.Quote(mode)}, 1)
	}
	c := &chmodRun{env: env, silent: *silent, recursive: *recursive, diagnose: len(dashModes) > 0}
	switch {
	case *refSet:
		fi, err := env.FS.Stat(env.Abs(*ref))
		if err != nil {
			env.Errorf("failed to get attributes of %s: %s", env.QuoteAF(*ref), ErrText(err))
			return 1
		}
		c.changes = []modeChange{{op: '=', who: 0o7777, value: uint32(fi.Mode().Perm()), mentioned: 0o7777}}
	default:
		var ok bool
		if c.changes, ok = compileMode(mode); !ok {
			return f.Fail(&UsageError{"invalid mode: " + env.Quote(mode)}, 1)
		}
	}
	switch {
	case *verbose:
		c.verbose = 2
	case *changes:
		c.verbose = 1
	}
	for _, name := range ops {
		if env.Ctx.Err() != nil {
			return 1
		}
		abs := env.Abs(name)
		if *recursive && preserveRoot && abs == "/" {
			env.Errorf("it is dangerous to operate recursively on '/'")
			env.Errorf("use --no-preserve-root to override this failsafe")
			c.status = 1
			continue
		}
		fi, err := env.FS.Stat(abs)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				if li, lerr := env.FS.Lstat(abs); lerr == nil && li.Mode()&fs.ModeSymlink != 0 {
					c.dangling(name)
					continue
				}
			}
			c.noStat(name, err)
			continue
		}
		c.visit(name, abs, fi)
	}
	return c.status
}

// chmodDashMode reports whether a, an argument before "--", is a mode
// spelled like an option: GNU's getopt string makes every mode letter an
// option taking the rest of the argument.
func chmodDashMode(a string) bool {
	if len(a) < 2 || a[0] != '-' || a[1] == '-' {
		return false
	}
	for i := 1; i < len(a); i++ {
		switch {
		case strings.IndexByte("rwxXstugoa,+=01234567", a[i]) >= 0:
			return true
		case strings.IndexByte("Rcfv", a[i]) < 0:
			return false
		}
	}
	return false
}

// chmodRun is one chmod invocation.
type chmodRun struct {
	env       *Env
	changes   []modeChange
	silent    bool
	recursive bool
	diagnose  bool // a mode given as an option: report umask surprises
	verbose   int  // 1: -c, 2: -v
	status    int
}

func (c *chmodRun) noStat(name string, err error) {
	if !c.silent {
		c.env.fileErrorf("cannot access", name, err)
	}
	if c.verbose == 2 {
		fmt.Fprintf(c.env.Stdout, "%s could not be accessed\n", c.env.QuoteAF(name))
	}
	c.status = 1
}

// dangling reports a named link whose target does not exist, in GNU's
// words.
func (c *chmodRun) dangling(name string) {
	if !c.silent {
		c.env.Errorf("cannot operate on dangling symlink %s", c.env.QuoteAF(name))
	}
	if c.verbose == 2 {
		fmt.Fprintf(c.env.Stdout, "%s could not be accessed\n", c.env.QuoteAF(name))
	}
	c.status = 1
}

// visit changes name (described by fi, links followed) and, with -R, the
// tree below it, a directory before its entries as GNU does.
func (c *chmodRun) visit(name, abs string, fi fs.FileInfo) {
	env := c.env
	old := fi.Mode().Perm() | fi.Mode()&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky)
	oldBits := modeBits(old)
	newBits := adjustMode(c.changes, oldBits, fi.IsDir(), uint32(defaultUmask))
	switch {
	case newBits == oldBits:
		if c.verbose == 2 {
			fmt.Fprintf(env.Stdout, "mode of %s retained as %04o (%s)\n", env.QuoteAF(name), oldBits, permString(oldBits))
		}
		c.surprise(name, oldBits, newBits, fi.IsDir())
	default:
		var err error
		if newBits&^oldBits&0o7000 != 0 {
			err = syscall.EPERM // setuid, setgid, sticky: never set
		} else {
			err = env.FS.Chmod(abs, fs.FileMode(newBits&0o777))
		}
		if err != nil {
			if !c.silent {
				env.fileErrorf("changing permissions of", name, err)
			}
			if c.verbose == 2 {
				fmt.Fprintf(env.Stdout, "failed to change mode of %s from %04o (%s) to %04o (%s)\n",
					env.QuoteAF(name), oldBits, permString(oldBits), newBits, permString(newBits))
			}
			c.status = 1
			break
		}
		if c.verbose > 0 {
			fmt.Fprintf(env.Stdout, "mode of %s changed from %04o (%s) to %04o (%s)\n",
				env.QuoteAF(name), oldBits, permString(oldBits), newBits, permString(newBits))
		}
		c.surprise(name, oldBits, newBits, fi.IsDir())
	}
	if !c.recursive || !fi.IsDir() {
		return
	}
	entries, err := env.FS.ReadDir(abs)
	if err != nil {
		if !c.silent {
			env.Errorf("cannot read directory %s: %s", env.QuoteAF(name), ErrText(err))
		}
		c.status = 1
		return
	}
	for _, e := range entries {
		if env.Ctx.Err() != nil {
			c.status = 1
			return
		}
		cname, cabs := joinPath(name, e.Name()), path.Join(abs, e.Name())
		cfi, err := env.FS.Lstat(cabs)
		if err != nil {
			c.noStat(cname, err)
			continue
		}
		if cfi.Mode()&fs.ModeSymlink != 0 {
			if c.verbose == 2 {
				fmt.Fprintf(env.Stdout, "neither symbolic link %s nor referent has been changed\n", env.QuoteAF(cname))
			}
			continue
		}
		c.visit(cname, cabs, cfi)
	}
}

// surprise reports, for a mode given as an option ("chmod -w f"), bits
// that the umask kept although the mode asked to clear them.
func (c *chmodRun) surprise(name string, oldBits, newBits uint32, isDir bool) {
	if !c.diagnose {
		return
	}
	naive := adjustMode(c.changes, oldBits, isDir, 0)
	if newBits&^naive != 0 {
		c.env.Errorf("%s: new permissions are %s, not %s", c.env.QuoteF(name), permString(newBits), permString(naive))
		c.status = 1
	}
}

// modeBits turns the permission and special bits of m into their Unix
// values (setuid 04000, setgid 02000, sticky 01000).
func modeBits(m fs.FileMode) uint32 {
	b := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		b |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		b |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		b |= 0o1000
	}
	return b
}

// permString is strmode's nine permission letters ("rwsr-xr-t").
func permString(b uint32) string {
	s := []byte("rwxrwxrwx")
	for i := 0; i < 9; i++ {
		if b&(1<<uint(8-i)) == 0 {
			s[i] = '-'
		}
	}
	special := func(bit uint32, i int, set byte) {
		if b&bit != 0 {
			if s[i] == 'x' {
				s[i] = set
			} else {
				s[i] = set - 'a' + 'A'
			}
		}
	}
	special(0o4000, 2, 's')
	special(0o2000, 5, 's')
	special(0o1000, 8, 't')
	return string(s)
}

// modeChange is one operation of a compiled mode (gnulib's
// mode_change): op is '+', '-' or '='; who the bits the "who" letters
// select (0 when none was given: the umask then limits the change);
// value the bits named; flag 'X' for X, 'c' for a copy of the existing
// u, g or o bits.
type modeChange struct {
	op        byte
	flag      byte
	who       uint32
	value     uint32
	mentioned uint32
}

// compileMode parses a chmod MODE as gnulib's mode_compile does.
func compileMode(s string) ([]modeChange, bool) {
	if s == "" {
		return nil, false
	}
	if s[0] >= '0' && s[0] <= '7' {
		n, err := strconv.ParseUint(s, 8, 32)
		if err != nil || n > 0o7777 {
			return nil, false
		}
		mentioned := uint32(0o7777)
		if len(s) < 5 {
			mentioned = uint32(n)&0o6000 | 0o1777
		}
		return []modeChange{{op: '=', who: 0o7777, value: uint32(n), mentioned: mentioned}}, true
	}
	var out []modeChange
	p := 0
	for {
		var who uint32
		for ; p < len(s); p++ {
			switch s[p] {
			case 'u':
				who |= 0o4700
			case 'g':
				who |= 0o2070
			case 'o':
				who |= 0o1007
			case 'a':
				who |= 0o7777
			default:
				goto ops
			}
		}
	ops:
		if p == len(s) || strings.IndexByte("=+-", s[p]) < 0 {
			return nil, false
		}
		for p < len(s) && strings.IndexByte("=+-", s[p]) >= 0 {
			ch := modeChange{op: s[p], who: who}
			p++
			if p < len(s) && strings.IndexByte("ugo", s[p]) >= 0 {
				ch.flag = 'c'
				switch s[p] {
				case 'u':
					ch.value = 0o700
				case 'g':
					ch.value = 0o070
				case 'o':
					ch.value = 0o007
				}
				p++
			} else {
			perms:
				for ; p < len(s); p++ {
					switch s[p] {
					case 'r':
						ch.value |= 0o444
					case 'w':
						ch.value |= 0o222
					case 'x':
						ch.value |= 0o111
					case 'X':
						ch.flag = 'X'
					case 's':
						ch.value |= 0o6000
					case 't':
						ch.value |= 0o1000
					default:
						break perms
					}
				}
			}
			ch.mentioned = ch.value
			if who != 0 {
				ch.mentioned &= who
			}
			out = append(out, ch)
		}
		if p == len(s) {
			return out, true
		}
		if s[p] != ',' {
			return nil, false
		}
		p++
	}
}

// adjustMode applies changes to the mode bits old (gnulib's mode_adjust).
func adjustMode(changes []modeChange, old uint32, isDir bool, umask uint32) uint32 {
	mode := old & 0o7777
	for _, ch := range changes {
		var omit uint32
		if isDir {
			omit = 0o6000 &^ ch.mentioned
		}
		value := ch.value
		switch ch.flag {
		case 'c':
			value &= mode
			var v uint32
			if value&0o444 != 0 {
				v |= 0o444
			}
			if value&0o222 != 0 {
				v |= 0o222
			}
			if value&0o111 != 0 {
				v |= 0o111
			}
			value |= v
		case 'X':
			if mode&0o111 != 0 || isDir {
				value |= 0o111
			}
		}
		limit := ch.who
		if limit == 0 {
			limit = ^umask
		}
		value &= limit &^ omit
		switch ch.op {
		case '=':
			var preserved uint32
			if ch.who != 0 {
				preserved = ^ch.who
			}
			preserved |= omit
			mode = mode&preserved | value
		case '+':
			mode |= value
		case '-':
			mode &^= value
		}
	}
	return mode & 0o7777
}
