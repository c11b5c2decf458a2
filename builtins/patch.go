package builtins

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "patch", Summary: "apply a diff file to an original", Run: patch})

const patchSummary = `Apply a diff file to an original.

Unified, context (diff -c) and normal diffs are understood (a normal diff
needs ORIGFILE). A hunk is placed where its context matches
exactly, searching outward from the line the diff names, or with up to
--fuzz context lines ignored (default 2) as GNU patch does. Failed hunks
are saved to FILE.rej; when a hunk does not apply cleanly the original is
kept as FILE.orig. With --merge, a hunk that does not apply exactly is
merged where its old lines match best, and where the file changed the
same lines the hunk does, both versions are left between conflict
markers (status 1). File names in the diff that are absolute or contain
'..' are ignored.`

// patchLine is one line of a hunk: ' ' context, '-' deleted, '+' added.
type patchLine struct {
	kind  byte
	text  []byte
	noEOL bool // followed by "\ No newline at end of file"
}

type patchHunk struct {
	oldStart, oldLen int
	newStart, newLen int
	lines            []patchLine
	inputLine        int // line number of the @@ header
}

// filePatch is the part of a diff about one file.
type filePatch struct {
	oldName, newName string // as written, before stripping
	oldTime, newTime string // what follows the name (after a tab), if anything
	leading          []string
	hunks            []*patchHunk
	err              error      // the diff is malformed after these hunks
	normal           bool       // a normal diff (no file names, no context)
	git              *gitHeader // what the "diff --git" lines before it say
	context          bool       // a context diff (diff -c)
}

// parseContextRange parses "N" or "N,M" after a context hunk's "*** "
// or "--- ", before the trailing stars or dashes.
func parseContextRange(s, prefix string) (int, int, bool) {
	rest, ok := strings.CutPrefix(s, prefix)
	if !ok {
		return 0, 0, false
	}
	if i := strings.IndexByte(rest, ' '); i >= 0 {
		rest = rest[:i]
	}
	a, b, two := strings.Cut(rest, ",")
	x, err := strconv.Atoi(a)
	if err != nil || x < 0 {
		return 0, 0, false
	}
	y := x
	if two {
		if y, err = strconv.Atoi(b); err != nil || y < x {
			return 0, 0, false
		}
	}
	return x, y, true
}

// parseContextHunk parses one hunk of a context diff starting at lines[i]
// (the "*** a,b" line) into unified form; it returns the index after it.
func parseContextHunk(lines []string, i int) (*patchHunk, int, error) {
	malformed := func(i int) error {
		if i >= len(lines) {
			return errors.New("unexpected end of file in patch")
		}
		return fmt.Errorf("malformed patch at line %d: %s\n", i+1, lines[i])
	}
	if i >= len(lines) {
		return nil, i, malformed(i)
	}
	o1, o2, ok := parseContextRange(lines[i], "*** ")
	if !ok {
		return nil, i, malformed(i)
	}
	h := &patchHunk{inputLine: i + 1}
	i++
	section := func() []patchLine {
		var sec []patchLine
		for i < len(lines) {
			l := lines[i]
			if strings.HasPrefix(l, "\\") {
				if n := len(sec); n > 0 {
					sec[n-1].noEOL = true
				}
				i++
				continue
			}
			if len(l) < 2 || l[1] != ' ' || strings.IndexByte(" -+!", l[0]) < 0 {
				break
			}
			sec = append(sec, patchLine{kind: l[0], text: []byte(l[2:])})
			i++
		}
		return sec
	}
	oldSec := section()
	if i >= len(lines) {
		return nil, i, malformed(i)
	}
	n1, n2, ok := parseContextRange(lines[i], "--- ")
	if !ok {
		return nil, i, malformed(i)
	}
	i++
	newSec := section()
	// An omitted section holds only the context of the other one.
	if len(oldSec) == 0 {
		for _, l := range newSec {
			if l.kind == ' ' {
				oldSec = append(oldSec, l)
			}
		}
	}
	if len(newSec) == 0 {
		for _, l := range oldSec {
			if l.kind == ' ' {
				newSec = append(newSec, l)
			}
		}
	}
	a, b := 0, 0
	for a < len(oldSec) || b < len(newSec) {
		switch {
		case a < len(oldSec) && oldSec[a].kind == '-':
			h.lines = append(h.lines, oldSec[a])
			a++
		case b < len(newSec) && newSec[b].kind == '+':
			h.lines = append(h.lines, newSec[b])
			b++
		case a < len(oldSec) && oldSec[a].kind == '!' || b < len(newSec) && newSec[b].kind == '!':
			for ; a < len(oldSec) && oldSec[a].kind == '!'; a++ {
				l := oldSec[a]
				l.kind = '-'
				h.lines = append(h.lines, l)
			}
			for ; b < len(newSec) && newSec[b].kind == '!'; b++ {
				l := newSec[b]
				l.kind = '+'
				h.lines = append(h.lines, l)
			}
		case a < len(oldSec) && b < len(newSec):
			h.lines = append(h.lines, oldSec[a])
			a++
			b++
		default:
			return nil, i, malformed(i - 1)
		}
	}
	for _, l := range h.lines {
		switch l.kind {
		case ' ':
			h.oldLen++
			h.newLen++
		case '-':
			h.oldLen++
		case '+':
			h.newLen++
		}
	}
	// An empty range names the line before it, as in unified diffs.
	h.oldStart, h.newStart = o1, n1
	_, _ = o2, n2
	return h, i, nil
}

// parseNormalCommand parses a normal diff command such as "2,3c2,4",
// "5a7" or "6d5" into an empty hunk.
func parseNormalCommand(s string) (*patchHunk, byte, bool) {
	num := func(s string) (int, string, bool) {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 || i > 9 {
			return 0, s, false
		}
		n, _ := strconv.Atoi(s[:i])
		return n, s[i:], true
	}
	rng := func(s string) (int, int, string, bool) {
		a, rest, ok := num(s)
		if !ok {
			return 0, 0, s, false
		}
		b := a
		if strings.HasPrefix(rest, ",") {
			if b, rest, ok = num(rest[1:]); !ok || b < a {
				return 0, 0, s, false
			}
		}
		return a, b, rest, true
	}
	a1, a2, rest, ok := rng(s)
	if !ok || rest == "" || strings.IndexByte("acd", rest[0]) < 0 {
		return nil, 0, false
	}
	cmd := rest[0]
	b1, b2, rest, ok := rng(rest[1:])
	if !ok || rest != "" {
		return nil, 0, false
	}
	h := &patchHunk{oldStart: a1, oldLen: a2 - a1 + 1, newStart: b1, newLen: b2 - b1 + 1}
	switch cmd {
	case 'a':
		if a1 != a2 {
			return nil, 0, false
		}
		h.oldLen = 0
	case 'd':
		if b1 != b2 {
			return nil, 0, false
		}
		h.newLen = 0
	}
	return h, cmd, true
}

// pattern returns the lines a hunk expects in the file (context and
// deleted lines, or context and added lines when reversed).
func (h *patchHunk) pattern(reverse bool) []patchLine {
	drop := byte('+')
	if reverse {
		drop = '-'
	}
	var p []patchLine
	for _, l := range h.lines {
		if l.kind != drop {
			p = append(p, l)
		}
	}
	return p
}

// contextLens returns the number of leading and trailing context lines.
func (h *patchHunk) contextLens() (prefix, suffix int) {
	for prefix < len(h.lines) && h.lines[prefix].kind == ' ' {
		prefix++
	}
	if prefix == len(h.lines) {
		return prefix, prefix
	}
	for suffix < len(h.lines) && h.lines[len(h.lines)-1-suffix].kind == ' ' {
		suffix++
	}
	return prefix, suffix
}

// reversed returns the hunk with old and new swapped.
func (h *patchHunk) reversed() *patchHunk {
	r := &patchHunk{oldStart: h.newStart, oldLen: h.newLen, newStart: h.oldStart, newLen: h.oldLen, inputLine: h.inputLine}
	for _, l := range h.lines {
		switch l.kind {
		case '-':
			l.kind = '+'
		case '+':
			l.kind = '-'
		}
		r.lines = append(r.lines, l)
	}
	// Keep deletions before additions within each run of changes.
	for i := 0; i < len(r.lines); {
		if r.lines[i].kind == ' ' {
			i++
			continue
		}
		j := i
		for j < len(r.lines) && r.lines[j].kind != ' ' {
			j++
		}
		var del, add []patchLine
		for _, l := range r.lines[i:j] {
			if l.kind == '-' {
				del = append(del, l)
			} else {
				add = append(add, l)
			}
		}
		copy(r.lines[i:], append(del, add...))
		i = j
	}
	return r
}

var errPatchGarbage = errors.New("Only garbage was found in the patch input.")

