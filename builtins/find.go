package builtins

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	shexpand "github.com/llmsh/llmsh/third_party/sh/expand"

	"github.com/llmsh/llmsh/posixre"
)

var _ = register(Builtin{Name: "find", Summary: "search for files in a directory hierarchy", Run: find})

const findUsage = `Usage: find [-H] [-L] [-P] [-Olevel] [-D debugopts] [path...] [expression]

Default path is the current directory; default expression is -print.
Expression may consist of: operators, options, tests, and actions.

Operators (decreasing precedence; -and is implicit where no others are given):
      ( EXPR )   ! EXPR   -not EXPR   EXPR1 -a EXPR2   EXPR1 -and EXPR2
      EXPR1 -o EXPR2   EXPR1 -or EXPR2   EXPR1 , EXPR2

Positional options (always true):
      -daystart -follow -nowarn -regextype -warn

Normal options (always true, specified before other expressions):
      -depth -files0-from FILE -maxdepth LEVELS -mindepth LEVELS
       -mount -noleaf -xdev -ignore_readdir_race -noignore_readdir_race

Tests (N can be +N or -N or N):
      -empty -false -ilname PATTERN -iname PATTERN -iwholename PATTERN
      -iregex PATTERN -ipath PATTERN -lname PATTERN -mmin N -mtime N
      -name PATTERN -newer FILE -newermm FILE -newermt DATE -path PATTERN
      -perm [-/]MODE -regex PATTERN -readable -writable -executable
      -samefile FILE -wholename PATTERN -size N[bcwkMG] -true
      -type [bcdpfls] -xtype [bcdpfls]

Actions:
      -delete -print0 -printf FORMAT -fprintf FILE FORMAT -print
      -fprint0 FILE -fprint FILE -ls -fls FILE -prune -quit
      -exec COMMAND ; -exec COMMAND {} + -execdir COMMAND ;
      -execdir COMMAND {} +

Other common options:
      --help                   display this help and exit
      --version                output version information and exit

Differences from GNU find: directory entries are visited in sorted order
(GNU uses the order readdir gives); commands run by -exec, -execdir, -ok
and -okdir are llmsh builtins or functions, never host programs;
times are shown in the script's TZ (UTC when unset); access times are
vfsd's of a real file (a virtual file's is its modification time); there
are no status change times (no -ctime, -cmin, -cnewer, -used; -printf's
%c and %C show the modification time); -printf's %i, %D and %F print ?
(%b and %k
estimate blocks from the size, as stat's %b); every file is llmsh's (uid
and gid 1000) with one link (a directory 2 and its subdirectories), as
ls -l and -ls show, and -user, -group, -uid, -gid, -links test that;
there is no -inum test (-samefile compares vfsd's file identity);
-readable, -writable and -executable answer as test -r, -w and -x; -D
and -O are accepted and change nothing.
`

// findError is a command-line error: "find: MSG", status 1.
type findError struct{ msg string }

func (e *findError) Error() string { return e.msg }

func findErrf(format string, args ...any) error {
	return &findError{fmt.Sprintf(format, args...)}
}

// findEnt is one file met by the walk.
type findEnt struct {
	path  string // as printed
	abs   string // absolute, for the FS
	start string // the starting point it was found under
	depth int
	typ   fs.FileMode // type bits, from the directory entry or stat
	known bool        // typ is known
	info  fs.FileInfo
	err   error
	done  bool
	prune bool
	ent   fs.DirEntry // the directory entry it was listed as (nil for a start)
}

// findExpr is a node of the expression tree.
type findExpr func(f *findEnt) bool

// findBatch collects the files of one -exec/-execdir ... {} + action.
type findBatch struct {
	cmd   []string // the command with "{}" last
	dir   string   // -execdir: the directory of the files collected
	files []string
	size  int
}

// findMaxParens bounds the nesting of ( ) in an expression: each level is
// a recursion of the parser, and a million from "$@" overflowed Go's
// stack (a fatal error).
const findMaxParens = 10000

type finder struct {
	parens int // ( ) being read, one inside another
	env    *Env
	out    *bufio.Writer
	ctx    context.Context
	now    time.Time
	// timeRef is what -mtime and -mmin measure from: now, or after
	// -daystart the next midnight in loc.
	timeRef  time.Time
	dayStart bool
	loc      *time.Location // the script's TZ (UTC when unset)
	follow   bool           // -L
	// -H: follow symbolic links named on the command line only.
	followArgs bool
	depthF     bool // -depth
	maxDepth   int
	minDepth   int
	regType    string
	status     int
	quit       bool
	// -delete with -prune needs an explicit -depth, as in GNU.
	explicitDepth, hasPrune, hasDelete bool
	batches                            []*findBatch
	files                              []*findFile
	// parser state
	toks      []string
	pos       int
	lastPred  string // the last predicate or operator read, for strayPath
	hasAction bool
	warned    map[string]bool
	// files0 is -files0-from's FILE ("-": standard input), when given.
	files0    string
	files0Set bool
	// dirs lists directories ahead of the walk, unless the expression
	// changes the tree (changes: -delete, -exec, -execdir), where each
	// is listed only when entered, after what was done before.
	dirs    *dirAhead
	changes bool
	// answers reads -ok's answers from standard input.
	answers *bufio.Reader
}

func find(env *Env) int {
	args := env.Args[1:]
	if len(args) > 0 && args[0] == "--help" {
		io.WriteString(env.Stdout, findUsage)
		return 0
	}
	if len(args) > 0 && args[0] == "--version" {
		io.WriteString(env.Stdout, "find (llmsh), GNU findutils 4.9 compatible\n")
		return 0
	}
	fd := &finder{env: env, ctx: env.Ctx, now: time.Now(), maxDepth: math.MaxInt, regType: "emacs", warned: map[string]bool{}, loc: dateLocation(env), dirs: newDirAhead(env, false)}
	// Leading options -H -L -P (and -D/-O, which take an argument).
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			args = args[1:]
			break
		}
		if len(a) < 2 || a[0] != '-' || strings.Trim(a[1:], "HLP") != "" {
			if a == "-D" || a == "-O" || strings.HasPrefix(a, "-O") && len(a) > 2 && a[2] >= '0' && a[2] <= '9' {
				if a == "-D" || a == "-O" {
					if len(args) < 2 {
						env.Errorf("missing argument to `%s'", a)
						return 1
					}
					args = args[1:]
				}
				args = args[1:]
				continue
			}
			break
		}
		for _, c := range a[1:] {
			fd.follow, fd.followArgs = c == 'L', c == 'H'
		}
		args = args[1:]
	}
	var paths []string
	for len(args) > 0 {
		a := args[0]
		// As GNU's looks_like_expression: a leading ")" or "," is a
		// path, "(" and "!" start the expression.
		if a == "(" || a == "!" || len(a) > 1 && a[0] == '-' {
			break
		}
		paths = append(paths, a)
		args = args[1:]
	}
	explicit := len(paths) > 0
	if !explicit {
		paths = []string{"."}
	}
	fd.toks = args
	// Listed by names and types when no test may want more of a file
	// (a walk without one pays no lstat per file).
	fd.dirs.types = !fd.follow && findTypesOnly(args)
	fd.out = bufio.NewWriterSize(env.Stdout, 32<<10)
	defer fd.closeFiles()
	expr, err := fd.parse()
	if err != nil {
		var fe *findError
		if errors.As(err, &fe) {
			env.Errorf("%s", fe.msg)
		} else {
			env.Errorf("%s", err)
		}
		return 1
	}
	if fd.files0Set {
		if explicit {
			env.Errorf("extra operand %s", env.Quote(paths[0]))
			env.Errorf("file operands cannot be combined with -files0-from")
			return 1
		}
		if paths = fd.readFiles0(); paths == nil {
			return 1
		}
	}
	// Whole subtrees listed at once, for a walk that enters them all and
	// does not change them on the way.
	fd.dirs.tree = !fd.changes && fd.maxDepth == math.MaxInt
	if !fd.hasAction {
		inner := expr
		expr = func(f *findEnt) bool {
			if inner(f) && !fd.quit {
				fd.print(f.path + "\n")
			}
			return true
		}
	}
	for _, p := range paths {
		if fd.quit || fd.ctx.Err() != nil {
			break
		}
		fd.start(p, expr)
	}
	fd.runBatches()
	fd.closeFiles()
	if err := fd.out.Flush(); err != nil && fd.status == 0 {
		// GNU find reports the failed fflush, then close_stdout its flag.
		if fd.status = outputFailed(env, err, wroteNamed, env.QuoteF("standard output"), 1); !quietStop(err) {
			env.Errorf(wroteFlushed)
		}
	}
	if fd.ctx.Err() != nil && fd.status == 0 {
		fd.status = 1
	}
	return fd.status
}

func (fd *finder) print(s string) { fd.printTo(fd.out, s) }

