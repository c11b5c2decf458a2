package llmsh_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/llmsh/llmsh"
)

// A session keeps its shell state and its virtual files between runs.
func ExampleNew() {
	// No grants: the script can read nothing of the host, and its
	// writes are virtual files, kept by vfsd until Close.
	s, err := llmsh.New(llmsh.Options{Dir: "/"})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	s.Run(ctx, `greeting=hello; echo "$greeting" > note.txt`, nil)
	res, _ := s.Run(ctx, `echo "$greeting from $PWD"; cat note.txt`, nil)
	fmt.Print(res.Stdout)
	fmt.Println(res.VirtualFiles)
	// Output:
	// hello from /
	// hello
	// [/note.txt]
}

// Run a pipeline over a granted directory, with standard input.
func ExampleSession_Run() {
	dir, _ := os.MkdirTemp("", "llmsh-example")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "words.txt"), []byte("pear\napple\nfig\napple\n"), 0o644)

	s, err := llmsh.New(llmsh.Options{Inputs: []string{dir}, Dir: dir})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	res, err := s.Run(context.Background(), `sort words.txt | uniq -c | awk '{print $2, $1}'; tr a-z A-Z; ls /etc`, strings.NewReader("from stdin\n"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Stdout)
	fmt.Print(res.Stderr)
	fmt.Println("exit code:", res.ExitCode)
	// Output:
	// apple 2
	// fig 1
	// pear 1
	// FROM STDIN
	// ls: cannot access '/etc': No such file or directory
	// exit code: 2
}
