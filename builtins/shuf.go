package builtins

import (
	"bufio"
	crand "crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "shuf", Summary: "generate random permutations", Run: shuf})

// shufRandint is gnulib's randint source: it draws bytes from a byte
// stream and keeps the unused randomness between calls, so that a given
// --random-source file yields exactly GNU shuf's choices.
type shufRandint struct {
	src              io.Reader
	randnum, randmax uint64
	name             string
}

var errShufEOF = errors.New("end of file")

func (s *shufRandint) genmax(genmax uint64) (uint64, error) {
	randnum, randmax := s.randnum, s.randmax
	choices := genmax + 1
	for {
		if randmax < genmax {
			i := 0
			rmax := randmax
			for {
				rmax = rmax<<8 + 0xff
				i++
				if rmax >= genmax {
					break
				}
			}
			var buf [8]byte
			if _, err := io.ReadFull(s.src, buf[:i]); err != nil {
				if err == io.EOF || err == io.ErrUnexpectedEOF {
					return 0, errShufEOF
				}
				return 0, err
			}
			for j := 0; j < i; j++ {
				randnum = randnum<<8 + uint64(buf[j])
				randmax = randmax<<8 + 0xff
			}
		}
		if randmax == genmax {
			s.randnum, s.randmax = 0, 0
			return randnum, nil
		}
		excess := randmax - genmax
		unusable := excess % choices
		lastUsable := randmax - unusable
		reduced := randnum % choices
		if randnum <= lastUsable {
			s.randnum = randnum / choices
			s.randmax = excess / choices
			return reduced, nil
		}
		randnum = reduced
		randmax = unusable - 1
	}
}

func (s *shufRandint) choose(n uint64) (uint64, error) { return s.genmax(n - 1) }

// shufPerm is gnulib's randperm_new: the first h entries of a
// Fisher-Yates shuffle of 0..n-1, stored sparsely when n is large.
func shufPerm(r *shufRandint, h, n uint64) ([]uint64, error) {
	switch h {
	case 0:
		return nil, nil
	case 1:
		j, err := r.choose(n)
		return []uint64{j}, err
	}
	out := make([]uint64, h)
	if n <= 1<<20 {
		v := make([]uint64, n)
		for i := range v {
			v[i] = uint64(i)
		}
		for i := uint64(0); i < h; i++ {
			j, err := r.choose(n - i)
			if err != nil {
				return nil, err
			}
			v[i], v[i+j] = v[i+j], v[i]
		}
		copy(out, v[:h])
		return out, nil
	}
	sparse := map[uint64]uint64{}
	get := func(i uint64) uint64 {
		if v, ok := sparse[i]; ok {
			return v
		}
		return i
	}
	for i := uint64(0); i < h; i++ {
		j, err := r.choose(n - i)
		if err != nil {
			return nil, err
		}
		a, b := get(i), get(i+j)
		sparse[i], sparse[i+j] = b, a
		out[i] = b
	}
	return out, nil
}

// shufRandomBytes is the source used without --random-source.
type shufRandomBytes struct{ r *rand.ChaCha8 }

func (s shufRandomBytes) Read(p []byte) (int, error) { return s.r.Read(p) }

// shufConfig is what shuf's options select.
type shufConfig struct {
	env               *Env // for its quoting in messages
	echo              bool
	lo, hi            uint64 // -i LO-HI
	rangeSet          bool
	headLines         uint64 // -n
	outFile, source   string
	outSet, sourceSet bool
	repeat, zero      bool
}

func shuf(env *Env) int {
	c := &shufConfig{env: env, headLines: math.MaxUint64}
	f := c.flags(env)
	operands, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if c.echo && c.rangeSet {
		env.Errorf("cannot combine -e and -i options")
		fmt.Fprintf(env.Stderr, "Try '%s --help' for more information.\n", env.Name())
		return 1
	}
	if !c.echo && (c.rangeSet && len(operands) > 0 || len(operands) > 1) {
		extra := operands[0]
		if !c.rangeSet {
			extra = operands[1]
		}
		env.Errorf("extra operand %s", env.Quote(extra))
		fmt.Fprintf(env.Stderr, "Try '%s --help' for more information.\n", env.Name())
		return 1
	}
	return c.run(env, operands)
}

// flags is shuf's option table.
func (c *shufConfig) flags(env *Env) *Flags {
	f := NewFlags(env, "Write a random permutation of the input lines to standard output.\n\nWith no FILE, or when FILE is -, read standard input.",
		"[OPTION]... [FILE]", "-e [OPTION]... [ARG]...", "-i LO-HI [OPTION]...")
	f.BoolVar(&c.echo, 'e', "echo", "treat each ARG as an input line")
	f.Func('i', "input-range", RequiredArg, "LO-HI", "treat each number LO through HI as an input line", c.setRange)
	f.Func('n', "head-count", RequiredArg, "COUNT", "output at most COUNT lines", func(v string, _ bool) error {
		n, e := gnu.ParseSize(v, 10, "")
		if e&^gnu.SizeOverflow != 0 {
			return fmt.Errorf("invalid line count: %s", env.Quote(v))
		}
		c.headLines = min(c.headLines, n) // an overflow is 2^64-1: no limit
		return nil
	})
	f.Func('o', "output", RequiredArg, "FILE", "write result to FILE instead of standard output", func(v string, _ bool) error {
		c.outFile, c.outSet = v, true
		return nil
	})
	f.Func(0, "random-source", RequiredArg, "FILE", "get random bytes from FILE", func(v string, _ bool) error {
		if c.sourceSet && c.source != v {
			return errors.New("multiple random sources specified")
		}
		c.source, c.sourceSet = v, true
		return nil
	})
	f.BoolVar(&c.repeat, 'r', "repeat", "output lines can be repeated")
	f.BoolVar(&c.zero, 'z', "zero-terminated", "line delimiter is NUL, not newline")
	return f
}

// setRange sets -i's LO-HI.
func (c *shufConfig) setRange(v string, _ bool) error {
	if c.rangeSet {
		return errors.New("multiple -i options specified")
	}
	// As coreutils 9.1: the message quotes the part that failed.
	a, b, ok := strings.Cut(v, "-")
	if !ok {
		return fmt.Errorf("invalid input range: %s", c.env.Quote(v))
	}
	num := func(x string) (uint64, bool) {
		x = strings.TrimLeft(x, " \t\n\v\f\r")
		x = strings.TrimPrefix(x, "+")
		n, err := strconv.ParseUint(x, 10, 64)
		return n, err == nil
	}
	l, okL := num(a)
	if !okL {
		return fmt.Errorf("invalid input range: %s", c.env.Quote(a))
	}
	h, okH := num(b)
	if !okH {
		return fmt.Errorf("invalid input range: %s", c.env.Quote(b))
	}
	if (l > 0 && h < l-1) || (l == 0 && h == math.MaxUint64) {
		return fmt.Errorf("invalid input range: %s", c.env.Quote(v))
	}
	c.lo, c.hi, c.rangeSet = l, h, true
	return nil
}

// shufRun is one run of shuf: its lines and its random numbers.
type shufRun struct {
	*shufConfig
	env       *Env
	eol       byte
	lines     [][]byte
	nLines    uint64
	reservoir bool // the input is too big to read whole: sample it
	in        io.Reader
	inName    string
	r         *shufRandint
}

// run shuffles the lines of the operands.
func (c *shufConfig) run(env *Env, operands []string) int {
	s := &shufRun{shufConfig: c, env: env, eol: '\n', r: &shufRandint{}}
	if c.zero {
		s.eol = 0
	}
	fh, st := s.input(operands)
	if fh != nil {
		defer fh.Close()
	}
	if st != 0 {
		return st
	}
	if !c.repeat {
		c.headLines = min(c.headLines, s.nLines)
	}
	if c.sourceSet && (c.headLines > 0 || c.repeat) { // GNU opens no source when it needs no byte
		fh, err := env.Open(c.source)
		if err != nil {
			env.PathError(c.source, err)
			return 1
		}
		defer fh.Close()
		s.r.src, s.r.name = bufio.NewReader(fh), c.source
	} else {
		var seed [32]byte
		crand.Read(seed[:])
		s.r.src = shufRandomBytes{rand.NewChaCha8(seed)}
	}
	if s.reservoir {
		rs, n, err := shufReservoir(env, s.in, s.eol, c.headLines, s.r)
		if err != nil {
			if errors.Is(err, errShufEOF) || s.r.name != "" && !errors.Is(err, gnu.ErrCancelled) && !isReadErr(err) {
				return s.randFail(err)
			}
			if errors.Is(err, gnu.ErrCancelled) {
				return 1
			}
			env.Errorf("read error: %s", ErrText(err)) // GNU's die(…, "read error")
			return 1
		}
		s.lines, s.nLines, c.headLines = rs, n, n
	}
	var perm []uint64
	if !c.repeat && c.headLines > 1<<27 {
		// GNU shuf allocates the permutation too, and fails the same way.
		env.Errorf("memory exhausted")
		return 1
	}
	if !c.repeat {
		var err error
		if perm, err = shufPerm(s.r, c.headLines, s.nLines); err != nil {
			return s.randFail(err)
		}
	}
	return s.output(perm)
}

// input gathers the lines (-e, -i) or opens the input, which it returns
// for the caller to close; a status other than 0 ends the run.
func (s *shufRun) input(operands []string) (io.Closer, int) {
	env := s.env
	switch {
	case s.echo:
		for _, o := range operands {
			s.lines = append(s.lines, []byte(o))
		}
		s.nLines = uint64(len(s.lines))
		return nil, 0
	case s.rangeSet:
		s.nLines = s.hi - s.lo + 1
		return nil, 0
	case s.headLines == 0:
		// -n 0: GNU neither opens the input nor reads it.
		return nil, 0
	}
	s.inName = "-"
	if len(operands) == 1 {
		s.inName = operands[0]
	}
	fh, err := env.Open(s.inName)
	if errors.Is(err, syscall.EISDIR) {
		// GNU opens a directory and fails as it reads it
		env.Errorf("read error: %s", ErrText(err))
		return nil, 1
	}
	if err != nil {
		env.PathError(s.inName, err)
		return nil, 1
	}
	s.in = fh
	size := int64(-1)
	if st, ok := fh.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
		}
	} else if st, ok := env.Stdin.(interface{ Stat() (fs.FileInfo, error) }); ok && s.inName == "-" {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
		}
	}
	if !s.repeat && s.headLines != math.MaxUint64 && (size < 0 || size > 8192*1024) {
		s.reservoir = true
		s.nLines = math.MaxUint64
		return fh, 0
	}
	s.lines, err = shufReadLines(env, s.in, s.eol)
	if err != nil {
		if !errors.Is(err, gnu.ErrCancelled) {
			env.Errorf("read error: %s", ErrText(err)) // GNU's die(…, "read error")
		}
		return fh, 1
	}
	s.nLines = uint64(len(s.lines))
	return fh, 0
}

