package builtins

import (
	"bufio"
	stdcmp "cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

// dir and vdir are ls listing in columns and in long format, with
// backslash escapes, whether or not the output is a terminal (GNU).
var _ = register(Builtin{Name: "dir", Summary: "list directory contents (ls -C -b)", Run: ls})
var _ = register(Builtin{Name: "vdir", Summary: "list directory contents (ls -l -b)", Run: ls})
var _ = register(Builtin{Name: "ls", Summary: "list directory contents (llmsh: -i and -Z print ?, -c uses modification times, -U lists in vfsd's order)", Run: ls})

// lsEntry is one file to print.
type lsEntry struct {
	name  string // as printed
	path  string // as reached from the working directory (--hyperlink)
	info  fs.FileInfo
	link  string // for a symbolic link under -l: " -> TARGET" as printed
	nlink int    // under -l, a directory's links (2 + its subdirectories); 0: 1 or 2
}

// lsDiredTrailer ends a --dired listing: the offsets of the names and
// of the directory headers, and the quoting style.
func lsDiredTrailer(w *bufio.Writer, o *lsOpts) {
	offsets := func(tag string, list []int64) {
		if len(list) == 0 {
			return
		}
		w.WriteString(tag)
		for _, n := range list {
			w.WriteString(" " + strconv.FormatInt(n, 10))
		}
		w.WriteByte('\n')
	}
	offsets("//DIRED//", o.diredNames)
	offsets("//SUBDIRED//", o.diredDirs)
	w.WriteString("//DIRED-OPTIONS// --quoting-style=" + gnu.StyleNames[o.quoting] + "\n")
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// lsDirLinks is the link count that ls -l shows for the directory name
// (info describes it): 2 and one for each subdirectory, as on Linux file
// systems; 0 when the listing is not long or name is not a directory.
func lsDirLinks(env *Env, name string, info fs.FileInfo, o *lsOpts) int {
	if !o.long || !info.IsDir() {
		return 0
	}
	return dirLinkCount(env, env.Abs(name))
}

// dirLinkCount is 2 and the number of subdirectories of the directory abs
// (what Linux reports as its hard links); 2 if it cannot be listed.
func dirLinkCount(env *Env, abs string) int {
	var ents []fs.DirEntry
	var err error
	if tl, ok := env.FS.(TypeLister); ok {
		var described atomic.Bool
		ents, err = tl.ReadDirTypes(abs, &described)
	} else {
		ents, err = env.FS.ReadDir(abs)
	}
	if err != nil {
		return 2
	}
	n := 2
	for _, e := range ents {
		if e.IsDir() {
			n++
		}
	}
	return n
}

// lsLink gives the " -> TARGET" that GNU ls -l prints after a symbolic
// link named name (the target followed by its -F indicator when it can be
// reached); "" when info is not a link or the listing is not long. A link
// whose text cannot be read is reported as GNU does, and *status set.
func lsLink(env *Env, name string, info fs.FileInfo, o *lsOpts, status *int) string {
	if !o.long || info.Mode()&fs.ModeSymlink == 0 {
		return ""
	}
	abs := env.Abs(name)
	target, err := env.FS.Readlink(abs)
	if err != nil {
		env.Errorf("cannot read symbolic link %s: %s", env.QuoteAF(name), ErrText(err))
		*status = max(*status, 1)
		return ""
	}
	s := " -> " + o.link(name, lsQuote(target, o))
	if o.classify {
		// The target's indicator (GNU: none for a dangling link).
		if ti, err := env.FS.Stat(abs); err == nil {
			s += lsIndicator(ti.Mode(), o)
		}
	}
	return s
}

// Which symbolic links ls follows (GNU ls's dereference modes).
const (
	lsDerefDefault = iota // a link to a directory named on the command line, unless -d, -F or -l
	lsDerefNever          // -d, -F or -l: no link
	lsDerefArgs           // -H: links named on the command line
	lsDerefDirArgs        // --dereference-command-line-symlink-to-dir: as the default, whatever the other options
	lsDerefAlways         // -L: every link
)

type lsOpts struct {
	dirs                                       *dirAhead // -R: the subdirectories listed ahead
	active                                     []string  // -R: identities of the directories being listed
	long                                       bool      // the format is long (lsFormat == lsLong)
	atime                                      bool      // -u, --time=atime: access times for modification times
	widthAlso                                  []lsEntry // entries not listed whose figures -l's columns fit too
	all, almost, recursive, human, si, reverse bool
	dirSelf                                    bool
	utf8                                       bool // LC_ALL is UTF-8: printable characters stay in every style
	classify, slash                            bool // the indicator style: -F (classify), -p (slash)
	fileType                                   bool // --file-type: classify without '*'
	format                                     int  // lsFormat*; -1 until an option sets it
	sortBy                                     int  // lsSort*
	groupDirs                                  bool // --group-directories-first
	inode, size, numeric, author, context      bool // -i, -s, -n, --author, -Z
	width, tabsize                             int
	now                                        time.Time
	noOwner, noGroup                           bool   // -g, -o / -G
	deref                                      int    // lsDeref*
	timeStyle                                  string // --time-style: full-iso, long-iso, iso, +FORMAT; "" for the default
	loc                                        *time.Location
	quoting                                    gnu.Style
	quotingSet                                 bool // a quoting option or QUOTING_STYLE chose quoting
	hideControl                                int  // -q: 1, --show-control-chars: 0, unset: -1
	ignore, hide                               []func(string) bool
	blockUnit, sizeUnit                        int64  // -s and totals; -l's size column (1: bytes)
	blockSuffix, sizeSuffix                    string // the unit's letter shown after each figure (--block-size=K)
	eol                                        byte
	align                                      bool                     // names not quoted get a leading space when some are (GNU's align_variable_outer_quotes)
	dired                                      bool                     // --dired under -l: lines indented, name offsets listed
	hyperlink                                  func(name string) string // --hyperlink: a name's OSC 8 opening, or nil
	diredPos                                   func() int64
	diredNames, diredDirs                      []int64 // start and end offsets of names and of directory headers
}

// ls's formats and orders.
const (
	lsFormatOne = iota
	lsFormatLong
	lsFormatColumns // -C
	lsFormatAcross  // -x
	lsFormatCommas  // -m

	lsSortName = iota - lsFormatCommas - 1
	lsSortNone
	lsSortSize
	lsSortTime
	lsSortVersion
	lsSortExtension
	lsSortWidth
)

func ls(env *Env) int {
	o, operands, status := lsParse(env)
	if o == nil {
		return status
	}
	return lsRun(env, o, operands)
}

// lsParse reads ls's options into an lsOpts; on nil it returns the exit
// status.
func lsParse(env *Env) (*lsOpts, []string, int) {
	o := &lsOpts{utf8: env.QuoteUTF8(), dirs: newDirAhead(env, false), format: -1, hideControl: -1, tabsize: 8, eol: '\n', blockUnit: 1024, sizeUnit: 1}
	f := NewFlags(env, "List information about the FILEs (the current directory by default).\nSort entries alphabetically if none of -cftuvSUX nor --sort is specified.", "[OPTION]... [FILE]...")
	p := &lsCmdLine{o: o, env: env}
	p.flagsAToL(f)
	p.flagsMToZ(f)
	f.Epilog = lsEpilog
	operands, err := f.Parse(env.Args[1:])
	if err != nil {
		if errors.As(err, new(lsArgError)) {
			return nil, nil, f.Fail(err, 1)
		}
		return nil, nil, f.Fail(err, 2)
	}
	if status := p.finish(f); status != 0 {
		return nil, nil, status
	}
	return o, operands, 0
}

// lsCmdLine is ls's command line as it is read: what the options leave
// for after the parse.
type lsCmdLine struct {
	o                      *lsOpts
	env                    *Env
	blockSize, timeWord    string
	timeStyle              string
	blockSet, timeStyleSet bool
}

func (p *lsCmdLine) setFormat(format int) func(string, bool) error {
	return func(string, bool) error { p.o.format = format; return nil }
}

func (p *lsCmdLine) setSort(by int) func(string, bool) error {
	return func(string, bool) error { p.o.sortBy = by; return nil }
}

func (p *lsCmdLine) setQuoting(style gnu.Style) func(string, bool) error {
	return func(string, bool) error { p.o.quoting, p.o.quotingSet = style, true; return nil }
}

// setHyperlink is --hyperlink[=WHEN]: always without WHEN.
func (p *lsCmdLine) setHyperlink(v string, present bool) error {
	o, env := p.o, p.env
	when := 0
	if present {
		var err error
		if when, err = lsArgMatch(env, "--hyperlink", v, []string{"always", "yes", "force", "never", "no", "none", "auto", "tty", "if-tty"}, []int{0, 0, 0, 1, 1, 1, 2, 2, 2}); err != nil {
			return err
		}
	}
	o.hyperlink = nil
	if when == 0 || when == 2 && env.Terminal {
		o.hyperlink = func(name string) string { return lsHyperlink(env, name) }
	}
	return nil
}

// flagsAToL registers ls's options from -a to -L (GNU's --help order).
func (p *lsCmdLine) flagsAToL(f *Flags) {
	o, env := p.o, p.env
	f.BoolVar(&o.all, 'a', "all", "do not ignore entries starting with .")
	f.BoolVar(&o.almost, 'A', "almost-all", "do not list implied . and ..")
	f.BoolVar(&o.author, 0, "author", "with -l, print the author of each file")
	f.Func('b', "escape", NoArg, "", "print C-style escapes for nongraphic characters", p.setQuoting(gnu.Escape))
	f.Func(0, "block-size", RequiredArg, "SIZE", "with -l, scale sizes by SIZE when printing them;\ne.g., '--block-size=M'; see SIZE format below", func(v string, _ bool) error {
		// The last of -h, --si and --block-size wins, as in GNU ls.
		p.blockSize, p.blockSet, o.human, o.si = v, true, false, false
		return nil
	})
	f.Func('B', "ignore-backups", NoArg, "", "do not list implied entries ending with ~", func(string, bool) error {
		o.ignore = append(o.ignore, func(n string) bool { return strings.HasSuffix(n, "~") })
		return nil
	})
	f.Func('c', "", NoArg, "", "with -lt: sort by, and show, ctime (time of last\nmodification of file status information);\nwith -l: show ctime and sort by name;\notherwise: sort by ctime, newest first\n(llmsh: vfsd keeps no ctime: the modification time)", func(string, bool) error {
		p.timeWord, o.atime = "ctime", false
		return nil
	})
	f.Func('C', "", NoArg, "", "list entries by columns", p.setFormat(lsFormatColumns))
	f.BoolVar(&o.dired, 'D', "dired", "generate output designed for Emacs' dired mode")
	f.Func(0, "color", OptionalArg, "WHEN", "colorize the output: never (the only mode llmsh implements)", func(v string, present bool) error {
		if !present {
			return nil
		}
		_, err := lsArgMatch(env, "--color", v, []string{"always", "yes", "force", "never", "no", "none", "auto", "tty", "if-tty"}, []int{0, 0, 0, 1, 1, 1, 2, 2, 2})
		return err
	})
	f.BoolVar(&o.dirSelf, 'd', "directory", "list directories themselves, not their contents")
	f.Func('f', "", NoArg, "", "list all entries in directory order", func(string, bool) error {
		o.all, o.sortBy, o.size = true, lsSortNone, false
		if o.format == lsFormatLong {
			o.format = -1
		}
		return nil
	})
	f.Func('F', "classify", OptionalLongArg, "WHEN", "append indicator (one of */=>@|) to entries WHEN", func(v string, present bool) error {
		when := 0 // always
		if present {
			var err error
			when, err = lsArgMatch(env, "--classify", v, []string{"always", "yes", "force", "never", "no", "none", "auto", "tty", "if-tty"}, []int{0, 0, 0, 1, 1, 1, 2, 2, 2})
			if err != nil {
				return err
			}
		}
		if when == 0 || when == 2 && env.Terminal {
			o.classify, o.slash, o.fileType = true, false, false
		}
		return nil
	})
	f.Func(0, "file-type", NoArg, "", "likewise, except do not append '*'", func(string, bool) error {
		o.classify, o.slash, o.fileType = false, false, true
		return nil
	})
	f.Func(0, "format", RequiredArg, "WORD", "across -x, commas -m, horizontal -x, long -l,\nsingle-column -1, verbose -l, vertical -C", func(v string, _ bool) error {
		words := []string{"verbose", "long", "commas", "horizontal", "across", "vertical", "single-column"}
		format, err := lsArgMatch(env, "--format", v, words, []int{lsFormatLong, lsFormatLong, lsFormatCommas, lsFormatAcross, lsFormatAcross, lsFormatColumns, lsFormatOne})
		if err == nil {
			o.format = format
		}
		return err
	})
	f.Func(0, "full-time", NoArg, "", "like -l --time-style=full-iso", func(string, bool) error {
		o.format, p.timeStyle, p.timeStyleSet = lsFormatLong, "full-iso", true
		return nil
	})
	f.Func('g', "", NoArg, "", "like -l, but do not list owner", func(string, bool) error {
		o.format, o.noOwner = lsFormatLong, true
		return nil
	})
	f.BoolVar(&o.groupDirs, 0, "group-directories-first", "group directories before files;\ncan be augmented with a --sort option, but any\nuse of --sort=none (-U) disables grouping")
	f.BoolVar(&o.noGroup, 'G', "no-group", "in a long listing, don't print group names")
	f.Func('h', "human-readable", NoArg, "", "with -l and -s, print sizes like 1K 234M 2G etc.", func(string, bool) error {
		o.human, o.si, p.blockSet = true, false, false
		return nil
	})
	f.Func(0, "si", NoArg, "", "likewise, but use powers of 1000 not 1024", func(string, bool) error {
		o.human, o.si, p.blockSet = true, true, false
		return nil
	})
	f.Func('H', "dereference-command-line", NoArg, "", "follow symbolic links listed on the command line", func(string, bool) error {
		o.deref = lsDerefArgs
		return nil
	})
	f.Func(0, "dereference-command-line-symlink-to-dir", NoArg, "", "follow each command line symbolic link\nthat points to a directory", func(string, bool) error {
		o.deref = lsDerefDirArgs
		return nil
	})
	f.Func(0, "hide", RequiredArg, "PATTERN", "do not list implied entries matching shell PATTERN\n(overridden by -a or -A)", func(v string, _ bool) error {
		o.hide = append(o.hide, lsGlob(v))
		return nil
	})
	f.Func(0, "hyperlink", OptionalArg, "WHEN", "hyperlink file names WHEN", p.setHyperlink)
	f.Func(0, "indicator-style", RequiredArg, "WORD", "append indicator with style WORD to entry names:\nnone (default), slash (-p),\nfile-type (--file-type), classify (-F)", func(v string, _ bool) error {
		i, err := lsArgMatch(env, "--indicator-style", v, []string{"none", "slash", "file-type", "classify"}, lsSeq(4))
		if err == nil {
			o.classify, o.slash, o.fileType = i == 3, i == 1, i == 2
		}
		return err
	})
	f.BoolVar(&o.inode, 'i', "inode", "print the index number of each file (llmsh: ?,\nwhich vfsd does not reveal)")
	f.Func('I', "ignore", RequiredArg, "PATTERN", "do not list implied entries matching shell PATTERN", func(v string, _ bool) error {
		o.ignore = append(o.ignore, lsGlob(v))
		return nil
	})
	f.Func('k', "kibibytes", NoArg, "", "default to 1024-byte blocks for file system usage;\nused only with -s and per directory totals", func(string, bool) error { return nil })
	f.Func('l', "", NoArg, "", "use a long listing format", p.setFormat(lsFormatLong))
	f.Func('L', "dereference", NoArg, "", "when showing file information for a symbolic\nlink, show information for the file the link\nreferences rather than for the link itself", func(string, bool) error {
		o.deref = lsDerefAlways
		return nil
	})
}

// flagsMToZ registers ls's options from -m to -1.
func (p *lsCmdLine) flagsMToZ(f *Flags) {
	o := p.o
	f.Func('m', "", NoArg, "", "fill width with a comma separated list of entries", p.setFormat(lsFormatCommas))
	f.Func('n', "numeric-uid-gid", NoArg, "", "like -l, but list numeric user and group IDs", func(string, bool) error {
		o.format, o.numeric = lsFormatLong, true
		return nil
	})
	f.Func('N', "literal", NoArg, "", "print entry names without quoting", p.setQuoting(gnu.Literal))
	f.Func('o', "", NoArg, "", "like -l, but do not list group information", func(string, bool) error {
		o.format, o.noGroup = lsFormatLong, true
		return nil
	})
	f.Func('p', "", NoArg, "", "append / indicator to directories", func(string, bool) error {
		o.classify, o.slash, o.fileType = false, true, false
		return nil
	})
	f.Func('q', "hide-control-chars", NoArg, "", "print ? instead of nongraphic characters", func(string, bool) error {
		o.hideControl = 1
		return nil
	})
	f.Func(0, "show-control-chars", NoArg, "", "show nongraphic characters as-is (the default,\nunless program is 'ls' and output is a terminal)", func(string, bool) error {
		o.hideControl = 0
		return nil
	})
	f.Func('Q', "quote-name", NoArg, "", "enclose entry names in double quotes", p.setQuoting(gnu.C))
	f.Func(0, "quoting-style", RequiredArg, "WORD", "use quoting style WORD for entry names:\nliteral, locale, shell, shell-always,\nshell-escape, shell-escape-always, c, escape\n(overrides QUOTING_STYLE environment variable)", func(v string, _ bool) error {
		i, err := lsArgMatch(p.env, "--quoting-style", v, gnu.StyleNames, lsSeq(len(gnu.StyleNames)))
		if err == nil {
			o.quoting, o.quotingSet = gnu.Style(i), true
		}
		return err
	})
	f.BoolVar(&o.reverse, 'r', "reverse", "reverse order while sorting")
	f.BoolVar(&o.recursive, 'R', "recursive", "list subdirectories recursively")
	f.Func('s', "size", NoArg, "", "print the allocated size of each file, in blocks", func(string, bool) error {
		o.size = true
		return nil
	})
	f.Func('S', "", NoArg, "", "sort by file size, largest first", p.setSort(lsSortSize))
	f.Func(0, "sort", RequiredArg, "WORD", "sort by WORD instead of name: none (-U), size (-S),\ntime (-t), version (-v), extension (-X), width", func(v string, _ bool) error {
		by, err := lsArgMatch(p.env, "--sort", v, []string{"none", "time", "size", "extension", "version", "width"}, []int{lsSortNone, lsSortTime, lsSortSize, lsSortExtension, lsSortVersion, lsSortWidth})
		if err == nil {
			o.sortBy = by
		}
		return err
	})
	f.Func(0, "time", RequiredArg, "WORD", "change the default of using modification times;\n  access time (-u): atime, access, use;\n  change time (-c): ctime, status;\n  birth time: birth, creation;\nwith -l, WORD determines which time to show;\nwith --sort=time, sort by WORD (newest first)\n(llmsh: vfsd keeps no ctime and no birth time: the\nmodification time for those)", func(v string, _ bool) error {
		words := []string{"atime", "access", "use", "ctime", "status", "birth", "creation"}
		i, err := lsArgMatch(p.env, "--time", v, words, []int{0, 0, 0, 1, 1, 2, 2})
		if err == nil && i < 3 {
			p.timeWord = words[i]
		}
		if err == nil {
			o.atime = i < 3
		}
		return err
	})
	f.Func(0, "time-style", RequiredArg, "TIME_STYLE", "time/date format with -l; see TIME_STYLE below", func(v string, _ bool) error {
		p.timeStyle, p.timeStyleSet = v, true
		return nil
	})
	f.Func('t', "", NoArg, "", "sort by time, newest first; see --time", p.setSort(lsSortTime))
	f.Func('T', "tabsize", RequiredArg, "COLS", "assume tab stops at each COLS instead of 8", lsCountArg(p.env, "tab size", &o.tabsize))
	f.Func('u', "", NoArg, "", "with -lt: sort by, and show, access time;\nwith -l: show access time and sort by name;\notherwise: sort by access time, newest first\n(llmsh: a virtual file's is its modification time)", func(string, bool) error {
		p.timeWord, o.atime = "atime", true
		return nil
	})
	f.Func('U', "", NoArg, "", "do not sort; list entries in directory order", p.setSort(lsSortNone))
	f.Func('v', "", NoArg, "", "natural sort of (version) numbers within text", p.setSort(lsSortVersion))
	f.Func('w', "width", RequiredArg, "COLS", "set output width to COLS.  0 means no limit", func(v string, _ bool) error {
		if err := lsCountArg(p.env, "line width", &o.width)(v, true); err != nil {
			return err
		}
		if o.width == 0 {
			o.width = -1 // no limit
		}
		return nil
	})
	f.Func('x', "", NoArg, "", "list entries by lines instead of by columns", p.setFormat(lsFormatAcross))
	f.Func('X', "", NoArg, "", "sort alphabetically by entry extension", p.setSort(lsSortExtension))
	f.BoolVar(&o.context, 'Z', "context", "print any security context of each file (llmsh: ?)")
	f.Func(0, "zero", NoArg, "", "end each output line with NUL, not newline", func(string, bool) error {
		o.eol, o.hideControl, o.quoting, o.quotingSet = 0, 0, gnu.Literal, true
		if o.format != lsFormatLong {
			o.format = lsFormatOne
		}
		return nil
	})
	f.Func('1', "", NoArg, "", "list one file per line", func(string, bool) error {
		if o.format != lsFormatLong {
			o.format = lsFormatOne
		}
		return nil
	})
}

// finish applies what the options leave to after the parse (defaults
// that depend on the terminal and the environment, the block size, the
// time style); it returns a failure's status, else 0.
func (p *lsCmdLine) finish(f *Flags) int {
	o, env := p.o, p.env
	if o.width == 0 {
		o.width = 80
		if v, ok := envLookup(env.Environ, "COLUMNS"); ok {
			if n, err := strconv.Atoi(v); err == nil && n > 0 {
				o.width = n
			}
		}
	}
	if o.format < 0 {
		o.format = lsFormatOne
		switch {
		case env.Name() == "dir" || env.Terminal:
			o.format = lsFormatColumns
		case env.Name() == "vdir":
			o.format = lsFormatLong
		}
	}
	o.long = o.format == lsFormatLong
	o.dired = o.dired && o.long
	if !p.timeStyleSet {
		p.timeStyle, p.timeStyleSet = envLookup(env.Environ, "TIME_STYLE")
	}
	if p.timeStyleSet && o.long {
		// GNU checks the style only where a long listing uses it.
		style, err := lsTimeStyleArg(p.timeStyle, posixLocale(env))
		if err != nil {
			return f.Fail(err, 2)
		}
		o.timeStyle = style
	}
	if p.timeWord != "" && o.sortBy == lsSortName && !o.long {
		// -c/-u without -l: sort by that time (GNU), which vfsd keeps
		// only as the modification time.
		o.sortBy = lsSortTime
	}
	if !o.quotingSet {
		o.quoting = gnu.Literal
		if v, ok := envLookup(env.Environ, "QUOTING_STYLE"); ok {
			if i := slices.Index(gnu.StyleNames, v); i >= 0 {
				o.quoting = gnu.Style(i)
			} else {
				env.Errorf("ignoring invalid value of environment variable QUOTING_STYLE: %s", env.Quote(v))
			}
		} else if env.Name() == "dir" || env.Name() == "vdir" {
			o.quoting = gnu.Escape
		} else if env.Terminal {
			o.quoting = gnu.ShellEscape
		}
	}
	if o.hideControl < 0 {
		o.hideControl = 0
		if env.Terminal {
			o.hideControl = 1
		}
	}
	o.align = (o.long || (o.format == lsFormatColumns || o.format == lsFormatAcross) && o.width > 0) &&
		(o.quoting == gnu.Shell || o.quoting == gnu.ShellEscape || o.quoting == gnu.CMaybe)
	if !p.blockSet && !o.human {
		for _, name := range []string{"LS_BLOCK_SIZE", "BLOCK_SIZE"} {
			if v, ok := envLookup(env.Environ, name); ok && v != "" {
				p.blockSize, p.blockSet = v, true
				break
			}
		}
	}
	switch {
	case p.blockSet && p.blockSize == "human-readable":
		o.human, o.si = true, false
	case p.blockSet && p.blockSize == "si":
		o.human, o.si = true, true
	case p.blockSet:
		unit, suffix, ok := lsBlockSize(p.blockSize)
		if !ok {
			env.Errorf("invalid --block-size argument %s", env.Quote(p.blockSize))
			return 2
		}
		o.blockUnit, o.blockSuffix, o.sizeUnit, o.sizeSuffix = unit, suffix, unit, suffix
	}
	if o.deref == lsDerefDefault && (o.dirSelf || o.classify || o.fileType || o.long) {
		o.deref = lsDerefNever
	}
	o.now = time.Now()
	o.loc = dateLocation(env) // the script's TZ, never the host's
	o.dirs.types = lsTypesOnly(o)
	o.dirs.tree = o.recursive
	return 0
}

const lsEpilog = `The SIZE argument is an integer and optional unit (example: 10K is 10*1024).
Units are K,M,G,T,P,E,Z,Y (powers of 1024) or KB,MB,... (powers of 1000).
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.

The TIME_STYLE argument can be full-iso, long-iso, iso, locale, or +FORMAT.
FORMAT is interpreted like in date(1).  If FORMAT is FORMAT1<newline>FORMAT2,
then FORMAT1 applies to non-recent files and FORMAT2 to recent files.
TIME_STYLE prefixed with 'posix-' takes effect only outside the POSIX locale.
Also the TIME_STYLE environment variable sets the default style to use.

The WHEN argument defaults to 'always' and can also be 'auto' or 'never'.

Exit status:
 0  if OK,
 1  if minor problems (e.g., cannot access subdirectory),
 2  if serious trouble (e.g., cannot access command-line argument).`

// lsArgMatch finds v among words as GNU's argmatch does (an unambiguous
// prefix counts, or a prefix of synonyms: words of equal vals; the empty
// string is a prefix of every word) and returns its val; otherwise it
// says so in GNU's words, listing them.
func lsArgMatch(env *Env, option, v string, words []string, vals []int) (int, error) {
	found, ambiguous := -1, false
	for i, w := range words {
		if w == v {
			return vals[i], nil
		}
		if strings.HasPrefix(w, v) {
			if found >= 0 && vals[found] != vals[i] {
				ambiguous = true
			} else if found < 0 {
				found = i
			}
		}
	}
	if found >= 0 && !ambiguous {
		return vals[found], nil
	}
	kind := "invalid"
	if ambiguous {
		kind = "ambiguous"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s argument %s for %s\nValid arguments are:", kind, env.Quote(v), env.Quote(option))
	for i, w := range words {
		if i > 0 && vals[i] == vals[i-1] {
			b.WriteString(", " + env.Quote(w))
		} else {
			b.WriteString("\n  - " + env.Quote(w))
		}
	}
	return 0, lsArgError{&UsageError{Msg: b.String()}}
}

// lsArgError is argmatch's failure, which exits with status 1 (usage
// (EXIT_FAILURE)) where ls's other usage errors exit with 2.
type lsArgError struct{ *UsageError }

// lsCount reads a -w or -T number as GNU's xstrtoumax: digits, a value
// past the largest int is the largest.
func lsCount(v string) (int, bool) {
	n, e := gnu.ParseSize(v, 10, "")
	if e&^gnu.SizeOverflow != 0 || strings.HasPrefix(strings.TrimLeft(v, " \t"), "+") {
		return 0, false
	}
	return int(min(n, 1<<62)), true
}

// lsCountArg sets *dst from a -T or -w count, or fails with GNU's
// "invalid WHAT" message.
func lsCountArg(env *Env, what string, dst *int) func(string, bool) error {
	return func(v string, _ bool) error {
		n, ok := lsCount(v)
		if !ok {
			return fmt.Errorf("invalid %s: %s", what, env.Quote(v))
		}
		*dst = n
		return nil
	}
}

// lsSeq is 0, 1, … n-1: the vals of words without synonyms.
func lsSeq(n int) []int {
	v := make([]int, n)
	for i := range v {
		v[i] = i
	}
	return v
}

// lsTimeStyleArg checks a --time-style: posix- styles are the default
// (locale) in the C or POSIX locale, and the style itself in any other
// (llmsh's C.UTF-8, as GNU's hard_locale sees it).
func lsTimeStyleArg(v string, posix bool) (string, error) {
	if strings.HasPrefix(v, "+") {
		return v, nil
	}
	if rest, ok := strings.CutPrefix(v, "posix-"); ok {
		style, err := lsTimeStyleArg(rest, posix)
		if err != nil || posix {
			return "", err
		}
		return style, nil
	}
	switch v {
	case "full-iso", "long-iso", "iso":
		return v, nil
	case "locale":
		return "", nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "invalid argument %s for %s\nValid arguments are:\n  - [posix-]full-iso\n  - [posix-]long-iso\n  - [posix-]iso\n  - [posix-]locale\n  - +FORMAT (e.g., +%%H:%%M) for a 'date'-style format", gnu.Quote(v), gnu.Quote("time style"))
	return "", &UsageError{Msg: b.String()}
}

// lsBlockSize reads a --block-size as gnulib's human_options does: a
// number with an optional unit (plain figures in those units), or a unit
// alone, whose letter each figure then shows ("K": 5K; "KB": 6kB).
func lsBlockSize(spec string) (unit int64, suffix string, ok bool) {
	spec = strings.TrimPrefix(spec, "'") // grouping: none in the C locale
	v, e := gnu.ParseSize(spec, 10, "eEgGkKmMpPtTYZ0")
	if e != gnu.SizeOK || v == 0 || v > 1<<62 {
		return 0, "", false
	}
	if spec != "" && (spec[0] < '0' || spec[0] > '9') {
		letter := strings.ToUpper(spec[:1])
		switch {
		case strings.HasSuffix(spec, "iB"):
			suffix = letter + "iB"
		case !strings.HasSuffix(spec, "B"):
			suffix = letter
		default:
			if letter == "K" {
				letter = "k"
			}
			suffix = letter + "B"
		}
	}
	return int64(v), suffix, true
}

// lsRun lists the operands (the current directory if none).
func lsRun(env *Env, o *lsOpts, operands []string) int {
	cnt := &countWriter{w: env.Stdout}
	w := bufio.NewWriterSize(cnt, 32<<10)
	defer w.Flush()
	o.diredPos = func() int64 { return cnt.n + int64(w.Buffered()) }

	status := 0
	if len(operands) == 0 {
		operands = []string{"."}
	}
	var files, dirs []lsEntry
	for _, op := range operands {
		info, err := lsStatArg(env, op, o)
		if err != nil {
			env.Errorf("cannot access %s: %s", env.QuoteAF(op), ErrText(err))
			status = 2
			continue
		}
		info = lsAccessed(env, op, info, o)
		if info.IsDir() && !o.dirSelf {
			nlink := 0
			if o.long {
				nlink = lsDirLinks(env, op, info, o) // for the files' columns
			}
			dirs = append(dirs, lsEntry{op, op, info, "", nlink})
		} else {
			files = append(files, lsEntry{op, op, info, lsLink(env, op, info, o, &status), lsDirLinks(env, op, info, o)})
		}
	}
	lsSort(files, o)
	lsSort(dirs, o)
	if len(files) > 0 {
		o.widthAlso = dirs // GNU: the columns fit the directories named too
		lsPrint(w, files, o)
		o.widthAlso = nil
	}
	header := len(operands) > 1 || o.recursive
	for i, d := range dirs {
		if err := env.Ctx.Err(); err != nil {
			return 1
		}
		if len(files) > 0 || i > 0 {
			w.WriteByte(o.eol)
		}
		if st := lsDir(w, env, d.name, header, o, nil); st > status {
			status = st
		}
	}
	if o.dired {
		lsDiredTrailer(w, o)
	}
	if err := w.Flush(); err != nil && !IsBrokenPipe(err) {
		env.Errorf("write error: %s", ErrText(err))
		return 2
	}
	return status
}

// lsDirHeader writes the "dir:" line above a directory's listing.
func lsDirHeader(w *bufio.Writer, dir string, o *lsOpts) {
	if o.dired {
		w.WriteString("  ")
		o.diredDirs = append(o.diredDirs, o.diredPos())
	}
	w.WriteString(o.link(dir, lsQuoteDir(dir, o)))
	if o.dired {
		o.diredDirs = append(o.diredDirs, o.diredPos())
	}
	w.WriteByte(':')
	w.WriteByte(o.eol)
}

// lsDir lists one directory (and, with -R, its subdirectories); self
// describes it when its parent's listing did (nil for an operand).
func lsDir(w *bufio.Writer, env *Env, dir string, header bool, o *lsOpts, self fs.FileInfo) int {
	if o.recursive {
		fi, err := self, error(nil)
		if fi == nil || lsFileID(fi) == "" {
			fi, err = env.FS.Stat(env.Abs(dir))
		}
		if err == nil {
			if id := lsFileID(fi); id != "" {
				o.active = append(o.active, id)
				defer func() { o.active = o.active[:len(o.active)-1] }()
			}
		}
	}
	ents, err := o.dirs.readDir(env.Abs(dir))
	if err != nil {
		env.Errorf("cannot open directory %s: %s", env.QuoteAF(dir), ErrText(err))
		return 2
	}
	if header {
		lsDirHeader(w, dir, o)
	}
	list := make([]lsEntry, 0, len(ents)+2)
	if o.all {
		for _, n := range []string{".", ".."} {
			if lsIgnored(n, o) {
				continue
			}
			if info, err := env.FS.Stat(env.Abs(path.Join(dir, n))); err == nil {
				list = append(list, lsNewEntry(env, n, path.Join(dir, n), info, o, nil))
			}
		}
	}
	status := 0
	shown := slices.Grow(ents[:0:0], len(ents))
	for _, e := range ents {
		if (!strings.HasPrefix(e.Name(), ".") || o.all || o.almost) && !lsIgnored(e.Name(), o) {
			shown = append(shown, e)
		}
	}
	infos, errs := lsInfos(env, dir, shown, o)
	for i, e := range shown {
		name := joinPath(dir, e.Name()) // GNU's attach: "." adds nothing
		if dir == "." {
			name = e.Name()
		}
		info, err := infos[i], errs[i]
		if err == nil && o.deref == lsDerefAlways && e.Type()&fs.ModeSymlink != 0 {
			// -L: the target; a link that cannot be followed is
			// reported and listed as itself, as GNU ls does.
			if ti, terr := env.FS.Stat(env.Abs(name)); terr == nil {
				info = ti
			} else {
				env.Errorf("cannot access %s: %s", env.QuoteAF(name), ErrText(terr))
				status = 1
			}
		}
		if err != nil {
			env.Errorf("cannot access %s: %s", env.QuoteAF(name), ErrText(err))
			status = 1
			continue
		}
		list = append(list, lsNewEntry(env, e.Name(), name, info, o, &status))
	}
	lsSort(list, o)
	if o.long || o.size {
		var blocks int64
		for _, e := range list {
			blocks += lsBlocks(e.info)
		}
		if o.dired {
			w.WriteString("  ")
		}
		w.WriteString("total " + lsBlockFigure(blocks, o))
		w.WriteByte(o.eol)
	}
	lsPrint(w, list, o)
	if o.recursive {
		var subdirs []string
		for _, e := range list {
			if e.info.IsDir() && e.name != "." && e.name != ".." {
				subdirs = append(subdirs, env.Abs(joinPath(dir, e.name)))
			}
		}
		defer o.dirs.forget(o.dirs.ahead(subdirs))
		for _, e := range list {
			if e.info.IsDir() && e.name != "." && e.name != ".." {
				sub := joinPath(dir, e.name) // "d/" gives "d/s", as GNU ls names it
				id := lsFileID(e.info)
				if id == "" && len(o.active) > 0 && o.deref == lsDerefAlways {
					// A listing's entry carries no identity; only a
					// walk that follows links can meet a directory again.
					if fi, err := env.FS.Stat(env.Abs(sub)); err == nil {
						id = lsFileID(fi)
					}
				}
				if id != "" && slices.Contains(o.active, id) {
					// -LR: a link back to a directory being listed.
					w.Flush()
					env.Errorf("%s: not listing already-listed directory", sub)
					status = 2
					continue
				}
				w.WriteByte(o.eol)
				if st := lsDir(w, env, sub, true, o, e.info); st > status {
					status = st
				}
			}
		}
	}
	return status
}

// lsInfos describes the entries ents of dir: each one's lstat, from the
// listing where vfsd described the entries there, else asked for
// statAhead at a time; where the output shows no more than names and
// types, only the directories' (which the listing has, with their
// identity).
func lsInfos(env *Env, dir string, ents []fs.DirEntry, o *lsOpts) ([]fs.FileInfo, []error) {
	if !o.dirs.types {
		return entryInfos(env, env.Abs(dir), ents, false)
	}
	infos, errs := make([]fs.FileInfo, len(ents)), make([]error, len(ents))
	for i, e := range ents {
		if e.IsDir() {
			infos[i], errs[i] = e.Info()
		} else {
			infos[i] = typeInfo{e}
		}
	}
	return infos, errs
}

// typeInfo describes a directory entry by its name and type alone, for
// the listings of ls that print no more of it (lsTypesOnly): no size,
// time or permission bits.
type typeInfo struct{ de fs.DirEntry }

func (t typeInfo) Name() string       { return t.de.Name() }
func (t typeInfo) Size() int64        { return 0 }
func (t typeInfo) Mode() fs.FileMode  { return t.de.Type() }
func (t typeInfo) ModTime() time.Time { return time.Time{} }
func (t typeInfo) IsDir() bool        { return t.de.IsDir() }
func (t typeInfo) Sys() any           { return nil }

// lsTypesOnly reports whether the listing o prints of an entry of a
// directory no more than its name and type: no long format, no order by
// size or time, no -F (whose '*' wants the execute bits), no -L.
func lsTypesOnly(o *lsOpts) bool {
	return !o.long && !o.size && o.sortBy != lsSortSize && o.sortBy != lsSortTime && !o.classify && o.deref != lsDerefAlways
}

// lsNewEntry is the entry of a directory's listing named name, reached
// as p: -u's access time, -l's link target (status, if not nil, set to 1
// when it cannot be read) and link count.
func lsNewEntry(env *Env, name, p string, info fs.FileInfo, o *lsOpts, status *int) lsEntry {
	info = lsAccessed(env, p, info, o) // (before lsDirLinks reads it)
	link := ""
	if status != nil {
		link = lsLink(env, p, info, o, status)
	}
	return lsEntry{name, p, info, link, lsDirLinks(env, p, info, o)}
}

// lsAccessed is info with its access time in place of its modification
// time, for -u and --time=atime (sorted and shown): vfsd's stat carries a
// real file's access time, its listings do not, so an entry that came
// from one is looked up again; a virtual file keeps its modification
// time (it has no other), as stat's %x shows.
func lsAccessed(env *Env, name string, info fs.FileInfo, o *lsOpts) fs.FileInfo {
	if !o.atime {
		return info
	}
	if a, ok := info.(interface{ AccessTime() (time.Time, bool) }); !ok || !lsHasTime(a.AccessTime()) {
		stat := env.FS.Stat
		if info.Mode()&fs.ModeSymlink != 0 {
			stat = env.FS.Lstat
		}
		if fi, err := stat(env.Abs(name)); err == nil {
			return lsAccessInfo{info, statAtime(fi)}
		}
	}
	return lsAccessInfo{info, statAtime(info)}
}

func lsHasTime(_ time.Time, ok bool) bool { return ok }

// lsAccessInfo is a file's information with its access time for its
// modification time; its identity stays (-R's cycles, SameFile).
type lsAccessInfo struct {
	fs.FileInfo
	at time.Time
}

func (i lsAccessInfo) ModTime() time.Time { return i.at }
func (i lsAccessInfo) FileID() string     { return lsFileID(i.FileInfo) }

// lsFileID is vfsd's identity of the file info describes, "" if none.
func lsFileID(info fs.FileInfo) string {
	if i, ok := info.(interface{ FileID() string }); ok {
		return i.FileID()
	}
	return ""
}

// lsBlocks estimates a file's 1 KiB blocks as a 4 KiB-block file system
// would allocate them (vfsd does not reveal real block counts); a
// symbolic link takes none (its target is in the inode), as du counts it.
func lsBlocks(info fs.FileInfo) int64 {
	switch {
	case info.IsDir():
		return 4
	case info.Mode()&fs.ModeSymlink != 0:
		return 0
	}
	return (info.Size() + 4095) / 4096 * 4
}

func lsSort(list []lsEntry, o *lsOpts) {
	if o.sortBy == lsSortNone {
		return
	}
	var by func(a, b *lsEntry) int
	switch o.sortBy {
	case lsSortSize:
		by = func(a, b *lsEntry) int { return stdcmp.Compare(b.info.Size(), a.info.Size()) }
	case lsSortTime:
		by = func(a, b *lsEntry) int { return b.info.ModTime().Compare(a.info.ModTime()) }
	case lsSortVersion:
		by = func(a, b *lsEntry) int { return sortVerCmp([]byte(a.name), []byte(b.name)) }
	case lsSortExtension:
		by = func(a, b *lsEntry) int { return strings.Compare(lsExtension(a.name), lsExtension(b.name)) }
	case lsSortWidth:
		by = func(a, b *lsEntry) int { return lsWidth(lsQuote(a.name, o)) - lsWidth(lsQuote(b.name, o)) }
	}
	keyCmp := func(a, b *lsEntry) int {
		if by != nil {
			if c := by(a, b); c != 0 {
				return c
			}
		}
		return strings.Compare(a.name, b.name)
	}
	slices.SortStableFunc(list, func(a, b lsEntry) int {
		if o.groupDirs {
			// Directories first, whichever way the rest is sorted.
			if ad, bd := a.info.IsDir(), b.info.IsDir(); ad != bd {
				if ad {
					return -1
				}
				return 1
			}
		}
		if o.reverse {
			return keyCmp(&b, &a)
		}
		return keyCmp(&a, &b)
	})
}

// lsExtension is what -X sorts by: the name after its last '.', "" if
// none.
func lsExtension(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i:]
	}
	return ""
}

// lsIgnored reports whether an entry of a listed directory is left out by
// -I and -B patterns, or by --hide ones without -a or -A.
func lsIgnored(name string, o *lsOpts) bool {
	for _, m := range o.ignore {
		if m(name) {
			return true
		}
	}
	if !o.all && !o.almost {
		for _, m := range o.hide {
			if m(name) {
				return true
			}
		}
	}
	return false
}

// lsGlob compiles a -I or --hide pattern as GNU ls matches them: fnmatch
// with FNM_PERIOD (a leading dot is matched only by a dot).
func lsGlob(pat string) func(string) bool {
	return globMatcher(pat, false, false)
}

// lsQuote is a name as ls prints it: in the quoting style, with '?' for
// each nongraphic byte under -q.
func lsQuote(name string, o *lsOpts) string {
	q := name
	switch o.quoting {
	case gnu.Literal:
	case gnu.Escape:
		q = gnu.Quoting{Style: gnu.Escape, Also: " ", UTF8: o.utf8}.Quote(name) // ls -b escapes spaces
	default:
		q = gnu.Quoting{Style: o.quoting, UTF8: o.utf8}.Quote(name)
	}
	if o.hideControl == 1 {
		q = lsHideControl(q, o.utf8)
	}
	return q
}

// lsHideControl is ls -q's '?' for each nongraphic byte, or in UTF-8 for
// each character that is not printable (each byte of an invalid one).
func lsHideControl(q string, utf bool) string {
	var b strings.Builder
	for i := 0; i < len(q); {
		c := q[i]
		if utf && c >= utf8.RuneSelf {
			if r, size := utf8.DecodeRuneInString(q[i:]); size > 1 {
				if gnu.PrintableRune(r) {
					b.WriteString(q[i : i+size])
				} else {
					b.WriteByte('?')
				}
				i += size
				continue
			}
		}
		if c < 0x20 || c >= 0x7f {
			c = '?'
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// lsQuoteDir is a directory's name in the header of its listing: as a
// name, with ':' escaped too where the style escapes.
func lsQuoteDir(dir string, o *lsOpts) string {
	if o.quoting == gnu.Literal {
		return lsQuote(dir, o)
	}
	also := ":"
	if o.quoting == gnu.Escape {
		also = ": "
	}
	q := gnu.Quoting{Style: o.quoting, Also: also, UTF8: o.utf8}.Quote(dir)
	if o.hideControl == 1 {
		return lsHideControl(q, o.utf8)
	}
	return q
}

// lsQuoted reports whether quoting gave q outer quotes.
func lsQuoted(q string) bool {
	return strings.HasPrefix(q, "'") || strings.HasPrefix(q, "\"") || strings.HasPrefix(q, "$'")
}

// lsBlockFigure formats a count of 1 KiB blocks as -s and "total" show
// them: in --block-size units (rounded up, with the unit's letter when the
// size was given as one), or human-readable under -h and --si.
func lsBlockFigure(blocks int64, o *lsOpts) string {
	return lsFigure(blocks*1024, o.blockUnit, o.blockSuffix, o)
}

// lsFigure formats n bytes in units of unit, rounded up, with suffix;
// human-readable under -h and --si.
func lsFigure(n, unit int64, suffix string, o *lsOpts) string {
	switch {
	case o.human && o.si:
		return gnu.HumanCeilBase(n, 1000)
	case o.human:
		return gnu.HumanCeil(n)
	}
	return strconv.FormatInt((n+unit-1)/unit, 10) + suffix
}

func lsSuffix(info fs.FileInfo, o *lsOpts) string {
	if o.long && info.Mode()&fs.ModeSymlink != 0 {
		return "" // GNU's -l shows the target's after " -> TARGET" (lsLink)
	}
	return lsIndicator(info.Mode(), o)
}

// lsIndicator is GNU's get_type_indicator: under -F '/' for a directory,
// '*' for a regular file with an execute bit, '@' for a symbolic link,
// '|' for a FIFO, '=' for a socket; under -p only the '/'.
func lsIndicator(m fs.FileMode, o *lsOpts) string {
	switch {
	case m.IsDir() && (o.classify || o.slash || o.fileType):
		return "/"
	case !o.classify && !o.fileType:
		return ""
	case m.IsRegular():
		if m&0o111 != 0 && o.classify {
			return "*"
		}
	case m&fs.ModeSymlink != 0:
		return "@"
	case m&fs.ModeNamedPipe != 0:
		return "|"
	case m&fs.ModeSocket != 0:
		return "="
	}
	return ""
}

// lsStatArg describes a command-line operand as GNU ls does: links
// followed under -L and -H; by default only a link to a directory is
// (one that cannot be followed is described itself); under -d, -F and -l
// none is.
func lsStatArg(env *Env, op string, o *lsOpts) (fs.FileInfo, error) {
	abs := env.Abs(op)
	switch o.deref {
	case lsDerefArgs, lsDerefAlways:
		return env.FS.Stat(abs)
	case lsDerefDefault, lsDerefDirArgs:
		info, err := env.FS.Stat(abs)
		if err == nil && info.IsDir() {
			return info, nil
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission) {
			return nil, err
		}
		if li, lerr := lstatOperand(env, op); lerr == nil {
			return li, nil
		}
		return info, err
	}
	return lstatOperand(env, op)
}

// lsCell is an entry as a short format prints it: its -i, -s and -Z
// fields, its name as quoted and its indicator.
type lsCell struct {
	prefix string // "INODE BLOCKS CONTEXT " as padded, or "" if none
	name   string // quoted, with the alignment space and the indicator
	hidden int    // the columns lsWidth counts in name's hyperlink escapes, which take none
}

func (c lsCell) width() int { return len(c.prefix) + lsWidth(c.name) - c.hidden }

// lsWidth is the columns a name takes in the C locale: its printable
// bytes (a control character shown as it is takes none), as GNU's
// quote_name_width counts them.
func lsWidth(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x20 && s[i] < 0x7f {
			n++
		}
	}
	return n
}

func lsPrint(w *bufio.Writer, list []lsEntry, o *lsOpts) {
	if o.long {
		lsLong(w, list, o)
		return
	}
	cells := lsCells(list, o)
	switch o.format {
	case lsFormatColumns, lsFormatAcross:
		lsColumns(w, cells, o)
	case lsFormatCommas:
		pos := 0
		for i, c := range cells {
			n := c.width()
			if i > 0 {
				if o.width < 0 || pos+n+2 < o.width {
					w.WriteString(", ")
					pos += 2
				} else {
					w.WriteByte(',')
					w.WriteByte(o.eol)
					pos = 0
				}
			}
			w.WriteString(c.prefix + c.name)
			pos += n
		}
		if len(cells) > 0 {
			w.WriteByte(o.eol)
		}
	default:
		for _, c := range cells {
			w.WriteString(c.prefix + c.name)
			w.WriteByte(o.eol)
		}
	}
}

// lsCells quotes and decorates the entries of one listing for a short
// format: -i, -s and -Z fields padded to their widest (not with -m), and
// a space before the names without quotes when some have them (GNU's
// alignment of the shell quoting styles).
func lsCells(list []lsEntry, o *lsOpts) []lsCell {
	cells := make([]lsCell, len(list))
	names := make([]string, len(list))
	blocks := make([]string, len(list))
	quoted, bw := false, 0
	for i, e := range list {
		names[i] = lsQuote(e.name, o)
		quoted = quoted || lsQuoted(names[i])
		if o.size {
			blocks[i] = lsBlockFigure(lsBlocks(e.info), o)
			bw = max(bw, len(blocks[i]))
		}
	}
	commas := o.format == lsFormatCommas
	if commas {
		bw = 0
	}
	for i, e := range list {
		var p strings.Builder
		if o.inode {
			p.WriteString("? ")
		}
		if o.size {
			fmt.Fprintf(&p, "%*s ", bw, blocks[i])
		}
		if o.context {
			p.WriteString("? ")
		}
		name := o.link(e.path, names[i])
		hidden := lsWidth(name) - lsWidth(names[i])
		if o.align && quoted && !lsQuoted(names[i]) {
			name = " " + name
		}
		cells[i] = lsCell{p.String(), name + lsSuffix(e.info, o), hidden}
	}
	return cells
}

// lsColumns lays cells out as GNU ls does with -C (down, then across)
// and -x (across, then down): the most columns that fit the width, each
// as wide as its widest cell plus two spaces of separation (none after
// the last), at least 3 (gnulib's calculate_columns).
func lsColumns(w io.Writer, cells []lsCell, o *lsOpts) {
	n := len(cells)
	if n == 0 {
		return
	}
	byCols := o.format == lsFormatColumns
	const minWidth = 3
	maxCols := n
	if o.width > 0 {
		maxCols = min(max(o.width/minWidth, 1), n)
	}
	widths := make([][]int, maxCols)
	lineLen := make([]int, maxCols)
	valid := make([]bool, maxCols)
	for i := range widths {
		widths[i] = make([]int, i+1)
		for j := range widths[i] {
			widths[i][j] = minWidth
		}
		lineLen[i] = (i + 1) * minWidth
		valid[i] = true
	}
	for k, c := range cells {
		l := c.width()
		for i := 0; i < maxCols; i++ {
			if !valid[i] {
				continue
			}
			idx := k % (i + 1)
			if byCols {
				idx = k / ((n + i) / (i + 1))
			}
			real := l
			if idx != i {
				real += 2
			}
			if widths[i][idx] < real {
				lineLen[i] += real - widths[i][idx]
				widths[i][idx] = real
				valid[i] = o.width < 0 || lineLen[i] < o.width
			}
		}
	}
	cols := maxCols
	for cols > 1 && !valid[cols-1] {
		cols--
	}
	colw := widths[cols-1]
	tabsize := o.tabsize
	if o.width < 0 {
		tabsize = 0 // GNU pads with spaces when the width has no limit
	}
	var b strings.Builder
	if byCols {
		rows := (n + cols - 1) / cols
		for r := 0; r < rows; r++ {
			b.Reset()
			pos := 0
			for c, k := 0, r; ; c++ {
				b.WriteString(cells[k].prefix + cells[k].name)
				l := cells[k].width()
				k += rows
				if k >= n {
					break
				}
				lsIndent(&b, pos+l, pos+colw[c], tabsize)
				pos += colw[c]
			}
			b.WriteByte(o.eol)
			io.WriteString(w, b.String())
		}
		return
	}
	pos := 0
	for k, c := range cells {
		if col := k % cols; k > 0 && col == 0 {
			b.WriteByte(o.eol)
			io.WriteString(w, b.String())
			b.Reset()
			pos = 0
		} else if k > 0 {
			prev := cells[k-1].width()
			lsIndent(&b, pos+prev, pos+colw[col-1], tabsize)
			pos += colw[col-1]
		}
		b.WriteString(c.prefix + c.name)
	}
	b.WriteByte(o.eol)
	io.WriteString(w, b.String())
}

// lsIndent pads from column from to column to with tabs (tabsize wide,
// none if 0) where a tab fits and spaces otherwise, exactly as GNU ls
// does.
func lsIndent(b *strings.Builder, from, to, tabsize int) {
	for from < to {
		if tabsize > 0 && to/tabsize > (from+1)/tabsize {
			b.WriteByte('\t')
			from += tabsize - from%tabsize
		} else {
			b.WriteByte(' ')
			from++
		}
	}
}

func lsLong(w *bufio.Writer, list []lsEntry, o *lsOpts) {
	sizes := make([]string, len(list))
	blocks := make([]string, len(list))
	names := make([]string, len(list))
	links := make([]string, len(list))
	sw, bw, lw, quoted := 0, 0, 0, false
	for _, e := range o.widthAlso {
		sw = max(sw, len(lsFigure(e.info.Size(), o.sizeUnit, o.sizeSuffix, o)))
		bw = max(bw, len(lsBlockFigure(lsBlocks(e.info), o)))
		lw = max(lw, len(lsLinks(e)))
	}
	for i, e := range list {
		sizes[i] = lsFigure(e.info.Size(), o.sizeUnit, o.sizeSuffix, o)
		sw = max(sw, len(sizes[i]))
		if o.size {
			blocks[i] = lsBlockFigure(lsBlocks(e.info), o)
			bw = max(bw, len(blocks[i]))
		}
		links[i] = lsLinks(e)
		lw = max(lw, len(links[i]))
		names[i] = lsQuote(e.name, o)
		quoted = quoted || lsQuoted(names[i])
	}
	user, group := "llmsh", "llmsh"
	if o.numeric {
		user, group = "1000", "1000"
	}
	var b strings.Builder
	for i, e := range list {
		b.Reset()
		if o.dired {
			b.WriteString("  ")
		}
		if o.inode {
			b.WriteString("? ")
		}
		if o.size {
			fmt.Fprintf(&b, "%*s ", bw, blocks[i])
		}
		fmt.Fprintf(&b, "%s %*s ", lsMode(e.info), lw, links[i])
		if !o.noOwner {
			b.WriteString(user + " ")
		}
		if !o.noGroup {
			b.WriteString(group + " ")
		}
		if o.author {
			b.WriteString(user + " ")
		}
		if o.context {
			b.WriteString("? ")
		}
		name := names[i]
		if o.align && quoted && !lsQuoted(name) {
			name = " " + name
		}
		fmt.Fprintf(&b, "%*s %s ", sw, sizes[i], lsTimeStyle(e.info.ModTime().In(o.loc), o))
		if strings.HasPrefix(name, " ") && !strings.HasPrefix(names[i], " ") {
			b.WriteByte(' ')
			name = name[1:]
		}
		if o.dired {
			at := o.diredPos() + int64(b.Len())
			o.diredNames = append(o.diredNames, at, at+int64(len(name)))
		}
		b.WriteString(o.link(e.path, name) + lsSuffix(e.info, o) + e.link)
		b.WriteByte(o.eol)
		w.WriteString(b.String())
	}
}

// lsLinks is the number of links -l shows for e: a directory's 2 and
// one for each subdirectory, a file's 1.
func lsLinks(e lsEntry) string {
	switch {
	case e.nlink > 0:
		return strconv.Itoa(e.nlink)
	case e.info.IsDir():
		return "2"
	}
	return "1"
}

func lsMode(info fs.FileInfo) string {
	m := info.Mode()
	b := []byte("----------")
	b[0] = typeOf(m).letter
	const rwx = "rwxrwxrwx"
	for i := 0; i < 9; i++ {
		if m.Perm()&(1<<uint(8-i)) != 0 {
			b[i+1] = rwx[i]
		}
	}
	return string(b)
}

// lsTimeStyle formats a modification time for -l under --time-style.
func lsTimeStyle(t time.Time, o *lsOpts) string {
	switch {
	case o.timeStyle == "full-iso":
		return t.Format("2006-01-02 15:04:05.000000000 -0700")
	case o.timeStyle == "long-iso":
		return t.Format("2006-01-02 15:04")
	case o.timeStyle == "iso":
		const halfYear = 365 * 24 * time.Hour / 2
		if t.After(o.now.Add(-halfYear)) && !t.After(o.now.Add(time.Hour)) {
			return t.Format("01-02 15:04")
		}
		return t.Format("2006-01-02 ")
	case strings.HasPrefix(o.timeStyle, "+"):
		// +FORMAT, or +RECENT\nOLD as GNU splits it at a newline.
		format := o.timeStyle[1:]
		if old, recent, ok := strings.Cut(format, "\n"); ok {
			const halfYear = 365 * 24 * time.Hour / 2
			format = old
			if t.After(o.now.Add(-halfYear)) && !t.After(o.now.Add(time.Hour)) {
				format = recent
			}
		}
		return dateFormat(t, format, t.Location() == time.UTC)
	}
	return lsTime(t, o.now)
}

// lsTime formats a modification time as GNU ls does in the C locale:
// "Mon _2 15:04" within six months of now, "Mon _2  2006" otherwise.
func lsTime(t, now time.Time) string {
	const halfYear = 365 * 24 * time.Hour / 2
	if t.After(now.Add(-halfYear)) && !t.After(now.Add(time.Hour)) {
		return t.Format("Jan _2 15:04")
	}
	return t.Format("Jan _2  2006")
}

// link wraps the printed name q of the file reached as name in an OSC 8
// hyperlink to it, under --hyperlink.
func (o *lsOpts) link(name, q string) string {
	if o.hyperlink == nil {
		return q
	}
	open := o.hyperlink(name)
	if open == "" {
		return q
	}
	return open + q + "\x1b]8;;\a"
}

// lsHyperlink is GNU ls's hyperlink opening for name: a file:// URL of
// the host (llmsh's virtual name) and the canonical path, each byte but
// letters, digits and "-_.~/" percent-encoded; "" when name cannot be
// made canonical.
func lsHyperlink(env *Env, name string) string {
	abs, err := canonicalize(env, name, canonMissing)
	if err != nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("\x1b]8;;file://" + VirtualHostname)
	for i := 0; i < len(abs); i++ {
		c := abs[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.~/", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02x", c)
		}
	}
	b.WriteString("\a")
	return b.String()
}
