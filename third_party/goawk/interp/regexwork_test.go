package interp

// llmsh: regexwork.go.

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/llmsh/llmsh/third_party/goawk/internal/compiler"
	"github.com/llmsh/llmsh/third_party/goawk/internal/resolver"
)

func ctxInterp(ctx context.Context) *interp {
	return &interp{checkCtx: true, ctx: ctx, ctxDone: ctx.Done(), regexCache: map[string]*regexp.Regexp{}}
}

// A long string's match, read through the context's reader, finds what
// the string's own search finds, prefix skip included.
func TestRegexWorkSameMatches(t *testing.T) {
	defer func(n int) { bigRegexInput = n }(bigRegexInput)
	bigRegexInput = 1 << 12 // the reader path, on inputs small enough for -race
	p := ctxInterp(context.Background())
	big := strings.Repeat("ab cd\xff é", bigRegexInput/8)
	inputs := []string{big + "foo bar", "xfoo" + big, big, "b" + big + "zfoo", big + "ab\n"}
	for _, pat := range []string{`foo`, `^b`, `^foo`, `\bfoo`, `foo\b`, `oo\B`, `b$`, `é`, `\xff`, `(x|y)+z`,
		`c.{0,3}é`, `[^a-z ]`, `z`, `(?i)FOO`, `fo*`, `$`, ``} {
		re := regexp.MustCompile(compiler.AddRegexFlags(pat))
		for i, s := range inputs {
			got, err := p.findStringIndex(re, s)
			want := re.FindStringIndex(s)
			if err != nil || (got == nil) != (want == nil) || got != nil && (got[0] != want[0] || got[1] != want[1]) {
				t.Errorf("/%s/ on input %d: %v, %v; want %v", pat, i, got, err, want)
			}
			all, err := p.findAllIndex(re, s)
			if wantAll := re.FindAllStringIndex(s, -1); err != nil || fmt.Sprint(all) != fmt.Sprint(wantAll) {
				t.Errorf("/%s/ on input %d: all matches differ (%d, %d), %v", pat, i, len(all), len(wantAll), err)
			}
			parts, err := p.splitRegex(re, s)
			if wantParts := re.Split(s, -1); err != nil || strings.Join(parts, "|") != strings.Join(wantParts, "|") || len(parts) != len(wantParts) {
				t.Errorf("/%s/ on input %d: split differs (%d, %d), %v", pat, i, len(parts), len(wantParts), err)
			}
			out, _, err := p.sub(pat, "<&>", s, true)
			if want := re.ReplaceAllString(s, "<$0>"); err != nil || out != want {
				t.Errorf("/%s/ on input %d: gsub differs, %v", pat, i, err)
			}
		}
	}
}

// A stopped run stops a long match and a gsub midway; sub() finds its
// one match without a walk over the others.
func TestRegexWorkStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := ctxInterp(ctx)
	big := strings.Repeat("ab", bigRegexInput)
	re := regexp.MustCompile(`[a-z]{1,30}Q`)
	if loc, err := p.findStringIndex(re, big); loc != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("findStringIndex: %v, %v; want context.Canceled", loc, err)
	}
	if _, _, err := p.sub(`a`, "x", strings.Repeat("a", 5000), true); !errors.Is(err, context.Canceled) {
		t.Errorf("gsub: %v; want context.Canceled", err)
	}
	p = ctxInterp(context.Background())
	if out, n, err := p.sub(`a`, "[&]", "bab"+big, false); err != nil || n != 1 || out != "b[a]b"+big {
		t.Errorf("sub: %.10q, %d, %v", out, n, err)
	}
	if out, n, err := p.sub(`x*`, "-", "ab", true); err != nil || n != 3 || out != "-a-b-" {
		t.Errorf("gsub: %q, %d, %v", out, n, err)
	}
}

// split into a character or a single-character separator, and by " ",
// makes its pieces one by one and stops with the run (llmsh, session 21:
// split of 64M characters by "" answered 7.1 s past a 1 s limit), and
// splits as strings.Split and strings.Fields do.
func TestSplitStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	long := strings.Repeat("a, ", 3<<20)
	for _, fs := range []string{"", ",", " "} {
		p := ctxInterp(ctx)
		p.arrays = []*awkArray{{}}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := p.split(long, resolver.Global, 0, fs, DefaultMode)
		runtime.ReadMemStats(&after)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("split by %q: %v; want context.Canceled", fs, err)
		}
		// Stopped after 65536 pieces, not after making millions of them
		// (all of them first: 100 to 300 MB).
		if n := after.TotalAlloc - before.TotalAlloc; n > 32<<20 {
			t.Errorf("split by %q allocated %d bytes before it stopped", fs, n)
		}
	}
	p := ctxInterp(context.Background())
	p.arrays = []*awkArray{{}}
	for _, tc := range []struct {
		s, fs, want string
		chars       bool
	}{
		{"a,b,,c,", ",", "a|b||c|", false}, {"é\xffx", "", "\xc3|\xa9|\xff|x", false}, {"é\xffx", "", "é|\xff|x", true},
		{"  a \t b\n", " ", "a|b", false}, {",", ",", "|", false},
	} {
		p.chars = tc.chars
		n, err := p.split(tc.s, resolver.Global, 0, tc.fs, DefaultMode)
		var got []string
		for i := 1; i <= n; i++ {
			got = append(got, p.arrays[0].split[i-1].val.s)
		}
		if err != nil || strings.Join(got, "|") != tc.want {
			t.Errorf("split(%q, %q) = %q, %v; want %q", tc.s, tc.fs, got, err, tc.want)
		}
	}
}

// TestFieldsStop: a long record's fields (`$0 = s`, a long input line)
// are split one by one and stop with the run (session 22, red team:
// 32M fields took 5.8 s past a 1 s limit), and give the same fields as
// the short records' split when the run goes on.
func TestFieldsStop(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	long := strings.Repeat("a, ", 3<<20)
	for _, fs := range []string{"", ",", " "} {
		p := ctxInterp(ctx)
		p.fieldSep = fs
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		p.setLine(long, true)
		p.ensureFields()
		runtime.ReadMemStats(&after)
		if p.numFields != 0xffff {
			t.Errorf("FS %q: %d fields split after the stop; want 65535", fs, p.numFields)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 32<<20 {
			t.Errorf("FS %q: %d bytes allocated before the stop", fs, n)
		}
	}
	for _, fs := range []string{"", ",", " "} {
		p := ctxInterp(context.Background())
		p.fieldSep = fs
		line := strings.Repeat("ab,\t c ", stopFieldsAt/7+9)
		p.setLine(line, true)
		p.ensureFields()
		got := slices.Clone(p.fields)
		p.setLine(line[:stopFieldsAt-1], true)
		p.ensureFields()
		short := p.fields
		p.setLine(line, true)
		switch fs {
		case " ":
			p.fields = strings.Fields(line)
		case "":
			p.fields = splitBytes(line)
		default:
			p.fields = strings.Split(line, fs)
		}
		if !slices.Equal(got, p.fields) || len(short) == 0 || !slices.Equal(short[:len(short)-1], got[:len(short)-1]) {
			t.Errorf("FS %q: the long record's %d fields differ from the plain split's %d", fs, len(got), len(p.fields))
		}
	}
}
