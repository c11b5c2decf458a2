// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp_test

import (
	"context"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// $_ starts as the shell as invoked, llmsh (bash: its argv[0]), for a
// script file as for -c; only the first program after Reset sets
// it, later ones see the last argument before them.
func TestLastArgAtStart(t *testing.T) {
	var out strings.Builder
	r, err := New(StdIO(nil, &out, &out))
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{`echo "[$_] [$0]"; echo x`, `echo "[$_]"`} {
		f, err := syntax.NewParser().Parse(strings.NewReader(src), "./s.sh")
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Run(context.Background(), f); err != nil {
			t.Fatal(err)
		}
	}
	if want := "[llmsh] [./s.sh]\nx\n[x]\n"; out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}
