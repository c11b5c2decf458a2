#!/usr/bin/env bash
# bench/vfs_stream.sh — issue 2's streaming figures across two real processes:
# MB/s reading SIZE bytes through vfsclient→vfsd into io.Discard and writing
# SIZE bytes back (three rounds, each interleaved with the same write made
# straight from the client process: the kernel's own cost), the CPU time
# of each side for the writes, and the peak RSS of each side. SIZE
# defaults to 1G; further arguments go to bench/vfsstream (-copy: write
# with io.Copy, -rounds N).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$repo"
go build -o "$tmp/vfsd" ./cmd/vfsd
go build -o "$tmp/vfsstream" ./bench/vfsstream
"$tmp/vfsstream" -vfsd "$tmp/vfsd" -size "${1:-1G}" -dir "$tmp" -rounds 3 "${@:2}"
