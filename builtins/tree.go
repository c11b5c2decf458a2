package builtins

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

var _ = register(Builtin{Name: "tree", Summary: "list contents of directories in a tree-like format", Run: treeCmd})

// treeState is one call of tree (2.1's listing).
type treeState struct {
	env                      *Env
	all, dirsOnly, fullPath  bool
	noIndent, classify       bool   // -i, -F
	dirsFirst, filesFirst    bool   // --dirsfirst, --filesfirst
	reverse, json, xml       bool   // -r, -J, -X
	size, human, quote       bool   // -s, -h, -Q
	si, du                   bool   // --si, --du
	perms, user, group, date bool   // -p, -u, -g, -D
	prune, matchDirs, icase  bool   // --prune, --matchdirs, --ignore-case
	follow, fromFile         bool   // -l, --fromfile
	gitignore, colour        bool   // --gitignore, -C
	html, noLinks, info, utf bool   // -H, --nolinks, --info, a UTF-8 charset
	host, title, charset     string // -H's baseHREF, -T's title, --charset
	hintro, houtro           string // -H's files instead of its head and foot
	htmlDirLen               int    // -H: the length of the root's path
	recurse, noReport        bool   // -R, --noreport
	levels                   []int  // -H: tree's dirs[]: 1 an entry with more after it, 2 the last
	colours                  *treeColours
	infos                    []*treeInfoFile // --info's .info files in force, outermost first
	rules                    []treeRule      // --gitignore's, outermost first
	nonPrint                 byte            // 0: \ooo (default), 'q': ?, 'N': as is
	timeFmt, sortBy          string
	level, fileLimit         int // 0: no limit
	ignore, only             []func(string) bool
	onlyPats, ignorePats     []string
	dirs, files              int
	visited                  map[string]bool // -l: the directories opened
	used                     int64           // --du's report: the sizes it showed, roots' not
	now                      time.Time
	branch, last, pipe, none string
	out                      *strings.Builder
}

// treeNode is one listed name with what was listed under it.
type treeNode struct {
	treeEntry
	path    string      // as tree joins it to the root: ./d/e
	kids    []*treeNode // nil when not opened
	errMsg  string      // --filelimit's "N entries exceeds filelimit, ..."
	comment []string    // --info's lines
	page    bool        // -R: listed in a 00Tree.html of its own
	total   int64       // --du: the size of everything under it
}

