// Copyright (c) 2018, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package expand

import (
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// Braces performs brace expansion on a word, given that it contains any
// [syntax.BraceExp] parts. For example, the word with a brace expansion
// "foo{bar,baz}" will return two literal words, "foobar" and "foobaz".
//
// Note that the resulting words may share word parts.
//
// Deprecated: use [BracesSeq], which yields words lazily and reports an
// error rather than letting a large sequence allocate huge amounts.
func Braces(word *syntax.Word) []*syntax.Word {
	var all []*syntax.Word
	bracesSeqRec(word, func(w *syntax.Word) bool {
		all = append(all, w)
		return true
	})
	return all
}

// BracesSeq performs brace expansion on a word, given that it contains any
// [syntax.BraceExp] parts. For example, the word with a brace expansion
// "foo{bar,baz}" will return two literal words, "foobar" and "foobaz".
//
// The iteration yields an error and stops if the total expansion is too
// large, including combinatorial blow-ups across multiple brace expansions
// like {1..100}{1..100}{1..100}: llmsh bounds it by cfg's MaxValue.
//
// Note that the resulting words may share word parts.
func BracesSeq(cfg *Config, word *syntax.Word) iter.Seq2[*syntax.Word, error] {
	return func(yield func(*syntax.Word, error) bool) {
		// llmsh: bash has no bound ({1..100000} is a common loop);
		// 256Ki words (some 80 MB while a command's fields are built)
		// and MaxValue's bytes bound them here, a limit that stops the
		// run as a value's does.
		const limit = 256 << 10
		count, size := 0, 0
		bracesSeqRec(word, func(w *syntax.Word) bool {
			count++
			if count > limit {
				yield(nil, ValueTooLargeError{Limit: limit, Words: true})
				return false
			}
			// llmsh: the word as bash reads the text it made.
			w.Parts = joinShortParams(mergeLits(w.Parts))
			if cfg != nil && cfg.MaxValue > 0 {
				size += 16
				for _, part := range w.Parts {
					if lit, ok := part.(*syntax.Lit); ok {
						size += len(lit.Value)
					}
				}
				if size > cfg.MaxValue {
					yield(nil, ValueTooLargeError{Limit: cfg.MaxValue})
					return false
				}
			}
			return yield(w, nil)
		})
	}
}

// bracesSeqRec yields each fully-expanded word descended from word.
// It returns false if iteration should stop.
func bracesSeqRec(word *syntax.Word, yield func(*syntax.Word) bool) bool {
	var left []syntax.WordPart
	for i, wp := range word.Parts {
		br, ok := wp.(*syntax.BraceExp)
		if !ok {
			left = append(left, wp)
			continue
		}
		if br.Sequence && seqLiteral(br) {
			// llmsh: a sequence bash's mkseq refuses stays as written.
			left = append(left, &syntax.Lit{ValuePos: br.Pos(), ValueEnd: br.End(), Value: braceText(br)})
			continue
		}
		rest := word.Parts[i+1:]
		// Yield each word produced by recursing on `next`,
		// after prepending `left` to its Parts.
		expand := func(next *syntax.Word) bool {
			return bracesSeqRec(next, func(w *syntax.Word) bool {
				w.Parts = slices.Concat(left, w.Parts)
				return yield(w)
			})
		}
		if br.Sequence {
			fromLit := br.Elems[0].Lit()
			toLit := br.Elems[1].Lit()

			chars := false
			// ParseInt with bit size 64 to ensure consistent behavior on 32-bit platforms.
			from, err1 := strconv.ParseInt(fromLit, 10, 64)
			to, err2 := strconv.ParseInt(toLit, 10, 64)
			if err1 != nil || err2 != nil {
				chars = true
				from = int64(fromLit[0])
				to = int64(toLit[0])
			}
			// Endpoints with leading zeros pad all results to the
			// widest endpoint, e.g. {01..10} gives 01 02 [...] 09 10.
			width := 0
			if !chars && (hasLeadingZeros(fromLit) || hasLeadingZeros(toLit)) {
				width = max(len(fromLit), len(toLit))
			}
			upward := from <= to
			incr := int64(1)
			if len(br.Elems) > 2 {
				// ParseInt with bit size 64 to ensure consistent behavior on 32-bit platforms.
				n, _ := strconv.ParseInt(br.Elems[2].Lit(), 10, 64)
				if n < 0 {
					n = -n // only the absolute value of the step matters
				}
				if n != 0 {
					incr = n
				}
			}
			if !upward {
				incr = -incr
			}
			for n := from; (upward && n <= to) || (!upward && n >= to); n += incr {
				next := *word
				lit := &syntax.Lit{}
				switch {
				case chars:
					lit.Value = string(rune(n))
				case width > 0:
					lit.Value = fmt.Sprintf("%0*d", width, n)
				default:
					lit.Value = strconv.FormatInt(n, 10)
				}
				var first syntax.WordPart = lit
				if chars && n == '\\' {
					// llmsh: bash generates the backslash as script
					// text, and quote removal takes it away; the field
					// stays, empty.
					first = &syntax.SglQuoted{}
				}
				next.Parts = append([]syntax.WordPart{first}, rest...)
				if !expand(&next) {
					return false
				}
				if (incr > 0 && n > math.MaxInt64-incr) || (incr < 0 && n < math.MinInt64-incr) {
					break // llmsh: the next number would overflow (bash stops)
				}
			}
			return true
		}
		for _, elem := range br.Elems {
			next := *word
			next.Parts = slices.Concat(elem.Parts, rest)
			if !expand(&next) {
				return false
			}
		}
		return true
	}
	return yield(&syntax.Word{Parts: left})
}

// joinShortParams gives a word that brace expansion made the parameter
// names bash reads in its text (llmsh): $f{1,2} is $f1 $f2, as bash
// expands braces before parameters.
func joinShortParams(parts []syntax.WordPart) []syntax.WordPart {
	var out []syntax.WordPart
	for i := 0; i+1 < len(parts); i++ {
		pe, ok := parts[i].(*syntax.ParamExp)
		lit, ok2 := parts[i+1].(*syntax.Lit)
		if !ok || !ok2 || !pe.Short || pe.Param == nil || !syntax.ValidName(pe.Param.Value) {
			continue
		}
		n := 0
		for n < len(lit.Value) && isNameByte(lit.Value[n]) {
			n++
		}
		if n == 0 {
			continue
		}
		if out == nil {
			out = slices.Clone(parts)
		}
		npe := *pe
		npe.Param = &syntax.Lit{ValuePos: pe.Param.ValuePos, ValueEnd: pe.Param.ValueEnd, Value: pe.Param.Value + lit.Value[:n]}
		out[i] = &npe
		out[i+1] = &syntax.Lit{ValuePos: lit.ValuePos, ValueEnd: lit.ValueEnd, Value: lit.Value[n:]}
	}
	if out == nil {
		return parts
	}
	return out
}

// mergeLits joins adjacent literal parts into one (llmsh), so that a word
// that brace expansion made reads as written: {~,x}/y gives ~/y, whose
// tilde expands. The parts themselves are shared, so they are not
// modified.
func mergeLits(parts []syntax.WordPart) []syntax.WordPart {
	merge := false
	for i := 1; i < len(parts); i++ {
		_, ok1 := parts[i-1].(*syntax.Lit)
		_, ok2 := parts[i].(*syntax.Lit)
		if ok1 && ok2 {
			// llmsh: also an empty one, so that {~,x}'s "~" is a word
			// of one part, which tilde expansion needs.
			merge = true
			break
		}
	}
	if !merge {
		return parts
	}
	out := make([]syntax.WordPart, 0, len(parts))
	for _, p := range parts {
		lit, ok := p.(*syntax.Lit)
		if !ok {
			out = append(out, p)
			continue
		}
		if n := len(out); n > 0 {
			if pl, ok := out[n-1].(*syntax.Lit); ok {
				out[n-1] = &syntax.Lit{ValuePos: pl.ValuePos, ValueEnd: lit.ValueEnd, Value: pl.Value + lit.Value}
				continue
			}
		}
		out = append(out, lit)
	}
	return out
}

func hasLeadingZeros(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return len(s) > 1 && s[0] == '0'
}

// seqLiteral reports whether bash leaves the sequence br as it is written
// (llmsh): an end or a step that is no 64-bit number
// ({1..99999999999999999999}), ends whose difference overflows, or more
// than INT_MAX-2 numbers ({1..2147483647}), which bash's mkseq refuses.
func seqLiteral(br *syntax.BraceExp) bool {
	fromLit, toLit := br.Elems[0].Lit(), br.Elems[1].Lit()
	from, err1 := strconv.ParseInt(fromLit, 10, 64)
	to, err2 := strconv.ParseInt(toLit, 10, 64)
	if err1 != nil || err2 != nil {
		// Letters ({a..e}) are one character each; a number too big
		// for 64 bits is no number to bash either.
		return len(fromLit) != 1 || len(toLit) != 1 || err1 == nil || err2 == nil
	}
	incr := int64(1)
	if len(br.Elems) > 2 {
		n, err := strconv.ParseInt(br.Elems[2].Lit(), 10, 64)
		if err != nil {
			return true
		}
		if n != 0 && n != math.MinInt64 {
			incr = max(n, -n)
		}
	}
	// bash's SUBOVERFLOW(end, start, INTMAX_MIN+3, INTMAX_MAX-2).
	if start := from; start > 0 && to < math.MinInt64+3+start || start < 0 && to > math.MaxInt64-2+start {
		return true
	}
	d := to - from
	if d < 0 {
		d = -d
	}
	return d/incr > math.MaxInt32-3
}

// braceText is the text of the brace expression br as written (llmsh).
func braceText(br *syntax.BraceExp) string {
	sep := ","
	if br.Sequence {
		sep = ".."
	}
	var sb strings.Builder
	sb.WriteByte('{')
	for i, elem := range br.Elems {
		if i > 0 {
			sb.WriteString(sep)
		}
		sb.WriteString(elem.Lit())
	}
	sb.WriteByte('}')
	return sb.String()
}
