package builtins

import (
	"errors"
	"io/fs"
	"syscall"
)

// ddConvs are the conversions of conv= that GNU dd's C_TWOBUFS copy
// makes beyond case and swab (session 31): a character set (ascii,
// ebcdic, ibm), fixed records (block, unblock, with cbs=), and the
// output's open (excl, nocreat).
type ddConvs struct {
	cbs            int64  // cbs=: the record size of block and unblock
	block, unblock bool   // also set by ebcdic and ibm, and ascii
	charset        string // "ascii", "ebcdic", "ibm" or ""
	charsets       int    // how many of them were named
	excl, nocreat  bool
	// twobufs is GNU's C_TWOBUFS: the input is converted and written in
	// obs blocks, even with bs=.
	twobufs bool
	table   *[256]byte // the bytes' translation, nil for none
	nl, sp  byte       // newline and space after the translation
}

// conv takes one conv= symbol of ddConvs; false for an unknown one.
func (c *ddConvs) conv(sym string) bool {
	switch sym {
	case "excl":
		c.excl = true
		return true
	case "nocreat":
		c.nocreat = true
		return true
	case "ascii":
		c.charset, c.unblock = sym, true
		c.charsets++
	case "ebcdic", "ibm":
		c.charset, c.block = sym, true
		c.charsets++
	case "block":
		c.block = true
	case "unblock":
		c.unblock = true
	default:
		return false
	}
	c.twobufs = true
	return true
}

// combined checks the conversions together once all operands are read,
// in GNU's order and words, and sets up the translation; false after an
// error.
func (c *ddConfig) combined(env *Env) bool {
	switch {
	case c.charsets > 1:
		env.Errorf("cannot combine any two of {ascii,ebcdic,ibm}")
	case c.block && c.unblock:
		env.Errorf("cannot combine block and unblock")
	case c.lcase && c.ucase:
		env.Errorf("cannot combine lcase and ucase")
	case c.excl && c.nocreat:
		env.Errorf("cannot combine excl and nocreat")
	default:
		c.translation()
		return true
	}
	return false
}

// translation builds the byte table that ascii, ucase or lcase, then
// ebcdic or ibm make, as GNU's apply_translations; case changes touch
// ASCII letters only (C's toupper of single bytes). Without cbs= there
// are no records: block and unblock are off.
func (c *ddConfig) translation() {
	if c.cbs == 0 {
		c.block, c.unblock = false, false
	}
	c.nl, c.sp = '\n', ' '
	if c.charset == "" && !c.ucase && !c.lcase {
		return
	}
	var t [256]byte
	for i := range t {
		t[i] = byte(i)
	}
	if c.charset == "ascii" {
		t = ddToASCII
	}
	for i, b := range t {
		switch {
		case c.ucase && b >= 'a' && b <= 'z':
			t[i] = b - 'a' + 'A'
		case c.lcase && b >= 'A' && b <= 'Z':
			t[i] = b - 'A' + 'a'
		}
	}
	out := map[string]*[256]byte{"ebcdic": &ddToEBCDIC, "ibm": &ddToIBM}[c.charset]
	if out != nil {
		for i, b := range t {
			t[i] = out[b]
		}
		c.nl, c.sp = out['\n'], out[' ']
	}
	c.table = &t
}

// padByte is what conv=sync pads a short block with: spaces for records.
func (c *ddConfig) padByte() byte {
	if c.block || c.unblock {
		return ' '
	}
	return 0
}

// outputMayOpen applies excl and nocreat to of= before it is opened.
func (c *ddConfig) outputMayOpen(env *Env) bool {
	if !c.excl && !c.nocreat {
		return true
	}
	_, err := env.FS.Lstat(env.Abs(c.out))
	switch {
	case c.excl && err == nil:
		err = syscall.EEXIST
	case c.nocreat && errors.Is(err, fs.ErrNotExist):
		err = syscall.ENOENT
	default:
		return true
	}
	env.Errorf("failed to open %s: %s", env.QuoteAF(c.out), ErrText(err))
	return false
}

// convert translates and swabs blk, then adds it to the pending output
// as records (block, unblock) or as it is; it returns a write error.
func (d *ddCopier) convert(blk []byte) error {
	if t := d.c.table; t != nil {
		blk = append([]byte(nil), blk...)
		for i, b := range blk {
			blk[i] = t[b]
		}
	}
	if d.c.swab {
		blk = ddSwab(blk, &d.saved)
	}
	return d.records(blk)
}

// pad adds blanks up to the record's end, writing full output blocks as
// they fill (a cbs of a gigabyte is not held in memory).
func (d *ddCopier) pad() error {
	for d.col < d.c.cbs {
		n := min(d.c.cbs-d.col, max(d.c.obs, 4096))
		for i := int64(0); i < n; i++ {
			d.pending = append(d.pending, d.c.sp)
		}
		d.col += n
		if err := d.flush(false); err != nil {
			return err
		}
		if err := d.env.Ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// records adds blk to the pending output: as GNU's copy_with_block (each
// line padded with spaces to cbs, or cut to it, its newline dropped),
// copy_with_unblock (each cbs bytes a line, its trailing spaces dropped)
// or copy_simple.
func (d *ddCopier) records(blk []byte) error {
	c := d.c
	switch {
	case c.block:
		for _, b := range blk {
			if b == c.nl {
				if err := d.pad(); err != nil {
					return err
				}
				d.col = 0
				continue
			}
			if d.col == c.cbs {
				d.truncated++
			} else if d.col < c.cbs {
				d.pending = append(d.pending, b)
			}
			d.col++
		}
	case c.unblock:
		for i := 0; i < len(blk); i++ {
			b := blk[i]
			d.col++
			switch {
			case d.col > c.cbs:
				d.col, d.spaces = 0, 0
				d.pending = append(d.pending, c.nl)
				i-- // the byte starts the next record
			case b == c.sp:
				d.spaces++
			default:
				for ; d.spaces > 0; d.spaces-- {
					d.pending = append(d.pending, c.sp)
				}
				d.pending = append(d.pending, b)
			}
		}
	default:
		d.pending = append(d.pending, blk...)
	}
	return nil
}

// convertEnd ends the conversions at the end of the input: conv=swab's
// odd last byte goes out as it is, a last line of block is padded, a
// last record of unblock ends with a newline.
func (d *ddCopier) convertEnd() error {
	if d.saved >= 0 {
		b := byte(d.saved)
		d.saved = -1
		if err := d.records([]byte{b}); err != nil {
			return err
		}
	}
	switch {
	case d.c.block && d.col > 0:
		return d.pad()
	case d.c.unblock && d.col > 0:
		d.pending = append(d.pending, d.c.nl)
	}
	return nil
}

// convFailed is a write error met while converting, or the run's end.
func (d *ddCopier) convFailed(err error) int {
	if d.env.Ctx.Err() != nil {
		return 1
	}
	return d.writeFailed(err)
}
