package builtins

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
)

// treeDefaultColours is tree 2.1's table when neither TREE_COLORS nor
// LS_COLORS is set (or set empty).
const treeDefaultColours = "no=00:fi=00:di=01;34:ln=01;36:pi=40;33:so=01;35:bd=40;33;01:cd=40;33;01:or=40;31;01:mi=00:ex=01;32:" +
	"*.bat=01;32:*.BAT=01;32:*.btm=01;32:*.BTM=01;32:*.cmd=01;32:*.CMD=01;32:*.com=01;32:*.COM=01;32:*.dll=01;32:*.DLL=01;32:*.exe=01;32:*.EXE=01;32:" +
	"*.arj=01;31:*.bz2=01;31:*.deb=01;31:*.gz=01;31:*.lzh=01;31:*.rpm=01;31:*.tar=01;31:*.taz=01;31:*.tb2=01;31:*.tbz2=01;31:*.tbz=01;31:*.tgz=01;31:*.tz2=01;31:*.z=01;31:*.Z=01;31:*.zip=01;31:*.ZIP=01;31:*.zoo=01;31:" +
	"*.asf=01;35:*.ASF=01;35:*.avi=01;35:*.AVI=01;35:*.bmp=01;35:*.BMP=01;35:*.flac=01;35:*.FLAC=01;35:*.gif=01;35:*.GIF=01;35:*.jpg=01;35:*.JPG=01;35:*.jpeg=01;35:*.JPEG=01;35:*.m2a=01;35:*.M2a=01;35:*.m2v=01;35:*.M2V=01;35:*.mov=01;35:*.MOV=01;35:*.mp3=01;35:*.MP3=01;35:*.mpeg=01;35:*.MPEG=01;35:*.mpg=01;35:*.MPG=01;35:*.ogg=01;35:*.OGG=01;35:*.ppm=01;35:*.rm=01;35:*.RM=01;35:*.tga=01;35:*.TGA=01;35:*.tif=01;35:*.TIF=01;35:*.wav=01;35:*.WAV=01;35:*.wmv=01;35:*.WMV=01;35:*.xbm=01;35:*.xpm=01;35:"

// treeColours is -C's table, from the script's TREE_COLORS or
// LS_COLORS (dircolors' keys: di, fi, ln, ex, or, mi, *.ext, lc, rc,
// ec, ...); ec is lc 0 rc unless given.
type treeColours struct {
	codes      map[string]string // key -> SGR parameters
	exts       [][2]string       // "*suffix" entries, the last given first
	linkTarget bool              // ln=target
	left       string            // lc
	right      string            // rc
	end        string            // ec
}

// newTreeColours parses a colour specification as tree does.
func newTreeColours(spec string) *treeColours {
	c := &treeColours{codes: map[string]string{}}
	for _, item := range strings.Split(spec, ":") {
		key, val, ok := strings.Cut(item, "=")
		if !ok || key == "" || val == "" {
			continue
		}
		switch {
		case key[0] == '*':
			c.exts = append([][2]string{{key[1:], val}}, c.exts...)
		case key == "ln" && strings.EqualFold(val, "target"):
			c.linkTarget = true
		default:
			c.codes[key] = val
		}
	}
	c.left, c.right = "\x1b[", "m"
	if v, ok := c.codes["lc"]; ok {
		c.left = v
	}
	if v, ok := c.codes["rc"]; ok {
		c.right = v
	}
	c.end = c.left + "0" + c.right
	if v, ok := c.codes["ec"]; ok {
		c.end = v
	}
	return c
}

// treeColoursFor is the table -C uses under the script's environment:
// none without TERM, TREE_COLORS before LS_COLORS, tree's defaults when
// both are unset or empty.
func treeColoursFor(environ []string) *treeColours {
	if _, ok := envLookup(environ, "TERM"); !ok {
		return nil
	}
	spec, ok := envLookup(environ, "TREE_COLORS")
	if !ok {
		spec, _ = envLookup(environ, "LS_COLORS")
	}
	if spec == "" {
		spec = treeDefaultColours
	}
	return newTreeColours(spec)
}

