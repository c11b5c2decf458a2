package builtins

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
)

// zgrep runs grep over each file as gzip -cdfq gives it (compressed
// files decompressed, others as they are), as gzip 1.12's zgrep script
// does: its option handling, its names on each line, and its rules for
// combining the statuses of gzip and grep.
var _ = register(Builtin{Name: "zgrep", Summary: "search possibly compressed files for a regular expression", Run: zgrep})

const zgrepUsage = `Usage: %s [OPTION]... [-e] PATTERN [FILE]...
Look for instances of PATTERN in the input FILEs, using their
uncompressed contents if they are compressed.

OPTIONs are the same as for 'grep', except that the following 'grep'
options are not supported: --dereference-recursive (-R), --directories (-d),
--exclude, --exclude-from, --exclude-dir, --include, --null (-Z),
--null-data (-z), and --recursive (-r).
`

// zgrepOptRE holds the patterns zgrep sorts grep's options by, compiled on
// first use: compiled in package init they cost every start of llmsh
// 50 KB and 500 allocations (TestStartupInit).
type zgrepOptRE struct {
	// A cluster of short options after the first: "-in" is "-i" "-n".
	cluster, argOpt, longEq, refused *regexp.Regexp
}

var zgrepOptPatterns = sync.OnceValue(func() *zgrepOptRE {
	return &zgrepOptRE{
		cluster: regexp.MustCompile(`^-[0-9EFGHIKLPRTUVZabchilnoqrsuvwxyz][0-9]*([^0-9].*)$`),
		argOpt:  regexp.MustCompile(`^(-[ABCDXdefm]|--binary-.*|--file|--[lm]a.*|--reg.*)$`),
		longEq:  regexp.MustCompile(`^(--binary-.*=.*|--[lm]a.*=.*|--reg.*=.*)$`),
		refused: regexp.MustCompile(`^(-[drRzZ]|--di.*|--exc.*|--inc.*|--rec.*|--nu.*)$`),
	}
})

// zgrepLong reports whether opt is a prefix (of at least min bytes) of
// the long option long, as the script's case patterns list them.
func zgrepLong(opt, long string, min int) bool {
	return len(opt) >= min && strings.HasPrefix(long, opt)
}

type zgrepOpts struct {
	args                 []string // for grep, the pattern last
	operands             []string
	havePat              bool
	withMatches, without bool
	noName, withName     bool
}

// parse reads the command line as the script does; done means the
// command has ended with status.
func (o *zgrepOpts) parse(env *Env, argv []string) (status int, done bool) {
	name := env.Name()
	re := zgrepOptPatterns()
	for len(argv) > 0 {
		opt := argv[0]
		argv = argv[1:]
		if m := re.cluster.FindStringSubmatch(opt); m != nil && !re.longEq.MatchString(opt) {
			argv = append([]string{"-" + m[1]}, argv...)
			opt = opt[:len(opt)-len(m[1])]
		}
		var optarg []string
		switch {
		case re.longEq.MatchString(opt):
		case re.argOpt.MatchString(opt):
			if len(argv) == 0 {
				env.Errorf("%s option requires an argument", opt)
				return 2, true
			}
			optarg, argv = argv[:1], argv[1:]
		case strings.HasPrefix(opt, "-f") && len(opt) > 2:
			opt, optarg = "-f", []string{opt[2:]}
		case strings.HasPrefix(opt, "--file="):
			opt, optarg = "--file", []string{opt[len("--file="):]}
		case opt == "--":
			o.operands = append(o.operands, argv...)
			argv = nil
			continue
		case len(opt) > 1 && opt[0] == '-':
		default:
			o.operands = append(o.operands, opt)
			if _, ok := envLookup(env.Environ, "POSIXLY_CORRECT"); ok {
				o.operands = append(o.operands, argv...)
				argv = nil
			}
			continue
		}
		switch {
		case re.refused.MatchString(opt):
			fmt.Fprintf(env.Stderr, "%s: %s: option not supported\n", name, opt)
			return 2, true
		case strings.HasPrefix(opt, "-e") || strings.HasPrefix(opt, "--reg") || opt == "-f" || opt == "--file":
			o.havePat = true
		case zgrepLong(opt, "--help", 3):
			fmt.Fprintf(env.Stdout, zgrepUsage, name)
			return 0, true
		case opt == "-H" || zgrepLong(opt, "--with-filename", 4):
			o.withName = true
			continue
		case opt == "-l" || strings.HasPrefix(opt, "--files-with-"):
			o.withMatches = true
		case opt == "-L" || strings.HasPrefix(opt, "--files-witho"):
			o.without = true
		case opt == "-h" || strings.HasPrefix(opt, "--no-f"):
			o.noName = true
		case opt == "-V" || zgrepLong(opt, "--version", 3):
			return printVersion(env), true
		}
		o.args = append(append(o.args, opt), optarg...)
	}
	if !o.havePat {
		if len(o.operands) == 0 {
			env.Errorf("missing pattern; try '%s --help' for help", name)
			return 2, true
		}
		o.args = append(o.args, "--", o.operands[0])
		o.operands = o.operands[1:]
	}
	if len(o.operands) == 0 {
		o.operands = []string{"-"}
	} else if len(o.operands) > 1 && !o.noName {
		o.withName = true
	}
	return 0, false
}

