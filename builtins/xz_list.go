package builtins

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"strings"
)

// xzInfo is what xz -l shows of one file: read from the stream footers and
// indexes, from the end of the file, as xz does.
type xzInfo struct {
	streams, blocks uint64
	comp, uncomp    uint64
	checks          uint32 // bit n: check ID n is used
	padding         uint64
}

var errXzCorrupt = errors.New("compressed data is corrupt")

// xzReadInfo reads the indexes of f, of size bytes.
func xzReadInfo(f io.ReaderAt, size int64) (*xzInfo, error) {
	if size < 24 {
		return nil, errXzTooSmall
	}
	info := &xzInfo{comp: uint64(size)}
	pos := size
	var b [12]byte
	for pos > 0 {
		if pos < 24 {
			return nil, errXzCorrupt
		}
		if _, err := f.ReadAt(b[:4], pos-4); err != nil {
			return nil, err
		}
		if string(b[:4]) == "\x00\x00\x00\x00" { // stream padding
			info.padding += 4
			pos -= 4
			continue
		}
		if _, err := f.ReadAt(b[:], pos-12); err != nil {
			return nil, err
		}
		if string(b[10:12]) != "YZ" {
			if info.streams == 0 && info.padding == 0 {
				return nil, errXzFormat
			}
			return nil, errXzCorrupt
		}
		if binary.LittleEndian.Uint32(b[:4]) != crc32.ChecksumIEEE(b[4:10]) || b[8] != 0 || b[9] > 15 {
			return nil, errXzCorrupt
		}
		check := b[9]
		backward := (int64(binary.LittleEndian.Uint32(b[4:8])) + 1) * 4
		if pos-12-backward < 12 {
			return nil, errXzCorrupt
		}
		idx := make([]byte, backward)
		if _, err := f.ReadAt(idx, pos-12-backward); err != nil {
			return nil, err
		}
		nblocks, blocksSize, uncomp, err := xzParseIndex(idx)
		if err != nil {
			return nil, err
		}
		if blocksSize > uint64(pos) {
			return nil, errXzCorrupt
		}
		start := pos - 12 - backward - int64(blocksSize) - 12
		if start < 0 {
			return nil, errXzCorrupt
		}
		if _, err := f.ReadAt(b[:], start); err != nil {
			return nil, err
		}
		if string(b[:6]) != "\xfd7zXZ\x00" || b[6] != 0 || b[7] != check {
			return nil, errXzCorrupt
		}
		info.streams++
		info.blocks += nblocks
		info.uncomp += uncomp
		info.checks |= 1 << check
		pos = start
	}
	return info, nil
}

// xzParseIndex reads an xz index: the number of blocks, the size they
// take in the stream (each padded to 4 bytes) and their uncompressed size.
func xzParseIndex(idx []byte) (n, size, uncomp uint64, err error) {
	if len(idx) < 8 || idx[0] != 0 {
		return 0, 0, 0, errXzCorrupt
	}
	body := idx[:len(idx)-4]
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(idx[len(idx)-4:]) {
		return 0, 0, 0, errXzCorrupt
	}
	r := bytes.NewReader(body[1:])
	if n, err = binary.ReadUvarint(r); err != nil {
		return 0, 0, 0, errXzCorrupt
	}
	for range n {
		unpadded, err1 := binary.ReadUvarint(r)
		u, err2 := binary.ReadUvarint(r)
		if err1 != nil || err2 != nil || unpadded == 0 {
			return 0, 0, 0, errXzCorrupt
		}
		size += (unpadded + 3) &^ 3
		uncomp += u
	}
	if r.Len() > 3 {
		return 0, 0, 0, errXzCorrupt
	}
	return n, size, uncomp, nil
}

