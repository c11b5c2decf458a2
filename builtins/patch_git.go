package builtins

import (
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// gitHeader is what the extended header lines of a "diff --git" block
// say, as GNU patch 2.7 reads them: a rename or copy, a file created or
// deleted (possibly empty, so with no hunk), a new mode.
type gitHeader struct {
	oldName, newName string // from the "diff --git a/X b/Y" line
	rename, copy     bool
	newFile, deleted bool
	oldMode, newMode uint32 // 0 when not given
}

// acts reports whether g asks for more than the hunks do.
func (g *gitHeader) acts() bool {
	return g != nil && (g.rename || g.copy || g.newFile || g.deleted || g.newMode != 0 && g.newMode != g.oldMode)
}

// parseGitHeader reads the last "diff --git" block of leading, nil when
// there is none or its names cannot be split.
func parseGitHeader(leading []string) *gitHeader {
	start := -1
	for i, l := range leading {
		if strings.HasPrefix(l, "diff --git ") {
			start = i
		}
	}
	if start < 0 {
		return nil
	}
	names := strings.TrimRight(leading[start][len("diff --git "):], "\r")
	g := &gitHeader{}
	if f := strings.Fields(names); len(f) == 2 {
		g.oldName, g.newName = f[0], f[1]
	} else if i := strings.LastIndex(names, " b/"); i > 0 {
		g.oldName, g.newName = names[:i], names[i+1:]
	} else {
		return nil
	}
	mode := func(s string) uint32 {
		m, err := strconv.ParseUint(strings.TrimSpace(s), 8, 32)
		if err != nil {
			return 0
		}
		return uint32(m)
	}
	for _, l := range leading[start+1:] {
		l = strings.TrimRight(l, "\r")
		switch {
		case strings.HasPrefix(l, "rename from "), strings.HasPrefix(l, "rename to "):
			g.rename = true
		case strings.HasPrefix(l, "copy from "), strings.HasPrefix(l, "copy to "):
			g.copy = true
		case strings.HasPrefix(l, "new file mode "):
			g.newFile, g.newMode = true, mode(l[len("new file mode "):])
		case strings.HasPrefix(l, "deleted file mode "):
			g.deleted, g.oldMode = true, mode(l[len("deleted file mode "):])
		case strings.HasPrefix(l, "old mode "):
			g.oldMode = mode(l[len("old mode "):])
		case strings.HasPrefix(l, "new mode "):
			g.newMode = mode(l[len("new mode "):])
		}
	}
	return g
}

// gitOnly appends to out the file patch of a "diff --git" block in
// leading that had no hunks but asks for something (GNU patch applies a
// rename, a mode or an empty file alone).
func gitOnly(out []*filePatch, leading []string) []*filePatch {
	g := parseGitHeader(leading)
	if !g.acts() {
		return out
	}
	return append(out, &filePatch{oldName: g.oldName, newName: g.newName, git: g, leading: leading})
}

// gitNames are the names a git header's file patch reads and writes,
// stripped by -p and swapped under -R; "" for a dangerous one.
func (p *patcher) gitNames(g *gitHeader) (src, dst string) {
	src, dst = p.stripName(g.oldName), p.stripName(g.newName)
	if p.reverse {
		src, dst = dst, src
	}
	for _, n := range []*string{&src, &dst} {
		if *n != "" && dangerousName(*n) {
			fmt.Fprintf(p.out, "Ignoring potentially dangerous file name %s\n", *n)
			*n = ""
		}
	}
	return src, dst
}

// gitRename names the source and target of fp's rename or copy, and how
// ("renamed" or "copied"); how is "" when fp is neither.
func (p *patcher) gitRename(fp *filePatch) (src, dst, how string) {
	g := fp.git
	if g == nil || !g.rename && !g.copy {
		return "", "", ""
	}
	if src, dst = p.gitNames(g); src == "" || dst == "" || src == dst {
		return "", "", ""
	}
	if g.rename {
		return src, dst, "renamed"
	}
	return src, dst, "copied"
}

// gitFinish completes what fp's git header asks once target is written:
// it removes name when the patch renamed it and sets target's new mode.
func (p *patcher) gitFinish(fp *filePatch, name, target string, renamed bool) int {
	env := p.env
	if renamed {
		if err := env.FS.Remove(env.Abs(name)); err != nil {
			return p.fatal("Can't remove file %s : %s", name, ErrText(err))
		}
		p.removeEmptyDirs(name)
	}
	g := fp.git
	if g == nil {
		return 0
	}
	m := g.newMode
	if p.reverse {
		m = g.oldMode
	}
	if m&0o170000 == 0o100000 || m != 0 && m < 0o10000 {
		if err := env.FS.Chmod(env.Abs(target), fs.FileMode(m&0o777)); err != nil {
			return p.fatal("Can't set permissions on file %s : %s", target, ErrText(err))
		}
	}
	return 0
}

// applyGit applies a git header with no hunks: a rename or copy, an
// empty file created or deleted, or a mode change alone.
func (p *patcher) applyGit(fp *filePatch) int {
	env, g := p.env, fp.git
	newFile, deleted := g.newFile, g.deleted
	if p.reverse {
		newFile, deleted = deleted, newFile
	}
	src, dst, how := p.gitRename(fp)
	if how == "" {
		src, dst = p.gitNames(g)
	}
	name := dst
	if deleted {
		name = src
	}
	if name == "" {
		return 1
	}
	note := ""
	if how != "" {
		if !p.exists(src) {
			what := "rename"
			if how == "copied" {
				what = "copy"
			}
			fmt.Fprintf(p.out, "Cannot %s file without two valid file names\n", what)
			return 1
		}
		note = " (" + how + " from " + src + ")"
	}
	fmt.Fprintf(p.out, "%s file %s%s\n", p.verb(), patchQuote(name), note)
	if p.dryRun {
		return 0
	}
	switch {
	case how != "":
		r, err := env.Open(src)
		if err != nil {
			return p.fatal("Can't open file %s : %s", src, ErrText(err))
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			return p.fatal("Can't open file %s : %s", src, ErrText(err))
		}
		if err := p.writeFile(dst, data); err != nil {
			return p.fatal("Can't create file %s : %s", dst, ErrText(err))
		}
	case newFile:
		if err := p.writeFile(dst, nil); err != nil {
			return p.fatal("Can't create file %s : %s", dst, ErrText(err))
		}
	case deleted:
		if err := env.FS.Remove(env.Abs(src)); err != nil {
			return p.fatal("Can't remove file %s : %s", src, ErrText(err))
		}
		p.removeEmptyDirs(src)
		return 0
	}
	return p.gitFinish(fp, src, name, how == "renamed")
}

// removeEmptyDirs removes the directories that removing name left empty,
// up to the working directory, as GNU patch does.
func (p *patcher) removeEmptyDirs(name string) {
	if strings.HasPrefix(name, "/") {
		return
	}
	for dir := path.Dir(name); dir != "." && dir != "/"; dir = path.Dir(dir) {
		if p.env.FS.Remove(p.env.Abs(dir)) != nil {
			return
		}
	}
}
