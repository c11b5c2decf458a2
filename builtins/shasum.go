package builtins

import (
	"bufio"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

var _ = register(Builtin{Name: "shasum", Summary: "print or check SHA checksums (Perl's shasum 6.02)", Run: shasumCmd})

// shasumAlgos are shasum's -a values and their digests.
var shasumAlgos = map[int]func() hash.Hash{
	1: sha1.New, 224: sha256.New224, 256: sha256.New, 384: sha512.New384, 512: sha512.New,
	512224: sha512.New512_224, 512256: sha512.New512_256,
}

// shasumTag is the name --tag gives algorithm alg.
func shasumTag(alg int) string {
	switch alg {
	case 512224:
		return "SHA512/224"
	case 512256:
		return "SHA512/256"
	}
	return "SHA" + strconv.Itoa(alg)
}

// shasumConfig is a run of shasum: its options, as the Perl script's
// globals (a checked line's mode and algorithm replace them, as there).
type shasumConfig struct {
	env                                   *Env
	alg                                   int
	binary, text, universal, bits, check  bool
	status, quiet, warn, tag, strict, ign bool
	help, version                         bool
	len2alg                               map[int]int
}

// shasumCmd is Perl's shasum 6.02 (Digest::SHA), as Debian ships it: the
// sums of sha1sum and its kin, -a choosing the algorithm, -c finding each
// line's algorithm from the length of its digest (or its --tag name).
func shasumCmd(env *Env) int {
	c := &shasumConfig{env: env}
	files, errText := c.parse(env.Args[1:])
	if errText != "" {
		fmt.Fprintf(env.Stderr, "%sType shasum -h for help\n", errText)
		return 1
	}
	if c.help {
		shasumHelp(env)
		return 0
	}
	if msg := c.conflict(); msg != "" {
		fmt.Fprintf(env.Stderr, "shasum: %s\nType shasum -h for help\n", msg)
		return 1
	}
	if c.alg == 0 {
		c.alg = 1
	}
	if shasumAlgos[c.alg] == nil {
		fmt.Fprintf(env.Stderr, "shasum: Unrecognized algorithm\nType shasum -h for help\n")
		return 1
	}
	if c.version {
		return printVersion(env)
	}
	c.len2alg = map[int]int{40: 1, 56: 224, 64: 256, 96: 384, 128: 512}
	if c.alg == 512224 {
		c.len2alg[56] = 512224
	}
	if c.alg == 512256 {
		c.len2alg[64] = 512256
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	return c.run(files)
}

// run sums or checks each file; the script's output is unbuffered, so
// its lines and messages come in the order it makes them.
func (c *shasumConfig) run(files []string) int {
	status := 0
	for _, name := range files {
		if c.env.Ctx.Err() != nil {
			return 1
		}
		if c.check {
			st, ok := c.verify(name)
			if st != 0 {
				return st // die: the list could not be opened
			}
			if !ok {
				status = 1
			}
			continue
		}
		sum, ok := c.sumFile(name)
		if !ok {
			status = 1
			continue
		}
		line := name
		lead := ""
		if strings.ContainsAny(name, "\n\\") {
			lead, line = "\\", strings.NewReplacer("\\", "\\\\", "\n", "\\n").Replace(name)
		}
		if c.tag {
			line = lead + shasumTag(c.alg) + " (" + line + ") = " + sum + "\n"
		} else {
			line = lead + sum + " " + c.modeSym() + line + "\n"
		}
		if _, err := io.WriteString(c.env.Stdout, line); err != nil {
			return c.env.WriteFailed(err, 1)
		}
	}
	return status
}

// modeSym is the character between the digest and the name.
func (c *shasumConfig) modeSym() string {
	switch {
	case c.binary:
		return "*"
	case c.universal:
		return "U"
	case c.bits:
		return "^"
	}
	return " "
}

// conflict is the script's complaint about options that do not go
// together, or "".
func (c *shasumConfig) conflict() string {
	modes := 0
	for _, m := range []bool{c.binary, c.text, c.bits, c.universal} {
		if m {
			modes++
		}
	}
	onlyCheck := []struct {
		set  bool
		name string
	}{{c.warn, "warn"}, {c.status, "status"}, {c.quiet, "quiet"}, {c.ign, "ignore-missing"}, {c.strict, "strict"}}
	switch {
	case modes > 1:
		return "Ambiguous file mode"
	}
	for _, o := range onlyCheck {
		if o.set && !c.check {
			return "--" + o.name + " option used only when verifying checksums"
		}
	}
	switch {
	case c.tag && c.text:
		return "--tag does not support --text mode"
	case c.tag && c.universal:
		return "--tag does not support Universal Newlines mode"
	case c.tag && c.bits:
		return "--tag does not support BITS mode"
	}
	return ""
}

// sumFile is the hex digest of name ("-": standard input) in the current
// mode, or false after Digest::SHA's message.
func (c *shasumConfig) sumFile(name string) (string, bool) {
	env := c.env
	r, err := env.Open(name)
	if err == nil && isDirFile(r) {
		r.Close()
		err = errReadDir
	}
	if err != nil {
		env.Errorf("%s: %s", name, ErrText(err))
		return "", false
	}
	defer r.Close()
	if c.bits {
		var bits shasumBits
		if err := copyOut(env, &bits, r, make([]byte, ioBufSize)); err != nil {
			if env.Ctx.Err() == nil {
				env.Errorf("%s: %s", name, ErrText(err))
			}
			return "", false
		}
		sum, err := bits.sum(c.alg)
		if err != nil {
			env.Errorf("%s: %s", name, err)
			return "", false
		}
		return hex.EncodeToString(sum), true
	}
	h := shasumAlgos[c.alg]()
	var src io.Reader = r
	if c.universal {
		src = &universalReader{r: bufio.NewReaderSize(r, ioBufSize)}
	}
	if err := copyOut(env, h, src, make([]byte, ioBufSize)); err != nil {
		if env.Ctx.Err() == nil {
			env.Errorf("%s: %s", name, ErrText(err))
		}
		return "", false
	}
	return hex.EncodeToString(h.Sum(nil)), true
}

// shasumBits is the message of the BITS mode (-0): each '0' or '1' of
// the input a bit, the other bytes ignored (Digest::SHA's add_bits).
type shasumBits struct {
	b []byte
	n uint64 // bits
}

func (m *shasumBits) Write(p []byte) (int, error) {
	for _, c := range p {
		if c != '0' && c != '1' {
			continue
		}
		if m.n%8 == 0 {
			m.b = append(m.b, 0)
		}
		if c == '1' {
			m.b[len(m.b)-1] |= 0x80 >> (m.n % 8)
		}
		m.n++
	}
	return len(p), nil
}

// sum is the digest of a message of any number of bits: Go's SHA code
// takes whole bytes, so the message is padded here (a 1 bit, zeros,
// the length in bits) and the hash's state after those whole blocks,
// which its MarshalBinary gives (magic, then the state words), is the
// digest.
func (m *shasumBits) sum(alg int) ([]byte, error) {
	block, lenBytes, word, size := 64, 8, 4, map[int]int{1: 20, 224: 28, 256: 32}[alg]
	if size == 0 {
		block, lenBytes, word, size = 128, 16, 8, map[int]int{384: 48, 512: 64, 512224: 28, 512256: 32}[alg]
	}
	msg := append([]byte(nil), m.b...)
	if m.n%8 == 0 {
		msg = append(msg, 0x80)
	} else {
		msg[len(msg)-1] |= 0x80 >> (m.n % 8)
	}
	for len(msg)%block != block-lenBytes {
		msg = append(msg, 0)
	}
	for i := lenBytes - 1; i >= 0; i-- {
		if i >= 8 {
			msg = append(msg, 0)
			continue
		}
		msg = append(msg, byte(m.n>>(8*i)))
	}
	h := shasumAlgos[alg]()
	h.Write(msg)
	mb, ok := h.(interface{ MarshalBinary() ([]byte, error) })
	if !ok {
		return nil, errors.New("no state to read")
	}
	state, err := mb.MarshalBinary()
	if err != nil || len(state) < 4+8*word {
		return nil, errors.New("no state to read")
	}
	return state[4 : 4+size], nil
}

// universalReader turns CRLF and lone CR line ends into LF (-U).
type universalReader struct {
	r *bufio.Reader
}

func (u *universalReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		b, err := u.r.ReadByte()
		if err != nil {
			if n > 0 {
				return n, nil
			}
			return 0, err
		}
		if b == '\r' {
			if next, err := u.r.Peek(1); err == nil && next[0] == '\n' {
				u.r.ReadByte()
			}
			b = '\n'
		}
		p[n] = b
		n++
		if u.r.Buffered() == 0 {
			break
		}
	}
	return n, nil
}

// The lines of a list that --check reads, compiled on first use, not in
// the package's init: every start of llmsh compiled them (issue 21).
var (
	shasumTagLine   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[ \t]*(\\?)SHA(\S+) \((.+)\) = ([\da-fA-F]+)`) })
	shasumPlainLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[ \t]*(\\?)([\da-fA-F]+)[ \t]([ *^U])(.+)`) })
)