// parseHunkHeader parses "@@ -a,b +c,d @@".
func parseHunkHeader(s string) (*patchHunk, bool) {
	rest, ok := strings.CutPrefix(s, "@@ -")
	if !ok {
		return nil, false
	}
	oldR, rest, ok := strings.Cut(rest, " +")
	if !ok {
		return nil, false
	}
	newR, _, ok := strings.Cut(rest, " @@")
	if !ok {
		return nil, false
	}
	rng := func(r string) (int, int, bool) {
		a, b, two := strings.Cut(r, ",")
		start, err := strconv.Atoi(a)
		if err != nil || start < 0 {
			return 0, 0, false
		}
		n := 1
		if two {
			if n, err = strconv.Atoi(b); err != nil || n < 0 {
				return 0, 0, false
			}
		}
		return start, n, true
	}
	h := &patchHunk{}
	var ok1, ok2 bool
	h.oldStart, h.oldLen, ok1 = rng(oldR)
	h.newStart, h.newLen, ok2 = rng(newR)
	return h, ok1 && ok2
}

// parsePatch splits a unified diff into file patches. named says that
// the file to patch was given: hunks with no header then patch it, as
// GNU patch takes them.
func parsePatch(data []byte, named bool) ([]*filePatch, error) {
	var lines []string
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			lines = append(lines, string(data))
			break
		}
		lines = append(lines, string(data[:i]))
		data = data[i+1:]
	}
	var out []*filePatch
	var leading []string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		var fp *filePatch
		switch {
		case strings.HasPrefix(l, "diff --git "):
			// A git diff without hunks (a rename, a mode, an empty
			// file) is a file patch of its own.
			if n := len(out); len(gitOnly(out, leading)) > n {
				out, leading = gitOnly(out, leading), nil
			}
			leading = append(leading, l)
			continue
		case strings.HasPrefix(l, "--- ") && i+2 < len(lines) && strings.HasPrefix(lines[i+1], "+++ ") && strings.HasPrefix(lines[i+2], "@@ -"):
			fp, i = parseUnifiedFile(lines, i, leading)
		case strings.HasPrefix(l, "*** ") && i+2 < len(lines) && strings.HasPrefix(lines[i+1], "--- ") && strings.HasPrefix(lines[i+2], "***************"):
			fp, i = parseContextFile(lines, i, leading)
		case (strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "+++ ")) && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "@@ -"):
			// One header line is enough for GNU patch.
			fp = &filePatch{git: parseGitHeader(leading), leading: append(leading, l)}
			if l[0] == '-' {
				fp.oldName, fp.oldTime = patchSplitName(l[4:])
			} else {
				fp.newName, fp.newTime = patchSplitName(l[4:])
			}
			i = parseUnifiedHunks(fp, lines, i+1)
		case named && strings.HasPrefix(l, "@@ -"):
			if _, ok := parseHunkHeader(l); !ok {
				leading = append(leading, l)
				continue
			}
			fp = &filePatch{leading: leading}
			i = parseUnifiedHunks(fp, lines, i)
		default:
			if _, _, ok := parseNormalCommand(l); !ok {
				leading = append(leading, l)
				continue
			}
			fp, i = parseNormalFile(lines, i, leading)
		}
		leading = nil
		out = append(out, fp)
		if fp.err != nil {
			return out, nil
		}
		i--
	}
	out = gitOnly(out, leading)
	if len(out) == 0 {
		for _, l := range lines {
			if strings.TrimSpace(l) != "" {
				return nil, errPatchGarbage
			}
		}
	}
	return out, nil
}

// patchSplitName splits a header's name from its time stamp. A name in
// double quotes is C-quoted (as diff and git write names with spaces).
func patchSplitName(s string) (string, string) {
	s = strings.TrimRight(s, "\r")
	if name, rest, ok := patchUnquote(s); ok {
		return name, strings.TrimLeft(rest, " \t")
	}
	if name, t, ok := strings.Cut(s, "\t"); ok {
		return name, t
	}
	// Without a tab before the time stamp, a space ends the name.
	if name, t, ok := strings.Cut(s, " "); ok {
		return name, strings.TrimLeft(t, " ")
	}
	return s, ""
}

// patchUnquote reads the C-quoted name at the start of s ("a/my
// file.txt"), and what follows it; ok is false when s does not start
// with one.
func patchUnquote(s string) (name, rest string, ok bool) {
	if !strings.HasPrefix(s, "\"") {
		return "", s, false
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			return b.String(), s[i+1:], true
		case c != '\\' || i+1 == len(s):
			b.WriteByte(c)
		case s[i+1] >= '0' && s[i+1] <= '7' && i+3 < len(s):
			n, err := strconv.ParseUint(s[i+1:i+4], 8, 8)
			if err != nil {
				return "", s, false
			}
			b.WriteByte(byte(n))
			i += 3
		default:
			i++
			if e := strings.IndexByte(`abfnrtv`, s[i]); e >= 0 {
				b.WriteByte("\a\b\f\n\r\t\v"[e])
			} else {
				b.WriteByte(s[i])
			}
		}
	}
	return "", s, false
}

// patchEpoch reports whether a header's time stamp is the Epoch, which
// diff -N writes for a missing file ("1970-01-01 00:00:00.000000000
// +0000", in any zone): GNU patch takes the file as nonexistent.
func patchEpoch(stamp string) bool {
	for _, layout := range []string{"2006-01-02 15:04:05.999999999 -0700", "2006-01-02 15:04:05 -0700", "Mon Jan _2 15:04:05 2006"} {
		if t, err := time.Parse(layout, strings.TrimSpace(stamp)); err == nil {
			return t.Unix() == 0
		}
	}
	return false
}

// patchHeader starts the file patch whose two header lines are lines[i]
// and lines[i+1], after the lines leading.
func patchHeader(fp *filePatch, lines []string, i int, leading []string) *filePatch {
	fp.oldName, fp.oldTime = patchSplitName(lines[i][4:])
	fp.newName, fp.newTime = patchSplitName(lines[i+1][4:])
	fp.git = parseGitHeader(leading)
	fp.leading = append(leading, lines[i], lines[i+1])
	return fp
}

// parseUnifiedFile parses the unified diff of one file at lines[i]; it
// returns the index of the line after it.
func parseUnifiedFile(lines []string, i int, leading []string) (*filePatch, int) {
	fp := patchHeader(&filePatch{}, lines, i, leading)
	return fp, parseUnifiedHunks(fp, lines, i+2)
}

// parseUnifiedHunks reads fp's hunks from lines[i:]; it returns the
// index of the line after them.
func parseUnifiedHunks(fp *filePatch, lines []string, i int) int {
	for i < len(lines) {
		h, ok := parseHunkHeader(lines[i])
		if !ok {
			break
		}
		h.inputLine = i + 1
		if i, fp.err = parseUnifiedHunk(h, lines, i+1); fp.err != nil {
			return i
		}
		fp.hunks = append(fp.hunks, h)
	}
	return i
}

// parseUnifiedHunk reads h's lines from lines[i:]; it returns the index of
// the line after them. It follows GNU patch 2.7's reader, so a hunk whose
// counts do not match its lines (as hand-written diffs often are) is taken
// or refused as GNU takes or refuses it: a line starting with a tab or an
// empty line is context (the space eaten), input that ends with at most
// three new lines missing is padded with blank context lines (a mailer
// chopped them), a line that overflows the counts is malformed, and so is
// a hunk without a change.
func parseUnifiedHunk(h *patchHunk, lines []string, i int) (int, error) {
	oldN, newN := 0, 0
	changed := false
	last := ""
	malformed := func(line int, text string) error {
		// GNU prints the line with its newline, then one more.
		return fmt.Errorf("malformed patch at line %d: %s\n", line, text)
	}
	for oldN < h.oldLen || newN < h.newLen {
		var t string
		line := i
		if i < len(lines) {
			// Lines keep a CR: a CRLF file is patched by a CRLF diff.
			t = lines[i]
			i++
		} else if h.newLen-newN < 4 {
			t, line = " ", len(lines)-1 // a blank line chopped at the end
		} else {
			return i, errors.New("unexpected end of file in patch")
		}
		last = t
		var kind byte
		var text string
		switch {
		case t == "":
			kind = ' '
		case t[0] == '\t':
			kind, text = ' ', t
		default:
			kind, text = t[0], t[1:]
		}
		switch kind {
		case '-', ' ':
			if oldN >= h.oldLen || kind == ' ' && newN >= h.newLen {
				return i, malformed(line+1, t)
			}
			oldN++
		case '+':
			if newN >= h.newLen {
				return i, malformed(line+1, t)
			}
		default:
			return i, malformed(line+1, t)
		}
		if kind != '-' {
			newN++
		}
		changed = changed || kind != ' '
		h.lines = append(h.lines, patchLine{kind: kind, text: []byte(text)})
		// "\ No newline at end of file" may follow the last old line
		// and the last new line.
		if (kind != '+' && oldN == h.oldLen || kind != '-' && newN == h.newLen) &&
			i < len(lines) && strings.HasPrefix(lines[i], "\\") {
			h.lines[len(h.lines)-1].noEOL = true
			i++
		}
	}
	if !changed {
		return i, malformed(i, last)
	}
	return i, nil
}

// parseContextFile parses the context diff of one file at lines[i]; it
// returns the index of the line after it.
func parseContextFile(lines []string, i int, leading []string) (*filePatch, int) {
	fp := patchHeader(&filePatch{context: true}, lines, i, leading)
	i += 2
	for i < len(lines) && strings.HasPrefix(lines[i], "***************") {
		h, next, err := parseContextHunk(lines, i+1)
		if err != nil {
			fp.err = err
			return fp, i
		}
		fp.hunks = append(fp.hunks, h)
		i = next
	}
	return fp, i
}

