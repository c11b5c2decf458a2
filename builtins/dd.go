package builtins

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

func init() {
	Register(Builtin{Name: "dd", Summary: "copy a file, converting and formatting according to the operands", Run: dd})
}

// ddSize parses a dd number as GNU dd 9.1: gnu.ParseSize in base 10 with the
// suffixes c w b B kB K KiB MB M ... (no lower-case m, g, t), or one
// product A x B of two such numbers (2x512). It reports an invalid value
// or one above the largest int64 (overflow) in GNU's words; a product of
// zero written 0x... gets GNU's warning.
func ddSize(env *Env, s string) (int64, bool) {
	const suffixes = "BbcEGkKMPTwYZ0"
	fail := func(e gnu.SizeErr) (int64, bool) {
		if e == gnu.SizeOverflow {
			env.Errorf("invalid number: %s: Value too large for defined data type", gnu.Quote(s))
		} else {
			env.Errorf("invalid number: %s", gnu.Quote(s))
		}
		return 0, false
	}
	left, right, prod := strings.Cut(s, "x")
	a, e := gnu.ParseSize(left, 10, suffixes)
	if e&^gnu.SizeOverflow != 0 || left == "" {
		return fail(gnu.SizeInvalid)
	}
	if prod {
		b, f := gnu.ParseSize(right, 10, suffixes)
		if f&^gnu.SizeOverflow != 0 || strings.Contains(right, "x") {
			return fail(gnu.SizeInvalid)
		}
		if e|f != 0 || b != 0 && a > math.MaxInt64/b {
			return fail(gnu.SizeOverflow)
		}
		a *= b
		if a == 0 && strings.HasPrefix(s, "0x") {
			env.Errorf("warning: '0x' is a zero multiplier; use '00x' if that is intended")
		}
	}
	if e != gnu.SizeOK || a > math.MaxInt64 {
		return fail(gnu.SizeOverflow)
	}
	return int64(a), true
}

