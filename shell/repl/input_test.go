package repl

import (
	"io"
	"testing"
)

func TestInputFeedGivesBackUnreadInput(t *testing.T) {
	term, typed := io.Pipe()
	in := NewInput(term)
	defer in.Close()
	ed := in.editor(nil)

	go typed.Write([]byte("for the command\n"))
	fd, err := in.command(nil)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	if n, err := io.ReadFull(fd.stdin, buf); err != nil || string(buf[:n]) != "for " {
		t.Fatalf("command read %q %v", buf[:n], err)
	}
	fd.finish()
	// What the command left goes to the line editor, in order.
	got := make([]byte, 64)
	n, err := ed.Read(got)
	if err != nil || string(got[:n]) != "the command\n" {
		t.Fatalf("editor read %q %v", got[:n], err)
	}
}

func TestInputInterruptEndsRead(t *testing.T) {
	term, typed := io.Pipe()
	in := NewInput(term)
	defer in.Close()
	fd, err := in.command(nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := fd.stdin.Read(make([]byte, 10))
		done <- err
	}()
	fd.interrupt()
	if err := <-done; err != io.EOF {
		t.Fatalf("read after interrupt: %v", err)
	}
	fd.finish()
	// Input typed later is not lost: the abandoned request delivers it.
	go typed.Write([]byte("later\n"))
	got := make([]byte, 64)
	n, err := in.editor(nil).Read(got)
	if err != nil || string(got[:n]) != "later\n" {
		t.Fatalf("editor read %q %v", got[:n], err)
	}
}

func TestInputEOFIsNotFinal(t *testing.T) {
	r := &scripted{reads: []chunk{{data: []byte("a")}, {err: io.EOF}, {data: []byte("b")}}}
	in := NewInput(r)
	defer in.Close()
	ed := in.editor(nil)
	buf := make([]byte, 8)
	for _, want := range []string{"a", "EOF", "b"} {
		n, err := ed.Read(buf)
		got := string(buf[:n])
		if err == io.EOF {
			got = "EOF"
		}
		if got != want {
			t.Fatalf("got %q (%v), want %q", got, err, want)
		}
	}
}

// scripted returns its reads in order, then blocks forever.
type scripted struct{ reads []chunk }

func (s *scripted) Read(p []byte) (int, error) {
	if len(s.reads) == 0 {
		select {}
	}
	c := s.reads[0]
	s.reads = s.reads[1:]
	return copy(p, c.data), c.err
}

func TestInputCtrlCByteInterrupts(t *testing.T) {
	term, typed := io.Pipe()
	in := NewInput(term)
	defer in.Close()
	called := make(chan struct{})
	fd, err := in.command(func() { close(called) })
	if err != nil {
		t.Fatal(err)
	}
	go typed.Write([]byte("a\rb\x03next\n"))
	got, err := io.ReadAll(fd.stdin)
	if err != nil || string(got) != "a\nb" {
		t.Fatalf("command read %q %v", got, err)
	}
	<-called
	fd.finish()
	buf := make([]byte, 64)
	n, err := in.editor(nil).Read(buf)
	if err != nil || string(buf[:n]) != "next\n" {
		t.Fatalf("editor read %q %v", buf[:n], err)
	}
}

func TestInputCtrlDByteEndsCommandInput(t *testing.T) {
	term, typed := io.Pipe()
	in := NewInput(term)
	defer in.Close()
	fd, err := in.command(func() { t.Error("Ctrl-D taken for Ctrl-C") })
	if err != nil {
		t.Fatal(err)
	}
	go typed.Write([]byte("last\r\x04echo next\r"))
	got, err := io.ReadAll(fd.stdin)
	if err != nil || string(got) != "last\n" {
		t.Fatalf("command read %q %v", got, err)
	}
	fd.finish()
	buf := make([]byte, 64)
	n, err := in.editor(nil).Read(buf)
	if err != nil || string(buf[:n]) != "echo next\n" {
		t.Fatalf("editor read %q %v", buf[:n], err)
	}
}
