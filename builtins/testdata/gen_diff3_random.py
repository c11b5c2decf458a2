#!/usr/bin/env python3
"""Generate builtins/testdata/diff3_random.json: random small file triples
(MYFILE OLDFILE YOURFILE) with the output of GNU diff3 (diffutils 3.8,
LC_ALL=C) for its output modes. llmsh's diff3 must print the same bytes
and exit with the same status (TestDiff3RandomGNU).

Usage: python3 builtins/testdata/gen_diff3_random.py > builtins/testdata/diff3_random.json
"""
import json
import os
import random
import subprocess
import tempfile

OPTS = [[], ["-m"], ["-e"], ["-A"], ["-E"], ["-3"], ["-x"], ["-m", "-E"], ["-m", "-3"], ["-T"], ["-i", "-e"]]
rng = random.Random(20261127)


def mutate(lines):
    lines = list(lines)
    for _ in range(rng.randrange(4)):
        op = rng.randrange(3)
        if op == 0 and lines:
            del lines[rng.randrange(len(lines))]
        elif op == 1:
            lines.insert(rng.randrange(len(lines) + 1), rng.choice(".abcdefgXYZ"))
        elif lines:
            lines[rng.randrange(len(lines))] = rng.choice("XYZab.")
    return lines


def text(lines):
    s = "".join(x + "\n" for x in lines)
    if s and rng.randrange(6) == 0:
        s = s[:-1]
    return s


cases = []
for i in range(150):
    base = [rng.choice("abcdefg") for _ in range(rng.randrange(12))]
    files = {"m": text(mutate(base)), "o": text(base), "y": text(mutate(base))}
    d = tempfile.mkdtemp()
    for n, c in files.items():
        with open(os.path.join(d, n), "w") as f:
            f.write(c)
    opts = OPTS[i % len(OPTS)]
    p = subprocess.run(["diff3"] + opts + ["m", "o", "y"], cwd=d, capture_output=True, env={"LC_ALL": "C"})
    cases.append({"m": files["m"], "o": files["o"], "y": files["y"], "args": opts,
                  "out": p.stdout.decode(), "err": p.stderr.decode(), "status": p.returncode})
print(json.dumps(cases, indent=0))
