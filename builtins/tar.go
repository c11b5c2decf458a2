package builtins

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/llmsh/llmsh/builtins/internal/bzenc"
	"github.com/llmsh/llmsh/builtins/internal/gnu"
	"github.com/llmsh/llmsh/builtins/internal/gzdeflate"
	"github.com/llmsh/llmsh/third_party/xz"
)

var _ = register(Builtin{Name: "tar", Summary: "create, extract or list tar archives", Run: tarMain})

// tarState holds the options and the exit status of one tar call.
type tarState struct {
	piped    bool // the archive's reader went away: stop quietly, as GNU tar dies of SIGPIPE
	env      *Env
	dirs     *dirAhead  // c: the subdirectories listed ahead of the walk
	heads    *headAhead // c: small files read ahead of the walk
	mode     byte       // 'c', 'x' or 't'
	file     string
	fromList bool // -T given: no operands is an empty archive, not an error
	gzip     bool
	bzip2    bool   // -j
	xz       bool   // -J
	auto     bool   // -a: the compression by the archive's suffix
	dir      string // -C, "" for the working directory
	record   int64  // -b, --record-size: bytes per record (0: tarRecord)
	verbose  int
	excludes []tarPattern
	operand  int // -c: the index of the operand being added
	// quoting is --quoting-style's, for the names tar lists (escape).
	quoting  gnu.Style
	toStdout bool
	// ignoreZeros (-i) reads on past zero blocks, which end an archive.
	ignoreZeros bool
	strip       int
	status      int
	stdlis      io.Writer       // where -v writes
	removed     map[string]bool // prefixes already reported as removed
	archive     string          // absolute name of the archive file, "" for - (create)
	ugswidth    int             // width of owner/group and size in long listings
	samePerm    bool            // -p: extract permission bits exactly, not less the umask
	deref       bool            // -h: archive what links lead to
	// --transform expressions, applied to member names on create and
	// extract (before --strip-components).
	transforms []tarTransform
	// ahead holds the lstat of a directory's entries, made all together
	// (entryInfos) before addPath takes them one by one.
	ahead map[string]tarStat
	// queue: the small files of an operand's tree as its walk listed it
	// (dirAhead.tree), in the order they are archived, read ahead
	// across directories.
	queue tarQueue
	// Forced on created members: --owner, --group, --numeric-owner,
	// --mode, --mtime (--clamp-mtime), --format.
	owner, group tarOwner
	numericOwner bool
	modeChanges  []modeChange
	mtime        *time.Time
	clampMtime   bool
	format       tar.Format
	v7           bool   // --format=v7, --old-archive: ustar made v7 (tarGNUBlocks)
	old          string // "keep" (-k), "skip" or "newer": existing files on extract
	noRecursion  bool
	excludeVCS   bool
	ignoreFailed bool                 // --ignore-failed-read
	showXformed  bool                 // --show-transformed-names
	program      string               // a filter or command llmsh cannot run (--zstd, -I, --to-command)
	members      map[string]time.Time // -u: the archive's members and times
	appendAt     int64                // -r, -u: where the new members start
	tags         []tarTag             // --exclude-tag*, --exclude-caches*
	removeFiles  bool                 // --remove-files
	added        []tarAdded           // --remove-files: what was archived
	wildcards    bool                 // --wildcards: operands are globs
	noWildcards  bool                 // --no-wildcards: exclusions are literal
	anchored     bool                 // --anchored: exclusions match from the start
	absNames     bool                 // -P: leading '/' and '..' kept
	topLevel     string               // --one-top-level: the directory extracted into
	touch        bool                 // -m: extracted files keep the time of extraction
	fullTime     bool                 // --full-time: listed times with seconds
	newer        *time.Time           // -N, --newer-mtime: older files are left out
	totals       tarTotals            // --totals
}

// tarAdded is a file archived, for --remove-files.
type tarAdded struct {
	abs, shown string
	dir        bool
}

// tarQueue is the small regular files of a tree, in the order tar c
// archives them (depth first, each directory's entries in name order),
// with their sizes; next is the first not read ahead yet, and dirs the
// directories whose files it holds.
type tarQueue struct {
	files []string
	size  map[string]int64
	dirs  map[string]bool
	next  int
}

// tarStat is an entry's lstat made ahead.
type tarStat struct {
	fi  fs.FileInfo
	err error
}

// errTarFatal stops a tar call after its message was printed ("Error is
// not recoverable").
var errTarFatal = errors.New("fatal")

// tarOldArgs are the traditional-style key letters that take an argument
// from the following words (`tar cfC a.tar dir x`).
const tarOldArgs = "bfCTX"

// tarExpandOld turns traditional options (`tar czf a.tgz dir`, the first
// word without a dash) into dashed options, each letter that takes an
// argument consuming the next word, as GNU tar does.
// A letter left without its word is named by missing (0 when none).
func tarExpandOld(args []string) (expanded []string, missing rune) {
	if len(args) == 0 || args[0] == "" || args[0][0] == '-' {
		return args, 0
	}
	rest := args[1:]
	var out []string
	for _, c := range args[0] {
		out = append(out, "-"+string(c))
		if strings.ContainsRune(tarOldArgs, c) {
			if len(rest) == 0 {
				return nil, c
			}
			out = append(out, rest[0])
			rest = rest[1:]
		}
	}
	return append(out, rest...), 0
}

// tarOpts is what tar's options select besides the tarState's settings.
type tarOpts struct {
	modeErr, badValue      bool // two modes; a value tar rejects itself
	excludeAt              []tarExcludeAt
	filesFrom, excludeFrom []string
	null                   bool
	badTransform           string
	mtime                  string
	fatal                  string // a bad option value GNU tar reports without a usage hint
	sameOrder              bool   // -s: refused where tar writes
	usage                  bool   // --usage: argp prints it and exits 0 where it meets it
	unrecoverable          bool   // fatal is followed by "Error is not recoverable"
	newer                  tarNewer
}

// tarUsageError says what is wrong with the command line as GNU tar's
// argp does, with its hint of --help and --usage, and is status 2.
func tarUsageError(env *Env, format string, a ...any) int {
	env.Errorf(format, a...)
	fmt.Fprintf(env.Stderr, "Try '%s --help' or '%s --usage' for more information.\n", env.Name(), env.Name())
	return 2
}

func tarMain(env *Env) int {
	s := &tarState{env: env, file: "-", stdlis: env.Stdout, removed: map[string]bool{}, ugswidth: 18, quoting: gnu.Escape, dirs: newDirAhead(env, false), heads: newHeadAhead(env)}
	s.dirs.tree = true
	var o tarOpts
	f := s.flags(env, &o)
	args, missing := tarExpandOld(env.Args[1:])
	if missing != 0 {
		return tarUsageError(env, "Old option '%c' requires an argument.", missing)
	}
	operands, err := f.Parse(args)
	if o.usage {
		f.ArgpUsage(env.Stdout, "[FILE]...")
		return 0
	}
	msg, isUsage := usageMessage(err)
	if isUsage {
		// GNU tar's argp exits 64 (EX_USAGE) for a bad option, and 2
		// for an option value it rejects itself.
		tarUsageError(env, "%s", msg)
		if o.badValue {
			return 2
		}
		return 64
	}
	if err != nil {
		return f.Fail(err, 2)
	}
	s.lateExcludes(o.excludeAt, len(operands))
	if o.badTransform != "" {
		return tarUsageError(env, "%s", o.badTransform)
	}
	if o.fatal != "" {
		env.Errorf("%s", o.fatal)
		if o.unrecoverable {
			env.Errorf("Error is not recoverable: exiting now")
		}
		return 2
	}
	if !s.resolveTop() {
		return 2
	}
	if !s.resolveMtime(o.mtime) || !s.resolveNewer(o.newer) {
		return 2
	}
	if operands = s.readLists(&o, operands); operands == nil {
		return 2
	}
	if o.modeErr {
		return tarUsageError(env, "You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option")
	}
	if letter, writes := map[byte]byte{'c': 'c', 'r': 'r', 'u': 'u', 'A': 'A', 'd': 'D'}[s.mode]; o.sameOrder && writes {
		return tarUsageError(env, "'--same-order' cannot be used with '-%c'", letter)
	}
	if s.dir != "" && s.mode != 0 && s.mode != 't' && !(s.mode == 'x' && s.toStdout) {
		// -C names an existing directory; tar never creates it.
		if fi, err := env.FS.Stat(s.base()); err != nil || !fi.IsDir() {
			if err == nil {
				err = syscall.ENOTDIR
			}
			env.Errorf("%s: Cannot open: %s", tarQuoteColon(s.dir), ErrText(err))
			env.Errorf("Error is not recoverable: exiting now")
			return 2
		}
	}
	return s.run(operands)
}

