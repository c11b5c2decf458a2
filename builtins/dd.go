package builtins

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "dd", Summary: "copy a file, converting and formatting according to the operands", Run: dd})

// ddSize parses a dd number as GNU dd 9.1: gnu.ParseSize in base 10 with the
// suffixes c w b B kB K KiB MB M ... (no lower-case m, g, t), or one
// product A x B of two such numbers (2x512). It reports an invalid value
// or one above the largest int64 (overflow) in GNU's words; a product of
// zero written 0x... gets GNU's warning.
func ddSize(env *Env, s string) (int64, bool) {
	const suffixes = "bcEGkKMPTwYZ0"
	// A 'B' right after the number is no multiplier: it only marks a
	// count of bytes (coreutils 9.1's parse_integer; "1kB", "1KiB" are
	// the usual two-letter suffixes).
	parse := func(v string) (uint64, gnu.SizeErr) {
		n, e := gnu.ParseSize(v, 10, suffixes)
		if e&^gnu.SizeOverflow != 0 && len(v) > 1 && v[len(v)-1] == 'B' && v[len(v)-2] >= '0' && v[len(v)-2] <= '9' {
			n, e = gnu.ParseSize(v[:len(v)-1], 10, suffixes)
		}
		return n, e
	}
	fail := func(e gnu.SizeErr) (int64, bool) {
		if e == gnu.SizeOverflow {
			env.Errorf("invalid number: %s: Value too large for defined data type", env.Quote(s))
		} else {
			env.Errorf("invalid number: %s", env.Quote(s))
		}
		return 0, false
	}
	left, right, prod := strings.Cut(s, "x")
	a, e := parse(left)
	if e&^gnu.SizeOverflow != 0 || left == "" {
		return fail(gnu.SizeInvalid)
	}
	if prod {
		b, f := parse(right)
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

// ddConfig is what dd's operands ask for.
type ddConfig struct {
	in, out      string
	ibs, obs     int64
	bsSet        bool
	count        int64 // -1: all
	skip, seek   int64
	ucase, lcase bool
	notrunc, pad bool
	swab         bool
	status       string
	iflag, oflag ddFlags
	ddConvs
}

func dd(env *Env) int {
	c, status := ddParse(env)
	if c == nil {
		return status
	}
	return c.run(env)
}

// ddParse reads dd's operands into a ddConfig; on nil it returns the exit
// status.
func ddParse(env *Env) (*ddConfig, int) {
	f := NewFlags(env, "Copy a file, converting and formatting according to the operands.\n\n  bs=BYTES        read and write up to BYTES bytes at a time (default: 512);\n                  overrides ibs and obs\n  cbs=BYTES       convert BYTES bytes at a time\n  conv=CONVS      convert the file as per the comma separated symbol list\n  count=N         copy only N input blocks\n  ibs=BYTES       read up to BYTES bytes at a time (default: 512)\n  if=FILE         read from FILE instead of stdin\n  iflag=FLAGS     read as per the comma separated symbol list\n  obs=BYTES       write BYTES bytes at a time (default: 512)\n  of=FILE         write to FILE instead of stdout\n  oflag=FLAGS     write as per the comma separated symbol list\n  oseek=N         (recommended) seek N obs-sized blocks at start of output\n  iseek=N         (recommended) skip N ibs-sized blocks at start of input\n  seek=N          skip N obs-sized output blocks\n  skip=N          skip N ibs-sized input blocks\n  status=LEVEL    'none' suppresses everything but error messages,\n                  'noxfer' suppresses the final transfer statistics\n\nCONVS: ascii, ebcdic, ibm, block, unblock, lcase, ucase, swab, notrunc, sync,\nexcl, nocreat; noerror, fsync, fdatasync and sparse (accepted).\nFLAGS: append (oflag), fullblock, count_bytes, skip_bytes (iflag), seek_bytes\n(oflag); direct, directory, dsync, noatime, nocache, noctty, nofollow, nonblock\nand sync are accepted with no effect.", "[OPERAND]...", "OPTION")
	operands, err := f.Parse(env.Args[1:])
	if err != nil {
		return nil, f.Fail(err, 1)
	}
	c := &ddConfig{in: "-", ibs: 512, obs: 512, count: -1}
	for _, op := range operands {
		if st := c.operand(env, f, op); st >= 0 {
			return nil, st
		}
	}
	if c.oflag.fullblock {
		return nil, f.Fail(&UsageError{"invalid output flag: 'fullblock'"}, 1)
	}
	if !c.combined(env) {
		return nil, 1
	}
	if c.iflag.direct && c.iflag.nocache || c.oflag.direct && c.oflag.nocache {
		env.Errorf("cannot combine direct and nocache")
		return nil, 1
	}
	if c.oflag.append && !c.notrunc {
		env.Errorf("you probably want conv=notrunc with oflag=append")
	}
	if c.ibs <= 0 || c.obs <= 0 {
		env.Errorf("invalid number: '0'")
		return nil, 1
	}
	// A buffer is allocated whole: GNU's words when that cannot be done
	// (llmsh's bound is 1 GiB, in process).
	for _, b := range []struct {
		what string
		n    int64
	}{{"input", c.ibs}, {"output", c.obs}} {
		if b.n > 1<<30 {
			env.Errorf("memory exhausted by %s buffer of size %d bytes (%s)", b.what, b.n, ddUnits(float64(b.n), 1024, []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}))
			return nil, 1
		}
	}
	return c, 0
}

// operand takes one KEY=VALUE operand; it returns the exit status if the
// command is to stop, else -1.
func (c *ddConfig) operand(env *Env, f *Flags, op string) int {
	key, val, ok := strings.Cut(op, "=")
	if !ok {
		return f.Fail(&UsageError{fmt.Sprintf("unrecognized operand %s", env.Quote(op))}, 1)
	}
	num := func() (int64, bool) { return ddSize(env, val) }
	if (key == "bs" || key == "ibs" || key == "obs") && val != "" {
		// A block size of 0 is named as written (bs=0x10, with its warning).
		if n, ok := ddSize(env, val); !ok {
			return 1
		} else if n == 0 {
			env.Errorf("invalid number: %s", env.Quote(val))
			return 1
		}
	}
	var good bool
	switch key {
	case "if":
		c.in, good = val, true
	case "of":
		c.out, good = val, true
	case "bs":
		var n int64
		if n, good = num(); good {
			c.ibs, c.obs, c.bsSet = n, n, true
		}
	case "ibs":
		c.ibs, good = num()
	case "obs":
		c.obs, good = num()
	// A 'B' anywhere in the value counts bytes, not blocks, as the
	// *_bytes flags do (coreutils 9.1: count=150B, skip=1KiB).
	case "count":
		c.count, good = num()
		c.iflag.countBytes = c.iflag.countBytes || strings.Contains(val, "B")
	case "skip", "iseek":
		c.skip, good = num()
		c.iflag.skipBytes = c.iflag.skipBytes || strings.Contains(val, "B")
	case "seek", "oseek":
		c.seek, good = num()
		c.oflag.seekBytes = c.oflag.seekBytes || strings.Contains(val, "B")
	case "status":
		switch val {
		case "none", "noxfer", "progress":
			c.status, good = val, true
		default:
			return f.Fail(&UsageError{fmt.Sprintf("invalid status level: %s", env.Quote(val))}, 1)
		}
	case "iflag", "oflag":
		what, fl := "input", &c.iflag
		if key == "oflag" {
			what, fl = "output", &c.oflag
		}
		bad, ok := fl.parse(val)
		if !ok {
			return f.Fail(&UsageError{fmt.Sprintf("invalid %s flag: %s", what, env.Quote(bad))}, 1)
		}
		good = true
	case "conv":
		if bad, ok := c.conv(val); !ok {
			return f.Fail(&UsageError{fmt.Sprintf("invalid conversion: %s", env.Quote(bad))}, 1)
		}
		good = true
	case "cbs":
		if c.cbs, good = num(); good && c.cbs == 0 {
			env.Errorf("invalid number: %s", env.Quote(val))
			good = false
		}
	default:
		return f.Fail(&UsageError{fmt.Sprintf("unrecognized operand %s", env.Quote(op))}, 1)
	}
	if !good {
		return 1
	}
	return -1
}

// conv takes the list of conv=; it returns the first word it does not
// know (the empty one too, as GNU's parse_symbols) and false.
func (c *ddConfig) conv(val string) (string, bool) {
	for _, cv := range strings.Split(val, ",") {
		switch cv {
		case "ucase":
			c.ucase, c.twobufs = true, true
		case "lcase":
			c.lcase, c.twobufs = true, true
		case "notrunc":
			c.notrunc = true
		case "sync":
			c.pad = true
		case "swab":
			c.swab, c.twobufs = true, true
		case "noerror", "fsync", "fdatasync", "sparse":
			// sparse: vfsd writes the zeros; the file reads the same
		default:
			if !c.ddConvs.conv(cv) {
				return cv, false
			}
		}
	}
	return "", true
}

// run copies the input to the output.
func (c *ddConfig) run(env *Env) int {
	start := time.Now()
	r, err := env.Open(c.in)
	if errors.Is(err, syscall.EISDIR) {
		// GNU opens a directory read-only and fails as it reads it
		// (after opening of=), with its statistics.
		r, err = nopReadCloser{errReader{syscall.EISDIR}}, nil
	}
	if err != nil {
		env.Errorf("failed to open %s: %s", env.QuoteAF(c.in), ErrText(err))
		return 1
	}
	defer r.Close()
	same := c.in != "" && c.out != "" && !c.notrunc && c.seek == 0 && sameFileNames(env, c.in, c.out)
	w, of, st := c.openOutput(env)
	if w == nil {
		return st
	}
	var in io.Reader = r
	if same {
		// GNU truncates of= at its open, after opening if=: `dd if=f
		// of=f` reads the file emptied.
		in = eofReader{}
	}
	d := &ddCopier{c: c, env: env, r: in, w: w, of: of, start: start, saved: -1}
	if c.skip > 0 && !c.skipInput(env, in) {
		// GNU's quit: cleanup (closing the input), then the statistics.
		if !c.closedIn(env) {
			d.stats()
		}
		return 1
	}
	return d.run()
}

// inName is the input's name in messages.
func (c *ddConfig) inName() string {
	if c.in == "-" {
		return "standard input"
	}
	return c.in
}

// closedIn reports, as GNU's cleanup does when it closes a standard
// input that was closed (<&-), that dd ends there: no statistics follow.
func (c *ddConfig) closedIn(env *Env) bool {
	if c.in != "-" || !env.StdinClosed {
		return false
	}
	env.Errorf("closing input file %s: %s", env.QuoteAF(c.inName()), gnu.Strerror(syscall.EBADF))
	return true
}

// openOutput opens of= at the seek= offset, or pads standard output to
// it; on a nil writer it returns the exit status.
func (c *ddConfig) openOutput(env *Env) (io.Writer, File, int) {
	var w io.Writer = env.Stdout
	var of File
	var err error
	seekOff := c.seek * c.obs
	if c.oflag.seekBytes {
		seekOff = c.seek
	}
	if c.out != "" && !c.outputMayOpen(env) {
		return nil, nil, 1
	}
	if c.out != "" && c.oflag.append && c.notrunc {
		of, err = env.Append(c.out) // every write goes to the end
		if err != nil {
			env.Errorf("failed to open %s: %s", env.QuoteAF(c.out), ErrText(err))
			return nil, nil, 1
		}
		w = of
	} else if c.out != "" && c.oflag.seekBytes && c.seek < c.obs && !c.notrunc {
		// GNU truncates whenever seek is less than one output block
		// (seek_records is 0): the bytes before the offset become zeros.
		of, err = env.Create(c.out)
		if err == nil {
			if _, werr := of.Write(make([]byte, seekOff)); werr != nil {
				of.Close()
				err = werr
			}
		}
		if err != nil {
			env.Errorf("failed to open %s: %s", env.QuoteAF(c.out), ErrText(err))
			return nil, nil, 1
		}
		w = of
	} else if c.out != "" {
		of, err = ddOpenOutput(env, c.out, seekOff, c.notrunc)
		if err != nil {
			env.Errorf("failed to open %s: %s", env.QuoteAF(c.out), ErrText(err))
			return nil, nil, 1
		}
		w = of
	} else if seekOff > 0 {
		// Standard output cannot seek here: GNU would write zeros past a
		// pipe; do the same.
		if _, err := w.Write(make([]byte, seekOff)); err != nil {
			return nil, nil, outputFailed(env, err, wroteTo, env.QuoteAF("standard output"), 1)
		}
	}
	return w, of, 0
}

// skipInput skips skip= input blocks: it seeks a file, reads and discards
// a pipe. Skipping past the end is not an error; GNU warns. It reports
// false on an error.
func (c *ddConfig) skipInput(env *Env, r io.Reader) bool {
	n := c.skip * c.ibs
	if c.iflag.skipBytes {
		n = c.skip
	}
	short := false
	if s, ok := r.(io.Seeker); ok && c.in != "-" {
		if st, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
			if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() < n {
				short = true
			}
		}
		if _, err := s.Seek(n, io.SeekStart); err != nil {
			env.Errorf("%s: cannot skip: %s", c.in, ErrText(err))
			return false
		}
	} else if m, err := io.CopyN(io.Discard, r, n); err != nil && err != io.EOF {
		if !errors.Is(err, gnu.ErrCancelled) {
			env.Errorf("error reading %s: %s", env.QuoteAF(c.inName()), ErrText(err))
		}
		return false
	} else if m < n {
		short = true
	}
	if short && c.status != "none" {
		env.Errorf("%s: cannot skip to specified offset", env.QuoteF(c.inName()))
	}
	return true
}

