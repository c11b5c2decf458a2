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
		fmt.Fprintf(p.out, "can't find file to patch at input line 1\nFile to patch: \nSkip this patch? [y] \nSkipping patch.\n")
		return 1
	}
	if p.reverse {
		fmt.Fprintf(env.Stderr, "patch: **** ed scripts cannot be reversed\n")
		return 2
	}
	r, err := env.Open(p.origFile)
	if err != nil {
		// What GNU patch shows when ed cannot read the file.
		fmt.Fprintf(p.out, "?\n")
		p.out.Flush()
		fmt.Fprintf(env.Stderr, "patch: **** ed FAILED\n")
		return 2
	}
	orig, err := io.ReadAll(r)
	r.Close()
	if err != nil {
		fmt.Fprintf(env.Stderr, "patch: **** Can't open file %s : %s\n", p.origFile, ErrText(err))
		return 2
	}
	f := splitDiffLines(orig)
	lines := make([]string, len(f.lines))
	for i, l := range f.lines {
		lines[i] = string(l)
	}
	script := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	cur := len(lines) // ed's current line, 1-based
	var at int
	bad := func(n int, why string) int {
		fmt.Fprintf(env.Stderr, "patch: **** ed script line %d: %s\n", n, why)
		return 2
	}
	for i := 0; i < len(script); i++ {
		if env.Ctx.Err() != nil {
			return 2
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
			if cur < 1 || cur > len(lines) || lines[cur-1] == "" {
				return bad(at, "no match")
			}
			lines[cur-1] = lines[cur-1][1:]
			continue
		case cmd == "a":
			if !readText() {
				return bad(at, "text not ended by '.'")
			}
			lines = append(lines[:cur], append(text, lines[cur:]...)...)
			cur += len(text)
			continue
		}
		m := edCommand().FindStringSubmatch(cmd)
		if m == nil {
			return bad(at, "unsupported command "+strconv.Quote(cmd))
		}
		from, _ := strconv.Atoi(m[1])
		to := from
		if m[2] != "" {
			to, _ = strconv.Atoi(m[2])
		}
		if to < from || to > len(lines) || (m[3] != "a" && from < 1) {
			return bad(at, "address out of range")
		}
		switch m[3] {
		case "a":
			if !readText() {
				return bad(at, "text not ended by '.'")
			}
			lines = append(lines[:to], append(text, lines[to:]...)...)
			cur = to + len(text)
		case "c":
			if !readText() {
				return bad(at, "text not ended by '.'")
			}
			lines = append(lines[:from-1], append(text, lines[to:]...)...)
			cur = from - 1 + len(text)
		case "d":
			lines = append(lines[:from-1], lines[to:]...)
			cur = min(from, len(lines))
		}
	}
	if p.dryRun {
		return 0
	}
	var buf bytes.Buffer
	for _, l := range lines {
		buf.WriteString(l)
		buf.WriteByte('\n')
	}
	target := p.origFile
	if p.outFile != "" {
		target = p.outFile
	}
	if p.backup && p.outFile == "" {
		if err := p.writeFile(p.origFile+p.suffix, orig); err != nil {
			fmt.Fprintf(env.Stderr, "patch: **** Can't create file %s%s : %s\n", p.origFile, p.suffix, ErrText(err))
			return 2
		}
	}
	if err := p.writeFile(target, buf.Bytes()); err != nil {
		fmt.Fprintf(env.Stderr, "patch: **** Can't create file %s : %s\n", target, ErrText(err))
		return 2
	}
	return 0
}
