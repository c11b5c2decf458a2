// Copyright 2025 The Go MCP SDK Authors. All rights reserved.
// Use of this source code is governed by the license
// that can be found in the LICENSE file.

// Package mcpgodebug provides a mechanism to configure compatibility parameters
// via the MCPGODEBUG environment variable.
//
// The value of MCPGODEBUG is a comma-separated list of key=value pairs.
// For example:
//
//	MCPGODEBUG=someoption=1,otheroption=value
package mcpgodebug

import (
	"fmt"
	"os"
	"strings"
	"sync"
)

const compatibilityEnvKey = "MCPGODEBUG"

var (
	compatibilityParams map[string]string
	compatibilityOnce   sync.Once
)

// Value returns the value of the compatibility parameter with the given key.
// It returns an empty string if the key is not set. MCPGODEBUG is read the
// first time a parameter is asked for, not in package init, where every
// start of llmsh and of its vfsd read it, and a malformed value made each
// of them panic; a malformed value now sets nothing.
func Value(key string) string {
	compatibilityOnce.Do(func() {
		compatibilityParams, _ = parseCompatibility(os.Getenv(compatibilityEnvKey))
	})
	return compatibilityParams[key]
}

func parseCompatibility(envValue string) (map[string]string, error) {
	if envValue == "" {
		return nil, nil
	}

	params := make(map[string]string)
	for part := range strings.SplitSeq(envValue, ",") {
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			return nil, fmt.Errorf("MCPGODEBUG: invalid format: %q", part)
		}
		params[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return params, nil
}
