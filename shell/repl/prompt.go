package repl

import (
	"fmt"
	"path"
	"strconv"
	"strings"
)

// The virtual identity the prompt shows: never the host's user or name.
const (
	virtualUser = "llmsh"
	virtualHost = "llmsh"
)

// palette holds the colours of llmsh's own output, each on or off as
// newPalette was told (never guessed from the environment or the
// terminal).
type palette struct {
	on                           bool
	err, note, dir, status, bold sgr
}

// sgr is one colour: the SGR escape that starts it and the one that ends
// it (the attribute's own reset, 0 for a colour), as fatih/color wrote
// them; with on false, text passes unchanged. It replaces fatih/color,
// whose package init looked at the terminal at every start of llmsh and
// of its vfsd (issue 21).
type sgr struct {
	on          bool
	start, stop string
}

func (c sgr) Sprint(a ...any) string { return c.wrap(fmt.Sprint(a...)) }

func (c sgr) Sprintf(format string, a ...any) string { return c.wrap(fmt.Sprintf(format, a...)) }

func (c sgr) wrap(s string) string {
	if !c.on {
		return s
	}
	return c.start + s + c.stop
}

func newPalette(on bool) *palette {
	return &palette{
		on:     on,
		err:    sgr{on, "\x1b[31m", "\x1b[0m"},      // red
		note:   sgr{on, "\x1b[2m", "\x1b[22m"},      // faint
		dir:    sgr{on, "\x1b[34;1m", "\x1b[0;22m"}, // bold blue
		status: sgr{on, "\x1b[31;1m", "\x1b[0;22m"}, // bold red
		bold:   sgr{on, "\x1b[1m", "\x1b[22m"},
	}
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

// primaryPrompt is the prompt before a new command: $PS1 with its escapes
// expanded when the user set one, else "llmsh:DIR$ " with the last status
// in red before the $ when it was not zero.
func primaryPrompt(st promptState, pal *palette) string {
	if st.ps != "" {
		return expandPS(st.ps, st)
	}
	var b strings.Builder
	b.WriteString("llmsh:")
	b.WriteString(pal.dir.Sprint(tildeDir(st.dir, st.home)))
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
			b.WriteString(tildeDir(st.dir, st.home))
		case 'W':
			w := tildeDir(st.dir, st.home)
			if w != "~" && w != "/" {
				w = path.Base(w)
			}
			b.WriteString(w)
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
