package builtins

import (
	"context"
	"strings"
	"testing"
	"time"
)

// Expected output produced by GNU bc 1.07.1 on this machine. Runtime messages there carry
// the bytecode address ("adr=N"), which has no meaning here: it is removed from the expectations.
func TestBcReal(t *testing.T) {
	files := map[string]string{} // an empty directory: bc reads FILE operands through env.FS
	i6Run(t, files, []i6Case{
		{"scale=4; 10/3\n", []string{"bc"}, "3.3333\n", "", 0},
		{"scale=4; 10/3\n", []string{"bc", "-l"}, "3.3333\n", "", 0},
		{"0.00\n", []string{"bc"}, "0\n", "", 0},
		{"0.00\n", []string{"bc", "-l"}, "0\n", "", 0},
		{"-0.00\n", []string{"bc"}, "0\n", "", 0},
		{"-0.00\n", []string{"bc", "-l"}, "0\n", "", 0},
		{"1.000\n", []string{"bc"}, "1.000\n", "", 0},
		{"1.000\n", []string{"bc", "-l"}, "1.000\n", "", 0},
		{"00012.340\n", []string{"bc"}, "12.340\n", "", 0},
		{"00012.340\n", []string{"bc", "-l"}, "12.340\n", "", 0},
		{"scale=3; 0\n", []string{"bc"}, "0\n", "", 0},
		{"scale=3; 0\n", []string{"bc", "-l"}, "0\n", "", 0},
		{"1; quit\n", []string{"bc"}, "", "", 0},
		{"1; quit\n", []string{"bc", "-l"}, "", "", 0},
		{"scale=3; x=1/3; x*3\n", []string{"bc"}, ".999\n", "", 0},
		{"scale=3; x=1/3; x*3\n", []string{"bc", "-l"}, ".999\n", "", 0},
		{"obase=2; 5.25\n", []string{"bc"}, "101.0100000\n", "", 0},
		{"obase=2; 5.25\n", []string{"bc", "-l"}, "101.0100000\n", "", 0},
		{"obase=16; .1\n", []string{"bc"}, ".1\n", "", 0},
		{"obase=16; .1\n", []string{"bc", "-l"}, ".1\n", "", 0},
		{"obase=3; 1/3\n", []string{"bc"}, "0\n", "", 0},
		{"obase=3; 1/3\n", []string{"bc", "-l"}, ".022222222222222222222222222222222222222222\n", "", 0},
		{"scale=5; obase=3; 1/3\n", []string{"bc"}, ".02222222222\n", "", 0},
		{"scale=5; obase=3; 1/3\n", []string{"bc", "-l"}, ".02222222222\n", "", 0},
		{"obase=100; 123456789.12\n", []string{"bc"}, " 01 23 45 67 89.12\n", "", 0},
		{"obase=100; 123456789.12\n", []string{"bc", "-l"}, " 01 23 45 67 89.12\n", "", 0},
		{"ibase=2; 101.1\n", []string{"bc"}, "5.5\n", "", 0},
		{"ibase=2; 101.1\n", []string{"bc", "-l"}, "5.5\n", "", 0},
		{"a=5; a^=2; a\n", []string{"bc"}, "25\n", "", 0},
		{"a=5; a^=2; a\n", []string{"bc", "-l"}, "25\n", "", 0},
		{"2^0.5\n", []string{"bc"}, "1\n", "Runtime warning (func=(main)): non-zero scale in exponent\n", 0},
		{"2^0.5\n", []string{"bc", "-l"}, "1\n", "Runtime warning (func=(main)): non-zero scale in exponent\n", 0},
		{"-2^2\n", []string{"bc"}, "4\n", "", 0},
		{"-2^2\n", []string{"bc", "-l"}, "4\n", "", 0},
		{"2^3^2\n", []string{"bc"}, "512\n", "", 0},
		{"2^3^2\n", []string{"bc", "-l"}, "512\n", "", 0},
		{"5/0; 7\n8\n", []string{"bc"}, "8\n", "Runtime error (func=(main)): Divide by zero\n", 0},
		{"5/0; 7\n8\n", []string{"bc", "-l"}, "8\n", "Runtime error (func=(main)): Divide by zero\n", 0},
		{"x\n", []string{"bc"}, "0\n", "", 0},
		{"x\n", []string{"bc", "-l"}, "0\n", "", 0},
		{"1==1; 2<1; !0; 1&&0; 2||0\n", []string{"bc"}, "1\n0\n1\n0\n1\n", "", 0},
		{"1==1; 2<1; !0; 1&&0; 2||0\n", []string{"bc", "-l"}, "1\n0\n1\n0\n1\n", "", 0},
		{"if (1) 5 else 6\n", []string{"bc"}, "5\n", "", 0},
		{"if (1) 5 else 6\n", []string{"bc", "-l"}, "5\n", "", 0},
		{"for (i=0;i<3;i++) i\n", []string{"bc"}, "0\n1\n2\n", "", 0},
		{"for (i=0;i<3;i++) i\n", []string{"bc", "-l"}, "0\n1\n2\n", "", 0},
		{"i=0; while (i<3) { i; i+=1 }\n", []string{"bc"}, "0\n1\n2\n", "", 0},
		{"i=0; while (i<3) { i; i+=1 }\n", []string{"bc", "-l"}, "0\n1\n2\n", "", 0},
		{"define f(n) { if (n<2) return (1); return (n*f(n-1)); }\nf(30)\n", []string{"bc"}, "265252859812191058636308480000000\n", "", 0},
		{"define f(n) { if (n<2) return (1); return (n*f(n-1)); }\nf(30)\n", []string{"bc", "-l"}, "265252859812191058636308480000000\n", "", 0},
		{"scale=2; -7%3; 7.5%-2\n", []string{"bc"}, "-.01\n0\n", "", 0},
		{"scale=2; -7%3; 7.5%-2\n", []string{"bc", "-l"}, "-.01\n0\n", "", 0},
		{"sqrt(-1)\n", []string{"bc"}, "", "Runtime error (func=(main)): Square root of a negative number\n", 0},
		{"sqrt(-1)\n", []string{"bc", "-l"}, "", "Runtime error (func=(main)): Square root of a negative number\n", 0},
		{"last\n", []string{"bc"}, "0\n", "", 0},
		{"last\n", []string{"bc", "-l"}, "0\n", "", 0},
		{"5; last; .\n", []string{"bc"}, "5\n5\n5\n", "", 0},
		{"5; last; .\n", []string{"bc", "-l"}, "5\n5\n5\n", "", 0},
		{"length(0.001); scale(5); length(0); length(123.45)\n", []string{"bc"}, "3\n0\n1\n5\n", "", 0},
		{"length(0.001); scale(5); length(0); length(123.45)\n", []string{"bc", "-l"}, "3\n0\n1\n5\n", "", 0},
		{"1.5*1.5\n", []string{"bc"}, "2.2\n", "", 0},
		{"1.5*1.5\n", []string{"bc", "-l"}, "2.25\n", "", 0},
		{"scale=1; 1.55*1.55\n", []string{"bc"}, "2.40\n", "", 0},
		{"scale=1; 1.55*1.55\n", []string{"bc", "-l"}, "2.40\n", "", 0},
		{"99^0\n", []string{"bc"}, "1\n", "", 0},
		{"99^0\n", []string{"bc", "-l"}, "1\n", "", 0},
		{"0^0\n", []string{"bc"}, "1\n", "", 0},
		{"0^0\n", []string{"bc", "-l"}, "1\n", "", 0},
		{"(-2)^3\n", []string{"bc"}, "-8\n", "", 0},
		{"(-2)^3\n", []string{"bc", "-l"}, "-8\n", "", 0},
		{"2^-1\n", []string{"bc"}, "0\n", "", 0},
		{"2^-1\n", []string{"bc", "-l"}, ".50000000000000000000\n", "", 0},
		{"scale=3; 2^-1\n", []string{"bc"}, ".500\n", "", 0},
		{"scale=3; 2^-1\n", []string{"bc", "-l"}, ".500\n", "", 0},
		{"print 1,2,\"a\\n\"\n", []string{"bc"}, "12a\n", "", 0},
		{"print 1,2,\"a\\n\"\n", []string{"bc", "-l"}, "12a\n", "", 0},
		{"\"a\\nb\"\n", []string{"bc"}, "a\\nb", "", 0},
		{"\"a\\nb\"\n", []string{"bc", "-l"}, "a\\nb", "", 0},
		{"define v() { 5 }; v()\n", []string{"bc"}, "5\n0\n", "", 0},
		{"define v() { 5 }; v()\n", []string{"bc", "-l"}, "5\n0\n", "", 0},
		{"limits\n", []string{"bc"}, "BC_BASE_MAX     = 2147483647\nBC_DIM_MAX      = 16777215\nBC_SCALE_MAX    = 2147483647\nBC_STRING_MAX   = 2147483647\nMAX Exponent    = 9223372036854775807\nNumber of vars  = 32767\n", "", 0},
		{"limits\n", []string{"bc", "-l"}, "BC_BASE_MAX     = 2147483647\nBC_DIM_MAX      = 16777215\nBC_SCALE_MAX    = 2147483647\nBC_STRING_MAX   = 2147483647\nMAX Exponent    = 9223372036854775807\nNumber of vars  = 32767\n", "", 0},
		{"3 4\n", []string{"bc"}, "", "(standard_in) 1: syntax error\n", 0},
		{"3 4\n", []string{"bc", "-l"}, "", "(standard_in) 1: syntax error\n", 0},
		{"x = 1 /* c */ + 2 # hi\nx\n", []string{"bc"}, "3\n", "", 0},
		{"x = 1 /* c */ + 2 # hi\nx\n", []string{"bc", "-l"}, "3\n", "", 0},
		{"2^300\n", []string{"bc"}, "20370359763344860862684456884093781610514683936659362506361404493543\\\n81299763336706183397376\n", "", 0},
		{"2^300\n", []string{"bc", "-l"}, "20370359763344860862684456884093781610514683936659362506361404493543\\\n81299763336706183397376\n", "", 0},
		{"1 +\n", []string{"bc"}, "", "(standard_in) 2: syntax error\n", 0},
		{"1 +\n", []string{"bc", "-l"}, "", "(standard_in) 2: syntax error\n", 0},
		{"scale=50; 4*a(1)\n", []string{"bc"}, "", "Runtime error (func=(main)): Function a not defined.\n", 0},
		{"scale=50; 4*a(1)\n", []string{"bc", "-l"}, "3.14159265358979323846264338327950288419716939937508\n", "", 0},
		{"s(1); c(1); l(2); e(1); j(0,1)\n", []string{"bc"}, "", "Runtime error (func=(main)): Function s not defined.\n", 0},
		{"s(1); c(1); l(2); e(1); j(0,1)\n", []string{"bc", "-l"}, ".84147098480789650665\n.54030230586813971740\n.69314718055994530941\n2.71828182845904523536\n.76519768655796655144\n", "", 0},
		{"scale=4; sqrt(2); sqrt(16); sqrt(0.25)\n", []string{"bc"}, "1.4142\n4.0000\n.5000\n", "", 0},
		{"scale=4; sqrt(2); sqrt(16); sqrt(0.25)\n", []string{"bc", "-l"}, "1.4142\n4.0000\n.5000\n", "", 0},
		{"obase=16; 255; -255.5\n", []string{"bc"}, "FF\n-FF.8\n", "", 0},
		{"obase=16; 255; -255.5\n", []string{"bc", "-l"}, "FF\n-FF.8\n", "", 0},
		{"obase=20; 123456\n", []string{"bc"}, " 15 08 12 16\n", "", 0},
		{"obase=20; 123456\n", []string{"bc", "-l"}, " 15 08 12 16\n", "", 0},
		{"ibase=16; FF; A; 1A.8\n", []string{"bc"}, "255\n10\n26.5\n", "", 0},
		{"ibase=16; FF; A; 1A.8\n", []string{"bc", "-l"}, "255\n10\n26.5\n", "", 0},
		{"x = 3; x; x++; x; ++x; a[2]=5; a[2]+a[1]\n", []string{"bc"}, "3\n3\n4\n5\n5\n", "", 0},
		{"x = 3; x; x++; x; ++x; a[2]=5; a[2]+a[1]\n", []string{"bc", "-l"}, "3\n3\n4\n5\n5\n", "", 0},
		{"define f(x) { auto y; y = x*2; return (y); }; f(3)\n", []string{"bc"}, "6\n", "", 0},
		{"define f(x) { auto y; y = x*2; return (y); }; f(3)\n", []string{"bc", "-l"}, "6\n", "", 0},
		{"e(10); e(-1); l(0); l(100); s(-3); c(10); a(-2); a(0.5)\n", []string{"bc"}, "", "Runtime error (func=(main)): Function e not defined.\n", 0},
		{"e(10); e(-1); l(0); l(100); s(-3); c(10); a(-2); a(0.5)\n", []string{"bc", "-l"}, "22026.46579480671651695790\n.36787944117144232159\n-99999999999999999999.00000000000000000000\n4.60517018598809136803\n-.14112000805986722210\n-.83907152907645245225\n-1.10714871779409050301\n.46364760900080611621\n", "", 0},
		{"scale=10; e(0.5); l(0.5); s(100); a(1000); j(2, 3); j(-1, 2)\n", []string{"bc"}, "", "Runtime error (func=(main)): Function e not defined.\n", 0},
		{"scale=10; e(0.5); l(0.5); s(100); a(1000); j(2, 3); j(-1, 2)\n", []string{"bc", "-l"}, "1.6487212707\n-.6931471805\n-.5063656411\n1.5697963271\n.4860912605\n-.5767248077\n", "", 0},
		{"1/3\n", []string{"bc"}, "0\n", "", 0},
		{"1/3\n", []string{"bc", "-l"}, ".33333333333333333333\n", "", 0},
		{"obase=8; -8.5\n", []string{"bc"}, "-10.40\n", "", 0},
		{"obase=8; -8.5\n", []string{"bc", "-l"}, "-10.40\n", "", 0},
		{"scale=20; 1/7\n", []string{"bc"}, ".14285714285714285714\n", "", 0},
		{"scale=20; 1/7\n", []string{"bc", "-l"}, ".14285714285714285714\n", "", 0},
		{"define p() { print \"in p\\n\"; }\np()\n", []string{"bc"}, "in p\n0\n", "", 0},
		{"define p() { print \"in p\\n\"; }\np()\n", []string{"bc", "-l"}, "in p\n0\n", "", 0},
		{"if (0) 1\nelse 2\n", []string{"bc"}, "", "(standard_in) 2: syntax error\n", 0},
		{"if (0) 1\nelse 2\n", []string{"bc", "-l"}, "", "(standard_in) 2: syntax error\n", 0},
		{"{ 1; 2 }\n", []string{"bc"}, "1\n2\n", "", 0},
		{"{ 1; 2 }\n", []string{"bc", "-l"}, "1\n2\n", "", 0},
		{"while (1) { break }; 7\n", []string{"bc"}, "7\n", "", 0},
		{"while (1) { break }; 7\n", []string{"bc", "-l"}, "7\n", "", 0},
		{"for (;;) { i += 1; if (i > 3) break; }; i\n", []string{"bc"}, "4\n", "", 0},
		{"for (;;) { i += 1; if (i > 3) break; }; i\n", []string{"bc", "-l"}, "4\n", "", 0},
		{"halt; 5\n", []string{"bc"}, "", "", 0},
		{"halt; 5\n", []string{"bc", "-l"}, "", "", 0},
		{"5; halt\n6\n", []string{"bc"}, "5\n", "", 0},
		{"5; halt\n6\n", []string{"bc", "-l"}, "5\n", "", 0},
		{"10 % 0\n", []string{"bc"}, "", "Runtime error (func=(main)): Modulo by zero\n", 0},
		{"10 % 0\n", []string{"bc", "-l"}, "", "Runtime error (func=(main)): Modulo by zero\n", 0},
		{"scale=0; 7/2; 7%2; -7/2; -7%2\n", []string{"bc"}, "3\n1\n-3\n-1\n", "", 0},
		{"scale=0; 7/2; 7%2; -7/2; -7%2\n", []string{"bc", "-l"}, "3\n1\n-3\n-1\n", "", 0},
		{"ibase=16; obase=2; F.8\n", []string{"bc"}, "1111.1000\n", "", 0},
		{"ibase=16; obase=2; F.8\n", []string{"bc", "-l"}, "1111.1000\n", "", 0},
		{"2^-2^-1\n", []string{"bc"}, "1\n", "", 0},
		{"2^-2^-1\n", []string{"bc", "-l"}, "1\n", "Runtime warning (func=(main)): non-zero scale in exponent\n", 0},
		{"++a[3]; a[3]--; a[3]\n", []string{"bc"}, "1\n1\n0\n", "", 0},
		{"++a[3]; a[3]--; a[3]\n", []string{"bc", "-l"}, "1\n1\n0\n", "", 0},
		{".5 + .5\n", []string{"bc"}, "1.0\n", "", 0},
		{".5 + .5\n", []string{"bc", "-l"}, "1.0\n", "", 0},
		{"1.23456789012345678901234567890 * 1\n", []string{"bc"}, "1.23456789012345678901234567890\n", "", 0},
		{"1.23456789012345678901234567890 * 1\n", []string{"bc", "-l"}, "1.23456789012345678901234567890\n", "", 0},
		{"12345678901234567890123456789012345678901234567890123456789012345678901234567890\n", []string{"bc"}, "12345678901234567890123456789012345678901234567890123456789012345678\\\n901234567890\n", "", 0},
		{"12345678901234567890123456789012345678901234567890123456789012345678901234567890\n", []string{"bc", "-l"}, "12345678901234567890123456789012345678901234567890123456789012345678\\\n901234567890\n", "", 0},
		{"scale=100; 1/3\n", []string{"bc"}, ".3333333333333333333333333333333333333333333333333333333333333333333\\\n333333333333333333333333333333333\n", "", 0},
		{"scale=100; 1/3\n", []string{"bc", "-l"}, ".3333333333333333333333333333333333333333333333333333333333333333333\\\n333333333333333333333333333333333\n", "", 0},
		{"abc = 5; abc\n", []string{"bc"}, "5\n", "", 0},
		{"abc = 5; abc\n", []string{"bc", "-l"}, "5\n", "", 0},
		{"define f(x) { return x*2 }\nf(4)\n", []string{"bc"}, "8\n", "", 0},
		{"define f(x) { return x*2 }\nf(4)\n", []string{"bc", "-l"}, "8\n", "", 0},
		{"obase=10; ibase=16; 10\n", []string{"bc"}, "16\n", "", 0},
		{"obase=10; ibase=16; 10\n", []string{"bc", "-l"}, "16\n", "", 0},
		{"\"unterminated\n", []string{"bc"}, "", "(standard_in) 1: illegal character: \"\n", 0},
		{"\"unterminated\n", []string{"bc", "-l"}, "", "(standard_in) 1: illegal character: \"\n", 0},
		{"/* unterminated\n", []string{"bc"}, "", "EOF encountered in a comment.\n", 0},
		{"/* unterminated\n", []string{"bc", "-l"}, "", "EOF encountered in a comment.\n", 0},
		{"1/3\n", []string{"bc", "nosuch"}, "", "File nosuch is unavailable.\n", 1},
	})
}

