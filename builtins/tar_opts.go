package builtins

import (
	"archive/tar"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

// tarOwner is a forced --owner or --group: a name, an id, or both
// (NAME:ID).
type tarOwner struct {
	set  bool
	name string
	id   int
}

// parseTarOwner reads NAME[:ID]; a NAME all digits is an id (llmsh has
// no user database to name it, but 0 is root).
func parseTarOwner(v string) (tarOwner, bool) {
	name, idText, hasID := strings.Cut(v, ":")
	o := tarOwner{set: true, name: name}
	if hasID {
		n, err := strconv.Atoi(idText)
		if err != nil || n < 0 {
			return o, false
		}
		o.id = n
		return o, true
	}
	if n, err := strconv.Atoi(name); err == nil && n >= 0 {
		o.name, o.id = "", n
		if n == 0 {
			o.name = "root" // id 0 is root in every user database
		}
	}
	return o, true
}

// tarVCS is what --exclude-vcs excludes (GNU tar 1.34's list).
var tarVCS = []string{"CVS", ".cvsignore", "RCS", "SCCS", ".git", ".gitignore",
	".gitattributes", ".gitmodules", ".arch-ids", "{arch}", "=RELEASE-ID",
	"=meta-update", "=update", ".bzr", ".bzrignore", ".bzrtags", ".hg",
	".hgignore", ".hgtags", "_darcs"}

// tarFormats maps --format's words to the header format written.
var tarFormats = map[string]tar.Format{"gnu": tar.FormatGNU, "oldgnu": tar.FormatGNU,
	"ustar": tar.FormatUSTAR, "posix": tar.FormatPAX, "pax": tar.FormatPAX}

// tarFormatOpt handles --format and -H. v7, which archive/tar does not
// write, is written as ustar without owner and group names whose headers
// tarGNUBlocks makes GNU tar's v7 ones (no magic, no names, a regular
// file's type NUL).
func (s *tarState) tarFormatOpt(o *tarOpts) func(string, bool) error {
	return func(v string, _ bool) error {
		if v == "v7" {
			return s.tarOldArchive("", false)
		}
		f, ok := tarFormats[v]
		if !ok {
			o.badValue = true
			return &UsageError{Msg: v + ": Invalid archive format"}
		}
		s.format, s.v7 = f, false
		return nil
	}
}

// tooLong reports, as GNU tar does, a member that --format=ustar or v7
// cannot hold (a name of more than 100 bytes that cannot be split at a
// slash into 155 and 100, or any for v7; a link name of more than 100),
// which is then not dumped.
func (s *tarState) tooLong(hdr *tar.Header) bool {
	if s.format != tar.FormatUSTAR {
		return false
	}
	switch {
	case len(hdr.Linkname) > 100:
		s.fail("%s: link name is too long; not dumped", tarQuoteColon(hdr.Linkname))
	case s.v7 && len(hdr.Name) > 100:
		s.fail("%s: file name is too long (max 99); not dumped", tarQuoteColon(hdr.Name))
	case !s.v7 && !ustarSplits(hdr.Name):
		s.fail("%s: file name is too long (cannot be split); not dumped", tarQuoteColon(hdr.Name))
	default:
		return false
	}
	return true
}

// ustarSplits reports whether name fits a ustar header: in its 100 bytes,
// or split at a slash into a prefix of 155 and a name of 100 (as
// archive/tar splits it).
func ustarSplits(name string) bool {
	n := len(name)
	if n <= 100 {
		return true
	}
	if n > 156 {
		n = 156
	} else if name[n-1] == '/' {
		n--
	}
	i := strings.LastIndex(name[:n], "/")
	rest := len(name) - i - 1
	return i > 0 && rest > 0 && rest <= 100 && i <= 155
}

// tarOldArchive is --format=v7, --old-archive, --portability and, when
// creating, -o.
func (s *tarState) tarOldArchive(string, bool) error {
	s.format, s.v7 = tar.FormatUSTAR, true
	return nil
}

// tarMtimeOpt handles --mtime: a date, or the time of a file named
// with a leading '/' or '.'.
func (s *tarState) tarMtimeOpt(o *tarOpts) func(string, bool) error {
	return func(v string, _ bool) error {
		o.mtime = v
		return nil
	}
}

// resolveMtime turns --mtime's text into a time, once options are read
// (a file reference is relative to the working directory).
func (s *tarState) resolveMtime(v string) bool {
	if v == "" {
		return true
	}
	if strings.HasPrefix(v, "/") || strings.HasPrefix(v, ".") {
		fi, err := s.env.FS.Stat(s.env.Abs(v))
		if err != nil {
			s.env.Errorf("%s: Cannot stat: %s", tarQuoteColon(v), ErrText(err))
			s.env.Errorf("Error is not recoverable: exiting now")
			return false
		}
		t := fi.ModTime()
		s.mtime = &t
		return true
	}
	t, err := dateParse(v, time.Now(), dateLocation(s.env))
	if err != nil {
		// GNU substitutes the oldest time it can store; llmsh refuses.
		s.env.Errorf("Invalid date format %s", s.env.Quote(v))
		s.env.Errorf("Error is not recoverable: exiting now")
		return false
	}
	s.mtime = &t
	return true
}

// applyForced applies --owner, --group, --numeric-owner, --mode and
// --mtime to a header being created.
func (s *tarState) applyForced(hdr *tar.Header, isDir bool) {
	if s.owner.set {
		hdr.Uname, hdr.Uid = s.owner.name, s.owner.id
	}
	if s.group.set {
		hdr.Gname, hdr.Gid = s.group.name, s.group.id
	}
	if s.numericOwner {
		hdr.Uname, hdr.Gname = "", ""
	}
	if s.modeChanges != nil {
		hdr.Mode = int64(adjustMode(s.modeChanges, uint32(hdr.Mode), isDir, uint32(defaultUmask)))
	}
	if s.mtime != nil && (!s.clampMtime || hdr.ModTime.After(*s.mtime)) {
		hdr.ModTime = s.mtime.Truncate(time.Second)
	}
	if s.format != 0 {
		hdr.Format = s.format
	}
	if s.v7 {
		hdr.Uname, hdr.Gname = "", ""
	}
}

// oldFile decides, for -k, --skip-old-files and --keep-newer-files,
// whether the member name extracted to abs is left alone; true when it
// is (reported as GNU tar does).
func (s *tarState) oldFile(hdr *tar.Header, abs, orig string) bool {
	if s.old == "" {
		return false
	}
	fi, err := s.env.FS.Lstat(abs)
	if err != nil {
		return false
	}
	switch s.old {
	case "keep":
		if hdr.Typeflag == tar.TypeDir && fi.IsDir() {
			return false
		}
		s.fail("%s: Cannot open: File exists", tarQuoteColon(orig))
		return true
	case "skip":
		if s.verbose > 0 {
			s.env.Errorf("%s: skipping existing file", tarQuoteColon(strings.TrimSuffix(orig, "/")))
		}
		return true
	case "newer":
		if fi.IsDir() || fi.ModTime().Before(hdr.ModTime) {
			return false
		}
		s.env.Errorf("Current %s is newer or same age", s.env.Quote(orig))
		return true
	}
	return false
}

// missingProgram fails as GNU tar does when a compression or command
// program cannot be run: llmsh runs no host programs.
func (s *tarState) missingProgram(prog string) error {
	fmt.Fprintf(s.env.Stderr, "%s (child): %s: Cannot exec: No such file or directory\n", s.env.Name(), prog)
	fmt.Fprintf(s.env.Stderr, "%s (child): Error is not recoverable: exiting now\n", s.env.Name())
	s.env.Errorf("Child returned status 2")
	return errTarFatal
}

// vcsExcluded reports whether --exclude-vcs leaves name out.
func (s *tarState) vcsExcluded(name string) bool {
	if !s.excludeVCS {
		return false
	}
	base := path.Base(strings.TrimRight(name, "/"))
	for _, v := range tarVCS {
		if base == v {
			return true
		}
	}
	return false
}

// moreFlags adds the options of reproducible archives, of extraction
// over existing files, and the filters llmsh lacks.
func (s *tarState) moreFlags(f *Flags, o *tarOpts) {
	f.Func(0, "quoting-style", RequiredArg, "STYLE", "set name quoting style; see below for valid STYLE values", func(v string, _ bool) error {
		for i, n := range gnu.StyleNames {
			if n == v {
				s.quoting = gnu.Style(i)
				return nil
			}
		}
		if o.fatal == "" {
			o.fatal = "Unknown quoting style '" + v + "'. Try '" + s.env.Name() + " --quoting-style=help' to get a list.\n" +
				s.env.Name() + ": Error is not recoverable: exiting now"
		}
		return nil
	})
	// --owner and --group: an ID that is not a number is fatal, as GNU's.
	ownerOpt := func(dst *tarOwner) func(string, bool) error {
		return func(v string, _ bool) error {
			ow, ok := parseTarOwner(v)
			if !ok && o.fatal == "" {
				_, id, _ := strings.Cut(v, ":")
				o.fatal = id + ": Invalid owner or group ID\n" + s.env.Name() + ": Error is not recoverable: exiting now"
			}
			*dst = ow
			return nil
		}
	}
	f.Func(0, "owner", RequiredArg, "NAME", "force NAME as owner for added files (NAME[:UID]; a number is a UID)", ownerOpt(&s.owner))
	f.Func(0, "group", RequiredArg, "NAME", "force NAME as group for added files (NAME[:GID]; a number is a GID)", ownerOpt(&s.group))
	f.BoolVar(&s.numericOwner, 0, "numeric-owner", "always use numbers for user/group names")
	f.Func(0, "mode", RequiredArg, "CHANGES", "force (symbolic) mode CHANGES for added files", func(v string, _ bool) error {
		ch, ok := compileMode(v)
		if !ok && o.fatal == "" {
			o.fatal = "Invalid mode given on option\n" + s.env.Name() + ": Error is not recoverable: exiting now"
		}
		s.modeChanges = ch
		return nil
	})
	f.Func(0, "mtime", RequiredArg, "DATE-OR-FILE", "set mtime for added files from DATE-OR-FILE", s.tarMtimeOpt(o))
	f.BoolVar(&s.clampMtime, 0, "clamp-mtime", "only set time when the file is more recent than what was given with --mtime")
	f.Func(0, "sort", RequiredArg, "ORDER", "directory sorting order: none (default), name or inode (llmsh lists every directory in name order)", func(v string, _ bool) error {
		_, err := argmatch(s.env, v, []string{"none", "name", "inode"}, "--sort")
		if err != nil && o.fatal == "" {
			o.fatal = err.(*UsageError).Msg
		}
		return nil
	})
	f.Func('H', "format", RequiredArg, "FORMAT", "create archive of the given format: gnu, oldgnu, pax, posix, ustar or v7", s.tarFormatOpt(o))
	f.Func(0, "posix", NoArg, "", "same as --format=posix", func(string, bool) error { s.format, s.v7 = tar.FormatPAX, false; return nil })
	f.Func(0, "old-archive", NoArg, "", "same as --format=v7", s.tarOldArchive)
	f.Func(0, "portability", NoArg, "", "same as --format=v7", s.tarOldArchive)
	f.Func('k', "keep-old-files", NoArg, "", "don't replace existing files when extracting, treat them as errors", func(string, bool) error { s.old = "keep"; return nil })
	f.Func(0, "skip-old-files", NoArg, "", "don't replace existing files when extracting, silently skip over them", func(string, bool) error { s.old = "skip"; return nil })
	f.Func(0, "keep-newer-files", NoArg, "", "don't replace existing files that are newer than their archive copies", func(string, bool) error { s.old = "newer"; return nil })
	f.Func(0, "overwrite", NoArg, "", "overwrite existing files when extracting", func(string, bool) error { s.old = ""; return nil })
	f.Func(0, "no-recursion", NoArg, "", "avoid descending automatically in directories", func(string, bool) error { s.noRecursion = true; return nil })
	f.Func(0, "recursion", NoArg, "", "recurse into directories (default)", func(string, bool) error { s.noRecursion = false; return nil })
	f.BoolVar(&s.excludeVCS, 0, "exclude-vcs", "exclude version control system directories")
	f.BoolVar(&s.ignoreFailed, 0, "ignore-failed-read", "do not exit with nonzero on unreadable files")
	f.BoolVar(&s.showXformed, 0, "show-transformed-names", "show file or archive names after transformation")
	f.BoolVar(new(bool), 0, "same-owner", "try extracting files with the same ownership as exists in the archive (llmsh: files are always the user's)")
	f.BoolVar(new(bool), 0, "no-same-owner", "extract files as yourself (default for ordinary users)")
	for _, p := range []struct{ long, prog, help string }{
		{"zstd", "zstd", "filter the archive through zstd (llmsh has no zstd: fails)"},
		{"lzip", "lzip", "filter the archive through lzip (llmsh has no lzip: fails)"},
		{"lzma", "lzma", "filter the archive through lzma (llmsh has no lzma: fails)"},
		{"lzop", "lzop", "filter the archive through lzop (llmsh has no lzop: fails)"},
	} {
		f.Func(0, p.long, NoArg, "", p.help, func(string, bool) error { s.program = p.prog; return nil })
	}
	f.Func('I', "use-compress-program", RequiredArg, "PROG", "filter through PROG (llmsh runs no host programs: fails)", func(v string, _ bool) error {
		s.program = v
		return nil
	})
	f.Func(0, "to-command", RequiredArg, "COMMAND", "pipe extracted files to another program (llmsh runs no host programs: fails)", func(v string, _ bool) error {
		s.program = v
		return nil
	})
	s.noEffectFlags(f, o)
}

// noEffectFlags adds GNU tar's options that change nothing in what llmsh
// reads, writes or extracts (session 31: llmsh refused them): how the
// archive is read or sought, sparse files (vfsd writes no holes, and a
// file without holes is archived the same), metadata llmsh keeps none
// of, and how extraction replaces files and directories.
func (s *tarState) noEffectFlags(f *Flags, o *tarOpts) {
	none := func(string, bool) error { return nil }
	for _, n := range []struct {
		short      rune
		long, help string
	}{
		{'B', "read-full-records", "reblock as we read (llmsh: always)"},
		{'S', "sparse", "handle sparse files efficiently (llmsh: no effect)"},
		{'U', "unlink-first", "remove each file prior to extracting over it (llmsh: no effect)"},
		{'n', "seek", "archive is seekable (llmsh: no effect)"},
		{0, "no-seek", "archive is not seekable (llmsh: no effect)"},
		{0, "recursive-unlink", "empty hierarchies prior to extracting directory (llmsh: no effect)"},
		{0, "force-local", "archive file is local even if it has a colon (llmsh: always)"},
		{0, "restrict", "disable use of some potentially harmful options (llmsh: no effect)"},
		{0, "overwrite-dir", "overwrite metadata of existing directories when extracting (default)"},
		{0, "no-overwrite-dir", "preserve metadata of existing directories (llmsh: no effect)"},
		{0, "keep-directory-symlink", "preserve existing symlinks to directories when extracting (llmsh: no effect)"},
		{0, "delay-directory-restore", "delay setting modification times and permissions of extracted directories (llmsh: no effect)"},
		{0, "no-delay-directory-restore", "cancel the effect of --delay-directory-restore option"},
		{0, "check-device", "check device numbers when creating incremental archives (llmsh: no effect)"},
		{0, "no-check-device", "do not check device numbers when creating incremental archives"},
		{0, "ignore-command-error", "ignore exit codes of children (llmsh: no effect)"},
		{0, "no-ignore-command-error", "treat non-zero exit codes of children as error"},
		{0, "no-acls", "disable the POSIX ACLs support"},
		{0, "no-selinux", "disable the SELinux context support"},
		{0, "no-xattrs", "disable extended attributes support"},
	} {
		f.Func(n.short, n.long, NoArg, "", n.help, none)
	}
	f.Func(0, "atime-preserve", OptionalArg, "METHOD", "preserve access times on dumped files (llmsh: no effect)", func(v string, present bool) error {
		if !present {
			return nil
		}
		if _, err := argmatch(s.env, v, []string{"replace", "system"}, "--atime-preserve"); err != nil && o.fatal == "" {
			o.fatal = err.(*UsageError).Msg
		}
		return nil
	})
}

// openAppend opens the archive for -r and -u: read to its end-of-archive
// blocks (recording each member's time for -u), the file positioned
// there for the new members.
func (s *tarState) openAppend() (File, error) {
	env := s.env
	f, err := env.FS.OpenFile(env.Abs(s.file), os.O_RDWR|os.O_CREATE)
	if err != nil {
		s.fail("%s: Cannot open: %s", tarQuoteColon(s.file), ErrText(err))
		return nil, errTarFatal
	}
	br := bufio.NewReader(tarCtxReader{s, f})
	if magic, _ := br.Peek(6); bytes.HasPrefix(magic, []byte("\x1f\x8b")) || bytes.HasPrefix(magic, []byte("BZh")) ||
		bytes.HasPrefix(magic, []byte("\xfd7zXZ\x00")) {
		f.Close()
		env.Errorf("Cannot update compressed archives")
		return nil, errTarFatal
	}
	raw := &tarCounter{r: br}
	tr := tar.NewReader(raw)
	s.members = map[string]time.Time{}
	var end int64
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err == nil {
			s.members[strings.TrimSuffix(hdr.Name, "/")] = hdr.ModTime
			_, err = io.Copy(io.Discard, tr)
		}
		if err != nil {
			f.Close()
			if errors.Is(err, gnu.ErrCancelled) {
				return nil, err
			}
			s.fail("This does not look like a tar archive")
			return nil, errTarFatal
		}
		end = (raw.n + 511) &^ 511
	}
	if _, err := f.Seek(end, io.SeekStart); err != nil {
		f.Close()
		s.fail("%s: Cannot seek: %s", tarQuoteColon(s.file), ErrText(err))
		return nil, errTarFatal
	}
	s.archive, s.appendAt = env.Abs(s.file), end
	return f, nil
}

