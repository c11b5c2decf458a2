package repl

import (
	"strings"
	"testing"
)

// TestBanner: the start line lists the writable grants among the
// readable ones, since -o grants reading too ("readable: nothing" with
// only -o said otherwise).
func TestBanner(t *testing.T) {
	for _, c := range []struct {
		read, write []string
		want        string
	}{
		{nil, nil, "readable: nothing · writable: nothing ·"},
		{nil, []string{"/w"}, "readable: /w · writable: /w ·"},
		{[]string{"/r"}, []string{"/w"}, "readable: /r /w · writable: /w ·"},
		{[]string{"/r"}, nil, "readable: /r · writable: nothing ·"},
	} {
		got := banner(Options{Version: "1", Readable: c.read, Writable: c.write})
		if !strings.Contains(got, c.want) {
			t.Errorf("banner(%v, %v) = %q, want %q in it", c.read, c.write, got, c.want)
		}
	}
}
