#!/usr/bin/env python3
"""bench/spawn.py -- start-up as a harness sees it: each command spawned
plainly from Python (posix_spawn, stdio on /dev/null, no shell around it,
no chrt), round after round so that a change in the machine's load falls
on every command alike. Prints each command's median and 25th percentile
wall time, the ratio of its median to the first command's, and the median
CPU time (user+system of the process and the children it waited for,
vfsd included).

With --against LABEL it also prints, for each command, the median of its
per-round differences from LABEL's wall time, with a bootstrap 95%
interval, and runs the commands in the reverse order every other round:
on a loaded machine the medians of two builds move by more than a change
of a few percent between runs of this script, while the paired
differences of one run tell it apart (session 17: a change 0.15 ms
slower, and one 0.05-0.1 ms faster, in 800 rounds).

Give it copies of the binaries (cp, as bench/lib.sh's bench_install
makes), never the go linker's output itself: on this VM (ext4, Linux
6.18) the same bytes copied with write(2) start faster than the file
the linker wrote (through mmap: the page cache likely holds it in
smaller folios), by more than any change between two builds (session
18: llmsh -c true 8.80 -> 6.76 ms, -1.6 ms [-1.79, -1.35] in 300 paired
rounds, 906 -> 819 page faults).

usage: python3 bench/spawn.py [--against LABEL] RUNS 'LABEL=COMMAND ARGS...' ...
e.g.:  python3 bench/spawn.py 300 'bash=/usr/bin/bash -c true' \\
           'llmsh=bin/llmsh -i . -c true' 'base=/tmp/base/llmsh -i . -c true'
       python3 bench/spawn.py --against base 800 \\
           'base=/tmp/base/llmsh -i . -c true' 'new=bin/llmsh -i . -c true'
"""
import os
import random
import shlex
import statistics
import sys
import time


def paired(wall, ref, label):
    """The median of label's per-round differences from ref, in ms, and a
    bootstrap 95% interval of it."""
    d = [(b - a) * 1e3 for a, b in zip(wall[ref], wall[label])]
    rng = random.Random(1)
    meds = sorted(statistics.median(rng.choices(d, k=len(d))) for _ in range(400))
    return statistics.median(d), meds[10], meds[389]


def main():
    args = sys.argv[1:]
    against = None
    if len(args) >= 2 and args[0] == "--against":
        against, args = args[1], args[2:]
    if len(args) < 2 or not args[0].isdigit():
        sys.exit(__doc__)
    runs = int(args[0])
    cmds = []
    for arg in args[1:]:
        label, _, cmd = arg.partition("=")
        cmds.append((label, shlex.split(cmd)))
    if against is not None and against not in [label for label, _ in cmds]:
        sys.exit(f"spawn.py: --against {against}: no such label")
    wall = {label: [] for label, _ in cmds}
    cpu = {label: [] for label, _ in cmds}
    null = os.open(os.devnull, os.O_RDWR)
    acts = [(os.POSIX_SPAWN_DUP2, null, fd) for fd in (0, 1, 2)]
    for r in range(runs):
        order = cmds if against is None or r % 2 == 0 else cmds[::-1]
        for label, argv in order:
            t0 = time.perf_counter()
            pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=acts)
            _, status, ru = os.wait4(pid, 0)
            wall[label].append(time.perf_counter() - t0)
            cpu[label].append(ru.ru_utime + ru.ru_stime)
            if status != 0:
                sys.exit(f"spawn.py: {label} exited with status {status}")
    load = " ".join(open("/proc/loadavg").read().split()[:3])
    print(f"{os.cpu_count()} CPUs; load {load}; {runs} rounds")
    ref = statistics.median(wall[cmds[0][0]])
    for label, _ in cmds:
        w = sorted(wall[label])
        med = statistics.median(w)
        line = (f"{label:12s} median {med * 1e3:7.2f} ms  p25 {w[len(w) // 4] * 1e3:7.2f} ms  "
                f"ratio {med / ref:5.2f}x  cpu {statistics.median(cpu[label]) * 1e3:6.2f} ms")
        if against is not None and label != against:
            d, lo, hi = paired(wall, against, label)
            line += f"  vs {against} {d:+.3f} ms [{lo:+.3f}, {hi:+.3f}]"
        print(line)


main()
