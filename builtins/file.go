package builtins

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"debug/elf"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
	"time"
	"unicode/utf8"
)

var _ = register(Builtin{Name: "file", Summary: "determine file type (by content, as file 5.44 for common types)", Run: fileCmd})

// fileReadMax is how much of a file is examined (file reads up to 7 MiB
// of it; ELF details need the section headers, usually further on).
const fileReadMax = 8 << 20

func fileCmd(env *Env) int {
	f := NewFlags(env, "Determine the type of each FILE by its content: the common magic numbers\n"+
		"(ELF, PNG, JPEG, GIF, PDF, PostScript, RTF, gzip, bzip2, xz, zip, tar),\n"+
		"text encodings and line terminators, JSON, CSV, scripts by their #! line,\n"+
		"Python, C, C++, diff and makefile texts by file's own text rules, and keys,\n"+
		"mail and a few more by how they start, as file 5.44 words them.", "[OPTION...] [FILE...]")
	brief := f.Bool('b', "brief", "do not prepend filenames to output lines")
	mime := f.Bool('i', "mime", "output MIME type strings (--mime-type and\n                             --mime-encoding)")
	mimeType := f.Bool(0, "mime-type", "output the MIME type")
	mimeEnc := f.Bool(0, "mime-encoding", "output the MIME encoding")
	follow := f.Bool('L', "dereference", "follow symlinks")
	f.Func('h', "no-dereference", NoArg, "", "don't follow symlinks (default)", func(string, bool) error { *follow = false; return nil })
	version := f.Bool('v', "version", "output version information and exit")
	o := fileOut{sep: ":"}
	o.flags(f, env)
	// file 5.44's usage, after a bad option or without an operand
	usage := func() int {
		env.Stderr.Write([]byte("Usage: file [-bcCdEhikLlNnprsSvzZ0] [--apple] [--extension] [--mime-encoding]\n" +
			"            [--mime-type] [-e <testname>] [-F <separator>]  [-f <namefile>]\n" +
			"            [-m <magicfiles>] [-P <parameter=value>] [--exclude-quiet]\n" +
			"            <file> ...\n       file -C [-m <magicfiles>]\n       file [--help]\n"))
		return 1
	}
	names, err := f.Parse(env.Args[1:])
	if msg, ok := usageMessage(err); ok {
		fmt.Fprintf(env.Stderr, "file: %s\n", msg)
		return usage()
	}
	if err != nil {
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	if o.fatal != "" {
		env.Errorf("%s", o.fatal)
		return 1
	}
	if o.badTest || len(names) == 0 && len(o.lists) == 0 {
		return usage()
	}
	w := stdoutWriter(env)
	for _, list := range append(o.lists, names) {
		if !o.describe(env, w, list, func(n string) string {
			desc, mt, enc, outer := fileDescribe(env, n, o.shown(n), *follow, &o)
			switch {
			case *mime || *mimeType && *mimeEnc:
				if enc != "" {
					desc = mt + "; charset=" + enc
				} else {
					desc = mt
				}
				if outer != "" {
					desc += " compressed-encoding=" + outer + "; charset=binary"
				}
			case *mimeType:
				desc = mt
			case *mimeEnc:
				desc = enc
			}
			return desc
		}, *brief) {
			return 1
		}
	}
	return finishOutput(env, w, 0)
}

// fileOut is how file prints its lines: -F, -N, -0, -r, and the names
// read by -f.
type fileOut struct {
	sep     string
	noPad   bool
	nul     int // -0 given once: NUL after the name; twice: NUL-ended lines
	raw     bool
	unz     int        // -z: 1, -Z: 2, describe what a compressed file holds
	lists   [][]string // the names of each -f FILE
	fatal   string     // an -f FILE that cannot be read
	special bool       // -s: read devices as ordinary files
	noText  bool       // -e ascii, -e text: the text tests are not made
	skip    fileSkip   // -e soft, json, csv: those tests are not made
	badTest bool       // -e NAME names no test: file's usage
}

func (o *fileOut) flags(f *Flags, env *Env) {
	f.StringVar(&o.sep, 'F', "separator", "STRING", "use string as separator instead of `:'")
	f.BoolVar(&o.noPad, 'N', "no-pad", "do not pad output")
	f.Func('0', "print0", NoArg, "", "terminate filenames with ASCII NUL", func(string, bool) error {
		o.nul++
		return nil
	})
	f.BoolVar(&o.raw, 'r', "raw", "don't translate unprintable chars to \\ooo")
	f.Func('f', "files-from", RequiredArg, "FILE", "read the filenames to be examined from FILE", func(v string, _ bool) error {
		data, err := readWholeFile(env, v)
		if err != nil {
			if o.fatal == "" {
				o.fatal = "Cannot open `" + v + "' (" + ErrText(err) + ")"
			}
			return nil
		}
		o.lists = append(o.lists, strings.Split(strings.TrimSuffix(string(data), "\n"), "\n"))
		return nil
	})
	f.Func('z', "uncompress", NoArg, "", "try to look inside compressed files", func(string, bool) error {
		o.unz = max(o.unz, 1)
		return nil
	})
	f.Func('Z', "uncompress-noreport", NoArg, "", "only print the contents of compressed files", func(string, bool) error {
		o.unz = 2
		return nil
	})
	noop := func(string, bool) error { return nil }
	f.Func('n', "no-buffer", NoArg, "", "do not buffer output", noop)
	f.Func('p', "preserve-date", NoArg, "", "preserve access times on files (llmsh's reads change none)", noop)
	f.Func('k', "keep-going", NoArg, "", "don't stop at the first match (llmsh: the first match only)", noop)
	f.Func('e', "exclude", RequiredArg, "TEST", "exclude TEST from the list of tests made to determine the file type:\napptype, ascii, cdf, compress, csv, elf, encoding, json, simh, soft, tar,\ntext, tokens (llmsh: apptype, cdf, compress, elf, encoding, simh, tar and\ntokens change nothing)", func(v string, _ bool) error {
		switch v {
		case "ascii", "text":
			o.noText = true
		case "soft":
			o.skip.soft = true
		case "json":
			o.skip.json = true
		case "csv":
			o.skip.csv = true
		case "apptype", "cdf", "compress", "elf", "encoding", "simh", "tar", "tokens":
		default:
			o.badTest = true
		}
		return nil
	})
	f.Func('s', "special-files", NoArg, "", "treat special (block/char devices) files as ordinary ones", func(string, bool) error {
		o.special = true
		return nil
	})
	f.Func('S', "no-sandbox", NoArg, "", "disable system call sandboxing (file runs none here)", noop)
}

// describe prints the line of each name of list, its description from
// desc; false when the output failed or the run was cancelled.
func (o *fileOut) describe(env *Env, w *bufio.Writer, list []string, desc func(string) string, brief bool) bool {
	width := 0
	for _, n := range list {
		width = max(width, len(o.shown(n)))
	}
	for _, n := range list {
		if env.Ctx.Err() != nil {
			w.Flush()
			return false
		}
		d := desc(n)
		if !brief {
			shown := o.shown(n)
			w.WriteString(shown)
			if o.nul > 0 {
				w.WriteByte(0)
			}
			if o.nul < 2 {
				pad := width - len(shown)
				if o.noPad {
					pad = 0
				}
				w.WriteString(o.sep + strings.Repeat(" ", pad+1))
			}
		}
		end := "\n"
		if o.nul >= 2 {
			end = "\x00"
		}
		if _, err := w.WriteString(d + end); err != nil {
			writeFailed(env, err)
			return false
		}
	}
	return true
}

// shown is name as file writes it: its control characters as \ooo
// unless -r.
func (o *fileOut) shown(name string) string {
	if o.raw {
		return name
	}
	return filePrintable(name)
}

// filePrintable writes the control characters of a name as \ooo, as
// file does without -r.
func filePrintable(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 32 || c == 127 {
			fmt.Fprintf(&b, "\\%03o", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// fileDescribe returns file's text, MIME type and MIME encoding for name.
// shown is name as file writes it in its messages (escaped as in the
// line's name).
func fileDescribe(env *Env, name, shown string, follow bool, o *fileOut) (desc, mimeType, enc, outerMime string) {
	if name == "" {
		return "cannot open `' (No such file or directory)", "", "", ""
	}
	abs := env.Abs(name)
	fi, err := env.FS.Lstat(abs)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		target, _ := env.FS.Readlink(abs)
		if !follow {
			if _, serr := env.FS.Stat(abs); serr != nil {
				return "broken symbolic link to " + target, "inode/symlink", "", ""
			}
			return "symbolic link to " + target, "inode/symlink", "binary", ""
		}
		fi, err = env.FS.Stat(abs)
	}
	if err != nil {
		return "cannot open `" + shown + "' (" + ErrText(err) + ")", "", "", ""
	}
	switch {
	case fi.IsDir():
		return "directory", "inode/directory", "binary", ""
	case fi.Mode()&fs.ModeCharDevice != 0 && !o.special:
		major, minor, _ := deviceNumbers(fi)
		return fmt.Sprintf("character special (%d/%d)", major, minor), "inode/chardevice", "binary", ""
	case fi.Size() == 0 && fi.Mode().IsRegular():
		return "empty", "inode/x-empty", "binary", ""
	}
	r, err := env.Open(name)
	if err != nil {
		return "cannot open `" + shown + "' (" + ErrText(err) + ")", "", "", ""
	}
	data, err := readAllCtx(env, io.LimitReader(r, fileReadMax))
	r.Close()
	if err != nil {
		return "cannot read `" + shown + "' (" + ErrText(err) + ")", "", "", ""
	}
	if o.unz > 0 {
		if d, mt, enc, outer, ok := fileUncompressed(env, data, o.unz); ok {
			return d, mt, enc, outer
		}
	}
	whole := int64(len(data)) == fi.Size()
	if o.noText {
		// -e ascii (-e text): a file only the text tests would name is
		// data; JSON's test is another (file 5.44).
		if _, _, magic := fileMagic(data, whole); !magic {
			if _, mt, enc := fileText(data); mt != "application/json" && mt != "application/x-ndjson" && mt != "image/svg+xml" {
				return "data", "application/octet-stream", enc, ""
			}
		}
	}
	if o.skip != (fileSkip{}) {
		desc, mimeType, enc = fileDescribeSkip(data, whole, o.skip)
		return desc, mimeType, enc, ""
	}
	desc, mimeType, enc = fileDescribeData(data, whole)
	return desc, mimeType, enc, ""
}

// fileUncompressed describes what a gzip, bzip2 or xz file holds (-z,
// with the compressed data's description after it in parentheses; -Z
// alone); false when data is none of these or cannot be read.
func fileUncompressed(env *Env, data []byte, unz int) (desc, mimeType, enc, outerMime string, ok bool) {
	outer, mt, isMagic := fileMagic(data, false)
	if !isMagic {
		return "", "", "", "", false
	}
	var r io.Reader
	var err error
	switch mt {
	case "application/gzip":
		r, err = gzip.NewReader(bytes.NewReader(data))
	case "application/x-bzip2":
		r = bzip2.NewReader(bytes.NewReader(data))
	case "application/x-xz":
		r, err = xzReader(bytes.NewReader(data))
	default:
		return "", "", "", "", false
	}
	if err != nil {
		return "", "", "", "", false
	}
	inner, err := readAllCtx(env, io.LimitReader(r, fileReadMax))
	if len(inner) == 0 && err != nil {
		return "", "", "", "", false
	}
	desc, mimeType, enc = fileDescribeData(inner, err == nil && len(inner) < fileReadMax)
	if unz == 1 {
		desc += " (" + outer + ")"
		outerMime = mt
	}
	return desc, mimeType, enc, outerMime, true
}

// fileDescribeData describes a file's content; whole says data is all
// of it.
func fileDescribeData(data []byte, whole bool) (desc, mimeType, enc string) {
	if len(data) == 0 {
		return "empty", "inode/x-empty", "binary"
	}
	if d, mt, ok := fileMagic(data, whole); ok {
		// libmagic words the charset of every type from its first 64
		// KiB as it would a text file's: a PDF's "%\xe2\xe3\xcf\xd3"
		// comment line makes it iso-8859-1, a NUL binary, a file that
		// starts "BZh" and goes on in ASCII us-ascii.
		_, _, enc := fileText(data[:min(len(data), 64<<10)])
		return d, mt, enc
	}
	return fileText(data)
}

// fileTextDoc describes a PostScript ("%!") or RTF ("{\\rtf") file as
// file 5.44's magic does: the DSC level, EPS type and language level of
// PostScript; RTF's version byte and character set.
func fileTextDoc(b []byte) (desc, mimeType string) {
	field := func(v []byte, max int) string {
		if i := bytes.IndexAny(v, "\x00\n"); i >= 0 {
			v = v[:i]
		}
		return string(v[:min(len(v), max)])
	}
	if !bytes.HasPrefix(b, []byte("%!")) {
		d := "Rich Text Format data, version "
		if len(b) > 5 {
			if c := b[5]; c >= 0x20 && c < 0x7f {
				d += string(c)
			} else {
				d += fmt.Sprintf("\\%03o", c)
			}
		}
		for _, cs := range [][2]string{{"\\ansi", "ANSI"}, {"\\mac", "Apple Macintosh"}, {"\\pca", "IBM PS/2, code page 850"}, {"\\pc", "IBM PC, code page 437"}} {
			if len(b) > 6 && bytes.HasPrefix(b[6:], []byte(cs[0])) {
				d += ", " + cs[1]
				break
			}
		}
		return d, "text/rtf"
	}
	d := "PostScript document text"
	if !bytes.HasPrefix(b, []byte("%!PS-Adobe-")) || len(b) <= 11 || b[11] == 0 {
		return d, "application/postscript"
	}
	d += " conforming DSC level " + field(b[11:], 3)
	if len(b) <= 15 {
		return d, "application/postscript"
	}
	for _, t := range []string{"EPS", "Query", "ExitServer"} {
		if bytes.HasPrefix(b[15:], []byte(t)) {
			d += ", type " + t
		}
	}
	const ll = "%%LanguageLevel: "
	if i := bytes.Index(b[15:min(len(b), 15+1000+len(ll))], []byte(ll)); i >= 0 {
		if v := field(b[15+i+len(ll):], 64); v != "" {
			d += ", Level " + v
		}
	}
	return d, "application/postscript"
}

// fileMagic recognises the binary formats by their magic numbers.
func fileMagic(b []byte, whole bool) (desc, mimeType string, ok bool) {
	has := func(p string) bool { return bytes.HasPrefix(b, []byte(p)) }
	switch {
	case has("\x7fELF"):
		return fileELF(b), fileELFMime(b), true
	case has("\x89PNG\r\n\x1a\n") && len(b) >= 29:
		d := fmt.Sprintf("PNG image data, %d x %d", binary.BigEndian.Uint32(b[16:]), binary.BigEndian.Uint32(b[20:]))
		depth, ct := b[24], b[25]
		switch ct {
		case 0:
			d += fmt.Sprintf(", %d-bit grayscale", depth)
		case 2:
			d += fmt.Sprintf(", %d-bit/color RGB", depth)
		case 3:
			d += fmt.Sprintf(", %d-bit colormap", depth)
		case 4:
			d += fmt.Sprintf(", %d-bit gray+alpha", depth)
		case 6:
			d += fmt.Sprintf(", %d-bit/color RGBA", depth)
		}
		if b[28] == 0 {
			d += ", non-interlaced"
		} else {
			d += ", interlaced"
		}
		return d, "image/png", true
	case has("GIF87a") || has("GIF89a"):
		// libmagic prints each field the file is long enough for
		d := fmt.Sprintf("GIF image data, version %s,", b[3:6])
		if len(b) >= 8 {
			d += fmt.Sprintf(" %d x", binary.LittleEndian.Uint16(b[6:]))
		}
		if len(b) >= 10 {
			d += fmt.Sprintf(" %d", binary.LittleEndian.Uint16(b[8:]))
		}
		return d, "image/gif", true
	case has("\xff\xd8\xff") && len(b) >= 4:
		d := "JPEG image data"
		if len(b) >= 13 && string(b[6:11]) == "JFIF\x00" {
			d += fmt.Sprintf(", JFIF standard %d.%02d", b[11], b[12])
		} else if len(b) >= 10 && string(b[6:10]) == "Exif" {
			d += ", Exif standard"
		}
		return d, "image/jpeg", true
	case has("%!") || has("{\\rtf"):
		d, mt := fileTextDoc(b)
		return d, mt, true
	case has("%PDF-"):
		v := b[5:]
		if i := bytes.IndexAny(v, "\r\n \t%"); i >= 0 {
			v = v[:i]
		}
		return "PDF document, version " + string(v), "application/pdf", true
	case has("\x1f\x8b") && len(b) >= 10:
		return fileGzip(b, whole), "application/gzip", true
	case has("BZh"):
		// libmagic: ">3 byte >47", a signed byte
		if len(b) >= 4 && b[3] > 47 && b[3] < 0x80 {
			return fmt.Sprintf("bzip2 compressed data, block size = %c00k", b[3]), "application/x-bzip2", true
		}
		return "bzip2 compressed data", "application/x-bzip2", true
	case has("\xfd7zXZ\x00"):
		if len(b) < 8 {
			return "XZ compressed data, checksum", "application/x-xz", true
		}
		check := map[byte]string{0: "none", 1: "CRC32", 4: "CRC64", 10: "SHA-256"}[b[7]&0xf]
		if check == "" {
			check = "Unknown"
		}
		return "XZ compressed data, checksum " + check, "application/x-xz", true
	case has("PK\x03\x04") && len(b) >= 10:
		ver := binary.LittleEndian.Uint16(b[4:])
		method := binary.LittleEndian.Uint16(b[8:])
		m := map[uint16]string{0: "store", 8: "deflate", 12: "bzip2", 14: "lzma"}[method]
		if m == "" {
			m = fmt.Sprintf("%d", method)
		}
		return fmt.Sprintf("Zip archive data, at least v%d.%d to extract, compression method=%s", ver/10, ver%10, m), "application/zip", true
	case has("PK\x05\x06"):
		return "Zip archive data (empty)", "application/zip", true
	case len(b) >= 263 && string(b[257:265]) == "ustar  \x00":
		return "POSIX tar archive (GNU)", "application/x-tar", true
	case len(b) >= 263 && string(b[257:263]) == "ustar\x00":
		return "POSIX tar archive", "application/x-tar", true
	case has("7z\xbc\xaf\x27\x1c"):
		return "7-zip archive data", "application/x-7z-compressed", true
	}
	return "", "", false
}

// The words file has for the fields of an ELF header: its class
// (e_ident[4]), byte order (e_ident[5]), type (e_type), machine
// (e_machine) and OS ABI (e_ident[7]).
var (
	fileELFClass   = map[byte]string{1: "32-bit", 2: "64-bit"}
	fileELFEndian  = map[byte]string{1: "LSB", 2: "MSB"}
	fileELFType    = map[uint16]string{1: "relocatable", 2: "executable", 3: "shared object", 4: "core file"}
	fileELFMachine = map[uint16]string{3: "Intel 80386", 0x3e: "x86-64", 0xb7: "ARM aarch64", 0x28: "ARM", 0xf3: "UCB RISC-V", 8: "MIPS", 0x14: "PowerPC", 0x15: "64-bit PowerPC or cisco 7500", 0x16: "IBM S/390"}
	fileELFABI     = map[byte]string{0: "SYSV", 3: "GNU/Linux", 9: "FreeBSD"}
)

// fileELFOrder is the byte order of an ELF header (little endian unless
// e_ident[5] says big).
func fileELFOrder(b []byte) binary.ByteOrder {
	if len(b) > 5 && b[5] == 2 {
		return binary.BigEndian
	}
	return binary.LittleEndian
}

// fileELFShort is libmagic's description of an ELF header cut short:
// each field it is long enough for (class, byte order, type, machine,
// version, ABI).
func fileELFShort(b []byte) string {
	d := "ELF"
	at := func(i int) byte { return b[i] }
	if len(b) > 4 {
		if c := fileELFClass[at(4)]; c != "" {
			d += " " + c
		}
	}
	if len(b) > 5 {
		if e := fileELFEndian[at(5)]; e != "" {
			d += " " + e
		}
	}
	order := fileELFOrder(b)
	if len(b) >= 18 {
		if t := fileELFType[order.Uint16(b[16:])]; t != "" {
			d += " " + t + ","
		}
	}
	if len(b) >= 20 {
		if m := fileELFMachine[order.Uint16(b[18:])]; m != "" {
			d += " " + m + ","
		}
	}
	if len(b) > 7 {
		if abi, ok := fileELFABI[at(7)]; ok {
			d += " (" + abi + ")"
		}
	}
	return d
}

// fileGzip describes a gzip header (and, with the whole file, its size).
func fileGzip(b []byte, whole bool) string {
	d := "gzip compressed data"
	flags := b[3]
	p := 10
	if flags&4 != 0 && len(b) >= p+2 { // FEXTRA
		p += 2 + int(binary.LittleEndian.Uint16(b[p:]))
	}
	if flags&8 != 0 && p < len(b) { // FNAME
		if i := bytes.IndexByte(b[p:], 0); i >= 0 {
			d += `, was "` + string(b[p:p+i]) + `"`
		}
	}
	if mt := binary.LittleEndian.Uint32(b[4:]); mt != 0 {
		d += ", last modified: " + time.Unix(int64(mt), 0).UTC().Format("Mon Jan _2 15:04:05 2006")
	}
	switch b[8] {
	case 2:
		d += ", max compression"
	case 4:
		d += ", max speed"
	}
	if b[9] == 3 {
		d += ", from Unix"
	}
	if whole && len(b) >= 18 {
		d += fmt.Sprintf(", original size modulo 2^32 %d", binary.LittleEndian.Uint32(b[len(b)-4:]))
	}
	return d
}

func fileELFMime(b []byte) string {
	f, err := elf.NewFile(bytes.NewReader(b))
	if err != nil {
		return "application/octet-stream"
	}
	switch f.Type {
	case elf.ET_EXEC:
		return "application/x-executable"
	case elf.ET_DYN:
		if fileELFPie(f) {
			return "application/x-pie-executable"
		}
		return "application/x-sharedlib"
	case elf.ET_REL:
		return "application/x-object"
	case elf.ET_CORE:
		return "application/x-coredump"
	}
	return "application/octet-stream"
}

func fileELFPie(f *elf.File) bool {
	vals, err := f.DynValue(elf.DT_FLAGS_1)
	if err == nil {
		for _, v := range vals {
			if v&uint64(elf.DF_1_PIE) != 0 {
				return true
			}
		}
	}
	return false
}

// fileELF describes an ELF file as file does for the common fields.
func fileELF(b []byte) string {
	if len(b) < 24 {
		return fileELFShort(b)
	}
	class, endian, order := fileELFClass[b[4]], fileELFEndian[b[5]], fileELFOrder(b)
	f, ferr := elf.NewFile(bytes.NewReader(b))
	typ := fileELFType[order.Uint16(b[16:])]
	if ferr == nil && f.Type == elf.ET_DYN && fileELFPie(f) {
		typ = "pie executable"
	}
	machine := fileELFMachine[order.Uint16(b[18:])]
	abi := fileELFABI[b[7]]
	d := fmt.Sprintf("ELF %s %s %s", class, endian, typ)
	if machine != "" {
		d += ", " + machine
	}
	d += fmt.Sprintf(", version %d (%s)", b[6], abi)
	if ferr != nil || len(f.Sections) == 0 {
		return d
	}
	interp := ""
	dynamic := false
	for _, p := range f.Progs {
		switch p.Type {
		case elf.PT_INTERP:
			if data, err := io.ReadAll(p.Open()); err == nil {
				interp = strings.TrimRight(string(data), "\x00")
			}
		case elf.PT_DYNAMIC:
			dynamic = true
		}
	}
	switch {
	case interp != "":
		d += ", dynamically linked, interpreter " + interp
	case dynamic && f.Type == elf.ET_DYN:
		d += ", dynamically linked"
	case f.Type != elf.ET_REL:
		d += ", statically linked"
	}
	for _, s := range f.Sections {
		data, err := s.Data()
		if err != nil || s.Type != elf.SHT_NOTE || len(data) < 16 {
			continue
		}
		nsz, dsz, typ := order.Uint32(data), order.Uint32(data[4:]), order.Uint32(data[8:])
		off := 12 + int((nsz+3)&^3)
		if off+int(dsz) > len(data) {
			continue
		}
		desc := data[off : off+int(dsz)]
		switch {
		case s.Name == ".note.gnu.build-id" && typ == 3:
			d += fmt.Sprintf(", BuildID[%s]=%x", map[int]string{20: "sha1", 16: "md5"}[len(desc)], desc)
		case s.Name == ".note.ABI-tag" && typ == 1 && len(desc) >= 16 && order.Uint32(desc) == 0:
			d += fmt.Sprintf(", for GNU/Linux %d.%d.%d", order.Uint32(desc[4:]), order.Uint32(desc[8:]), order.Uint32(desc[12:]))
		}
	}
	if f.Section(".symtab") != nil {
		d += ", not stripped"
	} else {
		d += ", stripped"
	}
	return d
}

// fileText classifies data that is no known binary format: its encoding,
// a script's interpreter, and its line terminators, in file's words.
func fileText(b []byte) (desc, mimeType, enc string) { return fileTextSkip(b, fileSkip{}) }

// fileSkip is the tests -e leaves out: soft (libmagic's magic files: every
// format found by its bytes, scripts, XML, HTML, source texts), json, csv.
type fileSkip struct{ soft, json, csv bool }

// fileDescribeSkip is fileDescribeData without the tests of skip, as
// file 5.44 -e TEST: without soft magic a binary file is data and a text
// file is only its encoding and line terminators.
func fileDescribeSkip(data []byte, whole bool, skip fileSkip) (desc, mimeType, enc string) {
	if len(data) == 0 {
		return "empty", "inode/x-empty", "binary"
	}
	if !skip.soft {
		if d, mt, ok := fileMagic(data, whole); ok {
			_, _, enc := fileTextSkip(data[:min(len(data), 64<<10)], skip)
			return d, mt, enc
		}
	}
	return fileTextSkip(data, skip)
}

// fileTextSkip is fileText without the tests of skip.
func fileTextSkip(b []byte, skip fileSkip) (desc, mimeType, enc string) {
	var kind string
	text := b
	switch {
	case bytes.HasPrefix(b, []byte("\xff\xfe")) || bytes.HasPrefix(b, []byte("\xfe\xff")):
		order := "little"
		if b[0] == 0xfe {
			order = "big"
		}
		enc = "utf-16" + order[:1] + "e"
		d := "Unicode text, UTF-16, " + order + "-endian text"
		if !bytes.Contains(b, []byte("\n\x00")) && !bytes.Contains(b, []byte("\x00\n")) {
			d += ", with no line terminators"
		}
		return d, "text/plain", enc
	case fileASCII(b):
		kind, enc = "ASCII", "us-ascii"
	case bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) && utf8.Valid(b[3:]) && fileTextBytes(b[3:]):
		kind, enc, text = "Unicode text, UTF-8 (with BOM)", "utf-8", b[3:]
	case utf8.Valid(b) && fileTextBytes(b):
		kind, enc = "Unicode text, UTF-8", "utf-8"
	case fileExtended(b, true):
		kind, enc = "ISO-8859", "iso-8859-1"
	case fileExtended(b, false):
		kind, enc = "Non-ISO extended-ASCII", "unknown-8bit"
	default:
		return "data", "application/octet-stream", "binary"
	}
	if !skip.csv && fileCSV(b) {
		// file 5.44 tries CSV before anything but JSON, and says no more.
		if trimmed := bytes.TrimSpace(text); !json.Valid(trimmed) && !fileNDJSON(trimmed) {
			return "CSV text", "text/csv", enc
		}
	}
	mimeType = "text/plain"
	desc = kind + " text"
	if line, _, _ := bytes.Cut(text, []byte("\n")); !skip.soft && bytes.HasPrefix(line, []byte("#!")) {
		name, mt := fileInterpreter(string(bytes.TrimRight(line[2:], "\r")))
		mimeType = mt
		switch name {
		case "Perl script", "Node.js script":
			// file words these two without the encoding first.
			desc = name + " text executable"
			if name == "Node.js script" {
				desc = name + " executable, " + kind + " text"
			}
		default:
			desc = name + ", " + kind + " text executable"
		}
	} else {
		trimmed := bytes.TrimSpace(text)
		// file's JSON check reads no byte-order mark.
		bom := len(text) != len(b)
		switch {
		case !skip.json && !bom && (bytes.HasPrefix(trimmed, []byte("{")) || bytes.HasPrefix(trimmed, []byte("["))) && json.Valid(trimmed):
			return "JSON text data", "application/json", enc
		case !skip.json && !bom && fileNDJSON(trimmed):
			return "New Line Delimited JSON text data", "application/x-ndjson", enc
		case skip.soft:
			// the rest are soft magic
		case bytes.HasPrefix(trimmed, []byte("<?xml")) && bytes.Contains(trimmed[:min(len(trimmed), 4096)], []byte("<svg")):
			return "SVG Scalable Vector Graphics image", "image/svg+xml", enc
		case bytes.HasPrefix(trimmed, []byte("<?xml")):
			v := "1.0"
			if i := bytes.Index(trimmed, []byte(`version="`)); i >= 0 {
				if j := bytes.IndexByte(trimmed[i+9:], '"'); j >= 0 {
					v = string(trimmed[i+9 : i+9+j])
				}
			}
			desc, mimeType = "XML "+v+" document, "+desc, "text/xml"
		case fileHTML(trimmed):
			desc, mimeType = "HTML document, "+desc, "text/html"
		default:
			if name, isText, mt := fileStart(text); name != "" {
				if !isText {
					return name, mt, enc
				}
				desc, mimeType = name+", "+desc, mt
				break
			}
			if name, exec, mt := fileSoft(text); name != "" {
				desc, mimeType = name+", "+desc, mt
				if exec {
					desc += " executable"
				}
			}
		}
	}
	return desc + fileLines(text), mimeType, enc
}

// fileNDJSON reports whether text is what file 5.44 calls New Line
// Delimited JSON: an object or array followed by a second value of the
// same kind (whatever comes after the second, as file checks no more).
func fileNDJSON(text []byte) bool {
	if len(text) == 0 || text[0] != '{' && text[0] != '[' {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	var v json.RawMessage
	if dec.Decode(&v) != nil {
		return false
	}
	rest := bytes.TrimLeft(text[dec.InputOffset():], " \t\r\n")
	if len(rest) == 0 || rest[0] != text[0] {
		return false
	}
	return json.NewDecoder(bytes.NewReader(rest)).Decode(&v) == nil
}

// fileCSV reports whether text is comma-separated values as file 5.44
// sees them: at least three lines, the first with a comma, and every line
// up to the tenth with as many commas as the first, outside double quotes
// (where "" is a quote).
func fileCSV(b []byte) bool {
	fields, first, lines := 0, 0, 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			// Up to the quote that is not doubled.
			for i++; i < len(b); i++ {
				if b[i] == '"' {
					if i+1 < len(b) && b[i+1] == '"' {
						i++
						continue
					}
					break
				}
			}
		case ',':
			fields++
		case '\n':
			lines++
			if lines == 10 {
				return first != 0 && first == fields
			}
			switch {
			case first == 0 && fields == 0:
				return false
			case first == 0:
				first = fields
			case first != fields:
				return false
			}
			fields = 0
		}
	}
	return first != 0 && lines > 2
}

// fileInterpreter names the script type of a #! line.
func fileInterpreter(line string) (string, string) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return "a script", "text/plain"
	}
	prog := path.Base(fields[0])
	if prog == "env" && len(fields) > 1 {
		prog = path.Base(fields[1])
	}
	switch {
	case prog == "sh":
		return "POSIX shell script", "text/x-shellscript"
	case prog == "bash":
		return "Bourne-Again shell script", "text/x-shellscript"
	case prog == "zsh":
		return "Paul Falstad's zsh script", "text/x-shellscript"
	case prog == "dash" || prog == "ksh":
		return "POSIX shell script", "text/x-shellscript"
	case strings.HasPrefix(prog, "python"):
		return "Python script", "text/x-script.python"
	case strings.HasPrefix(prog, "perl"):
		return "Perl script", "text/x-perl"
	case strings.HasPrefix(prog, "ruby"):
		return "Ruby script", "text/x-ruby"
	case prog == "node" || prog == "nodejs":
		return "Node.js script", "application/javascript"
	case prog == "awk" || prog == "gawk" || prog == "mawk":
		return "awk script", "text/x-awk"
	}
	return "a " + strings.Join(fields, " ") + " script", "text/plain"
}

