package builtins

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"strconv"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "split", Summary: "split a file into pieces", Run: split})

// splitCount parses the value of -b, -C (suffixes "bEGKkMmPTYZ0", at most
// the largest int64) or -l (no suffixes, any uint64) as GNU split 9.1:
// zero is out of range, an overflow or a value above max too large.
func splitCount(env *Env, v, suffixes, what string, max uint64) (uint64, error) {
	n, e := gnu.ParseSize(v, 10, suffixes)
	switch {
	case e&^gnu.SizeOverflow != 0:
		return 0, fmt.Errorf("%s: %s", what, env.Quote(v))
	case e == gnu.SizeOverflow || n > max:
		return 0, fmt.Errorf("%s: %s: Value too large for defined data type", what, env.Quote(v))
	case n == 0:
		return 0, fmt.Errorf("%s: %s: Numerical result out of range", what, env.Quote(v))
	}
	return n, nil
}

type splitter struct {
	env       *Env
	prefix    string
	addSuffix string
	alphabet  string
	sufLen    int
	auto      bool
	idx       []int
	started   bool
	verbose   bool
	elide     bool
	cur       io.WriteCloser
	filter    string // --filter: each output goes to this shell command
	curName   string
}

var errSplitExhausted = errors.New("output file suffixes exhausted")

// nextName advances to the next output name as GNU split does: when the
// suffix length was not given, reaching the last letter in the first
// position widens the name ("xyz" is followed by "xzaaa").
func (s *splitter) nextName() (string, error) {
	if !s.started {
		s.started = true
	} else {
		i := len(s.idx) - 1
		for ; i >= 0; i-- {
			s.idx[i]++
			if s.auto && i == 0 && s.idx[0]+1 == len(s.alphabet) {
				s.prefix += s.alphabet[len(s.alphabet)-1:]
				s.idx = make([]int, len(s.idx)+1)
				break
			}
			if s.idx[i] < len(s.alphabet) {
				break
			}
			s.idx[i] = 0
		}
		if i < 0 {
			return "", errSplitExhausted
		}
	}
	var b strings.Builder
	b.WriteString(s.prefix)
	for _, d := range s.idx {
		b.WriteByte(s.alphabet[d])
	}
	b.WriteString(s.addSuffix)
	return b.String(), nil
}

// open closes the current file and starts the next one.
func (s *splitter) open() error {
	if err := s.close(); err != nil {
		return err
	}
	if s.env.Ctx.Err() != nil {
		// One block read may make thousands of files (-b 1: 65536 a
		// read, each a round trip to vfsd; GNU's suffixes grow without
		// end on /dev/zero): the run's end is looked at before each.
		return gnu.ErrCancelled
	}
	name, err := s.nextName()
	if err != nil {
		return err
	}
	if s.verbose {
		fmt.Fprintf(s.env.Stdout, "creating file %s\n", s.env.QuoteAF(name))
	}
	if s.filter != "" {
		s.cur, s.curName = s.startFilter(name), name
		return nil
	}
	f, err := s.env.Create(name)
	if err != nil {
		return &fs.PathError{Op: "open", Path: name, Err: err}
	}
	s.cur, s.curName = f, name
	return nil
}

// splitFilterError is a --filter command that failed: split stops with
// its status.
type splitFilterError struct {
	file, cmd string
	status    int
}

func (e *splitFilterError) Error() string {
	return fmt.Sprintf("with FILE=%s, exit %d from command: %s", e.file, e.status, e.cmd)
}

// filterWriter feeds one --filter command, which runs beside split with
// FILE set to the output's name; a command that stops reading early is
// not an error (GNU split ignores the broken pipe).
type filterWriter struct {
	pw   *io.PipeWriter
	done chan int
	file string
	cmd  string
}