// ddCopier is one copy of dd's, with its counts.
type ddCopier struct {
	c       *ddConfig
	env     *Env
	r       io.Reader
	w       io.Writer
	of      File // the output file, if not standard output
	start   time.Time
	pending []byte // output waiting to fill obs (ibs != obs)

	fullIn, partIn, fullOut, partOut, total int64
	maxRecs, maxBytes                       int64
	buf                                     []byte
	saved                                   int   // conv=swab's odd byte, or -1
	col                                     int64 // conv=block/unblock: the place in the record
	spaces                                  int64 // conv=unblock: blanks held back
	truncated                               int64 // conv=block: lines cut to cbs
}

// read reads one input block (a full one under iflag=fullblock).
func (d *ddCopier) read(p []byte) (int, error) {
	if !d.c.iflag.fullblock {
		return d.r.Read(p)
	}
	n, err := io.ReadFull(d.r, p)
	if err == io.ErrUnexpectedEOF {
		err = nil // the short block; EOF comes with the next read
	}
	return n, err
}

// flush writes the pending output in obs blocks, and the short rest if
// final.
func (d *ddCopier) flush(final bool) error {
	for int64(len(d.pending)) >= d.c.obs || final && len(d.pending) > 0 {
		n := min(int64(len(d.pending)), d.c.obs)
		if _, err := d.w.Write(d.pending[:n]); err != nil {
			return err
		}
		if n == d.c.obs {
			d.fullOut++
		} else {
			d.partOut++
		}
		d.total += n
		d.pending = d.pending[n:]
	}
	return nil
}

