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

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

func init() {
	Register(Builtin{Name: "shuf", Summary: "generate random permutations", Run: shuf})
}

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

func shuf(env *Env) int {
	f := NewFlags(env, "Write a random permutation of the input lines to standard output.\n\nWith no FILE, or when FILE is -, read standard input.",
		"[OPTION]... [FILE]", "-e [OPTION]... [ARG]...", "-i LO-HI [OPTION]...")
	echo := f.Bool('e', "echo", "treat each ARG as an input line")
	var lo, hi uint64
	rangeSet := false
	f.Func('i', "input-range", RequiredArg, "LO-HI", "treat each number LO through HI as an input line", func(v string, _ bool) error {
		if rangeSet {
			return errors.New("multiple -i options specified")
		}
		// As coreutils 9.1: the message quotes the part that failed.
		a, b, ok := strings.Cut(v, "-")
		if !ok {
			return fmt.Errorf("invalid input range: %s", gnu.Quote(v))
		}
		num := func(x string) (uint64, bool) {
			x = strings.TrimLeft(x, " \t\n\v\f\r")
			x = strings.TrimPrefix(x, "+")
			n, err := strconv.ParseUint(x, 10, 64)
			return n, err == nil
		}
		l, okL := num(a)
		if !okL {
			return fmt.Errorf("invalid input range: %s", gnu.Quote(a))
		}
		h, okH := num(b)
		if !okH {
			return fmt.Errorf("invalid input range: %s", gnu.Quote(b))
		}
		if (l > 0 && h < l-1) || (l == 0 && h == math.MaxUint64) {
			return fmt.Errorf("invalid input range: %s", gnu.Quote(v))
		}
		lo, hi, rangeSet = l, h, true
		return nil
	})
	headLines := uint64(math.MaxUint64)
	f.Func('n', "head-count", RequiredArg, "COUNT", "output at most COUNT lines", func(v string, _ bool) error {
		n, e := gnu.ParseSize(v, 10, "")
		if e&^gnu.SizeOverflow != 0 {
			return fmt.Errorf("invalid line count: %s", gnu.Quote(v))
		}
		headLines = min(headLines, n) // an overflow is 2^64-1: no limit
		return nil
	})
	outFile, outSet := f.String('o', "output", "FILE", "write result to FILE instead of standard output")
	source, sourceSet := f.String(0, "random-source", "FILE", "get random bytes from FILE")
	repeat := f.Bool('r', "repeat", "output lines can be repeated")
	zero := f.Bool('z', "zero-terminated", "line delimiter is NUL, not newline")
	operands, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	eol := byte('\n')
	if *zero {
		eol = 0
	}
	if *echo && rangeSet {
		env.Errorf("cannot combine -e and -i options")
		fmt.Fprintf(env.Stderr, "Try '%s --help' for more information.\n", env.Name())
		return 1
	}
	if !*echo && (rangeSet && len(operands) > 0 || len(operands) > 1) {
		extra := operands[0]
		if !rangeSet {
			extra = operands[1]
		}
		env.Errorf("extra operand %s", gnu.Quote(extra))
		fmt.Fprintf(env.Stderr, "Try '%s --help' for more information.\n", env.Name())
		return 1
	}

	var lines [][]byte
	var nLines uint64
	reservoir := false
	var in io.Reader
	var inName string
	switch {
	case *echo:
		for _, o := range operands {
			lines = append(lines, []byte(o))
		}
		nLines = uint64(len(lines))
	case rangeSet:
		nLines = hi - lo + 1
	case headLines == 0:
		// -n 0: GNU neither opens the input nor reads it.
	default:
		inName = "-"
		if len(operands) == 1 {
			inName = operands[0]
		}
		fh, err := env.Open(inName)
		if err != nil {
			env.PathError(inName, err)
			return 1
		}
		defer fh.Close()
		in = fh
		size := int64(-1)
		if st, ok := fh.(interface{ Stat() (fs.FileInfo, error) }); ok {
			if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
				size = fi.Size()
			}
		} else if st, ok := env.Stdin.(interface{ Stat() (fs.FileInfo, error) }); ok && inName == "-" {
			if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
				size = fi.Size()
			}
		}
		if *repeat || headLines == math.MaxUint64 || (size >= 0 && size <= 8192*1024) {
			lines, err = shufReadLines(env, in, eol)
			if err != nil {
				if errors.Is(err, gnu.ErrCancelled) {
					return 1
				}
				env.PathError(inName, err)
				return 1
			}
			nLines = uint64(len(lines))
		} else {
			reservoir = true
			nLines = math.MaxUint64
		}
	}
	if !*repeat {
		headLines = min(headLines, nLines)
	}

	r := &shufRandint{}
	if *sourceSet && (headLines > 0 || *repeat) { // GNU opens no source when it needs no byte
		fh, err := env.Open(*source)
		if err != nil {
			env.PathError(*source, err)
			return 1
		}
		defer fh.Close()
		r.src, r.name = bufio.NewReader(fh), *source
	} else {
		var seed [32]byte
		crand.Read(seed[:])
		r.src = shufRandomBytes{rand.NewChaCha8(seed)}
	}
	randFail := func(err error) int {
		if errors.Is(err, errShufEOF) {
			env.Errorf("%s: end of file", gnu.Quote(r.name))
		} else if errors.Is(err, gnu.ErrCancelled) {
			return 1
		} else {
			env.Errorf("%s: %s", r.name, ErrText(err))
		}
		return 1
	}

	if reservoir {
		rs, n, err := shufReservoir(env, in, eol, headLines, r)
		if err != nil {
			if errors.Is(err, errShufEOF) || r.name != "" && !errors.Is(err, gnu.ErrCancelled) && !isReadErr(err) {
				return randFail(err)
			}
			if errors.Is(err, gnu.ErrCancelled) {
				return 1
			}
			env.PathError(inName, err)
			return 1
		}
		lines, nLines, headLines = rs, n, n
	}
	var perm []uint64
	if !*repeat && headLines > 1<<27 {
		// GNU shuf allocates the permutation too, and fails the same way.
		env.Errorf("memory exhausted")
		return 1
	}
	if !*repeat {
		var err error
		if perm, err = shufPerm(r, headLines, nLines); err != nil {
			return randFail(err)
		}
	}

	var out io.Writer = env.Stdout
	var outF File
	if *outSet {
		outF, err = env.Create(*outFile)
		if err != nil {
			env.PathError(*outFile, err)
			return 1
		}
		out = outF
	}
	w := bufio.NewWriterSize(out, 64<<10)
	status := 0
	writeLine := func(b []byte) error {
		w.Write(b)
		if err := w.WriteByte(eol); err != nil {
			return gnu.WriteError{Err: err}
		}
		return nil
	}
	writeNum := func(v uint64) error {
		w.WriteString(strconv.FormatUint(v, 10))
		if err := w.WriteByte(eol); err != nil {
			return gnu.WriteError{Err: err}
		}
		return nil
	}
	var werr error
	if *repeat {
		if headLines > 0 && nLines == 0 {
			env.Errorf("no lines to repeat")
			return 1
		}
		for i := uint64(0); i < headLines && werr == nil; i++ {
			if i&0xfff == 0 && env.Ctx.Err() != nil {
				return 1
			}
			j, err := r.choose(nLines)
			if err != nil {
				w.Flush()
				return randFail(err)
			}
			if rangeSet {
				werr = writeNum(lo + j)
			} else {
				werr = writeLine(lines[j])
			}
		}
	} else {
		for i, p := range perm {
			if i&0xfff == 0 && env.Ctx.Err() != nil {
				return 1
			}
			if rangeSet {
				werr = writeNum(lo + p)
			} else {
				werr = writeLine(lines[p])
			}
			if werr != nil {
				break
			}
		}
	}
	if werr != nil {
		st, _ := stopError(env, werr)
		return st
	}
	status = finishOutput(env, w, status)
	if outF != nil {
		if err := outF.Close(); err != nil && status == 0 {
			env.PathError(*outFile, err)
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
		line, err := br.ReadBytes(eol)
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
		line, err := br.ReadBytes(eol)
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