// notNewer reports, for -u, whether the archive holds name with a time
// not older than the file's: it is not added again.
func (s *tarState) notNewer(name string, mtime time.Time) bool {
	if s.mode != 'u' {
		return false
	}
	t, ok := s.members[strings.TrimSuffix(name, "/")]
	return ok && !mtime.Truncate(time.Second).After(t)
}

// tarTag is an --exclude-tag* or --exclude-caches* option: a directory
// holding file (for caches, a CACHEDIR.TAG with its signature) is
// archived without its contents but file ("contents"), empty ("under"),
// or not at all ("all").
type tarTag struct {
	file, keep string
	cache      bool
}

// tarCacheSig begins a cache directory tag.
const tarCacheSig = "Signature: 8a477f597d28d172789f06886806bc55"

// addTag handles --exclude-tag* and --exclude-caches*.
func (s *tarState) addTag(file, keep string, cache bool) func(string, bool) error {
	return func(v string, _ bool) error {
		if !cache {
			file = v
		}
		s.tags = append(s.tags, tarTag{file, keep, cache})
		return nil
	}
}

// dirTag is the first tag the directory abs holds.
func (s *tarState) dirTag(abs string) (tarTag, bool) {
	for _, t := range s.tags {
		p := path.Join(abs, t.file)
		fi, err := s.env.FS.Lstat(p)
		if err != nil {
			continue
		}
		if t.cache {
			if !fi.Mode().IsRegular() {
				continue
			}
			if !s.hasCacheSig(p) {
				continue
			}
		}
		return t, true
	}
	return tarTag{}, false
}

