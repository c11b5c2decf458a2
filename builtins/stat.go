package builtins

import (
	"bufio"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "stat", Summary: "display file status", Run: stat})

const statHelp = "Display file or file system status."

// statEpilog closes stat's --help: GNU's paragraphs on MODE and the
// format sequences (those llmsh has), then what vfsd does not reveal.
const statEpilog = `The MODE argument of --cached can be: always, never, or default.
'always' will use cached attributes if available, while
'never' will try to synchronize with the latest attributes, and
'default' will leave it up to the underlying file system.

The valid format sequences for files (without --file-system):

  %a   permission bits in octal (note '#' and '0' printf flags)
  %A   permission bits and file type in human readable form
  %b   number of blocks allocated (see %B)
  %B   the size in bytes of each block reported by %b
  %C   SELinux security context string
  %d   device number in decimal (st_dev)
  %D   device number in hex (st_dev)
  %f   raw mode in hex
  %F   file type
  %g   group ID of owner
  %G   group name of owner
  %h   number of hard links
  %i   inode number
  %m   mount point
  %n   file name
  %N   quoted file name with dereference if symbolic link
  %o   optimal I/O transfer size hint
  %s   total size, in bytes
  %t   major device type in hex, for character/block device special files
  %T   minor device type in hex, for character/block device special files
  %u   user ID of owner
  %U   user name of owner
  %w   time of file birth, human-readable; - if unknown
  %W   time of file birth, seconds since Epoch; 0 if unknown
  %x   time of last access, human-readable
  %X   time of last access, seconds since Epoch
  %y   time of last data modification, human-readable
  %Y   time of last data modification, seconds since Epoch
  %z   time of last status change, human-readable
  %Z   time of last status change, seconds since Epoch

vfsd reveals a file's name, size, kind, permission bits and modification
time, nothing else. Every file is owned by llmsh's one user (%U %G: llmsh,
%u %g: 1000, as ls -l and id say). What vfsd does not reveal prints as GNU
stat prints an unknown value: %x %z %w (access, change, birth time) print
'-', %X %Z %W print 0, and %i %d %D %m %C print '?'; %h is 1 for a file,
2 and its subdirectories for a directory.
%b is estimated from the size (4 KiB blocks). Symbolic links are described
themselves unless -L is given; %N and the File line show a link's text.
The directives take printf flags (-0 +#'), a width and a precision; %Hd,
%Ld, %r, %R, %Hr and %Lr are not there.`

func stat(env *Env) int {
	f := NewFlags(env, statHelp, "[OPTION]... FILE...")
	f.Epilog = statEpilog
	deref := f.Bool('L', "dereference", "follow links")
	fileSystem := f.Bool('f', "file-system", "display file system status instead of file status\n(refused: vfsd reports no file system figures)")
	f.Func(0, "cached", RequiredArg, "MODE", "specify how to use cached attributes;\nuseful on remote file systems. See MODE below\n(vfsd's attributes are always current)", func(v string, _ bool) error {
		_, err := argmatch(env, v, []string{"default", "never", "always"}, "--cached")
		return err
	})
	// -c and --printf: the last one given is the format, as GNU's
	var format string
	var formatSet, printfSet bool
	f.Func('c', "format", RequiredArg, "FORMAT", "use the specified FORMAT instead of the default;\noutput a newline after each use of FORMAT", func(v string, _ bool) error {
		format, formatSet, printfSet = v, true, false
		return nil
	})
	f.Func(0, "printf", RequiredArg, "FORMAT", "like --format, but interpret backslash escapes,\nand do not output a mandatory trailing newline;\nif you want a newline, include \\n in FORMAT", func(v string, _ bool) error {
		format, formatSet, printfSet = v, false, true
		return nil
	})
	terse := f.Bool('t', "terse", "print the information in terse form")
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if len(files) == 0 {
		return f.Fail(&UsageError{"missing operand"}, 1)
	}
	if *fileSystem {
		// statfs has no counterpart in vfsd's protocol: no sizes,
		// free counts or file system types to report.
		env.Errorf("-f: file system status is not available in llmsh")
		return 1
	}
	w := bufio.NewWriter(env.Stdout)
	defer w.Flush()
	status := 0
	for _, name := range files {
		if env.Ctx.Err() != nil {
			return 1
		}
		var fi fs.FileInfo
		if *deref {
			fi, err = env.FS.Stat(env.Abs(name))
		} else {
			fi, err = lstatOperand(env, name)
		}
		if err != nil {
			w.Flush()
			env.fileErrorf("cannot statx", name, err)
			status = 1
			continue
		}
		target, isLink := "", false
		if fi.Mode()&fs.ModeSymlink != 0 {
			if target, err = env.FS.Readlink(env.Abs(name)); err != nil {
				w.Flush()
				env.fileErrorf("cannot read symbolic link", name, err)
				status = 1
				continue
			}
			isLink = true
		}
		nlink := 1
		if fi.IsDir() {
			nlink = dirLinkCount(env, env.Abs(name))
		}
		file := statFile{name, fi, target, isLink, dateLocation(env), nlink, env.QuoteUTF8()}
		custom, nl := "", ""
		if printfSet {
			custom = statEscapes(env, format)
		} else if formatSet {
			custom, nl = format, "\n"
		}
		if pos, bad := statInvalid(custom); bad != "" {
			// GNU dies there, after what it printed before it
			w.WriteString(statFormat(custom[:pos], file))
			w.Flush()
			env.Errorf("%s: invalid directive", env.Quote(bad))
			return 1
		}
		switch {
		case printfSet, formatSet:
			w.WriteString(statFormat(custom, file) + nl)
		case *terse:
			w.WriteString(statFormat(statTerse, file) + "\n")
		default:
			first := "  File: " + name
			if isLink {
				first += " -> " + target
			}
			format := statDefault
			if _, _, dev := deviceNumbers(fi); dev {
				// GNU's line for a device ends with its numbers.
				format = strings.Replace(format, "Links: %h\n", "Links: %-5h Device type: %t,%T\n", 1)
			}
			w.WriteString(first + "\n" + statFormat(format, file))
		}
	}
	return status
}

