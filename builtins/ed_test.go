package builtins_test

import "testing"

// Expected values checked against GNU ed 1.19 (Debian 12), run as
// `printf SCRIPT | ed ARGS` on a file f holding one..four.
func TestEd(t *testing.T) {
	t.Parallel()
	files := map[string]string{"f": "one\ntwo\nthree\nfour\n"}
	cases := []struct {
		name, script string
		args         []string
		out, err     string
		status       int
	}{
		{"delete and write", "2d\nw\ne\n,p\nq\n", []string{"-s", "f"}, "one\nthree\nfour\n", "", 0},
		{"byte counts", "2d\nw\n", []string{"f"}, "19\n15\n", "", 0},
		{"no match: ? and status 1", "/nomatch/d\n,p\n", []string{"-s", "f"}, "?\none\ntwo\nthree\nfour\n", "", 1},
		{"H explains", "H\n/nomatch/d\nq\n", []string{"-s", "f"}, "?\nNo match\n", "", 1},
		{"q on a modified buffer", "2d\nq\nq\n", []string{"-s", "f"}, "?\n", "", 1},
		{"end of input on a modified buffer", "2d\n", []string{"-s", "f"}, "?\n", "", 2},
		{"Q discards", "2d\nQ\n", []string{"-s", "f"}, "", "", 0},
		{"missing file", ",p\n", []string{"-s", "nosuch"}, "?\n", "nosuch: No such file or directory\n", 1},
		{"missing file is no error itself", "q\n", []string{"-s", "nosuch"}, "", "nosuch: No such file or directory\n", 0},
		{"-q: no diagnostics", "q\n", []string{"-q", "nosuch"}, "", "", 0},
		{"append to a new file", "a\nhello\n.\nw new\ne new\n,p\nq\n", []string{"-s"}, "hello\n", "", 0},
		{"substitute globally", ",s/o/0/g\n,p\nQ\n", []string{"-s", "f"}, "0ne\ntw0\nthree\nf0ur\n", "", 0},
		{"substitute: groups, p, nth", ",s/\\(o\\)\\(.\\)/\\2\\1/\n,s/e$/E/p\n,s/o/[&]/2\n,l\nQ\n", []string{"-s", "f"},
			"threE\n?\nnoE$\ntwo$\nthreE$\nfuor$\n", "", 1},
		{"substitute a newline in", ",s/\\(t\\)/\\1\\\n/\n,p\nu\n,p\nQ\n", []string{"-s", "f"},
			"one\nt\nwo\nt\nhree\nfour\none\ntwo\nthree\nfour\n", "", 0},
		{"global with s", "g/o/s/o/O/\n,n\nQ\n", []string{"-s", "f"}, "1\tOne\n2\ttwO\n3\tthree\n4\tfOur\n", "", 0},
		{"global with a continued list", "g/e/s//E/\\\n.p\n,n\nQ\n", []string{"-s", "f"},
			"onE\nthrEe\n1\tonE\n2\ttwo\n3\tthrEe\n4\tfour\n", "", 0},
		{"global append", "g/o/a\\\nAFTER\n,p\nQ\n", []string{"-s", "f"}, "one\nAFTER\ntwo\nAFTER\nthree\nfour\nAFTER\n", "", 0},
		{"v deletes the rest", "v/o/d\nw out\nu\n,p\nQ\n", []string{"-s", "f"}, "one\ntwo\nthree\nfour\n", "", 0},
		{"line numbers", "=\n.=\n/two/=\nQ\n", []string{"-s", "f"}, "4\n4\n2\n", "", 0},
		{"searches and offsets", "/t/\n//\n?o?\n$-1,$p\n-2\n+p\n%p\nQ\n", []string{"-s", "f"},
			"two\nthree\ntwo\nthree\nfour\ntwo\nthree\none\ntwo\nthree\nfour\n", "", 0},
		{"move and copy", "2,3m0\n,p\nQ\n", []string{"-s", "f"}, "two\nthree\none\nfour\n", "", 0},
		{"transfer and join", "1t$\n1,2j\n,p\nQ\n", []string{"-s", "f"}, "onetwo\nthree\nfour\none\n", "", 0},
		{"a, i, c set the current line", "a\nx\n.\n.=\n2i\ny\n.\n.=\n3c\nz\n.\n.=\n,p\nQ\n", []string{"-s", "f"},
			"5\n2\n3\none\ny\nz\nthree\nfour\nx\n", "", 0},
		{"insert at the top", "0a\nh\n.\n0i\nhh\n.\n1,2p\nQ\n", []string{"-s", "f"}, "hh\nh\n", "", 0},
		{"undo toggles", "3d\nu\n.=\nu\n.=\n,p\nQ\n", []string{"-s", "f"}, "4\n3\none\ntwo\nfour\n", "", 0},
		{"yank and put", "2y\n$x\n,p\nQ\n", []string{"-s", "f"}, "one\ntwo\nthree\nfour\ntwo\n", "", 0},
		{"put with an empty cut buffer", "H\nx\n", []string{"-s", "f"}, "?\nNothing to put\n", "", 1},
		{"marks", "2ka\n'a,'a+1p\nQ\n", []string{"-s", "f"}, "two\nthree\n", "", 0},
		{"error messages", "H\n2d\nq\ne f\nk\n'b\n/\\(/\ns/x/y/z\n0d\nu\nj\n3,1p\nQ\n", []string{"-s", "f"},
			"?\nWarning: buffer modified\n?\nInvalid command suffix\n?\nInvalid address\n?\nUnmatched ( or \\(\n" +
				"?\nInvalid command suffix\n?\nInvalid address\n?\nNothing to undo\n?\nInvalid address\n?\nInvalid address\n", "", 1},
		{"s alone repeats the last substitution's expression", "/two/\ns//TWO/\n/four/s\np\n/three/s\nsr\n1s\n", []string{"-s", "f"},
			"two\n?\nTWO\n?\n?\n?\n?\n", "", 2},
		{"sr: the last search's expression", "/two/\ns//TWO/\n/three/\nsr\np\nQ\n", []string{"-s", "f"}, "two\nthree\nTWO\n", "", 0},
		{"a last line without a newline is not read", "1p\n2p", []string{"-s", "f"}, "one\n", "", 0},
		{"nor is text without one", "a\nno dot", []string{"-s", "f"}, "", "", 0},
		{"prompt", "p\nq\n", []string{"-s", "-p*", "f"}, "*four\n*", "", 0},
		{"w to a file of its own", "2,3w part\n,d\nr part\n,p\nQ\n", []string{"-s", "f"}, "two\nthree\n", "", 0},
	}
	for _, tc := range cases {
		got := runCmd(t, files, tc.script, append([]string{"ed"}, tc.args...)...)
		if got.stdout != tc.out || got.stderr != tc.err || got.status != tc.status {
			t.Errorf("%s: ed %q <<< %q:\n got %q, %q, %d\nwant %q, %q, %d", tc.name, tc.args, tc.script,
				got.stdout, got.stderr, got.status, tc.out, tc.err, tc.status)
		}
	}
}

