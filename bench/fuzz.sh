#!/usr/bin/env bash
# bench/fuzz.sh [DURATION] [PKG:FuzzName]... — runs Go fuzz targets one after
# the other, each for DURATION (a go test -fuzztime value, default 10m), at
# the lowest CPU priority and one worker (-parallel 1) so a shared machine is
# not starved. Prints, per target, the executions count, the time it ran and
# whether it found anything; a crasher is left where go test writes it
# (PKG/testdata/fuzz/FuzzName/...) and named in the summary. With no target
# arguments every fuzz target of the repository runs (the list below).
# Each target's full output is kept in $FUZZ_LOGDIR (default a temp dir).
# Exit status: 0 when no target found anything, 1 otherwise.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"

duration=${1:-10m}
[ $# -gt 0 ] && shift
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
	targets=(
		./vfsproto:FuzzReadFrame
		./vfsd:FuzzDispatch
		./vfsd:FuzzResolve
		./posixre:FuzzTranslate
		./builtins:FuzzSedParse
		./shell:FuzzRunner
		./vfsproto:FuzzAppendBase64
		./builtins:FuzzBc
		./builtins:FuzzNumfmt
		./builtins:FuzzXxd
		./builtins:FuzzHexdumpFormat
		./builtins:FuzzFindArgs
		./builtins:FuzzXargsInput
	)
fi
logdir=${FUZZ_LOGDIR:-$(mktemp -d)}
mkdir -p "$logdir"

printf '%-32s %12s %10s %9s  %s\n' TARGET EXECS FUZZED WALL RESULT
found=0
for t in "${targets[@]}"; do
	pkg=${t%%:*}
	name=${t##*:}
	log="$logdir/$name.log"
	start=$(date +%s)
	nice -n 19 go test -run '^$' -fuzz "^${name}\$" -fuzztime "$duration" -parallel 1 "$pkg" >"$log" 2>&1
	rc=$?
	secs=$(($(date +%s) - start))
	# The last progress line carries the cumulative count:
	# "fuzz: elapsed: 10m0s, execs: 123456 (205/sec), new interesting: ...".
	execs=$(grep -o 'execs: [0-9]*' "$log" | tail -1 | awk '{print $2}')
	fuzzed=$(grep -o 'elapsed: [0-9hms.]*' "$log" | tail -1 | awk '{print $2}')
	if [ $rc -eq 0 ] && grep -q '^PASS' "$log"; then
		result="nothing found"
	else
		found=1
		crasher=$(grep -o 'testdata/fuzz/[^ ]*' "$log" | tail -1)
		if [ -n "$crasher" ]; then
			result="FOUND: $pkg/$crasher (see $log)"
		else
			result="FAILED (exit $rc, see $log)"
		fi
	fi
	printf '%-32s %12s %10s %8ss  %s\n' "$pkg:$name" "${execs:-?}" "${fuzzed:-?}" "$secs" "$result"
done
echo "logs: $logdir"
exit $found
