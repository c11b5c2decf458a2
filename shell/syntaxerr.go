package shell

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// runToSyntaxError is Run for a script with a syntax error, as bash runs
// one: the complete command lines before the error run, then the error is
// printed in bash's words and the status is 2 (unless those lines ran
// exit). An error in a conditional command ([[ 1 -eq ]]) ends the script
// with the status of the last command that ran, as bash's does.
func (s *Shell) runToSyntaxError(ctx context.Context, src, name string, err error) int {
	var perr syntax.ParseError
	if !errors.As(err, &perr) {
		fmt.Fprintf(s.opts.Stderr, "llmsh: %v\n", err)
		return 2
	}
	status := 2
	if perr.Status != 0 {
		status = int(perr.Status)
	}
	if perr.Cond {
		status = s.LastStatus()
	}
	held := false
	if prefix := interp.CompleteLines(src, perr); prefix != "" {
		// bash prints the error, then runs the EXIT trap.
		s.runner.HoldExitTrap(true)
		st := s.Run(ctx, prefix, name)
		s.runner.HoldExitTrap(false)
		if s.Exited() || ctx.Err() != nil || s.limitErr() != nil {
			return st
		}
		held = true
		if perr.Cond {
			status = st
		}
	}
	line, msgs := interp.SyntaxError(perr, src)
	for _, m := range msgs {
		l, m := interp.MsgLine(line, m)
		fmt.Fprintf(s.opts.Stderr, "%sline %d: %s\n", s.errPrefix(), l, m)
	}
	if rest, ok := interp.ResumeText(src, perr, line); ok {
		// bash reads on after an error it recovers from (an array
		// literal's), the status 1.
		s.SetLastStatus(1)
		if strings.TrimSpace(rest) == "" {
			status = 1
		} else {
			return s.Run(ctx, rest, name)
		}
	}
	if held {
		return s.runner.RunExitTrap(ctx, status)
	}
	return status
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
