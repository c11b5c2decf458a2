package builtins

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
	"github.com/llmsh/llmsh/posixre"
)

var _ = register(Builtin{Name: "sed", Summary: "stream editor for filtering and transforming text", Run: sed})

// sedOutput is an output of sed: standard output or a w file. It keeps
// GNU's rule for a last line without a newline: the newline is added
// only if something else is written after it.
type sedOutput struct {
	w       *bufio.Writer
	f       File
	missing bool
}

func (o *sedOutput) line(b []byte, nl bool, eol byte) {
	if o.missing {
		o.w.WriteByte(eol)
		o.missing = false
	}
	o.w.Write(b)
	if nl {
		o.w.WriteByte(eol)
	} else {
		o.missing = true
	}
}

func (o *sedOutput) text(s string) {
	if o.missing {
		o.w.WriteByte('\n')
		o.missing = false
	}
	o.w.WriteString(s)
}

// textOut is what a, i and c write: the text and a newline, or nothing
// for an "a\\" that ended the script (GNU; the pattern space still gets
// its missing newline).
func (c *sedCmd) textOut() string {
	if c.bare {
		return ""
	}
	return c.text + "\n"
}

// sedAppend is output queued for the end of the cycle (a, r, R).
type sedAppend struct {
	text  string
	file  string
	rline bool
}

type sedRun struct {
	env      *Env
	prog     *sedProg
	quiet    bool
	separate bool
	eol      byte
	wrap     int
	out      *sedOutput
	outs     map[string]*sedOutput
	rfiles   map[string]*bufio.Reader
	lineno   int64
	ps, hs   []byte
	psNL     bool
	hsNL     bool // GNU keeps a buffer's missing newline with it: h, H, g, G, x carry it
	sbuf     []byte
	queue    []sedAppend
	tflag    bool
	lastRE   *posixre.Regexp
	status   int
	quitCode int
	quit     bool
	failed   bool // a run-time error stopped the script
	failCode int  // status for failed (default 4)
	werr     error

	// lastLines: lastRE has the M flag, whose lines under -z end at
	// each NUL (zSegments).
	lastLines bool

	// unbuffered is -u. Otherwise standard output is a buffer that a message
	// does not flush: GNU sed writes its complaints with fprintf or panic,
	// never flushing stdout first, so `sed p a nosuch 2>&1` shows the
	// complaint before a's lines.
	unbuffered bool
	// posix is --posix: GNU's extensions are refused when the script is
	// parsed, and N on the last line ends without printing.
	posix bool
	// debug is --debug (sed_debug.go); debugLevel the indentation of the
	// commands it shows as they run.
	debug      bool
	debugLevel int
	debugOut   *bufio.Writer // standard output
}

// sedUsage is the text after "Usage: NAME " that sed prints for --help
// (standard output) and for a usage error or a missing script (standard
// error), one text for both as GNU sed 4.9 prints one. It is GNU's, in
// GNU's layout, except where llmsh's sed does something else: --debug,
// --follow-symlinks and --posix say what they do here, and the last
// paragraph how e runs commands.
const sedUsage = `[OPTION]... {script-only-if-no-other-script} [input-file]...

  -n, --quiet, --silent
                 suppress automatic printing of pattern space
      --debug
                 annotate program execution
  -e script, --expression=script
                 add the script to the commands to be executed
  -f script-file, --file=script-file
                 add the contents of script-file to the commands to be executed
  --follow-symlinks
                 accepted: links are always followed (vfsd resolves them)
  -i[SUFFIX], --in-place[=SUFFIX]
                 edit files in place (makes backup if SUFFIX supplied)
  -l N, --line-length=N
                 specify the desired line-wrap length for the ` + "`" + `l' command
  --posix
                 disable all GNU extensions.
  -E, -r, --regexp-extended
                 use extended regular expressions in the script
                 (for portability use POSIX -E).
  -s, --separate
                 consider files as separate rather than as a single,
                 continuous long stream.
      --sandbox
                 operate in sandbox mode (disable e/r/w commands).
  -u, --unbuffered
                 load minimal amounts of data from the input files and flush
                 the output buffers more often
  -z, --null-data
                 separate lines by NUL characters
      --help     display this help and exit
      --version  output version information and exit

If no -e, --expression, -f, or --file option is given, then the first
non-option argument is taken as the sed script to interpret.  All
remaining arguments are names of input files; if no input files are
specified, then the standard input is read.

The e command and the s///e flag run the command with llmsh's own
commands (sh -c), never a program.
`

// sedPiece is one -e script, -f file, or the script operand.
type sedPiece struct {
	src, where string
	file       bool
}

// sedConfig is what sed's options select besides the run's own settings.
type sedConfig struct {
	pieces        []sedPiece
	inPlace       bool
	suffix        string // -i's backup suffix
	ext, nullData bool
	sandbox       bool
	scriptErr     error // a -f file that could not be read
}

