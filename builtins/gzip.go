package builtins

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
	"time"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
	"github.com/llmsh/llmsh/builtins/internal/gzdeflate"
)

var _ = register(Builtin{Name: "gzip", Summary: "compress or expand files", Run: gzipMain})
var _ = register(Builtin{Name: "gunzip", Summary: "expand gzip files", Run: gzipMain})
var _ = register(Builtin{Name: "zcat", Summary: "expand gzip files to standard output", Run: gzipMain})

// gzipState holds the options and the exit status of one gzip call.
// Messages always say "gzip:", as GNU gunzip and zcat (scripts around
// gzip) print them.
type gzipState struct {
	env                                         *Env
	stdout, decompress, keep, force, list, test bool
	quiet, noName, recursive, rsyncable         bool
	// restoreName is -N when decompressing (the last of -n and -N wins,
	// and -n is the default there): the output takes the name and
	// modification time stored in the header.
	restoreName                 bool
	verbose                     int
	level                       int
	suffix                      string
	status                      int
	listed                      int
	totIn, totOut, lastOverhead int64
	members                     int // the members process has begun to expand
	// fatal: GNU's read_error or gzip_error (a file cut short, a deflate
	// stream that breaks its format) ended the run: no operand after it.
	fatal bool
	// listOut buffers -l's lines to the end, as GNU's stdio does when
	// the output is not a terminal: its messages come first.
	listOut  *bufio.Writer
	deflater gzdeflate.Compressor // one window for all files, as GNU's
}