// fileTextChar is file's table of the bytes text may hold: BEL to CR,
// ESC, and printable ASCII.
func fileTextChar(c byte) bool {
	return c >= 7 && c <= 13 || c == 0x1b || c >= 0x20 && c < 0x7f
}

func fileASCII(b []byte) bool {
	for _, c := range b {
		if !fileTextChar(c) {
			return false
		}
	}
	return true
}

// fileTextBytes reports whether the ASCII bytes of b are all text.
func fileTextBytes(b []byte) bool {
	for _, c := range b {
		if c < 0x80 && !fileTextChar(c) {
			return false
		}
	}
	return true
}

// fileExtended reports whether b is 8-bit text: ISO-8859 (no C1
// controls) or, with iso false, any high byte.
func fileExtended(b []byte, iso bool) bool {
	for _, c := range b {
		if c < 0x80 && !fileTextChar(c) || iso && c >= 0x80 && c < 0xa0 {
			return false
		}
	}
	return true
}

func fileHTML(b []byte) bool {
	l := bytes.ToLower(b[:min(len(b), 64)])
	for _, p := range []string{"<!doctype html", "<html", "<head", "<title", "<body"} {
		if bytes.HasPrefix(l, []byte(p)) {
			return true
		}
	}
	return false
}

// fileLines is the text's "with ..." tail: very long lines, escape
// sequences, overstriking, and the line terminators other than LF.
func fileLines(b []byte) string {
	var crlf, cr, lf, longest, cur int
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\r':
			if i+1 < len(b) && b[i+1] == '\n' {
				crlf++
				i++
			} else {
				cr++
			}
			longest, cur = max(longest, cur), 0
		case '\n':
			lf++
			longest, cur = max(longest, cur), 0
		default:
			cur++
		}
	}
	longest = max(longest, cur)
	var parts []string
	if longest > 300 {
		parts = append(parts, fmt.Sprintf("with very long lines (%d)", longest))
	}
	if bytes.IndexByte(b, 0x1b) >= 0 {
		parts = append(parts, "with escape sequences")
	}
	if bytes.IndexByte(b, '\b') >= 0 {
		parts = append(parts, "with overstriking")
	}
	var terms []string
	if crlf > 0 {
		terms = append(terms, "CRLF")
	}
	if cr > 0 {
		terms = append(terms, "CR")
	}
	if lf > 0 && len(terms) > 0 {
		terms = append(terms, "LF")
	}
	switch {
	case crlf+cr+lf == 0:
		parts = append(parts, "with no line terminators")
	case len(terms) > 0:
		parts = append(parts, "with "+strings.Join(terms, ", ")+" line terminators")
	}
	if len(parts) == 0 {
		return ""
	}
	return ", " + strings.Join(parts, ", ")
}