// parseNormalFile parses the normal diff at lines[i]; it returns the index
// of the line after it.
func parseNormalFile(lines []string, i int, leading []string) (*filePatch, int) {
	fp := &filePatch{normal: true, leading: leading}
	for i < len(lines) {
		h, cmd, ok := parseNormalCommand(lines[i])
		if !ok {
			break
		}
		h.inputLine = i + 1
		i++
		take := func(n int, mark string, kind byte) bool {
			for ; n > 0; n-- {
				if i >= len(lines) || !strings.HasPrefix(lines[i], mark) {
					return false
				}
				h.lines = append(h.lines, patchLine{kind: kind, text: []byte(lines[i][len(mark):])})
				i++
				if i < len(lines) && strings.HasPrefix(lines[i], "\\") {
					h.lines[len(h.lines)-1].noEOL = true
					i++
				}
			}
			return true
		}
		ok = take(h.oldLen, "< ", '-')
		if ok && cmd == 'c' {
			if i < len(lines) && lines[i] == "---" {
				i++
			} else {
				ok = false
			}
		}
		ok = ok && take(h.newLen, "> ", '+')
		if !ok {
			if i < len(lines) {
				fp.err = fmt.Errorf("malformed patch at line %d: %s\n", i+1, lines[i])
			} else {
				fp.err = errors.New("unexpected end of file in patch")
			}
			return fp, i
		}
		fp.hunks = append(fp.hunks, h)
	}
	return fp, i
}

// patcher holds one run of patch.
type patcher struct {
	env      *Env
	define   string // -D NAME: changes merged as #ifdef NAME
	defines  bool   // -D given (NAME may be empty)
	out      *bufio.Writer
	strip    int // -1: not given (basename)
	reverse  bool
	forward  bool
	ignoreWS bool // -l: runs of blanks match any runs of blanks
	force    bool // -f: never take a patch for a reversed one
	batch    bool // -t: apply a reversed patch reversed
	dryRun   bool
	fuzz     int
	origFile string
	outFile  string
	// -b, --no-backup-if-mismatch: backups of the originals, named by
	// -B, -Y, -z and -V (backupName).
	backup, noBackupIfMismatch     bool
	backupPrefix, backupBasePrefix string
	backupSuffix                   string // -z: "" when not given
	backupKind                     int    // -V: backupSimple, backupExisting or backupNumbered
	simpleSuffix                   string // .orig, or $SIMPLE_BACKUP_SUFFIX
	rejFile                        string // -r; "-" discards rejects
	removeEmpty                    bool   // -E
	flipped                        bool   // -t: this file's patch is applied the other way
	// -f: this file's patch deletes a file that does not exist and is
	// applied anyway, to an empty one.
	anyway bool
	// summary is where the count of failed hunks goes: patch's output,
	// even under -s, which silences the rest.
	summary io.Writer
	// -Z, -T: set the patched file's times from the header (setTime),
	// its stamps without a zone read in UTC (setUTC) or the local zone.
	setTime, setUTC bool
	verbose         bool // --verbose: GNU's "Hmm..." lines, each hunk's place, "done"
	silent          bool // -s
	merge           int  // --merge's style, mergeNone without it
}

// patchCmdOpts is what patch's options select besides the patcher's own
// settings.
type patchCmdOpts struct {
	input             string // -i, or the PATCHFILE operand
	inputSet          bool
	dir               string // -d
	dirSet            bool
	ed, silent        bool
	badStrip, badFuzz *string // a -p or -F that is not a number
	badMerge          bool    // --merge=STYLE of no style
	control           string  // -V
	controlSet        bool
	emptyBackup       string // the message for the first empty -B, -Y or -z
}

// emptyBackupArg notes the first empty -B, -Y or -z: GNU patch stops
// there.
func (o *patchCmdOpts) emptyBackupArg(v, msg string) error {
	if v == "" && o.emptyBackup == "" && o.badStrip == nil && o.badFuzz == nil {
		o.emptyBackup = msg
	}
	return nil
}

func patch(env *Env) int {
	p := &patcher{env: env, strip: -1, fuzz: 2}
	var o patchCmdOpts
	f := p.flags(env, &o)
	version := shortHelpVersion(f, 0, 'v') // GNU patch's -v
	ops, err := f.Parse(env.Args[1:])
	if err != nil {
		if msg, ok := usageMessage(err); ok {
			fmt.Fprintf(env.Stderr, "%s: %s\n%s: Try '%s --help' for more information.\n", env.Name(), msg, env.Name(), env.Name())
			return 2
		}
		return f.Fail(err, 2)
	}
	if *version {
		return printVersion(env)
	}
	if o.badMerge {
		// GNU patch prints its usage hint alone.
		fmt.Fprintf(env.Stderr, "patch: Try 'patch --help' for more information.\n")
		return 2
	}
	if o.emptyBackup != "" {
		fmt.Fprintf(env.Stderr, "patch: **** %s\n", o.emptyBackup)
		return 2
	}
	if !p.backupControl(&o) {
		return 2
	}
	if o.badStrip != nil {
		fmt.Fprintf(env.Stderr, "patch: **** strip count %s is not a number\n", patchQuote(*o.badStrip))
		return 2
	}
	if o.badFuzz != nil {
		fmt.Fprintf(env.Stderr, "patch: **** fuzz factor %s is not a number\n", patchQuote(*o.badFuzz))
		return 2
	}
	if len(ops) > 2 {
		fmt.Fprintf(env.Stderr, "patch: %s: extra operand\npatch: Try 'patch --help' for more information.\n", ops[2])
		return 2
	}
	if len(ops) > 0 {
		p.origFile = ops[0]
	}
	if len(ops) > 1 {
		o.input, o.inputSet = ops[1], true
	}
	return p.run(&o)
}

// flags is patch's option table; it fills p and o.
func (p *patcher) flags(env *Env, o *patchCmdOpts) *Flags {
	f := NewFlags(env, patchSummary, "[OPTION]... [ORIGFILE [PATCHFILE]]")
	// GNU patch's sections, without coreutils' note on mandatory arguments.
	f.NoMandatoryNote = true
	f.Section("Input options:")
	f.Func('p', "strip", RequiredArg, "NUM", "strip NUM leading components from file names", func(v string, _ bool) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			o.badStrip = &v
			return nil
		}
		p.strip = n
		return nil
	})
	f.Func('F', "fuzz", RequiredArg, "LINES", "set the fuzz factor to LINES for inexact matching", func(v string, _ bool) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			o.badFuzz = &v
			return nil
		}
		p.fuzz = n
		return nil
	})
	// llmsh's patch tells the format of each diff itself: -c, -n and -u
	// say what it finds anyway
	var unified bool
	f.BoolVar(&unified, 'c', "context", "interpret the patch as a context difference (llmsh: found by itself)")
	f.BoolVar(&unified, 'n', "normal", "interpret the patch as a normal difference (llmsh: found by itself)")
	f.BoolVar(&unified, 'u', "unified", "interpret the patch as a unified difference")
	f.BoolVar(&unified, 0, "posix", "conform to the POSIX standard (llmsh: no effect)")
	f.Func('D', "ifdef", RequiredArg, "NAME", "make merged if-then-else output using NAME", func(v string, _ bool) error {
		p.define, p.defines = v, true
		return nil
	})
	f.BoolVar(&o.ed, 'e', "ed", "interpret the patch as an ed script (applied in-process; ed itself never runs)")
	f.BoolVar(&p.forward, 'N', "forward", "ignore patches that seem to be reversed or already applied")
	f.BoolVar(&p.ignoreWS, 'l', "ignore-whitespace", "ignore white space changes between patch and input")
	f.BoolVar(new(bool), 0, "binary", "read and write data in binary mode (llmsh: always)")
	f.BoolVar(&p.reverse, 'R', "reverse", "assume patches were created with old and new files swapped")
	f.Func('i', "input", RequiredArg, "PATCHFILE", "read patch from PATCHFILE instead of stdin", func(v string, _ bool) error {
		o.input, o.inputSet = v, true
		return nil
	})
	f.Section("Output options:")
	f.StringVar(&p.outFile, 'o', "output", "FILE", "output patched files to FILE")
	f.StringVar(&p.rejFile, 'r', "reject-file", "FILE", "output rejects to FILE ('-' discards them)")
	f.Func('m', "merge", OptionalLongArg, "STYLE", "merge using conflict markers instead of creating reject\nfiles (STYLE: merge, the default, or diff3)", func(v string, present bool) error {
		switch {
		case !present || v == "merge":
			p.merge = mergeMerge
		case v == "diff3":
			p.merge = mergeDiff3
		default:
			o.badMerge = true
		}
		return nil
	})
	f.BoolVar(&p.removeEmpty, 'E', "remove-empty-files", "remove output files that are empty after patching")
	f.Section("Backup and version control options:")
	f.BoolVar(&p.backup, 'b', "backup", "back up the original contents of each file (as FILE.orig)")
	f.Func(0, "backup-if-mismatch", NoArg, "", "back up if the patch does not match exactly (the default)", func(string, bool) error {
		p.noBackupIfMismatch = false
		return nil
	})
	f.BoolVar(&p.noBackupIfMismatch, 0, "no-backup-if-mismatch", "back up mismatches only if otherwise requested")
	f.Func('V', "version-control", RequiredArg, "STYLE", "use STYLE version control: simple, numbered, or existing", func(v string, _ bool) error {
		o.control, o.controlSet = v, true
		return nil
	})
	f.Func('B', "prefix", RequiredArg, "PREFIX", "prepend PREFIX to backup file names", func(v string, _ bool) error {
		p.backupPrefix = v
		return o.emptyBackupArg(v, "backup prefix is empty")
	})
	f.Func('Y', "basename-prefix", RequiredArg, "PREFIX", "prepend PREFIX to backup file basenames", func(v string, _ bool) error {
		p.backupBasePrefix = v
		return o.emptyBackupArg(v, "backup basename prefix is empty")
	})
	f.Func('z', "suffix", RequiredArg, "SUFFIX", "append SUFFIX to backup file names (instead of .orig)", func(v string, _ bool) error {
		p.backupSuffix = v
		return o.emptyBackupArg(v, "backup suffix is empty")
	})
	f.Section("Miscellaneous options:")
	f.BoolVar(&p.batch, 't', "batch", "ask no questions, and assume a patch that looks\nreversed is")
	f.BoolVar(&p.force, 'f', "force", "like -t, but ignore bad-Prereq patches, and assume\npatches are not reversed")
	// -s and --verbose set one level, as GNU's verbosity: the last wins.
	quiet := func(string, bool) error {
		o.silent, p.verbose, p.silent = true, false, true
		return nil
	}
	f.Func('s', "quiet", NoArg, "", "work silently, unless an error occurs", quiet)
	f.Func(0, "silent", NoArg, "", "", quiet)
	f.Func(0, "verbose", NoArg, "", "output extra information about the work being done", func(string, bool) error {
		o.silent, p.verbose, p.silent = false, true, false
		return nil
	})
	f.BoolVar(&p.dryRun, 0, "dry-run", "do not actually change any files; just print what would happen")
	f.Func('T', "set-time", NoArg, "", "set times of patched files, assuming diff uses local time", func(string, bool) error { p.setTime, p.setUTC = true, false; return nil })
	f.Func('Z', "set-utc", NoArg, "", "set times of patched files, assuming diff uses UTC (GMT)", func(string, bool) error { p.setTime, p.setUTC = true, true; return nil })
	f.Func('d', "directory", RequiredArg, "DIR", "change the working directory to DIR first", func(v string, _ bool) error {
		o.dir, o.dirSet = v, true
		return nil
	})
	return f
}

