package builtins

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
	"github.com/llmsh/llmsh/posixre"
)

var _ = register(Builtin{Name: "diff", Summary: "compare files line by line", Run: diff})

const diffSummary = `Compare FILES line by line.`

const diffEpilog = `FILES are 'FILE1 FILE2' or 'DIR1 DIR2' or 'DIR FILE' or 'FILE DIR'.
If a FILE is '-', read standard input.
Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.`

type diffStyle int

const (
	diffNormal diffStyle = iota
	diffUnified
	diffContext
	diffEd    // -e
	diffRCS   // -n
	diffIfdef // -D NAME
	diffSide  // -y
)

// differ holds one run of diff: the options and the output.
type differ struct {
	env         *Env
	out         *bufio.Writer
	style       diffStyle
	context     int
	brief       bool
	reportSame  bool
	recursive   bool
	newFile     bool
	text        bool
	ignoreBlank bool
	ignoreRes   []string          // -I patterns, compiled into ignoreREs
	ignoreREs   []*posixre.Regexp // a change whose lines all match is ignored
	funcRes     []string          // -p, -F patterns
	funcREs     []*posixre.Regexp
	opts        diffOpts
	labels      []string
	switches    string // the options as given, for "diff -r a/x b/x" lines
	color       bool
	stripCR     bool
	expandTabs  bool
	initialTab  bool
	exclude     []string
	excludeM    []func(string) bool // exclude's fnmatch globs, compiled on first use
	stdinData   []byte
	stdinRead   bool
	now         time.Time
	formats     diffFormats // -D and --GTYPE-group-format, --LTYPE-line-format
	width       int         // -W, for -y
	// -y: --suppress-common-lines, --left-column
	suppressCommon, leftColumn bool
	suppressBlank              bool              // --suppress-blank-empty
	newFirst                   bool              // --unidirectional-new-file
	palette                    map[string]string // --palette: the SGR of hd, ln, de, ad
	fromFile, toFile           string            // --from-file, --to-file
	paginate                   bool              // -l: each pair's output through pr
	ignoreNameCase             bool              // --ignore-file-name-case
	startAt                    string            // -S: the first name of the top directories
}

func diff(env *Env) int {
	d, ops, status := diffParse(env)
	if d == nil {
		return status
	}
	d.switches = diffSwitches(env.Args[1:], ops)
	d.out = bufio.NewWriterSize(env.Stdout, 64<<10)
	switch {
	case d.fromFile != "":
		status = 0
		for _, op := range ops {
			status = max(status, d.compare(d.fromFile, op, true, "", ""))
		}
	case d.toFile != "":
		status = 0
		for _, op := range ops {
			status = max(status, d.compare(op, d.toFile, true, "", ""))
		}
	default:
		status = d.compare(ops[0], ops[1], true, "", "")
	}
	if err := d.out.Flush(); err != nil {
		return outputFailed(env, err, wroteNamed, "standard output", 2)
	}
	return status
}

// diffCmdLine is the state of parsing diff's command line: what the
// options set in the differ, and what is checked after them all.
type diffCmdLine struct {
	d          *differ
	styleSet   bool
	styleErr   bool
	contextSet int // -1: no context length given
	// ocontext is the obsolete -NUM option's context length (-1: none):
	// digits given one after another make one number (-u -1 -0 is 10).
	ocontext   int
	prevDigit  bool // the last option was a digit
	explicit   bool // -C or -U gave a length
	badContext string
	badWidth   *string
	badColor   *string
	showC      bool
	bad        []string // usage errors of the options, in order
	fatal      string   // an -X file that cannot be read
	palette    string
	conflict   string // a second, different --from-file or --to-file
}

func (p *diffCmdLine) setStyle(s diffStyle) {
	p.prevDigit = false
	if p.styleSet && p.d.style != s {
		p.styleErr = true
	}
	p.styleSet, p.d.style = true, s
}

func (p *diffCmdLine) setContext(v string) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		if p.badContext == "" {
			p.badContext = v
		}
		return
	}
	p.contextSet = max(p.contextSet, n)
	p.explicit = true
}

// digitFlags adds diff's obsolete -NUM options (GNU diffutils 3.8): the
// context length of -c, -u and -p, unless -C or -U gave a larger one.
func (p *diffCmdLine) digitFlags(f *Flags) {
	for c := '0'; c <= '9'; c++ {
		f.Func(c, "", NoArg, "", "", func(string, bool) error {
			n := int(c - '0')
			if p.prevDigit && p.ocontext >= 0 {
				n = min(p.ocontext, (math.MaxInt32-n)/10)*10 + n
			}
			p.ocontext, p.prevDigit = n, true
			return nil
		})
	}
}

// applyOcontext sets the context length from -NUM, as GNU diff does after
// its options: a -NUM larger than the length wins, a smaller one only
// over -c's or -u's default 3.
func (p *diffCmdLine) applyOcontext() {
	if p.ocontext < 0 || p.d.style != diffContext && p.d.style != diffUnified {
		return
	}
	if p.contextSet < p.ocontext || p.ocontext < p.contextSet && !p.explicit {
		p.contextSet = p.ocontext
	}
}

