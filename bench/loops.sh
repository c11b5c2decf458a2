#!/usr/bin/env bash
# bench/loops.sh — issues 19 and 21: shell loops against bash, side by side
# in one interleaved run.
#
# Builds llmsh static (CGO_ENABLED=0, as the README recommends), then runs
# each row's script with `bash -c` and `llmsh -i . -o out -c` in turn,
# round after round (so that a change in the machine's load falls on every
# column alike), and prints the median and the 25th percentile wall time of
# each, the ratio of llmsh's median to bash's, the target (2x) and
# PASS/FAIL. The rows are the loops agents write:
#
#   while [ $i -lt N ]; do i=$((i+1)); done    the counting loop
#   for i in $(seq 1 N)                        a word list from seq
#   for ((i=0;i<N;i++))                        the C-style loop
#   s+=x                                       string building
#   while read -r line; do …; done < file      a file's lines
#   case $i in …                               case in a loop
#   f() { echo $1; }; f $i                     function calls
#   ${v//a/b}                                  pattern substitution
#   [[ $x == *foo* ]]                          pattern test
#   echo $i >> out/f                           an open per iteration (each goes to vfsd)
#   printf … ; done > out/f                    one redirection around the loop
#   x=$(echo $i)                               command substitution
#   echo $i | cut -c1                          a pipeline (bash forks cut)
#
# Every script prints a check value; the two shells' outputs are compared
# once at the end of the row (a row whose outputs differ says DIFF).
#
# Environment:
#   BENCH_RUNS   rounds (default 5)
#   BENCH_SCALE  divide every loop count by this (default 1; 10 for a quick run)
#   BENCH_ONLY   run only the rows whose label contains this text
#   BENCH_DIR    make the temp dir under this directory (default: mktemp -d)
#   LLMSH        use this llmsh binary instead of building one
#   LLMSH_BASE   also time this llmsh binary (a column "base", e.g. main's)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=${BENCH_RUNS:-5}
scale=${BENCH_SCALE:-1}
only=${BENCH_ONLY:-}

source "$repo/bench/lib.sh"
bench_out loops
bench_binaries
data=$OUT/data
mkdir -p "$data/out"
cd "$data"
n100k=$((100000 / scale)) n50k=$((50000 / scale)) n10k=$((10000 / scale))
n5k=$((5000 / scale)) n2k=$((2000 / scale))
seq 1 "$n100k" | sed 's/$/ some words on the line/' >lines.txt

# ms USEC prints microseconds as milliseconds with 1 decimal.
ms() { printf '%d.%d' $(($1 / 1000)) $(($1 % 1000 / 100)); }

fails=0 rows=0
# row LABEL SCRIPT: time bash -c SCRIPT and llmsh -c SCRIPT (and the base
# llmsh), interleaved, in the data dir; then compare their outputs.
row() {
  local label=$1 cmd=$2 target=2
  if [ -n "$only" ] && [[ $label != *"$only"* ]]; then return; fi
  local -a tr=() tl=() tb=()
  bench_rounds "$runs" "$cmd" "$cmd"
  local rmed rp25 lmed lp25 bmed bp25 b="" same=same
  read -r rmed rp25 < <(printf '%s\n' "${tr[@]}" | stats)
  read -r lmed lp25 < <(printf '%s\n' "${tl[@]}" | stats)
  if [ -n "$base" ]; then
    read -r bmed bp25 < <(printf '%s\n' "${tb[@]}" | stats)
    b=$(printf '%9s %9s' "$(ms "$bmed")" "$(ms "$bp25")")
  fi
  [ "$(/usr/bin/bash -c "$cmd" 2>&1)" = "$("$llmsh" -i . -o out -c "$cmd" 2>&1)" ] || same=DIFF
  local x=$((lmed * 100 / (rmed > 0 ? rmed : 1))) result=FAIL
  if ((lmed <= target * rmed)) && [ "$same" = same ]; then result=PASS; fi
  rows=$((rows + 1))
  [ "$result" = PASS ] || fails=$((fails + 1))
  printf '%-26s %9s %9s %9s %9s %6d.%02dx %4sx %-5s %-4s %s\n' "$label" "$(ms "$rmed")" "$(ms "$rp25")" \
    "$(ms "$lmed")" "$(ms "$lp25")" $((x / 100)) $((x % 100)) "$target" "$result" "$same" "$b"
}

printf '%s; %s CPUs; load %s; %d rounds\n' "$("$llmsh" --version | head -n 1)" "$(nproc)" \
  "$(cut -d' ' -f1-3 /proc/loadavg)" "$runs"
printf '%-26s %9s %9s %9s %9s %8s %5s %-5s %-4s %s\n' row bash_ms bash_p25 llmsh_ms llmsh_p25 ratio target "" out \
  "$([ -n "$base" ] && echo "base_ms  base_p25")"
row "while [ ] \$((i+1))" "i=0; while [ \$i -lt $n100k ]; do i=\$((i+1)); done; echo \$i"
row "for in \$(seq)" "n=0; for i in \$(seq 1 $n100k); do n=\$i; done; echo \$n"
row "for ((;;))" "for ((i=0;i<$n100k;i++)); do :; done; echo \$i"
row "s+=x" "s=; for ((i=0;i<$n100k;i++)); do s+=x; done; echo \${#s}"
row "while read -r line" "n=0; while read -r line; do n=\$((n+\${#line})); done < lines.txt; echo \$n"
row "case in a loop" "n=0; for ((i=0;i<$n100k;i++)); do case \$i in *5) n=\$((n+1));; *0|*2) ;; *) ;; esac; done; echo \$n"
row "function calls" "f() { echo \$1; }; for ((i=0;i<$n50k;i++)); do f \$i; done >/dev/null; echo \$i"
row "\${v//a/b}" "v=bananarama; for ((i=0;i<$n100k;i++)); do w=\${v//a/b}; done; echo \$w"
row "[[ \$x == *foo* ]]" "x=barfoobaz n=0; for ((i=0;i<$n100k;i++)); do [[ \$x == *foo* ]] && n=\$((n+1)); done; echo \$n"
row "echo >> out/f" "rm -f out/a; for ((i=0;i<$n10k;i++)); do echo \$i >> out/a; done; wc -l < out/a"
row "printf; done > out/f" "for ((i=0;i<$n100k;i++)); do printf '%d\n' \$i; done > out/b; wc -l < out/b"
row "x=\$(echo \$i)" "for ((i=0;i<$n5k;i++)); do x=\$(echo \$i); done; echo \$x"
row "echo \$i | cut -c1" "for ((i=0;i<$n2k;i++)); do echo \$i | cut -c1; done | sort | uniq -c | wc -l"
printf '\n%d of %d over target (or differing)\n' "$fails" "$rows"
