package builtins

import (
	"errors"
	"math"
	"math/big"
	"strings"
)

// bcNum is a bc number: v / 10^s, with s the number's scale (digits
// after the point). Arithmetic follows POSIX bc: results are truncated
// toward zero, never rounded.
type bcNum struct {
	v *big.Int
	s int
}

var (
	bcTen        = big.NewInt(10)
	errBcDivZero = errors.New("Divide by zero")
	// errBcTooBig stops computations that big.Int could not interrupt: a
	// result of more than bcMaxDigits digits is refused.
	errBcTooBig = errors.New("number too large (more than 1048576 digits)")
)

const bcMaxDigits = 1 << 20

// bcDigits estimates the decimal digits of |v| from its bit length.
func bcDigits(v *big.Int) int { return v.BitLen()*30103/100000 + 1 }

func bcPow10(n int) *big.Int {
	return new(big.Int).Exp(bcTen, big.NewInt(int64(n)), nil)
}

func bcInt(i int64) bcNum { return bcNum{big.NewInt(i), 0} }

func (a bcNum) isZero() bool { return a.v.Sign() == 0 }

// rescale changes a's scale to s, truncating toward zero.
func (a bcNum) rescale(s int) bcNum {
	switch {
	case s == a.s:
		return a
	case s > a.s:
		return bcNum{new(big.Int).Mul(a.v, bcPow10(s-a.s)), s}
	}
	return bcNum{new(big.Int).Quo(a.v, bcPow10(a.s-s)), s}
}

func bcAdd(a, b bcNum) bcNum {
	s := max(a.s, b.s)
	x, y := a.rescale(s), b.rescale(s)
	return bcNum{new(big.Int).Add(x.v, y.v), s}
}

func bcSub(a, b bcNum) bcNum {
	s := max(a.s, b.s)
	x, y := a.rescale(s), b.rescale(s)
	return bcNum{new(big.Int).Sub(x.v, y.v), s}
}

func bcMul(a, b bcNum, scale int) (bcNum, error) {
	if bcDigits(a.v)+bcDigits(b.v) > bcMaxDigits {
		return bcNum{}, errBcTooBig
	}
	full := bcNum{new(big.Int).Mul(a.v, b.v), a.s + b.s}
	return full.rescale(min(a.s+b.s, max(scale, a.s, b.s))), nil
}

func bcDiv(a, b bcNum, scale int) (bcNum, error) {
	if b.isZero() {
		return bcNum{}, errBcDivZero
	}
	if bcDigits(a.v)+b.s+scale > bcMaxDigits {
		return bcNum{}, errBcTooBig
	}
	num := new(big.Int).Mul(a.v, bcPow10(b.s+scale))
	den := new(big.Int).Mul(b.v, bcPow10(a.s))
	return bcNum{num.Quo(num, den), scale}, nil
}

func bcMod(a, b bcNum, scale int) (bcNum, error) {
	q, err := bcDiv(a, b, scale)
	if err != nil {
		return bcNum{}, err
	}
	rs := max(scale+b.s, a.s)
	m, err := bcMul(q, b, rs)
	if err != nil {
		return m, err
	}
	return bcSub(a, m), nil
}

func bcCmp(a, b bcNum) int {
	s := max(a.s, b.s)
	return a.rescale(s).v.Cmp(b.rescale(s).v)
}

var errBcExpTooBig = errors.New("exponent too large in raise")

// bcPow raises a to the integer power e (the caller truncates e).
func bcPow(a bcNum, e *big.Int, scale int) (bcNum, error) {
	if e.Sign() == 0 {
		return bcInt(1), nil
	}
	neg := e.Sign() < 0
	ae := new(big.Int).Abs(e)
	// |a| of 0 or 1 (with no fraction) needs no work whatever the exponent.
	if a.isZero() {
		if neg {
			return bcNum{}, errBcDivZero
		}
		return bcNum{new(big.Int), 0}.rescale(min(a.s, scale)), nil
	}
	if !ae.IsInt64() || ae.Int64() > 1<<24 {
		abs := new(big.Int).Abs(a.v)
		if abs.Cmp(bcPow10(a.s)) != 0 {
			return bcNum{}, errBcExpTooBig
		}
	}
	n := ae.Int64()
	if ae.Cmp(big.NewInt(1<<24)) > 0 {
		// a is 1 or -1 here.
		n = 2 + int64(ae.Bit(0))
	}
	if int64(bcDigits(a.v))*n > bcMaxDigits {
		return bcNum{}, errBcTooBig
	}
	full := bcNum{new(big.Int).Exp(a.v, big.NewInt(n), nil), a.s * int(n)}
	if neg {
		return bcDiv(bcInt(1), full, scale)
	}
	return full.rescale(min(a.s*int(n), max(scale, a.s))), nil
}

