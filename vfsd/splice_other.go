//go:build !linux

package vfsd

import "io"

// Without splice(2), read_bulk always reads through memory.

type bulkPipe struct{}

type splicer struct{}

func newSplicer(w io.Writer) *splicer { return &splicer{} }

func (sp *splicer) fill(f file, max int) (p *bulkPipe, n int, end, ok bool, err error) {
	return nil, 0, false, false, nil
}

func (sp *splicer) put(p *bulkPipe, clean bool) {}

func (sp *splicer) drain(p *bulkPipe, n int) error { return nil }

func (sp *splicer) close() {}
