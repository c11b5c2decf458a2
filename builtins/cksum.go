package builtins

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

var _ = register(Builtin{Name: "sum", Summary: "checksum and count the blocks in a file", Run: sumCmd})
var _ = register(Builtin{Name: "cksum", Summary: "compute and verify file checksums", Run: cksumCmd})

// sumOld is one of the checksums older than the digests: BSD sum, System
// V sum and POSIX cksum's CRC. It returns the line GNU prints for data.
type sumOld func(env *Env, r io.Reader) (string, error)

func sumCmd(env *Env) int {
	f := NewFlags(env, "Print or check BSD (16-bit) checksums.\n\nWith no FILE, or when FILE is -, read standard input.", "[OPTION]... [FILE]...")
	algo := sumOld(sumBSD)
	f.Func('r', "", NoArg, "", "use BSD sum algorithm (the default), use 1K blocks", func(string, bool) error { algo = sumBSD; return nil })
	f.Func('s', "sysv", NoArg, "", "use System V sum algorithm, use 512 bytes blocks", func(string, bool) error { algo = sumSysV; return nil })
	version := versionOption(f)
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	return sumOldRun(env, algo, files, false)
}

// sumOldRun prints algo's line for each file, followed by its name when
// files were named.
func sumOldRun(env *Env, algo sumOld, files []string, dirEmpty bool) int {
	named := len(files) > 0
	if !named {
		files = []string{"-"}
	}
	return sumLines(env, stdoutWriter(env), files, dirEmpty, func(name string, r io.Reader) (string, error) {
		if isDirFile(r) {
			if !dirEmpty {
				return "", errReadDir
			}
			r = eofReader{}
		}
		line, err := algo(env, r)
		if dirEmpty && name == "-" && (errors.Is(err, syscall.EBADF) || errors.Is(err, syscall.EISDIR)) {
			// cksum 9.1's crc takes an unreadable standard input
			// (closed, open write-only, a directory) for an empty one.
			err = nil
		}
		if named {
			line += " " + name
		}
		return line + "\n", err
	})
}

// sumRead calls fn with each chunk of r and returns the byte count.
func sumRead(env *Env, r io.Reader, fn func(p []byte)) (uint64, error) {
	var n uint64
	err := copyOut(env, sumWriter(func(p []byte) { n += uint64(len(p)); fn(p) }), r, make([]byte, ioBufSize))
	return n, err
}

type sumWriter func(p []byte)

func (w sumWriter) Write(p []byte) (int, error) { w(p); return len(p), nil }

func sumBSD(env *Env, r io.Reader) (string, error) {
	var ck uint32
	n, err := sumRead(env, r, func(p []byte) {
		for _, c := range p {
			ck = (ck >> 1) + ((ck & 1) << 15)
			ck = (ck + uint32(c)) & 0xffff
		}
	})
	return fmt.Sprintf("%05d %5d", ck, (n+1023)/1024), err
}

func sumSysV(env *Env, r io.Reader) (string, error) {
	var s uint32
	n, err := sumRead(env, r, func(p []byte) {
		for _, c := range p {
			s += uint32(c)
		}
	})
	rr := (s & 0xffff) + (s >> 16)
	return fmt.Sprintf("%d %d", (rr&0xffff)+(rr>>16), (n+511)/512), err
}

// sumCRCTable is POSIX cksum's CRC-32 (polynomial 0x04C11DB7, most
// significant bit first).
var sumCRCTable = func() (t [256]uint32) {
	for i := range t {
		c := uint32(i) << 24
		for range 8 {
			if c&0x80000000 != 0 {
				c = c<<1 ^ 0x04C11DB7
			} else {
				c <<= 1
			}
		}
		t[i] = c
	}
	return t
}()

func sumCRC(env *Env, r io.Reader) (string, error) {
	var crc uint32
	n, err := sumRead(env, r, func(p []byte) {
		for _, c := range p {
			crc = crc<<8 ^ sumCRCTable[byte(crc>>24)^c]
		}
	})
	for l := n; l != 0; l >>= 8 {
		crc = crc<<8 ^ sumCRCTable[byte(crc>>24)^byte(l)]
	}
	return strconv.FormatUint(uint64(^crc), 10) + " " + strconv.FormatUint(n, 10), err
}

var sumOlds = map[string]sumOld{"bsd": sumBSD, "sysv": sumSysV, "crc": sumCRC}

// errCksumMode is cksum's -b or -t (see cksumCmd).
var errCksumMode = errors.New("cksum: -b or -t")

