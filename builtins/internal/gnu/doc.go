// Package gnu holds the conventions that GNU's tools share and that every
// builtin follows the same way: gnulib's quoting styles (quotearg), the
// backslash escapes of echo, printf, stat and others, the numbers with
// multiplier suffixes (xstrtoumax), and the errors of a run that stops
// (write errors, cancellation, errno wording). It knows nothing of the
// builtins' Env; docs/architecture.md places it in the layers.
package gnu
