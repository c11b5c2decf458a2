package posixre

import (
	"bytes"
	"regexp"
	"sync"
	"unicode/utf8"

	"github.com/llmsh/llmsh/internal/stopre"
)

// A subject that is not valid UTF-8, outside Bytes mode: GNU's matchers
// (grep 3.8, sed 4.9 under C.UTF-8) take a byte that starts no character
// for an encoding error that no '.', negated bracket expression, \W or
// \S matches (printf 'a\xffb' | sed 's/./X/g' writes X\xffX), where RE2
// reads it as U+FFFD and matches it. Such a subject is matched with a
// second RE2 form in which those never match U+FFFD; a subject that also
// holds a real U+FFFD, which that form would miss, goes to the
// backtracking matcher, whose char() tells the two apart.

// utf8Forms holds the forms a pattern that can tell them apart
// (sensitive) matches a subject that is not UTF-8 with, built on first
// use.
type utf8Forms struct {
	once   sync.Once
	strict *Regexp // RE2 form that skips encoding errors
	bt     *Regexp // the backtracking matcher only
}

// sensitive reports whether n has a '.' or a negated class.
func sensitive(n *node) bool {
	switch n.kind {
	case kAny:
		return true
	case kClass:
		return n.neg
	}
	for _, s := range n.sub {
		if sensitive(s) {
			return true
		}
	}
	return false
}

// variant copies r's parse without its RE2 form.
func (r *Regexp) variant() *Regexp {
	return &Regexp{root: r.root, fl: r.fl, ngroups: r.ngroups, budget: r.budget, Warnings: r.Warnings}
}

func (r *Regexp) buildUTF8Forms() {
	f := r.u8
	f.bt = r.variant()
	f.strict = f.bt
	t, err := translateMode(r.root, &parser{groups: r.ngroups, warnings: r.Warnings}, r.fl, true)
	if err != nil {
		return
	}
	re, err := regexp.Compile(t.Expr)
	if err != nil {
		return
	}
	re.Longest()
	s := r.variant()
	s.re, s.tr, s.srch = re, t, stopre.New(re, true)
	f.strict = s
}

var runeErrorUTF8 = []byte(string(utf8.RuneError))

// forSubject returns the Regexp that matches b as r's pattern does: r,
// or one of its utf8Forms for a subject that is not UTF-8.
func (r *Regexp) forSubject(b []byte) *Regexp {
	if r.u8 == nil || utf8.Valid(b) {
		return r
	}
	r.u8.once.Do(r.buildUTF8Forms)
	if bytes.Contains(b, runeErrorUTF8) {
		return r.u8.bt
	}
	return r.u8.strict
}

// UTF8Sensitive reports whether the RE2 form (RE2) matches a subject that
// is not UTF-8 otherwise than the pattern does: such subjects must go to
// Match and FindAll.
func (r *Regexp) UTF8Sensitive() bool { return r.u8 != nil }
