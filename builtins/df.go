package builtins

import (
	"errors"
	"strings"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "df", Summary: "report file system disk space usage (llmsh: sizes unknown, shown as -)", Run: dfCmd})

// dfField is one column of df's output: its --output name, heading,
// least width and alignment.
type dfField struct {
	name, head string
	width      int
	left       bool
}

var dfFields = []dfField{
	{"source", "Filesystem", 14, true}, {"fstype", "Type", 4, true},
	{"itotal", "Inodes", 5, false}, {"iused", "IUsed", 5, false},
	{"iavail", "IFree", 5, false}, {"ipcent", "IUse%", 5, false},
	{"size", "1K-blocks", 5, false}, {"used", "Used", 5, false},
	{"avail", "Avail", 5, false}, {"pcent", "Use%", 4, false},
	{"file", "File", 4, true}, {"target", "Mounted on", 0, true},
}

// dfOpts is what df's command line asks for.
type dfOpts struct {
	human, si, posix, inodes, fsType, total bool
	blockHead                               string // heading of the size column
	output                                  []string
	types                                   []string // -t
}

func dfCmd(env *Env) int {
	f := NewFlags(env, "Show information about the file system on which each FILE resides,\n"+
		"or all file systems by default.\n\n"+
		"llmsh's files are served by vfsd, which reveals no file system sizes,\n"+
		"free counts or types: df shows one file system, llmsh, mounted on /,\n"+
		"with '-' for every figure.", "[OPTION]... [FILE]...")
	o := &dfOpts{blockHead: "1K-blocks"}
	f.Bool('a', "all", "include pseudo, duplicate, inaccessible file systems")
	f.Func('B', "block-size", RequiredArg, "SIZE", "scale sizes by SIZE before printing them", func(v string, _ bool) error {
		if _, _, ok := lsBlockSize(v); !ok && v != "human-readable" && v != "si" {
			_, e := gnu.ParseSize(strings.TrimPrefix(v, "'"), 10, "eEgGkKmMpPtTYZ0")
			return errors.New(sizeArgError(env, e, duOptName(env.Args, 'B', "--bl", "--block-size"), v))
		}
		if v[0] < '0' || v[0] > '9' {
			v = "1" + v
		}
		o.blockHead = v + "-blocks"
		return nil
	})
	f.BoolVar(&o.human, 'h', "human-readable", "print sizes in powers of 1024 (e.g., 1023M)")
	f.BoolVar(&o.si, 'H', "si", "print sizes in powers of 1000 (e.g., 1.1G)")
	f.BoolVar(&o.inodes, 'i', "inodes", "list inode information instead of block usage")
	f.Func('k', "", NoArg, "", "like --block-size=1K", func(string, bool) error { o.blockHead = "1K-blocks"; return nil })
	f.Bool('l', "local", "limit listing to local file systems")
	f.Bool(0, "no-sync", "do not invoke sync before getting usage info (default)")
	f.Func(0, "output", OptionalArg, "FIELD_LIST", "use the output format defined by FIELD_LIST,\nor print all fields if FIELD_LIST is omitted", func(v string, present bool) error {
		return o.setOutput(v, present)
	})
	f.BoolVar(&o.posix, 'P', "portability", "use the POSIX output format")
	f.Bool(0, "sync", "invoke sync before getting usage info")
	f.BoolVar(&o.total, 0, "total", "elide all entries insignificant to available space,\nand produce a grand total")
	f.Func('t', "type", RequiredArg, "TYPE", "limit listing to file systems of type TYPE", func(v string, _ bool) error {
		o.types = append(o.types, v)
		return nil
	})
	f.BoolVar(&o.fsType, 'T', "print-type", "print file system type")
	f.Func('x', "exclude-type", RequiredArg, "TYPE", "limit listing to file systems not of type TYPE", func(string, bool) error { return nil })
	f.Bool('v', "", "(ignored)")
	version := versionOption(f)
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	return dfRun(env, o, files)
}