func (s *splitter) startFilter(name string) *filterWriter {
	pr, pw := io.Pipe()
	fw := &filterWriter{pw: pw, done: make(chan int, 1), file: name, cmd: s.filter}
	env := s.env
	// The command runs on a goroutine of its own: its context carries
	// the depth of split's stack, so that a filter running split again
	// meets the call-depth limit (red team, session 19: the recursion
	// went 3000 levels deep in 10 s, 370 MB, and on without a timeout).
	ctx := env.Ctx
	if env.GoCtx != nil {
		ctx = env.GoCtx(ctx)
	}
	go func() {
		st := env.Exec(ctx, []string{"env", "FILE=" + name, "sh", "-c", s.filter}, pr, env.Stdout, env.Stderr)
		pr.Close()
		fw.done <- st
	}()
	return fw
}

func (f *filterWriter) Write(p []byte) (int, error) {
	if _, err := f.pw.Write(p); err != nil && err != io.ErrClosedPipe {
		return 0, err
	}
	return len(p), nil
}

func (f *filterWriter) Close() error {
	f.pw.Close()
	if st := <-f.done; st != 0 {
		return &splitFilterError{f.file, f.cmd, st}
	}
	return nil
}

func (s *splitter) close() error {
	if s.cur == nil {
		return nil
	}
	err := s.cur.Close()
	s.cur = nil
	if err != nil {
		return &fs.PathError{Op: "close", Path: s.curName, Err: err}
	}
	return nil
}

func (s *splitter) write(p []byte) error {
	if _, err := s.cur.Write(p); err != nil {
		return &fs.PathError{Op: "write", Path: s.curName, Err: err}
	}
	return nil
}

// splitConfig is what split's options select.
type splitConfig struct {
	env            *Env // for its quoting in messages
	mode           byte // 'l' lines, 'b' bytes, 'C' line bytes, 'n' chunks
	modeSet        bool // an option chose mode (a second one fails)
	count          uint64
	chunkK, chunkN uint64 // -n K/N
	chunkKind      byte   // 'b', 'l' or 'r' under -n
	sufLen         int
	sufLenSet      bool
	addSuffix      string
	alphabet       string
	start          uint64 // --numeric-suffixes=FROM
	startSet       bool
	elide, verbose bool
	sep            byte
	filter         string
}

func split(env *Env) int {
	c := &splitConfig{env: env, mode: 'l', count: 1000, sufLen: 2, alphabet: "abcdefghijklmnopqrstuvwxyz", sep: '\n'}
	f := c.flags(env)
	ops, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if len(ops) > 2 {
		env.Errorf("extra operand %s", env.Quote(ops[2]))
		fmt.Fprintf(env.Stderr, "Try '%s --help' for more information.\n", env.Name())
		return 1
	}
	in, prefix := "-", "x"
	if len(ops) > 0 {
		in = ops[0]
	}
	if len(ops) > 1 {
		prefix = ops[1]
	}
	if strings.Contains(c.addSuffix, "/") {
		env.Errorf("invalid suffix %s, contains directory separator", env.Quote(c.addSuffix))
		return 1
	}
	base := uint64(len(c.alphabet))
	if c.mode == 'n' && c.chunkK == 0 {
		// The suffix must be long enough for every chunk.
		need := 1
		for v := base; v < c.chunkN+c.start; v *= base {
			need++
			if v > math.MaxUint64/base {
				break
			}
		}
		if !c.sufLenSet {
			c.sufLen = max(c.sufLen, need)
		} else if c.sufLen < need {
			env.Errorf("the suffix length needs to be at least %d", need)
			return 1
		}
	}
	return c.run(env, in, prefix)
}

// setMode selects the way of splitting, refusing a second one.
func (c *splitConfig) setMode(m byte) error {
	if c.modeSet {
		return &UsageError{"cannot split in more than one way"}
	}
	c.mode, c.modeSet = m, true
	return nil
}

