// llmsh: the history of a script under set -o history (LLMSH.md).

package interp

import (
	"slices"
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// recordHistory adds to the script's history, under set -o history, the
// lines bash has read when it reads the line of stmts[i] (the statements
// that start on the line where the one before ends): each comment line
// before it as an entry of its own, then the line's text as one entry,
// its physical lines joined as bash's cmdhist joins them. The lines are
// counted whether the option is on or not, so that turning it on records
// only what is read afterwards. The history stays in memory (no HISTFILE
// is ever written).
func (r *Runner) recordHistory(stmts []*syntax.Stmt, i int) {
	next := i + 1
	last := stmts[i].End().Line()
	for next < len(stmts) && stmts[next].Pos().Line() <= stmts[next-1].End().Line() {
		last = max(last, stmts[next].End().Line())
		next++
	}
	first := stmts[i].Pos().Line()
	if !r.opts[optHistory] || r.llmsh.history != nil {
		// Off: only the count of lines read moves (the text is not
		// split for each line, which would cost the whole script's
		// length on every line).
		end := last
		for _, st := range stmts[i:next] {
			syntax.Walk(st, func(n syntax.Node) bool {
				if rd, ok := n.(*syntax.Redirect); ok && rd.Hdoc != nil {
					// its body, and the line of its delimiter
					end = max(end, rd.Hdoc.End().Line()+boolUint(rd.Hdoc.End().Col() > 1))
				}
				return true
			})
		}
		r.histRead = max(r.histRead, end)
		return
	}
	if r.histSrc != r.text.src || r.histLines == nil {
		// split once per text (equal strings share their bytes here:
		// the comparison is a pointer's)
		r.histSrc, r.histLines = r.text.src, strings.SplitAfter(r.text.src, "\n")
	}
	lines := r.histLines
	end := uint(len(lines))
	if next < len(stmts) {
		end = stmts[next].Pos().Line() - 1
	}
	// A here-document's lines follow the line of its command.
	for end > last && int(end) <= len(lines) && histSkip(lines[end-1]) {
		end--
	}
	end = max(end, last)
	from := r.histRead
	if end <= from || int(end) > len(lines) {
		return
	}
	r.histRead = end
	for n := max(from, 0); n+1 < first && int(n) < len(lines); n++ {
		if l := strings.TrimRight(lines[n], "\n"); strings.TrimSpace(l) != "" {
			r.histAdd(l) // (a subshell's copy is clipped)
		}
	}
	if first-1 < from {
		return
	}
	r.histAdd(histJoin(lines[first-1 : end]))
	r.histLineOut = false
}

// histMax is the number of entries $HISTSIZE keeps; ok is false when it
// keeps them all (unset, no number, negative), as bash's stifling.
func (r *Runner) histMax() (n int, ok bool) {
	vr := r.lookupVar("HISTSIZE")
	if !vr.IsSet() || vr.Kind != expand.String {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(vr.Str))
	return n, err == nil && n >= 0
}

// histAdd adds an entry to the script's history as readline's
// add_history: under a HISTSIZE of 0 nothing is added, and a full list
// drops its first entry, the numbers of the others kept (histBase).
func (r *Runner) histAdd(e string) {
	limit, ok := r.histMax()
	if ok && limit == 0 {
		return
	}
	r.scriptHist = append(r.scriptHist, e)
	if ok && len(r.scriptHist) > limit {
		drop := len(r.scriptHist) - limit
		r.histBase += drop
		r.scriptHist = slices.Clone(r.scriptHist[drop:])
	}
}

// histStifle is an assignment to HISTSIZE: the list keeps its last
// $HISTSIZE entries, as readline's stifle_history, which sets the number
// of the first entry kept to the count of those dropped (so the numbers
// move back by one: bash lists them so).
func (r *Runner) histStifle() {
	limit, ok := r.histMax()
	if !ok || len(r.scriptHist) <= limit {
		return
	}
	drop := len(r.scriptHist) - limit
	r.histBase = drop - 1
	r.scriptHist = slices.Clone(r.scriptHist[drop:])
}

// histSkip reports a line that is blank or only a comment.
func histSkip(line string) bool {
	t := strings.TrimSpace(line)
	return t == "" || t[0] == '#'
}

// histJoin joins the physical lines of one command into one history
// entry as bash does with cmdhist on (history_delimiting_chars): a
// backslash-newline disappears; a newline inside quotes or a
// here-document stays; after a line that ends where `;` could not go
// (`do`, `then`, `{`, `|`, `&&`, `in`, a function's `()`, a case
// pattern's `)`, …) a space; else `; `. Blank lines are left out.
func histJoin(lines []string) string {
	var buf []byte
	var q histQuotes
	prev, cont := "", false
	for k, l := range lines {
		l = strings.TrimSuffix(l, "\n")
		switch {
		case k == 0 || cont:
		case q.hdocBody || q.quote != 0:
			buf = append(buf, '\n')
		case strings.TrimSpace(l) == "":
			continue
		case q.assign > 0:
			buf = append(buf, ' ')
		default:
			buf = append(buf, histDelim(prev, q.caseDepth > 0)...)
		}
		if q.hdocBody {
			buf = append(buf, l...)
			if strings.TrimLeft(l, "\t") == q.hdocs[0] {
				q.hdocs = q.hdocs[1:]
				q.hdocBody = len(q.hdocs) > 0
				if !q.hdocBody && k == len(lines)-1 {
					buf = append(buf, '\n')
				}
			}
			continue
		}
		cont = q.quote != '\'' && histContinued(l)
		if cont {
			l = l[:len(l)-1] // a backslash-newline joins the lines
		}
		buf = append(buf, l...)
		q.scan(l)
		prev = l
		if len(q.hdocs) > 0 && q.quote == 0 && !cont {
			q.hdocBody = true
		}
	}
	return string(buf)
}

// histContinued reports a line that ends in a backslash that escapes the
// newline.
func histContinued(l string) bool {
	n := len(l) - len(strings.TrimRight(l, "\\"))
	return n%2 == 1
}

// histQuotes follows the quoting of the lines of a command as histJoin
// reads them.
type histQuotes struct {
	quote     byte // the open quote: ' " or 0
	assign    int  // open `=(` compound assignments
	caseDepth int  // open case commands
	hdocs     []string
	hdocBody  bool
}

// scan reads one line (outside a here-document's body).
func (q *histQuotes) scan(l string) {
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case q.quote == '\'':
			if c == '\'' {
				q.quote = 0
			}
		case c == '\\':
			i++
		case q.quote == '"':
			if c == '"' {
				q.quote = 0
			}
		case c == '\'' || c == '"':
			q.quote = c
		case c == '#' && (i == 0 || strings.IndexByte(" \t;&|(", l[i-1]) >= 0):
			return
		case c == '(' && i > 0 && l[i-1] == '=':
			q.assign++
		case c == ')' && q.assign > 0:
			q.assign--
		case c == '<' && strings.HasPrefix(l[i:], "<<") && !strings.HasPrefix(l[i:], "<<<"):
			j := i + 2
			if j < len(l) && l[j] == '-' {
				j++
			}
			for j < len(l) && (l[j] == ' ' || l[j] == '\t') {
				j++
			}
			k := j
			for k < len(l) && strings.IndexByte(" \t;&|<>()", l[k]) < 0 {
				k++
			}
			if word := strings.Trim(l[j:k], `'"\`); word != "" {
				q.hdocs = append(q.hdocs, word)
			}
			i = k - 1
		default:
			if w := histWordAt(l, i); w != "" {
				switch w {
				case "case":
					q.caseDepth++
				case "esac":
					q.caseDepth = max(q.caseDepth-1, 0)
				}
				i += len(w) - 1
			}
		}
	}
}

// histWordAt is the plain word that starts at l[i], if one does.
func histWordAt(l string, i int) string {
	if i > 0 && strings.IndexByte(" \t;&|()", l[i-1]) < 0 {
		return ""
	}
	j := i
	for j < len(l) && (l[j] >= 'a' && l[j] <= 'z') {
		j++
	}
	if j < len(l) && strings.IndexByte(" \t;&|()", l[j]) < 0 {
		return ""
	}
	return l[i:j]
}

// histDelim is what bash puts between a line and the next one of the
// same command: a space where `;` could not go after the line's last
// token, else `; `.
func histDelim(prev string, inCase bool) string {
	t := prev
	if i := histCommentAt(t); i >= 0 {
		t = t[:i]
	}
	t = strings.TrimRight(t, " \t")
	if t == "" {
		return " "
	}
	switch t[len(t)-1] {
	case '{', '(', ';', '&', '|':
		return " "
	case ')':
		body := strings.TrimRight(t[:len(t)-1], " \t")
		if strings.HasSuffix(body, "(") || inCase {
			return " "
		}
		return "; "
	}
	at := strings.LastIndexAny(t, " \t;&|()") + 1
	word, before := t[at:], strings.Fields(t[:at])
	switch word {
	case "case", "do", "else", "if", "then", "until", "while":
		if histCommandPos(t[:at]) {
			return " "
		}
	case "in":
		if n := len(before); n >= 2 && (before[n-2] == "case" || before[n-2] == "for" || before[n-2] == "select") {
			return " "
		}
	}
	if f := strings.Fields(t); len(f) == 2 && f[0] == "function" {
		return " "
	}
	return "; "
}

// histCommentAt is where a comment starts in line, or -1.
func histCommentAt(l string) int {
	var quote byte
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
		case c == '\\':
			i++
		case quote == '"':
			if c == '"' {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || strings.IndexByte(" \t;&|(", l[i-1]) >= 0):
			return i
		}
	}
	return -1
}

// histCommandPos reports whether a word after text is in command
// position, where a reserved word is one.
func histCommandPos(text string) bool {
	t := strings.TrimRight(text, " \t")
	if t == "" || strings.ContainsRune(";&|(){", rune(t[len(t)-1])) {
		return true
	}
	switch t[strings.LastIndexAny(t, " \t;&|()")+1:] {
	case "then", "do", "else", "if", "elif", "while", "until", "!", "{":
		return true
	}
	return false
}

func boolUint(b bool) uint {
	if b {
		return 1
	}
	return 0
}