// tagged archives what a tagged directory keeps after its header (written
// unless keep is "all").
func (s *tarState) tagged(tw *tar.Writer, t tarTag, shown, name string) error {
	what := "contents"
	if t.keep == "all" {
		what = "directory"
	}
	s.env.Errorf("%s/: contains a cache directory tag %s; %s not dumped", tarQuoteColon(strings.TrimSuffix(shown, "/")), t.file, what)
	if t.keep != "contents" {
		return nil
	}
	return s.addPath(tw, joinPath(shown, t.file), joinPath(strings.TrimSuffix(name, "/"), t.file), false)
}

// tarFlagsMore adds the tag, removal and name options.
func (s *tarState) tarFlagsMore(f *Flags) {
	f.Func(0, "exclude-caches", NoArg, "", "exclude contents of directories containing CACHEDIR.TAG, except for the tag file itself", s.addTag("CACHEDIR.TAG", "contents", true))
	f.Func(0, "exclude-caches-under", NoArg, "", "exclude everything under directories containing CACHEDIR.TAG", s.addTag("CACHEDIR.TAG", "under", true))
	f.Func(0, "exclude-caches-all", NoArg, "", "exclude directories containing CACHEDIR.TAG", s.addTag("CACHEDIR.TAG", "all", true))
	f.Func(0, "exclude-tag", RequiredArg, "FILE", "exclude contents of directories containing FILE, except for FILE itself", s.addTag("", "contents", false))
	f.Func(0, "exclude-tag-under", RequiredArg, "FILE", "exclude everything under directories containing FILE", s.addTag("", "under", false))
	f.Func(0, "exclude-tag-all", RequiredArg, "FILE", "exclude directories containing FILE", s.addTag("", "all", false))
	f.BoolVar(&s.removeFiles, 0, "remove-files", "remove files after adding them to the archive")
}

