#!/usr/bin/env bash
# bench/startup.sh — issue 21's start-up and write figures, side by side
# with bash and GNU in one interleaved run.
#
# Builds llmsh static (CGO_ENABLED=0, as the README recommends), then runs
# each row's commands in turn, round after round (so that a change in the
# machine's load falls on every column alike), and prints the median and
# the 25th percentile wall time of each, the ratio of llmsh's median to
# the reference's, the target, and PASS/FAIL:
#
#   bash -c true            llmsh -c true           (target 3x)
#   bash -c 'echo hi'       llmsh -c 'echo hi'      (target 3x)
#   cat big.txt > out/copy  the same in llmsh       (target 2x, 100 MB)
#   grep -rn func tree      the same in llmsh       (target 3x; tree is a
#                                                   copy of this repository)
#
# llmsh runs with -i DIR (and -o DIR/out for the write), vfsd and Landlock
# included, as an agent harness runs it. The copy is compared with the
# original once at the end.
#
# Environment:
#   BENCH_RUNS        start-up rounds (default 40)
#   BENCH_WRITE_RUNS  write rounds (default 5)
#   BENCH_WRITE_MB    size of big.txt in MB (default 100; 0 skips the write row)
#   BENCH_WALK        0 skips the grep -r row (default 1; BENCH_WRITE_RUNS rounds)
#   BENCH_DIR         make the temp dir under this directory (default: mktemp -d)
#   LLMSH             use this llmsh binary instead of building one
#   LLMSH_BASE        also time this llmsh binary (a column "base", e.g. main's)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=${BENCH_RUNS:-40}
wruns=${BENCH_WRITE_RUNS:-5}
mb=${BENCH_WRITE_MB:-100}

source "$repo/bench/lib.sh"
bench_out startup
bench_binaries
data=$OUT/data
mkdir -p "$data/out"
cd "$data"

# ms USEC prints microseconds as milliseconds with 2 decimals.
ms() { printf '%d.%02d' $(($1 / 1000)) $(($1 % 1000 / 10)); }

# row LABEL TARGET ROUNDS REF LLMSH_CMD: time the reference command (run by
# bash -c) and llmsh -c LLMSH_CMD (and the base llmsh), interleaved.
row() {
  local label=$1 target=$2 rounds=$3 ref=$4 cmd=$5
  local -a tr=() tl=() tb=()
  bench_rounds "$rounds" "$ref" "$cmd"
  local rmed rp25 lmed lp25 bmed bp25 b=""
  read -r rmed rp25 < <(printf '%s\n' "${tr[@]}" | stats)
  read -r lmed lp25 < <(printf '%s\n' "${tl[@]}" | stats)
  if [ -n "$base" ]; then
    read -r bmed bp25 < <(printf '%s\n' "${tb[@]}" | stats)
    b=$(printf '%9s %9s' "$(ms "$bmed")" "$(ms "$bp25")")
  fi
  local x=$((lmed * 100 / (rmed > 0 ? rmed : 1))) result=FAIL
  if ((lmed <= target * rmed)); then result=PASS; fi
  printf '%-24s %9s %9s %9s %9s %6d.%02dx %4sx %-5s %s\n' "$label" "$(ms "$rmed")" "$(ms "$rp25")" \
    "$(ms "$lmed")" "$(ms "$lp25")" $((x / 100)) $((x % 100)) "$target" "$result" "$b"
}

printf '%s; %s CPUs; load %s\n' "$("$llmsh" --version | head -n 1)" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-24s %9s %9s %9s %9s %8s %5s %-5s %s\n' row ref_ms ref_p25 llmsh_ms llmsh_p25 ratio target "" \
  "$([ -n "$base" ] && echo "base_ms  base_p25")"
row "-c true" 3 "$runs" "true" "true"
row "-c 'echo hi'" 3 "$runs" "echo hi" "echo hi"
if [ "$mb" -gt 0 ]; then
  head -c $((mb * 750000)) /dev/urandom | base64 -w 99 >big.txt # mb MB of text lines
  row "cat big.txt > out/copy" 2 "$wruns" "cat big.txt > out/copy" "cat big.txt > out/copy"
  cmp -s big.txt out/copy || { echo "startup.sh: out/copy differs from big.txt" >&2; exit 1; }
fi
if [ "${BENCH_WALK:-1}" != 0 ]; then
  mkdir tree && cp -r "$repo"/. tree/ # many small files, as an agent greps a checkout
  row "grep -rn func tree" 3 "$wruns" "grep -rn func tree" "grep -rn func tree"
  # GNU walks in directory order, llmsh in name order: the lines must agree.
  [ "$(grep -rn func tree | LC_ALL=C sort | md5sum)" = "$("$llmsh" -i . -c 'grep -rn func tree' | LC_ALL=C sort | md5sum)" ] ||
    { echo "startup.sh: grep -r found other lines than GNU grep" >&2; exit 1; }
fi
