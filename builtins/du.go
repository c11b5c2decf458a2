package builtins

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"time"

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
	d := &duWalker{env: env, unit: 1024, seen: map[string]bool{}, ids: map[string]bool{}}
	o := &duOpts{maxDepth: -1}
	f := duFlags(env, d, o)
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if o.summarize && o.all {
		return f.Fail(&UsageError{"cannot both summarize and show all entries"}, 1)
	}
	if o.summarize {
		if o.maxDepth > 0 {
			return env.UsageErrorf(1, "warning: summarizing conflicts with --max-depth=%d", o.maxDepth)
		}
		o.maxDepth = 0
	}
	if st := d.setup(o.blockSpec, o.blockOpt, o.threshold, o.thresholdOpt); st != 0 {
		return st
	}
	if d.inodes && o.apparent {
		env.Errorf("warning: options --apparent-size and -b are ineffective with --inodes")
	}
	if o.showTime {
		if d.timeStyle, err = duTimeStyle(env, o.timeStyle, o.timeStyleSet); err != nil {
			return f.Fail(err, 1)
		}
	}
	if o.files0Set {
		if len(files) > 0 {
			return f.Fail(&UsageError{fmt.Sprintf("extra operand %s\nfile operands cannot be combined with --files0-from", env.QuoteAF(files[0]))}, 1)
		}
		var st int
		if files, st = duFiles0(env, o.files0); st != 0 && files == nil {
			return st
		}
		d.status = st
	} else if len(files) == 0 {
		files = []string{"."}
	}
	w := bufio.NewWriter(env.Stdout)
	d.end = "\n"
	if o.zero {
		d.end = "\x00"
	}
	d.w, d.all, d.apparent, d.maxDepth, d.deref = w, o.all, o.apparent, o.maxDepth, o.deref
	d.dirs = newDirAhead(env, false)
	d.dirs.tree = true
	var grand duSum
	for _, name := range files {
		if env.Ctx.Err() != nil {
			w.Flush()
			return 1
		}
		// GNU du shows an operand's trailing slashes as one ("d//" is
		// "d/", its files "d/f").
		for len(name) > 2 && strings.HasSuffix(name, "//") {
			name = name[:len(name)-1]
		}
		if d.excluded(name) {
			continue
		}
		if name == "" {
			env.Errorf("invalid zero-length file name")
			d.status = 1
			continue
		}
		abs := env.Abs(name)
		var fi fs.FileInfo
		if o.deref || o.derefArgs {
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
		if d.seen[abs] && !d.countLinks {
			continue
		}
		grand.add(d.walk(name, abs, fi, 0))
	}
	if o.total {
		d.print(grand, "total")
	}
	return finishOutputAs(env, w, d.status, wroteFlushed) // GNU du flushes each line
}

// duOpts are du's options that are not the walker's own.
type duOpts struct {
	all, apparent, total, summarize, zero bool
	deref, derefArgs, showTime            bool // -L, -H/-D, --time
	maxDepth                              int
	blockSpec, blockOpt                   string // -B's SIZE and how it was spelled
	threshold, thresholdOpt               string
	timeStyle, files0                     string
	timeStyleSet, files0Set               bool
}