func gzipMain(env *Env) int {
	s := &gzipState{env: env, level: 6, suffix: ".gz"}
	switch env.Name() {
	case "gunzip":
		s.decompress = true
	case "zcat":
		s.decompress, s.stdout = true, true
	}
	f := NewFlags(env, "Compress or uncompress FILEs (by default, compress FILES in-place).\n\nWith no FILE, or when FILE is -, read standard input.", "[OPTION]... [FILE]...")
	f.BoolVar(&s.stdout, 'c', "stdout", "write on standard output, keep original files unchanged")
	f.BoolVar(&s.stdout, 0, "to-stdout", "")
	f.BoolVar(&s.decompress, 'd', "decompress", "decompress")
	f.BoolVar(&s.decompress, 0, "uncompress", "")
	f.BoolVar(&s.force, 'f', "force", "force overwrite of output file")
	f.BoolVar(&s.keep, 'k', "keep", "keep (don't delete) input files")
	f.BoolVar(&s.list, 'l', "list", "list compressed file contents")
	f.Func('n', "no-name", NoArg, "", "do not save or restore the original name and timestamp", func(string, bool) error {
		s.noName, s.restoreName = true, false
		return nil
	})
	f.Func('N', "name", NoArg, "", "save or restore the original name and timestamp", func(string, bool) error {
		s.noName, s.restoreName = false, true
		return nil
	})
	f.Func('q', "quiet", NoArg, "", "suppress all warnings", func(string, bool) error {
		s.quiet, s.verbose = true, 0 // the last of -q and -v wins (GNU)
		return nil
	})
	f.Alias("silent", "quiet") // GNU's hidden spelling
	f.BoolVar(&s.recursive, 'r', "recursive", "operate recursively on directories")
	f.StringVar(&s.suffix, 'S', "suffix", "SUF", "use suffix SUF on compressed files")
	f.BoolVar(&s.test, 't', "test", "test compressed file integrity")
	f.Func('v', "verbose", NoArg, "", "verbose mode", func(string, bool) error {
		s.quiet = false
		s.verbose++
		return nil
	})
	for d := '1'; d <= '9'; d++ {
		lvl := int(d - '0')
		var long, help string
		switch d {
		case '1':
			long, help = "fast", "compress faster"
		case '9':
			long, help = "best", "compress better"
		}
		f.Func(d, long, NoArg, "", help, func(string, bool) error { s.level = lvl; return nil })
	}
	version := shortHelpVersion(f, 'h', 'V')
	f.BoolVar(version, 'L', "license", "display software license")
	f.Func(0, "synchronous", NoArg, "", "synchronous output (safer if system crashes, but slower)\n(llmsh: vfsd writes the files; no effect)", func(string, bool) error { return nil })
	f.BoolVar(&s.rsyncable, 0, "rsyncable", "make rsync-friendly archive")
	files, err := f.Parse(env.Args[1:])
	if msg, ok := usageMessage(err); ok {
		// gzip 1.12 (also as gunzip and zcat, scripts around it) says
		// "gzip:" and quotes its Try line `so'.
		fmt.Fprintf(env.Stderr, "gzip: %s\nTry `gzip --help' for more information.\n", msg)
		return 1
	}
	if err != nil {
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	if s.suffix == "" {
		env.Stderr.Write([]byte("gzip: invalid suffix ''\n"))
		return 1
	}
	if s.test || s.list {
		s.decompress = true
	}
	if s.list {
		s.listOut = bufio.NewWriter(env.Stdout)
		defer s.listOut.Flush()
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	for _, name := range files {
		if env.Ctx.Err() != nil {
			return 1
		}
		if s.fatal {
			return s.status
		}
		if s.list {
			s.listOne(name)
		} else if name == "-" {
			s.stdinOne()
		} else {
			s.fileOne(name)
		}
	}
	if s.list && !s.fatal && !s.quiet && (s.listed > 1 || len(files) > 1 && s.listed > 0) {
		s.listRow(s.totOut, s.totIn, s.lastOverhead, "(totals)", 0, time.Time{})
	}
	return s.status
}

func (s *gzipState) errorf(format string, args ...any) {
	fmt.Fprintf(s.env.Stderr, "gzip: "+format+"\n", args...)
	s.status = 1
}

// warnf prints a warning that -q silences entirely: GNU gzip then exits 0.
func (s *gzipState) warnf(format string, args ...any) {
	if s.quiet {
		return
	}
	fmt.Fprintf(s.env.Stderr, "gzip: "+format+"\n", args...)
	if s.status == 0 {
		s.status = 2
	}
}

// dirWarning reports a directory operand: -q silences it, but the status
// is still 2, as with GNU gzip.
func (s *gzipState) dirWarning(name string) {
	if !s.quiet {
		fmt.Fprintf(s.env.Stderr, "gzip: %s is a directory -- ignored\n", name)
	}
	if s.status == 0 {
		s.status = 2
	}
}

// gzipSuffixes are the names gunzip strips, longest first within each
// group, with what replaces them.
var gzipSuffixes = [][2]string{{".gz", ""}, {"-gz", ""}, {".z", ""}, {"-z", ""}, {"_z", ""}, {".tgz", ".tar"}, {".taz", ".tar"}}

// stripSuffix returns name without its compressed suffix, or false.
func (s *gzipState) stripSuffix(name string) (string, bool) {
	n, repl := s.suffixLen(name)
	if n == 0 {
		return "", false
	}
	return name[:len(name)-n] + repl, true
}

// suffixLen is the length of name's compressed suffix (0 if none) and
// what replaces it when expanding.
func (s *gzipState) suffixLen(name string) (int, string) {
	base := path.Base(name)
	if strings.HasSuffix(base, s.suffix) && len(base) > len(s.suffix) {
		return len(s.suffix), ""
	}
	lower := strings.ToLower(base)
	for _, sf := range gzipSuffixes {
		if strings.HasSuffix(lower, sf[0]) && len(base) > len(sf[0]) {
			return len(sf[0]), sf[1]
		}
	}
	return 0, ""
}

func (s *gzipState) hasSuffix(name string) bool {
	_, ok := s.stripSuffix(name)
	return ok
}

// stat finds a file operand; when decompressing a name without a suffix it
// also tries NAME.gz, as GNU gzip does. It returns the name found.
func (s *gzipState) stat(name string) (string, fs.FileInfo, error) {
	fi, err := s.env.FS.Stat(s.env.Abs(name))
	if err != nil && s.decompress && !s.hasSuffix(name) && errors.Is(err, fs.ErrNotExist) {
		alt := name + s.suffix
		fi, err = s.env.FS.Stat(s.env.Abs(alt))
		return alt, fi, err
	}
	return name, fi, err
}

func (s *gzipState) remove(name string) error {
	return s.env.FS.Remove(s.env.Abs(name))
}

// gzipCounter counts the bytes passing through a writer or a reader.
type gzipCounter struct {
	w   io.Writer
	r   io.Reader
	n   int64
	env *Env
}

func (c *gzipCounter) Write(p []byte) (int, error) {
	if c.env.Ctx.Err() != nil {
		return 0, gnu.ErrCancelled
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	if err != nil {
		err = gnu.WriteError{Err: err}
	}
	return n, err
}

func (c *gzipCounter) Read(p []byte) (int, error) {
	if c.env.Ctx.Err() != nil {
		return 0, gnu.ErrCancelled
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func gzipRatio(num, den int64) string {
	if den == 0 {
		return fmt.Sprintf("%5.1f%%", 0.0)
	}
	return fmt.Sprintf("%5.1f%%", 100*float64(num)/float64(den))
}

// stdinOne compresses or expands standard input to standard output.
func (s *gzipState) stdinOne() {
	if s.env.StdinClosed {
		s.stdinClosed()
		return
	}
	if !s.decompress && s.env.Terminal && !s.force {
		s.errorf("compressed data not written to a terminal. Use -f to force compression.\nFor help, type: gzip -h")
		return
	}
	var out io.Writer = s.env.Stdout
	if s.test {
		out = io.Discard
	}
	// GNU's output buffer: a read that fails before it fills leaves
	// nothing written (no header for an unreadable stdin).
	bw := bufio.NewWriterSize(out, 32<<10)
	rd := &gzipInput{r: s.env.Stdin}
	in, outN, err := s.process("stdin", rd, bw, "", time.Time{})
	if s.readFailed(rd) {
		return
	}
	if rd.err == nil {
		if ferr := bw.Flush(); ferr != nil && err == nil {
			err = gnu.WriteError{Err: ferr}
		}
	}
	if err != nil {
		s.report("stdin", err)
		return
	}
	if s.verbose > 0 {
		if s.test {
			fmt.Fprintf(s.env.Stderr, " OK\n")
		} else if s.decompress {
			fmt.Fprintf(s.env.Stderr, "%s\n", gzipRatio(outN-(in-18), outN))
		} else {
			fmt.Fprintf(s.env.Stderr, "%s\n", gzipRatio(in-(outN-18), in))
		}
	}
}

// stdinClosed ends a gzip whose standard input is closed: GNU fstats it
// first, and dies.
func (s *gzipState) stdinClosed() {
	s.errorf("standard input: %s", gnu.Strerror(syscall.EBADF))
	s.fatal = true
}

// readFailed reports in's read error, if any, as GNU's read_error (a new
// line, the error), which ends gzip ("gzip: stdin: Bad file descriptor"
// for a standard input open write-only).
func (s *gzipState) readFailed(in *gzipInput) bool {
	if in.err == nil || errors.Is(in.err, gnu.ErrCancelled) {
		return false
	}
	fmt.Fprintf(s.env.Stderr, "\ngzip: stdin: %s\n", ErrText(in.err))
	s.status, s.fatal = 1, true
	return true
}

// gzipInput is standard input, whose read error it keeps.
type gzipInput struct {
	r   io.Reader
	err error
}

func (g *gzipInput) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && err != io.EOF && g.err == nil {
		g.err = err
	}
	return n, err
}

// report prints the failure of one input.
func (s *gzipState) report(name string, err error) {
	var we gnu.WriteError
	switch {
	case errors.Is(err, gnu.ErrCancelled):
		s.status = 1
	case errors.As(err, &we):
		if !IsBrokenPipe(err) {
			// GNU's write_error starts a new line first.
			fmt.Fprintf(s.env.Stderr, "\ngzip: stdout: %s\n", ErrText(we.Err))
		}
		s.status = 1
	case errors.Is(err, errGzipTrailing):
		if !s.quiet {
			fmt.Fprintf(s.env.Stderr, "\ngzip: %s: decompression OK, trailing garbage ignored\n", name)
		}
		if s.status == 0 {
			s.status = 2
		}
	case errors.Is(err, gzip.ErrHeader) || errors.Is(err, errGzipNotGzip):
		fmt.Fprintf(s.env.Stderr, "\ngzip: %s: not in gzip format\n", name)
		s.status = 1
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		fmt.Fprintf(s.env.Stderr, "\ngzip: %s: unexpected end of file\n", name)
		s.status, s.fatal = 1, true
	case errors.Is(err, gzip.ErrChecksum):
		fmt.Fprintf(s.env.Stderr, "\ngzip: %s: invalid compressed data--crc error\n", name)
		s.status = 1
	default:
		var ce flate.CorruptInputError
		if errors.As(err, &ce) {
			fmt.Fprintf(s.env.Stderr, "\ngzip: %s: invalid compressed data--format violated\n", name)
			s.status, s.fatal = 1, true
			return
		}
		s.errorf("%s: %s", name, ErrText(err))
	}
}

// rsyncWindow is GNU gzip's RSYNC_WIN: --rsyncable ends a deflate block
// where the sum of the last rsyncWindow input bytes is a multiple of it,
// so a change in the input changes the output only up to the next such
// place, wherever it is in the file.
const rsyncWindow = 8192

// rsyncWriter feeds a gzip.Writer, flushing it (a sync flush: the block
// ends, the stream goes on) at the content-defined places rsyncWindow
// says. The bytes differ from GNU's (Go's deflate), the property is the
// same: any gzip reads the result.
type rsyncWriter struct {
	zw  *gzip.Writer
	win [rsyncWindow]byte
	n   int // bytes seen, up to a full window
	pos int // next slot of win
	sum uint32
}

func (w *rsyncWriter) Write(p []byte) (int, error) {
	start := 0
	for i, c := range p {
		if w.n == rsyncWindow {
			w.sum -= uint32(w.win[w.pos])
		} else {
			w.n++
		}
		w.win[w.pos] = c
		w.pos = (w.pos + 1) % rsyncWindow
		w.sum += uint32(c)
		if w.n == rsyncWindow && w.sum%rsyncWindow == 0 {
			if _, err := w.zw.Write(p[start : i+1]); err != nil {
				return start, err
			}
			if err := w.zw.Flush(); err != nil {
				return i + 1, err
			}
			start = i + 1
		}
	}
	if _, err := w.zw.Write(p[start:]); err != nil {
		return start, err
	}
	return len(p), nil
}

var (
	errGzipTrailing = errors.New("trailing garbage")
	errGzipNotGzip  = errors.New("not in gzip format")
)

// process compresses or expands r into w and returns the bytes read and
// written. hdrName and mtime go into the header when compressing.
func (s *gzipState) process(name string, r io.Reader, w io.Writer, hdrName string, mtime time.Time) (int64, int64, error) {
	in := &gzipCounter{r: r, env: s.env}
	out := &gzipCounter{w: w, env: s.env}
	if !s.decompress && !s.rsyncable {
		var mt uint32
		if s.noName {
			hdrName = ""
		} else if !mtime.IsZero() {
			mt = uint32(mtime.Unix())
		}
		n, err := s.deflater.Compress(out, in, s.level, hdrName, mt)
		return n, out.n, err
	}
	if !s.decompress {
		zw, err := gzip.NewWriterLevel(out, s.level)
		if err != nil {
			return 0, 0, err
		}
		zw.OS = 3 // Unix, as GNU gzip writes it (Go's default is 255, unknown)
		if !s.noName {
			zw.Name = hdrName
			if !mtime.IsZero() {
				zw.ModTime = mtime
			}
		}
		var dst io.Writer = zw
		if s.rsyncable {
			dst = &rsyncWriter{zw: zw}
		}
		if _, err := io.Copy(dst, in); err != nil {
			return in.n, out.n, err
		}
		err = zw.Close()
		return in.n, out.n, err
	}
	br := bufio.NewReaderSize(in, 64<<10)
	var zr *gzip.Reader
	for first := true; ; first = false {
		magic, err := br.Peek(2)
		if !first && len(magic) == 0 && err == io.EOF {
			break
		}
		if len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b {
			if first && s.force && (s.stdout || name == "stdin") && !s.test {
				// -f with -c passes data that is not gzip through unchanged.
				_, err := io.Copy(out, br)
				return in.n, out.n, err
			}
			if first {
				if len(magic) == 1 && magic[0] == 0x1f || len(magic) == 0 {
					return in.n, out.n, io.ErrUnexpectedEOF
				}
				return in.n, out.n, errGzipNotGzip
			}
			// Trailing zeros are ignored quietly, anything else is warned of.
			rest, err := io.ReadAll(br)
			if err != nil {
				return in.n, out.n, err
			}
			if len(rest) == 1 && rest[0] != 0 {
				// GNU reads a second magic byte after a non-zero one.
				return in.n, out.n, io.ErrUnexpectedEOF
			}
			for _, b := range rest {
				if b != 0 {
					return in.n, out.n, errGzipTrailing
				}
			}
			break
		}
		if zr == nil {
			zr, err = gzip.NewReader(br)
		} else {
			err = zr.Reset(br)
		}
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return in.n, out.n, err
		}
		zr.Multistream(false)
		s.members++
		if _, err := io.Copy(out, zr); err != nil {
			return in.n, out.n, err
		}
	}
	return in.n, out.n, nil
}

// fileOne handles one file operand.
func (s *gzipState) fileOne(arg string) {
	env := s.env
	if !s.stdout && !s.test && !s.force {
		// GNU gzip opens with O_NOFOLLOW unless -c or -f: a symbolic
		// link, named or met under -r, is refused, never followed.
		if fi, err := env.FS.Lstat(env.Abs(arg)); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			s.errorf("%s: %s", arg, ErrText(syscall.ELOOP))
			return
		}
	}
	name, fi, err := s.stat(arg)
	if err != nil {
		s.errorf("%s: %s", name, ErrText(err))
		return
	}
	if fi.IsDir() {
		if s.recursive {
			s.eachInDir(name, s.fileOne)
			return
		}
		s.dirWarning(name)
		return
	}
	var outName string
	if s.decompress {
		base, ok := s.stripSuffix(name)
		if !ok && !s.stdout && !s.test {
			// Quiet under -r unless -v, as GNU gzip.
			if !s.recursive || s.verbose > 0 {
				s.warnf("%s: unknown suffix -- ignored", name)
			}
			return
		}
		outName = base
	} else {
		if s.hasSuffix(name) && !s.force && !s.stdout {
			// GNU gzip 1.12 says so but leaves the exit status alone.
			if !s.quiet && (!s.recursive || s.verbose > 0) {
				n, _ := s.suffixLen(name)
				fmt.Fprintf(s.env.Stderr, "gzip: %s already has %s suffix -- unchanged\n", name, name[len(name)-n:])
			}
			return
		}
		outName = name + s.suffix
	}
	toFile := !s.stdout && !s.test
	var stored time.Time
	if toFile && s.decompress && s.restoreName {
		outName, stored = s.storedName(name, outName)
	}
	if toFile && !s.force {
		if _, err := env.FS.Stat(env.Abs(outName)); err == nil {
			fmt.Fprintf(env.Stderr, "gzip: %s already exists;\tnot overwritten\n", outName)
			if s.status == 0 {
				s.status = 2
			}
			return
		}
	}
	src, err := env.FS.OpenFile(env.Abs(name), os.O_RDONLY)
	if err != nil {
		s.errorf("%s: %s", name, ErrText(err))
		return
	}
	defer src.Close()
	var dst io.Writer
	var dstFile File
	switch {
	case s.test:
		dst = io.Discard
	case s.stdout:
		dst = env.Stdout
	default:
		dstFile, err = env.Create(outName)
		if err != nil {
			s.errorf("%s: %s", outName, ErrText(err))
			return
		}
		dst = dstFile
	}
	in, outN, err := s.process(name, src, dst, path.Base(name), fi.ModTime())
	if dstFile != nil {
		if cerr := dstFile.Close(); err == nil && cerr != nil {
			err = gnu.WriteError{Err: cerr}
		}
		if err == nil {
			// The output keeps the input's modification time, as GNU gzip
			// and gunzip (without -N) leave it; gunzip -N restores the
			// stored one.
			mt := fi.ModTime()
			if !stored.IsZero() {
				mt = stored
			}
			s.env.FS.Chtimes(s.env.Abs(outName), time.Time{}, mt)
		}
	}
	if err != nil && !errors.Is(err, errGzipTrailing) {
		if dstFile != nil {
			s.remove(outName)
		}
		var we gnu.WriteError
		if errors.As(err, &we) && dstFile != nil && !IsBrokenPipe(err) {
			s.errorf("%s: %s", outName, ErrText(we.Err))
			return
		}
		s.report(name, err)
		return
	}
	if err != nil {
		s.report(name, err)
	}
	if s.verbose > 0 {
		s.verboseReport(name, outName, in, outN)
	}
	if toFile && !s.keep {
		if err := s.remove(name); err != nil {
			s.errorf("%s: %s", name, ErrText(err))
		}
	}
}

// storedName is gunzip -N's output name for the file name, whose name
// without its suffix is outName: the base name stored in its header, in
// name's directory (GNU keeps the directory and drops any the header
// names), and the stored modification time (zero when there is none).
// Without a stored name, or when the header cannot be read (the
// decompression then reports it), it is outName.
func (s *gzipState) storedName(name, outName string) (string, time.Time) {
	f, err := s.env.FS.OpenFile(s.env.Abs(name), os.O_RDONLY)
	if err != nil {
		return outName, time.Time{}
	}
	defer f.Close()
	h, err := gzipReadHeader(bufio.NewReader(f))
	if err != nil {
		return outName, time.Time{}
	}
	var mt time.Time
	if h.mtime != 0 {
		mt = time.Unix(int64(h.mtime), 0)
	}
	base := path.Base(h.name)
	if h.name == "" || base == "." || base == ".." || base == "/" {
		return outName, mt
	}
	return name[:strings.LastIndexByte(name, '/')+1] + base, mt
}

// gzipHeaderLen is the size of the header and trailer GNU gzip writes for
// a file called name: ten fixed bytes, the name and its NUL, eight more.
func gzipHeaderLen(name string, noName bool) int64 {
	if noName {
		return 18
	}
	return int64(18 + len(name) + 1)
}

// listOne prints the -l line for one compressed file.
func (s *gzipState) listOne(arg string) {
	env := s.env
	var (
		r     io.Reader
		shown string
		name  = arg
		mtime time.Time
	)
	var in *gzipInput
	if arg == "-" {
		if env.StdinClosed {
			s.stdinClosed()
			return
		}
		in = &gzipInput{r: env.Stdin}
		r, shown, name = in, "stdout", "stdin"
		if st, ok := env.Stdin.(interface{ Stat() (fs.FileInfo, error) }); ok {
			if fi, err := st.Stat(); err == nil {
				mtime = fi.ModTime()
			}
		}
	} else {
		n, fi, err := s.stat(arg)
		if err != nil {
			s.errorf("%s: %s", n, ErrText(err))
			return
		}
		name = n
		if fi.IsDir() {
			if s.recursive {
				s.eachInDir(name, s.listOne)
				return
			}
			s.dirWarning(name)
			return
		}
		mtime = fi.ModTime()
		f, err := env.FS.OpenFile(env.Abs(name), os.O_RDONLY)
		if err != nil {
			s.errorf("%s: %s", name, ErrText(err))
			return
		}
		defer f.Close()
		r = f
		if base, ok := s.stripSuffix(name); ok {
			shown = base
		} else {
			shown = name
		}
	}
	rec := &gzipRecorder{r: r, on: true}
	br := bufio.NewReader(&gzipCounter{r: rec, env: env})
	h, err := gzipReadHeader(br)
	if in != nil && s.readFailed(in) {
		return
	}
	if err != nil {
		s.report(name, err)
		return
	}
	hdr := h.len
	if s.restoreName && h.name != "" {
		shown = path.Base(h.name) // gzip -lN shows the stored name
	}
	// gzip 1.12 expands the whole file, as -t does: a file cut short or
	// followed by garbage gets -t's message and no line.
	rec.on = false
	tail := &gzipTail{}
	s.members = 0
	if _, _, err := s.process(name, io.TeeReader(io.MultiReader(bytes.NewReader(rec.buf), r), tail), io.Discard, "", time.Time{}); err != nil {
		if in != nil && s.readFailed(in) {
			return
		}
		s.report(name, err)
		return
	}
	trailer, size := tail.last, tail.n
	overhead := int64(hdr) + 8
	if s.members > 1 {
		overhead = 0 // GNU counts no header bytes for a file of several members
	}
	usize := int64(binary.LittleEndian.Uint32(trailer[4:]))
	if s.verbose > 0 && s.listed == 0 {
		fmt.Fprintf(s.listOut, "method  crc     date  time  ")
	}
	s.listRow(size, usize, overhead, shown, binary.LittleEndian.Uint32(trailer[:4]), mtime)
	s.lastOverhead = overhead
	s.listed++
	s.totIn += usize
	s.totOut += size
}

// gzipRecorder keeps what is read through it while on.
type gzipRecorder struct {
	r   io.Reader
	buf []byte
	on  bool
}

func (g *gzipRecorder) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if g.on {
		g.buf = append(g.buf, p[:n]...)
	}
	return n, err
}

// gzipTail counts the bytes written to it and keeps the last eight.
type gzipTail struct {
	n    int64
	last [8]byte
}

func (t *gzipTail) Write(p []byte) (int, error) {
	t.n += int64(len(p))
	if len(p) >= 8 {
		copy(t.last[:], p[len(p)-8:])
	} else {
		copy(t.last[:], append(t.last[len(p):], p...))
	}
	return len(p), nil
}

// listRow prints a -l line (with -v: method, CRC and the file's date,
// in UTC since llmsh has no host time zone).
func (s *gzipState) listRow(comp, uncomp, overhead int64, name string, crc uint32, mtime time.Time) {
	if s.listed == 0 && name != "(totals)" && !s.quiet {
		fmt.Fprintf(s.listOut, "         compressed        uncompressed  ratio uncompressed_name\n")
	}
	if s.verbose > 0 {
		if name == "(totals)" {
			fmt.Fprintf(s.listOut, "%28s", "")
		} else {
			fmt.Fprintf(s.listOut, "defla %08x %s ", crc, mtime.In(dateLocation(s.env)).Format("Jan _2 15:04"))
		}
	}
	fmt.Fprintf(s.listOut, "%19d %19d %s %s\n", comp, uncomp, gzipRatio(uncomp-(comp-overhead), uncomp), name)
}

// eachInDir runs fn on every entry of dir (-r), in name order.
func (s *gzipState) eachInDir(dir string, fn func(string)) {
	ents, err := s.env.FS.ReadDir(s.env.Abs(dir))
	if err != nil {
		s.errorf("%s: %s", dir, ErrText(err))
		return
	}
	for _, e := range ents {
		if s.env.Ctx.Err() != nil || s.fatal {
			return
		}
		fn(joinPath(dir, e.Name())) // "./d" gives "./d/f", as GNU gzip names it
	}
}

// gzipHeader is what gzipReadHeader reads of a member header.
type gzipHeader struct {
	len   int    // its length in bytes
	name  string // the stored file name (FNAME), or ""
	mtime uint32 // the stored modification time, 0 for none
}

// gzipReadHeader reads a gzip member header from br.
func gzipReadHeader(br *bufio.Reader) (gzipHeader, error) {
	var h [10]byte
	var none gzipHeader
	if n, err := io.ReadFull(br, h[:]); err != nil {
		if n >= 2 && (h[0] != 0x1f || h[1] != 0x8b) {
			return none, errGzipNotGzip
		}
		return none, io.ErrUnexpectedEOF
	}
	if h[0] != 0x1f || h[1] != 0x8b || h[2] != 8 {
		return none, errGzipNotGzip
	}
	out := gzipHeader{mtime: binary.LittleEndian.Uint32(h[4:8])}
	n := 10
	flg := h[3]
	if flg&4 != 0 {
		var x [2]byte
		if _, err := io.ReadFull(br, x[:]); err != nil {
			return none, io.ErrUnexpectedEOF
		}
		xlen := int(binary.LittleEndian.Uint16(x[:]))
		if _, err := br.Discard(xlen); err != nil {
			return none, io.ErrUnexpectedEOF
		}
		n += 2 + xlen
	}
	for _, bit := range []byte{8, 16} {
		if flg&bit != 0 {
			str, err := br.ReadBytes(0)
			if err != nil {
				return none, io.ErrUnexpectedEOF
			}
			n += len(str)
			if bit == 8 {
				out.name = string(str[:len(str)-1])
			}
		}
	}
	if flg&2 != 0 {
		if _, err := br.Discard(2); err != nil {
			return none, io.ErrUnexpectedEOF
		}
		n += 2
	}
	out.len = n
	return out, nil
}

// verboseReport tells, under -v, what became of name: in bytes read,
// outN written to outName.
func (s *gzipState) verboseReport(name, outName string, in, outN int64) {
	env := s.env
	var ratio string
	if s.decompress {
		ratio = gzipRatio(outN-(in-gzipHeaderLen(path.Base(outName), s.noName)), outN)
	} else {
		ratio = gzipRatio(in-(outN-gzipHeaderLen(path.Base(name), s.noName)), in)
	}
	switch {
	case s.test:
		fmt.Fprintf(env.Stderr, "%s:\t OK\n", name)
	case s.stdout:
		fmt.Fprintf(env.Stderr, "%s:\t%s -- replaced with stdout\n", name, ratio)
	case s.keep:
		fmt.Fprintf(env.Stderr, "%s:\t%s -- created %s\n", name, ratio, outName)
	default:
		fmt.Fprintf(env.Stderr, "%s:\t%s -- replaced with %s\n", name, ratio, outName)
	}
}
