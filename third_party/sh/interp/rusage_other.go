// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

//go:build !unix

package interp

import "time"

// processTimes is zero where there is no getrusage.
func processTimes() (user, sys time.Duration) { return 0, 0 }