// run reads the patch and applies it.
func (p *patcher) run(o *patchCmdOpts) int {
	env := p.env
	if o.dirSet {
		abs := env.Abs(o.dir)
		fi, err := env.FS.Stat(abs)
		if err == nil && !fi.IsDir() {
			err = syscall.ENOTDIR
		}
		if err != nil {
			fmt.Fprintf(env.Stderr, "patch: **** Can't change to directory %s : %s\n", patchQuote(o.dir), ErrText(err))
			return 2
		}
		sub := *env
		sub.Dir = abs
		env = &sub
		p.env = env
	}
	var data []byte
	var err error
	if o.inputSet && o.input != "-" {
		r, oerr := env.Open(o.input)
		if oerr != nil {
			fmt.Fprintf(env.Stderr, "patch: **** Can't open patch file %s : %s\n", patchQuote(o.input), ErrText(oerr))
			return 2
		}
		data, err = readHeld(env, r) // held whole: one value
		r.Close()
	} else {
		data, err = readHeld(env, env.Stdin)
	}
	if err != nil {
		if !quietStop(err) {
			fmt.Fprintf(env.Stderr, "patch: **** read error : %s\n", ErrText(err))
		}
		return 2
	}
	w := io.Writer(env.Stdout)
	if p.outFile == "-" {
		// -o - writes the result on stdout: GNU says the rest on stderr.
		w = env.Stderr
	}
	p.summary = w // the failed hunks' count: said even under -s
	if o.silent {
		w = io.Discard
	}
	p.out = bufio.NewWriter(w)
	defer p.out.Flush()
	if o.ed || p.origFile != "" && looksLikeEd(data) {
		p.say("Hmm...  Looks like an ed script to me...\n")
		st := p.applyEd(data)
		if st < 2 {
			p.say("done\n")
		}
		return st
	}
	patches, err := parsePatch(data, p.origFile != "")
	if err != nil {
		if err == errPatchGarbage {
			p.say("Hmm...  I can't seem to find a patch in there anywhere.\n")
			p.out.Flush()
		}
		fmt.Fprintf(env.Stderr, "patch: **** %s\n", err)
		return 2
	}
	status := 0
	for i, fp := range patches {
		if env.Ctx.Err() != nil {
			return 2
		}
		p.sayKind(fp, i > 0)
		st := p.apply(fp)
		status = max(status, st)
		p.out.Flush()
		if st == 2 {
			return status
		}
	}
	p.say("done\n")
	return status
}

// say writes a line of --verbose's only.
func (p *patcher) say(text string) {
	if p.verbose {
		p.out.WriteString(text)
	}
}

// sayKind is --verbose's word on what fp is, with the text before it,
// as GNU patch's intuit_diff_type reports it.
func (p *patcher) sayKind(fp *filePatch, next bool) {
	if !p.verbose {
		return
	}
	kind := "a unified diff"
	switch {
	case fp.normal:
		kind = "a normal diff"
	case fp.context:
		kind = "a new-style context diff"
	}
	looks := "Looks like"
	if next {
		looks = "The next patch looks like"
	}
	fmt.Fprintf(p.out, "Hmm...  %s %s to me...\n", looks, kind)
	if len(fp.leading) > 0 {
		p.out.WriteString("The text leading up to this was:\n--------------------------\n")
		for _, l := range fp.leading {
			fmt.Fprintf(p.out, "|%s\n", l)
		}
		p.out.WriteString("--------------------------\n")
	}
}

// fatal reports a message of GNU patch's "****" kind, after the output
// so far, and returns status 2.
func (p *patcher) fatal(format string, args ...any) int {
	p.out.Flush()
	fmt.Fprintf(p.env.Stderr, "patch: **** "+format+"\n", args...)
	return 2
}

// stripName applies -p to a file name from the diff; "" means no usable
// name.
func (p *patcher) stripName(name string) string {
	if name == "" || name == "/dev/null" {
		return ""
	}
	if p.strip < 0 {
		return path.Base(name)
	}
	s := name
	for n := 0; n < p.strip; n++ {
		i := strings.IndexByte(s, '/')
		if i < 0 {
			return ""
		}
		s = strings.TrimLeft(s[i+1:], "/")
	}
	return s
}

func dangerousName(name string) bool {
	if strings.HasPrefix(name, "/") {
		return true
	}
	for _, c := range strings.Split(name, "/") {
		if c == ".." {
			return true
		}
	}
	return false
}

func (p *patcher) exists(name string) bool {
	fi, err := p.env.FS.Stat(p.env.Abs(name))
	return err == nil && !fi.IsDir()
}

// pickName chooses the file to patch as GNU patch does outside POSIX mode:
// among the names that exist, the one with the fewest components, then
// the shortest base name, then the shortest; "" if none does.
func pickName(names []string, ok func(string) bool) string {
	best := ""
	for _, n := range names {
		if n == "" || !ok(n) {
			continue
		}
		if best == "" {
			best = n
			continue
		}
		cb, cn := strings.Count(best, "/"), strings.Count(n, "/")
		bb, bn := len(path.Base(best)), len(path.Base(n))
		if cn < cb || cn == cb && (bn < bb || bn == bb && len(n) < len(best)) {
			best = n
		}
	}
	return best
}

