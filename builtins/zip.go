package builtins

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "zip", Summary: "package and compress (archive) files", Run: zipCmd})

// zipCmd is Info-ZIP zip 3.0's common use through archive/zip: add (or
// update) files in an archive, -r to recurse, -j to junk paths, -q, -0
// to store; a file that deflate would not shrink is stored, as zip does.
// Percentages come from Go's deflate, so they may differ from zip's.
func zipCmd(env *Env) int {
	c := &zipConfig{level: flate.DefaultCompression}
	f := NewFlags(env, "Add the named files to the zip archive zipfile (created, or updated when\n"+
		"it exists), as Info-ZIP zip 3.0 does for its common options.", "[-rjq0-9] zipfile file ...")
	f.BoolVar(&c.recurse, 'r', "recurse-paths", "recurse into directories")
	f.BoolVar(&c.junk, 'j', "junk-paths", "junk (don't record) directory names")
	f.BoolVar(&c.quiet, 'q', "quiet", "quiet operation")
	for d := '0'; d <= '9'; d++ {
		lvl := int(d - '0')
		help := ""
		switch d {
		case '0':
			help = "store only"
		case '9':
			help = "compress better"
		}
		f.Func(d, "", NoArg, "", help, func(string, bool) error { c.level = lvl; return nil })
	}
	f.Bool('D', "no-dir-entries", "do not add directory entries")
	version := versionOption(f)
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 16)
	}
	if *version {
		return printVersion(env)
	}
	if len(args) == 0 {
		f.PrintHelp(env.Stdout)
		return 0
	}
	archive := args[0]
	if path.Ext(archive) == "" {
		archive += ".zip"
	}
	return c.run(env, archive, args[1:])
}

// zipConfig is what zip's options select.
type zipConfig struct {
	recurse, junk, quiet bool
	level                int // the deflate level, 0 to store
}

// zipItem is a member to write: a file src to add as name, or an old
// member (src "").
type zipItem struct{ src, name string }

// run adds or updates the files in archive.
func (c *zipConfig) run(env *Env, archive string, files []string) int {
	w := stdoutWriter(env)
	defer w.Flush()

	// The members already there, kept unless replaced.
	var old []*zip.File
	if r, err := env.Open(archive); err == nil {
		data, err := readAllCtx(env, r)
		r.Close()
		if err != nil {
			fmt.Fprintf(env.Stderr, "zip error: %s\n", ErrText(err))
			return 15
		}
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			fmt.Fprintf(env.Stderr, "\nzip error: Zip file structure invalid (%s)\n", archive)
			return 3
		}
		old = zr.File
	}
	var items []zipItem
	for _, a := range files {
		items = c.walk(env, w, a, items)
	}
	if len(items) == 0 {
		// zip 3.0 writes its warnings and this error on standard output.
		fmt.Fprintf(w, "\nzip error: Nothing to do! (%s)\n", archive)
		w.Flush()
		return 12
	}
	order, had := zipOrder(old, items)
	oldByName := map[string]*zip.File{}
	for _, zf := range old {
		oldByName[zf.Name] = zf
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, it := range order {
		if env.Ctx.Err() != nil {
			return 1
		}
		if it.src == "" {
			if err := zw.Copy(oldByName[it.name]); err != nil {
				fmt.Fprintf(env.Stderr, "zip error: %s\n", err)
				return 3
			}
			continue
		}
		if st := c.add(env, zw, w, it, had[it.name]); st != 0 {
			return st
		}
	}
	if err := zw.Close(); err != nil {
		fmt.Fprintf(env.Stderr, "zip error: %s\n", err)
		return 3
	}
	if err := env.WriteFile(archive, buf.Bytes()); err != nil {
		w.Flush()
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		fmt.Fprintf(env.Stderr, "zip I/O error: %s\nzip error: Could not create output file (%s)\n", ErrText(err), archive)
		return 15
	}
	return finishOutput(env, w, 0)
}

// walk appends to items the file src and, under -r, what is under it, in
// zip's order.
func (c *zipConfig) walk(env *Env, w *bufio.Writer, src string, items []zipItem) []zipItem {
	fi, err := env.FS.Stat(env.Abs(src))
	if err != nil {
		if !c.quiet { // zip 3.0's -q silences its warnings too
			fmt.Fprintf(w, "\tzip warning: name not matched: %s\n", src)
		}
		return items
	}
	name := unzipSafeName(src)
	if c.junk {
		name = path.Base(name)
	}
	if !fi.IsDir() {
		return append(items, zipItem{src, name})
	}
	if !c.junk && name != "" {
		// "." itself is no member, as in Info-ZIP's zip.
		items = append(items, zipItem{src, name + "/"})
	}
	if !c.recurse {
		return items
	}
	des, err := env.FS.ReadDir(env.Abs(src))
	if err != nil {
		return items
	}
	for _, de := range des {
		items = c.walk(env, w, strings.TrimSuffix(src, "/")+"/"+de.Name(), items)
	}
	return items
}

