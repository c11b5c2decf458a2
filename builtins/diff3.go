package builtins

import (
	"bufio"
	"bytes"
	"fmt"
)

var _ = register(Builtin{Name: "diff3", Summary: "compare three files line by line", Run: diff3Cmd})

// diff3 block types, after GNU diff3.c: which file (in diff3's internal
// order: 0, 1 and the common file 2) differs from the other two, or all.
const (
	diff3All = iota
	diff3First
	diff3Second
	diff3Third
)

// diff3Block is a block of GNU's three-way diff: a range [lo, hi] (1-based,
// hi == lo-1 when empty) in each internal file, and its type.
type diff3Block struct {
	lo, hi [3]int
	kind   int
}

// diff3Two is a hunk of a two-way diff against the common file: ranges in
// the other file (o) and the common file (c).
type diff3Two struct{ oLo, oHi, cLo, cHi int }

// diff3Run holds diff3's options and inputs.
type diff3Run struct {
	env                                   *Env
	lines                                 [3][][]byte // per internal file, lines with their newline
	mapping, revMapping                   [3]int      // user file -> internal file, and back
	labels                                [3]string
	showSecond, flagging, overlap, simple bool
	finalWrite, initialTab                bool
	edscript                              bool // the output is an ed script (-AeExX3 without -m)
}

// diff3Cmd is diffutils 3.8's diff3: MYFILE OLDFILE YOURFILE compared by
// GNU's make_3way_diff over two diffs against the common file, printed as
// diff3's own format, as an ed script (-e -E -x -X -3 -A) or merged (-m).
func diff3Cmd(env *Env) int {
	f := NewFlags(env, "Compare three files line by line.", "[OPTION]... MYFILE OLDFILE YOURFILE")
	f.Epilog = "The default output format is a somewhat human-readable representation of\nthe changes.\n\n" +
		"The -e, -E, -x, -X (and corresponding long) options cause an ed script\nto be output instead of the default.\n\n" +
		"Finally, the -m (--merge) option causes diff3 to do the merge internally\nand output the actual merged file.  For unusual input, this is more\nrobust than using ed.\n\n" +
		"If a FILE is '-', read standard input.\nExit status is 0 if successful, 1 if conflicts, 2 if trouble."
	d := &diff3Run{env: env}
	incompat := 0
	count := func(short rune, long, help string, set func()) {
		f.Func(short, long, NoArg, "", help, func(string, bool) error {
			incompat++
			set()
			return nil
		})
	}
	count('A', "show-all", "output all changes, bracketing conflicts", func() { d.showSecond, d.flagging = true, true })
	count('e', "ed", "output ed script incorporating changes\nfrom OLDFILE to YOURFILE into MYFILE", func() {})
	count('E', "show-overlap", "like -e, but bracket conflicts", func() { d.flagging = true })
	count('3', "easy-only", "like -e, but incorporate only nonoverlapping changes", func() { d.simple = true })
	count('x', "overlap-only", "like -e, but incorporate only overlapping changes", func() { d.overlap = true })
	// diffutils 3.8's -X brackets nothing (checked against it): it
	// acts as -x, in ed scripts and merges alike.
	count('X', "", "like -x, but bracket conflicts", func() { d.overlap = true })
	f.BoolVar(&d.finalWrite, 'i', "", "append 'w' and 'q' commands to ed scripts")
	merge := f.Bool('m', "merge", "output actual merged file, according to\n-A if no other options are given")
	f.Bool('a', "text", "treat all files as text")
	stripCR := f.Bool(0, "strip-trailing-cr", "strip trailing carriage return on input")
	f.BoolVar(&d.initialTab, 'T', "initial-tab", "make tabs line up by prepending a tab")
	program, programSet := f.String(0, "diff-program", "PROGRAM", "use PROGRAM to compare files")
	var labels []string
	tooMany := false
	f.Func('L', "label", RequiredArg, "LABEL", "use LABEL instead of file name\n(can be repeated up to three times)", func(v string, _ bool) error {
		if len(labels) == 3 {
			tooMany = true
		} else {
			labels = append(labels, v)
		}
		return nil
	})
	version := shortHelpVersion(f, 0, 'v')
	args, err := f.Parse(env.Args[1:])
	tryHelp := func(msg string) int {
		fmt.Fprintf(env.Stderr, "diff3: %s\ndiff3: Try 'diff3 --help' for more information.\n", msg)
		return 2
	}
	if err != nil {
		if msg, ok := usageMessage(err); ok {
			return tryHelp(msg)
		}
		return f.Fail(err, 2)
	}
	if *version {
		return printVersion(env)
	}
	if tooMany {
		return tryHelp("too many file label options")
	}
	edscript := incompat > 0 && !*merge
	d.edscript = edscript
	if incompat == 0 && *merge {
		d.showSecond, d.flagging = true, true // -m alone is -A
	}
	if incompat > 1 || d.finalWrite && *merge || len(labels) > 0 && !d.flagging {
		return tryHelp("incompatible options")
	}
	if len(args) < 3 {
		return tryHelp("missing operand after " + env.Quote(env.Args[len(env.Args)-1]))
	}
	if len(args) > 3 {
		return tryHelp("extra operand " + env.Quote(args[3]))
	}
	if *programSet {
		env.Errorf("%s: llmsh runs no program but its own diff", *program)
		return 2
	}
	copy(d.labels[:], labels)
	for i := len(labels); i < 3; i++ {
		d.labels[i] = args[i]
	}
	// GNU's choice of the common file: OLDFILE for a merge or an ed
	// script, YOURFILE for the plain format; never standard input.
	common := 2
	if edscript || *merge {
		common = 1
	}
	if args[common] == "-" {
		common = 3 - common
		if args[0] == "-" || args[common] == "-" {
			env.Errorf("'-' specified for more than one input file")
			return 2
		}
	}
	d.mapping = [3]int{0, 3 - common, common}
	for i, m := range d.mapping {
		d.revMapping[m] = i
	}
	threads, status := d.load(args, *stripCR)
	if status >= 0 {
		return status
	}
	blocks := d.make3way(threads)
	w := stdoutWriter(env)
	conflicts := false
	switch {
	case edscript:
		conflicts = d.edScript(w, blocks)
	case *merge:
		conflicts = d.merged(w, blocks)
	default:
		d.plain(w, blocks)
	}
	status = 0
	if conflicts {
		status = 1
	}
	return finishOutput(env, w, status)
}

