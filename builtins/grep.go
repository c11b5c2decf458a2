package builtins

import (
	"bufio"
	"context"
	"errors"
	"io"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

var _ = register(Builtin{Name: "grep", Summary: "print lines that match patterns", Run: grep})
var _ = register(Builtin{Name: "egrep", Summary: "print lines that match extended regular expressions (grep -E)", Run: func(env *Env) int { return grepMain(env, 'E') }})
var _ = register(Builtin{Name: "fgrep", Summary: "print lines that contain fixed strings (grep -F)", Run: func(env *Env) int { return grepMain(env, 'F') }})

// grepOpts holds grep's command line.
type grepOpts struct {
	mode                            byte // G E F P
	patterns                        []string
	havePat                         bool
	icase, invert, count, listMatch bool
	listNon, lineNum, byteOff, only bool
	lineBuffered                    bool // --line-buffered: flush after each read's lines
	quiet, silent, word, line       bool
	null, nullData, color           bool
	col                             *grepColors // --color: what colours each part
	initialTab                      bool        // -T
	withName                        int         // 0 default, 1 -H, -1 -h, 2 decided per operand
	maxCount                        int64
	after, before                   int
	ctxGiven                        bool // -A, -B, -C or -NUM, even 0: group separators
	groupSep                        string
	noGroupSep                      bool
	recursive, deref, dirSkip       bool
	include, exclude, excludeDir    []func(string) bool // fnmatch globs
	label, binMode                  string
	implicitDot                     bool
	digits                          string // -NUM context

	hadError, anySelected, anyOut bool
}

func grep(env *Env) int { return grepMain(env, 'G') }

// grepArgmatchError is a word of --directories that argmatch refuses.
type grepArgmatchError struct{ msg string }

func (e grepArgmatchError) Error() string { return e.msg }

const grepUsage = "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n"

func grepMain(env *Env, mode byte) int {
	// egrep and fgrep are grep -E and grep -F, and speak as grep.
	if len(env.Args) > 0 && env.Name() != "grep" {
		e := *env
		e.Args = append([]string{"grep"}, env.Args[1:]...)
		env = &e
	}
	o, operands, status := grepParse(env, mode)
	if o == nil {
		return status
	}
	if o.color {
		var warn string
		if o.col, warn = grepColorsFrom(env.Environ); warn != "" {
			io.WriteString(env.Stderr, "grep: "+warn+"\n")
		}
	}
	eol := byte('\n')
	if o.nullData {
		eol = 0
	}
	ctx := env.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	m, warnings, err := newGrepMatcher(ctx, o.patterns, o.mode, o.icase, o.word, o.line, eol, byteLocale(env))
	if ctx.Err() != nil {
		return 2 // stopped while compiling (the run's limit says why)
	}
	if err != nil {
		env.Errorf("%s", err)
		return 2
	}
	m.setCtx(env.Ctx)
	for _, w := range warnings {
		env.Errorf("warning: %s", w)
	}
	if len(operands) == 0 {
		if o.recursive {
			operands = []string{"."}
			o.implicitDot = true
		} else {
			operands = []string{"-"}
		}
	}
	if o.withName == 0 && (len(operands) > 1 || o.recursive) {
		o.withName = 2 // decided per operand for -r on a single file
	}
	g := &grepRun{o: o, m: m, env: env, w: bufio.NewWriterSize(env.Stdout, 64<<10), eol: eol, dirs: newDirAhead(env, true)}
	g.encErr = o.binMode != "text" && !byteLocale(env)
	g.dirs.tree = true
	if grepCannotMatch(o) {
		return 1
	}
	for _, op := range operands {
		if g.stop {
			break
		}
		g.operand(op, len(operands) > 1)
	}
	if ferr := g.w.Flush(); ferr != nil && g.werr == nil {
		g.werr = ferr
	}
	if g.werr != nil {
		if IsBrokenPipe(g.werr) {
			return 1
		}
		env.Errorf("write error: %s", ErrText(g.werr))
		return 2
	}
	if g.cancelled {
		return 2
	}
	if o.quiet && o.anySelected {
		return 0
	}
	if o.hadError {
		return 2
	}
	if o.anySelected {
		return 0
	}
	return 1
}

// grepCannotMatch reports GNU's shortcut of failing without reading any
// input (not even to report missing files): -m 0, or a pattern list that
// is empty (-f /dev/null) or only the empty pattern under -v, unless -L.
func grepCannotMatch(o *grepOpts) bool {
	if o.listNon && !o.quiet {
		return false
	}
	if o.maxCount == 0 {
		return true
	}
	for _, p := range o.patterns {
		if p != "" {
			return false
		}
	}
	if len(o.patterns) == 0 {
		return !o.invert
	}
	return o.invert && !o.line && !o.word
}

// grepCmdLine is the state of parsing grep's command line: the options
// set o, and what is checked after them all.
type grepCmdLine struct {
	o                *grepOpts
	modeSet          bool
	patErr           error // the first -f file that could not be read
	ctxA, ctxB, ctxC string
	setA, setB, setC bool
}

// matchFlags adds the options of what is matched, and how, to f.
func (p *grepCmdLine) matchFlags(f *Flags, env *Env) {
	o := p.o
	setMode := func(m byte) func(string, bool) error {
		return func(string, bool) error {
			if p.modeSet && o.mode != m {
				return errors.New("conflicting matchers specified")
			}
			o.mode, p.modeSet = m, true
			return nil
		}
	}
	f.Section("Pattern selection and interpretation:")
	f.Func('E', "extended-regexp", NoArg, "", "PATTERNS are extended regular expressions", setMode('E'))
	f.Func('F', "fixed-strings", NoArg, "", "PATTERNS are strings", setMode('F'))
	f.Alias("fixed-regexp", "fixed-strings") // GNU's obsolete, hidden spelling
	f.Func('G', "basic-regexp", NoArg, "", "PATTERNS are basic regular expressions", setMode('G'))
	f.Func('P', "perl-regexp", NoArg, "", "PATTERNS are Perl regular expressions (\\xHH is a\ncharacter, not a byte)", setMode('P'))
	f.Func('e', "regexp", RequiredArg, "PATTERNS", "use PATTERNS for matching", func(v string, _ bool) error {
		o.patterns = append(o.patterns, strings.Split(v, "\n")...)
		o.havePat = true
		return nil
	})
	f.Func('f', "file", RequiredArg, "FILE", "take PATTERNS from FILE", func(v string, _ bool) error {
		o.havePat = true
		r, err := env.Open(v)
		if err != nil {
			if p.patErr == nil {
				p.patErr = &grepFileError{v, err}
			}
			return nil
		}
		defer r.Close()
		data, err := readHeld(env, r) // the patterns are held whole: one value
		if err != nil {
			if p.patErr == nil {
				p.patErr = &grepFileError{v, err}
			}
			return nil
		}
		s := string(data)
		if s == "" {
			return nil
		}
		s = strings.TrimSuffix(s, "\n")
		o.patterns = append(o.patterns, strings.Split(s, "\n")...)
		return nil
	})
	f.BoolVar(&o.icase, 'i', "ignore-case", "ignore case distinctions in patterns and data")
	f.Func(0, "no-ignore-case", NoArg, "", "do not ignore case distinctions (default)", func(string, bool) error { o.icase = false; return nil })
	f.BoolVar(&o.icase, 'y', "", "")
	f.BoolVar(&o.word, 'w', "word-regexp", "match only whole words")
	f.BoolVar(&o.line, 'x', "line-regexp", "match only whole lines")
	f.BoolVar(&o.nullData, 'z', "null-data", "a data line ends in 0 byte, not newline")
	f.Section("Miscellaneous:")
	f.BoolVar(&o.silent, 's', "no-messages", "suppress error messages")
	f.BoolVar(&o.invert, 'v', "invert-match", "select non-matching lines")
	f.Row("-V, --version", "display version information and exit")
	f.Row("    --help", "display this help text and exit")
	f.Section("Output control:")
	f.Func('m', "max-count", RequiredArg, "NUM", "stop after NUM selected lines", func(v string, _ bool) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return errors.New("invalid max count")
		}
		o.maxCount = n
		if n < 0 {
			o.maxCount = -1
		}
		return nil
	})
}

