package builtins

import (
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
)

var _ = register(Builtin{Name: "tree", Summary: "list contents of directories in a tree-like format", Run: treeCmd})

// treeState is one call of tree (2.1's default listing).
type treeState struct {
	env                      *Env
	all, dirsOnly, fullPath  bool
	noIndent, classify       bool // -i, -F
	dirsFirst, reverse       bool // --dirsfirst, -r
	size, human, quote       bool // -s, -h, -Q
	level                    int  // 0: no limit
	ignore, only             []func(string) bool
	dirs, files              int
	branch, last, pipe, none string
	out                      *strings.Builder
}

func treeCmd(env *Env) int {
	s := &treeState{env: env, out: &strings.Builder{}}
	f := NewFlags(env, "List the contents of each directory (default .) as a tree, as tree 2.1 does.", "[-adfiFrshQx] [-L level] [-P pattern] [-I pattern] [--dirsfirst] [--noreport] [--] [directory ...]")
	f.BoolVar(&s.all, 'a', "", "All files are listed.")
	f.BoolVar(&s.dirsOnly, 'd', "", "List directories only.")
	f.BoolVar(&s.fullPath, 'f', "", "Print the full path prefix for each file.")
	f.Bool('x', "", "Stay on current filesystem only.")
	f.BoolVar(&s.noIndent, 'i', "", "Don't print indentation lines.")
	f.BoolVar(&s.classify, 'F', "", "Appends '/', '=', '*', '@', '|' or '>' as per ls -F.")
	f.BoolVar(&s.quote, 'Q', "", "Quote filenames with double quotes.")
	f.BoolVar(&s.size, 's', "", "Print the size in bytes of each file.")
	f.BoolVar(&s.human, 'h', "", "Print the size in a more human readable way.")
	f.BoolVar(&s.reverse, 'r', "", "Reverse the order of the sort.")
	f.BoolVar(&s.dirsFirst, 0, "dirsfirst", "List directories before files.")
	levelErr := ""
	f.Func('L', "", RequiredArg, "level", "Descend only level directories deep.", func(v string, _ bool) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			levelErr = "Invalid level, must be greater than 0."
		}
		s.level = n
		return nil
	})
	patterns := func(list *[]func(string) bool) func(string, bool) error {
		return func(v string, _ bool) error {
			for _, p := range strings.Split(v, "|") {
				*list = append(*list, findGlob(p, false))
			}
			return nil
		}
	}
	f.Func('P', "", RequiredArg, "pattern", "List only those files that match the pattern given.", patterns(&s.only))
	f.Func('I', "", RequiredArg, "pattern", "Do not list files that match the given pattern.", patterns(&s.ignore))
	noReport := f.Bool(0, "noreport", "Turn off file/directory count at end of tree listing.")
	version := f.Bool(0, "version", "Print version and exit.")
	roots, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	if levelErr != "" {
		env.Errorf("%s", levelErr)
		return 1
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	// tree draws with box characters in a UTF-8 locale (llmsh's
	// default; its vertical line is padded with two no-break spaces),
	// with ASCII otherwise.
	s.branch, s.last, s.pipe, s.none = "├── ", "└── ", "│\u00a0\u00a0 ", "    "
	if !treeUTF8(env.Environ) {
		s.branch, s.last, s.pipe = "|-- ", "`-- ", "|   "
	}
	status := 0
	w := stdoutWriter(env)
	for i, root := range roots {
		fi, err := env.FS.Stat(env.Abs(root))
		switch {
		case err != nil:
			w.WriteString(root + "  [error opening dir]\n")
			status = 2
			continue
		case !fi.IsDir():
			w.WriteString(s.sizeField(fi) + root + "  [error opening dir]\n")
			s.files++
			continue
		}
		// tree joins names to the root with "/", a trailing one cut
		// (-f shows the root so too)
		if trimmed := strings.TrimRight(root, "/"); trimmed != "" {
			root = trimmed
		} else {
			root = "/"
		}
		if !s.fullPath {
			root = roots[i]
		}
		w.WriteString(s.sizeField(fi) + s.name(root) + s.indicator(fi) + "\n")
		s.out.Reset()
		if n := s.list(strings.TrimRight(root, "/"), "", 1); n > 0 {
			s.dirs++
		}
		w.WriteString(s.out.String())
		if env.Ctx.Err() != nil {
			w.Flush()
			return 1
		}
	}
	if !*noReport {
		plural := func(n int, one, many string) string {
			if n == 1 {
				return "1 " + one
			}
			return strconv.Itoa(n) + " " + many
		}
		if s.dirsOnly {
			fmt.Fprintf(w, "\n%s\n", plural(s.dirs, "directory", "directories"))
		} else {
			fmt.Fprintf(w, "\n%s, %s\n", plural(s.dirs, "directory", "directories"), plural(s.files, "file", "files"))
		}
	}
	return finishOutput(env, w, status)
}

