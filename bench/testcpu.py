#!/usr/bin/env python3
"""bench/testcpu.py -- the CPU each test of a test binary spends: runs the
binary with -test.v=test2json -test.parallel=1 in the current directory
(the package's), samples at each RUN, CONT, PAUSE and PASS/FAIL/SKIP line
the CPU of the binary and of its reaped children (utime, stime, cutime,
cstime of /proc/PID/stat: a test's llmsh and vfsd processes count once
waited for), and splits each interval's CPU equally among the tests
running then that have no unfinished subtest (a parent waiting for its
parallel subtests spends nothing). At -test.parallel=1 that is mostly one
test; work a test starts in the background (TestFixtures' batches, which
its waiting subtests then wait for) lands on whoever runs, so add a
group's tests up (TestFixtures, TestAttacks/FAMILY) rather than read one.

Prints TOTAL (the binary's and its children's CPU), UNATTRIBUTED and each
test's CPU, largest first; OUT.log keeps the output, each event line with
its CPU sample before it.

usage: cd PKG && python3 bench/testcpu.py ./pkg.test OUT [-test.run RE ...]
e.g.:  go test -race -c -o /tmp/b.test ./builtins && cd builtins &&
       python3 ../bench/testcpu.py /tmp/b.test /tmp/b.cpu && head -30 /tmp/b.cpu
Run it beside another build's binary, alternated, on a machine as quiet
as can be: the figures are CPU, but load still inflates them (session 29:
cmd/llmsh 125-134 s, builtins 50-53 s at load 15-20).
"""
import collections
import os
import re
import subprocess
import sys

HZ = os.sysconf('SC_CLK_TCK')
EVENT = re.compile(r'^\x16?(?:=== (RUN|CONT|PAUSE)\s+(\S+)|\s*--- (PASS|FAIL|SKIP): (\S+))')


def cpu(pid):
    try:
        with open(f'/proc/{pid}/stat') as f:
            s = f.read()
    except OSError:
        return None
    fields = s[s.rindex(')') + 2:].split()
    return sum(int(x) for x in fields[11:15]) / HZ


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, out = sys.argv[1], sys.argv[2]
    args = [binary, '-test.v=test2json', '-test.parallel=1', '-test.count=1'] + sys.argv[3:]
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors='replace')
    acc = collections.Counter()
    running, alive = set(), set()
    last, unattributed = 0.0, 0.0
    with open(out + '.log', 'w') as log:
        for line in p.stdout:
            m = EVENT.match(line)
            c = cpu(p.pid) if m else None
            if c is None:
                log.write(' ' * 8 + line)
                continue
            log.write(f'{c:8.2f}' + line)
            d, last = c - last, c
            leaves = [t for t in running if not any(u.startswith(t + '/') for u in alive)]
            for t in leaves:
                acc[t] += d / len(leaves)
            if not leaves:
                unattributed += d
            kind, name = m.group(1) or m.group(3), m.group(2) or m.group(4)
            if kind == 'RUN':
                running.add(name)
                alive.add(name)
            elif kind == 'CONT':
                running.add(name)
            elif kind == 'PAUSE':
                running.discard(name)
            else:
                running.discard(name)
                alive.discard(name)
    p.wait()
    t = os.times()
    with open(out, 'w') as f:
        f.write(f'{t.children_user + t.children_system:8.2f} TOTAL\n{unattributed:8.2f} UNATTRIBUTED\n')
        for k, v in acc.most_common():
            f.write(f'{v:8.2f} {k}\n')
    sys.exit(p.returncode)


if __name__ == '__main__':
    main()
