package builtins

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

var _ = register(Builtin{Name: "touch", Summary: "change file timestamps", Run: touch})

func touch(env *Env) int {
	f := NewFlags(env, "Update the access and modification times of each FILE to the current time.\n\n"+
		"A FILE argument that does not exist is created empty, unless -c is supplied.\n\n"+
		"-d reads the dates that date -d does; -d and -t read local times in the\n"+
		"script's TZ (UTC when unset). vfsd reports modification times only, so -r\n"+
		"copies the reference's modification time to both times.", "[OPTION]... FILE...")
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
			return &UsageError{"invalid argument " + env.QuoteAF(v) + " for '--time'\nValid arguments are:\n  - 'atime', 'access', 'use'\n  - 'mtime', 'modify'"}
		}
		return nil
	})
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if *stampSet && (*dateSet || *refSet) {
		return f.Fail(&UsageError{"cannot specify times from more than one source"}, 1)
	}
	when, ok := touchWhen(env, touchSource{*refStr, *stampStr, *dateStr, *refSet, *stampSet, *dateSet})
	if !ok {
		return 1
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
				env.Errorf("setting times of %s: %s", env.QuoteAF(name), ErrText(err))
				status = 1
				continue
			}
		}
		err := env.FS.Chtimes(abs, atime, mtime)
		// Linux's open(O_CREAT) of NAME/ fails with EISDIR, which GNU's
		// touch does not keep: setting the times tells what is wrong.
		slash := strings.HasSuffix(name, "/")
		if errors.Is(err, fs.ErrNotExist) {
			if *noCreate {
				continue
			}
			if slash {
				env.Errorf("setting times of %s: %s", env.QuoteAF(name), ErrText(err))
				status = 1
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
			if !slash && (errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.ENAMETOOLONG) || errors.Is(err, syscall.ENOTDIR)) {
				// GNU's open(O_CREAT) failed first: its error is the one told.
				env.fileErrorf("cannot touch", name, err)
			} else {
				env.Errorf("setting times of %s: %s", env.QuoteAF(name), ErrText(err))
			}
			status = 1
		}
	}
	return status
}

// touchSource is where touch's time comes from: -r FILE, -t STAMP, -d DATE.
type touchSource struct {
	ref, stamp, date          string
	refSet, stampSet, dateSet bool
}

// touchWhen is the time src gives (now when none): -d's date is relative
// to -r's time when both are given. Errors are reported; ok is false.
func touchWhen(env *Env, src touchSource) (when time.Time, ok bool) {
	when = time.Now()
	if src.refSet {
		fi, err := env.FS.Stat(env.Abs(src.ref))
		if err != nil {
			env.Errorf("failed to get attributes of %s: %s", env.QuoteAF(src.ref), ErrText(err))
			return when, false
		}
		when = fi.ModTime()
	}
	switch {
	case src.stampSet:
		t, ok := touchStamp(src.stamp, when, dateLocation(env))
		if !ok {
			env.Errorf("invalid date format %s", env.Quote(src.stamp))
			return when, false
		}
		when = t
	case src.dateSet:
		t, err := dateParse(src.date, when, dateLocation(env))
		if err != nil {
			env.Errorf("invalid date format %s", env.Quote(src.date))
			return when, false
		}
		when = t
	}
	return when, true
}

// touchStamp parses -t's [[CC]YY]MMDDhhmm[.ss] in loc.
func touchStamp(s string, now time.Time, loc *time.Location) (time.Time, bool) {
	main, secs, hasSecs := strings.Cut(s, ".")
	for _, c := range main + secs {
		if c < '0' || c > '9' {
			return time.Time{}, false
		}
	}
	if hasSecs && len(secs) != 2 {
		return time.Time{}, false
	}
	year := now.In(loc).Year()
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
	// A leap second (.60) is taken as :59 and one second added, as GNU's
	// posixtime does: 12312359.60 is the next day's 00:00:00.
	leap := sec == 60
	if leap {
		sec = 59
	}
	t := time.Date(year, time.Month(mon), day, hour, min, sec, 0, loc)
	if mon < 1 || mon > 12 || day < 1 || day > 31 || hour > 23 || min > 59 || sec > 59 || t.Day() != day {
		return time.Time{}, false
	}
	if leap {
		t = t.Add(time.Second)
	}
	return t, true
}
