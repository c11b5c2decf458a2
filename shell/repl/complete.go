package repl

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/llmsh/llmsh/builtins"
	"github.com/llmsh/llmsh/vfsclient"
)

// Source is what completion asks about the session. *shell.Shell, with
// its vfsd client, provides it through shellSource.
type Source interface {
	// Dir is the virtual working directory.
	Dir() string
	// CommandNames lists the names valid in command position.
	CommandNames() []string
	// VarNames lists the shell's variables.
	VarNames() []string
	// ReadDir lists a directory through vfsd.
	ReadDir(dir string) ([]fs.DirEntry, error)
	// Stat describes a path through vfsd.
	Stat(name string) (fs.FileInfo, error)
	// Roots are the absolute paths the session may reach although their
	// parents cannot be listed: the grants and the virtual files.
	Roots() []string
}

// Completer completes the word before the cursor: command names in
// command position, $VAR names after $, the options of a builtin when the
// word starts with -, and otherwise paths through vfsd.
type Completer struct {
	src Source

	mu    sync.Mutex
	flags map[string][]string // builtin name -> options from its --help
}

// NewCompleter returns a completer over src.
func NewCompleter(src Source) *Completer {
	return &Completer{src: src, flags: map[string][]string{}}
}

// Do implements readline.AutoCompleter: it returns the possible
// continuations of the word before pos and that word's length.
func (c *Completer) Do(line []rune, pos int) ([][]rune, int) {
	if pos > len(line) {
		pos = len(line)
	}
	text := string(line[:pos])
	start := wordStart(text)
	word := text[start:]
	cands := c.Complete(text[:start], word)
	out := make([][]rune, 0, len(cands))
	for _, cand := range cands {
		if rest, ok := strings.CutPrefix(cand, word); ok {
			out = append(out, []rune(rest))
		}
	}
	return out, len([]rune(word))
}

// Complete returns the full words (escaped for the shell, ending in a space
// when the word is finished, in / for a directory) that can replace word,
// typed after before.
func (c *Completer) Complete(before, word string) []string {
	if i := strings.LastIndexByte(word, '$'); i >= 0 && !strings.HasPrefix(word, "'") {
		name := word[i+1:]
		brace := strings.HasPrefix(name, "{")
		name = strings.TrimPrefix(name, "{")
		if isName(name) {
			var out []string
			for _, v := range c.src.VarNames() {
				if strings.HasPrefix(v, name) {
					w := word[:len(word)-len(name)] + v
					if brace {
						w += "}"
					}
					w += " "
					out = append(out, w)
				}
			}
			sort.Strings(out)
			return out
		}
	}
	cmd, cmdPos := commandOf(before)
	if k, v, ok := strings.Cut(word, "="); ok && isName(k) && k != "" {
		return prefixAll(k+"=", c.paths(v))
	}
	if cmdPos && !strings.Contains(word, "/") {
		var out []string
		for _, n := range c.src.CommandNames() {
			if strings.HasPrefix(n, word) {
				out = append(out, n+" ")
			}
		}
		return out
	}
	if words, ok := c.specWords(cmd, before, word); ok {
		return words
	}
	if strings.HasPrefix(word, "-") && cmd != "" {
		if k, v, ok := strings.Cut(word, "="); ok && strings.HasPrefix(k, "--") {
			return prefixAll(k+"=", c.paths(v))
		}
		var out []string
		for _, f := range c.optionsOf(cmd) {
			if strings.HasPrefix(f, word) {
				if !strings.HasSuffix(f, "=") {
					f += " "
				}
				out = append(out, f)
			}
		}
		return out
	}
	return c.paths(word)
}

// SpecSource is a Source that also knows the session's `complete` specs.
type SpecSource interface {
	// CompleteSpec returns the words the spec of command cmd gives for
	// word (prev is the word before it), and whether cmd has a spec.
	CompleteSpec(cmd, word, prev string) ([]string, bool)
}

// specWords completes word from the spec `complete` gave cmd, as bash
// does before its own completion: each word that starts with the one
// typed, sorted.
func (c *Completer) specWords(cmd, before, word string) ([]string, bool) {
	sp, ok := c.src.(SpecSource)
	if !ok || cmd == "" {
		return nil, false
	}
	prev := ""
	if f := strings.Fields(before); len(f) > 0 {
		prev = f[len(f)-1]
	}
	words, ok := sp.CompleteSpec(cmd, word, prev)
	if !ok {
		return nil, false
	}
	var out []string
	for _, w := range words {
		if strings.HasPrefix(w, word) {
			out = append(out, w+" ")
		}
	}
	sort.Strings(out)
	return slices.Compact(out), true
}

func prefixAll(p string, words []string) []string {
	for i := range words {
		words[i] = p + words[i]
	}
	return words
}

