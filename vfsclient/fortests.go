package vfsclient

import "github.com/llmsh/llmsh/vfsproto"

// ForTests is vfsclient's test-support surface: the internals that its
// own tests check directly. Those tests are an external package
// (vfsclient_test), so that a test run compiles vfsclient (and vfstest)
// once, not a second time with its tests; nothing else uses ForTests.
var ForTests forTests

type forTests struct{}

// StopShmAt makes c read with read_shm in order, as with a vfsd that does
// not offer read_shm_at, so that tests cover both ways of WriteTo.
func (forTests) StopShmAt(c *Client) { c.shmAt = false }

// ShmAt reports whether c reads with read_shm_at.
func (forTests) ShmAt(c *Client) bool { return c.shmAt }

// ShmW reports whether c writes with write_shm.
func (forTests) ShmW(c *Client) bool { return c.shmW }

// ReadEOF reports whether c took read_eof from hello's answer.
func (forTests) ReadEOF(c *Client) bool { return c.readEOF }

// TakeSlots takes up to n free slots of c's region, as a reader would.
func (forTests) TakeSlots(c *Client, n int) []int { return c.takeSlots(n) }

// PutSlots gives back slots of TakeSlots.
func (forTests) PutSlots(c *Client, s []int) { c.putSlots(s) }

// ShmFirst is the size of WriteTo's first read_shm.
func (forTests) ShmFirst() int { return shmFirst }

// AheadBytes is the bytes c's files have asked ahead of their readers.
func (forTests) AheadBytes(c *Client) int64 { return c.aheadBytes.Load() }

// BulkAheadBudget bounds AheadBytes.
func (forTests) BulkAheadBudget() int64 { return bulkAheadBudget }

// BulkReadChunk is the most a request of Read asks for.
func (forTests) BulkReadChunk() int { return bulkReadChunk }

// ReadChunk is the bytes f's next read_bulk request asks for.
func (forTests) ReadChunk(f *File) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.chunk
}

// Send sends a request of op with params as c's calls do (its answer is
// not read).
func (forTests) Send(c *Client, op string, params any) error {
	_, err := c.send(op, params)
	return err
}

// AppendHelloRequest appends the frame of hello's request, id, to dst.
func (forTests) AppendHelloRequest(dst []byte, id uint64, p vfsproto.HelloParams) ([]byte, error) {
	return appendHelloRequest(dst, id, p)
}

// ParseFastAnswer takes an answer frame apart without encoding/json, or
// declines it (ok false).
func (forTests) ParseFastAnswer(b []byte) (id uint64, a testAnswer, ok bool) {
	id, an, ok := parseFastAnswer(b)
	return id, testAnswer{an}, ok
}

// Answer is an answer of resp, as the reader hands it to a call.
func (forTests) Answer(resp vfsproto.Response) testAnswer { return testAnswer{answer{resp: resp}} }

// testAnswer is an answer as ForTests shows it.
type testAnswer struct{ a answer }

// Resp is the answer's response; Fast and Hello say whether the fast
// path took it and the hello result it decoded.
func (t testAnswer) Resp() vfsproto.Response      { return t.a.resp }
func (t testAnswer) Fast() bool                   { return t.a.fast }
func (t testAnswer) Hello() *vfsproto.HelloResult { return t.a.hello }

// Recv decodes the answer into out as a call receives it.
func (t testAnswer) Recv(out any) error {
	ch := make(chan answer, 1)
	ch <- t.a
	return recv(ch, out)
}

// DecodeStat, ParseHandleResult, DecodeList, DecodeWalk and DecodeFiles
// are the fast decoders of those results (ok false: left to
// encoding/json).
func (forTests) DecodeStat(b []byte) (vfsproto.StatResult, bool)         { return decodeStat(b) }
func (forTests) ParseHandleResult(b []byte) (int64, bool)                { return parseHandleResult(b) }
func (forTests) DecodeList(raw []byte) ([]vfsproto.Entry, bool)          { return decodeList(raw) }
func (forTests) DecodeWalk(raw []byte) (vfsproto.WalkResult, bool)       { return decodeWalk(raw) }
func (forTests) DecodeFiles(raw []byte) (vfsproto.ReadFilesResult, bool) { return decodeFiles(raw) }
