package builtins

import (
	"errors"
	"io"
	"io/fs"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "truncate", Summary: "shrink or extend the size of a file to the specified size", Run: truncateCmd})

// truncateBlock is the I/O block size -o counts in (st_blksize of vfsd's
// files is not exposed; 4096 is Linux's for common file systems).
const truncateBlock = 4096

func truncateCmd(env *Env) int {
	f := NewFlags(env, "Shrink or extend the size of each FILE to the specified size\n\n"+
		"A FILE argument that does not exist is created.\n\n"+
		"If a FILE is larger than the specified size, the extra data is lost.\n"+
		"If a FILE is shorter, it is extended and the extended part reads as\n"+
		"zero bytes (llmsh writes them: vfsd has no holes).", "OPTION... FILE...")
	noCreate := f.Bool('c', "no-create", "do not create any files")
	ioBlocks := f.Bool('o', "io-blocks", "treat SIZE as number of IO blocks instead of bytes")
	ref, refSet := f.String('r', "reference", "RFILE", "base size on RFILE")
	sizeArg, sizeSet := f.String('s', "size", "SIZE", "set or adjust the file size by SIZE bytes")
	version := versionOption(f)
	f.Epilog = "The SIZE argument is an integer and optional unit (example: 10K is 10*1024).\n" +
		"Units are K,M,G,T,P,E,Z,Y (powers of 1024) or KB,MB,... (powers of 1000).\n" +
		"Binary prefixes can be used, too: KiB=K, MiB=M, and so on.\n\n" +
		"SIZE may also be prefixed by one of the following modifying characters:\n" +
		"'+' extend by, '-' reduce by, '<' at most, '>' at least,\n" +
		"'/' round down to multiple of, '%' round up to multiple of."
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	var op byte
	var size int64
	if *sizeSet {
		s := strings.TrimLeft(*sizeArg, " \t\n\v\f\r")
		if s != "" && strings.IndexByte("+-<>/%", s[0]) >= 0 {
			op, s = s[0], s[1:]
		}
		v, e := gnu.ParseSize(s, 10, "EgGkKmMPtTYZ0")
		if e != gnu.SizeOK || v > math.MaxInt64 || strings.HasPrefix(strings.TrimLeft(s, " \t"), "-") {
			env.Errorf("Invalid number: %s", env.Quote(*sizeArg))
			return 1
		}
		size = int64(v)
		if *ioBlocks {
			if size > math.MaxInt64/truncateBlock {
				env.Errorf("overflow in %d * %d byte blocks for file %s", size, truncateBlock, env.Quote(files[0]))
				return 1
			}
			size *= truncateBlock
		}
		if (op == '/' || op == '%') && size == 0 {
			env.Errorf("division by zero")
			return 1
		}
	}
	switch {
	case !*sizeSet && !*refSet:
		return f.Fail(&UsageError{"you must specify either '--size' or '--reference'"}, 1)
	case *sizeSet && *refSet && op == 0:
		return f.Fail(&UsageError{"you must specify a relative '--size' with '--reference'"}, 1)
	case len(files) == 0:
		return f.Fail(&UsageError{"missing file operand"}, 1)
	}
	refSize := int64(-1)
	if *refSet {
		fi, err := env.FS.Stat(env.Abs(*ref))
		if err != nil {
			env.Errorf("cannot stat %s: %s", env.QuoteAF(*ref), ErrText(err))
			return 1
		}
		refSize = fi.Size()
		if !*sizeSet {
			size = refSize
		} else if op == 0 {
			op = '+'
		}
	}
	status := 0
	for _, name := range files {
		if env.Ctx.Err() != nil {
			return 1
		}
		if err := truncateFile(env, name, op, size, refSize, *noCreate); err != nil {
			env.Errorf("%s", err)
			status = 1
		}
	}
	return status
}

// truncateFile sets the size of name. Through vfsd, a file shrinks by
// being rewritten with its kept bytes, and grows by zeros appended.
func truncateFile(env *Env, name string, op byte, size, refSize int64, noCreate bool) error {
	openErr := func(err error) error {
		return errors.New("cannot open " + env.QuoteAF(name) + " for writing: " + ErrText(err))
	}
	cur := int64(0)
	fi, err := env.FS.Stat(env.Abs(name))
	switch {
	case err == nil && fi.IsDir():
		return openErr(errReadDir)
	case err == nil:
		cur = fi.Size()
	case errors.Is(err, fs.ErrNotExist) && noCreate:
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		return openErr(err)
	}
	base := cur
	if refSize >= 0 {
		base = refSize
	}
	n := size
	switch op {
	case '+':
		n = base + size
	case '-':
		n = base - size
	case '<':
		n = min(base, size)
	case '>':
		n = max(base, size)
	case '/':
		n = base / size * size
	case '%':
		n = (base + size - 1) / size * size
	}
	if n < 0 {
		n = 0
	}
	switch {
	case err != nil || n > cur:
		// The file is extended by its last byte, written at n-1: the
		// bytes before it are a hole, as ftruncate makes. Writing them
		// all (truncate -s 100T) filled the -o tree's disk at the speed
		// of the writes, and no cancellation stopped it.
		f, err := env.FS.OpenFile(env.Abs(name), os.O_RDWR|os.O_CREATE)
		if err != nil {
			return openErr(err)
		}
		var werr error
		if n > 0 { // a new file of size 0 is made by the open alone
			_, werr = f.Seek(n-1, io.SeekStart)
			if werr == nil {
				_, werr = f.Write([]byte{0})
			}
		}
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return errors.New("failed to truncate " + env.QuoteAF(name) + " at " + strconv.FormatInt(n, 10) + " bytes: " + ErrText(werr))
		}
	case n < cur:
		r, err := env.Open(name)
		if err != nil {
			return openErr(err)
		}
		keep, err := readAllCtx(env, io.LimitReader(r, n))
		r.Close()
		if err == nil {
			err = env.WriteFile(name, keep)
		}
		if err != nil {
			return errors.New("failed to truncate " + env.QuoteAF(name) + " at " + strconv.FormatInt(n, 10) + " bytes: " + ErrText(err))
		}
	}
	return nil
}