// styleFlags adds the options of the output format to f.
func (p *diffCmdLine) styleFlags(f *Flags) {
	d := p.d
	f.Func(0, "normal", NoArg, "", "output a normal diff (the default)", func(string, bool) error {
		p.setStyle(diffNormal)
		return nil
	})
	f.BoolVar(&d.brief, 'q', "brief", "report only when files differ")
	f.BoolVar(&d.reportSame, 's', "report-identical-files", "report when two files are the same")
	f.Func('c', "", NoArg, "", "output 3 lines of copied context", func(string, bool) error {
		p.setStyle(diffContext)
		p.contextSet = max(p.contextSet, 3)
		return nil
	})
	f.Func('C', "context", OptionalArg, "NUM", "output NUM (default 3) lines of copied context", func(v string, present bool) error {
		p.setStyle(diffContext)
		if present {
			p.setContext(v)
		} else {
			p.contextSet = max(p.contextSet, 3)
		}
		return nil
	})
	f.Func('u', "", NoArg, "", "output 3 lines of unified context", func(string, bool) error {
		p.setStyle(diffUnified)
		p.contextSet = max(p.contextSet, 3)
		return nil
	})
	f.Func('U', "unified", OptionalArg, "NUM", "output NUM (default 3) lines of unified context", func(v string, present bool) error {
		p.setStyle(diffUnified)
		if present {
			p.setContext(v)
		} else {
			p.contextSet = max(p.contextSet, 3)
		}
		return nil
	})
	f.Func('e', "ed", NoArg, "", "output an ed script", func(string, bool) error {
		p.setStyle(diffEd)
		return nil
	})
	f.Func('n', "rcs", NoArg, "", "output an RCS format diff", func(string, bool) error {
		p.setStyle(diffRCS)
		return nil
	})
	f.Func('D', "ifdef", RequiredArg, "NAME", "output merged file with '#ifdef NAME' diffs", func(v string, _ bool) error {
		p.setStyle(diffIfdef)
		d.formats.ifdefName(v)
		return nil
	})
	f.Func('y', "side-by-side", NoArg, "", "output in two columns", func(string, bool) error {
		p.setStyle(diffSide)
		return nil
	})
	f.Func('W', "width", RequiredArg, "NUM", "output at most NUM (default 130) print columns", func(v string, _ bool) error {
		n, ok := parseDiffWidth(v)
		if !ok {
			p.badWidth = &v
			return nil
		}
		d.width = n
		return nil
	})
	f.BoolVar(&d.leftColumn, 0, "left-column", "output only the left column of common lines")
	f.BoolVar(&d.suppressCommon, 0, "suppress-common-lines", "do not output common lines")
	label := func(v string, _ bool) error {
		d.labels = append(d.labels, v)
		return nil
	}
	f.Func(0, "label", RequiredArg, "LABEL", "use LABEL instead of file name and timestamp (can be repeated)", label)
	f.Func('L', "", RequiredArg, "LABEL", "", label) // GNU's -L, not in its --help
}

// compareFlags adds the options of what is compared, and how, to f.
func (p *diffCmdLine) compareFlags(f *Flags, env *Env) {
	d := p.d
	f.BoolVar(&d.recursive, 'r', "recursive", "recursively compare any subdirectories found")
	f.BoolVar(&d.newFile, 'N', "new-file", "treat absent files as empty")
	f.BoolVar(&d.opts.ignoreCase, 'i', "ignore-case", "ignore case differences in file contents")
	white := func(m whiteMode) func(string, bool) error {
		return func(string, bool) error {
			d.opts.white = max(d.opts.white, m)
			return nil
		}
	}
	f.Func('Z', "ignore-trailing-space", NoArg, "", "ignore white space at line end", white(whiteTrailing))
	f.Func('b', "ignore-space-change", NoArg, "", "ignore changes in the amount of white space", white(whiteChange))
	f.Func('w', "ignore-all-space", NoArg, "", "ignore all white space", white(whiteAll))
	f.BoolVar(&d.ignoreBlank, 'B', "ignore-blank-lines", "ignore changes where lines are all blank")
	f.Func('p', "show-c-function", NoArg, "", "show which C function each change is in", func(string, bool) error {
		d.funcRes = append(d.funcRes, "^[[:alpha:]$_]")
		p.showC = true
		return nil
	})
	f.Func('F', "show-function-line", RequiredArg, "RE", "show the most recent line matching RE", func(v string, _ bool) error {
		d.funcRes = append(d.funcRes, v)
		return nil
	})
	f.Func('I', "ignore-matching-lines", RequiredArg, "RE", "ignore changes where all lines match RE", func(v string, _ bool) error {
		d.ignoreRes = append(d.ignoreRes, v)
		return nil
	})
	f.BoolVar(&d.text, 'a', "text", "treat all files as text")
	f.BoolVar(&d.opts.minimal, 'd', "minimal", "try hard to find a smaller set of changes")
	f.BoolVar(&d.stripCR, 0, "strip-trailing-cr", "strip trailing carriage return on input")
	f.BoolVar(&d.expandTabs, 't', "expand-tabs", "expand tabs to spaces in output")
	f.BoolVar(&d.initialTab, 'T', "initial-tab", "make tabs line up by prepending a tab")
	f.BoolVar(&d.opts.tabExpand, 'E', "ignore-tab-expansion", "ignore changes due to tab expansion")
	f.Func(0, "tabsize", RequiredArg, "NUM", "tab stops every NUM (default 8) print columns", func(v string, _ bool) error {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			p.bad = append(p.bad, fmt.Sprintf("invalid tabsize '%s'", v))
		}
		d.opts.tabsize = n
		return nil
	})
	f.BoolVar(&d.ignoreNameCase, 0, "ignore-file-name-case", "ignore case when comparing file names")
	f.Func(0, "no-ignore-file-name-case", NoArg, "", "consider case when comparing file names", func(string, bool) error {
		d.ignoreNameCase = false
		return nil
	})
	f.BoolVar(&d.paginate, 'l', "paginate", "pass output through 'pr' to paginate it")
	f.BoolVar(&d.suppressBlank, 0, "suppress-blank-empty", "suppress space or tab before empty output lines")
	f.BoolVar(&d.newFirst, 0, "unidirectional-new-file", "treat absent first files as empty")
	f.Func('X', "exclude-from", RequiredArg, "FILE", "exclude files that match any pattern in FILE", func(v string, _ bool) error {
		data, err := readWholeFile(env, v)
		if err != nil {
			if p.fatal == "" {
				p.fatal = v + ": " + ErrText(err)
			}
			return nil
		}
		d.exclude = append(d.exclude, strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")...)
		return nil
	})
	f.Func('S', "starting-file", RequiredArg, "FILE", "start with FILE when comparing directories", func(v string, _ bool) error {
		d.startAt = v
		return nil
	})
	for _, o := range []struct {
		name, arg, help string
		v               *string
	}{
		{"from-file", "FILE1", "compare FILE1 to all operands; FILE1 can be a directory", &d.fromFile},
		{"to-file", "FILE2", "compare all operands to FILE2; FILE2 can be a directory", &d.toFile},
	} {
		f.Func(0, o.name, RequiredArg, o.arg, o.help, func(v string, _ bool) error {
			if *o.v != "" && *o.v != v && p.conflict == "" {
				p.conflict = fmt.Sprintf("conflicting --%s option value '%s'", o.name, v)
			}
			*o.v = v
			return nil
		})
	}
	f.Func(0, "horizon-lines", RequiredArg, "NUM", "keep NUM lines of the common prefix and suffix", func(v string, _ bool) error {
		if n, err := strconv.Atoi(v); err != nil || n < 0 {
			p.bad = append(p.bad, fmt.Sprintf("invalid horizon length '%s'", v))
		}
		return nil
	})
	f.Func(0, "speed-large-files", NoArg, "", "assume large files and many scattered small changes", func(string, bool) error { return nil })
	f.Func(0, "no-dereference", NoArg, "", "don't follow symbolic links (llmsh's files have none)", func(string, bool) error { return nil })
	f.Func(0, "palette", RequiredArg, "PALETTE", "the colors to use when --color is active; PALETTE is a colon-separated list of terminfo capabilities", func(v string, _ bool) error {
		p.palette = v
		return nil
	})
	f.Func('x', "exclude", RequiredArg, "PAT", "exclude files that match PAT", func(v string, _ bool) error {
		d.exclude = append(d.exclude, v)
		return nil
	})
	f.Func(0, "color", OptionalArg, "WHEN", "color output; WHEN is 'never', 'always', or 'auto'", func(v string, present bool) error {
		switch {
		case !present || v == "auto":
			d.color = env.Color
		case v == "always":
			d.color = true
		case v == "never":
			d.color = false
		default:
			p.badColor = &v
		}
		return nil
	})
}

