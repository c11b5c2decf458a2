// Command load runs many llmsh sessions at once, each with its own vfsd,
// streaming its own input through vfsd, and checks them (see
// internal/loadtest). bench/load.sh builds llmsh and runs it.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/internal/loadtest"
)

func main() {
	llmsh := flag.String("llmsh", "", "the llmsh binary (required)")
	sessions := flag.Int("sessions", 50, "concurrent sessions")
	size := flag.String("size", "20M", "bytes of input per session (suffix K or M: powers of 1024)")
	dir := flag.String("dir", "", "work directory (default: a new temporary directory, removed at the end)")
	verbose := flag.Bool("v", false, "print progress")
	flag.Parse()
	if *llmsh == "" {
		fmt.Fprintln(os.Stderr, "load: -llmsh PATH is required")
		os.Exit(2)
	}
	n, err := parseSize(*size)
	if err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(2)
	}
	work := *dir
	if work == "" {
		if work, err = os.MkdirTemp("", "llmsh-load-"); err != nil {
			fmt.Fprintln(os.Stderr, "load:", err)
			os.Exit(1)
		}
		defer os.RemoveAll(work)
	}
	cfg := loadtest.Config{
		Sessions: *sessions,
		Size:     n,
		Dir:      work,
		Command:  func(args ...string) *exec.Cmd { c := exec.Command(*llmsh, args...); c.Env = []string{}; return c },
	}
	if *verbose {
		cfg.Log = os.Stderr
	}
	rep, err := loadtest.Run(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
	for _, f := range rep.Failures {
		fmt.Println("FAIL", f)
	}
	fmt.Printf("sessions ok: %d/%d\n", rep.OK, rep.Sessions)
	fmt.Printf("input per session: %d bytes; through vfsd in all: %.1f MB\n", n, float64(rep.Bytes)/1e6)
	fmt.Printf("wall time: %v (%.1f MB/s aggregate)\n", rep.Wall.Round(1e6), float64(rep.Bytes)/1e6/rep.Wall.Seconds())
	fmt.Printf("peak RSS: llmsh %.1f MiB, vfsd %.1f MiB (largest session)\n", float64(rep.MaxLlmshRSS)/1024, float64(rep.MaxVfsdRSS)/1024)
	fmt.Printf("descriptors per session: llmsh %d, vfsd %d (the same before and after the work)\n", rep.LlmshFds, rep.VfsdFds)
	if len(rep.Failures) > 0 {
		os.Exit(1)
	}
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("invalid size %q", s)
	}
	return n * mult, nil
}
