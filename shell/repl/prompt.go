package repl

import (
	"path"
	"strconv"
	"strings"

	"github.com/fatih/color"
)

// The virtual identity the prompt shows: never the host's user or name.
const (
	virtualUser = "llmsh"
	virtualHost = "llmsh"
)

// palette holds the colours of llmsh's own output. Each colour is enabled
// or disabled explicitly, so fatih/color's process-wide guess (which reads
// the environment) never applies.
type palette struct {
	on                           bool
	err, note, dir, status, bold *color.Color
}

func newPalette(on bool) *palette {
	p := &palette{
		on:     on,
		err:    color.New(color.FgRed),
		note:   color.New(color.Faint),
		dir:    color.New(color.FgBlue, color.Bold),
		status: color.New(color.FgRed, color.Bold),
		bold:   color.New(color.Bold),
	}
	for _, c := range []*color.Color{p.err, p.note, p.dir, p.status, p.bold} {
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
	}
	return p
}

// promptState is what a prompt is made from.
type promptState struct {
	dir     string // the virtual working directory
	home    string // the script's $HOME (virtual)
	status  int    // the last exit status
	ps      string // $PS1 or $PS2 as the user set it; "" for the default
	version string
}

// tildeDir abbreviates $HOME at the start of dir to ~.
func tildeDir(dir, home string) string {
	if home != "" && home != "/" {
		if dir == home {
			return "~"
		}
		if rest, ok := strings.CutPrefix(dir, home+"/"); ok {
			return "~/" + rest
		}
	}
	return dir
}

// visible is bash's sh_strvis, which bash 5.2 applies to the directory
// of \w and \W: a control character but tab as ^X (ESC as ^[, DEL as ^?), so
// that a directory's name cannot send escape sequences to the terminal
// (session 30, red team: `mkdir $'x\e[31my'; cd` turned the prompt red;
// a name can clear the screen or set the window title as well).
func visible(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f }) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == 0x7f:
			b.WriteString("^?")
		case c < 0x20 && c != '\t': // a tab stays, as bash's
			b.WriteByte('^')
			b.WriteByte(c + '@')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// primaryPrompt is the prompt before a new command: $PS1 with its escapes
// expanded when the user set one, else "llmsh:DIR$ " with the last status
// in red before the $ when it was not zero.
func primaryPrompt(st promptState, pal *palette) string {
	if st.ps != "" {
		return expandPS(st.ps, st)
	}
	var b strings.Builder
	b.WriteString("llmsh:")
	b.WriteString(pal.dir.Sprint(visible(tildeDir(st.dir, st.home))))
	if st.status != 0 {
		b.WriteString(" " + pal.status.Sprint("["+strconv.Itoa(st.status)+"]"))
	}
	b.WriteString("$ ")
	return b.String()
}

// continuationPrompt is shown while a command is incomplete: $PS2, or "> ".
func continuationPrompt(st promptState) string {
	if st.ps != "" {
		return expandPS(st.ps, st)
	}
	return "> "
}

// expandPS expands bash's prompt escapes with llmsh's virtual values:
// \u user, \h \H host, \w directory with ~, \W its last element, \$ '$',
// \s shell name, \v version, \n newline, \e escape, \a bell, \\ backslash;
// \[ and \] (non-printing markers) are dropped. Other text is literal.
func expandPS(ps string, st promptState) string {
	var b strings.Builder
	for i := 0; i < len(ps); i++ {
		c := ps[i]
		if c != '\\' || i+1 == len(ps) {
			b.WriteByte(c)
			continue
		}
		i++
		switch ps[i] {
		case 'u':
			b.WriteString(virtualUser)
		case 'h', 'H':
			b.WriteString(virtualHost)
		case 'w':
			b.WriteString(visible(tildeDir(st.dir, st.home)))
		case 'W':
			w := tildeDir(st.dir, st.home)
			if w != "~" && w != "/" {
				w = path.Base(w)
			}
			b.WriteString(visible(w))
		case '$':
			b.WriteByte('$')
		case 's':
			b.WriteString("llmsh")
		case 'v', 'V':
			b.WriteString(st.version)
		case 'n':
			b.WriteByte('\n')
		case 'e':
			b.WriteByte('\x1b')
		case 'a':
			b.WriteByte('\a')
		case '\\':
			b.WriteByte('\\')
		case '[', ']':
		default:
			b.WriteByte('\\')
			b.WriteByte(ps[i])
		}
	}
	return b.String()
}
