package main

import "github.com/llmsh/llmsh/internal/vfsdproc"

// serverModeArg makes llmsh act as vfsd (the default way llmsh starts it).
const serverModeArg = vfsdproc.ServerModeArg
