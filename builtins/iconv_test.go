package builtins_test

import (
	"bytes"
	"context"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// TestIconvConversionStops: a conversion of the whole input in one call
// (a gigabyte made 4 GB of UTF-32) stops when the run's context ends, as
// a memory or time limit ends it; it ran on past the heap guard, and a
// library or serve run past its limit.
func TestIconvConversionStops(t *testing.T) {
	t.Parallel()
	data := bytes.Repeat([]byte("a"), 1<<20)
	out, msg, cancelled := ForTests.IconvConvert(context.Background(), "ISO-8859-1", "UTF-32", data)
	if cancelled || msg != "" || len(out) != 4+4*len(data) {
		t.Fatalf("live conversion: cancelled %v, msg %q, %d bytes", cancelled, msg, len(out))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, _, cancelled = ForTests.IconvConvert(ctx, "ISO-8859-1", "UTF-32", data)
	if !cancelled || len(out) > 4<<16 {
		t.Errorf("cancelled conversion: cancelled %v, %d bytes out", cancelled, len(out))
	}
}

// TestIconvTranslitLocale: //TRANSLIT uses the locale's table, as glibc
// 2.36 (expected values from its iconv): llmsh's own C.UTF-8 drops
// accents (translit_combining), LC_ALL=C (or LANG=C with nothing else)
// has only the C locale's few replacements.
func TestIconvTranslitLocale(t *testing.T) {
	t.Parallel()
	in := "na\u00efve caf\u00e9 \u00c6r\u00f8 \u00df \u0153 \ufb01 \u201cq\u201d \u2013 \u20ac \u00bd \u0152uvre \u00f1 \u00e7 \u0141\n"
	args := []string{"iconv", "-f", "UTF-8", "-t", "ASCII//TRANSLIT"}
	for _, c := range []struct {
		environ []string
		want    string
	}{
		{nil, "naive cafe AEro ss oe fi \"q\" - EUR  1/2  OEuvre n c L\n"},
		{[]string{"LANG=C.UTF-8", "LC_ALL=C"}, "na?ve caf? AEr? ss oe fi \"q\" - EUR  1/2  OEuvre ? ? ?\n"},
		{[]string{"LANG=C"}, "na?ve caf? AEr? ss oe fi \"q\" - EUR  1/2  OEuvre ? ? ?\n"},
	} {
		got := runCmdWith(t, nil, c.environ, in, args...)
		if got.stdout != c.want || got.status != 0 {
			t.Errorf("%v: got %q (status %d), want %q", c.environ, got.stdout, got.status, c.want)
		}
	}
}
