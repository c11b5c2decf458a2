package builtins

import (
	"context"
	"io"
	"io/fs"
	"reflect"
	"time"
)

// ForTests is builtins' test-support surface: the internals that
// builtins' own tests check directly. Those tests are an external
// package (builtins_test), so that a test run compiles builtins once,
// not a second time with its tests; nothing else uses ForTests. Each
// method is a thin view of one internal: the checks stay in the tests.
var ForTests forTests

type forTests struct{}

// SetNow makes the commands' clock (date's, find's, ls's now) f until
// the returned function restores it. Tests that use it do not run in
// parallel.
func (forTests) SetNow(f func() time.Time) (restore func()) {
	saved := now
	now = f
	return func() { now = saved }
}

// CompileMode is chmod's parse of a symbolic or octal mode (gnulib's
// mode_compile); apply is its adjustment of a file's mode (mode_adjust).
func (forTests) CompileMode(s string) (apply func(old uint32, isDir bool, umask uint32) uint32, ok bool) {
	ch, ok := compileMode(s)
	if !ok {
		return nil, false
	}
	return func(old uint32, isDir bool, umask uint32) uint32 { return adjustMode(ch, old, isDir, umask) }, true
}

// ParseMode is the file tree's parse of a mode (filetree.go).
func (forTests) ParseMode(s string, base fs.FileMode, isDir bool) (fs.FileMode, bool) {
	return parseMode(s, base, isDir)
}

// DiffLines cuts a and b into lines and returns diff's line comparison
// of the two (tab size 8), to run under a context.
func (forTests) DiffLines(a, b []byte) func(ctx context.Context) error {
	fa, fb := splitDiffLines(a), splitDiffLines(b)
	return func(ctx context.Context) error {
		_, err := diffLines(ctx, fa, fb, &diffOpts{tabsize: 8})
		return err
	}
}

// SplitDiffLines is diff's cut of data into lines under ctx, and whether
// its last line has no newline.
func (forTests) SplitDiffLines(ctx context.Context, data []byte) (lines [][]byte, missingNewline bool, err error) {
	f, err := splitDiffLinesCtx(ctx, data)
	if f == nil {
		return nil, false, err
	}
	return f.lines, f.missingNewline, err
}

// SetExprLongSubject sets the length from which expr reads a match's
// subject through the run's context, until restore.
func (forTests) SetExprLongSubject(n int) (restore func()) {
	saved := exprLongSubject
	exprLongSubject = n
	return func() { exprLongSubject = saved }
}

// ExprMatch is expr's STRING : REGEXP, under ctx when live (a long
// subject read through it) or as without a run's context; msg and status
// are the failure that stops it (status 0: none).
func (forTests) ExprMatch(ctx context.Context, live bool, s, pat string) (match, msg string, status int) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*exprError)
			if !ok {
				panic(r)
			}
			msg, status = e.msg, e.status
		}
	}()
	p := &exprParser{}
	if live {
		p.ctx = ctx
	}
	return p.exprMatch(s, pat), "", 0
}

// GrepMatcher compiles grep's patterns as grep does (newGrepMatcher).
// The matcher's deadline, when not zero, is a run's.
func (forTests) GrepMatcher(ctx context.Context, pats []string, mode byte, icase, word, line bool, eol byte, cloc bool) (*grepTestMatcher, error) {
	m, _, err := newGrepMatcher(ctx, pats, mode, icase, word, line, eol, cloc)
	if err != nil {
		return nil, err
	}
	return &grepTestMatcher{m}, nil
}

// grepTestMatcher is a grepMatcher as ForTests shows it.
type grepTestMatcher struct{ m *grepMatcher }

// Set, Window and Perl2 say which search the matcher chose: a set of
// fixed strings, the window check around a literal, the backtracking
// engine.
func (t *grepTestMatcher) Set() bool    { return t.m.set != nil }
func (t *grepTestMatcher) Window() bool { return t.m.win != nil }
func (t *grepTestMatcher) Perl2() bool  { return t.m.perl2 != nil }

// Next is the first matching line of buf[from:end]: its start and the
// index of its terminator, or -1.
func (t *grepTestMatcher) Next(buf []byte, from, end int) (int, int, error) {
	return t.m.next(buf, from, end)
}

// MatchLine reports whether line (without its terminator) matches.
func (t *grepTestMatcher) MatchLine(line []byte) (bool, error) { return t.m.matchLine(line) }

