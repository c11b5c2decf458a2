package builtins

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

func init() {
	Register(Builtin{Name: "ls", Summary: "list directory contents", Run: ls})
}

// lsEntry is one file to print.
type lsEntry struct {
	name string // as printed
	info fs.FileInfo
	link string // for a symbolic link under -l: " -> TARGET" as printed
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
		fmt.Fprintf(env.Stderr, "ls: cannot read symbolic link %s: %s\n", gnu.QuoteAF(name), ErrText(err))
		*status = max(*status, 1)
		return ""
	}
	s := " -> " + target
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
	lsDerefAlways         // -L: every link
)

type lsOpts struct {
	dirs                                                                       *dirAhead // -R: the subdirectories listed ahead
	active                                                                     []string  // -R: identities of the directories being listed
	long, all, almost, one, recursive, human, bySize, byTime, reverse, dirSelf bool
	classify, slash, noSort                                                    bool
	width                                                                      int
	now                                                                        time.Time
	noOwner, noGroup                                                           bool   // -g, -o
	deref                                                                      int    // lsDeref*
	timeStyle                                                                  string // --time-style: full-iso, long-iso, iso, +FORMAT; "" for the default
}

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
	o := &lsOpts{dirs: newDirAhead(env, false)}
	f := NewFlags(env, "List information about the FILEs (the current directory by default).\nSort entries alphabetically (byte order) if none of -St is specified.", "[OPTION]... [FILE]...")
	f.BoolVar(&o.long, 'l', "", "use a long listing format")
	f.BoolVar(&o.all, 'a', "all", "do not ignore entries starting with .")
	f.BoolVar(&o.almost, 'A', "almost-all", "do not list implied . and ..")
	f.BoolVar(&o.one, '1', "", "list one file per line")
	f.BoolVar(&o.recursive, 'R', "recursive", "list subdirectories recursively")
	f.BoolVar(&o.human, 'h', "human-readable", "with -l, print sizes like 1K 234M 2G etc.")
	f.BoolVar(&o.bySize, 'S', "", "sort by file size, largest first")
	f.BoolVar(&o.byTime, 't', "", "sort by time, newest first")
	f.BoolVar(&o.reverse, 'r', "reverse", "reverse order while sorting")
	f.BoolVar(&o.dirSelf, 'd', "directory", "list directories themselves, not their contents")
	f.BoolVar(&o.classify, 'F', "classify", "append indicator (one of */=@|) to entries; vfsd reports FIFOs and\n                                  sockets as files, so they get none")
	f.Func('H', "dereference-command-line", NoArg, "", "follow symbolic links listed on the command line", func(string, bool) error {
		o.deref = lsDerefArgs
		return nil
	})
	f.Func('L', "dereference", NoArg, "", "show information for the file a symbolic link references rather than for the link itself", func(string, bool) error {
		o.deref = lsDerefAlways
		return nil
	})
	f.BoolVar(&o.slash, 'p', "", "append / indicator to directories")
	f.BoolVar(&o.noSort, 'U', "", "do not sort; list entries in directory order")
	f.Func('w', "width", RequiredArg, "COLS", "set output width to COLS; 0 means no limit", func(v string, _ bool) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return fmt.Errorf("invalid line width: %s", gnu.Quote(v))
		}
		o.width = n
		return nil
	})
	f.Func('g', "", NoArg, "", "like -l, but do not list owner", func(string, bool) error {
		o.long, o.noOwner = true, true
		return nil
	})
	f.Func('o', "", NoArg, "", "like -l, but do not list group information", func(string, bool) error {
		o.long, o.noGroup = true, true
		return nil
	})
	f.Func(0, "full-time", NoArg, "", "like -l --time-style=full-iso", func(string, bool) error {
		o.long, o.timeStyle = true, "full-iso"
		return nil
	})
	f.Func(0, "time-style", RequiredArg, "TIME_STYLE", "time/date format with -l: full-iso, long-iso, iso or +FORMAT (as date)", func(v string, _ bool) error {
		style := strings.TrimPrefix(v, "posix-")
		switch {
		case strings.HasPrefix(v, "+"):
			o.timeStyle = v
		case style != "full-iso" && style != "long-iso" && style != "iso" && style != "locale":
			return &UsageError{"invalid argument " + gnu.Quote(v) + " for 'time style'\nValid arguments are:\n  - [posix-]full-iso\n  - [posix-]long-iso\n  - [posix-]iso\n  - [posix-]locale\n  - +FORMAT (e.g., +%H:%M) for a 'date'-style format"}
		case style == "locale" || style != v:
			// posix-STYLE is STYLE outside the C locale, llmsh's only one.
			o.timeStyle = ""
		default:
			o.timeStyle = style
		}
		return nil
	})
	f.Func(0, "color", OptionalArg, "WHEN", "colorize the output: never (the only mode llmsh implements)", func(string, bool) error { return nil })
	operands, err := f.Parse(env.Args[1:])
	if err != nil {
		return nil, nil, f.Fail(err, 2)
	}
	if o.width == 0 {
		o.width = 80
		for _, kv := range env.Environ {
			if v, ok := strings.CutPrefix(kv, "COLUMNS="); ok {
				if n, err := strconv.Atoi(v); err == nil && n > 0 {
					o.width = n
				}
			}
		}
	}
	if o.deref == lsDerefDefault && (o.dirSelf || o.classify || o.long) {
		o.deref = lsDerefNever
	}
	o.now = time.Now()
	o.dirs.types = lsTypesOnly(o)
	return o, operands, 0
}

