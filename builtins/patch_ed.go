package builtins

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// edCommand matches the commands of the ed scripts diff -e writes.
var edCommand = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d+)(?:,(\d+))?([acd])$`) })

// looksLikeEd reports whether a patch is an ed script: its first line is
// an ed append, change or delete command (GNU patch's intuition, which it
// follows only when a file to patch is named).
func looksLikeEd(data []byte) bool {
	line, _, _ := bytes.Cut(data, []byte("\n"))
	return edCommand().Match(bytes.TrimSuffix(line, []byte("\r")))
}

// applyEd applies the ed script data, as diff -e writes it (a, c and d
// commands with line addresses, text ended by ".", and "s/.//" after a
// ".." line), to p.origFile in-process: GNU patch would run ed. Like GNU
// patch, it prints nothing when the script applies.
func (p *patcher) applyEd(data []byte) int {
	env := p.env
	if p.origFile == "" {
		fmt.Fprintf(p.out, "can't find file to patch at input line 1\n")
		p.out.Flush()
		p.noFileToPatch()
		return 1
	}
	if p.reverse {
		return p.fatal("ed scripts cannot be reversed")
	}
	r, err := env.Open(p.origFile)
	if err != nil {
		// What GNU patch shows when ed cannot read the file.
		fmt.Fprintf(p.out, "?\n")
		return p.fatal("ed FAILED")
	}
	orig, err := io.ReadAll(r)
	r.Close()
	if err != nil {
		return p.fatal("Can't open file %s : %s", p.origFile, ErrText(err))
	}
	f := splitDiffLines(orig)
	ed := &edBuffer{lines: make([]string, len(f.lines))}
	for i, l := range f.lines {
		ed.lines[i] = string(l)
	}
	ed.cur = len(ed.lines)
	script := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if at, why := ed.run(env, script); at != 0 {
		return p.fatal("ed script line %d: %s", at, why)
	} else if why != "" {
		return 2 // cancelled
	}
	if p.dryRun {
		return 0
	}
	var buf bytes.Buffer
	for _, l := range ed.lines {
		buf.WriteString(l)
		buf.WriteByte('\n')
	}
	target := p.origFile
	if p.outFile != "" {
		target = p.outFile
	}
	if p.backup && p.outFile == "" {
		bak := p.backupName(p.origFile)
		if err := p.writeFile(bak, orig); err != nil {
			return p.fatal("Can't create file %s : %s", bak, ErrText(err))
		}
	}
	if err := p.writeFile(target, buf.Bytes()); err != nil {
		return p.fatal("Can't create file %s : %s", target, ErrText(err))
	}
	return 0
}

// edBuffer is the text an ed script edits.
type edBuffer struct {
	lines []string
	cur   int // ed's current line, 1-based
}

// run runs script on the buffer. A failed command is reported as the
// script line at where it is and why; a cancelled run as at 0 and why
// "cancelled".
func (b *edBuffer) run(env *Env, script []string) (at int, why string) {
	for i := 0; i < len(script); i++ {
		if env.Ctx.Err() != nil {
			return 0, "cancelled"
		}
		cmd := strings.TrimSuffix(script[i], "\r")
		at = i + 1 // the command's line, for messages
		var text []string
		readText := func() bool {
			for i++; i < len(script); i++ {
				if strings.TrimSuffix(script[i], "\r") == "." {
					return true
				}
				text = append(text, strings.TrimSuffix(script[i], "\r"))
			}
			return false
		}
		switch {
		case cmd == "" || cmd == "w" || cmd == "q" || cmd == "wq":
			continue
		case cmd == "s/.//":
			if b.cur < 1 || b.cur > len(b.lines) || b.lines[b.cur-1] == "" {
				return at, "no match"
			}
			b.lines[b.cur-1] = b.lines[b.cur-1][1:]
			continue
		case cmd == "a":
			if !readText() {
				return at, "text not ended by '.'"
			}
			b.lines = append(b.lines[:b.cur], append(text, b.lines[b.cur:]...)...)
			b.cur += len(text)
			continue
		}
		m := edCommand().FindStringSubmatch(cmd)
		if m == nil {
			return at, "unsupported command " + strconv.Quote(cmd)
		}
		from, _ := strconv.Atoi(m[1])
		to := from
		if m[2] != "" {
			to, _ = strconv.Atoi(m[2])
		}
		if to < from || to > len(b.lines) || (m[3] != "a" && from < 1) {
			return at, "address out of range"
		}
		if m[3] != "d" && !readText() {
			return at, "text not ended by '.'"
		}
		b.change(m[3], from, to, text)
	}
	return 0, ""
}

// change runs ed command a, c or d on lines from to to.
func (b *edBuffer) change(cmd string, from, to int, text []string) {
	switch cmd {
	case "a":
		b.lines = append(b.lines[:to], append(text, b.lines[to:]...)...)
		b.cur = to + len(text)
	case "c":
		b.lines = append(b.lines[:from-1], append(text, b.lines[to:]...)...)
		b.cur = from - 1 + len(text)
	case "d":
		b.lines = append(b.lines[:from-1], b.lines[to:]...)
		b.cur = min(from, len(b.lines))
	}
}
