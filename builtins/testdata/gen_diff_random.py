#!/usr/bin/env python3
"""Generate builtins/testdata/diff_random.json: random small file pairs with
the output of GNU diff (diffutils 3.8, LC_ALL=C) for several option sets.
diff must print exactly the same hunks (TestDiffRandomGNU).

Usage: python3 builtins/testdata/gen_diff_random.py > builtins/testdata/diff_random.json
"""
import json
import os
import random
import subprocess
import tempfile

FLAGSETS = [[], ["-u"], ["-U1"], ["-U0"], ["-c"], ["-C1"], ["-w"], ["-b", "-u"], ["-i"], ["-B"], ["-B", "-u"], ["-Z"], ["-d"]]
rng = random.Random(20261123)


def gen(alpha, big):
    k = rng.randrange(12)
    if rng.randrange(5) == 0:
        k = rng.randrange(200)
    if big:
        k = rng.randrange(800)
    na = 2 + rng.randrange(len(alpha) - 1)
    s = "".join(alpha[rng.randrange(na)] + "\n" for _ in range(k))
    if s and rng.randrange(6) == 0:
        s = s[:-1]
    return s


def mutate(a, alpha):
    out = []
    for line in a.splitlines(keepends=True):
        r = rng.randrange(8)
        if r == 0:
            continue
        if r == 1:
            out.append(alpha[rng.randrange(len(alpha))] + "\n")
            out.append(line)
        elif r == 2:
            out.append(alpha[rng.randrange(len(alpha))] + "\n")
        else:
            out.append(line)
    return "".join(out)


cases = []
small = ["a", "b", "c", "d", "", "A", " a", "a ", "x y", "x  y"]
large = small + [str(i) for i in range(300)]
for i in range(400):
    big = i >= 390
    alpha = large if big else small
    a = gen(alpha, big)
    b = gen(alpha, big) if rng.randrange(2) == 0 else mutate(a, alpha)
    flags = FLAGSETS[rng.randrange(len(FLAGSETS))]
    d = tempfile.mkdtemp()
    for n, c in (("a", a), ("b", b)):
        with open(os.path.join(d, n), "w") as f:
            f.write(c)
    args = flags + ["--label", "A", "--label", "B", "a", "b"]
    p = subprocess.run(["diff"] + args, executable="/usr/bin/diff", cwd=d, capture_output=True,
                       env={"LC_ALL": "C"})
    cases.append({"a": a, "b": b, "args": args, "out": p.stdout.decode(), "status": p.returncode})
print(json.dumps(cases, indent=0))