func treeCmd(env *Env) int {
	s := &treeState{env: env, out: &strings.Builder{}, sortBy: "name", now: time.Now(), visited: map[string]bool{}}
	f := NewFlags(env, "List the contents of each directory (default .) as a tree, as tree 2.1 does.", "[-acdfghilnpqrstuvxCDFJNQUX] [-H baseHREF] [-T title]\n"+
		"\t[-L level [-R]] [-P pattern] [-I pattern] [-o filename] [--timefmt fmt]\n"+
		"\t[--sort[=]name] [--filelimit #] [--dirsfirst] [--filesfirst]\n"+
		"\t[--noreport] [--du] [--prune] [--gitignore] [--fromfile] [--info]\n"+
		"\t[--nolinks] [--hintro X] [--houtro X] [--] [directory ...]")
	sortErr := ""
	s.listingFlags(f, &sortErr)
	s.fileFlags(f)
	levelErr, outFile, charset := "", "", ""
	f.Func('L', "", RequiredArg, "level", "Descend only level directories deep.", func(v string, _ bool) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			levelErr = "Invalid level, must be greater than 0."
		}
		s.level = n
		return nil
	})
	f.Func(0, "filelimit", RequiredArg, "#", "Do not descend dirs with more than # files in them.", func(v string, _ bool) error {
		s.fileLimit, _ = strconv.Atoi(v)
		return nil
	})
	f.StringVar(&outFile, 'o', "", "filename", "Output to file instead of stdout.")
	f.StringVar(&charset, 0, "charset", "X", "Use charset X for terminal/HTML and indentation line output.")
	noReport := f.Bool(0, "noreport", "Turn off file/directory count at end of tree listing.")
	hintro, houtro := "", ""
	s.title = "Directory Tree"
	host, htmlSet := f.String('H', "", "baseHREF", "Prints out HTML format with baseHREF as top directory.")
	f.StringVar(&s.title, 'T', "", "string", "Replace the default HTML title and H1 header with string.")
	f.BoolVar(&s.noLinks, 0, "nolinks", "Turn off hyperlinks in HTML output.")
	f.StringVar(&hintro, 0, "hintro", "X", "Use file X as the HTML intro.")
	f.StringVar(&houtro, 0, "houtro", "X", "Use file X as the HTML outro.")
	f.BoolVar(&s.info, 0, "info", "Print information about files found in .info files.")
	f.BoolVar(&s.recurse, 'R', "", "Rerun tree when max dir level reached\n(llmsh: with -H only).")
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
	if sortErr != "" { // tree 2.1 writes the list of sorts to stdout
		fmt.Fprintf(env.Stderr, "tree: Sort type '%s' not valid, should be one of: ", sortErr)
		fmt.Fprintln(env.Stdout, "name,version,size,mtime,ctime")
		return 1
	}
	s.compile()
	if len(roots) == 0 {
		roots = []string{"."}
	}
	// tree draws with box characters in a UTF-8 locale (llmsh's
	// default; its vertical line is padded with two no-break spaces),
	// with ASCII otherwise; --charset names the set instead.
	s.branch, s.last, s.pipe, s.none = "├── ", "└── ", "│\u00a0\u00a0 ", "    "
	utf := treeUTF8(env.Environ)
	if charset != "" {
		utf = treeUTF8([]string{"LANG=" + charset})
	}
	if !utf {
		s.branch, s.last, s.pipe = "|-- ", "`-- ", "|   "
	}
	s.utf = utf
	s.html, s.host = *htmlSet, *host
	if s.colour && !s.html {
		s.colours = treeColoursFor(env.Environ)
	}
	var w io.Writer = env.Stdout
	if outFile != "" {
		file, err := env.FS.OpenFile(env.Abs(outFile), os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
		if err != nil {
			env.Errorf("invalid filename '%s'", outFile)
			return 1
		}
		defer file.Close()
		w = file
	}
	s.charset, s.hintro, s.houtro = charset, hintro, houtro
	if s.recurse && s.html { // -R's pages are not listed (without -L too)
		s.ignore = append(s.ignore, func(name string) bool { return name == treePage })
	}
	s.noReport, s.recurse = *noReport, s.recurse && s.html && s.level > 0
	return s.run(w, roots, !*noReport)
}

// listingFlags declares the options of what is listed and in which order.
func (s *treeState) listingFlags(f *Flags, sortErr *string) {
	f.BoolVar(&s.all, 'a', "", "All files are listed.")
	f.BoolVar(&s.dirsOnly, 'd', "", "List directories only.")
	f.BoolVar(&s.follow, 'l', "", "Follow symbolic links like directories.")
	f.BoolVar(&s.fullPath, 'f', "", "Print the full path prefix for each file.")
	f.Bool('x', "", "Stay on current filesystem only.")
	pats := func(list *[]string) func(string, bool) error {
		return func(v string, _ bool) error {
			*list = append(*list, v)
			return nil
		}
	}
	f.Func('P', "", RequiredArg, "pattern", "List only those files that match the pattern given.", pats(&s.onlyPats))
	f.Func('I', "", RequiredArg, "pattern", "Do not list files that match the given pattern.", pats(&s.ignorePats))
	f.BoolVar(&s.matchDirs, 0, "matchdirs", "Include directory names in -P pattern matching.")
	f.BoolVar(&s.icase, 0, "ignore-case", "Ignore case when pattern matching.")
	f.BoolVar(&s.prune, 0, "prune", "Prune empty directories from the output.")
	f.BoolVar(&s.fromFile, 0, "fromfile", "Reads paths from files (.=stdin)")
	f.BoolVar(&s.gitignore, 0, "gitignore", "Filter by using .gitignore files.")
	f.BoolVar(&s.noIndent, 'i', "", "Don't print indentation lines.")
	f.BoolVar(&s.xml, 'X', "", "Prints out an XML representation of the tree.")
	f.BoolVar(&s.json, 'J', "", "Prints out an JSON representation of the tree.")
	f.Bool('n', "", "Turn colorization off always (-C overrides).")
	f.BoolVar(&s.colour, 'C', "", "Turn colorization on always.")
	sorter := func(by string) func(string, bool) error {
		return func(string, bool) error { s.sortBy = by; return nil }
	}
	f.Func('v', "", NoArg, "", "Sort files alphanumerically by version.", sorter("version"))
	f.Func('t', "", NoArg, "", "Sort files by last modification time.", sorter("mtime"))
	f.Func('c', "", NoArg, "", "Sort files by last status change time\n(llmsh: vfsd keeps only modification times: those).", sorter("ctime"))
	f.Func('U', "", NoArg, "", "Leave files unsorted.", sorter("none"))
	f.BoolVar(&s.reverse, 'r', "", "Reverse the order of the sort.")
	f.BoolVar(&s.dirsFirst, 0, "dirsfirst", "List directories before files (-U disables).")
	f.BoolVar(&s.filesFirst, 0, "filesfirst", "List files before directories (-U disables).")
	f.Func(0, "sort", RequiredArg, "X", "Select sort: name,version,size,mtime,ctime.", func(v string, _ bool) error {
		if !slices.Contains([]string{"name", "version", "size", "mtime", "ctime"}, v) {
			*sortErr = v
		}
		s.sortBy = v
		return nil
	})
}