func dd(env *Env) int {
	f := NewFlags(env, "Copy a file, converting and formatting according to the operands.\n\n  bs=BYTES        read and write up to BYTES bytes at a time (default: 512);\n                  overrides ibs and obs\n  conv=CONVS      convert the file as per the comma separated symbol list\n  count=N         copy only N input blocks\n  ibs=BYTES       read up to BYTES bytes at a time (default: 512)\n  if=FILE         read from FILE instead of stdin\n  iflag=FLAGS     read as per the comma separated symbol list\n  obs=BYTES       write BYTES bytes at a time (default: 512)\n  of=FILE         write to FILE instead of stdout\n  oflag=FLAGS     write as per the comma separated symbol list\n  seek=N          skip N obs-sized output blocks\n  skip=N          skip N ibs-sized input blocks\n  status=LEVEL    'none' suppresses everything but error messages,\n                  'noxfer' suppresses the final transfer statistics\n\nCONVS: lcase, ucase, notrunc, sync, noerror (accepted), fsync, fdatasync (accepted).\nFLAGS: append (oflag), fullblock, count_bytes, skip_bytes (iflag), seek_bytes\n(oflag); direct, directory, dsync, noatime, nocache, noctty, nofollow, nonblock\nand sync are accepted with no effect.", "[OPERAND]...", "OPTION")
	operands, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	var (
		in, out            = "-", ""
		ibs, obs     int64 = 512, 512
		bsSet        bool
		count        int64 = -1
		skip, seek   int64
		ucase, lcase bool
		notrunc, pad bool
		status       = ""
		iflag, oflag ddFlags
	)
	for _, op := range operands {
		key, val, ok := strings.Cut(op, "=")
		if !ok {
			return f.Fail(&UsageError{fmt.Sprintf("unrecognized operand %s", gnu.Quote(op))}, 1)
		}
		num := func() (int64, bool) { return ddSize(env, val) }
		if (key == "bs" || key == "ibs" || key == "obs") && val != "" {
			// A block size of 0 is named as written (bs=0x10, with its warning).
			if n, ok := ddSize(env, val); !ok {
				return 1
			} else if n == 0 {
				env.Errorf("invalid number: %s", gnu.Quote(val))
				return 1
			}
		}
		var good bool
		switch key {
		case "if":
			in, good = val, true
		case "of":
			out, good = val, true
		case "bs":
			var n int64
			if n, good = num(); good {
				ibs, obs, bsSet = n, n, true
			}
		case "ibs":
			ibs, good = num()
		case "obs":
			obs, good = num()
		case "count":
			count, good = num()
		case "skip":
			skip, good = num()
		case "seek":
			seek, good = num()
		case "status":
			switch val {
			case "none", "noxfer", "progress":
				status, good = val, true
			default:
				return f.Fail(&UsageError{fmt.Sprintf("invalid status level: %s", gnu.Quote(val))}, 1)
			}
		case "iflag", "oflag":
			what, fl := "input", &iflag
			if key == "oflag" {
				what, fl = "output", &oflag
			}
			bad, ok := fl.parse(val)
			if !ok {
				return f.Fail(&UsageError{fmt.Sprintf("invalid %s flag: %s", what, gnu.Quote(bad))}, 1)
			}
			good = true
		case "conv":
			good = true
			for _, c := range strings.Split(val, ",") {
				switch c {
				case "ucase":
					ucase = true
				case "lcase":
					lcase = true
				case "notrunc":
					notrunc = true
				case "sync":
					pad = true
				case "noerror", "fsync", "fdatasync", "":
				default:
					env.Errorf("invalid conversion: %s", gnu.Quote(c))
					good = false
				}
			}
			if ucase && lcase {
				env.Errorf("cannot combine lcase and ucase")
				good = false
			}
		default:
			return f.Fail(&UsageError{fmt.Sprintf("unrecognized operand %s", gnu.Quote(op))}, 1)
		}
		if !good {
			return 1
		}
	}
	if oflag.fullblock {
		return f.Fail(&UsageError{"invalid output flag: 'fullblock'"}, 1)
	}
	if iflag.direct && iflag.nocache || oflag.direct && oflag.nocache {
		env.Errorf("cannot combine direct and nocache")
		return 1
	}
	if oflag.append && !notrunc {
		env.Errorf("you probably want conv=notrunc with oflag=append")
	}
	if ibs <= 0 || obs <= 0 {
		env.Errorf("invalid number: '0'")
		return 1
	}
	// A buffer is allocated whole: GNU's words when that cannot be done
	// (llmsh's bound is 1 GiB, in process).
	for _, b := range []struct {
		what string
		n    int64
	}{{"input", ibs}, {"output", obs}} {
		if b.n > 1<<30 {
			env.Errorf("memory exhausted by %s buffer of size %d bytes (%s)", b.what, b.n, ddUnits(float64(b.n), 1024, []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}))
			return 1
		}
	}
	start := time.Now()
	r, err := env.Open(in)
	if err != nil {
		env.Errorf("failed to open %s: %s", gnu.QuoteAF(in), ErrText(err))
		return 1
	}
	defer r.Close()
	var w io.Writer = env.Stdout
	var of File
	seekOff := seek * obs
	if oflag.seekBytes {
		seekOff = seek
	}
	if out != "" && oflag.append && notrunc {
		of, err = env.Append(out) // every write goes to the end
		if err != nil {
			env.Errorf("failed to open %s: %s", gnu.QuoteAF(out), ErrText(err))
			return 1
		}
		w = of
	} else if out != "" && oflag.seekBytes && seek < obs && !notrunc {
		// GNU truncates whenever seek is less than one output block
		// (seek_records is 0): the bytes before the offset become zeros.
		of, err = env.Create(out)
		if err == nil {
			if _, werr := of.Write(make([]byte, seekOff)); werr != nil {
				of.Close()
				err = werr
			}
		}
		if err != nil {
			env.Errorf("failed to open %s: %s", gnu.QuoteAF(out), ErrText(err))
			return 1
		}
		w = of
	} else if out != "" {
		of, err = ddOpenOutput(env, out, seekOff, notrunc)
		if err != nil {
			env.Errorf("failed to open %s: %s", gnu.QuoteAF(out), ErrText(err))
			return 1
		}
		w = of
	} else if seekOff > 0 {
		// Standard output cannot seek here: GNU would write zeros past a
		// pipe; do the same.
		if _, err := w.Write(make([]byte, seekOff)); err != nil {
			return ddWriteFail(env, err)
		}
	}
	// Skip input blocks: seek a file, read and discard a pipe. Skipping
	// past the end is not an error; GNU warns.
	if skip > 0 {
		n := skip * ibs
		if iflag.skipBytes {
			n = skip
		}
		short := false
		if s, ok := r.(io.Seeker); ok && in != "-" {
			if st, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
				if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() < n {
					short = true
				}
			}
			if _, err := s.Seek(n, io.SeekStart); err != nil {
				env.Errorf("%s: cannot skip: %s", in, ErrText(err))
				return 1
			}
		} else if m, err := io.CopyN(io.Discard, r, n); err != nil && err != io.EOF {
			env.PathError(in, err)
			return 1
		} else if m < n {
			short = true
		}
		if short && status != "none" {
			name := in
			if in == "-" {
				name = "standard input"
			}
			env.Errorf("%s: cannot skip to specified offset", gnu.QuoteF(name))
		}
	}
	// iflag=count_bytes: count is in bytes, the last read a short one.
	maxRecs, maxBytes := count, int64(0)
	if iflag.countBytes && count >= 0 {
		maxRecs, maxBytes = count/ibs, count%ibs
	}
	read := func(p []byte) (int, error) {
		if !iflag.fullblock {
			return r.Read(p)
		}
		n, err := io.ReadFull(r, p)
		if err == io.ErrUnexpectedEOF {
			err = nil // the short block; EOF comes with the next read
		}
		return n, err
	}
	var fullIn, partIn, fullOut, partOut, total int64
	buf := make([]byte, ibs)
	var pending []byte // output waiting to fill obs (ibs != obs)
	flush := func(final bool) error {
		for int64(len(pending)) >= obs || final && len(pending) > 0 {
			n := min(int64(len(pending)), obs)
			if _, err := w.Write(pending[:n]); err != nil {
				return err
			}
			if n == obs {
				fullOut++
			} else {
				partOut++
			}
			total += n
			pending = pending[n:]
		}
		return nil
	}
	status1 := 0
	for count < 0 || fullIn+partIn < maxRecs || maxBytes > 0 && fullIn+partIn == maxRecs {
		if err := env.Ctx.Err(); err != nil {
			return 1
		}
		rbuf := buf
		if count >= 0 && fullIn+partIn == maxRecs {
			rbuf = buf[:maxBytes]
		}
		n, rerr := read(rbuf)
		if n > 0 {
			blk := buf[:n]
			if int64(n) == ibs {
				fullIn++
			} else {
				partIn++
				if pad {
					blk = append(blk, bytes.Repeat([]byte{0}, int(ibs)-n)...)
				}
			}
			switch {
			case ucase:
				blk = bytes.ToUpper(blk)
			case lcase:
				blk = bytes.ToLower(blk)
			}
			if bsSet {
				// bs= writes each block as it was read.
				if _, err := w.Write(blk); err != nil {
					return ddWriteFail(env, err)
				}
				if int64(len(blk)) == obs {
					fullOut++
				} else {
					partOut++
				}
				total += int64(len(blk))
			} else {
				pending = append(pending, blk...)
				if err := flush(false); err != nil {
					return ddWriteFail(env, err)
				}
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			env.PathError(in, rerr)
			status1 = 1
			break
		}
	}
	if err := flush(true); err != nil {
		return ddWriteFail(env, err)
	}
	if of != nil {
		if err := of.Close(); err != nil {
			return ddWriteFail(env, err)
		}
	}
	if status != "none" {
		fmt.Fprintf(env.Stderr, "%d+%d records in\n%d+%d records out\n", fullIn, partIn, fullOut, partOut)
		if status != "noxfer" {
			secs := time.Since(start).Seconds()
			fmt.Fprintf(env.Stderr, "%d bytes%s copied, %.3g s, %s/s\n", total, ddHuman(total), secs, ddRate(float64(total)/max(secs, 1e-9)))
		}
	}
	return status1
}

