// Package bzenc compresses to the bzip2 format as bzip2 1.0.8 does: the
// same run-length coding and block boundaries, the same Burrows-Wheeler
// order (any correct sort gives it, but for blocks whose rotations repeat),
// and the same choice and coding of Huffman tables, after the algorithm
// of libbzip2's bzlib.c, compress.c and huffman.c.
package bzenc

import (
	"io"
	"sync"
)

// Writer compresses what is written to it into a bzip2 stream.
type Writer struct {
	w         io.Writer
	level     int
	nblockMax int
	block     []byte
	inUse     [256]bool
	blockCRC  uint32
	combined  uint32
	inCh      int // the byte of the run being read, 256 for none
	inLen     int
	blockNo   int
	bits      bitWriter
	err       error
	closed    bool
}

// NewWriter compresses with blocks of level*100k bytes (1 to 9).
func NewWriter(w io.Writer, level int) *Writer {
	if level < 1 || level > 9 {
		level = 9
	}
	crcOnce.Do(makeCRCTable)
	z := &Writer{w: w, level: level, nblockMax: level*100000 - 19, inCh: 256}
	z.block = make([]byte, 0, z.nblockMax+20)
	z.newBlock()
	return z
}

func (z *Writer) newBlock() {
	z.block = z.block[:0]
	z.inUse = [256]bool{}
	z.blockCRC = 0xffffffff
	z.blockNo++
}

var errClosed error = constError("bzip2: write after close")

// Write compresses p.
func (z *Writer) Write(p []byte) (int, error) {
	if z.closed {
		return 0, errClosed
	}
	for i, c := range p {
		if z.err != nil {
			return i, z.err
		}
		z.addChar(c)
		if len(z.block) >= z.nblockMax {
			z.compressBlock(false)
			z.newBlock()
		}
	}
	return len(p), z.err
}

// addChar is bzlib's ADD_CHAR_TO_BLOCK: runs of 4 to 255 equal bytes go
// into the block as 4 bytes and a count.
func (z *Writer) addChar(c byte) {
	ch := int(c)
	switch {
	case ch != z.inCh && z.inLen == 1:
		z.putRun()
		z.inCh = ch
	case ch != z.inCh || z.inLen == 255:
		if z.inCh < 256 {
			z.putRun()
		}
		z.inCh, z.inLen = ch, 1
	default:
		z.inLen++
	}
}

// putRun adds the pending run to the block.
func (z *Writer) putRun() {
	ch := byte(z.inCh)
	for i := 0; i < z.inLen; i++ {
		z.blockCRC = z.blockCRC<<8 ^ crcTable[byte(z.blockCRC>>24)^ch]
	}
	z.inUse[ch] = true
	switch z.inLen {
	case 1:
		z.block = append(z.block, ch)
	case 2:
		z.block = append(z.block, ch, ch)
	case 3:
		z.block = append(z.block, ch, ch, ch)
	default:
		z.inUse[z.inLen-4] = true
		z.block = append(z.block, ch, ch, ch, ch, byte(z.inLen-4))
	}
}

// Close ends the stream; it does not close the underlying writer.
func (z *Writer) Close() error {
	if z.closed {
		return z.err
	}
	z.closed = true
	if z.inCh < 256 {
		z.putRun()
	}
	z.inCh, z.inLen = 256, 0
	z.compressBlock(true)
	return z.err
}

func (z *Writer) compressBlock(last bool) {
	n := len(z.block)
	var ptr []int32
	if n > 0 {
		z.blockCRC = ^z.blockCRC
		z.combined = (z.combined<<1 | z.combined>>31) ^ z.blockCRC
		ptr = sortRotations(z.block)
	}
	b := &z.bits
	if z.blockNo == 1 {
		b.put(8, 'B')
		b.put(8, 'Z')
		b.put(8, 'h')
		b.put(8, uint32('0'+z.level))
	}
	if n > 0 {
		b.put(24, 0x314159)
		b.put(24, 0x265359)
		b.put(32, z.blockCRC)
		b.put(1, 0)
		origPtr := 0
		for i, p := range ptr {
			if p == 0 {
				origPtr = i
				break
			}
		}
		b.put(24, uint32(origPtr))
		mtfv, freq, nInUse := z.mtfValues(ptr)
		sendMTFValues(b, mtfv, freq, nInUse, &z.inUse)
	}
	if last {
		b.put(24, 0x177245)
		b.put(24, 0x385090)
		b.put(32, z.combined)
		b.finish()
	}
	if _, err := z.w.Write(b.out); err != nil && z.err == nil {
		z.err = err
	}
	b.out = b.out[:0]
}

// mtfValues codes the block's last column by move-to-front, zero runs as
// RUNA/RUNB digits; it returns the values, their frequencies and the
// number of byte values in use.
func (z *Writer) mtfValues(ptr []int32) ([]uint16, []int, int) {
	var seqOf [256]byte
	nInUse := 0
	for i := 0; i < 256; i++ {
		if z.inUse[i] {
			seqOf[i] = byte(nInUse)
			nInUse++
		}
	}
	eob := nInUse + 1
	freq := make([]int, eob+1)
	var yy [256]byte
	for i := range nInUse {
		yy[i] = byte(i)
	}
	mtfv := make([]uint16, 0, len(ptr)+1)
	zPend := 0
	flushZeros := func() {
		if zPend == 0 {
			return
		}
		zPend--
		for {
			v := uint16(zPend & 1) // RUNB is 1, RUNA 0
			mtfv = append(mtfv, v)
			freq[v]++
			if zPend < 2 {
				break
			}
			zPend = (zPend - 2) / 2
		}
		zPend = 0
	}
	n := int32(len(z.block))
	for _, p := range ptr {
		j := p - 1
		if j < 0 {
			j += n
		}
		ll := seqOf[z.block[j]]
		if yy[0] == ll {
			zPend++
			continue
		}
		flushZeros()
		k := 1
		tmp := yy[1]
		yy[1] = yy[0]
		for ll != tmp {
			k++
			tmp, yy[k] = yy[k], tmp
		}
		yy[0] = tmp
		mtfv = append(mtfv, uint16(k+1))
		freq[k+1]++
	}
	flushZeros()
	mtfv = append(mtfv, uint16(eob))
	freq[eob]++
	return mtfv, freq, nInUse
}

// bitWriter writes bits the first one highest, as bzip2 does.
type bitWriter struct {
	buf  uint64
	live uint
	out  []byte
}

func (b *bitWriter) put(n uint, v uint32) {
	b.buf = b.buf<<n | uint64(v)&(1<<n-1)
	b.live += n
	for b.live >= 8 {
		b.out = append(b.out, byte(b.buf>>(b.live-8)))
		b.live -= 8
	}
}

func (b *bitWriter) finish() {
	if b.live > 0 {
		b.out = append(b.out, byte(b.buf<<(8-b.live)))
		b.live = 0
	}
	b.buf = 0
}

// crcTable is bzip2's CRC table, made by the first NewWriter (a table
// made in package init ran at every start of llmsh and of its vfsd).
var (
	crcTable [256]uint32
	crcOnce  sync.Once
)

func makeCRCTable() {
	t := &crcTable
	for i := range t {
		c := uint32(i) << 24
		for range 8 {
			if c&0x80000000 != 0 {
				c = c<<1 ^ 0x04c11db7
			} else {
				c <<= 1
			}
		}
		t[i] = c
	}
}