// duFlags registers du's options: d's and o's.
func duFlags(env *Env, d *duWalker, o *duOpts) *Flags {
	f := NewFlags(env, duHelp, "[OPTION]... [FILE]...", "[OPTION]... --files0-from=F")
	f.BoolVar(&o.all, 'a', "all", "write counts for all files, not just directories")
	f.BoolVar(&o.apparent, 0, "apparent-size", "print apparent sizes rather than disk usage")
	f.Func('B', "block-size", RequiredArg, "SIZE", "scale sizes by SIZE before printing them; e.g.,\n"+
		"'-BM' prints sizes in units of 1,048,576 bytes;\nsee SIZE format below", func(v string, _ bool) error {
		o.blockSpec, o.blockOpt = v, duOptName(env.Args, 'B', "--bl", "--block-size")
		d.unit, d.suffix, d.human, d.unitSet = 1024, "", 0, true
		if v == "" {
			return errors.New(sizeArgError(env, gnu.SizeInvalid, o.blockOpt, v))
		}
		return nil
	})
	setUnit := func(u int64) func(string, bool) error {
		return func(string, bool) error {
			o.blockSpec, d.unit, d.suffix, d.human, d.unitSet = "", u, "", 0, true
			return nil
		}
	}
	f.Func('b', "bytes", NoArg, "", "equivalent to '--apparent-size --block-size=1'", func(string, bool) error {
		o.apparent = true
		return setUnit(1)("", false)
	})
	f.BoolVar(&o.total, 'c', "total", "produce a grand total")
	derefFlag := func(l, h bool) func(string, bool) error {
		return func(string, bool) error { o.deref, o.derefArgs = l, h; return nil }
	}
	f.Func('D', "dereference-args", NoArg, "", "dereference only symlinks that are listed on the command line", derefFlag(false, true))
	f.Func('d', "max-depth", RequiredArg, "N", "print the total for a directory (or file, with --all) only if it is\n"+
		"N or fewer levels below the command line argument; --max-depth=0 is the\nsame as --summarize", func(v string, _ bool) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return &UsageError{"invalid maximum depth " + env.Quote(v)}
		}
		o.maxDepth = n
		return nil
	})
	f.Func(0, "files0-from", RequiredArg, "F", "summarize device usage of the NUL-terminated file names specified\n"+
		"in file F; if F is -, then read names from standard input", func(v string, _ bool) error {
		o.files0, o.files0Set = v, true
		return nil
	})
	f.Func('H', "", NoArg, "", "equivalent to --dereference-args (-D)", derefFlag(false, true))
	f.Func('h', "human-readable", NoArg, "", "print sizes in human readable format (e.g., 1K 234M 2G)", func(string, bool) error {
		o.blockSpec, d.human, d.unitSet = "", 1024, true
		return nil
	})
	f.BoolVar(&d.inodes, 0, "inodes", "list inode usage information instead of block usage")
	f.Func('k', "", NoArg, "", "like --block-size=1K", setUnit(1024))
	f.Func('L', "dereference", NoArg, "", "dereference all symbolic links", derefFlag(true, false))
	f.BoolVar(&d.countLinks, 'l', "count-links", "count sizes many times if hard linked")
	f.Func('m', "", NoArg, "", "like --block-size=1M", setUnit(1<<20))
	f.Func('P', "no-dereference", NoArg, "", "don't follow any symbolic links (this is the default)", derefFlag(false, false))
	f.BoolVar(&d.separate, 'S', "separate-dirs", "for directories do not include size of subdirectories")
	f.Func(0, "si", NoArg, "", "like -h, but use powers of 1000 not 1024", func(string, bool) error {
		o.blockSpec, d.human, d.unitSet = "", 1000, true
		return nil
	})
	f.BoolVar(&o.summarize, 's', "summarize", "display only a total for each argument")
	f.Func('t', "threshold", RequiredArg, "SIZE", "exclude entries smaller than SIZE if positive,\n"+
		"or entries greater than SIZE if negative", func(v string, _ bool) error {
		o.threshold, o.thresholdOpt = v, duOptName(env.Args, 't', "--th", "--threshold")
		return nil
	})
	f.Func(0, "time", OptionalArg, "WORD", "show time of the last modification of any file in the\n"+
		"directory, or any of its subdirectories; with WORD (atime, access, use,\n"+
		"ctime or status) that time, which vfsd does not keep: the modification\ntime is shown", func(v string, present bool) error {
		o.showTime = true
		if present {
			_, err := lsArgMatch(env, "--time", v, []string{"atime", "access", "use", "ctime", "status"}, []int{0, 0, 0, 1, 1})
			return err
		}
		return nil
	})
	f.Func(0, "time-style", RequiredArg, "STYLE", "show times using STYLE, which can be:\n"+
		"full-iso, long-iso, iso, or +FORMAT;\nFORMAT is interpreted like in 'date'", func(v string, _ bool) error {
		o.timeStyle, o.timeStyleSet = v, true
		return nil
	})
	f.Func('X', "exclude-from", RequiredArg, "FILE", "exclude files that match any pattern in FILE", func(v string, _ bool) error {
		data, err := readWholeFile(env, v)
		if err != nil {
			// GNU du reports the unreadable list as a usage error.
			return &UsageError{Msg: fmt.Sprintf("%s: %s", env.QuoteF(v), ErrText(err))}
		}
		for _, p := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			d.excludes = append(d.excludes, findGlob(p, false))
		}
		return nil
	})
	f.Func(0, "exclude", RequiredArg, "PATTERN", "exclude files that match PATTERN", func(v string, _ bool) error {
		d.excludes = append(d.excludes, findGlob(v, false))
		return nil
	})
	f.Bool('x', "one-file-system", "skip directories on different file systems (vfsd's trees are one)")
	f.BoolVar(&o.zero, '0', "null", "end each output line with NUL, not newline")
	f.Epilog = "Display values are in units of the first available SIZE from --block-size,\n" +
		"and the DU_BLOCK_SIZE, BLOCK_SIZE and BLOCKSIZE environment variables.\n" +
		"Otherwise, units default to 1024 bytes.\n\n" + strings.SplitN(lsEpilog, "\n\n", 2)[0]
	return f
}