// treeEntry is one listed name of a directory.
type treeEntry struct {
	name, link string
	dir        bool
	info       fs.FileInfo // lstat's (-s, -h, -F); nil when it failed
	target     fs.FileInfo // a symbolic link's target (-F); nil when dangling
}

// name is a file name as shown: in double quotes with -Q.
func (s *treeState) name(n string) string {
	if s.quote {
		return strconv.Quote(n)
	}
	return n
}

// indicator is -F's mark for a file: / for a directory, * for an
// executable, = a socket, | a FIFO; nothing without -F.
func (s *treeState) indicator(fi fs.FileInfo) string {
	switch {
	case !s.classify || fi == nil || s.dirsOnly: // tree -d -F marks nothing
		return ""
	case fi.IsDir():
		return "/"
	case fi.Mode()&fs.ModeSocket != 0:
		return "="
	case fi.Mode()&fs.ModeNamedPipe != 0:
		return "|"
	case fi.Mode().IsRegular() && fi.Mode()&0o111 != 0:
		return "*"
	}
	return ""
}

// sizeField is -s's "[%11d]  " or -h's "[%4s]  " (tree's human sizes:
// one decimal under 9.95 of a unit); "" without them.
func (s *treeState) sizeField(fi fs.FileInfo) string {
	if !s.size && !s.human || fi == nil {
		return ""
	}
	n := fi.Size()
	if !s.human {
		return fmt.Sprintf("[%11d]  ", n)
	}
	if n < 1024 {
		return fmt.Sprintf("[%4d]  ", n)
	}
	v, unit := float64(n), 0
	for v >= 1024 && unit < 8 {
		v /= 1024
		unit++
	}
	format := "[%3.0f%c]  "
	if v < 9.95 {
		format = "[%3.1f%c]  "
	}
	return fmt.Sprintf(format, v, "BKMGTPEZY"[unit])
}

// list writes the entries of dir under prefix and returns how many it
// listed; depth is the depth of those entries.
func (s *treeState) list(dir, prefix string, depth int) int {
	env := s.env
	if env.Ctx.Err() != nil {
		return 0
	}
	des, err := env.FS.ReadDir(env.Abs(dir + "/")) // dir "" is the root
	if err != nil {
		return 0
	}
	var entries []treeEntry
	for _, de := range des {
		name := de.Name()
		if !s.all && strings.HasPrefix(name, ".") {
			continue
		}
		p := dir + "/" + name
		e := treeEntry{name: name, dir: de.IsDir()}
		e.info, _ = de.Info()
		e.target = e.info
		if de.Type()&fs.ModeSymlink != 0 {
			e.link, _ = env.FS.Readlink(env.Abs(p))
			e.target = nil
			if fi, err := env.FS.Stat(env.Abs(p)); err == nil {
				e.target, e.dir = fi, fi.IsDir()
			}
		}
		if treeMatch(s.ignore, name) || s.dirsOnly && !e.dir || len(s.only) > 0 && (!e.dir || e.link != "") && !treeMatch(s.only, name) {
			continue
		}
		entries = append(entries, e)
	}
	if s.reverse {
		slices.Reverse(entries) // ReadDir's are sorted by name
	}
	if s.dirsFirst {
		slices.SortStableFunc(entries, func(a, b treeEntry) int {
			switch {
			case a.dir == b.dir:
				return 0
			case a.dir:
				return -1
			}
			return 1
		})
	}
	for i, e := range entries {
		lead, next := s.branch, s.pipe
		if i == len(entries)-1 {
			lead, next = s.last, s.none
		}
		if s.noIndent {
			lead, next = "", ""
		}
		child := dir + "/" + e.name // as tree joins them: ./d/e
		shown := e.name
		if s.fullPath {
			shown = child
		}
		shown = s.name(shown)
		if e.link != "" {
			shown += " -> " + s.name(e.link) + s.indicator(e.target)
		} else {
			shown += s.indicator(e.info)
		}
		s.out.WriteString(prefix + lead + s.sizeField(e.info) + shown + "\n")
		if !e.dir {
			s.files++
			continue
		}
		s.dirs++
		if e.link == "" && (s.level == 0 || depth < s.level) {
			s.list(child, prefix+next, depth+1)
		}
	}
	return len(entries)
}

func treeMatch(pats []func(string) bool, name string) bool {
	for _, m := range pats {
		if m(name) {
			return true
		}
	}
	return false
}

// treeUTF8 reports whether the script's locale variables name UTF-8.
func treeUTF8(environ []string) bool {
	for _, v := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if val, ok := envLookup(environ, v); ok && val != "" {
			val = strings.ToLower(val)
			return strings.Contains(val, "utf-8") || strings.Contains(val, "utf8")
		}
	}
	return false
}
