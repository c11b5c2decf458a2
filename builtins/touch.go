package builtins

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "touch", Summary: "change file timestamps", Run: touch})

func touch(env *Env) int {
	f := NewFlags(env, "Update the access and modification times of each FILE to the current time.\n\n"+
		"A FILE argument that does not exist is created empty, unless -c is supplied.\n\n"+
		"Dates are read in UTC. -d accepts @SECONDS, 'now', YYYY-MM-DD and\n"+
		"YYYY-MM-DD[ T]HH:MM[:SS[.FRAC]] with an optional Z, UTC or +HH:MM zone;\n"+
		"free-form dates ('yesterday', 'next monday') are not supported. vfsd\n"+
		"reports modification times only, so -r copies the reference's modification\n"+
		"time to both times.", "[OPTION]... FILE...")
	onlyA := f.Bool('a', "", "change only the access time")
	onlyM := f.Bool('m', "", "change only the modification time")
	noCreate := f.Bool('c', "no-create", "do not create any files")
	dateStr, dateSet := f.String('d', "date", "STRING", "parse STRING and use it instead of current time")
	stampStr, stampSet := f.String('t', "", "STAMP", "use [[CC]YY]MMDDhhmm[.ss] instead of current time")
	refStr, refSet := f.String('r', "reference", "FILE", "use this file's times instead of current time")
	f.Bool('f', "", "(ignored)")
	noDeref := f.Bool('h', "no-dereference", "affect each symbolic link instead of any referenced file (refused\n"+
		"for a link: vfsd cannot set a link's own times)")
	f.Func(0, "time", RequiredArg, "WORD", "change the specified time: WORD is access, atime, or use: equivalent to -a; WORD is modify or mtime: equivalent to -m", func(v string, _ bool) error {
		switch v {
		case "access", "atime", "use":
			*onlyA = true
		case "modify", "mtime":
			*onlyM = true
		default:
			return &UsageError{"invalid argument " + gnu.QuoteAF(v) + " for '--time'\nValid arguments are:\n  - 'atime', 'access', 'use'\n  - 'mtime', 'modify'"}
		}
		return nil
	})
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	when := time.Now()
	switch {
	case *refSet:
		fi, err := env.FS.Stat(env.Abs(*refStr))
		if err != nil {
			env.Errorf("failed to get attributes of %s: %s", gnu.QuoteAF(*refStr), ErrText(err))
			return 1
		}
		when = fi.ModTime()
	case *stampSet:
		t, ok := touchStamp(*stampStr, when)
		if !ok {
			env.Errorf("invalid date format %s", gnu.Quote(*stampStr))
			return 1
		}
		when = t
	case *dateSet:
		t, ok := touchDate(*dateStr, when)
		if !ok {
			env.Errorf("invalid date format %s", gnu.Quote(*dateStr))
			return 1
		}
		when = t
	}
	if len(files) == 0 {
		return f.Fail(&UsageError{"missing file operand"}, 1)
	}
	atime, mtime := when, when
	if *onlyA && !*onlyM {
		mtime = time.Time{}
	}
	if *onlyM && !*onlyA {
		atime = time.Time{}
	}
	status := 0
	for _, name := range files {
		if env.Ctx.Err() != nil {
			return 1
		}
		if name == "-" {
			continue // touching standard output: nothing to do in-process
		}
		abs := env.Abs(name)
		if *noDeref {
			// GNU: -h creates nothing; a link's own times cannot be set here.
			fi, err := env.FS.Lstat(abs)
			switch {
			case err == nil && fi.Mode()&fs.ModeSymlink != 0:
				err = syscall.ENOTSUP
			case errors.Is(err, fs.ErrNotExist) && *noCreate:
				continue
			}
			if err != nil {
				env.Errorf("setting times of %s: %s", gnu.QuoteAF(name), ErrText(err))
				status = 1
				continue
			}
		}
		err := env.FS.Chtimes(abs, atime, mtime)
		if errors.Is(err, fs.ErrNotExist) {
			if *noCreate {
				continue
			}
			var file File
			if file, err = env.FS.OpenFile(abs, os.O_WRONLY|os.O_CREATE); err != nil {
				env.fileErrorf("cannot touch", name, err)
				status = 1
				continue
			}
			if err = file.Close(); err != nil {
				env.fileErrorf("cannot touch", name, err)
				status = 1
				continue
			}
			err = env.FS.Chtimes(abs, atime, mtime)
		}
		if err != nil {
			if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.ENAMETOOLONG) {
				env.fileErrorf("cannot touch", name, err)
			} else {
				env.Errorf("setting times of %s: %s", gnu.QuoteAF(name), ErrText(err))
			}
			status = 1
		}
	}
	return status
}