// readFiles0 reads -files0-from's starting points, NUL-separated (the
// last may lack its NUL); an empty name is reported and skipped, as GNU
// find 4.9 does. It returns nil when the file cannot be read.
func (fd *finder) readFiles0() []string {
	env, name := fd.env, fd.files0
	shown := env.Quote(name)
	var r io.Reader = env.Stdin
	if name == "-" {
		shown = env.Quote("(standard input)")
	} else {
		f, err := env.Open(name)
		if errors.Is(err, syscall.EISDIR) {
			env.Errorf("%s: read error: %s", shown, ErrText(err))
			return nil
		}
		if err != nil {
			env.Errorf("cannot open %s for reading: %s", shown, ErrText(err))
			return nil
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(r)
	if err != nil {
		env.Errorf("%s: read error: %s", shown, ErrText(err))
		return nil
	}
	paths := []string{}
	items := strings.Split(string(data), "\x00")
	if len(items) > 0 && items[len(items)-1] == "" {
		items = items[:len(items)-1]
	}
	for i, p := range items {
		if p == "" {
			env.Errorf("%s:%d: invalid zero-length file name", shown, i+1)
			fd.status = 1
			continue
		}
		paths = append(paths, p)
	}
	return paths
}

// ls writes f as GNU find's -ls does ("%9i %6k %M %3n %-8u %-8g %8s %t
// %p"), with what vfsd knows: no inode number (0), blocks from the size
// in 1 KiB units, one link (for a directory 2 and its subdirectories)
// and llmsh as owner and group, as ls -l shows them.
func (fd *finder) ls(w *bufio.Writer, f *findEnt) {
	info, err := f.stat(fd)
	if err != nil {
		return
	}
	links := 1
	if info.IsDir() {
		links = dirLinkCount(fd.env, f.abs)
	}
	mode := lsMode(info)
	if info.Mode()&fs.ModeSymlink != 0 {
		mode = "l" + mode[1:]
	}
	target := ""
	if info.Mode()&fs.ModeSymlink != 0 {
		if t, err := fd.env.FS.Readlink(f.abs); err == nil {
			target = " -> " + t
		} else {
			fd.fileErr(f.path, err)
		}
	}
	fd.printTo(w, fmt.Sprintf("%9d %6d %s %3d %-8s %-8s %8d %s %s%s\n", 0, (statBlocks(info)+1)/2, mode, links,
		"llmsh", "llmsh", info.Size(), lsTime(info.ModTime().In(fd.loc), fd.now), f.path, target))
}

func (fd *finder) printTo(w *bufio.Writer, s string) {
	if _, err := w.WriteString(s); err != nil {
		if IsBrokenPipe(err) {
			fd.quit = true
			fd.status = 1
		}
	}
}

// findFile is a file opened by -fprint, -fprint0 or -fprintf.
type findFile struct {
	name string
	w    *bufio.Writer
	f    File // nil for /dev/stdout and /dev/stderr
}

// outFile opens (truncating, at parse time, as GNU does) the file of an
// -fprint action; the same name twice shares one stream.
func (fd *finder) outFile(name string) (*bufio.Writer, error) {
	for _, f := range fd.files {
		if f.name == name {
			return f.w, nil
		}
	}
	switch name {
	case "/dev/stdout":
		return fd.out, nil
	case "/dev/stderr":
		w := bufio.NewWriterSize(fd.env.Stderr, 0)
		fd.files = append(fd.files, &findFile{name: name, w: w})
		return w, nil
	}
	f, err := fd.env.Create(name)
	if err != nil {
		return nil, findErrf("%s: %s", fd.env.Quote(name), ErrText(err))
	}
	w := bufio.NewWriterSize(f, 32<<10)
	fd.files = append(fd.files, &findFile{name: name, w: w, f: f})
	return w, nil
}

func (fd *finder) closeFiles() {
	for _, f := range fd.files {
		err := f.w.Flush()
		if f.f != nil {
			if cerr := f.f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fd.errorf("%s: %s", fd.env.Quote(f.name), ErrText(err))
			fd.status = 1
		}
	}
	fd.files = nil
}

// statOf describes abs, not following a final symbolic link unless -L.
// Under -L a link that cannot be followed (dangling, or leading out of
// the grants) is described itself, as GNU find does for a broken link.
func (fd *finder) statOf(abs string) (fs.FileInfo, error) {
	if !fd.follow {
		return fd.env.FS.Lstat(abs)
	}
	return fd.statFollow(abs)
}

// refStat describes the reference file of a test (-newer, -samefile), or
// fails in GNU find's words.
func (fd *finder) refStat(name string) (fs.FileInfo, error) {
	info, err := fd.statOf(fd.env.Abs(name))
	if err != nil {
		return nil, findErrf("%s: %s", fd.env.Quote(name), ErrText(err))
	}
	return info, nil
}

// statFollow describes abs following links, or the link itself when it
// cannot be followed.
func (fd *finder) statFollow(abs string) (fs.FileInfo, error) {
	info, err := fd.env.FS.Stat(abs)
	if err != nil && (errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission)) {
		if li, lerr := fd.env.FS.Lstat(abs); lerr == nil && li.Mode()&fs.ModeSymlink != 0 {
			return li, nil
		}
	}
	return info, err
}

func (f *findEnt) stat(fd *finder) (fs.FileInfo, error) {
	if !f.done {
		if f.ent != nil && (!fd.follow || f.ent.Type()&fs.ModeSymlink == 0) {
			// The entry's lstat, which is its stat unless it is a
			// link: from the listing, when vfsd described it there.
			f.info, f.err = f.ent.Info()
		} else {
			f.info, f.err = fd.statOf(f.abs)
		}
		f.done = true
		if f.err == nil {
			f.typ, f.known = f.info.Mode().Type(), true
		}
	}
	return f.info, f.err
}

// fileType returns the type bits, stat-ing if the directory entry did not
// say.
func (f *findEnt) fileType(fd *finder) fs.FileMode {
	if !f.known {
		f.stat(fd)
	}
	return f.typ
}

// errorf reports a problem met during the walk, after what was printed
// before it (gnulib's error() flushes stdout first, so that both streams
// sent to one place keep their order).
func (fd *finder) errorf(format string, args ...any) {
	fd.out.Flush()
	fd.env.Errorf(format, args...)
}

func (fd *finder) fileErr(name string, err error) {
	fd.errorf("%s: %s", fd.env.Quote(name), ErrText(err))
	fd.status = 1
}

func (fd *finder) start(p string, expr findExpr) {
	abs := fd.env.Abs(p)
	f := &findEnt{path: p, abs: abs, start: p}
	var info fs.FileInfo
	var err error
	if fd.followArgs || strings.HasSuffix(p, "/") && !fd.follow {
		// -H, or a trailing slash, which resolves a link as lstat(2) does.
		info, err = fd.statFollow(abs)
		if err == nil {
			f.info, f.done, f.typ, f.known = info, true, info.Mode().Type(), true
		}
	} else {
		info, err = f.stat(fd)
	}
	if err != nil {
		fd.fileErr(p, err)
		return
	}
	fd.visit(f, expr, []findAncestor{{f.path, info}})
}

// findAncestor is a directory above the one being walked, for loop
// detection.
type findAncestor struct {
	path string
	info fs.FileInfo
}

// findTypesOnly reports whether the expression toks asks no more of a
// file than its name and type (a lister's guess: a test that wants more
// still gets it, by an lstat).
func findTypesOnly(toks []string) bool {
	for i := 0; i < len(toks); i++ {
		switch toks[i] {
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-type",
			"-maxdepth", "-mindepth", "-regextype":
			i++ // the argument
		case "-print", "-print0", "-prune", "-quit", "-true", "-false", "-depth", "-d", "-nowarn", "-warn",
			"-noleaf", "-ignore_readdir_race", "-noignore_readdir_race", "-o", "-or", "-a", "-and", "!", "-not", "(", ")", ",":
		default:
			return false
		}
	}
	return true
}

// findSameFile reports whether a and b describe one file: by the host's
// device and inode where the FS gives them, else by vfsd's file identity.
func findSameFile(a, b fs.FileInfo) bool {
	return os.SameFile(a, b) || SameFile(a, b)
}

// visit evaluates expr on f and walks into it if it is a directory.
func (fd *finder) visit(f *findEnt, expr findExpr, ancestors []findAncestor) {
	if fd.quit || fd.ctx.Err() != nil {
		return
	}
	if !fd.depthF && f.depth >= fd.minDepth {
		expr(f)
	}
	if fd.quit {
		return
	}
	if f.fileType(fd).IsDir() && f.depth < fd.maxDepth && !f.prune {
		entries, err := fd.dirs.readDir(f.abs)
		if err != nil {
			fd.fileErr(f.path, err)
		} else {
			if f.done && f.info != nil {
				ancestors = append(ancestors, findAncestor{f.path, f.info})
			}
			if !fd.changes && f.depth+1 < fd.maxDepth {
				var subdirs []string
				for _, e := range entries {
					if e.IsDir() {
						subdirs = append(subdirs, joinPath(f.abs, e.Name()))
					}
				}
				defer fd.dirs.forget(fd.dirs.ahead(subdirs))
			}
			for _, e := range entries {
				if fd.quit || fd.ctx.Err() != nil {
					return
				}
				child := &findEnt{
					path:  findJoin(f.path, e.Name()),
					abs:   joinPath(f.abs, e.Name()), // f.abs is Env.Abs's or one of these: path.Join's Clean finds nothing
					start: f.start,
					depth: f.depth + 1,
					ent:   e,
				}
				if t := e.Type(); !fd.follow || t&fs.ModeSymlink == 0 {
					child.typ, child.known = t, true
				}
				if child.known && child.typ.IsDir() || fd.follow {
					// Guard against directory loops where the FS can tell.
					if info, err := child.stat(fd); err == nil && info.IsDir() {
						loop := ""
						for _, a := range ancestors {
							if loop == "" && findSameFile(a.info, info) {
								loop = a.path
							}
						}
						if loop != "" {
							fd.errorf("File system loop detected; %s is part of the same file system loop as %s.", fd.env.Quote(child.path), fd.env.Quote(loop))
							fd.status = 1
							continue
						}
					}
				}
				fd.visit(child, expr, ancestors)
			}
		}
	}
	if fd.depthF && f.depth >= fd.minDepth && !fd.quit {
		expr(f)
	}
}

func findJoin(dir, name string) string {
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}

// --- parsing ---

func (fd *finder) peek() (string, bool) {
	if fd.pos < len(fd.toks) {
		return fd.toks[fd.pos], true
	}
	return "", false
}

func (fd *finder) next() string {
	t := fd.toks[fd.pos]
	fd.pos++
	return t
}

func (fd *finder) parse() (findExpr, error) {
	if len(fd.toks) == 0 {
		return func(*findEnt) bool { return true }, nil
	}
	e, err := fd.parseComma()
	if err != nil {
		return nil, err
	}
	if fd.hasDelete && fd.hasPrune && !fd.explicitDepth {
		return nil, findErrf("The -delete action automatically turns on -depth, but -prune does nothing when -depth is in effect.  If you want to carry on anyway, just explicitly use the -depth option.")
	}
	if t, ok := fd.peek(); ok {
		if t == ")" {
			return nil, findErrf("you have too many ')'")
		}
		return nil, fd.strayPath(t)
	}
	return e, nil
}

// operand checks that an expression follows the operator op, or fails
// in GNU find's words (another binary operator is parsePrimary's error).
func (fd *finder) operand(op string) error {
	t, ok := fd.peek()
	switch {
	case !ok:
		return findErrf("expected an expression after '%s'", op)
	case t == ")":
		return findErrf("expected an expression between '%s' and ')'", op)
	}
	return nil
}

// strayPath is GNU find's error for a word that is no predicate where
// one goes. When the word names a file, a second line guesses at a glob
// that the shell expanded (find -name *.txt), naming the predicate read
// last, as GNU's does.
func (fd *finder) strayPath(t string) error {
	msg := fmt.Sprintf("paths must precede expression: `%s'", t)
	if _, err := fd.env.FS.Stat(fd.env.Abs(t)); err == nil {
		last := fd.lastPred
		if last == "" {
			last = "(" // GNU's expression starts with an implicit one
		}
		msg += fmt.Sprintf("\nfind: possible unquoted pattern after predicate `%s'?", last)
	}
	return &findError{msg}
}

// The operands of a chain of -a, -o or "," are evaluated in a loop, not
// as nested closures: a chain of a million operands ("$@") was a Go
// recursion a million deep when evaluated.

func (fd *finder) parseComma() (findExpr, error) {
	left, err := fd.parseOr()
	if err != nil {
		return nil, err
	}
	terms := []findExpr{left}
	for {
		t, ok := fd.peek()
		if !ok || t != "," {
			if len(terms) == 1 {
				return left, nil
			}
			return func(f *findEnt) bool {
				r := false
				for i, e := range terms {
					if i > 0 && fd.quit {
						return false
					}
					r = e(f)
				}
				return r
			}, nil
		}
		fd.lastPred = fd.next()
		if err := fd.operand(t); err != nil {
			return nil, err
		}
		right, err := fd.parseOr()
		if err != nil {
			return nil, err
		}
		terms = append(terms, right)
	}
}

func (fd *finder) parseOr() (findExpr, error) {
	left, err := fd.parseAnd()
	if err != nil {
		return nil, err
	}
	terms := []findExpr{left}
	for {
		t, ok := fd.peek()
		if !ok || t != "-o" && t != "-or" {
			if len(terms) == 1 {
				return left, nil
			}
			return func(f *findEnt) bool {
				for i, e := range terms {
					if i > 0 && fd.quit {
						return false
					}
					if e(f) {
						return true
					}
				}
				return false
			}, nil
		}
		fd.lastPred = fd.next()
		if err := fd.operand(t); err != nil {
			return nil, err
		}
		right, err := fd.parseAnd()
		if err != nil {
			return nil, err
		}
		terms = append(terms, right)
	}
}

func (fd *finder) parseAnd() (findExpr, error) {
	left, err := fd.parseNot()
	if err != nil {
		return nil, err
	}
	terms := []findExpr{left}
	for {
		t, ok := fd.peek()
		if !ok || t == ")" || t == "," || t == "-o" || t == "-or" {
			if len(terms) == 1 {
				return left, nil
			}
			return func(f *findEnt) bool {
				for i, e := range terms {
					if i > 0 && fd.quit || !e(f) {
						return false
					}
				}
				return true
			}, nil
		}
		if t == "-a" || t == "-and" {
			fd.lastPred = fd.next()
			if err := fd.operand(t); err != nil {
				return nil, err
			}
		}
		right, err := fd.parseNot()
		if err != nil {
			return nil, err
		}
		terms = append(terms, right)
	}
}

// parseNot reads a run of ! (or -not) in a loop, not one recursion each.
func (fd *finder) parseNot() (findExpr, error) {
	not := false
	for {
		t, ok := fd.peek()
		if !ok || t != "!" && t != "-not" {
			break
		}
		fd.lastPred = fd.next()
		if err := fd.operand(t); err != nil {
			return nil, err
		}
		not = !not
	}
	e, err := fd.parsePrimary()
	if err != nil || !not {
		return e, err
	}
	return func(f *findEnt) bool { return !e(f) }, nil
}

func (fd *finder) arg(name string) (string, error) {
	if fd.pos >= len(fd.toks) {
		return "", findErrf("missing argument to `%s'", name)
	}
	return fd.next(), nil
}

func (fd *finder) parsePrimary() (findExpr, error) {
	if fd.pos >= len(fd.toks) {
		return nil, findErrf("invalid expression")
	}
	t := fd.next()
	switch t {
	case "(":
		fd.lastPred = t
		if _, ok := fd.peek(); !ok {
			return nil, findErrf("invalid expression; expected to find a ')' but didn't see one. Perhaps you need an extra predicate after '('")
		}
		if t2, ok := fd.peek(); ok && t2 == ")" {
			return nil, findErrf("invalid expression; empty parentheses are not allowed.")
		}
		if fd.parens++; fd.parens > findMaxParens {
			return nil, findErrf("invalid expression; parentheses nested too deeply")
		}
		e, err := fd.parseComma()
		fd.parens--
		if err != nil {
			return nil, err
		}
		if t2, ok := fd.peek(); !ok || t2 != ")" {
			return nil, findErrf("invalid expression; I was expecting to find a ')' somewhere but did not see one.")
		}
		fd.lastPred = fd.next()
		return e, nil
	case ")":
		return nil, findErrf("invalid expression; you have too many ')'")
	case "-o", "-or", "-a", "-and", ",":
		return nil, findErrf("invalid expression; you have used a binary operator '%s' with nothing before it.", t)
	}
	if len(t) < 2 || t[0] != '-' {
		return nil, fd.strayPath(t)
	}
	fd.lastPred = t
	if parse, ok := findPrimaries()[t]; ok {
		return parse(fd, t)
	}
	switch t {
	case "-ctime", "-cmin", "-used", "-cnewer":
		return nil, findErrf("%s: status change times are not available here (vfsd keeps none)", t)
	case "-inum", "-context", "-fstype":
		return nil, findErrf("%s is not supported in llmsh (see find --help)", t)
	}
	if len(t) == 8 && strings.HasPrefix(t, "-newer") && strings.IndexByte("aBcm", t[6]) >= 0 && strings.IndexByte("aBcmt", t[7]) >= 0 {
		if t[6] == 'B' || t[7] == 'B' {
			// GNU then rejects the primary: two lines
			return nil, findErrf("This system does not provide a way to find the birth time of a file.\nfind: invalid predicate `%s'", t)
		}
		return nil, findErrf("%s: status change times are not available here (vfsd keeps none)", t)
	}
	if strings.HasPrefix(t, "-newer") && len(t) == 8 {
		return nil, findErrf("invalid predicate `%s'", t)
	}
	return nil, findErrf("unknown predicate `%s'", t)
}

// findTrue is the expression of the options and -true.
func findTrue(*findEnt) bool { return true }

// findPrimaries maps each primary of find's expressions to its parser,
// made the first time find parses one (an init function of this file
// made every start fault in its page of the binary's text).
var findPrimaries = sync.OnceValue(func() map[string]func(fd *finder, t string) (findExpr, error) {
	m := map[string]func(fd *finder, t string) (findExpr, error){}
	for _, g := range []struct {
		parse func(fd *finder, t string) (findExpr, error)
		names []string
	}{
		{(*finder).parseOption, []string{"-depth", "-d", "-maxdepth", "-mindepth", "-follow", "-daystart", "-files0-from", "-mount", "-xdev", "-noleaf", "-ignore_readdir_race", "-noignore_readdir_race", "-warn", "-nowarn", "-regextype"}},
		{(*finder).parseNameTest, []string{"-true", "-false", "-name", "-iname", "-lname", "-ilname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex"}},
		{(*finder).parseFileTest, []string{"-samefile", "-type", "-xtype", "-size", "-empty", "-perm", "-readable", "-writable", "-executable"}},
		{(*finder).parseTimeTest, []string{"-mtime", "-mmin", "-atime", "-amin", "-newer", "-anewer", "-newermm", "-newermt", "-newerma", "-newerat", "-neweram", "-neweraa", "-newerat"}},
		{(*finder).parseOwnerTest, []string{"-links", "-user", "-group", "-uid", "-gid", "-nouser", "-nogroup"}},
		{(*finder).parsePrintAction, []string{"-print", "-print0", "-printf", "-fprint", "-fprint0", "-fprintf", "-ls", "-fls"}},
		{(*finder).parseAction, []string{"-prune", "-quit", "-delete", "-exec", "-execdir", "-ok", "-okdir"}},
	} {
		for _, name := range g.names {
			m[name] = g.parse
		}
	}
	return m
})

// parseOption parses the options, which are always true.
func (fd *finder) parseOption(t string) (findExpr, error) {
	switch t {
	case "-depth", "-d":
		fd.depthF, fd.explicitDepth = true, true
		return findTrue, nil
	case "-maxdepth", "-mindepth":
		v, err := fd.arg(t)
		if err != nil {
			return nil, err
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || v[0] == '+' || v[0] == '-' {
			return nil, findErrf("Expected a positive decimal integer argument to %s, but got %s", t, fd.env.Quote(v))
		}
		if t == "-maxdepth" {
			fd.maxDepth = n
		} else {
			fd.minDepth = n
		}
		return findTrue, nil
	case "-follow":
		fd.follow = true
		return findTrue, nil
	case "-files0-from":
		v, err := fd.arg(t)
		if err != nil {
			return nil, err
		}
		fd.files0, fd.files0Set = v, true
		return findTrue, nil
	case "-daystart":
		// Positional: the tests after it measure from the end of today.
		if !fd.dayStart {
			y, m, d := fd.now.In(fd.loc).Date()
			fd.timeRef = time.Date(y, m, d+1, 0, 0, 0, 0, fd.loc)
			fd.dayStart = true
		}
		return findTrue, nil
	case "-mount", "-xdev", "-noleaf", "-ignore_readdir_race", "-noignore_readdir_race", "-warn", "-nowarn":
		return findTrue, nil
	case "-regextype":
		v, err := fd.arg(t)
		if err != nil {
			return nil, err
		}
		switch v {
		case "findutils-default", "emacs", "posix-basic", "grep", "sed", "ed", "posix-minimal-basic",
			"posix-extended", "egrep", "posix-egrep", "awk", "posix-awk", "gnu-awk":
			fd.regType = v
		default:
			return nil, findErrf("Unknown regular expression type %s; valid types are 'findutils-default', 'ed', 'emacs', 'gnu-awk', 'grep', 'posix-awk', 'awk', 'posix-basic', 'posix-egrep', 'egrep', 'posix-extended', 'posix-minimal-basic', 'sed'.", fd.env.Quote(v))
		}
		return findTrue, nil
	}
	return nil, findErrf("unknown predicate `%s'", t)
}

// parseNameTest parses the tests of a name or path, and -true and -false.
func (fd *finder) parseNameTest(t string) (findExpr, error) {
	switch t {
	case "-true":
		return findTrue, nil
	case "-false":
		return func(*findEnt) bool { return false }, nil
	case "-name", "-iname":
		v, err := fd.arg(t)
		if err != nil {
			return nil, err
		}
		m := fd.glob(v, t == "-iname")
		return func(f *findEnt) bool { return m(findBase(f.path)) }, nil
	case "-lname", "-ilname":
		// A symbolic link whose text matches (under -L, only a link
		// that cannot be followed is still one).
		v, err := fd.arg(t)
		if err != nil {
			return nil, err
		}
		m := fd.glob(v, t == "-ilname")
		return func(f *findEnt) bool {
			if f.fileType(fd)&fs.ModeSymlink == 0 {
				return false
			}
			target, err := fd.env.FS.Readlink(f.abs)
			return err == nil && m(target)
		}, nil
	case "-path", "-ipath", "-wholename", "-iwholename":
		v, err := fd.arg(t)
		if err != nil {
			return nil, err
		}
		m := fd.glob(v, t[1] == 'i')
		return func(f *findEnt) bool { return m(f.path) }, nil
	case "-regex", "-iregex":
		v, err := fd.arg(t)
		if err != nil {
			return nil, err
		}
		re, err := fd.compileRegex(v, t == "-iregex")
		if err != nil {
			return nil, err
		}
		return func(f *findEnt) bool {
			loc, err := re.FindSubmatchIndex([]byte(f.path))
			return err == nil && loc != nil && loc[0] == 0 && loc[1] == len(f.path)
		}, nil
	}
	return nil, findErrf("unknown predicate `%s'", t)
}

// parseFileTest parses the tests of a file's identity, type, size and mode.
func (fd *finder) parseFileTest(t string) (findExpr, error) {
	switch t {
	case "-samefile":
		// The same file by vfsd's identity (hard links; under -L a link
		// and its target).
		ref, err := fd.refArg(t)
		if err != nil {
			return nil, err
		}
		return func(f *findEnt) bool {
			info, err := f.stat(fd)
			return err == nil && SameFile(info, ref)
		}, nil
	case "-type", "-xtype":
		v, err := fd.arg(t)
		if err != nil {
			return nil, err
		}
		want, err := findTypes(v)
		if err != nil {
			return nil, err
		}
		xtype := t == "-xtype"
		return func(f *findEnt) bool {
			typ := f.fileType(fd)
			switch {
			case xtype && fd.follow:
				// Under -L, -xtype is the type of the link itself.
				if info, err := fd.env.FS.Lstat(f.abs); err == nil {
					typ = info.Mode().Type()
				}
			case xtype && typ&fs.ModeSymlink != 0:
				if info, err := fd.env.FS.Stat(f.abs); err == nil {
					typ = info.Mode().Type()
				}
			}
			return want[findTypeChar(typ)]
		}, nil
	case "-size":
		v, err := fd.arg(t)
		if err != nil {
			return nil, err
		}
		cmp, n, unit, err := findSize(v)
		if err != nil {
			return nil, err
		}
		return func(f *findEnt) bool {
			info, err := f.stat(fd)
			if err != nil {
				return false
			}
			sz := info.Size()
			units := sz / unit
			if sz%unit != 0 {
				units++
			}
			return findCompare(cmp, units, n)
		}, nil
	case "-readable", "-writable", "-executable":
		// access(2) as the shell's test -r/-w/-x answers it: a file
		// that exists may be read and written; it may be executed when
		// it is a directory or has an execute bit.
		exec := t == "-executable"
		return func(f *findEnt) bool {
			info, err := fd.env.FS.Stat(f.abs)
			if err != nil {
				return false
			}
			return !exec || info.IsDir() || info.Mode().Perm()&0o111 != 0
		}, nil
	case "-empty":
		return func(f *findEnt) bool {
			typ := f.fileType(fd)
			switch {
			case typ.IsDir():
				entries, err := fd.env.FS.ReadDir(f.abs)
				if err != nil {
					fd.fileErr(f.path, err)
					return false
				}
				return len(entries) == 0
			case typ.IsRegular():
				info, err := f.stat(fd)
				return err == nil && info.Size() == 0
			}
			return false
		}, nil
	case "-perm":
		v, err := fd.arg(t)
		if err != nil {
			return nil, err
		}
		return fd.permTest(v)
	}
	return nil, findErrf("unknown predicate `%s'", t)
}

// parseTimeTest parses the tests of a modification or access time (a
// real file's access time is vfsd's, a virtual file's its modification
// time; there are no status change times).
func (fd *finder) parseTimeTest(t string) (findExpr, error) {
	switch t {
	case "-mtime", "-mmin", "-atime", "-amin":
		cmp, n, err := fd.numArg(t)
		if err != nil {
			return nil, err
		}
		minutes, which := t[2:] == "min", t[1]
		ref := fd.now
		if fd.dayStart {
			ref = fd.timeRef
		}
		return func(f *findEnt) bool {
			info, err := f.stat(fd)
			if err != nil {
				return false
			}
			diff := ref.Sub(fd.fileTime(f, info, which)).Seconds()
			if minutes {
				switch cmp {
				case '+':
					return diff > float64(n)*60
				case '-':
					return diff < float64(n)*60
				}
				return diff > float64(n-1)*60 && diff <= float64(n)*60
			}
			return findCompare(cmp, int64(math.Floor(diff/86400)), n)
		}, nil
	case "-newer", "-anewer":
		ref, err := fd.refArg(t)
		if err != nil {
			return nil, err
		}
		return fd.newerThan(ref.ModTime(), t[1]), nil
	}
	return fd.parseNewerXY(t)
}

// parseNewerXY parses -newerXY REF: the file's time X (a, m) after REF's
// time Y (a, m) or after the date REF (t).
func (fd *finder) parseNewerXY(t string) (findExpr, error) {
	if fd.pos >= len(fd.toks) {
		return nil, findErrf("The '%s' test needs an argument", t)
	}
	v := fd.next()
	if t[7] == 't' {
		d, err := dateParse(v, fd.now, fd.loc)
		if err != nil {
			return nil, findErrf("I cannot figure out how to interpret %s as a date or time", fd.env.Quote(v))
		}
		return fd.newerThan(d, t[6]), nil
	}
	ref, err := fd.refStat(v)
	if err != nil {
		return nil, err
	}
	mt := ref.ModTime()
	if t[7] == 'a' {
		mt = statAtime(ref)
	}
	return fd.newerThan(mt, t[6]), nil
}

// fileTime is f's modification time, or its access time for which 'a'.
func (fd *finder) fileTime(f *findEnt, info fs.FileInfo, which byte) time.Time {
	if which == 'a' {
		return fd.accessTime(f, info)
	}
	return info.ModTime()
}

// refArg reads the argument of test t, a file, and describes that file.
func (fd *finder) refArg(t string) (fs.FileInfo, error) {
	v, err := fd.arg(t)
	if err != nil {
		return nil, err
	}
	return fd.refStat(v)
}

// newerThan is the test of a modification time (access time for which
// 'a') after mt.
func (fd *finder) newerThan(mt time.Time, which byte) findExpr {
	return func(f *findEnt) bool {
		info, err := f.stat(fd)
		return err == nil && fd.fileTime(f, info, which).After(mt)
	}
}

// parsePrintAction parses the actions that print.
func (fd *finder) parsePrintAction(t string) (findExpr, error) {
	switch t {
	case "-print":
		fd.hasAction = true
		return func(f *findEnt) bool { fd.print(f.path + "\n"); return true }, nil
	case "-print0":
		fd.hasAction = true
		return func(f *findEnt) bool { fd.print(f.path + "\x00"); return true }, nil
	case "-printf":
		fd.hasAction = true
		v, err := fd.arg(t)
		if err != nil {
			return nil, err
		}
		format, err := fd.parseFormat(v)
		if err != nil {
			return nil, err
		}
		return func(f *findEnt) bool { fd.printf(fd.out, format, f); return true }, nil
	case "-fprint", "-fprint0", "-fprintf":
		fd.hasAction = true
		name, err := fd.arg(t)
		if err != nil {
			return nil, err
		}
		var format []findFmt
		if t == "-fprintf" {
			v, err := fd.arg(t)
			if err != nil {
				return nil, err
			}
			if format, err = fd.parseFormat(v); err != nil {
				return nil, err
			}
		}
		w, err := fd.outFile(name)
		if err != nil {
			return nil, err
		}
		switch t {
		case "-fprint":
			return func(f *findEnt) bool { fd.printTo(w, f.path+"\n"); return true }, nil
		case "-fprint0":
			return func(f *findEnt) bool { fd.printTo(w, f.path+"\x00"); return true }, nil
		}
		return func(f *findEnt) bool { fd.printf(w, format, f); return true }, nil
	case "-ls":
		fd.hasAction = true
		return func(f *findEnt) bool { fd.ls(fd.out, f); return true }, nil
	case "-fls":
		fd.hasAction = true
		name, err := fd.arg(t)
		if err != nil {
			return nil, err
		}
		w, err := fd.outFile(name)
		if err != nil {
			return nil, err
		}
		return func(f *findEnt) bool { fd.ls(w, f); return true }, nil
	}
	return nil, findErrf("unknown predicate `%s'", t)
}

// parseAction parses the other actions.
func (fd *finder) parseAction(t string) (findExpr, error) {
	switch t {
	case "-prune":
		fd.hasPrune = true
		return func(f *findEnt) bool {
			if !fd.depthF {
				f.prune = true
			}
			return true
		}, nil
	case "-quit":
		return func(f *findEnt) bool { fd.quit = true; return true }, nil
	case "-delete":
		fd.hasAction, fd.changes = true, true
		fd.depthF, fd.hasDelete = true, true
		return func(f *findEnt) bool {
			if f.path == "." {
				return true // GNU never deletes the starting point "."
			}
			if err := fd.env.FS.Remove(f.abs); err != nil {
				fd.errorf("cannot delete %s: %s", fd.env.Quote(f.path), ErrText(err))
				fd.status = 1
				return false
			}
			return true
		}, nil
	case "-exec", "-execdir":
		fd.hasAction, fd.changes = true, true
		return fd.parseExec(t)
	case "-ok", "-okdir":
		fd.hasAction, fd.changes = true, true
		return fd.parseExec(t)
	}
	return nil, findErrf("unknown predicate `%s'", t)
}

func findBase(p string) string {
	trimmed := strings.TrimRight(p, "/")
	if trimmed == "" {
		return p[:min(len(p), 1)]
	}
	return path.Base(trimmed)
}

// findGlob compiles an fnmatch pattern (no FNM_PATHNAME, no FNM_PERIOD:
// '*' matches '/' and a leading dot).
func findGlob(pat string, fold bool) func(string) bool { return globMatcher(pat, fold, true) }

// glob is findGlob in the script's locale: under LC_ALL=C each byte of
// a name is a character (GNU find: -name '?' does not match é, '??'
// does, [[:alpha:]] and -iname fold only ASCII letters).
func (fd *finder) glob(pat string, fold bool) func(string) bool {
	if byteLocale(fd.env) {
		return shexpand.FnMatcherBytes(pat, fold, true)
	}
	return findGlob(pat, fold)
}

// globMatcher compiles an fnmatch pattern without FNM_PATHNAME ('*'
// matches '/'); leadingDot lets a wildcard match a leading dot (no
// FNM_PERIOD). A pattern without '*', '?', '[' or '\' matches only
// itself, compared as bytes as fnmatch does, with no regular expression
// to compile (find -name a -o -name b ... compiled one per operand).
func globMatcher(pat string, fold, leadingDot bool) func(string) bool {
	if !fold && !strings.ContainsAny(pat, `*?[\`) {
		return func(s string) bool { return s == pat }
	}
	return shexpand.FnMatcher(pat, fold, leadingDot)
}

// compileRegex compiles a -regex pattern in the -regextype dialect; the
// match must span the whole path.
func (fd *finder) compileRegex(v string, fold bool) (*posixre.Regexp, error) {
	var fl posixre.Flags
	pat := v
	switch fd.regType {
	case "emacs", "findutils-default":
		pat, fl = findEmacsToERE(v), posixre.ERE|posixre.EmptyRanges // RE_SYNTAX_EMACS: [b-a] is empty
	case "posix-extended", "egrep", "posix-egrep", "awk", "posix-awk", "gnu-awk":
		fl = posixre.ERE
	}
	if fold {
		fl |= posixre.IgnoreCase
	}
	re, err := posixre.Compile(pat, fl)
	if err != nil {
		return nil, findErrf("failed to compile regular expression '%s': %s", v, err)
	}
	return re, nil
}

// findEmacsToERE rewrites GNU find's default (emacs) syntax as ERE:
// \( \) \| are the operators and ( ) | { } are literal.
func findEmacsToERE(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\':
			if i+1 >= len(s) {
				b.WriteString(`\\`)
				continue
			}
			i++
			switch s[i] {
			case '(', ')', '|':
				b.WriteByte(s[i])
			case '{', '}':
				b.WriteByte('\\')
				b.WriteByte(s[i])
			default:
				b.WriteByte('\\')
				b.WriteByte(s[i])
			}
		case '(', ')', '|', '{', '}':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '[':
			j := findEmacsBracket(s, i, &b)
			if j < 0 {
				b.WriteString(s[i:])
				return b.String()
			}
			i = j
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// findEmacsBracket copies the bracket expression at s[i] to b and returns
// the index of its ']', or -1 when it is not closed. The emacs syntax
// has no [:class:], [.coll.] or [=equiv=]: the first ']' closes it and a
// '[' in it is literal, so it goes last, where ERE cannot read it as one.
func findEmacsBracket(s string, i int, b *strings.Builder) int {
	j := i + 1
	if j < len(s) && s[j] == '^' {
		j++
	}
	if j < len(s) && s[j] == ']' {
		j++
	}
	k := strings.IndexByte(s[j:], ']')
	if k < 0 {
		return -1
	}
	j += k
	body := s[i+1 : j]
	if strings.Contains(body, "[") {
		body = strings.ReplaceAll(body, "[", "")
		if strings.HasSuffix(body, "-") && len(body) > 1 {
			body = body[:len(body)-1] + "[-"
		} else {
			body += "["
		}
	}
	b.WriteByte('[')
	b.WriteString(body)
	b.WriteByte(']')
	return j
}

func findTypes(v string) (map[byte]bool, error) {
	want := map[byte]bool{}
	if v == "" {
		return nil, findErrf("Arguments to -type should contain at least one letter")
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if strings.IndexByte("bcdpflsD", c) < 0 {
			return nil, findErrf("Unknown argument to -type: %c", c)
		}
		want[c] = true
		if i+1 < len(v) {
			if v[i+1] != ',' {
				return nil, findErrf("Must separate multiple arguments to -type using: ','")
			}
			i++
			if i+1 >= len(v) {
				return nil, findErrf("Last file type in list argument to -type is missing, i.e., list is ending on: ','")
			}
		}
	}
	return want, nil
}

func findTypeChar(t fs.FileMode) byte {
	if c := typeOf(t).letter; c != '-' {
		return c
	}
	return 'f'
}

// parseOwnerTest parses the tests of owners and links. Every file is
// llmsh's one user's (as ls -l and stat show them) and has the links
// that stat's %h shows: 1, or 2 and its subdirectories for a directory.
func (fd *finder) parseOwnerTest(t string) (findExpr, error) {
	switch t {
	case "-nouser", "-nogroup":
		return func(*findEnt) bool { return false }, nil
	case "-links":
		cmp, n, err := fd.numArg(t)
		if err != nil {
			return nil, err
		}
		return func(f *findEnt) bool {
			return findCompare(cmp, int64(fd.links(f)), n)
		}, nil
	}
	own := int64(VirtualUID)
	if t == "-group" || t == "-gid" {
		own = VirtualGID
	}
	if t == "-uid" || t == "-gid" {
		cmp, n, err := fd.numArg(t)
		if err != nil {
			return nil, err
		}
		match := findCompare(cmp, own, n)
		return func(*findEnt) bool { return match }, nil
	}
	v, err := fd.arg(t)
	if err != nil {
		return nil, err
	}
	// -user NAME or -group NAME: a known name, else a number.
	if v == VirtualUser {
		return findTrue, nil
	}
	n, err := fd.ownerNumber(t, v)
	if err != nil {
		return nil, err
	}
	match := n == own
	return func(*findEnt) bool { return match }, nil
}

// ownerNumber is the id of -user or -group's v when it names no one, as
// findutils 4.9 reads it: all digits, an int (safe_atoi: "N: Numerical
// result out of range" past INT_MAX); -group's digits followed by more
// have their own message; an empty v too.
func (fd *finder) ownerNumber(t, v string) (int64, error) {
	digits := len(v) - len(strings.TrimLeft(v, "0123456789"))
	switch {
	case v == "" && t == "-user":
		return 0, findErrf("The argument to -user should not be empty")
	case v == "":
		return 0, findErrf("argument to -group is empty, but should be a group name")
	case digits > 0 && digits < len(v) && t == "-group":
		return 0, findErrf("%s is not the name of an existing group and it does not look like a numeric group ID because it has the unexpected suffix %s",
			fd.env.Quote(v), fd.env.Quote(v[digits:]))
	case digits < len(v) && t == "-user":
		return 0, findErrf("%s is not the name of a known user", fd.env.Quote(v))
	case digits < len(v):
		return 0, findErrf("%s is not the name of an existing group", fd.env.Quote(v))
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, findErrf("%s: Numerical result out of range", v)
	}
	return n, nil
}

// links is f's number of links as stat's %h shows it.
func (fd *finder) links(f *findEnt) int {
	if f.fileType(fd).IsDir() {
		return dirLinkCount(fd.env, f.abs)
	}
	return 1
}

// findSign splits the sign off a numeric argument ("+N": more than N,
// "-N": less than N, "N": exactly N), as every numeric test reads it.
func findSign(v string) (cmp byte, rest string) {
	if v != "" && (v[0] == '+' || v[0] == '-') {
		return v[0], v[1:]
	}
	return 0, v
}

// numArg reads the [+-]N argument of the test t (-mtime, -mmin, -links,
// -uid, -gid).
func (fd *finder) numArg(t string) (cmp byte, n int64, err error) {
	v, err := fd.arg(t)
	if err != nil {
		return 0, 0, err
	}
	cmp, num := findSign(v)
	if num == "" || num[0] < '0' || num[0] > '9' {
		return 0, 0, findErrf("invalid argument `%s' to `%s'", v, t)
	}
	n, perr := strconv.ParseInt(num, 10, 64)
	if perr != nil {
		return 0, 0, findErrf("invalid argument `%s' to `%s'", v, t)
	}
	return cmp, n, nil
}

// findCompare compares got with n as the sign cmp asks.
func findCompare(cmp byte, got, n int64) bool {
	switch cmp {
	case '+':
		return got > n
	case '-':
		return got < n
	}
	return got == n
}

func findSize(v string) (cmp byte, n, unit int64, err error) {
	unit = 512
	cmp, num := findSign(v)
	if k := len(num); k > 0 && (num[k-1] < '0' || num[k-1] > '9') {
		switch num[k-1] {
		case 'b':
			unit = 512
		case 'c':
			unit = 1
		case 'w':
			unit = 2
		case 'k':
			unit = 1024
		case 'M':
			unit = 1 << 20
		case 'G':
			unit = 1 << 30
		default:
			return 0, 0, 0, findErrf("invalid -size type `%c'", num[k-1])
		}
		num = num[:k-1]
	}
	if num == "" {
		return 0, 0, 0, findErrf("invalid -size type `%s'", v[len(v)-1:])
	}
	n, perr := strconv.ParseInt(num, 10, 64)
	if perr != nil || num[0] < '0' || num[0] > '9' {
		return 0, 0, 0, findErrf("invalid argument `%s' to `-size'", v)
	}
	return cmp, n, unit, nil
}

func findPermBits(m fs.FileMode) uint32 {
	b := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		b |= 04000
	}
	if m&fs.ModeSetgid != 0 {
		b |= 02000
	}
	if m&fs.ModeSticky != 0 {
		b |= 01000
	}
	return b
}

func findSymbolicMode(m fs.FileMode) string {
	b := []byte("?rwxrwxrwx")
	t := findTypeChar(m.Type())
	if t == 'f' {
		t = '-'
	}
	b[0] = t
	perm := m.Perm()
	for i := 0; i < 9; i++ {
		if perm&(1<<(8-i)) == 0 {
			b[i+1] = '-'
		}
	}
	special := func(idx int, set bool, lower, upper byte) {
		if !set {
			return
		}
		if b[idx] == 'x' {
			b[idx] = lower
		} else {
			b[idx] = upper
		}
	}
	special(3, m&fs.ModeSetuid != 0, 's', 'S')
	special(6, m&fs.ModeSetgid != 0, 's', 'S')
	special(9, m&fs.ModeSticky != 0, 't', 'T')
	return string(b)
}

// --- -printf ---

// findFmt is one piece of a -printf format: literal text, or a directive
// with its printf-style flags and width.
type findFmt struct {
	lit   string
	dir   byte   // 0 for literal
	sub   byte   // for %T and %t-style: the time field
	spec  string // "%-10" etc., without the verb
	flags string // the flags as written (+, space and # matter to some directives)
	stop  bool   // \c: stop output here
}

func (fd *finder) warnOnce(msg string) {
	if !fd.warned[msg] {
		fd.warned[msg] = true
		fd.errorf("warning: %s", msg)
	}
}

func (fd *finder) parseFormat(s string) ([]findFmt, error) {
	var out []findFmt
	var lit strings.Builder
	flushLit := func() {
		if lit.Len() > 0 {
			out = append(out, findFmt{lit: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\':
			if i+1 >= len(s) {
				lit.WriteByte('\\')
				continue
			}
			i++
			switch e := s[i]; e {
			case 'a':
				lit.WriteByte('\a')
			case 'b':
				lit.WriteByte('\b')
			case 'f':
				lit.WriteByte('\f')
			case 'n':
				lit.WriteByte('\n')
			case 'r':
				lit.WriteByte('\r')
			case 't':
				lit.WriteByte('\t')
			case 'v':
				lit.WriteByte('\v')
			case '\\':
				lit.WriteByte('\\')
			case 'c':
				flushLit()
				out = append(out, findFmt{stop: true})
			default:
				if e >= '0' && e <= '7' {
					v := 0
					j := i
					for ; j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7'; j++ {
						v = v*8 + int(s[j]-'0')
					}
					lit.WriteByte(byte(v))
					i = j - 1
					continue
				}
				fd.warnOnce(fmt.Sprintf("unrecognized escape `\\%c'", e))
				lit.WriteByte('\\')
				lit.WriteByte(e)
			}
		case '%':
			if i+1 >= len(s) {
				return nil, findErrf("error: %% at end of format string")
			}
			j, spec, err := findSpec(s, i)
			if err != nil {
				return nil, err
			}
			d := s[j]
			switch d {
			case '%':
				lit.WriteByte('%')
			case 'p', 'f', 'h', 'P', 'H', 's', 'd', 'm', 'M', 't', 'y', 'Y', 'l', 'b', 'k', 'n', 'u', 'g', 'U', 'G', 'a', 'c', 'i', 'D', 'Z', 'S', 'F':
				flushLit()
				flags := s[i+1 : j]
				if k := strings.IndexAny(flags, "123456789."); k >= 0 {
					flags = flags[:k]
				}
				out = append(out, findFmt{dir: d, spec: spec, flags: flags})
			case 'T', 'A', 'C':
				if j+1 >= len(s) {
					fd.warnOnce(fmt.Sprintf("format directive `%%%c' should be followed by another character", d))
					lit.WriteString(s[i:])
					i = j
					continue
				}
				j++
				flushLit()
				out = append(out, findFmt{dir: d, sub: s[j], spec: spec})
			default:
				fd.warnOnce(fmt.Sprintf("unrecognized format directive `%%%c'", d))
				lit.WriteString(s[i : j+1])
			}
			i = j
		default:
			lit.WriteByte(c)
		}
	}
	flushLit()
	return out, nil
}

// findSpec reads the flags, width and precision of the -printf directive
// at s[i] ('%'); it returns the index of the conversion character and
// the printf spec that applies to the text.
func findSpec(s string, i int) (int, string, error) {
	j := i + 1
	for j < len(s) && strings.IndexByte("-+ #0", s[j]) >= 0 {
		j++
	}
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j < len(s) && s[j] == '.' {
		j++
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
	}
	if j >= len(s) {
		return 0, "", findErrf("error: %% at end of format string")
	}
	// Only '-', the width and the precision apply to the text GNU
	// prints (it ignores 0, +, space and #).
	spec := "%" + strings.Map(func(r rune) rune {
		if strings.ContainsRune("+ #", r) {
			return -1
		}
		return r
	}, s[i+1:j])
	if k := strings.IndexFunc(spec[1:], func(r rune) bool { return r != '-' && r != '0' }); k >= 0 {
		spec = "%" + strings.ReplaceAll(spec[1:k+1], "0", "") + spec[k+1:]
	} else {
		spec = strings.ReplaceAll(spec, "0", "")
	}
	return j, spec, nil
}

func (fd *finder) printf(w *bufio.Writer, format []findFmt, f *findEnt) {
	var b strings.Builder
	for _, p := range format {
		if p.stop {
			break // \c: the rest of this format is not printed
		}
		if p.dir == 0 {
			b.WriteString(p.lit)
			continue
		}
		var v string
		switch p.dir {
		case 'p':
			v = f.path
		case 'f':
			v, _ = findPrintfBase(f.path)
		case 'h':
			_, v = findPrintfBase(f.path)
		case 'P':
			v = strings.TrimPrefix(strings.TrimPrefix(f.path, f.start), "/")
			if f.path == f.start {
				v = ""
			}
		case 'H':
			v = f.start
		case 'd':
			v = strconv.Itoa(f.depth)
			if strings.Contains(p.flags, "+") {
				v = "+" + v
			} else if strings.Contains(p.flags, " ") {
				v = " " + v
			}
		case 'y':
			v = string(findTypeChar(f.fileType(fd)))
		case 'Y':
			typ := f.fileType(fd)
			if typ&fs.ModeSymlink != 0 {
				if info, err := fd.env.FS.Stat(f.abs); err == nil {
					typ = info.Mode().Type()
				} else {
					v = "N"
				}
			}
			if v == "" {
				v = string(findTypeChar(typ))
			}
		case 'u', 'g':
			v = VirtualUser
		case 'U':
			v = strconv.Itoa(VirtualUID)
		case 'G':
			v = strconv.Itoa(VirtualGID)
		case 'i', 'D', 'F':
			v = "?" // inode, device and file system type are not shown, as stat's %i and %d
		case 'Z':
			// The SELinux context: findutils 4.9 without SELinux
			// fails to read it, prints nothing (padded), and exits 1;
			// its error() flushes what the line has so far first.
			b.WriteString(printfField(strings.TrimPrefix(p.spec, "%"), 's', ""))
			fd.printTo(w, b.String())
			b.Reset()
			fd.errorf("getfilecon failed: %s: No data available", fd.env.Quote(f.path))
			fd.status = 1
			continue
		case 'n':
			v = strconv.Itoa(fd.links(f))
		case 'l':
			// The link's text; empty for anything else (under -L, a
			// link that can be followed is its target).
			if f.fileType(fd)&fs.ModeSymlink != 0 {
				if t, err := fd.env.FS.Readlink(f.abs); err == nil {
					v = t
				} else {
					fd.fileErr(f.path, err)
				}
			}
		default:
			info, err := f.stat(fd)
			if err != nil {
				fd.fileErr(f.path, err)
				continue
			}
			switch p.dir {
			case 's':
				v = strconv.FormatInt(info.Size(), 10)
			case 'b': // 512-byte blocks, estimated as stat's %b
				v = strconv.FormatInt(statBlocks(info), 10)
			case 'k':
				v = strconv.FormatInt((statBlocks(info)+1)/2, 10)
			case 'S':
				v = findSparseness(info)
			case 'm':
				v = strconv.FormatUint(uint64(findPermBits(info.Mode())), 8)
				if strings.Contains(p.flags, "#") {
					v = "0" + v
				}
			case 'M':
				v = findSymbolicMode(info.Mode())
			// vfsd keeps no status change time: %c and %C are the
			// modification time, as for a file the script made; %a and
			// %A a real file's access time (stat's %x).
			case 't', 'c':
				v = findCtime(info.ModTime().In(fd.loc))
			case 'a':
				v = findCtime(fd.accessTime(f, info).In(fd.loc))
			case 'T', 'C':
				v = findTimeField(info.ModTime().In(fd.loc), p.sub)
			case 'A':
				v = findTimeField(fd.accessTime(f, info).In(fd.loc), p.sub)
			}
		}
		b.WriteString(printfField(strings.TrimPrefix(p.spec, "%"), 's', v))
	}
	fd.printTo(w, b.String())
}

// findSparseness is -printf's %S: 512 × blocks / size as C's %g, 1 for an
// empty file of no blocks.
func findSparseness(info fs.FileInfo) string {
	switch {
	case info.Size() > 0:
		return strconv.FormatFloat(512*float64(statBlocks(info))/float64(info.Size()), 'g', 6, 64)
	case statBlocks(info) > 0:
		return "inf"
	}
	return "1"
}

// accessTime is f's access time: vfsd's stat carries a real file's, its
// listings none (info may come from one); a virtual file's is its
// modification time.
func (fd *finder) accessTime(f *findEnt, info fs.FileInfo) time.Time {
	if a, ok := info.(interface{ AccessTime() (time.Time, bool) }); ok {
		if t, ok := a.AccessTime(); ok {
			return t
		}
	}
	stat := fd.env.FS.Stat
	if info.Mode()&fs.ModeSymlink != 0 {
		stat = fd.env.FS.Lstat
	}
	if fi, err := stat(f.abs); err == nil {
		return statAtime(fi)
	}
	return info.ModTime()
}

// findPrintfBase splits p as GNU find's %f and %h do: %f is the last
// component with one of its trailing slashes ("s/a//": "a/"), %h what
// comes before it less one slash ("s//a": "s/", "/tmp": ""); a lone
// component with trailing slashes has "." as %h, unless it is one
// character long: then itself less one slash ("s//": "s/").
func findPrintfBase(p string) (base, dir string) {
	trimmed := strings.TrimRight(p, "/")
	if trimmed == "" { // "/": "" and "/"; "//": "/" and "/"
		return p[:min(len(p), 1)], p[:max(len(p)-1, 0)]
	}
	i := strings.LastIndexByte(trimmed, '/') + 1
	base = trimmed[i:]
	if len(trimmed) < len(p) {
		base += "/"
	}
	switch {
	case i > 0:
		dir = p[:i-1] // "/tmp": ""
	case len(trimmed) < len(p) && len(trimmed) == 1:
		dir = p[:len(p)-1] // GNU find 4.9: "s/" "s", "rx/" "."
	default:
		dir = "."
	}
	return base, dir
}

func findDirname(p string) string {
	trimmed := strings.TrimRight(p, "/")
	i := strings.LastIndexByte(trimmed, '/')
	switch {
	case i < 0:
		return "."
	case i == 0:
		return "/"
	}
	return trimmed[:i]
}

func findCtime(t time.Time) string {
	return fmt.Sprintf("%s %2d %02d:%02d:%02d.%09d0 %d", t.Format("Mon Jan"), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), t.Year())
}

func findTimeField(t time.Time, k byte) string {
	switch k {
	case '@':
		return fmt.Sprintf("%d.%09d0", t.Unix(), t.Nanosecond())
	case 'Y':
		return strconv.Itoa(t.Year())
	case 'y':
		return fmt.Sprintf("%02d", t.Year()%100)
	case 'm':
		return fmt.Sprintf("%02d", int(t.Month()))
	case 'd':
		return fmt.Sprintf("%02d", t.Day())
	case 'e':
		return fmt.Sprintf("%2d", t.Day())
	case 'H':
		return fmt.Sprintf("%02d", t.Hour())
	case 'k':
		return fmt.Sprintf("%2d", t.Hour())
	case 'I':
		return fmt.Sprintf("%02d", (t.Hour()+11)%12+1)
	case 'l':
		return fmt.Sprintf("%2d", (t.Hour()+11)%12+1)
	case 'M':
		return fmt.Sprintf("%02d", t.Minute())
	case 'S':
		return fmt.Sprintf("%02d.%09d0", t.Second(), t.Nanosecond())
	case 'p':
		if t.Hour() < 12 {
			return "AM"
		}
		return "PM"
	case 'r':
		return t.Format("03:04:05 PM")
	case 'T':
		return fmt.Sprintf("%02d:%02d:%02d.%09d0", t.Hour(), t.Minute(), t.Second(), t.Nanosecond())
	case 'X':
		return fmt.Sprintf("%02d:%02d:%02d.%09d0", t.Hour(), t.Minute(), t.Second(), t.Nanosecond())
	case '+':
		return fmt.Sprintf("%04d-%02d-%02d+%02d:%02d:%02d.%09d0", t.Year(), int(t.Month()), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond())
	case 'Z':
		return t.Format("MST")
	case 'z':
		return t.Format("-0700")
	case 'a':
		return t.Format("Mon")
	case 'A':
		return t.Format("Monday")
	case 'b', 'h':
		return t.Format("Jan")
	case 'B':
		return t.Format("January")
	case 'c':
		return t.Format("Mon Jan _2 15:04:05 2006")
	case 'D', 'x':
		return t.Format("01/02/06")
	case 'F':
		return t.Format("2006-01-02")
	case 'j':
		return fmt.Sprintf("%03d", t.YearDay())
	case 'u':
		wd := int(t.Weekday())
		if wd == 0 {
			wd = 7
		}
		return strconv.Itoa(wd)
	case 'w':
		return strconv.Itoa(int(t.Weekday()))
	case 's':
		return strconv.FormatInt(t.Unix(), 10)
	case 'C':
		return fmt.Sprintf("%02d", t.Year()/100)
	case 'g', 'G':
		y, _ := t.ISOWeek()
		if k == 'g' {
			return fmt.Sprintf("%02d", y%100)
		}
		return strconv.Itoa(y)
	case 'V':
		_, w := t.ISOWeek()
		return fmt.Sprintf("%02d", w)
	case 'U':
		return fmt.Sprintf("%02d", (t.YearDay()+6-int(t.Weekday()))/7)
	case 'W':
		return fmt.Sprintf("%02d", (t.YearDay()+6-(int(t.Weekday())+6)%7)/7)
	case 'R':
		return fmt.Sprintf("%02d:%02d", t.Hour(), t.Minute())
	case 'n':
		return "\n"
	case 't':
		return "\t"
	}
	return "%" + string(k)
}

// --- -exec / -execdir ---

const findExecSize = 131072

func (fd *finder) parseExec(name string) (findExpr, error) {
	start := fd.pos
	var cmd []string
	plus := false
	for {
		if fd.pos >= len(fd.toks) {
			return nil, findErrf("missing argument to `%s'", name)
		}
		t := fd.next()
		if t == ";" {
			break
		}
		if t == "+" && len(cmd) > 0 && cmd[len(cmd)-1] == "{}" && (name == "-exec" || name == "-execdir") {
			plus = true
			break
		}
		cmd = append(cmd, t)
	}
	if len(cmd) == 0 {
		return nil, findErrf("invalid argument `%s' to `%s'", fd.toks[start], name)
	}
	dirMode := name == "-execdir" || name == "-okdir"
	ask := name == "-ok" || name == "-okdir"
	if plus {
		for _, a := range cmd[:len(cmd)-1] {
			if strings.Contains(a, "{}") {
				return nil, findErrf("Only one instance of {} is supported with %s ... +", name)
			}
		}
		b := &findBatch{cmd: cmd}
		fd.batches = append(fd.batches, b)
		return func(f *findEnt) bool {
			arg, dir := f.path, ""
			if dirMode {
				arg, dir = "./"+findBase(f.path), fd.dirOf(f)
				if len(b.files) > 0 && b.dir != dir {
					fd.runBatch(b)
				}
				b.dir = dir
			}
			if len(b.files) > 0 && b.size+len(arg)+1 > findExecSize {
				fd.runBatch(b)
			}
			b.files = append(b.files, arg)
			b.size += len(arg) + 1
			return true
		}, nil
	}
	return func(f *findEnt) bool {
		arg, dir := f.path, ""
		if dirMode {
			arg, dir = "./"+findBase(f.path), fd.dirOf(f)
		}
		args := make([]string, len(cmd))
		for i, a := range cmd {
			args[i] = strings.ReplaceAll(a, "{}", arg)
		}
		if ask {
			if !fd.confirm(cmd[0], f.path) {
				return false
			}
			return fd.runIn(args, dir, ClosedStdin{}) == 0
		}
		return fd.run(args, dir) == 0
	}, nil
}

// confirm asks, as -ok and -okdir do, whether to run cmd on the file
// named name (as find prints it, for -okdir too): the
// question "< CMD ... NAME > ? " goes to standard error and a line of
// standard input that starts with y or Y is a yes (end of input a no).
func (fd *finder) confirm(cmd, name string) bool {
	if err := fd.out.Flush(); err != nil && IsBrokenPipe(err) {
		fd.quit = true
		return false
	}
	fmt.Fprintf(fd.env.Stderr, "< %s ... %s > ? ", cmd, name)
	if fd.answers == nil {
		fd.answers = bufio.NewReader(fd.env.Stdin)
	}
	line, err := fd.answers.ReadString('\n')
	if err != nil && line == "" {
		return false
	}
	return line[0] == 'y' || line[0] == 'Y'
}

// dirOf is the absolute directory where -execdir runs for f: the
// directory part of its name as printed ("." for a starting point without
// a slash, "." itself included).
func (fd *finder) dirOf(f *findEnt) string {
	return fd.env.Abs(findDirname(f.path))
}

// run runs a command through env.Exec; dir, if set, is the directory to
// run it in (-execdir), reached through the shell's 'sh -c' and cd.
func (fd *finder) run(args []string, dir string) int {
	return fd.runIn(args, dir, fd.env.Stdin)
}

// runIn is run with the command's standard input.
func (fd *finder) runIn(args []string, dir string, stdin io.Reader) int {
	if err := fd.out.Flush(); err != nil && IsBrokenPipe(err) {
		fd.quit = true
		return 1
	}
	if fd.env.Exec == nil {
		fd.errorf("cannot run commands here")
		fd.status = 1
		return 126
	}
	ctx, killed := WithKillReport(fd.ctx)
	if dir != "" {
		ctx = WithExecDir(ctx, dir)
	}
	st := fd.env.Exec(ctx, args, stdin, fd.env.Stdout, fd.env.Stderr)
	if sig := killed.Sig(); sig != 0 && st == 128+sig {
		// GNU find says so; the command is false (a batch's makes
		// find's status 1).
		fd.errorf("%s terminated by signal %d", fd.env.Quote(args[0]), sig)
	}
	return st
}

func (fd *finder) runBatch(b *findBatch) {
	if len(b.files) == 0 {
		return
	}
	args := append(append([]string(nil), b.cmd[:len(b.cmd)-1]...), b.files...)
	b.files, b.size = nil, 0
	if fd.run(args, b.dir) != 0 {
		fd.status = 1
	}
}

func (fd *finder) runBatches() {
	for _, b := range fd.batches {
		if fd.ctx.Err() != nil {
			return
		}
		fd.runBatch(b)
	}
}

// permTest is -perm MODE: exactly MODE, -MODE all of its bits, /MODE
// any of them.
func (fd *finder) permTest(v string) (findExpr, error) {
	kind := byte(0)
	mode := v
	if v != "" && (v[0] == '-' || v[0] == '/') {
		kind, mode = v[0], v[1:]
	}
	// GNU find compiles MODE as chmod does (octal or symbolic, "u+x",
	// "g=w,o-r") and applies it to 0 with a zero umask; X and the
	// kept set-id bits make the result differ for directories.
	changes, ok := compileMode(mode)
	if !ok {
		return nil, findErrf("invalid mode %s", fd.env.Quote(v))
	}
	wantFile := uint64(adjustMode(changes, 0, false, 0))
	wantDir := uint64(adjustMode(changes, 0, true, 0))
	return func(f *findEnt) bool {
		info, err := f.stat(fd)
		if err != nil {
			return false
		}
		want := wantFile
		if info.IsDir() {
			want = wantDir
		}
		got := uint64(findPermBits(info.Mode()))
		switch kind {
		case '-':
			return got&want == want
		case '/':
			return want == 0 || got&want != 0
		}
		return got == want
	}, nil
}
