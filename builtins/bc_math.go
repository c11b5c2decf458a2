package builtins

import (
	"errors"
	"math/big"
)

// The -l library: s(x), c(x), a(x), l(x), e(x), j(n,x). Each is computed
// in fixed point with guard digits and truncated to scale, which gives the
// digits GNU bc's library prints.

func bcFix(a bcNum, p int) *big.Int { return a.rescale(p).v }

func bcFixMul(x, y *big.Int, one *big.Int) *big.Int {
	r := new(big.Int).Mul(x, y)
	return r.Quo(r, one)
}

func bcFixDiv(x, y *big.Int, one *big.Int) *big.Int {
	r := new(big.Int).Mul(x, one)
	return r.Quo(r, y)
}

var errBcMathTooBig = errors.New("argument or scale too large for the math library")

func (in *bcInterp) mathCall(c *bcCall) (bcNum, bool, error) {
	want := 1
	if c.name == "j" {
		want = 2
	}
	switch c.name {
	case "s", "c", "a", "l", "e", "j":
	default:
		return bcNum{}, false, nil
	}
	if len(c.args) != want {
		return bcNum{}, true, in.callErr(c, -1, "Parameter number mismatch", "")
	}
	var args []bcNum
	for _, a := range c.args {
		if _, ok := a.(*bcArrayArg); ok {
			return bcNum{}, true, in.rt("Parameter type mismatch")
		}
		v, err := in.eval(a)
		if err != nil {
			return v, true, err
		}
		args = append(args, v)
	}
	scale := in.scale
	// Bounds that keep every library call short (big.Int work cannot be
	// interrupted): 20000 digits of precision, and arguments whose
	// results stay under bcMaxDigits.
	for _, a := range args {
		if scale+bcIntDigits(a) > 20000 {
			return bcNum{}, true, in.rt("%s", errBcMathTooBig)
		}
	}
	if c.name == "e" || c.name == "j" {
		if lim := bcInt(2000000); bcCmp(bcNum{new(big.Int).Abs(args[len(args)-1].v), args[len(args)-1].s}, lim) > 0 {
			return bcNum{}, true, in.rt("%s", errBcMathTooBig)
		}
	}
	if c.name == "j" {
		if n, ok := args[0].toInt64(); !ok || n > 100000 || n < -100000 {
			return bcNum{}, true, in.rt("%s", errBcMathTooBig)
		}
	}
	var r bcNum
	switch c.name {
	case "e":
		r = bcExp(args[0], scale)
	case "l":
		r = bcLn(args[0], scale)
	case "s":
		r = bcSin(args[0], scale, false)
	case "c":
		r = bcSin(args[0], scale, true)
	case "a":
		r = bcAtan(args[0], scale)
	case "j":
		r = bcBessel(args[0], args[1], scale)
	}
	return r, true, nil
}

// bcIntDigits is the number of digits in a's integer part.
func bcIntDigits(a bcNum) int {
	i := new(big.Int).Abs(a.rescale(0).v)
	if i.Sign() == 0 {
		return 0
	}
	return len(i.String())
}

func bcExp(x bcNum, scale int) bcNum {
	neg := x.v.Sign() < 0
	ax := bcNum{new(big.Int).Abs(x.v), x.s}
	// Halve until below 1/2, then square back: guard digits for both.
	k := 0
	ip := new(big.Int).Abs(ax.rescale(0).v)
	k = ip.BitLen() + 1
	// e(x) has about .44*x integer digits: its relative error must be
	// that much smaller for the fraction to come out right.
	p := scale + 20 + k + 3*bcIntDigits(ax) + int(ip.Int64()*44/100)
	one := bcPow10(p)
	v := bcFix(ax, p)
	v.Rsh(v, uint(k))
	sum := new(big.Int).Set(one)
	term := new(big.Int).Set(one)
	for n := int64(1); ; n++ {
		term = bcFixMul(term, v, one)
		term.Quo(term, big.NewInt(n))
		if term.Sign() == 0 {
			break
		}
		sum.Add(sum, term)
	}
	for i := 0; i < k; i++ {
		sum = bcFixMul(sum, sum, one)
	}
	if neg {
		sum = bcFixDiv(one, sum, one)
	}
	return bcNum{sum, p}.rescale(scale)
}

func bcLn(x bcNum, scale int) bcNum {
	if x.v.Sign() <= 0 {
		// As GNU's library: a large negative number for x <= 0.
		return bcSub(bcInt(1), bcNum{bcPow10(scale), 0}).rescale(scale)
	}
	p := scale + 25 + bcIntDigits(x)
	one := bcPow10(p)
	v := bcFix(x, p)
	if v.Sign() == 0 {
		v = big.NewInt(1)
	}
	k := 0
	two := new(big.Int).Mul(one, big.NewInt(2))
	half := new(big.Int).Quo(one, big.NewInt(2))
	extra := 0
	for v.Cmp(two) > 0 || v.Cmp(half) < 0 {
		v = new(big.Int).Sqrt(new(big.Int).Mul(v, one))
		k++
		if k > 4*p {
			break
		}
	}
	_ = extra
	// ln(v) = 2 atanh((v-1)/(v+1))
	u := bcFixDiv(new(big.Int).Sub(v, one), new(big.Int).Add(v, one), one)
	u2 := bcFixMul(u, u, one)
	sum := new(big.Int).Set(u)
	term := new(big.Int).Set(u)
	for n := int64(3); ; n += 2 {
		term = bcFixMul(term, u2, one)
		t := new(big.Int).Quo(term, big.NewInt(n))
		if t.Sign() == 0 {
			break
		}
		sum.Add(sum, t)
	}
	sum.Mul(sum, big.NewInt(2))
	sum.Lsh(sum, uint(k))
	return bcNum{sum, p}.rescale(scale)
}

