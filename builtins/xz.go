package builtins

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
	"github.com/llmsh/llmsh/third_party/xz"
)

var _ = register(Builtin{Name: "xz", Summary: "compress or decompress .xz files", Run: xzCmd})
var _ = register(Builtin{Name: "unxz", Summary: "expand .xz files", Run: xzCmd})
var _ = register(Builtin{Name: "xzcat", Summary: "expand .xz files to standard output", Run: xzCmd})

var (
	errXzFormat   = errors.New("file format not recognized")
	errXzTooSmall = errors.New("too small to be a valid .xz file")
)

// xzDictCaps are the dictionary sizes of xz's presets -0 ... -9.
var xzDictCaps = [10]int{256 << 10, 1 << 20, 2 << 20, 4 << 20, 4 << 20, 8 << 20, 8 << 20, 16 << 20, 32 << 20, 64 << 20}

// xzConfig is what xz's command line asks for.
type xzConfig struct {
	mode  byte // 'z', 'd', 't' or 'l'
	level int
	check byte
	quiet int
}

const xzHelp = `Compress or decompress FILEs in the .xz format.

llmsh: compression is github.com/ulikunitz/xz's LZMA2 encoder; a preset
-0 ... -9 sets the dictionary size as xz's presets do (256 KiB ... 64 MiB),
and the output, while readable by xz, is not byte for byte what xz writes.
-e, -T and -v are accepted and change nothing.`

