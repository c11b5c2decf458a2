#!/usr/bin/env python3
"""bench/rsswhere.py -- where a run's peak resident set is: runs COMMAND
(round after round when given several, interleaved), samples
/proc/PID/status of it and of its children (llmsh's vfsd) every half
millisecond, and prints each process's peak VmRSS (cmd: the command, kidN:
its children) split into anonymous memory (the Go heap, stacks, runtime),
file pages (the binary's text, rodata and pclntab, mapped 64 KiB at a time
by the kernel's fault-around) and shared memory, the medians over the
rounds.

With --windows it also records the run's page faults (`perf record -e
page-faults -d`, so perf must be installed and allowed) and counts, for
the first process (llmsh), the 64 KiB windows of each section of the
binary that it faulted in: each costs 64 KiB of RSS however little of it
is used. `/usr/bin/time -f %M` gives the peak of the largest process
only; this says what it is made of. With --causes (which implies
--windows) the faults are recorded with their call chains, and each
section's windows are counted by what first touched them: a package's
init, the runtime's own walks of the stacks (stack growth, the
collector's scans, runtime.Callers, the memory profile's sample),
isSystemGoroutine's look-up of a new goroutine's name, itabsinit, or
else the first function outside the runtime on the chain.

usage: python3 bench/rsswhere.py [--windows|--causes] ROUNDS 'LABEL=COMMAND ARGS...' ...
e.g.:  cd DATA && python3 bench/rsswhere.py 5 \\
         'main=/tmp/main -i . -o out -c "cut -d, -f2 big.txt | sort | uniq -c"' \\
         'new=/tmp/new -i . -o out -c "cut -d, -f2 big.txt | sort | uniq -c"'
Give it copies of the binaries made by cp (bench/spawn.py says why): a
file written in large writes sits in the page cache in large folios,
which the kernel maps whole (Linux 6.18: `llmsh -c true` of a copy
written with 2 MiB writes peaked at 17.7 MB instead of 10.1).
"""
import collections
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

FIELDS = ('VmRSS', 'RssAnon', 'RssFile', 'RssShmem')


def status(pid):
    d = {}
    try:
        with open(f'/proc/{pid}/status') as f:
            for line in f:
                k, _, v = line.partition(':')
                if k in FIELDS:
                    d[k] = int(v.split()[0])
    except OSError:
        return None
    return d if 'VmRSS' in d else None


def children(pid):
    try:
        with open(f'/proc/{pid}/task/{pid}/children') as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def sample(argv):
    """Run argv; return each process's status at its peak VmRSS, in order
    of appearance (the command first, then its children)."""
    p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    peak, order = {}, []
    while p.poll() is None:
        for pid in [p.pid] + children(p.pid):
            s = status(pid)
            if s is None:
                continue
            if pid not in peak:
                order.append(pid)
            if pid not in peak or s['VmRSS'] > peak[pid]['VmRSS']:
                peak[pid] = s
        time.sleep(0.0005)
    return [peak[pid] for pid in order]


def sections(binary):
    out = subprocess.run(['readelf', '-S', '-W', binary], capture_output=True, text=True).stdout
    secs = []
    for line in out.splitlines():
        m = re.match(r'\s*\[\s*\d+\]\s+(\.\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)', line)
        if m and int(m.group(2), 16) and m.group(1) in ('.text', '.rodata', '.gopclntab', '.typelink', '.itablink', '.noptrdata', '.data'):
            start = int(m.group(2), 16)
            secs.append((m.group(1), start, start + int(m.group(3), 16)))
    return secs


# CAUSES name what first touched a window by a function on the call
# chain of its first fault: the first of these on the chain, in this
# order, names it; else the init function on the chain, else the package
# of the first function outside the runtime (for .text, of the function
# whose code it is).
CAUSES = (
    ('mProf_Malloc', 'memory profile sample'),
    ('moduledataverify1', 'moduledataverify1'),
    ('isSystemGoroutine', 'goroutine start (its name)'),
    ('isAsyncSafePoint', 'async preemption'),
    ('copystack', 'stack growth'),
    ('scanstack', 'GC stack scan'),
    ('runtime.callers', 'runtime.Callers'),
    ('itabsinit', 'itabsinit'),
    ('typelinksinit', 'typelinksinit'),
)


def package(fn):
    """The import path of the function named fn."""
    slash = fn.rfind('/')
    dot = fn.find('.', slash + 1)
    return fn if dot < 0 else fn[:dot]


