package builtins

import (
	"bufio"
	"encoding/base32"
	"encoding/base64"
	"errors"
	"io"
	"strconv"
	"sync"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var (
	_ = register(Builtin{Name: "basenc", Summary: "encode/decode data and print to standard output", Run: basencCmd})
	_ = register(Builtin{Name: "base32", Summary: "base32 encode/decode data and print to standard output", Run: func(env *Env) int {
		return bencRun(env, &bencBase32, "Base32 encode or decode FILE, or standard input, to standard output.", nil)
	}})
)

// bencTables fills the codecs' decoding tables, the first time a command
// of theirs runs: an init function of this file made every start fault
// in its page of the binary's text (and the 64 KiB around it).
var bencTables = sync.OnceFunc(func() {
	for _, c := range []*bencCodec{&bencBase64, &bencBase64URL, &bencBase32, &bencBase32Hex, &bencBase16, &bencBase2MSB, &bencBase2LSB, &bencZ85} {
		for i := range c.table {
			c.table[i] = -1
		}
		for i := 0; i < len(c.alphabet); i++ {
			c.table[c.alphabet[i]] = int8(i)
		}
	}
})

// bencCodec is one encoding of basenc, base64 and base32: an alphabet of
// 2^bits characters decoded in blocks of block characters, as gnulib's
// base64/base32 decoders and coreutils' basenc read them.
type bencCodec struct {
	name     string
	bits     int    // bits per character
	block    int    // characters per decoding block
	inChunk  int    // input bytes that encode to whole blocks
	alphabet string // the characters, by value
	// shortFinal: a short last block still yields the bytes its
	// characters complete (base64, base16); base32 yields none.
	shortFinal bool
	encode     func(dst, src []byte) []byte
	table      [256]int8 // value of each byte, -1 none (filled by init)
	// z85: blocks are base-85 numbers, not bit groups; each chunk read
	// for encoding must be a whole number of 4-byte groups.
	z85 bool
}

var (
	bencBase64 = bencCodec{name: "base64", bits: 6, block: 4, inChunk: 3 * 16384, shortFinal: true,
		alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
		encode:   func(dst, src []byte) []byte { return base64.StdEncoding.AppendEncode(dst, src) }}
	bencBase64URL = bencCodec{name: "base64url", bits: 6, block: 4, inChunk: 3 * 16384, shortFinal: true,
		alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
		encode:   func(dst, src []byte) []byte { return base64.URLEncoding.AppendEncode(dst, src) }}
	bencBase32 = bencCodec{name: "base32", bits: 5, block: 8, inChunk: 5 * 8192,
		alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
		encode:   func(dst, src []byte) []byte { return base32.StdEncoding.AppendEncode(dst, src) }}
	bencBase32Hex = bencCodec{name: "base32hex", bits: 5, block: 8, inChunk: 5 * 8192,
		alphabet: "0123456789ABCDEFGHIJKLMNOPQRSTUV",
		encode:   func(dst, src []byte) []byte { return base32.HexEncoding.AppendEncode(dst, src) }}
	bencBase16 = bencCodec{name: "base16", bits: 4, block: 2, inChunk: 32768, shortFinal: true,
		alphabet: "0123456789ABCDEF",
		encode: func(dst, src []byte) []byte {
			for _, c := range src {
				dst = append(dst, "0123456789ABCDEF"[c>>4], "0123456789ABCDEF"[c&15])
			}
			return dst
		}}
	bencBase2MSB = bencCodec{name: "base2msbf", bits: 1, block: 8, inChunk: 8192, shortFinal: true,
		alphabet: "01", encode: func(dst, src []byte) []byte { return bencBits(dst, src, true) }}
	bencBase2LSB = bencCodec{name: "base2lsbf", bits: 1, block: 8, inChunk: 8192, shortFinal: true,
		alphabet: "01", encode: func(dst, src []byte) []byte { return bencBits(dst, src, false) }}
	// ZeroMQ's Z85 (RFC 32/Z85); coreutils encodes it in 30720-byte reads.
	bencZ85 = bencCodec{name: "z85", block: 5, inChunk: 30720, z85: true,
		alphabet: bencZ85Alphabet, encode: bencZ85Encode}
)

const bencZ85Alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"

// bencZ85Encode appends the Z85 text of src, whose length is a multiple
// of 4: each big-endian 32-bit group as five base-85 digits.
func bencZ85Encode(dst, src []byte) []byte {
	for ; len(src) >= 4; src = src[4:] {
		v := uint32(src[0])<<24 | uint32(src[1])<<16 | uint32(src[2])<<8 | uint32(src[3])
		var d [5]byte
		for i := 4; i >= 0; i-- {
			d[i] = bencZ85Alphabet[v%85]
			v /= 85
		}
		dst = append(dst, d[:]...)
	}
	return dst
}

// bencZ85Block appends the four bytes of one Z85 block; a character
// outside the alphabet or a value above 2^32-1 makes it invalid.
func (c *bencCodec) bencZ85Block(out, blk []byte) ([]byte, bool) {
	if len(blk) < c.block {
		return out, false
	}
	v := uint64(0)
	for _, ch := range blk {
		d := c.table[ch]
		if d < 0 {
			return out, false
		}
		v = v*85 + uint64(d)
	}
	if v > 1<<32-1 {
		return out, false
	}
	return append(out, byte(v>>24), byte(v>>16), byte(v>>8), byte(v)), true
}

func bencBits(dst, src []byte, msb bool) []byte {
	for _, c := range src {
		for i := 0; i < 8; i++ {
			bit := c >> i & 1
			if msb {
				bit = c >> (7 - i) & 1
			}
			dst = append(dst, '0'+bit)
		}
	}
	return dst
}

func basencCmd(env *Env) int {
	var codec *bencCodec
	set := func(c *bencCodec) func(string, bool) error {
		return func(string, bool) error { codec = c; return nil }
	}
	return bencRun(env, nil, "basenc encode or decode FILE, or standard input, to standard output.", func(f *Flags) **bencCodec {
		f.Func(0, "base64", NoArg, "", "same as 'base64' program (RFC4648 section 4)", set(&bencBase64))
		f.Func(0, "base64url", NoArg, "", "file- and url-safe base64 (RFC4648 section 5)", set(&bencBase64URL))
		f.Func(0, "base32", NoArg, "", "same as 'base32' program (RFC4648 section 6)", set(&bencBase32))
		f.Func(0, "base32hex", NoArg, "", "extended hex alphabet base32 (RFC4648 section 7)", set(&bencBase32Hex))
		f.Func(0, "base16", NoArg, "", "hex encoding (RFC4648 section 8)", set(&bencBase16))
		f.Func(0, "base2msbf", NoArg, "", "bit string with most significant bit (msb) first", set(&bencBase2MSB))
		f.Func(0, "base2lsbf", NoArg, "", "bit string with least significant bit (lsb) first", set(&bencBase2LSB))
		f.Func(0, "z85", NoArg, "", "ascii85-like encoding (ZeroMQ spec:32/Z85);\nwhen encoding, input length must be a multiple of 4;\nwhen decoding, input length must be a multiple of 5", set(&bencZ85))
		return &codec
	})
}

// bencRun is the body of base64, base32 and basenc: codec is the fixed
// encoding, or nil when options (added by more) choose it.
func bencRun(env *Env, codec *bencCodec, summary string, more func(f *Flags) **bencCodec) int {
	bencTables()
	f := NewFlags(env, summary+"\n\nWith no FILE, or when FILE is -, read standard input.", "[OPTION]... [FILE]")
	var chosen **bencCodec
	if more != nil {
		chosen = more(f)
	}
	decode := f.Bool('d', "decode", "decode data")
	garbage := f.Bool('i', "ignore-garbage", "when decoding, ignore non-alphabet characters")
	wrap := int64(76)
	f.Func('w', "wrap", RequiredArg, "COLS", "wrap encoded lines after COLS character (default 76).\n                          Use 0 to disable line wrapping", func(v string, _ bool) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return errors.New("invalid wrap size: " + env.Quote(v))
		}
		wrap = n
		return nil
	})
	version := versionOption(f)
	f.Epilog = "When decoding, the input may contain newlines in addition to the bytes of\n" +
		"the formal alphabet.  Use --ignore-garbage to attempt to recover\n" +
		"from any other non-alphabet bytes in the encoded stream."
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	if chosen != nil {
		if codec = *chosen; codec == nil {
			return f.Fail(&UsageError{"missing encoding type"}, 1)
		}
	}
	if len(files) > 1 {
		return f.Fail(&UsageError{"extra operand " + env.Quote(files[1])}, 1)
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
	w := stdoutWriter(env)
	if *decode {
		err = codec.decodeStream(env, w, r, *garbage)
	} else {
		err = codec.encodeStream(env, w, r, wrap)
	}
	if err != nil {
		w.Flush()
		var we gnu.WriteError
		if errors.As(err, &we) || errors.Is(err, gnu.ErrCancelled) {
			return writeFailed(env, err)
		}
		if errors.Is(err, errBencZ85Length) {
			env.Errorf("invalid input (length must be multiple of 4 characters)")
		} else if errors.Is(err, errBencInvalid) {
			env.Errorf("invalid input")
		} else {
			env.Errorf("read error: %s", ErrText(err))
		}
		return 1
	}
	return finishOutput(env, w, 0)
}

