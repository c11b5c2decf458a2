package json

import (
	"fmt"
	"testing"
)

// TestMaxDepthMessage: errMaxDepthExceeded, a constant, names
// defaultMaxDepth as the fmt.Errorf it replaces did.
func TestMaxDepthMessage(t *testing.T) {
	if got, want := errMaxDepthExceeded.Error(), fmt.Sprintf("json: exceeded maximum nesting depth of %d", defaultMaxDepth); got != want {
		t.Errorf("errMaxDepthExceeded = %q, want %q", got, want)
	}
}
