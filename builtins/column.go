package builtins

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "column", Summary: "columnate lists", Run: column})

// Output modes of column, as util-linux names them.
const (
	columnFillCols = iota
	columnFillRows
	columnTable
	columnSimple
)

// columnCtl is util-linux column's control structure.
type columnCtl struct {
	bytes      bool // the script's character locale is C: bytes of 0x80 and over are \xHH
	mode       int
	termwidth  int
	json       bool
	keepEmpty  bool
	inSep      string // separator characters
	greedy     bool   // runs of separators are one (no -s)
	outSep     string
	names      []string // -N; nil when not given
	noHeadings bool
	maxCols    int
	hide       string
	right      string
	trunc      string
	wrap       string
	noextreme  string
	order      string
	tabName    string
	hasName    bool

	ents      []string // fill modes: the entries
	maxlength int

	cols  []*columnCol
	lines [][]string

	// Tree output (-r, -i, -p): each line's parent and children, the
	// order of output and the tree column's prefixes.
	tree, treeID, treeParent string
	treeCol                  *columnCol
	children                 [][]int
	roots                    []int
	rowOrder                 []int
	prefix                   []string
}

// columnCol is one table column.
type columnCol struct {
	idx    int // the index of its cells in the input lines
	name   string
	named  bool
	hidden bool
	right  bool

	// -T, -W and -E, and the widths libsmartcols computes from them
	// (column_table.go).
	trunc, wrap, noextreme bool
	width, widthMin        int
	widthMax, widthAvg     int
	extreme                bool
}

// columnErr ends column with status 1 after printing its message.
type columnErr struct{ msg string }

func (e *columnErr) Error() string { return e.msg }

func column(env *Env) int {
	ctl, files, status := columnParse(env)
	if ctl == nil {
		return status
	}
	return ctl.run(env, files)
}