// fileFlags declares the options of what is shown for each file.
func (s *treeState) fileFlags(f *Flags) {
	f.BoolVar(&s.quote, 'Q', "", "Quote filenames with double quotes.")
	f.Func('q', "", NoArg, "", "Print non-printable characters as '?'.", func(string, bool) error { s.nonPrint = 'q'; return nil })
	f.Func('N', "", NoArg, "", "Print non-printable characters as is.", func(string, bool) error { s.nonPrint = 'N'; return nil })
	f.BoolVar(&s.perms, 'p', "", "Print the protections for each file.")
	f.BoolVar(&s.user, 'u', "", "Displays file owner or UID number.")
	f.BoolVar(&s.group, 'g', "", "Displays file group owner or GID number.")
	f.BoolVar(&s.size, 's', "", "Print the size in bytes of each file.")
	f.BoolVar(&s.human, 'h', "", "Print the size in a more human readable way.")
	f.BoolVar(&s.si, 0, "si", "Like -h, but use in SI units (powers of 1000).")
	f.BoolVar(&s.du, 0, "du", "Print directory sizes.")
	f.BoolVar(&s.date, 'D', "", "Print the date of last modification or (-c) status change.")
	f.Func(0, "timefmt", RequiredArg, "<f>", "Print and format time according to the format <f>.", func(v string, _ bool) error {
		s.timeFmt, s.date = v, true
		return nil
	})
	f.BoolVar(&s.classify, 'F', "", "Appends '/', '=', '*', '@', '|' or '>' as per ls -F.")
}

// compile turns the -P and -I patterns into matchers.
func (s *treeState) compile() {
	for _, p := range []struct {
		pats []string
		list *[]func(string) bool
	}{{s.onlyPats, &s.only}, {s.ignorePats, &s.ignore}} {
		for _, v := range p.pats {
			for _, pat := range strings.Split(v, "|") {
				*p.list = append(*p.list, findGlob(pat, s.icase))
			}
		}
	}
	if s.si {
		s.human = true
	}
	if s.du && !s.human {
		s.size = true
	}
}

// run lists each root to w and the report after them.
func (s *treeState) run(out io.Writer, roots []string, report bool) int {
	env := s.env
	status := 0
	w := bufio.NewWriterSize(out, ioBufSize)
	if s.json && s.noIndent { // tree -J -i writes it all on one line
		var all strings.Builder
		w = bufio.NewWriter(&all)
		defer func() {
			out.Write([]byte(treeCompact().ReplaceAllString(strings.TrimSpace(all.String()), "") + "\n"))
		}()
	}
	switch {
	case s.html:
		s.htmlIntro(w)
	case s.xml:
		w.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<tree>\n")
	case s.json:
		w.WriteString("[")
	}
	for i, root := range roots {
		if s.fromFile {
			n, err := s.readPaths(root)
			if err != nil {
				s.rootError(w, i, root, nil)
				status = 2
				continue
			}
			s.dirs++
			s.write(w, i, n)
			continue
		}
		fi, err := env.FS.Stat(env.Abs(root))
		if err != nil || !fi.IsDir() {
			if err != nil {
				status = 2
			} else {
				s.files++
			}
			s.rootError(w, i, root, fi)
			continue
		}
		// tree joins names to the root with "/", a trailing one cut
		// (-f shows the root so too)
		if trimmed := strings.TrimRight(root, "/"); trimmed != "" && s.fullPath {
			root = trimmed
		} else if s.fullPath {
			root = "/"
		}
		n := &treeNode{treeEntry: treeEntry{name: root, dir: true, info: fi, target: fi}, path: strings.TrimRight(root, "/")}
		clear(s.visited) // tree checks -l's loops within one root
		s.open(n, 1, false)
		n.sum()
		if len(n.kids) > 0 || n.errMsg != "" {
			s.dirs++ // tree counts a root only when it lists something
		}
		s.write(w, i, n)
		if env.Ctx.Err() != nil {
			w.Flush()
			return 1
		}
	}
	switch {
	case s.html:
		if report {
			s.report(w)
		}
		s.htmlOutro(w)
	case report:
		s.report(w)
	case s.xml:
		w.WriteString("</tree>\n")
	case s.json:
		w.WriteString("\n\n]\n")
	}
	return finishOutput(env, w, status)
}

