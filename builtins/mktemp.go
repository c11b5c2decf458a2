package builtins

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

var _ = register(Builtin{Name: "mktemp", Summary: "create a temporary file or directory", Run: mktemp})

const mktempHelp = `Create a temporary file or directory, safely, and print its name.
TEMPLATE must contain at least 3 consecutive 'X's in last component.
If TEMPLATE is not specified, use tmp.XXXXXXXXXX, and --tmpdir is implied.
Files are created u+rw, and directories u+rwx.

Outside the granted trees a temporary file or directory is virtual: it is
held in the session's memory and gone when it ends (under --strict, refused).`

// mktempConfig is what mktemp's command line asks for.
type mktempConfig struct {
	dir, dry, quiet bool
	legacyT         bool // -t
	suffix          string
	suffixSet       bool
	tmpdir          string // -p, --tmpdir
	tmpdirSet       bool
	template        string // the name up to its last X
	xs              int    // the number of Xs at its end
}

func mktemp(env *Env) int {
	c, status := mktempParse(env)
	if c == nil {
		return status
	}
	if !c.resolve(env) {
		return 1
	}
	return c.run(env)
}

// mktempParse reads mktemp's options and template; on nil it returns the
// exit status.
func mktempParse(env *Env) (*mktempConfig, int) {
	c := &mktempConfig{}
	f := NewFlags(env, mktempHelp, "[OPTION]... [TEMPLATE]")
	f.BoolVar(&c.dir, 'd', "directory", "create a directory, not a file")
	f.BoolVar(&c.dry, 'u', "dry-run", "do not create anything; merely print a name (unsafe)")
	f.BoolVar(&c.quiet, 'q', "quiet", "suppress diagnostics about file/dir-creation failure")
	suffix, suffixSet := f.String(0, "suffix", "SUFF", "append SUFF to TEMPLATE; SUFF must not contain a slash")
	setTmpdir := func(v string, present bool) error {
		c.tmpdirSet = true
		if present {
			c.tmpdir = v
		}
		return nil
	}
	f.Func('p', "", RequiredArg, "DIR", "use DIR as a prefix (as --tmpdir=DIR)", setTmpdir)
	f.Func(0, "tmpdir", OptionalArg, "DIR", "interpret TEMPLATE relative to DIR; if DIR is not specified, use $TMPDIR if set, else /tmp", setTmpdir)
	f.BoolVar(&c.legacyT, 't', "", "interpret TEMPLATE as a single file name component, relative to a directory: $TMPDIR, if set; else the directory specified via -p; else /tmp (deprecated)")
	ops, err := f.Parse(env.Args[1:])
	if err != nil {
		return nil, f.Fail(err, 1)
	}
	if len(ops) > 1 {
		return nil, f.Fail(&UsageError{"too many templates"}, 1)
	}
	c.template = "tmp.XXXXXXXXXX"
	if len(ops) == 1 {
		c.template = ops[0]
	} else {
		c.tmpdirSet = true
	}
	c.suffix, c.suffixSet = *suffix, *suffixSet
	return c, 0
}

// mktempSuffixHasDir is GNU's test last_component(suffix) != suffix: a
// suffix that starts with a slash or has a name after one ("q/" passes,
// and the file cannot be made).
func mktempSuffixHasDir(s string) bool {
	if strings.HasPrefix(s, "/") {
		return true
	}
	i := strings.IndexByte(s, '/')
	return i >= 0 && strings.TrimLeft(s[i:], "/") != ""
}

// resolve splits the suffix off the template, checks it, and puts it in
// its directory; on false it has reported why not.
func (c *mktempConfig) resolve(env *Env) bool {
	fail := func(format string, args ...any) bool {
		env.Errorf(format, args...)
		return false
	}
	envTmp := ""
	for _, kv := range env.Environ {
		if v, ok := strings.CutPrefix(kv, "TMPDIR="); ok {
			envTmp = v
		}
	}
	if c.suffixSet {
		if !strings.HasSuffix(c.template, "X") {
			return fail("with --suffix, template %s must end in X", env.Quote(c.template))
		}
	} else {
		// Without --suffix, what follows the last X is the suffix.
		i := strings.LastIndexByte(c.template, 'X')
		c.suffix = c.template[i+1:]
		c.template = c.template[:i+1]
	}
	if mktempSuffixHasDir(c.suffix) {
		return fail("invalid suffix %s, contains directory separator", env.Quote(c.suffix))
	}
	c.xs = len(c.template) - len(strings.TrimRight(c.template, "X"))
	if c.xs < 3 {
		return fail("too few X's in template %s", env.Quote(c.template+c.suffix))
	}
	switch {
	case c.legacyT:
		if strings.Contains(c.template, "/") {
			return fail("invalid template, %s, contains directory separator", env.Quote(c.template+c.suffix))
		}
		base := envTmp
		if base == "" {
			base = c.tmpdir
		}
		if base == "" {
			base = "/tmp"
		}
		c.template = mktempJoin(base, c.template)
	case c.tmpdirSet:
		if strings.HasPrefix(c.template, "/") {
			return fail("invalid template, %s; with --tmpdir, it may not be absolute", env.Quote(c.template+c.suffix))
		}
		base := c.tmpdir
		if base == "" {
			base = envTmp
		}
		if base == "" {
			base = "/tmp"
		}
		c.template = mktempJoin(base, c.template)
	}
	return true
}

// mktempJoin is gnulib's file_name_concat: dir's trailing slashes become
// one ("./x" from ".//"), a dir of slashes only is kept ("/x", "//x"),
// nothing else of dir is cleaned.
func mktempJoin(dir, name string) string {
	d := strings.TrimRight(dir, "/")
	if d == "" {
		return dir + name
	}
	return d + "/" + name
}

// run tries names made from the template until one can be created.
func (c *mktempConfig) run(env *Env) int {
	prefix := c.template[:len(c.template)-c.xs]
	const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	what := "file"
	if c.dir {
		what = "directory"
	}
	var lastErr error
	for try := 0; try < 100; try++ {
		if env.Ctx.Err() != nil {
			return 1
		}
		b := make([]byte, c.xs)
		rand.Read(b)
		for i := range b {
			b[i] = chars[int(b[i])%len(chars)]
		}
		name := prefix + string(b) + c.suffix
		retry, err := mktempTry(env, name, c.dir, c.dry)
		if err == nil {
			fmt.Fprintln(env.Stdout, name)
			return 0
		}
		lastErr = err
		if !retry {
			break
		}
	}
	if !c.quiet {
		env.Errorf("failed to create %s via template %s: %s", what, env.Quote(c.template+c.suffix), ErrText(lastErr))
	}
	return 1
}

// mktempTry makes one attempt at creating name (a directory if dir; only
// checking that it is free if dry). retry says whether another name may
// do better: the name existed.
func mktempTry(env *Env, name string, dir, dry bool) (retry bool, err error) {
	abs := env.Abs(name)
	// vfsd has no exclusive create: a name that can be described
	// exists (outside the grants a missing name is not describable,
	// and is then created as a virtual file).
	if _, err := env.FS.Lstat(abs); err == nil {
		return true, fs.ErrExist
	}
	if dry {
		return false, nil
	}
	if dir {
		err = env.FS.Mkdir(abs, 0o700)
	} else {
		var fh File
		if fh, err = env.FS.OpenFile(abs, os.O_WRONLY|os.O_CREATE|os.O_TRUNC); err == nil {
			if err = fh.Close(); err == nil {
				err = env.FS.Chmod(abs, 0o600)
			}
		}
	}
	return errors.Is(err, fs.ErrExist), err
}
