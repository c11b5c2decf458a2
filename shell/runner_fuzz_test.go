package shell_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmsh/llmsh/internal/treesnap"
	. "github.com/llmsh/llmsh/shell"
	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// fuzzMarker is the content of the file outside the grants and the value
// of a host environment variable: neither may ever reach a script's output.
const fuzzMarker = "FUZZ-SECRET-7f3a9c"

// fuzzRunTimeout bounds one fuzzed script; fuzzHang is how long after that
// a run that has not returned counts as hung (a hang detector, not a speed
// check: a run stops within milliseconds of its context's end).
const (
	fuzzRunTimeout = 300 * time.Millisecond
	fuzzHang       = 30 * time.Second
)

// scanWriter is a script's stdout or stderr: it keeps the first bytes for
// the failure message, drops the rest, and records whether the marker
// ever went through it (also across two writes).
type scanWriter struct {
	mu   sync.Mutex
	head bytes.Buffer
	tail []byte
	seen bool
}

func (w *scanWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.head.Len() < 4096 {
		w.head.Write(p[:min(len(p), 4096-w.head.Len())])
	}
	buf := append(w.tail, p...)
	if bytes.Contains(buf, []byte(fuzzMarker)) {
		w.seen = true
	}
	w.tail = append(w.tail[:0], buf[max(0, len(buf)-len(fuzzMarker)+1):]...)
	return len(p), nil
}

func (w *scanWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.head.String()
}