func sed(env *Env) int {
	r := &sedRun{env: env, eol: '\n', wrap: 70, hsNL: true, outs: map[string]*sedOutput{}, rfiles: map[string]*bufio.Reader{}}
	c := &sedConfig{}
	f := c.flags(env, r)
	operands, err := f.Parse(env.Args[1:])
	if errors.Is(err, ErrHelp) {
		fmt.Fprintf(env.Stdout, "Usage: %s %s", env.Name(), sedUsage)
		return 0
	}
	r.unbuffered = r.unbuffered || env.LineBuffered() // stdbuf -oL
	if err != nil {
		msg, isUsage := usageMessage(err)
		if isUsage {
			env.Errorf("%s", msg)
			fmt.Fprintf(env.Stderr, "Usage: %s %s", env.Name(), sedUsage)
			return 1
		}
		return f.Fail(err, 1)
	}
	if c.scriptErr != nil {
		env.Errorf("%s", c.scriptErr)
		return 4
	}
	if c.nullData {
		r.eol = 0
	}
	if len(c.pieces) == 0 {
		if len(operands) == 0 {
			fmt.Fprintf(env.Stderr, "Usage: %s %s", env.Name(), sedUsage)
			return 1
		}
		c.pieces = append(c.pieces, sedPiece{src: operands[0]})
		operands = operands[1:]
	}
	stdout := &sedOutput{w: bufio.NewWriterSize(env.Stdout, 64<<10)}
	r.out = stdout
	// w /dev/stdout writes to the same stream through an output of its
	// own, as GNU sed's: each keeps its own missing newline.
	r.outs["/dev/stdout"] = &sedOutput{w: stdout.w}
	r.debugOut = stdout.w
	r.prog = &sedProg{open: r.openW, noExec: env.Exec == nil, sandbox: c.sandbox}
	defer r.closeOutputs()
	if st := r.compile(c); st != 0 {
		return st
	}
	if r.debug {
		r.debugProgram()
	}
	if c.inPlace {
		if len(operands) == 0 {
			env.Errorf("no input files")
			return 4
		}
		for _, name := range operands {
			if r.quit || r.failed {
				break
			}
			r.inPlace(name, c.suffix)
		}
	} else if r.separate {
		if len(operands) == 0 {
			operands = []string{"-"}
		}
		for _, name := range operands {
			if r.quit || r.failed {
				break
			}
			r.process(r.newInput([]string{name}))
		}
	} else {
		if len(operands) == 0 {
			operands = []string{"-"}
		}
		r.process(r.newInput(operands))
	}
	return r.finish(stdout)
}