// bcAtanSmall sums the atan series for a small fixed-point argument.
func bcAtanSmall(v, one *big.Int) *big.Int {
	v2 := bcFixMul(v, v, one)
	sum := new(big.Int).Set(v)
	term := new(big.Int).Set(v)
	for n := int64(3); ; n += 2 {
		term = bcFixMul(term, v2, one)
		term.Neg(term)
		t := new(big.Int).Quo(term, big.NewInt(n))
		if t.Sign() == 0 {
			break
		}
		sum.Add(sum, t)
	}
	return sum
}

// bcPi returns pi in fixed point with p digits (Machin's formula).
func bcPi(p int) *big.Int {
	q := p + 10
	one := bcPow10(q)
	a := bcAtanSmall(new(big.Int).Quo(one, big.NewInt(5)), one)
	b := bcAtanSmall(new(big.Int).Quo(one, big.NewInt(239)), one)
	pi := new(big.Int).Sub(new(big.Int).Mul(a, big.NewInt(16)), new(big.Int).Mul(b, big.NewInt(4)))
	return pi.Quo(pi, bcPow10(10))
}

func bcAtan(x bcNum, scale int) bcNum {
	p := scale + 25
	one := bcPow10(p)
	v := bcFix(x, p)
	neg := v.Sign() < 0
	v.Abs(v)
	inverted := false
	if v.Cmp(one) > 0 {
		v = bcFixDiv(one, v, one)
		inverted = true
	}
	k := 0
	limit := new(big.Int).Quo(one, big.NewInt(5))
	for v.Cmp(limit) > 0 {
		// atan(v) = 2 atan(v / (1 + sqrt(1 + v^2)))
		s := new(big.Int).Add(one, bcFixMul(v, v, one))
		s.Sqrt(s.Mul(s, one))
		v = bcFixDiv(v, s.Add(s, one), one)
		k++
	}
	r := bcAtanSmall(v, one)
	r.Lsh(r, uint(k))
	if inverted {
		half := new(big.Int).Rsh(bcPi(p), 1)
		r = half.Sub(half, r)
	}
	if neg {
		r.Neg(r)
	}
	return bcNum{r, p}.rescale(scale)
}

func bcSin(x bcNum, scale int, cosine bool) bcNum {
	p := scale + 25 + bcIntDigits(x)
	one := bcPow10(p)
	v := bcFix(x, p)
	pi := bcPi(p)
	if cosine {
		v.Add(v, new(big.Int).Rsh(pi, 1))
	}
	// Reduce into [-pi, pi].
	twoPi := new(big.Int).Lsh(pi, 1)
	v.Rem(v, twoPi)
	if v.Cmp(pi) > 0 {
		v.Sub(v, twoPi)
	} else if new(big.Int).Neg(v).Cmp(pi) > 0 {
		v.Add(v, twoPi)
	}
	v2 := bcFixMul(v, v, one)
	sum := new(big.Int).Set(v)
	term := new(big.Int).Set(v)
	for n := int64(2); ; n += 2 {
		term = bcFixMul(term, v2, one)
		term.Quo(term, big.NewInt(n*(n+1)))
		term.Neg(term)
		if term.Sign() == 0 {
			break
		}
		sum.Add(sum, term)
	}
	return bcNum{sum, p}.rescale(scale)
}

func bcBessel(nArg, x bcNum, scale int) bcNum {
	n64, _ := nArg.toInt64()
	n := n64
	negOrder := n < 0
	if negOrder {
		n = -n
	}
	p := scale + 25 + 2*bcIntDigits(x) + int(new(big.Int).Abs(x.rescale(0).v).Int64()%1000)
	one := bcPow10(p)
	half := bcFix(x, p)
	half.Quo(half, big.NewInt(2))
	// term_0 = (x/2)^n / n!
	term := new(big.Int).Set(one)
	for i := int64(1); i <= n; i++ {
		term = bcFixMul(term, half, one)
		term.Quo(term, big.NewInt(i))
	}
	h2 := bcFixMul(half, half, one)
	sum := new(big.Int).Set(term)
	for k := int64(1); ; k++ {
		term = bcFixMul(term, h2, one)
		term.Quo(term, big.NewInt(k*(k+n)))
		term.Neg(term)
		if term.Sign() == 0 {
			break
		}
		sum.Add(sum, term)
	}
	if negOrder && n%2 == 1 {
		sum.Neg(sum)
	}
	return bcNum{sum, p}.rescale(scale)
}
