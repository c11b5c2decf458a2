package builtins

import (
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"
)

var _ = register(Builtin{Name: "unzip", Summary: "list, test and extract compressed files in a ZIP archive", Run: unzipCmd})

// unzipCmd is Info-ZIP unzip 6.0's common use through archive/zip:
// extraction (-d, -o, -n, -j, -q), listing (-l), piping (-p) and testing
// (-t), with its output lines and exit statuses (9 no archive, 11 no
// member matched).
func unzipCmd(env *Env) int {
	if len(env.Args) > 1 && strings.HasPrefix(env.Args[1], "-Z") {
		// unzip -Z is zipinfo; what follows the Z is its first options.
		sub := *env
		sub.Args = append([]string{"zipinfo"}, env.Args[2:]...)
		if rest := env.Args[1][2:]; rest != "" {
			sub.Args = append([]string{"zipinfo", "-" + rest}, env.Args[2:]...)
		}
		return zipinfo(&sub)
	}
	c := &unzipConfig{excludes: []string{}}
	f := NewFlags(env, "Extract, list or test the members of a ZIP archive (Info-ZIP unzip 6.0's\n"+
		"common options). Members may be named (shell patterns) after the archive.", "[-lpt] [-o|-n] [-jq] file[.zip] [file(s) ...] [-d exdir]")
	f.BoolVar(&c.list, 'l', "", "list files (short format)")
	f.BoolVar(&c.pipe, 'p', "", "extract files to pipe, no messages")
	f.BoolVar(&c.test, 't', "", "test compressed archive data")
	f.BoolVar(&c.overwrite, 'o', "", "overwrite files WITHOUT prompting")
	f.BoolVar(&c.never, 'n', "", "never overwrite existing files")
	f.BoolVar(&c.junk, 'j', "", "junk paths (do not make directories)")
	f.CountVar(&c.quiet, 'q', "", "quiet mode (-qq => quieter)")
	f.StringVar(&c.exdir, 'd', "", "exdir", "extract files into exdir")
	f.Func('x', "", RequiredArg, "file", "exclude files that follow (in xlist)", func(v string, _ bool) error { c.excludes = append(c.excludes, v); return nil })
	version := versionOption(f)
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 10)
	}
	if *version {
		return printVersion(env)
	}
	if len(args) == 0 {
		f.PrintHelp(env.Stdout)
		return 0
	}
	return c.run(env, args[0], args[1:])
}

// unzipConfig is what unzip's options select.
type unzipConfig struct {
	list, pipe, test bool
	overwrite, never bool
	junk             bool
	quiet            int
	exdir            string
	excludes         []string // -x
	members          []string // the operands after the archive
	matched          []bool   // which members matched a member
	globs            map[string]func(string) bool
}

// selected tells whether the member named n is to be handled.
func (c *unzipConfig) selected(n string) bool {
	for _, x := range c.excludes {
		if c.match(x, n) {
			return false
		}
	}
	if len(c.members) == 0 {
		return true
	}
	for i, m := range c.members {
		if c.match(m, n) || m == n {
			c.matched[i] = true
			return true
		}
	}
	return false
}

// match matches a member name as unzip does: its wildcards match across
// "/" too (dir/* is everything under dir/), "[!…]" and "[^…]" negate a
// class.
func (c *unzipConfig) match(pattern, name string) bool {
	m, ok := c.globs[pattern]
	if !ok {
		if c.globs == nil {
			c.globs = map[string]func(string) bool{}
		}
		m = findGlob(pattern, false)
		c.globs[pattern] = m
	}
	return m(name)
}

// run lists, tests or extracts the members of the archive name.
func (c *unzipConfig) run(env *Env, name string, members []string) int {
	c.members, c.matched = members, make([]bool, len(members))
	w := stdoutWriter(env)
	defer w.Flush()
	zr, shown, _, status := unzipOpen(env, w, name, !c.pipe && c.quiet == 0, "unzip")
	if zr == nil {
		return status
	}
	st := 0
	switch {
	case c.list:
		c.listMembers(w, zr)
	case c.pipe, c.test:
		st = c.pipeTest(env, w, zr, shown)
	default:
		base := env.Dir
		if c.exdir != "" {
			base = env.Abs(c.exdir)
			if err := mkdirAll(env, base, 0o755); err != nil {
				w.Flush()
				fmt.Fprintf(env.Stderr, "checkdir:  cannot create extraction directory: %s\n           %s\n", c.exdir, ErrText(err))
				return 3
			}
		}
		x := unzipExtractor{env: env, w: w, base: base, exdir: c.exdir, overwrite: c.overwrite, never: c.never, junk: c.junk, quiet: c.quiet > 0}
		for _, zf := range zr.File {
			if env.Ctx.Err() != nil {
				return 1
			}
			if c.selected(zf.Name) {
				st = max(st, x.warnUnsafe(zf.Name), x.extract(zf))
			}
		}
	}
	for i, m := range members {
		if !c.matched[i] {
			w.Flush()
			fmt.Fprintf(env.Stderr, "caution: filename not matched:  %s\n", m)
			st = 11
		}
	}
	return finishOutput(env, w, st)
}

