// llmsh: for (k in a) visits keys in mawk 1.3.4's order (awkarray.go).
package interp_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/llmsh/llmsh/third_party/goawk/interp"
	"github.com/llmsh/llmsh/third_party/goawk/parser"
)

// Every expected output below is what /usr/bin/mawk 1.3.4 20200120 printed
// for the same program and input.
func TestForInMawkOrder(t *testing.T) {
	const input = "the cat\nsat on\nthe mat\nand the\ndog sat\non a log\n"
	tests := []struct{ prog, want string }{
		{`{for(i=1;i<=NF;i++) c[$i]++} END{for(k in c) s = s k "=" c[k] " "; print s}`,
			"cat=1 dog=1 on=2 log=1 sat=2 the=3 and=1 a=1 mat=1 \n"},
		{`{a[NR]=$0} END{for(k in a) s = s k " "; print s}`, "3 6 5 2 1 4 \n"},
		// "5" and "69" share a string bucket and an integer bucket.
		{`BEGIN{a[5]; a[69]; for(k in a) s = s k " "; a[5]; for(k in a) t = t k " "; print s "/" t}`,
			"5 69 /5 69 \n"},
		{`BEGIN{a[5]; a[69]; a[5]; for(k in a) s = s k " "; print s}`, "69 5 \n"},
		{`BEGIN{a["5"]; a["69"]; a["5"]; for(k in a) s = s k " "; print s}`, "5 69 \n"},
		{`BEGIN{n = split("a b c d e f g h", p); p["x"]; for(k in p) s = s k " "; print n, s}`,
			"8 3 x 8 6 5 2 1 4 7 \n"},
		{`BEGIN{for(i=0;i<800;i++) a["k" i]; for(k in a) if (++n <= 12) s = s k " "; print length(a), s}`,
			"800 k653 k477 k301 k742 k553 k526 k298 k276 k203 k144 k92 k765 \n"},
		{`BEGIN{for(i=0;i<1600;i++) a[i]; a["z"]; for(k in a) if (++n <= 12) s = s k " "; print length(a), s}`,
			"1601 243 979 1163 588 1084 1596 513 1533 495 187 1205 688 \n"},
		{`BEGIN{for(i=1;i<=9;i++) a[i]; delete a[4]; if ((7) in a) x; a["q"]; for(k in a) s = s k " "; print s}`,
			"3 8 6 5 2 q 1 9 7 \n"},
		{`BEGIN{for(i=0;i<3;i++) for(j=0;j<3;j++) a[i,j]=i*j; for(k in a) { split(k, q, SUBSEP); s = s q[1] ":" q[2] " " }; print s}`,
			"2:0 1:0 2:2 0:2 1:1 0:1 2:1 1:2 0:0 \n"},
		{`{ a[$1] } END { for(k in a) s = s k " "; print s }`, "dog on sat the and \n"},
		{`BEGIN{ a[1]; a["1"]; a[1.0]; a["01"]; a[-1]; a[0.5]; for(k in a) s = s k " "; print length(a), s }`,
			"4 0.5 1 -1 01 \n"},
		{`BEGIN{ getline a["k"] < "missing"; print length(a) }`, "1\n"},
		{`function g(arr) { arr["x"]; arr[3] } BEGIN { g(a); a[70]; for (k in a) s = s k " "; print s }`,
			"3 x 70 \n"},
		{`BEGIN { for(i=0;i<20;i++) a[i]; for (k in a) delete a[k]; a["k"]; a[2]; for (k in a) s = s k " "; print length(a), s }`,
			"2 2 k \n"},
		// a[69] is created by string while the table doubles: mawk leaves it
		// on the old integer bucket and then crashes (SIGSEGV) deleting it.
		{`BEGIN{for(i=0;i<768;i++) a["s" i]; a[69]; delete a["69"]; print length(a)}`, "768\n"},
	}
	for _, tt := range tests {
		prog, err := parser.ParseProgram([]byte(tt.prog), nil)
		if err != nil {
			t.Fatalf("%s: %v", tt.prog, err)
		}
		for run := 0; run < 3; run++ { // the same every time
			var out bytes.Buffer
			m := &memFS{files: map[string]string{}}
			cfg := &interp.Config{Stdin: strings.NewReader(input), Output: &out, Error: &out}
			m.config(cfg)
			if _, err := interp.ExecProgram(prog, cfg); err != nil {
				t.Fatalf("%s: %v", tt.prog, err)
			}
			if out.String() != tt.want {
				t.Fatalf("%s:\n got %q\nwant %q", tt.prog, out.String(), tt.want)
			}
		}
	}
}