// randFail reports a failure to get random bytes.
func (s *shufRun) randFail(err error) int {
	if errors.Is(err, errShufEOF) {
		s.env.Errorf("%s: end of file", s.env.Quote(s.r.name))
	} else if !errors.Is(err, gnu.ErrCancelled) {
		s.env.Errorf("%s: %s", s.r.name, ErrText(err))
	}
	return 1
}

// output writes the lines in the order of perm, or random ones under -r.
func (s *shufRun) output(perm []uint64) int {
	env := s.env
	var out io.Writer = env.Stdout
	var outF File
	if s.outSet {
		var err error
		outF, err = env.Create(s.outFile)
		if err != nil {
			env.PathError(s.outFile, err)
			return 1
		}
		out = outF
	}
	w := bufio.NewWriterSize(out, 64<<10)
	writeLine := func(j uint64) error {
		if s.rangeSet {
			w.WriteString(strconv.FormatUint(s.lo+j, 10))
		} else {
			w.Write(s.lines[j])
		}
		if err := w.WriteByte(s.eol); err != nil {
			return gnu.WriteError{Err: err}
		}
		return nil
	}
	var werr error
	if s.repeat {
		if s.headLines > 0 && s.nLines == 0 {
			env.Errorf("no lines to repeat")
			return 1
		}
		for i := uint64(0); i < s.headLines && werr == nil; i++ {
			if i&0xfff == 0 && env.Ctx.Err() != nil {
				return 1
			}
			j, err := s.r.choose(s.nLines)
			if err != nil {
				w.Flush()
				return s.randFail(err)
			}
			werr = writeLine(j)
		}
	} else {
		for i, p := range perm {
			if i&0xfff == 0 && env.Ctx.Err() != nil {
				return 1
			}
			if werr = writeLine(p); werr != nil {
				break
			}
		}
	}
	if werr != nil {
		st, _ := stopError(env, werr)
		return st
	}
	status := finishOutput(env, w, 0)
	if outF != nil {
		if err := outF.Close(); err != nil && status == 0 {
			env.PathError(s.outFile, err)
			status = 1
		}
	}
	return status
}

