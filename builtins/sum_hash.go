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
	"io/fs"
	"strconv"
	"strings"
)

// sumAlgo is one checksum command.
type sumAlgo struct {
	cmd, tag, bits string
	new            func() hash.Hash
}

func init() {
	for _, a := range []sumAlgo{
		{"md5sum", "MD5", "MD5 (128-bit)", md5.New},
		{"sha1sum", "SHA1", "SHA1 (160-bit)", sha1.New},
		{"sha224sum", "SHA224", "SHA224 (224-bit)", sha256.New224},
		{"sha256sum", "SHA256", "SHA256 (256-bit)", sha256.New},
		{"sha384sum", "SHA384", "SHA384 (384-bit)", sha512.New384},
		{"sha512sum", "SHA512", "SHA512 (512-bit)", sha512.New},
	} {
		a := a
		Register(Builtin{Name: a.cmd, Summary: "compute and check " + a.tag + " message digest", Run: func(env *Env) int { return sumRun(env, a) }})
	}
}

func sumRun(env *Env, a sumAlgo) int {
	f := NewFlags(env, "Print or check "+a.bits+" checksums.\n\nWith no FILE, or when FILE is -, read standard input.", "[OPTION]... [FILE]...")
	binary := false
	f.Func('b', "binary", NoArg, "", "read in binary mode", func(string, bool) error { binary = true; return nil })
	check := f.Bool('c', "check", "read checksums from the FILEs and check them")
	tag := f.Bool(0, "tag", "create a BSD-style checksum")
	f.Func('t', "text", NoArg, "", "read in text mode (default)", func(string, bool) error { binary = false; return nil })
	zero := f.Bool('z', "zero", "end each output line with NUL, not newline,\n                          and disable file name escaping")
	ignoreMissing := f.Bool(0, "ignore-missing", "don't fail or report status for missing files")
	quiet := f.Bool(0, "quiet", "don't print OK for each successfully verified file")
	status := f.Bool(0, "status", "don't output anything, status code shows success")
	strict := f.Bool(0, "strict", "exit non-zero for improperly formatted checksum lines")
	warn := f.Bool('w', "warn", "warn about improperly formatted checksum lines")
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	w := laWriter(env)
	if *check {
		c := sumChecker{bsdReversed: -1, env: env, a: a, w: w, quiet: *quiet, status: *status, strict: *strict, warn: *warn, ignoreMissing: *ignoreMissing}
		st := 0
		for _, name := range files {
			if c.checkFile(name) != 0 {
				st = 1
			}
			if c.stop {
				w.Flush()
				return 1
			}
		}
		return laFinish(env, w, st)
	}
	end := byte('\n')
	if *zero {
		end = 0
	}
	st := 0
	for _, name := range files {
		sum, err := sumFile(env, a, name)
		if err != nil {
			if errors.Is(err, errLaCancelled) {
				w.Flush()
				return 1
			}
			w.Flush()
			env.PathError(name, err)
			st = 1
			continue
		}
		shown, escaped := name, false
		if !*zero && strings.ContainsAny(name, "\\\n\r") {
			shown, escaped = sumEscape(name), true
		}
		if escaped {
			w.WriteByte('\\')
		}
		if *tag {
			w.WriteString(a.tag + " (" + shown + ") = " + sum)
		} else {
			mode := " "
			if binary {
				mode = "*"
			}
			w.WriteString(sum + " " + mode + shown)
		}
		if _, err := w.Write([]byte{end}); err != nil {
			return laWriteFailed(env, err)
		}
	}
	return laFinish(env, w, st)
}

func sumEscape(s string) string {
	return strings.NewReplacer("\\", "\\\\", "\n", "\\n", "\r", "\\r").Replace(s)
}

