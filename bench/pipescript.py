#!/usr/bin/env python3
"""bench/pipescript.py -- a script read on a pipe (`gen | llmsh`), as bash
and llmsh read it: each command is spawned with a pipe on its stdin (stdout
and stderr on /dev/null) into which a thread of this process writes the
script, round after round (in the reverse order every other round), and
the median and 25th percentile wall time, the ratio to the first command
and the median CPU time (the process and the children it waited for,
vfsd included) are printed.

usage: python3 bench/pipescript.py RUNS SCRIPTFILE 'LABEL=COMMAND ARGS...' ...
e.g.:  seq 20000 | sed 's/^/echo /' > s.txt
       chrt -r 10 python3 bench/pipescript.py 15 s.txt 'bash=/usr/bin/bash' \\
           'main=/tmp/main/llmsh' 'new=bin/llmsh'
"""
import os
import shlex
import statistics
import sys
import threading
import time


def feed(fd, data):
    """Writes data into the pipe fd, then closes it."""
    view = memoryview(data)
    try:
        while view:
            view = view[os.write(fd, view):]
    except BrokenPipeError:
        pass
    os.close(fd)


def main():
    if len(sys.argv) < 4 or not sys.argv[1].isdigit():
        sys.exit(__doc__)
    runs, data = int(sys.argv[1]), open(sys.argv[2], "rb").read()
    cmds = []
    for arg in sys.argv[3:]:
        label, _, cmd = arg.partition("=")
        cmds.append((label, shlex.split(cmd)))
    wall = {label: [] for label, _ in cmds}
    cpu = {label: [] for label, _ in cmds}
    null = os.open(os.devnull, os.O_RDWR)
    for r in range(runs):
        for label, argv in cmds if r % 2 == 0 else cmds[::-1]:
            rd, wr = os.pipe()
            acts = [(os.POSIX_SPAWN_DUP2, rd, 0), (os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)]
            t0 = time.perf_counter()
            pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=acts)
            os.close(rd)
            writer = threading.Thread(target=feed, args=(wr, data))
            writer.start()
            _, status, ru = os.wait4(pid, 0)
            writer.join()
            wall[label].append(time.perf_counter() - t0)
            cpu[label].append(ru.ru_utime + ru.ru_stime)
            if status != 0:
                sys.exit(f"pipescript.py: {label} exited with status {status}")
    load = " ".join(open("/proc/loadavg").read().split()[:3])
    print(f"{os.cpu_count()} CPUs; load {load}; {runs} rounds; {len(data)} bytes of script")
    ref = statistics.median(wall[cmds[0][0]])
    for label, _ in cmds:
        w = sorted(wall[label])
        med = statistics.median(w)
        print(f"{label:12s} median {med * 1e3:8.1f} ms  p25 {w[len(w) // 4] * 1e3:8.1f} ms  "
              f"ratio {med / ref:5.2f}x  cpu {statistics.median(cpu[label]) * 1e3:7.1f} ms")


main()
