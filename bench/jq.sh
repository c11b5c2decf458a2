#!/usr/bin/env bash
# bench/jq.sh — jq on a ~50 MB JSON file: this tree's llmsh against another
# revision's (default: main), to measure what ordered objects cost.
#
# Builds both llmsh binaries (CGO_ENABLED=0), generates the file with llmsh's
# own jq (an array of 450,000 objects of 7 keys, one nested; deterministic),
# then times each filter in both, best of BENCH_RUNS, output to a file, and
# prints: filter, base s, this s, ratio (this / base).
#
# Environment:
#   BENCH_BASE  revision to compare with (default main)
#   BENCH_N     objects to generate (default 450000, ~50 MB)
#   BENCH_RUNS  runs per command, best kept (default 3)
#   BENCH_CLOCK wall (default) or cpu: user+system CPU seconds, steadier than
#               wall time on a machine that other work shares
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
base=${BENCH_BASE:-main}
n=${BENCH_N:-450000}
runs=${BENCH_RUNS:-3}
clock=${BENCH_CLOCK:-wall}
OUT=$(mktemp -d)
trap 'git -C "$repo" worktree remove --force "$OUT/base" >/dev/null 2>&1 || true; rm -rf "$OUT"' EXIT

cd "$repo"
CGO_ENABLED=0 go build -o "$OUT/new" ./cmd/llmsh
git worktree add --detach "$OUT/base" "$base" >/dev/null 2>&1
(cd "$OUT/base" && CGO_ENABLED=0 go build -o "$OUT/old" ./cmd/llmsh)

cd "$OUT"
"$OUT/new" -o "$OUT" -c "jq -nc '[range($n) | {id: ., name: \"user-\(.)\", region: ([\"Central\",\"East\",\"West\"][. % 3]), score: (. * 1.5), tags: [\"x\", \"y\"], meta: {z: ., a: true, m: \"mid\"}, ok: (. % 2 == 0)}]' > big.json"
printf 'file: %s bytes\n' "$(wc -c <big.json)"

best() { # best time of $runs runs of llmsh binary $1 with script $2
  local b="" t
  for _ in $(seq "$runs"); do
    if [ "$clock" = cpu ]; then
      t=$( { /usr/bin/time -f '%U %S' "$1" -i "$OUT" -o "$OUT" -c "$2" >/dev/null; } 2>&1 | tail -1 | awk '{print $1 + $2}')
    else
      local s e
      s=$(date +%s.%N)
      "$1" -i "$OUT" -o "$OUT" -c "$2" >/dev/null
      e=$(date +%s.%N)
      t=$(echo "$e - $s" | bc)
    fi
    if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ]; then b=$t; fi
  done
  printf '%.2f' "$b"
}

printf '%-40s %8s %8s %7s\n' command base this ratio
# FLAGS:FILTER (no single quotes in FILTER)
for spec in ':.' '-c:.' ':length' '-c:.[] | {region, id}' ':map(.score) | add' '-c:group_by(.region) | map(length)' '-c:map(to_entries | from_entries) | length'; do
  flags=${spec%%:*} filter=${spec#*:}
  cmd="jq $flags '$filter' big.json"
  o=$(best "$OUT/old" "$cmd > out.json")
  w=$(best "$OUT/new" "$cmd > out.json")
  printf '%-40s %8s %8s %7.2f\n' "$cmd" "$o" "$w" "$(echo "$w / $o" | bc -l)"
done
