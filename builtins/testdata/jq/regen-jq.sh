#!/usr/bin/env bash
# regen-jq.sh — (re)produce golden.json, the recorded results of real jq
# 1.7.1 that builtins/jq_golden_test.go's TestJqDifferential compares llmsh's jq
# with where no real jq can be installed.
#
# install-jq.sh installs jq 1.7.1 from Debian's packages into the user's
# cache (or $LLMSH_JQ names a jq 1.7.1); TestJqDifferential with -jq.update runs
# every case through it and writes its stdout, stderr and exit status:
#   - every line of filters.txt: jq -c FLAGS FILTER with inputs/INPUT on
#     standard input (-n and no input for "-");
#   - every case of cli.json: jq ARGS with the files and stdin it names.
# It reports the cases where llmsh's jq differs, as the test does.
#
# Usage: builtins/testdata/jq/regen-jq.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
go test -count=1 -run '^TestJqDifferential$' . -args -jq.update ||
	echo "regen-jq.sh: llmsh's jq differs from real jq in the cases above"
echo "wrote builtins/testdata/jq/golden.json"
