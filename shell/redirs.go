package shell

import (
	"context"
	"io"
	"os"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// Redirections of stdin, stdout and stderr that interp does not know
// (it says "unhandled redirect op" and skips the command). The pre-pass
// (stdRedirStmt) turns each into one that it does:
//
//	>|FILE, N>|FILE       ->  >"\x01clobber FILE" (set -C does not refuse it)
//	>&FILE, 1>&FILE       ->  &>FILE (bash: a word that is not a descriptor)
//	<>FILE, N<>FILE       ->  <"\x01rdwr FILE", N>>"\x01rdwr FILE"
//
// The open handler opens a "\x01rdwr " name read-write, created if absent,
// not truncated, at offset 0, as open(2) with O_RDWR|O_CREAT. Descriptors
// above 2 are fds.go's.
const rdwrFile = "\x01rdwr "

// stdRedirStmt rewrites st's redirections of 0, 1 and 2 listed above.
func stdRedirStmt(st *syntax.Stmt) {
	for _, rd := range st.Redirs {
		n := ""
		if rd.N != nil {
			n = rd.N.Value
		}
		switch {
		case rd.Op == syntax.RdrClob && (n == "" || n == "0" || n == "1" || n == "2"):
			rd.Op = syntax.RdrOut
			rd.Word = clobberWord(rd)
		case rd.Op == syntax.DplOut && (n == "" || n == "1"):
			if w, ok := staticText(rd.Word); ok && w != "-" {
				if _, isFd := parseFd(strings.TrimSuffix(w, "-")); !isFd {
					rd.Op, rd.N = syntax.RdrAll, nil
				}
			}
		case rd.Op == syntax.RdrInOut && (n == "" || n == "0" || n == "1" || n == "2"):
			word := &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{ValuePos: rd.OpPos, ValueEnd: rd.OpPos, Value: rdwrFile}}}
			word.Parts = append(word.Parts, rd.Word.Parts...)
			rd.Word = word
			if n == "" || n == "0" {
				rd.Op, rd.N = syntax.RdrIn, nil
			} else {
				rd.Op = syntax.AppOut
			}
		}
	}
}

// clobberWord is the word of >|FILE marked for the open handler, which
// then opens FILE even under set -C.
func clobberWord(rd *syntax.Redirect) *syntax.Word {
	word := &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{ValuePos: rd.OpPos, ValueEnd: rd.OpPos, Value: clobberFile}}}
	word.Parts = append(word.Parts, rd.Word.Parts...)
	return word
}

// staticText is the value of a word without expansions (literal and
// quoted text only).
func staticText(w *syntax.Word) (string, bool) {
	var b strings.Builder
	var add func(parts []syntax.WordPart) bool
	add = func(parts []syntax.WordPart) bool {
		for _, p := range parts {
			switch p := p.(type) {
			case *syntax.Lit:
				b.WriteString(p.Value)
			case *syntax.SglQuoted:
				if p.Dollar {
					return false
				}
				b.WriteString(p.Value)
			case *syntax.DblQuoted:
				if !add(p.Parts) {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	if !add(w.Parts) {
		return "", false
	}
	return b.String(), true
}

// openReadWrite serves a "\x01rdwr NAME" redirection.
func (s *Shell) openReadWrite(ctx context.Context, name string, flag int) (io.ReadWriteCloser, error) {
	f, err := s.openPlain(ctx, name, os.O_RDWR|os.O_CREATE, false)
	if err != nil || flag&(os.O_WRONLY|os.O_RDWR) == 0 {
		return f, err
	}
	return s.carry(interp.HandlerCtx(ctx), f), nil
}