// flags is sed's option table; it fills c and the run r.
func (c *sedConfig) flags(env *Env, r *sedRun) *Flags {
	f := NewFlags(env, "Stream editor: apply the script to each line of the input files (standard input\nif none) and print the result.", "[OPTION]... {script-only-if-no-other-script} [input-file]...")
	f.BoolVar(&r.quiet, 'n', "quiet", "suppress automatic printing of pattern space")
	f.Synonym("silent", "quiet")
	f.BoolVar(&r.debug, 0, "debug", "annotate program execution")
	f.Func('e', "expression", RequiredArg, "script", "add the script to the commands to be executed", func(v string, _ bool) error {
		c.pieces = append(c.pieces, sedPiece{src: v})
		return nil
	})
	f.Func('f', "file", RequiredArg, "script-file", "add the contents of script-file to the commands to be executed", func(v string, _ bool) error {
		rc, err := env.Open(v)
		if err != nil {
			if c.scriptErr == nil {
				c.scriptErr = &sedError{"couldn't open file " + v + ": " + ErrText(err)}
			}
			return nil
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil && c.scriptErr == nil {
			c.scriptErr = &sedError{"couldn't read " + v + ": " + ErrText(err)}
		}
		src := strings.TrimSuffix(string(data), "\n")
		c.pieces = append(c.pieces, sedPiece{src: src, where: v, file: true})
		return nil
	})
	f.Func(0, "follow-symlinks", NoArg, "", "(accepted: vfsd resolves links)", func(string, bool) error { return nil })
	f.Func('i', "in-place", OptionalArg, "SUFFIX", "edit files in place (makes backup if SUFFIX supplied)", func(v string, _ bool) error {
		c.inPlace, c.suffix = true, v
		r.separate = true
		return nil
	})
	f.Func('l', "line-length", RequiredArg, "N", "specify the desired line-wrap length for the `l' command", func(v string, _ bool) error {
		r.wrap = max(0, sedAtoi(v)) // GNU uses atoi: "3x" is 3, "x" is 0
		return nil
	})
	f.BoolVar(&r.posix, 0, "posix", "disable all GNU extensions.")
	f.BoolVar(&c.ext, 'E', "regexp-extended", "use extended regular expressions in the script")
	f.BoolVar(&c.ext, 'r', "", "")
	f.BoolVar(&r.separate, 's', "separate", "consider files as separate rather than as a single\n                            continuous long stream.")
	f.BoolVar(&c.sandbox, 0, "sandbox", "operate in sandbox mode (disable e/r/w commands).")
	f.BoolVar(&r.unbuffered, 'u', "unbuffered", "flush the output before each message")
	f.BoolVar(&c.nullData, 'z', "null-data", "separate lines by NUL characters")
	f.Epilog = "If no -e, --expression, -f, or --file option is given, then the first\nnon-option argument is taken as the sed script to interpret.  All\nremaining arguments are names of input files; if no input files are\nspecified, then the standard input is read.\n\nThe e command and the s///e flag run the command with llmsh's own\ncommands (sh -c), never a program."
	return f
}

// compile parses the script's pieces into r.prog; a status other than 0
// ends the run.
func (r *sedRun) compile(c *sedConfig) int {
	// GNU sed 4.9 takes "#n" as the first two bytes of the first
	// script piece as -n, whatever follows them ("#nx", "#n 1p": the
	// rest of the line is a comment).
	if strings.HasPrefix(c.pieces[0].src, "#n") {
		r.quiet = true
	}
	en := 0
	for _, pc := range c.pieces {
		p := &sedParser{src: pc.src, ext: c.ext, posix: r.posix, prog: r.prog, isFile: pc.file, where: pc.where, cloc: byteLocale(r.env), ctx: r.env.Ctx}
		if !pc.file {
			en++
			p.where = strconv.Itoa(en)
		}
		if err := p.parse(); err != nil {
			if err != errSedStopped {
				r.env.Errorf("%s", err)
			}
			if strings.HasPrefix(err.Error(), "couldn't open file ") {
				return 4 // a w file: GNU's panic, not a script error
			}
			return 1
		}
	}
	if pc := r.prog.pending; pc != nil && !pc.bare {
		// A text whose last line ended in a backslash with no piece
		// after it: GNU's text is what was read, its newline included,
		// so a\ then "\" at the end adds an empty line, not two.
		pc.text = strings.TrimSuffix(pc.text, "\n")
	}
	if err := r.prog.resolve(); err != nil {
		r.env.Errorf("%s", err)
		if strings.HasPrefix(err.Error(), "can't find label") {
			return 4
		}
		return 1
	}
	return 0
}

// finish closes the outputs and returns sed's status.
func (r *sedRun) finish(stdout *sedOutput) int {
	wOK := r.closeOutputs()
	if err := stdout.w.Flush(); err != nil && r.werr == nil {
		r.werr = err
	}
	if r.werr != nil {
		if IsBrokenPipe(r.werr) {
			return 1
		}
		r.env.Errorf("couldn't flush stdout: %s", ErrText(r.werr))
		return 4
	}
	if !wOK {
		return 4
	}
	if r.failed {
		if r.failCode != 0 {
			return r.failCode
		}
		return 4
	}
	if r.quit && r.status != 2 {
		return r.quitCode // GNU: an input it could not read wins (2)
	}
	return r.status
}

func (r *sedRun) openW(name string) (*sedOutput, error) {
	if o, ok := r.outs[name]; ok {
		return o, nil
	}
	if name == "/dev/stderr" {
		o := &sedOutput{w: bufio.NewWriterSize(r.env.Stderr, 4096)}
		r.outs[name] = o
		return o, nil
	}
	f, err := r.env.Create(name)
	if err != nil {
		return nil, err
	}
	o := &sedOutput{w: bufio.NewWriterSize(f, 32<<10), f: f}
	r.outs[name] = o
	return o, nil
}

// closeOutputs flushes and closes the files of w commands, once; a
// failure is reported as GNU sed words it, and makes ok false.
func (r *sedRun) closeOutputs() (ok bool) {
	ok = true
	for name, o := range r.outs {
		if name == "/dev/stdout" {
			continue
		}
		delete(r.outs, name)
		err := o.w.Flush()
		if o.f != nil {
			if cerr := o.f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			r.env.Errorf("couldn't flush %s: %s", name, ErrText(err))
			ok = false
		}
	}
	return ok
}

// inPlace edits one file: the output goes to memory and then replaces the
// file through Env.Create (atomic in vfsd); a backup is written first if
// a suffix was given.
func (r *sedRun) inPlace(name, suffix string) {
	if info, err := r.env.FS.Stat(r.env.Abs(name)); err == nil && !info.Mode().IsRegular() {
		// GNU sed opens it, then panics (status 4, no more files):
		// a directory, /dev/null, a pipe.
		r.env.Errorf("couldn't edit %s: not a regular file", name)
		r.failed = true
		return
	}
	rc, err := r.env.Open(name)
	if err != nil {
		r.env.Errorf("can't read %s: %s", name, ErrText(err))
		r.status = 2
		return
	}
	data, err := io.ReadAll(rc)
	rc.Close()
	if err != nil {
		r.env.Errorf("can't read %s: %s", name, ErrText(err))
		r.status = 2
		return
	}
	if suffix != "" {
		dir, base := "", name
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			dir, base = name[:i+1], name[i+1:]
		}
		bak := name + suffix
		if strings.Contains(suffix, "*") {
			bak = strings.ReplaceAll(suffix, "*", base)
			if !strings.Contains(bak, "/") {
				bak = dir + bak
			}
		}
		if err := r.env.WriteFile(bak, data); err != nil {
			r.env.Errorf("couldn't open file %s: %s", bak, ErrText(err))
			r.failed = true
			return
		}
	}
	var buf bytes.Buffer
	saved := r.out
	r.out = &sedOutput{w: bufio.NewWriterSize(&buf, 32<<10)}
	in := &sedInput{run: r, names: []string{name}, readers: []io.Reader{bytes.NewReader(data)}}
	r.process(in)
	r.out.w.Flush()
	r.out = saved
	if err := r.env.WriteFile(name, buf.Bytes()); err != nil {
		r.env.Errorf("couldn't open file %s: %s", name, ErrText(err))
		r.failed = true
	}
}