// listMembers is -l.
func (c *unzipConfig) listMembers(w *bufio.Writer, zr *zip.Reader) {
	w.WriteString("  Length      Date    Time    Name\n---------  ---------- -----   ----\n")
	var total uint64
	n := 0
	for _, zf := range zr.File {
		if !c.selected(zf.Name) {
			continue
		}
		fmt.Fprintf(w, "%9d  %s   %s\n", zf.UncompressedSize64, zf.Modified.Format("2006-01-02 15:04"), zf.Name)
		total += zf.UncompressedSize64
		n++
	}
	plural := "s"
	if n == 1 {
		plural = ""
	}
	fmt.Fprintf(w, "---------                     -------\n%9d                     %d file%s\n", total, n, plural)
}

// pipeTest is -p and -t: the members to w, or checked.
func (c *unzipConfig) pipeTest(env *Env, w *bufio.Writer, zr *zip.Reader, shown string) int {
	st, bad, tested := 0, 0, 0
	for _, zf := range zr.File {
		if !c.selected(zf.Name) {
			continue
		}
		tested++
		if strings.HasSuffix(zf.Name, "/") {
			// a directory entry: unzip -t names it too, -p writes nothing
			if c.test && c.quiet == 0 {
				fmt.Fprintf(w, "    testing: %-22s   OK\n", zf.Name)
			}
			continue
		}
		out := io.Writer(w)
		if c.test {
			out = io.Discard
		}
		err := unzipCopy(env, out, zf)
		switch {
		case err != nil && c.test:
			fmt.Fprintf(w, "    testing: %-22s  bad CRC or data\n", zf.Name)
			bad++
		case err != nil:
			w.Flush()
			env.Errorf("%s: %s", zf.Name, err)
			st = 1
		case c.test && c.quiet == 0:
			fmt.Fprintf(w, "    testing: %-22s   OK\n", zf.Name)
		}
	}
	if c.test && bad > 0 {
		st = 2
	}
	if c.test {
		// the members not found are named on stdout before the verdict
		// (run would name them on stderr after it)
		for i, m := range c.members {
			if !c.matched[i] {
				fmt.Fprintf(w, "caution: filename not matched:  %s\n", m)
				c.matched[i] = true
				bad, st = bad+1, 11
			}
		}
	}
	if c.test && c.quiet < 2 {
		switch {
		case bad == 0 && len(c.members)+len(c.excludes) == 0:
			fmt.Fprintf(w, "No errors detected in compressed data of %s.\n", shown)
		case bad == 0:
			plural := "s"
			if tested == 1 {
				plural = ""
			}
			fmt.Fprintf(w, "No errors detected in %s for the %d file%s tested.\n", shown, tested, plural)
		default:
			fmt.Fprintf(w, "At least one error was detected in %s.\n", shown)
		}
	}
	return st
}

// unzipOpen reads the archive name (or name.zip) whole and opens it; it
// prints "Archive:  NAME" unless pipe mode is quiet. On failure it
// reports unzip's message and returns status 9.
func unzipOpen(env *Env, w *bufio.Writer, name string, header bool, prog string) (*zip.Reader, string, int, int) {
	shown := name
	r, err := env.Open(name)
	if st, serr := env.FS.Stat(env.Abs(name)); serr == nil && st.IsDir() {
		// A directory is no archive: name.zip is tried, as Info-ZIP does.
		if err == nil {
			r.Close()
		}
		err = fs.ErrNotExist
	}
	if err != nil && errors.Is(err, fs.ErrNotExist) && !strings.HasSuffix(name, ".zip") {
		if r2, err2 := env.Open(name + ".zip"); err2 == nil {
			r, err, shown = r2, nil, name+".zip"
		}
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "%s:  cannot find or open %s, %s.zip or %s.ZIP.\n", prog, name, name, name)
		return nil, "", 0, 9
	}
	data, err := readAllCtx(env, r)
	r.Close()
	if err != nil && quietStop(err) {
		return nil, "", 0, 1
	}
	if err != nil {
		env.Errorf("%s: %s", name, ErrText(err))
		return nil, "", 0, 9
	}
	if header {
		fmt.Fprintf(w, "Archive:  %s\n", shown)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		w.Flush()
		fmt.Fprintf(env.Stderr, "  End-of-central-directory signature not found.  Either this file is not\n"+
			"  a zipfile, or it constitutes one disk of a multi-part archive.  In the\n"+
			"  latter case the central directory and zipfile comment will be found on\n"+
			"  the last disk(s) of this archive.\n"+
			"%s:  cannot find zipfile directory in one of %s or\n"+
			"        %s.zip, and cannot find %s.ZIP, period.\n", prog, name, name, name)
		return nil, "", 0, 9
	}
	return zr, shown, len(data), 0
}