func cksumCmd(env *Env) int {
	f := NewFlags(env, "Print or verify checksums.\nBy default use the 32 bit CRC algorithm.\n\nWith no FILE, or when FILE is -, read standard input.", "[OPTION]... [FILE]...")
	algoName, algoSet := "crc", false
	f.Func('a', "algorithm", RequiredArg, "TYPE", "select the digest type to use.  See DIGEST below.", func(v string, _ bool) error {
		names := []string{"bsd", "sysv", "crc", "md5", "sha1", "sha224", "sha256", "sha384", "sha512", "blake2b", "sm3"}
		// GNU's cksum takes no abbreviation (XARGMATCH_EXACT).
		if !slices.Contains(names, v) {
			var b strings.Builder
			fmt.Fprintf(&b, "invalid argument %s for %s\nValid arguments are:", env.Quote(v), env.Quote("--algorithm"))
			for _, n := range names {
				fmt.Fprintf(&b, "\n  - %s", env.Quote(n))
			}
			return &UsageError{b.String()}
		}
		algoName, algoSet = v, true
		return nil
	})
	check := f.Bool('c', "check", "read checksums from the FILEs and check them")
	length, lengthSet := 0, false
	f.Func('l', "length", RequiredArg, "BITS", "digest length in bits; must not exceed the max for\n                          the blake2 algorithm and must be a multiple of 8", func(v string, _ bool) error {
		n, err := sumLength(env, v)
		length, lengthSet = n, true
		return err
	})
	tag := true
	f.Func(0, "tag", NoArg, "", "create a BSD-style checksum (the default)", func(string, bool) error { tag = true; return nil })
	f.Func(0, "untagged", NoArg, "", "create a reversed style checksum, without digest type", func(string, bool) error { tag = false; return nil })
	zero, ignoreMissing, quiet, status, strict, warn := sumCheckFlags(f)
	f.Gap()
	f.Bool(0, "debug", "indicate which implementation used")
	version := versionOption(f)
	var ep strings.Builder
	ep.WriteString("DIGEST determines the digest algorithm and default output format:\n")
	for _, d := range [][2]string{{"sysv", "(equivalent to sum -s)"}, {"bsd", "(equivalent to sum -r)"}, {"crc", "(equivalent to cksum)"}} {
		fmt.Fprintf(&ep, "  %-9s %s\n", d[0], d[1])
	}
	for _, n := range []string{"md5", "sha1", "sha224", "sha256", "sha384", "sha512", "blake2b"} {
		fmt.Fprintf(&ep, "  %-9s (equivalent to %s)\n", n, sumDigests[n].cmd)
	}
	ep.WriteString("  sm3       (only available through cksum)\n")
	ep.WriteString("\nWhen checking, the input should be a former output of this program,\nor equivalent standalone program.")
	f.Epilog = ep.String()
	// -b and -t are md5sum's: cksum 9.1 takes them only to fail with its
	// usage line alone.
	for _, c := range "bt" {
		f.Func(c, "", NoArg, "", "", func(string, bool) error { return errCksumMode })
	}
	files, err := f.Parse(env.Args[1:])
	if errors.Is(err, errCksumMode) {
		fmt.Fprintf(env.Stderr, "Try '%s --help' for more information.\n", env.Name())
		return 1
	}
	if err != nil {
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	if msg := sumOptsError(sumOpts{check: *check, zero: *zero, binary: -1, ignoreMissing: *ignoreMissing,
		quiet: *quiet, warn: *warn, status: *status, strict: *strict}); msg != "" {
		return f.Fail(&UsageError{msg}, 1)
	}
	if lengthSet && algoName != "blake2b" {
		env.Errorf("--length is only supported with --algorithm=blake2b")
		return 1
	}
	old, isOld := sumOlds[algoName]
	// GNU: -c goes on with the default CRC, not with -a crc given
	if *check && isOld && (algoName != "crc" || algoSet) {
		env.Errorf("--check is not supported with --algorithm={bsd,sysv,crc}")
		return 1
	}
	if *check {
		if len(files) == 0 {
			files = []string{"-"}
		}
		c := sumChecker{bsdReversed: -1, env: env, w: stdoutWriter(env), quiet: *quiet, status: *status, strict: *strict, warn: *warn, ignoreMissing: *ignoreMissing}
		if isOld {
			// Without -a, each line names its algorithm in a tag.
			c.auto = true
		} else {
			c.a = sumDigests[algoName]
			if length != 0 {
				c.a, c.fixedLen = c.a.withLength(length), true
			}
		}
		return c.run(files)
	}
	if isOld {
		return sumOldRun(env, old, files, algoName == "crc")
	}
	a := sumDigests[algoName]
	if length != 0 {
		a = a.withLength(length)
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	return sumPrint(env, bufio.NewWriterSize(env.Stdout, ioBufSize), a, files, tag, false, *zero)
}