// setOutput takes --output's list of fields.
func (o *dfOpts) setOutput(v string, present bool) error {
	if !present {
		for _, fd := range dfFields {
			o.output = append(o.output, fd.name)
		}
		return nil
	}
	for _, name := range strings.Split(v, ",") {
		if dfFieldOf(name) < 0 {
			return &UsageError{"option --output: field " + gnu.Quote(name) + " unknown"}
		}
		for _, seen := range o.output {
			if seen == name {
				return &UsageError{"option --output: field " + gnu.Quote(name) + " used more than once"}
			}
		}
		o.output = append(o.output, name)
	}
	return nil
}

func dfFieldOf(name string) int {
	for i, fd := range dfFields {
		if fd.name == name {
			return i
		}
	}
	return -1
}

// columns are the fields df prints, with their headings.
func (o *dfOpts) columns() []dfField {
	names := o.output
	switch {
	case names != nil:
	case o.inodes:
		names = []string{"source", "itotal", "iused", "iavail", "ipcent", "target"}
	default:
		names = []string{"source", "size", "used", "avail", "pcent", "target"}
	}
	var cols []dfField
	for _, n := range names {
		fd := dfFields[dfFieldOf(n)]
		if n == "source" && o.fsType && o.output == nil {
			cols = append(cols, fd, dfFields[dfFieldOf("fstype")])
			continue
		}
		switch n {
		case "size":
			fd.head = o.blockHead
			if o.human || o.si {
				fd.head = "Size"
			} else if o.posix && o.blockHead == "1K-blocks" {
				fd.head = "1024-blocks"
			}
		case "avail":
			if o.output == nil && !o.human && !o.si {
				fd.head = "Available"
			}
		case "pcent":
			if o.posix && o.output == nil {
				fd.head = "Capacity"
			}
		}
		cols = append(cols, fd)
	}
	return cols
}

func dfRun(env *Env, o *dfOpts, files []string) int {
	status := 0
	var rows [][]string
	cols := o.columns()
	row := func(file, source, fstype, target string) []string {
		r := make([]string, len(cols))
		for i, c := range cols {
			switch c.name {
			case "source":
				r[i] = source
			case "fstype":
				r[i] = fstype
			case "file":
				r[i] = file
			case "target":
				r[i] = target
			default:
				r[i] = "-"
			}
		}
		return r
	}
	for _, t := range o.types {
		if t != "llmsh" {
			env.Errorf("no file systems processed")
			return 1
		}
	}
	for _, name := range files {
		if _, err := env.FS.Stat(env.Abs(name)); err != nil {
			env.Errorf("%s: %s", name, ErrText(err))
			status = 1
			continue
		}
		rows = append(rows, row(name, "llmsh", "llmsh", "/"))
	}
	if len(files) == 0 {
		rows = append(rows, row("-", "llmsh", "llmsh", "/"))
	}
	if len(rows) == 0 {
		return status
	}
	if o.total {
		rows = append(rows, row("-", "total", "-", "-"))
	}
	head := make([]string, len(cols))
	for i, c := range cols {
		head[i] = c.head
	}
	w := stdoutWriter(env)
	dfPrint(w, cols, append([][]string{head}, rows...))
	return finishOutput(env, w, status)
}

// dfPrint writes the table: each column as wide as its widest cell (at
// least its least width), one space between, the last one not padded.
func dfPrint(w interface{ WriteString(string) (int, error) }, cols []dfField, rows [][]string) {
	widths := make([]int, len(cols))
	for i, c := range cols {
		widths[i] = c.width
		for _, r := range rows {
			widths[i] = max(widths[i], len(r[i]))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, cell := range r {
			if i > 0 {
				b.WriteByte(' ')
			}
			pad := strings.Repeat(" ", widths[i]-len(cell))
			switch {
			case !cols[i].left:
				b.WriteString(pad + cell)
			case i == len(r)-1:
				b.WriteString(cell)
			default:
				b.WriteString(cell + pad)
			}
		}
		w.WriteString(b.String() + "\n")
	}
}
