// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp_test

import (
	"context"
	"runtime"
	"slices"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// heldRunner is a runner whose every command asks for the exported
// variables, as llmsh's exec handler does, and says its arguments; run
// runs a script on it and grown is the heap's growth since the first.
func heldRunner(t *testing.T) (run func(string) string, grown func() uint64) {
	t.Helper()
	var out strings.Builder
	r, err := New(StdIO(nil, &out, &out), ExecHandlers(func(next ExecHandlerFunc) ExecHandlerFunc {
		return func(ctx context.Context, args []string) error {
			_ = HandlerCtx(ctx).Exported()
			return nil
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	run = func(src string) string {
		t.Helper()
		out.Reset()
		f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
		if err != nil {
			t.Fatal(err)
		}
		r.Run(context.Background(), f)
		r.DropBuffers() // as a session between Runs
		return out.String()
	}
	run("cmd")
	base := uint64(0)
	grown = func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc - min(m.HeapAlloc, base)
	}
	base = grown()
	t.Cleanup(func() { runtime.KeepAlive(r) })
	return run, grown
}

// bigValue is a script that makes $a 4 MiB, by doubling.
const bigValue = "a=x; for i in {1..22}; do a=$a$a; done; "

// TestExportedCopyFreed: the exported list a command got holds a copy of
// each exported value; once the variable is unset, that copy goes at the
// end of the Run (session 33: it stayed until the next command asked for
// the list, which a session's last Run never does: 48 MB of a 50 MB value
// after `unset big`). So does the list that a function's exported local
// made, with the function's scope.
func TestExportedCopyFreed(t *testing.T) {
	const size = 4 << 20
	run, grown := heldRunner(t)
	run(bigValue + "export a; cmd")
	if kept := grown(); kept < 3*size/2 {
		t.Fatalf("kept %d bytes, want the value and its copy", kept)
	}
	run("unset a")
	if kept := grown(); kept > size/2 {
		t.Errorf("%d bytes stayed after unset a", kept)
	}
	run, grown = heldRunner(t)
	run(bigValue + "f() { local -x b=$a$a; cmd; }; f")
	if kept := grown(); kept > 3*size/2 {
		t.Errorf("%d bytes stayed after the function, want only a", kept)
	}
}

// TestShiftFrees: shift lets go of the parameters it drops (session 33:
// Params[n:] kept them alive in the front of the array, so `shift $#`
// freed nothing and `set -- "$big" x; shift` kept big), while a for loop
// over "$@" that shifts still walks the parameters it began with.
func TestShiftFrees(t *testing.T) {
	const size = 4 << 20
	for _, src := range []string{
		`shift $#`, `shift`, `shift 2`,
	} {
		run, grown := heldRunner(t)
		run(bigValue + `set -- "$a" "$a"y x; unset a`)
		if kept := grown(); kept < 3*size/2 {
			t.Fatalf("kept %d bytes, want two values", kept)
		}
		run(src)
		want := uint64(size + size/2)
		if src == "shift 2" || src == "shift $#" {
			want = size / 2
		}
		if kept := grown(); kept > want {
			t.Errorf("%s: %d bytes stayed", src, kept)
		}
	}
	run, _ := heldRunner(t)
	if got := run(`set -- a b c; for i; do shift; echo $i $#; done`); got != "a 2\nb 1\nc 0\n" {
		t.Errorf("for over shifted parameters: %q", got)
	}
}

// TestTrackedParams: TrackedSets names "@" when the Run set the positional
// parameters (not when only a function's were), and UnsetGlobal("@")
// clears them.
func TestTrackedParams(t *testing.T) {
	var out strings.Builder
	r, err := New(StdIO(nil, &out, &out))
	if err != nil {
		t.Fatal(err)
	}
	run := func(src string) {
		t.Helper()
		f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
		if err != nil {
			t.Fatal(err)
		}
		r.Run(context.Background(), f)
	}
	run(":")
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"set -- a b", true},
		{"f() { set -- x; shift; }; f 1 2", false},
		{"shift", true},
		{"v=1", false},
	} {
		r.TrackSets(true)
		run(c.src)
		if got := slices.Contains(r.TrackedSets(), "@"); got != c.want {
			t.Errorf("%s: @ tracked %v, want %v", c.src, got, c.want)
		}
		r.TrackSets(false)
	}
	r.TrackSets(true)
	run("set -- a b")
	r.UnsetGlobal("@")
	r.TrackSets(false)
	out.Reset()
	run(`echo $#`)
	if out.String() != "0\n" {
		t.Errorf("after UnsetGlobal(@): $# = %q", out.String())
	}
}
