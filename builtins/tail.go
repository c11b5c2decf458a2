package builtins

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "tail", Summary: "output the last part of files", Run: tail})

func tail(env *Env) int {
	f := NewFlags(env, "Print the last 10 lines of each FILE to standard output.\nWith more than one FILE, precede each with a header giving the file name.\n\nWith no FILE, or when FILE is -, read standard input.", "[OPTION]... [FILE]...")
	spec := headCountSpec{lines: true, n: 10}
	var quiet, verbose, zero, follow, byName bool
	fromStart := false // a + seen: GNU's from_start is never reset
	f.Func('c', "bytes", RequiredArg, "[+]NUM", "output the last NUM bytes; or use -c +NUM to\n                             output starting with byte NUM of each file", func(v string, _ bool) error { return tailCount(env, &spec, v, false, &fromStart) })
	f.Func('f', "follow", OptionalLongArg, "{name|descriptor}", "output appended data as the file grows (llmsh: prints the\n"+
		"end, then refuses to wait for more)", func(v string, present bool) error {
		byName = false // GNU: -f is --follow=descriptor
		if present {
			i, err := lsArgMatch(env, "--follow", v, []string{"descriptor", "name"}, []int{0, 1})
			if err != nil {
				return err
			}
			byName = i == 1
		}
		follow = true
		return nil
	})
	var retry bool
	f.Func('F', "", NoArg, "", "same as --follow=name --retry", func(string, bool) error { follow, retry, byName = true, true, true; return nil })
	f.Func(0, "max-unchanged-stats", RequiredArg, "N", "with --follow=name, reopen a FILE which has not\n"+
		"changed size after N (default 5) iterations to see if it has been unlinked\nor renamed", func(v string, _ bool) error {
		if _, e := gnu.ParseSize(v, 10, ""); e != gnu.SizeOK && e != gnu.SizeOverflow {
			return fmt.Errorf("invalid maximum number of unchanged stats between opens: %s", env.Quote(v))
		}
		return nil
	})
	pidSet := false
	f.Func(0, "pid", RequiredArg, "PID", "with -f, terminate after process ID, PID dies", func(v string, _ bool) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("invalid PID: %s", env.Quote(v))
		}
		pidSet = n != 0 // GNU: 0 is no process
		return nil
	})
	f.BoolVar(&retry, 0, "retry", "keep trying to open a file if it is inaccessible")
	f.Func('s', "sleep-interval", RequiredArg, "N", "with -f, sleep for approximately N seconds (default 1.0)\n"+
		"between iterations", func(v string, _ bool) error {
		if n, err := strconv.ParseFloat(strings.TrimLeft(v, " \t"), 64); err != nil && !errors.Is(err, strconv.ErrRange) || n < 0 || n != n {
			return fmt.Errorf("invalid number of seconds: %s", env.Quote(v))
		}
		return nil
	})
	f.Func('n', "lines", RequiredArg, "[+]NUM", "output the last NUM lines, instead of the last 10;\n                             or use -n +NUM to skip NUM-1 lines at the start", func(v string, _ bool) error { return tailCount(env, &spec, v, true, &fromStart) })
	f.Func('q', "quiet", NoArg, "", "never output headers giving file names", func(string, bool) error { quiet, verbose = true, false; return nil })
	f.Synonym("silent", "quiet")
	f.Func('v', "verbose", NoArg, "", "always output headers giving file names", func(string, bool) error { quiet, verbose = false, true; return nil })
	f.BoolVar(&zero, 'z', "zero-terminated", "line delimiter is NUL, not newline")
	f.Epilog = numSuffixHelp
	for d := '0'; d <= '9'; d++ {
		d := d
		f.Func(d, "", NoArg, "", "", func(string, bool) error { return fmt.Errorf("option used in invalid context -- %c", d) })
	}
	args := env.Args[1:]
	if ok, err := tailObsolete(env, args, &spec, &follow); ok {
		if err != nil {
			return f.Fail(err, 1)
		}
		args = args[1:]
		fromStart = spec.sign == '+'
	}
	files, err := f.Parse(args)
	if err != nil {
		return f.Fail(err, 1)
	}
	if retry && !follow {
		env.Errorf("warning: --retry ignored; --retry is useful only when following")
	} else if retry && !byName {
		env.Errorf("warning: --retry only effective for the initial open")
	}
	if pidSet && !follow {
		env.Errorf("warning: PID ignored; --pid=PID is useful only when following")
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	if follow && byName && slices.Contains(files, "-") {
		env.Errorf("cannot follow %s by name", env.QuoteAF("-"))
		return 1
	}
	if spec.n == 0 && spec.sign != '+' && !follow {
		return 0 // GNU: "Don't read anything if we'll never output anything"
	}
	delim := byte('\n')
	if zero {
		delim = 0
	}
	headers := verbose || (!quiet && len(files) > 1)
	w := stdoutWriter(env)
	quick := func(name string, buf []byte) ([]byte, bool) {
		n, off, fi, ok, err := env.ReadTail(name, buf)
		if !ok || err != nil {
			return nil, false
		}
		return tailSuffix(buf[:n], off, fi, spec, delim)
	}
	status := headTailFilesFrom(env, w, files, headers, follow, quick, func(r io.Reader, fi fs.FileInfo) error {
		if fi == nil && env.StdinClosed {
			return fstatError{syscall.EBADF} // GNU fstats its input first
		}
		if fi != nil && fi.Mode().IsRegular() && fi.Size() > 0 {
			return tailSeek(env, w, r.(File), fi, spec, delim)
		}
		return tailStream(env, w, r, spec, delim)
	})
	if follow {
		return tailFollow(env, files, retry, status)
	}
	return status
}