func unzipCopy(env *Env, w io.Writer, zf *zip.File) error {
	rc, err := zf.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return copyOut(env, w, rc, make([]byte, ioBufSize))
}

// unzipExtractor writes members below base.
type unzipExtractor struct {
	env                           *Env
	w                             *bufio.Writer
	base, exdir                   string
	overwrite, never, junk, quiet bool
	all, none, eof                bool // answers "A" and "N" to the prompt, or none
	stdin                         *bufio.Reader
}

// warnUnsafe says, as Info-ZIP unzip 6.0 does before extracting name,
// that its leading "/" is stripped (on stderr, even with -q: status 1)
// and that its ".." components are skipped (on standard output, not with
// -q; status 0).
func (x *unzipExtractor) warnUnsafe(name string) int {
	st := 0
	if strings.HasPrefix(name, "/") {
		x.w.Flush()
		fmt.Fprintf(x.env.Stderr, "warning:  stripped absolute path spec from %s\n", name)
		st = 1
	}
	if !x.quiet && slices.Contains(strings.Split(name, "/"), "..") {
		fmt.Fprintf(x.w, "warning:  skipped \"../\" path component(s) in %s\n", name)
	}
	return st
}

// safeName is the member's path with leading slashes and ".." components
// removed, as unzip does (with a warning) for names that would leave the
// extraction directory.
func unzipSafeName(name string) string {
	var parts []string
	for _, p := range strings.Split(name, "/") {
		if p != "" && p != "." && p != ".." {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "/")
}

func (x *unzipExtractor) extract(zf *zip.File) int {
	env := x.env
	rel := unzipSafeName(zf.Name)
	if x.junk {
		rel = path.Base(rel)
	}
	if rel == "" || rel == "." {
		return 0
	}
	shown := rel
	if x.exdir != "" {
		shown = path.Join(x.exdir, rel)
	}
	dst := path.Join(x.base, rel)
	if strings.HasSuffix(zf.Name, "/") {
		if x.junk {
			return 0
		}
		if fi, err := env.FS.Stat(dst); err == nil && fi.IsDir() {
			return 0
		}
		if !x.quiet {
			fmt.Fprintf(x.w, "   creating: %s/\n", shown)
		}
		if err := mkdirAll(env, dst, 0o755); err != nil {
			x.w.Flush()
			env.Errorf("%s: %s", shown, ErrText(err))
			return 1
		}
		return 0
	}
	if _, err := env.FS.Lstat(dst); err == nil && !x.overwrite && !x.all {
		if x.never {
			return 0
		}
		if x.none || !x.ask(shown) {
			if x.eof {
				return 1 // unzip 6.0 ends with status 1 after EOF at its prompt
			}
			return 0
		}
	}
	if err := mkdirAll(env, path.Dir(dst), 0o755); err != nil {
		x.w.Flush()
		fmt.Fprintf(env.Stderr, "checkdir error:  cannot create %s\n                 %s\n", path.Dir(shown), ErrText(err))
		return 1
	}
	action := "inflating"
	if zf.Method == zip.Store {
		action = "extracting"
	}
	if !x.quiet {
		fmt.Fprintf(x.w, "%11s: %-22s  \n", action, shown)
	}
	out, err := env.Create(dst)
	if err == nil {
		err = unzipCopy(env, out, zf)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		x.w.Flush()
		env.Errorf("%s: %s", shown, ErrText(err))
		return 1
	}
	if perm := zf.Mode().Perm(); perm != 0 && zf.CreatorVersion>>8 == 3 {
		env.FS.Chmod(dst, perm&^0o022|perm&0o700)
	}
	if !zf.Modified.IsZero() {
		env.FS.Chtimes(dst, time.Time{}, zf.Modified)
	}
	return 0
}

// ask is unzip's prompt for a file that exists; it reads the answer from
// standard input, and takes end of input as "[N]one", as unzip does.
func (x *unzipExtractor) ask(shown string) bool {
	x.w.Flush()
	fmt.Fprintf(x.env.Stderr, "replace %s? [y]es, [n]o, [A]ll, [N]one, [r]ename: ", shown)
	if x.stdin == nil {
		x.stdin = bufio.NewReader(x.env.Stdin)
	}
	line, err := x.stdin.ReadString('\n')
	if err != nil && line == "" {
		fmt.Fprintf(x.env.Stderr, " NULL\n(EOF or read error, treating as \"[N]one\" ...)\n")
		x.none, x.eof = true, true
		return false
	}
	switch strings.TrimSpace(line) {
	case "y", "Y":
		return true
	case "A":
		x.all = true
		return true
	case "N":
		x.none = true
	}
	return false
}