// load reads the three files and diffs MYFILE and YOURFILE (in internal
// order) against the common file; status is -1 when all went well.
func (d *diff3Run) load(args []string, stripCR bool) (threads [2][]diff3Two, status int) {
	env := d.env
	var files [3]*diffFile
	for k := 0; k < 3; k++ {
		name := args[d.revMapping[k]]
		r, err := env.Open(name)
		var data []byte
		if err == nil {
			data, err = readHeld(env, r)
			r.Close()
		}
		if err != nil {
			if st, stop := stopError(env, err); stop {
				return threads, st
			}
			env.Errorf("%s: %s", name, ErrText(err))
			return threads, 2
		}
		if stripCR {
			data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
		}
		if files[k], err = splitDiffLinesCtx(env.Ctx, data); err != nil {
			return threads, writeFailed(env, err)
		}
		if d.lines[k], err = splitLinesKeep(env.Ctx, data); err != nil {
			return threads, writeFailed(env, err)
		}
	}
	for t := 0; t < 2; t++ {
		// GNU diff3 runs diff --horizon-lines=100.
		script, err := diffLines(env.Ctx, files[t], files[2], &diffOpts{tabsize: 8, horizon: 100})
		if err != nil {
			if st, stop := stopError(env, err); stop {
				return threads, st
			}
			env.Errorf("%s", ErrText(err))
			return threads, 2
		}
		markers := 0
		for _, c := range script {
			threads[t] = append(threads[t], diff3Two{c.line0 + 1, c.line0 + c.deleted, c.line1 + 1, c.line1 + c.inserted})
			if c.deleted > 0 && c.line0+c.deleted == len(files[t].lines) && files[t].missingNewline {
				markers++
			}
			if c.inserted > 0 && c.line1+c.inserted == len(files[2].lines) && files[2].missingNewline {
				markers++
			}
		}
		for ; d.edscript && markers > 0; markers-- {
			// GNU warns for each "\ No newline at end of file" of
			// the diffs it reads, when it writes an ed script.
			env.Errorf("No newline at end of file")
		}
	}
	return threads, -1
}

// make3way merges the two diffs into three-way blocks, as GNU's
// make_3way_diff: blocks whose common-file ranges overlap or touch are
// one block.
func (d *diff3Run) make3way(threads [2][]diff3Two) []diff3Block {
	var out []diff3Block
	last := diff3Block{} // GNU's zero block: every range [0, 0]
	cur := [2]int{}
	for cur[0] < len(threads[0]) || cur[1] < len(threads[1]) {
		var using [2][]diff3Two
		base := 0
		switch {
		case cur[0] >= len(threads[0]):
			base = 1
		case cur[1] >= len(threads[1]):
			base = 0
		case threads[0][cur[0]].cLo > threads[1][cur[1]].cLo:
			base = 1
		}
		high := base
		mark := threads[base][cur[base]].cHi
		using[base] = append(using[base], threads[base][cur[base]])
		cur[base]++
		other := high ^ 1
		for cur[other] < len(threads[other]) && threads[other][cur[other]].cLo <= mark+1 {
			o := threads[other][cur[other]]
			using[other] = append(using[other], o)
			cur[other]++
			if mark < o.cHi {
				high ^= 1
				mark = o.cHi
			}
			other = high ^ 1
		}
		b := d.block(using, base, high, &last)
		out = append(out, b)
		last = b
	}
	return out
}