// outputFlags adds the options of the output and of the files searched
// to f.
func (p *grepCmdLine) outputFlags(f *Flags, env *Env) {
	o := p.o
	f.BoolVar(&o.byteOff, 'b', "byte-offset", "print the byte offset with output lines")
	f.BoolVar(&o.lineNum, 'n', "line-number", "print line number with output lines")
	f.BoolVar(&o.lineBuffered, 0, "line-buffered", "flush output on every line")
	// grep 3.8 still takes -u, which changes nothing, with a warning.
	f.Func('u', "unix-byte-offsets", NoArg, "", "", func(string, bool) error {
		env.Errorf("warning: --unix-byte-offsets (-u) is obsolete")
		return nil
	})
	f.Func('H', "with-filename", NoArg, "", "print file name with output lines", func(string, bool) error { o.withName = 1; return nil })
	f.Func('h', "no-filename", NoArg, "", "suppress the file name prefix on output", func(string, bool) error { o.withName = -1; return nil })
	f.StringVar(&o.label, 0, "label", "LABEL", "use LABEL as the standard input file name prefix")
	f.BoolVar(&o.only, 'o', "only-matching", "show only nonempty parts of lines that match")
	f.BoolVar(&o.quiet, 'q', "quiet", "suppress all normal output")
	f.Synonym("silent", "quiet")
	f.Func(0, "binary-files", RequiredArg, "TYPE", "assume that binary files are TYPE;\n                            TYPE is 'binary', 'text', or 'without-match'", func(v string, _ bool) error {
		switch v {
		case "binary", "text", "without-match":
			o.binMode = v
			return nil
		}
		return errors.New("unknown binary-files type")
	})
	f.Func('a', "text", NoArg, "", "equivalent to --binary-files=text", func(string, bool) error { o.binMode = "text"; return nil })
	f.Func('I', "", NoArg, "", "equivalent to --binary-files=without-match", func(string, bool) error { o.binMode = "without-match"; return nil })
	f.Func('d', "directories", RequiredArg, "ACTION", "how to handle directories;\n                            ACTION is 'read', 'recurse', or 'skip'", func(v string, _ bool) error {
		i, err := lsArgMatch(env, "--directories", v, []string{"read", "recurse", "skip"}, lsSeq(3))
		if err != nil {
			msg, _ := usageMessage(err)
			return grepArgmatchError{msg}
		}
		switch i {
		case 0:
			o.recursive, o.dirSkip = false, false
		case 1:
			o.recursive = true
		default:
			o.dirSkip = true
		}
		return nil
	})
	f.Func('D', "devices", RequiredArg, "ACTION", "how to handle devices, FIFOs and sockets;\nACTION is 'read' or 'skip' (llmsh has none)", func(v string, _ bool) error {
		if v != "read" && v != "skip" {
			return errors.New("unknown devices method")
		}
		return nil
	})
	f.Func('r', "recursive", NoArg, "", "like --directories=recurse", func(string, bool) error { o.recursive = true; return nil })
	f.Func('R', "dereference-recursive", NoArg, "", "likewise, but follow all symlinks", func(string, bool) error { o.recursive, o.deref = true, true; return nil })
	f.Func(0, "include", RequiredArg, "GLOB", "search only files that match GLOB (a file pattern)", func(v string, _ bool) error { o.include = append(o.include, findGlob(v, false)); return nil })
	f.Func(0, "exclude", RequiredArg, "GLOB", "skip files that match GLOB", func(v string, _ bool) error { o.exclude = append(o.exclude, findGlob(v, false)); return nil })
	f.Func(0, "exclude-from", RequiredArg, "FILE", "skip files that match any file pattern from FILE", func(v string, _ bool) error {
		r, err := env.Open(v)
		if err == nil {
			var data []byte
			data, err = io.ReadAll(r)
			r.Close()
			for _, l := range grepExcludeLines(string(data)) {
				o.exclude = append(o.exclude, findGlob(l, false))
			}
		}
		if err != nil && p.patErr == nil {
			p.patErr = &grepFileError{v, err}
		}
		return nil
	})
	f.Func(0, "exclude-dir", RequiredArg, "GLOB", "skip directories that match GLOB", func(v string, _ bool) error {
		// GNU strips the glob's trailing slashes (e/ is e; / stays)
		if t := strings.TrimRight(v, "/"); t != "" {
			v = t
		}
		o.excludeDir = append(o.excludeDir, findGlob(v, false))
		return nil
	})
	// -l and -L: the last one given wins, as in GNU grep 3.8
	f.Func('L', "files-without-match", NoArg, "", "print only names of FILEs with no selected lines", func(string, bool) error { o.listNon, o.listMatch = true, false; return nil })
	f.Func('l', "files-with-matches", NoArg, "", "print only names of FILEs with selected lines", func(string, bool) error { o.listMatch, o.listNon = true, false; return nil })
	f.BoolVar(&o.count, 'c', "count", "print only a count of selected lines per FILE")
	f.BoolVar(&o.initialTab, 'T', "initial-tab", "make tabs line up (if needed)")
	f.BoolVar(&o.null, 'Z', "null", "print 0 byte after FILE name")
	f.Section("Context control:")
	f.Func('B', "before-context", RequiredArg, "NUM", "print NUM lines of leading context", func(v string, _ bool) error { p.ctxB, p.setB = v, true; return nil })
	f.Func('A', "after-context", RequiredArg, "NUM", "print NUM lines of trailing context", func(v string, _ bool) error { p.ctxA, p.setA = v, true; return nil })
	f.Func('C', "context", RequiredArg, "NUM", "print NUM lines of output context", func(v string, _ bool) error { p.ctxC, p.setC, o.digits = v, true, ""; return nil })
	f.Row("-NUM", "same as --context=NUM")
	for d := '0'; d <= '9'; d++ {
		d := d
		f.Func(d, "", NoArg, "", "", func(string, bool) error {
			o.digits += string(d)
			p.ctxC, p.setC = o.digits, true
			return nil
		})
	}
	f.Func(0, "group-separator", RequiredArg, "SEP", "print SEP on line between matches with context", func(v string, _ bool) error { o.groupSep, o.noGroupSep = v, false; return nil })
	f.Func(0, "no-group-separator", NoArg, "", "do not print separator for matches with context", func(string, bool) error { o.noGroupSep = true; return nil })
	colorFn := func(v string, present bool) error {
		if !present {
			v = "auto"
		}
		switch v {
		case "always", "yes", "force":
			o.color = true
		case "never", "no", "none":
			o.color = false
		case "auto", "tty", "if-tty":
			o.color = env.Color
		default:
			// GNU grep shows its help for an unknown WHEN.
			return ErrHelp
		}
		return nil
	}
	f.Func(0, "color", OptionalArg, "WHEN", "use markers to highlight the matching strings;\n                            WHEN is 'always', 'never', or 'auto'", colorFn)
	f.Synonym("colour", "color")
	f.Func('U', "binary", NoArg, "", "do not strip CR characters at EOL (MSDOS/Windows)", func(string, bool) error { return nil })
	f.Epilog = "When FILE is '-', read standard input.  With no FILE, read '.' if\nrecursive, '-' otherwise.  With fewer than two FILEs, assume -h.\nExit status is 0 if any line is selected, 1 otherwise;\nif any error occurs and -q is not given, the exit status is 2."
}

