package builtins

import (
	"context"
	"fmt"
	"io"
	"math/rand"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// sortRandomInput makes n lines of comma- and blank-separated fields
// drawn from words that the orderings treat differently: numbers, sizes,
// months, versions, case and leading blanks, with many equal keys.
func sortRandomInput(rng *rand.Rand, n int) string {
	words := []string{"a", "B", "b", "abc", "Abc", "10", "9", "-3", "2.5", "1K", "2M", "512",
		"jan", "FEB", "mar", "dec", "x-1.10", "x-1.9", "x-1.2a", "  z", " y", "", "0x1f", "éa"}
	var b strings.Builder
	for range n {
		for f := range 1 + rng.Intn(3) {
			if f > 0 {
				b.WriteString([]string{",", " ", ", "}[rng.Intn(3)])
			}
			b.WriteString(words[rng.Intn(len(words))])
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestSortExternalMatchesMemory checks that a sort spilled to temporary
// files (a buffer of the least size, so that runs are merged in several
// passes of 16) writes what the in-memory sort writes, for random inputs
// and each ordering, and leaves no temporary file behind.
func TestSortExternalMatchesMemory(t *testing.T) {
	t.Parallel()
	opts := [][]string{
		nil, {"-n"}, {"-r"}, {"-k2,2"}, {"-t,", "-k2,2"}, {"-u"}, {"-s", "-k1,1"}, {"-f"}, {"-b", "-k2"},
		{"-h"}, {"-V"}, {"-M"}, {"-u", "-f"}, {"-s", "-n", "-k2,2"}, {"-u", "-t,", "-k1,1n"},
		{"-r", "-s", "-k1,1M"}, {"-z"}, {"-u", "-z", "-r"},
	}
	rng := rand.New(rand.NewSource(21))
	for round, lines := range []int{400} { // one input: each option already spills and merges
		in := sortRandomInput(rng, lines)
		// -S 1b spills a run per sortMinBuffer bytes of lines and
		// their records: more than sortNMerge runs, merged in two passes
		// (with --batch-size=2, in several).
		if cost := len(in) + strings.Count(in, "\n")*sortRecSize; cost <= sortNMerge*sortMinBuffer {
			t.Fatalf("round %d: %d bytes of lines and records spill at most %d runs", round, cost, sortNMerge)
		}
		for _, o := range opts {
			dir := t.TempDir()
			fsys := testFS(t, dir)
			writeTestFile(t, fsys, dir+"/in", in)
			mkdirAllTest(t, fsys, dir+"/tmp")
			run := func(extra ...string) result {
				args := append(append([]string{"sort"}, o...), extra...)
				args = append(args, "in")
				var out, errb strings.Builder
				env := &Env{Ctx: context.Background(), Args: args, Stdin: strings.NewReader(""),
					Stdout: &out, Stderr: &errb, FS: fsys, Dir: dir}
				b, _ := Lookup("sort")
				st := Run(b, env)
				return result{out.String(), errb.String(), st}
			}
			want := run()
			if want.status != 0 || want.stderr != "" || want.stdout == "" {
				t.Fatalf("sort %q: %+v", o, want)
			}
			for _, extra := range [][]string{{"-S", "1b", "-T", "tmp"}, {"-S", "3K", "--parallel=1", "-T", "tmp", "-T", "tmp"}, {"-S", "1b", "--batch-size=2", "-T", "tmp"}} {
				got := run(extra...)
				if got != want {
					t.Errorf("round %d, sort %q %q: external result differs:\n got %+v\nwant %+v", round, o, extra, got, want)
				}
				if left, err := fsys.ReadDir(dir + "/tmp"); err != nil || len(left) != 0 {
					t.Errorf("sort %q %q: temporary files left: %v %v", o, extra, left, err)
				}
			}
		}
	}
}

// TestSortExternalErrors: the temporary directory as GNU sort 9.1
// reports it, and --parallel checked as GNU checks it.
func TestSortExternalErrors(t *testing.T) {
	t.Parallel()
	var big strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&big, "%d\n", 2000-i)
	}
	f := map[string]string{"in": big.String(), "small": "b\na\n"}
	runTextFiles(t, []textFileCase{
		{f, []string{"sort", "-S", "1K", "-T", "nosuch", "in"}, "", "sort: cannot create temporary file in 'nosuch': No such file or directory\n", 2, "", ""},
		// Input that fits the buffer needs no temporary file.
		{f, []string{"sort", "-T", "nosuch", "small"}, "a\nb\n", "", 0, "", ""},
		{f, []string{"sort", "--parallel=0", "small"}, "", "sort: number in parallel must be nonzero\n", 2, "", ""},
		{f, []string{"sort", "--parallel=x", "small"}, "", "sort: invalid --parallel argument 'x'\n", 2, "", ""},
		{f, []string{"sort", "--parallel=99999999999999999999", "small"}, "a\nb\n", "", 0, "", ""},
		// No host program compresses: GNU's words when PROG cannot run,
		// once a temporary file is needed.
		{f, []string{"sort", "-S", "1K", "--compress-program=gzip", "in"}, "", "sort: couldn't execute compress program: errno 2\n", 2, "", ""},
		{f, []string{"sort", "--compress-program=gzip", "small"}, "a\nb\n", "", 0, "", ""},
		// --batch-size is at most the session's ulimit -n less 3.
		{f, []string{"sort", "--batch-size=1021", "small"}, "a\nb\n", "", 0, "", ""},
		{f, []string{"sort", "--batch-size=1022", "small"}, "", "sort: --batch-size argument '1022' too large\nsort: maximum --batch-size argument with current rlimit is 1021\n", 2, "", ""},
		{f, []string{"sort", "--batch-size=99999999999999999999", "small"}, "", "sort: --batch-size argument '99999999999999999999' too large\nsort: maximum --batch-size argument with current rlimit is 1021\n", 2, "", ""},
	})
	// Without -T the runs go to /tmp (outside the grant: virtual files),
	// and are removed.
	got := runCmd(t, map[string]string{"in": big.String()}, "", "sort", "-n", "-S", "1K", "in")
	if got.status != 0 || got.stderr != "" || !strings.HasPrefix(got.stdout, "1\n2\n3\n") || strings.Count(got.stdout, "\n") != 2000 {
		t.Errorf("sort -S 1K: %d %q %.20q", got.status, got.stderr, got.stdout)
	}
	// With no file system for temporaries, the input is sorted in memory.
	got = runCmd(t, nil, big.String(), "sort", "-n", "-S", "1K")
	if got.status != 0 || got.stderr != "" || !strings.HasPrefix(got.stdout, "1\n2\n3\n") {
		t.Errorf("sort -S 1K without an FS: %d %q %.20q", got.status, got.stderr, got.stdout)
	}
}

func TestSortBufferSizeValue(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v    string
		want int64
	}{{"1", 1024}, {"1b", 1}, {"10M", 10 << 20}, {"2k", 2048}, {"1G", 1 << 30}} {
		if n, err := sortBufferSize("-S", c.v); err != nil || n != c.want {
			t.Errorf("-S %s: %d %v, want %d", c.v, n, err, c.want)
		}
	}
	if n, err := sortBufferSize("-S", "50%"); err != nil || physMemory() > 0 && n != physMemory()/2 {
		t.Errorf("-S 50%%: %d %v (memory %d)", n, err, physMemory())
	}
}

// sortCancelReader serves lines and cancels the run once half of them
// have been read (as the time limit would).
type sortCancelReader struct {
	lines  int
	cancel context.CancelFunc
}

func (r *sortCancelReader) Read(p []byte) (int, error) {
	if r.lines == 0 {
		return 0, io.EOF
	}
	r.lines--
	if r.lines == 1000 {
		r.cancel()
	}
	return copy(p, fmt.Sprintf("line %d\n", r.lines)), nil
}

// TestSortExternalCancelled: a run stopped while runs are on disk
// (the time limit, Ctrl-C) exits 1 and removes them.
func TestSortExternalCancelled(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fsys := testFS(t, dir)
	mkdirAllTest(t, fsys, dir+"/tmp")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb strings.Builder
	env := &Env{Ctx: ctx, Args: []string{"sort", "-S", "1b", "-T", "tmp"}, Stdin: &sortCancelReader{lines: 3000, cancel: cancel},
		Stdout: &out, Stderr: &errb, FS: fsys, Dir: dir}
	b, _ := Lookup("sort")
	if st := Run(b, env); st != 1 || out.Len() != 0 {
		t.Errorf("status %d, output %q %q", st, out.String(), errb.String())
	}
	if left, err := fsys.ReadDir(dir + "/tmp"); err != nil || len(left) != 0 {
		t.Errorf("temporary files left: %v %v", left, err)
	}
}

// TestSortBufferByInput checks the buffer GNU's way: each regular file's
// worst case (a line a byte) up to the bound, a guess for an input of
// unknown size, and -S as given when an input's size is unknown.
func TestSortBufferByInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fsys := testFS(t, dir)
	writeTestFile(t, fsys, dir+"/small", strings.Repeat("x\n", 500))
	env := &Env{Ctx: context.Background(), Stdin: strings.NewReader("a\n"), FS: fsys, Dir: dir}
	per := int64(sortRecSize + 1)
	guess := sortInputGuess*per + 1
	for _, c := range []struct {
		files []string
		s     int64
		want  int64
	}{
		{[]string{"small"}, 0, per + 1 + 1000*per + 1},
		{[]string{"small", "small"}, 0, per + 1 + 2*(1000*per+1)},
		{[]string{"-"}, 0, per + 1 + guess},
		{[]string{"small", "-"}, 0, per + 1 + 1000*per + 1 + guess},
		{[]string{"/dev/null"}, 0, per + 1 + guess},
		{[]string{"-"}, 5 << 20, 5 << 20},
		{[]string{"small"}, 5 << 20, per + 1 + 1000*per + 1},
		{[]string{"small"}, 1000, 1000},
		{[]string{"-"}, 0, min(sortDefaultBuffer(), per+1+guess)},
	} {
		if got := sortBuffer(env, c.files, c.s); got != c.want {
			t.Errorf("sortBuffer(%q, -S %d) = %d, want %d", c.files, c.s, got, c.want)
		}
	}
	// A file of unknown size: stdin that is a regular file has its size.
	f, err := fsys.OpenFile(dir+"/small", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	env.Stdin = f
	if got, want := sortBuffer(env, []string{"-"}, 0), per+1+1000*per+1; got != want {
		t.Errorf("sortBuffer(regular stdin) = %d, want %d", got, want)
	}
}

// TestSortSmallBlocksLongLines checks lines longer than the read blocks
// (64 KiB under -S 1M) among short ones: each moves to a block of its
// own, and the output is the in-memory sort's.
func TestSortSmallBlocksLongLines(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(13))
	var b strings.Builder
	for i := range 400 {
		n := 1 + rng.Intn(20)
		if i%25 == 0 {
			n = 40<<10 + rng.Intn(200<<10)
		}
		c := byte('a' + rng.Intn(26))
		b.WriteString(strings.Repeat(string(c), n))
		fmt.Fprintf(&b, "%d\n", rng.Intn(1000))
	}
	in := b.String()
	dir := t.TempDir()
	fsys := testFS(t, dir)
	writeTestFile(t, fsys, dir+"/in", in)
	mkdirAllTest(t, fsys, dir+"/tmp")
	run := func(args ...string) string {
		var out, errb strings.Builder
		env := &Env{Ctx: context.Background(), Args: append([]string{"sort"}, args...), Stdin: strings.NewReader(in),
			Stdout: &out, Stderr: &errb, FS: fsys, Dir: dir}
		b, _ := Lookup("sort")
		if st := Run(b, env); st != 0 || errb.Len() > 0 {
			t.Fatalf("sort %q: status %d, %s", args, st, errb.String())
		}
		return out.String()
	}
	want := run("in")
	if len(want) != len(in) {
		t.Fatalf("sort in: %d bytes, want %d", len(want), len(in))
	}
	for _, args := range [][]string{{"-S", "1M", "-T", "tmp", "in"}, {"-S", "1M", "-T", "tmp"}, {"-T", "tmp"}} {
		if got := run(args...); got != want {
			t.Errorf("sort %q differs from the in-memory sort", args)
		}
	}
}