func TestBcLimits(t *testing.T) {
	cases := []struct{ in, out, err string }{
		{"define f(x) { return (f(x+1)); }\nf(1)\n2\n", "2\n", "Runtime error (func=f): Function call nesting too deep\n"},
		{strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000) + "\n3\n", "3\n", "(standard_in) 1: expression nesting too deep\n"},
		{strings.Repeat("- ", 100000) + "1\n4\n", "4\n", "(standard_in) 1: expression nesting too deep\n"},
		{"scale=4; 10/3\n", "3.3333\n", ""},
		{"1 +\n", "", "(standard_in) 2: syntax error\n"},
	}
	for _, c := range cases {
		r := runCmd(t, nil, c.in, "bc")
		if r.stdout != c.out || r.stderr != c.err || r.status != 0 {
			t.Errorf("%.40q: got %q %q %d", c.in, r.stdout, r.stderr, r.status)
		}
	}
}

func TestBcFilesThenStdin(t *testing.T) {
	files := map[string]string{"lib.b": "define sq(x) {\n return (x*x)\n}\n"}
	r := runCmd(t, files, "sq(12)\n", "bc", "lib.b")
	if r.stdout != "144\n" || r.stderr != "" || r.status != 0 {
		t.Errorf("bc lib.b: %+v", r)
	}
	r = runCmd(t, map[string]string{"q.b": "1+1\nquit\n"}, "5\n", "bc", "q.b")
	if r.stdout != "2\n" || r.status != 0 {
		t.Errorf("quit in a file: %+v", r)
	}
}

