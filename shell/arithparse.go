package shell

import (
	"errors"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// Arithmetic that interp's parser refuses. bash parses the text of
// $(( … )) when it expands it: $(( 6 $op 7 )) is 42 with op='*', and
// `echo before; echo $(( 1 + ))` prints before, then fails. interp's
// parser checks the arithmetic with the rest of the script and refuses
// both. parseScript parses src; on an error inside a $(( … )), it
// replaces that expansion's text with a name of the same length (so that
// the offsets of everything else stay) and parses again. The rewriter
// (arithParts) then evaluates the original text, read from src at those
// offsets, when the expansion runs: the text is expanded, then evaluated,
// and an error ends the shell with status 1, as bash's does.

// parseScript parses src as described above; it returns the error of
// the first parse if it cannot repair it. bad are the words that stand
// for such a text.
func parseScript(src, name string) (file *syntax.File, bad map[*syntax.Word]bool, err error) {
	file, err = syntax.NewParser().Parse(strings.NewReader(src), name)
	if err == nil {
		return file, nil, nil
	}
	first := err
	patched := src
	var spans [][2]int
	for range 32 {
		var perr syntax.ParseError
		if !errors.As(err, &perr) {
			return nil, nil, first
		}
		from, to, ok := arithSpan(patched, int(perr.Pos.Offset()))
		if !ok {
			return nil, nil, first
		}
		patched = patched[:from] + strings.Repeat("_", to-from) + patched[to:]
		spans = append(spans, [2]int{from, to})
		file, err = syntax.NewParser().Parse(strings.NewReader(patched), name)
		if err == nil {
			break
		}
	}
	if err != nil {
		return nil, nil, first
	}
	bad = map[*syntax.Word]bool{}
	syntax.Walk(file, func(n syntax.Node) bool {
		if ae, ok := n.(*syntax.ArithmExp); ok {
			if w, ok := ae.X.(*syntax.Word); ok {
				for _, sp := range spans {
					if int(w.Pos().Offset()) == sp[0] {
						bad[w] = true
					}
				}
			}
		}
		return true
	})
	return file, bad, nil
}

// arithSpan finds the text between the $(( and the )) that hold offset
// off of src.
func arithSpan(src string, off int) (from, to int, ok bool) {
	if off > len(src) {
		off = len(src)
	}
	start := strings.LastIndex(src[:off], "$((")
	if start < 0 {
		return 0, 0, false
	}
	from = start + 3
	depth := 0
	for i := from; i < len(src); i++ {
		switch src[i] {
		case '(':
			depth++
		case ')':
			if depth > 0 {
				depth--
				continue
			}
			if i+1 < len(src) && src[i+1] == ')' && off <= i+1 && i > from {
				return from, i, true
			}
			return 0, 0, false
		case '\n':
			return 0, 0, false
		}
	}
	return 0, 0, false
}
