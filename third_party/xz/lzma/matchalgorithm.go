// Copyright 2014-2022 Ulrich Kunitz. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lzma

// MatchAlgorithm identifies an algorithm to find matches in the
// dictionary.
type MatchAlgorithm byte

// Supported matcher algorithms.
const (
	HashTable4 MatchAlgorithm = iota
	BinaryTree
)

// maString is the name of a, "" if it names no algorithm (a switch: a
// map of the names was made in package init, at every start of llmsh).
func maString(a MatchAlgorithm) string {
	switch a {
	case HashTable4:
		return "HashTable4"
	case BinaryTree:
		return "BinaryTree"
	}
	return ""
}

// String returns a string representation of the Matcher.
func (a MatchAlgorithm) String() string {
	if s := maString(a); s != "" {
		return s
	}
	return "unknown"
}

var errUnsupportedMatchAlgorithm error = constError(
	"lzma: unsupported match algorithm value")

// verify checks whether the matcher value is supported.
func (a MatchAlgorithm) verify() error {
	if maString(a) == "" {
		return errUnsupportedMatchAlgorithm
	}
	return nil
}

func (a MatchAlgorithm) new(dictCap int) (m matcher, err error) {
	switch a {
	case HashTable4:
		return newHashTable(dictCap, 4)
	case BinaryTree:
		return newBinTree(dictCap)
	}
	return nil, errUnsupportedMatchAlgorithm
}