// diffJoinArgs joins the argument of a short -C or -U to it: they take a
// required argument when short, and the parser treats OptionalArg short
// options as attached-only.
func diffJoinArgs(rest []string) []string {
	args := make([]string, 0, len(rest)+1)
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			args = append(args, rest[i:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && (a[len(a)-1] == 'C' || a[len(a)-1] == 'U') && i+1 < len(rest) {
			args = append(args, a+rest[i+1])
			i++
			continue
		}
		args = append(args, a)
	}
	return args
}

// diffParse reads diff's options and the two operands into a differ; on
// nil it returns the exit status.
func diffParse(env *Env) (*differ, []string, int) {
	f := NewFlags(env, diffSummary, "[OPTION]... FILES")
	f.Epilog = diffFormatEpilog + "\n\n" + diffEpilog
	d := &differ{env: env, now: time.Now(), width: 130, opts: diffOpts{tabsize: 8}}
	p := &diffCmdLine{d: d, contextSet: -1, ocontext: -1}
	p.styleFlags(f)
	p.digitFlags(f)
	p.compareFlags(f, env)
	p.formatFlags(f)
	args := diffJoinArgs(env.Args[1:])
	version := shortHelpVersion(f, 0, 'v')
	ops, err := f.Parse(args)
	if err != nil {
		return nil, nil, diffutilsFail(env, f, err)
	}
	if *version {
		return nil, nil, printVersion(env)
	}
	if p.showC && !p.styleSet {
		// GNU: -p alone asks for a context diff.
		d.style = diffContext
		p.contextSet = max(p.contextSet, 3)
	}
	p.applyOcontext()
	if p.badColor != nil {
		return nil, nil, diffutilsUsage(env, fmt.Sprintf("invalid color '%s'", *p.badColor))
	}
	if p.conflict != "" {
		return nil, nil, diffutilsUsage(env, p.conflict)
	}
	if d.fromFile != "" && d.toFile != "" {
		env.Errorf("--from-file and --to-file both specified")
		return nil, nil, 2
	}
	if p.fatal != "" {
		env.Errorf("%s", p.fatal)
		return nil, nil, 2
	}
	if len(p.bad) > 0 {
		return nil, nil, diffutilsUsage(env, p.bad[0])
	}
	if p.badWidth != nil {
		return nil, nil, diffutilsUsage(env, fmt.Sprintf("invalid width '%s'", *p.badWidth))
	}
	if p.badContext != "" {
		return nil, nil, diffutilsUsage(env, fmt.Sprintf("invalid context length '%s'", p.badContext))
	}
	if p.styleErr {
		return nil, nil, diffutilsUsage(env, "conflicting output style options")
	}
	if d.formats.conflict != "" {
		return nil, nil, diffutilsUsage(env, d.formats.conflict)
	}
	if d.style == diffIfdef {
		d.formats.defaults()
	}
	if d.fromFile != "" || d.toFile != "" {
		// Any number of operands, each compared with the one file.
	} else if len(ops) < 2 {
		after := env.Name()
		if n := len(env.Args); n > 1 {
			after = env.Args[n-1]
		}
		return nil, nil, diffutilsUsage(env, fmt.Sprintf("missing operand after '%s'", after))
	}
	if len(ops) > 2 && d.fromFile == "" && d.toFile == "" {
		return nil, nil, diffutilsUsage(env, fmt.Sprintf("extra operand '%s'", ops[2]))
	}
	for _, pat := range d.ignoreRes {
		fl := posixre.Flags(0)
		if d.opts.ignoreCase {
			fl |= posixre.IgnoreCase
		}
		re, err := posixre.Compile(pat, fl)
		if err != nil {
			env.Errorf("%s: %s", pat, err)
			return nil, nil, 2
		}
		d.ignoreREs = append(d.ignoreREs, re)
	}
	for _, pat := range d.funcRes {
		re, err := posixre.Compile(pat, 0)
		if err != nil {
			env.Errorf("%s: %s", pat, err)
			return nil, nil, 2
		}
		d.funcREs = append(d.funcREs, re)
	}
	if errs, off := d.setPalette(p.palette); d.color {
		for _, e := range errs {
			env.Errorf("%s", e)
		}
		d.color = !off
	}
	if p.contextSet < 0 {
		p.contextSet = 3
	}
	if d.style != diffNormal {
		d.context = p.contextSet
		d.opts.horizon = p.contextSet
	}
	return d, ops, 0
}

// diffSwitches returns the option words of args (args without the
// operands), joined as GNU diff shows them in "diff -r a/x b/x" lines.
func diffSwitches(args, ops []string) string {
	var sw []string
	k := 0
	for i, a := range args {
		if a == "--" {
			break
		}
		if k < len(ops) && a == ops[k] && (i == 0 || !diffTakesArg(args[i-1])) {
			k++
			continue
		}
		sw = append(sw, gnu.QuoteStyle(a, gnu.Shell))
	}
	return strings.Join(sw, " ")
}

// diffQuoteName quotes a file name as GNU diff 3.8 does in headers: in double
// quotes with C escapes when it holds a space or a character that needs
// escaping; unchanged otherwise.
func diffQuoteName(s string) string {
	need := false
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == ' ' || c == '"' || c == '\\' || c < 32 || c >= 127 {
			need = true
			break
		}
	}
	if !need {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\a', '\b', '\f', '\n', '\r', '\t', '\v':
			b.WriteString(gnu.CEscape(c))
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		default:
			if c < 32 || c >= 127 {
				fmt.Fprintf(&b, "\\%03o", c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

func diffTakesArg(a string) bool {
	return a == "-C" || a == "-U" || a == "--label"
}

// diffInput is a file operand as read for comparison.
type diffInput struct {
	name    string // as printed
	missing bool   // absent, treated as empty (-N)
	isDir   bool
	info    fs.FileInfo
	data    []byte
}

func (d *differ) stat(name string) (fs.FileInfo, error) {
	if name == "-" || isDevStdin(name) {
		return nil, nil
	}
	if name == "/dev/null" {
		return devInfo{name}, nil
	}
	return d.env.FS.Stat(d.env.Abs(name))
}

func (d *differ) read(in *diffInput) error {
	if in.missing {
		return nil
	}
	if in.name == "-" || isDevStdin(in.name) {
		if !d.stdinRead {
			data, err := readHeld(d.env, d.env.Stdin)
			if err != nil {
				return err
			}
			d.stdinData, d.stdinRead = data, true
		}
		in.data = d.stdinData
		return nil
	}
	r, err := d.env.Open(in.name)
	if err != nil {
		return err
	}
	defer r.Close()
	in.data, err = readHeld(d.env, r)
	return err
}

func fileTypeName(fi fs.FileInfo) string {
	switch {
	case fi == nil:
		return "fifo"
	case fi.IsDir():
		return "directory"
	case fi.Mode().IsRegular() && fi.Size() == 0:
		return "regular empty file"
	case fi.Mode().IsRegular():
		return "regular file"
	case fi.Mode()&fs.ModeSymlink != 0:
		return "symbolic link"
	}
	return "special file"
}

// compare compares two operands (files or directories); parent0/parent1
// are the directories they were found in ("" at the top level).
func (d *differ) compare(name0, name1 string, top bool, parent0, parent1 string) int {
	if err := d.env.Ctx.Err(); err != nil {
		return 2
	}
	in := [2]*diffInput{{name: name0}, {name: name1}}
	var errs [2]error
	for i, p := range in {
		p.info, errs[i] = d.stat(p.name)
		if errs[i] == nil && p.info != nil && p.info.IsDir() {
			p.isDir = true
		}
	}
	// At the top level, FILE DIR means FILE DIR/basename(FILE).
	if top && errs[0] == nil && errs[1] == nil && in[0].isDir != in[1].isDir {
		dirI, fileI := 0, 1
		if in[1].isDir {
			dirI, fileI = 1, 0
		}
		if in[fileI].name == "-" {
			d.out.Flush()
			d.env.Errorf("cannot compare '-' to a directory")
			return 2
		}
		in[dirI].name = strings.TrimSuffix(in[dirI].name, "/") + "/" + path.Base(in[fileI].name)
		in[dirI].info, errs[dirI] = d.stat(in[dirI].name)
		in[dirI].isDir = errs[dirI] == nil && in[dirI].info.IsDir()
	}
	failed := false
	for i, p := range in {
		if errs[i] == nil {
			continue
		}
		if errs[1-i] == nil && isNotExist(errs[i]) {
			if d.newFile || d.newFirst && i == 0 {
				p.missing = true
				p.isDir = in[1-i].isDir
				continue
			}
			if !top {
				// Only in one directory.
				parent := parent1
				if i == 1 {
					parent = parent0
				}
				fmt.Fprintf(d.out, "Only in %s: %s\n", parent, path.Base(in[1-i].name))
				return 1
			}
		}
		d.out.Flush()
		d.env.PathError(p.name, errs[i])
		failed = true
	}
	if failed {
		return 2
	}
	if in[0].isDir && in[1].isDir {
		if top || d.recursive {
			return d.compareDirs(in[0], in[1], top)
		}
		fmt.Fprintf(d.out, "Common subdirectories: %s and %s\n", in[0].name, in[1].name)
		return 0
	}
	if in[0].isDir != in[1].isDir {
		fmt.Fprintf(d.out, "File %s is a %s while file %s is a %s\n",
			in[0].name, fileTypeName(in[0].info), in[1].name, fileTypeName(in[1].info))
		return 1
	}
	if name0 == "-" && name1 == "-" {
		if d.reportSame {
			fmt.Fprintf(d.out, "Files %s and %s are identical\n", d.label(0, "-"), d.label(1, "-"))
		}
		return 0
	}
	if d.streamable(in[0], in[1]) {
		if st, done := d.compareStreams(in[0], in[1]); done {
			return st
		}
	}
	for _, p := range in {
		if err := d.read(p); err != nil {
			d.out.Flush()
			if quietStop(err) {
				return 2
			}
			d.env.PathError(p.name, err)
			return 2
		}
	}
	return d.compareFiles(in[0], in[1], top)
}

// ignoring reports whether an option makes lines equal that differ.
func (d *differ) ignoring() bool {
	return d.opts.ignoreCase || d.opts.tabExpand || d.opts.white != whiteExact || d.ignoreBlank || len(d.ignoreREs) > 0
}

// streamable reports whether two regular files may be compared as
// streams first (compareStreams), without holding them: under -q, as
// GNU's cmp-like test of -q does, or when one is past the bound of a
// held input, which would stop the run (session 33: two 349 MB files,
// identical or binary, could not be compared under the default 2 GiB
// limit, whose bound is 256 MiB). Not for -D and -y, which print the
// whole file even when nothing differs.
func (d *differ) streamable(a, b *diffInput) bool {
	var size int64
	for _, p := range []*diffInput{a, b} {
		if p.missing {
			continue // -N: empty
		}
		if p.name == "-" || isDevStdin(p.name) || p.info == nil || !p.info.Mode().IsRegular() {
			return false
		}
		size = max(size, p.info.Size())
	}
	if d.style == diffIfdef || d.style == diffSide {
		return false
	}
	big := d.env.MaxLine > 0 && size > int64(d.env.MaxLine)
	return big || d.brief && !d.ignoring()
}

// compareStreams reads two files side by side, holding a buffer of each,
// and decides what compareFiles would when it can: identical files (0),
// files that differ under -q, or binary ones (1). done is false when
// the lines must be compared (or a file could not be read: d.read says
// why).
func (d *differ) compareStreams(a, b *diffInput) (status int, done bool) {
	var rs [2]io.ReadCloser
	for i, p := range []*diffInput{a, b} {
		if p.missing {
			rs[i] = io.NopCloser(strings.NewReader(""))
			continue
		}
		r, err := d.env.Open(p.name)
		if err != nil {
			for _, o := range rs[:i] {
				o.Close()
			}
			return 0, false
		}
		rs[i] = r
	}
	defer rs[0].Close()
	defer rs[1].Close()
	name0, name1 := d.label(0, a.name), d.label(1, b.name)
	bufs := [2][]byte{make([]byte, 64<<10), make([]byte, 64<<10)}
	binary := false
	for first := true; ; first = false {
		if d.env.Ctx.Err() != nil {
			return 2, true
		}
		var n [2]int
		for i := range rs {
			var err error
			n[i], err = io.ReadFull(rs[i], bufs[i])
			if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
				return 0, false
			}
		}
		c0, c1 := bufs[0][:n[0]], bufs[1][:n[1]]
		if first {
			binary = !d.text && (hasNUL(c0) || hasNUL(c1)) // as compareFiles: the first 4 KiB
		}
		if !bytes.Equal(c0, c1) {
			switch {
			case d.brief && (binary || !d.ignoring()): // -q wins, as in compareFiles
				fmt.Fprintf(d.out, "Files %s and %s differ\n", name0, name1)
			case binary:
				fmt.Fprintf(d.out, "Binary files %s and %s differ\n", name0, name1)
			default:
				return 0, false
			}
			return 1, true
		}
		if n[0] < len(bufs[0]) {
			if d.reportSame {
				fmt.Fprintf(d.out, "Files %s and %s are identical\n", name0, name1)
			}
			return 0, true
		}
	}
}

func isNotExist(err error) bool {
	return ErrText(err) == "No such file or directory"
}

func (d *differ) label(i int, name string) string {
	if i < len(d.labels) {
		return d.labels[i]
	}
	return name
}

// compareDirs compares two directories entry by entry.
func (d *differ) compareDirs(a, b *diffInput, top bool) int {
	if d.style == diffIfdef {
		d.out.Flush()
		d.env.Errorf("-D option not supported with directories")
		return 2
	}
	var names [2][]string
	for i, p := range []*diffInput{a, b} {
		if p.missing {
			continue
		}
		ents, err := d.env.FS.ReadDir(d.env.Abs(p.name))
		if err != nil {
			d.out.Flush()
			d.env.PathError(p.name, err)
			return 2
		}
		for _, e := range ents {
			names[i] = append(names[i], e.Name())
		}
		if d.ignoreNameCase {
			sort.SliceStable(names[i], func(x, y int) bool {
				return strings.ToLower(names[i][x]) < strings.ToLower(names[i][y])
			})
		}
	}
	key := func(name string) string {
		if d.ignoreNameCase {
			return strings.ToLower(name)
		}
		return name
	}
	join := func(dir, name string) string {
		if strings.HasSuffix(dir, "/") {
			return dir + name
		}
		return dir + "/" + name
	}
	status := 0
	i, j := 0, 0
	for i < len(names[0]) || j < len(names[1]) {
		var name, name1 string // name1: in b, under --ignore-file-name-case
		only := ""             // the directory that alone has name
		switch {
		case j >= len(names[1]) || i < len(names[0]) && key(names[0][i]) < key(names[1][j]):
			name, only = names[0][i], a.name
			i++
		case i >= len(names[0]) || key(names[1][j]) < key(names[0][i]):
			name, only = names[1][j], b.name
			j++
		default:
			name, name1 = names[0][i], names[1][j]
			i++
			j++
		}
		if name1 == "" {
			name1 = name
		}
		if d.excluded(name) || top && name < d.startAt {
			continue
		}
		if only != "" && !d.newFile && !(d.newFirst && only == b.name) {
			// Listed on one side only: GNU says so without a stat, so
			// a dangling link there is "Only in" too.
			fmt.Fprintf(d.out, "Only in %s: %s\n", only, name)
			status = max(status, 1)
			continue
		}
		st := d.compare(join(a.name, name), join(b.name, name1), false, a.name, b.name)
		status = max(status, st)
		if d.env.Ctx.Err() != nil {
			return 2
		}
	}
	return status
}

// excluded reports whether a directory entry matches an -x pattern.
func (d *differ) excluded(name string) bool {
	if d.excludeM == nil {
		for _, pat := range d.exclude {
			d.excludeM = append(d.excludeM, findGlob(pat, false))
		}
	}
	for _, match := range d.excludeM {
		if match(name) {
			return true
		}
	}
	return false
}

func hasNUL(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), 4096)], 0) >= 0
}

