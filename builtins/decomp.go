package builtins

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"time"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

// decompTool is a decompress-only command in the style of bzip2 and xz:
// each FILE is expanded beside itself (its suffix removed) and removed
// unless -k, or written to standard output with -c, or only checked with
// -t. The tool supplies the reader and the messages.
type decompTool struct {
	env                              *Env
	stdout, keep, force, test, quiet bool
	status                           int
	// suffixes maps a compressed suffix to the one the output gets.
	suffixes [][2]string
	// newReader opens the compressed stream.
	newReader func(r io.Reader) (io.Reader, error)
	// report prints the failure of one operand and sets the status; out
	// is the output file ("" for standard output).
	report func(name, out string, err error)
	// noSuffix is called for a FILE with no known suffix: it returns the
	// output name to use, or "" to skip the file.
	noSuffix func(name string) string
	// newWriter, when set, makes the tool compress: r is copied to the
	// writer it opens on w, which is then closed; outName names the
	// output of FILE ("" to skip it).
	newWriter func(w io.Writer) (io.WriteCloser, error)
	outName   func(name string) string
	// skipLinks: a FILE that is a symbolic link is skipped unless -f or
	// -c (errDecompLink), as xz does.
	skipLinks bool
}

// errDecompLink is a FILE that is a symbolic link (see skipLinks).
var errDecompLink = errors.New("symbolic link")

// warn prints a warning unless -q; the exit status is 2 either way,
// unless an error made it 1 (as xz: an error outranks a warning).
func (t *decompTool) warn(format string, args ...any) {
	if !t.quiet {
		t.env.Errorf(format, args...)
	}
	if t.status == 0 {
		t.status = 2
	}
}

// errDecompExists is an output file that exists without -f.
var errDecompExists = errors.New("output exists")

// decompFormat wraps an error of the decompressor: the data is not in
// the format, or is corrupt.
type decompFormat struct{ err error }

func (e decompFormat) Error() string { return e.err.Error() }
func (e decompFormat) Unwrap() error { return e.err }

// run processes the operands ("-" or none: standard input).
func (t *decompTool) run(files []string) int {
	if len(files) == 0 {
		files = []string{"-"}
	}
	for _, name := range files {
		if t.env.Ctx.Err() != nil {
			return 1
		}
		if name == "-" {
			var w io.Writer = t.env.Stdout
			if t.test {
				w = io.Discard
			}
			if err := t.expand(t.env.Stdin, w); err != nil {
				t.report("-", "", err)
			}
			continue
		}
		t.file(name)
	}
	return t.status
}

// expand copies the decompressed r to w (compressed with newWriter).
func (t *decompTool) expand(r io.Reader, w io.Writer) error {
	if t.newWriter != nil {
		zw, err := t.newWriter(w)
		if err != nil {
			return gnu.WriteError{Err: err}
		}
		if err := t.copy(zw, r, func(err error) error { return err }); err != nil {
			return err
		}
		if err := zw.Close(); err != nil {
			return gnu.WriteError{Err: err}
		}
		return nil
	}
	dr, err := t.newReader(r)
	if err != nil {
		return decompFormat{err}
	}
	return t.copy(w, dr, func(rerr error) error {
		var pe *fs.PathError
		if errors.As(rerr, &pe) {
			return rerr
		}
		return decompFormat{rerr}
	})
}

// copy copies r to w; readErr makes the error of a failed read.
func (t *decompTool) copy(w io.Writer, r io.Reader, readErr func(error) error) error {
	buf := make([]byte, ioBufSize)
	for {
		if t.env.Ctx.Err() != nil {
			return gnu.ErrCancelled
		}
		n, rerr := r.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return gnu.WriteError{Err: werr}
			}
		}
		if rerr == io.EOF {
			return nil
		}
		if rerr != nil {
			return readErr(rerr)
		}
	}
}

func (t *decompTool) file(name string) {
	env := t.env
	if t.skipLinks && !t.force && !t.stdout {
		if li, err := env.FS.Lstat(env.Abs(name)); err == nil && li.Mode()&fs.ModeSymlink != 0 {
			t.report(name, "", errDecompLink)
			return
		}
	}
	fi, err := env.FS.Stat(env.Abs(name))
	if err == nil && fi.IsDir() {
		err = &fs.PathError{Op: "open", Path: name, Err: errReadDir}
	}
	if err != nil {
		t.report(name, "", err)
		return
	}
	out := ""
	if t.outName != nil && !t.stdout && !t.test {
		if out = t.outName(name); out == "" {
			return
		}
		if _, err := env.FS.Stat(env.Abs(out)); err == nil && !t.force {
			t.report(name, out, errDecompExists)
			return
		}
	} else if !t.stdout && !t.test {
		base := path.Base(name)
		for _, sf := range t.suffixes {
			if strings.HasSuffix(base, sf[0]) && len(base) > len(sf[0]) {
				out = name[:len(name)-len(sf[0])] + sf[1]
				break
			}
		}
		if out == "" {
			if out = t.noSuffix(name); out == "" {
				return
			}
		}
		if _, err := env.FS.Stat(env.Abs(out)); err == nil && !t.force {
			t.report(name, out, errDecompExists)
			return
		}
	}
	src, err := env.FS.OpenFile(env.Abs(name), os.O_RDONLY)
	if err != nil {
		t.report(name, "", err)
		return
	}
	defer src.Close()
	var w io.Writer = env.Stdout
	var dst File
	switch {
	case t.test:
		w = io.Discard
	case out != "":
		if dst, err = env.Create(out); err != nil {
			t.report(name, out, gnu.WriteError{Err: err})
			return
		}
		w = dst
	}
	err = t.expand(src, w)
	if dst != nil {
		if cerr := dst.Close(); err == nil && cerr != nil {
			err = gnu.WriteError{Err: cerr}
		}
		if err != nil {
			env.FS.Remove(env.Abs(out))
		} else {
			env.FS.Chtimes(env.Abs(out), time.Time{}, fi.ModTime())
		}
	}
	if err != nil {
		t.report(name, out, err)
		return
	}
	if out != "" && !t.keep {
		if err := env.FS.Remove(env.Abs(name)); err != nil {
			t.report(name, "", err)
		}
	}
}
