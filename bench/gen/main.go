// Command gen writes a deterministic CSV-like text file for bench/text.sh.
//
// Each line is "id,word,number,text": a zero-padded id, one word of a small
// vocabulary, an integer, and free text of words padded to about -width bytes.
// About one line in 50 holds the word "needle" and about one in 20 a token of
// three digits followed by "x", so that fixed-string and regex searches match.
// The same flags always produce the same bytes (a fixed xorshift64* generator).
//
// Usage:
//
//	gen [-lines N] [-width W] [-seed S] > file
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
)

var vocab = []string{
	"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
	"india", "juliet", "kilo", "lima", "mike", "november", "oscar", "papa",
	"quebec", "romeo", "sierra", "tango", "uniform", "victor", "whiskey", "xray",
	"yankee", "zulu", "apple", "banana", "cherry", "damson", "elder", "fig",
	"grape", "hazel", "iris", "jasmine", "kale", "lemon", "mango", "nutmeg",
	"olive", "pepper", "quince", "radish", "sage", "thyme", "ugli", "vanilla",
	"walnut", "yam", "zest", "amber", "basalt", "cobalt", "dune", "ember",
	"flint", "garnet", "harbor", "indigo", "jade", "kelp", "lagoon", "marble",
}

// rng is xorshift64*: tiny, fast, and fixed forever.
type rng uint64

func (r *rng) next() uint64 {
	x := uint64(*r)
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	*r = rng(x)
	return x * 2685821657736338717
}

func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

func main() {
	lines := flag.Int("lines", 1000000, "number of lines to write")
	width := flag.Int("width", 100, "approximate bytes per line")
	seed := flag.Uint64("seed", 1, "generator seed (non-zero)")
	flag.Parse()
	if *seed == 0 {
		*seed = 1
	}
	r := rng(*seed)
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	line := make([]byte, 0, 2*(*width))
	for i := 0; i < *lines; i++ {
		line = line[:0]
		line = fmt.Appendf(line, "%07d,", i)
		line = append(line, vocab[r.intn(len(vocab))]...)
		line = append(line, ',')
		line = strconv.AppendInt(line, int64(r.intn(1000000)), 10)
		line = append(line, ',')
		if r.intn(50) == 0 {
			line = append(line, "needle "...)
		}
		if r.intn(20) == 0 {
			line = fmt.Appendf(line, "%03dx ", r.intn(1000))
		}
		for len(line) < *width-1 {
			line = append(line, vocab[r.intn(len(vocab))]...)
			line = append(line, ' ')
		}
		line[len(line)-1] = '\n'
		if _, err := w.Write(line); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
