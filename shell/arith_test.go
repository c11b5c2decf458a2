package shell_test

import (
	"strconv"
	"testing"
)

// BenchmarkArithLoop measures the agents' counting loop, whose arithmetic
// expansion holds a parameter expansion ($i), and the same loop written
// with a bare name (i), and counts kept in an indexed array (a[i % 4])
// and in an associative array under a key from a variable (c[$k]).
func BenchmarkArithLoop(b *testing.B) {
	for _, bc := range []struct{ name, src string }{
		{"dollar", `i=0; while [ $i -lt 2000 ]; do i=$(( $i + 1 )); done; echo $i`},
		{"bare", `i=0; while [ $i -lt 2000 ]; do i=$((i + 1)); done; echo $i`},
		{"element", `unset a; i=0; while [ $i -lt 2000 ]; do (( a[i % 4] += 1 )); i=$((i+1)); done; echo $(( a[0] * 4 ))`},
		{"assoc", `unset c; declare -A c; i=0; while [ $i -lt 2000 ]; do k=k$((i % 7)); (( c[$k]++ )); i=$((i+1)); done; echo $(( c[k0] * 7 - 2 ))`},
	} {
		b.Run(bc.name, func(b *testing.B) { benchScript(b, bc.src, strconv.Itoa(2000)+"\n") })
	}
}
