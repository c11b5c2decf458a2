#!/usr/bin/env python3
"""Write builtins/iconv_translit.txt and builtins/iconv_translit_utf8.txt:
glibc's transliterations in the C and C.UTF-8 locales (iconv -t
ASCII//TRANSLIT), the tables llmsh's iconv uses for //TRANSLIT (C.UTF-8's
includes translit_combining: é is e there, ? in C).

Run on a machine with glibc's iconv (Debian 12: glibc 2.36), from the
repository's root:

    python3 builtins/testdata/gen_iconv_translit.py

Every code point from U+0080 up (surrogates excepted) is converted, one to
a line, with LC_ALL=C (then C.UTF-8); the ones that do not come out as '?' are written,
consecutive code points whose replacements are consecutive single
characters as one run: "HEX<TAB>COUNT<TAB>REPLACEMENT" (the first
replacement of the run).
"""
import os
import subprocess

cps = [c for c in range(0x80, 0x110000) if not 0xD800 <= c < 0xE000]
data = "".join(chr(c) + "\n" for c in cps).encode()


def write(locale, name):
    out = subprocess.run(["iconv", "-f", "UTF-8", "-t", "ASCII//TRANSLIT"], input=data,
                         capture_output=True, check=True, env=dict(os.environ, LC_ALL=locale))
    lines = out.stdout.split(b"\n")
    table = {c: l.decode() for c, l in zip(cps, lines) if l != b"?"}
    runs = []
    for c in sorted(table):
        v = table[c]
        if runs:
            s, n, v0 = runs[-1]
            if s + n == c and len(v) == 1 and len(v0) == 1 and ord(v0) + n == ord(v):
                runs[-1] = (s, n + 1, v0)
                continue
        runs.append((c, 1, v))
    with open(name, "w") as f:
        for s, n, v in runs:
            assert "\t" not in v and "\n" not in v
            f.write("%X\t%d\t%s\n" % (s, n, v))


write("C", "builtins/iconv_translit.txt")
write("C.UTF-8", "builtins/iconv_translit_utf8.txt")