// treeCompact is what -J -i drops: the line breaks and indentation
// (a name's own line breaks are escaped in JSON).
var treeCompact = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("\n *") })

// write writes the listing of root n, the i-th.
func (s *treeState) write(w io.StringWriter, i int, n *treeNode) {
	s.out.Reset()
	switch {
	case s.html:
		s.htmlDirLen = len(n.path)
		s.writeHTML(n)
	case s.xml:
		s.writeXML(n, 1)
	case s.json:
		if i > 0 {
			s.out.WriteString(",")
		}
		s.out.WriteString("\n")
		s.writeJSON(n, 1)
	default:
		s.writeText(n, "", "", "", true)
	}
	w.WriteString(s.out.String())
}

// readPaths is --fromfile's tree of the paths listed one a line in
// name ("." for standard input): a name is a directory when a path
// goes on under it or it ends in "/", a file otherwise.
func (s *treeState) readPaths(name string) (*treeNode, error) {
	var r io.Reader = s.env.Stdin
	if name != "." {
		f, err := s.env.FS.OpenFile(s.env.Abs(name), os.O_RDONLY)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	root := &treeNode{treeEntry: treeEntry{name: name}, path: name}
	for _, line := range strings.Split(string(data), "\n") {
		n := root
		parts := strings.Split(line, "/")
		for i, part := range parts {
			if part == "" || treeMatch(s.ignore, part) { // hidden names too
				break
			}
			dir := i < len(parts)-1
			if !dir && (s.dirsOnly || len(s.only) > 0 && !treeMatch(s.only, part)) {
				break
			}
			i := slices.IndexFunc(n.kids, func(k *treeNode) bool { return k.name == part })
			if i < 0 {
				n.kids = append(n.kids, &treeNode{treeEntry: treeEntry{name: part}, path: n.path + "/" + part})
				i = len(n.kids) - 1
			}
			n = n.kids[i]
			n.dir = n.dir || dir
		}
	}
	s.sortAll(root)
	return root, nil
}

// sortAll sorts the entries under n, all levels.
func (s *treeState) sortAll(n *treeNode) {
	s.sort(n.kids)
	for _, k := range n.kids {
		s.sortAll(k)
	}
}

// rootError writes tree's line for a root that is no directory.
func (s *treeState) rootError(w io.StringWriter, i int, root string, fi fs.FileInfo) {
	switch {
	case s.html:
		s.out.Reset()
		if fi != nil {
			s.htmlLead("")
			s.out.WriteString(s.htmlMeta(s.meta(fi)))
		}
		s.out.WriteString(s.htmlLink(root, "", fi, nil, true, false) + "  [error opening dir]<br>\n")
		w.WriteString(s.out.String())
		return
	case s.xml:
		kind := "unknown"
		if fi != nil {
			w.WriteString("  <file")
			kind = "file"
		}
		w.WriteString(` name="` + treeXMLString(root) + `"` + s.xmlMeta(fi, 0) + "><error>error opening dir</error>\n  </" + kind + ">\n")
		return
	case !s.json:
		w.WriteString(s.meta(fi) + s.name(root) + "  [error opening dir]\n")
		return
	}
	sep := "\n"
	if i > 0 {
		sep = ",\n"
	}
	kind := "," // tree 2.1 writes no type for a missing root
	if fi != nil {
		kind = `  {"type":"file",`
	}
	w.WriteString(sep + kind + `"name":` + treeJSONString(root) + s.jsonMeta(fi, 0) + `,"contents":[{"error": "error opening dir"}` + "\n\n  ]}")
}

// report writes the closing count of directories and files.
func (s *treeState) report(w io.StringWriter) {
	plural := func(n int, one, many string) string {
		if n == 1 {
			return "1 " + one
		}
		return strconv.Itoa(n) + " " + many
	}
	if s.xml {
		files := ""
		if !s.dirsOnly {
			files = "    <files>" + strconv.Itoa(s.files) + "</files>\n"
		}
		size := ""
		if s.du {
			size = "    <size>" + strconv.FormatInt(s.used, 10) + "</size>\n"
		}
		w.WriteString("  <report>\n" + size + "    <directories>" + strconv.Itoa(s.dirs) + "</directories>\n" + files + "  </report>\n</tree>\n")
		return
	}
	if s.json {
		files := ""
		if !s.dirsOnly {
			files = `,"files":` + strconv.Itoa(s.files)
		}
		size := ""
		if s.du {
			size = `,"size":` + strconv.FormatInt(s.used, 10)
		}
		w.WriteString("\n,\n  {\"type\":\"report\"" + size + ",\"directories\":" + strconv.Itoa(s.dirs) + files + "}\n]\n")
		return
	}
	line := plural(s.dirs, "directory", "directories")
	if s.html {
		w.WriteString("<br><br><p>\n")
		defer w.WriteString("\n</p>\n")
	}
	switch {
	case s.du && s.human:
		line = fmt.Sprintf(" %4s used in ", s.humanSize(s.used)) + line
	case s.du:
		line = fmt.Sprintf(" %11d bytes used in ", s.used) + line
	}
	if !s.dirsOnly {
		line += ", " + plural(s.files, "file", "files")
	}
	w.WriteString("\n" + line + "\n")
}

// treeEntry is one listed name of a directory.
type treeEntry struct {
	name, link string
	dir        bool
	info       fs.FileInfo // lstat's; nil when it failed
	target     fs.FileInfo // a symbolic link's target (-F); nil when dangling
}

// open reads the directory of n into n.kids (filtered and sorted),
// descending while depth is within -L; matched is --matchdirs' "n
// matched -P", which lists all n holds.
func (s *treeState) open(n *treeNode, depth int, matched bool) {
	env := s.env
	if env.Ctx.Err() != nil {
		return
	}
	if s.follow { // -l: a link back to a directory listed is not followed
		if real, err := canonicalize(env, n.path+"/", canonAll); err == nil {
			if s.visited[real] {
				n.errMsg = "recursive, not followed"
				return
			}
			s.visited[real] = true
		}
	}
	des, err := env.FS.ReadDir(env.Abs(n.path + "/")) // path "" is the root
	if err != nil {
		return
	}
	if s.gitignore {
		defer func(outer int) { s.rules = s.rules[:outer] }(len(s.rules))
		s.readGitignore(n.path)
	}
	top := false
	if s.info {
		if inf := s.readInfo(n.path, depth == 1); inf != nil {
			s.infos, top = append(s.infos, inf), true
			defer func() { s.infos = s.infos[:len(s.infos)-1] }()
		}
	}
	kids := []*treeNode{}
	for _, de := range des {
		name := de.Name()
		if !s.all && strings.HasPrefix(name, ".") {
			continue
		}
		k := &treeNode{treeEntry: treeEntry{name: name, dir: de.IsDir()}, path: n.path + "/" + name}
		k.info, _ = de.Info()
		k.target = k.info
		if de.Type()&fs.ModeSymlink != 0 {
			k.link, _ = env.FS.Readlink(env.Abs(k.path))
			k.target = nil
			if fi, err := env.FS.Stat(env.Abs(k.path)); err == nil {
				k.target, k.dir = fi, fi.IsDir()
			}
		}
		if treeMatch(s.ignore, name) || s.dirsOnly && !k.dir || s.gitignore && s.gitIgnored(k) {
			continue
		}
		if len(s.only) > 0 && !matched && (!k.dir || k.link != "" && !s.follow) && !treeMatch(s.only, name) {
			continue
		}
		if s.info {
			k.comment = s.infoFor(k.path, name, k.dir, top)
		}
		kids = append(kids, k)
	}
	if s.fileLimit > 0 && len(kids) > s.fileLimit {
		n.errMsg = strconv.Itoa(len(kids)) + " entries exceeds filelimit, not opening dir"
		return
	}
	s.sort(kids)
	n.kids = kids[:0]
	for _, k := range kids {
		if k.dir && (k.link == "" || s.follow) && (s.level == 0 || depth < s.level) {
			// a directory --matchdirs matches lists what it holds
			// (tree 2.1 does not carry that deeper)
			s.open(k, depth+1, s.matchDirs && treeMatch(s.only, k.name))
			if s.prune && !s.dirsOnly && len(k.kids) == 0 && k.errMsg == "" {
				continue
			}
		} else if k.dir && s.prune && len(s.only) > 0 && !treeMatch(s.only, k.name) {
			continue
		} else if s.recurse && k.dir && (k.link == "" || s.follow) {
			k.page = true
		}
		k.sum()
		n.kids = append(n.kids, k)
	}
}

// treeRule is one line of a .gitignore file.
type treeRule struct {
	base    string // the directory of the .gitignore, as tree joins paths
	match   func(string) bool
	path    bool // the pattern holds a "/": it matches the path under base
	dirOnly bool // the pattern ends in "/"
	negate  bool // "!pattern"
}

// readGitignore adds the rules of dir/.gitignore, if there is one.
func (s *treeState) readGitignore(dir string) {
	data, err := readWholeFile(s.env, dir+"/.gitignore")
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, " \r")
		if line == "" || line[0] == '#' {
			continue
		}
		r := treeRule{base: dir}
		if line[0] == '!' {
			r.negate, line = true, line[1:]
		}
		if strings.HasSuffix(line, "/") {
			r.dirOnly, line = true, strings.TrimRight(line, "/")
		}
		line = strings.TrimPrefix(line, "**/")
		r.path = strings.Contains(line, "/")
		r.match = findGlob(strings.TrimPrefix(line, "/"), false)
		s.rules = append(s.rules, r)
	}
}

