package builtins

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

// tarNewer is what -N (--newer, --after-date) and --newer-mtime select:
// the files (on create) or members (on list and extract) not older than
// a time. GNU tar's -N also takes a file whose status changed since; vfsd
// keeps no change time, so -N compares modification times, as
// --newer-mtime does.
type tarNewer struct {
	text, option string // the option's value and name, "" if none
	count        int    // how many were given ("More than one threshold date")
}

// tarTotals is --totals: the bytes written or read, said at the end.
type tarTotals struct {
	on     bool      // --totals (with no signal: at the end)
	signal bool      // --totals=SIGNAL: only on a signal, which never comes
	start  time.Time // when the work began, for the rate
	read   int64     // bytes of archive read (t, x, d)
	wrote  int64     // bytes of archive written (c, r, u)
}

// tarFlagsNewer declares -N, --newer, --after-date, --newer-mtime,
// --totals and the incremental options llmsh refuses.
func (s *tarState) tarFlagsNewer(f *Flags, o *tarOpts) {
	newer := func(option string) func(string, bool) error {
		return func(v string, _ bool) error {
			o.newer.text, o.newer.option = v, option
			o.newer.count++
			return nil
		}
	}
	f.Func('N', "newer", RequiredArg, "DATE-OR-FILE", "only store files newer than DATE-OR-FILE (llmsh: by modification time; vfsd keeps no change time)", newer("--after-date"))
	f.Func(0, "after-date", RequiredArg, "DATE", "same as -N", newer("--after-date"))
	f.Func(0, "newer-mtime", RequiredArg, "DATE", "compare date and time when data changed only", newer("--newer-mtime"))
	f.Func(0, "totals", OptionalArg, "SIGNAL", "print total bytes after processing the archive; with an argument - print total bytes when this SIGNAL is delivered; allowed signals are: SIGHUP, SIGQUIT, SIGINT, SIGUSR1 and SIGUSR2; the names without SIG prefix are also accepted", func(v string, present bool) error {
		if !present {
			s.totals.on = true
			return nil
		}
		switch strings.TrimPrefix(v, "SIG") {
		case "HUP", "QUIT", "INT", "USR1", "USR2":
			s.totals.on, s.totals.signal = false, true
		default:
			if o.fatal == "" {
				o.fatal, o.unrecoverable = "Unknown signal name: "+v, true
			}
		}
		return nil
	})
	refuse := func(v string, _ bool) error {
		if o.fatal == "" {
			o.fatal = "incremental archives (-g, -G) are not supported by llmsh"
		}
		return nil
	}
	f.Func('g', "listed-incremental", RequiredArg, "FILE", "handle new GNU-format incremental backup (llmsh: refused)", refuse)
	f.Func('G', "incremental", NoArg, "", "handle old GNU-format incremental backup (llmsh: refused)", refuse)
}

// resolveNewer turns -N's text into a time once options are read, as GNU
// tar does: a name starting with / or . is a file whose modification time
// is taken; a date tar cannot read is the oldest time, said in a warning.
// false (reported) is a usage error.
func (s *tarState) resolveNewer(n tarNewer) bool {
	env := s.env
	if n.count == 0 {
		return true
	}
	if n.count > 1 {
		tarUsageError(env, "More than one threshold date")
		return false
	}
	v := n.text
	if strings.HasPrefix(v, "/") || strings.HasPrefix(v, ".") {
		fi, err := env.FS.Stat(env.Abs(v))
		if err != nil {
			env.Errorf("%s: Cannot stat: %s", tarQuoteColon(v), ErrText(err))
			tarUsageError(env, "Date sample file not found")
			return false
		}
		t := fi.ModTime()
		s.newer = &t
		return true
	}
	loc := dateLocation(env)
	t, err := dateParse(v, time.Now(), loc)
	if err != nil {
		env.Errorf("Substituting -9223372036854775807 for unknown date format %s", env.Quote(v))
		t = time.Unix(-1<<63+1, 0)
		s.newer = &t
		return true
	}
	s.newer = &t
	// -t lists, which makes GNU tar verbose enough to say this.
	if shown := tarTime(t.In(loc)); (s.verbose > 0 || s.mode == 't') && shown != v {
		env.Errorf("Option %s: Treating date '%s' as %s", n.option, v, shown)
	}
	return true
}

// tarTime is a time as GNU tar's messages write it, with its fraction of
// a second when it has one.
func tarTime(t time.Time) string {
	s := t.Format("2006-01-02 15:04:05")
	if ns := t.Nanosecond(); ns != 0 {
		s += fmt.Sprintf(".%09d", ns)
	}
	return s
}

// olderFile reports whether -N leaves out a file of this time: on create
// (files, not directories), said with -v as GNU tar says it.
func (s *tarState) olderFile(fi interface{ IsDir() bool }, mtime time.Time, shown string) bool {
	if s.newer == nil || fi.IsDir() || !mtime.Before(*s.newer) {
		return false
	}
	if s.verbose > 0 {
		s.env.Errorf("%s: file is unchanged; not dumped", tarQuoteColon(shown))
	}
	return true
}

// olderMember reports whether -N leaves out a member on list, extract or
// compare (directories too), by its archived time in whole seconds.
func (s *tarState) olderMember(mtime time.Time) bool {
	return s.newer != nil && mtime.Truncate(time.Second).Before(*s.newer)
}

// reportTotals says --totals' figures on standard error at the end, as
// GNU tar does: the bytes of archive (before compression) written or
// read, in bytes and in powers of 1024, and the rate.
func (s *tarState) reportTotals() {
	t := s.totals
	if !t.on {
		return
	}
	switch s.mode {
	case 'c', 'r', 'u', 'A':
		s.totalLine("Total bytes written", t.wrote)
	case 'd':
		// --delete: what was read, what was written again, and the
		// difference, as GNU tar counts them.
		s.totalLine("Total bytes read", t.read)
		s.totalLine("Total bytes written", t.wrote)
		fmt.Fprintf(s.env.Stderr, "Total bytes deleted: %d\n", t.read-t.wrote)
	default:
		s.totalLine("Total bytes read", t.read)
	}
}

// totalLine is one line of --totals: bytes, in powers of 1024, and the
// rate since the start.
func (s *tarState) totalLine(text string, n int64) {
	rate := "?"
	if d := time.Since(s.totals.start).Seconds(); d > 0 {
		rate = tarHuman(int64(float64(n) / d))
	}
	fmt.Fprintf(s.env.Stderr, "%s: %d (%s, %s/s)\n", text, n, tarHuman(n), rate)
}

// deleteTotals records --delete's figures: the archive read (to its
// record's end) and what was written of it, nothing when no member was
// found (GNU tar then rewrites nothing).
func (s *tarState) deleteTotals(read, wrote int64, found []bool) {
	s.tarReadTotal(read)
	if slices.Contains(found, true) {
		s.totals.wrote = wrote
	}
}

// tarHuman is gnulib's human_readable with autoscale, base 1024, SI and
// B: 10KiB, 1.3MiB, 512B.
func tarHuman(n int64) string {
	h := gnu.HumanCeil(n)
	if c := h[len(h)-1]; c >= '0' && c <= '9' {
		return h + "B"
	}
	return h + "iB"
}

// tarReadTotal is the bytes of archive read for --totals: what was read,
// to the end of its record, as GNU tar reads whole records.
func (s *tarState) tarReadTotal(n int64) {
	if s.totals.on {
		s.totals.read = n + s.pad(n, 0)
	}
}
