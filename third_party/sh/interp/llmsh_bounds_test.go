// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	. "github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// TestExportedUpToDate: the exported list a command gets, which
// Exported now brings up to date from the names the scopes logged
// (session 27: it was made anew after each change, 0.3-1.4 s a command
// with 300,000 exported variables), is the list made from scratch after
// every kind of change: exports, stores, unsets, export -n, locals and
// unsets in functions, a command's own assignments, more names at once
// than an update takes, and more changes than a scope's log keeps.
func TestExportedUpToDate(t *testing.T) {
	var checks, bad int
	var first string
	check := func(next ExecHandlerFunc) ExecHandlerFunc {
		return func(ctx context.Context, args []string) error {
			if args[0] != "chk" {
				return next(ctx, args)
			}
			hc := HandlerCtx(ctx)
			vals := map[string]string{}
			hc.Env.Each(func(name string, vr expand.Variable) bool {
				if vr.Exported && vr.IsSet() && vr.Kind == expand.String {
					vals[name] = vr.Str
				} else if !vr.Local || vr.IsSet() {
					// (a local with no value hides nothing of the
					// environment, as bash's invisible variables)
					delete(vals, name)
				}
				return true
			})
			var want []string
			for name, v := range vals {
				want = append(want, name+"="+v)
			}
			slices.Sort(want)
			got := hc.Exported()
			checks++
			if !slices.Equal(got, want) {
				bad++
				if first == "" {
					first = fmt.Sprintf("at %s: got %q\nwant %q", strings.Join(args[1:], " "), got, want)
				}
			}
			return nil
		}
	}
	r, err := New(StdIO(nil, nil, nil), ExecHandlers(check))
	if err != nil {
		t.Fatal(err)
	}
	script := `
for i in {1..300}; do export "e$i=$i"; done
chk start
export a=1; chk a; a=2; chk a2; export b=x c=y; chk bc
unset a; chk unset; export -n b; chk export-n; export b; chk b-again
f() { local c=local; chk local-shadow; local -x d=ld; chk local-x; c=inner; chk inner; export g=fromf; chk g; unset e1; chk unset-global; }
f; chk after-f
h() { local e2; chk local-unexported; e2=z; chk local-set; }
h; chk after-h
z=prefix chk prefix; chk after-prefix
k() { chk in-k; }; e3=tmp k; chk after-k
for i in {1..100}; do export "n$i=$i"; done; chk many
for i in {1..2000}; do export c=$i; done; chk long-log
for i in {1..50}; do e$i=v$i; chk "loop $i"; done
declare +x e60; chk declare+x; declare -x e60; chk declare-x
readonly ro=1; export ro; chk ro
( export sub=1; chk sub ); chk after-sub
`
	f, err := syntax.NewParser().Parse(strings.NewReader(script), "")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(context.Background(), f); err != nil {
		t.Fatal(err)
	}
	if checks < 70 || bad > 0 {
		t.Fatalf("%d of %d checks wrong (want at least 70 checks); first %s", bad, checks, first)
	}
}

// TestTextParserStops: the parse of a long text (eval's, source's, a
// nested shell's) ends once its run's context is done, with
// ErrTextStopped (session 27: `eval ": $x"` of a million words parsed on
// for 1.2 s past the time limit); a short text, or one whose
// context cannot end, parses whatever the context.
func TestTextParserStops(t *testing.T) {
	long := ": " + strings.Repeat("word ", 100_000)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := TextParser(ctx, long).Parse(strings.NewReader(long), ""); err != ErrTextStopped {
		t.Fatalf("long text, context done: %v", err)
	}
	if f, err := TextParser(context.WithoutCancel(ctx), long).Parse(strings.NewReader(long), ""); err != nil || len(f.Stmts) != 1 {
		t.Fatalf("long text, context that cannot end: %v", err)
	}
	if f, err := TextParser(ctx, "echo hi").Parse(strings.NewReader("echo hi"), ""); err != nil || len(f.Stmts) != 1 {
		t.Fatalf("short text, context done: %v", err)
	}
	if f, err := TextParser(context.Background(), long).Parse(strings.NewReader(long), ""); err != nil || len(f.Stmts) != 1 {
		t.Fatalf("long text, context live: %v", err)
	}
}