// sortCountingFS counts the files opened for writing under dir.
type sortCountingFS struct {
	FS
	dir     string
	created int
}

func (c *sortCountingFS) OpenFile(name string, flag int) (File, error) {
	if flag&os.O_CREATE != 0 && strings.HasPrefix(name, c.dir+"/") {
		c.created++
	}
	return c.FS.OpenFile(name, flag)
}

// TestSortLastRunSpilled checks that once a run has gone to a temporary
// file, the last one goes too (as GNU's sort writes every buffer but the
// first when the input does not fit), so that the merge holds no run in
// memory; and that an input within the buffer makes no file.
func TestSortLastRunSpilled(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fsys := testFS(t, dir)
	mkdirAllTest(t, fsys, dir+"/tmp")
	// A line of 4 digits costs 4+1+sortRecSize bytes: run lines a run
	// under -S 10k, so five runs and 35 lines make six files.
	run := 10 << 10 / (4 + 1 + sortRecSize)
	for _, c := range []struct{ lines, runs int }{
		{5*run + 35, 6},
		{5 * run, 5},
		{run, 0},
	} {
		var in strings.Builder
		for i := range c.lines {
			fmt.Fprintf(&in, "%04d\n", (i*7919)%c.lines)
		}
		cfs := &sortCountingFS{FS: fsys, dir: dir + "/tmp"}
		var out, errb strings.Builder
		env := &Env{Ctx: context.Background(), Args: []string{"sort", "-S", "10k", "-T", "tmp"},
			Stdin: strings.NewReader(in.String()), Stdout: &out, Stderr: &errb, FS: cfs, Dir: dir}
		b, _ := Lookup("sort")
		if st := Run(b, env); st != 0 || errb.Len() > 0 {
			t.Fatalf("%d lines: status %d, %s", c.lines, st, errb.String())
		}
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if len(lines) != c.lines || !slices.IsSorted(lines) {
			t.Errorf("%d lines: %d lines out, sorted %v", c.lines, len(lines), slices.IsSorted(lines))
		}
		if cfs.created != c.runs {
			t.Errorf("%d lines: %d temporary files, want %d", c.lines, cfs.created, c.runs)
		}
		if left, err := fsys.ReadDir(dir + "/tmp"); err != nil || len(left) != 0 {
			t.Errorf("temporary files left: %v %v", left, err)
		}
	}
}