def cause(section, chain):
    """What first touched a window of section, from the call chain of its
    first fault."""
    for key, name in CAUSES:
        if any(key in fn for fn in chain):
            return name
    for fn in chain:
        if re.search(r'\.init(\.\d+)?$', fn):
            return 'init ' + package(fn)
    if section == '.text' and chain:
        return package(chain[0])
    for fn in chain:
        if not re.match(r'(runtime|internal/|indexbytebody|memeqbody|cmpbody|aeshash|\[)', fn):
            return package(fn)
    return 'runtime'


def windows(argv, causes=False):
    """The 64 KiB windows of each section of argv[0] that the first
    process of the run faulted in: their number, and with causes a
    Counter of what first touched them."""
    with tempfile.TemporaryDirectory() as d:
        data = os.path.join(d, 'perf.data')
        rec = ['perf', 'record', '-q', '-e', 'page-faults', '-c', '1', '-d'] + (['-g'] if causes else [])
        subprocess.run(rec + ['-o', data, '--'] + argv,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        fields = 'pid,addr,ip,sym' if causes else 'pid,addr'
        out = subprocess.run(['perf', 'script', '-i', data, '-F', fields], capture_output=True, text=True).stdout
    secs = sections(argv[0])
    events, cur = [], None
    for line in out.splitlines():
        if not line.strip():
            continue
        if line.startswith('\t'):
            if cur is None:
                continue
            f = line.split(None, 1)
            if len(f) == 2:
                cur[2].append(f[1].split('+')[0])
            continue
        f = line.split()
        if len(f) >= 2:
            try:
                cur = [int(f[0]), int(f[1], 16), []]
            except ValueError:
                continue
            events.append(cur)
    first, seen = None, {name: {} for name, _, _ in secs}
    for pid, addr, chain in events:
        first = pid if first is None else first
        if pid != first:
            continue
        for name, lo, hi in secs:
            if lo <= addr < hi:
                seen[name].setdefault(addr & ~0xffff, chain)
    counts = {name: len(w) for name, w in seen.items() if w}
    why = {name: collections.Counter(cause(name, c) for c in w.values()) for name, w in seen.items() if w}
    return counts, why


def main():
    args = sys.argv[1:]
    want_causes = '--causes' in args
    want_windows = want_causes or '--windows' in args
    args = [a for a in args if a not in ('--windows', '--causes')]
    if want_windows and not shutil.which('perf'):
        sys.exit('rsswhere: --windows needs perf (linux-perf) on PATH')
    if len(args) < 2 or not args[0].isdigit():
        sys.exit(__doc__)
    rounds = int(args[0])
    cmds = []
    for spec in args[1:]:
        label, _, cmd = spec.partition('=')
        cmds.append((label, shlex.split(cmd)))
    res = {label: [] for label, _ in cmds}
    for _ in range(rounds):
        for label, argv in cmds:
            res[label].append(sample(argv))
    print('%-10s %-5s %8s %8s %8s %8s   (peak of each process, MB, median of %d)' % (
        'label', 'proc', 'rss', 'anon', 'file', 'shmem', rounds))
    for label, argv in cmds:
        nproc = min(len(r) for r in res[label])
        for i in range(nproc):
            med = {k: statistics.median(r[i][k] for r in res[label]) / 1000 for k in FIELDS}
            print('%-10s %-5s %8.1f %8.1f %8.1f %8.1f' % (label, 'cmd' if i == 0 else 'kid%d' % i,
                                                          med['VmRSS'], med['RssAnon'], med['RssFile'], med['RssShmem']))
        if want_windows:
            w, why = windows(argv, want_causes)
            print('%-10s windows of 64 KiB faulted in by the first process: %s (%d, %.1f MB)' % (
                label, ' '.join('%s %d' % kv for kv in w.items()), sum(w.values()), sum(w.values()) * 65536 / 1e6))
            if want_causes:
                for name, c in why.items():
                    inits = sum(n for k, n in c.items() if k.startswith('init '))
                    c = collections.Counter({k: n for k, n in c.items() if not k.startswith('init ')})
                    if inits:
                        c['package inits'] = inits
                    top = c.most_common(12)
                    rest = sum(c.values()) - sum(n for _, n in top)
                    print('%-10s   %s: %s%s' % (label, name, ', '.join('%s %d' % kv for kv in top),
                                                ', %d other causes %d' % (len(c) - len(top), rest) if rest else ''))


if __name__ == '__main__':
    main()