// paths completes a path word: it lists the word's directory through vfsd
// and adds the grants and virtual files that begin with the word.
func (c *Completer) paths(word string) []string {
	quote := ""
	raw := word
	if strings.HasPrefix(raw, "'") || strings.HasPrefix(raw, `"`) {
		quote, raw = raw[:1], raw[1:]
	} else {
		raw = unescape(raw)
	}
	dirPart, base := "", raw
	if i := strings.LastIndexByte(raw, '/'); i >= 0 {
		dirPart, base = raw[:i+1], raw[i+1:]
	}
	cwd := c.src.Dir()
	abs := func(p string) string {
		if strings.HasPrefix(p, "/") {
			return path.Clean(p)
		}
		return path.Join(cwd, p)
	}
	seen := map[string]bool{}
	var out []string
	add := func(name string, dir bool) {
		if !strings.HasPrefix(name, base) || name == "" {
			return
		}
		if strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".") {
			return
		}
		full := dirPart + name
		if seen[full] {
			return
		}
		seen[full] = true
		w := quote + full
		if quote == "" {
			w = escape(full)
		}
		switch {
		case dir:
			w += "/"
		case quote != "":
			w += quote + " "
		default:
			w += " "
		}
		out = append(out, w)
	}
	listDir := abs(dirPart)
	if dirPart == "" {
		listDir = cwd
	}
	if ents, err := c.src.ReadDir(listDir); err == nil {
		for _, e := range ents {
			isDir := e.IsDir()
			if e.Type()&fs.ModeSymlink != 0 && strings.HasPrefix(e.Name(), base) {
				// A link to a directory completes with "/", as in bash
				// with mark-symlinked-directories on.
				isDir = c.linkIsDir(e, path.Join(listDir, e.Name()))
			}
			add(e.Name(), isDir)
		}
	}
	// The grants and the virtual files are reachable although their
	// parents may not be listable: offer the next element of each.
	for _, r := range c.src.Roots() {
		rest, ok := strings.CutPrefix(r, strings.TrimSuffix(listDir, "/")+"/")
		if !ok || rest == "" {
			continue
		}
		name, _, more := strings.Cut(rest, "/")
		isDir := more
		if !more {
			isDir = c.isDir(r)
		}
		add(name, isDir)
	}
	sort.Strings(out)
	return out
}

// linkIsDir reports whether the symbolic link e (at p) leads to a
// directory: vfsd's listing says so already; another source is asked.
func (c *Completer) linkIsDir(e fs.DirEntry, p string) bool {
	if isDir, _, ok := vfsclient.LinkTarget(e); ok {
		return isDir
	}
	return c.isDir(p)
}

func (c *Completer) isDir(p string) bool {
	info, err := c.src.Stat(p)
	return err == nil && info.IsDir()
}

// optionsOf returns the options a builtin lists in its --help, cached.
func (c *Completer) optionsOf(cmd string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.flags[cmd]; ok {
		return f
	}
	b, ok := builtins.Lookup(cmd)
	if !ok {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	var out capWriter
	env := &builtins.Env{
		Ctx: ctx, Args: []string{cmd, "--help"}, Stdin: strings.NewReader(""),
		Stdout: &out, Stderr: &capWriter{}, FS: noFS{}, Dir: "/",
	}
	builtins.Run(b, env)
	f := parseOptions(out.b.String())
	c.flags[cmd] = f
	return f
}

var optionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|[\s,])(--?[A-Za-z0-9][-A-Za-z0-9_]*=?)`) })

// parseOptions picks the option names out of a GNU-style --help text: the
// lines that start with - after indentation, up to their description.
func parseOptions(help string) []string {
	seen := map[string]bool{}
	var out []string
	for _, line := range strings.Split(help, "\n") {
		t := strings.TrimLeft(line, " \t")
		if !strings.HasPrefix(t, "-") || t == line {
			continue
		}
		if i := strings.Index(t, "  "); i >= 0 {
			t = t[:i]
		}
		for _, m := range optionRE().FindAllStringSubmatch(t, -1) {
			if o := m[1]; !seen[o] {
				seen[o] = true
				out = append(out, o)
			}
		}
	}
	sort.Strings(out)
	return out
}

// capWriter keeps at most 64 KiB, then fails, so that a builtin that
// ignores --help and writes forever stops.
type capWriter struct{ b bytes.Buffer }

func (w *capWriter) Write(p []byte) (int, error) {
	if w.b.Len()+len(p) > 64<<10 {
		return 0, errors.New("too much output")
	}
	return w.b.Write(p)
}

// noFS refuses access: printing --help needs no files. Methods it does
// not define would panic, which builtins.Run turns into a status.
type noFS struct{ builtins.FS }

func (noFS) OpenFile(name string, _ int) (builtins.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
}
func (noFS) Stat(name string) (fs.FileInfo, error) {
	return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrPermission}
}
func (noFS) ReadDir(name string) ([]fs.DirEntry, error) {
	return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrPermission}
}

// wordStart returns where the word before the end of text begins: after
// the last unescaped blank or operator character outside quotes.
func wordStart(text string) int {
	return afterLastBreak(text, " \t\n|;&()<>`")
}

// afterLastBreak returns the index just after the last byte of breaks
// that stands in text unescaped and outside quotes, 0 if there is none.
func afterLastBreak(text, breaks string) int {
	start := 0
	var quote byte
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			quote = c
		case strings.IndexByte(breaks, c) >= 0:
			start = i + 1
		}
	}
	return start
}

// commandOf looks at the text before the current word: it returns the
// command name of the current simple command, if one has been typed, and
// whether the current word is in command position.
func commandOf(before string) (string, bool) {
	seg := before[afterLastBreak(before, "\n|;&(){}`"):]
	words := strings.Fields(seg)
	for len(words) > 0 {
		w := words[0]
		if keywords[w] {
			words = words[1:]
			continue
		}
		if k, _, ok := strings.Cut(w, "="); ok && isName(k) && k != "" {
			words = words[1:]
			continue
		}
		break
	}
	if len(words) == 0 {
		return "", true
	}
	// A redirection's target is an argument, not a command.
	return words[0], false
}

// keywords may precede a command name.
var keywords = map[string]bool{
	"if": true, "then": true, "else": true, "elif": true, "do": true,
	"while": true, "until": true, "!": true, "time": true,
}

func isName(s string) bool {
	for i, c := range s {
		if c != '_' && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// escape backslash-escapes the characters the shell would treat specially.
func escape(s string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(" \t\n'\"\\|&;()<>$`*?[]{}#~!", c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
