package shell

import (
	"strconv"
	"testing"
)

// BenchmarkArithLoop measures the agents' counting loop, whose arithmetic
// expansion holds a parameter expansion ($i), and the same loop written
// with a bare name (i).
func BenchmarkArithLoop(b *testing.B) {
	for _, bc := range []struct{ name, src string }{
		{"dollar", `i=0; while [ $i -lt 2000 ]; do i=$(( $i + 1 )); done; echo $i`},
		{"bare", `i=0; while [ $i -lt 2000 ]; do i=$((i + 1)); done; echo $i`},
	} {
		b.Run(bc.name, func(b *testing.B) { benchScript(b, bc.src, strconv.Itoa(2000)+"\n") })
	}
}