// columnParse reads column's options into a columnCtl; on nil it returns
// the exit status.
func columnParse(env *Env) (*columnCtl, []string, int) {
	f := NewFlags(env, "Columnate lists.", "[options] [<file>...]")
	f.UtilLinux = true // util-linux's --help layout
	ctl := &columnCtl{bytes: byteLocale(env), mode: columnFillCols, termwidth: -1, inSep: " \t", greedy: true, outSep: "  "}
	// util-linux's mutually exclusive groups: {-J, -x} and {-t, -x}.
	seen := map[rune]bool{}
	excl := func(c rune) error {
		seen[c] = true
		switch {
		case (c == 'J' || c == 'x') && seen['J'] && seen['x']:
			return errors.New("mutually exclusive arguments: --json --fillrows")
		case (c == 't' || c == 'x') && seen['t'] && seen['x']:
			return errors.New("mutually exclusive arguments: --table --fillrows")
		}
		return nil
	}
	f.Func('t', "table", NoArg, "", "create a table", func(string, bool) error {
		ctl.mode = columnTable
		return excl('t')
	})
	f.Func('n', "table-name", RequiredArg, "<name>", "table name for JSON output", func(v string, _ bool) error {
		ctl.tabName, ctl.hasName = v, true
		return nil
	})
	f.StringVar(&ctl.order, 'O', "table-order", "<columns>", "specify order of output columns")
	f.Func('N', "table-columns", RequiredArg, "<names>", "comma separated columns names", func(v string, _ bool) error {
		ctl.names = []string{}
		for _, s := range strings.Split(v, ",") {
			if s != "" {
				ctl.names = append(ctl.names, s)
			}
		}
		return nil
	})
	f.Func('l', "table-columns-limit", RequiredArg, "<num>", "maximal number of input columns", func(v string, _ bool) error {
		n, err := columnU32(v, "invalid columns limit argument")
		if err != nil {
			return err
		}
		if n == 0 {
			return errors.New("columns limit must be greater than zero")
		}
		ctl.maxCols = n
		return nil
	})
	f.BoolVar(&ctl.noHeadings, 'd', "table-noheadings", "don't print header")
	f.StringVar(&ctl.noextreme, 'E', "table-noextreme", "<columns>", "don't count long text from the columns to column width")
	f.StringVar(&ctl.hide, 'H', "table-hide", "<columns>", "don't print the columns")
	f.StringVar(&ctl.right, 'R', "table-right", "<columns>", "right align text in these columns")
	f.StringVar(&ctl.trunc, 'T', "table-truncate", "<columns>", "truncate text in the columns when necessary")
	f.StringVar(&ctl.wrap, 'W', "table-wrap", "<columns>", "wrap text in the columns when necessary")
	// Repeating the header once per terminal page never applies: the
	// output is not a terminal.
	f.Bool('e', "table-header-repeat", "repeat header for each page")
	f.BoolVar(&ctl.keepEmpty, 'L', "keep-empty-lines", "don't ignore empty lines")
	f.BoolVar(&ctl.keepEmpty, 0, "table-empty-lines", "")
	f.Func('J', "json", NoArg, "", "use JSON output format for table", func(string, bool) error {
		ctl.json = true
		ctl.mode = columnTable
		return excl('J')
	})
	width := func(v string, _ bool) error {
		n, err := columnU32(v, "invalid columns argument")
		ctl.termwidth = n
		return err
	}
	f.Func('c', "output-width", RequiredArg, "<width>", "width of output in number of characters", width)
	f.Func(0, "columns", RequiredArg, "<width>", "", width)
	f.StringVar(&ctl.outSep, 'o', "output-separator", "<string>", "columns separator for table output (default is two spaces)")
	f.Func('s', "separator", RequiredArg, "<string>", "possible table delimiters", func(v string, _ bool) error {
		ctl.inSep, ctl.greedy = v, false
		return nil
	})
	f.StringVar(&ctl.tree, 'r', "tree", "<column>", "column to use tree-like output for the table")
	f.StringVar(&ctl.treeID, 'i', "tree-id", "<column>", "line ID to specify child-parent relation")
	f.StringVar(&ctl.treeParent, 'p', "tree-parent", "<column>", "parent to specify child-parent relation")
	f.Func('x', "fillrows", NoArg, "", "fill rows before columns", func(string, bool) error {
		ctl.mode = columnFillRows
		return excl('x')
	})
	version := shortHelpVersion(f, 'h', 'V')
	files, err := f.Parse(env.Args[1:])
	if err == nil && *version {
		return nil, nil, printVersion(env)
	}
	if err != nil {
		return nil, nil, f.Fail(err, 1)
	}
	if ctl.termwidth < 0 {
		// Standard output is never a terminal to ask: COLUMNS, else 80,
		// as util-linux's get_terminal_width.
		ctl.termwidth = 80
		if v, ok := envLookup(env.Environ, "COLUMNS"); ok {
			if n, err := strconv.Atoi(v); err == nil && n > 0 {
				ctl.termwidth = n
			}
		}
	}
	if ctl.tree != "" {
		ctl.mode = columnTable
		if ctl.treeParent == "" || ctl.treeID == "" {
			env.Errorf("options --tree-id and --tree-parent are required for tree formatting")
			return nil, nil, 1
		}
	}
	if ctl.mode != columnTable && (ctl.order != "" || ctl.hasName || ctl.hide != "" || ctl.right != "" ||
		ctl.trunc != "" || ctl.wrap != "" || ctl.noextreme != "" || ctl.names != nil) {
		env.Errorf("option --table required for all --table-*")
		return nil, nil, 1
	}
	if ctl.names == nil && ctl.json {
		env.Errorf("option --table-columns required for --json")
		return nil, nil, 1
	}
	for i, c := range ctl.names {
		ctl.cols = append(ctl.cols, &columnCol{idx: i, name: c, named: true})
	}
	return ctl, files, 0
}