// sedInput is the stream of input lines, with one line of look-ahead so
// that '$' can be known.
type sedInput struct {
	run     *sedRun
	names   []string
	readers []io.Reader // pre-opened readers for names (in-place), or nil
	idx     int
	br      *bufio.Reader
	closer  io.Closer
	name    string
	la      []byte
	aheadNL bool
	aheadOK bool
	cur     []byte
}

func (r *sedRun) newInput(names []string) *sedInput {
	return &sedInput{run: r, names: names}
}

// fill loads the look-ahead line if there is one.
func (in *sedInput) fill() {
	if in.aheadOK {
		return
	}
	for {
		if in.br == nil {
			if in.idx >= len(in.names) {
				return
			}
			name := in.names[in.idx]
			var rd io.Reader
			if in.readers != nil {
				rd = in.readers[in.idx]
			} else {
				rc, err := in.run.env.Open(name)
				if err != nil && errors.Is(err, syscall.EISDIR) {
					// GNU opens a directory and fails reading it: fatal.
					in.run.flushForMessage()
					in.run.env.Errorf("read error on %s: %s", name, ErrText(err))
					in.run.failed = true
					return
				}
				if err != nil {
					in.run.flushForMessage()
					in.run.env.Errorf("can't read %s: %s", name, ErrText(err))
					in.run.status = 2
					in.idx++
					continue
				}
				in.closer = rc
				rd = rc
			}
			in.br = bufio.NewReaderSize(rd, 64<<10)
			in.name = name
			in.idx++
		}
		in.la = in.la[:0]
		for {
			var err error
			in.la, err = in.run.env.gatherLine(in.la, in.br, in.run.eol)
			if errors.Is(err, gnu.ErrCancelled) {
				// The run was stopped mid-line (an endless device): the
				// line cut short is dropped, not edited, and nothing more
				// is read (y over the 700 MB read from /dev/zero took 6 s
				// past a 4 s limit of a library Run; session 21).
				in.la = in.la[:0]
				in.idx = len(in.names)
				if in.closer != nil {
					in.closer.Close()
					in.closer = nil
				}
				in.br = nil
				return
			}
			if err != nil && err != io.EOF && !quietStop(err) {
				in.run.flushForMessage()
				shown := in.name
				if shown == "-" {
					shown = "stdin"
				}
				in.run.env.Errorf("read error on %s: %s", shown, ErrText(err))
				in.run.failed = true // GNU's panic: status 4
			}
			break
		}
		if len(in.la) > 0 {
			in.aheadNL = in.la[len(in.la)-1] == in.run.eol
			if in.aheadNL {
				in.la = in.la[:len(in.la)-1]
			}
			in.aheadOK = true
			return
		}
		if in.closer != nil {
			in.closer.Close()
			in.closer = nil
		}
		in.br = nil
	}
}

// next returns the next line (valid until the next call) and whether it
// ended with a newline.
func (in *sedInput) next() ([]byte, bool, bool) {
	in.fill()
	if !in.aheadOK {
		return nil, false, false
	}
	in.aheadOK = false
	in.cur, in.la = in.la, in.cur
	return in.cur, in.aheadNL, true
}

func (in *sedInput) last() bool {
	in.fill()
	return !in.aheadOK
}

func (in *sedInput) close() {
	if in.run.quit && in.br != nil {
		// GNU sed's q and Q leave standard input just past the line
		// (stdio gives back what it read ahead when sed exits).
		ahead := int64(in.br.Buffered())
		if in.aheadOK {
			ahead += int64(len(in.la))
			if in.aheadNL {
				ahead++
			}
		}
		unread(in.closer, ahead)
	}
	if in.closer != nil {
		in.closer.Close()
		in.closer = nil
	}
}

// Results of running the script over the pattern space.
const (
	sedEndCycle = iota // autoprint
	sedDelete          // no autoprint
	sedRestart         // D: no autoprint, no new line
	sedQuit            // q: autoprint then stop
	sedQuitNow         // Q, or an error
)

func (r *sedRun) process(in *sedInput) {
	defer in.close()
	if r.separate {
		r.lineno = 0
	}
	restart := false
	for !r.quit && !r.failed {
		if r.env.Ctx.Err() != nil {
			r.failed = true
			return
		}
		if !restart {
			line, nl, ok := in.next()
			if !ok {
				return
			}
			r.lineno++
			r.ps = append(r.ps[:0], line...)
			r.psNL = nl
			r.tflag = false
			if r.debug {
				r.debugInput(in)
			}
		}
		restart = false
		res := r.exec(in)
		if r.failed || r.env.Ctx.Err() != nil {
			// GNU sed exits at a run-time error: no autoprint, and the
			// queued a/r/R text is dropped. A search the run's stop
			// ended (MatchContext, FindAllContext) ends the cycle so
			// too: the line, unchanged, was printed after the stop.
			r.failed = true
			return
		}
		switch res {
		case sedEndCycle, sedQuit:
			if !r.quiet {
				r.out.line(r.ps, r.psNL, r.eol)
			}
		}
		r.flushQueue()
		if r.unbuffered {
			// GNU's -u flushes each cycle's output: a coprocess's
			// reader gets each line as it is made.
			r.out.w.Flush()
		}
		if _, err := r.out.w.Write(nil); err != nil {
			r.werr = err
			r.failed = true
			return
		}
		switch res {
		case sedRestart:
			restart = true
		case sedQuit, sedQuitNow:
			r.quit = true
		}
	}
}

