#!/usr/bin/env bash
# bench/text.sh — issue 4's speed table: llmsh builtins against GNU tools.
#
# Builds llmsh (static, CGO_ENABLED=0, as the README recommends) and
# bench/gen, generates a ~100 MB, ~1,000,000-line CSV-like
# file (bench/gen: deterministic), then times each command with the GNU tools
# (LC_ALL=C) and inside llmsh (llmsh -i DIR -c '...'), output to a file,
# best of 3 runs each, and prints: command, GNU s, llmsh s, ratio, target
# (2x for wc and fixed-string grep, 3x otherwise), PASS/FAIL, and whether the
# two outputs are the same (one extra run each, compared by md5).
#
# Environment:
#   BENCH_DIR    make the temp dir under this directory (default: mktemp -d)
#   BENCH_LINES  lines to generate (default 1000000; smaller for a quick run)
#   BENCH_RUNS   runs per command, best kept (default 3)
#   BENCH_CHECK  0 to skip the output comparison (default 1)
#   LLMSH        use this llmsh binary instead of building one
#
# Until llmsh builds, the GNU half still runs and the llmsh columns say n/a.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
lines=${BENCH_LINES:-1000000}
runs=${BENCH_RUNS:-3}
check=${BENCH_CHECK:-1}

if [ -n "${BENCH_DIR:-}" ]; then
  mkdir -p "$BENCH_DIR"
  OUT=$(mktemp -d "$BENCH_DIR/llmsh-bench.XXXXXX")
else
  OUT=$(mktemp -d)
fi
trap 'rm -rf "$OUT"' EXIT

cd "$repo"
go build -o "$OUT/gen" ./bench/gen
llmsh=${LLMSH:-}
if [ -z "$llmsh" ]; then
  if CGO_ENABLED=0 go build -o "$OUT/llmsh" ./cmd/llmsh 2>"$OUT/build.log"; then
    llmsh=$OUT/llmsh
  else
    echo "bench: llmsh does not build yet; timing GNU only:" >&2
    sed 's/^/  /' "$OUT/build.log" | head -n 5 >&2
  fi
fi

data=$OUT/data
mkdir "$data"
"$OUT/gen" -lines "$lines" >"$data/text.csv"
LC_ALL=C cut -d, -f3 "$data/text.csv" >"$data/nums.txt"
LC_ALL=C cut -d, -f2 "$data/text.csv" >"$data/words.txt"
printf 'data: %s lines, %s bytes (%s)\n' "$(wc -l <"$data/text.csv")" \
  "$(wc -c <"$data/text.csv")" "$(md5sum <"$data/text.csv" | cut -c1-12)"

labels=() targets=() cmds=()
add() { labels+=("$1"); targets+=("$2"); cmds+=("$3"); }
# label, target ratio, command (run in the data dir, output to /dev/null)
add "grep -c FIXED" 2 "grep -c needle text.csv"
add "grep -c REGEX" 3 "grep -c '[0-9]\{3\}x' text.csv"
add "wc -l" 2 "wc -l text.csv"
add "sort" 3 "sort text.csv"
add "sort -n" 3 "sort -n nums.txt"
add "cut -d, -f2" 3 "cut -d, -f2 text.csv"
add "tr a-z A-Z" 3 "tr a-z A-Z < text.csv"
add "sed s/a/b/g" 3 "sed s/a/b/g text.csv"
add "sort|uniq -c|sort -rn|head" 3 "sort words.txt | uniq -c | sort -rn | head"

# usec prints the time in microseconds.
usec() { local t=$EPOCHREALTIME; printf '%s' "$((10#${t%.*} * 1000000 + 10#${t#*.}))"; }

# run RUNNER CMD: run CMD once in the data dir, output to a regular file.
# Not /dev/null: GNU grep notices /dev/null and stops at the first match
# (even with -c), which would time a different job.
run() {
  if [ "$1" = gnu ]; then
    (cd "$data" && LC_ALL=C bash -c "$2" >"$OUT/stdout" 2>"$OUT/err")
  else
    (cd "$data" && "$llmsh" -i . -c "$2" >"$OUT/stdout" 2>"$OUT/err")
  fi
}

# best RUNNER CMD: best wall time in microseconds of $runs runs, or ERR.
best() {
  local i t0 t best=
  for ((i = 0; i < runs; i++)); do
    t0=$(usec)
    run "$1" "$2" || { echo ERR; return; }
    t=$(($(usec) - t0))
    if [ -z "$best" ] || ((t < best)); then best=$t; fi
  done
  echo "$best"
}

# secs USEC prints microseconds as seconds with 3 decimals.
secs() { printf '%d.%03d' $(($1 / 1000000)) $(($1 % 1000000 / 1000)); }

# digest RUNNER CMD: md5 of the command's output.
digest() {
  if [ "$1" = gnu ]; then
    (cd "$data" && LC_ALL=C bash -c "$2" 2>/dev/null | md5sum | cut -c1-32)
  else
    (cd "$data" && "$llmsh" -i . -c "$2" 2>/dev/null | md5sum | cut -c1-32)
  fi
}

printf '\n%-26s %8s %8s %7s %6s %-6s %s\n' command GNU_s llmsh_s ratio target result output
fails=0
for i in "${!labels[@]}"; do
  label=${labels[i]} target=${targets[i]} cmd=${cmds[i]}
  g=$(best gnu "$cmd")
  gs=ERR; [ "$g" = ERR ] || gs=$(secs "$g")
  ls=n/a ratio=- result=- same=-
  if [ -n "$llmsh" ]; then
    l=$(best llmsh "$cmd")
    if [ "$l" = ERR ] || [ "$g" = ERR ]; then
      result=FAIL ls=ERR
      if [ "$l" = ERR ]; then
        same="(llmsh failed: $(head -c 70 "$OUT/err" | tr '\n' ' '))"
      fi
    else
      ls=$(secs "$l")
      r=$((l * 100 / (g > 0 ? g : 1)))
      ratio=$(printf '%d.%02d' $((r / 100)) $((r % 100)))
      if ((l <= target * g)); then result=PASS; else result=FAIL; fi
      if [ "$check" = 1 ]; then
        if [ "$(digest gnu "$cmd")" = "$(digest llmsh "$cmd")" ]; then same=same; else same=DIFF; fi
      fi
    fi
    [ "$result" = PASS ] || fails=$((fails + 1))
  fi
  printf '%-26s %8s %8s %7s %5sx %-6s %s\n' "$label" "$gs" "$ls" "$ratio" "$target" "$result" "$same"
done
[ -z "$llmsh" ] || printf '\n%d of %d over target (or failing)\n' "$fails" "${#labels[@]}"
