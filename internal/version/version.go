// Package version holds llmsh's version number, which every command
// llmsh ships (llmsh, vfsd, and the builtins' --version) prints.
package version

// Number is llmsh's version.
const Number = "0.1.0"
