#!/usr/bin/env bash
# bench/walk.sh — issue 21's walks over many small files, side by side with
# GNU in one interleaved run: grep -r, find, du, ls -R and tar c over a copy
# of this repository (the tree an agent walks most), with llmsh run as an
# agent harness runs it (-i DIR, vfsd and Landlock included).
#
# Each row runs the GNU command (by bash -c, LC_ALL=C) and llmsh -c with the
# same text in turn, round after round, so that a change in the machine's
# load falls on every column alike, and prints the median and the 25th
# percentile wall time of each, the ratio of the medians and PASS/FAIL
# against the target (3x). find's and grep's lines are compared with GNU's
# once at the end (sorted: GNU walks in directory order, llmsh by name).
#
# On a loaded machine run it as `chrt -r 10 bash bench/walk.sh`. Not
# `chrt -f`: under SCHED_FIFO the Go runtime's background sweeper can spin
# for ever waiting for a thread that its own spin keeps off the CPU
# (docs/performance.md); SCHED_RR's time slice ends such a spin.
#
# Environment:
#   BENCH_RUNS   rounds per row (default 9)
#   BENCH_DIR    make the temp dir under this directory (default: mktemp -d)
#   LLMSH        use this llmsh binary instead of building one
#   LLMSH_BASE   also time this llmsh binary (a column "base", e.g. main's)
#   BENCH_ONLY   run only the rows whose command contains this text
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=${BENCH_RUNS:-9}
source "$repo/bench/lib.sh"
bench_out walk
bench_binaries
mkdir -p "$OUT/data/out"
cd "$OUT/data"
cp -r "$repo"/. tree/ # many small files, as an agent walks a checkout

ms() { printf '%d.%02d' $(($1 / 1000)) $(($1 % 1000 / 10)); }

# row CMD: time CMD under bash (GNU) and llmsh (and the base llmsh),
# interleaved, and print a line of the table.
row() {
  local cmd=$1 target=3
  case $cmd in *"${BENCH_ONLY:-}"*) ;; *) return 0 ;; esac
  local -a tr=() tl=() tb=()
  bench_rounds "$runs" "$cmd" "$cmd" C
  local rmed rp25 lmed lp25 bmed bp25 b=""
  read -r rmed rp25 < <(printf '%s\n' "${tr[@]}" | stats)
  read -r lmed lp25 < <(printf '%s\n' "${tl[@]}" | stats)
  if [ -n "$base" ]; then
    read -r bmed bp25 < <(printf '%s\n' "${tb[@]}" | stats)
    b=$(printf '%9s %9s' "$(ms "$bmed")" "$(ms "$bp25")")
  fi
  local x=$((lmed * 100 / (rmed > 0 ? rmed : 1))) result=FAIL
  if ((lmed <= target * rmed)); then result=PASS; fi
  printf '%-26s %9s %9s %9s %9s %6d.%02dx %4sx %-5s %s\n' "$cmd" "$(ms "$rmed")" "$(ms "$rp25")" \
    "$(ms "$lmed")" "$(ms "$lp25")" $((x / 100)) $((x % 100)) "$target" "$result" "$b"
}

printf '%s; %s CPUs; load %s; tree: %s entries\n' "$("$llmsh" --version | head -n 1)" "$(nproc)" \
  "$(cut -d' ' -f1-3 /proc/loadavg)" "$(find tree | wc -l)"
printf '%-26s %9s %9s %9s %9s %8s %5s %-5s %s\n' command gnu_ms gnu_p25 llmsh_ms llmsh_p25 ratio target "" \
  "$([ -n "$base" ] && echo "base_ms  base_p25")"
row "grep -rn func tree"
row "find tree"
row "find tree -type f -size +4k"
row "du -s tree"
row "du -a tree"
row "ls -R tree"
row "ls -lR tree"
row "tar cf - tree | wc -c"

for cmd in "find tree -type f -size +4k" "grep -rn func tree"; do
  [ "$(LC_ALL=C bash -c "$cmd" | LC_ALL=C sort | md5sum)" = "$("$llmsh" -i . -c "$cmd" | LC_ALL=C sort | md5sum)" ] ||
    { echo "walk.sh: $cmd: llmsh's lines differ from GNU's" >&2; exit 1; }
done