// gitIgnored reports whether the last rule that matches k ignores it.
func (s *treeState) gitIgnored(k *treeNode) bool {
	ignored := false
	for _, r := range s.rules {
		subject := k.name
		if r.path {
			subject = strings.TrimPrefix(k.path, r.base+"/")
		}
		if (!r.dirOnly || k.dir) && r.match(subject) {
			ignored = !r.negate
		}
	}
	return ignored
}

// sum sets n.total, --du's size of n and all it lists.
func (n *treeNode) sum() {
	n.total = 0
	if n.info != nil {
		n.total = n.info.Size()
	}
	for _, k := range n.kids {
		n.total += k.total
	}
}

// sort orders entries by --sort (by name when tied), -r reversing,
// then directories first or last.
func (s *treeState) sort(list []*treeNode) {
	if s.sortBy == "none" {
		return
	}
	var by func(a, b *treeNode) int
	switch s.sortBy {
	case "version":
		by = func(a, b *treeNode) int { return sortVerCmp([]byte(a.name), []byte(b.name)) }
	case "size":
		by = func(a, b *treeNode) int { return treeCmp(b.info, a.info, fs.FileInfo.Size) }
	case "mtime", "ctime":
		by = func(a, b *treeNode) int {
			return treeCmp(a.info, b.info, func(fi fs.FileInfo) int64 { return fi.ModTime().Unix() })
		}
	}
	slices.SortStableFunc(list, func(a, b *treeNode) int {
		if s.dirsFirst || s.filesFirst {
			if a.dir != b.dir {
				if a.dir == s.dirsFirst {
					return -1
				}
				return 1
			}
		}
		if s.reverse {
			a, b = b, a
		}
		if by != nil {
			if c := by(a, b); c != 0 {
				return c
			}
		}
		return strings.Compare(a.name, b.name)
	})
}

