#!/usr/bin/env python3
"""Generate builtins/testdata/patch_random.json: GNU diff -u/-U N, -c/-C N and
normal output for
random file pairs, applied by GNU patch 2.7.6 (LC_ALL=C) to a third file
that drifted from the original (lines changed, added in front), with and
without -R and -N. Each case records patch's output, status, and the file,
.rej and .orig afterwards (TestPatchRandomGNU replays them).

Usage: python3 builtins/testdata/gen_patch_random.py > builtins/testdata/patch_random.json
"""
import json
import os
import random
import subprocess
import tempfile

rng = random.Random(20261123)
alpha = ["a", "b", "c", "d", "e", "f", "g", "", "x y"]


def gen(k):
    return [alpha[rng.randrange(len(alpha))] for _ in range(k)]


def mut(lines, p):
    out = []
    for s in lines:
        r = rng.randrange(p)
        if r == 0:
            continue
        if r == 1:
            out += [alpha[rng.randrange(len(alpha))], s]
        elif r == 2:
            out.append(alpha[rng.randrange(len(alpha))])
        else:
            out.append(s)
    return out


def join(lines):
    return "".join(s + "\n" for s in lines)


def read(p):
    try:
        with open(p) as f:
            return f.read()
    except FileNotFoundError:
        return None


cases = []
while len(cases) < 300:
    a = gen(5 + rng.randrange(40))
    b = mut(a, 6)
    c = mut(a, 12 + rng.randrange(20))
    if rng.randrange(3) == 0:
        c = gen(rng.randrange(4)) + c
    flag = ["-u", "-U1", "-U2", "-U0", "-U5", "-c", "-C1", "--normal"][rng.randrange(8)]
    d = tempfile.mkdtemp()
    for n, content in (("a", join(a)), ("b", join(b))):
        with open(os.path.join(d, n), "w") as f:
            f.write(content)
    diff = subprocess.run(["diff", flag, "--label", "f", "--label", "f", "a", "b"], executable="/usr/bin/diff",
                          cwd=d, capture_output=True, env={"LC_ALL": "C"}).stdout.decode()
    if not diff:
        continue
    args = ["f"]
    if rng.randrange(4) == 0:
        args.append("-R")
    if rng.randrange(4) == 0:
        args.append("-N")
    g = tempfile.mkdtemp()
    with open(os.path.join(g, "f"), "w") as f:
        f.write(join(c))
    p = subprocess.run(["patch"] + args, executable="/usr/bin/patch", cwd=g, input=diff.encode(),
                       capture_output=True, env={"LC_ALL": "C"})
    cases.append({"file": join(c), "diff": diff, "args": args, "out": p.stdout.decode(), "err": p.stderr.decode(),
                  "status": p.returncode, "after": read(os.path.join(g, "f")),
                  "rej": read(os.path.join(g, "f.rej")), "orig": read(os.path.join(g, "f.orig"))})
print(json.dumps(cases, indent=0))