// flags is split's option table.
func (c *splitConfig) flags(env *Env) *Flags {
	f := NewFlags(env, "Output pieces of FILE to PREFIXaa, PREFIXab, ...;\ndefault size is 1000 lines, and default PREFIX is 'x'.\n\nWith no FILE, or when FILE is -, read standard input.", "[OPTION]... [FILE [PREFIX]]")
	f.Epilog = "The SIZE argument is an integer and optional unit (example: 10K is 10*1024).\n" +
		"Units are K,M,G,T,P,E,Z,Y (powers of 1024) or KB,MB,... (powers of 1000).\n" +
		"Binary prefixes can be used, too: KiB=K, MiB=M, and so on.\n\n" +
		"CHUNKS may be:\n" +
		"  N       split into N files based on size of input\n" +
		"  K/N     output Kth of N to stdout\n" +
		"  l/N     split into N files without splitting lines/records\n" +
		"  l/K/N   output Kth of N to stdout without splitting lines/records\n" +
		"  r/N     like 'l' but use round robin distribution\n" +
		"  r/K/N   likewise but only output Kth of N to stdout"
	byteOpt := func(m byte) func(string, bool) error {
		return func(v string, _ bool) error {
			if err := c.setMode(m); err != nil {
				return err
			}
			n, err := splitCount(env, v, "bEGKkMmPTYZ0", "invalid number of bytes", math.MaxInt64)
			if err != nil {
				return err
			}
			c.count = n
			return nil
		}
	}
	f.Func('b', "bytes", RequiredArg, "SIZE", "put SIZE bytes per output file", byteOpt('b'))
	f.Func('C', "line-bytes", RequiredArg, "SIZE", "put at most SIZE bytes of records per output file", byteOpt('C'))
	f.Func('l', "lines", RequiredArg, "NUMBER", "put NUMBER lines/records per output file", func(v string, _ bool) error {
		if err := c.setMode('l'); err != nil {
			return err
		}
		n, err := splitCount(env, v, "", "invalid number of lines", math.MaxUint64)
		if err != nil {
			return err
		}
		c.count = n
		return nil
	})
	f.Func('n', "number", RequiredArg, "CHUNKS", "generate CHUNKS output files; see explanation below", c.setChunks)
	f.Func('a', "suffix-length", RequiredArg, "N", "generate suffixes of length N (default 2)", func(v string, _ bool) error {
		n, err := strconv.ParseUint(v, 10, 31)
		if err != nil || n > 1<<20 {
			// Longer suffixes could never name a file (NAME_MAX is 255).
			return fmt.Errorf("invalid suffix length: %s", env.Quote(v))
		}
		if n > 0 { // GNU: 0 is the default, which grows as needed
			c.sufLen, c.sufLenSet = int(n), true
		}
		return nil
	})
	f.StringVar(&c.addSuffix, 0, "additional-suffix", "SUFFIX", "append an additional SUFFIX to file names")
	numeric := func(digits string) func(string, bool) error {
		return func(v string, present bool) error {
			c.alphabet = digits
			if present {
				what, valid := "numerical", digits
				if len(digits) == 16 {
					what, valid = "hexadecimal", digits+"ABCDEF"
				}
				if strings.Trim(v, valid) != "" {
					return &UsageError{fmt.Sprintf("%s: invalid start value for %s suffix", env.Quote(v), what)}
				}
				n, err := strconv.ParseUint(v, len(digits), 64)
				if err != nil {
					return fmt.Errorf("invalid number: %s", env.Quote(v))
				}
				c.start, c.startSet = n, true
			}
			return nil
		}
	}
	f.Func('d', "", NoArg, "", "use numeric suffixes starting at 0, not alphabetic", numeric("0123456789"))
	f.Func(0, "numeric-suffixes", OptionalArg, "FROM", "same as -d, but allow setting the start value", numeric("0123456789"))
	f.Func('x', "", NoArg, "", "use hex suffixes starting at 0, not alphabetic", numeric("0123456789abcdef"))
	f.Func(0, "hex-suffixes", OptionalArg, "FROM", "same as -x, but allow setting the start value", numeric("0123456789abcdef"))
	f.BoolVar(&c.elide, 'e', "elide-empty-files", "do not generate empty output files with '-n'")
	f.Bool('u', "unbuffered", "immediately copy input to output with '-n r/...' (accepted: output\n"+
		"is written as it is produced)")
	f.BoolVar(&c.verbose, 0, "verbose", "print a diagnostic just before each output file is opened")
	f.Func('t', "separator", RequiredArg, "SEP", "use SEP instead of newline as the record separator", func(v string, _ bool) error {
		switch {
		case v == `\0`:
			c.sep = 0
		case len(v) == 1:
			c.sep = v[0]
		case v == "":
			return errors.New("empty record separator")
		default:
			return fmt.Errorf("multi-character separator %s", env.Quote(v))
		}
		return nil
	})
	f.StringVar(&c.filter, 0, "filter", "COMMAND", "write to shell COMMAND; file name is $FILE\n(llmsh: not with -n)")
	return f
}

