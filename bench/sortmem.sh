#!/usr/bin/env bash
# bench/sortmem.sh — sort's peak RSS and time, GNU sort (LC_ALL=C) against
# llmsh, side by side: one `/usr/bin/time -f '%M %e'` run of each per row
# (%M: the larger of llmsh and its vfsd), outputs compared with cmp.
#
# Environment:
#   BENCH_DIR    make the temp dir under this directory (default: mktemp -d)
#   BENCH_LINES  lines to generate (default 1000000)
#   LLMSH        use this llmsh binary instead of building one
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
lines=${BENCH_LINES:-1000000}
if [ -n "${BENCH_DIR:-}" ]; then
  mkdir -p "$BENCH_DIR"
  OUT=$(mktemp -d "$BENCH_DIR/llmsh-sortmem.XXXXXX")
else
  OUT=$(mktemp -d)
fi
trap 'rm -rf "$OUT"' EXIT

cd "$repo"
go build -o "$OUT/gen" ./bench/gen
llmsh=${LLMSH:-}
if [ -z "$llmsh" ]; then
  CGO_ENABLED=0 go build -o "$OUT/llmsh" ./cmd/llmsh
  llmsh=$OUT/llmsh
fi
data=$OUT/data T=$OUT/t
mkdir "$data" "$T"
"$OUT/gen" -lines "$lines" >"$data/text.csv"
LC_ALL=C cut -d, -f3 "$data/text.csv" >"$data/nums.txt"
LC_ALL=C cut -d, -f2 "$data/text.csv" >"$data/words.txt"
cd "$data"

row() { # CMD (T is the -T directory)
  local c=${1//T\//$T/} g l same
  c=${c// T / $T }
  g=$( { LC_ALL=C /usr/bin/time -f '%M %e' bash -c "$c" >"$OUT/g.out"; } 2>&1 | tail -n 1)
  l=$( { /usr/bin/time -f '%M %e' "$llmsh" -i . -o "$T" -c "$c" >"$OUT/l.out"; } 2>&1 | tail -n 1)
  same=$(cmp -s "$OUT/g.out" "$OUT/l.out" && echo same || echo DIFFERENT)
  printf '%-48s GNU %7s KB %5s s   llmsh %7s KB %5s s   %s\n' "$1" ${g% *} ${g#* } ${l% *} ${l#* } "$same"
}
row "sort text.csv"
row "sort words.txt"
row "sort -n nums.txt"
row "sort words.txt | uniq -c | sort -rn | head"
row "sort -S 10M --parallel=2 -T T words.txt"
row "sort -S 10M words.txt"
row "sort -S 10M -n -T T nums.txt"
row "sort -S 10M -T T text.csv"
row "sort -S 50M -T T text.csv"
row "true"