// treeCmp compares key of two files, a missing one as zero.
func treeCmp(a, b fs.FileInfo, key func(fs.FileInfo) int64) int {
	var x, y int64
	if a != nil {
		x = key(a)
	}
	if b != nil {
		y = key(b)
	}
	return cmpInt64(x, y)
}

func cmpInt64(x, y int64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// writeText writes n's line after lead and its entries under prefix;
// a root shows its name as given. bars is prefix as without -i (where
// --info's lines go).
func (s *treeState) writeText(n *treeNode, lead, prefix, bars string, root bool) {
	shown := n.name
	if s.fullPath && !root {
		shown = n.path
	}
	shown = s.paintNode(s.name(shown), n)
	if n.link != "" {
		shown += " -> " + s.paintTarget(s.name(n.link), n) + s.indicator(n.target)
	} else {
		shown += s.indicator(n.info)
	}
	if n.errMsg != "" {
		shown += "  [" + n.errMsg + "]"
	}
	s.out.WriteString(lead + s.metaOf(n) + shown + "\n")
	s.commentLines(bars, n.comment)
	for i, k := range n.kids {
		s.count(k)
		l, next := s.branch, s.pipe
		if i == len(n.kids)-1 {
			l, next = s.last, s.none
		}
		kidBars := bars + next
		if s.noIndent {
			l, next = "", ""
		}
		s.writeText(k, prefix+l, prefix+next, kidBars, false)
	}
}

// writeJSON writes n as tree -J does, indented by depth.
func (s *treeState) writeJSON(n *treeNode, depth int) {
	kind := n.kind()
	ind := strings.Repeat("  ", depth)
	shown := n.name
	if s.fullPath && depth > 1 {
		shown = n.path
	}
	s.out.WriteString(ind + `{"type":"` + kind + `","name":` + treeJSONString(shown))
	if n.comment != nil {
		s.out.WriteString(`,"info":` + treeJSONString(strings.Join(n.comment, "\n")))
	}
	if n.link != "" {
		s.out.WriteString(`,"target":` + treeJSONString(n.link))
	}
	s.out.WriteString(s.jsonMeta(n.info, n.total))
	switch {
	case n.errMsg != "":
		s.out.WriteString(`,"contents":[{"error": "` + n.errMsg + `"}` + "\n\n" + ind + "]}")
	case len(n.kids) > 0:
		s.out.WriteString(`,"contents":[` + "\n")
		for i, k := range n.kids {
			s.count(k)
			if i > 0 {
				s.out.WriteString(",\n")
			}
			s.writeJSON(k, depth+1)
		}
		s.out.WriteString("\n" + ind + "]}")
	default:
		s.out.WriteString("}")
	}
}

// writeXML writes n as tree -X does, indented by depth.
func (s *treeState) writeXML(n *treeNode, depth int) {
	kind := n.kind()
	shown := n.name
	if s.fullPath && depth > 1 {
		shown = n.path
	}
	ind := strings.Repeat("  ", depth)
	s.out.WriteString(ind + "<" + kind + ` name="` + treeXMLString(shown) + `"`)
	if n.comment != nil {
		s.out.WriteString(` info="` + treeXMLString(strings.Join(n.comment, "\n")) + `"`)
	}
	if n.link != "" {
		s.out.WriteString(` target="` + treeXMLString(n.link) + `"`)
	}
	s.out.WriteString(s.xmlMeta(n.info, n.total) + ">")
	switch {
	case n.errMsg != "":
		s.out.WriteString("<error>" + n.errMsg + "</error>\n" + ind)
	case len(n.kids) > 0:
		s.out.WriteString("\n")
		for _, k := range n.kids {
			s.count(k)
			s.writeXML(k, depth+1)
		}
		s.out.WriteString(ind)
	}
	s.out.WriteString("</" + kind + ">\n")
}

// kind is n's type in -J's and -X's output.
func (n *treeNode) kind() string {
	switch {
	case n.link != "":
		return "link"
	case n.dir:
		return "directory"
	}
	return "file"
}

// count counts a listed entry for the report.
func (s *treeState) count(n *treeNode) {
	s.used += n.total
	if n.dir {
		s.dirs++
	} else {
		s.files++
	}
}

// treeXMLString is a name or value with XML's special characters as
// entities.
func treeXMLString(v string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(v)
}

// treeJSONString is a name as a JSON string.
func treeJSONString(v string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range v {
		switch {
		case r == '"' || r == '\\':
			b.WriteString(`\` + string(r))
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// name is a file name as shown: non-printable characters as \ooo (?
// with -q, as is with -N), in double quotes with -Q.
func (s *treeState) name(n string) string {
	if s.nonPrint != 'N' {
		var b strings.Builder
		for i := 0; i < len(n); {
			r, size := utf8.DecodeRuneInString(n[i:])
			switch {
			case r != utf8.RuneError && unicode.IsPrint(r):
				b.WriteString(n[i : i+size])
			case s.nonPrint == 'q':
				b.WriteByte('?')
				size = 1
			default:
				fmt.Fprintf(&b, "\\%03o", n[i])
				size = 1
			}
			i += size
		}
		n = b.String()
	}
	if s.quote {
		return `"` + strings.ReplaceAll(n, `"`, `\"`) + `"`
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

// metaOf is n's "[...]  " field (meta), sizes being --du's totals.
func (s *treeState) metaOf(n *treeNode) string {
	if s.du && n.dir && n.link == "" {
		return s.metaSized(n.info, n.total)
	}
	return s.meta(n.info)
}

func (s *treeState) meta(fi fs.FileInfo) string {
	if fi == nil {
		return s.metaSized(nil, 0)
	}
	return s.metaSized(fi, fi.Size())
}

// metaSized is the "[perms user group size date]  " field that -p,
// -u, -g, -s/-h and -D ask for; "" without them.
func (s *treeState) metaSized(fi fs.FileInfo, size int64) string {
	if fi == nil || !(s.perms || s.user || s.group || s.size || s.human || s.date) {
		return ""
	}
	var parts []string
	if s.perms {
		parts = append(parts, lsMode(fi))
	}
	if s.user {
		parts = append(parts, "llmsh   ")
	}
	if s.group {
		parts = append(parts, "llmsh   ")
	}
	if s.human {
		parts = append(parts, fmt.Sprintf("%4s", s.humanSize(size)))
	} else if s.size {
		parts = append(parts, fmt.Sprintf("%11d", size))
	}
	if s.date {
		parts = append(parts, s.time(fi))
	}
	return "[" + strings.Join(parts, " ") + "]  "
}

// jsonMeta is the attributes -J adds for the same options.
func (s *treeState) jsonMeta(fi fs.FileInfo, total int64) string {
	var b strings.Builder
	for _, a := range s.attrs(fi, total) {
		v := treeJSONString(a.val)
		if a.num {
			v = a.val
		}
		b.WriteString(`,"` + a.key + `":` + v)
	}
	return b.String()
}

// xmlMeta is the attributes -X adds for the same options.
func (s *treeState) xmlMeta(fi fs.FileInfo, total int64) string {
	var b strings.Builder
	for _, a := range s.attrs(fi, total) {
		b.WriteString(" " + a.key + `="` + treeXMLString(a.val) + `"`)
	}
	return b.String()
}

// treeAttr is one attribute of a file in -J's or -X's output.
type treeAttr struct {
	key, val string
	num      bool // a JSON number
}

// attrs lists the attributes -p, -u, -g, -s/-h and -D ask for.
func (s *treeState) attrs(fi fs.FileInfo, total int64) []treeAttr {
	if fi == nil {
		return nil
	}
	var list []treeAttr
	if s.perms {
		list = append(list, treeAttr{"mode", fmt.Sprintf("%04o", fi.Mode().Perm()), false}, treeAttr{"prot", lsMode(fi), false})
	}
	if s.user {
		list = append(list, treeAttr{"user", "llmsh", false})
	}
	if s.group {
		list = append(list, treeAttr{"group", "llmsh", false})
	}
	size := fi.Size()
	if s.du && fi.IsDir() {
		size = total
	}
	if s.human && !s.xml { // tree -X shows bytes
		list = append(list, treeAttr{"size", strings.TrimSpace(s.humanSize(size)), false})
	} else if s.size || s.human {
		list = append(list, treeAttr{"size", strconv.FormatInt(size, 10), true})
	}
	if s.date {
		list = append(list, treeAttr{"time", s.time(fi), false})
	}
	return list
}

// time is -D's date: ls's "Mon _2 15:04" or "Mon _2  2006", or
// --timefmt's strftime format.
func (s *treeState) time(fi fs.FileInfo) string {
	t := fi.ModTime()
	if s.timeFmt != "" {
		return dateFormat(t, s.timeFmt, t.Location() == time.UTC)
	}
	return lsTime(t, s.now)
}

// humanSize is -h's figure (tree's: one decimal under 9.95 of a
// unit), in powers of 1000 with --si.
func (s *treeState) humanSize(n int64) string {
	base, units := 1024.0, "BKMGTPEZY"
	if s.si {
		base, units = 1000, "BkMGTPEZY"
	}
	if float64(n) < base {
		return strconv.FormatInt(n, 10)
	}
	v, unit := float64(n), 0
	for v >= base && unit < 8 {
		v /= base
		unit++
	}
	if v < 9.95 {
		return fmt.Sprintf("%3.1f%c", v, units[unit])
	}
	return fmt.Sprintf("%3.0f%c", v, units[unit])
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
