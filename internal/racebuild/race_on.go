//go:build race

// Package racebuild tells whether the binary is built with -race. It
// imports nothing: a package whose files differ under -race is vetted and
// checked by .ci/run in the static build as well, with all its
// dependencies (internal/earlyvfsd's own race files cost 9 s of CPU).
package racebuild

// Enabled is true in a race build.
const Enabled = true
