package gojq

import (
	"strings"
	"unicode/utf8"
)

// ValidUTF8 is s with each invalid UTF-8 sequence replaced by U+FFFD as
// jq 1.7.1 replaces it when it makes a string (jvp_utf8_next): a byte that
// starts no sequence (a continuation byte, 0xC0, 0xC1, 0xF5 to 0xFF) is
// one; a sequence broken by a byte that does not continue it is one, up to
// that byte; a sequence cut short by the end of s is one with the rest of
// s; an overlong form, a surrogate or a code point past U+10FFFF is one.
// strings.ToValidUTF8 would make one of each run of invalid bytes.
func ValidUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		c := s[i]
		n := 0
		switch {
		case c < 0x80:
			b.WriteByte(c)
			i++
			continue
		case c >= 0xC2 && c <= 0xDF:
			n = 2
		case c >= 0xE0 && c <= 0xEF:
			n = 3
		case c >= 0xF0 && c <= 0xF4:
			n = 4
		}
		switch {
		case n == 0:
			i++
		case i+n > len(s):
			i = len(s)
		default:
			k := 1
			for k < n && s[i+k]&0xC0 == 0x80 {
				k++
			}
			if k == n {
				if r, size := utf8.DecodeRuneInString(s[i : i+n]); r != utf8.RuneError || size == n {
					b.WriteString(s[i : i+n])
					i += n
					continue
				}
			}
			i += k
		}
		b.WriteRune(utf8.RuneError)
	}
	return b.String()
}
