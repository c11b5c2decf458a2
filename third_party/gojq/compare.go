package gojq

import (
	"cmp"
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Compare l and r, and returns jq-flavored comparison value.
// The result will be 0 if l == r, -1 if l < r, and +1 if l > r.
// This comparison is used by built-in operators and functions.
func Compare(l, r any) int {
	return compare(l, r, 0)
}

// compare is Compare at depth levels into the values compared (llmsh).
func compare(l, r any, depth int) int {
	depth = deeper(depth)
	if c, ok := compareLiterals(l, r); ok {
		return c
	}
	return binopTypeSwitch(l, r,
		cmp.Compare,
		func(l, r float64) int {
			switch {
			case lt(l, r):
				return -1
			case l == r:
				return 0
			default:
				return 1
			}
		},
		(*big.Int).Cmp,
		strings.Compare,
		func(l, r []any) int {
			for i := range min(len(l), len(r)) {
				if cmp := compare(l[i], r[i], depth); cmp != 0 {
					return cmp
				}
			}
			return cmp.Compare(len(l), len(r))
		},
		func(l, r *OrderedMap) int {
			lk, rk := funcKeys(l), funcKeys(r)
			if cmp := Compare(lk, rk); cmp != 0 {
				return cmp
			}
			for _, k := range lk.([]any) {
				lv, _ := l.Get(k.(string))
				rv, _ := r.Get(k.(string))
				if cmp := compare(lv, rv, depth); cmp != 0 {
					return cmp
				}
			}
			return 0
		},
		func(l, r any) int {
			return cmp.Compare(typeIndex(l), typeIndex(r))
		},
	)
}

func lt(l, r float64) bool {
	return l < r || math.IsNaN(l)
}

func typeIndex(v any) int {
	switch v := v.(type) {
	default:
		return 0
	case bool:
		if !v {
			return 1
		}
		return 2
	case int, float64, *big.Int, json.Number:
		return 3
	case string:
		return 4
	case []any:
		return 5
	case *OrderedMap:
		return 6
	}
}

// compareLiterals compares l and r as decimals when one is a number kept
// as its literal (json.Number: past 2^53, or no double prints it) and the
// other is one too or an int (llmsh): jq 1.7.1 compares two literals with
// decNumber, so that 12345678901234567890 == 12345678901234567891 is
// false and sort orders them, where their doubles are equal.
func compareLiterals(l, r any) (int, bool) {
	ln, lok := l.(json.Number)
	rn, rok := r.(json.Number)
	if !lok && !rok {
		return 0, false
	}
	if !lok {
		i, ok := l.(int)
		if !ok {
			return 0, false
		}
		ln = json.Number(strconv.Itoa(i))
	}
	if !rok {
		i, ok := r.(int)
		if !ok {
			return 0, false
		}
		rn = json.Number(strconv.Itoa(i))
	}
	a, aok := parseDecimal(string(ln))
	b, bok := parseDecimal(string(rn))
	if !aok || !bok {
		return 0, false
	}
	return a.cmp(b), true
}

// decimal is a number as sign, coefficient digits (no leading or trailing
// zeros; "" for zero) and the exponent of its last digit.
type decimal struct {
	neg  bool
	coef string
	exp  int
}

// parseDecimal reads a literal as ParseNumberLiteral keeps one: a sign,
// digits with a point, an exponent after E.
func parseDecimal(s string) (decimal, bool) {
	var d decimal
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		d.neg, s = true, rest
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		if err != nil {
			return d, false
		}
		d.exp, s = e, s[:i]
	}
	if i := strings.IndexByte(s, '.'); i >= 0 {
		d.exp -= len(s) - i - 1
		s = s[:i] + s[i+1:]
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return d, false
		}
	}
	s = strings.TrimLeft(s, "0")
	t := strings.TrimRight(s, "0")
	d.exp += len(s) - len(t)
	d.coef = t
	return d, true
}

func (a decimal) cmp(b decimal) int {
	sign := func(d decimal) int {
		switch {
		case d.coef == "":
			return 0
		case d.neg:
			return -1
		}
		return 1
	}
	if sa, sb := sign(a), sign(b); sa != sb || sa == 0 {
		return cmp.Compare(sa, sb)
	}
	// the same sign: compare the magnitudes, by the place of the first
	// digit, then digit by digit
	c := cmp.Compare(a.exp+len(a.coef), b.exp+len(b.coef))
	if c == 0 {
		n := max(len(a.coef), len(b.coef))
		c = strings.Compare(a.coef+strings.Repeat("0", n-len(a.coef)), b.coef+strings.Repeat("0", n-len(b.coef)))
	}
	if a.neg {
		return -c
	}
	return c
}