// TestSortRecCompact checks the record's size, on which the buffer's
// accounting (sortRecSize) rests, and that a first key whose bounds do
// not fit the record's 28 bits each (a line of 256 MiB or more) is found
// again in the line at each use, ordering as the stored bounds do.
func TestSortRecCompact(t *testing.T) {
	t.Parallel()
	if got := reflect.TypeFor[sortRec]().Size(); got != sortRecSize {
		t.Errorf("sortRec is %d bytes, sortRecSize says %d", got, sortRecSize)
	}
	for _, spec := range []string{"2", "2n", "2h", "2g", "2M", "2f"} {
		k, err := sortParseKey(nil, spec)
		if err != nil {
			t.Fatal(err)
		}
		s := &sortSorter{keys: []*sortKey{k}, tab: -1}
		lines := []string{"a 10 x", "b 9 y", "c 10.5 z", "d -3 w", "e feb v", "f 2K u", "g abc t", "h 10 s"}
		recs := make([]sortRec, len(lines))
		far := make([]sortRec, len(lines))
		for i, l := range lines {
			buf := &sortBuf{[]byte("xx" + l)}
			recs[i] = sortRecOf(buf, 2, len(l))
			s.prepare(&recs[i])
			far[i] = recs[i]
			far[i].setKey(0, sortKeyFar, recs[i].class())
			if string(s.firstKey(&far[i], k)) != string(s.firstKey(&recs[i], k)) {
				t.Errorf("-k%s %q: far key %q, stored %q", spec, l, s.firstKey(&far[i], k), s.firstKey(&recs[i], k))
			}
		}
		for i := range recs {
			for j := range recs {
				if a, b := s.cmp(&recs[i], &recs[j]), s.cmp(&far[i], &far[j]); a != b {
					t.Errorf("-k%s %q vs %q: %d with stored bounds, %d recomputed", spec, lines[i], lines[j], a, b)
				}
			}
		}
	}
}

