# bench/lib.sh — what startup.sh, loops.sh and walk.sh share: their temp
# dir, the llmsh binaries they time, and the timing helpers. Sourced after
# `repo` (the repository's root) is set.

# bench_out NAME sets OUT to a new temp dir (under BENCH_DIR when set),
# removed when the script exits.
bench_out() {
  if [ -n "${BENCH_DIR:-}" ]; then
    mkdir -p "$BENCH_DIR"
    OUT=$(mktemp -d "$BENCH_DIR/llmsh-$1.XXXXXX")
  else
    OUT=$(mktemp -d)
  fi
  trap 'rm -rf "$OUT"' EXIT
}

# bench_install SRC DIR copies the llmsh binary SRC into DIR. Copied, not
# linked: a file just written by the Go linker is in the page cache in
# small pages, and each start of it takes about a millisecond longer than
# of a copy (`cp` writes large ones), so every column is timed from copies.
bench_install() {
  mkdir -p "$2"
  cp "$1" "$2/llmsh"
}

# bench_binaries sets llmsh to a copy of LLMSH, or of a static build of the
# repository, and base to a copy of LLMSH_BASE (empty without it).
bench_binaries() {
  if [ -n "${LLMSH:-}" ]; then
    bench_install "$LLMSH" "$OUT/new"
  else
    # Built at normal priority even when the script runs under chrt -f:
    # the Go linker's spinning threads under SCHED_FIFO all but stop it
    # (and every other process on the machine) for many minutes.
    local nice_build=""
    if command -v chrt >/dev/null; then nice_build="chrt -o 0"; fi
    (cd "$repo" && $nice_build env CGO_ENABLED=0 go build -o "$OUT/build/" ./cmd/llmsh)
    bench_install "$OUT/build/llmsh" "$OUT/new"
  fi
  llmsh=$OUT/new/llmsh
  base=""
  if [ -n "${LLMSH_BASE:-}" ]; then
    bench_install "$LLMSH_BASE" "$OUT/base"
    base=$OUT/base/llmsh
  fi
}

# usec prints the time in microseconds.
usec() { local t=$EPOCHREALTIME; printf '%s' "$((10#${t%.*} * 1000000 + 10#${t#*.}))"; }

# stats reads numbers, a line each, and prints their median and 25th percentile.
stats() { sort -n | awk '{a[NR] = $1} END {printf "%d %d\n", a[int((NR + 1) / 2)], a[int((NR + 3) / 4)]}'; }

# bench_rounds N REF CMD [LC]: N rounds, interleaved, of `bash -c REF`
# (under LC_ALL=LC when given), llmsh -c CMD and the base llmsh -c CMD
# (when $base is set), output discarded; each run's time in microseconds
# goes to the caller's arrays tr, tl and tb.
bench_rounds() {
  local n=$1 ref=$2 cmd=$3 lc=${4-${LC_ALL-}} i t0
  for ((i = 0; i < n; i++)); do
    t0=$(usec)
    LC_ALL=$lc /usr/bin/bash -c "$ref" >/dev/null 2>&1
    tr+=($(($(usec) - t0)))
    t0=$(usec)
    "$llmsh" -i . -o out -c "$cmd" >/dev/null 2>&1
    tl+=($(($(usec) - t0)))
    if [ -n "$base" ]; then
      t0=$(usec)
      "$base" -i . -o out -c "$cmd" >/dev/null 2>&1
      tb+=($(($(usec) - t0)))
    fi
  done
}
