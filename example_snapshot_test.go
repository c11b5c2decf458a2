package llmsh_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/llmsh/llmsh"
)

// A session's state, saved to one file and resumed in a new session (of
// this process or another machine's).
func ExampleSession_Snapshot() {
	ctx := context.Background()
	s, err := llmsh.New(llmsh.Options{Dir: "/"})
	if err != nil {
		log.Fatal(err)
	}
	s.Run(ctx, `declare -A seen=([apple]=2); add() { seen[$1]=$(( ${seen[$1]:-0} + 1 )); }; mkdir -p /work; cd /work; echo draft > notes.txt`, nil)
	snap, err := s.Snapshot(ctx)
	s.Close()
	if err != nil {
		log.Fatal(err)
	}

	r, err := llmsh.New(llmsh.Options{Dir: "/"})
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	if err := r.Restore(ctx, snap); err != nil {
		log.Fatal(err)
	}
	res, _ := r.Run(ctx, `add apple; add fig; echo "$PWD apple=${seen[apple]} fig=${seen[fig]}"; cat notes.txt`, nil)
	fmt.Print(res.Stdout)
	// Output:
	// /work apple=3 fig=1
	// draft
}

// Output while the script runs, as it is written.
func ExampleSession_RunStream() {
	s, err := llmsh.New(llmsh.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	res, _ := s.RunStream(context.Background(), `echo working; echo oops >&2; exit 3`, nil, os.Stdout, os.Stdout)
	fmt.Println("exit code:", res.ExitCode)
	// Output:
	// working
	// oops
	// exit code: 3
}