// TestSortRunMemory checks what a run of a pipe's buffer holds when it
// spills: its record chunks and line blocks stay within an eighth of the
// budget over it (a partial chunk and blocks), as GNU's one buffer of that
// size holds both (4.6 MB for 4.3; chunks of a quarter of the budget and
// blocks of a sixteenth held 5.5 MB).
func TestSortRunMemory(t *testing.T) {
	t.Parallel()
	s := &sortSorter{keys: []*sortKey{{eword: -1}}, tab: -1, nmerge: sortNMerge, parallel: 1}
	budget := int64(sortInputGuess*(sortRecSize+1) + sortRecSize + 2) // sortBuffer of a pipe
	var most int64
	runs := 0
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
	var in strings.Builder
	for i := range 400_000 { // lines of 2 to 11 bytes
		fmt.Fprintf(&in, "%.*d\n", 1+i%10, i*7919)
	}
	if err := l.read(strings.NewReader(in.String())); err != nil {
		t.Fatal(err)
	}
	if runs < 2 {
		t.Fatalf("%d runs spilled, want several", runs)
	}
	if most > budget+budget/8 {
		t.Errorf("a run held %d bytes of records and lines, budget %d", most, budget)
	}
	if testing.Verbose() {
		t.Logf("%d runs, a run held %d bytes, budget %d", runs, most, budget)
	}
}