// verify checks the list name as the script's verify: a status that
// ends the run (the list could not be opened: its errno, as Perl's die)
// and whether every check passed.
func (c *shasumConfig) verify(name string) (int, bool) {
	env := c.env
	r, err := env.Open(name)
	shown := name
	if name == "-" {
		shown = "standard input"
	}
	if errors.Is(err, syscall.EISDIR) {
		r, err = nopReadCloser{eofReader{}}, nil // sysopen opens it; <FH> reads nothing
	}
	if err != nil {
		env.Errorf("%s: %s", shown, ErrText(err))
		var errno syscall.Errno
		if errors.As(err, &errno) && errno != 0 && errno < 256 {
			return int(errno), false
		}
		return 2, false
	}
	defer r.Close()
	var fmtErrs, readErrs, matchErrs, fmtOK, numOK int
	bad := false
	br := bufio.NewReaderSize(r, ioBufSize)
	for lineNo := 1; ; lineNo++ {
		if env.Ctx.Err() != nil {
			return 1, false
		}
		line, rerr := br.ReadString('\n')
		if line == "" && rerr != nil {
			break
		}
		if strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimSuffix(line, "\n")
		bslash, sum, fname, ok := c.parseLine(line)
		if !ok {
			if c.warn {
				env.Errorf("%s: %d: improperly formatted SHA checksum line", shown, lineNo)
			}
			fmtErrs++
			bad = bad || c.strict
			continue
		}
		fmtOK++
		if bslash {
			fname = strings.NewReplacer("\\\\", "\\", "\\n", "\n").Replace(fname)
		}
		if c.ign {
			if _, err := env.FS.Stat(env.Abs(fname)); errors.Is(err, fs.ErrNotExist) {
				continue
			}
		}
		rsp := fname + ": "
		got, ok := c.sumFile(fname)
		switch {
		case !ok:
			rsp += "FAILED open or read\n"
			bad = true
			readErrs++
		case strings.ToLower(sum) == got:
			rsp += "OK\n"
			numOK++
		default:
			rsp += "FAILED\n"
			bad = true
			matchErrs++
		}
		if !c.status && !(c.quiet && strings.HasSuffix(rsp, ": OK\n")) {
			io.WriteString(env.Stdout, rsp)
		}
	}
	plural := func(n int, one, many string) string {
		if n > 1 {
			return many
		}
		return one
	}
	if fmtOK == 0 {
		env.Errorf("%s: no properly formatted SHA checksum lines found", shown)
		bad = true
	} else if !c.status {
		if fmtErrs > 0 {
			env.Errorf("WARNING: %d line%s improperly formatted", fmtErrs, plural(fmtErrs, " is", "s are"))
		}
		if readErrs > 0 {
			env.Errorf("WARNING: %d listed file%s could not be read", readErrs, plural(readErrs, "", "s"))
		}
		if matchErrs > 0 {
			env.Errorf("WARNING: %d computed checksum%s did NOT match", matchErrs, plural(matchErrs, "", "s"))
		}
	}
	if c.ign && numOK == 0 && fmtOK > 0 {
		if !c.status {
			env.Errorf("%s: no file was verified", shown)
		}
		bad = true
	}
	return 0, !bad
}

