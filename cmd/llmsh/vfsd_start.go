package main

import "github.com/llmsh/llmsh/internal/vfsdproc"

// serverModeArg makes llmsh act as vfsd (the default way llmsh starts it).
const serverModeArg = vfsdproc.ServerModeArg

// session is a running vfsd and its client.
type session = vfsdproc.Proc

// startVfsd starts vfsd: llmsh itself in server mode, or the vfsd binary
// at vfsdPath.
func startVfsd(vfsdPath string, cfg vfsdproc.Config) (*session, error) {
	cfg.Path = vfsdPath
	return vfsdproc.Start(cfg)
}
