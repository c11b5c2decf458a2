#!/usr/bin/env python3
"""Write builtins/tput_terminfo.txt: the terminfo entries llmsh's tput
knows (never the host's database at run time), and the names of every
standard capability, from ncurses 6.4 (Debian 12).

Run from the repository's root:

    python3 builtins/testdata/gen_tput_terminfo.py

The file holds three lines "bool: ...", "num: ...", "str: ..." (the
capability names of libtinfo's boolnames, numnames and strnames, in
order), then each entry as `infocmp -1 -x` prints it.
"""
import ctypes
import ctypes.util
import os
import subprocess

TERMS = ["xterm-256color", "xterm", "screen", "linux", "vt100", "dumb"]

lib = ctypes.CDLL(ctypes.util.find_library("tinfo") or "libtinfo.so.6")
with open("builtins/tput_terminfo.txt", "w") as f:
    for kind, sym in (("bool", "boolnames"), ("num", "numnames"), ("str", "strnames")):
        names = []
        for s in (ctypes.c_char_p * 1000).in_dll(lib, sym):
            if s is None:
                break
            names.append(s.decode())
        f.write("%s: %s\n" % (kind, " ".join(names)))
    env = dict(os.environ, LC_ALL="C")
    for t in TERMS:
        out = subprocess.run(["infocmp", "-1", "-x", t], capture_output=True, text=True, check=True, env=env)
        for line in out.stdout.splitlines():
            if not line.startswith("#"):
                f.write(line + "\n")
