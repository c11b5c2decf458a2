package builtins_test

import (
	"io/fs"
	"strings"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/builtins"
)

// Expected values checked against GNU tail 9.1 (LC_ALL=C).
func TestTail(t *testing.T) {
	t.Parallel()
	runLines(t, []linesCase{
		{nil, []string{"tail"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", 0},
		{nil, []string{"tail"}, "a\nb", "a\nb", "", 0},
		{nil, []string{"tail"}, "", "", "", 0},
		{nil, []string{"tail", "-n", "3"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "10\n11\n12\n", "", 0},
		{nil, []string{"tail", "-n3"}, "a\nb\nc\nd", "b\nc\nd", "", 0},
		{nil, []string{"tail", "-n", "-2"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "11\n12\n", "", 0},
		{nil, []string{"tail", "-n", "+11"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "11\n12\n", "", 0},
		{nil, []string{"tail", "-n", "+0"}, "a\nb", "a\nb", "", 0},
		{nil, []string{"tail", "-n", "0"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", "", 0},
		// GNU reads nothing, opens nothing, prints no header
		{map[string]string{"f": "x\n"}, []string{"tail", "-v", "-n", "0", "f", "nope"}, "", "", "", 0},
		{map[string]string{"f": "x\n"}, []string{"tail", "-c0", "f"}, "", "", "", 0},
		// GNU's from_start stays once a + was seen
		{nil, []string{"tail", "-n", "+3", "-c", "4"}, "abcdefg\n", "defg\n", "", 0},
		{nil, []string{"tail", "-n", "+2", "-n", "-1"}, "1\n2\n3\n", "1\n2\n3\n", "", 0},
		{nil, []string{"tail", "-c", "4"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "\n12\n", "", 0},
		{nil, []string{"tail", "-c", "+20"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "0\n11\n12\n", "", 0},
		{nil, []string{"tail", "-c", "100"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", 0},
		{nil, []string{"tail", "-3"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "10\n11\n12\n", "", 0},
		{nil, []string{"tail", "+11"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "11\n12\n", "", 0},
		{nil, []string{"tail", "-3c"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "12\n", "", 0},
		{nil, []string{"tail", "+3c"}, "abcdef", "cdef", "", 0},
		{nil, []string{"tail", "-2l"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "11\n12\n", "", 0},
		{nil, []string{"tail", "-n", "x"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", "tail: invalid number of lines: 'x'\n", 1},
		{nil, []string{"tail", "-c", "x"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", "tail: invalid number of bytes: 'x'\n", 1},
		{nil, []string{"tail", "-n", "99999999999999999999999"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", "tail: invalid number of lines: '99999999999999999999999': Value too large for defined data type\n", 1},
		{nil, []string{"tail", "-z", "-n1"}, "a\x00b\x00", "b\x00", "", 0},
		{nil, []string{"tail", "-v", "-n1"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "==> standard input <==\n12\n", "", 0},
		{nil, []string{"tail", "-n1", "-", "-"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "==> standard input <==\n12\n\n==> standard input <==\n", "", 0},
		{nil, []string{"tail", "-q", "-c2", "-", "-"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "2\n", "", 0},
		{nil, []string{"tail", "-n", "2", "-3"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", "tail: option used in invalid context -- 3\n", 1},
	})
}

// TestTailFollow: tail -f prints the end of its files, then (GNU 9.1)
// follows none of a piped standard input, says "no files remaining"
// when no file could be read, and with a file left to follow (which GNU
// would wait on forever) llmsh refuses, after the end is printed.
func TestTailFollow(t *testing.T) {
	t.Parallel()
	const refused = "tail: following files (-f, -F, --follow) is not supported in llmsh: files do not grow while a script runs\n"
	files := map[string]string{"a": "1\n2\n", "d/x": "x\n"}
	runLines(t, []linesCase{
		{nil, []string{"tail", "-f"}, "x\n", "x\n", "", 0},
		{nil, []string{"tail", "-5f"}, "x\n", "x\n", "", 0},
		{nil, []string{"tail", "-F"}, "x\n", "", "tail: cannot follow '-' by name\n", 1},
		{nil, []string{"tail", "--follow=name", "-"}, "x\n", "", "tail: cannot follow '-' by name\n", 1},
		{files, []string{"tail", "-f", "a"}, "", "1\n2\n", refused, 1},
		{files, []string{"tail", "-F", "-n1", "a"}, "", "2\n", refused, 1},
		{files, []string{"tail", "-f", "nope", "-n1", "a"}, "", "==> a <==\n2\n", "tail: cannot open 'nope' for reading: No such file or directory\n" + refused, 1},
		{files, []string{"tail", "-f", "--retry", "nope"}, "", "", "tail: warning: --retry only effective for the initial open\ntail: cannot open 'nope' for reading: No such file or directory\n" + refused, 1},
		{files, []string{"tail", "-f", "nope"}, "", "", "tail: cannot open 'nope' for reading: No such file or directory\ntail: no files remaining\n", 1},
		{files, []string{"tail", "-f", "d", "nope"}, "", "==> d <==\n", "tail: error reading 'd': Is a directory\ntail: d: cannot follow end of this type of file; giving up on this name\n" +
			"tail: cannot open 'nope' for reading: No such file or directory\ntail: no files remaining\n", 1},
		{files, []string{"tail", "-f", "nope", "-"}, "x\n", "==> standard input <==\nx\n", "tail: cannot open 'nope' for reading: No such file or directory\ntail: no files remaining\n", 1},
	})
}

// TestTailSuffix: what tail prints from the last bytes of a regular
// file (tailSuffix), when it says they hold all of it, is what it
// prints from the whole file, for every block size; and it says so
// whenever the block is the whole file.
func TestTailSuffix(t *testing.T) {
	t.Parallel()
	contents := []string{"", "x", "\n", "\n\n\n", "a\nb\nc", "a\nb\nc\n", "one\ntwo\n\nfour\nfive\nsix\n",
		"a\x00b\x00\x00c", strings.Repeat("line\n", 40), "long " + strings.Repeat("z", 50) + "\nshort\n"}
	var specs []headCountSpec
	for _, n := range []int64{0, 1, 2, 3, 5, 7, 100, 1 << 62} {
		for _, sign := range []byte{0, '+'} {
			for _, lines := range []bool{true, false} {
				specs = append(specs, headCountSpec{lines: lines, n: n, sign: sign})
			}
		}
	}
	for _, text := range contents {
		for _, delim := range []byte{'\n', 0} {
			for _, spec := range specs {
				want := tailWhole(text, spec, delim)
				fi := tailInfo(int64(len(text)))
				for block := 1; block <= len(text)+1; block++ {
					off := max(len(text)-block, 0)
					got, done := tailSuffix([]byte(text[off:]), int64(off), fi, spec, delim)
					if len(text) == 0 {
						if done {
							t.Errorf("empty file: done, want it read as a stream")
						}
						continue
					}
					if off == 0 && !done {
						t.Errorf("%q %+v delim %d block %d (whole): not done", text, spec, delim, block)
					}
					if done && string(got) != want {
						t.Errorf("%q %+v delim %d block %d: %q, want %q", text, spec, delim, block, got, want)
					}
				}
			}
		}
	}
}

// headCountSpec is a -n or -c count as head.go's: lines or bytes, the
// count, and its sign ('+': tail from the start).
type headCountSpec struct {
	lines bool
	n     int64
	sign  byte
}

// tailSuffix is tail.go's: what tail prints of p, the last bytes of a
// regular file from off, and whether they hold all of it.
func tailSuffix(p []byte, off int64, fi fs.FileInfo, spec headCountSpec, delim byte) ([]byte, bool) {
	return ForTests.TailSuffix(p, off, fi, spec.lines, spec.n, spec.sign, delim)
}

// tailWhole is what tail prints of the whole text, as GNU's does.
func tailWhole(text string, spec headCountSpec, delim byte) string {
	var lines []string
	for rest := text; rest != ""; {
		i := strings.IndexByte(rest, delim)
		if i < 0 {
			lines = append(lines, rest)
			break
		}
		lines = append(lines, rest[:i+1])
		rest = rest[i+1:]
	}
	switch {
	case spec.sign == '+' && spec.lines:
		return strings.Join(lines[min(max(spec.n-1, 0), int64(len(lines))):], "")
	case spec.sign == '+':
		return text[min(max(spec.n-1, 0), int64(len(text))):]
	case spec.lines:
		return strings.Join(lines[int64(len(lines))-min(spec.n, int64(len(lines))):], "")
	}
	return text[int64(len(text))-min(spec.n, int64(len(text))):]
}

// tailInfo is the stat of a regular file of size bytes.
type tailInfo int64

func (s tailInfo) Name() string       { return "f" }
func (s tailInfo) Size() int64        { return int64(s) }
func (s tailInfo) Mode() fs.FileMode  { return 0o644 }
func (s tailInfo) ModTime() time.Time { return time.Time{} }
func (s tailInfo) IsDir() bool        { return false }
func (s tailInfo) Sys() any           { return nil }