// tailFollow is what tail -f does once it has printed the files' ends,
// and status what that printing gave. As GNU's: a standard input that is
// no file (a pipe) is not followed; when no file is left to follow, a
// file was named and none could be read, "no files remaining"; when one
// is left (one that opened, or under --retry one that did not), GNU
// waits for it to grow, which llmsh refuses.
func tailFollow(env *Env, files []string, retry bool, status int) int {
	named, live := false, false
	for _, name := range files {
		if name == "-" {
			if f, ok := env.Stdin.(File); ok {
				fi, err := f.Stat()
				live = live || err == nil && fi.Mode().IsRegular()
			}
			continue
		}
		named = true
		fi, err := env.FS.Stat(env.Abs(name))
		live = live || retry || err == nil && !fi.IsDir()
	}
	switch {
	case live:
		env.Errorf("following files (-f, -F, --follow) is not supported in llmsh: files do not grow while a script runs")
		return 1
	case named:
		env.Errorf("no files remaining")
	}
	return status
}

// tailSuffix returns what tail prints of a file whose last bytes are p,
// from offset off (fi: the file's stat), and whether p holds all of it:
// a regular file's tail is then read in one request (open, stat, a read
// at the end and close), where it took an open with its stat and a read.
func tailSuffix(p []byte, off int64, fi fs.FileInfo, spec headCountSpec, delim byte) ([]byte, bool) {
	if fi == nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
		return nil, false // read as a stream, the usual way
	}
	whole := off == 0
	switch {
	case spec.sign == '+':
		if !whole {
			return nil, false
		}
		if !spec.lines {
			return p[min(max(spec.n-1, 0), int64(len(p))):], true
		}
		i := 0
		for skip := spec.n - 1; skip > 0; skip-- {
			j := bytes.IndexByte(p[i:], delim)
			if j < 0 {
				return nil, true
			}
			i += j + 1
		}
		return p[i:], true
	case !spec.lines:
		if spec.n >= int64(len(p)) {
			return p, whole
		}
		return p[int64(len(p))-spec.n:], true
	}
	n := spec.n
	if n == 0 {
		return nil, true
	}
	b := p
	if len(b) > 0 && b[len(b)-1] == delim {
		b = b[:len(b)-1]
	}
	for {
		i := bytes.LastIndexByte(b, delim)
		if i < 0 {
			return p, whole
		}
		if n--; n == 0 {
			return p[i+1:], true
		}
		b = b[:i]
	}
}

// tailCount reads a -n or -c value into spec as GNU's parse_options:
// once a value had a +, every later one counts from the start too
// (`tail -n +3 -c 4` is `-c +4`).
func tailCount(env *Env, spec *headCountSpec, v string, lines bool, fromStart *bool) error {
	if err := spec.parse(env, v, lines); err != nil {
		return err
	}
	if spec.sign == '+' {
		*fromStart = true
	} else if *fromStart {
		spec.sign = '+'
	}
	return nil
}

// tailObsolete recognises the obsolete forms "tail -5", "tail +5",
// "tail -5c", "tail +2l FILE": one such option, at most one file after it.
func tailObsolete(env *Env, args []string, spec *headCountSpec, follow *bool) (bool, error) {
	if !(len(args) == 1 || len(args) == 2 && !(strings.HasPrefix(args[1], "-") && len(args[1]) > 1)) {
		return false, nil
	}
	a := args[0]
	if len(a) < 2 || (a[0] != '-' && a[0] != '+') {
		return false, nil
	}
	d := headDigits(a[1:])
	if a[0] == '-' && d == 0 {
		return false, nil
	}
	num, rest := a[1:1+d], a[1+d:]
	lines, mult := true, ""
	switch {
	case strings.HasPrefix(rest, "b"):
		lines, mult, rest = false, "b", rest[1:]
	case strings.HasPrefix(rest, "c"):
		lines, rest = false, rest[1:]
	case strings.HasPrefix(rest, "l"):
		rest = rest[1:]
	}
	f := false
	if strings.HasPrefix(rest, "f") {
		f, rest = true, rest[1:]
	}
	if rest != "" {
		return false, nil
	}
	if num == "" {
		num = "10"
	}
	*follow = *follow || f
	err := spec.parse(env, num+mult, lines)
	if a[0] == '+' {
		spec.sign = '+'
	}
	return true, err
}

