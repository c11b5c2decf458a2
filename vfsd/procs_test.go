package vfsd

import (
	"bytes"
	"io"
	"runtime"
	"slices"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// framesReader returns one frame a Read, and records GOMAXPROCS at each
// Read after the first: when the server asks for the next frame, it has
// handled the ones before.
type framesReader struct {
	frames [][]byte
	reads  int
	procs  []int
}

func (r *framesReader) Read(p []byte) (int, error) {
	if r.reads++; r.reads > 1 {
		r.procs = append(r.procs, runtime.GOMAXPROCS(0))
	}
	if len(r.frames) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.frames[0])
	r.frames[0] = r.frames[0][n:]
	if len(r.frames[0]) == 0 {
		r.frames = r.frames[1:]
	}
	return n, nil
}

// llmsh's server mode starts with GOMAXPROCS=1 and Main goes back to
// the runtime's default once work runs beside the reader, not before:
// hello alone (llmsh -c true) and a lone request after it (which the
// reader runs itself) run on one P; two requests that come together do
// not.
func TestMainOneProcUntilWork(t *testing.T) {
	orig := runtime.GOMAXPROCS(0)
	runtime.SetDefaultGOMAXPROCS()
	def := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { OneProcUntilWork = false; runtime.GOMAXPROCS(orig) })
	if def == 1 {
		t.Skip("the runtime's default GOMAXPROCS is 1 here")
	}
	OneProcUntilWork = true
	dir := t.TempDir()
	frame := func(r vfsproto.Request) []byte { return script(t, r) }
	hello := frame(vfsproto.Request{ID: "h", Op: vfsproto.OpHello, Params: mustJSON(t, vfsproto.HelloParams{Version: 1})})
	stat := frame(vfsproto.Request{ID: "s", Op: vfsproto.OpStat, Params: mustJSON(t, vfsproto.PathParams{Path: dir})})
	for _, tc := range []struct {
		name   string
		frames [][]byte
		want   []int // GOMAXPROCS when the server asked for frame 2, 3, ...
	}{
		{"hello only", [][]byte{hello}, []int{1}},
		{"hello, then a lone request", [][]byte{hello, stat}, []int{1, 1}},
		{"hello, then two together", [][]byte{hello, slices.Concat(stat, stat)}, []int{1, def}},
	} {
		runtime.GOMAXPROCS(1)
		r := &framesReader{frames: tc.frames}
		var out, errOut bytes.Buffer
		if st := Main([]string{"-i", dir}, r, &out, &errOut, nil); st != 0 {
			t.Fatalf("%s: status %d: %s", tc.name, st, errOut.String())
		}
		if got := r.procs; !slices.Equal(got, tc.want) {
			t.Errorf("%s: GOMAXPROCS %v at each next frame, want %v", tc.name, got, tc.want)
		}
	}
}
