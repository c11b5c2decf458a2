package builtins

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"errors"
	"io"
	"strconv"
	"syscall"
)

func init() {
	Register(Builtin{Name: "base64", Summary: "base64 encode/decode data and print to standard output", Run: base64Cmd})
}

func base64Cmd(env *Env) int {
	f := NewFlags(env, "Base64 encode or decode FILE, or standard input, to standard output.\n\nWith no FILE, or when FILE is -, read standard input.", "[OPTION]... [FILE]")
	decode := f.Bool('d', "decode", "decode data")
	garbage := f.Bool('i', "ignore-garbage", "when decoding, ignore non-alphabet characters")
	wrap := int64(76)
	f.Func('w', "wrap", RequiredArg, "COLS", "wrap encoded lines after COLS character (default 76).\n                          Use 0 to disable line wrapping", func(v string, _ bool) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return errors.New("invalid wrap size: " + laQuote(v))
		}
		wrap = n
		return nil
	})
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if len(files) > 1 {
		return f.Fail(&UsageError{"extra operand " + laQuote(files[1])}, 1)
	}
	name := "-"
	if len(files) == 1 {
		name = files[0]
	}
	r, err := env.Open(name)
	if err != nil && errors.Is(err, syscall.EISDIR) {
		env.Errorf("read error: %s", ErrText(err)) // GNU reads it and fails
		return 1
	}
	if err != nil {
		env.PathError(name, err)
		return 1
	}
	defer r.Close()
	w := laWriter(env)
	if *decode {
		err = base64Decode(env, w, r, *garbage)
	} else {
		err = base64Encode(env, w, r, wrap)
	}
	if err != nil {
		var we *laWriteErr
		if errors.As(err, &we) || errors.Is(err, errLaCancelled) {
			w.Flush()
			return laWriteFailed(env, err)
		}
		w.Flush()
		if errors.Is(err, errBase64Invalid) {
			env.Errorf("invalid input")
		} else {
			env.Errorf("read error: %s", ErrText(err))
		}
		return 1
	}
	return laFinish(env, w, 0)
}

var errBase64Invalid = errors.New("invalid input")

func base64Encode(env *Env, w *bufio.Writer, r io.Reader, wrap int64) error {
	in := make([]byte, 3*16384)
	out := make([]byte, base64.StdEncoding.EncodedLen(len(in)))
	col := int64(0)
	for {
		if env.Ctx.Err() != nil {
			return errLaCancelled
		}
		n, err := io.ReadFull(r, in)
		if n > 0 {
			base64.StdEncoding.Encode(out, in[:n])
			p := out[:base64.StdEncoding.EncodedLen(n)]
			for len(p) > 0 {
				k := int64(len(p))
				if wrap > 0 && k > wrap-col {
					k = wrap - col
				}
				w.Write(p[:k])
				p = p[k:]
				col += k
				if wrap > 0 && col == wrap {
					w.WriteByte('\n')
					col = 0
				}
			}
			if _, werr := w.Write(nil); werr != nil {
				return &laWriteErr{werr}
			}
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return err
		}
	}
	if wrap > 0 && col > 0 {
		w.WriteByte('\n')
	}
	return nil
}

func base64Decode(env *Env, w *bufio.Writer, r io.Reader, garbage bool) error {
	in := make([]byte, laBufSize)
	var pend []byte // alphabet characters not yet decoded
	out := make([]byte, laBufSize)
	// flush decodes the complete 4-character groups of pend; a group
	// holding padding ends a run, and another may follow it.
	flush := func() error {
		for {
			m := len(pend) / 4 * 4
			if m == 0 {
				return nil
			}
			if i := bytes.IndexByte(pend[:m], '='); i >= 0 {
				m = (i/4 + 1) * 4
			}
			if need := base64.StdEncoding.DecodedLen(m); need > len(out) {
				out = make([]byte, need)
			}
			k, derr := base64.StdEncoding.Decode(out, pend[:m])
			if _, werr := w.Write(out[:k]); werr != nil {
				return &laWriteErr{werr}
			}
			if derr != nil {
				return errBase64Invalid
			}
			pend = append(pend[:0], pend[m:]...)
		}
	}
	// partial decodes an incomplete last group (as if padded) and fails.
	partial := func() error {
		if len(pend)%4 == 1 {
			pend = pend[:len(pend)-1]
		}
		for len(pend)%4 != 0 {
			pend = append(pend, '=')
		}
		if len(pend) > 0 {
			dec, _ := base64.StdEncoding.DecodeString(string(pend))
			if _, werr := w.Write(dec); werr != nil {
				return &laWriteErr{werr}
			}
		}
		return errBase64Invalid
	}
	for {
		if env.Ctx.Err() != nil {
			return errLaCancelled
		}
		n, err := r.Read(in)
		for _, c := range in[:n] {
			switch {
			case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '+', c == '/', c == '=':
				pend = append(pend, c)
			case c == '\n':
			case !garbage:
				if ferr := flush(); ferr != nil {
					return ferr
				}
				// GNU writes what the group before the bad byte holds.
				return partial()
			}
		}
		if ferr := flush(); ferr != nil {
			return ferr
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	if len(pend) == 0 {
		return nil
	}
	// A final group without its padding: decode what it holds, and fail.
	return partial()
}
