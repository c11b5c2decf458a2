#!/usr/bin/env python3
"""bench/spawn.py -- start-up as a harness sees it: each command spawned
plainly from Python (posix_spawn, stdio on /dev/null, no shell around it,
no chrt), round after round so that a change in the machine's load falls
on every command alike. Prints each command's median and 25th percentile
wall time, the ratio of its median to the first command's, and the median
CPU time (user+system of the process and the children it waited for,
vfsd included).

usage: python3 bench/spawn.py RUNS 'LABEL=COMMAND ARGS...' ...
e.g.:  python3 bench/spawn.py 300 'bash=/usr/bin/bash -c true' \
           'llmsh=bin/llmsh -i . -c true' 'base=/tmp/base/llmsh -i . -c true'
"""
import os
import shlex
import statistics
import sys
import time


def main():
    if len(sys.argv) < 3 or not sys.argv[1].isdigit():
        sys.exit(__doc__)
    runs = int(sys.argv[1])
    cmds = []
    for arg in sys.argv[2:]:
        label, _, cmd = arg.partition("=")
        cmds.append((label, shlex.split(cmd)))
    wall = {label: [] for label, _ in cmds}
    cpu = {label: [] for label, _ in cmds}
    null = os.open(os.devnull, os.O_RDWR)
    acts = [(os.POSIX_SPAWN_DUP2, null, fd) for fd in (0, 1, 2)]
    for _ in range(runs):
        for label, argv in cmds:
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
        print(f"{label:12s} median {med * 1e3:7.2f} ms  p25 {w[len(w) // 4] * 1e3:7.2f} ms  "
              f"ratio {med / ref:5.2f}x  cpu {statistics.median(cpu[label]) * 1e3:6.2f} ms")


main()