// contextLengths sets the context lengths of -A, -B, -C and -NUM; on
// false it has reported an invalid one.
func (p *grepCmdLine) contextLengths(env *Env) bool {
	for _, c := range []struct {
		s   string
		set bool
		dst *int
	}{{p.ctxC, p.setC, &p.o.after}, {p.ctxC, p.setC, &p.o.before}, {p.ctxA, p.setA, &p.o.after}, {p.ctxB, p.setB, &p.o.before}} {
		if !c.set {
			continue
		}
		p.o.ctxGiven = true
		n, err := strconv.ParseInt(c.s, 10, 64)
		if err != nil || n < 0 {
			if err != nil && errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(c.s, "-") {
				n = 1 << 31
			} else {
				env.Errorf("%s: invalid context length argument", c.s)
				return false
			}
		}
		if n > 1<<31 {
			n = 1 << 31
		}
		*c.dst = int(n)
	}
	return true
}

// grepParse reads grep's options and the patterns; on nil it returns the
// exit status.
func grepParse(env *Env, mode byte) (*grepOpts, []string, int) {
	o := &grepOpts{mode: mode, maxCount: -1, groupSep: "--", label: "(standard input)", binMode: "binary"}
	f := NewFlags(env, "Search for PATTERNS in each FILE.\nExample: grep -i 'hello world' menu.h main.c\nPATTERNS can contain multiple patterns separated by newlines.", "[OPTION]... PATTERNS [FILE]...")
	p := &grepCmdLine{o: o, modeSet: mode != 'G'}
	// GNU grep's layout: sections, no note on mandatory arguments,
	// further lines at the description's column, --help and --version
	// under Miscellaneous.
	f.NoMandatoryNote, f.FlushFurther, f.OwnHelpRows = true, true, true
	p.matchFlags(f, env)
	p.outputFlags(f, env)
	version := shortHelpVersion(f, 0, 'V')
	operands, err := f.Parse(env.Args[1:])
	o.lineBuffered = o.lineBuffered || env.LineBuffered() // stdbuf -oL
	if err == nil && *version {
		return nil, nil, printVersion(env)
	}
	var am grepArgmatchError
	if errors.As(err, &am) {
		// XARGMATCH's failure: usage (EXIT_FAILURE), status 1.
		env.Errorf("%s", am.msg)
		io.WriteString(env.Stderr, grepUsage)
		return nil, nil, 1
	}
	if err != nil {
		msg, isUsage := usageMessage(err)
		if isUsage {
			env.Errorf("%s", msg)
			io.WriteString(env.Stderr, grepUsage)
			return nil, nil, 2
		}
		return nil, nil, f.Fail(err, 2)
	}
	if p.patErr != nil {
		var fe *grepFileError
		errors.As(p.patErr, &fe)
		if !quietStop(fe.err) {
			env.PathError(fe.name, fe.err)
		}
		return nil, nil, 2
	}
	if !p.contextLengths(env) {
		return nil, nil, 2
	}
	if !o.havePat {
		if len(operands) == 0 {
			io.WriteString(env.Stderr, grepUsage)
			return nil, nil, 2
		}
		o.patterns = strings.Split(operands[0], "\n")
		operands = operands[1:]
	}
	return o, operands, 0
}