func TestBcStops(t *testing.T) {
	if st, _ := skRunEnv(t, context.Background(), strings.NewReader("for (i=0; i<1000000; i++) i\n"), skPipeErr{}, "bc"); st != 1 {
		t.Errorf("broken pipe: %d", st)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, prog := range []string{"while (1) { }\n", "for (;;) { }\n", "while (1) 1\n"} {
		if st, _ := skRunEnv(t, ctx, strings.NewReader(prog), &strings.Builder{}, "bc"); st != 1 {
			t.Errorf("cancelled %q: %d", prog, st)
		}
	}
}

// FuzzBc checks that no program makes bc panic (Run turns a panic into
// "internal error", which must never appear) or run away.
func FuzzBc(f *testing.F) {
	for _, s := range []string{"scale=4; 10/3\n", "define f(x) {\n auto a[]; a[x]=x; return (a[x]^2)\n}\nf(3)\n",
		"obase=16; ibase=2; 101.1 * -11\n", "for (i=0; i<3; i++) { if (i == 1) continue; print i, \"\\n\" }\n",
		"x = 1 /* c */ + 2 # hi\n++x--\n", "s(1); c(2); a(3); l(4); e(5); j(2, 6)\n", "1 +\n", "\"abc\n", "obase=200; -12345.678\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, prog string) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		var out, errb strings.Builder
		b, _ := Lookup("bc")
		env := &Env{Ctx: ctx, Args: []string{"bc", "-l"}, Stdin: strings.NewReader(prog), Stdout: &out, Stderr: &errb}
		Run(b, env)
		if strings.Contains(errb.String(), "internal error") {
			t.Fatalf("bc panicked on %q", prog)
		}
	})
}