// removeAdded removes, for --remove-files, what was archived: files
// first, then directories deepest first.
func (s *tarState) removeAdded() {
	for i := len(s.added) - 1; i >= 0; i-- {
		a := s.added[i]
		if err := s.env.FS.Remove(a.abs); err != nil && !errors.Is(err, fs.ErrNotExist) {
			s.fail("%s: Cannot %s: %s", tarQuoteColon(a.shown), map[bool]string{true: "rmdir", false: "unlink"}[a.dir], ErrText(err))
		}
	}
}

// hasCacheSig reports whether the file abs begins with tarCacheSig.
func (s *tarState) hasCacheSig(abs string) bool {
	buf := make([]byte, len(tarCacheSig))
	n, _, ok, err := s.env.ReadHead(abs, buf)
	if !ok {
		f, ferr := s.env.FS.OpenFile(abs, os.O_RDONLY)
		if ferr != nil {
			return false
		}
		defer f.Close()
		n, err = io.ReadFull(f, buf)
	}
	return err == nil && string(buf[:n]) == tarCacheSig
}

// markAdded records, for --remove-files, a file archived.
func (s *tarState) markAdded(abs, shown string, dir bool) {
	if s.removeFiles {
		s.added = append(s.added, tarAdded{abs, shown, dir})
	}
}

