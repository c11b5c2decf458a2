package builtins_test

import (
	"context"
	"io"
	"testing"
	"time"
)

// Expected values checked against GNU seq 9.1 (LC_ALL=C).
func TestSeq(t *testing.T) {
	t.Parallel()
	runLines(t, []linesCase{
		{nil, []string{"seq", "5"}, "", "1\n2\n3\n4\n5\n", "", 0},
		{nil, []string{"seq", "-0", "2"}, "", "-0\n1\n2\n", "", 0},
		{nil, []string{"seq", "-w", "-0", "2"}, "", "-0\n01\n02\n", "", 0},
		{nil, []string{"seq", "10", "-1", "8.5"}, "", "10\n9\n", "", 0},
		{nil, []string{"seq", "0", "0.000001", "0.000003"}, "", "0.000000\n0.000001\n0.000002\n0.000003\n", "", 0},
		{nil, []string{"seq", "3", "1"}, "", "", "", 0},
		{nil, []string{"seq", "2", "5"}, "", "2\n3\n4\n5\n", "", 0},
		{nil, []string{"seq", "1", "2", "9"}, "", "1\n3\n5\n7\n9\n", "", 0},
		{nil, []string{"seq", "10", "-3", "1"}, "", "10\n7\n4\n1\n", "", 0},
		{nil, []string{"seq", "--", "-1", "1"}, "", "-1\n0\n1\n", "", 0},
		{nil, []string{"seq", "-3", "-1"}, "", "-3\n-2\n-1\n", "", 0},
		{nil, []string{"seq", "-s,", "3"}, "", "1,2,3\n", "", 0},
		{nil, []string{"seq", "-s", "3"}, "", "", "seq: missing operand\nTry 'seq --help' for more information.\n", 1},
		{nil, []string{"seq", "-w", "8", "10"}, "", "08\n09\n10\n", "", 0},
		{nil, []string{"seq", "-w", "-5", "2", "5"}, "", "-5\n-3\n-1\n01\n03\n05\n", "", 0},
		{nil, []string{"seq", "-w", "1", "0.5", "3"}, "", "1.0\n1.5\n2.0\n2.5\n3.0\n", "", 0},
		{nil, []string{"seq", "0", "0.1", "1"}, "", "0.0\n0.1\n0.2\n0.3\n0.4\n0.5\n0.6\n0.7\n0.8\n0.9\n1.0\n", "", 0},
		{nil, []string{"seq", "1e3", "1e3"}, "", "1000\n", "", 0},
		{nil, []string{"seq", "0.1", "1e-1", "0.3"}, "", "0.1\n0.2\n0.3\n", "", 0},
		{nil, []string{"seq", "1.5e6", "1e6", "3e6"}, "", "1500000\n2500000\n", "", 0},
		{nil, []string{"seq", "1e20", "1e20"}, "", "100000000000000000000\n", "", 0},
		{nil, []string{"seq", "0.000001", "0.000001"}, "", "0.000001\n", "", 0},
		{nil, []string{"seq", "1", "1.0e1", "20"}, "", "1\n11\n", "", 0},
		{nil, []string{"seq", "-f", "%05.1f", "1", "3"}, "", "001.0\n002.0\n003.0\n", "", 0},
		{nil, []string{"seq", "-f", "%+e", "1", "1"}, "", "+1.000000e+00\n", "", 0},
		{nil, []string{"seq", "-f", "%g", "1", "0.25", "2"}, "", "1\n1.25\n1.5\n1.75\n2\n", "", 0},
		{nil, []string{"seq", "-f", "x%.3gy", "1000000", "1000001"}, "", "x1e+06y\nx1e+06y\n", "", 0},
		{nil, []string{"seq", "-f", "%-6.2f|", "1", "2"}, "", "1.00  |\n2.00  |\n", "", 0},
		{nil, []string{"seq", "-f", "%E", "123456789", "123456789"}, "", "1.234568E+08\n", "", 0},
		{nil, []string{"seq", "-f", "x", "1", "2"}, "", "", "seq: format 'x' has no % directive\n", 1},
		{nil, []string{"seq", "-f", "%d", "1", "2"}, "", "", "seq: format '%d' has unknown %d directive\n", 1},
		{nil, []string{"seq", "-f", "%g%g", "1", "2"}, "", "", "seq: format '%g%g' has too many % directives\n", 1},
		{nil, []string{"seq", "1", "0", "3"}, "", "", "seq: invalid Zero increment value: '0'\nTry 'seq --help' for more information.\n", 1},
		{nil, []string{"seq", "x"}, "", "", "seq: invalid floating point argument: 'x'\nTry 'seq --help' for more information.\n", 1},
		{nil, []string{"seq", "nan"}, "", "", "seq: invalid 'not-a-number' argument: 'nan'\nTry 'seq --help' for more information.\n", 1},
		{nil, []string{"seq"}, "", "", "seq: missing operand\nTry 'seq --help' for more information.\n", 1},
		{nil, []string{"seq", "1", "2", "3", "4"}, "", "", "seq: extra operand '4'\nTry 'seq --help' for more information.\n", 1},
		{nil, []string{"seq", "1", "inf", "1"}, "", "1\n", "", 0},
		{nil, []string{"seq", "5", "1"}, "", "", "", 0},
		{nil, []string{"seq", "-w", "-f", "%g", "1", "2"}, "", "", "seq: format string may not be specified when printing equal width strings\nTry 'seq --help' for more information.\n", 1},
		{nil, []string{"seq", "1.0", "3"}, "", "1.0\n2.0\n3.0\n", "", 0},
		{nil, []string{"seq", "1", ".5", "2"}, "", "1.0\n1.5\n2.0\n", "", 0},
		{nil, []string{"seq", "2", "-0.5", "1"}, "", "2.0\n1.5\n1.0\n", "", 0},
		{nil, []string{"seq", "-s", ":", "-w", "9", "11"}, "", "09:10:11\n", "", 0},
		{nil, []string{"seq", "100000000000000000000", "100000000000000000002"}, "", "100000000000000000000\n100000000000000000001\n100000000000000000002\n", "", 0},
		{nil, []string{"seq", "-f", "%%%g%%", "1", "1"}, "", "%1%\n", "", 0},
		{nil, []string{"seq", "-w", "0.5", "3"}, "", "0.5\n1.5\n2.5\n", "", 0},
		{nil, []string{"seq", "-f", "%#.0f", "1", "2"}, "", "1.\n2.\n", "", 0},
		{nil, []string{"seq", "-f", "%#g", "1", "1"}, "", "1.00000\n", "", 0},
		{nil, []string{"seq", "0x10", "0x11"}, "", "16\n17\n", "", 0},
		{nil, []string{"seq", "-.5", ".5"}, "", "-0.5\n0.5\n", "", 0},
	})
}

// TestSeqStreams checks that "seq 1 1e12" streams (stops at a closed pipe)
// and stops when the script is cancelled.
func TestSeqStreams(t *testing.T) {
	t.Parallel()
	w := &limitWriter{limit: 20}
	if st, stderr := runLinesEnv(context.Background(), "", w, "seq", "1", "1e12"); st != 1 || stderr != "" || w.buf.String() != "1\n2\n3\n4\n5\n6\n7\n8\n9\n10" {
		t.Errorf("seq 1 1e12 on a closed pipe: status %d, stderr %q, out %q", st, stderr, w.buf.String())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	done := make(chan int)
	go func() {
		st, _ := runLinesEnv(ctx, "", io.Discard, "seq", "1", "1e12")
		done <- st
	}()
	select {
	case st := <-done:
		if st != 1 {
			t.Errorf("cancelled seq: status %d, want 1", st)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("seq did not stop when cancelled")
	}
}