// statTerse is GNU stat's --terse format for a file.
const statTerse = "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o"

// statDefault is GNU stat's default format after its File line (which
// shows a link's text, unquoted).
const statDefault = `  Size: %-10s	Blocks: %-10b IO Block: %-6o %F
Device: %D	Inode: %-11i Links: %h
Access: (%04a/%A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)
Access: %x
Modify: %y
Change: %z
 Birth: %w
`

// statFile is what stat describes: the name as given, its FileInfo and,
// for a symbolic link described itself, the link's text.
type statFile struct {
	name   string
	fi     fs.FileInfo
	target string
	isLink bool
	loc    *time.Location // the script's TZ, for %y
	nlink  int            // %h: 1, or for a directory 2 and its subdirectories
	utf8   bool           // %N quotes as in LC_ALL=C.UTF-8
}

// statInvalid finds the first directive of format that GNU stat refuses:
// flags, a width or a precision then the end or %% ("%5", "%-%"); pos is
// where it starts.
func statInvalid(format string) (pos int, bad string) {
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		j := i + 1 + len(format[i+1:]) - len(strings.TrimLeft(format[i+1:], "-+ #'0123456789."))
		switch {
		case j >= len(format) && j > i+1:
			return i, format[i:]
		case j < len(format) && format[j] == '%' && j > i+1:
			return i, format[i : j+1]
		}
		i = j
	}
	return 0, ""
}

// statFormat expands the directives of format for file.
func statFormat(format string, file statFile) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("-0 +#'", format[j]) >= 0 {
			j++
		}
		for j < len(format) && format[j] >= '0' && format[j] <= '9' {
			j++
		}
		if j < len(format) && format[j] == '.' {
			j++
			for j < len(format) && format[j] >= '0' && format[j] <= '9' {
				j++
			}
		}
		if j >= len(format) {
			b.WriteString(format[i:])
			break
		}
		spec := strings.ReplaceAll(format[i+1:j], "'", "")
		d := format[j]
		i = j
		if d == '%' {
			b.WriteByte('%')
			continue
		}
		if (d == 'Y' || d == 'X' || d == 'Z') && strings.Contains(spec, ".") {
			t := file.fi.ModTime()
			if d == 'X' {
				t = statAtime(file.fi)
			}
			b.WriteString(statSeconds(spec, t))
			continue
		}
		v, numeric, ok := statValue(d, file)
		if !ok {
			b.WriteString("?")
			continue
		}
		if numeric {
			if n, err := strconv.ParseInt(v, 10, 64); err == nil {
				b.WriteString(printfField(spec, 'd', strconv.FormatInt(n, 10)))
				continue
			}
		}
		if d == 'a' && strings.Contains(spec, "0") {
			// %04a: octal digits padded with zeros.
			b.WriteString(printfField(spec, 'o', v))
			continue
		}
		b.WriteString(printfField(strings.TrimLeft(spec, "0+ #"), 's', v))
	}
	return b.String()
}