// tarPattern is an exclusion pattern, with the --anchored and
// --wildcards settings in force where it was given.
type tarPattern struct {
	match    func(string) bool
	anchored bool
	// after: an --exclude given after this many operands applies, with
	// -c, only to the operands from that one on (GNU tar 1.34).
	after int
}

// pattern makes an exclusion pattern under the current settings.
func (s *tarState) pattern(v string) tarPattern {
	if s.noWildcards {
		return tarPattern{match: func(name string) bool { return name == v }, anchored: s.anchored}
	}
	return tarPattern{match: findGlob(v, false), anchored: s.anchored}
}

// match tells whether the member name is selected by the operands
// (exactly with --no-recursion, as globs with --wildcards), marking in
// found the operands it matches.
func (s *tarState) match(name string, operands []string, found []bool) bool {
	if !s.wildcards {
		return tarMatch(name, operands, found, s.noRecursion)
	}
	_, rest := tarUnsafePrefix(name)
	clean := strings.TrimRight(rest, "/")
	match := false
	for i, op := range operands {
		g := findGlob(strings.TrimRight(op, "/"), false)
		ok := g(clean)
		for j := 0; !ok && !s.noRecursion && j < len(clean); j++ {
			ok = clean[j] == '/' && g(clean[:j])
		}
		if ok {
			found[i], match = true, true
		}
	}
	return match
}