// FuzzRunner runs fuzzed scripts under small limits and a short deadline,
// in a working directory whose in/ is granted read-only and out/
// read-write, beside a secret directory that is not granted (reachable by
// "..", by its absolute path and through symbolic links in both trees) and
// an executable file a host exec would run. Whatever the script: no panic
// escapes (a builtin's recovered panic, "internal error", fails too), the
// secret's content and the host environment's canary never appear in the
// output, nothing outside out/ changes on disk (so no host program ran
// either), and the run returns once its context ends.
func FuzzRunner(f *testing.F) {
	f.Setenv("LLMSH_FUZZ_CANARY", fuzzMarker)
	for _, s := range []string{
		"echo hello; cat in/a.txt | wc -l",
		"cat ../secret/s.txt; cat $PWD/../secret/s.txt",
		"cat in/link/s.txt; cat in/abs; cat out/up/secret/s.txt",
		"cd ..; cat secret/s.txt; ls; cd /; ls -R / | head",
		"for f in ../*/* /*/*; do echo $f; done",
		"env; set; declare -p; export -p; echo $LLMSH_FUZZ_CANARY ~ ~root",
		"printenv LLMSH_FUZZ_CANARY; env | grep -i fuzz",
		"./evil.sh; sh evil.sh; ../evil.sh; exec ./evil.sh; command ./evil.sh",
		"source ../secret/s.txt; . in/link/s.txt",
		"eval 'cat ../secret/s.txt'; bash -c 'cat ../secret/s.txt'",
		"find .. -name s.txt -exec cat {} \\;",
		"echo ../secret/s.txt | xargs cat",
		"awk 'BEGIN{system(\"cat ../secret/s.txt\")}'; awk '{print}' ../secret/s.txt",
		"sed e in/a.txt; sed -n 'w out/w' in/a.txt; sed 'r ../secret/s.txt' in/a.txt",
		"cat <(cat ../secret/s.txt); diff <(echo a) <(echo b)",
		"while true; do :; done",
		":(){ :|:& };:",
		"f(){ f; }; f",
		"x=$(yes); echo ${#x}",
		"yes | head -c 100000 | wc -c",
		"printf '%*s' 2000000000 x | wc -c",
		"seq 1 1e12 | tail -1",
		"echo {1..100000000} | wc -c",
		"sleep 100 & sleep 100; wait",
		"echo data > /tmp/v; cat /tmp/v; echo more >> out/new.txt; cat out/new.txt",
		"cp ../secret/s.txt out/; mv out/o.txt ../secret/; rm ../secret/s.txt; ln -s ../secret out/l",
		"cat > out/up/secret/s.txt <<EOF\nx\nEOF\n",
		"mkdir ../secret/d; touch ../secret/t; chmod 777 ../secret/s.txt",
		"tar cf - .. | tar tf -; head -c 100 /proc/self/environ; cat /dev/zero | head -c 10 | od -c",
		"read -r line < ../secret/s.txt; echo $line; mapfile -t a < in/link/s.txt; echo ${a[@]}",
		"test -r ../secret/s.txt && echo readable; [ -e ../secret ] && echo exists; stat ../secret/s.txt",
		"jq -n 'input' ../secret/s.txt; grep -r FUZZ ..; sort ../secret/s.txt in/a.txt",
		"case $(cat in/a.txt) in a*) echo A;; *) echo B;; esac; arr=(1 2 3); echo ${arr[@]:1}",
		"trap 'echo bye' EXIT; set -e; false; echo unreachable",
		"exec > out/redir; echo hi; exec 3< ../secret/s.txt; cat <&3",
		"exec 3<../secret/s.txt; read -u 3 x; echo $x; exec 4<in/link/s.txt; mapfile -u 4 a; echo ${a[@]}; cat /dev/fd/4 <&4",
		"exec {f}>out/x 5>&1 6<&0 7<>../secret/s.txt; echo hi >&$f >/dev/fd/7; ( exec 5>&-; echo >&5 ) | cat; exec 8>&7- {f}>&-; cat <&8",
		"timeout 1 sleep 5; echo $?",
		"",
		"((",
		"$(",
		"'",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		root := t.TempDir()
		work := filepath.Join(root, "work")
		out := filepath.Join(work, "out")
		for name, body := range map[string]string{
			"secret/s.txt":      fuzzMarker + "\n",
			"work/in/a.txt":     "alpha\nbeta\n",
			"work/in/sub/b.txt": "b\n",
			"work/out/o.txt":    "o\n",
		} {
			p := filepath.Join(root, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		// An executable a host exec would run: it would leave a file
		// outside out/.
		for _, p := range []string{filepath.Join(work, "evil.sh"), filepath.Join(root, "evil.sh")} {
			if err := os.WriteFile(p, []byte("#!/bin/sh\necho ran > "+filepath.Join(root, "ran")+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for name, target := range map[string]string{
			"work/in/link": "../../secret",
			"work/in/abs":  filepath.Join(root, "secret", "s.txt"),
			"work/out/up":  "../..",
			"work/out/sec": filepath.Join(root, "secret"),
		} {
			if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
				t.Fatal(err)
			}
		}
		before, err := treesnap.Take(root, out)
		if err != nil {
			t.Fatal(err)
		}

		c := vfstest.Session(t, vfsd.Config{
			Inputs:          []string{filepath.Join(work, "in")},
			Outputs:         []string{out},
			Dir:             work,
			MaxVirtualBytes: 1 << 16,
		})
		var stdout, stderr scanWriter
		sh, err := New(Options{
			Client: c,
			Stdin:  strings.NewReader("line one\nline two\n"),
			Stdout: &stdout,
			Stderr: &stderr,
			Dir:    work,
			Limits: Limits{MaxCommands: 5000, MaxGoFrames: 3000, MaxScriptSize: 1 << 12, MaxNesting: 64, MaxGoroutines: 1000},
		})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), fuzzRunTimeout)
		defer cancel()
		done := make(chan int, 1)
		go func() { done <- sh.Run(ctx, script, "llmsh") }()
		select {
		case <-done:
		case <-time.After(fuzzRunTimeout + fuzzHang):
			t.Fatalf("%q: the run did not return %v after its deadline", script, fuzzHang)
		}

		if stdout.seen || stderr.seen {
			t.Fatalf("%q: the secret reached the output:\nstdout %q\nstderr %q", script, stdout.String(), stderr.String())
		}
		// (Unless the script could have written the words itself.)
		if e := stderr.String(); !strings.Contains(script, "internal") && !strings.Contains(script, "goroutine") &&
			(strings.Contains(e, "internal error") || strings.Contains(e, "goroutine ")) {
			t.Fatalf("%q: %s", script, e)
		}
		after, err := treesnap.Take(root, out)
		if err != nil {
			t.Fatal(err)
		}
		if d := treesnap.Diff(before, after); len(d) > 0 {
			t.Fatalf("%q changed the tree outside out/: %v", script, d)
		}
	})
}
