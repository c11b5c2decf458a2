package builtins

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"path"
	"strings"
)

func init() {
	Register(Builtin{Name: "zip", Summary: "package and compress (archive) files", Run: zipCmd})
}

// zipCmd is Info-ZIP zip 3.0's common use through archive/zip: add (or
// update) files in an archive, -r to recurse, -j to junk paths, -q, -0
// to store; a file that deflate would not shrink is stored, as zip does.
// Percentages come from Go's deflate, so they may differ from zip's.
func zipCmd(env *Env) int {
	f := NewFlags(env, "Add the named files to the zip archive zipfile (created, or updated when\n"+
		"it exists), as Info-ZIP zip 3.0 does for its common options.", "[-rjq0-9] zipfile file ...")
	recurse := f.Bool('r', "recurse-paths", "recurse into directories")
	junk := f.Bool('j', "junk-paths", "junk (don't record) directory names")
	quiet := f.Bool('q', "quiet", "quiet operation")
	level := flate.DefaultCompression
	for d := '0'; d <= '9'; d++ {
		lvl := int(d - '0')
		help := ""
		switch d {
		case '0':
			help = "store only"
		case '9':
			help = "compress better"
		}
		f.Func(d, "", NoArg, "", help, func(string, bool) error { level = lvl; return nil })
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
	// The files to add, in zip's order: each operand, then what -r finds
	// under it.
	type item struct{ src, name string }
	var items []item
	var walk func(src string)
	walk = func(src string) {
		fi, err := env.FS.Stat(env.Abs(src))
		if err != nil {
			w.Flush()
			fmt.Fprintf(env.Stderr, "\tzip warning: name not matched: %s\n", src)
			return
		}
		name := unzipSafeName(src)
		if *junk {
			name = path.Base(name)
		}
		if fi.IsDir() {
			if !*junk {
				items = append(items, item{src, name + "/"})
			}
			if !*recurse {
				return
			}
			des, err := env.FS.ReadDir(env.Abs(src))
			if err != nil {
				return
			}
			for _, de := range des {
				walk(strings.TrimSuffix(src, "/") + "/" + de.Name())
			}
			return
		}
		items = append(items, item{src, name})
	}
	for _, a := range args[1:] {
		walk(a)
	}
	if len(items) == 0 {
		w.Flush()
		fmt.Fprintf(env.Stderr, "\nzip error: Nothing to do! (%s)\n", archive)
		return 12
	}
	// Members keep their place: a replaced one is rewritten where it
	// was, new ones follow the old.
	fresh := map[string]item{}
	for _, it := range items {
		fresh[it.name] = it
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	var order []item
	had := map[string]bool{}
	for _, zf := range old {
		had[zf.Name] = true
		if it, ok := fresh[zf.Name]; ok {
			order = append(order, it)
			delete(fresh, zf.Name)
			continue
		}
		order = append(order, item{name: zf.Name})
	}
	oldByName := map[string]*zip.File{}
	for _, zf := range old {
		oldByName[zf.Name] = zf
	}
	for _, it := range items {
		if _, ok := fresh[it.name]; ok {
			order = append(order, it)
			delete(fresh, it.name)
		}
	}
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
		verb := "  adding: "
		if had[it.name] {
			verb = "updating: "
		}
		fi, err := env.FS.Stat(env.Abs(it.src))
		if err != nil {
			continue
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
				continue
			}
		}
		method, pct := "stored", 0
		var packed []byte
		if len(data) > 0 && level != 0 {
			var cb bytes.Buffer
			fw, _ := flate.NewWriter(&cb, level)
			fw.Write(data)
			fw.Close()
			if cb.Len() < len(data) {
				hdr.Method = zip.Deflate
				packed = cb.Bytes()
				method = "deflated"
				pct = int((int64(len(data)) - int64(len(packed))) * 100 / int64(len(data)))
			}
		}
		var werr error
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
			var fw io.Writer
			if fw, werr = zw.CreateRaw(hdr); werr == nil {
				_, werr = fw.Write(packed)
			}
		} else {
			var fw io.Writer
			if fw, werr = zw.CreateHeader(hdr); werr == nil {
				_, werr = fw.Write(data)
			}
		}
		if werr != nil {
			fmt.Fprintf(env.Stderr, "zip error: %s\n", werr)
			return 3
		}
		if !*quiet {
			fmt.Fprintf(w, "%s%s (%s %d%%)\n", verb, it.name, method, pct)
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