// tarFlagsNames adds the options of name matching.
func (s *tarState) tarFlagsNames(f *Flags) {
	f.Func(0, "wildcards", NoArg, "", "use wildcards (for names to list or extract)", func(string, bool) error {
		s.wildcards = true
		return nil
	})
	f.Func(0, "no-wildcards", NoArg, "", "verbatim string matching (for the --exclude patterns that follow)", func(string, bool) error {
		s.wildcards, s.noWildcards = false, true
		return nil
	})
	f.Func(0, "anchored", NoArg, "", "patterns match file name start (for the --exclude patterns that follow)", func(string, bool) error { s.anchored = true; return nil })
	f.Func(0, "no-anchored", NoArg, "", "patterns match after any '/' (default for exclusion)", func(string, bool) error { s.anchored = false; return nil })
}

// tarTopSuffixes are the archive suffixes --one-top-level removes to
// name its directory.
var tarTopSuffixes = []string{".tar", ".taz", ".tgz", ".tbz", ".tbz2", ".tz2", ".txz", ".tlz", ".tzst",
	".tar.gz", ".tar.Z", ".tar.bz2", ".tar.xz", ".tar.lz", ".tar.lzma", ".tar.lzo", ".tar.zst"}

// resolveTop names --one-top-level's directory from the archive when
// the option gave none; false (reported) when it cannot.
func (s *tarState) resolveTop() bool {
	if s.topLevel != "\x00" {
		return true
	}
	base := path.Base(s.file)
	s.topLevel = ""
	best := 0 // the longest suffix found
	for _, x := range tarTopSuffixes {
		if strings.HasSuffix(base, x) && len(base) > len(x) && len(x) > best {
			best, s.topLevel = len(x), base[:len(base)-len(x)]
		}
	}
	if s.topLevel == "" || s.file == "-" {
		tarUsageError(s.env, "Cannot deduce top-level directory name; please set it explicitly with --one-top-level=DIR")
		return false
	}
	return true
}

// oneTopLevel puts an extracted name under --one-top-level's directory
// unless it is there already.
func (s *tarState) oneTopLevel(name string) string {
	if s.topLevel == "" || s.mode != 'x' {
		return name
	}
	top := strings.TrimRight(s.topLevel, "/")
	if strings.TrimRight(name, "/") == top || strings.HasPrefix(name, top+"/") {
		return name
	}
	return top + "/" + name
}

