package sessionserver_test

import (
	"path/filepath"
	"testing"

	. "github.com/llmsh/llmsh/server/sessionserver"
)

// BenchmarkRun measures one run round trip over the socket: a
// new connection per call, as a one-shot caller makes, running `echo`.
func BenchmarkRun(b *testing.B) {
	path := filepath.Join(b.TempDir(), "s.sock")
	srv := New(Config{})
	if err := srv.Listen(path); err != nil {
		b.Fatal(err)
	}
	go srv.Serve()
	defer srv.Close()
	c, err := Dial(path)
	if err != nil {
		b.Fatal(err)
	}
	id, err := c.Open(OpenParams{})
	c.Close()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		c, err := Dial(path)
		if err != nil {
			b.Fatal(err)
		}
		r, err := c.Run(id, "x=$((x+1)); echo $x", "")
		c.Close()
		if err != nil || r.ExitCode != 0 {
			b.Fatalf("%+v %v", r, err)
		}
	}
}