// ddFlags are the iflag= and oflag= symbols that change what dd does;
// the others GNU takes (direct, directory, dsync, noatime, nocache, noctty,
// nofollow, nonblock, sync) are accepted with no effect: vfsd does the I/O.
type ddFlags struct {
	append, fullblock, countBytes, skipBytes, seekBytes bool
	direct, nocache                                     bool // only refused together, as GNU
}

// parse adds the comma-separated symbols of v; on an unknown one (binary,
// text, cio and nolinks included: not on GNU/Linux) it returns it and
// false.
func (f *ddFlags) parse(v string) (string, bool) {
	for _, sym := range strings.Split(v, ",") {
		switch sym {
		case "append":
			f.append = true
		case "fullblock":
			f.fullblock = true
		case "count_bytes":
			f.countBytes = true
		case "skip_bytes":
			f.skipBytes = true
		case "seek_bytes":
			f.seekBytes = true
		case "direct":
			f.direct = true
		case "nocache":
			f.nocache = true
		case "directory", "dsync", "noatime", "noctty", "nofollow", "nonblock", "sync":
		default:
			return sym, false
		}
	}
	return "", true
}

// ddOpenOutput opens of= for writing at offset: truncated there (GNU's
// O_TRUNC or ftruncate at seek) unless notrunc keeps what follows.
func ddOpenOutput(env *Env, name string, offset int64, notrunc bool) (File, error) {
	if offset == 0 && !notrunc {
		return env.Create(name)
	}
	var keep []byte
	if !notrunc {
		// Keep the first offset bytes, then truncate by rewriting.
		if old, err := env.FS.OpenFile(env.Abs(name), os.O_RDONLY); err == nil {
			keep, _ = io.ReadAll(io.LimitReader(old, offset))
			old.Close()
		}
		f, err := env.Create(name)
		if err != nil {
			return nil, err
		}
		keep = append(keep, make([]byte, offset-int64(len(keep)))...)
		if _, err := f.Write(keep); err != nil {
			f.Close()
			return nil, err
		}
		return f, nil
	}
	f, err := env.FS.OpenFile(env.Abs(name), os.O_RDWR|os.O_CREATE)
	if err != nil {
		return nil, err
	}
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func ddWriteFail(env *Env, err error) int {
	if IsBrokenPipe(err) {
		return 1
	}
	env.Errorf("error writing: %s", ErrText(err))
	return 1
}

// ddHuman is GNU's " (1.0 MB, 977 KiB)" after a byte count of 1000 or more.
func ddHuman(n int64) string {
	if n < 1000 {
		return ""
	}
	return " (" + ddUnits(float64(n), 1000, []string{"kB", "MB", "GB", "TB", "PB", "EB"}) + ", " + ddUnits(float64(n), 1024, []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}) + ")"
}

func ddUnits(v, base float64, units []string) string {
	i := -1
	for v >= base && i < len(units)-1 {
		v /= base
		i++
	}
	if i < 0 {
		return strconv.FormatFloat(v, 'f', 0, 64) + " B"
	}
	if v < 10 {
		return strconv.FormatFloat(v, 'f', 1, 64) + " " + units[i]
	}
	return strconv.FormatFloat(v, 'f', 0, 64) + " " + units[i]
}

func ddRate(v float64) string {
	return ddUnits(v, 1000, []string{"kB", "MB", "GB", "TB", "PB", "EB"})
}