type grepFileError struct {
	name string
	err  error
}

func (e *grepFileError) Error() string { return e.name + ": " + ErrText(e.err) }

// grepRun is one grep invocation over its operands.
type grepRun struct {
	dirs      *dirAhead // -r: the subdirectories listed ahead of the walk
	o         *grepOpts
	m         *grepMatcher
	env       *Env
	w         *bufio.Writer
	eol       byte
	buf       []byte
	stop      bool // -q matched, output failed, or cancelled
	werr      error
	cancelled bool
	dirIDs    []string         // -R: identities of the directories being walked
	ahead     []*grepAheadFile // the walk's files being read ahead, in order
	batch     []*grepAheadFile // of them, the last ones, not asked for yet (sendBatch)
	// encErr: a line (with -o a match) that is not UTF-8 is not output,
	// and with --binary-files=binary makes the binary-file notice (GNU
	// grep 3.8 in a UTF-8 locale: an encoding error is binary data).
	encErr bool
	// outKnown: outInfo and outTarget describe standard output, when it
	// is a regular file (inputIsOutput).
	outKnown  bool
	outInfo   fs.FileInfo
	outTarget string
}

func (g *grepRun) fail(name string, err error) {
	g.o.hadError = true
	if !g.o.silent {
		g.w.Flush()
		g.env.PathError(name, err)
	}
}

