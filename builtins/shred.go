package builtins

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "shred", Summary: "overwrite a file to hide its contents, and optionally delete it", Run: shredCmd})

// shredBlock is the block size a regular file's size is rounded up to
// without -x (st_blksize of the usual file systems).
const shredBlock = 4096

// shredPatterns are the fixed patterns of passes beyond the random ones
// (a subset of GNU's table, as three-byte patterns).
var shredPatterns = [][3]byte{{0, 0, 0}, {0xff, 0xff, 0xff}, {0x55, 0x55, 0x55}, {0xaa, 0xaa, 0xaa},
	{0x24, 0x92, 0x49}, {0x49, 0x24, 0x92}, {0x92, 0x49, 0x24}, {0x6d, 0xb6, 0xdb}, {0xb6, 0xdb, 0x6d}, {0xdb, 0x6d, 0xb6}}

// shredNameSet is what wiped names are made of (GNU's nameset).
const shredNameSet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_."

// shredCmd is coreutils 9.1's shred, through vfsd: each file is
// overwritten in place, -n times with random data (and fixed patterns
// when there are more than three passes), then with zeros under -z, and
// -u renames it to shorter and shorter names of zeros before removing it.
// GNU orders the pattern passes at random; llmsh takes them in order.
func shredCmd(env *Env) int {
	f := NewFlags(env, "Overwrite the specified FILE(s) repeatedly, in order to make it harder\n"+
		"for even very expensive hardware probing to recover the data.\n\nIf FILE is -, shred standard output.", "[OPTION]... FILE...")
	force := f.Bool('f', "force", "change permissions to allow writing if necessary")
	passes := 3
	f.Func('n', "iterations", RequiredArg, "N", "overwrite N times instead of the default (3)", func(v string, _ bool) error {
		n, e := gnu.ParseSize(v, 10, "")
		if e != 0 || n > 1<<31 {
			return fmt.Errorf("invalid number of passes: %s", env.Quote(v))
		}
		passes = int(n)
		return nil
	})
	f.String(0, "random-source", "FILE", "get random bytes from FILE")
	size := int64(-1)
	f.Func('s', "size", RequiredArg, "N", "shred this many bytes (suffixes like K, M, G accepted)", func(v string, _ bool) error {
		n, e := gnu.ParseSize(v, 10, "bEGKkMmPTYZ0")
		if e != 0 || n > 1<<62 {
			return fmt.Errorf("invalid file size: %s", env.Quote(v))
		}
		size = int64(n)
		return nil
	})
	remove := ""
	f.Func('u', "", NoArg, "", "deallocate and remove file after overwriting", func(string, bool) error { remove = "wipesync"; return nil })
	f.Func(0, "remove", OptionalArg, "HOW", "like -u but give control on HOW to delete;  See below", func(v string, present bool) error {
		switch {
		case !present:
			remove = "wipesync"
		default:
			words := []string{"unlink", "wipe", "wipesync"}
			i, err := lsArgMatch(env, "--remove", v, words, lsSeq(len(words)))
			if err != nil {
				return err
			}
			remove = words[i]
		}
		return nil
	})
	verbose := f.Bool('v', "verbose", "show progress")
	exact := f.Bool('x', "exact", "do not round file sizes up to the next full block;\nthis is the default for non-regular files")
	zero := f.Bool('z', "zero", "add a final overwrite with zeros to hide shredding")
	version := versionOption(f)
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		if _, ok := usageMessage(err); !ok && !errors.Is(err, ErrHelp) {
			env.Errorf("%s", err)
			if strings.Contains(err.Error(), "--remove") {
				fmt.Fprintf(env.Stderr, "Try '%s --help' for more information.\n", env.Name())
			}
			return 1
		}
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	if len(args) == 0 {
		return f.Fail(&UsageError{"missing file operand"}, 1)
	}
	s := &shredder{env: env, passes: passes, size: size, exact: *exact, zero: *zero, verbose: *verbose, force: *force}
	status := 0
	for _, name := range args {
		if err := env.Ctx.Err(); err != nil {
			return writeFailed(env, gnu.ErrCancelled)
		}
		if !s.file(name) {
			status = 1
			continue
		}
		if remove != "" && !s.remove(name, remove) {
			status = 1
		}
	}
	return status
}

type shredder struct {
	env                         *Env
	passes                      int
	size                        int64
	exact, zero, verbose, force bool
}

