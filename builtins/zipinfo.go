package builtins

import "fmt"

// zipinfo (and unzip -Z) lists the members of a ZIP archive as Info-ZIP's
// ZipInfo 3.0: names only (-1), names with the optional header and
// totals lines (-2 with -h and -t), or the header and totals alone.
// The ls-like formats (-s, the default, -m, -l, -v) need fields
// archive/zip does not give (a member's internal attributes), so they
// are refused.
var _ = register(Builtin{Name: "zipinfo", Summary: "list the members of a ZIP archive (names, header and totals)", Run: zipinfo})

func zipinfo(env *Env) int {
	var excludes []string
	args := env.Args[1:]
	for i, a := range args {
		if a == "-x" {
			// Everything after -x is a name to leave out.
			args, excludes = args[:i:i], args[i+1:]
			break
		}
	}
	f := NewFlags(env, "List name, date/time, attribute, size, compression method, etc., about files\n"+
		"in list (excluding those in xlist) contained in the specified .zip archive.\n"+
		"llmsh lists names only (-1, -2), with the header and totals lines.\n"+
		"unzip -Z [-12hCt] file[.zip] [list...] [-x xlist...] is the same.",
		"[-12hCt] file[.zip] [list...] [-x xlist...]")
	format := byte('s')
	setFormat := func(c byte) func(string, bool) error {
		return func(string, bool) error { format = c; return nil }
	}
	f.Func('1', "", NoArg, "", "filenames ONLY, one per line", setFormat('1'))
	f.Func('2', "", NoArg, "", "just filenames but allow -h/-t", setFormat('2'))
	f.Func('s', "", NoArg, "", "short Unix \"ls -l\" format (refused by llmsh)", setFormat('s'))
	f.Func('m', "", NoArg, "", "medium Unix \"ls -l\" format (refused by llmsh)", setFormat('m'))
	f.Func('l', "", NoArg, "", "long Unix \"ls -l\" format (refused by llmsh)", setFormat('l'))
	f.Func('v', "", NoArg, "", "verbose, multi-page format (refused by llmsh)", setFormat('v'))
	header := f.Bool('h', "", "print header line")
	totals := f.Bool('t', "", "print totals for listed files or for all")
	fold := f.Bool('C', "", "be case-insensitive")
	f.Bool('M', "", "page output through built-in \"more\" (no terminal: no effect)")
	f.Bool('W', "", "wildcards do not match \"/\" (no effect: they do)")
	comment := f.Bool('z', "", "print zipfile comment (refused by llmsh)")
	f.Bool('T', "", "print file times in sortable decimal format (with -s, -m, -l only)")
	version := versionOption(f)
	f.Func('x', "", NoArg, "", "exclude filenames that follow from listing", func(string, bool) error { return nil })
	args, err := f.Parse(args)
	if err != nil {
		return f.Fail(err, 10)
	}
	if *version {
		return printVersion(env)
	}
	if len(args) == 0 {
		f.PrintHelp(env.Stdout)
		return 0
	}
	listed := format == '1' || format == '2'
	// The default listing is left out when -h or -t alone is asked for
	// the whole archive; named members are listed in it.
	if !listed && (!*header && !*totals || len(args) > 1) || *comment {
		opt := map[byte]string{'s': "-s (the default)", 'm': "-m", 'l': "-l", 'v': "-v"}[format]
		if *comment {
			opt = "-z"
		}
		env.Errorf("the %s listing is not supported by llmsh: use -1 or -2 (names), or unzip -l", opt)
		return 10
	}
	w := stdoutWriter(env)
	defer w.Flush()
	zr, _, size, st := unzipOpen(env, w, args[0], false, "zipinfo")
	if zr == nil {
		return st
	}
	match := func(pats []string) []func(string) bool {
		var m []func(string) bool
		for _, p := range pats {
			m = append(m, findGlob(p, *fold))
		}
		return m
	}
	members, xs := match(args[1:]), match(excludes)
	matched := make([]bool, len(members))
	if *header && format != '1' {
		fmt.Fprintf(w, "Archive:  %s\nZip file size: %d bytes, number of entries: %d\n", args[0], size, len(zr.File))
	}
	var n int
	var usize, csize uint64
	for _, zf := range zr.File {
		if grepGlobMatch(xs, zf.Name, false) {
			continue
		}
		in := len(members) == 0
		for i, m := range members {
			if m(zf.Name) {
				matched[i], in = true, true
			}
		}
		if !in {
			continue
		}
		n++
		usize += zf.UncompressedSize64
		csize += zf.CompressedSize64
		if listed {
			fmt.Fprintln(w, zf.Name)
		}
	}
	if *totals && format != '1' {
		files := "files"
		if n == 1 {
			files = "file"
		}
		r := zipinfoRatio(usize, csize)
		sign := ""
		if r < 0 {
			sign, r = "-", -r
		}
		fmt.Fprintf(w, "%d %s, %d bytes uncompressed, %d bytes compressed:  %s%d.%d%%\n", n, files, usize, csize, sign, r/10, r%10)
	}
	for i, p := range args[1:] {
		if !matched[i] {
			w.Flush()
			fmt.Fprintf(env.Stderr, "caution: filename not matched:  %s\n", p)
		}
	}
	if n == 0 && len(members) > 0 {
		st = 11
	}
	return finishOutput(env, w, st)
}

// zipinfoRatio is the space saved in tenths of a percent, rounded as
// ZipInfo's ratio().
func zipinfoRatio(uc, c uint64) int {
	if uc == 0 {
		return 0
	}
	num, denom := uint64(1000), uc
	if uc > 2000000 {
		num, denom = 1, uc/1000
	}
	if uc >= c {
		return int((num*(uc-c) + denom/2) / denom)
	}
	return -int((num*(c-uc) + denom/2) / denom)
}
