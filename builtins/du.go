package builtins

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "du", Summary: "estimate file space usage", Run: du})

const duHelp = `Summarize the space used by each FILE, recursively for directories.

vfsd does not reveal allocated blocks: disk usage is estimated as GNU du
sees it on a file system of 4 KiB blocks without sparse files (each file's
size rounded up to 4096 bytes, a directory at least 4096, a symbolic link
0), the same estimate as stat's %b. --apparent-size (and -b) sum the sizes
in bytes instead. Totals are shown in 1024-byte units rounded up (or bytes
with -b, human-readable with -h).
Symbolic links are counted, not followed, unless -L (every link) or -H
(the FILE operands) says so. A file met twice (two hard links, a
directory reached again through a link under -L) is counted and shown
once, by vfsd's file identity, as GNU du counts an inode once.`

func du(env *Env) int {
	f := NewFlags(env, duHelp, "[OPTION]... [FILE]...")
	all := f.Bool('a', "all", "write counts for all files, not just directories")
	apparent := f.Bool(0, "apparent-size", "print apparent sizes rather than disk usage")
	bytes := f.Bool('b', "bytes", "equivalent to '--apparent-size --block-size=1'")
	total := f.Bool('c', "total", "produce a grand total")
	human := f.Bool('h', "human-readable", "print sizes in human readable format (e.g., 1K 234M 2G)")
	unit := int64(1024)
	f.Func('k', "", NoArg, "", "like --block-size=1K", func(string, bool) error { unit = 1024; return nil })
	f.Func('m', "", NoArg, "", "like --block-size=1M", func(string, bool) error { unit = 1 << 20; return nil })
	summarize := f.Bool('s', "summarize", "display only a total for each argument")
	maxDepth := -1
	f.Func('d', "max-depth", RequiredArg, "N", "print the total for a directory only if it is N or fewer levels below the command line argument", func(v string, _ bool) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return &UsageError{"invalid maximum depth " + gnu.Quote(v)}
		}
		maxDepth = n
		return nil
	})
	zero := f.Bool('0', "null", "end each output line with NUL, not newline")
	deref := f.Bool('L', "dereference", "dereference all symbolic links")
	derefArgs := f.Bool('H', "", "equivalent to --dereference-args (-D)")
	f.BoolVar(derefArgs, 'D', "dereference-args", "dereference only symlinks that are listed on the command line")
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if *summarize {
		if maxDepth > 0 {
			env.Errorf("warning: summarizing conflicts with --max-depth=%d", maxDepth)
			fmt.Fprintf(env.Stderr, "Try '%s --help' for more information.\n", env.Name())
			return 1
		}
		maxDepth = 0
	}
	if *bytes {
		unit, *apparent = 1, true
	}
	if len(files) == 0 {
		files = []string{"."}
	}
	w := bufio.NewWriter(env.Stdout)
	end := "\n"
	if *zero {
		end = "\x00"
	}
	d := &duWalker{env: env, w: w, all: *all, human: *human, apparent: *apparent, unit: unit, maxDepth: maxDepth, end: end,
		seen: map[string]bool{}, ids: map[string]bool{}, deref: *deref, dirs: newDirAhead(env, false)}
	d.dirs.tree = true
	var grand int64
	for _, name := range files {
		if env.Ctx.Err() != nil {
			w.Flush()
			return 1
		}
		abs := env.Abs(name)
		var fi fs.FileInfo
		if *deref || *derefArgs {
			fi, err = env.FS.Stat(abs)
		} else {
			fi, err = lstatOperand(env, name)
		}
		if err != nil {
			w.Flush()
			d.cannotAccess(name, abs, err)
			d.status = 1
			continue
		}
		if d.seen[abs] {
			continue
		}
		grand += d.walk(name, abs, fi, 0)
	}
	if *total {
		d.print(grand, "total")
	}
	return finishOutputAs(env, w, d.status, wroteFlushed) // GNU du flushes each line
}

type duWalker struct {
	env      *Env
	dirs     *dirAhead
	w        *bufio.Writer
	all      bool
	human    bool
	apparent bool // sizes rather than estimated disk usage
	unit     int64
	maxDepth int
	end      string
	seen     map[string]bool
	ids      map[string]bool // file identities counted (hard links once)
	deref    bool            // -L
	status   int
}

// usage is what fi counts for: its size with --apparent-size, else its
// estimated allocation.
func (d *duWalker) usage(fi fs.FileInfo) int64 {
	if d.apparent {
		return fi.Size()
	}
	return statBlocks(fi) * 512
}

// walk returns the usage of name (absolute abs) and prints the lines due
// for it and below it.
func (d *duWalker) walk(name, abs string, fi fs.FileInfo, depth int) int64 {
	d.seen[abs] = true
	if id, ok := fi.(interface{ FileID() string }); ok && id.FileID() != "" {
		if d.ids[id.FileID()] {
			return 0
		}
		d.ids[id.FileID()] = true
	}
	size := d.usage(fi)
	shown := d.maxDepth < 0 || depth <= d.maxDepth
	if !fi.IsDir() {
		if depth == 0 || (d.all && shown) {
			d.print(size, name)
		}
		return size
	}
	entries, err := d.dirs.readDir(abs)
	if err != nil {
		d.w.Flush()
		d.env.Errorf("cannot read directory %s: %s", gnu.QuoteAF(name), ErrText(err))
		d.status = 1
	}
	cabss := make([]string, len(entries))
	for i, e := range entries {
		cabss[i] = path.Join(abs, e.Name())
	}
	// The entries are described all together (from the listing, or with
	// their round trips to vfsd overlapping), and walked in order.
	cfis, errs := entryInfos(d.env, abs, entries, d.deref)
	var subdirs []string
	for i, cfi := range cfis {
		if errs[i] == nil && cfi.IsDir() {
			subdirs = append(subdirs, cabss[i])
		}
	}
	defer d.dirs.forget(d.dirs.ahead(subdirs))
	for i, e := range entries {
		if d.env.Ctx.Err() != nil {
			d.status = 1
			return size
		}
		cabs := cabss[i]
		if d.seen[cabs] {
			continue
		}
		cname := joinPath(name, e.Name())
		cfi, err := cfis[i], errs[i]
		if err != nil {
			d.w.Flush()
			d.cannotAccess(cname, cabs, err)
			d.status = 1
			continue
		}
		size += d.walk(cname, cabs, cfi, depth+1)
	}
	if shown {
		d.print(size, name)
	}
	return size
}

// cannotAccess reports a file that could not be described; a dangling
// link followed under -L or -H gets GNU's message without a reason.
func (d *duWalker) cannotAccess(name, abs string, err error) {
	if errors.Is(err, fs.ErrNotExist) {
		if li, lerr := d.env.FS.Lstat(abs); lerr == nil && li.Mode()&fs.ModeSymlink != 0 {
			d.env.Errorf("cannot access %s", gnu.QuoteAF(name))
			return
		}
	}
	d.env.fileErrorf("cannot access", name, err)
}

func (d *duWalker) print(size int64, name string) {
	var s string
	switch {
	case d.human:
		s = gnu.HumanCeil(size)
	default:
		s = strconv.FormatInt((size+d.unit-1)/d.unit, 10)
	}
	d.w.WriteString(s + "\t" + name + d.end)
}