// xzList is xz -l: a line per file, and totals when there are several.
func xzList(env *Env, files []string, c *xzConfig) int {
	if len(files) == 0 {
		files = []string{"-"}
	}
	for _, name := range files {
		if name == "-" {
			env.Errorf("--list does not support reading from standard input")
			return 1
		}
	}
	status := 0
	var tot xzInfo
	listed := 0
	fail := func(name string, err error) {
		status = 1
		if c.quiet < 2 {
			env.Errorf("%s: %s", name, err)
		}
	}
	for _, name := range files {
		if env.Ctx.Err() != nil {
			return 1
		}
		info, err := xzListOne(env, name)
		if err != nil {
			var pe *fs.PathError
			switch {
			case errors.Is(err, errReadDir):
				if c.quiet == 0 {
					env.Errorf("%s: Is a directory, skipping", name)
				}
				if status == 0 {
					status = 2
				}
			case errors.As(err, &pe):
				fail(name, errors.New(ErrText(pe.Err)))
			case err == errXzFormat:
				fail(name, errors.New("File format not recognized"))
			case err == errXzTooSmall:
				fail(name, errors.New("Too small to be a valid .xz file"))
			case err == errXzCorrupt:
				fail(name, errors.New("Compressed data is corrupt"))
			default:
				fail(name, errors.New(ErrText(err)))
			}
			continue
		}
		if listed == 0 {
			fmt.Fprintln(env.Stdout, "Strms  Blocks   Compressed Uncompressed  Ratio  Check   Filename")
		}
		listed++
		xzListRow(env.Stdout, info, name+"\n")
		tot.streams += info.streams
		tot.blocks += info.blocks
		tot.comp += info.comp
		tot.uncomp += info.uncomp
		tot.checks |= info.checks
	}
	if listed > 1 {
		fmt.Fprintln(env.Stdout, strings.Repeat("-", 79))
		xzListRow(env.Stdout, &tot, fmt.Sprintf("%d files\n", listed))
	}
	return status
}

func xzListOne(env *Env, name string) (*xzInfo, error) {
	fi, err := env.FS.Stat(env.Abs(name))
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, errReadDir
	}
	f, err := env.FS.OpenFile(env.Abs(name), os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return xzReadInfo(&seekReaderAt{f: f}, fi.Size())
}

// seekReaderAt reads at offsets of a File by seeking.
type seekReaderAt struct{ f File }

func (s *seekReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if _, err := s.f.Seek(off, io.SeekStart); err != nil {
		return 0, err
	}
	n, err := io.ReadFull(s.f, p)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = errXzCorrupt
	}
	return n, err
}

// xzListRow prints one line of xz -l (list.c's print_info_basic).
func xzListRow(w io.Writer, info *xzInfo, tail string) {
	fmt.Fprintf(w, "%5d %7d  %11s  %11s  %5s  %-7s %s", info.streams, info.blocks,
		xzNiceSize(info.comp), xzNiceSize(info.uncomp), xzRatio(info.comp, info.uncomp), xzCheckNames(info.checks), tail)
}

// xzNiceSize is xz's uint64_to_nicestr from B to TiB.
func xzNiceSize(v uint64) string {
	if v < 10000 {
		return fmt.Sprintf("%d B", v)
	}
	units := []string{"KiB", "MiB", "GiB", "TiB"}
	d := float64(v) / 1024
	u := 0
	for d > 9999.9 && u < len(units)-1 {
		d /= 1024
		u++
	}
	return fmt.Sprintf("%.1f %s", d, units[u])
}

func xzRatio(comp, uncomp uint64) string {
	if uncomp == 0 {
		return "---"
	}
	r := float64(comp) / float64(uncomp)
	if r > 9.999 {
		return "---"
	}
	return fmt.Sprintf("%.3f", r)
}

// xzCheckNames names the check types of the set bits, joined by commas.
func xzCheckNames(checks uint32) string {
	var names []string
	for id := range 16 {
		if checks&(1<<id) == 0 {
			continue
		}
		switch id {
		case 0:
			names = append(names, "None")
		case 1:
			names = append(names, "CRC32")
		case 4:
			names = append(names, "CRC64")
		case 10:
			names = append(names, "SHA-256")
		default:
			names = append(names, fmt.Sprintf("Unknown-%d", id))
		}
	}
	return strings.Join(names, ",")
}