// tailSeek prints the end of a regular file by reading it backwards from
// its end, never reading more than it prints plus one block.
func tailSeek(env *Env, w *bufio.Writer, f File, fi fs.FileInfo, spec headCountSpec, delim byte) error {
	size := fi.Size()
	var start int64
	switch {
	case spec.sign == '+':
		if !spec.lines {
			start = spec.n - 1
			if start < 0 {
				start = 0
			}
			break
		}
		return tailStream(env, w, f, spec, delim)
	case !spec.lines:
		start = size - spec.n
		if start < 0 {
			start = 0
		}
	default:
		var err error
		var end []byte
		if start, end, err = tailLineStart(env, f, size, spec.n, delim); err != nil {
			return err
		}
		if end != nil {
			// The lines are in the block read last. (f is a named
			// file, closed after this: its position does not matter.)
			if _, err := w.Write(end); err != nil {
				return gnu.WriteError{Err: err}
			}
			return nil
		}
	}
	if start >= size {
		return nil
	}
	if _, err := f.Seek(start, io.SeekStart); err != nil {
		return err
	}
	return copyOut(env, w, f, make([]byte, ioBufSize))
}

// readBlock reads len(b) bytes of f at pos: in one request where f reads
// at an offset (a vfsd file with read_shm_at), else by a seek and reads.
// f's position is left to the caller (tailSeek seeks before it copies).
func readBlock(f File, b []byte, pos int64) error {
	if ra, ok := f.(io.ReaderAt); ok {
		n, err := ra.ReadAt(b, pos)
		if n == len(b) {
			return nil // io.ReaderAt may say io.EOF with the last byte
		}
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	if _, err := f.Seek(pos, io.SeekStart); err != nil {
		return err
	}
	_, err := io.ReadFull(f, b)
	return err
}

// tailLineStart finds the offset where the last n lines of f begin. When
// they lie in the first block it reads (the last of the file), it returns
// them too (end), so that they are not read again.
func tailLineStart(env *Env, f File, size, n int64, delim byte) (start int64, end []byte, err error) {
	if n == 0 {
		return size, nil, nil
	}
	buf := make([]byte, ioBufSize)
	pos := size
	last := true
	for pos > 0 {
		if env.Ctx.Err() != nil {
			return 0, nil, gnu.ErrCancelled
		}
		blk := int64(len(buf))
		if pos < blk {
			blk = pos
		}
		pos -= blk
		b := buf[:blk]
		if err := readBlock(f, b, pos); err != nil {
			if err == io.ErrUnexpectedEOF || err == io.EOF {
				err = errTailShrunk
			}
			return 0, nil, err
		}
		first := last
		if last {
			last = false
			if b[len(b)-1] == delim {
				b = b[:len(b)-1]
			}
		}
		for {
			i := bytes.LastIndexByte(b, delim)
			if i < 0 {
				break
			}
			if n--; n == 0 {
				if first {
					end = buf[i+1 : blk]
				}
				return pos + int64(i) + 1, end, nil
			}
			b = b[:i]
		}
		if first && pos == 0 {
			end = buf[:blk] // the whole file, fewer than n lines
		}
	}
	return 0, end, nil
}

var errTailShrunk = errors.New("file truncated")

// tailStream prints the end of a stream, keeping only what it must.
func tailStream(env *Env, w *bufio.Writer, r io.Reader, spec headCountSpec, delim byte) error {
	if spec.sign == '+' {
		skip := spec.n - 1
		br := bufio.NewReaderSize(r, ioBufSize)
		for skip > 0 {
			if env.Ctx.Err() != nil {
				return gnu.ErrCancelled
			}
			var err error
			if spec.lines {
				_, err = br.ReadSlice(delim)
				if err == nil {
					skip--
				}
			} else {
				k := skip
				if k > ioBufSize {
					k = ioBufSize
				}
				var d int
				d, err = br.Discard(int(k))
				skip -= int64(d)
			}
			if err == io.EOF {
				return nil
			}
			if err != nil && err != bufio.ErrBufferFull {
				return err
			}
		}
		return copyOut(env, w, br, make([]byte, ioBufSize))
	}
	q := tailQueue{delim: delim}
	ci, off, err := q.keepLast(env, r, spec, nil)
	if err != nil {
		return err
	}
	return q.writeRange(w, ci, off, false)
}
