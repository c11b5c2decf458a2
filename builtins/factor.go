package builtins

import (
	"bufio"
	"math/big"
	"slices"
	"strings"
)

var _ = register(Builtin{Name: "factor", Summary: "print the prime factors of numbers", Run: factorCmd})

func factorCmd(env *Env) int {
	f := NewFlags(env, "Print the prime factors of each specified integer NUMBER.  If none\n"+
		"are specified on the command line, read them from standard input.", "[NUMBER]...", "OPTION")
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	w := stdoutWriter(env)
	status := 0
	one := func(s string) {
		if !factorOne(env, w, s) {
			status = 1
		}
	}
	if len(args) > 0 {
		for _, a := range args {
			if env.Ctx.Err() != nil {
				break
			}
			one(a)
		}
		return finishOutput(env, w, status)
	}
	r := bufio.NewReader(env.Stdin)
	for env.Ctx.Err() == nil {
		word, err := readWord(r)
		if err != nil && quietStop(err) {
			break // a word cut short by the run's end (one of /dev/zero's NULs)
		}
		if word != "" {
			one(word)
		}
		if err != nil {
			break
		}
	}
	return finishOutput(env, w, status)
}

// readWord reads the next blank-separated word of r.
func readWord(r *bufio.Reader) (string, error) {
	var b strings.Builder
	for {
		c, err := r.ReadByte()
		if err != nil {
			return b.String(), err
		}
		if c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' {
			if b.Len() > 0 {
				return b.String(), nil
			}
			continue
		}
		b.WriteByte(c)
	}
}

// factorOne prints "N: p1 p2 ..." for the decimal s (blanks and a '+'
// before it allowed, as GNU factor reads it); false for no number.
func factorOne(env *Env, w *bufio.Writer, s string) bool {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	t = strings.TrimPrefix(t, "+")
	if t == "" || strings.TrimLeft(t, "0123456789") != "" {
		w.Flush()
		env.Errorf("%s is not a valid positive integer", env.Quote(s))
		return false
	}
	n, _ := new(big.Int).SetString(t, 10)
	w.WriteString(n.String())
	w.WriteString(":")
	var fs []*big.Int
	factorize(env, n, &fs)
	slices.SortFunc(fs, func(a, b *big.Int) int { return a.Cmp(b) })
	for _, p := range fs {
		w.WriteString(" ")
		w.WriteString(p.String())
	}
	w.WriteString("\n")
	return true
}

var smallPrimes = func() []int64 {
	var ps []int64
	for i := int64(2); i < 1000; i++ {
		prime := true
		for _, p := range ps {
			if p*p > i {
				break
			}
			if i%p == 0 {
				prime = false
				break
			}
		}
		if prime {
			ps = append(ps, i)
		}
	}
	return ps
}()

// factorize appends n's prime factors to fs: trial division by the small
// primes, then Pollard–Brent rho on what is left, with a strong
// probable-prime test (certain below 2^64, as big.Int's ProbablyPrime
// says).
func factorize(env *Env, n *big.Int, fs *[]*big.Int) {
	if n.Cmp(big.NewInt(2)) < 0 {
		return
	}
	n = new(big.Int).Set(n)
	q, m := new(big.Int), new(big.Int)
	for _, p := range smallPrimes {
		bp := big.NewInt(p)
		for {
			q.QuoRem(n, bp, m)
			if m.Sign() != 0 {
				break
			}
			*fs = append(*fs, bp)
			n.Set(q)
		}
		if n.Cmp(new(big.Int).Mul(bp, bp)) < 0 {
			break
		}
	}
	var split func(n *big.Int)
	split = func(n *big.Int) {
		if n.Cmp(big.NewInt(1)) == 0 {
			return
		}
		if n.ProbablyPrime(25) {
			*fs = append(*fs, n)
			return
		}
		for c := int64(1); env.Ctx.Err() == nil; c++ {
			if d := brent(env, n, c); d != nil {
				split(d)
				split(new(big.Int).Quo(n, d))
				return
			}
		}
	}
	split(n)
}

// brent looks for a proper divisor of the composite n with Pollard's rho
// as Brent improved it (x² + c); nil when this c finds none.
func brent(env *Env, n *big.Int, c int64) *big.Int {
	bc := big.NewInt(c)
	y, x, ys := big.NewInt(2), new(big.Int), new(big.Int)
	g, qq, t := big.NewInt(1), big.NewInt(1), new(big.Int)
	f := func(v *big.Int) { v.Mul(v, v).Add(v, bc).Mod(v, n) }
	const m = 128
	for r := 1; g.Cmp(big.NewInt(1)) == 0; r *= 2 {
		if env.Ctx.Err() != nil {
			return nil
		}
		x.Set(y)
		for i := 0; i < r; i++ {
			// r doubles each round: a round of 2^28 steps is
			// seconds, so the context is looked at within it too
			if i%4096 == 4095 && env.Ctx.Err() != nil {
				return nil
			}
			f(y)
		}
		for k := 0; k < r && g.Cmp(big.NewInt(1)) == 0; k += m {
			if k%4096 == 0 && env.Ctx.Err() != nil {
				return nil
			}
			ys.Set(y)
			for i := 0; i < min(m, r-k); i++ {
				f(y)
				t.Sub(x, y).Abs(t)
				qq.Mul(qq, t).Mod(qq, n)
			}
			g.GCD(nil, nil, qq, n)
		}
	}
	if g.Cmp(n) == 0 {
		for env.Ctx.Err() == nil {
			f(ys)
			t.Sub(x, ys).Abs(t)
			g.GCD(nil, nil, t, n)
			if g.Cmp(big.NewInt(1)) > 0 {
				break
			}
		}
	}
	if g.Cmp(n) == 0 || env.Ctx.Err() != nil {
		return nil
	}
	return g
}