// code is the key's parameters for a file of mode m named name; ""
// when the table has none for it.
func (c *treeColours) code(m fs.FileMode, name string) string {
	get := func(key string) string { return c.codes[key] }
	switch {
	case m&fs.ModeSymlink != 0:
		return get("ln")
	case m.IsDir():
		switch {
		case m&fs.ModeSticky != 0 && m&0o002 != 0 && get("tw") != "":
			return get("tw")
		case m&fs.ModeSticky != 0 && m&0o002 == 0 && get("st") != "":
			return get("st")
		case m&0o002 != 0 && get("ow") != "":
			return get("ow")
		}
		return get("di")
	case m&fs.ModeNamedPipe != 0:
		return get("pi")
	case m&fs.ModeSocket != 0:
		return get("so")
	case m&fs.ModeDevice != 0 && m&fs.ModeCharDevice != 0:
		return get("cd")
	case m&fs.ModeDevice != 0:
		return get("bd")
	}
	switch {
	case m&fs.ModeSetuid != 0 && get("su") != "":
		return get("su")
	case m&fs.ModeSetgid != 0 && get("sg") != "":
		return get("sg")
	case m&0o111 != 0 && get("ex") != "":
		return get("ex")
	}
	for _, e := range c.exts {
		if strings.HasSuffix(name, e[0]) {
			return e[1]
		}
	}
	return get("fi")
}

// wrap puts code around name; name alone when code is "".
func (c *treeColours) wrap(code, name string) string {
	if code == "" {
		return name
	}
	return c.left + code + c.right + name + c.end
}

// paintNode is -C's colouring of n's name and, for a symbolic link,
// of its target: a dangling link as "or", its target as "mi" (or "no").
func (s *treeState) paintNode(shown string, n *treeNode) string {
	c := s.colours
	if c == nil || n.info == nil {
		return shown
	}
	if n.link == "" {
		return c.wrap(c.code(n.info.Mode(), n.name), shown)
	}
	if code := c.codes["or"]; n.target == nil && code != "" {
		return c.wrap(code, shown)
	}
	if c.linkTarget && n.target != nil {
		return c.wrap(c.code(n.target.Mode(), n.name), shown)
	}
	return c.wrap(c.code(n.info.Mode(), n.name), shown)
}

// paintTarget colours the target shown after a link's " -> ".
func (s *treeState) paintTarget(shown string, n *treeNode) string {
	c := s.colours
	if c == nil {
		return shown
	}
	if n.target == nil {
		code := c.codes["mi"]
		if code == "" {
			code = c.codes["no"]
		}
		return c.wrap(code, shown)
	}
	return c.wrap(c.code(n.target.Mode(), path.Base(n.link)), shown)
}

// treeInfoFile is one .info file of --info: its comments, each with
// the patterns it is for.
type treeInfoFile struct {
	comments []treeComment
}

type treeComment struct {
	pats  []treeInfoPattern
	lines []string
}

// treeInfoPattern is one pattern of a .info file, compiled.
type treeInfoPattern struct {
	match   func(string) bool
	path    bool // it holds a "/": it matches the path, not the name
	dirOnly bool // it ended in "/"
}

func newTreeInfoPattern(pat string) treeInfoPattern {
	p := treeInfoPattern{dirOnly: strings.HasSuffix(pat, "/")}
	pat = strings.TrimRight(pat, "/")
	p.path = strings.Contains(pat, "/")
	p.match = globMatcher(pat, false, true)
	return p
}