// createName chooses the name of a file the patch creates as GNU patch
// does: of the names that need the fewest new directories, pickName's best.
func (p *patcher) createName(cands []string) string {
	newDirs := func(name string) int {
		n, exist := 0, 0
		for i := 0; i < len(name); i++ {
			if name[i] == '/' && i > 0 && name[i-1] != '/' {
				n++
				if exist == n-1 {
					if fi, err := p.env.FS.Stat(p.env.Abs(name[:i])); err == nil && fi.IsDir() {
						exist++
					}
				}
			}
		}
		return n - exist
	}
	least := -1
	for _, c := range cands {
		if c != "" && (least < 0 || newDirs(c) < least) {
			least = newDirs(c)
		}
	}
	return pickName(cands, func(c string) bool { return newDirs(c) == least })
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// applyFlipped applies fp the other way round: -t took it for a
// reversed patch.
func (p *patcher) applyFlipped(fp *filePatch) int {
	p.reverse, p.flipped = !p.reverse, true
	defer func() { p.reverse, p.flipped = !p.reverse, false }()
	return p.apply(fp)
}

// reversedHunks returns each hunk of hs reversed, in the same order.
func reversedHunks(hs []*patchHunk) []*patchHunk {
	rev := make([]*patchHunk, len(hs))
	for i, h := range hs {
		rev[i] = h.reversed()
	}
	return rev
}

func (p *patcher) apply(fp *filePatch) int {
	env := p.env
	if fp.git.acts() && len(fp.hunks) == 0 && fp.err == nil {
		return p.applyGit(fp)
	}
	hunks := fp.hunks
	if p.reverse {
		hunks = reversedHunks(hunks)
	}
	creates, deletes, saysOld, saysNew := p.sides(fp)
	p.anyway = false
	name, st := p.fileToPatch(fp, len(hunks), creates, saysOld, saysNew)
	if st < 0 {
		return p.applyFlipped(fp)
	}
	if name == "" {
		return st
	}
	orig, existed, st, missing := p.readOriginal(name, creates, saysOld)
	if st != 0 {
		return st
	}
	if creates && existed && len(orig) > 0 && !p.flipped {
		when := ""
		if p.reverse {
			when = ", when reversed,"
		}
		switch p.okToReverse(fmt.Sprintf("The next patch%s would create the file %s,\nwhich already exists!", when, name)) {
		case answerFlip:
			return p.applyFlipped(fp)
		case answerSkip:
			fmt.Fprintf(p.summary, "%d out of %d %s ignored\n", len(hunks), len(hunks), plural(len(hunks), "hunk"))
			return 1
		}
	}
	target, note, renamed := name, "", false
	if p.outFile != "" {
		target, note = p.outFile, " (read from "+name+")"
	} else if src, dst, how := p.gitRename(fp); how != "" {
		name, target, note, renamed = src, dst, " ("+how+" from "+src+")", how == "renamed"
	}
	fmt.Fprintf(p.out, "%s file %s%s\n", p.verb(), patchQuote(target), note)
	p.say("Using Plan A...\n")
	if fp.err != nil {
		// GNU patch reads hunks as it applies them: it names the file
		// before it meets the malformed line, and changes nothing.
		return p.fatal("%s", fp.err)
	}
	a := &hunkApplier{p: p, in: splitDiffLines(orig)}
	if !a.run(hunks) {
		return 2
	}
	if a.assumeR {
		hunks = reversedHunks(hunks)
		a = &hunkApplier{p: p, in: splitDiffLines(orig), noReversed: true}
		a.mismatch = true // GNU: the first hunk did not apply as it was
		if !a.run(hunks) {
			return 2
		}
	}
	out := a.output()
	status := a.mergeStatus()
	// GNU patch 2.7.6, when no hunk applies to a missing FILE, backs it
	// up as an empty one and then fails to copy it; without a backup it
	// only saves the rejects.
	none := missing != nil && len(a.failed) == len(hunks) && p.outFile == "" && !p.anyway
	if none && !p.dryRun {
		if p.backup || !p.noBackupIfMismatch {
			bak := p.backupName(name)
			if err := p.writeFile(bak, nil); err != nil {
				return p.fatal("Can't create file %s : %s", bak, ErrText(err))
			}
			return p.fatal("Can't reopen file %s : %s", name, ErrText(missing))
		}
	}
	if len(a.failed) > 0 {
		status = 1
		if st, done := p.reject(fp, a, len(hunks), target); done {
			return st
		}
	}
	if p.outFile == "-" {
		// Even under --dry-run, as GNU patch 2.7.6.
		p.out.Flush()
		if _, err := env.Stdout.Write(out); err != nil {
			return p.fatal("write error : %s", ErrText(err))
		}
		return status
	}
	if p.dryRun || none {
		return status
	}
	if p.outFile == "" && (p.backup || a.mismatch && (existed || missing != nil) && !p.noBackupIfMismatch) {
		if st := p.backupFiles(name, target, orig); st != 0 {
			return st
		}
	}
	if (deletes || p.removeEmpty) && len(out) == 0 && p.outFile == "" {
		if existed {
			if err := env.FS.Remove(env.Abs(target)); err != nil {
				return p.fatal("Can't remove file %s : %s", target, ErrText(err))
			}
			p.removeEmptyDirs(target)
		}
		return status
	}
	if st := p.writeTarget(fp, name, target, out, existed, a.mismatch || len(a.failed) > 0); st != 0 {
		return st
	}
	if st := p.gitFinish(fp, name, target, renamed); st != 0 {
		return st
	}
	return status
}

// writeTarget writes the patched text out to target, and with -Z or -T
// sets its times (mismatch: a hunk did not apply exactly).
func (p *patcher) writeTarget(fp *filePatch, name, target string, out []byte, existed, mismatch bool) int {
	var inStat fs.FileInfo
	if p.setTime && p.outFile == "" && existed {
		inStat, _ = p.env.FS.Stat(p.env.Abs(name))
	}
	if err := p.writeFile(target, out); err != nil {
		return p.fatal("Can't create file %s : %s", target, ErrText(err))
	}
	if p.setTime && p.outFile == "" {
		p.setTimes(fp, target, inStat, mismatch)
	}
	return 0
}

// setTimes is -Z/-T after target was written: GNU patch 2.7.6 gives it
// the time of the new side's header, unless (without -f) the old side's
// time is not the original's (inStat, nil for a file that was not
// there) or a hunk did not apply exactly.
func (p *patcher) setTimes(fp *filePatch, target string, inStat fs.FileInfo, mismatch bool) {
	oldStamp, newStamp := fp.oldTime, fp.newTime
	if p.reverse != p.flipped {
		oldStamp, newStamp = newStamp, oldStamp
	}
	newT, ok := p.headerTime(newStamp)
	if !ok {
		return
	}
	oldT, oldOK := p.headerTime(oldStamp)
	switch {
	case !p.force && inStat != nil && !patchEpoch(oldStamp) && oldOK && !oldT.Equal(inStat.ModTime()):
		fmt.Fprintf(p.out, "Not setting time of file %s (time mismatch)\n", patchQuote(target))
	case !p.force && mismatch:
		fmt.Fprintf(p.out, "Not setting time of file %s (contents mismatch)\n", patchQuote(target))
	default:
		p.env.FS.Chtimes(p.env.Abs(target), newT, newT)
	}
}

// headerTime reads a header's time stamp; one without a zone is in UTC
// (-Z) or the script's TZ (-T).
func (p *patcher) headerTime(stamp string) (time.Time, bool) {
	stamp = strings.TrimSpace(stamp)
	loc := time.UTC
	if !p.setUTC {
		loc = dateLocation(p.env)
	}
	for _, layout := range []string{"2006-01-02 15:04:05.999999999 -0700", "2006-01-02 15:04:05 -0700"} {
		if t, err := time.Parse(layout, stamp); err == nil {
			return t, true
		}
	}
	for _, layout := range []string{"2006-01-02 15:04:05.999999999", "Mon Jan _2 15:04:05 2006", "Mon Jan _2 15:04:05.999999999 2006"} {
		if t, err := time.ParseInLocation(layout, stamp, loc); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// readOriginal reads the file to patch. A missing one is an error unless
// the patch creates it (or its hunks say the old side does not exist), or
// it is the FILE operand, which is patched as empty (missing is then the
// error that says why it could not be opened).
func (p *patcher) readOriginal(name string, creates bool, saysOld int) (orig []byte, existed bool, st int, missing error) {
	r, err := p.env.Open(name)
	if err == nil {
		orig, err = readHeld(p.env, r) // held whole: one value
		r.Close()
		if quietStop(err) {
			return nil, false, 2, nil
		}
		if err != nil {
			return nil, false, p.fatal("Can't open file %s : %s", name, ErrText(err)), nil
		}
		return orig, true, 0, nil
	}
	if !creates && saysOld == 0 {
		if p.origFile == "" && !p.anyway || !errors.Is(err, fs.ErrNotExist) {
			return nil, false, p.fatal("Can't open file %s : %s", name, ErrText(err)), nil
		}
		return nil, false, 0, err
	}
	return nil, false, 0, nil
}

// backupFiles saves the original of name (orig) as its backup, and when
// a git rename or copy writes another file, target's too, as GNU patch
// does. A file that did not exist is backed up as an empty one.
func (p *patcher) backupFiles(name, target string, orig []byte) int {
	bak := p.backupName(name)
	if err := p.writeFile(bak, orig); err != nil {
		return p.fatal("Can't create file %s : %s", bak, ErrText(err))
	}
	if target == name {
		return 0
	}
	var old []byte
	if r, err := p.env.Open(target); err == nil {
		old, err = io.ReadAll(r)
		r.Close()
		if err != nil {
			return p.fatal("Can't open file %s : %s", target, ErrText(err))
		}
	}
	bak = p.backupName(target)
	if err := p.writeFile(bak, old); err != nil {
		return p.fatal("Can't create file %s : %s", bak, ErrText(err))
	}
	return 0
}

// patchQuote quotes a file name in patch's messages as GNU patch does
// (gnulib's shell quoting style: 'my file.txt').
func patchQuote(name string) string { return gnu.QuoteStyle(name, gnu.Shell) }

// verb is how patch names what it does to a file: "patching", or
// "checking" under --dry-run.
func (p *patcher) verb() string {
	if p.dryRun {
		return "checking"
	}
	return "patching"
}

// sides tells whether fp creates and whether it deletes its file, and
// saysNonexistent's levels of its old and new sides, all under -R.
func (p *patcher) sides(fp *filePatch) (creates, deletes bool, saysOld, saysNew int) {
	// /dev/null names a missing side only when the hunks agree that it
	// is empty (GNU's pch_says_nonexistent).
	oldEmpty, newEmpty := true, true
	for _, h := range fp.hunks {
		oldEmpty = oldEmpty && h.oldLen == 0
		newEmpty = newEmpty && h.newLen == 0
	}
	creates = (fp.oldName == "/dev/null" || patchEpoch(fp.oldTime)) && oldEmpty
	deletes = (fp.newName == "/dev/null" || patchEpoch(fp.newTime)) && newEmpty
	saysOld, saysNew = saysNonexistent(fp)
	if p.reverse {
		return deletes, creates, saysNew, saysOld
	}
	return creates, deletes, saysOld, saysNew
}

// saysNonexistent is GNU patch's p_says_nonexistent for the old and the
// new side of fp (before -R): 0 when the first hunk's range on that side
// does not start at line 0, 2 when it does and the side is /dev/null or
// dated at the Epoch, else 1: a diff that names the file it creates
// ("--- a/new.txt" over "@@ -0,0 +1,2 @@") creates it all the same.
func saysNonexistent(fp *filePatch) (old, new int) {
	if fp.normal || len(fp.hunks) == 0 {
		return 0, 0
	}
	level := func(start int, name, stamp string) int {
		switch {
		case start != 0:
			return 0
		case name == "/dev/null" || patchEpoch(stamp):
			return 2
		}
		return 1
	}
	h := fp.hunks[0]
	return level(h.oldStart, fp.oldName, fp.oldTime), level(h.newStart, fp.newName, fp.newTime)
}

// fileToPatch names the file fp patches, "" with the status to return
// when there is none (nhunks being the number of hunks then ignored), or
// status -1 when -t takes the patch for a reversed one.
// saysOld and saysNew are saysNonexistent's, swapped under -R.
func (p *patcher) fileToPatch(fp *filePatch, nhunks int, creates bool, saysOld, saysNew int) (string, int) {
	if p.origFile != "" {
		return p.origFile, 0
	}
	if fp.normal {
		// A normal diff names no file: GNU patch, asking no questions,
		// finds nothing it can use.
		return "", p.fatal("%s", errPatchGarbage)
	}
	var cands []string
	seen := map[string]bool{}
	for _, n := range []string{fp.oldName, fp.newName} {
		s := p.stripName(n)
		if s != "" && dangerousName(s) {
			if !seen[s] {
				fmt.Fprintf(p.out, "Ignoring potentially dangerous file name %s\n", s)
				seen[s] = true
			}
			s = ""
		}
		cands = append(cands, s)
	}
	name := pickName(cands, p.exists)
	if name == "" && !creates && saysNew > 0 && !(saysNew == 1 && saysOld == 2) {
		// GNU's maybe_reverse: a patch that deletes a file that does
		// not exist looks reversed.
		last := ""
		for _, c := range cands {
			if c != "" {
				last = c
			}
		}
		if last != "" && !p.flipped {
			when := ""
			if p.reverse {
				when = ", when reversed,"
			}
			switch p.okToReverse(fmt.Sprintf("The next patch%s would delete the file %s,\nwhich does not exist!", when, last)) {
			case answerFlip:
				return "", -1
			case answerAnyway:
				p.anyway = true
				return last, 0
			}
			fmt.Fprintf(p.summary, "%d out of %d %s ignored\n", nhunks, nhunks, plural(nhunks, "hunk"))
			return "", 1
		}
	}
	if name == "" && (creates || saysOld > 0) {
		name = p.createName(cands)
	}
	if name != "" {
		return name, 0
	}
	line := 0
	if len(fp.hunks) > 0 {
		line = fp.hunks[0].inputLine
	}
	fmt.Fprintf(p.out, "can't find file to patch at input line %d\n", line)
	if p.strip < 0 {
		fmt.Fprintf(p.out, "Perhaps you should have used the -p or --strip option?\n")
	} else {
		fmt.Fprintf(p.out, "Perhaps you used the wrong -p or --strip option?\n")
	}
	// GNU says the text before the patch and asks its questions even
	// under -s; -f and -t ask none.
	p.out.Flush()
	s := p.summary
	fmt.Fprintf(s, "The text leading up to this was:\n--------------------------\n")
	for _, l := range fp.leading {
		fmt.Fprintf(s, "|%s\n", l)
	}
	fmt.Fprintf(s, "--------------------------\n")
	p.noFileToPatch()
	fmt.Fprintf(s, "%d out of %d %s ignored\n", nhunks, nhunks, plural(nhunks, "hunk"))
	return "", 1
}

// noFileToPatch is GNU patch's answer when it finds no file to patch:
// a question it answers itself, or none under -f and -t.
func (p *patcher) noFileToPatch() {
	if p.force || p.batch {
		fmt.Fprintf(p.summary, "No file to patch.  Skipping patch.\n")
		return
	}
	fmt.Fprintf(p.summary, "File to patch: \nSkip this patch? [y] \n")
	p.skipping()
}

// reject reports a's failed hunks and saves them; done tells that the
// patch of this file ends there with status st.
func (p *patcher) reject(fp *filePatch, a *hunkApplier, nhunks int, target string) (st int, done bool) {
	ignoredMsg := a.ignoredMsg
	if ignoredMsg == "" {
		ignoredMsg = "FAILED"
	}
	msg := fmt.Sprintf("%d out of %d %s %s", len(a.failed), nhunks, plural(nhunks, "hunk"), ignoredMsg)
	rej := target + ".rej"
	if p.rejFile != "" {
		rej = p.rejFile
	}
	p.out.Flush()
	if p.dryRun || rej == "-" {
		fmt.Fprintf(p.summary, "%s\n", msg)
	} else {
		fmt.Fprintf(p.summary, "%s -- saving rejects to file %s\n", msg, rej)
		// Rejects are saved as they were tried: reversed under -R.
		if err := p.writeRejects(rej, fp, a.failed, p.reverse); err != nil {
			return p.fatal("Can't create file %s : %s", rej, ErrText(err)), true
		}
	}
	if !a.skipRest {
		return 1, false
	}
	if p.outFile != "" && !p.dryRun {
		// GNU patch has already created the output file.
		if err := p.writeFile(p.outFile, nil); err != nil {
			return p.fatal("Can't create file %s : %s", p.outFile, ErrText(err)), true
		}
	}
	return 1, true
}

// hunkApplier applies one file's hunks to its lines.
type hunkApplier struct {
	p           *patcher
	in          *diffFile
	result      [][]byte
	resultNoEOL bool
	inPos       int // next input line (0-based) not yet copied
	lastOffset  int
	netAdded    int // lines added minus lines deleted by the hunks applied so far
	mismatch    bool
	failed      []rejHunk
	skipRest    bool   // a reversed patch: the rest is not tried
	assumeR     bool   // -t: it is, and is to be applied reversed
	noReversed  bool   // the hunks are applied reversed already (-t)
	ignoredMsg  string // "ignored" then
	conflicts   bool   // --merge wrote conflict markers
}

// differentEndings is GNU patch's check_line_endings: whether the
// hunk's first old line and the input's line at (1-based; the last
// when past the end) differ in ending with "\r\n".
func (a *hunkApplier) differentEndings(h *patchHunk, at int) bool {
	patchCRLF := false
	for _, l := range h.lines {
		if l.kind != '+' {
			patchCRLF = !l.noEOL && bytes.HasSuffix(l.text, []byte("\r"))
			break
		}
	}
	lines := a.in.lines
	at = min(at, len(lines))
	if at < 1 {
		return false
	}
	l := lines[at-1]
	last := at == len(lines) && a.in.missingNewline
	if len(l) == 0 && last {
		return false
	}
	return patchCRLF != (!last && bytes.HasSuffix(l, []byte("\r")))
}

// run applies hunks, all but the ones it fails; false when cancelled.
func (a *hunkApplier) run(hunks []*patchHunk) bool {
	p := a.p
	for hi, h := range hunks {
		if p.env.Ctx.Err() != nil {
			return false
		}
		if a.skipRest {
			a.failed = append(a.failed, rejHunk{h, 0})
			continue
		}
		where, fuzz := a.find(hi, h)
		if a.skipRest {
			a.failed = append(a.failed, rejHunk{h, 0})
			continue
		}
		if p.merge != mergeNone {
			// GNU merges every hunk, the ones that apply too (what it
			// says of them is the merge's, not the offset).
			if where < 0 || a.lastOffset != 0 {
				a.mismatch = true
			}
			at, added := p.first(h), a.netAdded
			if where >= 0 {
				at = where + 1
			}
			if !a.mergeHunk(hi, h, where) {
				fmt.Fprintf(p.out, "misordered hunks! output would be garbled\n")
				fmt.Fprintf(p.out, "Hunk #%d FAILED at %d.\n", hi+1, at+added)
				a.failed = append(a.failed, rejHunk{h, a.netAdded})
			}
			continue
		}
		if where < 0 {
			// GNU reports the line shifted by what earlier hunks
			// added, not by the offset they were found at.
			at, endings := p.first(h)+a.netAdded, ""
			if a.differentEndings(h, at) {
				endings = " (different line endings)"
			}
			fmt.Fprintf(p.out, "Hunk #%d FAILED at %d%s.\n", hi+1, at, endings)
			a.failed = append(a.failed, rejHunk{h, a.netAdded})
			a.mismatch = true
			continue
		}
		a.applyHunk(h, where)
		a.netAdded += h.newLen - h.oldLen
		if fuzz > 0 || a.lastOffset != 0 {
			a.mismatch = true
		}
		if fuzz > 0 || a.lastOffset != 0 || p.verbose {
			// GNU reports where the hunk went in the output.
			newAt := where + 1 + a.netAdded - (h.newLen - h.oldLen)
			fmt.Fprintf(p.out, "Hunk #%d succeeded at %d", hi+1, newAt)
			if fuzz > 0 {
				fmt.Fprintf(p.out, " with fuzz %d", fuzz)
			}
			if a.lastOffset != 0 {
				fmt.Fprintf(p.out, " (offset %d %s)", a.lastOffset, plural(a.lastOffset, "line")) // GNU: "-1 lines"
			}
			fmt.Fprintf(p.out, ".\n")
		}
	}
	// The rest of the input.
	for ; a.inPos < len(a.in.lines); a.inPos++ {
		a.emit(a.inPos)
	}
	return true
}

// find locates hunk number hi, trying each fuzz factor; where is -1 when
// it is not found. A first hunk found reversed sets skipRest.
func (a *hunkApplier) find(hi int, h *patchHunk) (where, fuzz int) {
	p := a.p
	prefix, suffix := h.contextLens()
	maxFuzz := min(p.fuzz, max(prefix, suffix))
	if p.merge != mergeNone {
		// --merge: no fuzz, and no question whether the patch is
		// reversed (Debian's patch 2.7.6 asks none).
		return p.locate(a.in, h, h.pattern(false), a.inPos, &a.lastOffset, 0), 0
	}
	for fuzz = 0; fuzz <= maxFuzz; fuzz++ {
		where = p.locate(a.in, h, h.pattern(false), a.inPos, &a.lastOffset, fuzz)
		if where >= 0 {
			return where, fuzz
		}
		if hi != 0 || p.force || a.noReversed {
			continue
		}
		// A reversed or already applied patch? GNU tries the swapped
		// hunk at each fuzz factor.
		rh := h.reversed()
		lo := a.lastOffset
		if p.locate(a.in, rh, rh.pattern(false), a.inPos, &lo, fuzz) >= 0 {
			msg := "Reversed (or previously applied) patch detected!"
			if p.reverse {
				msg = "Unreversed patch detected!"
			}
			a.assumeR = p.okToReverse(msg) == answerFlip
			a.skipRest = true
			a.ignoredMsg = "ignored"
			return where, fuzz
		}
	}
	return where, fuzz
}

// emit copies input line i to the result; lines past the end of the
// input are none.
func (a *hunkApplier) emit(i int) {
	if i < len(a.in.lines) {
		a.result = append(a.result, a.in.lines[i])
		a.resultNoEOL = i == len(a.in.lines)-1 && a.in.missingNewline
	}
}

// copyTo copies to the result the input lines before line pos that are
// not copied yet.
func (a *hunkApplier) copyTo(pos int) {
	for ; a.inPos < pos; a.inPos++ {
		a.emit(a.inPos)
	}
}

// applyHunk applies h found at line where, as GNU patch's apply_hunk:
// input lines are copied up to each change, context comes from the input,
// and trailing context is left to be copied later (a fuzzed match of the
// next hunk may overlap it).
func (a *hunkApplier) applyHunk(h *patchHunk, where int) {
	if a.p.defines {
		a.applyHunkDefine(h, where)
		return
	}
	pos := where
	for _, l := range h.lines {
		switch l.kind {
		case ' ':
			pos++
		case '-':
			a.copyTo(pos)
			a.inPos = max(a.inPos, pos+1)
			pos++
		case '+':
			a.copyTo(pos)
			a.result = append(a.result, l.text)
			a.resultNoEOL = l.noEOL
		}
	}
}

// applyHunkDefine is applyHunk under -D NAME, as GNU's apply_hunk with
// do_defines: deleted lines go in "#ifndef NAME", added ones in "#ifdef
// NAME" (after "#else" when they replace deleted ones), "#endif" at the
// next context line or the hunk's end.
func (a *hunkApplier) applyHunkDefine(h *patchHunk, where int) {
	const outside, inIfndef, inIfdef, inElse = 0, 1, 2, 3
	state, pos := outside, where
	mark := func(text string) { a.result = append(a.result, []byte(text)) }
	for _, l := range h.lines {
		switch l.kind {
		case '-':
			a.copyTo(pos)
			switch state {
			case outside:
				mark("#ifndef " + a.p.define)
				state = inIfndef
			case inIfdef:
				mark("#else")
				state = inElse
			}
			a.result = append(a.result, l.text)
			a.inPos = max(a.inPos, pos+1)
			pos++
		case '+':
			a.copyTo(pos)
			switch state {
			case inIfndef:
				mark("#else")
				state = inElse
			case outside:
				mark("#ifdef " + a.p.define)
				state = inIfdef
			}
			a.result = append(a.result, l.text)
		default:
			pos++
			if state != outside {
				mark("#endif")
				state = outside
			}
		}
	}
	if state != outside {
		mark("#endif")
	}
	a.resultNoEOL = false
}

// output is the patched file's text.
func (a *hunkApplier) output() []byte {
	var buf bytes.Buffer
	for i, l := range a.result {
		buf.Write(l)
		if i < len(a.result)-1 || !a.resultNoEOL {
			buf.WriteByte('\n')
		}
	}
	return buf.Bytes()
}

// first is GNU patch's pch_first: the 1-based line where the hunk's old
// text starts (the line after, for an insertion).
func (p *patcher) first(h *patchHunk) int {
	if h.oldLen == 0 {
		return h.oldStart + 1
	}
	return h.oldStart
}

// locate finds where the hunk's pattern matches in, as GNU patch's
// locate_hunk: at the expected line plus the running offset, then
// alternately further down and up, never before the end of the previous
// hunk; a hunk with less leading (trailing) context than trailing
// (leading) can only match at the start (end) of the file. It returns the
// 0-based line or -1, and updates *lastOffset.
func (p *patcher) locate(in *diffFile, h *patchHunk, pat []patchLine, frozen int, lastOffset *int, fuzz int) int {
	inputLines := len(in.lines)
	firstGuess := p.first(h) + *lastOffset // 1-based
	patLines := len(pat)
	prefix, suffix := h.contextLens()
	context := max(prefix, suffix)
	prefixFuzz := fuzz + prefix - context
	suffixFuzz := fuzz + suffix - context
	maxWhere := inputLines - (patLines - suffixFuzz) + 1
	minWhere := frozen + 1 // GNU patch 2.7.6; 2.8 lets fuzzed context overlap
	maxPos := maxWhere - firstGuess
	maxNeg := firstGuess - minWhere
	maxOffset := max(maxPos, maxNeg)
	if patLines == 0 {
		return firstGuess - 1
	}
	if firstGuess <= maxNeg {
		maxNeg = firstGuess - 1
	}
	match := func(offset, pf, sf int) bool {
		base := firstGuess + offset // 1-based line of pat[0]
		for k := pf; k < patLines-sf; k++ {
			il := base - 1 + k
			if il < 0 || il >= inputLines {
				return false
			}
			pl := pat[k]
			if p.ignoreWS {
				if !patchSimilar(in.lines[il], pl.text) {
					return false
				}
				continue
			}
			inNoEOL := il == inputLines-1 && in.missingNewline
			if !bytes.Equal(in.lines[il], pl.text) || inNoEOL != pl.noEOL {
				return false
			}
		}
		return true
	}
	if prefixFuzz < 0 && p.first(h) <= 1 {
		if suffixFuzz < 0 && (patLines != inputLines || prefix < frozen) {
			return -1
		}
		offset := 1 - firstGuess
		if frozen <= prefix && offset <= maxPos && match(offset, 0, max(suffixFuzz, 0)) {
			*lastOffset += offset
			return firstGuess + offset - 1
		}
		return -1
	} else if prefixFuzz < 0 {
		prefixFuzz = 0
	}
	if suffixFuzz < 0 {
		offset := firstGuess - (inputLines - patLines + 1)
		if offset <= maxNeg && match(-offset, prefixFuzz, 0) {
			*lastOffset -= offset
			return firstGuess - offset - 1
		}
		return -1
	}
	minOffset := 0
	switch {
	case maxPos < 0:
		minOffset = firstGuess - maxWhere
	case maxNeg < 0:
		minOffset = firstGuess - minWhere
	}
	for offset := minOffset; offset <= maxOffset; offset++ {
		if offset <= maxPos && match(offset, prefixFuzz, suffixFuzz) {
			*lastOffset += offset
			return firstGuess + offset - 1
		}
		if offset <= maxNeg && match(-offset, prefixFuzz, suffixFuzz) {
			*lastOffset -= offset
			return firstGuess - offset - 1
		}
	}
	return -1
}

func (p *patcher) writeFile(name string, data []byte) error {
	env := p.env
	// Create missing parent directories.
	// Only a parent that does not exist is made: one that cannot be
	// reached (a link out of the grants) says why, not "File exists".
	if dir := path.Dir(env.Abs(name)); dir != "/" {
		if _, err := env.FS.Stat(dir); err != nil {
			var dirs []string
			for d := dir; d != "/" && d != "."; d = path.Dir(d) {
				_, err := env.FS.Stat(d)
				if err == nil {
					break
				}
				if !errors.Is(err, fs.ErrNotExist) {
					return err
				}
				dirs = append(dirs, d)
			}
			for i := len(dirs) - 1; i >= 0; i-- {
				if err := env.FS.Mkdir(dirs[i], 0o755); err != nil {
					return err
				}
			}
		}
	}
	return env.WriteFile(name, data)
}

// writeRejects saves failed hunks in unified form.
// rejHunk is a hunk that did not apply, and how far the hunks applied
// before it moved it (GNU numbers rejected hunks as in the output).
type rejHunk struct {
	h     *patchHunk
	shift int
}

func (p *patcher) writeRejects(rej string, fp *filePatch, failed []rejHunk, swap bool) error {
	var b bytes.Buffer
	switch {
	case fp.normal:
		rejNormal(&b, p, failed)
	case fp.context:
		p.rejHeader(&b, fp, "***", "---", swap)
		rejContext(&b, failed)
	default:
		p.rejHeader(&b, fp, "---", "+++", swap)
		rejUnified(&b, failed)
	}
	return p.writeFile(rej, b.Bytes())
}

// rejHeader writes the two header lines of a reject file, marked old and
// new, naming the files as the patch does, after -p.
func (p *patcher) rejHeader(b *bytes.Buffer, fp *filePatch, old, new string, swap bool) {
	hdr := func(mark, name, t string) {
		if s := p.stripName(name); s != "" {
			name = s
		}
		if t != "" {
			fmt.Fprintf(b, "%s %s\t%s\n", mark, name, t)
		} else {
			fmt.Fprintf(b, "%s %s\n", mark, name)
		}
	}
	if swap {
		hdr(old, fp.newName, fp.newTime)
		hdr(new, fp.oldName, fp.oldTime)
	} else {
		hdr(old, fp.oldName, fp.oldTime)
		hdr(new, fp.newName, fp.newTime)
	}
}

// rejNormal writes rejected normal-diff hunks as GNU patch saves them: in
// its old context format, with no file names.
func rejNormal(b *bytes.Buffer, p *patcher, failed []rejHunk) {
	b.WriteString("*** /dev/null\n--- /dev/null\n")
	for _, f := range failed {
		h := f.h
		old0 := p.first(h) + f.shift
		old1 := old0 + h.oldLen - 1
		new0 := h.newStart + f.shift
		if h.newLen == 0 {
			new0++
		}
		new1 := new0 + h.newLen - 1
		b.WriteString("***************\n")
		rejNormalSide(b, h, "***", "", old0, old1, '-')
		rejNormalSide(b, h, "---", " -----", new0, new1, '+')
	}
}

// rejNormalSide writes one side of a rejected normal-diff hunk h: the
// header of its lines lo to hi ("0" when there are none), then its lines
// of kind.
func rejNormalSide(b *bytes.Buffer, h *patchHunk, head, tail string, lo, hi int, kind byte) {
	switch {
	case hi < lo:
		fmt.Fprintf(b, "%s 0%s\n", head, tail)
	case hi == lo:
		fmt.Fprintf(b, "%s %d%s\n", head, lo, tail)
	default:
		fmt.Fprintf(b, "%s %d,%d%s\n", head, lo, hi, tail)
	}
	for _, l := range h.lines {
		if l.kind == kind {
			fmt.Fprintf(b, "%c %s\n", kind, l.text)
		}
	}
}

// rejContext writes rejected hunks in context form, both sections in
// full; a run that deletes and adds is marked '!'.
func rejContext(b *bytes.Buffer, failed []rejHunk) {
	crng := func(start, n int) string {
		if n == 0 {
			return strconv.Itoa(start)
		}
		if n == 1 {
			return strconv.Itoa(start)
		}
		return fmt.Sprintf("%d,%d", start, start+n-1)
	}
	for _, f := range failed {
		h := f.h
		marks := make([]byte, len(h.lines))
		for k := 0; k < len(h.lines); {
			if h.lines[k].kind == ' ' {
				marks[k] = ' '
				k++
				continue
			}
			e := k
			hasDel, hasAdd := false, false
			for e < len(h.lines) && h.lines[e].kind != ' ' {
				hasDel = hasDel || h.lines[e].kind == '-'
				hasAdd = hasAdd || h.lines[e].kind == '+'
				e++
			}
			for ; k < e; k++ {
				marks[k] = h.lines[k].kind
				if hasDel && hasAdd {
					marks[k] = '!'
				}
			}
		}
		b.WriteString("***************\n")
		fmt.Fprintf(b, "*** %s ****\n", crng(h.oldStart+f.shift, h.oldLen))
		rejContextLines(b, h, marks, '+')
		fmt.Fprintf(b, "--- %s ----\n", crng(h.newStart+f.shift, h.newLen))
		rejContextLines(b, h, marks, '-')
	}
}

// rejContextLines writes the lines of h but those of kind skip, each
// after its mark.
func rejContextLines(b *bytes.Buffer, h *patchHunk, marks []byte, skip byte) {
	for k, l := range h.lines {
		if l.kind != skip {
			fmt.Fprintf(b, "%c %s\n", marks[k], l.text)
			if l.noEOL {
				b.WriteString("\\ No newline at end of file\n")
			}
		}
	}
}

// rejUnified writes rejected hunks in unified form.
func rejUnified(b *bytes.Buffer, failed []rejHunk) {
	rng := func(start, n int) string {
		if n == 1 {
			return strconv.Itoa(start)
		}
		return fmt.Sprintf("%d,%d", start, n)
	}
	for _, f := range failed {
		h := f.h
		fmt.Fprintf(b, "@@ -%s +%s @@\n", rng(h.oldStart+f.shift, h.oldLen), rng(h.newStart+f.shift, h.newLen))
		for _, l := range h.lines {
			b.WriteByte(l.kind)
			b.Write(l.text)
			b.WriteByte('\n')
			if l.noEOL {
				b.WriteString("\\ No newline at end of file\n")
			}
		}
	}
}

// patchSimilar is GNU patch's similar, the line match of -l: a run of
// blanks (spaces, tabs) in the patch's line matches any run in the
// input's line, blanks at the ends of both are ignored, and so is a
// missing newline at the end.
func patchSimilar(in, pat []byte) bool {
	blank := func(c byte) bool { return c == ' ' || c == '\t' }
	a, b := in, pat
	for {
		if len(b) == 0 || blank(b[0]) {
			for len(b) > 0 && blank(b[0]) {
				b = b[1:]
			}
			if len(a) > 0 {
				if !blank(a[0]) {
					return false
				}
				for len(a) > 0 && blank(a[0]) {
					a = a[1:]
				}
			}
			if len(a) == 0 || len(b) == 0 {
				return len(a) == len(b)
			}
		} else if len(a) == 0 || a[0] != b[0] {
			return false
		} else {
			a, b = a[1:], b[1:]
		}
	}
}

// reverseAnswer is what GNU patch answers when a patch looks reversed.
type reverseAnswer int

const (
	answerSkip   reverseAnswer = iota // skip the patch
	answerFlip                        // -t: apply it the other way round
	answerAnyway                      // -f: apply it as it is
)

// okToReverse is GNU patch's ok_to_reverse: msg, said even under -s
// (but for -f -s), and the answer it takes: -N skips the patch, -f
// applies it anyway, -t the other way round; otherwise GNU asks and,
// with no terminal, skips it (Skipping patch. a word -s leaves out).
func (p *patcher) okToReverse(msg string) reverseAnswer {
	p.out.Flush()
	s := p.summary
	if p.forward || !(p.force && p.silent) {
		fmt.Fprint(s, msg)
	}
	switch {
	case p.forward:
		fmt.Fprintf(s, "  Skipping patch.\n")
	case p.force:
		fmt.Fprintf(p.out, "  Applying it anyway.\n")
		return answerAnyway
	case p.batch && p.reverse:
		fmt.Fprintf(s, "  Ignoring -R.\n")
		return answerFlip
	case p.batch:
		fmt.Fprintf(s, "  Assuming -R.\n")
		return answerFlip
	case p.reverse:
		fmt.Fprintf(s, "  Ignore -R? [n] \nApply anyway? [n] \n")
		p.skipping()
	default:
		fmt.Fprintf(s, "  Assume -R? [n] \nApply anyway? [n] \n")
		p.skipping()
	}
	return answerSkip
}

// skipping is the "Skipping patch." that follows a question GNU patch
// answers itself; -s leaves it out.
func (p *patcher) skipping() {
	fmt.Fprintf(p.out, "Skipping patch.\n")
	p.out.Flush()
}