func zgrep(env *Env) int {
	var o zgrepOpts
	if st, done := o.parse(env, env.Args[1:]); done {
		return st
	}
	res := 1
	for _, file := range o.operands {
		r := o.one(env, file)
		if r <= 1 && res <= 1 {
			res = min(res, r)
		} else {
			res = max(res, r)
		}
		if res >= 126 || env.Ctx.Err() != nil {
			break
		}
	}
	return res
}

// zgrepPipe is the pipe from gzip to grep; it remembers whether gzip
// wrote after grep had stopped reading.
type zgrepPipe struct {
	*io.PipeWriter
	closed bool
}

func (p *zgrepPipe) Write(b []byte) (int, error) {
	n, err := p.PipeWriter.Write(b)
	if errors.Is(err, io.ErrClosedPipe) {
		p.closed = true
	}
	return n, err
}

// one runs gzip -cdfq -- FILE into grep and returns the file's status.
func (o *zgrepOpts) one(env *Env, file string) int {
	gz, _ := Lookup("gzip")
	grep, _ := Lookup("grep")
	pr, pw := io.Pipe()
	pipe := &zgrepPipe{PipeWriter: pw}
	gzEnv := *env
	gzEnv.Args = []string{"gzip", "-cdfq", "--", file}
	gzEnv.Stdout = pipe
	gzDone := make(chan int, 1)
	go func() {
		st := Run(gz, &gzEnv)
		pw.Close()
		gzDone <- st
	}()

	args := []string{"grep"}
	if o.withName {
		args = append(args, "-H")
	}
	plain := !o.withMatches && !o.without
	if plain && file != "-" {
		args = append(args, "--label", file)
	}
	grepEnv := *env
	grepEnv.Args = append(args, o.args...)
	grepEnv.Stdin = pr
	if !plain {
		grepEnv.Stdout = io.Discard
	}
	r := Run(grep, &grepEnv)
	pr.CloseWithError(io.ErrClosedPipe)
	gzStatus := <-gzDone
	switch {
	case o.withMatches && r == 0, o.without && r == 1:
		fmt.Fprintln(env.Stdout, file)
	}
	switch {
	case pipe.closed, gzStatus == 2: // grep stopped reading; a warning
		gzStatus = 0
	case gzStatus == 1:
		gzStatus = 2
	}
	return max(r, gzStatus)
}

// zegrep and zfgrep are gzip's scripts "exec zgrep -E" and "-F".
var _ = register(Builtin{Name: "zegrep", Summary: "zgrep -E", Run: func(env *Env) int { return zgrepWith(env, "-E") }})
var _ = register(Builtin{Name: "zfgrep", Summary: "zgrep -F", Run: func(env *Env) int { return zgrepWith(env, "-F") }})

func zgrepWith(env *Env, opt string) int {
	sub := *env
	sub.Args = append([]string{"zgrep", opt}, env.Args[1:]...)
	return zgrep(&sub)
}
