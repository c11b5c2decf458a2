// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// The time keyword as bash reports it: real, user and system time on the
// shell's stderr, in $TIMEFORMAT's format (bash's default, or POSIX's
// with -p). User and system time are the llmsh process's own CPU time
// over the pipeline's run (getrusage of the process, which the jobs and
// sessions running at the same time share). See LLMSH.md.

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

const (
	defaultTimeFormat = "\nreal\t%3lR\nuser\t%3lU\nsys\t%3lS"
	posixTimeFormat   = "real %2R\nuser %2U\nsys %2S"
)

func (r *Runner) timeClause(ctx context.Context, cm *syntax.TimeClause) {
	// llmsh: bash's `time time CMD` marks one pipeline timed twice:
	// one report, in POSIX format if either asked for it.
	// `time ! time false` is one report of the negated pipeline.
	st, posix, negated := cm.Stmt, cm.PosixFormat, false
	for st != nil && len(st.Redirs) == 0 && !st.Background && !st.Coprocess {
		inner, ok := st.Cmd.(*syntax.TimeClause)
		if !ok {
			break
		}
		negated = negated != st.Negated
		st, posix = inner.Stmt, posix || inner.PosixFormat
	}
	start := time.Now()
	user0, sys0 := processTimes()
	report := func() {
		if negated {
			if r.exit.ok() {
				r.exit.code = 1
			} else {
				r.exit.clear()
			}
		}
		r.timeReport(posix, time.Since(start), user0, sys0)
	}
	if st == nil {
		report()
		return
	}
	if sub, ok := st.Cmd.(*syntax.Subshell); ok && len(st.Redirs) > 0 && !st.Negated &&
		!st.Background && !st.Coprocess {
		// llmsh: bash times `( … ) 2>f` in the subshell, under its
		// redirections: the report goes where they send stderr.
		r.timedSub, r.timedReport = sub, report
		r.stmt(ctx, st)
		// A redirection that failed ends bash's subshell, and
		// its report, before it runs.
		r.timedSub, r.timedReport = nil, nil
		return
	}
	r.stmt(ctx, st)
	report()
}

// timeReport writes the report of a timed pipeline that started at real
// ago with the process's CPU times user0 and sys0, on r.stderr.
func (r *Runner) timeReport(posix bool, real time.Duration, user0, sys0 time.Duration) {
	user1, sys1 := processTimes()
	format := defaultTimeFormat
	if posix {
		format = posixTimeFormat
	} else if v := r.lookupVar("TIMEFORMAT"); v.IsSet() {
		format = v.String()
		if format == "" {
			return
		}
	}
	out, bad, ok := formatTimes(format, real, user1-user0, sys1-sys0)
	if !ok {
		// llmsh: bash's words, and no report.
		r.errf("%sTIMEFORMAT: `%c': invalid format character\n", r.errPrefix(), bad)
		return
	}
	r.errf("%s\n", out)
}

// formatTimes expands a $TIMEFORMAT: %[p][l]R (or E), U, S (p digits
// after the point, 0 to 3; l for minutes and seconds), %P (CPU
// percentage), %%. Any other character after a % is bash's error: ok is
// false and bad is that character (a NUL at the end of the text), and
// nothing is printed.
func formatTimes(format string, real, user, sys time.Duration) (out string, bad byte, ok bool) {
	var sb strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 >= len(format) {
			sb.WriteByte(c)
			continue
		}
		i++
		switch format[i] {
		case '%':
			sb.WriteByte('%')
			continue
		case 'P':
			pct := 0.0
			if real > 0 {
				pct = float64(user+sys) / float64(real) * 100
			}
			fmt.Fprintf(&sb, "%.2f", pct)
			continue
		}
		prec, long := 3, false
		if d := format[i]; d >= '0' && d <= '9' {
			prec = min(int(d-'0'), 3)
			i++
		}
		if i < len(format) && format[i] == 'l' {
			long = true
			i++
		}
		var d time.Duration
		switch byteAt(format, i) {
		case 'R', 'E':
			d = real
		case 'U':
			d = user
		case 'S':
			d = sys
		default:
			return "", byteAt(format, i), false
		}
		secs := d.Seconds()
		if long {
			mins := int(secs / 60)
			fmt.Fprintf(&sb, "%dm%.*fs", mins, prec, secs-float64(mins*60))
		} else {
			fmt.Fprintf(&sb, "%.*f", prec, secs)
		}
	}
	return sb.String(), 0, true
}

// byteAt is s[i], or a NUL past its end.
func byteAt(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}