// readInfo reads dir/.info (with parents, the nearest .info above dir
// when dir has none, as tree does for a root); nil when there is none.
func (s *treeState) readInfo(dir string, parents bool) *treeInfoFile {
	data, err := readWholeFile(s.env, dir+"/.info")
	for err != nil && parents {
		abs := s.env.Abs(dir)
		if abs == "/" {
			return nil
		}
		dir = path.Dir(abs)
		data, err = readWholeFile(s.env, path.Join(dir, ".info"))
	}
	if err != nil {
		return nil
	}
	inf := &treeInfoFile{}
	var pats []treeInfoPattern
	var lines []string
	flush := func() {
		if len(pats) > 0 {
			inf.comments = append(inf.comments, treeComment{pats, lines})
		}
		pats, lines = nil, nil
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimRight(line, " \t\r")
		switch {
		case line == "":
		case line[0] == '\t':
			lines = append(lines, line[1:])
		default:
			if len(lines) > 0 {
				flush()
			}
			pats = append(pats, newTreeInfoPattern(line))
		}
	}
	flush()
	return inf
}

// infoFor is the comment of the .info files in force for a name at
// path p; top says the directory listed has a .info of its own, whose
// patterns then match the bare name too.
func (s *treeState) infoFor(p, name string, dir, top bool) []string {
	for i := len(s.infos) - 1; i >= 0; i-- {
		for _, c := range s.infos[i].comments {
			for _, pat := range c.pats {
				if pat.dirOnly && !dir {
					continue
				}
				if pat.path && pat.match(p) || top && pat.match(name) {
					return c.lines
				}
			}
		}
		top = false
	}
	return nil
}

// commentLines writes --info's lines of a comment under prefix, with
// tree's brackets.
func (s *treeState) commentLines(prefix string, lines []string) {
	single, top, mid, ext, bot := "[", "[", "[", "[", "["
	if s.utf {
		single, top, mid, ext, bot = "{", "⎧", "⎨", "⎪", "⎩"
	}
	for i, l := range lines {
		mark := ext
		switch {
		case len(lines) == 1:
			mark = single
		case i == 0:
			mark = top
		case i == len(lines)-1:
			mark = bot
		case i == 1:
			mark = mid
		}
		s.out.WriteString(prefix + " " + mark + " " + l + "\n")
	}
}

// treeHTMLVersion is the closing paragraph of -H's page.
const treeHTMLVersion = "\t<hr>\n\t<p class=\"VERSION\">\n" +
	"\t\t tree v2.1.0 %[1]s 1996 - 2022 by Steve Baker and Thomas Moore <br>\n" +
	"\t\t HTML output hacked and copyleft %[1]s 1998 by Francesc Rocher <br>\n" +
	"\t\t JSON output hacked and copyleft %[1]s 2014 by Florian Sesser <br>\n" +
	"\t\t Charsets / OS/2 support %[1]s 2001 by Kyosuke Tokoro\n" +
	"\t</p>\n</body>\n</html>\n"

// treeHTMLHead is -H's page up to the listing: charset, copyright
// sign, title (twice).
const treeHTMLHead = `<!DOCTYPE html>
<html>
<head>
 <meta http-equiv="Content-Type" content="text/html; charset=%[1]s">
 <meta name="Author" content="Made by 'tree'">
 <meta name="GENERATOR" content="tree v2.1.0 %[2]s 1996 - 2022 by Steve Baker, Thomas Moore, Francesc Rocher, Florian Sesser, Kyosuke Tokoro">
 <title>%[3]s</title>
 <style type="text/css">
  BODY { font-family : monospace, sans-serif;  color: black;}
  P { font-family : monospace, sans-serif; color: black; margin:0px; padding: 0px;}
  A:visited { text-decoration : none; margin : 0px; padding : 0px;}
  A:link    { text-decoration : none; margin : 0px; padding : 0px;}
  A:hover   { text-decoration: underline; background-color : yellow; margin : 0px; padding : 0px;}
  A:active  { margin : 0px; padding : 0px;}
  .VERSION { font-size: small; font-family : arial, sans-serif; }
  .NORM  { color: black;  }
  .FIFO  { color: purple; }
  .CHAR  { color: yellow; }
  .DIR   { color: blue;   }
  .BLOCK { color: yellow; }
  .LINK  { color: aqua;   }
  .SOCK  { color: fuchsia;}
  .EXEC  { color: green;  }
 </style>
</head>
<body>
	<h1>%[3]s</h1><p>
`