// run reads the files (standard input if none) and prints them in
// columns.
func (ctl *columnCtl) run(env *Env, files []string) int {
	eval := 0
	if len(files) == 0 {
		if err := ctl.read(env, env.Stdin); err != nil {
			return columnFail(env, err)
		}
	}
	for _, name := range files {
		r, err := env.FS.OpenFile(env.Abs(name), os.O_RDONLY)
		if err != nil {
			if errors.Is(err, syscall.EISDIR) {
				return columnFail(env, err)
			}
			env.PathError(name, err)
			eval++
			continue
		}
		err = ctl.read(env, r)
		r.Close()
		if err != nil {
			return columnFail(env, err)
		}
	}

	w := bufio.NewWriterSize(env.Stdout, 64<<10)
	if ctl.mode != columnTable {
		if len(ctl.ents) == 0 {
			return min(eval, 255)
		}
		if ctl.maxlength >= ctl.termwidth {
			ctl.mode = columnSimple
		}
	}
	switch ctl.mode {
	case columnTable:
		if len(ctl.lines) > 0 {
			if err := ctl.modify(); err != nil {
				return columnFail(env, err)
			}
			// util-linux takes the status of the table printing, which
			// fails on a table without columns.
			eval = 0
			if len(ctl.cols) == 0 {
				eval = 1
			} else if ctl.json {
				ctl.printJSON(w)
			} else {
				ctl.printTable(w)
			}
		}
	case columnFillCols:
		ctl.fillCols(w)
	case columnFillRows:
		ctl.fillRows(w)
	case columnSimple:
		for _, e := range ctl.ents {
			w.WriteString(e)
			w.WriteByte('\n')
		}
	}
	if err := w.Flush(); err != nil {
		st, _ := stopError(env, gnu.WriteError{Err: err})
		return st
	}
	if eval > 0 {
		return 1
	}
	return 0
}

// read adds the lines of r.
func (ctl *columnCtl) read(env *Env, r io.Reader) error {
	lr := newLineReader(env, r)
	for {
		line, _, err := lr.next('\n')
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := ctl.addLine(line); err != nil {
			return err
		}
	}
}

// columnFail reports err, which ends the run, and returns the exit status.
func columnFail(env *Env, err error) int {
	var ce *columnErr
	switch {
	case errors.As(err, &ce):
		env.Errorf("%s", ce.msg)
		return 1
	case errors.Is(err, gnu.ErrCancelled):
		return 1
	}
	env.Errorf("read failed: %s", ErrText(err))
	return 1
}

// columnU32 parses an unsigned 32-bit number as util-linux's
// strtou32_or_err does, with its error wording.
func columnU32(v, msg string) (int, error) {
	t := strings.TrimLeft(v, " \t\n\v\f\r")
	neg := strings.HasPrefix(t, "-")
	t = strings.TrimPrefix(strings.TrimPrefix(t, "-"), "+")
	if t == "" || strings.Trim(t, "0123456789") != "" {
		return 0, fmt.Errorf("%s: '%s'", msg, v)
	}
	n, err := strconv.ParseUint(t, 10, 32)
	if err != nil || (neg && n != 0) {
		return 0, fmt.Errorf("%s: '%s': Numerical result out of range", msg, v)
	}
	return int(n), nil
}

// columnEncode replaces bytes that are not valid UTF-8 by \xHH, as
// util-linux does for broken multibyte sequences; in the C locale
// (bytes), where mbrtowc takes no byte of 0x80 and over, every such byte.
func columnEncode(b []byte, bytes bool) string {
	if !bytes && utf8.Valid(b) || bytes && isASCII(string(b)) {
		return string(b)
	}
	var s strings.Builder
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if bytes && b[0] >= 0x80 || r == utf8.RuneError && n <= 1 {
			fmt.Fprintf(&s, `\x%02x`, b[0])
			b = b[1:]
			continue
		}
		s.Write(b[:n])
		b = b[n:]
	}
	return s.String()
}

// columnWidth is the display width of s; characters that are not
// printable count for nothing, as with wcwidth.
func columnWidth(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x20 && s[i] < 0x7f {
			n++
			continue
		}
		if s[i] < 0x80 {
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size - 1
		if unicode.IsControl(r) {
			continue
		}
		n += runeWidth(r)
	}
	return n
}

