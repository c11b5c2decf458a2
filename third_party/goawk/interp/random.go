// glibc's random(3), which mawk 1.3.4 (Debian's awk) uses for rand().

package interp

// glibcRandom is glibc's default random(3) generator (TYPE_3: an
// additive feedback generator of degree 31, separation 3), so that
// srand(N) then rand() gives the numbers mawk gives on Debian.
type glibcRandom struct {
	state [31]int32
	f, r  int
}

// seed is glibc's srandom: the state from a linear congruential
// sequence, then 310 outputs discarded.
func (g *glibcRandom) seed(s uint32) {
	if s == 0 {
		s = 1
	}
	word := int32(s)
	g.state[0] = word
	for i := 1; i < len(g.state); i++ {
		hi, lo := word/127773, word%127773
		word = 16807*lo - 2836*hi
		if word < 0 {
			word += 2147483647
		}
		g.state[i] = word
	}
	g.f, g.r = 3, 0
	for range 310 {
		g.next()
	}
}

// next is glibc's random(): a number in [0, 2^31).
func (g *glibcRandom) next() int32 {
	v := uint32(g.state[g.f]) + uint32(g.state[g.r])
	g.state[g.f] = int32(v)
	g.f = (g.f + 1) % len(g.state)
	g.r = (g.r + 1) % len(g.state)
	return int32(v >> 1)
}

// float is mawk's rand(): random() / RAND_MAX.
func (g *glibcRandom) float() float64 {
	return float64(g.next()) / 2147483647
}

// seedFrom seeds as mawk's srand(x) does: srandom((unsigned) d_to_i(x)).
func (g *glibcRandom) seedFrom(x float64) {
	g.seed(uint32(int32(dToI(x))))
}