// compareFiles compares two regular files (or standard input).
func (d *differ) compareFiles(a, b *diffInput, top bool) int {
	name0, name1 := d.label(0, a.name), d.label(1, b.name)
	binary := !d.text && (hasNUL(a.data) || hasNUL(b.data))
	same := bytes.Equal(a.data, b.data)
	ignoring := d.ignoring()
	// -D and -y print the whole file even when nothing differs.
	whole := !d.brief && !binary && (d.style == diffIfdef || d.style == diffSide)
	if binary || (d.brief && !ignoring) || same && !whole {
		if same {
			if d.reportSame {
				fmt.Fprintf(d.out, "Files %s and %s are identical\n", name0, name1)
			}
			return 0
		}
		if d.brief {
			fmt.Fprintf(d.out, "Files %s and %s differ\n", name0, name1)
		} else {
			fmt.Fprintf(d.out, "Binary files %s and %s differ\n", name0, name1)
		}
		return 1
	}
	d0, d1 := a.data, b.data
	if d.stripCR {
		d0 = bytes.ReplaceAll(d0, []byte("\r\n"), []byte("\n"))
		d1 = bytes.ReplaceAll(d1, []byte("\r\n"), []byte("\n"))
	}
	f0, err0 := splitDiffLinesCtx(d.env.Ctx, d0)
	f1, err1 := splitDiffLinesCtx(d.env.Ctx, d1)
	if err0 != nil || err1 != nil {
		return 2 // cancelled, as diffLines below
	}
	edStatus := 0
	if d.style == diffEd {
		// An ed script cannot express a missing final newline: GNU
		// compares the line as if it had one, and warns after the
		// script.
		var warn []string
		for i, f := range []*diffFile{f0, f1} {
			if f.missingNewline {
				warn = append(warn, []string{name0, name1}[i])
				f.missingNewline = false
				edStatus = 2
			}
		}
		defer func() {
			d.out.Flush()
			for _, name := range warn {
				d.env.Errorf("%s: No newline at end of file\n", name)
			}
		}()
	}
	script, err := diffLines(d.env.Ctx, f0, f1, &d.opts)
	if err != nil {
		return 2
	}
	if d.ignoreBlank || len(d.ignoreREs) > 0 {
		for k := range script {
			script[k].ignore = d.blankChange(f0, f1, &script[k])
		}
	}
	changes := false
	for _, c := range script {
		if !c.ignore {
			changes = true
			break
		}
	}
	if !changes {
		if whole {
			p := &diffPrinter{d: d, f: [2]*diffFile{f0, f1}, funcFound: -1}
			if d.style == diffIfdef {
				p.formatted(script)
			} else {
				p.sideBySide(script)
			}
		}
		if d.reportSame {
			fmt.Fprintf(d.out, "Files %s and %s are identical\n", name0, name1)
		}
		return edStatus
	}
	if d.brief {
		fmt.Fprintf(d.out, "Files %s and %s differ\n", name0, name1)
		return 1
	}
	p := &diffPrinter{d: d, f: [2]*diffFile{f0, f1}, funcFound: -1}
	if d.paginate {
		status := 1
		d.throughPr(d.commandText(name0, name1), func() { status = p.print(script, a, b, edStatus) })
		return status
	}
	if !top {
		d.commandLine(name0, name1)
	}
	return p.print(script, a, b, edStatus)
}