// grepGlobMatch reports whether name, or a suffix of it after a '/',
// matches one of globs (GNU's rule for --include and --exclude: fnmatch
// without FNM_PATHNAME or FNM_PERIOD).
func grepGlobMatch(globs []func(string) bool, name string, suffixes bool) bool {
	for _, match := range globs {
		if match(name) {
			return true
		}
		if suffixes {
			for i := 0; i < len(name); i++ {
				if name[i] == '/' && i+1 < len(name) && name[i+1] != '/' {
					if match(name[i+1:]) {
						return true
					}
				}
			}
		}
	}
	return false
}

func (g *grepRun) fileExcluded(name string, cmdline bool) bool {
	base := name
	if !cmdline {
		base = path.Base(name)
	}
	if grepGlobMatch(g.o.exclude, base, cmdline) {
		return true
	}
	if len(g.o.include) > 0 && !grepGlobMatch(g.o.include, base, cmdline) {
		return true
	}
	return false
}

func (g *grepRun) operand(op string, several bool) {
	o := g.o
	if op == "-" {
		g.search(o.label, nopReadCloser{g.env.Stdin}, o.withName > 0)
		return
	}
	if (len(o.include) > 0 || len(o.exclude) > 0) && g.fileExcluded(op, true) {
		if st, err := g.env.FS.Stat(g.env.Abs(op)); err != nil || !st.IsDir() {
			return
		}
	}
	if o.recursive || o.dirSkip {
		st, err := g.env.FS.Stat(g.env.Abs(op))
		if err != nil {
			g.fail(op, err)
			return
		}
		if st.IsDir() {
			if o.dirSkip && !o.recursive {
				return
			}
			// A directory named on the command line is skipped when it
			// (or a suffix after a '/') matches --exclude-dir; the "."
			// searched when none is named is not.
			if !o.implicitDot && grepGlobMatch(o.excludeDir, op, true) {
				return
			}
			if o.withName == 2 {
				o.withName = 1
			}
			g.walk(op)
			g.drainAhead()
			return
		}
		if o.withName == 2 && !several {
			o.withName = -1
		}
	}
	g.openAndSearch(op, false)
}

