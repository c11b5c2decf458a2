//go:build !linux

package vfsd

import (
	"io/fs"
	"os"

	"github.com/llmsh/llmsh/vfsproto"
)

// beneath resolves nothing where openat2 does not exist: every caller goes
// through the grant's os.Root.
type beneath struct{}

func openBeneath(*os.Root) beneath { return beneath{} }

func (b *beneath) close() {}

func (b *beneath) open(string, int) (int, error) { return -1, errFallback }

func (b *beneath) stat(string) (fs.FileInfo, error) { return nil, errFallback }

func openRawRead(*grant, string) (file, *vfsproto.Error, bool) { return nil, nil, false }

func openRawAppend(*grant, string, int) (file, *vfsproto.Error, bool) { return nil, nil, false }

func mkdirBeneath(*grant, string) (*vfsproto.Error, bool) { return nil, false }

func removeBeneath(*grant, string) (*vfsproto.Error, bool) { return nil, false }

func lstatIn(g *grant, rel string) (fs.FileInfo, error) { return g.root.Lstat(rel) }

func fstatInfo(int, string) (fs.FileInfo, error) { return nil, errFallback }

func listBeneath(*grant, string, bool) ([]vfsproto.Entry, *vfsproto.Error, bool) {
	return nil, nil, false
}

func listBeneathNames(*grant, string) ([]vfsproto.Entry, *vfsproto.Error, bool) {
	return nil, nil, false
}