// parseLine reads a line of a list, setting the mode and algorithm it
// names (a tagged line is binary), as the script does.
func (c *shasumConfig) parseLine(line string) (bslash bool, sum, fname string, ok bool) {
	mode := ""
	if strings.HasPrefix(strings.TrimLeft(line, " \t"), "SHA") || strings.HasPrefix(strings.TrimLeft(line, " \t"), "\\SHA") {
		m := shasumTagLine().FindStringSubmatch(line)
		if m == nil {
			return false, "", "", false
		}
		alg, err := strconv.Atoi(strings.ReplaceAll(m[2], "/", ""))
		if err != nil || shasumAlgos[alg] == nil {
			return false, "", "", false
		}
		c.alg, mode = alg, "*"
		bslash, fname, sum = m[1] != "", m[3], m[4]
	} else {
		m := shasumPlainLine().FindStringSubmatch(line)
		if m == nil {
			return false, "", "", false
		}
		alg, found := c.len2alg[len(m[2])]
		if !found {
			return false, "", "", false
		}
		c.alg = alg
		bslash, sum, mode, fname = m[1] != "", m[2], m[3], m[4]
	}
	c.binary, c.text, c.universal, c.bits = mode == "*", mode == " ", mode == "U", mode == "^"
	return bslash, sum, fname, true
}

// shasumLong are the script's long options (Getopt::Long), in its order.
var shasumLong = []string{"binary", "check", "text", "algorithm", "status", "warn", "quiet", "help", "version", "01", "UNIVERSAL", "tag", "strict", "ignore-missing"}