func (ctl *columnCtl) addLine(line []byte) error {
	if k := bytes.IndexByte(line, 0); k >= 0 {
		line = line[:k]
	}
	if len(bytes.TrimLeft(line, " \t\n\v\f\r")) == 0 {
		if ctl.keepEmpty {
			if ctl.mode == columnTable {
				ctl.lines = append(ctl.lines, nil)
			} else {
				ctl.ents = append(ctl.ents, "")
			}
		}
		return nil
	}
	s := columnEncode(line, ctl.bytes)
	if ctl.mode != columnTable {
		ctl.ents = append(ctl.ents, s)
		ctl.maxlength = max(ctl.maxlength, columnWidth(s))
		return nil
	}
	var cells []string
	isSep := func(r rune) bool { return strings.ContainsRune(ctl.inSep, r) }
	p := 0
	for {
		var beg, end int
		scan := p // where -l's last column starts
		last := ctl.maxCols > 0 && len(cells)+1 == ctl.maxCols
		if ctl.greedy && !(last && scan < len(s)) {
			for p < len(s) {
				r, n := utf8.DecodeRuneInString(s[p:])
				if !isSep(r) {
					break
				}
				p += n
			}
			if p >= len(s) {
				break
			}
		}
		beg = p
		end = len(s)
		if k := strings.IndexFunc(s[p:], isSep); k >= 0 {
			end = p + k
		}
		data := s[beg:end]
		if last {
			data = s[scan:]
		}
		if len(ctl.cols) < len(cells)+1 {
			if ctl.json {
				return &columnErr{fmt.Sprintf("line %d: for JSON the name of the column %d is required", len(ctl.lines)+2, len(cells)+1)}
			}
			ctl.cols = append(ctl.cols, &columnCol{idx: len(ctl.cols)})
		}
		cells = append(cells, data)
		if ctl.maxCols > 0 && len(cells) == ctl.maxCols || end == len(s) {
			break
		}
		_, n := utf8.DecodeRuneInString(s[end:])
		p = end + n
	}
	ctl.lines = append(ctl.lines, cells)
	return nil
}

// lookup finds the column named or numbered s (nil for a number out of
// range, as util-linux silently ignores those).
func (ctl *columnCtl) lookup(s string) (*columnCol, error) {
	if s != "" && strings.Trim(s, "0123456789") == "" {
		n, err := columnU32(s, "failed to parse column")
		if err != nil {
			return nil, err
		}
		if n < 1 || n > len(ctl.cols) {
			return nil, nil
		}
		return ctl.cols[n-1], nil
	}
	for _, c := range ctl.cols {
		if c.named && strings.EqualFold(c.name, s) {
			return c, nil
		}
	}
	return nil, fmt.Errorf("undefined column name '%s'", s)
}

// apply calls set on each column of a -H/-R list: "0" means every
// column and "-" every unnamed one.
func (ctl *columnCtl) apply(list string, set func(*columnCol)) error {
	if list == "0" {
		for _, c := range ctl.cols {
			set(c)
		}
		return nil
	}
	unnamed := false
	for _, one := range strings.Split(list, ",") {
		switch one {
		case "":
			continue
		case "-":
			unnamed = true
			continue
		}
		c, err := ctl.lookup(one)
		if err != nil {
			return &columnErr{err.Error()}
		}
		if c != nil {
			set(c)
		}
	}
	if unnamed {
		for _, c := range ctl.cols {
			if !c.named {
				set(c)
			}
		}
	}
	return nil
}