func (r *sedRun) flushQueue() {
	for _, a := range r.queue {
		switch {
		case a.rline:
			br := r.rfiles[a.file]
			if br == nil {
				rc, err := r.env.Open(a.file)
				if err != nil {
					continue
				}
				br = bufio.NewReader(rc)
				r.rfiles[a.file] = br
			}
			// GNU writes the line as read: one without a newline (the
			// file's last) runs into what follows.
			line, _ := br.ReadBytes('\n')
			if len(line) > 0 {
				r.out.text(string(line))
			}
		case a.file != "":
			rc, err := r.env.Open(a.file)
			if err != nil {
				continue
			}
			if r.out.missing {
				r.out.w.WriteByte(r.eol)
				r.out.missing = false
			}
			data, _ := io.ReadAll(rc)
			rc.Close()
			// As GNU: a file without a final newline runs into what follows.
			r.out.w.Write(data)
		default:
			r.out.text(a.text)
		}
	}
	r.queue = r.queue[:0]
}

func (r *sedRun) regex(sr *sedRegex) *posixre.Regexp {
	if sr.re != nil {
		r.lastRE, r.lastLines = sr.re, sr.lines
		return sr.re
	}
	return r.lastRE
}

func (r *sedRun) reMatch(sr *sedRegex) bool {
	re := r.regex(sr)
	if re == nil {
		r.noPrevious()
		return false
	}
	// A long pattern space's search stops with the run (posixre's
	// MatchContext), which the command loop then sees.
	ok := false
	err := r.zSegments(r.ps, func(off int, seg []byte) (bool, error) {
		var err error
		ok, err = re.MatchContext(r.env.Ctx, seg)
		return !ok, err
	})
	if err != nil && r.env.Ctx.Err() == nil {
		r.runErr(err.Error())
	}
	return ok
}

// zSegments calls fn on ps, or, under -z with a regex of the M flag
// (lastLines), on each NUL-ended line of ps in turn with its offset, as
// GNU sed's match_regex does (its ^ and $ match at the NULs there); fn
// says whether to go on.
func (r *sedRun) zSegments(ps []byte, fn func(off int, seg []byte) (bool, error)) error {
	if r.eol != 0 || !r.lastLines {
		_, err := fn(0, ps)
		return err
	}
	for off := 0; ; {
		end := bytes.IndexByte(ps[off:], 0)
		if end < 0 {
			_, err := fn(off, ps[off:])
			return err
		}
		if more, err := fn(off, ps[off:off+end]); !more || err != nil {
			return err
		}
		off += end + 1
	}
}

// noPrevious reports an empty regex used before any other, as GNU does.
func (r *sedRun) noPrevious() {
	r.runErr("-e expression #1, char 0: no previous regular expression")
	r.failCode = 1
}

// overBound reports whether a pattern or hold space of n bytes would be
// past the bound on one value (Env.MaxLine), as a line read is
// (Env.gatherLine): then the run stops and the script fails. N, G, H and
// s grow a space past any line of the input (session 31's leftover:
// `sed -n 'H;$!d;x;p'` of 100 MB of short lines under --max-memory 64M
// held them until the memory guard's tick, at 163 MB of RSS).
func (r *sedRun) overBound(n int) bool {
	if m := r.env.MaxLine; m <= 0 || n <= m {
		return false
	}
	if err := r.env.lineTooLong(); err != gnu.ErrCancelled {
		r.runErr(err.Error())
	}
	r.failed = true
	return true
}

func (r *sedRun) runErr(msg string) {
	if !r.failed {
		r.flushForMessage()
		r.env.Errorf("%s", msg)
	}
	r.failed = true
}

func (r *sedRun) addrMatch(a *sedAddr, in *sedInput) bool {
	switch a.kind {
	case sedAddrLine:
		return r.lineno == a.n
	case sedAddrLast:
		return in.last()
	case sedAddrRE:
		return r.reMatch(a.re)
	case sedAddrStep:
		if a.step <= 0 {
			return r.lineno == a.n
		}
		return r.lineno >= a.n && (r.lineno-a.n)%a.step == 0
	}
	return false
}

