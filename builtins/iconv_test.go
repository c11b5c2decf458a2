package builtins

import (
	"bytes"
	"context"
	"testing"
)

// TestIconvConversionStops: a conversion of the whole input in one call
// (a gigabyte made 4 GB of UTF-32) stops when the run's context ends, as
// a memory or time limit ends it; it ran on past the heap guard, and a
// library or serve run past its limit.
func TestIconvConversionStops(t *testing.T) {
	data := bytes.Repeat([]byte("a"), 1<<20)
	live := &iconvConv{ctx: context.Background(), src: iconvCharsetFor("ISO-8859-1"), dst: iconvCharsetFor("UTF-32")}
	out, msg := live.run(nil, data)
	if live.cancelled || msg != "" || len(out) != 4+4*len(data) {
		t.Fatalf("live conversion: cancelled %v, msg %q, %d bytes", live.cancelled, msg, len(out))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	stopped := &iconvConv{ctx: ctx, src: iconvCharsetFor("ISO-8859-1"), dst: iconvCharsetFor("UTF-32")}
	out, _ = stopped.run(nil, data)
	if !stopped.cancelled || len(out) > 4<<16 {
		t.Errorf("cancelled conversion: cancelled %v, %d bytes out", stopped.cancelled, len(out))
	}
}
