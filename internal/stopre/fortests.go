package stopre

import (
	"regexp"
	"regexp/syntax"
)

// ForTests is stopre's test-support surface: the internals that its own
// tests check directly. Those tests are an external package (stopre_test),
// so that a test run compiles stopre once, not a second time with its
// tests; nothing else uses ForTests.
var ForTests forTests

type forTests struct{}

// PrefixAfterAsserts is the literal prefix of re's matches after the
// assertions it starts with (prefixAfterAsserts).
func (forTests) PrefixAfterAsserts(re *regexp.Regexp) string { return prefixAfterAsserts(re) }

// IsAssert reports whether op is one of the assertions
// prefixAfterAsserts skips (isAssert).
func (forTests) IsAssert(op syntax.Op) bool { return isAssert(op) }