// print writes the differences in the output style; it returns the
// exit status.
func (p *diffPrinter) print(script []diffChange, a, b *diffInput, edStatus int) int {
	switch p.d.style {
	case diffNormal:
		p.normal(script)
	case diffUnified:
		p.header("---", "+++", a, b)
		p.contextual(script, true)
	case diffContext:
		p.header("***", "---", a, b)
		p.contextual(script, false)
	case diffEd:
		p.ed(script)
		return max(1, edStatus)
	case diffRCS:
		p.rcs(script)
	case diffIfdef:
		p.formatted(script)
	case diffSide:
		p.sideBySide(script)
	}
	return 1
}

// commandLine prints the line that introduces a pair of files compared
// under a directory: "diff SWITCHES NAME0 NAME1".
func (d *differ) commandLine(name0, name1 string) {
	d.out.WriteString(d.commandText(name0, name1) + "\n")
}

// commandText is "diff SWITCHES NAME0 NAME1", the line that introduces
// a pair of files and the page header of -l.
func (d *differ) commandText(name0, name1 string) string {
	q0, q1 := name0, name1
	if len(d.labels) < 1 {
		q0 = diffQuoteName(q0)
	}
	if len(d.labels) < 2 {
		q1 = diffQuoteName(q1)
	}
	if d.switches != "" {
		return fmt.Sprintf("diff %s %s %s", d.switches, q0, q1)
	}
	return fmt.Sprintf("diff %s %s", q0, q1)
}