// file overwrites name; it reports success.
func (s *shredder) file(name string) bool {
	env := s.env
	if name == "-" {
		env.Errorf("-: llmsh cannot shred standard output (it is not a file of the script's)")
		return false
	}
	abs := env.Abs(name)
	fi, err := env.FS.Stat(abs)
	if err == nil && fi.IsDir() {
		err = &fs.PathError{Op: "open", Path: abs, Err: syscall.EISDIR}
	}
	if err == nil && fi.Mode().Perm()&0o200 == 0 && s.force {
		err = env.FS.Chmod(abs, fi.Mode().Perm()|0o200)
	}
	var out File
	if err == nil {
		out, err = env.FS.OpenFile(abs, os.O_RDWR|os.O_CREATE)
	}
	if err != nil {
		env.Errorf("%s: failed to open for writing: %s", env.QuoteF(name), ErrText(err))
		return false
	}
	defer out.Close()
	n := s.size
	if n < 0 {
		n = fi.Size()
		if !s.exact && n%shredBlock != 0 {
			n += shredBlock - n%shredBlock
		}
	}
	total := s.passes
	if s.zero {
		total++
	}
	buf := make([]byte, 64<<10)
	for p := 0; p < total; p++ {
		random, pat := true, [3]byte{}
		if s.zero && p == total-1 {
			random = false
		} else if s.passes > 3 && p%2 == 1 && p != s.passes-1 {
			// The fixed patterns between random passes.
			random, pat = false, shredPatterns[(p/2)%len(shredPatterns)]
		}
		if s.verbose {
			label := "random"
			if !random {
				label = fmt.Sprintf("%02x%02x%02x", pat[0], pat[1], pat[2])
			}
			env.Errorf("%s: pass %d/%d (%s)...", env.QuoteF(name), p+1, total, label)
		}
		if _, err := out.Seek(0, io.SeekStart); err != nil {
			env.Errorf("%s: cannot rewind: %s", env.QuoteF(name), ErrText(err))
			return false
		}
		if !random {
			for i := range buf {
				buf[i] = pat[i%3]
			}
		}
		for left := n; left > 0; {
			chunk := buf[:min(int64(len(buf)), left)]
			if random {
				rand.Read(chunk)
			}
			if _, err := out.Write(chunk); err != nil {
				env.Errorf("%s: error writing at offset %d: %s", env.QuoteF(name), n-left, ErrText(err))
				return false
			}
			left -= int64(len(chunk))
			if env.Ctx.Err() != nil {
				return false
			}
		}
	}
	return true
}

// remove removes name, first renaming it to names of zeros of each
// length down to one (how "wipe"/"wipesync" hide the name), as GNU's
// wipename.
func (s *shredder) remove(name, how string) bool {
	env := s.env
	if s.verbose {
		env.Errorf("%s: removing", env.QuoteF(name))
	}
	cur := name
	if how != "unlink" {
		dir, base := path.Split(name)
		for l := len(base); l >= 1; l-- {
			next, ok := s.freeName(dir, l)
			if !ok {
				continue
			}
			if err := env.FS.Rename(env.Abs(cur), env.Abs(next)); err != nil {
				continue
			}
			if s.verbose {
				env.Errorf("%s: renamed to %s", env.QuoteF(cur), env.QuoteF(next))
			}
			cur = next
		}
	}
	if err := env.FS.Remove(env.Abs(cur)); err != nil {
		env.Errorf("%s: failed to remove: %s", env.QuoteF(name), ErrText(err))
		return false
	}
	if s.verbose {
		env.Errorf("%s: removed", env.QuoteF(name))
	}
	return true
}

// freeName is the first name of length l in dir, counting up from "00…0"
// over shredNameSet, that names nothing.
func (s *shredder) freeName(dir string, l int) (string, bool) {
	digits := make([]int, l)
	for tries := 0; tries < 1000; tries++ {
		b := make([]byte, l)
		for i, d := range digits {
			b[i] = shredNameSet[d]
		}
		cand := dir + string(b)
		if _, err := s.env.FS.Lstat(s.env.Abs(cand)); errors.Is(err, fs.ErrNotExist) {
			return cand, true
		}
		for i := l - 1; i >= 0; i-- {
			digits[i]++
			if digits[i] < len(shredNameSet) {
				break
			}
			digits[i] = 0
		}
	}
	return "", false
}
