// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

//go:build !linux

package interp

import (
	"os"
	"time"
)

// inputReady reports whether a read of f would not block, for read -t 0;
// outside Linux llmsh cannot ask without reading, and says yes.
func inputReady(f *os.File) bool { return true }

// inputWait says yes at once outside Linux: read -t then waits for input
// on a descriptor that takes no deadline.
func inputWait(f *os.File, d time.Duration) bool { return true }
