// Package gzdeflate compresses as GNU gzip (1.12) does: for each level 1
// to 9 it makes the same deflate stream, bit for bit, so that output that
// scripts check (sizes, checksums of "gzip -n" or of stdin) is GNU's. It
// is written after the algorithm of gzip's deflate.c and trees.c: a 64 KiB
// sliding window, hash chains of 3-byte strings, lazy matching from level
// 4, and blocks ended by the same heuristics and coded with whichever of
// stored, static or dynamic trees is shortest.
package gzdeflate

import (
	"encoding/binary"
	"hash/crc32"
	"io"
)

const (
	wsize        = 0x8000
	wmask        = wsize - 1
	windowSize   = 2 * wsize
	hashBits     = 15
	hashSize     = 1 << hashBits
	hashMask     = hashSize - 1
	minMatch     = 3
	maxMatch     = 258
	hShift       = (hashBits + minMatch - 1) / minMatch
	minLookahead = maxMatch + minMatch + 1
	maxDist      = wsize - minLookahead
	tooFar       = 4096
)

// config is one level's row of gzip's configuration table.
type config struct{ good, lazy, nice, chain int }

var configTable = [10]config{
	{0, 0, 0, 0}, {4, 4, 8, 4}, {4, 5, 16, 8}, {4, 6, 32, 32},
	{4, 4, 16, 16}, {8, 16, 32, 32}, {8, 16, 128, 128}, {8, 32, 128, 256},
	{32, 128, 258, 1024}, {32, 258, 258, 4096},
}

// compressor is the state of one compression: the window and hash chains
// of deflate.c and the block being built (trees).
type compressor struct {
	r      io.Reader
	rerr   error
	crc    uint32
	insize uint32

	// 2 bytes of slack: gzip may hash up to 2 bytes past the data's end.
	window                [windowSize + 2]byte
	prev                  [wsize]uint16
	head                  [hashSize]uint16
	insH                  uint32
	blockStart            int // may go negative once the window slides
	strstart, matchStart  int
	lookahead, prevLength int
	eofile                bool
	level                 int
	good, maxLazy, nice   int
	maxChain              int
	trees
}

// Compressor compresses one file after another as one gzip process does:
// the window keeps the last file's bytes, which may decide between equal
// matches at the end of the next one.
type Compressor struct{ c *compressor }

// Compress writes to w one gzip member holding r's bytes as GNU gzip
// -level writes it (level 1 to 9): name, if not "", and mtime in the
// header, the deflate stream, the CRC and the size. It returns the bytes
// read from r and the first error of reading or writing.
func Compress(w io.Writer, r io.Reader, level int, name string, mtime uint32) (int64, error) {
	var z Compressor
	return z.Compress(w, r, level, name, mtime)
}

// Compress is the package's Compress, with z's window.
func (z *Compressor) Compress(w io.Writer, r io.Reader, level int, name string, mtime uint32) (int64, error) {
	if level < 1 || level > 9 {
		level = 6
	}
	if z.c == nil {
		z.c = &compressor{}
		z.c.trees.init()
	}
	c := z.c
	c.r, c.rerr, c.crc, c.insize, c.level = r, nil, 0, 0, level
	clear(c.head[:])
	c.blockStart, c.strstart, c.lookahead, c.eofile = 0, 0, 0, false
	c.out, c.werr, c.buf, c.bitBuf, c.bitCount = w, nil, c.buf[:0], 0, 0
	c.initBlock()
	defer func() { c.r, c.out = nil, nil }()
	hdr := []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3}
	if name != "" {
		hdr[3] = 8
	}
	binary.LittleEndian.PutUint32(hdr[4:], mtime)
	c.lmInit()
	switch level {
	case 1:
		hdr[8] = 4
	case 9:
		hdr[8] = 2
	}
	c.buf = append(c.buf, hdr...)
	if name != "" {
		c.buf = append(append(c.buf, name...), 0)
	}
	if level <= 3 {
		c.deflateFast()
	} else {
		c.deflateLazy()
	}
	c.buf = binary.LittleEndian.AppendUint32(c.buf, c.crc)
	c.buf = binary.LittleEndian.AppendUint32(c.buf, c.insize)
	c.flushOut()
	if c.rerr != nil {
		return int64(c.insize), c.rerr
	}
	return int64(c.insize), c.werr
}

