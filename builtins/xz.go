package builtins

import (
	"bufio"
	"errors"
	"io"
	"io/fs"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
	"github.com/ulikunitz/xz"
)

func init() {
	for _, n := range []string{"xz", "unxz", "xzcat"} {
		Register(Builtin{Name: n, Summary: map[string]string{
			"xz":    "compress or decompress .xz files (llmsh: decompression only)",
			"unxz":  "expand .xz files",
			"xzcat": "expand .xz files to standard output",
		}[n], Run: xzCmd})
	}
}

var errXzFormat = errors.New("file format not recognized")

// xzCmd is XZ Utils 5.4's decompression (-d, unxz, xzcat) through
// github.com/ulikunitz/xz. Compressing is refused.
func xzCmd(env *Env) int {
	t := &decompTool{env: env, suffixes: [][2]string{{".xz", ""}, {".txz", ".tar"}}}
	decompress := env.Name() != "xz"
	t.stdout = env.Name() == "xzcat"
	f := NewFlags(env, "Compress or decompress FILEs in the .xz format; in llmsh, decompress only.", "[OPTION]... [FILE]...")
	compress := f.Bool('z', "compress", "force compression (not supported by llmsh)")
	f.BoolVar(&decompress, 'd', "decompress", "force decompression")
	f.BoolVar(&decompress, 0, "uncompress", "")
	f.BoolVar(&t.test, 't', "test", "test compressed file integrity")
	f.BoolVar(&t.keep, 'k', "keep", "keep (don't delete) input files")
	f.BoolVar(&t.force, 'f', "force", "force overwrite of output file")
	f.BoolVar(&t.stdout, 'c', "stdout", "write to standard output and don't delete input files")
	f.BoolVar(&t.stdout, 0, "to-stdout", "")
	f.BoolVar(&t.quiet, 'q', "quiet", "suppress warnings")
	f.Bool('v', "verbose", "be verbose (ignored)")
	f.Func('T', "threads", RequiredArg, "NUM", "use at most NUM threads (ignored)", func(string, bool) error { return nil })
	for d := '0'; d <= '9'; d++ {
		f.Bool(d, "", "")
	}
	version := f.Bool('V', "version", "display the version number and exit")
	files, err := f.Parse(env.Args[1:])
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
		env.Errorf("compression is not supported by llmsh (xz -d, unxz and xzcat decompress)")
		return 1
	}
	t.newReader = func(r io.Reader) (io.Reader, error) {
		br := bufio.NewReader(r)
		if magic, _ := br.Peek(6); string(magic) != "\xfd7zXZ\x00" {
			return nil, errXzFormat
		}
		return xz.NewReader(br)
	}
	t.noSuffix = func(name string) string {
		if !t.quiet {
			env.Errorf("%s: Filename has an unknown suffix, skipping", name)
			t.status = max(t.status, 2)
		}
		return ""
	}
	t.report = func(name, out string, err error) {
		shown := name
		if name == "-" {
			shown = "(stdin)"
		}
		t.status = max(t.status, 1)
		var format decompFormat
		var we gnu.WriteError
		switch {
		case errors.Is(err, gnu.ErrCancelled):
		case errors.Is(err, errDecompExists):
			env.Errorf("%s: File exists", out)
		case errors.As(err, &we):
			if !IsBrokenPipe(err) {
				env.Errorf("%s: %s", out, ErrText(we.Err))
			}
		case errors.As(err, &format):
			switch msg := format.err.Error(); {
			case format.err == errXzFormat || msg == "xz: invalid header magic bytes":
				env.Errorf("%s: File format not recognized", shown)
			case errors.Is(format.err, io.EOF) || errors.Is(format.err, io.ErrUnexpectedEOF):
				env.Errorf("%s: Unexpected end of input", shown)
			default:
				env.Errorf("%s: Compressed data is corrupt", shown)
			}
		default:
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			env.Errorf("%s: %s", shown, ErrText(err))
		}
	}
	return t.run(files)
}