var (
	errBencInvalid   = errors.New("invalid input")
	errBencZ85Length = errors.New("z85 input length")
)

func (c *bencCodec) encodeStream(env *Env, w *bufio.Writer, r io.Reader, wrap int64) error {
	in := make([]byte, c.inChunk)
	var out []byte
	col := int64(0)
	for {
		if env.Ctx.Err() != nil {
			return gnu.ErrCancelled
		}
		n, err := io.ReadFull(r, in)
		if c.z85 && n%4 != 0 {
			return errBencZ85Length
		}
		if n > 0 {
			out = c.encode(out[:0], in[:n])
			p := out
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
				return gnu.WriteError{Err: werr}
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

// decodeStream decodes r in blocks of c.block characters, newlines (and
// with garbage every byte outside the alphabet and '=') left out.
func (c *bencCodec) decodeStream(env *Env, w *bufio.Writer, r io.Reader, garbage bool) error {
	in := make([]byte, ioBufSize)
	blk := make([]byte, 0, c.block)
	var out []byte
	for {
		if env.Ctx.Err() != nil {
			return gnu.ErrCancelled
		}
		n, err := r.Read(in)
		out = out[:0]
		for _, ch := range in[:n] {
			if ch == '\n' || garbage && ch != '=' && c.table[ch] < 0 {
				continue
			}
			blk = append(blk, ch)
			if len(blk) == c.block {
				var ok bool
				out, ok = c.decodeBlock(out, blk)
				if !ok {
					w.Write(out)
					return errBencInvalid
				}
				blk = blk[:0]
			}
		}
		if _, werr := w.Write(out); werr != nil {
			return gnu.WriteError{Err: werr}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	if len(blk) == 0 {
		return nil
	}
	if c.shortFinal {
		out, _ = c.decodeBlock(out[:0], blk)
		w.Write(out)
	}
	return errBencInvalid
}

// decodeBlock appends the bytes of one block: each byte as soon as its
// characters are read, as gnulib's decode_4 and decode_8 do, so a bad
// character keeps the bytes before it. '=' may start the padding only
// where the characters before it make whole bytes, and must then fill
// the block.
func (c *bencCodec) decodeBlock(out, blk []byte) ([]byte, bool) {
	if c.z85 {
		return c.bencZ85Block(out, blk)
	}
	acc, nbits := uint(0), 0
	for i, ch := range blk {
		if ch == '=' && c.bits > 4 {
			if i < 2 || (i*c.bits)%8 >= c.bits || len(blk) < c.block {
				return out, false
			}
			for _, p := range blk[i:] {
				if p != '=' {
					return out, false
				}
			}
			return out, true
		}
		v := c.table[ch]
		if v < 0 {
			return out, false
		}
		acc = acc<<c.bits | uint(v)
		nbits += c.bits
		if nbits >= 8 {
			nbits -= 8
			b := byte(acc >> nbits)
			if c.name == "base2lsbf" {
				b = bencReverse(b)
			}
			out = append(out, b)
			acc &= 1<<nbits - 1
		}
	}
	return out, len(blk) == c.block
}

func bencReverse(b byte) byte {
	var r byte
	for i := 0; i < 8; i++ {
		r = r<<1 | b>>i&1
	}
	return r
}