// paginate runs the output print writes through pr with header as its
// page header (-l): GNU diff pipes each pair's differences to pr.
func (d *differ) throughPr(header string, print func()) {
	out := d.out
	var buf bytes.Buffer
	d.out = bufio.NewWriter(&buf)
	print()
	d.out.Flush()
	d.out = out
	pr, _ := Lookup("pr")
	env := *d.env
	env.Args = []string{"pr", "-h", header}
	env.Stdin, env.Stdout = &buf, out
	pr.Run(&env)
}

// blankChange reports whether every line c deletes or inserts can be ignored:
// it matches an -I pattern, or it is blank under -B (empty, or only white
// space when white space is being ignored).
func (d *differ) blankChange(f0, f1 *diffFile, c *diffChange) bool {
	blank := func(line []byte) bool {
		for _, re := range d.ignoreREs {
			if ok, _ := re.Match(line); ok {
				return true
			}
		}
		if !d.ignoreBlank {
			return false
		}
		if len(line) == 0 {
			return true
		}
		if d.opts.white < whiteTrailing {
			return false
		}
		for _, ch := range line {
			if !isDiffSpace(ch) {
				return false
			}
		}
		return true
	}
	for i := c.line0; i < c.line0+c.deleted; i++ {
		if !blank(f0.lines[i]) {
			return false
		}
	}
	for i := c.line1; i < c.line1+c.inserted; i++ {
		if !blank(f1.lines[i]) {
			return false
		}
	}
	return true
}