// tarExcludeAt is an --exclude PATTERN, the operands before it and its
// index in tarState.excludes.
type tarExcludeAt struct {
	pattern      string
	after, index int
}

// lateExcludes drops the --exclude options given after the last of n
// operands in a mode that creates (c, r, u), as GNU tar 1.34 does: they
// are positional and apply to no name, said with its warning, and the
// status becomes 2.
func (s *tarState) lateExcludes(at []tarExcludeAt, n int) {
	if n == 0 || s.mode != 'c' && s.mode != 'r' && s.mode != 'u' {
		return
	}
	said := false
	for i := len(at) - 1; i >= 0; i-- {
		if at[i].after < n {
			break
		}
		s.excludes = slices.Delete(s.excludes, at[i].index, at[i].index+1)
	}
	for _, e := range at {
		if e.after < n {
			continue
		}
		if !said {
			s.env.Errorf("The following options were used after any non-optional arguments in archive create or update mode.  These options are positional and affect only arguments that follow them.  Please, rearrange them properly.")
			said = true
		}
		s.env.Errorf("--exclude %s has no effect", s.env.Quote(e.pattern))
		s.status = 2
	}
}

// flags is tar's option table; it fills s and o.
func (s *tarState) flags(env *Env, o *tarOpts) *Flags {
	setMode := func(m byte) func(string, bool) error {
		return func(string, bool) error {
			if s.mode != 0 && s.mode != m {
				o.modeErr = true
			}
			s.mode = m
			return nil
		}
	}
	f := NewFlags(env, "Create, extract or list tar archives, through the granted trees only.\n\nExamples:\n  tar -cf archive.tar foo bar  # Create archive.tar from files foo and bar.\n  tar -tvf archive.tar         # List all files in archive.tar verbosely.\n  tar -xf archive.tar          # Extract all files from archive.tar.\n\nSymbolic links, hard links, devices and fifos are never created; a\nsymbolic link is archived as a link (with -h, as what it leads to). Names read\nwith -T come after the names given as arguments. Extracted members get\ntheir archived permission bits less the umask (022), exactly with -p;\nsetuid, setgid and sticky bits are never set.",
		"[OPTION...] [FILE]...")
	f.Func('c', "create", NoArg, "", "create a new archive", setMode('c'))
	sameOrder := func(string, bool) error { o.sameOrder = true; return nil }
	f.Func('s', "preserve-order", NoArg, "", "member arguments are listed in the same order as the files in the archive (llmsh: no effect)", sameOrder)
	f.Func(0, "same-order", NoArg, "", "same as -s", sameOrder)
	f.Func('x', "extract", NoArg, "", "extract files from an archive", setMode('x'))
	f.Func(0, "get", NoArg, "", "same as --extract", setMode('x'))
	f.Func('t', "list", NoArg, "", "list the contents of an archive", setMode('t'))
	f.Func('r', "append", NoArg, "", "append files to the end of an archive", setMode('r'))
	f.Func('u', "update", NoArg, "", "only append files newer than copy in archive", setMode('u'))
	f.Func('A', "catenate", NoArg, "", "append tar files to an archive", setMode('A'))
	f.Func(0, "concatenate", NoArg, "", "same as -A", setMode('A'))
	f.Func(0, "delete", NoArg, "", "delete from the archive (not on magnetic tapes!)", setMode('d'))
	f.Func('d', "diff", NoArg, "", "find differences between archive and file system", setMode('D'))
	f.Func(0, "compare", NoArg, "", "same as --diff", setMode('D'))
	f.StringVar(&s.file, 'f', "file", "ARCHIVE", "use archive file ARCHIVE (- is standard input or output)")
	f.BoolVar(&s.gzip, 'z', "gzip", "filter the archive through gzip")
	f.BoolVar(&s.gzip, 0, "gunzip", "same as --gzip")
	f.BoolVar(&s.gzip, 0, "ungzip", "same as --gzip")
	f.BoolVar(&s.bzip2, 'j', "bzip2", "filter the archive through bzip2")
	f.BoolVar(&s.xz, 'J', "xz", "filter the archive through xz")
	f.BoolVar(&s.auto, 'a', "auto-compress", "use archive suffix to determine the compression program")
	f.StringVar(&s.dir, 'C', "directory", "DIR", "change to directory DIR")
	f.CountVar(&s.verbose, 'v', "verbose", "verbosely list files processed")
	f.Func(0, "exclude", RequiredArg, "PATTERN", "exclude files, given as a PATTERN", func(v string, _ bool) error {
		o.excludeAt = append(o.excludeAt, tarExcludeAt{v, f.Operands(), len(s.excludes)})
		p := s.pattern(v)
		p.after = f.Operands()
		s.excludes = append(s.excludes, p)
		return nil
	})
	f.Func('T', "files-from", RequiredArg, "FILE", "get names to extract or create from FILE", func(v string, _ bool) error {
		o.filesFrom = append(o.filesFrom, v)
		return nil
	})
	f.Func('X', "exclude-from", RequiredArg, "FILE", "exclude patterns listed in FILE", func(v string, _ bool) error {
		o.excludeFrom = append(o.excludeFrom, v)
		return nil
	})
	f.BoolVar(&o.null, 0, "null", "-T and -X read null-terminated names")
	addTransform := func(v string, _ bool) error {
		ts, msg := parseTarTransforms(v)
		if msg != "" && o.badTransform == "" {
			o.badTransform = msg
		}
		s.transforms = append(s.transforms, ts...)
		return nil
	}
	f.Func(0, "transform", RequiredArg, "EXPRESSION", "use sed replace EXPRESSION to transform file names", addTransform)
	f.Func(0, "xform", RequiredArg, "EXPRESSION", "same as --transform", addTransform)
	f.Func(0, "no-null", NoArg, "", "-T and -X read newline-terminated names (the default)", func(string, bool) error { o.null = false; return nil })
	f.BoolVar(&s.samePerm, 'p', "preserve-permissions", "extract information about file permissions (permission bits only; setuid, setgid and sticky bits are dropped)")
	f.BoolVar(&s.samePerm, 0, "same-permissions", "same as -p")
	f.Func(0, "no-same-permissions", NoArg, "", "apply the umask (022) to extracted permissions (the default)", func(string, bool) error { s.samePerm = false; return nil })
	f.BoolVar(&s.toStdout, 'O', "to-stdout", "extract files to standard output")
	f.BoolVar(&s.deref, 'h', "dereference", "follow symlinks; archive and dump the files they point to")
	f.Func(0, "strip-components", RequiredArg, "NUMBER", "strip NUMBER leading components from file names on extraction", func(v string, _ bool) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			o.badValue = true
			return &UsageError{Msg: v + ": Invalid number of elements"}
		}
		s.strip = n
		return nil
	})
	f.Func('b', "blocking-factor", RequiredArg, "BLOCKS", "BLOCKS x 512 bytes per record", func(v string, _ bool) error {
		n, e := gnu.ParseSize(v, 10, "")
		if e != gnu.SizeOK || n == 0 || n > math.MaxInt64/512 {
			o.badValue = true
			return &UsageError{Msg: v + ": Invalid blocking factor"}
		}
		s.record = int64(n) * 512
		return nil
	})
	f.Func(0, "record-size", RequiredArg, "NUMBER", "NUMBER of bytes per record, multiple of 512", func(v string, _ bool) error {
		n, e := gnu.ParseSize(v, 10, "bBcGgkKMmPTtwYZ0")
		o.badValue = true
		switch {
		case e != gnu.SizeOK || n > math.MaxInt64:
			return &UsageError{Msg: v + ": Invalid record size"}
		case n%512 != 0:
			return &UsageError{Msg: "Record size must be a multiple of 512."}
		case n == 0:
			return &UsageError{Msg: v + ": Invalid blocking factor"}
		}
		o.badValue = false
		s.record = int64(n)
		return nil
	})
	s.moreFlags(f, o)
	s.tarFlagsMore(f)
	s.tarFlagsNames(f)
	s.tarFlagsPaths(f)
	s.tarFlagsSmall(f)
	s.tarFlagsNewer(f, o)
	f.Func(0, "usage", NoArg, "", "give a short usage message", func(string, bool) error {
		o.usage = true
		return nil
	})
	return f
}