// EachMatch calls fn with the bounds of each match in line.
func (t *grepTestMatcher) EachMatch(line []byte, fn func(s, e int)) error {
	return t.m.eachMatch(line, fn)
}

// PerlTimeout is the time the backtracking engine is given for a match
// when the run's deadline is deadline (zero: none).
func (t *grepTestMatcher) PerlTimeout(deadline time.Time) time.Duration {
	t.m.deadline = deadline
	t.m.perlTimeout()
	return t.m.perl2.MatchTimeout
}

// GrepDistinct is the patterns a set of fixed strings keeps.
func (forTests) GrepDistinct(pats []string) []string { return grepDistinct(pats) }

// GrepSetFits is whether grep searches pats as a set of fixed strings.
func (forTests) GrepSetFits(pats []string, mode byte, icase, word, line bool, eol byte, cloc bool) bool {
	return grepSetFits(pats, mode, icase, word, line, eol, cloc)
}

// SetGrepSetMin sets how many distinct strings make a set, until restore.
func (forTests) SetGrepSetMin(n int) (restore func()) {
	saved := grepSetMin
	grepSetMin = n
	return func() { grepSetMin = saved }
}

// IconvConvert converts data from the charset src to dst with the run's
// context ctx, as iconv does: the output, the message of a failure, and
// whether the context stopped it.
func (forTests) IconvConvert(ctx context.Context, src, dst string, data []byte) (out []byte, msg string, cancelled bool) {
	c := &iconvConv{ctx: ctx, src: iconvCharsetFor(src), dst: iconvCharsetFor(dst)}
	out, msg = c.run(nil, data)
	return out, msg, c.cancelled
}

// LsTime is ls -l's time of an entry modified at t when it is now.
func (forTests) LsTime(t, now time.Time) string { return lsTime(t, now) }

// PrColumns is how many pages pr -COLUMNS of pageLen lines makes of
// lines under env's context (0: none, as a stopped run has).
func (forTests) PrColumns(env *Env, columns, pageLen int, lines []string) int {
	return len(prColumns(env, &prOpts{columns: columns, pageLen: pageLen}, lines))
}

// SplitStringLines is pr's cut of s into lines under ctx.
func (forTests) SplitStringLines(ctx context.Context, s string) ([]string, error) {
	return splitStringLinesCtx(ctx, s)
}

// SortBufferSize is sort's reading of -S's value v.
func (forTests) SortBufferSize(v string) (int64, error) { return sortBufferSize("-S", v) }

// PhysMemory is the machine's memory as sort sees it (0: unknown).
func (forTests) PhysMemory() int64 { return physMemory() }

// SortSizes are sort's sizes: the bytes of a line's record (and that
// record's size in memory, which it must be), the runs a merge takes, the
// least buffer, the lines guessed of an input of unknown size, and the
// default buffer.
func (forTests) SortSizes() (recSize, recMem, nmerge, minBuffer, inputGuess, defaultBuffer int64) {
	return sortRecSize, int64(reflect.TypeFor[sortRec]().Size()), sortNMerge, sortMinBuffer, sortInputGuess, sortDefaultBuffer()
}

// SortBuffer is the buffer sort takes for files with -S bufSize (0: not
// given).
func (forTests) SortBuffer(env *Env, files []string, bufSize int64) int64 {
	return sortBuffer(env, files, bufSize)
}

// SortPrefix is the 8-byte prefix sort compares a key by first, and
// SortPrefixTie the order of two keys whose prefixes are equal.
func (forTests) SortPrefix(key []byte) uint64  { return sortPrefix(key, nil, nil) }
func (forTests) SortPrefixTie(a, b []byte) int { return sortPrefixTie(a, b) }

// SortFarKeys prepares a record of each line for sort -kspec, and a copy
// of it whose first key's bounds are not stored (as a line of 256 MiB or
// more has them): the first key of each, and the comparison of two
// records of each kind.
func (forTests) SortFarKeys(spec string, lines []string) (stored, far []string, cmp func(i, j int, far bool) int, err error) {
	k, err := sortParseKey(nil, spec)
	if err != nil {
		return nil, nil, nil, err
	}
	s := &sortSorter{keys: []*sortKey{k}, tab: -1}
	recs := make([]sortRec, len(lines))
	farRecs := make([]sortRec, len(lines))
	for i, l := range lines {
		recs[i] = sortRecOf(&sortBuf{[]byte("xx" + l)}, 2, len(l))
		s.prepare(&recs[i])
		farRecs[i] = recs[i]
		farRecs[i].setKey(0, sortKeyFar, recs[i].class())
		stored = append(stored, string(s.firstKey(&recs[i], k)))
		far = append(far, string(s.firstKey(&farRecs[i], k)))
	}
	return stored, far, func(i, j int, far bool) int {
		if far {
			return s.cmp(&farRecs[i], &farRecs[j])
		}
		return s.cmp(&recs[i], &recs[j])
	}, nil
}