// shufReadErr marks an input read failure inside reservoir sampling.
type shufReadErr struct{ err error }

func (e shufReadErr) Error() string { return e.err.Error() }
func (e shufReadErr) Unwrap() error { return e.err }

func isReadErr(err error) bool {
	var re shufReadErr
	return errors.As(err, &re)
}

func shufReadLines(env *Env, r io.Reader, eol byte) ([][]byte, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var lines [][]byte
	for {
		if len(lines)&0xfff == 0 && env.Ctx.Err() != nil {
			return nil, gnu.ErrCancelled
		}
		line, err := env.gatherLine(nil, br, eol)
		if len(line) > 0 {
			if line[len(line)-1] == eol {
				line = line[:len(line)-1]
			}
			lines = append(lines, line)
		}
		if err == io.EOF {
			return lines, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// shufReservoir is GNU shuf's reservoir sampling for -n over input of
// unknown size: it keeps k lines and draws one choice per further line
// (and one more at the end of input, as GNU does).
func shufReservoir(env *Env, r io.Reader, eol byte, k uint64, rnd *shufRandint) ([][]byte, uint64, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	read := func() ([]byte, bool, error) {
		line, err := env.gatherLine(nil, br, eol)
		if len(line) > 0 {
			if line[len(line)-1] == eol {
				line = line[:len(line)-1]
			}
			return line, true, nil
		}
		if err == io.EOF {
			return nil, false, nil
		}
		return nil, false, shufReadErr{err}
	}
	var rsrv [][]byte
	var n uint64
	for n < k {
		line, ok, err := read()
		if err != nil {
			return nil, 0, err
		}
		if !ok {
			return rsrv, n, nil
		}
		rsrv = append(rsrv, line)
		n++
	}
	for {
		if n&0xfff == 0 && env.Ctx.Err() != nil {
			return nil, 0, gnu.ErrCancelled
		}
		j, err := rnd.choose(n + 1)
		if err != nil {
			return nil, 0, err
		}
		line, ok, err := read()
		if err != nil {
			return nil, 0, err
		}
		if !ok {
			break
		}
		if j < k {
			rsrv[j] = line
		}
		n++
	}
	return rsrv, min(k, n), nil
}
