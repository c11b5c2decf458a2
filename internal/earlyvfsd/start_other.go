//go:build !linux

package earlyvfsd

import "errors"

// start starts no vfsd early where it is not written for.
func start(argv []string) (*Proc, error) { return nil, errors.New("no early start here") }