func (r *sedRun) matches(c *sedCmd, in *sedInput) bool {
	if c.a1 == nil {
		return true
	}
	if c.a2 == nil {
		return r.addrMatch(c.a1, in)
	}
	if c.active {
		switch c.a2.kind {
		case sedAddrRE, sedAddrStep:
			if r.addrMatch(c.a2, in) {
				c.active = false
			}
		case sedAddrLast:
			if in.last() {
				c.active = false
			}
		default:
			if r.lineno >= c.endLine {
				c.active = false
			}
			if r.lineno > c.endLine {
				return false
			}
		}
		return true
	}
	if c.a1.kind == sedAddrZero {
		if r.lineno != 1 && !(r.separate && r.lineno == 1) {
			return false
		}
		c.active = true
		if r.addrMatch(c.a2, in) {
			c.active = false
		}
		return true
	}
	if !r.addrMatch(c.a1, in) {
		// GNU: a range whose first line number went by unseen (the
		// command was skipped there) starts at the first line after it,
		// once, unless its end is a line number already passed (sed -n
		// '1d;1,3p' prints lines 2 and 3, '2d;2,2p' prints nothing).
		if c.a1.kind != sedAddrLine || c.begun || r.lineno < c.a1.n ||
			c.a2.kind == sedAddrLine && c.a2.n < r.lineno {
			return false
		}
	}
	c.begun = true
	switch c.a2.kind {
	case sedAddrLine:
		if c.a2.n > r.lineno {
			c.active, c.endLine = true, c.a2.n
		}
	case sedAddrPlus:
		if c.a2.n > 0 {
			c.active, c.endLine = true, r.lineno+c.a2.n
		}
	case sedAddrTilde:
		// GNU 4.9: up to the next multiple of N after the first line,
		// even when that line is one (seq 10 | sed 4,~4d deletes 4-8).
		if c.a2.n > 0 {
			c.active, c.endLine = true, (r.lineno/c.a2.n+1)*c.a2.n
		}
	case sedAddrLast:
		if !in.last() {
			c.active = true
		}
	case sedAddrStep:
		// GNU: first~step ends the range at the first line it matches,
		// the first line of the range included (seq 9 | sed -n 2,0~2p
		// prints 2)
		c.active = !r.addrMatch(c.a2, in)
	default:
		c.active = true
	}
	return true
}

// exec runs the script over the pattern space.
func (r *sedRun) exec(in *sedInput) int {
	cmds := r.prog.cmds
	for pc := 0; pc < len(cmds); pc++ {
		if r.failed {
			return sedQuitNow
		}
		c := cmds[pc]
		if r.debug {
			r.debugExec(c)
		}
		sel := r.matches(c, in) != c.neg
		if r.failed {
			return sedQuitNow // GNU stops at the address's error
		}
		if !sel {
			if c.name == '{' {
				pc = c.target - 1 // the } runs (and --debug shows it)
			}
			continue
		}
		switch c.name {
		case '{', '}', ':':
		case '=':
			r.out.text(strconv.FormatInt(r.lineno, 10) + string(r.eol)) // GNU: NUL under -z
		case 'a':
			r.queue = append(r.queue, sedAppend{text: c.textOut()})
		case 'i':
			r.out.text(c.textOut())
		case 'c':
			if c.a2 == nil || !c.active || c.neg {
				r.out.text(c.textOut())
			}
			r.debugEnd()
			return sedDelete
		case 'b', 't', 'T':
			var quit bool
			if pc, quit = r.branch(c, pc); quit {
				return sedQuitNow
			}
		case 'd':
			r.debugEnd()
			return sedDelete
		case 'D':
			i := bytes.IndexByte(r.ps, r.eol)
			if i < 0 {
				return sedDelete
			}
			r.ps = append(r.ps[:0], r.ps[i+1:]...)
			r.debugPattern()
			return sedRestart
		case 'e':
			if c.text != "" {
				r.out.text(string(r.shell(c.text)))
			} else {
				r.ps = append(r.ps[:0], r.shellOutput()...)
			}
		case 'g', 'G', 'h', 'H', 'x', 'z':
			r.hold(c.name)
		case 'F':
			name := in.name
			if name == "" {
				name = "-"
			}
			r.out.text(name + string(r.eol))
		case 'l':
			w := r.wrap
			if c.num >= 0 {
				w = int(c.num)
			}
			r.list(w)
		case 'n', 'N':
			if res, end := r.runNext(c.name, in); end {
				return res
			}
		case 'p':
			r.out.line(r.ps, r.psNL, r.eol)
		case 'P':
			if i := bytes.IndexByte(r.ps, r.eol); i >= 0 {
				r.out.line(r.ps[:i], true, r.eol)
			} else {
				r.out.line(r.ps, r.psNL, r.eol)
			}
		case 'q':
			if c.num >= 0 {
				r.quitCode = int(c.num)
			}
			return sedQuit
		case 'Q':
			if c.num >= 0 {
				r.quitCode = int(c.num)
			}
			return sedQuitNow
		case 'r':
			r.queue = append(r.queue, sedAppend{file: c.text})
		case 'R':
			r.queue = append(r.queue, sedAppend{file: c.text, rline: true})
		case 'w':
			c.wout.line(r.ps, r.psNL, r.eol)
		case 'W':
			if i := bytes.IndexByte(r.ps, r.eol); i >= 0 {
				c.wout.line(r.ps[:i], true, r.eol)
			} else {
				c.wout.line(r.ps, r.psNL, r.eol)
			}
		case 's':
			r.subst(c)
			r.debugPattern()
		case 'y':
			r.yank(c)
			r.debugPattern()
		}
	}
	if r.failed {
		return sedQuitNow
	}
	r.debugEnd()
	return sedEndCycle
}

