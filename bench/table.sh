#!/usr/bin/env bash
# bench/table.sh — every row of issue 21's table in one interleaved run,
# side by side with bash and the GNU tools: the figures of README's table.
#
# Each row runs the reference (bash -c CMD, LC_ALL=C) and llmsh -c CMD in
# turn, round after round (so that a change in the machine's load falls on
# every column alike), output to a regular file (GNU grep stops at the first
# match when its output is /dev/null), and prints the median and the 25th
# percentile wall time of each, the ratio of the medians, and each side's
# peak RSS and CPU time (`/usr/bin/time -f '%M %U %S'`, one more run of
# each: the RSS of the largest process of the run, so llmsh or its vfsd,
# bash or the largest GNU tool; the CPU time of them all, in ms). Every
# row's output is compared with the reference's (cmp; grep -r's lines
# sorted first: GNU walks in directory order, llmsh by name).
#
# llmsh runs with -i DIR -o DIR/out, vfsd and Landlock included, as an agent
# harness runs it. The data is bench/gen's: big.txt is 1,000,000 lines
# (about 100 MB), words.txt and nums.txt its second and third fields; tree
# is a copy of this repository. The last two rows are the loops that
# write: an echo with its own `>>` redirection 10,000 times (an open, a
# write and a close each, through vfsd), and 100,000 printf into one
# redirection around the loop (as bench/loops.sh's `out/f` rows).
#
# On a loaded machine run it as `chrt -r 10 bash bench/table.sh` (not
# `chrt -f`: see bench/walk.sh).
#
# Environment:
#   BENCH_RUNS   rounds of the rows under a second (default 11)
#   BENCH_SLOW   rounds of the rows of a second or more (default 5)
#   BENCH_LINES  lines of big.txt (default 1000000)
#   BENCH_DIR    make the temp dir under this directory (default: mktemp -d)
#   BENCH_ONLY   run only the rows whose command contains this text
#   LLMSH        use this llmsh binary instead of building one
#   LLMSH_BASE   also time this llmsh binary (a column "base", e.g. main's)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=${BENCH_RUNS:-11}
slow=${BENCH_SLOW:-5}
lines=${BENCH_LINES:-1000000}
source "$repo/bench/lib.sh"
bench_out table
bench_binaries
(cd "$repo" && go build -o "$OUT/gen" ./bench/gen)
data=$OUT/data
mkdir -p "$data/out"
cd "$data"
"$OUT/gen" -lines "$lines" >big.txt
LC_ALL=C cut -d, -f2 big.txt >words.txt
LC_ALL=C cut -d, -f3 big.txt >nums.txt
cp -r "$repo"/. tree/ # many small files, as an agent greps a checkout

ms() { printf '%d.%02d' $(($1 / 1000)) $(($1 % 1000 / 10)); }
mb() { printf '%d.%d' $(($1 / 1000)) $(($1 % 1000 / 100)); }

# rss RUNNER CMD prints the peak RSS in KB and the CPU time (user and
# system, of every process of the run) in ms of one run.
rss() {
  if [ "$1" = gnu ]; then
    LC_ALL=C /usr/bin/time -f '%M %U %S' -o "$OUT/rss" bash -c "$2" >"$OUT/o.gnu" 2>/dev/null
  else
    /usr/bin/time -f '%M %U %S' -o "$OUT/rss" "$2" -i . -o out -c "$3" >"$OUT/o.llmsh" 2>/dev/null
  fi
  tail -n 1 "$OUT/rss" | awk '{printf "%d %d\n", $1, ($2 + $3) * 1000 + 0.5}'
}