// duOptName is how the command line last spelled an option with a value
// (short letter or a prefix of the long name), for GNU's "invalid -B
// argument" or "invalid --block-size argument".
func duOptName(args []string, short byte, longPrefix, long string) string {
	name := "-" + string(short)
	for _, a := range args[1:] {
		switch {
		case a == "--":
			return name
		case strings.HasPrefix(a, longPrefix):
			name = long
		case len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a, short) > 0:
			name = "-" + string(short)
		}
	}
	return name
}

// setup reads the unit (-B, or the environment) and -t's threshold; it
// returns a non-zero status after saying what is wrong.
func (d *duWalker) setup(blockSpec, blockOpt, threshold, thresholdOpt string) int {
	env := d.env
	if !d.unitSet {
		for _, name := range []string{"DU_BLOCK_SIZE", "BLOCK_SIZE", "BLOCKSIZE"} {
			if v, ok := envLookup(env.Environ, name); ok && v != "" {
				blockSpec = v
				break
			}
		}
	}
	switch blockSpec {
	case "":
	case "human-readable":
		d.human = 1024
	case "si":
		d.human = 1000
	default:
		unit, suffix, ok := lsBlockSize(blockSpec)
		if !ok {
			if blockOpt == "" {
				break // a bad environment value is ignored
			}
			_, e := gnu.ParseSize(strings.TrimPrefix(blockSpec, "'"), 10, "eEgGkKmMpPtTYZ0")
			env.Errorf("%s", sizeArgError(env, e, blockOpt, blockSpec))
			return 1
		}
		d.unit, d.suffix = unit, suffix
	}
	if thresholdOpt != "" {
		v, neg := strings.CutPrefix(threshold, "-")
		n, e := gnu.ParseSize(v, 10, "kKmMGTPEZY0")
		if e == gnu.SizeOK && n > 1<<62 {
			e = gnu.SizeOverflow
		}
		if e != gnu.SizeOK {
			env.Errorf("%s", sizeArgError(env, e, thresholdOpt, threshold))
			return 1
		}
		if neg && n == 0 {
			env.Errorf("invalid --threshold argument '-0'")
			return 1
		}
		d.threshold = int64(n)
		if neg {
			d.threshold = -d.threshold
		}
	}
	return 0
}

