package shell

import (
	"io"
	"io/fs"
	"os"
	"runtime"
	"sync"
	"weak"

	"github.com/llmsh/llmsh/vfsclient"
)

// An input redirection (`cmd < FILE`) reaches a command as an *os.File:
// the interpreter copies any other reader into an os.Pipe. GNU tools
// fstat their standard input (wc sizes its columns by a regular file's
// size), so llmsh makes that pipe itself, for a file of vfsd, and keeps
// the file's description beside it: a builtin's stdin that is such a pipe
// answers Stat with the file's FileInfo.

// redirInfo is the description of the file behind a redirection's pipe;
// ready is closed once fi and err are set.
type redirInfo struct {
	ready chan struct{}
	fi    fs.FileInfo
	err   error
}

// redirInfos maps the read end of each such pipe (weakly: an entry goes
// when its pipe is collected) to its *redirInfo.
var redirInfos sync.Map

// redirPipe returns the read end of a pipe that f is copied into, and
// closes f when the copy ends (f's end, or the pipe's reader gone).
func redirPipe(f *vfsclient.File) (io.ReadWriteCloser, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		f.Close()
		return nil, err
	}
	info := &redirInfo{ready: make(chan struct{})}
	key := weak.Make(pr)
	redirInfos.Store(key, info)
	runtime.AddCleanup(pr, func(k weak.Pointer[os.File]) { redirInfos.Delete(k) }, key)
	go func() {
		info.fi, info.err = f.Stat()
		close(info.ready)
		io.Copy(pw, f)
		pw.Close()
		f.Close()
	}()
	return pr, nil
}

// redirStdin is a builtin's stdin that is a redirection's pipe: Stat
// describes the redirected file, as fstat(2) of bash's descriptor would.
type redirStdin struct {
	*os.File
	info *redirInfo
}

func (r redirStdin) Stat() (fs.FileInfo, error) {
	<-r.info.ready
	return r.info.fi, r.info.err
}

// withRedirStat returns stdin, as a redirStdin if it is a redirection's
// pipe.
func withRedirStat(stdin io.Reader) io.Reader {
	f, ok := stdin.(*os.File)
	if !ok {
		return stdin
	}
	if v, ok := redirInfos.Load(weak.Make(f)); ok {
		return redirStdin{File: f, info: v.(*redirInfo)}
	}
	return stdin
}