// modify applies -H, -R and -O to the columns.
func (ctl *columnCtl) modify() error {
	if ctl.hide != "" {
		if err := ctl.apply(ctl.hide, func(c *columnCol) { c.hidden = true }); err != nil {
			return err
		}
	}
	for _, o := range []struct {
		list string
		set  func(*columnCol)
	}{
		{ctl.right, func(c *columnCol) { c.right = true }},
		{ctl.trunc, func(c *columnCol) { c.trunc = true }},
		{ctl.noextreme, func(c *columnCol) { c.noextreme = true }},
		{ctl.wrap, func(c *columnCol) { c.wrap = true }},
	} {
		if o.list != "" {
			if err := ctl.apply(o.list, o.set); err != nil {
				return err
			}
		}
	}
	if ctl.noextreme == "" {
		// Without -E the last visible column ignores its extremes.
		for k := len(ctl.cols) - 1; k >= 0; k-- {
			if !ctl.cols[k].hidden {
				ctl.cols[k].noextreme = true
				break
			}
		}
	}
	if err := ctl.createTree(); err != nil {
		return err
	}
	if ctl.order != "" {
		var wanted []*columnCol
		for _, one := range strings.Split(ctl.order, ",") {
			if one == "" {
				continue
			}
			c, err := ctl.lookup(one)
			if err != nil {
				return &columnErr{err.Error()}
			}
			if c != nil {
				wanted = append(wanted, c)
			}
		}
		// Move each wanted column after the previous one, from the front.
		for i, c := range wanted {
			cur := -1
			for k, x := range ctl.cols {
				if x == c {
					cur = k
				}
			}
			cols := append(ctl.cols[:cur:cur], ctl.cols[cur+1:]...)
			at := 0
			if i > 0 {
				for k, x := range cols {
					if x == wanted[i-1] {
						at = k + 1
					}
				}
			}
			ctl.cols = append(cols[:at:at], append([]*columnCol{c}, cols[at:]...)...)
		}
	}
	return nil
}

// cell is what line n shows in column c: its data, after the tree
// drawing in the tree column.
func (ctl *columnCtl) cell(n int, c *columnCol) string {
	s := ""
	if l := ctl.lines[n]; c.idx < len(l) {
		s = l[c.idx]
	}
	if c == ctl.treeCol {
		s = ctl.prefix[n] + s
	}
	return s
}

// createTree links lines whose parent column holds another line's ID, as
// util-linux does: for each line in turn, every line naming it as parent
// becomes its child (leaving any earlier parent), unless that would make
// a cycle. Without -r the order is the input order.
func (ctl *columnCtl) createTree() error {
	n := len(ctl.lines)
	ctl.prefix = make([]string, n)
	ctl.rowOrder = make([]int, n)
	for i := range ctl.rowOrder {
		ctl.rowOrder[i] = i
	}
	if ctl.tree == "" {
		return nil
	}
	var cols [3]*columnCol
	for k, name := range []string{ctl.tree, ctl.treeParent, ctl.treeID} {
		c, err := ctl.lookup(name)
		if err != nil {
			return &columnErr{err.Error()}
		}
		cols[k] = c
	}
	treeCol, pcol, icol := cols[0], cols[1], cols[2]
	if treeCol == nil || pcol == nil || icol == nil {
		return nil // util-linux silently ignores the request
	}
	ctl.treeCol = treeCol
	data := func(l int, c *columnCol) (string, bool) {
		if c.idx < len(ctl.lines[l]) {
			return ctl.lines[l][c.idx], true
		}
		return "", false
	}
	byParent := map[string][]int{}
	for l := range ctl.lines {
		if p, ok := data(l, pcol); ok {
			byParent[p] = append(byParent[p], l)
		}
	}
	parent := make([]int, n)
	for i := range parent {
		parent[i] = -1
	}
	ctl.children = make([][]int, n)
	for li := range ctl.lines {
		id, ok := data(li, icol)
		if !ok {
			continue
		}
		for _, ln := range byParent[id] {
			cycle := false
			for x := li; x >= 0; x = parent[x] {
				if x == ln {
					cycle = true
					break
				}
			}
			if cycle {
				continue
			}
			if p := parent[ln]; p >= 0 {
				kids := ctl.children[p]
				for k, x := range kids {
					if x == ln {
						ctl.children[p] = append(kids[:k:k], kids[k+1:]...)
						break
					}
				}
			}
			parent[ln] = li
			ctl.children[li] = append(ctl.children[li], ln)
		}
	}
	ctl.rowOrder = ctl.rowOrder[:0]
	ctl.roots = nil
	var walk func(l int, indent string)
	walk = func(l int, indent string) {
		ctl.rowOrder = append(ctl.rowOrder, l)
		kids := ctl.children[l]
		for k, c := range kids {
			last := k == len(kids)-1
			if last {
				ctl.prefix[c] = indent + "└─"
				walk(c, indent+"  ")
			} else {
				ctl.prefix[c] = indent + "├─"
				walk(c, indent+"│ ")
			}
		}
	}
	for l := range ctl.lines {
		if parent[l] < 0 {
			ctl.roots = append(ctl.roots, l)
			walk(l, "")
		}
	}
	return nil
}

