package regexp2

// constError is an error made of a constant: a package variable of it
// needs no code at start-up, where errors.New's runs in the package's init.
type constError string

func (e constError) Error() string { return string(e) }