// openAndSearch searches the file name; regular says the walk already
// knows it is a regular file, so it is not asked whether it is a
// directory (a round trip to vfsd per file).
func (g *grepRun) openAndSearch(name string, regular bool) {
	r, err := g.env.Open(name)
	if errors.Is(err, syscall.EISDIR) && !g.o.dirSkip {
		g.failedRead(name, err)
		return
	}
	if err != nil {
		g.fail(name, err)
		return
	}
	defer r.Close()
	if st, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok && !regular {
		if fi, err := st.Stat(); err == nil && fi.IsDir() {
			if g.o.dirSkip {
				return
			}
			g.failedRead(name, errIsDir)
			return
		}
	}
	g.search(name, r, g.o.withName > 0)
}

// failedRead is a file GNU grep opened but could not read (a
// directory): the error, then what a file of no lines gives (-c's 0,
// -L's name).
func (g *grepRun) failedRead(name string, err error) {
	g.fail(name, err)
	g.search(name, nopReadCloser{strings.NewReader("")}, g.o.withName > 0)
}

var errIsDir = errors.New("Is a directory")

// errInputIsOutput is GNU grep's refusal of an input that is the file its
// output goes to (`grep x f > f`, `grep -r x . > f`, `grep x f >> f`).
var errInputIsOutput = errors.New("input file is also the output")