func (ctl *columnCtl) printJSON(w *bufio.Writer) {
	name := "table"
	if ctl.hasName {
		name = ctl.tabName
	}
	w.WriteString("{\n   ")
	columnJSONString(w, name)
	w.WriteString(": [\n")
	var vis []*columnCol
	for _, c := range ctl.cols {
		if !c.hidden {
			vis = append(vis, c)
		}
	}
	// Lines (a tree's children nested under their parent), at an indent.
	var list func(lines []int, indent string)
	list = func(lines []int, indent string) {
		for n, li := range lines {
			if n == 0 {
				w.WriteString(indent + "{\n")
			} else {
				w.WriteString(indent + "},{\n")
			}
			l := ctl.lines[li]
			var kids []int
			if ctl.treeCol != nil {
				kids = ctl.children[li]
			}
			for k, c := range vis {
				w.WriteString(indent + "   ")
				columnJSONString(w, strings.ToLower(c.name))
				w.WriteString(": ")
				if i := c.idx; i < len(l) && l[i] != "" {
					columnJSONString(w, l[i])
				} else {
					w.WriteString("null")
				}
				if k < len(vis)-1 || len(kids) > 0 {
					w.WriteByte(',')
				}
				w.WriteByte('\n')
			}
			if len(kids) > 0 {
				w.WriteString(indent + "   \"children\": [\n")
				list(kids, indent+"      ")
				w.WriteString(indent + "   ]\n")
			}
		}
		w.WriteString(indent + "}\n")
	}
	if ctl.treeCol != nil {
		list(ctl.roots, "      ")
	} else {
		list(ctl.rowOrder, "      ")
	}
	w.WriteString("   ]\n}\n")
}

// columnJSONString writes s as a JSON string the way libsmartcols does.
func columnJSONString(w *bufio.Writer, s string) {
	w.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			w.WriteByte('\\')
			w.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(w, `\u%04x`, c)
		default:
			w.WriteByte(c)
		}
	}
	w.WriteByte('"')
}

func (ctl *columnCtl) fillCols(w *bufio.Writer) {
	maxlen := (ctl.maxlength + 8) &^ 7
	numcols := max(ctl.termwidth/maxlen, 1)
	n := len(ctl.ents)
	numrows := (n + numcols - 1) / numcols
	for row := 0; row < numrows; row++ {
		endcol := maxlen
		chcnt := 0
		for base, col := row, 0; col < numcols; col++ {
			w.WriteString(ctl.ents[base])
			chcnt += columnWidth(ctl.ents[base])
			if base += numrows; base >= n {
				break
			}
			for cnt := (chcnt + 8) &^ 7; cnt <= endcol; cnt = (chcnt + 8) &^ 7 {
				w.WriteByte('\t')
				chcnt = cnt
			}
			endcol += maxlen
		}
		w.WriteByte('\n')
	}
}

func (ctl *columnCtl) fillRows(w *bufio.Writer) {
	maxlen := (ctl.maxlength + 8) &^ 7
	numcols := ctl.termwidth / maxlen // 0 puts everything on one row, as util-linux does
	endcol := maxlen
	chcnt, col := 0, 0
	for i, e := range ctl.ents {
		w.WriteString(e)
		chcnt += columnWidth(e)
		if i == len(ctl.ents)-1 {
			break
		}
		if col++; col == numcols {
			chcnt, col = 0, 0
			endcol = maxlen
			w.WriteByte('\n')
		} else {
			for cnt := (chcnt + 8) &^ 7; cnt <= endcol; cnt = (chcnt + 8) &^ 7 {
				w.WriteByte('\t')
				chcnt = cnt
			}
			endcol += maxlen
		}
	}
	if chcnt > 0 {
		w.WriteByte('\n')
	}
}
