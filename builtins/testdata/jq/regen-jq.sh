#!/usr/bin/env bash
# regen-jq.sh — (re)produce golden.json, the expected outputs of
# builtins/jq_golden_test.go, with real jq 1.7.1.
#
# Debian 12 ships jq 1.6, which differs from 1.7 in key order of some
# builtins, number printing and messages; jq 1.7.1 itself comes from the npm
# package jq-wasm (jq 1.7.1 compiled to WebAssembly with Emscripten, run
# by Node.js). regen-jq.js loads it, makes it hand back stdout, stderr and
# the exit status of each run, and runs:
#   - every line of filters.txt: jq -c FLAGS FILTER with inputs/INPUT on
#     standard input (-n and no input for "-");
#   - every case of cli.json: jq ARGS with the files and stdin it names.
# Standard input is passed as the file /dev/stdin (jq-wasm has no other
# way); the driver writes <stdin> for it in messages, as jq reading its
# standard input does.
#
# Usage: builtins/testdata/jq/regen-jq.sh    (needs node and npm)
set -euo pipefail
dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
npm install --silent --no-audit --no-fund --prefix "$tmp" jq-wasm@1.0.1 >/dev/null
node "$dir/regen-jq.js" "$tmp/node_modules/jq-wasm" "$dir" >"$tmp/golden.json"
mv "$tmp/golden.json" "$dir/golden.json"
echo "wrote $dir/golden.json"