// diffPrinter writes an edit script in one of diff's formats.
type diffPrinter struct {
	d *differ
	f [2]*diffFile
	// -p/-F: where the last backward search for a function line
	// started, and the line it found (-1: none yet).
	funcSearched, funcFound int
}

// function returns the " name" suffix of a hunk header under -p/-F: the
// last line before line first of file 0 matching the pattern (searching
// back to where the previous search began, else repeating its find),
// without leading blanks, cut to 40 bytes, without trailing blanks.
func (p *diffPrinter) function(first int) string {
	if len(p.d.funcREs) == 0 {
		return ""
	}
	lines := p.f[0].lines
	last := p.funcSearched
	p.funcSearched = first
	found := -1
	for i := first - 1; i >= last && i >= 0; i-- {
		for _, re := range p.d.funcREs {
			if ok, _ := re.Match(lines[i]); ok {
				found = i
				break
			}
		}
		if found >= 0 {
			break
		}
	}
	if found >= 0 {
		p.funcFound = found
	} else if p.funcFound >= 0 {
		found = p.funcFound
	} else {
		return ""
	}
	line := lines[found]
	i := 0
	for i < len(line) && isDiffSpace(line[i]) {
		i++
	}
	j := min(i+40, len(line))
	for j > i && isDiffSpace(line[j-1]) {
		j--
	}
	return " " + string(line[i:j])
}

func (p *diffPrinter) header(mark0, mark1 string, a, b *diffInput) {
	for i, in := range []*diffInput{a, b} {
		mark := mark0
		if i == 1 {
			mark = mark1
		}
		if i < len(p.d.labels) {
			p.colored(sgrHeader, fmt.Sprintf("%s %s", mark, p.d.labels[i]))
			continue
		}
		t := p.d.now
		switch {
		case in.missing:
			t = time.Unix(0, 0)
		case in.info != nil:
			t = in.info.ModTime()
		}
		layout := "2006-01-02 15:04:05.000000000 -0700"
		if p.d.style == diffContext && posixLocale(p.d.env) {
			// POSIX's format for context diffs in the C locale.
			layout = "Mon Jan _2 15:04:05 2006"
		}
		p.colored(sgrHeader, fmt.Sprintf("%s %s\t%s", mark, diffQuoteName(in.name), t.In(dateLocation(p.d.env)).Format(layout)))
	}
}

// SGR colours of GNU diff's default palette.
const (
	sgrHeader = "hd"
	sgrHunk   = "ln"
	sgrDelete = "de"
	sgrAdd    = "ad"
)

// colored writes s and a newline, in colour sgr under --color.
func (p *diffPrinter) colored(sgr, s string) {
	w := p.d.out
	if p.d.color && sgr != "" {
		fmt.Fprintf(w, "%s%s%s\n", p.d.sgr(sgr), s, p.d.sgr("rs"))
		return
	}
	w.WriteString(s)
	w.WriteByte('\n')
}

// setPalette sets the colours of --palette: "hd=1:ad=32" and so on,
// over GNU's defaults. It returns GNU's complaints about v: after an
// unknown capability or an item without '=' colour is off.
func (d *differ) setPalette(v string) (errs []string, off bool) {
	d.palette = map[string]string{"lc": "\x1b[", "rc": "m", "ec": "", "rs": "0", "hd": "1", "ad": "32", "de": "31", "ln": "36"}
	if v == "" {
		return nil, false
	}
	for _, kv := range strings.Split(v, ":") {
		k, val, ok := strings.Cut(kv, "=")
		if _, known := d.palette[k]; ok && known {
			d.palette[k] = val
			continue
		}
		if ok {
			errs = append(errs, "unrecognized prefix: "+k)
		}
		off = off || kv != ""
		errs = append(errs, "unparsable value for --palette")
		break
	}
	return errs, off
}

// sgr returns the escape sequence that starts colour capability c.
func (d *differ) sgr(c string) string {
	return d.palette["lc"] + d.palette[c] + d.palette["rc"]
}

// colorPrefix writes s in colour sgr (under --color), then rest, then a
// newline.
func (p *diffPrinter) colorPrefix(sgr, s, rest string) {
	w := p.d.out
	if p.d.color {
		fmt.Fprintf(w, "%s%s%s%s\n", p.d.sgr(sgr), s, p.d.sgr("rs"), rest)
		return
	}
	w.WriteString(s + rest + "\n")
}

// line writes line i of file f after prefix, and the no-newline marker
// if it is an incomplete last line; sgr colours it under --color.
func (p *diffPrinter) line(sgr, prefix string, f, i int) {
	w := p.d.out
	color := p.d.color && sgr != ""
	if color {
		w.WriteString(p.d.sgr(sgr))
	}
	if p.d.initialTab {
		// "< " becomes "<\t", a unified " " becomes "\t", "-" "-\t".
		switch {
		case len(prefix) == 2:
			prefix = prefix[:1] + "\t"
		case prefix == " ":
			prefix = "\t"
		default:
			prefix += "\t"
		}
	}
	if p.d.suppressBlank && len(p.f[f].lines[i]) == 0 {
		prefix = strings.TrimRight(prefix, " \t")
	}
	w.WriteString(prefix)
	if text := p.f[f].lines[i]; p.d.expandTabs && bytes.IndexByte(text, '\t') >= 0 {
		col := 0
		for _, c := range text {
			if c == '\t' {
				n := p.d.opts.tabsize - col%p.d.opts.tabsize
				w.WriteString("        "[:n])
				col += n
				continue
			}
			w.WriteByte(c)
			col++
		}
	} else {
		w.Write(text)
	}
	if color {
		w.WriteString(p.d.sgr("rs"))
	}
	w.WriteByte('\n')
	if i == len(p.f[f].lines)-1 && p.f[f].missingNewline {
		w.WriteString("\\ No newline at end of file\n")
	}
}

