package shell

import (
	"context"
	"io"
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// read with an IFS that holds non-whitespace characters (IFS=, or IFS=:).
// interp splits such a line as if every IFS character were whitespace and
// drops empty fields ("a,,b" gives two fields, bash three). llmsh reads
// the line itself then, splits it by bash's rules and assigns through an
// eval. Other reads are interp's.

// ifsRead returns the command to run instead of args (a read), or nil to
// leave it to interp.
func (s *Shell) ifsRead(ctx context.Context, args []string) []string {
	hc := interp.HandlerCtx(ctx)
	ifsVar := hc.Env.Get("IFS")
	if !ifsVar.IsSet() {
		return nil
	}
	ifs := ifsVar.String()
	if strings.Trim(ifs, " \t\n") == "" {
		return nil // only whitespace: interp's splitting is bash's
	}
	raw, array := false, ""
	names := args[1:]
	for len(names) > 0 && strings.HasPrefix(names[0], "-") && names[0] != "-" {
		a := names[0]
		names = names[1:]
		if a == "--" {
			break
		}
		for i := 1; i < len(a); i++ {
			switch a[i] {
			case 'r':
				raw = true
			case 's':
			case 'a':
				array = a[i+1:]
				if array == "" {
					if len(names) == 0 {
						return nil
					}
					array, names = names[0], names[1:]
				}
				i = len(a)
			default:
				return nil // -d, -n, -t, -u…: interp's
			}
		}
	}
	if array != "" && len(names) > 0 {
		return nil
	}
	if array == "" && len(names) == 0 {
		names = []string{"REPLY"}
	}
	for _, n := range append(names, array) {
		if n != "" && !syntax.ValidName(n) {
			return nil
		}
	}
	line, esc, eof := readLine(hc.Stdin, raw)
	st := 0
	if eof {
		st = 1
	}
	var src strings.Builder
	if array != "" {
		fields := splitAll(line, esc, ifs)
		src.WriteString(array + "=(")
		for i, f := range fields {
			if i > 0 {
				src.WriteByte(' ')
			}
			src.WriteString(shQuote(f))
		}
		src.WriteString(")")
	} else {
		vals := splitVars(line, esc, ifs, len(names))
		for i, n := range names {
			if i > 0 {
				src.WriteByte(' ')
			}
			src.WriteString(n + "=" + shQuote(vals[i]))
		}
	}
	if st != 0 {
		src.WriteString("; (exit " + strconv.Itoa(st) + ")")
	}
	return []string{"eval", src.String()}
}

// readLine reads one line of r with readRecord.
func readLine(r io.Reader, raw bool) (line []byte, esc []bool, eof bool) {
	var b [1]byte
	next := func() (byte, error) {
		for {
			n, err := r.Read(b[:])
			if n > 0 {
				return b[0], nil
			}
			if err != nil {
				return 0, err
			}
		}
	}
	return readRecord(next, raw, '\n', -1, false)
}

// ifsSplitter splits a line by IFS as bash's read does.
type ifsSplitter struct {
	line []byte
	esc  []bool
	ifs  string
	pos  int
}

func (p *ifsSplitter) isIFS(i int) bool {
	return !p.esc[i] && strings.IndexByte(p.ifs, p.line[i]) >= 0
}

func (p *ifsSplitter) isWS(i int) bool {
	c := p.line[i]
	return p.isIFS(i) && (c == ' ' || c == '\t' || c == '\n')
}

func (p *ifsSplitter) skipWS() {
	for p.pos < len(p.line) && p.isWS(p.pos) {
		p.pos++
	}
}

// field takes one field and the delimiter after it.
func (p *ifsSplitter) field() string {
	start := p.pos
	for p.pos < len(p.line) && !p.isIFS(p.pos) {
		p.pos++
	}
	f := string(p.line[start:p.pos])
	p.skipWS()
	if p.pos < len(p.line) && p.isIFS(p.pos) && !p.isWS(p.pos) {
		p.pos++
		p.skipWS()
	}
	return f
}

// rest is what remains, its trailing IFS whitespace removed.
func (p *ifsSplitter) rest() string {
	end := len(p.line)
	for end > p.pos && p.isWS(end-1) {
		end--
	}
	return string(p.line[p.pos:end])
}

// splitVars gives n values: a field for each name but the last, which
// gets the rest of the line (or its one remaining field, without the
// delimiter after it).
func splitVars(line []byte, esc []bool, ifs string, n int) []string {
	p := &ifsSplitter{line: line, esc: esc, ifs: ifs}
	p.skipWS()
	vals := make([]string, n)
	for i := 0; i < n-1 && p.pos < len(line); i++ {
		vals[i] = p.field()
	}
	if p.pos < len(line) {
		save := p.pos
		f := p.field()
		if p.pos >= len(line) {
			vals[n-1] = f
		} else {
			p.pos = save
			vals[n-1] = p.rest()
		}
	}
	return vals
}

// splitAll gives every field (read -a): no field after a final delimiter.
func splitAll(line []byte, esc []bool, ifs string) []string {
	p := &ifsSplitter{line: line, esc: esc, ifs: ifs}
	p.skipWS()
	var out []string
	for p.pos < len(line) {
		out = append(out, p.field())
	}
	return out
}