// readLists reads the -X patterns and the -T names, which follow the
// operands; nil (reported) when a list cannot be read.
func (s *tarState) readLists(o *tarOpts, operands []string) []string {
	env := s.env
	for _, name := range o.excludeFrom {
		pats, err := s.readList(name, o.null)
		if err != nil {
			env.Errorf("%s: %s", name, ErrText(err))
			env.Errorf("Error is not recoverable: exiting now")
			return nil
		}
		for _, p := range pats {
			s.excludes = append(s.excludes, s.pattern(p))
		}
	}
	for _, name := range o.filesFrom {
		names, err := s.readList(name, o.null)
		if err != nil {
			env.Errorf("%s: Cannot stat: %s", tarQuoteColon(name), ErrText(err))
			env.Errorf("Error is not recoverable: exiting now")
			return nil
		}
		operands = append(operands, names...)
		s.fromList = true
	}
	if operands == nil {
		operands = []string{}
	}
	return operands
}

// run creates, lists or extracts.
func (s *tarState) run(operands []string) int {
	env := s.env
	var err error
	s.totals.start = time.Now()
	switch s.mode {
	case 0:
		return tarUsageError(env, "You must specify one of the '-Acdtrux', '--delete' or '--test-label' options")
	case 'r', 'u', 'A':
		if s.file == "-" {
			return tarUsageError(env, "Options '-Aru' are incompatible with '-f -'")
		}
		if s.gzip || s.bzip2 || s.xz || s.program != "" {
			return tarUsageError(env, "Cannot %s compressed archives", map[bool]string{true: "concatenate", false: "update"}[s.mode == 'A'])
		}
		if s.mode == 'A' {
			err = s.concatenate(operands)
			break
		}
		err = s.create(operands)
	case 'd':
		if s.gzip || s.bzip2 || s.xz || s.program != "" {
			return tarUsageError(env, "Cannot update compressed archives")
		}
		err = s.deleteMembers(operands)
	case 'c':
		if len(operands) == 0 && !s.fromList {
			return tarUsageError(env, "Cowardly refusing to create an empty archive")
		}
		if s.program != "" {
			err = s.missingProgram(strings.Fields(s.program + " x")[0])
			break
		}
		if s.file == "-" {
			s.stdlis = env.Stderr
		}
		err = s.create(operands)
	default:
		if s.mode == 'x' && s.toStdout {
			s.stdlis = env.Stderr
		}
		if s.program != "" {
			err = s.missingProgram(strings.Fields(s.program + " x")[0])
			break
		}
		err = s.read(operands)
	}
	if errors.Is(err, errTarFatal) {
		env.Errorf("Error is not recoverable: exiting now")
		return 2
	}
	if env.Ctx.Err() != nil {
		return 2
	}
	s.reportTotals()
	if s.status == 2 && !s.piped {
		env.Errorf("Exiting with failure status due to previous errors")
	}
	return s.status
}

// fail reports a failure on one member or file: the call exits 2.
func (s *tarState) fail(format string, args ...any) {
	s.env.Errorf(format, args...)
	s.status = 2
}

// notFound reports an operand that matched no member, as GNU tar's
// names_notfound: one that holds glob characters, given with neither
// --wildcards nor --no-wildcards, is warned about first.
func (s *tarState) notFound(op string) {
	if !s.wildcards && !s.noWildcards && tarHasWildcards(op) {
		s.env.Errorf("Pattern matching characters used in file names")
		s.env.Errorf("Use --wildcards to enable pattern matching, or --no-wildcards to suppress this warning")
	}
	s.fail("%s: Not found in archive", tarQuoteColon(op))
}

// tarHasWildcards reports whether name holds a glob character that a
// backslash does not escape (gnulib's fnmatch_pattern_has_wildcards).
func tarHasWildcards(name string) bool {
	for i := 0; i < len(name); i++ {
		switch name[i] {
		case '\\':
			i++
		case '?', '*', '[', ']':
			return true
		}
	}
	return false
}

// archiveFailed reports an archive (-f) that cannot be opened, for op
// "open" (reading it) or "create", as GNU tar does. With -z, -j or -J the
// compression filter's child process opens it, and both say so: the
// child's "tar (child):" lines, then the parent's "Child returned status
// 2" (the caller adds "Error is not recoverable"). A directory read is
// reported by its first read, not by the open.
func (s *tarState) archiveFailed(op string, err error) {
	env, name := s.env, tarQuoteColon(s.file)
	s.status = 2
	what := "open"
	if op == "open" && errors.Is(err, syscall.EISDIR) {
		what = "read"
	}
	if !s.gzip && !s.bzip2 && !s.xz {
		env.Errorf("%s: Cannot %s: %s", name, what, ErrText(err))
		if what == "read" {
			env.Errorf("At beginning of tape, quitting now")
		}
		return
	}
	fmt.Fprintf(env.Stderr, "tar (child): %s: Cannot %s: %s\n", name, what, ErrText(err))
	if what == "read" {
		fmt.Fprintf(env.Stderr, "tar (child): At beginning of tape, quitting now\n")
	}
	fmt.Fprintf(env.Stderr, "tar (child): Error is not recoverable: exiting now\n")
	if what == "read" {
		// the filter then reads an empty stream, in its words
		switch {
		case s.gzip:
			fmt.Fprintf(env.Stderr, "\ngzip: stdin: unexpected end of file\n")
		case s.xz:
			fmt.Fprintf(env.Stderr, "xz: (stdin): File format not recognized\n")
		}
	}
	env.Errorf("Child returned status 2")
}

