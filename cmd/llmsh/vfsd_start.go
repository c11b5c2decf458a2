package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/llmsh/llmsh/vfsclient"
)

// serverModeArg makes llmsh act as vfsd (the default way llmsh starts it).
const serverModeArg = "__vfsd"

// session is a running vfsd and its client.
type session struct {
	client *vfsclient.Client
	cmd    *exec.Cmd
}

// startVfsd starts vfsd (llmsh itself in server mode, or the binary at
// vfsdPath) over a pipe pair, with an empty environment. This file is the
// only place llmsh uses os/exec.
func startVfsd(vfsdPath string, args []string) (*session, error) {
	prog, argv := vfsdPath, args
	if prog == "" {
		self, err := os.Executable()
		if err != nil {
			return nil, err
		}
		prog, argv = self, append([]string{serverModeArg}, args...)
	}
	cmd := exec.Command(prog, argv...)
	cmd.Env = []string{}
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot start vfsd: %w", err)
	}
	return &session{client: vfsclient.New(out, in), cmd: cmd}, nil
}

// attachVfsd uses a vfsd that the parent runs, on inherited descriptors.
func attachVfsd(rfd, wfd uintptr) *session {
	r := os.NewFile(rfd, "vfsd-r")
	w := os.NewFile(wfd, "vfsd-w")
	return &session{client: vfsclient.New(r, w)}
}

// close ends the session and waits for vfsd.
func (s *session) close() {
	s.client.Close()
	if s.cmd != nil {
		s.cmd.Wait()
	}
}

var _ io.Closer = (*os.File)(nil)