// block is GNU's using_to_diff3_block.
func (d *diff3Run) block(using [2][]diff3Two, low, high int, last *diff3Block) diff3Block {
	var b diff3Block
	lowc := using[low][0].cLo
	hu := using[high]
	highc := hu[len(hu)-1].cHi
	b.lo[2], b.hi[2] = lowc, highc
	for t := 0; t < 2; t++ {
		if u := using[t]; len(u) > 0 {
			b.lo[t] = lowc - u[0].cLo + u[0].oLo
			b.hi[t] = highc - u[len(u)-1].cHi + u[len(u)-1].oHi
		} else {
			b.lo[t] = lowc - last.hi[2] + last.hi[t]
			b.hi[t] = highc - last.hi[2] + last.hi[t]
		}
	}
	switch {
	case len(using[0]) == 0:
		b.kind = diff3Second
	case len(using[1]) == 0:
		b.kind = diff3First
	case d.sameLines(b, 0, 1):
		b.kind = diff3Third
	default:
		b.kind = diff3All
	}
	return b
}

// text is the lines of internal file k in block b.
func (d *diff3Run) text(b diff3Block, k int) [][]byte {
	lo, hi := max(b.lo[k], 1), min(b.hi[k], len(d.lines[k]))
	if lo > hi {
		return nil
	}
	return d.lines[k][lo-1 : hi]
}

func (d *diff3Run) sameLines(b diff3Block, i, j int) bool {
	a, c := d.text(b, i), d.text(b, j)
	if len(a) != len(c) || b.hi[i]-b.lo[i] != b.hi[j]-b.lo[j] {
		return false
	}
	for n := range a {
		x, y := a[n], c[n]
		if d.edscript {
			// For an ed script GNU ends an incomplete last line with
			// a newline as it reads the diffs (and warns).
			x, y = bytes.TrimSuffix(x, []byte("\n")), bytes.TrimSuffix(y, []byte("\n"))
		}
		if !bytes.Equal(x, y) {
			return false
		}
	}
	return true
}

// userKind is the block's type in the user's order of the files: which
// of MYFILE, OLDFILE, YOURFILE differs (diff3First...), or diff3All.
func (d *diff3Run) userKind(b diff3Block) int {
	if b.kind == diff3All {
		return diff3All
	}
	return diff3First + d.revMapping[b.kind-diff3First]
}

// plain is diff3's default format.
func (d *diff3Run) plain(w *bufio.Writer, blocks []diff3Block) {
	prefix := "  "
	if d.initialTab {
		prefix = "\t"
	}
	skew := [3]int{2, 3, 1} // 0, 2, 1 when the first and third are alike
	for _, b := range blocks {
		odd, dontPrint := 3, 3
		if b.kind == diff3All {
			w.WriteString("====\n")
		} else {
			odd = d.revMapping[b.kind-diff3First]
			fmt.Fprintf(w, "====%d\n", odd+1)
			if odd == 0 {
				dontPrint = 1
			} else {
				dontPrint = 0
			}
		}
		for i := 0; i < 3; {
			k := d.mapping[i]
			lo, hi := b.lo[k], b.hi[k]
			switch lo - hi {
			case 1:
				fmt.Fprintf(w, "%d:%da\n", i+1, lo-1)
			case 0:
				fmt.Fprintf(w, "%d:%dc\n", i+1, lo)
			default:
				fmt.Fprintf(w, "%d:%d,%dc\n", i+1, lo, hi)
			}
			if i != dontPrint {
				lines := d.text(b, k)
				for _, l := range lines {
					w.WriteString(prefix)
					w.Write(l)
				}
				if n := len(lines); n > 0 && !bytes.HasSuffix(lines[n-1], []byte("\n")) {
					w.WriteString("\n\\ No newline at end of file\n")
				}
			}
			if odd == 1 {
				i = skew[i]
			} else {
				i++
			}
		}
	}
}

// wanted says whether a block of user type kind is output by an ed script
// or a merge, and whether it is a conflict.
func (d *diff3Run) wanted(kind int) (want, conflict bool) {
	switch kind {
	case diff3Second:
		return d.showSecond, true
	case diff3Third:
		return !d.overlap, false
	case diff3All:
		return !d.simple, d.flagging
	}
	return false, false
}