// zipOrder is the order of the members written: they keep their place, a
// replaced one rewritten where it was, new ones following the old. had
// holds the names of the old members.
func zipOrder(old []*zip.File, items []zipItem) (order []zipItem, had map[string]bool) {
	fresh := map[string]zipItem{}
	for _, it := range items {
		fresh[it.name] = it
	}
	had = map[string]bool{}
	for _, zf := range old {
		had[zf.Name] = true
		if it, ok := fresh[zf.Name]; ok {
			order = append(order, it)
			delete(fresh, zf.Name)
			continue
		}
		order = append(order, zipItem{name: zf.Name})
	}
	for _, it := range items {
		if _, ok := fresh[it.name]; ok {
			order = append(order, it)
			delete(fresh, it.name)
		}
	}
	return order, had
}

// add writes the file of it as a member, reporting it on w; a status
// other than 0 ends the run.
func (c *zipConfig) add(env *Env, zw *zip.Writer, w *bufio.Writer, it zipItem, had bool) int {
	verb := "  adding: "
	if had {
		verb = "updating: "
	}
	fi, err := env.FS.Stat(env.Abs(it.src))
	if err != nil {
		return 0
	}
	hdr, _ := zip.FileInfoHeader(fi)
	hdr.Name = it.name
	hdr.Method = zip.Store
	var data []byte
	if !fi.IsDir() {
		r, err := env.Open(it.src)
		if err == nil {
			data, err = readAllCtx(env, r)
			r.Close()
		}
		if err != nil {
			w.Flush()
			fmt.Fprintf(env.Stderr, "\tzip warning: could not open for reading: %s\n", it.src)
			return 0
		}
	}
	method, pct := "stored", 0
	var packed []byte
	if len(data) > 0 && c.level != 0 {
		cb, err := zipDeflate(env.Ctx, data, c.level)
		if err != nil {
			return 1 // cancelled
		}
		if len(cb) < len(data) {
			hdr.Method = zip.Deflate
			packed = cb
			method = "deflated"
			pct = int((int64(len(data)) - int64(len(packed))) * 100 / int64(len(data)))
		}
	}
	var werr error
	var fw io.Writer
	if packed != nil {
		hdr.CRC32 = crc32.ChecksumIEEE(data)
		hdr.CompressedSize64 = uint64(len(packed))
		hdr.UncompressedSize64 = uint64(len(data))
		// CreateRaw, unlike CreateHeader, adds no extended timestamp
		// (0x5455): without it the time has DOS's two seconds.
		var ut [9]byte
		binary.LittleEndian.PutUint16(ut[0:], 0x5455)
		binary.LittleEndian.PutUint16(ut[2:], 5)
		ut[4] = 1
		binary.LittleEndian.PutUint32(ut[5:], uint32(hdr.Modified.Unix()))
		hdr.Extra = append(hdr.Extra, ut[:]...)
		if fw, werr = zw.CreateRaw(hdr); werr == nil {
			_, werr = fw.Write(packed)
		}
	} else if fw, werr = zw.CreateHeader(hdr); werr == nil {
		_, werr = fw.Write(data)
	}
	if werr != nil {
		fmt.Fprintf(env.Stderr, "zip error: %s\n", werr)
		return 3
	}
	if !c.quiet {
		fmt.Fprintf(w, "%s%s (%s %d%%)\n", verb, it.name, method, pct)
	}
	return 0
}

// zipDeflate compresses data at level a MiB at a time, and stops with
// gnu.ErrCancelled once ctx is done: deflating a 169 MB file took 9.6 s
// in one call, past a library Session.Run's 1 s limit (session 23, red
// team).
func zipDeflate(ctx context.Context, data []byte, level int) ([]byte, error) {
	var cb bytes.Buffer
	fw, err := flate.NewWriter(&cb, level)
	if err != nil {
		return nil, err
	}
	for p := data; len(p) > 0; {
		if ctx.Err() != nil {
			return nil, gnu.ErrCancelled
		}
		n := min(len(p), 1<<20)
		fw.Write(p[:n])
		p = p[n:]
	}
	fw.Close()
	return cb.Bytes(), nil
}
