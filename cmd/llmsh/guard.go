package main

import "github.com/llmsh/llmsh/internal/memguard"

// memoryLimit is the heap size at which the memory guard of the llmsh
// command's session (llmsh.Options.MaxMemory) stops the script.
const memoryLimit = memguard.Default