// sortSizedFile records the read sizes the merge gives a run it reads.
type sortSizedFile struct {
	File
	sizes *[]int
}

func (f sortSizedFile) SetReadSize(n int) { *f.sizes = append(*f.sizes, n) }

// sortShmFile records the SetWriteShm calls on a run written.
type sortShmFile struct {
	File
	calls *[]bool
}

func (f sortShmFile) SetWriteShm(on bool) { *f.calls = append(*f.calls, on) }

// sortSizingFS opens the runs under dir as sortSizedFile.
type sortSizingFS struct {
	FS
	dir   string
	sizes []int
	shm   []bool // SetWriteShm calls on runs written
}

func (c *sortSizingFS) OpenFile(name string, flag int) (File, error) {
	f, err := c.FS.OpenFile(name, flag)
	if err == nil && flag == os.O_RDONLY && strings.HasPrefix(name, c.dir+"/") {
		return sortSizedFile{f, &c.sizes}, nil
	}
	if err == nil && flag&os.O_CREATE != 0 && strings.HasPrefix(name, c.dir+"/") {
		return sortShmFile{f, &c.shm}, nil
	}
	return f, err
}

// TestSortMergeReadSize checks that the merge asks each run it reads to
// be read in pieces of its buffer (readSizer), so that a file system that
// reads ahead (vfsclient) holds about that much of each run.
func TestSortMergeReadSize(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fsys := testFS(t, dir)
	mkdirAllTest(t, fsys, dir+"/tmp")
	var in strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&in, "%05d\n", (i*7919)%2000)
	}
	sfs := &sortSizingFS{FS: fsys, dir: dir + "/tmp"}
	var out, errb strings.Builder
	env := &Env{Ctx: context.Background(), Args: []string{"sort", "-S", "20k", "-T", "tmp"},
		Stdin: strings.NewReader(in.String()), Stdout: &out, Stderr: &errb, FS: sfs, Dir: dir}
	b, _ := Lookup("sort")
	if st := Run(b, env); st != 0 || errb.Len() > 0 {
		t.Fatalf("status %d, %s", st, errb.String())
	}
	if lines := strings.Count(out.String(), "\n"); lines != 2000 {
		t.Fatalf("%d lines out", lines)
	}
	// 2000 lines of 6 bytes and a record under -S 20k: four runs, each
	// read through a buffer of 20k/17 bytes, at least 4 KiB.
	if want := []int{4 << 10, 4 << 10, 4 << 10, 4 << 10}; !slices.Equal(sfs.sizes, want) {
		t.Errorf("read sizes %v, want %v", sfs.sizes, want)
	}
	// A buffer under sortPipeRuns: each run goes through the pipe, not
	// the region shared with vfsd.
	if want := []bool{false, false, false, false}; !slices.Equal(sfs.shm, want) {
		t.Errorf("SetWriteShm calls %v, want %v", sfs.shm, want)
	}
}