// SortRuns reads in as one plain sort of budget bytes reads a pipe,
// spilling runs: how many it spilled, and the most bytes of records and
// line blocks one held when it spilled.
func (forTests) SortRuns(in io.Reader, budget int64) (runs int, most int64, err error) {
	s := &sortSorter{keys: []*sortKey{{eword: -1}}, tab: -1, nmerge: sortNMerge, parallel: 1}
	var l *sortLoader
	l = newSortLoader(s, &Env{Ctx: context.Background()}, '\n', budget, func(chunks [][]sortRec) error {
		runs++
		var held int64
		for _, c := range chunks {
			held += int64(cap(c)) * sortRecSize
		}
		for _, b := range l.blocks {
			held += int64(len(b.b))
		}
		most = max(most, held)
		return nil
	})
	err = l.read(in)
	return runs, most, err
}

// SetSortWorkers makes sort ask workers how many goroutines sort its
// chunks, until restore. Tests that use it do not run in parallel.
func (forTests) SetSortWorkers(workers func() int) (restore func()) {
	sortWorkers = func(*sortSorter) int { return workers() }
	return func() { sortWorkers = (*sortSorter).workers }
}

// TailSuffix is what tail -n/-c (lines; sign '+' or 0) prints from p,
// the last bytes of a regular file from off, and whether they hold all
// of it.
func (forTests) TailSuffix(p []byte, off int64, fi fs.FileInfo, lines bool, n int64, sign, delim byte) ([]byte, bool) {
	return tailSuffix(p, off, fi, headCountSpec{lines: lines, n: n, sign: sign}, delim)
}

// TarTransform parses tar's --transform expressions: the function that
// renames a member, or the message of a bad expression.
func (forTests) TarTransform(expr string) (func(name string) string, string) {
	ts, msg := parseTarTransforms(expr)
	if msg != "" {
		return nil, msg
	}
	s := &tarState{transforms: ts}
	return s.transformName, ""
}

// TsortGraph is tsort's graph of data's pairs under env's context: each
// item's name, in order, and the names of its successors.
func (forTests) TsortGraph(env *Env, data []byte) (names []string, successors [][]string, err error) {
	items, err := tsortGraph(env, data)
	for _, it := range items {
		names = append(names, it.str)
		var top []string
		for _, s := range it.top {
			top = append(top, s.str)
		}
		successors = append(successors, top)
	}
	return names, successors, err
}

// SortInts sorts nums as tsort's sort does, stopping with ctx.
func (forTests) SortInts(ctx context.Context, nums []int) error {
	return sortCtx(ctx, nums, func(a, b int) int { return a - b }) // small ints: no overflow
}

// WcCount is wc's count of r (lines and/or bytes) with buf; IOBufSize is
// the size of the buffers the commands read with.
func (forTests) WcCount(env *Env, r io.Reader, lines, bytes bool, buf []byte) (nlines, nbytes int64, err error) {
	c, err := wcCount(env, r, wcWhat{lines: lines, bytes: bytes}, buf)
	return c.lines, c.bytes, err
}

func (forTests) IOBufSize() int { return ioBufSize }

// ZipDeflate is zip's deflate of data at level under ctx.
func (forTests) ZipDeflate(ctx context.Context, data []byte, level int) ([]byte, error) {
	return zipDeflate(ctx, data, level)
}

// JqBacktrackTimeout is the time jq's backtracking engine gives a search
// when ctx is the run's (llmsh's jq_regexp.go), and the error of a search
// of s by pattern re under ctx.
func (forTests) JqBacktrackTimeout(ctx context.Context, re, s string) (time.Duration, error) {
	bt, err := jqBacktrack(re, false, false)
	if err != nil {
		return 0, err
	}
	b := bt.(*jqBacktracker)
	b.timeout(ctx)
	t := b.re.MatchTimeout
	_, err = b.FindAll(ctx, s, -1)
	return t, err
}