// tarFlagsPaths adds -P and --one-top-level.
func (s *tarState) tarFlagsPaths(f *Flags) {
	f.BoolVar(&s.absNames, 'P', "absolute-names", "don't strip leading '/'s from file names")
	f.Func(0, "one-top-level", OptionalArg, "DIR", "create a subdirectory to avoid having loose files extracted", func(v string, has bool) error {
		if !has || v == "" {
			v = "\x00"
		}
		s.topLevel = v
		return nil
	})
}

// tarSink receives the bytes the archive reader consumes: held while a
// header is read (its member not decided yet), else passed to to.
type tarSink struct {
	hold bool
	buf  []byte
	to   io.Writer
}

func (k *tarSink) Write(p []byte) (int, error) {
	if k.hold {
		k.buf = append(k.buf, p...)
		return len(p), nil
	}
	return k.to.Write(p)
}

// deleteMembers copies the archive without the members the operands
// name (--delete), its bytes otherwise unchanged: to standard output
// from standard input with -f -, else through a new file renamed over
// the archive.
func (s *tarState) deleteMembers(operands []string) error {
	in, out, commit, err := s.deleteFiles()
	if err != nil {
		return err
	}
	cw := &tarCountWriter{w: bufio.NewWriterSize(tarCtxWriter{s, out}, tarRecord)}
	sink := &tarSink{to: io.Discard}
	raw := &tarCounter{r: io.TeeReader(bufio.NewReader(tarCtxReader{s, in}), sink)}
	tr := tar.NewReader(raw)
	found := make([]bool, len(operands))
	var prevEnd int64
	prevTo := io.Writer(io.Discard)
	for first := true; ; first = false {
		sink.hold, sink.buf = true, sink.buf[:0]
		hdr, err := tr.Next()
		pad := min(int((prevEnd+511)&^511-prevEnd), len(sink.buf))
		if _, werr := prevTo.Write(sink.buf[:pad]); werr != nil {
			return commit(werr)
		}
		if err == io.EOF && !first {
			break
		}
		if err != nil {
			if errors.Is(err, gnu.ErrCancelled) {
				return commit(err)
			}
			s.fail("This does not look like a tar archive")
			return commit(errTarFatal)
		}
		prevTo = cw
		if s.match(hdr.Name, operands, found) {
			prevTo = io.Discard
		}
		if _, werr := prevTo.Write(sink.buf[pad:]); werr != nil {
			return commit(werr)
		}
		sink.hold, sink.to = false, prevTo
		if _, err := io.Copy(io.Discard, tr); err != nil {
			if errors.Is(err, gnu.ErrCancelled) {
				return commit(err)
			}
			var we gnu.WriteError
			if !errors.As(err, &we) {
				s.fail("Unexpected EOF in archive")
				return commit(errTarFatal)
			}
			return commit(err)
		}
		prevEnd = raw.n
	}
	if err := tarZeros(cw, s.pad(cw.n, 1024)); err != nil {
		return commit(err)
	}
	if err := cw.w.(*bufio.Writer).Flush(); err != nil {
		return commit(err)
	}
	s.deleteTotals(raw.n, cw.n, found)
	for i, op := range operands {
		if !found[i] {
			s.fail("%s: Not found in archive", tarQuoteColon(op))
		}
	}
	return commit(nil)
}

// deleteFiles opens --delete's input and output; commit closes them and,
// when err is nil, puts the new archive in place of the old.
func (s *tarState) deleteFiles() (in io.Reader, out io.Writer, commit func(error) error, err error) {
	env := s.env
	if s.file == "-" {
		return env.Stdin, env.Stdout, s.writeFailure, nil
	}
	abs := env.Abs(s.file)
	inF, err := env.FS.OpenFile(abs, os.O_RDONLY)
	if err != nil {
		s.fail("%s: Cannot open: %s", tarQuoteColon(s.file), ErrText(err))
		return nil, nil, nil, errTarFatal
	}
	tmp := path.Join(path.Dir(abs), "."+path.Base(abs)+".llmsh-delete")
	outF, err := File(nil), error(syscall.EEXIST)
	if _, serr := env.FS.Lstat(tmp); serr != nil {
		outF, err = env.FS.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
	}
	if err != nil {
		inF.Close()
		s.fail("%s: Cannot open: %s", tarQuoteColon(s.file), ErrText(err))
		return nil, nil, nil, errTarFatal
	}
	commit = func(err error) error {
		inF.Close()
		if cerr := outF.Close(); err == nil && cerr != nil {
			err = gnu.WriteError{Err: cerr}
		}
		if err == nil {
			err = env.FS.Rename(tmp, abs)
			if err != nil {
				err = gnu.WriteError{Err: err}
			}
		}
		if err != nil {
			env.FS.Remove(tmp)
		}
		return s.writeFailure(err)
	}
	return inF, outF, commit, nil
}

