// llmsh: $(<FILE) as bash runs it (see LLMSH.md).

package interp

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// catSubst writes to w the contents of the file of $(<FILE), read in the
// current shell. FILE is expanded as a redirection's word: brace
// expansion, word splitting and pathname expansion apply, and it must
// give one field ("ambiguous redirect" otherwise). A file that cannot be
// opened fails the substitution with status 1, as a command that fails
// in it would; the command that holds it still runs.
func (r *Runner) catSubst(ctx context.Context, w io.Writer, rd *syntax.Redirect) error {
	fields, err := expand.Fields(r.ecfg, rd.Word)
	if err != nil {
		return err
	}
	r.node = rd
	if len(fields) != 1 {
		var sb strings.Builder
		syntax.NewPrinter().Print(&sb, rd.Word)
		r.errf("%s%s: ambiguous redirect\n", r.errPrefix(), sb.String())
		r.lastExpandExit = exitStatus{code: 1}
		return nil
	}
	f, err := r.open(ctx, fields[0], os.O_RDONLY, 0, true)
	if err != nil {
		if _, ok := err.(*os.PathError); ok {
			r.lastExpandExit = exitStatus{code: 1}
			return nil
		}
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, stoppableReader{ctx, f})
	r.lastExpandExit = exitStatus{}
	if errors.Is(err, syscall.EISDIR) {
		return nil // bash: $(<DIR) is empty, silently, status 0
	}
	return err
}

// stoppableReader ends a copy once ctx is done: $(</dev/urandom) copied
// until the value's bound, 256 MiB (seconds), past the run's limit.
type stoppableReader struct {
	ctx context.Context
	r   io.Reader
}

func (s stoppableReader) Read(p []byte) (int, error) {
	if err := s.ctx.Err(); err != nil {
		return 0, err
	}
	return s.r.Read(p)
}