// sizeArgError is gnulib's xstrtol_fatal message for a bad size argument
// v of the option opt ("-B", "--block-size"); SizeOK means a value out of
// range (0 for -B), which is "invalid".
func sizeArgError(env *Env, e gnu.SizeErr, opt, v string) string {
	switch {
	case e&gnu.SizeInvalid != 0 || e == gnu.SizeOK:
		return fmt.Sprintf("invalid %s argument %s", opt, env.Quote(v))
	case e&gnu.SizeInvalidSuffix != 0:
		return fmt.Sprintf("invalid suffix in %s argument %s", opt, env.Quote(v))
	}
	return fmt.Sprintf("%s argument %s too large", opt, env.Quote(v))
}

// duTimeStyle is --time-style (or $TIME_STYLE): a date format.
func duTimeStyle(env *Env, style string, set bool) (string, error) {
	if !set {
		style, _ = envLookup(env.Environ, "TIME_STYLE")
	}
	if style == "" || style == "locale" {
		return "%Y-%m-%d %H:%M", nil
	}
	if format, ok := strings.CutPrefix(style, "+"); ok {
		format, _, _ = strings.Cut(format, "\n")
		return format, nil
	}
	i, err := lsArgMatch(env, "time style", style, []string{"full-iso", "long-iso", "iso"}, lsSeq(3))
	return []string{"%Y-%m-%d %H:%M:%S.%N %z", "%Y-%m-%d %H:%M", "%Y-%m-%d"}[i], err
}

// duFiles0 reads --files0-from=F's NUL-terminated names. A zero-length
// name is reported (status 1) and skipped; a file that cannot be read
// returns nil.
func duFiles0(env *Env, from string) ([]string, int) {
	data, err := readWholeFile(env, from)
	if err != nil {
		env.Errorf("cannot open %s for reading: %s", env.QuoteAF(from), ErrText(err))
		return nil, 1
	}
	status := 0
	names := []string{}
	for i, n := range strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00") {
		switch {
		case len(data) == 0:
		case n == "-" && from == "-":
			env.Errorf("when reading file names from stdin, no file name of %s allowed", env.QuoteAF("-"))
			status = 1
		case n == "":
			env.Errorf("%s:%d: invalid zero-length file name", env.QuoteF(from), i+1)
			status = 1
		default:
			names = append(names, n)
		}
	}
	return names, status
}