// rangeNormal prints lines [a, b) 1-based as "a,b", "a", or the line
// before an empty range.
func rangeNormal(a, b int) string {
	// a is the 0-based first line, b the 0-based end (exclusive).
	first, last := a+1, b
	if last > first {
		return fmt.Sprintf("%d,%d", first, last)
	}
	return strconv.Itoa(last)
}

func (p *diffPrinter) normal(script []diffChange) {
	w := p.d.out
	for _, c := range script {
		if c.ignore {
			continue
		}
		if p.d.env.Ctx.Err() != nil {
			return
		}
		r0 := rangeNormal(c.line0, c.line0+c.deleted)
		r1 := rangeNormal(c.line1, c.line1+c.inserted)
		op := "c"
		switch {
		case c.inserted == 0:
			op = "d"
		case c.deleted == 0:
			op = "a"
		}
		p.colored(sgrHunk, r0+op+r1)
		for i := c.line0; i < c.line0+c.deleted; i++ {
			p.line(sgrDelete, "< ", 0, i)
		}
		if c.deleted > 0 && c.inserted > 0 {
			w.WriteString("---\n")
		}
		for i := c.line1; i < c.line1+c.inserted; i++ {
			p.line(sgrAdd, "> ", 1, i)
		}
	}
}

// contextual prints unified (-u) or context (-c) hunks.
func (p *diffPrinter) contextual(script []diffChange, unified bool) {
	ctxLines := p.d.context
	for k := 0; k < len(script); {
		if p.d.env.Ctx.Err() != nil {
			return
		}
		// Group changes closer than 2*context+1 lines (context lines
		// when the next change is ignorable).
		end := k
		for end+1 < len(script) {
			top0 := script[end].line0 + script[end].deleted
			thresh := 2*ctxLines + 1
			if script[end+1].ignore {
				thresh = ctxLines
			}
			if script[end+1].line0-top0 >= thresh {
				break
			}
			end++
		}
		hunk := script[k : end+1]
		k = end + 1
		trivial := true
		deleted, inserted := 0, 0
		for _, c := range hunk {
			if !c.ignore {
				trivial = false
			}
			deleted += c.deleted
			inserted += c.inserted
		}
		if trivial {
			continue
		}
		last := hunk[len(hunk)-1]
		first0 := max(hunk[0].line0-ctxLines, 0)
		first1 := max(hunk[0].line1-ctxLines, 0)
		last0 := min(last.line0+last.deleted-1+ctxLines, len(p.f[0].lines)-1)
		last1 := min(last.line1+last.inserted-1+ctxLines, len(p.f[1].lines)-1)
		if unified {
			p.unifiedHunk(hunk, first0, last0, first1, last1)
		} else {
			p.contextHunk(hunk, first0, last0, first1, last1, deleted > 0, inserted > 0)
		}
	}
}

func unifiedRange(a, b int) string {
	// a, b are 0-based inclusive; b < a is an empty range.
	ta, tb := a+1, b+1
	switch {
	case tb < ta:
		return fmt.Sprintf("%d,0", tb)
	case tb == ta:
		return strconv.Itoa(tb)
	}
	return fmt.Sprintf("%d,%d", ta, tb-ta+1)
}

func contextRange(a, b int) string {
	ta, tb := a+1, b+1
	if tb <= ta {
		return strconv.Itoa(tb)
	}
	return fmt.Sprintf("%d,%d", ta, tb)
}

func (p *diffPrinter) unifiedHunk(hunk []diffChange, first0, last0, first1, last1 int) {
	fn := p.function(first0)
	if fn == "" {
		p.colored(sgrHunk, fmt.Sprintf("@@ -%s +%s @@", unifiedRange(first0, last0), unifiedRange(first1, last1)))
	} else {
		p.colorPrefix(sgrHunk, fmt.Sprintf("@@ -%s +%s @@", unifiedRange(first0, last0), unifiedRange(first1, last1)), fn)
	}
	i, j := first0, first1
	next := 0
	for i <= last0 || j <= last1 {
		if next >= len(hunk) || i < hunk[next].line0 {
			p.line("", " ", 0, i)
			i++
			j++
			continue
		}
		c := hunk[next]
		for n := 0; n < c.deleted; n++ {
			p.line(sgrDelete, "-", 0, i)
			i++
		}
		for n := 0; n < c.inserted; n++ {
			p.line(sgrAdd, "+", 1, j)
			j++
		}
		next++
	}
}

func (p *diffPrinter) contextHunk(hunk []diffChange, first0, last0, first1, last1 int, old, new bool) {
	w := p.d.out
	w.WriteString("***************" + p.function(first0) + "\n")
	p.colored(sgrHunk, fmt.Sprintf("*** %s ****", contextRange(first0, last0)))
	if old {
		next := 0
		for i := first0; i <= last0; i++ {
			for next < len(hunk) && hunk[next].line0+hunk[next].deleted <= i {
				next++
			}
			prefix := "  "
			if next < len(hunk) && hunk[next].line0 <= i {
				prefix = "- "
				if hunk[next].inserted > 0 {
					prefix = "! "
				}
			}
			// GNU colours the whole old section, context included.
			p.line(sgrDelete, prefix, 0, i)
		}
	}
	p.colored(sgrHunk, fmt.Sprintf("--- %s ----", contextRange(first1, last1)))
	if new {
		next := 0
		for i := first1; i <= last1; i++ {
			for next < len(hunk) && hunk[next].line1+hunk[next].inserted <= i {
				next++
			}
			prefix := "  "
			if next < len(hunk) && hunk[next].line1 <= i {
				prefix = "+ "
				if hunk[next].deleted > 0 {
					prefix = "! "
				}
			}
			p.line(sgrAdd, prefix, 1, i)
		}
	}
}