// xzCmd is XZ Utils 5.4's xz, unxz and xzcat through
// github.com/ulikunitz/xz.
func xzCmd(env *Env) int {
	t := &decompTool{env: env, suffixes: [][2]string{{".xz", ""}, {".txz", ".tar"}}, skipLinks: true}
	c := &xzConfig{mode: 'z', level: 6, check: xz.CRC64}
	switch env.Name() {
	case "unxz":
		c.mode = 'd'
	case "xzcat":
		c.mode, t.stdout = 'd', true
	}
	f := NewFlags(env, xzHelp, "[OPTION]... [FILE]...")
	for _, m := range []struct {
		c          byte
		long, help string
	}{{'z', "compress", "force compression"}, {'d', "decompress", "force decompression"},
		{0, "uncompress", ""}, {'t', "test", "test compressed file integrity"}, {'l', "list", "list information about .xz files"}} {
		mode := m.c
		if mode == 0 {
			mode = 'd'
		}
		f.Func(rune(m.c), m.long, NoArg, "", m.help, func(string, bool) error { c.mode = mode; return nil })
	}
	f.BoolVar(&t.keep, 'k', "keep", "keep (don't delete) input files")
	f.BoolVar(&t.force, 'f', "force", "force overwrite of output file and (de)compress links")
	f.BoolVar(&t.stdout, 'c', "stdout", "write to standard output and don't delete input files")
	f.BoolVar(&t.stdout, 0, "to-stdout", "")
	f.CountVar(&c.quiet, 'q', "quiet", "suppress warnings; specify twice to suppress errors too")
	f.Bool('v', "verbose", "be verbose (llmsh: accepted, ignored)")
	f.Bool('e', "extreme", "try to improve compression ratio by using more CPU time (accepted)")
	f.Func('T', "threads", RequiredArg, "NUM", "use at most NUM threads (accepted, ignored)", func(string, bool) error { return nil })
	f.Func('F', "format", RequiredArg, "FMT", "file format: 'auto' (default) or 'xz'", func(v string, _ bool) error {
		switch v {
		case "auto", "xz":
		case "lzma", "alone", "raw":
			return &xzUsage{"--format=" + v + ": not supported by llmsh (only xz)"}
		default:
			return &xzUsage{v + ": Unknown file format type"}
		}
		return nil
	})
	f.Func('C', "check", RequiredArg, "CHECK", "integrity check type: 'none', 'crc32', 'crc64' (default) or 'sha256'", func(v string, _ bool) error {
		checks := map[string]byte{"none": xz.None, "crc32": xz.CRC32, "crc64": xz.CRC64, "sha256": xz.SHA256}
		ck, ok := checks[v]
		if !ok {
			return &xzUsage{v + ": Unsupported integrity check type"}
		}
		c.check = ck
		return nil
	})
	suffix := ""
	f.Func('S', "suffix", RequiredArg, ".SUF", "use the suffix '.SUF' on compressed files", func(v string, _ bool) error {
		if v == "" || strings.Contains(v, "/") {
			return &xzUsage{v + ": Invalid filename suffix"}
		}
		suffix = v
		return nil
	})
	for d := '0'; d <= '9'; d++ {
		lvl := int(d - '0')
		long := map[rune]string{'0': "fast", '9': "best"}[d]
		f.Func(d, long, NoArg, "", "", func(string, bool) error { c.level = lvl; return nil })
	}
	version := f.Bool('V', "version", "display the version number and exit")
	shortHelpVersion(f, 'h')
	// --long-help: llmsh's help is the one text.
	f.Func('H', "long-help", NoArg, "", "display the long help (lists also the advanced options)", func(string, bool) error { return ErrHelp })
	files, err := f.Parse(env.Args[1:])
	var xu *xzUsage
	if errors.As(err, &xu) {
		env.Errorf("%s", xu.msg)
		return 1
	}
	if msg, ok := usageMessage(err); ok {
		// xz 5.4's getopt message and its own Try line, both prefixed.
		env.Errorf("%s", msg)
		env.Errorf("Try `%s --help' for more information.", env.Name())
		return 1
	}
	if err != nil {
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	t.quiet = c.quiet > 0
	if suffix != "" {
		t.suffixes = append([][2]string{{suffix, ""}}, t.suffixes...)
	}
	t.report = xzReporter(t, c)
	switch c.mode {
	case 'l':
		return xzList(env, files, c)
	case 't':
		t.test = true
	case 'z':
		return xzCompress(t, c, files, suffix)
	}
	t.newReader = xzReader
	t.noSuffix = func(name string) string {
		t.warn("%s: Filename has an unknown suffix, skipping", name)
		return ""
	}
	return t.run(files)
}

// xzUsage is a bad option value, reported as xz reports it (no usage
// line), exit status 1.
type xzUsage struct{ msg string }

func (e *xzUsage) Error() string { return e.msg }

func xzReader(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	if magic, _ := br.Peek(6); string(magic) != "\xfd7zXZ\x00" {
		return nil, errXzFormat
	}
	return xz.NewReader(br)
}

// xzCompress compresses each FILE to FILE.xz (or standard output).
func xzCompress(t *decompTool, c *xzConfig, files []string, suffix string) int {
	env := t.env
	if len(files) == 0 {
		files = []string{"-"}
	}
	for _, name := range files {
		if (name == "-" || t.stdout) && env.Terminal {
			env.Errorf("Compressed data cannot be written to a terminal")
			return 1
		}
	}
	t.newWriter = func(w io.Writer) (io.WriteCloser, error) {
		cfg := xz.WriterConfig{DictCap: xzDictCaps[c.level], CheckSum: c.check, NoCheckSum: c.check == xz.None}
		return cfg.NewWriter(w)
	}
	t.outName = func(name string) string {
		base := path.Base(name)
		for _, sf := range t.suffixes {
			if strings.HasSuffix(base, sf[0]) {
				t.warn("%s: File already has `%s' suffix, skipping", name, sf[0])
				return ""
			}
		}
		if suffix == "" {
			suffix = ".xz"
		}
		return name + suffix
	}
	return t.run(files)
}

// xzReporter returns the report function of t: xz's messages.
func xzReporter(t *decompTool, c *xzConfig) func(name, out string, err error) {
	env := t.env
	return func(name, out string, err error) {
		shown := name
		if name == "-" {
			shown = "(stdin)"
		}
		if errors.Is(err, errReadDir) {
			t.warn("%s: Is a directory, skipping", name)
			return
		}
		if errors.Is(err, errDecompLink) {
			t.warn("%s: Is a symbolic link, skipping", name)
			return
		}
		t.status = 1
		if c.quiet > 1 {
			return
		}
		var format decompFormat
		var we gnu.WriteError
		switch {
		case errors.Is(err, gnu.ErrCancelled):
		case errors.Is(err, errDecompExists):
			env.Errorf("%s: File exists", out)
		case errors.As(err, &we):
			if !IsBrokenPipe(err) {
				if out == "" {
					out = "(stdout)"
				}
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
}