// treeURLEncode is a path in an -H link: tree's reserved characters
// and the unprintable bytes as %XX, "&" as "&amp;".
func treeURLEncode(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '&':
			b.WriteString("&amp;")
		case strings.IndexByte(" \"#%<>[]^\\?+", c) >= 0 || c < 0x20 || c >= 0x7f:
			b.WriteString("%" + strings.ToUpper(hexByte(c)))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func hexByte(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}

// htmlClass is -C's class of an -H entry (a link's by its target).
func htmlClass(fi fs.FileInfo) string {
	if fi == nil {
		return "NORM"
	}
	m := fi.Mode()
	switch {
	case m.IsDir():
		return "DIR"
	case m.IsRegular() && m&0o111 != 0:
		return "EXEC"
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeSocket != 0:
		return "SOCK"
	}
	return "NORM"
}

// htmlIntro writes -H's head (--hintro's file instead, nothing when
// it cannot be read).
func (s *treeState) htmlIntro(w io.StringWriter) {
	if s.hintro != "" {
		if data, err := readWholeFile(s.env, s.hintro); err == nil {
			w.WriteString(string(data))
		}
		return
	}
	charset := s.charset
	if charset == "" {
		charset = "iso-8859-1"
		if s.utf {
			charset = "UTF-8"
		}
	}
	w.WriteString(fmt.Sprintf(treeHTMLHead, charset, s.copySign(), s.title))
}

// htmlOutro writes -H's foot (or --houtro's file).
func (s *treeState) htmlOutro(w io.StringWriter) {
	if s.houtro != "" {
		if data, err := readWholeFile(s.env, s.houtro); err == nil {
			w.WriteString(string(data))
		}
		return
	}
	w.WriteString(fmt.Sprintf(treeHTMLVersion, s.copySign()))
}

func (s *treeState) copySign() string {
	if s.utf {
		return "©"
	}
	return "(c)"
}

// htmlLead starts an -H line: a tab, then lead, unless -i.
func (s *treeState) htmlLead(lead string) {
	if !s.noIndent {
		s.out.WriteString("\t" + lead)
	}
}

// htmlMeta is the "[...]" field of -p, -s, ... with its blanks as
// &nbsp;.
func (s *treeState) htmlMeta(meta string) string {
	m := strings.TrimSuffix(meta, "  ")
	if m == "" {
		return ""
	}
	return strings.ReplaceAll(m, " ", "&nbsp;") + strings.Repeat("&nbsp;", 4)
}

// htmlLink is an -H entry's <a> element: shown is the name (the
// baseHREF for a root), dir the path it is listed under ("" for a
// root), fi what decides its class, n's comment --info's lines; page
// names -R's page in the link.
func (s *treeState) htmlLink(shown, dir string, fi fs.FileInfo, n *treeNode, root, page bool) string {
	var b strings.Builder
	b.WriteString("<a")
	if fi != nil {
		if s.colour {
			b.WriteString(` class="` + htmlClass(fi) + `"`)
		}
		if n != nil && n.comment != nil {
			b.WriteString(` title="` + treeXMLString(strings.Join(n.comment, "\n")) + `"`)
		}
		if !s.noLinks {
			b.WriteString(` href="` + s.host)
			if root {
				b.WriteString("/")
			} else {
				off := 0
				if len(dir) >= s.htmlDirLen {
					off = s.htmlDirLen
				}
				b.WriteString(treeURLEncode(dir[off:]) + "/" + treeURLEncode(shown))
				if page {
					b.WriteString("/" + treePage)
				}
				if n.dir {
					b.WriteString("/")
				}
			}
			b.WriteString(`"`)
		}
	}
	if root {
		shown = s.host
	}
	b.WriteString(">" + treeXMLString(shown) + "</a>")
	return b.String()
}

// treePage is the file -R writes into each directory at the level limit.
const treePage = "00Tree.html"

// writeHTML writes root n's line of -H's listing and the listing.
func (s *treeState) writeHTML(n *treeNode) {
	s.htmlIndent(0)
	s.htmlEntry(n, "", true, false)
	s.htmlList(n, 1)
}

// htmlEntry writes the rest of an -H line: meta, link, error.
func (s *treeState) htmlEntry(n *treeNode, dir string, root, page bool) {
	s.out.WriteString(s.htmlMeta(s.metaOf(n)))
	shown := n.name
	if !root && s.fullPath {
		shown = n.path
	}
	fi := n.target
	if n.link != "" && fi == nil {
		fi = n.info
	}
	s.out.WriteString(s.htmlLink(shown, dir, fi, n, root, page))
	if n.errMsg != "" {
		s.out.WriteString("  [" + n.errMsg + "]")
	}
	s.out.WriteString("<br>\n")
}

// htmlList writes the entries under n at level lev. A directory at
// -L's limit gets a page of its own (-R); from it on, the entries' links
// name the page, as tree 2.1's do.
func (s *treeState) htmlList(n *treeNode, lev int) {
	if len(n.kids) == 0 {
		return
	}
	for len(s.levels) < lev+2 {
		s.levels = append(s.levels, 0)
	}
	page := false
	for i, k := range n.kids {
		s.levels[lev] = 1
		if i == len(n.kids)-1 {
			s.levels[lev] = 2
		}
		s.count(k)
		s.htmlIndent(lev)
		if k.page {
			s.writePage(k, lev)
			page = true
		}
		s.htmlEntry(k, n.path, false, page)
		s.htmlList(k, lev+1)
	}
	s.levels[lev] = 0
}

// htmlIndent starts an -H line at level lev as tree 2.1's indent(): a
// column is a branch where no deeper level is being listed (tree keeps
// its levels across a -R page, whose columns then follow the page's
// place in the listing around it).
func (s *treeState) htmlIndent(lev int) {
	if s.noIndent {
		return
	}
	s.out.WriteString("\t")
	vert, branch, corner := strings.TrimSuffix(s.pipe, " "), strings.TrimSuffix(s.branch, " "), strings.TrimSuffix(s.last, " ")
	for i := 1; i <= lev && i < len(s.levels) && s.levels[i] != 0; i++ {
		deeper := i+1 < len(s.levels) && s.levels[i+1] != 0
		switch {
		case deeper && s.levels[i] == 1:
			s.out.WriteString(vert)
		case deeper:
			s.out.WriteString("&nbsp;&nbsp;&nbsp;")
		case s.levels[i] == 1:
			s.out.WriteString(branch)
		default:
			s.out.WriteString(corner)
		}
		s.out.WriteString(" ")
	}
}

// writePage writes -R's page of directory k (at level lev), a listing
// of its own with k as the root, to k/00Tree.html. Its counts are its
// own; tree's levels above lev are kept, and so is the root's length it
// sets (links after it are named from there: tree 2.1's).
func (s *treeState) writePage(k *treeNode, lev int) {
	name := k.path + "/" + treePage
	file, err := s.env.FS.OpenFile(s.env.Abs(name), os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
	if err != nil {
		s.env.Errorf("invalid filename '%s'", name)
		return
	}
	defer file.Close()
	saved := slices.Clone(s.levels[:lev+1])
	out, dirs, files, used := s.out, s.dirs, s.files, s.used
	s.out, s.dirs, s.files, s.used = &strings.Builder{}, 0, 0, 0
	s.run(file, []string{k.path}, !s.noReport)
	s.out, s.dirs, s.files, s.used = out, dirs, files, used
	copy(s.levels, saved)
}