// statValue is the value of directive d; numeric values are formatted
// with the directive's flags as integers.
func statValue(d byte, file statFile) (v string, numeric, ok bool) {
	name, fi := file.name, file.fi
	mode := fi.Mode()
	switch d {
	case 'n':
		return name, false, true
	case 'N':
		if file.isLink {
			return file.quote(name) + " -> " + file.quote(file.target), false, true
		}
		return file.quote(name), false, true
	case 's':
		return strconv.FormatInt(fi.Size(), 10), true, true
	case 'b':
		return strconv.FormatInt(statBlocks(fi), 10), true, true
	case 'B':
		return "512", true, true
	case 'o':
		return "4096", true, true
	case 'F':
		return typeText(mode, fi.Size()), false, true
	case 'a':
		return strconv.FormatUint(uint64(mode.Perm()), 8), false, true
	case 'A':
		return statModeString(mode), false, true
	case 'f':
		return strconv.FormatUint(uint64(statRawMode(mode)), 16), false, true
	case 'X':
		return strconv.FormatInt(statAtime(fi).Unix(), 10), true, true
	case 'x':
		return statTime(statAtime(fi), file.loc), false, true
	case 'Y', 'Z':
		// vfsd keeps no change time: it is the modification time, as
		// ls -c shows it (a real file's is never unknown, where "-"
		// would say so).
		return strconv.FormatInt(fi.ModTime().Unix(), 10), true, true
	case 'y', 'z':
		return statTime(fi.ModTime(), file.loc), false, true
	case 'w':
		return "-", false, true // the birth time is unknown, as GNU says it
	case 't', 'T':
		major, minor, _ := deviceNumbers(fi)
		return strconv.FormatUint(uint64(map[byte]uint32{'t': major, 'T': minor}[d]), 16), true, true
	case 'W':
		return "0", true, true
	case 'U', 'G':
		// the one owner, as ls -l, find -ls, tar and id say
		return VirtualUser, false, true
	case 'u':
		return strconv.Itoa(VirtualUID), true, true
	case 'g':
		return strconv.Itoa(VirtualGID), true, true
	case 'h':
		return strconv.Itoa(file.nlink), true, true
	case 'i', 'd', 'D', 'm', 'C':
		return "?", false, true
	}
	return "", false, false
}

// quote is gnu.QuoteAF in the script's locale, as %N quotes.
func (f statFile) quote(s string) string {
	return gnu.Quoting{Style: gnu.ShellEscapeAlways, UTF8: f.utf8}.Quote(s)
}

// statBlocks estimates the 512-byte blocks of fi: whole 4 KiB blocks.
func statBlocks(fi fs.FileInfo) int64 {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return 0
	case fi.IsDir():
		return max(8, (fi.Size()+4095)/4096*8)
	}
	return (fi.Size() + 4095) / 4096 * 8
}

// statRawMode is the st_mode of fi: file type bits and permissions.
func statRawMode(m fs.FileMode) uint32 {
	return uint32(m.Perm()) | typeOf(m).bits
}

// statModeString is ls -l's "-rw-r--r--".
func statModeString(m fs.FileMode) string {
	b := []byte("-rwxrwxrwx")
	b[0] = typeOf(m).letter
	for i := 0; i < 9; i++ {
		if m&(1<<uint(8-i)) == 0 {
			b[i+1] = '-'
		}
	}
	return string(b)
}

// statTime is GNU's %y: "2006-01-02 15:04:05.000000000 +0000", in UTC.
// statSeconds is %.NY (coreutils 9.1): the seconds since the Epoch
// with N digits of their fraction, truncated; "%.Y" gives all nine.
func statSeconds(spec string, t time.Time) string {
	flags, prec, _ := strings.Cut(spec, ".")
	digits := 9
	if prec != "" {
		digits, _ = strconv.Atoi(prec)
	}
	sec, ns := t.Unix(), t.Nanosecond()
	neg := sec < 0 && ns > 0
	if neg { // -0.5 is second -1 and 500000000 ns
		sec, ns = sec+1, 1e9-ns
	}
	v := strconv.FormatInt(sec, 10)
	if neg && sec == 0 {
		v = "-0"
	}
	if digits > 0 {
		frac := fmt.Sprintf("%09d", ns)
		for len(frac) < digits {
			frac += "0"
		}
		v += "." + frac[:digits]
	}
	width, _ := strconv.Atoi(strings.TrimLeft(flags, "-+ #0"))
	if strings.Contains(flags, "0") && !strings.Contains(flags, "-") && len(v) < width {
		sign := ""
		if v[0] == '-' {
			sign, v = "-", v[1:]
		}
		return sign + strings.Repeat("0", width-len(v)-len(sign)) + v
	}
	return printfField(strings.TrimLeft(flags, "+ #0"), 's', v)
}

// statAtime is a file's last access time: vfsd's for a real file, the
// modification time where it keeps none (virtual files and directories).
func statAtime(fi fs.FileInfo) time.Time {
	if a, ok := fi.(interface{ AccessTime() (time.Time, bool) }); ok {
		if t, ok := a.AccessTime(); ok {
			return t
		}
	}
	return fi.ModTime()
}

func statTime(t time.Time, loc *time.Location) string {
	return t.In(loc).Format("2006-01-02 15:04:05.000000000 -0700")
}

// statEscapes interprets the backslash escapes of --printf as GNU stat
// does: an unknown one loses its backslash, with a warning.
func statEscapes(env *Env, s string) string {
	e := gnu.Escapes{Letters: `abefnrtv\"`, Octal: 3, Hex: 2, DropUnknown: true,
		Unknown: func(c byte) { env.Errorf("warning: unrecognized escape '\\%c'", c) }}
	out, _ := e.Decode(s)
	return out
}
