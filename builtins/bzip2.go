package builtins

import (
	"compress/bzip2"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	"github.com/llmsh/llmsh/builtins/internal/bzenc"
	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "bzip2", Summary: "a block-sorting file compressor", Run: bzip2Cmd})
var _ = register(Builtin{Name: "bunzip2", Summary: "expand bzip2 files", Run: bzip2Cmd})
var _ = register(Builtin{Name: "bzcat", Summary: "expand bzip2 files to standard output", Run: bzip2Cmd})

// bzip2Cmd is bzip2 1.0.8: decompression (-d, bunzip2, bzcat) through
// compress/bzip2, compression through bzenc (GNU's bytes).
func bzip2Cmd(env *Env) int {
	t := &decompTool{env: env, suffixes: [][2]string{{".bz2", ""}, {".bz", ""}, {".tbz2", ".tar"}, {".tbz", ".tar"}}}
	decompress := env.Name() != "bzip2"
	t.stdout = env.Name() == "bzcat"
	f := NewFlags(env, "bzip2, a block-sorting file compressor.\n\n"+
		"   If invoked as `bzip2', default action is to compress.\n"+
		"              as `bunzip2',  default action is to decompress.\n"+
		"              as `bzcat', default action is to decompress to stdout.", "[flags and input files in any order]")
	f.BoolVar(&decompress, 'd', "decompress", "force decompression")
	compress := f.Bool('z', "compress", "force compression")
	f.BoolVar(&t.keep, 'k', "keep", "keep (don't delete) input files")
	f.BoolVar(&t.force, 'f', "force", "overwrite existing output files")
	f.BoolVar(&t.test, 't', "test", "test compressed file integrity")
	f.BoolVar(&t.stdout, 'c', "stdout", "output to standard out")
	f.BoolVar(&t.quiet, 'q', "quiet", "suppress noncritical error messages")
	f.Bool('v', "verbose", "be verbose (ignored)")
	f.Bool('s', "small", "use less memory (ignored)")
	level := 9
	for d := '1'; d <= '9'; d++ {
		f.Func(d, "", NoArg, "", "", func(string, bool) error { level = int(d - '0'); return nil })
	}
	f.Func(0, "fast", NoArg, "", "alias for -1", func(string, bool) error { level = 1; return nil })
	f.Func(0, "best", NoArg, "", "alias for -9", func(string, bool) error { level = 9; return nil })
	version := f.Bool('V', "version", "display software version & license")
	f.Bool('L', "license", "")
	args, st := bzip2Flags(env, env.Args[1:])
	if st >= 0 {
		return st
	}
	files, err := f.Parse(args)
	if err != nil {
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	if t.test {
		decompress = true
	}
	if *compress || !decompress {
		if !bzip2Compressor(t, files, level) {
			return 1
		}
	}
	t.newReader = func(r io.Reader) (io.Reader, error) { return bzip2.NewReader(r), nil }
	t.noSuffix = func(name string) string {
		if !t.quiet {
			env.Errorf("Can't guess original name for %s -- using %s.out", name, name)
		}
		return name + ".out"
	}
	t.report = func(name, out string, err error) {
		shown := name
		if name == "-" {
			shown = "(stdin)"
		}
		var format decompFormat
		var we gnu.WriteError
		switch {
		case errors.Is(err, gnu.ErrCancelled):
			t.status = max(t.status, 1)
		case errors.Is(err, errDecompExists):
			env.Errorf("Output file %s already exists.", out)
			t.status = max(t.status, 1)
		case errors.As(err, &we):
			if !IsBrokenPipe(err) {
				env.Errorf("Can't create output file %s: %s.", out, ErrText(we.Err))
			}
			t.status = max(t.status, 1)
		case errors.As(err, &format) && bzip2Magic(format.err):
			env.Errorf("%s is not a bzip2 file.", shown)
			t.status = max(t.status, 2)
		case errors.As(err, &format):
			fmt.Fprintf(env.Stderr, "%s: Data integrity error when decompressing.\n\tInput file = %s, output file = %s\n", env.Name(), shown, bzip2Out(out))
			t.status = max(t.status, 2)
		default:
			var pe *fs.PathError
			if errors.As(err, &pe) || errors.Is(err, errReadDir) {
				env.Errorf("Can't open input file %s: %s.", name, ErrText(err))
			} else {
				env.Errorf("%s: %s.", shown, ErrText(err))
			}
			t.status = max(t.status, 1)
		}
	}
	return t.run(files)
}

// bzip2Compressor sets t to compress (blocks of level*100k) as bzip2
// does; false if the output would be a terminal.
func bzip2Compressor(t *decompTool, files []string, level int) bool {
	env := t.env
	if env.Terminal && (t.stdout || len(files) == 0 || slices.Contains(files, "-")) {
		env.Errorf("I won't write compressed data to a terminal.")
		env.Errorf("For help, type: `bzip2 --help'.")
		return false
	}
	t.newWriter = func(w io.Writer) (io.WriteCloser, error) { return bzenc.NewWriter(w, level), nil }
	t.outName = func(name string) string {
		for _, sf := range t.suffixes {
			if strings.HasSuffix(name, sf[0]) {
				env.Errorf("Input file %s already has %s suffix.", name, sf[0])
				t.status = max(t.status, 1)
				return ""
			}
		}
		return name + ".bz2"
	}
	return true
}

// bzip2Magic reports whether err is compress/bzip2's refusal of the
// stream's first bytes.
func bzip2Magic(err error) bool {
	var se bzip2.StructuralError
	return errors.As(err, &se) && (string(se) == "bad magic value" || string(se) == "non-Huffman entropy encoding" || string(se) == "invalid compression level")
}

func bzip2Out(out string) string {
	if out == "" {
		return "(stdout)"
	}
	return out
}

// bzip2LongFlags are bzip2's long flags: it takes them whole, never a
// prefix; the redundant ones warn.
var bzip2LongFlags = []string{"--stdout", "--decompress", "--compress", "--force", "--test", "--keep",
	"--small", "--quiet", "--version", "--license", "--exponential", "--repetitive-best",
	"--repetitive-fast", "--fast", "--best", "--verbose", "--help"}

// bzip2Flags checks the arguments as bzip2 1.0.8's own parser does (flags
// up to "--"): a long flag that is not one of its own whole, or a short
// one it lacks, is "Bad flag `ARG'" and its usage (status 1); -h prints
// the usage (status 0). It returns the arguments for the option parser,
// without the flags that change nothing, and -1, or a status to end with.
func bzip2Flags(env *Env, args []string) ([]string, int) {
	out := make([]string, 0, len(args))
	for i, a := range args {
		switch {
		case a == "--":
			return append(out, args[i:]...), -1
		case strings.HasPrefix(a, "--"):
			if !slices.Contains(bzip2LongFlags, a) {
				return nil, bzip2Bad(env, a)
			}
			switch a {
			case "--repetitive-best", "--repetitive-fast":
				fmt.Fprintf(env.Stderr, "%s: %s is redundant in versions 0.9.5 and above\n", env.Name(), a)
				continue
			case "--exponential":
				continue // the work factor: the output is the same
			}
		case len(a) > 1 && a[0] == '-':
			for _, c := range a[1:] {
				if c == 'h' {
					bzip2Usage(env)
					return nil, 0
				}
				if !strings.ContainsRune("cdzkftqvsLV123456789", c) {
					return nil, bzip2Bad(env, a)
				}
			}
		}
		out = append(out, a)
	}
	return out, -1
}

// bzip2Bad is bzip2's complaint about a flag, then its usage.
func bzip2Bad(env *Env, a string) int {
	fmt.Fprintf(env.Stderr, "%s: Bad flag `%s'\n", env.Name(), a)
	bzip2Usage(env)
	return 1
}

// bzip2Usage is bzip2 1.0.8's usage, on standard error.
func bzip2Usage(env *Env) {
	fmt.Fprint(env.Stderr, strings.Replace(`bzip2, a block-sorting file compressor.  Version 1.0.8, 13-Jul-2019.

   usage: bzip2 [flags and input files in any order]

   -h --help           print this message
   -d --decompress     force decompression
   -z --compress       force compression
   -k --keep           keep (don't delete) input files
   -f --force          overwrite existing output files
   -t --test           test compressed file integrity
   -c --stdout         output to standard out
   -q --quiet          suppress noncritical error messages
   -v --verbose        be verbose (a 2nd -v gives more)
   -L --license        display software version & license
   -V --version        display software version & license
   -s --small          use less memory (at most 2500k)
   -1 .. -9            set block size to 100k .. 900k
   --fast              alias for -1
   --best              alias for -9

   If invoked as `+"`"+`bzip2', default action is to compress.
              as `+"`"+`bunzip2',  default action is to decompress.
              as `+"`"+`bzcat', default action is to decompress to stdout.

   If no file names are given, bzip2 compresses or decompresses
   from standard input to standard output.  You can combine
   short flags, so `+"`"+`-v -4' means the same as -v4 or -4v, &c.

`, "usage: bzip2 [", "usage: "+env.Args[0]+" [", 1))
}