// branch runs b, t or T, at pc; it returns the command before the next
// one to run, or quit when the run was cancelled.
func (r *sedRun) branch(c *sedCmd, pc int) (int, bool) {
	if (c.name != 'b' || c.target <= pc) && r.env.Ctx.Err() != nil {
		r.failed = true
		return pc, true
	}
	switch {
	case c.name == 'b':
		pc = c.target - 1
	case c.name == 't' && r.tflag:
		r.tflag = false
		pc = c.target - 1
	case c.name == 'T' && !r.tflag:
		pc = c.target - 1
	case c.name == 'T':
		r.tflag = false
	}
	return pc, false
}

// runNext runs n or N; end reports that the cycle ends, with res.
func (r *sedRun) runNext(name byte, in *sedInput) (res int, end bool) {
	if r.nextLine(name, in) {
		r.debugPattern()
		return 0, false
	}
	if name == 'n' && !r.quiet {
		// GNU's n prints the pattern space, then finds no line.
		r.out.line(r.ps, r.psNL, r.eol)
	}
	r.debugEnd()
	if name == 'n' || r.posix {
		return sedDelete, true // POSIX: N on the last line prints nothing
	}
	return sedEndCycle, true
}

// hold runs g, G, h, H, x or z: the pattern and hold spaces.
func (r *sedRun) hold(name byte) {
	if r.debug {
		// GNU shows the hold space after g, h and H, the pattern space
		// after G and z, both after x.
		defer func() {
			r.debugSpace(name == 'g' || name == 'h' || name == 'H')
			if name == 'x' {
				r.debugSpace(true)
			}
		}()
	}
	switch name {
	case 'g':
		r.ps = append(r.ps[:0], r.hs...)
		r.psNL = r.hsNL
	case 'G':
		if r.overBound(len(r.ps) + 1 + len(r.hs)) {
			return
		}
		r.ps = append(append(r.ps, r.eol), r.hs...)
		r.psNL = r.hsNL
	case 'h':
		r.hs = append(r.hs[:0], r.ps...)
		r.hsNL = r.psNL
	case 'H':
		if r.overBound(len(r.hs) + 1 + len(r.ps)) {
			return
		}
		r.hs = append(append(r.hs, r.eol), r.ps...)
		r.hsNL = r.psNL
	case 'x':
		r.ps, r.hs = r.hs, r.ps
		r.psNL, r.hsNL = r.hsNL, r.psNL
	case 'z':
		r.ps = r.ps[:0]
	}
}

// nextLine runs n (print, then replace the pattern space by the next
// line) or N (append the next line); false at the last line.
func (r *sedRun) nextLine(name byte, in *sedInput) bool {
	if in.last() {
		return false
	}
	if name == 'n' && !r.quiet {
		r.out.line(r.ps, r.psNL, r.eol)
	}
	r.flushQueue()
	line, nl, _ := in.next()
	r.lineno++
	if name == 'n' {
		r.ps = append(r.ps[:0], line...)
	} else if !r.overBound(len(r.ps) + 1 + len(line)) {
		r.ps = append(append(r.ps, r.eol), line...)
	}
	r.psNL = nl
	return true
}

// shell runs cmd with llmsh's own commands (sh -c; GNU runs /bin/sh) for
// e and s///e and returns what it wrote to standard output.
func (r *sedRun) shell(cmd string) []byte {
	var buf bytes.Buffer
	r.env.Exec(r.env.Ctx, []string{"sh", "-c", cmd}, r.env.Stdin, &buf, r.env.Stderr)
	return buf.Bytes()
}

// shellOutput runs the pattern space as a command (e without one, s///e):
// its output less one trailing newline replaces the pattern space (GNU).
func (r *sedRun) shellOutput() []byte {
	out := r.shell(string(r.ps))
	return bytes.TrimSuffix(out, []byte{'\n'})
}

func (r *sedRun) subst(c *sedCmd) {
	re := r.regex(c.re)
	if re == nil {
		r.noPrevious()
		return
	}
	out := r.sbuf[:0]
	last, count := 0, 0
	replaced := false
	ps := r.ps
	// Without g, the nth match is the last one needed: asked for all, a
	// short subject's were all found first (`s/y/n/` on a line of 63 y
	// made 63 matches, each a backtracker's reset).
	n := -1
	if !c.global {
		n = c.nth
	}
	more := true
	err := r.zSegments(ps, func(off int, seg []byte) (bool, error) {
		err := re.FindAllContext(r.env.Ctx, seg, n, func(loc []int) bool {
			if off > 0 {
				loc = append([]int(nil), loc...)
				for i := range loc {
					if loc[i] >= 0 {
						loc[i] += off
					}
				}
			}
			count++
			if count == 1 && r.debug {
				r.debugRegisters(ps, loc)
			}
			if count < c.nth {
				return true
			}
			out = append(out, ps[last:loc[0]]...)
			out = sedAppendRepl(out, c.repl, ps, loc, c.cloc)
			last = loc[1]
			replaced = true
			more = c.global && !r.overBound(len(out)+len(ps)-last)
			return more
		})
		if n > 0 {
			n = max(c.nth-count, 1) // the matches still needed
		}
		return more, err
	})
	if err != nil {
		if r.env.Ctx.Err() == nil {
			r.runErr(err.Error())
		}
		return
	}
	if !replaced || r.failed {
		return
	}
	out = append(out, ps[last:]...)
	r.sbuf, r.ps = r.ps, out
	r.tflag = true
	if c.preP {
		r.out.line(r.ps, r.psNL, r.eol)
	}
	if c.eval {
		r.ps = append(r.ps[:0], r.shellOutput()...)
	}
	if c.print > 0 {
		r.out.line(r.ps, r.psNL, r.eol)
	}
	if c.wout != nil {
		c.wout.line(r.ps, r.psNL, r.eol)
	}
}