// readBuf fills p as gzip's reads of a regular file do (all of it but at
// the end of the input) and returns how much it read.
func (c *compressor) readBuf(p []byte) int {
	if c.rerr != nil || c.werr != nil {
		return 0
	}
	n, err := io.ReadFull(c.r, p)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		c.rerr = err
	}
	c.crc = crc32.Update(c.crc, crc32.IEEETable, p[:n])
	c.insize += uint32(n)
	return n
}

func (c *compressor) lmInit() {
	cfg := configTable[c.level]
	c.good, c.maxLazy, c.nice, c.maxChain = cfg.good, cfg.lazy, cfg.nice, cfg.chain
	c.lookahead = c.readBuf(c.window[:windowSize])
	if c.lookahead == 0 {
		c.eofile = true
		return
	}
	for c.lookahead < minLookahead && !c.eofile {
		c.fillWindow()
	}
	c.insH = 0
	for j := 0; j < minMatch-1; j++ {
		c.insH = ((c.insH << hShift) ^ uint32(c.window[j])) & hashMask
	}
}

// insertString puts the string at s in its hash chain and returns the
// chain's previous head.
func (c *compressor) insertString(s int) int {
	c.insH = ((c.insH << hShift) ^ uint32(c.window[s+minMatch-1])) & hashMask
	h := c.head[c.insH]
	c.prev[s&wmask] = h
	c.head[c.insH] = uint16(s)
	return int(h)
}

// longestMatch is the longest match, longer than prevLength, of the
// string at strstart in the chain from cur; it sets matchStart.
func (c *compressor) longestMatch(cur int) int {
	chain := c.maxChain
	scan, best := c.strstart, c.prevLength
	limit := 0
	if c.strstart > maxDist {
		limit = c.strstart - maxDist
	}
	if c.prevLength >= c.good {
		chain >>= 2
	}
	w := c.window[:]
	for {
		m := cur
		if w[m+best] == w[scan+best] && w[m+best-1] == w[scan+best-1] &&
			w[m] == w[scan] && w[m+1] == w[scan+1] {
			// The third bytes agree as the hashes do (gzip does not
			// compare them).
			n := minMatch
			for n < maxMatch && w[scan+n] == w[m+n] {
				n++
			}
			if n > best {
				c.matchStart = cur
				best = n
				if n >= c.nice {
					break
				}
			}
		}
		cur = int(c.prev[cur&wmask])
		if cur <= limit {
			break
		}
		if chain--; chain == 0 {
			break
		}
	}
	return best
}

// fillWindow reads more input, sliding the window down by wsize first
// when the string is in its upper part.
func (c *compressor) fillWindow() {
	more := windowSize - c.lookahead - c.strstart
	if c.strstart >= wsize+maxDist {
		copy(c.window[:wsize], c.window[wsize:windowSize])
		c.matchStart -= wsize
		c.strstart -= wsize
		c.blockStart -= wsize
		for n, m := range c.head {
			c.head[n] = slide(m)
		}
		for n, m := range c.prev {
			c.prev[n] = slide(m)
		}
		more += wsize
	}
	if !c.eofile {
		at := c.strstart + c.lookahead
		if n := c.readBuf(c.window[at : at+more]); n == 0 {
			c.eofile = true
			// As gzip: no stale bytes in the hashes of the last strings.
			clear(c.window[at : at+minMatch-1])
		} else {
			c.lookahead += n
		}
	}
}

func slide(m uint16) uint16 {
	if m >= wsize {
		return m - wsize
	}
	return 0
}

// flushBlock ends the block at strstart.
func (c *compressor) flushBlock(eof bool) {
	var buf []byte
	if c.blockStart >= 0 {
		buf = c.window[c.blockStart:c.strstart]
	}
	c.trees.flushBlock(buf, c.strstart-c.blockStart, eof)
	c.flushOut()
}

// tally records a literal (dist 0) or a match and says whether the block
// should end here.
func (c *compressor) tally(dist, lc int) bool {
	return c.trees.tally(dist, lc, c.level, c.strstart-c.blockStart)
}

