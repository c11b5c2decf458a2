#!/usr/bin/env bash
# bench/load.sh [SESSIONS [SIZE]] — issue 7's load check: SESSIONS (default
# 50) llmsh sessions at once, each with its own vfsd, each streaming SIZE
# (default 20M) of its own input through vfsd (cat | sha256sum, sort |
# sha256sum, a copy to a real file read back by wc, a virtual file), then
# looking for the other sessions' virtual files. Prints the sessions that
# finished correctly, the wall time, peak RSS and descriptor counts; exits 1
# on any failure (wrong output, a virtual file seen by another session, a
# descriptor that leaked, a process left behind).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$repo"
go build -o "$tmp/llmsh" ./cmd/llmsh
go build -o "$tmp/load" ./bench/load
"$tmp/load" -llmsh "$tmp/llmsh" -sessions "${1:-50}" -size "${2:-20M}" -dir "$tmp/work" -v