// sedCase is c in the case that mode asks for (\U \u \L \l), for every
// letter that has one as towupper and towlower see them in C.UTF-8.
func sedCase(c rune, mode byte) rune {
	switch mode {
	case 'U', 'u':
		return unicode.ToUpper(c)
	case 'L', 'l':
		return unicode.ToLower(c)
	}
	return c
}

// sedAppendRepl appends the replacement parts for the match loc of ps;
// cloc is the C locale, where only ASCII letters change case.
func sedAppendRepl(out []byte, parts []sedRepl, ps []byte, loc []int, cloc bool) []byte {
	var mode, once byte
	add := func(b []byte) {
		if mode == 0 && once == 0 {
			out = append(out, b...)
			return
		}
		for i := 0; i < len(b); {
			c, w := rune(b[i]), 1
			if c >= utf8.RuneSelf && !cloc {
				c, w = utf8.DecodeRune(b[i:])
			}
			m := mode
			if once != 0 {
				m, once = once, 0
			}
			if c >= utf8.RuneSelf && cloc {
				// GNU sed 4.9 under LC_ALL=C writes a byte of 0x80 and
				// over that a case conversion sees as 0xff (glibc's C
				// locale has no character for it).
				if m != 0 {
					out = append(out, 0xff)
				} else {
					out = append(out, b[i])
				}
			} else if c == utf8.RuneError && w == 1 {
				out = append(out, b[i]) // not UTF-8: left as it is
			} else {
				out = utf8.AppendRune(out, sedCase(c, m))
			}
			i += w
		}
	}
	for _, p := range parts {
		switch {
		case p.cas == 'U' || p.cas == 'L':
			mode, once = p.cas, 0 // GNU: \l\U is \U, \u\L is \L
		case p.cas == 'E':
			mode, once = 0, 0
		case p.cas != 0:
			once = p.cas
		case p.group >= 0:
			if 2*p.group+1 < len(loc) && loc[2*p.group] >= 0 {
				add(ps[loc[2*p.group]:loc[2*p.group+1]])
			}
		default:
			add(p.lit)
		}
	}
	return out
}

func (r *sedRun) yank(c *sedCmd) {
	out := r.sbuf[:0]
	for i := 0; i < len(r.ps); {
		b := r.ps[i]
		if c.cloc {
			// Each byte is a character, mapped to a byte (yank).
			if m, ok := c.ymap[rune(b)]; ok {
				b = byte(m)
			}
			out = append(out, b)
			i++
			continue
		}
		if b < utf8.RuneSelf {
			if m, ok := c.ymap[rune(b)]; ok {
				out = utf8.AppendRune(out, m)
			} else {
				out = append(out, b)
			}
			i++
			continue
		}
		ru, w := utf8.DecodeRune(r.ps[i:])
		if ru == utf8.RuneError && w == 1 {
			out = append(out, b)
		} else if m, ok := c.ymap[ru]; ok {
			out = utf8.AppendRune(out, m)
		} else {
			out = append(out, r.ps[i:i+w]...)
		}
		i += w
	}
	r.sbuf, r.ps = r.ps, out
}

// The bytes that the l command shows as a C escape, and its letters.
const sedListEscaped, sedListLetters = "\\\a\b\f\n\r\t\v", "\\abfnrtv"

// list is the l command: the pattern space unambiguously, wrapped so
// that a line with its backslash is at most width bytes (GNU: at width 1 every
// character starts a new line, the first one too).
func (r *sedRun) list(width int) {
	var b []byte
	col := 0
	var esc [4]byte
	for _, c := range r.ps {
		var e []byte
		if k := strings.IndexByte(sedListEscaped, c); k >= 0 {
			e = append(esc[:0], '\\', sedListLetters[k])
		} else if c < 32 || c >= 127 {
			e = append(esc[:0], '\\', '0'+c>>6, '0'+(c>>3)&7, '0'+c&7)
		} else {
			e = append(esc[:0], c)
		}
		if width > 0 && col+len(e) > width-1 {
			b = append(b, '\\', '\n')
			col = 0
		}
		b = append(b, e...)
		col += len(e)
	}
	b = append(b, '$', r.eol)
	r.out.text(string(b))
}

// sedAtoi is C's atoi: leading white space, a sign, the digits up to the
// first other byte; 0 when there are none. It saturates instead of
// overflowing.
func sedAtoi(s string) int {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] >= '\t' && s[i] <= '\r') {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	n := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		if n < 1<<31 {
			n = n*10 + int(s[i]-'0')
		}
	}
	if neg {
		return -n
	}
	return n
}

// flushForMessage is called before sed complains on standard error: with
// -u the lines so far come first, otherwise (as GNU's buffered stdout)
// they follow the message.
func (r *sedRun) flushForMessage() {
	if r.unbuffered {
		r.out.w.Flush()
	}
}