// run copies the blocks and reports the counts; it returns the exit
// status.
func (d *ddCopier) run() int {
	env := d.env
	// iflag=count_bytes: count is in bytes, the last read a short one.
	d.maxRecs = d.c.count
	if d.c.iflag.countBytes && d.c.count >= 0 {
		d.maxRecs, d.maxBytes = d.c.count/d.c.ibs, d.c.count%d.c.ibs
	}
	d.buf = make([]byte, d.c.ibs)
	status1 := 0
	for d.c.count < 0 || d.fullIn+d.partIn < d.maxRecs || d.maxBytes > 0 && d.fullIn+d.partIn == d.maxRecs {
		if err := env.Ctx.Err(); err != nil {
			return 1
		}
		rbuf := d.buf
		if d.c.count >= 0 && d.fullIn+d.partIn == d.maxRecs {
			rbuf = d.buf[:d.maxBytes]
		}
		n, rerr := d.read(rbuf)
		if n > 0 {
			blk := d.buf[:n]
			if int64(n) == d.c.ibs {
				d.fullIn++
			} else {
				d.partIn++
				if d.c.pad {
					blk = append(blk, bytes.Repeat([]byte{d.c.padByte()}, int(d.c.ibs)-n)...)
				}
			}
			if d.c.twobufs {
				// GNU: the conversions, then output in obs blocks
				if err := d.convert(blk); err != nil {
					return d.convFailed(err)
				}
				if err := d.flush(false); err != nil {
					return d.writeFailed(err)
				}
			} else if d.c.bsSet {
				// bs= writes each block as it was read.
				if _, err := d.w.Write(blk); err != nil {
					return d.writeFailed(err)
				}
				if int64(len(blk)) == d.c.obs {
					d.fullOut++
				} else {
					d.partOut++
				}
				d.total += int64(len(blk))
			} else {
				d.pending = append(d.pending, blk...)
				if err := d.flush(false); err != nil {
					return d.writeFailed(err)
				}
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			if errors.Is(rerr, gnu.ErrCancelled) {
				return 1
			}
			env.Errorf("error reading %s: %s", env.QuoteAF(d.c.inName()), ErrText(rerr))
			status1 = 1
			break
		}
	}
	if err := d.convertEnd(); err != nil {
		return d.convFailed(err)
	}
	if err := d.flush(true); err != nil {
		return d.writeFailed(err)
	}
	if d.of != nil {
		if err := d.of.Close(); err != nil {
			return d.writeFailed(err)
		}
	}
	if d.c.closedIn(env) {
		return 1
	}
	d.stats()
	return status1
}

// ddSwab swaps each pair of bytes of the stream that blk continues, as
// conv=swab does: *saved is the byte held over from the block before
// (-1: none) and gets the one this block leaves unpaired.
func ddSwab(blk []byte, saved *int) []byte {
	if len(blk) == 0 {
		return blk
	}
	s := make([]byte, 0, len(blk)+1)
	if *saved >= 0 {
		s = append(s, byte(*saved))
	}
	s = append(s, blk...)
	*saved = -1
	if len(s)%2 == 1 {
		*saved = int(s[len(s)-1])
		s = s[:len(s)-1]
	}
	for i := 0; i+1 < len(s); i += 2 {
		s[i], s[i+1] = s[i+1], s[i]
	}
	return s
}

// stats prints the transfer statistics on standard error, as status= says.
func (d *ddCopier) stats() {
	if d.c.status == "none" {
		return
	}
	fmt.Fprintf(d.env.Stderr, "%d+%d records in\n%d+%d records out\n", d.fullIn, d.partIn, d.fullOut, d.partOut)
	if d.truncated == 1 {
		fmt.Fprintf(d.env.Stderr, "1 truncated record\n")
	} else if d.truncated > 1 {
		fmt.Fprintf(d.env.Stderr, "%d truncated records\n", d.truncated)
	}
	if d.c.status != "noxfer" {
		secs := time.Since(d.start).Seconds()
		fmt.Fprintf(d.env.Stderr, "%d bytes%s copied, %.3g s, %s/s\n", d.total, ddHuman(d.total), secs, ddRate(float64(d.total)/max(secs, 1e-9)))
	}
}

// writeFailed reports a failed write of the output as GNU's dd does, its
// statistics after, and returns 1.
func (d *ddCopier) writeFailed(err error) int {
	name := "standard output"
	if d.of != nil {
		name = d.c.out
	}
	outputFailed(d.env, err, wroteTo, d.env.QuoteAF(name), 1)
	if !quietStop(err) {
		d.stats()
	}
	return 1
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
		if _, err := f.Write(keep); err != nil {
			f.Close()
			return nil, err
		}
		// The rest up to offset is a hole, as GNU's ftruncate at seek
		// leaves it: seek=1e14 made one slice of 100 TB (the process
		// ran out of memory).
		if _, err := f.Seek(offset, io.SeekStart); err != nil {
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