// readWholeFile reads name, or stdin for "-".
func readWholeFile(env *Env, name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(env.Stdin)
	}
	r, err := env.Open(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

type duWalker struct {
	env        *Env
	dirs       *dirAhead
	w          *bufio.Writer
	all        bool
	human      int64 // 1024 (-h), 1000 (--si) or 0
	apparent   bool  // sizes rather than estimated disk usage
	unit       int64
	suffix     string // -B's letter ("K", "kB")
	unitSet    bool   // -B, -b, -h, -k, -m or --si: the environment is not read
	maxDepth   int
	end        string
	seen       map[string]bool // absolute paths walked of files with no identity (virtual files)
	ids        map[string]bool // file identities counted (hard links once)
	deref      bool            // -L
	inodes     bool            // --inodes
	countLinks bool            // -l
	separate   bool            // -S
	threshold  int64           // -t: at least this, or at most -this
	timeStyle  string          // --time: a date format
	excludes   []func(string) bool
	status     int
}

// duSum is what a file or tree counts for: its size (or inode count) and
// its newest modification time.
type duSum struct {
	size  int64
	mtime time.Time
}

func (s *duSum) add(o duSum) {
	s.size += o.size
	if o.mtime.After(s.mtime) {
		s.mtime = o.mtime
	}
}

// excluded reports whether name, or a trailing part of it starting after a
// slash, matches an --exclude or -X pattern (GNU du's unanchored
// wildcards, '*' matching '/').
func (d *duWalker) excluded(name string) bool {
	for _, match := range d.excludes {
		if match(name) {
			return true
		}
		for i := 0; i+1 < len(name); i++ {
			if name[i] == '/' && name[i+1] != '/' && match(name[i+1:]) {
				return true
			}
		}
	}
	return false
}

// usage is what fi counts for: one inode with --inodes, its size with
// --apparent-size, else its estimated allocation.
func (d *duWalker) usage(fi fs.FileInfo) duSum {
	switch {
	case d.inodes:
		return duSum{1, fi.ModTime()}
	case d.apparent:
		return duSum{fi.Size(), fi.ModTime()}
	}
	return duSum{statBlocks(fi) * 512, fi.ModTime()}
}

// walk returns the usage of name (absolute abs) and prints the lines due
// for it and below it.
func (d *duWalker) walk(name, abs string, fi fs.FileInfo, depth int) duSum {
	// A file met again (a hard link, an operand inside another, the
	// same operand twice) counts once: by its identity, or by its path
	// when it has none. (A walk recorded every path too: a map insert
	// for each file, a tenth of du -s's CPU in llmsh.)
	if id, ok := fi.(interface{ FileID() string }); ok && id.FileID() != "" {
		if !d.countLinks {
			if d.ids[id.FileID()] {
				return duSum{}
			}
			d.ids[id.FileID()] = true
		}
	} else if !d.countLinks {
		d.seen[abs] = true
	}
	sum := d.usage(fi)
	shown := d.maxDepth < 0 || depth <= d.maxDepth
	if !fi.IsDir() {
		if depth == 0 || (d.all && shown) {
			d.print(sum, name)
		}
		return sum
	}
	entries, err := d.dirs.readDir(abs)
	if err != nil {
		d.w.Flush()
		d.env.Errorf("cannot read directory %s: %s", d.env.QuoteAF(name), ErrText(err))
		d.status = 1
	}
	cabss := make([]string, len(entries))
	for i, e := range entries {
		// path.Join's Clean, for each file of a walk, finds nothing to
		// do: abs is Env.Abs's (clean, perhaps with a slash at its end)
		// or one of these, and a listed name is one component.
		cabss[i] = joinPath(abs, e.Name())
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
	own := sum // -S: the directory and its files, not its subdirectories
	for i, e := range entries {
		if d.env.Ctx.Err() != nil {
			d.status = 1
			return sum
		}
		cabs := cabss[i]
		if len(d.seen) > 0 && d.seen[cabs] && !d.countLinks {
			continue
		}
		cname := joinPath(name, e.Name())
		if d.excluded(cname) {
			continue
		}
		cfi, err := cfis[i], errs[i]
		if err != nil {
			d.w.Flush()
			d.cannotAccess(cname, cabs, err)
			d.status = 1
			continue
		}
		sub := d.walk(cname, cabs, cfi, depth+1)
		sum.add(sub)
		if !cfi.IsDir() {
			own.add(sub)
		}
	}
	if shown {
		if d.separate {
			d.print(own, name)
		} else {
			d.print(sum, name)
		}
	}
	return sum
}

// cannotAccess reports a file that could not be described; a dangling
// link followed under -L or -H gets GNU's message without a reason.
func (d *duWalker) cannotAccess(name, abs string, err error) {
	if errors.Is(err, fs.ErrNotExist) {
		if li, lerr := d.env.FS.Lstat(abs); lerr == nil && li.Mode()&fs.ModeSymlink != 0 {
			d.env.Errorf("cannot access %s", d.env.QuoteAF(name))
			return
		}
	}
	d.env.fileErrorf("cannot access", name, err)
}

// print writes one line: the count in the chosen unit, --time's time,
// the name; -t leaves out a count beyond its threshold.
func (d *duWalker) print(sum duSum, name string) {
	size := sum.size
	if d.threshold > 0 && size < d.threshold || d.threshold < 0 && size > -d.threshold {
		return
	}
	var s string
	switch {
	case d.human != 0:
		s = gnu.HumanCeilBase(size, d.human)
	case d.inodes:
		s = strconv.FormatInt(size, 10)
	default:
		s = strconv.FormatInt((size+d.unit-1)/d.unit, 10) + d.suffix
	}
	d.w.WriteString(s + "\t")
	if d.timeStyle != "" {
		t := sum.mtime.In(dateLocation(d.env))
		d.w.WriteString(dateFormat(t, d.timeStyle, t.Location() == time.UTC) + "\t")
	}
	d.w.WriteString(name + d.end)
}