var errBcSqrtNeg = errors.New("Square root of a negative number")

func bcSqrt(a bcNum, scale int) (bcNum, error) {
	if a.v.Sign() < 0 {
		return bcNum{}, errBcSqrtNeg
	}
	r := max(scale, a.s)
	if bcDigits(a.v)+2*r > bcMaxDigits {
		return bcNum{}, errBcTooBig
	}
	x := new(big.Int).Mul(a.v, bcPow10(2*r-a.s))
	return bcNum{x.Sqrt(x), r}, nil
}

// bcLength is bc's length(): the significant digits.
func bcLength(a bcNum) int {
	abs := new(big.Int).Abs(a.v)
	if abs.Cmp(bcPow10(a.s)) < 0 {
		// No integer part: the fraction digits count, zeros and all.
		return max(a.s, 1)
	}
	return len(abs.String())
}

// bcToInt64 truncates a to an integer and reports whether it fits.
func (a bcNum) toInt64() (int64, bool) {
	i := a.rescale(0).v
	if !i.IsInt64() {
		return 0, false
	}
	return i.Int64(), true
}

// format writes a in base obase as GNU bc prints it.
func (a bcNum) format(obase int) string {
	var b strings.Builder
	if a.isZero() {
		return "0"
	}
	if a.v.Sign() < 0 {
		b.WriteByte('-')
	}
	abs := new(big.Int).Abs(a.v)
	scaleDiv := bcPow10(a.s)
	ip, fp := new(big.Int).QuoRem(abs, scaleDiv, new(big.Int))
	if obase == 10 {
		if ip.Sign() != 0 {
			b.WriteString(ip.String())
		}
		if a.s > 0 {
			b.WriteByte('.')
			fs := fp.String()
			b.WriteString(strings.Repeat("0", a.s-len(fs)))
			b.WriteString(fs)
		}
		return b.String()
	}
	width := len(big.NewInt(int64(obase - 1)).String())
	ob := big.NewInt(int64(obase))
	// digits returns v's digits in base obase, most significant first,
	// at least n of them.
	digits := func(v *big.Int, n int) []int64 {
		var ds []int64
		if obase <= 16 {
			for _, c := range v.Text(obase) {
				if c <= '9' {
					ds = append(ds, int64(c-'0'))
				} else {
					ds = append(ds, int64(c-'a')+10)
				}
			}
			if v.Sign() == 0 {
				ds = ds[:0]
			}
		} else {
			x := new(big.Int).Set(v)
			m := new(big.Int)
			for x.Sign() != 0 {
				x.QuoRem(x, ob, m)
				ds = append(ds, m.Int64())
			}
			for i, j := 0, len(ds)-1; i < j; i, j = i+1, j-1 {
				ds[i], ds[j] = ds[j], ds[i]
			}
		}
		for len(ds) < n {
			ds = append([]int64{0}, ds...)
		}
		return ds
	}
	put := func(d int64, space bool) {
		if obase <= 16 {
			b.WriteByte("0123456789ABCDEF"[d])
			return
		}
		if space {
			b.WriteByte(' ')
		}
		t := big.NewInt(d).String()
		b.WriteString(strings.Repeat("0", width-len(t)))
		b.WriteString(t)
	}
	if ip.Sign() != 0 {
		for _, d := range digits(ip, 0) {
			put(d, true)
		}
	} else if obase > 16 && a.s == 0 {
		put(0, true)
	}
	if a.s > 0 {
		b.WriteByte('.')
		// As many digits as it takes for obase^k to exceed 10^scale (GNU
		// bc), each the truncated expansion of the fraction.
		limit := bcPow10(a.s)
		k := max(int(float64(a.s)*math.Log(10)/math.Log(float64(obase)))-1, 0)
		pw := new(big.Int).Exp(ob, big.NewInt(int64(k)), nil)
		for pw.Cmp(limit) < 0 {
			pw.Mul(pw, ob)
			k++
		}
		f := new(big.Int).Mul(fp, new(big.Int).Exp(ob, big.NewInt(int64(k)), nil))
		f.Quo(f, scaleDiv)
		for i, d := range digits(f, k) {
			put(d, i > 0)
		}
	}
	return b.String()
}