// dotLines writes the lines of internal file k in b, a '.' before each
// that starts with one; it reports whether it added any.
func (d *diff3Run) dotLines(w *bufio.Writer, b diff3Block, k int) bool {
	dot := false
	for _, l := range d.text(b, k) {
		if len(l) > 0 && l[0] == '.' {
			dot = true
			w.WriteByte('.')
		}
		w.Write(l)
		if l[len(l)-1] != '\n' {
			w.WriteByte('\n') // an ed script's text ends its lines
		}
	}
	return dot
}

func diff3Undot(w *bufio.Writer, dot bool, start, num int) {
	w.WriteString(".\n")
	if dot {
		if num == 1 {
			fmt.Fprintf(w, "%ds/^\\.//\n", start)
		} else {
			fmt.Fprintf(w, "%d,%ds/^\\.//\n", start, start+num-1)
		}
	}
}

func (d *diff3Run) numLines(b diff3Block, k int) int { return b.hi[k] - b.lo[k] + 1 }

// edScript is GNU's output_diff3_edscript: the blocks from the last.
func (d *diff3Run) edScript(w *bufio.Writer, blocks []diff3Block) bool {
	conflicts := false
	m0, m1, m2 := d.mapping[0], d.mapping[1], d.mapping[2]
	for i := len(blocks) - 1; i >= 0; i-- {
		b := blocks[i]
		kind := d.userKind(b)
		want, conflict := d.wanted(kind)
		if !want {
			continue
		}
		low0, high0 := b.lo[m0], b.hi[m0]
		switch {
		case conflict:
			conflicts = true
			fmt.Fprintf(w, "%da\n", high0)
			dot := false
			if kind == diff3All {
				if d.showSecond {
					fmt.Fprintf(w, "||||||| %s\n", d.labels[1])
					dot = d.dotLines(w, b, m1)
				}
				w.WriteString("=======\n")
				dot = d.dotLines(w, b, m2) || dot
			}
			fmt.Fprintf(w, ">>>>>>> %s\n", d.labels[2])
			diff3Undot(w, dot, high0+2, d.numLines(b, m1)+d.numLines(b, m2)+1)
			label := d.labels[1]
			if kind == diff3All {
				label = d.labels[0]
			}
			fmt.Fprintf(w, "%da\n<<<<<<< %s\n", low0-1, label)
			dot = false
			if kind == diff3Second {
				dot = d.dotLines(w, b, m1)
				w.WriteString("=======\n")
			}
			diff3Undot(w, dot, low0+1, d.numLines(b, m1))
		case d.numLines(b, m2) == 0:
			if low0 == high0 {
				fmt.Fprintf(w, "%dd\n", low0)
			} else {
				fmt.Fprintf(w, "%d,%dd\n", low0, high0)
			}
		default:
			switch high0 - low0 {
			case -1:
				fmt.Fprintf(w, "%da\n", high0)
			case 0:
				fmt.Fprintf(w, "%dc\n", high0)
			default:
				fmt.Fprintf(w, "%d,%dc\n", low0, high0)
			}
			diff3Undot(w, d.dotLines(w, b, m2), low0, d.numLines(b, m2))
		}
	}
	if d.finalWrite {
		w.WriteString("w\nq\n")
	}
	return conflicts
}

// merged is GNU's output_diff3_merge: MYFILE with the blocks applied.
func (d *diff3Run) merged(w *bufio.Writer, blocks []diff3Block) bool {
	conflicts := false
	mine := d.lines[0]
	read := 0
	m0, m1, m2 := d.mapping[0], d.mapping[1], d.mapping[2]
	put := func(lines [][]byte) {
		for _, l := range lines {
			w.Write(l)
		}
	}
	for _, b := range blocks {
		kind := d.userKind(b)
		want, conflict := d.wanted(kind)
		if !want {
			continue
		}
		secondFormat := "<<<<<<< %s\n"
		if kind == diff3All {
			secondFormat = "||||||| %s\n"
		}
		upTo := min(max(b.lo[0]-1, read), len(mine))
		put(mine[read:upTo])
		read = upTo
		if conflict {
			conflicts = true
			if kind == diff3All {
				fmt.Fprintf(w, "<<<<<<< %s\n", d.labels[0])
				put(d.text(b, m0))
			}
			if d.showSecond {
				fmt.Fprintf(w, secondFormat, d.labels[1])
				put(d.text(b, m1))
			}
			w.WriteString("=======\n")
		}
		put(d.text(b, m2))
		if conflict {
			fmt.Fprintf(w, ">>>>>>> %s\n", d.labels[2])
		}
		read = min(read+d.numLines(b, 0), len(mine))
	}
	put(mine[read:])
	return conflicts
}
