package posixre

// ForTests is posixre's test-support surface: the internals that its own
// tests check directly. Those tests are an external package
// (posixre_test), so that a test run compiles posixre once, not a second
// time with its tests; nothing else uses ForTests.
var ForTests forTests

type forTests struct{}

// Transparent reports whether re, compiled with Bytes, matches through
// its RE2 form as it is (no byte that is not UTF-8 matters).
func (forTests) Transparent(re *Regexp) bool { return re.transparent }

// Backtrack drops re's RE2 form: its searches are the backtracking
// engine's.
func (forTests) Backtrack(re *Regexp) { re.re = nil }

// SetBudget sets the steps a backtracking search of re may take
// (default: btBudget).
func (forTests) SetBudget(re *Regexp, steps int) { re.budget = steps }

// SetLongSubject sets the length from which a subject is read through
// the context's reader, until restore. Tests that use it do not run in
// parallel.
func (forTests) SetLongSubject(n int) (restore func()) {
	saved := longSubject
	longSubject = n
	return func() { longSubject = saved }
}
