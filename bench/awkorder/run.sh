#!/usr/bin/env bash
# bench/awkorder/run.sh LLMSH SEED COUNT — differential test of awk's
# for (k in a) order: gen.py writes COUNT random awk programs (int, string,
# numeric-string and SUBSEP keys, reads, increments, deletes, split, in,
# getline, growth past 768/1536/3072 keys), each runs under /usr/bin/mawk
# (the reference, 1.3.4 20200120) and under LLMSH's awk in a fresh temp dir.
# Prints "seed S: N/COUNT agree, C mawk crashes". A program on which mawk
# crashes (it does, on its stale integer bucket after a doubling: see
# third_party/goawk/LLMSH.md) counts as a disagreement and is named.
set -u
llmsh=$1 seed=$2 count=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
d=$(mktemp -d); cd "$d"
python3 "$here/gen.py" "$seed" "$count" .
for i in $(seq 1 25); do echo "$((i*7 % 13)) $((i*i % 31)) w$i"; done > in.txt
: > script.sh
for ((t=0; t<count; t++)); do
  timeout 20 mawk -f p$t.awk in.txt > m$t.out 2>&1
  [ $? -ge 128 ] && echo crash > m$t.out && echo crash > crash$t
  echo "awk -f p$t.awk in.txt > l$t.out 2>&1" >> script.sh
done
"$llmsh" -o . -i . script.sh
n=0
for ((t=0; t<count; t++)); do
  cmp -s m$t.out l$t.out || { n=$((n+1)); [ -e crash$t ] || echo "DIFF $d/p$t.awk"; }
done
c=$(ls crash* 2>/dev/null | wc -l)
echo "seed $seed: $((count-n))/$count agree, $c mawk crashes ($d)"