// touchStamp parses -t's [[CC]YY]MMDDhhmm[.ss] in UTC.
func touchStamp(s string, now time.Time) (time.Time, bool) {
	main, secs, hasSecs := strings.Cut(s, ".")
	for _, c := range main + secs {
		if c < '0' || c > '9' {
			return time.Time{}, false
		}
	}
	if hasSecs && len(secs) != 2 {
		return time.Time{}, false
	}
	year := now.UTC().Year()
	switch len(main) {
	case 8:
	case 10:
		yy, _ := strconv.Atoi(main[:2])
		if yy < 69 {
			year = 2000 + yy
		} else {
			year = 1900 + yy
		}
		main = main[2:]
	case 12:
		year, _ = strconv.Atoi(main[:4])
		main = main[4:]
	default:
		return time.Time{}, false
	}
	n := func(i int) int { v, _ := strconv.Atoi(main[i : i+2]); return v }
	sec := 0
	if hasSecs {
		sec, _ = strconv.Atoi(secs)
	}
	mon, day, hour, min := n(0), n(2), n(4), n(6)
	t := time.Date(year, time.Month(mon), day, hour, min, sec, 0, time.UTC)
	if mon < 1 || mon > 12 || day < 1 || day > 31 || hour > 23 || min > 59 || sec > 60 || t.Day() != day {
		return time.Time{}, false
	}
	return t, true
}

// touchDate parses the forms of -d that llmsh understands (see --help).
func touchDate(s string, now time.Time) (time.Time, bool) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "now", "today", "":
		return now, true
	}
	if rest, ok := strings.CutPrefix(s, "@"); ok {
		secs, frac, _ := strings.Cut(rest, ".")
		n, err := strconv.ParseInt(secs, 10, 64)
		if err != nil {
			return time.Time{}, false
		}
		var ns int64
		if frac != "" {
			if len(frac) > 9 {
				frac = frac[:9]
			}
			f, err := strconv.ParseInt(frac+strings.Repeat("0", 9-len(frac)), 10, 64)
			if err != nil {
				return time.Time{}, false
			}
			ns = f
		}
		return time.Unix(n, ns), true
	}
	s = strings.Replace(s, "T", " ", 1)
	zone := time.UTC
	for _, suffix := range []string{" UTC", "UTC", "Z", " Z"} {
		if strings.HasSuffix(s, suffix) {
			s = strings.TrimSpace(strings.TrimSuffix(s, suffix))
			break
		}
	}
	if i := strings.LastIndexAny(s, "+-"); i > 10 {
		off := strings.ReplaceAll(strings.TrimSpace(s[i+1:]), ":", "")
		if len(off) == 2 {
			off += "00"
		}
		if len(off) != 4 {
			return time.Time{}, false
		}
		hh, mm := off[:2], off[2:]
		h, err1 := strconv.Atoi(hh)
		m, err2 := strconv.Atoi(mm)
		if err1 != nil || err2 != nil {
			return time.Time{}, false
		}
		secs := h*3600 + m*60
		if s[i] == '-' {
			secs = -secs
		}
		zone = time.FixedZone("", secs)
		s = strings.TrimSpace(s[:i])
	}
	for _, layout := range []string{"2006-01-02", "2006-01-02 15:04", "2006-01-02 15:04:05", "2006-01-02 15:04:05.999999999"} {
		if t, err := time.ParseInLocation(layout, s, zone); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