// TestEdList checks l's escapes and its folding of long lines at 72
// columns, an escape never split (GNU ed 1.19).
func TestEdList(t *testing.T) {
	t.Parallel()
	long := ""
	for range 150 {
		long += "x"
	}
	tabs := ""
	for range 20 {
		tabs += "a\tb"
	}
	want := long[:72] + "\\\n" + long[72:144] + "\\\n" + long[144:] + "$\n" +
		"a\\tba\\tba\\tba\\tba\\tba\\tba\\tba\\tba\\tba\\tba\\tba\\tba\\tba\\tba\\tba\\tba\\tba\\tb\\\na\\tba\\tb$\n" +
		"\\001\\\\\\303\\251$\n"
	got := runCmd(t, nil, "a\n"+long+"\n"+tabs+"\n\x01\\\u00e9\n.\n,l\nQ\n", "ed", "-s")
	if got.stdout != want || got.status != 0 {
		t.Errorf("ed l: %q, status %d\nwant %q", got.stdout, got.status, want)
	}
}

// TestEdGlobalDelete checks g/RE/d and v/RE/d, done in one pass: the
// current line and the cut buffer end as after deleting line by line.
func TestEdGlobalDelete(t *testing.T) {
	t.Parallel()
	in := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"
	for _, tc := range []struct{ script, out string }{
		{"g/[13579]$/d\n.=\nx\n,p\nQ\n", "5\n2\n4\n6\n8\n10\n9\n"},
		{"v/0$/d\n.=\nx\n$p\nQ\n", "1\n9\n"},
		{"g/^1/d\n.=\n,p\nQ\n", "8\n2\n3\n4\n5\n6\n7\n8\n9\n"},
		{"g/x/d\n", ""}, // no line matches: no error
	} {
		got := runCmd(t, map[string]string{"f": in}, tc.script, "ed", "-s", "f")
		if got.stdout != tc.out {
			t.Errorf("ed <<< %q: %q, want %q", tc.script, got.stdout, tc.out)
		}
	}
}