// setChunks sets -n's [l/|r/][K/]N.
func (c *splitConfig) setChunks(v string, _ bool) error {
	if err := c.setMode('n'); err != nil {
		return err
	}
	spec := v
	c.chunkKind = 'b'
	if strings.HasPrefix(spec, "l/") || strings.HasPrefix(spec, "r/") {
		c.chunkKind = spec[0]
		spec = spec[2:]
	}
	parts := strings.Split(spec, "/")
	if len(parts) > 2 {
		return fmt.Errorf("invalid number of chunks: %s", c.env.Quote(v))
	}
	n, err := strconv.ParseUint(parts[len(parts)-1], 10, 64)
	if err != nil || n == 0 {
		if err == nil || errors.Is(err, strconv.ErrRange) {
			return fmt.Errorf("invalid number of chunks: %s: Numerical result out of range", c.env.Quote(parts[len(parts)-1]))
		}
		return fmt.Errorf("invalid number of chunks: %s", c.env.Quote(parts[len(parts)-1]))
	}
	c.chunkN, c.chunkK = n, 0
	if len(parts) == 2 {
		k, err := strconv.ParseUint(parts[0], 10, 64)
		if err != nil || k == 0 || k > n {
			if err == nil || errors.Is(err, strconv.ErrRange) {
				return fmt.Errorf("invalid chunk number: %s: Numerical result out of range", c.env.Quote(parts[0]))
			}
			return fmt.Errorf("invalid chunk number: %s", c.env.Quote(parts[0]))
		}
		c.chunkK = k
	}
	return nil
}

// run splits the file in into files named PREFIX and a suffix.
func (c *splitConfig) run(env *Env, in, prefix string) int {
	base := uint64(len(c.alphabet))
	s := &splitter{env: env, prefix: prefix, addSuffix: c.addSuffix, alphabet: c.alphabet,
		sufLen: c.sufLen, auto: !c.sufLenSet && c.mode != 'n' && !c.startSet, verbose: c.verbose, elide: c.elide,
		filter: c.filter}
	switch {
	case c.filter != "" && env.Exec == nil:
		env.Errorf("--filter is not supported: no shell to run commands")
		return 1
	case c.filter != "" && c.mode == 'n':
		env.Errorf("--filter with -n is not supported by llmsh")
		return 1
	}
	s.idx = make([]int, c.sufLen)
	if c.startSet {
		v := c.start
		for i := c.sufLen - 1; i >= 0; i-- {
			s.idx[i] = int(v % base)
			v /= base
		}
		if v != 0 {
			env.Errorf("numerical suffix start value is too large for the suffix length")
			return 1
		}
	}

	r, err := env.Open(in)
	if errors.Is(err, syscall.EISDIR) {
		// GNU opens a directory and fails as it reads it
		env.PathError(in, err)
		return 1
	}
	if err != nil {
		env.Errorf("cannot open %s for reading: %s", env.QuoteAF(in), ErrText(err))
		return 1
	}
	defer r.Close()
	var size int64 = -1
	// -n r/N deals lines out as it reads them: no size needed
	if c.mode == 'n' && c.chunkKind != 'r' {
		var st interface{ Stat() (fs.FileInfo, error) }
		if x, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
			st = x
		} else if x, ok := env.Stdin.(interface{ Stat() (fs.FileInfo, error) }); ok && in == "-" {
			st = x
		}
		if st != nil {
			if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
				size = fi.Size()
			}
		}
		if size < 0 {
			env.Errorf("%s: cannot determine file size", in)
			return 1
		}
	}
	br := bufio.NewReaderSize(r, 64<<10)
	w := bufio.NewWriterSize(env.Stdout, 64<<10)
	switch {
	case c.mode == 'l':
		err = s.byLines(br, c.count, c.sep)
	case c.mode == 'b':
		err = s.byBytes(br, c.count)
	case c.mode == 'C':
		err = s.byLineBytes(br, c.count, c.sep)
	case c.chunkKind == 'b':
		err = s.byteChunks(br, uint64(size), c.chunkN, c.chunkK, w)
	case c.chunkKind == 'l':
		err = s.lineChunks(br, uint64(size), c.chunkN, c.chunkK, c.sep, w)
	default:
		err = s.roundRobin(br, c.chunkN, c.chunkK, c.sep, w)
	}
	if cerr := s.close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = w.Flush()
	}
	var fe *splitFilterError
	if errors.As(err, &fe) {
		env.Errorf("%s", fe)
		return fe.status
	}
	if err != nil {
		var pe *fs.PathError
		switch {
		case errors.Is(err, gnu.ErrCancelled):
		case errors.Is(err, errSplitExhausted):
			env.Errorf("%s", err)
		case IsBrokenPipe(err):
		case errors.As(err, &pe) && pe.Op != "read":
			env.PathError(pe.Path, pe.Err)
		default:
			env.PathError(in, err)
		}
		return 1
	}
	return 0
}

