// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp_test

import (
	"context"
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"

	. "github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// TestVarsNow: a Run no longer copies every variable into Vars at its end
// (session 26, red team: with 300,000 variables each statement of a
// session spent 0.17 s of CPU on it, which no context could stop); VarsNow
// gives the variables as they stand, none before the first Run.
func TestVarsNow(t *testing.T) {
	r, err := New(StdIO(nil, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(r.VarsNow()); n != 0 {
		t.Errorf("%d variables before the first Run", n)
	}
	f, err := syntax.NewParser().Parse(strings.NewReader("x=1; f() { local y=2; }; f; declare -a a=(3)"), "")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(context.Background(), f); err != nil {
		t.Fatal(err)
	}
	vars := r.VarsNow()
	if len(r.Vars) != 0 || vars["x"].Str != "1" || vars["y"].IsSet() || len(vars["a"].List) != 1 {
		t.Errorf("Vars has %d, VarsNow x=%+v y=%+v a=%+v", len(r.Vars), vars["x"], vars["y"], vars["a"])
	}
}

// TestTrackSetsFirstRun: TrackSets called before a Runner's first Run
// records what that Run stores (session 32: the Reset of the first Run
// dropped the record, so the llmsh command's script, its session's one
// Run, had nothing unset when it ended over its memory bound), not a
// function's locals nor what Reset stores; DropBuffers keeps the
// variables.
func TestTrackSetsFirstRun(t *testing.T) {
	r, err := New(StdIO(nil, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	r.TrackSets(true)
	f, err := syntax.NewParser().Parse(strings.NewReader("x=1; f() { local y=2; }; f; z=$x$x"), "")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(context.Background(), f); err != nil {
		t.Fatal(err)
	}
	r.DropBuffers()
	got := r.TrackedSets()
	slices.Sort(got)
	got = slices.DeleteFunc(got, func(n string) bool { return n == "PIPESTATUS" || n == "_" }) // the Run's too
	if !slices.Equal(got, []string{"x", "z"}) {
		t.Errorf("TrackedSets = %q, want x and z (not y, a local, nor what Reset stores: UID, PWD, IFS…)", got)
	}
	if vars := r.VarsNow(); vars["z"].Str != "11" {
		t.Errorf("z = %+v after DropBuffers", vars["z"])
	}
}

// TestTrackSetsLastArg: $_, the last argument a Run left, is among what
// TrackedSets names, and UnsetGlobal lets go of it (session 32: a value
// of up to the bound on one stayed alive in it after the session unset
// every variable a run over its memory bound had stored);
// BASH_EXECUTION_STRING, which the embedder sets, is not.
func TestTrackSetsLastArg(t *testing.T) {
	var out strings.Builder
	r, err := New(StdIO(nil, &out, nil))
	if err != nil {
		t.Fatal(err)
	}
	r.TrackSets(true)
	r.SetExecutionString(": big")
	f, err := syntax.NewParser().Parse(strings.NewReader(": big"), "")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(context.Background(), f); err != nil {
		t.Fatal(err)
	}
	if got := r.TrackedSets(); !slices.Contains(got, "_") || slices.Contains(got, "BASH_EXECUTION_STRING") {
		t.Errorf("TrackedSets = %q, want _ and not BASH_EXECUTION_STRING", got)
	}
	r.UnsetGlobal("_")
	f, _ = syntax.NewParser().Parse(strings.NewReader(`echo "[$_]"`), "")
	r.TrackSets(false)
	if err := r.Run(context.Background(), f); err != nil || out.String() != "[]\n" {
		t.Errorf("$_ after UnsetGlobal: %q, %v", out.String(), err)
	}
}

// TestUnsetGlobalFrees: what UnsetGlobal unsets is freed, whatever
// stored it (session 32: a value stored by declare c$i=$big, export
// c$i=$big or declare -g in a function stayed alive after the session
// unset it, the name having been cut from the word's expansion, whose
// text is the value's: under --max-memory 64M, 75 MB stayed of a run
// over it, and every later run was stopped).
func TestUnsetGlobalFrees(t *testing.T) {
	var stderr strings.Builder
	r, err := New(StdIO(nil, nil, &stderr))
	if err != nil {
		t.Fatal(err)
	}
	const size = 1 << 20 // each value's: a is doubled 20 times
	script := fmt.Sprintf(`a=x; for ((i = 0; i < %d; i++)); do a=$a$a; done
for i in 1 2 3; do declare d$i=${a}$i; export e$i=${a}$i; g() { declare -g g$i=${a}$i; }; g; done
unset a`, bits.Len(size)-1)
	f, err := syntax.NewParser().Parse(strings.NewReader(script), "")
	if err != nil {
		t.Fatal(err)
	}
	before := uint64(0)
	grown := func() uint64 { // the heap's growth since before
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc - min(m.HeapAlloc, before)
	}
	// A first Run makes what every Run keeps (its Reset's variables).
	warm, _ := syntax.NewParser().Parse(strings.NewReader(":"), "")
	if err := r.Run(context.Background(), warm); err != nil {
		t.Fatal(err)
	}
	before = grown()
	r.TrackSets(true)
	if err := r.Run(context.Background(), f); err != nil {
		t.Fatal(err)
	}
	if stderr.Len() != 0 {
		t.Fatalf("stderr: %s", stderr.String())
	}
	names := r.TrackedSets()
	for _, want := range []string{"d3", "e3", "g3"} {
		if !slices.Contains(names, want) {
			t.Fatalf("TrackedSets = %q, want %s among them", names, want)
		}
	}
	if kept := grown(); kept < 8*size {
		t.Fatalf("the Run kept %d bytes, want its 9 values of %d", kept, size)
	}
	for _, name := range names {
		r.UnsetGlobal(name)
	}
	r.TrackSets(false)
	r.DropBuffers()
	if kept := grown(); kept > 3*size {
		t.Errorf("%d bytes stayed after UnsetGlobal of %q, want under %d", kept, names, 3*size)
	}
}

// TestRematchApart: a group of [[ =~ ]] that is less than half of a long
// subject is a copy in BASH_REMATCH, not a piece of the subject's
// storage, which x=${BASH_REMATCH[1]} kept alive after unset a (session
// 32: 7 MB a session's unset could not free).
func TestRematchApart(t *testing.T) {
	r, err := New(StdIO(nil, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	f, err := syntax.NewParser().Parse(strings.NewReader("a=x; for i in {1..12}; do a=$a$a; done; a=${a}yz; [[ $a =~ ^(x*)(y)z$ ]]"), "")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(context.Background(), f); err != nil {
		t.Fatal(err)
	}
	vars := r.VarsNow()
	src, groups := vars["a"].Str, vars["BASH_REMATCH"].List
	start := uintptr(unsafe.Pointer(unsafe.StringData(src)))
	if len(groups) != 3 || groups[2] != "y" || len(groups[1]) != 4096 {
		t.Fatalf("BASH_REMATCH = %.20q", groups)
	}
	if p := uintptr(unsafe.Pointer(unsafe.StringData(groups[2]))); p >= start && p < start+uintptr(len(src)) {
		t.Errorf("BASH_REMATCH[2] is a piece of a's storage")
	}
}