// sumFile returns the hex digest of a file operand.
func sumFile(env *Env, a sumAlgo, name string) (string, error) {
	r, fi, err := laOpen(env, name)
	if err != nil {
		return "", err
	}
	defer r.Close()
	if fi != nil && fi.IsDir() {
		return "", errLaIsDir
	}
	h := a.new()
	if err := laCopy(env, h, r, make([]byte, laBufSize)); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// sumChecker runs -c over checksum lists.
type sumChecker struct {
	env                                        *Env
	a                                          sumAlgo
	w                                          *bufio.Writer
	quiet, status, strict, warn, ignoreMissing bool
	stop                                       bool
	// bsdReversed is GNU's state of the one-blank form over the run:
	// -1 undecided, 1 seen, 0 ruled out by a line with a mode character.
	bsdReversed int
}

func (c *sumChecker) checkFile(list string) int {
	env := c.env
	r, err := env.Open(list)
	if err != nil {
		c.w.Flush()
		env.PathError(list, err)
		return 1
	}
	defer r.Close()
	br := bufio.NewReaderSize(r, laBufSize)
	var bad, failed, unreadable, good, lineNo int
	hexLen := c.a.new().Size() * 2
	for {
		if env.Ctx.Err() != nil {
			c.stop = true
			return 1
		}
		line, rerr := br.ReadString('\n')
		if line == "" && rerr != nil {
			break
		}
		lineNo++
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		want, name, ok := c.parse(line, hexLen)
		if !ok {
			bad++
			if c.warn {
				c.w.Flush()
				env.Errorf("%s: %d: improperly formatted %s checksum line", laDisplayName(list), lineNo, c.a.tag)
			}
			continue
		}
		good++
		sum, err := sumFile(env, c.a, name)
		if err != nil {
			if errors.Is(err, errLaCancelled) {
				c.stop = true
				return 1
			}
			if c.ignoreMissing && errors.Is(err, fs.ErrNotExist) {
				good--
				continue
			}
			unreadable++
			c.w.Flush()
			env.PathError(name, err)
			if !c.status {
				c.w.WriteString(name + ": FAILED open or read\n")
			}
			continue
		}
		if !strings.EqualFold(sum, want) {
			failed++
			if !c.status {
				c.w.WriteString(name + ": FAILED\n")
			}
		} else if !c.status && !c.quiet {
			c.w.WriteString(name + ": OK\n")
		}
		if _, err := c.w.Write(nil); err != nil {
			c.stop = true
			return 1
		}
	}
	c.w.Flush()
	if good == 0 {
		if c.ignoreMissing && bad == 0 && lineNo > 0 {
			env.Errorf("%s: no file was verified", laDisplayName(list))
		} else {
			env.Errorf("%s: no properly formatted checksum lines found", laDisplayName(list))
		}
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
	if failed > 0 || unreadable > 0 || c.strict && bad > 0 {
		return 1
	}
	return 0
}

// parse reads "HASH  NAME", "HASH *NAME" or "ALGO (NAME) = HASH", with
// GNU's leading backslash for escaped names.
func (c *sumChecker) parse(line string, hexLen int) (sum, name string, ok bool) {
	line = strings.TrimLeft(line, " \t")
	escaped := strings.HasPrefix(line, "\\")
	if escaped {
		line = line[1:]
	}
	if rest, found := strings.CutPrefix(line, c.a.tag+" ("); found {
		i := strings.LastIndex(rest, ") = ")
		if i < 0 {
			return "", "", false
		}
		name, sum = rest[:i], rest[i+4:]
	} else {
		// GNU's split_3: the digest, one blank, then ' ' or '*' for
		// the mode, or the name at once ("bsd reversed"); the first
		// line of the run to use one form rules out the other.
		if len(line) < hexLen+2 || line[hexLen] != ' ' && line[hexLen] != '\t' {
			return "", "", false
		}
		sum, name = line[:hexLen], line[hexLen+1:]
		if _, err := hex.DecodeString(sum); err != nil {
			return "", "", false
		}
		if len(name) == 1 || name[0] != ' ' && name[0] != '*' {
			if c.bsdReversed == 0 {
				return "", "", false
			}
			c.bsdReversed = 1
		} else if c.bsdReversed != 1 {
			c.bsdReversed = 0
			name = name[1:]
		}
	}
	if len(sum) != hexLen || name == "" {
		return "", "", false
	}
	if _, err := hex.DecodeString(sum); err != nil {
		return "", "", false
	}
	if escaped {
		name = strings.NewReplacer("\\\\", "\\", "\\n", "\n", "\\r", "\r").Replace(name)
	}
	return sum, name, true
}
