package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// runToSyntaxError is Run for a script with a syntax error, as bash runs
// one: the complete command lines before the error run, then the error is
// printed in bash's words and the status is bash's (2, or the status of
// the last command that ran for some: interp.SyntaxErrorStatus), unless
// those lines ran exit.
func (s *Shell) runToSyntaxError(ctx context.Context, src, name string, err error) int {
	var perr syntax.ParseError
	if le := (syntax.LangError{}); errors.As(err, &le) {
		perr = interp.LangSyntaxError(le, src) // bash's syntax error
	} else if !errors.As(err, &perr) {
		fmt.Fprintf(s.opts.Stderr, "llmsh: %v\n", err)
		return 2
	}
	if !strings.HasSuffix(src, "\n") {
		// bash reads the end of the text as a newline: the error is
		// the one met there.
		_, err := syntax.NewParser().Parse(strings.NewReader(src+"\n"), name)
		var nl syntax.ParseError
		ok := errors.As(err, &nl)
		if le := (syntax.LangError{}); errors.As(err, &le) {
			nl, ok = interp.LangSyntaxError(le, src+"\n"), true
		}
		if ok {
			src, perr = src+"\n", nl
		}
	}
	s.syntaxEnded = true // unless the error is one bash reads on after
	status := s.syntaxErrorStatus(perr, src, s.LastStatus())
	held := false
	// RunInput runs the EXIT trap itself, when the script has ended.
	exitTrap := func(st int) int {
		if s.inputRun {
			return st
		}
		return s.runner.RunExitTrap(ctx, st)
	}
	stderr := s.opts.Stderr // the script's own once lines have run
	if s.lineOffset > 0 {
		stderr = s.runner.Stderr() // (RunInput's commands before this text)
	}
	prefix := interp.CompleteLines(src, perr)
	if prefix != "" {
		// bash prints the error, then runs the EXIT trap, with the
		// descriptors the lines before left (exec 2>log).
		s.runner.HoldExitTrap(true)
		outerHold := s.holdEnd
		s.holdEnd = true
		st, readOn := s.runPart(ctx, prefix, src, name)
		s.holdEnd = outerHold
		s.runner.HoldExitTrap(s.inputRun)
		if !outerHold && !s.isNested {
			defer func() {
				if !s.endedRun {
					s.endScript(func() {})
				}
			}()
		}
		stderr = s.runner.Stderr()
		if readOn || !s.running(ctx) {
			// (An alias read on past the failing command's start:
			// the rest was read as bash reads it.)
			return st
		}
		if s.runner.AliasReadEnd() > int(perr.Pos.Offset()) {
			// An alias read the failing lines, to the end of the
			// text: they ran, and there is nothing more.
			s.syntaxEnded = false
			return exitTrap(st)
		}
		held = true
		status = s.syntaxErrorStatus(perr, src, st)
	}
	if read, ok := s.runner.AliasReread(ctx, src, len(prefix), int(perr.Pos.Line()), name); ok {
		// An alias that the lines before defined makes a command of
		// the failing lines, as bash reads them: they run, then the
		// rest is read on.
		s.runner.HoldExitTrap(true)
		s.runner.SetSourceAt(read.Text, s.lineOffset)
		st := s.RunFile(ctx, read.File)
		s.runner.HoldExitTrap(s.inputRun)
		if !s.running(ctx) {
			return st
		}
		if blankText(read.Rest) {
			return exitTrap(st)
		}
		s.syntaxEnded = false
		return s.Run(ctx, read.Rest, name)
	}
	line, msgs := s.hdocWarnings(stderr, perr, src)
	if s.runner.ErrexitSyntax() {
		// bash's parser_error exits under set -e: its first line only,
		// status 2, nothing read on.
		l, m := interp.MsgLine(line, msgs[0])
		fmt.Fprintf(stderr, "%sline %d: %s\n", s.errPrefix(), l+s.lineOffset, m)
		if held {
			return exitTrap(2)
		}
		return 2
	}
	for _, m := range msgs {
		l, m := interp.MsgLine(line, m)
		if s.runner.GnuErrfmt() {
			// bash's "NAME:N: " ("bash: -c:N: ") under gnu_errfmt.
			fmt.Fprintf(stderr, "%s:%d: %s\n", strings.TrimSuffix(s.errPrefix(), ": "), l+s.lineOffset, m)
			continue
		}
		fmt.Fprintf(stderr, "%sline %d: %s\n", s.errPrefix(), l+s.lineOffset, m)
	}
	if rest, ok := interp.ResumeText(src, perr, line); ok {
		// bash reads on after an error it recovers from (an array
		// literal's), the status 1.
		s.SetLastStatus(1)
		s.syntaxEnded = false
		if strings.TrimSpace(rest) == "" {
			status = 1
		} else {
			return s.Run(ctx, rest, name)
		}
	}
	if held {
		return exitTrap(status)
	}
	return status
}

// hdocWarnings says, before a syntax error, bash's warning for each
// here-document that the end of the text ended: bash's reader warns as
// it meets the end, its parser fails after. A script file's name its
// line; bash -c and a script on stdin say "bash: warning: …". It
// returns the error's line and messages (interp.SyntaxError).
func (s *Shell) hdocWarnings(stderr io.Writer, perr syntax.ParseError, src string) (line int, msgs []string) {
	for _, h := range perr.Hdocs {
		h.Pos = syntax.NewPos(h.Pos.Offset(), h.Pos.Line()+uint(s.lineOffset), h.Pos.Col())
		if s.opts.Command || s.opts.FromStdin {
			fmt.Fprintf(stderr, "llmsh: %s\n", interp.HdocWarning(h))
			continue
		}
		fmt.Fprintf(stderr, "%sline %d: %s\n", s.errPrefix(), interp.TextLines(src)+s.lineOffset, interp.HdocWarning(h))
	}
	return interp.SyntaxError(perr, src)
}

// errPrefix is what bash prints before "line N: " in a script's messages.
func (s *Shell) errPrefix() string {
	switch {
	case s.opts.Source != "":
		return s.opts.Source + ": "
	case s.opts.Command:
		return s.opts.Name + ": -c: "
	}
	return s.opts.Name + ": "
}

// blankText reports whether text holds nothing but blanks and comments.
func blankText(text string) bool {
	for line := range strings.Lines(text) {
		if line = strings.TrimSpace(line); line != "" && line[0] != '#' {
			return false
		}
	}
	return true
}

// syntaxErrorStatus is interp.SyntaxErrorStatus, but 127 for an error
// inside a command or process substitution of a -c script, as bash 5.2
// says (`bash -c 'x=$(if)'`); a script file says 2 (1 for a conditional
// command's error).
func (s *Shell) syntaxErrorStatus(perr syntax.ParseError, src string, last int) int {
	if s.opts.Command && perr.InSubst {
		return 127
	}
	return interp.SyntaxErrorStatus(perr, src, last)
}
