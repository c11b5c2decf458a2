//go:build !linux

package repl

// quietTerminal is nil where llmsh does not turn a terminal's echo off:
// read -s at the prompt reads what the terminal echoes.
func quietTerminal(int) func() (restore func()) { return nil }
