package builtins

import (
	"bufio"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"hash"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
	"golang.org/x/crypto/blake2b"
)

// sumAlgo is one checksum command.
type sumAlgo struct {
	cmd, tag, bits string
	new            func() hash.Hash
	// blake: BLAKE2b, whose -l sets the digest length in bits; a length
	// other than 512 shows in the tag (BLAKE2b-256).
	blake bool
}

// sumDigests are the digest algorithms, by cksum -a name.
var sumDigests = map[string]sumAlgo{
	"md5":     {"md5sum", "MD5", "MD5 (128-bit)", md5.New, false},
	"sha1":    {"sha1sum", "SHA1", "SHA1 (160-bit)", sha1.New, false},
	"sha224":  {"sha224sum", "SHA224", "SHA224 (224-bit)", sha256.New224, false},
	"sha256":  {"sha256sum", "SHA256", "SHA256 (256-bit)", sha256.New, false},
	"sha384":  {"sha384sum", "SHA384", "SHA384 (384-bit)", sha512.New384, false},
	"sha512":  {"sha512sum", "SHA512", "SHA512 (512-bit)", sha512.New, false},
	"blake2b": {"b2sum", "BLAKE2b", "BLAKE2b (512-bit)", newBlake512, true},
	"sm3":     {"", "SM3", "SM3 (256-bit)", newSM3, false},
}

// sumStandard is where the digest of the command cmd is defined, as its
// --help says (a switch: no map to build at start-up).
func sumStandard(cmd string) string {
	switch cmd {
	case "md5sum":
		return "RFC 1321"
	case "sha1sum":
		return "FIPS-180-1"
	case "sha224sum":
		return "RFC 3874"
	case "b2sum":
		return "RFC 7693"
	}
	return "FIPS-180-2"
}

// newBlake512 is BLAKE2b-512's constructor (a function, not sumBlake's
// closure: the map above is made at start-up, where a call of sumBlake
// faulted in this file's page of the binary's text).
func newBlake512() hash.Hash {
	h, _ := blake2b.New512(nil)
	return h
}

// sumBlake returns the constructor of BLAKE2b with a digest of bits.
func sumBlake(bits int) func() hash.Hash {
	return func() hash.Hash {
		h, _ := blake2b.New(bits/8, nil)
		return h
	}
}

// withLength is a with a digest of bits (BLAKE2b only).
func (a sumAlgo) withLength(bits int) sumAlgo {
	if !a.blake || bits == 512 {
		return a
	}
	a.new = sumBlake(bits)
	a.tag = "BLAKE2b-" + strconv.Itoa(bits)
	return a
}

// sumLength parses -l BITS as b2sum does.
func sumLength(env *Env, v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, errors.New("invalid length: " + env.Quote(v))
	}
	if n > 512 {
		return 0, errors.New("invalid length: " + env.Quote(v) + "\n" + env.Name() + ": maximum digest length for 'BLAKE2b' is 512 bits")
	}
	if n%8 != 0 {
		return 0, errors.New("invalid length: " + env.Quote(v) + "\n" + env.Name() + ": length is not a multiple of 8")
	}
	return n, nil
}

// The digest commands, registered in declarations (see register): an
// init function of this file made every start fault in its page of the
// binary's text.
var (
	_ = register(Builtin{Name: "md5sum", Summary: "compute and check MD5 message digest", Run: func(env *Env) int { return sumRun(env, sumDigests["md5"]) }})
	_ = register(Builtin{Name: "sha1sum", Summary: "compute and check SHA1 message digest", Run: func(env *Env) int { return sumRun(env, sumDigests["sha1"]) }})
	_ = register(Builtin{Name: "sha224sum", Summary: "compute and check SHA224 message digest", Run: func(env *Env) int { return sumRun(env, sumDigests["sha224"]) }})
	_ = register(Builtin{Name: "sha256sum", Summary: "compute and check SHA256 message digest", Run: func(env *Env) int { return sumRun(env, sumDigests["sha256"]) }})
	_ = register(Builtin{Name: "sha384sum", Summary: "compute and check SHA384 message digest", Run: func(env *Env) int { return sumRun(env, sumDigests["sha384"]) }})
	_ = register(Builtin{Name: "sha512sum", Summary: "compute and check SHA512 message digest", Run: func(env *Env) int { return sumRun(env, sumDigests["sha512"]) }})
	_ = register(Builtin{Name: "b2sum", Summary: "compute and check BLAKE2b message digest", Run: func(env *Env) int { return sumRun(env, sumDigests["blake2b"]) }})
)