// inputIsOutput reports whether the input r, named name, is the regular
// file that grep's standard output writes, which GNU grep refuses (status
// 2) unless it only counts, lists or stops at a first match: the file a
// truncating redirection writes is known by its name (vfsd writes a temp
// file until the close; truncs.go in the shell), one appended to by its
// identity.
func (g *grepRun) inputIsOutput(name string, r io.Reader) bool {
	o := g.o
	if o.quiet || o.count || o.listMatch || o.listNon || o.maxCount >= 0 && o.maxCount <= 1 {
		return false
	}
	if !g.outKnown {
		g.outKnown = true
		g.outInfo = outputFile(g.env.Stdout)
		if g.outTarget = truncTarget(g.env.Stdout); g.outTarget != "" {
			if fi, err := g.env.FS.Stat(g.outTarget); err == nil && fi.Mode().IsRegular() {
				g.outInfo = fi
			}
		}
	}
	if g.outInfo == nil {
		return false
	}
	if g.outTarget != "" && name != o.label && g.env.Abs(name) == g.outTarget {
		return true
	}
	in, err := inputStat(r)
	return err == nil && in.Mode().IsRegular() && SameFile(in, g.outInfo)
}

func (g *grepRun) walk(dir string) {
	if g.stop {
		return
	}
	if err := g.env.Ctx.Err(); err != nil {
		g.stop, g.cancelled = true, true
		return
	}
	if g.o.deref {
		// -R: a directory reached again through a link is a loop, told
		// by vfsd's file identity, and not walked again.
		if fi, err := g.env.FS.Stat(g.env.Abs(dir)); err == nil {
			if id, ok := fi.(interface{ FileID() string }); ok && id.FileID() != "" {
				if slices.Contains(g.dirIDs, id.FileID()) {
					g.drainAhead()
					g.w.Flush()
					g.env.Errorf("%s: warning: recursive directory loop", dir)
					return
				}
				g.dirIDs = append(g.dirIDs, id.FileID())
				defer func() { g.dirIDs = g.dirIDs[:len(g.dirIDs)-1] }()
			}
		}
	}
	abs := g.env.Abs(dir)
	ents, err := g.dirs.readDir(abs)
	if err != nil {
		g.drainAhead()
		g.fail(dir, err)
		return
	}
	var subdirs []string
	for _, e := range ents {
		if e.IsDir() && !grepGlobMatch(g.o.excludeDir, e.Name(), false) {
			subdirs = append(subdirs, path.Join(abs, e.Name()))
		}
	}
	defer g.dirs.forget(g.dirs.ahead(subdirs))
	for _, e := range ents {
		if g.stop {
			return
		}
		name := dir + "/" + e.Name()
		if strings.HasSuffix(dir, "/") {
			name = dir + e.Name()
		}
		if g.o.implicitDot && dir == "." {
			name = e.Name()
		}
		typ := e.Type()
		if typ&fs.ModeSymlink != 0 {
			if !g.o.deref {
				continue
			}
			st, err := g.env.FS.Stat(g.env.Abs(name))
			if err != nil {
				g.drainAhead()
				g.fail(name, err)
				continue
			}
			typ = st.Mode().Type()
		}
		if typ.IsDir() {
			if grepGlobMatch(g.o.excludeDir, e.Name(), false) {
				continue
			}
			g.walk(name)
			continue
		}
		if !typ.IsRegular() {
			continue
		}
		if g.fileExcluded(name, false) {
			continue
		}
		if g.o.initialTab {
			g.openAndSearch(name, true) // -T asks the open file for its size
		} else {
			g.readAhead(name)
		}
	}
}

// grepExcludeLines splits an --exclude-from file into its patterns as
// gnulib's add_exclude_fp does: one a line, trailing white space dropped,
// lines of white space only skipped.
func grepExcludeLines(data string) []string {
	var out []string
	for _, l := range strings.Split(data, "\n") {
		if l = strings.TrimRight(l, " \t\n\v\f\r"); l != "" {
			out = append(out, l)
		}
	}
	return out
}