// readList reads the names of a -T or -X file ("-" is standard input):
// one a line (NUL-terminated with --null), empty ones skipped.
func (s *tarState) readList(name string, null bool) ([]string, error) {
	r, err := s.env.Open(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	sep := byte('\n')
	if null {
		sep = 0
	}
	var out []string
	br := bufio.NewReader(r)
	for {
		if err := s.env.Ctx.Err(); err != nil {
			return nil, err
		}
		line, err := br.ReadString(sep)
		line = strings.TrimSuffix(line, string(sep))
		if line != "" {
			out = append(out, line)
		}
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// base is the directory that operands and members are relative to.
func (s *tarState) base() string {
	if s.dir == "" {
		return s.env.Dir
	}
	return s.env.Abs(s.dir)
}

// leftOut reports whether the member name is not archived: --exclude
// or --exclude-vcs leaves it out.
func (s *tarState) leftOut(name string) bool {
	return s.excluded(name) || s.vcsExcluded(name)
}

// excluded reports whether name, or a trailing part of it starting at a
// component, or a leading directory of such a part, matches an --exclude
// pattern (GNU's defaults: unanchored, wildcards match '/').
func (s *tarState) excluded(name string) bool {
	if len(s.excludes) == 0 {
		return false
	}
	name = strings.TrimRight(name, "/")
	var starts, ends []int
	starts = append(starts, 0)
	for i := 0; i < len(name); i++ {
		if name[i] == '/' {
			starts = append(starts, i+1)
			ends = append(ends, i)
		}
	}
	ends = append(ends, len(name))
	for _, p := range s.excludes {
		if s.mode == 'c' && p.after > s.operand {
			// Positional: given after this operand. -r and -u gather
			// their names first: every --exclude before the last
			// operand applies to all (GNU tar 1.34).
			continue
		}
		match := p.match
		for _, a := range starts {
			if p.anchored && a > 0 {
				break
			}
			for _, b := range ends {
				if b >= a && match(name[a:b]) {
					return true
				}
			}
		}
	}
	return false
}

// safeName removes what makes name escape the current directory: leading
// slashes, and everything up to a last ".." component. GNU reports each
// removed prefix once.
func (s *tarState) safeName(name string) string {
	prefix, rest := tarUnsafePrefix(name)
	if prefix != "" && !s.removed[prefix] {
		s.removed[prefix] = true
		s.env.Errorf("Removing leading `%s' from member names", prefix)
	}
	return rest
}

// tarUnsafePrefix splits name into the prefix GNU tar removes (leading
// slashes, everything up to a last ".." component) and the rest.
func tarUnsafePrefix(name string) (prefix, rest string) {
	i := 0
	for i < len(name) && name[i] == '/' {
		i++
	}
	cut := i
	for j := i; j <= len(name); {
		end := len(name)
		if k := strings.IndexByte(name[j:], '/'); k >= 0 {
			end = j + k
		}
		if name[j:end] == ".." {
			cut = min(end+1, len(name))
		}
		j = end + 1
	}
	return name[:cut], name[cut:]
}

// hasDotDot reports whether name has a ".." component.
func hasDotDot(name string) bool {
	for _, c := range strings.Split(name, "/") {
		if c == ".." {
			return true
		}
	}
	return false
}

// tarCtxWriter stops writing once the context is done and marks write
// errors so that they are told apart from read errors.
type tarCtxWriter struct {
	s *tarState
	w io.Writer
}

func (w tarCtxWriter) Write(p []byte) (int, error) {
	if w.s.env.Ctx.Err() != nil {
		return 0, gnu.ErrCancelled
	}
	n, err := w.w.Write(p)
	if err != nil {
		err = gnu.WriteError{Err: err}
	}
	return n, err
}

// tarCtxReader stops reading once the context is done.
type tarCtxReader struct {
	s *tarState
	r io.Reader
}

func (r tarCtxReader) Read(p []byte) (int, error) {
	if r.s.env.Ctx.Err() != nil {
		return 0, gnu.ErrCancelled
	}
	return r.r.Read(p)
}

// create writes a new archive of operands.
func (s *tarState) create(operands []string) error {
	env := s.env
	if s.auto && !s.gzip && !s.bzip2 && !s.xz {
		// GNU tar's table of suffixes, for the compressions llmsh has.
		name := s.file
		switch {
		case tarSuffix(name, ".gz", ".tgz", ".taz"):
			s.gzip = true
		case tarSuffix(name, ".bz2", ".tbz", ".tbz2", ".tz2"):
			s.bzip2 = true
		case tarSuffix(name, ".xz", ".txz"):
			s.xz = true
		}
	}
	var out io.Writer
	var outFile File
	if s.mode != 'c' {
		f, err := s.openAppend()
		if err != nil {
			return err
		}
		outFile, out = f, f
	} else if s.file == "-" {
		if env.Terminal {
			env.Errorf("Refusing to write archive contents to terminal (missing -f option?)")
			return errTarFatal
		}
		out = env.Stdout
	} else {
		var err error
		outFile, err = env.Create(s.file)
		if err != nil {
			s.archiveFailed("create", err)
			return errTarFatal
		}
		s.archive = env.Abs(s.file)
		out = outFile
	}
	// Written a record at a time, as GNU tar writes (20 blocks of 512
	// bytes), not a header or a file's bytes at a time.
	bw := bufio.NewWriterSize(tarCtxWriter{s, out}, tarRecord)
	w := io.Writer(bw)
	var zw io.WriteCloser
	switch {
	case s.gzip:
		zw = gzdeflate.NewWriter(w, 6) // GNU tar's gzip, reading a pipe
	case s.bzip2:
		zw = bzenc.NewWriter(w, 9)
	case s.xz:
		xw, err := xz.NewWriter(w)
		if err != nil {
			return s.writeFailure(err)
		}
		zw = xw
	}
	if zw != nil {
		w = zw
	}
	cw := &tarCountWriter{w: w, n: s.appendAt}
	tw := tar.NewWriter(&tarGNUBlocks{w: cw, v7: s.v7})
	var werr error
	for i, op := range operands {
		s.operand = i
		if werr = s.addPath(tw, op, s.memberName(op), true); werr != nil {
			break
		}
	}
	if werr == nil {
		werr = tw.Close()
	}
	if werr == nil {
		// GNU tar fills the last record: the archive (before
		// compression) is a whole number of records (-b, 20 blocks).
		werr = tarZeros(cw, s.pad(cw.n, 0))
		// -r and -u write again the record where the new members
		// start, as GNU tar does: what it counts.
		s.totals.wrote = cw.n - s.appendAt + s.appendAt%s.recordSize()
	}
	if werr == nil && zw != nil {
		werr = zw.Close()
	} else if gz, ok := zw.(*gzdeflate.Writer); ok {
		gz.Abort()
	}
	if werr == nil {
		werr = bw.Flush()
	}
	if outFile != nil {
		if err := outFile.Close(); werr == nil && err != nil {
			werr = gnu.WriteError{Err: err}
		}
	}
	if werr == nil {
		s.removeAdded()
	}
	return s.writeFailure(werr)
}

// tarRecord is GNU tar's default record size, 20 blocks of 512 bytes.
const tarRecord = 20 * 512

// pad is how many zero bytes end an archive of n bytes after end more:
// to the end of its last record (-b's size, or tarRecord's).
func (s *tarState) pad(n, end int64) int64 {
	rec := s.recordSize()
	return end + (rec-(n+end)%rec)%rec
}

// recordSize is the bytes of a record: -b's, or tarRecord's.
func (s *tarState) recordSize() int64 {
	if s.record == 0 {
		return tarRecord
	}
	return s.record
}

// tarZeros writes n zero bytes to w, a block of them at a time.
func tarZeros(w io.Writer, n int64) error {
	zeros := make([]byte, min(n, tarRecord))
	for n > 0 {
		k, err := w.Write(zeros[:min(n, int64(len(zeros)))])
		if err != nil {
			return err
		}
		n -= int64(k)
	}
	return nil
}

// tarCountWriter counts the bytes of the archive written through it.
type tarCountWriter struct {
	w io.Writer
	n int64
}

func (c *tarCountWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// tarGNUBlocks passes a tar stream through, leaving the device number
// fields of a header in GNU format that is not a device's empty (NULs),
// as GNU tar does where archive/tar writes zeros; the checksum is made
// again. Data blocks pass unchanged.
type tarGNUBlocks struct {
	w    io.Writer
	v7   bool // --format=v7: ustar headers made v7's
	blk  [512]byte
	n    int   // bytes of blk filled
	data int64 // data blocks to pass before the next header
}

func (g *tarGNUBlocks) Write(p []byte) (int, error) {
	done := 0
	for len(p) > 0 {
		if g.data > 0 && g.n == 0 && len(p) >= 512 {
			k := int(min(int64(len(p)/512), g.data)) * 512
			if _, err := g.w.Write(p[:k]); err != nil {
				return done, err
			}
			g.data -= int64(k / 512)
			p, done = p[k:], done+k
			continue
		}
		c := copy(g.blk[g.n:], p)
		g.n += c
		p, done = p[c:], done+c
		if g.n < 512 {
			break
		}
		g.n = 0
		if g.data > 0 {
			g.data--
		} else {
			g.header()
		}
		if _, err := g.w.Write(g.blk[:]); err != nil {
			return done, err
		}
	}
	return done, nil
}

// header notes how many data blocks follow the header in blk and clears
// its device fields when GNU tar would.
func (g *tarGNUBlocks) header() {
	b := g.blk[:]
	size := int64(0)
	if b[124]&0x80 != 0 {
		for _, c := range b[125:136] {
			size = size<<8 | int64(c)
		}
	} else {
		for _, c := range b[124:136] {
			if c >= '0' && c <= '7' {
				size = size<<3 | int64(c-'0')
			}
		}
	}
	g.data = (size + 511) / 512
	if g.v7 && string(b[257:265]) == "ustar\x0000" {
		// GNU tar's v7 header: no ustar magic, version, owner names
		// or prefix (the device numbers stay zeros), and a regular
		// file's type NUL.
		clear(b[257:329])
		clear(b[345:500])
		if b[156] == '0' {
			b[156] = 0
		}
		tarChecksum(b)
		return
	}
	if string(b[257:265]) != "ustar  \x00" || !strings.ContainsRune("01257\x00", rune(b[156])) {
		return
	}
	if string(b[329:345]) != "0000000\x000000000\x00" {
		return
	}
	clear(b[329:345])
	tarChecksum(b)
}

// tarChecksum writes header b's checksum again, as GNU tar writes it.
func tarChecksum(b []byte) {
	copy(b[148:156], "        ")
	sum := 0
	for _, c := range b {
		sum += int(c)
	}
	copy(b[148:156], fmt.Sprintf("%06o\x00 ", sum))
}

// tarSuffix reports whether name ends in one of the suffixes.
func tarSuffix(name string, suffixes ...string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(name, x) {
			return true
		}
	}
	return false
}

// writeFailure reports an error writing the archive.
func (s *tarState) writeFailure(err error) error {
	if err == nil || errors.Is(err, gnu.ErrCancelled) || errors.Is(err, errTarFatal) {
		return err
	}
	if IsBrokenPipe(err) {
		s.status, s.piped = 2, true
		return nil
	}
	var we gnu.WriteError
	if errors.As(err, &we) {
		err = we.Err
	}
	s.fail("%s: Cannot write: %s", tarQuoteColon(s.file), ErrText(err))
	return errTarFatal
}

// memberName is the name an operand is stored under.
func (s *tarState) memberName(op string) string {
	name := op
	if !s.absNames {
		name = s.safeName(op)
	}
	for len(name) > 1 && strings.HasSuffix(name, "/") {
		name = name[:len(name)-1]
	}
	if name == "" || name == "/" {
		name = "."
	}
	return name
}

// addPath archives the file shown as shown (as the user spelled it) under
// the member name name, and a directory's entries after it.
func (s *tarState) addPath(tw *tar.Writer, shown, name string, top bool) error {
	env := s.env
	if env.Ctx.Err() != nil {
		return gnu.ErrCancelled
	}
	abs := path.Join(s.base(), shown)
	if strings.HasPrefix(shown, "/") {
		abs = path.Clean(shown)
	}
	if s.leftOut(name) {
		return nil
	}
	var fi fs.FileInfo
	var err error
	if st, ok := s.ahead[abs]; ok {
		delete(s.ahead, abs)
		fi, err = st.fi, st.err
	} else {
		fi, err = env.FS.Lstat(abs)
	}
	if err == nil && s.deref && fi.Mode()&fs.ModeSymlink != 0 {
		// -h: the file the link leads to.
		ti, terr := env.FS.Stat(abs)
		if terr != nil && errors.Is(terr, fs.ErrNotExist) && !top {
			// A dangling link met in a directory, in GNU's words.
			env.Errorf("%s: File removed before we read it", shown)
			s.status = max(s.status, 1)
			return nil
		}
		fi, err = ti, terr
	}
	if err != nil {
		if s.ignoreFailed {
			env.Errorf("%s: Warning: Cannot stat: %s", tarQuoteColon(shown), ErrText(err))
			return nil
		}
		s.fail("%s: Cannot stat: %s", tarQuoteColon(shown), ErrText(err))
		return nil
	}
	if abs == s.archive {
		env.Errorf("%s: file is the archive; not dumped", shown)
		return nil
	}
	mode := fi.Mode()
	hdr := &tar.Header{
		Name:    s.transformName(name),
		Mode:    int64(mode.Perm()),
		ModTime: fi.ModTime().Truncate(time.Second),
		Format:  tar.FormatGNU,
		// Every file belongs to llmsh's one user, as ls -l shows.
		Uid: VirtualUID, Gid: VirtualGID,
		Uname: VirtualUser, Gname: VirtualUser,
	}
	if mode&fs.ModeSetuid != 0 {
		hdr.Mode |= 04000
	}
	if mode&fs.ModeSetgid != 0 {
		hdr.Mode |= 02000
	}
	if mode&fs.ModeSticky != 0 {
		hdr.Mode |= 01000
	}
	s.applyForced(hdr, mode.IsDir())
	if s.notNewer(hdr.Name, fi.ModTime()) || s.olderFile(fi, fi.ModTime(), shown) {
		if mode.IsDir() && !s.noRecursion {
			return s.addDir(tw, abs, shown, name, top)
		}
		return nil
	}
	switch {
	case mode&fs.ModeSymlink != 0:
		// Stored as a link (type 2), its text as the link name.
		target, err := env.FS.Readlink(abs)
		if err != nil {
			s.fail("%s: Cannot readlink: %s", tarQuoteColon(shown), ErrText(err))
			return nil
		}
		hdr.Typeflag = tar.TypeSymlink
		hdr.Linkname = s.transformLink(target)
		if s.tooLong(hdr) {
			return nil
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		s.listed(hdr, name)
		s.markAdded(abs, shown, false)
		return nil
	case mode.IsDir():
		tag, tagged := s.dirTag(abs)
		if tagged && tag.keep == "all" {
			return s.tagged(tw, tag, shown, name)
		}
		hdr.Typeflag = tar.TypeDir
		if !strings.HasSuffix(hdr.Name, "/") {
			hdr.Name += "/"
		}
		if s.tooLong(hdr) {
			return nil
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		// -v names the file, not its transformed member name.
		s.listed(hdr, strings.TrimSuffix(name, "/")+"/")
		s.markAdded(abs, shown, true)
		if tagged {
			return s.tagged(tw, tag, shown, name)
		}
		if s.noRecursion {
			return nil
		}
		return s.addDir(tw, abs, shown, name, top)
	case mode.IsRegular():
		return s.addFile(tw, hdr, fi, abs, shown, name)
	default:
		env.Errorf("%s: file type not supported by llmsh; not dumped", shown)
		return nil
	}
}

// addDir archives the entries of the directory abs (shown, and named
// name in the archive), whose own header is written: small files read
// ahead (across directories where the walk listed the tree, queueTree),
// subdirectories listed ahead.
func (s *tarState) addDir(tw *tar.Writer, abs, shown, name string, top bool) error {
	ents, err := s.dirs.readDir(abs)
	if err != nil {
		s.fail("%s: Cannot open: %s", tarQuoteColon(shown), ErrText(err))
		return nil
	}
	defer s.forget(s.statAhead(abs, ents))
	var subdirs []string
	for _, e := range ents {
		if e.IsDir() {
			subdirs = append(subdirs, path.Join(abs, e.Name()))
		}
	}
	defer s.dirs.forget(s.dirs.ahead(subdirs))
	// Small regular files are read ahead, up to headAheadMax at once
	// (headBatch in one request, where the FS can), and archived in
	// their turn; not those --exclude leaves out (read for nothing).
	var small []string
	excluding := len(s.excludes) > 0 || s.excludeVCS
	for _, e := range ents {
		if st := s.ahead[path.Join(abs, e.Name())]; st.err == nil && st.fi != nil &&
			st.fi.Mode().IsRegular() && st.fi.Size() < tarHeadMax &&
			!(excluding && s.leftOut(joinPath(strings.TrimSuffix(name, "/"), e.Name()))) {
			small = append(small, path.Join(abs, e.Name()))
		}
	}
	defer s.heads.forget(small)
	if top && s.queue.files == nil {
		s.queueTree(abs, ents)
		defer s.forgetQueue()
	}
	next := 0
	sizeOf := func(abs string) int64 { return s.ahead[abs].fi.Size() }
	qsize := func(abs string) int64 { return s.queue.size[abs] }
	for _, e := range ents {
		if s.queue.dirs[abs] {
			s.queue.next += s.heads.fill(s.queue.files[s.queue.next:], qsize)
		} else {
			next += s.heads.fill(small[next:], sizeOf)
		}
		if err := s.addPath(tw, joinPath(shown, e.Name()), joinPath(strings.TrimSuffix(name, "/"), e.Name()), false); err != nil {
			return err
		}
	}
	return nil
}

// queueTree queues the small regular files of the tree abs (listed as
// ents) and of the directories below it that its walk has listed
// already (dirAhead.listed), for addPath to read them ahead across
// directories: where a directory has a few files, reading ahead only
// its own paid a round trip each. Not with -h (a link archived as what
// it leads to) or --exclude (a file excluded would be read for nothing).
func (s *tarState) queueTree(abs string, ents []fs.DirEntry) {
	if s.deref || len(s.excludes) > 0 || !s.dirs.tree || !s.env.CanReadHeads() {
		return
	}
	q := tarQueue{files: []string{}, size: map[string]int64{}, dirs: map[string]bool{}}
	var walk func(dir string, ents []fs.DirEntry)
	walk = func(dir string, ents []fs.DirEntry) {
		q.dirs[dir] = true
		for _, e := range ents {
			p := path.Join(dir, e.Name())
			switch t := e.Type(); {
			case t.IsDir():
				if sub, ok := s.dirs.listed(p, false); ok {
					walk(p, sub)
				}
			case t.IsRegular():
				if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() && fi.Size() < tarHeadMax {
					q.files = append(q.files, p)
					q.size[p] = fi.Size()
				}
			}
		}
	}
	walk(abs, ents)
	s.queue = q
}

// forgetQueue drops the reads of the queue addPath did not take (a file
// that was not archived after all), and the queue.
func (s *tarState) forgetQueue() {
	s.heads.forget(s.queue.files[:s.queue.next])
	s.queue = tarQueue{}
}

// tarHeadMax bounds the files tar c reads in one step (Env.ReadHead).
const tarHeadMax = 256 << 10

// addFile archives the regular file abs (shown, and named name in the
// archive) under the header hdr.
func (s *tarState) addFile(tw *tar.Writer, hdr *tar.Header, fi fs.FileInfo, abs, shown, name string) error {
	env := s.env
	hdr.Typeflag = tar.TypeReg
	hdr.Size = fi.Size()
	if s.tooLong(hdr) {
		return nil
	}
	if hdr.Size < tarHeadMax {
		// A small file in one round trip (read ahead, or now), when it
		// is still the size it was described with (else as below,
		// which says how it changed).
		r, ahead := s.heads.take(abs)
		if !ahead || r.size != hdr.Size {
			r = &headRead{size: hdr.Size, buf: make([]byte, hdr.Size+1)}
			r.n, r.whole, r.ok, r.err = env.ReadHead(abs, r.buf)
		}
		buf, n, whole, ok, err := r.buf, r.n, r.whole, r.ok, r.err
		switch {
		case ok && err != nil:
			s.fail("%s: Cannot open: %s", tarQuoteColon(shown), ErrText(err))
			return nil
		case ok && whole && int64(n) == hdr.Size:
			if err := tw.WriteHeader(hdr); err != nil {
				return err
			}
			s.listed(hdr, name)
			s.markAdded(abs, shown, false)
			_, err := tw.Write(buf[:n])
			return err
		}
	}
	f, err := env.FS.OpenFile(abs, os.O_RDONLY)
	if err != nil {
		s.fail("%s: Cannot open: %s", tarQuoteColon(shown), ErrText(err))
		return nil
	}
	defer f.Close()
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	s.listed(hdr, name)
	s.markAdded(abs, shown, false)
	n, err := io.CopyN(tw, tarCtxReader{s, f}, hdr.Size)
	if err != nil && err != io.EOF {
		var we gnu.WriteError
		if errors.As(err, &we) || errors.Is(err, gnu.ErrCancelled) {
			return err
		}
		s.fail("%s: Read error at byte %d, while reading %d bytes: %s", shown, n, hdr.Size-n, ErrText(err))
	} else if n < hdr.Size {
		s.fail("%s: File shrank by %d bytes; padding with zeros", shown, hdr.Size-n)
	}
	if n < hdr.Size {
		if _, err := io.CopyN(tw, zeroReader{}, hdr.Size-n); err != nil {
			return err
		}
	}
	return nil
}

// zeroReader reads zeros forever.
type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// listed prints a member under -v: its name, or with -vv (and -tv) a
// GNU long listing line.
func (s *tarState) listed(hdr *tar.Header, name string) {
	long := s.verbose > 1 || s.mode == 't' && s.verbose > 0
	if s.verbose == 0 && s.mode != 't' {
		return
	}
	if s.showXformed && s.mode == 'c' {
		name = hdr.Name
	}
	if !long {
		fmt.Fprintln(s.stdlis, gnu.QuoteStyle(name, s.quoting))
		return
	}
	if s.numericOwner {
		h := *hdr
		h.Uname, h.Gname = "", ""
		hdr = &h
	}
	loc := dateLocation(s.env)
	line := tarLongLine(hdr, name, &s.ugswidth, loc, s.quoting)
	if s.fullTime {
		// The minutes GNU shows get their seconds.
		stamp := hdr.ModTime.In(loc).Format("2006-01-02 15:04")
		line = strings.Replace(line, " "+stamp+" ", " "+stamp+hdr.ModTime.In(loc).Format(":05")+" ", 1)
	}
	fmt.Fprintln(s.stdlis, line)
}

// tarLongLine formats a member as `tar -tv` does; times are UTC (llmsh has
// no host time zone).
func tarLongLine(hdr *tar.Header, name string, ugswidth *int, loc *time.Location, style gnu.Style) string {
	var typ byte
	switch hdr.Typeflag {
	case tar.TypeDir:
		typ = 'd'
	case tar.TypeSymlink:
		typ = 'l'
	case tar.TypeLink:
		typ = 'h'
	case tar.TypeChar:
		typ = 'c'
	case tar.TypeBlock:
		typ = 'b'
	case tar.TypeFifo:
		typ = 'p'
	default:
		typ = '-'
	}
	m := hdr.Mode
	perm := []byte("rwxrwxrwx")
	for i := 0; i < 9; i++ {
		if m&(1<<(8-i)) == 0 {
			perm[i] = '-'
		}
	}
	setBit := func(bit int64, i int, on, off byte) {
		if m&bit != 0 {
			if perm[i] == 'x' {
				perm[i] = on
			} else {
				perm[i] = off
			}
		}
	}
	setBit(04000, 2, 's', 'S')
	setBit(02000, 5, 's', 'S')
	setBit(01000, 8, 't', 'T')
	user := hdr.Uname
	if user == "" {
		user = strconv.Itoa(hdr.Uid)
	}
	group := hdr.Gname
	if group == "" {
		group = strconv.Itoa(hdr.Gid)
	}
	size := strconv.FormatInt(hdr.Size, 10)
	if hdr.Typeflag == tar.TypeChar || hdr.Typeflag == tar.TypeBlock {
		size = fmt.Sprintf("%d,%d", hdr.Devmajor, hdr.Devminor)
	}
	// GNU widens the owner and size column for good once a line needs it.
	pad := len(user) + 1 + len(group) + len(size)
	*ugswidth = max(*ugswidth, pad)
	width := *ugswidth - pad + len(size)
	line := fmt.Sprintf("%c%s %s/%s %*s %s %s", typ, perm, user, group, width, size,
		hdr.ModTime.In(loc).Format("2006-01-02 15:04"), gnu.QuoteStyle(name, style))
	switch hdr.Typeflag {
	case tar.TypeSymlink:
		line += " -> " + gnu.QuoteStyle(hdr.Linkname, style)
	case tar.TypeLink:
		line += " link to " + gnu.QuoteStyle(hdr.Linkname, style)
	}
	return line
}

// tarQuoteColon is a name as GNU tar's messages show it (quotearg_colon):
// the escape style with ':' escaped too.
func tarQuoteColon(name string) string {
	return gnu.Quoting{Style: gnu.Escape, Also: ":"}.Quote(name)
}

// tarCounter counts the bytes read through it.
// tarResync reads 512-byte blocks from r up to one that is a header (its
// checksum right) and returns it; at a zero block or the end of the
// archive it returns false, as GNU tar ends the search there.
func tarResync(r io.Reader) ([]byte, bool) {
	block := make([]byte, 512)
	for {
		if _, err := io.ReadFull(r, block); err != nil {
			return nil, false
		}
		zero := true
		for _, b := range block {
			if b != 0 {
				zero = false
				break
			}
		}
		if zero {
			return nil, false
		}
		if tarChecksumOK(block) {
			return block, true
		}
	}
}

// tarSkipZeros reads r's 512-byte blocks up to the first that is not all
// zeros and returns it; false at the end of r. held says archive/tar
// has just read such a block itself (its ErrHeader after one zero
// block): nothing is read, the caller has it.
func tarSkipZeros(r io.Reader, held bool) ([]byte, bool) {
	if held {
		return nil, true
	}
	block := make([]byte, 512)
	for {
		if _, err := io.ReadFull(r, block); err != nil {
			return nil, false
		}
		if strings.Trim(string(block), "\x00") != "" {
			return block, true
		}
	}
}

// tarChecksumOK reports whether a header block's checksum field holds the
// sum of its bytes, the field itself counted as blanks (signed sums
// accepted, as GNU tar accepts them).
func tarChecksumOK(block []byte) bool {
	field := strings.Trim(string(block[148:156]), " \x00")
	want, err := strconv.ParseInt(field, 8, 64)
	if err != nil || field == "" {
		return false
	}
	var unsigned, signed int64
	for i, b := range block {
		if i >= 148 && i < 156 {
			b = ' '
		}
		unsigned += int64(b)
		signed += int64(int8(b))
	}
	return want == unsigned || want == signed
}

type tarCounter struct {
	r io.Reader
	n int64
	// Whether the last two whole 512-byte blocks read were zeros
	// (lastZero the later), and whether the block being read has a
	// byte that is not: GNU ends an archive at a zero block and warns
	// when the next one is not zero too.
	lastZero, prevZero, nonzero bool
	block                       [512]byte // the last block read (whole when n%512 == 0)
}

func (c *tarCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for b := p[:n]; len(b) > 0; {
		k := min(int64(len(b)), 512-c.n%512)
		if !c.nonzero {
			for _, x := range b[:k] {
				if x != 0 {
					c.nonzero = true
					break
				}
			}
		}
		copy(c.block[c.n%512:], b[:k])
		c.n += k
		b = b[k:]
		if c.n%512 == 0 {
			c.prevZero, c.lastZero, c.nonzero = c.lastZero, !c.nonzero, false
		}
	}
	return n, err
}

// loneZero reports where GNU tar says "A lone zero block at N" when
// archive/tar's Next ended with err, first telling whether a member came
// before: a zero block followed by the end of the input, by a block that
// is not zero, or (before any member) by a partial block. N counts
// blocks from 1.
func (c *tarCounter) loneZero(err error, first bool) (int64, bool) {
	switch {
	case err == io.EOF && c.n%512 == 0 && c.lastZero && !c.prevZero:
		return c.n / 512, true
	case errors.Is(err, tar.ErrHeader) && c.n%512 == 0 && c.prevZero && !c.lastZero:
		return c.n/512 - 1, true
	case first && err == io.ErrUnexpectedEOF && c.n%512 != 0 && c.n > 512 && c.lastZero:
		return c.n / 512, true
	}
	return 0, false
}

// read lists or extracts an archive.
// openArchive opens the archive to read, through gunzip when it is
// compressed; closer, when not nil, is for the caller to close.
func (s *tarState) openArchive() (_ io.Reader, closer io.Closer, _ error) {
	env := s.env
	var in io.Reader
	if s.file == "-" {
		in = env.Stdin
	} else {
		f, err := env.FS.OpenFile(env.Abs(s.file), os.O_RDONLY)
		if err != nil {
			s.archiveFailed("open", err)
			return nil, closer, errTarFatal
		}
		closer, in = f, f
	}
	br := bufio.NewReaderSize(tarCtxReader{s, in}, 64<<10)
	magic, _ := br.Peek(6)
	var found byte // the compression the archive's first bytes show
	switch {
	case bytes.HasPrefix(magic, []byte("\x1f\x8b")):
		found = 'z'
	case bytes.HasPrefix(magic, []byte("BZh")):
		found = 'j'
	case bytes.HasPrefix(magic, []byte("\xfd7zXZ\x00")):
		found = 'J'
	}
	want := found // GNU tar finds the compression of a named archive itself
	switch {
	case s.gzip:
		want = 'z'
	case s.bzip2:
		want = 'j'
	case s.xz:
		want = 'J'
	case found != 0 && s.file == "-":
		env.Errorf("Archive is compressed. Use -%c option", found)
		s.status = 2
		return nil, closer, errTarFatal
	}
	var r io.Reader = br
	switch {
	case want != found:
		// The filter program refuses the archive, in its words.
		msg, st := map[byte]string{'z': "\ngzip: stdin: not in gzip format", 'j': "bzip2: (stdin) is not a bzip2 file.",
			'J': "xz: (stdin): File format not recognized"}[want], map[byte]int{'z': 1, 'j': 2, 'J': 1}[want]
		fmt.Fprintln(env.Stderr, msg)
		env.Errorf("Child returned status %d", st)
		s.status = 2
		return nil, closer, errTarFatal
	case want == 'j':
		r = bzip2.NewReader(br)
	case want == 'J':
		xr, err := xz.NewReader(br)
		if err != nil {
			fmt.Fprintln(env.Stderr, "xz: (stdin): File format not recognized")
			env.Errorf("Child returned status 1")
			s.status = 2
			return nil, closer, errTarFatal
		}
		r = xr
	case want == 'z':
		zr, err := gzip.NewReader(br)
		if err != nil {
			if env.Ctx.Err() != nil {
				return nil, closer, gnu.ErrCancelled
			}
			fmt.Fprintf(env.Stderr, "\ngzip: stdin: unexpected end of file\n")
			env.Errorf("Child returned status 1")
			s.status = 2
			return nil, closer, errTarFatal
		}
		r = zr
	}
	return r, closer, nil
}

// tarMatch tells whether the member name is one of the operands or under
// one, marking in found the operands it matches.
func tarMatch(name string, operands []string, found []bool, exact bool) bool {
	match := false
	_, rest := tarUnsafePrefix(name)
	clean := strings.TrimRight(rest, "/")
	for i, op := range operands {
		o := strings.TrimRight(op, "/")
		if clean == o || !exact && strings.HasPrefix(clean, o+"/") {
			found[i], match = true, true
		}
	}
	return match
}

func (s *tarState) read(operands []string) error {
	env := s.env
	r, closer, err := s.openArchive()
	if closer != nil {
		defer closer.Close()
	}
	if err != nil {
		return err
	}
	raw := &tarCounter{r: r}
	tr := tar.NewReader(raw)
	found := make([]bool, len(operands))
	type dirTime struct {
		abs   string
		name  string
		mtime time.Time
		mode  int64
	}
	var dirs []dirTime
	for first := true; ; first = false {
		if env.Ctx.Err() != nil {
			return gnu.ErrCancelled
		}
		hdr, err := tr.Next()
		if s.ignoreZeros && raw.n%512 == 0 && (err == io.EOF || errors.Is(err, tar.ErrHeader) && raw.prevZero) {
			// GNU tar -i: zero blocks are passed over, and the
			// archive goes on at the next block that is not one.
			if block, ok := tarSkipZeros(raw, err != io.EOF); ok {
				if err != io.EOF {
					block = append([]byte(nil), raw.block[:]...)
				}
				tr = tar.NewReader(io.MultiReader(bytes.NewReader(block), raw))
				continue
			}
			break
		}
		if at, ok := raw.loneZero(err, first); ok {
			env.Errorf("A lone zero block at %d", at)
			break
		}
		if err == io.EOF && raw.n%512 != 0 {
			// archive/tar takes an archive cut inside a member's padding
			// for its end; GNU tar does not.
			err = io.ErrUnexpectedEOF
		}
		if err == io.EOF {
			if first && raw.n == 0 {
				s.fail("This does not look like a tar archive")
			}
			break
		}
		if errors.Is(err, tar.ErrHeader) && raw.n%512 == 0 {
			// GNU tar looks for the next block that is a header.
			if first {
				s.fail("This does not look like a tar archive")
			}
			s.fail("Skipping to next header")
			block, ok := tarResync(raw)
			if !ok {
				break
			}
			tr = tar.NewReader(io.MultiReader(bytes.NewReader(block), raw))
			continue
		}
		if err != nil {
			if env.Ctx.Err() != nil {
				return gnu.ErrCancelled
			}
			if first {
				s.fail("This does not look like a tar archive")
				break
			}
			s.fail("Unexpected EOF in archive")
			return errTarFatal
		}
		name := hdr.Name
		if len(operands) > 0 && !s.match(name, operands, found) || s.olderMember(hdr.ModTime) {
			continue
		}
		if s.leftOut(name) {
			continue
		}
		if s.mode == 't' {
			if !s.absNames {
				s.safeName(name)
			}
			s.listed(hdr, name)
			continue
		}
		if s.mode == 'D' {
			s.listed(hdr, name)
			if err := s.compare(tr, hdr); err != nil {
				return err
			}
			continue
		}
		if err := s.extract(tr, hdr, func(abs string, mtime time.Time) {
			dirs = append(dirs, dirTime{abs, name, mtime, hdr.Mode})
		}); err != nil {
			return err
		}
	}
	// Directory modes and times last, deepest first, since extracting
	// into a directory changes its time (and needs it writable).
	for i := len(dirs) - 1; i >= 0; i-- {
		s.setMode(dirs[i].abs, dirs[i].name, dirs[i].mode)
		if !s.touch {
			env.FS.Chtimes(dirs[i].abs, time.Time{}, dirs[i].mtime)
		}
	}
	s.tarReadTotal(raw.n)
	for i, op := range operands {
		if !found[i] {
			s.notFound(op)
		}
	}
	return nil
}

// compare reports on standard output how the file system differs from
// the member hdr (tar -d): its type, mode, modification time (to the
// second), size or contents, as GNU tar does; owners are not compared
// (vfsd does not tell them). A difference makes the status 1.
func (s *tarState) compare(tr *tar.Reader, hdr *tar.Header) error {
	env := s.env
	name := hdr.Name
	if !s.absNames {
		name = s.safeName(name)
	}
	shown := strings.TrimSuffix(hdr.Name, "/")
	differ := func(what string) {
		fmt.Fprintf(env.Stdout, "%s: %s\n", shown, what)
		s.status = max(s.status, 1)
	}
	abs := env.Abs(path.Join(s.base(), name))
	fi, err := env.FS.Lstat(abs)
	if err != nil {
		env.Errorf("%s: Warning: Cannot stat: %s", shown, ErrText(err))
		s.status = max(s.status, 1)
		return nil
	}
	switch hdr.Typeflag {
	case tar.TypeDir:
		if !fi.IsDir() {
			differ("File type differs")
		} else if fi.Mode().Perm() != fs.FileMode(hdr.Mode).Perm() {
			differ("Mode differs")
		}
	case tar.TypeSymlink:
		if target, err := env.FS.Readlink(abs); err != nil || target != hdr.Linkname {
			differ("Symlink differs")
		}
	case tar.TypeReg:
		if !fi.Mode().IsRegular() {
			differ("File type differs")
			return nil
		}
		if fi.Mode().Perm() != fs.FileMode(hdr.Mode).Perm() {
			differ("Mode differs")
		}
		if fi.ModTime().Unix() != hdr.ModTime.Unix() {
			differ("Mod time differs")
		}
		if fi.Size() != hdr.Size {
			differ("Size differs")
			return nil
		}
		same, err := s.sameContents(tr, abs)
		if err != nil {
			env.Errorf("%s: Cannot open: %s", shown, ErrText(err))
			s.status = max(s.status, 1)
		} else if !same {
			differ("Contents differ")
		}
	}
	return nil
}

// sameContents reports whether the member's data in tr equals the file
// abs (of the same size).
func (s *tarState) sameContents(tr io.Reader, abs string) (bool, error) {
	f, err := s.env.FS.OpenFile(abs, os.O_RDONLY)
	if err != nil {
		return false, err
	}
	defer f.Close()
	a := make([]byte, 32<<10)
	b := make([]byte, 32<<10)
	for {
		if err := s.env.Ctx.Err(); err != nil {
			return false, err
		}
		n, rerr := io.ReadFull(tr, a)
		if _, ferr := io.ReadFull(f, b[:n]); ferr != nil || !bytes.Equal(a[:n], b[:n]) {
			return false, nil
		}
		if rerr != nil {
			return true, nil
		}
	}
}

// extract writes one member below the base directory (or to standard
// output with -O). Members that would leave the base directory, links and
// special files are refused.
func (s *tarState) extract(tr *tar.Reader, hdr *tar.Header, dirDone func(string, time.Time)) error {
	env := s.env
	orig := hdr.Name
	// -P: the name as it is, absolute or with "..", for vfsd's grants
	// to allow or refuse.
	name := orig
	if !s.absNames {
		name = s.safeName(orig)
		if hasDotDot(orig) {
			s.fail("%s: Member name contains '..'", orig)
			return nil
		}
	}
	if len(s.transforms) > 0 {
		// A transformed name is checked again: it must stay below the
		// base directory (unless -P).
		name = s.transformName(strings.TrimSuffix(name, "/"))
		if !s.absNames {
			name = s.safeName(name)
		}
		if !s.absNames && hasDotDot(name) {
			s.fail("%s: Member name contains '..'", name)
			return nil
		}
		if strings.Trim(name, "/") == "" {
			return nil // transformed away
		}
	}
	name = s.oneTopLevel(name)
	if s.strip > 0 {
		var parts []string
		for _, p := range strings.Split(name, "/") {
			if p != "" {
				parts = append(parts, p)
			}
		}
		if len(parts) <= s.strip {
			return nil
		}
		name = strings.Join(parts[s.strip:], "/")
	}
	if s.toStdout {
		switch hdr.Typeflag {
		//lint:ignore SA1019 old archives still mark regular files '\x00' (TypeRegA)
		case tar.TypeReg, tar.TypeRegA, tar.TypeCont, tar.TypeGNUSparse:
			s.listed(hdr, orig)
			if _, err := io.Copy(tarCtxWriter{s, env.Stdout}, tr); err != nil {
				return s.copyFailure(orig, "", err)
			}
		}
		return nil
	}
	abs := path.Join(s.base(), name)
	if path.IsAbs(name) {
		abs = path.Clean(name)
	}
	switch hdr.Typeflag {
	case tar.TypeSymlink:
		s.fail("%s: Cannot create symlink: links are not supported in llmsh", tarQuoteColon(orig))
		return nil
	case tar.TypeLink:
		s.fail("%s: Cannot create hard link: links are not supported in llmsh", tarQuoteColon(orig))
		return nil
	case tar.TypeChar, tar.TypeBlock, tar.TypeFifo:
		s.fail("%s: Cannot mknod: device and fifo members are not supported in llmsh", tarQuoteColon(orig))
		return nil
	case tar.TypeDir:
		s.listed(hdr, orig)
		if s.oldFile(hdr, abs, orig) {
			return nil
		}
		if err := s.mkdirAll(abs, tarDirPerm(hdr.Mode)); err != nil {
			s.fail("%s: Cannot mkdir: %s", tarQuoteColon(orig), ErrText(err))
			return nil
		}
		dirDone(abs, hdr.ModTime)
		return nil
	//lint:ignore SA1019 old archives still mark regular files '\x00' (TypeRegA)
	case tar.TypeReg, tar.TypeRegA, tar.TypeCont, tar.TypeGNUSparse:
	default:
		env.Errorf("%s: Unknown file type '%c', extracted as normal file", orig, hdr.Typeflag)
	}
	s.listed(hdr, orig)
	if s.oldFile(hdr, abs, orig) {
		return nil
	}
	if err := s.mkdirAll(path.Dir(abs), 0o755); err != nil {
		s.fail("%s: Cannot mkdir: %s", tarQuoteColon(path.Dir(name)), ErrText(err))
		return nil
	}
	if fi, err := env.FS.Lstat(abs); err == nil && fi.IsDir() {
		s.fail("%s: Cannot open: Is a directory", tarQuoteColon(orig))
		return nil
	} else if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		// GNU tar unlinks an existing file before extracting over it; for
		// a symbolic link this also keeps the write from following it.
		if err := env.FS.Remove(abs); err != nil {
			s.fail("%s: Cannot unlink: %s", tarQuoteColon(orig), ErrText(err))
			return nil
		}
	}
	f, err := env.FS.OpenFile(abs, os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
	if err != nil {
		s.fail("%s: Cannot open: %s", tarQuoteColon(orig), ErrText(err))
		return nil
	}
	_, err = io.Copy(tarCtxWriter{s, f}, tr)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = gnu.WriteError{Err: cerr}
	}
	if err != nil {
		return s.copyFailure(orig, abs, err)
	}
	s.setMode(abs, orig, hdr.Mode)
	if !s.touch {
		env.FS.Chtimes(abs, time.Time{}, hdr.ModTime)
	}
	return nil
}

// setMode gives an extracted member its archived permission bits, less
// the umask unless -p (GNU tar's default for a user other than root).
// Setuid, setgid and sticky bits are never set.
func (s *tarState) setMode(abs, name string, mode int64) {
	perm := fs.FileMode(mode & 0o777)
	if !s.samePerm {
		perm &^= defaultUmask
	}
	if fi, err := s.env.FS.Stat(abs); err == nil && fi.Mode().Perm() == perm {
		return
	}
	if err := s.env.FS.Chmod(abs, perm); err != nil {
		s.fail("%s: Cannot change mode to %s: %s", tarQuoteColon(name), permString(uint32(perm)), ErrText(err))
	}
}

// copyFailure reports an error while copying member data: a write error
// is the member's, a read error is the archive's and stops the call.
func (s *tarState) copyFailure(name, abs string, err error) error {
	if errors.Is(err, gnu.ErrCancelled) {
		return err
	}
	var we gnu.WriteError
	if errors.As(err, &we) {
		if abs == "" {
			if IsBrokenPipe(err) {
				s.status, s.piped = 2, true
				return gnu.ErrCancelled
			}
			s.fail("stdout: Cannot write: %s", ErrText(we.Err))
			return errTarFatal
		}
		s.fail("%s: Cannot write: %s", tarQuoteColon(name), ErrText(we.Err))
		return nil
	}
	if abs != "" {
		s.env.FS.Remove(abs)
	}
	s.fail("Unexpected EOF in archive")
	return errTarFatal
}

// tarDirPerm is the permission a directory member is created with: its
// own bits less a 022 umask, and always writable and searchable by its
// owner so that its entries can be extracted.
func tarDirPerm(mode int64) fs.FileMode {
	return fs.FileMode(mode&0o777&^0o022) | 0o700
}

// mkdirAll creates dir and its missing parents below the base directory.
func (s *tarState) mkdirAll(dir string, perm fs.FileMode) error {
	return mkdirAll(s.env, dir, perm)
}

// statAhead describes the entries of the directory abs all together, for
// addPath to take in its turn (from the listing, or with the round trips
// to vfsd overlapping), and returns their names for forget.
func (s *tarState) statAhead(abs string, ents []fs.DirEntry) []string {
	names := make([]string, len(ents))
	for i, e := range ents {
		names[i] = path.Join(abs, e.Name())
	}
	fis, errs := entryInfos(s.env, abs, ents, false)
	if s.ahead == nil {
		s.ahead = map[string]tarStat{}
	}
	for i, n := range names {
		s.ahead[n] = tarStat{fis[i], errs[i]}
	}
	return names
}

// forget drops what statAhead made and addPath did not take (an excluded
// entry, or the walk stopped).
func (s *tarState) forget(names []string) {
	for _, n := range names {
		delete(s.ahead, n)
	}
}
