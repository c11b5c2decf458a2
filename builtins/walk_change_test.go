package builtins_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// TestWalksTreeChanging: find, ls -R, grep -r, du and tar c over a tree
// whose directories gain and lose files and subdirectories while they
// walk it (listings of names and types, batched reads): each lists the
// files that stay, once, in the order a walk of the still tree gives
// them, and complains, if at all, only of the entries that change (one
// gone between the listing and its reading, a file rewritten while tar
// reads it: GNU's messages).
func TestWalksTreeChanging(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i := range 8 {
		for j := range 20 {
			p := filepath.Join(dir, "t", fmt.Sprintf("d%d", i), fmt.Sprintf("f%02d", j))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("needle\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	fsys := clientFS{vfstest.Session(t, vfsd.Config{Outputs: []string{dir}, Dir: dir})}
	// The lines of the files that stay (a directory's line changes with
	// what comes and goes in it: ls -l's total, du's sum).
	fileLine := regexp.MustCompile(`(^|[/ ])f[0-9][0-9](:1)?$`)
	stayed := func(out string) string {
		var keep []string
		for _, l := range strings.Split(out, "\n") {
			if fileLine.MatchString(l) {
				// ls -l pads its columns to what else is listed.
				keep = append(keep, strings.Join(strings.Fields(l), " "))
			}
		}
		return strings.Join(keep, "\n")
	}
	cmds := [][]string{
		{"find", "t"}, {"find", "t", "-type", "f"}, {"find", "t", "-size", "-2k"}, {"ls", "-R", "t"}, {"ls", "-lR", "t"},
		{"grep", "-rc", "needle", "t"}, {"du", "-a", "--apparent-size", "-b", "t"}, {"tar", "cvf", "out.tar", "t"},
	}
	want := make([]string, len(cmds))
	for i, args := range cmds {
		r := runCmdFS(t, fsys, dir, args...)
		if r.status != 0 || r.stderr != "" {
			t.Fatalf("%v on a still tree: %+v", args, r)
		}
		want[i] = stayed(r.stdout)
	}

	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for n := 0; ; n++ {
			select {
			case <-stop:
				return
			default:
			}
			d := filepath.Join(dir, "t", fmt.Sprintf("d%d", n%8))
			f, sub := filepath.Join(d, fmt.Sprintf("churn%d", n%5)), filepath.Join(d, fmt.Sprintf("churndir%d", n%3))
			if n%2 == 0 {
				os.WriteFile(f, []byte("needle\n"), 0o644)
				os.Mkdir(sub, 0o755)
			} else {
				os.Remove(f)
				os.Remove(sub)
			}
		}
	}()
	defer func() { close(stop); wg.Wait() }()
	for round := range 5 {
		for i, args := range cmds {
			r := runCmdFS(t, fsys, dir, args...)
			if got := stayed(r.stdout); got != want[i] {
				t.Fatalf("round %d: %v: the files that stay differ:\n%s\nwant\n%s", round, args, got, want[i])
			}
			for _, l := range strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n") {
				if l != "" && !strings.Contains(l, "churn") && l != "tar: Exiting with failure status due to previous errors" {
					t.Fatalf("round %d: %v: %q", round, args, l)
				}
			}
		}
	}
}