// lsRun lists the operands (the current directory if none).
func lsRun(env *Env, o *lsOpts, operands []string) int {
	w := bufio.NewWriterSize(env.Stdout, 32<<10)
	defer w.Flush()

	status := 0
	if len(operands) == 0 {
		operands = []string{"."}
	}
	var files []lsEntry
	var dirs []string
	for _, op := range operands {
		info, err := lsStatArg(env, op, o)
		if err != nil {
			fmt.Fprintf(env.Stderr, "ls: cannot access %s: %s\n", gnu.QuoteAF(op), ErrText(err))
			status = 2
			continue
		}
		if info.IsDir() && !o.dirSelf {
			dirs = append(dirs, op)
		} else {
			files = append(files, lsEntry{op, info, lsLink(env, op, info, o, &status)})
		}
	}
	lsSort(files, o)
	sort.SliceStable(dirs, func(i, j int) bool { return dirs[i] < dirs[j] != o.reverse })
	if len(files) > 0 {
		lsPrint(w, env, files, o)
	}
	header := len(operands) > 1 || o.recursive
	for i, d := range dirs {
		if err := env.Ctx.Err(); err != nil {
			return 1
		}
		if len(files) > 0 || i > 0 {
			w.WriteString("\n")
		}
		if st := lsDir(w, env, d, header, o, nil); st > status {
			status = st
		}
	}
	if err := w.Flush(); err != nil && !IsBrokenPipe(err) {
		env.Errorf("write error: %s", ErrText(err))
		return 2
	}
	return status
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
		fmt.Fprintf(env.Stderr, "ls: cannot open directory %s: %s\n", gnu.QuoteAF(dir), ErrText(err))
		return 2
	}
	if header {
		fmt.Fprintf(w, "%s:\n", dir)
	}
	var list []lsEntry
	if o.all {
		for _, n := range []string{".", ".."} {
			if info, err := env.FS.Stat(env.Abs(path.Join(dir, n))); err == nil {
				list = append(list, lsEntry{n, info, ""})
			}
		}
	}
	status := 0
	shown := ents[:0:0]
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), ".") || o.all || o.almost {
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
				fmt.Fprintf(env.Stderr, "ls: cannot access %s: %s\n", gnu.QuoteAF(name), ErrText(terr))
				status = 1
			}
		}
		if err != nil {
			fmt.Fprintf(env.Stderr, "ls: cannot access %s: %s\n", gnu.QuoteAF(name), ErrText(err))
			status = 1
			continue
		}
		list = append(list, lsEntry{e.Name(), info, lsLink(env, name, info, o, &status)})
	}
	lsSort(list, o)
	if o.long {
		var blocks int64
		for _, e := range list {
			blocks += lsBlocks(e.info)
		}
		if o.human {
			fmt.Fprintf(w, "total %s\n", gnu.HumanCeil(blocks*1024))
		} else {
			fmt.Fprintf(w, "total %d\n", blocks)
		}
	}
	lsPrint(w, env, list, o)
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
					fmt.Fprintf(env.Stderr, "ls: %s: not listing already-listed directory\n", sub)
					status = 2
					continue
				}
				w.WriteString("\n")
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
	return !o.long && !o.bySize && !o.byTime && !o.classify && o.deref != lsDerefAlways
}

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
	if o.noSort {
		return
	}
	less := func(a, b lsEntry) bool { return a.name < b.name }
	switch {
	case o.bySize:
		less = func(a, b lsEntry) bool {
			if a.info.Size() != b.info.Size() {
				return a.info.Size() > b.info.Size()
			}
			return a.name < b.name
		}
	case o.byTime:
		less = func(a, b lsEntry) bool {
			if !a.info.ModTime().Equal(b.info.ModTime()) {
				return a.info.ModTime().After(b.info.ModTime())
			}
			return a.name < b.name
		}
	}
	sort.SliceStable(list, func(i, j int) bool {
		if o.reverse {
			return less(list[j], list[i])
		}
		return less(list[i], list[j])
	})
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
	case m.IsDir() && (o.classify || o.slash):
		return "/"
	case !o.classify:
		return ""
	case m.IsRegular():
		if m&0o111 != 0 {
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
	case lsDerefDefault:
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

func lsPrint(w *bufio.Writer, env *Env, list []lsEntry, o *lsOpts) {
	switch {
	case o.long:
		lsLong(w, list, o)
	case o.one || !env.Terminal:
		for _, e := range list {
			w.WriteString(e.name + lsSuffix(e.info, o) + "\n")
		}
	default:
		names := make([]string, len(list))
		for i, e := range list {
			names[i] = e.name + lsSuffix(e.info, o)
		}
		lsColumns(w, names, o.width)
	}
}

// lsColumns lays names out down then across as GNU ls does on a terminal:
// the most columns that fit the width, each column as wide as its longest
// name plus two spaces of separation (none after the last).
func lsColumns(w io.Writer, names []string, width int) {
	if len(names) == 0 {
		return
	}
	best, bestWidths := 1, []int{0}
	for cols := len(names); cols >= 1; cols-- {
		rows := (len(names) + cols - 1) / cols
		if (len(names)+rows-1)/rows != cols {
			continue // this column count leaves an empty column
		}
		widths := make([]int, cols)
		total := 0
		for c := 0; c < cols; c++ {
			for r := 0; r < rows; r++ {
				if i := c*rows + r; i < len(names) && len(names[i]) > widths[c] {
					widths[c] = len(names[i])
				}
			}
			if c < cols-1 {
				widths[c] += 2
			}
			total += widths[c]
		}
		if total < width || cols == 1 {
			best, bestWidths = cols, widths
			break
		}
	}
	rows := (len(names) + best - 1) / best
	var b strings.Builder
	for r := 0; r < rows; r++ {
		b.Reset()
		pos := 0
		for c := 0; c < best; c++ {
			i := c*rows + r
			if i >= len(names) {
				break
			}
			b.WriteString(names[i])
			if c < best-1 && (c+1)*rows+r < len(names) {
				lsIndent(&b, pos+len(names[i]), pos+bestWidths[c])
			}
			pos += bestWidths[c]
		}
		b.WriteByte('\n')
		io.WriteString(w, b.String())
	}
}

// lsIndent pads from column from to column to with tabs (8 wide) where a
// tab fits and spaces otherwise, exactly as GNU ls does.
func lsIndent(b *strings.Builder, from, to int) {
	for from < to {
		if to/8 > (from+1)/8 {
			b.WriteByte('\t')
			from += 8 - from%8
		} else {
			b.WriteByte(' ')
			from++
		}
	}
}

func lsLong(w *bufio.Writer, list []lsEntry, o *lsOpts) {
	sizes := make([]string, len(list))
	sw := 0
	for i, e := range list {
		if o.human {
			sizes[i] = gnu.HumanCeil(e.info.Size())
		} else {
			sizes[i] = strconv.FormatInt(e.info.Size(), 10)
		}
		sw = max(sw, len(sizes[i]))
	}
	for i, e := range list {
		links := "1"
		if e.info.IsDir() {
			links = "2"
		}
		owner := "llmsh llmsh "
		switch {
		case o.noOwner && o.noGroup:
			owner = ""
		case o.noOwner || o.noGroup:
			owner = "llmsh "
		}
		fmt.Fprintf(w, "%s %s %s%*s %s %s%s%s\n", lsMode(e.info), links, owner, sw, sizes[i],
			lsTimeStyle(e.info.ModTime(), o), e.name, lsSuffix(e.info, o), e.link)
	}
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
