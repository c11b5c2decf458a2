// llmsh: $RANDOM from bash 5.2's generator (LLMSH.md); upstream drew from
// ChaCha8, so RANDOM=seed gave other numbers than bash.

package interp

import mathrand "math/rand/v2"

// bashRandom is bash 5.2's generator behind $RANDOM: Park and Miller's
// minimal standard generator (x = 16807 * x mod 2^31-1), its two halves
// folded together (bash's compatibility level above 50), and no number
// twice in a row. Seeded by RANDOM=N, it gives bash's sequence.
type bashRandom struct {
	state  uint32
	seeded bool
	last   int
}

// seed sets the state as bash's sbrand: the low 32 bits of n.
func (g *bashRandom) seed(n uint64) {
	g.state, g.seeded, g.last = uint32(n), true, 0
}

// step is bash's intrand32, with its C integer conversions.
func (g *bashRandom) step() {
	ret := g.state
	if ret == 0 {
		ret = 123459876 // the state cannot be 0
	}
	h := int32(ret / 127773)
	l := int32(ret - uint32(127773*h))
	t := 16807*l - 2836*h
	if t < 0 {
		t += 0x7fffffff
	}
	g.state = uint32(t)
}

// current is the number last drawn: what $RANDOM is to the shell's own
// look-ups of the variable (its attributes, a nameref), which draw none.
func (g *bashRandom) current() int {
	if !g.seeded {
		return g.next()
	}
	return g.last
}

// next returns the next number in [0, 32767], as bash's get_random_number.
func (g *bashRandom) next() int {
	if !g.seeded {
		// bash seeds from the time and its pid: any start will do.
		g.seed(uint64(mathrand.Uint32()))
	}
	for {
		g.step()
		n := int((g.state>>16)^(g.state&0xffff)) & 0x7fff
		if n != g.last {
			g.last = n
			return n
		}
	}
}
