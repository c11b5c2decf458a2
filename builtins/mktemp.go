package builtins

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

func init() {
	Register(Builtin{Name: "mktemp", Summary: "create a temporary file or directory", Run: mktemp})
}

const mktempHelp = `Create a temporary file or directory, safely, and print its name.
TEMPLATE must contain at least 3 consecutive 'X's in last component.
If TEMPLATE is not specified, use tmp.XXXXXXXXXX, and --tmpdir is implied.
Files are created u+rw, and directories u+rwx.

Outside the granted trees a temporary file or directory is virtual: it is
held in the session's memory and gone when it ends (under --strict, refused).
llmsh's placeholder TMPDIR (/nonexistent-llmsh-tmp, which keeps the
interpreter off the host) counts as unset: the default directory is /tmp.`

// mktempPlaceholder is the TMPDIR that llmsh's shell sets for its own
// protection (shell/shell.go); mktemp treats it as unset.
const mktempPlaceholder = "/nonexistent-llmsh-tmp"

func mktemp(env *Env) int {
	f := NewFlags(env, mktempHelp, "[OPTION]... [TEMPLATE]")
	dir := f.Bool('d', "directory", "create a directory, not a file")
	dry := f.Bool('u', "dry-run", "do not create anything; merely print a name (unsafe)")
	quiet := f.Bool('q', "quiet", "suppress diagnostics about file/dir-creation failure")
	suffix, suffixSet := f.String(0, "suffix", "SUFF", "append SUFF to TEMPLATE; SUFF must not contain a slash")
	var tmpdir string
	tmpdirSet := false
	setTmpdir := func(v string, present bool) error {
		tmpdirSet = true
		if present {
			tmpdir = v
		}
		return nil
	}
	f.Func('p', "", RequiredArg, "DIR", "use DIR as a prefix (as --tmpdir=DIR)", setTmpdir)
	f.Func(0, "tmpdir", OptionalArg, "DIR", "interpret TEMPLATE relative to DIR; if DIR is not specified, use $TMPDIR if set, else /tmp", setTmpdir)
	legacyT := f.Bool('t', "", "interpret TEMPLATE as a single file name component, relative to a directory: $TMPDIR, if set; else the directory specified via -p; else /tmp (deprecated)")
	ops, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	fail := func(format string, args ...any) int {
		env.Errorf(format, args...)
		return 1
	}
	if len(ops) > 1 {
		return f.Fail(&UsageError{"too many templates"}, 1)
	}
	template := "tmp.XXXXXXXXXX"
	if len(ops) == 1 {
		template = ops[0]
	} else {
		tmpdirSet = true
	}
	envTmp := ""
	for _, kv := range env.Environ {
		if v, ok := strings.CutPrefix(kv, "TMPDIR="); ok && v != mktempPlaceholder {
			envTmp = v
		}
	}
	if *suffixSet {
		if strings.Contains(*suffix, "/") {
			return fail("invalid suffix %s, contains directory separator", gnu.Quote(*suffix))
		}
	} else {
		// Without --suffix, what follows the last X is the suffix.
		i := strings.LastIndexByte(template, 'X')
		*suffix = template[i+1:]
		template = template[:i+1]
	}
	xs := len(template) - len(strings.TrimRight(template, "X"))
	if xs < 3 {
		return fail("too few X's in template %s", gnu.Quote(template+*suffix))
	}
	switch {
	case *legacyT:
		if strings.Contains(template, "/") {
			return fail("invalid template, %s, contains directory separator", gnu.Quote(template+*suffix))
		}
		base := envTmp
		if base == "" {
			base = tmpdir
		}
		if base == "" {
			base = "/tmp"
		}
		template = path.Join(base, template)
	case tmpdirSet:
		if strings.HasPrefix(template, "/") {
			return fail("invalid template, %s; with --tmpdir, it may not be absolute", gnu.Quote(template+*suffix))
		}
		base := tmpdir
		if base == "" {
			base = envTmp
		}
		if base == "" {
			base = "/tmp"
		}
		template = strings.TrimSuffix(base, "/") + "/" + template
	}
	prefix := template[:len(template)-xs]
	const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	what := "file"
	if *dir {
		what = "directory"
	}
	var lastErr error
	for try := 0; try < 100; try++ {
		if env.Ctx.Err() != nil {
			return 1
		}
		b := make([]byte, xs)
		rand.Read(b)
		for i := range b {
			b[i] = chars[int(b[i])%len(chars)]
		}
		name := prefix + string(b) + *suffix
		retry, err := mktempTry(env, name, *dir, *dry)
		if err == nil {
			fmt.Fprintln(env.Stdout, name)
			return 0
		}
		lastErr = err
		if !retry {
			break
		}
	}
	if !*quiet {
		env.Errorf("failed to create %s via template %s: %s", what, gnu.Quote(template+*suffix), ErrText(lastErr))
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