func (s *splitter) byLines(br *bufio.Reader, n uint64, sep byte) error {
	var lines uint64
	for k := 0; ; k++ {
		if k&0xfff == 0 && s.env.Ctx.Err() != nil {
			return gnu.ErrCancelled
		}
		line, err := br.ReadSlice(sep)
		if len(line) > 0 {
			if s.cur == nil || lines == n {
				if err := s.open(); err != nil {
					return err
				}
				lines = 0
			}
			if werr := s.write(line); werr != nil {
				return werr
			}
			if err == nil || err == io.EOF {
				lines++
			}
		}
		switch err {
		case nil, bufio.ErrBufferFull:
		case io.EOF:
			return nil
		default:
			return err
		}
	}
}

// byLineBytes is -C: whole records up to n bytes per file; a record
// longer than n fills files of its own, its tail sharing the next one.
func (s *splitter) byLineBytes(br *bufio.Reader, n uint64, sep byte) error {
	var used uint64
	need := true
	put := func(p []byte) error {
		if need {
			if err := s.open(); err != nil {
				return err
			}
			used, need = 0, false
		}
		used += uint64(len(p))
		return s.write(p)
	}
	for k := 0; ; k++ {
		if k&0xfff == 0 && s.env.Ctx.Err() != nil {
			return gnu.ErrCancelled
		}
		line, err := br.ReadBytes(sep)
		if len(line) > 0 {
			if !need && uint64(len(line)) > n-used {
				need = true
			}
			for uint64(len(line)) > n {
				if werr := put(line[:n]); werr != nil {
					return werr
				}
				line, need = line[n:], true
			}
			if len(line) > 0 {
				if werr := put(line); werr != nil {
					return werr
				}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func (s *splitter) byBytes(br *bufio.Reader, n uint64) error {
	buf := make([]byte, 64<<10)
	left := uint64(0)
	for {
		if s.env.Ctx.Err() != nil {
			return gnu.ErrCancelled
		}
		m, err := br.Read(buf)
		p := buf[:m]
		for len(p) > 0 {
			if s.cur == nil || left == 0 {
				if err := s.open(); err != nil {
					return err
				}
				left = n
			}
			k := min(uint64(len(p)), left)
			if werr := s.write(p[:k]); werr != nil {
				return werr
			}
			p, left = p[k:], left-k
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// chunkBounds is GNU's split of size bytes into n chunks: each is
// size/n bytes and the last takes the remainder; with fewer bytes than
// chunks, each of the first chunks gets one byte.
func chunkBounds(size, n, k uint64) (uint64, uint64) {
	if size < n {
		if k <= size {
			return k - 1, k
		}
		return size, size
	}
	cs := size / n
	start := (k - 1) * cs
	end := k * cs
	if k == n {
		end = size
	}
	return start, end
}

func (s *splitter) byteChunks(br *bufio.Reader, size, n, only uint64, w *bufio.Writer) error {
	if only > 0 {
		start, end := chunkBounds(size, n, only)
		if _, err := io.CopyN(io.Discard, br, int64(start)); err != nil && err != io.EOF {
			return err
		}
		if _, err := io.CopyN(splitCtxWriter{s.env, w}, br, int64(end-start)); err != nil && err != io.EOF {
			return err
		}
		return nil
	}
	for k := uint64(1); k <= n; k++ {
		if s.env.Ctx.Err() != nil {
			return gnu.ErrCancelled
		}
		start, end := chunkBounds(size, n, k)
		if s.elide && end == start {
			continue
		}
		if err := s.open(); err != nil {
			return err
		}
		if _, err := io.CopyN(splitCtxWriter{s.env, fileWriter{s}}, br, int64(end-start)); err != nil && err != io.EOF {
			return err
		}
	}
	return nil
}

// lineChunks puts each line in the chunk where it starts, so that no
// line is split (GNU's -n l/N).
func (s *splitter) lineChunks(br *bufio.Reader, size, n, only uint64, sep byte, w *bufio.Writer) error {
	cs := size / n
	var off uint64
	chunk := uint64(0) // chunks opened so far
	for i := 0; ; i++ {
		if i&0xfff == 0 && s.env.Ctx.Err() != nil {
			return gnu.ErrCancelled
		}
		line, err := br.ReadBytes(sep)
		if len(line) > 0 {
			k := n
			if cs > 0 && off/cs+1 < n {
				k = off/cs + 1
			}
			off += uint64(len(line))
			if only > 0 {
				if k == only {
					if _, werr := w.Write(line); werr != nil {
						return werr
					}
				} else if k > only {
					return nil
				}
			} else {
				for chunk < k {
					chunk++
					if s.elide && chunk < k {
						continue
					}
					if oerr := s.open(); oerr != nil {
						return oerr
					}
				}
				if werr := s.write(line); werr != nil {
					return werr
				}
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	for only == 0 && chunk < n && !s.elide {
		if s.env.Ctx.Err() != nil {
			return gnu.ErrCancelled
		}
		chunk++
		if err := s.open(); err != nil {
			return err
		}
	}
	return nil
}

func (s *splitter) roundRobin(br *bufio.Reader, n, only uint64, sep byte, w *bufio.Writer) error {
	var files []io.WriteCloser
	var names []string
	defer func() {
		for _, f := range files {
			if f != nil {
				f.Close()
			}
		}
	}()
	if only == 0 {
		for k := uint64(0); k < n; k++ {
			if s.env.Ctx.Err() != nil {
				return gnu.ErrCancelled
			}
			if err := s.open(); err != nil {
				return err
			}
			files, names = append(files, s.cur), append(names, s.curName)
			s.cur = nil
		}
	}
	for i := uint64(0); ; i++ {
		if i&0xfff == 0 && s.env.Ctx.Err() != nil {
			return gnu.ErrCancelled
		}
		line, err := br.ReadBytes(sep)
		if len(line) > 0 {
			k := i % n
			if only > 0 {
				if k == only-1 {
					if _, werr := w.Write(line); werr != nil {
						return werr
					}
				}
			} else if _, werr := files[k].Write(line); werr != nil {
				return &fs.PathError{Op: "write", Path: names[k], Err: werr}
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	for k, f := range files {
		files[k] = nil
		if err := f.Close(); err != nil {
			return &fs.PathError{Op: "close", Path: names[k], Err: err}
		}
	}
	return nil
}

// fileWriter writes to the splitter's current file.
type fileWriter struct{ s *splitter }

func (f fileWriter) Write(p []byte) (int, error) {
	if err := f.s.write(p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// splitCtxWriter stops a copy once the command is cancelled.
type splitCtxWriter struct {
	env *Env
	w   io.Writer
}

func (c splitCtxWriter) Write(p []byte) (int, error) {
	if c.env.Ctx.Err() != nil {
		return 0, gnu.ErrCancelled
	}
	return c.w.Write(p)
}