// concatenate appends the members of the archives operands (-A): each
// one's bytes up to its end-of-archive blocks, the last one's whole.
func (s *tarState) concatenate(operands []string) error {
	f, err := s.openAppend()
	if err != nil {
		return err
	}
	cw := &tarCountWriter{w: bufio.NewWriterSize(tarCtxWriter{s, f}, tarRecord), n: s.appendAt}
	for _, op := range operands {
		if err := s.concatOne(cw, op); err != nil {
			f.Close()
			return s.writeFailure(err)
		}
	}
	err = tarZeros(cw, s.pad(cw.n, 1024))
	s.totals.wrote = cw.n - s.appendAt + s.appendAt%s.recordSize() // as for -r
	if err == nil {
		err = cw.w.(*bufio.Writer).Flush()
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = gnu.WriteError{Err: cerr}
	}
	return s.writeFailure(err)
}

// concatOne copies the archive op to w, checking its members, as GNU tar
// copies each operand of -A: the whole file, its end-of-archive blocks
// and padding too, rounded up to a block. So, as with GNU's, the members
// of an archive after the first one appended in one call are behind end
// blocks (tar -i reads them).
func (s *tarState) concatOne(w io.Writer, op string) error {
	env := s.env
	in, err := env.FS.OpenFile(env.Abs(op), os.O_RDONLY)
	if err != nil {
		s.fail("%s: Cannot open: %s", tarQuoteColon(op), ErrText(err))
		return nil
	}
	defer in.Close()
	sink := &tarSink{to: w}
	raw := &tarCounter{r: io.TeeReader(bufio.NewReader(tarCtxReader{s, in}), sink)}
	tr := tar.NewReader(raw)
	var prevEnd int64
	for first := true; ; first = false {
		sink.hold, sink.buf = true, sink.buf[:0]
		hdr, err := tr.Next()
		pad := min(int((prevEnd+511)&^511-prevEnd), len(sink.buf))
		if _, werr := w.Write(sink.buf[:pad]); werr != nil {
			return werr
		}
		if err == io.EOF && !first {
			if _, werr := w.Write(sink.buf[pad:]); werr != nil {
				return werr
			}
			sink.hold = false
			if _, err := io.Copy(io.Discard, raw); err != nil {
				return err
			}
			return tarZeros(w, -raw.n&511)
		}
		if err != nil || hdr == nil {
			if errors.Is(err, gnu.ErrCancelled) {
				return err
			}
			s.fail("This does not look like a tar archive")
			return nil
		}
		if _, werr := w.Write(sink.buf[pad:]); werr != nil {
			return werr
		}
		sink.hold = false
		if _, err := io.Copy(io.Discard, tr); err != nil {
			var we gnu.WriteError
			if errors.As(err, &we) || errors.Is(err, gnu.ErrCancelled) {
				return err
			}
			s.fail("Unexpected EOF in archive")
			return errTarFatal
		}
		prevEnd = raw.n
	}
}

// tarFlagsSmall adds options of extraction times, listings and file
// systems that need no machinery of their own.
func (s *tarState) tarFlagsSmall(f *Flags) {
	f.BoolVar(&s.touch, 'm', "touch", "don't extract file modified time")
	f.BoolVar(&s.ignoreZeros, 'i', "ignore-zeros", "ignore zeroed blocks in archive (means EOF)")
	f.BoolVar(&s.fullTime, 0, "full-time", "print file time to its full resolution")
	f.BoolVar(new(bool), 0, "utc", "print file modification times in UTC (llmsh always does)")
	f.Func('o', "", NoArg, "", "when creating, same as --old-archive; when extracting, same as --no-same-owner (llmsh's way)", s.tarOldArchive)
	f.Func(0, "no-auto-compress", NoArg, "", "do not use archive suffix to determine the compression program", func(string, bool) error { s.auto = false; return nil })
	f.BoolVar(new(bool), 0, "one-file-system", "stay in local file system when creating archive (llmsh's granted trees are one)")
}