# row ROUNDS TARGET CMD: time CMD under bash (GNU) and llmsh (and the base
# llmsh), interleaved, and print a line of the table.
row() {
  local rounds=$1 target=$2 cmd=$3 i t0
  case $cmd in *"${BENCH_ONLY:-}"*) ;; *) return 0 ;; esac
  local -a tr=() tl=() tb=()
  for ((i = 0; i < rounds; i++)); do
    # Each write starts from no file: truncating the 100 MB that the
    # command before left in the page cache cost the next one 20-30 ms.
    rm -f out/copy
    t0=$(usec)
    LC_ALL=C bash -c "$cmd" >"$OUT/o.gnu" 2>/dev/null
    tr+=($(($(usec) - t0)))
    rm -f out/copy
    t0=$(usec)
    "$llmsh" -i . -o out -c "$cmd" >"$OUT/o.llmsh" 2>/dev/null
    tl+=($(($(usec) - t0)))
    if [ -n "$base" ]; then
      rm -f out/copy
      t0=$(usec)
      "$base" -i . -o out -c "$cmd" >"$OUT/o.llmsh" 2>/dev/null
      tb+=($(($(usec) - t0)))
    fi
  done
  local rmed rp25 lmed lp25 bmed bp25 b="" grss lrss gcpu lcpu same=same
  read -r rmed rp25 < <(printf '%s\n' "${tr[@]}" | stats)
  read -r lmed lp25 < <(printf '%s\n' "${tl[@]}" | stats)
  if [ -n "$base" ]; then
    read -r bmed bp25 < <(printf '%s\n' "${tb[@]}" | stats)
    b=$(printf '%9s %9s' "$(ms "$bmed")" "$(ms "$bp25")")
  fi
  read -r grss gcpu < <(rss gnu "$cmd")
  read -r lrss lcpu < <(rss llmsh "$llmsh" "$cmd")
  case $cmd in
  grep\ -r*)
    LC_ALL=C sort -o "$OUT/o.gnu" "$OUT/o.gnu"
    LC_ALL=C sort -o "$OUT/o.llmsh" "$OUT/o.llmsh"
    ;;
  esac
  cmp -s "$OUT/o.gnu" "$OUT/o.llmsh" || same=DIFFERENT
  local x=$((lmed * 100 / (rmed > 0 ? rmed : 1))) result=FAIL
  if ((lmed <= target * rmed)); then result=PASS; fi
  printf '%-52s %9s %9s %9s %9s %6d.%02dx %3sx %-4s %7s %7s %7s %7s %-9s %s\n' "$cmd" "$(ms "$rmed")" "$(ms "$rp25")" \
    "$(ms "$lmed")" "$(ms "$lp25")" $((x / 100)) $((x % 100)) "$target" "$result" \
    "$(mb "$grss")" "$(mb "$lrss")" "$gcpu" "$lcpu" "$same" "$b"
}

printf '%s; %s CPUs; load %s; %s; big.txt: %s lines, %s bytes\n' "$("$llmsh" --version | head -n 1)" \
  "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)" "$(date -u '+%Y-%m-%d %H:%M UTC')" \
  "$(wc -l <big.txt)" "$(wc -c <big.txt)"
printf '%-52s %9s %9s %9s %9s %8s %4s %-4s %7s %7s %7s %7s %-9s %s\n' command gnu_ms gnu_p25 llmsh_ms llmsh_p25 \
  ratio tgt "" gnu_MB llmsh_MB gnu_cpu llm_cpu output "$([ -n "$base" ] && echo "base_ms  base_p25")"
row "$runs" 3 "true"
row "$runs" 2 "head -n 10 big.txt"
row "$runs" 2 "tail -n 10 big.txt"
row "$runs" 2 "cat big.txt | head -n 10"
row "$runs" 2 "cat big.txt > out/copy"
row "$runs" 2 "wc -l big.txt"
row "$slow" 2 "cut -d, -f2 big.txt | sort | uniq -c | sort -rn | head"
row "$slow" 2 "sort words.txt"
row "$slow" 2 "sort -n nums.txt"
row "$runs" 3 "grep -rn func tree"
row "$slow" 2 'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done'
row "$runs" 2 'rm -f out/a; for ((i=0;i<10000;i++)); do echo $i >> out/a; done; wc -l < out/a'
row "$slow" 2 'for ((i=0;i<100000;i++)); do printf "%d\n" $i; done > out/b; wc -l < out/b'