// deflateFast is levels 1 to 3: no lazy matching, and strings inside long
// matches are not hashed.
func (c *compressor) deflateFast() {
	c.prevLength = minMatch - 1
	matchLength := 0
	for c.lookahead != 0 {
		hashHead := c.insertString(c.strstart)
		if hashHead != 0 && c.strstart-hashHead <= maxDist && c.strstart <= windowSize-minLookahead {
			matchLength = min(c.longestMatch(hashHead), c.lookahead)
		}
		var flush bool
		if matchLength >= minMatch {
			flush = c.tally(c.strstart-c.matchStart, matchLength-minMatch)
			c.lookahead -= matchLength
			if matchLength <= c.maxLazy {
				matchLength--
				for {
					c.strstart++
					c.insertString(c.strstart)
					if matchLength--; matchLength == 0 {
						break
					}
				}
				c.strstart++
			} else {
				c.strstart += matchLength
				matchLength = 0
				c.insH = uint32(c.window[c.strstart])
				c.insH = ((c.insH << hShift) ^ uint32(c.window[c.strstart+1])) & hashMask
			}
		} else {
			flush = c.tally(0, int(c.window[c.strstart]))
			c.lookahead--
			c.strstart++
		}
		if flush {
			c.flushBlock(false)
			c.blockStart = c.strstart
		}
		for c.lookahead < minLookahead && !c.eofile {
			c.fillWindow()
		}
	}
	c.flushBlock(true)
}

// deflateLazy is levels 4 to 9: a match is taken only if the next
// position has no longer one.
func (c *compressor) deflateLazy() {
	matchAvailable := false
	matchLength := minMatch - 1
	for c.lookahead != 0 {
		hashHead := c.insertString(c.strstart)
		c.prevLength = matchLength
		prevMatch := c.matchStart
		matchLength = minMatch - 1
		if hashHead != 0 && c.prevLength < c.maxLazy && c.strstart-hashHead <= maxDist &&
			c.strstart <= windowSize-minLookahead {
			matchLength = min(c.longestMatch(hashHead), c.lookahead)
			if matchLength == minMatch && c.strstart-c.matchStart > tooFar {
				matchLength--
			}
		}
		switch {
		case c.prevLength >= minMatch && matchLength <= c.prevLength:
			flush := c.tally(c.strstart-1-prevMatch, c.prevLength-minMatch)
			c.lookahead -= c.prevLength - 1
			for n := c.prevLength - 2; n != 0; n-- {
				c.strstart++
				c.insertString(c.strstart)
			}
			matchAvailable = false
			matchLength = minMatch - 1
			c.strstart++
			if flush {
				c.flushBlock(false)
				c.blockStart = c.strstart
			}
		case matchAvailable:
			if c.tally(0, int(c.window[c.strstart-1])) {
				c.flushBlock(false)
				c.blockStart = c.strstart
			}
			c.strstart++
			c.lookahead--
		default:
			matchAvailable = true
			c.strstart++
			c.lookahead--
		}
		for c.lookahead < minLookahead && !c.eofile {
			c.fillWindow()
		}
	}
	if matchAvailable {
		c.tally(0, int(c.window[c.strstart-1]))
	}
	c.flushBlock(true)
}

// Writer is an io.WriteCloser that compresses what is written to it as
// a gzip member without name or time (GNU gzip reading a pipe, as GNU
// tar -z runs it). The compression runs in a goroutine of its own,
// which Close or Abort ends.
type Writer struct {
	pw   *io.PipeWriter
	done chan error
}

// NewWriter starts a Writer to w at level (1 to 9).
func NewWriter(w io.Writer, level int) *Writer {
	pr, pw := io.Pipe()
	z := &Writer{pw: pw, done: make(chan error, 1)}
	go func() {
		_, err := Compress(w, pr, level, "", 0)
		if err == nil {
			err = io.ErrClosedPipe // for writes after the end
		}
		pr.CloseWithError(err)
		if err == io.ErrClosedPipe {
			err = nil
		}
		z.done <- err
	}()
	return z
}

// Write passes p to the compressor.
func (z *Writer) Write(p []byte) (int, error) { return z.pw.Write(p) }

// Close ends the input and waits for the compressed stream's end.
func (z *Writer) Close() error {
	z.pw.Close()
	return <-z.done
}

// Abort stops the compressor without finishing the stream.
func (z *Writer) Abort() {
	z.pw.CloseWithError(errAborted)
	<-z.done
}

var errAborted error = constError("gzip: aborted")