// parse reads the options as Getopt::Long with bundling: single letters
// after one dash (-ba256), long names (or unique prefixes) after two,
// options anywhere before "--". It returns the operands, or the
// script's complaint.
func (c *shasumConfig) parse(args []string) ([]string, string) {
	var files []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(files, args[i+1:]...), ""
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			if len(name) == 1 && strings.Contains("bctashvwqU0", name) {
				name = shasumLong[strings.Index("bctaswqhv0U", name)] // an alias: --s is -s
			}
			var match []string
			for _, l := range shasumLong {
				if l == name {
					match = []string{l}
					break
				}
				if name != "" && strings.HasPrefix(l, name) {
					match = append(match, l)
				}
			}
			switch {
			case len(match) == 0:
				return nil, "Unknown option: " + name + "\n"
			case len(match) > 1:
				return nil, "Option " + name + " is ambiguous (" + strings.Join(match, ", ") + ")\n"
			}
			if match[0] != "algorithm" {
				if hasVal {
					return nil, "Option " + match[0] + " does not take an argument\n"
				}
				c.setLong(match[0])
				continue
			}
			if !hasVal {
				if i+1 >= len(args) {
					return nil, "Option algorithm requires an argument\n"
				}
				i++
				val = args[i]
			}
			if msg := c.setAlg("algorithm", val); msg != "" {
				return nil, msg
			}
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				ch := a[j]
				if ch != 'a' {
					if !strings.ContainsRune("bcthvsqwU0", rune(ch)) {
						return nil, "Unknown option: " + string(ch) + "\n"
					}
					c.set(ch)
					continue
				}
				val := a[j+1:]
				if val == "" {
					if i+1 >= len(args) {
						return nil, "Option a requires an argument\n"
					}
					i++
					val = args[i]
				}
				if msg := c.setAlg("a", val); msg != "" {
					return nil, msg
				}
				break
			}
		default:
			files = append(files, a)
		}
	}
	return files, ""
}

// setLong sets the option of a long name.
func (c *shasumConfig) setLong(name string) {
	switch name {
	case "tag":
		c.tag = true
	case "strict":
		c.strict = true
	case "ignore-missing":
		c.ign = true
	case "01":
		c.bits = true
	default:
		c.set(name[0]) // binary, check, text, status, …: the letter's
	}
}

// set sets the option of a letter.
func (c *shasumConfig) set(ch byte) {
	switch ch {
	case 'b':
		c.binary = true
	case 'c':
		c.check = true
	case 't':
		c.text = true
	case 'h':
		c.help = true
	case 'v':
		c.version = true
	case 's':
		c.status = true
	case 'q':
		c.quiet = true
	case 'w':
		c.warn = true
	case 'U':
		c.universal = true
	case '0':
		c.bits = true
	}
}

// setAlg reads -a's value, an integer as Getopt::Long's "=i".
func (c *shasumConfig) setAlg(opt, v string) string {
	n, err := strconv.Atoi(strings.TrimPrefix(v, "+"))
	if err != nil || v == "" || strings.HasPrefix(v, "+-") || strings.ContainsAny(v[:1], " \t") {
		return fmt.Sprintf("Value \"%s\" invalid for option %s (number expected)\n", v, opt)
	}
	c.alg = n
	if n == 0 {
		c.alg = -1 // given, and no algorithm
	}
	return ""
}

// shasumHelp prints the script's usage (its SYNOPSIS).
func shasumHelp(env *Env) {
	io.WriteString(env.Stdout, `Usage: shasum [OPTION]... [FILE]...
Print or check SHA checksums.
With no FILE, or when FILE is -, read standard input.

  -a, --algorithm   1 (default), 224, 256, 384, 512, 512224, 512256
  -b, --binary      read in binary mode
  -c, --check       read SHA sums from the FILEs and check them
      --tag         create a BSD-style checksum
  -t, --text        read in text mode (default)
  -U, --UNIVERSAL   read in Universal Newlines mode
                        produces same digest on Windows/Unix/Mac
  -0, --01          read in BITS mode
                        ASCII '0' interpreted as 0-bit,
                        ASCII '1' interpreted as 1-bit,
                        all other characters ignored

The following five options are useful only when verifying checksums:
      --ignore-missing  don't fail or report status for missing files
  -q, --quiet           don't print OK for each successfully verified file
  -s, --status          don't output anything, status code shows success
      --strict          exit non-zero for improperly formatted checksum lines
  -w, --warn            warn about improperly formatted checksum lines

  -h, --help        display this help and exit
  -v, --version     output version information and exit

When verifying SHA-512/224 or SHA-512/256 checksums, indicate the
algorithm explicitly using the -a option, e.g.

  shasum -a 512224 -c checksumfile

The sums are computed as described in FIPS PUB 180-4.  When checking,
the input should be a former output of this program.  The default
mode is to print a line with checksum, a character indicating type
(`+"`"+`*' for binary, `+"`"+` ' for text, `+"`"+`U' for UNIVERSAL, `+"`"+`^' for BITS),
and name for each FILE.  The line starts with a `+"`"+`\' character if the
FILE name contains either newlines or backslashes, which are then
replaced by the two-character sequences `+"`"+`\n' and `+"`"+`\\' respectively.
`)
}