func sumRun(env *Env, a sumAlgo) int {
	f := NewFlags(env, "Print or check "+a.bits+" checksums.\n\nWith no FILE, or when FILE is -, read standard input.", "[OPTION]... [FILE]...")
	binary := -1 // -b 1, -t 0 (GNU's)
	length := 0
	f.Func('b', "binary", NoArg, "", "read in binary mode", func(string, bool) error { binary = 1; return nil })
	check := f.Bool('c', "check", "read checksums from the FILEs and check them")
	if a.blake {
		f.Func('l', "length", RequiredArg, "BITS", "digest length in bits; must not exceed the max for\n                          the blake2 algorithm and must be a multiple of 8", func(v string, _ bool) error {
			n, err := sumLength(env, v)
			length = n
			return err
		})
	}
	tag := false
	f.Func(0, "tag", NoArg, "", "create a BSD-style checksum", func(string, bool) error { tag, binary = true, 1; return nil })
	f.Func('t', "text", NoArg, "", "read in text mode (default)", func(string, bool) error { binary = 0; return nil })
	zero, ignoreMissing, quiet, status, strict, warn := sumCheckFlags(f)
	f.Gap()
	f.Epilog = "The sums are computed as described in " + sumStandard(a.cmd) + ".\n" +
		"When checking, the input should be a former output of this program.\n" +
		"The default mode is to print a line with: checksum, a space,\n" +
		"a character indicating input mode ('*' for binary, ' ' for text\n" +
		"or where binary is insignificant), and name for each FILE.\n\n" +
		"Note: There is no difference between binary mode and text mode on GNU systems."
	version := versionOption(f)
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	if msg := sumOptsError(sumOpts{check: *check, zero: *zero, tag: tag, binary: binary, ignoreMissing: *ignoreMissing,
		quiet: *quiet, warn: *warn, status: *status, strict: *strict}); msg != "" {
		return f.Fail(&UsageError{msg}, 1)
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	w := stdoutWriter(env)
	if *check {
		c := sumChecker{bsdReversed: -1, env: env, a: a, w: w, quiet: *quiet, status: *status, strict: *strict, warn: *warn, ignoreMissing: *ignoreMissing}
		if length != 0 {
			c.a, c.fixedLen = a.withLength(length), true
		}
		return c.run(files)
	}
	if length != 0 {
		a = a.withLength(length)
	}
	return sumPrint(env, w, a, files, tag, binary == 1, *zero)
}

// sumCheckLine returns a line of a checksum list without its line end,
// and whether GNU skips it: a comment ('#') or an empty line.
func sumCheckLine(line string) (string, bool) {
	if strings.HasPrefix(line, "#") {
		return "", true
	}
	line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	return line, line == ""
}

// sumOpts are the options of md5sum and cksum that sumOptsError checks.
type sumOpts struct {
	check, zero, tag                           bool
	binary                                     int // -1: neither -b nor -t; cksum: always -1
	ignoreMissing, quiet, warn, status, strict bool
}

// sumOptsError returns GNU's usage error (coreutils 9.1, in its order)
// for options that do not go with checking, or only with it, or "".
func sumOptsError(o sumOpts) string {
	switch {
	case o.zero && o.check:
		return "the --zero option is not supported when verifying checksums"
	case o.tag && o.check:
		return "the --tag option is meaningless when verifying checksums"
	case o.binary >= 0 && o.check:
		return "the --binary and --text options are meaningless when verifying checksums"
	case o.tag && o.binary == 0:
		return "--tag does not support --text mode"
	}
	if o.check {
		return ""
	}
	for _, c := range []struct {
		set  bool
		name string
	}{{o.ignoreMissing, "ignore-missing"}, {o.quiet, "quiet"}, {o.warn, "warn"}, {o.status, "status"}, {o.strict, "strict"}} {
		if c.set {
			return "the --" + c.name + " option is meaningful only when verifying checksums"
		}
	}
	return ""
}

// run checks each list of files, and returns the status.
func (c *sumChecker) run(files []string) int {
	st := 0
	for _, name := range files {
		if c.checkFile(name) != 0 {
			st = 1
		}
		if c.stop {
			c.w.Flush()
			return 1
		}
	}
	return finishOutputAs(c.env, c.w, st, wroteFlushed)
}

// sumPrint prints the digest line of each file, tagged ("ALGO (NAME) =
// DIGEST") or not ("DIGEST  NAME", '*' for binary).
func sumPrint(env *Env, w *bufio.Writer, a sumAlgo, files []string, tag, binary, zero bool) int {
	end := "\n"
	if zero {
		end = "\x00"
	}
	return sumLines(env, w, files, false, func(name string, r io.Reader) (string, error) {
		sum, err := sumReader(env, a, r)
		if err != nil {
			return "", err
		}
		shown, lead := name, ""
		if !zero && strings.ContainsAny(name, "\\\n\r") {
			shown, lead = sumEscape(name), "\\"
		}
		if tag {
			return lead + a.tag + " (" + shown + ") = " + sum + end, nil
		}
		mode := " "
		if binary {
			mode = "*"
		}
		return lead + sum + " " + mode + shown + end, nil
	})
}

// sumLines writes the line that line makes of each file, reporting the
// files it fails on (with dirEmpty a directory reads as empty); it
// returns the status.
func sumLines(env *Env, w *bufio.Writer, files []string, dirEmpty bool, line func(name string, r io.Reader) (string, error)) int {
	words := fileWords{wrote: wroteFlushed, dirEmpty: dirEmpty, closedIn: "standard input"}
	d := env.eachFile(w, files, words, func(name string, r io.Reader) error {
		text, err := line(name, r)
		if err != nil {
			return err
		}
		if _, err := w.WriteString(text); err != nil {
			return gnu.WriteError{Err: err}
		}
		return nil
	})
	return d.finishAs(env, w, wroteFlushed)
}

func sumEscape(s string) string {
	return strings.NewReplacer("\\", "\\\\", "\n", "\\n", "\r", "\\r").Replace(s)
}

// sumFile returns the hex digest of a file operand.
func sumFile(env *Env, a sumAlgo, name string) (string, error) {
	r, err := env.Open(name)
	if err != nil {
		return "", err
	}
	defer r.Close()
	return sumReader(env, a, r)
}

// sumReader returns the hex digest of an open file (a directory fails).
func sumReader(env *Env, a sumAlgo, r io.Reader) (string, error) {
	if isDirFile(r) {
		return "", errReadDir
	}
	h := a.new()
	if err := copyOut(env, h, r, make([]byte, ioBufSize)); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// sumCheckName is how -c names a file in its results, as GNU's 9.1: as
// it is, or when it holds a newline, after a backslash with its newlines
// and backslashes escaped (\n, \\).
func sumCheckName(name string) string {
	if !strings.Contains(name, "\n") {
		return name
	}
	return "\\" + strings.NewReplacer("\\", "\\\\", "\n", "\\n").Replace(name)
}

// sumChecker runs -c over checksum lists.
type sumChecker struct {
	env *Env
	// a is the algorithm of the lines; with auto (cksum -c without -a)
	// each line names its own in a tag.
	a                                          sumAlgo
	auto, fixedLen                             bool
	w                                          *bufio.Writer
	quiet, status, strict, warn, ignoreMissing bool
	stop                                       bool
	// bsdReversed is GNU's state of the one-blank form over the run:
	// -1 undecided, 1 seen, 0 ruled out by a line with a mode character.
	bsdReversed int
}

func (c *sumChecker) checkFile(list string) int {
	env := c.env
	readFailed := func() int {
		// GNU's words for a list it opened but could not read to its end.
		c.w.Flush()
		env.Errorf("%s: read error", env.QuoteF(displayName(list)))
		return 1
	}
	r, err := env.Open(list)
	if errors.Is(err, syscall.EISDIR) {
		return readFailed() // GNU opens a directory; its read fails
	}
	if err != nil {
		c.w.Flush()
		env.PathError(list, err)
		return 1
	}
	defer r.Close()
	br := bufio.NewReaderSize(r, ioBufSize)
	// good counts the properly formatted lines (a missing file that
	// --ignore-missing skips is one), matched the files whose sum matched.
	var bad, failed, unreadable, good, matched, lineNo int
	for {
		if env.Ctx.Err() != nil {
			c.stop = true
			return 1
		}
		line, rerr := br.ReadString('\n')
		if rerr != nil && rerr != io.EOF {
			if quietStop(rerr) {
				c.stop = true
				return 1
			}
			return readFailed()
		}
		if line == "" && rerr != nil {
			break
		}
		lineNo++
		line, skip := sumCheckLine(line)
		if skip {
			continue
		}
		la, want, name, ok := c.parse(line)
		if !ok {
			bad++
			c.warnLine(list, lineNo)
			continue
		}
		good++
		sum, err := sumFile(env, la, name)
		if err != nil {
			if errors.Is(err, gnu.ErrCancelled) {
				c.stop = true
				return 1
			}
			if c.ignoreMissing && errors.Is(err, fs.ErrNotExist) {
				continue
			}
			unreadable++
			c.w.Flush()
			env.PathError(name, err)
			if !c.status {
				c.w.WriteString(sumCheckName(name) + ": FAILED open or read\n")
			}
			continue
		}
		if !strings.EqualFold(sum, want) {
			failed++
			if !c.status {
				c.w.WriteString(sumCheckName(name) + ": FAILED\n")
			}
		} else {
			matched++
			if !c.status && !c.quiet {
				c.w.WriteString(sumCheckName(name) + ": OK\n")
			}
		}
		if _, err := c.w.Write(nil); err != nil {
			c.stop = true
			return 1
		}
	}
	c.w.Flush()
	if good == 0 {
		env.Errorf("%s: no properly formatted checksum lines found", env.QuoteF(displayName(list)))
		return 1
	}
	if !c.status {
		plural := func(n int, one, many string) string {
			if n == 1 {
				return one
			}
			return strconv.Itoa(n) + many
		}
		if bad > 0 {
			env.Errorf("WARNING: %s", plural(bad, "1 line is improperly formatted", " lines are improperly formatted"))
		}
		if unreadable > 0 {
			env.Errorf("WARNING: %s", plural(unreadable, "1 listed file could not be read", " listed files could not be read"))
		}
		if failed > 0 {
			env.Errorf("WARNING: %s", plural(failed, "1 computed checksum did NOT match", " computed checksums did NOT match"))
		}
	}
	if c.ignoreMissing && matched == 0 {
		if !c.status {
			env.Errorf("%s: no file was verified", env.QuoteF(displayName(list)))
		}
		return 1
	}
	if failed > 0 || unreadable > 0 || c.strict && bad > 0 {
		return 1
	}
	return 0
}

// warnLine reports line lineNo of list as improperly formatted (-w).
func (c *sumChecker) warnLine(list string, lineNo int) {
	if !c.warn {
		return
	}
	c.w.Flush()
	tag := c.a.tag
	if c.a.blake {
		tag = "BLAKE2b"
	}
	c.env.Errorf("%s: %d: improperly formatted %s checksum line", c.env.QuoteF(displayName(list)), lineNo, tag)
}

// parse reads "HASH  NAME", "HASH *NAME" or "ALGO (NAME) = HASH", with
// GNU's leading backslash for escaped names.
func (c *sumChecker) parse(line string) (a sumAlgo, sum, name string, ok bool) {
	line = strings.TrimLeft(line, " \t")
	escaped := strings.HasPrefix(line, "\\")
	if escaped {
		line = line[1:]
	}
	a = c.a
	hexLen := 0
	if a.new != nil {
		hexLen = a.new().Size() * 2
	}
	if la, rest, found := c.tagged(line); found {
		i := strings.LastIndex(rest, ") = ")
		if i < 0 {
			return a, "", "", false
		}
		a, name, sum = la, rest[:i], rest[i+4:]
		hexLen = a.new().Size() * 2
	} else if c.auto {
		return a, "", "", false
	} else {
		if a.blake && !c.fixedLen {
			// b2sum takes the length from the digest.
			hexLen = strings.IndexAny(line, " \t")
			if hexLen < 2 || hexLen > 128 || hexLen%2 != 0 {
				return a, "", "", false
			}
			a = a.withLength(hexLen * 4)
		}
		// GNU's split_3: the digest, one blank, then ' ' or '*' for
		// the mode, or the name at once ("bsd reversed"); the first
		// line of the run to use one form rules out the other.
		if len(line) < hexLen+2 || line[hexLen] != ' ' && line[hexLen] != '\t' {
			return a, "", "", false
		}
		sum, name = line[:hexLen], line[hexLen+1:]
		if _, err := hex.DecodeString(sum); err != nil {
			return a, "", "", false
		}
		if len(name) == 1 || name[0] != ' ' && name[0] != '*' {
			if c.bsdReversed == 0 {
				return a, "", "", false
			}
			c.bsdReversed = 1
		} else if c.bsdReversed != 1 {
			c.bsdReversed = 0
			name = name[1:]
		}
	}
	if len(sum) != hexLen || name == "" {
		return a, "", "", false
	}
	if _, err := hex.DecodeString(sum); err != nil {
		return a, "", "", false
	}
	if escaped {
		name = strings.NewReplacer("\\\\", "\\", "\\n", "\n", "\\r", "\r").Replace(name)
	}
	return a, sum, name, true
}

// tagged recognises "ALGO (" at the start of line: c.a's tag, any
// digest's with auto, and BLAKE2b-BITS for BLAKE2b without a fixed -l.
func (c *sumChecker) tagged(line string) (sumAlgo, string, bool) {
	cands := []sumAlgo{c.a}
	if c.auto {
		cands = cands[:0]
		for _, a := range sumDigests {
			cands = append(cands, a)
		}
	}
	for _, a := range cands {
		if rest, ok := strings.CutPrefix(line, a.tag+" ("); ok {
			return a, rest, true
		}
		if !a.blake || c.fixedLen {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "BLAKE2b-"); ok {
			bits, rest, _ := strings.Cut(rest, " (")
			if n, err := sumLength(c.env, bits); err == nil && n > 0 {
				return a.withLength(n), rest, true
			}
		}
	}
	return c.a, "", false
}

// sumCheckFlags defines -z and the five options of verifying sums, which
// cksum and the *sum commands share, in GNU's order and words.
func sumCheckFlags(f *Flags) (zero, ignoreMissing, quiet, status, strict, warn *bool) {
	zero = f.Bool('z', "zero", "end each output line with NUL, not newline,\n                          and disable file name escaping")
	f.Section("The following five options are useful only when verifying checksums:")
	ignoreMissing = f.Bool(0, "ignore-missing", "don't fail or report status for missing files")
	quiet = f.Bool(0, "quiet", "don't print OK for each successfully verified file")
	status = f.Bool(0, "status", "don't output anything, status code shows success")
	strict = f.Bool(0, "strict", "exit non-zero for improperly formatted checksum lines")
	warn = f.Bool('w', "warn", "warn about improperly formatted checksum lines")
	return zero, ignoreMissing, quiet, status, strict, warn
}
